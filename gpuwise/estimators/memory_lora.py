"""Peak training memory of a LoRA / QLoRA fine-tune on one GPU (the plain data-parallel layouts of
:func:`memory.training_memory`; Megatron layouts are :func:`memory.parallel_bytes`'), offload included.

The frozen base (16-bit, a quantized format, or NF4 for QLoRA) sits beside fp32 adapters, their fp32
gradients and their optimizer state. ZeRO-3 / FSDP shards the base and gathers a layer at a time. Offload
moves what the stage owns to the host (``offload: cpu``) or NVMe:

* the optimizer's state and gradients of the adapters (DeepSpeed ``offload_optimizer``, FSDP CPU offload),
  a gradient bucket staying on the GPU as they stream, at every ZeRO stage from 1;
* under ZeRO-3, the parameters too (DeepSpeed ``offload_param``, FSDP ``offload_params``): the GPU's shard
  of the frozen base, at its own bytes (16-bit, int8 / int4, NF4), and of the adapters, the GPU keeping
  the two layers it gathers. ZeRO-Infinity (Rajbhandari et al. 2021, arXiv:2104.07857) partitions every
  parameter, trainable or not, and DeepSpeed's ``offload_param`` puts the partitions in host memory;
  FSDP's ``CPUOffload(offload_params=True)`` keeps each flat parameter's shard on the CPU whether it
  requires gradients or not. Each micro-batch fetches the shard again for its forward, backward and
  recomputed forward (step_time.offload_parts, ``Static.fetched``). PEFT's DeepSpeed guide (huggingface/peft
  docs/source/accelerate/deepspeed.md, 'Caveats') says the same: with CPU offload, LoRA's saving over full
  fine-tuning (the adapters' optimizer state and gradients) is in host RAM, not in GPU memory.

With ZeRO 0 nothing is offloaded (memory.py's note offload_needs_zero) and the layout names no offload.
"""

from __future__ import annotations

from . import Term
from .memory_terms import (
    MemoryEstimate,
    Shape,
    TrainSetup,
    _assemble,
    _g,
    _optimizer_bytes,
    _over,
    _then,
    _with,
    activation_bytes,
    formula,
    lora_adapter_params,
    weight_bytes,
)


def lora_training_memory(shape: Shape, s: TrainSetup, *, quant: dict, overhead: tuple[float, float]
                         ) -> MemoryEstimate:
    """Peak bytes per GPU of one LoRA / QLoRA training step, and what offload keeps on the host."""
    P = shape.params
    notes: list = []
    dp = max(1, s.shard_group or s.dp)
    Pa = lora_adapter_params(shape, s.lora_rank, s.lora_targets)
    if s.method == "qlora":
        frozen = weight_bytes(shape, "int4", {"int4": quant["nf4"]})
        what = formula("formula.base_nf4", bits=_g(quant["nf4"].bits_per_weight))
    elif s.base_format in ("int8", "int4") and s.base_format in quant:  # LoRA on a quantized base
        frozen = weight_bytes(shape, s.base_format, quant)
        what = formula("formula.base_quantized", format=s.base_format,
                       bits=_g(quant[s.base_format].bits_per_weight))
    else:
        base_b = 4 if s.precision == "fp32" else 2
        what = formula("formula.base_frozen", bytes=base_b)
        frozen = Term("weights", P * base_b, "B", what, {"params": P})
    offload = s.offload if s.offload in ("cpu", "nvme") and s.zero >= 1 else "none"
    if s.offload in ("cpu", "nvme") and s.zero == 0:
        notes.append(("", "note.offload_needs_zero", {}))
    host = 0.0
    sharded = s.zero >= 3 and (dp > 1 or offload != "none")
    if sharded:  # FSDP / ZeRO-3 shards the frozen base; a layer is gathered at a time
        gathered = 2 * frozen.value / shape.layers
        shard = frozen.value / dp + Pa * 4 / dp
        inputs = {**frozen.inputs, "adapter_params": Pa, "shards": dp, "layers": shape.layers}
        if offload != "none":  # parameter offload: the shard of the base and adapters lives on the host
            host += shard
            base = Term("weights", gathered, "B", formula("formula.lora_weights_offloaded", base=what, n=dp,
                                                          target=offload), inputs)
        else:
            base = Term("weights", shard + gathered, "B", formula("formula.lora_weights_zero3", base=what, n=dp),
                        inputs)
    else:
        base = Term("weights", frozen.value + Pa * 4, "B", formula("formula.lora_weights", base=what),
                    {**frozen.inputs, "adapter_params": Pa})
    shard_g = dp if s.zero >= 2 else 1
    grads = Term("gradients", Pa * 4 / shard_g, "B", formula("formula.lora_gradients")
                 + (_over(dp, "formula.over_gpus_zero2") if shard_g > 1 else ()), {"adapter_params": Pa})
    opt, step_temp = _optimizer_bytes(s.optimizer, Pa, 4, shape, master=False)
    if s.zero >= 1 and dp > 1:  # DeepSpeed/FSDP shard the adapters' optimizer state too
        kept = tuple(p for p in opt.formula_phrases if p[1] != "formula.adamw_foreach")  # no step copy
        opt = Term("optimizer", opt.value / dp, "B", kept + _over(dp, "formula.over_gpus_zero1"), opt.inputs)
        step_temp = 0.0
    if offload != "none":  # the adapters' optimizer state and gradients go to the host, a bucket streaming
        host += opt.value + grads.value
        opt = Term("optimizer", 0.0, "B", formula("formula.optimizer_offloaded", target=offload), opt.inputs)
        grads = Term("gradients", min(grads.value, s.bucket_bytes), "B",
                     formula("formula.gradients_stream_bucket", target=offload),
                     {"params": Pa, "bytes_per_param": 4.0, "shards": shard_g, "bucket_bytes": s.bucket_bytes})
        step_temp = 0.0
    mode = f"lora-{s.lora_targets}"
    residual = 4 if s.precision == "fp32" else 2
    act, _ = activation_bytes(shape, s, residual, mode)
    if s.method == "qlora":  # one layer's largest matrix is dequantized to 16 bit at a time
        matrix_ffn = shape.ffn * max(1, shape.experts_per_token)
        act = Term(act.name, act.value + 2 * shape.hidden * matrix_ffn,
                   act.unit, _then(act, formula("formula.dequantized_matrix", " + ")),
                   {**act.inputs, "matrix_ffn": matrix_ffn}, input_phrases=act.input_phrases)
    phase_a = base.value + opt.value + act.value
    phase_b = base.value + grads.value + opt.value + step_temp
    base_kind = "NF4" if s.method == "qlora" else (s.base_format if s.base_format in ("int8", "int4") else None)
    if sharded:
        layout = (formula("memory_layout.lora_sharded", method=s.method, base=base_kind, n=dp) if base_kind
                  else formula("memory_layout.lora_sharded_16bit", method=s.method, n=dp))
    else:
        layout = (formula("memory_layout.lora", method=s.method, base=base_kind) if base_kind
                  else formula("memory_layout.lora_16bit", method=s.method))
    comm = Pa * 4 + (frozen.value if s.zero >= 3 and dp > 1 else 0.0)
    est = _assemble(base, grads, opt, act, phase_a, phase_b, step_temp, layout, overhead,
                    host, offload if host else "none", Pa, notes, comm, deepspeed=False)
    return _with(est, 4.0, frozen.value / max(P, 1.0), (P, 0.0))
