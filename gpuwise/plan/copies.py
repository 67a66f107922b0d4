"""The size of a service's copy on a GPU type of a plan: which of a few sizes' copies carry the load for least.

The fewest GPUs that hold a copy are not always the cheapest way to carry a service's load: where they leave little
memory for the requests' context, a copy on twice the GPUs can carry many times the tokens. plansvc57's case: Llama 2
13B in 16 bits on two T4s rented as two one-GPU instances carries 9.10 tokens/s, and 0.5 requests/s of 128 tokens (64
tokens/s) needed 8 copies on 16 T4s, while one copy on four carries 112 tokens/s alone. So a bounded few larger sizes
are tried as well (:func:`sizes`: twice and four times the fewest, the GPUs the fewest's rental pays for, a server's
GPUs; within the plan's GPU bound and the serving ladder's top), each judged by the rules as the fewest is
(sizing._serving_option), and the copy is the size whose copies cost least for the load month by month (:func:`bill`:
the copies' rent, whole rentals that hold several where cheaper, and copies x GPUs a copy for GPUs bought or owned),
the fewest where no larger size costs less (:func:`cheapest`). The sizes tried are the option's ``copy_sizes``, which
the plan's page and JSON give. Rent is compared on demand (a committed term's rate is the program's choice later).

Pure arithmetic on the sizing's records (plan.sizing Option and Sized, passed in): sizing imports this module.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ..decide.rulebook import Rulebook
from ..decide.verdicts import LATENCY, P95, rejected_reading
from ..estimators.offers import TERM_HOURS
from ..frozen import frozen
from ..ledger import HOURS_PER_MONTH
from .why import Why, why


@frozen
class Reserved:
    """A committed rental: the provider's published rate for a term, paid for every hour of every month of the term
    whether its copies are busy or not; ``copies``: the service's copies one such rental holds (1: a copy alone)."""

    term: str  # 1-month | 1-year | 3-year (the offers' terms)
    months: int  # the term in months
    usd_per_hour: float  # for all paid GPUs
    gpus_paid: int
    provider: str
    instance: str | None
    as_of: str
    copies: int = 1


def reserved_rates(offers: list[Any], n: int) -> tuple[dict[str, Reserved], dict[str, Reserved]]:
    """Per term (``Offer.reserved_per_hour``, read through the offers API only: a term the knowledge base adds is
    picked up here), the committed rental of copies of ``n`` GPUs: the cheapest for one copy, and the one that costs
    least a copy when full where it holds several (``o.gpus // n``) for less a copy than that one, as an on-demand
    rental rented whole (``sizing._pack``). A term is decided for the month's whole need: AWS's p3dn.24xlarge, 8 x V100
    at $19.215 an hour for a year, holds eight one-GPU copies, where each copy committed alone paid the whole
    instance (three copies: $57.65 an hour, so the plan rented the instance on demand at $31.212). Where the pack's
    rental costs no more than the one copy's, the pack alone is kept (one copy in it costs the same)."""
    alone: dict[str, Reserved] = {}
    packs: dict[str, Reserved] = {}
    for o in offers:
        for term, rate in o.reserved_per_hour:
            months = round(TERM_HOURS[term] / HOURS_PER_MONTH)
            if term not in alone or rate < alone[term].usd_per_hour:
                alone[term] = Reserved(term, months, rate, o.gpus, o.provider, o.instance, o.as_of)
            k = o.gpus // n
            if k >= 2 and (term not in packs or rate / k < packs[term].usd_per_hour / packs[term].copies):
                packs[term] = Reserved(term, months, rate, o.gpus, o.provider, o.instance, o.as_of, k)
    for term, pk in list(packs.items()):
        if pk.usd_per_hour / pk.copies >= alone[term].usd_per_hour - 1e-9:
            del packs[term]  # no cheaper a copy than one committed alone
        elif pk.usd_per_hour <= alone[term].usd_per_hour + 1e-9:
            del alone[term]  # the whole rental costs no more than one copy's: a copy alone is never cheaper
    return alone, packs


Bill = tuple[int, float | None]  # GPU-months, USD an hour rented summed over the months (None: not rented)


def replicas_needed(s: Any, opt: Any, m: int) -> int:
    """Copies of the model on ``opt`` that carry month ``m``'s load."""
    d = s.demand[m - 1]
    return math.ceil(d / opt.capacity - 1e-9) if d > 0 else 0


def rented_needed(s: Any, opt: Any, m: int) -> int:
    """Rented copies of ``opt`` that carry month ``m``'s load (at the rented copy's capacity, where it is sized apart
    from the owned or bought one: sizing._rental)."""
    d = s.demand[m - 1]
    return math.ceil(d / opt.rented_capacity - 1e-9) if d > 0 else 0


