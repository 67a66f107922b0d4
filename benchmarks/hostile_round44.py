# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-four of the hostile corpus: session 42's merges used as a hurried or hostile author would --
whole-node offers and rentals sold only as smaller instances (FEE-NODE-WHOLE, NET-TP-ACROSS-INSTANCES), a rented
server's host RAM against an offloaded state, the plan's owned-server RAM and p95-held services, the precisions a
training stack has a path for, the published checkpoint's precision served by default, the JAX stacks in a plan,
``prices import`` and the freshness of a dated price, the China market's export rules; and what a user in a hurry
writes: a plan file given where a job goes (and the reverse), a workload list with one entry malformed deep
inside, numbers with their thousands grouped ("1 000", "1,000") or a decimal comma, dates not in ISO form
(2026/11/30, 30/11/2026, March 2024), zero and negative rates, a p95 target below what any GPU does, 0 and 10,000
GPUs, an empty ``owned`` list, YAML anchors and merge keys, nesting 40 levels deep -- through estimate, recommend,
audit, plan, prices and prices import, in text, Markdown, HTML and JSON, brief and full, --lang zh. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 8473b3cd (before this branch's fixes): 55 cases, 25 clean; on this branch 55 of 55. Fixed (each
with its test in tests/test_hostile44.py):

* a number with its thousands grouped ('1,000,000,000', '200 000 000', "1'000", '1.000.000') or a decimal comma
  ('1,5') in a number field was refused in pydantic's words, 'unable to parse string as a number', nothing offered:
  the number is offered (one comma before three digits, '1,500', both ways); so on the command line (``--gpus
  10,000``, ``--fx-rate 7,1``); an amount keeps its commas ('$200,000') but a decimal comma there, read as 15 for
  '1,5', is refused; ``{train_tokens: 1,000}`` in braces, which YAML reads as 1 and a key 000, was 'the key 0 is
  not text: YAML read it as Written' (a Python class's name): said as the number the comma split;
