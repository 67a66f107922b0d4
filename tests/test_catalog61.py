"""catalog61: the workstation, GeForce and small data-centre cards buyers ask about, read back against the vendor's
numbers (each written here with its document) and, where the vendor gives only a sparse or an 'AI TOPS' headline,
against the hand arithmetic SMs x 1,024 FP16 FLOP per clock per SM (FP16 accumulate, dense; the per-SM rate of
NVIDIA's GA102 whitepaper Appendix A and Ada whitepaper Appendix A) x boost clock."""

from __future__ import annotations

import pytest

from .clirun import gpuwise as cli

# id: (memory GB, GB/s, FP32, dense BF16 with FP32 accumulate, dense FP8 or None, TDP W, document)
DATASHEET = {
    "rtx-a5000": (24, 768, 27.8, 222.2 / 2, None, 230, "RTX A5000 datasheet: 'Tensor performance 222.2 TFLOPS' sparse"),
    "rtx-a4000": (16, 448, 19.2, 153.4 / 2, None, 140, "RTX A4000 datasheet: 'Tensor performance 153.4 TFLOPS' sparse"),
    "rtx-4000-ada": (20, 360, 26.7, 327.6 / 4, 327.6 / 2, 130, "RTX 4000 Ada datasheet: 327.6 TFLOPS sparse FP8"),
    "rtx-5000-ada": (32, 576, 65.3, 1044.4 / 4, 1044.4 / 2, 250, "RTX 5000 Ada datasheet: 1,044.4 TFLOPS sparse FP8"),
    "a2": (16, 200, 4.5, 18, None, 60, "A2 datasheet: BF16 18 | 36 sparse, 40-60 W"),
    "rtx-3080": (10, 760, 29.8, 59.5, None, 320, "GA102 whitepaper Appendix A: FP16 w/ FP32 acc 59.5 / 119"),
    "rtx-4080": (16, 716.8, 48.7, 97.5, 194.9, 320, "Ada whitepaper Appendix A: 97.5 / 194.9 dense / sparse"),
    "v100s-pcie-32gb": (32, 1134, 16.4, None, None, 250, "Tesla V100S datasheet: FP32 16.4, tensor 130 (FP16 only)"),
}

# id: (SMs, boost GHz, GB/s = Gbps x bus bits / 8, TDP W, the product page's sparse 'AI TOPS' or None)
# from NVIDIA's GeForce product specification pages; GeForce halves the FP32-accumulate rate
GEFORCE = {
    "rtx-3060-12gb": (28, 1.777, 15 * 192 / 8, 170, None),
    "rtx-3080-ti": (80, 1.665, 19 * 384 / 8, 350, None),
    "rtx-3090-ti": (84, 1.86, 21 * 384 / 8, 450, None),
    "rtx-4080-super": (80, 2.55, 23 * 256 / 8, 320, 836),
    "rtx-4070-ti-super": (66, 2.61, 21 * 256 / 8, 285, 706),
    "rtx-5080": (84, 2.617, 30 * 256 / 8, 360, 1801),
    "rtx-5070-ti": (70, 2.452, 28 * 256 / 8, 300, 1406),
}


@pytest.mark.parametrize("gid", sorted(DATASHEET))
def test_datasheet_figures_read_back(kb, gid):
    gb, bw, fp32, bf16, fp8, tdp, _doc = DATASHEET[gid]
    g = kb.gpus[gid]
    assert (g.memory.gb, g.memory.bandwidth_gb_s, g.peaks.fp32, g.power.tdp_w) == (gb, bw, fp32, tdp)
    if gid == "v100s-pcie-32gb":  # Volta: FP16-only tensor cores, 130 TFLOPS
        assert (g.peaks.fp16, g.peaks.bf16, g.peaks.fp64) == (130, None, 8.2)
        return
    assert g.peaks.bf16 == g.peaks.fp16 == pytest.approx(bf16, abs=0.06)
    assert g.peaks.fp8 == (pytest.approx(fp8, abs=0.06) if fp8 else None)
    assert g.peaks.sparse_halved == (g.segment == "workstation")  # only the pro datasheets print sparse alone


