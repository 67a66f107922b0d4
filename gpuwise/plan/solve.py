"""The plan as a mixed-integer program over the months, solved with HiGHS (:mod:`.milp`).

Variables, per GPU type ``g`` and month ``m``:

* ``buy[g,m]`` - whole units ordered in month ``m`` (servers where the catalog sells servers, cards
  otherwise), usable from month ``m + delivery``;
* ``own[w,m,g]`` / ``rent[w,m,g]`` - runs of training workload ``w`` on the fleet or on rented GPUs;
  ``wide[w,m,g]`` - its runs on every GPU of a server bought, where it may use them (:func:`.hardware.on_units`),
                     or on more of the owned GPUs (:func:`.hardware.on_owned`);
* ``own[s,m,g]`` / ``rent[s,m,g]`` - copies of service ``s``'s model on the fleet or rented on
  demand for the month (whole copies, integers);
* ``commit[s,g,t,o,k]`` - rentals of ``k`` copies each of service ``s``'s model on a committed term ``t`` (1 month,
  1 year, 3 years: the rates the offers publish) from month ``o`` (``k`` 1: a copy alone; more where one rental holds
  several for less a copy, an 8-GPU instance's eight one-GPU copies): they carry its load in every month of
  the term and are paid for every hour of it, months past the horizon included (in the last
  month), so the program takes a commitment only where it costs less over the months used;
* slack for work that cannot be placed and for money over a budget, priced far above any real cost
  so the program uses them only when nothing else is possible (the result states what was left).

Constraints: each month's runs and service load are placed; the fleet (owned + arrived purchases)
is never booked beyond its GPUs (a copy holds its GPUs all month; a run holds its GPUs together for its hours,
so a binary ``held[w,m,g]``, 1 where any of the month's runs of ``w`` are on the fleet, asks that its GPUs be
free beside every copy, while runs take turns: any set of them holds no more GPUs at once than owned + bought - the
copies' GPUs, :func:`.together.turns`) nor beyond its schedulable hours
(``plan_owned_availability`` of the month); each run is whole, on the fleet or rented, never a share of it in each
(:func:`.together.whole`); cash out per quarter and in total within the budgets.
Objective: cash over the horizon - capex, hosting, power, rent - less the resale of what was bought, at the end.

Baselines are points of the same program: *rent everything* (no purchase, the fleet unused) and
*buy for the peak* (the cheapest GPU type bought in the first month in the units that carry the
peak, renting only before it arrives). The plan is the program's optimum, so it never costs more
than a baseline that keeps to the same constraints; :func:`plan` checks it.
"""

from __future__ import annotations

import math
from dataclasses import field
from typing import TYPE_CHECKING, Any

from ..estimators import cost as K
from ..frozen import record
from ..knowledge import Knowledge
from ..messages import Phrase
from . import copies, together
from .fleet import Fleet, Unit
from .milp import Model, Solution
from .sizing import DAYS_PER_MONTH, HOURS, Sized

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu

UNPLACED_RUN = 1e9
"""Objective weight of a run left unplaced (per run): far above any real plan's cost."""
UNSERVED = 1e7
"""Objective weight of a unit of service load (token/s or sequence) not carried in a month."""
#: A program over more months than this is solved in two steps (:func:`solve`). The search's cost
#: grows much faster than its months: the bundled team plan (``examples/plan-team-4090.yaml``)
#: closes at 12 months in 0.25 CPU-s and at 24 in 2.7, while at 36 it stops at NODE_LIMIT after
#: 46 CPU-s and at 60 after 144 (its objective still 2.8 % above its bound at 36). What makes it
#: hard is the whole copies rented each month together with the whole units bought, under budgets
#: that cost ten times an overrun: with the rented copies fractional the 36-month program closes in
#: 1.6 CPU-s, and with the purchases held at their values in 1.8; the LP relaxation of the whole
#: program (642 k) is a quarter of its optimum (2.66 M), so a search over both does not close.
#: Since each site is billed once over all it hosts (a colocation minimum a month, power at each site's
#: PUE), many purchase mixes cost nearly the same and the one-step search no longer closes at 24 months:
#: the team plan stopped at the node limit after 41 CPU-s (1.7 % gap), where two steps give $153,283 in
#: 4.7 CPU-s, 0.12 % dearer than that search's $153,097; 12 months still close in one step.
LONG_HORIZON = 12
#: The first step's node limit: it chooses the purchases only, on copies that are themselves an
#: approximation, and the second step corrects each order by a unit. Orders kept to a quarter's first
#: month after the first year made the first step cheaper but the plan dearer where the load grows
#: fast: 3.8 % on the held-out growing service (+25 % a month) over 60 months, so every month stays.
FIRST_STEP_NODES = 100
#: Each second-step search's node limit (one run, no second at HEURISTIC_EFFORT). The team plan's
#: close within it at 36 and 60 months (at 1,000 one at 36 stopped 0.1 % dearer); at 48 one ran
#: 5,000 nodes twice without closing (36 CPU-s in all), and stops here at 20 CPU-s 0.005 % dearer. With each
#: site billed once the 48- and 60-month ones stopped here again; with each order bounded by what the fleet could
#: use (:func:`_most_units`) and linked to its site once, every one closes within it at 12-60 months.
SECOND_STEP_NODES = 2_500
OVER_BUDGET = 10.0
"""Objective weight of a dollar over a budget: the program spends up to ten dollars elsewhere to
save one over the budget, and goes over only when the work cannot be done otherwise."""