* a proposal's price written as an amount (``hourly_usd: "$2.50"``, ``unit_price_usd: "$30,000"``): the number;
* a month or a date not in ISO form (a plan's ``owned[].bought`` '2024/03', '03/2024', 'March 2024', '2024年3月',
  202403; ``prices import --as-of`` and a CSV row's as_of 2026/11/30, 30/11/2026, 20261130, 2026-11-30T10:00; an
  overlay's as_of 2026/11/30 or a timestamp) was refused with no form offered, or in pydantic's words ('Input
  should be a valid string', 'invalid date separator, expected `-`'): its ISO form is offered, none where the day
  and month could be either (01/02/2026);
* an H100 price imported with ``--as-of 1999-01-01`` was written and priced 10,201 days old: ``--as-of`` before
  every catalogued GPU's launch (the P100's, 2016) is refused, and a row dated before its own GPU's launch year
  (an H100 at 2019-06-01) is listed, not imported;
* a plan's ``workloads`` written as a mapping of names: the list form is offered; a service's
  ``targets.p95_tpot_s`` was 'did you mean max_tpot_ms?', a bound of another kind: sent to the workload's field,
  which a plan reads as a p95 target (round 26's case for ``targets.p95_ttft_s`` follows);
* a proposal renting a p5.48xlarge (2,048 GiB = 2,199 GB) and stating 16,000 GB of host RAM had a 405B offload
  judged on the 16,000 (MEM-HOST-RAM-HELD, revise) where the instance refuses it (MEM-HOST-RAM-SHORT, reject): a
  named instance's known RAM is the most ``hardware.host_ram_gb`` may state.

Seen and left: a malformed entry deep in a plan's workloads is named by its index (``workloads[9]``), not by its
name (adding the name to the path would move every field path the tests and users match); a pretrain or full
fine-tune at ``precision: int4`` is estimated in bf16 with the assumption 'int8/int4 apply to frozen weights only',
though such a run freezes none (documented; a refusal would be a behaviour change beyond this round); the default
mixed-precision assumption says 'PyTorch autocast' for the JAX stacks (review53's wording); a p95 TPOT below any
GPU's floor shows 'serves at most 0.00 requests/s' as the alternatives' reason beside SRV-P95-TPOT-TARGET, the rule
that says why (review53's); gpt-oss-120b with no precision defaults to its published MXFP4 on a V100 or Gaudi 3 and
is then refused by CMP-FRAMEWORK-PRECISION rather than served in bf16; ``prices import`` says '1 rows'.
"""
from __future__ import annotations

import json
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round41 import _contract, _plan_sums

LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FULL13 = {"task": "finetune", "method": "full", "model": "llama-2-13b", "seq_len": 2048, "train_tokens": 1.0e8, "offload": "cpu", "zero_stage": 3}
SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
CSV = "gpu,gpus,price\nH100 80GB SXM,8,20\n"


def _plan(workloads: list[dict], **more: Any) -> dict:
    return {"horizon_months": 3, "workloads": workloads, **more}


def _lora(name: str = "ft", **over: Any) -> dict:
    return {"name": name, "workload": {**LORA8, **over}, "cadence": {"per_month": 1}}


def _owned(bought: Any) -> dict:
    return _plan([_lora()], owned=[{"gpu": "RTX 4090", "count": 8, "servers": 2, "bought": bought, "paid_usd": 14400}])


def _prop(workload: dict, hardware: dict, acquisition: dict, **more: Any) -> dict:
    return {"title": "t", "workload": workload, "hardware": hardware, "acquisition": acquisition, **more}


def _overlay(as_of: str) -> str:
    return ("instances:\n- id: 'acme:H100 80GB SXM x8'\n  provider: acme\n  gpu: h100-80gb-sxm\n  gpus: 8\n"
            f"  usd_per_hour: 20.0\n  as_of: {as_of}\n  source: acme price page read by hand\n  check: S\n")


def _plan_rules_named(*rules: str):
    """A plan that leaves its service unplaced, the reason naming each of ``rules``."""
    def pred(d: dict) -> bool:
        return _plan_sums(d) and bool(d["unplaced"]) and all(r in d["unplaced"][0]["reason"] for r in rules)
    return _doc(pred)


def _plan_owned_refused(rule: str):
    """A plan that names ``rule`` of its owned GPUs and places nothing on them (the work rented or left unplaced)."""
    def pred(d: dict) -> bool:
        owned = [p for m in d["months"] for p in m["placements"] if p["acquisition"] == "owned"]
        return _plan_sums(d) and any(f["rule"] == rule for f in d["findings"]) and not owned
    return _doc(pred)


def _html_whole(name: str):
    return lambda r: r.returncode in (0, 1) and "Traceback" not in r.stderr and (r.cwd / name).read_text().rstrip().endswith("</html>")


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ numbers with their thousands grouped, a decimal comma
    rcase("num44: train_tokens '1,000,000,000': refused, 1000000000 offered", {"workload": {**LORA8, "train_tokens": "1,000,000,000"}},
          _refused("r.yaml", "workload.train_tokens", "write 1000000000"))
    rcase("num44: train_tokens '200 000 000' (spaces), recommend --lang zh: refused, 200000000 offered", {"workload": {**LORA8, "train_tokens": "200 000 000"}},
          _refused("r.yaml", "workload.train_tokens", "200000000"), argv=("recommend", "r.yaml", "--lang", "zh"))
    rcase("num44: train_tokens '1,500' (a comma that may be a decimal one): refused, both readings offered", {"workload": {**LORA8, "train_tokens": "1,500"}},
          _refused("r.yaml", "workload.train_tokens", "1500", "1.5"))
    pcase("num44: a plan's cadence.per_month '1,5' (a decimal comma): refused, 1.5 offered",
          _plan([{**_lora(), "cadence": {"per_month": "1,5"}}]), _refused("plan.yaml", "workloads[0].cadence.per_month", "write 1.5"), argv=("plan", "plan.yaml"))
    rcase("num44: constraints.max_gpus '1.000.000' (points grouping): refused, 1000000 offered", {"workload": LORA8, "constraints": {"max_gpus": "1.000.000"}},
          _refused("r.yaml", "constraints.max_gpus", "write 1000000"), argv=("recommend", "r.yaml"))
    acase("num44: an audit's unit_price_usd '30,000': refused, 30000 offered", _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "buy", "unit_price_usd": "30,000"}),
          _refused("p.yaml", "acquisition.unit_price_usd", "write 30000"), argv=("audit", "p.yaml"))
    acase("num44: an audit's hourly_usd '$2.50' (an amount with its sign): refused, 2.5 offered", _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "rent", "hourly_usd": "$2.50"}),
          _refused("p.yaml", "acquisition.hourly_usd", "write 2.5"), argv=("audit", "p.yaml"))
    case("num44: train_tokens 1,000 unquoted in a flow mapping (YAML: 1 and a key 000): refused, the comma named, not 'Written'",
         {"r.yaml": "workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 1,000}\n"}, list(EST), expect="any",
         check=lambda r: _refused("r.yaml", "train_tokens", "1,000")(r) and "Written" not in r.stderr)
    case("num44: estimate --gpus '10,000': refused, 10000 offered", {"r.yaml": "workload: {task: pretrain, params_b: 1, train_tokens: 1e9}\n"},
         ["estimate", "r.yaml", "--gpu", "h100", "--gpus", "10,000"], expect="any", check=_refused("--gpus", "write 10000"))
    case("num44: recommend --fx-rate '7,1' (a decimal comma): refused, 7.1 offered", {"r.yaml": "workload: {task: pretrain, params_b: 1, train_tokens: 1e9}\n"},
         ["recommend", "r.yaml", "--fx-rate", "7,1"], expect="any", check=_refused("--fx-rate", "write 7.1"))
    case("num44: prices import, a price '1 000' (spaces): the row listed with 1000 offered, nothing written", {"c.csv": "gpu,gpus,price\nH100 80GB SXM,8,1 000\n"},
         ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2026-11-30"], expect="any",
         check=lambda r: r.returncode == 2 and "write 1000" in r.stdout + r.stderr and not (r.cwd / "ov").exists())

    # ------------------------------------------------------------ dates not in ISO form
    for given, meant in [("2024/03", "2024-03"), ("03/2024", "2024-03"), ("March 2024", "2024-03"), (202403, "2024-03"), ("2024年3月", "2024-03")]:
        pcase(f"date44: owned[0].bought {given!r}: refused, {meant} offered", _owned(given), _refused("plan.yaml", "owned[0].bought", f"write {meant}"), argv=("plan", "plan.yaml"))
    pcase("date44: owned[0].bought 2024 (a year alone), --lang zh: refused in gpuwise's words, YYYY-MM asked", _owned(2024),
          lambda r: _refused("plan.yaml", "owned[0].bought", "YYYY-MM")(r) and "valid string" not in r.stderr, argv=("plan", "plan.yaml", "--lang", "zh"))
    for given, meant in [("2026/11/30", "2026-11-30"), ("30/11/2026", "2026-11-30"), ("20261130", "2026-11-30"), ("2026-11-30T10:00", "2026-11-30")]:
        case(f"date44: prices import --as-of {given}: refused, {meant} offered", {"c.csv": CSV}, ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", given],
             expect="any", check=lambda r, m=meant: _refused("--as-of", f"write {m}")(r) and not (r.cwd / "ov").exists())
    case("date44: prices import --as-of 01/02/2026 (day and month both 12 or under): refused, YYYY-MM-DD asked, no guess", {"c.csv": CSV},
         ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "01/02/2026"], expect="any",
         check=lambda r: _refused("--as-of", "YYYY-MM-DD")(r) and "2026-01-02" not in r.stderr and "2026-02-01" not in r.stderr)
    case("date44: a CSV row's as_of 2026/11/30: the row listed with 2026-11-30 offered", {"c.csv": "gpu,gpus,price,as_of\nH100 80GB SXM,8,20,2026/11/30\n"},
         ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme"], expect="any", check=lambda r: r.returncode == 2 and "write 2026-11-30" in r.stdout + r.stderr)
    for given, meant in [("2026/11/30", "2026-11-30"), ("2026-11-30T10:00:00Z", "2026-11-30")]:
        case(f"date44: an overlay's as_of {given}: refused in one line, {meant} offered", {"kb/clouds.yaml": _overlay(given)},
             ["prices", "--knowledge", "kb", "--provider", "acme"], expect="any", check=_refused("clouds.yaml", "as_of", f"write {meant}"))
    case("date44: an overlay's as_of 2026-11 (no day): refused in gpuwise's words", {"kb/clouds.yaml": _overlay("2026-11")},
         ["prices", "--knowledge", "kb", "--provider", "acme"], expect="any", check=lambda r: _refused("clouds.yaml", "as_of", "YYYY-MM-DD")(r) and "too short" not in r.stderr)
    case("date44: a price dated 2019-06-01 for an H100 (launched 2022): the row refused, nothing written", {"c.csv": CSV},
         ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "2019-06-01"], expect="any",
         check=lambda r: r.returncode == 2 and "2022" in r.stdout + r.stderr and not (r.cwd / "ov").exists())
    case("date44: --as-of 1999-01-01 (before any GPU in the catalog): refused in one line, nothing written", {"c.csv": CSV},
         ["prices", "import", "c.csv", "-o", "ov", "--provider", "acme", "--as-of", "1999-01-01"], expect="any",
         check=lambda r: _refused("--as-of", "1999-01-01", "2016")(r) and not (r.cwd / "ov").exists())

    # ------------------------------------------------------------ the wrong kind of file, a list malformed deep inside
    case("file44: a requirements file holding a one-entry workloads list: said to be a plan file", {"r.yaml": "workloads:\n  - task: pretrain\n    params_b: 8\n"},
         ["recommend", "r.yaml"], expect="any", check=_refused("r.yaml", "plan file", "gpuwise plan"))
    case("file44: a plan file with workload (one) and horizon_months, plan: 'did you mean workloads'", {"r.yaml": "horizon_months: 6\nworkload: {task: pretrain, params_b: 1}\n"},
         ["plan", "r.yaml"], expect="any", check=_refused("r.yaml", "workloads"))
    pcase("file44: workloads written as a mapping of names: refused, the list form offered with the name",
          {"horizon_months": 3, "workloads": {"ft": {"workload": LORA8, "cadence": {"per_month": 1}}}}, _refused("plan.yaml", "workloads", "- name: ft"), argv=("plan", "plan.yaml"))
    deep = [_lora(f"w{i}") for i in range(12)]
    deep[9]["workload"]["parallelism"] = {"tp": "two"}
    pcase("file44: the tenth of twelve workloads with parallelism.tp 'two': its path named", _plan(deep), _refused("plan.yaml", "workloads[9].workload.parallelism.tp", "'two'"), argv=("plan", "plan.yaml"))
    anchors = ("horizon_months: 3\nworkloads:\n  - name: a\n    workload: &base {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 1.0e+8}\n"
               "    cadence: {per_month: 1}\n  - name: b\n    workload:\n      <<: *base\n      train_tokens: 4.0e+8\n    cadence: {per_month: 1}\n"
               "  - name: c\n    workload: {<<: [*base], model: llama-3.1-70b}\n    cadence: {at_month: 2}\n")
    case("file44: YAML anchors and merge keys across workloads: answered, the sums hold", {"plan.yaml": anchors}, ["plan", "plan.yaml", "--format", "json"], expect="any",
         check=_doc(lambda d: _plan_sums(d) and [w["name"] for w in d["workloads"]] == ["a", "b", "c"]))
    case("file44: constraints.gpus nested 40 lists deep: refused in one line", {"r.yaml": "workload: {task: pretrain, params_b: 1}\nconstraints: {gpus: " + "[" * 40 + "h100" + "]" * 40 + "}\n"},
         ["recommend", "r.yaml"], expect="any", check=_refused("r.yaml"))

    # ------------------------------------------------------------ rates, targets and counts at their edges
    acase("edge44: hourly_usd 0: refused naming the field", _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "rent", "hourly_usd": 0}), _refused("p.yaml", "acquisition.hourly_usd"), argv=("audit", "p.yaml"))
    acase("edge44: hourly_usd '-2' (quoted), --lang zh: refused naming the field", _prop(LORA8, {"gpu": "h100", "count": 8}, {"mode": "rent", "hourly_usd": "-2"}),
          _refused("p.yaml", "acquisition.hourly_usd"), argv=("audit", "p.yaml", "--lang", "zh"))
    acase("edge44: hardware.count 0: refused naming the field", _prop(LORA8, {"gpu": "h100", "count": 0}, {"mode": "rent"}), _refused("p.yaml", "hardware.count"), argv=("audit", "p.yaml"))
    acase("edge44: 10,000 V100 in 1,250 nodes rented: finite, the sums hold", _prop(FULL13, {"gpu": "v100-32gb", "count": 10000, "nodes": 1250}, {"mode": "rent", "provider": "aws"}),
          _doc(_contract))
    rcase("edge44: p95 TPOT 0.1 ms and TTFT 1 ms (below any GPU): no answer, SRV-P95-TPOT-TARGET said", {"workload": {**SERVE8, "requests_per_s": 2, "p95_tpot_s": 0.0001, "p95_ttft_s": 0.001}},
          _doc(lambda d: d["recommendation"] is None and "SRV-P95-TPOT-TARGET" in _rules(d)), argv=("recommend", "r.yaml", "--format", "json"))
    pcase("edge44: a plan's service at 16 in flight with a p95 TPOT of 0.5 ms: unplaced, SRV-P95-TPOT-TARGET named",
          _plan([{"name": "chat", "workload": {**SERVE8, "concurrent_requests": 16, "p95_tpot_s": 0.0005}, "cadence": {"continuous": True}}], constraints={"acquisition": "rent", "gpus": ["h100", "l40s"]}),
          _plan_rules_named("SRV-P95-TPOT-TARGET"))
    pcase("edge44: a plan's targets.p95_tpot_s (the workload's field): refused, the workload's field offered",
          _plan([{"name": "chat", "workload": {**SERVE8, "requests_per_s": 2}, "cadence": {"continuous": True}, "targets": {"p95_tpot_s": 0.05}}]),
          _refused("plan.yaml", "workloads[0].targets.p95_tpot_s", "workloads[0].workload.p95_tpot_s"), argv=("plan", "plan.yaml"))
    pcase("edge44: owned: [] and acquisition rent: answered, the sums hold", _plan([_lora()], owned=[], constraints={"acquisition": "rent"}), _doc(_plan_sums))

    # ------------------------------------------------------------ whole nodes, instances, a rented server's RAM
    acase("node44: 4 V100 16GB from Lambda (whole 8-GPU nodes): FEE-NODE-WHOLE, the node billed", _prop(FULL13, {"gpu": "v100-16gb", "count": 4}, {"mode": "rent", "provider": "lambda"}),
          _doc(lambda d: "FEE-NODE-WHOLE" in _rules(d) and _contract(d)))
    acase("node44: the same, HTML --detail full --lang zh to a file: written whole", _prop(FULL13, {"gpu": "v100-16gb", "count": 4}, {"mode": "rent", "provider": "lambda"}),
          _html_whole("o.html"), argv=("audit", "p.yaml", "--format", "html", "--detail", "full", "--lang", "zh", "-o", "o.html"))
    acase("node44: 70B on 16 T4 from AWS (one-GPU instances): NET-TP-ACROSS-INSTANCES",
          _prop({**SERVE8, "model": "llama-3.1-70b", "requests_per_s": 1}, {"gpu": "t4", "count": 16, "nodes": 2}, {"mode": "rent", "provider": "aws"}),
          _doc(lambda d: "NET-TP-ACROSS-INSTANCES" in _rules(d)))
    big = {**FULL13, "model": "llama-3.1-405b", "train_tokens": 1.0e7}
    acase("ram44: a p5.48xlarge (2,048 GiB) stated to hold 16,000 GB for a 405B offload: refused naming the instance's RAM",
          _prop(big, {"gpu": "h100", "count": 8, "host_ram_gb": 16000}, {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge"}),
          _refused("p.yaml", "hardware.host_ram_gb", "p5.48xlarge", "2,199"), argv=("audit", "p.yaml"))
    acase("ram44: the same without host_ram_gb: MEM-HOST-RAM-SHORT on the instance's 2,199 GB",
          _prop(big, {"gpu": "h100", "count": 8}, {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge"}),
          _doc(lambda d: "MEM-HOST-RAM-SHORT" in _rules(d)))
    acase("ram44: a p5.48xlarge stated at 1,024 GB (less than it has): read as written",
          _prop(FULL13, {"gpu": "h100", "count": 8, "host_ram_gb": 1024}, {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge"}), _doc(_contract))
    # the owned-RAM case: since leftovers57 / plansvc57 the run is rented where the owned server's RAM cannot hold it
    pcase("ram44: owned 4090s in one server of 64 GB, an offloaded full fine-tune: PLAN-OWNED-HOST-RAM-SHORT named",
          _plan([{"name": "ft", "workload": {**FULL13, "model": "llama-3.1-8b"}, "cadence": {"per_month": 1}}], owned=[{"gpu": "RTX 4090", "count": 8, "servers": 1, "host_ram_gb": 64}],
                constraints={"acquisition": "rent", "gpus": ["rtx-4090"]}), _plan_owned_refused("PLAN-OWNED-HOST-RAM-SHORT"))

    # ------------------------------------------------------------ stacks, precisions, checkpoints, markets
    pcase("stack44: a plan's pretrain on torchtitan in fp16: refused at workloads[0].workload.precision",
          _plan([{"name": "pt", "workload": {"task": "pretrain", "params_b": 1, "train_tokens": 1.0e9, "stack": "torchtitan", "precision": "fp16"}, "cadence": {"at_month": 1}}]),
          _refused("plan.yaml", "workloads[0].workload.precision", "TorchTitan"), argv=("plan", "plan.yaml"))
    acase("stack44: an audit of litgpt in fp8, --lang zh: refused in one line", _prop({**LORA8, "stack": "litgpt", "precision": "fp8"}, {"gpu": "h100", "count": 8}, {"mode": "rent"}),
          _refused("p.yaml", "workload.precision", "litgpt"), argv=("audit", "p.yaml", "--lang", "zh"))
    pcase("stack44: levanter pretrain and gpt-oss-120b served on owned A100s: answered, the sums hold",
          _plan([{"name": "pt", "workload": {"task": "pretrain", "params_b": 1, "train_tokens": 1.0e10, "stack": "levanter"}, "cadence": {"at_month": 1}},
                 {"name": "oss", "workload": {"task": "inference", "model": "gpt-oss-120b", "requests_per_s": 1}, "cadence": {"continuous": True}}],
                owned=[{"gpu": "a100-80gb-sxm", "count": 8, "servers": 1}]), _doc(_plan_sums))
    rcase("ckpt44: DeepSeek-R1 with no precision on 8 MI300X: served in fp8, the model card named",
          {"workload": {"task": "inference", "model": "deepseek-r1", "requests_per_s": 1}},
          _doc(lambda d: any(a["field"] == "workload.precision" and "huggingface.co/deepseek-ai" in a["reason"] for a in d["assumptions"])),
          argv=("estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json"))
    rcase("market44: a China-market LoRA over H100 / H20 in yuan, Markdown --lang zh: answered in ¥",
          {"workload": LORA8, "constraints": {"market": "china", "currency": "CNY", "gpus": ["h100", "h20"]}},
          lambda r: r.returncode in (0, 1) and "¥" in r.stdout and "Traceback" not in r.stderr, argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh"))
    case("price44: an imported overlay's H100 rental used by recommend: the acme offer priced, its date said", {"kb/clouds.yaml": _overlay("2026-11-30"), "r.yaml": json.dumps({"workload": LORA8, "constraints": {"gpus": ["h100"]}})},
         ["recommend", "r.yaml", "--knowledge", "kb", "--format", "json"], expect="any",
         check=_doc(lambda d: any(p.get("provider") == "acme" for p in d["prices_used"])))
