"""Hand-built results for the report tests: fixed, realistic numbers, no engine run.

``recommend_result()``: full fine-tuning of Llama 2 70B (bf16 autocast, AdamW, 5e9 tokens,
10-day deadline) over five candidates: 32 x H100 wins (rent), 32 x A100 is the runner-up,
L40S misses the deadline, RTX 4090 runs out of memory, V100 is too slow.
``audit_result()``: 8 used RTX 3090s bought for the same job: rejected (memory, a worn card).
``estimate_result()``: the numbers of the winning configuration alone.

Memory figures follow the estimator's DeepSpeed ZeRO-3 layout with 68.98e9 parameters:
weights and gradients 2 B/param / 32 GPUs, optimizer 12 B/param / 32 GPUs, activations with
checkpointing 2 B x hidden x tokens x layers + 12 B x vocab x tokens (+ small terms).
"""

from __future__ import annotations

from gpuwise import messages
from gpuwise.results import (
    Assumption,
    AuditResult,
    Candidate,
    ComputeOut,
    EstimateResult,
    Finding,
    FormulaTerm,
    GpuOut,
    MemoryOut,
    Recommendation,
    RecommendResult,
    StepSummary,
    TraceEntry,
    UsedCard,
)

PARAMS = 68.98e9
GB = 1e9

# a layout label as the estimators word it (message ids and values, reports/messages.yaml layout.*)
CKPT_ZERO3 = [["", "layout.checkpointing", {}], [" + ", "verbatim", {"text": "ZeRO-3"}]]


def _breakdown(gpus: int, act: int = 7_075_774_464, overhead: int = 1_750_000_000) -> dict[str, int]:
    return {
        "weights": round(PARAMS * 2 / gpus),
        "gradients": round(PARAMS * 2 / gpus),
        "optimizer": round(PARAMS * 12 / gpus),
        "activations": act,
        "kv_cache": 0,
        "overhead": overhead,
    }


H100_32 = _breakdown(32)
A100_32 = _breakdown(32)
L40S_64 = _breakdown(64, overhead=1_500_000_000)
RTX4090_64 = _breakdown(64, overhead=1_500_000_000)
V100_64 = _breakdown(64, act=6_800_000_000, overhead=1_400_000_000)
RTX3090_8 = _breakdown(8, overhead=1_200_000_000)

def _f(message_id: str, sep: str = "", **values: object) -> list:
    """A formula part as a result's JSON carries it (reports/messages.yaml formula.*)."""
    return [[sep, message_id, values]]


def _term(name: str, value: float, unit: str, parts: list, inputs: dict) -> FormulaTerm:
    """A term as the estimators give it: its formula as message ids, its English filled from them."""
    return FormulaTerm(name=name, value=value, unit=unit, formula=messages.formula_text(parts), inputs=inputs,
                       formula_phrases=parts)


