"""Evaluate one candidate (GPU type x count) for a job: the figures of all four steps as typed
records on an :class:`Evaluation` (memory, layout, ``run.Speed``/``run.TrainingRun``,
``serving.result.ServingResult``, ``priced.Cost``/``priced.Market``, the ledgers and timeline), for
the rules to judge (gpuwise/decide/subjects.py builds the facts from them). Nothing here decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from .. import ledger as L
from ..frozen import frozen, record, replaced
from ..inputs.job import Job
from ..ledger import Ledger, Timeline
from ..messages import Phrase, formula, phrase_json, phrase_text, template
from . import GB, Term, usable_share
from . import compute as C
from . import cost as K
from . import held_plan as H
from . import interconnect as I
from . import memory as M
from . import memory_serving as MS
from . import micro_batch as MB
from . import offers as O
from . import planner as P
from . import serving as SV
from .priced import Cost, Market
from .rental import expected_rent_hours as expected_rent_hours  # the names callers import from here
from .rental import (
    instance_gpus,
    market_of,
    named_network,
    named_offers,
    offers_for,
    rent_host_ram_ahead,
    rent_network,
    rented_host_ram,
    shared_host_ram_gb,
)
from .rental import networks_for as networks_for
from .run import Change, Speed, TrainingRun
from .training_job import job_pins, micro_batch_stated, training_job
from .training_job import requested_pins as requested_pins

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..chart_series import CostCurve
    from ..knowledge.schema import Gpu

HOURS_PER_MONTH = K.HOURS_PER_MONTH


@frozen
class Strategy:
    checkpointing: bool
    zero: int
    offload: str = "none"
    tp: int = 1
    pp: int = 1
    ep: int = 1
    cp: int = 1
    shard_group: int = 0  # hybrid sharding: the GPUs of a ZeRO group (0: one group of every data-parallel GPU)
    sac_op: bool = False  # per-op selective checkpointing (P.Layout.sac_op)

    @classmethod
    def of(cls, lay: P.Layout) -> Strategy:
        return cls(lay.checkpointing, lay.zero, lay.offload, lay.tp, lay.pp, lay.ep, lay.cp,
                   lay.shard_group if lay.shard_group < lay.dp else 0, lay.sac_op and not lay.checkpointing)

    def label(self) -> str:
        """The memory strategy in English ("TP4 + gradient checkpointing + ZeRO-1")."""
        return phrase_text(self.label_phrases())

    def label_phrases(self) -> tuple[Phrase, ...]:
        """The memory strategy as message ids and values (reports/messages.yaml layout.*); the
        notation (TP4, ZeRO-1) is written the same in every language."""
        parts: list[tuple[str, dict[str, Any]]] = []
        split = [f"{k}{v}" for k, v in (("TP", self.tp), ("PP", self.pp), ("EP", self.ep), ("CP", self.cp)) if v > 1]
        if split:
            parts.append(("verbatim", {"text": " ".join(split)}))
        if self.checkpointing:
            parts.append(("layout.checkpointing", {}))
        elif self.sac_op:
            parts.append(("layout.checkpointing_op", {}))
        if self.zero:
            parts.append(("verbatim", {"text": f"ZeRO-{self.zero}" + (f" HSDP{self.shard_group}" if self.shard_group
                                                                       else "")}))
        if self.offload != "none":
            parts.append(("layout.offload", {"target": self.offload.upper()}))
        if not parts:
            return (("", "layout.plain", {}),)
        return tuple((" + " if i else "", mid, kw) for i, (mid, kw) in enumerate(parts))

    def changes_from(self, base: Strategy) -> tuple[Phrase, ...]:
        """What this layout changes in ``base`` (the one the question wrote), a part a change
        (reports/messages.yaml change.*), "; " between them."""
        out: list[tuple[str, dict[str, Any]]] = []
        if self.checkpointing and not base.checkpointing:
            out.append(("change.checkpointing", {}))
        if self.zero != base.zero:
            out.append(("change.zero", {"zero": self.zero}))
        if self.offload != base.offload:
            # a layout that gives up an offload the question's layout took (micro_batch.faster_without_offload)
            out.append(("change.offload", {"target": self.offload}) if self.offload != "none"
                       else ("change.no_offload", {}))
        for key, mine, theirs in (("tp", self.tp, base.tp), ("pp", self.pp, base.pp), ("ep", self.ep, base.ep),
                                  ("cp", self.cp, base.cp)):
            if mine != theirs:
                out.append((f"change.{key}", {"n": mine}))
        return tuple(("; " if i else "", mid, kw) for i, (mid, kw) in enumerate(out))

    def diff(self, base: Strategy) -> tuple[Change, ...]:
        """What differs from ``base``, by input field, as written there and as here."""
        names = {"checkpointing": "gradient_checkpointing", "zero": "zero_stage", "offload": "offload",
                 "tp": "parallelism.tp", "pp": "parallelism.pp", "ep": "parallelism.ep", "cp": "parallelism.cp"}
        return tuple(Change(f, getattr(base, k), getattr(self, k)) for k, f in names.items()
                     if getattr(self, k) != getattr(base, k))


def _pins_of(s: Strategy) -> P.Pins:
    return P.Pins(tp=s.tp, pp=s.pp, ep=s.ep, cp=s.cp, zero=s.zero, checkpointing=s.checkpointing, offload=s.offload,
                  sac_op=s.sac_op or None)


def requested_strategy(job: Job) -> Strategy:
    w = job.w
    ckpt = w.gradient_checkpointing is True
    zero = w.zero_stage if isinstance(w.zero_stage, int) else 0
    return Strategy(ckpt, zero, w.offload, sac_op=w.gradient_checkpointing == "selective_op")


@record
class Evaluation:
    """One candidate's estimate, step by step, as typed records (memory, layout, speed, serving,
    cost, market): what the facts, the results and the JSON read."""

    gpu: Gpu
    count: int
    nodes: int
    strategy: Strategy
    requested: Strategy
    memory: M.MemoryEstimate
    requested_memory_per_gpu: float
    capacity: float
    usable: float  # whether the need fits is the memory rules' verdict (gpuwise/decide/verdicts.py)
    terms: dict[str, Term] = field(default_factory=dict)
    # callables adding formula terms (and the serving curve) when a result shows the candidate: most
    # candidates are only ranked
    pending_terms: list[Callable[[], dict[str, Term]]] = field(default_factory=list)
    tp: int = 1  # tensor-parallel degree of the chosen layout
    host_ram_needed_bytes_per_node: float = 0.0  # offloaded state, over the usable share of host RAM
    host_ram_gb: float | None = None  # per node: as proposed, or as the rented server comes (None: unknown)
    host_ram_from: str = ""  # where host_ram_gb came from: proposal | instance | offer | typical ("" unknown)
    speed: Speed | None = None  # the compute step's figures (training and serving)
    training: TrainingRun | None = None  # training: the planner's layout as the job runs it
    serving: SV.ServingResult | None = None  # serving: the chosen way to serve at the load
    cost: Cost | None = None  # the cost step: rent and buy totals, the offer, its term and networks
    market: Market | None = None  # the cost step: whether and how the GPU can be had in the user's market
    topology: I.Topology | None = None
    offer: K.Offer | None = None
    buy: K.BuyCost | None = None
    tag: str = ""  # "proposed:" for the configuration an audit checks
    plan: P.Plan | None = None  # training: the chosen layout (gpuwise/estimators/planner.py)
    requested_plan: P.Plan | None = None  # training: the layout with exactly the user's settings
    # the compute and cost steps, put off until the estimate is judged (``evaluate``)
    rest: Callable[[], None] | None = None
    timeline: Timeline | None = None  # wall-clock hours by part, hours billed (the cost step)
    ledgers: dict[str, Ledger] = field(default_factory=dict)  # "rent" / "buy": the money of each way
    job: Job | None = None  # the job as priced on this GPU where not the question's (serving/published.py)
    # the count search's count below whose rental this one fills the whole steps billed (64 GB200 at CoreWeave are
    # billed 72, so 72 are judged too: gpuwise/decide/count_search.py); None for any other count
    step_of: Evaluation | None = None

    def ledger(self, mode: str | None) -> Ledger | None:
        """The ledger of renting or of buying this configuration (None when that way has no price)."""
        return self.ledgers.get(mode or "")

    def timeline_of(self, mode: str | None) -> Timeline | None:
        """The timeline as ``mode`` pays for it: rented, with the GPUs the offer bills; bought, without them."""
        tl = self.timeline
        return tl if tl is None or mode == "rent" else tl.unbilled()

    @property
    def wall_days(self) -> float | None:
        """A training job's estimated wall-clock days (None for a service, or before the compute step)."""
        return self.speed.wall_days if self.speed is not None else None

    def complete(self) -> Evaluation:
        """Run the compute and cost steps that were put off (see ``evaluate``'s ``defer``)."""
        rest, self.rest = self.rest, None
        if rest is not None:
            rest()
        return self

    def label(self) -> str:
        """The layout in words: the serving layout for inference ("tensor parallel 2"), else the
        memory strategy ("TP4 + gradient checkpointing + ZeRO-1")."""
        return self.serving.layout_label if self.serving else self.strategy.label()

    def label_phrases(self) -> list[Any]:
        """The same layout as message ids and values (JSON-ready), which a report words in its language."""
        return phrase_json(self.serving.layout_label_phrases if self.serving else self.strategy.label_phrases())

    def all_terms(self) -> dict[str, Term]:
        """Every formula term, the ones built only for what a result shows included."""
        while self.pending_terms:
            self.terms.update(self.pending_terms.pop(0)())
        return self.terms

    def cost_chart(self, mode: str | None) -> CostCurve | None:
        """Cumulative cost of renting and of buying over this configuration's own period, from its
        two ledgers (None without a ledger for ``mode``); see :func:`cost.cost_chart`."""
        chosen = self.ledger(mode)
        if chosen is None:
            return None
        return K.cost_chart(self.ledgers.get("rent"), self.ledgers.get("buy"), chosen)

    @property
    def key(self) -> str:
        return f"{self.tag}{self.gpu.id}x{self.count}"


