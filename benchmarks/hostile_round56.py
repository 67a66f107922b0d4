# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-six of the hostile corpus: hostile round 55's four leftovers, what a team lead pastes, and their
neighbours -- a rental's price with its pricing plan beside it ('$2.49/GPU-hr (1-yr reserved)', '(spot)') in a
proposal and in a price CSV; a price CSV's as_of as a spreadsheet or another locale writes it ('Dec 2026',
'12/01/2026', '01.12.2026', Excel's date serial 46357, and --as-of '12/01/2026'); a key,value CSV pasted as a YAML
requirements file (alone, under a 'key,value' header, under a section); a GGUF repository named as the model with
no quant type, or with one gpuwise has no precision for (Q5_K_M). Added to benchmarks/hostile_corpus.py's table by
:func:`add`.

Run on main at b1b6781c (before this branch's fixes, with the round's file added): 20 cases, 5 clean (the five
marked 'as before'); on this branch 20 of 20. Fixed (each with its test in tests/test_hostile56.py):

* a price with its plan ('$2.49/GPU-hr (1-yr reserved)', '$1.80/hr, 3-year commitment', '$1.20/hr (spot)') was
  'must be a number' (a proposal) or 'not a number' (a price CSV), nothing offered: the price offered and the plan
  said to go in its field -- a proposal's acquisition.months (12 for a 1-year term, which the rental commits to and
  is billed for in full) or spot: true; a price CSV's term column (1-year) or spot_price, a GPU-hour's price on a
  row of 8 offered as the row's (inputs/price_terms.py, prices/csv_cells.plan_in_price);
