"""``gpuwise.plan``: the plan file in, the typed result out.

Steps: validate the file; convert its amounts to USD; size every workload on every candidate GPU type
(:mod:`.sizing`); price the owned fleet and a unit of each type bought (:mod:`.solve`); solve the program for the
plan, and for the two baselines as points of the same program (the plan must not cost more than either when they keep
to the same constraints: checked here); measure what each service adds to the plan against the hosted APIs; put the
facts before the rules (``rules/plan.yaml``); assemble :class:`~.result.PlanResult` in the plan's currency.
"""

from __future__ import annotations

import math
from dataclasses import field
from typing import Any

from .. import knowledge as knowledge_mod
from .. import messages
from ..decide.result import stale_prices
from ..errors import N_, Term, UserError
from ..frozen import record
from ..inputs.job import check_shared_host_ram, note
from ..inputs.money import with_rate
from ..results import Assumption, CurrencyInfo, Finding, HouseRules, TraceEntry
from .alternatives import buy_for_peak, tie
from .dated import prices_used as dated_prices
from .dated import rented_as
from .extract import _resale as _resale  # tests read build._resale
from .extract import extract
from .hardware import on_hardware
from .judge import judge, owned_hosting
from .milp import Solution
from .reading import _capacity_note, _ranges, _served_months, _spent, capacity_months
from .result import (
    Answer,
    ApiAlternative,
    ApiUnpriced,
    Baseline,
    Binding,
    Commitment,
    CopySize,
    Line,
    Month,
    Option,
    OwnedFleet,
    Placement,
    PlannedWorkload,
    PlanResult,
    Purchase,
    Rental,
    SolverInfo,
    Tie,
    Unplaced,
)
from .result import complete as complete_records
from .schema import PlanFile
from .servers import check_owned, owned_network, owned_server_sizes, stated_network, stated_server_gpus
from .sizing import (
    DAYS_PER_MONTH,
    HOURS,
    Sized,
    market,
    size,
    workload_defaults,
)
from .solution import Bought, Extracted, HostedApi
from .solve import (
    UNPLACED_RUN,
    UNSERVED,
    Fleet,
    Inputs,
    Program,
    Setting,
    fleet_for,
    solve,
    two_steps,
)
from .why import Why, joined

KEEP_PER_WORKLOAD = 3
"""GPU types kept per workload and way of acquiring (cheapest first), besides the owned ones: the
program's size stays small and the types left out were dearer for every workload."""
TOL = 1e-6


def plan(source: Any, *, knowledge: str | None = None, rules: str | None = None,
         currency: str | None = None, fx_rate: float | None = None) -> PlanResult:
    """``currency``: the result's (default the file's); ``fx_rate``: CNY per USD instead of the
    knowledge base's dated rate."""
    pf: PlanFile = _load(source)
    where = str(source) if isinstance(source, str) else "plan"
    kb = with_rate(knowledge_mod.load(knowledge), fx_rate)  # a rate given stands in tco.yaml's, undated, as recommend's
    if currency is not None and currency not in ("USD", "CNY"):
        raise UserError(N_("unknown currency '%(currency)s'"), hint=N_("use USD or CNY"), values={"currency": currency})
    return Planner(pf, kb, where, rules, currency, fx_rate).run()


class _UnknownKeysFirst:
    """A validation error's problems with unknown keys first: a misspelt key also makes the key it
    stands for "missing", and the misspelling is the line worth showing."""

    def __init__(self, exc: Any):
        self._errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")

    def errors(self) -> list[dict[str, Any]]:
        return self._errors


def _load(source: Any) -> PlanFile:
    """A path, a dict or a PlanFile -> a PlanFile; bad input is one UserError naming the field."""
    from pathlib import Path

    from pydantic import ValidationError

    from ..inputs.schema import explain_validation, list_caps, refuse_keys_not_text, refuse_other_kind
    from ..yamlio import read_yaml

    if isinstance(source, PlanFile):
        return source
    if isinstance(source, str | Path):
        where, data = str(source), read_yaml(Path(source), what=Term(N_("plan file")), caps=list_caps(PlanFile))
    elif isinstance(source, dict):
        where, data = "<dict>", source
    else:
        raise UserError(N_("expected a path, a dict or a PlanFile, got %(name)s"),
                        values={"name": type(source).__name__})
    if data is None:
        raise UserError(N_("the file is empty"), where=where)
    if not isinstance(data, dict):
        raise UserError(N_("expected a mapping of sections, got %(name)s"), where=where,
                        values={"name": type(data).__name__})
    try:
        return PlanFile.model_validate(data)
    except ValidationError as exc:
        refuse_keys_not_text(data, where)
        refuse_other_kind(PlanFile, data, where)
        raise explain_validation(_UnknownKeysFirst(exc), PlanFile, where) from None  # type: ignore[arg-type]
    except RecursionError:
        raise UserError(N_("nested too deeply"), where=where) from None


