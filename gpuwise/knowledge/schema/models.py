"""``models.yaml``: model shapes (dense and MoE) from their published configs."""

from typing import Literal

from pydantic import Field, field_validator, model_validator

from ...errors import N_, Said, SaidAt
from .base import Prose, Strict
from .layer_kernels import GraphLayerKernels

CheckpointPrecision = Literal["fp32", "bf16", "fp16", "fp8", "mxfp4", "nvfp4", "int4"]
ReleaseMethod = Literal["awq", "gptq", "fp8", "nvfp4", "mxfp4", "gguf"]
"""How a quantized release was made, as a serving workload's ``quantization`` names it (inputs/workload.py)."""
METHOD_STORES: dict[str, tuple[str, ...]] = {"awq": ("int4",), "gptq": ("int4",), "gguf": ("int4",), "fp8": ("fp8",),
                                             "nvfp4": ("nvfp4",), "mxfp4": ("mxfp4",)}
"""The release precisions each method stores (serving.yaml quantization_methods formats, as a checkpoint dtype)."""
NARROW_CHECKPOINTS = ("fp8", "mxfp4", "nvfp4", "int4")  # published weights an inference job is served at by default


class AliasCheckpoint(Strict):
    """Aliases of an entry that name a release of the same network whose published weights ship in another
    dtype than the entry's own checkpoint (Kimi K2.6: K2's network, INT4 experts where K2 ships FP8)."""

    aliases: list[str] = Field(min_length=1, description="aliases of this entry (each one of its `aliases`)")
    precision: CheckpointPrecision = Field(description="dtype those releases' published weights ship in (the "
                                           "bulk of them: a checkpoint that quantizes only the routed experts "
                                           "is that format)")
    source: Prose = Field(min_length=3)
    card: str | None = Field(default=None, min_length=3, description="the model card that states that dtype (a "
                             "Hugging Face repository), named where an inference job with no precision is served "
                             "at it; None: the source is named")
    method: ReleaseMethod | None = Field(default=None, description="the quantization method the release was made "
                                         "with, as a serving workload's `quantization` names it (gptq for a "
                                         "GPTQ-Int4 release, nvfp4, mxfp4, fp8 ...): a job naming the release with "
                                         "no quantization of its own is served with it; None: not stated")

    @field_validator("aliases")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]

    @model_validator(mode="after")
    def _method_stores_precision(self) -> "AliasCheckpoint":
        """A method stores its own formats: a GPTQ release is int4, an NVFP4 one nvfp4 (method gptq with precision
        fp8 is a slip in one of the two)."""
        if self.method is not None and self.precision not in METHOD_STORES[self.method]:
            raise Said(N_("method %(method)s stores %(stores)s weights, not precision %(precision)s"),
                       method=self.method, stores=" or ".join(METHOD_STORES[self.method]), precision=self.precision)
        return self


class MoE(Strict):
    """Routed experts. ``ffn_size`` of the model is one expert's width; layers that are not MoE
    (DeepSeek/Kimi/GLM put dense layers first, Llama 4 Maverick alternates) use ``dense_ffn_size``."""

    experts: int = Field(ge=2)
    experts_per_token: int = Field(ge=1)
    shared_experts: int = Field(default=0, ge=0, description="always-on experts of the routed width")
    first_dense_layers: int = Field(
        default=0, ge=0, description="dense layers before the first MoE layer (first_k_dense_replace)"
    )
    moe_layer_interval: int = Field(
        default=1, ge=1, description="after the dense ones, every n-th layer is MoE (Llama 4 Maverick: 2)"
    )
    dense_ffn_size: int | None = Field(
        default=None, ge=1, description="MLP width of the dense (non-MoE) layers"
    )
    blocks: int | None = Field(
        default=None, ge=1,
        description="MoE blocks of a hybrid whose layers each hold one kind of block (Nemotron 3's "
                    "hybrid_override_pattern: 'M' Mamba-2, '*' attention, 'E' MoE): counted apart from the mixers, "
                    "and no other block has an MLP; None: the layout above places the MoE layers")
    latent_size: int | None = Field(
        default=None, ge=1,
        description="LatentMoE (config.json moe_latent_size, Nemotron 3 Super): the routed experts work in a latent "
                    "of this width, a down projection hidden -> latent before them and an up projection latent -> "
                    "hidden after them, both dense a token (every token runs them once, whatever its experts); the "
                    "router and the shared experts keep the hidden width; None: the experts take the hidden width")

    @model_validator(mode="after")
    def _dense(self) -> "MoE":
        if self.experts_per_token > self.experts:
            raise Said(N_("experts_per_token exceeds experts"))
        if self.blocks is not None and (self.first_dense_layers or self.moe_layer_interval > 1):
            raise Said(N_("moe.blocks counts the MoE blocks itself: leave first_dense_layers and "
                          "moe_layer_interval out"))
        if (self.first_dense_layers or self.moe_layer_interval > 1) and self.dense_ffn_size is None:
            raise Said(N_("a model with dense layers needs dense_ffn_size"))
        return self


