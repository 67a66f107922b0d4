# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round eighteen of the hostile corpus (issue 26 items 5 and 6): neighbours of the kinds rounds one
to seventeen tried -- numbers a house rule or overlay spells as no earlier round did (``0X10``,
``+0x10``, ``1__0``, ``-.inf``, ``1e999``, ``1e-400``, Arabic-Indic and superscript digits, YAML
1.1's ``yes``/``on``/``no`` where a number or text goes, ``!!float``/``!!str``/``!!int`` tags, an
anchor shared by two keys, a merge key at the top of ``policy.yaml``, a rule listed twice through an
alias, a key that is a mapping); a seller's report with an external entity reading
``/etc/passwd``, a parameter entity, a processing instruction, a memory temperature written
``nan C``, ``-0 C``, ``١٠٨ C``, ``108\u00a0C`` or ``108°C``, the card's report named
``/proc/self/environ``, ``/dev/stdin`` or a folder link; ``-o`` onto a house rule or an overlay
file through a link, onto a batch member, through ``..``, onto a FIFO with no reader, under a file;
a closing reader on a rejected audit in every format; batches naming one member twice or a folder
holding a link to itself; and the environment: ``PYTHONWARNINGS=error``, ``PYTHONOPTIMIZE=2``,
``NO_COLOR``, ``TERM=dumb``, a Turkish locale, ``HOME`` unwritable, ``XDG_CACHE_HOME`` relative
or unwritable, ``PYTHONIOENCODING=ascii`` with a Chinese report.  Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 27401d93 (before any change): 120 cases, 120 clean. One case was first written
expecting ``memory_headroom_fraction: !!str 0.1`` to be refused; it is read as the quoted
``"0.1"`` is, on purpose (gpuwise.inputs.notation: numbers in overlays are taken written bare or in
quotes), so the case now expects it answered. ``-o`` onto a FIFO no process reads is refused after
its 5 s wait (the slowest case, 6 s).

Probes beside the table (timed, not cases: CPU time is too noisy a verdict on a shared machine)
found two slow paths in reports under the 4 MB cap, fixed with tests in
tests/test_hostile_eighteenth.py: one 3.8 MB comment, processing instruction or attribute was fed
to expat in 245 reads and rescanned on each (0.58 CPU-s a report, 50 s wall for a batch of 30 such
cards; now 5 reads, 0.07 CPU-s), and a 3.8 MB VBIOS version made a text audit take 14.5 CPU-s in
narrowing its table a column a step and cutting the word (now 1.0 CPU-s, the same report). Memory
stayed bounded throughout (90 MB peak for the batch of 30 reports of 3.8 MB). The hypothesis tests of
tests/test_hostile_inputs.py and tests/test_hostile_plan_inputs.py, run with 500 examples (seeds
1, 2) and 1,000 (seeds 3, 4) instead of 80 and 40, found nothing."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused
from benchmarks.hostile_round13 import _finds
from benchmarks.hostile_round14 import _file, _kept

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "nvidia_smi"
HOT = (DATA / "derived_rtx-3080-v13_as-3090-hot-gddr6x.xml").read_text()
HOT_RULE = "USED-MEMORY-JUNCTION-HOT"
DOCTYPE = '<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v13.dtd">'


