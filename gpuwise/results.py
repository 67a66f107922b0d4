"""Results: what ``estimate``, ``recommend`` and ``audit`` return.

``model_dump(mode="json")`` of each is exactly the JSON the contract defines (required
keys) plus the extra keys reports need: the formulas, assumptions and sources.
"""

from typing import TYPE_CHECKING, Any, Literal

from .chart_series import Charts
from .ledger import Ledger, Timeline
from .prebuilt import Prebuilt
from .pyd import BaseModel, ConfigDict, Field, model_serializer
from .results_serving import ServingOut
from .results_training import NO_TRAINING, TrainingLayout, TrainingOut, TrainingTime

if TYPE_CHECKING:
    from .results_audit import AuditResult, GivenUp, UsedCard  # noqa: F401 - named here (see __getattr__)

MONEY_WHOLE_FROM = 100.0
"""The amount from which reports show money in whole units, cents below (render.fmt.Fmt.local; the plan's
saving is worked out on the totals as so shown: plan.result.Answer.shown_saving)."""
SEVERITIES = ("blocker", "warning", "info")
TOPICS = ("memory", "compute", "interconnect", "cost", "compatibility", "used-hardware", "cloud-fees",
          "power-cooling", "licensing", "data-freshness")
CORE_STEPS = ("memory", "compute", "interconnect", "tco")
STEPS = (*CORE_STEPS, "pitfalls")
STAGES = (*CORE_STEPS, "decided")
"""The stages a candidate passes through in the rule chain; rules of step ``pitfalls`` see ``decided``."""
MEMORY_PARTS = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")
"""One definition each: the finding topics, the decision steps and the memory breakdown's parts."""

Severity = Literal[SEVERITIES]  # type: ignore[valid-type]
Topic = Literal[TOPICS]  # type: ignore[valid-type]
Step = Literal[STEPS]  # type: ignore[valid-type]
Stage = Literal[STAGES]  # type: ignore[valid-type]


class Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class Finding(Frozen):
    """One judgement a rule made: what is wrong (or notable), the evidence, the fix, the source.

    ``message`` and ``fix`` are the English sentences (amounts in USD); ``template``,
    ``fix_template`` and ``values`` let a report write them in its own language and currency."""

    rule: str
    severity: Severity
    topic: Topic
    message: str
    evidence: dict[str, Any] = {}
    fix: str = ""
    source: str = ""
    step: Step = "pitfalls"
    subject: str = Field(default="", description="what the finding is about: a GPU, a candidate, a card")
    candidate: str = Field(default="", description="the configuration a finding about one candidate judged: its "
                           "key, GPU x count : acquisition ('gb10x64:rent'); empty for a finding about the job, a "
                           "GPU's software, a price or a card")
    house: bool = Field(default=False, description="a rule from the user's --rules directory")
    template: str = ""
    fix_template: str = ""
    values: dict[str, Any] = {}


class TraceEntry(Frozen):
    """One rule firing: which rule, at which step and stage, what it concluded and from what."""

    rule: str
    step: str
    conclusion: str
    facts: dict[str, Any] = {}
    source: str = ""
    subject: str = ""
    stage: str | None = None
    action: str = ""
    template: str = ""
    values: dict[str, Any] = {}


class Sentence(Frozen):
    """A sentence by id: its English text, its template and the values that fill it."""

    id: str
    text: str
    template: str
    values: dict[str, Any] = {}


class CurrencyInfo(Frozen):
    """The exchange rate a result carries, so a report in CNY needs nothing else."""

    usd_cny: float
    as_of: str = ""
    source: str = ""
    asked: Literal["USD", "CNY"] = Field(
        default="USD", description="the currency the input wrote its amounts in: the report's default")


class HouseRules(Frozen):
    """The user's own rules (--rules DIR): which were added, which replaced a built-in rule."""

    directory: str = ""
    added: list[str] = []
    replaced: dict[str, str] = Field(default={}, description="built-in rule id -> the house file replacing it")


