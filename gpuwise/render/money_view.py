"""How a configuration's ledger and timeline read in a report: the answer's cost and time rows, the
ledger line by line, the timeline by part, and the user's own constraints beside what the answer
uses of them. Every figure is quoted from the records; nothing here adds up money or hours again
(a total is the ledger's ``total``, a time the timeline's ``wall_hours``)."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .. import messages
from ..ledger import Ledger, Timeline
from ..results import MONEY_WHOLE_FROM
from ..results_serving import ServingOut
from . import words
from .fmt import Fmt, table

if TYPE_CHECKING:
    from ..inputs.requirements import Requirements


def kind_label(_: Callable[..., str], kind: str) -> str:
    labels = {"rent": _("rent"), "capex": _("hardware"), "server": _("host server"), "network": _("network"),
              "hosting": _("hosting"), "power": _("power"), "licence": _("licences"), "fee": _("cloud fees"),
              "setup": _("start-up"), "resale": _("resale")}
    return labels.get(kind, kind)


def item_label(_: Callable[..., str], item: str) -> str:
    """A ledger item in the report's language: the fixed names are catalog messages; an item that
    names a provider or a unit count is kept as written."""
    labels = {"egress": _("internet egress"), "cross-region": _("cross-region transfer"), "storage": _("storage"),
              "start-up and wind-down": _("start-up and wind-down"), "host server share": _("host server share"),
              "scale-out network": _("scale-out network"), "electricity": _("electricity"),
              "software licences": _("software licences"), "resale at the end": _("resale at the end"),
              "colocation": _("colocation"), "office": _("office"), "datacenter": _("datacenter")}
    return labels.get(item, item)


def part_label(_: Callable[..., str], name: str) -> str:
    """A part of the wall-clock time (gpuwise/estimators/candidate.py: a part.* message of
    reports/messages.yaml) in the report's language; another name is shown as written."""
    known = {t for mid, t in messages.catalog().items() if mid.startswith("part.")}
    return _(name) if name in known else name


def cost_row(f: Fmt, _: Callable[..., str], led: Ledger) -> str:
    """The answer's total: a purchase shows its cash out and what the resale brings back."""
    resale = led.amount("resale")
    if resale < 0:  # to the cent where the three rounded one by one would not subtract (review49)
        whole = abs(_as_shown(f, led.cash_out) - _as_shown(f, -resale) - _as_shown(f, led.net)) < 0.005
        if whole:
            net, cash, back = f.money(led.net), f.money(led.cash_out), f.money(-resale)
        else:  # what comes back is what is paid less the net, as shown (the ledger table's resale the same way)
            cash_c, net_c = _cents(f, led.cash_out), _cents(f, led.net)
            net, cash, back = _cents_text(f, net_c), _cents_text(f, cash_c), _cents_text(f, cash_c - net_c)
        return _("%(net)s net: %(cash)s paid, %(back)s back from resale after %(months)s",
                 net=net, cash=cash, back=back, months=f.months(led.period.months))
    if led.period.kind == "commitment":
        return _("%(total)s for the committed %(months)s", total=f.money(led.total),
                 months=f.months(led.period.months))
    if led.period.kind == "project":
        return _("%(total)s over %(months)s", total=f.money(led.total), months=f.months(led.period.months))
    return f.money(led.total)


def gap(f: Fmt, more_usd: float, less_usd: float) -> str:
    """``more_usd - less_usd`` as the page shows the two totals: each rounded as shown first, so the difference a
    reader works out from them is the one said, whole where both are shown whole (review58: 'The alternative saves
    $115,926' beside totals shown as $116,975 and $1,048; 'costs $43.40 more' beside $252 and $296)."""
    a, b = _as_shown(f, more_usd), _as_shown(f, less_usd)
    whole = min(abs(f.to_local(more_usd) or 0.0), abs(f.to_local(less_usd) or 0.0)) >= MONEY_WHOLE_FROM
    return f.local(a - b, whole=whole)


