"""``gpuwise estimate``: the numbers alone, with the formula behind each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .. import knowledge as knowledge_mod
from .. import messages
from ..checked import made
from ..errors import N_, UserError
from ..estimators import Term
from ..estimators import compute as C
from ..estimators import interconnect as I
from ..estimators import micro_batch as MB
from ..estimators import serving as SV
from ..estimators.candidate import Evaluation, evaluate, memory_for, plan_training, requested_strategy, usable_bytes
from ..estimators.cost import HOURS_PER_MONTH
from ..estimators.training_layout import AUTO_SHARD
from ..frozen import frozen
from ..inputs.job import Job, resolve
from ..inputs.schema import Requirements, coerce
from ..messages import Phrase, formula, phrase_json, phrase_text
from ..results import BuyLines, ComputeOut, EstimateResult, FormulaTerm, GpuCost, GpuOut, MemoryOut, RuleRef
from ..results_serving import CostPerMillion as CostPerMillionOut
from ..results_training import (
    NO_TRAINING,
    ExposedComm,
    SmallerMicroBatch,
    StepTerms,
    SuggestedChange,
    TrainingLayout,
    TrainingOut,
    TrainingTime,
)
from ..results_training import DpTraffic as DpTrafficOut
from ..results_training import Pins as PinsOut

if TYPE_CHECKING:
    from ..estimators.run import TrainingRun
    from ..estimators.serving.result import ServingResult
    from ..estimators.training_layout import Layout
    from .verdicts import ServingVerdict, Verdict


def term_out(t: Term) -> FormulaTerm:
    return made(FormulaTerm, dict(name=t.name, value=float(t.value), unit=t.unit, formula=str(t.formula),
                       inputs=_jsonable(t.inputs), note=t.note, note_phrases=phrase_json(t.note_phrases),
                       formula_phrases=phrase_json(t.formula_phrases),
                       input_phrases={k: phrase_json(v) for k, v in t.input_phrases.items()}))


def _jsonable(d: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in d.items():
        if (isinstance(v, float) and v != v) or (isinstance(v, float) and v in (float("inf"), float("-inf"))):  # NaN
            v = None
        elif isinstance(v, dict):
            v = _jsonable(v)
        out[k] = v
    return out


def idle_gpus(job: Job, ev: Evaluation | None) -> int:
    """The GPUs of an inference count that hold no model copy: count - copies x GPUs a copy (a copy of tensor
    parallel 2 on 3 GPUs leaves one); a training job's layout uses every GPU it is given."""
    sv = ev.serving if ev is not None and not job.training else None
    return max(0, ev.count - sv.layout.gpus) if ev is not None and sv is not None else 0


def memory_out(job: Job, ev: Evaluation | None, mem: Any, count: int, more: tuple[Phrase, ...] = ()) -> MemoryOut:
    nodes = ev.nodes if ev else 1
    host = ev.host_ram_needed_bytes_per_node if ev else 0.0
    # NVMe offload (ZeRO-Infinity) keeps the state on the drives, the host RAM only staging buffers (MEM-NVME-OFFLOAD):
    # its need is the drives' room per server, not host RAM (review56: 'Host RAM needed per node for offload:
    # 160.6 GB' for an 8B full fine-tune on one RTX 4090 offloading to NVMe)
    nvme = mem.offload_target == "nvme"
    per_node = ev.topology.per_node if ev is not None and ev.topology is not None else 1
    off = (*more, *_off_stack_notes(job), *_held_micro_notes(ev))
    return made(MemoryOut, dict(
        per_gpu_bytes=round(mem.per_gpu),
        total_bytes=round(mem.per_gpu * (count - idle_gpus(job, ev))),  # an idle GPU holds nothing
        breakdown=mem.breakdown(),
        usable_per_gpu_bytes=int(ev.usable) if ev else None,
        capacity_per_gpu_bytes=int(ev.capacity) if ev else None,
        layout=mem.layout,
        layout_phrases=phrase_json(mem.layout_phrases),
        peak_phase=mem.peak_phase,
        phases={k: round(v) for k, v in mem.phases.items()},
        host_ram_bytes_per_node=round(host) if nodes and not nvme else 0,
        nvme_bytes_per_node=round(mem.host_bytes * per_node) if nvme else 0,
        offload_target=mem.offload_target,
        terms=[term_out(t) for t in mem.terms()],
        notes=list(mem.notes) + [phrase_text((p,)) for p in off],
        notes_phrases=[phrase_json((p,)) for p in (*mem.note_phrases, *off)],
    ))


