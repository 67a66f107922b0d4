"""``models.yaml``: model shapes (dense and MoE) from their published configs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator, model_validator

from .base import Strict


class MoE(Strict):
    experts: int = Field(ge=2)
    experts_per_token: int = Field(ge=1)
    shared_experts: int = 0


class Model(Strict):
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9.\-]*$")
    name: str
    aliases: list[str] = []
    kind: Literal["decoder", "moe", "diffusion"] = "decoder"
    params_b: float = Field(gt=0, description="total parameters, billions")
    active_params_b: float | None = Field(default=None, gt=0, description="MoE: per token")
    layers: int | None = Field(default=None, ge=1)
    hidden_size: int | None = Field(default=None, ge=1)
    heads: int | None = Field(default=None, ge=1)
    kv_heads: int | None = Field(default=None, ge=1)
    head_dim: int | None = Field(default=None, ge=1, description="when not hidden/heads")
    ffn_size: int | None = Field(default=None, ge=1, description="dense MLP (or one expert's) width")
    mlp_matrices: int = Field(default=3, ge=2, le=3, description="3 for SwiGLU/GeGLU, 2 for a GELU MLP")
    vocab_size: int | None = Field(default=None, ge=1)
    tied_embeddings: bool = False
    max_context: int | None = Field(default=None, ge=1)
    kv_elements_per_token_layer: int | None = Field(
        default=None, ge=1, description="override for compressed KV caches (MLA): elements per token per layer"
    )
    moe: MoE | None = None
    license: str = ""
    source: str = Field(min_length=3)
    notes: str = ""

    @field_validator("aliases")
    @classmethod
    def _lower(cls, v: list[str]) -> list[str]:
        return [a.lower() for a in v]

    @model_validator(mode="after")
    def _shape(self) -> Model:
        if self.kind != "diffusion":
            missing = [
                f for f in ("layers", "hidden_size", "heads", "kv_heads", "ffn_size", "vocab_size")
                if getattr(self, f) is None
            ]
            if missing:
                raise ValueError(f"transformer shape incomplete: missing {', '.join(missing)}")
        if self.kind == "moe" and (self.moe is None or self.active_params_b is None):
            raise ValueError("a moe model needs 'moe' and 'active_params_b'")
        return self


class ModelFile(Strict):
    schema_version: int
    models: list[Model]