def total_said(f: Fmt, _: Callable[..., str], c: Any) -> str:
    """A configuration's total cost where it stands in a line or a cell beside others: a purchase whose ledger
    takes its resale back is labelled net of it (review53: an audit's verdict read 'The proposal: 16 x H100, buy:
    ..., $716,794' beside a rental's whole bill, the $934,256 it pays before the resale said only in the table)."""
    led = getattr(c, "ledger", None)
    if c.acquisition == "buy" and c.total_cost_usd is not None and led is not None and led.amount("resale") < 0:
        return _("%(money)s net of resale", money=f.money(c.total_cost_usd))
    return f.money(c.total_cost_usd)


def _gpu_hours(f: Fmt, hours: float, whole: bool = False) -> str:
    return f.num(hours, 0 if whole or hours >= 100 else 1)


def time_row(f: Fmt, _: Callable[..., str], tl: Timeline, bought: bool = False) -> str:
    """Wall-clock time and the GPU-hours billed, both the timeline's; of GPUs bought, the GPU-hours they are used
    (nothing bills them: their power is priced on those hours, review50). A rental that bills more GPUs than the
    configuration uses says both figures, each with its GPUs (gpuhours64: 100 GB200 used, 144 billed)."""
    if tl.bills_more_gpus and not bought:
        kw = {"time": f.days(tl.wall_days), "gpu_hours": _gpu_hours(f, tl.gpu_hours),
              "billed_gpus": tl.billed_gpus, "billed_gpu_hours": _gpu_hours(f, tl.billed_gpu_hours or 0.0)}
        if tl.billed_hours > tl.wall_hours * 1.0005:
            return f.ngettext("%(time)s, %(billed)s billed (%(gpu_hours)s GPU-hours on the %(n)s GPU used; "
                              "%(billed_gpu_hours)s GPU-hours billed for %(billed_gpus)s GPUs)",
                              "%(time)s, %(billed)s billed (%(gpu_hours)s GPU-hours on the %(n)s GPUs used; "
                              "%(billed_gpu_hours)s GPU-hours billed for %(billed_gpus)s GPUs)",
                              tl.gpus, billed=f.days(tl.billed_hours / 24), **kw)
        return f.ngettext("%(time)s (%(gpu_hours)s GPU-hours on the %(n)s GPU used; %(billed_gpu_hours)s GPU-hours "
                          "billed for %(billed_gpus)s GPUs)",
                          "%(time)s (%(gpu_hours)s GPU-hours on the %(n)s GPUs used; %(billed_gpu_hours)s GPU-hours "
                          "billed for %(billed_gpus)s GPUs)", tl.gpus, **kw)
    if bought:
        return _("%(time)s (%(gpu_hours)s GPU-hours of use)", time=f.days(tl.wall_days),
                 gpu_hours=f.num(tl.gpu_hours, 0 if tl.gpu_hours >= 100 else 1))
    if tl.billed_hours > tl.wall_hours * 1.0005:
        return _("%(time)s, %(billed)s billed (%(gpu_hours)s GPU-hours)", time=f.days(tl.wall_days),
                 billed=f.days(tl.billed_hours / 24), gpu_hours=f.num(tl.gpu_hours, 0 if tl.gpu_hours >= 100 else 1))
    return _("%(time)s (%(gpu_hours)s GPU-hours billed)", time=f.days(tl.wall_days),
             gpu_hours=f.num(tl.gpu_hours, 0 if tl.gpu_hours >= 100 else 1))


def _as_shown(f: Fmt, usd: float) -> float:
    """An amount as :meth:`Fmt.money` writes it: whole units from ``MONEY_WHOLE_FROM``, cents below."""
    local = f.to_local(usd) or 0.0
    return round(local) if abs(local) >= MONEY_WHOLE_FROM else round(local, 2)


def _adds_up_rounded(f: Fmt, led: Ledger) -> bool:
    """Whether the lines, each rounded as shown, add up to the total and the cash out rounded as shown (a table
    labelled 'the sum of the lines' that did not was a buyer's first catch: review49)."""
    shown = [_as_shown(f, ln.amount) for ln in led.lines]
    paid = [v for ln, v in zip(led.lines, shown, strict=True) if ln.kind != "resale"]
    return (abs(sum(shown) - _as_shown(f, led.total)) < 0.005
            and (led.amount("resale") >= 0 or abs(sum(paid) - _as_shown(f, led.cash_out)) < 0.005))