@pytest.mark.parametrize("gid", sorted(GEFORCE))
def test_geforce_peaks_by_hand(kb, gid):
    sms, ghz, bw, tdp, ai_tops = GEFORCE[gid]
    g = kb.gpus[gid]
    fp16_acc = sms * 1024 * ghz / 1000  # dense FP16 with FP16 accumulate, TFLOP/s
    assert g.segment == "consumer" and not g.peaks.sparse_halved
    assert g.memory.bandwidth_gb_s == bw and g.power.tdp_w == tdp
    assert g.peaks.bf16 == pytest.approx(fp16_acc / 2, abs=0.06)  # halved: FP32 accumulate
    assert g.peaks.tf32 == pytest.approx(fp16_acc / 4, abs=0.06)
    assert g.peaks.int8 == pytest.approx(2 * fp16_acc, abs=0.15)
    if g.architecture != "ampere":
        assert g.peaks.fp8 == pytest.approx(fp16_acc, abs=0.06)  # FP8 with FP32 accumulate
    if g.architecture == "blackwell":  # 'AI TOPS' is sparse FP4
        assert g.peaks.fp4 == pytest.approx(ai_tops / 2, abs=0.6)
    elif ai_tops:  # Ada: 'AI TOPS' is sparse FP8 / INT8 with FP16 accumulate
        assert g.peaks.int8 == pytest.approx(ai_tops / 2, abs=0.6)


def test_rtx_4080_whitepaper_peak_matches_the_compare_page(kb):
    """NVIDIA's GeForce compare page gives the RTX 4080 '780 AI TOPS' (sparse FP8 / INT8, FP16 accumulate): the
    Ada whitepaper's dense INT8 389.9 doubled, 76 SMs x 4,096 x 2.505 GHz = 779.8 (catalogcheck61)."""
    assert 2 * kb.gpus["rtx-4080"].peaks.int8 == pytest.approx(780, abs=0.6)


@pytest.mark.parametrize(("typed", "gid"), [
    ("RTX4080", "rtx-4080"), ("4080 super", "rtx-4080-super"), ("4080S", "rtx-4080-super"), ("A5000", "rtx-a5000"),
    ("RTX A4000", "rtx-a4000"), ("RTX 4000 Ada", "rtx-4000-ada"), ("5000 Ada", "rtx-5000-ada"), ("A2", "a2"),
    ("RTX 3060", "rtx-3060-12gb"), ("3060 12GB", "rtx-3060-12gb"), ("3080", "rtx-3080"), ("3080 Ti", "rtx-3080-ti"),
    ("RTX 3090 Ti", "rtx-3090-ti"), ("4070 Ti SUPER", "rtx-4070-ti-super"), ("RTX 5080", "rtx-5080"),
    ("5070 Ti", "rtx-5070-ti"), ("RTX 3090", "rtx-3090"), ("4090", "rtx-4090"), ("V100S", "v100s-pcie-32gb"),
    ("V100 PCIe 32GB", "v100-32gb-pcie"),
])
def test_names_as_users_write_them(kb, typed, gid):
    assert kb.gpu(typed).id == gid


def test_every_added_card_has_its_market_and_no_invented_price(kb):
    added = set(DATASHEET) | set(GEFORCE)
    markets = {m.id: m for m in kb.prices.markets}
    priced = {g.id for g in kb.prices.gpus}
    assert {e.id for e in kb.prices.excluded} | priced >= added  # each priced with a dated source, or excluded
    for gid in added:  # TPP = dense 8-bit TOPS x 8 (or FP4 x 4), all below 3A090's 4,800
        g = kb.gpus[gid]
        tpp = max((g.peaks.int8 or 0) * 8, (g.peaks.fp4 or 0) * 4, (g.peaks.fp16 or 0) * 16)
        assert tpp < 4800 and markets[gid].sold_in_china, gid


def test_estimate_and_the_listing_take_the_new_cards(tmp_path):
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, precision: bf16}\n",
                                     encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "A5000", cwd=tmp_path)
    assert r.returncode == 0 and "Capacity per GPU     24.0 GB" in r.stdout, r.stderr
    listing = cli("gpus", cwd=tmp_path).stdout
    assert all(gid in listing for gid in set(DATASHEET) | set(GEFORCE))


