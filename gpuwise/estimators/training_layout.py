"""A training job as the layout planner sees it, the layouts it may take, and each layout's figures
that do not depend on the GPU type.

:class:`TrainingJob` is what the planner needs from a resolved job (built once; its ``memo``
caches what the search builds). A :class:`Layout` splits the job's GPUs as tensor x pipeline x
data parallel, with expert and context parallelism carved out of the data-parallel GPUs, and
carries its memory settings (ZeRO stage, checkpointing, offload) and batch; :class:`Pins` are the
parts the user fixed. :func:`figures` gives a layout's busiest-GPU memory and the traffic of one
optimizer step (:class:`Static`), which step_time.py turns into seconds on a GPU type.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..frozen import frozen, record
from ..inputs.shape import Shape
from . import compute as C
from . import memory as M
from .stage_split import expert_shards, expert_split

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import RuntimeFile

ACT_BYTES = 2.0  # bf16 activations exchanged by TP, PP, EP and CP


@frozen
class Layout:
    """One way to lay a training job over ``tp x pp x dp`` GPUs (``dp`` includes the ``cp`` and
    ``ep`` GPUs carved out of it)."""

    tp: int = 1
    pp: int = 1
    dp: int = 1
    ep: int = 1
    cp: int = 1
    micro_batch: int = 1
    grad_accum: int = 1
    global_batch_tokens: int = 0
    zero: int = 0
    checkpointing: bool = False
    offload: str = "none"
    interleave: int = 1
    # without full checkpointing: the share of each pipeline rank's layers recomputed in full (Megatron-Core's
    # recompute_method 'block' with recompute_num_layers of them), the rest keeping their activations
    recompute: float = 0.0
    # hybrid sharding (HSDP; DeepSpeed MiCS, ZeRO++ hpZ): the data-parallel ranks each ZeRO group spans (its
    # context-parallel GPUs join it); the other ranks hold replicas of the group's shards. 0: every rank, one group
    dp_shard: int = 0
    # per-op selective activation checkpointing (torchtitan's 'op' policy; compute.sac_op_recomputed_params): every
    # layer recomputes its even matmuls and the tensor-parallel all-gathers, keeping the rest of its outputs
    sac_op: bool = False
    # an MoE model's expert tensor-parallel size: the GPUs each routed expert's matrices are split over
    # (stage_split.expert_split; 0: Megatron-LM's argument default, the tensor-parallel size where the expert-parallel
    # groups fit in the data-parallel GPUs, else 1); a dense model 0
    etp: int = 0

    @property
    def gpus(self) -> int:
        return self.tp * self.pp * self.dp

    @property
    def shard_group(self) -> int:
        """GPUs one ZeRO / FSDP group shards the states over: ``dp_shard`` ranks' GPUs with their context-parallel
        ones, or every data-parallel GPU (no hybrid sharding, or ZeRO-0, which shards nothing)."""
        g = self.dp_shard * self.cp
        return g if self.zero >= 1 and 0 < g < self.dp else self.dp

    @property
    def replicas(self) -> int:
        """Model replicas that see different data: data-parallel GPUs over context-parallel ones."""
        return max(1, self.dp // self.cp)

    def notation(self) -> str:
        """Short form, e.g. ``TP8 PP4 DP16 EP8 ZeRO-1 ckpt``. DP is the replicas (``dp`` over ``cp``), so that TP x PP x
        DP x CP is the GPUs, as Megatron counts its data-parallel size (review60: 64 GPUs read 'DP64 CP2')."""
        parts = [f"TP{self.tp}", f"PP{self.pp}" + (f"x{self.interleave}" if self.interleave > 1 else ""),
                 f"DP{self.replicas}"]
        if self.ep > 1:
            parts.append(f"EP{self.ep}")
            if self.etp and self.etp != self.tp:  # experts split otherwise than the dense layers
                parts.append(f"ETP{self.etp}")
        if self.cp > 1:
            parts.append(f"CP{self.cp}")
        parts.append(f"ZeRO-{self.zero}" + (f" HSDP{self.shard_group}" if self.shard_group < self.dp else ""))
        if self.checkpointing:
            parts.append("ckpt")
        elif self.sac_op:
            parts.append("ckpt-op")
        elif self.recompute:
            parts.append(f"ckpt {self.recompute:.0%}")
        if self.offload != "none":
            parts.append(f"offload-{self.offload}")
        return " ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {"tp": self.tp, "pp": self.pp, "dp": self.dp, "ep": self.ep, "cp": self.cp,
                "micro_batch": self.micro_batch, "grad_accum": self.grad_accum,
                "global_batch_tokens": self.global_batch_tokens, "zero": self.zero,
                "checkpointing": self.checkpointing, "offload": self.offload, "interleave": self.interleave,
                "recompute_share": self.recompute_share, "shard_group": self.shard_group,
                **({"etp": self.etp} if self.etp else {})}

    @property
    def recompute_share(self) -> float:
        """Share of the layers recomputed in the backward pass: all with checkpointing, else the block's."""
        return 1.0 if self.checkpointing else self.recompute


