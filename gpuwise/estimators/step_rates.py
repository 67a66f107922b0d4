"""What a GPU type and its links contribute to a training step's time (:class:`GpuRates`), gathered once per GPU
type by :func:`~gpuwise.estimators.step_time.gpu_rates` and read by every term of the step: step_time.py's, the
data-parallel term's (:mod:`.data_parallel`) and the collectives' (:mod:`.collective_time`). Kept in its own module
so that those read the record without importing step_time.py, which imports them."""

from __future__ import annotations

from ..frozen import frozen
from . import Term
from . import interconnect as I


@frozen
class GpuRates:
    """What a GPU type and its links contribute to step time, as per-byte and per-FLOP costs."""

    flops: float  # achieved FLOP/s in compute (peak x MFU x FP8 speed-up)
    mfu: Term
    topo: I.Topology
    intra: float  # bytes/s per GPU inside a node (switched fabrics; efficiency applied)
    mesh: float  # bytes/s of one peer link of a point-to-point mesh (0: switched)
    net_bw: float  # bytes/s per GPU across nodes
    intra_lat: float  # seconds per ring step inside a node / across nodes
    net_lat: float
    grad_bucket_bytes: float  # a data-parallel bucket when the stack names none (runtime.yaml, PyTorch DDP's)
    tp_exposed: float
    ep_exposed: float
    mem_bw: float  # bytes/s achievable (optimizer step)
    opt_bytes: float
    pcie_gb_s: float
    host_gb_s_per_gpu: float
    nvme_gb_s_per_gpu: float
    cpu_adam_params_per_s_per_gpu: float  # host_cores_per_gpu x cpu_adam_params_per_s_per_core
    # host seconds per local expert an MoE layer's micro-batch (forward and backward) takes to launch (runtime.yaml
    # training.moe_dispatch; moe_seconds)
    moe_host_s: float = 0.0
    host_cores_per_gpu: float = 0.0  # host cores serving each GPU (the host over its GPUs a server, or the default)
    cpu_adam_params_per_s_per_core: float = 0.0  # a core's CPU Adam rate (bounds a host of few cores)
    host_cores_stated: bool = False  # the job stated its host's cores (workload.host_cpu_cores)
    # DeepSpeed ZeRO-3's gradient copies to the host (TrainingJob.zero3_copies) and the times a pinned copy they
    # take (pageable host buffers)
    zero3_copies: tuple[float, float, float, bool] = ()
    zero3_copy_slowdown: float = 1.0
    # DeepSpeed ZeRO-1/2's copies (TrainingJob.zero12_copies); their pageable ones take zero3_copy_slowdown times
    zero12_copies: tuple[float, float, bool, float, bool] = ()
    overlap_slowdown: float = 0.0  # compute seconds lost per second of hidden fast-link DP traffic (runtime.yaml)
    offload_prefetch: bool = False  # ZeRO-3's offloaded weights fetched ahead of the compute (TrainingJob)
    offload_on_gpu: bool = False  # an offloaded optimizer's state moved to the GPU for the update (TrainingJob)
