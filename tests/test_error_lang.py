"""One-line input errors in the language asked for: ``--lang zh`` words the common input errors in
Chinese through the report catalog; the file, the field and the names given stay as written, and the
English lines are unchanged."""

from __future__ import annotations

import re

import pytest

from gpuwise.errors import UserError, either

from .clirun import gpuwise

CASES = [
    # (file text, English line after "gpuwise: FILE: ", Chinese line after it)
    ("workload: {task: inference, model: llama-3.1-7b}\n",
     "workload.model: unknown model 'llama-3.1-7b' (did you mean llama-3.1-8b or llama-3-8b?)",
     "workload.model: 未知模型“llama-3.1-7b”（你是不是指 llama-3.1-8b 或 llama-3-8b？）"),
    ("workload: {task: inference, model: llama-3.1-8b, concurent_requests: 3}\n",
     "workload.concurent_requests: unknown key (did you mean 'concurrent_requests'?)",
     "workload.concurent_requests: 未知的键（你是不是指“concurrent_requests”？）"),
    ("workload: {task: inference, model: llama-3.1-8b, context_len: -5}\n",
     "workload.context_len: must be at least 1 (got -5)",
     "workload.context_len: 必须不小于 1（给出的是 -5）"),
    ("workload: {task: inferense, model: llama-3.1-8b}\n",
     "workload.task: 'inferense' is not one of 'pretrain', 'finetune' or 'inference' (did you mean inference?)",
     "workload.task: 'inferense' 不是可选值之一：'pretrain'、'finetune' 或 'inference'"),
    ("workload: {model: llama-3.1-8b}\n",
     "workload.task: required field is missing",
     "workload.task: 缺少必填字段"),
    ("", "the file is empty", "文件为空"),
    ("workload: [1\n", None, "YAML 无效，第 2 行第 1 列："),
]


@pytest.mark.parametrize(("text", "en", "zh"), CASES)
def test_input_errors_in_english_and_chinese(tmp_path, text, en, zh):
    f = tmp_path / "req.yaml"
    f.write_text(text)
    run = gpuwise("recommend", str(f))
    assert run.returncode == 2 and run.stdout == ""
    if en is not None:
        assert run.stderr.strip() == f"gpuwise: {f}: {en}"
    run = gpuwise("recommend", str(f), "--lang", "zh")
    assert run.returncode == 2 and run.stdout == ""
    line = run.stderr.strip()
    assert line.startswith(f"gpuwise: {f}: {zh}") and "\n" not in line
    assert "Traceback" not in run.stderr


def test_missing_file_in_chinese(tmp_path):
    f = tmp_path / "none.yaml"
    run = gpuwise("audit", str(f), "--lang", "zh")
    assert run.returncode == 2
    assert run.stderr.strip() == f"gpuwise: {f}: 文件不存在"


