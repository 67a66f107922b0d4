"""Memory per GPU: weights, gradients, optimizer state, activations, KV cache, overhead.

The layouts modelled (name them when you read a figure):

* ``torch-amp`` — PyTorch autocast (HF Trainer ``bf16=True``), no ZeRO: fp32 weights (4 B),
  fp32 gradients (4 B), fp32 Adam moments (8 B); autocast caches a bf16 copy of every
  matmul weight during forward/backward. ``torch.optim.AdamW``'s default multi-tensor
  step allocates one param-sized fp32 temporary (measured: 20 B/param at the first step);
  ``fused=True`` does not.
* ``torch-pure`` — everything in the training precision (bf16 AdamW: 2+2+4 = 8 B/param).
* ``deepspeed`` — ZeRO 1/2/3 with mixed precision: bf16 weights and gradients plus an
  fp32 master copy and fp32 moments (2+2+4+8 = 16 B/param); stage 1 shards the 12 B of
  optimizer state, stage 2 also the gradients, stage 3 also the weights, across the
  data-parallel GPUs. Offload moves the optimizer state (stage 3: the weights too) to
  host RAM or NVMe.

Activations are the tensors autograd saves for backward in the Hugging Face Llama/
Mistral implementation, counted per token and layer from the ops (RMSNorm, projections,
RoPE, SDPA, SwiGLU) and checked with PyTorch's MemTracker (torch 2.13, transformers 5.24):

    saved bytes per token per layer = c_h * hidden + c_kv * kv_dim + c_f * ffn

with (c_h, c_kv, c_f) = (30, 8, 8) under autocast with fp32 weights, (20, 4, 8) in pure
16-bit, and for a frozen 16-bit base with LoRA adapters (16.5, 4, 6) on q/v,
(20.8, 4, 6) on q/k/v/o and (27.3, 4, 8) on all linear layers. Eager attention adds the
b x heads x s^2 score matrices (6 B per element: fp32 softmax output and its bf16 copy).
The loss upcasts logits to fp32: log-softmax keeps 4 B x vocab per token and its
backward briefly needs 8 B more (Korthikanti et al. 2022 give the same structure for
Megatron's layers: "Reducing Activation Recomputation in Large Transformer Models").
Gradient checkpointing keeps each layer's input and recomputes one layer at a time.
A stack may state its own (runtime.yaml training_stacks): fused layers that save what Korthikanti et al.
count, held in Megatron's layout at any layout (layer_activations: llm.c, nanochat, litgpt, Fast-LLM), the
loss's bytes a vocabulary entry (loss_bytes_per_vocab: llm.c 2, nanochat 4, Fast-LLM 4, litgpt 6, Megatron 6)
and the gradients' (gradient_bytes: llm.c's bf16 gradients).
"""

from __future__ import annotations

import math
from dataclasses import field, replace
from typing import Literal

from ..frozen import frozen
from ..inputs.shape import Shape
from ..messages import Phrase, formula, formula_text, phrase_text, template
from ..results import MEMORY_PARTS
from . import Term
from .compute import sac_op_saved_elements
from .stage_split import expert_shards, expert_split, stage_params  # noqa: F401 (expert_split: read here too)

BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}

# (c_h, c_kv, c_f): saved activation bytes per token per layer (see module docstring)
ACT_COEFF = {
    "amp": (30.0, 8.0, 8.0),
    "pure16": (20.0, 4.0, 8.0),
    "pure32": (40.0, 8.0, 16.0),
    # Megatron-Core with Transformer Engine (fused norms and SwiGLU, flash attention), counted the way
    # Korthikanti et al. 2022 (Table 2) count a layer: norm inputs 2 x 2h, QKV input 2h, q/k/v 2h + 4 kv,
    # attention output 2h, MLP input 2h, gate/up outputs 2 x 2f, SwiGLU output 2f; no dropout masks
    "megatron": (12.0, 4.0, 6.0),
    # the same layer under FP8 (Transformer Engine): each GEMM saves the FP8 copy of its input (1 B) for the
    # backward's weight gradient (TE Linear/LayerNormLinear/LayerNormMLP keep the casted input, not the bf16 one):
    # QKV input 2h -> h, MLP input 2h -> h, SwiGLU output 2f -> f; the attention output stays bf16 for the flash
    # attention backward and its FP8 copy feeds the projection (2h + h). Norm inputs, q/k/v and the gate/up
    # outputs stay 16-bit
    "megatron-fp8": (11.0, 4.0, 5.0),
    "lora-qv": (16.5, 4.0, 6.0),
    "lora-attention": (20.8, 4.0, 6.0),
    "lora-all-linear": (27.3, 4.0, 8.0),
    # LoRA on Megatron-Core with Transformer Engine: TE keeps a GEMM's input only when its weight trains (linear.py:
    # backward_needs_input = is_grad_enabled and weight.requires_grad), so frozen GEMMs without adapters save none:
    # adapters on attention leave the MLP input (2h) and SwiGLU output (2f) unkept; on every linear: full training's
    "megatron-lora-qv": (10.0, 4.0, 4.0),
    "megatron-lora-attention": (10.0, 4.0, 4.0),
    "megatron-lora-all-linear": (12.0, 4.0, 6.0),
}
EAGER_SAVED_PER_SCORE = 6.0  # fp32 softmax output + bf16 probabilities, per b*heads*s^2 element
LORA_RANK_BYTES = 10.0  # per rank per adapted module per token (adapter intermediates)
LOGITS_SAVED = 4.0  # fp32 log-softmax output per vocab entry per token
LOGITS_TEMP = 8.0  # its backward: two more fp32 tensors of the same size


