"""Compute: training FLOPs and time, and the dense peaks a precision runs at.

* Training FLOPs = 6 x N x D for full training (forward 2ND + backward 4ND), where N counts
  the parameters a token is multiplied through (the input embedding is a lookup, the
  output head a matmul; MoE: active experts only), plus causal attention 6 x layers x
  seq x hidden per token. LoRA/QLoRA skip the frozen weights' gradients: 4ND. Gradient
  checkpointing recomputes the forward: +2ND. (Kaplan et al. 2020; Chowdhery et al. 2022,
  PaLM appendix B; Korthikanti et al. 2022 for recomputation.)
* Time = FLOPs / (GPUs x dense peak x MFU x scaling efficiency).

Decode, prefill and serving (a batch's step, TTFT, TPOT, throughput at a load, per framework)
are modelled in ``estimators/serving/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..frozen import frozen
from ..inputs.shape import Shape
from ..messages import formula, formula_text, template
from . import Term

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu


def attention_width(shape: Shape) -> float:
    """The width a token's causal attention multiplies through, per layer and context position: heads x head_dim,
    half for the QK product and half for PV. Multi-head latent attention trains in its uncompressed form, where a
    head's query and key are qk_nope + qk_rope wide (128 + 64 in DeepSeek-V2/V3) and its value v_head_dim (128)
    wide (DeepSeek-V2, arXiv:2405.04434, section 2.1.3), so the width is heads x (nope + rope + v) / 2: 20,480
    for DeepSeek-V3 where heads x head_dim gives 16,384."""
    if shape.mla:
        _, _, rope, nope, v = shape.mla
        return shape.heads * (nope + rope + v) / 2.0
    return shape.q_width_mean  # q_dim, or the mean over layers where global layers have wider heads (Gemma 4)


def attended_span(shape: Shape, seq: int) -> float:
    """The sequence length causal attention costs per layer on average (``seq`` for global attention: the 6 L s h
    of :func:`training_flops`, half of a full mask's 12). A local-attention layer's query attends at most
    ``attention_window`` keys: over s positions sum(min(p, W)) = W s - W (W - 1) / 2, against s (s + 1) / 2 for a
    global layer, so its span is 2W - W^2/s where s > W (FlashAttention-2 computes only the key blocks inside the
    window: n_block_min from window_size_left, csrc/flash_attn/src/flash_fwd_kernel.h; README 2.3, 'Local (i.e.,
    sliding window) attention'). ``window_layers_fraction`` of the layers are local, the rest global (Olmo 3:
    pattern [4096, 4096, 4096, -1], allenai/OLMo-core src/olmo_core/nn/transformer/config.py olmo3_7B)."""
    w = shape.attention_window
    if not w or seq <= w:
        return float(seq)
    f = shape.q_window_share  # the windowed layers' share of the query width (of the layers, unless it differs)
    return (1 - f) * seq + f * (2.0 * w - w * w / seq)


def sparse_attention_terms(shape: Shape, seq: int) -> tuple[float, float, float] | None:
    """A DSA model's (attended span, attention width, indexer width) for :func:`training_flops`; None for dense
    attention. Each query attends the top-k tokens its lightning indexer picks, min(p, k) at position p, so over s
    positions the span is 2k - k^2/s as a window's (:func:`attended_span`); DeepSeek-V3.2 runs DSA on MLA's MQA mode
    (the DeepSeek-V3.2-Exp technical report, section 2.1: every query head attends the shared 576-wide latent entry
    and reads 512 of it as value), kv_lora + rope + kv_lora over 2 a head; the indexer scores every earlier token, one
    FP8 dot of index_head_dim a head, index heads x index head dim / 2 wide over the whole causal span. Priced as the
    sparse training stage throughout (the report's section 2.2: a dense warm-up of 1,000 steps x 16 x 128K = 2.1B
    tokens, then 943.7B sparse; the warm-up is not priced apart). Only the layers that keep an indexer score the
    context (IndexShare: the others reuse the last such layer's top-k), so the indexer width is theirs, taken over
    every layer (x their share, :attr:`Shape.indexer_share`)."""
    sa = shape.sparse_attn
    if not sa or not shape.mla:
        return None
    heads, dim, k, _ = sa
    _, kv_rank, rope, _, _ = shape.mla
    span = float(seq) if seq <= k else 2.0 * k - k * k / seq
    return span, shape.heads * (2.0 * kv_rank + rope) / 2.0, heads * dim / 2.0 * shape.indexer_share


def sac_op_supported(shape: Shape) -> bool:
    """Whether :func:`sac_op_recomputed_params` can count a layer of ``shape``: a dense decoder whose attention
    runs separate q, k, v and output projections (no MLA, no routed experts, no recurrent or state-space mixer, one
    attention form in every layer)."""
    return not (shape.moe or shape.mla or shape.ssm or shape.recurrent or shape.global_attn or shape.sparse_attn
                or shape.diffusion)


def sac_op_recomputed_params(shape: Shape) -> float:
    """Weights of one layer whose matmul the backward runs again under per-op selective activation checkpointing
    (torchtitan's ``selective_ac_option = 'op'``: torchtitan/models/llama3/parallelize_llama.py at 820504e,
    ``_save_list`` and ``_custom_policy``). The policy counts a block's ``aten.mm`` calls in call order and saves
    the output of every odd one (with attention's and the reduce-scatters'), recomputing the even ones: of a Llama
    block's wq, wk, wv, wo, then w1, w3, w2 (gated MLP: w2(silu(w1 x) * w3 x)) or w1, w2 (two matrices), the k
    projection (hidden x kv_dim), the output projection (q_dim x hidden) and the MLP's second matmul (hidden x
    ffn: w3, or a two-matrix MLP's w2)."""
    return float(shape.hidden * shape.kv_dim + shape.q_dim * shape.hidden + shape.hidden * shape.ffn)


def sac_op_saved_elements(shape: Shape, tp: int = 1) -> float:
    """Elements a token a layer that per-op selective checkpointing keeps on one GPU for the backward (the policy
    of :func:`sac_op_recomputed_params`): the block's input (hidden, which the checkpoint keeps), the outputs of the
    odd matmuls (wq: q_dim, wv: kv_dim, w1: ffn, and a gated MLP's w2: hidden; a two-matrix MLP's w2 is the sixth,
    recomputed) and attention's output (q_dim). With tensor parallelism (torchtitan's sequence-parallel plan) the
    block's input is sequence-sharded, the column-parallel outputs split by the ranks, and the two reduce-scatters'
    outputs (hidden each, sequence-sharded) are saved too; a gated MLP's w2 is row-parallel, so the output the
    policy saves is its whole-sequence partial sum before the reduce-scatter, not divided by the ranks."""
    gated = shape.hidden if shape.mlp_matrices == 3 else 0
    split = shape.hidden + 2 * shape.q_dim + shape.kv_dim + shape.ffn
    if tp <= 1:
        return float(split + gated)
    return (split + 2 * shape.hidden) / tp + gated


def training_flops(shape: Shape, tokens: float, seq: int, method: str, checkpointing: bool) -> Term:
    n = min(shape.matmul_params_active, shape.active_params)  # a guessed shape never adds FLOPs
    span = attended_span(shape, seq)
    attn = 6.0 * shape.attn_layers * span * attention_width(shape)  # causal: half of the 12 L s h of a full mask
    sparse = sparse_attention_terms(shape, seq)
    if sparse:  # DSA: the top-k tokens in MLA's MQA form, and the indexer over every earlier token
        span = sparse[0]
        attn = 6.0 * shape.attn_layers * (span * sparse[1] + seq * sparse[2])
    if method == "full":
        mult, what = 6.0, formula("formula.multiplier.full")
    else:
        mult, what = 4.0, formula("formula.multiplier.frozen")
    if checkpointing:
        mult += 2.0
        what += formula("formula.multiplier.checkpointing", " + ")
    # attention's score and value products have no weights: their backward (the gradients of Q, K and V, twice the
    # forward's FLOPs) runs whether or not the weights train, so frozen weights leave attention at the full 6 (8 with
    # recomputation); only the linear layers drop their weight gradients (FlashAttention's backward: dQ, dK, dV from
    # dO, Dao et al. 2022, arXiv:2205.14135, section 3.1)
    att_mult = 6.0 + (2.0 if checkpointing else 0.0)
    shared = sparse is not None and shape.indexer_layers != shape.attn_layers  # IndexShare: fewer indexer layers
    attention = formula("formula.attention_per_token_sparse_shared" if shared else "formula.attention_per_token_sparse"
                        if sparse else "formula.attention_per_token" if span == seq
                        else "formula.attention_per_token_windowed", multiplier=att_mult,
                        **({"indexer_layers": shape.indexer_layers} if shared else {}))
    # a checkpointed run recomputes its decoder layers' forward, not the output head's: the checkpoint wraps each layer
    # (transformers GradientCheckpointingLayer, torchtune's per-layer activation checkpointing, Megatron-Core's
    # TransformerBlock, torchtitan's TransformerBlock), and the head and loss run after the last one, so their
    # activations are kept. Published steps with and without it agree (HF Trainer bert-large 1.29x, torchtune Llama 3.2
    # 3B 1.27x, ms-swift Qwen-7B LoRA 1.44x: tests/test_recompute_pairs.py)
    head = min(n, shape.embedding_params) if checkpointing else 0.0
    per_token = mult * n - 2.0 * head + attn * (att_mult / 6.0)
    return Term(
        "training_flops", per_token * tokens, "FLOP",
        formula("formula.training_flops_recomputed" if head else "formula.training_flops"),
        {"tokens": tokens, "matmul_params": n, "multiplier": mult, "multiplier_is": formula_text(what),
         **({"head_params": head} if head else {}),
         "layers": shape.attn_layers, "seq": seq, "attention_flops_per_token": attn * att_mult / 6.0,
         "attention_formula": formula_text(attention),
         **({"attended_span": span, "attention_window": shape.attention_window,
             "window_layers_fraction": shape.window_layers_fraction} if span != seq and not sparse else {}),
         **({"attended_span": span, "top_k": shape.sparse_attn[2], "attention_width": sparse[1],
             "indexer_width": sparse[2]} if sparse else {}),
         **({"indexer_layers": shape.indexer_layers} if shared else {})},
        input_phrases={"multiplier_is": what, "attention_formula": attention},
    )


@frozen
class Peak:
    tflops: float
    kind_id: str  # which datasheet figure was used: a message id of reports/messages.yaml (peak.*)

    @property
    def kind(self) -> str:
        """The datasheet figure used, in English ("bf16 tensor")."""
        return template(self.kind_id)


def generation_flops_per_token(shape: Shape) -> Term:
    """FLOPs of one generated token: a multiply and an add per active matmul weight (``estimate``'s
    compute figure for a service; moved here from the command, which only presents it)."""
    return Term("flops_per_generated_token", 2 * shape.matmul_params_active, "FLOP", formula("formula.flops_per_token"),
                {"matmul_params": shape.matmul_params_active})


def serving_mfu(shape: Shape, output_tokens_per_s: float, prompt_tokens: float, output_tokens: float, gpus: int,
                peak_tflops: float) -> float:
    """A service's model FLOPs utilisation at its load: the model FLOPs of the tokens it processes a second (2 x
    active matmul weights a token, Kaplan et al. 2020's forward pass, for each prompt and output token of the
    requests served: output tokens/s / output tokens a request) over the dense peak of every GPU paid for (PaLM's
    MFU, Chowdhery et al. 2022, appendix B). Not the training table's ``runtime.mfu``, which a service's decode,
    bound by memory bandwidth, does not reach (review53: one H100 serving an 8B at 328 tokens/s read 60%)."""
    if output_tokens <= 0 or gpus <= 0 or peak_tflops <= 0:
        return 0.0
    tokens_per_s = output_tokens_per_s / output_tokens * (prompt_tokens + output_tokens)
    return tokens_per_s * 2 * shape.matmul_params_active / (gpus * peak_tflops * 1e12)


def peak_for(gpu: Gpu, precision: str) -> Peak:
    """The dense peak a job in ``precision`` runs at, with graceful fallbacks.

    bf16 without hardware support runs at the FP32 rate (emulated); fp16 without tensor
    cores at the packed-half rate; fp32 matmuls use FP32 (PyTorch disables TF32 for
    matmuls by default since 1.12); fp8 without FP8 units falls back to bf16/fp16.
    """
    p = gpu.peaks
    if precision in ("fp8",):
        if p.fp8:
            return Peak(p.fp8, "peak.fp8_tensor")
        precision = "bf16"
    if precision in ("bf16", "int8", "int4"):
        if p.bf16:
            return Peak(p.bf16, "peak.bf16_tensor")
        if precision != "bf16" and p.fp16:
            return Peak(p.fp16, "peak.fp16_tensor")
        return Peak(p.fp32, "peak.bf16_emulated")
    if precision == "fp16":
        if p.fp16:
            return Peak(p.fp16, "peak.fp16_tensor")
        if p.fp16_nontensor:
            return Peak(p.fp16_nontensor, "peak.fp16_packed")
        return Peak(p.fp32, "peak.fp32")
    return Peak(p.fp32, "peak.fp32")


def training_time(flops: float, gpus: int, peak_tflops: float, mfu: float, efficiency: float,
                  slowdown: float = 1.0) -> tuple[Term, Term]:
    """(GPU-hours, wall hours) for ``flops`` on ``gpus`` GPUs."""
    per_gpu = peak_tflops * 1e12 * mfu * efficiency / slowdown
    wall_s = flops / (gpus * per_gpu)
    inputs = {"flops": flops, "gpus": gpus, "peak_tflops": peak_tflops, "mfu": mfu,
              "scaling_efficiency": efficiency, "slowdown": slowdown}
    wall = Term("wall_hours", wall_s / 3600, "h",
                formula("formula.wall_hours_offload" if slowdown != 1 else "formula.wall_hours"), inputs)
    hours = Term("gpu_hours", wall_s * gpus / 3600, "GPU-h", formula("formula.gpu_hours"), inputs)
    return hours, wall


# Bytes of host memory traffic CPU Adam moves a parameter a step: DeepSpeedCPUAdam (csrc/adam) reads the fp32
# gradient, master weight and both moments and writes the master and both moments back, 7 x 4 B.
HOST_ADAM_BYTES_PER_PARAM = 28


def offload_step_seconds(params_local: float, target: str, *, pcie_gb_s: float, host_gb_s_per_gpu: float,
                         nvme_gb_s_per_gpu: float) -> Term:
    """Seconds one optimizer step spends on offloaded state (ZeRO-Offload / ZeRO-Infinity).

    4 B per parameter cross PCIe (16-bit gradients down, 16-bit weights up); CPU Adam moves
    about 28 B per parameter through host memory (HOST_ADAM_BYTES_PER_PARAM); with NVMe the 16 B of fp32 state per
    parameter is also read and written from the drives.
    """
    pcie = params_local * 4 / (pcie_gb_s * 1e9)
    cpu = params_local * HOST_ADAM_BYTES_PER_PARAM / (host_gb_s_per_gpu * 1e9)
    nvme = params_local * 32 / (nvme_gb_s_per_gpu * 1e9) if target == "nvme" else 0.0
    return Term("offload_seconds", pcie + cpu + nvme, "s",
                formula("formula.offload", adam_bytes=HOST_ADAM_BYTES_PER_PARAM)
                + (formula("formula.offload_nvme", " + ") if nvme else ()),
                {"params_offloaded_per_gpu": params_local, "pcie_gb_s": pcie_gb_s,
                 "host_gb_s_per_gpu": host_gb_s_per_gpu, "nvme_gb_s_per_gpu": nvme_gb_s_per_gpu,
                 "pcie_s": pcie, "cpu_s": cpu, "nvme_s": nvme})


def updates_on_gpu(stack_on_gpu: bool, offload: str) -> bool:
    """Whether an offloaded optimizer's update runs on the GPU: a stack whose offload keeps the state in pinned host
    memory and moves it to the GPU for the update (runtime.yaml training_stacks offload_update device: JAX memory
    kinds, MaxText / Levanter), offloading to the CPU; NVMe is DeepSpeed's ZeRO-Infinity on every stack. The one
    test the planner's step (step_time.offload_parts), its report and the estimate without a plan ask, so that no
    path prices host Adam for a stack that runs none."""
    return stack_on_gpu and offload == "cpu"


def state_round_trip_seconds(state_bytes: float, link_gb_s: float) -> float:
    """Seconds a step spends moving an offloaded optimizer state that updates on the GPU (:func:`updates_on_gpu`):
    to the GPU after the backward and back to pinned host memory after the update, once each way over the host
    link at ``link_gb_s`` a direction (interconnect.host_link_gb_s), exposed: the compiled step puts the copies
    between the backward and the update and after it, and no source times an overlap."""
    return 2 * state_bytes / (link_gb_s * 1e9)


def offload_state_seconds(state_bytes: float, link_gb_s: float, *, offload: str, zero: int) -> Term:
    """:func:`state_round_trip_seconds` as the report's term (formula.offload_state_both_ways), for the estimate
    without a plan; the planner's report builds the same phrase from its step (planner._offload_term)."""
    return Term("offload_seconds", state_round_trip_seconds(state_bytes, link_gb_s), "s",
                formula("formula.offload_state_both_ways"),
                {"state_bytes": state_bytes, "link_gb_s_per_gpu": link_gb_s, "offload": offload, "zero": zero})


# ------------------------------------------------------------------ training at scale (planner)
def width_for_mfu(shape: Shape) -> float:
    """The matmul width that sets how much of a step is memory-bound: the hidden size for dense
    layers; for MoE expert matmuls (hidden x expert width) the harmonic mean of the two, weighted
    by their share of the FLOPs. Memory-bound work scales with 1/width, so widths combine as
    1/w = sum(share_i / w_i). A LatentMoE model's routed experts are latent x expert width, its shared experts
    hidden x expert width and its two projections hidden x latent (:func:`_latent_width`)."""
    h = float(shape.hidden)
    if not shape.moe:
        return h
    if shape.moe_latent:
        return _latent_width(shape)
    attn = shape.attn_params_per_layer()
    experts = shape.experts_per_token + shape.shared_experts
    mlp = shape.mlp_matrices * shape.hidden * shape.ffn * experts
    share = mlp / (attn + mlp) if attn + mlp > 0 else 0.0
    f = float(shape.ffn)
    h_moe = min(h, 2 * h * f / (h + f))
    return 1.0 / ((1 - share) / h + share / h_moe)


def _latent_width(shape: Shape) -> float:
    """:func:`width_for_mfu` of a LatentMoE model: attention at the hidden width; each MoE matmul at the harmonic
    mean of its two sides, capped at the hidden width (the routed experts latent and expert width, the shared ones
    hidden and expert width, the projections hidden and latent), each weighted by its FLOPs a token."""
    h, f, lat = float(shape.hidden), float(shape.ffn), float(shape.moe_latent or shape.hidden)
    parts = ((shape.attn_params_per_layer(), h),
             (shape.mlp_matrices * lat * f * shape.experts_per_token, min(h, 2 * lat * f / (lat + f))),
             (shape.mlp_matrices * h * f * shape.shared_experts, min(h, 2 * h * f / (h + f))),
             (shape.latent_proj_params, min(h, 2 * h * lat / (h + lat))))
    total = sum(n for n, _ in parts)
    return total / sum(n / w for n, w in parts if n > 0) if total > 0 else h


def moe_pass_bytes(shape: Shape, quantized: bool, act_bytes: float = 2.0) -> float:
    """Bytes of memory traffic one routed token row costs an MoE layer's forward and backward outside its expert
    GEMMs, in the kernels that run between them as separate passes (Megatron-Core's MoE layer before the fused
    grouped-GEMM kernels: NVIDIA Technical Blog, 'Boosting MoE Training Throughput with Advanced Fusion Kernels',
    Jun 2026, names the memory-bound activation and the separate quantization pass as what the fusion removes).
    In activation elements of ``act_bytes``: the permutation into expert order and back, a read and a write of the
    hidden-wide row each way, forward and backward (8 hidden); the gated activation reads the 2 x ffn-wide fc1
    output and writes ffn forward, and reads 3 x ffn and writes 2 x ffn backward (8 ffn; an ungated one 5 ffn).
    FP8 / FP4 GEMMs quantize their inputs in their own pass, each element read at 2 B and written twice at 1 B (the
    row-wise and column-wise copies the forward and the weight gradient use): the fc1 and fc2 inputs forward and the
    two output gradients backward, 4 B each (2 hidden + 3 ffn gated, 2 hidden + 2 ffn ungated). The router's
    logits (experts x 4 B a token) are left out: under 1% of the rest for 256 experts of 7,168 hidden. A LatentMoE
    model permutes and quantizes latent-wide rows (:attr:`Shape.expert_width`): its projections run before and after."""
    h, f = float(shape.expert_width), float(shape.ffn)
    gated = shape.mlp_matrices >= 3
    elements = 8.0 * h + (8.0 if gated else 5.0) * f
    quant = 4.0 * (2.0 * h + (3.0 if gated else 2.0) * f) if quantized else 0.0
    return elements * act_bytes + quant


def training_mfu(shape: Shape, gpu: Gpu, arch_mfu: float, peak_tflops: float, *, reference_hidden: float,
                 k: float, k_reference: float | None = None, k_scan: float = 0.0) -> Term:
    """MFU of a training step's compute for this model on this GPU: the architecture's figure for
    a model of ``reference_hidden`` width, scaled by the memory-bound share of narrower (or wider)
    models: MFU = MFU_ref x (1 + k_ref r / ref) / (1 + k r / width), r = peak FLOP/s / bandwidth.
    ``k_reference`` is the memory-bound factor MFU_ref was measured with (the middle stack's);
    ``k`` the job's stack's (smaller where kernels are fused); the same when not given. ``k_scan``: a Mamba-1
    model's selective scan, convolution and gates, or a gated DeltaNet model's chunked delta rule, convolutions and
    gates, work of the same form (its channels scale with the width, the matmuls with its square) that no stack fuses
    into the matmuls, weighted by the layers' share."""
    k_ref = k if k_reference is None else k_reference
    r = peak_tflops * 1e12 / (gpu.memory.bandwidth_gb_s * 1e9)
    w = width_for_mfu(shape)
    value = arch_mfu * (1 + k_ref * r / reference_hidden) / (1 + (k + k_scan) * r / w)
    value = min(value, 0.95)
    # k_ref is shown even when equal to k: a fused-kernel stack pays k < k_ref, and the formula says which is which
    inputs = {"mfu_ref": arch_mfu, "k": k, "k_ref": k_ref, "r_flop_per_byte": r, "ref_width": reference_hidden,
              "width": w, "architecture": gpu.architecture}
    if k_scan > 0:  # only a Mamba-1 or gated DeltaNet model's formula names the scan (the rest read as before)
        return Term("mfu", value, "", formula("formula.mfu_scan"), {**inputs, "k_scan": k_scan})
    return Term("mfu", value, "", formula("formula.mfu"), inputs)


def held_clock_ratio(gpu: Gpu, ref: Gpu, compute: str) -> float:
    """How much faster ``gpu``'s dense GEMMs of ``compute`` precision run than ``ref``'s at the same share of equal
    peaks: the clock each holds through such a GEMM (gpus.yaml ``clocks.dense_gemm_mhz``) as a share of the clock
    its peaks are counted at (``peak_mhz``), the peak already carrying its own clock. The MI300X at 750 W holds 1,230
    MHz in FP8 GEMMs, the MI325X at 1,000 W 1,464, from the same 2,100 MHz peak: 1.19. 1 where either clock is not
    given."""
    if gpu.clocks is None or ref.clocks is None:
        return 1.0
    here, there = gpu.clocks.dense_gemm_mhz.get(compute), ref.clocks.dense_gemm_mhz.get(compute)  # type: ignore[call-overload]
    if not (here and there):
        return 1.0
    return (here / gpu.clocks.peak_mhz) / (there / ref.clocks.peak_mhz)


def gemm_speedup(shape: Shape, gpu: Gpu, peak_tflops: float, *, gemm: float, k: float) -> float:
    """End-to-end speed-up of a step whose matmuls run ``gemm`` times faster while its memory-bound share (x = k r /
    width, as in :func:`training_mfu`) does not: (1 + x) / (1 / gemm + x)."""
    x = k * (peak_tflops * 1e12 / (gpu.memory.bandwidth_gb_s * 1e9)) / width_for_mfu(shape)
    return (1 + x) / (1 / gemm + x)


def fp8_speedup(shape: Shape, gpu: Gpu, peak_tflops: float, *, gemm_speedup: float, k: float) -> Term:
    """End-to-end speed-up of FP8 over BF16 compute: the matmuls run ``gemm_speedup`` times faster,
    the memory-bound share of the step (x = k r / width, as in :func:`training_mfu`) does not."""
    r = peak_tflops * 1e12 / (gpu.memory.bandwidth_gb_s * 1e9)
    x = k * r / width_for_mfu(shape)
    value = (1 + x) / (1 / gemm_speedup + x)
    return Term("fp8_speedup", value, "", formula("formula.fp8_speedup"),
                {"fp8_gemm_speedup": gemm_speedup, "x_memory_bound_over_matmul": x})


def attention_rate_at_length(kernel_rate: float, span: float, causal_length: float, read_at: float) -> float:
    """A causal attention kernel's rate at an attended length ``span``, from its rate at the length its figure was
    read at (``read_at``): s / (s + c) of its unbounded-length rate (runtime.yaml training.attention_kernels
    causal_length_tokens, c), so (s / (s + c)) / (L / (L + c)) of the figure's."""
    if causal_length <= 0 or span <= 0:
        return kernel_rate
    return kernel_rate * (span / (span + causal_length)) / (read_at / (read_at + causal_length))


def attention_kernel_factor(shape: Shape, seq: int, method: str, rate: float, attention_rate: float) -> Term:
    """Time of a step's compute over what it takes with attention at the GEMMs' rate: causal attention's share of
    the FLOPs (a = attention / (6N + attention) per token, the same with recomputation) runs at ``attention_rate``,
    the kernel's (step_time.gpu_speed: where that is the slower, FlashAttention-2 on Hopper, attention kept in 16 bits
    under FP8 or FP4 GEMMs, a head dim between the kernel's compiled widths at the next one's cost; where the kernel
    at the run's length outruns the GEMMs of a narrow model, a LoRA or a slow stack, its rate at that length):
    1 - a + a x rate / attention rate."""
    f = training_flops(shape, 1.0, seq, method, False)
    a = f.inputs["attention_flops_per_token"] / f.value if f.value > 0 else 0.0
    slower = rate / attention_rate if attention_rate > 0 else 1.0
    return Term("attention_kernel_factor", 1 - a + a * slower, "", formula("formula.attention_kernel"),
                {"attention_share": a, "gemm_flop_s": rate, "attention_flop_s": attention_rate})


def ssd_kernel_factor(shape: Shape, seq: int, method: str, rate: float, ssd_rate: float) -> float:
    """Time of a step's compute over its matmuls' and attention's alone, for a Mamba-2 model whose SSD chunk kernels
    run at ``ssd_rate``: their FLOPs (6 per multiply-add of :attr:`Shape.ssd_macs_per_token`, forward and a backward
    of twice it, whether or not the weights train: they have none) are not in the step's count, so they add
    1 + s x rate / ssd_rate, s their share of it (runtime.yaml training.ssd_kernel_utilization)."""
    macs = shape.ssd_macs_per_token
    if macs <= 0 or ssd_rate <= 0:
        return 1.0
    f = training_flops(shape, 1.0, seq, method, False).value
    return 1.0 + 6.0 * macs / f * rate / ssd_rate if f > 0 else 1.0


# Bytes of memory traffic one attention score costs a training step when attention runs unfused (Transformer Engine's
# UnfusedDotProductAttention: a batched GEMM writes the scores, a fused masked-softmax kernel reads them and writes the
# probabilities, a second GEMM reads those; transformer_engine/pytorch/attention.py and softmax.py at v2.2), in 16
# bits: forward 2 + 2 + 2 + 2; backward, the probabilities' gradient written (2), the softmax backward reading the
# probabilities and their gradient and writing the scores' (6), the value gradient's GEMM reading the probabilities
# (2) and the query and key gradients' GEMMs the scores' gradient (2 + 2): 22 B for every one of the s x s scores a
# head computes (the full square: the causal mask is applied to it, not skipped).
UNFUSED_SCORE_BYTES = 22.0
# The same traffic when a Hugging Face transformers model trains with attn_implementation "eager" (workload.attention
# eager): eager_attention_forward (huggingface/transformers src/transformers/models/qwen2/modeling_qwen2.py at
# 00d4b3d2, the model the held-out row H944 trains) runs each step as its own PyTorch operator over the s x s
# scores, with the softmax in fp32. Forward: the Q K^T GEMM writes the scores (2), '* scaling' reads and writes them
# (4), '+ causal_mask' the same (4; the mask, shared by the heads, not counted), softmax(dtype=float32) reads 16 bits
# and writes 32 (6), '.to(query.dtype)' reads 32 and writes 16 (6), dropout at p 0.0 returns its input (the model's
# attention_dropout), the P V GEMM reads the probabilities (2): 24 B. Backward, autograd in reverse: the P V GEMM
# writes the probabilities' gradient (2) and reads the probabilities for the value gradient (2), the cast's backward
# reads 16 bits and writes 32 (6), the softmax backward reads its saved fp32 output and the fp32 gradient and writes
# the fp32 input gradient (12), cast back to the scores' 16 bits (6), the mask add passes it through, the scaling
# reads and writes it (4), and the query and key gradients' GEMMs read it (2 + 2): 36 B. 60 B a score.
EAGER_SCORE_BYTES = 60.0


def unfused_attention_rate(shape: Shape, bandwidth_b_s: float, score_bytes: float = UNFUSED_SCORE_BYTES) -> float:
    """FLOP/s (counted as :func:`training_flops` counts causal attention, 6 x seq x width a token and layer) that
    unfused attention reaches when its score traffic (``score_bytes``, :data:`UNFUSED_SCORE_BYTES` or
    :data:`EAGER_SCORE_BYTES`, for each of seq scores a head, a token and layer) sets its time at ``bandwidth_b_s``:
    6 x width x bandwidth / (heads x bytes). Its GEMMs, whose inner dimension is a head's width, do fewer FLOPs a
    byte of scores than the GPU's peak over its bandwidth."""
    return 6.0 * attention_width(shape) * bandwidth_b_s / (shape.heads * score_bytes)


def optimizer_step_seconds(params: float, bytes_per_param: float, bandwidth_gb_s: float, efficiency: float) -> float:
    """The optimizer step is memory-bound: every parameter it updates moves ``bytes_per_param``."""
    return params * bytes_per_param / (bandwidth_gb_s * 1e9 * efficiency) if params > 0 else 0.0


def goodput(gpus: int, failures_per_gpu_hour: float, hours_lost_per_failure: float, whole_run: float = 1.0
            ) -> Term:
    """Share of wall time spent training at the steady-state rate: ``whole_run`` for what every run
    loses (evaluations, checkpoints, stalls), and interruptions that arrive in proportion to the GPU
    count, each costing a restart and the work since the last checkpoint (Llama 3 paper, 3.3.4)."""
    lost = gpus * failures_per_gpu_hour * hours_lost_per_failure
    return Term("goodput", whole_run / (1 + lost), "",
                formula("formula.goodput"),
                {"gpus": gpus, "failures_per_gpu_hour": failures_per_gpu_hour,
                 "hours_lost_per_failure": hours_lost_per_failure, "whole_run_efficiency": whole_run})
