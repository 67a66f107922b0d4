# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty-three of the hostile corpus: what a team sends when its files grow -- a plan whose months run
backwards or past the horizon, thirty jobs or six owned entries with one misspelt name among them, owned GPUs bought
tomorrow, a file with an amount in yuan beside bare ones, a quote's total beside its price a GPU that does or does not
agree, a model no catalog GPU set holds, Chinese model names, no-break and zero-width spaces and full-width letters,
BOM / CR / CRLF files, a price CSV whose header is in another order or in capitals, very long values on the command
line, numbers YAML reads as not finite (``.nan``, ``.inf``, ``1e309``) and as booleans, keys in capitals, ``--json`` on
every command and a closed pipe. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at e9d34e74 (before this branch's fixes, with the round's file added: 06e22bfc, 63 cases then, 37 clean;
as it stands, 65 cases, 39 clean); on this branch 65 of 65. Fixed (each with its test in tests/test_hostile53.py, 32 of
whose tests fail on e9d34e74):

* YAML's ``.nan``, ``.inf``, ``-.inf`` and ``1e309`` in any number field were pydantic's 'Input should be a finite
  number': 'must be a finite number (got .nan)' (inputs/schema.py, the catalog's template in English too);
* a key in capitals ('WORKLOAD', 'TASK', 'GPU', 'HORIZON_MONTHS') listed the valid keys: the key it is in lower case
  offered (error_words._close_key);
* a choice in full-width letters ('ｖｌｌｍ', 'ＢＦ１６') offered nothing: read through NFKC for the hint
  (error_words.literal_close);
* a 100,000-character --lang / --format value or stray argument was quoted whole in argparse's line (100,110
  characters): cut to 40 with its length, the line capped at errors.MAX_MESSAGE (cli_args._clip_values); a
  100,000-character --gpu, quoted to the 2,000-character cap, likewise (names.visible);
* ``total_usd`` beside ``unit_price_usd`` offered the total's quotient as if no price were given: said to agree (leave
  it out) or to disagree, both figures given (proposal._total_price);
* an owned GPU bought tomorrow (a YAML date, or '2026-12-25' quoted, this month) was read as this month and planned:
  refused as in the future, as a used card's ``purchased`` day is (dates.month_text, plan/schema.py, proposal.py);
* a price CSV header in capitals ('GPU,GPUs,Price', 'PRICE,GPUS,GPU') was refused 'did you mean GPU for gpu?': read
  as the layout its columns name but for case (catalog_csv._header_case; two cells differing only in case are still
  refused);
* a budget in yuan ('¥2,000,000', '20万元') in a proposal or requirements file stating no currency made the file CNY,
  and a bare ``unit_price_usd: 30000``, ``hourly_usd: 4.29`` or ``electricity_usd_per_kwh: 0.15`` beside it was read
  as yuan, silently: refused naming the bare amount (requirements.bare_beside);
* a yes/no word quoted in a number field (``concurrent_requests: 'on'``) was pydantic's 'unable to parse string as an
  integer', where the unquoted word is said to be a yes/no value: said to be one (inputs/strict.py);
* '通义千问3-32B' (Qwen's Chinese name, as the Qwen team's README_CN writes it) was offered params_b 32: qwen3-32b
  offered, by models.yaml ``family_names`` (never taken for the entry).

