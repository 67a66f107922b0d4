"""Cost: renting (per GPU-hour, spot, discounts, fees) against buying (cards, server share,
power with PUE, hosting, licences, resale), and the month where buying starts to win.

Renting is billed for the hours the job runs (training) or for the whole project
(a service). Buying pays the hardware up front, power for the busy hours, hosting for the
project, and gets part of the price back by reselling at the end.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from .. import ledger as L
from ..frozen import frozen
from ..ledger import HOURS_PER_MONTH, Ledger, LedgerLine, Period
from ..messages import Phrase, formula, quoted, template
from . import Term
from .offers import Offer, rent_offers  # noqa: F401  (moved; kept importable from here)
from .offers import derived as _derived

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..chart_series import CostCurve
    from ..knowledge.schema import CloudFile, Gpu, PricesFile, TcoFile

SERVER_CARDS = 8  # double-width PCIe cards in one 4U GPU server (tco.yaml server_share_usd_per_gpu_pcie)


def spot_wall_hours(clouds: CloudFile, wall_hours: float) -> Term:
    """Wall time of a job on spot capacity: capacity is there only part of the time, and each
    preemption redoes some work: wall / availability x (1 + restart overhead)."""
    sm = clouds.spot
    value = wall_hours * (1 + sm.restart_overhead) / sm.availability
    return Term("spot_wall_hours", value, "h", formula("formula.spot_wall_hours"),
                {"wall_hours": wall_hours, "restart_overhead": sm.restart_overhead, "availability": sm.availability},
                note_phrases=(("", "note.spot", {}),))


def discount(clouds: CloudFile, hours: float, schedule: str | None = None) -> tuple[float, str]:
    """Long-rental discount fraction under a named schedule (default: the knowledge base's)."""
    name = schedule or clouds.default_discount_schedule
    for s in clouds.discount_schedules:
        if s.id == name:
            full_periods = int(hours // (30 * 24))
            return min(s.max_discount, s.per_full_30_days * full_periods), s.id
    return 0.0, "none"


def spot_rate(offer: Offer, clouds: CloudFile) -> float:
    """What ``offer`` costs an hour on spot capacity, for all its paid GPUs: its spot price, else the fallback
    discount off its price."""
    return offer.spot_usd_per_hour or offer.usd_per_hour * (1 - clouds.spot.fallback_discount)


def rent_cost(offer: Offer, hours: float, clouds: CloudFile, *, spot: bool = False,
              schedule: str | None = None) -> Term:
    """Rental bill for ``hours`` of ``offer`` (spot: its price, longer by preemptions)."""
    sm = clouds.spot
    if spot:
        rate = spot_rate(offer, clouds)
        billed = hours * (1 + sm.restart_overhead)
        value = rate * billed
        return Term("rent_usd", value, "USD", formula("formula.rent_spot"),
                    {"usd_per_hour": rate, "hours": hours, "restart_overhead": sm.restart_overhead,
                     "provider": offer.provider, "instance": offer.instance, "gpus_paid": offer.gpus,
                     "as_of": offer.as_of, "spot_price_known": offer.spot_usd_per_hour is not None})
    d, name = discount(clouds, hours, schedule)
    value = offer.usd_per_hour * hours * (1 - d)
    return Term("rent_usd", value, "USD", formula("formula.rent"),
                {"usd_per_hour": offer.usd_per_hour, "hours": hours, "discount": d, "schedule": name,
                 "provider": offer.provider, "instance": offer.instance, "gpus_paid": offer.gpus,
                 "as_of": offer.as_of})


RACK_SITES = ("colocation", "datacenter")  # tco.yaml hosting sites whose machines are rack servers


def server_share_key(gpu: Gpu, *, in_server: bool = False, desktop: bool = False,
                     hosting: str | None = None) -> str:
    """The tco.yaml host share a bought card is charged around, decided here alone (recommend, audit and the plan
    all price through :func:`buy_plan`): more cards than a desktop holds (``in_server``) sit in PCIe servers; a
    GeForce card in a workstation build; an SXM/OAM part on its baseboard's server; a workstation-segment card
    (RTX A5000, RTX PRO) in a desktop (``desktop``: prices.yaml sold_as workstation, no more a machine than
    max_per_node) in that desktop build too, unless the user states a rack site (``hosting``: colocation or
    datacenter, :data:`RACK_SITES`), where it goes in a PCIe server. An RTX A5000 bought for one office
    workstation was charged a 4U server's $4,000 beside a GeForce card's $800 (hostshare62)."""
    if in_server:
        return "server_share_usd_per_gpu_pcie"
    if gpu.segment == "consumer":
        return "server_share_usd_per_gpu_consumer"
    if gpu.form_factor in ("sxm", "oam", "mezzanine"):
        return "server_share_usd_per_gpu_sxm"
    if desktop and hosting not in RACK_SITES:
        return "server_share_usd_per_gpu_consumer"
    return "server_share_usd_per_gpu_pcie"


DESKTOP_HOST = "server_share_usd_per_gpu_consumer"  # the tco.yaml host share of a desktop build (server_share_key)


def bought_host_ram_gb(tco: TcoFile, runtime: Any, gpu: Gpu, per_node: int, host_key: str = "") -> float | None:
    """GB of host RAM a bought machine of ``per_node`` x ``gpu`` typically comes with: the host its price buys
    (``host_key``, the buy plan's tco.yaml host share): a desktop build holds tco.yaml desktop_host_ram_gb_per_gpu a
    card (tinybox green v2: 192 GB for 4 RTX PRO 6000), any other host a typical server of the GPU's segment
    (runtime.yaml rented_host_ram.per_gpu_gb); None where neither is known. A bought RTX PRO 6000 was judged against
    the workstation segment's 125 GB a GPU, a rented server's, whatever host the price bought (product63)."""
    desk = tco.values.get("desktop_host_ram_gb_per_gpu")
    if host_key == DESKTOP_HOST and desk is not None:
        return desk.value * per_node
    per_gpu = runtime.rented_host_ram.per_gpu_gb.get(gpu.segment)
    return per_gpu * per_node if per_gpu else None


def bought_whole(gpu: Gpu, units: Any) -> bool:
    """A part whose system holds one GPU (gpus.yaml link.server_gpus 1: the GB10 of a DGX Spark) is bought as that
    whole system, host included, one a node, whatever shape an overlay's price gives it (as _proposal_plan does)."""
    return units.sold_as != "server" and gpu.link.server_gpus == 1


def price_entry(prices: PricesFile | None, gpu_id: str) -> Any:
    """The GPU's purchase entry in prices.yaml (None when it has none), by id."""
    if prices is None:
        return None
    return _derived(prices, "entries", lambda: {g.id: g for g in prices.gpus}).get(gpu_id)


def market_entry(prices: PricesFile | None, gpu_id: str) -> Any:
    """The GPU's China-market entry in prices.yaml (None when it has none), by id."""
    if prices is None:
        return None
    return _derived(prices, "markets", lambda: {m.id: m for m in prices.markets}).get(gpu_id)


def _resale_series(tco: TcoFile, max_months: int, family: str | None = None,
                   condition: str = "new") -> tuple[float, ...]:
    return _derived(tco, f"resale{max_months}:{family}:{condition}",
                    lambda: tuple(resale_fraction(tco, m, condition, family=family) for m in range(max_months + 1)))


def resale_fraction(tco: TcoFile, months: float, condition: str = "new", family: str | None = None) -> float:
    """Fraction of the price a resale gets back after ``months`` (``family``: the GPU's architecture,
    whose curve tco.yaml ``resale`` may set)."""
    per_year, floor, _ = tco.resale_for(family)
    frac = per_year ** (months / 12.0)
    if condition != "new":  # a used card has already lost its first-owner premium
        frac *= per_year
    return max(floor, frac)


@frozen
class BuyPlan:
    """What buying ``count`` GPUs means in units a seller sells, and the price it is bought at."""

    gpu: str
    count: int
    sold_as: str  # server | card | workstation
    units: int  # servers (baseboards) bought, or cards
    unit_gpus: int  # GPUs per unit bought
    nodes: int  # servers or workstations the GPUs sit in
    hardware_usd: float  # what the GPUs (and, for whole servers, the host) cost
    host_usd: float  # host server / workstation share not in the price
    host_note: tuple[Phrase, ...]  # how the host share is priced (reports/messages.yaml formula.server.*)
    condition: str  # new | used (what the price is for)
    price_kind: str
    currency: str
    native_amount: float  # one price point as written, in its currency
    as_of: str
    source: str
    check: str
    note_phrases: tuple[Phrase, ...] = ()  # how the price was taken (reports/messages.yaml note.*)
    point_gpus: int = 1  # GPUs in the unit the price point is for (native_amount buys that many)
    host_key: str = ""  # the tco.yaml value the host share is priced from (none: no share, or an estimate)
    whole_system: bool = False  # a one-GPU system bought whole (gpus.yaml link.server_gpus 1: a DGX Spark)


def buy_plan(prices: PricesFile | None, gpu: Gpu, count: int, tco: TcoFile, *, condition: str = "new",
             market: str = "global", usd_cny: float = 7.0, unit_price: float | None = None,
             nodes: int | None = None, hosting: str | None = None) -> tuple[BuyPlan | None, tuple[Phrase, ...] | None]:
    """The units a seller sells for ``count`` x ``gpu`` and their dated price; (None, why: message
    ids and values, reports/messages.yaml buy.*) when that count cannot be bought or no dated price
    is known. ``nodes``: the machines the cards are estimated in (a proposal's hardware.nodes); cards
    sold as workstation cards that many machines hold within a desktop's max_per_node each are that
    many desktop workstations, not the 8-card PCIe servers more cards than one desktop holds go in. ``hosting``:
    the site the user states (none: none stated), which decides a workstation card's host (:func:`server_share_key`)."""
    entry = price_entry(prices, gpu.id)
    if entry is None and unit_price is not None:  # a part no price list carries (GB10), at the proposal's price
        return _proposal_plan(gpu, count, tco, unit_price, condition), None
    if entry is None:
        why = next((e.reason for e in prices.excluded if e.id == gpu.id), None) if prices else None
        if why:
            return None, (("", "buy.no_price_because", {"gpu": gpu.name, "why": [quoted(why)]}),)
        return None, (("", "buy.no_price", {"gpu": gpu.name}),)
    u = entry.units
    desktops = False
    if u.sold_as == "server":
        largest = max(u.sizes)
        if count in u.sizes:
            unit_gpus, units = count, 1
        elif count % largest == 0:
            unit_gpus, units = largest, count // largest
        else:
            up = next((s for s in sorted(u.sizes) if s > count), None) or largest * math.ceil(count / largest)
            sizes = [(" or " if i else "", "number", {"n": s}) for i, s in enumerate(sorted(u.sizes))]
            return None, (("", "buy.server_sizes", {"gpu": gpu.name, "sizes": sizes, "why": [quoted(u.reason)],
                                                    "count": count, "up": up}),)
        nodes = units
    else:
        unit_gpus, units = 1, count
        # the machines given where they are desktops (review55: 8 used RTX 3090 in two 4-card workstations were
        # priced as one 8-card PCIe server, $4,000 a card of host and 410 W a card, beside an estimate of 2 nodes)
        desktops = (u.sold_as == "workstation" and nodes is not None and 1 < nodes <= count
                    and math.ceil(count / nodes) <= u.max_per_node)
        nodes = nodes if desktops else math.ceil(count / u.max_per_node)
    whole = bought_whole(gpu, u)
    if whole:
        nodes = count
    in_server = u.sold_as == "workstation" and count > u.max_per_node and not whole and not desktops
    if in_server:  # more cards than a desktop holds: they go in 8-card PCIe GPU servers, as PCIe cards do
        nodes = math.ceil(count / SERVER_CARDS)
    v = tco.values
    sold_as = "workstation" if whole else "card" if in_server else u.sold_as
    if unit_price is not None and whole:
        return _proposal_plan(gpu, count, tco, unit_price, condition), None
    share_key = server_share_key(gpu, in_server=in_server, desktop=u.sold_as == "workstation", hosting=hosting)
    said = _desktop_said(gpu, share_key)
    if unit_price is not None:  # the proposal's own price per GPU
        host = v[share_key].value * count
        return BuyPlan(gpu.id, count, sold_as, units, unit_gpus, nodes, unit_price * count, host,
                       formula("formula.server.share_proposal", share_key=share_key) + said, condition,
                       "proposal", "USD",
                       unit_price, "proposal", template("source.proposal"), "U", host_key=share_key), None
    wanted = "used" if condition in ("used", "refurbished") else "new"
    shapes = ("server", "baseboard") if u.sold_as == "server" else ("card",)
    points = [p for p in entry.prices if p.unit in shapes]
    chosen = [p for p in points if p.condition == wanted]
    note: tuple[Phrase, ...] = ()
    if not chosen and wanted == "new":
        chosen = [p for p in points if p.condition == "used"]
        note = (("", "note.priced_used", {"gpu": gpu.name}),)
    if not chosen:
        return None, (("", "buy.no_condition_price", {"condition": wanted, "gpu": gpu.name}),)
    # the market's own prices first, then the unit size asked for, then the newest
    chosen.sort(key=lambda p: (p.market != market, u.sold_as == "server" and p.gpus != unit_gpus,
                               -p.as_of.toordinal()))
    p = chosen[0]
    amount = p.amount if p.currency == "USD" else p.amount / usd_cny
    if u.sold_as == "server":
        per_unit = amount * unit_gpus / p.gpus
        if p.gpus != unit_gpus:
            note += (("; " if note else "", "note.pro_rata", {"unit": unit_gpus, "p": p.gpus}),)
        hardware = per_unit * units
        share_key = ""
        if p.unit == "baseboard":
            share_key = "server_share_usd_per_gpu_sxm"
            host = v[share_key].value * count
            host_note = formula("formula.server.baseboard")
        else:
            host, host_note = 0.0, formula("formula.server.included")
    elif whole:
        hardware, host, share_key = amount * count, 0.0, ""
        host_note = formula("formula.server.system")
    else:
        hardware = amount * count
        host = v[share_key].value * count
        host_note = formula("formula.server.share", share_key=share_key) + said
        if in_server:
            host_note += formula("formula.server.in_servers", " ", count=count, max_per_node=u.max_per_node,
                                 nodes=nodes, server_cards=SERVER_CARDS)
    return BuyPlan(gpu.id, count, sold_as, units, unit_gpus, nodes, hardware, host, host_note, p.condition,
                   p.kind, p.currency, p.amount, p.as_of.isoformat(), p.source, p.check, note, p.gpus,
                   host_key=share_key, whole_system=whole), None


def _desktop_said(gpu: Gpu, share_key: str) -> tuple[Phrase, ...]:
    """Why a workstation-segment card carries the desktop build's share (a GeForce card's), said beside it."""
    if gpu.segment == "workstation" and share_key == "server_share_usd_per_gpu_consumer":
        return formula("formula.server.desktop", " ")
    return ()


def _proposal_plan(gpu: Gpu, count: int, tco: TcoFile, unit_price: float, condition: str) -> BuyPlan:
    """``count`` x ``gpu`` bought at the proposal's own price where prices.yaml has no entry for the part (it is
    excluded, or an overlay's new GPU): a part whose system holds one GPU (gpus.yaml ``link.server_gpus`` 1, the
    GB10 of a DGX Spark) is priced as that whole system, host included; any other as cards in servers, each with
    the server share of its kind (as a card the price list sells)."""
    if gpu.link.server_gpus == 1:
        return BuyPlan(gpu.id, count, "workstation", count, 1, count, unit_price * count, 0.0,
                       formula("formula.server.system_proposal"), condition, "proposal", "USD", unit_price,
                       "proposal", template("source.proposal"), "U", whole_system=True)
    share_key = server_share_key(gpu)
    per_node = gpu.link.server_gpus or SERVER_CARDS
    return BuyPlan(gpu.id, count, "card", count, 1, math.ceil(count / per_node), unit_price * count,
                   tco.values[share_key].value * count, formula("formula.server.share_proposal", share_key=share_key),
                   condition, "proposal", "USD", unit_price, "proposal", template("source.proposal"), "U",
                   host_key=share_key)


def street_price(prices: PricesFile | None, gpu: Gpu, tco: TcoFile, *, condition: str = "new",
                 market: str = "global", usd_cny: float = 7.0) -> tuple[float, str] | None:
    """USD per GPU at the dated street price (whole-server prices divided by their GPUs), and its
    date: what a proposal's unit price is compared with (replaces gpus.yaml ``price`` blocks)."""
    entry = price_entry(prices, gpu.id)
    if entry is None:
        return None
    plan, _ = buy_plan(prices, gpu, max(entry.units.sizes), tco, condition=condition, market=market,
                       usd_cny=usd_cny)
    if plan is None:
        return None
    return plan.hardware_usd / plan.count, plan.as_of


def street_price_alone(prices: PricesFile | None, gpu: Gpu, tco: TcoFile, host_per_gpu: float, *,
                       condition: str = "new", usd_cny: float = 7.0) -> tuple[float, tuple[Phrase, ...]] | None:
    """The street price a GPU on the basis of a proposal's ``unit_price_usd``, and which basis in words (message ids
    ``price.basis.*``): a GPU without its host, the host share the audit costs beside the proposal's price
    (``host_per_gpu``) being added beside either; a one-GPU system's whole price where it is bought whole. A
    whole-server price point holds the host, so its share a GPU less ``host_per_gpu`` is the GPU's: 33,000 for an H100
    SXM was judged against 317,000 / 8 = 39,625 (host in) where the like figure is 39,625 - 7,000 = 32,625 (hostile52b's
    leftover). None without a dated price, or where the host share leaves nothing."""
    entry = price_entry(prices, gpu.id)
    plan = buy_plan(prices, gpu, max(entry.units.sizes), tco, condition=condition,
                    usd_cny=usd_cny)[0] if entry is not None else None
    if plan is None:
        return None
    each = plan.hardware_usd / plan.count
    if plan.whole_system:
        return each, (("", "price.basis.system", {"as_of": plan.as_of}),)
    if plan.host_usd > 0 or plan.sold_as != "server":  # a card's or a baseboard's price: the GPU's alone already
        kind = "baseboard" if plan.sold_as == "server" else "card"
        return each, (("", f"price.basis.{kind}", {"as_of": plan.as_of, "host": host_per_gpu}),)
    if each <= host_per_gpu:
        return None
    return each - host_per_gpu, (("", "price.basis.server", {
        "gpus": plan.unit_gpus, "server": plan.hardware_usd / plan.units, "as_of": plan.as_of, "host": host_per_gpu}),)


def server_reading(prices: PricesFile | None, gpu: Gpu, tco: TcoFile, unit_price: float, per_node: int,
                   bought: BuyCost | None, *, condition: str = "new",
                   usd_cny: float = 7.0) -> tuple[int, float, str, float, float] | None:
    """A purchase's price a GPU read as one machine's: of the GPUs of one of the proposal's machines (``per_node``)
    and the server sizes the price list sells up to it, the count whose whole machine (its dated price with the host
    share, :func:`buy_plan`) is nearest ``unit_price`` by ratio. (GPUs, that machine's price, its date, the price a
    GPU that machine's quote means, the host share a GPU), None without one: the proposal's price a GPU is the GPU's
    alone, its purchase (``bought``) costed with its plan's host share beside it, so a quote of the whole machine
    means its GPUs' share less that. An 8 x H100 server's quote written as the price a GPU (289,000) was audited as
    8 GPUs at that price each (hostile round 52's leftover); rule TCO-UNIT-PRICE-SERVER judges how near it is."""
    if bought is None or bought.plan is None:
        return None
    host_per_gpu = bought.plan.host_usd / bought.plan.count
    best: tuple[float, int, float, str] | None = None
    for n in sorted({k for k in (per_node, *server_sizes(prices, gpu.id)) if 1 < k <= per_node}):
        plan, _ = buy_plan(prices, gpu, n, tco, condition=condition, usd_cny=usd_cny)
        whole = plan.hardware_usd + plan.host_usd if plan is not None else 0.0
        if unit_price > 0 and whole > 0 and (best is None or abs(math.log(unit_price / whole)) < best[0]):
            best = (abs(math.log(unit_price / whole)), n, whole, plan.as_of)  # type: ignore[union-attr]
    if best is None or unit_price / best[1] <= host_per_gpu:
        return None
    return best[1], best[2], best[3], unit_price / best[1] - host_per_gpu, host_per_gpu


def buyable_above(prices: PricesFile | None, gpu: Gpu, count: int, tco: TcoFile, *, market: str = "global",
                  usd_cny: float = 7.0) -> bool:
    """Whether some count above ``count`` can be bought new (or, no longer sold new, used) at a
    dated price: false when the GPU has no purchase price at all, whatever the count."""
    entry = price_entry(prices, gpu.id)
    if entry is None:
        return False
    largest = max(entry.units.sizes) if entry.units.sold_as == "server" else 1
    above = largest * (count // largest + 1)  # the next count its units add up to
    return buy_plan(prices, gpu, above, tco, market=market, usd_cny=usd_cny)[0] is not None


def server_sizes(prices: PricesFile | None, gpu_id: str) -> list[int]:
    """The GPUs per server a GPU sold only in whole servers comes in (prices.yaml units; empty when
    it is sold as cards or workstations, or has no entry). The rules judge a count against them
    (MARKET-UNIT-NOT-SOLD)."""
    entry = price_entry(prices, gpu_id)
    return list(entry.units.sizes) if entry is not None and entry.units.sold_as == "server" else []


def host_w_per_gpu(gpu: Gpu, tco: TcoFile) -> float:
    """The host's power beside each GPU at full load: a one-GPU system's own rest (gpus.yaml power.system_host_w:
    a DGX Spark's 100 W beside its 140 W GB10, whose TDP holds the Grace CPU), else tco.yaml host_power_w_per_gpu
    (a GPU server's CPUs, memory, NICs and fans over its GPUs). Owned Sparks in a plan and a proposal's power and
    heat were charged the server's 410 W (hostile round 26)."""
    own = gpu.power.system_host_w
    if own is not None and gpu.link.server_gpus == 1:
        return own
    return tco.values["host_power_w_per_gpu"].value


def machine_host_w(gpu: Gpu, cards: int, tco: TcoFile, *, desktop: bool) -> float:
    """The host's power beside ``cards`` GPUs in one machine at full load, by the form of the machine, whether bought
    or already owned: a whole one-GPU system's own rest a system (gpus.yaml power.system_host_w, a DGX Spark's 100 W);
    a desktop workstation's CPU, board and supply losses once for the box, whatever cards it holds (``desktop``:
    consumer or workstation cards, no more than a desktop holds: tco.yaml workstation_host_w, 250 W); else a GPU
    server's share a GPU (tco.yaml host_power_w_per_gpu, 410 W). One rule for both: a plan's owned RTX 4090 drew the
    server's 410 W where the same card bought as a one-card workstation drew 250 W (planleft58)."""
    own = gpu.power.system_host_w
    if own is not None and gpu.link.server_gpus == 1:
        return own * cards
    v = tco.values
    if desktop:
        return own if own is not None else v["workstation_host_w"].value if "workstation_host_w" in v else 0.0
    return v["host_power_w_per_gpu"].value * cards


def in_desktop(prices: PricesFile | None, gpu: Gpu, cards: int) -> bool:
    """``cards`` GPUs of the type in one machine are a desktop workstation: the type is sold as workstation cards
    (prices.yaml units.sold_as) and they are no more than a desktop holds (units.max_per_node), as :func:`buy_plan`
    puts a purchase in one (more go in 8-card PCIe servers)."""
    entry = price_entry(prices, gpu.id)
    return entry is not None and entry.units.sold_as == "workstation" and cards <= entry.units.max_per_node


def owned_host_w(gpu: Gpu, machines: list[int], tco: TcoFile, prices: PricesFile | None) -> float:
    """The host's power beside GPUs already owned, ``machines`` the GPUs of each machine they sit in (one machine of
    them all where the owner does not say), each by :func:`machine_host_w` as the same machine bought is: eight owned
    RTX 4090s in two servers are two 4-card workstations, 2 x 250 W, not 8 x 410 W."""
    return sum(machine_host_w(gpu, c, tco, desktop=in_desktop(prices, gpu, c)) for c in machines)


def hosting_for(tco: TcoFile, plan: BuyPlan, wanted: str | None, it_kw: float = 0.0) -> tuple[str, bool]:
    """Where bought hardware runs: the user's choice, else an office for one workstation, or for
    whole desktop systems (DGX Sparks) while their power stays within what an office supplies
    (tco.yaml hosting.office max_kw), and colocation for anything else (an assumption the result
    states)."""
    if wanted:
        return wanted, False
    office = tco.hosting.get("office") if tco.hosting else None
    desktops = plan.sold_as == "workstation" and plan.units == plan.nodes and office is not None \
        and office.max_kw is not None and it_kw <= office.max_kw
    return ("office" if plan.sold_as == "workstation" and (plan.nodes == 1 or desktops) else "colocation"), True


def bought_fabric(prices: PricesFile | None, plan: BuyPlan, gpu: Gpu) -> str | None:
    """The fabric a bought multi-node cluster is joined by: whole desktop systems by their own port
    (gpus.yaml link.system_fabric), anything else by its form of purchase's (prices.yaml bought_fabric)."""
    if prices is None:
        return None
    if plan.sold_as == "workstation" and gpu.link.system_fabric:
        return gpu.link.system_fabric
    return prices.bought_fabric.get(plan.sold_as)


def network_cost(plan: BuyPlan, prices: PricesFile | None, networks: dict[str, Any],
                 gpu: Gpu) -> tuple[Term, str | None]:
    """The network a bought multi-node cluster needs, priced: NIC ports, switch ports and links
    for its fabric (:func:`bought_fabric`). Desktop systems with their own two ports need no switch up to three: two
    are cabled back to back (one link), three in a ring (three links; NVIDIA/dgx-spark-playbooks
    nvidia/playbook-connect-multiple-sparks/README.md @ 09e077d8, "Three-device direct ring")."""
    fid = bought_fabric(prices, plan, gpu)
    if plan.nodes <= 1 or prices is None or fid is None:
        return Term("network_usd", 0.0, "USD", formula("formula.network_none"), {"nodes": plan.nodes}), None
    fab = next(f for f in prices.fabrics if f.id == fid)
    net = networks.get(fid)
    per_gpu = net is not None and net.shared_by == "gpu"
    ports = plan.count if per_gpu else plan.nodes
    own_port = fid == gpu.link.system_fabric
    nic_included = own_port or (fab.nic_included_in_server and plan.price_kind != "estimate" and plan.host_usd == 0)
    nic = 0.0 if nic_included else fab.nic_usd
    two_tier = ports > fab.switch_radix
    switch_ports = ports * (3 if two_tier else 1)
    links = ports * (2 if two_tier else 1)
    if own_port and ports <= 3:  # no switch: two back to back, three in a ring of three cables (each system has two
        switch_ports, links = 0, 1 if ports == 2 else 3  # ports; NVIDIA/dgx-spark-playbooks connect-multiple-sparks)
    value = ports * nic + switch_ports * fab.switch_usd_per_port + links * fab.link_usd
    return Term("network_usd", value, "USD",
                formula("formula.network"),
                {"fabric": fid, "ports": ports, "nic_usd": nic, "nic_in_server_price": nic_included,
                 "switch_ports": switch_ports, "switch_usd_per_port": fab.switch_usd_per_port, "links": links,
                 "link_usd": fab.link_usd, "as_of": fab.as_of.isoformat(), "check": fab.check}), fid


@frozen
class BuyCost:
    cards: Term
    server: Term
    power: Term
    hosting: Term
    licences: Term
    resale: Term
    total: Term
    monthly_opex: float
    capex: float
    network: Term | None = None
    plan: BuyPlan | None = None
    hosting_name: str = "colocation"
    hosting_assumed: bool = True
    it_kw: float = 0.0
    fabric: str | None = None
    resale_family: str | None = None  # the GPU's architecture: its resale curve (tco.yaml resale)


def buy_cost(gpu: Gpu, count: int, *, months: float, busy_hours: float, electricity: float, tco: TcoFile,
             prices: PricesFile | None = None, networks: dict[str, Any] | None = None,
             unit_price: float | None = None, condition: str = "new", market: str = "global",
             hosting: str | None = None, usd_cny: float = 7.0, licence_per_gpu_year: float = 0.0,
             plan: BuyPlan | None = None) -> BuyCost | None:
    """Owning ``count`` cards for ``months`` in the units they are sold in, hosted where they run;
    None when the count cannot be bought or no dated price is known (see :func:`buy_plan`)."""
    if plan is None:
        plan, _ = buy_plan(prices, gpu, count, tco, condition=condition, market=market, usd_cny=usd_cny,
                           unit_price=unit_price, hosting=hosting)
    if plan is None:
        return None
    v = tco.values
    cards = Term("cards_usd", plan.hardware_usd, "USD",
                 formula("formula.cards_servers" if plan.sold_as == "server" and plan.host_usd == 0
                         else "formula.cards"),
                 {"sold_as": plan.sold_as, "units": plan.units, "gpus_per_unit": plan.unit_gpus,
                  "price": plan.native_amount, "currency": plan.currency, "condition": plan.condition,
                  "kind": plan.price_kind, "price_as_of": plan.as_of, "source": plan.source, "check": plan.check},
                 note_phrases=plan.note_phrases)
    server = Term("server_usd", plan.host_usd, "USD", plan.host_note, {"gpus": count})
    net, fabric = network_cost(plan, prices, networks or {}, gpu)
    if plan.sold_as == "workstation":  # desktops, or whole desktop systems (a DGX Spark: its part's TDP holds the CPU)
        host_w = machine_host_w(gpu, 1, tco, desktop=True) * plan.nodes
    else:
        host_w = machine_host_w(gpu, count, tco, desktop=False)
    kw = (gpu.power.tdp_w * count + host_w) / 1000
    where, assumed = hosting_for(tco, plan, hosting, kw)
    h = tco.hosting.get(where) if tco.hosting else None
    pue = h.pue if h else v["pue"].value
    energy_kwh = kw * pue * busy_hours
    power = Term("power_usd", energy_kwh * electricity, "USD", formula("formula.power"),
                 {"tdp_w": gpu.power.tdp_w, "host_w": host_w, "cards": count, "it_kw": kw, "pue": pue,
                  "hosting": where, "busy_hours": busy_hours, "usd_per_kwh": electricity, "kwh": energy_kwh})
    if h is None:
        rate, billed = v["hosting_usd_per_kw_month"].value, kw
    else:
        billed = max(kw, h.min_billed_kw) if h.rent_usd_per_kw_month > 0 else kw
        wholesale = h.wholesale_usd_per_kw_month is not None and h.wholesale_min_kw is not None \
            and kw >= h.wholesale_min_kw
        rate = h.wholesale_usd_per_kw_month if wholesale else h.rent_usd_per_kw_month  # type: ignore[assignment]
    hosting_t = Term("hosting_usd", billed * rate * months, "USD", formula("formula.hosting"),
                     {"hosting": where, "assumed": assumed, "it_kw": kw, "billed_kw": billed,
                      "usd_per_kw_month": rate, "months": months,
                      "circuit_kw": h.circuit_kw if h else None})
    licences = Term("licences_usd", licence_per_gpu_year * count * months / 12, "USD",
                    formula("formula.licences"), {"usd_per_gpu_year": licence_per_gpu_year})
    frac = resale_fraction(tco, months, plan.condition, family=gpu.architecture)
    resale = Term("resale_usd", -plan.hardware_usd * frac, "USD", formula("formula.resale"),
                  {"fraction": frac, "months": months, "curve": tco.resale_for(gpu.architecture)[2]})
    capex = cards.value + server.value + net.value
    total_value = capex + power.value + hosting_t.value + licences.value + resale.value
    total = Term("buy_usd", total_value, "USD", formula("formula.buy"),  # each line an operand: it adds up in print
                 {"capex": capex, "hosting": where, "hardware_usd": cards.value, "host_usd": server.value,
                  "network_usd": net.value, "power_usd": power.value, "hosting_usd": hosting_t.value,
                  "licences_usd": licences.value, "resale_usd": -resale.value})
    monthly_opex = kw * pue * HOURS_PER_MONTH * electricity + billed * rate + licence_per_gpu_year * count / 12
    return BuyCost(cards, server, power, hosting_t, licences, resale, total, monthly_opex, capex,
                   net, plan, where, assumed, kw, fabric, gpu.architecture)


def break_even_month(rent_per_month: float, buy: BuyCost, card_price_total: float, tco: TcoFile,
                     max_months: int = 120) -> int | None:
    """First month at which renting around the clock has cost more than owning (net of resale). The resale
    is the ledger's: a used purchase has lost its first owner's premium (review51: 4 used A100 SXM4 80GB were
    said to break even in month 1, resold as if new, beside a rental cheaper over the whole 12 months)."""
    resale = _resale_series(tco, max_months, buy.resale_family, buy.plan.condition if buy.plan else "new")
    for m in range(1, max_months + 1):
        own = buy.capex + buy.monthly_opex * m - card_price_total * resale[m]
        if rent_per_month * m >= own:
            return m
    return None


def cumulative_curves(rent_per_month: float, buy: BuyCost, card_price_total: float, tco: TcoFile,
                      months: int) -> dict[str, list[float]]:
    """Cumulative cost by month (0..months) for the rent-vs-buy chart: renting around the clock,
    and owning if the cards were resold at that month (the same definition as the break-even)."""
    rent = [rent_per_month * m for m in range(months + 1)]
    condition = buy.plan.condition if buy.plan else "new"
    own = [buy.capex + buy.monthly_opex * m
           - card_price_total * resale_fraction(tco, m, condition, family=buy.resale_family)
           for m in range(months + 1)]
    return {"rent": rent, "buy": own}


def cloud_fees(clouds: CloudFile, provider_id: str | None, *, egress_tb: float, cross_region_tb: float,
               storage_kind: str, storage_tb: float, months: float, usd_cny: float = 7.0) -> Term:
    """Monthly transfer and storage fees over the months the rental is billed (the bill's hidden
    part): the job's billed hours, a committed term, or the project when serving. A provider
    the knowledge base has no fee table for (an imported catalog's) is charged none, and the
    term says so (``fees_unknown``) for the result to state as an assumption."""
    prov = next((p for p in clouds.providers if p.id == provider_id), None)
    if prov is None:
        return Term("cloud_fees_usd", 0.0, "USD", formula("formula.fees_unknown"),
                    {"provider": provider_id or "", "egress_usd_per_month": 0.0, "cross_region_usd_per_month": 0.0,
                     "storage_usd_per_month": 0.0, "months": months, "egress_free_gb": 0.0, "as_of": "",
                     "fees_unknown": True})
    gb = egress_tb * 1000
    free = prov.egress_free_gb_per_month
    billable = max(0.0, gb - free)
    egress = 0.0
    done = 0.0
    for tier in prov.egress_tiers:
        cap = tier.up_to_tb * 1000 if tier.up_to_tb is not None else math.inf
        take = min(billable - done, cap - done) if cap > done else 0.0
        if take <= 0:
            continue
        egress += take * tier.usd_per_gb
        done += take
    cross = cross_region_tb * 1000 * prov.cross_region_usd_per_gb
    storage_rate, priced_kind = storage_rate_for(prov.storage_usd_per_gb_month, storage_kind)
    storage = storage_tb * 1000 * storage_rate * per_gb(prov.storage_unit)
    if prov.currency == "CNY":  # the provider's fee table is in CNY
        egress, cross, storage = egress / usd_cny, cross / usd_cny, storage / usd_cny
    monthly = egress + cross + storage
    return Term("cloud_fees_usd", monthly * months, "USD",
                formula("formula.fees"),
                {"provider": prov.id, "egress_usd_per_month": egress, "cross_region_usd_per_month": cross,
                 "storage_usd_per_month": storage, "months": months, "egress_free_gb": free,
                 "as_of": prov.as_of.isoformat(), "storage_kind": storage_kind, "storage_priced_as": priced_kind,
                 # storage asked for at a provider that lists no storage price: not counted, and said so
                 "storage_unknown": storage_tb > 0 and not prov.storage_usd_per_gb_month})


def per_gb(unit: str) -> float:
    """What a rate per ``unit`` (a provider's storage_unit: GB or GiB) is multiplied by to charge a GB (10^9
    bytes), the unit a job states its storage in: a GiB is 1.073741824 GB (review56: Nebius's $0.0147 per GiB
    had been charged per GB)."""
    return 1e9 / 2**30 if unit == "GiB" else 1.0


def storage_rate_for(rates: dict[str, float], kind: str) -> tuple[float, str]:
    """A provider's rate per GB-month for ``kind`` of storage, and the kind it was priced as. The
    same data is stored wherever the GPUs are rented (an audit's alternative carries the proposal's
    storage): a provider that does not list that kind is charged at the dearest kind it does list,
    never nothing (it had been free, which made a provider without the kind look cheaper)."""
    if kind in rates:
        return rates[kind], kind
    if not rates:
        return 0.0, ""
    other = max(rates, key=lambda k: rates[k])
    return rates[other], other


# ------------------------------------------------------------------------------ ledgers
def fee_lines(fees: Term) -> list[LedgerLine]:
    """The cloud's transfer and storage fees (:func:`cloud_fees`) as ledger lines, one per fee."""
    i = fees.inputs
    months = i["months"]
    common = {"provider": i["provider"], "months": months, "as_of": i["as_of"]}
    return [
        L.line("fee", "egress", i["egress_usd_per_month"] * months,
               formula("formula.fee.egress"),
               {**common, "usd_per_month": i["egress_usd_per_month"], "free_gb": i["egress_free_gb"]},
               _item("item.fee.egress")),
        L.line("fee", "cross-region", i["cross_region_usd_per_month"] * months,
               formula("formula.fee.cross_region"), {**common, "usd_per_month": i["cross_region_usd_per_month"]},
               _item("item.fee.cross_region")),
        L.line("fee", "storage", i["storage_usd_per_month"] * months, formula("formula.fee.storage"),
               {**common, "usd_per_month": i["storage_usd_per_month"]},
               # a kind the provider does not list is charged at the dearest it does (storage_rate_for): said
               _item("item.fee.storage_as", kind=i["storage_kind"], priced=i["storage_priced_as"])
               if i.get("storage_priced_as") and i["storage_priced_as"] != i.get("storage_kind")
               else _item("item.fee.storage")),
    ]


def rent_ledger(offer: Offer, clouds: CloudFile, *, run_hours: float, setup_hours: float, period: Period,
                spot: bool = False, fees: list[LedgerLine] | None = None) -> Ledger:
    """What renting ``offer`` costs over ``period``: the hours the job runs (or the whole committed
    term), the start-up and wind-down as their own line, and the cloud's fees.

    A commitment longer than the job is billed in full: the rent line then covers the term less the
    set-up hours, whatever the job uses of it."""
    billed_run = max(run_hours, period.hours - setup_hours) if period.kind == "commitment" else run_hours
    one = "_one" if offer.gpus == 1 else ""  # '1 GPU on runpod', not '1 GPUs'
    words = (_item(f"item.rent_instance{one}", gpus=offer.gpus, provider=offer.provider,
                   instance=offer.instance.removeprefix(f"{offer.provider}:"))  # imported: provider:instance
             if offer.instance else _item(f"item.rent{one}", gpus=offer.gpus, provider=offer.provider))
    if spot:
        sm = clouds.spot
        rate = spot_rate(offer, clouds)
        common = {"usd_per_hour": rate, "provider": offer.provider, "instance": offer.instance,
                  "gpus_paid": offer.gpus, "as_of": offer.as_of, "restart_overhead": sm.restart_overhead,
                  "spot_price_known": offer.spot_usd_per_hour is not None}
        rent = L.line("rent", words + _item("item.spot", sep=", "), rate * billed_run * (1 + sm.restart_overhead),
                      formula("formula.rent_spot"), {**common, "hours": billed_run})
        setup = L.line("setup", _item("item.setup"), rate * setup_hours, formula("formula.setup_spot"),
                       {**common, "hours": setup_hours})
    else:
        d, schedule = discount(clouds, billed_run + setup_hours)
        common = {"usd_per_hour": offer.usd_per_hour, "discount": d, "schedule": schedule,
                  "provider": offer.provider, "instance": offer.instance, "gpus_paid": offer.gpus,
                  "as_of": offer.as_of, "currency": offer.currency}
        rent = L.line("rent", words, offer.usd_per_hour * billed_run * (1 - d),
                      formula("formula.rent"), {**common, "hours": billed_run})
        setup = L.line("setup", _item("item.setup"), offer.usd_per_hour * setup_hours * (1 - d),
                       formula("formula.setup"), {**common, "hours": setup_hours})
    return L.ledger(period, [rent, setup, *(fees or [])])


def buy_ledger(buy: BuyCost, period: Period) -> Ledger:
    """What owning costs over ``period``: the capital items as bought, the network, hosting, power
    and licences, and the resale at the end as its own (negative) line."""
    p = buy.plan
    # a server price with a host share added is a baseboard's (its host is the next line); a desktop system's, whole
    words = (_item("item.capex.baseboards", units=p.units, unit_gpus=p.unit_gpus)
             if p and p.sold_as == "server" and p.host_usd > 0
             else _item("item.capex.servers", units=p.units, unit_gpus=p.unit_gpus) if p and p.sold_as == "server"
             else _item("item.capex.system" if p.count == 1 else "item.capex.systems", count=p.count)
             if p and (p.whole_system or (p.sold_as == "workstation" and p.host_usd == 0))
             else _item("item.capex.card" if p.count == 1 else "item.capex.cards", count=p.count)
             if p and p.sold_as in ("card", "workstation")
             else _item("item.capex.units", count=p.count, unit=p.sold_as) if p else _item("item.capex.hardware"))
    lines = [L.line("capex", words, buy.cards.value, buy.cards.formula_phrases or buy.cards.formula,
                    buy.cards.inputs)]
    for kind, term in (("server", buy.server), ("network", buy.network), ("hosting", buy.hosting),
                       ("power", buy.power), ("licence", buy.licences), ("resale", buy.resale)):
        if term is not None:
            site = buy.hosting_name  # a hosting line names the site (tco.yaml hosting); one it does not know, as named
            item: str | tuple[Phrase, ...] = (_item(f"item.{kind}") if kind != "hosting" else
                                              _item(f"item.site.{site}") if site in SITES else site)
            lines.append(L.line(kind, item, term.value, term.formula_phrases or term.formula,  # type: ignore[arg-type]
                                term.inputs))
    return L.ledger(period, lines)


SITES = ("colocation", "office", "datacenter")
"""Where bought hardware is hosted (tco.yaml hosting): each a ledger item worded item.site.<name>."""


def _item(message_id: str, sep: str = "", **values: object) -> tuple[Phrase, ...]:
    """What a ledger line pays for, as a phrase of one part (reports/messages.yaml item.*)."""
    return ((sep, message_id, dict(values)),)


def crossing(rent: list[float], buy: list[float], xs: list[float]) -> float | None:
    """Where the rent line first reaches the buy line, interpolated between points (None: never
    within ``xs``)."""
    for i in range(1, len(xs)):
        a0, a1 = rent[i - 1] - buy[i - 1], rent[i] - buy[i]
        if a0 < 0 <= a1:
            return xs[i - 1] + (xs[i] - xs[i - 1]) * (-a0 / (a1 - a0))
        if i == 1 and a0 >= 0:
            return xs[0]
    return None


def cost_chart(rent: Ledger | None, buy: Ledger | None, chosen: Ledger, *, points: int = 24) -> CostCurve:
    """Cumulative cost of renting and of buying over the chosen configuration's own period (the
    job's hours, a committed term, or the project's months), read from the two ledgers: renting
    accrues over the hours its ledger bills and then stops; buying pays its capital items at the
    start and its running costs (hosting, power, licences) over its own period; the resale comes
    back as a step at the end, drawn and labelled, never netted into the line. The break-even is
    where the rent line reaches the buy line, interpolated, or none within the period."""
    from ..chart_series import CostCurve

    horizon = max(chosen.period.hours, 1e-9)
    in_months = chosen.period.kind != "job"
    scale = HOURS_PER_MONTH if in_months else 1.0
    hours = [horizon * i / points for i in range(points + 1)]

    def accrue(led: Ledger, start: float) -> list[float]:
        span = max(led.period.hours, 1e-9)
        running = led.cash_out - start
        return [start + running * min(h, span) / span for h in hours]

    rent_line = accrue(rent, 0.0) if rent is not None else None
    upfront = buy.amount("capex", "server", "network") if buy is not None else None
    buy_line = accrue(buy, upfront) if buy is not None and upfront is not None else None
    be = crossing(rent_line, buy_line, hours) if rent_line is not None and buy_line is not None else None
    return CostCurve.model_construct(
        unit="months" if in_months else "hours", x=[h / scale for h in hours], period=chosen.period.kind,
        span=horizon / scale, rent=rent_line, rent_total=rent.total if rent is not None else None,
        buy=buy_line, buy_cash_out=buy.cash_out if buy is not None else None, buy_upfront=upfront,
        resale=buy.amount("resale") if buy is not None else None,
        resale_after_months=buy.period.months if buy is not None else None,
        buy_net=buy.net if buy is not None else None, break_even=None if be is None else be / scale, label="")
