# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round sixteen of the hostile corpus (issue 26 items 5 and 6): kinds rounds one to fifteen did
not try -- an input read from standard input (``/dev/stdin``, ``-``) with ``-o`` naming that same
file or ``/dev/stdin`` itself; a price CSV named ``clouds.yaml`` imported into its own folder;
options given as empty text, after ``--`` or abbreviated; ``ask`` with its answers piped (not a
terminal); the process under ``ulimit`` (twelve file descriptors, a 4-block file size limit); an
interrupt while the user's cache is first written, and four fresh processes filling one cache at
once, each followed by a run that must give what a run without the cache gives; house-rule
messages that reach an attribute, an index or a position of a field (``{gpu_name.__class__}``),
or ask for a precision of 900,000,000; house-rule conditions with unknown operators and
references; overlay GPUs, models and prices at their numeric edges; seller's reports of HBM3 and
HBM3e cards around their own memory limit (item 6), memory readings in forms nvidia-smi never
writes, 200,000 attributes on one element, a product name of a megabyte; price CSVs with a
capitalised header, a byte-order mark, a quoted newline, a 50 MB line, a NUL; codecs that keep
state between writes (``hz``, ``iso2022_jp``) and UTF-32; escape characters from an overlay
model's name, a house rule's title, a provider and a batch member's file name; batch folders with
``.yml``/``.YAML`` members, a link to themselves, a member whose report is 0000 or a socket; and
Ctrl-C while the GPU catalog or the fact list is written; a plan's ``owned`` and a house rule's
operator given as a number, a list or a mapping. Added to
benchmarks/hostile_corpus.py's table by :func:`add`; the failures fixed are kept as tests in
tests/test_hostile_sixteenth.py.

