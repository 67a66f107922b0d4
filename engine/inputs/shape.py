"""The transformer shape an estimate works on: from the catalog, from the user's
``architecture`` block, or (with only ``params_b``) from a stated rule of thumb.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..knowledge.schema import Model
from .schema import Workload


@dataclass(frozen=True)
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
    kv_elements_override: int | None = None  # MLA: compressed cache elements per token-layer
    diffusion: bool = False
    assumed: str = ""  # non-empty when the shape was inferred rather than known

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

    def attn_params_per_layer(self) -> float:
        return float(self.hidden * self.q_dim * 2 + self.hidden * self.kv_dim * 2)


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
        kv_elements_override=m.kv_elements_per_token_layer,
    )


def from_workload(w: Workload, catalog_model: Model | None) -> Shape:
    """The shape for a workload: catalog model, custom architecture, or a size-only guess."""
    if catalog_model is not None and w.architecture is None:
        shape = from_catalog(catalog_model)
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
            active_params=params,
            layers=a.layers,
            hidden=a.hidden_size,
            heads=a.heads,
            kv_heads=a.kv_heads or a.heads,
            head_dim=a.hidden_size // a.heads,
            ffn=a.ffn_size or 4 * a.hidden_size,
            vocab=a.vocab_size,
            tied=a.tied_embeddings,
        )
    return guess_shape(params, w.model)


def guess_shape(params: float, name: str | None = None) -> Shape:
    """A Llama-like shape for a bare parameter count.

    Llama models keep hidden/layers ~= 128 (4096/32, 5120/40) and a SwiGLU MLP of
    ~2.7 x hidden, so a layer holds ~12.1 h^2 parameters; solve 12.1 h^3 / 128 = P.
    """
    vocab = 32000
    h = (params * 128 / 12.1) ** (1 / 3)
    h = max(128, round(h / 128) * 128)
    layers = max(1, round(max(params - 2 * vocab * h, params * 0.5) / (12.1 * h * h)))
    heads = max(1, h // 128)
    return Shape(
        name=name or f"custom {params / 1e9:g}B",
        params=params,
        active_params=params,
        layers=layers,
        hidden=h,
        heads=heads,
        kv_heads=heads,
        head_dim=h // heads,
        ffn=round(h * 2.6875 / 256) * 256,
        vocab=vocab,
        tied=False,
        assumed=(
            f"shape assumed Llama-like for {params / 1e9:g}B parameters: {layers} layers, hidden {h}, "
            f"{heads} heads, vocab {vocab}; give 'architecture' for exact activation and KV-cache figures"
        ),
    )
