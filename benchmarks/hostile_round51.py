# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-one of the hostile corpus: round 50's three leftovers and the text a real user pastes in -- a plan's
month written as a calendar month ('June', '2027-06', 'March 2027', a YAML date, 'month 4', '4th') where the plan
counts its months from 1; a rental priced at the whole instance's hourly rate (Lambda's 8 x H100 at 8 x its GPU
rate, AWS p5.48xlarge at its instance price) where hourly_usd is a GPU's; engines gpuwise has no figures for (TGI,
text-generation-inference, LMDeploy) and a llama.cpp fork (KoboldCpp); a list where one value goes; an amount in CNY
in a proposal whose file is in USD ('28 CNY/h', '28 RMB', '28元/小时', '1.5万元') and CNY field names
(``hourly_cny``); a count after the GPU's name ('H100x8', 'H100 x 8', 'RTX 4090 ×2'); hours a day as a working day
('24/7', '9-5'); a Unicode minus; JSON with comments; a full-width colon from a Chinese input method; and the
neighbours (a byte-order mark, CRLF line ends, UTF-16, tabs, duplicate keys, thousands separators, huge numbers,
percent strings, 4万, Excel's CSVs). Added to benchmarks/hostile_corpus.py's table by :func:`add`.

The checks that name a month compute it from today's date, as the plan does (month 1 is the current month).

Run on main at e113951e (before this branch's fixes, with the round's file added: 2394d09b): 63 cases, 19 clean; on
this branch 63 of 63. One check changed after that run: the three instance-price cases first also asked that
FEE-PRICE-ABOVE-LIST not fire; it still fires (the price is that many times the list, and the new finding says why),
so they ask for FEE-PRICE-INSTANCE-RATE alone (failing on e113951e either way). Fixed (each with its test in
tests/test_hostile51.py, 41 of whose 46 tests fail on e113951e):

* a plan's month as the calendar's ('June', 'jun', '6月', '2027-06', 'March 2027', a YAML date, 'month 4', '4th', 'M4'
  in ``at_month``, ``start_month``, ``end_month``) was pydantic's 'unable to parse string as an integer': its number
  in the plan offered, month 1 being this month, or said to be before the plan's first (dates.plan_month_text);
* a rental priced at a whole instance's hourly price was audited that many times over, the ratio warning alone:
  FEE-PRICE-INSTANCE-RATE (a warning) says it reads as the instance's price where it is half again above the dearest
  GPU-hour known for the GPU in any market and, over one instance's or node's GPUs, within hourly_price_ratio_warning
  of the listed rate; the GPU-hour's price offered (audit.py, offers.instance_reading / dearest_offer);
* ``framework`` TGI, text-generation-inference, LMDeploy (and DeepSpeed-MII, CTranslate2) listed the engines: named as
  engines gpuwise has no figures for, the modelled ones and 'leave framework out' offered; KoboldCpp offers llama.cpp
  (error_words); supporting them was not possible: knowledge/serving.yaml holds no measured figure of either;
* a list where one value goes was pydantic's 'Input should be a valid integer (got [8])' or the choices quoting the
  list: said as a list, its one item offered (schema.explain_validation);
* a CNY price in a USD proposal ('28 CNY/h', '28 RMB', '28元/小时', '1.5万元') was offered 'write 28' (15000), yuan
  as dollars: both currencies named, as a plan's amounts are (proposal._price_currency); ``hourly_cny`` /
  ``unit_price_cny`` offered the _usd field alone: with constraints.currency CNY;
* a count after the GPU's name ('H100x8', 'H100 x 8', 'RTX 4090 ×2', 'H100*8', 'H100-80G x8', owned 'RTX 4090 x8')
  offered other GPUs: the GPU and the count (names._counted);
* hours_per_day '24/7', '9-5', '9am-5pm' were pydantic's words: 24 and 8 offered (prose._working_day); a Unicode
  minus ('−0.05') the same: -0.05 offered (notation.fold_digits);
* JSON with // comments and a key ended by a full-width colon were the parser's words at the next line: named, at
  their line (yamlio._other_text).

Clean on main already: '4' quoted, a rental at the list rate and at 8.00 (above the list, no instance's price), vLLM
as 'vLLM', '¥28' in a CNY proposal, 4万 in a plan, a byte-order mark, CRLF, both, UTF-16, a tab, a duplicate key,
'1,000', a no-break space's thousands, 1e21, '50 %', an Excel CSV with a BOM, a ';' CSV, a '¥150' cell in a USD
catalog.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
IMPORT = ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"]
H100X8 = {"gpu": "H100 SXM", "count": 8, "nodes": 1}
LAMBDA_H100 = 4.29  # knowledge/clouds.yaml: Lambda's listed rate a GPU-hour for an H100 SXM (as of 2026-09-25)
P5_HOUR = 55.04  # knowledge/clouds.yaml p5.48xlarge usd_per_hour: the 8-GPU instance's on-demand price


def _json(r) -> Any:
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def _answered(*ids: str, absent: tuple[str, ...] = ()):
    """Answered (exit 0 or 1) with JSON, nothing on stderr, the rule ids ``ids`` among its findings and none of
    ``absent``."""
    def check(r) -> bool:
        doc = _json(r)
        if r.returncode not in (0, 1) or r.stderr.strip() or not isinstance(doc, dict):
            return False
        rules = {f.get("rule") for f in doc.get("findings", [])}
        return all(i in rules for i in ids) and not any(a in rules for a in absent)
    return check


def _refused_no(*words: str, absent: tuple[str, ...] = ()):
    """Refused in one line holding ``words`` and none of ``absent``."""
    return lambda r: _refused(*words)(r) and not any(w in r.stderr for w in absent)


def _plan_month(year: int, month: int) -> int:
    """The plan's month number of a calendar month: month 1 is the current one (plan/judge.py _warranties)."""
    today = dt.date.today()
    return (year * 12 + month) - (today.year * 12 + today.month) + 1


def _ahead(months: int) -> dt.date:
    """The first day of the month ``months`` after this one."""
    today = dt.date.today()
    n = today.year * 12 + today.month - 1 + months
    return dt.date(n // 12, n % 12 + 1, 1)


def _rent(**acq) -> dict:
    return {"title": "t", "workload": LORA8, "hardware": H100X8, "acquisition": {"mode": "rent", "provider": "lambda", **acq}}


def _buy(**acq) -> dict:
    return {"title": "t", "workload": SERVE8, "hardware": {"gpu": "RTX 4090", "count": 1}, "acquisition": {"mode": "buy", **acq}}


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]

    _plan = functools.partial(_edited, plan)

    def _at(value) -> dict:  # the example plan's pretrain run, once, at ``value``
        return _plan(lambda d: d["workloads"][2].update(cadence={"at_month": value}))

    # ------------------------------------------------------------ a plan's month as a calendar month (round 50's leftover)
    june = _ahead((6 - dt.date.today().month) % 12)  # the June ahead (this month if it is June)
    in4 = _ahead(3)  # the plan's month 4
    for given, value, meant in (("'June'", "June", _plan_month(june.year, 6)),
                                ("'jun'", "jun", _plan_month(june.year, 6)),
                                (f"'{june:%Y-%m}'", f"{june:%Y-%m}", _plan_month(june.year, 6)),
                                (f"'{in4:%B %Y}'", f"{in4:%B %Y}", 4),
                                (f"{in4:%Y-%m}-15 (a YAML date)", in4.replace(day=15), 4),
                                ("'month 4'", "month 4", 4), ("'4th'", "4th", 4), ("'M4'", "M4", 4)):
        pcase(f"month51: at_month {given}: refused, at_month: {meant} offered", _at(value),
              _refused_no("plan.yaml", "workloads[2].cadence.at_month", f"at_month: {meant}", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    past = _ahead(-2)
    pcase(f"month51: at_month '{past:%Y-%m}' (before this month): refused, the plan's first month said", _at(f"{past:%Y-%m}"),
          _refused_no("plan.yaml", "workloads[2].cadence.at_month", "before", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    march = _ahead((3 - dt.date.today().month) % 12)
    pcase("month51: start_month 'March': refused, its number offered", _plan(lambda d: d["workloads"][0]["cadence"].update(start_month="March")),
          _refused_no("plan.yaml", "workloads[0].cadence.start_month", f"start_month: {_plan_month(march.year, 3)}", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    pcase("month51: end_month 'Dec 2027': refused, its number offered (or the horizon's bound said)", _plan(lambda d: d["workloads"][1]["cadence"].update(end_month="Dec 2027")),
          _refused_no("plan.yaml", "workloads[1].cadence.end_month", "end_month", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    pcase("month51: at_month '4' (a quoted number): planned", _at("4"), lambda r: r.returncode in (0, 1) and not r.stderr.strip(), argv=("plan", "plan.yaml", "--format", "json"))

    # ------------------------------------------------------------ a rental priced per instance (round 50's leftover)
    inst = round(8 * LAMBDA_H100, 2)
    acase(f"inst51: Lambda 8 x H100 at hourly_usd {inst} (8 x its GPU rate): the instance's price said beside the ratio", _rent(hourly_usd=inst),
          _answered("FEE-PRICE-INSTANCE-RATE", "FEE-PRICE-ABOVE-LIST"))
    acase(f"inst51: AWS p5.48xlarge at hourly_usd {P5_HOUR} (the instance's price): the instance's price said", _rent(provider="aws", instance="p5.48xlarge", hourly_usd=P5_HOUR),
          _answered("FEE-PRICE-INSTANCE-RATE"))
    acase(f"inst51: 16 H100 on 2 nodes at {inst} (one node's price): the instance's price said", {**_rent(hourly_usd=inst), "hardware": {**H100X8, "count": 16, "nodes": 2}},
          _answered("FEE-PRICE-INSTANCE-RATE"))
    acase(f"inst51: Lambda at its own rate {LAMBDA_H100}: no price finding", _rent(hourly_usd=LAMBDA_H100),
          _answered(absent=("FEE-PRICE-INSTANCE-RATE", "FEE-PRICE-ABOVE-LIST")))
    acase("inst51: Lambda at 8.00 (1.9x its rate, no instance's price): above the list, not an instance", _rent(hourly_usd=8.0),
          _answered("FEE-PRICE-ABOVE-LIST", absent=("FEE-PRICE-INSTANCE-RATE",)))

    # ------------------------------------------------------------ engines gpuwise has no figures for (round 50's leftover)
    for given, name in (("TGI", "Text Generation Inference"), ("text-generation-inference", "Text Generation Inference"),
                        ("lmdeploy", "LMDeploy"), ("LMDeploy", "LMDeploy")):
        rcase(f"engine51: framework {given!r}: refused, the engine named as not modelled", {"workload": {**SERVE8, "framework": given}},
              _refused_no("r.yaml", "workload.framework", name, "no figures", absent=("did you mean",)))
    rcase("engine51: framework 'koboldcpp' (a llama.cpp fork): refused, llama.cpp offered", {"workload": {**SERVE8, "framework": "koboldcpp"}},
          _refused("r.yaml", "workload.framework", "did you mean llama.cpp?"))
    rcase("engine51: framework 'vLLM': refused, vllm offered", {"workload": {**SERVE8, "framework": "vLLM"}},
          _refused("r.yaml", "workload.framework", "did you mean vllm?"))

    # ------------------------------------------------------------ a list where one value goes
    for field, value, words in (("prompt_tokens", [1000, 2000], ("a list", "one")), ("model", ["llama-3.1-8b"], ("a list", "write llama-3.1-8b")),
                                ("precision", ["bf16", "fp8"], ("a list", "one")), ("framework", ["vllm", "sglang"], ("a list", "one"))):
        rcase(f"list51: workload.{field} {value}: refused, one value asked", {"workload": {**SERVE8, field: value}},
              _refused_no("r.yaml", f"workload.{field}", *words, absent=("Input should be", "is not one of")))
    acase("list51: hardware.count [8]: refused, 8 offered", {**_rent(hourly_usd=LAMBDA_H100), "hardware": {**H100X8, "count": [8]}},
          _refused_no("p.yaml", "hardware.count", "write 8", absent=("Input should be",)))
    acase("list51: acquisition.hourly_usd [3.99, 2.99]: refused, one value asked", _rent(hourly_usd=[3.99, 2.99]),
          _refused_no("p.yaml", "acquisition.hourly_usd", "a list", absent=("Input should be",)))
    pcase("list51: horizon_months [12]: refused, 12 offered", _plan(lambda d: d.update(horizon_months=[12])),
          _refused_no("plan.yaml", "horizon_months", "write 12", absent=("Input should be",)), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ an amount in CNY in a file in USD
    for given in ("28 CNY/h", "28 RMB", "28元/小时"):
        acase(f"cny51: hourly_usd {given!r} in a USD proposal: refused, CNY and constraints.currency named (not 'write 28')", _rent(hourly_usd=given),
              _refused_no("p.yaml", "acquisition.hourly_usd", "CNY", "constraints.currency", absent=("write 28", "Input should be")))
    acase("cny51: unit_price_usd '1.5万元' in a USD proposal: refused, CNY named", _buy(unit_price_usd="1.5万元"),
          _refused_no("p.yaml", "acquisition.unit_price_usd", "CNY", "constraints.currency", absent=("write 15000",)))
    acase("cny51: hourly_usd '¥28' in a CNY proposal: refused, 28 offered", {**_rent(hourly_usd="¥28"), "constraints": {"currency": "CNY"}},
          _refused("p.yaml", "acquisition.hourly_usd", "write 28"))
    acase("cny51: acquisition.hourly_cny: refused, hourly_usd with constraints.currency CNY offered", _rent(hourly_cny=28),
          _refused("p.yaml", "acquisition.hourly_cny", "hourly_usd", "currency: CNY"))
    acase("cny51: acquisition.unit_price_cny: refused, unit_price_usd with constraints.currency CNY offered", _buy(unit_price_cny=15000),
          _refused("p.yaml", "acquisition.unit_price_cny", "unit_price_usd", "currency: CNY"))
    pcase("cny51: a plan's budget 4万 (its file's currency): planned", _plan(lambda d: d["constraints"].update(budget_per_quarter_usd="4万")),
          lambda r: r.returncode in (0, 1) and not r.stderr.strip(), argv=("plan", "plan.yaml", "--format", "json"))

    # ------------------------------------------------------------ a count after the GPU's name
    for given, n in (("H100x8", 8), ("H100 x 8", 8), ("RTX 4090 ×2", 2), ("H100*8", 8)):
        case(f"count51: --gpu {given!r}: refused, the GPU and --gpus {n} offered", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", given], expect="any",
             check=_refused("--gpu", f"--gpus {n}"))
    acase("count51: hardware.gpu 'H100-80G x8': refused, count 8 offered", {**_rent(hourly_usd=LAMBDA_H100), "hardware": {**H100X8, "gpu": "H100-80G x8"}},
          _refused("p.yaml", "hardware.gpu", "count 8"))
    pcase("count51: owned gpu 'RTX 4090 x8': refused, count offered", _plan(lambda d: d["owned"][0].update(gpu="RTX 4090 x8")),
          _refused("plan.yaml", "owned[0].gpu", "count 8"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ hours a day as people say them; a Unicode minus
    for given, meant in (("24/7", 24), ("9-5", 8), ("9am-5pm", 8)):
        pcase(f"hours51: hours_per_day {given!r}: refused, {meant} offered", _plan(lambda d, g=given: d["workloads"][1]["cadence"].update(hours_per_day=g)),
              _refused_no("plan.yaml", "workloads[1].cadence.hours_per_day", f"write {meant}", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    pcase("minus51: growth_per_month '−0.05' (U+2212): refused, -0.05 offered", _plan(lambda d: d["workloads"][1]["cadence"].update(growth_per_month="\u22120.05")),
          _refused_no("plan.yaml", "growth_per_month", "write -0.05", absent=("Input should be",)), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ text from elsewhere
    case("text51: JSON with // comments: refused, the comment named", {"r.json": '{"workload": {"task": "inference", // the chat service\n "model": "llama-3.1-8b"}}'},
         ["estimate", "r.json", "--gpu", "h100"], expect="any", check=_refused("r.json", "line 1", "comment"))
    case("text51: a full-width colon (a Chinese input method's ：): refused, the colon named", {"r.yaml": "workload:\n  task: inference\n  model： llama-3.1-8b\n"},
         list(EST), expect="any", check=_refused("r.yaml", "line 3", "full-width colon"))

    # ------------------------------------------------------------ neighbours already clean (encodings, separators, sizes)
    body = "workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 200\n"
    for given, data in (("a byte-order mark", ("\ufeff" + body).encode()), ("CRLF line ends", body.replace("\n", "\r\n").encode()),
                        ("a BOM and CRLF", ("\ufeff" + body).replace("\n", "\r\n").encode()), ("UTF-16 (Notepad's 'Unicode')", body.encode("utf-16"))):
        case(f"enc51: a requirements file with {given}: estimated", {"r.yaml": data}, list(EST), expect="ok")
    case("enc51: a tab indenting a line: refused, the tab named", {"r.yaml": body.replace("  task", "\ttask")}, list(EST), expect="any", check=_refused("r.yaml", "tab"))
    case("enc51: a duplicate key: refused, the key named", {"r.yaml": body + "  model: llama-3.1-70b\n"}, list(EST), expect="any", check=_refused("r.yaml", "duplicate key 'model'"))
    rcase("num51: prompt_tokens '1,000': refused, 1000 offered", {"workload": {**SERVE8, "prompt_tokens": "1,000"}}, _refused("r.yaml", "write 1000"))
    rcase("num51: prompt_tokens '1\\xa0000' (a no-break space): refused, 1000 offered", {"workload": {**SERVE8, "prompt_tokens": "1\u00a0000"}}, _refused("r.yaml", "write 1000"))
    rcase("num51: output_tokens 1e21: refused, the bound said", {"workload": {**SERVE8, "output_tokens": 10**21}}, _refused("r.yaml", "workload.output_tokens", "at most"))
    rcase("num51: prefix_cache_hit_rate '50 %': refused, 0.5 offered", {"workload": {**SERVE8, "prefix_cache_hit_rate": "50 %"}}, _refused("r.yaml", "write 0.5"))
    case("csv51: an Excel CSV with a BOM and CRLF: imported", {"c.csv": "\ufeffgpu,gpus,price\r\nH100 80GB SXM,8,20\r\n"}, IMPORT, expect="ok")
    case("csv51: a CSV with ';' and decimal commas (a European Excel): refused, the separator named", {"c.csv": "gpu;gpus;price\nH100 80GB SXM;8;20,5\n"}, IMPORT, expect="any",
         check=_refused("c.csv", "';'"))
    case("csv51: a price '¥150' in a USD catalog: the row refused, CNY named", {"c.csv": "gpu,gpus,price\nH100 80GB SXM,8,¥150\n"}, IMPORT, expect="any",
         check=lambda r: r.returncode == 2 and "is in CNY" in r.stderr and "Traceback" not in r.stderr)
