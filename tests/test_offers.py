"""Rentals as they are sold (gpuwise/estimators/offers.py): the largest on-demand size, multi-node
clusters rented only reserved for a minimum term, published reservations taken when the job fills
them. Lambda's billing page: on-demand instances of 1 to 8 GPUs, 1-Click Clusters reserved and
billed weekly (knowledge/clouds.yaml)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import offers as O
from gpuwise.estimators.candidate import evaluate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _offer(**kw) -> O.Offer:
    base = dict(provider="x", instance=None, gpus=16, usd_per_hour=16 * 4.0, spot_usd_per_hour=None,
                as_of="2026-11-01", source="s", check="S")
    return O.Offer(**{**base, **kw})


def test_a_cluster_above_the_on_demand_size_is_reserved_for_its_minimum_term() -> None:
    o = _offer(max_on_demand_gpus=8, multi_node="reserved", reserved_min_hours=168, sold_as_source="page")
    t = O.term_for(o, 16, 2.0)
    assert t.reserved_only and t.term == "reserved" and t.min_hours == 168
    assert t.usd_per_hour == 64.0 and "on-demand rate is assumed" in t.why  # no reserved rate published
    assert not O.term_for(o, 8, 2.0).reserved_only  # one node: on demand
    on_demand_anywhere = _offer(gpus=16, usd_per_hour=16 * 5.0)
    # a 2-hour job: 16 x $5 x 2 h = $160 on demand against 16 x $4 x 168 h = $10,752 reserved
    chosen, term = O.as_sold([o, on_demand_anywhere], 16, 2.0, {})
    assert chosen.usd_per_hour == 80.0 and term.term == "on-demand"
    # a 400-hour job fills the week: 16 x $4 x 400 = $25,600 beats 16 x $5 x 400 = $32,000
    chosen, term = O.as_sold([o, on_demand_anywhere], 16, 400.0, {})
    assert chosen is o and term.reserved_only


def test_a_published_reservation_is_taken_only_when_the_job_fills_it() -> None:
    o = _offer(gpus=8, usd_per_hour=8 * 3.0, reserved_per_hour=(("1-month", 8 * 2.0), ("1-year", 8 * 1.5)))
    assert O.term_for(o, 8, 100).term == "on-demand"  # $24 x 100 = $2,400 < $16 x 730 = $11,680
    assert O.term_for(o, 8, 700).term == "1-month"  # $16 x 730 = $11,680 < $24 x 700 = $16,800
    t = O.term_for(o, 8, 8760)  # a year of serving: $12 x 8,760 = $105,120
    assert t.term == "1-year" and t.usd_per_hour == pytest.approx(12.0) and t.min_hours == 8760


def test_lambda_two_nodes_for_two_hours_bill_a_week(kb) -> None:
    req = Requirements.model_validate({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                                    "train_tokens": 1e6},
                                       "constraints": {"acquisition": "rent"}})
    job = resolve(req, kb)
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 16, provider="lambda", acquisition="rent")
    n = ev.numbers
    assert n["rent_reserved_only"] and n["rent_term"] == "reserved" and n["rent_min_term_hours"] == 168
    assert n["wall_hours"] < 24
    # billed for the week at Lambda's 8-GPU node rate (no 1-Click Cluster rate is in the knowledge base)
    assert ev.timeline.billed_hours == pytest.approx(168)
    assert n["rent_usd"] == pytest.approx(16 * 3.99 * 168, rel=1e-6)
    one_node = evaluate(job, kb.gpus["h100-80gb-sxm"], 8, provider="lambda", acquisition="rent")
    assert not one_node.numbers["rent_reserved_only"]
    assert one_node.timeline.billed_hours < 24
