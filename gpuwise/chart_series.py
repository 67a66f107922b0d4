"""The series a result's charts carry (``charts`` of the recommend and audit JSON) as typed records.

The estimators and the decision build them (:func:`gpuwise.estimators.cost.cost_chart`, the
recommendation's memory bars and time/cost points), the views read their attributes, and the
JSON writes them with the keys it always had: a series that is not there is left out, not
written as ``null`` (:class:`Charts`), and a cost curve carries only the lines it has
(:class:`CostCurve`).
"""

from typing import Any, Literal

from .prebuilt import Prebuilt
from .pyd import BaseModel, ConfigDict, Field, model_serializer

Number = int | float
"""A figure as it was computed: an int stays an int in the JSON (a ``float`` field would write 85520809984
as 85520809984.0)."""


class _Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class MemoryBar(_Frozen):
    """One bar of the memory chart: a configuration's bytes per GPU by part, against the card."""

    label: str
    capacity: Number | None = None
    usable: Number | None = None
    parts: dict[str, int] = Field(default={}, description="bytes per GPU by memory part (results.MEMORY_PARTS)")


class TimeCostPoint(_Frozen):
    """One point of the time/cost scatter. ``count``, ``gpu`` and ``acquisition`` are the label's
    parts, from which a report names the point in its own language (None: a point a view made from
    a candidate, named by ``label``); ``role`` is a view's tag ("the alternative"), not in the JSON."""

    label: str
    count: int | None = None
    gpu: str | None = None
    acquisition: str | None = None
    wall_days: Number | None = None
    cost_usd: Number | None = None
    feasible: bool = True
    chosen: bool = False
    role: str = Field(default="", exclude=True)


class CostCurve(_Frozen):
    """Cumulative cost of renting and of buying over a configuration's own period (the job's hours,
    a committed term or the project's months), sampled at ``x``. The rent line and its total are
    there when the configuration can be rented, the buy line and its figures when it can be
    bought; ``break_even`` (None: no crossing in the period) when both are."""

    unit: Literal["months", "hours"]
    x: list[Number]
    period: str
    span: Number
    rent: list[Number] | None = None
    rent_total: Number | None = None
    buy: list[Number] | None = None
    buy_cash_out: Number | None = None
    buy_upfront: Number | None = None
    resale: Number | None = None
    resale_after_months: Number | None = None
    buy_net: Number | None = None
    break_even: Number | None = None
    label: str = ""

    @model_serializer(mode="wrap")
    def _lines_it_has(self, handler: Any) -> dict[str, Any]:
        out = handler(self)
        if self.rent is None:
            for k in _RENT:
                out.pop(k, None)
        if self.buy is None:
            for k in _BUY:
                out.pop(k, None)
        if self.rent is None or self.buy is None:
            out.pop("break_even", None)
        if not self.label:
            out.pop("label", None)
        return out


_RENT = ("rent", "rent_total")
_BUY = ("buy", "buy_cash_out", "buy_upfront", "resale", "resale_after_months", "buy_net")


class Charts(_Frozen):
    """The series of a result's charts; a series not drawn is None and left out of the JSON."""

    memory: list[MemoryBar] | None = None
    time_cost: list[TimeCostPoint] | None = None
    cost_curve: CostCurve | None = None
    proposal_cost_curve: CostCurve | None = Field(default=None, description="an audit's: the proposal's own curve")

    @model_serializer(mode="wrap")
    def _series_it_has(self, handler: Any) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}