def _off_stack_notes(job: Job) -> tuple[Phrase, ...]:
    """A training pin the named stack cannot run (MEM-PIN-NOT-ON-STACK in a recommendation): set aside by the planner,
    said as a note of the memory estimate (it said nothing: the pin in the question, a layout without it)."""
    from ..estimators import training_job as TJ

    off = TJ.pins_off_stack_phrases(job) if job.training else ()
    return (("", "note.pin_off_stack", {"stack": TJ.stack_spec(job).name, "pins": off}),) if off else ()


def _held_micro_notes(ev: Evaluation | None) -> tuple[Phrase, ...]:
    """A stated micro-batch no layout of the file's settings holds, planned at a smaller one (held_plan.held_smaller;
    MEM-MICRO-BATCH-HELD in an audit or recommendation): said as a note of the memory estimate, whose figures are
    the smaller micro-batch's (training.requested_memory_per_gpu_bytes and requested_layout are the stated one's)."""
    plan, req = (ev.plan, ev.requested_plan) if ev is not None else (None, None)
    if plan is None or req is None or not MB.held(plan, req):
        return ()
    lay = plan.layout
    return (("", "note.micro_batch_held", {"stated": req.layout.micro_batch, "held": lay.micro_batch,
                                           "accum": lay.grad_accum, "tokens": lay.global_batch_tokens}),)


def _as_written_notes(job: Job, count: int) -> tuple[Phrase, ...]:
    """A training memory estimate without ``--gpu``: the settings the file leaves to gpuwise (absent or ``auto``), which
    it chooses with a GPU's layout, taken as off, said (review61: a 70B LoRA read 316.3 GB a GPU here, gradient
    checkpointing off, where recommend's 'does not fit one GPU's memory (162.5 GB needed)' had chosen it on; the
    assumption said only that gpuwise turns it on 'where the layout needs it')."""
    if not job.training or job.shape.diffusion:
        return ()
    w = job.w
    given = w.model_fields_set
    left = [mid for mid, name in (("note.as_written_ckpt_off", "gradient_checkpointing"),
                                  ("note.as_written_zero0", "zero_stage"), ("note.as_written_no_offload", "offload"))
            if name not in given or getattr(w, name) == "auto"]
    if not left:
        return ()
    settings = tuple((", " if i else "", mid, {}) for i, mid in enumerate(left))
    return (("", "note.as_written" if count == 1 else "note.as_written_n", {"count": count, "settings": settings}),)


def _one_gpu_service(job: Job, g: Any, fits: bool, book: Any) -> Any:
    """The assumption on ``--gpus`` of a serving estimate that gives none: one GPU, as docs/formats.md says, listed as
    the training count is (review61: 'Qwen3-235B-A22B on --gpu B300' read 'does not fit: one GPU would hold
    476.3 GB' with no word that the count was a default); where the copy does not fit on one, the fewest of 2, 4, 8,
    ... up to max_gpus that the rules let hold it (476.3 GB of bf16 weights on 274 GB usable a B300: 2)."""
    from ..inputs.job import note
    from . import verdicts

    if fits:
        return note("--gpus", 1, "assume.gpus.one_service", {})
    n = 2
    while n <= max(1, job.c.max_gpus):
        if verdicts.judge(book, job, [evaluate(job, g, n)], chosen_way=True)[0].fits:
            return note("--gpus", 1, "assume.gpus.one_service_short", {"count": n})
        n *= 2
    return note("--gpus", 1, "assume.gpus.one_service_none", {"max_gpus": job.c.max_gpus})


