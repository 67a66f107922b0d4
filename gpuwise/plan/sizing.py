"""Each workload of a plan, sized per GPU type with the existing estimators
(:func:`gpuwise.estimators.candidate.evaluate`): for a training or fine-tuning run, the fewest GPUs
of the type that fit it and finish within its deadline, with the wall hours and the rental price
of that many; for a service, the GPUs of one copy of the model and the output tokens per second
(or sequences) that copy sustains within the latency targets. Whether a count fits in memory,
whether a run finishes by its deadline, whether a copy answers within the latency targets and
whether the serving software runs on the GPU are the rules' verdicts (the rule book in force, asked
through :func:`gpuwise.decide.verdicts.judge`): the plan gives the rules the deadline its schedule
allows (the workload's own, else its cadence's share of a month) and the targets. The program
(:mod:`.solve`) chooses among these options, the rules judge the plan.
"""

from __future__ import annotations

import math
from dataclasses import field, replace
from typing import TYPE_CHECKING, Any

from ..decide.result import step_batch
from ..decide.rulebook import Rulebook
from ..decide.subjects import candidate_fact
from ..decide.verdicts import (
    COPY,
    HOST_RAM,
    LATENCY,
    SYSTEMS,
    TIME,
    Verdict,
    judge,
    plan_within,
    rejected_on,
    rejected_reading,
)
from ..estimators import cost as K
from ..estimators.candidate import evaluate, offers_for
from ..estimators.interconnect import count_ladder, gpus_per_server
from ..estimators.offers import as_sold
from ..estimators.rental import instance_gpus, instance_split, rent_network, rented_host_ram
from ..frozen import frozen, record
from ..inputs.job import Job, resolve
from ..inputs.schema import MAX_GPUS, Constraints, Requirements
from ..knowledge import Knowledge
from ..results import Assumption
from . import copies
from .copies import Reserved, replicas_needed, reserved_rates
from .schema import PlanFile, PlanWorkload
from .servers import stated_server_gpus
from .why import Why, why

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu

HOURS = K.HOURS_PER_MONTH
HOST_RAM_FACTS = ("offload", "host_ram_needed_gb", "host_ram_gb", "typical_host_ram_gb", "per_node", "count")
"""The candidate facts a run's host RAM is judged on (rules/memory.yaml MEM-HOST-RAM-*), kept for a purchase."""
DAYS_PER_MONTH = HOURS / 24
COPY_TOP = 16  # the most GPUs a service's copy is sized at (its ladder's top)


@frozen
class Pack:
    """One rental that holds several copies of a service: an instance, or a node an offer rents only whole
    (clouds.yaml min_gpus), of ``gpus_paid`` GPUs, ``copies`` copies of the service's GPUs in it, at its rate for
    all of them, paid whether each copy's GPUs are busy or not."""

    copies: int
    gpus_paid: int
    usd_per_hour: float
    provider: str
    instance: str | None
    as_of: str


