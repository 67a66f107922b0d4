"""One continuous-batching step of a copy: linear layers, attention, communication and fixed costs."""

from __future__ import annotations

import math
from typing import Any

from ...frozen import frozen
from .engine import Engine, _kept
from .layout import Replica

ACT_BYTES = 2.0  # activations exchanged between GPUs are 16-bit
# Kernels a layer runs beyond a dense GQA layer's (whose fixed cost is the framework's layer overhead),
# each charged the framework's kernel floor: the latency floor of MoE, MLA and W8A8 layers.
ROUTER_KERNELS = 4  # router GEMM, top-k (soft-max / sigmoid + bias), token sort/alignment, weighted combine
SHARED_EXPERT_KERNELS = 3  # the shared expert's gate/up and down GEMMs and its activation, beside the routed ones
MLA_EXTRA_KERNELS = 6  # q down-projection + norm, latent norm, the absorbed q/v batched GEMMs, split-KV combine
QUANT_KERNELS_DENSE = 4  # W8A8: the activations of qkv, o, gate/up and down are quantized before each GEMM
QUANT_KERNELS_MOE = 2  # ... and before each grouped expert GEMM
QUANT_KERNELS_MLA = 2  # ... and before MLA's extra projections
W8A8 = ("fp8", "int8")  # Blackwell FP4 MoE kernels fuse the activation quantization (FlashInfer TRT-LLM-gen)

# --------------------------------------------------------------------------------- step
@frozen
class Step:
    """Seconds of one step of a copy, by part (per GPU, all stages)."""

    seconds: float
    gemm: float
    attention: float
    comm: float
    overhead: float
    bound: str  # what limits the linear layers: "memory" or "compute"
    weight_bytes_gpu: float
    kv_bytes_gpu: float
    flops_gpu: float


def step(job: Any, eng: Engine, rep: Replica, decode: float, prefill: float, kv_ctx: float,
         prefill_ctx: float) -> Step:
    """One step that decodes ``decode`` sequences (mean context ``kv_ctx``) and processes ``prefill``
    prompt tokens (mean attended length ``prefill_ctx``) on one copy."""
    sc = eng.sc
    lay = rep.layout
    tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
    m = pp if (pp > 1 and eng.fw.split == "tensor") else 1  # micro-batches in flight
    tokens = (decode + prefill) / m
    d_mb, p_mb = decode / m, prefill / m
    mbytes = eng.mbytes
    ranks = tp * dpa
    # dense linear layers (attention projections, dense/shared MLPs, head), then the routed experts:
    # separate operators, each at its own roof (the experts' few tokens each keep them memory-bound longer)
    w_gpu = mbytes.dense_read / pp / (1 if dpa > 1 else tp)
    flops = 2.0 * (sc.n_active - sc.n_experts_active) * tokens / ranks / pp
    t_mem = w_gpu / eng.bw_weights
    t_fl = flops / eng.peak_gemm
    gemm = linear_time(t_mem, t_fl)
    if sc.moe and mbytes.experts:
        cov = 1.0 - (1.0 - sc.k_over_e) ** tokens if tokens > 0 else 0.0
        w_exp = mbytes.experts / pp / (ep if ep > 1 else tp) * cov
        per_expert = tokens * sc.k_over_e / cov if cov > 0 else 0.0  # tokens each touched expert receives
        tile = eng.expert_tile
        padded = math.ceil(per_expert / tile) * tile if per_expert > 0 else 0.0
        f_exp = 2.0 * sc.n_experts_active * tokens / ranks / pp * (padded / per_expert if per_expert > 0 else 0.0)
        e_mem, e_fl = w_exp / eng.bw_weights, f_exp / eng.peak_gemm
        gemm += linear_time(e_mem, e_fl)
        w_gpu += w_exp
        flops += f_exp
        t_mem, t_fl = t_mem + e_mem, t_fl + e_fl
    layers = sc.layers / pp
    seqs_gpu = d_mb / dpa if dpa > 1 else d_mb
    kv_gpu = rep.kv_token_gpu * _kept(sc, kv_ctx) * seqs_gpu
    attn_fl = 4.0 * layers * (sc.attn_width * kv_ctx * d_mb + sc.attn_width_prefill * prefill_ctx * p_mb) / ranks
    attention = max(kv_gpu / eng.bw_kv, attn_fl / eng.peak_attn)
    comm = 0.0
    if tp > 1 and dpa == 1:
        size = tokens * sc.hidden * ACT_BYTES
        comm += 2 * layers * (eng.allreduce_latency + 2 * (tp - 1) / tp * size / rep.link_bw)
    if ep > 1:  # dispatch and combine: every token to its k experts' ranks and back
        size = 2 * (tokens / dpa) * sc.k * sc.hidden * ACT_BYTES * (ep - 1) / ep
        comm += sc.moe_layers / pp * (2 * eng.alltoall_latency + size / rep.ep_bw)
    if pp > 1:
        comm += rep.hop_latency + tokens * sc.hidden * ACT_BYTES / rep.hop_bw
    over = layers * eng.layer_overhead + floor_per_step(eng) / pp
    stage = gemm + attention + comm + over
    host = eng.step_overhead + eng.seq_overhead * (decode / dpa if dpa > 1 else decode)
    total = pp * stage + host
    return Step(total, pp * gemm, pp * attention, pp * comm, pp * over + host,
                "memory" if t_mem >= t_fl else "compute", w_gpu, kv_gpu, flops)


