# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round twenty-three of the hostile corpus: where the 2,416 cases of rounds 1-22 were thinnest. Counted
over the table before this round: ``plan`` had 354 cases, almost all on the example's fields (no case
named ``owned[].paid_cny``, the ``*_cny`` budgets or ``constraints.market``; one each ``targets.concurrency``
and ``max_tpot_ms``; 3-5 ``start_month``, ``end_month``, ``budget_total_usd``); ``audit`` none on
``unit_price_cny``, ``hourly_cny``, ``region``, ``cross_region_tb_per_month``, ``facility.rack_units`` or
``cooling``, one or two on ``used_cards[].purchased``, ``manufactured``, ``fan_speed_percent``,
``power_under_load_w``, ``instance``, three on ``spot``; ``prices import`` 216 cases on CSVs but two on a
file of another kind (JSON); ``ask`` 64, of which a dozen resume an answers file; the formats other than
json (text, md, html) 1-13 a command, ``plan --lang zh`` 13. So: a plan's owned hardware, year and
budgets; price files' columns, units, dates and currencies; a proposal's odd quantities, prices, vendors
and facility; answers files resumed (with and without a terminal); output paths given twice or onto
folders; numbers at the ends of the float range; unicode names; empty files; YAML anchors, merge keys
and duplicate keys -- in text, md, html and json, English and Chinese. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at cdc42a5d (before any change): 146 cases, 137 clean. Fixed, with tests in
tests/test_hostile_twenty_third.py (now 146 clean):

* A plan's amount written in another currency (``paid_usd: '¥50000'`` or ``budget_total_usd: '1500000
  CNY'`` in a USD plan) was refused at '(top level)'; the line now names ``owned[0].paid_usd`` or
  ``constraints.budget_total_usd`` (gpuwise/plan/schema.py; 2 cases).
* The plan's checks that need the whole file (``at_month`` or ``start_month`` past the horizon, a name
  used twice or differing only in case) and a proposal listing more used cards than ``hardware.count``
  were refused at '(top level)'; they now name ``workloads[1].cadence.at_month``, ``workloads[1].name``,
  ``used_cards`` (gpuwise/errors.py ``SaidAt``, read by gpuwise/inputs/schema.py; 3 cases).
* ``ask`` resuming an answers file in a terminal said ``framework: 'ollama'`` (or 'vllmm') is not one of
  the eight names and asked again, without the 'did you mean llama.cpp?' ``recommend`` gives the same
  file (round 22's note); the resumed note and the plan questions' refusals now carry it, en and zh
  (gpuwise/inputs/schema.py ``literal_close``, one function for both; gpuwise/ask; 2 cases).
* ``prices import`` given a JSON export was refused as a gpuhunt CSV whose header lacks
  instance_name, price, gpu_count, gpu_name; it is now 'a JSON file, not CSV text'. A header in
  capitals (``GPU,GPUS,PRICE``) was also read as gpuhunt's layout, offering 'PRICE' for gpuhunt's
  'price' alone; it is now matched to gpuwise's own layout and each column to rename is named
  (gpuwise/prices/catalog_csv.py; 2 cases).

Seen and left (not failures of this table's promise):

* ``cadence.end_month`` past the horizon runs to the plan's end (as rounds 15 and 21 take it), while
  ``start_month`` past it is refused; docs/formats.md gives both '1 to the horizon'.
* A plan and a proposal have no ``_cny`` field names (``budget_per_quarter_cny``, ``paid_cny``,
  ``unit_price_cny``, ``hourly_cny``), while a requirements file takes ``budget_cny``: each is refused as an
  unknown key with the ``_usd`` name as the close match, which is right (their amounts are in
  ``constraints.currency``), but a CNY user of ``ask``'s requirements files may expect the same names.
* ``ask --answers FILE`` without a terminal points to ``gpuwise recommend FILE`` before reading the file,
  so a broken answers file (a duplicate key, ``budget_cny`` with ``currency: USD``) is only described by
  that recommend (one line, exit 2 both times).
* A batch audit's JSON is one document a line (the same proposal given twice is audited twice).
"""
from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import yaml

from benchmarks.hostile_givens import givens
from benchmarks.hostile_round12 import _clean, _ok, _one, _refused, rows_refused
from benchmarks.hostile_round20 import READY, TASK
from benchmarks.hostile_round21 import _finite_json

PLAN23 = """horizon_months: 6
owned:
  - {gpu: RTX 4090, count: 4, servers: 1, hosting: office, bought: 2024-03, paid_usd: 7200}
workloads:
  - name: chat
    workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 500, output_tokens: 200}
    cadence: {continuous: true, hours_per_day: 12}
    targets: {requests_per_s: 1}
  - name: tune
    workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 5.0e7}
    cadence: {per_month: 1}
    deadline_days: 5