def fleet_for(kb: Knowledge, gpu: Gpu, owned: int, owned_hosting: str, *, electricity: float, hosting: str | None,
              market: str, usd_cny: float, refused: tuple[Phrase, ...] = (), need: int = 1,
              machines: list[int] | None = None) -> Fleet:
    """Owned GPUs' running costs and the price of one unit bought, from tco.yaml and prices.yaml
    (the purchase through :func:`gpuwise.estimators.cost.buy_cost`). ``refused``: why the rules
    refuse buying it in ``market``, as message ids with values (:func:`gpuwise.decide.verdicts.buy_refusal`:
    the export, import and procurement rules, a house rule); it then cannot be bought, and
    ``buy_reason`` is that. ``need``: the largest copy or run of a workload on it; where one unit's machine
    holds fewer GPUs, a machine that holds it (or whole nodes and their network) is a second way to buy
    it (:class:`Unit`). Where no hosting is stated and none is owned, the units go where recommend and
    audit put one purchase (:func:`gpuwise.estimators.cost.hosting_for`), an office within what it holds
    and colocation past it."""
    tco = kb.tco
    f = Fleet(gpu=gpu, owned=owned, owned_hosting=owned_hosting)
    # the owned GPUs' host by the machines they sit in (``machines``: each one's GPUs; unstated, one of them all), as
    # the same machine bought draws (cost.machine_host_w): a desktop's 250 W over its cards, a server's 410 W a GPU
    host_w = K.owned_host_w(gpu, machines or [owned], tco, kb.prices) / owned if owned else K.host_w_per_gpu(gpu, tco)
    h = tco.hosting.get(owned_hosting) if tco.hosting else None
    pue = h.pue if h else tco.values["pue"].value
    per_gpu_kw = (gpu.power.tdp_w + host_w) / 1000
    f.owned_power_per_gpu_hour = per_gpu_kw * pue * electricity
    f.owned_power = {"tdp_w": gpu.power.tdp_w, "host_w": host_w, "pue": pue, "usd_per_kwh": electricity}
    if owned:
        kw = per_gpu_kw * owned
        rate = h.rent_usd_per_kw_month if h else tco.values["hosting_usd_per_kw_month"].value
        billed = max(kw, h.min_billed_kw) if h and rate > 0 else kw
        f.owned_hosting_per_month, f.owned_kw, f.owned_rate = billed * rate, kw, rate
        f.owned_formula = {"it_kw": round(kw, 3), "billed_kw": round(billed, 3), "usd_per_kw_month": rate,
                           "pue": pue, "hosting": owned_hosting, "tdp_w": gpu.power.tdp_w, "host_w": host_w}
    entry = K.price_entry(kb.prices, gpu.id)
    if entry is None:  # why, with the reason prices.yaml excludes it where it does (a GB10: sold only in a Spark)
        f.buy_reason = K.buy_plan(kb.prices, gpu, 1, tco, market=market, usd_cny=usd_cny)[1] or (
            ("", "buy.no_price", {"gpu": gpu.name}),)
        return f
    if refused:  # the market rules' verdict (MARKET-EXPORT-BUY, MARKET-CHINA-IMPORT-BLOCKED, a house rule)
        f.buy_reason = tuple(refused)
        return f
    u = entry.units
    whole = u.sold_as != "server" and gpu.link.server_gpus == 1
    unit = min(u.sizes) if u.sold_as == "server" else 1
    holds = unit if u.sold_as == "server" or whole else u.max_per_node
    # where the owned GPUs of its type are in colocation or a datacenter, there; else (None) where recommend and
    # audit put a purchase (cost.hosting_for): an office while it holds them; priced() takes the host share by it
    where = hosting or (owned_hosting if owned and owned_hosting != "office" else None)

    def priced(n: int, site: str | None) -> Any:
        plan, _ = K.buy_plan(kb.prices, gpu, n, tco, market=market, usd_cny=usd_cny, hosting=where)
        return K.buy_cost(gpu, n, months=1, busy_hours=1, electricity=electricity, tco=tco, prices=kb.prices,
                          networks=kb.runtime.networks, hosting=site, usd_cny=usd_cny, market=market,
                          plan=plan) if plan is not None else None

    bc = priced(unit, where)
    if bc is None or bc.plan is None:
        _, why = K.buy_plan(kb.prices, gpu, unit, tco, market=market, usd_cny=usd_cny)
        f.buy_reason = why or (("", "buy.none", {"gpu": gpu.name}),)
        return f
    f.unit, f.unit_capex, f.unit_hardware = unit, bc.capex, bc.cards.value
    f.unit_parts = _parts(bc)
    f.unit_hosting = {k: bc.hosting.inputs[k] for k in ("billed_kw", "usd_per_kw_month")}
    f.unit_hosting_per_month = bc.hosting.value
    f.bought_power_per_gpu_hour = bc.power.value / unit
    pw = bc.power.inputs  # the unit's: its GPUs' TDP and the host's watts over them, the site's PUE
    f.bought_power = {"tdp_w": pw["tdp_w"], "host_w": pw["host_w"] / unit, "pue": pw["pue"],
                      "usd_per_kwh": pw["usd_per_kwh"]}
    f.bought_hosting, f.sold_as, f.condition = bc.hosting_name, bc.plan.sold_as, bc.plan.condition
    f.buy_as_of, f.buy_source = bc.plan.as_of, bc.plan.source
    f.holds = holds
    office = tco.hosting.get("office") if tco.hosting else None
    if where is None and bc.hosting_name == "office" and office is not None:
        # in an office by the default rule while it holds them (cards: one desktop; desktop systems: max_kw),
        # the rest in colocation, as recommend and audit host one purchase
        f.office_limit = float(u.max_per_node) if not whole else office.max_kw
    f.units = [_unit(bc, unit, holds, f.office_limit is not None, whole, tco)]
    if f.office_limit is not None:
        colo = priced(unit, "colocation")
        if colo is not None and colo.plan is not None:
            f.units.append(_unit(colo, unit, holds, False, whole, tco))
    if need > holds:  # a copy or run larger than one unit's machine: bought as a machine (or nodes) that holds it
        n = need if u.sold_as != "server" else (
            next((x for x in sorted(u.sizes) if x >= need), None) or max(u.sizes) * math.ceil(need / max(u.sizes)))
        big = priced(n, where)  # (every count has a shape in the catalog's units; none priced: owned or rented only)
        if big is not None and big.plan is not None:
            f.units.append(_unit(big, n, n, f.office_limit is not None and big.hosting_name == "office", whole, tco))
    elif u.sold_as == "workstation" and not whole:
        # cards bought together as one desktop of 2 .. max_per_node, as recommend and audit price that many (one
        # host's tco.yaml workstation_host_w over its cards, cost.machine_host_w): the card alone is a desktop with a
        # host of its own, so two bought for a 2-GPU run were '2 x 1-GPU workstation', drawing two hosts' power where
        # recommend priced one 2-card desktop (review60b's Left, plan64). The card stays a unit, for cards added one
        # at a time.
        for n in range(2, holds + 1):
            for site in (where, "colocation") if f.office_limit is not None else (where,):  # as the card's units
                desk = priced(n, site)
                if desk is None or desk.plan is None or desk.plan.sold_as != "workstation":
                    continue
                d = _unit(desk, n, n, f.office_limit is not None and desk.hosting_name == "office", whole, tco)
                if d.power["host_w"] < f.units[0].power["host_w"] - 1e-9:  # one host over its cards (not a server's
                    f.units.append(d)  # share a GPU, as a card in a stated datacenter has: no desktop to share)
    return f


