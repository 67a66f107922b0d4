"""review61: the questionnaire, ``estimate``, ``gpus``, ``explain``, ``rules`` and ``prices`` read as a new user
would (an ML engineer sizing a 70B LoRA fine-tune on rented H100s, a team lead pricing a Qwen3-235B-A22B service at
20 requests/s, an approver checking a 16 x B200 quote). Each test fails on the branch point e9d34e74; the figures are
worked by hand in the test.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from gpuwise.ask.questionnaire import _Session, _show_result, load_questions
from gpuwise.decide.recommend import recommend
from gpuwise.knowledge import load
from tests.clirun import ROOT, gpuwise

# the runner-up (H100 on lambda, an overlay's 2023 quote below runpod's 2.69) carries the only out-of-date price; the
# answer (A100 on runpod, priced 2026-09-25) rests on current prices alone (the setting of tests/test_stale_brief.py)
Q = "workload: {task: inference, model: llama-3.1-8b}\nconstraints: {acquisition: rent, gpus: [h100-80gb-sxm, " \
    "a100-80gb-sxm]}\n"
OLD = ("gpu_hour_prices:\n  - {provider: lambda, gpu: h100-80gb-sxm, usd_per_gpu_hour: 2.60, as_of: 2023-06-01,\n"
       "     source: 'an old quote'}\n")


@pytest.fixture
def asked(tmp_path: Path) -> tuple[str, str]:
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(OLD)
    (tmp_path / "q.yaml").write_text(Q)
    return str(tmp_path / "q.yaml"), str(tmp_path / "kb")


def _run(*args: str, code: int = 0) -> str:
    r = gpuwise(*args)
    assert r.returncode == code, r.stderr
    return r.stdout


# ------------------------------------------------------------------------------------------------ 1
def test_markdown_and_html_banners_say_an_old_price_is_another_options(asked: tuple[str, str]) -> None:
    """A Qwen3-235B service bought on B300: the Markdown report `ask` writes opened '1 price used here is out of
    date; see Data freshness.' and listed the runner-up B200's 2024 host share as 'Old price' under the B300's
    'Price used', while the text brief said '1 price of another option is out of date'. The JSON's stale price has
    answer false: the answer's own prices count 0, the other options' 1."""
    q, kb = asked
    d = json.loads(_run("recommend", q, "--knowledge", kb, "--format", "json"))
    assert [s["answer"] for s in d["stale_prices"]] == [False]
    for fmt in ("md", "html"):
        out = _run("recommend", q, "--knowledge", kb, "--format", fmt)
        assert "1 price of another option is out of date; see Data freshness." in out, fmt
        assert "used here" not in out, fmt
        said = "rent NVIDIA H100 SXM5 80GB (lambda), another option's: price as of 2023-06-01"
        assert (said if fmt == "md" else said.replace("'", "&#39;")) in out, fmt
    full = _run("recommend", q, "--knowledge", kb, "--detail", "full")
    assert "! 1 price of another option is out of date; see Data freshness." in full
    zh = _run("recommend", q, "--knowledge", kb, "--format", "md", "--lang", "zh")
    assert "其他方案的 1 个价格已过时，见“数据时效”。" in zh and "本报告使用的" not in zh


# ------------------------------------------------------------------------------------------------ 2
def test_ask_shows_the_answers_warnings_as_the_brief_counts_them(asked: tuple[str, str], tmp_path: Path) -> None:
    """After the questions, `ask` listed under 'Findings' every candidate's warnings: the runner-up's stale price
    (DATA-STALE-PRICE) beside an answer the report it wrote says has 0 warnings. It now lists the answer's, as the
    brief does, and says how many more the report has about options not chosen (here 1: the H100's lambda price)."""
    q, kb = asked
    result = recommend(q, knowledge=kb)
    stale = [x for x in result.findings if x.rule == "DATA-STALE-PRICE"]
    assert stale and all(x.severity == "warning" for x in stale)
    brief = _run("recommend", q, "--knowledge", kb)
    assert "(the answer's: 0 blockers, 0 warnings" in brief
    s = _Session(load_questions(), load(kb), tmp_path / "answers.yaml", lang="en", currency=None)
    console = Console(file=io.StringIO(), width=300, highlight=False, color_system=None)
    _show_result(console, s, result)
    out = console.file.getvalue()
    assert "DATA-STALE-PRICE" not in out
    others = sum(1 for x in result.findings if x.severity in ("blocker", "warning"))
    assert others == len(stale) == 1
    assert (f"Blockers and warnings about options not chosen: 1, in the full report (`gpuwise recommend "
            f"{tmp_path / 'answers.yaml'} --detail full`)") in " ".join(out.split())
    s.lang = "zh"
    console = Console(file=io.StringIO(), width=300, highlight=False, color_system=None)
    _show_result(console, s, result)
    assert "未选方案的阻断项和警告：1 条" in console.file.getvalue()


# ------------------------------------------------------------------------------------------------ 3
LORA_70B = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "seq_len": 4096,
                         "train_tokens": 1.0e8}, "constraints": {"gpus": ["H100"], "acquisition": "rent"}}