@record
class Option:
    """One GPU type for one workload: ``count`` GPUs per run (training) or per copy (serving)."""

    gpu: str
    count: int
    wall_hours: float = 0.0  # training: one run, start-up included
    capacity: float = 0.0  # serving: output tokens/s (or sequences) of one copy within the targets
    rent_usd_per_hour: float | None = None  # for `count` GPUs (whole instances where sold so)
    rent_gpus_paid: int = 0
    rent_provider: str | None = None
    rent_instance: str | None = None
    rent_step_gpus: int = 1  # the offer's GPUs come in whole multiples of this (clouds.yaml step_gpus: NVL72's 72)
    rent_as_of: str | None = None
    rent_discount: float = 0.0  # serving: the long-rental discount of a month's rental
    reserved: dict[str, Reserved] = field(default_factory=dict)  # serving: term -> the cheapest committed rate
    reserved_pack: dict[str, Reserved] = field(default_factory=dict)  # term -> a committed rental of several copies
    rent_pack: Pack | None = None  # serving: a rental that holds several copies for less a copy, full (_pack)
    layout: str = ""
    step_batch: Any = None  # training: results.StepBatch of the run on `count` (its step in whole micro-batches)
    host_ram: dict[str, Any] = field(default_factory=dict)  # training offloaded to host RAM: the candidate's host
    # RAM facts (HOST_RAM_FACTS) as the rules read them of a bought server, for the plan's purchases (judge.py)
    rent_count: int = 0  # training rented by the instance: the run on every GPU paid for; serving: the GPUs of a
    # rented copy where it is sized apart from the owned or bought one (_rental) (0: on `count`)
    rent_capacity: float = 0.0  # serving: a rented copy's capacity where it is sized apart (0: `capacity`)
    rent_wall_hours: float = 0.0  # its wall hours there (0: `wall_hours`)
    buy_count: int = 0  # training on a type the plan only buys: the run on every GPU of the server bought (0: `count`)
    buy_wall_hours: float = 0.0  # its wall hours there (0: `wall_hours`)
    buy_host_ram: dict[str, Any] = field(default_factory=dict)  # its host RAM facts there, as `host_ram`'s
    own_count: int = 0  # training on an owned type: the run on more of the owned GPUs, one server's (0: `count`)
    own_wall_hours: float = 0.0  # its wall hours there (0: `wall_hours`)
    own_host_ram: dict[str, Any] = field(default_factory=dict)  # its host RAM facts there, as `host_ram`'s
    own_capacity: float = 0.0  # serving: a copy over the owned servers, on their network (0: as sized)
    rejected: tuple[str, ...] = ()  # the rules that rejected something of `count` (its completed estimate)
    owned_refused: str = ""  # the rule that keeps the run off the owned GPUs (their servers' stated RAM, on_hardware)
    fewest_refused: str = ""  # the rule that keeps the run on `count` off the owned GPUs; it may run on `own_count`
    copy_sizes: list[dict[str, Any]] = field(default_factory=list)  # serving: the copy sizes tried, where more than
    # the fewest were (copies.py): each size's GPUs, capacity, layout, copies and GPUs at the peak, their USD rent
    rent_copy_sizes: list[dict[str, Any]] = field(default_factory=list)  # serving: the rented copy's sizes, where it
    # is sized apart (copies.rent_as), as copy_sizes lists the owned or bought copy's

    @property
    def gpu_hours(self) -> float:
        return self.count * self.wall_hours

    @property
    def wide_count(self) -> int:
        """The GPUs of the run widened on the hardware the plan holds: a server bought's, or the owned ones'."""
        return self.buy_count or self.own_count or self.count

    @property
    def wide_gpu_hours(self) -> float:
        return self.wide_count * (self.buy_wall_hours or self.own_wall_hours or self.wall_hours)

    def wide_fields(self) -> dict[str, Any]:
        """The counts and hours a run has besides the fewest's (the plan JSON's options, result.Option)."""
        return {"rent_count": self.rent_count, "rent_wall_hours": self.rent_wall_hours, "buy_count": self.buy_count,
                "buy_wall_hours": self.buy_wall_hours, "own_count": self.own_count,
                "fewest_refused": self.fewest_refused, "own_capacity": self.own_capacity,
                "rent_capacity": self.rent_capacity,
                "own_wall_hours": self.own_wall_hours}

    @property
    def rented_count(self) -> int:
        return self.rent_count or self.count

    @property
    def rented_capacity(self) -> float:
        return self.rent_capacity or self.capacity

    @property
    def rented_wall_hours(self) -> float:
        return self.rent_wall_hours or self.wall_hours


@record
class Sized:
    name: str
    w: PlanWorkload
    job: Job
    serving: bool
    months: int
    runs: list[float] = field(default_factory=list)  # training: runs per month (index 0 = month 1)
    demand: list[float] = field(default_factory=list)  # serving: load per month in `measure`
    measure: str = "tokens_per_s"  # serving: tokens_per_s | sequences
    requests_per_s: list[float] = field(default_factory=list)  # serving: per month
    hours_per_day: float = 24.0
    deadline_hours: float = 0.0
    options: dict[str, Option] = field(default_factory=dict)
    why_not: dict[str, Why] = field(default_factory=dict)  # gpu id -> why it cannot take this workload
    owned_reason: dict[str, Why] = field(default_factory=dict)  # owned gpu id -> why the owned fleet cannot

    def active(self, m: int) -> bool:
        return (self.runs[m - 1] > 0) if not self.serving else self.demand[m - 1] > 0


def _requirements(pw: PlanWorkload, plan: PlanFile, months: float) -> Requirements:
    w = pw.workload
    update: dict[str, Any] = {}
    t = pw.targets
    if t.ttft_ms is not None and w.max_ttft_ms is None:
        update["max_ttft_ms"] = t.ttft_ms
    if t.max_tpot_ms is not None and w.max_tpot_ms is None:
        update["max_tpot_ms"] = t.max_tpot_ms
    if update:
        w = w.model_copy(update=update)
    c = plan.constraints
    deadline = deadline_days(pw) if w.task != "inference" else None
    cons = Constraints(max_gpus=c.max_gpus, deadline_days=deadline, acquisition="either",
                       project_months=max(1.0, months), currency="USD", hosting=c.hosting, market=market(plan))
    return Requirements(workload=w, constraints=cons)


