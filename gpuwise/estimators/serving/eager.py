"""An eager engine's decode step from the ops its model code launches (serving.yaml ``eager_decode``: Hugging Face
transformers' ``generate()``).

The host launches a step's ops one after another from Python; a launch is asynchronous, so the GPU runs each as it
comes and a stretch of the step between two host syncs lasts the longer of the host's launches and the GPU's own
work, not their sum (step.py ``_parts``). The ops of ``generate()``'s loop (sampling, the stopping check that syncs
every token, the next step's inputs) and of the model outside its layers run on their own (``Engine.step_overhead``).
A MoE block that loops over its experts in Python syncs on every expert it hits (``nonzero()`` of the experts hit,
the expert's index, its ``torch.where``), so its loop cannot overlap the rest of the layer: a stretch of its own,
the longer of its launches and its experts' GEMMs."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...frozen import frozen
from ...knowledge.records import version_key


@frozen
class EagerOps:
    """One engine's launch counts and host cost per op (seconds): ``layer_ops`` a decoder layer's ops outside a MoE
    block's expert loop (a MoE layer's without its dense MLP), ``router_ops`` + ``expert_ops`` x experts hit a MoE
    layer's loop, ``step_ops`` the step's ops outside the layers."""

    op_s: float
    layer_ops: float
    moe_layer_ops: float
    router_ops: float
    expert_ops: float
    step_ops: float


def eager_ops(fw: Any, version: str | None, sc: Any) -> EagerOps | None:
    """The launch counts of ``fw`` (serving.yaml ``eager_decode``) for the shape ``sc`` at release ``version``: a
    release before ``rotary_once_from`` builds the rotary tables in every layer (the latest release's count where
    none is stated); a layer's norms beyond a pre-norm layer's two (models.yaml ``layer_norm_kernels``) add a norm's
    ops each. None where the framework has no such entry."""
    e = getattr(fw, "eager_decode", None)
    if e is None:
        return None
    layer = e.layer_ops + max(int(getattr(sc, "norm_kernels", 2)) - 2, 0) * e.norm_ops
    if version is not None and version_key(version) < version_key(e.rotary_once_from):
        layer += e.rotary_table_ops
    return EagerOps(op_s=e.host_op_us * 1e-6, layer_ops=float(layer), moe_layer_ops=float(layer - e.mlp_ops),
                    router_ops=float(e.router_ops), expert_ops=float(e.expert_ops), step_ops=float(e.step_ops))


def eager_engine(eng: Any, version: str | None) -> Any:
    """``eng`` with its fixed costs priced from launched ops where its framework has ``eager_decode``: the step's own
    ops (serving.yaml ``step_ops``) in place of ``step_overhead_us``, no per-layer or per-kernel floors (every op is
    counted in the launches; a precision's own ``extra_layer_overhead_us``, bitsandbytes' measured per-layer cost,
    stays); else ``eng`` unchanged."""
    ops = eager_ops(eng.fw, version, eng.sc)
    if ops is None:
        return eng
    extra = eng.fp.extra_layer_overhead_us if eng.fp else 0.0
    return dataclasses.replace(
        eng, eager=ops, step_overhead=ops.step_ops * ops.op_s + eng.unoverlapped, layer_overhead=extra * 1e-6,
        kernel_floor=0.0, grouped_floor=0.0)


def host_seconds(ops: EagerOps, dense_layers: float, moe_layers: float, hits: float) -> tuple[float, float]:
    """(the layers' launches outside the expert loops, the expert loops' launches) of one stage: ``hits`` the experts
    a MoE layer's tokens touch."""
    layers = (dense_layers * ops.layer_ops + moe_layers * ops.moe_layer_ops) * ops.op_s
    loops = moe_layers * (ops.router_ops + hits * ops.expert_ops) * ops.op_s
    return layers, loops


def torch_attention_us(fw: Any, w: Any) -> float:
    """Microseconds a layer adds where a job states ``attention: eager`` on a framework whose decode attention then
    runs its torch fallback (serving.yaml ``torch_attention``: ExLlamaV2 without flash-attn): the fallback's kernels
    beyond the flash call's, each at its host time (the engine runs no CUDA graph). 0 otherwise."""
    t = getattr(fw, "torch_attention", None)
    if t is None or getattr(w, "attention", None) != "eager":
        return 0.0
    return (t.kernels - t.flash_kernels) * t.host_op_us
