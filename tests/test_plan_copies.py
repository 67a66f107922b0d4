"""What a plan buys holds each copy or run whole (plan31, hostile round 27's seen-and-left), bought hardware is
hosted where recommend and audit host a purchase unless the plan states it, and PLAN-SERVING-OUTGROWS says what the
plan does in the month the load outgrows the owned GPUs.

Prices are knowledge/prices.yaml's (RTX 4090: $3,159.99 a card, UCT 2025-07-22; H100 SXM: $317,000 an 8-GPU HGX
server, the Thinkmate quote of the Aug 2024 cluster sheet; InfiniBand NDR: $562.5 a switch port and $1,300 a link
per GPU, NICs in the server) and knowledge/tco.yaml's (PCIe server host share $4,000 a GPU; an office takes
max_kw 3.0; colocation $250 a kW-month, billed from 2 kW); a DGX Spark draws 140 W + 100 W (knowledge/gpus.yaml,
Hot Chips 2025 / ChargerLab teardown)."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from gpuwise.plan.build import plan
from gpuwise.render import plan_view

from .clirun import gpuwise
from .test_hostile_twenty_seventh import GB10_PRICE

BIG = {"name": "big", "workload": {"task": "inference", "model": "qwen3-next-80b-a3b", "prompt_tokens": 1000,
                                   "output_tokens": 200},
       "cadence": {"continuous": True}, "targets": {"requests_per_s": 1}}


def test_a_copy_of_eight_4090s_is_bought_as_one_8_card_server_not_beside_the_owned_one() -> None:
    # hostile round 27: one owned 4090 and 7 bought as one-GPU workstations ran one tensor-parallel copy over
    # eight machines with no fast link between them. A copy of 8 cards is more than a desktop holds (4,
    # prices.yaml max_per_node): it is bought as one 8-card PCIe server, 8 x $3,159.99 + 8 x $4,000 host share.
    r = plan({"horizon_months": 3, "owned": [{"gpu": "RTX 4090", "count": 1, "servers": 1}], "workloads": [BIG],
              "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"]}})
    assert r.options[0].count == 8  # one copy: 8 RTX 4090s (bf16 weights of an 80B model)
    (p,) = r.purchases
    assert (p.month, p.count, p.units, p.unit_gpus, p.sold_as) == (1, 8, 1, 8, "server")
    assert p.amount == pytest.approx(8 * 3159.99 + 8 * 4000, abs=0.01)
    for m in r.months[1:]:  # months 2-3: the copy runs whole on what was bought; the owned card takes no part
        assert [(x.count, x.acquisition) for x in m.placements] == [(8, "buy")]
    capex = next(ln for ln in r.lines if ln.kind == "capex")
    assert capex.inputs["host_usd"] == pytest.approx(32000) and capex.inputs["network_usd"] == 0
    # an 8-card server is past what an office holds (one desktop): colocation, as recommend hosts it, though the
    # owned card is in an office (it followed the owned card before: 3.6 kW of cards in an office at no rent)
    assert [a.value for a in r.assumptions if a.field == "constraints.hosting"] == ["colocation"]


def test_a_run_of_16_h100s_is_bought_as_two_8_gpu_servers_with_their_network() -> None:
    # an H100 SXM server comes in 4 or 8 GPUs; a 16-GPU run was bought as four 4-GPU servers and no network. Now
    # two 8-GPU servers ($317,000 each) and the InfiniBand between them: 16 x ($562.5 + $1,300) = $29,800.
    r = plan({"horizon_months": 12, "workloads": [
        {"name": "ft", "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-70b",
                                    "train_tokens": 2.0e9}, "cadence": {"per_month": 1}, "deadline_days": 10}],
        "constraints": {"acquisition": "buy", "gpus": ["h100-80gb-sxm"]}})
    assert r.options[0].count == 16
    (p,) = r.purchases
    assert (p.count, p.units, p.unit_gpus, p.sold_as) == (16, 2, 8, "server")
    assert p.amount == pytest.approx(2 * 317000 + 16 * (562.5 + 1300))
    capex = next(ln for ln in r.lines if ln.kind == "capex")
    assert capex.inputs["network_usd"] == pytest.approx(16 * (562.5 + 1300) / 2)  # a server's half of it


def test_owned_gpus_that_hold_a_copy_still_carry_it() -> None:
    # the control: eight owned 4090s hold one copy of 8 as the team has them (tests/data/plans/growing-service.yaml
    # owns them in two servers); nothing is bought where they carry the load
    r = plan({"horizon_months": 2, "owned": [{"gpu": "RTX 4090", "count": 8, "servers": 2}], "workloads": [BIG],
              "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"]}})
    assert not r.purchases and not r.unplaced
    assert [(x.count, x.acquisition) for x in r.months[0].placements] == [(8, "owned")]


SPARKS = {"horizon_months": 12, "workloads": [
    {"name": "chat", "workload": {"task": "inference", "model": "gpt-oss-120b", "precision": "fp4",
                                  "prompt_tokens": 1000, "output_tokens": 200},
     "cadence": {"continuous": True, "growth_per_month": 0.5}, "targets": {"requests_per_s": 1}}],
    "constraints": {"gpus": ["gb10"], "acquisition": "buy"}}


def _sparks(tmp_path, doc) -> dict:
    (tmp_path / "k").mkdir(exist_ok=True)
    (tmp_path / "k" / "prices.yaml").write_text(GB10_PRICE, encoding="utf-8")
    (tmp_path / "plan.yaml").write_text(json.dumps(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--knowledge", "k", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_sparks_a_plan_buys_go_to_an_office_while_it_takes_them_then_to_colocation(tmp_path) -> None:
    # hostile round 27: a plan put every Spark in colocation ($500 a month each, 2 kW billed) where recommend and
    # audit put them in an office while their power stays within tco.yaml hosting.office max_kw. A Spark draws
    # 0.24 kW: 3.0 / 0.24 = 12.5, so 12 go to the office and the rest to colocation.
    d = _sparks(tmp_path, SPARKS)
    last = Counter()
    for ln in d["lines"]:
        if ln["kind"] == "hosting" and ln["month"] == 12 and ln["item_phrases"][0][1] != "item.plan.site_minimum":
            last["office" if ln["item"].endswith("(office)") else "colocation"] += int(ln["item"].split()[0])
    bought = sum(p["count"] for p in d["purchases"])
    assert bought > 12 and last == {"office": 12, "colocation": bought - 12}
    assert all(ln["amount"] == 0 for ln in d["lines"] if ln["kind"] == "hosting" and ln["item"].endswith("(office)"))
    assert sorted(a["value"] for a in d["assumptions"] if a["field"] == "constraints.hosting") == [
        "colocation", "office"]
    # a stated hosting still holds for every unit
    stated = _sparks(tmp_path, {**SPARKS, "constraints": {**SPARKS["constraints"], "hosting": "colocation"}})
    assert stated["purchases"] and not [ln for ln in stated["lines"] if ln["kind"] == "hosting"
                                        and not ln["item"].endswith("(colocation)")]
    assert not [a for a in stated["assumptions"] if a["field"] == "constraints.hosting"]


def test_a_month_left_short_is_not_said_to_get_capacity(tmp_path) -> None:
    # hostile round 27 / plan31: a buy-only plan leaves month 1 unplaced (the purchase arrives in month 2), and
    # PLAN-SERVING-OUTGROWS said 'the plan adds capacity that month' of it
    doc = {"horizon_months": 6, "owned": [{"gpu": "RTX 4090", "count": 1, "servers": 1}],
           "workloads": [{**BIG, "name": "chat", "workload": {**BIG["workload"], "model": "llama-3.1-8b"},
                          "targets": {"requests_per_s": 4}}],
           "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"]}}
    r = plan(doc)
    assert [(u.workload, u.months) for u in r.unplaced] == [("chat", [1])]
    (f,) = [f for f in r.findings if f.rule == "PLAN-SERVING-OUTGROWS"]
    assert f.message.endswith("more than the 1 owned; month 1's load is left partly unplaced (see below) and the "
                              "plan adds capacity from month 2")
    zh = " ".join(plan_view.render(r, "text", lang="zh", width=200).split())
    assert "第 1 个月的负载有一部分未安排（见下文），计划从第 2 个月起增加容量" in zh
    # renting allowed: month 1 is rented, and then it does add capacity that month
    either = plan({**doc, "constraints": {"acquisition": "either", "gpus": ["rtx-4090"]}})
    (f,) = [f for f in either.findings if f.rule == "PLAN-SERVING-OUTGROWS"]
    assert not either.unplaced and f.message.endswith("more than the 1 owned; the plan adds capacity that month")
    assert "计划在当月增加容量" in " ".join(plan_view.render(either, "text", lang="zh", width=200).split())



def test_the_host_share_a_purchase_rests_on_is_judged_for_freshness(kb) -> None:
    # plan31 (hostile round 27's item 4): the consumer host share (tco.yaml, as_of 2019-01-01) priced every bought
    # RTX 4090 and no freshness rule judged it; the plan now asserts the GPU's price and its host share as price facts
    # (DATA-STALE-PRICE against policy price_max_age_days, as a recommendation's prices are judged)
    import datetime as dt

    doc = {"horizon_months": 6, "owned": [{"gpu": "RTX 4090", "count": 1, "servers": 1}],
           "workloads": [{**BIG, "workload": {**BIG["workload"], "model": "llama-3.1-8b"},
                          "targets": {"requests_per_s": 4}}],
           "constraints": {"acquisition": "buy", "gpus": ["rtx-4090"]}}
    r = plan(doc)
    assert [p.count for p in r.purchases] == [1]
    limit = kb.policy_value("price_max_age_days")
    key = "server_share_usd_per_gpu_consumer"
    as_of = kb.tco_value(key).as_of
    stale = [f for f in r.findings if f.rule == "DATA-STALE-PRICE" and key in f.message]
    assert bool(stale) == ((dt.date.today() - as_of).days > limit)
    if stale:
        assert as_of.isoformat() in stale[0].message
    card = [f for f in r.findings if f.rule == "DATA-STALE-PRICE" and "'buy NVIDIA GeForce RTX 4090 24GB'" in f.message]
    assert bool(card) == ((dt.date.today() - dt.date(2025, 7, 22)).days > limit)  # prices.yaml: UCT, 2025-07-22
    # nothing bought, no purchase price to judge
    rented = plan({**doc, "constraints": {"acquisition": "rent", "gpus": ["rtx-4090"]}})
    assert not rented.purchases and not [f for f in rented.findings if f.rule == "DATA-STALE-PRICE"]