def deadline_days(pw: PlanWorkload) -> float:
    """The days a training run may take: its own deadline, else its cadence's share of a month
    (two runs a month: half a month each), which the deadline rules judge it by."""
    if pw.deadline_days is not None:
        return pw.deadline_days
    return DAYS_PER_MONTH / max(1.0, pw.cadence.per_month or 1.0)


def market(plan: PlanFile) -> str:
    c = plan.constraints
    return c.market or ("china" if c.currency == "CNY" else "global")


def counts(max_gpus: int) -> list[int]:
    """The GPU counts a workload is sized at: the consultations' ladder (one definition)."""
    return count_ladder(max_gpus)


def size(plan: PlanFile, kb: Knowledge, gpus: list[Gpu], owned: dict[str, int], where: str,
         book: Rulebook) -> list[Sized]:
    H = plan.horizon_months
    out = []
    for i, pw in enumerate(plan.workloads):
        req = _requirements(pw, plan, H)
        job = plan_within(resolve(req, kb, f"{where}: workloads[{i}].workload"), book)
        s = Sized(pw.name, pw, job, not job.training, H)
        _schedule(s, pw, H)
        for g in gpus:
            if s.serving:
                _serving_option(s, g, plan.constraints.max_gpus, owned.get(g.id, 0), book, plan)
            else:
                _training_option(s, g, plan.constraints.max_gpus, owned.get(g.id, 0), book,
                                 buy_only=plan.constraints.acquisition == "buy",
                                 rent_only=plan.constraints.acquisition == "rent", pf=plan)
        if s.serving:
            _within_fleet_bound(s)
            # a published checkpoint an option's engine has no kernels for is priced in 16 bits there: said
            from ..estimators.serving.published import notes_of, on_gpu

            s.job.assumptions.extend(notes_of(s.job, [on_gpu(s.job, g) for g in gpus if g.id in s.options]))
        out.append(s)
    return out


def workload_defaults(sized: list[Sized]) -> list[Assumption]:
    """The defaults each workload's job took in its workload section (its framework, attention, optimizer...),
    once a default with the workloads that took it: ``field`` reads 'sft-8b, qlora-70b: workload.attention'.
    The constraints its job was given are the plan's (said by the plan), and a service with a request rate
    has its load from the rate, not the concurrency its job defaults to."""
    took: dict[tuple[str, str, str], list[str]] = {}
    first: dict[tuple[str, str, str], Assumption] = {}
    for s in sized:
        rate = s.serving and service_rate(s.w) is not None
        for a in s.job.assumptions:
            if not a.field.startswith("workload.") or (rate and a.field == "workload.concurrent_requests"):
                continue
            k = (a.field, repr(a.value), a.reason)
            took.setdefault(k, []).append(s.name)
            first.setdefault(k, a)
    return [first[k].model_copy(update={"field": f"{', '.join(names)}: {first[k].field}"})
            for k, names in took.items()]


def _within_fleet_bound(s: Sized) -> None:
    """A GPU type whose copies would need more than MAX_GPUS GPUs at the service's peak month is no
    option for it: 10 million requests/s of a 70B model asked the solver for a million copies, and it
    searched for 300 s (Ctrl-C cannot stop it) before saying what a glance says."""
    peak = max(range(1, len(s.demand) + 1), key=lambda m: s.demand[m - 1], default=None)
    if peak is None:
        return
    for g, opt in list(s.options.items()):
        need = replicas_needed(s, opt, peak) * opt.count
        if need > MAX_GPUS:
            del s.options[g]
            s.why_not[g] = why("estimate", "plan.why.fleet_bound", gpu=g, n=need, max=MAX_GPUS, month=peak)


def _schedule(s: Sized, pw: PlanWorkload, H: int) -> None:
    c = pw.cadence
    last = c.end_month or H
    if not s.serving:
        s.runs = [0.0] * H
        if c.at_month is not None:
            s.runs[c.at_month - 1] = 1.0
        else:
            for m in range(c.start_month, min(last, H) + 1):
                s.runs[m - 1] = float(c.per_month or 0)
        s.deadline_hours = deadline_days(pw) * 24
        return
    w, t = s.job.w, pw.targets
    s.hours_per_day = c.hours_per_day
    growth = [(1 + c.growth_per_month) ** (m - c.start_month) if c.start_month <= m <= last else 0.0
              for m in range(1, H + 1)]
    out_tokens = _output_tokens(w)
    rate = service_rate(pw)
    if rate is not None:
        s.measure = "tokens_per_s"
        s.requests_per_s = [rate * f for f in growth]
        s.demand = [r * out_tokens for r in s.requests_per_s]
    elif t.concurrency is not None or w.target_tokens_per_s == 0:
        s.measure = "sequences"
        base = t.concurrency if t.concurrency is not None else w.concurrent_requests
        s.demand = [base * f for f in growth]
        s.requests_per_s = []
    else:
        s.measure = "tokens_per_s"
        s.demand = [w.target_tokens_per_s * f for f in growth]
        s.requests_per_s = [d / out_tokens for d in s.demand]