def _parts(bc: Any) -> dict[str, float]:
    return {"hardware_usd": bc.cards.value, "host_usd": bc.server.value,
            "network_usd": bc.network.value if bc.network is not None else 0.0}


def _unit(bc: Any, n: int, holds: int, office: bool, whole: bool, tco: Any) -> Unit:
    nodes = bc.plan.nodes if n > 1 and n % bc.plan.nodes == 0 else 1
    # cards in PCIe servers (more than a desktop holds) are bought as those servers
    sold_as = "server" if bc.plan.sold_as == "card" and n > 1 else bc.plan.sold_as
    site = {k: bc.hosting.inputs[k] for k in ("billed_kw", "usd_per_kw_month")}
    per_month = bc.hosting.value
    if site_minimum(tco, bc.hosting_name) is not None:
        # billed its own kW: the site's minimum contract is billed once over all it holds (:func:`build`)
        site["billed_kw"] = bc.it_kw
        per_month = bc.it_kw * site["usd_per_kw_month"]
    pw = bc.power.inputs  # busy_hours 1: one hour of the unit's GPUs at its site's PUE
    power = {"tdp_w": pw["tdp_w"], "host_w": pw["host_w"] / n, "pue": pw["pue"], "usd_per_kwh": pw["usd_per_kwh"]}
    return Unit(n, bc.capex, bc.cards.value, _parts(bc), site, per_month, bc.hosting_name, sold_as, holds,
                (bc.it_kw if whole else n) if office and bc.hosting_name == "office" else 0.0, nodes,
                bc.plan.host_key if bc.server.value > 0 else "", bc.it_kw, bc.power.value / n, power)


def site_minimum(tco: Any, site: str) -> tuple[float, float] | None:
    """A site's minimum contract, (its kW, USD a kW-month), where tco.yaml bills one (hosting.<site>.min_billed_kw
    at a rent above 0; colocation's quarter rack): everything the plan hosts there in a month, owned and bought, of
    every type, is billed together, its total kW or the minimum, whichever is more, as recommend and audit bill the
    machines of one purchase (:func:`gpuwise.estimators.cost.buy_cost`). None where the site bills its kW alone."""
    h = tco.hosting.get(site) if tco is not None and tco.hosting else None
    if h is None or h.rent_usd_per_kw_month <= 0 or h.min_billed_kw <= 0:
        return None
    return h.min_billed_kw, h.rent_usd_per_kw_month


@record
class Setting:
    """Which ways of getting capacity a program may use."""

    buy: bool = True
    rent: bool = True
    owned: bool = True
    fixed_buy: dict[tuple[str, int, int], int] | None = None  # (gpu, month, Fleet.units index) -> units; others 0
    rent_until: int | None = None  # rent only in months before this one
    skip: frozenset[str] = frozenset()  # workloads left out (what a service costs the plan)
    commit: bool = True  # services may be rented on committed terms (not with rent_until)


@record
class Program:
    model: Model
    buy: dict[tuple[str, int], int] = field(default_factory=dict)
    own_run: dict[tuple[str, int, str], int] = field(default_factory=dict)
    wide_run: dict[tuple[str, int, str], int] = field(default_factory=dict)  # a server bought's GPUs, or more owned
    # (workload, month, gpu, 'own' or 'wide') -> 1 where the month's runs on the fleet hold their GPUs (binary)
    held: dict[tuple[str, int, str, str], int] = field(default_factory=dict)
    width: dict[tuple[str, int], list[int]] = field(default_factory=dict)  # (gpu, month) -> its runs' width rows
    rent_run: dict[tuple[str, int, str], int] = field(default_factory=dict)
    own_copy: dict[tuple[str, int, str], int] = field(default_factory=dict)
    # a service's copies on GPUs bought, where its owned copies span the owned servers (Option.own_capacity)
    buy_copy: dict[tuple[str, int, str], int] = field(default_factory=dict)
    rent_copy: dict[tuple[str, int, str], int] = field(default_factory=dict)
    rent_pack: dict[tuple[str, int, str], int] = field(default_factory=dict)  # rentals holding several copies each
    # (service, gpu, term, start, copies one rental holds) -> committed rentals
    commit: dict[tuple[str, str, str, int, int], int] = field(default_factory=dict)
    unplaced: dict[tuple[str, int], int] = field(default_factory=dict)
    over: dict[str, int] = field(default_factory=dict)  # budget row name -> slack variable
    rows: dict[str, int] = field(default_factory=dict)  # named rows: count/hours per (g, m), budgets
    fixed_cost: float = 0.0
    # a type whose GPUs draw power at more than one rate (sites' PUE, hosts): g -> [(USD a GPU-hour, site, operands)];
    # its GPU-hours of work in a month are spread over them (g, m, class) -> variable, within the GPUs of each
    power_classes: dict[str, list[tuple[float, str, dict[str, Any]]]] = field(default_factory=dict)
    power_hours: dict[tuple[str, int, int], int] = field(default_factory=dict)
    topup: dict[tuple[str, int], int] = field(default_factory=dict)  # (site, month) -> USD up to its minimum


