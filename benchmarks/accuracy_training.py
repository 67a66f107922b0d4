"""The training cases of benchmarks/accuracy.py: per-GPU memory against PyTorch's allocations, pretraining and
fine-tuning GPU-hours of published runs with their published conditions, NeMo's steady-state tokens/s per GPU,
torchtune's single-GPU fine-tunes and offloaded fine-tunes' host time. Each builder returns (label, estimate,
published) triples for accuracy.report."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from benchmarks.accuracy_rows import ROOT, _rows, _scored_rows
from gpuwise import estimate
from gpuwise.estimators.memory import TrainSetup, training_memory
from gpuwise.estimators.memory_serving import inference_memory
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_workload

GPU_OF_RUN = {"A100-80GB": "a100-80gb-sxm", "A100-40GB": "a100-40gb-sxm", "H100-80GB": "h100-80gb-sxm"}
RUNS = ROOT / "tests" / "data" / "training_runs.csv"
CONDITIONS = ROOT / "tests" / "data" / "training_conditions.csv"
HELDOUT_RUNS = ROOT / "tests" / "data" / "training_heldout.csv"
RUN_DEADLINE_DAYS = 90.0  # runs without a published GPU count: a quarter, a usual pretraining schedule
RUN_MAX_GPUS = 16384


def memory_cases(kb, directory: Path) -> list[tuple[str, float, float]]:
    out = []
    for row in _rows(directory, "memory_pytorch.csv"):
        w = Workload(**json.loads(row["workload_json"]))
        m = kb.models[kb.model(w.model).id] if w.model else None
        shape = from_workload(w, m)
        if w.task == "inference":
            est = inference_memory(shape, w.precision, w.context_len, w.concurrent_requests, w.attention, 1,
                                   quant=kb.runtime.quantization, overhead=(0, 0))
        else:
            s = TrainSetup(w.method, w.precision, w.mixed_precision, w.optimizer, w.batch_size, w.seq_len,
                           w.gradient_checkpointing is True, w.attention, int(w.zero_stage), w.offload, 1,
                           w.lora_rank, w.lora_targets)
            est = training_memory(shape, s, quant=kb.runtime.quantization, overhead=(0, 0))
        label = f"{row['id']} {row['model']} {row['mode']} {row['optimizer']} b{row['batch']} s{row['seq']} " \
                f"ckpt={row['grad_ckpt']} {row['attention']}"
        out.append((label, est.tensor_bytes, float(row["measured_peak_bytes"])))
    return out


def run_estimate(workload: dict, gpu: str, gpus: int | None, deadline_days: float | None = None,
                 network: str | None = None):
    """The estimate a user gets: ``estimate(requirements, gpu=G, gpus=N)``, on the network between the
    servers the run published (``constraints.network``; none: the catalog's default for the GPU)."""
    constraints: dict = {"max_gpus": RUN_MAX_GPUS}
    if network:
        constraints["network"] = network
    if gpus is None:
        constraints["deadline_days"] = deadline_days or RUN_DEADLINE_DAYS
    return estimate({"workload": workload, "constraints": constraints}, gpu=gpu, gpus=gpus)


def run_conditions(path: Path = CONDITIONS) -> dict[str, dict]:
    """tests/data/training_conditions.csv: what each run's own paper, card or config publishes about how
    it ran (stack, layout and pipeline schedule, micro-batch, ZeRO stage, activation checkpointing, sequence
    and batch where the run's row lacks them) and whether its hours are whole-run or steady-state (iteration
    time x iterations), by run id. Empty when ``path`` is None."""
    if path is None:
        return {}
    with open(path, newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def conditions_only(conds: dict[str, dict], keep: set[str]) -> dict[str, dict]:
    """``conds`` (run_conditions) with only the columns in ``keep`` stated, the others empty (gpuwise's defaults):
    what a user who states only those gets (benchmarks/bare_attribution.py)."""
    return {rid: {k: (v if k in keep or k in ("id", "source") else "") for k, v in c.items()}
            for rid, c in conds.items()}


def with_conditions(workload: dict, cond: dict | None) -> dict:
    """The workload as the user who ran it would state it: the published stack and layout settings."""
    if not cond:
        return workload
    w = dict(workload)
    if cond["stack"]:
        w["stack"] = cond["stack"]
    # etp: the experts' tensor-parallel size where the run's config states it (a column only those rows fill)
    par: dict = {k: int(cond[k]) for k in ("tp", "pp", "ep", "cp", "vpp", "etp") if cond.get(k)}
    if cond.get("dp_shard"):  # hybrid sharding's group of data-parallel ranks, or 'auto' (stated, size not given)
        par["dp_shard"] = cond["dp_shard"] if cond["dp_shard"] == "auto" else int(cond["dp_shard"])
    if par:
        w["parallelism"] = par
    if cond["micro_batch"]:
        w["batch_size"] = int(cond["micro_batch"])
    if cond["zero"]:
        w["zero_stage"] = int(cond["zero"])
    if cond["checkpointing"].startswith("every_"):  # every N-th layer recomputed (torchtitan selective_ac_option N)
        w["checkpoint_every_n_layers"] = int(cond["checkpointing"].removeprefix("every_"))
    elif cond["checkpointing"]:
        w["gradient_checkpointing"] = ("selective_op" if cond["checkpointing"] == "selective_op"
                                       else cond["checkpointing"] == "true")
    if cond["seq_len"]:
        w["seq_len"] = int(cond["seq_len"])
    if cond["global_batch_tokens"]:
        w["global_batch_tokens"] = float(cond["global_batch_tokens"])
    if cond.get("overlap_comm"):
        w["overlap_comm"] = cond["overlap_comm"] == "true"
    if cond.get("fp8_params"):
        w["fp8_params"] = cond["fp8_params"] == "true"
    if cond.get("fp8_recipe"):  # the FP8 scaling recipe the run states (mxfp8: block-scaled, Blackwell only)
        w["fp8_recipe"] = cond["fp8_recipe"]
    if cond.get("torch_compile"):
        w["torch_compile"] = cond["torch_compile"] == "true"
    if cond.get("liger_kernel"):
        w["liger_kernel"] = cond["liger_kernel"] == "true"
    if cond.get("cut_cross_entropy"):  # the loss by Apple's cut cross-entropy (linear_cross_entropy): no logits held
        w["cut_cross_entropy"] = cond["cut_cross_entropy"] == "true"
    if cond.get("transformers_version"):  # the Hugging Face transformers release a run's model code came from
        w["transformers_version"] = cond["transformers_version"]
    if cond.get("mixed_precision"):  # false: weights, gradients and Adam moments all in 16 bits (no fp32 master)
        w["mixed_precision"] = cond["mixed_precision"] == "true"
    if cond.get("tp_comm_overlap"):  # false: Transformer Engine's userbuffers overlap off (NeMo ub_tp_comm_overlap)
        w["tp_comm_overlap"] = cond["tp_comm_overlap"] == "true"
    if cond.get("grad_reduce_in_fp32"):  # false: main gradients held and reduced in 16 bits (grad_sync_dtype bf16)
        w["grad_reduce_in_fp32"] = cond["grad_reduce_in_fp32"] == "true"
    if cond.get("stack_version"):  # the stack's release the run used (NeMo 24.12, 25.04.01: dgxc-benchmarking)
        w["stack_version"] = cond["stack_version"]
    if cond.get("attention"):  # eager: the transformers model's attn_implementation "eager" (the scores materialised)
        w["attention"] = cond["attention"]
    if cond.get("packing"):  # padding_free: TRL's padding-free collator, a micro-batch's sequences in one row
        w["packing"] = cond["packing"]
    if cond.get("attention_kernel"):  # the attention backend the run called where not its stack's (fa2, cudnn)
        w["attention_kernel"] = cond["attention_kernel"]
    if cond.get("offload"):  # where the run kept its state: none, or cpu / nvme with the states the source moved
        w["offload"] = offload_device(cond["offload"], cond.get("zero", ""))
    return w


OFFLOAD_STATES = ("optimizer", "parameters", "optimizer+parameters")


def offload_device(value: str, zero: str = "") -> str:
    """training_conditions.csv's ``offload``: ``none``, or ``cpu`` / ``nvme`` and after a colon the states the run's
    config moved there (DeepSpeed's offload_optimizer / offload_param, FSDP's offload_params): the workload takes the
    device. Parameters leave the GPU only under ZeRO-3 (DeepSpeed's offload_param is valid only with stage 3), so a
    row that says so at another stage is a data error. gpuwise's ZeRO-3 offload moves both (a row's ``parameters``
    alone is a LoRA whose optimizer state, the adapters', is a few MB; the note names it)."""
    device, _, states = value.partition(":")
    if device == "none" and not states:
        return device
    if device not in ("cpu", "nvme") or states not in OFFLOAD_STATES:
        raise ValueError(f"offload {value!r}: none, or cpu / nvme with one of {', '.join(OFFLOAD_STATES)}")
    if "parameters" in states and zero not in ("", "3"):
        raise ValueError(f"offload {value!r} at ZeRO-{zero}: parameters are offloaded under ZeRO-3 only")
    return device


def hours_as_published(est, cond: dict | None) -> float:
    """The estimate's GPU-hours on the basis the run published: whole-run (failures, restarts and the
    rest of runtime.yaml training.whole_run_efficiency counted) or steady-state (optimizer steps x step
    time x GPUs, as hours computed from logged iteration times are)."""
    g = est.gpu
    if cond and cond["hours_basis"] == "steady":
        t = g.training
        return t.optimizer_steps * t.step_terms.step_s * g.count / 3600
    return g.gpu_hours


def _catalog_model(kb, name: str, params_b: float) -> str | None:
    """The catalog id a run's model name resolves to, when the catalog's size agrees (within 5%)."""
    from gpuwise.errors import UserError

    try:
        r = kb.model(name.split(" (")[0])
    except UserError:
        return None
    m = kb.models[r.id]
    return r.id if abs(m.params_b / params_b - 1) <= 0.05 else None


def training_cases(kb, directory: Path, conditions: Path | None = CONDITIONS) -> list[tuple[str, float, float]]:
    """The validation set's pretraining runs: a model the catalog knows by name is given by name (its
    published shape), the others by bare parameter count (the shape is gpuwise's fit); with the run's
    published conditions (``conditions=None``: without them)."""
    out = []
    conds = run_conditions(conditions)
    for row in _rows(directory, "training_compute.csv"):
        if row["row_type"] != "full_pretraining_run" or row["accelerator"] not in GPU_OF_RUN:
            continue
        n = int(row["num_accelerators"]) if row["num_accelerators"] else None
        w = {"task": "pretrain", "train_tokens": float(row["training_tokens_B"]) * 1e9}
        known = _catalog_model(kb, row["model"], float(row["params_total_B"]))
        if known:  # the model as a user names it: its published shape
            w["model"] = known
        else:  # a bare parameter count: the shape is gpuwise's fit
            w["params_b"] = float(row["params_total_B"])
        cond = conds.get(row["id"])
        est = run_estimate(with_conditions(w, cond), GPU_OF_RUN[row["accelerator"]], n,
                           network=(cond or {}).get("network") or None)
        label = f"{row['id']} {row['model']} on {est.gpu.count} x {est.gpu.id} ({est.gpu.strategy})"
        out.append((label, hours_as_published(est, cond), float(row["accelerator_hours"])))
    return out


def run_workload(row: dict) -> dict:
    """A training_runs.csv row as the workload section of a requirements file."""
    w: dict = {"task": "pretrain", "train_tokens": float(row["training_tokens_b"]) * 1e9,
               "seq_len": int(row["seq_len"]), "precision": row["precision"]}
    if row.get("method"):  # a fine-tune as its user states it: every weight (full SFT) or adapters (LoRA)
        w.update(task="finetune", method=row["method"])
        if row["method"] != "full":  # the adapters the run trained (MLPerf's Llama 2 70B LoRA: all linear layers)
            w["lora_targets"] = row.get("lora_targets") or "all-linear"
    if row["catalog_model"]:
        w["model"] = row["catalog_model"]
    else:
        w["params_b"] = float(row["params_b"])
        if row["architecture_json"]:  # none published: the shape is gpuwise's fit, as for a user's bare size
            w["architecture"] = json.loads(row["architecture_json"])
    if row["global_batch_tokens"]:
        w["global_batch_tokens"] = float(row["global_batch_tokens"])
    return w


def published_run_cases(kb, path: Path = RUNS, *, details: dict | None = None,
                        conditions: Path | dict | None = CONDITIONS,
                        refused: dict | None = None) -> list[tuple[str, float, float]]:
    """tests/data/training_runs.csv (runs not in the validation set: >1,000 GPUs, MoE, FP8), or
    tests/data/training_heldout.csv (2024-26 runs gathered after the model was set, never tuned to),
    with each run's published conditions (tests/data/training_conditions.csv, or its rows by run id as
    run_conditions reads them; None: without them). ``refused``: a run whose conditions, as given, gpuwise refuses
    (a subset of a row's columns that only hold together, as a pinned schedule that only its stack admits) is
    scored on its own full conditions instead, and its id is recorded in ``refused`` with the error's text
    (benchmarks/bare_attribution.py); without it the error propagates."""
    from gpuwise.errors import UserError

    out = []
    conds = conditions if isinstance(conditions, dict) else run_conditions(conditions)
    full: dict[str, dict] | None = None
    with open(path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["use"] == "1"]
    for row in rows:
        n = int(row["gpus"]) if row["gpus"] else None
        dl = float(row["deadline_days"]) if row["deadline_days"] else None
        cond = conds.get(row["id"])
        try:
            est = run_estimate(with_conditions(run_workload(row), cond), row["gpu"], n, dl,
                               network=(cond or {}).get("network") or None)
        except UserError as e:
            if refused is None:
                raise
            refused[row["id"]] = str(e)
            full = run_conditions() if full is None else full
            cond = full.get(row["id"])
            est = run_estimate(with_conditions(run_workload(row), cond), row["gpu"], n, dl,
                               network=(cond or {}).get("network") or None)
        g = est.gpu
        notation = getattr(g.training, "layout_notation", g.strategy)
        label = f"{row['id']} {row['model']} on {g.count} x {g.id} ({notation})"
        if details is not None:
            details[row["id"]] = est
        out.append((label, hours_as_published(est, cond), float(row["gpu_hours"])))
    return out


def whole_run_ids(path: Path = HELDOUT_RUNS) -> set[str]:
    """The held-out runs whose published hours are a whole run's (a card's days x GPUs, a job's wall clock, GPU-hours
    the authors state): training_conditions.csv's hours_basis 'whole', or no conditions row and a figure the row does
    not call steady-state (scored on gpuwise's whole-run GPU-hours either way; validation README, branch wholerun60)."""
    conds = run_conditions()
    with open(path, newline="") as fh:
        return {r["id"] for r in csv.DictReader(fh) if r["use"] == "1" and (
            conds[r["id"]]["hours_basis"] == "whole" if r["id"] in conds else "steady" not in r["hours_kind"])}


def heldout_outside_criterion(path: Path = HELDOUT_RUNS) -> dict[str, str]:
    """Held-out runs whose published figure is not the GPUs' own time, by the source's own words or the code that
    computed the figure (the row's ``criterion`` column, 'outside: ...'), so that a miss beyond 2x on them is not a
    miss of the model: such a row stays in every median and is only listed apart from the 2x criterion, as
    training_runs.csv's runs without a published GPU count or with conflicting figures are."""
    with open(path, newline="") as fh:
        return {r["id"]: r["criterion"] for r in csv.DictReader(fh) if r.get("criterion", "").startswith("outside")}


THROUGHPUT = ROOT / "tests" / "data" / "training_throughput_published.csv"


def _step_tokens_per_gpu(w: dict, gpu: str, n: int) -> tuple:
    """The training estimate of workload ``w`` on ``n`` x ``gpu`` and its steady-state tokens/s per GPU (a step's
    tokens over the step's time, before the whole-run efficiency): what throughput tables publish."""
    t = run_estimate(w, gpu, n).gpu.training
    return t, t.global_batch_tokens / t.step_terms.step_s / n


def throughput_workload(row: dict) -> dict:
    """The workload of one training_throughput_published.csv row, as published (see :func:`throughput_cases`)."""
    seq = int(row["seq_len"])
    par = {k: int(row[k]) for k in ("tp", "pp", "cp", "ep") if row[k]}
    if row["vp"]:
        par["vpp"] = int(row["vp"])
    w = {"task": "pretrain", "model": row["model"], "precision": row["precision"], "seq_len": seq,
         "global_batch_tokens": float(int(row["global_batch"]) * seq), "batch_size": int(row["micro_batch"]),
         "stack": "nemo", "stack_version": row["release"], "parallelism": par, "train_tokens": 1e10}
    if row["fsdp"] not in ("", "0"):
        w["zero_stage"] = 3
    return w


def throughput_cases(kb, path: Path = THROUGHPUT, *, moe: bool | None = None,
                     releases: tuple[str, ...] | None = None) -> list[tuple[str, float, float]]:
    """tests/data/training_throughput_published.csv: NVIDIA's Megatron-Bridge performance summary (NeMo
    performance recipes), steady-state tokens/s per GPU, each row estimated as published: the stack (nemo),
    precision, global and micro batch, sequence and the layout (FSDP -> ZeRO-3; expert parallelism wider than
    the data-parallel GPUs is folded over the tensor-parallel ones, as Megatron-Core does; a layout gpuwise cannot
    hold falls back to the planner's choice, as the label's layout shows). ``moe``: only the MoE rows (True) or
    the dense ones (False)."""
    out = []
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    for row in rows:
        if moe is not None and (row["moe"] == "1") != moe:
            continue
        if releases is not None and row["release"] not in releases:
            continue
        n = int(row["gpus"])
        t, est = _step_tokens_per_gpu(throughput_workload(row), row["gpu"], n)
        out.append((f"{row['id']} {row['model']} {row['precision']} {n}x{row['gpu']} "
                    f"({t.layout_notation})", est, float(row["tokens_per_s_per_gpu"])))
    return out


FINETUNE = ROOT / "tests" / "data" / "finetune_throughput_published.csv"


def finetune_cases(kb, path: Path = FINETUNE, *, scored: bool = True) -> list[tuple[str, float, float]]:
    """tests/data/finetune_throughput_published.csv: single-GPU fine-tunes (full, LoRA, QLoRA) as published (torchtune's
    README tables), each row estimated as it ran: micro-batch, packed sequence, no gradient accumulation, recomputation
    on or off, chunked cross-entropy; steady-state tokens/s per GPU (the step, before the whole-run efficiency).
    ``scored``: only the rows marked use=1 (the others' notes say why a figure cannot be what the GPU did)."""
    out = []
    for row in _scored_rows(path, scored):
        seq, micro = int(row["seq_len"]), int(row["micro_batch"])
        w = {"task": "finetune", "model": row["model"], "method": row["method"], "precision": row["precision"],
             "optimizer": row["optimizer"], "seq_len": seq, "batch_size": micro,
             "mixed_precision": row["mixed_precision"] == "1", "torch_compile": row["compile"] == "1",
             "gradient_checkpointing": row["checkpointing"] == "1", "chunked_cross_entropy": True,
             "global_batch_tokens": float(micro * int(row["grad_accum"]) * seq), "train_tokens": 1e9}
        if row["lora_targets"]:
            w.update(lora_targets=row["lora_targets"], lora_rank=int(row["lora_rank"]))
        if row["stack"]:
            w["stack"] = row["stack"]
        n = int(row["gpus"])
        t, est = _step_tokens_per_gpu(w, row["gpu"], n)
        out.append((f"{row['id']} {row['model']} {row['method']} {n}x{row['gpu']} s{seq} b{micro} "
                    f"({t.layout_notation})", est, float(row["tokens_per_s_per_gpu"])))
    return out


OFFLOAD = ROOT / "tests" / "data" / "offload_published.csv"


def offload_workload(row: dict) -> dict:
    """An offload_published.csv row as the workload it ran: a full fine-tune with AdamW, the row's ZeRO stage and
    offload target, its parameter count on a dense shape of its width and depth (a shape the source did not state
    is the row's note) or the catalog model the row names (``model``), one micro-batch per GPU a step, recomputation
    on, and the host's cores where the source names the host."""
    micro, seq, n = int(row["micro_batch"]), int(row["seq_len"]), int(row["gpus"])
    if row.get("model"):  # the catalog model the source names: its own shape
        shape: dict = {"model": row["model"]}
    else:
        heads = int(row["heads"])
        shape = {"params_b": float(row["params_b"]), "architecture": {
            "layers": int(row["layers"]), "hidden_size": int(row["hidden"]), "heads": heads, "kv_heads": heads,
            "ffn_size": int(row["ffn"]), "vocab_size": int(row["vocab"]), "tied_embeddings": False}}
    w = {"task": "finetune", "method": "full", **shape,
         "precision": row["precision"], "optimizer": "adamw", "batch_size": micro, "seq_len": seq,
         "global_batch_tokens": float(micro * seq * n), "gradient_checkpointing": True,
         "zero_stage": int(row["zero_stage"]), "offload": row["offload"], "train_tokens": 1e8}
    if row["host_cores"]:  # the host the source names (its cores run the offloaded optimizer)
        w["host_cpu_cores"] = int(row["host_cores"])
    return w


def offload_cases(kb, path: Path = OFFLOAD, *, scored: bool = True) -> list[tuple[str, float, float]]:
    """tests/data/offload_published.csv: offloaded fine-tunes whose sources time the offloaded part of a step. A row's
    ``metric`` names the figure: ``host_adam_s`` the optimizer's own time on the host (the offload term's host
    Adam), ``offload_s`` the host path of a step (host Adam and the PCIe traffic), ``step_s`` the whole step.
    ``scored``: only the rows marked use=1 (the others' notes say why)."""
    out = []
    for row in _scored_rows(path, scored):
        n = int(row["gpus"])
        d = run_estimate(offload_workload(row), row["gpu"], n).model_dump(mode="json")["gpu"]
        term = {t["name"]: t for t in d["terms"]}
        off = term["offload_seconds"]
        est = {"host_adam_s": off["inputs"]["host_adam_s"], "offload_s": off["value"],
               "step_s": term["step_seconds"]["value"]}[row["metric"]]
        host = f" host {row['host_cores']} cores" if row["host_cores"] else " host not stated"
        out.append((f"{row['id']} {row['params_b']}B {n}x{row['gpu']} ZeRO-{row['zero_stage']} {row['metric']}{host}",
                    est, float(row["value"])))
    return out
