"""The plan file (``gpuwise plan PLAN.yaml``): a horizon, the GPUs owned, the workloads with their
cadence and targets, and the constraints. Strict like the other input files: an unknown key is an
error naming the field, with a close match.

Every amount is in ``constraints.currency`` (``paid_usd`` and the budgets keep their contract
names: ``_usd`` says "money", the currency field says which).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationInfo, field_validator, model_validator

from ..errors import N_, Said, SaidAt
from ..inputs.dates import month_text, plan_month_text
from ..inputs.requirements import gpus_as_text
from ..inputs.schema import MAX_GPUS, Strict, Workload, _finite, parse_money

Hosting = Literal["office", "colocation", "datacenter"]


class _OtherCurrency:
    """An amount written in a currency other than ``constraints.currency``: :class:`PlanFile` puts it in
    the field's place, so that the field's own check refuses it and the error names the field."""

    def __init__(self, said: Said, text: str):
        self.said, self.text = said, text

    def __repr__(self) -> str:
        return repr(self.text)


def _money_text(v: Any) -> Any:
    """An amount may be written as people write it (``$200,000``, ``150万``); the currency it names
    is checked against ``constraints.currency`` by :class:`PlanFile`."""
    if isinstance(v, _OtherCurrency):
        raise v.said
    if isinstance(v, str):
        return parse_money(v)[0]
    return v


class Owned(Strict):
    """GPUs the team already has: they cost no capex, only hosting and power while they run."""

    gpu: str = Field(min_length=1, max_length=100)
    count: int = Field(ge=1, le=MAX_GPUS)
    servers: int | None = Field(default=None, ge=1, le=MAX_GPUS, description="machines they sit in")
    hosting: Hosting = Field(default="office", description="where they run: office | colocation | datacenter")
    bought: str | None = Field(default=None, pattern=r"^[0-9]{4}-[0-9]{2}(-[0-9]{2})?$",
                               description="when they were bought, YYYY-MM")
    paid_usd: float | None = Field(default=None, ge=0, le=1e13,
                                   description="what was paid for all of them, in constraints.currency")
    network: str | None = Field(default=None, min_length=1, max_length=100,
                                description="the network between the servers they sit in (a knowledge/runtime.yaml "
                                            "networks name); unstated: the default for the GPU's class")
    host_ram_gb: float | None = Field(default=None, ge=1, le=1e5,
                                      description="host RAM of each server they sit in, GB (a run that offloads "
                                                  "its state to host RAM is judged on it)")

    _m = field_validator("paid_usd", mode="before")(_money_text)
    _v = field_validator("paid_usd", "host_ram_gb")(_finite)

    @field_validator("gpu", mode="before")
    @classmethod
    def _gpu_str(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    _d = field_validator("bought", mode="before")(month_text)

    @field_validator("bought")
    @classmethod
    def _date_real(cls, v: str | None) -> str | None:
        """A month that exists, and not after today's."""
        if v is not None:
            if not 1 <= int(v[5:7]) <= 12:
                raise Said(N_("bought %(v)s has no month %(v2)s"), v=v, v2=v[5:7])
            try:  # 2026-02-30 and 0000-01 matched the pattern and were taken as dates
                dt.date.fromisoformat(v if len(v) == 10 else v + "-01")
            except ValueError:
                raise Said(N_("not a real year and month (write YYYY-MM, e.g. 2021-03)")) from None
            # a day ('2026-12-25' this month) is compared as a day: it was read as its month and planned as owned
            # today (hostile round 53)
            today = dt.date.today().isoformat()[:len(v)]
            if v > today:
                raise Said(N_("bought %(v)s is in the future (today is %(today)s)"), v=v, today=today)
        return v

    @model_validator(mode="after")
    def _servers(self) -> Owned:
        if self.servers is not None and self.servers > self.count:
            raise Said(N_("more servers than GPUs"))
        return self


