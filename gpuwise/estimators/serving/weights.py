"""A model's weights as a serving step reads them: their bytes in a format, split into the routed experts, the
input embedding, the dense weights and those every tensor-parallel rank holds whole (moved out of ``engine``,
which re-exports them)."""

from __future__ import annotations

from typing import Any

from ...frozen import frozen
from .. import memory as M


@frozen
class ModelBytes:
    """A model's weights in one format, split the way a decode step reads them."""

    total: float
    embed_in: float  # input embedding: a row lookup, not streamed
    experts: float  # routed experts (MoE)
    linear_bytes_per_param: float
    replicated: float = 0.0  # dense weights every tensor-parallel rank holds whole (MLA down-projections, gate)
    low_dense: float = 0.0  # of the dense weights read, those in the quantized format (not the 16-bit kept ones)
    low_replicated: float = 0.0  # of those, the ones every tensor-parallel rank holds whole
    fp8_params: float = 0.0  # dense weights the published checkpoint stores in FP8 (``fp4_checkpoints`` fp8)
    fp8_parts: tuple[tuple[str, float], ...] = ()  # (part, share of its weights in FP8) of that checkpoint

    @property
    def non_expert(self) -> float:
        return self.total - self.experts

    @property
    def dense_read(self) -> float:
        return self.total - self.embed_in - self.experts

    def per_rank(self, tp: int) -> float:
        """Dense weights (embedding included) one of ``tp`` tensor-parallel ranks holds: its share of the split
        ones, all of the replicated ones."""
        return (self.non_expert - self.replicated) / tp + self.replicated


def router_params(shape: Any) -> float:
    """The MoE gate's weights: experts x hidden per MoE layer (0 for a dense model)."""
    return float(moe_layers(shape) * shape.experts * shape.hidden) if shape.moe else 0.0


def replicated_moe(shape: Any, gate_b: float, latent_b: float) -> float:
    """Bytes of the MoE weights every tensor-parallel rank holds whole: the gate at ``gate_b`` a weight, a LatentMoE
    model's projections (:attr:`Shape.latent_params`) at ``latent_b``."""
    return router_params(shape) * gate_b + getattr(shape, "latent_params", 0.0) * latent_b


def model_bytes(shape: Any, fmt: str, quant: dict, keeps: tuple[str, ...] = (), bits: float | None = None,
                fp8: tuple[tuple[str, float], ...] = ()) -> ModelBytes:
    """The weights in ``fmt``. Serving frameworks keep the MoE gate in 16 bit whatever the format (vLLM and SGLang
    build it unquantized, TensorRT-LLM's RouterGEMM is BF16) and hold it, like MLA's down-projections and LatentMoE's
    projections (ReplicatedLinear in vLLM's and SGLang's nemotron_h.py), whole on every tensor-parallel rank; ``keeps``
    names what a published checkpoint leaves in 16 bit besides
    (``fp4_checkpoints``: 'attention'; 'non_experts', every weight but the routed experts, which are at the
    checkpoint's own ``bits`` per weight (``int4_checkpoints``) or the format's (an FP4 experts-only checkpoint)), and
    ``fp8`` the share of a part it stores in FP8 instead (:func:`with_fp8`)."""
    if fp8:
        kept = "non_experts" in keeps and shape.moe
        return with_fp8(model_bytes(shape, fmt, quant, keeps, bits), shape, quant, fp8, kept)
    if "non_experts" in keeps and shape.moe and (bits is not None or fmt in quant):
        bits = bits if bits is not None else quant[fmt].bits_per_weight  # an FP4 checkpoint: the format's own
        routed = M.routed_expert_params(shape)
        lin = bits / 8
        replicated = shape.layers * shape.replicated_attn_params_per_layer() * 2.0 + replicated_moe(shape, 2.0, 2.0)
        embed_in = 0.0 if shape.tied else shape.embedding_params * 2.0
        return ModelBytes(routed * lin + (shape.params - routed) * 2.0, embed_in, routed * lin, lin, replicated)
    rest = getattr(quant.get(fmt), "moe_rest_bits", None)
    if rest and shape.moe and not keeps:
        return moe_file_bytes(shape, fmt, quant)
    total = M.weight_bytes(shape, fmt, quant).value
    if fmt in M.BYTES and fmt in ("fp32", "fp16", "bf16"):
        lin = float(M.BYTES[fmt])
        emb_b = lin
    else:
        q = quant[fmt]
        lin = q.bits_per_weight / 8
        emb_b = 2.0 if "embeddings" in q.keeps_16bit else lin
    embed_in = 0.0 if shape.tied else shape.embedding_params * emb_b
    attn_b = 2.0 if {"attention", "attention_inputs"} & set(keeps) else lin
    gate = router_params(shape)
    attention = shape.layers * (shape.attn_params_per_layer() - (
        shape.attn_output_params_per_layer() if "attention_inputs" in keeps else 0.0))
    attention = attention if {"attention", "attention_inputs"} & set(keeps) else 0.0
    total += gate * (max(lin, 2.0) - lin) + attention * (attn_b - lin)
    replicated = shape.layers * shape.replicated_attn_params_per_layer() * attn_b + replicated_moe(
        shape, max(lin, 2.0), lin)
    routed = M.routed_expert_params(shape)
    low_repl = (shape.layers * shape.replicated_attn_params_per_layer() * lin if attn_b == lin else 0.0
                ) + replicated_moe(shape, 0.0, lin)
    low = (shape.params - shape.embedding_params - shape.lm_head_params - routed - gate - attention) * lin
    return ModelBytes(total, embed_in, routed * lin, lin, replicated, max(low, 0.0), low_repl)