def linear_time(mem: float, comp: float) -> float:
    """Seconds of a linear layer that streams ``mem`` seconds of weights and does ``comp`` seconds of
    tensor-core work: their sum. A serving GEMM has few token rows per weight tile, so each tile's math
    waits for its load and the two do not hide each other: the non-overlapping case of the
    Execution-Cache-Memory model (Treibig & Hager, "Introducing a Performance Model for Bandwidth-Limited
    Loop Kernels", PPAM 2009; hpc.fau.de/research/ecm), in which runtime is a sum of contributions rather
    than the roofline's maximum. Far from the ridge
    point the larger term is the whole; at it a GEMM reaches half of either roof."""
    return mem + comp


DENSE_LAYER_KERNELS = 12  # norm, QKV GEMM, RoPE, cache write, attention, output GEMM, all-reduce, norm,
# gate/up GEMM, activation, down GEMM, all-reduce: a dense GQA layer's kernels in a PyTorch engine


def kernels_per_forward(eng: Engine) -> float:
    """Kernels one forward pass launches: a dense layer's per layer plus the extra kernels and grouped
    GEMMs of :func:`floor_per_step` (MoE routing, MLA, activation quantization), all stages."""
    kernels, grouped = _extra_kernels(eng)
    return DENSE_LAYER_KERNELS * eng.sc.layers + kernels + grouped


def prefill_host(eng: Engine) -> float:
    """Seconds of host time a prefill forward needs when it runs outside CUDA graphs (the framework's
    ``prefill_eager_kernel_us``; 0 under graphs or a compiled runtime): a forward cannot finish before
    its last kernel is launched, so a short prompt's prefill is launch-bound, whatever the GPU."""
    return eng.eager_kernel * kernels_per_forward(eng) if eng.eager_kernel else 0.0


def _extra_kernels(eng: Engine) -> tuple[float, float]:
    """(small kernels beyond a dense layer's, grouped expert GEMMs) of one forward, all stages."""
    sc = eng.sc
    kernels = 0.0
    # layer-split engines (llama.cpp, ExLlama) quantize activations inside the per-layer overhead they are measured with
    w8a8 = eng.compute in W8A8 and not eng.weight_only and eng.fw.split != "layer"
    if w8a8:
        kernels += QUANT_KERNELS_DENSE * sc.layers
    if sc.mla:
        kernels += (MLA_EXTRA_KERNELS + (QUANT_KERNELS_MLA if w8a8 else 0)) * sc.layers
    grouped = 0.0
    if sc.moe and sc.moe_layers:
        shared = SHARED_EXPERT_KERNELS if sc.shared and not eng.fuses_shared else 0
        per = ROUTER_KERNELS + shared + (QUANT_KERNELS_MOE if w8a8 else 0)
        kernels += per * sc.moe_layers
        grouped = 2.0 * sc.moe_layers
    return kernels, grouped


def floor_per_step(eng: Engine) -> float:
    """Seconds of one step's kernels beyond a dense layer's, all stages: MoE routing and the grouped
    GEMMs' fixed time per MoE layer, MLA's extra projections, and the activation quantization of W8A8
    paths, each small kernel at the framework's floor."""
    kernels, grouped = _extra_kernels(eng)
    return kernels * eng.kernel_floor + grouped * eng.grouped_floor


def token_time(job: Any, eng: Engine, rep: Replica, decode: float, kv_ctx: float, prefill: float = 0.0,
               prefill_ctx: float = 0.0) -> float:
    """Seconds per output token of each of ``decode`` sequences in a step that also carries ``prefill``
    prompt tokens. Plain decoding: the step. With speculative decoding (``eng.spec``): the verify step,
    which runs each sequence's ``k`` drafted tokens beside its own (attending its context), plus the
    drafter's ``k`` passes, over the tokens a step yields, (1 - a^(k+1)) / (1 - a)."""
    spec = eng.spec
    if spec is None or decode <= 0:
        return step(job, eng, rep, decode, prefill, kv_ctx, prefill_ctx).seconds
    drafted = decode * spec.k
    ctx = (drafted * kv_ctx + prefill * prefill_ctx) / (drafted + prefill)
    verify = step(job, eng, rep, decode, prefill + drafted, kv_ctx, ctx).seconds
    return (verify + draft_time(job, eng, rep, decode, kv_ctx)) / spec.tokens_per_step


def draft_time(job: Any, eng: Engine, rep: Replica, decode: float, kv_ctx: float) -> float:
    """The drafter's seconds per step: ``k`` passes, each ``draft_layers`` of the target's layers (MTP,
    EAGLE: one decoder layer at the target's width) or a draft model's share of the target's active
    parameters, priced at what the target's plain decode step costs per layer or per parameter
    (its host work excepted: the drafter runs inside the same scheduler step). N-gram lookup: nothing."""
    spec = eng.spec
    if spec is None:
        return 0.0
    lay = rep.layout
    plain = step(job, eng, rep, decode, 0.0, kv_ctx, 0.0).seconds
    host = eng.step_overhead + eng.seq_overhead * (decode / lay.dp_attention if lay.dp_attention > 1 else decode)
    device = max(plain - host, 0.0)
    if spec.draft_params:
        share = spec.draft_params / max(eng.sc.n_active, 1.0)
    else:
        share = spec.draft_layers / max(eng.sc.layers, 1)
    return spec.k * share * device
