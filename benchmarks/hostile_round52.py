# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-two of the hostile corpus: what a buyer pastes from a vendor's quote or a dashboard -- a GPU named as
the quote names it ('HGX H100 8-GPU', 'H100 80GB HBM3 SXM5', 'A100 80GB PCIe Gen4', 'RTX 4090 24GB GDDR6X'), prices
in other locales' forms ('1 234,56', '€1.234,56', '$30,000.00/GPU', '$19.92/hr for 8 GPUs'), request rates per minute
in words, latencies with their comparison ('<500ms', '≤ 500 ms', '2,000 ms'), ISO 8601 durations ('P14D', 'P3M',
'P1Y', 'PT0.5S'), growth per month and per year as people write it ('5%/mo', '60%/yr'), a plan's month as a quarter
('2027-Q2', 'Q3') or a word ('now', 'next month'), a version key from another tool's file format, ``~`` and
``$HOME`` in a quoted -o, ``--json`` for ``--format json``; and the neighbours already clean (a DGX B200, the H100 NVL
as a quote words it, YAML document markers, multi-document and extension-key files, JSON files, an empty file, a
folder, '-', '300 rpm', '$1.2k'). Added to benchmarks/hostile_corpus.py's table by :func:`add`.

The checks that name a plan's month compute it from today's date, as the plan does (month 1 is the current month).

Run on main at 7d24b25f (before this branch's fixes, with the round's file added: 006c0b01): 65 cases, 22 clean; on
this branch 65 of 65. Fixed (each with its test in tests/test_hostile52.py, 63 of whose 71 tests fail on 7d24b25f):

* a GPU with its memory type or PCIe generation said ('H100 80GB HBM3 SXM5', 'A100 80GB PCIe Gen4', 'RTX 4090 24GB
  GDDR6X', 'MI300X 192GB HBM3') was an unknown GPU: read as the part that has them (names.py rule 7, gpus.yaml's
  memory.type and link.pcie_gen); 'H100 80GB HBM2e' is the PCIe card; 'HGX H100 8-GPU' offered the H20: the GPU and
  the count (names._counted);
