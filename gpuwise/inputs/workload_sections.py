"""A workload's nested sections: a custom model's ``architecture`` (with the ``recurrent`` state of its layers
without attention), the pinned parts of a training layout (``parallelism``) and ``speculative`` decoding. Kept apart
from :mod:`.workload`, which holds the workload's own fields and the checks across them."""

from typing import Literal

from pydantic import field_validator, model_validator

from ..errors import N_, Said, SaidAt
from ..field import Field  # pydantic's Field(), made faster (gpuwise/field.py)
from .strict import Strict, _finite


class RecurrentState(Strict):
    """The fixed-size state each running sequence holds in the layers without attention, as the catalog states it
    (``knowledge/models.yaml`` ``recurrent``, gpuwise/knowledge/schema/models.py: the same fields): per layer, the
    recurrence's elements and the causal convolution's last (kernel - 1) inputs, and the bytes an element takes."""

    kind: Literal["mamba2", "gated_deltanet"] = Field(
        description="the mixer: 'mamba2' (heads x head_dim x d_state recurrent and (kernel - 1) x (heads x head_dim "
        "+ 2 x n_groups x d_state) convolution elements a layer) or 'gated_deltanet' (value heads x key_dim x "
        "value_dim and (kernel - 1) x (2 x key heads x key_dim + value heads x value_dim))")
    layers: int = Field(ge=1, le=10_000, description="layers that keep the state (the non-attention mixers)")
    state_elements: int = Field(ge=1, le=10**12, description="elements of one layer's recurrent state a sequence")
    conv_elements: int = Field(ge=0, le=10**12, description="elements of one layer's convolution state a sequence")
    state_bytes: Literal[2, 4] = Field(default=2, description="bytes a recurrent-state element takes (4: float32, "
                                       "as NemotronH's mamba_ssm_cache_dtype sets it)")
    conv_bytes: Literal[2, 4] = Field(default=2, description="bytes a convolution-state element takes")
    framework_state_bytes: dict[Literal["vllm", "sglang", "tensorrt-llm"], Literal[2, 4]] = Field(
        default_factory=dict, description="bytes a recurrent-state element takes on the engine named, where it "
        "differs from state_bytes (SGLang keeps it in float32 by default, vLLM in the model dtype)")
    head_dim: int | None = Field(default=None, ge=1, le=4096, description="gated DeltaNet: the width of a key and "
                                 "of a value head (its chunked prefill's within-chunk products)")


class Architecture(Strict):
    """A custom transformer's shape (with ``params_b``)."""

    layers: int = Field(ge=1, le=1000)
    hidden_size: int = Field(ge=1, le=1_000_000)
    heads: int = Field(ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000, description="default: heads")
    ffn_size: int | None = Field(default=None, ge=1, le=10_000_000, description="default: 4 x hidden")
    vocab_size: int = Field(default=32000, ge=1, le=10_000_000)
    tied_embeddings: bool = False
    experts: int | None = Field(default=None, ge=2, le=100_000, description="MoE: routed experts per MoE layer")
    experts_per_token: int | None = Field(default=None, ge=1, le=100_000, description="MoE: experts per token")
    shared_experts: int = Field(default=0, ge=0, le=1000, description="MoE: experts every token uses")
    active_params_b: float | None = Field(default=None, ge=1e-6, le=100_000,
                                          description="parameters a token is multiplied through: MoE, the active "
                                          "experts' share (below params_b); a block whose weights are shared and "
                                          "applied several times (Zamba's shared attention block), once per "
                                          "application (above params_b)")
    head_dim: int | None = Field(default=None, ge=1, le=100_000,
                                 description="width of one attention head, where not hidden_size / heads")
    attention_layers: int | None = Field(default=None, ge=0, le=10_000,
                                         description="layers (or applications of a shared block) that run attention, "
                                         "where not every layer: a Mamba hybrid's attention blocks, 0 for a pure SSM")
    ssm: Literal["mamba1", "mamba2"] | None = Field(
        default=None, description="the mixer of the layers that do not run attention: 'mamba1' (Mamba's selective "
        "scan, on the CUDA cores), 'mamba2' (SSD, its chunks as matmuls); not given, costed as their matmuls alone")
    recurrent: RecurrentState | None = Field(
        default=None, description="the per-sequence state of the layers without attention (Mamba-2, gated DeltaNet), "
        "which serving holds for each running sequence beside the attention layers' KV cache; needs attention_layers")
    attention_window: int | None = Field(default=None, ge=1, le=10_000_000,
                                         description="tokens a local (sliding-window) attention layer sees")
    window_layers_fraction: float | None = Field(
        default=None, gt=0, le=1, description="share of layers that use attention_window (the rest attend globally)")

    _v = field_validator("active_params_b")(_finite)

    @model_validator(mode="after")
    def _kv(self) -> "Architecture":
        if self.kv_heads is not None and self.kv_heads > self.heads:
            raise Said(N_("kv_heads cannot exceed heads"))
        if (self.experts is None) != (self.experts_per_token is None):
            raise Said(N_("a MoE architecture needs both 'experts' and 'experts_per_token'"))
        if self.experts is not None and self.experts_per_token is not None and self.experts_per_token > self.experts:
            raise Said(N_("experts_per_token cannot exceed experts"))
        if (self.attention_window is None) != (self.window_layers_fraction is None):
            raise Said(N_("attention_window and window_layers_fraction go together"))
        if self.attention_layers is not None and self.attention_layers > self.layers:
            # the layers that run attention are some of the layers (a shared block's applications sit between
            # them): 100 of 4 counted 100 layers of KV cache (hostile round 27)
            raise SaidAt(("attention_layers",), N_("attention_layers %(attention)s cannot exceed layers %(layers)s"),
                         attention=self.attention_layers, layers=self.layers)
        if self.recurrent is not None:
            if self.attention_layers is None:
                raise Said(N_("recurrent needs attention_layers: the layers that keep a KV cache (0 for a pure SSM)"))
            if self.attention_layers + self.recurrent.layers > self.layers:
                raise Said(N_("attention_layers %(attn)s and recurrent.layers %(rec)s exceed layers %(layers)s"),
                           attn=self.attention_layers, rec=self.recurrent.layers, layers=self.layers)
        return self


