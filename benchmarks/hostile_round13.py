# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirteen of the hostile corpus (issue 26 items 5 and 6): kinds rounds one to twelve did not
try -- subnormal and negative-zero numbers in every money and time field and in ``--fx-rate``,
file and folder names that are not UTF-8 (arguments, batch members, ``-o``), requirements nested
thousands deep or 100,000 lines long, a classic list alias bomb in a requirements file, plans with
degenerate months (a one-month horizon, traffic shrinking to nothing, zero hours a day, a target of
10^9 requests a second), overlays that redefine a GPU with numbers that contradict each other, a
seller's report judged for memory junction temperature at and around each memory type's throttle
point (GDDR6X at 98/99/110/111 C, in tenths and with a decimal comma, GDDR6 with no throttle point
of its own, HBM against its board's own limit), reports from other drivers (no ``memory_temp``
element, ``N/A``, a report from the Windows driver with CRLF and a UTF-16 mark, ``nvidia-smi -q``
text from PowerShell), two cards with mixed states in one report, MIG on, ``prices import``
options aimed at their own inputs, a careless user's command line (misspelt commands, options and
choices, a file of another kind given to a command, choices in the wrong case, model names as
ollama, Hugging Face or GGUF write them), odd price rows (subnormal counts and prices, 100,000
equal rows, another provider's rows) and house rules on a card comparing values of other kinds
(dates, timestamps, quoted numbers, a number field against a text field). 163 cases. Added to benchmarks/hostile_corpus.py's table by
:func:`add`; the special runs (``BYTES``) are :func:`run_mode`. The failures fixed are kept as
tests in tests/test_hostile_thirteenth.py."""
from __future__ import annotations

import codecs
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _ok, _one, _refused, rows_refused  # round twelve's verdicts

MODES = ("BYTES",)


def _file(r, name: str) -> str:
    p = Path(r.cwd, name)
    return p.read_text(encoding="utf-8", errors="replace") if p.is_file() else ""


def _ids(r) -> set[str]:
    """The finding ids of an audit's JSON output (every nested ``id`` that names a rule)."""
    try:
        return ids_in(json.loads(r.stdout))
    except ValueError:
        return set()


def ids_in(data: Any) -> set[str]:
    """Every nested ``id``/``rule``/``rule_id`` text of a decoded JSON answer."""
    out: set[str] = set()

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                if k in ("id", "rule", "rule_id") and isinstance(v, str):
                    out.add(v)
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(data)
    return out


def _finds(rule: str, want: bool = True):
    """Answered, and the audit's JSON names ``rule`` (or, ``want=False``, does not)."""
    return lambda r: _ok(r) and (rule in _ids(r)) == want


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV, patched, smi, wl, prop, plan, _reject = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]

    # ------------------------------------------------------------ subnormal and negative-zero numbers
    tiny = 5e-324
    for name, path, value, base, argv, check in [
        ("num13: deadline_days 5e-324", "constraints.deadline_days", tiny, None, rec, _any),
        ("num13: budget_usd 5e-324", "constraints.budget_usd", tiny, None, rec, _any),
        ("num13: budget_usd -0.0", "constraints.budget_usd", -0.0, None, rec, _any),
        ("num13: seq_len -0", "workload.seq_len", -0.0, None, rec, _refused("seq_len")),
        ("num13: lora_rank 5e-324", "workload.lora_rank", tiny, None, rec, _refused("lora_rank")),
        ("num13: batch_size true", "workload.batch_size", True, None, rec, _refused("batch_size")),
        ("num13: prop hourly 5e-324", "acquisition.hourly_usd", tiny, "P", aud, _any),
        ("num13: prop unit price 5e-324 (buy)", "acquisition", {"mode": "buy", "unit_price_usd": tiny}, "P", aud, _refused("unit_price_usd")),
        ("num13: prop host_ram 5e-324", "hardware.host_ram_gb", tiny, "P", aud, _any),
        ("num13: prop nodes -0.0", "hardware.nodes", -0.0, "P", aud, _refused("nodes")),
        ("num13: prop egress 1e308", "cloud.egress_tb_per_month", 1e308, "P", aud, _any),
        ("num13: prop storage tb 5e-324", "cloud.storage", {"kind": "object", "tb": tiny}, "P", aud, _any),
        ("num13: prop train_tokens a date", "workload.train_tokens", __import__("datetime").date(2026, 1, 1), "P", aud, _refused("train_tokens")),
    ]:
        text = patched(path, value, prop if base == "P" else None)
        files = {"p.yaml": text} if base == "P" else {"r.yaml": text}
        case(name, files, argv, expect="any", check=check)
    for name, rate, check in [
        ("num13: --fx-rate 5e-324", "5e-324", _refused("--fx-rate")),
        ("num13: --fx-rate 7,2 (decimal comma)", "7,2", _refused("--fx-rate")),
        ("num13: --fx-rate ' 7.2 '", " 7.2 ", _any),
        ("num13: --fx-rate 0x7", "0x7", _refused("--fx-rate")),
        ("num13: --fx-rate 1e-300", "1e-300", _refused("--fx-rate")),
        ("num13: --fx-rate 7_2", "7_2", _any),
        ("num13: --fx-rate ''", "", _refused("--fx-rate")),
    ]:
        case(name, {"r.yaml": LORA}, ["recommend", "r.yaml", "--fx-rate", rate], expect="any", check=check)
    case("num13: plan --fx-rate 5e-324 json", {"plan.yaml": PLAN}, ["plan", "plan.yaml", "--fx-rate", "5e-324", "--format", "json"], expect="any",
         check=_refused("--fx-rate"))
    case("num13: estimate --fx-rate 1e-320", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "H100-80G", "--fx-rate", "1e-320"], expect="any",
         check=_refused("--fx-rate"))
    case("num13: estimate --gpus 1e2 text", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "H100-80G", "--gpus", "1e2"], expect="any", check=_any)
    case("num13: estimate --gpus 65536", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "H100-80G", "--gpus", "65536"], expect="any", check=_any)

    # ------------------------------------------------------------ files at the edges
    deep = "workload: " + "[" * 5000 + "]" * 5000 + "\n"
    deep_map = "workload: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n"
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)) + LORA
    lines = LORA + "".join(f"# comment {i}\n" for i in range(100_000))
    for name, text, check in [
        ("edge13: flow list nested 5,000 deep", deep, _refused("r.yaml")),
        ("edge13: flow mapping nested 3,000 deep", deep_map, _refused("r.yaml")),
        ("edge13: list billion laughs (9^9)", laughs, _refused("r.yaml")),
        ("edge13: 100,000 comment lines", lines, _ok),
        ("edge13: 100,000 list items in workload", LORA.replace("workload:\n", "workload:\n  extra: [" + ", ".join("1" for _ in range(100_000)) + "]\n", 1), _refused("r.yaml", "100,000 values")),
        ("edge13: only a BOM and spaces", "\ufeff   \n", _refused("r.yaml")),
        ("edge13: a lone NUL", "\0", _refused("r.yaml")),
        ("edge13: only '{}'", "{}\n", _refused("r.yaml")),
        ("edge13: only 'null'", "null\n", _refused("r.yaml")),
        ("edge13: workload: ''", "workload: ''\n", _refused("workload")),
    ]:
        case(name, {"r.yaml": text}, rec, expect="any", check=check)
    case("edge13: requirements is the plan", {"r.yaml": PLAN}, ["recommend", "r.yaml"], expect="any", check=_refused("r.yaml"))
    case("edge13: plan is a proposal", {"plan.yaml": PROP}, ["plan", "plan.yaml"], expect="any", check=_refused("plan.yaml"))
    case("edge13: proposal is a price CSV", {"p.yaml": CSV}, ["audit", "p.yaml"], expect="any", check=_refused("p.yaml"))
    case("edge13: estimate a directory", {"d/x": ""}, ["estimate", "d", "--gpu", "H100-80G"], expect="any", check=_refused("d"))
    case("edge13: import a directory", {"d/x": ""}, ["prices", "import", "d", "--provider", "m", "-o", "ov"], expect="any", check=_refused("d"))
    case("edge13: import an empty JSON catalog", {"p.json": "[]\n"}, ["prices", "import", "p.json", "--provider", "m", "-o", "ov"], expect="any", check=_refused("p.json"))
    case("edge13: import a JSON list of rows", {"p.json": '[{"gpu": "H100 80GB SXM", "gpus": 8, "price": 20}]\n'},
         ["prices", "import", "p.json", "--provider", "m", "-o", "ov"], expect="any", check=lambda r: r.returncode in (0, 2) and _one(r))

    # ------------------------------------------------------------ names that are not UTF-8 (real processes)
    for name, files, argv, check in [
        ("bytes13: requirements named with \\xff", {"r.yaml": LORA}, ["BYTES", "recommend", b"r\xff.yaml"], lambda r: r.returncode == 2 and _one(r)),
        ("bytes13: an existing requirements file named \\xff", {}, ["BYTES", "recommend", b"\xffr.yaml"], _ok),
        ("bytes13: -o named with \\xff", {"r.yaml": LORA}, ["BYTES", "recommend", b"r.yaml", b"-o", b"o\xff.md"], _ok),
        ("bytes13: a batch member named with \\xff", {"b/a.yaml": PROP}, ["BYTES", "audit", b"b"], lambda r: _ok(r) and "\udcff" not in r.stdout),
        ("bytes13: a bad batch member named with \\xff", {"b/a.yaml": PROP}, ["BYTES", "audit", b"b", b"--format", b"json"], lambda r: r.returncode == 2 and _clean(r)),
        ("bytes13: --knowledge named with \\xff", {"r.yaml": LORA}, ["BYTES", "recommend", b"r.yaml", b"--knowledge", b"k\xff"], lambda r: r.returncode == 2 and _one(r)),
        ("bytes13: --gpu with \\xff", {"r.yaml": LORA}, ["BYTES", "estimate", b"r.yaml", b"--gpu", b"H100\xff"], lambda r: r.returncode == 2 and _one(r)),
        ("bytes13: explain \\xff", {}, ["BYTES", "explain", b"MEM-\xff"], lambda r: r.returncode == 2 and _one(r)),
        ("bytes13: --provider with \\xff", {"p.csv": CSV}, ["BYTES", "prices", "import", b"p.csv", b"--provider", b"m\xff", b"-o", b"ov"], lambda r: r.returncode in (0, 2) and _one(r)),
    ]:
        case(name, files, argv, expect="any", real=True, check=check)

    # ------------------------------------------------------------ plans with degenerate months
    for name, text, check in [
        ("plan13: horizon 1, pretrain at month 1", plan_text(plan, horizon_months=1, keep=[2], cadence={"at_month": 1}), _any),
        ("plan13: traffic shrinking 100% a month", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": -1.0}), _any),
        ("plan13: traffic shrinking 150% a month", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": -1.5}), _refused("growth_per_month")),
        ("plan13: zero hours a day", wl(1, cadence={"continuous": True, "hours_per_day": 0}), _any),
        ("plan13: 10^9 requests a second", wl(1, targets={"requests_per_s": 1e9, "p95_ttft_ms": 2000}), _any),
        ("plan13: p95 TTFT 0 ms", wl(1, targets={"requests_per_s": 2, "p95_ttft_ms": 0}), _refused("p95_ttft_ms")),
        ("plan13: per_month 0", wl(0, cadence={"per_month": 0}), _any),
        ("plan13: per_month 0.5", wl(0, cadence={"per_month": 0.5}), _any),
        ("plan13: at_month 0", wl(2, cadence={"at_month": 0}), _refused("at_month")),
        ("plan13: at_month 1.5", wl(2, cadence={"at_month": 1.5}), _refused("at_month")),
        ("plan13: owned count 0", plan_text(plan, owned_count=0), _any),
        ("plan13: owned bought a full date", plan_text(plan, owned_bought="2024-03-15"), _any),
        ("plan13: owned bought a number 202403", plan_text(plan, owned_bought=202403), _refused("bought")),
        ("plan13: owned paid .nan", plan_text(plan, owned_paid=float("nan")), _refused("paid_usd")),
        ("plan13: horizon_months true", plan_text(plan, horizon_months=True), _refused("horizon_months")),
    ]:
        case(name, {"plan.yaml": text}, ["plan", "plan.yaml", "--format", "json"], expect="any", check=check)

    # ------------------------------------------------------------ overlays with contradictory GPU numbers
    for name, patch, check in [
        ("kb13: H100 bandwidth 1e-9 GB/s", "memory: {bandwidth_gb_s: 1.0e-9}", _refused("k/gpus.yaml", "bandwidth_gb_s")),
        ("kb13: H100 bf16 1e-9 TFLOP/s", "peaks: {bf16: 1.0e-9}", _refused("k/gpus.yaml", "peaks.bf16")),
        ("kb13: H100 fp8 50 under its bf16 989.5", "peaks: {fp8: 50}", _refused("k/gpus.yaml", "never slower")),
        ("kb13: H100 fp4 100 under its fp8 1979", "peaks: {fp4: 100}", _refused("k/gpus.yaml", "never slower")),
        ("kb13: H100 bf16 0 (no path)", "peaks: {bf16: 0}", _ok),
        ("kb13: H100 fp32 above its bf16", "peaks: {fp32: 5000}", _any),
        ("kb13: H100 memory 8 GB, nvidia-smi's 81559 MiB kept", "memory: {gb: 8}", _refused("k/gpus.yaml", "smi_mib")),
        ("kb13: H100 nvlink domain 0", "link: {domain_gpus: 0}", _refused("k/gpus.yaml", "domain_gpus")),
    ]:
        case(name, {"r.yaml": LORA, "k/gpus.yaml": "gpus:\n  - id: h100-80gb-sxm\n    " + patch + "\n"}, ["recommend", "r.yaml", "--knowledge", "k"],
             expect="any", check=check)
    gpu = "gpus:\n  - id: my-h100\n    name: NVIDIA H100 SXM5 80GB\n"
    case("kb13: a new GPU named as a built-in one", {"r.yaml": LORA, "k/gpus.yaml": gpu}, ["recommend", "r.yaml", "--knowledge", "k"], expect="any",
         check=_refused("k/gpus.yaml"))
    case("kb13: a GPU defined twice in one overlay", {"r.yaml": LORA, "k/gpus.yaml": "gpus:\n  - id: h100-80gb-sxm\n    peaks: {bf16: 900}\n  - id: h100-80gb-sxm\n    peaks: {bf16: 1}\n"},
         ["recommend", "r.yaml", "--knowledge", "k"], expect="any", check=_refused("gpus.yaml", "duplicate"))

    # ------------------------------------------------------------ memory junction temperature (issue 26 item 6)
    def mem(temp: str, limit: str = "N/A", text: str = SMI) -> str:
        out = text.replace("<memory_temp>86 C</memory_temp>", f"<memory_temp>{temp}</memory_temp>", 1)
        return out.replace("<gpu_temp_max_mem_threshold>N/A</gpu_temp_max_mem_threshold>", f"<gpu_temp_max_mem_threshold>{limit}</gpu_temp_max_mem_threshold>", 1)

    J = "USED-MEMORY-JUNCTION-HOT"
    for name, temp, limit, rule, want in [
        ("mem13: GDDR6X 98 C, no finding", "98 C", "N/A", J, False),
        ("mem13: GDDR6X 99 C, at 0.9 of 110", "99 C", "N/A", J, True),
        ("mem13: GDDR6X 110 C, the throttle point", "110 C", "N/A", J, True),
        ("mem13: GDDR6X 111 C", "111 C", "N/A", J, True),
        ("mem13: GDDR6X 98.9 C", "98.9 C", "N/A", J, False),
        ("mem13: GDDR6X 99.5 C in tenths", "99.5 C", "N/A", J, True),
                ("mem13: GDDR6X memory N/A", "N/A", "N/A", J, False),
        ("mem13: GDDR6X 108 C with a board limit 105", "108 C", "105 C", "USED-MEMORY-HOT", True),
        ("mem13: GDDR6X 100 C, board limit 105: own limit wins", "100 C", "105 C", J, False),
        ("mem13: GDDR6X 230 F (110 C)", "230 F", "N/A", J, True),
    ]:
        case(name, smi(mem(temp, limit)), aud, expect="any", check=_finds(rule, want))
    no_elem = SMI.replace("<memory_temp>86 C</memory_temp>", "", 1)
    case("mem13: driver without a memory_temp element", smi(no_elem), aud, expect="any", check=_finds(J, False))
    for name, temp in [("mem13: GDDR6X 104,0 C decimal comma", "104,0 C"), ("mem13: GDDR6X 108 without a unit", "108")]:
        case(name, smi(mem(temp)), ["audit", "p.yaml"], expect="any", check=_refused("r.xml", "<memory_temp>", "whole degrees"))
    case("mem13: GDDR6 card (RTX A6000) at 108 C: no throttle point", {"p.yaml": USED.replace("rtx-3090", "rtx-a6000"),
                                                                       "r.xml": mem("108 C").replace("GeForce RTX 3090", "RTX A6000")}, aud, expect="any", check=_finds(J, False))
    two = SMI.replace("</nvidia_smi_log>", "", 1) + SMI.split("<gpu id=", 1)[1].join(["<gpu id=", ""]).replace(
        'id="00000000:0C:00.0"', 'id="00000000:0D:00.0"', 1).replace("<memory_temp>86 C", "<memory_temp>109 C", 1).replace("4c76979aabb4", "4c76979aabb5", 1)
    two = two.replace("<attached_gpus>1</attached_gpus>", "<attached_gpus>2</attached_gpus>", 1)
    used2 = USED.replace("count: 1", "count: 2") + "  - {serial: '2', nvidia_smi: r.xml}\n"
    case("mem13: two GPUs, the second one's memory at 109 C", {"p.yaml": used2, "r.xml": two}, aud, expect="any", check=_ok)
    mig = SMI.replace("<current_mig>N/A</current_mig>", "<current_mig>Enabled</current_mig>", 1).replace("<pending_mig>N/A</pending_mig>", "<pending_mig>Enabled</pending_mig>", 1)
    case("smi13: MIG enabled on a GeForce report", smi(mig), aud, expect="any", check=_ok)
    case("smi13: Windows driver, CRLF and a UTF-16 mark, memory at 106 C",
         smi(codecs.BOM_UTF16_LE + mem("106 C").replace("\n", "\r\n").encode("utf-16-le")), aud, expect="any", check=_finds(J, True))
    q_text = ("\r\n==============NVSMI LOG==============\r\n\r\nTimestamp                                 : Tue Mar  4 10:00:00 2025\r\n"
              "Driver Version                            : 572.16\r\nCUDA Version                              : 12.8\r\n\r\nAttached GPUs                             : 1\r\n"
              "GPU 00000000:01:00.0\r\n    Product Name                          : NVIDIA GeForce RTX 3090\r\n")
    case("smi13: nvidia-smi -q text from PowerShell (UTF-16)", smi(codecs.BOM_UTF16_LE + q_text.encode("utf-16-le")), ["audit", "p.yaml"], expect="any",
         check=_refused("r.xml"))
    case("smi13: truncated inside a tag name", smi(SMI[: SMI.index("<memory_temp>") + 5]), ["audit", "p.yaml"], expect="any", check=_refused("r.xml"))
    case("smi13: memory_temp element twice", smi(SMI.replace("<memory_temp>86 C</memory_temp>", "<memory_temp>86 C</memory_temp><memory_temp>109 C</memory_temp>", 1)),
         ["audit", "p.yaml"], expect="any", check=_any)
    case("smi13: memory_temp -5 C", smi(mem("-5 C")), aud, expect="any", check=_finds(J, False))
    case("smi13: memory_temp 'Unknown Error'", smi(mem("Unknown Error")), aud, expect="any", check=_ok)

    # ------------------------------------------------------------ options aimed at their own inputs
    case("self13: import -o the folder holding the CSV", {"ov/p.csv": CSV}, ["prices", "import", "ov/p.csv", "--provider", "m", "-o", "ov"], expect="any",
         check=lambda r: r.returncode in (0, 2) and _one(r) and _file(r, "ov/p.csv") == CSV)
    case("self13: import --knowledge and -o the same folder", {"p.csv": CSV, "ov/gpus.yaml": "gpus: []\n"},
         ["prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--knowledge", "ov"], expect="any",
         check=lambda r: r.returncode in (0, 2) and _one(r) and _file(r, "ov/gpus.yaml") == "gpus: []\n")
    case("self13: import --provider '../x'", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "../x", "-o", "ov"], expect="any",
         check=lambda r: r.returncode in (0, 2) and _one(r) and not Path(r.cwd, "x").exists())
    case("self13: import --as-of 2026-02-30", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--as-of", "2026-02-30"],
         expect="any", check=_refused("--as-of"))
    for name, day in [("self13: import --as-of '' (a variable unset)", ""), ("self13: import --as-of 20260105", "20260105")]:
        case(name, {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--as-of", day], expect="any",
             check=lambda r: _refused("--as-of", "YYYY-MM-DD")(r) and not Path(r.cwd, "ov").exists())
    case("self13: import --as-of 99999-01-01", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov", "--as-of", "99999-01-01"],
         expect="any", check=_refused("--as-of"))
    case("self13: recommend -o the overlay folder", {"r.yaml": LORA, "k/policy.yaml": "memory_headroom_fraction: 0.1\n"},
         ["recommend", "r.yaml", "--knowledge", "k", "-o", "k"], expect="any", check=lambda r: r.returncode == 2 and _one(r))
    case("self13: audit -o the rules folder's file via ..", {"p.yaml": PROP, "h/r.yaml": CUDA_RULE},
         ["audit", "p.yaml", "--rules", "h", "-o", "h/../h/r.yaml"], expect="any", check=lambda r: r.returncode == 2 and _one(r) and _file(r, "h/r.yaml") == CUDA_RULE)
    case("self13: -o /dev/stdout", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/stdout"], expect="any", check=_ok)
    case("self13: -o /dev/full", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/full"], expect="any", check=lambda r: r.returncode == 2 and _one(r))

    # ------------------------------------------------------------ house rules on a card: values of other kinds
    def card_rule(condition: str) -> str:
        return CUDA_RULE.replace("fact: candidate", "fact: card").replace('[cuda_device, "==", false]', condition).replace(
            "action: reject", "action: finding\n      severity: warning").replace("{gpu_name} is not", "{serial} is not")

    for name, cond, check in [
        ("hr13: a number field against a text field", '[mem_temp_c, ">=", "$mem_type"]', _refused("h/r.yaml", "never compare")),
        ("hr13: a number field against a number field", '[mem_temp_c, ">=", "$mem_throttle_c"]', _ok),
        ("hr13: a date literal", '[mem_temp_c, ">=", 2026-01-01]', _refused("h/r.yaml", "mem_temp_c")),
        ("hr13: a timestamp literal", '[mem_temp_c, ">=", 2026-01-01T10:00:00]', _refused("h/r.yaml", "mem_temp_c")),
        ("hr13: a quoted number", '[mem_temp_c, ">=", "99"]', _refused("h/r.yaml", "mem_temp_c")),
        ("hr13: times .nan", '[mem_temp_c, ">=", {ref: mem_throttle_c, times: .nan}]', _refused("h/r.yaml", "finite")),
        ("hr13: four items", '[mem_temp_c, ">=", 1, 2]', _refused("h/r.yaml", "[field, op, value]")),
    ]:
        case(name, {"p.yaml": USED, "r.xml": SMI, "h/r.yaml": card_rule(cond)}, ["audit", "p.yaml", "--rules", "h"], expect="any", check=check)

    # ------------------------------------------------------------ a careless user's command line
    files = {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN}
    for name, argv, check in [
        ("cli13: command misspelt 'recomend'", ["recomend", "r.yaml"], _refused("did you mean recommend?")),
        ("cli13: command in capitals", ["RECOMMEND", "r.yaml"], _refused("did you mean recommend?")),
        ("cli13: option misspelt --formt", ["recommend", "r.yaml", "--formt", "json"], _refused("did you mean --format?")),
        ("cli13: choice in capitals --format JSON", ["recommend", "r.yaml", "--format", "JSON"], _refused("did you mean json?")),
        ("cli13: --currency usd (any case since product64: read as USD)", ["audit", "p.yaml", "--currency", "usd"], lambda r: _ok(r) and ("$" in r.stdout or "USD" in r.stdout)),
        ("cli13: --lang zh_CN", ["recommend", "r.yaml", "--lang", "zh_CN"], _refused("--lang")),
        ("cli13: 'help' as a command", ["help"], _refused("help")),
        ("cli13: two requirements files", ["recommend", "r.yaml", "p.yaml"], _refused("p.yaml")),
        ("cli13: -o with no suffix", ["recommend", "r.yaml", "-o", "x"], _refused("x", "suffix")),
        ("cli13: -o a name that is only '.md'", ["recommend", "r.yaml", "-o", ".md"], _refused(".md")),
        ("cli13: -o dir/ that does not exist", ["recommend", "r.yaml", "-o", "x.md/"], _refused("x.md/")),
        ("cli13: --knowledge /", ["recommend", "r.yaml", "--knowledge", "/"], _any),
        ("cli13: --rules /proc", ["recommend", "r.yaml", "--rules", "/proc"], _any),
        ("cli13: --output then an option", ["recommend", "r.yaml", "--output", "--format"], _refused("--output")),
        ("kind13: a proposal to recommend", ["recommend", "p.yaml"], _refused("this is a proposal", "gpuwise audit p.yaml")),
        ("kind13: a proposal to estimate", ["estimate", "p.yaml", "--gpu", "H100-80G"], _refused("this is a proposal", "gpuwise audit p.yaml")),
        ("kind13: a plan to recommend", ["recommend", "plan.yaml"], _refused("this is a plan file", "gpuwise plan plan.yaml")),
        ("kind13: a plan to audit", ["audit", "plan.yaml"], _refused("this is a plan file", "gpuwise plan plan.yaml")),
        ("kind13: requirements to audit", ["audit", "r.yaml"], _refused("this is a requirements file", "gpuwise recommend r.yaml")),
        ("kind13: a proposal to plan", ["plan", "p.yaml"], _refused("this is a proposal", "gpuwise audit p.yaml")),
        ("kind13: requirements to plan", ["plan", "r.yaml"], _refused("this is a requirements file")),
        ("kind13: a plan in an audit batch", ["audit", "p.yaml", "plan.yaml", "--format", "json"], lambda r: r.returncode == 2 and "this is a plan file" in r.stderr and _clean(r)),
    ]:
        case(name, dict(files), argv, expect="any", check=check)

    # ------------------------------------------------------------ choices in the wrong case, odd price rows
    for name, path, value, base, check in [
        ("case13: currency cny", "constraints.currency", "cny", None, _refused("did you mean CNY?")),
        ("case13: mode RENT", "acquisition.mode", "RENT", "P", _refused("did you mean rent?")),
        ("case13: link NVLink", "hardware.link", "NVLink", "P", _refused("did you mean nvlink?")),
        ("case13: model 'mistral' (ambiguous)", "workload.model", "mistral", None, lambda r: _refused("ambiguous", "give the variant")(r) and "SXM" not in r.stderr),
        ("case13: model an ollama tag", "workload.model", "llama3.1:70b", None, _any),
        # session 32: a release's or repository's name is read as its network (docs/names.md rule 6), said in the
        # report; before, both were refused with the close match
        ("case13: model a Hugging Face URL", "workload.model", "https://huggingface.co/meta-llama/Llama-3.1-8B", None, lambda r: _ok(r) and "read as Llama 3.1 8B (llama-3.1-8b)" in r.stdout),
        ("case13: model a GGUF file name", "workload.model", "Llama-3.1-70B-Instruct-Q4_K_M.gguf", None, lambda r: _ok(r) and "read as Llama 3.1 70B (llama-3.1-70b)" in r.stdout),
        ("case13: task Inference", "workload.task", "Inference", None, _any),
    ]:
        text = patched(path, value, prop if base == "P" else None)
        case(name, {"p.yaml" if base == "P" else "r.yaml": text}, aud if base == "P" else rec, expect="any", check=check)
    imp = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    head = "gpu,gpus,price\n"

    gh = "provider,instance_name,gpu_name,gpu_count,gpu_memory,price,spot,location\n"
    for name, body, check in [
        ("csv13: a row of commas", head + ",,\nH100 80GB SXM,8,20\n", _any),
        ("csv13: gpus -8", head + "H100 80GB SXM,-8,20\n", rows_refused),
        ("csv13: gpus 1e-320", head + "H100 80GB SXM,1e-320,20\n", rows_refused),
        ("csv13: price 1e-320", head + "H100 80GB SXM,8,1e-320\n", rows_refused),
        ("csv13: price 'USD 20'", head + "H100 80GB SXM,8,USD 20\n", rows_refused),
        ("csv13: 100,000 equal rows", head + "H100 80GB SXM,8,20\n" * 100_000, _any),
        ("csv13: header in capitals (read as gpuwise's layout since round 53)", "GPU,GPUS,PRICE\nH100 80GB SXM,8,20\n", lambda r: r.returncode == 0 and "imported 1 offer" in r.stdout),
        ("csv13: gpuhunt spot 'yes'", gh + "m,x,H100,8,80,20,yes,us\n", lambda r: _any(r) or rows_refused(r)),
        ("csv13: gpuhunt gpu_count 0", gh + "m,x,H100,8,80,20,False,us\n".replace(",8,", ",0,"), rows_refused),
        ("csv13: gpuhunt another provider's rows", gh + "other,x,H100,8,80,20,False,us\n", _any),
    ]:
        case(name, {"p.csv": body}, imp, expect="any", check=check)

    # ------------------------------------------------------------ environment, real processes
    for name, env, argv, check in [
        ("env13: LC_ALL=C.UTF-8 zh", {"LC_ALL": "C.UTF-8"}, ["recommend", "r.yaml", "--lang", "zh"], _ok),
        ("env13: LANG=ja_JP.eucJP, PYTHONIOENCODING unset, zh", {"LANG": "ja_JP.eucJP", "LC_ALL": "ja_JP.eucJP", "PYTHONIOENCODING": None, "PYTHONUTF8": "0"},
         ["audit", "p.yaml", "--lang", "zh"], _ok),
        ("env13: PYTHONIOENCODING=ascii:strict bad input zh", {"PYTHONIOENCODING": "ascii:strict"}, ["--lang", "zh", "audit", "nosuch.yaml"], lambda r: r.returncode == 2),
        ("env13: COLUMNS=' 80 '", {"COLUMNS": " 80 "}, ["audit", "p.yaml"], _ok),
        ("env13: COLUMNS=1e3", {"COLUMNS": "1e3"}, ["plan", "plan.yaml"], _ok),
        ("env13: PYTHONHASHSEED=1 and NO_COLOR=''", {"PYTHONHASHSEED": "1", "NO_COLOR": ""}, ["audit", "p.yaml"], _ok),
        ("env13: XDG_CACHE_HOME with a \\xff byte", {"XDG_CACHE_HOME": "{tmp}/c\udcff"}, ["recommend", "r.yaml"], _ok),
        ("env13: GPUWISE_NO_CACHE='' (empty)", {"GPUWISE_NO_CACHE": ""}, ["recommend", "r.yaml"], _ok),
    ]:
        case(name, {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN}, argv, expect="any", real=True, env=env, check=check)


def plan_text(plan: dict, *, horizon_months: Any = None, keep: list[int] | None = None, cadence: dict | None = None,
              owned_count: Any = None, owned_bought: Any = None, owned_paid: Any = None) -> str:
    """The example plan with one of its fields set: the horizon, the kept workloads (with a cadence
    for the first one kept), or the owned hardware's count, purchase month or price."""
    import copy

    import yaml

    d = copy.deepcopy(plan)
    if horizon_months is not None:
        d["horizon_months"] = horizon_months
    if keep is not None:
        d["workloads"] = [d["workloads"][i] for i in keep]
        if cadence is not None:
            d["workloads"][0]["cadence"] = cadence
    for key, value in (("count", owned_count), ("bought", owned_bought), ("paid_usd", owned_paid)):
        if value is not None:
            d["owned"][0][key] = value
    return yaml.safe_dump(d, allow_unicode=True, width=10**9)


def run_mode(argv: list, e: dict, tmp: Path, Res) -> Any:
    """``BYTES``: the arguments as bytes (names that are not UTF-8), with a requirements file named
    ``\\xffr.yaml`` and a batch member ``b/\\xff.yaml`` made beside the case's files first."""
    rest = [a if isinstance(a, bytes) else a.encode() for a in argv[1:]]
    root = os.fsencode(str(tmp))
    base = Path(__file__).resolve().parent.parent / "examples"
    with open(os.path.join(root, b"\xffr.yaml"), "wb") as fh:
        fh.write((base / "lora-70b.yaml").read_bytes())
    if os.path.isdir(os.path.join(root, b"b")):
        bad = b"garbage: [\n" if b"json" in rest else (base / "proposal-16x4090-70b-full.yaml").read_bytes()
        with open(os.path.join(root, b"b", b"\xff.yaml"), "wb") as fh:
            fh.write(bad)
    p = subprocess.run([os.fsencode(sys.executable), b"-m", b"gpuwise", *rest], capture_output=True, cwd=tmp, env=e, timeout=120)
    return Res(p.returncode, p.stdout.decode(errors="backslashreplace"), p.stderr.decode(errors="backslashreplace"), tmp)