* '1 234,56' (spaces and a decimal comma), '$30,000.00/GPU', '30,000 per GPU', '€1.234,56', '2,49 €/h' and '$19.92/hr
  for 8 GPUs' were pydantic's words: the number (one GPU's) or the currency said (notation._grouped, units);
* '300 requests per minute', '2,000 ms', '<500ms', '≤ 500 ms', ISO 8601 durations and a growth '5%/mo' or '60%/yr'
  were pydantic's words: the number in the field's unit offered (units, prose);
* a plan's month as a quarter or 'now' / 'next month': its number offered (dates.plan_month_text);
* a top-level 'version' / 'apiVersion' listed the valid keys: said to be none of gpuwise's (schema.explain_validation);
* -o '~/r.md' / '$HOME/r.md' said only that the folder does not exist: the shell's word named (render/output.py);
* --json offered nothing: --format json (cli_words.OPTION_ALIASES); JSON's NaN: not a finite number (notation).

Hostile52b (the round's three leftovers, 13 cases named 'left52:'; 3 clean on 35ee7b88 before its fixes, the guards:
a reseller's 60,000 a GPU, 'Total' beside a GPU named in another column, a key 'xserve'; 13 of 13 after; tests in
tests/test_hostile52b.py):

* 8 H100 bought at 289,000 a GPU (an HGX server's quote) drew TCO-UNIT-PRICE-ABOVE-MARKET alone:
  TCO-UNIT-PRICE-SERVER says it reads as the 8-GPU machine's price (prices.yaml's 317,000) and offers 29,125 a GPU
  (289,000 / 8 less the 7,000 host share the audit adds); likewise a 4-GPU server's and one node's of two;
* a price CSV's totals row ('Total', 'Grand total:', 'SUM', '合计', '总计') was listed as a row whose GPU count is
  not a number: left out with a note naming its line;
* an x- key holding an anchor (Compose style), in a requirements file or a plan, listed the valid keys: said to be an
  extension key gpuwise does not read, with where an anchor goes.

Clean on main already: DGX B200, the H100 NVL as a quote words it, GB200 NVL72, '1.234,56', '$1.2k', '¥1,234.56' in a
CNY file, a server's price in unit_price_usd (above the market said), '300 rpm', '2s', '1 year', -o o.yaml, '-', YAML
document markers, two documents, an x- key, JSON files and lists, an empty file, a folder.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round51 import H100X8, LORA8, SERVE8, _buy, _rent

LAMBDA_H100 = 4.29  # knowledge/clouds.yaml: Lambda's listed rate a GPU-hour for an H100 SXM (as of 2026-09-25)


def _json(r) -> Any:
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def _refused_no(*words: str, absent: tuple[str, ...] = ("Input should be",)):
    """Refused in one line holding ``words`` and none of ``absent`` (pydantic's own words by default)."""
    return lambda r: _refused(*words)(r) and not any(w in r.stderr for w in absent)


def _read_as(gpu: str):
    """Estimated (exit 0, JSON, nothing on stderr but a note on how the name was read) on the catalog's ``gpu``."""
    def check(r) -> bool:
        doc = _json(r)
        return r.returncode == 0 and isinstance(doc, dict) and doc.get("gpu", {}).get("id") == gpu and "Traceback" not in r.stderr
    return check


def _answered(r) -> bool:
    return r.returncode in (0, 1) and not r.stderr.strip() and _json(r) is not None


def _plan_month(year: int, month: int) -> int:
    """The plan's month number of a calendar month: month 1 is the current one (plan/judge.py _warranties)."""
    today = dt.date.today()
    return (year * 12 + month) - (today.year * 12 + today.month) + 1


def _quarter_ahead(q: int) -> int:
    """The plan's month of the first month of the quarter ``q`` ahead (this month where this quarter is it)."""
    today = dt.date.today()
    first = 3 * (q - 1) + 1
    if first <= today.month <= first + 2:
        return 1
    year = today.year if first > today.month else today.year + 1
    return _plan_month(year, first)


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]
    _plan = functools.partial(_edited, plan)
    serve = {"r.yaml": json.dumps({"workload": SERVE8})}

    def est(gpu: str) -> list[str]:
        return ["estimate", "r.yaml", "--gpu", gpu, "--format", "json"]

    # ------------------------------------------------------------ a GPU as a vendor's quote names it
    for given, gpu in (("H100 80GB HBM3 SXM5", "h100-80gb-sxm"), ("H200 SXM5 141GB HBM3e", "h200-141gb-sxm"),
                       ("A100 80GB PCIe Gen4", "a100-80gb-pcie"), ("H100 PCIe Gen5 80GB", "h100-80gb-pcie"),
                       ("RTX 4090 24GB GDDR6X", "rtx-4090"), ("MI300X 192GB HBM3", "mi300x"),
                       ("H100 80GB HBM2e", "h100-80gb-pcie")):
        case(f"quote52: --gpu {given!r} (its memory type or PCIe generation said): read as {gpu}", serve, est(given), expect="any", check=_read_as(gpu))
    case("quote52: --gpu 'RTX 4090 24GB HBM3' (a memory the card does not have): refused, never read as the 4090", serve, est("RTX 4090 24GB HBM3"), expect="any",
         check=_refused("--gpu", "unknown gpu"))
    case("quote52: --gpu 'A100 80GB PCIe Gen5' (a PCIe generation the card does not have): refused", serve, est("A100 80GB PCIe Gen5"), expect="any",
         check=_refused("--gpu", "unknown gpu"))
    case("quote52: --gpu 'HGX H100 8-GPU' (the board and its GPUs): refused, h100-80gb-sxm and --gpus 8 offered", serve, est("HGX H100 8-GPU"), expect="any",
         check=_refused("--gpu", "h100-80gb-sxm", "--gpus 8"))
    acase("quote52: hardware.gpu 'HGX A100 8-GPU 80GB': refused, a100-80gb-sxm and count 8 offered", {**_rent(hourly_usd=LAMBDA_H100), "hardware": {**H100X8, "gpu": "HGX A100 8-GPU 80GB"}},
          _refused("p.yaml", "hardware.gpu", "a100-80gb-sxm", "count 8"))
    for given, gpu in (("DGX B200", "b200"), ("H100 PCIe 94GB NVL", "h100-nvl-94gb"), ("GB200 NVL72", "gb200"), ("NVIDIA HGX H200 141GB", "h200-141gb-sxm")):
        case(f"quote52: --gpu {given!r}: read as {gpu}", serve, est(given), expect="any", check=_read_as(gpu))

    # ------------------------------------------------------------ prices in other locales' forms
    for given, words in (("1 234,56", ("write 1234.56",)), ("1\u202f234,56", ("write 1234.56",)),
                         ("$30,000.00/GPU", ("write 30000",)), ("30,000 per GPU", ("write 30000",)),
                         ("€1.234,56", ("EUR",)), ("1.234,56", ("write 1234.56",)), ("$1.2k", ("write 1200",))):
        acase(f"price52: unit_price_usd {given!r}: refused, {' '.join(words)}", _buy(unit_price_usd=given),
              _refused_no("p.yaml", "acquisition.unit_price_usd", *words))
    acase("price52: hourly_usd '2,49 €/h': refused, EUR named", _rent(hourly_usd="2,49 €/h"), _refused_no("p.yaml", "acquisition.hourly_usd", "EUR"))
    acase("price52: hourly_usd '$19.92/hr for 8 GPUs' (the instance's price): refused, a GPU's 2.49 offered", _rent(hourly_usd="$19.92/hr for 8 GPUs"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49"))
    acase("price52: unit_price_usd '¥1,234.56' in a CNY proposal: refused, 1234.56 offered", {**_buy(unit_price_usd="¥1,234.56"), "constraints": {"currency": "CNY"}},
          _refused_no("p.yaml", "acquisition.unit_price_usd", "write 1234.56"))
    acase("price52: 8 H100 bought at unit_price_usd 289000 (an HGX server's quote in the GPU's field): audited, TCO-UNIT-PRICE-ABOVE-MARKET",
          {"title": "t", "workload": LORA8, "hardware": H100X8, "acquisition": {"mode": "buy", "unit_price_usd": 289000}},
          lambda r: _answered(r) and "TCO-UNIT-PRICE-ABOVE-MARKET" in {f.get("rule") for f in _json(r).get("findings", [])})

    # ------------------------------------------------------------ hostile52b: a whole machine's quote as the price a GPU
    def _buy_h100(price: float, **hw) -> dict:
        return {"title": "t", "workload": LORA8, "hardware": {**H100X8, **hw}, "acquisition": {"mode": "buy", "unit_price_usd": price}}

    def _fix(rule: str, *words: str, absent: tuple[str, ...] = ()):
        """Audited, ``rule`` among the findings with ``words`` in its fix, none of ``absent`` among the rules."""
        def check(r) -> bool:
            found = {f.get("rule"): f for f in (_json(r) or {}).get("findings", [])} if _answered(r) else {}
            return rule in found and all(w in found[rule].get("fix", "") for w in words) and not set(absent) & set(found)
        return check

    # knowledge/prices.yaml: an HGX H100 8-GPU server at 317,000 (Thinkmate, 2024-08-22); tco.yaml: 7,000 a GPU host share
    acase("left52: 8 H100 bought at unit_price_usd 289000 (an HGX server's quote): TCO-UNIT-PRICE-SERVER, write 29,125 (289,000 / 8 - 7,000)",
          _buy_h100(289000), _fix("TCO-UNIT-PRICE-SERVER", "$29,125", "$7,000"))
    acase("left52: 4 H100 at 158500 (a 4-GPU server's, half the 8-GPU one): TCO-UNIT-PRICE-SERVER over 4, write 32,625",
          _buy_h100(158500, count=4), _fix("TCO-UNIT-PRICE-SERVER", "$32,625"))
    acase("left52: 16 H100 on 2 nodes at 289000 (one node's quote): TCO-UNIT-PRICE-SERVER, write 29,125",
          _buy_h100(289000, count=16, nodes=2), _fix("TCO-UNIT-PRICE-SERVER", "$29,125"))
    acase("left52: 8 H100 at 60000 (a reseller's mark-up, no server's price): above the market, no server reading",
          _buy_h100(60000), _fix("TCO-UNIT-PRICE-ABOVE-MARKET", absent=("TCO-UNIT-PRICE-SERVER",)))

    # ------------------------------------------------------------ hostile52b: a price CSV's totals row
    imp = ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"]
    for label in ("Total", "Grand total:", "SUM", "合计", "总计"):
        case(f"left52: a price CSV's totals row {label!r}: left out with a note, the offers imported", {"c.csv": f"gpu,gpus,price\nH100 SXM,8,34.32\n{label},,34.32\n"}, imp,
             expect="any", check=lambda r: r.returncode == 0 and "left out 1 totals row (line 3)" in r.stdout and "could not use" not in r.stdout)
    case("left52: a price CSV row whose GPU is named beside 'Total' in another column: an offer, no totals row", {"c.csv": "instance,gpu,gpus,price\nTotal,H100 SXM,8,34.32\n"}, imp,
         expect="any", check=lambda r: r.returncode == 0 and "totals" not in r.stdout and "1 offer" in r.stdout)

    # ------------------------------------------------------------ hostile52b: a Compose-style x- key
    case("left52: an x- key holding an anchor: refused, no x- key read said, where an anchor goes", {"r.yaml": "x-serve: &s\n  task: inference\n  model: llama-3.1-8b\nworkload:\n  <<: *s\n  prompt_tokens: 1000\n"},
         est("h100"), expect="any", check=_refused_no("r.yaml", "x-serve", "no x- extension keys", "workload: &serve", absent=("valid keys",)))
    pcase("left52: an x- key in a plan: refused, no x- key read said", {"x-defaults": {"seq_len": 4096}, **plan},
          _refused_no("plan.yaml", "x-defaults", "no x- extension keys", absent=("valid keys",)), argv=("plan", "plan.yaml"))
    rcase("left52: a key 'xserve' (no dash): an unknown key with the valid keys, as before", {"xserve": 1, "workload": SERVE8},
          _refused_no("r.yaml", "xserve", "valid keys", absent=("x- extension",)))

    # ------------------------------------------------------------ rates and latencies as dashboards and SLOs write them
    rcase("rate52: requests_per_s '300 requests per minute': refused, 5 offered", {"workload": {**SERVE8, "requests_per_s": "300 requests per minute"}},
          _refused_no("r.yaml", "workload.requests_per_s", "write 5"))
    rcase("rate52: requests_per_s '300 rpm': refused, 5 offered", {"workload": {**SERVE8, "requests_per_s": "300 rpm"}}, _refused_no("r.yaml", "workload.requests_per_s", "write 5"))
    for given, meant in (("2,000 ms", 2000), ("<500ms", 500), ("≤ 500 ms", 500), ("PT0.5S", 500), ("2s", 2000)):
        rcase(f"lat52: max_ttft_ms {given!r}: refused, {meant} offered", {"workload": {**SERVE8, "max_ttft_ms": given}},
              _refused_no("r.yaml", "workload.max_ttft_ms", f"write {meant}"))

    # ------------------------------------------------------------ ISO 8601 durations
    for field, given, meant in (("deadline_days", "P14D", 14), ("deadline_days", "P2W", 14), ("project_months", "P1Y", 12), ("project_months", "1 year", 12)):
        rcase(f"iso52: constraints.{field} {given!r}: refused, {meant} offered", {"workload": LORA8, "constraints": {field: given}},
              _refused_no("r.yaml", f"constraints.{field}", f"write {meant}"), argv=("recommend", "r.yaml"))
    acase("iso52: acquisition.months 'P3M': refused, 3 offered", _rent(hourly_usd=LAMBDA_H100, months="P3M"), _refused_no("p.yaml", "acquisition.months", "write 3"))
    pcase("iso52: horizon_months 'P2Y': refused, 24 offered", _plan(lambda d: d.update(horizon_months="P2Y")), _refused_no("plan.yaml", "horizon_months", "write 24"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ growth as people write it
    for given, meant in (("5%/mo", "0.05"), ("5% MoM", "0.05"), ("60%/yr", "0.0399")):
        pcase(f"growth52: growth_per_month {given!r}: refused, {meant} offered", _plan(lambda d, g=given: d["workloads"][1]["cadence"].update(growth_per_month=g)),
              _refused_no("plan.yaml", "workloads[1].cadence.growth_per_month", f"write {meant}"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ a plan's month as a quarter or a word
    def _at(value) -> dict:  # the example plan's pretrain run, once, at ``value``
        return _plan(lambda d: d["workloads"][2].update(cadence={"at_month": value}))

    year = dt.date.today().year + 1
    for given, meant in ((f"{year}-Q2", _plan_month(year, 4)), (f"Q3 {year}", _plan_month(year, 7)), ("Q3", _quarter_ahead(3)),
                         ("now", 1), ("next month", 2)):
        pcase(f"quarter52: at_month {given!r}: refused, at_month: {meant} offered", _at(given),
              _refused_no("plan.yaml", "workloads[2].cadence.at_month", f"at_month: {meant}"), argv=("plan", "plan.yaml"))
    pcase("quarter52: start_month 'Q1': refused, its first month's number offered", _plan(lambda d: d["workloads"][0]["cadence"].update(start_month="Q1")),
          _refused_no("plan.yaml", "workloads[0].cadence.start_month", f"start_month: {_quarter_ahead(1)}"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ another format's version key
    for top in ({"version": 2}, {"apiVersion": "gpuwise/v1", "kind": "Requirements"}):
        rcase(f"ver52: a requirements file with {next(iter(top))}: refused, no version read said", {**top, "workload": SERVE8},
              _refused_no("r.yaml", next(iter(top)), "no version", absent=("valid keys",)))
    pcase("ver52: a plan with schema_version 3: refused, no version read said", {"schema_version": 3, **plan},
          _refused_no("plan.yaml", "schema_version", "no version", absent=("valid keys",)), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ the command line as other tools take it
    body = {"r.yaml": json.dumps({"workload": SERVE8})}
    case("cli52: -o '~/r.md' (quoted: the shell left ~): refused, ~ named as the shell's", body, ["recommend", "r.yaml", "-o", "~/r.md"], expect="any",
         check=lambda r: _refused("~/r.md", "~")(r) and "shell" in r.stderr and not (r.cwd / "~").exists())
    case("cli52: -o '$HOME/r.md' (quoted: the shell left the variable): refused, $HOME named", body, ["recommend", "r.yaml", "-o", "$HOME/r.md"], expect="any",
         check=lambda r: _refused("$HOME", "shell")(r))
    case("cli52: --json: refused, --format json offered", body, ["recommend", "r.yaml", "--json"], expect="any", check=_refused("--json", "--format json"))
    case("cli52: --json with -o o.json: refused, --format json offered, nothing written", body, ["recommend", "r.yaml", "--json", "-o", "o.json"], expect="any",
         check=lambda r: _refused("--format json")(r) and not (r.cwd / "o.json").exists())
    case("cli52: -o o.yaml: refused, the suffixes named", body, ["recommend", "r.yaml", "-o", "o.yaml"], expect="any", check=_refused("o.yaml", ".md, .html, .json"))
    case("cli52: estimate - (standard input): refused, a path asked", body, ["estimate", "-", "--gpu", "h100"], expect="any", check=_refused("standard input"))

    # ------------------------------------------------------------ files: YAML and JSON features, empty and folders
    yml = "workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 200\n"
    case("file52: '---' and '...' around the one document: estimated", {"r.yaml": "---\n" + yml + "...\n"}, est("h100"), expect="any", check=_read_as("h100-80gb-sxm"))
    case("file52: two documents (two workloads one after the other): refused, the second named", {"r.yaml": yml + "---\n" + yml}, est("h100"), expect="any",
         check=_refused("r.yaml", "line 6", "more than one YAML document"))
    case("file52: an x- extension key holding an anchor (Compose style): refused, the key named", {"r.yaml": "x-serve: &s\n  task: inference\n  model: llama-3.1-8b\nworkload:\n  <<: *s\n  prompt_tokens: 1000\n"},
         est("h100"), expect="any", check=_refused("r.yaml", "x-serve"))
    case("file52: a JSON requirements file: recommended", {"r.json": json.dumps({"workload": SERVE8})}, ["recommend", "r.json", "--format", "json"], expect="any", check=_answered)
    case("file52: a JSON file holding a list of one requirements object: refused, a mapping asked", {"r.json": json.dumps([{"workload": SERVE8}])}, ["estimate", "r.json", "--gpu", "h100"], expect="any",
         check=_refused("r.json", "mapping", "list"))
    case("file52: JSON's NaN (Python's json.dumps writes it): refused as not a number", {"r.json": '{"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": NaN}}'},
         ["estimate", "r.json", "--gpu", "h100"], expect="any", check=_refused_no("r.json", "workload.prompt_tokens", "NaN"))
    case("file52: an empty file (0 bytes): refused, empty said", {"r.yaml": ""}, ["estimate", "r.yaml", "--gpu", "h100"], expect="any", check=_refused("r.yaml", "empty"))
    case("file52: a folder given as the requirements file: refused", {"d/x.yaml": yml}, ["estimate", "d", "--gpu", "h100"], expect="any", check=_refused("d", "directory"))
