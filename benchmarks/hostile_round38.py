# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-eight of the hostile corpus: session 37's merges used as a careless or hostile author would --
a plan's owned GPUs counted 0, 1e6 or 2.5, misspelt or spelt with a Cyrillic look-alike, eight in one server (the
run widened onto them) or in eight; GPUs the plan may only buy that have no purchase price, or that are sold
only as 4-GPU servers (the run widened onto the server); every job larger than anything the plan may use; an
offloaded run kept off an owned GPU whose RAM is short, in Chinese; the shown saving of a yuan plan; --fx-rate
at and past its bound and ``fx_rate=1e300`` from Python; serving.yaml ``deepgemm_moe_padding`` (vLLM 0.11.1 on
Hopper against 0.11.0 and Blackwell) and overlays of it with a window that ends before it starts or holds no
release, a misspelt architecture, a negative block, a section without its fields, a misspelt key; overlays of
SGLang's ``torch_router`` naming a model the catalog does not have, two readings at one token count, a misspelt
vendor; rate points' ``output_tokens_per_s`` at a stable and an unstable rate; CMP-FP4-EMULATED on every
candidate; TCO-BUY-NOT-WEIGHED where buying is allowed or the only way; a DGX Spark's 128 GB stated exactly; an
alias bomb in a knowledge overlay; KV in FP4 -- through estimate, recommend, audit, plan, prices and the Python
API. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on hostile38's branch before its fixes (main at 5af2e4d9): 35 cases, 30 clean; on this branch 35 of 35.
Fixed:

* a serving.yaml overlay's release window whose ``before`` is not after its ``first`` (``deepgemm_moe_padding``
  from 0.12.0 before 0.11.1, or from 0.11.1 before 0.11.1) held no release and was read silently: the padding
  the shipped window charges vLLM 0.11.1 on Hopper was dropped, exit 0; every first/before window is refused so.
* ``deepgemm_moe_padding.architectures: [hoper]`` (or 'Hopper') matched no GPU and dropped the padding silently;
  a serving.yaml architecture is checked against gpus.yaml's, with the close match.
* ``torch_router.models: [glm-4.5x]`` replaced the shipped [glm-4.5] and named no catalog model, so GLM-4.5 lost
  its router cost silently; a model a serving.yaml list names is checked against the catalog, with the close match.
* two ``torch_router.points`` at one token count stopped a 200,000-token prompt with 'internal error:
  ZeroDivisionError' (the line beyond the last point through two points at one count); each count is read once.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import api_fx_refused
from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _feasible, _rules
from benchmarks.hostile_round28 import _dump, doc_cases

LORA = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FULL8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FT70 = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True, "model": "llama-3.1-70b"}
FT405 = {"task": "finetune", "method": "full", "model": "llama-3.1-405b", "seq_len": 8192, "train_tokens": 1e9}
SERVE405 = {"task": "inference", "model": "llama-3.1-405b", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 300}
V3 = {"task": "inference", "model": "deepseek-v3", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 8, "framework_version": "0.11.1"}
GLM = {"task": "inference", "model": "glm-4.5", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 64, "parallelism": {"tp": 8}}
RATE = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
FP4 = {"task": "inference", "model": "llama-3.1-70b", "framework": "vllm", "precision": "fp4", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 8}
SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 4}
SPARK = {"title": "t", "workload": {**FT70, "model": "llama-3.1-8b", "zero_stage": 2}, "hardware": {"gpu": "gb10", "count": 1, "host_ram_gb": 128}, "acquisition": {"mode": "buy"}}
DG = {"first": "'0.11.1'", "before": "'0.12.0'", "block_m": 128, "architectures": "[hopper]", "source": "ours"}
TR = "    torch_router:\n      models: {models}\n      vendors: {vendors}\n      points: {points}\n      as_of: '2026-01'\n      source: ours\n"
POINTS = "[{tokens: 3, torch_us: 10, fused_us: 5}, {tokens: 5, torch_us: 20, fused_us: 6}]"
BOMB = "".join(f"{k}: &{k} [{', '.join([f'*{p}'] * 9) if p else ', '.join(['x'] * 9)}]\n" for p, k in zip(["", *"abcdefgh"], "abcdefghi", strict=True))