def ledger_table(f: Fmt, _: Callable[..., str], led: Ledger) -> dict[str, Any]:
    """The ledger line by line, then its total (and, with a purchase, the cash out before resale). Where the lines
    rounded one by one (whole units from ``MONEY_WHOLE_FROM``) add up to the total and the cash out so rounded,
    they are shown so; else every amount is shown to the cent, apportioned (:func:`apportioned`) so that the lines
    as printed add up to the total as printed, the cash out's lines to the cash out: the total and the cash out are
    their own amounts rounded to the cent, and a line may be a cent off its own rounding (cents59: review49's
    bought 4090 D, CN¥25,998.00 + 10,825.76 + 43.93 - 21,751.49 = 15,116.20 under a total of CN¥15,116.21)."""
    shown, cash, total = _shown(f, led)
    rows = [[kind_label(_, ln.kind),
             words.said(ln.item_phrases, f) if ln.item_phrases else item_label(_, ln.item),
             money] for ln, money in zip(led.lines, shown, strict=True)]
    if led.amount("resale") < 0:
        rows.append([_("cash out"), _("before resale"), cash])
    rows.append([_("total"), _("the sum of the lines"), total])
    return table([_("Kind"), _("Item"), _("Amount")], rows, right=(2,))


def parts_said(f: Fmt, _: Callable[..., str], led: Ledger | None) -> str:
    """A rental's bill in its lines, as the full report's 'Cost, line by line' shows them ('that is rent $86,056 +
    start-up $114' under a total of $86,170), for a cost line that says the price a GPU-hour and the total beside
    the GPU-hours of training: the total also pays the start-up's hours and any fees (plansolve62, review57's $7.15
    x 12,036 GPU-hours = $86,057 under '$86,170'). '' for a ledger of one line or one that buys."""
    if led is None or len(led.lines) < 2 or led.line("rent") is None or led.amount("capex") > 0:
        return ""
    shown = _shown(f, led)[0]
    parts = " + ".join(f"{item_label(_, ln.item) if ln.kind == 'fee' else kind_label(_, ln.kind)} {money}"
                       for ln, money in zip(led.lines, shown, strict=True))
    return _("that is %(parts)s", parts=parts)


def _shown(f: Fmt, led: Ledger) -> tuple[list[str], str, str]:
    """The ledger's lines, its cash out and its total as :func:`ledger_table` shows them (adding up as shown)."""
    if _adds_up_rounded(f, led):
        shown = [f.money(ln.amount) for ln in led.lines]
        cash, total = f.money(led.cash_out), f.money(led.total)
    else:
        cash_c, total_c = _cents(f, led.cash_out), _cents(f, led.total)
        paid = [i for i, ln in enumerate(led.lines) if ln.kind != "resale"]
        back = [i for i, ln in enumerate(led.lines) if ln.kind == "resale"]
        cents = [0] * len(led.lines)
        for idx, target in ((paid, cash_c if back else total_c), (back, total_c - cash_c)):
            for i, c in zip(idx, apportioned([(f.to_local(led.lines[i].amount) or 0.0) * 100 for i in idx],
                                             target), strict=True):
                cents[i] = c
        shown = [_cents_text(f, c) for c in cents]
        cash, total = _cents_text(f, cash_c), _cents_text(f, total_c)
    return shown, cash, total


def apportioned(units: list[float], target: int) -> list[int]:
    """``units`` (amounts in the unit shown, a cent) as whole units adding up to ``target``, by the largest-remainder
    method: each is first rounded down, then the units still wanted go one each to the largest fractions (taken
    back one each from the smallest where the floors already pass the target). With ``target`` the rounded sum,
    every figure is its own amount rounded down or up."""
    floors = [math.floor(u) for u in units]
    order = sorted(range(len(units)), key=lambda i: (floors[i] - units[i], i))  # largest fraction first
    wanted = target - sum(floors)
    if order:
        step = 1 if wanted > 0 else -1
        seq = order if wanted > 0 else order[::-1]
        for k in range(abs(wanted)):
            floors[seq[k % len(seq)]] += step
    return floors