MEMORY_TERMS = [
    _term("weights", H100_32["weights"], "B", _f("formula.params_bytes", bytes=2)
          + _f("formula.over_gpus_zero3", " / ", n=32), {"params": PARAMS, "bytes_per_param": 2, "shards": 32}),
    _term("gradients", H100_32["gradients"], "B", _f("formula.params_bytes", bytes=2)
          + _f("formula.over_gpus_zero2", " / ", n=32), {"params": PARAMS, "bytes_per_param": 2, "shards": 32}),
    # AdamW with fp32 master weights: 4 B master + 2 moments x 4 B = 12 B per parameter, sharded 32 ways
    _term("optimizer", H100_32["optimizer"], "B", _f("formula.adamw_master")
          + _f("formula.over_gpus_zero1", " / ", n=32),
          {"trainable_params": PARAMS, "master_bytes": 4, "state_bytes": 4, "shards": 32}),
    # one layer's bytes per token: 2 B x (34 x hidden + 4 x kv_dim + 6 x ffn) = 2 x (34 x 8192 + 4 x 1024
    # + 6 x 28672) = 909,312
    _term("activations", H100_32["activations"], "B",
          _f("formula.activations_checkpointed") + _f("formula.activations_embedding_norm", " + ")
          + _f("formula.activations_at_loss", " + max(", logits=_f("formula.logits_bytes"))
          + _f("formula.activations_recomputed", ", "),
          {"tokens_per_gpu": 4096, "layers": 80, "hidden": 8192, "vocab": 32000, "residual_bytes": 2,
           "bytes_per_token_layer": 909_312}),
    FormulaTerm(name="kv_cache", value=0, unit="B", formula=messages.formula_text(_f("formula.kv_training")),
                inputs={}, formula_phrases=_f("formula.kv_training")),
    _term("overhead", H100_32["overhead"], "B", _f("formula.overhead"),
          {"context_bytes": 500_000_000, "allocator_fraction": 0.03,  # the tensors its 1.75 GB allows for
           "working_bytes": round((H100_32["overhead"] - 500_000_000) / 0.03)}),
]
COMPUTE_TERMS = [
    # 6 (forward 2 + backward 4) + 2 (checkpointing recomputes the forward) = 8 FLOPs per parameter and token
    _term("training_flops", 2.85e21, "FLOP", _f("formula.training_flops"),
          {"tokens": 5.0e9, "matmul_params": 68.45e9, "multiplier": 8.0, "layers": 80, "seq": 4096,
           "attention_flops_per_token": 2.15e10}),
    _term("wall_hours", 59.77, "h", _f("formula.wall_hours"),
          {"FLOPs": 2.85e21, "GPUs": 32, "peak": 989e12, "MFU": 0.45, "scaling efficiency": 0.93}),
    _term("gpu_hours", 1912.6, "GPU-h", _f("formula.gpu_hours"), {"GPUs": 32}),
]
INTERCONNECT_TERMS = [
    _term("allreduce_seconds", 2.14, "s", _f("formula.allreduce"),
          {"gradient_bytes": 137.96e9, "gpus_per_node": 8, "nodes": 4, "intra_gb_s": 450, "network_gb_s": 400,
           "link_efficiency": 0.8}),
    _term("scaling_efficiency", 0.93, "", _f("formula.scaling_efficiency"),
          {"step_compute_s": 11.8, "allreduce_s": 2.14, "overlap": 0.6, "exposed_s": 0.88}),
]
TCO_TERMS = [
    _term("rent_usd", 5718.7, "USD", _f("formula.rent"),
          {"usd_per_hour": 2.99, "hours": 1912.6, "discount": 0.0, "provider": "lambda",
           "instance": "gpu_8x_h100_sxm5", "as_of": "2024-06-01"}),
    _term("buy_usd", 612_400.0, "USD", _f("formula.buy"), {"capex": 992_000.0}),
]

TRACE = [
    TraceEntry(
        rule="mem.zero3-shards-state",
        step="memory",
        conclusion="70B training state (1.1 TB) fits only when sharded: ZeRO-3 with gradient checkpointing",
        facts={"state_bytes": 1.10e12},
        source="Rajbhandari et al., ZeRO (SC20), table 1",
    ),
    TraceEntry(
        rule="mem.fits-usable",
        step="memory",
        conclusion="h100-80gb-sxm x 32: 43.3 GB of 78.7 GB usable",
        source="gpuwise memory model; PyTorch CUDA caching allocator notes",
    ),
    TraceEntry(
        rule="mem.exceeds-usable",
        step="memory",
        conclusion="rtx-4090 x 64: 25.8 GB > 23.2 GB usable",
        source="gpuwise memory model; PyTorch CUDA caching allocator notes",
    ),
    TraceEntry(
        rule="compute.deadline-missed",
        step="compute",
        conclusion="l40s-48gb x 64: 14.5 days > 10-day deadline",
        source="requirements: constraints.deadline_days",
    ),
    TraceEntry(
        rule="compute.deadline-missed",
        step="compute",
        conclusion="v100-32gb-sxm2 x 64: 21.8 days > 10-day deadline",
        source="requirements: constraints.deadline_days",
    ),
    TraceEntry(
        rule="compute.mfu-by-generation",
        step="compute",
        conclusion="H100 bf16 at 45% MFU, A100 at 50%",
        source="Chowdhery et al., PaLM (2022), appendix B; MosaicML LLM Foundry benchmarks (2023)",
    ),
    TraceEntry(
        rule="ic.tp-inside-nvlink",
        step="interconnect",
        conclusion="NVSwitch inside each 8-GPU node; InfiniBand 400 Gb/s between the 4 nodes",
        source="NVIDIA DGX H100 user guide",
    ),
    TraceEntry(
        rule="ic.ethernet-multinode",
        step="interconnect",
        conclusion="l40s-48gb x 64 over 100 GbE: scaling efficiency 28%",
        source="NCCL tests all_reduce_perf; NVIDIA L40S datasheet (no NVLink)",
    ),
    TraceEntry(
        rule="tco.rent-short-job",
        step="tco",
        conclusion="2.5 days of use: renting ($5,719) beats buying ($612,400); break-even after 17 months",
        source="knowledge/tco.yaml (server share, PUE, hosting, resale)",
    ),
]