class Mla(Strict):
    """Multi-head latent attention's projection ranks (DeepSeek-V2/V3, Kimi K2 config.json): the low-rank
    down-projections that every tensor-parallel rank holds whole, and the per-head widths of the up-projections."""

    q_lora_rank: int | None = Field(default=None, ge=1, description="query down-projection rank (None: a full q_proj)")
    kv_lora_rank: int = Field(ge=1, description="latent (compressed KV) width")
    qk_rope_head_dim: int = Field(ge=1, description="decoupled RoPE key width, shared by the heads")
    qk_nope_head_dim: int = Field(ge=1, description="per-head query/key width without RoPE")
    v_head_dim: int = Field(ge=1, description="per-head value width")


class SparseAttention(Strict):
    """Sparse attention chosen by a learned indexer (``kind`` dsa: DeepSeek Sparse Attention, DeepSeek-V3.2's
    config.json index_n_heads / index_head_dim / index_topk). A lightning indexer scores every past token with its
    own small heads over its own cached key (FP8 with a scale per block), and each query then attends only the
    ``top_k`` tokens it picks: the attention reads and multiplies min(context, top_k) MLA entries, the indexer
    reads its keys over the whole context. The cache keeps every token's MLA entry and its indexer key."""

    kind: Literal["dsa"]
    index_heads: int = Field(ge=1, le=1024, description="the indexer's query heads (index_n_heads)")
    index_head_dim: int = Field(ge=1, le=4096, description="the indexer's query and key width (index_head_dim)")
    top_k: int = Field(ge=1, description="tokens each query attends (index_topk)")
    index_key_bytes: int = Field(
        ge=1, le=65536, description="bytes the indexer's key takes in the cache a token and layer: FP8 elements plus "
        "an FP32 scale a block of 128 (vLLM DeepseekV32IndexerCache: index_head_dim + index_head_dim // 128 x 4)")
    indexer_layers: int | None = Field(
        default=None, ge=1, description="layers that keep an indexer of their own (config indexer_types 'full'; "
        "GLM-5.2's IndexShare: the index_topk_freq / index_skip_topk_offset schedule): only they cache its key, "
        "score the context and launch its kernels; the other layers ('shared') attend sparsely the top-k the last "
        "such layer picked. None: every layer has its own indexer (DeepSeek-V3.2, GLM-5)")
    source: Prose = Field(min_length=3)


class GlobalAttention(Strict):
    """The global (full-context) attention layers of a model whose local and global layers differ in shape (Gemma 4
    31B / 26B-A4B: config.json global_head_dim, num_global_key_value_heads, attention_k_eq_v): the layers that
    ``window_layers_fraction`` leaves global keep these head widths and KV heads, the local ones the model's own
    ``head_dim`` and ``kv_heads``. Every layer keeps its K and V in the cache."""

    head_dim: int = Field(ge=1, description="a global layer's query, key and value head width (global_head_dim)")
    kv_heads: int = Field(ge=1, description="a global layer's KV heads (num_global_key_value_heads)")
    k_eq_v: bool = Field(
        default=False, description="a global layer's values come from its key projection (attention_k_eq_v): no "
        "v_proj weights; the cache still holds K and V")