* a price CSV's as_of 'Dec 2026' (a month), '12/01/2026' (either day first or month first), '01.12.2026' (dots:
  day first), '46357' (Excel's 1900 date system) was "'...' is not a date", nothing offered: each reading said, the
  ISO date asked for (inputs/dates.day_readings); --as-of '12/01/2026' too;
* a key,value CSV as a requirements file was 'expected a mapping of sections, got str', under 'workload:' 'must be a
  section of keys' with every key listed: the first pair's line and 'task: inference' offered (yamlio._pasted_csv);
* 'Qwen2.5-72B-Instruct-GGUF' with no precision was priced at bf16 (the repository read as its base model): refused,
  its several quantizations and precision / quantization gguf said; a quant type gpuwise prices at no precision
  ('...:Q5_K_M') likewise (inputs/job._gguf_unsaid).
"""
from __future__ import annotations

import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round51 import H100X8, IMPORT, LORA8, SERVE8
from benchmarks.hostile_round52 import _json, _refused_no
from benchmarks.hostile_round53 import _imported
from benchmarks.hostile_round55 import _assumed, _rows_said

RENT = {"title": "t", "workload": LORA8, "hardware": H100X8, "acquisition": {"mode": "rent", "provider": "lambda"}}
"""8 H100 SXM on one node rented from Lambda for a LoRA fine-tune: the proposal this round's price cases edit."""
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
HEAD = "gpu,gpus,price,term,as_of\n"


def _rent(hourly) -> dict:
    return {**RENT, "acquisition": {**RENT["acquisition"], "hourly_usd": hourly}}


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, _pcase = doc_cases(case)

    # ------------------------------------------------------------ a price with its pricing plan beside it
    acase("plan56: hourly_usd '$2.49/GPU-hr (1-yr reserved)': refused, 2.49 and months: 12 offered", _rent("$2.49/GPU-hr (1-yr reserved)"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49", "months: 12", absent=("must be a number",)))
    acase("plan56: hourly_usd '$1.80/hr, 3-year commitment': refused, 1.8 and months: 36 offered", _rent("$1.80/hr, 3-year commitment"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 1.8", "months: 36", absent=("must be a number",)))
    acase("plan56: hourly_usd '$1.20/hr (spot)': refused, 1.2 and spot: true offered", _rent("$1.20/hr (spot)"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 1.2", "spot: true", absent=("must be a number",)))
    acase("plan56: hourly_usd '$2.49/hr': refused, 2.49 offered, no term said (as before)", _rent("$2.49/hr"),
          _refused_no("p.yaml", "acquisition.hourly_usd", "write 2.49", absent=("months", "must be a number")))
    case("csv56: '$2.49/GPU-hr (1-yr reserved)' on an 8-GPU row: the row's 19.92 and the term column's 1-year offered",
         {"c.csv": HEAD + "H100 80GB SXM,8,$2.49/GPU-hr (1-yr reserved),,\n"}, IMPORT, expect="any",
         check=_rows_said("19.92", "1-year in the term column", absent=("is not a number",)))
    case("csv56: '19.92 (spot)': spot_price named", {"c.csv": HEAD + "H100 80GB SXM,8,19.92 (spot),,\n"}, IMPORT, expect="any",
         check=_rows_said("spot_price", absent=("is not a number",)))
    case("csv56: a 1-year row in the term column beside its on-demand row: one offer imported (as before)",
         {"c.csv": HEAD + "H100 80GB SXM,8,20,,\nH100 80GB SXM,8,15,1-year,\n"}, IMPORT, expect="any", check=_imported(1))

    # ------------------------------------------------------------ a price CSV's as_of as a sheet or a locale writes it
    for given, words in (("Dec 2026", ("2026-12-DD",)), ("12/01/2026", ("2026-12-01", "2026-01-12")),
                         ("01.12.2026", ("write 2026-12-01", "day first")), ("46357", ("2026-12-01", "1900 date system"))):
        case(f"date56: as_of {given!r}: refused, its readings said", {"c.csv": HEAD + f"H100 80GB SXM,8,20,,{given}\n"}, IMPORT, expect="any",
             check=_rows_said(*words, absent=("is not a date\n",)))
    case("date56: as_of '13/01/2026' (the day first, surely): 2026-01-13 offered (as before)", {"c.csv": HEAD + "H100 80GB SXM,8,20,,13/01/2026\n"}, IMPORT,
         expect="any", check=_rows_said("write 2026-01-13"))
    case("date56: --as-of '12/01/2026': refused, both readings said", {"c.csv": HEAD + "H100 80GB SXM,8,20,,\n"}, [*IMPORT[:-1], "12/01/2026"],
         expect="any", check=_refused("--as-of", "2026-12-01", "2026-01-12"))

    # ------------------------------------------------------------ a key,value CSV pasted as a YAML file
    case("file56: a key,value CSV as a requirements file: refused at line 1, 'task: inference' offered", {"r.yaml": "task,inference\nmodel,llama-3.1-8b\n"},
         list(EST), expect="any", check=_refused_no("r.yaml", "line 1", "'task: inference'", absent=("mapping of sections",)))
    case("file56: a 'key,value' header above the pairs: refused at line 2", {"r.yaml": "key,value\ntask,inference\nmodel,llama-3.1-8b\n"},
         list(EST), expect="any", check=_refused_no("r.yaml", "line 2", "'task: inference'", absent=("mapping of sections",)))
    case("file56: pairs under 'workload:': refused at line 2, under 'workload:'", {"r.yaml": "workload:\n  task,inference\n  model,llama-3.1-8b\n"},
         list(EST), expect="any", check=_refused_no("r.yaml", "line 2", "'task: inference'", "'workload:'", absent=("valid keys",)))

    # ------------------------------------------------------------ a GGUF repository as the model
    serve = {k: v for k, v in SERVE8.items() if k != "precision"}
    rcase("model56: 'Qwen2.5-72B-Instruct-GGUF' (no quant type, no precision): refused, its quantizations and precision said",
          {"workload": {**serve, "model": "Qwen2.5-72B-Instruct-GGUF"}}, _refused_no("r.yaml", "workload.model", "GGUF repository", "Q4_K_M", "precision"))
    rcase("model56: 'bartowski/Qwen2.5-72B-Instruct-GGUF:Q5_K_M' (a 5-bit quant type): refused, int8 or int4 said",
          {"workload": {**serve, "model": "bartowski/Qwen2.5-72B-Instruct-GGUF:Q5_K_M"}}, _refused_no("r.yaml", "workload.model", "Q5_K_M", "int8", "int4"))
    rcase("model56: 'Qwen2.5-72B-Instruct-GGUF:Q4_K_M': estimated at int4, the reading said (as before)",
          {"workload": {**serve, "model": "Qwen2.5-72B-Instruct-GGUF:Q4_K_M"}}, _assumed("int4"))
    body = {"r.yaml": json.dumps({"workload": {**serve, "model": "Qwen2.5-72B-Instruct-GGUF", "precision": "int4"}})}
    case("model56: 'Qwen2.5-72B-Instruct-GGUF' beside precision int4: estimated (as before)", body, list(EST), expect="any",
         check=lambda r: r.returncode in (0, 1) and "int4 weights" in ((_json(r) or {}).get("memory") or {}).get("layout", ""))
