# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifteen of the hostile corpus (issue 26 items 5 and 6): kinds rounds one to fourteen did
not try -- a serving workload's own fields at their edges (request rates of 0, 1e-300 and 1e308,
latency targets of 0 and a subnormal, speculative decoding's acceptance rate at 1 and above, a
prefix cache always hit, prompt and output lengths whose sum passes the context bound); YAML that
PyYAML resolves to tags no safe loader builds (``=``, ``<<`` as a value, ``!!omap``, ``!!set``,
``!!pairs``) and aliases that refer to themselves, in every kind of input file; plans whose traffic
grows past any bound within the horizon, whose targets are subnormal, whose cadence ends before it
starts, with owned GPUs the workloads cannot use; price CSVs separated by semicolons or tabs, with
a million rows, a total row, exponent and zero prices; a seller's report: an A100 with MIG on, two
models in one report, every reading N/A, an H100's HBM3 with and without its own limit, a
Blackwell GDDR7 card, a path that is a URL, ``~`` or a glob; a batch whose member names a FIFO as
its seller's report; ``-o`` onto a FIFO, a socket, ``/dev/null``, a 0755 or 0000 report; four
plans writing one ``-o``; output encodings whose codec cannot take an error handler (``idna``) or
refuses everything (``undefined``), UTF-7 and EBCDIC; OSC, BEL and hyperlink escapes from input
files; ``010`` and exponents in fields no round tried; and Ctrl-C while prices are listed or a
seller's report is read. Added to benchmarks/hostile_corpus.py's table by :func:`add`. The
failures fixed are kept as tests in tests/test_hostile_fifteenth.py."""
from __future__ import annotations

import copy
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import yaml

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused, rows_refused
from benchmarks.hostile_round13 import _finds
from benchmarks.hostile_round14 import _file, _kept

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "nvidia_smi"
ESC = ("\x1b", "\x07", "\x9b", "\x9d")


def _mode_is(name: str, want: int):
    """Answered, and ``name`` keeps permission bits ``want``."""
    return lambda r: _ok(r) and stat.S_IMODE(os.stat(Path(r.cwd, name)).st_mode) == want


def _json_total(r) -> bool:
    """Answered with a plan whose JSON total is a finite number."""
    try:
        total = json.loads(r.stdout)["total"]
    except (ValueError, KeyError, TypeError):
        return False
    return _ok(r) and isinstance(total, int | float) and total == total and abs(total) != float("inf")


def _unplaced(name: str):
    """Answered, with ``name`` among the plan's unplaced workloads and a reason given."""
    def check(r) -> bool:
        try:
            left = {u["workload"]: u for u in json.loads(r.stdout)["unplaced"]}
        except (ValueError, KeyError, TypeError):
            return False
        return _ok(r) and name in left and bool(left[name].get("reason"))
    return check


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV, patched, smi, _wl, prop, plan, _reject = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]
    SERVE = "workload:\n  task: inference\n  model: llama-3.1-8b\n"

    # ------------------------------------------------------------ a serving workload's own fields
    for name, extra, check in [
        ("serve15: requests_per_s 0", "  requests_per_s: 0\n", _refused("requests_per_s")),
        ("serve15: requests_per_s -1", "  requests_per_s: -1\n", _refused("requests_per_s")),
        ("serve15: requests_per_s 1e308", "  requests_per_s: 1.0e+308\n", _refused("requests_per_s")),
        ("serve15: requests_per_s 1e-300", "  requests_per_s: 1.0e-300\n", _ok),
        ("serve15: p95_ttft_s 0", "  requests_per_s: 1\n  p95_ttft_s: 0\n", _refused("p95_ttft_s")),
        ("serve15: p95_tpot_s 5e-324", "  requests_per_s: 1\n  p95_tpot_s: 5e-324\n", _ok),
        ("serve15: max_tpot_ms .nan", "  max_tpot_ms: .nan\n", _refused("max_tpot_ms")),
        ("serve15: speculative acceptance_rate 1.0", "  speculative: {method: eagle, acceptance_rate: 1.0}\n", _refused("acceptance_rate")),
        ("serve15: speculative acceptance_rate 1.5", "  speculative: {method: eagle, acceptance_rate: 1.5}\n", _refused("acceptance_rate")),
        ("serve15: speculative acceptance_rate 0.999999999999", "  speculative: {method: eagle, acceptance_rate: 0.999999999999}\n", _ok),
        ("serve15: speculative acceptance_rate 5e-324", "  speculative: {method: eagle, acceptance_rate: 5e-324}\n", _ok),
        ("serve15: speculative method 'eagel'", "  speculative: {method: eagel}\n", _refused("speculative.method", "eagle")),
        ("serve15: speculative draft-model without its size", "  speculative: {method: draft-model}\n", _refused("draft_params_b")),
        ("serve15: speculative draft_tokens 17", "  speculative: {method: eagle, draft_tokens: 17}\n", _refused("draft_tokens")),
        ("serve15: speculative a string", "  speculative: eagle\n", _refused("speculative")),
        ("serve15: prefix_cache_hit_rate 1.0", "  prefix_cache_hit_rate: 1.0\n", _refused("prefix_cache_hit_rate")),
        ("serve15: prefix_cache_hit_rate 0.99", "  prefix_cache_hit_rate: 0.99\n", _ok),
        ("serve15: prompt and output 10,000,000 each (past the context bound)", "  prompt_tokens: 10000000\n  output_tokens: 10000000\n",
         _refused("prompt_tokens", "output_tokens")),
        ("serve15: api_servers 1025", "  api_servers: 1025\n", _refused("api_servers")),
        ("serve15: quantization awq with precision fp8", "  quantization: awq\n  precision: fp8\n", _refused("quantization")),
    ]:
        case(name, {"r.yaml": SERVE + extra}, rec, expect="any", check=check)
    case("serve15: requests_per_s on a fine-tune", {"r.yaml": LORA.replace("workload:\n", "workload:\n  requests_per_s: 2\n", 1)}, rec,
         expect="any", check=_refused("requests_per_s", "inference"))

    # ------------------------------------------------------------ YAML tags no safe loader builds, self-referring aliases
    for name, fname, body, argv in [
        ("yaml15: a value '=' (the value tag)", "r.yaml", SERVE + "  context_len: =\n", rec),
        ("yaml15: a value '<<' (the merge tag)", "r.yaml", SERVE.replace("llama-3.1-8b", "<<"), rec),
        ("yaml15: !!omap workload", "r.yaml", "workload: !!omap [{task: inference}, {model: llama-3.1-8b}]\n", rec),
        ("yaml15: !!set of GPUs", "r.yaml", SERVE + "constraints: {gpus: !!set {h100: null}}\n", rec),
        ("yaml15: !!pairs workload", "r.yaml", "workload: !!pairs [{task: inference}, {model: llama-3.1-8b}]\n", rec),
        ("yaml15: a mapping that holds itself", "r.yaml", "workload: &w {task: inference, model: *w}\n", rec),
        ("yaml15: a list that holds itself", "r.yaml", SERVE + "constraints: {gpus: &g [*g]}\n", rec),
        ("yaml15: a merge of itself", "r.yaml", "workload: &w {<<: *w, task: inference}\n", rec),
        ("yaml15: an alias as a key", "r.yaml", SERVE.replace("  task:", "  &k task:").replace("  model:", "  *k :"), rec),
        ("yaml15: plan with a self-holding workload", "plan.yaml", PLAN.replace("  - name: lora-8b", "  - &x\n    name: lora-8b\n    again: *x", 1), ["plan", "plan.yaml"]),
        ("yaml15: proposal !!set hardware", "p.yaml", PROP.replace("hardware:", "hardware: !!set", 1), ["audit", "p.yaml"]),
        ("yaml15: overlay policy '='", "k/policy.yaml", "memory_headroom_fraction: =\n", ["recommend", "r.yaml", "--knowledge", "k"]),
        ("yaml15: house rule !!omap", "h/a.yaml", CUDA_RULE.replace("then:", "then: !!omap", 1), ["recommend", "r.yaml", "--rules", "h"]),
        ("yaml15: house rule list holds itself", "h/a.yaml", CUDA_RULE.replace("when:\n      - [cuda_device", "when: &w\n      - *w\n      - [cuda_device", 1), ["recommend", "r.yaml", "--rules", "h"]),
        ("yaml15: 20,000 anchors each used once", "r.yaml", SERVE + "constraints:\n  gpus: [" + ", ".join(f"&a{i} h100" for i in range(20000)) + "]\n  max_gpus: 8\n", rec),
        ("yaml15: an anchor name of 100,000 characters", "r.yaml", SERVE.replace("llama-3.1-8b", "&" + "a" * 100_000 + " llama-3.1-8b"), rec),
    ]:
        files = {"r.yaml": LORA, fname: body}
        check = _refused("constraints.gpus") if "anchors each" in name else _ok if "anchor name" in name else _refused(fname)
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ plans at their edges
    def pl(fn) -> str:
        d = copy.deepcopy(plan)
        fn(d)
        return yaml.safe_dump(d, allow_unicode=True, width=10**9)

    def cad(i: int, **kw):
        return lambda d: d["workloads"][i]["cadence"].update(kw)

    def tgt(i: int, **kw):
        return lambda d: d["workloads"][i].setdefault("targets", {}).update(kw)

    def both(*fns):
        return lambda d: [f(d) for f in fns]

    horizon60 = lambda d: d.__setitem__("horizon_months", 60)  # noqa: E731
    for name, fn, check in [
        ("plan15: traffic growing 1000% a month for 60 months", both(horizon60, cad(1, growth_per_month=10)), _refused("plan.yaml", "growth_per_month")),
        ("plan15: traffic growing 100% a month for 60 months", both(horizon60, cad(1, growth_per_month=1)), _refused("plan.yaml", "growth_per_month")),
        # growth_per_month is bounded at 1 (100% a month) since hostileleft60: 10 is refused with 0.1 offered
        ("plan15: traffic growing 1000% a month for 3 months", both(lambda d: d.update(horizon_months=3, workloads=d["workloads"][:2]), cad(1, growth_per_month=10)), _refused("plan.yaml", "growth_per_month")),
        ("plan15: traffic shrinking 90% a month for 60 months", both(horizon60, cad(1, growth_per_month=-0.9)), _json_total),
        ("plan15: requests_per_s 1e7 (the bound)", tgt(1, requests_per_s=1e7), _any),
        ("plan15: requests_per_s 1e7, flat: more copies than any fleet", both(tgt(1, requests_per_s=1e7), cad(1, growth_per_month=0)), _unplaced("chat-70b")),
        ("plan15: requests_per_s 5e-324", tgt(1, requests_per_s=5e-324), _any),
        ("plan15: p95_ttft_ms 5e-324", tgt(1, p95_ttft_ms=5e-324), _any),
        ("plan15: max_tpot_ms 0", tgt(1, max_tpot_ms=0), _refused("max_tpot_ms")),
        ("plan15: concurrency 10,000,000", lambda d: d["workloads"][1].__setitem__("targets", {"concurrency": 10_000_000}), _any),
        ("plan15: speculative decoding in a plan's service", lambda d: d["workloads"][1]["workload"].__setitem__("speculative", {"method": "eagle", "acceptance_rate": 0.99}), _ok),
        ("plan15: a fine-tune with a request target", tgt(0, requests_per_s=2), _refused("targets")),
        ("plan15: end_month before start_month", lambda d: d["workloads"][0].__setitem__("cadence", {"per_month": 2, "start_month": 6, "end_month": 3}), _refused("end_month")),
        ("plan15: end_month past the horizon", lambda d: d["workloads"][0].__setitem__("cadence", {"per_month": 2, "end_month": 120}), _any),
        ("plan15: per_month 1000 with a 10-year deadline", both(cad(0, per_month=1000), lambda d: d["workloads"][0].__setitem__("deadline_days", 3650)), _any),
        ("plan15: owned MI300X for CUDA-only work", lambda d: d["owned"].append({"gpu": "MI300X", "count": 8, "hosting": "datacenter"}), _ok),
        ("plan15: owned servers more than cards", lambda d: d["owned"][0].__setitem__("servers", 9), _refused("servers")),
        ("plan15: owned count 65,536 in one server", lambda d: d["owned"][0].update(count=65536, servers=1), _any),
        ("plan15: budget 5e-324 a quarter", lambda d: d["constraints"].__setitem__("budget_per_quarter_usd", 5e-324), _any),
        ("plan15: buy only with a budget of 1", lambda d: d["constraints"].update(acquisition="buy", budget_total_usd=1), _any),
        ("plan15: allowed GPUs unknown", lambda d: d["constraints"].__setitem__("gpus", ["h1000"]), _refused("h1000")),
        ("plan15: cadence per_month 010", lambda d: None, None),
    ]:
        if check is None:
            case(name, {"plan.yaml": PLAN.replace("cadence: {per_month: 2}", "cadence: {per_month: 010}")}, ["plan", "plan.yaml", "--format", "json"],
                 expect="any", check=_ok)
            continue
        case(name, {"plan.yaml": pl(fn)}, ["plan", "plan.yaml", "--format", "json"], expect="any", check=check)

    # ------------------------------------------------------------ price CSVs
    head = "gpu,gpus,price\n"
    million = head + "H100 80GB SXM,8,20\n" * 1_000_001
    for name, body, argv_extra, check in [
        ("csv15: separated by semicolons (a European spreadsheet)", "gpu;gpus;price\nH100 80GB SXM;8;20\n", [], _refused("p.csv")),
        ("csv15: separated by tabs", "gpu\tgpus\tprice\nH100 80GB SXM\t8\t20\n", [], _any),
        ("csv15: a million and one rows", million, [], _refused("p.csv", "rows")),
        ("csv15: price 2e1 (an exponent)", head + "H100 80GB SXM,8,2e1\n", [], _ok),
        ("csv15: price 2E+1", head + "H100 80GB SXM,8,2E+1\n", [], _ok),
        ("csv15: price 0", head + "H100 80GB SXM,8,0\n", [], rows_refused),
        ("csv15: price -20", head + "H100 80GB SXM,8,-20\n", [], rows_refused),
        ("csv15: price 010", head + "H100 80GB SXM,8,010\n", [], _ok),
        ("csv15: a Total row at the end", head + "H100 80GB SXM,8,20\nTotal,,20\n", [], _ok),
        ("csv15: a DDE formula as the GPU name", head + "\"=cmd|' /C calc'!A0\",8,20\n", [], lambda r: rows_refused(r) and "=cmd" not in _file(r, "ov/clouds.yaml")),
        ("csv15: --as-of with a time of day", CSV, ["--as-of", "2026-01-05T10:00"], _any),
        ("csv15: --as-of 1970-01-01", CSV, ["--as-of", "1970-01-01"], _any),
    ]:
        case(name, {"p.csv": body}, ["prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov", *argv_extra], expect="any", check=check)

    # ------------------------------------------------------------ a seller's report: other GPUs, other fields
    a100 = (DATA / "telegraf_a100-sxm4-v12.xml").read_text()
    mig = (DATA / "netdata_a100-sxm4-mig.xml").read_text()
    pro6000 = (DATA / "netdata_rtx-pro-6000-driver-580.xml").read_text()
    used_a100 = USED.replace("rtx-3090", "a100-80gb-sxm")
    block = a100[a100.index("<gpu id="): a100.index("</gpu>") + len("</gpu>")]
    h100 = re.sub(r"<product_name>[^<]*", "<product_name>NVIDIA H100 80GB HBM3", a100, count=1)
    h100 = h100.replace("<memory_temp>44 C</memory_temp>", "<memory_temp>100 C</memory_temp>")
    used_h100 = USED.replace("rtx-3090", "h100-80gb-sxm")
    na_all = re.sub(r">(-?[0-9][0-9.]*) (C|W|MHz|MiB|%)<", r">N/A<", SMI)
    for name, files, check in [
        ("smi15: an A100 with MIG on, as a used card", {"p.yaml": used_a100, "r.xml": mig}, _ok),
        ("smi15: an RTX 3090 and an A100 in one report", {"p.yaml": USED, "r.xml": re.sub(r"<attached_gpus>1", "<attached_gpus>2", SMI.replace("</gpu>", "</gpu>" + block, 1))}, _ok),
        ("smi15: every reading N/A", {"p.yaml": USED, "r.xml": na_all}, _ok),
        ("smi15: an H100 (HBM3) at 100 C, its own limit 95 C", {"p.yaml": used_h100, "r.xml": h100}, _finds("USED-MEMORY-HOT", True)),
        ("smi15: an H100 (HBM3) at 100 C, its own limit lost (no HBM3 point is sourced)", {"p.yaml": used_h100, "r.xml": h100.replace("<gpu_temp_max_mem_threshold>95 C", "<gpu_temp_max_mem_threshold>N/A")}, _ok),
        ("smi15: a Blackwell RTX Pro 6000 (GDDR7), driver 580", {"p.yaml": USED.replace("rtx-3090", "rtx-pro-6000"), "r.xml": pro6000}, _ok),
        ("smi15: memory_temp 86.5 C (tenths)", smi(SMI.replace("<memory_temp>86 C", "<memory_temp>86.5 C")), _ok),
        ("smi15: path a URL", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: 'https://example.com/r.xml'")}, _refused("nvidia_smi")),
        ("smi15: path ~/r.xml", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: ~/r.xml")}, _refused("nvidia_smi")),
        ("smi15: path a glob *.xml", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: '*.xml'"), "r.xml": SMI}, _refused("nvidia_smi")),
        ("smi15: path $HOME/r.xml", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: $HOME/r.xml")}, _refused("nvidia_smi")),
        ("smi15: OSC 8 hyperlink in the product name (text)", smi(SMI.replace("<product_name>NVIDIA GeForce RTX 3090", "<product_name>NVIDIA GeForce RTX 3090&#x1b;]8;;http://x/&#x1b;\\")), None),
    ]:
        if check is None:
            case(name, files, ["audit", "p.yaml", "--format", "text"], expect="any", check=_no_raw(*ESC))
            continue
        case(name, files, aud, expect="any", check=check)
    case("batch15: a member whose seller's report is a FIFO", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": "FIFO"}, ["audit", "b", "--format", "json"],
         expect="any", check=lambda r: r.returncode == 2 and _clean(r) and "r.xml" in r.stderr and '"verdict"' in r.stdout)
    case("batch15: a member whose seller's report links to /dev/zero", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": ("LINK", "/dev/zero")}, ["audit", "b", "--format", "json"],
         expect="any", check=lambda r: r.returncode == 2 and _clean(r) and '"verdict"' in r.stdout)
    big = SMI.replace("</nvidia_smi_log>", "<!--" + "x" * 3_900_000 + "-->\n</nvidia_smi_log>")
    cards = "".join(f"  - {{serial: '{i}', nvidia_smi: r{i}.xml}}\n" for i in range(12))
    mem_files = {"p.yaml": USED.replace("count: 1", "count: 12").replace("  - {serial: '1', nvidia_smi: r.xml}\n", cards)}
    mem_files.update({f"r{i}.xml": big for i in range(12)})
    case("mem15: 12 cards, each its own 3.9 MB report, under 400 MB", mem_files, ["MEM", "400", "audit", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1) and _clean(r))

    # ------------------------------------------------------------ output paths
    for name, files, argv, check in [
        ("out15: -o an existing FIFO (no reader)", {"r.yaml": LORA, "o.md": "FIFO"}, ["recommend", "r.yaml", "-o", "o.md"], _any),
        ("out15: -o an existing socket", {"r.yaml": LORA, "o.md": "SOCKET"}, ["recommend", "r.yaml", "-o", "o.md"], _any),
        ("out15: -o /dev/null", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/null", "--format", "md"], _ok),
        ("out15: -o an existing 0755 report keeps 0755", {"r.yaml": LORA, "o.md": ("MODE", 0o755)}, ["recommend", "r.yaml", "-o", "o.md"], _mode_is("o.md", 0o755)),
        ("out15: -o an existing 0000 report keeps 0000", {"r.yaml": LORA, "o.md": ("MODE", 0o000)}, ["recommend", "r.yaml", "-o", "o.md"], lambda r: _any(r) and stat.S_IMODE(os.stat(Path(r.cwd, "o.md")).st_mode) == 0),
        ("out15: plan -o onto a house rule", {"plan.yaml": PLAN, "h/a.yaml": CUDA_RULE}, ["plan", "plan.yaml", "--rules", "h", "-o", "h/a.yaml"], _kept("h/a.yaml", CUDA_RULE)),
        ("out15: import -o a folder whose clouds.yaml is a FIFO", {"p.csv": CSV, "ov/clouds.yaml": "FIFO"}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], _any),
        ("out15: -o through a link to a missing folder", {"r.yaml": LORA, "d": ("LINK", "gone")}, ["recommend", "r.yaml", "-o", "d/o.md"], lambda r: r.returncode == 2 and _one(r)),
    ]:
        case(name, files, argv, expect="any", real=True, check=check)
    case("conc15: four plans write one -o", {"plan.yaml": PLAN}, ["CONCURRENT", "4", "plan", "plan.yaml", "-o", "o.json"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1) and _clean(r) and "leftover" not in r.stdout and json.loads(_file(r, "o.json") or "null") is not None)

    # ------------------------------------------------------------ output encodings
    files = {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN}
    for name, enc, argv, check in [
        ("enc15: PYTHONIOENCODING=idna (no custom error handler)", "idna", ["explain", "MEM-FITS"], lambda r: r.returncode == 0 and _clean(r)),
        ("enc15: PYTHONIOENCODING=idna, bad input", "idna", ["recommend", "nosuch.yaml"], lambda r: r.returncode == 2 and _one(r)),
        ("enc15: PYTHONIOENCODING=undefined", "undefined", ["explain", "MEM-FITS"], lambda r: r.returncode == 0 and _clean(r)),
        ("enc15: PYTHONIOENCODING=undefined, bad input", "undefined", ["recommend", "nosuch.yaml"], lambda r: r.returncode == 2 and _one(r)),
        ("enc15: PYTHONIOENCODING=utf-7 zh", "utf-7", ["audit", "p.yaml", "--lang", "zh"], _ok),
        ("enc15: PYTHONIOENCODING=cp037 (EBCDIC) zh", "cp037", ["plan", "plan.yaml", "--lang", "zh"], _ok),
        ("enc15: PYTHONIOENCODING=ascii zh plan, bad input", "ascii", ["plan", "r.yaml", "--lang", "zh"], lambda r: r.returncode == 2 and _one(r)),
        ("enc15: PYTHONIOENCODING=latin-1 zh prices", "latin-1", ["prices", "--lang", "zh"], _ok),
    ]:
        case(name, files, argv, expect="any", real=True, env={"PYTHONIOENCODING": enc}, check=check)

    # ------------------------------------------------------------ control characters from input files
    osc = "\x1b]0;owned\x07"
    CLOUD = ("instances:\n- id: mycloud:h100x8\n  provider: mycloud\n  gpu: h100-80gb-sxm\n  gpus: 8\n  usd_per_hour: 20.0\n"
             "  as_of: 2026-12-01\n  source: a page\n  check: S\n")
    for name, files, argv in [
        ("ctl15: OSC title-set in a plan workload name (text)", {"plan.yaml": PLAN.replace("name: lora-8b", 'name: "lora\\e]0;owned\\a-8b"')}, ["plan", "plan.yaml"]),
        ("ctl15: BEL in a used card's serial (text)", {"p.yaml": USED.replace("serial: '1'", 'serial: "1\\a\\a"'), "r.xml": SMI}, ["audit", "p.yaml"]),
        ("ctl15: OSC in a house rule's fix (text)", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE.replace("Choose an NVIDIA GPU", "Choose\\e]0;x\\a an NVIDIA GPU")}, ["explain", "HOUSE-CUDA-ONLY", "--rules", "h"]),
        ("ctl15: OSC in an overlay price source (prices)", {"k/clouds.yaml": CLOUD.replace("source: a page", 'source: "a page\\e]8;;http://x/\\e\\\\"')}, ["prices", "--knowledge", "k", "--provider", "mycloud"]),
        ("ctl15: CR in an overlay GPU name (gpus)", {"k/gpus.yaml": 'gpus:\n  - id: h100-80gb-sxm\n    name: "NVIDIA H100\\rPWNED"\n'}, ["gpus", "--knowledge", "k"]),
        ("ctl15: OSC in a proposal's instance name (text)", {"p.yaml": patched("acquisition.instance", "gpu_1x" + osc, prop)}, ["audit", "p.yaml"]),
    ]:
        case(name, files, argv, expect="any", check=_no_raw(*ESC, "\r"))

    # ------------------------------------------------------------ 010 and exponents in fields no round tried
    for name, fname, text, argv, check in [
        ("num15: proposal months 010", "p.yaml", PROP.replace("acquisition:\n", "acquisition:\n  months: 010\n", 1), ["audit", "p.yaml"], _any),
        ("num15: used card fan sample 010", "p.yaml", USED.replace("nvidia_smi: r.xml}", "nvidia_smi: r.xml, fan_speed_percent: [010, 40]}"), ["audit", "p.yaml"], _any),
        ("num15: plan owned paid 1.44E4", "plan.yaml", PLAN.replace("paid_usd: 14400", "paid_usd: 1.44E4"), ["plan", "plan.yaml"], _ok),
        ("num15: plan targets requests_per_s 2E0", "plan.yaml", PLAN.replace("requests_per_s: 2", "requests_per_s: 2E0"), ["plan", "plan.yaml"], _ok),
        ("num15: policy plan_api_margin 5E-1", "k/policy.yaml", "plan_api_margin: 5E-1\n", ["plan", "plan.yaml", "--knowledge", "k"], _ok),
        ("num15: policy used-card warning fraction 9e-1", "k/policy.yaml", "used_card_memory_junction_warning_fraction: 9e-1\n", ["audit", "p.yaml", "--knowledge", "k"], _ok),
        ("num15: house rule value 1.5E+1 on a card", "h/a.yaml", CUDA_RULE.replace("fact: candidate", "fact: card").replace('[cuda_device, "==", false]', '[mem_temp_c, ">=", 1.5E+1]').replace("action: reject", "action: finding\n      severity: warning").replace("{gpu_name} is not", "{serial} is not"),
         ["audit", "p.yaml", "--rules", "h", "--format", "json"], _finds("HOUSE-CUDA-ONLY", True)),
        ("num15: house rule value +1e-320 (subnormal)", "h/a.yaml", CUDA_RULE.replace('[cuda_device, "==", false]', '[need_gb, ">", +1e-320]'), ["recommend", "r.yaml", "--rules", "h"], _ok),
        ("num15: house rule value 1e400 (inf)", "h/a.yaml", CUDA_RULE.replace('[cuda_device, "==", false]', '[need_gb, ">", 1e400]'), ["recommend", "r.yaml", "--rules", "h"], _refused("h/a.yaml")),
    ]:
        base = {"r.yaml": LORA, "p.yaml": USED, "r.xml": SMI, "plan.yaml": PLAN}
        base[fname] = text
        case(name, base, argv, expect="any", check=check)

    # ------------------------------------------------------------ signals and pipes
    for name, files, argv, check in [
        ("signal15: SIGINT while prices are listed", {}, ["SIGINT", "prices"], lambda r: r.returncode in (0, 130) and _clean(r)),
        ("signal15: SIGINT while a seller's report is read", {"p.yaml": USED, "r.xml": big, "o.md": "OLD\n"}, ["SIGINT", "audit", "p.yaml", "-o", "o.md"],
         lambda r: _clean(r) and (r.returncode in (0, 1) or (r.returncode == 130 and _file(r, "o.md") == "OLD\n"))),
        ("signal15: SIGTERM during prices import keeps the overlay", {"p.csv": million[:2_000_000], "ov/clouds.yaml": "OLD\n"},
         ["SIGTERM", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], lambda r: _clean(r) and (r.returncode == 0 or _file(r, "ov/clouds.yaml") == "OLD\n")),
        ("pipe15: prices import summary | head -c1 keeps 0", {"p.csv": CSV}, ["PIPE", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], lambda r: r.returncode == 0 and _clean(r)),
        ("pipe15: gpus --format json | head -c1 keeps 0", {}, ["PIPE", "gpus", "--format", "json"], lambda r: r.returncode == 0 and _clean(r)),
        ("pipe15: a batch with a FIFO report | head -c1 keeps 2", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": "FIFO"}, ["PIPE", "audit", "b"], lambda r: r.returncode == 2 and _clean(r)),
    ]:
        case(name, files, argv, expect="any", real=True, check=check)

    # ------------------------------------------------------------ ask --answers with serving fields
    for name, body in [
        ("ask15: answers with acceptance_rate 1.5", "workload:\n  task: inference\n  model: llama-3.1-8b\n  speculative: {method: eagle, acceptance_rate: 1.5}\n"),
        ("ask15: answers with a self-holding mapping", "workload: &w {task: inference, model: *w}\n"),
        ("ask15: answers with a value '='", "workload:\n  task: inference\n  context_len: =\n"),
    ]:
        case(name, {"a.yaml": body}, ["PTY", "ask", "--answers", "a.yaml"], expect="any", real=True,
             check=lambda r: _clean(r) and r.returncode in (2, 130) and "a.yaml" in r.stdout)
