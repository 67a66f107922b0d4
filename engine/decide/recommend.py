"""``gpuwise recommend``: candidates -> the four steps -> rules -> ranking.

Candidates are GPU type x count (1, 2, 4, 8 in a node, then whole nodes up to
``max_gpus``), each with the cheapest-in-speed strategy that makes the workload fit.
Estimators compute the numbers; the rule files decide which candidates are feasible and
what to say about them; the ranking picks the cheapest feasible candidate that meets the
deadline (or the fastest within budget when only a budget is given).
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .. import knowledge as knowledge_mod
from ..estimators import GB
from ..estimators import memory as M
from ..estimators.candidate import Evaluation, evaluate
from ..inputs.job import Job, resolve
from ..inputs.schema import Requirements, coerce
from ..knowledge.compat import environment_facts
from ..results import (
    Assumption,
    Candidate,
    EstimateResult,
    GpuOut,
    Recommendation,
    RecommendResult,
    StepSummary,
)
from . import engine as rules
from . import rulebook
from .actions import Firing, Outcome, fact_key, fill, materialize, ordered_findings
from .estimate import memory_out, term_out

NODE = 8
TODAY = dt.date.today


def counts_for(max_gpus: int) -> list[int]:
    out = [n for n in (1, 2, 4, 8) if n <= max_gpus]
    n = 16
    while n <= max_gpus:
        out.append(n)
        n *= 2
    if max_gpus > NODE and max_gpus not in out and max_gpus % NODE == 0:
        out.append(max_gpus)
    return out


def candidate_gpus(job: Job) -> tuple[list[str], list[Assumption]]:
    kb = job.kb
    notes: list[Assumption] = []
    if not job.c.gpus:
        return list(kb.gpus), notes
    ids: list[str] = []
    for i, name in enumerate(job.c.gpus):
        r = kb.gpu(name, where=f"{job.where}: constraints.gpus[{i}]")
        if r.note:
            notes.append(Assumption(field=f"constraints.gpus[{i}]", value=name, reason=r.note))
        if r.id not in ids:
            ids.append(r.id)
    return ids, notes


def job_fact(job: Job, evaluations: list[Evaluation], proposed_total_gb: float = -1.0) -> dict[str, Any]:
    w, shape = job.w, job.shape
    quant = job.kb.runtime.quantization
    state_b = 16.0 if w.mixed_precision or w.precision == "fp32" else 8.0
    fits = [e for e in evaluations if e.fits]
    single_node = [e for e in fits if e.count <= NODE]
    return {
        "task": w.task, "method": w.method, "model": shape.name, "params_b": shape.params / 1e9,
        "precision": w.precision, "mixed_precision": w.mixed_precision, "optimizer": w.optimizer,
        "zero": w.zero_stage if isinstance(w.zero_stage, int) else -1,
        "full_training": job.training and w.method == "full",
        "state_gb": shape.params * state_b / GB, "state_gb_myth": shape.params * 8 * 1.2 / GB,
        "feasible_candidates": len(fits), "single_node_feasible": bool(single_node),
        "best_single_gpu_need_gb": min((e.memory.per_gpu for e in evaluations if e.count == 1), default=0) / GB,
        "largest_usable_gb": max((e.usable for e in evaluations), default=0) / GB,
        "seq_len": w.seq_len, "batch_size": w.batch_size, "context_len": w.context_len,
        "weights_gb": shape.params * 2 / GB,
        "int4_weights_gb": M.weight_bytes(shape, "int4", quant).value / GB,
        "explicit_gpus": bool(job.c.gpus), "proposed_total_gb": proposed_total_gb,
    }


def price_facts(job: Job, evaluations: list[Evaluation]) -> list[dict[str, Any]]:
    """Dated prices the result relies on, with their age, for the data-freshness rule."""
    seen: dict[str, dict[str, Any]] = {}
    today = TODAY()
    for e in evaluations:
        n = e.numbers
        acq = n.get("acquisition")
        for mode, what, as_of, source in (
            ("rent", f"rent {e.gpu.id} ({n.get('provider')})", n.get("price_as_of"), "knowledge/clouds.yaml"),
            ("buy", f"buy {e.gpu.id}", n.get("buy_price_as_of"), "knowledge/gpus.yaml"),
        ):
            if mode != acq or not as_of or as_of == "proposal" or what in seen:
                continue
            age = (today - dt.date.fromisoformat(as_of)).days
            seen[what] = {"what": what, "as_of": as_of, "age_days": age, "source": source, "used": True}
    return list(seen.values())


def _candidate(e: Evaluation, outcome: Outcome, rank: int | None, env: list[str] | None = None) -> Candidate:
    key = e.key
    n = e.numbers
    reasons = [msg for _, msg in outcome.rejections.get(key, [])] + [f"environment: {m}" for m in env or []]
    return Candidate(
        gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes, feasible=not reasons, rank=rank,
        memory_per_gpu_bytes=round(e.memory.per_gpu), capacity_per_gpu_bytes=int(e.capacity),
        usable_per_gpu_bytes=int(e.usable), memory_breakdown=e.memory.breakdown(),
        wall_days=n.get("wall_days"), gpu_hours=n.get("gpu_hours"), total_cost_usd=n.get("cost_usd"),
        acquisition=n.get("acquisition"), rent_cost_usd=n.get("rent_usd"), buy_cost_usd=n.get("buy_usd"),
        break_even_month=n.get("break_even_month"), strategy=e.strategy.label(),
        strategy_changes=e.strategy.changes_from(e.requested), scaling_efficiency=n.get("efficiency"),
        decode_tokens_per_s=n.get("decode_tokens_per_s"),
        decode_tokens_per_s_total=n.get("decode_tokens_per_s_total"),
        provider=n.get("provider"), instance=n.get("instance"), reasons=reasons,
        rules=outcome.rules_for(key),
    )


COST_STEP = 1.02  # costs within 2% of each other count as equal; then fewer GPUs win


def rank_key(job: Job, e: Evaluation) -> tuple:
    """Cheapest first (2% cost buckets, then fewer GPUs, then faster); with a budget and no
    deadline, fastest first."""
    cost = e.numbers.get("cost_usd")
    days = e.numbers.get("wall_days") or 0.0
    bucket = math.floor(math.log(cost) / math.log(COST_STEP)) if cost and cost > 0 else (0 if cost == 0 else 10**9)
    if job.c.deadline_days is None and job.c.budget_usd is not None and job.training:
        return (round(days, 3), bucket, e.count)
    return (bucket, e.count, days)


def summary_of(job: Job, e: Evaluation) -> str:
    n = e.numbers
    what = f"{e.count} x {e.gpu.name}" + (f" in {e.nodes} nodes" if e.nodes > 1 else "")
    acq = n.get("acquisition")
    where = f" from {n.get('provider')}" + (f" ({n.get('instance')})" if n.get("instance") else "") \
        if acq == "rent" and n.get("provider") else ""
    cost = n.get("cost_usd")
    money = f"${cost:,.0f}" if cost is not None else "cost unknown"
    if job.training:
        return (f"{acq or 'acquire'} {what}{where}: {n['wall_days']:.1f} days, {money}, "
                f"{e.memory.per_gpu / GB:.1f} GB of {e.usable / GB:.1f} GB usable per GPU ({e.strategy.label()})")
    return (f"{acq or 'acquire'} {what}{where}: {n['decode_tokens_per_s']:.0f} tokens/s per sequence, "
            f"{n['decode_tokens_per_s_total']:.0f} tokens/s in total, {money} over {job.c.project_months:g} months")


def _rec(job: Job, e: Evaluation) -> Recommendation:
    n = e.numbers
    return Recommendation(gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes,
                          acquisition=n.get("acquisition") or "rent", wall_days=n.get("wall_days"),
                          total_cost_usd=n.get("cost_usd"), summary=summary_of(job, e),
                          strategy=e.strategy.label(), provider=n.get("provider"), instance=n.get("instance"),
                          decode_tokens_per_s=n.get("decode_tokens_per_s"),
                          decode_tokens_per_s_total=n.get("decode_tokens_per_s_total"))


@dataclass
class Consultation:
    """The facts of one consultation and the rule firings over them.

    Pass one asserts every candidate (feasibility: the reject rules) and the consultation's
    other facts; pass two asserts again, with ``detail: 1``, the candidates the result
    shows, so their findings and step conclusions fire (see rulebook.DETAILED).
    """

    facts: list[dict[str, Any]]
    firings: list[Firing]

    def rejected(self) -> set[str]:
        book = rulebook.load()
        return {fact_key(self.facts[i]) for rid, i in self.firings if book.rules[rid].then.action == "reject"}

    def environment_blockers(self) -> dict[str, list[str]]:
        """GPU id -> messages of blocker findings on the user's software environment for it.
        The user named that environment, so a GPU it cannot drive is not recommended."""
        book = rulebook.load()
        out: dict[str, list[str]] = {}
        for rid, i in self.firings:
            f, rule = self.facts[i], book.rules[rid]
            if f["t"] == "environment" and rule.then.severity == "blocker":
                out.setdefault(f["gpu"], []).append(fill(rule.then.message, f))
        return out

    def detail(self, evaluations: list[Evaluation]) -> None:
        """Pass two over the candidates to show."""
        more = [{"t": "candidate", **e.fact, "detail": 1} for e in evaluations]
        offset = len(self.facts)
        fired = rules.run(rulebook.load(), more)
        self.facts += more
        self.firings += [(rid, i + offset) for rid, i in fired]

    def outcome(self, detail: Callable[[str], bool]) -> Outcome:
        return materialize(rulebook.load(), self.firings, self.facts, detail)


def consult(job: Job, evaluations: list[Evaluation], *, extra_facts: dict[str, list[dict]] | None = None,
            proposed_total_gb: float = -1.0, price_subjects: list[Evaluation] | None = None) -> Consultation:
    """Run the rule book over the candidates and the consultation's other facts."""
    facts: list[dict[str, Any]] = [{"t": "candidate", **e.fact, "detail": 0} for e in evaluations]
    facts.append({"t": "job", **job_fact(job, evaluations, proposed_total_gb)})
    gpu_ids = list(dict.fromkeys(e.gpu.id for e in evaluations))
    facts += [{"t": "environment", **f} for f in environment_facts(job, gpu_ids)]
    facts += [{"t": "price", **p} for p in price_facts(job, price_subjects or evaluations)]
    for kind, items in (extra_facts or {}).items():
        facts += [{"t": kind, **f} for f in items]
    return Consultation(facts, rules.run(rulebook.load(), facts))


