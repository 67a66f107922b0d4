"""serving.yaml: the small kernels a framework's decode step launches in one layer beyond a dense attention layer's
(a recurrent mixer's, a sparse-attention indexer's), each read in the framework's model code and charged at its
kernel floor by the serving step (gpuwise/estimators/serving/step.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Check, Strict

# kernels a layer: none to 1,000, hundreds of times beyond the counts read (15 for SGLang's DSA indexer, 6 for a gated
# DeltaNet mixer); a negative count took time off the step, a billion priced a token at 122,000 s (hostile round 35)
LayerKernels = Annotated[int, Field(ge=0, le=1000)]


class RecurrentMixerKernels(Strict):
    """The kernels a framework's decode step launches in one layer that runs a recurrent mixer (models.yaml
    ``recurrent``: gated DeltaNet, Mamba-2) in place of attention, read in its model code: from the mixer's input
    projection to its output projection, on the step's critical path (a kernel on a side stream that overlaps
    another is not counted). A dense layer's kernels (step.py DENSE_LAYER_KERNELS) count 5 for an attention mixer;
    the difference is charged at the framework's kernel floor (step.py ``recurrent_extra_kernels``)."""

    decode: dict[Literal["mamba2", "gated_deltanet"], LayerKernels] = Field(
        description="a decode step's kernels of one such layer's mixer, by mixer kind (a kind not listed: as many "
        "as an attention mixer's)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the model code was read")
    source: str = Field(min_length=3)
    check: Check = "S"


class SparseIndexerKernels(Strict):
    """The kernels a framework's decode step launches in one layer for a sparse-attention indexer (models.yaml
    ``sparse_attention``: DeepSeek Sparse Attention's lightning indexer), read in its model code: from the indexer's
    query and key projections to the top-k it hands the attention, on the step's critical path (a kernel on a side
    stream that overlaps a longer chain is not counted). Each is charged at the framework's kernel floor (step.py
    ``floor_per_step``; not in an eager prefill's host time); the indexer's FLOPs and key reads are priced apart
    (step.py ``_parts``)."""

    decode: dict[Literal["dsa"], LayerKernels] = Field(
        description="a decode step's indexer kernels a layer, by sparse-attention kind (a kind not listed: none "
        "counted)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the model code was read")
    source: str = Field(min_length=3)
    check: Check = "S"