@frozen
class Pins:
    """Parts of the layout the user fixed (``None``: gpuwise chooses)."""

    tp: int | None = None
    pp: int | None = None
    ep: int | None = None
    cp: int | None = None
    zero: int | None = None
    checkpointing: bool | None = None
    offload: str | None = None
    vpp: int | None = None  # virtual pipeline stages per rank (interleaved schedule); 1: plain 1F1B
    dp_shard: int | None = None  # data-parallel ranks a ZeRO / FSDP group spans (hybrid sharding; AUTO_SHARD: chosen)
    sac_op: bool | None = None  # per-op selective checkpointing stated (workload.gradient_checkpointing 'selective_op')
    every_n: int | None = None  # every N-th layer of a stage recomputed (workload.checkpoint_every_n_layers)
    # the experts' tensor-parallel size stated (workload.parallelism.etp): the job carries it (TrainingJob.etp), each
    # layout keeps it where it divides; here only so that a layout which does not is said (training_job.pins_not_kept)
    etp: int | None = None

    @property
    def any(self) -> bool:
        return any(v is not None for v in (self.tp, self.pp, self.ep, self.cp, self.zero, self.checkpointing,
                                           self.offload, self.vpp, self.dp_shard, self.sac_op, self.every_n))

    def as_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


NO_PINS = Pins()  # nothing fixed: the planner chooses every part
AUTO_SHARD = -1  # Pins.dp_shard of a job that asks for hybrid sharding and leaves the group to the planner