@frozen
class TrainSetup:
    """What the memory of one training step depends on, besides the model shape."""

    method: Literal["full", "lora", "qlora"]
    precision: str  # fp32 | fp16 | bf16 | fp8
    mixed: bool
    optimizer: str
    batch: int
    seq: int
    checkpointing: bool
    attention: str
    zero: int
    offload: str
    dp: int  # data-parallel GPUs the ZeRO stages shard across
    lora_rank: int = 16
    lora_targets: str = "all-linear"
    # model parallelism (a layout of gpuwise/estimators/planner.py); all 1 = one model copy per GPU
    tp: int = 1  # tensor parallel (with sequence parallelism: activations split too)
    pp: int = 1  # pipeline stages
    ep: int = 1  # expert parallel (MoE), carved out of the data-parallel GPUs
    etp: int = 0  # expert tensor parallel (MoE; stage_split.expert_split): 0, Megatron-LM's default
    cp: int = 1  # context parallel: the sequence split across GPUs
    inflight: float = 1.0  # micro-batches whose activations the first pipeline stage holds
    base_format: str | None = None  # LoRA: storage format of the frozen base (int8 / int4 = quantized)
    ce_chunks: int = 0  # chunked cross-entropy (torchtune): fp32 logits one chunk at a time; 0 = off
    ce_cut: bool = False  # cut cross-entropy (apple/ml-cross-entropy): the loss keeps no logits
    bucket_bytes: float = 1e9  # offload: the gradient bucket a GPU keeps while gradients stream to the host
    loss_bytes: float = 0.0  # bytes per vocab entry per token the stack's loss holds (0: LOGITS_SAVED + LOGITS_TEMP)
    te: bool = False  # Megatron-Core layers with Transformer Engine (runtime.yaml training_stacks transformer_engine)
    # full training: the stack's layers save what Korthikanti et al. count, held as Megatron lays out its states
    # (runtime.yaml training_stacks layer_activations: llm.c, nanochat, litgpt)
    fused_layers: bool = False
    grad_bytes: float = 0.0  # bytes a parameter's gradient takes (0: the layout's; runtime.yaml gradient_bytes)
    recompute: float = 0.0  # without checkpointing: share of each stage's layers recomputed in full (block method)
    shard_group: int = 0  # hybrid sharding: the GPUs one ZeRO group spans (cp included); 0: all dp x cp of them
    sac_op: bool = False  # per-op selective checkpointing: a layer keeps compute.sac_op_saved_elements, one its rest

    @property
    def model_parallel(self) -> bool:
        return self.tp * self.pp * self.ep * self.cp > 1

    @property
    def megatron_layout(self) -> bool:
        """Memory as Megatron holds it (:func:`parallel_bytes`): any model-parallel layout, and every layout
        of a Megatron-Core / Transformer Engine stack (one GPU or plain data parallel included), and full
        training on a stack whose fused layers save what Korthikanti et al. count (``fused_layers``), not
        what the Hugging Face modules save."""
        return self.model_parallel or self.te or (self.fused_layers and self.method == "full")


@frozen
class MemoryEstimate:
    """Bytes per GPU at the peak of a step, by kind, with the formula behind each.

    ``comm_bytes`` is what one optimizer step moves per GPU, as the size of an equivalent
    all-reduce: the gradients for data parallelism, 1.5x that with ZeRO-3's parameter
    gathers, and for LoRA/QLoRA with a sharded base the base weights gathered twice.
    """

    weights: Term
    gradients: Term
    optimizer: Term
    activations: Term
    kv_cache: Term
    overhead: Term
    layout: str | tuple[Phrase, ...]  # given as message ids (memory_layout.*), kept in layout_phrases
    peak_phase: str
    phases: dict[str, float] = field(default_factory=dict)
    host_bytes: float = 0.0  # host RAM (or NVMe) needed per GPU for offloaded state
    offload_target: str = "none"
    trainable_params: float = 0.0
    note_phrases: tuple[Phrase, ...] = ()  # notes on the estimate as a whole, each one part (note.*: ids with values)
    comm_bytes: float = 0.0
    grad_bytes_per_param: float = 0.0  # dtype of the gradients reduced across data-parallel GPUs
    weight_bytes_per_param: float = 0.0  # dtype of the weights gathered by ZeRO-3 / sent between stages
    local_params: tuple[float, float] = (0.0, 0.0)  # (dense, routed-expert) parameters on the busiest GPU
    layout_phrases: tuple[Phrase, ...] = ()  # the layout as message ids with values, for a report's language

    def __post_init__(self) -> None:
        if isinstance(self.layout, tuple):  # written in English from its ids, as a Term's formula
            object.__setattr__(self, "layout_phrases", self.layout)
            object.__setattr__(self, "layout", formula_text(self.layout))
        elif self.layout_phrases and formula_text(self.layout_phrases) != self.layout:
            object.__setattr__(self, "layout_phrases", ())  # English written over it: its parts no longer say it

    @property
    def notes(self) -> tuple[str, ...]:
        """The notes in English, one per part of :attr:`note_phrases`."""
        return tuple(phrase_text((p,)) for p in self.note_phrases)

    @property
    def tensor_bytes(self) -> float:
        return (self.weights.value + self.gradients.value + self.optimizer.value
                + self.activations.value + self.kv_cache.value)

    @property
    def per_gpu(self) -> float:
        """The memory total (:func:`total_bytes`: the overhead term holds the allowance)."""
        return self.tensor_bytes + self.overhead.value

    def breakdown(self) -> dict[str, int]:
        return {t: round(getattr(self, t).value) for t in
                MEMORY_PARTS}

    def terms(self) -> list[Term]:
        return [self.weights, self.gradients, self.optimizer, self.activations, self.kv_cache, self.overhead]


# ------------------------------------------------------------------------ the total
def overhead_bytes(working: float, overhead: tuple[float, float]) -> float:
    """The bytes beyond the tensors: the CUDA context and workspaces plus the allocator's allowance
    on what is allocated step by step (``working``: every tensor in training; in serving only the
    working set, as weights and a paged KV pool are allocated once)."""
    ctx_bytes, alloc_frac = overhead
    return ctx_bytes + alloc_frac * working


def total_bytes(tensors: float, working: float, overhead: tuple[float, float]) -> float:
    """The memory total of one GPU: its tensors plus :func:`overhead_bytes`. The one definition:
    the breakdowns below, the planner's quick fit check and the serving model's KV budget all add
    up here (tests/test_one_definition.py fails on a second copy)."""
    return tensors + overhead_bytes(working, overhead)


def _overhead_term(working: float, overhead: tuple[float, float], message_id: str = "formula.overhead") -> Term:
    """The overhead as a Term; ``message_id`` says what the allowance applies to (formula.overhead*)."""
    ctx_bytes, alloc_frac = overhead
    return Term("overhead", overhead_bytes(working, overhead), "B", formula(message_id),
                {"context_bytes": ctx_bytes, "allocator_fraction": alloc_frac, "working_bytes": working})