def test_unknown_gpu_with_did_you_mean_in_chinese(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("workload: {task: inference, model: llama-3.1-8b}\nhardware: {gpu: H10-80G, count: 1}\n"
                 "acquisition: {mode: rent, hourly_usd: 2}\n")
    en = gpuwise("audit", str(f)).stderr.strip()
    zh = gpuwise("audit", str(f), "--lang", "zh").stderr.strip()
    assert "unknown gpu 'H10-80G'" in en
    assert zh.endswith("hardware.gpu: 未知 GPU“H10-80G”（你是不是指 h100-80gb-sxm、h800-80gb-sxm 或 h100-nvl-94gb？）")


def test_batch_lists_each_files_error_in_chinese(tmp_path):
    bad = tmp_path / "a.yaml"
    bad.write_text("workload: {task: inference, model: llama-3.1-8b, context_len: 0}\n")
    run = gpuwise("audit", str(bad), str(tmp_path / "b.yaml"), "--lang", "zh")
    assert run.returncode == 2
    flat = "".join(run.stdout.split())  # the summary wraps its lines
    assert "必须不小于1（给出的是0）" in flat and "b.yaml:文件不存在" in flat
    assert "workload.context_len: 必须不小于 1（给出的是 0）" in run.stderr


def test_choices_are_worded_per_language():
    assert either(["a", "b", "c"]).words("en") == "a or b or c"
    assert either(["'a'", "'b'", "'c'"], commas=True).words("en") == "'a', 'b' or 'c'"
    assert either(["a", "b", "c"]).words("zh") == "a、b 或 c"


def test_a_message_without_a_catalog_entry_stays_english():
    e = UserError("some new problem 100%", where="f.yaml: x")
    assert e.line("zh") == e.line() == "f.yaml: x: some new problem 100%"


# ----------------------------------------------- every command that writes words (issue 25, item 4)
RULE = """schema_version: 1
ruleset: mine
step: tco
rules:
  - id: MY-1
    title: my rule
    rationale: because the house says so
    source: our house policy
    fact: candidate
    when: [[{field}, "{op}", 1]]
    then: {{action: finding, severity: warning, topic: cost, message: "my message"}}
"""

FILES: dict[str, str] = {
    "k1/policy.yaml": "schema_version: 1\nbogus: 1\n",
    "r1/a.yaml": RULE.format(field="cuont", op=">"),
    "r2/a.yaml": RULE.format(field="count", op="~"),
    "r3/a.yaml": "schema_version: 1\nrules: []\n",
    "plan.yaml": "horizon_months: 12\nworkloads:\n  - name: a\n    workload: {task: inference, model: llama-3.1-8b}\n"
                 "    cadence: {per_month: 2}\n",
    "ctx.yaml": "workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 100, output_tokens: 100, "
                "context_len: 100}\n",
    "used.yaml": "title: x\nworkload: {task: inference, model: llama-3.1-8b}\nhardware: {gpu: RTX 3090, count: 1}\n"
                 "acquisition: {mode: buy, unit_price_usd: 700}\nused_cards: [{serial: a, manufactured: 2099-01}]\n",
    "cat.csv": "gpu,GPUS,cost\nh100,8,2\n",  # 'cost', not 'price': a header of the layout's columns in capitals is read
    "q.yaml": "workload: {task: inference, model: llama-3.1-8b}\n",
}

COMMANDS = [
    # (arguments, the English line as it was before the catalog took these messages, a Chinese part)
    (["gpus", "--knowledge", "k1"], "gpuwise: k1/policy.yaml: bogus: unknown policy 'bogus' "
     "(knowledge/policy.yaml lists them)", "未知策略“bogus”（knowledge/policy.yaml 列出了全部取值）"),
    (["rules", "--rules", "r1"], "gpuwise: r1/a.yaml: rule MY-1: a condition names unknown field 'cuont' of a "
     "candidate fact (did you mean 'count'?)",
     "条件引用了 candidate 事实中不存在的字段“cuont”（你是不是指“count”？）"),
    (["rules", "--rules", "r2"], "gpuwise: r2/a.yaml: rule MY-1: unknown operator '~' in ['count', '~', 1] "
     "(use one of ==, !=, <, <=, >, >=, in)", "运算符“~”未知"),
    (["recommend", "q.yaml", "--rules", "r3"], "gpuwise: r3/a.yaml: ruleset: Field required",
     "ruleset: 缺少必填字段"),
    (["plan", "plan.yaml"], "gpuwise: plan.yaml: workloads[0]: an inference workload is a service: give cadence "
     "continuous: true", "推理工作负载是持续服务：请给出 cadence continuous: true"),  # the workload is not quoted back
    (["recommend", "ctx.yaml"], None, "context_len 100 不等于 prompt_tokens + output_tokens（100 + 100 = 200）"),
    (["audit", "used.yaml"], None, "used_cards[0]: manufactured 2099-01 在未来（今天是"),
    (["prices", "import", "cat.csv", "-o", "out"], "gpuwise: cat.csv: not a price catalog: the header lacks gpus, "
     "price (read as the gpuwise layout) (did you mean 'GPUS' for 'gpus'?)",  # the file's GPUS is to become gpus
     "不是价目表：表头缺少 gpus, price（按 gpuwise 格式读取）（列 'GPUS' 是不是应为 'gpus'？）"),
    (["estimate", "q.yaml", "--gpus", "x"], "gpuwise: error: argument --gpus: 'x' is not a whole number of GPUs "
     "(see `gpuwise estimate --help`)",
     "gpuwise: 错误：参数 --gpus：'x' 不是整数块 GPU（见 `gpuwise estimate --help`）"),
    # a negative count is a whole number below the range, not a fraction (review33)
    (["estimate", "q.yaml", "--gpus", "-1"], "gpuwise: error: argument --gpus: -1 GPUs is out of range: give 1 to "
     "100,000 (see `gpuwise estimate --help`)",
     "gpuwise: 错误：参数 --gpus：-1 块 GPU 超出范围：请给出 1 到 100,000（见 `gpuwise estimate --help`）"),
    (["recommend", "q.yaml", "--format", "pdf"], "gpuwise: error: argument --format: invalid choice: 'pdf' (choose "
     "from 'text', 'md', 'html', 'json') (see `gpuwise recommend --help`)",
     "gpuwise: 错误：参数 --format：无效的选项：'pdf'（可选："),
    (["recommend"], "gpuwise: error: the following arguments are required: REQUIREMENTS.yaml "
     "(see `gpuwise recommend --help`)",
     "gpuwise: 错误：缺少必需的参数：REQUIREMENTS.yaml（见 `gpuwise recommend --help`）"),
    (["recommend", "q.yaml", "-o", "x.pdf"], None,
     "无法从后缀“.pdf”判断报告格式（请把文件命名为 .md、.html、.json 或 .txt，或给出 --format）"),
    (["gpus", "--knowledge", "none"], "gpuwise: none: --knowledge: no such directory", "none: --knowledge：目录不存在"),
]


@pytest.mark.parametrize(("args", "en", "zh"), COMMANDS, ids=lambda x: "-".join(x) if isinstance(x, list) else "")
def test_every_command_s_errors_in_chinese(tmp_path, args, en, zh):
    """Knowledge overlays, --rules house-rule files, plan files, validators' own complaints, prices
    import and argparse's usage lines: the same exit status in both languages, the English line as
    it was, and the Chinese line with no run of English words outside names, code and quotes."""
    from .test_report_zh_all import english_runs

    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text)
    english = gpuwise(*args, cwd=tmp_path)
    chinese = gpuwise(*args, "--lang", "zh", cwd=tmp_path)
    assert english.returncode == chinese.returncode == 2
    line = chinese.stderr.strip()
    assert "\n" not in line and "Traceback" not in chinese.stderr
    if en is not None:
        assert english.stderr.strip() == en
    assert zh in line
    quoted = r"“[^”]*”|`[^`]*`|\{[^}]*\}|'[^']*'|\S+\.(?:yaml|csv|txt|pdf)"
    assert english_runs(re.sub(quoted, " ", line)) == []