constraints: {budget_per_quarter_usd: 20000}
"""
CSV23 = "gpu,gpus,price\nH100 80GB SXM,8,20\n"
SERVE = {"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 300}}


def _dump(d: Any) -> str:
    return yaml.safe_dump(d, allow_unicode=True, width=10**9, sort_keys=False)


def _edited(doc: dict, edit: Any) -> dict:
    """A deep copy of ``doc`` after ``edit(copy)`` (rounds 50 and 51: the example plan changed in place)."""
    d = copy.deepcopy(doc)
    edit(d)
    return d


def _edit(doc: dict, path: str, value: Any) -> dict:
    """``doc`` with ``path`` (dotted; a number indexes a list) set to ``value`` (``...`` removes it)."""
    d = copy.deepcopy(doc)
    cur: Any = d
    keys = path.split(".")
    for k in keys[:-1]:
        cur = cur[int(k)] if isinstance(cur, list) else cur.setdefault(k, {})
    last = keys[-1]
    if value is ...:
        cur.pop(last, None)
    elif isinstance(cur, list):
        cur[int(last)] = value
    else:
        cur[last] = value
    return d


def _json_ok(r) -> bool:
    return _finite_json(r)


def _plan_json(pred):
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        return bool(pred(json.loads(r.stdout)))
    return check


def _json_lines(n: int):
    """Answered (0 or 1) with ``n`` JSON documents, a line each (a batch audit's JSON), none holding NaN."""
    def check(r) -> bool:
        lines = [x for x in r.stdout.split("\n") if x.strip()]
        if not _ok(r) or len(lines) != n:
            return False
        try:
            [json.loads(x) for x in lines]
        except ValueError:
            return False
        return "NaN" not in r.stdout and "Infinity" not in r.stdout
    return check


def _either(*checks):
    return lambda r: any(c(r) for c in checks)


def _text_ok(*words: str):
    """Answered (0 or 1), no traceback, no unformatted placeholder or nan (as a word: ' nan' is also the start
    of ' nanochat', which MEM-PIN-NOT-ON-STACK's fix names), each of ``words`` shown."""
    def check(r) -> bool:
        t = r.stdout
        return (_ok(r) and "%(" not in t and not re.search(r"\bnan\b", t) and "{{" not in t
                and all(w in t for w in words))
    return check


def _untouched(name: str, text: str):
    """Refused in one line, and ``name`` still holds ``text``."""
    def check(r) -> bool:
        p = Path(r.cwd, name)
        return r.returncode == 2 and _one(r) and p.is_file() and p.read_text(encoding="utf-8") == text
    return check


def _no_file(name: str, *words: str):
    """Refused in one line holding ``words``, and no ``name`` written (nor a temporary beside it)."""
    def check(r) -> bool:
        left = [p.name for p in Path(r.cwd).iterdir() if p.name.startswith((name, "." + name))]
        return _refused(*words)(r) and not left
    return check


def _overlay_reads(r) -> bool:
    """The import wrote an overlay that ``prices --knowledge ov`` then reads."""
    from tests.clirun import gpuwise

    if not (r.returncode == 0 and _clean(r)):
        return False
    again = gpuwise("prices", "--knowledge", "ov", "--format", "json", cwd=r.cwd)
    return again.returncode == 0 and _clean(again)


def add(case, ns: dict[str, Any]) -> None:
    LORA, PROP, _PLAN, _smi_text, _CUDA_RULE, _USED, _csv, _patched, _smi, _wl, _prop, _plan, _REJECT = givens(ns)
    plan_doc = yaml.safe_load(PLAN23)
    prop_doc = yaml.safe_load(PROP)
    plan = ["plan", "plan.yaml", "--format", "json"]

    def pcase(name, text, check, argv=plan):
        case(name, {"plan.yaml": text}, argv, expect="any", check=check)

    # ------------------------------------------------------------ plan: the year of work
    for name, path, value, check in [
        ("plan23: horizon_months '6' (text)", "horizon_months", "6", _json_ok),
        ("plan23: start_month after end_month", "workloads.1.cadence", {"per_month": 1, "start_month": 5, "end_month": 2}, _refused("plan.yaml", "start_month")),
        ("plan23: end_month past the horizon (runs to the plan's end, as rounds 15 and 21 take it)", "workloads.1.cadence", {"per_month": 1, "end_month": 7}, _json_ok),
        ("plan23: at_month past the horizon", "workloads.1.cadence", {"at_month": 7}, _refused("plan.yaml: workloads[1].cadence.at_month: ")),
        ("plan23: growth_per_month '10%'", "workloads.0.cadence", {"continuous": True, "growth_per_month": "10%"}, _either(_refused("plan.yaml", "growth_per_month"), _json_ok)),
        ("plan23: targets.max_tpot_ms 1e-9 (no copy meets it)", "workloads.0.targets", {"requests_per_s": 1, "max_tpot_ms": 1e-9}, _either(_refused("plan.yaml"), _json_ok)),
        ("plan23: two workloads named alike", "workloads.1.name", "chat", _refused("plan.yaml: workloads[1].name: ", "chat")),
        ("plan23: workload name in Chinese", "workloads.0.name", "聊天服务", _json_ok),
        ("plan23: workload name with RTL override", "workloads.0.name", "chat\u202etxt.exe", lambda r: r.returncode in (0, 1, 2) and _clean(r) and "\u202e" not in r.stderr),
    ]:
        pcase(name, _dump(_edit(plan_doc, path, value)), check)

    # ------------------------------------------------------------ plan: owned hardware
    for name, value, check in [
        ("plan23: owned hosting misspelt 'ofice'", {"gpu": "RTX 4090", "count": 4, "hosting": "ofice"}, _refused("plan.yaml", "hosting", "office")),
        ("plan23: owned bought a full date", {"gpu": "RTX 4090", "count": 4, "bought": "2024-03-15"}, _either(_refused("plan.yaml", "bought"), _json_ok)),
        ("plan23: owned bought 2099-01 (the future)", {"gpu": "RTX 4090", "count": 4, "bought": "2099-01"}, _refused("plan.yaml", "bought")),
        ("plan23: owned paid_usd '$7,200'", {"gpu": "RTX 4090", "count": 4, "paid_usd": "$7,200"}, _json_ok),
        ("plan23: owned paid_usd '¥50000' in a USD plan", {"gpu": "RTX 4090", "count": 4, "paid_usd": "¥50000"}, _refused("plan.yaml: owned[0].paid_usd: ", "CNY")),
        ("plan23: owned paid_cny in a USD plan", {"gpu": "RTX 4090", "count": 4, "paid_cny": 50000}, _refused("plan.yaml", "paid")),
        ("plan23: owned gpu a Chinese alias '４０９０' (fullwidth)", {"gpu": "ＲＴＸ ４０９０", "count": 4}, _either(_refused("plan.yaml", "gpu"), _json_ok)),
    ]:
        pcase(name, _dump(_edit(plan_doc, "owned.0", value)), check)
    pcase("plan23: owned the same GPU twice", _dump(_edit(plan_doc, "owned", [{"gpu": "RTX 4090", "count": 4}, {"gpu": "rtx-4090", "count": 2, "hosting": "colocation"}])),
          _either(_json_ok, _refused("plan.yaml", "owned")))
    pcase("plan23: owned 64 entries by anchor and alias", PLAN23.replace("owned:\n  - {gpu: RTX 4090, count: 4, servers: 1, hosting: office, bought: 2024-03, paid_usd: 7200}\n",
          "owned:\n  - &o {gpu: RTX 4090, count: 1}\n" + "  - *o\n" * 63), _either(_json_ok, _refused("plan.yaml", "owned")))

    # ------------------------------------------------------------ plan: budgets and currency
    for name, cons, check in [
        ("plan23: budget_per_quarter_usd 1e300", {"budget_per_quarter_usd": 1e300}, _refused("plan.yaml", "budget_per_quarter_usd")),
        ("plan23: budget_total_usd '150万' in a USD plan", {"budget_total_usd": "150万"}, _either(_refused("plan.yaml", "budget_total_usd"), _json_ok)),
        ("plan23: budget_total_usd '1500000 CNY' in a USD plan", {"budget_total_usd": "1500000 CNY"}, _refused("plan.yaml: constraints.budget_total_usd: ", "CNY")),
        ("plan23: budget_per_quarter_cny with currency CNY (a plan names every amount _usd)", {"budget_per_quarter_cny": 150000, "currency": "CNY"}, _refused("plan.yaml", "budget_per_quarter_cny", "budget_per_quarter_usd")),
        ("plan23: budget_total_cny with currency USD", {"budget_total_cny": 150000, "currency": "USD"}, _refused("plan.yaml", "budget_total_cny")),
        ("plan23: budget_total_usd and budget_total_cny both", {"budget_total_usd": 20000, "budget_total_cny": 150000}, _refused("plan.yaml", "budget_total")),
        ("plan23: currency 'cny' (lower case)", {"currency": "cny"}, _either(_json_ok, _refused("plan.yaml", "currency", "CNY"))),
        ("plan23: market 'chin'", {"market": "chin"}, _refused("plan.yaml", "market", "china")),
        ("plan23: market china with currency USD", {"market": "china", "currency": "USD"}, _either(_json_ok, _refused("plan.yaml"))),
        ("plan23: electricity_cny_per_kwh in a CNY plan", {"electricity_cny_per_kwh": 1.1, "currency": "CNY"}, _either(_json_ok, _refused("plan.yaml", "electricity"))),
        ("plan23: hosting 'datacentre' (British)", {"hosting": "datacentre"}, _refused("plan.yaml", "hosting", "datacenter")),
    ]:
        pcase(name, _dump(_edit(plan_doc, "constraints", cons)), check)
    pcase("plan23: paid_cny in a CNY plan", _dump(_edit(_edit(plan_doc, "owned.0", {"gpu": "RTX 4090", "count": 4, "paid_cny": 52000}), "constraints", {"currency": "CNY"})),
          _either(_json_ok, _refused("plan.yaml", "paid")))

    # ------------------------------------------------------------ plan: YAML features
    pcase("plan23: a workload shared by anchor and alias", PLAN23.replace("workload: {task: inference,", "workload: &w {task: inference,").replace(
        "workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 5.0e7}", "workload: *w").replace("cadence: {per_month: 1}", "cadence: {continuous: true}").replace(
        "    deadline_days: 5\n", ""), _json_ok)
    pcase("plan23: a merge key into a workload", PLAN23.replace("workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 5.0e7}",
          "workload: {<<: {task: finetune, method: lora}, model: llama-3.1-8b, train_tokens: 5.0e7}"), _either(_json_ok, _refused("plan.yaml")))
    pcase("plan23: a duplicate key inside a workload", PLAN23.replace("{task: finetune, method: lora,", "{task: finetune, method: lora, method: full,"), _refused("plan.yaml", "duplicate"))
    pcase("plan23: a requirements file given to plan", LORA, _refused("plan.yaml", "recommend"))
    for fmt in ("text", "md", "html"):
        pcase(f"plan23: {fmt} report in Chinese", PLAN23, _text_ok(), ["plan", "plan.yaml", "--format", fmt, "--lang", "zh"])
    pcase("plan23: text report in CNY with --fx-rate 7.1", PLAN23, _text_ok("¥"), ["plan", "plan.yaml", "--currency", "CNY", "--fx-rate", "7.1"])
    pcase("plan23: --fx-rate 0", PLAN23, _refused("fx"), ["plan", "plan.yaml", "--fx-rate", "0"])
    pcase("plan23: --fx-rate 1e308", PLAN23, _either(_refused("fx"), _text_ok()), ["plan", "plan.yaml", "--fx-rate", "1e308"])
    pcase("plan23: --detail full html", PLAN23, _text_ok(), ["plan", "plan.yaml", "--format", "html", "--detail", "full"])

    # ------------------------------------------------------------ prices import: columns, units, dates, currencies
    imp = ["prices", "import", "p.csv", "--provider", "m", "-o", "ov"]
    for name, text, check in [
        ("price23: currency EUR", "gpu,gpus,price,currency\nH100 80GB SXM,8,20,EUR\n", _either(rows_refused, _refused("p.csv", "currency"))),
        ("price23: currency cny (lower case)", "gpu,gpus,price,currency\nH100 80GB SXM,8,150,cny\n", _either(_overlay_reads, rows_refused)),
        ("price23: currency '¥'", "gpu,gpus,price,currency\nH100 80GB SXM,8,150,¥\n", _either(_overlay_reads, rows_refused)),
        ("price23: two currencies, one row each", "gpu,gpus,price,currency\nH100 80GB SXM,8,20,USD\nA100 80GB SXM,8,100,CNY\n", _overlay_reads),
        ("price23: price '20 USD/hr'", "gpu,gpus,price\nH100 80GB SXM,8,20 USD/hr\n", _either(_overlay_reads, rows_refused)),
        ("price23: price 5e-324 (subnormal)", "gpu,gpus,price\nH100 80GB SXM,8,5e-324\n", rows_refused),
        ("price23: gpus 1e3", "gpu,gpus,price\nH100 80GB SXM,1e3,20\n", _either(_overlay_reads, rows_refused)),
        ("price23: spot_price above price", "gpu,gpus,price,spot_price\nH100 80GB SXM,8,20,30\n", _either(_overlay_reads, rows_refused)),
        ("price23: as_of 2099-01-01 (the future)", "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,2099-01-01\n", _either(rows_refused, _refused("p.csv", "as_of"))),
        ("price23: as_of 01/02/2026 (which day?)", "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,01/02/2026\n", _either(rows_refused, _refused("p.csv", "as_of"))),
        ("price23: as_of 2025-06-01T12:00:00Z", "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,2025-06-01T12:00:00Z\n", _either(_overlay_reads, rows_refused, _refused("p.csv", "as_of"))),
        ("price23: gpu_memory '80GB'", "gpu,gpus,price,gpu_memory\nH100,8,20,80GB\n", _either(_overlay_reads, rows_refused)),
        ("price23: header in capitals", "GPU,GPUS,PRICE\nH100 80GB SXM,8,20\n", _either(_overlay_reads, _refused("p.csv", "gpuwise layout", "'GPU' for 'gpu'"))),
        ("price23: header with spaces", " gpu , gpus , price \nH100 80GB SXM,8,20\n", _either(_overlay_reads, _refused("p.csv"))),
        ("price23: price column twice", "gpu,gpus,price,price\nH100 80GB SXM,8,20,30\n", _either(_refused("p.csv", "price"), _overlay_reads)),
        ("price23: a gpu name in Chinese", "gpu,gpus,price\n英伟达 H100,8,20\n", rows_refused),
        ("price23: a region with a newline in quotes", 'gpu,gpus,price,region\nH100 80GB SXM,8,20,"us-\neast"\n', _either(_overlay_reads, rows_refused)),
        ("price23: an instance name of 10,000 characters", "gpu,gpus,price,instance\nH100 80GB SXM,8,20," + "i" * 10000 + "\n", _either(_overlay_reads, rows_refused)),
        ("price23: a source with an escape", "gpu,gpus,price,source\nH100 80GB SXM,8,20,\x1b[2Jhttps://x\n", lambda r: r.returncode in (0, 2) and _clean(r) and "\x1b" not in r.stdout + r.stderr),
    ]:
        case(name, {"p.csv": text}, imp, expect="any", check=check)
    case("price23: a JSON file given as the CSV", {"p.json": json.dumps([{"gpu": "H100 80GB SXM", "gpus": 8, "price": 20}])}, ["prices", "import", "p.json", "--provider", "m", "-o", "ov"], expect="any",
         check=_refused("p.json: a JSON file, not CSV text"))
    case("price23: a YAML overlay given as the CSV", {"p.csv": "offers:\n  - {id: x, gpu: h100, price: 2}\n"}, imp, expect="any", check=_refused("p.csv"))
    case("price23: an xlsx (zip) given as the CSV", {"p.csv": b"PK\x03\x04" + b"\0" * 200}, imp, expect="any", check=_refused("p.csv"))
    for name, extra, check in [
        ("price23: --as-of 2099-12-31", ["--as-of", "2099-12-31"], _refused("--as-of")),
        ("price23: --provider in Chinese", ["--provider", "阿里云"], _refused("--provider")),
        ("price23: --format json --lang zh", ["--format", "json", "--lang", "zh"], _overlay_reads),
        ("price23: --lang zh text summary", ["--lang", "zh"], _overlay_reads),
    ]:
        case(name, {"p.csv": CSV23}, ["prices", "import", "p.csv", "-o", "ov", *extra], expect="any", check=check)
    case("price23: -o onto the CSV itself", {"p.csv": CSV23}, ["prices", "import", "p.csv", "--provider", "m", "-o", "p.csv"], expect="any", check=_untouched("p.csv", CSV23))
    case("price23: -o onto a plain file", {"p.csv": CSV23, "f": "keep\n"}, ["prices", "import", "p.csv", "--provider", "m", "-o", "f"], expect="any", check=_untouched("f", "keep\n"))
    case("price23: -o an existing overlay, imported twice", {"p.csv": CSV23, "ov/clouds.yaml": ""}, imp, expect="any", check=_either(_overlay_reads, _refused("ov")))
    case("price23: -o a folder with a broken clouds.yaml", {"p.csv": CSV23, "ov/clouds.yaml": "offers: [\n"}, imp, expect="any", check=_either(_overlay_reads, _refused("clouds.yaml")))
    case("price23: -o a folder whose clouds.yaml is a folder", {"p.csv": CSV23, "ov/clouds.yaml/x": ""}, imp, expect="any", check=_refused("clouds.yaml"))

    # ------------------------------------------------------------ audit: quantities, prices, vendors, facility
    aud = ["audit", "p.yaml", "--format", "json"]
    for name, path, value, check in [
        ("audit23: count '8' (text)", "hardware.count", "8", _json_ok),
        ("audit23: nodes more than count", "hardware.nodes", 9, _refused("p.yaml", "nodes")),
        ("audit23: hourly_usd 0.0001 (under the floor)", "acquisition.hourly_usd", 0.0001, _refused("p.yaml", "hourly_usd")),
        ("audit23: hourly_usd '$3.99/hr'", "acquisition.hourly_usd", "$3.99/hr", _either(_refused("p.yaml", "hourly_usd"), _json_ok)),
        ("audit23: hourly_cny in a USD proposal", "acquisition.hourly_cny", 28, _refused("p.yaml", "hourly")),
        ("audit23: provider 'Lambda Labs'", "acquisition.provider", "Lambda Labs", _either(_json_ok, _refused("p.yaml", "provider"))),
        ("audit23: provider 'lamda'", "acquisition.provider", "lamda", _either(_json_ok, _refused("p.yaml", "provider", "lambda"))),
        ("audit23: instance 'p5.48xlarge' at lambda", "acquisition.instance", "p5.48xlarge", _either(_json_ok, _refused("p.yaml", "instance"))),
        ("audit23: region in Chinese", "acquisition.region", "华东2（上海）", _json_ok),
        ("audit23: region with an escape", "acquisition.region", "us\x1b[31m-east", lambda r: r.returncode in (0, 1, 2) and _clean(r) and "\x1b" not in r.stdout + r.stderr),
        ("audit23: months 1e6", "acquisition.months", 1e6, _either(_refused("p.yaml", "months"), _json_ok)),
        ("audit23: spot 'yes' (quoted)", "acquisition.spot", "yes", _json_ok),
        ("audit23: cross_region_tb_per_month 1e12", "cloud.cross_region_tb_per_month", 1e12, _either(_refused("p.yaml", "cross_region"), _json_ok)),
        ("audit23: storage kind 'premium_ssd'", "cloud.storage", {"kind": "premium_ssd", "tb": 1}, _refused("p.yaml", "kind", "premium-ssd")),
        ("audit23: facility cooling 'water'", "facility", {"cooling": "water"}, _refused("p.yaml", "cooling")),
        ("audit23: facility cooling 'liquid' with power 1e-9 kW", "facility", {"cooling": "liquid", "power_kw_available": 1e-9}, _either(_json_ok, _refused("p.yaml", "power_kw_available"))),
        ("audit23: title of 10,000 characters", "title", "t" * 10000, _refused("p.yaml", "title", "500")),
        ("audit23: title in Chinese with an RTL mark", "title", "租用\u202e八卡", lambda r: r.returncode in (0, 1) and _clean(r)),
    ]:
        case(name, {"p.yaml": _dump(_edit(prop_doc, path, value))}, aud, expect="any", check=check)
    buy = _edit(_edit(prop_doc, "acquisition", {"mode": "buy", "unit_price_usd": 25000}), "facility", {"power_kw_available": 20, "rack_units": 10, "cooling": "air"})
    for name, path, value, check in [
        ("audit23: buy, unit_price_cny in a CNY proposal", "acquisition", {"mode": "buy", "unit_price_cny": 180000}, _refused("p.yaml", "unit_price_cny", "unit_price_usd")),
        ("audit23: buy, unit_price_cny in a USD proposal", "acquisition", {"mode": "buy", "unit_price_cny": 180000, "_": None}, _refused("p.yaml")),
        ("audit23: buy, unit_price_usd and unit_price_cny both", "acquisition", {"mode": "buy", "unit_price_usd": 25000, "unit_price_cny": 180000}, _refused("p.yaml", "unit_price")),
        ("audit23: buy, unit_price_usd '25k'", "acquisition.unit_price_usd", "25k", _either(_json_ok, _refused("p.yaml", "unit_price_usd"))),
        ("audit23: buy, hourly_usd given too", "acquisition.hourly_usd", 3.0, _either(_json_ok, _refused("p.yaml", "hourly_usd"))),
    ]:
        doc = _edit(buy, path, value)
        if name == "audit23: buy, unit_price_cny in a CNY proposal":
            doc = _edit(doc, "constraints.currency", "CNY")
        if name == "audit23: buy, unit_price_cny in a USD proposal":
            doc["acquisition"].pop("_")
            doc = _edit(doc, "constraints.currency", "USD")
        case(name, {"p.yaml": _dump(doc)}, aud, expect="any", check=check)
    used = yaml.safe_load(_USED)
    for name, card, check in [
        ("audit23: used card purchased before manufactured", {"serial": "1", "manufactured": "2022-06", "purchased": "2021-01"}, _either(_refused("p.yaml", "purchased"), lambda r: r.returncode in (0, 1) and _clean(r))),
        ("audit23: used card fan_speed_percent [30, -5]", {"serial": "1", "fan_speed_percent": [30, -5]}, _refused("p.yaml", "fan_speed_percent")),
        ("audit23: used card power_under_load_w -5", {"serial": "1", "power_under_load_w": -5}, _refused("p.yaml", "power_under_load_w")),
        ("audit23: used card power_under_load_w 1e308", {"serial": "1", "power_under_load_w": 1e308}, _either(_refused("p.yaml", "power_under_load_w"), lambda r: r.returncode in (0, 1) and _clean(r))),
    ]:
        doc = copy.deepcopy(used)
        doc["used_cards"] = [card]
        case(name, {"p.yaml": _dump(doc)}, ["audit", "p.yaml"], expect="any", check=check)
    two = copy.deepcopy(used)
    two["hardware"]["count"] = 2
    two["used_cards"] = [{"serial": "1"}, {"serial": "1"}]
    case("audit23: two used cards with one serial", {"p.yaml": _dump(two)}, ["audit", "p.yaml"], expect="any", check=_either(_refused("p.yaml", "serial"), lambda r: r.returncode in (0, 1) and _clean(r)))
    three = copy.deepcopy(used)
    three["used_cards"] = [{"serial": str(i)} for i in range(3)]
    case("audit23: three used cards for one GPU", {"p.yaml": _dump(three)}, ["audit", "p.yaml"], expect="any", check=_refused("p.yaml: used_cards: ", "hardware.count"))
    for fmt in ("text", "md", "html"):
        case(f"audit23: {fmt} report in Chinese, buying", {"p.yaml": _dump(buy)}, ["audit", "p.yaml", "--format", fmt, "--lang", "zh"], expect="any", check=_text_ok())
    case("audit23: the same proposal twice", {"p.yaml": PROP}, ["audit", "p.yaml", "p.yaml", "--format", "json"], expect="any", check=_json_lines(2))
    case("audit23: the same proposal twice, -o onto it", {"p.yaml": PROP}, ["audit", "p.yaml", "p.yaml", "-o", "p.yaml"], expect="any", check=_untouched("p.yaml", PROP))
    case("audit23: a proposal by anchor: hardware an alias of acquisition", {"p.yaml": PROP.replace("acquisition:\n", "acquisition: &a\n") + "extra: *a\n"}, aud, expect="any", check=_refused("p.yaml", "extra"))
    case("audit23: duplicate hardware section", {"p.yaml": PROP + "hardware: {gpu: A100, count: 8}\n"}, aud, expect="any", check=_refused("p.yaml", "duplicate"))

    # ------------------------------------------------------------ ask: answers files resumed
    def answers(**w: Any) -> str:
        d = copy.deepcopy(SERVE)
        d["workload"].update(w)
        return _dump(d)

    for name, text, words in [
        ("ask23: resumed framework 'vllmm', no terminal", answers(framework="vllmm"), ("framework", "vllm")),
        ("ask23: resumed task 'inferenc', no terminal", answers(task="inferenc"), ("task",)),
        ("ask23: resumed precision 'bf17', no terminal", answers(precision="bf17"), ("precision",)),
    ]:
        case(name, {"a.yaml": text}, ["ask", "--answers", "a.yaml", "-o", "o.md"], expect="any", check=_refused("gpuwise recommend a.yaml -o o.md"))
        case(name.replace("ask23: resumed", "ask23: recommend of a file resumed"), {"a.yaml": text}, ["recommend", "a.yaml"], expect="any", check=_refused("a.yaml", *words))
    for name, text, shows in [
        ("ask23: resumed framework 'vllmm' in a terminal: did you mean", answers(framework="vllmm"), ("did you mean", "vllm")),
        ("ask23: resumed framework 'ollama' in a terminal: did you mean llama.cpp", answers(framework="ollama"), ("did you mean", "llama.cpp")),
        ("ask23: resumed precision 'bf17' in a terminal", answers(precision="bf17"), ("precision",)),
    ]:
        case(name, {"a.yaml": text}, ["ASK20", json.dumps([["Resuming", ""], ["", "\x03"]]), "ask", "--answers", "a.yaml"], expect="any", real=True,
             check=lambda r, s=shows: r.returncode in (2, 130) and _clean(r) and all(x in r.stdout for x in s))
    for name, text, check in [
        ("ask23: answers an empty file", "", lambda r: r.returncode in (0, 1, 2) and _one(r)),
        ("ask23: answers with a duplicate key", answers() + "workload: {task: finetune}\n", _refused("a.yaml")),
        ("ask23: answers with a merge key", "base: &b {task: inference, model: llama-3.1-8b}\nworkload: {<<: *b}\n", _refused("a.yaml")),
        ("ask23: answers budget_cny with currency USD", _dump({**SERVE, "constraints": {"budget_cny": 1000, "currency": "USD"}}), _refused("a.yaml")),
        ("ask23: answers currency 'cny' (lower case)", _dump({**SERVE, "constraints": {"currency": "cny"}}), _either(_refused("a.yaml", "currency"), lambda r: r.returncode in (0, 1, 2) and _one(r))),
        ("ask23: answers budget_usd 1e308", _dump({**SERVE, "constraints": {"budget_usd": 1e308}}), lambda r: r.returncode in (0, 1, 2) and _one(r)),
    ]:
        case(name, {"a.yaml": text}, ["ask", "--answers", "a.yaml", "-o", "o.md"], expect="any", check=check)
    case("ask23: --currency CNY on a USD file with a budget", {"a.yaml": _dump({**SERVE, "constraints": {"budget_usd": 5000}})}, ["ask", "--answers", "a.yaml", "--currency", "CNY", "-o", "o.md"],
         expect="any", check=_refused("a.yaml"))
    case("ask23: -o onto a folder, answers resumed", {"a.yaml": answers(), "d/.keep": ""}, ["ask", "--answers", "a.yaml", "-o", "d"], expect="any", check=_refused("d"))
    case("ask23: --answers a folder", {"d/.keep": ""}, ["ask", "--answers", "d"], expect="any", check=_refused("d"))
    case("ask23: a terminal, ready at once with every answer resumed", {"a.yaml": answers()}, ["ASK20", json.dumps([[READY, "\x03"]]), "ask", "--answers", "a.yaml"], expect="any", real=True,
         check=lambda r: r.returncode in (0, 1, 2, 130) and _clean(r))
    _ = TASK

    # ------------------------------------------------------------ output paths
    rec = {"r.yaml": LORA}
    for name, files, argv, check in [
        ("out23: recommend -o an existing folder", {**rec, "d/.keep": ""}, ["recommend", "r.yaml", "-o", "d"], _refused("d")),
        ("out23: recommend -o REPORT.HTML (capitals)", rec, ["recommend", "r.yaml", "-o", "REPORT.HTML"], lambda r: r.returncode in (0, 1) and _clean(r) and Path(r.cwd, "REPORT.HTML").read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype")),
        ("out23: recommend -o report (no suffix)", rec, ["recommend", "r.yaml", "-o", "report"], lambda r: (r.returncode in (0, 1) and _clean(r)) or _refused("report")(r)),
        ("out23: recommend -o a name in Chinese", rec, ["recommend", "r.yaml", "-o", "报告.md"], lambda r: r.returncode in (0, 1) and _clean(r) and Path(r.cwd, "报告.md").is_file()),
        ("out23: recommend -o into a missing folder", rec, ["recommend", "r.yaml", "-o", "no/r.md"], _no_file("no", "does not exist")),
        ("out23: recommend -o given twice, onto the input last", rec, ["recommend", "r.yaml", "-o", "x.md", "-o", "r.yaml"], _untouched("r.yaml", LORA)),
        ("out23: plan -o onto the plan", {"plan.yaml": PLAN23}, ["plan", "plan.yaml", "-o", "plan.yaml"], _untouched("plan.yaml", PLAN23)),
        ("out23: plan -o an existing folder", {"plan.yaml": PLAN23, "d/.keep": ""}, ["plan", "plan.yaml", "-o", "d"], _refused("d")),
        ("out23: plan -o - --format html", {"plan.yaml": PLAN23}, ["plan", "plan.yaml", "-o", "-", "--format", "html"], _text_ok("<")),
        ("out23: audit -o onto a used card's report", {"p.yaml": _USED, "r.xml": _smi_text}, ["audit", "p.yaml", "-o", "r.xml"], _untouched("r.xml", _smi_text)),
        ("out23: estimate -o (not an estimate option)", rec, ["estimate", "r.yaml", "-o", "e.json"], lambda r: r.returncode == 2 and _one(r) and not Path(r.cwd, "e.json").exists()),
    ]:
        case(name, files, argv, expect="any", check=check)

    # ------------------------------------------------------------ numbers at the ends, estimate and recommend options
    est = ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm"]
    for name, extra, check in [
        ("num23: estimate --gpus 10**6", ["--gpus", "1000000"], _either(_refused("--gpus"), _text_ok())),
        ("num23: estimate --fx-rate 1e-320", ["--currency", "CNY", "--fx-rate", "1e-320"], _either(_refused("fx"), _text_ok())),
        ("num23: estimate --currency cny (any case since product64: read as CNY)", ["--currency", "cny"], lambda r: _ok(r) and ("¥" in r.stdout or "CNY" in r.stdout)),
        ("num23: estimate --gpu in fullwidth", ["--gpu", "Ｈ１００"], lambda r: r.returncode in (0, 2) and _one(r) if r.returncode == 2 else _ok(r)),
        ("num23: estimate --lang zh text", ["--lang", "zh"], _text_ok()),
    ]:
        case(name, rec, est + extra, expect="any", check=check)
    for name, text, check in [
        ("num23: train_tokens 5e-324", _dump(_edit(yaml.safe_load(LORA), "workload.train_tokens", 5e-324)), _either(_refused("r.yaml", "train_tokens"), _json_ok)),
        ("num23: budget_usd '$1e308'", _dump(_edit(yaml.safe_load(LORA), "constraints.budget_usd", "$1e308")), _either(_refused("r.yaml", "budget"), _json_ok)),
        ("num23: prompt_tokens 2**63", _dump(_edit(SERVE, "workload.prompt_tokens", 2**63)), _refused("r.yaml", "prompt_tokens")),
    ]:
        case(name, {"r.yaml": text}, ["recommend", "r.yaml", "--format", "json"], expect="any", check=check)
