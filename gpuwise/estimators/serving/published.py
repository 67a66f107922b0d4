"""The precision a published quantized checkpoint is priced at on one GPU (hostile round 44).

An inference job that states no precision on a model whose weights ship narrower than 16 bits is served at the
checkpoint's precision (inputs/job.py ``_published_precision``: gpt-oss-120b's MXFP4). That holds on a GPU where the
engine has a kernel path for it; where it has none (vLLM's FP4 paths need compute capability 8.0: Marlin's MXFP4 MoE
on Ampere, its Triton and FlashInfer kernels on Hopper and Blackwell; none for Volta, and none for Intel Gaudi,
knowledge/serving.yaml), the engines serve the model from 16-bit weights instead: Transformers dequantizes an MXFP4
checkpoint to bf16 where its kernels do not run, and a vLLM server is started on a 16-bit copy. So each candidate
GPU is priced at the checkpoint's precision where the job's engine runs it there, else at the 16-bit precision the
engine runs on that GPU (bf16, or fp16 on a part without bf16 units, the V100), said as an assumption with the
reason. A precision the user states is never changed (it is then the rules' to refuse)."""

from __future__ import annotations

import dataclasses
from typing import Any

from ...inputs.job import note
from .support import support

PUBLISHED = "assume.default.workload.precision.published"
"""The assumption :func:`gpuwise.inputs.job.resolve` makes where the precision is the published checkpoint's."""

NOT_HERE = "assume.published_precision_not_here"
"""The assumption that says which GPUs are priced in 16 bits, and why."""

SIXTEEN_BIT = ("bf16", "fp16")
"""The 16-bit precisions a checkpoint without a kernel path is served in, in the order tried."""


def on_gpu(job: Any, gpu: Any) -> Any:
    """``job`` as it is priced on ``gpu``: itself, unless its precision is a published checkpoint's default that its
    engine does not run on this GPU; then a copy at the 16-bit precision the engine does run there, with its own
    caches and the assumption that says so (kept per GPU type in ``job.memo``)."""
    if job.training or not any(a.message_id == PUBLISHED for a in job.assumptions):
        return job
    key = ("published-on-gpu", gpu.id)
    got = job.memo.get(key)
    if got is not None:
        return got
    w = job.w
    fw = job.kb.framework(w.framework)
    got = job
    if not support(fw, gpu, w.precision).precision_ok:
        other = next((p for p in SIXTEEN_BIT if support(fw, gpu, p).precision_ok), None)
        if other is not None:
            said = note("workload.precision", other, NOT_HERE, {"gpus": [gpu.name], "gpu": gpu.name,
                                                                 "framework": fw.name, "checkpoint": w.precision,
                                                                 "precision": other})
            req = job.req.model_copy(update={"workload": w.model_copy(update={"precision": other})})
            got = dataclasses.replace(job, req=req, memo={}, assumptions=[*job.assumptions, said])
    job.memo[key] = got
    return got


def notes_of(job: Any, jobs: list[Any]) -> list[Any]:
    """The assumptions the per-GPU copies of ``job`` among ``jobs`` add to its own: one for each precision they
    are priced at, naming its GPUs (a GPU ``job`` already names is left out)."""
    named = {g for a in job.assumptions if a.message_id == NOT_HERE for g in a.values.get("gpus", [])}
    by: dict[tuple[str, str, str], list[str]] = {}
    for j in jobs:
        mine = next((a for a in reversed(j.assumptions) if a.message_id == NOT_HERE), None)
        if mine is None:
            continue
        v = mine.values
        for g in v["gpus"]:
            if g not in named:
                named.add(g)
                by.setdefault((v["framework"], v["checkpoint"], v["precision"]), []).append(g)
    # the names as a list the report joins in its language (review55: zh read '在 NVIDIA Tesla P100 SXM2 16GB,
    # NVIDIA Tesla P100 PCIe 16GB, ... 上', English commas between them)
    return [note("workload.precision", precision, NOT_HERE,
                 {"gpus": gpus, "gpu": ", ".join(gpus), "framework": fw, "checkpoint": checkpoint,
                  "precision": precision,
                  "gpu_phrases": [(", " if i else "", "number", {"n": g}) for i, g in enumerate(gpus)]})
            for (fw, checkpoint, precision), gpus in by.items()]