def owned_carry(opt: Any, owned: int) -> float:
    """What the copies ``owned`` GPUs of ``opt``'s type hold carry: ``owned // count`` copies, each at the owned
    copy's capacity (over the owned servers where it spans them: ``own_capacity``)."""
    return (owned // opt.count) * (opt.own_capacity or opt.capacity)


def gpus_to_carry(s: Any, opt: Any, m: int, owned: int, buy: bool, rent: bool) -> int:
    """The GPUs of ``opt``'s type that carry month ``m``'s load, the owned ones first (PLAN-SERVING-OUTGROWS's count):
    the owned GPUs' copies (:func:`owned_carry`), and the copies the rest needs as the plan adds them -- bought, a
    copy as sized (``count`` GPUs at ``capacity``, in one machine bought), or rented, the rented copy's own size
    (``rented_count`` at ``rented_capacity``: sizing._rental), whichever takes fewer GPUs of those the plan may add
    (``buy``, ``rent``); as sized where it may add neither. T4s owned in two servers of 4 (a copy of 4, 498.6
    tokens/s) and rented as one-GPU instances (a copy of 4 in pipeline stages, 202.0): 1,280 tokens/s need the 8
    owned and ceil(282.8 / 202.0) = 2 rented copies, 16 T4s, not ceil(1,280 / 498.6) x 4 = 12."""
    d = s.demand[m - 1]
    held = (owned // opt.count) * opt.count
    rest = d - owned_carry(opt, owned)
    if rest <= 1e-9:
        return held if d > 0 else 0
    ways = [math.ceil(rest / opt.capacity - 1e-9) * opt.count] if buy else []
    if rent and opt.rent_usd_per_hour is not None:
        ways.append(math.ceil(rest / opt.rented_capacity - 1e-9) * opt.rented_count)
    return held + (min(ways) if ways else math.ceil(rest / opt.capacity - 1e-9) * opt.count)


def outgrown(s: Any, opts: dict[str, Any], m: int, owned: dict[str, int], buy: dict[str, bool],
             rent: bool) -> tuple[int, str] | None:
    """PLAN-SERVING-OUTGROWS's month test: where the owned copies (at their own capacity) do not carry month ``m``'s
    load, the fewest GPUs of one owned type that carry it (:func:`gpus_to_carry`) and that type, where they are more
    than the owned count of it; None otherwise. Owned copies that leave GPUs over and a rented copy smaller than the
    owned one can carry the load on no more GPUs than are owned (10 owned in copies of 4 hold 2 copies on 8, and one
    rented copy of 2 carries the rest: 10 GPUs): the finding said 'needs 10, more than the 10 owned' (planleft59's
    note); the owned count is not outgrown there, the copies' size is, and nothing is said."""
    if s.demand[m - 1] <= sum(owned_carry(opts[g], n) for g, n in owned.items()) + 1e-9:
        return None
    need, g = min((gpus_to_carry(s, opts[g], m, n, buy[g], rent), g) for g, n in owned.items())
    return (need, g) if need > owned[g] else None


def sizes(fewest: int, paid: int, server: int, top: int) -> list[int]:
    """The larger sizes a copy is tried at, a bounded few: twice and four times the ``fewest``, the GPUs its rental
    pays for (``paid``: two L4s of a four-GPU instance), a server's GPUs (``server``); up to ``top``."""
    return sorted(n for n in {2 * fewest, 4 * fewest, paid, server} if fewest < n <= top)


def rent_of(opt: Any, copies: int) -> float | None:
    """USD an hour of ``copies`` copies rented (None: no rental): each alone at its GPUs' rental, or as many full
    rentals that hold several (the option's pack) as they fill, the rest alone or in one more such rental, whichever
    costs less, as the program may rent them (solve.build)."""
    alone = opt.rent_usd_per_hour
    if alone is None:
        return None
    pack = opt.rent_pack
    if pack is None:
        return copies * alone
    full, rest = divmod(copies, pack.copies)
    return full * pack.usd_per_hour + (min(rest * alone, pack.usd_per_hour) if rest else 0.0)


def bill(s: Any, opt: Any) -> Bill:
    """What carrying the service's load on copies of ``opt`` costs over the months: GPU-months (copies x GPUs a
    copy, the measure of GPUs bought or owned) and the copies' rent an hour (:func:`rent_of`), summed over them."""
    needed = [replicas_needed(s, opt, m) for m in range(1, len(s.demand) + 1)]
    rents = [rent_of(opt, k) for k in needed]
    return sum(needed) * opt.count, (sum(r for r in rents if r is not None) if opt.rent_usd_per_hour is not None
                                     else None)


def cheaper(a: Bill, b: Bill, rent: bool) -> bool:
    """``a`` costs less than ``b``: on a plan that only rents, by the rent (by the GPUs where either has none);
    else no more GPUs and no more rent, and less of one (bought, owned or rented, it costs less)."""
    (ga, ra), (gb, rb) = a, b
    if ra is None or rb is None:
        return ga < gb
    if rent:
        return ra < rb * (1 - 1e-9)
    return ga <= gb and ra <= rb * (1 + 1e-9) and (ga < gb or ra < rb * (1 - 1e-9))


def cheapest(s: Any, fewest: Any, tried_at: list[int], copy: Callable[[int], tuple[Any, bool]], rent: bool) -> Any:
    """Of the ``fewest`` and copies at the sizes ``tried_at`` (``copy(n)``: the option judged there, or None and
    whether more GPUs cannot change that), the one whose copies cost least for the load; the fewest on a tie. A size
    is tried only where one copy of it in each month of load needs fewer GPUs than the fewest's copies (else it
    cannot cost less at the same rent a GPU). Where more than the fewest were tried, the one kept says them all."""
    best, best_bill = fewest, bill(s, fewest)
    tried = [fewest]
    active = sum(1 for d in s.demand if d > 0)
    for n in tried_at:
        if active * n >= best_bill[0]:
            continue
        opt, stop = copy(n)
        if opt is None:
            if stop:
                break
            continue
        tried.append(opt)
        if cheaper(here := bill(s, opt), best_bill, rent):
            best, best_bill = opt, here
    if len(tried) > 1:
        best.copy_sizes = [said(s, o, peak_month(s)) for o in tried]
    return best


def peak_month(s: Any) -> int:
    """The month of the service's highest load (the first of them)."""
    return max(range(1, len(s.demand) + 1), key=lambda m: s.demand[m - 1])


def said(s: Any, opt: Any, peak: int) -> dict[str, Any]:
    """A size tried, as the plan's JSON gives it (result.CopySize): what its copies need at the load's peak month."""
    copies = replicas_needed(s, opt, peak)
    return {"count": opt.count, "capacity": opt.capacity, "layout": opt.layout, "copies": copies,
            "gpus": copies * opt.count, "rent_per_hour": rent_of(opt, copies)}


def rent_as(s: Any, opt: Any, r: Any) -> None:
    """``opt``'s rented copies are ``r``'s: its GPUs, capacity and rental, and the sizes its rented copy was tried at
    (``rent_copy_sizes``: ``r``'s, or ``r`` alone where only its fewest was), beside the owned or bought copy's
    ``copy_sizes`` -- planleft59: the JSON and the page gave only those, not the rented copy's own."""
    opt.rent_count, opt.rent_capacity = r.count, r.capacity
    opt.rent_copy_sizes = list(r.copy_sizes) or [said(s, r, peak_month(s))]
    opt.rent_usd_per_hour, opt.rent_gpus_paid = r.rent_usd_per_hour, r.rent_gpus_paid
    opt.rent_discount = r.rent_discount
    opt.rent_provider, opt.rent_instance, opt.rent_as_of = r.rent_provider, r.rent_instance, r.rent_as_of
    opt.rent_step_gpus = r.rent_step_gpus
    opt.reserved, opt.reserved_pack, opt.rent_pack = r.reserved, r.reserved_pack, r.rent_pack


def unrented(opt: Any) -> Any:
    """``opt`` without its rental: a copy estimated in one server that the type's rental, smaller instances, does not
    hold (two one-T4 g4dn.xlarge are not a server of two: NET-TP-ACROSS-INSTANCES), priced on nothing; it is a copy
    on owned or bought GPUs, and the rented copies are sized apart (:func:`.sizing._rental`)."""
    opt.rent_usd_per_hour, opt.rent_gpus_paid, opt.rent_discount = None, 0, 0.0
    opt.rent_provider = opt.rent_instance = opt.rent_as_of = None
    opt.rent_step_gpus = 1
    opt.reserved, opt.reserved_pack, opt.rent_pack = {}, {}, None
    return opt


def ruled(book: Rulebook, rule: str, kind: str) -> Why:
    """Why a type carries no copy: the rule that rules it out, named as the plan names one."""
    return why(kind, "plan.why.ruled_out", rule=rule, title=[("", "rule.title", {"title": book.rules[rule].title})])


def latency_reason(book: Rulebook, verdict: Any, n: int) -> Why:
    """Why ``n`` GPUs of a type carry nothing within the latency targets: the first rule that rejected them over a
    latency at the load (:data:`LATENCY`) or a p95 latency (:data:`P95`: no request rate is within the p95 targets),
    else over the rate the load amounts to (SRV-RATE-AT-LOAD: not one request in flight is within them), named as
    the plan names a rule that rules a type out; none (no serving estimate): the targets alone."""
    ruled_by = (rejected_reading(book, verdict, LATENCY + P95)
                or rejected_reading(book, verdict, ("load_requests_per_s",)))
    if not ruled_by:
        return why("latency", "plan.why.latency", n=n)
    return why("latency", "plan.why.latency_rule", n=n, rule=ruled_by[0],
               title=[("", "rule.title", {"title": book.rules[ruled_by[0]].title})])
