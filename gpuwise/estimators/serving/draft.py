"""What a speculative drafter holds in GPU memory beside the target: its weights and its KV cache.

Sized from the drafter's parameters (knowledge/serving.yaml ``speculative_methods``):

* **MTP** (DeepSeek-V3/R1, GLM-4.5...): the model's own prediction module, one decoder layer of the
  model's kind (a MoE layer with all its experts for a MoE model) plus a 2h x h projection of
  [embedding; hidden]; it shares the embedding and output head. A MoE layer's size is what the
  decoder's linear weights leave after the dense layers, per MoE layer.
* **EAGLE / EAGLE-3**: one dense decoder layer at the target's width (attention as the target's, an MLP
  as wide as the target's dense MLP, or as the k experts a token runs through), a ``fc_inputs`` x h x h
  projection of the fused features, and, for EAGLE-3, an output head over its own draft vocabulary.
* **draft model**: ``draft_params_b`` parameters in the target's weight format, with its own KV cache
  (its shape fitted from its size, :func:`gpuwise.inputs.shape.guess_shape`).
* **n-gram**: nothing (a host-side lookup).

What one drafting pass costs (:func:`pass_extra_seconds`, read by the step's drafter time): its decoder layers at the
target's own cost a layer, and what a layer's share of the target's step leaves out, the pass's own output head over
the vocabulary and its input projection. SGLang's MTP drafter (python/sglang/srt/models/deepseek_nextn.py,
DeepseekV3ForCausalLMNextN, at 0114f9c9) is a whole forward: it embeds the token, concatenates the normed embedding
and hidden state through ``eh_proj``, a plain ``nn.Linear(2h, h)`` (16-bit, whole on every rank: not a parallel or
quantized linear), runs one decoder layer, and its ``ParallelLMHead`` over the full vocabulary feeds the logits
processor (a ReplicatedLinear head, whole on each rank, under attention data parallelism); its EAGLE worker
(python/sglang/srt/speculative/eagle_worker.py at 00559eac) hands the drafter the target's embedding
and head (``set_embed_and_head``) unless a hot-token map is given, so each pass multiplies the whole vocabulary.
EAGLE-3 runs its own head over its draft vocabulary.

The drafter is split like the target: tensor-parallel ranks each hold 1/tp of it (its experts spread
over the expert-parallel GPUs with attention data parallelism); pipeline stages do not split it (it
sits beside the last stage, so the busiest GPU holds it whole).
"""

from __future__ import annotations

from typing import Any

from ...frozen import frozen
from ...messages import Phrase, formula
from .. import memory as M
from .. import memory_serving as MS


@frozen
class Drafter:
    """A drafter's parameters and bytes, before any split over GPUs."""

    method: str
    params: float  # parameters held beside the target
    expert_params: float  # of which routed experts (MTP of a MoE model)
    bytes_per_param: float  # the target's weight format for the drafter's linear weights
    kv_bytes_per_token: float  # its KV cache per token of a sequence
    kv_heads: int  # how many ways tensor parallelism divides its KV (1: a latent held whole)
    formula: tuple[Phrase, ...]  # its parameters and bytes, as formula.drafter.* message ids with values
    head_params: float = 0.0  # the output head a drafting pass multiplies (the target's, shared; EAGLE-3's own)
    fc_params: float = 0.0  # its input projection, read whole by every rank at 16 bits
    target_head_params: float = 0.0  # the target's own output head (what a layer's share of its step leaves out)

    @property
    def weight_bytes(self) -> float:
        return self.params * self.bytes_per_param

    def weights_gpu(self, tp: int, ep: int, dp_attention: int) -> float:
        """Bytes on the busiest GPU of a copy in this layout."""
        if dp_attention > 1:
            experts = self.expert_params * self.bytes_per_param
            return (self.weight_bytes - experts) + experts / max(ep, 1)
        return self.weight_bytes / max(tp, 1)

    def kv_token_gpu(self, tp: int, dp_attention: int) -> float:
        """KV bytes per token of a sequence on the GPU that holds it."""
        if dp_attention > 1:
            return self.kv_bytes_per_token
        return self.kv_bytes_per_token / max(1, min(tp, self.kv_heads))


def dense_layer_params(shape: Any) -> float:
    """One dense decoder layer at the target's width: its attention and an MLP as wide as its dense MLP
    (MoE models: the dense layers' width, else the k routed experts a token runs through)."""
    width = shape.dense_ffn or (shape.ffn * max(1, shape.experts_per_token) if shape.moe else shape.ffn)
    return shape.attn_params_per_layer() + shape.mlp_matrices * shape.hidden * width