@record
class TrainingJob:
    """What the planner needs from a resolved job; built once per job (``memo`` caches layouts,
    whose memory does not depend on the GPU)."""

    shape: Shape
    method: str
    precision: str  # fp32 | fp16 | bf16 | fp8: the compute precision
    mixed: bool
    optimizer: str
    micro_batch: int
    seq: int
    attention: str
    tokens: float
    global_batch_tokens: float
    runtime: RuntimeFile
    lora_rank: int = 16
    lora_targets: str = "all-linear"
    base_format: str | None = None
    ce_chunks: int = 0
    ce_cut: bool = False  # cut cross-entropy (workload.cut_cross_entropy): the loss holds no logits
    stack_efficiency: float = 1.0  # the training stack's speed relative to the calibrated middle
    stack_memory_bound: float = 1.0  # the share of the middle's memory-bound work the stack still pays
    stack_attention: str = "fa2"  # the stack's class of attention kernel (runtime.yaml training.attention_kernels)
    unfused_mla: bool = False  # MLA unfused on compute capability 10.0+ (attention_kernels unfused_mla_before)
    # compute capability below which the stack runs attention unfused (training_stacks unfused_attention_below)
    stack_unfused_attention_below: float | None = None
    stack_calibrated_on: tuple[str, ...] = ()  # architectures whose runtime.mfu was measured on this stack
    # (architecture, efficiency of the stack its runtime.mfu was measured on): the other stacks run at their
    # efficiency over it there (Megatron-Core's 1.10 on Hopper and Blackwell)
    stack_reference: tuple[tuple[str, float], ...] = ()
    # (architecture, the gpus.yaml entry its runtime.mfu was read on): another part of the architecture runs its
    # matmuls at the ratio of the GEMM clocks the two hold (runtime.yaml training.mfu_read_on, gpus.yaml clocks)
    mfu_read_on: tuple[tuple[str, Any], ...] = ()
    # ZeRO-1/2: the stack all-gathers the updated weights behind the next forward (Megatron-Core, NeMo, FSDP2);
    # otherwise the all-gather waits between the optimizer step and the forward (DeepSpeed's overlap_comm hides the
    # gradient reduction only)
    stack_gathers_ahead: bool = False
    # ZeRO-3 parameter offload: the stack fetches the host shards on a side stream ahead of the compute (FSDP)
    stack_offload_prefetch: bool = False
    # an offloaded optimizer's update runs on the GPU: the state in pinned host memory between steps, moved to the
    # GPU and back inside the compiled step (runtime.yaml training_stacks offload_update device: MaxText, Levanter)
    stack_offload_on_gpu: bool = False
    # the ZeRO stage a ZeRO-2/3 (FSDP) pin runs as on a pipelined layout (None: the stack has no such combination;
    # torchtitan's FSDP2 under torch.distributed.pipelining gathers and reduces once a step, as ZeRO-1 does)
    stack_pipeline_zero: int | None = None
    # the stack's pipeline engine has an interleaved schedule the planner may choose (False: DeepSpeed's PipelineEngine,
    # one contiguous chunk of layers per stage in a plain 1F1B TrainSchedule)
    stack_interleaves: bool = True
    # places beside the layers a pinned interleaved schedule splits over (Megatron-Core's embedding and loss counted as
    # a layer each: runtime.yaml training_stacks pipeline_split_slots); the planner's own interleaves never use them
    stack_pipeline_slots: int = 0
    # the stack splits a pipeline by transformer layers alone, so the output head and the loss ride on the last rank
    # beside its share of the layers (runtime.yaml training_stacks pipeline_head_last)
    stack_pipeline_head_last: bool = False
    # sequences a data-parallel rank takes a micro-step on the stack by default, where the user set no micro-batch
    # (runtime.yaml training_stacks local_batch; 0: none, the user's or gpuwise's micro_batch only)
    stack_local_batch: int = 0
    # more sequences a micro-step the planner tries beside one where the user set no micro-batch: an MoE model's
    # pretraining on a stack whose recipes set it per system (runtime.yaml training_stacks moe_micro_batches)
    micro_batch_tries: tuple[int, ...] = ()
    # the recomputation the named stack runs by default where the user left gradient_checkpointing out (runtime.yaml
    # training_stacks recompute): the shares the planner tries, cheapest first (planner.SAC_OP: per-op selective);
    # (): gpuwise's own (none where it fits)
    stack_recompute: tuple[float, ...] = ()
    # share of the TP collectives the stack hides behind GEMMs when the TP group is inside one NVLink domain
    # (NeMo's Transformer Engine userbuffers overlap); the larger of it and runtime.yaml training.tp_comm_overlap
    stack_tp_overlap: float = 0.0
    # the stack's layers are Megatron-Core's with Transformer Engine: Megatron's memory layout at every layout
    # and FP8 copies of the GEMM inputs under FP8 (runtime.yaml training_stacks transformer_engine)
    stack_te: bool = False
    # an MoE model's expert tensor-parallel size: the user's (workload.parallelism.etp) or the stack's default
    # (runtime.yaml training_stacks expert_tensor_parallel); 0: Megatron-LM's (stage_split.expert_split)
    etp: int = 0
    # full training: the stack's fused layers save what Korthikanti et al. count (runtime.yaml training_stacks
    # layer_activations), and its gradients take stack_grad_bytes a parameter (0: the layout's)
    stack_fused_layers: bool = False
    stack_grad_bytes: float = 0.0
    # the stack keeps fp32 weights as the only copy (runtime.yaml training_stacks mixed_precision_policy)
    stack_fp32_weights: bool = False
    # the model parallelism the stack's training path runs (runtime.yaml training_stacks parallelism): the planner
    # offers it only these; a stack without a list (the middle) every kind
    stack_parallelism: tuple[str, ...] = ("tensor", "pipeline", "expert", "context")
    # the highest ZeRO stage the stack runs beside tensor parallelism (None: any; DeepSpeed's AutoTP: ZeRO 0-2)
    stack_tp_max_zero: int | None = None
    stack_zero_stages: tuple[int, ...] | None = None  # the ZeRO stages the stack runs (None: any)
    stack_offload: bool = True  # the stack can offload to the host
    stack_loss_bytes: float = 0.0  # bytes per vocab entry per token the stack's loss holds (0: the default 12 B)
    # the stack's gradient bucket: (parameters, parameters per data-parallel rank); (0, 0): runtime.yaml
    # grad_bucket_bytes, PyTorch DDP's 25 MiB
    stack_grad_bucket: tuple[float, float] = (0.0, 0.0)
    # ZeRO-0/1/2: the gradient buckets are reduced during the backward (False: DeepSpeed without overlap_comm,
    # whose reductions wait on it; runtime.yaml training_stacks overlap_comm, workload.overlap_comm)
    stack_overlap_comm: bool = True
    # FP4 training (NVFP4 / MXFP4): GEMMs at the FP4 rate; memory is counted as under FP8 (16-bit weights, FP32
    # main copies, low-precision copies of the GEMM inputs)
    fp4_gemms: bool = False
    # the stack's compiler folds the FP8 quantization into the fusions beside the GEMMs (runtime.yaml training_stacks
    # fp8_quantize fused): its FP8 GEMMs run at training.fp8_gemm_fused_speedup (its FP4, Transformer Engine's
    # NVFP4 recipe, keeps the cast kernels)
    stack_fp8_fused: bool = False
    host_cores: float = 0.0  # CPU cores of the host a server's GPUs share (workload.host_cpu_cores; 0: unknown)
    # DeepSpeed ZeRO-3's gradient copies to the host for an offloaded optimizer, for the job's stack and release
    # (runtime.yaml zero3_offload_copies; training_job.zero3_offload_copies): (bytes a parameter a micro-batch and at
    # the step over PCIe, bytes a parameter of the host's upcast, pageable copies the backward waits for); () for
    # another stack: 16-bit copies a micro-batch hidden behind the backward
    zero3_copies: tuple[float, float, float, bool] = ()
    # DeepSpeed ZeRO-1/2's copies for an offloaded optimizer (training_job.zero12_offload_copies): (bytes a parameter
    # a micro-batch when accumulating, bytes at the boundary, gradient copies pageable and waited for, bytes of the
    # weights' return, that return pageable); () for another stack: 16-bit copies hidden behind the backward
    zero12_copies: tuple[float, float, bool, float, bool] = ()
    # GPU architecture -> host milliseconds per local expert an MoE layer's micro-batch takes to launch, for the job's
    # stack and release (runtime.yaml training.moe_dispatch; training_job.moe_host_table; step_time.moe_seconds)
    moe_host_ms: tuple[tuple[str, float], ...] = ()
    # the share of those launches a layer's forward makes, which a recomputed layer makes again
    # (runtime.yaml training.moe_dispatch lora_host_ops forward; training_job.moe_host_forward)
    moe_host_forward: float = 0.5
    # transformers before v5: (forward, backward) host seconds per expert of its Python loop over the experts
    # (runtime.yaml training.moe_dispatch transformers_loop; training_job.moe_loop_seconds; step_time.moe_seconds)
    moe_loop_s: tuple[float, ...] = ()
    # a dense layer's micro-batch on a stack whose layers launch their kernels from Python: (forward, backward) host
    # seconds (runtime.yaml training.dense_layer_host; training_job.dense_host_seconds; step_time.dense_host_seconds);
    # () for a stack or method the count was not read on
    dense_host_s: tuple[float, ...] = ()
    # the tokens an attention row spans where it is not the sequence: an eager attention over TRL's padding-free row, a
    # micro-batch's sequences in one (workload.packing; training_job.attention_row); 0: seq
    attn_row: int = 0
    # a stack whose checkpointing keeps each recomputed layer's input in host memory: the input's size in elements
    # above which it goes there (runtime.yaml training.checkpoint_offload; step_time.checkpoint_copy_seconds); 0: on
    # the GPU
    ckpt_offload_min: float = 0.0
    # DeepSpeed ZeRO-3: host seconds a module holding parameters takes each pass (runtime.yaml
    # training.zero3_module_fetch; step_time.zero3_host_seconds); 0 for a stack that gathers a wrapped block at a time
    zero3_fetch_s: float = 0.0
    # DeepSpeed ZeRO-3: host seconds each parameter's gradient hook takes in a micro-batch's backward, as (fixed, per
    # rank of the reduce-scatter) (runtime.yaml zero3_module_fetch grad_hook; training_job.zero3_hook_seconds); ()
    # for a stack without them
    zero3_hook_s: tuple[float, ...] = ()
    # ZeRO-3 on the transformers model from v5: an MoE layer's routed experts are one module holding stacked 3-D
    # weights, one fetch a pass, not a module per expert matrix (training_job.zero3_experts_one_module)
    zero3_experts_one_module: bool = False
    # DeepSpeed ZeRO-3 with overlap_comm stated false: its gradient reduce-scatters run on the compute stream
    # (data_parallel._dp_seconds); unset, DeepSpeed turns it on for ZeRO-3, so only a job stating it false is False here
    zero3_overlap_comm: bool = True
    batch_per_gpu: float = 0.0  # a default pretraining batch: at least this many tokens per GPU...
    batch_max: float = math.inf  # ...up to this many (0: the batch is the user's, kept as given)
    batch_grown_max: float = math.inf  # ...the growth with the cluster only up to this many (a dense model's cap)
    batch_given: bool = False  # the user stated the global batch: no layout may run a larger one
    # a full fine-tune stating no mixed_precision, stack, ZeRO stage or offload: on one GPU every state in bf16,
    # as the single-device recipes keep it (runtime.yaml training.one_gpu_full_finetune; :meth:`on`)
    one_gpu_pure: bool = False
    memo: dict = field(default_factory=dict)

    def release(self) -> None:
        """Clear the memo, and those of the jobs made from this one and kept in it (:meth:`on`'s one-GPU twin,
        held_plan.at_micro's job per micro-batch): a layout search kept in a memo refers back to its job, so a memo left
        full is a reference cycle the garbage collector frees later (Job.release)."""
        made = [v for v in self.memo.values() if isinstance(v, TrainingJob)]
        self.memo.clear()
        for other in made:
            other.release()

    def on(self, n: int) -> TrainingJob:
        """The job the planner lays over ``n`` GPUs: itself, or on one GPU where :attr:`one_gpu_pure` holds, the same
        job with its weights, gradients and AdamW moments in the compute dtype (no fp32 master: 8 B a parameter, not
        16), made once and kept in the memo. More GPUs shard the state instead (ZeRO), and keep fp32 masters."""
        if n != 1 or not self.one_gpu_pure or not self.mixed:
            return self
        twin = self.memo.get("one_gpu_pure")
        if twin is None:
            twin = self.memo["one_gpu_pure"] = dataclasses.replace(self, mixed=False, one_gpu_pure=False, memo={})
        return twin

    def batch_tokens(self, n: int) -> float:
        """Tokens per optimizer step on ``n`` GPUs: the given or size-based batch, or on a cluster large
        enough, ``batch_per_gpu`` for every GPU up to ``batch_grown_max`` (published practice grows the batch
        with the cluster: runtime.yaml training.pretrain_tokens_per_gpu; a dense model's up to
        pretrain_dense_batch_max)."""
        if self.batch_per_gpu <= 0:
            return self.global_batch_tokens
        return max(self.global_batch_tokens, min(self.batch_max, self.batch_grown_max, self.batch_per_gpu * n))

    def batch_ceiling(self, n: int) -> float:
        """The most tokens one micro-step of every replica may hold on ``n`` GPUs (replicas x micro-batch x
        sequence; a replica cannot take less than its micro-batch): the user's batch, which a layout with more
        replicas than it has sequences would exceed; with the default pretraining batch, the largest published
        one (``batch_max``): the default grows to one micro-batch per replica up to it, so that a small model
        on a large cluster runs data-parallel instead of being split to fit a batch nobody chose. None (inf)
        for a default fine-tuning batch."""
        if self.batch_given:
            return self.global_batch_tokens
        return self.batch_max if self.batch_per_gpu > 0 else math.inf

    def flops_per_token(self, checkpointing: bool | float) -> float:
        """Training FLOPs per token; ``checkpointing`` a share of the layers recomputed (True: all)."""
        share = float(checkpointing)
        key = ("fpt", share)
        if key not in self.memo:
            plain = C.training_flops(self.shape, 1.0, self.attention_seq, self.method, False).value
            full = C.training_flops(self.shape, 1.0, self.attention_seq, self.method, True).value
            self.memo[key] = plain + share * (full - plain)
        return self.memo[key]

    @property
    def attention_seq(self) -> int:
        """The tokens a row's attention spans: the sequence, or TRL's padding-free row under an eager attention."""
        return self.attn_row or self.seq

    def layout_flops_per_token(self, lay: Layout) -> float:
        """Training FLOPs per token of ``lay``: :meth:`flops_per_token` of its recomputed layers, or under per-op
        selective checkpointing the plain count and the forward of the matmuls the policy recomputes, 2 FLOPs a
        weight a token in every layer (:func:`compute.sac_op_recomputed_params`; frozen or not, a recomputed
        forward is the same). Attention's output is saved, so its kernel does not run again."""
        if not lay.sac_op or lay.checkpointing:
            return self.flops_per_token(lay.recompute_share)
        return self.flops_per_token(False) + 2.0 * self.shape.layers * C.sac_op_recomputed_params(self.shape)

    def setup(self, lay: Layout) -> M.TrainSetup:
        inflight = min(lay.pp, lay.grad_accum) * (1 + (lay.pp - 1) / (lay.pp * lay.interleave)
                                                  if lay.interleave > 1 else 1.0)
        return M.TrainSetup(
            method=self.method, precision=self.precision, mixed=self.mixed, optimizer=self.optimizer,  # type: ignore[arg-type]
            batch=lay.micro_batch, seq=self.seq, checkpointing=lay.checkpointing, recompute=lay.recompute,
            sac_op=lay.sac_op and not lay.checkpointing,
            attention=self.attention, flat_rows=self.attn_row > self.seq,
            zero=lay.zero, offload=lay.offload, dp=lay.dp // lay.cp if lay.cp > 1 else lay.dp,
            shard_group=lay.shard_group,
            lora_rank=self.lora_rank, lora_targets=self.lora_targets, tp=lay.tp, pp=lay.pp, ep=lay.ep,
            cp=lay.cp, etp=lay.etp, inflight=float(max(1.0, inflight)), base_format=self.base_format,
            ce_chunks=self.ce_chunks, ce_cut=self.ce_cut,
            bucket_bytes=self.runtime.training.bucket_bytes.value, te=self.stack_te,
            loss_bytes=self.stack_loss_bytes, fused_layers=self.stack_fused_layers, grad_bytes=self.stack_grad_bytes,
            fp32_weights=self.stack_fp32_weights, offload_state_only=self.stack_offload_on_gpu)

    def memory(self, lay: Layout) -> M.MemoryEstimate:
        """The memory of a layout with the formula behind each figure (memoised)."""
        key = ("mem", lay)
        if key not in self.memo:
            rt = self.runtime
            self.memo[key] = M.training_memory(self.shape, self.setup(lay), quant=rt.quantization,
                                               overhead=(rt.cuda_context_bytes.value,
                                                         rt.allocator_overhead_fraction.value))
        return self.memo[key]


