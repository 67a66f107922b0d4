"""The command line as users and scripts meet it: the contract's commands, JSON keys, exit
codes, and one clear line (never a traceback) on bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.clirun import gpuwise, process

# conftest: audits of one question share the search; recommend runs of one file render one recommendation
pytestmark = pytest.mark.usefixtures("audits_share_their_search", "cli_answers_shared")


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests read what the text says, not how it is wrapped (tests/test_terminal_width.py does that)."""
    monkeypatch.setenv("COLUMNS", "400")

ROOT = Path(__file__).parent.parent
EX = ROOT / "examples"


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """The command in this process (tests/clirun.py); the tests that need the real process --
    the entry point, argparse's exit -- call ``process``."""
    return gpuwise(*args, cwd=cwd)


def test_version():
    p = process("--version")
    assert p.returncode == 0 and p.stdout.strip().startswith("gpuwise ")


def test_estimate_json_has_the_contract_keys():
    p = run("estimate", str(EX / "finetune-full-13b.yaml"), "--gpu", "H100-80G", "--gpus", "8", "--format", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    assert set(d["memory"]) >= {"per_gpu_bytes", "total_bytes", "breakdown"}
    assert set(d["memory"]["breakdown"]) == {"weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"}
    assert isinstance(d["memory"]["per_gpu_bytes"], int)
    assert sum(d["memory"]["breakdown"].values()) == pytest.approx(d["memory"]["per_gpu_bytes"], abs=8)
    assert d["memory"]["total_bytes"] == pytest.approx(8 * d["memory"]["per_gpu_bytes"], abs=8)
    assert d["compute"]["flops"] > 0
    g = d["gpu"]
    assert g["id"] == "h100-80gb-sxm" and g["count"] == 8
    assert set(g) >= {"fits", "gpu_hours", "wall_hours", "decode_tokens_per_s", "cost_usd"}
    # GPU-hours count the training itself, as published runs count them; the wall clock also has
    # the job's start-up and wind-down (runtime.yaml training.job_setup_hours).
    setup = next(t["value"] for t in g["terms"] if t["name"] == "job_setup_hours")
    assert setup == 0.25
    assert g["gpu_hours"] == pytest.approx(8 * (g["wall_hours"] - setup))


def test_estimate_inference_reports_decode_speed():
    p = run("estimate", str(EX / "inference-8b-int4.yaml"), "--gpu", "4090", "--format", "json")
    g = json.loads(p.stdout)["gpu"]
    assert g["decode_tokens_per_s"] > 50 and g["gpu_hours"] is None


def test_estimate_without_gpu_has_no_gpu_block():
    d = json.loads(run("estimate", str(EX / "lora-70b.yaml"), "--format", "json").stdout)
    assert "gpu" not in d or d["gpu"] is None


def test_recommend_json_has_the_contract_keys():
    p = run("recommend", str(EX / "finetune-full-13b.yaml"), "--format", "json")
    assert p.returncode == 0, p.stderr
    d = json.loads(p.stdout)
    rec = d["recommendation"]
    assert set(rec) >= {"gpu", "count", "nodes", "acquisition", "wall_days", "total_cost_usd", "summary"}
    c = d["candidates"][0]
    assert set(c) >= {"gpu", "count", "feasible", "rank", "memory_per_gpu_bytes", "wall_days", "total_cost_usd",
                      "reasons"}
    assert c["rank"] == 1 and c["feasible"] and c["gpu"] == rec["gpu"]
    rejected = [x for x in d["candidates"] if not x["feasible"]]
    assert rejected and all(x["reasons"] for x in rejected)
    for f in d["findings"]:
        assert set(f) >= {"rule", "severity", "topic", "message", "evidence", "fix", "source"}
    for t in d["trace"]:
        assert set(t) >= {"rule", "step", "conclusion", "facts", "source"}


def test_recommend_exit_1_when_nothing_is_feasible(tmp_path):
    req = tmp_path / "r.yaml"
    req.write_text("workload: {task: inference, model: llama-3.1-405b}\nconstraints: {gpus: [RTX 4090], max_gpus: 2}\n")
    p = run("recommend", str(req), "--format", "json")
    assert p.returncode == 1
    assert json.loads(p.stdout)["recommendation"] is None


def test_output_file_format_from_suffix(tmp_path):
    out = tmp_path / "r.json"
    p = run("recommend", str(EX / "inference-8b-int4.yaml"), "-o", str(out))
    assert p.returncode == 0 and json.loads(out.read_text())["recommendation"]
    md = tmp_path / "r.md"
    assert run("recommend", str(EX / "inference-8b-int4.yaml"), "-o", str(md)).returncode == 0
    assert md.read_text().lstrip().startswith("#")


@pytest.mark.parametrize("body,expect", [
    ("workload: {task: finetune, model: llama-2-7b, batch_sise: 2}\n",
     ["workload.batch_sise", "did you mean 'batch_size'"]),
    ("workload: {task: finetune, model: lama-2-7b}\n", ["workload.model", "did you mean llama-2-7b"]),
    ("workload: {task: finetune, model: llama-2-7b}\nconstraints: {gpus: [A100]}\n", ["ambiguous", "a100-80gb-sxm"]),
    ("workload: {task: finetune, model: llama-2-7b}\nconstraints: {gpus: [RTX 4900]}\n", ["did you mean rtx-4090"]),
    ("workload: {task: finetune, model: llama-2-7b, seq_len: -5}\n", ["workload.seq_len"]),
    ("workload: {task: train, model: llama-2-7b}\n", ["workload.task"]),
    # an engine as its users name it: Ollama runs llama.cpp's kernels (difflib alone offered exllama)
    ("workload: {task: inference, model: llama-3.1-8b, framework: Ollama}\n",
     ["workload.framework", "did you mean llama.cpp?"]),
    ("workload: {task: finetune}\n", ["params_b"]),
    ("", ["empty"]),
    ("workload: [1, 2\n", ["invalid YAML"]),
    ("workload: !!python/object/apply:os.system ['echo hi']\n", ["r.yaml"]),
])
def test_bad_input_is_one_line_with_file_and_field(tmp_path, body, expect):
    req = tmp_path / "r.yaml"
    req.write_text(body)
    out = tmp_path / "out.html"
    p = run("recommend", str(req), "-o", str(out))
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert "Traceback" not in p.stderr and str(req) in lines[0]
    for e in expect:
        assert e in lines[0]
    assert not out.exists()  # no partial output file


def test_missing_file_and_bad_usage():
    p = run("recommend", "no-such-file.yaml")
    assert p.returncode == 2 and "no such file" in p.stderr
    p = run("estimate", str(EX / "lora-70b.yaml"), "--gpus", "0")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = process("frobnicate")
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1


def test_gpus_rules_explain():
    p = run("gpus", "--format", "json")
    gpus = json.loads(p.stdout)["gpus"]
    assert len(gpus) >= 30 and all(g["peaks"]["source"] for g in gpus)
    assert "h100-80gb-sxm" in run("gpus").stdout
    rules = json.loads(run("rules", "--format", "json").stdout)["rules"]
    assert len(rules) > 50
    p = run("explain", "MEM-NO-FIT")
    assert p.returncode == 0 and "Why it matters" in p.stdout and "Source" in p.stdout
    p = run("explain", "MEM-NOFIT")
    assert p.returncode == 2 and "did you mean MEM-NO-FIT" in p.stderr


def test_audit_exit_status_and_json_lines():
    good = run("audit", str(EX / "proposal-good-lora-8xh100.yaml"), "--format", "json")
    assert good.returncode == 0, good.stderr
    assert json.loads(good.stdout)["verdict"] == "approve"  # the sound proposal: no blocker, no warning
    bad = run("audit", str(EX / "proposal-h100-old-driver.yaml"), "--format", "json")
    assert bad.returncode == 1
    d = json.loads(bad.stdout)
    assert d["verdict"] == "reject" and set(d) >= {"verdict", "findings", "alternative"}
    many = run("audit", str(EX / "proposal-good-lora-8xh100.yaml"), str(EX / "proposal-h100-old-driver.yaml"),
               "--format", "json")  # in this process: real batches run as processes in test_batch_folder/test_odd_paths
    assert many.returncode == 1
    docs = [json.loads(line) for line in many.stdout.splitlines()]
    assert [d["verdict"] for d in docs][1] == "reject" and len(docs) == 2


def test_knowledge_overlay_from_the_command_line(tmp_path):
    d = tmp_path / "kb"
    d.mkdir()
    (d / "clouds.yaml").write_text("""gpu_hour_prices:
  - {provider: runpod, gpu: rtx-4090, usd_per_gpu_hour: 0.01, as_of: 2026-11-01, source: our negotiated price}
""")
    p = run("estimate", str(EX / "inference-8b-int4.yaml"), "--gpu", "4090", "--format", "json", "--knowledge", str(d))
    assert json.loads(p.stdout)["gpu"]["cost"]["usd_per_gpu_hour"] == 0.01


def test_public_api_names_stay_functions():
    """`from gpuwise import estimate, recommend, audit` gives the functions even after the modules
    behind them are imported (a submodule of the same name would rebind the package attribute)."""
    code = ("import gpuwise; from gpuwise import recommend, estimate, audit\n"
            "r = recommend('examples/inference-8b-int4.yaml')\n"
            "from gpuwise import recommend as again, estimate as e2, audit as a2\n"
            "assert callable(again) and callable(e2) and callable(a2)\n"
            "assert again('examples/inference-8b-int4.yaml').model_dump(mode='json')['recommendation']\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr


def test_batch_audit_summary_table(tmp_path):
    files = [str(EX / "proposal-good-lora-8xh100.yaml"), str(EX / "proposal-spot-h100-pretrain.yaml")]
    p = run("audit", *files)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert lines[0] == "Audit of 2 proposals"
    assert any("proposal-good-lora-8xh100.yaml" in x and "APPROVE" in x for x in lines)
    assert any("proposal-spot-h100-pretrain.yaml" in x and "REJECT" in x for x in lines)
    assert "2 proposals: 1 approve, 0 revise, 1 reject, 0 input errors" in p.stdout
    out = tmp_path / "summary.md"
    assert run("audit", *files, "-o", str(out)).returncode == 1
    assert out.read_text().startswith("# Audit of 2 proposals")


def test_batch_audit_error_in_one_file_the_others_finish_and_are_written(tmp_path, monkeypatch, capsys):
    """An input error in one file and a failure inside gpuwise on another are each reported for
    that file; every other file is audited and the summary is written (exit 3: a bug was met)."""
    from gpuwise import batch
    from gpuwise.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text("workload: {task: finetune, model: llama-2-13b}\nhardware: {gpu: H100-80G, count: yes}\n"
                   "acquisition: {mode: buy}\n")
    crash = tmp_path / "crash.yaml"
    crash.write_text((EX / "proposal-good-lora-8xh100.yaml").read_text())
    real = batch.audit

    def audit(path, **kw):
        if path == str(crash):
            raise ArithmeticError("Could not assert fact, error code: 204")
        return real(path, **kw)

    monkeypatch.setattr(batch, "audit", audit)
    good, spot = str(EX / "proposal-good-lora-8xh100.yaml"), str(EX / "proposal-spot-h100-pretrain.yaml")
    out = tmp_path / "summary.json"
    code = main(["audit", good, str(bad), str(crash), spot, "--format", "json", "-o", str(out)])
    err = capsys.readouterr().err
    assert code == 3
    docs = json.loads(out.read_text())  # a .json file: one document, the array of the audits (contractfix63)
    assert [d.get("verdict") for d in docs] == ["approve", None, None, "reject"]
    assert "hardware.count" in docs[1]["error"] and "internal error" in docs[2]["error"]
    assert "crash.yaml" in docs[2]["error"] and "1 more file with errors" in err
    assert err.count("\n") == 1 and f"wrote {out} (the results of the 2 other files)" in err  # one line says both


def test_batch_audit_input_error_alone_exits_2(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("workload: {task: finetune, model: llama-2-13b}\nhardware: {gpu: b2, count: 8}\n"
                   "acquisition: {mode: buy}\n")
    p = run("audit", str(EX / "proposal-good-lora-8xh100.yaml"), str(bad))
    assert p.returncode == 2
    assert "APPROVE" in p.stdout and "input error" in p.stdout
    assert "did you mean b200" in p.stderr and len(p.stderr.splitlines()) == 1


def test_batch_audit_summary_to_standard_output_with_dash():
    p = run("audit", str(EX / "proposal-good-lora-8xh100.yaml"), str(EX / "proposal-spot-h100-pretrain.yaml"),
            "-o", "-", "--format", "md")
    assert p.returncode == 1 and p.stdout.startswith("# Audit of 2 proposals")
    assert not (ROOT / "-").exists()


def test_batch_audit_never_overwrites_a_proposal(tmp_path):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    for f in (a, b):
        f.write_text((EX / "proposal-good-lora-8xh100.yaml").read_text())
    before = b.read_text()
    p = run("audit", str(a), str(b), "-o", str(b), "--format", "text")
    assert p.returncode == 2 and "input file" in p.stderr and b.read_text() == before


def test_a_file_priced_in_yuan_gets_a_report_in_yuan(tmp_path):
    """constraints.currency: CNY makes CNY the report's default currency (contract v2: the
    currency of every amount in the file); --currency USD still wins; JSON stays in USD."""
    req = tmp_path / "cny.yaml"
    req.write_text("workload: {task: finetune, model: llama-3.1-8b, method: lora}\n"
                   "constraints: {currency: CNY, budget_usd: 50000}\n")
    p = run("recommend", str(req))
    assert p.returncode == 0, p.stderr
    answer = p.stdout.split("=== Answer ===")[1].split("===")[0]  # the answer's amounts (headline, budget)
    assert "CN¥" in answer and "$" not in answer
    p = run("recommend", str(req), "--currency", "USD")
    answer = p.stdout.split("=== Answer ===")[1].split("===")[0]
    assert "$" in answer and "CN¥" not in answer
    d = json.loads(run("recommend", str(req), "--format", "json").stdout)
    assert d["currency"]["asked"] == "CNY" and d["recommendation"]["total_cost_usd"] > 0


@pytest.mark.parametrize("argv", [
    ["recommend", "examples/lora-70b.yaml", "--format", "json", "--lang", "zh", "--detail", "full"],
    ["audit", "a.yaml", "b.yaml", "-o", "out.md", "--rules", "r", "--knowledge", "k"],
    ["estimate", "x.yaml", "--gpu", "H100", "--gpus", "8", "--fx-rate", "7.1"],
    ["prices", "import", "f.csv", "-o", "dir", "--as-of", "2026-01-01"],
    ["plan", "p.yaml", "--currency", "CNY"], ["gpus"], ["rules", "--facts"], ["explain", "MEM-001"],
])
def test_the_parser_of_one_command_reads_it_as_the_whole_parser(argv):
    """A run builds only the command it names (cli.build_parser's ``only``): the line means the
    same, and ``--help``, the command's own help and its usage errors read the same."""
    import contextlib
    import io

    from gpuwise import cli

    whole, one = cli.build_parser(), cli.build_parser(argv[0])
    assert vars(one.parse_args(argv)) == vars(whole.parse_args(argv))
    assert one.format_help() == whole.format_help()
    sub = {name: p for a in whole._subparsers._group_actions for name, p in a.choices.items()}
    sub_one = {name: p for a in one._subparsers._group_actions for name, p in a.choices.items()}
    assert sub_one[argv[0]].format_help() == sub[argv[0]].format_help()
    errors = []
    for parser in (whole, one):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), pytest.raises(SystemExit):
            parser.parse_args([argv[0], "--no-such-option"])
        errors.append(err.getvalue())
    assert errors[0] == errors[1]
