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

from ..frozen import frozen
from ..inputs.shape import Shape
from ..messages import Phrase, formula
from . import Term
from .compute import sac_op_saved_elements, updates_on_gpu
from .memory_lora import lora_training_memory
from .memory_terms import (  # noqa: F401 (read as memory's names by the planner, rules and tests)
    ACT_COEFF,
    BYTES,
    EAGER_SAVED_PER_SCORE,
    LOGITS_SAVED,
    LOGITS_TEMP,
    LORA_RANK_BYTES,
    MemoryEstimate,
    TrainSetup,
    _assemble,
    _g,
    _logits_formula,
    _optimizer_bytes,
    _over,
    _overhead_term,
    _per_token_layer,
    _then,
    _with,
    activation_bytes,
    logits_bytes_per_token,
    lora_adapter_params,
    overhead_bytes,
    routed_expert_params,
    total_bytes,
    weight_bytes,
)
from .stage_split import expert_shards, expert_split, stage_params  # noqa: F401 (expert_split: read here too)


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

    if s.method in ("lora", "qlora"):  # its own module (memory_lora builds on memory_terms, as this one does)
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
        if updates_on_gpu(s.offload_state_only, s.offload):  # JAX memory kinds: the state alone, back for the update
            # the moments leave; the fp32 weights (the master copy of this layout) are the stack's parameters, which
            # stay on the GPU (runtime.yaml training_stacks mixed_precision_policy p=f32)
            host = step_temp = _optimizer_bytes(s.optimizer, P, 4 if master else wb, shape, master=False)[0].value / dp
            kept = opt.value - host
            opt = Term("optimizer", kept, "B", formula("formula.optimizer_host_between_steps", kept_gb=kept / 1e9),
                       {**opt.inputs, "host_bytes": host})
        elif s.offload in ("cpu", "nvme"):  # ZeRO-Offload / FSDP CPU offload: optimizer state and gradients
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
        phase_b = weights.value + grads.value + opt.value + step_temp
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
    store_b: float = 0.0  # bytes a parameter is stored in where not weight_b (a JAX stack's fp32 weights); 0: weight_b
    # the optimizer state a JAX memory-kind offload brings back to the GPU for the update, when the backward's
    # activations are freed (TrainSetup.offload_state_only); 0: none
    state_back: float = 0.0

    @property
    def stored_b(self) -> float:
        """Bytes a parameter's stored weights take (weight_b is what a layer computes with and gathers)."""
        return self.store_b or self.weight_b

    @property
    def tensors(self) -> float:
        return self.weights + self.gradients + max(self.optimizer + self.activations, self.state_back)


def parallel_bytes(shape: Shape, s: TrainSetup, quant: dict) -> ParallelBytes:
    """Megatron-style mixed precision (bf16 weights, fp32 main gradients, fp32 master weights and
    Adam moments: 2 + 4 + 12 B per parameter; Narayanan et al. 2021) sharded by the layout:
    tensor x pipeline parallel split the model, expert parallel the routed experts, ZeRO 1/2/3
    (Megatron's distributed optimizer is ZeRO-1) the optimizer state / gradients / weights over
    the data-parallel GPUs (dp x cp; experts over dp x cp / ep). Activations follow Korthikanti et
    al. 2022: sequence parallelism splits all of a layer's activations by tp, context parallelism
    by cp, and with 1F1B the first stage holds ``inflight`` micro-batches of its layers.
    A stack that keeps fp32 weights as the only copy (``fp32_weights``: MaxText's weight_dtype float32, Levanter's
    p=f32) holds 4 + 4 + 8 B instead: no 16-bit copy beside an fp32 master, the Adam moments in fp32."""
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
        jax32 = s.fp32_weights and not pure  # the fp32 weights are the master: the gradients in fp32, no copy
        store = 4.0 if jax32 else wb
        gb = 4.0 if jax32 else gb
        opt_pp = _optimizer_bytes(s.optimizer, 1.0, int(wb) if pure else 4, shape,
                                  master=not pure and not jax32)[0].value
        weights = (sharded if s.zero >= 3 else local) * store
        grads = (sharded if s.zero >= 2 else local) * gb
        optimizer = (sharded if s.zero >= 1 else local) * opt_pp
        fp8_inputs = (s.te or s.fused_layers) and s.precision == "fp8"  # FP8 copies of the GEMM inputs saved
        mode = "pure32" if s.precision == "fp32" else "megatron-fp8" if fp8_inputs else "megatron"
    layers_stage = math.ceil(shape.layers / s.pp)
    if s.zero >= 3:  # two layers gathered at a time
        weights += 2 * local / layers_stage * wb
    host = back = 0.0
    if updates_on_gpu(s.offload_state_only, s.offload) and not lora:  # JAX memory kinds: the state alone on the host
        host = back = optimizer
        optimizer = 0.0
    elif s.offload in ("cpu", "nvme") and (s.zero >= 1 or not lora):  # LoRA: the adapters' state, ZeRO-3 the base
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
             * (s.batch if s.flat_rows else 1) if s.attention == "eager" else 0.0)
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
                         first, last, per_layer, sac_again, 0.0 if lora else store, back)