def _g(x: float) -> float:
    """A constant of a formula as ``{x:g}`` writes it (2.0 -> 2), kept a number for its phrase."""
    return int(x) if float(x).is_integer() else float(f"{x:g}")


def _over(n: float, message_id: str = "formula.over_gpus", **values: float) -> tuple[Phrase, ...]:
    """A formula's " / n GPUs" (and why: formula.over_gpus_*), as the part after it."""
    return formula(message_id, " / ", n=n, **values)


def _then(t: Term, *parts: tuple[Phrase, ...]) -> tuple[Phrase, ...]:
    """``t``'s formula followed by more parts."""
    return t.formula_phrases + tuple(p for ps in parts for p in ps)


# ------------------------------------------------------------------------ weights
def weight_bytes(shape: Shape, fmt: str, quant: dict | None = None) -> Term:
    """Weights in a storage format: quantized ones keep their ``keeps_16bit`` (embeddings, head) at 16 bit."""
    if fmt in ("fp32", "fp16", "bf16"):
        b = BYTES[fmt]
        return Term("weights", shape.params * b, "B", formula("formula.weights", bytes=b, format=fmt),
                    {"params": shape.params, "bytes_per_param": b})
    q = (quant or {})[fmt]
    bits = q.bits_per_weight
    if (rest := getattr(q, "moe_rest_bits", None)) and shape.moe:  # the experts alone quantized (gpt-oss GGUF)
        ins = {"expert_params": routed_expert_params(shape), "bits_per_weight": bits, "other_bits_per_weight": rest}
        ins.update(other_params=shape.params - ins["expert_params"], format=q.example)
        return Term("weights", (ins["expert_params"] * bits + ins["other_params"] * rest) / 8, "B",
                    formula("formula.weights_moe_rest", bits=str(bits), rest=f"{rest:g}"), ins)
    keeps = getattr(q, "keeps_16bit", ("embeddings", "lm_head"))
    kept = (shape.embedding_params if "embeddings" in keeps else 0.0) + (
        shape.lm_head_params if "lm_head" in keeps else 0.0)
    quantized = shape.params - kept
    value = quantized * bits / 8 + kept * 2
    return Term(
        "weights", value, "B",
        formula("formula.weights_quantized", bits=str(bits)) + (formula("formula.kept_16bit", " + ") if kept else ()),
        {"quantized_params": quantized, "bits_per_weight": bits, "kept_16bit_params": kept,
         "format": q.example},
    )


def lora_adapter_params(shape: Shape, rank: int, targets: str) -> float:
    """r x (in + out) per adapted matrix, summed over layers (and experts for MLP targets; a LatentMoE model's experts
    take the latent in and give it out, :attr:`Shape.expert_width`)."""
    h, kv, q, f = shape.hidden, shape.kv_dim, shape.q_dim, shape.ffn
    attn_qv = (h + q) + (h + kv)
    attn_all = attn_qv + (h + kv) + (q + h)
    mlp = shape.mlp_matrices * (shape.expert_width + f) * shape.experts
    per_layer = {"qv": attn_qv, "attention": attn_all, "all-linear": attn_all + mlp}[targets]
    return float(rank * per_layer * shape.layers)


def _lora_modules(targets: str, shape: Shape) -> int:
    return {"qv": 2, "attention": 4, "all-linear": 4 + shape.mlp_matrices}[targets]


# -------------------------------------------------------------------- activations
def _per_token_layer(shape: Shape, s: TrainSetup, mode: str) -> tuple[float, float]:
    """Saved activation bytes per token per layer, and the MLP width they count (MoE: the k routed
    experts plus the shared ones)."""
    ch, ckv, cf = ACT_COEFF[mode]
    f_eff = shape.ffn * (shape.experts_per_token + shape.shared_experts if shape.moe else 1) * (
        shape.mlp_matrices / 3 if shape.mlp_matrices == 2 else 1)
    per_layer = ch * shape.hidden + ckv * shape.kv_dim + cf * f_eff
    if s.method != "full":
        per_layer += LORA_RANK_BYTES * s.lora_rank * _lora_modules(s.lora_targets, shape)
    return per_layer, f_eff


def logits_bytes_per_token(s: TrainSetup) -> float:
    """Bytes per vocabulary entry per token the loss holds: the fp32 log-softmax (4 B) and its backward's two fp32
    temporaries (8 B); chunked cross-entropy keeps the bf16 logits (2 B) and upcasts one chunk at a time (torchtune
    CEWithChunkedOutputLoss); a stack whose loss says its own figure (``loss_bytes``: Megatron's in-place
    vocabulary-parallel loss, 6 B) holds that; cut cross-entropy (``ce_cut``) holds none."""
    if s.ce_cut or (s.ce_chunks and s.ce_chunks > 1):
        return 0.0 if s.ce_cut else 2.0 + (LOGITS_SAVED + LOGITS_TEMP) / s.ce_chunks
    return s.loss_bytes or LOGITS_SAVED + LOGITS_TEMP


def _logits_formula(s: TrainSetup) -> tuple[Phrase, ...]:
    if s.ce_cut:
        return formula("formula.logits_bytes_cut")
    if s.ce_chunks and s.ce_chunks > 1:
        return formula("formula.logits_bytes_chunked", chunks=s.ce_chunks)
    if s.loss_bytes:
        return formula("formula.logits_bytes_stack", bytes=s.loss_bytes)
    return formula("formula.logits_bytes")


