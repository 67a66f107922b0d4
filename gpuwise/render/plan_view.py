"""The plan report's view model: ``PlanResult`` -> plain dicts of preformatted strings and chart
geometry that ``reports/templates/plan.*`` place (they never compute). Money arrives in the
result's currency; rule sentences (in USD, as the facts are) are worded in the report's currency
and language by :meth:`Fmt.sentence`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from ..errors import UserError
from ..plan.reading import month_runs
from ..results import MONEY_WHOLE_FROM
from . import money_view as MV
from .fmt import (
    DASH,
    HTML_LANG,
    N_,
    Currency,
    Fmt,
    _lang,
    _reason,
    environment,
    input_text,
    operand_number,
    table,
    times,
)
from .plan_charts import charts
from .plan_dated import freshness
from .report import BRIEF_LINES, normalise_detail, normalise_format
from .textfit import fit_tables, fit_text, terminal_width
from .views.base import batch_words, counted_rules, house_lines
from .words import formula_parts, plain, said


def render(result: Any, fmt: str, *, lang: str = "en", detail: str = "brief", width: int | None = None) -> str:
    """The plan report: text, md, html or json (the result's own data, whatever the detail).

    ``detail="brief"``: the answer, the baselines, what decided the plan, the findings, the cash
    flow, the purchases and commitments, where each workload runs (months in ranges), the hosted
    APIs and the assumptions; ``"full"`` adds the placements month by month, every money line with
    its formula, the options each workload had on each GPU type and the rule trace."""
    fmt = normalise_format(fmt)
    detail = normalise_detail(detail)
    if fmt == "json":
        return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    vm = view(result, lang=lang, fmt=fmt, detail=detail)
    suffix = {"text": "txt", "md": "md", "html": "html"}[fmt]
    cols = terminal_width(width) if fmt == "text" else 0
    if fmt == "text":  # tables laid out for the terminal's width, as in the other reports
        vm = fit_tables(vm, cols)
    template = environment(_lang(lang)).get_template(f"plan.{suffix}")

    def place(compact: int, cap: int | None = None, rows: tuple[int, int, int] | None = None,
              grouped: bool = False) -> str:
        more = _top(vm, rows, cols) if rows is not None else {}
        if grouped:  # each rule's blockers said once, with their count (_grouped_blockers)
            more |= {"findings": vm["findings_grouped"], "findings_rest": vm["grouped_rest"]}
        out = template.render(vm={**vm, **more, "compact": compact,
                                  "cap": len(vm["findings"]) if cap is None else cap})
        if fmt != "html":
            out = re.sub(r"\n{3,}", "\n\n", out).lstrip("\n")
        if fmt == "text":  # plain text: no Markdown code marks, one multiplication sign, every line in the width
            out = fit_text(times(re.sub(r"`([^`\n]+)`", r"\1", out)), cols)
        return out

    out = place(0)
    # the brief text answer fits two 80 × 40 screens: when it does not, it says less, step by step --
    # the findings without their fixes, then the assumptions and the solver's GPU types named only, then
    # the GPUs of "where each workload runs" by their catalog ids (a plan split over many months wraps names),
    # then the purchases left to the answer's sentences (each says it all but the price's date) and the
    # constraints' GPUs by their ids, then each service's cheapest hosted API only, then each workload's
    # GPUs of one type and one way in one row (their counts as a range), then the findings past what fits
    # named by their rules (never a blocker): a buy answer says more than a rent one
    findings = vm["findings"]
    floor = sum(1 for f in findings if f["severity"] == "blocker")
    steps = [*((n, len(findings)) for n in range(1, 7)), *((6, c) for c in range(len(findings) - 1, floor - 1, -1))]
    fold = fmt == "text" and detail == "brief"
    for level, cap in steps if fold else ():
        if out.count("\n") <= BRIEF_LINES:
            break
        out = place(level, cap)
    # many workloads (leftovers55: 21 printed 87 lines): the workloads left unplaced for one reason in one sentence and
    # the GPU types a deadline, a latency target or memory rules out named once for the workloads they rule out;
    # then what decided the plan, where each workload runs and the hosted APIs keep their first rows (the most
    # GPU-hours, the services an API serves for less), the rest named by count -- as many rows as fit; at the last,
    # the workloads left unplaced by their names alone. Never a blocker, never an unplaced workload's name.
    if fold and out.count("\n") > BRIEF_LINES:
        out = place(7, floor)
    if fold and out.count("\n") > BRIEF_LINES and vm["months_quarters"]:  # past a year: the cash flow by quarter
        out = place(8, floor)
    groups = sum(1 for f in vm["findings_grouped"] if f["severity"] == "blocker")

    def shortest(grouped: bool) -> str:
        cap = groups if grouped else floor

        def most(caps: tuple[int, int, int], k: int | None) -> tuple[tuple[int, int, int], str] | None:
            """The most rows that fit (the line count falls as the rows kept do): every section's (``k`` None) from
            ``caps``, or section ``k``'s from its cap in ``caps``, the others kept."""
            lo, hi, best = (min(caps) if k is None else caps[k]), vm["rows_most"] - 1, None
            while lo <= hi:
                mid = (lo + hi) // 2
                at = (mid, mid, mid) if k is None else tuple(mid if i == k else c for i, c in enumerate(caps))
                text = place(9, cap, at, grouped)  # type: ignore[arg-type]
                if text.count("\n") <= BRIEF_LINES:
                    lo, best = mid + 1, (at, text)
                else:
                    hi = mid - 1
            return best  # type: ignore[return-value]

        found = most((0, 0, 0), None)
        for k in (1, 0, 2) if found else ():  # then more of where each workload runs, what decided, the APIs
            found = most(found[0], k) or found  # type: ignore[index]
        return found[1] if found else place(10, cap, (0, 0, 0), grouped)

    if fold and out.count("\n") > BRIEF_LINES:
        out = shortest(False)
    # many blockers (leftovers56: 12 quarters over budget, 91 lines): each rule's said once with its count, the
    # tables given back the rows that frees; then, for blockers of many rules, the rules past what fits named with
    # their counts. A blocker's rule is always named.
    if fold and out.count("\n") > BRIEF_LINES and groups < floor:
        out = shortest(True)
    for cap in range(groups - 1, -1, -1) if fold and out.count("\n") > BRIEF_LINES else ():
        out = place(10, cap, (0, 0, 0), True)
        if out.count("\n") <= BRIEF_LINES:
            break
    return out


def _grouped_blockers(findings: list[dict[str, Any]], rest: list[str], local: Any) -> tuple[list[dict[str, Any]],
                                                                                              list[str]]:
    """The findings with each rule's blockers said once (leftovers56: a 36-month plan over its budget every quarter
    printed 12 PLAN-BUDGET-OVER blockers, 91 lines): the rule's first blocker in full and how many more of it the
    full report holds, then the other findings as they were; and what a brief that keeps the first ``i`` of them
    says of the rest: the blockers left by rule with their counts (as ``counted_rules`` names them), then the other
    findings by rule. No blocker goes unnamed."""
    blockers: dict[str, list[dict[str, Any]]] = {}
    for f in findings:
        if f["severity"] == "blocker":
            blockers.setdefault(f["rule"], []).append(f)
    n = sum(len(fs) for fs in blockers.values())
    grouped = [{**fs[0], "more": local.ngettext("%(n)s more %(rule)s blocker in the full report.",
                                                "%(n)s more %(rule)s blockers in the full report.", len(fs) - 1,
                                                rule=rule) if len(fs) > 1 else ""} for rule, fs in blockers.items()]
    groups = list(blockers.values())
    said = []
    for i in range(len(groups)):
        left = [f["rule"] for fs in groups[i:] for f in fs]
        said.append(" ".join(x for x in (local.ngettext(
            "%(n)s more blocker in the full report: %(rules)s.", "%(n)s more blockers in the full report: %(rules)s.",
            len(left), rules=local.sep.join(counted_rules(left))), rest[n]) if x))
    others = [f for f in findings if f["severity"] != "blocker"]
    return [*grouped, *others], [*said, *rest[n:]]


def _top(vm: dict[str, Any], rows: tuple[int, int, int], cols: int) -> dict[str, Any]:
    """The brief's lists at their shortest: what decided the plan, where each workload runs (the rows of its first
    workloads) and the hosted APIs keep their first ``rows`` rows, laid out for ``cols`` columns, and say how many they
    leave to the full report."""
    decided, runs, apis = rows
    where = vm["where_folded"] or vm["where_ids"]
    out: dict[str, Any] = {"binding_top": vm["binding_grouped"][:decided], "binding_rest": vm["binding_rest"][decided],
                           "where_rest": vm["where_rest"][runs], "api_rest": vm["api_rest"][apis]}
    if where:
        kept = {w for w, _ in vm["where_rank"][:runs]}
        out["where_top"] = table(where["headers"], [r["cells"] for r in where["rows"] if r["cells"][0] in kept],
                                 right=WHERE_RIGHT if len(where["headers"]) > 5 else (4,)) if kept else None
    api = vm["api_short"] or vm["api"]
    if api:
        out["api_top"] = table(api["headers"], [api["rows"][i]["cells"] for i in sorted(vm["api_rank"][:apis])],
                               right=(2, 3)) if apis else None
    return fit_tables(out, cols)


def view(r: Any, *, lang: str = "en", fmt: str = "text", detail: str = "brief") -> dict[str, Any]:
    if r is None:
        raise UserError(N_("no plan to render"))
    code = r.currency
    info = r.currency_info
    local = Fmt(lang, Currency(code, 1.0, info.as_of if info else "", info.source if info else ""))
    usd = Fmt(lang, Currency(code, r.usd_cny if code == "CNY" else 1.0))  # rule sentences carry USD
    _ = local._
    m = local.local
    names = dict(r.gpu_names)
    names.update({o.gpu: o.name for o in r.owned})

    def gpu(g: str) -> str:
        return names.get(g, g)

    def gpuh(v: float) -> str:  # GPU-hours as every other report writes them (the {x:gpuh} spec): whole from 10 up,
        return local.num(v, 0) if v >= 10 else local.num(v, 2)  # else to the hundredth ('0 GPU-hours of work')

    brief = []
    rented = any(p.acquisition == "rent" for x in r.months for p in x.placements)
    placed = any(x.placements for x in r.months)
    if r.answer.buy_nothing and not rented and not placed and r.unplaced:
        # nothing owned or had runs any of it (only unpriced GPUs, a GB10): 'the GPUs you own carry the plan' was false
        brief.append(_("Buy nothing and rent nothing: nothing the plan may use runs its work (see below)."))
    elif r.answer.buy_nothing and not rented:
        brief.append(_("Buy nothing and rent nothing: the GPUs you own carry the plan."))
    elif r.answer.buy_nothing and not r.owned:  # nothing owned: rentals alone (it read 'the GPUs you own and ...')
        brief.append(_("Buy nothing: rentals carry the plan."))
    elif r.answer.buy_nothing:
        brief.append(_("Buy nothing: the GPUs you own and rentals carry the plan."))
    bought = len(brief)
    figures, sums, whole = MV.cash_flow(r.months, r.total, _adds_up(r))  # cents59: adding up across and down
    w = cash = (lambda v: local.local(v, whole=True)) if whole else m  # cash: w, where loops below rebind w
    # the answer's purchases and rentals as the cash flow's Capex and Rent totals show them (review57: 'Rent B200
    # ... ($5,654)' above a Rent total of $5,655, the table's rounding giving the column the cent's other side)
    buys = r.answer.buy_now + r.answer.buy_later
    rents = [*r.answer.rent, *r.answer.commitments]
    shown_as = [*zip(buys, _as_in_table([p.amount for p in buys], r.months, "capex", sums[0], whole), strict=True),
                *zip(rents, _as_in_table([x.amount for x in rents], r.months, "rent", sums[1], whole), strict=True)]

    def paid(x: Any) -> float:  # a purchase, rental or commitment of the answer as the cash flow shows its part
        return next((v for y, v in shown_as if y == x), x.amount)

    def ram(ps: list[Any]) -> str:  # what the price leaves out of the host RAM an offload needs, as recommend says it
        text = next((said(p.buy_ram_said_phrases, local) for p in ps if p.buy_ram_said_phrases), "")
        return text if local.sep == ", " else text.lstrip()  # a full-width bracket takes no space before it

    orders: dict[tuple[str, int, str], list[Any]] = {}  # at the shortest: a type's orders of one unit in one sentence
    for p in r.answer.buy_now + r.answer.buy_later:
        orders.setdefault((p.gpu, p.unit_gpus, p.sold_as), []).append(p)
    buy_grouped = [_("Buy %(count)s x %(gpu)s in months %(months)s (%(units)s x %(unit)s-GPU %(sold)s in all) for "
                     "%(amount)s%(ram)s; they run work from months %(arrives)s.", count=sum(p.count for p in ps),
                     ram=ram(ps),
                     gpu=gpu(g), months=_ranges([p.month for p in ps], lang), units=sum(p.units for p in ps), unit=n,
                     sold=_(SOLD.get(sold, SOLD[""])), amount=cash(sum(paid(p) for p in ps)),
                     arrives=_ranges(sorted({p.arrives for p in ps}), lang)) if len({p.month for p in ps}) > 1
                   else None for (g, n, sold), ps in orders.items()]
    for p in r.answer.buy_now + r.answer.buy_later:
        kw = {"count": p.count, "gpu": gpu(p.gpu), "month": p.month, "units": p.units, "unit": p.unit_gpus,
              "sold": _(SOLD.get(p.sold_as, SOLD[""])), "amount": cash(paid(p)), "arrives": p.arrives, "ram": ram([p])}
        if _split(r, p):  # a month's order of one type at two sites: each sentence says where
            brief.append(_("Buy %(count)s x %(gpu)s in month %(month)s (%(units)s x %(unit)s-GPU %(sold)s) for "
                           "%(amount)s%(ram)s, hosted in %(site)s; they run work from month %(arrives)s.",
                           site=_(SITE.get(p.site, p.site)), **kw))
            continue
        brief.append(_("Buy %(count)s x %(gpu)s in month %(month)s (%(units)s x %(unit)s-GPU %(sold)s) for "
                       "%(amount)s%(ram)s; they run work from month %(arrives)s.", **kw))
    purchases_said = brief[bought:]
    if any(buy_grouped):  # each type's orders in one sentence where it orders in several months
        said_of = {id(p): k for k, p in enumerate(r.answer.buy_now + r.answer.buy_later)}
        keep = []
        for (_g, _n, _s), ps in orders.items():
            one = buy_grouped[len(keep)]
            keep.append([one] if one else [purchases_said[said_of[id(p)]] for p in ps])
        buy_grouped = [x for k in keep for x in k]
    else:
        buy_grouped = purchases_said
    for x in r.answer.rent:  # an offer sold whole named with its rentals and GPUs each, as recommend names it
        kw = {"gpu": said(x.rented_as_phrases, local) if x.rented_as_phrases else gpu(x.gpu),
              "hours": gpuh(x.gpu_hours), "amount": cash(paid(x))}
        if x.bills_more and x.billed_said_phrases:  # and why, as recommend's FEE-RENT-STEP-CHOSEN (product65)
            kw.update(billed=gpuh(x.billed_gpu_hours), why=said(x.billed_said_phrases, local))
            brief.append(_("Rent %(gpu)s for %(hours)s GPU-hours of work in month %(month)s, billed for %(billed)s "
                           "GPU-hours (%(amount)s): %(why)s.", month=x.months[0], **kw) if len(x.months) == 1 else
                         _("Rent %(gpu)s for %(hours)s GPU-hours of work in months %(months)s, billed for %(billed)s "
                           "GPU-hours (%(amount)s): %(why)s.", months=_ranges(x.months, lang), **kw))
        elif x.bills_more:  # the rentals bill more GPUs than the work uses: both figures (gpuhours64)
            kw["billed"] = gpuh(x.billed_gpu_hours)
            brief.append(_("Rent %(gpu)s for %(hours)s GPU-hours of work in month %(month)s, billed for %(billed)s "
                           "GPU-hours (%(amount)s).", month=x.months[0], **kw) if len(x.months) == 1 else
                         _("Rent %(gpu)s for %(hours)s GPU-hours of work in months %(months)s, billed for %(billed)s "
                           "GPU-hours (%(amount)s).", months=_ranges(x.months, lang), **kw))
        elif len(x.months) == 1:  # one month is 'month 6', not 'months 6'
            brief.append(_("Rent %(gpu)s for %(hours)s GPU-hours in month %(month)s (%(amount)s).",
                           month=x.months[0], **kw))
        else:
            brief.append(_("Rent %(gpu)s for %(hours)s GPU-hours in months %(months)s (%(amount)s).",
                           months=_ranges(x.months, lang), **kw))
    same: dict[tuple[Any, ...], list[Any]] = {}  # back-to-back commitments alike: one sentence
    for c in r.answer.commitments:
        same.setdefault((c.workload, c.gpu, c.count, c.term, c.provider, c.usd_per_hour), []).append(c)
    for (work, g, count, term, provider, rate), cs in same.items():
        kw = {"count": count, "gpu": gpu(g), "term": _(TERM.get(term, term)), "workload": work, "provider": provider,
              "rate": m(rate), "amount": cash(sum(paid(c) for c in cs))}
        if len(cs) == 1:
            brief.append(_("Rent %(count)s x %(gpu)s on a %(term)s commitment from month %(start)s for %(workload)s "
                           "(%(provider)s, %(rate)s an hour): %(amount)s for the term.", start=cs[0].start, **kw))
        else:
            brief.append(_("Rent %(count)s x %(gpu)s on %(term)s commitments starting in months %(months)s for "
                           "%(workload)s (%(provider)s, %(rate)s an hour): %(amount)s in all.",
                           months=_ranges([c.start for c in cs], lang), **kw))
    brief.append(local.ngettext("Cost over %(n)s month: %(total)s, %(monthly)s a month on average.",
                                "Cost over %(n)s months: %(total)s, %(monthly)s a month on average.", r.horizon_months,
                                total=m(r.total), monthly=m(r.answer.monthly_average)))
    if r.answer.why_not == "over_budget":  # the answer says it, as the exit status (1) and the blockers below do
        brief.append(_("It goes over the budget: no mix of owned, bought and rented GPUs does this work within it "
                       "(PLAN-BUDGET-OVER below)."))
    if r.answer.beats and r.answer.saving >= max(1.0, 1e-3 * abs(r.total)):
        brief.append(_("It beats %(baseline)s (%(other)s) by %(saving)s.", baseline=_(BASELINE[r.answer.beats]),
                       other=m(r.baselines[r.answer.beats]),
                       saving=m(r.answer.saving, whole=_both_whole(r.total, r.baselines[r.answer.beats]))))
    elif r.answer.beats:  # the cheapest baseline is this plan itself (nothing to buy, or renting is all there is)
        brief.append(_("It costs what %(baseline)s does (%(other)s): no way that keeps to the constraints costs less.",
                       baseline=_(BASELINE[r.answer.beats]), other=m(r.baselines[r.answer.beats])))
    if r.answer.tie is not None:  # the purchase saves less than the solver's tolerance: say so, not a saving
        kw = {"other": m(r.answer.tie.total), "gap": local.pct(r.answer.tie.gap, 1),
              "diff": m(abs(r.answer.tie.more), whole=_both_whole(r.total, r.answer.tie.total))}
        brief.append(_("Buying nothing costs %(other)s, %(diff)s more: within the solver's %(gap)s tolerance, so "
                       "buying and not buying are a tie.", **kw) if r.answer.tie.more >= 0 else
                     _("Buying nothing costs %(other)s, %(diff)s less: within the solver's %(gap)s tolerance, so "
                       "buying and not buying are a tie.", **kw))
    head = len(brief)
    reasons: dict[str, list[str]] = {}  # the workloads left unplaced for one reason, in one sentence at the shortest
    for u in r.unplaced:
        reason = said(_months_in(u.reason_phrases, u.months, lang), local) if u.reason_phrases else u.reason
        brief.append(_("Not placed: %(workload)s: %(reason)s", workload=u.workload, reason=reason))
        reasons.setdefault(reason, []).append(u.workload)
    unplaced_grouped = [_("Not placed: %(workload)s: %(reason)s", workload=local.sep.join(ws), reason=reason)
                        for reason, ws in reasons.items()]
    unplaced_names = [_("Not placed: %(workloads)s (the reasons are in the full report).",
                        workloads=local.sep.join(u.workload for u in r.unplaced))] if r.unplaced else []

    months = table([_("Month"), _("Capex"), _("Rent"), _("Hosting + power"), _("Fees"), _("Resale"), _("Total"),
                    _("Fleet use")],
                   [[str(x.month), *map(w, v[:4]), w(v[4]) if x.resale else DASH, w(v[5]),
                     local.pct(x.utilisation) if x.fleet else DASH] for x, v in zip(r.months, figures, strict=True)]
                   + [[_("Total"), *map(w, sums), ""]], right=range(1, 8))
    rounded = not (whole or _adds_up(r))
    # the brief text at its shortest: back-to-back months with the same figures in one row ("4-12")
    runs: list[list[str]] = []
    for row in [rw["cells"] for rw in months["rows"][:-1]]:
        if runs and runs[-1][1:] == row[1:]:
            runs[-1][0] = f"{runs[-1][0].split('-')[0]}-{row[0]}"
        else:
            runs.append(list(row))
    months_short = table(months["headers"], [*runs, months["rows"][-1]["cells"]],
                         right=range(1, 8)) if len(runs) < len(r.months) else None
    quarters = []  # past a year, at the shortest: each quarter's sums, its fleet's use over its hours
    for q in range(0, len(r.months), 3) if len(r.months) > 12 else ():
        xs = r.months[q:q + 3]
        hours = [sum(x.fleet.values()) for x in xs]  # the fleet's GPUs each month: its hours in proportion
        used = sum(x.utilisation * h for x, h in zip(xs, hours, strict=True))
        vs = [sum(v[j] for v in figures[q:q + 3]) for j in range(6)]
        quarters.append([f"{xs[0].month}-{xs[-1].month}" if len(xs) > 1 else str(xs[0].month), *map(w, vs[:4]),
                         w(vs[4]) if any(x.resale for x in xs) else DASH, w(vs[5]),
                         local.pct(used / sum(hours)) if sum(hours) else DASH])
    months_quarters = table(months["headers"], [*quarters, months["rows"][-1]["cells"]],
                            right=range(1, 8)) if quarters else None

    per_server = {o.gpu: o.server_gpus for o in r.owned}
    fleets = {o.gpu: o for o in r.owned}

    def how(p: Any) -> str:
        if p.acquisition == "rent" and p.term and p.term != "on-demand":
            return _("rented, %(term)s commitment", term=_(TERM.get(p.term, p.term)))
        one = p.count // p.copies if p.copies else p.count  # the GPUs of one copy (a service's count is all of them)
        if p.acquisition == "owned" and one > per_server.get(p.gpu, 0) > 0:  # a run or copy over owned servers
            f = fleets[p.gpu]  # the network its run crosses (none in a plan's JSON of an older gpuwise)
            return (_("owned, over %(n)s servers on %(network)s", n=f.spans(one), network=f.network) if f.network
                    else _("owned, over %(n)s servers", n=f.spans(one)))
        return _(ACQ[p.acquisition])

    full = detail == "full"
    # a service's option: the GPUs of one copy, and of a rented one where it is sized apart (options[].rent_count)
    copy_size = {(o.workload, o.gpu, rent): (o.rent_count or o.count) if rent else o.count
                 for o in r.options for rent in (False, True)}
    place_rows = []
    groups: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    for x in r.months:
        for p in x.placements:
            what = (local.ngettext("%(n)s copy", "%(n)s copies", p.copies) if p.copies else
                    local.ngettext("%(runs)s run", "%(runs)s runs", max(1, round(p.runs)), runs=local.num(p.runs, 2)))
            place_rows.append([str(x.month), p.workload, f"{p.count} x {gpu(p.gpu)}", how(p), what,
                               gpuh(p.gpu_hours)])
            size = copy_size.get((p.workload, p.gpu, p.acquisition == "rent"), 0) if p.copies else 0
            g = groups.setdefault((p.workload, p.gpu, p.count, how(p)), {"months": [], "hours": 0.0, "size": size})
            g["months"].append(x.month)
            g["hours"] += p.gpu_hours
    placements = table([_("Month"), _("Workload"), _("GPUs"), _("How"), _("Work"), _("GPU-hours")], place_rows,
                       right=(0, 5)) if full else None
    sized = any(v["size"] for v in groups.values())  # a service placed: its GPUs a copy (the full page's copy_sizes)

    def copy(size: int) -> list[str]:
        return [str(size) if size else DASH] if sized else []

    def where_table(name: Any) -> dict[str, Any]:
        return table([_("Workload"), _("GPUs"), *([_("A copy")] if sized else []), _("How"), _("Months"),
                      _("GPU-hours")],
                     [[w, f"{n} x {name(g)}", *copy(v["size"]), h, _ranges(v["months"], lang), gpuh(v["hours"])]
                      for (w, g, n, h), v in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[1]["months"][0]))],
                     right=WHERE_RIGHT if sized else (4,))

    # a run's optimizer step of whole micro-batches past the batch asked: recommend's words (product65)
    batch_notes = list(dict.fromkeys(
        _("%(workload)s on %(count)s × %(gpu)s, global batch: %(said)s", workload=w, count=n, gpu=gpu(g), said=step)
        for (w, g, n, _h) in groups for o in r.options
        if o.workload == w and o.gpu == g and o.count == n and getattr(o, "step_batch", None)
        and (step := batch_words(local, _, o.step_batch, o.batch_asked if o.batch_stated else None,
                                 None if o.batch_stated else o.batch_asked))))
    # nothing placed (only unpriced GPUs): no table of headings alone (hostile round 26)
    where = where_table(gpu) if groups else None
    where_ids = where_table(str) if groups else None  # shorter: the catalog ids, one line a row
    folded: dict[tuple[str, str, str], dict[str, Any]] = {}  # at its shortest: one row a workload, type and way
    for (w, g, n, h), v in groups.items():
        f = folded.setdefault((w, g, h), {"counts": set(), "months": set(), "hours": 0.0, "size": v["size"]})
        f["counts"].add(n)
        f["months"].update(v["months"])
        f["hours"] += v["hours"]
    order = sorted(folded.items(), key=lambda kv: (kv[0][0], min(kv[1]["months"])))
    where_folded = table(where["headers"], [[w, f"{_span(f['counts'])} x {g}", *copy(f["size"]), h,
                                             _ranges(sorted(f["months"]), lang),
                                             gpuh(f["hours"])] for (w, g, h), f in order],
                         right=WHERE_RIGHT if sized else (4,)) if where and len(folded) < len(groups) else None
    commitments = table([_("Service"), _("GPUs"), _("Term"), _("From month"), _("Provider"), _("Per hour"),
                         _("Whole term"), _("Price as of")],
                        [[c.workload, f"{c.count} x {gpu(c.gpu)}", _(TERM.get(c.term, c.term)), str(c.start),
                          c.provider, m(c.usd_per_hour), cash(paid(c)), c.as_of] for c in r.answer.commitments],
                        right=(3, 5, 6)) if r.answer.commitments else None
    purchases = table([_("Month"), _("GPUs"), _("Units"), _("Arrives"), _("Amount"), _("Price as of")],
                      [[str(p.month), f"{p.count} x {gpu(p.gpu)}" + (f" ({_(SITE.get(p.site, p.site))})"
                                                                     if _split(r, p) else ""),
                        f"{p.units} x {p.unit_gpus}", str(p.arrives),
                        cash(paid(p)), _as_of(p, _)] for p in r.purchases], right=(0, 3, 4)) if r.purchases else None
    baselines = table([_("Way"), _("Total"), _("Keeps to the constraints"), _("Note")],
                      [[_(BASELINE["plan"]), m(r.total), _("no") if r.answer.why_not else _("yes"),
                        _(WHY_NOT[r.answer.why_not]) if r.answer.why_not else ""]]
                      + [[_(BASELINE[b.name]), m(b.total) if b.total is not None else DASH,
                          _("yes") if b.allowed else _("no"), _(WHY_NOT[b.why_not]) if b.why_not else ""]
                         for b in r.baseline_details], right=(1,))
    api = table([_("Service"), _("Provider"), _("Model as offered"), _("Per million in / out"), _("API a month"),
                 _("Self-hosting a month"), _("Break-even requests/s"), _("Cheaper"), _("Price as of")],
                [[a.workload, a.provider, a.offered_as,
                  f"{_price(a.input_per_million, a.price_currency, local, r.usd_cny)} / "
                  f"{_price(a.output_per_million, a.price_currency, local, r.usd_cny)}",
                  m(a.api_per_month), m(a.self_host_per_month),
                  local.num(a.break_even_requests_per_s, 2) if a.break_even_requests_per_s is not None else DASH,
                  _("API") if a.cheaper == "api" else _("self-hosting"), a.as_of] for a in r.api],
                right=(4, 5, 6)) if r.api else None
    api_short = None
    if api and not full:  # the brief: what each costs a month and which is cheaper; the prices in the full report
        keep = (0, 1, 4, 5, 7)
        api = table([api["headers"][i] for i in keep], [[row["cells"][i] for i in keep] for row in api["rows"]],
                    right=(2, 3))
        cheapest: dict[str, int] = {}  # at its shortest: each service's cheapest API, the one self-hosting must beat
        for i, a in enumerate(r.api):
            if a.workload not in cheapest or a.api_per_month < r.api[cheapest[a.workload]].api_per_month:
                cheapest[a.workload] = i
        if len(cheapest) < len(r.api):
            api_short = table(api["headers"], [api["rows"][i]["cells"] for i in sorted(cheapest.values())],
                              right=(2, 3))
    binding = [{"name": b.constraint, "binding": b.binding,
                "text": _("%(kind)s: %(note)s", kind=_(KIND[b.kind]), note=_binding(b, local, gpu)),
                "short": _("%(kind)s: %(note)s", kind=_(KIND[b.kind]), note=_binding(b, local, str))}
               for b in r.binding if b.binding]
    ruled: dict[tuple[Any, ...], list[Any]] = {}  # a rule-out of the same GPU types for several workloads: once
    for b in r.binding:
        if b.binding:
            key = (b.kind, tuple(b.gpus)) if b.kind in ("deadline", "latency", "memory") else (id(b),)
            ruled.setdefault(key, []).append(b)
    binding_grouped = [{"short": _("%(kind)s: %(note)s", kind=_(KIND[bs[0].kind]), note=_binding(
        bs[0].model_copy(update={"subject": local.sep.join(b.subject for b in bs)}), local, str))}
        for bs in ruled.values()]
    # decisions first: budgets and full fleets before what ruled GPU types out
    binding_grouped = [b for b, bs in zip(binding_grouped, ruled.values(), strict=True)
                       if bs[0].kind in ("budget", "capacity")] + [
        b for b, bs in zip(binding_grouped, ruled.values(), strict=True) if bs[0].kind not in ("budget", "capacity")]
    load: dict[str, float] = {}
    for (w, _g, _n, _h), v in groups.items():
        load[w] = load.get(w, 0.0) + v["hours"]
    where_rank = sorted(load.items(), key=lambda kv: -kv[1])  # the workloads with the most GPU-hours first
    shown_api = [i for i, _a in enumerate(r.api)]
    if api_short is not None:
        shown_api = sorted(cheapest.values())
    api_rank = sorted(range(len(shown_api)), key=lambda k: (r.api[shown_api[k]].cheaper != "api",
                                                             -r.api[shown_api[k]].api_per_month))
    rows_most = max(len(binding_grouped), len(where_rank), len(api_rank), 1)
    nb, nw, na = len(binding_grouped), len(where_rank), len(api_rank)  # past the rows shown: how many, in words
    binding_rest = ["" if k >= nb else local.ngettext("%(n)s more in the full report.",
                                                      "%(n)s more in the full report.", nb - k) if k else
                    local.ngettext("%(n)s constraint decided the plan: see the full report.",
                                   "%(n)s constraints decided the plan: see the full report.", nb)
                    for k in range(rows_most + 1)]
    where_rest = ["" if k >= nw else local.ngettext(
        "%(n)s more workload in the full report (%(hours)s GPU-hours).",
        "%(n)s more workloads in the full report (%(hours)s GPU-hours).", nw - k,
        hours=local.num(sum(h for _w, h in where_rank[k:]), 0)) if k else local.ngettext(
        "Where the %(n)s workload runs is in the full report (%(hours)s GPU-hours).",
        "Where the %(n)s workloads run is in the full report (%(hours)s GPU-hours).", nw,
        hours=local.num(sum(h for _w, h in where_rank), 0)) for k in range(rows_most + 1)]
    api_rest = ["" if k >= na else local.ngettext("%(n)s more service in the full report.",
                                                  "%(n)s more services in the full report.", na - k) if k else
                local.ngettext("The hosted API for %(n)s service is in the full report.",
                               "The hosted APIs for %(n)s services are in the full report.", na)
                for k in range(rows_most + 1)]
    findings = [{"severity": f.severity, "label": _(SEVERITY[f.severity]), "rule": f.rule,
                 "message": usd.sentence(f.template, f.values, f.message),
                 "fix": usd.sentence(f.fix_template, f.values, f.fix) if f.fix else "", "more": ""}
                for f in r.findings]
    # the brief at its shortest says the findings past what fits by their rules (render's ``cap``)
    # (none said: not 'more', review53: the team plan's brief read '3 more in the full report' under Findings)
    findings_rest = [local.ngettext("%(n)s more in the full report: %(rules)s.",
                                    "%(n)s more in the full report: %(rules)s.", len(findings) - i,
                                    rules=local.sep.join(counted_rules(f["rule"] for f in findings[i:]))) if i else
                     _("In the full report: %(rules)s.",
                       rules=local.sep.join(counted_rules(f["rule"] for f in findings)))
                     for i in range(len(findings))] + [""]
    findings_grouped, grouped_rest = _grouped_blockers(findings, findings_rest, local)
    def numbers(x: Any) -> str:  # the formula with its inputs' numbers put in: what an approver adds up
        if not x.formula_phrases:
            return DASH
        # its inputs are the plan's own figures, in USD: money in the report's currency at the plan's rate,
        # a small rate to four figures (CN¥1.015/kWh, not CN¥1.01: the line's amount would not come out)
        return formula_parts(x.formula_phrases, local, lambda n: operand_number(n, x.inputs, exact))

    def exact(v: float) -> str:
        here = usd.to_local(v) or 0.0
        sym = "$" if code == "USD" else ("¥" if lang == "zh" else "CN¥")
        return usd.money_exact(v) if abs(here) >= 10 else f"{'-' if here < 0 else ''}{sym}{abs(here):.4g}"

    lines = table([_("Month"), _("Kind"), _("Item"), _("Amount"), _("Formula"), _("With numbers")],
                  [[str(x.month), _(LINE_KIND.get(x.kind, x.kind)),
                    said(x.item_phrases, local) if x.item_phrases else x.item, m(x.amount),
                    formula_parts(x.formula_phrases, local) if x.formula_phrases else plain(x.formula, local),
                    numbers(x)]
                   for x in r.lines],
                  right=(0, 3)) if full else None
    measure = {w.name: w.measure for w in r.workloads}  # a copy's capacity: output tokens/s, or sequences at once

    def capacity(o: Any, workload: str = "") -> str:
        n = local.num(o.capacity, 1)
        return (_("%(n)s sequences", n=n) if measure.get(workload or o.workload) == "sequences"
                else _("%(n)s tokens/s", n=n))

    def provider(o: Any) -> str:  # a run rented by the instance on more GPUs than its own count: those, and its hours
        if o.rent_provider and o.rent_count and o.rent_count != o.count and o.rent_wall_hours:
            return _("%(provider)s: the run on the %(n)s GPUs paid for, %(hours)s h", provider=o.rent_provider,
                     n=o.rent_count, hours=local.num(o.rent_wall_hours, 1))
        if o.rent_provider and o.rent_capacity:  # a service's rented copy sized apart: the instances' own copy
            rented = _("%(provider)s: a rented copy on %(n)s GPUs, %(capacity)s", provider=o.rent_provider,
                       n=o.rent_count or o.count, capacity=capacity(o.model_copy(update={"capacity": o.rent_capacity})))
            return rented if len(o.rent_copy_sizes) < 2 else _(
                "%(rented)s, the size whose rented copies cost least (at the peak month: %(tried)s)", rented=rented,
                tried=tried(o, o.rent_copy_sizes))
        if o.rent_provider and o.pack_copies:  # copies that share one rental rented whole, where that is cheaper
            return _("%(provider)s; or %(pack)s: %(gpus)s GPUs rented whole, room for %(copies)s copies, %(rate)s an "
                     "hour", provider=o.rent_provider, pack=o.pack_provider, gpus=o.pack_gpus, copies=o.pack_copies,
                     rate=m(o.pack_per_hour))
        return o.rent_provider or DASH

    def count(o: Any) -> str:  # a run that may also use every GPU of a server bought, or more of the owned GPUs
        if o.buy_count and o.buy_count != o.count:
            return _("%(n)s; on a server bought, its %(gpus)s GPUs: %(hours)s h", n=o.count, gpus=o.buy_count,
                     hours=local.num(o.buy_wall_hours, 1))
        if o.own_count and o.fewest_refused:  # the fewest kept off the owned GPUs, the wider run on them
            return _("%(n)s, not on the GPUs owned (%(rule)s); on %(gpus)s of them: %(hours)s h", n=o.count,
                     rule=o.fewest_refused, gpus=o.own_count, hours=local.num(o.own_wall_hours, 1))
        if o.own_count and o.own_count != o.count:
            return _("%(n)s; on %(gpus)s of the GPUs owned: %(hours)s h", n=o.count, gpus=o.own_count,
                     hours=local.num(o.own_wall_hours, 1))
        if o.copy_sizes and (o.count != o.copy_sizes[0].count or o.rent_capacity):  # cheaper for the load
            if o.rent_capacity:  # the rented copy sized apart (its sizes in the Provider column): this one is not
                return _("%(n)s on GPUs owned or bought, the size whose copies carry the load for least (at the peak "
                         "month: %(tried)s)", n=o.count, tried=tried(o, o.copy_sizes))
            return _("%(n)s, the size whose copies carry the load for least (at the peak month: %(tried)s)", n=o.count,
                     tried=tried(o, o.copy_sizes))
        return str(o.count)

    def tried(o: Any, sizes: list[Any]) -> str:  # each size tried: its copies at the peak month, their rent
        return local.clause.join(
            _("%(n)s a copy, %(capacity)s: %(copies)s on %(gpus)s GPUs, %(rate)s an hour", n=c.count,
              capacity=capacity(c, o.workload), copies=c.copies, gpus=c.gpus, rate=m(c.rent_per_hour))
            if c.rent_per_hour is not None else
            _("%(n)s a copy, %(capacity)s: %(copies)s on %(gpus)s GPUs", n=c.count,
              capacity=capacity(c, o.workload), copies=c.copies, gpus=c.gpus) for c in sizes)

    options = table([_("Workload"), _("GPU"), _("GPUs per run or copy"), _("Wall hours of a run"),
                     _("Capacity of a copy"), _("Rent per hour, its GPUs"), _("Provider")],
                    [[o.workload, gpu(o.gpu), count(o), local.num(o.wall_hours, 1) if o.wall_hours else DASH,
                      capacity(o) if o.capacity else DASH,
                      m(o.rent_per_hour) if o.rent_per_hour is not None else DASH, provider(o)]
                     for o in r.options], right=(2, 3, 4, 5)) if full and r.options else None
    trace = table([_("Rule"), _("Step"), _("Conclusion"), _("Source")],
                  [[e.rule, e.step, usd.sentence(e.template, e.values, e.conclusion), local.cite(e.source)]
                   for e in r.trace]) if full and r.trace else None
    def named(a: Any) -> str:  # a workload's default with its value, as the other reports give it
        return (f"{a.field} = {input_text(a.value)}" if a.value is not None
                and a.field.rpartition(": ")[2].startswith("workload.") else a.field)

    took = [a for a in r.assumptions if a.field.rpartition(": ")[2].startswith("workload.")]  # each workload's
    took_count = local.ngettext("%(n)s default the workloads took", "%(n)s defaults the workloads took", len(took))
    assumptions = [_("%(field)s: %(reason)s", field=named(a), reason=_reason(local.sentence(a.template, a.values,
                                                                                              a.reason)))
                   for a in r.assumptions]
    # the solver's counts grouped as every other count (review55: '1031 variables')
    # the model's size by count, singular where one ('1 constraints' of a plan with one rented run, review62)
    solved = {"name": r.solver.name, "status": r.solver.status, "size": local.sep.join([
        local.ngettext("%(x)s variable", "%(x)s variables", r.solver.variables, x=local.num(r.solver.variables, 0)),
        local.ngettext("%(x)s constraint", "%(x)s constraints", r.solver.rows, x=local.num(r.solver.rows, 0))])}
    vm = {
        "title": local.ngettext("GPU plan for %(n)s month", "GPU plan for %(n)s months", r.horizon_months),
        "html_lang": HTML_LANG[local.lang],
        "detail": detail, "full": full, "where": where, "where_ids": where_ids, "where_folded": where_folded,
        "batch_notes": batch_notes,
        "commitments": commitments, "api_short": api_short, "findings_rest": findings_rest,
        "findings_grouped": findings_grouped, "grouped_rest": grouped_rest,
        "options": options, "trace": trace,
        "brief": brief, "brief_head": brief[:head],
        "brief_orders": [*brief[:bought], *buy_grouped, *brief[bought + len(purchases_said):head]],
        "unplaced_grouped": unplaced_grouped,
        "unplaced_names": unplaced_names, "binding_grouped": binding_grouped, "binding_rest": binding_rest,
        "where_rank": where_rank, "where_rest": where_rest, "api_rank": api_rank, "api_rest": api_rest,
        "rows_most": rows_most, "months": months, "months_quarters": months_quarters, "months_short": months_short,
        "placements": placements,
        "purchases": purchases,
        "baselines": baselines, "api": api, "binding": binding,
        "api_unpriced": [_("No hosted API in the catalog (knowledge/apis.yaml) is known to serve %(model)s: "
                           "%(workload)s is not compared with one.", model=a.model, workload=a.workload)
                         for a in r.api_unpriced], "findings": findings, "lines": lines,
        "assumptions": assumptions, "house": house_lines(r.house_rules, _),
        # the prices the plan rests on, their dates and ages, the stale ones marked, the currency and its dated rate:
        # recommend's and audit's Data freshness block (review63's Left), the same partial
        **freshness(r, lang, fmt, detail),
        # whole units rounded so that rows and columns add up (cents59's controlled rounding) may show months of the
        # same cost a unit apart, $408 and $407 (review56): said where it is done
        "rounding_note": _("Each amount is rounded on its own, so a total can differ slightly from the sum of the "
                           "amounts shown.") if rounded else _(
            "Rounded so that rows and totals add up: equal months may differ by one unit.") if whole else "",
        "assumed": _("Assumed (the reasons are in the full report): %(list)s.",
                     list=local.clause.join([*(a.field for a in r.assumptions if a not in took),
                                             *([took_count] if took else [])])) if r.assumptions else "",
        # a brief that has to say less names the workloads' defaults beside the solver, not in a section of its own
        "only_took": bool(took) and len(took) == len(r.assumptions),
        # the brief's solver line, the defaults' note after it where it stands alone: one sentence after another as
        # the language joins them (review54: zh read '171 个约束。 完整报告列出了', the template's own space)
        "solver_short": local.join([
            _("Solved with %(name)s (%(status)s): %(size)s.", **solved),
            local.ngettext("The full report lists the %(n)s default the workloads took.",
                           "The full report lists the %(n)s defaults the workloads took.", len(took))
            if took and len(took) == len(r.assumptions) else ""]),
        # no GPU type left to the program (only unpriced ones, a GB10): the short line, not 'GPU types .'
        "solver": _("Solved with %(name)s (%(status)s): %(size)s, GPU types %(types)s.",
                    **solved, types=local.sep.join(r.solver.gpu_types)) if r.solver.gpu_types else
        _("Solved with %(name)s (%(status)s): %(size)s.", **solved),
        "charts": charts(r, local, figures, whole) if fmt == "html" else {},
    }
    return vm


