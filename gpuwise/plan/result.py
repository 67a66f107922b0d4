"""What ``gpuwise plan`` returns: ``PlanResult.model_dump(mode="json")`` is the contract's plan JSON
(``total``, ``currency``, ``baselines``, ``purchases``, ``months``, ``unplaced``, ``api``,
``findings``, ``trace``) plus what the reports need: the brief answer, the money lines (typed
records that can become the ledger's), the binding constraints, the options each workload had.

Every amount is in ``currency`` (the plan file's, or the one asked for); ``usd_cny`` is the rate
used, so ``amount / usd_cny`` is USD for a CNY plan.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..prebuilt import Prebuilt
from ..results import (
    MONEY_WHOLE_FROM,
    Assumption,
    CurrencyInfo,
    Finding,
    HouseRules,
    PriceUsed,
    StalePrice,
    StepBatch,
    TraceEntry,
)

LineKind = Literal["rent", "capex", "server", "network", "hosting", "power", "licence", "fee", "setup", "resale"]


class Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class Line(Frozen):
    """One money line of the plan: a month, what it pays for, how it was computed."""

    month: int
    kind: LineKind
    item: str
    amount: float
    formula: str
    item_phrases: list[Any] = Field(default=[], description="the item as [separator, message id, values] parts "
                                    "(reports/messages.yaml item.plan.*)")
    inputs: dict[str, Any] = {}
    formula_phrases: list[Any] = Field(default=[], description="the formula as [separator, message id, values] "
                                       "parts (reports/messages.yaml formula.plan.*)")


class Placement(Frozen):
    workload: str
    gpu: str
    count: int = Field(description="GPUs the workload uses at once")
    acquisition: Literal["owned", "buy", "rent"]
    term: str = Field(default="", description="rent: on-demand, or the committed term (1-month, 1-year, 3-year)")
    runs: float = Field(default=0.0, description="training: runs this month on these GPUs")
    copies: int = Field(default=0, description="serving: copies of the model on these GPUs")
    gpu_hours: float = 0.0


class Month(Frozen):
    month: int
    capex: float
    rent: float
    opex: float = Field(description="hosting + power")
    fees: float
    total: float = Field(description="capex + rent + opex + fees + resale")
    resale: float = Field(default=0.0, description="negative: what the hardware bought fetches at the end")
    hosting: float = 0.0
    power: float = 0.0
    utilisation: float = Field(description="GPU-hours used / GPU-hours of the fleet (owned and bought) this month")
    utilisation_by_gpu: dict[str, float] = {}
    fleet: dict[str, int] = Field(default={}, description="GPUs owned or arrived, by type")
    demand_gpus: dict[str, int] = Field(default={}, description="GPUs the month's work uses at once, by type")
    placements: list[Placement] = []


class Purchase(Frozen):
    month: int
    gpu: str
    count: int = Field(description="GPUs bought")
    amount: float = Field(description="capex: hardware, host and network of the units")
    units: int = 1
    unit_gpus: int = 1
    sold_as: str = ""
    arrives: int = Field(default=0, description="first month the GPUs run work")
    price_as_of: str = ""
    host_as_of: str = Field(default="", description="the date of the knowledge/tco.yaml host share the amount adds "
                            "around the cards ('' where the price holds its host); review65: the Purchases table "
                            "gave only the cards' date beside an amount whose host was priced years before")
    source: str = ""
    site: str = Field(default="", description="where the units run (tco.yaml hosting: office, colocation, "
                      "datacenter); a month's purchase of one type split over two sites is two purchases")
    buy_ram_said: str = Field(default="", description="what its price leaves out of the host RAM a run's CPU offload "
                              "on it needs, as recommend says it beside a purchase's price (MEM-HOST-RAM-BUY fired of "
                              "a run on the type bought); empty where nothing is left out")
    buy_ram_said_phrases: list[Any] = Field(default=[], description="the same as [separator, message id, values] "
                                            "parts (reports/messages.yaml buy.ram_not_priced)")


class Unplaced(Frozen):
    workload: str
    reason: str
    months: list[int] = []
    reason_phrases: list[Any] = Field(default=[], description="the reason as [separator, message id, values] "
                                      "parts (reports/messages.yaml plan.unplaced.*, plan.why.*)")


class ApiAlternative(Frozen):
    workload: str
    provider: str
    self_host_per_month: float | None = Field(description="what serving this workload adds to the plan, per month "
                                                      "(null: nothing in the plan hosts it)")
    api_per_month: float = Field(description="the same traffic at the API's price, per month")
    model: str = ""
    offered_as: str = ""
    input_per_million: float = 0.0
    output_per_million: float = 0.0
    price_currency: str = "USD"
    input_tokens_per_month: float = 0.0
    output_tokens_per_month: float = 0.0
    break_even_requests_per_s: float | None = Field(
        default=None, description="average request rate at which the API costs what self-hosting does")
    cheaper: Literal["api", "self-host"] = "self-host"
    note: str = ""
    as_of: str = ""
    source: str = ""


class ApiUnpriced(Frozen):
    """A service whose model no hosted API in the catalog (knowledge/apis.yaml) is known to serve: nothing to
    compare its self-hosting with."""

    workload: str
    model: str = Field(description="the model's id, which no provider in knowledge/apis.yaml prices")


class Binding(Frozen):
    """A constraint of the program and whether it decided the plan."""

    constraint: str
    kind: Literal["budget", "capacity", "deadline", "latency", "memory", "delivery"]
    binding: bool
    value: float | None = Field(default=None, description="dual: what one more unit of it is worth (money), or slack")
    note: str = ""
    subject: str = Field(default="", description="the budget period, the GPU type or the workload")
    months: list[int] = []
    held_months: list[int] = Field(default=[], description="capacity: the months every GPU of the type is held at "
                                   "once (however many hours each runs)")
    hours_months: list[int] = Field(default=[], description="capacity: the months every schedulable hour of the "
                                    "type is used")
    narrow_months: list[int] = Field(default=[], description="capacity: the months a run on the type needs more of "
                                     "its GPUs at once than the copies and runs held leave free")
    gpus: list[str] = Field(default=[], description="GPU types a deadline, latency target or memory rules out")
    over: float = Field(default=0.0, description="budget: the amount over it")


class Baseline(Frozen):
    name: Literal["rent_all", "buy_for_peak"]
    total: float | None
    allowed: bool = Field(description="keeps to the plan's constraints (acquisition, budget, every workload placed)")
    note: str = ""
    why_not: Literal["", "unplaced", "over_budget", "acquisition", "no_type"] = ""
    purchases: list[Purchase] = []


class CopySize(Frozen):
    """One size a service's copy was tried at: its GPUs and what its copies need at the load's peak month."""

    count: int = Field(description="GPUs a copy")
    capacity: float = Field(description="a copy's output tokens/s (or sequences) within the targets")
    layout: str = ""
    copies: int = Field(description="copies the peak month's load needs")
    gpus: int = Field(description="copies x count")
    rent_per_hour: float | None = Field(None, description="those copies rented, an hour (null: no rental)")

    @classmethod
    def listed(cls, rows: list[dict[str, Any]], money: Any) -> list[CopySize]:
        """The sizing's rows (plan.copies.said), their rent in the plan's currency (``money``: USD -> it)."""
        return [cls(**{**c, "rent_per_hour": money(c["rent_per_hour"]) if c["rent_per_hour"] is not None else None})
                for c in rows]


class Option(Frozen):
    workload: str
    gpu: str
    count: int
    wall_hours: float = 0.0
    capacity: float = 0.0
    rent_per_hour: float | None = None
    rent_provider: str | None = None
    layout: str = ""
    step_batch: StepBatch | None = Field(None, description="training: the run's optimizer step on `count` in tokens "
                                         "and whole micro-batches (additive, product65); null for a service")
    batch_asked: float | None = Field(None, description="training: the global batch the workload states, else the "
                                      "one assumed (additive, product65)")
    batch_stated: bool = Field(False, description="batch_asked is the workload's stated figure")
    rent_count: int = Field(0, description="a run rented by the instance: the GPUs it runs on, every GPU paid for; "
                                           "a service's rented copy sized apart from the owned or bought one (the "
                                           "type's rental smaller instances than that copy): its GPUs (0: on count)")
    rent_capacity: float = Field(0.0, description="that rented copy's capacity, on the instances over their network "
                                                  "(0: capacity)")
    rent_wall_hours: float = Field(0.0, description="its wall hours on them (0: wall_hours)")
    buy_count: int = Field(0, description="a run on a type the plan only buys: the GPUs of the server bought it runs "
                                          "on (0: on count)")
    buy_wall_hours: float = Field(0.0, description="its wall hours on them (0: wall_hours)")
    own_count: int = Field(0, description="a run on an owned type: the owned GPUs, of one owned server, it may run on "
                                          "beside count (0: on count)")
    own_wall_hours: float = Field(0.0, description="its wall hours on them (0: wall_hours)")
    own_capacity: float = Field(0.0, description="a service's copy on the owned GPUs where it spans their servers: "
                                                 "its capacity over them, on the network between them (0: capacity)")
    fewest_refused: str = Field("", description="the rule that keeps the run on count off the owned GPUs (their "
                                                "servers' stated RAM) while it may run on own_count ('' none)")
    pack_copies: int = Field(0, description="a service: the copies one rental holds where one rented whole (an "
                                            "instance, or a node an offer rents only whole) costs less a copy, full, "
                                            "than a copy rented alone (0: none)")
    pack_gpus: int = Field(0, description="that rental's GPUs, every one paid for")
    pack_per_hour: float | None = Field(None, description="that rental's rate, all its GPUs")
    pack_provider: str | None = None
    copy_sizes: list[CopySize] = Field([], description="a service: the copy sizes tried where more than the fewest "
                                       "GPUs that hold a copy were (plan/copies.py); count is the one whose copies "
                                       "cost least for the load ([]: only the fewest)")
    rent_copy_sizes: list[CopySize] = Field([], description="a service whose rented copy is sized apart (rent_count, "
                                            "rent_capacity): that copy's sizes tried, on the instances over their "
                                            "network, rent_count the one whose copies' rent is least (its one size "
                                            "where only the fewest was tried; []: not sized apart)")


class Commitment(Frozen):
    """Copies of a service rented on a committed term: paid every hour of the term."""

    workload: str
    gpu: str
    count: int = Field(description="GPUs paid for")
    copies: int
    term: str = Field(description="1-month | 1-year | 3-year")
    months: int
    start: int = Field(description="the month the commitment starts")
    provider: str
    instance: str | None = None
    usd_per_hour: float = Field(description="the committed rate for all its GPUs, in the result's currency")
    amount: float = Field(description="the whole term, months after the horizon included")
    as_of: str = ""


class Rental(Frozen):
    """On-demand renting of one GPU type over the plan (committed terms are :class:`Commitment`)."""

    gpu: str
    gpu_hours: float = Field(description="the GPU-hours of the work placed on it (the GPUs the runs and copies use)")
    months: list[int] = Field(description="the months it is rented in")
    amount: float
    billed_gpu_hours: float | None = Field(default=None, description="the GPU-hours its rent lines bill: the GPUs "
                                           "each pays for (gpus_paid: whole racks, an instance rented whole) x "
                                           "their hours; above gpu_hours where a rental bills more GPUs than it uses")
    billed_said: str = Field(default="", description="why it bills more GPUs than the work uses, where PLAN-RENT-STEP "
                             "fired of the type: FEE-RENT-STEP-CHOSEN's words ('coreweave rents them only in whole "
                             "steps of 72, so 72 GPUs are billed and the job uses 1'; '' none)")
    billed_said_phrases: list[Any] = Field(default=[], description="the same as [separator, message id, values] "
                                           "parts, which a report words in its own language")
    rented_as: str = Field(default="", description="where its offers are sold whole (an instance of several GPUs, "
                           "a rack or node rented only whole): the type with the rentals at once, their offer and "
                           "the GPUs each ('NVIDIA L4 24GB as 1 x g6.48xlarge from aws, 8 GPUs each'; '' where it is "
                           "rented by the GPU)")
    rented_as_phrases: list[Any] = Field(default=[], description="the same as [separator, message id, values] parts")

    @property
    def bills_more(self) -> bool:
        """Whether the rentals bill more GPU-hours than the work on them (whole racks, instances rented whole)."""
        return self.billed_gpu_hours is not None and self.billed_gpu_hours > self.gpu_hours + 0.05


class Tie(Frozen):
    """The plan that buys nothing, where the answer buys and the two cost the same within the solver's tolerance."""

    total: float = Field(description="what buying nothing costs over the plan (the owned GPUs and rentals alone)")
    gap: float = Field(description="the solver's relative gap (0.001: 0.1 %), within which the two totals lie")
    more: float = Field(description="what buying nothing costs more (less, negative), of the totals as shown")