def recommend(requirements: Any, *, knowledge: str | None = None) -> RecommendResult:
    req: Requirements = coerce(Requirements, requirements)
    kb = knowledge_mod.load(knowledge)
    where = str(requirements) if isinstance(requirements, str) else "requirements"
    job = resolve(req, kb, where)
    gpu_ids, notes = candidate_gpus(job)
    evaluations: list[Evaluation] = []
    for gid in gpu_ids:
        g = kb.gpus[gid]
        for n in counts_for(job.c.max_gpus):
            evaluations.append(evaluate(job, g, n))
    con = consult(job, evaluations)
    return build_result(job, evaluations, con, notes)


def build_result(job: Job, evaluations: list[Evaluation], con: Consultation,
                 notes: list[Assumption]) -> RecommendResult:
    rejected = con.rejected()
    env_blocked = con.environment_blockers()
    feasible = [e for e in evaluations if e.key not in rejected and e.gpu.id not in env_blocked]
    feasible.sort(key=lambda e: rank_key(job, e))
    ranks = {e.key: i + 1 for i, e in enumerate(feasible)}
    best = feasible[0] if feasible else None
    runner = next((e for e in feasible[1:] if best and e.gpu.id != best.gpu.id), None)
    shown = [e for e in (best, runner) if e is not None]
    if job.c.gpus:  # the user's short list: each listed GPU's best configuration and its largest one
        for gid in dict.fromkeys(e.gpu.id for e in evaluations):
            mine = [e for e in evaluations if e.gpu.id == gid]
            good = [e for e in feasible if e.gpu.id == gid]
            shown += [good[0] if good else mine[0], max(mine, key=lambda e: e.count)]
    relevant = {e.key for e in shown} | {f"price:{p['what']}" for p in price_facts(job, shown)}
    relevant |= {f"env:{e.gpu.id}" for e in shown}
    con.detail(list({e.key: e for e in shown}.values()))
    outcome = con.outcome(lambda key: key in relevant or not _per_subject(key))
    candidates = [_candidate(e, outcome, ranks.get(e.key), env_blocked.get(e.gpu.id, [])) for e in evaluations]
    candidates.sort(key=lambda c: (c.rank is None, c.rank or 0, c.gpu, c.count))
    findings = ordered_findings(outcome)
    stale = [p for p in price_facts(job, shown) if p["age_days"] > 365]
    estimate = None
    steps: list[StepSummary] = []
    charts: dict[str, Any] = {}
    if best is not None:
        estimate = _estimate_of(job, best)
        steps = _steps(job, best, outcome)
        charts = _charts(job, best, feasible, evaluations)
    kb = job.kb
    networks = {e.topology.network for e in (best, runner) if e is not None and e.nodes > 1 and e.topology}
    for net in sorted(n for n in networks if n):
        desc = kb.runtime.networks[net].description if net in kb.runtime.networks else net
        notes = [*notes, Assumption(field="network", value=net,
                                    reason=f"multi-node candidates assume {desc} between nodes (no network given)")]
    return RecommendResult(
        recommendation=_rec(job, best) if best else None,
        runner_up=_rec(job, runner) if runner else None,
        candidates=candidates,
        findings=findings,
        trace=outcome.trace,
        question=job.question(),
        assumptions=[*job.assumptions, *notes],
        steps=steps,
        charts=charts,
        knowledge_dates={k: v.isoformat() for k, v in kb.dates().items()},
        stale_prices=stale,
        estimate=estimate,
    )