def activation_bytes(shape: Shape, s: TrainSetup, residual_bytes: float, mode: str) -> tuple[Term, str]:
    """Peak activation bytes on one GPU during backward, and which moment sets it."""
    T = s.batch * s.seq
    ch, ckv, cf = ACT_COEFF[mode]
    per_layer, f_eff = _per_token_layer(shape, s, mode)
    layers_all = per_layer * T * shape.layers
    eager = EAGER_SAVED_PER_SCORE * s.batch * shape.heads * s.seq * s.seq if s.attention == "eager" else 0.0
    logits = logits_bytes_per_token(s) * shape.vocab * T
    other = 2 * residual_bytes * shape.hidden * T  # embedding output and final norm
    cache_all = 2.0 * (shape.linear_params + shape.vocab * shape.hidden) if mode == "amp" else 0.0
    cache_head = 2.0 * shape.vocab * shape.hidden if mode == "amp" else 0.0
    inputs = {
        "tokens_per_gpu": T, "layers": shape.layers, "bytes_per_token_layer": per_layer,
        "coefficients": {"hidden": ch, "kv_dim": ckv, "ffn": cf}, "hidden": shape.hidden,
        "kv_dim": shape.kv_dim, "ffn": f_eff, "vocab": shape.vocab}
    if shape.mlp_matrices == 2:  # ffn is the width a gated MLP saves as much for: ffn_size x 2 / 3 (_per_token_layer)
        inputs.update(ffn_size=shape.ffn, mlp_matrices=2)
    sac = again = 0.0
    if s.sac_op and not s.checkpointing:  # each layer keeps the policy's outputs; one layer's rest is recomputed
        sac = (4.0 if s.precision == "fp32" else 2.0) * sac_op_saved_elements(shape)  # 16-bit outputs under autocast
        again = max(0.0, per_layer - sac)
        layers_all = sac * T * shape.layers + again * T
        inputs.update(bytes_per_token_layer=sac, recomputed_bytes_per_token_layer=again)
    if not s.checkpointing:
        value = layers_all + shape.layers * eager + logits + other + cache_all
        inputs["residual_bytes"] = residual_bytes  # the embedding output and final norm's operands
        if eager:
            inputs.update(batch=s.batch, heads=shape.heads, seq=s.seq)
        if cache_all:
            inputs["matmul_params"] = shape.linear_params + shape.vocab * shape.hidden
        said = (formula("formula.activations", logits=_logits_formula(s))
                + (formula("formula.activations_sac_layer", " + ") if sac else ())
                + formula("formula.activations_embedding_norm", " + ")
                + (formula("formula.activations_eager", " + ") if eager else ())
                + (formula("formula.activations_autocast", " + ") if cache_all else ()))
        per_layer_said = (formula("formula.per_token_layer_sac") if sac else
                          formula("formula.per_token_layer", hidden=ch, kv_dim=ckv, ffn=cf))
        inputs["bytes_per_token_layer_formula"] = formula_text(per_layer_said)
        return Term("activations", value, "B", said, inputs,
                    input_phrases={"bytes_per_token_layer_formula": per_layer_said}), "backward"
    # checkpointing: each layer keeps its input; the peak is at the loss or while one layer recomputes
    kept = residual_bytes * shape.hidden * T * shape.layers
    at_loss = kept + logits + other + cache_head
    layer_params = shape.linear_params / shape.layers
    at_recompute = kept + per_layer * T + eager + other + 3 * residual_bytes * shape.hidden * T + (
        2.0 * layer_params if mode == "amp" else 0.0) + cache_head
    value = max(at_loss, at_recompute)
    inputs.update({"kept_layer_inputs": kept, "at_loss": at_loss, "at_recompute": at_recompute})
    inputs["residual_bytes"] = residual_bytes
    if eager:
        inputs.update(batch=s.batch, heads=shape.heads, seq=s.seq)
    if mode == "amp":
        inputs["layer_params"] = layer_params
    # kept + other (+ the head's bf16 copy) + the larger of the logits and one layer recomputed
    said = (formula("formula.activations_checkpointed") + formula("formula.activations_embedding_norm", " + ")
            + (formula("formula.activations_head_copy", " + ") if cache_head else ())
            + formula("formula.activations_at_loss", " + max(", logits=_logits_formula(s))
            + (formula("formula.activations_eager_layer", ", ") if eager else ())
            + (formula("formula.activations_layer_copy", " + " if eager else ", ") if mode == "amp" else ())
            + formula("formula.activations_recomputed", " + " if eager or mode == "amp" else ", "))
    return Term("activations", value, "B", said, inputs), "backward"


# --------------------------------------------------------------------- training
def training_memory(shape: Shape, s: TrainSetup, *, quant: dict, overhead: tuple[float, float]
                    ) -> MemoryEstimate:
    """Peak bytes per GPU of one training step (see the module docstring for the layouts)."""
    if s.megatron_layout:
        return parallel_training_memory(shape, s, quant=quant, overhead=overhead)
    P = shape.params
    notes: list[Phrase] = []
    prec_b = BYTES[s.precision] if s.precision in ("fp32", "fp16", "bf16") else 2
    host = 0.0

    if s.method in ("lora", "qlora"):  # its own module (memory_lora imports this one)
        from .memory_lora import lora_training_memory
        return lora_training_memory(shape, s, quant=quant, overhead=overhead)

    deepspeed = s.zero >= 1
    dp = max(1, s.shard_group or s.dp)
    if deepspeed:
        wb = 2 if s.precision in ("bf16", "fp16", "fp8") else 4
        master = s.mixed and wb == 2
        shard_w = dp if s.zero >= 3 else 1
        shard_g = dp if s.zero >= 2 else 1
        weights = Term("weights", P * wb / shard_w, "B",
                       formula("formula.params_bytes", bytes=wb)
                       + (_over(dp, "formula.over_gpus_zero3") if shard_w > 1 else ()),
                       {"params": P, "bytes_per_param": wb, "shards": shard_w})
        grads = Term("gradients", P * wb / shard_g, "B",
                     formula("formula.params_bytes", bytes=wb)
                     + (_over(dp, "formula.over_gpus_zero2") if shard_g > 1 else ()),
                     {"params": P, "bytes_per_param": wb, "shards": shard_g})
        opt_full, _ = _optimizer_bytes(s.optimizer, P, 4 if master else wb, shape, master=master)
        opt = Term("optimizer", opt_full.value / dp, "B", _then(opt_full, _over(dp, "formula.over_gpus_zero1")),
                   {**opt_full.inputs, "shards": dp})
        step_temp = 0.0
        mode = "pure16" if wb == 2 else "pure32"
        act, _ = activation_bytes(shape, s, wb, mode)
        layout = (formula("memory_layout.deepspeed_master", zero=s.zero) if master
                  else formula("memory_layout.deepspeed", zero=s.zero, bytes=wb))
        if s.offload in ("cpu", "nvme"):  # ZeRO-Offload / FSDP CPU offload: optimizer state and gradients
            host = opt.value + grads.value
            opt = Term("optimizer", 0.0, "B", formula("formula.optimizer_offloaded", target=s.offload), opt.inputs)
            kept = min(grads.value, s.bucket_bytes)
            grads = Term("gradients", kept, "B", formula("formula.gradients_stream_bucket", target=s.offload),
                         {**grads.inputs, "bucket_bytes": s.bucket_bytes})
            if s.zero >= 3:
                host += weights.value
                layer_bytes = P / shape.layers * wb
                weights = Term("weights", 2 * layer_bytes, "B",
                               formula("formula.weights_offloaded"), {"layer_bytes": layer_bytes})  # 2 x it
        phase_a = weights.value + grads.value + opt.value + act.value
        phase_b = weights.value + grads.value + opt.value
    else:
        if s.mixed and s.precision in ("bf16", "fp16", "fp8"):
            wb, mode = 4, "amp"
            layout = formula("memory_layout.torch_amp")
        else:
            wb = prec_b
            mode = "pure16" if wb == 2 else "pure32"
            layout = formula("memory_layout.torch_pure", precision=s.precision)
        weights = Term("weights", P * wb, "B", formula("formula.params_bytes", bytes=wb),
                       {"params": P, "bytes_per_param": wb})
        grads = Term("gradients", P * wb, "B", formula("formula.params_bytes", bytes=wb),
                     {"params": P, "bytes_per_param": wb})
        opt, step_temp = _optimizer_bytes(s.optimizer, P, wb, shape, master=False)
        act, _ = activation_bytes(shape, s, wb, mode)
        phase_a = weights.value + opt.value + act.value  # grads are freed between steps (set_to_none)
        phase_b = weights.value + grads.value + opt.value + step_temp
        if s.offload != "none":
            notes.append(("", "note.offload_needs_zero", {}))
    grad_b = float(wb)  # torch-amp: fp32 gradients; DeepSpeed: gradients in the 16-bit training dtype
    comm = P * grad_b * (1.5 if s.zero >= 3 else 1.0)
    est = _assemble(weights, grads, opt, act, phase_a, phase_b, step_temp, layout, overhead,
                    host, s.offload if host else "none", P, notes, comm, deepspeed=deepspeed)
    return _with(est, grad_b, float(2 if deepspeed and wb == 2 else wb), (P, 0.0))


