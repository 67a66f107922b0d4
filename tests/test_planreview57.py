"""``gpuwise plan`` checked by hand, as the approver who signs it (planreview57).

Small plans whose optimum is worked out from the knowledge files the plan reads: a steady service where a 1-year
commitment beats on-demand and where it does not (the break-even hours a day, a horizon shorter than the term), a
purchase whose colocation minimum, power and resale are priced line by line, a service on owned GPUs with a burst
rented on demand, and the plan's own row of the baselines table, which said 'Keeps to the constraints: yes' beside
its own PLAN-BUDGET-OVER blockers and its own unplaced work (the baselines beside it, at the same total, said no).
"""

from __future__ import annotations

import pytest

from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from gpuwise.render import plan_view

KB = load()
HOURS = 730.0  # a month's hours as the plan bills them (gpuwise/ledger.py HOURS_PER_MONTH: 8,760 / 12)
DAYS = HOURS / 24

G5 = next(i for i in KB.clouds.instances if i.id == "g5.xlarge")  # AWS's one-A10G instance, the only A10G offer
ON_DEMAND = G5.usd_per_hour  # knowledge/clouds.yaml g5.xlarge: $1.006 an hour (AWS us-east-1)
YEAR = G5.reserved_per_hour["1-year"]  # the same: $0.63378 an hour on a 1-year commitment, billed every hour


def chat(hours_per_day: float = 24) -> dict:
    """Llama 3.1 8B served one sequence at a time: one copy on one A10G (16 GB of weights in its 24 GB)."""
    return {"name": "chat-8b", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 500,
                                            "output_tokens": 200},
            "cadence": {"continuous": True, "hours_per_day": hours_per_day}, "targets": {"concurrency": 1}}


def a10g_plan(horizon: int, hours_per_day: float = 24, **constraints) -> object:
    return plan({"horizon_months": horizon, "workloads": [chat(hours_per_day)],
                 "constraints": {"acquisition": "rent", "gpus": ["a10g"], **constraints}})


def test_the_catalog_prices_the_test_reads():
    assert (G5.usd_per_hour, G5.reserved_per_hour["1-year"]) == pytest.approx((1.006, 0.63378))


@pytest.mark.parametrize(("horizon", "hours_per_day", "committed"), [
    (12, 24, True),   # on demand 12 x 730 x $1.006 = $8,812.56; the year $0.63378 x 8,760 = $5,551.91
    (12, 16, True),   # on demand 16 x 365 x $1.006 = $5,875.04 > $5,551.91 (break-even 24 x 0.63378 / 1.006 = 15.1 h)
    (12, 15, False),  # on demand 15 x 365 x $1.006 = $5,507.85 < $5,551.91
    (9, 24, True),    # 9 months on demand $6,609.42 > the whole year's $5,551.91, three months of it unused
    (7, 24, False),   # 7 months on demand $5,140.66 < $5,551.91
])
def test_a_commitment_against_on_demand_by_hand(horizon, hours_per_day, committed):
    on_demand = ON_DEMAND * hours_per_day * DAYS * horizon
    term = YEAR * 12 * HOURS  # the whole term, whether the horizon uses it or not
    r = a10g_plan(horizon, hours_per_day)
    assert r.total == pytest.approx(min(on_demand, term), rel=1e-9)
    assert bool(r.answer.commitments) is committed
    if committed:
        (c,) = r.answer.commitments
        assert (c.term, c.start, c.count, c.amount) == ("1-year", 1, 1, pytest.approx(term, rel=1e-9))
        # each month of the horizon pays its 730 hours; the months past it are paid in the last one
        assert [m.rent for m in r.months] == pytest.approx(
            [YEAR * HOURS] * (horizon - 1) + [YEAR * HOURS * (1 + 12 - horizon)], rel=1e-9)
    else:
        assert [m.rent for m in r.months] == pytest.approx([ON_DEMAND * hours_per_day * DAYS] * horizon, rel=1e-9)
    assert r.answer.why_not == ""