def _plan(workloads: list[dict], owned: list[dict] | None = None, **constraints: Any) -> dict:
    return {"horizon_months": 3, "workloads": workloads, **({"owned": owned} if owned else {}),
            "constraints": {"acquisition": "rent", "gpus": ["h100"], **constraints}}


def _ft(workload: dict, month: int = 1) -> list[dict]:
    return [{"name": "ft", "workload": workload, "cadence": {"at_month": month}}]


def _opts(d: dict, *keys: str) -> list[tuple]:
    return [tuple(o.get(k) for k in keys) for o in d["options"]]


def _serving_overlay(framework: str, text: str) -> dict:
    return {"kb/serving.yaml": f"frameworks:\n  - id: {framework}\n" + text}


def _padding(**edit: Any) -> str:
    return "    deepgemm_moe_padding:\n" + "".join(f"      {k}: {v}\n" for k, v in {**DG, **edit}.items())


def _tpot(r) -> float | None:
    return json.loads(r.stdout)["gpu"]["serving"]["tpot_s"]


def _padded_on_hopper(r) -> bool:
    """vLLM 0.11.1 multiplies DeepGEMM's padded rows on Hopper: its TPOT is above 0.11.0's and 0.12.0's, which
    are the same (the window is 0.11.1 up to 0.12.0); the file is rewritten for each release and run again."""
    from tests.clirun import gpuwise
    if not _finite_json(r):
        return False
    padded, others = _tpot(r), []
    for version in ("0.11.0", "0.12.0"):
        Path(r.cwd, "r.yaml").write_text(_dump({"workload": {**V3, "framework_version": version}}), encoding="utf-8")
        others.append(_tpot(gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", cwd=r.cwd)))
    return others[0] == others[1] and padded > 1.5 * others[0]


def _api_refused(fx_rate: Any):
    return api_fx_refused("recommend", "r.yaml", fx_rate)


def _saving_shown(d: dict) -> bool:
    """The saving said is the baseline's total less the plan's, each as the reports show them (whole units)."""
    a = d["answer"]
    return d["currency"] == "CNY" and a["beats"] and a["saving"] == round(d["baselines"][a["beats"]]) - round(d["total"])


def _rates(d: dict) -> list[dict]:
    return [c["serving"]["rate"] for c in [d.get("recommendation"), *d.get("alternatives", [])] if c and c.get("serving") and c["serving"].get("rate")]


def _output_rates(d: dict, output_tokens: int = 200) -> bool:
    """Each rate point's output tokens a second are its rate times the request's output tokens where its queue is
    stable, none where it is not (formats.md); at the most served the same."""
    def ok(p: dict | None) -> bool:
        if not p:
            return True
        want = p["requests_per_s"] * output_tokens if p["stable"] else None
        return (p["output_tokens_per_s"] is None) if want is None else abs(p["output_tokens_per_s"] - want) <= 1e-9 * want
    return len(_rates(d)) > 1 and all(ok(r.get("at_max")) and ok(r.get("at_requests_per_s")) for r in _rates(d))


def _fp4_rules(d: dict) -> bool:
    """CMP-FP4-EMULATED is among the rules of every H100 and L40S candidate that holds the model (no FP4 units), of
    no B200's; one that does not hold it is judged on memory alone (MEM-NO-FIT)."""
    said = {}
    for c in d["candidates"]:
        rules = [x if isinstance(x, str) else x.get("rule") for x in c["rules"]]
        if "MEM-NO-FIT" not in rules:
            said[(c["gpu"], c["count"], c["acquisition"])] = "CMP-FP4-EMULATED" in rules
    return len(said) > 6 and all(v == (not g.startswith("b200")) for (g, _, _), v in said.items())


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan_text = ("plan", "plan.yaml")

    # ------------------------------------------------------------ a plan's owned GPUs (own_count: a run widened onto one owned server)
    for label, count, words in (("0", 0, ("got 0",)), ("1e6", 1000000, ("100000",)), ("2.5", 2.5, ("fractional",))):
        pcase(f"own38: owned count {label}: refused by its field", _plan(_ft(LORA), owned=[{"gpu": "h100", "count": count}]),
              _refused("plan.yaml", "owned[0].count", *words), argv=plan_text)
    pcase("own38: owned 'H100 SMX' misspelt: h100-80gb-sxm offered", _plan(_ft(LORA), owned=[{"gpu": "H100 SMX", "count": 8}]),
          _refused("plan.yaml", "owned[0].gpu", "did you mean h100-80gb-sxm"), argv=plan_text)
    pcase("own38: owned 'Н100' with a Cyrillic En: refused, escaped, h100-80gb-sxm offered", _plan(_ft(LORA), owned=[{"gpu": "\u041d100", "count": 8}]),
          lambda r: _refused("plan.yaml", "owned[0].gpu", "\\u041d100", "h100-80gb-sxm")(r) and "\u041d" not in r.stderr, argv=plan_text)
    pcase("own38: 8 H100 owned in one server, an 8B full fine-tune: widened onto all 8, faster", _plan(_ft(FULL8), owned=[{"gpu": "h100", "count": 8, "servers": 1}]),
          _doc(lambda d: [(g, c, oc) for g, c, oc, _, _ in _opts(d, "gpu", "count", "own_count", "own_wall_hours", "wall_hours")] == [("h100-80gb-sxm", 1, 8)]
               and 0 < d["options"][0]["own_wall_hours"] < d["options"][0]["wall_hours"] and all(m["rent"] == 0 for m in d["months"])))
    pcase("own38: 8 H100 owned in eight servers: no wider run (one server holds one)", _plan(_ft(FULL8), owned=[{"gpu": "h100", "count": 8, "servers": 8}]),
          _doc(lambda d: _opts(d, "gpu", "count", "own_count", "own_wall_hours") == [("h100-80gb-sxm", 1, 0, 0.0)]))
    pcase("own38: 70B offload, owned L4 (512 GB) short, renting only L4 (zh): unplaced, the rule named in Chinese", _plan(_ft(FT70), owned=[{"gpu": "l4", "count": 1, "host_ram_gb": 512}], gpus=["l4"]),
          lambda r: r.returncode == 1 and "未安排" in r.stdout and "PLAN-OWNED-HOST-RAM-SHORT" in r.stdout and "Traceback" not in r.stderr, argv=("plan", "plan.yaml", "--lang", "zh"))

    # ------------------------------------------------------------ GPUs a plan may only buy (buy_count: a run widened onto the server bought)
    pcase("buy38: buy only L40S (no dated purchase price): unplaced, the reason says so", _plan(_ft(LORA), acquisition="buy", gpus=["l40s"]),
          lambda r: r.returncode == 1 and _doc(lambda d: not d["purchases"] and [u["workload"] for u in d["unplaced"]] == ["ft"]
                                                and "no dated purchase price" in d["unplaced"][0]["reason"])(r))
    pcase("buy38: buy only H100 (4- or 8-GPU servers), an 8B full fine-tune: run on the 4 GPUs bought, faster", _plan(_ft(FULL8), acquisition="buy"),
          _doc(lambda d: [(g, c, b) for g, c, b, _, _ in _opts(d, "gpu", "count", "buy_count", "buy_wall_hours", "wall_hours")] == [("h100-80gb-sxm", 1, 4)]
               and 0 < d["options"][0]["buy_wall_hours"] < d["options"][0]["wall_hours"]))
    wl = [*_ft(FT405), {"name": "chat", "workload": SERVE405, "cadence": {"continuous": True}, "targets": {"requests_per_s": 5}}]
    pcase("plan38: every job larger than 2 RTX 4090s, -o plan.md: both unplaced, nothing bought, the file says why", _plan(wl, gpus=["rtx-4090"], max_gpus=2),
          lambda r: r.returncode == 1 and "Not placed: ft" in Path(r.cwd, "plan.md").read_text(encoding="utf-8") and "Not placed: chat" in Path(r.cwd, "plan.md").read_text(encoding="utf-8"),
          argv=("plan", "plan.yaml", "-o", "plan.md"))
    pcase("plan38: horizon_months 1e6: refused by its bound", {**_plan(_ft(LORA)), "horizon_months": 1000000}, _refused("plan.yaml", "horizon_months", "60"), argv=plan_text)

    # ------------------------------------------------------------ the shown saving and the exchange rate
    team = ns["_y"].safe_load(ns["PLAN"])
    team["constraints"].update(currency="CNY", budget_per_quarter_usd=40000 * 7.1)  # the budget in the plan's currency
    pcase("save38: the team's plan in yuan at --fx-rate 7.1: the saving is the difference of the totals shown", team, _doc(_saving_shown),
          argv=("plan", "plan.yaml", "--format", "json", "--fx-rate", "7.1"))
    pcase("fx38: a yuan plan at --fx-rate 1e6 (the bound): answered, finite", _plan(_ft(LORA), currency="CNY"), _doc(lambda d: d["usd_cny"] == 1e6 and d["total"] > 1e6),
          argv=("plan", "plan.yaml", "--format", "json", "--fx-rate", "1000000"))
    pcase("fx38: --fx-rate 1e300: refused by its range", _plan(_ft(LORA)), _refused("--fx-rate", "1e300"), argv=("plan", "plan.yaml", "--fx-rate", "1e300"))
    rcase("fx38: gpuwise.recommend(fx_rate=1e300) from Python: the package's one-line error", {"workload": {**RATE, "requests_per_s": 2}}, _api_refused(1e300))

    # ------------------------------------------------------------ serving.yaml deepgemm_moe_padding (vLLM 0.11.1, block-FP8 MoE, Hopper)
    v3 = ("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json")
    v3kb = (*v3, "--knowledge", "kb")
    rcase("dg38: DeepSeek-V3 FP8 on vLLM 0.11.1, 8 x H200: slower than 0.11.0 and 0.12.0 (the padded rows)", {"workload": V3}, _padded_on_hopper, argv=v3)
    rcase("dg38: the same on 8 x B200 (Blackwell): not padded, as 0.11.0", {"workload": V3},
          _doc(lambda d: d["gpu"]["serving"]["tpot_s"] > 0), argv=("estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", "--format", "json"))
    rcase("dg38: an overlay's window from 0.12.0 before 0.11.1: refused, not read as no release", {"workload": V3}, _refused("kb/serving.yaml", "deepgemm_moe_padding", "0.11.1"),
          argv=v3kb, files=_serving_overlay("vllm", _padding(first="'0.12.0'", before="'0.11.1'")))
    rcase("dg38: an overlay's window from 0.11.1 before 0.11.1 (none): refused", {"workload": V3}, _refused("kb/serving.yaml", "deepgemm_moe_padding"),
          argv=v3kb, files=_serving_overlay("vllm", _padding(before="'0.11.1'")))
    rcase("dg38: architectures [hoper]: refused, hopper offered", {"workload": V3}, _refused("kb/serving.yaml", "deepgemm_moe_padding.architectures", "did you mean hopper?"),
          argv=v3kb, files=_serving_overlay("vllm", _padding(architectures="[hoper]")))
    rcase("dg38: block_m -8: refused, the value said", {"workload": V3}, _refused("kb/serving.yaml", "deepgemm_moe_padding.block_m", "(got -8)"),
          argv=v3kb, files=_serving_overlay("vllm", _padding(block_m=-8)))
    rcase("dg38: on SGLang with block_m alone: the fields it lacks named", {"workload": V3}, _refused("kb/serving.yaml", "deepgemm_moe_padding needs first, before, architectures, source"),
          argv=v3kb, files=_serving_overlay("sglang", "    deepgemm_moe_padding:\n      block_m: 64\n"))
    rcase("dg38: 'deepgemm_padding' misspelt: deepgemm_moe_padding offered", {"workload": V3}, _refused("kb/serving.yaml", "did you mean 'deepgemm_moe_padding'?"),
          argv=v3kb, files=_serving_overlay("vllm", "    deepgemm_padding: {block_m: 64}\n"))

    # ------------------------------------------------------------ serving.yaml torch_router (SGLang, GLM-4.5)
    glm = ("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", "--knowledge", "kb")
    rcase("tr38: torch_router models [glm-4.5x]: refused, glm-4.5 offered (GLM-4.5 kept its router cost)", {"workload": GLM}, _refused("kb/serving.yaml", "torch_router.models", "glm-4.5x", "did you mean glm-4.5?"),
          argv=glm, files=_serving_overlay("sglang", TR.format(models="[glm-4.5x]", vendors="[nvidia]", points=POINTS)))
    rcase("tr38: two points at 50,000 tokens, a 200,000-token prompt: refused, no division by zero", {"workload": {**GLM, "prompt_tokens": 200000, "concurrent_requests": 1, "prefill_chunk_tokens": 100000}},
          _refused("kb/serving.yaml", "torch_router.points", "50000"), argv=glm,
          files=_serving_overlay("sglang", TR.format(models="[glm-4.5]", vendors="[nvidia]", points="[{tokens: 50000, torch_us: 1000, fused_us: 5}, {tokens: 50000, torch_us: 2000, fused_us: 6}]")))
    rcase("tr38: vendors [nvida]: nvidia offered", {"workload": GLM}, _refused("kb/serving.yaml", "torch_router.vendors[0]", "did you mean nvidia?"),
          argv=glm, files=_serving_overlay("sglang", TR.format(models="[glm-4.5]", vendors="[nvida]", points=POINTS)))

    # ------------------------------------------------------------ rate points, every candidate's rules, buying not weighed
    rec = ("recommend", "r.yaml", "--format", "json")
    rcase("rate38: 2 requests/s of 200 tokens: 400 output tokens/s at the rate on every candidate", {"workload": {**RATE, "requests_per_s": 2}},
          _doc(lambda d: _output_rates(d) and any(abs(p["at_requests_per_s"]["output_tokens_per_s"] - 400) < 1e-6 for p in _rates(d))), argv=rec)
    rcase("rate38: 1e6 requests/s: unstable, no output rate at it; the most served has one", {"workload": {**RATE, "requests_per_s": 1e6}},
          lambda r: r.returncode == 1 and _doc(lambda d: not _feasible(d) and _output_rates(d) and all(not p["at_requests_per_s"]["stable"] and p["at_max"]["output_tokens_per_s"] > 0
                                                                                             for p in _rates(d)))(r), argv=rec)
    rcase("fp438: FP4 70B on H100, L40S and B200: CMP-FP4-EMULATED on every H100 and L40S candidate, no B200", {"workload": FP4, "constraints": {"gpus": ["h100", "l40s", "b200"]}},
          _doc(_fp4_rules), argv=rec)
    rcase("tco38: LoRA 8B, rent or buy L40S (no purchase price): TCO-BUY-NOT-WEIGHED", {"workload": LORA, "constraints": {"gpus": ["l40s"], "acquisition": "either"}},
          _doc(lambda d: "TCO-BUY-NOT-WEIGHED" in _rules(d) and _feasible(d)), argv=rec)
    rcase("tco38: LoRA 8B, buy only L40S: TCO-NO-PURCHASE-PRICE, not TCO-BUY-NOT-WEIGHED", {"workload": LORA, "constraints": {"gpus": ["l40s"], "acquisition": "buy"}},
          lambda r: r.returncode == 1 and _doc(lambda d: "TCO-NO-PURCHASE-PRICE" in _rules(d) and "TCO-BUY-NOT-WEIGHED" not in _rules(d))(r), argv=rec)

    # ------------------------------------------------------------ host RAM, overlays, KV precision
    acase("spark38: a DGX Spark's host_ram_gb 128 exactly: read, the 8B ZeRO-2 offload judged short", SPARK, lambda r: r.returncode == 1 and _doc(lambda d: "MEM-HOST-RAM-SHORT" in _rules(d))(r))
    rcase("bomb38: an alias bomb in a serving.yaml overlay: refused at once, the file named", {"workload": SERVE8}, _refused("kb/serving.yaml", "alias bomb"),
          argv=("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb"), files={"kb/serving.yaml": BOMB + "frameworks: []\n"})
    rcase("kv38: kv_precision fp4 on H100: refused, fp8 offered", {"workload": {**SERVE8, "kv_precision": "fp4"}}, _refused("r.yaml", "workload.kv_precision", "did you mean fp8?"))