def _output_tokens(w: Any) -> int:
    return w.output_tokens or max(1, w.context_len // 2)


def service_rate(pw: PlanWorkload) -> float | None:
    """A service's request rate in its first month: ``targets.requests_per_s``, else its workload's
    ``requests_per_s`` (as ``targets.concurrency`` falls back on the workload's ``concurrent_requests``); a
    workload's rate was read by nothing, and 40 requests/s were sized as one sequence (hostile round 43)."""
    t = pw.targets.requests_per_s
    return t if t is not None else pw.workload.requests_per_s


def _within_p95(s: Sized, sv: Any, cap: float) -> float:
    """A copy's capacity within the workload's p95 targets (``p95_ttft_s``, ``p95_tpot_s``), from its queueing
    answer's highest request rate within them (Poisson arrivals split over copies stay Poisson, each copy at its
    share): where the service's load is a rate, that rate's output tokens/s; where it is requests in flight
    (``concurrent_requests``, ``targets.concurrency``), the requests in flight at that rate by Little's law, the
    rate x a request's mean stay there (its mean time to first token + output tokens x its mean time per output
    token: the stay the serving model's throughput at a load is the load over), as recommend judges the load by
    the rate it amounts to (SRV-RATE-AT-LOAD), in whole requests. A copy that keeps no rate within them (or not
    one request in flight) carries none. The capacity as estimated otherwise: a service sized by requests in
    flight was held to no p95 target (planp95_56)."""
    w = s.job.w
    if sv is None or sv.max_requests_per_s is None or (w.p95_ttft_s is None and w.p95_tpot_s is None):
        return cap
    if s.measure == "tokens_per_s":
        return min(cap, sv.max_requests_per_s * _output_tokens(w))
    if sv.rate_best is None or not sv.max_requests_per_s or not sv.p95_in_flight:
        return 0.0
    return min(cap, sv.p95_in_flight)  # whole requests: recommend rejects the next one up


def _rent(s: Sized, g: Gpu, n: int, opt: Option, book: Rulebook | None = None, ev: Any = None) -> list[str]:
    """The rental of ``n`` x ``g`` the option is priced on: the first offer, or for a run that keeps its state in
    host RAM (``ev``: its estimate) the first whose server the host-RAM rules let hold it (:data:`HOST_RAM`,
    MEM-HOST-RAM-SHORT, judged on the RAM the rented server comes with: rental.rented_host_ram). Returns the rules
    that refused every offer (none rented then)."""
    offers = offers_for(s.job, g, n)
    refused: list[str] = []
    if offers and book is not None and ev is not None and ev.host_ram_needed_bytes_per_node and ev.topology:
        held, before = [], (ev.host_ram_gb, ev.host_ram_from)
        for o in offers:
            ev.host_ram_gb, ev.host_ram_from = rented_host_ram(s.job.kb, g, ev.topology.per_node, o, ev.memory.per_gpu,
                                                                 ev.topology.gpus)
            no = rejected_reading(book, _verdict(book, s, ev), HOST_RAM)
            refused = refused or no
            if not no:
                held.append(o)
        ev.host_ram_gb, ev.host_ram_from = before if before[1] == "shared" else (None, "")
        offers = held
    if not offers:
        return refused
    o = offers[0]
    if not s.serving and opt.wall_hours > 0:
        # a run is rented as recommend and audit rent it (candidate._cost_step): on the network it was estimated
        # on, at the offer and term with the lowest bill for its hours -- a size a provider sells only as a
        # reserved cluster (Lambda's B200 above 8 GPUs: its 1-Click Cluster rate) at that rate, not the rate of
        # its on-demand node; a term's minimum beyond the run is billed whole, so the rate carries it
        topo = ev.topology if ev is not None else None
        if topo is not None and topo.nodes > 1 and topo.network is not None:
            offers = [x for x in offers if rent_network(s.job.kb, g, x) == topo.network] or offers
        o, sold = as_sold(offers, n, opt.wall_hours, s.job.kb.runtime.networks)
        if sold.min_hours > opt.wall_hours:
            o = replace(o, usd_per_hour=o.usd_per_hour * sold.min_hours / opt.wall_hours)
    opt.rent_usd_per_hour = o.usd_per_hour
    opt.rent_gpus_paid = o.gpus
    opt.rent_provider, opt.rent_instance, opt.rent_as_of = o.provider, o.instance, o.as_of
    opt.rent_step_gpus = o.step_gpus
    if s.serving:
        opt.rent_discount, _ = K.discount(s.job.kb.clouds, s.hours_per_day * DAYS_PER_MONTH)
        opt.reserved, opt.reserved_pack = reserved_rates(offers, n)
        opt.rent_pack = _pack(offers, n, o.usd_per_hour)
    return []


def _pack(offers: list[Any], n: int, per_copy: float) -> Pack | None:
    """The rental of several copies of ``n`` GPUs that costs least a copy when full, where that is less than
    ``per_copy`` (the offer a copy is priced on alone): Lambda rents V100s only as a whole 8-GPU node, $6.32 an
    hour, which holds eight one-GPU copies where AWS's p3.2xlarge holds one for $3.06. The program rents copies
    one at a time and such rentals whole, as it finds cheaper (:func:`.solve.build`)."""
    best: Pack | None = None
    for o in offers:
        k = o.gpus // n
        if k >= 2 and o.usd_per_hour / k < per_copy - 1e-9 and (
                best is None or o.usd_per_hour / k < best.usd_per_hour / best.copies):
            best = Pack(k, o.gpus, o.usd_per_hour, o.provider, o.instance, o.as_of)
    return best


def _verdict(book: Rulebook, s: Sized, ev: Any) -> Verdict:
    return judge(book, s.job, [ev])[0]


def owned_ram_ahead(pf: PlanFile | None, kb: Knowledge, g: Gpu, n: int) -> float | None:
    """GB of host RAM a node of the estimate of ``n`` owned GPUs of ``g`` has, as the plan states the owned servers'
    (owned[].host_ram_gb, the least where entries differ; None where an entry states none): where the owned servers are
    given, the RAM of the servers the run spans over the estimate's nodes, as :func:`owned_run_fact` spreads the
    state. What the layout is chosen within before PLAN-OWNED-HOST-RAM-SHORT judges it."""
    mine = [w for w in pf.owned if kb.gpu(w.gpu).id == g.id] if pf is not None else []
    stated = [w.host_ram_gb for w in mine]
    if not stated or None in stated:
        return None
    ram = float(min(h for h in stated if h is not None))
    if all(w.servers for w in mine):
        per_server = math.ceil(sum(w.count for w in mine) / sum(w.servers or 1 for w in mine))
        ram *= math.ceil(n / per_server) / math.ceil(n / min(n, gpus_per_server(g)))
    return ram


def _owned_short(pf: PlanFile | None, kb: Knowledge, s: Sized, g: Gpu, opt: Option) -> bool:
    """The owned servers' stated RAM cannot hold the offloaded state of ``opt`` on owned GPUs (the fact
    PLAN-OWNED-HOST-RAM-SHORT reads, :func:`owned_run_fact`)."""
    if pf is None or not opt.host_ram or opt.host_ram.get("offload") != "cpu":
        return False
    fact = owned_run_fact(pf, kb, s.name, g.id, opt.count, opt.host_ram)
    return 0 < fact["host_ram_gb"] < fact["host_ram_needed_gb"]


def _training_option(s: Sized, g: Gpu, max_gpus: int, owned: int, book: Rulebook, buy_only: bool = False,
                     rent_only: bool = False, pf: PlanFile | None = None) -> None:
    last_reason = why("memory", "plan.why.memory")
    ram_short = False  # a rented server of fewer GPUs could not hold the offloaded state
    bought: Option | None = None  # the fewest GPUs no rented server holds, to buy where they have a price
    kb = s.job.kb
    short_owned: tuple[Option, Verdict] | None = None  # the fewest owned GPUs, whose servers' RAM cannot hold it
    for n in counts(max_gpus):
        if short_owned is not None and n > owned:
            break  # no more of the owned GPUs holds it: the fewest is sized, PLAN-OWNED-HOST-RAM-SHORT says why
        # a type only rented, sold only as smaller instances than the server (8 T4s as eight g4dn.xlarge): estimated
        # as those instances on their network, each with its own RAM, as recommend estimates the rental
        split = instance_split(s.job, g, n) if rent_only and not owned else None
        # on owned GPUs whose servers' RAM the plan states, the layout is one that RAM holds where one fits
        ahead = owned_ram_ahead(pf, kb, g, n) if owned and n <= owned else None
        ev = evaluate(s.job, g, n, nodes=split[0], network=split[1], defer=True) if split else evaluate(
            s.job, g, n, defer=True, host_ram_ahead_gb=ahead)
        verdict = _verdict(book, s, ev)
        unsupported = rejected_on(book, verdict, "compatibility")
        if unsupported:  # the stack does not run on this GPU (CPT-TRAINING-STACK-DEVICE: optimum-habana off
            # Gaudi), as a serving copy's framework does not: no count changes that
            last_reason = why("software", "plan.why.ruled_out", rule=unsupported[0],
                              title=[("", "rule.title", {"title": book.rules[unsupported[0]].title})])
            break
        joined = rejected_reading(book, verdict, SYSTEMS)
        if joined:  # more systems joined than the rules let (a DGX Spark cluster beyond its maker's four): more
            # GPUs join more of them; a fewer GPUs' missed deadline stays the reason
            if last_reason.kind != "deadline":
                last_reason = why("software", "plan.why.ruled_out", rule=joined[0],
                                  title=[("", "rule.title", {"title": book.rules[joined[0]].title})])
            break
        if not verdict.fits:  # the memory rules let no layout of n GPUs through
            if owned and n <= owned:
                s.owned_reason[g.id] = why("memory", "plan.why.owned_memory", n=n, need=ev.memory.per_gpu / 1e9,
                                           usable=ev.usable / 1e9)
            continue
        short = rejected_reading(book, verdict, HOST_RAM) if ev.host_ram_from == "shared" else []
        if short:  # the GPU's memory is the system's only memory (a DGX Spark): the offloaded state goes there too,
            # bought or rented; more systems hold a smaller share each
            last_reason = why("memory", "plan.why.ruled_out", rule=short[0],
                              title=[("", "rule.title", {"title": book.rules[short[0]].title})])
            continue
        ev.complete()
        wall = float((ev.speed.wall_hours if ev.speed else None) or 0.0)
        if wall <= 0:
            last_reason = why("estimate", "plan.why.no_time")
            continue
        timed = _verdict(book, s, ev)  # the deadline rules judge the completed estimate
        if not timed.fast_enough or rejected_reading(book, timed, TIME):
            last_reason = why("deadline", "plan.why.deadline", days=wall / 24, n=n, allowed=s.deadline_hours / 24)
            if owned and n <= owned:
                s.owned_reason[g.id] = why("deadline", "plan.why.owned_deadline", n=n, days=wall / 24,
                                           allowed=s.deadline_hours / 24)
            continue
        opt = Option(g.id, n, wall_hours=wall, layout=ev.label(), rejected=tuple(timed.rejected),
                     step_batch=step_batch(ev))
        refused = _rent(s, g, n, opt, book, ev)
        if ev.host_ram_needed_bytes_per_node:  # the server's RAM as a bought one's (no offer's): what recommend
            # says of buying it (MEM-HOST-RAM-BUY), the plan says of its purchase
            fact = candidate_fact(s.job, ev, "buy")
            opt.host_ram = {k: fact[k] for k in HOST_RAM_FACTS}
        if refused and not buy_only and not (owned and n <= owned):
            # no rented server of n holds the offloaded state: more GPUs (more servers, a smaller share of the state
            # each) may; the plan states no bought server's RAM, so the count a rented one holds it at is the count
            last_reason = why("memory", "plan.why.ruled_out", rule=refused[0],
                              title=[("", "rule.title", {"title": book.rules[refused[0]].title})])
            ram_short = True
            if not rent_only and bought is None and K.price_entry(s.job.kb.prices, g.id) is not None:
                bought = opt
            continue
        if rent_only and ram_short and opt.rent_usd_per_hour is None and not owned:
            # no cloud rents this many (RunPod's 4090s come 8 to a server): the fewer's host RAM stays the reason,
            # where the option would be dropped as 'no cloud rents' the GPU (hostile round 35)
            continue
        if n < min(owned, max_gpus) and _owned_short(pf, kb, s, g, opt):
            # the owned servers' RAM cannot hold this count's offloaded state: more of the owned GPUs may run it
            # without offload (their state on the GPUs), as a rental short of RAM tries more GPUs
            short_owned = short_owned or (opt, timed)
            continue
        _place(s, g, opt, timed, book, max_gpus, owned, rent_only)
        return
    if short_owned is not None:
        _place(s, g, *short_owned, book, max_gpus, owned, rent_only)
        return
    if bought is not None:  # no rented server of any count holds the state, but the plan may buy: the fewest GPUs
        # that run it are bought, their server's RAM the buyer's to choose (MEM-HOST-RAM-BUY), as recommend keeps the
        # purchase where every rental is short (TCO-BUY-RENTAL-SHORT); not rented (no rent_usd_per_hour)
        s.options[g.id] = bought
        if owned and bought.count > owned:
            s.owned_reason.setdefault(g.id, why("owned", "plan.why.owned_too_few", n=bought.count, owned=owned))
        return
    s.why_not[g.id] = last_reason
    if owned:
        s.owned_reason.setdefault(g.id, last_reason)


def _place(s: Sized, g: Gpu, opt: Option, timed: Verdict, book: Rulebook, max_gpus: int, owned: int,
           rent_only: bool) -> None:
    """``opt`` the option of ``g`` for the run, with its rental on the GPUs its instances pay for."""
    _on_paid(s, g, opt, timed, book, max_gpus, rent_only and not owned)
    s.options[g.id] = opt
    n = opt.count
    if owned and n > owned:
        s.owned_reason.setdefault(g.id, why("owned", "plan.why.owned_too_few", n=n, owned=owned))
    elif owned:
        s.owned_reason.pop(g.id, None)  # an earlier count's reason no longer holds


def _on_paid(s: Sized, g: Gpu, opt: Option, timed: Verdict, book: Rulebook, max_gpus: int, only: bool) -> None:
    """A run rented by the instance on fewer GPUs than the instances pay for (2 L4s of a g6.48xlarge's 8), or on an
    offer rented only as a whole node (clouds.yaml min_gpus: 4 V100s of Lambda's 8x), is rented on all of them: the
    bill is the instances' whatever the run uses, and more GPUs finish it sooner. Kept where the rules reject
    nothing there they did not reject of ``opt.count`` and it is faster; bought or owned, the run stays on
    ``opt.count``, unless renting is its ``only`` way (the option is the rental then)."""
    paid = opt.rent_gpus_paid
    if not opt.count < paid <= max_gpus:
        return
    ev = evaluate(s.job, g, paid, defer=True)
    if not _verdict(book, s, ev).fits:
        return
    offer = next((o for o in offers_for(s.job, g, paid)
                  if o.instance == opt.rent_instance and o.provider == opt.rent_provider), None)
    if ev.host_ram_needed_bytes_per_node and ev.topology:
        ev.host_ram_gb, ev.host_ram_from = rented_host_ram(s.job.kb, g, ev.topology.per_node, offer,
                                                             ev.memory.per_gpu, ev.topology.gpus)
    ev.complete()
    wall = float((ev.speed.wall_hours if ev.speed else None) or 0.0)
    if 0 < wall < opt.wall_hours and set(_verdict(book, s, ev).rejected) <= set(timed.rejected):
        opt.rent_count, opt.rent_wall_hours = paid, wall
        if only:
            opt.count, opt.wall_hours, opt.layout, opt.step_batch = paid, wall, ev.label(), step_batch(ev)


def owned_run_fact(pf: PlanFile, kb: Knowledge, name: str, g: str, count: int, h: dict[str, Any]) -> dict[str, Any]:
    """A run on ``count`` owned GPUs of ``g`` that keeps its state in host RAM (``h``: Option.host_ram, the
    estimate's), with the RAM the plan states of the owned servers (owned[].host_ram_gb, -1 where an entry of the type
    states none), as the plan_owned_run rules (rules/plan.yaml PLAN-OWNED-HOST-RAM-*) read it. Where the owned servers
    are given (owned[].servers), the state is spread over the servers the run spans rather than the estimate's
    nodes."""
    mine = [w for w in pf.owned if kb.gpu(w.gpu).id == g]
    stated = [w.host_ram_gb for w in mine]
    need = h["host_ram_needed_gb"]
    if mine and all(w.servers for w in mine):  # the state over the owned servers the run spans
        per_server = math.ceil(sum(w.count for w in mine) / sum(w.servers for w in mine))
        need = need * math.ceil(h["count"] / max(h["per_node"], 1)) / math.ceil(count / per_server)
    return {"t": "plan_owned_run", "workload": name, "gpu": g, "gpu_name": kb.gpus[g].name, "count": count,
            "offload": h["offload"], "host_ram_needed_gb": need,
            "host_ram_gb": min(stated) if stated and None not in stated else -1.0}


def _serving_option(s: Sized, g: Gpu, max_gpus: int, owned: int, book: Rulebook, pf: PlanFile) -> None:
    """The option of ``g`` for the service ``s``: a copy on the fewest GPUs that hold it within the targets, or on a
    larger size whose copies carry the load for less (:mod:`.copies`); else why none carries it. A copy on owned or
    bought GPUs sits in one server; where the type's rental is smaller instances than such a copy (T4s, sold only as
    one-GPU g4dn.xlarge), the rented copies are sized apart, as a plan that only rents sizes them (:func:`_rental`)."""
    split = pf.constraints.acquisition == "rent" and not owned
    last_reason = why("memory", "plan.why.memory_serving")
    for n in counts(min(max_gpus, COPY_TOP)):
        opt, reason, stop = _copy(s, g, n, book, split)
        if opt is None:
            last_reason = reason or last_reason
            if stop:
                break
            continue
        top = min(max_gpus, COPY_TOP)
        if owned and n <= owned:  # the owned GPUs take a larger copy only within them, one server's where stated
            top = min(top, owned, stated_server_gpus(pf, s.job.kb, g.id) or owned)
        opt = copies.cheapest(s, opt, copies.sizes(n, opt.rent_gpus_paid, gpus_per_server(g), top),
                              lambda k: _larger(s, g, k, book, split), split)
        if opt.rent_usd_per_hour is None and not split and pf.constraints.acquisition != "buy" and \
                offers_for(s.job, g, opt.count):  # its rental was smaller instances than the copy (copies.unrented)
            rented = _rental(s, g, max_gpus, book)
            if rented is not None:
                copies.rent_as(s, opt, rented)
        s.options[g.id] = opt
        if owned and opt.count > owned:
            s.owned_reason.setdefault(g.id, why("owned", "plan.why.owned_copy", n=opt.count, owned=owned))
        return
    s.why_not[g.id] = last_reason
    if owned:
        s.owned_reason.setdefault(g.id, last_reason)


def _rental(s: Sized, g: Gpu, max_gpus: int, book: Rulebook) -> Option | None:
    """The rented copy of ``g`` as a plan that only rents sizes it: on the instances its offers sell, over their
    network (``split``), the size whose copies' on-demand rent is least (:func:`.copies.cheapest`); None where no
    rented copy carries any load."""
    top = min(max_gpus, COPY_TOP)
    for n in counts(top):
        opt, _, stop = _copy(s, g, n, book, True)
        if opt is None:
            if stop:
                return None
            continue
        if opt.rent_usd_per_hour is None:
            return None
        return copies.cheapest(s, opt, copies.sizes(n, opt.rent_gpus_paid, gpus_per_server(g), top),
                               lambda k: _larger(s, g, k, book, True), True)
    return None


def _larger(s: Sized, g: Gpu, n: int, book: Rulebook, split: bool) -> tuple[Option | None, bool]:
    """A larger copy than the fewest (:func:`_copy`); on a type only rented, kept only where its rental is what it was
    estimated on (not two one-V100 p3.2xlarge priced for a copy in one server, where some offer is a server)."""
    opt, _, stop = _copy(s, g, n, book, split)
    if split and opt is not None and opt.rent_instance and 0 < instance_gpus(s.job.kb, opt.rent_instance) < n and \
            not instance_split(s.job, g, n):
        return None, False
    return opt, stop


def _copy(s: Sized, g: Gpu, n: int, book: Rulebook, split: bool) -> tuple[Option | None, Why | None, bool]:
    """A copy on ``n`` x ``g`` with its rental, as the rules judge it; else (None, why not, whether more GPUs cannot
    change that). A type only rented, sold only as smaller instances than the server (2 T4s as two g4dn.xlarge):
    the copy on those instances over their network (``split``), as recommend estimates the rental."""
    on = instance_split(s.job, g, n) if split else None
    # judged once, complete (one rule session costs more than the put-off steps)
    ev = evaluate(s.job, g, n, nodes=on[0], network=on[1]) if on else evaluate(s.job, g, n)
    verdict = _verdict(book, s, ev)
    if not verdict.fits:
        return None, None, False
    sv = ev.serving  # None: no serving estimate (a diffusion model), no capacity
    unsupported = rejected_on(book, verdict, "compatibility")
    if unsupported:  # the software does not run here (CMP-FRAMEWORK-GPU/-PRECISION): no count changes that
        said = sv.support.detail_phrases if sv is not None and sv.support.reason != "ok" else None
        return None, (Why("software", said) if said else copies.ruled(book, unsupported[0], "software")), True
    spans = rejected_reading(book, verdict, COPY)
    if spans:  # its copy spans more servers than the rules let the framework (CMP-FRAMEWORK-NODES): more GPUs
        return None, copies.ruled(book, spans[0], "software"), True  # do not make the smallest copy smaller
    cap = 0.0 if sv is None else float(sv.max_throughput_tokens_per_s or 0.0) if s.measure == "tokens_per_s" \
        else float(sv.max_throughput_concurrency or 0.0)
    cap = _within_p95(s, sv, cap)
    if cap <= 0 or rejected_reading(book, verdict, LATENCY):  # the latency rules reject it at its load
        return None, copies.latency_reason(book, verdict, n), False
    opt = Option(g.id, n, capacity=cap, layout=ev.label())
    _rent(s, g, n, opt)
    if not split and opt.rent_instance and 0 < instance_gpus(s.job.kb, opt.rent_instance) < n:
        # priced on smaller instances than the server it was estimated in, a rental that does not hold it: a copy
        # on owned or bought GPUs, unrented; its rented copies are sized apart (_serving_option)
        copies.unrented(opt)
    return opt, None, False