class Answer(Frozen):
    """The brief answer, as data (the reports word it)."""

    buy_now: list[Purchase] = []
    buy_later: list[Purchase] = []
    rent: list[Rental] = []
    commitments: list[Commitment] = []
    monthly_average: float = 0.0
    beats: Literal["rent_all", "buy_for_peak", ""] = ""
    saving: float = Field(0.0, description="the baseline's total less the plan's, each as the reports show it")
    buy_nothing: bool = False
    tie: Tie | None = Field(None, description="buying nothing costs the same within the solver's tolerance")
    why_not: Literal["", "unplaced", "over_budget"] = Field(
        "", description="why this plan does not keep to its constraints, as a baseline's why_not: work it leaves "
                        "unplaced, a budget it goes over; '' where it keeps to them")

    @staticmethod
    def shown_saving(baseline: float, total: float) -> float:
        """What the plan saves against a baseline: the difference of the two totals as the reports show them (whole
        units from 100, cents below: render.fmt.Fmt.local), so the saving said is the difference of the figures
        beside it ($78,240 less $77,474: $766, where the unrounded $766.57 read $767)."""
        def shown(v: float) -> float:
            return round(v) if abs(v) >= MONEY_WHOLE_FROM else round(v, 2)
        return round(shown(baseline) - shown(total), 2)


