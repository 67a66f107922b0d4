"""``serving.yaml`` ``triton_decode_walk``: a framework's Triton split-KV decode attention kernel, priced by the
programs that walk one sequence's cache rather than by the card's bandwidth; ``torch_router``: the MoE routers that
run a torch.compile'd top-k function where no fused gate kernel takes their shape."""

from typing import Literal

from pydantic import Field, field_validator

from ...errors import N_, Said
from .base import Check, Prose, Strict


class TritonDecodeWalk(Strict):
    """A decode attention kernel that splits each sequence's cache over at most ``max_kv_splits`` programs per KV
    head (a latent cache counts as one head), each walking its share at ``program_gb_s``: at a few sequences its
    programs leave most of the GPU idle, so the cache is read at the walkers' rate, not the memory's. Only a job that
    states the backend (``workload.attention_backend``) on one of the vendors read gets it, or, on an MLA model, one
    that states a release before ``mla_default_before`` and no backend (the release's own default for MLA). Past
    ``programs_per_sm`` programs an SM, every program of a step's grid walks in turn: the cache is then read at the
    resident programs' rate over the head blocks that each read it."""

    backend: str = Field(min_length=1, description="the attention backend's name a job states")
    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="the GPU vendors whose builds the rate was read on")
    max_kv_splits: int = Field(ge=1, description="the most programs one sequence's KV head is split over")
    program_gb_s: float = Field(gt=0, description="GB/s one program walks its share of one KV head's cache at")
    programs_per_sm: int | None = Field(
        default=None, ge=1, description="programs of the kernel one streaming multiprocessor holds at once (its "
        "registers a thread x threads a program against the SM's register file): past the GPU's SMs x this many "
        "(gpus.yaml peaks.sms) the rest wait for a slot, so the programs walk at most that many at a time (None: "
        "not read, no such limit)")
    program_shared_bytes: int | None = Field(
        default=None, ge=1, description="shared memory one program takes, the runtime's reserve a block included: an "
        "SM holds at most its shared memory (sm_shared_bytes) over this many programs, where fewer than "
        "programs_per_sm (None: not read, programs_per_sm alone)")
    sm_shared_bytes: dict[str, int] = Field(
        default_factory=dict, description="compute capability ('8.6') -> bytes of shared memory one SM gives its "
        "resident blocks (the CUDA programming guide's compute-capability table); a capability not listed keeps "
        "programs_per_sm")
    block_heads: int = Field(
        default=16, ge=1, description="query heads of one KV head one program takes (the kernel's BLOCK_H): a KV "
        "head more query heads share on a GPU is walked by as many programs as that takes, each reading its whole "
        "share of the cache")
    mla_default_before: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$",
        description="the first release whose server no longer runs a model with multi-head latent attention on this "
        "backend when it is launched without one: a job on such a model that states an earlier release and no "
        "backend gets it (None: only a job that states the backend)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the kernel was timed")
    source: Prose = Field(min_length=3)
    check: Check = "U"


class AttentionBackendVendors(Strict):
    """The attention backends a job may state (``workload.attention_backend``) whose kernels are one maker's own: a
    server launched with one of them on another maker's GPU does not start (AITER is AMD's ROCm library, FlashInfer,
    FlashAttention 3/4, FlashMLA, CUTLASS and TensorRT-LLM's kernels are CUDA code). A backend not listed runs on
    every vendor the framework does (Triton, PyTorch's SDPA and FlexAttention)."""

    only_on: dict[str, list[Literal["nvidia", "amd", "intel", "huawei"]]] = Field(
        min_length=1, description="backend name -> the GPU vendors whose builds ship its kernels")
    compute_capability_majors: dict[str, list[int]] = Field(
        default_factory=dict, description="backend name -> the CUDA compute capability majors its kernels run on "
        "(FlashAttention 3: Ampere and Hopper; TensorRT-LLM's MLA kernels: Blackwell); a backend not named runs on "
        "every generation of its vendors")
    mla_only: list[str] = Field(
        default_factory=list, description="backends whose kernels serve a model with multi-head latent attention (MLA) "
        "only: the server stops on a model without it")
    not_mla: list[str] = Field(
        default_factory=list, description="backends the server refuses for a model with multi-head latent attention")
    mla_compute_capability_majors: dict[str, list[int]] = Field(
        default_factory=dict, description="backend name -> the CUDA compute capability majors it serves an MLA model "
        "on, where fewer than compute_capability_majors (FlashAttention 3: Hopper only)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$",
                       description="when the framework's backends were read")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RouterPoint(Strict):
    """One row of a router benchmark: the microseconds both routers took for ``tokens`` tokens."""

    tokens: int = Field(ge=1, description="tokens routed in one call")
    torch_us: float = Field(gt=0, description="microseconds of the framework's torch.compile'd top-k function")
    fused_us: float = Field(gt=0, description="microseconds of its fused gate kernel, in the same harness")


class TorchRouter(Strict):
    """The models whose sigmoid-with-bias router no fused gate kernel of the framework takes (their routed experts
    are too many a group, or not a power of two), so every MoE layer runs the framework's torch.compile'd top-k
    function instead: a MoE layer costs what that function takes beyond a fused gate for the step's tokens
    (``points``, read in one harness; between two points the line through them, beyond the last its last segment,
    never less than for fewer tokens). Only on the vendors whose code path was read, and only without expert
    parallelism (a release may route an expert-parallel layer otherwise)."""

    models: list[str] = Field(min_length=1, description="catalog models whose router takes the torch function")
    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="the GPU vendors whose builds take it")
    points: list[RouterPoint] = Field(min_length=1, description="the benchmark's rows")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "U"

    @field_validator("points")
    @classmethod
    def _one_reading_a_count(cls, points: list[RouterPoint]) -> list[RouterPoint]:
        """Two readings at one token count leave no line between them: beyond the last point it was divided by zero
        (an overlay's points are added to the shipped ones, so a count they read is refused too)."""
        seen: set[int] = set()
        for p in points:
            if p.tokens in seen:
                raise Said(N_("%(tokens)s tokens read twice: give one reading a token count"), tokens=p.tokens)
            seen.add(p.tokens)
        return points
