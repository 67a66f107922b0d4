"""Branch review60 (session 48): the reports of this session's changes read as the buyer and as the approver who
signs (spot prices, GB200 racks, a desktop's RAM, a stated facility, host-RAM findings). Each test fails on the
branch point a785af98 and works its figure by hand; tests/data/validation/README.md, section review60, lists them."""
from __future__ import annotations

import json

from tests.test_buyer_questions import _ask

EX = "examples/proposal-16x4090-70b-full.yaml"


def _audit(path: str, *args: str) -> tuple[dict, dict]:
    _, out = _ask("audit", path, "--format", "json", *args)
    d = json.loads(out)
    return d, {f["rule"]: f for f in d["findings"]}


def test_host_ram_short_says_the_offloaded_state_is_each_nodes():
    """16 RTX 4090 on 2 nodes, Llama-2-70B full, PP8 DP2 ZeRO-1 with CPU offload (examples/): a stage holds 10 of the
    80 layers (855.6M parameters each: 2 x 8192^2 + 2 x 8192 x 1024 + 3 x 8192 x 28672) and the 32,000 x 8192
    embedding, 8.82e9 parameters; on the host each GPU keeps its half of the Adam state with fp32 master (12 B / 2,
    ZeRO-1 over DP2) and the fp32 gradients (4 B, unsharded at ZeRO-1): 8.82e9 x 10 B = 88.2 GB, x 8 GPUs a node =
    705 GB, over the usable 0.8 of the RAM (runtime.yaml host_ram_fraction_usable) 882 GB a node. The 705 GB is one
    node's (the two nodes hold 1,411 GB); the message said 'the training state moved off its GPUs is 705 GB' beside
    '16 x', which reads as the 16 GPUs' state."""
    _, rules = _audit(EX)
    f = rules["MEM-HOST-RAM-SHORT"]
    stage = 10 * (2 * 8192**2 + 2 * 8192 * 1024 + 3 * 8192 * 28672) + 32000 * 8192
    assert abs(f["values"]["offloaded_state_gb"] - stage * 10 * 8 / 1e9) < 0.01 * 705
    assert "the training state moved off each node's GPUs is 705 GB" in f["message"]
    _, zh = _ask("audit", EX, "--lang", "zh")
    assert "每个节点移出GPU的训练状态为705GB" in "".join(zh.split())


def test_an_assumed_spot_rate_is_not_listed_as_a_spot_price():
    """8 H100 on RunPod spot (tests/data/product63): RunPod publishes no spot price, so the rate billed is its
    on-demand $2.69 (clouds.yaml, 2026-09-25) x (1 - 0.55) = $1.2105 a GPU-hour. The brief's Data freshness listed it
    as 'rent ... on runpod, spot (2026-09-25, 73 days old)', a dated spot price that does not exist; the JSON's
    prices_used said term 'spot'. Now 'spot-assumed', worded so; Google Cloud's published spot price stays 'spot'."""
    d, _ = _audit("tests/data/product63/audit-spot-8-h100-runpod.yaml")
    (used,) = [e for e in d["prices_used"] if e["kind"] == "rent" and not e.get("alternative")]
    assert used["term"] == "spot-assumed" and abs(used["amount"] - 2.69 * (1 - 0.55)) < 1e-6
    _, text = _ask("audit", "tests/data/product63/audit-spot-8-h100-runpod.yaml")
    assert "on runpod, spot at an assumed discount off its on-demand price (2026-09-25" in " ".join(text.split())
    d, _ = _audit("tests/data/product63/audit-spot-8-h100.yaml")
    (used,) = [e for e in d["prices_used"] if e["kind"] == "rent" and not e.get("alternative")]
    assert used["term"] == "spot" and abs(used["amount"] - 35.3957 / 8) < 1e-6  # a3-highgpu-8g hour_spot, 2025-03-06


def test_a_desktop_builds_ram_finding_names_the_figure_it_read():
    """4 bought RTX PRO 6000 (tests/data/product63), a workstation card in a desktop: the host the price buys holds
    tco.yaml desktop_host_ram_gb_per_gpu, 48 GB a card (tinybox green v2 blackwell: 192 GB for 4), so 4 x 48 = 192 GB
    against the 655 GB the offload needs (32.76e9 parameters x 16 B / 0.8). MEM-HOST-RAM-BUY's source named only
    runtime.yaml rented_host_ram, the servers' figure (125 GB a workstation card) product63 replaced for desktops, so
    an approver checking the 192 GB looked in the wrong file."""
    _, rules = _audit("tests/data/product63/audit-buy-4-rtx-pro-6000.yaml")
    f = rules["MEM-HOST-RAM-BUY"]
    assert f["values"]["typical_host_ram_gb"] == 4 * 48
    assert "tco.yaml desktop_host_ram_gb_per_gpu" in f["source"]


