"""review55: the bundled examples and four 2026 buyers' inputs (tests/data/review55) read as the buyer and as the
approver who signs.

1. An audit of 8 used RTX 3090 in two 4-card workstations (tests/data/review55/proposals/d-buy-used-8x3090.yaml,
   hardware.nodes 2) estimated two desktops joined by 25 GbE (NET-SLOW-NETWORK said so) but priced one 8-card PCIe
   server: 'host server share $32,000.00' (8 x tco.yaml server_share_usd_per_gpu_pcie $4,000), the server's 410 W
   a card ('draws about 6.08 kW', '3.0 kW per node'), no network line, $35,110 net. The machines a proposal gives
   are what it buys where each holds no more cards than a desktop (prices.yaml max_per_node 4): 8 x $800
   (server_share_usd_per_gpu_consumer) = $6,400, two workstations' 2 x 250 W beside 8 x 350 W = 3.30 kW
   (1.6 kW a node), the two 25 GbE ports $920; $10,411 net.

2. FEE-PRICE-ABOVE-LIST warned 4 x RTX 4090 rented at RunPod's $0.74 ('2.2x the rate RunPod lists ... $0.34'),
   though $0.74 is the rate RunPod lists for its Secure Cloud (64 GB of RAM a GPU, what the offloaded 70B LoRA
   needs; knowledge/clouds.yaml); $0.34 is its Community Cloud's. A provider named with several listed rates is
   judged by the dearest of them the quote reaches.

3. A plan's PLAN-OWNED-CANNOT-RUN told a 13B pretraining run that misses its 45-day deadline on the owned 8 x A100
   (221.5 days) to use 'LoRA/QLoRA instead of full fine-tuning, a smaller model, 4-bit weights': its fix now says
   what to change for each reason (memory, time, software).

4. A plan's solver line wrote its counts ungrouped, '1031 variables' (zh '1031 个变量'), where every other count of
   the report is grouped: '1,031 variables'.

5. A service bought (tests/data/review55/recommend-dsv3-service.yaml: DeepSeek-V3 at 3 requests/s on 8 x B200 for
   three years) gave its cost per million output tokens as '$7.38 renting, $2.62 buying', the buying figure its
   $445,900 net of the $113,876 resale over 170,294 million tokens (the $559,776 it pays is $3.29), and `gpuwise
   estimate` its cost as '$445,900 (buy)': both now say net of resale, as every purchase beside a rental does.

6. The Chinese assumption naming the GPUs a published FP8 checkpoint is served in 16 bits on joined their names with
   English commas ('在 NVIDIA Tesla P100 SXM2 16GB, NVIDIA Tesla P100 PCIe 16GB, ... 上'): the names are a list
   the report joins in its language ('，').

7. An audit whose best alternative is the proposal's own setup (8 x B200 bought for three years to serve
   DeepSeek-V3, tests/data/review55/proposals/c-buy-8xb200-dsv3.yaml) offered it as 'The alternative: 8 x NVIDIA
   B200 ..., $427,165 net of resale' beside the same proposal, 'The alternative is not cheaper than the proposal',
   and the batch's summary named it 'Best alternative: 8 x NVIDIA B200' as if it were another: the result says so
   (alternative_is_proposal) and the reports with it ('The best alternative found is the proposal's own setup').

8. A plan's hosted-API table wrote Fireworks' Llama 3.3 70B price '$0.9 / $0.9' per million tokens beside Groq's
   '$0.59 / $0.79' (three significant figures, no trailing zero): a price keeps at least its two decimals, '$0.90'.

9. `gpuwise gpus` listed a V100 as 'BF16: 125' and a T4 as 'BF16: 65': their FP16 tensor peaks under the BF16
   header, for parts with no bf16 units (knowledge/gpus.yaml bf16 null; the estimates emulate bf16 in fp32 there).
   The column now says 'none (fp16 125)' (zh 无（fp16 125）).

10. An audit's verdict line gave a service that misses its p95 targets at the rate asked its throughput at that
   rate, 'The proposal: 8 x NVIDIA H200 SXM 141GB, rent, from runpod: 1,800 output tokens/s in total' (DeepSeek-V3
   at 3 requests/s, tests/data/review55/proposals/b-rent-8xh200-dsv3.yaml), above the table's 'Output tokens/s
   1,504', what it serves within the targets (2.51 requests/s x 600 tokens): the line gives the table's figure.

11. A Chinese estimate's memory layout read '显存布局：lora （冻结的 16 位基座分片到 2 块 GPU，fp32 适配器）': the
   bracket made full-width kept the ASCII space before it, where the reports' own brackets follow a word with none
   ('workload.precision = fp16（用于 8 种 GPU）'). A bracket after an operator keeps its space ('× （1 - 长租折扣）').

12. PWR-CONSUMER-CHASSIS warned the 4 x RTX 4090 rented from RunPod ('open-air coolers in one chassis ... Fix: Use
   blower-style or data-center cards for dense builds'): a rental's chassis is the provider's build, and the rule's
   three siblings (PWR-RACK-DENSITY, PWR-AIRFLOW, PWR-LIQUID-ONLY) judge purchases only. It does too now.

13. DATA-STALE-PRICE, the one warning that made the B200 purchase REVISE, was about the host server's share
   (tco.yaml server_share_usd_per_gpu_sxm, 2024-08-01) and told the approver to 'overlay it with --knowledge
   (clouds.yaml, prices)', neither of which holds it: the fix names where each kind of price lives.

14. `gpuwise prices --gpu rtx-4090` named RunPod's two tiers '(up to 8 GPUs, Community Cloud.)': the note's own full
   stop inside the item's bracket. It ends before the bracket now.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import ROOT, gpuwise, text_of
from tests.clirun import json_of as _json

HERE = ROOT / "tests/data/review55"
USED_3090 = str(HERE / "proposals/d-buy-used-8x3090.yaml")
RENT_4090 = str(HERE / "proposals/a-rent-4x4090-lora-offload.yaml")
PLAN = str(HERE / "plan-owned-a100-18m.yaml")


def _flat(s: str) -> str:
    return " ".join(s.split())


def test_cards_in_the_desktops_a_proposal_names_are_priced_as_desktops(tmp_path):
    d = _json(tmp_path, "audit", USED_3090)
    lines = {ln["kind"]: ln for ln in d["proposed"]["ledger"]["lines"]}
    # tco.yaml server_share_usd_per_gpu_consumer: $800 a card (a 4-card workstation build excluding the GPUs)
    assert lines["server"]["amount"] == pytest.approx(8 * 800)
    assert lines["server"]["inputs"]["gpus"] == 8 and "consumer" in lines["server"]["formula"]
    power = lines["power"]["inputs"]
    # gpus.yaml RTX 3090 TDP 350 W; tco.yaml workstation_host_w 250 W a desktop, two desktops
    assert power["host_w"] == pytest.approx(2 * 250) and power["it_kw"] == pytest.approx((8 * 350 + 500) / 1000)
    assert lines["power"]["amount"] == pytest.approx(3.3 * power["pue"] * power["busy_hours"] * 0.16)
    net = lines["network"]["inputs"]  # two 25 GbE ports, one a workstation (prices.yaml bought_fabric)
    assert net["fabric"] == "ethernet-25" and net["ports"] == 2
    total = sum(ln["amount"] for ln in lines.values())
    assert d["proposed"]["total_cost_usd"] == pytest.approx(total)
    assert total == pytest.approx(8 * 650 + 6400 + lines["network"]["amount"] + lines["power"]["amount"]
                                  + lines["resale"]["amount"])
    office = next(f for f in d["findings"] if f["rule"] == "MARKET-OFFICE-BEYOND")
    assert "about 3.30 kW" in office["message"]
    text = _flat(text_of(tmp_path, "audit", USED_3090, "--detail", "full"))
    assert "1.6 kW per node" in text and "6.08 kW" not in text


def test_buy_plan_takes_the_desktops_given_and_keeps_servers_otherwise(kb):
    from gpuwise.estimators import cost as K

    gpu = kb.gpus["rtx-3090"]
    two, _ = K.buy_plan(kb.prices, gpu, 8, kb.tco, condition="used", nodes=2)
    assert (two.sold_as, two.nodes, two.host_key) == ("workstation", 2, "server_share_usd_per_gpu_consumer")
    # no machines given, or one, or more cards a machine than a desktop holds: one 8-card PCIe server, as before
    for nodes in (None, 1):
        one, _ = K.buy_plan(kb.prices, gpu, 8, kb.tco, condition="used", nodes=nodes)
        assert (one.sold_as, one.nodes, one.host_key) == ("card", 1, "server_share_usd_per_gpu_pcie")
    sixteen, _ = K.buy_plan(kb.prices, gpu, 16, kb.tco, condition="used", nodes=2)
    assert (sixteen.sold_as, sixteen.nodes) == ("card", 2)


def test_a_quote_at_a_tier_the_named_provider_lists_is_not_a_markup(tmp_path):
    d = _json(tmp_path, "audit", RENT_4090)
    assert "FEE-PRICE-ABOVE-LIST" not in {f["rule"] for f in d["findings"]}
    # above every tier RunPod lists for an RTX 4090 ($0.34 Community, $0.74 Secure Cloud, knowledge/clouds.yaml
    # 2026-09-25): judged against the dearest, 1.60 / 0.74 = 2.16x, over the 1.5x policy
    dear = tmp_path / "dear.yaml"
    dear.write_text(Path(RENT_4090).read_text(encoding="utf-8").replace("hourly_usd: 0.74", "hourly_usd: 1.60"),
                    encoding="utf-8")
    found = {f["rule"]: f for f in _json(tmp_path, "audit", str(dear))["findings"]}
    ev = found["FEE-PRICE-ABOVE-LIST"]["evidence"]
    assert ev["market_hourly_usd"] == pytest.approx(0.74) and ev["hourly_ratio"] == pytest.approx(1.60 / 0.74, abs=1e-4)


def test_reference_offer_takes_the_dearest_tier_a_quote_reaches():
    from types import SimpleNamespace

    from gpuwise.estimators import offers as O
    from tests.test_offers import _offer

    nets = {"eth": SimpleNamespace(shared_by="node")}
    community = _offer(provider="pods", gpus=4, usd_per_hour=4 * 0.34, network="eth")
    secure = _offer(provider="pods", gpus=4, usd_per_hour=4 * 0.74, network="eth")
    offers = [community, secure]
    assert O.reference_offer(offers, nets, provider="pods")[:2] == (community, pytest.approx(0.34))
    assert O.reference_offer(offers, nets, provider="pods", quote=0.74)[:2] == (secure, pytest.approx(0.74))
    assert O.reference_offer(offers, nets, provider="pods", quote=0.70)[:2] == (community, pytest.approx(0.34))
    assert O.reference_offer(offers, nets, provider="pods", quote=0.30)[:2] == (community, pytest.approx(0.34))
    # no provider named: the cheapest of the market, whatever the quote
    assert O.reference_offer(offers, nets, quote=0.74)[1:] == (pytest.approx(0.34), "cheapest")


def test_a_plans_owned_cannot_run_fix_fits_a_missed_deadline_and_the_solver_groups_its_counts(tmp_path):
    d = _json(tmp_path, "plan", PLAN)
    f = next(x for x in d["findings"] if x["rule"] == "PLAN-OWNED-CANNOT-RUN")
    assert "pretrain-13b" in f["message"] and "45.0 days allowed" in f["message"]
    assert "where time is short, fewer training tokens or a later deadline" in f["fix"]
    assert "instead of full fine-tuning" not in f["fix"]
    n, rows = d["solver"]["variables"], d["solver"]["rows"]
    assert n >= 1000  # the grouping shows
    brief = _flat(gpuwise("plan", PLAN).stdout)
    assert f"{n:,} variables, {rows:,} constraints." in brief and f"{n} variables" not in brief
    zh = gpuwise("plan", PLAN, "--lang", "zh", "--detail", "full").stdout
    assert f"{n:,} 个变量" in zh and "时间不足时，减少训练词元数或推迟截止期限" in "".join(zh.split())


DSV3 = str(HERE / "recommend-dsv3-service.yaml")


def test_a_bought_services_cost_per_million_tokens_and_the_estimates_cost_say_net_of_resale(tmp_path):
    d = _json(tmp_path, "recommend", DSV3)
    rec = d["recommendation"]
    assert rec["acquisition"] == "buy"
    lines = {ln["kind"]: ln["amount"] for ln in rec["ledger"]["lines"]}
    assert lines["resale"] < 0
    # 3 requests/s x 600 output tokens = 1,800 tokens/s over 36 x 730 h
    tokens_m = 1800 * 3600 * 36 * 730 / 1e6
    per_m = rec["total_cost_usd"] / tokens_m
    brief = _flat(gpuwise("recommend", DSV3).stdout)
    assert f"${per_m:.2f} buying net of resale (at this load, all the time)" in brief, brief
    zh = "".join(gpuwise("recommend", DSV3, "--lang", "zh").stdout.split())
    assert f"扣除转售后购买${per_m:.2f}（按该负载全天候运行）" in zh
    est = _flat(gpuwise("estimate", DSV3, "--gpu", "b200", "--gpus", "8").stdout)
    assert f"Cost ${rec['total_cost_usd']:,.0f} net of resale (buy)" in est


def test_the_gpus_a_published_checkpoint_is_not_served_on_are_listed_in_the_reports_language(tmp_path):
    d = _json(tmp_path, "recommend", DSV3)
    fp16 = next(a for a in d["assumptions"] if a["field"] == "workload.precision" and a["value"] == "fp16")
    names = fp16["values"]["gpus"]
    assert len(names) > 2
    en = _flat(gpuwise("recommend", DSV3, "--detail", "full").stdout)
    assert f"on {', '.join(names)}: SGLang has no kernels for the fp8 checkpoint there" in en
    zh = "".join(gpuwise("recommend", DSV3, "--lang", "zh", "--detail", "full").stdout.split())  # wraps anywhere
    listed = "".join(f"在 {'，'.join(names)} 上：SGLang 没有适用于 fp8 检查点的内核".split())
    assert listed in zh
    assert "".join(f"{names[0]}, {names[1]}".split()) not in zh


B200_BUY = str(HERE / "proposals/c-buy-8xb200-dsv3.yaml")


def test_an_audit_whose_best_alternative_is_the_proposal_says_so(tmp_path):
    d = _json(tmp_path, "audit", B200_BUY)
    alt, prop = d["alternative"], d["proposed"]
    assert (alt["gpu"], alt["count"], alt["acquisition"]) == (prop["gpu"], prop["count"], prop["acquisition"])
    assert alt["total_cost_usd"] == pytest.approx(prop["total_cost_usd"]) and d["alternative_is_proposal"] is True
    text = _flat(gpuwise("audit", B200_BUY).stdout)
    assert "The best alternative found is the proposal's own setup: nothing in the catalog does the job for less." \
        in text and "The alternative is not cheaper than the proposal." not in text
    batch = _flat(gpuwise("audit", str(HERE / "proposals")).stdout)
    assert "Best alternative: 8 × NVIDIA B200 (HGX B200) 180GB (the proposal's own setup)" in batch
    # another GPU that costs more is not the proposal's own (the 4090 rental's alternative, 16 x B200)
    other = _json(tmp_path, "audit", RENT_4090)
    assert other["alternative_is_proposal"] is False


def test_a_plans_api_prices_keep_two_decimals(tmp_path):
    d = _json(tmp_path, "plan", PLAN)
    fw = next(a for a in d["api"] if a["provider"].startswith("Fireworks"))
    assert fw["input_per_million"] == pytest.approx(0.9)  # knowledge/apis.yaml (Fireworks serverless pricing)
    full = _flat(gpuwise("plan", PLAN, "--detail", "full").stdout)
    assert "Per million in / out: $0.90 / $0.90;" in full and "$0.9 /" not in full
    assert "Per million in / out: $0.59 / $0.79;" in full


def test_the_gpu_catalog_shows_no_bf16_peak_for_a_part_without_bf16(kb):
    v100, a100 = kb.gpus["v100-16gb-sxm2"].peaks, kb.gpus["a100-80gb-sxm"].peaks
    assert v100.bf16 is None and v100.fp16 == 125  # NVIDIA V100 datasheet: 125 TFLOPS tensor (FP16); no BF16
    text = _flat(gpuwise("gpus").stdout)
    assert "v100-16gb-sxm2 arch: volta; cc: 7.0; SMs: 80; memory: 16 GB HBM2; BW: 900; BF16: none (fp16 125);" in text
    assert f"BF16: {a100.bf16:g};" in text  # a part with bf16 units: its figure as before (312)
    zh = "".join(gpuwise("gpus", "--lang", "zh").stdout.split())
    assert "BF16：无（fp16125）" in zh


H200_RENT = str(HERE / "proposals/b-rent-8xh200-dsv3.yaml")


def test_an_audits_verdict_line_gives_the_tokens_the_table_beside_it_gives(tmp_path):
    d = _json(tmp_path, "audit", H200_RENT)
    rate = d["proposed"]["serving"]["rate"]
    assert rate["meets_requests_per_s"] is False and rate["max_requests_per_s"] < 3
    served = rate["at_max"]["output_tokens_per_s"]
    assert served == pytest.approx(rate["max_requests_per_s"] * 600, rel=0.01)  # 600-token answers
    full = _flat(gpuwise("audit", H200_RENT, "--detail", "full").stdout)
    line = f"The proposal: 8 × NVIDIA H200 SXM 141GB, rent, from runpod: {served:,.0f} output tokens/s in total,"
    assert line in full and f"Output tokens/s {served:,.0f} 1,800" in full
    assert "from runpod: 1,800 output tokens/s in total" not in full


LORA = str(HERE / "recommend-lora-70b-consumer.yaml")


def test_a_bracket_made_full_width_after_a_word_takes_no_space():
    from gpuwise.render.words import fullwidth

    assert fullwidth("lora (冻结的 16 位基座)") == "lora（冻结的 16 位基座）"
    assert fullwidth("$/h × 小时数 × (1 - 长租折扣)") == "$/h × 小时数 × （1 - 长租折扣）"
    assert fullwidth("(tensor parallel 8)") == "(tensor parallel 8)"  # no Chinese: as written
    zh = gpuwise("estimate", LORA, "--gpu", "4090", "--lang", "zh").stdout
    assert "显存布局：lora（冻结的 16 位基座分片到" in zh and "lora （" not in zh


def test_a_rentals_chassis_is_not_the_buyers_build(tmp_path):
    rented = {f["rule"] for f in _json(tmp_path, "audit", RENT_4090)["findings"]}
    assert "PWR-CONSUMER-CHASSIS" not in rented
    bought = {f["rule"]: f for f in _json(tmp_path, "audit", USED_3090)["findings"]}
    # 4 x RTX 3090 a workstation (350 W each, policy dense_node_min_gpus / _tdp_w): 4 x 350 + 250 W = 1.65 kW
    assert "1.6 kW per node" in bought["PWR-CONSUMER-CHASSIS"]["message"]


def test_a_stale_host_share_is_told_where_to_overlay_it(tmp_path):
    d = _json(tmp_path, "audit", B200_BUY)
    stale = next(f for f in d["findings"] if f["rule"] == "DATA-STALE-PRICE")
    assert stale["evidence"]["kind"] == "host" and "server_share_usd_per_gpu_sxm" in stale["evidence"]["what"]
    assert "a host server's share in tco.yaml" in stale["fix"]


def test_an_offers_note_ends_before_the_items_bracket():
    # a wide terminal: one line a row, the item's cell beside its amount (a narrower one wraps the cells or stacks
    # the rows, whichever takes fewer lines)
    text = _flat(gpuwise("prices", "--gpu", "rtx-4090", env={"COLUMNS": "300"}).stdout)
    # knowledge/clouds.yaml RunPod RTX 4090 notes 'Community Cloud.' and 'Secure Cloud.'
    assert "runpod: per GPU (up to 8 GPUs, Community Cloud) 0.34 USD" in text
    assert "Secure Cloud) 0.74 USD" in text and "Cloud.)" not in text