def full_state_bytes(shape: Shape, precision: str, mixed: bool) -> float:
    """Weights, gradients and AdamW state of full training, from :func:`training_memory`'s ZeRO
    layout on one GPU (nothing sharded, nothing offloaded): what the states alone take before
    activations -- 16 B per parameter in mixed precision (16-bit weights and gradients, fp32 master
    and moments) or fp32, 8 B in pure 16-bit. A storage format (int8, int4) trains in bf16, as the
    candidates' estimate does. The job fact's ``state_gb``."""
    p = precision if precision in ("fp32", "fp16", "bf16", "fp8") else "bf16"
    one = TrainSetup(method="full", precision=p, mixed=mixed, optimizer="adamw", batch=1, seq=1,
                     checkpointing=False, attention="sdpa", zero=1, offload="none", dp=1)
    est = training_memory(shape, one, quant={}, overhead=(0.0, 0.0))
    return est.weights.value + est.gradients.value + est.optimizer.value


def articles_state_bytes(params: float) -> float:
    """The training-state figure popular articles give: params x (2 B weights + 2 B gradients + 4 B
    for both Adam moments) x 1.2. Not a definition gpuwise uses: MEM-MYTH-8-BYTES compares a plan
    sized on it with :func:`full_state_bytes`."""
    return params * 8 * 1.2


def _with(est: MemoryEstimate, grad_b: float, weight_b: float, local: tuple[float, float]) -> MemoryEstimate:
    return replace(est, grad_bytes_per_param=grad_b, weight_bytes_per_param=weight_b, local_params=local)


# ------------------------------------------------------------ model-parallel training (planner layouts)
@frozen
class ParallelBytes:
    """The busiest GPU's bytes under a model-parallel layout (plain floats, for the planner's search)."""

    weights: float
    gradients: float
    optimizer: float
    activations: float
    host: float
    dense: float  # parameters on the GPU (unsharded by ZeRO)
    expert: float
    grad_b: float
    weight_b: float
    opt_per_param: float
    at_first_stage: float
    at_last_stage: float
    per_token_layer: float = 0.0  # saved bytes per token and layer (_per_token_layer)
    sac_again: float = 0.0  # per-op selective checkpointing: bytes a token of one layer's recomputed operands

    @property
    def tensors(self) -> float:
        return self.weights + self.gradients + self.optimizer + self.activations


