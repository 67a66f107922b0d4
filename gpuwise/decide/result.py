"""A recommendation's result from its consultation: the ranked candidates, the answer and its
runner-up with their sentences, each step's conclusion, the findings and trace of the candidates
shown, the charts' series. Presentation data only: the rules decided, :mod:`gpuwise.decide.rank`
ordered; ``audit`` builds its alternatives' part the same way.
"""

from __future__ import annotations

import math
from typing import Any

from .. import messages
from ..chart_series import Charts, MemoryBar, TimeCostPoint
from ..checked import made
from ..estimators import GB
from ..estimators import micro_batch as MB
from ..estimators import serving as SV
from ..estimators.candidate import Evaluation
from ..inputs.job import Job, note
from ..later import later
from ..ledger import built
from ..prices.used import prices_used
from ..results import (
    CORE_STEPS,
    Assumption,
    Candidate,
    CurrencyInfo,
    EstimateResult,
    Finding,
    HouseRules,
    Recommendation,
    RecommendResult,
    Sentence,
    StalePrice,
    StepBatch,
    StepSummary,
)
from ..results_serving import ServingOut
from . import rulebook
from .actions import SEVERITY_ORDER, Outcome, fact_key, ordered_findings
from .consult import Consultation
from .estimate import _flops, gpu_out, memory_out, term_out
from .rank import Ranking, closeness, ranking
from .subjects import price_facts
from .verdicts import Verdict, judged_serving


def build_result(job: Job, con: Consultation, notes: list[Assumption], rules: str | None = None) -> RecommendResult:
    kb = job.kb
    first = con.outcome(sentences=False)
    r = ranking(job, con, first)
    # with no answer, the nearest alternative is presented in detail (its findings and trace), and
    # each rule that rejected candidates is said once, of the closest candidate it rejected
    detailed = [*r.shown, *([] if r.best else r.why_not[:1])]
    shown = set(detailed)
    shown_gpus = {con.options[k][0].gpu.id for k in shown}
    prices = {fact_key(f) for f in price_facts(job, [con.options[k] for k in shown])}
    relevant = shown | prices | {f"env:{g}" for g in shown_gpus}
    blocking = {} if r.best else blocking_rules(con, first, detailed)
    said = {k for k, _n in blocking.values()} | {f"env:{con.options[k][0].gpu.id}" for k, _n in blocking.values()}
    # every candidate the result lists is run through every rule: its ``rules`` are all that fired on
    # its facts, not only the deciding ones (review47: CMP-FP4-EMULATED on some H100 counts, not others)
    con.detail([*detailed, *(k for k in con.options if not k.startswith("proposed"))])
    outcome = con.outcome(lambda key: key in relevant or key in said or not _per_subject(key))
    scores = {s.key: s.score for s in r.order}
    candidates = [_candidate(con, outcome, k, r.ranks.get(k), scores.get(k)) for k in con.options
                  if not k.startswith("proposed")]
    candidates.sort(key=lambda c: (c.rank is None, c.rank or 0, c.gpu, c.count, c.acquisition or ""))
    # with no answer, the candidates' blockers are said once per rule, with its counts (the job's stay)
    findings = ordered_findings(outcome, lambda key: key in relevant or not _per_subject(key),
                                lambda key, f: not blocking or f.severity != "blocker" or not _per_subject(key),
                                first=r.best)
    if blocking:
        findings = sorted(findings + rejected_by(con, outcome, blocking), key=lambda f: SEVERITY_ORDER[f.severity])
    estimate = None
    steps: list[StepSummary] = []
    charts = Charts.model_construct()  # the empty charts, as Charts() (which built a validator for it)
    if r.best is not None:
        ev, _mode = con.options[r.best]
        estimate = estimate_of(job, ev, con.verdict(r.best))
        steps = step_summaries(job, con, outcome, r.best)
        charts = _charts(job, con, r)
    for k in (r.best, r.runner):
        if k and con.options[k][0].nodes > 1 and con.options[k][0].topology:
            net = con.options[k][0].topology.network  # type: ignore[union-attr]
            if net:
                known = kb.runtime.networks.get(net)
                said = {"network": known.text, "network_phrases": messages.phrase_json(known.phrases())} if known \
                    else {"network": net}
                notes = [*notes, note("network", net, "assume.network", said)]
    by_key = {f"{c.gpu}x{c.count}:{c.acquisition}": c for c in candidates}
    return made(RecommendResult, dict(
        alternatives=[by_key[k] for k in r.why_not if k in by_key],
        ranking_note=tie_note(r, con),
        recommendation=recommendation(job, con, r.best, r) if r.best else None,
        runner_up=recommendation(job, con, r.runner, r) if r.runner else None,
        candidates=candidates,
        findings=findings,
        trace=[t for t in outcome.trace if t.subject in relevant or not _per_subject(t.subject)],
        question=job.question(),
        assumptions=[*job.assumptions, *_dedupe(notes)],
        steps=steps,
        charts=charts,
        knowledge_dates={k: v.isoformat() for k, v in kb.dates().items()},
        stale_prices=stale_prices(findings, {f["what"] for f in price_facts(job, [con.options[r.best]])}
                                  if r.best else None),
        prices_used=prices_used(job, *con.options[r.best]) if r.best else [],
        estimate=estimate,
        currency=currency_info(kb, job.c.currency),
        house_rules=house_rules(con.book, rules),
        policy=kb.policy_values(),
        ranking=ranking_sentence(kb.policy_values(), job.training),
    ))