def model_layer_params(shape: Any) -> tuple[float, float]:
    """(parameters, of which routed experts) of one decoder layer of the model's own kind: a MoE layer
    for a MoE model (what the linear weights leave after its dense layers, per MoE layer), else the
    mean layer."""
    if not shape.moe:
        return shape.linear_params / max(shape.layers, 1), 0.0
    moe_layers = max(shape.moe_layers, 1)
    dense = (shape.layers - moe_layers) * (shape.attn_params_per_layer()
                                           + shape.mlp_matrices * shape.hidden * (shape.dense_ffn or shape.ffn))
    return max(shape.linear_params - dense, 0.0) / moe_layers, M.routed_expert_params(shape) / moe_layers


def layer_kv_bytes(shape: Any, kv_bytes: float) -> float:
    """KV bytes per token of one of the target's attention layers (MLA: its compressed latent; a hybrid's KV cache
    is its attention layers' alone, so it is divided by them, not by every layer)."""
    return MS.kv_cache_bytes(shape, 1, kv_bytes).value / max(getattr(shape, "attn_layers", shape.layers), 1)


def drafter(job: Any, spec: Any, bytes_per_param: float, kv_bytes: float) -> Drafter | None:
    """The drafter ``spec`` (an :class:`options.Spec`) keeps beside ``job``'s model; None for n-gram
    lookup or no speculative decoding."""
    if spec is None:
        return None
    shape = job.shape
    h = shape.hidden
    method = job.kb.serving.speculative_methods.get(spec.method) if getattr(job.kb, "serving", None) else None
    fc = (method.draft_fc_inputs if method is not None else 0) * h * h
    vocab = method.draft_vocab if method is not None else 0
    if spec.draft_params:
        from ...inputs.shape import guess_shape

        small = guess_shape(spec.draft_params)
        return Drafter(spec.method, spec.draft_params, 0.0, bytes_per_param,
                       MS.kv_cache_bytes(small, 1, kv_bytes).value, MS.kv_heads_effective(small),
                       formula("formula.drafter.model", method=spec.method, params_b=spec.draft_params / 1e9,
                               bytes_per_param=bytes_per_param, layers=small.layers, kv_heads=small.kv_heads,
                               head_dim=small.head_dim))
    if spec.draft_layers <= 0:
        return None
    if spec.method == "mtp":
        layer, experts = model_layer_params(shape)
        what = "formula.drafter.moe_layers" if shape.moe else "formula.drafter.decoder_layers"
    else:
        layer, experts = dense_layer_params(shape), 0.0
        what = "formula.drafter.dense_layers"
    n = spec.draft_layers
    params = n * (layer + fc) + vocab * h
    words = (formula(what, method=spec.method, layers=n, layer_b=layer / 1e9, fc_inputs=fc / (h * h))
             + (formula("formula.drafter.head", " + ", vocab=vocab) if vocab else ())
             + formula("formula.drafter.bytes", ", ", bytes_per_param=bytes_per_param))
    target = float(shape.vocab * h)  # a tied model's head is its embedding, multiplied all the same
    return Drafter(spec.method, params, n * experts, bytes_per_param, n * layer_kv_bytes(shape, kv_bytes),
                   MS.kv_heads_effective(shape), words, float(vocab * h) if vocab else target, n * fc, target)


FC_BYTES = 2.0  # the drafter's input projection is a 16-bit nn.Linear (module docstring)
# A pass's kernels around its decoder layers (deepseek_nextn.py DeepseekModelNextN.forward and the logits processor;
# eagle_worker.py draft_forward): the embedding lookup, the two input norms, their concatenation, eh_proj, the final
# norm, the head GEMM, and the draft's softmax and top-k over the logits; and its two collectives at tensor
# parallelism: the vocabulary-parallel embedding's all-reduce and the head's all-gather of the logits.
PASS_KERNELS = 9
PASS_COLLECTIVES = 2


def head_seconds(head_params: float, bytes_per_param: float, split: int, bw: float, peak: float,
                 rows: float) -> float:
    """Seconds an output head of ``head_params`` takes in a forward of ``rows`` tokens on one of ``split``
    vocabulary-parallel ranks: its weights at ``bw`` and its math at ``peak``, added as the step adds a linear
    layer's (step.linear_time)."""
    share = head_params / max(split, 1)
    return share * bytes_per_param / bw + 2.0 * rows * share / peak


def pass_extra_seconds(d: Drafter | None, split: int, bw: float, peak: float, rows: float, kernel: float = 0.0,
                       collective: float = 0.0) -> float:
    """Seconds one drafting pass of ``rows`` sequences spends beyond its decoder layers: its output head (split
    over the ``split`` tensor-parallel ranks), its input projection (whole on each), and its own kernels and
    collectives (PASS_KERNELS at ``kernel`` seconds each, PASS_COLLECTIVES at ``collective``: 0 where no
    tensor-parallel exchange runs); 0 with no such drafter."""
    if d is None:
        return 0.0
    return (head_seconds(d.head_params, d.bytes_per_param, split, bw, peak, rows)
            + d.fc_params * FC_BYTES / bw + 2.0 * rows * d.fc_params / peak
            + PASS_KERNELS * kernel + PASS_COLLECTIVES * collective)