class Cadence(Strict):
    """How often a workload runs: once at a month, N times a month, or continuously (a service)."""

    at_month: int | None = Field(default=None, ge=1, le=120, description="runs once, in this month (1 = the first)")
    per_month: float | None = Field(default=None, ge=0.01, le=1000, description="runs this many times every month")
    """At least 0.01 (once in 100 months): 5e-324 reached the solver as a coefficient it could not use
    and the plan failed with '(Empty)'; a run rarer than that is one run, ``at_month``."""
    continuous: bool = Field(default=False, description="a service that runs every month")
    hours_per_day: float = Field(default=24, gt=0, le=24, description="a service's hours a day")
    growth_per_month: float = Field(default=0, ge=-0.9, le=1,
                                    description="a service's load growth per month (0.10 = 10%)")
    """At most 1, a load doubling every month (64 times in six months): more is almost surely a percentage written
    as a whole number, 10 for 0.1, and was planned as 1,000% a month where the load's bound was not passed (hostile
    round 48); refused, the fraction offered (units.percent_meant)."""
    start_month: int = Field(default=1, ge=1, le=120, description="per_month and continuous: the first month")
    end_month: int | None = Field(default=None, ge=1, le=120, description="the last month (default: the horizon)")

    _v = field_validator("per_month", "hours_per_day", "growth_per_month")(_finite)

    @field_validator("at_month", "start_month", "end_month", mode="before")
    @classmethod
    def _calendar_month(cls, v: Any, info: ValidationInfo) -> Any:
        """A month written as the calendar's ('June', '2027-06'): its number in the plan offered (dates.py)."""
        return plan_month_text(v, info.field_name or "at_month")

    @model_validator(mode="before")
    @classmethod
    def _runs_a_week(cls, data: Any) -> Any:
        """``per_week: 2`` or ``per_day: 1`` (a team's habit) listed the cadence keys, nothing offered (hostile round
        50): per_month counts runs a month, and the number is offered at the ledger's month of 730 hours
        (30.42 days; ledger.HOURS_PER_MONTH)."""
        from ..ledger import HOURS_PER_MONTH

        month_days = HOURS_PER_MONTH / 24
        days = {"per_week": 7.0, "per_day": 1.0, "per_year": 12 * month_days, "per_quarter": 3 * month_days}
        every = {"daily": 1.0, "weekly": 7.0, "biweekly": 14.0, "fortnightly": 14.0, "monthly": HOURS_PER_MONTH / 24,
                 "quarterly": 3 * HOURS_PER_MONTH / 24}
        for key, value in (data.items() if isinstance(data, dict) else ()):
            word = value.strip().lower() if key == "per_month" and isinstance(value, str) else (
                key.lower() if isinstance(key, str) and value is True else None)  # 'per_month: weekly', 'weekly: true'
            if word in every:
                raise SaidAt((key,), N_("per_month counts the runs a month: %(word)s is per_month: %(meant)s"),
                             word=word, meant=f"{HOURS_PER_MONTH / 24 / every[word]:.4g}")
            if (key in days and isinstance(value, int | float) and not isinstance(value, bool) and value > 0
                    and value == value and value != float("inf")):
                meant = value * HOURS_PER_MONTH / 24 / days[key]
                raise SaidAt((key,), N_("unknown key: per_month counts the runs a month; %(given)s %(key)s is "
                                        "per_month: %(meant)s"), given=f"{value:g}", key=key, meant=f"{meant:.4g}")
        return data

    @model_validator(mode="after")
    def _one(self) -> Cadence:
        given = [n for n, v in (("at_month", self.at_month), ("per_month", self.per_month),
                                ("continuous", self.continuous or None)) if v is not None]
        if len(given) != 1:
            raise Said(N_("give exactly one of at_month, per_month or continuous: true"))
        if self.end_month is not None and self.end_month < self.start_month:
            raise Said(N_("end_month is before start_month"))
        return self

    @property
    def kind(self) -> str:
        return "once" if self.at_month is not None else "monthly" if self.per_month is not None else "continuous"


