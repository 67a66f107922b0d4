"""Turn a validated requirements file into a resolved job: the model's shape, the tokens,
and every default that was filled in (each becomes a reported assumption).
"""

from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import field
from typing import Any

from .. import messages
from ..checked import made
from ..errors import N_, UserError, either
from ..frozen import record
from ..knowledge import Knowledge
from ..knowledge.names import published, published_card, release_method, release_of
from ..knowledge.records import version_key
from ..results import Assumption
from .listed import _providers, check_network
from .listed import check_instance as check_instance  # audit.py imports these from here
from .listed import check_instance_host_ram as check_instance_host_ram
from .listed import check_instance_network as check_instance_network
from .listed import listed_provider as listed_provider
from .schema import Constraints, Requirements, Workload
from .shape import Shape, from_catalog, from_workload
from .shape_checks import (
    _check_draft,
    _check_etp,
    _check_every_nth,
    _check_sac_op,
    _check_schedule,
    _check_size,
    field_at,
)
from .task_fields import SERVING_ONLY, TRAINING_ONLY
from .workload import QUANTIZATION_PRECISIONS

FINETUNE_DEFAULT_TOKENS = 1.0e8
CHINCHILLA_TOKENS_PER_PARAM = 20.0


CHOSEN_WITH_THE_LAYOUT = ("zero_stage", "offload", "gradient_checkpointing")
"""Training settings that, when not given, gpuwise chooses with the layout (listed as ``auto``)."""

KEPT: list[Any] | None = None
"""Where the ``gpuwise`` process (cli.py, one recommendation) keeps what an answer was computed from
-- the job with its caches, the estimates, the consultation -- instead of freeing it when the
result is built: the process ends at once, without freeing anything (``os._exit``), and freeing
them was 8.4 M instructions of a recommendation's ~1,378 M. ``None``: freed as soon as the result
is built (the Python API, tests, a batch)."""


