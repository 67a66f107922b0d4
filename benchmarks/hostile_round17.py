# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round seventeen of the hostile corpus (issue 26 items 5 and 6): kinds rounds one to sixteen did
not try -- a seller's nvidia-smi report in every encoding and line ending a Windows or Mac copy
gives it (UTF-8 and UTF-16 byte-order marks, PowerShell 5's UTF-16 with CRLF, UTF-32, CR alone, a
copy saved again as ANSI with a non-ASCII process path), cut short, doubled, padded with NULs,
compressed, replaced by an HTML error page, full of comments, CDATA and character references, 5 MB
or 3 MB of blanks, linked to ``/dev/zero``; around GDDR6X's throttle point (item 6: 0.9 x 110 deg C,
in Fahrenheit, ``0108 C``); requirements, proposals, plans, house rules and overlays in UTF-16,
UTF-32, with a BOM, CRLF or CR alone and in Latin-1; a board serial of 13 digits written without
quotes (and ``0123``); numbers written ``010``, ``08``, ``1:20``, ``0o10`` in a count, a house
rule, a policy value, a plan; house-rule folders holding a FIFO, an unreadable or dangling member,
an alias bomb, lists nested 5,000 deep; price CSVs that are Excel's UTF-16 "Unicode text", with
blank rows above the header, prices in ``$20.00``, ``20,50`` and full-width digits; ``-o`` onto a
hard link of the input, through a dangling link, onto a read-only or 0640 report, ``/dev/full``,
a folder, ``OUT.JSON``; a batch of forty proposals sharing one refused report, members that are
hard links or links outside the folder; and the environment: a cache directory that is a file,
``/dev/null`` or writable by all, ``COLUMNS`` of 0, text or 10^8, the C locale, UTF-16 and
Latin-1 streams, a missing ``TMPDIR``, no ``HOME``. Added to benchmarks/hostile_corpus.py's
table by :func:`add`; the failures fixed are kept as tests in tests/test_hostile_seventeenth.py.

