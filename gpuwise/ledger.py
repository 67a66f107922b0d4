"""The money and the time of one configuration, as typed records built once and read by every view.

A :class:`Ledger` is a list of postings (rent, the capital items of a purchase, hosting, power,
licences, cloud fees, set-up, resale), each with the formula and inputs that priced it; its
``total`` is the sum of its lines and nothing else, ``cash_out`` what must be paid before any
resale and ``net`` what is left after it. A :class:`Timeline` is the wall-clock time as a sum of
named parts, the hours billed and the GPU-hours they make. Reports, charts and JSON quote these
figures; none of them recomputes a total (the plain-text accounting idea: a report is a query over
the postings, never a second calculation).

Amounts are in USD (``currency``); a report in yuan converts them at the result's dated rate.
"""

import math
from collections.abc import Iterable
from typing import Any, Literal

from . import lean
from .later import later
from .messages import Phrase, formula_text, phrase_json, phrase_text
from .prebuilt import Prebuilt
from .pyd import BaseModel, ConfigDict

LineKind = Literal["rent", "capex", "server", "network", "hosting", "power", "licence", "fee", "setup", "resale"]
PeriodKind = Literal["job", "commitment", "project"]
HOURS_PER_MONTH = 730.0
"""Hours in an average month (8,760 / 12): what a monthly rental or hosting bill covers."""


class _Frozen(Prebuilt, BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)


class LedgerLine(_Frozen):
    """One posting: what it is for, the amount (negative for money coming back), and how it was priced."""

    kind: LineKind
    item: str
    amount: float
    formula: str = ""  # in English; from formula_phrases when the line was priced by message ids
    inputs: dict[str, Any] = {}
    formula_phrases: list[Any] = []  # the formula as [separator, message id, values] parts (formula.*)
    item_phrases: list[Any] = []  # what the line pays for, as message ids with values (item.*) for a report


class Period(_Frozen):
    """What the ledger covers: the job's own hours, a proposal's committed term, or the project's months."""

    kind: PeriodKind
    hours: float
    months: float


class Ledger(_Frozen):
    currency: str = "USD"
    period: Period
    lines: list[LedgerLine]
    total: float
    cash_out: float
    net: float

    def amount(self, *kinds: str, item: str | None = None) -> float:
        """The sum of the lines of these kinds (and, given, this item)."""
        return sum(ln.amount for ln in self.lines if ln.kind in kinds and (item is None or ln.item == item))

    def line(self, kind: str, item: str | None = None) -> LedgerLine | None:
        return next((ln for ln in self.lines if ln.kind == kind and (item is None or ln.item == item)), None)


class TimelinePart(_Frozen):
    name: str
    hours: float


class Timeline(_Frozen):
    """The time of one configuration. ``gpu_hours`` is the configuration's own GPUs x the hours billed (contract
    v3); a rental also says the GPUs its offer bills (``billed_gpus``: whole racks, a listed instance rented whole, an
    offer's fewest) and the GPU-hours the bill is for (``billed_gpu_hours``), so a report never calls the job's
    GPU-hours the billed ones where the bill counts more GPUs (gpuhours64: 100 GB200 billed as 144). Both are None
    where nothing is rented."""

    wall_hours: float
    billed_hours: float
    gpu_hours: float
    gpus: int
    billed_gpus: int | None = None
    billed_gpu_hours: float | None = None
    parts: list[TimelinePart]

    @property
    def wall_days(self) -> float:
        return self.wall_hours / 24

    @property
    def idle_fraction(self) -> float:
        """The share of the billed hours the job does not use (a commitment longer than the job)."""
        return max(0.0, 1 - self.wall_hours / self.billed_hours) if self.billed_hours > 0 else 0.0

    @property
    def bills_more_gpus(self) -> bool:
        """Whether the rental bills more GPUs than the configuration uses (its GPU-hours then differ)."""
        return self.billed_gpus is not None and self.billed_gpus > self.gpus

    def unbilled(self) -> "Timeline":
        """The same time with no rental's GPUs in it: a configuration bought (nothing bills its GPUs)."""
        if self.billed_gpus is None and self.billed_gpu_hours is None:
            return self
        return self.model_copy(update={"billed_gpus": None, "billed_gpu_hours": None})


_set = object.__setattr__


def built(cls: type[BaseModel], values: dict[str, Any]) -> Any:
    """``cls.model_construct(**values)`` (the same instance: its fields in order with the defaults of
    those not given, the fields given as set, no extra, no private) without that method's per-field
    alias handling: an estimate makes thousands of ledger lines and parts, a recommendation a
    record per candidate. A model with aliases, extra fields or a post-init, or ``values`` missing a
    required field or naming no field, goes through ``model_construct`` itself. ``values`` is taken
    over as the instance's fields when it names every field in declared order (each caller passes
    a new dict): what to do for a class and the names given, in their order, is worked out once."""
    shape = _SHAPES.get((cls, tuple(values)))
    if shape is None:
        shape = _SHAPES[(cls, tuple(values))] = _shape(cls, values)
    if shape is False:
        return cls.model_construct(**values)
    whole, fields_set, fresh = shape  # type: ignore[misc]
    if whole:
        fields_values = values
    else:
        fields_values = dict(_PLANS[cls][0])  # type: ignore[index]  # declared order, whatever the order of ``values``
        fields_values.update(values)
        for name in fresh:  # a default of its own per instance (a list, a dict, a factory)
            fields_values[name] = cls.__pydantic_fields__[name].get_default(call_default_factory=True,
                                                                            validated_data=fields_values)
    m = cls.__new__(cls)
    _set(m, "__dict__", fields_values)
    _set(m, "__pydantic_fields_set__", fields_set.copy())
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", None)
    return m