class OwnedFleet(Frozen):
    """GPUs the team already owns: how many, where they are hosted and what the plan bills for hosting them, a month
    on average over its months: their lines (their kW where their site bills its minimum over all it holds) and the
    rest up to that minimum in the months the site holds only owned GPUs (:func:`.judge.owned_hosting`)."""

    gpu: str
    name: str
    count: int
    hosting: str
    hosting_per_month: float = Field(description="USD a month on average: what the plan's hosting lines bill for them")
    server_gpus: int = Field(0, description="the GPUs of their largest server (owned[].count over its servers, "
                             "rounded up), 0 where the plan file does not state their servers")
    server_sizes: list[int] = Field([], description="the GPUs of each of their servers, largest first: owned[].count "
                                    "spread over its servers as evenly as it goes (8 in 3 servers: 3, 3, 2); empty "
                                    "where the plan file does not state their servers")
    network: str = Field("", description="the network between their servers that a run or copy over them crosses, "
                         "its hours estimated over it: the plan file's owned[].network, else the default for the "
                         "GPU's class")

    def spans(self, gpus: int) -> int:
        """The servers a run or copy of ``gpus`` of them spans (:func:`servers_spanned`)."""
        return servers_spanned(self.server_sizes, gpus)


def server_sizes(entries: list[tuple[int, int]]) -> list[int]:
    """The GPUs of each server, largest first, of owned entries given as (count, servers): each entry's count
    spread as evenly as it goes (8 in 3 servers: 3, 3, 2)."""
    sizes: list[int] = []
    for count, servers in entries:
        q, r = divmod(count, servers)
        sizes += [q + 1] * r + [q] * (servers - r)
    return sorted((x for x in sizes if x), reverse=True)