Before the fixes: 156 cases, 137 clean, 19 fail (141 run on main at 568f29ee: 131 clean; the 15
added after were run on the code before their fix: 6 clean) -- a report saved again as ANSI (x2:
'not well-formed (invalid token): line 30, column 22'), one cut inside a two-byte character
('partial character'), one declaring GBK or Shift_JIS (x2: 'multi-byte encodings are not
supported') or ``utf8`` ('not well-formed'), a 13-digit serial and ``0123`` written unquoted (x4:
'Input should be a valid string (got 123)'), blank rows above a price CSV's header (x3: read as
the header), ``--lang zh_CN``, ``zh-Hans``, ``ZH`` and ``en_US.UTF-8`` refused with no close match
(x4), ``--fx-rate -7.1`` called 'not a number', and (with this round's own ``010`` fix, before its
second half) ``prices import`` into an overlay saying ``gpus: 010`` an internal error. A batch of
forty proposals sharing a refused report passed its check but read and parsed the report forty
times (counted in the tests). After: 156 clean of 156."""
from __future__ import annotations

import gzip
import os
import re
import stat
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused
from benchmarks.hostile_round13 import _finds, _ids
from benchmarks.hostile_round14 import _file, _kept

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data" / "nvidia_smi"
HOT = (DATA / "derived_rtx-3080-v13_as-3090-hot-gddr6x.xml").read_text()
"""An RTX 3090 (GDDR6X) whose memory reads 108 deg C under load: USED-MEMORY-JUNCTION-HOT."""
HOT_RULE = "USED-MEMORY-JUNCTION-HOT"


def _hot(r) -> bool:
    """Answered, and the hot GDDR6X memory found: the copy was read as nvidia-smi wrote it."""
    return _finds(HOT_RULE, True)(r)


def _mode(name: str, want: int):
    """Answered, and ``name`` (an existing report written over) keeps permission bits ``want``."""
    def check(r) -> bool:
        p = Path(r.cwd, name)
        return r.returncode in (0, 1, 2) and _one(r) and p.is_file() and stat.S_IMODE(p.stat().st_mode) == want
    return check


def _no_tmp(r) -> bool:
    """No temporary file left beside an output."""
    return not [p for p in Path(r.cwd).rglob("*") if ".tmp" in p.name or p.name.startswith(".gpuwise")]


def _rows_refused(r) -> bool:
    """A price import that could use no row: refused (exit 2) with its summary, never an internal error."""
    return r.returncode == 2 and _clean(r) and r.stderr.rstrip("\n").splitlines()[-1].startswith("gpuwise: ")


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, _smi_text, CUDA_RULE, USED, CSV, _patched, _smi, _wl, _prop, _plan, _reject = givens(ns)
    rec = ["recommend", "r.yaml", "--format", "json"]
    aud = ["audit", "p.yaml", "--format", "json"]
    u8 = HOT.encode()
    crlf = HOT.replace("\n", "\r\n")
    cut_at = u8.rindex(b"</nvidia_smi_log>")

    # ------------------------------------------------------------ a seller's report: encodings, line endings, damage
    for name, body, check in [
        ("smi17: a UTF-8 byte-order mark", b"\xef\xbb\xbf" + u8, _hot),
        ("smi17: PowerShell 5's '>' (UTF-16 LE, BOM, CRLF)", crlf.encode("utf-16"), _hot),
        ("smi17: UTF-16 BE with its BOM", b"\xfe\xff" + HOT.encode("utf-16-be"), _hot),
        ("smi17: UTF-16 LE without a BOM", HOT.encode("utf-16-le"), _hot),
        ("smi17: UTF-32 with its BOM", HOT.encode("utf-32"), _hot),
        ("smi17: CRLF line endings", crlf.encode(), _hot),
        ("smi17: CR line endings alone (old Mac)", HOT.replace("\n", "\r").encode(), _hot),
        ("smi17: a BOM and CRLF", b"\xef\xbb\xbf" + crlf.encode(), _hot),
        ("smi17: saved again as ANSI (cp1252) with C:\\Users\\José in it", HOT.replace("<serial>", "<serial>C:\\Users\\José\\", 1).encode("cp1252"), _hot),
        ("smi17: saved again as ANSI with curly quotes", HOT.replace("<serial>", "<serial>\u201cx\u201d", 1).encode("cp1252"), _hot),
        ("smi17: declared ISO-8859-1 with a Latin-1 byte", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="ISO-8859-1"?>').replace("<serial>", "<serial>caf\xe9", 1).encode("latin-1"), _hot),
        ("smi17: declared GBK (a Chinese system's ANSI) with Chinese in it", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="GBK"?>').replace("<serial>", "<serial>中文", 1).encode("gbk"), _hot),
        ("smi17: declared Shift_JIS with Japanese in it", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="Shift_JIS"?>').replace("<serial>", "<serial>日本", 1).encode("shift_jis"), _hot),
        ("smi17: declared 'utf8' (no hyphen) with an é", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="utf8"?>').replace("<serial>", "<serial>é", 1).encode(), _hot),
        ("smi17: declared an encoding no one knows", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" encoding="x-bogus"?>').encode(), _refused("r.xml", "x-bogus")),
        ("smi17: cut at half", u8[: len(u8) // 2], _refused("r.xml", "before the report does")),
        ("smi17: no closing </nvidia_smi_log>", u8[:cut_at], _refused("r.xml", "before the report does")),
        ("smi17: cut inside a two-byte character", HOT.replace("<serial>", "<serial>\u00e9\u00e9", 1).encode()[: u8.index(b"<serial>") + 11], _refused("r.xml", "before the report does")),
        ("smi17: two reports one after the other", u8 + u8, _refused("r.xml", "second report")),
        ("smi17: 4 KB of NULs after the report", u8 + b"\0" * 4096, _refused("r.xml")),
        ("smi17: NULs before the report", b"\0" * 16 + u8, _refused("r.xml")),
        ("smi17: gzip'd", gzip.compress(u8), _refused("r.xml", "gzip")),
        ("smi17: 0 bytes", b"", _refused("r.xml", "empty")),
        ("smi17: only blank lines", b"\r\n\r\n  \n", _refused("r.xml", "empty")),
        ("smi17: an HTML error page saved instead", b"<html><body><h1>502 Bad Gateway</h1></body></html>\n", _refused("r.xml", "<html>")),
        ("smi17: JSON instead", b'{"gpus": [{"name": "RTX 3090"}]}\n', _refused("r.xml")),
        ("smi17: a comment between every two elements", HOT.replace("><", "><!-- x --><").encode(), _hot),
        ("smi17: the product name in CDATA", HOT.replace("<product_name>NVIDIA GeForce RTX 3090", "<product_name><![CDATA[NVIDIA GeForce RTX 3090]]>").encode(), _hot),
        ("smi17: the memory temperature in character references", HOT.replace("<memory_temp>108 C", "<memory_temp>&#49;&#48;&#56; C").encode(), _hot),
        ("smi17: a namespace on the root", HOT.replace("<nvidia_smi_log>", '<nvidia_smi_log xmlns="urn:x">').encode(), _refused("r.xml", "nvidia_smi_log")),
        ("smi17: an XML 1.1 declaration", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.1" ?>').encode(), _any),
        ("smi17: the whole report on one line", HOT.replace("\n", "").replace("\t", "").encode(), _hot),
        ("smi17: 5 MB (past the 4 MB cap)", u8 + b" " * (5 * 2**20), _refused("r.xml", "larger than")),
        ("smi17: 3 MB of blanks inside (under the cap)", u8.replace(b"<timestamp>", b" " * (3 * 2**20) + b"<timestamp>", 1), _hot),
        ("smi17: an internal DTD declaring an entity", HOT.replace('<?xml version="1.0" ?>', '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log [<!ENTITY a "aaaa">]>').encode(), _refused("r.xml")),
        ("smi17: the text report (-q) from PowerShell (UTF-16, CRLF)", (DATA / "gpud_query-535.183.01-h100.txt").read_text().replace("\n", "\r\n").encode("utf-16"), _refused("r.xml", "nvidia-smi -q")),
        ("smi17: query CSV with a BOM and CRLF", "\ufeffname, temperature.gpu, temperature.memory\r\nNVIDIA GeForce RTX 3090, 74, 108\r\n".encode(), _refused("r.xml", "--query-gpu")),
        ("smi17: memory at 226 F (Fahrenheit, 108 C)", HOT.replace("<memory_temp>108 C", "<memory_temp>226 F").encode(), _hot),
        ("smi17: memory at 99 C (0.9 x GDDR6X's 110 C)", HOT.replace("<memory_temp>108 C", "<memory_temp>99 C").encode(), _hot),
        ("smi17: memory at 98 C (under 0.9 x 110 C)", HOT.replace("<memory_temp>108 C", "<memory_temp>98 C").encode(), _finds(HOT_RULE, False)),
        ("smi17: memory at '0108 C'", HOT.replace("<memory_temp>108 C", "<memory_temp>0108 C").encode(), _hot),
        ("smi17: memory at 108.5 C", HOT.replace("<memory_temp>108 C", "<memory_temp>108.5 C").encode(), _hot),
        ("smi17: tags in other case (<Memory_Temp>)", HOT.replace("memory_temp>", "Memory_Temp>").encode(), _any),
    ]:
        case(name, {"p.yaml": USED, "r.xml": body}, aud, expect="any", check=check)
    for name, files, check in [
        ("smi17: a sparse report of 2 GB", {"p.yaml": USED, "r.xml": ("SPARSE", 2 * 2**30)}, _refused("r.xml", "larger than")),
        ("smi17: the report a link to a copy in the folder", {"p.yaml": USED, "c.xml": HOT, "r.xml": ("LINK", "c.xml")}, _hot),
        ("smi17: the report a link to /dev/zero", {"p.yaml": USED, "r.xml": ("LINK", "/dev/zero")}, _refused("r.xml")),
        ("smi17: the report's name ending in CR (a proposal edited on Windows)", {"p.yaml": USED.replace("nvidia_smi: r.xml", 'nvidia_smi: "r.xml\\r"'), "r.xml": HOT}, lambda r: _refused("r.xml")(r) and "\r" not in r.stderr),
        ("smi17: the report's name in another Unicode form (NFD é)", {"p.yaml": USED.replace("nvidia_smi: r.xml", "nvidia_smi: caf\u00e9.xml"), "cafe\u0301.xml": HOT}, _any),
    ]:
        case(name, files, aud, expect="any", check=check)

    # ------------------------------------------------------------ a board serial of digits, unquoted
    serial = re.sub(r"<serial>[^<]*", "<serial>{s}", HOT, count=1)
    for name, written, in_report, check in [
        ("serial17: 13 digits unquoted, as the report has them", "1324020012345", "1324020012345", lambda r: _hot(r) and "USED-SERIAL-NOT-IN-REPORT" not in _ids(r)),
        ("serial17: a leading zero unquoted (0324020012345)", "0324020012345", "0324020012345", lambda r: _hot(r) and "USED-SERIAL-NOT-IN-REPORT" not in _ids(r)),
        ("serial17: 0123 unquoted", "0123", "0123", lambda r: _hot(r) and '"0123"' in r.stdout),
        ("serial17: 13 digits unquoted, another card's report", "1324020012345", "1324020012346", _finds("USED-SERIAL-NOT-IN-REPORT", True)),
        ("serial17: a float (1.5e3)", "1.5e3", "1500", _refused("serial")),
    ]:
        case(name, {"p.yaml": USED.replace("serial: '1'", f"serial: {written}"), "r.xml": serial.replace("{s}", in_report)}, aud, expect="any", check=check)

    # ------------------------------------------------------------ requirements, proposals and plans: encodings, numbers
    for name, files, argv, check in [
        ("yaml17: requirements in UTF-16 with CRLF (Notepad's 'Unicode')", {"r.yaml": LORA.replace("\n", "\r\n").encode("utf-16")}, rec, _ok),
        ("yaml17: requirements with a BOM and CRLF", {"r.yaml": "\ufeff" + LORA.replace("\n", "\r\n")}, rec, _ok),
        ("yaml17: requirements with CR line endings alone", {"r.yaml": LORA.replace("\n", "\r")}, rec, _ok),
        ("yaml17: requirements in UTF-16 without a BOM", {"r.yaml": LORA.encode("utf-16-le")}, rec, _refused("r.yaml", "UTF-16")),
        ("yaml17: a proposal in UTF-32", {"p.yaml": PROP.encode("utf-32")}, aud, _ok),
        ("yaml17: requirements with a Latin-1 comment", {"r.yaml": ("# caf\xe9\n" + LORA).encode("latin-1")}, rec, _refused("r.yaml", "UTF-8")),
        ("yaml17: requirements cut inside a quoted string", {"r.yaml": LORA + 'notes: "abc'}, rec, _refused("r.yaml")),
        ("yaml17: proposal count 010 (ten)", {"p.yaml": re.sub(r"count: \d+", "count: 010", PROP, count=1)}, aud, lambda r: _ok(r) and '"count": 10' in r.stdout),
        ("yaml17: proposal count 08", {"p.yaml": re.sub(r"count: \d+", "count: 08", PROP, count=1)}, aud, _any),
        ("yaml17: proposal count 1:20 (base 60)", {"p.yaml": re.sub(r"count: \d+", "count: 1:20", PROP, count=1)}, aud, _refused("count", "base 60")),
        ("yaml17: proposal count 0o10", {"p.yaml": re.sub(r"count: \d+", "count: 0o10", PROP, count=1)}, aud, _refused("count", "octal")),
        ("yaml17: proposal count +8", {"p.yaml": re.sub(r"count: \d+", "count: +8", PROP, count=1)}, aud, _ok),
        ("yaml17: a plan in UTF-16", {"plan.yaml": PLAN.encode("utf-16")}, ["plan", "plan.yaml", "--format", "json"], _ok),
        ("yaml17: a plan with a BOM and CRLF", {"plan.yaml": "\ufeff" + PLAN.replace("\n", "\r\n")}, ["plan", "plan.yaml", "--format", "json"], _ok),
        ("yaml17: a plan's horizon 1:20", {"plan.yaml": PLAN.replace("horizon_months: 12", "horizon_months: 1:20")}, ["plan", "plan.yaml", "--format", "json"], _refused("horizon_months")),
        ("yaml17: a plan's owned count 010", {"plan.yaml": PLAN.replace("    count: 8\n", "    count: 010\n", 1)}, ["plan", "plan.yaml", "--format", "json"], _ok),
    ]:
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ house rules: encodings, numbers, odd folder members
    cond = '[cuda_device, "==", false]'
    hr = ["recommend", "r.yaml", "--rules", "h", "--format", "json"]
    for name, files, check in [
        ("hr17: a house rule file with a BOM", {"h/a.yaml": "\ufeff" + CUDA_RULE}, _ok),
        ("hr17: a house rule file in UTF-16", {"h/a.yaml": CUDA_RULE.encode("utf-16")}, _ok),
        ("hr17: a house rule file with CRLF", {"h/a.yaml": CUDA_RULE.replace("\n", "\r\n")}, _ok),
        ("hr17: a house rule file in Latin-1", {"h/a.yaml": CUDA_RULE.replace("CUDA only", "CUDA only caf\xe9").encode("latin-1")}, _refused("h/a.yaml", "UTF-8")),
        ("hr17: a condition on count > 010", {"h/a.yaml": CUDA_RULE.replace(cond, '[count, ">", 010]')}, _ok),
        ("hr17: a condition on count > 08", {"h/a.yaml": CUDA_RULE.replace(cond, '[count, ">", 08]')}, _any),
        ("hr17: a condition on count > 1:20", {"h/a.yaml": CUDA_RULE.replace(cond, '[count, ">", 1:20]')}, _refused("h/a.yaml", "base 60")),
        ("hr17: a condition on need_gb > .nan", {"h/a.yaml": CUDA_RULE.replace(cond, '[need_gb, ">", .nan]')}, _refused("h/a.yaml", "finite")),
        ("hr17: one id in two files", {"h/a.yaml": CUDA_RULE, "h/b.yaml": CUDA_RULE}, _refused("duplicate rule id")),
        ("hr17: a FIFO named b.yaml beside a good file", {"h/a.yaml": CUDA_RULE, "h/b.yaml": "FIFO"}, _refused("h/b.yaml")),
        ("hr17: a member 0000 beside a good file", {"h/a.yaml": CUDA_RULE, "h/b.yaml": ("MODE", 0)}, _refused("h/b.yaml")),
        ("hr17: a dangling link named b.yaml", {"h/a.yaml": CUDA_RULE, "h/b.yaml": ("LINK", "gone.yaml")}, _refused("h/b.yaml")),
        ("hr17: a folder named b.yaml inside", {"h/a.yaml": CUDA_RULE, "h/b.yaml": ("DIR",)}, _any),
        ("hr17: message with {gpu_name!r}", {"h/a.yaml": CUDA_RULE.replace("message: \"{gpu_name}", "message: \"{gpu_name!r}")}, _any),
        ("hr17: message with {{braces}}", {"h/a.yaml": CUDA_RULE.replace("message: \"{gpu_name}", "message: \"{{literal}} {gpu_name}")}, _any),
        ("hr17: message with a NUL", {"h/a.yaml": CUDA_RULE.replace("message: \"{gpu_name}", "message: \"\\0{gpu_name}")}, lambda r: _any(r) and "\x00" not in r.stdout + r.stderr),
        ("hr17: an alias bomb in a house rule", {"h/a.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8)) + CUDA_RULE}, _refused("h/a.yaml")),
        ("hr17: lists nested 5,000 deep", {"h/a.yaml": CUDA_RULE.replace(cond, "[" * 5000 + "]" * 5000)}, _refused("h/a.yaml")),
    ]:
        case(name, {"r.yaml": LORA, **files}, hr, expect="any", check=check)

    # ------------------------------------------------------------ overlays: encodings, numbers, odd members
    for name, files, check in [
        ("kb17: policy.yaml with a BOM", {"k/policy.yaml": "\ufeffmemory_headroom_fraction: 0.1\n"}, _ok),
        ("kb17: policy.yaml in UTF-16", {"k/policy.yaml": "memory_headroom_fraction: 0.1\r\n".encode("utf-16")}, _ok),
        ("kb17: policy.yaml with one key twice", {"k/policy.yaml": "memory_headroom_fraction: 0.1\nmemory_headroom_fraction: 0.5\n"}, _refused("k/policy.yaml", "duplicate key")),
        ("kb17: policy datacenter_min_gpus: 010", {"k/policy.yaml": "datacenter_min_gpus: 010\n"}, _ok),
        ("kb17: policy memory_headroom_fraction: 10%", {"k/policy.yaml": "memory_headroom_fraction: 10%\n"}, _refused("k/policy.yaml", "memory_headroom_fraction")),
        ("kb17: policy.yaml a FIFO", {"k/policy.yaml": "FIFO"}, _refused("k/policy.yaml")),
        ("kb17: gpus.yaml 0000", {"k/gpus.yaml": ("MODE", 0)}, _refused("k/gpus.yaml")),
        ("kb17: the overlay a file, not a folder", {"k": "gpus: []\n"}, _refused("k")),
        ("kb17: clouds.yaml with CRLF", {"k/clouds.yaml": "instances:\r\n- id: mycloud:h100x8\r\n  provider: mycloud\r\n  gpu: h100-80gb-sxm\r\n  gpus: 8\r\n  usd_per_hour: 16\r\n  as_of: 2026-12-01\r\n  source: a page\r\n  check: S\r\n"}, _ok),
    ]:
        case(name, {"r.yaml": LORA, **files}, [*rec, "--knowledge", "k"], expect="any", check=check)

    # ------------------------------------------------------------ price CSVs as spreadsheets save them
    imp = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    for name, body, check in [
        ("csv17: Excel's 'Unicode text' (UTF-16, tabs)", "gpu\tgpus\tprice\r\nH100 80GB SXM\t8\t20\r\n".encode("utf-16"), _refused("p.csv", "tabs")),
        ("csv17: blank rows above the header", "\n\ngpu,gpus,price\nH100 80GB SXM,8,20\n", lambda r: r.returncode == 0 and "h100-80gb-sxm" in _file(r, "ov/clouds.yaml")),
        ("csv17: an empty sheet row ',,,' above the header", ",,,\ngpu,gpus,price\nH100 80GB SXM,8,20\n", lambda r: r.returncode == 0 and "h100-80gb-sxm" in _file(r, "ov/clouds.yaml")),
        ("csv17: only blank lines", "\n\n\n", _refused("p.csv", "empty")),
        ("csv17: a price of $20.00", "gpu,gpus,price\nH100 80GB SXM,8,$20.00\n", _rows_refused),
        ("csv17: a price of 20,50 (decimal comma)", 'gpu,gpus,price\nH100 80GB SXM,8,"20,50"\n', _rows_refused),
        ("csv17: a price of 20 USD", "gpu,gpus,price\nH100 80GB SXM,8,20 USD\n", _rows_refused),
        ("csv17: full-width digits", "gpu,gpus,price\nH100 80GB SXM,８,２０\n", _rows_refused),
        ("csv17: gpus 08", "gpu,gpus,price\nH100 80GB SXM,08,20\n", lambda r: r.returncode == 0),
        ("csv17: gpus 0x8", "gpu,gpus,price\nH100 80GB SXM,0x8,20\n", _rows_refused),
        ("csv17: a formula in the GPU cell", 'gpu,gpus,price\n"=HYPERLINK(""http://x"")",8,20\n', _rows_refused),
        ("csv17: a price of 2e1", "gpu,gpus,price\nH100 80GB SXM,8,2e1\n", lambda r: r.returncode == 0),
        ("csv17: trailing commas on every line", "gpu,gpus,price,,\nH100 80GB SXM,8,20,,\n", lambda r: r.returncode == 0),
        ("csv17: merged into an overlay whose clouds.yaml says gpus: 010", CSV, lambda r: r.returncode == 0 and "gpus: 10\n" in _file(r, "ov/clouds.yaml")),
        ("csv17: a BOM, CRLF and a last row cut short", "\ufeffgpu,gpus,price\r\nH100 80GB SXM,8,20\r\nA100 80GB SXM,8", lambda r: r.returncode in (0, 2) and _clean(r)),
    ]:
        files = {"p.csv": body}
        if "gpus: 010" in name:
            files["ov/clouds.yaml"] = ("instances:\n- id: mine:h100x8\n  provider: mine\n  gpu: h100-80gb-sxm\n  gpus: 010\n"
                                       "  usd_per_hour: 16\n  as_of: 2026-12-01\n  source: a page\n  check: S\n")
        case(name, files, imp, expect="any", check=check)

    # ------------------------------------------------------------ output paths
    for name, files, argv, check in [
        ("out17: -o onto a hard link of the requirements", {"r.yaml": LORA, "o.md": ("HARD", "r.yaml")}, ["recommend", "r.yaml", "-o", "o.md"], lambda r: _kept("r.yaml", LORA)(r) and r.returncode == 2),
        ("out17: -o through a dangling link (written where it points, as the shell's > does, or refused)", {"r.yaml": LORA, "elsewhere/.keep": "", "o.md": ("LINK", "elsewhere/o.md")}, ["recommend", "r.yaml", "-o", "o.md"],
         lambda r: _any(r) and (r.returncode == 2 or (os.path.islink(Path(r.cwd, "o.md")) and _file(r, "elsewhere/o.md").startswith("#")))),
        ("out17: -o onto a 0640 report keeps 0640", {"r.yaml": LORA, "o.md": ("MODE", 0o640)}, ["recommend", "r.yaml", "-o", "o.md"], _mode("o.md", 0o640)),
        ("out17: -o onto a read-only report", {"r.yaml": LORA, "o.md": ("MODE", 0o444)}, ["recommend", "r.yaml", "-o", "o.md"], lambda r: _any(r) and (_file(r, "o.md") == "OLD\n" or _mode("o.md", 0o444)(r))),
        ("out17: -o /dev/full", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "/dev/full", "--format", "md"], lambda r: r.returncode == 2 and _one(r)),
        ("out17: -o onto a folder", {"r.yaml": LORA, "d/x": ""}, ["recommend", "r.yaml", "-o", "d"], lambda r: r.returncode == 2 and _one(r)),
        ("out17: -o into a folder not there, ending in /", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "nope/"], lambda r: r.returncode == 2 and _one(r)),
        ("out17: -o OUT.JSON (upper case)", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "OUT.JSON"], lambda r: _ok(r) and _file(r, "OUT.JSON").lstrip().startswith("{")),
        ("out17: -o out.htm", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "out.htm"], _any),
        ("out17: -o out.yaml beside the requirements", {"r.yaml": LORA}, ["recommend", "r.yaml", "-o", "out.yaml"], lambda r: _any(r) and _file(r, "r.yaml") == LORA),
        ("out17: -o in a folder no one may write", {"r.yaml": LORA, "ro/.keep": ""}, ["recommend", "r.yaml", "-o", "ro/o.md"], lambda r: _any(r) and _no_tmp(r)),
        ("out17: audit -o onto a hard link of the seller's report", {"p.yaml": USED, "r.xml": HOT, "o.json": ("HARD", "r.xml")}, ["audit", "p.yaml", "-o", "o.json"], lambda r: _kept("r.xml", HOT)(r) and r.returncode == 2),
    ]:
        case(name, files, argv, expect="any", check=check, prep=("RO", "ro") if "no one may write" in name else None)

    # ------------------------------------------------------------ batches
    refused = "<?xml version=\"1.0\" ?>\n<nvidia_smi_log>\n<attached_gpus>65</attached_gpus>\n" + "<gpu/>" * 65 + "</nvidia_smi_log>\n"
    forty = {f"b/p{i:02}.yaml": USED.replace("serial: '1'", f"serial: 'S{i}'") for i in range(40)}
    for name, files, check in [
        ("batch17: forty proposals sharing one refused 65-GPU report", {**forty, "b/r.xml": refused}, lambda r: r.returncode == 2 and _one(r) and r.stdout.count('"error"') == 40 and "and 39 more" in r.stderr),
        ("batch17: forty proposals sharing one hot report", {**forty, "b/r.xml": HOT}, lambda r: _ok(r) and r.stdout.count(HOT_RULE) >= 40),
        ("batch17: two members hard links of one file", {"b/a.yaml": PROP, "b/c.yaml": ("HARD", "b/a.yaml")}, _any),
        ("batch17: a member linking outside the folder", {"b/a.yaml": PROP, "x.yaml": PROP, "b/c.yaml": ("LINK", "../x.yaml")}, _any),
        ("batch17: a member named -o.yaml", {"b/a.yaml": PROP, "b/-o.yaml": PROP}, _any),
        ("batch17: a member whose report is a FIFO", {"b/a.yaml": PROP, "b/u.yaml": USED, "b/r.xml": "FIFO"}, lambda r: r.returncode == 2 and _one(r) and "r.xml" in r.stderr and '"verdict"' in r.stdout),
    ]:
        case(name, files, ["audit", "b", "--format", "json"], expect="any", check=check)
    case("batch17: the folder named twice", {"b/a.yaml": PROP}, ["audit", "b", "b", "--format", "json"], expect="any", check=_any)

    # ------------------------------------------------------------ the environment (real processes)
    for name, env, argv in [
        ("env17: XDG_CACHE_HOME a file", {"XDG_CACHE_HOME": "{tmp}/r.yaml", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env17: XDG_CACHE_HOME /dev/null", {"XDG_CACHE_HOME": "/dev/null", "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env17: HOME and XDG_CACHE_HOME unset", {"HOME": None, "XDG_CACHE_HOME": None, "GPUWISE_NO_CACHE": None}, ["recommend", "r.yaml", "--format", "json"]),
        ("env17: GPUWISE_NO_CACHE=yes", {"GPUWISE_NO_CACHE": "yes"}, ["recommend", "r.yaml", "--format", "json"]),
        ("env17: COLUMNS=0", {"COLUMNS": "0"}, ["recommend", "r.yaml"]),
        ("env17: COLUMNS=abc", {"COLUMNS": "abc"}, ["audit", "p.yaml"]),
        ("env17: COLUMNS=100000000", {"COLUMNS": "100000000"}, ["gpus"]),
        ("env17: LC_ALL=C, a Chinese audit", {"LC_ALL": "C", "LANG": "C", "PYTHONIOENCODING": None}, ["audit", "p.yaml", "--lang", "zh"]),
        ("env17: PYTHONIOENCODING=utf-16", {"PYTHONIOENCODING": "utf-16"}, ["recommend", "r.yaml"]),
        ("env17: PYTHONIOENCODING=latin-1:strict, a Chinese plan", {"PYTHONIOENCODING": "latin-1:strict"}, ["plan", "plan.yaml", "--lang", "zh"]),
        ("env17: TMPDIR a folder not there, -o", {"TMPDIR": "/nonexistent/tmp"}, ["recommend", "r.yaml", "-o", "o.md"]),
        ("env17: TZ=garbage", {"TZ": "Not/A_Zone"}, ["audit", "p.yaml"]),
    ]:
        case(name, {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN}, argv, expect="any", real=True, env=env, check=lambda r: _ok(r) and r.stderr.count("\n") <= 1)
    case("env17: XDG_CACHE_HOME writable by all (ignored, never planted)", {"r.yaml": LORA, "c/gpuwise/.keep": ""}, ["recommend", "r.yaml", "--format", "json"],
         expect="any", real=True, env={"XDG_CACHE_HOME": "{tmp}/c", "GPUWISE_NO_CACHE": None}, prep=("OPEN", "c/gpuwise"),
         check=lambda r: _ok(r) and not [p for p in Path(r.cwd, "c", "gpuwise").iterdir() if p.name != ".keep"])

    # ------------------------------------------------------------ options as a locale or a shell spells them
    for name, argv, check in [
        ("arg17: --lang zh_CN (as LANG spells it)", ["recommend", "r.yaml", "--lang", "zh_CN"], _refused("--lang", "did you mean zh?")),
        ("arg17: --lang zh-Hans", ["recommend", "r.yaml", "--lang", "zh-Hans"], _refused("--lang", "did you mean zh?")),
        ("arg17: --lang ZH", ["recommend", "r.yaml", "--lang", "ZH"], _refused("--lang", "did you mean zh?")),
        ("arg17: --lang en_US.UTF-8", ["audit", "p.yaml", "--lang", "en_US.UTF-8"], _refused("--lang", "did you mean en?")),
        ("arg17: --lang xx (no close match)", ["recommend", "r.yaml", "--lang", "xx"], lambda r: _refused("--lang")(r) and "did you mean" not in r.stderr),
        ("arg17: --fx-rate -7.1 (a number, out of range)", ["recommend", "r.yaml", "--fx-rate", "-7.1"], _refused("--fx-rate", "from 1e-06 to 1e+06")),
        ("arg17: --fx-rate 07.1", ["recommend", "r.yaml", "--fx-rate", "07.1", "--format", "json"], _ok),
        ("arg17: --gpus 010 (ten)", ["estimate", "r.yaml", "--gpu", "h100", "--gpus", "010", "--format", "json"], lambda r: _ok(r) and '"gpus": 10' in r.stdout),
        ("arg17: --gpus with full-width digits", ["estimate", "r.yaml", "--gpu", "h100", "--gpus", "８"], _refused("--gpus")),
        ("arg17: --as-of 20261205 (no dashes)", ["prices", "import", "p.csv", "--provider", "m", "--as-of", "20261205", "-o", "ov"], _refused("--as-of")),
    ]:
        case(name, {"r.yaml": LORA, "p.yaml": PROP, "p.csv": CSV}, argv, expect="any", check=check)

    # ------------------------------------------------------------ control characters from the new inputs
    for name, files, argv in [
        ("ctl17: ESC in a cp1252 report's serial (text)", {"p.yaml": USED, "r.xml": HOT.replace("<serial>", "<serial>\x1b[2J\xe9", 1).encode("cp1252")}, ["audit", "p.yaml"]),
        ("ctl17: ESC in an unquoted-serial proposal's title", {"p.yaml": '# "\x1b]0;x\x07"\n' + USED.replace("serial: '1'", "serial: 0123"), "r.xml": HOT}, ["audit", "p.yaml"]),
        ("ctl17: C1 CSI in a UTF-16 report's VBIOS", {"p.yaml": USED, "r.xml": re.sub(r"<vbios_version>", "<vbios_version>\x9b31m", HOT, count=1).encode("utf-16")}, ["audit", "p.yaml"]),
    ]:
        case(name, files, argv, expect="any", check=_no_raw("\x1b", "\x07", "\x9b"))


def prepare(tmp: Path, prep: tuple | None) -> None:
    """This round's preparations: ``("RO", folder)`` makes ``folder`` read-only, ``("OPEN",
    folder)`` writable by all (a cache directory another user could plant entries in)."""
    if not prep:
        return
    if prep[0] == "RO":
        os.chmod(tmp / prep[1], 0o555)
    elif prep[0] == "OPEN":
        os.chmod(tmp / prep[1], 0o777)