def parallel_bytes(shape: Shape, s: TrainSetup, quant: dict) -> ParallelBytes:
    """Megatron-style mixed precision (bf16 weights, fp32 main gradients, fp32 master weights and
    Adam moments: 2 + 4 + 12 B per parameter; Narayanan et al. 2021) sharded by the layout:
    tensor x pipeline parallel split the model, expert parallel the routed experts, ZeRO 1/2/3
    (Megatron's distributed optimizer is ZeRO-1) the optimizer state / gradients / weights over
    the data-parallel GPUs (dp x cp; experts over dp x cp / ep). Activations follow Korthikanti et
    al. 2022: sequence parallelism splits all of a layer's activations by tp, context parallelism
    by cp, and with 1F1B the first stage holds ``inflight`` micro-batches of its layers."""
    dpc = max(1, s.dp * s.cp)
    dense, expert = stage_params(shape, s.tp, s.pp, s.ep, dpc, s.etp)
    zs = min(dpc, s.shard_group or dpc)  # the GPUs of a ZeRO group (hybrid sharding: fewer, the rest replicas)
    local = dense + expert
    sharded = dense / zs + expert / expert_shards(s.tp, dpc, s.ep, zs, s.etp)  # a ZeRO shard of the GPU's parameters
    lora = s.method in ("lora", "qlora")
    if lora:
        if s.method == "qlora":
            wb = weight_bytes(shape, "int4", {"int4": quant["nf4"]}).value / max(shape.params, 1.0)
        elif s.base_format in ("int8", "int4", "fp8") and s.base_format in quant:  # fp8: TE's FP8 parameters
            wb = weight_bytes(shape, s.base_format, quant).value / max(shape.params, 1.0)
        else:
            wb = 4.0 if s.precision == "fp32" else 2.0
        adapters = lora_adapter_params(shape, s.lora_rank, s.lora_targets) / (s.tp * s.pp)
        gb, opt_pp = 4.0, 0.0
        weights = (sharded if s.zero >= 3 else local) * wb + adapters * 4
        grads = adapters * 4 / (zs if s.zero >= 2 else 1)
        opt_full = _optimizer_bytes(s.optimizer, adapters, 4, shape, master=False)[0].value
        optimizer = opt_full / (zs if s.zero >= 1 else 1)
        mode = f"{'megatron-' if s.te else ''}lora-{s.lora_targets}"
    else:
        pure = not s.mixed or s.precision == "fp32"
        wb = 4.0 if s.precision == "fp32" else 2.0
        # fp32 main gradients unless everything is held in the training dtype or the stack says its own (llm.c's bf16)
        gb = wb if pure else (s.grad_bytes or 4.0)
        opt_pp = _optimizer_bytes(s.optimizer, 1.0, int(wb) if pure else 4, shape, master=not pure)[0].value
        weights = (sharded if s.zero >= 3 else local) * wb
        grads = (sharded if s.zero >= 2 else local) * gb
        optimizer = (sharded if s.zero >= 1 else local) * opt_pp
        fp8_inputs = (s.te or s.fused_layers) and s.precision == "fp8"  # FP8 copies of the GEMM inputs saved
        mode = "pure32" if s.precision == "fp32" else "megatron-fp8" if fp8_inputs else "megatron"
    layers_stage = math.ceil(shape.layers / s.pp)
    if s.zero >= 3:  # two layers gathered at a time
        weights += 2 * local / layers_stage * wb
    host = 0.0
    if s.offload in ("cpu", "nvme") and (s.zero >= 1 or not lora):  # LoRA: the adapters' state, ZeRO-3 the base too
        host = optimizer + grads
        optimizer, grads = 0.0, min(grads, s.bucket_bytes)
        if s.zero >= 3:
            host += weights
            weights = 2 * local / layers_stage * wb
    # activations
    per_layer, _ = _per_token_layer(shape, s, mode)
    residual = 4.0 if s.precision == "fp32" else 2.0
    T = s.batch * s.seq / s.cp  # tokens of one micro-batch on a context-parallel rank
    t_local = T / s.tp  # sequence parallel splits them across the tensor-parallel ranks
    logits = logits_bytes_per_token(s) * shape.vocab / s.tp * T  # vocabulary-parallel loss
    other = 2 * residual * shape.hidden * t_local
    eager = (EAGER_SAVED_PER_SCORE * s.batch * shape.heads / s.tp * (s.seq / s.cp) * s.seq
             if s.attention == "eager" else 0.0)
    sac_again = 0.0
    if s.sac_op and not s.checkpointing:  # the policy's outputs a layer a local token; one layer's rest recomputed
        full, per_layer = per_layer, residual * sac_op_saved_elements(shape, s.tp) * s.tp
        sac_again = max(0.0, full - per_layer)
    layer = per_layer * t_local + eager
    if sac_again:
        again = sac_again * t_local
        first = layers_stage * s.inflight * layer + again + other
        last = layers_stage * layer + max(logits, again) + other
    elif s.checkpointing:
        kept = residual * shape.hidden * t_local
        recompute = layer + 3 * residual * shape.hidden * t_local
        first = layers_stage * s.inflight * kept + recompute + other
        last = layers_stage * kept + max(logits, recompute) + other
    elif s.recompute > 0:  # a block of the stage's layers keeps only its inputs, the rest all they save
        kept = residual * shape.hidden * t_local
        recompute = layer + 3 * residual * shape.hidden * t_local
        held = layers_stage * (s.recompute * kept + (1 - s.recompute) * layer)
        first = s.inflight * held + recompute + other
        last = held + max(logits, recompute) + other
    else:
        first = layers_stage * s.inflight * layer + other
        last = layers_stage * layer + logits + other
    if s.pp == 1:
        first = last = (max(first, last) if (s.checkpointing or s.recompute > 0 or sac_again)
                        else layers_stage * s.inflight * layer + logits + other)
    if s.method == "qlora":  # one dequantized weight matrix at a time
        first += 2 * shape.hidden * shape.ffn / s.tp
        last += 2 * shape.hidden * shape.ffn / s.tp
    return ParallelBytes(weights, grads, optimizer, max(first, last), host, dense, expert, gb, wb, opt_pp,
                         first, last, per_layer, sac_again)