def test_the_plans_where_table_says_which_months_in_chinese():
    """tests/data/review60/plan-two-wide-runs.yaml: both runs are in month 2 (cadence at_month: 2), one on the 3
    owned RTX 4090, one rented whole (plan63). The 'Where each workload runs' column lists the months a row runs in
    ('2', or a range '1-12'); its zh heading was 月数 ('number of months'), so '月数 2' read as two months. Now 月份
    (which months), as the cash-flow table's 月份."""
    _, out = _ask("plan", "tests/data/review60/plan-two-wide-runs.yaml", "--lang", "zh")
    where = out.split("各工作负载的运行位置")[1].splitlines()
    header = next(ln for ln in where if "工作负载" in ln)
    assert "月份" in header and "月数" not in header
    rows = [ln.split() for ln in where if ln.strip().startswith(("tune-a", "tune-b"))]
    assert len(rows) == 2 and all(r[-2:][0] == "2" and r[-1] == "790" for r in rows)  # month 2; 2 x 394.8 h


def test_the_facility_blockers_fix_does_not_send_the_servers_where_they_are_priced():
    """examples/proposal-16x4090-70b-full.yaml states an 8 kW facility and no hosting: 16 x (450 W RTX 4090 +
    410 W host share, tco.yaml host_power_w_per_gpu) = 13.76 kW, so PWR-OVER-FACILITY blocks, while
    PWR-FACILITY-SITE-ASSUMED says the facility is taken to be the colocation site the purchase is priced in
    (13.76 kW x $250 a kW-month x 12 = $41,280). The blocker's fix ended 'or host the servers in a colocation
    facility': the site the same report says they are in."""
    _, rules = _audit(EX)
    block, site = rules["PWR-OVER-FACILITY"], rules["PWR-FACILITY-SITE-ASSUMED"]
    assert abs(block["values"]["rack_kw"] - 16 * (450 + 410) / 1000) < 1e-9
    assert "colocation site the purchase is priced in" in site["message"]
    assert "in a colocation facility" not in block["fix"] and "a site that supplies that power" in block["fix"]
    _, zh = _ask("audit", EX, "--lang", "zh", "--detail", "full")
    assert "托管到专业机房" not in zh