Clean on main already (kept as neighbours): end_month before start_month, end_month past the horizon (planned to its
end, docs/formats.md), start_month past it, at_month 0, a misspelt GPU or model among 30 jobs or six owned entries
(its index named), owned GPUs bought next month, a CNY file's '$30,000' and a CNY plan's '$40,000', count 4 on 8
nodes, 50,000B and 20,000B models (no answer, exit 1), a no-break space in a GPU name, a zero-width space in a model
name (escaped), '８' as a count, 'Ｈ１００', BOM / CRLF and CR-only files, a header in another order, 'gpu' beside
'GPU', a 1,000,000-character model name, hourly_usd -0, count yes,
requests_per_s -1, --json on seven commands, prices and estimate in Chinese into a closed pipe.
"""
from __future__ import annotations

import datetime as dt
import functools
import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round51 import H100X8, IMPORT, LORA8, SERVE8
from benchmarks.hostile_round52 import _json, _refused_no  # round 52's verdicts, not written twice

PROP = {"title": "t", "workload": SERVE8, "hardware": H100X8, "acquisition": {"mode": "buy"}}
"""8 H100 SXM bought to serve Llama 3.1 8B: the proposal this round's currency and total cases edit."""
YML = "workload:\n  task: inference\n  model: llama-3.1-8b\n  prompt_tokens: 1000\n  output_tokens: 200\n"



def _answered(r) -> bool:
    """Exit 0 or 1, JSON on stdout, nothing on stderr."""
    return r.returncode in (0, 1) and not r.stderr.strip() and isinstance(_json(r), dict)


def _short(limit: int = 400):
    """Refused in one line of at most ``limit`` characters (a value echoed back is cut, not printed whole)."""
    return lambda r: r.returncode == 2 and len(r.stderr.strip().split("\n")) == 1 and len(r.stderr) <= limit and "Traceback" not in r.stderr