# AMD's MI210 / MI100 figures (AMD's specification table as AnandTech printed it, 22 Mar 2022): CUs, FP32 vector,
# FP16 matrix, INT8, HBM GB, TB/s (Gbps x 4,096 bit / 8), W; the MI100 runs BF16 at half its FP16 rate
@pytest.mark.parametrize(("gid", "arch", "isa", "fp32", "fp16", "bf16", "gb", "bw", "tdp"), [
    ("mi210", "cdna2", "gfx90a", 22.6, 181, 181, 64, 3.2 * 4096 / 8, 300),
    ("mi100", "cdna1", "gfx908", 23.1, 184.6, 184.6 / 2, 32, 2.4 * 4096 / 8, 300),
])
def test_instinct_pcie_cards(kb, gid, arch, isa, fp32, fp16, bf16, gb, bw, tdp):
    g = kb.gpus[gid]
    assert (g.architecture, g.isa, g.peaks.fp32, g.peaks.fp16, g.peaks.int8) == (arch, isa, fp32, fp16, fp16)
    assert g.peaks.bf16 == pytest.approx(bf16, abs=0.06) and g.peaks.fp8 is None and g.peaks.tf32 is None
    assert (g.memory.gb, g.memory.bandwidth_gb_s, g.power.tdp_w) == (gb, bw, tdp)
    assert g.architecture in kb.runtime.mfu and kb.gpu(gid.upper()).id == gid


def test_vllm_refuses_the_mi100_and_takes_the_mi210(tmp_path):
    """vLLM's ROCm build lists gfx90a and newer, not gfx908 (software.yaml): the MI100 is refused by
    CPT-FRAMEWORK-GFX for vLLM, the MI210 is not."""
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: vllm}\n"
                                     "constraints: {gpus: [MI100, MI210]}\n", encoding="utf-8")
    out = cli("recommend", "r.yaml", cwd=tmp_path).stdout
    assert "not AMD Instinct MI100 32GB (gfx908)" in out and "(gfx90a)" not in out, out


# AMD's product pages: RX 7900 XTX 24 GB, 960 GB/s (20 Gbps x 384 bit), FP16 122.8 = 96 CUs x 512 x 2.5 GHz, 355 W;
# Radeon PRO W7900 48 GB ECC, 864 GB/s (18 Gbps x 384 bit), FP16 122.6, 295 W
@pytest.mark.parametrize(("typed", "gid", "gb", "bw", "fp16", "tdp"), [
    ("7900 XTX", "rx-7900-xtx", 24, 20 * 384 / 8, 96 * 512 * 2.5 / 1000, 355),
    ("W7900", "radeon-pro-w7900", 48, 18 * 384 / 8, 122.6, 295),
])
def test_rdna3_cards(kb, typed, gid, gb, bw, fp16, tdp):
    g = kb.gpus[kb.gpu(typed).id]
    assert (g.id, g.architecture, g.isa, g.memory.gb, g.memory.bandwidth_gb_s, g.power.tdp_w) == \
        (gid, "rdna3", "gfx1100", gb, bw, tdp)
    assert g.peaks.bf16 == g.peaks.fp16 == pytest.approx(fp16, abs=0.1) and g.peaks.fp8 is None
    # AMD GPUOpen's RDNA 4 matrix-core post: the RX 7900 XTX (RDNA 3) runs FP16, BF16 and I8 at 512 per clock per CU
    assert g.peaks.int8 == g.peaks.fp16


def test_rdna3_training_share_by_hand(kb):
    """runtime.mfu rdna3: 0.62 (ampere, on A100 GEMMs at 85.9% of peak) x 91.7 / 122.8 (the middle of three
    machines' RX 7900 XTX BF16 GEMM medians, zzc0721/torch-performance-test-data #58 / #68 / #103) / 0.859."""
    assert kb.runtime.mfu["rdna3"].value == round(0.62 * (91.7 / 122.8) / 0.859, 2) == 0.54


def test_tensorrt_llm_is_refused_on_a_radeon(tmp_path):
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: tensorrt-llm}\n"
                                     "constraints: {gpus: [7900 XTX]}\n", encoding="utf-8")
    out = cli("recommend", "r.yaml", cwd=tmp_path).stdout
    assert "CPT-FRAMEWORK-NOT-ON-STACK" in out, out
