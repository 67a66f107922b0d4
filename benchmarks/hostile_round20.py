# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round twenty of the hostile corpus (issue 26 items 5 and 6): where rounds one to nineteen went
least -- ``gpuwise ask`` answered key by key in a terminal (Ctrl-D and Ctrl-C at each prompt, answers
misspelt, out of range or 10,000 characters long, the report sent to /dev/full or onto a folder,
standard input closed); the dates of a knowledge overlay (``as_of`` written as a year, a Unix time,
``20261204``, ``2026-1-5``, ``Jan 2026``, a day that does not exist, a timestamp, a date in year 1
or 2099, an alias, a tag); price CSVs in gpuwise's, gpuhunt's and SkyPilot's layouts with dates,
currencies and spot flags written every way, one instance name given to two GPUs, GPU names
misspelt a row each, duplicate offers; YAML and JSON features in plans and proposals (alias bombs,
``!!python`` tags, duplicate keys, NUL bytes, tabs, merge keys, 10**30, JSON nested 10,000 deep);
``-o`` onto /dev/full or a folder from every writing command; every command's unknown options and
its help in Chinese on an ASCII stream; ``estimate``, ``gpus``, ``rules`` and ``explain`` with odd
names and counts. Added to benchmarks/hostile_corpus.py's table by :func:`add`; special runs by
:func:`run_mode`.

Run on main at 5602cf81 (before any change): 154 cases, 130 clean. Fixed, with tests in
tests/test_hostile_twentieth.py (now 154 clean):

* A knowledge overlay's date written as a number was read by pydantic as seconds since 1970:
  ``as_of: 0`` was an offer priced on 1970-01-01, ``as_of: 1767225600`` (or quoted) one of
  2026-01-01, and a recommend used them; a year alone (``2026``), ``20261204`` and ``1.0e+9`` were
  refused in pydantic's words about 'datetimes with zero time'. Every knowledge schema now refuses
  a number in a date field, naming the field and asking for YYYY-MM-DD (gpuwise/knowledge/schema/
  base.py; 9 cases, clouds.yaml offers and a prices.yaml buy price).