def blocking_rules(con: Consultation, outcome: Outcome, nearest: list[str]) -> dict[str, tuple[str, int]]:
    """With no candidate decided: each rule that rejected candidates, with the one it is said of
    (the closest of the alternatives shown that it rejected, else the closest of all it rejected:
    :func:`gpuwise.decide.rank.closeness`; a listed GPU's largest count is shown, but 8 DGX Sparks, not 64, say
    why more than four are refused; a memory-step rule the most GPUs of that kind and mode it refused: 4 Sparks
    still short of memory say more than one) and how many it rejected; most first, then in the rule book's order."""
    by_rule: dict[str, list[str]] = {}
    for k in con.options:
        if not k.startswith("proposed"):
            for rid in dict.fromkeys(x.rule for x in outcome.rejections.get(k, [])):
                by_rule.setdefault(rid, []).append(k)
    reach = closeness(con, outcome)
    order = {rid: i for i, rid in enumerate(con.book.rules)}
    out: dict[str, tuple[str, int]] = {}
    for rid in sorted(by_rule, key=lambda x: (-len(by_rule[x]), order.get(x, 0))):
        keys = by_rule[rid]
        first = min([k for k in nearest if k in keys] or keys, key=reach)
        if con.book.step_of.get(rid) == "memory":  # a fit refused says most at the most GPUs of that kind it refused
            ev, mode = con.options[first]
            first = max((k for k in keys if con.options[k][0].gpu.id == ev.gpu.id and con.options[k][1] == mode),
                        key=lambda k: con.options[k][0].count)
        out[rid] = (first, len(keys))
    return out


def rejected_by(con: Consultation, outcome: Outcome, blocking: dict[str, tuple[str, int]]) -> list[Finding]:
    """Each blocking rule's finding, said of its candidate (:func:`blocking_rules`), with how many
    candidates and GPU types it rejected in its evidence (``candidates_rejected``,
    ``gpu_types_rejected``): what a result with no answer reports as its blockers."""
    gpus: dict[str, set[str]] = {}
    for k in con.options:
        if not k.startswith("proposed"):
            for x in outcome.rejections.get(k, []):
                gpus.setdefault(x.rule, set()).add(con.options[k][0].gpu.id)
    out = []
    for rid, (key, n) in blocking.items():
        subjects = (key, f"env:{con.options[key][0].gpu.id}")
        f = next((f for k, f in outcome.findings if f.rule == rid and k in subjects), None)
        if f is not None:
            out.append(f.model_copy(update={"evidence": {**f.evidence, "candidates_rejected": n,
                                                         "gpu_types_rejected": len(gpus.get(rid, ()))}}))
    return out


def _dedupe(notes: list[Assumption]) -> list[Assumption]:
    seen: set[tuple[str, str]] = set()
    out = []
    for n in notes:
        if (n.field, str(n.value)) not in seen:
            seen.add((n.field, str(n.value)))
            out.append(n)
    return out


def _per_subject(key: str) -> bool:
    """Candidates, prices and GPU environments are detailed only for the subjects a result
    presents; consultation-wide facts (the job, a proposal, its cards) always."""
    return not key.startswith("card:") and key not in ("job", "proposal")