def test_a_context_parallel_layout_multiplies_to_its_gpus():
    """tests/data/review60/recommend-gb200-70b-cp.yaml: 64 GB200 with CP2 and ZeRO-3, micro-batch 1, 16 accumulation
    steps of 8,192-token sequences: 4,194,304 tokens a step = 1 x 16 x 32 replicas x 8,192, so 32 replicas of 2
    context-parallel GPUs make the 64. The brief's Layout row read 'CP 2 x DP 64' (128 by the row's own product,
    words.training_layout: 'the dense split, whose degrees multiply to the GPUs') and the notation 'TP1 PP1 DP64 CP2',
    which Megatron's count (TP x PP x CP x DP) also reads as 128. The JSON's layout keeps dp = 64 (tp x pp x dp =
    GPUs, the contract)."""
    _, out = _ask("recommend", "tests/data/review60/recommend-gb200-70b-cp.yaml", "--format", "json")
    d = json.loads(out)
    lay = d["estimate"]["gpu"]["layout"]
    count = d["recommendation"]["count"]
    assert (count, lay["cp"], lay["dp"], lay["micro_batch"], lay["grad_accum"]) == (64, 2, 64, 1, 16)
    assert d["estimate"]["gpu"]["training"]["layout_notation"].startswith("TP1 PP1 DP32 CP2")
    assert lay["global_batch_tokens"] == 1 * 16 * (64 // 2) * 8192
    _, text = _ask("recommend", "tests/data/review60/recommend-gb200-70b-cp.yaml")
    flat = " ".join(text.split())
    assert "CP 2 × DP 32, micro-batch 1, 16 accumulation steps (4,194,304" in flat
    assert "(TP1 PP1 DP32 CP2 ZeRO-3)" in flat and "DP64" not in flat


def test_a_stepped_rental_is_not_said_to_be_the_fewest_it_rents():
    """100 GB200 at CoreWeave (tests/data/product63): whole racks of 72 (clouds.yaml step_gpus, min_gpus 72), so
    ceil(100 / 72) x 72 = 144 GPUs are billed at 144 x $10.50 = $1,512 an hour. The Cost line said 'bills 144 GPUs,
    the fewest it rents them in' (zh: 它出租这些 GPU 的最少数量, 'the fewest it rents'), while FEE-RENT-STEP beside
    it and `gpuwise prices` say it rents from 72: 144 is the fewest that hold the 100."""
    d, rules = _audit("tests/data/product63/audit-gb200-100.yaml")
    (rent,) = [ln for ln in d["proposed"]["ledger"]["lines"] if ln["kind"] == "rent"]
    assert rent["inputs"]["gpus_paid"] == -(-100 // 72) * 72 == 144
    assert rent["inputs"]["usd_per_hour"] == 144 * 10.50
    assert rules["FEE-RENT-STEP"]["values"]["rental_step_gpus"] == 72
    _, text = _ask("audit", "tests/data/product63/audit-gb200-100.yaml")
    assert "bills 144 GPUs, the fewest it rents that hold the 100, at $10.50" in " ".join(text.split())
    _, zh = _ask("audit", "tests/data/product63/audit-gb200-100.yaml", "--lang", "zh")
    assert "它能容纳这100个GPU的最少出租数量" in "".join(zh.split())


def test_the_cost_line_says_an_assumed_spot_rate_is_assumed():
    """8 H100 on RunPod spot: $2.69 x (1 - 0.55) = $1.2105 a GPU-hour, billed for 228.3 h x 1.08 (reclaims) + 0.25 h
    start-up: 8 x $1.2105 x 246.81 h = $2,390. The brief's Cost line said 'renting from runpod at $1.21 per GPU-hour
    costs $2,390' as if quoted (product63's Left); it now says the rate is assumed, in both languages. Google Cloud's
    published spot price (a3-highgpu-8g $35.3957 / 8 = $4.42) is said as before."""
    d, _ = _audit("tests/data/product63/audit-spot-8-h100-runpod.yaml")
    hours = sum(ln["inputs"]["hours"] for ln in d["proposed"]["ledger"]["lines"] if ln["kind"] == "rent") * 1.08 + 0.25
    assert abs(d["proposed"]["total_cost_usd"] - 8 * 2.69 * 0.45 * hours) < 0.01
    _, text = _ask("audit", "tests/data/product63/audit-spot-8-h100-runpod.yaml")
    assert ("at $1.21 per GPU-hour (an assumed spot rate: its on-demand price less 55%) costs $2,390"
            in " ".join(text.split()))
    _, zh = _ask("audit", "tests/data/product63/audit-spot-8-h100-runpod.yaml", "--lang", "zh")
    assert "$1.21（假设的竞价单价：其按需价格减去55%）租用" in "".join(zh.split())
    _, text = _ask("audit", "tests/data/product63/audit-spot-8-h100.yaml")
    flat = " ".join(text.split())
    assert "at $4.42 per GPU-hour costs $8,736" in flat and "assumed spot rate" not in flat


def test_an_alternative_that_is_only_slower_is_said_to_take_longer():
    """100 GB200 rented for a 70B pretrain (tests/data/product63; product64: over ethernet-25 stated, as the figures
    were worked when CoreWeave's racks took the Ethernet default): the alternative buys 8 B300 and runs the same
    2e11 tokens in 109.3 days instead of 12.0, for $435,443 - $115,470 = $319,973 less. The verdict said 'costs
    $319,973 less but does not do the same work: 109.3 days instead of 12.0 days' (zh 完成的工作不同): the work is
    the same, only the time is given up (alternative_gives_up holds wall_days alone). A serving alternative that
    gives up throughput or latency still 'does not do the same work' (tests/test_ledger.py)."""
    d, _ = _audit("tests/data/product64/audit-gb200-100-ethernet.yaml")
    assert [g["what"] for g in d["alternative_gives_up"]] == ["wall_days"]
    saved = round(d["proposed"]["total_cost_usd"]) - round(d["alternative"]["total_cost_usd"])
    assert saved == 435443 - 115470 == 319973
    _, text = _ask("audit", "tests/data/product64/audit-gb200-100-ethernet.yaml")
    flat = " ".join(text.split())
    assert "costs $319,973 less but takes longer: 109.3 days instead of 12.0 days" in flat
    assert "does not do the same work" not in flat
    _, zh = _ask("audit", "tests/data/product64/audit-gb200-100-ethernet.yaml", "--lang", "zh")
    assert "替代方案便宜$319,973，但耗时更长：109.3天，而非12.0天" in "".join(zh.split())