class Targets(Strict):
    """A service's load and latency targets (the latency ones are also the workload's
    ``max_ttft_ms``/``max_tpot_ms``)."""

    requests_per_s: float | None = Field(default=None, gt=0, le=1e7,
                                         description="requests per second in the first month")
    concurrency: int | None = Field(default=None, ge=1, le=10_000_000,
                                    description="sequences served at once in the first month")
    max_ttft_ms: float | None = Field(default=None, gt=0, le=1e7,
                                      description="time to first token target: a bound on the estimate at the load")
    p95_ttft_ms: float | None = Field(default=None, gt=0, le=1e7,
                                      description="the older name of max_ttft_ms, read as it (a bound, not a "
                                                  "95th percentile)")
    max_tpot_ms: float | None = Field(default=None, gt=0, le=1e7, description="time per output token target")

    _v = field_validator("requests_per_s", "max_ttft_ms", "p95_ttft_ms", "max_tpot_ms")(_finite)

    @model_validator(mode="after")
    def _one_ttft(self) -> Targets:
        if None not in (self.max_ttft_ms, self.p95_ttft_ms) and self.max_ttft_ms != self.p95_ttft_ms:
            raise Said(N_("give max_ttft_ms alone: p95_ttft_ms is its older name, and the two differ"))
        if self.requests_per_s is not None and self.concurrency is not None:  # the rate was read, the other dropped
            raise Said(N_("give requests_per_s or concurrency, not both: each is the service's load in its first "
                          "month (requests arriving a second, or requests in flight), and the plan would read the "
                          "rate alone"))
        return self

    @property
    def ttft_ms(self) -> float | None:
        """The time-to-first-token target, by its name or its older one."""
        return self.max_ttft_ms if self.max_ttft_ms is not None else self.p95_ttft_ms


class PlanWorkload(Strict):
    name: str = Field(min_length=1, max_length=100)
    workload: Workload
    cadence: Cadence
    deadline_days: float | None = Field(default=None, gt=0, le=3650,
                                        description="a run must finish within this many days (default: the month)")
    targets: Targets = Targets()

    _v = field_validator("deadline_days")(_finite)

    @model_validator(mode="after")
    def _fits_kind(self) -> PlanWorkload:
        serving = self.workload.task == "inference"
        if serving and self.cadence.kind != "continuous":
            raise Said(N_("an inference workload is a service: give cadence continuous: true"))
        if not serving and self.cadence.kind == "continuous":
            raise Said(N_("a %(task)s workload runs at_month or per_month, not continuously"), task=self.workload.task)
        if not serving and (self.targets.requests_per_s or self.targets.concurrency):
            raise Said(N_("targets.requests_per_s and targets.concurrency apply to inference workloads"))
        return self


class PlanConstraints(Strict):
    budget_per_quarter_usd: float | None = Field(default=None, gt=0, le=1e13,
                                                 description="cash out per quarter, in constraints.currency")
    budget_total_usd: float | None = Field(default=None, gt=0, le=1e13,
                                           description="cash out over the horizon, in constraints.currency")
    acquisition: Literal["rent", "buy", "either"] = "either"
    hosting: Hosting | None = Field(default=None, description=(
        "where bought hardware runs (default: an office while it holds what is bought of the type, else colocation)"))
    market: Literal["global", "china"] | None = None
    currency: Literal["USD", "CNY"] = "USD"
    electricity_usd_per_kwh: float = Field(default=0.15, ge=0, le=100,
                                           description="in constraints.currency when given; the default is "
                                                       "0.15 USD (tco.yaml), converted for a CNY plan")
    gpus: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(
        default=[], max_length=200, description="GPU types the plan may buy or rent (default: the catalog)")
    max_gpus: int = Field(default=64, ge=1, le=MAX_GPUS, description="GPUs one run or one service may use")

    _m = field_validator("budget_per_quarter_usd", "budget_total_usd", mode="before")(_money_text)
    _v = field_validator("budget_per_quarter_usd", "budget_total_usd", "electricity_usd_per_kwh")(_finite)

    _g = field_validator("gpus", mode="before")(gpus_as_text)


