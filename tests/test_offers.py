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


def test_lambda_two_nodes_for_two_hours_bill_two_weeks_of_a_1_click_cluster(kb) -> None:
    """Lambda rents more than 8 H100s only as a 1-Click Cluster: 16 to 512 GPUs on 400 Gb/s
    InfiniBand (docs.lambda.ai/public-cloud/1-click-clusters), reserved for 2 weeks to a year at
    $6.16 per GPU-hour for 16 GPUs (lambda.ai pricing as transcribed 2026-09-02 and 2026-09-13)."""
    req = Requirements.model_validate({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                                    "train_tokens": 1e6},
                                       "constraints": {"acquisition": "rent"}})
    job = resolve(req, kb)
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 16, provider="lambda", acquisition="rent")
    n = ev.cost
    assert n.rent_reserved_only and n.rent_term == "reserved" and n.rent_min_term_hours == 336
    assert ev.speed.wall_hours < 24
    assert ev.timeline.billed_hours == pytest.approx(336)  # two weeks billed
    assert n.rent_usd == pytest.approx(16 * 6.16 * 336, rel=1e-6)  # $33,116.16
    assert ev.offer.network == "infiniband-400"  # the cluster's fabric, not the 25 GbE default
    one_node = evaluate(job, kb.gpus["h100-80gb-sxm"], 8, provider="lambda", acquisition="rent")
    assert not one_node.cost.rent_reserved_only
    assert one_node.timeline.billed_hours < 24


def test_a_cluster_rate_follows_its_size_and_its_smallest_cluster_is_paid() -> None:
    """Lambda's H100 1-Click Cluster rates by size: $6.16 from 16 GPUs, $5.85 from 64, $5.54 from 256."""
    o = _offer(gpus=12, usd_per_hour=12 * 4.0, max_on_demand_gpus=8, multi_node="reserved", reserved_min_hours=336,
               cluster_rates=((16, 6.16), (64, 5.85), (256, 5.54)), sold_as_source="page")
    t = O.term_for(o, 12, 10)  # 12 GPUs: the smallest cluster, 16, is paid
    assert t.gpus_paid == 16 and t.usd_per_hour == pytest.approx(16 * 6.16) and t.min_hours == 336
    assert O.term_for(o, 64, 10).usd_per_hour == pytest.approx(64 * 5.85)
    assert O.term_for(o, 300, 10).usd_per_hour == pytest.approx(300 * 5.54)
    chosen, _ = O.as_sold([o], 12, 10, {})
    assert chosen.gpus == 16 and chosen.per_gpu_hour == pytest.approx(6.16)


def test_lambda_offers_state_their_network(kb) -> None:
    """H100/B200 beyond one node at Lambda run on the 1-Click Cluster's InfiniBand; other GPUs are
    several on-demand instances, which use no InfiniBand (docs.lambda.ai/public-cloud/guest-agent)."""
    lam = [o for o in kb.clouds.gpu_hour_prices if o.provider == "lambda"]
    for o in lam:
        assert o.network_stated, o.gpu
        if o.gpu in ("h100-80gb-sxm", "b200"):
            assert o.network == "infiniband-400" and o.multi_node == "reserved"
        else:
            assert o.network is None and o.multi_node == "on-demand" and "InfiniBand" in o.network_stated
    a100 = next(o for o in O.rent_offers(kb.clouds, "a100-80gb-sxm", 16) if o.provider == "lambda")
    assert O.term_for(a100, 16, 5).term == "on-demand"  # two on-demand nodes, no cluster product


def test_gcp_publishes_calendar_one_and_three_year_commitments(kb) -> None:
    """Google's accelerator-optimized and DWS pricing pages as read on 2026-09-27 (nativ-x/fsku
    term catalog): a3-highgpu-8g at $88.49 an hour on demand, DWS Calendar mode (1-90 days) $41.60,
    1-year CUD $61.383674 (44,810.08 per 730 h in the Cloud Billing Catalog of 2025-03-06), 3-year
    $38.864383 (28,371.00 per 730 h)."""
    a3 = next(o for o in O.rent_offers(kb.clouds, "h100-80gb-sxm", 8) if o.instance == "a3-highgpu-8g")
    rates = dict(a3.reserved_per_hour)
    assert rates["1-year"] == pytest.approx(44810.08 / 730, rel=1e-4)
    assert rates["3-year"] == pytest.approx(28371.00 / 730, rel=1e-4)
    assert rates["1-month"] == 41.60
    assert a3.terms_as_of == "2026-09-27" and "DWS" in a3.sold_as_source
    assert O.term_for(a3, 8, 300).term == "on-demand"  # $88.49 x 300 h < $41.60 x 730 h
    month = O.term_for(a3, 8, 2000)  # $41.60 x 2,000 h < $88.49 x 2,000 h and < $61.38 x 8,760 h
    assert month.term == "1-month" and month.usd_per_hour == 41.60
    # a year: calendar blocks ($41.60 x 8,760 h = $364,416) beat the 1-year commitment ($537,721)
    assert O.term_for(a3, 8, 8760).term == "1-month"
    # three years: $38.86 x 26,280 h = $1,021,356 < $41.60 x 26,280 h = $1,093,248
    assert O.term_for(a3, 8, 3 * 8760).term == "3-year"


