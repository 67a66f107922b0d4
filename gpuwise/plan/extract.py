"""A solved plan program read back as the plan's records, amounts in USD: the money lines (each with its item
and formula as message ids with values), the purchases and commitments, every month's placements, fleet and figures,
the hours each workload ran and what was left unplaced. Moved out of :mod:`.build` (its module held 813 lines), which
assembles the result from what this returns (:class:`~.solution.Extracted`).
"""

from __future__ import annotations

from typing import Any

from .. import messages
from .milp import Solution
from .sizing import DAYS_PER_MONTH, HOURS, Sized, replicas_needed
from .solution import Bought, Committed, Extracted, MoneyLine, MonthFigures, Placed
from .solve import (
    Fleet,
    Inputs,
    Program,
    commitment_span,
    joint_sites,
    owned_per_month,
    power_split,
    site_minimums,
)


def extract(inp: Inputs, p: Program, sol: Solution) -> Extracted:
    """The solver's values read back as the plan's records (amounts in USD): a purchase's capex, hosting and
    resale lines, the owned fleet's hosting and each site's minimum, every placement with its power or rent line,
    commitments, the workloads left unplaced and each month's figures."""
    x = sol.values
    H, L = inp.H, inp.delivery
    lines: list[MoneyLine] = []
    purchases: list[Bought] = []
    arrived: dict[str, list[int]] = {g: [0] * (H + 2) for g in inp.fleets}
    sites: dict[tuple[str, int], set[str]] = {}  # a type's orders of a month at more than one site say where
    for (g, o, i), j in p.buy.items():
        if round(x[j]) > 0:
            sites.setdefault((g, o), set()).add(inp.fleets[g].units[i].site)
    for (g, o, i), j in p.buy.items():
        k = round(x[j])
        if k <= 0:
            continue
        f = inp.fleets[g]
        u = f.units[i]
        n, per = k * u.nodes, u.gpus // u.nodes  # a unit over whole nodes: its servers, each a part of it
        purchases.append(Bought(month=o, gpu=g, units=n, unit_gpus=per, count=k * u.gpus,
                                amount=k * u.capex, arrives=o + L, sold_as=u.sold_as, as_of=f.buy_as_of,
                                source=f.buy_source, site=u.site, host_key=u.host_key))
        split = {"site": u.site} if len(sites[(g, o)]) > 1 else {}
        lines.append(_line(o, "capex", _item("item.plan.capex_at" if split else "item.plan.capex", units=n,
                                             unit_gpus=per, gpu=f.gpu.name, gpu_id=f.gpu.id, sold_as=u.sold_as,
                                             **split), k * u.capex,
                           messages.formula("formula.plan.capex"),
                           {"units": n, "unit_gpus": per, "unit_usd": round(u.capex / u.nodes, 2),
                            **{key: round(v / u.nodes, 2) for key, v in u.parts.items()},
                            "price_as_of": f.buy_as_of}))
        for m in range(o + L, H + 1):
            arrived[g][m] += k * u.gpus
            lines.append(_line(m, "hosting", _item("item.plan.bought", count=k * u.gpus, gpu=f.gpu.name,
                                                   gpu_id=f.gpu.id, site=u.site),
                               k * u.hosting_per_month, messages.formula("formula.plan.hosting"),
                               {"units": k, "usd_per_unit_month": round(u.hosting_per_month, 2),
                                **{key: round(v, 4) for key, v in u.hosting.items()}}))
        frac = k * u.hardware and (-k * u.hardware * _resale(inp, f, H - o + 1))
        lines.append(_line(H, "resale", _item("item.plan.resold", count=k * u.gpus, gpu=f.gpu.name,
                                              gpu_id=f.gpu.id, months=H - o + 1), frac,
                           messages.formula("formula.plan.resale"),
                           {"hardware_usd": round(k * u.hardware, 2), "months_owned": H - o + 1,
                            "resale_fraction": round(_resale(inp, f, H - o + 1), 4)}))
    joint = joint_sites(inp)
    for f in inp.fleets.values():
        if f.owned and f.owned_hosting_per_month > 0:
            # billed their kW where the site's minimum is billed over all it holds (the line below)
            inputs = {**f.owned_formula, "billed_kw": round(f.owned_kw, 3)} if f.owned_hosting in joint else \
                f.owned_formula
            for m in range(1, H + 1):
                lines.append(_line(m, "hosting", _item("item.plan.owned", count=f.owned, gpu=f.gpu.name,
                                                       gpu_id=f.gpu.id, site=f.owned_hosting),
                                   owned_per_month(f, joint), messages.formula("formula.plan.owned_hosting"),
                                   inputs))
    for m, site, min_kw, kw, rate in site_minimums(inp, p, x, joint):  # what a site bills up to its minimum
        lines.append(_line(m, "hosting", ("", (("", "item.plan.site_minimum", {"site": site,
                                                                         "min_kw": f"{min_kw:g}"}),)),
                           (min_kw - kw) * rate, messages.formula("formula.plan.site_minimum"),
                           {"min_billed_kw": min_kw, "site_kw": round(kw, 4), "usd_per_kw_month": rate}))
    fleet = {g: [f.owned + arrived[g][m] for m in range(H + 1)] for g, f in inp.fleets.items()}
    placements: dict[int, list[Placed]] = {m: [] for m in range(1, H + 1)}
    used_hours: dict[tuple[str, int], float] = {}
    in_use: dict[tuple[str, int], int] = {}
    rented_hours: dict[str, float] = {}
    billed_hours: dict[str, float] = {}  # the GPUs each on-demand rent line pays for x its hours, by GPU type
    total_hours: dict[str, float] = {}
    by_name = {sz.name: sz for sz in inp.sized}
    left: dict[tuple[str, int, int], float] = {}  # GPU-hours of a power rate not yet given to a line
    # the types whose GPUs the plan holds at more than one power rate: their power lines say the site
    rates: dict[str, set[float]] = {g: {round(f.owned_power_per_gpu_hour, 9)} if f.owned else set()
                                    for g, f in inp.fleets.items()}
    for (g, _o, k), j in p.buy.items():
        if round(x[j]) > 0:
            rates[g].add(round(inp.fleets[g].units[k].power_per_gpu_hour, 9))
    apart = {g for g, r in rates.items() if len(r) > 1}

    def place(sz: Sized, g: str, m: int, value: float, own: bool | str, term: str = "on-demand",
              paid: int = 0) -> None:
        o = sz.options[g]
        f = inp.fleets[g]
        if sz.serving:
            copies = round(value)
            gpus = paid or copies * (o.count if own else o.rented_count)  # in rentals of several: all paid for
            hours = gpus * sz.hours_per_day * DAYS_PER_MONTH
            extra: dict[str, Any] = {"copies": copies}
        else:  # a rented run on every GPU its instances pay for (sizing.Option.rented_count)
            gpus = (o.wide_count if own == "wide" else o.count) if own else o.rented_count
            hours = (o.wide_gpu_hours if own == "wide" else gpus * (o.wall_hours if own else o.rented_wall_hours)
                     ) * value  # "wide": on a server bought's GPUs or more owned (hardware.on_units, on_owned)
            extra = {"runs": round(value, 4)}
        total_hours[sz.name] = total_hours.get(sz.name, 0.0) + hours
        if not own:
            rented_hours[sz.name] = rented_hours.get(sz.name, 0.0) + hours
            placements[m].append(Placed(workload=sz.name, gpu=g, count=gpus, acquisition="rent", term=term,
                                        gpu_hours=hours, **extra))
            return
        used_hours[(g, m)] = used_hours.get((g, m), 0.0) + hours
        for share, (rate, site, operands) in power_split(inp, p, x, g, m, hours, left, g in apart):
            # a type whose GPUs draw power at more than one rate: its lines say the site, and the GPUs there
            n = gpus if not sz.serving or share == hours else round(gpus * share / hours)
            lines.append(_line(m, "power", _item("item.plan.power_at" if site else "item.plan.power",
                                                 workload=sz.name, count=n, gpu=f.gpu.name, gpu_id=f.gpu.id,
                                                 **({"site": site} if site else {})),
                               rate * share, messages.formula("formula.plan.power"),
                               {"gpu_hours": round(share, 2), "usd_per_gpu_hour": round(rate, 4), **operands}))
        start = in_use.get((g, m), 0)
        in_use[(g, m)] = start + (gpus if sz.serving else 0)
        acq = "owned" if start + gpus <= f.owned or (not sz.serving and gpus <= f.owned) else "buy"
        placements[m].append(Placed(workload=sz.name, gpu=g, count=gpus, acquisition=acq, gpu_hours=hours,
                                    **extra))

    for table, own in ((p.own_copy, True), (p.buy_copy, True), (p.own_run, True), (p.wide_run, "wide"),
                       (p.rent_copy, False), (p.rent_run, False)):
        for (name, m, g), j in table.items():
            v = x[j]
            if v <= 1e-6:
                continue
            sz = by_name[name]
            place(sz, g, m, v, own)
            if not own:
                o = sz.options[g]
                if sz.serving:
                    amount = (o.rent_usd_per_hour * sz.hours_per_day * DAYS_PER_MONTH * (1 - o.rent_discount)
                              * round(v))
                    formula = messages.formula("formula.plan.rent_copies")
                    inputs = {"copies": round(v), "usd_per_hour": round(o.rent_usd_per_hour, 4),
                              "hours_per_day": sz.hours_per_day, "days": round(DAYS_PER_MONTH, 4),
                              "discount": o.rent_discount,
                              "provider": o.rent_provider, "as_of": o.rent_as_of}
                else:
                    amount = o.rent_usd_per_hour * o.rented_wall_hours * v
                    formula = messages.formula("formula.plan.rent_runs")
                    inputs = {"runs": round(v, 4), "usd_per_hour": round(o.rent_usd_per_hour, 4),
                              "wall_hours": round(o.rented_wall_hours, 2), "gpus_paid": o.rent_gpus_paid,
                              "provider": o.rent_provider, "as_of": o.rent_as_of}
                # the GPUs the line pays for: a service's copies each on the copy's GPUs (as a commitment's
                # line counts them), a training line's runs one after another on the run's
                paid = (o.rent_gpus_paid or o.rented_count) * (round(v) if sz.serving else 1)
                billed_hours[g] = billed_hours.get(g, 0.0) + paid * (
                    sz.hours_per_day * DAYS_PER_MONTH if sz.serving else o.rented_wall_hours * v)
                lines.append(_line(m, "rent", _item("item.plan.rent", workload=name, count=paid,
                                                    gpu=inp.fleets[g].gpu.name, gpu_id=g, provider=o.rent_provider),
                                   amount, formula, inputs))
    for (name, m, g), j in p.rent_pack.items():  # copies in rentals that hold several each, rented whole
        k = round(x[j])
        if k <= 0:
            continue
        sz = by_name[name]
        o = sz.options[g]
        pk = o.rent_pack
        alone = sum(round(x[t[(name, m, g)]]) for t in (p.rent_copy, p.own_copy, p.buy_copy) if (name, m, g) in t)
        copies = max(1, min(k * pk.copies, replicas_needed(sz, o, m) - alone))  # the copies the load needs there
        place(sz, g, m, copies, False, paid=k * pk.gpus_paid)
        amount = pk.usd_per_hour * sz.hours_per_day * DAYS_PER_MONTH * (1 - o.rent_discount) * k
        billed_hours[g] = billed_hours.get(g, 0.0) + k * pk.gpus_paid * sz.hours_per_day * DAYS_PER_MONTH
        inputs = {"rentals": k, "usd_per_hour": round(pk.usd_per_hour, 4), "gpus_paid": pk.gpus_paid,
                  "copies_each": pk.copies, "hours_per_day": sz.hours_per_day, "days": round(DAYS_PER_MONTH, 4),
                  "discount": o.rent_discount, "provider": pk.provider, "as_of": pk.as_of}
        lines.append(_line(m, "rent", _item("item.plan.rent", workload=name, count=k * pk.gpus_paid,
                                            gpu=inp.fleets[g].gpu.name, gpu_id=g, provider=pk.provider),
                           amount, messages.formula("formula.plan.rent_whole"), inputs))
    commitments = []
    for (name, g, term, o, each), j in p.commit.items():
        k = round(x[j])  # rentals committed, each holding `each` copies
        if k <= 0:
            continue
        sz = by_name[name]
        opt = sz.options[g]
        r = (opt.reserved if each == 1 else opt.reserved_pack)[term]
        per_month = r.usd_per_hour * HOURS * k
        span = commitment_span(H, o, r.months)
        inputs = {"copies": k, "usd_per_hour": round(r.usd_per_hour, 4), "hours_per_month": HOURS,
                  "term": term, "from_month": o, "provider": r.provider, "as_of": r.as_of}
        whole = "_whole" if each > 1 else ""  # k rentals of several copies: counted as one rented whole on demand
        if whole:
            inputs = {"rentals": k, "copies_each": each, "gpus_paid": r.gpus_paid,
                      **{a: b for a, b in inputs.items() if a != "copies"}}
        held = {m: k if each == 1 else max(1, min(k * each, replicas_needed(sz, opt, m)))
                for m in span if sz.active(m)}  # the copies the load needs there (several: on every GPU paid)
        for m in span:
            if m in held:
                place(sz, g, m, held[m], False, term, paid=k * r.gpus_paid if each > 1 else 0)
            lines.append(_line(m, "rent", _item("item.plan.committed", workload=name, count=r.gpus_paid * k,
                                                gpu=inp.fleets[g].gpu.name, gpu_id=g, provider=r.provider,
                                                term=term, start=o), per_month,
                               messages.formula("formula.plan.committed" + whole), inputs))
        after = o + r.months - 1 - H
        if after > 0:
            lines.append(_line(H, "rent", _item("item.plan.committed_after", workload=name,
                                                count=r.gpus_paid * k, gpu=inp.fleets[g].gpu.name, gpu_id=g,
                                                term=term, months=after, provider=r.provider),
                               per_month * after,
                               messages.formula("formula.plan.committed_after" + whole),
                               {**inputs, "months_after": after}))
        commitments.append(Committed(workload=name, gpu=g, count=r.gpus_paid * k,
                                     copies=max(held.values(), default=k), term=term, months=r.months, start=o,
                                     provider=r.provider, instance=r.instance, usd_per_hour=r.usd_per_hour * k,
                                     amount=per_month * r.months, as_of=r.as_of))
    unplaced: dict[str, list[int]] = {}
    for (name, m), j in p.unplaced.items():
        if x[j] > 1e-6:
            unplaced.setdefault(name, []).append(m)
    over = {name: x[j] for name, j in p.over.items() if x[j] > 1e-3}
    months = []
    for m in range(1, H + 1):
        ms = [ln for ln in lines if ln.month == m]

        def of(*kinds: str, ms: list[MoneyLine] = ms) -> float:
            return sum(ln.amount for ln in ms if ln.kind in kinds)

        cap_hours = sum(fleet[g][m] * HOURS for g in inp.fleets)
        used = sum(used_hours.get((g, m), 0.0) for g in inp.fleets)
        months.append(MonthFigures(
            month=m, capex=of("capex"), rent=of("rent"), hosting=of("hosting"), power=of("power"),
            opex=of("hosting", "power"), fees=of("fee"), resale=of("resale"),
            total=of("capex", "rent", "hosting", "power", "fee", "resale"),
            utilisation=used / cap_hours if cap_hours else 0.0,
            utilisation_by_gpu={g: used_hours.get((g, m), 0.0) / (fleet[g][m] * HOURS)
                                for g in inp.fleets if fleet[g][m]},
            fleet={g: fleet[g][m] for g in inp.fleets if fleet[g][m]},
            placements=placements[m],
            work_hours=sum(pl.gpu_hours for pl in placements[m]),
            own_hours=used, capacity_hours=cap_hours * inp.availability,
        ))
    return Extracted(lines=lines, purchases=purchases, months=months, unplaced=unplaced, over=over,
                     rented_hours=rented_hours, total_hours=total_hours, fleet=fleet, used_hours=used_hours,
                     commitments=commitments, billed_hours=billed_hours)


def _line(month: int, kind: str, item: tuple[str, tuple[messages.Phrase, ...]], amount: float,
          formula: tuple[messages.Phrase, ...], inputs: dict[str, Any]) -> MoneyLine:
    """A money line: its GPU type, what it pays for and its formula as message ids with values
    (reports/messages.yaml item.plan.*, formula.plan.*)."""
    gpu, words = item
    rent = kind == "rent"  # a rental's provider and offer date, typed for the plan's judge (DATA-STALE-PRICE)
    return MoneyLine(month=month, kind=kind, gpu=gpu, item=words, amount=float(amount), formula=formula, inputs=inputs,
                     provider=str(inputs.get("provider") or "") if rent else "",
                     as_of=str(inputs.get("as_of") or "") if rent else "")


def _item(message_id: str, **values: Any) -> tuple[str, tuple[messages.Phrase, ...]]:
    """What a money line pays for (reports/messages.yaml item.plan.*), with the GPU type's id it is for."""
    return str(values.pop("gpu_id")), (("", message_id, values),)


def _resale(inp: Inputs, f: Fleet, months_owned: int) -> float:
    from ..estimators import cost as K

    return K.resale_fraction(inp.tco, months_owned, f.condition, family=f.gpu.architecture)