def test_estimate_without_a_gpu_says_the_settings_it_left_off() -> None:
    """The ML engineer's 70B LoRA: `estimate` without --gpu read 316.3 GB a GPU, and recommend 'does not fit one
    GPU's memory (162.5 GB needed)'. Both are right: without a GPU no layout is chosen, so gradient checkpointing
    (auto: 'gpuwise turns it on only where the layout needs it') is off here, and the activations are those of
    every layer, 80 x 4,096 x 458,233.6 B (the bytes a token and layer the estimate's formula shows) = 150.2 GB,
    plus the logits 12 x 128,256 x 4,096 = 6.3 GB and 2 x 2 x 8,192 x 4,096 = 0.13 GB: 156.6 GB. The estimate said
    nothing of it; it now says which settings were taken as off, and a file that states them gets no such note."""
    from gpuwise import estimate

    r = estimate(LORA_70B)
    act = 80 * 4096 * 458233.6 + 12 * 128256 * 4096 + 2 * 2 * 8192 * 4096
    assert r.memory.breakdown["activations"] == pytest.approx(act, rel=1e-3)
    said = [n for n in r.memory.notes if n.startswith("no --gpu")]
    assert said == ["no --gpu: the job as stated, on one GPU; what gpuwise chooses with a GPU's layout is taken as off "
                    "(gradient checkpointing off, ZeRO stage 0, no offload); give --gpu to see the layout it would "
                    "choose and its memory"]
    assert r.memory.notes_phrases[0][0][1] == "note.as_written"
    stated = estimate({**LORA_70B, "workload": {**LORA_70B["workload"], "gradient_checkpointing": True,
                                                "zero_stage": 0, "offload": "none"}})
    assert not [n for n in stated.memory.notes if n.startswith("no --gpu")]
    some = estimate({**LORA_70B, "workload": {**LORA_70B["workload"], "gradient_checkpointing": False,
                                              "zero_stage": 2}}, gpus=4)
    assert [n for n in some.memory.notes if n.startswith("no --gpu")] == [
        "no --gpu: the job as stated, on 4 GPUs; what gpuwise chooses with a GPU's layout is taken as off (no "
        "offload); give --gpu to see the layout it would choose and its memory"]
    assert not [n for n in estimate(LORA_70B, gpu="H100", gpus=8).memory.notes if n.startswith("no --gpu")]
    zh = _run("estimate", str(ROOT / "examples" / "lora-70b.yaml"), "--lang", "zh")
    assert "未给出 --gpu：按所写的作业、在一块 GPU 上计算" in zh and "（ZeRO 阶段 0，不卸载）" in zh


# ------------------------------------------------------------------------------------------------ 4
QWEN = {"workload": {"task": "inference", "model": "qwen3-235b-a22b", "prompt_tokens": 2000, "output_tokens": 500,
                     "requests_per_s": 20, "p95_ttft_s": 2}}