@frozen
class Static:
    """The GPU-independent figures of a layout: memory and the traffic of one optimizer step."""

    layout: Layout
    per_gpu: float  # bytes at the peak, overhead included
    host: float  # bytes per GPU offloaded to host RAM / NVMe
    flops: float  # per GPU per optimizer step
    tokens: float  # per optimizer step, all GPUs
    tp_bytes: float  # one TP collective (all-reduce equivalent), per GPU
    tp_count: float  # TP collectives per GPU per step
    pp_bytes: float
    pp_count: float
    bubble: float
    grad_dense: float  # gradient bytes of the GPU's dense / expert parameters (unsharded)
    grad_expert: float
    weight_dense: float  # weight bytes ZeRO gathers
    weight_expert: float
    ep_bytes: float  # bytes one GPU sends in one MoE all-to-all
    ep_count: float
    cp_bytes: float
    cp_count: float
    opt_params: float  # parameters whose optimizer step this GPU runs
    trainable: float
    ckpt: bool = False
    grad_bytes_per_param: float = 4.0  # of the gradients the data-parallel GPUs reduce
    # Megatron-Core's MoE dispatcher with the experts split over an expert tensor-parallel group (ETP > 1): one
    # all-gather of the routed rows after the all-to-all, or reduce-scatter of the experts' output before the one
    # back, as all-reduce equivalents over the ETP group (bytes per GPU, count per GPU per step)
    etp_bytes: float = 0.0
    etp_count: float = 0.0
    # ZeRO-3 parameter offload: bytes of the GPU's parameter shard a pass over the layers fetches from the host
    # (step_time.offload_parts); 0: the trainable parameters' 16-bit weights (full training). LoRA: the frozen base's
    # shard at its own bytes and the fp32 adapters' (memory_lora)
    fetched: float = 0.0