def test_a_purchase_priced_line_by_line():
    """One RTX 4090 workstation bought in month 1 (delivery a month) serving 24 hours a day from month 2, hosted in
    colocation at $0.20 a kWh: capex (the card's dated price + the consumer host share), the colocation site's 2 kW
    minimum at $250 a kW-month (the workstation's own 0.7 kW and the top-up to 2 kW), power at the site's PUE 1.58,
    and the card (not the host) resold at 0.70 after 12 months (tco.yaml resale_fraction_per_year)."""
    r = plan({"horizon_months": 12, "workloads": [chat()],
              "constraints": {"acquisition": "buy", "hosting": "colocation", "electricity_usd_per_kwh": 0.20,
                              "gpus": ["rtx-4090"]}})
    tco = KB.tco
    colo = tco.hosting["colocation"]
    (p,) = r.purchases
    card = next(ln for ln in r.lines if ln.kind == "capex").inputs["hardware_usd"]
    host = tco.values["server_share_usd_per_gpu_consumer"].value
    assert p.amount == pytest.approx(card + host)
    tdp, host_w = 450.0, 250.0  # RTX 4090 total graphics power; the consumer host's watts a GPU (its power line)
    kw = (tdp + host_w) / 1000
    power = kw * colo.pue * 0.20 * HOURS  # a month of one GPU's hours
    hosting = max(kw, colo.min_billed_kw) * colo.rent_usd_per_kw_month
    resale = card * 0.70
    months_running = 11  # months 2-12
    assert r.months[0].capex == pytest.approx(card + host) and r.months[0].opex == 0
    assert all(m.hosting == pytest.approx(hosting) and m.power == pytest.approx(power) for m in r.months[1:])
    assert r.months[-1].resale == pytest.approx(-resale)
    assert r.total == pytest.approx(card + host + months_running * (hosting + power) - resale, rel=1e-6)
    # month 1 has no GPU: the service is left out then, and the plan says it keeps no constraint it breaks
    assert [u.months for u in r.unplaced] == [[1]]
    assert r.answer.why_not == "unplaced"


def test_owned_gpu_carries_the_service_and_a_burst_rents():
    """One owned RTX 4090 in the office serves all day (power only: 0.70 kW x PUE 1.0 x $0.20 x 730 h a month: the
    card's 450 W and its desktop's 250 W, tco.yaml workstation_host_w, as the same card bought; it was the server's
    410 W a GPU, 0.86 kW, before planleft58);
    the month-3 fine-tune finds it held and rents a RunPod 4090 ($0.34 an hour, knowledge/clouds.yaml) for its wall
    hours; renting everything would rent the service too."""
    r = plan({"horizon_months": 6, "owned": [{"gpu": "RTX 4090", "count": 1, "hosting": "office"}],
              "workloads": [chat(), {"name": "burst", "workload": {"task": "finetune", "method": "lora",
                                                                   "model": "llama-3.1-8b", "seq_len": 2048,
                                                                   "train_tokens": 5.0e7},
                                     "cadence": {"at_month": 3}, "deadline_days": 2}],
              "constraints": {"acquisition": "rent", "electricity_usd_per_kwh": 0.20, "gpus": ["rtx-4090"]}})
    burst = next(o for o in r.options if o.workload == "burst")
    rate = next(o for o in KB.clouds.gpu_hour_prices if o.gpu == "rtx-4090" and o.provider == "runpod")
    assert burst.rent_per_hour == pytest.approx(rate.usd_per_gpu_hour)
    power = (450 + 250) / 1000 * 1.0 * 0.20 * HOURS  # tco.yaml workstation_host_w 250 (one desktop), office PUE 1.0
    rent = burst.rent_per_hour * burst.wall_hours
    assert r.total == pytest.approx(6 * power + rent, rel=1e-6)
    assert r.baselines["rent_all"] == pytest.approx(6 * HOURS * rate.usd_per_gpu_hour + rent, rel=1e-6)
    (cap,) = [b for b in r.binding if b.binding]
    # the copy holds the one GPU and every schedulable hour of it in month 3: both rows are full (the entry says the
    # GPUs held); the LP prices one more GPU-hour (plansolve62: read with the run's held switch free), the run's rent
    # less its power, $0.34 - 0.70 kW x $0.20 = $0.20 (it priced the count row, the whole run's $1.69, before runs
    # held their GPUs whole: the two sides of one degenerate vertex)
    assert (cap.kind, cap.held_months, cap.hours_months) == ("capacity", [3], [])
    assert cap.value == pytest.approx(rate.usd_per_gpu_hour - (450 + 250) / 1000 * 0.20, rel=1e-3)


def test_a_plan_over_its_budget_says_it_does_not_keep_to_the_constraints():
    """$1,000 a quarter against a year's commitment at $1,386.92 a quarter ($0.63378 x 730 x 3): every quarter is
    over by $386.92, four PLAN-BUDGET-OVER blockers; the plan's row in the baselines table said 'yes', while
    renting everything, at the same total, said 'no: over a budget'."""
    r = a10g_plan(12, budget_per_quarter_usd=1000)
    assert r.total == pytest.approx(YEAR * 12 * HOURS)
    over = [b.over for b in r.binding if b.kind == "budget"]
    assert over == pytest.approx([YEAR * 3 * HOURS - 1000] * 4, abs=0.01)
    assert r.answer.why_not == "over_budget"
    text = plan_view.render(r, "text", detail="full", width=200)
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("this plan"))
    assert " no " in f"{row} " and "over a budget" in row
    zh = plan_view.render(r, "text", lang="zh", width=200)
    row = next(ln for ln in zh.splitlines() if ln.strip().startswith("本计划"))
    assert "否" in row and "是" not in row