class RecurrentState(Strict):
    """The fixed-size state a layer without attention keeps for each running sequence, beside the attention layers'
    KV cache (vLLM's MambaSpec pages, SGLang's mamba pool): per layer, the recurrence's state and the causal
    convolution's last (kernel - 1) inputs. Mamba-2 (vLLM mamba2_state_shape): heads x head_dim x d_state and
    (kernel - 1) x (heads x head_dim + 2 x n_groups x d_state); gated DeltaNet (gated_delta_net_state_shape):
    value heads x key_dim x value_dim and (kernel - 1) x (2 x key heads x key_dim + value heads x value_dim)."""

    kind: Literal["mamba2", "gated_deltanet"]
    layers: int = Field(ge=1, description="layers that keep the state (config.json: the non-attention mixers)")
    state_elements: int = Field(ge=1, description="elements of one layer's recurrent (temporal) state a sequence")
    conv_elements: int = Field(ge=0, description="elements of one layer's convolution state a sequence")
    state_bytes: Literal[2, 4] = Field(
        default=2, description="bytes an element of the recurrent state takes as engines keep it by default")
    conv_bytes: Literal[2, 4] = Field(default=2, description="bytes an element of the convolution state takes")
    framework_state_bytes: dict[Literal["vllm", "sglang", "tensorrt-llm"], Literal[2, 4]] = Field(
        default_factory=dict, description="the recurrent state's bytes an element on an engine that keeps it "
        "otherwise than state_bytes says (SGLang keeps it in float32 unless the config or SGLANG_MAMBA_SSM_DTYPE "
        "says otherwise; vLLM in the model dtype unless mamba_ssm_cache_dtype is set)")
    head_dim: int | None = Field(
        default=None, ge=1, description="gated DeltaNet: the width of a key and of a value head (linear_key_head_dim "
        "= linear_value_head_dim), which the chunked prefill's within-chunk products multiply through")


class VisionTower(Strict):
    """The vision encoder a multimodal checkpoint ships beside its language model (config.json vision_config), as
    serving engines read it: its depth under the key the config names it by and its width."""

    layers: int = Field(ge=1, le=1000, description="the encoder's blocks")
    layers_key: str = Field(min_length=1, description="the vision_config key that holds them (num_hidden_layers, "
                            "or depth in the Qwen-VL configs)")
    hidden_size: int = Field(ge=1, le=1_000_000, description="the encoder's width (vision_config hidden_size)")
    params_b: float | None = Field(default=None, ge=1e-6, le=100, description="the encoder's and its projector's "
                                   "parameters, billions, where not in the model's params_b")
    source: Prose = Field(min_length=3)