@record
class Inputs:
    H: int
    delivery: int
    availability: float
    fleets: dict[str, Fleet]
    sized: list[Sized]
    budget_quarter: float | None
    budget_total: float | None
    tco: Any = None


def _arrived(inp: Inputs, g: str, m: int, p: Program) -> dict[int, float]:
    """Units of ``g`` usable in month ``m`` (ordered in months up to ``m - delivery``): variable -> its Unit."""
    units = inp.fleets[g].units
    return {j: units[k] for (g2, o, k), j in p.buy.items() if g2 == g and o <= m - inp.delivery}


def build(inp: Inputs, s: Setting) -> Program:
    m_ = Model()
    p = Program(m_)
    H, L = inp.H, inp.delivery
    # purchases
    for g, f in inp.fleets.items():
        if not (s.buy and f.unit):
            continue
        office: dict[int, float] = {}
        for k, u in enumerate(f.units):
            for o in range(1, H - L + 1):
                months_used = H - (o + L) + 1
                fixed = s.fixed_buy.get((g, o, k), 0) if s.fixed_buy is not None else None
                cost = u.capex + u.hosting_per_month * months_used - u.hardware * _resale(inp, f, H - o + 1)
                ub = fixed if fixed is not None else 10_000
                j = p.buy[(g, o, k)] = m_.var(f"buy[{g},{o},{k}]", lb=fixed or 0, ub=ub, cost=cost, integer=True)
                if u.office:
                    office[j] = u.office
        if office and f.office_limit is not None:  # what the office holds: the rest go to colocation
            m_.row(f"office[{g}]", office, ub=f.office_limit)
    # cash rows per month (capex + rent + power + bought hosting), for the budgets
    cash: dict[int, dict[int, float]] = {m: {} for m in range(1, H + 1)}
    joint = joint_sites(inp)
    fixed_month = sum(owned_per_month(f, joint) for f in inp.fleets.values() if f.owned)
    p.fixed_cost = fixed_month * H

    def add(m: int, j: int, a: float) -> None:
        cash[m][j] = cash[m].get(j, 0.0) + a

    for (g, o, k), j in p.buy.items():
        u = inp.fleets[g].units[k]
        add(o, j, u.capex)
        for m in range(o + L, H + 1):
            add(m, j, u.hosting_per_month)
    committed = _commitments(inp, s, p, add)
    use_count: dict[tuple[str, int], dict[int, float]] = {}  # GPUs the copies hold all month
    runs_at: dict[tuple[str, int], list[int]] = {}  # the runs' held switches (their GPUs: ``size``)
    turns: dict[tuple[str, int], list[tuple[int, int, float]]] = {}  # runs on the fleet: GPUs, wall hours a run
    held_of: dict[int, int] = {}  # a run variable's held switch (together.turns: a run counted once where it meets)
    use_hours: dict[tuple[str, int], dict[int, float]] = {}
    at_once: dict[tuple[str, int], dict[int, float]] = {}  # copies (runs) at once on the fleet
    size: dict[int, int] = {}  # GPUs of one copy (run)
    power_hours: dict[tuple[str, int], dict[int, float]] = {}  # GPU-hours of work on the fleet
    bought_count: dict[tuple[str, int], dict[int, float]] = {}  # GPUs of copies counted apart on units bought
    p.power_classes = _power_classes(inp, s)

    def use(table: dict, key: tuple[str, int], j: int, a: float) -> None:
        table.setdefault(key, {})[j] = table.setdefault(key, {}).get(j, 0.0) + a

    for sz in inp.sized:
        if sz.name in s.skip:
            continue
        for m in range(1, H + 1):
            if not sz.active(m):
                continue
            rent_ok = s.rent and (s.rent_until is None or m < s.rent_until)
            if not sz.serving:
                R = sz.runs[m - 1]
                terms: dict[int, float] = {}
                for g, opt in sz.options.items():
                    f = inp.fleets[g]
                    fleet_here = f.owned if s.owned else 0
                    # kept off the owned GPUs by the rules (their servers' stated RAM: on_hardware), and so
                    # off the type's fleet, whose GPUs a run on as many as are owned is placed on first
                    can_own = (fleet_here > 0 or bool(s.buy and f.unit)) and not opt.owned_refused
                    # on the fleet: on the fewest that fit, or (a type only bought) on every GPU of its server
                    # where they are free (hardware.on_units), or on more of the owned GPUs, one owned server's
                    # (hardware.on_owned): the GPUs at once and the power choose
                    ways = [(p.own_run, opt.count, opt.gpu_hours)] if can_own and not opt.fewest_refused else []
                    if can_own and ((opt.buy_count and s.buy and f.unit) or (opt.own_count and fleet_here)):
                        ways.append((p.wide_run, opt.wide_count, opt.wide_gpu_hours))  # or on more of the owned
                    for table, n, gpu_hours in ways:
                        power = _power(p, g, f, gpu_hours)
                        kind = 'wide' if n != opt.count else 'own'
                        j = m_.var(f"{kind}[{sz.name},{m},{g}]", ub=R, cost=power)
                        table[(sz.name, m, g)] = j
                        terms[j] = 1.0
                        add(m, j, power)
                        use(power_hours, (g, m), j, gpu_hours)
                        use(use_hours, (g, m), j, gpu_hours)
                        # a run holds its n GPUs together for its hours, whatever share of the month's runs is on
                        # the fleet: ``held`` is 1 where any is, and its n GPUs must then be free beside every copy,
                        # which serves all month (its width row, below); runs take turns, so their
                        # GPU-hours together are bounded by the hours row. Counted as n x its share of the month's
                        # runs (n / R a run) in the GPUs at once, a 16-GPU run was placed 0.26 on 16 owned GPUs
                        # while 4 of them served (review57), as if it could borrow fractions of GPUs
                        y = p.held[(sz.name, m, g, kind)] = m_.var(f"held[{sz.name},{m},{g},{kind}]", ub=1.0,
                                                                   integer=True)
                        m_.row(f"held[{sz.name},{m},{g},{kind}]", {j: 1.0, y: -R}, ub=0.0)
                        m_.loose.add(y)  # what more GPUs at once are worth: read with it free (milp Model.loose)
                        runs_at.setdefault((g, m), []).append(y)
                        turns.setdefault((g, m), []).append((j, n, gpu_hours / n))  # (together.turns)
                        held_of[j] = y
                        together.whole(m_, j, R)  # each run in one place
                        size[y] = n
                    if rent_ok and opt.rent_usd_per_hour is not None:
                        price = opt.rent_usd_per_hour * opt.rented_wall_hours  # on every GPU paid for
                        j = m_.var(f"rent[{sz.name},{m},{g}]", ub=R, cost=price)
                        p.rent_run[(sz.name, m, g)] = j
                        terms[j] = 1.0
                        add(m, j, price)
                forced = not terms  # no option places it: held at R, its weight a constant (milp Model.aside)
                j = m_.var(f"unplaced[{sz.name},{m}]", lb=R if forced else 0.0, ub=R, cost=UNPLACED_RUN)
                if forced:
                    m_.aside.add(j)
                p.unplaced[(sz.name, m)] = j
                terms[j] = 1.0
                m_.row(f"runs[{sz.name},{m}]", terms, lb=R, ub=R)
            else:
                D = sz.demand[m - 1]
                hours = sz.hours_per_day * DAYS_PER_MONTH
                terms = {}
                for g, opt in sz.options.items():
                    f = inp.fleets[g]
                    rented = copies.rented_needed(sz, opt, m) + 1
                    # kept off the owned GPUs by the rules (a copy over the owned servers: hardware.on_owned_servers)
                    owned_here = f.owned if s.owned else 0
                    can_own = (owned_here > 0 or bool(s.buy and f.unit)) and not opt.owned_refused
                    # a copy over the owned servers carries what it does on their network (hardware.on_owned_servers);
                    # a copy on GPUs bought sits in one machine bought (solve.fleet_for: the unit's machine holds
                    # it, or a machine that holds it is bought), as sized: its own variable, at the copy's capacity
                    apart = bool(opt.own_capacity) and bool(s.buy and f.unit)
                    ways = [(p.own_copy, "own", opt.own_capacity or opt.capacity)] if can_own else []
                    if can_own and apart:
                        ways.append((p.buy_copy, "bought", opt.capacity))
                    for table, kind, cap in ways:
                        power = _power(p, g, f, opt.count * hours)
                        top = min(math.ceil(D / cap - 1e-9) + 1, 10_000)
                        j = m_.var(f"{kind}[{sz.name},{m},{g}]", ub=min(top, owned_here // opt.count) if apart and
                                   kind == "own" else top, cost=power, integer=True)
                        table[(sz.name, m, g)] = j
                        terms[j] = cap
                        add(m, j, power)
                        use(power_hours, (g, m), j, opt.count * hours)
                        use(use_count, (g, m), j, opt.count)
                        use(at_once, (g, m), j, 1.0)
                        size[j] = opt.count
                        use(use_hours, (g, m), j, opt.count * sz.hours_per_day / 24 * inp.availability * HOURS)
                        if kind == "bought":
                            use(bought_count, (g, m), j, opt.count)
                    # rented copies: their own size and capacity where the rental is smaller instances (sizing._rental)
                    if rent_ok and opt.rent_usd_per_hour is not None:
                        price = opt.rent_usd_per_hour * hours * (1 - opt.rent_discount)
                        j = m_.var(f"rent[{sz.name},{m},{g}]", ub=rented, cost=price, integer=True)
                        p.rent_copy[(sz.name, m, g)] = j
                        terms[j] = opt.rented_capacity
                        add(m, j, price)
                    pack = opt.rent_pack  # an instance or whole node of several copies, rented whole (sizing._pack)
                    if rent_ok and pack is not None:
                        price = pack.usd_per_hour * hours * (1 - opt.rent_discount)
                        j = m_.var(f"pack[{sz.name},{m},{g}]", ub=math.ceil(rented / pack.copies), cost=price,
                                   integer=True)
                        p.rent_pack[(sz.name, m, g)] = j
                        terms[j] = pack.copies * opt.rented_capacity
                        add(m, j, price)
                terms.update(committed.get((sz.name, m), {}))
                forced = not terms  # nothing can carry it: its load all unserved, a constant (milp Model.aside)
                j = m_.var(f"unserved[{sz.name},{m}]", lb=D if forced else 0.0, ub=D, cost=UNSERVED)
                if forced:
                    m_.aside.add(j)
                p.unplaced[(sz.name, m)] = j
                terms[j] = 1.0
                m_.row(f"load[{sz.name},{m}]", terms, lb=D)
    _power_sites(inp, s, p, power_hours, add)
    widths = {(g, m): [({y: float(size[y]), **use_count.get((g, m), {})}, y) for y in ys]
              for (g, m), ys in runs_at.items()}
    # the runs' GPUs at once beside the copies (together.turns): what its lanes and instants could ask
    pairs = {key: ({**use_count.get(key, {})}, together.at_once_gpus(m_, runs, inp.availability * HOURS))
             for key, runs in turns.items()}
    _most_units(inp, s, p, use_count, use_hours, widths, pairs)
    _site_minimums(inp, p, joint, add)
    # the fleet: GPUs at once, and schedulable hours
    for g, f in inp.fleets.items():
        owned = f.owned if s.owned else 0
        for m in range(1, H + 1):
            arrived = _arrived(inp, g, m, p)
            for table, kind, cap in ((use_count, "count", 1.0), (use_hours, "hours", inp.availability * HOURS)):
                if (g, m) not in table:
                    continue
                coefs = dict(table[(g, m)])
                for j, u in arrived.items():
                    coefs[j] = coefs.get(j, 0.0) - u.gpus * cap
                p.rows[f"{kind}[{g},{m}]"] = m_.row(f"{kind}[{g},{m}]", coefs, ub=owned * cap)
            together.fits(m_, g, m, f, owned, arrived, at_once.get((g, m), {}), size)
            for coefs, y in widths.get((g, m), ()):  # each run's GPUs free together beside the copies
                row = dict(coefs)
                for j, u in arrived.items():
                    row[j] = row.get(j, 0.0) - u.gpus
                p.width.setdefault((g, m), []).append(m_.row(f"width[{g},{m},{m_.names[y]}]", row, ub=owned))
                together.fits(m_, g, m, f, owned, arrived, {**at_once.get((g, m), {}), y: 1.0}, size, run=y)
            together.turns(m_, g, m, owned, turns.get((g, m), []), use_count.get((g, m), {}), arrived,
                           inp.availability * HOURS, held_of)
            if (g, m) in bought_count:  # those copies on the units arrived, not on the owned GPUs
                coefs = dict(bought_count[(g, m)])
                for j, u in arrived.items():
                    coefs[j] = coefs.get(j, 0.0) - u.gpus
                m_.row(f"bought[{g},{m}]", coefs, ub=0.0)
    # budgets: cash out (owned hosting included), resale not counted
    if inp.budget_quarter is not None:
        for q in range(math.ceil(H / 3)):
            months = range(3 * q + 1, min(H, 3 * q + 3) + 1)
            coefs: dict[int, float] = {}
            for m in months:
                for j, a in cash[m].items():
                    coefs[j] = coefs.get(j, 0.0) + a
            name = f"budget[Q{q + 1}]"
            slack = m_.var(f"over[{name}]", cost=OVER_BUDGET)
            p.over[name] = slack
            coefs[slack] = -1.0
            p.rows[name] = m_.row(name, coefs, ub=inp.budget_quarter - fixed_month * len(months))
    if inp.budget_total is not None:
        coefs = {}
        for m in range(1, H + 1):
            for j, a in cash[m].items():
                coefs[j] = coefs.get(j, 0.0) + a
        name = "budget[total]"
        slack = m_.var(f"over[{name}]", cost=OVER_BUDGET)
        p.over[name] = slack
        coefs[slack] = -1.0
        p.rows[name] = m_.row(name, coefs, ub=inp.budget_total - fixed_month * H)
    m_.offset = p.fixed_cost
    return p


def _most_units(inp: Inputs, s: Setting, p: Program, use_count: dict[tuple[str, int], dict[int, float]],
                use_hours: dict[tuple[str, int], dict[int, float]],
                widths: dict[tuple[str, int], list[tuple[dict[int, float], int]]],
                pairs: dict[tuple[str, int], tuple[dict[int, float], float]]) -> None:
    """Each order's bound: the units that carry, beyond the owned GPUs, the most GPUs (or GPU-hours) of the type
    the month that asks most of it could use with every copy and run on the fleet. A unit past them carries
    nothing and costs its price less resale and its hosting, so no plan buys it; the bound (10,000 before) is the
    big M that makes the site-in-use binary of :func:`_site_minimums` 1, and the search's range of each order."""
    m_ = p.model
    need: dict[str, float] = {}
    width = {(g, m, i): coefs for (g, m), rows in widths.items() for i, (coefs, _y) in enumerate(rows)}
    for table, cap in ((use_count, 1.0), (use_hours, inp.availability * HOURS), (width, 1.0)):
        for (g, *_m), coefs in table.items():
            gpus = sum(a * m_.ub[j] for j, a in coefs.items() if a > 0) / cap
            need[g] = max(need.get(g, 0.0), gpus)
    for (g, _m), (held, runs) in pairs.items():  # runs at once where they cannot all take turns (plan63, plan64)
        need[g] = max(need.get(g, 0.0), runs + sum(a * m_.ub[j] for j, a in held.items()))
    if s.fixed_buy is not None:  # a baseline's purchases, as stated
        return
    for (g, _o, k), j in p.buy.items():
        owned = inp.fleets[g].owned if s.owned else 0
        top = math.ceil(max(0.0, need.get(g, 0.0) - owned) / inp.fleets[g].units[k].gpus - 1e-9)
        m_.ub[j] = float(min(m_.ub[j], top))


def two_steps(H: int) -> bool:
    """Whether a program over ``H`` months is solved in two steps (:data:`LONG_HORIZON`)."""
    return H > LONG_HORIZON


def commitment_span(H: int, start: int, months: int) -> range:
    """The plan's months a commitment of ``months`` from ``start`` covers."""
    return range(start, min(H, start + months - 1) + 1)


def _commitments(inp: Inputs, s: Setting, p: Program, add: Any) -> dict[tuple[str, int], dict[int, float]]:
    """The committed-term variables of every service: (service, month) -> {variable: capacity}."""
    out: dict[tuple[str, int], dict[int, float]] = {}
    if not (s.rent and s.commit and s.rent_until is None):
        return out
    H = inp.H
    for sz in inp.sized:
        if not sz.serving or sz.name in s.skip:
            continue
        for g, opt in sz.options.items():
            # committed rentals of one copy, and of several where one holds them for less a copy (copies.reserved_rates)
            for term, r in [*opt.reserved.items(), *opt.reserved_pack.items()]:
                per_month = r.usd_per_hour * HOURS
                if dominated(sz, opt, r):
                    continue
                for o in range(1, H + 1):
                    span = commitment_span(H, o, r.months)
                    top = max(copies.rented_needed(sz, opt, m) for m in span)
                    if not sz.active(o) or top <= 0:
                        continue
                    j = p.model.var(f"commit[{sz.name},{g},{term},{o},{r.copies}]", ub=math.ceil(top / r.copies),
                                    cost=per_month * r.months, integer=True)
                    p.commit[(sz.name, g, term, o, r.copies)] = j
                    for m in span:
                        add(m, j, per_month)
                        if sz.active(m):
                            out.setdefault((sz.name, m), {})[j] = r.copies * opt.rented_capacity
                    after = o + r.months - 1 - H
                    if after > 0:  # signed for, paid after the plan's months: counted in the last one
                        add(H, j, per_month * after)
    return out


def dominated(sz: Sized, opt: Any, r: Any) -> bool:
    """A committed rental that never costs less than on demand: its month (every hour) costs at least what its copies
    rented on demand cost a month of the service's hours (copies.rent_of: alone, or in rentals rented whole), so no
    plan takes it; left out of the program. A commitment is paid in every month of its term, so one that does not beat
    on demand in a month of full use beats it in none."""
    if opt.rent_usd_per_hour is None:
        return False
    on_demand = copies.rent_of(opt, r.copies) * sz.hours_per_day * DAYS_PER_MONTH * (1 - opt.rent_discount)
    return on_demand <= r.usd_per_hour * HOURS * (1 + 1e-9)


def _power_classes(inp: Inputs, s: Setting) -> dict[str, list[tuple[float, str, dict[str, Any]]]]:
    """The power rates of each type's GPUs where it has more than one (owned in an office, bought in colocation:
    each at its site's PUE): g -> [(USD a GPU-hour, site, its operands)], the cheapest first."""
    out = {}
    for g, f in inp.fleets.items():
        classes = {}
        if f.owned and s.owned:
            classes[round(f.owned_power_per_gpu_hour, 9)] = (f.owned_power_per_gpu_hour, f.owned_hosting, f.owned_power)
        if s.buy and f.unit:
            for u in f.units:
                classes.setdefault(round(u.power_per_gpu_hour, 9), (u.power_per_gpu_hour, u.site, u.power))
        if len(classes) > 1:
            out[g] = [classes[k] for k in sorted(classes)]
    return out


def _power_class(f: Fleet, c: tuple[float, str, dict[str, Any]], u: Unit | None) -> bool:
    """Whether the owned GPUs (``u`` None) or a unit draw power at the rate ``c``."""
    rate = f.owned_power_per_gpu_hour if u is None else u.power_per_gpu_hour
    return round(rate, 9) == round(c[0], 9)


def _power_sites(inp: Inputs, s: Setting, p: Program, power_hours: dict[tuple[str, int], dict[int, float]],
                 add: Any) -> None:
    """Power where a type's GPUs draw it at more than one rate: each month's GPU-hours of work on the fleet are
    spread over the rates' GPUs, none beyond what its GPUs give (every hour of the month), each hour at its own
    rate (:func:`_power_classes`); the work goes to the cheapest first, as a team would load its office machines
    before the colocated ones."""
    m_ = p.model
    for g, classes in p.power_classes.items():
        f = inp.fleets[g]
        for m in range(1, inp.H + 1):
            work = power_hours.get((g, m))
            if not work:
                continue
            arrived = _arrived(inp, g, m, p)
            balance = {j: -a for j, a in work.items()}
            for c, cls in enumerate(classes):
                j = p.power_hours[(g, m, c)] = m_.var(f"power[{g},{m},{c}]", cost=cls[0])
                add(m, j, cls[0])
                balance[j] = 1.0
                coefs = {j: 1.0}
                for b, u in arrived.items():
                    if _power_class(f, cls, u):
                        coefs[b] = -u.gpus * HOURS
                owned = f.owned if s.owned and _power_class(f, cls, None) else 0
                m_.row(f"power_gpus[{g},{m},{c}]", coefs, ub=owned * HOURS)
            m_.row(f"power[{g},{m}]", balance, lb=0.0, ub=0.0)


def _power(p: Program, g: str, f: Fleet, gpu_hours: float) -> float:
    """Power for GPU-hours on the fleet at its one rate (owned GPUs' where they are owned, else the units'); a
    type with more than one rate is charged through :func:`_power_sites` instead."""
    if g in p.power_classes:
        return 0.0
    rate = f.owned_power_per_gpu_hour if f.owned else f.units[0].power_per_gpu_hour if f.units else 0.0
    return rate * gpu_hours


def joint_sites(inp: Inputs) -> dict[str, tuple[float, float]]:
    """The sites with a minimum contract (:func:`site_minimum`) where the plan may buy: site -> (kW, USD a
    kW-month). What the plan hosts there is billed together; a site it cannot buy into bills the owned alone."""
    out = {}
    for f in inp.fleets.values():
        for u in f.units if f.unit else ():
            mini = site_minimum(inp.tco, u.site)
            if mini is not None:
                out[u.site] = mini
    return out


def owned_per_month(f: Fleet, joint: dict[str, tuple[float, float]]) -> float:
    """The owned GPUs' hosting a month in the program: their kW where their site bills its minimum over all it
    holds (:func:`joint_sites`), else their bill alone."""
    return f.owned_kw * f.owned_rate if f.owned_hosting in joint else f.owned_hosting_per_month


def _site_minimums(inp: Inputs, p: Program, joint: dict[str, tuple[float, float]], add: Any) -> None:
    """Each month, a site with a minimum contract bills max(minimum, kW) x rate over all it holds: the units are
    billed their kW (:class:`Unit`), the owned theirs (:func:`owned_per_month`), and ``topup[site, m]`` the rest
    up to the minimum, once the site holds anything (``used[site, m]``, 1 from the month a unit arrives, as the
    owned GPUs there make it from the first)."""
    m_ = p.model
    arrival = {j: o + inp.delivery for (_g, o, _k), j in p.buy.items()}
    for site, (min_kw, rate) in joint.items():
        owned_kw = sum(f.owned_kw for f in inp.fleets.values() if f.owned and f.owned_hosting == site)
        used_before: int | None = None
        for m in range(1, inp.H + 1):
            units = {j: u for g in inp.fleets for j, u in _arrived(inp, g, m, p).items() if u.site == site}
            if not units and owned_kw <= 0:
                continue
            t = p.topup[(site, m)] = m_.var(f"topup[{site},{m}]", cost=1.0)
            add(m, t, 1.0)
            coefs = {t: 1.0, **{j: rate * u.kw for j, u in units.items()}}
            if owned_kw > 0:  # the site is held every month
                m_.row(f"minimum[{site},{m}]", coefs, lb=rate * (min_kw - owned_kw))
                continue
            y = m_.var(f"used[{site},{m}]", ub=1.0, integer=True)
            coefs[y] = -rate * min_kw
            m_.row(f"minimum[{site},{m}]", coefs, lb=0.0)
            for j in units:  # a unit there makes it used from the month it arrives (then kept, below)
                if arrival[j] == m:
                    m_.row(f"used[{site},{m},{j}]", {j: 1.0, y: -m_.ub[j]}, ub=0.0)
            if used_before is not None:  # held from then on (units are kept to the end)
                m_.row(f"kept[{site},{m}]", {used_before: 1.0, y: -1.0}, ub=0.0)
            used_before = y


def _resale(inp: Inputs, f: Fleet, months_owned: int) -> float:
    """Fraction of the hardware price a unit bought fetches at the end (tco.yaml resale curve)."""
    return K.resale_fraction(inp.tco, months_owned, f.condition, family=f.gpu.architecture)


def solve(inp: Inputs, s: Setting, *, duals: bool = True) -> tuple[Program, Solution]:
    """The program's solution. Over more than :data:`LONG_HORIZON` months, in two steps: first the
    purchases, with every rented copy (by the month or on a term) taken as a fraction of a copy, in at
    most :data:`FIRST_STEP_NODES` nodes; then the whole program twice, every copy whole and no order
    placed that the first step did not place: each order as chosen or one unit larger, then as chosen
    or one unit smaller; the cheaper is the plan. The fractions misjudge what the units bought leave to
    rent (a residual load costs a fraction of a copy, not a whole one), either way: a constant service
    36 months long bought one H100 PCIe where the plan needs two (7 % dearer), and a 70B service at 4
    requests/s (tests/rules/PLAN-LATE-HARDWARE) three where it needs two (four once the copies were
    whole: $168,994 against $155,409). Both ways at once (each order within a unit) left the 36-month
    team plan unproven at NODE_LIMIT (14 CPU-s); one way at a time each closes."""
    p = build(inp, s)
    m = p.model
    free = [j for j in p.buy.values() if m.lb[j] < m.ub[j]]
    if not (two_steps(inp.H) and free):
        return p, m.solve(duals=duals)
    first = m.solve(relax=frozenset([*p.rent_copy.values(), *p.rent_pack.values(), *p.commit.values()]), duals=False,
                    nodes=FIRST_STEP_NODES)
    if not first.usable:
        return p, m.solve(duals=duals)
    chosen = {j: round(first.values[j]) for j in free}
    best: Solution | None = None
    for step in (1, -1):  # each order, or each one unit larger; then each, or each one unit smaller
        near = {j: (min(n, n + step), max(n, n + step)) if n else (m.lb[j], m.lb[j]) for j, n in chosen.items()}
        near = {j: (max(m.lb[j], lo), hi) for j, (lo, hi) in near.items()}
        sol = m.solve(bounds=near, duals=duals, nodes=SECOND_STEP_NODES)
        if sol.usable and (best is None or sol.objective < best.objective):
            best = sol
    return p, best if best is not None else m.solve(duals=duals)


def power_split(inp: Inputs, p: Program, x: list[float], g: str, m: int, hours: float,
                left: dict[tuple[str, int, int], float],
                apart: bool = True) -> list[tuple[float, tuple[float, str, dict[str, Any]]]]:
    """A placement's GPU-hours by power rate, [(GPU-hours, (USD a GPU-hour, site, operands))]: at the type's one
    rate (no site named) where its GPUs draw at one; else the solution's hours at each rate (:func:`_power_sites`),
    given out in turn, the cheapest first, to the month's placements (``left``: what each rate has left); the site
    named only where the plan holds the type's GPUs at more than one rate (``apart``)."""
    f = inp.fleets[g]
    classes = p.power_classes.get(g)
    if classes is None:
        rate = f.owned_power_per_gpu_hour if f.owned else f.units[0].power_per_gpu_hour if f.units else 0.0
        return [(hours, (rate, "", f.owned_power if f.owned else f.units[0].power if f.units else {}))]
    out = []
    for c, cls in enumerate(classes):
        key = (g, m, c)
        if key not in left:
            left[key] = x[p.power_hours[key]] if key in p.power_hours else 0.0
        take = min(hours, left[key]) if c < len(classes) - 1 else hours
        if take > 1e-6:
            out.append((take, cls if apart else (cls[0], "", cls[2])))
            left[key] -= take
            hours -= take
        if hours <= 1e-6:
            break
    return out


def site_minimums(inp: Inputs, p: Program, x: list[float],
                  joint: dict[str, tuple[float, float]]) -> list[tuple[int, str, float, float, float]]:
    """The months a site with a minimum contract holds less than it (:func:`_site_minimums`): (month, site, minimum
    kW, the kW of the owned GPUs there and of the units arrived, USD a kW-month)."""
    out = []
    for (site, m) in p.topup:
        min_kw, rate = joint[site]
        kw = sum(f.owned_kw for f in inp.fleets.values() if f.owned and f.owned_hosting == site)
        kw += sum(round(x[j]) * inp.fleets[g].units[k].kw for (g, o, k), j in p.buy.items()
                  if o + inp.delivery <= m and inp.fleets[g].units[k].site == site)
        if 1e-9 < kw < min_kw:
            out.append((m, site, min_kw, kw, rate))
    return out
