"""A solved plan program read back as typed records (what :mod:`.extract` reads from the solver's
values, amounts in USD): the money lines, the purchases and commitments, each month's figures and
placements, the hours each workload ran. The plan's facts (:mod:`.judge`) and its result are built
from them by attribute; the result converts amounts to the report's currency."""

from __future__ import annotations

from dataclasses import field
from typing import Any

from ..frozen import frozen
from ..messages import Phrase


@frozen
class MoneyLine:
    """A line of the plan's cash flow: its month, kind and GPU type, what it pays for and its formula
    as message ids with values (reports/messages.yaml item.plan.*, formula.plan.*)."""

    month: int
    kind: str  # capex | hosting | resale | power | rent | fee
    gpu: str  # the GPU type's id
    item: tuple[Phrase, ...]
    amount: float  # USD
    formula: tuple[Phrase, ...]
    inputs: dict[str, Any]  # the formula's operands, as the JSON shows them
    provider: str = ""  # a rent line's provider ('' other kinds)
    as_of: str = ""  # a rent line's offer date, as its price source gives it ('' other kinds or undated)


@frozen
class Bought:
    """Units of a GPU type bought in a month."""

    month: int
    gpu: str
    units: int
    unit_gpus: int
    count: int  # GPUs
    amount: float  # USD
    arrives: int  # the month they start working
    sold_as: str
    as_of: str
    source: str
    site: str = ""  # where it is hosted (tco.yaml hosting)
    host_key: str = ""  # the tco.yaml host share its price rests on ('' none)


@frozen
class Placed:
    """A workload's GPUs in a month: owned, bought or rented (on demand or on a committed term)."""

    workload: str
    gpu: str
    count: int
    acquisition: str  # owned | buy | rent
    gpu_hours: float
    term: str = ""  # a rental's: on-demand, or the committed term
    copies: int = 0  # a service: the copies it runs
    runs: float = 0.0  # a job: the runs placed


@frozen
class Committed:
    """A reserved term a service is rented on."""

    workload: str
    gpu: str
    count: int
    copies: int
    term: str
    months: int
    start: int
    provider: str
    instance: str | None
    usd_per_hour: float
    amount: float  # USD, over the term
    as_of: str

    def fields(self) -> dict[str, Any]:
        return {"workload": self.workload, "gpu": self.gpu, "count": self.count, "copies": self.copies,
                "term": self.term, "months": self.months, "start": self.start, "provider": self.provider,
                "instance": self.instance, "usd_per_hour": self.usd_per_hour, "amount": self.amount,
                "as_of": self.as_of}


@frozen
class MonthFigures:
    """One month of the plan, in USD: the money by kind, the fleet and how busy it is, the placements."""

    month: int
    capex: float
    rent: float
    hosting: float
    power: float
    opex: float
    fees: float
    resale: float
    total: float
    utilisation: float
    utilisation_by_gpu: dict[str, float]
    fleet: dict[str, int]  # GPUs held, by type
    placements: list[Placed]
    work_hours: float
    own_hours: float
    capacity_hours: float


@frozen
class Extracted:
    """The solution of one plan program (the plan's, or a baseline's)."""

    lines: list[MoneyLine]
    purchases: list[Bought]
    months: list[MonthFigures]
    unplaced: dict[str, list[int]]  # workload -> the months it is left out
    over: dict[str, float]  # budget row -> USD over it
    rented_hours: dict[str, float]  # workload -> GPU-hours rented
    total_hours: dict[str, float]  # workload -> GPU-hours
    fleet: dict[str, list[int]]  # GPU type -> GPUs held, by month (0..H)
    used_hours: dict[tuple[str, int], float]  # (GPU type, month) -> owned GPU-hours used
    commitments: list[Committed] = field(default_factory=list)
    billed_hours: dict[str, float] = field(default_factory=dict)  # GPU type -> GPU-hours its on-demand rent lines bill


@frozen
class HostedApi:
    """A hosted API's price for a service's traffic, beside what self-hosting it adds to the plan (USD
    per month); without ``provider``, the service has no request rate to compare (``note`` says so)."""

    workload: str
    provider: str = ""
    provider_id: str = ""
    model: str = ""
    offered_as: str = ""
    input_per_million: float = 0.0
    output_per_million: float = 0.0
    price_currency: str = "USD"
    api_per_month: float = 0.0
    self_host_per_month: float | None = 0.0  # None: nothing in the plan hosts the service
    input_tokens_per_month: float = 0.0
    output_tokens_per_month: float = 0.0
    break_even_requests_per_s: float | None = None
    note: str = ""
    as_of: str = ""
    source: str = ""