def test_a_service_estimate_on_one_gpu_by_default_says_so_and_how_many_hold_it() -> None:
    """The team lead's Qwen3-235B-A22B on `--gpu B300` without --gpus: 'does not fit: one GPU would hold 476.3 GB',
    the count (docs/formats.md: 1 for inference) said nowhere. Its bf16 weights are 235e9 x 2 B = 470 GB, more
    than a B300's 288.4 GB less 5% headroom (274.0 GB usable); on 2 each holds half, 235 GB: the assumption on
    --gpus now says so. A count given, or a copy that fits on one (Llama 3.1 8B: 16 GB), reads without 'cannot'."""
    from gpuwise import estimate

    r = estimate(QWEN, gpu="B300")
    assert r.gpu.fits is False and r.memory.per_gpu_bytes > 470e9
    said = [a for a in r.assumptions if a.field == "--gpus"]
    assert len(said) == 1 and said[0].value == 1
    assert said[0].reason == "no --gpus: one GPU for a service, which cannot hold it; 2 can (give --gpus 2)"
    two = estimate(QWEN, gpu="B300", gpus=2)
    assert two.gpu.fits is True and not [a for a in two.assumptions if a.field == "--gpus"]
    assert 470e9 / 2 < two.memory.per_gpu_bytes < 0.95 * 288.4e9
    small = estimate({"workload": {**QWEN["workload"], "model": "llama-3.1-8b"}}, gpu="B300")
    assert [a.reason for a in small.assumptions if a.field == "--gpus"] == ["no --gpus: one GPU for a service"]
    out = _run("estimate", str(ROOT / "examples" / "inference-70b.yaml"), "--gpu", "rtx-4090")
    assert "--gpus: 1" in out and "which cannot hold it" in out


# ------------------------------------------------------------------------------------------------ 5
def test_prices_say_how_a_gpu_name_was_read_and_the_variants_left_out() -> None:
    """`prices --gpu H100` listed the SXM module's prices alone (catalog rule: a name without the form factor means
    the SXM module), and said nothing of it: the PCIe card's prices (lambda $3.29, runpod $1.99 a GPU-hour) and the
    NVL's were silently not listed, where `estimate --gpu H100` says how it read the name. The listing now says it
    first, with the variants left out; a family the catalog refuses to guess (A100) is listed whole as before, and a
    plain id says nothing."""
    out = _run("prices", "--gpu", "H100")
    head = " ".join(out.split("\n\n")[0].split())
    assert head == ("'H100' read as NVIDIA H100 SXM5 80GB (h100-80gb-sxm): a name without the form factor means "
                    "the SXM (or OAM) module; write 'NVIDIA H100 PCIe 80GB' for the PCIe card; the prices of "
                    "h100-80gb-pcie, h100-nvl-94gb are not listed (give one of them as --gpu)")
    d = json.loads(_run("prices", "--gpu", "H100", "--format", "json"))
    assert d["gpu_read_as"]["gpu"] == "h100-80gb-sxm"
    assert d["gpu_read_as"]["other_variants"] == ["h100-80gb-pcie", "h100-nvl-94gb"]
    assert {p["gpu"] for p in d["prices"]} == {"h100-80gb-sxm"}
    pcie = json.loads(_run("prices", "--gpu", "h100-80gb-pcie", "--format", "json"))
    assert "gpu_read_as" not in pcie and any(p["provider"] == "lambda" and p["amount"] == 3.29
                                             for p in pcie["prices"])
    assert "read as" not in _run("prices", "--gpu", "h100-80gb-sxm").split("\n\n")[0]
    assert "gpu_read_as" not in json.loads(_run("prices", "--gpu", "A100", "--format", "json"))
    zh = _run("prices", "--gpu", "H100", "--lang", "zh")
    assert "未列出 h100-80gb-pcie" in zh and "的价格（以 --gpu 指定其中之一即可列出）" in zh