def parallel_training_memory(shape: Shape, s: TrainSetup, *, quant: dict, overhead: tuple[float, float]
                             ) -> MemoryEstimate:
    """:func:`parallel_bytes` as a :class:`MemoryEstimate` with the formula behind each figure."""
    b = parallel_bytes(shape, s, quant)
    dpc = min(s.dp * s.cp, s.shard_group or s.dp * s.cp)  # the GPUs of a ZeRO group
    split = f"TP{s.tp} PP{s.pp}" + (f" EP{s.ep}" if s.ep > 1 else "") + (f" CP{s.cp}" if s.cp > 1 else "")
    inputs = {"dense_params_on_gpu": b.dense, "expert_params_on_gpu": b.expert, "tp": s.tp, "pp": s.pp,
              "ep": s.ep, "cp": s.cp, "zero_shards": dpc,
              "expert_zero_shards": expert_shards(s.tp, s.dp * s.cp, s.ep, dpc, s.etp)}
    zs = formula(f"formula.zero{s.zero}_shards", "; ", n=dpc) if s.zero else ()
    lora = s.method != "full"
    layers_stage = math.ceil(shape.layers / s.pp)
    adapters = lora_adapter_params(shape, s.lora_rank, s.lora_targets) / (s.tp * s.pp) if lora else 0.0

    def where(bytes_per_param: float, sharded: bool) -> tuple[Phrase, ...]:
        """The busiest GPU's parameters (a ZeRO shard of them) x bytes, its numbers printed."""
        return formula("formula.busiest_gpu_shard" if sharded else "formula.busiest_gpu", split=split,
                       bytes=_g(bytes_per_param))

    gathered = formula("formula.gathered_layers", " + ", bytes=_g(b.weight_b))
    offloaded = s.offload in ("cpu", "nvme") and b.host
    if offloaded and s.zero >= 3:  # two layers resident, the rest on the host
        said_w = formula("formula.gathered_layers", bytes=_g(b.weight_b)) + formula("formula.rest_offloaded", "; ",
                                                                                     target=s.offload)
    else:
        said_w = (where(b.weight_b, s.zero >= 3) + (gathered if s.zero >= 3 else ())
                  + (formula("formula.adapters_on_gpu", " + ") if lora else ()) + (zs if s.zero >= 3 else ()))
    weights = Term("weights", b.weights, "B", said_w,
                   {**inputs, "bytes_per_param": b.weight_b, "layers_per_stage": layers_stage}
                   | ({"adapter_params_on_gpu": adapters} if lora else {}))
    if lora:  # fp32 adapter gradients and the optimizer's state of the adapters alone
        opt_b = _optimizer_bytes(s.optimizer, 1.0, 4, shape, master=False)[0].value
        shards = {"zero_shards": dpc, "adapter_params_on_gpu": adapters}
        grads = Term("gradients", b.gradients, "B", formula("formula.adapters_bytes", bytes=4)
                     + (_over(dpc, "formula.over_gpus_zero2") if s.zero >= 2 else ()),
                     {**shards, "bytes_per_param": 4.0})
        opt = Term("optimizer", b.optimizer, "B", formula("formula.adapters_bytes", bytes=_g(opt_b))
                   + (_over(dpc, "formula.over_gpus_zero1") if s.zero >= 1 else ()),
                   {**shards, "bytes_per_param": opt_b})
    else:
        grads = Term("gradients", b.gradients, "B", where(b.grad_b, s.zero >= 2)
                     + (formula("formula.fp32_main_gradients", " ") if b.grad_b == 4 else ())
                     + (zs if s.zero >= 2 else ()), {**inputs, "bytes_per_param": b.grad_b})
        opt = Term("optimizer", b.optimizer, "B", where(b.opt_per_param, s.zero >= 1) + (zs if s.zero >= 1 else ()),
                   {**inputs, "bytes_per_param": b.opt_per_param})
    if offloaded:  # the GPU keeps one bucket of its share's gradients
        opt = Term("optimizer", 0.0, "B", formula("formula.optimizer_offloaded", target=s.offload), inputs)
        held = formula("formula.adapters_bytes", bytes=4) if lora else where(b.grad_b, s.zero >= 2)
        grads = Term("gradients", b.gradients, "B", formula("formula.gradients_stream_busiest", target=s.offload,
                                                            held=held),
                     {**inputs, "bucket_bytes": s.bucket_bytes} | ({"adapter_params_on_gpu": adapters} if lora else {}))
    act = _stage_activations(shape, s, b)
    tensors = b.tensors
    over = _overhead_term(tensors, overhead)
    # the states held in the training dtype (mixed_precision false, or fp32): no 'mixed precision' in the label
    # (it read 'mixed precision: 2 B weights, 2 B gradients' for mixed_precision: false, hostile round 27)
    kind = ("memory_layout.parallel_lora" if s.method != "full" else "memory_layout.parallel_pure"
            if not s.mixed or s.precision == "fp32" else "memory_layout.parallel")
    layout = formula(kind, split=split, zero=s.zero, weight_bytes=_g(b.weight_b), grad_bytes=_g(b.grad_b))
    trainable = (lora_adapter_params(shape, s.lora_rank, s.lora_targets) if s.method != "full" else shape.params)
    comm = (b.dense + b.expert) * b.grad_b
    return MemoryEstimate(weights, grads, opt, act, Term("kv_cache", 0.0, "B", formula("formula.kv_training")), over,
                          layout, "backward", {"backward": tensors}, b.host, s.offload if b.host else "none",
                          trainable, (), comm, b.grad_b, b.weight_b, (b.dense, b.expert))


def _stage_activations(shape: Shape, s: TrainSetup, b: ParallelBytes) -> Term:
    """:func:`parallel_bytes`' activations as the busier pipeline stage holds them, each operand printed: its
    layers (x the micro-batches in flight on the first stage), a micro-batch's tokens over cp x tp, the layer
    inputs of checkpointing or of a recomputed block, one layer recomputed, the loss on the last stage."""
    residual = 4.0 if s.precision == "fp32" else 2.0
    layers, per = math.ceil(shape.layers / s.pp), b.per_token_layer
    t = s.batch * s.seq / (s.cp * s.tp)
    tok = {"tokens": formula("formula.stage_tokens" + ("_tp" if s.tp > 1 else "") + ("_cp" if s.cp > 1 else ""))}
    eager = EAGER_SAVED_PER_SCORE * shape.heads * s.seq * t if s.attention == "eager" else 0.0
    logits, other = logits_bytes_per_token(s) * shape.vocab * t, 2 * residual * shape.hidden * t
    kept, layer = residual * shape.hidden * t, per * t + eager
    rec = b.sac_again * t if b.sac_again else layer + 3 * residual * shape.hidden * t
    saved = layers * (kept if s.checkpointing else s.recompute * kept + (1 - s.recompute) * layer)
    light = not s.checkpointing and s.recompute == 0 and not b.sac_again
    first = s.inflight * saved + (0.0 if light else rec) + other + (logits if light and s.pp == 1 else 0.0)
    last = saved + (logits if light else max(logits, rec)) + other
    at_first = first >= last if s.pp > 1 or not light else True
    inflight = at_first and (s.pp > 1 or s.inflight != 1)
    times = {"times": formula("formula.stage_layers_inflight" if inflight else "formula.stage_layers"), **tok}
    ids = (("formula.stage_inputs",) if s.checkpointing else ("formula.stage_held_inputs", "formula.stage_held_saved")
           if s.recompute > 0 else ("formula.stage_saved",))
    said = tuple(p for i, m in enumerate(ids) for p in formula(m, " + " if i else "", **times))
    if eager and not s.checkpointing:
        said += formula("formula.stage_held_eager" if s.recompute > 0 else "formula.stage_eager", " + ", **times)

    def one(sep: str, last: str) -> tuple[Phrase, ...]:  # one layer recomputed
        if b.sac_again:  # per-op selective checkpointing: the operands of one layer it recomputes
            return formula("formula.stage_sac_layer" + ("_max" if last.endswith("_max") else ""), sep, **tok)
        return (*formula("formula.stage_one_layer", sep, **tok),
                *(formula("formula.stage_one_eager", " + ", **tok) if eager else ()), *formula(last, " + ", **tok))

    norm = formula("formula.stage_embedding_norm", " + ", **tok)
    if light:
        loss = formula("formula.stage_logits", " + ", logits=_logits_formula(s), **tok)
        said += (*(loss if s.pp == 1 or not at_first else ()), *norm)
    elif at_first:  # the inputs of every micro-batch in flight, one layer recomputed
        said += (*one(" + ", "formula.stage_recomputed"), *norm)
    else:  # the last stage: the larger of the loss and one layer recomputed
        said += (*norm, *formula("formula.stage_logits", " + max(", logits=_logits_formula(s), **tok),
                 *one(", ", "formula.stage_recomputed_max"))
    if s.method == "qlora":
        said += formula("formula.stage_dequantized", " + ")
    if s.pp > 1:
        said += formula("formula.stage_first" if at_first else "formula.stage_last", "; ")
    if s.tp * s.cp > 1:
        said += formula("formula.stage_split", "; ")
    return Term("activations", b.activations, "B", said,
                {"first_stage": b.at_first_stage, "last_stage": b.at_last_stage, "inflight": s.inflight,
                 "layers_per_stage": layers, "tokens_per_micro_batch": s.batch * s.seq, "tp": s.tp, "cp": s.cp,
                 "bytes_per_token_layer": per, "residual_bytes": residual, "hidden": shape.hidden, "vocab": shape.vocab}
                | ({"recompute": s.recompute} if s.recompute > 0 and not s.checkpointing else {})
                | ({"recomputed_bytes_per_token_layer": b.sac_again} if b.sac_again else {})
                | ({"heads": shape.heads, "seq": s.seq} if eager else {})
                | ({"ffn": shape.ffn} if s.method == "qlora" else {}))