def with_fp8(mb: ModelBytes, shape: Any, quant: dict, fp8: tuple[tuple[str, float], ...], kept: bool) -> ModelBytes:
    """``mb`` with the share of each part in ``fp8`` stored in FP8 (the format's bits, per-tensor scales: 1 byte a
    weight) in place of what ``mb`` gave it: 16 bit where ``kept`` (an experts-only checkpoint, 'non_experts'), else
    the FP4 format's bits. The parts are split by tensor parallelism (none is held whole)."""
    share = dict(fp8)
    params = share.get("mixers", 0.0) * mixer_params(shape) + share.get("shared_experts", 0.0) * shared_params(shape)
    was = 2.0 if kept else mb.linear_bytes_per_param  # what the entry left these parts in
    low = mb.low_dense if kept else mb.low_dense - params * was
    return ModelBytes(mb.total - params * (was - quant["fp8"].bits_per_weight / 8), mb.embed_in, mb.experts,
                      mb.linear_bytes_per_param, mb.replicated, max(low, 0.0), mb.low_replicated, params, fp8)


def shared_params(shape: Any) -> float:
    """The shared experts' weights, every MoE layer's (0 without them)."""
    if not shape.moe or not shape.shared_experts:
        return 0.0
    return float(moe_layers(shape) * shape.shared_experts * shape.mlp_matrices * shape.hidden * shape.ffn)


def mixer_params(shape: Any) -> float:
    """Every layer's attention and recurrent (Mamba, gated DeltaNet) projections: the weights left once the
    embedding, head, routed and shared experts, router, LatentMoE projections and dense MLPs are taken out (the
    norms, convolutions and gates, a small share, with them)."""
    mlp = shape.mlp_matrices * shape.hidden
    if not shape.moe:
        dense = shape.layers * mlp * shape.ffn
    else:  # a hybrid's MoE blocks (moe_blocks) stand beside its mixer blocks, with no dense MLP
        dense = 0 if shape.moe_blocks is not None else (shape.layers - moe_layers(shape)) * mlp * (
            shape.dense_ffn or shape.ffn)
    rest = shape.params - shape.embedding_params - shape.lm_head_params - M.routed_expert_params(shape)
    return max(rest - router_params(shape) - shared_params(shape) - getattr(shape, "latent_params", 0.0) - dense, 0.0)


def moe_file_bytes(shape: Any, fmt: str, quant: dict) -> ModelBytes:
    """A MoE file whose format quantizes the routed experts alone (``moe_rest_bits``): the experts at the format's
    bits, every other tensor (attention, router, embeddings and head) at ``moe_rest_bits``; the total is the memory
    estimate's own weights term (:func:`gpuwise.estimators.memory.weight_bytes`)."""
    lin, rest = quant[fmt].bits_per_weight / 8, quant[fmt].moe_rest_bits / 8
    embed_in = 0.0 if shape.tied else shape.embedding_params * rest
    replicated = shape.layers * shape.replicated_attn_params_per_layer() * rest + replicated_moe(shape, rest, rest)
    return ModelBytes(M.weight_bytes(shape, fmt, quant).value, embed_in, M.routed_expert_params(shape) * lin, lin,
                      replicated)


def moe_layers(shape: Any) -> int:
    """Layers with routed experts (the shape's own count when it knows its MoE layout)."""
    if not shape.moe:
        return 0
    known = getattr(shape, "moe_layers", None)
    if isinstance(known, int):
        return known
    return max(shape.layers - int(getattr(shape, "first_dense_layers", 0) or 0), 0)