def estimate(requirements: Any, *, gpu: str | None = None, gpus: int | None = None,
             knowledge: str | None = None, fx_rate: float | None = None) -> EstimateResult:
    """``fx_rate``: CNY per USD instead of the knowledge base's dated rate (``--fx-rate``)."""
    from ..inputs.money import to_usd, with_rate

    req: Requirements = coerce(Requirements, requirements)
    kb = with_rate(knowledge_mod.load(knowledge), fx_rate)
    where = str(requirements) if isinstance(requirements, str) else "requirements"

    req, money_notes = to_usd(req, kb)
    from . import rulebook, verdicts

    book = rulebook.load(None, kb.policy_values())
    job = verdicts.plan_within(resolve(req, kb, where), book)  # the built-in rules' memory limit
    job.assumptions[:0] = money_notes
    from ..inputs.schema import MAX_GPUS
    from .subjects import candidate_gpus

    candidate_gpus(job)  # the whole file is checked, as recommend checks it: a misspelt constraints.gpus is an error
    if gpus is not None and not 1 <= gpus <= MAX_GPUS:
        raise UserError(N_("--gpus must be a whole number from 1 to %(max_gpus)s"),
                        values={"max_gpus": f"{MAX_GPUS:,}"})
    if gpu is None and gpus is not None and gpus > 1 and job.training and not job.shape.diffusion:
        _split_needs_a_gpu(job.w, gpus)
    count = gpus or 1
    chosen_count_note = None
    if gpus is None and gpu is not None and job.training and not job.shape.diffusion:
        count, note_id, note_values = _count_for_deadline(job, kb.gpus[kb.gpu(gpu, where="--gpu").id])
        from ..inputs.job import note

        chosen_count_note = note("--gpus", count, note_id, note_values)
    if job.training and not job.shape.diffusion:
        from ..estimators.candidate import training_job

        training_job(job)  # settles the global batch (an assumption when not given)
    assumptions = list(job.assumptions)
    if chosen_count_note is not None:
        assumptions.append(chosen_count_note)
    if gpu is None:  # memory alone: the requested strategy on `count` GPUs
        mem = memory_for(job, _gpu_stub(kb), count, requested_strategy(job))
        flops = _flops(job)
        return made(EstimateResult, dict(memory=memory_out(job, None, mem, count, _as_written_notes(job, count)),
                                         compute=flops, gpu=None,
                              workload=job.question(), assumptions=assumptions,
                              knowledge_dates={k: v.isoformat() for k, v in kb.dates().items()}))
    r = kb.gpu(gpu, where="--gpu")
    if r.note_id:
        from ..inputs.job import note

        assumptions.append(note("--gpu", gpu, r.note_id, r.note_values))
    g = kb.gpus[r.id]
    if not job.training:  # a published checkpoint this GPU's engine has no kernels for: priced in 16 bits, said
        from ..estimators.serving.published import notes_of, on_gpu

        priced = on_gpu(job, g)
        assumptions += notes_of(job, [priced])
        job = priced
    ev = evaluate(job, g, count)
    verdict = verdicts.judge(book, job, [ev], chosen_way=True)[0]
    if gpus is None and not job.training:
        assumptions.append(_one_gpu_service(job, g, verdict.fits, book))
    out = gpu_out(job, ev, verdict).model_copy(update={"rejected_by": [
        made(RuleRef, dict(rule=rid, title=book.rules[rid].title)) for rid in verdict.rejected]})
    return made(EstimateResult, dict(memory=memory_out(job, ev, ev.memory, count), compute=_flops(job), gpu=out,
                          workload=job.question(), assumptions=assumptions,
                          knowledge_dates={k: v.isoformat() for k, v in kb.dates().items()}))