BASELINE = {"plan": N_("this plan"), "rent_all": N_("renting everything"), "buy_for_peak": N_("buying for the peak")}
ACQ = {"owned": N_("owned"), "buy": N_("bought"), "rent": N_("rented")}
KIND = {"budget": N_("budget"), "capacity": N_("capacity"), "deadline": N_("deadline"), "latency": N_("latency"),
        "memory": N_("memory"), "delivery": N_("delivery")}
SEVERITY = {"blocker": N_("blocker"), "warning": N_("warning"), "info": N_("info")}
TERM = {"on-demand": N_("on demand"), "1-month": N_("1-month"), "1-year": N_("1-year"), "3-year": N_("3-year")}
LINE_KIND = {"capex": N_("capex"), "hosting": N_("hosting"), "resale": N_("resale"), "power": N_("power"),
             "rent": N_("rent"), "fee": N_("fee")}
SITE = {"office": N_("an office"), "colocation": N_("colocation"), "datacenter": N_("a data center")}


def _as_of(p: Any, _: Any) -> str:
    """A purchase's price date, with its host share's where that is another (review65: an H200 server's $146,000
    said 'Price as of 2026-03-31', the cards' date, and $28,000 of it was the tco.yaml host share of 2024-08-01)."""
    if not p.host_as_of or p.host_as_of == p.price_as_of:
        return p.price_as_of
    return _("%(date)s, host %(host)s", date=p.price_as_of or "-", host=p.host_as_of)


