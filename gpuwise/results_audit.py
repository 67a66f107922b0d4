"""The audit's records: a used card as the audit judged it, a requirement the alternative gives
up, and the audit's result. Kept apart from :mod:`gpuwise.results` (which still names them, see
its ``_AUDIT``) so that a process that recommends or estimates never builds their classes."""

from typing import Any, Literal

from .chart_series import Charts
from .pyd import Field
from .results import (
    Assumption,
    Candidate,
    CurrencyInfo,
    Finding,
    Frozen,
    HouseRules,
    Number,
    PriceUsed,
    Sentence,
    StalePrice,
    StepSummary,
    TraceEntry,
)


class GivenUp(Frozen):
    """A requirement the audit's alternative meets less well than the proposal (its saving is then
    not like for like): ``what`` is the key compared, with both values."""

    what: Literal["throughput_tokens_per_s", "tpot_s", "wall_days"]
    proposed: float
    alternative: float
    rule: str = Field(default="", exclude=True, description="the rule that concluded it (rules/comparison.yaml); "
                      "not part of the JSON")


class UsedCard(Frozen):
    """One used card as the audit judged it: its card fact (:class:`gpuwise.decide.facts.CardFact`,
    where each field is described) without the GPU id, one per GPU of its nvidia-smi report judged.
    -1 (or "") is "not known"."""

    card: int
    serial: str
    consumer: bool
    purchase: bool
    primary: bool
    manufactured: str
    has_dates: bool
    months_to_sale: int
    fan_cv: Number
    fan_swing: Number
    fan_samples: int
    power_cv: Number
    power_swing: Number
    power_samples: int
    segment: str
    has_smi: bool
    smi_error: str
    serial_given: bool
    serial_in_report: int
    gpu_index: int
    gpus_in_report: int
    judged_all: bool
    report_serial: str
    retired_pages: int
    remapped_rows: int
    memory_repairs: int
    pending: bool
    remap_failure: bool
    remap_banks_exhausted: int
    uncorrectable_ecc: int
    correctable_ecc: int
    ecc_on: int = -1
    ecc_memory: bool = False
    pstate: int
    gpu_idle_known: bool
    gpu_idle: bool
    link_width: int
    link_width_max: int
    link_gen: int
    link_gen_max: int
    link_width_fraction: Number = -1.0
    link_gb_s: Number = -1.0
    link_gb_s_full: Number = -1.0
    pcie_replays: int
    power_limit_w: Number
    default_power_limit_w: Number
    app_clocks_off_mhz: int
    throttle_reasons: str
    throttling: bool
    reason_hw_slowdown: bool
    reason_hw_thermal_slowdown: bool
    reason_hw_power_brake: bool
    reason_sw_thermal_slowdown: bool
    vbios: str
    product_name: str
    product_matches: int
    memory_mib: int
    claimed_memory_mib: int
    memory_ratio: Number
    gpu_temp_c: int
    gpu_temp_limit_c: int
    gpu_slowdown_temp_c: int
    gpu_shutdown_temp_c: int
    mem_temp_c: int
    mem_temp_limit_c: int
    mem_type: str
    mem_throttle_c: int
    recovery: str = ""
    virtual_gpu: bool = False


class AuditResult(Frozen):
    verdict: Literal["approve", "revise", "reject"]
    findings: list[Finding]
    alternative: Candidate | None
    alternative_findings: list[Finding] = Field(default=[], description="the blockers and warnings the rules found of "
                                                 "the alternative itself (its GPUs, count and layout)")
    title: str = ""
    file: str = ""
    proposal: dict[str, Any] = {}
    proposed: Candidate | None = None
    savings_usd: float | None = None
    savings_comparable: bool = Field(default=False, description="the alternative meets everything the proposal "
                                     "does: its saving is like for like")
    alternative_gives_up: list[GivenUp] = []
    alternative_is_proposal: bool = Field(default=False, description="the best alternative found is the proposal's "
                                          "own setup: its GPU, count, nodes and way of acquiring them (renting, "
                                          "from its provider), at its cost")
    assumptions: list[Assumption] = []
    trace: list[TraceEntry] = []
    steps: list[StepSummary] = []
    charts: Charts = Charts.model_construct()  # not Charts(): that built its validator at import
    knowledge_dates: dict[str, str] = {}
    stale_prices: list[StalePrice] = []
    prices_used: list[PriceUsed] = Field(
        default=[], description="the prices the proposal's cost and the alternative's rest on (alternative's "
                                "items start 'alternative: ')")
    cards: list[UsedCard] = []
    currency: CurrencyInfo | None = None
    house_rules: HouseRules | None = None
    policy: dict[str, Any] = Field(default={}, description="the policy values the decision used")
    ranking: Sentence | None = None