FINDINGS = [
    Finding(
        rule="lic.geforce-datacenter",
        severity="blocker",
        topic="licensing",
        step="pitfalls",
        subject="rtx-4090",
        message="The GeForce driver licence does not allow datacenter deployment of RTX 4090 cards.",
        fix="Use a data-center card (L40S, A100, H100) for a hosted cluster.",
        source="NVIDIA GeForce software licence, section 2.1.3",
        evidence={"segment": "consumer"},
    ),
    Finding(
        rule="cloud.egress-checkpoints",
        severity="warning",
        topic="cloud-fees",
        step="pitfalls",
        subject="h100-80gb-sxm",
        message="Each full checkpoint with optimizer state is about 1.1 TB; downloading five of them costs "
        "about $450 in egress.",
        fix="Keep checkpoints in the provider's region; download only the final 138 GB of weights.",
        source="AWS EC2 on-demand pricing, data transfer out ($0.09/GB), 2025-03",
        evidence={"checkpoint_bytes": 1.10e12, "usd_per_gb": 0.09},
    ),
    Finding(
        rule="data.stale-price",
        severity="warning",
        topic="data-freshness",
        step="pitfalls",
        subject="lambda gpu_8x_h100_sxm5",
        message="The hourly price used for the H100 rental is more than a year old.",
        fix="Check the provider's current price before committing.",
        source="knowledge/clouds.yaml",
        evidence={"as_of": "2024-06-01", "age_days": 586},
    ),
    Finding(
        rule="tco.rent-short-job",
        severity="info",
        topic="cost",
        step="tco",
        subject="h100-80gb-sxm",
        message="The job keeps 32 GPUs busy for 2.5 days; buying them pays off only after 17 months of full use.",
        source="knowledge/tco.yaml (server share, PUE, hosting, resale)",
    ),
]