def gpu_out(job: Job, ev: Evaluation, verdict: Verdict) -> GpuOut:
    """The ``gpu`` block of an estimate: one configuration's numbers, its ledger (the way the cost
    step chose) and its timeline; the times and GPU-hours are the timeline's. Whether it fits (as
    asked) is what the rules' memory step set (``verdict``)."""
    k = ev.cost
    terms = [term_out(t) for t in ev.all_terms().values() if isinstance(t, Term)]  # also fills the curve
    b = ev.buy
    lines = made(BuyLines, dict(cards=b.cards.value, server=b.server.value,
                                network=b.network.value if b.network else 0.0, power=b.power.value,
                                hosting=b.hosting.value, licences=b.licences.value,
                                resale=b.resale.value)) if b else None
    cost = made(GpuCost, dict(buy_lines=lines) if k is None else dict(
        rent_usd=k.rent_usd, buy_usd=k.buy_usd, acquisition=k.acquisition, break_even_month=k.break_even_month,
        usd_per_gpu_hour=k.usd_per_gpu_hour, provider=k.provider, instance=k.instance, price_as_of=k.price_as_of,
        buy_lines=lines))
    speed = ev.speed
    wall_hours = speed.wall_hours if speed else None
    training = job.training and wall_hours is not None
    acquisition = k.acquisition if k else None
    tl = ev.timeline_of(acquisition)
    led = ev.ledger(acquisition)
    idle = idle_gpus(job, ev)
    # utilisation over every GPU paid for: an idle one adds its peak and no FLOPs (the ledger pays for it too)
    mfu = speed.mfu * (ev.count - idle) / ev.count if speed and speed.mfu is not None else None
    sv = ev.serving if not job.training else None
    if mfu is not None and sv is not None and speed.decode_tokens_per_s_total is not None:
        # a service: the model FLOPs it does at the load over every GPU's peak, not the training figure
        mfu = C.serving_mfu(job.shape, speed.decode_tokens_per_s_total, sv.prompt_tokens, sv.output_tokens, ev.count,
                            speed.peak_tflops)
    return made(GpuOut, dict(
        id=ev.gpu.id, name=ev.gpu.name, count=ev.count, nodes=ev.nodes, fits=verdict.fits, idle_gpus=idle,
        # GPU-hours of training as published runs count them (the timeline's billed GPU-hours add the
        # start-up and wind-down, which a minutes-long benchmark run does not count)
        gpu_hours=speed.gpu_hours if training and speed else None,
        wall_hours=(tl.wall_hours if tl else wall_hours) if training else None,
        start_up_hours=ev.training.setup_hours if training and ev.training is not None else None,
        decode_tokens_per_s=speed.decode_tokens_per_s if speed else None,
        decode_tokens_per_s_total=speed.decode_tokens_per_s_total if speed else None,
        prefill_tokens_per_s=speed.prefill_tokens_per_s if speed else None,
        cost_usd=led.total if led else (k.cost_usd if k else None), acquisition=acquisition, strategy=ev.label(),
        strategy_phrases=ev.label_phrases(),
        scaling_efficiency=speed.efficiency if speed else None, peak_tflops=speed.peak_tflops if speed else None,
        peak_kind=speed.peak_kind if speed else "", mfu=mfu,
        terms=terms, cost=cost, ledger=led, timeline=tl,
        **plan_out(job, ev, verdict).fields(),
    ))


@frozen
class CostPerMillion:
    """USD per million output tokens at a sustained load, renting and buying: the cost per hour (the
    project's cost over its hours, as the serving cost is counted) / (tokens/s x 3600) x 1e6 -- the
    figure teams compare with a hosted API's price per million tokens."""

    tokens_per_s: float | None
    hours: float
    rent_usd_per_hour: float | None
    buy_usd_per_hour: float | None
    buy_unavailable: tuple[Any, ...] = ()  # why this count cannot be bought, as message ids (empty: it can)

    def per_million(self, usd_per_hour: float | None) -> float | None:
        tps = self.tokens_per_s
        return usd_per_hour / (tps * 3600) * 1e6 if tps is not None and tps > 0 and usd_per_hour is not None else None

    def as_json(self) -> CostPerMillionOut:
        """``gpu.serving.cost_per_million_output_tokens`` of the estimate JSON."""
        words = formula("formula.cost_per_million")
        return CostPerMillionOut.model_construct(
            rent_usd=self.per_million(self.rent_usd_per_hour), buy_usd=self.per_million(self.buy_usd_per_hour),
            rent_usd_per_hour=self.rent_usd_per_hour, buy_usd_per_hour=self.buy_usd_per_hour,
            tokens_per_s=self.tokens_per_s, hours=self.hours, formula=messages.formula_text(words),
            formula_phrases=messages.phrase_json(words),
            buy_unavailable_reason=messages.phrase_text(self.buy_unavailable) if self.buy_unavailable else "",
            buy_unavailable_reason_phrases=messages.phrase_json(self.buy_unavailable))