def capacity_bytes(gpu: Gpu) -> float:
    if gpu.memory.smi_mib:
        return gpu.memory.smi_mib * 1024 * 1024
    return gpu.memory.gb * GB


def usable_bytes(job: Job, gpu: Gpu) -> float:
    """What a plan may fill of one GPU: its capacity times the memory rules' limit in force
    (:func:`gpuwise.estimators.usable_share`)."""
    return capacity_bytes(gpu) * usable_share(job, gpu)


def _overhead(job: Job) -> tuple[float, float]:
    rt = job.kb.runtime
    return rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value


def memory_for(job: Job, gpu: Gpu, count: int, strategy: Strategy, tp: int = 1) -> M.MemoryEstimate:
    """Peak memory per GPU. It does not depend on which GPU, so it is memoised per job."""
    key = (count, strategy, tp)
    cached = job.memo.get(key)
    if cached is None:
        cached = job.memo[key] = _memory(job, count, strategy, tp)
    return cached


def _memory(job: Job, count: int, strategy: Strategy, tp: int) -> M.MemoryEstimate:
    w = job.w
    kb = job.kb
    if job.shape.diffusion:
        return MS.weights_only_memory(job.shape.params, w.precision, job.training, overhead=_overhead(job),
                                     method=w.method)
    if not job.training:  # no GPU chosen (estimate without --gpu): the framework on the user's pinned layout
        # (workload.parallelism tp/pp/ep, where it fits in `count`; else `tp` GPUs a copy), its copies filling
        # `count`, and the layout said beside the memory (8 copies of one GPU hold the whole model each)
        par = getattr(w, "parallelism", None)
        ptp, ppp = getattr(par, "tp", None) or tp, getattr(par, "pp", None) or 1
        if ptp * ppp > count:
            ptp, ppp = tp, 1
        pep = getattr(par, "ep", None) or 1
        lay = SV.Layout(tp=ptp, pp=ppp, ep=pep if job.shape.moe and ptp % pep == 0 else 1,
                        replicas=max(1, count // (ptp * ppp)))
        est = SV.memory_of(job, kb.framework(w.framework), lay)
        said = lay.label_phrases()
        return replace(est, layout=(*est.layout_phrases, ("; ", *said[0][1:]), *said[1:]))
    precision = w.precision if w.precision in ("fp32", "fp16", "bf16", "fp8") else "bf16"
    tj = training_job(job)  # the stack's own memory (runtime.yaml training_stacks), as the planner holds it
    setup = M.TrainSetup(
        method=w.method, precision=precision, mixed=w.mixed_precision, optimizer=tj.optimizer,
        batch=w.batch_size, seq=w.seq_len, checkpointing=strategy.checkpointing, attention=w.attention,
        sac_op=strategy.sac_op and not strategy.checkpointing,
        zero=strategy.zero, offload=strategy.offload, dp=count, lora_rank=w.lora_rank, lora_targets=w.lora_targets,
        ce_chunks=tj.ce_chunks, ce_cut=tj.ce_cut, te=tj.stack_te, loss_bytes=tj.stack_loss_bytes,
        fused_layers=tj.stack_fused_layers, grad_bytes=tj.stack_grad_bytes, fp32_weights=tj.stack_fp32_weights,
    )
    return M.training_memory(job.shape, setup, quant=kb.runtime.quantization, overhead=_overhead(job))


def _per_replica_requests(job: Job, count: int, tp: int) -> int:
    replicas = max(1, count // tp)
    return max(1, math.ceil(job.w.concurrent_requests / replicas))


def serving_servers(gpu: Gpu, topo: I.Topology | None) -> tuple[int, str | None] | None:
    """The servers a serving estimate places a copy's GPUs in, where they are smaller than the GPU's usual server
    (a rental sold only as smaller instances, rental.instance_split; a proposal that states more nodes): (GPUs one
    holds, the network between them), so a copy's pipeline hops between them cross that network. None: the usual
    servers on the GPU's default network (estimators/serving/layout.py)."""
    if topo is None or topo.nodes <= 1 or topo.per_node >= I.gpus_per_server(gpu):
        return None
    return topo.per_node, topo.network


def choose_tp(job: Job, gpu: Gpu, count: int, usable: float) -> int:
    """Inference: the tensor-parallel degree of the serving layout chosen for ``count`` GPUs
    (``estimators/serving/`` chooses tensor, pipeline and expert parallel and the replicas)."""
    return SV.choose(job, gpu, count).layout.tp


def evaluate(job: Job, gpu: Gpu, count: int, *, strategy: Strategy | None = None, nodes: int | None = None,
             network: str | None = None, link: str | None = None, host_ram_gb: float | None = None,
             unit_price: float | None = None, hourly_usd: float | None = None, spot: bool = False,
             provider: str | None = None, instance: str | None = None, condition: str = "new",
             acquisition: str | None = None, tag: str = "", defer: bool = False,
             commitment_months: float | None = None, host_ram_ahead_gb: float | None = None) -> Evaluation:
    """Every number of the four steps for ``count`` x ``gpu`` running ``job``. ``defer``: the compute
    and cost steps wait for :meth:`Evaluation.complete` (a search that may never judge this count
    need not pay for them). ``commitment_months``: a rental term the proposal commits to, billed in
    full whatever the job uses of it. ``host_ram_ahead_gb``: GB of host RAM a node of the topology has, known
    before the training layout is chosen and judged by other rules than the candidate's (a plan's owned servers,
    PLAN-OWNED-HOST-RAM-SHORT): the layout keeps off offload it cannot hold, as :func:`plan_training` does for a
    rental's RAM, and the estimate states no RAM of its own."""
    asked = job
    if not job.training:  # a published checkpoint this GPU's engine has no kernels for: priced in 16 bits
        job = SV.on_gpu(job, gpu)
    kb = job.kb
    rt = kb.runtime
    capacity = capacity_bytes(gpu)
    usable = usable_bytes(job, gpu)
    requested = requested_strategy(job)
    tp = 1
    if network is None and acquisition == "rent" and (provider or instance):  # renting from a named cloud
        network = named_network(job, gpu, count, provider, instance, spot=spot)
    if network is None:  # the user's own cluster network (constraints.network), else the catalog's default
        network = job.c.network
    topo = I.topology(gpu, count, rt, nodes=nodes, network=network, link_override=link)
    plan = req_plan = None
    if job.training and not job.shape.diffusion:
        ahead = None
        if host_ram_ahead_gb and not host_ram_gb and not gpu.memory.shared_with_host:
            def ahead() -> float | None:
                return host_ram_ahead_gb
        elif not host_ram_gb and not gpu.memory.shared_with_host and (acquisition or job.c.acquisition) == "rent":
            def ahead() -> float | None:  # the rented server's, only where a layout offloads
                return rent_host_ram_ahead(job, gpu, count, topo.per_node, provider, instance, hourly_usd)
        plan, req_plan = plan_training(job, gpu, count, topo, usable, strategy, host_ram_gb, ahead)
        strategy, requested = Strategy.of(plan.layout), Strategy.of(req_plan.layout)
        mem = plan.memory
        req_per_gpu = req_plan.per_gpu_bytes
        tp = plan.layout.tp
    else:
        strategy = strategy or requested
        if not job.training:  # serving: the layout estimators/serving/ chooses for this count
            serving = SV.choose(job, gpu, count, servers=serving_servers(gpu, topo))
            tp = serving.layout.tp
            mem = SV.memory(job, serving)
        else:
            mem = memory_for(job, gpu, count, strategy, tp)
        req_per_gpu = mem.per_gpu
    ev = Evaluation(gpu=gpu, count=count, nodes=topo.nodes, strategy=strategy, requested=requested, memory=mem,
                    requested_memory_per_gpu=req_per_gpu, capacity=capacity, usable=usable, topology=topo, tag=tag,
                    plan=plan, requested_plan=req_plan)
    ev.tp, ev.host_ram_gb = tp, host_ram_gb
    if job is not asked:  # the rules judge it on the job as priced here (serving/published.py)
        ev.job = job
    ev.host_ram_from = "proposal" if host_ram_gb else ""
    ev.host_ram_needed_bytes_per_node = (mem.host_bytes * topo.per_node / rt.host_ram_fraction_usable.value
                                         if mem.host_bytes else 0.0)
    if not host_ram_gb and ev.host_ram_needed_bytes_per_node and gpu.memory.shared_with_host:
        # no host memory apart from the GPU's (the GB10 of a DGX Spark): the offloaded state goes into the system's
        # one memory beside what the GPU side holds there, so what that leaves is the host RAM the rules judge,
        # bought or rented
        ev.host_ram_gb, ev.host_ram_from = shared_host_ram_gb(gpu, topo.per_node, mem.per_gpu), "shared"

    def rest() -> None:
        _compute_step(job, ev)
        _cost_step(job, ev, unit_price=unit_price, hourly_usd=hourly_usd, spot=spot, provider=provider,
                   instance=instance, condition=condition, acquisition=acquisition,
                   commitment_months=commitment_months)

    ev.rest = rest
    return ev if defer else ev.complete()


def plan_training(job: Job, gpu: Gpu, count: int, topo: I.Topology, usable: float,
                  strategy: Strategy | None = None, host_ram_gb: float | None = None,
                  host_ram_ahead: Callable[[], float | None] | None = None) -> tuple[P.Plan, P.Plan]:
    """(chosen, as requested): the fastest layout with exactly the user's settings, and when that
    does not fit, the fastest with any settings (what gpuwise would change). The planner may offload where that
    trains faster than any layout that fits without it; a server whose host RAM is known -- stated
    (``host_ram_gb`` a node), else a rental's (``host_ram_ahead``: rental.rent_host_ram_ahead, asked only where
    the layout offloads) -- and too small for what such a layout puts there keeps the fastest layout without
    offload where one fits (MEM-HOST-RAM-SHORT would refuse the offloaded one)."""
    tj = training_job(job)
    pins = job_pins(job) if strategy is None else _pins_of(strategy)
    req = P.plan(tj, gpu, count, topo, usable, pins)
    if pins.offload is None and req.fits and req.layout.offload != "none":
        ram = host_ram_gb or (host_ram_ahead() if host_ram_ahead is not None else None)
        need = req.memory.host_bytes * topo.per_node / job.kb.runtime.host_ram_fraction_usable.value
        if ram and need > ram * GB:
            held = P.plan(tj, gpu, count, topo, usable, replace(pins, offload="none"))
            req = held if held.fits else req
    # a stated micro-batch that fits only by an offload left open gives way to a smaller one that trains faster
    # without it (micro_batch.faster_without_offload; MEM-MICRO-BATCH-OFFLOAD says so): the requested plan stays
    stated = micro_batch_stated(job)
    chosen = MB.faster_without_offload(tj, gpu, count, topo, usable, pins, req, stated) or req
    if not req.fits:  # what gives way, in order (held_plan): the micro-batch under the pins, the pins, a stated none
        chosen = H.relaxed(tj, gpu, count, topo, usable, pins, stated, req)
    return chosen, req


def _compute_step(job: Job, ev: Evaluation) -> None:
    rt, w, gpu = job.kb.runtime, job.w, ev.gpu
    mfu = rt.mfu[gpu.architecture].value
    precision = w.precision if w.precision in ("fp32", "fp16", "bf16", "fp8") else "bf16"
    peak = C.peak_for(gpu, precision if job.training else ("bf16" if w.precision in ("int8", "int4") else precision))
    topo = ev.topology
    assert topo is not None
    if job.training and ev.plan is not None:
        _training_numbers(job, ev, peak)
        return
    if job.training:
        flops = C.training_flops(job.shape, job.tokens, w.seq_len, w.method, ev.strategy.checkpointing)
        ev.terms["flops"] = flops
        eff = 1.0
        tokens_step = w.batch_size * w.seq_len
        step_s = flops.value / job.tokens * tokens_step / (peak.tflops * 1e12 * mfu) if job.tokens else 0.0
        if ev.count > 1:
            comm = I.allreduce_seconds(ev.memory.comm_bytes, topo, rt.link_efficiency.value)
            # bucketed reduction: all but the last PyTorch DDP bucket hides behind the backward (data_parallel._hidden)
            overlap = 1 - min(1.0, rt.grad_bucket_bytes.value / ev.memory.comm_bytes) if ev.memory.comm_bytes else 0.0
            eff_t = I.scaling_efficiency(step_s, comm, overlap)
            ev.terms["allreduce"] = comm
            ev.terms["scaling_efficiency"] = eff_t
            eff = eff_t.value
        slowdown = 1.0
        if ev.strategy.offload != "none" and step_s > 0:
            pcie = I.host_link_gb_s(gpu, topo.per_node, rt)
            if C.updates_on_gpu(training_job(job).stack_offload_on_gpu, ev.strategy.offload):
                # the stack's state to the GPU for the update and back (the planner's step prices the same):
                # the optimizer's moments as the memory estimate holds them, a GPU's share as host Adam's below
                off = C.offload_state_seconds(ev.memory.optimizer.value / max(1, ev.count), pcie,
                                              offload=ev.strategy.offload, zero=ev.strategy.zero)
            else:
                off = C.offload_step_seconds(
                    ev.memory.trainable_params / max(1, ev.count), ev.strategy.offload, pcie_gb_s=pcie,
                    host_gb_s_per_gpu=rt.host_memory_gb_s.value / topo.per_node,
                    nvme_gb_s_per_gpu=rt.nvme_gb_s.value / topo.per_node)
            ev.terms["offload"] = off
            slowdown = (step_s + off.value) / step_s
        hours, wall = C.training_time(flops.value, ev.count, peak.tflops, mfu, eff, slowdown)
        ev.terms["gpu_hours"] = hours
        ev.terms["wall_hours"] = wall
        ev.speed = Speed(mfu, peak.tflops, peak.kind, efficiency=eff, gpu_hours=hours.value, wall_hours=wall.value,
                         slowdown=slowdown)
        return
    if job.shape.diffusion:
        ev.speed = Speed(mfu, peak.tflops, peak.kind)
        return
    _serving_numbers(job, ev, Speed(mfu, peak.tflops, peak.kind))


def _serving_numbers(job: Job, ev: Evaluation, base: Speed) -> None:
    """Inference: the serving model's figures for the chosen layout (estimators/serving/).
    ``decode_tokens_per_s`` stays one sequence's decode speed at the load's batch;
    ``decode_tokens_per_s_total`` is the sustained output rate of the whole system at that load
    (prefill included), the figure a throughput target is compared with."""
    s = SV.choose(job, ev.gpu, ev.count, servers=serving_servers(ev.gpu, ev.topology))
    ev.pending_terms.append(lambda: SV.terms(job, s))
    result = ev.serving = SV.result(job, s)

    def with_curve() -> dict[str, Term]:  # over the result, not ev: a closure over ev would be a cycle
        result.curve = SV.curve(job, s)
        return {}

    ev.pending_terms.append(with_curve)
    lay = s.layout
    per_copy = min(max(s.load.concurrency / lay.replicas, 1.0), max(s.replica.max_seqs, 1))
    prompt = result.prompt_tokens
    fits = s.replica.fits
    ev.tp = lay.tp
    ev.speed = replaced(
        base,
        mfu=base.mfu if fits else None,  # a copy that does not fit reaches no utilisation
        # one sequence's speed at the load: one over the time per output token (prefill chunks that
        # join a decode step slow every sequence in it), the figure the reports quote
        # (none when the copy does not fit: it runs no step, so no speed is shown)
        decode_tokens_per_s=(1 / (s.load.tpot if s.load.tpot > 0 else s.load.decode_step) if fits else None),
        decode_tokens_per_s_total=s.load.throughput,
        prefill_tokens_per_s=prompt / s.single.ttft if fits and s.single.ttft > 0 else None,
        batch_per_replica=per_copy)


def _training_numbers(job: Job, ev: Evaluation, peak: C.Peak) -> None:
    """The planner's figures for the chosen layout, as terms and as numbers for results and rules."""
    plan, req = ev.plan, ev.requested_plan
    assert plan is not None and req is not None
    tj = training_job(job)
    lay, step = plan.layout, plan.step
    key = ("training-flops", lay.checkpointing)  # the job's FLOPs: the same Term whatever the GPU and count
    flops = job.memo.get(key)
    if flops is None:
        flops = job.memo[key] = C.training_flops(job.shape, job.tokens, job.w.seq_len, job.w.method,
                                                 lay.checkpointing)
    ev.terms["flops"] = flops
    ev.pending_terms.append(lambda: P.terms(plan, tj))
    model_flops = flops.value * tj.flops_per_token(False) / tj.flops_per_token(lay.checkpointing)
    achieved = model_flops / (plan.gpu_hours * 3600 * peak.tflops * 1e12) if plan.gpu_hours > 0 else 0.0
    setup = job.kb.runtime.training.job_setup_hours.value
    # GPU-hours of training, as published runs count them; the wall clock (and the bill) includes
    # the start-up and wind-down
    wall, gpu_hours = plan.wall_hours + setup, plan.gpu_hours
    ev.terms["job_setup"] = Term("job_setup_hours", setup, "h", formula("formula.job_setup"),
                                 {"hours": setup, "gpus": ev.count, "gpu_hours": setup * ev.count})
    # the utilisation the step time gives: a step's model FLOPs over its GPU-seconds at the dense peak (an offloaded
    # step's host part apart: the GPUs wait then), so the MFU shown agrees with the GPU-hours beside it
    busy, step_flops = step.total - step.offload, model_flops / plan.steps if plan.steps > 0 else 0.0
    used = Term("step_mfu", step_flops / (busy * lay.gpus * peak.tflops * 1e12) if busy > 0 else 0.0, "",
                formula("formula.step_mfu_offload" if step.offload else "formula.step_mfu"),
                {"step_flops": step_flops, "step_s": step.total, **({"offload_s": step.offload} if step.offload
                                                                      else {}),
                 "gpus": lay.gpus, "peak_flops": peak.tflops * 1e12})
    ev.terms["step_mfu"] = used
    ev.speed = Speed(used.value, peak.tflops, peak.kind, efficiency=plan.scaling_efficiency,
                     gpu_hours=gpu_hours, wall_hours=wall,
                     slowdown=step.total / (step.total - step.offload) if step.offload and step.total > step.offload
                     else 1.0)
    # the chosen layout is the requested one where that fits (plan_training): then nothing to change
    pins = job_pins(job)
    assert ev.topology is not None
    smaller = MB.smaller_micro_batch(tj, ev.gpu, ev.count, ev.topology, ev.usable, pins, req,
                                     micro_batch_stated(job)) if (
        req is plan or plan.layout.micro_batch < req.layout.micro_batch) else None
    # a stated micro-batch no layout of the pins holds gave way to a smaller one (held_plan.held_smaller): a change too
    held = (Change("batch_size", req.layout.micro_batch, lay.micro_batch),) if MB.held(plan, req) else ()
    ev.training = TrainingRun(plan, req, mfu_whole_run=achieved, setup_hours=setup, pins=pins,
                              suggested_changes=ev.strategy.diff(ev.requested) + held, smaller_micro=smaller)


def _run_parts(job: Job, ev: Evaluation) -> list[tuple[str, float]]:
    """The job's wall-clock hours by part, before any spot capacity or commitment: for training the
    planner's steps split by cause, the goodput loss and the set-up; for serving the project."""
    if not job.training:
        return [(_part("service"), job.c.project_months * HOURS_PER_MONTH)]
    plan, speed = ev.plan, ev.speed
    assert speed is not None and speed.wall_hours is not None
    if plan is None:
        return [(_part("training"), speed.wall_hours)]
    st, k = plan.step, plan.steps / 3600
    steps_h = st.total * k
    comm, bubble, offload = (st.tp + st.pp + st.dp + st.ep + st.cp) * k, st.bubble * k, st.offload * k
    # the goodput's two factors apart: what every run loses (training.whole_run_efficiency) and the failures
    whole = steps_h * (1 / job.kb.runtime.training.whole_run_efficiency.value - 1)
    return [(_part("compute"), steps_h - comm - bubble - offload), (_part("communication"), comm),
            (_part("bubble"), bubble), (_part("offload"), offload), (_part("whole_run"), whole),
            (_part("failures"), plan.wall_hours - steps_h - whole),
            (_part("setup"), ev.training.setup_hours if ev.training else 0.0)]


def _part(key: str) -> str:
    """A part of the wall-clock time, named as results carry it (reports/messages.yaml part.*)."""
    return template(f"part.{key}")


def _timeline(job: Job, ev: Evaluation, *, spot: bool, commitment_hours: float | None,
              billed_gpus: int | None = None) -> tuple[Timeline, float, float]:
    """The configuration's timeline and the set-up hours in it. Spot capacity adds the work redone
    after reclaims and the time waiting for capacity (clouds.yaml spot); a commitment bills its
    whole term; ``billed_gpus`` are the GPUs the rental priced bills (its offer's, whole racks or
    instances). Returns the timeline, the set-up hours and the hours the job itself runs."""
    parts = _run_parts(job, ev)
    setup = dict(parts).get(_part("setup"), 0.0)
    run = sum(h for _, h in parts) - setup
    billed = None
    if spot and job.training:
        sm = job.kb.clouds.spot
        redo = run * sm.restart_overhead
        parts += [(_part("spot_redo"), redo), (_part("spot_wait"), (run + redo) * (1 / sm.availability - 1))]
        billed = setup + run + redo
    if commitment_hours is not None:
        billed = max(billed if billed is not None else run + setup, commitment_hours)
    return L.timeline(parts, ev.count, billed, billed_gpus), setup, run


def _server_units(kb: Any, gpu_id: str, count: int) -> tuple[bool, bool, int]:
    """How ``count`` GPUs fall into the whole servers the GPU is sold in, for the rules to judge
    (``Market.buy_in_servers``, ``buy_size_listed``, ``buy_past_whole_servers``): whether it is sold
    only in servers, whether the count is a size sold, and the GPUs left over past whole servers of
    the largest size (0 when not sold in servers)."""
    sizes = K.server_sizes(kb.prices, gpu_id)
    return bool(sizes), count in sizes, count % max(sizes) if sizes else 0


def _note_other_provider(job: Job, provider: str, ev: Evaluation, offer: K.Offer) -> None:
    """A rental from a named provider that lists no offer of the GPU, with no price of its own
    (``acquisition.hourly_usd``), is priced at the offer the others sell it at: said once, with that offer,
    so the page does not price another provider's rental unsaid (review49: AutoDL's H100 at RunPod's)."""
    if any(a.field == "acquisition.provider" and a.message_id == "assume.provider.no_offer" for a in job.assumptions):
        return
    from ..inputs.job import note

    job.assumptions.append(note("acquisition.provider", provider, "assume.provider.no_offer",
                                {"provider": provider, "gpu": ev.gpu.name, "offer": offer.provider,
                                 "usd": offer.per_gpu_hour}))


def _cost_step(job: Job, ev: Evaluation, *, unit_price: float | None, hourly_usd: float | None, spot: bool,
               provider: str | None, instance: str | None, condition: str, acquisition: str | None,
               commitment_months: float | None = None) -> None:
    """Rent and buy figures in USD (CNY prices converted at tco.yaml usd_cny), the units a buyer
    can get, the network each way of acquiring has, spot wall time, and the China-market facts.
    The rent-or-buy choice itself is left to the rules; ``acquisition`` is a provisional one."""
    kb, c = job.kb, job.c
    months = c.project_months
    rate = kb.tco_value("usd_cny").value
    market = market_of(job)
    wall_hours = ev.speed.wall_hours if ev.speed is not None and job.training else None
    busy = wall_hours if wall_hours is not None else months * HOURS_PER_MONTH
    offers = offers_for(job, ev.gpu, ev.count)
    named = named_offers(job, ev.gpu, ev.count, provider) if provider else []
    offers = named or offers
    if instance:
        offers = [o for o in offers if o.instance == instance] or offers
    topo = ev.topology
    if topo is not None and topo.nodes > 1 and topo.network is not None:
        # several servers were estimated on one network: the rental priced is one on that network
        offers = [o for o in offers if rent_network(kb, ev.gpu, o) == topo.network] or offers
    if topo is not None and topo.nodes == 1 and not instance:
        # one server estimated: an instance smaller than it (2 V100s as two p3.2xlarge) is two machines, not that
        # server; an offer whose one rental holds the node is priced where there is one
        offers = [o for o in offers if not o.instance or instance_gpus(kb, o.instance) >= topo.per_node] or offers
    # a term the proposal commits to is billed in full, so the offer's term is chosen for those hours, not the
    # job's (review56: 16 H100 committed 36 months for a 209.6-day run were priced at the 1-month reservation)
    sold_hours = max(busy, commitment_months * HOURS_PER_MONTH) if commitment_months and not spot else busy
    if spot and offers:
        # spot capacity is billed at its spot price, not on a reserved term: the offer as listed, its date the spot
        # price's (review58: a spot rental was dated and listed at its 1-month reservation's $5.19 a GPU-hour), and
        # chosen on that spot price (spotfix62: 8 H200 on AWS took the p5e.48xlarge for its cheaper 1-month block)
        offer, sold = O.as_spot(offers, kb.runtime.networks, kb.clouds.spot.fallback_discount), None
    else:
        offer, sold = O.as_sold(offers, ev.count, sold_hours, kb.runtime.networks) if offers else (None, None)
    if hourly_usd is not None:
        # the proposal's own price; the server it rents is the named provider's listed offer at that price
        # (within 5%: RunPod's Secure and Community Cloud differ in price and in the RAM they state)
        listed = next((o for o in offers if provider and o.provider == provider and o.instance == instance
                       and abs(o.per_gpu_hour - hourly_usd) <= 0.05 * hourly_usd), None)
        # a listed instance is rented whole: 2 A100s of a p4de.24xlarge pay for its 8 (review48)
        shape = next((i.gpus for i in kb.clouds.instances if i.id == instance), None) if instance else None
        paid = max(topo.nodes if topo is not None else 1, -(-ev.count // shape)) * shape if shape else ev.count
        if listed is not None and listed.instance is None:
            paid = max(paid, listed.gpus)  # an offer rented only as a whole node (min_gpus) bills the node
        # on spot capacity the proposal's price is its spot price, billed as quoted (product63: $4.00 a GPU-hour
        # of spot H200 was billed at the assumed discount off it, $1.80)
        offer = K.Offer(provider or "proposal", instance, paid, hourly_usd * paid,
                        hourly_usd * paid if spot else None, "proposal", template("source.proposal"), "U",
                        network=offer.network if offer and offer.provider == provider else None,
                        host_ram_gb_per_gpu=listed.host_ram_gb_per_gpu if listed else None)
        sold = None
    elif provider and not named and offer is not None:
        _note_other_provider(job, provider, ev, offer)
    if sold is not None and sold.min_hours > busy and not commitment_months and not spot:
        commitment_months = sold.min_hours / HOURS_PER_MONTH  # the provider bills the whole term
    commit_h = commitment_months * HOURS_PER_MONTH if commitment_months else None
    # the GPU-hours the rent line bills are its offer's GPUs' (144 for 100 GB200 in racks of 72), beside the job's
    tl, setup, run = _timeline(job, ev, spot=spot, commitment_hours=commit_h,
                               billed_gpus=offer.gpus if offer is not None else None)
    ev.timeline = tl
    rent_hours = tl.billed_hours
    ev.offer = offer
    # a training run longer than the term it commits to is billed for its own hours, past the term: the bill
    # covers the job, not the committed months (review50: 84.9 days on a 1-month term read 'for the committed 1 month')
    if commitment_months and not (job.training and commit_h is not None and tl.billed_hours > commit_h * 1.0005):
        rent_period = L.period_months("commitment", commitment_months)
    elif job.training:
        rent_period = L.period("job", tl.billed_hours)
    else:
        rent_period = L.period_months("project", months)
    fees = None
    cloud = getattr(job, "cloud", None)
    # fees run while the rental is billed: the job's billed hours, the committed term, or the
    # project's months when serving (not the whole project for a job of hours)
    if offer and cloud is not None:
        fee_term = K.cloud_fees(kb.clouds, offer.provider, egress_tb=cloud.egress_tb_per_month,
                                cross_region_tb=cloud.cross_region_tb_per_month, storage_kind=cloud.storage.kind,
                                storage_tb=cloud.storage.tb, months=rent_period.months, usd_cny=rate)
        fees = K.fee_lines(fee_term)
        if fee_term.inputs.get("fees_unknown") and not any(
                a.field == "cloud.fees" and a.value == offer.provider for a in job.assumptions):
            from ..inputs.job import note

            # a rate given with no provider named (priced as 'proposal'): which provider's fees is not known
            # (review51: 'no fee table for provider proposal ... add the provider to a clouds.yaml overlay')
            job.assumptions.append(note("cloud.fees", offer.provider, "assume.fees.no_provider", {})
                                   if offer.provider == "proposal" else
                                   note("cloud.fees", offer.provider, "assume.fees.unknown_provider",
                                        {"provider": offer.provider}))
        if fee_term.inputs.get("storage_unknown") and not any(
                a.field == "cloud.storage" and a.value == offer.provider for a in job.assumptions):
            from ..inputs.job import note

            job.assumptions.append(note("cloud.storage", offer.provider, "assume.storage.unlisted",
                                        {"provider": offer.provider}))
    rent_led = K.rent_ledger(offer, kb.clouds, run_hours=run, setup_hours=setup, period=rent_period,
                             spot=spot, fees=fees) if offer else None
    rent = None
    if rent_led is not None:
        first = rent_led.lines[0]
        # the rent and start-up lines over the billed hours: on spot capacity those hold the run's restart
        # overhead already, so the formula is the rate times them (review50: 'x 739.94 h x (1 + 0.08)' = $24,166
        # beside a Rent of $22,376 = $30.24 x 739.94 h)
        said = (formula("formula.rent_spot_billed") if spot else
                tuple((sep, mid, dict(v)) for sep, mid, v in first.formula_phrases) or first.formula)
        rent = Term("rent_usd", rent_led.amount("rent", "setup"), "USD", said,
                    {**first.inputs, "hours": tl.billed_hours, "period": rent_period.kind})
    plan, why_not = K.buy_plan(kb.prices, ev.gpu, ev.count, kb.tco, condition=condition, market=market,
                               usd_cny=rate, unit_price=unit_price, nodes=ev.nodes, hosting=c.hosting)
    # GPUs bought for a run are owned, hosted and resold no sooner than the run ends: a run longer than the project
    # keeps them the run's months (review58: 16 H100 bought for a 61-day run were powered 1,463 h but hosted and
    # resold after the proposal's 1 month, $58,964 net beside a 2-month rental of $62,962)
    owned_months = max(months, busy / HOURS_PER_MONTH)
    buy = K.buy_cost(ev.gpu, ev.count, months=owned_months, busy_hours=busy, electricity=c.electricity_usd_per_kwh,
                     tco=kb.tco, prices=kb.prices, networks=kb.runtime.networks, hosting=c.hosting,
                     usd_cny=rate, plan=plan) if plan else None
    ev.buy = buy
    buy_led = K.buy_ledger(buy, L.period_months("project", owned_months)) if buy else None
    ev.ledgers = {k: v for k, v in (("rent", rent_led), ("buy", buy_led)) if v is not None}
    if rent:
        ev.terms["rent"] = rent
    if buy:
        ev.terms["buy"] = buy.total
        if buy.network is not None and buy.network.value > 0:
            ev.terms["buy_network"] = buy.network
    be = None
    if offer and buy:
        be = K.break_even_month(offer.usd_per_hour * HOURS_PER_MONTH, buy, buy.cards.value, kb.tco)
    mode = acquisition or c.acquisition
    rent_v = rent_led.total if rent_led else None
    buy_v = buy_led.total if buy_led else None
    if mode == "rent":
        chosen, cost = ("rent", rent_v)
    elif mode == "buy":
        chosen, cost = ("buy", buy_v)
    else:
        options = [(v, m) for v, m in ((rent_v, "rent"), (buy_v, "buy")) if v is not None]
        cost, chosen = min(options) if options else (None, None)
    # networks: the offer's stated one for renting, the priced fabric for buying
    rent_net = rent_network(kb, ev.gpu, offer) if offer else None
    rent_net_assumed = bool(offer) and offer.network is None  # type: ignore[union-attr]
    buy_net = buy.fabric if buy else None
    network, assumed = (buy_net, False) if chosen == "buy" else (rent_net, rent_net_assumed)
    spot_wall = K.spot_wall_hours(kb.clouds, wall_hours) if wall_hours is not None else None
    if spot_wall is not None and spot:
        ev.terms["spot_wall_hours"] = spot_wall
    mk = K.market_entry(kb.prices, ev.gpu.id)
    if chosen == "rent" and ev.host_ram_gb is None and ev.host_ram_needed_bytes_per_node and ev.topology is not None:
        # offloaded state on a rented server: the RAM that comes with it decides (runtime.yaml: the named
        # instance's own; else the offer's, as its provider states it; else a typical figure per GPU of its
        # segment), and where the figure came from is said (rental.rented_host_ram)
        ev.host_ram_gb, ev.host_ram_from = rented_host_ram(kb, ev.gpu, ev.topology.per_node, offer, ev.memory.per_gpu,
                                                             ev.topology.gpus)
    ev.cost = Cost(
        rent_usd=rent_v, buy_usd=buy_v, cost_usd=cost, acquisition=chosen, break_even_month=be, rent_hours=rent_hours,
        # on spot capacity the rate billed is the spot one (review58: a spot proposal's Cost line read 'at $5.19 per
        # GPU-hour', the 1-month reservation's, beside a rent of $30.24 an hour for 8 GPUs, $3.78 each)
        usd_per_gpu_hour=(K.spot_rate(offer, kb.clouds) / offer.gpus if spot else offer.per_gpu_hour)
        if offer else None,
        # the rental's place only with a rental: a bought plan carries no provider
        provider=offer.provider if offer and chosen == "rent" else None,
        instance=offer.instance if offer and chosen == "rent" else None,
        rent_provider=offer.provider if offer else None, rent_instance=offer.instance if offer else None,
        rent_currency=offer.currency if offer else None,
        rent_native_per_hour=offer.native_per_hour if offer else None, price_as_of=offer.as_of if offer else None,
        rent_term="spot" if spot else sold.term if sold else "on-demand",
        rent_reserved_only=bool(sold and sold.reserved_only),
        rent_min_term_hours=sold.min_hours if sold else 0.0, rent_term_why=sold.why_phrases if sold else (),
        buy_price_as_of=plan.as_of if plan and plan.as_of != "proposal" else None,
        buy_price_source=plan.source if plan else None,
        network=network, network_assumed=assumed, rent_network=rent_net, rent_network_assumed=rent_net_assumed,
        rent_network_stated=offer.network_stated if offer else "", buy_network=buy_net,
        spot=spot, spot_wall_hours=spot_wall.value if spot_wall else None,
        spot_rent_usd=K.rent_cost(offer, rent_hours, kb.clouds, spot=True).value if offer else None,
        currency=c.currency, usd_cny=rate, rent_gpus_paid=offer.gpus if offer else 0)
    office = kb.tco.hosting.get("office") if kb.tco.hosting else None
    circuit, office_max = (office.circuit_kw, office.max_kw) if office else (None, None)
    in_servers, size_listed, past_whole = _server_units(kb, ev.gpu.id, ev.count)
    ev.market = Market(
        market=market, listed=mk is not None, sold_in_china=mk.sold_in_china if mk else None,
        china_part=bool(mk.china_part) if mk else False, china_rule=mk.rule if mk else "",
        buy_in_servers=in_servers, buy_size_listed=size_listed, buy_past_whole_servers=past_whole,
        buy_unavailable=tuple(why_not or ()),
        buy_condition=plan.condition if plan else None, buy_condition_asked=condition,
        buy_sold_as=plan.sold_as if plan else None, buy_units=plan.units if plan else None,
        buy_unit_gpus=plan.unit_gpus if plan else None, buy_nodes=plan.nodes if plan else None,
        hosting=buy.hosting_name if buy else None, hosting_assumed=buy.hosting_assumed if buy else False,
        it_kw=buy.it_kw if buy else None, office_circuit_kw=circuit, office_max_kw=office_max)
