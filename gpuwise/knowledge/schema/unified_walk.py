"""``serving.yaml`` ``rocm_unified_attention_walk``: the Triton unified attention kernel a framework's ROCm build runs
for decode when AMD's AITER kernels are off, priced by the programs that walk each sequence's cache one tile at a time
rather than by the card's bandwidth."""

from typing import Literal

from pydantic import Field, model_validator

from ...errors import N_, Said
from ..records import release_key
from .base import Check, Prose, Strict

RELEASE = r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$"


class RocmUnifiedAttentionWalk(Strict):
    """The releases (``first`` up to, not including, ``before``) whose ROCm build, with AITER off, runs decode
    attention on a Triton kernel that gives each (sequence, KV head) ``segments`` programs while sequences x KV heads
    a GPU holds stay within ``launch_grid`` (its split-KV '3D' kernel), else one program (its '2D' kernel). A program
    walks its share of the cache one tile of ``decode_tile_tokens`` (3D) or ``prefill_tile_tokens`` (2D) tokens per
    ``iteration_us``: each tile's loads wait on the one before, so a program's rate is its tile's bytes over that
    time, and the cache is read at the smaller of the card's rate and the programs' together."""

    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="the GPU vendors whose builds run it (gpus.yaml vendors)")
    first: str = Field(pattern=RELEASE, description="the first release read that runs it by default")
    before: str = Field(pattern=RELEASE, description="the first release whose default is another backend")
    segments: int = Field(ge=1, description="programs per (sequence, KV head) of the split-KV kernel")
    launch_grid: int = Field(ge=1, description="sequences x KV heads a GPU holds up to which a decode-only step "
                             "takes the split-KV kernel (the one-program kernel beyond)")
    decode_tile_tokens: int = Field(ge=1, description="tokens a split-KV program walks per iteration")
    prefill_tile_tokens: int = Field(ge=1, description="tokens a one-program-per-head program walks per iteration")
    iteration_us: float = Field(gt=0, description="microseconds a program takes per tile it walks")
    mixed_head_dims: bool = Field(False, description="a model whose global layers' heads are wider than its windowed "
                                  "layers' (Gemma 4) runs the kernel in every release from first, AITER or not: the "
                                  "framework forces this backend for it")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "U"

    @model_validator(mode="after")
    def _holds_one(self) -> "RocmUnifiedAttentionWalk":
        # as serving.ReleaseWindow, in release_key's ordering: 'from 0.18.0 before 0.11.0' would hold no release
        if release_key(self.before) <= release_key(self.first):
            raise Said(N_("before %(before)s is not after first %(first)s: no release is in the window"),
                       before=self.before, first=self.first)
        return self


class RocmPagedDecodeWalk(Strict):
    """The releases (``first`` up to, not including, ``before``) whose ROCm build decodes, on the GPU architectures
    its custom paged-attention kernel's arch gate leaves out, on a Triton kernel that gives each (sequence, KV head)
    one program walking the cache one paged block of ``tile_tokens`` tokens per ``iteration_us``, whatever the batch:
    vLLM's V1 paged-decode and unified '2D' kernels on gfx908 (CDNA 1), which ``on_mi250_mi300`` / ``ON_GFX9``
    exclude. The cache is read at the smaller of the card's rate and the programs' together."""

    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="the GPU vendors whose builds run it (gpus.yaml vendors)")
    architectures: list[str] = Field(min_length=1, description="gpus.yaml architectures the custom kernel's gate "
                                     "leaves out, on which the build walks")
    first: str = Field(pattern=RELEASE, description="the first release read that walks there")
    before: str = Field(pattern=RELEASE, description="the first release whose default there is another kernel")
    tile_tokens: int = Field(ge=1, description="tokens a program walks per loop iteration (the KV cache's block)")
    iteration_us: float = Field(gt=0, description="microseconds a program takes per tile it walks")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "U"

    @model_validator(mode="after")
    def _holds_one(self) -> "RocmPagedDecodeWalk":
        # as RocmUnifiedAttentionWalk: a window whose before is not after its first holds no release
        if release_key(self.before) <= release_key(self.first):
            raise Said(N_("before %(before)s is not after first %(first)s: no release is in the window"),
                       before=self.before, first=self.first)
        return self
