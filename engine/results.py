"""Results: what ``estimate``, ``recommend`` and ``audit`` return.

``model_dump(mode="json")`` of each is exactly the JSON the contract defines (required
keys) plus the extra keys reports need: the formulas, assumptions and sources.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["blocker", "warning", "info"]
Topic = Literal["memory", "compute", "interconnect", "cost", "compatibility", "used-hardware",
                "cloud-fees", "power-cooling", "licensing", "data-freshness"]
Step = Literal["memory", "compute", "interconnect", "tco", "pitfalls"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Finding(Frozen):
    """One judgement a rule made: what is wrong (or notable), the evidence, the fix, the source."""

    rule: str
    severity: Severity
    topic: Topic
    message: str
    evidence: dict[str, Any] = {}
    fix: str = ""
    source: str = ""
    step: Step = "pitfalls"
    subject: str = Field(default="", description="what the finding is about: a GPU, a candidate, a card")


class TraceEntry(Frozen):
    rule: str
    step: str
    conclusion: str
    facts: dict[str, Any] = {}
    source: str = ""


class FormulaTerm(Frozen):
    name: str
    value: float
    unit: str
    formula: str
    inputs: dict[str, Any] = {}
    note: str = ""


class Assumption(Frozen):
    field: str
    value: Any
    reason: str


class MemoryOut(Frozen):
    per_gpu_bytes: int
    total_bytes: int
    breakdown: dict[str, int]
    usable_per_gpu_bytes: int | None = None
    capacity_per_gpu_bytes: int | None = None
    layout: str = ""
    peak_phase: str = ""
    phases: dict[str, int] = {}
    host_ram_bytes_per_node: int = 0
    offload_target: str = "none"
    terms: list[FormulaTerm] = []
    notes: list[str] = []


class ComputeOut(Frozen):
    flops: float
    terms: list[FormulaTerm] = []


class GpuOut(Frozen):
    id: str
    name: str = ""
    count: int
    nodes: int = 1
    fits: bool
    gpu_hours: float | None = None
    wall_hours: float | None = None
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None
    prefill_tokens_per_s: float | None = None
    cost_usd: float | None = None
    acquisition: str | None = None
    strategy: str = ""
    scaling_efficiency: float | None = None
    peak_tflops: float | None = None
    peak_kind: str = ""
    mfu: float | None = None
    terms: list[FormulaTerm] = []
    cost: dict[str, Any] = {}
    # training (contract version 2): the layout chosen, and whether exactly what was asked fits
    fits_as_requested: bool | None = None
    layout: dict[str, Any] | None = None
    training: dict[str, Any] = Field(default={}, description="planner figures: step terms, exposed communication, "
                                     "goodput, suggested changes as data")
    # inference (contract version 2): the serving model at the load, with the framework and layout
    serving: dict[str, Any] | None = Field(
        default=None, description="max_concurrent_sequences, throughput_tokens_per_s (at concurrent_requests), "
        "max_throughput_tokens_per_s, ttft_s, tpot_s, framework, layout, targets met, curve")


class EstimateResult(Frozen):
    memory: MemoryOut
    compute: ComputeOut
    gpu: GpuOut | None = None
    workload: dict[str, Any] = {}
    assumptions: list[Assumption] = []
    knowledge_dates: dict[str, str] = {}


class Candidate(Frozen):
    gpu: str
    gpu_name: str = ""
    count: int
    nodes: int = 1
    feasible: bool
    rank: int | None = None
    memory_per_gpu_bytes: int
    capacity_per_gpu_bytes: int = 0
    usable_per_gpu_bytes: int = 0
    memory_breakdown: dict[str, int] = {}
    wall_days: float | None
    gpu_hours: float | None = None
    total_cost_usd: float | None
    acquisition: str | None = None
    rent_cost_usd: float | None = None
    buy_cost_usd: float | None = None
    break_even_month: int | None = None
    strategy: str = ""
    strategy_changes: list[str] = []
    scaling_efficiency: float | None = None
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None
    provider: str | None = None
    instance: str | None = None
    reasons: list[str] = []
    rules: list[str] = []


class Recommendation(Frozen):
    gpu: str
    gpu_name: str = ""
    count: int
    nodes: int
    acquisition: str
    wall_days: float | None
    total_cost_usd: float | None
    summary: str
    strategy: str = ""
    provider: str | None = None
    instance: str | None = None
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None


class StepSummary(Frozen):
    step: str
    conclusion: str
    rules: list[str] = []
    terms: list[FormulaTerm] = []


class RecommendResult(Frozen):
    recommendation: Recommendation | None
    runner_up: Recommendation | None = None
    candidates: list[Candidate]
    findings: list[Finding]
    trace: list[TraceEntry]
    question: dict[str, Any] = {}
    assumptions: list[Assumption] = []
    steps: list[StepSummary] = []
    charts: dict[str, Any] = {}
    knowledge_dates: dict[str, str] = {}
    stale_prices: list[dict[str, Any]] = []
    estimate: EstimateResult | None = None


class AuditResult(Frozen):
    verdict: Literal["approve", "revise", "reject"]
    findings: list[Finding]
    alternative: Candidate | None
    title: str = ""
    file: str = ""
    proposal: dict[str, Any] = {}
    proposed: Candidate | None = None
    savings_usd: float | None = None
    assumptions: list[Assumption] = []
    trace: list[TraceEntry] = []
    steps: list[StepSummary] = []
    charts: dict[str, Any] = {}
    knowledge_dates: dict[str, str] = {}
    stale_prices: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