# ------------------------------------------------------------------------------------------------ 6
def test_explain_gives_the_policy_values_its_conditions_use() -> None:
    """`explain MEM-TIGHT` showed 'need_gb > capacity_gb x ((1 - memory_headroom_fraction) * (1 -
    memory_tight_fraction))' with neither value on the screen: how tight 'tight' is could not be read. policy.yaml
    has 0.05 and 0.03: on an H100 SXM (85.5 GB) the warning fires above 85.5 x 0.95 x 0.97 = 78.8 GB a GPU and up
    to 85.5 x 0.95 = 81.2 GB (the 79.7 GB of 32 H100s for the 70B LoRA is between). The text lists them with their
    units, the JSON as `policy`; an overlay's value is the one shown."""
    out = gpuwise("explain", "MEM-TIGHT", env={"COLUMNS": "200"}).stdout
    assert "  - memory_headroom_fraction = 0.05 (fraction of each GPU's memory kept free)\n" in out
    assert ("  - memory_tight_fraction = 0.03 (fraction of the usable memory left over, below which a fit is called "
            "tight)\n") in out
    d = json.loads(_run("explain", "MEM-TIGHT", "--format", "json"))
    assert d["policy"] == {"memory_headroom_fraction": 0.05, "memory_tight_fraction": 0.03}
    cap = 85.5
    assert cap * (1 - 0.05) * (1 - 0.03) < 79.7 <= cap * (1 - 0.05)
    net = json.loads(_run("explain", "NET-SLOW-NETWORK", "--format", "json"))
    assert net["policy"] == {"slow_network_gb_s": 50.0, "fast_network_gb_s_per_gpu": 25.0}
    zh = gpuwise("explain", "MEM-TIGHT", "--lang", "zh", env={"COLUMNS": "200"}).stdout
    assert "用到的策略值（knowledge/policy.yaml；--knowledge DIR 中的 policy.yaml 可修改）：" in zh
    assert "memory_headroom_fraction = 0.05（“fraction of each GPU's memory kept free”）" in zh


def test_explain_with_an_overlay_shows_its_policy_value(tmp_path: Path) -> None:
    (tmp_path / "policy.yaml").write_text("memory_headroom_fraction: 0.1\n")
    d = json.loads(_run("explain", "MEM-TIGHT", "--format", "json", "--knowledge", str(tmp_path)))
    assert d["policy"]["memory_headroom_fraction"] == 0.1


# ------------------------------------------------------------------------------------------------ 7
def test_rules_and_facts_keep_their_columns_when_a_row_wraps() -> None:
    """At 80 columns, a `gpuwise rules` row whose title did not fit was wrapped as a sentence, its padding collapsed:
    'MEM-FITS-WITH-CHANGES        pass - Fits with what gpuwise would' under 'MEM-FITS                     pass
    -        Fits as requested'; `rules --facts` the same ('cc                     number CUDA ...'), and `explain`'s
    header read 'action: finding severity: warning'. The title now wraps in its column (28 + 1 + 8 + 1 + 8 + 1 = 47
    columns in), the action, severity and topic go to a line of their own, spaced as before."""
    rules = gpuwise("rules", env={"COLUMNS": "80"}).stdout.splitlines()
    i = rules.index("MEM-FITS-WITH-CHANGES        pass     -        Fits with what gpuwise would")
    assert rules[i + 1] == " " * 29 + "change"
    assert max(len(line) for line in rules) <= 80
    head = rules.index("rule                         action   severity title")  # review65: the columns named
    rows = [line for line in rules[head:] if line[:1].isalpha() and line[:3] not in ("== ",) and "rules." not in line]
    # every action starts at column 29 (but after the two ids of 29 characters, TCO-RENT-DEARER-PROPOSED-FEES and
    # CPT-KMOD-PROPRIETARY-REQUIRED, which overflow their column as before)
    assert rows and all(line[28] == " " and line[29] != " " for line in rows if len(line.split()[0]) <= 28)
    zh = gpuwise("rules", "--lang", "zh", env={"COLUMNS": "80"}).stdout.splitlines()
    assert "MEM-FITS-PIN-OFF-STACK       通过     -        能放下，但不含训练框架不支持的并" in zh
    facts = gpuwise("rules", "--facts", env={"COLUMNS": "80"}).stdout.splitlines()
    assert "  cc                     number     CUDA compute capability as a number (0 for" in facts
    assert "  decided; a field marked \"from STAGE\" exists from that stage on. Numbers are -1" in facts
    one = gpuwise("explain", "MEM-TIGHT", env={"COLUMNS": "80"}).stdout.splitlines()
    assert one[1:3] == ["step: memory (stage memory) (memory rules)", "action: finding   severity: warning   topic: "
                        "memory"]