def _split(r: Any, p: Any) -> bool:
    """Whether the plan buys ``p``'s type in ``p``'s month at more than one site (each purchase then says where)."""
    return len({q.site for q in r.purchases if q.gpu == p.gpu and q.month == p.month}) > 1


SOLD = {"server": N_("server"), "card": N_("card"), "workstation": N_("workstation"), "": N_("unit")}


WHY_NOT = {"unplaced": N_("leaves work unplaced"), "over_budget": N_("over a budget"),
           "acquisition": N_("not allowed by constraints.acquisition"),
           "no_type": N_("no GPU type can be bought for every workload")}


def _binding(b: Any, f: Fmt, gpu: Any) -> str:
    """What a binding constraint means, in the report's words."""
    _ = f._
    gpus = f.sep.join(gpu(g) for g in b.gpus[:4]) + (" ..." if len(b.gpus) > 4 else "")
    period = _("the whole plan") if b.subject == "total" else b.subject
    if b.kind == "budget":
        if b.over:
            return _("%(period)s is over budget by %(amount)s", period=period, amount=f.local(b.over))
        return _("%(period)s: more budget would lower the cost", period=period)
    narrow = getattr(b, "narrow_months", None)
    if b.kind == "capacity" and narrow:  # a run needs more GPUs at once than are free (plansolve62)
        def when_(ms: list[int]) -> str:
            return (_("months %(months)s", months=_ranges(ms, f.lang)) if len(ms) > 1 else
                    _("month %(months)s", months=_ranges(ms, f.lang)))
        said = _("in %(when)s a run needs more of the %(gpu)s GPUs at once than the copies serving on them "
                 "leave free: more of them would lower the cost", gpu=gpu(b.subject), when=when_(narrow))
        rest = b.model_copy(update={"narrow_months": []})
        return f.clause.join([said, _binding(rest, f, gpu)]) if b.held_months or b.hours_months else said
    if b.kind == "capacity" and (b.held_months or b.hours_months):  # which is full: GPUs held at once, or hours
        def when(ms: list[int]) -> str:
            return (_("months %(months)s", months=_ranges(ms, f.lang)) if len(ms) > 1 else
                    _("month %(months)s", months=_ranges(ms, f.lang)))
        if b.held_months and b.hours_months:
            return _("all the %(gpu)s GPUs are held at once in %(held)s and every schedulable hour of them is used "
                     "in %(hours)s: more of them would lower the cost", gpu=gpu(b.subject), held=when(b.held_months),
                     hours=when(b.hours_months))
        if b.held_months:
            return _("all the %(gpu)s GPUs are held at once in %(when)s (Fleet use counts the hours they run): more "
                     "of them would lower the cost", gpu=gpu(b.subject), when=when(b.held_months))
        return _("every schedulable hour of the %(gpu)s fleet is used in %(when)s: more of them would lower the cost",
                 gpu=gpu(b.subject), when=when(b.hours_months))
    if b.kind == "capacity" and len(b.months) == 1:  # a result of an older gpuwise, which did not say which
        return _("the %(gpu)s fleet is full in month %(month)s: more of them would lower the cost",
                 gpu=gpu(b.subject), month=b.months[0])
    if b.kind == "capacity":
        return _("the %(gpu)s fleet is full in months %(months)s: more of them would lower the cost",
                 gpu=gpu(b.subject), months=_ranges(b.months, f.lang))
    if b.kind == "deadline":
        return _("the deadline rules out %(gpus)s for %(workload)s", gpus=gpus, workload=b.subject)
    if b.kind == "latency":
        return _("the latency targets rule out %(gpus)s for %(workload)s", gpus=gpus, workload=b.subject)
    return _("%(gpus)s cannot hold %(workload)s", gpus=gpus, workload=b.subject)