class Parallelism(Strict):
    """Pinned parts of a training layout; absent parts are chosen by gpuwise."""

    tp: int | None = Field(default=None, ge=1, le=1024, description="tensor parallel")
    pp: int | None = Field(default=None, ge=1, le=1024, description="pipeline parallel")
    ep: int | None = Field(default=None, ge=1, le=100_000, description="expert parallel (MoE)")
    cp: int | None = Field(default=None, ge=1, le=1024, description="context (sequence) parallel")
    etp: int | None = Field(default=None, ge=1, le=1024, description="training, MoE: expert tensor parallel, the "
                            "GPUs each routed expert's matrices are split over (Megatron-Core's "
                            "expert_tensor_parallel_size; 1: each expert whole on its GPU)")
    vpp: int | None = Field(default=None, ge=1, le=64, description="virtual pipeline stages per rank (Megatron's "
                            "interleaved 1F1B schedule; 1: the plain 1F1B schedule, Megatron's default)")
    dp_shard: int | Literal["auto"] | None = Field(
        default=None, description="training: data-parallel ranks each ZeRO/FSDP shard group spans (hybrid sharding, "
        "HSDP: torchtitan's data_parallel_shard_degree; context-parallel GPUs join the group), the other "
        "data-parallel ranks holding replicas of the shards; 'auto': hybrid sharding over a group gpuwise chooses")

    @field_validator("dp_shard")
    @classmethod
    def _shard_range(cls, v: int | str | None) -> int | str | None:
        if isinstance(v, int) and not 1 <= v <= 100_000:
            raise Said(N_("must be 'auto' or a number of data-parallel ranks between 1 and 100000"))
        return v

    @model_validator(mode="after")
    def _shard_holds_experts(self) -> "Parallelism":
        if (isinstance(self.dp_shard, int) and self.ep
                and (self.dp_shard * (self.cp or 1) * (self.tp or 1)) % self.ep):
            raise SaidAt(("dp_shard",), N_("dp_shard %(shard)s does not hold whole expert-parallel groups of %(ep)s "
                                           "GPUs: give a dp_shard x cp x tp that %(ep)s divides"),
                         shard=self.dp_shard, ep=self.ep)
        return self


class Speculative(Strict):
    """Speculative decoding: the drafting method, and what the user measured of it (defaults per method
    in knowledge/serving.yaml speculative_methods)."""

    method: Literal["mtp", "eagle", "eagle3", "draft-model", "ngram"]
    acceptance_rate: float | None = Field(default=None, gt=0, lt=1, description="chance a drafted token is kept")
    draft_tokens: int | None = Field(default=None, ge=1, le=16, description="tokens drafted per step")
    draft_params_b: float | None = Field(default=None, ge=1e-6, le=10_000, description="draft-model: its size, "
                                         "billions of parameters")

    @model_validator(mode="after")
    def _draft(self) -> "Speculative":
        if self.method == "draft-model" and self.draft_params_b is None:
            raise Said(N_("method draft-model needs draft_params_b (the draft model's size in billions)"))
        if self.method != "draft-model" and self.draft_params_b is not None:
            raise Said(N_("draft_params_b applies to method draft-model, not %(method)s"), method=self.method)
        return self
