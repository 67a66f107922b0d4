"""Turn a validated requirements file into a resolved job: the model's shape, the tokens,
and every default that was filled in (each becomes a reported assumption).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..errors import UserError
from ..knowledge import Knowledge
from ..results import Assumption
from .schema import Constraints, Requirements, Workload
from .shape import Shape, from_workload

FINETUNE_DEFAULT_TOKENS = 1.0e8
CHINCHILLA_TOKENS_PER_PARAM = 20.0


@dataclass
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
        w = out["workload"]
        only_inference = ("context_len", "concurrent_requests", "target_tokens_per_s", "framework", "prompt_tokens",
                          "output_tokens", "max_ttft_ms", "max_tpot_ms")
        only_training = ("optimizer", "batch_size", "seq_len", "gradient_checkpointing", "zero_stage", "offload",
                         "train_tokens", "mixed_precision", "method")
        for k in only_training if self.w.task == "inference" else only_inference:
            w.pop(k, None)
        if self.w.method == "full" or self.w.task == "inference":
            w.pop("lora_rank", None)
            w.pop("lora_targets", None)
        if not self.c.gpus:
            out["constraints"].pop("gpus", None)
        out["resolved_model"] = {"id": self.model_id, "name": self.shape.name, "params": self.shape.params,
                                 "active_params": self.shape.active_params, "layers": self.shape.layers,
                                 "hidden": self.shape.hidden, "heads": self.shape.heads,
                                 "kv_heads": self.shape.kv_heads, "vocab": self.shape.vocab}
        out["train_tokens_used"] = self.tokens
        out["deadline_days_used"] = self.deadline_days
        return out


_DOC = {
    "method": "full fine-tuning unless lora/qlora is asked for",
    "precision": "bf16 is the usual training and serving precision",
    "mixed_precision": "PyTorch autocast keeps fp32 master weights",
    "optimizer": "torch.optim.AdamW with its default multi-tensor step",
    "batch_size": "one sequence per GPU per micro-step",
    "seq_len": "2048 tokens per sequence",
    "gradient_checkpointing": "off unless asked; gpuwise tries it when memory is short",
    "attention": "SDPA (FlashAttention kernel, no seq x seq matrix)",
    "zero_stage": "plain data parallel; gpuwise tries ZeRO stages when memory is short",
    "offload": "no offload; gpuwise tries CPU offload as a last resort",
    "context_len": "prompt + output tokens per request",
    "framework": "vLLM, the most widely deployed open serving engine (knowledge/serving.yaml)",
    "concurrent_requests": "one sequence at a time",
    "lora_rank": "rank 16",
    "lora_targets": "adapters on every linear layer",
}
_CDOC = {
    "max_gpus": "at most 64 GPUs",
    "acquisition": "renting or buying, whichever is cheaper",
    "project_months": "a six-month project",
    "electricity_usd_per_kwh": "USD 0.15 per kWh",
}


def _check_framework(w: Workload, kb: Knowledge, where: str) -> None:
    """A framework that cannot load the precision at all, on any GPU, is an input error
    (knowledge/serving.yaml lists what each loads and why not); hardware limits are facts for the rules."""
    if getattr(kb, "serving", None) is None:
        return
    fw = kb.framework(w.framework, where=f"{where}: workload.framework")
    if w.precision not in fw.precisions:
        ok = [p for p in ("bf16", "fp16", "fp8", "int8", "int4", "fp4", "fp32") if p in fw.precisions]
        others = [f.id for f in kb.serving.frameworks if w.precision in f.precisions]
        why = fw.unsupported.get(w.precision, "")
        raise UserError(f"{fw.name} cannot serve {w.precision} weights" + (f": {why}" if why else ""),
                        where=f"{where}: workload.framework",
                        hint=f"use precision {' or '.join(ok)} with {fw.id}, or framework {' or '.join(others)}")


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
                r = kb.model(w.model, where=f"{where}: workload.model")
            except UserError:
                if w.params_b is None:
                    raise
        if r is not None:
            model_id = r.id
            catalog = kb.models[r.id]
    shape = from_workload(w, catalog)
    if shape.assumed:
        assumptions.append(Assumption(field="workload.architecture", value=None, reason=shape.assumed))
    set_w = w.model_fields_set
    relevant = {"method", "precision", "batch_size", "seq_len", "optimizer", "gradient_checkpointing",
                "attention", "zero_stage", "offload", "mixed_precision"} if w.task != "inference" else {
        "precision", "context_len", "concurrent_requests", "attention", "framework"}
    if w.method != "full":
        relevant |= {"lora_rank", "lora_targets"}
    for name in sorted(relevant - set_w):
        assumptions.append(Assumption(field=f"workload.{name}", value=getattr(w, name),
                                      reason=f"default: {_DOC.get(name, 'documented default')}"))
    if w.task == "inference":
        _check_framework(w, kb, where)
        if w.lengths_note:
            assumptions.append(Assumption(field="workload.prompt_tokens", value=[w.prompt_tokens, w.output_tokens],
                                          reason=w.lengths_note))
    tokens = 0.0
    if w.task != "inference":
        if w.train_tokens is not None:
            tokens = w.train_tokens
        elif w.task == "pretrain":
            tokens = CHINCHILLA_TOKENS_PER_PARAM * shape.params
            assumptions.append(Assumption(
                field="workload.train_tokens", value=tokens,
                reason="default for pretraining: 20 tokens per parameter (Chinchilla-optimal, Hoffmann et al. 2022)"))
        else:
            tokens = FINETUNE_DEFAULT_TOKENS
            assumptions.append(Assumption(
                field="workload.train_tokens", value=tokens,
                reason="default for fine-tuning: 1e8 tokens (about 50,000 examples of 2,000 tokens, one epoch)"))
    c = req.constraints
    for name in sorted({"max_gpus", "acquisition", "project_months", "electricity_usd_per_kwh"} - c.model_fields_set):
        assumptions.append(Assumption(field=f"constraints.{name}", value=getattr(c, name),
                                      reason=f"default: {_CDOC[name]}"))
    deadline = c.deadline_days
    if deadline is None and w.task != "inference":
        deadline = c.project_months * 30.4
        assumptions.append(Assumption(
            field="constraints.deadline_days", value=round(deadline, 1),
            reason="no deadline given: the job must finish within the project (project_months x 30.4 days)"))
    if w.precision in ("int8", "int4") and w.task != "inference":
        assumptions.append(Assumption(field="workload.precision", value=w.precision,
                                      reason="training computes in bf16; int8/int4 apply to frozen weights only"))
    return Job(req=req, kb=kb, shape=shape, model_id=model_id, tokens=tokens, deadline_days=deadline,
               assumptions=assumptions, where=where)