def _price(v: float, currency: str, f: Fmt, usd_cny: float) -> str:
    """A hosted API's price per million tokens in the report's currency (it is sold in ``currency``)."""
    code = f.cur.code
    if currency != code:
        v = v * usd_cny if code == "CNY" else v / usd_cny
    sym = "$" if code == "USD" else ("¥" if f.lang == "zh" else "CN¥")
    # three significant figures and never fewer than a price's two decimals (review55: Fireworks' '$0.9 / $0.9'
    # beside Groq's '$0.59 / $0.79')
    sig = f"{v:.3g}"
    decimals = max(2, len(sig.split(".")[1]) if "." in sig and "e" not in sig else 0)
    return f"{sym}{v:,.{decimals}f}"


def _as_in_table(amounts: list[float], months: list[Any], part: str, shown: float, whole: bool) -> list[float]:
    """The answer's amounts of one cash-flow part (its purchases' capex, its rentals' and commitments' rent) as
    the table shows that part's total: where the table is rounded to whole units (``whole``) and the amounts are
    all the part holds, they are apportioned by largest remainder to the total it shows (``shown``), each its
    own amount rounded down or up; likewise where the table's figures each rounded on its own already add up and
    the amounts and the part's total are all shown whole (review65: 'Rent RTX 4090 ... ($10,569)' and 'Rent H100 NVL
    ... ($3,781)', 10,569.47 and 3,781.40, above a Rent total of $14,351); else as they are (a commitment paid past
    the horizon, figures in cents)."""
    column = math.fsum(getattr(x, part) for x in months)
    if not amounts or abs(math.fsum(amounts) - column) > 0.005:
        return amounts
    if whole:
        return [float(v) for v in MV.apportioned(amounts, round(shown))]
    if min(abs(a) for a in amounts) >= MONEY_WHOLE_FROM:
        return [float(v) for v in MV.apportioned(amounts, round(column))]
    return amounts