def stale_prices(findings: list[Any], answer: set[str] | None = None) -> list[StalePrice]:
    """The prices a data-freshness rule called stale, for the report's note; ``answer``: what the answer's own
    dated prices price, so a report can count them apart from the other options' (None: no answer)."""
    return [StalePrice.of(f, f.subject, answer) for f in findings if f.topic == "data-freshness"]


def currency_info(kb: Any, asked: str = "USD") -> CurrencyInfo | None:
    """The rate a report in yuan converts at, and the currency the input was written in."""
    try:
        v = kb.tco_value("usd_cny")
    except Exception:  # an overlay may lack it; the report then asks for --fx-rate
        return None
    return made(CurrencyInfo, dict(usd_cny=float(v.value), as_of=v.as_of.isoformat() if v.as_of else "",
                        source=" ".join(v.source.split()), asked=asked))


def house_rules(book: rulebook.Rulebook, rules: str | None) -> HouseRules | None:
    if not book.house:
        return None
    return made(HouseRules, dict(directory=str(rules or ""), added=sorted(book.house - set(book.replaced)),
                      replaced=dict(sorted(book.replaced.items()))))


def tie_note(r: Ranking, con: Consultation) -> Sentence | None:
    """When the runner-up ties with the answer under the ranking policy, say why the answer won."""
    if not r.best or len(r.order) <= 1:
        return None
    first, second = r.order[0], r.order[1]
    tie = float(con.book.policy.get("ranking_tie_fraction", 0))
    if not (second.score <= first.score * (1 + tie) and first.score <= second.score * (1 + tie)):
        return None
    a, b = con.options[first.key][0], con.options[second.key][0]
    # the tie-breaks in rank.rank's order; what decided it when none did is said so, not 'finishing sooner'
    why = ("fewer GPUs" if first.count < second.count else "more free memory"
           if first.free_fraction > second.free_fraction else "faster" if first.days < second.days
           else "cheaper" if first.score < second.score else "listed first")
    values = {"best": f"{a.count} x {a.gpu.name}", "other": f"{b.count} x {b.gpu.name}",
              "tie_fraction": tie, "why": why, "best_score": first.score, "other_score": second.score}
    mid = f"ranking.tie.{why.replace(' ', '_')}"
    return made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid), values=values))


def ranking_sentence(policy: dict[str, Any], training: bool = True) -> Sentence:
    """The ranking policy in words; a service's score has no days in it (rank.score), so its
    sentence leaves the value of a day out."""
    values = {k: policy[k] for k in ("value_of_a_day_usd", "ranking_tie_fraction")}
    mid = "ranking.policy" if training else "ranking.policy.serving"
    return made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid), values=values))


def candidate_out(con: Consultation, outcome: Outcome, key: str, rank_: int | None,
                  scored: float | None) -> Candidate:
    e, mode = con.options[key]
    k = e.cost
    why = [made(Sentence, dict(id=r.rule, text=r.message, template=r.template, values=r.values))
           for r in outcome.rejections.get(key, [])]
    stage = outcome.reached.get(key, "memory")
    if not why and stage != "decided":
        why = [made(Sentence, dict(id="reason.stalled", text=messages.text("reason.stalled", {"stage": stage}),
                        template=messages.template("reason.stalled"), values={"stage": stage}))]
    led, tl, speed = e.ledger(mode), e.timeline_of(mode), e.speed
    changes = _changes(e)
    return built(Candidate, dict(  # built from typed estimates: no validation per candidate
        gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes, feasible=outcome.decided(key), rank=rank_,
        memory_per_gpu_bytes=round(e.memory.per_gpu), capacity_per_gpu_bytes=int(e.capacity),
        usable_per_gpu_bytes=int(e.usable), memory_breakdown=e.memory.breakdown(),
        wall_days=_wall_days(e), gpu_hours=tl.gpu_hours if tl else None, serving=serving_of(e, con.book, con.fact(key)),
        total_cost_usd=led.total if led else None, ledger=led, timeline=tl,
        acquisition=mode, rent_cost_usd=k.rent_usd if k else None, buy_cost_usd=k.buy_usd if k else None,
        break_even_month=k.break_even_month if k else None, strategy=_label(e), strategy_phrases=e.label_phrases(),
        strategy_changes=[messages.phrase_text((("", mid, kw),)) for _sep, mid, kw in changes],
        strategy_changes_phrases=messages.phrase_json(changes),
        scaling_efficiency=speed.efficiency if speed else None,
        decode_tokens_per_s=speed.decode_tokens_per_s if speed else None,
        decode_tokens_per_s_total=speed.decode_tokens_per_s_total if speed else None,
        provider=k.rent_provider if k and mode == "rent" else None,
        instance=k.rent_instance if k and mode == "rent" else None, reasons=[s.text for s in why], reason_sentences=why,
        rules=outcome.rules_for(key), score_usd=None if scored is None or math.isinf(scored) else scored, stage=stage,
        step_batch=step_batch(e),
    ))