def _cents(f: Fmt, usd: float) -> int:
    """An amount in the report's currency, in cents."""
    return round((f.to_local(usd) or 0.0) * 100)


def _cents_text(f: Fmt, cents: int) -> str:
    """Cents as :meth:`Fmt.money_exact` writes an amount ('-CN¥21,751.49')."""
    sym = "$" if f.cur.code == "USD" else ("¥" if f.lang == "zh" else "CN¥")
    return f"{'-' if cents < 0 else ''}{sym}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def _hours_add_up(f: Fmt, parts: list[float], total: float) -> bool:
    """Whether the parts as :meth:`Fmt.hours` writes them add up to the total as it writes it."""
    shown, half = f.hours_figure(total)
    return abs(sum(f.hours_figure(h)[0] for h in parts) - shown) <= half + 1e-9


def timeline_table(f: Fmt, _: Callable[..., str], tl: Timeline, bought: bool = False) -> dict[str, Any]:
    """How the time adds up: each part and the wall-clock time. Where the parts rounded one by one do not give
    the total shown, every figure is written to the hundredth (a thousandth if that is not enough), as a
    money table goes to the cent (review51: a fine-tune's '2.7 + 0.1 + 0.5 + 0.00017 + 0.25' hours beside a
    wall-clock time of 3.4 hours; 2.66 + 0.05 + 0.48 + 0.00 + 0.25 = 3.44)."""
    hours = [p.hours for p in tl.parts]
    show: Callable[[float], str] = f.hours
    if not _hours_add_up(f, hours, tl.wall_hours):
        places = next((d for d in (2, 3) if abs(sum(round(h, d) for h in hours) - round(tl.wall_hours, d))
                       < 0.5 * 10.0 ** -d), 3)
        show = lambda h: _("%(n)s hours", n=format(h, f",.{places}f"))  # noqa: E731
    rows = [[part_label(_, p.name), show(p.hours)] for p in tl.parts]
    rows.append([_("wall-clock time"), show(tl.wall_hours)])
    if abs(tl.billed_hours - tl.wall_hours) > 1e-9 and not bought:
        rows.append([_("hours billed"), show(tl.billed_hours)])
    rows += gpu_hours_rows(f, _, tl, bought)
    return table([_("Part"), _("Hours")], rows, right=(1,))


def gpu_hours_rows(f: Fmt, _: Callable[..., str], tl: Timeline, bought: bool = False,
                   whole: bool = False) -> list[list[str]]:
    """The timeline's GPU-hours as a table row: of use where bought, billed where rented; a rental that bills more
    GPUs than the configuration uses gets two rows, each naming its GPUs, so the billed figure is the rent line's
    (gpuhours64: 28,374 on the 100 GB200 used, 40,859 billed for 144). ``whole``: no decimals below 100."""
    if tl.bills_more_gpus and not bought:
        if tl.billed_hours > tl.wall_hours + 1e-9:  # a committed term: the GPUs used are billed idle hours too
            # (review62: '1,460 GPU-hours on the 2 GPUs used' of a p4de's month, the job using 2 x 6.91 = 13.8)
            used = f.ngettext("GPU-hours billed on the %(n)s GPU used", "GPU-hours billed on the %(n)s GPUs used",
                              tl.gpus)
        else:
            used = f.ngettext("GPU-hours on the %(n)s GPU used", "GPU-hours on the %(n)s GPUs used", tl.gpus)
        return [[used,
                 _gpu_hours(f, tl.gpu_hours, whole)],
                [_("GPU-hours billed for %(n)s GPUs", n=tl.billed_gpus),
                 _gpu_hours(f, tl.billed_gpu_hours or 0.0, whole)]]
    return [[_("GPU-hours of use") if bought else _("GPU-hours billed"), _gpu_hours(f, tl.gpu_hours, whole)]]


