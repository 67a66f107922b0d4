"""What the layout planner is handed for a training job (:class:`planner.TrainingJob`): the user's
layout pins, the tokens per optimizer step, the training stack's speed. Built once per job and kept
in its memo; apart from the candidate evaluation so the rental side can size a job without it."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..inputs.job import Job, note, one_gpu_pure
from ..results import Assumption
from . import planner as P

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema.runtime import StackSpeed


def requested_pins(job: Job) -> P.Pins:
    """The layout settings the user wrote in the file (``auto`` and absent fields are free), made
    once per job (the count search asks for them at every count it probes)."""
    got = job.memo.get("pins")
    if got is None:
        got = job.memo["pins"] = _requested_pins(job)
    return got


def _requested_pins(job: Job) -> P.Pins:
    w = job.w
    given = w.model_fields_set
    par = w.parallelism
    off = dict(pins_off_stack(job))
    return P.Pins(
        tp=par.tp if par and "tp" not in off else None, pp=par.pp if par and "pp" not in off else None,
        ep=par.ep if par and "ep" not in off else None, cp=par.cp if par and "cp" not in off else None,
        zero=w.zero_stage if "zero_stage" in given and isinstance(w.zero_stage, int) and "zero_stage" not in off
        else None,
        checkpointing=(w.gradient_checkpointing if "gradient_checkpointing" in given
                       and isinstance(w.gradient_checkpointing, bool) and w.checkpoint_every_n_layers is None
                       else None),  # true beside every N-th layer: those layers (every_n)
        sac_op=True if w.gradient_checkpointing == "selective_op" else None,
        every_n=w.checkpoint_every_n_layers,
        offload=w.offload if "offload" in given and "offload" not in off else None,
        vpp=par.vpp if par else None,
        dp_shard=_dp_shard(job),
        etp=par.etp if par and job.shape.moe else None,
    )


_KINDS = (("tp", "tensor"), ("pp", "pipeline"), ("ep", "expert"), ("cp", "context"))
"""(workload.parallelism field, the kind of parallelism of runtime.yaml training_stacks parallelism)."""


def stack_parallelism(job: Job) -> tuple[str, ...]:
    """The model parallelism the job's training stack runs (runtime.yaml training_stacks parallelism); a stack
    that lists none, the middle among them, every kind."""
    runs = stack_spec(job).parallelism
    return tuple(k for _f, k in _KINDS) if runs is None else tuple(runs)


def pins_off_stack(job: Job) -> tuple[tuple[str, int], ...]:
    """The layout pins (workload.parallelism tp / pp / ep / cp above 1) the job's training stack cannot run: the
    planner sets them aside (a pin the software cannot run is most likely a mistake) and a rule says so
    (MEM-PIN-NOT-ON-STACK)."""
    if not job.training:
        return ()
    par, w, spec = job.w.parallelism, job.w, stack_spec(job)
    runs = stack_parallelism(job)
    off = tuple((f, getattr(par, f)) for f, kind in _KINDS
                if par is not None and kind not in runs and isinstance(getattr(par, f), int) and getattr(par, f) > 1)
    # the ZeRO stages and the offload a data-parallel-only stack runs (llm.c: ZeRO 0 or 1, no offload; hostile 25)
    given = w.model_fields_set
    if ("zero_stage" in given and isinstance(w.zero_stage, int) and spec.zero_stages is not None
            and w.zero_stage not in spec.zero_stages):
        off += (("zero_stage", w.zero_stage),)
    if "offload" in given and w.offload in ("cpu", "nvme") and not spec.offload:
        off += (("offload", w.offload),)
    return off


def pins_off_stack_phrases(job: Job) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """:func:`pins_off_stack` as message ids with values (note.train_pin_off_stack_*: the field and its setting)."""
    return tuple(("; " if i else "", f"note.train_pin_off_stack_{f}", {"pin": pin})
                 for i, (f, pin) in enumerate(pins_off_stack(job)))


def _dp_shard(job: Job) -> int | None:
    """The pinned hybrid-sharding group (data-parallel ranks), :data:`~.training_layout.AUTO_SHARD` for 'auto'
    (the planner chooses it; resolve says so as an assumption), None when not given."""
    par = job.w.parallelism
    if par is None or par.dp_shard is None:
        return None
    return P.AUTO_SHARD if par.dp_shard == "auto" else int(par.dp_shard)


_PIN_FIELDS = (("tp", "parallelism.tp", "tp"), ("pp", "parallelism.pp", "pp"), ("ep", "parallelism.ep", "ep"),
               ("cp", "parallelism.cp", "cp"), ("vpp", "parallelism.vpp", "interleave"),
               ("dp_shard", "parallelism.dp_shard", "dp_shard"), ("etp", "parallelism.etp", "etp"),
               ("zero", "zero_stage", "zero"), ("checkpointing", "gradient_checkpointing", "checkpointing"),
               ("offload", "offload", "offload"))
"""(pin, the workload field it comes from, the layout's field) for :func:`pins_not_kept`."""


def pins_not_kept(pins: P.Pins, lay: Any, layers: int = 0) -> tuple[tuple[str, str, dict[str, Any]], ...]:
    """What of the user's layout settings ``lay`` (the planner's layout for them) does not keep, as message ids
    with values (note.train_pin_not_kept: the field, the setting and what the layout uses): the planner drops a
    pin no layout of the GPU count can keep (a copy of tp x pp x cp wider than the count), and the rules say so."""
    out: list[tuple[str, str, dict[str, Any]]] = []
    for pin_key, field_, lay_key in _PIN_FIELDS:
        pin = getattr(pins, pin_key)
        if pin is None or pin == P.AUTO_SHARD:  # not given, or a group left to the planner
            continue
        used = getattr(lay, lay_key)
        if pin_key == "dp_shard" and not used:  # 0: one group of every data-parallel rank
            used = lay.replicas
        if used != pin:
            out.append(("; " if out else "", "note.train_pin_not_kept", {"field": field_, "pin": pin, "used": used}))
    if pins.every_n and layers:  # every N-th layer: the layout's share of each stage's layers recomputed
        share = P.every_nth_share(layers, lay.pp, pins.every_n)
        if abs(lay.recompute_share - share) > 1e-9:
            out.append(("; " if out else "", "note.train_pin_not_kept",
                        {"field": "checkpoint_every_n_layers", "pin": pins.every_n,
                         "used": f"{lay.recompute_share:.0%}"}))
    return tuple(out)


def pinned_span(pins: P.Pins) -> int:
    """The GPUs one copy of the pinned training layout spans (tensor x pipeline x context parallel)."""
    return (pins.tp or 1) * (pins.pp or 1) * (pins.cp or 1)


def job_pinned_span(job: Job) -> int:
    """:func:`pinned_span` of the job's own pins."""
    return pinned_span(job_pins(job))


def job_pins(job: Job) -> P.Pins:
    """The user's layout settings as reported with every training estimate (built once per job)."""
    return requested_pins(job)


def micro_batch_stated(job: Job) -> bool:
    """Whether the file states the micro-batch (``workload.batch_size``): only a stated one gives way to a smaller
    one (held_plan.held_smaller, micro_batch.smaller_micro_batch), in the estimate and the count search's fit check
    alike."""
    return "batch_size" in job.w.model_fields_set


def global_batch(job: Job) -> tuple[float, Assumption | None]:
    """Tokens per optimizer step: the user's, or published practice for the model size (the
    assumption says which, as a sentence of reports/messages.yaml with its source)."""
    w, f = job.w, job.kb.runtime.training
    if isinstance(w.global_batch_tokens, int | float):
        return float(w.global_batch_tokens), None
    if w.task == "pretrain":  # the size's published batch, grown with the cluster (planner.TrainingJob.batch_tokens)
        row = f.global_batch_tokens(job.shape.params)
        return row.tokens, note("workload.global_batch_tokens", row.tokens, "assume.global_batch.pretrain_cluster",
                                {"tokens": row.tokens, "source": " ".join(str(row.source).split()),
                                 "per_gpu": f.pretrain_tokens_per_gpu.value,
                                 "max": (f.pretrain_global_batch_max if job.shape.moe
                                         else f.pretrain_dense_batch_max).value,
                                 "cluster_source": " ".join(str(f.pretrain_tokens_per_gpu.source).split())})
    seqs = f.finetune_global_batch_sequences
    tokens = seqs.value * w.seq_len
    return tokens, note("workload.global_batch_tokens", tokens, "assume.global_batch.finetune",
                        {"sequences": seqs.value, "source": " ".join(str(seqs.source).split())})


def training_job(job: Job) -> P.TrainingJob:
    """What the layout planner needs from the job (built once; its memo caches layouts). Inside
    :func:`sharing` (a batch of audits), jobs that ask the planner the same question share one, and
    with it the layouts, memory and traffic figures and rates it has worked out."""
    tj = job.memo.get("training_job") or job.memo.get(SHARED_KEY)
    if tj is not None:
        return tj
    gbt, why = global_batch(job)
    key = _share_key(job) if _SHARED is not None else None
    got = _SHARED.get(key) if _SHARED is not None and key is not None else None
    if got is not None and got[0] is job.kb:
        stack_efficiency(job)  # the assumptions building it says (a stack left unnamed, its release), said here too
        moe_host_table(job)
        moe_loop_seconds(job)
        tj = got[1]
    else:
        tj = _build(job, gbt, why)
        if _SHARED is not None and key is not None:
            _SHARED[key] = (job.kb, tj)
            while len(_SHARED) > SHARED_JOBS:
                del _SHARED[next(iter(_SHARED))]
    # a shared one is kept apart from "training_job", whose memo the job clears when it is released
    job.memo[SHARED_KEY if _SHARED is not None and key is not None else "training_job"] = tj
    if why is not None:
        job.assumptions.append(why)
    return tj


def expert_tp(job: Job, spec: Any) -> int:
    """The job's expert tensor-parallel size for the planner: the user's (workload.parallelism.etp), else the named
    stack's default (runtime.yaml training_stacks expert_tensor_parallel: NeMo's 1; none, Megatron-LM's rule: 0,
    stage_split.expert_split); a Megatron-Core stack assumed for FP8 / FP4 training takes NeMo's, the recipes of the
    published runs that assumption rests on (default_stack). Said as an assumption on a Megatron-Core stack, where
    it moves the MoE dispatcher's traffic. A dense model 0."""
    if not job.shape.moe:
        return 0
    par = job.w.parallelism
    if par is not None and par.etp:
        return par.etp
    stacks = job.kb.runtime.training_stacks
    named = getattr(job.w, "stack", None)
    etp = spec.expert_tensor_parallel
    if named is None and spec.transformer_engine and "nemo" in stacks:
        etp = stacks["nemo"].expert_tensor_parallel
    if spec.transformer_engine and "expert" in stack_parallelism(job) and not any(
            a.field == "workload.parallelism.etp" for a in job.assumptions):
        job.assumptions.append(note("workload.parallelism.etp", etp or "tp",
                                    "assume.default.workload.parallelism.etp" if etp
                                    else "assume.default.workload.parallelism.etp_tp",
                                    {"stack": named or default_stack(job), "etp": etp or 0}))
    return etp or 0


def _build(job: Job, gbt: float, why: Assumption | None) -> P.TrainingJob:
    w, rt = job.w, job.kb.runtime
    # NVFP4 GEMMs under full training and LoRA alike: NVIDIA's MLPerf Training v5.1 Llama 2 70B LoRA recipes run the
    # frozen base's GEMMs in NVFP4 with BF16 parameters kept (llama2_70b_lora config_common_fp4.sh: FP4=True,
    # FP4_RECIPE=nvfp4, FP4_PARAM=False); QLoRA's 4-bit base is a storage format, not FP4 GEMMs
    fp4 = w.precision == "fp4" and w.method in ("full", "lora")
    precision = (w.precision if w.precision in ("fp32", "fp16", "bf16", "fp8")
                 else "fp8" if fp4 else "bf16")
    base = w.precision if w.method == "lora" and w.precision in ("int8", "int4") else None
    # fp8 parameters: Transformer Engine's fp8_model_init keeps a weight in FP8 only (no 16-bit copy); NeMo's LoRA
    # recipes turn it on with FP8 (MLPerf Training v4.1 / v5.0 llama2_70b_lora megatron_gpt_peft_tuning_config.yaml:
    # fp8_params follows FP8, with disable_parameter_transpose_cache), so the frozen base takes a byte a weight
    if fp8_params_held(job):
        base = "fp8"
    # chunked cross-entropy, or Liger's fused linear cross-entropy (the lm head and the loss a chunk at a time)
    fused_loss = getattr(w, "chunked_cross_entropy", False) or getattr(w, "liger_kernel", False)
    chunks = int(rt.training.ce_chunks.value) if fused_loss else 0
    # NVFP4 training runs without the stack's tensor-parallel overlap: Transformer Engine's userbuffers do not take
    # FP4 GEMMs (NVIDIA's MLPerf Training v5.1 NeMo 25.09 recipes, llama31_405b config_common_fp4.sh: "TP overlap not
    # supported yet", TP_COMM_OVERLAP=False, where the FP8 configs set it True)
    spec = stack_spec(job)  # the stack's entry, read once for every field below
    tries = moe_micro_batches(job, spec)
    recompute = stack_recompute(job, spec)
    tj = P.TrainingJob(shape=job.shape, method=w.method, precision=precision, mixed=w.mixed_precision,
                       optimizer=stack_optimizer(w.optimizer, spec), micro_batch=w.batch_size, seq=w.seq_len,
                       attention=w.attention,
                       tokens=job.tokens, global_batch_tokens=gbt, runtime=rt, lora_rank=w.lora_rank,
                       lora_targets=w.lora_targets, base_format=base, ce_chunks=chunks,
                       ce_cut=getattr(w, "cut_cross_entropy", False),
                       stack_efficiency=stack_efficiency(job),
                       stack_memory_bound=memory_bound_scale(job),
                       stack_attention=attention_class(job, spec),
                       unfused_mla=unfused_mla(job),
                       stack_unfused_attention_below=(float(spec.unfused_attention_below)
                                                      if spec.unfused_attention_below else None),
                       stack_calibrated_on=tuple(spec.calibrated_on),
                       stack_gathers_ahead=spec.gathers_ahead,
                       stack_offload_prefetch=spec.offload_prefetch,
                       stack_offload_on_gpu=spec.offload_update == "device",
                       stack_pipeline_zero=spec.pipeline_zero,
                       stack_interleaves=spec.interleaved_pipeline,
                       stack_pipeline_slots=spec.pipeline_split_slots,
                       # only where the job names the stack: an unnamed FP8 job's default (default_stack) stands for
                       # Megatron-Core or NeMo, whose recipes' splits the calibrated figure already holds
                       stack_pipeline_head_last=spec.pipeline_head_last and bool(getattr(w, "stack", None)),
                       stack_local_batch=(spec.local_batch or 0) if "batch_size" not in w.model_fields_set else 0,
                       stack_tp_overlap=0.0 if fp4 else tp_overlap(job, spec),
                       stack_te=spec.transformer_engine,
                       etp=expert_tp(job, spec),
                       stack_parallelism=stack_parallelism(job),
                       stack_tp_max_zero=spec.tensor_parallel_max_zero,
                       stack_zero_stages=(None if spec.zero_stages is None
                                          else tuple(spec.zero_stages)),
                       stack_offload=spec.offload,
                       stack_loss_bytes=spec.loss_bytes_per_vocab or 0.0,
                       stack_fused_layers=spec.layer_activations == "korthikanti",
                       stack_grad_bytes=main_grad_bytes(job, spec),
                       stack_fp32_weights=spec.mixed_precision_policy is not None,
                       stack_grad_bucket=(spec.grad_bucket_params,
                                          spec.grad_bucket_params_per_rank),
                       stack_overlap_comm=(spec.overlap_comm if w.overlap_comm is None
                                           else w.overlap_comm),
                       fp4_gemms=fp4,
                       stack_fp8_fused=spec.fp8_quantize == "fused",
                       host_cores=float(getattr(w, "host_cpu_cores", None) or 0),
                       moe_host_ms=moe_host_table(job),
                       micro_batch_tries=tries,
                       stack_recompute=recompute,
                       moe_host_forward=moe_host_forward(job),
                       moe_loop_s=moe_loop_seconds(job),
                       zero3_fetch_s=zero3_fetch_seconds(job),
                       dense_host_s=dense_host_seconds(job),
                       attn_row=attention_row(job),
                       ckpt_offload_min=checkpoint_offload_min(job),
                       zero3_hook_s=zero3_hook_seconds(job),
                       zero3_experts_one_module=zero3_experts_one_module(job),
                       zero3_overlap_comm=not (w.overlap_comm is False and zero3_fetch_seconds(job)),
                       zero3_copies=zero3_offload_copies(job),
                       zero12_copies=zero12_offload_copies(job),
                       stack_reference=stack_reference(job.kb),
                       mfu_read_on=mfu_read_on(job.kb))
    tj.batch_given = why is None
    tj.one_gpu_pure = one_gpu_pure(w, job.kb)  # planned on one GPU: every state in bf16 (TrainingJob.on)
    if why is not None and w.task == "pretrain":  # a default batch grows with the cluster
        f = rt.training
        tj.batch_per_gpu, tj.batch_max = f.pretrain_tokens_per_gpu.value, f.pretrain_global_batch_max.value
        # a dense model's batch grows with the cluster only up to the largest published dense batch
        tj.batch_grown_max = tj.batch_max if job.shape.moe else f.pretrain_dense_batch_max.value
    return tj


SHARED_KEY = "training_job:shared"
"""Where a job keeps a training job it shares with others (:func:`sharing`): not cleared with the job."""
SHARED_JOBS = 16
"""Training jobs a batch keeps: the oldest is dropped past this."""
_SHARED: dict[str, tuple[Any, P.TrainingJob]] | None = None


@contextlib.contextmanager
def sharing() -> Iterator[None]:
    """Jobs resolved inside share their training job (:func:`training_job`) when they ask the planner the
    same question: the same workload and training tokens on the same knowledge base (compared by
    identity). Everything the planner keeps in its memo is a function of the training job and of the
    memo key (the GPU, the count, the topology's figures, the layout), so a shared one answers as a
    fresh one would (tests/test_audit_batch.py)."""
    global _SHARED
    outer, _SHARED = _SHARED, {} if _SHARED is None else _SHARED
    try:
        yield
    finally:
        _SHARED = outer


def _share_key(job: Job) -> str | None:
    """What a training job is built from beyond the knowledge base: the workload (its model's shape
    follows from it) and the training tokens; None for a job that does not train."""
    if not job.training:
        return None
    return f"{job.tokens!r}|{job.w.model_dump_json()}"


def stack_efficiency(job: Job) -> float:
    """The training stack's speed (runtime.yaml training_stacks); none named: the calibrated middle,
    said once as an assumption. Lives with the planner's inputs (physics, issue 22)."""
    stack = getattr(job.w, "stack", None)
    if stack is None and not any(a.field == "workload.stack" for a in job.assumptions):
        default = default_stack(job)
        middle = default == "middle"
        job.assumptions.append(note("workload.stack", default, "assume.default.workload.stack" if middle
                                    else "assume.stack.low_precision_pretraining",
                                    _middle_figures(job.kb) if middle else None))
    return stack_spec(job).efficiency


def _middle_figures(kb: Any) -> dict[str, float]:
    """What the middle's assumption says of the other stacks, read from runtime.yaml: training_stacks' efficiencies
    (Megatron-Core, Megatron-DeepSpeed, the Hugging Face Trainer's FSDP class, Unsloth) and the share of the middle's
    memory-bound work a compiled or fused-kernel model pays (training.compiled_memory_bound_scale)."""
    st, rt = kb.runtime.training_stacks, kb.runtime.training
    named = (("megatron", "megatron"), ("megatron_deepspeed", "megatron-deepspeed"), ("hf", "fsdp-hf"),
             ("unsloth", "unsloth"))
    out = {k: float(st[s].efficiency) for k, s in named if s in st}
    if rt.compiled_memory_bound_scale is not None:
        out["fused"] = float(rt.compiled_memory_bound_scale.value)
    return out


def default_stack(job: Job) -> str:
    """The stack assumed when none is named: the middle, except for full training and LoRA in FP8 or FP4, which
    run on Transformer Engine's scaled low-precision GEMMs: Megatron-Core and NeMo build their layers from them
    (runtime.yaml training_stacks transformer_engine), and published FP8 runs were made on them (Nemotron-4 340B,
    NVIDIA's MLPerf submissions, DeepSeek-V3's own framework apart; of the MLPerf Training v5.1 Llama 2 70B LoRA
    submissions in FP8 / NVFP4 all but MangoBoost's ran NVIDIA's NeMo recipe or AMD's NeMo port to ROCm)."""
    w = job.w
    if (w.method in ("full", "lora") and w.precision in ("fp8", "fp4")
            and "megatron" in job.kb.runtime.training_stacks):
        return "megatron"
    return "middle"


def mfu_read_on(kb: Any) -> tuple[tuple[str, Any], ...]:
    """(architecture, the catalog entry of the part its runtime.mfu was read on) (runtime.yaml training.mfu_read_on)."""
    ro = kb.runtime.training.mfu_read_on
    return tuple((arch, kb.gpus[ident]) for arch, ident in ro.parts.items()) if ro is not None else ()


def stack_reference(kb: Any) -> tuple[tuple[str, float], ...]:
    """(architecture, efficiency of the stack its runtime.mfu was measured on), for the architectures a
    stack of runtime.yaml training_stacks lists as calibrated_on: there the middle and the other stacks run
    at their efficiency over that stack's (the middle on Hopper: 1 / 1.10 of Megatron-Core's figure)."""
    ref: dict[str, float] = {}
    for s in kb.runtime.training_stacks.values():
        for arch in s.calibrated_on:
            ref[arch] = max(ref.get(arch, 0.0), s.efficiency)
    return tuple(sorted(ref.items()))


def memory_bound_scale(job: Job) -> float:
    """The stack's share of the middle's memory-bound work, at most the compiled share when the model runs under
    torch.compile (its generated kernels fuse norms, activations, residual adds and the loss) or is patched with
    Liger Kernel (hand-written Triton kernels for the norms, rotary, SwiGLU and the loss)."""
    spec = stack_spec(job)
    scale = spec.memory_bound_scale
    compiled = job.kb.runtime.training.compiled_memory_bound_scale
    # a stack whose figure was measured compiled (TorchTitan) already carries the fusion in its efficiency
    fused = getattr(job.w, "torch_compile", False) or getattr(job.w, "liger_kernel", False)
    if fused and compiled is not None and not spec.compiled:
        return min(scale, compiled.value)
    return scale


def _version(v: str) -> tuple[int, ...]:
    return tuple(int(x) for x in v.split("."))


def tp_overlap(job: Job, spec: StackSpeed) -> float:
    """Share of the tensor-parallel collectives the job's stack hides behind its GEMMs: the stack's own
    (training_stacks tp_comm_overlap), none where the job turns the overlap off (workload.tp_comm_overlap false), and
    where it turns it on for a stack that leaves it off (Megatron-LM's --tp-comm-overlap), the share the Transformer
    Engine stacks hide with it on (NeMo's)."""
    given = getattr(job.w, "tp_comm_overlap", None)
    if given is False:
        return 0.0
    if given and not spec.tp_comm_overlap:
        spec = max((s for s in job.kb.runtime.training_stacks.values() if s.transformer_engine),
                   key=lambda s: s.tp_comm_overlap, default=spec)
    # LoRA: the recipes leave the fused QKV projection's two collectives a layer unoverlapped (training_stacks
    # tp_comm_overlap_lora_unhidden), so only the rest hides
    lora = job.w.task != "pretrain" and job.w.method != "full"
    return float(spec.tp_comm_overlap) * (1.0 - (spec.tp_comm_overlap_lora_unhidden if lora else 0.0))


def unfused_mla(job: Job) -> bool:
    """Whether the job's stack release trains multi-head latent attention unfused on Blackwell: a release before the
    stack's first with a fused kernel for it (runtime.yaml training.attention_kernels unfused_mla_before), stated as
    workload.stack_version; none stated is the newest release, which has one."""
    ak = job.kb.runtime.training.attention_kernels
    given = getattr(job.w, "stack_version", None)
    first = ak.unfused_mla_before.get(getattr(job.w, "stack", None) or default_stack(job)) if ak else None
    return bool(job.shape.mla and given and first and _version(given) < _version(first))


def moe_host_table(job: Job) -> tuple[tuple[str, float], ...]:
    """(architecture, host milliseconds per local expert an MoE layer's micro-batch takes to launch) for the job's
    stack and release: a release of the stack with figures of its own (runtime.yaml training.moe_dispatch releases)
    from that release on, the newest when workload.stack_version is not given; otherwise the base figures; none
    (0) for a stack whose experts run as one grouped GEMM with the token counts on the GPU (not in its stacks)."""
    md = job.kb.runtime.training.moe_dispatch
    if md is None or not job.shape.moe:
        return ()
    table = dict(md.ms_per_local_expert)
    stack = getattr(job.w, "stack", None) or default_stack(job)
    if stack not in md.stacks:
        return tuple(sorted((arch, 0.0) for arch in table))
    given = getattr(job.w, "stack_version", None)
    known = sorted((_version(k), k, r) for k, r in md.releases.items() if stack in r.stacks)
    if given is not None:
        known = [(v, k, r) for v, k, r in known if v <= _version(given)]
    elif known and not any(a.field == "workload.stack_version" for a in job.assumptions):
        job.assumptions.append(note("workload.stack_version", known[-1][1], "assume.default.workload.stack_version",
                                    {"stack": stack, "version": known[-1][1]}))
    if known:
        table.update(known[-1][2].ms_per_local_expert)
    share = moe_host_share(job, stack)
    return tuple(sorted((arch, ms * share) for arch, ms in table.items()))


def _host_steps(job: Job, stack: str) -> tuple[float, float]:
    """(host steps a grouped expert linear takes per local expert a micro-batch, of them the forward's) for the
    job's method, LoRA targets and stack (runtime.yaml training.moe_dispatch lora_host_ops): a trainable expert's,
    a frozen one's, and a frozen one's with a trainable lora_A and lora_B of its own on the stacks that put them."""
    ops = job.kb.runtime.training.moe_dispatch.lora_host_ops
    w = job.w
    if w.task == "pretrain" or w.method == "full":
        return float(ops.trainable), float(ops.forward)
    if w.lora_targets == "all-linear" and stack in ops.per_expert_adapter_stacks:
        return float(ops.frozen + 2 * ops.trainable), 3.0 * ops.forward
    return float(ops.frozen), float(ops.forward)


def moe_micro_batches(job: Job, spec: StackSpeed) -> tuple[int, ...]:
    """The micro-batches beside one sequence the planner tries for an MoE model's pretraining with no batch_size given,
    on a stack whose recipes set it per system (runtime.yaml training_stacks moe_micro_batches); said as the
    assumption in place of the one-sequence default."""
    w = job.w
    if not (job.shape.moe and w.task == "pretrain" and spec.moe_micro_batches) or "batch_size" in w.model_fields_set:
        return ()
    tries = tuple(spec.moe_micro_batches)
    for i, a in enumerate(job.assumptions):
        if a.field == "workload.batch_size" and a.message_id == "assume.default.workload.batch_size":
            job.assumptions[i] = note("workload.batch_size", "auto", "assume.default.workload.batch_size.moe",
                                      {"stack": spec.name, "sizes": ", ".join(map(str, tries))})
    return tries


def attention_class(job: Job, spec: StackSpeed) -> str:
    """The attention kernel class a training job runs: the backend it states (workload.attention_kernel, mapped by
    runtime.yaml attention_kernels backends), else its stack's (training_stacks attention_kernel), said as an
    assumption naming the backend of that class (fa2, or cudnn for the fused class) where the job names its stack
    (unnamed, the stack's own assumption covers it: one line more folded the plan brief's month table)."""
    stated = getattr(job.w, "attention_kernel", None)
    ak = job.kb.runtime.training.attention_kernels
    if ak is None:
        return spec.attention_kernel
    if stated is not None:
        return ak.backends.get(stated, spec.attention_kernel)
    backend = next((b for b, cls in ak.backends.items() if cls == spec.attention_kernel), None)
    if (backend is not None and getattr(job.w, "stack", None) is not None
            and not any(a.field == "workload.attention_kernel" for a in job.assumptions)):
        job.assumptions.append(note("workload.attention_kernel", backend, "assume.default.workload.attention_kernel",
                                    {"stack": spec.name, "kernel": backend}))
    return spec.attention_kernel


def method_recompute(job: Job) -> tuple[float, ...]:
    """Every layer recomputed for a fine-tune whose method's tools turn recomputation on by default (runtime.yaml
    training.method_recompute: QLoRA, PEFT's prepare_model_for_kbit_training), where the job states no
    gradient_checkpointing and its stack has no recompute default of its own; said as the assumption. ()
    otherwise: gpuwise's own choice (only where the layout needs it)."""
    w = job.w
    rule = job.kb.runtime.training.method_recompute
    if rule is None or w.task != "finetune" or w.method not in rule.methods:
        return ()
    for i, a in enumerate(job.assumptions):
        if (a.field == "workload.gradient_checkpointing"
                and a.message_id == "assume.default.workload.gradient_checkpointing"):
            job.assumptions[i] = note("workload.gradient_checkpointing", "auto",
                                      "assume.default.workload.gradient_checkpointing.method_full",
                                      {"method": w.method})
    return (1.0,)


def stack_recompute(job: Job, spec: StackSpeed) -> tuple[float, ...]:
    """The recomputation shares the planner tries for a dense model on a stack the job names, where
    gradient_checkpointing is left out: the stack's own default for the model's size (runtime.yaml training_stacks
    recompute; per-op selective, or every layer where that does not fit; or every layer), said as the assumption in
    place of gpuwise's own. () where the job names no stack or states gradient_checkpointing, for an MoE model unless
    the stack's MoE configs recompute alike (recompute_moe), and for per-op selective on a model it is not costed for
    (compute.sac_op_supported: MLA, another mixer)."""
    from .compute import sac_op_supported

    w = job.w
    if "gradient_checkpointing" in w.model_fields_set or w.checkpoint_every_n_layers is not None:
        return ()
    if getattr(w, "stack", None) is None or spec.recompute is None:
        return method_recompute(job)
    if job.shape.moe and not spec.recompute_moe:
        return ()
    size = job.shape.params / 1e9
    mode = next((r.mode for r in spec.recompute if r.upto_params_b is None or size <= r.upto_params_b), None)
    if mode is None or (mode == "selective_op" and not sac_op_supported(job.shape)):
        return ()
    for i, a in enumerate(job.assumptions):
        if (a.field == "workload.gradient_checkpointing"
                and a.message_id == "assume.default.workload.gradient_checkpointing"):
            job.assumptions[i] = note("workload.gradient_checkpointing", "auto",
                                      f"assume.default.workload.gradient_checkpointing.stack_{mode}",
                                      {"stack": spec.name, "params_b": round(size, 1)})
    return (P.SAC_OP, 1.0) if mode == "selective_op" else (1.0,)


def moe_host_forward(job: Job) -> float:
    """The share of an MoE layer's per-expert host steps its forward makes (a recomputed layer makes them again);
    0.5 where the knowledge does not count them (half of the layer's work, as its passes)."""
    md = job.kb.runtime.training.moe_dispatch
    if md is None or md.lora_host_ops is None or not md.lora_host_ops.forward or not job.shape.moe:
        return 0.5
    steps, forward = _host_steps(job, getattr(job.w, "stack", None) or default_stack(job))
    return forward / steps


def moe_host_share(job: Job, stack: str) -> float:
    """The share of the per-expert host figure (read on full-weight training, every expert trainable) a job's
    experts make: 1 for a job that trains them; for LoRA, the host steps of a frozen expert over a trainable one
    (runtime.yaml training.moe_dispatch lora_host_ops: no weight-gradient GEMM, accumulation or gradient hook), and
    on a stack whose all-linear LoRA gives each expert a lora_A and a lora_B of its own (grouped linears that
    train), two trainable ones beside it."""
    ops = job.kb.runtime.training.moe_dispatch.lora_host_ops
    if ops is None:
        return 1.0
    return _host_steps(job, stack)[0] / ops.trainable


def moe_loop_seconds(job: Job) -> tuple[float, float]:
    """(forward, backward) host seconds per expert an MoE layer's micro-batch takes where the job runs the
    transformers model before v5, whose MoE block loops over its experts in Python (runtime.yaml
    training.moe_dispatch transformers_loop: operators per expert x an eager operator's host time, the forward's at
    the time read on the loop itself where the knowledge gives one, us_per_op_forward); () for
    another stack, a later release or a dense model. workload.transformers_version none given: the newest, said as
    an assumption for an MoE model on one of those stacks."""
    md = job.kb.runtime.training.moe_dispatch
    loop = md.transformers_loop if md is not None else None
    stack = getattr(job.w, "stack", None) or default_stack(job)
    if loop is None or not job.shape.moe or stack not in loop.stacks:
        return ()
    given = getattr(job.w, "transformers_version", None)
    if given is None:
        if not any(a.field == "workload.transformers_version" for a in job.assumptions):
            job.assumptions.append(note("workload.transformers_version", loop.before,
                                        "assume.default.workload.transformers_version",
                                        {"stack": stack, "version": loop.before}))
        return ()
    if _version(given) >= _version(loop.before):
        return ()
    forward_us = loop.us_per_op if loop.us_per_op_forward is None else loop.us_per_op_forward
    return loop.ops_forward * forward_us * 1e-6, loop.ops_backward * loop.us_per_op * 1e-6


def zero3_fetch_seconds(job: Job) -> float:
    """Host seconds DeepSpeed ZeRO-3 takes per module holding parameters and pass (runtime.yaml
    training.zero3_module_fetch) for a job on one of its stacks; 0 for the others."""
    zf = job.kb.runtime.training.zero3_module_fetch
    return zf.ms_per_fetch * 1e-3 if zf is not None and engine_stack(job) in zf.stacks else 0.0


def attention_row(job: Job) -> int:
    """Tokens an eager attention's row spans under TRL's padding-free collator (workload.packing padding_free): the
    micro-batch's sequences concatenated into one (trl/trainer/sft_trainer.py DataCollatorForLanguageModeling:
    ``torch.cat(input_ids, dim=0).unsqueeze(0)``), so the scores cover batch_size x seq_len tokens; 0 otherwise (a
    flash kernel's varlen path keeps each sequence's own scores)."""
    w = job.w
    if getattr(w, "packing", "none") != "padding_free" or w.attention != "eager" or w.batch_size <= 1:
        return 0
    return int(w.batch_size * w.seq_len)


def checkpoint_offload_min(job: Job) -> float:
    """Elements above which a recomputed layer's input goes to host memory (runtime.yaml
    training.checkpoint_offload) for a job on one of its stacks; 0: the inputs stay on the GPU."""
    co = job.kb.runtime.training.checkpoint_offload
    return float(co.min_elements) if co is not None and engine_stack(job) in co.stacks else 0.0


def dense_host_seconds(job: Job) -> tuple[float, ...]:
    """(forward, backward) host seconds a dense layer's micro-batch takes to launch its kernels (runtime.yaml
    training.dense_layer_host) for a job on one of its stacks with a method its count was read on; () otherwise."""
    dh = job.kb.runtime.training.dense_layer_host
    if dh is None or engine_stack(job) not in dh.stacks or job.w.method not in dh.methods:
        return ()
    return dh.forward * dh.us_per_launch * 1e-6, dh.backward * dh.us_per_launch * 1e-6


def zero3_hook_seconds(job: Job) -> tuple[float, ...]:
    """Host seconds DeepSpeed ZeRO-3's gradient hook takes for a parameter in a micro-batch's backward, as (the part
    that does not depend on the group, the part for each rank the gradient is reduce-scattered over) (runtime.yaml
    training.zero3_module_fetch grad_hook); () for a job on a stack without these hooks, or none in the knowledge."""
    zf = job.kb.runtime.training.zero3_module_fetch
    hook = zf.grad_hook if zf is not None else None
    if hook is None or engine_stack(job) not in zf.stacks:
        return ()
    return ((hook.calls * hook.us_per_call + hook.launches * hook.us_per_launch) * 1e-6,
            hook.calls_per_rank * hook.us_per_call * 1e-6)


def zero3_experts_one_module(job: Job) -> bool:
    """Whether ZeRO-3 fetches an MoE layer's routed experts as one module a pass: the job runs the transformers
    model (runtime.yaml training.moe_dispatch transformers_loop stacks) from the release that stores a layer's
    experts as stacked 3-D weights of one module (transformers_loop before, 5.0; none given: the newest, the
    assumption moe_loop_seconds states). Before it, and on Megatron-DeepSpeed (DeepSpeed-MoE's Experts holds a list
    of expert modules), each expert's matrices are modules of their own (runtime.yaml training.zero3_module_fetch)."""
    md = job.kb.runtime.training.moe_dispatch
    loop = md.transformers_loop if md is not None else None
    stack = getattr(job.w, "stack", None) or default_stack(job)
    if loop is None or not job.shape.moe or stack not in loop.stacks:
        return False
    given = getattr(job.w, "transformers_version", None)
    return given is None or _version(given) >= _version(loop.before)


def zero3_offload_copies(job: Job) -> tuple[float, float, float, bool]:
    """DeepSpeed ZeRO-3's gradient copies to the host (runtime.yaml zero3_offload_copies) for a job on one of its
    stacks: (bytes a parameter a micro-batch over PCIe, bytes a parameter over PCIe at the step, bytes a parameter
    the host reads and writes converting it, the copies pageable and waited for). 2 + 2 B a micro-batch (to the host
    buffer and back; 4 + 4 B in fp32 training); at the step 4 B from the release that upcasts on the GPU, before it
    2 B that the CPU upcasts (reading 2 B and writing 4 B); before the release that pins the host buffers and issues
    the copies beside the backward, they are pageable and the backward waits for them. The job's release is
    workload.stack_version, the newest when none is given. () for the other stacks."""
    zc = job.kb.runtime.zero3_offload_copies
    stack = getattr(job.w, "stack", None) or default_stack(job)
    if zc is None or engine_stack(job) not in zc.stacks:
        return ()
    given = getattr(job.w, "stack_version", None)
    if (given is None and job.w.offload != "none" and job.w.zero_stage in (3, "auto")
            and not any(a.field == "workload.stack_version" for a in job.assumptions)):
        # the newest behaviour (pinned host buffers, copies beside the backward) is costed: say so
        job.assumptions.append(note("workload.stack_version", zc.pinned_async_from,
                                    "assume.default.workload.stack_version.zero3_offload",
                                    {"stack": stack, "version": zc.pinned_async_from}))
    grad = 4.0 if job.w.precision == "fp32" else 2.0  # the gradient as the backward makes it (fp32 needs no upcast)
    if given is not None and _version(given) < _version(zc.gpu_upcast_from):
        return (2 * grad, grad, 6.0 if grad < 4 else 0.0, True)
    return (2 * grad, 4.0, 0.0, given is not None and _version(given) < _version(zc.pinned_async_from))


def zero12_offload_copies(job: Job) -> tuple[float, float, bool, float, bool]:
    """DeepSpeed ZeRO-1/2's copies for an offloaded optimizer (runtime.yaml zero3_offload_copies, zero12_* fields)
    for a job on one of its stacks: (bytes a parameter a micro-batch with gradient accumulation, 2 + 2 B of the
    16-bit accumulated gradient to the host and back; bytes a parameter at the boundary, the fp32 gradient's 4 B;
    the gradient copies pageable and waited for; bytes a parameter of the weights' return; that return pageable).
    The job's release is workload.stack_version, the newest when none is given. () for the other stacks."""
    zc = job.kb.runtime.zero3_offload_copies
    stack = getattr(job.w, "stack", None) or default_stack(job)
    if zc is None or engine_stack(job) not in zc.stacks or zc.zero12_pageable_from is None:
        return ()
    given = getattr(job.w, "stack_version", None)
    if (given is None and job.w.offload != "none" and job.w.zero_stage in (1, 2)
            and not any(a.field == "workload.stack_version" for a in job.assumptions)):
        # the newest behaviour (pinned host buffers, copies beside the backward) is costed: say so
        job.assumptions.append(note("workload.stack_version", zc.pinned_async_from,
                                    "assume.default.workload.stack_version.zero12_offload",
                                    {"stack": stack, "version": zc.pinned_async_from,
                                     "pageable": zc.zero12_pageable_from}))
    v = _version(given) if given is not None else None
    pinned = v is None or v >= _version(zc.pinned_async_from)
    grad = 4.0 if job.w.precision == "fp32" else 2.0
    waits = not pinned and v >= _version(zc.zero12_pageable_from)
    fp32_return = (v is not None and zc.zero12_fp32_return_from is not None and zc.zero12_host_cast_from is not None
                   and _version(zc.zero12_fp32_return_from) <= v < _version(zc.zero12_host_cast_from))
    fused = (v is not None and job.w.precision == "fp16" and zc.zero12_unfused_return_from is not None
             and v < _version(zc.zero12_unfused_return_from))  # CPU Adam writes the fp16 weights back itself
    return (2 * grad, 4.0, waits, 4.0 if fp32_return or grad == 4 else 2.0,
            not pinned and not fp32_return and not fused)


def main_grad_bytes(job: Job, spec: StackSpeed) -> float:
    """Bytes a parameter's main gradient takes where it is held and reduced: the workload's grad_reduce_in_fp32 where
    given (false: the 16-bit dtype, 2 B; true: fp32, 4 B), else the stack's (0: the layout's fp32)."""
    given = getattr(job.w, "grad_reduce_in_fp32", None)
    if given is None:
        return spec.gradient_bytes or 0.0
    return 4.0 if given else 2.0


def fp8_params_held(job: Job) -> bool:
    """The frozen LoRA base is held in FP8 (``fp8_params`` on a Transformer Engine stack, precision fp8): what
    the memory estimate credits. Transformer Engine's FP8 needs FP8 hardware; the rules judge that per GPU."""
    w = job.w
    return bool(job.training and w.method == "lora" and w.precision == "fp8" and getattr(w, "fp8_params", False)
                and stack_spec(job).transformer_engine)


def engine_stack(job: Job) -> str:
    """The stack whose sharding engine the job's stack runs (runtime.yaml training_stacks engine: optimum-habana and
    xtuner run DeepSpeed's), which that engine's mechanisms (zero3_offload_copies, training.zero3_module_fetch) list."""
    stack = getattr(job.w, "stack", None) or default_stack(job)
    spec = job.kb.runtime.training_stacks.get(stack)
    return spec.engine if spec is not None and spec.engine else stack


def stack_spec(job: Job) -> StackSpeed:
    """The named training stack's entry of runtime.yaml training_stacks (the middle when none is named)."""
    stacks = job.kb.runtime.training_stacks
    stack = getattr(job.w, "stack", None) or default_stack(job)
    return stacks[stack] if stack in stacks else stacks["middle"]


def stack_optimizer(optimizer: str, spec: StackSpeed) -> str:
    """The optimizer as memory holds it on the stack: a stack with its own AdamW (runtime.yaml training_stacks adamw:
    optax's, compiled into the jitted step over the donated train state) holds ``adamw`` as torch's fused step holds
    it, the moments in the parameters' dtype and no parameter-sized temporary at the step; else as the job says."""
    return "adamw-fused" if optimizer == "adamw" and spec.adamw else optimizer
