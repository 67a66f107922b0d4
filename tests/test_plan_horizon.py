"""A long plan is searched in two steps (``gpuwise.plan.solve.solve``, issue 26 item 5: a plan over the
schema's most months must not take minutes): the purchases first with rented copies fractional, then the
whole program with every copy whole, each first-step order kept or one unit larger, or kept or one unit
smaller (the cheaper kept). Checked here: which
horizons take two steps, the new ways of solving a model (some integers relaxed, variables held in a range,
a node limit that stops once), a plan where nothing changes between months (the two steps find the one-step
plan), and the bundled team plan over 36 months against the best plan a long search found."""

from __future__ import annotations

import random

import pytest

import gpuwise.plan.milp as milp
import gpuwise.plan.solve as solve_mod
from gpuwise.plan.build import plan
from gpuwise.plan.solve import two_steps


def test_only_a_program_over_more_than_12_months_takes_two_steps():
    assert not two_steps(6) and not two_steps(12)
    assert two_steps(13) and two_steps(24) and two_steps(60)


def _two_items() -> milp.Model:
    """max 3x + 2y s.t. 2x + 2y <= 5, x, y whole in [0, 10]: x + y <= 2, so x = 2, y = 0 (value 6)."""
    m = milp.Model()
    x = m.var("x", ub=10, cost=-3, integer=True)
    y = m.var("y", ub=10, cost=-2, integer=True)
    m.row("cap", {x: 2, y: 2}, ub=5)
    return m


def test_relaxed_integers_are_solved_as_fractions():
    assert _two_items().solve(duals=False).objective == pytest.approx(-6)
    # y fractional: x = 2 (whole), y = 0.5 fills the row: -6 - 1 = -7
    assert _two_items().solve(duals=False, relax=frozenset({1})).objective == pytest.approx(-7)
    # both fractional: the LP, x = 2.5: -7.5
    assert _two_items().solve(duals=False, relax=frozenset({0, 1})).objective == pytest.approx(-7.5)
    # bounds hold a variable in a range: x in [0, 1] leaves y = 1 (2x + 2y <= 5 with whole y): -3 - 2
    assert _two_items().solve(duals=False, bounds={0: (0, 1)}).objective == pytest.approx(-5)


def test_a_node_limit_given_to_solve_stops_once(search_runs):
    """``nodes`` stops the search there, without the second run at HEURISTIC_EFFORT that a stop at
    NODE_LIMIT gets (the first step of a long plan only chooses the purchases)."""
    r = random.Random(1)
    m = milp.Model()
    xs = [m.var(f"x{k}", ub=1, cost=-r.randint(10, 100), integer=True) for k in range(80)]
    for i in range(8):
        w = {x: r.randint(5, 60) for x in xs}
        m.row(f"c{i}", w, ub=sum(w.values()) // 2)
    sol = m.solve(duals=False, nodes=1)
    assert sol.status == "Solution limit reached" and sol.usable and len(search_runs) == 1


def _constant_service(months: int) -> dict:
    """A 70B service at a constant 4 requests/s for the whole horizon, 8 RTX 4090 owned, two GPU types."""
    return {"horizon_months": months,
            "owned": [{"gpu": "RTX 4090", "count": 8, "hosting": "office"}],
            "workloads": [{"name": "chat",
                           "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "int4",
                                        "prompt_tokens": 1000, "output_tokens": 300},
                           "cadence": {"continuous": True},
                           "targets": {"requests_per_s": 4, "p95_ttft_ms": 2000}}],
            "constraints": {"gpus": ["rtx-4090", "h100-80gb-pcie"], "hosting": "colocation",
                            "electricity_usd_per_kwh": 0.15}}


def test_where_nothing_changes_between_months_the_two_steps_find_the_one_step_plan(monkeypatch):
    """The same load every month: the plan buys in month 1 whatever it buys. The first step alone (rented
    copies fractional) bought one H100 PCIe where whole copies need two ($123,562 against $115,409): a
    fraction of a rented copy covered what one more unit carries; the second step's extra unit finds the
    one-step plan: three H100 PCIe in month 1 (two before vLLM's pool was short of its start-up profile's sampler
    pass, 37.7 B x 128,256 x 1,024 = 4.95 GB a GPU: serving.yaml vllm profile_sampler; a copy holds fewer 70B
    sequences, so the 4 requests/s within the TTFT target take one more). Two since plancopy57: the owned 4090s
    serve copies of 4 (tensor parallel 4, 234.5 tokens/s a copy against tensor parallel 2's 86.1), 2 x 234.5 = 469
    of the 1,200 tokens/s where 4 x 86.1 = 344 were, and ceil((1,200 - 469) / 385.6) = 2 H100 PCIe carry the rest."""
    two = plan(_constant_service(36))
    assert [a.message_id for a in two.assumptions if a.field == "horizon_months"] == ["assume.plan.two_steps"]
    monkeypatch.setattr(solve_mod, "LONG_HORIZON", 60)  # the same file searched in one step, every month
    one = plan(_constant_service(36))
    assert not any(a.field == "horizon_months" for a in one.assumptions)
    assert two.total_usd == pytest.approx(one.total_usd, rel=1e-9)
    assert [(p.month, p.gpu, p.units) for p in two.purchases] == [(p.month, p.gpu, p.units) for p in one.purchases]
    assert [(p.month, p.gpu, p.units) for p in one.purchases] == [(1, "h100-80gb-pcie", 2)]
    assert [(o.gpu, o.count) for o in one.options] == [("rtx-4090", 4), ("h100-80gb-pcie", 1)]