# ------------------------------------------------------------------------------------------------ 8
def test_gpus_marks_a_price_that_includes_the_host_and_groups_link_thousands() -> None:
    """The catalog's price column put the H100 SXM at $39,625 and the H200 at $29,500: the first is Thinkmate's
    317,000 quote for a whole 8-GPU HGX server divided by 8 (CPUs, RAM and 8 ConnectX-7 included), the second
    8 x 29,500 for the GPUs alone, to which a purchase adds tco.yaml's host share (7,000 a GPU). Nothing said so; an
    approver comparing a B200 quote read the H100 as the dearer GPU. A whole system's share is now marked '*' and the
    note says what it means. The link column groups thousands as the others do ('nvswitch 1,800', was '1800')."""
    out = gpuwise("gpus", env={"COLUMNS": "200"}).stdout
    row = {line.split()[0]: line for line in out.splitlines() if line[:1].isalnum()}
    assert row["h100-80gb-sxm"].endswith(f"${317000 / 8:,.0f} (2024-08)*")
    assert row["h200-141gb-sxm"].endswith("$29,500 (2026-03)") and row["b200"].endswith("$41,500 (2026-03)")
    assert row["rtx-4090"].endswith("$3,160 (2025-07)")  # a card: the GPU alone, a workstation's host added
    assert "nvswitch 1,800" in row["b200"] and "nvswitch 900" in row["h100-80gb-sxm"]
    assert "* a GPU's share of a whole system's price (a server or a desktop system), its host included" in out
    zh = gpuwise("gpus", "--lang", "zh", env={"COLUMNS": "200"}).stdout
    assert "标 * 的是整机（服务器或桌面整机）价格中每块 GPU 的份额，已含主机" in zh


# ------------------------------------------------------------------------------------------------ 9
def test_help_says_the_json_keeps_usd_and_what_format_does() -> None:
    """`estimate --format json --currency CNY` gives dollars (docs/formats.md: JSON is the data, money in USD, a
    plan's excepted), while `--currency`'s help said only 'report currency' and `--format` had no help at all."""
    help_text = " ".join(_run("estimate", "--help").split())
    assert "--format {text,json} text (default) or json: the JSON is in English and USD" in help_text
    assert "else USD); JSON keeps USD" in help_text
    assert "JSON's too" in " ".join(_run("plan", "--help").split())
    for cmd in ("gpus", "rules", "explain", "prices"):
        assert "text (default) or json" in " ".join(_run(cmd, "--help").split()), cmd
    from gpuwise import estimate

    usd = estimate(QWEN, gpu="B300", gpus=8).gpu
    cny = json.loads(_run("estimate", str(ROOT / "examples" / "inference-8b-int4.yaml"), "--gpu", "L4",
                          "--format", "json", "--currency", "CNY"))
    assert cny["gpu"]["ledger"]["currency"] == "USD" and usd.ledger.currency == "USD"


