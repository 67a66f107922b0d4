"""The parts of a training step's memory estimate that every layout builds on: the setup
(:class:`TrainSetup`) and the estimate (:class:`MemoryEstimate`), the weights' bytes in each storage
format, LoRA adapters' parameters, the activations autograd saves, the optimizer's state, and how
the peak moment is picked. :mod:`memory` (full training, Megatron layouts) and :mod:`memory_lora`
(LoRA / QLoRA) both build on them; the layouts and the activation coefficients are described in
:mod:`memory`'s docstring.
"""

from __future__ import annotations

from dataclasses import field, replace
from typing import Literal

from ..frozen import frozen
from ..inputs.shape import Shape
from ..messages import Phrase, formula, formula_text, phrase_text, template
from ..results import MEMORY_PARTS
from . import Term
from .compute import sac_op_saved_elements

BYTES = {"fp32": 4, "fp16": 2, "bf16": 2, "fp8": 1, "int8": 1, "int4": 0.5}

# (c_h, c_kv, c_f): saved activation bytes per token per layer (see memory.py's module docstring)
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
    # the stack keeps fp32 weights as their only copy and casts them to 16 bits in each layer (runtime.yaml
    # training_stacks mixed_precision_policy: MaxText, Levanter): under a model-parallel layout 4 B weights,
    # 4 B gradients and the optimizer's moments with no master copy
    fp32_weights: bool = False
    # an offload that keeps the optimizer state alone in host memory between steps and moves it to the GPU for the
    # update (runtime.yaml training_stacks offload_update device: JAX memory kinds, MaxText / Levanter): the weights
    # and gradients stay on the GPU, and the state is back on it at the update
    offload_state_only: bool = False
    # an eager attention over one row of the micro-batch's sequences (workload.packing padding_free): its scores span
    # batch x seq tokens, not seq
    flat_rows: bool = False

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
    eager = (EAGER_SAVED_PER_SCORE * s.batch * shape.heads * s.seq * s.seq * (s.batch if s.flat_rows else 1)
             if s.attention == "eager" else 0.0)
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


def _with(est: MemoryEstimate, grad_b: float, weight_b: float, local: tuple[float, float]) -> MemoryEstimate:
    return replace(est, grad_bytes_per_param=grad_b, weight_bytes_per_param=weight_b, local_params=local)


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
