"""The dense GEMMs of one forward, by shape: what the step walks K-block by K-block and what the FP8 depth share
weighs (support.fp8_depth). Apart from the engine so that support can read them without importing it."""

from __future__ import annotations

from typing import Any

from .weights import moe_layers


def block_gemms(shape: Any) -> tuple[tuple[float, float, str, float], ...]:
    """The dense linear layers of one forward as (N, K, dimension tensor parallelism splits: "n", "k" or "",
    how many): attention projections (MLA: the fused q/latent down-projection, replicated; the query
    up-projection; the output projection; MLA's absorbed key/value up-projections run as 16-bit batched GEMMs
    and are left out) and the dense MLP layers. What :func:`step.kserial_seconds` walks K-block by K-block.
    A MoE layer's shared expert is left out: SGLang runs it inside the routed experts' grouped GEMM, and
    TensorRT-LLM beside them on an auxiliary stream (tensorrt_llm/_torch/models/modeling_deepseekv3.py,
    Deepseekv3MoE.forward: maybe_execute_in_parallel(_compute_routed_output, _compute_shared_output, ...,
    self.aux_stream)), where the walk of its few thread blocks overlaps the routed experts. A LatentMoE model's two
    projections a MoE layer run as GEMMs every rank holds whole (:func:`replicated_moe`)."""
    h, layers = float(shape.hidden), float(shape.layers)
    out: list[tuple[float, float, str, float]] = []
    if shape.mla:
        q_rank, kv_rank, rope, nope, v = shape.mla
        n = float(shape.heads)
        if q_rank:
            out += [(q_rank + kv_rank + rope, h, "", layers), (n * (nope + rope), float(q_rank), "n", layers)]
        else:
            out += [(kv_rank + rope, h, "", layers), (n * (nope + rope), h, "n", layers)]
        out.append((h, n * v, "k", layers))
    elif getattr(shape, "global_attn", None):  # windowed and global layers project to their own widths
        f = shape.window_layers_fraction
        d, g_kv, k_eq_v = shape.global_attn
        q, kv = float(shape.heads * shape.head_dim), float(shape.kv_heads * shape.head_dim)
        q_g, kv_g = float(shape.heads * d), float(g_kv * d) * (1.0 if k_eq_v else 2.0)
        out += [(q + 2 * kv, h, "n", layers * f), (h, q, "k", layers * f),
                (q_g + kv_g, h, "n", layers * (1 - f)), (h, q_g, "k", layers * (1 - f))]
    else:
        q, kv = float(shape.heads * shape.head_dim), float(shape.kv_heads * shape.head_dim)
        out += [(q + 2 * kv, h, "n", layers), (h, q, "k", layers)]
    moe = moe_layers(shape)
    dense = layers - moe
    ffn = float(getattr(shape, "dense_ffn", None) or shape.ffn) if moe else float(shape.ffn)
    up = 2.0 if getattr(shape, "mlp_matrices", 3) == 3 else 1.0
    if dense > 0:
        out += [(up * ffn, h, "n", dense), (h, ffn, "k", dense)]
    lat = float(getattr(shape, "moe_latent", None) or 0)
    if lat and moe > 0:
        out += [(lat, h, "", float(moe)), (h, lat, "", float(moe))]
    return tuple(out)
