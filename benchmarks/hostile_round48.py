# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-eight of the hostile corpus: numbers, currencies and files as a user writes them from a dashboard,
a spreadsheet or habit -- a share given as a whole percentage (``prefix_cache_hit_rate: 80``,
``speculative.acceptance_rate: 70`` or ``'70%'``, ``memory_fraction: 90``, a plan's ``growth_per_month: 10`` or
``20``), a number with its unit that comes out past the field's bound (``horizon_months: 50 years``,
``hours_per_day: 30h``, ``prefix_cache_hit_rate: 100%``), a file's currency written as people say it (``RMB``,
``¥``, ``dollars`` in a requirements file, a plan, a price CSV's ``currency`` column), a price CSV with a monthly
price (a ``price_per_month`` column, a ``$1800/month`` cell), a plan's service given a request rate and a
concurrency both, ``gpuwise prices`` filters that match nothing, and the neighbours already clean (``1.5k``,
``1,000``, ``8x``, ``2 weeks``, ``.inf``, yes/on/Y, paths with spaces and Chinese, a symlink loop in a proposals
folder, a fullwidth model name, ``params_b`` at 0.0001 and 100000). Added to benchmarks/hostile_corpus.py's table
by :func:`add`.

Run on main at 44b2dc78 (before this branch's fixes): 50 cases, 22 clean; on this branch 50 of 50. A second batch of 11
(prose48: numbers written as prose) on c4a4acd8: 1 clean; 61 of 61 on this branch. Fixed (each with
its test in tests/test_hostile48.py):

* a share given as a whole percentage past its bound (``prefix_cache_hit_rate: 80``, ``memory_fraction: 90``,
  ``acceptance_rate: 70``, ``growth_per_month: 20``) was pydantic's bound alone: the fraction is offered where it is
  within the bound (units.percent_meant); ``growth_per_month: 10`` past the load's bound offers 0.1 after saying so;
  ``acceptance_rate: '70%'`` was 'unable to parse string as a number': 0.7 offered;
* a number with its unit offered past the field's bound ('50 years': 'write 600', horizon_months at most 60;
  '30h' for hours_per_day; '100%' for prefix_cache_hit_rate) was offered alone: the bound follows (units._offer);
* ``constraints.currency`` RMB / dollars / 人民币 / ¥ / renminbi in a requirements file, plan or proposal, and a price
  CSV's currency cell RMB / yuan, were refused with the two choices alone: the code is offered (notation.CURRENCY_NAMES,
  which ``--currency``'s aliases now read too); a CSV's currency cell is quoted as written ('yuan', not 'YUAN');
* a price CSV's monthly price ('$1800/month', '1800 per month'; a ``price_per_month`` or ``monthly_usd`` column and no
  ``price``) was 'not a number' / 'the header lacks price': the price an hour over 730 hours (ledger.HOURS_PER_MONTH)
  is offered;
* a plan service's ``targets`` with ``requests_per_s`` and ``concurrency`` both was planned on the rate, the
  concurrency dropped silently: refused, one load asked for;
* ``gpuwise prices --gpu B200 --provider autodl`` and ``--gpu H100 --currency CNY`` said 'No prices match.' alone:
  the filters as typed, and what each left out would match (prices/table.py other_matches).
* a number written as prose ('~1000', 'about 1k', a range '16-32' or '10 to 14', '2x8' GPUs, '15 cents' or
  '12¢/kWh', a date for deadline_days) was 'unable to parse string as a number': the number meant is offered
  (inputs/prose.py); a range asks for one number with both ends offered, a past date offers none.

Clean on 44b2dc78 already: prefix_cache_hit_rate 1.0 and 150 (nothing offered), horizon '5 years', horizon 600, the
EUR currency, an hourly '$2.50/hr' cell, duplicated rows (the cheaper kept), targets.concurrency alone,
requests_per_s 0, disaggregated on one GPU (SRV-DISAGGREGATED-ONE-COPY), ``1.5k``, ``.inf``, ``prefix_cache: Y``,
a quoted count, params_b 0.0001 and 100000, a fullwidth model name (refused, escaped, offered), a path with a space
and Chinese, a symlink loop and a self-link in a proposals folder, an empty JSON price list.