@record
class Planner:
    pf: PlanFile
    kb: Any
    where: str
    rules: str | None
    currency: str | None
    fx_rate: float | None = None
    assumptions: list[Assumption] = field(default_factory=list)

    # ------------------------------------------------------------------ inputs
    def run(self) -> PlanResult:
        pf, kb = self.pf, self.kb
        c = pf.constraints
        rate_v = kb.tco_value("usd_cny")
        self.rate = float(self.fx_rate or rate_v.value)
        to_usd = (1 / self.rate) if c.currency == "CNY" else 1.0
        if c.currency == "CNY":
            self.assumptions.append(note("constraints.currency", "CNY", "assume.plan.currency" + (
                ".given" if self.fx_rate else ""), {"rate": self.rate, "as_of": rate_v.as_of}))
        self.market = market(pf)
        if "electricity_usd_per_kwh" in c.model_fields_set:
            electricity = c.electricity_usd_per_kwh * to_usd
        else:  # the default is a USD tariff, whatever currency the file's amounts are in
            default = kb.tco_value("electricity_usd_per_kwh_default")
            electricity = float(default.value)
            self.assumptions.append(note("constraints.electricity_usd_per_kwh", electricity,
                                         "assume.plan.electricity", {"price": electricity}))
        owned: dict[str, int] = {}
        owned_hosting: dict[str, str] = {}
        for i, o in enumerate(pf.owned):
            r = kb.gpu(o.gpu, where=f"{self.where}: owned[{i}].gpu")
            part = kb.gpus[r.id]
            most = part.link.server_gpus  # one GB10 a DGX Spark: two in one server is no system sold (as audit says)
            if most and o.servers is not None and math.ceil(o.count / o.servers) > most:
                need = math.ceil(o.count / most)
                raise UserError(N_("%(count)s x %(gpu)s in servers: %(servers)s puts %(per_node)s GPUs in one, but "
                                   "one of its systems holds %(most)s"), where=f"{self.where}: owned[{i}].servers",
                                hint=N_("give servers: %(need)s, or leave servers out"), hint_values={"need": need},
                                values={"count": o.count, "gpu": part.name, "servers": o.servers,
                                        "per_node": math.ceil(o.count / o.servers), "most": most})
            check_shared_host_ram(part, o.count, o.servers, o.host_ram_gb, f"{self.where}: owned[{i}].host_ram_gb")
            check_owned(kb, pf, i, r.id, f"{self.where}: owned[{i}]")  # its network and the month it was bought
            owned[r.id] = owned.get(r.id, 0) + o.count
            owned_hosting.setdefault(r.id, o.hosting)
        self.owned = owned
        ids = list(owned)
        if c.gpus:
            for i, name in enumerate(c.gpus):
                r = kb.gpu(name, where=f"{self.where}: constraints.gpus[{i}]")
                if r.id not in ids:
                    ids.append(r.id)
        else:
            ids += [g for g in kb.gpus if g not in ids]
        gpus = [kb.gpus[g] for g in ids]
        from ..decide import rulebook

        book = rulebook.load(self.rules, {k: v.value for k, v in kb.policy.items()})  # the rules size too
        sized = size(pf, kb, gpus, owned, self.where, book)
        self.sized = sized
        self.assumptions.extend(workload_defaults(sized))
        from ..decide.verdicts import buy_refusal

        fleets = {g.id: fleet_for(kb, g, owned.get(g.id, 0), owned_hosting.get(g.id, "office"),
                                  electricity=electricity, hosting=c.hosting, market=self.market, usd_cny=self.rate,
                                  refused=buy_refusal(book, kb, g, c, self.market),
                                  need=max([sz.options[g.id].count for sz in sized if g.id in sz.options] or [1]),
                                  machines=owned_server_sizes(self.pf, kb, g.id))
                  for g in gpus}
        if c.acquisition == "rent":
            for f in fleets.values():
                f.unit = 0
        keep = self._prune(sized, fleets)
        for sz in sized:
            dropped = [g for g in sz.options if g not in keep]
            sz.options = {g: o for g, o in sz.options.items() if g in keep}
            if not sz.options:  # each type it runs on is neither owned, rented nor priced to buy (a GB10): say so
                for g in dropped:
                    sz.why_not.setdefault(g, self._no_way(g, fleets[g]))
        self.fleets = {g: f for g, f in fleets.items() if g in keep}
        self.refused = on_hardware(sized, self.fleets, book, pf, kb)  # a server's GPUs, the owned servers' RAM
        if two_steps(pf.horizon_months):
            self.assumptions.append(note("horizon_months", pf.horizon_months, "assume.plan.two_steps",
                                         {"months": pf.horizon_months}))
        delivery = int(kb.policy_value("plan_delivery_months"))
        self.inp = Inputs(H=pf.horizon_months, delivery=delivery,
                          availability=float(kb.policy_value("plan_owned_availability")),
                          fleets=self.fleets, sized=sized,
                          budget_quarter=c.budget_per_quarter_usd * to_usd if c.budget_per_quarter_usd else None,
                          budget_total=c.budget_total_usd * to_usd if c.budget_total_usd else None, tco=kb.tco)
        return self._solve_all()

    def _no_way(self, g: str, f: Fleet) -> Why:
        """Why a type the workload runs on cannot be had: no cloud rents it (where renting is allowed), and why it
        cannot be bought (where buying is): the unplaced line read 'no GPU type can run it: ()' (hostile round 26)."""
        parts: list[messages.Phrase] = []
        if self.pf.constraints.acquisition != "buy":
            parts.append(("", "plan.why.not_rented", {"gpu": f.gpu.name}))
        if self.pf.constraints.acquisition != "rent":
            buy = f.buy_reason or (("", "buy.none", {"gpu": f.gpu.name}),)
            parts += [("; " if parts and i == 0 else p[0], p[1], p[2]) for i, p in enumerate(buy)]
        return Why("price", tuple(parts))

    def _prune(self, sized: list[Sized], fleets: dict[str, Fleet]) -> set[str]:
        """The owned types, and per workload the cheapest few to rent and to buy."""
        H = self.pf.horizon_months
        keep = set(self.owned)
        for sz in sized:
            rent, buy = [], []
            for g, o in sz.options.items():
                f = fleets[g]
                # GPU-hours per run, or per unit of service load for a month
                work = o.count * HOURS / max(o.capacity, 1e-9) if sz.serving else o.gpu_hours
                if o.rent_usd_per_hour is not None and self.pf.constraints.acquisition != "buy":
                    rate = min([o.rent_usd_per_hour] + [r.usd_per_hour / r.copies for r in
                                                         [*o.reserved.values(), *o.reserved_pack.values()]])
                    copy = o.rented_count * HOURS / max(o.rented_capacity, 1e-9)  # a rented copy's, sized apart
                    rent.append((rate * (copy / max(o.rent_gpus_paid, 1) if sz.serving else o.rented_wall_hours), g))
                if f.unit:  # in the first unit that holds the copy (run)
                    u = next((u for u in f.units if max(u.holds, u.gpus) >= o.count), f.units[-1])
                    per_gpu_hour = (u.capex + u.hosting_per_month * H) / (u.gpus * H * HOURS)
                    buy.append((per_gpu_hour * work, g))
            keep |= {g for _, g in sorted(rent)[:KEEP_PER_WORKLOAD]}
            keep |= {g for _, g in sorted(buy)[:KEEP_PER_WORKLOAD]}
        return keep

    # ------------------------------------------------------------------ solving
    def _solve_all(self) -> PlanResult:
        c = self.pf.constraints
        base = Setting(buy=c.acquisition != "rent", rent=c.acquisition != "buy")
        prog, sol = solve(self.inp, base)
        if not sol.usable:
            raise UserError(N_("the plan's program could not be solved (%(status)s)"), where=self.where,
                            values={"status": sol.status})
        rent_all = solve(self.inp, Setting(buy=False, rent=True, owned=False), duals=False)
        peak = buy_for_peak(self)
        chosen = (prog, sol)
        notes: list[str] = []
        for name, (bp, bs), setting_ok in (("rent_all", rent_all, c.acquisition != "buy"),
                                           ("buy_for_peak", peak, c.acquisition != "rent")):
            if bs is None or not setting_ok:
                continue
            if bs.objective < chosen[1].objective - max(1.0, 1e-6 * abs(bs.objective)):
                notes.append(messages.text("plan.note.baseline_cheaper", {"baseline": name}))
                chosen = (bp, bs)
        prog, sol = chosen
        self.prog, self.sol = prog, sol
        ex = self._extract(prog, sol)
        total = sum(m.total for m in ex.months)
        baselines: dict[str, float | None] = {}
        details = []
        for name, pair, allowed_mode in (("rent_all", rent_all, c.acquisition != "buy"),
                                         ("buy_for_peak", peak, c.acquisition != "rent")):
            bp, bs = pair
            if bs is None:
                baselines[name] = None
                details.append(Baseline(name=name, total=None, allowed=False, why_not="no_type",
                                        note=messages.text("plan.baseline.no_type", {})))
                continue
            bx = self._extract(bp, bs)
            btotal = sum(m.total for m in bx.months)
            clean = not bx.unplaced and not bx.over
            allowed = allowed_mode and clean
            baselines[name] = self._money(btotal)
            why = "" if allowed else ("unplaced" if bx.unplaced else "over_budget" if bx.over else
                                      "acquisition")
            details.append(Baseline(name=name, total=self._money(btotal), allowed=allowed, why_not=why,  # type: ignore[arg-type]
                                    note=messages.text(f"plan.baseline.{why}", {}) if why else "",
                                    purchases=[self._purchase(p) for p in bx.purchases]))
            if allowed and not ex.unplaced:
                # the invariant: the plan is the program's optimum over a set holding the baseline
                assert sol.objective <= bs.objective + max(1.0, 1e-6 * abs(bs.objective)), (name, sol.objective,
                                                                                           bs.objective)
        api = self._api(total)
        binding = self._binding(prog, sol, ex)
        findings, trace, house = judge(self, ex, api)
        return self._result(ex, total, baselines, details, api, binding, findings, trace, house, notes,
                            tie(self, ex, total))

    # ------------------------------------------------------------------ reading a solution
    def _extract(self, p: Program, sol: Solution) -> Extracted:
        return extract(self.inp, p, sol)

    # ------------------------------------------------------------------ hosted APIs
    def _api(self, total_usd: float) -> list[HostedApi]:
        kb, inp = self.kb, self.inp
        out: list[HostedApi] = []
        apis = kb.apis.providers if kb.apis else []
        for sz in inp.sized:
            mid = sz.job.model_id
            if not sz.serving or not mid:  # a service of no named model: no hosted API serves it
                continue
            offers = [(prov, pr) for prov in apis for pr in prov.prices if pr.model == mid]
            if not offers:  # no hosted API is known to serve the model: the report says so (api_unpriced)
                out.append(HostedApi(workload=sz.name, model=mid))
                continue
            china = self.market == "china"
            local = [(p, pr) for p, pr in offers if (p.market == "china") == china] or offers
            active = [m for m in range(1, inp.H + 1) if sz.active(m)]
            if not sz.requests_per_s or not active:
                out.append(HostedApi(workload=sz.name, note=messages.text("plan.api.no_rate", {})))
                continue
            served = _served_months(self.prog, self.sol, sz.name, active)
            self_host: float | None = None  # nothing in the plan hosts it: no self-hosting cost to compare
            if served > 1e-6:
                wo_prog, without = solve(inp, Setting(buy=self.pf.constraints.acquisition != "rent",
                                                      rent=self.pf.constraints.acquisition != "buy",
                                                      skip=frozenset({sz.name})), duals=False)
                # what hosting it adds, in money, over the months it is served: the weights on work
                # left unplaced and on budget overruns steer the program and are no dollars (counted,
                # a service nothing hosts was priced at the weight)
                self_host = max(0.0, _spent(self.prog, self.sol) - _spent(wo_prog, without)) / served
            prompt, output = sz.job.w.prompt_tokens or 0, sz.job.w.output_tokens or 0
            seconds = sz.hours_per_day * 3600 * DAYS_PER_MONTH
            req_month = sum(sz.requests_per_s[m - 1] for m in active) / len(active) * seconds
            for prov, pr in local:
                to_usd = 1.0 if prov.currency == "USD" else 1 / self.rate
                per_req = (prompt * pr.input_per_million + output * pr.output_per_million) / 1e6 * to_usd
                api_month = per_req * req_month
                be = self_host / per_req / seconds if per_req > 0 and self_host is not None else None
                note = pr.note if self_host is not None else messages.text("plan.api.unplaced", {})
                out.append(HostedApi(workload=sz.name, provider=prov.name, provider_id=prov.id, model=mid,
                                     offered_as=pr.offered_as, input_per_million=pr.input_per_million,
                                     output_per_million=pr.output_per_million, price_currency=prov.currency,
                                     api_per_month=api_month, self_host_per_month=self_host,
                                     input_tokens_per_month=req_month * prompt,
                                     output_tokens_per_month=req_month * output, break_even_requests_per_s=be,
                                     note=note, as_of=pr.as_of.isoformat(), source=pr.source))
        out.sort(key=lambda a: (a.workload, a.api_per_month if a.provider else math.inf))
        return out

    # ------------------------------------------------------------------ what decided the plan
    def _binding(self, p: Program, sol: Solution, ex: Extracted) -> list[Binding]:
        out: list[Binding] = []
        for name, i in p.rows.items():
            if not name.startswith("budget"):
                continue
            dual = sol.duals[i] if i < len(sol.duals) else 0.0
            over = ex.over.get(name, 0.0)
            tight = abs(dual) > 1e-6 or over > 0
            out.append(Binding(constraint=name, kind="budget", binding=tight, value=round(-dual, 4),
                               subject=name[len("budget["):-1], over=self._money(over),
                               note=messages.text("plan.binding.over" if over else "plan.binding.tight" if tight
                                                  else "plan.binding.slack", {"usd": over})))
        per_gpu = capacity_months(p, sol)
        for g, items in per_gpu.items():  # the months the type has GPUs (owned, or bought and arrived) to be full
            items = [x for x in items if x[0] < len(ex.fleet.get(g, ())) and ex.fleet[g][x[0]] > 0]
            if not items:  # none held, or bought ones not arrived yet: its rows only price what one would be worth
                continue
            held, hours, narrow = (sorted({m for m, _, ks in items if row in ks})
                                   for row in ("count", "hours", "narrow"))
            out.append(Binding(constraint=f"capacity[{g}]", kind="capacity", binding=True,
                               value=round(max(abs(d) for _, d, _ in items), 4), subject=g,
                               months=sorted({m for m, _, _ in items}), held_months=held, hours_months=hours,
                               narrow_months=narrow, note=_capacity_note(self.fleets[g].gpu.name, held, hours, narrow)))
        for sz in self.sized:
            for kind in ("deadline", "latency", "memory"):
                hit = sorted(g for g, why in sz.why_not.items() if why.kind == kind)
                if hit and (kind != "memory" or any(g in self.owned for g in hit)):
                    names = ", ".join(self.kb.gpus[g].name for g in hit[:4]) + (" ..." if len(hit) > 4 else "")
                    out.append(Binding(constraint=f"{kind}[{sz.name}]", kind=kind,  # type: ignore[arg-type]
                                       binding=kind != "memory" or any(g in self.owned for g in hit),
                                       subject=sz.name, gpus=hit,
                                       note=messages.text("plan.binding.rules_out", {"gpus": names,
                                                                                     "workload": sz.name})))
        return out

    # ------------------------------------------------------------------ the result
    def _money(self, usd: float) -> float:
        return usd * self.rate if self.out_currency == "CNY" else usd

    @property
    def out_currency(self) -> str:
        return self.currency or self.pf.constraints.currency

    def _batch_asked(self, name: str) -> dict[str, Any]:
        """The global batch a training workload states, else the one assumed of it (its Assumption), as the plan's
        options carry it beside their step (product65: the rounding said as recommend says it)."""
        w = next((w.workload for w in self.pf.workloads if w.name == name), None)
        stated = w.global_batch_tokens if w is not None else None
        if isinstance(stated, int | float):
            return {"batch_asked": float(stated), "batch_stated": True}
        assumed = next((a.value for a in self.assumptions if a.field == f"{name}: workload.global_batch_tokens"
                        and isinstance(a.value, int | float)), None)
        return {"batch_asked": assumed, "batch_stated": False}

    def _purchase(self, p: Bought, findings: list[Finding] | tuple[()] = ()) -> Purchase:
        ram = _ram_not_priced(findings, self.kb.gpus[p.gpu].name)
        host = self.kb.tco.values.get(p.host_key) if p.host_key else None  # as judge.prices dates it
        return Purchase(month=p.month, gpu=p.gpu, count=p.count, amount=self._money(p.amount), units=p.units,
                        unit_gpus=p.unit_gpus, sold_as=p.sold_as, arrives=p.arrives, price_as_of=p.as_of,
                        host_as_of=host.as_of.isoformat() if host is not None and host.as_of is not None else "",
                        source=p.source, site=p.site, buy_ram_said=messages.phrase_text(ram),
                        buy_ram_said_phrases=messages.phrase_json(ram))

    def _result(self, ex: Extracted, total: float, baselines: dict[str, float | None], details: list[Baseline],
                api: list[HostedApi], binding: list[Binding], findings: list[Finding], trace: list[TraceEntry],
                house: HouseRules | None, notes: list[str], even: tuple[float, float] | None = None) -> PlanResult:
        complete_records()  # before the comprehensions below make the first instances (CPython 3.13.0)
        M = self._money
        months = [Month(month=m.month, capex=M(m.capex), rent=M(m.rent), opex=M(m.opex),
                        fees=M(m.fees), total=M(m.total), resale=M(m.resale), hosting=M(m.hosting),
                        power=M(m.power), utilisation=round(m.utilisation, 6),
                        utilisation_by_gpu={g: round(v, 6) for g, v in m.utilisation_by_gpu.items()},
                        fleet=m.fleet,
                        placements=[Placement(workload=pl.workload, gpu=pl.gpu, count=pl.count,
                                              acquisition=pl.acquisition, term=pl.term, runs=pl.runs,
                                              copies=pl.copies, gpu_hours=round(pl.gpu_hours, 3))
                                    for pl in m.placements])
                  for m in ex.months]
        purchases = [self._purchase(p, findings) for p in ex.purchases]
        unplaced = [self._unplaced(name, ms) for name, ms in ex.unplaced.items()]
        for sz in self.sized:
            if not sz.options and sz.name not in ex.unplaced:
                unplaced.append(self._unplaced(sz.name, []))
        api_out = [ApiAlternative(workload=a.workload, provider=a.provider,
                                  self_host_per_month=None if a.self_host_per_month is None else M(
                                      a.self_host_per_month), api_per_month=M(a.api_per_month),
                                  model=a.model, offered_as=a.offered_as, input_per_million=a.input_per_million,
                                  output_per_million=a.output_per_million, price_currency=a.price_currency,
                                  input_tokens_per_month=a.input_tokens_per_month, note=a.note,
                                  output_tokens_per_month=a.output_tokens_per_month,
                                  break_even_requests_per_s=a.break_even_requests_per_s,
                                  cheaper="api" if a.self_host_per_month is None or a.api_per_month
                                  < a.self_host_per_month else "self-host", as_of=a.as_of, source=a.source)
                   for a in api if a.provider]
        H = self.pf.horizon_months
        hours_by_gpu: dict[str, float] = {}  # on-demand rentals by GPU type (commitments apart)
        months_by_gpu: dict[str, list[int]] = {}
        for m in ex.months:
            for pl in m.placements:
                if pl.acquisition == "rent" and pl.term == "on-demand":
                    hours_by_gpu[pl.gpu] = hours_by_gpu.get(pl.gpu, 0.0) + pl.gpu_hours
                    rented = months_by_gpu.setdefault(pl.gpu, [])
                    if m.month not in rented:
                        rented.append(m.month)
        paid = dict.fromkeys(hours_by_gpu, 0.0)
        for ln in ex.lines:
            if ln.kind == "rent" and "term" not in ln.inputs and ln.gpu in paid:
                paid[ln.gpu] += ln.amount
        rentals = [Rental(gpu=g, gpu_hours=round(h, 2), months=months_by_gpu[g], amount=M(paid[g]),  # 0.28 read 0.3
                          billed_gpu_hours=round(ex.billed_hours[g], 2) if g in ex.billed_hours else None,
                          billed_said=messages.phrase_text(why := _billed_unit(findings, self.kb.gpus[g].name)),
                          billed_said_phrases=messages.phrase_json(why),
                          rented_as=messages.phrase_text(sold := rented_as(self, ex, g)),
                          rented_as_phrases=messages.phrase_json(sold))
                   for g, h in hours_by_gpu.items()]
        allowed = {d.name: d.total for d in details if d.allowed and d.total is not None}
        beats = min(allowed, key=lambda k: allowed[k]) if allowed else ""
        commitments = [Commitment(**{**c.fields(), "usd_per_hour": M(c.usd_per_hour), "amount": M(c.amount)})
                       for c in ex.commitments]
        answer = Answer(buy_now=[p for p in purchases if p.month == 1], buy_later=[p for p in purchases if p.month > 1],
                        rent=rentals, commitments=commitments, buy_nothing=not purchases,
                        why_not="unplaced" if ex.unplaced else "over_budget" if ex.over else "",
                        monthly_average=M(total) / H, beats=beats,  # type: ignore[arg-type]
                        saving=Answer.shown_saving(allowed[beats], M(total)) if beats else 0.0,  # as shown
                        tie=Tie(total=M(even[0]), gap=even[1], more=Answer.shown_saving(M(even[0]), M(total)))
                        if even else None)
        options = [Option(workload=sz.name, gpu=g, count=o.count, wall_hours=o.wall_hours, capacity=o.capacity,
                          rent_per_hour=M(o.rent_usd_per_hour) if o.rent_usd_per_hour is not None else None,
                          rent_provider=o.rent_provider, layout=o.layout, **o.wide_fields(),
                          step_batch=o.step_batch, **self._batch_asked(sz.name),
                          copy_sizes=CopySize.listed(o.copy_sizes, M), rent_copy_sizes=CopySize.listed(
                              o.rent_copy_sizes, M),
                          **({"pack_copies": o.rent_pack.copies, "pack_gpus": o.rent_pack.gpus_paid,
                              "pack_per_hour": M(o.rent_pack.usd_per_hour), "pack_provider": o.rent_pack.provider}
                             if o.rent_pack is not None else {}))
                   for sz in self.sized for g, o in sz.options.items()]
        if purchases and self.pf.constraints.hosting is None:  # a default the hosting lines rest on
            for where in sorted({p.site for p in ex.purchases}):
                self.assumptions.append(note("constraints.hosting", where, "assume.plan.hosting", {"hosting": where}))
        for g in self.owned:  # a run or copy over the owned servers: the network between them, assumed (sizing)
            per = stated_server_gpus(self.pf, self.kb, g) if not stated_network(self.kb, g, self.pf) else 0
            if per and any(pl.gpu == g and pl.acquisition == "owned" and (pl.count // pl.copies if pl.copies else
                                                                         pl.count) > per
                           for m in ex.months for pl in m.placements):
                sizes = owned_server_sizes(self.pf, self.kb, g)  # 3, 3, 2 where 8 sit in three servers (hostile42)
                even = len(set(sizes)) == 1
                self.assumptions.append(note(
                    "owned[].servers", f"{per} x {g}" if even else f"{'+'.join(map(str, sizes))} x {g}",
                    "assume.plan.owned_network" if even else "assume.plan.owned_network_uneven", {
                        "gpu": self.kb.gpus[g].name, "per": per, "sizes": ", ".join(map(str, sizes)),
                        "network": owned_network(self.kb, g)}))
        rate_v = self.kb.tco_value("usd_cny")
        info = CurrencyInfo(usd_cny=self.rate, as_of=rate_v.as_of.isoformat() if rate_v.as_of else "",
                            source=" ".join(rate_v.source.split()), asked=self.pf.constraints.currency)
        owned = [OwnedFleet(gpu=g, name=self.kb.gpus[g].name, count=n, hosting=self.fleets[g].owned_hosting,
                            hosting_per_month=M(owned_hosting(self.inp, ex, g) / self.inp.H),
                            server_gpus=stated_server_gpus(self.pf, self.kb, g),
                            server_sizes=owned_server_sizes(self.pf, self.kb, g),
                            network=owned_network(self.kb, g, self.pf))
                 for g, n in self.owned.items()]
        workloads = [PlannedWorkload(
            name=sz.name, task=sz.job.w.task, model=sz.job.model_id or sz.job.shape.name,
            kind="serving" if sz.serving else "training", cadence=sz.w.cadence.kind, runs=sz.runs,
            demand=[round(d, 3) for d in sz.demand], measure=sz.measure,
            requests_per_s=[round(r, 4) for r in sz.requests_per_s],
            why_not={g: w.text for g, w in sorted(sz.why_not.items())},
            owned_reason={g: w.text for g, w in sz.owned_reason.items()}) for sz in self.sized]
        return PlanResult(
            total=M(total), currency=self.out_currency, baselines=baselines, purchases=purchases, months=months,  # type: ignore[arg-type]
            unplaced=unplaced, api=api_out, findings=findings, trace=trace, answer=answer, horizon_months=H,
            usd_cny=self.rate, currency_info=info, total_usd=total, baseline_details=details, binding=binding,
            lines=[Line(month=ln.month, kind=ln.kind, item=messages.phrase_text(ln.item),
                        item_phrases=messages.phrase_json(ln.item), amount=M(ln.amount),
                        formula=messages.formula_text(ln.formula), inputs=ln.inputs,
                        formula_phrases=messages.phrase_json(ln.formula)) for ln in ex.lines],
            options=options, owned=owned, workloads=workloads,
            api_unpriced=[ApiUnpriced(workload=a.workload, model=a.model) for a in api if a.model and not a.provider],
            gpu_names={g: f.gpu.name for g, f in self.fleets.items()} | {g: self.kb.gpus[g].name for g in
                                                                         sorted({b for x in binding for b in x.gpus})},
            solver=SolverInfo(name="HiGHS", status=self.sol.status, objective_usd=self.sol.objective,
                              variables=len(self.prog.model.names), rows=len(self.prog.model.rows), notes=notes,
                              gpu_types=sorted(self.fleets)),
            assumptions=self.assumptions, house_rules=house,
            knowledge_dates={k: v.isoformat() for k, v in self.kb.dates().items()},
            # the prices the plan rests on and those a data-freshness rule calls stale, as recommend lists them
            # (recommend's own function: every price of a plan is its answer's)
            prices_used=dated_prices(self, ex), stale_prices=stale_prices(findings),
        )

    def _unplaced(self, name: str, months: list[int]) -> Unplaced:
        why = self._why_unplaced(name, months)
        return Unplaced(workload=name, reason=messages.phrase_text(why), months=months,
                        reason_phrases=messages.phrase_json(why))

    def _why_unplaced(self, name: str, months: list[int]) -> tuple[messages.Phrase, ...]:
        """Why a workload was left out, as message ids with values (plan.unplaced.*): the first three
        distinct reasons no GPU type can take it (plan.why.*), in the order of their English."""
        sz = next(s for s in self.sized if s.name == name)
        kept_off = {g: sz.owned_reason[g] for g, o in sz.options.items() if o.owned_refused and (  # on_hardware
            o.rent_usd_per_hour is None or self.pf.constraints.acquisition == "buy")}
        if not sz.options or len(kept_off) == len(sz.options):  # no type, or only owned ones the rules keep it off
            named = (_on_gpu(self.kb.gpus[g].name, w) for g, w in (kept_off or sz.why_not).items())
            distinct = {w.text: w for w in named}
            reasons = [distinct[t] for t in sorted(distinct)[:3]]
            return (("", "plan.unplaced.no_type", {"reasons": joined(reasons)}),)
        c = self.pf.constraints
        if c.acquisition == "buy" and not any(self.fleets[g].unit or self.fleets[g].owned for g in sz.options):
            return (("", "plan.unplaced.cannot_buy", {}),)
        return (("", "plan.unplaced.months" if len(months) > 1 else "plan.unplaced.month",
                 {"months": _ranges(months), "acquisition": c.acquisition}),)