CANDIDATES = [
    Candidate(
        gpu="h100-80gb-sxm",
        gpu_name="NVIDIA H100 SXM5 80GB",
        count=32,
        nodes=4,
        feasible=True,
        rank=1,
        memory_per_gpu_bytes=sum(H100_32.values()),
        capacity_per_gpu_bytes=85_520_809_984,
        usable_per_gpu_bytes=78_679_145_185,
        memory_breakdown=H100_32,
        wall_days=2.49,
        gpu_hours=1912.6,
        total_cost_usd=5718.7,
        acquisition="rent",
        rent_cost_usd=5718.7,
        buy_cost_usd=612_400.0,
        break_even_month=17,
        strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
        strategy_changes=["gradient checkpointing on", "ZeRO stage 0 -> 3"],
        scaling_efficiency=0.93,
        provider="lambda",
        instance="gpu_8x_h100_sxm5",
        rules=["mem.zero3-shards-state", "mem.fits-usable", "tco.rent-short-job"],
    ),
    Candidate(
        gpu="a100-80gb-sxm",
        gpu_name="NVIDIA A100 SXM4 80GB",
        count=32,
        nodes=4,
        feasible=True,
        rank=2,
        memory_per_gpu_bytes=sum(A100_32.values()),
        capacity_per_gpu_bytes=85_899_345_920,
        usable_per_gpu_bytes=79_027_398_246,
        memory_breakdown=A100_32,
        wall_days=7.35,
        gpu_hours=5642.0,
        total_cost_usd=10_099.2,
        acquisition="rent",
        rent_cost_usd=10_099.2,
        buy_cost_usd=398_000.0,
        break_even_month=21,
        strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
        strategy_changes=["gradient checkpointing on", "ZeRO stage 0 -> 3"],
        scaling_efficiency=0.90,
        provider="lambda",
        instance="gpu_8x_a100_80gb_sxm4",
        rules=["mem.fits-usable"],
    ),
    Candidate(
        gpu="l40s-48gb",
        gpu_name="NVIDIA L40S 48GB",
        count=64,
        nodes=8,
        feasible=False,
        memory_per_gpu_bytes=sum(L40S_64.values()),
        capacity_per_gpu_bytes=48_305_799_168,
        usable_per_gpu_bytes=44_441_335_234,
        memory_breakdown=L40S_64,
        wall_days=14.5,
        gpu_hours=22_272.0,
        total_cost_usd=41_990.0,
        acquisition="rent",
        rent_cost_usd=41_990.0,
        buy_cost_usd=705_000.0,
        strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
        scaling_efficiency=0.28,
        reasons=[
            "14.5 days exceeds the 10-day deadline",
            "PCIe-only cards over 100 GbE between 8 nodes: scaling efficiency 28%",
        ],
        rules=["compute.deadline-missed", "ic.ethernet-multinode"],
    ),
    Candidate(
        gpu="rtx-4090",
        gpu_name="NVIDIA GeForce RTX 4090",
        count=64,
        nodes=8,
        feasible=False,
        memory_per_gpu_bytes=sum(RTX4090_64.values()),
        capacity_per_gpu_bytes=25_757_220_864,
        usable_per_gpu_bytes=23_181_498_778,
        memory_breakdown=RTX4090_64,
        wall_days=None,
        total_cost_usd=None,
        reasons=[
            "needs 25.8 GB per GPU even with ZeRO-3 and checkpointing; 23.2 GB usable",
            "GeForce licence forbids datacenter deployment",
        ],
        rules=["mem.exceeds-usable", "lic.geforce-datacenter"],
    ),
    Candidate(
        gpu="v100-32gb-sxm2",
        gpu_name="NVIDIA Tesla V100 SXM2 32GB",
        count=64,
        nodes=8,
        feasible=False,
        memory_per_gpu_bytes=sum(V100_64.values()),
        capacity_per_gpu_bytes=34_089_730_048,
        usable_per_gpu_bytes=31_362_551_644,
        memory_breakdown=V100_64,
        wall_days=21.8,
        gpu_hours=33_485.0,
        total_cost_usd=73_667.0,
        acquisition="rent",
        rent_cost_usd=73_667.0,
        strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
        scaling_efficiency=0.71,
        reasons=["21.8 days exceeds the 10-day deadline", "no bf16: fp16 with loss scaling instead"],
        rules=["compute.deadline-missed"],
    ),
]

QUESTION = {
    "workload": {
        "task": "finetune",
        "method": "full",
        "lora_rank": 16,
        "lora_targets": "all-linear",
        "model": "llama-2-70b",
        "params_b": None,
        "architecture": None,
        "precision": "bf16",
        "mixed_precision": True,
        "optimizer": "adamw",
        "batch_size": 1,
        "seq_len": 4096,
        "gradient_checkpointing": "auto",
        "attention": "sdpa",
        "zero_stage": "auto",
        "offload": "none",
        "train_tokens": 5.0e9,
        "context_len": 4096,
        "concurrent_requests": 1,
        "target_tokens_per_s": 0,
    },
    "constraints": {
        "gpus": [],
        "max_gpus": 64,
        "deadline_days": 10,
        "budget_usd": None,
        "acquisition": "either",
        "project_months": 12,
        "electricity_usd_per_kwh": 0.15,
    },
    "environment": None,
    "resolved_model": {
        "id": "llama-2-70b",
        "name": "Llama 2 70B",
        "params": PARAMS,
        "active_params": PARAMS,
        "layers": 80,
        "hidden": 8192,
        "heads": 64,
        "kv_heads": 8,
        "vocab": 32000,
    },
    "train_tokens_used": 5.0e9,
    "deadline_days_used": 10,
}
ASSUMPTIONS = [
    Assumption(
        field="workload.optimizer",
        value="adamw",
        reason="default: torch.optim.AdamW with its default multi-tensor step",
    ),
    Assumption(field="workload.batch_size", value=1, reason="default: one sequence per GPU per micro-step"),
    Assumption(
        field="workload.attention",
        value="sdpa",
        reason="default: SDPA (FlashAttention kernel, no seq x seq matrix)",
    ),
    Assumption(
        field="workload.mixed_precision",
        value=True,
        reason="default: PyTorch autocast keeps fp32 master weights",
    ),
]
KNOWLEDGE_DATES = {"oldest": "2024-06-01", "newest": "2026-01-08"}