def step_batch(e: Evaluation) -> StepBatch | None:
    """A training configuration's optimizer step as its layout holds it (whole micro-batches on every replica), for
    the reports to say where it exceeds the batch asked (product65); None for a service or a run without a layout."""
    lay = e.plan.layout if e.plan is not None else None
    if lay is None or not getattr(lay, "grad_accum", 0) or not getattr(lay, "global_batch_tokens", 0):
        return None
    return made(StepBatch, dict(global_batch_tokens=int(lay.global_batch_tokens), dp=lay.dp, cp=lay.cp,
                                grad_accum=lay.grad_accum, micro_batch=lay.micro_batch))


def _candidate(con: Consultation, outcome: Outcome, key: str, rank_: int | None, scored: float | None) -> Candidate:
    """:func:`candidate_out`, made when a report first reads more of it than what the result sorts
    by (:mod:`gpuwise.later`: a report's lean records only)."""
    e, mode = con.options[key]
    eager = {"gpu": e.gpu.id, "count": e.count, "acquisition": mode, "feasible": outcome.decided(key), "rank": rank_}
    return later(Candidate, eager, lambda: candidate_out(con, outcome, key, rank_, scored))


def _wall_days(e: Evaluation) -> float | None:
    """A training job's wall-clock days, from its timeline (None for a service, which runs on)."""
    if e.timeline is None or e.wall_days is None:
        return e.wall_days
    return e.timeline.wall_days


def serving_of(e: Evaluation, book: rulebook.Rulebook, fact: dict[str, Any]) -> ServingOut | None:
    """A serving configuration's figures at the stated load (the curve is left to the estimate);
    ``meets_*``/``supports`` are the rules' verdicts (:func:`verdicts.judged_serving`)."""
    if e.serving is None:  # not served (a training job needs no serving module loaded)
        return None
    return SV.serving_json(judged_serving(book, fact, e.serving), with_curve=False)


def _label(e: Evaluation) -> str:
    return e.label()


def _changes(e: Evaluation) -> tuple[messages.Phrase, ...]:
    """What the layout changes in the one the question wrote, as message ids (a service has none), the micro-batch
    included where a smaller one is planned in place of the stated one (micro_batch.held)."""
    out = e.strategy.changes_from(e.requested) if hasattr(e.strategy, "changes_from") else ()
    if e.plan is not None and e.requested_plan is not None and MB.held(e.plan, e.requested_plan):
        lay = e.plan.layout
        out = (*out, messages.batch_size_change(e.requested_plan.layout.micro_batch, lay.micro_batch, lay.grad_accum,
                                                 "; " if out else ""))
    return out