def _imported(n: int):
    return lambda r: r.returncode == 0 and f"imported {n} offer" in r.stdout and (r.cwd / "ov" / "clouds.yaml").is_file()


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]
    _plan = functools.partial(_edited, plan)
    plan_json = ("plan", "plan.yaml", "--format", "json")
    plan_text = ("plan", "plan.yaml")

    def _cad(i: int, **cad) -> dict:
        return _plan(lambda d: d["workloads"][i]["cadence"].update(cad))

    # ------------------------------------------------------------ a plan's months backwards or past the horizon
    pcase("months53: start_month 6, end_month 3 (backwards): refused, end before start said", _cad(0, start_month=6, end_month=3),
          _refused_no("plan.yaml", "workloads[0].cadence", "end_month is before start_month"), argv=plan_text)
    pcase("months53: end_month 20 of a 12-month horizon: planned to the last month (docs/formats.md)", _cad(0, start_month=2, end_month=20),
          _answered, argv=plan_json)
    pcase("months53: start_month 13 of a 12-month horizon: refused, after the horizon said", _cad(1, start_month=13),
          _refused_no("plan.yaml", "workloads[1].cadence.start_month", "after the horizon"), argv=plan_text)
    pcase("months53: at_month 0: refused by its bound", _cad(2, at_month=0), _refused_no("plan.yaml", "workloads[2].cadence.at_month", "at least 1"), argv=plan_text)

    # ------------------------------------------------------------ a team's long files with one slip among them
    def _thirty(edit) -> dict:
        def build(d: dict) -> None:
            d["workloads"] = [{**json.loads(json.dumps(d["workloads"][0])), "name": f"job-{i:02d}"} for i in range(30)]
            edit(d)
        return _plan(build)

    pcase("team53: 30 jobs, constraints.gpus with 'RTX 4900' sixth of six: refused at constraints.gpus[5], rtx-4090 offered",
          _thirty(lambda d: d["constraints"].update(gpus=["H100 SXM", "A100 80GB", "L40S", "RTX 4090", "H200", "RTX 4900"])),
          _refused_no("plan.yaml", "constraints.gpus[5]", "rtx-4090"), argv=plan_text)
    pcase("team53: 30 jobs, the 18th's model 'llama-3.1-8bb': refused at workloads[17], llama-3.1-8b offered",
          _thirty(lambda d: d["workloads"][17]["workload"].update(model="llama-3.1-8bb")),
          _refused_no("plan.yaml", "workloads[17].workload.model", "llama-3.1-8b"), argv=plan_text)
    pcase("team53: six owned entries, the fifth 'RTX 4009': refused at owned[4].gpu, rtx-4090 offered",
          _plan(lambda d: d.update(owned=[dict(d["owned"][0], gpu="RTX 4009" if i == 4 else "RTX 4090") for i in range(6)])),
          _refused_no("plan.yaml", "owned[4].gpu", "rtx-4090"), argv=plan_text)

    # ------------------------------------------------------------ owned GPUs bought in the future
    today = dt.date.today()
    ahead = today + dt.timedelta(days=1)
    nxt = dt.date(today.year + today.month // 12, today.month % 12 + 1, 1)
    pcase(f"future53: owned bought {nxt:%Y-%m} (next month): refused as in the future", _plan(lambda d: d["owned"][0].update(bought=f"{nxt:%Y-%m}")),
          _refused_no("plan.yaml", "owned[0].bought", "in the future"), argv=plan_text)
    pcase(f"future53: owned bought {ahead} (tomorrow, a YAML date): refused as in the future, not read as its month",
          _plan(lambda d: d["owned"][0].update(bought=ahead)), _refused_no("plan.yaml", "owned[0].bought", "in the future"), argv=plan_text)
    pcase(f"future53: owned bought {today} (today, a YAML date): planned", _plan(lambda d: d["owned"][0].update(bought=today)), _answered, argv=plan_json)

    # ------------------------------------------------------------ two currencies in one file
    acase("cur53: a proposal with no currency, budget '¥2,000,000' and a bare unit_price_usd 30000: refused, the bare price named (never read as CN¥30,000)",
          {**PROP, "acquisition": {"mode": "buy", "unit_price_usd": 30000}, "constraints": {"budget_usd": "¥2,000,000"}},
          _refused_no("p.yaml", "budget_usd", "CNY", "acquisition.unit_price_usd", "constraints.currency"), argv=("audit", "p.yaml"))
    acase("cur53: the same with hourly_usd 4.29 on a Lambda rental: refused, the bare price named",
          {**PROP, "workload": LORA8, "acquisition": {"mode": "rent", "provider": "lambda", "hourly_usd": 4.29}, "constraints": {"budget_usd": "20万元"}},
          _refused_no("p.yaml", "budget_usd", "CNY", "acquisition.hourly_usd"), argv=("audit", "p.yaml"))
    rcase("cur53: a requirements file with budget '¥200,000' and a bare electricity 0.15 (no currency): refused, the electricity named",
          {"workload": LORA8, "constraints": {"budget_usd": "¥200,000", "electricity_usd_per_kwh": 0.15}},
          _refused_no("r.yaml", "budget_usd", "CNY", "electricity_usd_per_kwh"), argv=("recommend", "r.yaml"))
    acase("cur53: a proposal with budget '¥2,000,000' and no other amount: audited in yuan (the budget sets the currency)",
          {**PROP, "constraints": {"budget_usd": "¥2,000,000"}}, lambda r: _answered(r) and _json(r).get("currency", {}).get("asked") == "CNY")
    acase("cur53: a CNY proposal with unit_price_usd '$30,000': refused, USD named", {**PROP, "acquisition": {"mode": "buy", "unit_price_usd": "$30,000"}, "constraints": {"currency": "CNY"}},
          _refused_no("p.yaml", "acquisition.unit_price_usd", "USD", "CNY"), argv=("audit", "p.yaml"))
    pcase("cur53: a CNY plan with budget_per_quarter_usd '$40,000': refused, USD named", _plan(lambda d: d["constraints"].update(currency="CNY", budget_per_quarter_usd="$40,000")),
          _refused_no("plan.yaml", "budget_per_quarter_usd", "USD"), argv=plan_text)

    # ------------------------------------------------------------ a quote's total beside its price a GPU
    acase("total53: unit_price_usd 30000 and total_usd 200000 for 8 (they disagree: 8 x 30,000 is 240,000): refused, both said",
          {**PROP, "acquisition": {"mode": "buy", "unit_price_usd": 30000, "total_usd": 200000}},
          _refused_no("p.yaml", "acquisition.total_usd", "240000", "25000"), argv=("audit", "p.yaml"))
    acase("total53: unit_price_usd 30000 and total_usd 240000 for 8 (they agree): refused, total_usd to leave out, no other price offered",
          {**PROP, "acquisition": {"mode": "buy", "unit_price_usd": 30000, "total_usd": 240000}},
          _refused_no("p.yaml", "acquisition.total_usd", "agrees with unit_price_usd", "leave total_usd out"), argv=("audit", "p.yaml"))
    acase("total53: hardware.count 4 on nodes 8: refused, more nodes than GPUs", {**PROP, "hardware": {**H100X8, "count": 4, "nodes": 8}},
          _refused_no("p.yaml", "hardware", "more nodes than GPUs"), argv=("audit", "p.yaml"))

    # ------------------------------------------------------------ a model larger than any catalog GPU set holds
    rcase("big53: inference of a 50,000B-parameter model: no recommendation, exit 1, JSON", {"workload": {"task": "inference", "params_b": 50000, "precision": "bf16"}},
          lambda r: r.returncode == 1 and not r.stderr.strip() and (_json(r) or {}).get("recommendation", 0) is None, argv=("recommend", "r.yaml", "--format", "json"))
    rcase("big53: pretraining a 20,000B model, text: 'No feasible option', exit 1", {"workload": {"task": "pretrain", "params_b": 20000, "train_tokens": 1e9}},
          lambda r: r.returncode == 1 and "No feasible option" in r.stdout and not r.stderr.strip(), argv=("recommend", "r.yaml"))

    # ------------------------------------------------------------ names in other scripts and invisible characters
    rcase("uni53: model '通义千问3-32B' (Qwen's Chinese name, as its maker writes it): refused, qwen3-32b offered", {"workload": {**SERVE8, "model": "通义千问3-32B"}},
          _refused_no("r.yaml", "workload.model", "qwen3-32b"))
    rcase("uni53: model '通义千问 Qwen3-32B' (both names): refused, qwen3-32b offered", {"workload": {**SERVE8, "model": "通义千问 Qwen3-32B"}},
          _refused_no("r.yaml", "workload.model", "qwen3-32b"))
    rcase("uni53: model '千问3-32B' (a short name models.yaml does not list): refused, params_b 32 offered from its name", {"workload": {**SERVE8, "model": "千问3-32B"}},
          _refused_no("r.yaml", "workload.model", "params_b", "32"))
    rcase("uni53: model '深度求索-R1' (a company's name models.yaml does not list): refused, params_b asked", {"workload": {**SERVE8, "model": "深度求索-R1"}},
          _refused_no("r.yaml", "workload.model", "params_b"))
    acase("uni53: hardware.gpu 'H100\\xa0SXM' (a no-break space): audited on the H100 SXM", {**PROP, "hardware": {**H100X8, "gpu": "H100\u00a0SXM"}},
          lambda r: _answered(r))
    rcase("uni53: model 'llama-3.1-8b' with a zero-width space: refused, escaped, llama-3.1-8b offered", {"workload": {**SERVE8, "model": "llama-3.1-8b\u200b"}},
          _refused_no("r.yaml", "workload.model", "\\u200b", "llama-3.1-8b"))
    acase("uni53: hardware.count '８' (full-width): refused, 8 offered", {**PROP, "hardware": {**H100X8, "count": "８"}}, _refused_no("p.yaml", "hardware.count", "write 8"))
    rcase("uni53: framework 'ｖｌｌｍ' (full-width letters): refused, vllm offered", {"workload": {**SERVE8, "framework": "ｖｌｌｍ"}},
          _refused_no("r.yaml", "workload.framework", "did you mean vllm?"))
    rcase("uni53: precision 'ＢＦ１６' (full-width): refused, bf16 offered", {"workload": {**SERVE8, "precision": "ＢＦ１６"}},
          _refused_no("r.yaml", "workload.precision", "did you mean bf16?"))
    case("uni53: --gpu 'Ｈ１００' (full-width): refused, escaped, an H100 offered", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", "Ｈ１００"],
         expect="any", check=_refused("--gpu", "\\uff28", "h100-80gb-sxm"))

    # ------------------------------------------------------------ line ends and byte-order marks
    prop_text = (ns["EX"] / "proposal-good-lora-8xh100.yaml").read_text()
    plan_file = (ns["EX"] / "plan-team-4090.yaml").read_text()
    case("enc53: a proposal with a BOM and CRLF line ends: audited", {"p.yaml": ("\ufeff" + prop_text).replace("\n", "\r\n").encode()}, ["audit", "p.yaml", "--format", "json"],
         expect="any", check=_answered)
    case("enc53: a plan with classic Mac line ends (CR only): planned", {"plan.yaml": plan_file.replace("\n", "\r").encode()}, list(plan_json), expect="any", check=_answered)
    case("csv53: a header in another order (price,gpus,gpu): imported", {"c.csv": "price,gpus,gpu\n20,8,H100 80GB SXM\n"}, IMPORT, expect="any", check=_imported(1))
    case("csv53: a header in capitals (Excel's GPU,GPUs,Price): imported", {"c.csv": "GPU,GPUs,Price\nH100 80GB SXM,8,20\n"}, IMPORT, expect="any", check=_imported(1))
    case("csv53: a header in capitals and another order, with a BOM and CRLF (PRICE,GPUS,GPU): imported", {"c.csv": "\ufeffPRICE,GPUS,GPU\r\n20,8,H100 80GB SXM\r\n"}, IMPORT,
         expect="any", check=_imported(1))
    case("csv53: 'gpu' and 'GPU' both in the header: refused, the twins named (as before)", {"c.csv": "gpu,GPU,gpus,price\nH100 80GB SXM,H100 80GB SXM,8,20\n"}, IMPORT,
         expect="any", check=_refused("c.csv", "differ only in case"))

    # ------------------------------------------------------------ very long values
    body = {"r.yaml": json.dumps({"workload": SERVE8})}
    case("long53: --gpu of 100,000 characters: one short line, the name cut to its start and its length", body, ["estimate", "r.yaml", "--gpu", "h" * 100_000], expect="any",
         check=lambda r: _short()(r) and "(100,000 characters)" in r.stderr)
    case("long53: --lang of 100,000 characters: one short line", body, ["recommend", "r.yaml", "--lang", "x" * 100_000], expect="any", check=_short())
    case("long53: an unknown option's value of 100,000 characters (--gpus on recommend): one short line", body, ["recommend", "r.yaml", "--gpus", "h" * 100_000],
         expect="any", check=_short())
    case("long53: --format of 100,000 characters: one short line", body, ["recommend", "r.yaml", "--format", "j" * 100_000], expect="any", check=_short())
    rcase("long53: a model name of 1,000,000 characters: refused, its length given", {"workload": {**SERVE8, "model": "x" * 1_000_000}},
          _refused_no("r.yaml", "workload.model", "1,000,000 given"))

    # ------------------------------------------------------------ numbers YAML reads as not finite, or as booleans
    def _yml(text: str) -> dict:
        return {"r.yaml": text}

    for given in ("1e309", ".inf", ".nan", "-.inf"):
        case(f"num53: train_tokens {given} (YAML reads it as a float past any number): refused in gpuwise's words",
             _yml(f"workload:\n  task: finetune\n  method: lora\n  model: llama-3.1-8b\n  train_tokens: {given}\n"), ["estimate", "r.yaml", "--gpu", "h100"],
             expect="any", check=_refused_no("r.yaml", "workload.train_tokens", "finite", given))
    acase("num53: hardware.count .nan: refused in gpuwise's words", {**PROP, "hardware": {**H100X8, "count": float("nan")}},
          _refused_no("p.yaml", "hardware.count", "finite"))
    pcase("num53: a plan's growth_per_month .inf: refused in gpuwise's words", _cad(1, growth_per_month=float("inf")),
          _refused_no("plan.yaml", "workloads[1].cadence.growth_per_month", "finite"), argv=plan_text)
    case("num53: hourly_usd -0 (YAML reads 0): refused by its bound, -0 quoted", {"p.yaml": "title: t\nworkload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 2.0e8}\nhardware: {gpu: H100 SXM, count: 8}\nacquisition: {mode: rent, provider: lambda, hourly_usd: -0}\n"},
         ["audit", "p.yaml"], expect="any", check=_refused_no("p.yaml", "acquisition.hourly_usd", "greater than 0", "-0"))
    case("num53: hardware.count yes (a YAML 1.1 boolean): refused, the yes/no reading said", {"p.yaml": "title: t\nworkload: {task: inference, model: llama-3.1-8b}\nhardware: {gpu: H100 SXM, count: yes}\nacquisition: {mode: buy}\n"},
         ["audit", "p.yaml"], expect="any", check=_refused_no("p.yaml", "hardware.count", "yes/no"))
    rcase("num53: concurrent_requests 'on' (quoted: YAML's boolean as text): refused, a yes/no word said", {"workload": {**SERVE8, "concurrent_requests": "on"}},
          _refused_no("r.yaml", "workload.concurrent_requests", "yes/no word"))
    rcase("num53: requests_per_s -1: refused by its bound", {"workload": {**SERVE8, "requests_per_s": -1}}, _refused_no("r.yaml", "workload.requests_per_s", "greater than 0"))

    # ------------------------------------------------------------ keys in capitals
    rcase("key53: WORKLOAD with TASK and MODEL (all capitals): refused, 'workload' offered", {"WORKLOAD": {"TASK": "inference", "MODEL": "llama-3.1-8b"}},
          _refused_no("r.yaml", "WORKLOAD", "did you mean 'workload'?"))
    rcase("key53: workload.TASK (capitals): refused, 'task' offered", {"workload": {"TASK": "inference", "model": "llama-3.1-8b"}},
          _refused_no("r.yaml", "workload.TASK", "did you mean 'task'?"))
    acase("key53: hardware GPU / Count: refused, a lower-case key offered", {**PROP, "hardware": {"GPU": "H100 SXM", "Count": 8}}, _refused_no("p.yaml", "hardware.", "did you mean"))
    pcase("key53: a plan's HORIZON_MONTHS: refused, horizon_months offered", _plan(lambda d: d.update(HORIZON_MONTHS=d.pop("horizon_months"))),
          _refused_no("plan.yaml", "HORIZON_MONTHS", "did you mean 'horizon_months'?"), argv=plan_text)

    # ------------------------------------------------------------ --json on every command; a closed pipe
    files = {"r.yaml": YML, "plan.yaml": plan_file, "p.yaml": prop_text}
    for argv in (["gpus"], ["rules"], ["explain", "MEM-FITS"], ["prices"], ["plan", "plan.yaml"], ["audit", "p.yaml"], ["estimate", "r.yaml", "--gpu", "h100"]):
        case(f"cli53: {argv[0]} --json: refused, --format json offered", files, [*argv, "--json"], expect="any", check=_refused("--json", "--format json"))
    case("cli53: prices --lang zh | head -c1: exit 0 kept, nothing on stderr", {}, ["PIPE", "prices", "--lang", "zh"], expect="any", real=True,
         check=lambda r: r.returncode == 0 and not r.stderr.strip())
    case("cli53: estimate --lang zh | head -c1: exit 0 kept, nothing on stderr", {"r.yaml": YML}, ["PIPE", "estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"], expect="any", real=True,
         check=lambda r: r.returncode == 0 and not r.stderr.strip())