* ``prices import``: a row's ``as_of`` went to Python's date.fromisoformat, which on 3.11 also reads
  ``20261204`` and the week date ``2026-W05-1`` (refused by ``--as-of`` and by Python 3.10, in
  requires-python), and said 'Invalid isoformat string' in English in every language; it is now read
  as ``--as-of`` is (2 cases). An instance name given with two GPUs (an ``instance`` column filled
  down, SkyPilot's p5.48xlarge listed with H100 and A100, a gpuhunt instance_name twice) made two
  overlay entries of one id: the import said 'imported 2 offers', exit 0, and every later use of the
  overlay was refused ('duplicate id'); the first row's offer is kept and the other listed as left
  out (4 cases). A misspelt GPU in a row ('H100 80GB SMX', 'RTX 4O90', 'L4OS') was 'not in the
  catalog' with no close match; it now names the catalog's close names, as ``--gpu`` does (6 cases).
* ``ask``: Ctrl-D at a text question ended the questionnaire (end of input, exit 130, answers kept),
  but at a choice or yes/no question (the first question, 'Ready?', in either language) questionary
  ignored it and the questionnaire went on waiting: the blind run's three such cases ended only when
  the runner sent Ctrl-C after 120 s (it then checked only the exit status; the cases now require
  that the run ends by itself). Ctrl-D now ends every prompt alike (gpuwise/ask/terminal.py).

Five cases of the first draft were wrong, not gpuwise, and were corrected: a buy price needs ``unit:
card`` and a ``kind`` from the schema's list; a gpuhunt ``gpu_memory: 80GB`` and a SkyPilot row with
only a spot price are refused row by row (exit 2 with the import's summary, not one line); a JSON
file with a trailing comma is read, as YAML reads a flow mapping (round 12 found the same); a house
rule file needs ``ruleset``, ``step`` and ``description``. A plan over 120 months is refused
(``horizon_months`` is at most 60), so the 60-month limit was probed instead (below).

Probes beside the table (timed, not cases; the machine was shared by several runs):

* A batch of 2,000 copies of one proposal: 15.0 CPU-s, 46 s wall, 493 MB peak (500 copies: 4.1
  CPU-s, 168 MB). Every member's result is held until the summary is written, about 0.22 MB a
  member, so memory grows with the members (10,000 would need some 2.3 GB). Left, described in the
  report: writing each JSON line as its member ends, and keeping only a summary row a member for
  text, Markdown and HTML, would bound it; that is a change of gpuwise/batch.py's design, not a fix.
* The example plan at the schema's limit of 60 months: 140 CPU-s, 301 s wall, 223 MB (12 months:
  about 1 CPU-s); round 19 found the same search. Plan speed is another helper's (gpuwise/plan/).
* A model name of 10,000 characters typed into the terminal took 23 s wall before the Ctrl-C that
  followed it was read (the name completer runs on every key); the run then ended as any Ctrl-C does.
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _any, _clean, _no_raw, _ok, _one, _refused, rows_refused
from benchmarks.hostile_round14 import _file, _kept
from benchmarks.hostile_round19 import _json_ok

ROOT = Path(__file__).resolve().parent.parent
MODES = ("ASK20", "SH20")

# the questionnaire's prompts, as a fine-tune with every default is asked them (tests/test_ask_pty.py)
TASK, METHOD, MODEL, TOKENS = "What do you want to do?", "Which fine-tuning method?", "Which model", "How many tokens"
DEADLINE, BUDGET, ACQ, HOSTING = "Training must finish within", "Budget for the GPUs", "Rent cloud GPUs", "Where would bought"
ADVANCED, READY = "Change the advanced settings", "Ready?"
# a service's p95 targets, advanced questions where no request rate is stated (askreview55): a service file resumed
# with its advanced settings on is asked them before the software environment (Enter: none); worded for the load
# given ('At that rate' after a rate, 'With that many requests at once' after a concurrency: leftovers56)
P95_TARGETS = [["the longest wait for the first token", "\r"],
               ["the longest gap between output tokens", "\r"]]
# the serving settings the advanced questions ask since askreview59, as Enter saves them: a resumed service file with
# its advanced settings on states them (else each is asked before the software environment)
SERVING_ASKED59 = {"quantization": None, "kv_precision": "auto", "prefix_cache_hit_rate": 0, "speculative": None,
                   "disaggregated": False}
NOT_ENDED = "[still waiting: the runner sent Ctrl-C]"
DEFAULTS = [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\r"], [TOKENS, "\r"], [DEADLINE, "\r"], [BUDGET, "\r"], [ACQ, "\r"],
            [HOSTING, "\r"], [ADVANCED, "\r"], [READY, "\r"]]


def _answers_sound(r) -> bool:
    """The answers file, where one was saved, is a YAML mapping (never half-written)."""
    p = Path(r.cwd, "a.yaml")
    if not p.exists():
        return True
    try:
        return isinstance(yaml.safe_load(p.read_text(encoding="utf-8")) or {}, dict)
    except (yaml.YAMLError, UnicodeDecodeError):
        return False


def _asked(*codes: int, shows: tuple[str, ...] = ()):
    """An ``ask`` run that ended with one of ``codes``, no traceback, sound answers, showing each of ``shows``."""
    return lambda r: r.returncode in codes and _clean(r) and _answers_sound(r) and all(s in r.stdout for s in shows)


def _ended(*codes: int):
    """As :func:`_asked`, and the run ended on its own (the runner sent no Ctrl-C of its own)."""
    return lambda r: _asked(*codes)(r) and NOT_ENDED not in r.stdout


def _overlay_usable(folder: str = "ov"):
    """The import wrote an overlay that gpuwise then reads (``prices --knowledge``) without refusing it."""
    def check(r) -> bool:
        from tests.clirun import gpuwise

        if not (r.returncode == 0 and _clean(r)):
            return False
        again = gpuwise("prices", "--knowledge", folder, "--format", "json", cwd=r.cwd)
        return again.returncode == 0 and _clean(again)
    return check


def _said(*words: str):
    """A price import that could use no row, every one of ``words`` in what it printed."""
    return lambda r: rows_refused(r) and all(w in r.stdout + r.stderr for w in words)


def _left_out(*words: str):
    """An import that wrote its overlay and listed a row left out, saying each of ``words``."""
    return lambda r: r.returncode == 0 and _clean(r) and all(w in r.stdout + r.stderr for w in words)


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, PLAN, _smi_text, CUDA_RULE, _USED, _csv, _patched, _smi, _wl, _prop, _plan, REJECT = givens(ns)

    # ------------------------------------------------------------ ask, answered key by key in a terminal
    ask = ["ask", "--answers", "a.yaml"]
    for name, script, extra, check in [
        ("ask20: Ctrl-D at the first prompt", [[TASK, "\x04"]], [], _ended(130)),
        ("ask20: Ctrl-D at the model prompt", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\x04"]], [], _ended(130)),
        ("ask20: Ctrl-D at the tokens prompt", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-2-7b\r"], [TOKENS, "\x04"]], [], _ended(130)),
        ("ask20: Ctrl-D at the budget prompt", [*DEFAULTS[:5], [BUDGET, "\x04"]], [], _ended(130)),
        ("ask20: Ctrl-D at Ready?", [*DEFAULTS[:9], [READY, "\x04"]], [], _ended(130)),
        ("ask20: Ctrl-C at the method prompt", [[TASK, "\r"], [METHOD, "\x03"]], [], _asked(130)),
        ("ask20: Ctrl-C at the hosting prompt", [*DEFAULTS[:7], [HOSTING, "\x03"]], [], _asked(130)),
        ("ask20: Ctrl-C at Ready?", [*DEFAULTS[:9], [READY, "\x03"]], [], _asked(130)),
        ("ask20: Ctrl-C twice at the model prompt", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\x03\x03"]], [], _asked(130)),
        ("ask20: a misspelt model, then Ctrl-C", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-3.1-70bb\r"], ["did you mean", "\x03"]], [], _asked(130, shows=("llama-3.1-70b",))),
        ("ask20: tokens 1e400, then Ctrl-C", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-2-7b\r"], [TOKENS, "1e400\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: tokens -5, then Ctrl-C", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-2-7b\r"], [TOKENS, "-5\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: tokens '2 billion', then Ctrl-C", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-2-7b\r"], [TOKENS, "2 billion\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: tokens 010, then Ctrl-C at the deadline", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "llama-2-7b\r"], [TOKENS, "010\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: a model name of 10,000 characters, then Ctrl-C", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "m" * 10000 + "\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: budget '$5,0000', then Ctrl-C", [*DEFAULTS[:5], [BUDGET, "$5,0000\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: budget 1e400, then Ctrl-C", [*DEFAULTS[:5], [BUDGET, "1e400\r"], ["", "\x03"]], [], _asked(130)),
        ("ask20: zh, Ctrl-D at the first prompt", [["你要做什么", "\x04"]], ["--lang", "zh"], _ended(130)),
        ("ask20: every default, -o /dev/full", DEFAULTS, ["-o", "/dev/full"], _asked(2)),
        ("ask20: every default, -o onto a folder", DEFAULTS, ["-o", "d"], _asked(2)),
        ("ask20: every default, -o report.pdf (an unknown suffix)", DEFAULTS, ["-o", "report.pdf"], _asked(2)),
    ]:
        case(name, {"d/.keep": ""}, ["ASK20", json.dumps(script), *ask, *extra], expect="any", real=True, check=check)
    case("ask20: --answers in a folder not there, every default", {}, ["ASK20", json.dumps(DEFAULTS), "ask", "--answers", "no/a.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1, 2) and _clean(r))
    for name, line, check in [
        ("sh20: ask with standard input closed", "ask --answers a.yaml <&-", lambda r: r.returncode == 2 and _one(r) and not Path(r.cwd, "a.yaml").exists()),
        ("sh20: ask with standard input /dev/null, -o o.md kept", "ask -o o.md </dev/null", lambda r: r.returncode == 2 and _one(r) and _file(r, "o.md") == "OLD\n"),
        ("sh20: ask with all three streams closed", "ask <&- >&- 2>&-", lambda r: r.returncode in (2, 120) and _clean(r)),
        ("sh20: ask --lang zh, stdin a file, LC_ALL=C", "ask --lang zh < o.md", lambda r: r.returncode == 2 and _one(r)),
    ]:
        case(name, {"o.md": "OLD\n"}, ["SH20", line], expect="any", real=True, env={"LC_ALL": "C"}, check=check)

    # ------------------------------------------------------------ the dates of a knowledge overlay
    inst = ("instances:\n  - id: m:h100x8\n    provider: m\n    gpu: h100-80gb-sxm\n    gpus: 8\n    usd_per_hour: 20\n"
            "    as_of: {}\n    source: the provider's price page, read by hand\n")
    listing = ["prices", "--knowledge", "k", "--provider", "m", "--format", "json"]
    for name, literal, check in [
        ("kb20: as_of 0 (a Unix time, 1970)", "0", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of 1767225600 (a Unix time, 2026-01-01)", "1767225600", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of '1767225600' (quoted)", "'1767225600'", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of 2026 (a year)", "2026", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of '2026' (a quoted year)", "'2026'", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of 20261204 (no dashes)", "20261204", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of 1.0e+9", "1.0e+9", _refused("k/clouds.yaml", "as_of", "YYYY-MM-DD")),
        ("kb20: as_of 2026-1-5", "2026-1-5", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 'Jan 2026'", "Jan 2026", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 2026-02-30 (no such day)", "2026-02-30", _refused("k/clouds.yaml", "2026-02-30")),
        ("kb20: as_of '2026-02-30' (quoted, no such day)", "'2026-02-30'", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 2026-W05 (a week)", "2026-W05", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 2026-01-05T10:00:00Z (a time of day)", "2026-01-05T10:00:00Z", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 2099-01-01 (after today)", "2099-01-01", _refused("k/clouds.yaml", "as_of", "after today")),
        ("kb20: as_of null", "null", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of a mapping", "{year: 2026, month: 1}", _refused("k/clouds.yaml", "as_of")),
        ("kb20: as_of 0001-01-01 (year 1: answered, marked old)", "0001-01-01", lambda r: _json_ok(r) and "0001-01-01" in r.stdout),
        ("kb20: as_of !!timestamp 2026-01-05", "!!timestamp 2026-01-05", _json_ok),
        ("kb20: as_of !!str 2026-01-05", "!!str 2026-01-05", _json_ok),
        ("kb20: as_of 2026-01-05 # a comment", "2026-01-05 # read 5 Jan", _json_ok),
    ]:
        case(name, {"k/clouds.yaml": inst.format(literal)}, listing, expect="any", check=check)
    two = inst.format("&d 2026-01-05") + inst.format("*d").split("instances:\n", 1)[1].replace("m:h100x8", "m:h100x8b")
    case("kb20: as_of an alias of another offer's", {"k/clouds.yaml": two}, listing, expect="any", check=_json_ok)
    case("kb20: as_of twice in one offer", {"k/clouds.yaml": inst.format("2026-01-05\n    as_of: 2026-01-06")}, listing, expect="any",
         check=_refused("k/clouds.yaml", "duplicate key"))
    case("kb20: as_of 0 reaches recommend too", {"r.yaml": LORA, "k/clouds.yaml": inst.format("0")}, ["recommend", "r.yaml", "--knowledge", "k"], expect="any",
         check=_refused("k/clouds.yaml", "as_of"))
    buy = ("gpus:\n  - id: rtx-4090\n    prices:\n      - {{amount: 1600, condition: new, unit: card, kind: reseller, as_of: {}, "
           "source: a shop's price page read by hand}}\n")
    for name, literal, check in [
        ("kb20: a buy price dated 0", "0", _refused("k/prices.yaml", "as_of")),
        ("kb20: a buy price dated 202601", "202601", _refused("k/prices.yaml", "as_of")),
        ("kb20: a buy price dated 2026-01-05", "2026-01-05", _ok),
    ]:
        case(name, {"k/prices.yaml": buy.format(literal)}, ["prices", "--knowledge", "k", "--gpu", "rtx-4090"], expect="any", check=check)

    # ------------------------------------------------------------ price CSVs: dates, currencies, spot flags
    imp = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    G = "gpu,gpus,price"
    for name, text, check in [
        ("csv20: row as_of 20261204 (as --as-of, refused)", f"{G},as_of\nH100 80GB SXM,8,20,20261204\n", _said("20261204")),
        ("csv20: row as_of 2026-W05-1 (an ISO week day)", f"{G},as_of\nH100 80GB SXM,8,20,2026-W05-1\n", _said("2026-W05-1")),
        ("csv20: row as_of 2026-01-05T10:00", f"{G},as_of\nH100 80GB SXM,8,20,2026-01-05T10:00\n", rows_refused),
        ("csv20: row as_of 04/12/2026", f"{G},as_of\nH100 80GB SXM,8,20,04/12/2026\n", rows_refused),
        ("csv20: row as_of 2099-01-01", f"{G},as_of\nH100 80GB SXM,8,20,2099-01-01\n", _said("after today")),
        # an old date is kept; one before the GPU's launch year is not (hostile round 44): 2022-06-01, not 1970-01-01
        ("csv20: row as_of 2022-06-01 (old, kept)", f"{G},as_of\nH100 80GB SXM,8,20,2022-06-01\n", _overlay_usable()),
        ("csv20: row as_of 1970-01-01 (before the H100: left out)", f"{G},as_of\nH100 80GB SXM,8,20,1970-01-01\n",
         rows_refused),
        ("csv20: row as_of ' 2026-01-05 ' (padded)", f"{G},as_of\nH100 80GB SXM,8,20, 2026-01-05 \n", _overlay_usable()),
        ("csv20: row as_of empty (the file's date)", f"{G},as_of\nH100 80GB SXM,8,20,\n", _overlay_usable()),
        ("csv20: one row dated after today, one not", f"{G},as_of,instance\nH100 80GB SXM,8,20,2099-01-01,a\nH100 80GB SXM,8,21,2026-01-05,b\n", _left_out("after today")),
        ("csv20: currency cny (lower case)", f"{G},currency\nH100 80GB SXM,8,140,cny\n", _overlay_usable()),
        ("csv20: currency RMB", f"{G},currency\nH100 80GB SXM,8,140,RMB\n", _said("RMB")),
        ("csv20: currency ' USD' (padded)", f"{G},currency\nH100 80GB SXM,8,20, USD\n", _overlay_usable()),
        ("csv20: currency empty", f"{G},currency\nH100 80GB SXM,8,20,\n", _overlay_usable()),
        ("csv20: one GPU in USD and in CNY", f"{G},currency,instance\nH100 80GB SXM,8,20,USD,a\nH100 80GB SXM,8,140,CNY,b\n", _overlay_usable()),
        ("csv20: currency '$'", f"{G},currency\nH100 80GB SXM,8,20,$\n", rows_refused),
        ("csv20: spot_price above the price", f"{G},spot_price\nH100 80GB SXM,8,20,40\n", _overlay_usable()),
        ("csv20: spot_price 0", f"{G},spot_price\nH100 80GB SXM,8,20,0\n", rows_refused),
        ("csv20: gpuhunt spot 'TRUE'", "instance_name,location,price,gpu_count,gpu_name,spot\np5,us,90,8,H100,TRUE\np5,us,98,8,H100,FALSE\n", _overlay_usable()),
        ("csv20: gpuhunt spot 'maybe'", "instance_name,location,price,gpu_count,gpu_name,spot\np5,us,98,8,H100,maybe\n", _said("maybe")),
        ("csv20: gpuhunt price 0", "instance_name,location,price,gpu_count,gpu_name,spot\np5,us,0,8,H100,False\n", rows_refused),
        ("csv20: gpuhunt gpu_memory '80GB'", "instance_name,location,price,gpu_count,gpu_name,spot,gpu_memory\np5,us,98,8,H100,False,80GB\n", lambda r: _any(r) or rows_refused(r)),
        ("csv20: gpuhunt location with an escape", "instance_name,location,price,gpu_count,gpu_name,spot\np5,\x1b[31mus,98,8,H100,False\n", _no_raw("\x1b")),
        ("csv20: SkyPilot Price -1", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\np5,H100,8,192,2048,-1,,us\n", rows_refused),
        ("csv20: SkyPilot Price NaN", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\np5,H100,8,192,2048,NaN,,us\n", rows_refused),
        ("csv20: SkyPilot a spot price alone", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\np5,H100,8,192,2048,,30,us\n", lambda r: _any(r) or rows_refused(r)),
        ("csv20: SkyPilot with a BOM and CRLF", "\ufeffInstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\r\np5,H100,8,192,2048,98.32,,us\r\n", _overlay_usable()),
        ("csv20: 1,000 equal offers of one instance", G + ",instance\n" + "H100 80GB SXM,8,20,a\n" * 1000, _overlay_usable()),
    ]:
        case(name, {"p.csv": text}, imp, expect="any", check=check)
    case("csv20: SkyPilot in UTF-16", {"p.csv": "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\np5,H100,8,192,2048,98.32,,us\n".encode("utf-16")},
         imp, expect="any", check=_overlay_usable())

    # ------------------------------------------------------------ one instance name for two GPUs; misspelt GPUs
    for name, text in [
        ("csv20: gpuwise layout, instance 'i1' for an H100 and a 4090", f"{G},instance\nH100 80GB SXM,8,20,i1\nRTX 4090,8,10,i1\n"),
        ("csv20: SkyPilot, p5.48xlarge listed with H100 and A100-80GB", "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region\np5.48xlarge,H100,8,192,2048,98.32,,us-east-1\np5.48xlarge,A100-80GB,8,96,1152,40,,us-east-1\n"),
        ("csv20: gpuhunt, one instance_name for two GPUs", "instance_name,location,price,gpu_count,gpu_name,spot\ng1,us,20,8,H100,False\ng1,us,10,8,L4,False\n"),
    ]:
        case(name, {"p.csv": text}, imp, expect="any", check=lambda r: _overlay_usable()(r) and "already an offer" in r.stdout + r.stderr)
    case("csv20: the same instance for two GPUs, then a recommend with it", {"p.csv": f"{G},instance\nH100 80GB SXM,8,20,i1\nRTX 4090,8,10,i1\n", "r.yaml": LORA},
         imp, expect="any", check=lambda r: _overlay_usable()(r) and _recommends(r))
    for name, text, words in [
        ("csv20: 'H100 80GB SMX' (letters swapped)", f"{G}\nH100 80GB SMX,8,20\n", ("did you mean", "h100-80gb-sxm")),
        ("csv20: 'RTX 4O90' (a letter O)", f"{G}\nRTX 4O90,8,10\n", ("did you mean", "rtx-4090")),
        ("csv20: 'L40S' written 'L40 S' and 'L4OS'", f"{G}\nL4OS,8,10\n", ("did you mean",)),
        ("csv20: three rows, each GPU misspelt its own way", f"{G}\nH100 80GB SMX,8,20\nRTX 4O90,8,10\nA10OG,1,1\n", ("h100-80gb-sxm", "rtx-4090")),
        ("csv20: zh, a misspelt GPU", f"{G}\nH10O,8,20\n", ("h100-80gb-sxm",)),
    ]:
        case(name, {"p.csv": text}, imp + (["--lang", "zh"] if "zh" in name else []), expect="any", check=_said(*words))
    case("csv20: one good row, one misspelt (imported, the other listed)", {"p.csv": f"{G}\nH100 80GB SXM,8,20\nRTX 4O90,8,10\n"}, imp, expect="any",
         check=_left_out("did you mean", "rtx-4090"))

    # ------------------------------------------------------------ YAML and JSON features in plans and proposals
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 9) + "]\n" for i in range(8))
    pl = ["plan", "plan.yaml", "--format", "json"]
    for name, text, check in [
        ("yaml20: plan with an alias bomb beside it", PLAN + bomb, _refused("plan.yaml")),
        ("yaml20: plan horizon !!python/object/apply:os.system", PLAN.replace("horizon_months: 12", "horizon_months: !!python/object/apply:os.system ['touch PWNED']"), lambda r: _refused("plan.yaml")(r) and not Path(r.cwd, "PWNED").exists()),
        ("yaml20: plan horizon_months twice", PLAN.replace("horizon_months: 12", "horizon_months: 12\nhorizon_months: 24"), _refused("plan.yaml", "duplicate key")),
        ("yaml20: plan with a NUL byte", PLAN.replace("lora-8b", "lora\x00-8b", 1), _refused("plan.yaml")),
        ("yaml20: plan indented by tabs", PLAN.replace("\n  - name:", "\n\t- name:"), _refused("plan.yaml")),
        ("yaml20: plan with a BOM", "\ufeff" + PLAN, _json_ok),
        ("yaml20: plan horizon 99999999999999999999999", PLAN.replace("horizon_months: 12", "horizon_months: 99999999999999999999999"), _refused("plan.yaml", "horizon_months")),
        ("yaml20: plan horizon 0x3C (sixty in hex)", PLAN.replace("horizon_months: 12", "horizon_months: 0x3C"), _refused("plan.yaml", "horizon_months")),
        ("yaml20: plan horizon 61", PLAN.replace("horizon_months: 12", "horizon_months: 61"), _refused("plan.yaml", "horizon_months")),
        ("yaml20: plan as JSON", json.dumps(yaml.safe_load(PLAN)), _json_ok),
    ]:
        case(name, {"plan.yaml": text}, pl, expect="any", check=check)
    au = ["audit", "p.yaml", "--format", "json"]
    for name, text, check in [
        ("yaml20: proposal with an alias bomb beside it", PROP + bomb, _refused("p.yaml")),
        ("yaml20: proposal count !!python/object/new:os.system", PROP.replace("count: 8", "count: !!python/object/new:os.system ['touch PWNED']", 1), lambda r: _refused("p.yaml")(r) and not Path(r.cwd, "PWNED").exists()),
        ("yaml20: proposal hardware gpu twice", PROP.replace("  gpu: ", "  gpu: rtx-4090\n  gpu: ", 1), _refused("p.yaml", "duplicate key")),
        ("yaml20: proposal count 10**30", PROP.replace("count: 8", "count: " + "1" + "0" * 30, 1), _refused("p.yaml", "count")),
        ("yaml20: proposal with a NUL byte", PROP.replace("hardware:", "hardware:\x00", 1), _refused("p.yaml")),
        ("yaml20: proposal indented by a tab", PROP.replace("\n  gpu:", "\n\tgpu:", 1), _refused("p.yaml")),
        ("yaml20: proposal workload with a merge key under it", PROP.replace("workload:\n", "workload:\n  <<: {seq_len: 1024, batch_size: 2}\n", 1), lambda r: r.returncode in (0, 1) and _clean(r)),
        ("yaml20: proposal as JSON", json.dumps(yaml.safe_load(PROP)), lambda r: r.returncode in (0, 1) and _clean(r)),
        ("yaml20: proposal as JSON, a key twice", json.dumps(yaml.safe_load(PROP))[:-1] + ', "title": "again"}', _refused("p.yaml", "duplicate key")),
    ]:
        case(name, {"p.yaml": text}, au, expect="any", check=check)
    rj = ["recommend", "r.json", "--format", "json"]
    lora = yaml.safe_load(LORA)
    for name, text, check in [
        ("json20: requirements as JSON (r.json)", json.dumps(lora), _json_ok),
        ("json20: requirements JSON with a list nested 10,000 deep", json.dumps(lora)[:-1] + ', "x": ' + "[" * 10000 + "]" * 10000 + "}", _refused("r.json")),
        ("json20: requirements JSON with a mapping nested 5,000 deep", json.dumps(lora)[:-1] + ', "x": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}", _refused("r.json")),
        ("json20: requirements JSON with 1e999", json.dumps(lora).replace('"seq_len": 4096', '"seq_len": 1e999'), _refused("r.json", "seq_len")),
        ("json20: requirements JSON with a // comment", "// the team's file\n" + json.dumps(lora), _refused("r.json")),
        ("json20: requirements JSON with a trailing comma (YAML's flow mapping takes it)", json.dumps(lora)[:-1] + ",}", _json_ok),
        ("json20: requirements JSON, workload twice", json.dumps(lora)[:-1] + ', "workload": {"task": "inference"}}', _refused("r.json", "duplicate key")),
        ("json20: requirements JSON in UTF-16", json.dumps(lora).encode("utf-16"), _json_ok),
    ]:
        case(name, {"r.json": text}, rj, expect="any", check=check)

    # ------------------------------------------------------------ -o onto /dev/full or a folder, from every writing command
    batch = {"b/a.yaml": PROP, "b/c.yaml": REJECT}
    for name, files, argv, check in [
        ("out20: plan -o /dev/full", {"plan.yaml": PLAN}, ["plan", "plan.yaml", "-o", "/dev/full", "--format", "md"], lambda r: r.returncode == 2 and _one(r)),
        ("out20: audit -o /dev/full", {"p.yaml": PROP}, ["audit", "p.yaml", "-o", "/dev/full", "--format", "json"], lambda r: r.returncode == 2 and _one(r)),
        ("out20: a batch -o /dev/full", batch, ["audit", "b", "-o", "/dev/full", "--format", "json"], lambda r: r.returncode == 2 and _one(r)),
        ("out20: prices import -o /dev/full (a device, not a folder)", {"p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n"}, ["prices", "import", "p.csv", "--provider", "m", "-o", "/dev/full"], lambda r: r.returncode == 2 and _one(r)),
        ("out20: plan -o onto a folder", {"plan.yaml": PLAN, "d/.keep": ""}, ["plan", "plan.yaml", "-o", "d"], lambda r: r.returncode == 2 and _one(r)),
        ("out20: audit -o . (the working folder)", {"p.yaml": PROP}, ["audit", "p.yaml", "-o", "."], lambda r: r.returncode == 2 and _one(r)),
        ("out20: plan -o onto the plan through sub/../", {"plan.yaml": PLAN, "sub/.keep": ""}, ["plan", "plan.yaml", "-o", "sub/../plan.yaml", "--format", "md"], lambda r: _kept("plan.yaml", PLAN)(r) and r.returncode == 2),
        ("out20: audit -o onto the proposal through a linked folder", {"p.yaml": PROP, "l": ("LINK", ".")}, ["audit", "p.yaml", "-o", "l/p.yaml", "--format", "md"], lambda r: _kept("p.yaml", PROP)(r) and r.returncode == 2),
        ("out20: prices import -o a folder that links to the built-in knowledge", {"p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n", "kb": ("LINK", str(ROOT / "knowledge"))}, ["prices", "import", "p.csv", "--provider", "m", "-o", "kb"], lambda r: r.returncode == 2 and _one(r) and not (ROOT / "knowledge" / "clouds.yaml").read_text(encoding="utf-8").startswith("# Knowledge overlay")),
    ]:
        case(name, files, argv, expect="any", check=check, real="/dev/full" in argv)

    # ------------------------------------------------------------ every command: unknown options, help in Chinese on ASCII
    for cmd in (["ask"], ["recommend", "r.yaml"], ["audit", "p.yaml"], ["plan", "plan.yaml"], ["estimate", "r.yaml"], ["gpus"], ["prices"],
                ["prices", "import", "p.csv", "-o", "ov"], ["rules"], ["explain", "MEM-FITS"]):
        case(f"cli20: {cmd[0]}{' import' if 'import' in cmd else ''} --frmat json (misspelt)", {"r.yaml": LORA, "p.yaml": PROP, "plan.yaml": PLAN, "p.csv": "gpu,gpus,price\nH100 80GB SXM,8,20\n"},
             [*cmd, "--frmat", "json"], expect="any", check=lambda r: r.returncode == 2 and _one(r) and "--frmat" in r.stderr)
    for cmd in (["ask"], ["plan"], ["prices", "import"], ["explain"]):
        case(f"cli20: {' '.join(cmd)} --help --lang zh, PYTHONIOENCODING=ascii", {}, [*cmd, "--help", "--lang", "zh"], expect="any", real=True,
             env={"PYTHONIOENCODING": "ascii"}, check=lambda r: r.returncode == 0 and _clean(r) and "usage" in r.stdout.lower() + r.stdout)

    # ------------------------------------------------------------ estimate, gpus, rules, explain with odd names and counts
    est = ["estimate", "r.yaml", "--format", "json"]
    for name, argv, check in [
        ("cmd20: estimate --gpu A100 (a family: the default or the choices)", [*est, "--gpu", "A100"], lambda r: _json_ok(r) or _refused("a100")(r)),
        ("cmd20: estimate --gpu 'a100 80gb'", [*est, "--gpu", "a100 80gb"], _json_ok),
        ("cmd20: estimate --gpu 4090", [*est, "--gpu", "4090"], _json_ok),
        ("cmd20: estimate --gpu 'H100-80G' --gpus 8.0", [*est, "--gpu", "H100-80G", "--gpus", "8.0"], _any),
        ("cmd20: estimate --gpu h100 --gpus 3 (an odd count)", [*est, "--gpu", "h100", "--gpus", "3"], _json_ok),
        ("cmd20: estimate --gpu h100 --gpus 100001", [*est, "--gpu", "h100", "--gpus", "100001"], _refused("--gpus")),
        ("cmd20: estimate --gpu 'RTX 4O90' (a letter O)", [*est, "--gpu", "RTX 4O90"], _refused("did you mean", "rtx-4090")),
        ("cmd20: estimate --format md (text or json only)", ["estimate", "r.yaml", "--format", "md"], _refused("--format")),
        ("cmd20: explain MEM-FIT (misspelt)", ["explain", "MEM-FIT"], _refused("MEM-FITS")),
        ("cmd20: explain --format json a house rule replacing a built-in", ["explain", "MEM-FITS", "--rules", "h", "--format", "json"], _json_ok),
        ("cmd20: rules --facts --format json", ["rules", "--facts", "--format", "json"], _json_ok),
        ("cmd20: rules with 300 house rules", ["rules", "--rules", "many", "--format", "json"], _json_ok),
        ("cmd20: gpus --format json", ["gpus", "--format", "json"], _json_ok),
        ("cmd20: prices --gpu A100 --format json (a family lists every variant)", ["prices", "--gpu", "A100", "--format", "json"], _json_ok),
    ]:
        many = "schema_version: 1\nruleset: many\nstep: memory\ndescription: many rules\nrules:\n" + "".join(CUDA_RULE.split("rules:\n", 1)[1].replace("HOUSE-CUDA-ONLY", f"HOUSE-R{i:03}") for i in range(300))
        replace = CUDA_RULE.replace("HOUSE-CUDA-ONLY", "MEM-FITS")
        case(name, {"r.yaml": LORA, "h/a.yaml": replace, "many/a.yaml": many}, argv, expect="any", check=check)


def _recommends(r) -> bool:
    """A recommend with the import's overlay answers (0 or 1)."""
    from tests.clirun import gpuwise

    again = gpuwise("recommend", "r.yaml", "--knowledge", "ov", "--format", "json", cwd=r.cwd)
    return again.returncode in (0, 1) and _clean(again)


def run_mode(argv: list[str], e: dict, tmp: Path, Res) -> Any:
    """``ASK20 SCRIPT ARGS...``: ``gpuwise ARGS`` in a pseudo-terminal, SCRIPT a JSON list of [text,
    keys]: each ``keys`` sent once ``text`` is shown ('' sends 0.8 s after the last); then the run is
    awaited (150 s after a last Enter at 'Ready?', else 40 s) and sent Ctrl-C if still waiting (its exit status is then 130, as a person's Ctrl-C would end it).
    ``SH20 LINE``: ``python -m gpuwise LINE`` through bash (redirections as written)."""
    if argv[0] == "SH20":
        p = subprocess.run(["bash", "-c", f"exec {sys.executable} -m gpuwise {argv[1]}"], capture_output=True, cwd=tmp, env=e, timeout=120)
        return Res(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"), tmp)
    import io

    import pexpect

    e = {**e, "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm-256color"}
    e.pop("NO_COLOR", None)
    log = io.StringIO()
    child = pexpect.spawn(sys.executable, ["-m", "gpuwise", *argv[2:]], cwd=str(tmp), env=e, encoding="utf-8",
                          codec_errors="replace", timeout=60, dimensions=(50, 220))
    child.delaybeforesend = None
    child.logfile_read = log
    try:
        for text, keys in json.loads(argv[1]):
            if text:
                child.expect_exact([text, pexpect.EOF], timeout=60)
            else:
                time.sleep(0.8)
            if not child.isalive():
                break
            child.send(keys)
        script = json.loads(argv[1])
        whole = script and script[-1] == [READY, "\r"]  # the questionnaire ran to its end: a recommend runs
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=150 if whole else 40) == 1:
            log.write(NOT_ENDED)
            child.send("\x03")
            child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=30)
    except pexpect.TIMEOUT:
        child.send("\x03")
        child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=30)
    finally:
        child.close(force=True)
    rc = child.exitstatus if child.exitstatus is not None else 128 + (child.signalstatus or 0)
    shown = log.getvalue()
    return Res(rc, shown, shown, tmp)