MONTHS = list(range(25))
RENT_PER_MONTH = 32 * 730 * 2.99
# the cost chart's data (gpuwise.estimators.cost.cost_chart): 24 months of renting around the clock
# against buying's cash out (capital at month 0, then running costs), the resale a step at the end;
# the lines cross where 69,846.4 m = 992,000 + 9,400 m, at m = 16.41
COST_CURVE = {
    "unit": "months", "x": MONTHS, "period": "project", "span": 24,
    "rent": [round(RENT_PER_MONTH * m, 2) for m in MONTHS], "rent_total": round(RENT_PER_MONTH * 24, 2),
    "buy": [round(992_000 + 9_400 * m, 2) for m in MONTHS], "buy_cash_out": 992_000 + 9_400 * 24,
    "resale": -520_000.0, "resale_after_months": 24, "buy_net": 992_000 + 9_400 * 24 - 520_000,
    "break_even": 992_000 / (RENT_PER_MONTH - 9_400),
}


def _memory_series(cands: list[Candidate]) -> list[dict]:
    return [
        {
            "label": f"{c.gpu} x {c.count}",
            "capacity": c.capacity_per_gpu_bytes,
            "usable": c.usable_per_gpu_bytes,
            "parts": c.memory_breakdown,
        }
        for c in cands
    ]


def estimate_result() -> EstimateResult:
    return EstimateResult(
        memory=MemoryOut(
            per_gpu_bytes=sum(H100_32.values()),
            total_bytes=sum(H100_32.values()) * 32,
            breakdown=H100_32,
            usable_per_gpu_bytes=78_679_145_185,
            capacity_per_gpu_bytes=85_520_809_984,
            layout="data parallel, ZeRO-3 (bf16 + fp32 master weights)",
            peak_phase="backward",
            terms=MEMORY_TERMS,
            notes=["ZeRO-3 gathers one layer's weights at a time"],
        ),
        compute=ComputeOut(flops=2.85e21, terms=COMPUTE_TERMS[:1]),
        gpu=GpuOut(
            id="h100-80gb-sxm",
            name="NVIDIA H100 SXM5 80GB",
            count=32,
            nodes=4,
            fits=True,
            gpu_hours=1912.6,
            wall_hours=59.77,
            cost_usd=5718.7,
            acquisition="rent",
            strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
            scaling_efficiency=0.93,
            peak_tflops=989.4,
            peak_kind="bf16",
            mfu=0.45,
            terms=[*COMPUTE_TERMS[1:], *TCO_TERMS],
            cost={"rent_usd": 5718.7, "buy_usd": 612_400.0, "provider": "lambda"},
        ),
        workload=QUESTION,
        assumptions=ASSUMPTIONS,
        knowledge_dates=KNOWLEDGE_DATES,
    )