class PlanFile(Strict):
    horizon_months: int = Field(ge=1, le=60)
    owned: list[Owned] = Field(default=[], max_length=100)
    workloads: list[PlanWorkload] = Field(min_length=1, max_length=50)
    constraints: PlanConstraints = PlanConstraints()

    @field_validator("workloads", mode="before")
    @classmethod
    def _named_list(cls, v: Any) -> Any:
        """``workloads`` written as a mapping of names to workloads (``lora-8b: {workload: ...}``), as a compose file
        names its services, was 'must be a list' quoting the mapping (hostile round 44): the list form is offered,
        the first name as its entry's ``name``."""
        if isinstance(v, dict) and v and all(isinstance(k, str) and isinstance(x, dict) for k, x in v.items()):
            first = next(iter(v))
            raise Said(N_("must be a list of workloads, each with its name: write '- name: %(name)s' with the keys "
                          "under %(name)s beneath it, and so for each"), name=first)
        return v

    @model_validator(mode="before")
    @classmethod
    def _p95_in_targets(cls, data: Any) -> Any:
        """A p95 latency target written in a service's ``targets`` (``p95_tpot_s: 0.05``) was an unknown key with
        'did you mean max_tpot_ms?', a bound of another kind (hostile round 44): the p95 targets are the workload
        section's, as in a requirements file, and the field is offered there in its unit (seconds)."""
        workloads = data.get("workloads") if isinstance(data, dict) else None
        for i, w in enumerate(workloads if isinstance(workloads, list) else []):
            targets = w.get("targets") if isinstance(w, dict) else None
            for key in targets if isinstance(targets, dict) else ():
                # the workload's own names only: in milliseconds, p95_ttft_ms is max_ttft_ms's older name (a bound)
                # and p95_tpot_ms is offered max_tpot_ms by its pattern (hostile round 28)
                m = re.fullmatch(r"p95_(ttft|tpot)_s", key) if isinstance(key, str) else None
                if m is None:
                    continue
                value = targets[key]
                raise SaidAt(("workloads", i, "targets", key),
                             N_("a p95 latency target is the workload's, not the targets': write "
                                "workloads[%(i)s].workload.%(key)s: %(value)s (seconds)"),
                             i=i, key=key, value=f"{value:g}" if isinstance(value, int | float) else value)
        return data

    @model_validator(mode="before")
    @classmethod
    def _money_currency(cls, data: Any) -> Any:
        """An amount written with a currency sign must be in ``constraints.currency``."""
        if not isinstance(data, dict):
            return data
        cons = data.get("constraints") if isinstance(data.get("constraints"), dict) else {}
        declared = cons.get("currency", "USD")

        def checked(text: Any) -> Any:
            """``text``, or in its place what its field refuses (the error then names the field: it was
            '(top level)', leaving the reader to find which of the file's amounts was meant)."""
            if not isinstance(text, str):
                return text
            try:
                _, cur = parse_money(text)
            except ValueError:
                return text  # the field's own check says what an amount looks like
            if cur is None or cur == declared:
                return text
            return _OtherCurrency(Said(N_("%(text)s is in %(cur)s but constraints.currency is %(declared)s: every "
                                          "amount in the file is in the one currency"), text=f"{text!r}", cur=cur,
                                       declared=declared), text)

        out = dict(data)
        if cons:
            out["constraints"] = {k: checked(v) if isinstance(k, str) and k.endswith("_usd") else v
                                  for k, v in cons.items()}
        owned = data.get("owned")  # `owned: 8` was 'float object is not iterable', exit 3: the field says what it is
        if isinstance(owned, list):
            out["owned"] = [{**o, "paid_usd": checked(o["paid_usd"])} if isinstance(o, dict) and "paid_usd" in o
                            else o for o in owned]
        return out

    @model_validator(mode="after")
    def _names(self) -> PlanFile:
        seen: set[str] = set()
        alike: dict[str, str] = {}
        for i, w in enumerate(self.workloads):
            if w.name in seen:
                raise SaidAt(("workloads", i, "name"), N_("workload name '%(name)s' is used twice"), name=w.name)
            seen.add(w.name)
            other = alike.setdefault(_name_key(w.name), w.name)
            if other != w.name:  # 'lora-8b' and 'LoRA-8B', or one with a zero-width space: one name to a reader
                raise SaidAt(("workloads", i, "name"),
                             N_("workload names %(first)s and %(second)s differ only in case, width or invisible "
                                "characters: a reader of the plan takes them for one"),
                             first=ascii(other), second=ascii(w.name))
            c = w.cadence
            if c.at_month is not None and c.at_month > self.horizon_months:
                raise SaidAt(("workloads", i, "cadence", "at_month"),
                             N_("workload '%(name)s': at_month %(at_month)s is after the horizon (%(horizon_months)s "
                                "months)"), name=w.name, at_month=c.at_month, horizon_months=self.horizon_months)
            if c.start_month > self.horizon_months:
                raise SaidAt(("workloads", i, "cadence", "start_month"),
                             N_("workload '%(name)s': start_month %(start_month)s is after the horizon"), name=w.name,
                             start_month=c.start_month)
        return self

    @field_validator("workloads")
    @classmethod
    def _growth(cls, workloads: list[PlanWorkload], info: ValidationInfo) -> list[PlanWorkload]:
        horizon = info.data.get("horizon_months")
        if isinstance(horizon, int):  # else the horizon's own complaint is the news
            for w in workloads:
                _growth_within_bounds(w, min(w.cadence.end_month or horizon, horizon))
        return workloads