Seen and left: ``growth_per_month: 10`` over a horizon short enough to stay within the load's bound (6 months: 2 to
3.2e5 requests/s) is planned as 1,000% a month, nothing said (10 is within the field's bound of 10); the bound
refusals stay in pydantic's English words ('Input should be less than or equal to 60') where --lang zh has the
catalog's (45 tests quote them); fullwidth GPU and model names stay refused with the ASCII name offered (rounds 23, 39).
The first two, ask's '50 years' and an amount in EUR were settled by hostileleft60 (benchmarks/hostile_left60.py).
"""
from __future__ import annotations

import json
from typing import Any

from benchmarks.hostile_round12 import _one, _refused
from benchmarks.hostile_round28 import doc_cases

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
IMPORT = ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"]
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")


def _json(r) -> Any:
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def _refused_no(*words: str, absent: tuple[str, ...] = (), lacks_file: str = ""):
    """Refused in one line holding ``words`` and none of ``absent``; ``lacks_file`` not written."""
    def check(r) -> bool:
        return (_refused(*words)(r) and not any(w in r.stderr for w in absent)
                and not (lacks_file and (r.cwd / lacks_file).exists()))
    return check


def _answered(r) -> bool:
    """Answered (exit 0 or 1) with JSON, nothing on stderr."""
    return r.returncode in (0, 1) and not r.stderr.strip() and _json(r) is not None


def _y_load(text: str) -> dict:
    import yaml
    return yaml.safe_load(text)


def _plan(workloads: list[dict], **more: Any) -> dict:
    return {"horizon_months": 6, "workloads": workloads, **more}


def _chat(**over: Any) -> dict:
    d = {"name": "chat", "workload": SERVE8, "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 2}}
    for k, v in over.items():
        d[k] = {**d.get(k, {}), **v} if isinstance(v, dict) else v
    return d


def _row(*words: str, absent: tuple[str, ...] = (), rc: int = 2):
    """A price CSV imported (``rc`` 0) or left out (2): the words on either stream, no traceback, none of ``absent``."""
    def check(r) -> bool:
        out = r.stdout + r.stderr
        return r.returncode == rc and "Traceback" not in out and all(w in out for w in words) and not any(w in out for w in absent)
    return check


def _listed(*words: str, absent: tuple[str, ...] = ()):
    """``gpuwise prices`` answered (exit 0, nothing on stderr) with ``words`` in its text."""
    return lambda r: r.returncode == 0 and not r.stderr.strip() and all(w in r.stdout for w in words) and not any(w in r.stdout for w in absent)


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    prop = ns["PROP"]

    # ------------------------------------------------------------ a share given as a whole percentage
    rcase("pct48: prefix_cache_hit_rate 80 (a percentage): refused, 0.8 offered", {"workload": {**SERVE8, "prefix_cache_hit_rate": 80}},
          _refused_no("r.yaml", "workload.prefix_cache_hit_rate", "0.8"))
    rcase("pct48: prefix_cache_hit_rate 80, --lang zh: refused, 0.8 offered", {"workload": {**SERVE8, "prefix_cache_hit_rate": 80}},
          _refused_no("r.yaml", "workload.prefix_cache_hit_rate", "0.8"), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    rcase("pct48: speculative.acceptance_rate 70: refused, 0.7 offered", {"workload": {**SERVE8, "speculative": {"method": "eagle3", "acceptance_rate": 70}}},
          _refused_no("r.yaml", "workload.speculative.acceptance_rate", "0.7"))
    rcase("pct48: speculative.acceptance_rate '70%': refused, 0.7 offered", {"workload": {**SERVE8, "speculative": {"method": "eagle3", "acceptance_rate": "70%"}}},
          _refused_no("r.yaml", "workload.speculative.acceptance_rate", "0.7", absent=("unable to parse",)))
    rcase("pct48: memory_fraction 90 (vLLM's --gpu-memory-utilization as a percentage): refused, 0.9 offered", {"workload": {**SERVE8, "framework": "vllm", "memory_fraction": 90}},
          _refused_no("r.yaml", "workload.memory_fraction", "0.9"))
    rcase("pct48: prefix_cache_hit_rate 1.0 (not a percentage: one whole): refused at 0.99, 0.01 not offered", {"workload": {**SERVE8, "prefix_cache_hit_rate": 1.0}},
          _refused("r.yaml", "workload.prefix_cache_hit_rate", "0.99"))
    rcase("pct48: prefix_cache_hit_rate 150 (past a percentage): refused, nothing offered", {"workload": {**SERVE8, "prefix_cache_hit_rate": 150}},
          lambda r: _refused("r.yaml", "workload.prefix_cache_hit_rate")(r) and "1.5" not in r.stderr)
    pcase("pct48: a plan's service prefix_cache_hit_rate 50: refused, 0.5 offered", _plan([_chat(workload={**SERVE8, "prefix_cache_hit_rate": 50})]),
          _refused_no("plan.yaml", "workloads[0].workload.prefix_cache_hit_rate", "0.5"), argv=("plan", "plan.yaml"))
    pcase("pct48: a plan's growth_per_month 20 (past its bound of 10): refused, 0.2 offered", _plan([_chat(cadence={"growth_per_month": 20})]),
          _refused_no("plan.yaml", "workloads[0].cadence.growth_per_month", "0.2"), argv=("plan", "plan.yaml"))
    pcase("pct48: a plan's growth_per_month 10 over 12 months (1,000% a month, past the rate's bound): refused, 0.1 offered", {**_plan([_chat(cadence={"growth_per_month": 10})]), "horizon_months": 12},
          _refused_no("plan.yaml", "growth_per_month", "0.1"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ a number with its unit, past the field's bound
    pcase("bound48: horizon_months '50 years': refused, 600 not offered alone: the bound of 60 said", {**_plan([_chat()]), "horizon_months": "50 years"},
          _refused_no("plan.yaml", "horizon_months", "600", "at most 60"), argv=("plan", "plan.yaml"))
    pcase("bound48: horizon_months '10 years', --lang zh: refused, the bound said", {**_plan([_chat()]), "horizon_months": "10 years"},
          _refused_no("plan.yaml", "horizon_months", "120", "60"), argv=("plan", "plan.yaml", "--lang", "zh"))
    pcase("bound48: horizon_months '5 years' (at the bound): refused, 60 offered", {**_plan([_chat()]), "horizon_months": "5 years"},
          _refused_no("plan.yaml", "horizon_months", "write 60", absent=("at most",)), argv=("plan", "plan.yaml"))
    pcase("bound48: hours_per_day '30h': refused, 30 past the day's 24 said", _plan([_chat(cadence={"hours_per_day": "30h"})]),
          _refused_no("plan.yaml", "hours_per_day", "30", "24"), argv=("plan", "plan.yaml"))
    rcase("bound48: prefix_cache_hit_rate '100%': refused, 1 past its bound of 0.99 said", {"workload": {**SERVE8, "prefix_cache_hit_rate": "100%"}},
          _refused_no("r.yaml", "workload.prefix_cache_hit_rate", "0.99"))
    pcase("bound48: horizon_months 600: refused, the bound said", {**_plan([_chat()]), "horizon_months": 600},
          _refused("plan.yaml", "horizon_months", "60", "600"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ a currency written as people say it
    rcase("cur48: constraints.currency 'RMB': refused, CNY offered", {"workload": SERVE8, "constraints": {"currency": "RMB"}},
          _refused_no("r.yaml", "constraints.currency", "did you mean CNY?"), argv=("recommend", "r.yaml"))
    rcase("cur48: constraints.currency 'dollars': refused, USD offered", {"workload": SERVE8, "constraints": {"currency": "dollars"}},
          _refused_no("r.yaml", "constraints.currency", "did you mean USD?"), argv=("recommend", "r.yaml"))
    rcase("cur48: constraints.currency '人民币', --lang zh: refused, CNY offered", {"workload": SERVE8, "constraints": {"currency": "人民币"}},
          _refused_no("r.yaml", "constraints.currency", "CNY？"), argv=("recommend", "r.yaml", "--lang", "zh"))
    pcase("cur48: a plan's constraints.currency '¥': refused, CNY offered", {**_plan([_chat()]), "constraints": {"currency": "¥"}},
          _refused_no("plan.yaml", "constraints.currency", "did you mean CNY?"), argv=("plan", "plan.yaml"))
    acase("cur48: a proposal's constraints.currency 'renminbi': refused, CNY offered", {**_y_load(prop), "constraints": {"currency": "renminbi"}},
          _refused_no("p.yaml", "constraints.currency", "did you mean CNY?"), argv=("audit", "p.yaml"))
    rcase("cur48: constraints.currency 'EUR': refused with the two choices, none offered", {"workload": SERVE8, "constraints": {"currency": "EUR"}},
          _refused_no("r.yaml", "constraints.currency", "USD", "CNY", absent=("did you mean",)), argv=("recommend", "r.yaml"))
    case("cur48: a price CSV's currency 'RMB': the row left out, CNY offered", {"c.csv": "gpu,gpus,price,currency\nH100,8,15,RMB\n"}, IMPORT, expect="any",
         check=_row("currency", "'RMB'", "write CNY"))
    case("cur48: a price CSV's currency 'yuan': as written, CNY offered", {"c.csv": "gpu,gpus,price,currency\nH100,8,15,yuan\n"}, IMPORT, expect="any",
         check=_row("'yuan'", "write CNY", absent=("'YUAN'",)))
    case("cur48: a price CSV's currency 'EUR': the row left out, nothing offered", {"c.csv": "gpu,gpus,price,currency\nH100,8,2.5,EUR\n"}, IMPORT, expect="any",
         check=_row("'EUR'", absent=("write ",)))

    # ------------------------------------------------------------ a price CSV with a monthly price
    case("month48: a price cell '$1800/month': the row left out, the hourly price offered (1800 / 730 h)", {"c.csv": "gpu,gpus,price\nH100,8,$1800/month\n"}, IMPORT, expect="any",
         check=_row("price", "730", "2.466"))
    case("month48: a price cell '1800 per month', --lang zh: the hourly price offered", {"c.csv": "gpu,gpus,price\nH100,8,1800 per month\n"}, [*IMPORT, "--lang", "zh"], expect="any",
         check=_row("price", "730", "2.466"))
    case("month48: a header 'price_per_month' (no hourly price): refused, the column named as monthly", {"c.csv": "gpu,gpus,price_per_month\nH100,8,1800\n"}, IMPORT, expect="any",
         check=_refused_no("c.csv", "price_per_month", "hour", lacks_file="ov"))
    case("month48: a header 'monthly_usd': refused, the column named as monthly", {"c.csv": "gpu,gpus,monthly_usd\nH100,8,1800\n"}, IMPORT, expect="any",
         check=_refused_no("c.csv", "monthly_usd", "hour", lacks_file="ov"))
    case("month48: a price cell '$2.50/hr' (hourly): 2.5 offered as before", {"c.csv": "gpu,gpus,price\nH100,8,$2.50/hr\n"}, IMPORT, expect="any",
         check=_row("write 2.5", absent=("730",)))
    case("month48: two rows of one instance at two prices: one offer, the cheaper", {"c.csv": "gpu,gpus,price\nH100,8,2.99\nH100,8,2.49\n"}, IMPORT, expect="any",
         check=lambda r: r.returncode == 0 and "usd_per_hour: 2.49" in (r.cwd / "ov" / "clouds.yaml").read_text())

    # ------------------------------------------------------------ a plan's service given two loads
    pcase("load48: targets with requests_per_s and concurrency: refused, one load asked for", _plan([_chat(targets={"requests_per_s": 2, "concurrency": 16})]),
          _refused_no("plan.yaml", "workloads[0].targets", "requests_per_s", "concurrency"), argv=("plan", "plan.yaml"))
    pcase("load48: the same, --lang zh", _plan([_chat(targets={"requests_per_s": 2, "concurrency": 16})]),
          _refused_no("plan.yaml", "workloads[0].targets", "requests_per_s", "concurrency"), argv=("plan", "plan.yaml", "--lang", "zh"))
    pcase("load48: targets.concurrency alone: planned", _plan([{**_chat(), "targets": {"concurrency": 16}}]), lambda r: r.returncode in (0, 1) and _one(r) and _json(r) is not None)
    rcase("load48: requests_per_s 0: refused by its bound", {"workload": {**SERVE8, "requests_per_s": 0}}, _refused("r.yaml", "workload.requests_per_s", "0"))
    rcase("load48: disaggregated on at most one GPU: served colocated, SRV-DISAGGREGATED-ONE-COPY said", {"workload": {**SERVE8, "disaggregated": True, "requests_per_s": 2}, "constraints": {"max_gpus": 1}},
          lambda r: r.returncode in (0, 1) and "SRV-DISAGGREGATED-ONE-COPY" in r.stdout, argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ prices filters that match nothing
    case("filter48: prices --gpu B200 --provider autodl (none there): says so, names who lists B200", {}, ["prices", "--gpu", "B200", "--provider", "autodl"], expect="any",
         check=_listed("autodl", "B200", "runpod"))
    case("filter48: the same, --lang zh", {}, ["prices", "--gpu", "B200", "--provider", "autodl", "--lang", "zh"], expect="any",
         check=_listed("autodl", "B200", "runpod"))
    case("filter48: prices --gpu H100 --currency CNY (no yuan price): says so, the currency it has named", {}, ["prices", "--gpu", "H100", "--currency", "CNY"], expect="any",
         check=_listed("CNY", "USD"))
    case("filter48: prices --gpu B200 --provider autodl --format json: an empty list", {}, ["prices", "--gpu", "B200", "--provider", "autodl", "--format", "json"], expect="any",
         check=lambda r: r.returncode == 0 and not r.stderr.strip() and _json(r) is not None)

    # ------------------------------------------------------------ numbers as people write them in prose (second batch)
    rcase("prose48: prompt_tokens '~1000': refused, 1000 offered", {"workload": {**SERVE8, "prompt_tokens": "~1000"}},
          _refused_no("r.yaml", "workload.prompt_tokens", "write 1000", absent=("unable to parse",)))
    rcase("prose48: prompt_tokens 'about 1k', --lang zh: refused, both readings of k offered", {"workload": {**SERVE8, "prompt_tokens": "about 1k"}},
          _refused_no("r.yaml", "workload.prompt_tokens", "1024", "1000", absent=("unable to parse",)), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    rcase("prose48: concurrent_requests '16-32' (a range): refused, one number asked, both ends offered", {"workload": {**SERVE8, "concurrent_requests": "16-32"}},
          _refused_no("r.yaml", "workload.concurrent_requests", "range", "32", "16", absent=("unable to parse",)))
    rcase("prose48: deadline_days '10 to 14' (a range): refused, both ends offered", {"workload": LORA8, "constraints": {"deadline_days": "10 to 14"}},
          _refused_no("r.yaml", "constraints.deadline_days", "range", "14", "10", absent=("unable to parse",)), argv=("recommend", "r.yaml"))
    rcase("prose48: max_gpus '2x8' (two servers of eight): refused, 16 offered", {"workload": SERVE8, "constraints": {"max_gpus": "2x8"}},
          _refused_no("r.yaml", "constraints.max_gpus", "write 16", absent=("unable to parse",)), argv=("recommend", "r.yaml"))
    acase("prose48: a proposal's hardware.count '2 x 8': refused, 16 offered", {**_y_load(prop), "hardware": {**_y_load(prop)["hardware"], "count": "2 x 8"}},
          _refused_no("p.yaml", "hardware.count", "write 16", absent=("unable to parse",)), argv=("audit", "p.yaml"))
    rcase("prose48: electricity_usd_per_kwh '15 cents': refused, 0.15 offered", {"workload": LORA8, "constraints": {"electricity_usd_per_kwh": "15 cents"}},
          _refused_no("r.yaml", "constraints.electricity_usd_per_kwh", "write 0.15", absent=("unable to parse",)), argv=("recommend", "r.yaml"))
    pcase("prose48: a plan's electricity '12¢/kWh': refused, 0.12 offered", {**_plan([_chat()]), "constraints": {"electricity_usd_per_kwh": "12¢/kWh"}},
          _refused_no("plan.yaml", "constraints.electricity_usd_per_kwh", "write 0.12", absent=("unable to parse",)), argv=("plan", "plan.yaml"))
    case("prose48: deadline_days 2099-12-31 (a date, unquoted): refused as a date, the days to it offered", {"r.yaml": "workload: " + json.dumps(LORA8) + "\nconstraints: {deadline_days: 2099-12-31}\n"},
         ["recommend", "r.yaml"], expect="any", check=_refused_no("r.yaml", "constraints.deadline_days", "2099-12-31", "date", "days", absent=("valid number",)))
    pcase("prose48: a plan's deadline_days '2020-01-31' (a date past): refused as a date, nothing offered", _plan([{"name": "ft", "workload": LORA8, "cadence": {"per_month": 1}, "deadline_days": "2020-01-31"}]),
          _refused_no("plan.yaml", "workloads[0].deadline_days", "date", absent=("unable to parse", "write ")), argv=("plan", "plan.yaml"))
    rcase("prose48: concurrent_requests '-5' (a negative, not a range): refused by its bound", {"workload": {**SERVE8, "concurrent_requests": "-5"}},
          _refused("r.yaml", "workload.concurrent_requests", "-5"))

    # ------------------------------------------------------------ neighbours clean before this round (kept as cases)
    rcase("clean48: prompt_tokens '1.5k': both readings of k offered", {"workload": {**SERVE8, "prompt_tokens": "1.5k"}}, _refused("r.yaml", "1536", "1500"))
    rcase("clean48: budget_usd .inf: refused as not finite", {"workload": SERVE8, "constraints": {"budget_usd": float("inf")}}, _refused("r.yaml", "constraints.budget_usd", "finite"), argv=("recommend", "r.yaml"))
    case("clean48: prefix_cache 'on' / Y read as YAML 1.1 booleans: answered", {"r.yaml": "workload: {task: inference, model: llama-3.1-8b, prefix_cache: Y}\n"}, list(EST), expect="any", check=_answered)
    rcase("clean48: concurrent_requests '16' (a quoted count): read as 16", {"workload": {**SERVE8, "concurrent_requests": "16"}}, _answered)
    rcase("clean48: params_b 0.0001 (a 100k-parameter model): answered, finite", {"workload": {"task": "inference", "params_b": 0.0001}}, _answered)
    rcase("clean48: params_b 100000 (100T): no GPU holds it, exit 1", {"workload": {"task": "finetune", "method": "lora", "params_b": 100000, "train_tokens": 1e8}},
          lambda r: r.returncode == 1 and _one(r), argv=("recommend", "r.yaml"))
    rcase("clean48: model 'Ｌｌａｍａ-3.1-8B' (fullwidth): refused, escaped, llama-3.1-8b offered", {"workload": {**SERVE8, "model": "Ｌｌａｍａ-3.1-8B"}},
          _refused("r.yaml", "workload.model", "\\uff2c", "llama-3.1-8b"))
    case("clean48: a requirements file and -o under a folder with a space and Chinese in the names", {"my dir/需求 é.yaml": ns["LORA"]}, ["recommend", "my dir/需求 é.yaml", "-o", "my dir/报告 1.md"], expect="any",
         check=lambda r: r.returncode in (0, 1) and (r.cwd / "my dir" / "报告 1.md").exists())
    case("clean48: a proposals folder holding a symlink loop: the others audited, the loop named, exit 2", {"ps/a.yaml": prop, "ps/b.yaml": ("LINK", "c.yaml"), "ps/c.yaml": ("LINK", "b.yaml")}, ["audit", "ps"], expect="any",
         check=lambda r: r.returncode == 2 and _one(r) and "ps/b.yaml" in r.stderr and "APPROVE" in r.stdout)
    case("clean48: a proposals folder holding a link to itself: the folder's files audited once", {"ps/a.yaml": prop, "ps/sub": ("LINK", ".")}, ["audit", "ps"], expect="any",
         check=lambda r: r.returncode in (0, 1) and "Audit of 1 proposal" in r.stdout)