def _per_subject(key: str) -> bool:
    """Candidates, prices and GPU environments are detailed only for the subjects a result
    presents; consultation-wide facts (the job, a proposal, its cards) always."""
    return not key.startswith("card:") and key not in ("job", "proposal")


def _estimate_of(job: Job, e: Evaluation) -> EstimateResult:
    from .estimate import _flops

    n = e.numbers
    gpu = GpuOut(id=e.gpu.id, name=e.gpu.name, count=e.count, nodes=e.nodes, fits=e.fits,
                 gpu_hours=n.get("gpu_hours"), wall_hours=n.get("wall_hours"),
                 decode_tokens_per_s=n.get("decode_tokens_per_s"),
                 decode_tokens_per_s_total=n.get("decode_tokens_per_s_total"),
                 prefill_tokens_per_s=n.get("prefill_tokens_per_s"), cost_usd=n.get("cost_usd"),
                 acquisition=n.get("acquisition"), strategy=e.strategy.label(),
                 scaling_efficiency=n.get("efficiency"), peak_tflops=n.get("peak_tflops"),
                 peak_kind=n.get("peak_kind", ""), mfu=n.get("mfu"),
                 terms=[term_out(t) for t in e.terms.values()],
                 cost={"rent_usd": n.get("rent_usd"), "buy_usd": n.get("buy_usd"),
                       "break_even_month": n.get("break_even_month"),
                       "usd_per_gpu_hour": n.get("usd_per_gpu_hour"), "provider": n.get("provider"),
                       "instance": n.get("instance"), "price_as_of": n.get("price_as_of"),
                       "buy_lines": e.buy.lines if e.buy else {}})
    return EstimateResult(memory=memory_out(job, e, e.memory, e.count), compute=_flops(job), gpu=gpu,
                          workload={}, assumptions=[])


