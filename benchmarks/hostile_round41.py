# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-one of the hostile corpus: session 39's merges used as a careless or hostile author would --
``notation.fold_digits``'s one fold met by superscripts ('10²', '2⁸'), circled digits and Arabic-Indic digits in
every numeric field (a requirements file's sizes and budget, a plan's owned count, a proposal's cloud amounts, a
knowledge overlay's price and release bound, the command line's --gpus and --fx-rate, the questionnaire's model
size, tokens and budget typed in a terminal); ``parallelism.ep`` above 1 on a dense model served, not dividing the
experts served, in a plan and an audit; serving.yaml ``triton_decode_walk.mla_default_before`` and
``scheduled_ahead`` overlays (a tag, null, misspelt, Arabic-Indic digits); offloaded runs no rented server holds,
audited bought and planned in yuan (MEM-HOST-RAM-BUY, TCO-BUY-RENTAL-SHORT); FEE-CLOUD-UNSTATED on partial cloud
sections; ``api_unpriced`` in a plan's JSON and its Chinese brief; the yuan estimate and ``--fx-rate`` against the
contract's ledger sums; a plan brief folded to 80 lines with two blockers -- through estimate, recommend, audit,
plan and ask. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 0038cbdd (before this branch's fixes): 37 cases, 20 clean; on this branch 37 of 37. Fixed:

* a superscript, subscript or circled digit ('10²', '2⁸', '①⑥') was folded to the digit it is drawn with and
  offered as 'write 102' (10² is 100): notation.fold_digits keeps Unicode category No as written;
* --gpus '٨' and --fx-rate '７.２' were refused with no close match: offered the ASCII as a file's field is;
* the questionnaire read '٧b', '١e8' and '٥٠٠٠٠' through float() (saved as params_b 7.0, 1e8 tokens, $50,000),
  where every file refuses them: refused with the ASCII offered (notation.other_digits);
* a service's ep 2 / 4 / 8 on a dense model (estimate, plan, audit) was answered 'cannot be kept on this GPU
  count': refused naming the field, as a training job's is;
* a knowledge overlay's scheduled_ahead.first '٠.١٢.٠' passed the pattern (pydantic's \\d is any script's digit)
  and was read as 0.12.0: every knowledge pattern takes [0-9];
* FEE-CLOUD-UNSTATED said '(no cloud section)' of a proposal with an empty cloud section or a storage kind alone;
* a 26-workload plan's brief ran to 108 lines: a last fold step cuts the hosted APIs' and the where tables' rows,
  saying how many more the full report has, the workloads not placed still named;
* in that plan, two runs nothing can place weighted the objective 2e9, so HiGHS's 0.1 % gap left $2M of slack and
  a service's self-hosting read $0: forced slack is set aside from the search's objective (milp Model.aside).
"""
from __future__ import annotations

import json
import math
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round20 import BUDGET, DEADLINE, METHOD, MODEL, TASK, TOKENS, _asked
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round39 import _again

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
MOE_SERVE = {"task": "inference", "model": "qwen3-30b-a3b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 300, "concurrent_requests": 8}
V3S = {"task": "inference", "model": "deepseek-v3", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
QLORA = {"task": "finetune", "method": "qlora", "model": "qwen2.5-14b", "seq_len": 2048, "train_tokens": 2.0e7}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FT70 = {"task": "finetune", "method": "full", "model": "llama-3.1-70b", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}
FT405 = {**FT70, "model": "llama-3.1-405b"}


def _no_wrong_power(field: str, wrong: str):
    """Refused naming ``field``, and never offered ``wrong`` (the superscript read as a digit: '10²' is 100, not 102)."""
    return lambda r: _refused(field)(r) and f"write {wrong}" not in r.stderr


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.006)


def _configs(d: dict) -> list[dict]:
    out = [d.get("recommendation"), d.get("runner_up"), *d.get("alternatives", []), *d.get("candidates", []),
           d.get("proposed"), d.get("alternative")]
    return [c for c in out if isinstance(c, dict) and c.get("ledger")]


def _contract(d: dict) -> bool:
    """CONTRACT.md version 3: each configuration's ledger total is the sum of its lines, its timeline's parts sum to
    its wall hours, gpu_hours = billed_hours x GPUs, a serving one's per_sequence_tokens_per_s = 1 / tpot_s."""
    configs = _configs(d)
    if not configs:
        return False
    for c in configs:
        led, tl = c["ledger"], c["timeline"]
        if not _close(led["total"], sum(x["amount"] for x in led["lines"])):
            return False
        if tl["parts"] and not _close(tl["wall_hours"], sum(p["hours"] for p in tl["parts"])):
            return False
        count = c.get("count") or (c.get("hardware") or {}).get("count")
        if count and not math.isclose(tl["gpu_hours"], tl["billed_hours"] * count, rel_tol=1e-6, abs_tol=1e-6):
            return False
        s = c.get("serving")
        if s and s.get("tpot_s") and not math.isclose(s["per_sequence_tokens_per_s"], 1 / s["tpot_s"], rel_tol=1e-6):
            return False
    return True


def _yuan_at(rate: float):
    """A yuan answer at ``rate``: the JSON's currency record holds that rate (its amounts stay in USD, as
    docs/formats.md says of every command but plan; ``asked`` is the file's currency) and the contract's sums hold."""
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        d = json.loads(r.stdout)
        return d["currency"]["usd_cny"] == rate and _contract(d)
    return check


def _walk(body: str, fw: str = "sglang") -> dict:
    return {"kb/serving.yaml": f"frameworks:\n  - id: {fw}\n    {body}\n"}


def _tpot(d: dict) -> float:
    return d["gpu"]["serving"]["tpot_s"]


def _tpot_against_shipped(relation: str, argv: tuple[str, ...]):
    """The overlay's TPOT against the shipped knowledge's (the same file, no --knowledge)."""
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        mine, shipped = _tpot(json.loads(r.stdout)), _tpot(_again(r, *argv))
        return mine == shipped if relation == "same" else mine < shipped
    return check


def _aws(cloud: Any = None) -> dict:
    doc = {"title": "t", "workload": {**LORA8, "model": "llama-3.1-70b"}, "hardware": {"gpu": "h100", "count": 8, "nodes": 1},
           "acquisition": {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge"}}
    return doc if cloud is None else {**doc, "cloud": cloud}


def _unstated_said_rightly(present: bool):
    """FEE-CLOUD-UNSTATED's finding: present or not as ``present``; where present and the proposal has a cloud
    section, its message does not say there is none."""
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        d = json.loads(r.stdout)
        said = [f["message"] for f in d["findings"] if f["rule"] == "FEE-CLOUD-UNSTATED"]
        if not present:
            return not said
        return bool(said) and all("no cloud section" not in m for m in said)
    return check


def _plan(workloads: list[dict], **constraints: Any) -> dict:
    return {"horizon_months": 6, "workloads": workloads, "constraints": {"gpus": ["rtx-4090"], "max_gpus": 8, **constraints}}


def _ft(workload: dict, name: str = "ft", month: int = 1) -> dict:
    return {"name": name, "workload": workload, "cadence": {"at_month": month}}


def _plan_sums(d: dict) -> bool:
    """A plan's months sum to its total, each month's parts to its own, and total_usd = total / usd_cny."""
    months = d["months"]
    if not _close(sum(m["total"] for m in months), d["total"]):
        return False
    if any(not _close(m["capex"] + m["rent"] + m["opex"] + m["fees"] + m.get("resale", 0.0), m["total"]) for m in months):
        return False
    return d["currency"] != "CNY" or math.isclose(d["total_usd"] * d["usd_cny"], d["total"], rel_tol=1e-6, abs_tol=0.01)


def _brief_with(*names: str, lines: int = 80):
    """The brief text plan names every one of ``names`` as not placed, exits 1, within ``lines`` lines."""
    def check(r) -> bool:
        text = r.stdout
        return (r.returncode == 1 and "Traceback" not in r.stderr and len(text.rstrip("\n").split("\n")) <= lines
                and all(n in text for n in names))
    return check


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ digits of every script (notation.fold_digits)
    est = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
    rcase("dig41: constraints.max_gpus '10²' (a superscript): refused, not 'write 102'", {"workload": SERVE8, "constraints": {"max_gpus": "10²"}},
          _no_wrong_power("constraints.max_gpus", "102"), argv=("recommend", "r.yaml"))
    rcase("dig41: prompt_tokens '2⁸' (2 to the 8th): refused, not 'write 28'", {"workload": {**SERVE8, "prompt_tokens": "2⁸"}},
          _no_wrong_power("workload.prompt_tokens", "28"), argv=est)
    rcase("dig41: concurrent_requests '①⑥' (circled): refused, not 'write 16'", {"workload": {**SERVE8, "concurrent_requests": "①⑥"}},
          _no_wrong_power("workload.concurrent_requests", "16"), argv=est)
    rcase("dig41: budget_usd '٥٠٠٠٠' (Arabic-Indic): refused, 50000 offered", {"workload": SERVE8, "constraints": {"budget_usd": "٥٠٠٠٠"}},
          _refused("r.yaml", "constraints.budget_usd", "write 50000"), argv=("recommend", "r.yaml"))
    pcase("dig41: a plan's owned count '٨' (Arabic-Indic): refused naming owned, 8 offered", {"horizon_months": 6, "owned": [{"gpu": "rtx-4090", "count": "٨"}], "workloads": [_ft(QLORA)]},
          _refused("plan.yaml", "owned", "write 8"), argv=("plan", "plan.yaml"))
    acase("dig41: cloud.egress_tb_per_month '५' (Devanagari): refused, 5 offered", _aws({"egress_tb_per_month": "५"}),
          _refused("p.yaml", "cloud.egress_tb_per_month", "write 5"))
    rcase("dig41: a prices overlay's amount '٢٬٥٠٠' (Arabic thousands separator): refused in one line naming the amount", {"workload": QLORA},
          _refused("kb/prices.yaml", "amount"), argv=("estimate", "r.yaml", "--gpu", "rtx-4090", "--knowledge", "kb"),
          files={"kb/prices.yaml": "gpus:\n  - id: rtx-4090\n    prices:\n      - amount: '٢٬٥٠٠'\n        condition: new\n        unit: card\n        kind: reseller\n        as_of: 2026-11-01\n        source: ours\n"})
    rcase("dig41: transformers_version '٤.٥٧': refused, 4.57 offered", {"workload": {**QLORA, "transformers_version": "٤.٥٧"}},
          _refused("r.yaml", "workload.transformers_version", "did you mean 4.57"), argv=("estimate", "r.yaml", "--gpu", "rtx-4090"))
    rcase("dig41: framework_version '0.¹².0' (superscripts): refused, not read as 0.12.0", {"workload": {**SERVE8, "framework_version": "0.¹².0"}},
          _refused("r.yaml", "workload.framework_version"), argv=est)
    rcase("dig41: estimate --gpus '٨': refused, 8 offered", {"workload": SERVE8},
          _refused("--gpus", "write 8"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "٨"))
    rcase("dig41: estimate --fx-rate '７.２' (fullwidth): refused, 7.2 offered", {"workload": QLORA, "constraints": {"currency": "CNY"}},
          _refused("--fx-rate", "write 7.2"), argv=("estimate", "r.yaml", "--gpu", "rtx-4090", "--fx-rate", "７.２"))
    ask = ["ask", "--answers", "a.yaml"]
    for name, script, shows in [
        ("ask41: model '٧b' (Arabic-Indic) at the model prompt: refused, 7b offered, not saved as 7B", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\u0667b\r"], ["", "\x03"]], "write 7b"),
        ("ask41: tokens '١e8' (Arabic-Indic) at the tokens prompt: refused, 1e8 offered", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\r"], [TOKENS, "\u0661e8\r"], ["", "\x03"]], "write 1e8"),
        ("ask41: budget '٥٠٠٠٠' at the budget prompt: refused, 50000 offered", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\r"], [TOKENS, "\r"], [DEADLINE, "\r"], [BUDGET, "\u0665\u0660\u0660\u0660\u0660\r"], ["", "\x03"]], "write 50000"),
    ]:
        case(name, {}, ["ASK20", json.dumps(script), *ask], expect="any", real=True, check=_asked(130, shows=(shows,)))

    # ------------------------------------------------------------ ep on dense models and not dividing the experts, served
    rcase("ep41: a service's ep 2 on Llama 3.1 8B (dense): refused naming workload.parallelism.ep, as training is", {"workload": {**SERVE8, "parallelism": {"ep": 2}}},
          _refused("r.yaml", "workload.parallelism.ep", "dense"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "2"))
    rcase("ep41: a service's ep 1 on a dense model: kept (no expert parallelism)", {"workload": {**SERVE8, "parallelism": {"ep": 1}}}, _finite_json, argv=est)
    pcase("ep41: a plan's service with ep 4 on a dense model: refused naming workloads[0]", _plan([{"name": "chat", "workload": {**SERVE8, "parallelism": {"ep": 4}}, "cadence": {"continuous": True}}], gpus=["h100"]),
          _refused("plan.yaml", "workloads[0].workload.parallelism.ep"), argv=("plan", "plan.yaml"))
    acase("ep41: an audit of a dense service with ep 8: refused naming workload.parallelism.ep", {"title": "t", "workload": {**SERVE8, "parallelism": {"ep": 8}}, "hardware": {"gpu": "h100", "count": 8, "nodes": 1}, "acquisition": {"mode": "rent"}},
          _refused("p.yaml", "workload.parallelism.ep"))
    rcase("ep41: a service's ep 3 of Qwen3-30B-A3B's 128 experts, recommended: said not kept, JSON sums hold", {"workload": {**MOE_SERVE, "parallelism": {"ep": 3}}, "constraints": {"gpus": ["h100"], "max_gpus": 8}},
          _doc(lambda d: "MEM-PIN-NOT-KEPT" in _rules(d) and _contract(d)), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ serving.yaml overlays: mla_default_before, scheduled_ahead
    v3 = ("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json")
    v3_old = {"workload": {**V3S, "framework_version": "0.4.3"}}
    rcase("mla41: mla_default_before 'v0.4.5.post1' (a tag): refused as a release, 0.4.5.post1 offered", v3_old,
          lambda r: _refused("kb/serving.yaml", "mla_default_before", "did you mean 0.4.5.post1?")(r) and "pattern" not in r.stderr,
          argv=(*v3, "--knowledge", "kb"), files=_walk("triton_decode_walk:\n      mla_default_before: 'v0.4.5.post1'"))
    rcase("mla41: mla_default_before null: a 0.4.3 job on DeepSeek-V3 no longer walks the cache on Triton (a lower TPOT)", v3_old,
          _tpot_against_shipped("lower", v3), argv=(*v3, "--knowledge", "kb"), files=_walk("triton_decode_walk:\n      mla_default_before: null"))
    rcase("mla41: 'mla_default_befor' misspelt: mla_default_before offered", v3_old,
          _refused("kb/serving.yaml", "did you mean 'mla_default_before'?"), argv=(*v3, "--knowledge", "kb"), files=_walk("triton_decode_walk:\n      mla_default_befor: '0.4.5'"))
    rcase("sa41: scheduled_ahead.first '٠.١٢.٠' (Arabic-Indic): refused, 0.12.0 offered", {"workload": SERVE8},
          _refused("kb/serving.yaml", "scheduled_ahead.first", "did you mean 0.12.0?"), argv=("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb"),
          files=_walk("scheduled_ahead:\n      first: '٠.١٢.٠'\n      source: ours", "vllm"))

    # ------------------------------------------------------------ host RAM no rental holds: audit, plan in yuan
    acase("ram41: an audit of 8 x RTX 4090 bought for the 70B offload: MEM-HOST-RAM-BUY said, sums hold", {"title": "t", "workload": FT70, "hardware": {"gpu": "rtx-4090", "count": 8, "nodes": 1}, "acquisition": {"mode": "buy"}},
          _doc(lambda d: "MEM-HOST-RAM-BUY" in _rules(d) and _contract(d)))
    pcase("ram41: a yuan plan, rent or buy, of the 70B offload: bought and placed, sums in yuan hold", _plan([_ft(FT70, month=3)], acquisition="either", currency="CNY", market="global"),
          _doc(lambda d: not d["unplaced"] and d["purchases"] and _plan_sums(d)), argv=("plan", "plan.yaml", "--format", "json", "--fx-rate", "7.5"))
    rcase("ram41: recommend rent or buy of the 70B offload, JSON: TCO-BUY-RENTAL-SHORT and the contract's sums", {"workload": FT70, "constraints": {"acquisition": "either", "gpus": ["rtx-4090"], "max_gpus": 8}},
          _doc(lambda d: "TCO-BUY-RENTAL-SHORT" in json.dumps(d["trace"]) and _contract(d)), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ FEE-CLOUD-UNSTATED on partial cloud sections
    acase("cloud41: cloud: {} (a section stating nothing): FEE-CLOUD-UNSTATED, not 'no cloud section'", _aws({}), _unstated_said_rightly(True))
    acase("cloud41: cloud.storage.kind alone: FEE-CLOUD-UNSTATED, not 'no cloud section'", _aws({"storage": {"kind": "object"}}), _unstated_said_rightly(True))
    acase("cloud41: storage tb 0 stated alone: stated, no FEE-CLOUD-UNSTATED", _aws({"storage": {"tb": 0}}), _unstated_said_rightly(False))

    # ------------------------------------------------------------ api_unpriced, the yuan estimate, --fx-rate
    unpriced = _plan([{"name": "chat", "workload": {**SERVE8, "model": "qwen3-30b-a3b"}, "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 1}}], gpus=["h100"], acquisition="rent")
    pcase("api41: a service no hosted API prices: api_unpriced names it, not in api", unpriced,
          _doc(lambda d: [a["workload"] for a in d["api_unpriced"]] == ["chat"] and not [a for a in d["api"] if a["workload"] == "chat"]))
    pcase("api41: the same, the Chinese brief: said, within 80 lines", unpriced,
          lambda r: r.returncode == 0 and "qwen3-30b-a3b" in r.stdout and "Traceback" not in r.stderr and len(r.stdout.rstrip("\n").split("\n")) <= 80, argv=("plan", "plan.yaml", "--lang", "zh"))
    rcase("cur41: recommend of a yuan file at --fx-rate 7.5: the rate 7.5 recorded, the sums hold", {"workload": QLORA, "constraints": {"currency": "CNY", "gpus": ["rtx-4090", "rtx-4090d"], "market": "global"}},
          _yuan_at(7.5), argv=("recommend", "r.yaml", "--format", "json", "--fx-rate", "7.5"))
    rcase("cur41: a dollar file at --currency CNY --fx-rate 6.5: the rate 6.5 recorded, the sums hold", {"workload": QLORA, "constraints": {"gpus": ["rtx-4090"]}},
          _yuan_at(6.5), argv=("recommend", "r.yaml", "--format", "json", "--currency", "CNY", "--fx-rate", "6.5"))

    # ------------------------------------------------------------ a plan brief folded to 80 lines, two blockers
    wl = [{"name": f"chat{i}", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200},
           "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 1 + i}} for i in range(12)]
    wl += [{"name": f"ft{i}", "workload": LORA8, "cadence": {"per_month": 1}, "deadline_days": 3} for i in range(12)]
    big = {"horizon_months": 12, "owned": [{"gpu": "rtx-4090", "count": 8, "servers": 2}], "workloads": [*wl, _ft(FT405, "zbig", 2), _ft({**FT405, "seq_len": 4096}, "zhuge", 4)],
           "constraints": {"acquisition": "rent", "gpus": ["rtx-4090"], "max_gpus": 8}}
    pcase("brief41: 26 workloads, two that nothing holds: both named within 80 lines, exit 1", big, _brief_with("zbig", "zhuge"), argv=("plan", "plan.yaml"))
    pcase("brief41: the same in Chinese: both named within 80 lines", big, _brief_with("zbig", "zhuge"), argv=("plan", "plan.yaml", "--lang", "zh"))
    def _each_service_priced(d: dict) -> bool:
        cost = {a["workload"]: a["self_host_per_month"] for a in d["api"]}
        by_rate = [cost[f"chat{i}"] for i in range(12)]  # 1 to 12 requests/s
        return all(c and c > 0 for c in by_rate) and by_rate == sorted(by_rate)
    pcase("api41: the same plan's services: each one's self-hosting costs more than nothing, more for more requests", big,
          lambda r: r.returncode == 1 and _finite_json(r) and _each_service_priced(json.loads(r.stdout)))
    pcase("brief41: the same, JSON: both unplaced, months sum to the total", big,
          lambda r: r.returncode == 1 and _finite_json(r) and {u["workload"] for u in json.loads(r.stdout)["unplaced"]} >= {"zbig", "zhuge"} and _plan_sums(json.loads(r.stdout)))