def test_aws_capacity_block_and_savings_plans(kb) -> None:
    """AWS us-east-1 price lists of 2026-09-25 (nativ-x/fsku term catalog, read 2026-09-27):
    p5.48xlarge $55.04 on demand, Capacity Block $41.528, 1-year Instance Savings Plan $34.6752,
    3-year $23.77728 per instance-hour."""
    p5 = next(o for o in O.rent_offers(kb.clouds, "h100-80gb-sxm", 8) if o.instance == "p5.48xlarge")
    assert dict(p5.reserved_per_hour) == {"1-month": 41.528, "1-year": 34.6752, "3-year": 23.77728}
    assert O.term_for(p5, 8, 500).term == "on-demand"  # $55.04 x 500 = $27,520 < $41.528 x 730 = $30,315
    assert O.term_for(p5, 8, 1000).term == "1-month"  # $41,528 < $55,040
    assert O.term_for(p5, 8, 8760).term == "1-year"  # $34.6752 < $41.528 per hour for a year


def test_per_gpu_hour_offers_carry_their_published_spot_rate(kb) -> None:
    """CoreWeave's pricing page (transcribed 2026-09-20): HGX H100 node $49.24 on demand, $19.71 spot."""
    cw = next(o for o in O.rent_offers(kb.clouds, "h100-80gb-sxm", 16) if o.provider == "coreweave")
    assert cw.gpus == 16 and cw.spot_usd_per_hour == pytest.approx(16 * 19.71 / 8)


def test_a_reserved_answer_cites_the_reserved_rate_and_its_date(kb) -> None:
    """prices_used names the term and cites where the reserved rate was read, dated apart."""
    import datetime as dt

    from gpuwise.prices.used import prices_used

    req = Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-70b",
                                                    "precision": "bf16", "concurrent_requests": 8},
                                       "constraints": {"acquisition": "rent", "project_months": 12}})
    job = resolve(req, kb)
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 8, provider="gcp", instance="a3-highgpu-8g", acquisition="rent")
    # a year of serving: DWS Calendar blocks at $41.60 an hour (Google's page, read 2026-09-27) cost less
    # than the 1-year commitment at $61.3837 and than on demand at $88.49
    assert ev.cost.rent_term == "1-month"
    assert ev.offer.usd_per_hour == pytest.approx(41.60)
    used = prices_used(job, ev, "rent", today=dt.date(2026, 12, 1))
    assert "1-month" in used[0].item and used[0].as_of == "2026-09-27" and used[0].term == "1-month"
    assert used[0].amount == pytest.approx(41.60 / 8)
    assert "Calendar mode" in used[0].source


def _two_cluster_offers(job, gpu_id: str, n: int) -> tuple[O.Offer, O.Offer]:
    """A cheaper cluster sold only reserved by the week on InfiniBand, and a dearer one rented by
    the hour on RoCE: the job's length decides which it is priced on, and so its network."""
    reserved = _offer(provider="weekly", gpus=n, usd_per_hour=n * 3.0, network="infiniband-400",
                      max_on_demand_gpus=8, multi_node="reserved", reserved_min_hours=168, sold_as_source="page")
    hourly = _offer(provider="hourly", gpus=n, usd_per_hour=n * 5.0, network="roce-400")
    job.memo[("offers", gpu_id, n)] = [reserved, hourly]
    return reserved, hourly


@pytest.mark.parametrize("tokens, provider, network", [
    (1e6, "hourly", "roce-400"),  # minutes of work: 16 x $5 x ~0.3 h beats 16 x $3 x 168 h
    (2e11, "weekly", "infiniband-400"),  # over a week of work: $3 beats $5 for every hour
])
def test_the_network_estimated_is_that_of_the_offer_priced(kb, tokens, provider, network) -> None:
    from gpuwise.estimators.candidate import expected_rent_hours, networks_for

    req = Requirements.model_validate({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b",
                                                    "train_tokens": tokens},
                                       "constraints": {"acquisition": "rent"}})
    job = resolve(req, kb)
    gpu = kb.gpus["h100-80gb-sxm"]
    _two_cluster_offers(job, gpu.id, 16)
    hours = expected_rent_hours(job, gpu, 16)
    assert (hours < 24) == (provider == "hourly") and (hours > 168) == (provider == "weekly")
    nets = networks_for(job, gpu, 16)
    assert nets["rent"] == network  # before: always the cheapest per hour (the weekly cluster's InfiniBand)
    ev = evaluate(job, gpu, 16, network=nets["rent"], acquisition="rent")
    n = ev.cost
    assert ev.topology.network == network and n.rent_network == network and n.rent_provider == provider
    rate = 5.0 if provider == "hourly" else 3.0
    assert n.usd_per_gpu_hour == pytest.approx(rate)


