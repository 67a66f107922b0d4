"""The layers of a hybrid model that run a recurrent mixer (gated DeltaNet, Mamba-2) in place of attention: what the
step formula (:mod:`.step`) counts for them beside the attention layers.

- A prompt token's attention FLOPs grow with its context only in the layers that run attention
  (``Shape.attn_layers``); a recurrent layer's work a token is fixed. Gated DeltaNet prefills with the chunked gated
  delta rule of flash-linear-attention, which SGLang and vLLM both carry (fla-org/flash-linear-attention
  fla/ops/gated_delta_rule/chunk.py ``chunk_gated_delta_rule_fwd``; sgl-project/sglang
  python/sglang/srt/layers/attention/linear/kernels/gdn_triton.py @ 0a48af3a ``TritonGDNKernel.extend`` calls it).
  For a chunk of C tokens and each value head (key width d_k, value width d_v) its kernels multiply:
  ``chunk_scaled_dot_kkt_fwd`` K K^T (C x C x d_k), ``recompute_w_u_fwd`` w = A K and u = A V (C x C x d_k and
  C x C x d_v), ``chunk_gated_delta_rule_fwd_h`` the new values u - w S (C x d_k x d_v) and the state update
  S + K^T V_new (d_k x C x d_v), ``chunk_fwd_o`` Q S (C x d_k x d_v) and the masked (Q K^T) V_new (C x C x d_k and
  C x C x d_v). A token thus costs 2 C (3 d_k + 2 d_v) + 6 d_k d_v FLOPs a value head: with d_k = d_v = d and the
  layer's state S = value heads x d^2 elements, 10 C S / d + 6 S a layer (the C x C triangular solve,
  ``solve_tril``, ~C^2 / 3 a token, and the gating's cumulative sum are left out). Mamba-2's chunked scan is not
  counted (its layers' time is their matmuls, as the catalog's notes say).
- A decode step launches the recurrent mixer's kernels in place of an attention mixer's; the framework's count is
  serving.yaml ``recurrent_mixer_kernels``, and each kernel beyond an attention mixer's 5 (the QKV GEMM, RoPE, cache
  write, attention and output GEMM of step.DENSE_LAYER_KERNELS) costs the framework's kernel floor. A count may hold
  for a window of releases only (``releases``: llama.cpp's unfused qwen3next graph between pull requests #17996 and
  #19375, 52 kernels a layer), and such a window may drop the decode's CUDA graphs (``graphs_dropped``), whose job
  then takes the framework's eager constants (:func:`graphs_dropped`, read by the serving engine).
"""

from __future__ import annotations

from typing import Any

from ...knowledge.records import in_releases, release_at_least

FLA_CHUNK_TOKENS = 64  # fla/ops/common/chunk_delta_h.py CHUNK_SIZE (sglang gdn_backend.py imports it as FLA_CHUNK_SIZE)
FLA_HEAD_DIM = 128  # the head width of the timed kernels (serving.yaml fla_gdn_prefill: Qwen3-Next / Qwen3.5 heads)
ATTENTION_MIXER_KERNELS = 5  # of a dense layer's 12: QKV GEMM, RoPE, cache write, attention, output GEMM


def chunk_flops(kind: str, state: int, head_dim: int) -> float:
    """FLOPs a prompt token costs in one recurrent layer's chunked prefill beyond its projections: gated DeltaNet's
    10 C S / d + 6 S (module docstring); 0 for Mamba-2, and the within-chunk term 0 where the head width is not
    stated."""
    if kind != "gated_deltanet":
        return 0.0
    intra = 10.0 * FLA_CHUNK_TOKENS * state / head_dim if head_dim else 0.0
    return intra + 6.0 * state


