"""The chosen way to serve as reports and the JSON show it: terms with formulas, memory, and the
typed result (:class:`.result.ServingResult`)."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...messages import Phrase, formula, formula_text, phrase_text
from .. import Term
from .. import memory as M
from .. import memory_serving as MS
from . import options as O
from .checkpoint import fp8_scaling
from .choice import Serving, p95_in_flight
from .draft import Drafter, drafter
from .engine import (
    checkpoint_bits,
    checkpoint_fp8,
    checkpoint_keeps,
    format_of,
    kv_element_bytes,
    model_bytes,
    quant_formats,
    step_budget,
)
from .front import front
from .fusion import release_entry, router_unfused
from .layout import Layout, crosses_nodes
from .limits import limits
from .recurrent import recurrent_extra_kernels
from .result import ServingResult
from .step import consts, step, tp_allreduce_seconds, walk_cap
from .support import request_lengths

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu
    from ...knowledge.schema.serving import Framework


def terms(job: Any, s: Serving) -> dict[str, Term]:
    """The chosen layout's numbers with their formulas, for reports. Each figure is the one the result
    carries (``s.load``): the TPOT term is the load's TPOT, shown as its decode step and the share of the
    other requests' prompts that ride on its steps, never a step worked out again another way. A copy that
    does not fit runs no step: no speed, no TPOT, no prefill, and its throughput says it serves nothing."""
    eng, rep, lay = s.engine, s.replica, s.layout
    prompt, output = request_lengths(job.w)
    per_copy = max(s.load.concurrency / lay.replicas, 1.0)
    common = {"framework": eng.fw.id, "layout": lay.label(), "prompt_tokens": prompt, "output_tokens": output}
    b = min(per_copy, max(rep.max_seqs, 1))
    said = {"layout": lay.label_phrases()}  # the layout input, worded in a report's language
    if not rep.fits:
        unfit = (("", "load.unfit", {}),)
        timed = {
            "decode_total": Term("decode_tokens_per_s_total", 0.0, "tok/s", formula("formula.serving.unfit"),
                                 {**common, "concurrency": s.load.concurrency, "replicas": lay.replicas},
                                 note_phrases=unfit),
            "kv_capacity": _kv_capacity(s, common),
            "serving_throughput": Term("throughput_tokens_per_s", 0.0, "tok/s", formula("formula.serving.unfit"),
                                       {**common, "concurrency": s.load.concurrency}, note_phrases=unfit),
        }
        return {k: replace(t, input_phrases=said) for k, t in timed.items()}
    pure = step(job, eng, rep, b, 0.0, prompt + output / 2, 0.0, prompt + output if b > 1.0 else 0.0)  # as load.py
    note = (("", f"note.{pure.bound}_bound", {}),
            ("; ", "note.framework_layout", {"fw": eng.fw.name, "layout": lay.label_phrases()}))
    bound = _bound(job, s)
    decode_inputs = {**common, "sequences_per_copy": b, "linear_s": pure.gemm, "attention_s": pure.attention,
                     "communication_s": pure.comm, "overhead_s": pure.overhead, "bound": pure.bound}
    floor = _host_floor(job, s, pure)  # the release's host floor, where it sets the step (nothing otherwise)
    walk = _k_walk(job, s, pure)  # block-FP8 GEMMs' reduction walk, where it sets their time (nothing otherwise)
    fp4 = _fp4_rate(s)  # dense NVFP4 GEMMs' own streaming rate, where the engine charges it (nothing otherwise)
    walk = (walk[0] + fp4[0], {**walk[1], **fp4[1]}) if walk and fp4 else (walk or fp4)
    kvw = _kv_walk(s)  # a split-KV decode kernel's walkers, where they read the cache (nothing otherwise)
    walk = (walk[0] + kvw[0], {**walk[1], **kvw[1]}) if walk and kvw else (walk or kvw)
    if eng.kv_per_query_head and eng.sc.group > 1 and eng.spec is None:  # llama.cpp's per-head read (step.py)
        walk = ((walk[0] if walk else ()) + formula("formula.serving.kv_per_query_head", "; ", reads=eng.sc.group,
                                                     fw=eng.fw.name),
                {**(walk[1] if walk else {}), "kv_reads_per_step": eng.sc.group})
    off = _fusion_off(job, s)  # a listed model's fused kernels left off on this GPU (nothing otherwise)
    walk = (walk[0] + off[0], {**walk[1], **off[1]}) if walk and off else (walk or off)
    if eng.unoverlapped and eng.spec is None:  # SGLang's overlap scheduler off for a hybrid: host time in the overhead
        walk = ((walk[0] if walk else ()) + formula("formula.serving.unoverlapped_host", "; ",
                                                     us=eng.unoverlapped * 1e6),
                {**(walk[1] if walk else {}), "unoverlapped_host_s": eng.unoverlapped})
    ops = eng.eager
    if ops is not None and eng.spec is None:  # an eager engine: its launches overlap the GPU's work (eager.py)
        walk = ((walk[0] if walk else ()) + formula(
            "formula.serving.eager_launches", "; ", fw=eng.fw.name, layer_ops=ops.layer_ops,
            moe_layer_ops=ops.moe_layer_ops, router_ops=ops.router_ops, expert_ops=ops.expert_ops,
            us=ops.op_s * 1e6, step_ops=ops.step_ops), walk[1] if walk else {})
    tpot, decode_step = s.load.tpot, s.load.decode_step
    # the load is a request rate's (Little's law): its output is the rate's, where the queue is stable
    rate_at = (s.rate.at_rate if s.load_source == "load.rate" and s.rate is not None and s.rate.at_rate is not None
               and s.rate.at_rate.stable else None)
    spec = eng.spec
    step_parts = ({"linear_s": pure.gemm, "attention_s": pure.attention, "communication_s": pure.comm,
                   "overhead_s": pure.overhead, "bound": pure.bound, "weight_bytes_per_gpu": pure.weight_bytes_gpu,
                   "kv_bytes_per_gpu": pure.kv_bytes_gpu, "flops_per_gpu": pure.flops_gpu}
                  if spec is None else {"tokens_per_step": spec.tokens_per_step})
    state = s.replica.state_gpu  # a hybrid's recurrent state, read and written by each decoding sequence a step
    if state and spec is None:
        step_parts["recurrent_state_per_sequence_per_gpu_bytes"] = state
        walk = (walk[0] if walk else ()) + formula("formula.serving.state_traffic", "; ", bytes=state), (
            walk[1] if walk else {})
        hybrid = eng.sc.hybrid  # gated DeltaNet's chunked prefill and decode kernels (recurrent.py)
        if hybrid is not None and hybrid[1] == "gated_deltanet":
            kernels, floor_us = recurrent_extra_kernels(eng), eng.kernel_floor * 1e6
            fla = eng.fla_prefill if hybrid[4] else 0.0  # FLA's Triton chunk kernels' time (recurrent.py)
            walk = walk[0] + (formula("formula.serving.recurrent_mixer_fla", "; ", layers=hybrid[2], ns=fla * 1e9,
                                      heads=hybrid[4] / lay.tp, kernels=kernels, floor_us=floor_us)
                              if fla else
                              formula("formula.serving.recurrent_mixer", "; ", layers=hybrid[2], flops=hybrid[3],
                                      kernels=kernels, floor_us=floor_us)), walk[1]
    timed = {
        "decode": Term("decode_tokens_per_s", 1 / tpot if tpot > 0 else 0.0, "tok/s",
                       formula("formula.serving.decode") + (floor[0] if floor else ()) + (walk[0] if walk else ()),
                       {**decode_inputs, "tpot_s": tpot, "pure_decode_step_s": pure.seconds,
                        **(floor[1] if floor else {}), **(walk[1] if walk else {})}, note_phrases=note),
        "decode_total": Term("decode_tokens_per_s_total", s.load.throughput, "tok/s",
                             formula("formula.serving.decode_total"),
                             {**common, "concurrency": s.load.concurrency, "replicas": lay.replicas,
                              **bound[0]}, note_phrases=note + bound[1]),
        "prefill": Term("prefill_tokens_per_s", prompt / s.single.ttft if s.single.ttft > 0 else 0.0, "tok/s",
                        formula("formula.serving.prefill"),
                        {**common, "ttft_s": s.single.ttft}),
        "kv_capacity": _kv_capacity(s, common),
        "serving_step": Term(
            "tpot_s", tpot, "s",
            (formula("formula.serving.tpot" if spec is None else "formula.serving.tpot_speculative") if not floor
             else formula("formula.serving.tpot_host_floor", **floor[0][0][2])) + (walk[0] if walk else ()),
            {**common, "decode_step_s": decode_step, "prompt_share_s": tpot - decode_step, **step_parts,
             **(floor[1] if floor else {}), **(walk[1] if walk else {}),
             "bandwidth_fraction": eng.bw_fraction, "compute_efficiency": eng.compute_eff, "compute": eng.compute,
             "weight_format": eng.weight_format, "sequences_per_copy": b}),
        "serving_throughput": Term(
            "throughput_tokens_per_s", s.load.throughput, "tok/s",
            formula("formula.serving.throughput_front_end" if s.load.front_end
                    else "formula.serving.throughput_rate" if rate_at is not None
                    else "formula.serving.throughput" if eng.fw.continuous_batching
                    else "formula.serving.throughput_static"),
            {**common, "concurrency": s.load.concurrency, "tpot_s": tpot, "ttft_s": s.load.ttft,
             **({"requests_per_s": rate_at.requests_per_s} if rate_at is not None else {}), **bound[0]},
            note_phrases=tuple(("", key, values) for _, key, values in bound[1])),
    }
    return {k: replace(t, input_phrases=said) for k, t in timed.items()}


def _host_floor(job: Any, s: Serving, pure: Any) -> tuple[tuple[Phrase, ...], dict[str, Any]] | None:
    """Where the stated release's host floor (serving.yaml ``sync_host_floor``) sets the plain decode step: the
    formula's part that says so, decode step = max(GPU step, host floor), with the release and the knowledge entry
    its figure and source are in, and the inputs it reads (the GPU's step and the floor); None where the GPU's
    parts set the step, or a speculative step (whose TPOT is the verify step's and the drafter's) is shown."""
    eng = s.engine
    if not pure.host_floor or eng.spec is not None:
        return None
    fw = eng.fw
    said = formula("formula.serving.host_floor", "; ", fw=fw.name, version=job.w.framework_version,
                   source=f"knowledge/serving.yaml {fw.id} sync_host_floor")
    return said, {"gpu_step_s": pure.gpu_seconds, "host_floor_s": pure.host_floor, "step_set_by": "host_floor"}


def _k_walk(job: Any, s: Serving, pure: Any) -> tuple[tuple[Phrase, ...], dict[str, Any]] | None:
    """Where block-scaled FP8 GEMMs (on SM120 NVFP4 ones: ``nvfp4_k_walk``) at the decode step's few token rows walk
    their reduction depth longer than their math takes (serving.yaml ``block_fp8_small_batch``, or on the AMD
    architectures a framework's ROCm readings cover its ``rocm_block_fp8_walk``: engine.py ``block_fp8_k_block``;
    step.py ``kserial_seconds``): the
    formula's part that says the walk replaces GEMM FLOPs / (peak x e), naming the entry its figure comes from,
    and the two figures; None where the math is the longer, or a speculative step is shown."""
    eng = s.engine
    if not pure.k_walk or eng.spec is not None:
        return None
    arch = job.kb.gpus[eng.gpu_id].architecture or ""
    rocm = any(arch in w.architectures for w in eng.fw.rocm_block_fp8_walk)
    fp4 = eng.compute == "fp4"  # a dense NVFP4 GEMM's walk (engine.nvfp4_k_block), not a block-FP8 one
    entry = "nvfp4_k_walk" if fp4 else f"{eng.fw.id} rocm_block_fp8_walk" if rocm else "block_fp8_small_batch"
    said = formula("formula.serving.nvfp4_walk" if fp4 else "formula.serving.block_fp8_walk", "; ",
                   k_block_us=eng.k_block * 1e6, source=f"knowledge/serving.yaml {entry}")
    return said, {"gemm_math_s": pure.gemm_math, "block_fp8_walk_s": pure.k_walk}


def _fp4_rate(s: Serving) -> tuple[tuple[Phrase, ...], dict[str, Any]] | None:
    """Where the dense layers' NVFP4 weights stream at the FP4 GEMM's own rate (serving.yaml
    ``nvfp4_small_batch``, engine.py ``nvfp4_dense_rate``): the formula's part that says so, and the rate; None
    elsewhere, or where a speculative step is shown."""
    eng = s.engine
    if not eng.fp4_dense_bw or eng.spec is not None:
        return None
    return formula("formula.serving.nvfp4_dense_rate", "; ", tb_s=eng.fp4_dense_bw / 1e12), {
        "nvfp4_dense_bytes_per_s": eng.fp4_dense_bw}


def _fusion_off(job: Any, s: Serving) -> tuple[tuple[Phrase, ...], dict[str, Any]] | None:
    """Where the release lists the job's model for its fused small kernels but leaves them off on the job's GPU
    (serving.yaml fused_kernel_models ``gpus_excluded``: SGLang 0.5.7-0.5.12 on the H20; fusion.kernel_floor), or
    routes the model through its torch top-k function (``torch_router``: GLM-4.5; fusion.router_unfused): the
    formula's part that says a small kernel costs the framework's own figure, and it; None elsewhere."""
    eng = s.engine
    listed = eng.fw.fused_kernel_models
    span = release_entry(listed.releases, getattr(job.w, "framework_version", None)) if listed else None
    if span is None or job.model_id not in span.models:
        return None
    if eng.gpu_id in span.gpus_excluded:
        gpu = job.kb.gpus[eng.gpu_id].name
        return formula("formula.serving.fusion_off", "; ", fw=eng.fw.name, gpu=gpu, us=eng.kernel_floor * 1e6), {
            "kernel_floor_s": eng.kernel_floor}
    if router_unfused(job, eng.fw, eng.gpu_id):  # its router is the torch function: the fused figure does not hold
        return formula("formula.serving.router_unfused", "; ", fw=eng.fw.name, us=eng.kernel_floor * 1e6), {
            "kernel_floor_s": eng.kernel_floor}
    return None


def _kv_walk(s: Serving) -> tuple[tuple[Phrase, ...], dict[str, Any]] | None:
    """Where a split-KV decode kernel the job states reads the cache at its programs' rate (serving.yaml
    ``triton_decode_walk``, support.py ``triton_walk``), or the ROCm build's unified attention kernel its release
    runs with AITER off (``rocm_unified_attention_walk``, support.py ``rocm_unified_walk``), or on gfx908 its
    paged-decode kernel (``rocm_paged_decode_walk``): the formula's part that says so, and the rates a KV head of one
    sequence is walked at; None elsewhere, or where a speculative step is shown."""
    eng = s.engine
    if not eng.kv_walk or eng.spec is not None:
        return None
    if eng.kv_walk_grid:  # the ROCm build's unified attention kernel (serving.yaml rocm_unified_attention_walk)
        return formula("formula.serving.kv_walk_rocm", "; ", gb_s=eng.kv_walk / 1e9, grid=eng.kv_walk_grid,
                       one_gb_s=eng.kv_walk_one / 1e9), {
            "kv_walk_bytes_per_s_per_kv_head": eng.kv_walk, "kv_walk_one_bytes_per_s_per_kv_head": eng.kv_walk_one,
            "kv_walk_launch_grid": eng.kv_walk_grid}
    if eng.kv_walk_one:  # gfx908's paged-decode kernel: one program a pair (serving.yaml rocm_paged_decode_walk)
        return formula("formula.serving.kv_walk_paged", "; ", gb_s=eng.kv_walk / 1e9), {
            "kv_walk_bytes_per_s_per_kv_head": eng.kv_walk}
    cap = walk_cap(eng, s.layout.tp, s.layout.dp_attention)  # SGLang's: its resident programs over head blocks
    if cap:
        slots_b_s, _ = eng.kv_walk_slots
        return formula("formula.serving.kv_walk_slots", "; ", gb_s=eng.kv_walk / 1e9, cap_gb_s=cap / 1e9,
                       blocks=round(slots_b_s / cap)), {
            "kv_walk_bytes_per_s_per_kv_head": eng.kv_walk, "kv_walk_resident_bytes_per_s": slots_b_s,
            "kv_walk_cap_bytes_per_s": cap}
    return formula("formula.serving.kv_walk", "; ", gb_s=eng.kv_walk / 1e9), {
        "kv_walk_bytes_per_s_per_kv_head": eng.kv_walk}


def _kv_capacity(s: Serving, common: dict[str, Any]) -> Term:
    """How many sequences the memory holds, with the bytes it is worked out from."""
    eng, rep, lay = s.engine, s.replica, s.layout
    shared = ({"kv_cache_tokens": rep.pool_tokens} if rep.pool_tokens else
              {"memory_share": rep.pool_share, "capacity_per_gpu_bytes": eng.capacity} if rep.pool_share else {})
    if rep.sched_cap:
        shared["batch_cap_per_rank"] = rep.sched_cap
    if rep.profile_gpu:  # of the working set: the engine's profiled sampler peak beyond the forward's (profile.py)
        shared["profile_sampler_per_gpu_bytes"] = rep.profile_gpu
    if rep.state_slots:
        shared.update({"state_slots_per_rank": rep.state_slots, "state_slots_per_request": rep.state_slots_per_request,
                       "state_pool_per_gpu_bytes": rep.state_pool_gpu})
    # the parts the pool is what is left of, each a number in the formula (layout.py _replica: the memory beside the
    # KV cache is the weights, the working set and its allocator allowance, and the CUDA context), and one
    # sequence's bytes a GPU (its KV cache, the drafter's, a static engine's prompt; its recurrent state unless that
    # has a pool of its own)
    beside = M.total_bytes(rep.weights_gpu + rep.act_gpu, rep.act_gpu, (eng.context_bytes, eng.alloc_frac))
    shared.update({"context_bytes": eng.context_bytes,
                   "working_set_per_gpu_bytes": beside - rep.weights_gpu - eng.context_bytes + rep.profile_gpu,
                   "kv_per_sequence_per_gpu_bytes": rep.per_seq_gpu - (rep.state_gpu if rep.state_slots else 0.0)})
    said = (formula("formula.serving.kv_capacity_state_pool", cap=rep.sched_cap, ranks=lay.dp_attention,
                    fw=eng.fw.name, slots=rep.state_slots, per=rep.state_slots_per_request) if rep.state_capped
            else formula("formula.serving.kv_capacity_cap", cap=rep.sched_cap, ranks=lay.dp_attention, set_by=(
                "workload.max_batch_size" if rep.cap_stated else eng.fw.name)) if rep.sched_cap
        else formula("formula.serving.kv_capacity_pool", tokens=rep.pool_tokens) if rep.pool_tokens
        else formula(f"formula.serving.kv_capacity_stated_{rep.pool_kind or 'share'}", fw=eng.fw.name,
                     share=rep.pool_share) if rep.share_stated
        else formula(f"formula.serving.kv_capacity_{rep.pool_kind}", fw=eng.fw.name, share=rep.pool_share)
        if rep.pool_share and rep.pool_kind
        else formula("formula.serving.kv_capacity_share", fw=eng.fw.name, share=rep.pool_share) if rep.pool_share
        else formula("formula.serving.kv_capacity"))
    if lay.dp_attention > 1 and not rep.sched_cap:  # the floor is a rank's; each attention rank holds as many
        said += formula("formula.serving.kv_capacity_ranks", "; ", ranks=lay.dp_attention)
        shared["attention_ranks_per_copy"] = lay.dp_attention
    if rep.state_gpu:
        said += (formula("formula.serving.state_pool_apart", "; ", fw=eng.fw.name, pool=rep.state_pool_gpu,
                         slots=rep.state_slots, bytes=rep.state_gpu) if rep.state_slots
                 else formula("formula.serving.plus_state", "; ", bytes=rep.state_gpu))
        shared["recurrent_state_per_sequence_per_gpu_bytes"] = rep.state_gpu
    return Term(
        "max_concurrent_sequences", float(s.max_concurrent), "sequences", said,
        {**common, **shared, "usable_per_gpu_bytes": eng.usable, "weights_per_gpu_bytes": rep.weights_gpu,
         "kv_free_per_gpu_bytes": rep.free_gpu, "kv_bytes_per_token_per_gpu": rep.kv_token_gpu,
         "tokens_per_sequence": rep.seq_tokens, "kv_reserve": eng.fw.kv_reserve,
         "max_batch": eng.max_batch, "replicas": lay.replicas},
        note_phrases=tuple(rep.notes))


def _bound(job: Any, s: Serving) -> tuple[dict[str, Any], tuple[tuple[str, str, dict[str, Any]], ...]]:
    """Which bound sets the throughput at the load, the GPUs or the front end (:mod:`.front`), as a term's
    inputs and note; nothing where no front end bounds it (offline, or none modelled for the framework)."""
    f = front(job, s.engine)
    if f is None:
        return {}, ()
    per_copy = f.requests_per_s
    inputs = {"bound_at_load": "front_end" if s.load.front_end else "gpu", "front_end_requests_per_s_per_copy":
              per_copy, "front_end_processes": f.processes, "front_end_s_per_request": f.seconds * f.processes}
    if s.load.front_end:
        said = ("; ", "note.front_end_bound", {"fw": s.engine.fw.name, "ms": f.seconds * f.processes * 1e3,
                                                "n": f.processes, "rate": per_copy, "setting": f.setting})
    else:
        said = ("; ", "note.gpu_bound_load", {"fw": s.engine.fw.name, "rate": per_copy})
    return inputs, (said,)


# ------------------------------------------------------------------------------ memory
def memory_of(job: Any, fw: Framework, lay: Layout, gpu: Gpu | None = None,
              sequences: int | None = None) -> M.MemoryEstimate:
    """Per-GPU memory of serving ``workload.concurrent_requests`` (spread over the copies) with
    ``fw`` in ``lay``: the breakdown reports show. Engines with chunked prefill hold one chunk's
    working set; static batches prefill every prompt at once. ``sequences``: the sequences a copy
    holds at the load the report shows (:func:`load_sequences`), in place of the stated concurrency."""
    w, kb = job.w, job.kb
    fp = fw.precisions.get(w.precision)  # type: ignore[call-overload]
    fmt = format_of(job, fw, gpu)
    kv_b = kv_element_bytes(w, fp)
    prompt, output = request_lengths(w)
    per_copy = sequences or max(1, math.ceil(w.concurrent_requests / max(lay.replicas, 1)))
    chunk = step_budget(job, fw, gpu) if gpu is not None else fw.prefill_chunk_tokens
    prefill = min(chunk, prompt * per_copy) if fw.continuous_batching else prompt * per_copy
    held = prompt + output / 2 if (fw.continuous_batching and fw.kv_reserve == "current") else prompt + output
    rt = kb.runtime
    est = MS.inference_memory(
        job.shape, w.precision, prompt + output, per_copy, w.attention if fw.id == "transformers" else "sdpa",
        lay.tp, quant=quant_formats(kb), overhead=(rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value),
        fmt=fmt, prompt_tokens=prompt, prefill_tokens=prefill, pp=lay.pp, ep=lay.ep, dp_attention=lay.dp_attention,
        kv_bytes=kv_b, kv_len=held, pool_tokens=getattr(w, "kv_cache_tokens", None), chunked=fw.continuous_batching)
    spec, _ = O.speculative(kb, fw, w, job)
    mbytes = model_bytes(job.shape, fmt, quant_formats(kb), checkpoint_keeps(job, fmt, None),
                         checkpoint_bits(job, fmt, None), checkpoint_fp8(job, fmt, None))
    est = with_held_whole(est, mbytes, lay)
    est = with_fp8_format(job, fw, est, fmt)
    d = drafter(job, spec, mbytes.linear_bytes_per_param, kv_b)
    est = with_drafter(est, d, lay, per_copy, prompt, held) if d is not None else est
    if sequences:  # the KV cache of the sequences in flight at the load shown, not of the stated concurrency
        kv = est.kv_cache
        said = (("; " if kv.note_phrases else "", "note.kv_at_load", {"sequences": per_copy}),)
        est = replace(est, kv_cache=replace(kv, note_phrases=kv.note_phrases + said, note=""))
    if held != prompt + output and not getattr(w, "kv_cache_tokens", None):  # the mean span a running sequence holds
        kv = est.kv_cache
        said = (("; " if kv.note_phrases else "", "note.kv_held_mean",
                 {"fw": fw.name, "prompt": prompt, "output": output, "tokens": held}),)
        est = replace(est, kv_cache=replace(kv, note_phrases=kv.note_phrases + said, note=""))
    return est


def with_fp8_format(job: Any, fw: Framework, est: M.MemoryEstimate, fmt: str) -> M.MemoryEstimate:
    """``est`` whose weights name the scaling of the model's published FP8 checkpoint (``fp8_checkpoints``) and the
    framework that serves it, where the job serves that checkpoint; unchanged otherwise (the format's own words)."""
    scaling = fp8_scaling(job, fmt, O.quantization(job.kb, fw, job.w)[0])
    if scaling is None:
        return est
    model = job.kb.models.get(job.model_id)
    said: tuple[Phrase, ...] = (("", f"format.fp8_checkpoint.{scaling}",
                                 {"model": getattr(model, "name", job.model_id), "fw": fw.name}),)
    weights = replace(est.weights, inputs={**est.weights.inputs, "format": phrase_text(said)},
                      input_phrases={**est.weights.input_phrases, "format": said})
    return replace(est, weights=weights)


def with_held_whole(est: M.MemoryEstimate, mbytes: Any, lay: Layout) -> M.MemoryEstimate:
    """``est`` with the weights a GPU of ``lay`` holds as the serving copy does (layout.py): the MoE gate in 16
    bit, the published checkpoint's 16-bit parts (``fp4_checkpoints``), and with tensor parallelism the weights
    every rank holds whole (MLA's down-projections, the gate); unchanged where these add nothing."""
    tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
    held = (mbytes.non_expert / pp + mbytes.experts / (ep * pp) if dpa > 1
            else (mbytes.per_rank(tp) + mbytes.experts / tp) / pp)
    extra = held - est.weights.value
    if extra <= 1e-9 * max(held, 1.0):
        return est
    inputs = {**est.weights.inputs, "held_whole_bytes": extra}
    if dpa > 1:  # every GPU the non-expert weights (the gate in 16 bit among them), the routed experts over ep
        said = formula("formula.weights_held_dpa", "(" if pp > 1 else "", ep=ep) + (
            formula("formula.over_stages", ") ", pp=pp) if pp > 1 else ())
        inputs |= {"non_expert_bytes": mbytes.non_expert, "routed_expert_bytes": mbytes.experts}
    else:  # the format's weights / (tp x pp), then the 16-bit parts beyond the format and the replicated weights
        ranks = tp * pp
        said = (*est.weights.formula_phrases, *formula(
            "formula.weights_held_whole" if ranks > 1 else "formula.weights_held_16bit", " + "))
        inputs |= {"sixteen_bit_bytes": mbytes.total - est.weights.value * ranks, "replicated_bytes": mbytes.replicated,
                   "tp": tp, "ranks": ranks}
    weights = replace(est.weights, value=held, formula=said, inputs=inputs)
    return replace(est, weights=weights, phases={k: v + extra for k, v in est.phases.items()})


def with_drafter(est: M.MemoryEstimate, d: Drafter, lay: Layout, per_copy: int, prompt: float,
                 held: float) -> M.MemoryEstimate:
    """``est`` with a speculative drafter's weights and KV cache added to its weights and KV terms."""
    seqs = math.ceil(per_copy / lay.dp_attention) if lay.dp_attention > 1 else per_copy
    dw = d.weights_gpu(lay.tp, lay.ep, lay.dp_attention)
    tokens = prompt if est.peak_phase == "prefill" else held
    dkv = d.kv_token_gpu(lay.tp, lay.dp_attention) * tokens * seqs
    split = formula("formula.drafter.split", " / ", gpus=lay.tp) if lay.dp_attention == 1 and lay.tp > 1 else ()
    weights = replace(est.weights, value=est.weights.value + dw, formula=_plus(est.weights, d.formula + split),
                      inputs={**est.weights.inputs, "drafter_bytes": dw, "drafter_params": d.params})
    kv = replace(est.kv_cache, value=est.kv_cache.value + dkv,
                 formula=_plus(est.kv_cache, formula("formula.drafter.kv", "; + ", method=d.method)),
                 inputs={**est.kv_cache.inputs, "drafter_kv_bytes": dkv})
    phases = {k: v + dw + d.kv_token_gpu(lay.tp, lay.dp_attention) * (prompt if k == "prefill" else held) * seqs
              for k, v in est.phases.items()}
    return replace(est, weights=weights, kv_cache=kv, phases=phases)


def _plus(t: Term, more: tuple[Phrase, ...]) -> tuple[Phrase, ...] | str:
    """A memory term's formula with the drafter's parts after it ("; + " starts the first of them)."""
    first = (("; + ", more[0][1], more[0][2]), *more[1:]) if more and not more[0][0] else more
    if t.formula_phrases:
        return tuple(t.formula_phrases) + first
    return str(t.formula) + formula_text(first)  # a memory formula still written in English


def load_sequences(job: Any, s: Serving) -> int | None:
    """The sequences a (decoding) copy holds at the load ``s`` is reported at where the workload states no
    ``concurrent_requests``: at a request rate, those in service by Little's law (:mod:`.rate`); at a
    throughput target, the fewest in flight that reach it (:func:`.choice.load_concurrency`); never more
    than the copy's KV cache holds at once. None: the stated concurrency is the load (or no copy fits)."""
    if s.load_source not in ("load.rate", "load.target", "load.target_unreached") or not s.replica.fits:
        return None
    at = s.rate.at_rate if s.rate is not None else None
    copies = (at.decode_copies if at is not None and s.load_source == "load.rate" else 0) or s.layout.replicas
    return max(1, min(math.ceil(s.load.concurrency / max(copies, 1) - 1e-9), s.replica.max_seqs))


def memory(job: Any, s: Serving) -> M.MemoryEstimate:
    """Memory per GPU of the chosen way to serve (see :func:`memory_of`) at the load it is reported at
    (:func:`load_sequences`): the one figure the candidate's memory, its rules and its label (:func:`_label`)
    show (memoised per job, GPU, framework, layout and load)."""
    seqs = load_sequences(job, s)
    key = ("serving-memory", s.engine.gpu_id, s.engine.fw.id, s.engine.weight_format, s.layout, seqs)
    got = job.memo.get(key)
    if got is None:
        got = memory_of(job, s.engine.fw, s.layout, job.kb.gpus[s.engine.gpu_id], seqs)
        got = job.memo[key] = with_profile_peak(got, s.replica.profile_gpu)
    return got


def with_profile_peak(est: M.MemoryEstimate, profiled: float) -> M.MemoryEstimate:
    """``est`` with the bytes a GPU the engine's start-up profile run holds beyond the forward's working set, where
    the copy's KV pool is sized short of them (layout.py ``profile_gpu``; profile.py: vLLM's dummy sampler pass):
    memory the engine keeps from its pool for its life, so the memory total the rules judge is the one the serving
    copy's room was reckoned on (no allocator allowance on it: the pool is sized after the profile's measured peak);
    unchanged where the pool is not sized short of it."""
    if profiled <= 0:
        return est
    act = est.activations
    said = act.formula_phrases + formula("formula.profile_sampler_beyond", " + ")
    held = ("; " if act.note_phrases else "", "note.profile_sampler_held", {})
    act = replace(act, value=act.value + profiled, formula=said,
                  inputs={**act.inputs, "profile_sampler_per_gpu_bytes": profiled}, note="",
                  note_phrases=(*act.note_phrases, held))
    return replace(est, activations=act, phases={k: v + profiled for k, v in est.phases.items()})


# ----------------------------------------------------------------------------- result
def _label(job: Any, s: Serving) -> tuple[Phrase, ...]:
    """The chosen layout's words; a copy that does not fit says so, with the layout it tried and what
    that layout would hold per GPU (never a bare "8 x (one GPU)" for weights no layout holds): the memory
    estimate's per-GPU total (:func:`memory`), the figure the candidate's memory and MEM-NO-FIT show."""
    lay = s.layout
    rep = s.replica
    if rep.fits:
        return lay.label_phrases()
    one = "_one" if lay.gpus == 1 else ""  # "one GPU would hold", never "one GPU over 1 GPUs"
    if rep.pool_gpu > rep.pool_room_gpu:  # the stated pool does not fit beside the weights (SRV-KV-POOL-NO-ROOM)
        return (("", "layout.unfit_pool" + one, {"layout": lay.label_phrases(), "gpus": lay.gpus,
                                                 "tokens": rep.pool_tokens, "pool_gb": rep.pool_gpu / 1e9,
                                                 "room_gb": rep.pool_room_gpu / 1e9}),)
    need = memory(job, s).per_gpu / 1e9
    return (("", "layout.unfit" + one, {"layout": lay.label_phrases(), "gpus": lay.gpus, "need_gb": need}),)


def result(job: Any, s: Serving) -> ServingResult:
    """The chosen way to serve as the typed record the facts, results and JSON read. Its targets
    are the limits in force it was chosen for (:mod:`.limits`: the workload's under the built-in
    rules, a house rule's where one moves them); whether it meets them (``meets_*``) and whether
    the framework runs it (``support``'s flags in the JSON) are left to the rules, which judge the
    candidate (:func:`gpuwise.decide.verdicts.judged_serving` fills them)."""
    w, kb, fw = job.w, job.kb, s.engine.fw
    lim = s.limits if s.limits is not None else limits(job, kb.gpus[s.engine.gpu_id], s.layout.gpus)
    target = lim.tokens_per_s
    prompt, output = request_lengths(w)
    lay = s.layout
    cap = s.capacity  # every figure below is of the chosen layout; the best layout at full load is apart
    best = s.best_capacity if s.best_capacity_layout is not None else s.capacity
    peak, best_peak = (cap.throughput if cap else 0.0), (best.throughput if best else 0.0)
    higher = best_peak > (1 + float(kb.policy_value("serving_higher_peak_fraction"))) * peak
    spec_asked = getattr(w, "speculative", None)
    method = getattr(w, "quantization", None)
    rate = s.rate
    label = _label(job, s)
    return ServingResult(
        framework=fw.id, framework_name=fw.name, support=s.support,
        weight_format=s.engine.weight_format, compute_precision=s.engine.compute,
        weight_only_fallback=s.engine.weight_only,
        layout=lay, layout_label=phrase_text(label), layout_label_phrases=label,
        prompt_tokens=prompt, output_tokens=output,
        max_concurrent_sequences=s.max_concurrent, framework_default_max_batch=s.engine.max_batch,
        fits=s.replica.fits, kv_free_per_gpu_bytes=max(s.replica.free_gpu, 0.0),
        weights_per_gpu_bytes=s.replica.weights_gpu, sequence_per_gpu_bytes=s.replica.per_seq_gpu,
        load_concurrency=s.load.concurrency, load_source=s.load_source,
        throughput_tokens_per_s=s.load.throughput, ttft_s=s.load.ttft, tpot_s=s.load.tpot,
        max_throughput_tokens_per_s=peak,
        max_throughput_concurrency=cap.concurrency if cap else 0.0,
        max_throughput_ttft_s=cap.ttft if cap else None, max_throughput_tpot_s=cap.tpot if cap else None,
        best_layout=s.best_capacity_layout or lay,
        best_layout_max_throughput_tokens_per_s=best_peak,
        best_layout_max_throughput_concurrency=best.concurrency if best else 0.0,
        best_layout_max_concurrent_sequences=(s.best_capacity_max_concurrent if s.best_capacity_layout is not None
                                              else s.max_concurrent),
        best_layout_higher_peak=higher,
        # a copy that does not fit decodes nothing: no single-sequence bound is shown for it
        single_stream_tokens_per_s=(1 / s.single.decode_step if s.replica.fits and s.single.decode_step > 0
                                    else None),
        single_stream_ttft_s=s.single.ttft,
        target_tokens_per_s=target, max_ttft_ms=lim.ttft_ms, max_tpot_ms=lim.tpot_ms,
        # whether it meets each target is the rules' verdict (gpuwise.decide.verdicts.judged_serving)
        meets_throughput_target=None, meets_ttft=None, meets_tpot=None,
        alternatives=s.alternatives,
        speculative=s.engine.spec,
        speculative_method=spec_asked.method if spec_asked is not None else None,
        speculative_supported=O.speculative(kb, fw, w)[1],
        speculative_frameworks=O.supported_speculative(kb, spec_asked.method) if spec_asked is not None else [],
        quantization_method=method, quantization_supported=O.quantization(kb, fw, w)[2],
        quantization_frameworks=O.supported_quantization(kb, method) if method else [],
        disaggregated=bool(getattr(w, "disaggregated", False)),
        requests_per_s=lim.requests_per_s if getattr(w, "requests_per_s", None) else None,
        p95_ttft_target_s=lim.p95_ttft_s, p95_tpot_target_s=lim.p95_tpot_s,
        rate_model=rate.model if rate is not None else None, rate_note=rate.note if rate is not None else "",
        max_requests_per_s=rate.max_requests_per_s if rate is not None else None,
        rate_best=rate.best if rate is not None else None, rate_at=rate.at_rate if rate is not None else None,
        rate_judged=rate.judged if rate is not None else None,
        p95_in_flight=p95_in_flight(job, s),
        meets_rate=None,
        cross_node_tp_s=_cross_node_tp_s(job, s),
        cross_node_allreduce_s=s.replica.allreduce_s if crosses_nodes(job.kb.gpus[s.engine.gpu_id], lay.tp) else 0.0,
        kv_pool_tokens=s.replica.pool_tokens, kv_pool_per_gpu_bytes=s.replica.pool_gpu,
        kv_pool_room_per_gpu_bytes=s.replica.pool_room_gpu,
    )


def _cross_node_tp_s(job: Any, s: Serving) -> float:
    """Seconds of a single sequence's decode step that its tensor-parallel all-reduces spend crossing the
    network, where the copy's tensor parallel spans nodes (a pinned ``tp`` wider than a node): the figure the
    rule warning of it quotes. 0 inside a node."""
    if not crosses_nodes(job.kb.gpus[s.engine.gpu_id], s.layout.tp):
        return 0.0
    return tp_allreduce_seconds(consts(job, s.engine, s.replica))