def _on_gpu(name: str, w: Why) -> Why:
    """``w`` led by the GPU type it is about where its words do not name it: a workload no type can run read 'misses
    the deadline (19.2 days ...); misses the deadline (31.9 days ...)', one reason a type, none named."""
    if any("gpu" in values for _, _, values in w.parts):
        return w
    return Why(w.kind, (("", "plan.why.on_gpu", {"gpu": name}), *w.parts))


def _ram_not_priced(findings: list[Finding] | tuple[()], gpu_name: str) -> tuple[messages.Phrase, ...]:
    """What a purchase's price leaves out of the host RAM a CPU offload on it needs, in the words recommend and audit
    put beside a purchase's price (decide/subjects.py ``_buy_ram_said``, reports/messages.yaml buy.ram_not_priced):
    where MEM-HOST-RAM-BUY fired of a run on the type bought, the one short by the most. The plan's Answer read 'Buy 2
    x RTX 5090 ... for $7,718' with the host RAM its offload needs beyond the desktop priced in its Findings alone
    (review60b's Left, plan64)."""
    short = [(f.values["host_ram_needed_gb"], f.values["typical_host_ram_gb"]) for f in findings
             if f.rule == "MEM-HOST-RAM-BUY" and f.values.get("gpu_name") == gpu_name
             and {"host_ram_needed_gb", "typical_host_ram_gb"} <= f.values.keys()]
    if not short:
        return ()
    need, typical = max(short, key=lambda x: x[0] - x[1])
    return ((" ", "buy.ram_not_priced", {"typical_gb": typical, "short_gb": need - typical}),)


def _billed_unit(findings: list[Finding], gpu_name: str) -> tuple[messages.Phrase, ...]:
    """Why a rental of the type bills more GPUs than its work uses, in FEE-RENT-STEP-CHOSEN's words (the provider
    rents them only in whole steps): where PLAN-RENT-STEP fired of it, each distinct rental once. A plan renting 1
    GB200 read 'billed for 203 GPU-hours ($2,133)' with no word of the rack of 72 it paid for (review62, product65)."""
    out: list[messages.Phrase] = []
    for f in findings:
        v = f.values
        if f.rule != "PLAN-RENT-STEP" or v.get("gpu_name") != gpu_name:
            continue
        part = ("; " if out else "", "rent.billed_step", {k: v[k] for k in ("provider", "rental_step_gpus",
                                                                           "gpus_paid", "count")})
        if all(part[1:] != o[1:] for o in out):
            out.append(part)
    return tuple(out)


__all__ = ["UNPLACED_RUN", "UNSERVED", "plan"]