def hybrid_consts(shape: Any) -> tuple[int, str, int, float, float] | None:
    """(layers that run attention, the recurrent mixer's kind, its layers, chunked-prefill FLOPs a prompt token in
    one of them, its value heads of 128: state / 128^2 for a gated DeltaNet of 128-wide heads, else 0) of a model
    whose layers do not all run attention; None where every layer does."""
    rec = getattr(shape, "recurrent", None)
    attn = getattr(shape, "attn_layers", shape.layers)
    if not rec and attn == shape.layers:
        return None
    kind, head_dim = getattr(shape, "recurrent_mixer", None) or ("mamba2", 0)
    layers, state = (rec[0], rec[1]) if rec else (0, 0)
    heads = state / FLA_HEAD_DIM ** 2 if kind == "gated_deltanet" and head_dim == FLA_HEAD_DIM else 0.0
    return attn, kind, layers, chunk_flops(kind, state, head_dim), heads


def fla_prefill_seconds(kb: Any, fw: Any, gpu: Any, version: str | None) -> float:
    """Seconds a prompt token costs one value head (of 128) of a gated DeltaNet layer where the framework's release
    prefills it on flash-linear-attention's Triton chunk kernels on this GPU (serving.yaml ``fla_gdn_prefill``): the
    kernels' measured time, taken as memory traffic, at this GPU's bandwidth over the timed GPU's; 0.0 elsewhere
    (the chunk's FLOPs then stand, :func:`chunk_flops`). A job that states no release takes the framework's current
    kernels, never this window."""
    fla = getattr(fw, "fla_gdn_prefill", None)
    if fla is None or gpu.compute_capability not in fla.compute_capability or not in_releases(fla, version):
        return 0.0
    timed = kb.gpus[fla.gpu].memory.bandwidth_gb_s
    return fla.seconds / (fla.tokens * fla.value_heads) * timed / gpu.memory.bandwidth_gb_s


def mixer_decode(table: Any, version: str | None) -> dict:
    """A framework's decode kernels a recurrent mixer by kind (serving.yaml ``recurrent_mixer_kernels``): the counts
    of the release window the stated ``version`` is in (``releases``), else the table's own ``decode``."""
    for win in table.releases:
        if in_releases(win, version):
            return win.decode
    return table.decode


def graphs_dropped(fw: Any, version: str | None, shape: Any, gpu: Any = None) -> bool:
    """Whether the decode runs without its CUDA graphs: the stated release drops them for this model's recurrent
    mixer (serving.yaml ``recurrent_mixer_kernels.releases[].graphs_dropped``: llama.cpp's qwen3next graph before
    #19375, whose updates fail every ~128 tokens; never for a job that states no release or a model without such a
    mixer), or the build captures none on ``gpu`` (:func:`graphs_gated`)."""
    if gpu is not None and graphs_gated(fw, version, gpu):
        return True
    table, hybrid = getattr(fw, "recurrent_mixer_kernels", None), hybrid_consts(shape)
    if table is None or hybrid is None:
        return False
    return any(w.graphs_dropped and hybrid[1] in w.decode and in_releases(w, version) for w in table.releases)


def graphs_gated(fw: Any, version: str | None, gpu: Any) -> bool:
    """Whether the framework's build at ``version`` captures no CUDA graph on ``gpu`` (serving.yaml
    ``cuda_graphs_gate``: llama.cpp below Ampere until its Volta + Turing pull request, below Volta since): a GPU of
    the gate's vendors below its compute capability for the release (the lowered gate for a job that states none)."""
    gate = getattr(fw, "cuda_graphs_gate", None)
    if gate is None or gpu.vendor not in gate.vendors or not gpu.compute_capability:
        return False
    lowered = version is None or release_at_least(version, gate.lowered_from)
    return float(gpu.compute_capability) < (gate.lowered_below if lowered else gate.below_compute_capability)


def recurrent_extra_kernels(eng: Any) -> float:
    """Kernels a decode forward launches in its recurrent layers beyond as many attention mixers' (all stages):
    (the framework's count for the mixer at the job's release, :func:`mixer_decode`, - 5) x the recurrent layers;
    0 where the framework states no count."""
    hybrid, table = eng.sc.hybrid, eng.fw.recurrent_mixer_kernels
    counts = mixer_decode(table, eng.framework_version) if table is not None else {}
    if hybrid is None or hybrid[1] not in counts:
        return 0.0
    return float((counts[hybrid[1]] - ATTENTION_MIXER_KERNELS) * hybrid[2])