def _growth_within_bounds(w: PlanWorkload, last: int) -> None:
    """A service's load at its last month stays within the bound of the field that gives it: 1,000 %
    growth a month for 60 months took 2 requests/s to 6e61 and the solver failed with '(Empty)'."""
    c = w.cadence
    if not c.continuous or c.growth_per_month <= 0 or last <= c.start_month:
        return
    t, wl = w.targets, w.workload
    tf, wf = Targets.model_fields, Workload.model_fields
    given = t.requests_per_s is not None
    field, base, top = (("targets.requests_per_s", t.requests_per_s, tf["requests_per_s"]) if given
                        else ("workload.requests_per_s", wl.requests_per_s, wf["requests_per_s"])
                        if wl.requests_per_s is not None
                        else ("targets.concurrency", t.concurrency, tf["concurrency"]) if t.concurrency is not None
                        else ("workload.target_tokens_per_s", wl.target_tokens_per_s, wf["target_tokens_per_s"])
                        if wl.target_tokens_per_s
                        else ("workload.concurrent_requests", wl.concurrent_requests, wf["concurrent_requests"]))
    bound = next(m.le for m in top.metadata if getattr(m, "le", None) is not None)
    peak = float(base) * (1 + c.growth_per_month) ** (last - c.start_month)
    if peak > bound:  # a whole percentage (10 for 0.1) is refused by the field's own bound of 1 first (round 48)
        raise Said(N_("workload '%(name)s': growth_per_month %(growth)s takes %(field)s from %(base)s to %(peak)s by "
                      "month %(month)s, more than its bound of %(bound)s"), name=w.name,
                   growth=f"{c.growth_per_month:g}", field=field, base=f"{base:g}", peak=f"{peak:.3g}", month=last,
                   bound=f"{bound:g}")


def _name_key(name: str) -> str:
    """A workload name as a reader tells names apart: compatibility forms folded (fullwidth letters),
    case folded, invisible format characters (a zero-width space) dropped, spaces collapsed."""
    import unicodedata

    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join("".join(c for c in folded if unicodedata.category(c) != "Cf").split())
