"""serving.yaml: the small kernels a framework's decode step launches in one layer beyond a dense attention layer's
(a recurrent mixer's, a sparse-attention indexer's), each read in the framework's model code and charged at its
kernel floor by the serving step (gpuwise/estimators/serving/step.py)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from .base import Check, Prose, Strict
from .releases import RELEASE_VERSION, ReleaseWindow

# kernels a layer: none to 1,000, hundreds of times beyond the counts read (15 for SGLang's DSA indexer, 6 for a gated
# DeltaNet mixer); a negative count took time off the step, a billion priced a token at 122,000 s (hostile round 35)
LayerKernels = Annotated[int, Field(ge=0, le=1000)]


class GraphLayerKernels(Strict):
    """What one framework's decode graph launches in one layer of one model at a single token beyond a dense
    pre-norm layer's kernels (the framework's per-layer overhead holds those), read in the framework's graph builder
    for that architecture with the fusions of its backend applied: the extra norms, a MoE layer's router, the dense
    MLP it runs beside the experts and the experts' kernels beyond a dense MLP's. Where a model lists one for the
    job's framework it replaces the generic counts (models.yaml ``layer_norm_kernels`` beyond a pre-norm layer's
    two, the MoE router's and a shared expert's kernels: step.py ``_extra_kernels``), charged at the framework's
    kernel floor."""

    framework: str = Field(min_length=1, description="the serving.yaml framework whose graph was counted")
    layer: LayerKernels = Field(description="kernels a layer launches beyond a dense pre-norm layer's (a windowed "
                                "layer where the model's global layers differ)")
    global_layer: LayerKernels | None = Field(
        default=None, description="a global-attention layer's (models.yaml global_attention, the layers "
        "window_layers_fraction leaves global), where they differ from ``layer``; None: as ``layer``")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the graph was read")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RecurrentMixerKernels(Strict):
    """The kernels a framework's decode step launches in one layer that runs a recurrent mixer (models.yaml
    ``recurrent``: gated DeltaNet, Mamba-2) in place of attention, read in its model code: from the mixer's input
    projection to its output projection, on the step's critical path (a kernel on a side stream that overlaps
    another is not counted). A dense layer's kernels (step.py DENSE_LAYER_KERNELS) count 5 for an attention mixer;
    the difference is charged at the framework's kernel floor (step.py ``recurrent_extra_kernels``)."""

    decode: dict[Literal["mamba2", "gated_deltanet"], LayerKernels] = Field(
        default_factory=dict, description="a decode step's kernels of one such layer's mixer, by mixer kind (a kind "
        "not listed: as many as an attention mixer's)")
    releases: list[RecurrentMixerWindow] = Field(
        default_factory=list, description="releases whose model code launched another count, each a window with "
        "its own counts (a job that states a release in one takes its counts; any other job, ``decode``'s)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the model code was read")
    source: Prose = Field(min_length=3)
    check: Check = "S"


class RecurrentMixerWindow(ReleaseWindow):
    """A recurrent mixer's decode kernels in the releases from ``first`` up to, not including, ``before``, read in
    the model code those releases built the layer with (recurrent.py ``mixer_decode``)."""

    decode: dict[Literal["mamba2", "gated_deltanet"], LayerKernels] = Field(
        description="a decode step's kernels of one such layer's mixer in these releases, by mixer kind (a kind not "
        "listed: as many as an attention mixer's)")
    graphs_dropped: bool = Field(
        default=False, description="these releases drop the decode's CUDA graphs for a model with such a mixer (the "
        "graph's updates fail), so its job takes the framework's constants before any release entry, its eager "
        "build's (serving engine)")
    source: Prose = Field(min_length=3)
    check: Check = "S"


RecurrentMixerKernels.model_rebuild()


class FlaPrefill(ReleaseWindow):
    """Where a framework's releases (``first`` up to, not including, ``before``) prefill a gated DeltaNet layer on
    flash-linear-attention's Triton chunk kernels (chunk_gated_delta_rule) rather than a vendor kernel, on GPUs of the
    listed compute capabilities: the layer's chunked prefill is then priced at those kernels' measured time, one
    reading of the kernels on ``gpu`` (``seconds`` for ``tokens`` prompt tokens of ``value_heads`` heads of 128)
    taken as memory traffic and scaled by the GPUs' bandwidth (recurrent.py ``fla_prefill_seconds``), in place of
    the chunk's FLOPs at the attention rate."""

    compute_capability: list[Annotated[str, Field(pattern=r"^[0-9]+\.[0-9]+$")]] = Field(
        min_length=1, description="the GPUs (gpus.yaml compute_capability) whose prefill the releases route there")
    gpu: str = Field(min_length=1, description="the gpus.yaml id of the GPU the kernels were timed on")
    seconds: float = Field(gt=0, le=10, description="the kernels' time for the reading's whole prompt")
    tokens: int = Field(ge=64, le=10_000_000, description="prompt tokens of the reading (all sequences)")
    value_heads: int = Field(ge=1, le=1024, description="value heads of 128 the reading ran")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code and table were read")
    source: Prose = Field(min_length=3)
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
    source: Prose = Field(min_length=3)
    check: Check = "S"