def pipeline_head_share(tj: TrainingJob, lay: Layout) -> float:
    """The busiest pipeline rank's training FLOPs over the mean rank's where the stack splits the pipeline by
    transformer layers alone (runtime.yaml training_stacks pipeline_head_last): each rank holds layers / pp of the
    decoder and the last also the output head and the loss, V x h weights a token (6 FLOPs a weight for a full
    fine-tune or pretraining, 4 with the head frozen), and a 1F1B pipeline steps at its slowest stage. A split the
    layers do not fill evenly (pp x vpp not dividing them) is one that counts the embedding and the loss as places
    (pipeline_split_slots) or is set by hand: no share then."""
    if lay.pp <= 1 or not tj.stack_pipeline_head_last or tj.shape.layers % (lay.pp * lay.interleave):
        return 1.0
    head = (6.0 if tj.method == "full" else 4.0) * tj.shape.vocab * tj.shape.hidden
    return 1.0 + (lay.pp - 1) * head / tj.layout_flops_per_token(lay)


def figures(tj: TrainingJob, lay: Layout) -> Static:
    """Memory and per-step traffic of a layout (memoised: they do not depend on the GPU)."""
    key = ("static", lay)
    got = tj.memo.get(key)
    if got is not None:
        return got
    shape, rt = tj.shape, tj.runtime
    s = tj.setup(lay)
    if s.megatron_layout:  # the figures of M.parallel_training_memory, without its formulas
        b = M.parallel_bytes(shape, s, rt.quantization)
        over = (rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value)
        per_gpu, host = M.total_bytes(b.tensors, b.tensors, over), b.host
        dense, expert, gb, wb = b.dense, b.expert, b.grad_b, b.weight_b
    else:
        est = tj.memory(lay)
        per_gpu, host = est.per_gpu, est.host_bytes
        dense, expert = est.local_params
        gb, wb = est.grad_bytes_per_param, est.weight_bytes_per_param
    lora = tj.method != "full"
    trainable = M.lora_adapter_params(shape, tj.lora_rank, tj.lora_targets) if lora else shape.params
    if lora:  # only the adapters' gradients travel; ZeRO-3 gathers the frozen base
        adapters = trainable / (lay.tp * lay.pp)
        grad_dense, grad_expert = adapters * 4.0, 0.0
    else:
        grad_dense, grad_expert = dense * gb, expert * gb
    tokens = float(lay.replicas * lay.micro_batch * tj.seq * lay.grad_accum)
    flops = tj.layout_flops_per_token(lay) * tokens / lay.gpus * pipeline_head_share(tj, lay)
    layers_stage = math.ceil(shape.layers / lay.pp)
    mb_tokens = lay.micro_batch * tj.seq / lay.cp
    # per-op selective checkpointing: the two sequence-parallel all-gathers of a layer (half an all-reduce's volume
    # each) run again, the policy not saving their outputs; the reduce-scatters' outputs are saved
    sac = lay.sac_op and not lay.checkpointing
    per_layer_colls = 4 + 2 * lay.recompute_share + (1 if sac else 0)
    tp_bytes = mb_tokens * shape.hidden * ACT_BYTES if lay.tp > 1 else 0.0
    tp_count = layers_stage * lay.grad_accum * per_layer_colls if lay.tp > 1 else 0.0
    etp_bytes, etp_count = moe_tp_traffic(tj, lay, mb_tokens)
    if tp_count and tj.stack_te and shape.moe:  # Megatron-Core: the MoE block's MLP half has
        # no sequence gather of its own; a shared expert keeps one (a tensor-parallel MLP on the gathered sequence)
        moe_stage = math.ceil(getattr(shape, "moe_layers", shape.layers) / lay.pp)
        routed_only = 0 if shape.shared_experts else min(moe_stage, layers_stage)
        tp_count -= routed_only * lay.grad_accum * (2 + lay.recompute_share)
    pp_bytes = mb_tokens * shape.hidden * ACT_BYTES / lay.tp if lay.pp > 1 else 0.0
    pp_count = 2.0 * lay.grad_accum * lay.interleave if lay.pp > 1 else 0.0
    bubble = (lay.pp - 1) / (lay.grad_accum * lay.interleave) if lay.pp > 1 else 0.0
    ep_bytes = ep_count = 0.0
    if shape.moe and lay.ep > 1:
        moe_layers = getattr(shape, "moe_layers", shape.layers)
        # each routed row at the experts' input width (a LatentMoE model dispatches its latent)
        ep_bytes = mb_tokens / lay.tp * shape.experts_per_token * shape.expert_width * ACT_BYTES
        ep_count = math.ceil(moe_layers / lay.pp) * lay.grad_accum * per_layer_colls
    cp_bytes = cp_count = 0.0
    if lay.cp > 1:  # ring attention: K and V chunks pass around the ring, forward and backward (x2: K and V and
        # their gradients), and again in a recomputed layer's forward, whose attention is the ring's forward
        cp_bytes = 2 * shape.kv_dim * mb_tokens * ACT_BYTES * (lay.cp - 1) / lay.tp
        cp_count = layers_stage * lay.grad_accum * (3 + lay.recompute_share)
    opt_params = (dense + expert) if not lora else trainable / (lay.tp * lay.pp)
    if lay.zero >= 1:  # the optimizer steps the shard of the GPU's ZeRO group (hybrid sharding: of its group)
        dpc = max(1, lay.shard_group)
        edp = expert_shards(lay.tp, lay.dp, lay.ep, dpc, lay.etp)
        opt_params = (dense / dpc + expert / edp) if not lora else opt_params / dpc
    fetched = 0.0
    if lora and lay.zero >= 3 and lay.offload != "none":  # the frozen base's shard and the adapters', from the host
        fetched = (dense / dpc + expert / edp) * wb + opt_params * 4.0
    st = Static(lay, per_gpu, host, flops, tokens, tp_bytes, tp_count, pp_bytes, pp_count, bubble, grad_dense,
                grad_expert, dense * wb, expert * wb, ep_bytes, ep_count, cp_bytes, cp_count, opt_params, trainable,
                lay.checkpointing, 4.0 if lora else gb, etp_bytes, etp_count, fetched)
    tj.memo[key] = st
    return st