def _no_secret(r) -> bool:
    """Answered or refused in one line, and nothing of the machine's files or environment echoed."""
    return _any(r) and "root:" not in r.stdout + r.stderr and "PATH=" not in r.stdout + r.stderr


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, _plan_text, _smi_text, CUDA_RULE, USED, _csv, _patched, _smi, _wl, _prop, _plan, REJECT = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]
    cond = '[cuda_device, "==", false]'

    # ------------------------------------------------------------ house rules: numbers and YAML no round spelt
    hr = ["recommend", "r.yaml", "--rules", "h", "--format", "json"]
    for name, body, check in [
        ("hr18: count > 0X10 (upper-case hex)", CUDA_RULE.replace(cond, '[count, ">", 0X10]'), _refused("h/a.yaml")),
        ("hr18: count > -0b1", CUDA_RULE.replace(cond, '[count, ">", -0b1]'), _refused("h/a.yaml")),
        ("hr18: count > 1__0", CUDA_RULE.replace(cond, '[count, ">", 1__0]'), _refused("h/a.yaml")),
        ("hr18: need_gb > 1_0.5", CUDA_RULE.replace(cond, '[need_gb, ">", 1_0.5]'), _refused("h/a.yaml")),
        ("hr18: need_gb > -.inf", CUDA_RULE.replace(cond, '[need_gb, ">", -.inf]'), _refused("h/a.yaml", "finite")),
        ("hr18: need_gb > 1e999 (overflows to inf)", CUDA_RULE.replace(cond, '[need_gb, ">", 1e999]'), _refused("h/a.yaml")),
        ("hr18: need_gb > 1e-400 (underflows to 0)", CUDA_RULE.replace(cond, '[need_gb, ">", 1e-400]'), _any),
        ("hr18: need_gb > -0.0", CUDA_RULE.replace(cond, '[need_gb, ">", -0.0]'), _ok),
        ("hr18: count > ١٠ (Arabic-Indic digits)", CUDA_RULE.replace(cond, '[count, ">", ١٠]'), _refused("h/a.yaml")),
        ("hr18: count > ² (a superscript)", CUDA_RULE.replace(cond, '[count, ">", ²]'), _refused("h/a.yaml")),
        ("hr18: count > Ⅹ (a Roman numeral)", CUDA_RULE.replace(cond, '[count, ">", Ⅹ]'), _refused("h/a.yaml")),
        ("hr18: count > 1,000", CUDA_RULE.replace(cond, '[count, ">", "1,000"]'), _refused("h/a.yaml")),
        ("hr18: count > yes (YAML 1.1 true)", CUDA_RULE.replace(cond, '[count, ">", yes]'), _refused("h/a.yaml")),
        ("hr18: cuda_device == on", CUDA_RULE.replace(cond, '[cuda_device, "==", on]'), _any),
        ("hr18: cuda_device == 0", CUDA_RULE.replace(cond, '[cuda_device, "==", 0]'), _refused("h/a.yaml")),
        ("hr18: gpu_name == no (Norway)", CUDA_RULE.replace(cond, '[gpu_name, "==", no]'), _any),
        ("hr18: need_gb > !!float 1e-7", CUDA_RULE.replace(cond, '[need_gb, ">", !!float 1e-7]'), _ok),
        ("hr18: need_gb > !!str 12", CUDA_RULE.replace(cond, '[need_gb, ">", !!str 12]'), _refused("h/a.yaml")),
        ("hr18: count > !!int '0x10'", CUDA_RULE.replace(cond, "[count, \">\", !!int '0x10']"), _refused("h/a.yaml")),
        ("hr18: need_gb > !!binary aGVsbG8=", CUDA_RULE.replace(cond, '[need_gb, ">", !!binary aGVsbG8=]'), _refused("h/a.yaml")),
        ("hr18: need_gb > !!timestamp 2026-01-01", CUDA_RULE.replace(cond, '[need_gb, ">", !!timestamp 2026-01-01]'), _refused("h/a.yaml")),
        ("hr18: a !!set as the 'in' list", CUDA_RULE.replace(cond, '[gpu_name, in, !!set {a, b}]'), _refused("h/a.yaml")),
        ("hr18: an !!omap as then", CUDA_RULE.replace("    then:\n", "    then: !!omap\n", 1), _refused("h/a.yaml")),
        ("hr18: a local tag !x on a value", CUDA_RULE.replace(cond, '[count, ">", !x 3]'), _refused("h/a.yaml")),
        ("hr18: !!python/object/apply:os.system as a value", CUDA_RULE.replace(cond, '[count, ">", !!python/object/apply:os.system ["touch PWNED"]]'), lambda r: _refused("h/a.yaml")(r) and not Path(r.cwd, "PWNED").exists()),
        ("hr18: !!python/name:os.system as the fact", CUDA_RULE.replace("fact: candidate", "fact: !!python/name:os.system"), _refused("h/a.yaml")),
        ("hr18: the rule listed twice through an alias", CUDA_RULE.replace("  - id: HOUSE-CUDA-ONLY", "  - &r\n    id: HOUSE-CUDA-ONLY").replace("    source: \"Team", "    source: \"Team") + "  - *r\n", _refused("h/a.yaml", "HOUSE-CUDA-ONLY")),
        ("hr18: a merge key building then", CUDA_RULE.replace("    then:\n", "    then:\n      <<: {severity: blocker}\n", 1), _any),
        ("hr18: a merge key of a scalar", CUDA_RULE.replace("    then:\n", "    then:\n      <<: 5\n", 1), _refused("h/a.yaml")),
        ("hr18: 'id' twice in one rule", CUDA_RULE.replace("    title:", "    id: OTHER\n    title:", 1), _refused("h/a.yaml", "duplicate key")),
        ("hr18: a key that is a mapping", CUDA_RULE + "? {a: 1}\n: x\n", _refused("h/a.yaml")),
        ("hr18: an id with a right-to-left override", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "HOUSE-\u202eYLNO"), _no_raw("\u202e")),
        ("hr18: a message with ESC in a double-quoted escape", CUDA_RULE.replace('message: "{gpu_name}', 'message: "\\e[31m{gpu_name}'), _no_raw("\x1b")),
        ("hr18: a 10,000-character id", CUDA_RULE.replace("HOUSE-CUDA-ONLY", "H" * 10000), lambda r: _refused("h/a.yaml")(r) and len(r.stderr) < 2000),
        ("hr18: schema_version: 1.0", CUDA_RULE.replace("schema_version: 1", "schema_version: 1.0"), _any),
        ("hr18: schema_version: 2", CUDA_RULE.replace("schema_version: 1", "schema_version: 2"), _refused("h/a.yaml", "schema_version")),
    ]:
        case(name, {"r.yaml": LORA, "h/a.yaml": body}, hr, expect="any", check=check)

    # ------------------------------------------------------------ policy overlays
    for name, body, check in [
        ("kb18: datacenter_min_gpus: 1_000", "datacenter_min_gpus: 1_000\n", _refused("k/policy.yaml", "datacenter_min_gpus")),
        ("kb18: datacenter_min_gpus: 0X8", "datacenter_min_gpus: 0X8\n", _refused("k/policy.yaml", "datacenter_min_gpus")),
        ("kb18: datacenter_min_gpus: ٨", "datacenter_min_gpus: ٨\n", _refused("k/policy.yaml", "datacenter_min_gpus")),
        ("kb18: datacenter_min_gpus: yes", "datacenter_min_gpus: yes\n", _refused("k/policy.yaml", "datacenter_min_gpus")),
        ("kb18: memory_headroom_fraction: -.inf", "memory_headroom_fraction: -.inf\n", _refused("k/policy.yaml", "memory_headroom_fraction")),
        ("kb18: memory_headroom_fraction: 1e999", "memory_headroom_fraction: 1e999\n", _refused("k/policy.yaml", "memory_headroom_fraction")),
        ("kb18: memory_headroom_fraction: -0", "memory_headroom_fraction: -0\n", _any),
        ("kb18: memory_headroom_fraction: !!float '0.1'", "memory_headroom_fraction: !!float '0.1'\n", _ok),
        ("kb18: memory_headroom_fraction: !!str 0.1 (read as a quoted number is)", "memory_headroom_fraction: !!str 0.1\n", _ok),
        ("kb18: an anchor shared by two keys", "memory_headroom_fraction: &f 0.1\nscaling_efficiency_blocker: *f\n", _any),
        ("kb18: a merge key at the top", "<<: {memory_headroom_fraction: 0.1}\n", _any),
        ("kb18: a merge key and the same key again", "<<: {memory_headroom_fraction: 0.1}\nmemory_headroom_fraction: 0.2\n", _any),
        ("kb18: an alias bomb", "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8)), _refused("k/policy.yaml")),
        ("kb18: !!python/object/new:os.system", "memory_headroom_fraction: !!python/object/new:os.system [touch PWNED]\n", lambda r: _refused("k/policy.yaml")(r) and not Path(r.cwd, "PWNED").exists()),
        ("kb18: policy.yaml a list", "- memory_headroom_fraction: 0.1\n", _refused("k/policy.yaml")),
        ("kb18: a policy key misspelt", "memory_headroom_fractoin: 0.1\n", _refused("k/policy.yaml", "memory_headroom_fraction")),
    ]:
        case(name, {"r.yaml": LORA, "k/policy.yaml": body}, [*rec, "--knowledge", "k"], expect="any", check=check)

    # ------------------------------------------------------------ a seller's report: entities, odd temperatures, odd paths
    head = '<?xml version="1.0" ?>\n'
    body = HOT[HOT.index("<nvidia_smi_log>"):]
    for name, text, check in [
        ("smi18: an external entity reading /etc/passwd", head + '<!DOCTYPE nvidia_smi_log [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n' + body.replace("<product_brand>", "<product_brand>&x;", 1), lambda r: _refused("r.xml")(r) and _no_secret(r)),
        ("smi18: a parameter entity fetching a URL", head + '<!DOCTYPE nvidia_smi_log [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>\n' + body, _refused("r.xml")),
        ("smi18: billion laughs in XML", head + '<!DOCTYPE nvidia_smi_log [<!ENTITY a "aaaaaaaaaa">' + "".join(f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">' for i in range(8)) + "]>\n" + body.replace("<product_brand>", "<product_brand>&i;", 1), _refused("r.xml")),
        ("smi18: an undeclared entity &x;", head + DOCTYPE + "\n" + body.replace("<product_brand>", "<product_brand>&x;", 1), _refused("r.xml")),
        ("smi18: an xml-stylesheet processing instruction", head + '<?xml-stylesheet href="http://x/s.xsl"?>\n' + DOCTYPE + "\n" + body, lambda r: _finds(HOT_RULE, True)(r)),
        ("smi18: XInclude of /etc/passwd", head + DOCTYPE + "\n" + body.replace("<product_brand>", '<product_brand><xi:include xmlns:xi="http://www.w3.org/2001/XInclude" href="/etc/passwd" parse="text"/>', 1), _no_secret),
        ("smi18: memory_temp 'nan C'", HOT.replace("<memory_temp>108 C", "<memory_temp>nan C"), _any),
        ("smi18: memory_temp '-0 C'", HOT.replace("<memory_temp>108 C", "<memory_temp>-0 C"), _finds(HOT_RULE, False)),
        ("smi18: memory_temp '1e3 C'", HOT.replace("<memory_temp>108 C", "<memory_temp>1e3 C"), _any),
        ("smi18: memory_temp '١٠٨ C' (Arabic-Indic)", HOT.replace("<memory_temp>108 C", "<memory_temp>١٠٨ C"), _any),
        ("smi18: memory_temp '108\\u00a0C' (no-break space)", HOT.replace("<memory_temp>108 C", "<memory_temp>108\u00a0C"), _any),
        ("smi18: memory_temp '108°C'", HOT.replace("<memory_temp>108 C", "<memory_temp>108°C"), _any),
        ("smi18: memory_temp '0x6C C'", HOT.replace("<memory_temp>108 C", "<memory_temp>0x6C C"), _any),
        ("smi18: memory_temp given twice (98 C then 108 C)", HOT.replace("<memory_temp>108 C</memory_temp>", "<memory_temp>98 C</memory_temp><memory_temp>108 C</memory_temp>"), _any),
        ("smi18: attached_gpus 99999999999999999999", HOT.replace("<attached_gpus>1<", "<attached_gpus>99999999999999999999<"), _any),
        ("smi18: a 1 MB attribute", HOT.replace("<gpu id=", "<gpu x=\"" + "a" * 2**20 + "\" id=", 1), _any),
        ("smi18: elements nested 20,000 deep", HOT.replace("<product_brand>", "<a>" * 20000 + "</a>" * 20000 + "<product_brand>", 1), _any),
        ("smi18: 200,000 empty elements (under the size cap)", HOT.replace("<product_brand>", "<x/>" * 200000 + "<product_brand>", 1), _any),
        ("smi18: CSV --query-gpu, noheader", "NVIDIA GeForce RTX 3090, 74, 108\n", _refused("r.xml")),
        ("smi18: CSV --query-gpu, headers with units", "name, temperature.gpu [C], temperature.memory [C]\nNVIDIA GeForce RTX 3090, 74 C, 108 C\n", _refused("r.xml")),
        ("smi18: a CSV whose header has a BOM and quotes", '\ufeff"name","memory.total [MiB]"\n"NVIDIA GeForce RTX 3090","24576 MiB"\n', _refused("r.xml")),
        ("smi18: UTF-8 declared, UTF-16 bytes inside a value", HOT.replace("<serial>", "<serial>\udcff", 1).encode("utf-8", "surrogateescape"), _any),
    ]:
        case(name, {"p.yaml": USED, "r.xml": text}, aud, expect="any", check=check)
    for name, report, files, check in [
        ("smi18: the report /proc/self/environ", "/proc/self/environ", {}, lambda r: _refused()(r) and _no_secret(r)),
        ("smi18: the report /dev/stdin", "/dev/stdin", {}, _refused()),
        ("smi18: the report /etc/shadow (unreadable)", "/etc/shadow", {}, lambda r: _refused()(r) and _no_secret(r)),
        ("smi18: the report a link to a folder", "r.xml", {"d/.keep": "", "r.xml": ("LINK", "d")}, _refused("r.xml")),
        ("smi18: the report a link to /dev/urandom", "r.xml", {"r.xml": ("LINK", "/dev/urandom")}, _refused("r.xml")),
        ("smi18: the report a link to itself", "r.xml", {"r.xml": ("LINK", "r.xml")}, _refused("r.xml")),
        ("smi18: the report an http URL", "http://127.0.0.1:9/r.xml", {}, _refused()),
        ("smi18: the report's name with a NUL", '"r.xml\\0.txt"', {"r.xml": HOT}, _refused()),
        ("smi18: the report's name 5,000 characters long", "x" * 5000 + ".xml", {}, lambda r: _refused()(r) and len(r.stderr) < 2000),
        ("smi18: the report the proposal itself", "p.yaml", {}, _refused("p.yaml")),
    ]:
        case(name, {"p.yaml": USED.replace("nvidia_smi: r.xml", f"nvidia_smi: {report}"), **files}, aud, expect="any", check=check)

    # ------------------------------------------------------------ output paths
    for name, files, argv, check in [
        ("out18: -o onto the house rule file through a link", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE, "o.md": ("LINK", "h/a.yaml")}, ["recommend", "r.yaml", "--rules", "h", "-o", "o.md"], lambda r: _kept("h/a.yaml", CUDA_RULE)(r) and r.returncode == 2),
        ("out18: -o onto an overlay's policy.yaml through a hard link", {"r.yaml": LORA, "k/policy.yaml": "memory_headroom_fraction: 0.1\n", "o.md": ("HARD", "k/policy.yaml")}, ["recommend", "r.yaml", "--knowledge", "k", "-o", "o.md"], lambda r: _kept("k/policy.yaml", "memory_headroom_fraction: 0.1\n")(r) and r.returncode == 2),
        ("out18: -o onto the requirements spelt d/../r.yaml", {"r.yaml": LORA, "d/.keep": ""}, ["recommend", "r.yaml", "-o", "d/../r.yaml"], lambda r: _kept("r.yaml", LORA)(r) and r.returncode == 2),
        ("out18: -o onto the requirements spelt by absolute path", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "{tmp}/r.yaml"], lambda r: _kept("r.yaml", LORA)(r) and r.returncode == 2),
        ("out18: -o onto a batch member", {"b/a.yaml": PROP, "b/c.yaml": REJECT}, ["audit", "b", "-o", "b/a.yaml"], lambda r: _kept("b/a.yaml", PROP)(r) and r.returncode == 2),
        ("out18: -o into the batch folder as a new .yaml", {"b/a.yaml": PROP}, ["audit", "b", "-o", "b/out.yaml", "--format", "json"], _any),
        ("out18: -o under a file (r.yaml/o.md)", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "r.yaml/o.md"], lambda r: _kept("r.yaml", LORA)(r) and r.returncode == 2),
        ("out18: -o onto a Unix socket", {"r.yaml": LORA, "s.md": "SOCKET"}, ["recommend", "r.yaml", "-o", "s.md"], lambda r: r.returncode == 2 and _one(r)),
        ("out18: -o onto the seller's report spelt ./r.xml", {"p.yaml": USED, "r.xml": HOT}, ["audit", "p.yaml", "-o", "./r.xml", "--format", "json"], lambda r: _kept("r.xml", HOT)(r) and r.returncode == 2),
    ]:
        case(name, files, argv, expect="any", check=check, real="{tmp}" in " ".join(argv))
    case("out18: -o onto a FIFO with no reader (no hang)", {"r.yaml": LORA, "f.md": "FIFO"}, ["recommend", "r.yaml", "-o", "f.md"], expect="any", real=True,
         check=lambda r: r.returncode == 2 and _one(r))

    # ------------------------------------------------------------ a closing reader, signals
    for fmt in ("text", "md", "html", "json"):
        case(f"pipe18: rejected audit --format {fmt} | head -c1 keeps 1", {"p.yaml": REJECT}, ["PIPE", "audit", "p.yaml", "--format", fmt], expect="any", real=True,
             check=lambda r: r.returncode == 1 and _clean(r))
    case("pipe18: --detail full recommend | head -c1 keeps 0", {"r.yaml": LORA}, ["PIPE", "recommend", "r.yaml", "--detail", "full"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1) and _clean(r))
    case("signal18: SIGTERM during audit with a seller's report keeps the old output", {"p.yaml": USED, "r.xml": HOT, "o.json": "OLD\n"},
         ["SIGTERM", "audit", "p.yaml", "-o", "o.json"], expect="any", real=True,
         check=lambda r: _clean(r) and (r.returncode in (0, 1) or (r.returncode in (130, 143) and _file(r, "o.json") == "OLD\n")))
    case("signal18: SIGINT during a house-rule recommend keeps the old output", {"r.yaml": LORA, "h/a.yaml": CUDA_RULE, "o.md": "OLD\n"},
         ["SIGINT", "recommend", "r.yaml", "--rules", "h", "-o", "o.md"], expect="any", real=True,
         check=lambda r: _clean(r) and ((r.returncode == 130 and _file(r, "o.md") == "OLD\n") or (r.returncode in (0, 1) and _file(r, "o.md").startswith("#"))))

    # ------------------------------------------------------------ batches
    for name, files, argv, check in [
        ("batch18: one member named twice", {"b/a.yaml": PROP}, ["audit", "b/a.yaml", "b/a.yaml", "--format", "json"], _any),
        ("batch18: a member and its folder", {"b/a.yaml": PROP}, ["audit", "b", "b/a.yaml", "--format", "json"], _any),
        ("batch18: a folder holding a link to itself named x.yaml", {"b/a.yaml": PROP, "b/x.yaml": ("LINK", ".")}, ["audit", "b", "--format", "json"], _any),
        ("batch18: a member that is a link loop", {"b/a.yaml": PROP, "b/x.yaml": ("LINK", "x.yaml")}, ["audit", "b", "--format", "json"], lambda r: r.returncode == 2 and _one(r) and "x.yaml" in r.stderr),
        ("batch18: a member linking to /dev/zero", {"b/a.yaml": PROP, "b/z.yaml": ("LINK", "/dev/zero")}, ["audit", "b", "--format", "json"], lambda r: r.returncode == 2 and _one(r) and "z.yaml" in r.stderr),
        ("batch18: 400 members, each 0 bytes", {f"b/p{i:03}.yaml": "" for i in range(400)}, ["audit", "b", "--format", "json"], lambda r: r.returncode == 2 and _one(r)),
        ("batch18: a member named .yaml (a dotfile)", {"b/a.yaml": PROP, "b/.yaml": "junk: [\n"}, ["audit", "b", "--format", "json"], _any),
    ]:
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ the environment (real processes)
    for name, env, argv in [
        ("env18: PYTHONWARNINGS=error", {"PYTHONWARNINGS": "error"}, ["recommend", "r.yaml", "--format", "json"]),
        ("env18: PYTHONWARNINGS=error, an audit with a seller's report", {"PYTHONWARNINGS": "error"}, ["audit", "u.yaml", "--format", "json"]),
        ("env18: PYTHONOPTIMIZE=2 (no docstrings, no asserts)", {"PYTHONOPTIMIZE": "2"}, ["recommend", "r.yaml", "--format", "json"]),
        ("env18: PYTHONOPTIMIZE=2, explain", {"PYTHONOPTIMIZE": "2"}, ["explain", "MEM-FITS"]),
        ("env18: NO_COLOR=1 and TERM=dumb", {"NO_COLOR": "1", "TERM": "dumb"}, ["audit", "p.yaml"]),
        ("env18: LC_ALL=tr_TR.UTF-8 (dotless i)", {"LC_ALL": "tr_TR.UTF-8", "LANG": "tr_TR.UTF-8"}, ["recommend", "r.yaml", "--rules", "h"]),
        ("env18: PYTHONIOENCODING=ascii, a Chinese audit", {"PYTHONIOENCODING": "ascii"}, ["audit", "p.yaml", "--lang", "zh"]),
        ("env18: HOME unwritable, no XDG_CACHE_HOME", {"HOME": "/", "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env18: HOME a folder not there", {"HOME": "/nonexistent/home", "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env18: XDG_CACHE_HOME relative", {"XDG_CACHE_HOME": "rel/cache", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env18: XDG_CACHE_HOME a link to /dev/full", {"XDG_CACHE_HOME": "{tmp}/full", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
    ]:
        files = {"r.yaml": LORA, "p.yaml": PROP, "u.yaml": USED.replace("r.xml", "s.xml"), "s.xml": HOT, "h/a.yaml": CUDA_RULE, "full": ("LINK", "/dev/full")}
        case(name, files, argv, expect="any", real=True, env=env, check=lambda r: _ok(r) and r.stderr.count("\n") <= 1)
    case("env18: a cache directory of 0500 (unwritable)", {"r.yaml": LORA, "c/gpuwise/.keep": ""}, ["recommend", "r.yaml", "--format", "json"],
         expect="any", real=True, env={"XDG_CACHE_HOME": "{tmp}/c", "GPUWISE_NO_CACHE": None}, prep=("RO", "c/gpuwise"),
         check=lambda r: _ok(r) and r.stderr.count("\n") <= 1)