def parallel_training_memory(shape: Shape, s: TrainSetup, *, quant: dict, overhead: tuple[float, float]
                             ) -> MemoryEstimate:
    """:func:`parallel_bytes` as a :class:`MemoryEstimate` with the formula behind each figure."""
    b = parallel_bytes(shape, s, quant)
    dpc = min(s.dp * s.cp, s.shard_group or s.dp * s.cp)  # the GPUs of a ZeRO group
    split = f"TP{s.tp} PP{s.pp}" + (f" EP{s.ep}" if s.ep > 1 else "") + (f" CP{s.cp}" if s.cp > 1 else "")
    inputs = {"dense_params_on_gpu": b.dense, "expert_params_on_gpu": b.expert, "tp": s.tp, "pp": s.pp,
              "ep": s.ep, "cp": s.cp, "zero_shards": dpc,
              "expert_zero_shards": expert_shards(s.tp, s.dp * s.cp, s.ep, dpc, s.etp)}
    # beside context parallelism the ZeRO group is DP x CP (Megatron's distributed optimizer shards over the
    # data-parallel group with its context-parallel ranks): said as the Layout row's factors, not as 72 "DP" GPUs
    zs = ((formula(f"formula.zero{s.zero}_shards_cp", "; ", n=dpc, dp=s.dp, cp=s.cp) if s.cp > 1 and dpc == s.dp * s.cp
           else formula(f"formula.zero{s.zero}_shards", "; ", n=dpc)) if s.zero else ())
    lora = s.method != "full"
    layers_stage = math.ceil(shape.layers / s.pp)
    adapters = lora_adapter_params(shape, s.lora_rank, s.lora_targets) / (s.tp * s.pp) if lora else 0.0

    def where(bytes_per_param: float, sharded: bool) -> tuple[Phrase, ...]:
        """The busiest GPU's parameters (a ZeRO shard of them) x bytes, its numbers printed."""
        return formula("formula.busiest_gpu_shard" if sharded else "formula.busiest_gpu", split=split,
                       bytes=_g(bytes_per_param))

    gathered = formula("formula.gathered_layers", " + ", bytes=_g(b.weight_b))
    offloaded = s.offload in ("cpu", "nvme") and b.host and not b.state_back
    if offloaded and s.zero >= 3:  # two layers resident, the rest on the host
        said_w = formula("formula.gathered_layers", bytes=_g(b.weight_b)) + formula("formula.rest_offloaded", "; ",
                                                                                     target=s.offload)
    else:
        said_w = (where(b.stored_b, s.zero >= 3) + (gathered if s.zero >= 3 else ())
                  + (formula("formula.adapters_on_gpu", " + ") if lora else ()) + (zs if s.zero >= 3 else ()))
    weights = Term("weights", b.weights, "B", said_w,
                   {**inputs, "bytes_per_param": b.stored_b, "layers_per_stage": layers_stage}
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
    if b.state_back:  # on the host between steps; at the update what the freed activations do not make room for
        opt = Term("optimizer", max(0.0, b.state_back - b.activations), "B",
                   formula("formula.optimizer_back_for_update"), {**inputs, "state_bytes": b.state_back})
    act = _stage_activations(shape, s, b)
    tensors = b.tensors
    over = _overhead_term(tensors, overhead)
    # the states held in the training dtype (mixed_precision false, or fp32): no 'mixed precision' in the label
    # (it read 'mixed precision: 2 B weights, 2 B gradients' for mixed_precision: false, hostile round 27)
    kind = ("memory_layout.parallel_lora" if s.method != "full" else "memory_layout.parallel_pure"
            if not s.mixed or s.precision == "fp32" else "memory_layout.parallel")
    layout = formula(kind, split=split, zero=s.zero, weight_bytes=_g(b.stored_b), grad_bytes=_g(b.grad_b))
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
    eager = (EAGER_SAVED_PER_SCORE * shape.heads * s.seq * (s.batch if s.flat_rows else 1) * t
             if s.attention == "eager" else 0.0)
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