def cost_per_million_tokens(tokens_per_s: float | None, rent_usd: float | None, buy_usd: float | None,
                            months: float, buy_unavailable: tuple[Any, ...] = ()) -> CostPerMillion:
    """:class:`CostPerMillion` of a service's rent and buy totals over ``months``; ``buy_unavailable``: why the
    count cannot be bought (the market's reason), kept only where buying is not priced."""
    hours = months * HOURS_PER_MONTH
    return CostPerMillion(tokens_per_s, hours, rent_usd / hours if rent_usd is not None and hours > 0 else None,
                          buy_usd / hours if buy_usd is not None and hours > 0 else None,
                          tuple(buy_unavailable) if buy_usd is None else ())


@frozen
class PlanOut:
    """What the estimate says of the plan (contract version 2): whether the job fits as asked (the memory
    rule that passed it says: a serving layout the file pins and no copy keeps is not as asked either);
    a training job's layout; an inference job's serving figures, with the cost per million output
    tokens at the load. :meth:`fields` writes them as the JSON has them."""

    training_job: bool
    fits_as_requested: bool | None = None
    run: TrainingRun | None = None  # the layout planned (None: none, a diffusion model)
    wall_days: float | None = None
    timed: bool = False  # without a layout: whether there is a speed estimate (then the time alone)
    serving: ServingResult | None = None  # the serving model's figures at the load
    cost_per_million: CostPerMillion | None = None
    judged: ServingVerdict | None = None  # the rules' verdicts on its targets and support

    def fields(self) -> dict[str, Any]:
        """The ``GpuOut`` fields of the plan."""
        if self.training_job:
            if self.run is None:
                return {"fits_as_requested": None, "layout": None,
                        "training": TrainingTime(wall_days=self.wall_days) if self.timed else NO_TRAINING}
            return {"fits_as_requested": self.fits_as_requested, "layout": layout_out(self.run.plan.layout),
                    "training": training_out(self.run, self.wall_days)}
        shown = self.judged.on(self.serving) if self.judged is not None and self.serving is not None else self.serving
        serving = SV.serving_json(shown)
        if serving is not None and self.cost_per_million is not None:
            serving = serving.model_copy(update={"cost_per_million_output_tokens": self.cost_per_million.as_json()})
        return {"fits_as_requested": self.fits_as_requested, "layout": None, "training": NO_TRAINING,
                "serving": serving}


def layout_out(lay: Layout) -> TrainingLayout:
    """``gpu.layout`` of the estimate (contract version 2): a planner's layout."""
    return made(TrainingLayout, dict(
        tp=lay.tp, pp=lay.pp, dp=lay.dp, ep=lay.ep, cp=lay.cp, micro_batch=lay.micro_batch, grad_accum=lay.grad_accum,
        global_batch_tokens=lay.global_batch_tokens, zero=lay.zero, checkpointing=lay.checkpointing,
        offload=lay.offload, interleave=lay.interleave, recompute_share=lay.recompute_share,
        shard_group=lay.shard_group, etp=lay.etp or None))


