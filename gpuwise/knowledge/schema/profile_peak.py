"""``serving.yaml`` ``profile_sampler``: what an engine's start-up profile run holds beside the weights, where the
engine sizes its KV pool from that run's peak."""

from typing import Literal

from pydantic import Field

from .base import Check, Prose, Strict
from .runtime import Factor


class ProfileSampler(Strict):
    """An engine that sizes its KV pool from a profiled peak (vLLM: its share of the device less the weights, the
    profile run's torch peak and non-torch memory) and ends that run with a dummy sampler pass over
    min(max_num_seqs, max_num_batched_tokens) requests, each with the whole vocabulary's logits on every rank. Its
    peak is ``bytes_per_logit`` x vocabulary x those requests, or the forward's working set where that is larger,
    from release ``first`` on (a job that states no release: the current ones, which do)."""

    first: str = Field(pattern=r"^[0-9]+(\.[0-9]+){1,3}$", description="the first release that profiles so")
    vendors: list[Literal["nvidia", "amd", "intel", "huawei"]] = Field(
        min_length=1, description="the vendors whose builds of the engine run that worker")
    bytes_per_logit: Factor = Field(description="bytes the sampler's peak holds per logit (request x vocabulary "
                                    "entry), every copy and index of the sort, softmax and draw together")
    source: Prose = Field(min_length=3)
    check: Check = "S"