def recommend_result() -> RecommendResult:
    chosen, runner = CANDIDATES[0], CANDIDATES[1]
    return RecommendResult(
        recommendation=Recommendation(
            gpu=chosen.gpu,
            gpu_name=chosen.gpu_name,
            count=32,
            nodes=4,
            acquisition="rent",
            wall_days=2.49,
            total_cost_usd=5718.7,
            strategy=chosen.strategy, strategy_phrases=chosen.strategy_phrases,
            provider="lambda",
            instance="gpu_8x_h100_sxm5",
            summary="Rent 32 x H100 80GB (4 nodes of 8) for 2.5 days with ZeRO-3 and gradient checkpointing.",
        ),
        runner_up=Recommendation(
            gpu=runner.gpu,
            gpu_name=runner.gpu_name,
            count=32,
            nodes=4,
            acquisition="rent",
            wall_days=7.35,
            total_cost_usd=10_099.2,
            strategy=runner.strategy, strategy_phrases=runner.strategy_phrases,
            provider="lambda",
            instance="gpu_8x_a100_80gb_sxm4",
            summary="Rent 32 x A100 80GB for 7.4 days: 77% more expensive and three times slower.",
        ),
        candidates=CANDIDATES,
        findings=FINDINGS,
        trace=TRACE,
        question=QUESTION,
        assumptions=ASSUMPTIONS,
        steps=[
            StepSummary(
                step="memory",
                conclusion="Full fine-tuning of 70B needs about 1.1 TB of training state: "
                "ZeRO-3 over 32 GPUs with gradient checkpointing brings it to 43.3 GB per GPU.",
                rules=["mem.zero3-shards-state", "mem.fits-usable", "mem.exceeds-usable"],
                terms=MEMORY_TERMS,
            ),
            StepSummary(
                step="compute",
                conclusion="2.85e21 FLOPs: 2.5 days on 32 H100s, 7.4 days on 32 A100s.",
                rules=["compute.mfu-by-generation", "compute.deadline-missed"],
                terms=COMPUTE_TERMS,
            ),
            StepSummary(
                step="interconnect",
                conclusion="NVSwitch nodes with InfiniBand keep 93% scaling efficiency at 32 GPUs.",
                rules=["ic.tp-inside-nvlink", "ic.ethernet-multinode"],
                terms=INTERCONNECT_TERMS,
            ),
            StepSummary(
                step="tco",
                conclusion="Rent: the job is too short for buying to pay off.",
                rules=["tco.rent-short-job"],
                terms=TCO_TERMS,
            ),
        ],
        charts={
            "cost_curve": COST_CURVE,
            "memory": _memory_series(CANDIDATES),
            "time_cost": [
                {
                    "label": f"{c.gpu} x {c.count}",
                    "wall_days": c.wall_days,
                    "cost_usd": c.total_cost_usd,
                    "feasible": c.feasible,
                    "chosen": c is chosen,
                }
                for c in CANDIDATES
            ],
        },
        knowledge_dates=KNOWLEDGE_DATES,
        stale_prices=[{"what": "lambda gpu_8x_h100_sxm5 hourly price", "as_of": "2024-06-01", "age_days": 586}],
        estimate=estimate_result(),
    )


def no_feasible_result() -> RecommendResult:
    """Nothing fits: no recommendation, every candidate rejected, no charts series."""
    rejected = [c for c in CANDIDATES if not c.feasible]
    return RecommendResult(
        recommendation=None,
        candidates=rejected,
        findings=FINDINGS[:1],
        trace=TRACE[2:5],
        question=QUESTION,
        knowledge_dates=KNOWLEDGE_DATES,
    )


PROPOSED = Candidate(
    gpu="rtx-3090",
    gpu_name="NVIDIA GeForce RTX 3090",
    count=8,
    nodes=1,
    feasible=False,
    memory_per_gpu_bytes=sum(RTX3090_8.values()),
    capacity_per_gpu_bytes=25_769_803_776,
    usable_per_gpu_bytes=22_935_125_360,
    memory_breakdown=RTX3090_8,
    wall_days=None,
    total_cost_usd=23_850.0,
    acquisition="buy",
    buy_cost_usd=23_850.0,
    strategy="gradient checkpointing + ZeRO-3", strategy_phrases=CKPT_ZERO3,
    reasons=[
        "needs 146.2 GB per GPU with ZeRO-3 and gradient checkpointing; an RTX 3090 has 22.9 GB usable",
        "CPU offload would need 828 GB of host RAM; the server has 512 GB",
    ],
    rules=["mem.exceeds-usable", "mem.offload-host-ram"],
)


