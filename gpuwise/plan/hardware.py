"""The runs and copies of a plan on the hardware it holds, once every workload is sized (:mod:`.sizing`): a run on a
server bought may use all its GPUs, a run on owned GPUs may use more of them within one owned server, a run or copy
sized on more GPUs than an owned server holds is judged over the owned servers' network, and a run whose state sits in
host RAM is kept off owned servers whose stated RAM the rules reject. Moved out of :mod:`.sizing` (its module held
798 lines): sizing sizes each workload per GPU type; this adjusts the options to the fleets the plan prices.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..decide import engine
from ..decide.rulebook import Rulebook
from ..decide.subjects import candidate_fact
from ..estimators.candidate import evaluate
from ..knowledge import Knowledge
from .schema import PlanFile
from .servers import owned_network, owned_server_gpus, owned_servers
from .sizing import HOST_RAM_FACTS, Option, Sized, _verdict, _within_p95, counts, owned_run_fact
from .why import why

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ..knowledge.schema import Gpu


def on_hardware(sized: list[Sized], fleets: dict[str, Any], book: Rulebook, pf: PlanFile,
                kb: Knowledge) -> list[dict[str, Any]]:
    """The runs on the hardware the plan holds: a run on a server bought may use its GPUs (:func:`on_units`); a run
    that keeps its state in host RAM is kept off the owned GPUs where a plan_owned_run rule rejects their servers'
    stated RAM (PLAN-OWNED-HOST-RAM-SHORT): the option's ``owned_refused``, the rule the owned GPUs' reason -- unless
    the run on more of the owned GPUs (``own_count``) holds, its state on them or within their RAM: then only the
    fewest is kept off (``fewest_refused``) and the program may place the wider run (review48: an 8B fine-tune on 1 of
    8 owned A100s offloads 141 GB to a 128 GB server; on 4 it offloads nothing, and the owned A100s idled while 4090s
    were rented). The facts the rules rejected, for the plan's findings (judge.facts)."""
    on_units(sized, fleets, book, pf.constraints.max_gpus)
    on_owned(sized, fleets, book, pf, kb)
    on_owned_servers(sized, fleets, book, pf, kb)
    runs = [(s, g, o, wide) for s in sized if not s.serving for g, o in s.options.items()
            if fleets.get(g) is not None and fleets[g].owned
            for wide, h in ((False, o.host_ram), (True, o.own_host_ram)) if h]
    facts = [owned_run_fact(pf, kb, s.name, g, o.own_count if wide else o.count, o.own_host_ram if wide else o.host_ram)
             for s, g, o, wide in runs]
    rejected: dict[int, str] = {}
    for rule_id, idx, _stage in engine.run(book, facts).firings if facts else ():
        if book.rules[rule_id].then.action == "reject":
            rejected.setdefault(idx, rule_id)
    for idx in rejected:  # the owned servers' stated RAM cannot hold the widened run's state: no wider run
        s, g, o, wide = runs[idx]
        if wide:
            o.own_count, o.own_wall_hours, o.own_host_ram = 0, 0.0, {}
    refused: list[dict[str, Any]] = []
    for idx, rule_id in rejected.items():
        s, g, o, wide = runs[idx]
        if wide or o.owned_refused or o.fewest_refused:
            continue
        if o.own_count:  # the wider run holds (its state on the GPUs, or within the RAM): only the fewest is kept off,
            o.fewest_refused = rule_id  # and no blocker is said of a count the plan does not offer
            continue
        refused.append(facts[idx])
        o.owned_refused = rule_id
        s.owned_reason[g] = why("memory", "plan.why.ruled_out", rule=rule_id,
                                title=[("", "rule.title", {"title": book.rules[rule_id].title})])
    return refused


def on_units(sized: list[Sized], fleets: dict[str, Any], book: Rulebook, max_gpus: int) -> None:
    """A run on a type the plan can only buy, not own, whose server (the first unit that holds the run) has more GPUs
    than the run needs (one H100 of a 4-GPU server), may run on all of them: the plan pays for the server whatever
    the run uses, and a data-parallel run on more GPUs finishes sooner (planfix50). Kept where the rules reject
    nothing there they did not reject of ``count`` and it is faster; the program places a run there or on ``count``
    (solve.build: the GPUs free at once and the power choose), and a run on the server has its host RAM judged there
    (``buy_host_ram``: a purchase's facts, of the run on the server's GPUs)."""
    for s in sized:
        for g, opt in s.options.items() if not s.serving else ():
            f = fleets.get(g)
            if f is None or not f.unit or f.owned:
                continue
            u = next((u for u in f.units if max(u.holds, u.gpus) >= opt.count), None)
            if u is None or not opt.count < u.gpus <= max_gpus:
                continue
            wider = _wider(s, f.gpu, u.gpus, opt, book)
            if wider is not None:
                opt.buy_count, (opt.buy_wall_hours, opt.buy_host_ram) = u.gpus, wider


