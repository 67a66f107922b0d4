# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round eleven of the hostile corpus (issue 26 item 5): the areas rounds one to ten covered least --
the ``plan`` command's inputs (a team's year: huge or odd workload lists, owned hardware, dates,
solver limits), ``prices import`` CSVs (encodings, byte-order marks, huge cells, formula cells,
duplicate headers), what the HTML and Markdown reports do with markup in input strings, ``explain``,
``ask --answers``, audit batches (mixed members, directories, FIFOs, devices, link loops, 10,000
members), environment oddities, overlays and house rules (nesting, confusable ids, duplicate keys,
alias bombs, Python tags), number forms (NaN, inf, -0, 1e309, hex, octal, underscores) and signals.
Added to benchmarks/hostile_corpus.py's table by :func:`add`; the failures fixed are kept as tests in
tests/test_hostile_eleventh.py."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import givens


def _clean(r) -> bool:
    return "Traceback" not in r.stderr and "internal error" not in r.stderr


def _one(r) -> bool:
    """Clean, and at most one line on stderr (a note or the error)."""
    return _clean(r) and r.stderr.strip("\n").count("\n") == 0


def _refused(r, name: str) -> bool:
    """Refused: the last stderr line is gpuwise's one-line error naming ``name`` (an import that
    kept no row lists the rows it left out above it)."""
    last = r.stderr.strip("\n").rsplit("\n", 1)[-1]
    return last.startswith("gpuwise: ") and name in last


def _file(r, name: str) -> str:
    p = Path(r.cwd, name)
    return p.read_text(encoding="utf-8", errors="replace") if p.is_file() else ""


def _no_markup(name: str, *raw: str):
    """The report ``name`` exists and holds none of the ``raw`` strings (markup from an input file)."""
    return lambda r: _clean(r) and bool(_file(r, name)) and not any(x in _file(r, name) for x in raw)


def _json_ok(r) -> bool:
    try:
        json.loads(r.stdout)
    except ValueError:
        return False
    return _clean(r)


def _no_partial(name: str):
    return lambda r: not Path(r.cwd, name).exists()


SCRIPT = "<script>alert(1)</script>"
IMG = "<img src=x onerror=alert(1)>"
BOMB = ("a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
        "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n")