@record
class Job:
    req: Requirements
    kb: Knowledge
    shape: Shape
    model_id: str | None
    tokens: float  # training tokens (0 for inference)
    deadline_days: float | None  # explicit, or the project length when none was given
    assumptions: list[Assumption] = field(default_factory=list)
    where: str = "requirements"
    memo: dict = field(default_factory=dict)  # memory estimates by (count, strategy, tp)
    cloud: Any = None  # an audited proposal's cloud usage (egress, storage): priced on every rental
    memory_share: Any = None  # (job, gpu) -> the share of its memory a layout may fill: the memory rules'
    # limit in force, bound by the decider (gpuwise/decide/verdicts.py plan_within); None: the built-in rules'
    serving_limits: Any = None  # (job, gpu) -> the serving limits the rules in force set (latency, throughput,
    # request rate, p95 latency: gpuwise/estimators/serving/limits.py), bound likewise; None: the workload's
    serving_copies: Any = None  # (job, gpu, count, gpus_per_copy, spans) -> whether the rules in force let a
    # copy of that many GPUs serve (CMP-FRAMEWORK-NODES or a house rule), bound likewise; None: the built-in's

    def __enter__(self) -> Job:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Drop the per-job caches once a result is built. The layout planner's cache (held by the
        training job in ``memo``) refers back to the job it plans; cleared, the estimates are freed
        as soon as the result is returned instead of by a later garbage collection."""
        if KEPT is not None:
            KEPT.append(self)
            return
        planner = self.memo.get("training_job")
        if planner is not None:
            planner.release()
        self.memo.clear()

    @property
    def w(self) -> Workload:
        return self.req.workload

    @property
    def c(self) -> Constraints:
        return self.req.constraints

    @property
    def training(self) -> bool:
        return self.w.task != "inference"

    def question(self) -> dict[str, Any]:
        """The question as understood: every field with its value; defaults are listed in assumptions."""
        out = self.req.model_dump(mode="json")
        self.drop_unused(out["workload"])
        if not self.c.gpus:
            out["constraints"].pop("gpus", None)
        out["resolved_model"] = {"id": self.model_id, "name": self.shape.name, "params": self.shape.params,
                                 "active_params": self.shape.active_params, "layers": self.shape.layers,
                                 "hidden": self.shape.hidden, "heads": self.shape.heads,
                                 "kv_heads": self.shape.kv_heads, "vocab": self.shape.vocab}
        out["train_tokens_used"] = self.tokens
        out["deadline_days_used"] = self.deadline_days
        return out

    def drop_unused(self, w: dict[str, Any]) -> None:
        """Leave out of a dumped workload the fields its task does not read (an audit's proposal as
        understood too: review51 found an inference proposal listed with method: full, lora_rank: 16,
        optimizer: adamw, seq_len: 2,048, zero_stage: 0)."""
        # the other task's fields at their defaults said nothing (a fine-tune's question listed batch_wait_steps: 0
        # and scheduler_recv_interval: 1, a service's torch_compile: false; review33): the schema refuses them set
        only_inference = ("context_len", "concurrent_requests", "target_tokens_per_s", "framework", "prompt_tokens",
                          "output_tokens", "max_ttft_ms", "max_tpot_ms", "framework_version", "speculative",
                          *SERVING_ONLY)
        only_training = ("optimizer", "batch_size", "seq_len", "gradient_checkpointing", "zero_stage", "offload",
                         "train_tokens", "mixed_precision", "method", *TRAINING_ONLY)
        for k in only_training if self.w.task == "inference" else only_inference:
            w.pop(k, None)
        if self.w.task == "inference" and self.w.requests_per_s is not None:
            # the load is the rate (Little's law) where these are not given: their defaults, 1 request served at
            # once and no throughput wanted, are not the question (review56: Qwen3.5 at 4 requests/s, 47 in
            # flight, read 'workload.concurrent_requests: 1' and 'workload.target_tokens_per_s: 0')
            for k in ("concurrent_requests", "target_tokens_per_s"):
                if k not in self.w.model_fields_set:
                    w.pop(k, None)
        if self.w.task == "pretrain":  # a fine-tuning method: pretraining trains every weight whatever it says
            w.pop("method", None)
        if self.w.method == "full" or self.w.task == "inference":
            w.pop("lora_rank", None)
            w.pop("lora_targets", None)


def one_gpu_pure(w: Any, kb: Knowledge) -> bool:
    """Whether a training workload, planned on one GPU, keeps every state in its compute dtype: a full fine-tune that
    states no ``mixed_precision`` and names no stack, in a precision runtime.yaml training.one_gpu_full_finetune
    lists (the single-device fine-tuning recipes' practice; on more GPUs gpuwise keeps fp32 master weights). A job
    that pins a ZeRO stage or offload asks for DeepSpeed's or FSDP's engine, whose ZeRO-Offload keeps fp32 masters
    and moments on the host (Ren et al. 2021, arXiv:2101.06840): it keeps them too."""
    rule = kb.runtime.training.one_gpu_full_finetune
    given = w.model_fields_set
    return (rule is not None and w.task == "finetune" and w.method == "full"
            and not {"mixed_precision", "zero_stage", "offload"} & given and getattr(w, "stack", None) is None
            and w.precision in rule.precisions)


def note(field: str, value: Any, message_id: str, values: dict[str, Any] | None = None) -> Assumption:
    """An assumption whose reason is a sentence of reports/messages.yaml (so a report can
    translate it)."""
    vals = values or {}
    return made(Assumption, dict(field=field, value=value, reason=messages.text(message_id, vals),
                                 message_id=message_id,
                      template=messages.template(message_id), values=vals))


def _catalog_shape_replaced(w: Any, kb: Knowledge, catalog: Any, params: float) -> Assumption | None:
    """A catalog model named beside an ``architecture`` is computed with the given shape, not the catalog's
    (hostile round 24 found it silent): said, with what the catalog would have used, so a user who meant the
    catalog's model sees that their block replaced it."""
    if w.model is None or w.architecture is None:
        return None
    m = catalog
    if m is None:
        try:
            m = kb.models[kb.model(w.model, where="workload.model").id]
        except UserError:
            return None  # a custom model's own name
    theirs = from_catalog(m)
    return note("workload.architecture", None, "assume.shape_given",
                {"model": m.id, "layers": w.architecture.layers, "hidden": w.architecture.hidden_size,
                 "size": params / 1e9, "cat_layers": theirs.layers, "cat_hidden": theirs.hidden})


def provider_note(kb: Knowledge, name: str | None) -> list[Assumption]:
    """A proposal's ``acquisition.provider`` is free text; one the knowledge base's price list does
    not have but comes close to (``lambdaa``) gets a note naming the close match. A listed name, or
    one far from every listed one, gets none."""
    if not name:
        return []
    known = _providers(kb)
    if name in known:
        return []
    import difflib

    close = difflib.get_close_matches(name.strip().lower(), sorted(known), n=1, cutoff=0.75)
    return [note("acquisition.provider", name, "name.provider_close", {"name": name, "close": close[0]})] if close \
        else []


def _check_framework(w: Workload, kb: Knowledge, where: str) -> None:
    """A framework that cannot load the precision at all, on any GPU, is an input error
    (knowledge/serving.yaml lists what each loads and why not); hardware limits are facts for the rules."""
    if getattr(kb, "serving", None) is None:
        return
    fw = kb.framework(w.framework, where=field_at(where, "workload.framework"))
    if w.precision not in fw.precisions:
        ok = [p for p in ("bf16", "fp16", "fp8", "int8", "int4", "fp4", "fp32") if p in fw.precisions]
        others = [f.id for f in kb.serving.frameworks if w.precision in f.precisions]
        why = fw.unsupported.get(w.precision, "")
        raise UserError(N_("%(name)s cannot serve %(precision)s weights: %(why)s") if why
                        else N_("%(name)s cannot serve %(precision)s weights"),
                        values={"name": fw.name, "precision": w.precision, "why": why},
                        where=field_at(where, "workload.framework"),
                        hint=N_("use precision %(ok)s with %(id)s, or framework %(others)s"),
                        hint_values={"ok": either(ok), "id": fw.id, "others": either(others)})


TRAINING_PRECISIONS = ("bf16", "fp16", "fp8", "fp4", "fp32")
"""The compute precisions a training stack lists (runtime.yaml training_stacks precisions), in the order a hint
offers them; int8 and int4 are a frozen base's storage (LoRA / QLoRA, assume.quantized_training), not a list's."""


def _check_stack_precision(w: Workload, stacks: dict[str, Any], where: str) -> None:
    """A training job in a precision its named stack has no path for (runtime.yaml training_stacks precisions: FP8
    on llm.c, FP4 on Levanter) is an input error naming the stack and the stacks that train in it; priced, it ran
    at the precision's peak on a stack that cannot reach it (hostile round 43). None named: the assumed stack
    runs it (default_stack: FP8 / FP4 full training and LoRA on Megatron-Core, the rest on the middle)."""
    spec = stacks.get(w.stack) if w.task != "inference" and getattr(w, "stack", None) else None
    if spec is None or spec.precisions is None or w.precision not in TRAINING_PRECISIONS \
            or w.precision in spec.precisions:
        return
    others = [sid for sid, s in stacks.items() if sid != "middle" and (s.precisions is None or
                                                                      w.precision in s.precisions)]
    raise UserError(N_("%(name)s has no %(precision)s training path: it trains in %(ok)s"),
                    values={"name": spec.name, "precision": w.precision,
                            "ok": either([p for p in TRAINING_PRECISIONS if p in spec.precisions], commas=True)},
                    where=field_at(where, "workload.precision"),
                    hint=N_("set precision %(first)s with stack %(stack)s, or a stack that trains in "
                            "%(precision)s: %(others)s"),
                    hint_values={"first": next(p for p in TRAINING_PRECISIONS if p in spec.precisions),
                                 "stack": w.stack, "precision": w.precision, "others": either(others, commas=True)})


def _state_dtype(w: Workload, kb: Knowledge, shape: Shape, where: str, assumptions: list[Assumption]) -> None:
    """The recurrent state's element type a server was started with (``workload.recurrent_state_dtype``): refused
    on a model that keeps no recurrent state and on a framework release without the setting or that type
    (knowledge/serving.yaml ``recurrent_state_dtype``); not given, what the framework keeps for the model is
    said (knowledge/models.yaml ``recurrent``)."""
    rec = getattr(shape, "recurrent", None)
    given = w.recurrent_state_dtype
    if getattr(kb, "serving", None) is None or (given is None and not rec):
        return
    fw = kb.framework(w.framework, where=field_at(where, "workload.framework"))
    if given is None:
        assumptions.append(note("workload.recurrent_state_dtype", "float32" if rec[3] == 4 else "bfloat16",
                                "assume.default.workload.recurrent_state_dtype",
                                {"model": shape.name, "framework": fw.name, "bytes": rec[3]}))
        return
    at = field_at(where, "workload.recurrent_state_dtype")
    if not rec:
        raise UserError(N_("%(model)s keeps no recurrent state: every layer keeps a KV cache"),
                        values={"model": shape.name}, where=at, hint=N_("leave recurrent_state_dtype out"))
    setting = fw.recurrent_state_dtype
    if setting is None:
        others = [f.id for f in kb.serving.frameworks if f.recurrent_state_dtype is not None]
        raise UserError(N_("%(name)s has no setting for the recurrent state's element type"),
                        values={"name": fw.name}, where=at,
                        hint=N_("leave recurrent_state_dtype out, or use framework %(others)s"),
                        hint_values={"others": either(others)})
    version = w.framework_version
    ok = None
    for entry in setting.releases:  # oldest first: the last at or before the stated release (the newest, none stated)
        if version is None or version_key(entry.since) <= version_key(version):
            ok = list(entry.values)
    if ok is None or given not in ok:
        values = {"name": fw.name, "version": version, "setting": setting.setting, "dtype": given}
        raise UserError(N_("%(name)s %(version)s takes no %(setting)s %(dtype)s") if version else
                        N_("%(name)s takes no %(setting)s %(dtype)s"), values=values, where=at,
                        hint=N_("use %(ok)s, or a release that takes it") if ok else
                        N_("state a release from %(since)s on"),
                        hint_values={"ok": either(ok)} if ok else {"since": setting.releases[0].since})


def check_shared_host_ram(gpu: Any, count: int, servers: int | None, given: float | None, where: str) -> None:
    """A part whose memory is its system's only memory (gpus.yaml memory.shared_with_host: the GB10 of a DGX Spark)
    has no host RAM beside it: a proposal's ``hardware.host_ram_gb`` or a plan's ``owned[].host_ram_gb`` above what
    the parts of one server have in all is an input error (hostile round 37: 1,000 GB stated on one Spark passed a
    141 GB offload its 128 GB cannot hold, audit exit 0). ``servers`` None: each system holds ``link.server_gpus``."""
    if not gpu.memory.shared_with_host or not given:
        return
    per_server = math.ceil(count / (servers or math.ceil(count / (gpu.link.server_gpus or count))))
    most = gpu.memory.gb * per_server
    if given > most:
        raise UserError(N_("the %(memory)s GB of %(gpu)s is also its host's memory: a server of %(per_node)s has "
                           "%(most)s GB in all, not the %(given)s GB given"), where=where,
                        hint=N_("leave host_ram_gb out: the memory its GPU side leaves is judged"),
                        values={"gpu": gpu.name, "memory": f"{gpu.memory.gb:g}", "per_node": per_server,
                                "most": f"{most:g}", "given": f"{given:g}"})


def _note_release(w: Workload, kb: Knowledge, assumptions: list, *, small_kernels: bool,
                  model_id: str | None = None) -> None:
    """No framework_version given where the framework's constants changed across releases: the newest
    release is assumed, and said. ``small_kernels``: the model has the MoE routing or MLA layers whose many
    small kernels a later release fused (:func:`_note_unfused`)."""
    fw = kb.framework(w.framework) if getattr(kb, "serving", None) is not None else None
    if fw is None or "framework_version" in w.model_fields_set:
        return
    if not fw.releases:
        if small_kernels:
            _note_unfused(fw, assumptions)
        return
    newest = fw.releases[-1]
    said = {"framework": fw.name, "version": newest.version, "released": newest.released}
    first = _listed_later(fw, newest.version, model_id)
    assumptions.append(note("workload.framework_version", newest.version, "assume.default.workload.framework_version"
                            + (".fused_list" if first else ""), {**said, "model": model_id, "since": first}
                            if first else said))


def _listed_later(fw: Any, version: str, model_id: str | None) -> str | None:
    """The first release whose list of models the fused small-kernel figure holds for (``fused_kernel_models``)
    names the model, where the release ``version`` whose constants are taken does not: with no release given the
    newest list is read (estimators/serving/fusion.py), so the model is costed at a figure ``version`` would not
    give it; else None."""
    listed = fw.fused_kernel_models
    if listed is None or model_id is None or model_id not in listed.releases[-1].models:
        return None
    at_version = [e for e in listed.releases if version_key(e.since) <= version_key(version)]
    if at_version and model_id in at_version[-1].models:
        return None
    return next(e.since for e in listed.releases if model_id in e.models)


VENDOR_NAMES = {"nvidia": "NVIDIA", "amd": "AMD", "intel": "Intel", "huawei": "Huawei"}


def _note_unfused(fw: Any, assumptions: list) -> None:
    """A build whose small kernels are fused only from a stated release (vLLM's NVIDIA build from 0.20.0) costs a
    job that states no release at the earlier per-kernel figure, the one its validation rows were measured on:
    said, so a reader running a newer release knows to state it."""
    for vendor, vo in sorted(fw.vendor_overrides.items()):
        if vo.fused_from is None or vo.fused_kernel_floor_us is None:
            continue
        floor = vo.kernel_floor_us if vo.kernel_floor_us is not None else fw.kernel_floor_us.value
        assumptions.append(note("workload.framework_version", f"< {vo.fused_from}",
                                "assume.default.workload.framework_version_unfused",
                                {"framework": fw.name, "vendor": VENDOR_NAMES.get(vendor, vendor),
                                 "since": vo.fused_from, "floor": f"{floor:g}",
                                 "fused": f"{vo.fused_kernel_floor_us:g}"}))
        return


def _note_speculative(w: Workload, kb: Knowledge, catalog: Any, assumptions: list) -> None:
    """Speculative decoding asked without its acceptance rate or drafted tokens: the method's defaults
    (``knowledge/serving.yaml`` ``speculative_methods``) set the tokens a verify step yields, the figure the time
    per output token rests on most, so each default taken is said. Nothing is said where the framework does not
    run the method, or ``mtp`` is asked of a catalog model with no MTP layers: nothing of it is modelled then
    (SRV-SPECULATIVE-UNSUPPORTED, SRV-MTP-NO-LAYERS)."""
    asked = w.speculative
    known = getattr(getattr(kb, "serving", None), "speculative_methods", None) or {}
    m = known.get(asked.method) if asked is not None else None
    if m is None or w.framework not in m.frameworks:
        return
    if asked.method == "mtp" and catalog is not None and not getattr(catalog, "mtp_layers", 1):
        return
    said = {"method": m.name}
    if asked.acceptance_rate is None:
        assumptions.append(note("workload.speculative.acceptance_rate", m.acceptance_rate,
                                "assume.default.workload.speculative.acceptance_rate",
                                {**said, "rate": m.acceptance_rate}))
    if asked.draft_tokens is None:
        assumptions.append(note("workload.speculative.draft_tokens", m.draft_tokens,
                                # one token is 'one token', not '1 tokens' (review57: DeepSeek-V3.2-Exp's MTP)
                                "assume.default.workload.speculative.draft_tokens" + ("_one" if m.draft_tokens == 1
                                                                                      else ""),
                                {**said, "k": m.draft_tokens}))


def _note_aiter(w: Workload, kb: Knowledge, cons: Constraints, model_id: str | None, assumptions: list) -> None:
    """No ``rocm_aiter`` given where it moves the cost: the model's own block-scaled FP8 checkpoint served with a
    framework whose AMD build prices AITER on and off apart, and an AMD GPU named in the constraints. The
    framework's default is assumed, and said: vLLM's, AITER off (``block_fp8_speed_factor``), so a reader whose
    server runs with ``VLLM_ROCM_USE_AITER=1`` knows to state it; SGLang's ROCm images, AITER on (their
    ``SGLANG_USE_AITER=1``: ``rocm_block_fp8_walk``, ``rocm_triton_moe_tile``), so one run with
    ``SGLANG_USE_AITER=0`` knows to state ``rocm_aiter: false``."""
    if "rocm_aiter" in w.model_fields_set or w.precision != "fp8" or w.quantization is not None or model_id is None:
        return
    serving = getattr(kb, "serving", None)
    ck = serving.fp8_checkpoints.get(model_id) if serving is not None else None
    fw = kb.framework(w.framework) if serving is not None else None
    vo = fw.vendor_overrides.get("amd") if fw is not None else None
    tile = fw.rocm_triton_moe_tile if fw is not None else None
    block = (ck is not None and ck.scaling == "block") or (tile is not None and model_id in tile.models)
    if not block or not any(_vendor(kb, g) == "amd" for g in cons.gpus or []):
        return  # said where the question names an AMD GPU; among the whole catalog's candidates it would be noise
    if vo is not None and vo.block_fp8_speed_factor is not None:  # vLLM: off unless VLLM_ROCM_USE_AITER=1
        assumptions.append(note("workload.rocm_aiter", False, "assume.default.workload.rocm_aiter",
                                {"framework": fw.name, "factor": f"{vo.block_fp8_speed_factor:g}"}))
    elif fw is not None and (fw.rocm_block_fp8_walk or tile is not None):  # SGLang: its images set it
        assumptions.append(note("workload.rocm_aiter", True, "assume.default.workload.rocm_aiter.image_on",
                                {"framework": fw.name}))


def _note_fp4_asm(w: Workload, kb: Knowledge, cons: Constraints, assumptions: list) -> None:
    """No ``rocm_fp4_asm_gemm`` given where it moves the cost: an FP4 job with AITER on (``rocm_aiter: true``), on a
    framework and a GPU named in the constraints that serving.yaml ``mxfp4_asm_gemm`` was read on. vLLM's default is
    assumed and said (VLLM_ROCM_USE_AITER_FP4_ASM_GEMM off: aiter's Triton FP4 GEMM at the framework's efficiency),
    so a reader whose server sets the flag, as AMD's own MLPerf configs do, knows to state it."""
    if "rocm_fp4_asm_gemm" in w.model_fields_set or w.precision != "fp4" or not w.rocm_aiter:
        return
    own = getattr(getattr(kb, "serving", None), "mxfp4_asm_gemm", None)
    fw = kb.framework(w.framework) if own is not None else None
    if fw is None or fw.id not in own.frameworks:  # type: ignore[union-attr]
        return
    read = [g for g in cons.gpus or [] if _vendor(kb, g) == "amd" and kb.gpu(g).id in own.gpus]  # type: ignore[union-attr]
    if read:
        assumptions.append(note("workload.rocm_fp4_asm_gemm", False, "assume.default.workload.rocm_fp4_asm_gemm",
                                {"framework": fw.name, "share": own.peak_share}))  # type: ignore[union-attr]


def _note_admission(w: Workload, assumptions: list) -> None:
    """A stated prefill-admission cadence (AMD's MLPerf vLLM build) adds steps to every new prompt's first token
    that upstream vLLM never waits, so it is said with what it adds (estimators/serving/rate.py ``cadence``)."""
    steps = getattr(w, "prefill_admission_steps", 0) or 0
    if not steps:
        return
    floor = getattr(w, "prefill_admission_floor", 0) or 0
    vals = {"steps": steps, "cycle": steps + 1, "half": steps / 2, "floor": floor}
    assumptions.append(note("workload.prefill_admission_steps", steps,
                            "assume.prefill_admission.floor" if floor else "assume.prefill_admission", vals))


def _note_checkpoint(w: Workload, kb: Knowledge, model_id: str | None, assumptions: list) -> None:
    """A 4-bit job on a model whose publisher's checkpoint keeps parts in 16 bit or FP8 (``fp4_checkpoints``,
    ``int4_checkpoints``): the weights are priced as that checkpoint stores them wherever it is served in its own
    format (estimators/serving/checkpoint.py), so which file was priced is said."""
    serving = getattr(kb, "serving", None)
    if serving is None or model_id is None or w.precision not in ("fp4", "int4"):
        return
    table = "fp4_checkpoints" if w.precision == "fp4" else "int4_checkpoints"
    ck = getattr(serving, table).get(model_id)
    if ck is not None:
        assumptions.append(note("workload.quantization", w.quantization or ck.format, "assume.published_checkpoint",
                                {"repository": ck.repository, "format": ck.format, "table": table,
                                 "model": model_id}))


def _vendor(kb: Knowledge, name: str) -> str | None:
    """The vendor of a GPU named in the constraints (None: not in the catalog; the constraints' own check says so)."""
    try:
        return kb.gpus[kb.gpu(name).id].vendor
    except UserError:
        return None


def _day_valued(kb: Knowledge, value: float | None) -> Knowledge:
    """The knowledge base with the question's own value of a day (USD) as the ranking policy's
    ``value_of_a_day_usd``: everything that ranks reads the policy through the job's knowledge."""
    if value is None or "value_of_a_day_usd" not in kb.policy:
        return kb
    pv = kb.policy["value_of_a_day_usd"]
    if pv.value == value:
        return kb
    mine = pv.model_copy(update={"value": value, "rationale": "the question's constraints.value_of_a_day_usd",
                                 "source": "the requirements file"})
    return dataclasses.replace(kb, policy={**kb.policy, "value_of_a_day_usd": mine})


NAMED_PRECISIONS = {"fp8": "fp8", "nvfp4": "fp4", "mxfp4": "fp4", "int4": "int4", "awq": "int4", "gptq": "int4",
                    "int8": "int8", "w4a16": "int4", "w8a8": "int8", "4bit": "int4", "8bit": "int8", "q4": "int4",
                    "q8": "int8", "iq4": "int4"}
"""The precision a quantized checkpoint's name states (its last such word: Qwen3.5-27B-GPTQ-Int4 is int4, a
-FP8 release fp8, NVIDIA's -NVFP4 and AMD's -MXFP4 fp4; llm-compressor's -quantized.w4a16 / .w8a8 int4 / int8,
bitsandbytes' -bnb-4bit int4, a GGUF's Q4_K_M / Q4_0 int4 and Q8_0 int8): the workload's default precision when it
names none."""


_GGUF_QUANT = re.compile(r"(?<![a-z0-9])(?P<quant>i?q(?P<bits>[1-8])(?:_[a-z0-9]+)*)(?![a-z0-9])", re.I)
"""A GGUF file's quant type in a name (llama.cpp's: Q4_K_M, Q5_K_S, Q6_K, Q8_0, IQ4_XS, IQ2_XXS), its digit the bits
a weight its blocks hold before their scales."""


def _gguf_unsaid(w: Workload, alias: str, where: str) -> None:
    """Refuse an inference workload that names a GGUF repository with no quant type, or with one gpuwise has no
    precision for (Q5_K_M, Q6_K, Q3_K_M), and gives no precision or quantization: a repository holds one file for each
    quant type, and it was priced at bf16, the repository read as its base model (hostile round 56)."""
    if w.task != "inference" or "precision" in w.model_fields_set or w.quantization is not None:
        return
    found = list(_GGUF_QUANT.finditer(alias))
    gguf = "gguf" in alias.lower()
    quant = found[-1].group("quant") if found else ""
    if found and found[-1].group("bits") not in ("4", "8") and (gguf or "_" in quant or ":" in alias):
        raise UserError(N_("%(name)s names the GGUF quant type %(quant)s, %(bits)s-bit weights, and gpuwise prices "
                           "4-bit or 8-bit ones: set precision int8 (priced above its size) or int4 (below it) with "
                           "quantization gguf"), where=field_at(where, "workload.model"),
                        values={"name": alias, "quant": quant.upper(), "bits": found[-1].group("bits")})
    if not found and gguf:
        example = alias if ":" in alias.rsplit("/", 1)[-1] else f"{alias}:Q4_K_M"
        raise UserError(N_("%(name)s is a GGUF repository, which holds one file for each of several quantizations "
                           "(Q4_K_M, Q5_K_M, Q8_0 ...), and the name does not say which is served: set precision "
                           "(int4 for a Q4 file, int8 for Q8_0) with quantization gguf, or name the file's quant type "
                           "(%(example)s)"), where=field_at(where, "workload.model"),
                        values={"name": alias, "example": example})


def _name_precision(w: Workload, alias: str, where: str) -> tuple[Workload, Assumption | None]:
    """An inference workload naming a quantized checkpoint (``...-FP8``): served at its precision where none is
    given (said), refused where another is given; a 16-bit one states nothing a workload must keep. A GGUF
    repository that does not say which of its files is served is refused (:func:`_gguf_unsaid`)."""
    _gguf_unsaid(w, alias, where)
    named = precision_word(alias)
    if named is None or w.task != "inference":
        return w, None
    if "precision" not in w.model_fields_set:
        return (w.model_copy(update={"precision": named}),
                note("workload.precision", named, "assume.precision_of_name", {"name": alias, "precision": named}))
    if w.precision != named:
        raise UserError(N_("%(name)s names a checkpoint in %(named)s, not precision %(precision)s: set precision "
                           "%(named2)s or name the model without its precision"),
                        where=field_at(where, "workload.model"),
                        values={"name": alias, "named": named, "precision": w.precision, "named2": named})
    return w, None


def precision_word(name: str) -> str | None:
    """The precision the last quantization word of a model name states (NAMED_PRECISIONS); None where none does."""
    words = [x for x in "".join(c if c.isalnum() else " " for c in name.lower()).split() if x in NAMED_PRECISIONS]
    return NAMED_PRECISIONS[words[-1]] if words else None


def served_as_published(catalog: Any, name: Any) -> str | None:
    """The precision that serves a model's published weights as they ship where they are narrower than 16 bits
    (an alias's own release, Kimi K2.6: int4, else the entry's checkpoint_precision: gpt-oss mxfp4 -> fp4,
    DeepSeek-V3 fp8 -> fp8); None for 16-bit (or unknown) weights. An inference job with no precision takes it,
    and ``gpuwise ask`` offers it as the default: a name that states its precision ('...-FP8') and no
    ``alias_checkpoints`` group lists is served at that precision, as ``_name_precision`` reads it."""
    if catalog is not None and name and release_of(catalog, name) is None and (said := precision_word(str(name))):
        return said
    return NAMED_PRECISIONS.get(published(catalog, name) or "")


def _published_precision(w: Workload, catalog: Any) -> tuple[Workload, Assumption | None]:
    """An inference workload with no precision on a model whose published weights are narrower than 16 bits
    (knowledge/models.yaml checkpoint_precision, or an alias's own release: gpt-oss MXFP4, DeepSeek-V3 FP8, Kimi
    K2.6 INT4): served at that checkpoint's precision, the note naming the model card that states it. A 16-bit copy
    of such weights is a conversion nobody publishes (gpt-oss-120b: 233.7 GB against its 65.3 GB files); it is
    priced where precision bf16 is given. Training keeps bf16: it computes in 16 bits whatever the files hold."""
    if w.task != "inference" or "precision" in w.model_fields_set:
        return w, None
    served = served_as_published(catalog, w.model)
    if served is None:
        return w, None
    checkpoint = published(catalog, w.model)
    own = checkpoint != getattr(catalog, "checkpoint_precision", None)
    return (w.model_copy(update={"precision": served}),
            note("workload.precision", served, "assume.default.workload.precision.published",
                 {"model": str(w.model) if own else catalog.name, "checkpoint": checkpoint, "precision": served,
                  "card": published_card(catalog, w.model)}))


def named_method(catalog: Any, name: Any) -> str | None:
    """The quantization method a model name's release is served with (models.yaml alias_checkpoints ``method``:
    Qwen/Qwen3.5-27B-GPTQ-Int4 -> gptq, an NVFP4 release -> nvfp4, AMD's MXFP4 -> mxfp4); None for another name.
    An FP8 release gives none: in the estimators a named ``quantization: fp8`` is the framework quantizing 16-bit
    weights per tensor, while a published FP8 checkpoint is priced by its own scaling (serving.yaml fp8_checkpoints:
    Qwen's 128 x 128 blocks, AMD's and NVIDIA's per-tensor Llama files), the path a job naming no method takes.
    ``gpuwise ask`` offers it as the quantization question's default."""
    method = release_method(catalog, name) if catalog is not None and name else None
    return method if method != "fp8" else None


def served_method(catalog: Any, w: Any) -> str | None:
    """The quantization method an inference job naming a quantized release is served with where it names none
    (:func:`named_method`), where the job's precision is one the method stores."""
    if w.task != "inference" or getattr(w, "quantization", None) is not None:
        return None
    method = named_method(catalog, w.model)
    return method if method is not None and w.precision in QUANTIZATION_PRECISIONS.get(method, ()) else None


def _release_method(w: Workload, catalog: Any) -> tuple[Workload, Assumption | None]:
    """The job with its named release's quantization method (:func:`served_method`) and the note that says so."""
    method = served_method(catalog, w)
    if method is None:
        return w, None
    return (w.model_copy(update={"quantization": method}),
            note("workload.quantization", method, "assume.release_method",
                 {"name": str(w.model), "method": method, "card": published_card(catalog, w.model)}))


def _note_parallelism(w: Workload, shape: Any, assumptions: list[Assumption]) -> None:
    """A training layout's split left out (or some of its parts) is gpuwise's choice, listed as one (the contract,
    version 2: 'Absent or auto means gpuwise chooses and lists the choice as an assumption', ``parallelism`` named):
    it was chosen and said in gpu.layout but not listed (contract63)."""
    par = w.parallelism
    parts = ("tp", "pp", "ep") if shape.moe else ("tp", "pp")
    left = [p for p in parts if par is None or getattr(par, p) is None]
    if par is None:
        assumptions.append(note("workload.parallelism", "auto", "assume.default.workload.parallelism"))
    elif left:
        assumptions.append(note("workload.parallelism", "auto", "assume.default.workload.parallelism.parts",
                                {"parts": ", ".join(f"parallelism.{p}" for p in left)}))


def resolve(req: Requirements, kb: Knowledge, where: str = "requirements") -> Job:
    w = req.workload
    assumptions: list[Assumption] = []
    catalog = None
    model_id = None
    if w.model is not None:
        named_custom = w.params_b is not None and w.architecture is not None
        r = None
        if not named_custom:
            try:
                r = kb.model(w.model, where=field_at(where, "workload.model"))
            except UserError:
                if w.params_b is None:
                    raise
        if r is not None:
            model_id = r.id
            catalog = kb.models[r.id]
            if r.note_id:  # a release's name read as its network (names.py rule 5), or a listed alias
                assumptions.append(note("workload.model", r.id, r.note_id, r.note_values))
            w, named = _name_precision(w, str(w.model), where)
            if named is None:
                w, named = _published_precision(w, catalog)
            if named is not None:
                req = req.model_copy(update={"workload": w})
                assumptions.append(named)
            w, by_method = _release_method(w, catalog)
            if by_method is not None:
                req = req.model_copy(update={"workload": w})
                assumptions.append(by_method)
    _check_size(w, catalog, where)
    shape = from_workload(w, catalog)
    stacks = getattr(getattr(kb, "runtime", None), "training_stacks", None) or {}
    named = stacks.get(w.stack) if getattr(w, "stack", None) else None
    _check_schedule(w, shape.layers, where, named.pipeline_split_slots if named is not None else 0)
    _check_every_nth(w, shape.layers, where)
    _check_sac_op(w, shape, where)
    _check_draft(w, shape, where)
    _check_etp(w, shape, where)
    _check_stack_precision(w, stacks, where)
    given_over = _catalog_shape_replaced(w, kb, catalog, shape.params)
    if given_over is not None:
        assumptions.append(given_over)
    if shape.assumed_values:
        assumptions.append(note("workload.architecture", None, "assume.shape", dict(shape.assumed_values)))
    sparse = getattr(shape, "sparse_attn", None)
    if sparse:  # DSA priced as the model runs it (estimators/serving/step.py, compute.py training_flops)
        shared = shape.indexer_layers != shape.attn_layers  # IndexShare: some layers reuse an earlier top-k
        assumptions.append(note("workload.model", model_id, "assume.sparse_attention_shared" if shared
                                else "assume.sparse_attention",
                                {"model": shape.name, "top_k": sparse[2], "heads": sparse[0], "dim": sparse[1],
                                 "key_bytes": sparse[3],
                                 **({"indexer_layers": shape.indexer_layers, "layers": shape.attn_layers}
                                    if shared else {})}))
    set_w = w.model_fields_set
    relevant = {"precision", "batch_size", "seq_len", "optimizer", "gradient_checkpointing",
                "attention", "zero_stage", "offload", "mixed_precision"} | (
        {"method"} if w.task == "finetune" else set()) if w.task != "inference" else {
        "precision", "context_len", "concurrent_requests", "attention", "framework", "kv_precision"}
    if w.method != "full":
        relevant |= {"lora_rank", "lora_targets"}
    if w.task != "inference" and w.checkpoint_every_n_layers is not None:
        relevant.discard("gradient_checkpointing")  # the layers recomputed are stated: every N-th
    if w.task == "inference" and w.requests_per_s:
        relevant.discard("concurrent_requests")  # the load is the request rate
    # a layout setting the file gives as 'auto' is gpuwise's choice too, listed as one (the contract, version 2:
    # 'Absent or auto means gpuwise chooses and lists the choice as an assumption'); offload: auto is read as left out
    stated_auto = {n for n in CHOSEN_WITH_THE_LAYOUT if n in relevant & set_w and getattr(w, n) == "auto"}
    for name in sorted(stated_auto):
        assumptions.append(note(f"workload.{name}", "auto", f"assume.auto.workload.{name}"))
    for name in sorted(relevant - set_w):
        value = "auto" if name in CHOSEN_WITH_THE_LAYOUT and w.task != "inference" else getattr(w, name)
        if name == "batch_size" and named is not None and named.local_batch:  # the stack's own per-GPU batch
            assumptions.append(note("workload.batch_size", "auto", "assume.default.workload.batch_size.stack",
                                    {"stack": named.name, "n": named.local_batch}))
            continue
        if name == "optimizer" and named is not None and named.adamw:  # a JAX stack's own AdamW (optax's)
            assumptions.append(note("workload.optimizer", value, "assume.default.workload.optimizer.stack",
                                    {"stack": named.name, "adamw": named.adamw}))
            continue
        if name == "mixed_precision" and one_gpu_pure(w, kb):  # one GPU: the single-device recipes' pure bf16
            assumptions.append(note("workload.mixed_precision", value,
                                    "assume.default.workload.mixed_precision.one_gpu", {"precision": w.precision}))
            continue
        if name == "mixed_precision" and named is not None and named.mixed_precision_policy:  # a JAX stack's own
            assumptions.append(note("workload.mixed_precision", value, "assume.default.workload.mixed_precision.stack",
                                    {"stack": named.name, "policy": named.mixed_precision_policy}))
            continue
        assumptions.append(note(f"workload.{name}", value, f"assume.default.workload.{name}"))
    if w.task != "inference" and not shape.diffusion:
        _note_parallelism(w, shape, assumptions)
    if w.task != "inference" and w.parallelism is not None and w.parallelism.dp_shard == "auto":
        assumptions.append(note("workload.parallelism.dp_shard", "auto", "assume.hsdp.auto"))  # the planner's group
    if w.task == "inference":
        _check_framework(w, kb, where)
        _state_dtype(w, kb, shape, where, assumptions)
        _note_release(w, kb, assumptions, small_kernels=bool(shape.moe or shape.kv_elements_override),
                      model_id=model_id)
        _note_checkpoint(w, kb, model_id, assumptions)
        _note_aiter(w, kb, req.constraints, model_id, assumptions)
        _note_fp4_asm(w, kb, req.constraints, assumptions)
        _note_admission(w, assumptions)
        _note_speculative(w, kb, catalog, assumptions)
        if w.lengths_message is not None:
            # the row is prompt_tokens' (output_tokens has its own): its value was both, shown '4,096, 4,096'
            assumptions.append(note("workload.prompt_tokens", w.prompt_tokens, *w.lengths_message))
    tokens = 0.0
    if w.task != "inference":
        if w.train_tokens is not None:
            tokens = w.train_tokens
        elif w.task == "pretrain":
            tokens = CHINCHILLA_TOKENS_PER_PARAM * shape.params
            assumptions.append(note("workload.train_tokens", tokens, "assume.train_tokens.pretrain",
                                    {"per_param": CHINCHILLA_TOKENS_PER_PARAM}))
        else:
            tokens = FINETUNE_DEFAULT_TOKENS
            assumptions.append(note("workload.train_tokens", tokens, "assume.train_tokens.finetune",
                                    {"tokens": tokens}))
    c = req.constraints
    check_network(kb, c.network, f"{where}: constraints.network")
    for name in sorted({"max_gpus", "acquisition", "project_months", "electricity_usd_per_kwh"} - c.model_fields_set):
        assumptions.append(note(f"constraints.{name}", getattr(c, name), f"assume.default.constraints.{name}",
                                {"value": getattr(c, name)}))
    kb = _day_valued(kb, c.value_of_a_day_usd)
    if c.value_of_a_day_usd is None and w.task != "inference":  # the ranking weighs a training run's days
        assumptions.append(note("constraints.value_of_a_day_usd", kb.policy_value("value_of_a_day_usd"),
                                "assume.default.constraints.value_of_a_day_usd",
                                {"value": kb.policy_value("value_of_a_day_usd")}))
    deadline = c.deadline_days
    if deadline is None and w.task != "inference":
        deadline = c.project_months * 30.4
        assumptions.append(note("constraints.deadline_days", round(deadline, 1), "assume.deadline",
                                {"project_months": c.project_months}))
    if w.precision in ("int8", "int4") and w.task != "inference":
        assumptions.append(note("workload.precision", w.precision, "assume.quantized_training"))
    return Job(req=req, kb=kb, shape=shape, model_id=model_id, tokens=tokens, deadline_days=deadline,
               assumptions=assumptions, where=where)
