# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""What hostile round 48 saw and left, as cases (hostileleft60): a plan's ``growth_per_month`` given as a whole
percentage over a horizon short enough to stay within the load's bound (6 months at 10: 2 requests/s to 3.2e5),
a bound refusal said in pydantic's English ('Input should be less than or equal to 60') where Chinese has the
house's words, and an amount in a currency gpuwise does not price in ('€20,000', '20000 EUR', a price CSV's
'€2.50') refused as 'not an amount' / 'not a number', EUR never named. Counted with round 48 (``round48`` runs
them); ``gpuwise ask``'s '50 years' at the plan's horizon is in tests/test_hostileleft60.py (keystrokes, not a
command line).

Run on 66f6fccb (before this branch's fixes): 13 cases, 4 clean (the neighbours: growth 1, '20000 USD', '$2.50',
'¥20000' in a CNY file); on this branch 13 of 13. Fixed, each with its test in tests/test_hostileleft60.py:

* ``growth_per_month: 10`` (or 5, 2) over 6 months was planned at 1,000% a month, nothing said: the field's bound is
  1 (a load doubling every month), and the fraction is offered (units.percent_meant);
* a bound refusal was pydantic's words in English: 'must be at most 60 (got 600)', as the catalog says it in Chinese
  (error_words.bound_words; its bound written as given, 10000000 and 0.000001, not 10000000.0 and 1e-06 in zh);
* '€20,000' / '20000 EUR' / '£15,000' in a file's amount, a price CSV's '€2.50' cell: EUR (GBP) named as a currency
  gpuwise does not price in, and USD or CNY offered (notation.other_currency).
"""
from __future__ import annotations

from typing import Any

from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round48 import IMPORT, SERVE8, _answered, _chat, _plan, _refused_no, _row


def add(case, ns: dict[str, Any]) -> None:
    rcase, _acase, pcase = doc_cases(case)
    pyd = ("Input should be",)

    # ------------------------------------------------------------ growth_per_month as a whole percentage
    pcase("left60: growth_per_month 10 over 6 months (within the load's bound): refused, 0.1 offered", _plan([_chat(cadence={"growth_per_month": 10})]),
          _refused_no("plan.yaml", "workloads[0].cadence.growth_per_month", "at most 1", "0.1"), argv=("plan", "plan.yaml"))
    pcase("left60: growth_per_month 5 over 6 months, --lang zh: refused, 0.05 offered", _plan([_chat(cadence={"growth_per_month": 5})]),
          _refused_no("plan.yaml", "growth_per_month", "0.05"), argv=("plan", "plan.yaml", "--lang", "zh"))
    pcase("left60: growth_per_month 1 (doubling a month, the bound): planned", _plan([_chat(cadence={"growth_per_month": 1})]), _answered)

    # ------------------------------------------------------------ bounds in the house's words
    pcase("left60: horizon_months 600: 'must be at most 60', not pydantic's words", {**_plan([_chat()]), "horizon_months": 600},
          _refused_no("plan.yaml", "horizon_months: must be at most 60 (got 600)", absent=pyd), argv=("plan", "plan.yaml"))
    rcase("left60: requests_per_s 1e9: 'must be at most 10000000'", {"workload": {**SERVE8, "requests_per_s": 1e9}},
          _refused_no("r.yaml", "must be at most 10000000 (got", absent=pyd))
    rcase("left60: params_b 1e-7, --lang zh: the bound as written (0.000001, not 1e-06)", {"workload": {"task": "inference", "params_b": 1e-7}},
          _refused_no("r.yaml", "必须不小于 0.000001", absent=("1e-06",)), argv=("recommend", "r.yaml", "--lang", "zh"))

    # ------------------------------------------------------------ an amount in a currency gpuwise does not price in
    for given, code in (("€20,000", "EUR"), ("20000 EUR", "EUR"), ("£15,000", "GBP")):
        rcase(f"left60: budget_usd {given!r}: {code} named, USD or CNY offered", {"workload": SERVE8, "constraints": {"budget_usd": given}},
              _refused_no("r.yaml", "constraints.budget_usd", code, "USD or CNY", absent=("not an amount",)), argv=("recommend", "r.yaml"))
    case("left60: a price CSV's '€2.50' cell: the row left out, EUR named", {"c.csv": "gpu,gpus,price\nH100,1,€2.50\n"}, list(IMPORT), expect="any",
         check=_row("'€2.50' is in EUR", "USD or CNY", absent=("not a number",)))
    rcase("left60: budget_usd '20000 USD': answered", {"workload": SERVE8, "constraints": {"budget_usd": "20000 USD"}}, _answered)
    case("left60: a price CSV's '$2.50' cell: the number offered, no currency said wrong", {"c.csv": "gpu,gpus,price\nH100,1,$2.50\n"}, list(IMPORT), expect="any",
         check=_row("'$2.50' is not a number: write 2.5", absent=("does not price in",)))
    rcase("left60: budget_usd '¥20000' in a CNY file: answered", {"workload": SERVE8, "constraints": {"budget_usd": "¥20000", "currency": "CNY"}}, _answered)