def test_a_quote_is_compared_with_the_offer_it_names_else_the_cheapest_of_its_kind() -> None:
    """The audit's hourly comparison (FEE-PRICE-ABOVE-LIST / -MARKET) takes the offer the proposal
    names, not the first of all offers; unnamed, the cheapest of the network class the job is rented
    as; a spot quote meets the published spot rate."""
    from types import SimpleNamespace

    nets = {"ib": SimpleNamespace(shared_by="gpu"), "eth": SimpleNamespace(shared_by="node")}
    cheap_pod = _offer(provider="pods", gpus=16, usd_per_hour=16 * 2.0, network="eth")
    cluster = _offer(provider="cl", gpus=16, usd_per_hour=16 * 3.0, network="ib", spot_usd_per_hour=16 * 1.2)
    big = _offer(provider="cl", instance="node8", gpus=16, usd_per_hour=16 * 2.5, network="ib")
    offers = [cheap_pod, big, cluster]  # price order
    o, rate, basis = O.reference_offer(offers, nets, provider="cl", instance="node8")
    assert (o, rate, basis) == (big, 2.5, "named")
    o, rate, basis = O.reference_offer(offers, nets, provider="cl")
    assert (o, rate, basis) == (big, 2.5, "named")  # the provider's lowest bill for 16 GPUs
    o, rate, basis = O.reference_offer(offers, nets, provider="cl", spot=True)
    assert (o, rate) == (cluster, pytest.approx(1.2))  # $19.20 spot for 16 beats $40 on demand
    assert O.reference_offer(offers, nets, provider="elsewhere")[1:] == (2.0, "cheapest")
    # a multi-node job whose offers put clusters first is compared with the cheapest cluster
    assert O.reference_offer([big, cluster, cheap_pod], nets)[:2] == (big, 2.5)
    assert O.reference_offer([], nets) is None
    # 16 GPUs of a product rented above 8 only as a reserved cluster: the cluster's listed rate
    lam = _offer(provider="lam", gpus=16, usd_per_hour=16 * 3.99, network="ib", max_on_demand_gpus=8,
                 multi_node="reserved", reserved_min_hours=336, cluster_rates=((16, 6.16),), sold_as_source="p")
    assert O.reference_offer([lam], nets, provider="lam")[1] == pytest.approx(6.16)


def test_an_audit_judges_a_lambda_quote_against_lambdas_listed_rate() -> None:
    """One H100 SXM quoted at $9/h at Lambda: Lambda lists a 1x H100 SXM instance at $4.29
    (lambda.ai/pricing via silybench, 2026-09-25): 9 / 4.29 = 2.10x, over the 1.5x policy."""
    from pathlib import Path

    from gpuwise.decide.audit import audit

    case = Path(__file__).resolve().parent / "rules" / "FEE-PRICE-ABOVE-LIST" / "input.yaml"
    found = {f.rule: f for f in audit(case).findings}
    f = found["FEE-PRICE-ABOVE-LIST"]
    assert f.evidence["market_hourly_usd"] == pytest.approx(4.29)
    assert f.evidence["hourly_ratio"] == pytest.approx(9 / 4.29, rel=1e-3)
    assert f.evidence["market_hourly_offer"] == "Lambda" and f.evidence["market_hourly_as_of"] == "2026-09-25"
    assert "FEE-PRICE-ABOVE-MARKET" not in found


def test_offers_worked_out_once_per_question_are_the_offers_worked_out_afresh(kb) -> None:
    """rent_offers keeps each (GPU, count, rate, named provider) question's offers per clouds file:
    a second ask hands out a new list of the same offers, equal to working them out again, and a
    caller's edits to its list reach no other caller."""
    rate = kb.tco_value("usd_cny").value
    for gpu, count, named in (("h100-80gb-sxm", 16, None), ("h100-80gb-sxm", 16, "lambda"),
                              ("rtx-4090", 3, None), ("b200", 8, None)):
        fresh = O._rent_offers(kb.clouds, gpu, count, rate, named)
        first = O.rent_offers(kb.clouds, gpu, count, rate, named)
        assert fresh and first == fresh
        first.clear()
        again = O.rent_offers(kb.clouds, gpu, count, rate, named)
        assert again == fresh and again is not first
        assert all(a is b for a, b in zip(again, O.rent_offers(kb.clouds, gpu, count, rate, named), strict=True))
    # CNY offers (AutoDL's RTX 4090) need the rate: without it they are left out, a question kept apart
    without = O.rent_offers(kb.clouds, "rtx-4090", 8)
    assert without == O._rent_offers(kb.clouds, "rtx-4090", 8, None, None)
    assert {o.currency for o in without} == {"USD"}
    assert "CNY" in {o.currency for o in O.rent_offers(kb.clouds, "rtx-4090", 8, rate)}