def constraint_rows(f: Fmt, _: Callable[..., str], asked: Requirements | None, led: Ledger | None,
                    tl: Timeline | None, serving: ServingOut | None) -> list[list[str]]:
    """The user's own limits beside what the answer uses of them: budget, deadline, throughput and
    latency targets, each only when the question (``asked``) states it."""
    if asked is None:
        return []
    c, w = asked.constraints, asked.workload
    rows: list[list[str]] = []
    if c.budget_usd and led is not None:  # what is paid before any resale comes back (TCO-OVER-BUDGET-CASH)
        rows.append([_("Your budget"), _("%(used)s of %(limit)s (%(pct)s)", used=f.money(led.cash_out),
                                         limit=f.money(c.budget_usd), pct=f.pct(led.cash_out / c.budget_usd))])
    if c.deadline_days and tl is not None and w.task != "inference":
        rows.append([_("Your deadline"), _("%(used)s of %(limit)s (%(pct)s)", used=f.days(tl.wall_days),
                                           limit=f.days(c.deadline_days), pct=f.pct(tl.wall_days / c.deadline_days))])
    sv = serving
    if sv is None:
        return rows
    if w.target_tokens_per_s:
        rows.append([_("Your throughput target"), _("%(got)s of %(want)s output tokens/s",
                                                    got=f.num(sv.throughput_tokens_per_s, 0),
                                                    want=f.num(w.target_tokens_per_s, 0))])
    for limit, value, label in ((w.max_ttft_ms, sv.ttft_s, _("Your time-to-first-token target")),
                                (w.max_tpot_ms, sv.tpot_s, _("Your time-per-output-token target"))):
        if limit and value is not None:
            rows.append([label, _("%(got)s ms, at most %(want)s ms", got=f.num(value * 1000, 0),
                                  want=f.num(limit, 0))])
    return rows


def given_up(f: Fmt, _: Callable[..., str], items: list[Any]) -> str:
    """What an audit's alternative does less of than the proposal, as one phrase ("" when nothing)."""
    said = []
    for g in items:
        if g.what == "throughput_tokens_per_s":
            said.append(_("%(alt)s output tokens/s instead of %(prop)s", alt=f.num(g.alternative, 0),
                          prop=f.num(g.proposed, 0)))
        elif g.what == "tpot_s":  # as many decimals as tell the two apart ('4 ms instead of 4' for 4.4 and 3.6)
            most = max(g.alternative, g.proposed) * 1000
            digits = 2 if most < 1 else 1 if most < 100 else 0
            said.append(_("%(alt)s ms per output token instead of %(prop)s", alt=f.num(g.alternative * 1000, digits),
                          prop=f.num(g.proposed * 1000, digits)))
        elif g.what == "wall_days":
            said.append(_("%(alt)s instead of %(prop)s", alt=f.days(g.alternative), prop=f.days(g.proposed)))
    return f.clause.join(said)