def _steps(job: Job, e: Evaluation, outcome: Outcome) -> list[StepSummary]:
    book = rulebook.load()
    fired = outcome.rules_for(e.key)
    by_step: dict[str, list[str]] = {}
    for rid in fired:
        by_step.setdefault(book.step_of[rid], []).append(rid)
    n = e.numbers
    mem = e.memory
    out = [StepSummary(
        step="memory",
        conclusion=(f"{mem.per_gpu / GB:.1f} GB per GPU at the {mem.peak_phase} peak ({mem.layout}; "
                    f"{e.strategy.label()}) of {e.usable / GB:.1f} GB usable on {e.gpu.name}"),
        rules=by_step.get("memory", []), terms=[term_out(t) for t in mem.terms()])]
    if job.training:
        comp = (f"{n['gpu_hours']:,.0f} GPU-hours: {n['wall_days']:.1f} days on {e.count} GPUs at "
                f"{n['peak_tflops']:g} TFLOPS peak ({n['peak_kind']}) x MFU {n['mfu']:.2f}")
        keys = ("flops", "gpu_hours", "wall_hours")
    else:
        comp = (f"{n['decode_tokens_per_s']:.0f} tokens/s per sequence, {n['decode_tokens_per_s_total']:.0f} "
                f"tokens/s in total ({e.terms['decode'].note})")
        keys = ("decode", "decode_total", "prefill")
    out.append(StepSummary(step="compute", conclusion=comp, rules=by_step.get("compute", []),
                           terms=[term_out(e.terms[k]) for k in keys if k in e.terms]))
    topo = e.topology
    inter = (f"{topo.description}: {100 * n.get('efficiency', 1.0):.0f}% scaling efficiency" if e.count > 1
             else "one GPU: no inter-GPU traffic")
    if not job.training and n.get("tp", 1) > 1:
        inter = f"{topo.description}: one model copy over {n['tp']} GPUs (tensor parallel), {n['replicas']} copies"
    out.append(StepSummary(step="interconnect", conclusion=inter, rules=by_step.get("interconnect", []),
                           terms=[term_out(e.terms[k]) for k in ("allreduce", "scaling_efficiency") if k in e.terms]))
    rent, buy = n.get("rent_usd"), n.get("buy_usd")
    parts = []
    if rent is not None:
        parts.append(f"rent ${rent:,.0f} ({n.get('provider')}, ${n.get('usd_per_gpu_hour'):.2f}/GPU-h, "
                     f"as of {n.get('price_as_of')})")
    if buy is not None:
        parts.append(f"buy ${buy:,.0f} net of resale after {job.c.project_months:g} months")
    if n.get("break_even_month"):
        parts.append(f"break-even at month {n['break_even_month']} of continuous use")
    out.append(StepSummary(step="tco", conclusion="; ".join(parts) or "no prices known",
                           rules=by_step.get("tco", []),
                           terms=[term_out(e.terms[k]) for k in ("rent", "buy") if k in e.terms]))
    return out


def _charts(job: Job, best: Evaluation, feasible: list[Evaluation], evaluations: list[Evaluation]
            ) -> dict[str, Any]:
    shown = [best] + [e for e in feasible[1:6]]
    memory = [{"label": f"{e.count} x {e.gpu.name}", "capacity": e.capacity, "usable": e.usable,
               "parts": e.memory.breakdown()} for e in shown]
    time_cost = [{"label": f"{e.count} x {e.gpu.id}", "wall_days": e.numbers.get("wall_days"),
                  "cost_usd": e.numbers.get("cost_usd"), "feasible": True, "chosen": e is best}
                 for e in feasible[:40] if e.numbers.get("cost_usd") is not None]
    charts: dict[str, Any] = {"memory": memory, "time_cost": time_cost}
    curves = best.cost_curves(job.kb.tco, job.c.project_months)
    if curves:
        charts["cost_curve"] = {"months": list(range(len(curves["rent"]))), "rent": curves["rent"],
                                "buy": curves["buy"], "break_even_month": best.numbers.get("break_even_month"),
                                "label": f"{best.count} x {best.gpu.name}"}
    return charts