def _card(n: int, serial: str, made: str, *, has_smi: bool = True, **readings) -> UsedCard:
    """A used card as the audit reports it: its fact, with -1 and "" for what is not known (an
    RTX 3090 of 24 GB bought, its serial given, alone in its nvidia-smi report)."""
    card = {
        "card": n,
        "serial": serial,
        "consumer": True,
        "purchase": True,
        "primary": True,
        "serial_given": True,
        "serial_in_report": 1 if has_smi else -1,
        "gpu_index": 1,
        "gpus_in_report": 1 if has_smi else 0,
        "judged_all": False,
        "report_serial": serial if has_smi else "",
        "remap_banks_exhausted": -1,
        "pcie_replays": 0 if has_smi else -1,
        "pstate": 0 if has_smi else -1,
        "gpu_idle_known": has_smi,
        "gpu_idle": False,
        "memory_mib": 24576 if has_smi else -1,
        "claimed_memory_mib": 24576,
        "memory_ratio": 1.0 if has_smi else -1.0,
        "gpu_temp_c": -1,
        "gpu_temp_limit_c": -1,
        "gpu_slowdown_temp_c": -1,
        "gpu_shutdown_temp_c": -1,
        "mem_temp_c": -1,
        "mem_temp_limit_c": -1,
        "mem_type": "GDDR6X" if has_smi else "",
        "mem_throttle_c": 110 if has_smi else -1,
        "manufactured": made,
        "has_dates": bool(made),
        "months_to_sale": 30 if made else -1,
        "fan_cv": -1.0,
        "fan_swing": -1.0,
        "fan_samples": 4 if made else 0,
        "power_cv": -1.0,
        "power_swing": -1.0,
        "power_samples": 4 if made else 0,
        "has_smi": has_smi,
        "smi_error": "",
        "retired_pages": 0,
        "remapped_rows": -1,
        "memory_repairs": 0,
        "pending": False,
        "remap_failure": False,
        "uncorrectable_ecc": -1,
        "correctable_ecc": -1,
        "link_width": 16,
        "link_width_max": 16,
        "link_gen": 4,
        "link_gen_max": 4,
        "power_limit_w": 350.0,
        "default_power_limit_w": 350.0,
        "app_clocks_off_mhz": 0,
        "throttle_reasons": "",
        "throttling": False,
        "reason_hw_slowdown": False,
        "reason_hw_thermal_slowdown": False,
        "reason_hw_power_brake": False,
        "reason_sw_thermal_slowdown": False,
        "vbios": "94.02.42.00.A9",
        "product_name": "NVIDIA GeForce RTX 3090",
        "segment": "consumer",
        "product_matches": 1,
    }
    card.update(readings)
    if not has_smi:
        card.update(
            {
                k: -1
                for k in (
                    "retired_pages",
                    "link_width",
                    "link_width_max",
                    "link_gen",
                    "link_gen_max",
                    "product_matches",
                )
            }
        )
        card.update(vbios="", product_name="", power_limit_w=-1.0, default_power_limit_w=-1.0)
    return UsedCard(**card)