def moe_tp_traffic(tj: TrainingJob, lay: Layout, mb_tokens: float) -> tuple[float, float]:
    """(bytes, count) of the expert tensor-parallel collectives of Megatron-Core's MoE dispatcher on a GPU a step,
    as all-reduce equivalents over the layout's ETP group (NVIDIA/Megatron-LM megatron/core/transformer/moe/
    token_dispatcher.py at core_r0.12.0, MoEAlltoAllTokenDispatcher: 'permute->A2A(EP)->AG(TP)->sort_chunk' and
    'sort_chunk->RS(TP)->A2A(EP)->unpermute', the TP there being the experts' tensor-parallel group). Each GPU
    dispatches the top-k rows of its 1/tp of the micro-batch's tokens (sequence parallel) at the experts' input width;
    the ETP group gathers those of its etp GPUs before the experts and reduce-scatters the output after: an
    all-gather and a reduce-scatter a pass, each half an all-reduce of the gathered rows, in the forward, the backward
    and a recomputed forward. (0, 0) with the experts whole on each GPU (ETP 1), which moves no tensor-parallel
    collective in the MoE block; (0, 0) too for a stack not built on Megatron-Core's MoE layer, whose MoE block keeps
    the dense layers' sequence gather (:func:`figures`)."""
    shape = tj.shape
    if not shape.moe or not tj.stack_te:
        return 0.0, 0.0
    etp = lay.etp or expert_split(lay.tp, lay.dp, lay.ep)[0]
    if etp <= 1:
        return 0.0, 0.0
    rows = etp * mb_tokens / lay.tp * shape.experts_per_token  # the rows one ETP group's GPUs hold after the gather
    moe_stage = math.ceil(getattr(shape, "moe_layers", shape.layers) / lay.pp)
    return rows * shape.expert_width * ACT_BYTES, moe_stage * lay.grad_accum * (2 + lay.recompute_share)