def rounded_table(cells: list[list[float]]) -> tuple[list[list[int]], list[int], list[int], int] | None:
    """A table of amounts (rows of parts) in whole units whose rows add up to their totals, whose columns add up
    to theirs and whose totals add up to the whole, as printed: controlled rounding (Cox and Ernst, 1982). The
    whole is its own amount rounded; each cell is its amount rounded down or up, each row's and each column's
    total likewise. The units above the cells' floors are found as a minimum-cost flow from the rows to the
    columns that gives every row and column at least its floor's worth (a large reward), then rounds up the
    totals with the largest fractions (so a total is its own amount rounded wherever the whole allows), then the
    cells'. A cell that is whole already is not moved, so a zero stays a zero. None where no such choice is found
    (one exists for every table of rows and columns; the None is a guard)."""
    rows, cols = len(cells), len(cells[0]) if cells else 0
    out = [[math.floor(v) for v in row] for row in cells]
    frac = [[v - f for v, f in zip(row, fl, strict=True)] for row, fl in zip(cells, out, strict=True)]
    need = round(math.fsum(v for row in cells for v in row)) - sum(map(sum, out))
    # nodes: 0 source, 1..rows the rows, then the columns, then the sink; edges [to, capacity, cost, reverse]
    n, sink, mid = rows + cols + 2, rows + cols + 1, 2.0 * (rows * cols + 1)
    big = 4.0 * mid * (rows + cols + 1)
    graph: list[list[list[Any]]] = [[] for _ in range(n)]

    def edge(a: int, b: int, cap: int, cost: float) -> None:
        graph[a].append([b, cap, cost, len(graph[b])])
        graph[b].append([a, 0, -cost, len(graph[a]) - 1])

    def bounds(a: int, b: int, share: float) -> None:  # at least the floor of a total's fractions, at most its ceiling
        low = math.floor(share + 1e-9)
        edge(a, b, low, -big)
        if share - low > 1e-9:  # the totals with the largest fractions rounded up first, before any cell's
            edge(a, b, 1, -(share - low) * mid)

    for i in range(rows):
        bounds(0, 1 + i, math.fsum(frac[i]))
        for j in range(cols):
            if frac[i][j] > 1e-9:
                edge(1 + i, 1 + rows + j, 1, -frac[i][j])
    for j in range(cols):
        bounds(1 + rows + j, sink, math.fsum(frac[i][j] for i in range(rows)))
    for _unit in range(need):  # one unit a path, the cheapest first (Bellman-Ford: the costs are negative)
        dist: list[float] = [math.inf] * n
        back: list[tuple[int, int] | None] = [None] * n
        dist[0] = 0.0
        for _pass in range(n):
            moved = False
            for a in range(n):
                if dist[a] == math.inf:
                    continue
                for k, (b, cap, cost, _r) in enumerate(graph[a]):
                    if cap > 0 and dist[a] + cost < dist[b] - 1e-9:
                        dist[b], back[b], moved = dist[a] + cost, (a, k), True
            if not moved:
                break
        if dist[sink] == math.inf:
            return None
        b = sink
        while b != 0:
            a, k = back[b]  # type: ignore[misc]
            e = graph[a][k]
            e[1] -= 1
            graph[b][e[3]][1] += 1
            b = a
    for i in range(rows):
        for e in graph[1 + i]:
            if rows < e[0] <= rows + cols and e[2] < 0 and e[1] == 0:  # a cell's unit taken
                out[i][e[0] - 1 - rows] += 1
    row_t = [sum(row) for row in out]
    col_t = [sum(out[i][j] for i in range(rows)) for j in range(cols)]
    totals = [math.fsum(row) for row in cells] + [math.fsum(r[j] for r in cells) for j in range(cols)]
    if any(abs(t - v) >= 1 for t, v in zip(row_t + col_t, totals, strict=True)):
        return None  # a total given less than its floor: no rounding found that keeps every figure within a unit
    return out, row_t, col_t, sum(row_t)


CASH_FLOW_PARTS = ("capex", "rent", "opex", "fees", "resale")
"""A plan month's parts as its cash-flow table shows them (gpuwise/plan/result.py: a month's ``total`` is their sum)."""


def cash_flow(months: list[Any], total: float, adds_up: bool) -> tuple[list[list[float]], list[float], bool]:
    """A plan's cash-flow table as figures: each month's parts and its total, then each part's total over the
    months and the plan's ``total``; whether they are to be shown in whole units. Where the figures each rounded
    on its own (``adds_up``: whole units from ``MONEY_WHOLE_FROM``, cents below) already add up across and down,
    they are given as they are; else rounded to whole units by :func:`rounded_table`, every month's row adding up
    to its total, every column to its total over the months, and those totals to the plan's total rounded on its
    own (cents59: the team example in yuan read 11,138 + 3,038 beside a month's total of 14,175)."""
    cells = [[getattr(x, k) for k in CASH_FLOW_PARTS] for x in months]
    done = None if adds_up or not cells else rounded_table(cells)
    if done is None:
        return ([[*row, x.total] for row, x in zip(cells, months, strict=True)],
                [*(math.fsum(row[j] for row in cells) for j in range(len(CASH_FLOW_PARTS))), total], False)
    out, row_t, col_t, whole = done
    return [[*map(float, row), float(t)] for row, t in zip(out, row_t, strict=True)], [*map(float, col_t), whole], True