def audit_result() -> AuditResult:
    alternative = CANDIDATES[0]
    return AuditResult(
        verdict="reject",
        title="Fine-tuning cluster, Q3",
        file="proposals/q3-cluster.yaml",
        proposal={
            "title": "Fine-tuning cluster, Q3",
            "workload": {
                "task": "finetune",
                "method": "full",
                "model": "llama-2-70b",
                "precision": "bf16",
                "seq_len": 4096,
                "train_tokens": 5.0e9,
            },
            "hardware": {
                "gpu": "rtx-3090",
                "count": 8,
                "nodes": 1,
                "link": "pcie-4",
                "network": None,
                "host_ram_gb": 512,
            },
            "acquisition": {"mode": "buy", "condition": "used", "unit_price_usd": 900, "months": 6},
        },
        proposed=PROPOSED,
        alternative=alternative,
        savings_usd=23_850.0 - 5718.7,
        assumptions=[
            Assumption(
                field="workload.optimizer",
                value="adamw",
                reason="default: torch.optim.AdamW with its default multi-tensor step",
            )
        ],
        findings=[
            Finding(
                rule="mem.exceeds-usable",
                severity="blocker",
                topic="memory",
                step="memory",
                subject="rtx-3090 x 8",
                message="Training state needs 146.2 GB per GPU even with ZeRO-3 and gradient checkpointing; "
                "an RTX 3090 has 22.9 GB usable.",
                fix="Rent 32 x H100 80GB, or fine-tune with QLoRA instead (about 46 GB on one 80 GB GPU).",
                source="Rajbhandari et al., ZeRO (SC20); gpuwise memory model",
                evidence={"need_bytes": 146_235_774_464, "usable_bytes": 22_935_125_360},
            ),
            Finding(
                rule="used.fan-hunting",
                severity="blocker",
                topic="used-hardware",
                step="pitfalls",
                subject="card 1324520012345",
                message="Fan speed swings between 30% and 90% under a steady load (CV 0.46): "
                "a worn fan, or a card run hard (mining).",
                fix="Return the card or replace its fans, then test again under load.",
                source="seed article A3, used-card checklist",
                evidence={"fan_cv": 0.46, "serial": "1324520012345"},
            ),
            Finding(
                rule="ic.pcie-no-nvlink",
                severity="warning",
                topic="interconnect",
                step="interconnect",
                subject="rtx-3090 x 8",
                message="Eight cards over PCIe 4.0 without NVLink: the gradient all-reduce takes 9.7 s per step.",
                fix="Prefer NVLink/NVSwitch systems for multi-GPU training of large models.",
                source="NCCL tests all_reduce_perf; PCIe 4.0 x16 = 32 GB/s per direction",
            ),
            Finding(
                rule="power.circuit",
                severity="warning",
                topic="power-cooling",
                step="pitfalls",
                subject="rtx-3090 x 8",
                message="8 x 350 W cards plus the host draw about 3.6 kW; a 15 A / 120 V circuit supplies "
                "1.44 kW continuous.",
                fix="Plan a 208-240 V circuit of at least 30 A, or two servers.",
                source="NEC 210.19(A)(1): continuous loads at 80% of the breaker rating",
            ),
            Finding(
                rule="lic.geforce-datacenter",
                severity="info",
                topic="licensing",
                step="pitfalls",
                subject="rtx-3090",
                message="The GeForce driver licence does not allow datacenter deployment.",
                fix="Keep the server on premises, outside a datacenter.",
                source="NVIDIA GeForce software licence, section 2.1.3",
            ),
        ],
        trace=[
            TraceEntry(
                rule="mem.exceeds-usable",
                step="memory",
                conclusion="rtx-3090 x 8: 146.2 GB > 22.9 GB usable",
                source="Rajbhandari et al., ZeRO (SC20); gpuwise memory model",
            ),
            TraceEntry(
                rule="mem.offload-host-ram",
                step="memory",
                conclusion="CPU offload needs 828 GB host RAM > 512 GB",
                source="DeepSpeed ZeRO-Offload docs",
            ),
            TraceEntry(
                rule="ic.pcie-no-nvlink",
                step="interconnect",
                conclusion="all-reduce 9.7 s per step",
                source="NCCL tests all_reduce_perf; PCIe 4.0 x16 = 32 GB/s per direction",
            ),
            TraceEntry(
                rule="used.fan-hunting",
                step="pitfalls",
                conclusion="card 1324520012345: fan CV 0.46",
                source="seed article A3, used-card checklist",
            ),
            TraceEntry(
                rule="tco.cheaper-alternative",
                step="tco",
                conclusion="renting 32 x H100 for 2.5 days costs $5,719 against $23,850 to buy",
                source="knowledge/tco.yaml; knowledge/clouds.yaml",
            ),
        ],
        steps=[
            StepSummary(
                step="memory",
                conclusion="The proposal cannot hold the training state.",
                rules=["mem.exceeds-usable", "mem.offload-host-ram"],
            ),
            StepSummary(
                step="interconnect",
                conclusion="PCIe 4.0 only: all-reduce dominates each step.",
                rules=["ic.pcie-no-nvlink"],
            ),
            StepSummary(
                step="tco",
                conclusion="Renting the alternative is cheaper than buying the proposal.",
                rules=["tco.cheaper-alternative"],
            ),
        ],
        charts={},
        knowledge_dates=KNOWLEDGE_DATES,
        cards=[
            _card(
                1,
                "1324520012345",
                "2020-11",
                fan_cv=0.46,
                fan_swing=0.98,
                power_cv=0.27,
                power_swing=0.55,
                link_width=8,
                power_limit_w=280.0,
                throttle_reasons="sw_power_cap, hw_slowdown",
                throttling=True,
                reason_hw_slowdown=True,
            ),
            _card(2, "1324520012399", "2021-02", fan_cv=0.03, fan_swing=0.06, power_cv=0.02, power_swing=0.04),
            _card(3, "1324520099999", "", has_smi=False),
        ],
    )