def training_out(run: TrainingRun, wall_days: float | None) -> TrainingOut:
    """``gpu.training`` of the estimate (contract version 2), from the planner's records."""
    plan, lay, s, d = run.plan, run.plan.layout, run.plan.step, run.plan.dp_traffic
    z = d.zero3
    traffic = dict(traffic_s=d.traffic_s, hidden_s=d.hidden_s, exposed_s=d.exposed_s, overlap=d.overlap,
                   contention_s=d.contention_s)
    if z is not None:
        traffic.update(micro_batches=z.micro_batches, gather_s=z.gather_s, reduce_scatter_s=z.reduce_scatter_s,
                       micro_batch_compute_s=z.micro_batch_compute_s, forward_s=z.forward_s,
                       weight_bytes=round(z.weight_bytes), gradient_bytes=round(z.gradient_bytes), dp=z.dp,
                       gpus_per_node=z.gpus_per_node, bytes_per_gpu=round(z.bytes_per_gpu),
                       network_bytes_per_gpu=round(z.network_bytes_per_gpu))
    p = run.pins
    return made(TrainingOut, dict(
        layout_notation=lay.notation(), requested_layout=layout_out(run.requested.layout),
        requested_memory_per_gpu_bytes=round(run.requested.per_gpu_bytes),  # the contract: bytes are integers
        requested_memory_breakdown=run.requested.memory.breakdown(),
        suggested_changes=[made(SuggestedChange, dict(field=c.field, before=c.before, after=c.after))
                           for c in run.suggested_changes],
        step_terms=made(StepTerms, dict(
            compute_s=s.compute, tp_s=s.tp, pp_p2p_s=s.pp, pp_bubble_s=s.bubble, dp_s=s.dp, ep_s=s.ep, cp_s=s.cp,
            optimizer_s=s.optimizer, offload_s=s.offload, step_s=s.total, moe_passes_s=s.moe_passes,
            moe_host_wait_s=s.moe_host)),
        exposed_comm_s=made(ExposedComm, dict(tp_s=s.tp, pp_p2p_s=s.pp, pp_bubble_s=s.bubble, dp_s=s.dp, ep_s=s.ep,
                                              cp_s=s.cp)),
        dp_traffic=made(DpTrafficOut, traffic), exposed_comm_share=plan.exposed_comm_share, goodput=plan.goodput,
        global_batch_tokens=lay.global_batch_tokens, optimizer_steps=plan.steps, mfu_whole_run=run.mfu_whole_run,
        wall_days=wall_days,
        pins=made(PinsOut, dict(tp=p.tp, pp=p.pp, ep=p.ep, cp=p.cp, zero=p.zero, checkpointing=p.checkpointing,
                                offload=p.offload, vpp=p.vpp,
                                dp_shard="auto" if p.dp_shard == AUTO_SHARD else p.dp_shard, etp=p.etp)),
        layouts_tried=plan.tried, smaller_micro_batch=_smaller_out(run)))


def _smaller_out(run: TrainingRun) -> SmallerMicroBatch | None:
    """``gpu.training.smaller_micro_batch`` (v3): the stated micro-batch's measure and the smaller one without it."""
    m = run.smaller_micro
    if m is None:
        return None
    return made(SmallerMicroBatch, dict(
        measure=m.measure, micro_batch=m.micro_batch, step_s=m.step_s, memory_per_gpu_bytes=round(m.need_bytes),
        memory_without_measure_bytes=round(m.plain_need_bytes), alt_micro_batch=m.alt_micro_batch,
        alt_grad_accum=m.alt_grad_accum, alt_step_s=m.alt_step_s, alt_memory_per_gpu_bytes=round(m.alt_need_bytes),
        alt_layout_notation=m.alt_notation, global_batch_tokens=m.global_batch_tokens))


def plan_out(job: Job, ev: Evaluation, verdict: Verdict) -> PlanOut:
    """The estimate's plan for one candidate, from its typed records."""
    if job.training:
        if ev.training is None:  # no layout planned (a diffusion model): the time alone
            return PlanOut(True, wall_days=ev.wall_days, timed=bool(ev.speed))
        return PlanOut(True, verdict.fits_as_requested, ev.training, ev.wall_days)
    k = ev.cost
    why = ev.market.buy_unavailable if ev.market is not None else ()
    per_million = cost_per_million_tokens(ev.serving.throughput_tokens_per_s, k.rent_usd if k else None,
                                          k.buy_usd if k else None, job.c.project_months, why) if ev.serving else None
    return PlanOut(False, verdict.fits_as_requested, serving=ev.serving, cost_per_million=per_million,
                   judged=verdict.serving)