def _optimizer_bytes(optimizer: str, trainable: float, state_bytes: int, shape: Shape, *, master: bool
                     ) -> tuple[Term, float]:
    """Optimizer state (and the step's temporary) for ``trainable`` parameters."""
    m = 4.0 if master else 0.0  # fp32 master weights kept by the optimizer (DeepSpeed layout)
    inputs = {"trainable_params": trainable, "state_bytes": state_bytes, "master_bytes": m}
    if optimizer in ("adamw", "adamw-fused"):
        per = 2 * state_bytes + m
        temp = trainable * state_bytes if optimizer == "adamw" and not master else 0.0
        said = formula("formula.adamw_master" if m else "formula.adamw") + (
            formula("formula.adamw_foreach", "; ") if temp else ())
        return Term("optimizer", trainable * per, "B", said, inputs), temp
    if optimizer == "adamw-8bit":
        per = 2.0 + m
        return Term("optimizer", trainable * per, "B",
                    formula("formula.adamw_8bit_master" if m else "formula.adamw_8bit"), inputs), 0.0
    if optimizer == "sgd":
        per = state_bytes + m
        return Term("optimizer", trainable * per, "B",
                    formula("formula.sgd_master" if m else "formula.sgd", bytes=state_bytes), inputs), 0.0
    # adafactor: factored second moment, rows + columns per matrix, no first moment
    h, kv, f, q = shape.hidden, shape.kv_dim, shape.ffn, shape.q_dim
    per_layer = (h + q) * 2 + (h + kv) * 2 + shape.mlp_matrices * (shape.expert_width + f) * shape.experts
    factored = (per_layer * shape.layers + 2 * (shape.vocab + h)) * 4
    frac = min(1.0, trainable / shape.params) if shape.params else 1.0
    value = factored * frac + trainable * m
    said = formula("formula.adafactor") + (formula("formula.adafactor_master", " + ") if m else ())
    return Term("optimizer", value, "B", said, {**inputs, "factored_bytes": factored}), 0.0


def _assemble(weights: Term, grads: Term, opt: Term, act: Term, phase_a: float, phase_b: float,
              step_temp: float, layout: tuple[Phrase, ...], overhead: tuple[float, float], host: float,
              offload: str, trainable: float, notes: list[Phrase], comm: float, *, deepspeed: bool) -> MemoryEstimate:
    """Pick the peak moment and express the breakdown at that moment (DeepSpeed keeps its gradient
    buckets through backward; PyTorch allocates gradients as activations are freed)."""
    step = template("phase.optimizer_step")  # the phase's name, as results and reports carry it
    if phase_b >= phase_a:
        peak = step
        opt = Term(opt.name, opt.value + step_temp, opt.unit, opt.formula_phrases, opt.inputs)
        act = Term("activations", 0.0, "B", formula("formula.activations_freed"), act.inputs,
                   input_phrases=act.input_phrases,
                   note_phrases=(("", "note.backward_start", {"n": act.value}),))
        tensors = phase_b
    else:
        peak = "backward"
        grads = Term(grads.name, grads.value if deepspeed else 0.0,
                     grads.unit, grads.formula_phrases, grads.inputs,
                     note_phrases=() if deepspeed else (("", "note.grads_as_freed", {}),))
        tensors = phase_a
        if deepspeed:
            tensors = weights.value + grads.value + opt.value + act.value
    over = _overhead_term(tensors, overhead)
    return MemoryEstimate(weights, grads, opt, act, Term("kv_cache", 0.0, "B", formula("formula.kv_training")),
                          over, layout, peak, {"backward": phase_a, step: phase_b}, host,
                          offload, trainable, tuple(notes), comm)


# -------------------------------------------------------------------- MoE parameters
def routed_expert_params(shape: Shape) -> float:
    """MoE routed-expert parameters: the active count holds k of E experts, so the total beyond it
    is (E - k) experts' worth."""
    own = getattr(shape, "routed_expert_params", None)
    if isinstance(own, float | int):
        return float(own)
    if not shape.moe or shape.experts <= shape.experts_per_token:
        return 0.0
    e, k = shape.experts, shape.experts_per_token
    return max(shape.params - shape.active_params, 0.0) * e / (e - k)