class FormulaTerm(Frozen):
    name: str
    value: float
    unit: str
    formula: str
    inputs: dict[str, Any] = {}
    note: str = ""
    note_phrases: list[Any] = Field(default=[], description="the note as [separator, message id, values] parts "
                                    "(reports/messages.yaml), for a report in another language")
    input_phrases: dict[str, list[Any]] = Field(default={}, description="inputs gpuwise words (a layout label), "
                                                "by key: [separator, message id, values] parts")
    formula_phrases: list[Any] = Field(default=[], description="the formula as [separator, message id, values] "
                                       "parts (reports/messages.yaml formula.*; a field without a value is an "
                                       "operand: operand.<field> names it, inputs.<field> is its number)")


class Assumption(Frozen):
    field: str
    value: Any
    reason: str
    message_id: str = ""
    template: str = ""
    values: dict[str, Any] = {}


class MemoryOut(Frozen):
    per_gpu_bytes: int
    total_bytes: int
    breakdown: dict[str, int]
    usable_per_gpu_bytes: int | None = None
    capacity_per_gpu_bytes: int | None = None
    layout: str = ""
    layout_phrases: list[Any] = Field(default=[], description="the layout as [separator, message id, values] "
                                      "parts (reports/messages.yaml memory_layout.*), for a report in another language")
    peak_phase: str = ""
    phases: dict[str, int] = {}
    host_ram_bytes_per_node: int = 0
    nvme_bytes_per_node: int = Field(default=0, description="NVMe offload: the state offloaded per server, which its "
                                     "drives hold (host_ram_bytes_per_node is then 0: the host RAM holds only buffers)")
    offload_target: str = "none"
    terms: list[FormulaTerm] = []
    notes: list[str] = []
    notes_phrases: list[Any] = Field(default=[], description="each note as [separator, message id, values] parts "
                                     "(reports/messages.yaml note.*), for a report in another language")


class ComputeOut(Frozen):
    flops: float
    terms: list[FormulaTerm] = []


Number = int | float
"""A figure as it was computed (an int stays an int in the JSON; a ``float`` field writes 0 as 0.0)."""


class BuyLines(Frozen):
    """What owning the configuration costs, item by item (USD; the resale negative)."""

    cards: Number
    server: Number
    network: Number
    power: Number
    hosting: Number
    licences: Number
    resale: Number