class EagerDecode(Strict):
    """How an engine that launches every op from Python (Hugging Face transformers' ``generate()``) spends a decode
    step, from the ops its model code launches, read at a release: the host launches them one after another while the
    GPU runs them as they come (a launch is asynchronous), so a stretch between two host syncs lasts the longer of
    the host's launches and the GPU's work, not their sum. The generate() loop's own ops (sampling, stopping check,
    the next step's inputs) run after the step's sync, on an idle GPU. A MoE layer that loops over its experts in
    Python syncs for each expert it hits (step.py ``_parts``): its loop is a stretch of its own."""

    host_op_us: float = Field(gt=0, le=1000, description="host time one launched op costs: the Python module and "
                              "tensor code around it, PyTorch's dispatcher and the CUDA launch (a host not named)")
    layer_ops: LayerKernels = Field(description="ops a pre-norm decoder layer launches (two RMSNorms, q/k/v/o "
                                    "projections, rotary, cache update, attention, residual adds, the MLP)")
    norm_ops: LayerKernels = Field(description="ops one RMSNorm launches (a layer's norms beyond a pre-norm "
                                   "layer's two, models.yaml layer_norm_kernels, add as many each)")
    mlp_ops: LayerKernels = Field(description="ops of the dense MLP, which a MoE layer's block replaces")
    rotary_table_ops: LayerKernels = Field(description="ops that build the rotary cos / sin tables, run in every "
                                           "layer in releases before ``rotary_once_from`` and once a step from it")
    rotary_once_from: str = Field(pattern=r"^[0-9]+(\.[0-9]+){0,3}$")
    step_ops: LayerKernels = Field(description="ops a step launches outside the layers: the embedding, the mask, "
                                   "the rotary tables (from rotary_once_from), the final norm and output head, and "
                                   "generate()'s sampling, stopping check and next inputs")
    router_ops: LayerKernels = Field(description="ops a MoE block launches before its expert loop (router GEMM, "
                                     "soft-max, top-k, expert mask and the nonzero() of the experts hit)")
    expert_ops: LayerKernels = Field(description="ops the Python expert loop launches for each expert hit (its "
                                     "index and torch.where, gathers, the expert's MLP, the scale and index_add_)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the model code was read")
    source: Prose = Field(min_length=3)
    check: Check = "U"


class TorchAttention(Strict):
    """The kernels an engine's decode attention launches from Python where its flash-attention kernel is not
    installed (a job's ``attention: eager``): ExLlamaV2's torch matmul attention (exllamav2/attn.py), in place of one
    flash_attn_func call. The engine runs no CUDA graph, so each launch costs its host time a layer (engine.py
    ``torch_attention_us``)."""

    kernels: LayerKernels = Field(description="kernels the fallback launches a layer at one query token")
    flash_kernels: LayerKernels = Field(description="kernels the flash-attention call it replaces launches")
    host_op_us: float = Field(gt=0, le=1000, description="host time one launched op costs (a host not named)")
    as_of: str = Field(pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$", description="when the code was read")
    source: Prose = Field(min_length=3)
    check: Check = "U"


class CudaGraphsGate(Strict):
    """The GPUs on which a framework's build captures no CUDA graph of its decode step: those of ``vendors`` below
    ``below_compute_capability``, and from release ``lowered_from`` on (or for a job that states no release) below
    ``lowered_below``. Such a job takes the framework's constants before any release entry, its eager build's, as a
    recurrent window's ``graphs_dropped`` does (recurrent.py ``graphs_dropped``): the later entries were read on
    builds that replay the step as one graph."""

    vendors: list[str] = Field(min_length=1, description="the vendors whose builds the gate is in")
    below_compute_capability: float = Field(gt=0, description="no graphs on a GPU below this compute capability")
    lowered_from: str = Field(pattern=RELEASE_VERSION, description="the first release with the lower gate")
    lowered_below: float = Field(gt=0, description="the gate from that release on and for a job that states none")
    source: Prose = Field(min_length=3)
    check: Check = "S"