class Model(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    aliases: list[str] = []
    kind: Literal["decoder", "moe", "diffusion"] = "decoder"
    params_b: float = Field(ge=1e-6, le=100_000, description="total parameters, billions")
    active_params_b: float | None = Field(default=None, ge=1e-6, le=100_000, description="MoE: per token")
    layers: int | None = Field(default=None, ge=1, le=1000)  # the limits of a requirements file's architecture
    hidden_size: int | None = Field(default=None, ge=1, le=1_000_000)
    heads: int | None = Field(default=None, ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000)
    head_dim: int | None = Field(default=None, ge=1, description="when not hidden/heads")
    ffn_size: int | None = Field(default=None, ge=1, le=10_000_000, description="dense MLP (or one expert's) width")
    mlp_matrices: int = Field(default=3, ge=2, le=3, description="3 for SwiGLU/GeGLU, 2 for a GELU MLP")
    vocab_size: int | None = Field(default=None, ge=1, le=10_000_000)
    tied_embeddings: bool = False
    max_context: int | None = Field(default=None, ge=1)
    kv_elements_per_token_layer: int | None = Field(
        default=None, ge=1, description="override for compressed KV caches (MLA): elements per token per layer"
    )
    moe: MoE | None = None
    attention_layers: int | None = Field(
        default=None, ge=1, description="layers that run attention and keep a KV cache, where not every layer does")
    recurrent: RecurrentState | None = Field(
        default=None, description="the per-sequence state of the layers without attention (Mamba-2, gated DeltaNet)")
    parallel_mixers: bool = Field(
        default=False,
        description="attention and the recurrent mixer run side by side in the same layers, their outputs summed "
                    "(Falcon-H1): attention_layers and recurrent.layers each count up to layers, not together")
    mla: Mla | None = Field(default=None, description="multi-head latent attention's ranks (from config.json)")
    sparse_attention: SparseAttention | None = Field(
        default=None, description="attention over the tokens an indexer picks (DeepSeek Sparse Attention); None: "
        "every query attends its whole context")
    global_attention: GlobalAttention | None = Field(
        default=None, description="the global layers' own head width and KV heads, where they differ from the local "
        "(windowed) layers' (Gemma 4); None: every layer has the model's head_dim and kv_heads")
    attention_window: int | None = Field(
        default=None, ge=1, description="tokens a local (sliding-window or chunked) attention layer sees"
    )
    window_layers_fraction: float | None = Field(
        default=None, gt=0, le=1, description="share of layers that use attention_window (the rest attend globally)"
    )
    checkpoint_precision: CheckpointPrecision | None = Field(
        default=None, description="dtype the published weights ship in (the bulk of them)"
    )
    checkpoint_card: str | None = Field(
        default=None, min_length=3, description="the model card that states checkpoint_precision (a Hugging Face "
        "repository), named where an inference job with no precision is served at it; needed where the published "
        "weights are narrower than 16 bits (fp8, mxfp4, nvfp4, int4)")
    alias_checkpoints: list[AliasCheckpoint] = Field(
        default=[], description="aliases whose own published weights ship in another dtype than "
        "checkpoint_precision: where such an alias is the name given, its precision stands for the entry's")
    checkpoint_gb: float | None = Field(
        default=None, gt=0, description="published size of the weight files, decimal GB"
    )
    qk_norm_all_heads: bool = Field(
        default=False,
        description="the q and k RMSNorm of a layer runs over all of its heads at once (config.json qk_norm_type "
                    "'per_layer'), not per head: tensor-parallel attention all-reduces its sum of squares a layer",
    )
    mtp_layers: int = Field(
        default=0, ge=0, le=16,
        description="multi-token-prediction layers the published checkpoint ships (config.json "
                    "num_nextn_predict_layers; 0: none, so MTP speculative decoding has no drafter)",
    )
    vision_tower: VisionTower | None = Field(
        default=None, description="the vision encoder the published checkpoint ships (a multimodal model)")
    layer_norm_kernels: int = Field(
        default=2, ge=1, le=16, description="the norm kernels (with the scalings fused into them) one layer runs on "
        "the hidden state in an engine that launches its modules one by one: a pre-norm layer's 2 (input and "
        "post-attention, each fused with its residual add), which the dense layer's kernel count holds; Gemma "
        "2 / 3 / 4: 4, with the norms of the attention and MLP outputs (post_attention_layernorm, "
        "post_feedforward_layernorm) before the residual add")
    graph_layer_kernels: list[GraphLayerKernels] = Field(
        default_factory=list, description="a framework's own count of what its decode graph launches in one of "
        "this model's layers beyond a dense pre-norm layer's (read in its graph builder), in place of the generic "
        "norm, router and shared-expert counts; a framework not listed takes those")
    license: str = ""
    source: Prose = Field(min_length=3)
    notes: Prose = ""

    @field_validator("aliases")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]

    @model_validator(mode="after")
    def _shape(self) -> "Model":
        if self.kind != "diffusion":
            missing = [
                f for f in ("layers", "hidden_size", "heads", "kv_heads", "ffn_size", "vocab_size")
                if getattr(self, f) is None
            ]
            if missing:
                raise Said(N_("transformer shape incomplete: missing %(missing)s"), missing=', '.join(missing))
        if self.kind == "moe" and (self.moe is None or self.active_params_b is None):
            raise Said(N_("a moe model needs 'moe' and 'active_params_b'"))
        if (self.attention_window is None) != (self.window_layers_fraction is None):
            raise Said(N_("attention_window and window_layers_fraction go together"))
        if (self.attention_layers is None) != (self.recurrent is None):
            raise Said(N_("attention_layers and recurrent go together"))
        if self.global_attention and (self.attention_window is None or self.mla or self.recurrent):
            raise Said(N_("global_attention describes the global layers beside windowed ones: it needs "
                          "attention_window, and no mla or recurrent"))
        if self.sparse_attention and (self.mla is None or self.kv_elements_per_token_layer is None):
            raise Said(N_("sparse_attention (dsa) selects MLA entries: it needs mla and kv_elements_per_token_layer"))
        if self.sparse_attention and self.sparse_attention.indexer_layers and self.layers and (
                self.sparse_attention.indexer_layers > self.layers):
            raise Said(N_("sparse_attention.indexer_layers exceeds layers"))
        if self.parallel_mixers and self.recurrent is None:
            raise Said(N_("parallel_mixers needs attention_layers and recurrent"))
        if self.recurrent and self.layers and self.attention_layers is not None and (
                max(self.attention_layers, self.recurrent.layers) > self.layers if self.parallel_mixers
                else self.attention_layers + self.recurrent.layers > self.layers):
            raise Said(N_("attention_layers and recurrent.layers exceed layers"))
        if self.moe and self.layers and self.moe.first_dense_layers >= self.layers:
            raise Said(N_("first_dense_layers must be fewer than layers"))
        if self.moe and self.moe.blocks is not None and self.layers and (
                self.moe.blocks + (self.attention_layers or 0) + (self.recurrent.layers if self.recurrent else 0)
                > self.layers):
            raise Said(N_("moe.blocks, attention_layers and recurrent.layers exceed layers"))
        if self.checkpoint_precision in NARROW_CHECKPOINTS and self.checkpoint_card is None:
            raise Said(N_("checkpoint_precision %(precision)s is what an inference job with no precision is served "
                          "at: name the model card that states it in checkpoint_card"),
                       precision=self.checkpoint_precision)
        self._own_aliases()
        return self

    def _own_aliases(self) -> None:
        """Each name of ``alias_checkpoints`` is one of the entry's aliases (spelled as docs/names.md rule 1
        reads it), else a one-line error with the closest alias."""
        from ..names import norm

        mine = {norm(a) for a in self.aliases}
        seen: dict[str, int] = {}  # an alias -> the group that names it first (a group may repeat it)
        for i, group in enumerate(self.alias_checkpoints):
            for j, a in enumerate(group.aliases):
                first = seen.setdefault(norm(a), i)
                if self.alias_checkpoints[first].precision != group.precision:
                    # hostile round 37: a second group naming an alias in another precision was never read
                    raise SaidAt(("alias_checkpoints", i, "aliases", j), N_(
                        "'%(alias)s' is named by two alias_checkpoints groups, %(first)s and %(second)s (an "
                        "overlay's groups add to the built-in ones)"), alias=a,
                                 first=self.alias_checkpoints[first].precision, second=group.precision)
                if norm(a) not in mine:
                    import difflib

                    close = difflib.get_close_matches(a, self.aliases, n=1, cutoff=0.5)
                    raise SaidAt(("alias_checkpoints", i, "aliases", j), N_(
                        "'%(alias)s' is not one of %(id)s's aliases: did you mean '%(close)s'?") if close else N_(
                        "'%(alias)s' is not one of %(id)s's aliases"),
                               alias=a, id=self.id, close=close[0] if close else "")


class ShapeGuesses(Strict):
    """Published dense models whose shapes stand in for a model given only by its size.

    A bare ``params_b`` takes the head layout, width, MLP ratio and vocabulary of the nearest one in
    size (see ``gpuwise/inputs/shape.py``); the ids must be dense decoders of this catalog."""

    models: list[str] = Field(min_length=1)
    rationale: Prose = Field(min_length=10)


class FamilyName(Strict):
    """A model family's name as its maker writes it in another script ('通义千问', Qwen's Chinese name): a model
    named by it ('通义千问3-32B') is offered the catalog entry its Latin name gives (hostile round 53), never taken
    for it."""

    name: str = Field(min_length=2, max_length=20, description="the family's name as its maker writes it")
    family: str = Field(pattern=r"^[a-z][a-z0-9.-]*$", description="the start of the family's catalog ids ('qwen')")
    source: Prose = Field(min_length=10)


class ModelFile(Strict):
    schema_version: int
    models: list[Model]
    shape_guesses: ShapeGuesses | None = None
    family_names: list[FamilyName] = Field(default=[], max_length=100)