def _count_for_deadline(job: Job, g: Any) -> tuple[int, str, dict[str, Any]]:
    """Training without --gpus: the fewest GPUs (the count ladder, and max_gpus) the rules let
    through on what the estimate knows of a count, its memory and its days; failing that, of the
    counts the rules let through on memory alone, the one that finishes soonest. The rules are asked
    as the count search asks them (:class:`gpuwise.decide.bounds.Judgement`: a house threshold or a
    policy overlay moves the choice); what a count is not known by here (its price, its GPU's
    software)) is unknown to them, so only the memory and deadline rules can settle it. Returns the
    count and why, as a message id of reports/messages.yaml (``assume.gpus.*``) and its values."""
    from . import bounds, rulebook
    from .subjects import count_fact, counts_for

    kb = job.kb
    book = rulebook.load(None, kb.policy_values())
    usable = usable_bytes(job, g)
    deadline = job.deadline_days
    counts = counts_for(job.c.max_gpus)
    if job.c.max_gpus not in counts:
        counts.append(job.c.max_gpus)
    best: tuple[float, int] | None = None
    for n in counts:
        topo = I.topology(g, n, kb.runtime)
        plan, req = plan_training(job, g, n, topo, usable)
        days = (plan.wall_hours + kb.runtime.training.job_setup_hours.value) / 24  # the candidates' wall_days
        known = bounds.Judgement(book, count_fact(job, g, n, plan.per_gpu_bytes, req.per_gpu_bytes))
        if known.verdict() is False:  # the memory rules refuse it
            continue
        if known.verdict({"wall_days": days}) is not False:
            if deadline is not None:
                return n, "assume.gpus.within_deadline", {"deadline": deadline, "days": days, "count": n}
            return n, "assume.gpus.fewest_that_fit", {"days": days, "count": n}
        if best is None or days < best[0]:
            best = (days, n)
    if best is None:
        return counts[-1], "assume.gpus.none_fits", {"max_gpus": job.c.max_gpus, "count": counts[-1]}
    return best[1], "assume.gpus.fastest", {"max_gpus": job.c.max_gpus, "deadline": deadline, "days": best[0],
                                            "count": best[1]}


def _flops(job: Job) -> ComputeOut:
    w = job.w
    if job.training:
        t = C.training_flops(job.shape, job.tokens, w.seq_len, w.method, w.gradient_checkpointing is True)
        return made(ComputeOut, dict(flops=t.value, terms=[term_out(t)]))
    t = C.generation_flops_per_token(job.shape)
    return made(ComputeOut, dict(flops=t.value, terms=[term_out(t)]))


def _split_needs_a_gpu(w: Any, gpus: int) -> None:
    """``--gpus N`` without ``--gpu`` for training: the memory alone splits the job by data parallelism with the
    stated ZeRO stage. Where the file leaves the stage to gpuwise (absent or ``auto``: chosen for a GPU's memory) or
    pins a split the memory alone does not make (``parallelism``), that was one GPU's unsplit memory and N times it
    as ``total_bytes`` (contract63): an input error that says ``--gpu`` is needed instead."""
    par = w.parallelism
    pinned = [f"parallelism.{p}" for p in ("tp", "pp", "cp", "ep", "etp", "vpp")
              if par is not None and (getattr(par, p) or 1) > 1]
    if par is not None and par.dp_shard is not None:
        pinned.append("parallelism.dp_shard")
    if pinned:
        raise UserError(N_("%(n)s GPUs without --gpu size data parallelism alone, and the file pins %(parts)s"),
                        where="--gpus", values={"n": gpus, "parts": ", ".join(pinned)},
                        hint=N_("give --gpu GPU to size that layout"))
    if "zero_stage" not in w.model_fields_set or w.zero_stage == "auto":
        raise UserError(N_("%(n)s GPUs without --gpu: gpuwise chooses how the training state is split over the "
                           "GPUs (ZeRO stage, tensor and pipeline parallel) for a GPU's memory, and no GPU is named"),
                        where="--gpus", values={"n": gpus},
                        hint=N_("give --gpu GPU for the layout gpuwise would choose, or state workload.zero_stage "
                                "for the memory of data parallelism with that stage"))


def _gpu_stub(kb: Any) -> Any:
    """Memory does not depend on the GPU; any catalog entry serves as the carrier."""
    return next(iter(kb.gpus.values()))