# ------------------------------------------------------------------------------------------------ 10
def test_estimate_says_a_services_tokens_per_second_as_recommend_does() -> None:
    """The Qwen3 service on 8 B300: recommend said '10,000 tokens/s in total' (20 requests/s x 500 output tokens),
    estimate '10,000.0 tokens/s' (the model's 9,999.99999998) and a prefill of '32,421.0 tokens/s'. Whole tokens
    from 100 up, a tenth below (16.1 tokens/s one sequence)."""
    from gpuwise import estimate
    from gpuwise.render.report import render

    r = estimate(QWEN, gpu="B300", gpus=8)
    assert r.gpu.decode_tokens_per_s_total == pytest.approx(20 * 500)
    text = render(r, "text")
    assert "Decode speed, all sequences  10,000 tokens/s" in text and "10,000.0" not in text
    assert f"Decode speed, one sequence   {r.gpu.decode_tokens_per_s:.1f} tokens/s" in text


# ------------------------------------------------------------------------------------------------ 11
def test_prices_say_why_a_gpu_asked_for_has_no_purchase_price() -> None:
    """`prices --gpu gb200` listed CoreWeave's rack rental alone; why no purchase price (prices.yaml excluded: sold
    only as GB200 NVL72 racks on OEM quotes, no dated public price) was said nowhere, where a rental's absence is
    ('Not rented by any cloud listed: ...'). An approver checking a GB200 quote now reads it, in the JSON as
    `not_bought`; a GPU with a purchase price (B200: 332,000 for 8) gets none."""
    out = " ".join(_run("prices", "--gpu", "gb200").split())
    assert "No purchase price: gb200: sold only as GB200 NVL72 rack-scale systems (72 GPUs) on OEM quotes" in out
    d = json.loads(_run("prices", "--gpu", "gb200", "--format", "json"))
    assert [e["gpu"] for e in d["not_bought"]] == ["gb200"] and all(p["kind"] != "server" for p in d["prices"])
    b200 = json.loads(_run("prices", "--gpu", "b200", "--format", "json"))
    assert "not_bought" not in b200
    assert any(p["kind"] == "server" and p["amount"] == 8 * 41500 for p in b200["prices"])
    none = " ".join(_run("prices", "--gpu", "a800-80gb-sxm").split())
    assert "No prices match --gpu a800-80gb-sxm." in none and "No purchase price: a800-80gb-sxm: " in none
    zh = " ".join(_run("prices", "--gpu", "gb200", "--lang", "zh").split())
    assert "没有购买价格：gb200：“sold only as GB200 NVL72" in zh


# ------------------------------------------------------------------------------------------------ 12
def test_ask_names_the_latency_bound_it_lists_after_a_p95_target_for_what_it_is(tmp_path: Path) -> None:
    """The team lead answered 'first token within 2 s at the 95th percentile'; the defaults listed before 'advanced
    settings?' then read 'Max time to first token (ms): none', as if the target had been dropped. That field is
    another bound (CMP-TTFT-TARGET: the estimate at the load, not a percentile), which the question itself already
    says after a p95 target; the label now says it too. Without a p95 target the label is as before."""
    s = _Session(load_questions(), load(), tmp_path / "a.yaml", lang="en", currency=None)
    s.load({"workload": {"task": "inference", "model": "qwen3-235b-a22b", "requests_per_s": 20, "p95_ttft_s": 2}})
    labels = {q.key: s.text(q, "label") for q in s.advanced_defaults()}
    assert labels["workload.max_ttft_ms"] == "First-token bound at the load, besides the p95 (ms)"
    assert labels["workload.max_tpot_ms"] == "Max time per output token (ms)"  # no p95 per-token target given
    s.lang = "zh"
    zh = s.text(load_questions().by_key("workload.max_ttft_ms"), "label")
    assert zh == "负载下的首词元时间上限，p95 之外（毫秒）"
    plain = _Session(load_questions(), load(), tmp_path / "b.yaml", lang="en", currency=None)
    plain.load({"workload": {"task": "inference", "model": "qwen3-235b-a22b", "concurrent_requests": 8}})
    assert {q.key: plain.text(q, "label") for q in plain.advanced_defaults()}["workload.max_ttft_ms"] == \
        "Max time to first token (ms)"