def servers_spanned(sizes: list[int], gpus: int) -> int:
    """The fewest of the servers ``sizes`` that hold ``gpus`` GPUs, the largest taken first (8 of 3, 3, 2: all 3;
    hostile round 42: 8 A100s in 3 servers were said to run 'over 4 servers', 8 over 8 // 3 = 2 a server); 1 where
    no servers are stated, and past them the largest's count a server."""
    held = 0
    for k, n in enumerate(sizes, 1):
        held += n
        if held >= gpus:
            return k
    return max(1, len(sizes) + (-(-(gpus - held) // sizes[0]) if sizes else 0))


class PlannedWorkload(Frozen):
    """A workload as the plan sized it: training runs per month, or a service's load per month (in
    ``measure``) and request rate; why each GPU type cannot take it, and why the owned fleet cannot
    (GPU id -> the reason's text)."""

    name: str
    task: str
    model: str
    kind: Literal["training", "serving"]
    cadence: str
    runs: list[int | float] = Field(description="training: runs per month (month 1 first)")
    demand: list[int | float] = Field(description="serving: load per month, in measure")
    measure: str
    requests_per_s: list[int | float] = Field(description="serving: requests/s per month")
    why_not: dict[str, str] = {}
    owned_reason: dict[str, str] = {}


class SolverInfo(Frozen):
    """The solver that answered, its status and objective, the program's size and notes, and the GPU
    types it weighed."""

    name: str
    status: str
    objective_usd: float
    variables: int
    rows: int
    notes: list[str] = []
    gpu_types: list[str] = []


class PlanResult(Frozen):
    total: float
    currency: Literal["USD", "CNY"]
    baselines: dict[str, float | None]
    purchases: list[Purchase]
    months: list[Month]
    unplaced: list[Unplaced]
    api: list[ApiAlternative]
    api_unpriced: list[ApiUnpriced] = Field(default=[], description="services whose model no hosted API in "
                                            "knowledge/apis.yaml prices: not compared with one")
    findings: list[Finding]
    trace: list[TraceEntry]
    answer: Answer
    horizon_months: int
    usd_cny: float
    currency_info: CurrencyInfo | None = None
    total_usd: float = 0.0
    baseline_details: list[Baseline] = []
    binding: list[Binding] = []
    lines: list[Line] = []
    options: list[Option] = []
    owned: list[OwnedFleet] = []
    gpu_names: dict[str, str] = Field(default={}, description="GPU id -> display name, for every type the plan weighed")
    workloads: list[PlannedWorkload] = []
    solver: SolverInfo
    assumptions: list[Assumption] = []
    house_rules: HouseRules | None = None
    knowledge_dates: dict[str, str] = {}
    prices_used: list[PriceUsed] = Field(
        default=[], description="the prices the plan rests on, as recommend's: each rental offer (on demand or the "
                                "term it commits to), each type bought and its host share, the exchange rate")
    stale_prices: list[StalePrice] = Field(default=[], description="the prices a data-freshness rule calls stale")


def complete() -> None:
    """Build every plan record's validator now, from a plain frame. The records defer their build (``defer_build``)
    to their first instance, when pydantic rebuilds the model from its caller's frame locals; the planner makes its
    first ones inside list comprehensions, and CPython 3.13.0 crashes (SIGSEGV) reading the locals of a frame that
    runs an inlined comprehension there (``gpuwise plan`` on examples/plan-team-4090.yaml, from the readme check on
    3.13). Built here first, no instance asks for a rebuild."""
    todo = [Frozen]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls is not Frozen and not cls.__pydantic_complete__:
            cls.model_rebuild()
