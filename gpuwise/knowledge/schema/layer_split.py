"""serving.yaml: what one boundary of a layer-split copy (llama.cpp's default ``-sm layer``) costs a decode step on a
backend and link where it was measured, in place of the framework's own hop (``allreduce_latency_us``, which a
layer-split framework takes as its hop between stages: gpuwise/estimators/serving/layout.py)."""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field

from .base import Check, Prose, Strict
from .gpus import GpuLink

# gpus.yaml's vendors and link kinds: a misspelt one would match no GPU and leave the framework's hop, silently
SplitVendor = Literal["nvidia", "amd", "intel", "huawei"]
SplitLink = Literal[get_args(GpuLink.model_fields["kind"].annotation)]  # type: ignore[valid-type]


class LayerSplitHop(Strict):
    """The fixed time a layer-split copy pays a step at each stage boundary on the GPUs of ``vendors`` joined by a
    link of ``links`` (gpus.yaml ``link.kind``): the scheduler's hand-over from one device's split to the next one's
    (the hidden state's copy, the wait on it, the host's submission of the next split). Read as the step's growth per
    GPU added to one copy of one model at one build, where the weights a token reads stay the same; the copy's
    stages then pay it once each (step.py charges one hop a stage)."""

    vendors: list[SplitVendor] = Field(min_length=1, description="the vendors whose build the hop was read on")
    links: list[SplitLink] = Field(min_length=1, description="the link kinds (gpus.yaml link.kind) read over")
    hop_us: float = Field(gt=0, le=100_000, description="microseconds a stage boundary adds to a decode step")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the build it was read on ran")
    source: Prose = Field(min_length=3)
    check: Check = "S"