def test_a_plan_that_leaves_work_unplaced_says_so_in_its_row():
    """Buying only, the 4090 arrives in month 2: month 1's service is left out, as the baseline that buys the same
    card says ('leaves work unplaced') at the same total."""
    r = plan({"horizon_months": 3, "workloads": [chat()],
              "constraints": {"acquisition": "buy", "hosting": "colocation", "gpus": ["rtx-4090"]}})
    peak = next(b for b in r.baseline_details if b.name == "buy_for_peak")
    assert peak.total == pytest.approx(r.total) and peak.why_not == "unplaced"
    assert r.answer.why_not == "unplaced"
    text = plan_view.render(r, "text", width=200)
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("this plan"))
    assert "leaves work unplaced" in row and "yes" not in row


# ------------------------------------------------------------------- copies that share one rental
LAMBDA_V100 = next(o for o in KB.clouds.gpu_hour_prices if o.gpu == "v100-16gb-sxm2" and o.provider == "lambda")
P3 = next(i for i in KB.clouds.instances if i.id == "p3.2xlarge")  # AWS's one-V100 instance, $3.06 an hour


def v100_plan(concurrency: int) -> object:
    """Llama 3.2 3B in fp16 (V100: compute capability 7.0, no bf16 kernels), one V100 16GB a copy."""
    return plan({"horizon_months": 1, "workloads": [{
        "name": "chat-3b", "workload": {"task": "inference", "model": "llama-3.2-3b", "precision": "fp16",
                                        "prompt_tokens": 500, "output_tokens": 200},
        "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"concurrency": concurrency}}],
        "constraints": {"acquisition": "rent", "gpus": ["v100-16gb-sxm2"]}})


def test_copies_share_a_node_rented_whole():
    """Lambda rents V100s only as a whole 8-GPU node (clouds.yaml min_gpus 8, $0.79 a GPU-hour: $6.32 an hour);
    AWS rents one as p3.2xlarge at $3.06. One or two one-GPU copies are cheaper on AWS (2 x $3.06 = $6.12); three
    fit the one Lambda node (8 copies' room) for $6.32 an hour where AWS costs 3 x $3.06 = $9.18: $4,613.60 a
    month against $6,701.40. The plan priced every copy alone, at the cheapest offer for one copy."""
    assert (LAMBDA_V100.min_gpus, LAMBDA_V100.usd_per_gpu_hour, P3.usd_per_hour) == (8, 0.79, 3.06)
    node = LAMBDA_V100.min_gpus * LAMBDA_V100.usd_per_gpu_hour
    cap = next(o for o in v100_plan(1).options if o.workload == "chat-3b").capacity  # sequences one copy holds
    two = v100_plan(int(2 * cap))
    assert two.total == pytest.approx(2 * P3.usd_per_hour * HOURS, rel=1e-9)
    three = v100_plan(int(2 * cap) + 1)
    assert three.total == pytest.approx(node * HOURS, rel=1e-9)
    (line,) = [ln for ln in three.lines if ln.kind == "rent"]
    assert line.inputs["provider"] == "lambda" and line.inputs["rentals"] == 1
    (placed,) = three.months[0].placements
    assert (placed.copies, placed.count, placed.acquisition) == (3, 8, "rent")  # 3 copies on the node's 8 GPUs paid
    assert placed.gpu_hours == pytest.approx(8 * HOURS)
    (opt,) = three.options  # the full report's options name both rentals
    assert (opt.rent_provider, opt.rent_per_hour, opt.pack_provider, opt.pack_gpus, opt.pack_copies,
            opt.pack_per_hour) == ("aws", 3.06, "lambda", 8, 8, pytest.approx(node))
    full = plan_view.render(three, "text", detail="full", width=300)
    assert "aws; or lambda: 8 GPUs rented whole, room for 8 copies, $6.32 an hour" in full
    assert "或 lambda：整份租用 8 块 GPU，可容纳 8 个副本" in plan_view.render(three, "text", detail="full", lang="zh",
                                                                width=300)
    # 9 one-GPU copies' load (the node's 8 and one p3.2xlarge, $9.38 an hour) is carried by 2 copies of four V100s
    # in the one node (plancopy57: tensor parallel 4 holds 548 sequences, ceil(649 / 548) = 2, the node's room): $6.32
    # (two a copy are not tried: AWS rents them only as two p3.2xlarge, not the one server they are estimated in)
    nine = v100_plan(int(8 * cap) + 1)
    (opt,) = nine.options
    assert [(c.count, c.capacity, c.copies) for c in opt.copy_sizes] == [(1, cap, 9), (4, 548.0, 2)]
    assert (opt.count, opt.pack_copies) == (4, 2) and int(8 * cap) + 1 == 649
    assert nine.total == pytest.approx(node * HOURS, rel=1e-9)


def test_a_one_month_plan_says_one_month():
    """'GPU plan for 1 months' and 'Cost over 1 months' on a one-month plan's page; zh has no plural."""
    r = v100_plan(1)
    text = plan_view.render(r, "text", width=200)
    assert text.startswith("GPU plan for 1 month\n") and "Cost over 1 month: " in text and "1 months" not in text
    assert plan_view.render(a10g_plan(7), "text", width=200).startswith("GPU plan for 7 months\n")
    assert plan_view.render(r, "text", lang="zh", width=200).startswith("1 个月 GPU 规划\n")


def test_a_growing_service_over_two_years_mixes_nodes_and_single_copies():
    """163 sequences growing 10 % a month for 24 months (the program solved in two steps): each month's copies
    ceil(163 x 1.1^(m-1) / capacity), carried at the cheapest mix of whole Lambda nodes ($6.32, 8 copies) and AWS
    one-V100 instances ($3.06), worked out month by month by hand; $156,570.40 with the estimate's 81 a copy. Since
    plancopy57 the copy is four V100s (tensor parallel 4 holds 548 sequences, 3 copies at the peak against 19 of
    one), two to a Lambda node and one alone on a whole node (Lambda's min_gpus 8; AWS sells no 4-V100 server in
    the knowledge): each month ceil(copies / 2) nodes at $6.32, $129,180.80."""
    import math

    node = LAMBDA_V100.min_gpus * LAMBDA_V100.usd_per_gpu_hour
    cap = next(o for o in v100_plan(1).options if o.workload == "chat-3b").capacity
    r = plan({"horizon_months": 24, "workloads": [{
        "name": "chat-3b", "workload": {"task": "inference", "model": "llama-3.2-3b", "precision": "fp16",
                                        "prompt_tokens": 500, "output_tokens": 200},
        "cadence": {"continuous": True, "hours_per_day": 24, "growth_per_month": 0.1},
        "targets": {"concurrency": 163}}], "constraints": {"acquisition": "rent", "gpus": ["v100-16gb-sxm2"]}})
    by_hand = 0.0
    for m in range(1, 25):
        copies = math.ceil(163 * 1.1 ** (m - 1) / cap - 1e-9)
        by_hand += HOURS * min(a * node + max(0, copies - 8 * a) * P3.usd_per_hour for a in range(copies // 8 + 2))
    assert by_hand == pytest.approx(156570.40)  # the fewest's copies, the plan before plancopy57
    (opt,) = r.options
    assert (opt.count, opt.capacity, opt.rent_provider, opt.rent_per_hour, opt.pack_copies) == (4, 548.0, "lambda",
                                                                                                pytest.approx(node), 2)
    fours = sum(HOURS * node * math.ceil(math.ceil(163 * 1.1 ** (m - 1) / 548 - 1e-9) / 2) for m in range(1, 25))
    assert r.total == pytest.approx(fours, rel=1e-9) == pytest.approx(129180.80)


@pytest.mark.parametrize("usd_per_kwh", [0.15, 0.10])
def test_an_office_purchase_against_renting_by_hand(usd_per_kwh):
    """The same 4090 workstation bought into an office (no rent, PUE 1.0, the workstation's 250 W host,
    tco.yaml workstation_host_w): month 1 rented at $0.34 while it is delivered, then 11 months of its power, the
    card resold at 0.70: $2,839.35 at $0.15 a kWh and $2,558.30 at $0.10, against renting all 12 months at
    $2,978.40. Without the resale ($2,211.99) buying would cost $5,051 and lose."""
    r = plan({"horizon_months": 12, "workloads": [chat()],
              "constraints": {"acquisition": "either", "hosting": "office", "electricity_usd_per_kwh": usd_per_kwh,
                              "gpus": ["rtx-4090"]}})
    card = next(ln for ln in r.lines if ln.kind == "capex").inputs["hardware_usd"]
    hour = min(o.usd_per_gpu_hour for o in KB.clouds.gpu_hour_prices  # RunPod's $0.34 (knowledge/clouds.yaml)
               if o.gpu == "rtx-4090" and o.usd_per_gpu_hour is not None)
    power = (450 + KB.tco.values["workstation_host_w"].value) / 1000 * 1.0 * usd_per_kwh * HOURS
    buy = card + KB.tco.values["server_share_usd_per_gpu_consumer"].value + hour * HOURS + 11 * power - 0.70 * card
    assert r.total == pytest.approx(buy, rel=1e-6)
    assert r.baselines["rent_all"] == pytest.approx(12 * hour * HOURS, rel=1e-9)
    assert r.total < r.baselines["rent_all"] and [p.month for p in r.purchases] == [1]