def recommendation(job: Job, con: Consultation, key: str, r: Ranking) -> Recommendation:
    e, mode = con.options[key]
    f = con.fact(key)
    k = e.cost
    led, speed = e.ledger(mode), e.speed
    kind = "training" if job.training else ("diffusion" if job.shape.diffusion else "inference")
    values = {"count": e.count, "gpu_name": e.gpu.name, "nodes": e.nodes, "provider": f["provider"],
              "wall_days": _wall_days(e), "cost_usd": led.total if led else f["cost_usd"], "need_gb": f["need_gb"],
              "usable_gb": e.usable / GB, "strategy": _label(e), "strategy_phrases": e.label_phrases(),
              "decode_tps": speed.decode_tokens_per_s if speed else None,
              "aggregate_tps": speed.decode_tokens_per_s_total if speed else None,
              "project_months": job.c.project_months,
              # a purchase's price without the host RAM its offload needs says so beside it (review60b)
              "buy_ram_said": f.get("buy_ram_said", ""), "buy_ram_said_phrases": f.get("buy_ram_said_phrases", [])}
    mid = f"summary.{kind}.{mode}"
    sentence = made(Sentence, dict(id=mid, text=messages.text(mid, values), template=messages.template(mid),
                                   values=values))
    scored = next((s.score for s in r.order if s.key == key), None)
    return made(Recommendation, dict(gpu=e.gpu.id, gpu_name=e.gpu.name, count=e.count, nodes=e.nodes, acquisition=mode,
                          wall_days=_wall_days(e), total_cost_usd=led.total if led else None,
                          gpu_hours=e.timeline.gpu_hours if e.timeline else None, ledger=led,
                          timeline=e.timeline_of(mode),
                          serving=serving_of(e, con.book, f),
                          summary=sentence.text, summary_sentence=sentence,
                          score_usd=None if scored is None or math.isinf(scored) else scored,
                          strategy=_label(e), strategy_phrases=e.label_phrases(),
                          provider=k.rent_provider if k and mode == "rent" else None,
                          instance=k.rent_instance if k and mode == "rent" else None,
                          decode_tokens_per_s=speed.decode_tokens_per_s if speed else None,
                          decode_tokens_per_s_total=speed.decode_tokens_per_s_total if speed else None))


def estimate_of(job: Job, e: Evaluation, verdict: Verdict) -> EstimateResult:
    return made(EstimateResult, dict(memory=memory_out(job, e, e.memory, e.count), compute=_flops(job),
                          gpu=gpu_out(job, e, verdict), workload={}, assumptions=[]))


STEP_TERMS = {
    "compute": ("flops", "gpu_hours", "wall_hours", "decode", "decode_total", "prefill"),
    "interconnect": ("allreduce", "scaling_efficiency"),
    "tco": ("rent", "buy"),
}


def step_summaries(job: Job, con: Consultation, outcome: Outcome, key: str) -> list[StepSummary]:
    """Each step's conclusion for one candidate: the sentence of the rule that passed it there,
    the other rules that fired at that step, and the formulas behind the step's numbers."""
    e, _mode = con.options[key]
    book = con.book
    by_step: dict[str, list[str]] = {}
    for rid in outcome.rules_for(key):
        by_step.setdefault(book.step_of[rid], []).append(rid)
    concl = outcome.conclusions.get(key, {})
    out = []
    for step in CORE_STEPS:
        c = concl.get(step)
        terms = [term_out(t) for t in e.memory.terms()] if step == "memory" else [
            term_out(e.all_terms()[k]) for k in STEP_TERMS[step] if k in e.all_terms()]
        out.append(made(StepSummary, dict(step=step, conclusion=c.text if c else "", rule=c.rule if c else "",
                               template=c.template if c else "", values=c.values if c else {},
                               rules=by_step.get(step, []), terms=terms)))
    return out


def _charts(job: Job, con: Consultation, r: Ranking) -> Charts:
    order = [s.key for s in r.order]
    best = con.options[r.order[0].key][0]
    shown = list({id(e): e for e in (con.options[k][0] for k in order[:6])}.values())
    memory = [MemoryBar.model_construct(label=f"{e.count} x {e.gpu.name}", capacity=e.capacity, usable=e.usable,
                                        parts=e.memory.breakdown()) for e in shown]
    time_cost = [TimeCostPoint.model_construct(
                     label=f"{con.options[k][0].count} x {con.options[k][0].gpu.id} ({con.options[k][1]})",
                     # the label's parts as data: a report words the point in its language from these
                     count=con.options[k][0].count, gpu=con.options[k][0].gpu.id, acquisition=con.options[k][1],
                     wall_days=con.options[k][0].wall_days, cost_usd=con.fact(k)["cost_usd"], feasible=True,
                     chosen=k == r.best)
                 for k in order[:40] if con.fact(k)["cost_usd"] >= 0]
    curve = best.cost_chart(con.options[r.order[0].key][1])
    if curve is not None:
        curve = curve.model_copy(update={"label": f"{best.count} x {best.gpu.name}"})
    return Charts.model_construct(memory=memory, time_cost=time_cost, cost_curve=curve)
