"""The subjects the rules judge, as facts of the vocabulary in :mod:`gpuwise.decide.facts`: one
candidate per way of doing the job (GPU type x count x rent or buy), the job, the software
environment per GPU type, the dated prices a result relies on.

Everything here is a number or a name taken from an estimate or the knowledge base, with units
converted once (GB, days, USD); nothing here decides. "Unknown" is -1 for numbers (see facts.py).
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..estimators import GB
from ..estimators import cost as K
from ..estimators import memory as M
from ..estimators import micro_batch as MB
from ..estimators import training_job as TJ
from ..estimators.candidate import Evaluation, capacity_bytes
from ..estimators.interconnect import GPUS_PER_NODE, count_ladder
from ..estimators.priced import Cost, Market
from ..estimators.rental import instance_gpus, rented_host_ram
from ..estimators.serving import facts as SVR
from ..estimators.serving.layout import pinned_gpus, pins_not_kept
from ..estimators.serving.support import backend_majors, backend_refusal, majors_text, support_figures
from ..frozen import frozen
from ..inputs.job import Job, note, one_gpu_pure
from ..knowledge.compat import environment_facts, feature_runs, flash_min_cc, stack_of
from ..messages import Phrase, batch_size_change, phrase_json, phrase_text, template
from ..prices.markets import jurisdiction_fields
from ..results import Assumption

if TYPE_CHECKING:
    from ..estimators.serving.result import ServingResult

NODE = GPUS_PER_NODE
"""GPUs in one server (the interconnect model's node size: one definition)."""
TODAY = dt.date.today


def _n(v: Any, default: float = -1.0) -> float:
    if v is None:
        return default
    v = float(v)
    return v if math.isfinite(v) else default


def candidate_gpus(job: Job) -> tuple[list[str], list[Assumption]]:
    """The GPU types a consultation judges: the user's short list (names resolved, each once,
    with a note where a name was matched loosely), else the whole catalog."""
    kb = job.kb
    notes: list[Assumption] = []
    if not job.c.gpus:
        return list(kb.gpus), notes
    ids: list[str] = []
    for i, name in enumerate(job.c.gpus):
        r = kb.gpu(name, where=f"{job.where}: constraints.gpus[{i}]")
        if r.note:
            notes.append(note(f"constraints.gpus[{i}]", name, r.note_id, r.note_values))
        if r.id not in ids:
            ids.append(r.id)
    return ids, notes


def counts_for(max_gpus: int) -> list[int]:
    """The GPU counts a consultation judges (:func:`gpuwise.estimators.interconnect.count_ladder`)."""
    return count_ladder(max_gpus)


def modes_for(job: Job, ev: Evaluation) -> list[str]:
    """The acquisition modes to judge for an estimate: the ones the user allows that have a price,
    or, when none has, the one the user asked for (so the rules can say why it cannot be costed)."""
    wanted = job.c.acquisition
    allowed = ["rent", "buy"] if wanted == "either" else [wanted]
    priced = [m for m in allowed if ev.cost is not None and ev.cost.usd(m) is not None]
    if priced:
        return priced
    return [allowed[0]]


def _job_part(job: Job) -> dict[str, Any]:
    """What every candidate fact of a job holds alike (built once per job)."""
    got = job.memo.get("fact:job")
    if got is None:
        w, c = job.w, job.c
        deadline = job.deadline_days
        got = job.memo["fact:job"] = {
            "task": w.task, "method": w.method, "training": job.training, "diffusion": job.shape.diffusion,
            "precision": w.precision,
            "wants_bf16": w.precision == "bf16", "wants_fp8": w.precision == "fp8", "wants_fp4": w.precision == "fp4",
            "wants_flash": w.attention == "flash",
            "wants_mxfp8": job.training and getattr(w, "fp8_recipe", None) == "mxfp8",
            "deadline_days": _n(deadline), "has_deadline": deadline is not None and job.training,
            "target_tps": w.target_tokens_per_s, "has_target": w.target_tokens_per_s > 0,
            "framework": w.framework,
            "disaggregated": bool(getattr(w, "disaggregated", False)),
            "rocm_settings": " and ".join(k for k in ("rocm_aiter", "rocm_fp4_asm_gemm") if getattr(w, k, None)),
            "fp8_params_held": TJ.fp8_params_held(job),
            "max_ttft_ms": _n(w.max_ttft_ms), "has_ttft_target": w.max_ttft_ms is not None,
            "max_tpot_ms": _n(w.max_tpot_ms), "has_tpot_target": w.max_tpot_ms is not None,
            **SVR.targets(w),
            "budget_usd": _n(c.budget_usd), "has_budget": c.budget_usd is not None,
            "project_months": c.project_months,
            # the count a rental billed in whole steps may grow to (FEE-RENT-STEP-CHOSEN / -CAPPED, review62)
            "max_gpus": c.max_gpus,
        }
    return got


def _gpu_part(job: Job, g: Any) -> dict[str, Any]:
    """What every candidate fact of one GPU type holds alike (built once per job and GPU)."""
    key = ("fact:gpu", g.id)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = {**gpu_fields(job.kb, g), **_stack_device(job, g)}
    return got


_MAKERS = {"cuda": "NVIDIA", "rocm": "AMD Instinct or Radeon", "gaudi": "Intel Gaudi", "cann": "Huawei Ascend"}
"""The accelerators each software stack drives, by their makers' names, as CPT-TRAINING-STACK-DEVICE says them
('runs only on Intel Gaudi accelerators', where the stack's own name read 'on GPUs of the Intel Gaudi software')."""


def _stack_device(job: Job, g: Any) -> dict[str, Any]:
    """Whether the named training stack runs on this GPU's software stack (runtime.yaml training_stacks devices:
    optimum-habana only on Intel Gaudi), for CPT-TRAINING-STACK-DEVICE."""
    spec = TJ.stack_spec(job) if job.training else None
    devices = spec.devices if spec is not None else None
    return {"training_stack_name": spec.name if spec is not None else "none",
            "training_stack_devices": ", ".join(_MAKERS[d] for d in devices) if devices else "any",
            "training_stack_runs_here": devices is None or stack_of(g) in devices, **_kernel_device(job, g)}


def _cc_span(floor: float | None, ceiling: float | None) -> str:
    """The NVIDIA compute capabilities a kernel is built for, as the refusal names them."""
    if floor and ceiling:
        return (f" (compute capability {floor:.1f})" if floor == ceiling
                else f" (compute capability {floor:.1f} to {ceiling:.1f})")
    if floor:
        return f" (compute capability {floor:.1f} or later)"
    return f" (compute capability {ceiling:.1f} or earlier)" if ceiling else ""


def _kernel_device(job: Job, g: Any) -> dict[str, Any]:
    """Whether the training attention backend the job states has kernels for this GPU (runtime.yaml
    training.attention_kernels devices, min_cc and max_cc: cuDNN's on NVIDIA from 8.0, FlashAttention-2's there and
    on AMD Instinct, FlashAttention-3's on Hopper, 9.0, alone), for CPT-ATTENTION-KERNEL-DEVICE: cudnn on an MI300X and
    fa2 on a V100 were priced as if they ran (hostile round 49)."""
    kernel = getattr(job.w, "attention_kernel", None) if job.training else None
    table = getattr(getattr(getattr(job.kb, "runtime", None), "training", None), "attention_kernels", None)
    devices = tuple(table.devices.get(kernel, ())) if kernel and table is not None else ()
    floor = table.min_cc.get(kernel) if kernel and table is not None else None
    ceiling = table.max_cc.get(kernel) if kernel and table is not None else None
    if not kernel or not (devices or floor or ceiling):
        return {"attention_kernel": kernel or "none", "attention_kernel_devices": "any",
                "attention_kernel_runs_here": True}
    here = stack_of(g)
    cc = float(g.compute_capability) if g.compute_capability else 0.0
    runs = ((not devices or here in devices) and not (here == "cuda" and floor and cc < floor)
            and not (here == "cuda" and ceiling and cc > ceiling))
    makers = [_MAKERS[d] + (_cc_span(floor, ceiling) if d == "cuda" else "") for d in devices]
    return {"attention_kernel": kernel, "attention_kernel_devices": ", ".join(makers) or "any",
            "attention_kernel_runs_here": runs}


def gpu_fields(kb: Any, g: Any) -> dict[str, Any]:
    """A GPU type's fields of a candidate fact (the same for every job)."""
    return {
        "gpu": g.id, "gpu_name": g.name, "vendor": g.vendor, "segment": g.segment, "form_factor": g.form_factor,
        "architecture": g.architecture, "cc": float(g.compute_capability) if g.compute_capability else 0.0,
        "cuda_device": g.vendor == "nvidia",
        "tensor_cores": g.tensor_cores, "bf16_hw": bool(g.peaks.bf16), "fp8_hw": bool(g.peaks.fp8),
        "fp4_hw": bool(getattr(g.peaks, "fp4", None)), "ecc": bool(g.memory.ecc), "launch_year": g.launch_year,
        "tdp_w": g.power.tdp_w, "flash_min_cc": flash_min_cc(kb.software),
        "mxfp8_hw": feature_runs(kb.software, "mxfp8", g.compute_capability),
        "max_systems": g.link.max_systems or -1,
    }


def joined_systems(nodes: int, per_node: int, copy_gpus: int | None) -> int:
    """The systems one job joins over the network: a training run (no copy) every one of its ``nodes``; a
    serving copy of ``copy_gpus`` the servers it spans (copies that each fit in one server join one)."""
    if copy_gpus is None:
        return nodes
    return max(1, math.ceil(copy_gpus / max(per_node, 1)))


def probe_fact(job: Job, gpu: Any, count: int | None = None) -> dict[str, Any]:
    """What a candidate fact of ``gpu`` holds before any count of it is estimated (the GPU, the
    job, the memory of one GPU; the count when given): what the count search asks the rules about
    (:mod:`gpuwise.decide.bounds`). Every field here has the value ``candidate_fact`` gives it."""
    fact: dict[str, Any] = {"t": "candidate", "tag": "", **_gpu_part(job, gpu), **_job_part(job),
                            "capacity_gb": capacity_bytes(gpu) / GB}
    if count is not None:
        fact.update(count=count, multi_gpu=count > 1)
    return fact


def count_fact(job: Job, gpu: Any, count: int, need: float, need_requested: float) -> dict[str, Any]:
    """What ``gpuwise estimate`` knows of ``count`` x ``gpu`` when it picks a count: the job, the
    GPU's memory, the least need per GPU (bytes; as requested too), each with the value
    ``candidate_fact`` gives it; the GPU's other fields and everything after memory are unknown
    to the rules asked about it (:mod:`gpuwise.decide.bounds`), the days added by the caller."""
    fact = {"t": "candidate", "tag": "", **_job_part(job), "capacity_gb": capacity_bytes(gpu) / GB,
            "count": count, "multi_gpu": count > 1, "need_gb": need / GB, "need_requested_gb": need_requested / GB,
            "pin_on_stack": True}
    return _off_stack(job, fact)


def _off_stack(job: Job, fact: dict[str, Any]) -> dict[str, Any]:
    """A pin the training stack cannot run (MEM-PIN-NOT-ON-STACK) is set aside on every count: no layout is as
    asked, so there is no need as requested, and the memory step's pass rule says it does not fit as requested
    (MEM-FITS-PIN-OFF-STACK)."""
    if job.training and TJ.pins_off_stack(job):
        fact.pop("need_requested_gb", None)
        fact["pin_on_stack"] = False
    return fact


def _rent_span(ev: Evaluation, project_months: float) -> dict[str, Any]:
    """What the rental is priced over, in words (rent_span, its parts beside it): a run's billed hours, a committed
    term or the project's months, as its ledger's period is."""
    led = ev.ledger("rent")
    kind = led.period.kind if led is not None else "project"
    values = {"hours": led.period.hours} if led is not None and kind == "job" else {
        "months": led.period.months if led is not None else project_months}
    parts: tuple[Phrase, ...] = (("", f"span.rent.{kind}", values),)
    return {"rent_span": phrase_text(parts), "rent_span_phrases": phrase_json(parts)}


def _network_span(ev: Evaluation) -> dict[str, Any]:
    """Which systems the network joins, in words, and how to keep a job off it (review60b: 100 GB200 read '25 nodes
    over ethernet-25 ... keep the job on one node', where a node is a 4-GPU tray and the trays of one NVL72 rack talk
    over its NVLink switches: the traffic on the network is between racks). A rack-scale part (its switched NVLink
    domain larger than one server: topology.fabric_gpus) counts racks of gpus.yaml link.domain_gpus, as the layout
    search and traffic_between_nodes do; any other part counts servers."""
    topo = ev.topology
    domain = int(ev.gpu.link.domain_gpus)
    if topo is not None and topo.fabric_gpus > topo.per_node:
        racks = -(-int(ev.count) // domain)
        span: tuple[Phrase, ...] = (("", "network.span.racks", {"racks": racks, "domain": domain,
                                                               "nodes": topo.nodes, "per_node": topo.per_node}),)
        keep: tuple[Phrase, ...] = (("", "network.keep.rack", {"domain": domain}),)
        between: tuple[Phrase, ...] = (("", "network.between.racks", {}),)
    else:
        span = (("", "network.span.nodes", {"nodes": topo.nodes if topo is not None else 1}),)
        keep, between = (("", "network.keep.node", {}),), (("", "network.between.nodes", {}),)
    return {"network_span": phrase_text(span), "network_span_phrases": phrase_json(span),
            "network_keep": phrase_text(keep), "network_keep_phrases": phrase_json(keep),
            "network_between": phrase_text(between), "network_between_phrases": phrase_json(between)}


def _step_filled(ev: Evaluation, mode: str) -> dict[str, Any]:
    """A rented count the search judged because the offer bills it whole for the count below (``ev.step_of``:
    72 GB200 for 64, CoreWeave's racks of 72): that count, and both runs' days and rent in words, which
    TCO-RENT-STEP-FILLED says in the cost step (what it chose of the two, and why: the ranking's score)."""
    below = ev.step_of
    rent = ev.cost.rent_usd if ev.cost is not None else None
    low = below.cost.rent_usd if below is not None and below.cost is not None else None
    if mode != "rent" or below is None or rent is None or low is None or ev.wall_days is None \
            or below.wall_days is None:
        return {"step_filled_from": -1, "step_filled_said": "", "step_filled_said_phrases": []}
    parts: tuple[Phrase, ...] = (("", "step.filled", {
        "count": ev.count, "tokens": _step_tokens(ev), "days": ev.wall_days, "usd": rent, "below": below.count,
        "below_tokens": _step_tokens(below), "below_days": below.wall_days, "below_usd": low}),)
    return {"step_filled_from": below.count, "step_filled_said": phrase_text(parts),
            "step_filled_said_phrases": phrase_json(parts)}


def _step_tokens(ev: Evaluation) -> int:
    """A training run's tokens an optimizer step, as its layout fills the global batch to its replicas (0 unknown)."""
    plan = ev.training.plan if ev.training is not None else None
    return int(plan.layout.global_batch_tokens) if plan is not None else 0


def _rent_rate_said(ev: Evaluation, spot_discount: float) -> dict[str, Any]:
    """What the rental's hourly rate is where it is not a quoted price (rent_rate_said, its parts beside it): a spot
    rate the provider does not publish, its on-demand price less clouds.yaml spot.fallback_discount (review60: the
    Cost line said '$1.21 per GPU-hour' as if quoted; FEE-SPOT-PRICE-ASSUMED said otherwise beside it)."""
    led = ev.ledger("rent")
    lines = led.lines if led is not None else []
    assumed = any(ln.kind == "rent" and ln.inputs.get("spot_price_known") is False for ln in lines)
    parts: tuple[Phrase, ...] = ((" ", "rate.spot_assumed", {"discount": spot_discount}),) if assumed else ()
    return {"rent_rate_said": phrase_text(parts), "rent_rate_said_phrases": phrase_json(parts)}


def _wall_clock(ev: Evaluation) -> dict[str, Any]:
    """The wall-clock days the report's tables show (the timeline's, as results.wall_days has them) and what they
    hold, in words (wall_clock_with, its parts beside it): the start-up, and on spot capacity the work redone after
    reclaims and the waits for capacity (spotfix62: a spot rental's Compute line read '28.5 days wall-clock', the run
    on demand, beside its table's 38.5 days)."""
    tl = ev.timeline
    days = tl.wall_days if tl is not None and ev.wall_days is not None else ev.wall_days
    spot = tl is not None and any(p.name == template("part.spot_wait") for p in tl.parts)
    parts: tuple[Phrase, ...] = (("", "wall.with.spot" if spot else "wall.with.setup", {}),)
    return {"wall_clock_days": _n(days), "wall_clock_with": phrase_text(parts),
            "wall_clock_with_phrases": phrase_json(parts)}


def _change_phrases(changes: Any, run: Any) -> tuple[Phrase, ...]:
    """What gpuwise changes in the file's settings, each as ``field before -> after`` (the input's notation, the
    same in every language), and a micro-batch planned smaller in the file's words with its accumulation steps
    (messages.batch_size_change), "; " between them."""
    out: list[Phrase] = []
    for c in changes:
        sep = "; " if out else ""
        if c.field == "batch_size" and run is not None:
            out.append(batch_size_change(c.before, c.after, run.plan.layout.grad_accum, sep))
        else:
            out.append((sep, "verbatim", {"text": f"{c.field} {c.before} -> {c.after}"}))
    return tuple(out)


def candidate_fact(job: Job, ev: Evaluation, mode: str) -> dict[str, Any]:
    """One candidate as the rules see it: flat, units converted once (GB, days, USD)."""
    c, k = job.c, ev.cost
    topo = ev.topology
    assert topo is not None
    rent, buy = (k.rent_usd, k.buy_usd) if k else (None, None)
    cost = rent if mode == "rent" else buy
    run, sv, speed = ev.training, ev.serving, ev.speed
    changes = _change_phrases(run.suggested_changes if run else (), run)
    if not changes and job.training and ev.strategy != ev.requested and hasattr(ev.strategy, "diff"):
        changes = _change_phrases(ev.strategy.diff(ev.requested), run)
    tp = int(ev.tp or 1)
    efficiency = _n(speed.efficiency if speed else None, 1.0)
    notation = run.plan.layout.notation() if run else None
    # a serving copy that does not fit is judged in the layout it tried (its own label says "does not fit")
    label = (sv.layout.label_phrases() if sv is not None and not sv.fits else None)
    ram_gb, ram_from = host_ram_of(job, ev, mode)
    fact: dict[str, Any] = {
        "t": "candidate", "stage": "memory", "tag": "proposed" if ev.tag else "",
        **_gpu_part(job, ev.gpu), **_job_part(job),
        "count": ev.count, "nodes": topo.nodes, "per_node": topo.per_node, "multi_gpu": ev.count > 1,
        "multi_node": topo.nodes > 1,
        "joined_systems": joined_systems(topo.nodes, topo.per_node, sv.layout.gpus_per_copy if sv else None),
        "traffic_between_gpus": ev.count > 1 and (sv is None or sv.layout.gpus_per_copy > 1),
        # an NVL72 rack's trays talk over its NVLink switches: only GPUs past the fast domain (topo.fabric, the
        # estimate's locality) send over the network (product63: 64 GB200 in one rack were warned of ethernet-25)
        "traffic_between_nodes": topo.nodes > 1 and (ev.count > topo.fabric if sv is None
                                                     else sv.layout.gpus_per_copy > topo.fabric),
        "need_gb": ev.memory.per_gpu / GB, "need_requested_gb": ev.requested_memory_per_gpu / GB,
        "capacity_gb": ev.capacity / GB, "usable_gb": ev.usable / GB,
        "strategy": notation or (phrase_text(label) if label else ev.label()),
        "strategy_phrases": [["", "verbatim", {"text": notation}]] if notation else (
            phrase_json(label) if label else ev.label_phrases()),
        "strategy_changed": ev.strategy != ev.requested, "strategy_changes": phrase_text(changes) or "none",
        "strategy_changes_phrases": phrase_json(changes) if changes else [["", "verbatim", {"text": "none"}]],
        "pin_kept": True, "pin_not_kept": "none", "pin_not_kept_phrases": [], "pin_gpus": 1, "pin_on_stack": True,
        "offload": getattr(ev.strategy, "offload", "none"), "zero": int(getattr(ev.strategy, "zero", 0)),
        "tp": tp, "tp_domain": topo.tp_domain,
        "host_ram_needed_gb": _n(ev.host_ram_needed_bytes_per_node, 0.0) / GB,
        "host_ram_gb": _n(ram_gb),
        "rent_host_ram_gb": _n(ram_gb if mode == "rent" else host_ram_of(job, ev, "rent")[0]),
        "typical_host_ram_gb": _n(K.bought_host_ram_gb(job.kb.tco, job.kb.runtime, ev.gpu, topo.per_node,
                                                       _bought_host_key(ev, mode))),
        "offloaded_state_gb": ev.memory.host_bytes * topo.per_node / GB,
        **_host_ram_from(ev, ram_gb, ram_from),
        "wall_days": _n(ev.wall_days), "gpu_hours": _n(speed.gpu_hours if speed else None),
        **_wall_clock(ev),
        "efficiency": efficiency, "efficiency_pct": 100 * efficiency,
        "link_kind": topo.intra_kind, "link": topo.description, "link_phrases": [list(p) for p in topo.phrases],
        "p2p": topo.p2p,
        "intra_gb_s": topo.intra_gb_s if math.isfinite(topo.intra_gb_s) else -1.0,
        "network": topo.network or "none",
        "network_gb_s": topo.network_gb_s if math.isfinite(topo.network_gb_s) else -1.0,
        "network_gb_s_per_gpu": topo.network_gb_s_per_gpu if math.isfinite(topo.network_gb_s) else -1.0,
        **_network_span(ev),
        "decode_tps": _n(speed.decode_tokens_per_s if speed else None),
        "aggregate_tps": _n(speed.decode_tokens_per_s_total if speed else None),
        "exposed_comm_share": _n(run.plan.exposed_comm_share if run else None, 0.0),
        "moe_host_wait_share": run.plan.step.moe_host / run.plan.step.total if run and run.plan.step.total else 0.0,
        "layer_host_wait_share": (run.plan.step.dense_host / run.plan.step.total
                                  if run and run.plan.step.total else 0.0),
        **_micro_batch_part(run.smaller_micro if run else None), **_held_micro_part(run),
        **_serving_part(job, ev.gpu, sv, ev.count),
        "copy_nodes": -(-int(sv.layout.gpus_per_copy) // max(1, topo.per_node)) if sv is not None else topo.nodes,
        **SVR.rate_fact(sv),
        # an audit judges the proposal the way it is made: its mode is the one wanted
        "acquisition": mode, "acquisition_wanted": mode if ev.tag else c.acquisition,
        "cost_usd": _n(cost), "price_known": cost is not None, "cash_out_usd": _n(_cash_out(ev, mode, cost)),
        "buy_cash_out_usd": _n(_cash_out(ev, "buy", buy)),
        "rent_usd": _n(rent), "buy_usd": _n(buy), "rent_known": rent is not None, "buy_known": buy is not None,
        # the months a purchase is owned and resold after: the project's, or the run's where it is longer
        "owned_months": buy_led.period.months if (buy_led := ev.ledger("buy")) is not None else c.project_months,
        **_rent_span(ev, c.project_months),
        **_rent_rate_said(ev, job.kb.clouds.spot.fallback_discount),
        **_rent_fees(ev, rent),
        "break_even_month": _n(k.break_even_month if k else None),
        "usd_per_gpu_hour": _n(k.usd_per_gpu_hour if k else None) if mode == "rent" else -1.0,
        "gpus_paid": k.rent_gpus_paid if k and k.rent_gpus_paid and mode == "rent" else -1,
        "rental_step_gpus": ev.offer.step_gpus if mode == "rent" and ev.offer is not None else 1,
        **_step_filled(ev, mode),
        # the rental's provider whichever way the cost step took (the rules may rent where it bought)
        "provider": ((k.rent_provider if k else None) or "none") if mode == "rent" else "none",
        "rent_instance_gpus": (instance_gpus(job.kb, ev.offer.instance) or -1)
        if mode == "rent" and ev.offer is not None and ev.offer.instance else -1,
    }
    # a pin this count cannot hold (a serving layout's, or a training setting the planner could keep in no
    # layout of the count): no layout of it is as asked, so there is no need as requested
    if sv is not None:
        lost, span = pins_not_kept(job, sv.layout), pinned_gpus
    elif ev.requested_plan is not None:
        lost, span = (TJ.pins_not_kept(TJ.job_pins(job), ev.requested_plan.layout, job.shape.layers),
                      TJ.job_pinned_span)
    else:
        lost = ()
    if lost:
        del fact["need_requested_gb"]
        fact.update(pin_kept=False, pin_not_kept=phrase_text(lost), pin_not_kept_phrases=phrase_json(lost),
                    pin_gpus=span(job))
    _off_stack(job, fact)
    fact.update(_buy_ram_said(fact))
    fact.update(_counted(fact))
    fact.update(_tight_room(job, run))
    if k is not None and ev.market is not None:
        fact.update(_market_part(job, ev, k, ev.market, mode))
    return fact


def counted(name: str, n: float, one: str, many: str, values: dict[str, Any] | None = None) -> dict[str, Any]:
    """A count and its noun (or verb) worded for one or for several, as a field and its parts (``name``,
    ``name_phrases``): a rule's template cannot choose its plural (review62: 'the GPUs wait' of one GPU)."""
    parts: tuple[Phrase, ...] = (("", one if round(n) == 1 else many, {"n": n, **(values or {})}),)
    return {name: phrase_text(parts), f"{name}_phrases": phrase_json(parts)}


def _counted(fact: dict[str, Any]) -> dict[str, Any]:
    """The candidate's counts its rules say beside a noun: its GPUs waiting on the host (CMP-*-HOST-WAIT), a model
    copy's GPUs (CMP-NO-ROOM-TO-SERVE) and the sequences its KV cache holds (SRV-LOAD-BEYOND-KV)."""
    return {**counted("gpus_wait", fact["count"], "wait.gpu", "wait.gpus"),
            **counted("tp_gpus", fact["tp"], "n.gpu", "n.gpus"),
            **counted("kv_sequences", max(0.0, fact.get("max_concurrent_sequences", -1.0)), "n.sequence",
                      "n.sequences")}


def _tight_room(job: Job, run: Any) -> dict[str, Any]:
    """How room is made on a candidate that fits with little to spare (MEM-TIGHT's fix), by what it runs: its fix
    said 'Lower the micro-batch and use gradient accumulation' of every candidate, a layout at one sequence a
    micro-batch (8 B300 pretraining a 70B model) and a service, which has none, included (review64)."""
    mb = int(run.plan.layout.micro_batch) if run is not None else 0
    key = "tight.serving" if not job.training else "tight.micro_batch" if mb > 1 else "tight.one_sequence"
    parts: tuple[Phrase, ...] = (("", key, {"micro_batch": mb}),)
    return {"tight_room": phrase_text(parts), "tight_room_phrases": phrase_json(parts)}


def _buy_ram_said(fact: dict[str, Any]) -> dict[str, Any]:
    """What a purchase's price leaves out of the host RAM its CPU offload needs, beside the price wherever it is said
    (buy_ram_said: the Answer, the Cost line of recommend and audit), under the conditions MEM-HOST-RAM-BUY warns
    of: bought, no RAM stated, the typical host the price buys holding less than a node needs (review60b: 'Buy 2 x RTX
    5090: ... $2,603 net of resale' where the 96 GB desktop priced cannot hold the 295 GB the offload needs). The
    RAM stays the buyer's to choose (issue 22, docs/formats.md): gpuwise prices no host beyond the typical one."""
    need, typical = fact["host_ram_needed_gb"], fact["typical_host_ram_gb"]
    short = (fact["offload"] == "cpu" and fact["acquisition"] == "buy" and fact["host_ram_gb"] < 0 and typical > 0
             and need > typical)
    parts: tuple[Phrase, ...] = ((" ", "buy.ram_not_priced", {"typical_gb": typical, "short_gb": need - typical}),
                                 ) if short else ()
    return {"buy_ram_said": phrase_text(parts), "buy_ram_said_phrases": phrase_json(parts)}


def _micro_batch_part(alt: Any) -> dict[str, Any]:
    """A stated micro-batch whose layout offloads or recomputes unasked, and the largest smaller one of the same
    tokens a step that fits without (estimators/micro_batch.py): what MEM-MICRO-BATCH-* compare and say."""
    if alt is None:
        return {"micro_batch": 0, "micro_batch_measure": "none", "micro_batch_step_s": -1.0,
                "micro_batch_need_gb": -1.0, "micro_batch_plain_need_gb": -1.0, "micro_batch_alt": 0,
                "micro_batch_alt_accum": 0, "micro_batch_alt_step_s": -1.0, "micro_batch_alt_need_gb": -1.0,
                "micro_batch_alt_layout": "none", "step_tokens": 0}
    return {"micro_batch": alt.micro_batch, "micro_batch_measure": alt.measure, "micro_batch_step_s": alt.step_s,
            "micro_batch_need_gb": alt.need_bytes / GB, "micro_batch_plain_need_gb": alt.plain_need_bytes / GB,
            "micro_batch_alt": alt.alt_micro_batch, "micro_batch_alt_accum": alt.alt_grad_accum,
            "micro_batch_alt_step_s": alt.alt_step_s, "micro_batch_alt_need_gb": alt.alt_need_bytes / GB,
            "micro_batch_alt_layout": alt.alt_notation, "step_tokens": alt.global_batch_tokens}


def _held_micro_part(run: Any) -> dict[str, int]:
    """A stated micro-batch no layout of the file's settings holds, and the smaller one planned in its place
    (held_plan.held_smaller): what MEM-MICRO-BATCH-HELD says."""
    if run is None or not MB.held(run.plan, run.requested):
        return {"micro_batch_stated": 0, "micro_batch_held": 0, "micro_batch_held_accum": 0,
                "micro_batch_held_tokens": 0}
    lay = run.plan.layout
    return {"micro_batch_stated": run.requested.layout.micro_batch, "micro_batch_held": lay.micro_batch,
            "micro_batch_held_accum": lay.grad_accum, "micro_batch_held_tokens": int(lay.global_batch_tokens)}


def _rent_fees(ev: Evaluation, rent: float | None) -> dict[str, float]:
    """A rental's transfer and storage fees (its ledger's fee lines: a proposal's cloud section) and its bill
    without them, the GPUs': what a purchase, whose ledger prices no storage or transit, is compared with
    (TCO-RENT-DEARER-PROPOSED-FEES; review56: a rental with $289,494 of egress and storage against a purchase
    with none). -1: not rented or unpriced."""
    led = ev.ledger("rent")
    fees = led.amount("fee") if led is not None and rent is not None else 0.0
    return {"rent_fees_usd": fees, "rent_gpus_usd": rent - fees if rent is not None else -1.0}


def _cash_out(ev: Evaluation, mode: str, cost: float | None) -> float | None:
    """What ``mode`` pays before any resale comes back: the cost, plus the resale its ledger nets out of a
    purchase (the ledger's cash out, on the same total the cost is)."""
    led = ev.ledger(mode)
    return None if cost is None else cost - (led.amount("resale") if led is not None else 0.0)


def _market_part(job: Job, ev: Evaluation, k: Cost, m: Market, mode: str) -> dict[str, Any]:
    """A priced candidate's market fields: whether and how it can be had in the user's market, the
    network (the rental's own, or the priced fabric: per way of acquiring), its term and hosting."""
    topo = ev.topology
    return {
        "market": m.market, "currency": k.currency, "sold_in_china": m.sold_in_china is not False,
        "sold_in_china_known": m.listed, "china_part": bool(m.china_part), "china_rule": m.china_rule,
        "buy_in_servers": m.buy_in_servers, "buy_size_listed": m.buy_size_listed,
        "buy_past_whole_servers": m.buy_past_whole_servers,
        "buy_unavailable_reason": phrase_text(m.buy_unavailable) if m.buy_unavailable else "none",
        "buy_unavailable_reason_phrases": phrase_json(m.buy_unavailable) if m.buy_unavailable else [],
        "buy_condition": m.buy_condition or "none", "buy_condition_asked": m.buy_condition_asked,
        "buy_sold_as": m.buy_sold_as or "none", "buy_units": m.buy_units or 0,
        "hosting": (m.hosting or "none") if mode == "buy" else "none",
        "hosting_assumed": bool(m.hosting_assumed) and mode == "buy",
        "it_kw": m.it_kw if m.it_kw is not None else -1.0,
        "office_circuit_kw": m.office_circuit_kw if m.office_circuit_kw is not None else -1.0,
        "office_max_kw": m.office_max_kw if m.office_max_kw is not None else 1e9,  # none stated: no limit
        "network_assumed": bool(k.rent_network_assumed) if mode == "rent" else False,
        "network_name": (topo.network if topo else None) or "none",
        "spot": bool(k.spot), "spot_wall_days": k.spot_wall_days if k.spot_wall_days is not None else -1.0,
        "rent_provider": k.rent_provider or "none",
        "rent_in_china": k.rent_provider in {c.id for c in job.kb.clouds.providers if c.market == "china"},
        **_jurisdiction(job, ev.gpu.id),
        "rent_reserved_only": k.rent_reserved_only, "rent_term": k.rent_term,
        "rent_min_term_days": k.rent_min_term_hours / 24, "rent_term_why": phrase_text(k.rent_term_why),
        "rent_term_why_phrases": phrase_json(k.rent_term_why),
    }


def _jurisdiction(job: Job, gpu_id: str) -> dict[str, Any]:
    """The GPU's export and import terms for the user's market (built once per job and GPU)."""
    key = ("fact:jurisdiction", gpu_id)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = jurisdiction_fields(job.kb, gpu_id, job.c)
    return got


_NO_SERVING = {"attention_backend": "none", "attention_backend_devices": "any", "attention_backend_runs_here": True,
               "attention_backend_reason": "none", "attention_backend_reason_phrases": [],
               "copy_gpus": 1, "serving_copies": 1, "idle_gpus": 0, "framework_spans_servers": True,
               "framework_vendor_listed": True, "framework_min_cc": 0.0, "precision_listed": True,
               "precision_min_cc": 0.0, "precision_units": True,
               "framework_reason": "none", "framework_reason_phrases": [], "max_concurrent_sequences": -1.0,
               "load_sequences": -1.0,
               "ttft_ms": -1.0, "tpot_ms": -1.0, "serving_weights_gb": -1.0, "kv_free_gb": -1.0, "sequence_gb": -1.0,
               "cross_node_tp_ms": -1.0, "cross_node_allreduce_us": -1.0, "kv_pool_tokens": 0, "kv_pool_gb": -1.0,
               "kv_pool_room_gb": -1.0}
"""A training job's serving fields: nothing for the serving rules to refuse."""


_VENDOR_NAMES = {"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel", "huawei": "Huawei"}


def _backend_device(fw: Any, w: Any, gpu: Any, mla: bool) -> dict[str, Any]:
    """Whether the attention backend the job states runs on this GPU's maker and generation, for this model's kind
    of attention (serving.yaml attention_backend_vendors: aiter on AMD only, FlashInfer or TensorRT-LLM's kernels on
    NVIDIA only, TensorRT-LLM's MLA kernels for an MLA model only), and why not, for CMP-ATTENTION-BACKEND-GPU."""
    name = getattr(w, "attention_backend", None)
    limits = fw.attention_backend_vendors
    vendors = limits.only_on.get(name) if limits is not None and name is not None else None
    majors = backend_majors(limits, name)
    devices = ", ".join(_VENDOR_NAMES[v] for v in vendors) if vendors else "any"
    refused = backend_refusal(limits, name, gpu, mla)
    why = (refused[1],) if refused is not None else ()
    return {"attention_backend": name or "none",
            "attention_backend_devices": f"{devices} ({majors_text(majors)})" if majors else devices,
            "attention_backend_runs_here": refused is None,
            "attention_backend_reason": phrase_text(why) if why else "none",
            "attention_backend_reason_phrases": phrase_json(why)}


def _serving_part(job: Job, gpu: Any, sv: ServingResult | None, count: int) -> dict[str, Any]:
    """A candidate's serving fields: what the framework's entry (knowledge/serving.yaml) says of this
    GPU and the weights' precision (:func:`gpuwise.estimators.serving.support.support_figures`), a
    copy's GPUs and whether the framework may spread one over servers -- raw figures the rules
    compare -- and the latency at the load."""
    if sv is None:
        return dict(_NO_SERVING)
    fw = job.kb.framework(sv.framework)
    sup = sv.support
    fig = support_figures(fw, gpu, job.w.precision)
    return {**_backend_device(fw, job.w, gpu, bool(job.shape.mla)), "copy_gpus": int(sv.layout.gpus_per_copy),
            "serving_copies": int(sv.layout.replicas),
            "idle_gpus": max(0, int(count) - int(sv.layout.gpus)),
            "framework_spans_servers": bool(fw.multi_node),
            "framework_vendor_listed": fig.framework_vendor_listed, "framework_min_cc": fig.framework_min_cc,
            "precision_listed": fig.precision_listed, "precision_min_cc": fig.precision_min_cc,
            "precision_units": fig.precision_units,
            "framework_reason": str(sup.detail or sup.reason or "none"),
            "framework_reason_phrases": phrase_json(sup.detail_phrases),
            "max_concurrent_sequences": _n(sv.max_concurrent_sequences),
            "load_sequences": _n(sv.load_concurrency),
            "ttft_ms": _n(sv.achieved_ttft_ms), "tpot_ms": _n(sv.achieved_tpot_ms),
            "serving_weights_gb": sv.weights_per_gpu_bytes / GB, "kv_free_gb": sv.kv_free_per_gpu_bytes / GB,
            "sequence_gb": sv.sequence_per_gpu_bytes / GB,
            "cross_node_tp_ms": sv.cross_node_tp_s * 1e3, "cross_node_allreduce_us": sv.cross_node_allreduce_s * 1e6,
            "kv_pool_tokens": sv.kv_pool_tokens, "kv_pool_gb": sv.kv_pool_per_gpu_bytes / GB if sv.kv_pool_tokens
            else -1.0, "kv_pool_room_gb": sv.kv_pool_room_per_gpu_bytes / GB if sv.kv_pool_tokens else -1.0}


def _bought_host_key(ev: Evaluation, mode: str) -> str:
    """The tco.yaml host share a bought candidate's price buys ('' rented, or no buy plan): its host's RAM is the
    typical figure MEM-HOST-RAM-BUY judges (cost.bought_host_ram_gb)."""
    plan = ev.buy.plan if mode == "buy" and ev.buy is not None else None
    return plan.host_key if plan is not None else ""


RENTED_RAM = ("instance", "offer", "typical")  # host RAM figures a rental brings (estimators/rental.rented_host_ram)


def host_ram_of(job: Job, ev: Evaluation, mode: str) -> tuple[float | None, str]:
    """The host RAM (GB a server) a candidate is judged on when had by ``mode``, and where the figure comes from: the
    proposal's or a shared memory's whichever way; a rented server's (the named instance's, the offer's, else a
    typical one of the segment: rental.rented_host_ram) only when rented, whichever way the estimate's price chose;
    none when bought (MEM-HOST-RAM-BUY compares the typical server the price buys)."""
    ram, kind = ev.host_ram_gb, ev.host_ram_from
    if kind not in RENTED_RAM and ram:
        return ram, kind
    if mode != "rent":
        return None, ""
    if not ram and ev.offer is not None and ev.host_ram_needed_bytes_per_node and ev.topology is not None:
        held = ev.memory.per_gpu if ev.memory is not None else 0.0
        ram, kind = rented_host_ram(job.kb, ev.gpu, ev.topology.per_node, ev.offer, held, ev.topology.gpus)
    return ram, kind


def _host_ram_from(ev: Evaluation, ram: float | None, kind: str) -> dict[str, Any]:
    """Where a candidate's host RAM figure ``ram`` comes from (``kind``: :func:`host_ram_of`), as text and as message
    ids a report words: the finding that blocks an offload on it says whose figure it judged."""
    kind = kind if ram else ""
    if not kind:
        return {"host_ram_from": "", "host_ram_from_phrases": []}
    per_node = ev.topology.per_node if ev.topology is not None else ev.count
    offer = ev.offer
    held = ev.memory.per_gpu / 1e9 if ev.memory is not None else 0.0  # what the GPU side holds of a shared memory
    values = {"proposal": {}, "shared": {"memory": ev.gpu.memory.gb, "held": held},
              "instance": {"instance": offer.instance if offer else ""},
              "offer": {"provider": offer.provider if offer else ""},
              "typical": {"segment": (("", f"host_ram.segment.{ev.gpu.segment}", {}),),  # in the report's language
                          "per_gpu": round(float(ram) / max(per_node, 1), 1)}}[kind]
    parts = (("", f"host_ram.{kind}", values),)
    return {"host_ram_from": phrase_text(parts), "host_ram_from_phrases": phrase_json(parts)}


def host_ram_key(ev: Evaluation) -> tuple[int, float, int, str]:
    """How close a one-server estimate comes to keeping its offloaded state in the server's host
    RAM, smallest first: nothing offloaded or RAM enough (the most to spare first), then a server
    whose RAM is not known, then RAM short (the least short first). Arithmetic, not a verdict: the
    job fact carries the first one's figures and MEM-ALT-LORA-HOST-RAM compares them; a rule that
    counted an unknown RAM as short would find every other server short too."""
    need = ev.host_ram_needed_bytes_per_node / GB
    ram = ev.host_ram_gb if ev.host_ram_gb is not None and ev.host_ram_gb > 0 else None
    if need <= 0:
        klass, gap = 0, -math.inf
    elif ram is None:
        klass, gap = 1, 0.0
    else:
        klass, gap = (0 if need <= ram else 2), need - ram
    return klass, gap, ev.count, ev.gpu.id


@frozen
class Server:
    """One server's worth of a GPU type as the memory rules see it: the least memory any way of
    running the job on ``count`` GPUs needs on its busiest GPU, and each GPU's capacity (bytes)."""

    gpu: str
    count: int
    need: float
    capacity: float
    held: bool = field(default=False, compare=False)  # under the rules' memory limit (the search's bound)

    @classmethod
    def of(cls, ev: Evaluation) -> Server | None:
        """An estimate as a server (None when its GPUs span several): a proposal judged as it is."""
        if ev.count > NODE or ev.nodes > 1:
            return None
        return cls(ev.gpu.id, ev.count, min(ev.memory.per_gpu, ev.requested_memory_per_gpu), ev.capacity)

    @property
    def share(self) -> float:
        """The share of a GPU's capacity the job needs at least (inf: no way of running it)."""
        return self.need / self.capacity if self.capacity > 0 and math.isfinite(self.need) else math.inf


def roomiest(*servers: Server | None) -> Server | None:
    """Of these servers, the one the job fact carries: one the rules' memory limit lets through if
    any (``held``), else the one that comes closest to holding the job, the least need as a share of
    capacity. Every memory rule compares a need with a share of the capacity (the policy's
    headroom), so if the rules do not let this one through, they let none through. Arithmetic, not
    a verdict: the job fact carries its figures and MEM-ALT-LORA judges them."""
    known = [s for s in servers if s is not None]
    return min(known, key=lambda s: (not s.held, s.share, s.count, s.gpu), default=None)


def job_fact(job: Job, evaluations: list[Evaluation], proposed_total_gb: float,
             server: Server | None, host: Evaluation | None = None, proposed_gpus: int = 0) -> dict[str, Any]:
    """The job as the rules see it. ``server``: the server's worth of GPUs that comes closest to
    holding the job (:func:`roomiest`), whose need and capacity the memory rules judge; ``host``:
    of the one-server estimates the memory rules may let through, the one that comes closest to
    keeping its offloaded state in host RAM (:func:`host_ram_key`), whose RAM and need they judge."""
    w, shape = job.w, job.shape
    quant = job.kb.runtime.quantization
    return {
        "t": "job",
        "task": w.task, "method": w.method, "model": shape.name, "params_b": shape.params / 1e9,
        "precision": w.precision, "mixed_precision": w.mixed_precision, "optimizer": w.optimizer,
        "zero": w.zero_stage if isinstance(w.zero_stage, int) else -1, "offload": w.offload,
        "full_training": job.training and w.method == "full",
        "state_gb": M.full_state_bytes(shape, w.precision, w.mixed_precision) / GB,
        "state_gb_myth": M.articles_state_bytes(shape.params) / GB,
        "server_gpu": server.gpu if server else "none", "server_gpus": server.count if server else 0,
        "server_need_gb": _n(server.need / GB) if server else -1.0,
        "server_capacity_gb": server.capacity / GB if server else -1.0,
        "host_server_gpu": host.gpu.id if host else "none", "host_server_gpus": host.count if host else 0,
        "host_server_ram_gb": _n(host.host_ram_gb) if host else -1.0,
        "host_server_ram_needed_gb": host.host_ram_needed_bytes_per_node / GB if host else -1.0,
        "largest_usable_gb": max((e.usable for e in evaluations), default=0) / GB,
        "seq_len": w.seq_len, "batch_size": w.batch_size, "context_len": w.context_len,
        "model_max_context": _max_context(job),
        "context_given": bool(getattr(w, "lengths_given", False)),
        "weights_gb": M.weight_bytes(shape, "bf16").value / GB,
        "int4_weights_gb": M.weight_bytes(shape, "int4", quant).value / GB,
        "explicit_gpus": bool(job.c.gpus), "proposed_total_gb": proposed_total_gb,
        # an audit of one GPU for a full fine-tune the planner keeps in bf16 there (TrainingJob.on): it sizes 8 B a
        # parameter by the single-device recipes' practice, not the articles' mistake (MEM-MYTH-8-BYTES)
        "proposal_pure_state": proposed_gpus == 1 and job.training and one_gpu_pure(w, job.kb),
        **_stack_part(job),
        **SVR.job_fact(job, [e.serving for e in evaluations]),
    }


def _max_context(job: Job) -> int:
    """The catalog model's context window (knowledge/models.yaml ``max_context``); 0 for a model the catalog does not
    hold or gives none for, for SRV-CONTEXT-BEYOND-MODEL."""
    m = (getattr(job.kb, "models", None) or {}).get(job.model_id) if job.model_id else None
    return int(m.max_context or 0) if m is not None else 0


def _stack_part(job: Job) -> dict[str, Any]:
    """The training stack and the layout pins it cannot run (training_job.pins_off_stack), for MEM-PIN-NOT-ON-STACK."""
    off = TJ.pins_off_stack_phrases(job) if job.training else ()
    return {"stack_name": TJ.stack_spec(job).name if job.training else "none",
            "pin_off_stack": phrase_text(off) if off else "none", "pin_off_stack_phrases": phrase_json(off)}


def environment(job: Job, gpu_ids: list[str]) -> list[dict[str, Any]]:
    return [{"t": "environment", **f} for f in environment_facts(job, gpu_ids)]


def _host_price(job: Job, e: Evaluation) -> list[tuple[tuple[Phrase, ...], str, str, str]]:
    """The tco.yaml host share a bought configuration's cost adds around its cards or baseboards (the price the
    result's prices_used lists as the host server), dated, as the plan judges it (plan/judge.py prices): a 2019
    workstation share was shown 2,895 days old in a recommendation's Data freshness and no rule called it stale
    (review33)."""
    p = e.buy.plan if e.buy is not None else None
    v = job.kb.tco.values.get(p.host_key) if p is not None and p.host_usd > 0 and p.host_key else None
    if v is None or v.as_of is None:
        return []
    return [((("", "price.what.host", {"gpu": e.gpu.name, "key": p.host_key}),), v.as_of.isoformat(), "host", "tco")]


def price_facts(job: Job, chosen: list[tuple[Evaluation, str]]) -> list[dict[str, Any]]:
    """Dated prices the shown candidates rely on, with their age, for the data-freshness rules."""
    seen: dict[str, dict[str, Any]] = {}
    today = TODAY()
    yuan = job.c.currency == "CNY"
    for e, mode in chosen:
        k = e.cost
        # what it prices, by the GPU's name, as message ids a report words in its language (price.what.*)
        if mode == "rent":
            parts = (("", "price.what.rent", {"gpu": e.gpu.name, "provider": str(k.rent_provider if k else None)}),)
            as_of, source = k.price_as_of if k else None, "clouds"
            yuan = yuan or (k is not None and k.rent_currency == "CNY")
        else:
            parts = (("", "price.what.buy", {"gpu": e.gpu.name}),)
            as_of, source = k.buy_price_as_of if k else None, "prices"
            yuan = yuan or (e.buy is not None and e.buy.plan is not None and e.buy.plan.currency == "CNY")
        dated = [(parts, as_of, mode, source)]
        if mode == "buy":
            dated += _host_price(job, e)
        for parts, as_of, kind, source in dated:
            what = phrase_text(parts)
            if not as_of or as_of == "proposal" or what in seen:
                continue
            age = (today - dt.date.fromisoformat(str(as_of))).days
            seen[what] = {"t": "price", "what": what, "what_phrases": phrase_json(parts), "kind": kind,
                          "as_of": str(as_of), "age_days": age, "source": source, "used": True}
    fx = job.kb.tco.values.get("usd_cny")
    if yuan and chosen and fx is not None and fx.as_of is not None:  # the answer converts at the dated rate
        parts = (("", "price.what.fx", {"rate": fx.value}),)
        what = phrase_text(parts)
        seen[what] = {"t": "price", "what": what, "what_phrases": phrase_json(parts), "kind": "fx",
                      "as_of": fx.as_of.isoformat(), "age_days": (today - fx.as_of).days, "source": "tco",
                      "used": True}
    return list(seen.values())