_Shape = tuple[bool, set[str], tuple[str, ...]]
_SHAPES: dict[tuple[type, tuple[str, ...]], "_Shape | bool"] = {}


def _shape(cls: type[BaseModel], values: dict[str, Any]) -> "_Shape | bool":
    """How :func:`built` makes ``cls`` from these names: False (through ``model_construct``), else
    whether they are every field in declared order, the fields set, and the fields left to a
    default made per instance."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _plan(cls)
    if plan is False or not (plan[2] <= values.keys() <= plan[0].keys()):  # type: ignore[index]
        return False
    template, fresh, _required = plan  # type: ignore[misc]
    return tuple(values) == tuple(template), set(values), tuple(n for n in fresh if n not in values)


_Plan = tuple[dict[str, Any], tuple[str, ...], frozenset[str]]
_PLANS: dict[type, "_Plan | bool"] = {}


def _plan(cls: type[BaseModel]) -> "_Plan | bool":
    """A model's fields for :func:`built`: a template of them in order (each immutable default in
    place), the fields whose default is made per instance, the required ones; False where
    ``model_construct`` does more than that for this model."""
    if (cls.model_config.get("extra") == "allow" or cls.__pydantic_post_init__ or cls.__pydantic_root_model__
            or cls.__private_attributes__):
        return False
    template: dict[str, Any] = {}
    fresh: list[str] = []
    required: set[str] = set()
    for name, f in cls.__pydantic_fields__.items():
        if f.alias is not None or f.validation_alias is not None:
            return False
        template[name] = None
        if f.is_required():
            required.add(name)
        elif f.default_factory is not None or f.default.__class__ not in (str, int, float, bool, type(None)):
            fresh.append(name)
        else:
            template[name] = f.default
    return template, tuple(fresh), frozenset(required)


def line(kind: LineKind, item: str | tuple[Phrase, ...], amount: float, formula: str | tuple[Phrase, ...] = "",
         inputs: dict[str, Any] | None = None, words: tuple[Phrase, ...] = ()) -> LedgerLine:
    """A posting, built without validation: the estimators hand over numbers they computed. The
    formula is given as message ids with values (messages.formula) and written in English from them;
    ``item`` names the line (a fee's kind, a knowledge base's site name) and ``words`` says it for a
    report (reports/messages.yaml item.*); an item given as message ids is both, its name the English.
    A report's lean records word it when it is read (:mod:`gpuwise.later`)."""
    if lean.ENABLED:
        kept = dict(inputs or {})
        return later(LedgerLine, {"kind": kind, "amount": float(amount)},
                     lambda: _line(kind, item, amount, formula, kept, words))
    return _line(kind, item, amount, formula, inputs, words)


def _line(kind: LineKind, item: str | tuple[Phrase, ...], amount: float, formula: str | tuple[Phrase, ...],
          inputs: dict[str, Any] | None, words: tuple[Phrase, ...]) -> LedgerLine:
    if isinstance(item, tuple):
        item, words = phrase_text(item), words or item
    parts = phrase_json(formula) if isinstance(formula, tuple) else []
    return built(LedgerLine, {"kind": kind, "item": item, "amount": float(amount),
                               "formula": formula_text(formula) if isinstance(formula, tuple) else formula,
                               "inputs": dict(inputs or {}), "formula_phrases": parts,
                               "item_phrases": phrase_json(words)})


def ledger(period: Period, lines: Iterable[LedgerLine], currency: str = "USD") -> Ledger:
    """The ledger of ``lines``: zero lines are dropped (except one, so an empty purchase still has a
    line), the total is their sum, cash out the sum of all but resale."""
    kept = [ln for ln in lines if ln.amount != 0 or ln.kind in ("rent", "capex")]
    for ln in kept:
        if not math.isfinite(ln.amount):
            raise ValueError(f"ledger line {ln.item!r} is not a finite amount: {ln.amount}")
    total = math.fsum(ln.amount for ln in kept)
    cash_out = math.fsum(ln.amount for ln in kept if ln.kind != "resale")
    return built(Ledger, {"currency": currency, "period": period, "lines": kept, "total": total,
                           "cash_out": cash_out, "net": total})


def period(kind: PeriodKind, hours: float) -> Period:
    return built(Period, {"kind": kind, "hours": float(hours), "months": float(hours) / HOURS_PER_MONTH})


def period_months(kind: PeriodKind, months: float) -> Period:
    return built(Period, {"kind": kind, "hours": float(months) * HOURS_PER_MONTH, "months": float(months)})


def timeline(parts: Iterable[tuple[str, float]], gpus: int, billed_hours: float | None = None,
             billed_gpus: int | None = None) -> Timeline:
    """Wall-clock hours as the sum of ``parts`` (zero parts dropped), billed hours (the wall time
    unless a commitment or a restart policy says otherwise) and GPU-hours = billed hours x GPUs; a
    rental's ``billed_gpus`` (the GPUs its offer bills) gives the billed GPU-hours = billed hours x those."""
    kept = [built(TimelinePart, {"name": n, "hours": float(h)}) for n, h in parts if h]
    wall = math.fsum(p.hours for p in kept)
    billed = wall if billed_hours is None else float(billed_hours)
    return built(Timeline, {"wall_hours": wall, "billed_hours": billed, "gpu_hours": billed * gpus, "gpus": gpus,
                             "billed_gpus": billed_gpus,
                             "billed_gpu_hours": None if billed_gpus is None else billed * billed_gpus,
                             "parts": kept})