Before the fixes: 125 clean, 12 fail of 137 (129 run on main at 19f4b20b: 123 clean; the 8 added
after were run on the code before their fix) -- ``-o`` onto gpuwise's own report template
(``reports/templates/recommend.md``, ``_style.css``), its message catalog (``gpuwise.mo``, read for
``--lang zh``) or a module (``gpuwise/__init__.py``) replaced it, exit 0; ``prices import
--provider ''`` imported the file as provider 'p' (its name), exit 0; a bare ``gpuwise`` printed the
whole help on standard error (22 lines); ``owned: 8`` in a plan (x3) and a house-rule operator that
is a mapping or a list (x2) were internal errors, exit 3 (found by random mutations of the
examples, 8 of 3,550 runs); an H100 whose report lost its memory limit was judged on nothing at
100 deg C (no HBM3 point). After: 137 clean of 137."""
from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused, finished
from benchmarks.hostile_round13 import _finds
from benchmarks.hostile_round14 import _file, _kept

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "nvidia_smi"
ESC = ("\x1b", "\x07", "\x9b", "\x9d")
MODES = ("STDIN", "ULIMIT", "INTCACHE", "CONCACHE", "SIGAT")


def _left_nothing(r) -> bool:
    """No temporary file left beside an output (a name with ``.tmp`` or a leading ``.gpuwise``)."""
    return not [p for p in Path(r.cwd).rglob("*") if ".tmp" in p.name or p.name.startswith((".gpuwise", "tmp"))]


def _own_kept(rel: str):
    """Refused in one line, and gpuwise's own file ``rel`` (a template, the message catalog, a
    module) is as it was; a run that replaced it gets it back, so the checkout stays whole."""
    path = ROOT / rel
    before = path.read_bytes()

    def check(r) -> bool:
        kept = path.read_bytes() == before
        if not kept:
            path.write_bytes(before)
        return kept and r.returncode == 2 and _one(r)
    return check


def h100_report(mem_temp: str, limit: str | None = "95 C", name: str = "NVIDIA H100 80GB HBM3", total: str | None = None) -> str:
    """An H100 (or, by ``name``/``total``, another HBM3/HBM3e board) report built from telegraf's
    A100-SXM4-80GB test data, with its memory reading and its own memory limit set."""
    a100 = (DATA / "telegraf_a100-sxm4-v12.xml").read_text()
    x = re.sub(r"<product_name>[^<]*", "<product_name>" + name, a100, count=1)
    x = x.replace("<memory_temp>44 C</memory_temp>", f"<memory_temp>{mem_temp}</memory_temp>")
    if limit is None:
        x = x.replace("<gpu_temp_max_mem_threshold>95 C</gpu_temp_max_mem_threshold>\n", "")
    else:
        x = x.replace("<gpu_temp_max_mem_threshold>95 C", f"<gpu_temp_max_mem_threshold>{limit}")
    if total:
        x = x.replace("<total>81920 MiB</total>", f"<total>{total}</total>", 1)
    return x


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV, patched, smi, _wl, prop, _plan, REJECT = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]

    # ------------------------------------------------------------ inputs from standard input, -o onto them
    for name, files, argv, check in [
        ("stdin16: recommend /dev/stdin < r.yaml -o r.yaml keeps r.yaml", {"r.yaml": LORA}, ["STDIN", "r.yaml", "recommend", "/dev/stdin", "-o", "r.yaml", "--format", "md"], lambda r: _kept("r.yaml", LORA)(r) and r.returncode == 2 and "replace an input" in r.stderr),
        ("stdin16: recommend r.yaml -o /dev/stdin < r.yaml keeps r.yaml", {"r.yaml": LORA}, ["STDIN", "r.yaml", "recommend", "r.yaml", "-o", "/dev/stdin", "--format", "md"], lambda r: _kept("r.yaml", LORA)(r) and _one(r)),
        ("stdin16: audit p.yaml -o /proc/self/fd/0 < p.yaml keeps p.yaml", {"p.yaml": PROP}, ["STDIN", "p.yaml", "audit", "p.yaml", "-o", "/proc/self/fd/0", "--format", "json"], lambda r: _kept("p.yaml", PROP)(r) and _one(r)),
        ("stdin16: recommend /dev/stdin (piped requirements)", {"r.yaml": LORA}, ["STDIN", "r.yaml", "recommend", "/dev/stdin", "--format", "json"], _any),
        ("stdin16: recommend - (dash)", {"r.yaml": LORA}, ["STDIN", "r.yaml", "recommend", "-", "--format", "json"], _any),
        ("stdin16: plan /dev/stdin -o o.json, o.json old kept or replaced whole", {"plan.yaml": PLAN, "o.json": "OLD\n"}, ["STDIN", "plan.yaml", "plan", "/dev/stdin", "-o", "o.json"], lambda r: _any(r) and (_file(r, "o.json") == "OLD\n" or _file(r, "o.json").lstrip().startswith("{"))),
        ("stdin16: prices import /dev/stdin -o ov", {"p.csv": CSV}, ["STDIN", "p.csv", "prices", "import", "/dev/stdin", "--provider", "m", "-o", "ov"], _any),
        ("stdin16: ask with its answers piped (no terminal)", {"a.txt": "finetune\nllama-2-7b\nlora\n"}, ["STDIN", "a.txt", "ask"], lambda r: r.returncode == 2 and _one(r)),
        ("stdin16: ask --answers with stdin from /dev/null", {"a.yaml": LORA}, ["STDIN", "/dev/null", "ask", "--answers", "a.yaml"], lambda r: r.returncode in (0, 1, 2) and _one(r)),
        ("stdin16: ask -o o.md piped keeps o.md", {"a.txt": "x\n", "o.md": "OLD\n"}, ["STDIN", "a.txt", "ask", "-o", "o.md"], lambda r: r.returncode == 2 and _one(r) and _file(r, "o.md") == "OLD\n"),
        ("stdin16: ask --lang zh piped, ascii stream", {"a.txt": "x\n"}, ["STDIN", "a.txt", "ask", "--lang", "zh"], lambda r: r.returncode == 2 and _one(r)),
    ]:
        env = {"PYTHONIOENCODING": "ascii"} if "ascii stream" in name else None
        case(name, files, argv, expect="any", real=True, env=env, check=check)

    # ------------------------------------------------------------ a CSV named clouds.yaml imported into its own folder
    case("out16: prices import ov/clouds.yaml -o ov keeps the CSV", {"ov/clouds.yaml": CSV}, ["prices", "import", "ov/clouds.yaml", "--provider", "m", "-o", "ov"],
         expect="any", check=lambda r: _one(r) and _kept("ov/clouds.yaml", CSV)(r))
    case("out16: audit batch -o onto a member's seller report", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": SMI}, ["audit", "b", "-o", "b/r.xml", "--format", "json"],
         expect="any", check=lambda r: _kept("b/r.xml", SMI)(r) and r.returncode == 2 and _one(r))
    case("out16: audit -o onto the report named through sub/..", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: sub/../r.xml"), "r.xml": SMI, "sub/.keep": ""},
         ["audit", "p.yaml", "-o", "r.xml", "--format", "json"], expect="any", check=lambda r: _kept("r.xml", SMI)(r) and r.returncode == 2)
    case("out16: recommend -o onto the --rules folder", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE}, ["recommend", "r.yaml", "--rules", "h", "-o", "h"],
         expect="any", check=lambda r: r.returncode == 2 and _one(r) and _kept("h/a.yaml", CUDA_RULE)(r))
    case("out16: -o '' (empty)", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", ""], expect="any", check=lambda r: r.returncode == 2 and _one(r))
    case("out16: plan -o onto the --knowledge overlay's gpus.yaml by ./k//gpus.yaml", {"plan.yaml": PLAN, "k/gpus.yaml": "gpus: []\n"},
         ["plan", "plan.yaml", "--knowledge", "k", "-o", "./k//gpus.yaml", "--format", "json"], expect="any", check=lambda r: _kept("k/gpus.yaml", "gpus: []\n")(r) and r.returncode == 2)

    for rel, extra in [("reports/templates/recommend.md", ["--format", "md"]), ("reports/templates/_style.css", ["--format", "html"]),
                       ("gpuwise/render/locale/zh_CN/LC_MESSAGES/gpuwise.mo", ["--format", "md", "--lang", "zh"]),
                       ("gpuwise/__init__.py", ["--format", "json"])]:
        case(f"out16: -o onto gpuwise's own {rel}", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", str(ROOT / rel), *extra],
             expect="any", check=_own_kept(rel))

    # ------------------------------------------------------------ options as empty text, after --, abbreviated
    for name, argv, check in [
        ("arg16: estimate --gpu ''", ["estimate", "r.yaml", "--gpu", ""], _refused("--gpu")),
        ("arg16: recommend --knowledge ''", ["recommend", "r.yaml", "--knowledge", ""], _refused("--knowledge")),
        ("arg16: recommend --rules ''", ["recommend", "r.yaml", "--rules", ""], _refused("--rules")),
        ("arg16: recommend --lang ''", ["recommend", "r.yaml", "--lang", ""], _refused("--lang")),
        ("arg16: recommend --currency ''", ["recommend", "r.yaml", "--currency", ""], _refused("--currency")),
        ("arg16: prices --provider ''", ["prices", "--provider", ""], _any),
        ("arg16: prices import --provider ''", ["prices", "import", "p.csv", "--provider", "", "-o", "ov"], _refused("--provider")),
        ("arg16: prices import --provider '../evil' writes nothing outside -o", ["prices", "import", "p.csv", "--provider", "../evil", "-o", "ov"], lambda r: _any(r) and not any(p.name.startswith("evil") for p in Path(r.cwd).iterdir())),
        ("arg16: prices import --provider with a newline", ["prices", "import", "p.csv", "--provider", "a\nb", "-o", "ov"], lambda r: _any(r) and "a\nb" not in _file(r, "ov/clouds.yaml")),
        ("arg16: prices import --as-of ''", ["prices", "import", "p.csv", "--provider", "m", "--as-of", "", "-o", "ov"], _refused("--as-of")),
        ("arg16: prices import --as-of 2026-02-30", ["prices", "import", "p.csv", "--provider", "m", "--as-of", "2026-02-30", "-o", "ov"], _refused("--as-of")),
        ("arg16: prices import --as-of 9999-12-31", ["prices", "import", "p.csv", "--provider", "m", "--as-of", "9999-12-31", "-o", "ov"], _refused("--as-of")),
        ("arg16: a requirements file named -o, after --", ["recommend", "--format", "json", "--", "-o"], _ok),
        ("arg16: --format=json", ["recommend", "r.yaml", "--format=json"], _ok),
        ("arg16: --form json (abbreviated)", ["recommend", "r.yaml", "--form", "json"], lambda r: (_ok(r) or (r.returncode == 2 and _one(r)))),
        ("arg16: two requirements files", ["recommend", "r.yaml", "r.yaml"], lambda r: r.returncode == 2 and _one(r)),
        ("arg16: audit with no file", ["audit"], lambda r: r.returncode == 2 and _one(r)),
        ("arg16: no command at all", [], lambda r: r.returncode == 2 and _one(r)),
        ("arg16: explain ''", ["explain", ""], lambda r: r.returncode == 2 and _one(r)),
        ("arg16: estimate --gpus ' 8 '", ["estimate", "r.yaml", "--gpu", "h100", "--gpus", " 8 "], _any),
    ]:
        case(name, {"r.yaml": LORA, "-o": LORA, "p.csv": CSV}, argv, expect="any", check=check)

    # ------------------------------------------------------------ ulimit: few descriptors, small files
    for name, files, argv, check in [
        ("ulimit16: 12 file descriptors, recommend", {"r.yaml": LORA}, ["ULIMIT", "-n 12", "recommend", "r.yaml"], lambda r: r.returncode in (0, 1, 2) and _one(r)),
        ("ulimit16: 12 file descriptors, a batch of three", {"b/a.yaml": PROP, "b/c.yaml": PROP, "b/d.yaml": REJECT}, ["ULIMIT", "-n 12", "audit", "b", "--format", "json"], lambda r: r.returncode in (1, 2) and _one(r)),
        ("ulimit16: file size 4 blocks, -o a report keeps the old one", {"r.yaml": LORA, "o.html": "OLD\n"}, ["ULIMIT", "-f 4", "recommend", "r.yaml", "-o", "o.html"],
         lambda r: r.returncode == 2 and _one(r) and _file(r, "o.html") == "OLD\n" and _left_nothing(r)),
        ("ulimit16: file size 1 block, prices import keeps the overlay", {"p.csv": "gpu,gpus,price\n" + "".join(f"{g},{n},{3 * n}\n" for g in ("H100 80GB SXM", "A100 80GB SXM", "RTX 4090", "L40S", "A10G", "H200") for n in (1, 2, 4, 8)), "ov/clouds.yaml": "instances: []\n"},
         ["ULIMIT", "-f 1", "prices", "import", "p.csv", "--provider", "m", "-o", "ov"], lambda r: r.returncode == 2 and _one(r) and _file(r, "ov/clouds.yaml") == "instances: []\n" and _left_nothing(r)),
        ("ulimit16: file size 1 block, the cache cannot be written", {"r.yaml": LORA}, ["ULIMIT", "-f 1", "recommend", "r.yaml", "--format", "json"], lambda r: _ok(r) and r.stderr.strip() == ""),
    ]:
        case(name, files, argv, expect="any", real=True, env={"XDG_CACHE_HOME": "{tmp}/cache", "GPUWISE_NO_CACHE": None}, check=check)

    # ------------------------------------------------------------ the user's cache: interrupted as it is written, filled at once
    for name, argv in [
        ("cache16: Ctrl-C 0.3 s into the first recommend, then the answer is a fresh one", ["INTCACHE", "0.3", "recommend", "r.yaml", "--format", "json"]),
        ("cache16: Ctrl-C 0.9 s into the first recommend", ["INTCACHE", "0.9", "recommend", "r.yaml", "--format", "json"]),
        ("cache16: Ctrl-C 1.6 s into the first audit", ["INTCACHE", "1.6", "audit", "p.yaml", "--format", "json"]),
        ("cache16: four fresh processes fill one cache at once", ["CONCACHE", "4", "recommend", "r.yaml", "--format", "json"]),
        ("cache16: four fresh audits with a house rule fill one cache at once", ["CONCACHE", "4", "audit", "p.yaml", "--rules", "h", "--format", "json"]),
    ]:
        case(name, {"r.yaml": LORA, "p.yaml": PROP, "h/a.yaml": CUDA_RULE}, argv, expect="any", real=True,
             check=lambda r: _clean(r) and r.stdout == "same")

    # ------------------------------------------------------------ house rules: format fields that reach further, odd conditions
    def msg(text: str) -> str:
        return re.sub(r'message: "[^"]*"', "message: " + json.dumps(text), CUDA_RULE, count=1)

    for name, body, check in [
        ("hr16: message {gpu_name.__class__}", msg("{gpu_name.__class__}"), _refused("h/a.yaml")),
        ("hr16: message {gpu_name.__class__.__init__.__globals__}", msg("{gpu_name.__class__.__init__.__globals__}"), lambda r: _refused("h/a.yaml")(r) and "__builtins__" not in r.stdout),
        ("hr16: message {gpu_name[0]}", msg("{gpu_name[0]}"), lambda r: _any(r) and "Traceback" not in r.stdout),
        ("hr16: message {0}", msg("{0} is not CUDA"), _refused("h/a.yaml")),
        ("hr16: message {} (auto-numbered)", msg("{} is not CUDA"), _refused("h/a.yaml")),
        ("hr16: message nested width {gpu_name:{count}}", msg("{gpu_name:{count}}"), _any),
        ("hr16: message precision .900000000", msg("{need_gb:.900000000f}"), _refused("h/a.yaml")),
        ("hr16: message width 1e3 written 1000", msg("{need_gb:>1000}"), _any),
        ("hr16: condition operator '=~'", CUDA_RULE.replace('[cuda_device, "==", false]', '[gpu, "=~", "h100"]'), _refused("h/a.yaml")),
        ("hr16: condition ref to a policy value that is not there", CUDA_RULE.replace('[cuda_device, "==", false]', '[need_gb, ">", {ref: capacity_gb, times: no_such_policy}]'), _refused("h/a.yaml")),
        ("hr16: condition ref times 1e400", CUDA_RULE.replace('[cuda_device, "==", false]', '[need_gb, ">", {ref: capacity_gb, times: 1e400}]'), _refused("h/a.yaml")),
        ("hr16: condition operator a mapping {a: 1}", CUDA_RULE.replace('[cuda_device, "==", false]', '[cuda_device, {a: 1}, false]'), _refused("h/a.yaml", "unknown operator")),
        ("hr16: condition operator an empty list", CUDA_RULE.replace('[cuda_device, "==", false]', '[cuda_device, [], false]'), _refused("h/a.yaml", "unknown operator")),
        ("hr16: condition operator a number", CUDA_RULE.replace('[cuda_device, "==", false]', '[cuda_device, 1, false]'), _refused("h/a.yaml", "unknown operator")),
        ("hr16: condition of five items", CUDA_RULE.replace('[cuda_device, "==", false]', '[cuda_device, "==", false, 1, 2]'), _refused("h/a.yaml")),
        ("hr16: severity BLOCKER (capitals)", CUDA_RULE.replace("action: reject", "action: finding\n      severity: BLOCKER"), _any),
        ("hr16: id with a slash", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "HOUSE/../CUDA"), _any),
        ("hr16: id with a space", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "HOUSE CUDA ONLY"), _any),
    ]:
        case(name, {"r.yaml": LORA, "h/a.yaml": body}, ["recommend", "r.yaml", "--rules", "h", "--format", "json"], expect="any", check=check)
    case("hr16: condition 'in' a list of ids rejects the one GPU allowed", {"r.yaml": LORA.replace("constraints:\n", "constraints:\n  gpus: [h100-80gb-sxm]\n", 1),
                                                                            "h/a.yaml": CUDA_RULE.replace('[cuda_device, "==", false]', '[gpu, "in", [h100-80gb-sxm, a100-80gb-sxm]]')},
         ["recommend", "r.yaml", "--rules", "h", "--format", "json"], expect="any", check=lambda r: r.returncode == 1 and _clean(r) and '"recommendation": null' in r.stdout)
    case("hr16: a house rule file .yml", {"r.yaml": LORA, "h/a.yml": CUDA_RULE}, ["rules", "--rules", "h", "--format", "json"], expect="any", check=_any)
    case("hr16: a house rule title with ESC in the rules listing", {"h/a.yaml": CUDA_RULE.replace("title: This team runs CUDA only", 'title: "\\e[2JThis team runs CUDA only"')}, ["rules", "--rules", "h"],
         expect="any", check=_no_raw(*ESC))

    # ------------------------------------------------------------ overlays at their numeric edges
    GPU_NEW = "gpus:\n  - id: h100-80gb-sxm\n    {field}\n"
    MODEL_NEW = ("models:\n  - id: tiny-1\n    name: Tiny\n    kind: decoder\n    params_b: 0.000001\n    layers: 1\n    hidden_size: 1\n    heads: 1\n"
                 "    kv_heads: 1\n    ffn_size: 1\n    vocab_size: 1\n    max_context: 4096\n    source: a page\n")
    CLOUD = ("instances:\n- id: mycloud:h100x8\n  provider: mycloud\n  gpu: h100-80gb-sxm\n  gpus: {gpus}\n  usd_per_hour: {usd}\n"
             "  as_of: 2026-12-01\n  source: a page\n  check: S\n")
    for name, files, argv, check in [
        ("kb16: an H100 patched to 1e-300 GB of memory", {"k/gpus.yaml": GPU_NEW.format(field="memory: {gb: 1.0e-300}")}, rec, _any),
        ("kb16: an H100 patched to 0 bandwidth", {"k/gpus.yaml": GPU_NEW.format(field="memory: {bandwidth_gb_s: 0}")}, rec, _any),
        ("kb16: an H100 patched to 1e-300 dense BF16 TFLOPS", {"k/gpus.yaml": GPU_NEW.format(field="peaks: {bf16: 1.0e-300, fp16: 1.0e-300}")}, rec, _any),
        ("kb16: a model of one layer, hidden size 1", {"k/models.yaml": MODEL_NEW}, ["estimate", "e.yaml", "--gpu", "h100", "--format", "json"], _any),
        ("kb16: a price of 1e-300 an hour", {"k/clouds.yaml": CLOUD.format(gpus=8, usd="1.0e-300")}, rec, _any),
        ("kb16: a price for 0 GPUs", {"k/clouds.yaml": CLOUD.format(gpus=0, usd=20)}, rec, _refused("gpus")),
        ("kb16: a throttle point written '110 C'", {"k/policy.yaml": "gddr6x_memory_throttle_c: 110 C\n"}, ["audit", "u.yaml", "--format", "json"], _refused("gddr6x_memory_throttle_c")),
        ("kb16: a policy key with an ESC", {"k/policy.yaml": '"memory\\e[2J_headroom": 0.1\n'}, rec, lambda r: r.returncode == 2 and _one(r) and "\x1b" not in r.stderr),
        ("kb16: 20,000 models in an overlay", {"k/models.yaml": "models:\n" + "".join(f"  - {{id: m{i}, params_b: 1}}\n" for i in range(20000))}, rec, _any),
    ]:
        base = {"r.yaml": LORA, "e.yaml": "workload: {task: inference, model: tiny-1}\n", "u.yaml": USED, "r.xml": SMI}
        base.update(files)
        case(name, base, [*argv, "--knowledge", "k"], expect="any", check=check)

    # ------------------------------------------------------------ a seller's report: HBM3/HBM3e around their own limit (item 6), odd readings
    used_h100 = USED.replace("rtx-3090", "h100-80gb-sxm")
    used_h200 = USED.replace("rtx-3090", "h200-141gb-sxm")
    h200 = dict(name="NVIDIA H200", total="143771 MiB")
    for name, files, check in [
        ("smi16: an H100 (HBM3) at its own limit, 95 of 95 C", {"p.yaml": used_h100, "r.xml": h100_report("95 C")}, _finds("USED-MEMORY-HOT", True)),
        ("smi16: an H100 (HBM3) at 94 of 95 C", {"p.yaml": used_h100, "r.xml": h100_report("94 C")}, _finds("USED-MEMORY-HOT", False)),
        ("smi16: an H200 (HBM3e) at 97 C, its own limit 95 C", {"p.yaml": used_h200, "r.xml": h100_report("97 C", **h200)}, _finds("USED-MEMORY-HOT", True)),
        ("smi16: an H200 (HBM3e) at 97 C, its own limit 105 C", {"p.yaml": used_h200, "r.xml": h100_report("97 C", "105 C", **h200)}, _finds("USED-MEMORY-HOT", False)),
        ("smi16: an H200 (HBM3e) memory N/A, its own limit 95 C", {"p.yaml": used_h200, "r.xml": h100_report("N/A", **h200)}, _finds("USED-MEMORY-HOT", False)),
        ("smi16: an H100 whose own limit is 0 C", {"p.yaml": used_h100, "r.xml": h100_report("60 C", "0 C")}, _finds("USED-MEMORY-HOT", False)),
        ("smi16: an H100 whose own limit is 300 C", {"p.yaml": used_h100, "r.xml": h100_report("60 C", "300 C")}, lambda r: _any(r) and "USED-MEMORY-HOT" not in r.stdout),
        ("smi16: an H100 whose limit element is missing, memory 100 C (HBM3's point, 95 C)", {"p.yaml": used_h100, "r.xml": h100_report("100 C", None)}, _finds("USED-MEMORY-JUNCTION-HOT", True)),
        ("smi16: an H100 whose limit element is missing, memory 85 C (under 0.9 x 95)", {"p.yaml": used_h100, "r.xml": h100_report("85 C", None)}, _finds("USED-MEMORY-JUNCTION-HOT", False)),
        ("smi16: an H200 (HBM3e) with no limit, memory 101 C (no HBM3e point)", {"p.yaml": used_h200, "r.xml": h100_report("101 C", None, **h200)}, _finds("USED-MEMORY-JUNCTION-HOT", False)),
        ("smi16: memory_temp '104 °C' (a degree sign)", smi(SMI.replace("<memory_temp>86 C", "<memory_temp>104 °C")), _any),
        ("smi16: memory_temp '104C' (no space)", smi(SMI.replace("<memory_temp>86 C", "<memory_temp>104C")), _any),
        ("smi16: memory_temp '+104 C'", smi(SMI.replace("<memory_temp>86 C", "<memory_temp>+104 C")), _any),
        ("smi16: memory_temp ' 104 C ' (spaces)", smi(SMI.replace("<memory_temp>86 C", "<memory_temp> 104 C ")), _finds("USED-MEMORY-JUNCTION-HOT", True)),
        ("smi16: the text report of an H100 (nvidia-smi -q)", {"p.yaml": used_h100, "r.xml": (DATA / "gpud_query-535.183.01-h100.txt").read_text()}, _refused("r.xml", "nvidia-smi -q")),
        ("smi16: query CSV with memory temperature", smi("name, temperature.gpu, temperature.memory\nNVIDIA GeForce RTX 3090, 74, 104\n"), _refused("r.xml")),
        ("smi16: declared utf-16, bytes utf-8", smi(SMI.replace('encoding="UTF-8"', 'encoding="UTF-16"').replace("<?xml version=\"1.0\" ?>", '<?xml version="1.0" encoding="UTF-16"?>')), _any),
        ("smi16: 200,000 attributes on one element", smi(SMI.replace("<timestamp>", "<x " + " ".join(f"a{i}=''" for i in range(200_000)) + "/><timestamp>", 1)), _any),
        ("smi16: a product name of a megabyte", smi(SMI.replace("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090" + "x" * 1_000_000, 1)), lambda r: _any(r) and len(r.stdout) < 200_000),
        ("smi16: attached_gpus 1000000 with one gpu", smi(re.sub(r"<attached_gpus>\d+", "<attached_gpus>1000000", SMI)), _any),
        ("smi16: a gpu id with a C1 CSI (text)", smi(SMI.replace('<gpu id="', '<gpu id="\x9b2J', 1)), None),
        ("smi16: a driver version with a C1 OSC (text)", smi(re.sub(r"<driver_version>", "<driver_version>\x9d0;x\x9c", SMI, count=1)), None),
        ("smi16: a VBIOS version with a C1 CSI (text)", smi(re.sub(r"<vbios_version>", "<vbios_version>\x9b31m", SMI, count=1)), None),
        ("smi16: a serial of 10,000 characters", smi(re.sub(r"<serial>[^<]*", "<serial>" + "7" * 10_000, SMI, count=1)), _any),
    ]:
        if check is None:
            case(name, files, ["audit", "p.yaml", "--format", "text"], expect="any", check=_no_raw(*ESC))
            continue
        case(name, files, aud, expect="any", check=check)

    # ------------------------------------------------------------ price CSVs
    for name, body, check in [
        ("csv16: header in capitals GPU,GPUS,PRICE", "GPU,GPUS,PRICE\nH100 80GB SXM,8,20\n", _any),
        ("csv16: a byte-order mark", "\ufeff" + CSV, _ok),
        ("csv16: a quoted newline in the GPU name", 'gpu,gpus,price\n"H100\n80GB SXM",8,20\n', lambda r: r.returncode in (0, 2) and _clean(r)),
        ("csv16: one line of 50 MB", "gpu,gpus,price\n" + "H" * 50_000_000, lambda r: r.returncode == 2 and _clean(r)),
        ("csv16: a field of 200,000 characters", "gpu,gpus,price\n" + "H" * 200_000 + ",8,20\n", lambda r: r.returncode in (0, 2) and _clean(r)),
        ("csv16: a NUL in a row", "gpu,gpus,price\nH100 80GB SXM,8,2\x000\n", lambda r: r.returncode in (0, 2) and _clean(r)),
        ("csv16: latin-1 bytes", b"gpu,gpus,price\nH100 80GB SXM caf\xe9,8,20\n", lambda r: r.returncode in (0, 2) and _clean(r)),
        ("csv16: an ESC in the GPU name, summary on stderr", "gpu,gpus,price\nH100\x1b[2J,8,20\n", _no_raw(*ESC)),
    ]:
        case(name, {"p.csv": body}, ["prices", "import", "p.csv", "--provider", "mycloud", "-o", "ov"], expect="any", check=check)

    # ------------------------------------------------------------ a plan's lists given as one number (found by a random mutation of the examples)
    for name, text in [
        ("plan16: owned 8 (a number, not a list)", patched("owned", 8, _plan)),
        ("plan16: owned 1.0e+308", patched("owned", 1e308, _plan)),
        ("plan16: owned -1 and constraints true", patched("constraints", True, yaml.safe_load(patched("owned", -1, _plan)))),
    ]:
        case(name, {"plan.yaml": text}, ["plan", "plan.yaml", "--format", "json"], expect="any", check=_refused("plan.yaml", "owned"))

    # ------------------------------------------------------------ serving at 10M concurrent sequences (item 3)
    big_conc = "workload:\n  task: inference\n  model: llama-3.1-8b\n  concurrent_requests: 10000000\n"
    case("serve16: recommend 10,000,000 concurrent sequences", {"r.yaml": big_conc}, rec, expect="any", check=_any)
    case("serve16: estimate 10,000,000 concurrent sequences on 8 H100", {"r.yaml": big_conc}, ["estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"], expect="any", check=_any)

    # ------------------------------------------------------------ output codecs that keep state, UTF-32
    files = {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN}
    for name, enc, argv in [
        ("enc16: PYTHONIOENCODING=hz zh audit", "hz", ["audit", "p.yaml", "--lang", "zh"]),
        ("enc16: PYTHONIOENCODING=iso2022_jp zh plan", "iso2022_jp", ["plan", "plan.yaml", "--lang", "zh"]),
        ("enc16: PYTHONIOENCODING=utf-32 explain", "utf-32", ["explain", "MEM-FITS"]),
        ("enc16: PYTHONIOENCODING=cp437 gpus", "cp437", ["gpus"]),
    ]:
        case(name, files, argv, expect="any", real=True, env={"PYTHONIOENCODING": enc}, check=_ok)

    # ------------------------------------------------------------ control characters from input files
    for name, files, argv in [
        ("ctl16: ESC in an overlay model's name (recommend text)", {"r.yaml": LORA.replace("model: llama-3.1-70b", "model: evil-7b"), "k/models.yaml": 'models:\n  - id: evil-7b\n    name: "Evil\\e]0;owned\\a 7B"\n    params_b: 6.74\n    kind: decoder\n    layers: 32\n    hidden_size: 4096\n    heads: 32\n    kv_heads: 32\n    ffn_size: 11008\n    vocab_size: 32000\n    max_context: 4096\n    source: a page\n'}, ["recommend", "r.yaml", "--knowledge", "k"]),
        ("ctl16: ESC in a proposal's provider (audit text)", {"p.yaml": patched("acquisition.provider", "lambda\x1b[2J", prop)}, ["audit", "p.yaml"]),
        ("ctl16: ESC in a batch member's file name (batch text)", {"b/a\x1b[2J.yaml": PROP, "b/c.yaml": PROP}, ["audit", "b"]),
        ("ctl16: ESC in a plan owned GPU's hosting note (plan text)", {"plan.yaml": PLAN.replace("hosting: office", 'hosting: "office\\e[2J"', 1)}, ["plan", "plan.yaml"]),
        ("ctl16: ESC in the estimate of a model given by overlay", {"r.yaml": "workload: {task: inference, model: evil-7b}\n", "k/models.yaml": 'models:\n  - id: evil-7b\n    name: "Evil\\e[31m 7B"\n    params_b: 6.74\n    kind: decoder\n    layers: 32\n    hidden_size: 4096\n    heads: 32\n    kv_heads: 32\n    ffn_size: 11008\n    vocab_size: 32000\n    max_context: 4096\n    source: a page\n'}, ["estimate", "r.yaml", "--knowledge", "k", "--gpu", "h100"]),
    ]:
        case(name, files, argv, expect="any", check=_no_raw(*ESC))

    # ------------------------------------------------------------ batch folders
    for name, files, check in [
        ("batch16: members .yml and .YAML", {"b/a.yml": PROP, "b/c.YAML": PROP}, lambda r: r.returncode in (0, 2) and _one(r)),
        ("batch16: a link to the folder itself inside it", {"b/a.yaml": PROP, "b/self": ("LINK", ".")}, lambda r: r.returncode in (0, 2) and _one(r)),
        ("batch16: a member whose report is 0000", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": ("MODE", 0)}, lambda r: r.returncode == 2 and _one(r) and "r.xml" in r.stderr and '"verdict"' in r.stdout),
        ("batch16: a member whose report is a socket", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": "SOCKET"}, lambda r: r.returncode == 2 and _one(r) and "r.xml" in r.stderr and '"verdict"' in r.stdout),
        ("batch16: a member of 0 bytes beside a good one", {"b/a.yaml": PROP, "b/z.yaml": ""}, lambda r: r.returncode == 2 and _one(r) and "z.yaml" in r.stderr and '"verdict"' in r.stdout),
        ("batch16: the folder and a member of it both given", {"b/a.yaml": PROP}, lambda r: r.returncode in (0, 2) and _one(r)),
    ]:
        argv = ["audit", "b", "--format", "json"] + (["b/a.yaml"] if "both given" in name else [])
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ Ctrl-C while a listing is written
    for name, argv in [
        ("signal16: Ctrl-C 0.8 s into gpus --format json", ["SIGAT", "0.8", "gpus", "--format", "json"]),
        ("signal16: Ctrl-C 0.8 s into rules --facts", ["SIGAT", "0.8", "rules", "--facts"]),
        ("signal16: Ctrl-C 1.2 s into an estimate", ["SIGAT", "1.2", "estimate", "r.yaml", "--gpu", "h100"]),
        ("signal16: Ctrl-C 0.5 s into recommend -o keeps o.md", ["SIGAT", "0.5", "recommend", "r.yaml", "-o", "o.md"]),
    ]:
        case(name, {"r.yaml": LORA, "o.md": "OLD\n"}, argv, expect="any", real=True,
             check=lambda r: _clean(r) and (r.returncode in (0, 1) or (r.returncode == 130 and _file(r, "o.md") == "OLD\n")))


def run_mode(argv: list[str], e: dict, tmp: Path, Res) -> Any:
    """The special runs of this round: ``STDIN FILE`` (standard input read from FILE, relative to
    the case's folder), ``ULIMIT 'OPTS'`` (the command under ``ulimit OPTS``), ``INTCACHE S``
    (Ctrl-C S seconds into a first run that fills a fresh cache, then the command again: stdout
    says ``same`` when that answer is what a run without the cache gives), ``CONCACHE N`` (N
    processes fill one fresh cache at once; ``same`` when each gives what a run without the cache
    gives) and ``SIGAT S`` (Ctrl-C S seconds in)."""
    import signal

    py = [sys.executable, "-m", "gpuwise"]
    mode, rest = argv[0], argv[1:]

    def done(p) -> Any:
        return Res(p.returncode if p.returncode >= 0 else 128 - p.returncode, p.stdout.decode(errors="replace"),
                   p.stderr.decode(errors="replace"), tmp)

    if mode == "STDIN":
        src = rest[0] if rest[0].startswith("/") else str(tmp / rest[0])
        with open(src, "rb") as fh:
            return done(subprocess.run([*py, *rest[1:]], stdin=fh, capture_output=True, cwd=tmp, env=e, timeout=120))
    if mode == "ULIMIT":
        cmd = f"ulimit {rest[0]} && exec " + " ".join(shlex.quote(a) for a in [*py, *rest[1:]])
        return done(subprocess.run(["bash", "-c", cmd], capture_output=True, cwd=tmp, env=e, timeout=120, stdin=subprocess.DEVNULL))
    if mode == "SIGAT":
        p = subprocess.Popen([*py, *rest[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp, env=e)
        time.sleep(float(rest[0]))
        p.send_signal(signal.SIGINT)
        return finished(p, tmp, Res)
    cache = Path(tempfile.mkdtemp(prefix="cache16-"))
    ce = {**e, "XDG_CACHE_HOME": str(cache)}
    ce.pop("GPUWISE_NO_CACHE", None)
    fresh = subprocess.run([*py, *rest[1:]], capture_output=True, cwd=tmp, env={**e, "GPUWISE_NO_CACHE": "1"}, timeout=120)
    errs = ""
    if mode == "INTCACHE":
        p = subprocess.Popen([*py, *rest[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp, env=ce)
        time.sleep(float(rest[0]))
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=120)
        errs += err.decode(errors="replace")
        runs = [subprocess.run([*py, *rest[1:]], capture_output=True, cwd=tmp, env=ce, timeout=120) for _ in range(2)]
    else:
        assert mode == "CONCACHE", mode
        procs = [subprocess.Popen([*py, *rest[1:]], stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp, env=ce) for _ in range(int(rest[0]))]
        outs = [p.communicate(timeout=300) for p in procs]
        runs = [subprocess.CompletedProcess([], p.returncode, o[0], o[1]) for p, o in zip(procs, outs, strict=True)]
        runs.append(subprocess.run([*py, *rest[1:]], capture_output=True, cwd=tmp, env=ce, timeout=120))
    errs += "".join(r.stderr.decode(errors="replace") for r in runs)
    same = all(r.stdout == fresh.stdout and r.returncode == fresh.returncode for r in runs)
    import difflib
    import shutil
    shutil.rmtree(cache, ignore_errors=True)
    if same:
        return Res(fresh.returncode, "same", errs, tmp)
    bad = next(r for r in runs if r.stdout != fresh.stdout or r.returncode != fresh.returncode)
    diff = list(difflib.unified_diff(fresh.stdout.decode(errors="replace").splitlines(), bad.stdout.decode(errors="replace").splitlines(), lineterm="", n=0))
    return Res(fresh.returncode, "differs", f"differs: rc {fresh.returncode} / {bad.returncode}: " + " | ".join(diff[2:8]) + "\n" + errs, tmp)