# The bundled team plan over 36 months, each site billed once (plan32) and each order bounded (plan33): HiGHS 1.16 on
# the one-step program, one thread, seed 0, gap 2e-4, no node limit, stopped by an 840 s limit (646 CPU-s on a
# shared host) after 212,538 nodes: objective $1,938,323.78 (bound $1,838,443.92). The one-step search as shipped
# (5,000 nodes, then 5,000 at HEURISTIC_EFFORT, 70 CPU-s) found $1,950,036.13; the two steps find $1,939,245.44.
# With vLLM's pool short of its start-up profile's sampler pass (serving.yaml vllm profile_sampler; the RTX 4090s
# hold fewer sequences) the program is another: the same 840 s search (132 CPU-s on the shared 2-core host, 38,477
# nodes) found $2,033,355.44 (bound $1,883,555.96), the one-step search as shipped $2,033,602.07 (31 CPU-s), the two
# steps $2,018,945.39, the best found (branch burstpool52: solve.LONG_HORIZON 60, milp.NODE_LIMIT unbounded, the
# integer runs at time_limit 840 and gap 2e-4). With cards bought together priced as one desktop (branch plan64: its
# host's 250 W over its cards) and any set of runs held to the GPUs free at once, the program is another again: the
# one-step search, one thread, seed 0, gap 2e-4, no node limit, stopped by a 600 s limit (254 CPU-s on the shared
# host) after 38,273 nodes, found $1,761,303.86 (bound $1,569,387.70); the one-step search as shipped $1,754,437.84
# (156 CPU-s); the two steps $1,717,806.48, the best found. The figures below are these.
TEAM_36_BEST_OBJECTIVE = 1_717_806.48
TEAM_36_BOUND = 1_569_387.70
TEAM_36_ONE_STEP_OBJECTIVE = 1_754_437.84


def test_the_team_plan_over_36_months_is_within_a_percent_of_the_best_found():
    from pathlib import Path

    from gpuwise.yamlio import read_yaml

    data = read_yaml(Path(__file__).parent.parent / "examples" / "plan-team-4090.yaml")
    r = plan(data | {"horizon_months": 36})
    assert r.solver.objective_usd <= TEAM_36_BEST_OBJECTIVE * 1.01
    assert r.solver.objective_usd <= TEAM_36_ONE_STEP_OBJECTIVE * 1.001
    assert r.solver.objective_usd >= TEAM_36_BOUND  # the two steps search a part of the same program


def test_a_two_step_plan_costs_what_its_solver_says():
    """The objective HiGHS reports is the cost of the plan read from its values (no budget, nothing left
    unplaced, so no weights in it). A starting point handed to HiGHS (``setSolution``) once broke this on
    the held-out China plan over 36 months: objective $230 against a plan of $314,539."""
    from pathlib import Path

    from gpuwise.yamlio import read_yaml

    data = read_yaml(Path(__file__).parent / "data" / "plans" / "china-team-cny.yaml")
    r = plan(data | {"horizon_months": 36})
    assert two_steps(36) and not r.unplaced
    assert r.solver.objective_usd == pytest.approx(r.total_usd, rel=1e-6)


def test_each_order_is_bounded_by_what_the_fleet_could_use_and_links_its_site_once(monkeypatch):
    """plan33: each order's bound was 10,000 units, the big M that makes a site in use once a unit arrives there,
    and every month repeated the link for every unit arrived (rows growing with the months squared). The bound is
    now the units that carry, beyond the owned GPUs, the most GPUs any month could put on the fleet (every copy
    at its variable's bound), and each order is linked once, in the month it arrives; the plan is the same."""
    seen = []
    build = solve_mod.build

    def spy(inp, s):
        p = build(inp, s)
        seen.append((inp, s, p))
        return p

    monkeypatch.setattr(solve_mod, "build", spy)
    doc = _constant_service(12)
    bounded = plan(doc)
    inp, _, p = seen[0]
    m = p.model
    for (g, _o, k), j in p.buy.items():
        gpus = inp.fleets[g].units[k].gpus
        most = max(sum(m.ub[v] * a for v, a in row.items() if v not in p.buy.values() and a > 0)
                   for name, row, _lo, _hi in m.rows if name.startswith(f"count[{g},"))
        assert m.ub[j] == max(0, -(-(most - inp.fleets[g].owned) // gpus)) < 10_000
    links = [name for name, *_ in m.rows if name.startswith("used[")]
    assert len(links) == len(set(links)) == sum(1 for g, _o, k in p.buy if inp.fleets[g].units[k].site == "colocation")
    monkeypatch.setattr(solve_mod, "_most_units", lambda *a: None)  # the bound of 10,000 alone
    assert plan(doc).total_usd == pytest.approx(bounded.total_usd, rel=1e-3)
