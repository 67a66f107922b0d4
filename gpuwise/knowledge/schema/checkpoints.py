"""``serving.yaml`` ``fp4_checkpoints`` and ``int4_checkpoints``: what a model's published low-bit checkpoint stores
in another format than its own, part by part (moved out of ``serving``)."""

from typing import Annotated, Literal

from pydantic import Field

from .base import Check, Prose, Strict

Share = Annotated[float, Field(gt=0.0, le=1.0)]


class Fp4Checkpoint(Strict):
    """A model's published FP4 checkpoint where it leaves parts of the model in 16 bit or in FP8: the weights a
    decode step reads (and the memory the copy holds) count those parts at 2 bytes, or at FP8's 1 byte."""

    repository: str = Field(min_length=3, description="the checkpoint's repository")
    format: Literal["nvfp4", "mxfp4"]
    keeps_16bit: list[Literal["attention", "attention_inputs", "router", "non_experts"]] = Field(
        min_length=1, description="attention: every attention projection; attention_inputs: all but the output "
        "projection; router: the MoE gate; non_experts: everything but the routed experts (attention, shared "
        "experts, dense layers, router, embeddings, head), as ModelOpt's experts-only recipes leave them")
    fp8: dict[Literal["mixers", "shared_experts"], Share] = Field(
        default={}, description="mixers: every layer's attention and recurrent (Mamba, gated DeltaNet) "
        "projections; shared_experts: the shared experts' projections. Part -> the share of its weights the "
        "checkpoint stores in FP8 with per-tensor scales (W8A8: 1 byte a weight, the GEMM at the FP8 rate, its "
        "input quantized apart), weighed by the weights where the format differs by layer; the rest of the part "
        "as keeps_16bit or the format says")
    weight_only: list[Literal["routed_experts"]] = Field(
        default=[], description="parts stored W4A16 (FP4 weights, 16-bit activations: ModelOpt's W4A16_NVFP4), "
        "whose GEMMs run at the 16-bit rate")
    source: Prose = Field(min_length=3)
    check: Check = "V"


class Int4Checkpoint(Strict):
    """A model's published INT4 checkpoint that quantizes only its routed experts (weight-only, group scales) and
    keeps every other weight in 16 bit: its bytes are the experts at the checkpoint's own bits per weight (4 bits
    plus its group's scale) and the rest at 2 bytes, which the copy holds and a decode step reads."""

    repository: str = Field(min_length=3, description="the checkpoint's repository")
    format: Literal["int4"]
    keeps_16bit: list[Literal["non_experts"]] = Field(
        min_length=1, description="non_experts: everything but the routed experts (attention, shared experts, dense "
        "layers, router, embeddings, head)")
    bits_per_weight: float = Field(gt=4.0, lt=5.0, description="bits per quantized weight, its scales included")
    source: Prose = Field(min_length=3)
    check: Check = "V"