def test_every_error_site_words_its_message_from_the_catalog():
    """No raise of a one-line error (UserError, KnowledgeError, RuleError) or of a validator's
    complaint (in the modules whose ValueErrors a user reads) with English built in the code: its
    message is an N_() template (values apart) or a variable holding one; every module that marks
    one is extracted (babel.cfg), so tests/test_report.py finds each template translated."""
    import ast
    from pathlib import Path

    from . import sources

    root = Path(__file__).parent.parent
    cfg = (root / "gpuwise" / "render" / "locale" / "babel.cfg").read_text()
    validators = {"gpuwise/decide/rulebook.py", "gpuwise/plan/schema.py",
                  *(f"gpuwise/inputs/{n}.py" for n in ("schema", "strict", "workload", "workload_sections",
                                                       "requirements", "proposal")),
                  *(f"gpuwise/knowledge/schema/{p.name}" for p in (root / "gpuwise/knowledge/schema").glob("*.py"))}
    bad, unlisted = [], []
    for path in sorted((root / "gpuwise").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for node in sources.walk(sources.tree(path)):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name) or not node.args:
                continue
            user = node.func.id in ("UserError", "KnowledgeError", "RuleError")
            if not (user or (node.func.id == "ValueError" and rel in validators)):
                continue
            for arg in [node.args[0], *(k.value for k in node.keywords if k.arg == "hint")]:
                if isinstance(arg, (ast.JoinedStr, ast.Constant)):
                    bad.append(f"{rel}:{node.lineno}")
        if "N_(" in path.read_text(encoding="utf-8") and rel != "gpuwise/errors.py":
            covered = f"[python: {rel}]" in cfg or (rel.startswith("gpuwise/render/views/")
                                                    and "[python: gpuwise/render/views/**.py]" in cfg) or (
                rel.startswith("gpuwise/knowledge/schema/") and "[python: gpuwise/knowledge/schema/**.py]" in cfg)
            if not covered:
                unlisted.append(rel)
    how = ("word the message as N_('... %(name)s ...') with values= (a validator: raise errors.Said(N_(...), "
           "name=value)) and list the module in babel.cfg; see gpuwise/render/locale/README.md")
    assert bad == [], f"{how}: {bad}"
    assert unlisted == [], f"{how}: {unlisted}"


