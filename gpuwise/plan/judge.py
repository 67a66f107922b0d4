"""The plan before the rules: facts of the solved plan (:mod:`.facts`) asserted through the
durable-rules adapter (:mod:`gpuwise.decide.engine`) with the whole rule book, house rules and the
policy overlay included; each firing becomes a finding and a trace entry. Each GPU type the plan
buys is said of as ``recommend`` says of a candidate bought: the candidate rules' findings that
certainly hold for the purchase (:func:`gpuwise.decide.verdicts.buy_findings`; the rules that
refuse one keep the plan from buying it). The judgements and their thresholds are the rules'
(``rules/plan.yaml``, ``rules/market.yaml``), not this module's.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ..decide import engine, rulebook
from ..decide.actions import SEVERITY_ORDER, evidence
from ..decide.result import house_rules
from ..decide.verdicts import buy_findings, buying
from ..estimators import cost as K
from ..estimators.serving.facts import target_units
from ..messages import fill, phrase_json, phrase_text, placeholders
from ..results import Finding, HouseRules, TraceEntry
from . import copies
from .reading import whole_runs
from .sizing import HOURS, owned_run_fact
from .solution import Bought, Extracted, HostedApi
from .why import Why, joined, why


def owned_hosting(inp: Any, ex: Extracted, g: str) -> float:
    """What the plan bills for hosting the owned GPUs of type ``g`` over its months (USD): their own lines (their kW
    where their site bills its minimum over all it holds, else their bill alone) and, in the months their site holds
    only owned GPUs, the rest up to its minimum (the site minimum's line), shared among the owned types there by kW.
    In a month the site also holds units bought, that rest is the whole site's, not theirs."""
    f = inp.fleets[g]
    out = sum(ln.amount for ln in ex.lines if ln.kind == "hosting" and ln.gpu == f.gpu.id
              and ln.item and ln.item[0][1] == "item.plan.owned")
    kw = sum(o.owned_kw for o in inp.fleets.values() if o.owned and o.owned_hosting == f.owned_hosting)
    if f.owned_kw <= 0 or kw <= 0:
        return out
    for ln in ex.lines:
        if ln.item and ln.item[0][1] == "item.plan.site_minimum" and ln.item[0][2].get("site") == f.owned_hosting \
                and abs(ln.inputs.get("site_kw", -1.0) - kw) < 1e-3:
            out += ln.amount * f.owned_kw / kw
    return out


def facts(pl: Any, ex: Extracted, api: list[HostedApi]) -> list[dict[str, Any]]:
    inp, kb = pl.inp, pl.kb
    H = inp.H
    out: list[dict[str, Any]] = []
    for g, n in pl.owned.items():
        f = inp.fleets[g]
        used = sum(ex.used_hours.get((g, m), 0.0) for m in range(1, H + 1))
        # owned first: the owned GPUs' share of the fleet's hours used is what they carried
        owned_used = min(used, sum(min(ex.used_hours.get((g, m), 0.0), n * HOURS) for m in range(1, H + 1)))
        idle = sum(1 for m in range(1, H + 1) if ex.used_hours.get((g, m), 0.0) <= 1e-6)
        power = sum(ln.amount for ln in ex.lines if ln.kind == "power" and ln.gpu == f.gpu.id)
        out.append({"t": "plan_fleet", "gpu": g, "gpu_name": f.gpu.name, "owned": n,
                    "utilisation": owned_used / (n * HOURS * H), "idle_months": idle, "months": H,
                    "hosting_usd": owned_hosting(inp, ex, g) + power})
    owned_names = ", ".join(f"{n} x {kb.gpus[g].name}" for g, n in pl.owned.items())
    in_china = {c.id for c in kb.clouds.providers if c.market == "china"}
    first_arrival: dict[str, Bought] = {}
    for p in ex.purchases:
        first_arrival.setdefault(p.gpu, p)
    for sz in inp.sized:
        months = ex.unplaced.get(sz.name, [])
        can = [g for g in pl.owned if g in sz.options and g not in sz.owned_reason]
        reason = () if can else joined([
            Why("owned", (("", "plan.why.owned_gpu", {"gpu": kb.gpus[g].name, "reason": (
                sz.owned_reason.get(g) or sz.why_not.get(g) or why("estimate", "plan.why.no_estimate")).parts}),))
            for g in pl.owned])
        total = ex.total_hours.get(sz.name, 0.0)
        rented = ex.rented_hours.get(sz.name, 0.0)
        first = next((m for m in range(1, H + 1) if sz.active(m)), 1)
        outgrows, gpus_then, gpu_then, owned_then = -1, -1, "", 0
        if sz.serving and can:
            rent = pl.pf.constraints.acquisition != "buy"
            for m in range(1, H + 1):
                # the first month the owned copies (at their own capacity) do not carry the load and the fewest GPUs
                # of one owned type that carry it, the owned ones first and the rest as the plan may add them (bought
                # as sized, or rented at the rented copy's size), are more than the owned count
                hit = copies.outgrown(sz, sz.options, m, {g: pl.owned[g] for g in can},
                                      {g: bool(inp.fleets[g].unit) for g in can}, rent)
                if hit is not None:
                    (need, g_need) = hit
                    outgrows, gpus_then, gpu_then, owned_then = m, need, kb.gpus[g_need].name, pl.owned[g_need]
                    break
        # what the plan does that month: adds capacity, or leaves it short (a buy-only plan's month before delivery)
        later = next((m for m in range(outgrows, H + 1) if m not in months), -1) if outgrows > 0 else -1
        then: tuple = () if outgrows <= 0 else (("", "plan.outgrows.added", {}),) if later == outgrows else (
            ("", "plan.outgrows.later", {"month": outgrows, "later": later}),) if later > 0 else (
            ("", "plan.outgrows.never", {}),)
        late, pm, am = False, -1, -1
        for m in range(1, H + 1):
            for pl_ in ex.months[m - 1].placements:
                if pl_.workload == sz.name and pl_.acquisition == "buy":
                    p = first_arrival.get(pl_.gpu)
                    if p is not None and pm < 0:
                        pm, am = p.month, p.arrives
        if pm > 0:
            late = any(pl_.workload == sz.name and pl_.acquisition == "rent"
                       for m in range(first, am) for pl_ in ex.months[m - 1].placements)
        # a part not sold into China, rented from a cloud outside mainland China (AutoDL's RTX 4090s run there)
        abroad = sorted({kb.gpus[p_.gpu].name for m in ex.months for p_ in m.placements
                         if p_.workload == sz.name and p_.acquisition == "rent"
                         and sz.options[p_.gpu].rent_provider not in in_china
                         and (mk := K.market_entry(kb.prices, p_.gpu)) is not None and mk.sold_in_china is False})
        wm, wg, wfree, wrun, wn = whole_runs(pl.prog, pl.sol, sz) if not sz.serving else (-1, "", 0.0, 0.0, 0)
        out.append({"t": "plan_workload", "market": pl.market, "whole_month": wm,
                    "whole_gpu_name": kb.gpus[wg].name if wg else "", "whole_free_hours": wfree,
                    "whole_run_hours": wrun, "whole_months": wn,
                    "rented_abroad": ", ".join(abroad) if pl.market == "china" else "", "workload": sz.name,
                    "kind": "serving" if sz.serving else "training",
                    "placed": not months, "unplaced_months": len(months), "owned_any": bool(pl.owned),
                    "owned_can_run": bool(can), "owned_reason": phrase_text(reason),
                    "owned_reason_phrases": phrase_json(reason), "owned_gpus": owned_names or "none",
                    "rented_share": rented / total if total else 0.0, "outgrows_month": outgrows,
                    "outgrows_gpus": gpus_then, "outgrows_gpu_name": gpu_then,
                    "outgrows_owned": owned_then, "outgrows_then": phrase_text(then),
                    "outgrows_then_phrases": phrase_json(then), "late_purchase": late, "purchase_month": pm,
                    "arrival_month": am, "first_month": first, **target_units(sz.job.w)})
    out += _owned_runs(pl, ex)
    out += _warranties(pl)
    out += _rentals(pl)
    for name in pl.prog.rows:
        if not name.startswith("budget"):
            continue
        period = name[len("budget["):-1]
        q = int(period[1:]) if period != "total" else 0
        months = range(1, H + 1) if period == "total" else range(3 * q - 2, min(H, 3 * q) + 1)
        cash = sum(m.capex + m.rent + m.opex + m.fees for m in ex.months if m.month in months)
        budget = inp.budget_total if period == "total" else inp.budget_quarter
        out.append({"t": "plan_budget", "period": period, "cash_usd": cash, "budget_usd": budget,
                    "ratio": cash / budget if budget else 0.0})
    seen: set[str] = set()
    for a in api:
        if not a.provider or a.workload in seen or a.self_host_per_month is None:
            continue  # (None: nothing in the plan hosts the service, so there is no self-hosting to compare)
        seen.add(a.workload)  # the cheapest provider per service (api is sorted cheapest first)
        self_host = a.self_host_per_month
        out.append({"t": "plan_api", "workload": a.workload, "provider": a.provider, "model": a.model,
                    "api_usd_per_month": a.api_per_month, "self_host_usd_per_month": self_host,
                    "ratio": a.api_per_month / self_host if self_host > 0 else 1e6})
    return out + prices(pl, ex)


def _rentals(pl: Any) -> list[dict[str, Any]]:
    """Each workload's on-demand rental of a GPU type, one run or copy a rental, as the PLAN-RENT-* rules read it:
    the GPUs one run or copy uses and the GPUs its offer bills for them (clouds.yaml step_gpus: CoreWeave's GB200
    NVL72 in whole racks of 72; an instance rented whole). product65: a plan renting 1 GB200 billed a rack of 72
    and neither its Answer nor its findings said why (review62's Left). Rentals of several copies each (a pack,
    every GPU a copy's) and committed terms are not here."""
    p, x, kb = pl.prog, pl.sol.values, pl.kb
    out: list[dict[str, Any]] = []
    seen: set[tuple[str, str]] = set()
    by_name = {sz.name: sz for sz in pl.inp.sized}
    for (name, _m, g), j in [*p.rent_run.items(), *p.rent_copy.items()]:
        if x[j] <= 1e-6 or (name, g) in seen:
            continue
        seen.add((name, g))
        o = by_name[name].options[g]
        out.append({"t": "plan_rental", "workload": name, "gpu": g, "gpu_name": kb.gpus[g].name,
                    "provider": o.rent_provider or "", "instance": o.rent_instance or "none",
                    "count": o.rented_count, "gpus_paid": o.rent_gpus_paid or o.rented_count,
                    "rental_step_gpus": o.rent_step_gpus})
    return out


def _warranties(pl: Any, today: dt.date | None = None) -> list[dict[str, Any]]:
    """Each owned[] entry with the month it was bought, against its maker's standard warranty (knowledge/tco.yaml
    ``warranty_years_<segment>_<form_factor>``, else ``warranty_years_<segment>``, by the GPU's gpus.yaml segment and
    form factor; -1 where none is known): the month it ends, the
    months from then to the plan's first month (the current one, as owned[].bought is checked against), and the
    plan month it ends in, as the PLAN-OWNED-*-WARRANTY rules read them (review56: 8 RTX 4090 bought 2022-11 were
    planned for a year with no word of their warranty)."""
    kb, H = pl.kb, pl.inp.H
    now = today or dt.date.today()
    first = now.year * 12 + now.month - 1  # the plan's month 1 as a month count
    out: list[dict[str, Any]] = []
    for o in pl.pf.owned:
        if not o.bought:
            continue
        g = kb.gpu(o.gpu).id
        part = kb.gpus[g]
        term = (kb.tco.values.get(f"warranty_years_{part.segment}_{part.form_factor}")
                or kb.tco.values.get(f"warranty_years_{part.segment}"))
        years = float(term.value) if term is not None else -1.0
        bought = int(o.bought[:4]) * 12 + int(o.bought[5:7]) - 1
        end = bought + round(12 * years) if years > 0 else None
        out.append({"t": "plan_owned_warranty", "gpu": g, "gpu_name": part.name, "count": o.count,
                    "bought": o.bought[:7], "warranty_years": years,
                    "warranty_ends": f"{end // 12:04d}-{end % 12 + 1:02d}" if end is not None else "",
                    "months_past": first - end if end is not None else -1,
                    "ends_in_month": end - first + 1 if end is not None and 1 < end - first + 1 <= H else -1,
                    "months": H})
    return out


def _owned_runs(pl: Any, ex: Extracted) -> list[dict[str, Any]]:
    """Each run placed on owned GPUs that keeps its state in host RAM, as the plan_owned_run rules read it
    (sizing.owned_run_fact), and each the rules kept off them before the program (on_hardware: their
    servers' stated RAM is short), so their findings say why."""
    return [owned_run_fact(pl.pf, pl.kb, name, g, h["count"], h) for name, g, _o, h in _offloaded_runs(pl, ex, "owned")
            ] + list(getattr(pl, "refused", ()))


def _offloaded_runs(pl: Any, ex: Extracted, acquisition: str) -> list[tuple[str, str, Any, dict[str, Any]]]:
    """(workload, GPU id, its sizing.Option, the run's host RAM facts) of each run the plan places on
    ``acquisition`` (owned, buy) GPUs that keeps state in host RAM, in the plan's order: on the option's ``count``
    (Option.host_ram), on every GPU of a server bought (Option.buy_count, buy_host_ram) or on more of the owned GPUs
    (Option.own_count, own_host_ram)."""
    placed = {(p.workload, p.gpu, p.count) for m in ex.months for p in m.placements if p.acquisition == acquisition}
    return [(sz.name, g, o, h) for sz in pl.inp.sized for g, o in sz.options.items()
            for n, h in ((o.count, o.host_ram), (o.buy_count, o.buy_host_ram), (o.own_count, o.own_host_ram))
            if h and (sz.name, g, n) in placed]


def prices(pl: Any, ex: Extracted) -> list[dict[str, Any]]:
    """The dated prices the plan rests on -- each GPU type bought, the tco.yaml host share around its cards and
    each rental's offer -- as price facts, so the data-freshness rules (DATA-STALE-PRICE) judge them as they judge
    a recommendation's: the host share of a consumer workstation was from 2019 and no check said so (hostile round
    27, plan31)."""
    today = dt.date.today()
    out: dict[str, dict[str, Any]] = {}
    dated: list[tuple[Any, Any, str, str]] = []
    for p in ex.purchases:
        name = pl.kb.gpus[p.gpu].name
        dated.append((("", "price.what.buy", {"gpu": name}), p.as_of, "buy", "prices"))
        v = pl.kb.tco.values.get(p.host_key) if p.host_key else None
        if v is not None and v.as_of is not None:
            dated.append((("", "price.what.host", {"gpu": name, "key": p.host_key}), v.as_of.isoformat(), "host",
                          "tco"))
    # the rentals it places, on demand or on a term, priced at their offers' dates (review63: a plan renting at an
    # imported offer of 2025-06-01 said no word of its age; only purchases were judged)
    for ln in ex.lines:
        if ln.kind == "rent" and ln.as_of and ln.gpu in pl.kb.gpus:
            dated.append((("", "price.what.rent", {"gpu": pl.kb.gpus[ln.gpu].name, "provider": ln.provider}),
                          ln.as_of, "rent", "clouds"))
    for part, as_of, kind, source in dated:
        what = phrase_text((part,))
        if not as_of or as_of == "proposal" or what in out:
            continue
        out[what] = {"t": "price", "what": what, "what_phrases": phrase_json((part,)), "kind": kind,
                     "as_of": as_of, "age_days": (today - dt.date.fromisoformat(as_of)).days, "source": source,
                     "used": True}
    return list(out.values())


def judge(pl: Any, ex: Extracted, api: list[HostedApi]) -> tuple[list[Finding], list[TraceEntry],
                                                                           HouseRules | None]:
    book = rulebook.load(pl.rules, {k: v.value for k, v in pl.kb.policy.items()})
    fs = facts(pl, ex, api)
    session = engine.run(book, fs)
    findings: list[Finding] = []
    trace: list[TraceEntry] = []
    seen: set[tuple[str, int]] = set()
    for rule_id, idx, _stage in session.firings:
        if (rule_id, idx) in seen:
            continue
        seen.add((rule_id, idx))
        rule = book.rules[rule_id]
        values = fs[idx]
        message = fill(rule.then.message, values)
        names = dict.fromkeys(placeholders(rule.then.message) + placeholders(rule.then.fix))
        shown = {n: values[n] for n in names if n in values}
        shown.update({f"{n}_phrases": values[f"{n}_phrases"] for n in names if values.get(f"{n}_phrases")})
        subject = str(values.get("workload") or values.get("gpu") or values.get("period") or values["t"])
        ev = evidence(rule, values)
        trace.append(TraceEntry(rule=rule_id, step=book.step_of[rule_id], conclusion=message, facts=ev,
                                source=rule.source, subject=subject, action=rule.then.action,
                                template=rule.then.message, values=shown))
        if rule.then.action in ("finding", "reject"):
            findings.append(Finding(rule=rule_id, severity="blocker" if rule.then.action == "reject"
                                    else rule.then.severity, topic=rule.then.topic, message=message, evidence=ev,
                                    fix=fill(rule.then.fix, values), source=rule.source,
                                    step=book.step_of[rule_id], subject=subject,  # type: ignore[arg-type]
                                    house=rule_id in book.house, template=rule.then.message,
                                    fix_template=rule.then.fix, values=shown))
    bought: dict[str, int] = {}
    for p in ex.purchases:
        bought[p.gpu] = bought.get(p.gpu, 0) + p.count
    said: list[tuple[str, str, dict[str, Any], list[str]]] = []  # (subject, gpu, facts, rules)
    offloaded = _offloaded_runs(pl, ex, "buy")
    for g, count in bought.items():  # what the candidate rules say of buying it, as in recommend and audit
        alone = buy_findings(book, pl.kb, pl.kb.gpus[g], pl.pf.constraints, pl.market)
        said.append((g, g, {"count": count}, alone))
        for name, _g, _o, h in (r for r in offloaded if r[1] == g):  # an offloaded run on the bought GPUs: its RAM
            said.append((name, g, h, [r for r in buy_findings(book, pl.kb, pl.kb.gpus[g], pl.pf.constraints,
                                                              pl.market, h) if r not in alone]))
    for subject, g, run, rule_ids in said:
        values = {**buying(pl.kb, pl.kb.gpus[g], pl.pf.constraints, pl.market), **run}
        for rule_id in rule_ids:
            rule = book.rules[rule_id]
            names = dict.fromkeys(placeholders(rule.then.message) + placeholders(rule.then.fix))
            if any(n not in values for n in names):  # says what a purchase alone does not tell
                continue
            message, ev = fill(rule.then.message, values), evidence(rule, values)
            shown = {n: values[n] for n in names}
            trace.append(TraceEntry(rule=rule_id, step=book.step_of[rule_id], conclusion=message, facts=ev,
                                    source=rule.source, subject=subject, action=rule.then.action,
                                    template=rule.then.message, values=shown))
            findings.append(Finding(rule=rule_id, severity=rule.then.severity, topic=rule.then.topic,
                                    message=message, evidence=ev, fix=fill(rule.then.fix, values),
                                    source=rule.source, step=book.step_of[rule_id], subject=subject,  # type: ignore[arg-type]
                                    house=rule_id in book.house, template=rule.then.message,
                                    fix_template=rule.then.fix, values=shown))
    findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return findings, trace, house_rules(book, pl.rules)

