"""The transformer shape an estimate works on: from the catalog, from the user's
``architecture`` block, or (with only ``params_b``) from a stated rule of thumb.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .. import messages
from ..frozen import frozen
from .schema import Architecture, Workload

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Model


@frozen
class Shape:
    name: str
    params: float  # total parameters
    active_params: float  # per token (MoE) — equals params for dense models
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn: int  # dense MLP width, or one routed expert's
    vocab: int
    tied: bool
    mlp_matrices: int = 3  # SwiGLU/GeGLU: gate, up, down; GELU MLP: 2
    experts: int = 1
    experts_per_token: int = 1
    shared_experts: int = 0  # MoE: experts of the routed width that every token uses
    kv_elements_override: int | None = None  # MLA: compressed cache elements per token-layer
    diffusion: bool = False
    # inferred rather than known: the values of reports/messages.yaml's assume.shape (empty: known)
    assumed_values: tuple[tuple[str, object], ...] = ()
    # local attention: layers that keep only the last ``attention_window`` tokens (sliding or chunked)
    attention_window: int | None = None
    window_layers_fraction: float = 0.0
    # MoE layer layout: dense layers first (DeepSeek/Kimi/GLM), then every n-th layer MoE (Llama 4 Maverick: 2)
    first_dense_layers: int = 0
    moe_layer_interval: int = 1
    dense_ffn: int | None = None  # MLP width of the dense layers of an MoE model
    # a hybrid's MoE blocks counted apart from its mixer blocks (catalog ``moe.blocks``, Nemotron 3): the layers that
    # hold routed experts, in place of the layout above; None: the layout places them
    moe_blocks: int | None = None
    # LatentMoE (catalog ``moe.latent_size``): the width the routed experts take in and give out, with a dense down
    # projection hidden -> latent before them and an up projection after; None: the hidden width
    moe_latent: int | None = None
    # multi-head latent attention: (q_lora_rank or 0, kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim)
    mla: tuple[int, int, int, int, int] | None = None
    # layers (or applications of a shared block) that run attention, where not every layer: a Mamba hybrid's
    # attention blocks (Zamba-7B: 13 applications of one shared block among 76 Mamba layers), 0 for a pure SSM
    attention_layers: int | None = None
    # the mixer of the layers that do not run attention ('mamba1': the selective scan; 'mamba2': SSD; None: their
    # matmuls alone), for the scan's work beside the matmuls (runtime.yaml training.mamba1_scan_k)
    ssm: str | None = None
    # per-sequence state of the layers without attention (catalog ``recurrent``): (layers, state elements, convolution
    # elements, state bytes, convolution bytes) a layer; None: every layer keeps only a KV cache
    recurrent: tuple[int, int, int, float, float] | None = None
    # the recurrent layers' mixer (catalog ``recurrent.kind``) and its key/value head width (0: not stated)
    recurrent_mixer: tuple[str, int] | None = None
    # the q/k RMSNorm spans all heads of a layer (MiniMax-M2): tensor-parallel attention all-reduces it a layer
    qk_norm_all_heads: bool = False
    # the global (non-windowed) layers' own (head width, KV heads, values from the key projection) where they differ
    # from the windowed layers' (catalog ``global_attention``, Gemma 4); None: every layer has head_dim and kv_heads
    global_attn: tuple[int, int, bool] | None = None
    # sparse attention picked by an indexer (catalog ``sparse_attention``, DeepSeek Sparse Attention): (indexer heads,
    # indexer head width, tokens each query attends, the indexer key's bytes a token and layer); None: dense
    sparse_attn: tuple[int, int, int, float] | None = None
    # of those layers, the ones that keep an indexer of their own (catalog ``sparse_attention.indexer_layers``,
    # GLM-5.2's IndexShare); None: every attention layer has one
    index_layers: int | None = None
    # norm kernels a layer runs on the hidden state (catalog ``layer_norm_kernels``; a pre-norm layer's 2)
    norm_kernels: int = 2
    # a framework's own count of a layer's kernels beyond a dense pre-norm layer's (catalog ``graph_layer_kernels``):
    # (framework, the mean over the layers, global ones weighed by their share); empty: the generic counts
    graph_kernels: tuple[tuple[str, float], ...] = ()

    @property
    def attn_layers(self) -> int:
        """Layers that compute attention and keep a KV cache: ``attention_layers`` where given, else every layer."""
        return self.layers if self.attention_layers is None else self.attention_layers

    @property
    def indexer_layers(self) -> int:
        """Attention layers that run a sparse-attention indexer of their own (its key in the cache, its logits, its
        kernels): ``index_layers`` where given, else every attention layer."""
        return self.attn_layers if not self.index_layers else min(self.index_layers, self.attn_layers)

    @property
    def indexer_share(self) -> float:
        """:attr:`indexer_layers` over :attr:`attn_layers` (1.0 where every layer has its own indexer)."""
        return self.indexer_layers / max(self.attn_layers, 1)

    @property
    def state_bytes_per_sequence(self) -> float:
        """Bytes of recurrent state one running sequence holds whatever its length: layers x (state elements x their
        bytes + convolution elements x theirs); 0 for a model whose layers all keep a KV cache."""
        if not self.recurrent:
            return 0.0
        layers, state, conv, sb, cb = self.recurrent
        return float(layers * (state * sb + conv * cb))

    @property
    def assumed(self) -> str:
        """Why the shape is assumed, in English ('' when it is known)."""
        return messages.text("assume.shape", dict(self.assumed_values)) if self.assumed_values else ""

    @property
    def kv_dim(self) -> int:
        """Width of the K (or V) projection: kv_heads x head_dim."""
        return self.kv_heads * self.head_dim

    @property
    def q_dim(self) -> int:
        return self.heads * self.head_dim

    @property
    def embedding_params(self) -> float:
        return float(self.vocab * self.hidden)

    @property
    def lm_head_params(self) -> float:
        return 0.0 if self.tied else float(self.vocab * self.hidden)

    @property
    def linear_params(self) -> float:
        """Parameters in the decoder layers' matmuls (what quantizers quantize)."""
        return max(self.params - self.embedding_params - self.lm_head_params, 0.0)

    @property
    def matmul_params_active(self) -> float:
        """Parameters a token multiplies through: active layer weights plus the output head."""
        active_linear = max(self.active_params - self.embedding_params - self.lm_head_params, 0.0)
        return active_linear + self.embedding_params  # the head is V x h whether tied or not

    @property
    def moe(self) -> bool:
        return self.experts > 1

    @property
    def routed_expert_params(self) -> float:
        """Parameters in the routed experts of all MoE layers: the active count holds k of the E experts,
        the total all E, so the difference is (E - k) experts' worth."""
        if not self.moe or self.experts <= self.experts_per_token:
            return 0.0
        return max(self.params - self.active_params, 0.0) * self.experts / (self.experts - self.experts_per_token)

    @property
    def expert_width(self) -> int:
        """The width a routed expert's input and output rows have: the latent of a LatentMoE model, else the hidden
        size. The rows its expert-parallel dispatch and combine carry (vLLM nemotron_h.py passes fc1_latent_proj to
        the fused MoE as its routed input transform, so the experts and their dispatch see the latent)."""
        return self.moe_latent or self.hidden

    @property
    def latent_proj_params(self) -> float:
        """One MoE layer's LatentMoE projections, hidden x latent down and latent x hidden up (0 without them)."""
        return float(2 * self.hidden * self.moe_latent) if self.moe_latent else 0.0

    @property
    def latent_params(self) -> float:
        """Every MoE layer's LatentMoE projections: dense weights each token runs through (0 without them)."""
        return self.moe_layers * self.latent_proj_params

    @property
    def moe_layers(self) -> int:
        """Layers that hold routed experts (all layers for a dense model's single 'expert')."""
        if not self.moe:
            return self.layers
        if self.moe_blocks is not None:
            return self.moe_blocks
        return max(0, (self.layers - self.first_dense_layers) // self.moe_layer_interval)

    def kv_cached_tokens(self, context: float) -> float:
        """Tokens of KV cache per layer, averaged over layers: local-attention layers keep at
        most ``attention_window`` tokens, the others the whole context. Where the global layers' KV width differs
        (``global_attn``) the average weighs each layer by its KV elements a token (:attr:`kv_window_share`), so
        that it times :attr:`kv_elements_layer` is the bytes a sequence keeps."""
        if not self.attention_window:
            return float(context)
        f = self.kv_window_share
        return (1 - f) * context + f * min(float(context), float(self.attention_window))

    @property
    def kv_elements_layer(self) -> float:
        """K and V elements one token adds to a layer's cache at full context, averaged over the layers:
        2 x kv_heads x head_dim, or with ``global_attn`` the windowed share of the layers at that and the rest at
        2 x their KV heads x their head width."""
        local = 2.0 * self.kv_heads * self.head_dim
        if not self.global_attn:
            return local
        d, kv, _ = self.global_attn
        f = self.window_layers_fraction
        return f * local + (1 - f) * 2.0 * kv * d

    @property
    def kv_window_share(self) -> float:
        """The share of the KV elements a token adds (at full context) that windowed layers hold: the windowed
        layers' share unless the global layers' KV width differs."""
        f = self.window_layers_fraction
        if not self.global_attn:
            return f
        return f * 2.0 * self.kv_heads * self.head_dim / self.kv_elements_layer

    @property
    def q_width_mean(self) -> float:
        """Query width (heads x head width) averaged over the layers: q_dim unless the global layers' heads are
        wider (``global_attn``): what a token's attention multiplies through per context position and layer."""
        if not self.global_attn:
            return float(self.q_dim)
        f = self.window_layers_fraction
        return float(self.heads) * (f * self.head_dim + (1 - f) * self.global_attn[0])

    @property
    def q_window_share(self) -> float:
        """The share of the query width (over layers) in windowed layers: the windowed layers' share unless the
        global layers' heads are wider."""
        f = self.window_layers_fraction
        if not self.global_attn:
            return f
        return f * self.q_dim / self.q_width_mean

    @property
    def scan_share(self) -> float:
        """Share of a token's matmul parameters in Mamba-1 layers (``ssm`` 'mamba1'): what is not the output head or
        the attention layers' (or shared blocks' applications') attention and MLP; 0 for any other model."""
        if self.ssm != "mamba1":
            return 0.0
        n = min(self.matmul_params_active, self.active_params)
        blocks = self.attn_layers * (self.attn_params_per_layer() + self.mlp_matrices * self.hidden * self.ffn)
        return max(n - self.embedding_params - blocks, 0.0) / n if n > 0 else 0.0

    @property
    def delta_rule_share(self) -> float:
        """Share of a token's matmul parameters in gated DeltaNet layers (``recurrent.kind`` gated_deltanet), counted
        as :attr:`scan_share` counts the Mamba-1 layers': what is not the output head or the attention layers'
        attention and MLP; 0 for any other model."""
        if not self.recurrent_mixer or self.recurrent_mixer[0] != "gated_deltanet":
            return 0.0
        n = min(self.matmul_params_active, self.active_params)
        blocks = self.attn_layers * (self.attn_params_per_layer() + self.mlp_matrices * self.hidden * self.ffn)
        return max(n - self.embedding_params - blocks, 0.0) / n if n > 0 else 0.0

    @property
    def ssd_macs_per_token(self) -> float:
        """Multiply-adds a token's forward pass spends in the Mamba-2 layers' SSD beyond their projections (catalog
        ``recurrent.kind`` mamba2), summed over those layers: intra-chunk inner x Q, chunk states and their read-out
        2 x inner x N, the C B^T products Q x G N, for chunk Q = 256 (Megatron-Core's and mamba_ssm's default).
        The inner width is expand 2 x hidden (Mamba-2's default) and G N what the cached convolution channels
        (inner + 2 G N, kernel 4: 3 positions kept) leave; 0 for any other model."""
        if not self.recurrent or not self.recurrent_mixer or self.recurrent_mixer[0] != "mamba2":
            return 0.0
        layers, state, conv = self.recurrent[:3]
        inner, chunk = 2.0 * self.hidden, 256.0
        gn = max(conv / 3.0 - inner, 0.0) / 2.0
        return layers * (inner * chunk + 2.0 * state + chunk * gn)

    def attn_params_per_layer(self) -> float:
        """Q, K, V and output projections of one layer. MLA: the query and latent down-projections, their
        up-projections to every head (query and key without RoPE, value) and the output projection."""
        if self.mla:
            q_rank, kv_rank, rope, nope, v = self.mla
            h, n = self.hidden, self.heads
            q = h * q_rank + q_rank * n * (nope + rope) if q_rank else h * n * (nope + rope)
            return float(q + h * (kv_rank + rope) + kv_rank * n * (nope + v) + n * v * h)
        local = float(self.hidden * self.q_dim * 2 + self.hidden * self.kv_dim * 2)
        if not self.global_attn:
            return local
        d, kv, k_eq_v = self.global_attn  # a global layer: q and o of heads x d, k (and v unless k_eq_v) of kv x d
        f = self.window_layers_fraction
        return f * local + (1 - f) * float(self.hidden * (2 * self.heads * d + (1 if k_eq_v else 2) * kv * d))

    def attn_output_params_per_layer(self) -> float:
        """The attention output projection's weights (heads x value width x hidden), averaged over the layers."""
        v = self.mla[4] if self.mla else self.head_dim
        if self.global_attn:
            f = self.window_layers_fraction
            return float(self.heads * self.hidden) * (f * v + (1 - f) * self.global_attn[0])
        return float(self.heads * v * self.hidden)

    def replicated_attn_params_per_layer(self) -> float:
        """Attention weights of one layer that tensor parallelism does not split: MLA's down-projections
        (q_a_proj and kv_a_proj_with_mqa), which vLLM and SGLang build as replicated linear layers and
        TensorRT-LLM runs data-parallel as its Fuse_A GEMM; none in other attention."""
        if not self.mla:
            return 0.0
        q_rank, kv_rank, rope, _, _ = self.mla
        return float(self.hidden * (q_rank + kv_rank + rope))


def from_catalog(m: Model) -> Shape:
    if m.kind == "diffusion":
        return Shape(
            name=m.name, params=m.params_b * 1e9, active_params=m.params_b * 1e9, layers=1, hidden=1,
            heads=1, kv_heads=1, head_dim=1, ffn=1, vocab=1, tied=True, diffusion=True,
        )
    assert m.layers and m.hidden_size and m.heads and m.kv_heads and m.ffn_size and m.vocab_size
    head_dim = m.head_dim or m.hidden_size // m.heads
    return Shape(
        name=m.name,
        params=m.params_b * 1e9,
        active_params=(m.active_params_b or m.params_b) * 1e9,
        layers=m.layers,
        hidden=m.hidden_size,
        heads=m.heads,
        kv_heads=m.kv_heads,
        head_dim=head_dim,
        ffn=m.ffn_size,
        vocab=m.vocab_size,
        tied=m.tied_embeddings,
        mlp_matrices=m.mlp_matrices,
        experts=m.moe.experts if m.moe else 1,
        experts_per_token=m.moe.experts_per_token if m.moe else 1,
        shared_experts=m.moe.shared_experts if m.moe else 0,
        kv_elements_override=m.kv_elements_per_token_layer,
        attention_window=m.attention_window,
        window_layers_fraction=m.window_layers_fraction or 0.0,
        first_dense_layers=m.moe.first_dense_layers if m.moe else 0,
        moe_layer_interval=m.moe.moe_layer_interval if m.moe else 1,
        dense_ffn=m.moe.dense_ffn_size if m.moe else None,
        moe_blocks=m.moe.blocks if m.moe else None,
        moe_latent=m.moe.latent_size if m.moe else None,
        mla=(m.mla.q_lora_rank or 0, m.mla.kv_lora_rank, m.mla.qk_rope_head_dim, m.mla.qk_nope_head_dim,
             m.mla.v_head_dim) if m.mla else None,
        qk_norm_all_heads=m.qk_norm_all_heads,
        attention_layers=m.attention_layers,
        ssm="mamba2" if m.recurrent else None,  # gated DeltaNet: its own term (recurrent_mixer, delta_rule_k)
        recurrent=_recurrent(m.recurrent),
        recurrent_mixer=(m.recurrent.kind, m.recurrent.head_dim or 0) if m.recurrent else None,
        global_attn=(m.global_attention.head_dim, m.global_attention.kv_heads, m.global_attention.k_eq_v)
        if m.global_attention else None,
        sparse_attn=(m.sparse_attention.index_heads, m.sparse_attention.index_head_dim, m.sparse_attention.top_k,
                     float(m.sparse_attention.index_key_bytes)) if m.sparse_attention else None,
        index_layers=m.sparse_attention.indexer_layers if m.sparse_attention else None,
        norm_kernels=m.layer_norm_kernels,
        graph_kernels=tuple((g.framework, _graph_mean(g, m)) for g in m.graph_layer_kernels),
    )


def _graph_mean(g: Any, m: Any) -> float:
    """A catalog ``graph_layer_kernels`` count as a mean over the model's layers: its global-attention layers (the
    share ``window_layers_fraction`` leaves, where the model has ``global_attention``) at ``global_layer``, the
    rest at ``layer`` (the step charges kernels by the whole forward, so only the sum over the layers matters)."""
    if g.global_layer is None or not m.global_attention:
        return float(g.layer)
    glob = round(m.layers * (1.0 - (m.window_layers_fraction or 0.0)))
    return (g.layer * (m.layers - glob) + g.global_layer * glob) / m.layers


STATE_DTYPE_BYTES = {"float32": 4, "bfloat16": 2, "float16": 2}
"""Bytes an element of the recurrent state takes in each type ``workload.recurrent_state_dtype`` names."""


def _recurrent(r: Any, framework: str | None = None, dtype: str | None = None
               ) -> tuple[int, int, int, float, float] | None:
    """A ``recurrent`` block, the catalog's or a user's architecture's (the same fields), as the shape keeps it: the
    recurrent state's bytes are the stated type's (``workload.recurrent_state_dtype``), else the engine's where
    ``framework_state_bytes`` names it, else ``state_bytes``; the convolution state keeps its own."""
    if not r:
        return None
    state_bytes = r.framework_state_bytes.get(framework, r.state_bytes) if framework else r.state_bytes
    if dtype is not None:
        state_bytes = STATE_DTYPE_BYTES[dtype]
    return (r.layers, r.state_elements, r.conv_elements, float(state_bytes), float(r.conv_bytes))


def from_workload(w: Workload, catalog_model: Model | None) -> Shape:
    """The shape for a workload: catalog model, custom architecture, or a size-only guess."""
    if catalog_model is not None and w.architecture is None:
        shape = from_catalog(catalog_model)
        dtype = getattr(w, "recurrent_state_dtype", None)
        if catalog_model.recurrent and (catalog_model.recurrent.framework_state_bytes or dtype):
            # the engine keeps the recurrent state in its own element type (recurrent.framework_state_bytes), or
            # in the one the server was started with (workload.recurrent_state_dtype)
            shape = Shape(**{**shape.__dict__, "recurrent": _recurrent(catalog_model.recurrent, w.framework, dtype)})
        if w.params_b is not None and abs(w.params_b * 1e9 - shape.params) > 0.02 * shape.params:
            # the user overrode the size: keep the catalog's shape, use their count
            return Shape(**{**shape.__dict__, "params": w.params_b * 1e9, "active_params": w.params_b * 1e9})
        return shape
    params = (w.params_b or (catalog_model.params_b if catalog_model else 0)) * 1e9
    a = w.architecture
    if a is not None:
        return Shape(
            name=w.model or f"custom {params / 1e9:g}B",
            params=params,
            layers=a.layers,
            hidden=a.hidden_size,
            heads=a.heads,
            kv_heads=a.kv_heads or a.heads,
            head_dim=a.head_dim or a.hidden_size // a.heads,
            ffn=a.ffn_size or 4 * a.hidden_size,
            vocab=a.vocab_size,
            tied=a.tied_embeddings,
            experts=a.experts or 1,
            experts_per_token=a.experts_per_token or 1,
            shared_experts=a.shared_experts if a.experts else 0,
            active_params=_active_params(a, params),
            attention_layers=a.attention_layers,
            ssm=a.ssm or ("mamba2" if a.recurrent else None),  # as the catalog's hybrids are priced
            recurrent=_recurrent(a.recurrent, w.framework, getattr(w, "recurrent_state_dtype", None)),
            recurrent_mixer=(a.recurrent.kind, a.recurrent.head_dim or 0) if a.recurrent else None,
            attention_window=a.attention_window,
            window_layers_fraction=a.window_layers_fraction or 0.0,
        )
    return guess_shape(params, w.model)


def _active_params(a: Architecture, params: float) -> float:
    """Parameters a token uses: given, or for a MoE architecture the dense parts plus k (+ shared) of the
    E experts of every layer (``ffn_size`` is one expert's width, a SwiGLU MLP of 3 matrices). Given, it may
    exceed the stored count: a block whose weights are shared and applied n times multiplies a token through them
    n times (Zamba's shared attention block, arXiv:2405.16712: 'applying more flops ... while keeping the total
    parameter count fixed'), while memory holds them once."""
    if a.active_params_b is not None:
        return a.active_params_b * 1e9
    if not a.experts or not a.experts_per_token:
        return params
    ffn = a.ffn_size or 4 * a.hidden_size
    expert = 3 * a.hidden_size * ffn * a.layers
    return max(params - expert * (a.experts - a.experts_per_token), params * 0.01)


def guess_shape(params: float, name: str | None = None, references: Sequence[Model] | None = None) -> Shape:
    """The shape of a model known only by its size, fitted to published ones.

    Published dense decoders widen with size: the table of ``references`` (by default the catalog's
    ``shape_guesses``: Pythia-70M, SmolLM2-135M/360M, then Llama 3 and Qwen3 sizes from 0.6B to 405B),
    interpolated in log-log, gives the width (OPT-175B's 12,288 comes out ~11,700, not the 16,384 of
    the nearest model). The nearest reference in parameter count (log scale) lends the head size, KV
    heads, the MLP's width relative to the hidden size, the vocabulary and the tying (a 0.07B model
    gets Pythia-70M's 50k vocabulary, not a 152k one); the layer count holds the rest of the
    parameters. The report names the reference and the shape (``assumed_values``).
    """
    refs = list(references) if references is not None else _default_references()
    if not refs:
        raise ValueError("no reference shapes to guess from")
    ref = min(refs, key=lambda m: abs(math.log(params / (m.params_b * 1e9))))
    base = from_catalog(ref)
    hidden = _fitted_width(params, refs, base)
    # heads in the reference's proportion to the width, in whole groups of its KV heads (grouped-query)
    if base.kv_heads >= base.heads:
        heads = kv_heads = max(1, round(base.heads * hidden / base.hidden))
    else:
        kv_heads = base.kv_heads
        heads = max(kv_heads, round(base.heads * hidden / base.hidden / kv_heads) * kv_heads)
    ffn = max(64, round(base.ffn / base.hidden * hidden / 64) * 64)
    trial = Shape(**{**base.__dict__, "hidden": hidden, "heads": heads, "kv_heads": kv_heads, "ffn": ffn, "layers": 1})
    embed = trial.embedding_params + trial.lm_head_params
    per_layer = trial.attn_params_per_layer() + trial.mlp_matrices * hidden * ffn
    layers = max(1, round(max(params - embed, 0.1 * params) / per_layer))  # embeddings can be most of a small model
    return Shape(**{
        **trial.__dict__,
        "name": name or f"custom {params / 1e9:g}B",
        "params": params,
        "active_params": params,
        "layers": layers,
        "assumed_values": (  # the width is the fit's (docstring)
            ("ref", ref.name), ("id", ref.id), ("size", params / 1e9), ("layers", layers), ("hidden", hidden),
            ("heads", heads), ("kv", kv_heads), ("hd", base.head_dim), ("ffn", ffn), ("vocab", base.vocab)),
    })


def _fitted_width(params: float, refs: Sequence[Model], base: Shape) -> int:
    """Hidden size of a ``params``-parameter decoder from the table of published (parameters, hidden
    size): interpolated linearly in log-log between the two references that bracket the size (beyond
    the table, the end segment's slope carried on), rounded to whole heads of the nearest model. A
    table, not one power law over all sizes: small models are trained deep and narrow (SmolLM2-135M
    30 x 576) and one line through 70M-405B bends the large end (OPT-175B would come out 16,384 wide)."""
    pts = sorted({(math.log(m.params_b * 1e9), math.log(m.hidden_size)) for m in refs
                  if m.hidden_size and m.params_b})
    if len(pts) < 2:
        return base.hidden
    x = math.log(params)
    i = next((k for k in range(1, len(pts)) if pts[k][0] >= x), len(pts) - 1)
    (x0, y0), (x1, y1) = pts[i - 1], pts[i]
    width = math.exp(y0 + (y1 - y0) * (x - x0) / (x1 - x0)) if x1 > x0 else math.exp(y0)
    if 0.75 <= width / base.hidden <= 4 / 3:  # published widths cluster: near the nearest model's, take its
        return base.hidden
    # whole groups of KV heads where the model is wide enough (published widths are multiples of 1,024
    # at scale), whole heads below that
    group = base.head_dim * base.kv_heads
    step = group if width >= 4 * group else base.head_dim
    return max(base.head_dim, round(width / step) * step)


def _default_references() -> list[Model]:
    """The catalog's ``shape_guesses`` models (the default knowledge base, cached per process)."""
    from ..knowledge import load

    kb = load()
    if kb.shape_guesses is None:
        return [m for m in kb.models.values() if m.kind == "decoder"]
    return [kb.models[i] for i in kb.shape_guesses.models]