def _both_whole(a: float, b: float) -> bool:
    """Both amounts are shown in whole units (from MONEY_WHOLE_FROM), so their difference is said whole."""
    return min(abs(a), abs(b)) >= MONEY_WHOLE_FROM


def _adds_up(r: Any) -> bool:
    """Whether the cash-flow table's totals, as shown (whole units from MONEY_WHOLE_FROM, cents below), are the sums
    of the amounts shown beside and above them: each month's total of its parts, each column's total of its months,
    the plan's total of the column totals (review48: 1,104 + 76,114 shown beside a total of 77,217)."""
    def shown(v: float) -> float:
        return round(v) if abs(v) >= MONEY_WHOLE_FROM else round(v, 2)

    parts = ("capex", "rent", "opex", "fees", "resale")
    columns = [[getattr(x, k) for x in r.months] for k in parts] + [[x.total for x in r.months]]
    sums = [sum(c) for c in columns[:-1]] + [r.total]
    ok = all(abs(sum(shown(v) for v in c) - shown(t)) < 0.005 for c, t in zip(columns, sums, strict=True))
    ok = ok and all(abs(sum(shown(getattr(x, k)) for k in parts) - shown(x.total)) < 0.005 for x in r.months)
    return ok and abs(sum(shown(t) for t in sums[:-1]) - shown(r.total)) < 0.005


def _months_in(parts: list[Any], months: list[int], lang: str) -> list[Any]:
    """A reason's parts with the months it names listed as this report lists them (plan.unplaced.*: the plan
    wrote them its own way, with an English comma)."""
    if not months:
        return parts
    return [[sep, mid, {**kw, "months": _ranges(months, lang)} if "months" in kw and mid.startswith("plan.unplaced.")
             else kw] for sep, mid, kw in parts]


WHERE_RIGHT = (2, 5)
"""'Where each workload runs' with a service placed: its right-aligned columns (its GPUs a copy, the GPU-hours)."""


def _span(counts: set[int]) -> str:
    """A folded row's GPU counts: '4-8' from its fewest to its most, '2' where one count."""
    lo, hi = min(counts), max(counts)
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _ranges(months: list[int], lang: str = "en") -> str:
    """Months as runs, '1-2, 4-9, 12'; in Chinese the runs are listed with the enumeration comma, 1-2、4-9、12."""
    return ("、" if lang == "zh" else ", ").join(month_runs(months))
