"""Held-out scenarios run as a new user would (issues 13 and 14), each with what a senior ML
infrastructure buyer expects of the answer: units a seller sells, the network stated or priced,
memory headroom kept, hosting costed, prices dated, parts that cannot be bought in a market
flagged, and model memory against the published checkpoints.

The requirement files are in tests/data/heldout/; each number below is a hand calculation from
the knowledge base's sourced figures (named at each assertion), not the code's own formula."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise import estimate, messages, recommend
from gpuwise.estimators import cost as K
from gpuwise.knowledge import load

HERE = Path(__file__).parent / "data" / "heldout"
TODAY_YEAR = 2026


@pytest.fixture(scope="module")
def kb():
    return load()


def _file(name: str) -> str:
    return str(HERE / name)


def _rules(result) -> set[str]:
    return {f.rule for f in result.findings}


def _rank1(result):
    return next(c for c in result.candidates if c.rank == 1)


# ------------------------------------------------------------------ issue 13: buying judgement

def test_serving_cluster_for_70b_is_bought_as_whole_baseboards_with_hosting(kb):
    """Buy a serving cluster for Llama-3.1-70B, 50 users, 50 ms TPOT, 3 years in colocation.
    SXM/OAM modules are sold on 4- or 8-GPU HGX baseboards (8 for MI300X/B200/Gaudi): no
    1- or 2-GPU purchase of them may be offered, and the answer is a buy, not a rental place."""
    res = recommend(_file("serve-70b-buy-3y.yaml"))
    rec = res.recommendation
    assert rec is not None and rec.acquisition == "buy"
    assert rec.provider is None  # "Where: runpod" must not be printed for a purchase
    sizes = {g.id: g.units.sizes for g in kb.prices.gpus if g.units.sold_as == "server"}
    for c in res.candidates:
        if c.feasible and c.acquisition == "buy" and c.gpu in sizes:
            big = max(sizes[c.gpu])
            assert c.count in sizes[c.gpu] or c.count % big == 0, (c.gpu, c.count)
        if c.feasible:  # the memory-headroom policy is never traded for cost
            assert c.memory_per_gpu_bytes <= c.usable_per_gpu_bytes
    # TPOT target met by the answer (the user's 50 ms)
    est = estimate(_file("serve-70b-buy-3y.yaml"), gpu=rec.gpu, gpus=rec.count)
    assert est.gpu.serving.tpot_s <= 0.050


def test_four_h200_bought_for_three_years_by_hand(kb):
    """4 x H200 SXM for 36 months in colocation, by hand from the knowledge base's sourced figures:
    cards: half of an 8-GPU HGX H200 baseboard at $236,000 (runlocalai.co Q1 2026: H200 SXM
    $28-31k retail) = $118,000; host: $7,000 per GPU (tco.yaml server_share_usd_per_gpu_sxm) =
    $28,000; IT load 4 x (700 W TDP, NVIDIA H200 datasheet + 410 W host, DGX A100 system power) =
    4.44 kW; colocation $250 per kW-month (retail cabinet rates) x 36 = $39,960; energy 4.44 kW x
    PUE 1.58 (Uptime Institute) x 26,280 h x $0.15 = $27,654; resale 0.70^3 of the cards."""
    est = estimate(_file("serve-70b-buy-3y.yaml"), gpu="H200", gpus=4)
    lines = est.gpu.cost.buy_lines
    assert lines.cards == pytest.approx(118_000, rel=1e-6)
    assert lines.server == pytest.approx(28_000, rel=1e-6)
    assert lines.hosting == pytest.approx(4.44 * 250 * 36, rel=1e-3)
    assert lines.power == pytest.approx(4.44 * 1.58 * 36 * 730 * 0.15, rel=1e-3)
    assert lines.resale == pytest.approx(-118_000 * 0.7 ** 3, rel=1e-3)
    assert lines.network == 0  # one server: no scale-out fabric to buy
    # two H200 SXM cannot be bought: the baseboards hold 4 or 8
    plan, why = K.buy_plan(kb.prices, kb.gpus["h200-141gb-sxm"], 2, kb.tco)
    assert plan is None and "buy 4" in messages.phrase_text(why)


def test_8b_full_finetune_meets_its_deadline_within_memory_headroom(kb):
    """Llama-3.1-8B full fine-tune on 3B tokens, 14-day deadline. Training FLOPs = 6 N D
    (Kaplan et al. 2020) over the matmul parameters, N = 8.03e9 less the input embedding
    (128,256 x 4,096 = 0.525e9; Llama 3.1 8B config.json), plus causal attention
    6 x layers x seq x hidden per token; and the answer keeps the memory headroom."""
    res = recommend(_file("finetune-8b-full-deadline.yaml"))
    rec = res.recommendation
    assert rec is not None and rec.wall_days <= 14
    top = _rank1(res)
    assert top.memory_per_gpu_bytes <= top.usable_per_gpu_bytes
    assert "MEM-TIGHT" not in top.rules
    est = estimate(_file("finetune-8b-full-deadline.yaml"), gpu=rec.gpu, gpus=rec.count)
    six_nd = 6 * (8.03e9 - 128_256 * 4096) * 3.0e9
    attention = 6 * 32 * 4096 * 4096 * 3.0e9
    assert est.compute.flops == pytest.approx(six_nd + attention, rel=0.01)
    # a RunPod pod is one machine: more than 8 GPUs are never rented from it
    for c in res.candidates:
        if c.provider == "runpod":
            assert c.count <= 8, (c.gpu, c.count)


def test_rented_multinode_pcie_carries_a_stated_or_assumed_network(kb):
    """Renting 4 nodes of PCIe cards for a 70B LoRA fine-tune. RunPod pods reach each other only
    over Global Networking at 100 Mbps (docs.runpod.io/pods/networking), so no multi-node RunPod
    rental; an offer that states no network gets the Ethernet-class default, said as an
    assumption, never the datacenter InfiniBand of a DGX."""
    res = recommend(_file("rent-pcie-multinode-70b-lora.yaml"))
    assert res.recommendation is not None
    multi = [c for c in res.candidates if c.feasible and c.nodes > 1]
    assert multi, "the scenario must judge multi-node rentals"
    assert all(c.provider != "runpod" for c in multi)
    nets = [a for a in res.assumptions if a.field == "network"]
    assert nets and nets[0].value == "ethernet-25"
    assert K.rent_offers(kb.clouds, "l40s", 32) and all(o.provider != "runpod"
                                                         for o in K.rent_offers(kb.clouds, "l40s", 32))
    assert any(o.provider == "runpod" for o in K.rent_offers(kb.clouds, "l40s", 8))


def test_a_year_of_one_4090_in_an_office_by_hand():
    """One RTX 4090 busy all year with QLoRA experiments, bought and run in an office: no rent,
    PUE 1.0 (tco.yaml hosting.office). Hand calculation: card $3,159.99 (lowest new Amazon US
    listing, 2025-07-22, United-Compute gpu-price-tracker) + $800 desktop share; energy (450 W
    TDP, NVIDIA RTX 4090 spec + 250 W workstation host) x busy hours x $0.15; resale 70% after a
    year. Busy hours from the published speed: torchtune's README measures Llama 3.1 8B QLoRA on one 4090 at 2,413
    tokens/s (packed 2,048, torch.compile); the middle stack (no compile) at 1,943 tokens/s a step x 0.85 whole-run
    efficiency = 1,652 tokens/s, 40B tokens in ~6,725 hours (280 days): inside the year, so the 4090 is feasible.
    Buy vs rent by hand: buying costs $1,748 + $0.105 an hour, renting $0.34 an hour, even at ~7,440 hours; below
    that renting wins."""
    est = estimate(_file("one-4090-office-year.yaml"), gpu="RTX 4090", gpus=1)
    g = est.gpu
    lines = g.cost.buy_lines
    hours = g.wall_hours
    # most of a year, not a weekend: between torchtune's compiled 2,413 tokens/s x 0.85 (5,417 h) and the whole year
    assert 40e9 / (2413 * 0.85) / 3600 < hours < 8760
    assert lines.cards == pytest.approx(3159.99, rel=1e-6)
    assert lines.server == pytest.approx(800, rel=1e-6)
    assert lines.hosting == 0
    assert lines.power == pytest.approx(0.700 * 1.0 * hours * 0.15, rel=2e-3)
    assert lines.resale == pytest.approx(-3159.99 * 0.70, rel=1e-3)
    buy = 3159.99 + 800 + 0.7 * hours * 0.15 - 3159.99 * 0.7
    assert g.cost.buy_usd == pytest.approx(buy, rel=2e-3)
    assert g.cost.rent_usd == pytest.approx(0.34 * hours, rel=2e-3)
    assert g.acquisition == ("buy" if buy < 0.34 * hours else "rent")


def test_workstation_cards_beyond_a_desktop_go_in_a_pcie_server(kb):
    """Four double-width consumer cards fit a desktop; eight are a 4U PCIe GPU server (the
    topology the performance model uses is one node of 8, so the bill must be one server too)."""
    g = kb.gpus["rtx-4090"]
    four, _ = K.buy_plan(kb.prices, g, 4, kb.tco)
    eight, _ = K.buy_plan(kb.prices, g, 8, kb.tco)
    assert four.sold_as == "workstation" and four.nodes == 1
    assert four.host_usd == pytest.approx(4 * 800)
    assert eight.sold_as == "card" and eight.nodes == 1
    assert eight.host_usd == pytest.approx(8 * 4000)  # tco.yaml server_share_usd_per_gpu_pcie


# ------------------------------------------------------------ issue 14: 2025-26 catalog, China

@pytest.mark.parametrize("name, expected", [
    ("B200", "b200"), ("B300", "b300"), ("GB200", "gb200"), ("MI325X", "mi325x"), ("MI355X", "mi355x"),
    ("H20", "h20-96gb-sxm"), ("RTX 5090", "rtx-5090"), ("RTX PRO 6000 Blackwell", "rtx-pro-6000-blackwell"),
    ("Gaudi 3", "gaudi3-128gb-oam"), ("Ascend 910B", "ascend-910b"), ("Ascend 910C", "ascend-910c"),
])
def test_2025_26_gpus_by_their_usual_names(kb, name, expected):
    assert kb.gpu(name).id == expected


@pytest.mark.parametrize("name", ["DeepSeek-V3", "DeepSeek-R1", "Qwen3-32B", "Qwen3-30B-A3B", "Qwen3-235B-A22B",
                                  "Llama-4-Scout", "Llama-4-Maverick", "gpt-oss-20b", "gpt-oss-120b", "Kimi-K2",
                                  "GLM-4.5"])
def test_2025_26_models_by_their_usual_names(kb, name):
    m = kb.models[kb.model(name).id]
    assert m.source and m.params_b > 1


def test_deepseek_r1_fp8_weights_against_the_published_checkpoint():
    """deepseek-ai/DeepSeek-R1 model.safetensors.index.json: total_size 688,586,727,753 bytes,
    which holds the 671B main model in FP8 (128x128 blocks, FP32 scales) plus the 14B-parameter
    multi-token-prediction module that plain serving does not load. The weights we size must be
    below the published total and within 3% of it (the MTP module is ~1.7% of it)."""
    est = estimate(_file("deepseek-r1-fp8-serve.yaml"))
    w = est.memory.breakdown["weights"]
    assert w < 688.59e9
    assert w == pytest.approx(688.59e9, rel=0.03)


def test_deepseek_r1_answer_fits_and_is_rentable_as_stated():
    res = recommend(_file("deepseek-r1-fp8-serve.yaml"))
    top = _rank1(res)
    assert top.memory_per_gpu_bytes <= top.usable_per_gpu_bytes
    assert top.count * top.capacity_per_gpu_bytes > 688.59e9  # all the weights somewhere
    if top.acquisition == "rent" and top.provider == "runpod":
        assert top.count <= 8


def test_gpt_oss_120b_mxfp4_weights_against_the_model_card():
    """OpenAI gpt-oss model card (arXiv:2508.10925): checkpoint 60.8 GiB = 65.28 GB, MoE weights
    in MXFP4 (4.25 bits with the shared scale, OCP MX v1.0), the rest BF16; fits one 80 GB GPU.
    Within 3%: the estimator stores the attention projections in MXFP4 too (BF16 in the release)."""
    est = estimate(_file("gpt-oss-120b-fp4-serve.yaml"), gpu="H100", gpus=1)
    w = est.memory.breakdown["weights"]
    assert w == pytest.approx(65.28e9, rel=0.03)
    assert est.gpu.fits


def test_moe_pretrain_flops_from_active_params_and_a_layout_that_scales():
    """A DeepSeekMoE-16B-like model (64 routed + 2 shared experts, 6 per token; 2.8B active of
    16B, arXiv:2401.06066) pretrained on 2T tokens on up to 64 H100. FLOPs follow the ACTIVE
    matmul parameters: 6 x (2.8e9 less the 102,400 x 2,048 input embedding) x 2e12 = 3.11e22, plus
    causal attention 6 x 28 x 4096 x 2048 per token (0.28e22) -- not 6 x 16e9 x 2e12 = 1.9e23.
    Over 8 nodes the rental must be a cluster with a stated per-GPU RDMA network, and the layout
    must keep most of the GPUs busy."""
    res = recommend(_file("moe-16b-a3b-pretrain-h100.yaml"))
    rec = res.recommendation
    assert rec is not None
    est = estimate(_file("moe-16b-a3b-pretrain-h100.yaml"), gpu=rec.gpu, gpus=rec.count)
    attention = 6 * 28 * 4096 * 2048 * 2.0e12
    assert est.compute.flops == pytest.approx(6 * (2.8e9 - 102_400 * 2048) * 2.0e12 + attention, rel=0.01)
    assert est.compute.flops < 0.3 * 6 * 16e9 * 2.0e12
    lay = est.gpu.layout
    assert lay.tp * lay.pp * lay.dp == rec.count
    top = _rank1(res)
    if top.nodes > 1:
        assert top.provider in ("nebius", "coreweave", "aws", "gcp", "azure")  # a stated RDMA fabric
        assert top.scaling_efficiency >= 0.8


def test_china_shortlist_ends_in_a_priced_purchase_in_cny(kb):
    """A mainland-China team buys for Llama-3.1-70B with 2,000,000 yuan. The answer must be a
    part sold in China, priced (the H20 8-GPU module at RMB 880,000, Tencent Technology
    2025-12-24), the budget converted at the ECB cross rate of 21 July 2026 (7.7255 / 1.1418 = 6.7661), and the
    export-controlled H100 flagged, not offered."""
    res = recommend(_file("china-shortlist-cny.yaml"))
    rec = res.recommendation
    assert rec is not None and rec.acquisition == "buy" and rec.total_cost_usd > 0
    assert rec.gpu in {"h20-96gb-sxm", "h20-141gb", "rtx-4090d", "l20", "ascend-910b"}
    assert "MARKET-EXPORT-BUY" in _rules(res)
    blocked = [f for f in res.findings if f.rule == "MARKET-EXPORT-BUY"]
    assert all(f.subject == "h100-80gb-sxm" for f in blocked)
    over = [f for f in res.findings if f.rule == "TCO-OVER-BUDGET"]
    if over:
        assert over[0].evidence["budget_usd"] == pytest.approx(2_000_000 / 6.7661, rel=1e-4)
    if rec.gpu == "h20-96gb-sxm":
        est = estimate(_file("china-shortlist-cny.yaml"), gpu=rec.gpu, gpus=rec.count)
        assert est.gpu.cost.buy_lines.cards == pytest.approx(880_000 / 6.7661 * rec.count / 8, rel=1e-4)
    # vLLM serves on Ascend through the vllm-ascend plugin: the 910B is judged on memory and price,
    # not refused as an unsupported vendor
    assert not any(f.rule == "CMP-FRAMEWORK-GPU" and f.subject == "ascend-910b" for f in res.findings)


def test_a_listed_gpu_that_cannot_win_is_shown_where_it_fails_last():
    """A short-listed GPU with no feasible configuration is named in the alternatives by the
    configuration that got furthest, smallest first: 4 x H100 SXM (a whole baseboard) blocked by
    the export rule, not 2 x (a count nobody sells) nor the largest count tried."""
    res = recommend(_file("china-shortlist-cny.yaml"))
    h100 = [a for a in res.alternatives if a.gpu == "h100-80gb-sxm"]
    assert len(h100) == 1 and h100[0].count == 4
    assert any("mainland China" in r for r in h100[0].reasons)
