# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round fifty of the hostile corpus: inputs a user gets wrong by carrying words and places over from elsewhere --
a key written in the wrong section (``max_gpus`` or ``budget_usd`` under ``workload``, ``precision`` under
``constraints``, a flat file of ``task: ...`` with no ``workload:``, ``hourly_usd`` under ``hardware``, a plan's
``max_gpus`` beside its workloads); a GPU count written into the GPU's name (``8x H100``, ``8 x H100``, ``2x RTX
4090`` in ``--gpu``, ``hardware.gpu`` and ``owned[].gpu``); a proposal's total price in the per-GPU field's place
(``total_usd``, ``total_price_usd``), a rental's hourly price on a purchase and a purchase price on a rental; task,
method, precision, framework, mode and condition words people use (serving, SFT, PEFT, half, 4bit, vllm==0.6.3,
purchase, lease, second-hand); request rates written 1.2k and 1M/day; a catalog model beside a
``params_b`` of another size (llama-3.1-8b with 70; mixtral with its active 13); and the neighbours already clean
(camelCase and hyphenated keys, nvidia-smi's product names, lower-case --currency, zh-TW, JSON with a trailing comma,
input kinds mixed up, a price CSV's 0, future and header-only cases). Added to benchmarks/hostile_corpus.py's table
by :func:`add`.

Run on main at ae835c35 (before this branch's fixes, with the round's file added: 3a43358a): 47 cases, 17 clean; on
this branch 47 of 47. Two cases changed after that run: '3,600/hour' (a thousands comma beside a unit, which no
number field reads) became '3600 per hour' (clean on main), and '4bit' expects no choice offered (int4 and fp4 are
both 4 bits, as round 46's '8-bit' has it; clean on main): 19 of the 47 as they stand are clean on main. Nine cases
were added after from what that run left (text50, cad50, two50): none clean on 3a43358a; 56 of 56 on this branch.
Fixed (each with its test in tests/test_hostile50.py, 33 of whose 39 tests fail on 3a43358a):

* a key written in another section (``workload.max_gpus``, ``workload.budget_usd``, ``constraints.precision``, a
  flat file's ``task``, ``hardware.hourly_usd``, a plan workload's ``max_gpus``) was offered the nearest spelling
  where it stood ('max_tpot_ms', 'acquisition') or every key: its place is offered (error_words.home_elsewhere);
* a count in a GPU's name ('8x H100', '8 x H100', '8xH100' for ``--gpu``, ``hardware.gpu``; '8x RTX 4090' for
  ``owned[].gpu``) offered h100, the H100 NVL and a V100: the GPU and the count for their own fields (names.py);
* ``acquisition.total_usd`` / ``total_price_usd`` (a quote's total) offered hourly_usd or unit_price_usd as if it were
  either: unit_price_usd is a GPU's, the total over hardware.count offered (240000 / 8 = 30000); a purchase's
  ``hourly_usd`` and a rental's ``unit_price_usd`` were taken and never used (the audit priced the street price or the
  cheapest offer, nothing said): refused, the mode's field named (proposal.py);
* task serving / sft, method peft, precision half, mode purchase / lease, condition second-hand offered nothing: the
  choice is offered (error_words._CHOICE_WORDS); ``framework: vllm==0.6.3`` names vllm and framework_version 0.6.3;
* ``requests_per_s`` '1.2k' and '1M/day' (also a plan's ``targets``) were pydantic's 'unable to parse string as a
  number': 1200 and 11.5741 a second offered (units._RATE_MULT, ``/day``);
* a catalog model beside a ``params_b`` of another size (llama-3.1-8b with 70; mixtral-8x7b with its active 12.9)
  was sized silently as the catalog's shape at the given count, the report titled with the model: refused past half
  again either way (job._check_size); llama-2-7b with 7 (the name's rounding) is still the override it was;
* a YAML file in a Markdown code fence (a README's ```yaml copied with it) was "found character '`' that cannot start
  any token", and a TOML file "did not find expected <document start>": the kind of text is named (yamlio);
* a plan cadence ``per_week: 2``, ``per_day``, ``per_month: weekly`` or ``weekly: true`` listed the cadence keys or
  was pydantic's words: per_month offered at the ledger's 730-hour month (8.69, 4.345; plan/schema.py);
* two GPUs where one goes ('h100,a100' for ``--gpu``, 'H100 / H200' for ``hardware.gpu``, an entry 'a100/h200' of
  ``constraints.gpus``) offered the first alone: refused naming both (names._listed).

Clean on main already: camelCase and hyphenated keys, nvidia-smi's product names ('NVIDIA H100 80GB HBM3', 'Tesla
V100-SXM2-32GB', 'NVIDIA GeForce RTX 4090'), 'bfloat16', '20 rps', --currency usd, --lang zh-TW, JSON with a trailing
comma, a requirements file given to plan, a price CSV's price 0, --as-of after today, a header with no rows.

Seen and left: ``at_month: June`` / ``2027-06`` is pydantic's
'unable to parse string as an integer' (the month's number in the plan is meant); ``framework: TGI`` / ``lmdeploy``
(not modelled) lists the engines; a rental priced at an instance's whole hourly price (98.32 for a p5.48xlarge's 8
GPUs, where hourly_usd is a GPU's) is audited at 8 times the price, the ratio rule saying the price is high but not
why; a price CSV's 'Total' row; ``-o ~/r.md`` in quotes says the directory does not exist, not that ~ is the shell's.
Running as root, a file with no read permission and -o into a read-only folder could not be tried.
"""
from __future__ import annotations

import functools
import json
from typing import Any

from benchmarks.hostile_round12 import _ok, _refused
from benchmarks.hostile_round23 import _edited
from benchmarks.hostile_round28 import doc_cases

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
IMPORT = ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"]
BUY8 = {"gpu": "H100 SXM", "count": 8, "nodes": 1}


def _json(r) -> Any:
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def _answered(r) -> bool:
    return r.returncode in (0, 1) and not r.stderr.strip() and _json(r) is not None


def _refused_no(*words: str, absent: tuple[str, ...] = ()):
    """Refused in one line holding ``words`` and none of ``absent``."""
    return lambda r: _refused(*words)(r) and not any(w in r.stderr for w in absent)


def _buy(**acq) -> dict:
    return {"title": "t", "workload": LORA8, "hardware": BUY8, "acquisition": {"mode": "buy", **acq}}


def _rent(**acq) -> dict:
    return {"title": "t", "workload": LORA8, "hardware": BUY8, "acquisition": {"mode": "rent", "provider": "lambda", **acq}}


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan = ns["_plan"]

    _plan = functools.partial(_edited, plan)

    # ------------------------------------------------------------ a key in the wrong section
    rcase("place50: max_gpus under workload: refused, constraints.max_gpus offered (not max_tpot_ms)", {"workload": {**SERVE8, "max_gpus": 8}},
          _refused_no("r.yaml", "workload.max_gpus", "constraints.max_gpus", absent=("max_tpot_ms",)))
    rcase("place50: budget_usd under workload: refused, constraints.budget_usd offered", {"workload": {**SERVE8, "budget_usd": 5000}},
          _refused_no("r.yaml", "workload.budget_usd", "constraints.budget_usd", absent=("valid keys",)))
    rcase("place50: precision under constraints: refused, workload.precision offered (not acquisition)", {"workload": SERVE8, "constraints": {"precision": "int4"}},
          _refused_no("r.yaml", "constraints.precision", "workload.precision", absent=("acquisition",)))
    case("place50: a flat file (task, model at the top, no workload:): refused, workload.task offered", {"r.yaml": "task: inference\nmodel: llama-3.1-8b\n"}, list(EST), expect="any",
         check=_refused_no("r.yaml", "workload.task", absent=("valid keys",)))
    acase("place50: hourly_usd under hardware: refused, acquisition.hourly_usd offered", {**_rent(), "hardware": {**BUY8, "hourly_usd": 3.5}},
          _refused("p.yaml", "hardware.hourly_usd", "acquisition.hourly_usd"))
    pcase("place50: a plan's workload with max_gpus: refused, constraints.max_gpus offered", _plan(lambda d: d["workloads"][0]["workload"].update(max_gpus=8)),
          _refused("plan.yaml", "workloads[0].workload.max_gpus", "constraints.max_gpus"), argv=("plan", "plan.yaml"))
    rcase("place50: promptTokens (camelCase): refused, prompt_tokens offered", {"workload": {**{k: v for k, v in SERVE8.items() if k != "prompt_tokens"}, "promptTokens": 1000}},
          _refused("r.yaml", "workload.promptTokens", "prompt_tokens"))
    rcase("place50: prompt-tokens (hyphenated): refused, prompt_tokens offered", {"workload": {**{k: v for k, v in SERVE8.items() if k != "prompt_tokens"}, "prompt-tokens": 1000}},
          _refused("r.yaml", "workload.prompt-tokens", "prompt_tokens"))

    # ------------------------------------------------------------ a count written into the GPU's name
    for given in ("8x H100", "8 x H100", "8xH100"):
        case(f"count50: --gpu {given!r}: refused, the GPU and --gpus 8 offered", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", given], expect="any",
             check=_refused_no("--gpu", "--gpus 8", absent=("v100",)))
    acase("count50: hardware.gpu '8x H100': refused, count 8 offered", {**_rent(), "hardware": {"gpu": "8x H100", "count": 8}},
          _refused_no("p.yaml", "hardware.gpu", "count", absent=("v100",)))
    pcase("count50: owned gpu '8x RTX 4090': refused, count offered", _plan(lambda d: d["owned"][0].update(gpu="8x RTX 4090")),
          _refused_no("plan.yaml", "owned[0].gpu", "count", absent=("rtx-5090",)), argv=("plan", "plan.yaml"))
    case("count50: --gpu 'NVIDIA H100 80GB HBM3' (nvidia-smi's product name): estimated", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", "NVIDIA H100 80GB HBM3"], expect="ok")
    case("count50: --gpu 'Tesla V100-SXM2-32GB' (nvidia-smi's): estimated", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", "Tesla V100-SXM2-32GB"], expect="ok")
    case("count50: --gpu 'NVIDIA GeForce RTX 4090': estimated", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", "NVIDIA GeForce RTX 4090"], expect="ok")

    # ------------------------------------------------------------ a proposal's prices in the wrong field
    acase("price50: acquisition.total_usd 240000 for 8 GPUs: refused, unit_price_usd 30000 offered (not hourly_usd)", _buy(total_usd=240000),
          _refused_no("p.yaml", "acquisition.total_usd", "unit_price_usd", "30000", absent=("hourly_usd",)))
    acase("price50: acquisition.total_price_usd 240000 for 8 GPUs: refused, unit_price_usd 30000 offered", _buy(total_price_usd=240000),
          _refused("p.yaml", "acquisition.total_price_usd", "unit_price_usd", "30000"))
    acase("price50: hourly_usd on a purchase: refused, unit_price_usd named", _buy(hourly_usd=3.5),
          _refused("p.yaml", "acquisition.hourly_usd", "unit_price_usd"))
    acase("price50: unit_price_usd on a rental: refused, hourly_usd named", _rent(unit_price_usd=30000),
          _refused("p.yaml", "acquisition.unit_price_usd", "hourly_usd"))
    acase("price50: a purchase with unit_price_usd: audited", _buy(unit_price_usd=30000), _answered)

    # ------------------------------------------------------------ words people use for a choice
    for field, given, meant, base in (("task", "serving", "inference", SERVE8), ("task", "sft", "finetune", LORA8),
                                      ("method", "peft", "lora", LORA8), ("precision", "half", "fp16", SERVE8),
                                      ("precision", "bfloat16", "bf16", SERVE8)):
        rcase(f"word50: {field} {given!r}: refused, {meant} offered", {"workload": {**base, field: given}},
              _refused("r.yaml", f"workload.{field}", f"did you mean {meant}?"))
    rcase("word50: precision '4bit': refused, none offered (int4 and fp4 are both 4 bits, as round 46 has it)", {"workload": {**SERVE8, "precision": "4bit"}},
          _refused_no("r.yaml", "workload.precision", "'4bit'", absent=("did you mean",)))
    rcase("word50: framework 'vllm==0.6.3' (a pip pin): refused, vllm and framework_version 0.6.3 offered", {"workload": {**SERVE8, "framework": "vllm==0.6.3"}},
          _refused("r.yaml", "workload.framework", "vllm", "framework_version", "0.6.3"))
    for given, meant in (("purchase", "buy"), ("lease", "rent")):
        acase(f"word50: acquisition.mode {given!r}: refused, {meant} offered", {**_rent(), "acquisition": {"mode": given, "provider": "lambda"}},
              _refused("p.yaml", "acquisition.mode", f"did you mean {meant}?"))
    acase("word50: acquisition.condition 'second-hand': refused, used offered", _buy(condition="second-hand"),
          _refused("p.yaml", "acquisition.condition", "did you mean used?"))

    # ------------------------------------------------------------ request rates as dashboards write them
    rcase("rate50: requests_per_s '1.2k': refused, 1200 offered", {"workload": {**SERVE8, "requests_per_s": "1.2k"}},
          _refused_no("r.yaml", "workload.requests_per_s", "1200", absent=("Input should be",)))
    rcase("rate50: requests_per_s '1M/day': refused, 11.574 offered", {"workload": {**SERVE8, "requests_per_s": "1M/day"}},
          _refused_no("r.yaml", "workload.requests_per_s", "11.57", absent=("Input should be",)))
    rcase("rate50: requests_per_s '3600 per hour': refused, 1 offered", {"workload": {**SERVE8, "requests_per_s": "3600 per hour"}},
          _refused_no("r.yaml", "workload.requests_per_s", "write 1", absent=("Input should be",)))
    pcase("rate50: a plan's targets.requests_per_s '1.2k': refused, 1200 offered", _plan(lambda d: d["workloads"][1]["targets"].update(requests_per_s="1.2k")),
          _refused_no("plan.yaml", "requests_per_s", "1200", absent=("Input should be",)), argv=("plan", "plan.yaml"))
    rcase("rate50: requests_per_s '20 rps': refused, 20 offered", {"workload": {**SERVE8, "requests_per_s": "20 rps"}},
          _refused("r.yaml", "workload.requests_per_s", "write 20"))

    # ------------------------------------------------------------ a catalog model beside a size of another
    rcase("size50: llama-3.1-8b with params_b 70: refused, both sizes said", {"workload": {**SERVE8, "params_b": 70}},
          _refused("r.yaml", "workload.params_b", "70", "8.0"))
    rcase("size50: mixtral-8x7b with params_b 12.9 (its active size): refused", {"workload": {**SERVE8, "model": "mixtral-8x7b", "params_b": 12.9}},
          _refused("r.yaml", "workload.params_b", "mixtral-8x7b"))
    rcase("size50: llama-3.1-8b with params_b 8 (its size): estimated", {"workload": {**SERVE8, "params_b": 8}}, _answered)
    rcase("size50: llama-2-7b with params_b 7 (the name's size, 6.74 in the catalog): estimated", {"workload": {**SERVE8, "model": "llama-2-7b", "params_b": 7}}, _answered)

    # ------------------------------------------------------------ other text where YAML goes (added after the blind run)
    fenced = "```yaml\nworkload: " + json.dumps(SERVE8) + "\n```\n"
    case("text50: a requirements file in a Markdown code fence (copied from a README): refused, the fence named", {"r.yaml": fenced}, list(EST), expect="any",
         check=_refused("r.yaml", "line 1", "Markdown code fence"))
    case("text50: a plan ending in a closing fence: refused, the fence named", {"plan.yaml": ns["PLAN"] + "```\n"}, ["plan", "plan.yaml"], expect="any",
         check=_refused("plan.yaml", "Markdown code fence"))
    case("text50: a TOML file ([workload], task = ...): refused, TOML named", {"r.toml": '[workload]\ntask = "inference"\nmodel = "llama-3.1-8b"\n'},
         ["estimate", "r.toml", "--gpu", "h100"], expect="any", check=_refused("r.toml", "TOML", "workload:"))

    # ------------------------------------------------------------ two GPUs where one goes (added after the blind run)
    case("two50: --gpu 'h100,a100': refused, both named, constraints.gpus said", {"r.yaml": json.dumps({"workload": SERVE8})}, ["estimate", "r.yaml", "--gpu", "h100,a100"], expect="any",
         check=_refused("--gpu", "names 2 GPUs", "h100-80gb-sxm", "a100", "constraints.gpus"))
    acase("two50: hardware.gpu 'H100 / H200': refused, both named", {**_rent(), "hardware": {**BUY8, "gpu": "H100 / H200"}},
          _refused("p.yaml", "hardware.gpu", "names 2 GPUs", "h200-141gb-sxm"))
    rcase("two50: a constraints.gpus entry 'a100/h200': refused, an entry each offered", {"workload": SERVE8, "constraints": {"gpus": ["h100", "a100/h200"]}},
          _refused("r.yaml", "constraints.gpus[1]", "[a100, h200-141gb-sxm]"), argv=("recommend", "r.yaml"))

    # ------------------------------------------------------------ a plan's cadence by the week (added after the blind run)
    for given, cad, words in (("per_week: 2", {"per_week": 2}, ("cadence.per_week", "per_month: 8.69")),
                              ("per_month: weekly", {"per_month": "weekly"}, ("cadence.per_month", "per_month: 4.345")),
                              ("weekly: true", {"weekly": True}, ("cadence.weekly", "per_month: 4.345"))):
        pcase(f"cad50: a plan's cadence {given}: refused, runs a month offered", _plan(lambda d, cad=cad: d["workloads"][0].update(cadence=cad)),
              _refused("plan.yaml", *words), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ neighbours: options, file kinds, price CSVs
    case("opt50: --currency usd (lower case): read as USD since product64", {"r.yaml": json.dumps({"workload": SERVE8})}, ["recommend", "r.yaml", "--currency", "usd"], expect="any", check=lambda r: _ok(r) and ("$" in r.stdout or "USD" in r.stdout))
    case("opt50: --lang zh-TW: refused, zh offered", {"r.yaml": json.dumps({"workload": SERVE8})}, ["recommend", "r.yaml", "--lang", "zh-TW"], expect="any", check=_refused("did you mean zh?"))
    case("file50: JSON with a trailing comma (YAML reads it): estimated", {"r.json": '{"workload": {"task": "inference", "model": "llama-3.1-8b",}}'}, ["estimate", "r.json", "--gpu", "h100"], expect="ok")
    case("file50: a requirements file given to plan: refused, recommend named", {"r.yaml": json.dumps({"workload": SERVE8})}, ["plan", "r.yaml"], expect="any", check=_refused("r.yaml", "gpuwise recommend"))
    case("csv50: a price of 0: nothing imported, the row named", {"c.csv": "gpu,gpus,price\nH100,8,0\n"}, IMPORT, expect="any",
         check=lambda r: r.returncode == 2 and "price 0 is not positive" in r.stderr and not (r.cwd / "ov").exists())
    case("csv50: --as-of after today: refused", {"c.csv": "gpu,gpus,price\nH100,8,20\n"}, [*IMPORT[:-1], "2030-01-01"], expect="any", check=_refused("--as-of", "after today"))
    case("csv50: a header and no rows: refused, nothing written", {"c.csv": "gpu,gpus,price\n"}, IMPORT, expect="any",
         check=lambda r: _refused("c.csv", "no rows")(r) and not (r.cwd / "ov").exists())