def test_what_was_written_and_a_batch_s_line_in_chinese(tmp_path):
    """"gpuwise: wrote FILE" and a batch's one stderr line (the first error, how many more, what was
    written) in the language asked for; the English as before."""
    (tmp_path / "q.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, seq_len: 2048, "
                                     "train_tokens: 1.0e6}\nconstraints: {max_gpus: 1}\n")
    run = gpuwise("recommend", "q.yaml", "-o", "out.txt", "--lang", "zh", cwd=tmp_path)
    assert run.stderr.strip() == "gpuwise: 已写入 out.txt"
    assert gpuwise("recommend", "q.yaml", "-o", "out.txt", cwd=tmp_path).stderr.strip() == "gpuwise: wrote out.txt"
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("workload: {task: inference, model: llama-3.1-8b, context_len: 0}\n")
    en = gpuwise("audit", "a.yaml", "b.yaml", "-o", "s.md", cwd=tmp_path)
    zh = gpuwise("audit", "a.yaml", "b.yaml", "-o", "s.md", "--lang", "zh", cwd=tmp_path)
    assert en.returncode == zh.returncode == 2
    assert en.stderr.strip().endswith(" (and 1 more file with errors; see the summary); wrote s.md (the errors alone)")
    assert zh.stderr.strip().endswith("（另有 1 个文件出错，见汇总）；已写入 s.md（只有错误）")


def test_an_unknown_rule_s_did_you_mean_in_chinese():
    en = gpuwise("explain", "MARKET-CHINA-IMPOR").stderr.strip()
    zh = gpuwise("explain", "MARKET-CHINA-IMPOR", "--lang", "zh").stderr.strip()
    assert en.startswith("gpuwise: unknown rule 'MARKET-CHINA-IMPOR' (did you mean MARKET-CHINA-IMPORT or ")
    assert zh.startswith("gpuwise: 未知规则“MARKET-CHINA-IMPOR”（你是不是指 MARKET-CHINA-IMPORT、")


def test_argparse_s_argument_prefix_in_chinese_on_every_python():
    """Python 3.10 does not pass ``argument NAME: MESSAGE`` through gettext (3.11+ do), so the
    Chinese line read 'argument --format: ...' there; argparse_in words ArgumentError the 3.11 way
    on every Python, and gives the class its own wording back afterwards."""
    import argparse

    from gpuwise.cli_words import argparse_in

    err = argparse.ArgumentError(None, "boom")
    err.argument_name = "--format"
    english = str(err)
    with argparse_in("zh"):
        assert str(err) == "参数 --format：boom"
    assert str(err) == english == "argument --format: boom"


def test_a_prefix_of_one_gpu_name_hints_without_nested_brackets(tmp_path):
    """'MI355' starts one catalog id only (mi355x): the hint names it once, in one pair of brackets; it read
    "(did you mean mi355x? (give the whole name))" (review46)."""
    f = tmp_path / "q.yaml"
    f.write_text("workload: {task: inference, model: llama-3.1-8b}\n")
    en = gpuwise("estimate", str(f), "--gpu", "MI355").stderr.strip()
    zh = gpuwise("estimate", str(f), "--gpu", "MI355", "--lang", "zh").stderr.strip()
    assert en == "gpuwise: --gpu: unknown gpu 'MI355' (give the whole name: did you mean mi355x?)"
    assert en.count("(") == 1 and en.count(")") == 1
    assert "请写完整名称：你是不是指 mi355x？" in zh and zh.count("（") == 1