NEST = "x: " + "{a: " * 200 + "1" + "}" * 200 + "\n"


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, SMI, CUDA_RULE, USED, CSV, patched, smi, wl, prop, plan, REJECT = givens(ns)

    # ------------------------------------------------------------ plan: owned hardware, numbers, dates
    own = {"gpu": "RTX 4090", "count": 8, "hosting": "office", "bought": "2024-03", "paid_usd": 14400}
    for name, over, has in [
        ("plan11: owned count 10**6", {"count": 10**6}, ["count"]),
        ("plan11: owned count true", {"count": True}, ["count"]),
        ("plan11: owned count 8.5", {"count": 8.5}, ["count"]),
        ("plan11: owned gpu ambiguous A100", {"gpu": "A100"}, ["A100"]),
        ("plan11: owned gpu a list", {"gpu": ["RTX 4090"]}, ["gpu"]),
        ("plan11: owned gpu with zero-width space", {"gpu": "RTX\u200b4090"}, ["\\u200b"]),
        ("plan11: owned bought 2026-02-30", {"bought": "2026-02-30"}, ["bought"]),
        ("plan11: owned bought 0000-01", {"bought": "0000-01"}, ["bought"]),
        ("plan11: owned bought 'last year'", {"bought": "last year"}, ["bought"]),
        ("plan11: owned paid .nan", {"paid_usd": float("nan")}, ["paid_usd"]),
        ("plan11: owned paid .inf", {"paid_usd": float("inf")}, ["paid_usd"]),
        ("plan11: owned paid 1e309 text", {"paid_usd": "1e309"}, ["paid_usd"]),
        ("plan11: owned hosting with escape", {"hosting": "office\x1b[2J"}, ["\\x1b"]),
        ("plan11: owned unknown key servres", {"servres": 2}, ["did you mean"]),
    ]:
        case(name, {"plan.yaml": patched("owned", [{**own, **over}], plan)}, ["plan", "plan.yaml"], has=has)
    case("plan11: owned paid -0.0", {"plan.yaml": patched("owned", [{**own, "paid_usd": -0.0}], plan)},
         ["plan", "plan.yaml", "--format", "json"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: owned bought a YAML date", {"plan.yaml": PLAN.replace("bought: 2024-03", "bought: 2024-03-15")},
         ["plan", "plan.yaml", "--format", "json"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: owned count 0x8", {"plan.yaml": PLAN.replace("count: 8", "count: 0x8")}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: _one(r) and (r.returncode == 2 or '"count": 8' in r.stdout))
    case("plan11: owned count 0o10", {"plan.yaml": PLAN.replace("count: 8", "count: 0o10")}, ["plan", "plan.yaml"], has=["count"])
    case("plan11: owned count 0b1000", {"plan.yaml": PLAN.replace("count: 8", "count: 0b1000")}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: _one(r) and (r.returncode == 2 or '"count": 8' in r.stdout))
    case("plan11: owned count 1_0", {"plan.yaml": PLAN.replace("count: 8", "count: 1_0")}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: _one(r) and (r.returncode == 2 or '"count": 10' in r.stdout))
    case("plan11: 2,000 owned entries", {"plan.yaml": patched("owned", [own] * 2000, plan)}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: owned a mapping", {"plan.yaml": patched("owned", own, plan)}, ["plan", "plan.yaml"], has=["owned"])

    # ------------------------------------------------------------ plan: horizon, cadence, workloads
    for name, path, value, has in [
        ("plan11: horizon 1.5", "horizon_months", 1.5, ["horizon_months"]),
        ("plan11: horizon -0.0", "horizon_months", -0.0, ["horizon_months"]),
        ("plan11: horizon '12' text", "horizon_months", "12", None),
        ("plan11: horizon .nan", "horizon_months", float("nan"), ["horizon_months"]),
        ("plan11: constraints budget .nan", "constraints.budget_per_quarter_usd", float("nan"), ["budget_per_quarter_usd"]),
        ("plan11: constraints budget -1", "constraints.budget_per_quarter_usd", -1, ["budget_per_quarter_usd"]),
        ("plan11: constraints electricity .inf", "constraints.electricity_usd_per_kwh", float("inf"), ["electricity_usd_per_kwh"]),
        ("plan11: constraints a list", "constraints", [1], ["constraints"]),
        ("plan11: unknown top key workload", "workload", [], ["did you mean"]),
    ]:
        if has is None:
            case(name, {"plan.yaml": patched(path, value, plan)}, ["plan", "plan.yaml"], expect="any",
                 check=lambda r: r.returncode in (0, 1, 2) and _one(r))
        else:
            case(name, {"plan.yaml": patched(path, value, plan)}, ["plan", "plan.yaml"], has=has)
    for name, text, has in [
        ("plan11: at_month 0", wl(2, cadence={"at_month": 0}), ["at_month"]),
        ("plan11: at_month -1", wl(2, cadence={"at_month": -1}), ["at_month"]),
        ("plan11: at_month 2.5", wl(2, cadence={"at_month": 2.5}), ["at_month"]),
        ("plan11: hours_per_day .nan", wl(1, cadence={"continuous": True, "hours_per_day": float("nan")}), ["hours_per_day"]),
        ("plan11: hours_per_day -0.0", wl(1, cadence={"continuous": True, "hours_per_day": -0.0}), ["hours_per_day"]),
        ("plan11: growth -1", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": -1}), ["growth_per_month"]),
        ("plan11: growth .inf", wl(1, cadence={"continuous": True, "hours_per_day": 24, "growth_per_month": float("inf")}), ["growth_per_month"]),
        ("plan11: continuous 'yes' text", wl(1, cadence={"continuous": "yes", "hours_per_day": 24}), None),
        ("plan11: continuous false alone", wl(1, cadence={"continuous": False}), ["cadence"]),
        ("plan11: cadence empty", wl(0, cadence={}), ["cadence"]),
        ("plan11: cadence a list", wl(0, cadence=[1]), ["cadence"]),
        ("plan11: deadline .inf", wl(0, deadline_days=float("inf")), ["deadline_days"]),
        ("plan11: deadline -0.0", wl(0, deadline_days=-0.0), ["deadline_days"]),
        ("plan11: name empty", wl(0, name=""), ["name"]),
        ("plan11: name a number", wl(0, name=5), None),
        ("plan11: name with newline", wl(0, name="a\nb"), None),
        ("plan11: workload a string", wl(0, workload="llama"), ["workload"]),
        ("plan11: workload model misspelt", wl(0, workload={"task": "finetune", "method": "lora", "model": "llama-3.1-8bb"}), ["did you mean"]),
        ("plan11: targets a list", wl(1, targets=[2]), ["targets"]),
        ("plan11: targets rps .nan", wl(1, targets={"requests_per_s": float("nan")}), ["requests_per_s"]),
    ]:
        if has is None:
            case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
        else:
            case(name, {"plan.yaml": text}, ["plan", "plan.yaml"], has=has)
    d = __import__("copy").deepcopy(plan)
    d["workloads"] = [__import__("copy").deepcopy(dict(d["workloads"][0], name=f"job-{i}")) for i in range(5000)]
    case("plan11: 5,000 workloads", {"plan.yaml": __import__("yaml").safe_dump(d)}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: confusable workload names", {"plan.yaml": wl(1, name="lоra-8b")}, ["plan", "plan.yaml", "--format", "json"],
         expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: alias bomb", {"plan.yaml": BOMB + PLAN}, ["plan", "plan.yaml"], has=["plan.yaml"])
    case("plan11: nested 200 deep", {"plan.yaml": NEST}, ["plan", "plan.yaml"], has=["plan.yaml"])
    case("plan11: python tag", {"plan.yaml": "horizon_months: !!python/object/apply:os.system ['true']\n"}, ["plan", "plan.yaml"], has=["plan.yaml"])
    case("plan11: duplicate key", {"plan.yaml": PLAN + "horizon_months: 6\n"}, ["plan", "plan.yaml"], has=["duplicate"])
    case("plan11: merge key into owned", {"plan.yaml": PLAN.replace("owned:\n  - gpu: RTX 4090", "x: &o {gpu: RTX 4090}\nowned:\n  - <<: *o\n    gpu: RTX 4090")},
         ["plan", "plan.yaml"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    case("plan11: -o html with script in a name", {"plan.yaml": wl(0, name=SCRIPT)}, ["plan", "plan.yaml", "-o", "o.html"],
         expect="any", check=lambda r: (r.returncode == 2 and _no_partial("o.html")(r)) or _no_markup("o.html", SCRIPT)(r))
    case("plan11: -o md with script in a name", {"plan.yaml": wl(0, name=SCRIPT)}, ["plan", "plan.yaml", "-o", "o.md"],
         expect="any", check=lambda r: (r.returncode == 2 and _no_partial("o.md")(r)) or _no_markup("o.md", SCRIPT)(r))
    case("plan11: bad plan leaves no -o file", {"plan.yaml": patched("horizon_months", 0, plan)}, ["plan", "plan.yaml", "-o", "o.json"],
         has=["horizon_months"], check=_no_partial("o.json"))

    # ------------------------------------------------------------ prices import: encodings, cells, headers
    GH = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot\n"
    row = "gpu_1x_h100_sxm5,us-east-1,3.29,26,200,1,H100,80,False\n"
    imp = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    for name, body, check in [
        ("csv11: UTF-8 BOM", ("\ufeff" + CSV).encode(), lambda r: r.returncode == 0 and Path(r.cwd, "ov/clouds.yaml").is_file()),
        ("csv11: UTF-16 LE with BOM", b"\xff\xfe" + CSV.encode("utf-16-le"), lambda r: r.returncode == 0),
        ("csv11: UTF-16 BE with BOM", b"\xfe\xff" + CSV.encode("utf-16-be"), lambda r: r.returncode == 0),
        ("csv11: CR-only line ends", CSV.replace("\n", "\r"), lambda r: r.returncode in (0, 2)),
        ("csv11: gpuhunt row", GH + row, lambda r: r.returncode == 0),
        ("csv11: formula instance name", GH + row.replace("gpu_1x_h100_sxm5", "=cmd|' /C calc'!A0"),
         lambda r: r.returncode in (0, 2) and "=cmd" not in _file(r, "ov/clouds.yaml").replace("'=cmd", "")),
        ("csv11: formula price cell", GH + row.replace("3.29", "=1+2"), lambda r: r.returncode == 2),
        ("csv11: +SUM price cell", GH + row.replace("3.29", "+SUM(A1)"), lambda r: r.returncode == 2),
        ("csv11: @ cell as gpu name", "gpu,gpus,price\n@SUM(1+1),8,20\n", lambda r: r.returncode == 2),
        ("csv11: price 1e309", "gpu,gpus,price\nH100 80GB SXM,8,1e309\n", lambda r: r.returncode == 2),
        ("csv11: price nan", "gpu,gpus,price\nH100 80GB SXM,8,nan\n", lambda r: r.returncode == 2),
        ("csv11: price -0", "gpu,gpus,price\nH100 80GB SXM,8,-0\n", lambda r: r.returncode == 2),
        ("csv11: price 0x10", "gpu,gpus,price\nH100 80GB SXM,8,0x10\n", lambda r: r.returncode == 2),
        ("csv11: gpus 1_000", "gpu,gpus,price\nH100 80GB SXM,1_000,20\n", lambda r: r.returncode in (0, 2)),
        ("csv11: gpus inf", "gpu,gpus,price\nH100 80GB SXM,inf,20\n", lambda r: r.returncode == 2),
        ("csv11: header only", "gpu,gpus,price\n", lambda r: r.returncode == 2),
        ("csv11: duplicate header differing in case", "gpu,GPU,gpus,price\nH100 80GB SXM,x,8,20\n", lambda r: r.returncode in (0, 2)),
        ("csv11: duplicate header with spaces", "gpu, gpu,gpus,price\nH100 80GB SXM,x,8,20\n", lambda r: r.returncode in (0, 2)),
        ("csv11: a 1 MB line without newline", "gpu,gpus,price\n" + "H100," * 200_000, lambda r: r.returncode == 2),
        ("csv11: 10,001 columns", ",".join(f"c{i}" for i in range(10_001)) + "\n", lambda r: r.returncode == 2),
        ("csv11: huge header cell", '"' + "h" * 200_000 + '",gpus,price\n', lambda r: r.returncode == 2),
        ("csv11: cell with escape and bidi", "gpu,gpus,price\nH100\x1b[2J\u202e,8,20\n", lambda r: "\x1b" not in r.stdout + r.stderr and "\u202e" not in r.stdout + r.stderr),
        ("csv11: windows-1252 quotes", "gpu,gpus,price\n\u201cH100\u201d,8,20\n".encode("cp1252"), lambda r: r.returncode == 2),
        ("csv11: quoted cell with newline in gpu", 'gpu,gpus,price\n"H100\n80GB SXM",8,20\n', lambda r: r.returncode in (0, 2)),
        ("csv11: html in gpu name", f"gpu,gpus,price\n{SCRIPT},8,20\n", lambda r: r.returncode == 2),
    ]:
        case(name, {"p.csv": body}, imp, expect="any", check=lambda r, c=check: _clean(r) and c(r) and (r.returncode != 2 or _refused(r, "p.csv")))
    case("csv11: zh: a huge header cell", {"p.csv": '"' + "h" * 200_000 + '",gpus,price\n'}, [*imp, "--lang", "zh"],
         has=["p.csv"], check=lambda r: "field larger" not in r.stderr and "characters" not in r.stderr)
    case("csv11: --as-of 2026-02-30", {"p.csv": CSV}, [*imp, "--as-of", "2026-02-30"], has=["--as-of"])
    case("csv11: --provider confusable", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "lаmbda", "-o", "ov"], has=["provider"])
    case("csv11: a FIFO", {"p.csv": "FIFO"}, imp, has=["p.csv"])
    case("csv11: a link loop", {"p.csv": ("LINK", "p.csv")}, imp, has=["p.csv"])
    case("csv11: a directory", {"p.csv/x": ""}, imp, has=["p.csv"])
    case("csv11: -o is the CSV", {"p.csv": CSV}, ["prices", "import", "p.csv", "--provider", "m", "-o", "p.csv"], has=["p.csv"],
         check=lambda r: Path(r.cwd, "p.csv").read_text() == CSV)

    # ------------------------------------------------------------ reports: markup in input strings
    for fmt in ("html", "md"):
        case(f"out11: proposal title with script -> {fmt}", {"p.yaml": patched("title", SCRIPT, prop)},
             ["audit", "p.yaml", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", SCRIPT))
        case(f"out11: seller product name with img -> {fmt}", smi(SMI.replace("NVIDIA GeForce RTX 3090", "NVIDIA GeForce RTX 3090 " + IMG.replace("<", "&lt;").replace(">", "&gt;"), 1)),
             ["audit", "p.yaml", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", IMG))
        case(f"out11: house rule message with script -> {fmt}", {"r.yaml": LORA, "hr/r.yaml": CUDA_RULE.replace("{gpu_name} is not", SCRIPT + " {gpu_name} is not")},
             ["recommend", "r.yaml", "--rules", "hr", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", SCRIPT))
        case(f"out11: overlay GPU name with markup -> {fmt}", {"r.yaml": LORA, "kb/gpus.yaml": f"gpus:\n  - id: h100-80gb-sxm\n    name: \"H100 {IMG}\"\n"},
             ["recommend", "r.yaml", "--knowledge", "kb", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", IMG))
        case(f"out11: batch member title with script -> {fmt}", {"b/a.yaml": patched("title", SCRIPT, prop), "b/c.yaml": PROP},
             ["audit", "b", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", SCRIPT))
    for fmt in ("html", "md"):  # an instance name as `prices import` writes it from a catalog's cell
        case(f"out11: overlay instance name with markup -> {fmt}",
             {"r.yaml": LORA, "kb/clouds.yaml": "instances:\n  - {id: 'lambda:" + IMG + "', provider: lambda, gpu: h100-80gb-sxm, gpus: 8, usd_per_hour: 0.29, as_of: 2026-11-01, source: a catalog}\n"},
             ["recommend", "r.yaml", "--knowledge", "kb", "-o", f"o.{fmt}"], expect="ok01", check=_no_markup(f"o.{fmt}", IMG))
    case("out11: markdown link in title -> md", {"p.yaml": patched("title", "[click](javascript:alert(1))", prop)},
         ["audit", "p.yaml", "-o", "o.md"], expect="ok01", check=_no_markup("o.md", "[click](javascript:"))
    case("out11: pipe and newline in title -> md", {"p.yaml": patched("title", "a | b\n# heading", prop)},
         ["audit", "p.yaml", "-o", "o.md"], expect="ok01", check=_no_markup("o.md", "\n# heading"))
    case("out11: jinja braces in title stay text", {"p.yaml": patched("title", "{{ 7*7 }} {% if 1 %}x{% endif %}", prop)},
         ["audit", "p.yaml", "-o", "o.html"], expect="ok01", check=lambda r: _clean(r) and "{{ 7*7 }}" in _file(r, "o.html"))
    case("out11: html comment opener in title -> md", {"p.yaml": patched("title", "x <!-- hidden", prop)},
         ["audit", "p.yaml", "-o", "o.md"], expect="ok01", check=_no_markup("o.md", "<!--"))
    case("out11: model name with script in error", {"r.yaml": patched("workload.model", SCRIPT)}, ["recommend", "r.yaml", "-o", "o.html"],
         has=["model"], check=_no_partial("o.html"))

    # ------------------------------------------------------------ explain
    for name, rid, check in [
        ("explain11: lower case id", "mem-fits", lambda r: r.returncode == 0),
        ("explain11: padded id", "  MEM-FITS  ", lambda r: r.returncode == 0),
        ("explain11: id with newline", "MEM\nFITS", lambda r: r.returncode == 2 and "MEM\\nFITS" in r.stderr),
        ("explain11: id with tab", "MEM\tFITS", lambda r: r.returncode == 2 and "\\t" in r.stderr),
        ("explain11: Cyrillic confusable", "МЕМ-FITS", lambda r: r.returncode == 2 and "\\u041c" in r.stderr and "MEM-FITS" in r.stderr),
        ("explain11: fullwidth letters", "ＭＥＭ-FITS", lambda r: r.returncode == 2 and "\\uff2d" in r.stderr),
        ("explain11: RTL override", "MEM\u202e-FITS", lambda r: r.returncode == 2 and "\u202e" not in r.stderr),
        ("explain11: 100k-char id", "X" * 100_000, lambda r: r.returncode == 2 and len(r.stderr) < 2100),
        ("explain11: NUL in id", "MEM\x00FITS", lambda r: r.returncode == 2),
    ]:
        case(name, {}, ["explain", rid], expect="any", check=lambda r, c=check: _one(r) and c(r))
    case("explain11: json is JSON", {}, ["explain", "USED-ECC-OFF", "--format", "json"], expect="ok", check=_json_ok)
    case("explain11: --rules with an alias bomb", {"hr/r.yaml": BOMB}, ["explain", "MEM-FITS", "--rules", "hr"], has=["r.yaml"])
    case("explain11: zh unknown", {}, ["explain", "MEM\nFITS", "--lang", "zh"], expect="any",
         check=lambda r: r.returncode == 2 and _one(r) and "MEM\\nFITS" in r.stderr)

    # ------------------------------------------------------------ ask --answers (a real terminal)
    for name, body in [
        ("ask11: answers python tag", "workload: !!python/object/apply:os.system ['echo PWNED']\n"),
        ("ask11: answers alias bomb", BOMB + "workload: {task: finetune}\n"),
        ("ask11: answers duplicate key", "workload: {task: finetune}\nworkload: {task: inference}\n"),
        ("ask11: answers seq_len .inf", "workload:\n  task: finetune\n  seq_len: .inf\n"),
        ("ask11: answers link loop", ("LINK", "a.yaml")),
    ]:
        case(name, {"a.yaml": body}, ["PTY", "ask", "--answers", "a.yaml"], expect="any", real=True,
             check=lambda r: _clean(r) and r.returncode in (2, 130) and "PWNED" not in r.stdout)
    case("ask11: answers /dev/zero refused at once", {"a.yaml": ("LINK", "/dev/zero")}, ["PTY", "ask", "--answers", "a.yaml"],
         expect="any", real=True, check=lambda r: _clean(r) and r.returncode == 2 and "device" in r.stdout)

    # ------------------------------------------------------------ devices refused before reading
    for name, files, argv, has in [
        ("dev11: proposal /dev/zero", {}, ["audit", "/dev/zero"], ["device"]),
        ("dev11: plan /dev/urandom", {}, ["plan", "/dev/urandom"], ["device"]),
        ("dev11: requirements /dev/null", {}, ["recommend", "/dev/null"], ["/dev/null"]),
        ("dev11: estimate /dev/zero", {}, ["estimate", "/dev/zero"], ["device"]),
    ]:
        case(name, files, argv, has=has)

    # ------------------------------------------------------------ audit batches
    case("batch11: good and bad members", {"b/a.yaml": PROP, "b/z.yaml": "workload: [\n", "b/r.yaml": REJECT},
         ["audit", "b", "--format", "json"], expect="any", check=lambda r: r.returncode == 2 and "z.yaml" in r.stderr and "a.yaml" in r.stdout and _clean(r))
    case("batch11: member a link to /dev/zero", {"b/a.yaml": PROP, "b/d.yaml": ("LINK", "/dev/zero")}, ["audit", "b"], expect="any",
         check=lambda r: r.returncode == 2 and "d.yaml" in r.stderr and _clean(r))
    case("batch11: member a dangling link", {"b/a.yaml": PROP, "b/d.yaml": ("LINK", "nowhere.yaml")}, ["audit", "b"], expect="any",
         check=lambda r: r.returncode == 2 and "d.yaml" in r.stderr and _clean(r))
    case("batch11: member a two-link loop", {"b/a.yaml": PROP, "b/x.yaml": ("LINK", "y.yaml"), "b/y.yaml": ("LINK", "x.yaml")}, ["audit", "b"],
         expect="any", check=lambda r: r.returncode == 2 and "x.yaml" in r.stderr and _clean(r))
    case("batch11: member named with escape", {"b/a.yaml": PROP, "b/\x1b[2J.yaml": "x: [\n"}, ["audit", "b"], expect="any",
         check=lambda r: r.returncode == 2 and "\x1b" not in r.stdout + r.stderr and _clean(r))
    case("batch11: member named with newline", {"b/a.yaml": PROP, "b/x\ny.yaml": "x: [\n"}, ["audit", "b", "--format", "json"], expect="any",
         check=lambda r: r.returncode == 2 and _clean(r))
    case("batch11: upper-case suffix", {"b/A.YAML": PROP}, ["audit", "b"], expect="ok01", check=lambda r: "A.YAML" in r.stdout)
    case("batch11: folder and its member", {"b/a.yaml": PROP}, ["audit", "b", "b/a.yaml"], expect="any",
         check=lambda r: r.returncode in (0, 1) and _clean(r))
    case("batch11: hardlinked members", {"b/a.yaml": PROP, "b/c.yaml": ("HARD", "b/a.yaml")}, ["audit", "b"], expect="ok01", check=_clean)
    case("batch11: a rejected member keeps 1", {"b/a.yaml": PROP, "b/r.yaml": REJECT}, ["audit", "b"], expect="any",
         check=lambda r: r.returncode == 1 and _clean(r))
    many = {f"b/m{i:05d}.yaml": "workload: [\n" for i in range(10_000)}
    case("batch11: 10,000 broken members", {**many, "b/a.yaml": PROP}, ["audit", "b", "--format", "json"], expect="any",
         check=lambda r: r.returncode == 2 and _clean(r))
    case("batch11: 300 identical members", {f"b/m{i:03d}.yaml": PROP for i in range(300)}, ["audit", "b", "--format", "json"],
         expect="ok01", check=_clean)
    case("batch11: -o html with a bad member leaves the report", {"b/a.yaml": PROP, "b/z.yaml": "x: [\n"}, ["audit", "b", "-o", "o.html"],
         expect="any", check=lambda r: r.returncode == 2 and _clean(r))

    # ------------------------------------------------------------ environment
    for name, env, argv, check in [
        ("env11: HOME unset", {"HOME": None, "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml"], None),
        ("env11: XDG_CACHE_HOME relative", {"XDG_CACHE_HOME": "cache", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml"], None),
        ("env11: XDG_CACHE_HOME with newline", {"XDG_CACHE_HOME": "{tmp}/a\nb", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml"], None),
        ("env11: XDG_CACHE_HOME 5000 chars", {"XDG_CACHE_HOME": "/tmp/" + "x" * 5000, "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml"], None),
        ("env11: COLUMNS=-5", {"COLUMNS": "-5"}, ["recommend", "r.yaml"], None),
        ("env11: COLUMNS=abc", {"COLUMNS": "abc"}, ["plan", "plan.yaml"], None),
        ("env11: FORCE_COLOR piped", {"FORCE_COLOR": "1", "CLICOLOR_FORCE": "1"}, ["audit", "p.yaml"], lambda r: "\x1b" not in r.stdout),
        ("env11: TZ 12 h behind, import today", {"TZ": "Etc/GMT+12"}, ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"], None),
        ("env11: TZ 14 h ahead, plan", {"TZ": "Pacific/Kiritimati"}, ["plan", "plan.yaml"], None),
        ("env11: GPUWISE_DEBUG=1 bad input", {"GPUWISE_DEBUG": "1"}, ["recommend", "nosuch.yaml"], lambda r: r.returncode == 2),
        ("env11: LC_ALL=C zh rules", {"LC_ALL": "C", "LANG": "C"}, ["rules", "--lang", "zh"], None),
        ("env11: PYTHONIOENCODING=ascii explain confusable", {"PYTHONIOENCODING": "ascii"}, ["explain", "МЕМ-FITS"], lambda r: r.returncode == 2),
    ]:
        files = {"r.yaml": LORA, "plan.yaml": PLAN, "p.yaml": PROP, "p.csv": CSV}
        case(name, files, argv, expect="any", real=True, env=env,
             check=lambda r, c=check: _clean(r) and r.returncode in (0, 1, 2) and (c is None or c(r)))

    # ------------------------------------------------------------ house rules and overlays
    for name, body, has in [
        ("hr11: duplicate rule id in one file", CUDA_RULE + CUDA_RULE.split("rules:\n", 1)[1], ["HOUSE-CUDA-ONLY"]),
        ("hr11: Cyrillic confusable id", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "HOUSE-CUDА-ONLY"), ["id"]),
        ("hr11: id with zero-width space", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "HOUSE-CUDA\u200b-ONLY"), ["\\u200b"]),
        ("hr11: alias bomb", BOMB, ["r.yaml"]),
        ("hr11: nested 200 deep", NEST, ["r.yaml"]),
        ("hr11: python tag", "rules: !!python/object/apply:os.system ['true']\n", ["r.yaml"]),
        ("hr11: python name tag", "rules:\n  - !!python/name:os.system\n", ["r.yaml"]),
        ("hr11: duplicate key", CUDA_RULE.replace("    title:", "    title: x\n    title:", 1), ["duplicate"]),
        ("hr11: value .nan", CUDA_RULE.replace('[cuda_device, "==", false]', '[count, ">", .nan]'), ["r.yaml"]),
        ("hr11: value .inf", CUDA_RULE.replace('[cuda_device, "==", false]', '[count, ">", .inf]'), ["r.yaml"]),
        ("hr11: value 1e309", CUDA_RULE.replace('[cuda_device, "==", false]', '[count, ">", 1e309]'), ["r.yaml"]),
        ("hr11: binary tag", CUDA_RULE.replace('[cuda_device, "==", false]', '[count, ">", !!binary aGVsbG8=]'), ["r.yaml"]),
    ]:
        case(name, {"r.yaml": LORA, "hr/r.yaml": body}, ["recommend", "r.yaml", "--rules", "hr"], has=has)
    for name, body in [("hr11: value 0x10", '[count, ">", 0x10]'), ("hr11: value 1_000", '[count, ">", 1_000]'),
                       ("hr11: value -0.0", '[count, ">", -0.0]'), ("hr11: value 0b11", '[count, ">", 0b11]')]:
        case(name, {"r.yaml": LORA, "hr/r.yaml": CUDA_RULE.replace('[cuda_device, "==", false]', body)},
             ["recommend", "r.yaml", "--rules", "hr", "--format", "json"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    for name, fname, body, has in [
        ("kb11: alias bomb", "policy.yaml", BOMB, ["policy.yaml"]),
        ("kb11: nested 200 deep", "gpus.yaml", NEST, ["gpus.yaml"]),
        ("kb11: python tag", "models.yaml", "models: !!python/object/new:os.system ['true']\n", ["models.yaml"]),
        ("kb11: duplicate key", "policy.yaml", "memory_headroom_fraction: 0.1\nmemory_headroom_fraction: 0.2\n", ["duplicate"]),
        ("kb11: policy .nan", "policy.yaml", "memory_headroom_fraction: .nan\n", ["memory_headroom_fraction"]),
        ("kb11: policy -.inf", "policy.yaml", "memory_headroom_fraction: -.inf\n", ["memory_headroom_fraction"]),
        ("kb11: policy 1e309", "policy.yaml", "memory_headroom_fraction: 1e309\n", ["memory_headroom_fraction"]),
        ("kb11: policy 0x10", "policy.yaml", "memory_headroom_fraction: 0x10\n", ["memory_headroom_fraction"]),
        ("kb11: gpus confusable id patch", "gpus.yaml", "gpus:\n  - id: rtx-4О90\n    memory: {gb: 48}\n", []),
        ("kb11: gpus id fullwidth", "gpus.yaml", "gpus:\n  - id: ｒｔｘ-4090\n    memory: {gb: 48}\n", []),
        ("kb11: models id with NUL escape", "models.yaml", "models:\n  - id: \"llama\\0\"\n", []),
    ]:
        files = {"r.yaml": LORA, f"kb/{fname}": body}
        case(name, files, ["recommend", "r.yaml", "--knowledge", "kb"], has=has)
    case("kb11: policy -0.0 headroom", {"r.yaml": LORA, "kb/policy.yaml": "memory_headroom_fraction: -0.0\n"},
         ["recommend", "r.yaml", "--knowledge", "kb", "--format", "json"], expect="any", check=lambda r: r.returncode in (0, 1, 2) and _one(r))

    # ------------------------------------------------------------ numbers in requirements and proposals
    for name, path, value, has in [
        ("num11: params_b -.inf", "workload.params_b", float("-inf"), ["params_b"]),
        ("num11: params_b -0.0", "workload.params_b", -0.0, ["params_b"]),
        ("num11: params_b 1e309 text", "workload.params_b", "1e309", ["params_b"]),
        ("num11: electricity .nan", "constraints.electricity_usd_per_kwh", float("nan"), ["electricity_usd_per_kwh"]),
        ("num11: project_months -0.0", "constraints.project_months", -0.0, ["project_months"]),
        ("num11: max_gpus 1e309", "constraints.max_gpus", float("inf"), ["max_gpus"]),
    ]:
        case(name, {"r.yaml": patched(path, value)}, ["recommend", "r.yaml"], has=has)
    for name, raw in [("num11: seq_len 0b1000000000000", "seq_len: 0b1000000000000"), ("num11: seq_len 0x1000", "seq_len: 0x1000"),
                      ("num11: seq_len 4_0_9_6", "seq_len: 4_0_9_6"), ("num11: seq_len '4096'", "seq_len: '4096'")]:
        text = LORA.replace("seq_len: 4096", raw) if "seq_len: 4096" in LORA else LORA.replace("workload:\n", f"workload:\n  {raw}\n", 1)
        case(name, {"r.yaml": text}, ["recommend", "r.yaml", "--format", "json"], expect="any",
             check=lambda r: r.returncode in (0, 1, 2) and _one(r))
    for name, path, value, has in [
        ("num11: prop hourly .nan", "acquisition.hourly_usd", float("nan"), ["hourly_usd"]),
        ("num11: prop hourly -0.0", "acquisition.hourly_usd", -0.0, ["hourly_usd"]),
        ("num11: prop host_ram .inf", "hardware.host_ram_gb", float("inf"), ["host_ram_gb"]),
        ("num11: prop egress .nan", "cloud.egress_tb_per_month", float("nan"), ["egress_tb_per_month"]),
    ]:
        case(name, {"p.yaml": patched(path, value, prop)}, ["audit", "p.yaml"], has=has)
    case("num11: --fx-rate -0", {"r.yaml": LORA}, ["recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "-0"], has=["--fx-rate"])
    case("num11: --gpus 0x8", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "0x8"], has=["--gpus"])
    case("num11: --gpus ８ (fullwidth)", {"r.yaml": LORA}, ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "８", "--format", "json"],
         expect="any", check=lambda r: _one(r) and (r.returncode == 2 or '"count": 8' in r.stdout))

    # ------------------------------------------------------------ signals and pipes
    case("signal11: SIGINT during batch keeps old output", {"b/a.yaml": PROP, "b/c.yaml": REJECT, "o.md": "OLD\n"},
         ["SIGINT", "audit", "b", "-o", "o.md"], expect="any", real=True,
         check=lambda r: _clean(r) and (r.returncode in (0, 1) or (r.returncode == 130 and _file(r, "o.md") == "OLD\n")))
    case("signal11: SIGHUP during recommend keeps old output", {"r.yaml": LORA, "o.html": "OLD\n"},
         ["SIGHUP", "recommend", "r.yaml", "-o", "o.html"], expect="any", real=True,
         check=lambda r: "Traceback" not in r.stderr and (r.returncode in (0, 1) or _file(r, "o.html") == "OLD\n"))
    case("signal11: SIGTERM during plan keeps old output", {"plan.yaml": PLAN, "o.json": "OLD\n"},
         ["SIGTERM", "plan", "plan.yaml", "-o", "o.json"], expect="any", real=True,
         check=lambda r: "Traceback" not in r.stderr and (r.returncode in (0, 1) or _file(r, "o.json") == "OLD\n"))
    case("signal11: SIGINT during explain", {}, ["SIGINT", "explain", "MEM-FITS"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode in (0, 130))
    case("pipe11: rejected batch | head keeps 1", {"b/a.yaml": PROP, "b/r.yaml": REJECT}, ["PIPE", "audit", "b"], expect="any", real=True,
         check=lambda r: r.returncode == 1 and _clean(r))
    case("pipe11: closed stdout on plan", {"plan.yaml": PLAN}, ["CLOSED", "plan", "plan.yaml"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode == 2 and "standard output is closed" in r.stderr)  # round 12: the lost report said
    case("pipe11: closed stdout on explain", {}, ["CLOSED", "explain", "MEM-FITS"], expect="any", real=True,
         check=lambda r: _clean(r) and r.returncode == 0)
    case("pipe11: used-card audit | head keeps the verdict", {"p.yaml": USED, "r.xml": SMI}, ["PIPE", "audit", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1) and _clean(r))