def _wider(s: Sized, g: Gpu, n: int, opt: Option, book: Rulebook, one_node: bool = False
           ) -> tuple[float, dict[str, Any]] | None:
    """The run of ``opt`` on ``n`` GPUs of ``g``, where the rules reject nothing there they did not of ``opt.count``
    and it finishes sooner (``one_node``: and spans one server): its wall hours and its host RAM facts (a server whose
    RAM the plan does not state, as :func:`_rent` leaves the fewest's; none where it keeps no state in host RAM).
    None where it may not run there."""
    ev = evaluate(s.job, g, n, defer=True)
    if not _verdict(book, s, ev).fits:
        return None
    ev.complete()
    wall = float((ev.speed.wall_hours if ev.speed else None) or 0.0)
    if one_node and (ev.topology is None or ev.topology.nodes > 1):
        return None
    if not (0 < wall < opt.wall_hours and set(_verdict(book, s, ev).rejected) <= set(opt.rejected)):
        return None
    if not ev.host_ram_needed_bytes_per_node:
        return wall, {}
    if ev.host_ram_from != "shared":
        ev.host_ram_gb, ev.host_ram_from = None, ""
    fact = candidate_fact(s.job, ev, "buy")
    return wall, {k: fact[k] for k in HOST_RAM_FACTS}


def on_owned_servers(sized: list[Sized], fleets: dict[str, Any], book: Rulebook, pf: PlanFile, kb: Knowledge) -> None:
    """A run or copy sized on more GPUs than one owned server holds (a copy of 8 RTX 4090s, the team's 8 in two
    4-GPU servers; owned[].servers stated) spans the owned servers: it is judged on them -- the estimate over that many
    servers on the network between them (:func:`owned_network`) -- and where the rules reject it there and not on the
    servers it was sized on (CMP-FRAMEWORK-NODES: llama.cpp and ExLlama serve from one server), it is kept off the
    owned GPUs, the rule the type's owned reason (leftovers55: such a copy was placed on the two servers as if they
    were one). A run placed there takes that estimate's wall hours and layout, as a rented run over several servers
    is priced on its network (plansvc57: it kept the hours of one server's GPUs); a rental of the same count keeps the
    hours of the servers it is rented in (``rent_wall_hours``)."""
    for s in sized:
        for g, opt in s.options.items():
            f = fleets.get(g)
            nodes = owned_servers(pf, kb, g, opt.count) if f is not None and f.owned else 1
            if nodes <= 1 or opt.owned_refused:
                continue
            # complete estimates: a copy's facts (copy_gpus, the layout) are the serving estimate's
            stated = [w.host_ram_gb for w in pf.owned if kb.gpu(w.gpu).id == g]  # a node here is an owned server
            ahead = min(h for h in stated if h is not None) if not s.serving and stated and None not in stated else None
            spans = evaluate(s.job, f.gpu, opt.count, nodes=nodes, network=owned_network(kb, g, pf),
                             host_ram_ahead_gb=ahead)
            there = _verdict(book, s, spans).rejected
            sized_on = _verdict(book, s, evaluate(s.job, f.gpu, opt.count)).rejected
            new = [r for r in there if r not in sized_on]
            if new:
                opt.owned_refused = new[0]
                s.owned_reason[g] = why("software", "plan.why.ruled_out", rule=new[0],
                                        title=[("", "rule.title", {"title": book.rules[new[0]].title})])
                continue
            if s.serving:  # a copy over the servers carries what it does there (plan32: one server's capacity)
                sv = spans.serving
                cap = 0.0 if sv is None else float((sv.max_throughput_tokens_per_s if s.measure == "tokens_per_s"
                                                    else sv.max_throughput_concurrency) or 0.0)
                opt.own_capacity = max(_within_p95(s, sv, cap), 1e-6)  # (none within the targets: carries nothing)
                continue
            wall = float((spans.speed.wall_hours if spans.speed else None) or 0.0)
            if not s.serving and wall > 0:
                if opt.rent_usd_per_hour is not None and not opt.rent_wall_hours:
                    opt.rent_wall_hours = opt.wall_hours  # the rental: one rented server's GPUs, as sized
                opt.wall_hours, opt.layout = wall, spans.label()
                fact = candidate_fact(s.job, spans, "buy") if spans.host_ram_needed_bytes_per_node else None
                opt.host_ram = {k: fact[k] for k in HOST_RAM_FACTS} if fact else {}  # the state its servers hold


def on_owned(sized: list[Sized], fleets: dict[str, Any], book: Rulebook, pf: PlanFile, kb: Knowledge) -> None:
    """A run on a type the team owns, sized on the fewest GPUs that fit (one A100 with ZeRO and CPU offload), may run
    on more of the owned GPUs (ownwide51): the plan pays their hosting whatever runs on them, and a run on more GPUs
    keeps its state on them and finishes sooner. The largest count of the ladder within one owned server (and within
    ``max_gpus``) whose estimate spans one server, where the rules reject nothing there they did not of ``count`` and
    it is faster -- the option's ``own_count`` and ``own_wall_hours``; the program places a run there or on ``count``
    (solve.build: the GPUs free at once and the power choose), the owned servers' stated RAM judged of each
    (:func:`on_hardware`)."""
    for s in sized:
        for g, opt in s.options.items() if not s.serving else ():
            f = fleets.get(g)
            if f is None or not f.owned:
                continue
            top = min(f.owned, owned_server_gpus(pf, kb, g), pf.constraints.max_gpus)
            for n in sorted((n for n in counts(pf.constraints.max_gpus) if opt.count < n <= top), reverse=True):
                wider = _wider(s, f.gpu, n, opt, book, one_node=True)
                if wider is not None:
                    opt.own_count, (opt.own_wall_hours, opt.own_host_ram) = n, wider
                    break