class GpuCost(Frozen):
    """The price behind an estimate's cost: renting and buying it, which way the cost step chose,
    the month buying pays off, the hourly rate, the offer and the price's date."""

    rent_usd: Number | None = None
    buy_usd: Number | None = None
    acquisition: str | None = None
    break_even_month: int | None = None
    usd_per_gpu_hour: Number | None = None
    provider: str | None = None
    instance: str | None = None
    price_as_of: str | None = None
    buy_lines: BuyLines | None = Field(default=None, description="a configuration that can be bought: "
                                       "its cost by item (left out otherwise)")

    @model_serializer(mode="wrap")
    def _lines_when_bought(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        if self.buy_lines is None:
            del out["buy_lines"]
        return out


class RuleRef(Frozen):
    rule: str
    title: str


class GpuOut(Frozen):
    id: str
    name: str = ""
    count: int
    nodes: int = 1
    fits: bool
    rejected_by: list[RuleRef] = Field(default=[], description="the rules that refuse this configuration, in the rule "
                                       "book's order (rules/*.yaml id and title): a recommendation would not offer it")
    idle_gpus: int = Field(default=0, description="inference: GPUs of the count that hold no model copy (count - "
                           "copies x GPUs a copy); paid for, counted in mfu, not in memory.total_bytes")
    gpu_hours: float | None = Field(default=None, description="training: GPU-hours of the run as published runs count "
                                    "them: the GPUs x the run's hours, the start-up and wind-down (start_up_hours) "
                                    "left out; timeline.gpu_hours is billed_hours x these GPUs, "
                                    "timeline.billed_gpu_hours billed_hours x the GPUs a rental bills "
                                    "(timeline.billed_gpus)")
    wall_hours: float | None = Field(default=None, description="training: the run's wall-clock hours, start-up and "
                                     "wind-down included (timeline.wall_hours)")
    start_up_hours: float | None = Field(default=None, description="training: the start-up and wind-down hours that "
                                         "wall_hours and timeline.gpu_hours include and gpu_hours leaves out")
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None
    prefill_tokens_per_s: float | None = None
    cost_usd: float | None = None
    acquisition: str | None = None
    strategy: str = ""
    strategy_phrases: list[Any] = Field(default=[], description="the strategy as [separator, message id, values] "
                                        "parts (reports/messages.yaml layout.*), for a report in another language")
    scaling_efficiency: float | None = None
    peak_tflops: float | None = None
    peak_kind: str = ""
    mfu: float | None = None
    terms: list[FormulaTerm] = []
    cost: GpuCost = GpuCost.model_construct()  # not GpuCost(): that built its validator at import
    ledger: Ledger | None = None
    timeline: Timeline | None = None
    # training (contract version 2): the layout chosen, and whether exactly what was asked fits
    fits_as_requested: bool | None = None
    layout: TrainingLayout | None = None
    training: TrainingOut | TrainingTime = Field(
        default=NO_TRAINING, description="planner figures: step terms, exposed communication, goodput, suggested "
        "changes as data (a model without a layout: its days alone; a service: {})")
    # inference (contract version 2): the serving model at the load, with the framework and layout
    serving: ServingOut | None = Field(
        default=None, description="max_concurrent_sequences, throughput_tokens_per_s (at concurrent_requests), "
        "max_throughput_tokens_per_s, ttft_s, tpot_s, framework, layout, targets met, curve")


class EstimateResult(Frozen):
    memory: MemoryOut
    compute: ComputeOut
    gpu: GpuOut | None = None
    workload: dict[str, Any] = {}
    assumptions: list[Assumption] = []
    knowledge_dates: dict[str, str] = {}


class StepBatch(Frozen):
    """A training layout's optimizer step (product65): every data-parallel replica (dp / cp of them) takes whole
    micro-batches, so the step's tokens may exceed the batch stated or assumed; an audit and a plan say so as
    recommend does (render.views.base ``batch_rounded``). The names are TrainingLayout's."""

    global_batch_tokens: int
    dp: int
    cp: int = 1
    grad_accum: int
    micro_batch: int


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
    strategy_phrases: list[Any] = Field(default=[], description="the strategy as [separator, message id, values] "
                                        "parts (reports/messages.yaml layout.*), for a report in another language")
    strategy_changes: list[str] = []
    strategy_changes_phrases: list[Any] = Field(default=[], description="the changes as one phrase: [separator, "
                                                "message id, values] parts (reports/messages.yaml change.*)")
    scaling_efficiency: float | None = None
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None
    provider: str | None = None
    instance: str | None = None
    reasons: list[str] = []
    reason_sentences: list[Sentence] = Field(default=[], description="the reasons with their templates and values")
    rules: list[str] = []
    score_usd: float | None = None
    stage: str = Field(default="", description="the furthest step the candidate reached in the rule chain")
    ledger: Ledger | None = Field(default=None, description="the money of this configuration, line by line")
    timeline: Timeline | None = Field(default=None, description="its wall-clock hours by part and the hours billed")
    serving: ServingOut | None = None
    step_batch: StepBatch | None = Field(default=None, description="training: the layout's optimizer step in tokens "
                                         "and whole micro-batches (additive, product65); null for a service")


class Recommendation(Frozen):
    gpu: str
    gpu_name: str = ""
    count: int
    nodes: int
    acquisition: str
    wall_days: float | None
    total_cost_usd: float | None
    summary: str
    summary_sentence: Sentence | None = None
    score_usd: float | None = Field(default=None, description="ranking score: cost + wall days x the value of a day")
    strategy: str = ""
    strategy_phrases: list[Any] = Field(default=[], description="the strategy as [separator, message id, values] "
                                        "parts (reports/messages.yaml layout.*), for a report in another language")
    provider: str | None = None
    instance: str | None = None
    decode_tokens_per_s: float | None = None
    decode_tokens_per_s_total: float | None = None
    gpu_hours: float | None = None
    ledger: Ledger | None = None
    timeline: Timeline | None = None
    serving: ServingOut | None = None


class StepSummary(Frozen):
    """A step's conclusion for the chosen candidate: the rule that passed it (or concluded), with
    its sentence, the other rules that fired at the step, and the formulas behind the numbers."""

    step: str
    conclusion: str
    rule: str = ""
    template: str = ""
    values: dict[str, Any] = {}
    rules: list[str] = []
    terms: list[FormulaTerm] = []


class StalePrice(Frozen):
    """A price a data-freshness rule called stale (rules/data-freshness.yaml), for the report's note:
    what it prices, its date and its age in days (-1 unknown)."""

    what: str
    as_of: str
    age_days: int | float
    what_phrases: list[Any] = Field(default=[], description="``what`` as message ids with values (price.what.*)")
    answer: bool | None = Field(default=None, description="a price the answer itself rests on (the recommendation's, "
                                "or the audited proposal's); false: another option's; none: not told (no answer)")

    @classmethod
    def of(cls, finding: Finding, what: str = "", answer: set[str] | None = None) -> "StalePrice":
        """From a data-freshness finding's values (``what`` when the finding names none); ``answer``: what the
        answer's own dated prices price (subjects.price_facts of the answer alone), when there is one."""
        v = finding.values
        said = v.get("what", what)
        return cls(what=said, as_of=v.get("as_of", ""), age_days=v.get("age_days", -1),
                   what_phrases=list(v.get("what_phrases") or []),
                   answer=None if answer is None else said in answer)


class PriceUsed(Frozen):
    """One price an answer rests on (gpuwise/prices/used.py): what it prices (``kind`` and that kind's
    fields, from which a report words it), its amount in its own currency and ``unit``, its date, age
    and source. ``item`` and ``unit`` are the English, their parts in ``item_phrases`` and
    ``unit_phrases`` (reports/messages.yaml price.*)."""

    item: str
    amount: int | float | None
    currency: str
    unit: str
    as_of: str | None
    age_days: int | None
    source: str
    check: str
    kind: Literal["rent", "buy", "host", "fx"]
    gpu: str | None = None
    provider: str | None = None
    instance: str | None = None
    term: str | None = None
    condition: str | None = None
    unit_gpus: int | None = None
    alternative: bool | None = Field(default=None, description="the audit alternative's price, not the proposal's")
    item_phrases: list[Any] = []
    unit_phrases: list[Any] = []

    @model_serializer(mode="wrap")
    def _own_fields(self, handler: Any) -> dict[str, Any]:
        """A kind's own fields only: a rental has no ``condition``, a purchase no ``provider``."""
        return {k: v for k, v in handler(self).items() if v is not None or k not in _KIND_FIELDS}


_KIND_FIELDS = frozenset({"gpu", "provider", "instance", "term", "condition", "unit_gpus", "alternative"})


class RecommendResult(Frozen):
    recommendation: Recommendation | None
    alternatives: list[Candidate] = Field(default=[], description="why not these: the best of each other GPU family "
                                          "and every GPU the user listed")
    ranking_note: Sentence | None = Field(default=None, description="why the answer won a tie")
    runner_up: Recommendation | None = None
    candidates: list[Candidate]
    findings: list[Finding]
    trace: list[TraceEntry]
    question: dict[str, Any] = {}
    assumptions: list[Assumption] = []
    steps: list[StepSummary] = []
    charts: Charts = Charts.model_construct()  # not Charts(): that built its validator at import
    knowledge_dates: dict[str, str] = {}
    stale_prices: list[StalePrice] = []
    prices_used: list[PriceUsed] = Field(
        default=[], description="the prices the answer rests on: item, amount, currency, unit, as_of, age_days, "
                                "source, check")
    estimate: EstimateResult | None = None
    currency: CurrencyInfo | None = None
    house_rules: HouseRules | None = None
    policy: dict[str, Any] = Field(default={}, description="the policy values the decision used")
    ranking: Sentence | None = None


_AUDIT = ("GivenUp", "UsedCard", "AuditResult")
"""The audit's own records, in :mod:`gpuwise.results_audit`: a ``recommend`` or ``estimate``
process never builds one, and their classes (a used card's ninety-odd fields) were a fifth of
what making this module's classes cost every process. Named here as before, imported on first use."""


def __getattr__(name: str) -> Any:
    if name in _AUDIT:
        from . import results_audit

        return getattr(results_audit, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
