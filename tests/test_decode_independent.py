"""Single-stream decode rows gathered from sources the project had not used (tests/data/validation/
decode_independent.csv, rows E.. to O.. and B..; blind figures in the validation README). The file is not gated as a
whole (its misses stay visible); these tests hold the rows a mechanism moved, and the ones it meets, each named
with its source, so that a change that undoes the mechanism or breaks the rows it meets fails here."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def rows(kb, accuracy):
    return {label.split()[0]: (est, got) for label, est, got in
            accuracy.single_stream_cases(kb, accuracy.DECODE_INDEPENDENT)}


@pytest.mark.parametrize(("row", "published"), [("E07", 43.25), ("K12", 17.0)])
def test_cross_node_tensor_parallel_rows_are_estimated_within_2x(rows, row, published):
    """E07 (tenstorrent/tt-inference-server issue #356: DeepSeek-R1-0528 FP8, SGLang TP16 on 2 x 8 H100 over
    InfiniBand, 23.1 ms a token) and K12 (sgl-project/sglang pull request #3582: R1 on 2 x 8 H20, --tp 16 --nnodes 2,
    17 tok/s without NextN) were refused as input errors until session 20. Their 122 all-reduces a token now cross
    the network at a fixed part plus the bytes at the NIC: nccl-tests' 47.6 us at first (8 B over 2 x 8 H20 on
    InfiniBand NDR with NVLSTree forced, NVIDIA/nccl issue #1244): E07 +95.9%, K12 +99.9%; since SGLang's own
    figure, NCCL's tree over LL without NVLink SHARP, which SGLang turns off (61.58 us at 128 B on 2 x 8 H100,
    NVIDIA/nccl issue #1453; not set from these rows): E07 +71.1%, K12 +68.6%; E07 priced at the release of its
    month (0.4.9, July 2025: 6 us a counted kernel, where the newest release's fused kernels take 2 us) +20.0%.
    Both fast and held within 2x (validation README: early-2025 SGLang's R1 decode step on Hopper is slower than
    the model inside one node too, V01)."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert 1.0 <= est / got <= 2.0, (row, est, got)


def test_r1_nvfp4_min_latency_reads_its_bf16_attention(rows):
    """E01: TensorRT-LLM's 'How to get best performance on DeepSeek-R1', B200 min-latency (nvidia/DeepSeek-R1-FP4 on
    8 x B200, TP8 EP2, MTP 3): 274.72 tok/s. Blind +58.1%; with the checkpoint's BF16 attention inputs and the
    replicated MLA down-projections and router (NVIDIA's model cards, blog 1's precision table) +47.4%. The rest is
    the 2025 build's per-layer kernel time (validation README), so the row is held between 1.0x and 1.5x."""
    est, got = rows["E01"]
    assert got == pytest.approx(274.72)
    assert 1.0 <= est / got <= 1.5


@pytest.mark.parametrize(("row", "published", "within"), [
    ("F04", 137.18, 0.25),  # Qwen3-30B-A3B BF16, 1 x H20 (blind +22.0%)
    ("F06", 71.65, 0.10),   # Qwen3-235B-A22B FP8, 4 x H20 TP4 (blind +3.6%)
    # gpt-oss-20b MXFP4, RTX 5090, llama.cpp (Hardware Corner via smeltcore; blind -4.5%)
    pytest.param("E05", 298.2, 0.10, marks=pytest.mark.xfail(strict=True, reason=(
        "+18% since llama.cpp's per-layer cost is priced by build (20 us a layer from the Aug 2025 build, the "
        "row taken at the newest): the same model on the same card reads 337.0 on build 9976 (DV03, +7%); "
        "tests/data/validation/README.md, 'llama.cpp's per-layer cost by build'"))),
    ("E04", 249.0, 0.25),   # gpt-oss-120b MXFP4, 8 x MI300X, vLLM 0.17.0 (InferenceX pull request #1092; -17.3%)
])
def test_rows_the_model_meets_stay_met(rows, row, published, within):
    """F04, F06: Qwen's Speed Benchmark page for Qwen3 (H20 96GB, SGLang 0.4.6.post1, batch 1, 1-token prompt,
    2,048 generated); E04, E05 as noted. Each within the stated share of the published figure."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= within


def test_h20_dense_rows_are_known_fast_misses(rows):
    """F01-F03 (the same Qwen page: Qwen3-8B BF16 81.73 and FP8 150.25, Qwen3-32B FP8 46.17 tok/s on one H20) read
    1.5-2.2x fast: the page's runs stream weights at ~1.5-1.7 TB/s, ~40% of the H20's reported 4.0 TB/s, and no
    source sizes that. Held as misses in the direction measured, so that a change that moves them is seen. F03 (the
    32B's block-FP8 checkpoint) moved at session 17: its projections' reduction walk is the 64-row tile's multiply at
    an H20 SM's quarter-rate tensor cores (296 TFLOP/s over 78 SMs: 0.55 us a 128-deep step, not the H100's 0.42;
    tests/test_block_fp8_small_batch.py), which leaves it 1.13x fast (blind 1.31x); F02 (Qwen's Qwen3-8B-FP8,
    block-scaled as the 32B's, knowledge/serving.yaml fp8_checkpoints) walks the same way and reads 1.06x (blind
    1.56x). F01 (BF16 through cuBLAS) stays the miss."""
    est, got = rows["F01"]
    assert 1.8 <= est / got <= 2.3, ("F01", est, got)
    for row in ("F02", "F03"):
        est, got = rows[row]
        assert 1.0 <= est / got <= 1.25, (row, est, got)


@pytest.mark.parametrize(("row", "published", "within"), [
    ("G05", 95.27, 0.10),  # Qwen3-4B BF16, 1 x RTX 4090, vLLM (tenstorrent/tt-inference-server #394; blind -3.5%)
    # gpt-oss-20b MXFP4, 1 x RTX PRO 6000 Blackwell, vLLM (Millstone AI, Jan 2026; blind -7.5%); -19.6% since the
    # checkpoint's attention is read in BF16 (serving.yaml fp4_checkpoints, branch decodeblind8): 0.94 GB a token more,
    # 0.66 ms at 0.80 x 1.79 TB/s, leaving the run 1.3 ms of fixed time a token where gpuwise prices 2.3 ms
    ("G06", 250.0, 0.20),
])
def test_session_13_rows_the_model_meets_stay_met(rows, row, published, within):
    """G05: the GPU reference sweep of tenstorrent/tt-inference-server issue #394 (Nov 2025, concurrency 1,
    128/128, TPOT 10.5 ms); G06: Millstone AI's report 'gpt-oss-20b on 1x RTX Pro 6000 Blackwell' (single request,
    1K context). Both scored blind on arrival; each held within the stated share of the published figure."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= within


def test_tiny_model_step_is_the_synchronous_release_host_floor(rows):
    """G04 (tenstorrent/tt-inference-server issue #340, Jun 2025: Qwen3-0.6B BF16 on one A100 with vLLM, TPOT 4.2 ms
    at concurrency 1; the release current on the run's date, 0.9.1, taken at session 20) read ~2.9x fast: its 1.19 GB
    of weights take 1.19e9 / (2.039e12 x 0.80) = 0.73 ms a step, and the GPU step with 28 layers x 10 us and 0.4 ms
    of host time is 1.44 ms. A release that schedules synchronously (vLLM 0.8.0 to before 0.12.0) lasts at least its
    host's 4.5 ms a step (knowledge/serving.yaml vllm sync_host_floor, read on J07/J09), so the row is 1 / 4.5 ms =
    222.2 tok/s, -6.7% (a check: the figure was not read on it)."""
    est, got = rows["G04"]
    assert got == pytest.approx(238.09)
    weights_ms = 1.19e9 / (2.039e12 * 0.80) * 1e3
    assert weights_ms == pytest.approx(0.73, abs=0.01)
    assert est == pytest.approx(1000 / 4.5)
    assert abs(est / got - 1) <= 0.10, (est, got)


@pytest.mark.parametrize(("row", "published", "within"), [
    ("H01", 70.0, 0.25),   # GLM-4.6-FP8, 8 x H100, SGLang 0.5.6 (zai-org/GLM-4.5 issue #113; blind +17.5%)
    ("H03", 138.0, 0.15),  # Qwen3-4B-Instruct-2507 FP8, 1 x RTX 4090, vLLM (noonghunna/club-3090 #697; blind -7.9%)
])
def test_session_14_rows_the_model_meets_stay_met(rows, row, published, within):
    """H01: a single request of GLM-4.6-FP8 (GLM-4.5's shape) decoding at about 70 tok/s on one 8 x H100 machine
    with SGLang v0.5.6 (issue of 2025-12-10); H03: ~138 tok/s single stream, flat across a 240-300 W power-cap
    sweep (Jul 2026). Both scored blind on arrival (validation README, rows H01-H05); held within the share."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= within


def test_early_2025_sglang_deepseek_reads_its_triton_mla_walk(rows):
    """H04 (sgl-project/sglang issue #3956, comment of 2025-03-09: DeepSeek-R1 on 8 x H200, SGLang 0.4.3.post4 with
    its default launch, 30 tok/s at short context) read ~2.5x fast on the mid-2025 constants (DeepGEMM, FA3 MLA,
    shared-expert fusion). Since session 19 the release takes SGLang's early-2025 entry (14 us a counted kernel, the
    shared expert unfused: set from pull request #2643's DP-attention batch-1 run, not from this row): 41.3 tok/s,
    still ~1.4x fast at TP 8. Session 21 priced that run's DP attention as those releases ran it (tokens gathered,
    experts tensor-parallel), which puts the entry at 17 us a kernel: 35.7 tok/s, ~1.19x fast. Branch buyer54: those
    releases read an MLA model's latent cache with their Triton decode kernel by default (serving.yaml sglang
    triton_decode_walk mla_default_before; model_runner.py of the 0.4.1.post7-0.4.5 wheels), 8 programs at 5.25 GB/s:
    2.57 ms more a step at 1,024 + 512 tokens, 32.8 tok/s, ~1.09x. Held in the direction measured so that a change
    that moves it is seen."""
    est, got = rows["H04"]
    assert 1.0 <= est / got <= 1.15, (est, got)


@pytest.mark.parametrize(("row", "published"), [
    ("J01", 109.3),  # DeepSeek V3.2, 4 x GB200, vLLM, batch size 1, no MTP (after the attention-path fusion)
    ("J02", 125.0),  # DeepSeek V3.2, 8 x B300, vLLM TP8, concurrency 1, no MTP
])
def test_vllm_fused_deepseek_v32_on_blackwell(rows, row, published):
    """vLLM blog 'vLLM Tops the Artificial Analysis Leaderboard' (vllm-project/vllm-project.github.io,
    _posts/2026-05-11-vllm-tops-artificial-analysis.md). Blind -48.9% / -54.3%: gpuwise charged each of the ~1,250
    counted small kernels of a DeepSeek step 10 us (vLLM 0.11's figure). The blog's build fuses them (about 33 kernels
    a layer toward 10); from 0.20.0 a counted kernel costs its own GPU time, ~3 us (gty111/gLLM pull request #264,
    vllm-project/vllm pull request #38621): +0.4% / -8.4%. Held within 15% of the published figure."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= 0.15


def test_fused_floor_applies_from_its_release_only(kb, accuracy):
    """The fused figure is gated by release (knowledge/serving.yaml, vLLM's nvidia override, fused_from 0.20.0): the
    same DeepSeek V3.2 job on 8 x B300 stating 0.19.1 steps longer by exactly its counted kernels x (10 - 3) us, and a
    job that states no release keeps vLLM 0.11's 10 us (the unversioned validation rows ran on 2025 builds)."""
    from gpuwise.estimators import serving as SV
    from gpuwise.estimators.serving.step import _extra_kernels

    def step(version):
        job = accuracy.serving_job(kb, "deepseek-v3.2-exp", "fp8", "vllm", 1024, 1024, tp=8, framework_version=version)
        s = SV.choose(job, kb.gpus["b300"], 8)
        return s.engine, SV.point(job, s.engine, s.replica, 1.0).decode_step

    fused, t_fused = step("0.20.0")
    old, t_old = step("0.19.1")
    none, t_none = step(None)
    kernels, _ = _extra_kernels(fused)
    assert fused.kernel_floor == pytest.approx(3e-6) and old.kernel_floor == pytest.approx(10e-6)
    assert none.kernel_floor == pytest.approx(10e-6) and t_none == pytest.approx(t_old)
    assert t_old - t_fused == pytest.approx(kernels * 7e-6, rel=1e-6)


@pytest.mark.parametrize(("row", "published"), [
    ("J03", 154.3),  # Llama-3.1-8B BF16, 1 x H100: 1 / (6.44 ms + 4.37e-5 ms x 1,024)
    ("J04", 246.4),  # gpt-oss-20b MXFP4, 1 x H100: 1 / (4.05 ms + 8.94e-6 ms x 1,024)
    ("J05", 253.3),  # Llama-3.1-8B BF16, 1 x B200: 1 / (3.93 ms + 1.80e-5 ms x 1,024)
    ("J06", 317.0),  # gpt-oss-20b MXFP4, 1 x B200: 1 / (3.15 ms + 3.56e-6 ms x 1,024)
])
def test_vllm_0191_single_request_fits_stay_met(rows, row, published):
    """vLLM blog 'The State of FP8 KV-Cache and Attention Quantization in vLLM' (2026-04-22): single-request ITL fits
    (slope x input + intercept, BF16 KV cache) of vLLM 0.19.1 at concurrency 1, 128 output tokens, on one H100 and one
    B200, evaluated at a 1,024-token prompt. Blind +1.0 / +18.0 / +23.2 / +14.5%; held within 25%."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= 0.25


def test_mid_2025_vllm_gpt_oss_rows_step_at_the_host_floor(rows):
    """J07-J10 (sariekr/gpu_conc, Aug 2025: gpt-oss-20b at concurrency 1, 1,000 / 1,000, vLLM 0.10.x from pip or
    the ROCm 0.10.1 image) read 1.3-2.4x fast on the GPU step alone. The H200 (220.8 tok/s) and the B200 (219.8)
    measure the same, so their step is the host's: before async scheduling became vLLM's default (vllm-project/vllm
    pull request #27614) the engine scheduled, prepared, sampled and updated between forwards. Those two rows set the
    floor (4.5 ms, knowledge/serving.yaml vllm sync_host_floor) and now read 1000 / 4.5 = 222.2 tok/s; J08 (H100
    PCIe, 0.10.0 taken) and J10 (MI300X, ROCm) are its checks and still read fast (1.48x, 1.62x): J10's GPU step
    (3.0 ms) is within the floor and J08's (4.54 ms with the release's piecewise graphs) just above it, so the model
    gives them ~4.5 ms where their hosts or builds took 6.7 and 7.3 ms."""
    for row, published in (("J07", 220.8), ("J09", 219.8)):
        est, got = rows[row]
        assert got == pytest.approx(published)
        assert est == pytest.approx(1000 / 4.5)
    for row, low, high in (("J08", 1.3, 1.6), ("J10", 1.4, 1.8)):
        est, got = rows[row]
        assert est <= 1000 / 4.5 * (1 + 1e-9)  # never faster than the floor
        assert low <= est / got <= high, (row, est, got)


def test_a_vllm_job_that_states_no_release_is_told_which_figure_it_got(kb):
    """A vLLM job with no framework_version is costed at the pre-0.20.0 10 us a small kernel (the test above); where
    the model has such kernels (DeepSeek-R1: MoE routing and MLA) the answer says so, with both figures from
    knowledge/serving.yaml, so a reader on a newer release knows to state it. A job that states its release, and a
    dense model with none of those kernels (Llama 3.1 8B in BF16), get no such line."""
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    def assumed(model="deepseek-r1", **extra):
        w = {"task": "inference", "model": model, "precision": "fp8", "framework": "vllm", **extra}
        job = resolve(Requirements.model_validate({"workload": w}), kb)
        return {a.field: a for a in job.assumptions}

    got = assumed()["workload.framework_version"]
    assert got.value == "< 0.20.0"
    assert got.values == {"framework": "vLLM", "vendor": "NVIDIA", "since": "0.20.0", "floor": "10", "fused": "3"}
    assert "10 us a small kernel" in got.reason and "(3 us)" in got.reason
    assert "workload.framework_version" not in assumed(framework_version="0.19.1")
    assert "workload.framework_version" not in assumed(model="llama-3.1-8b", precision="bf16")


def test_b07_dense_bf16_step_by_hand(rows):
    """B07 (treeru.com 'AWQ Quantization Speed Benchmark', Feb 2026: Qwen3-8B BF16 on one RTX PRO 6000 96GB, SGLang
    0.5.8, one request, 90.8 tok/s; scored blind on arrival at -3.8%). By hand: Qwen3-8B reads 36 x (2 x 4096^2 +
    2 x 4096 x 1024 + 3 x 4096 x 12288) + 151936 x 4096 = 7,568,097,280 weights a token (the input embedding is one
    row, the untied head all of it), 15.136 GB in BF16, at SGLang's 0.80 of the card's 1,792 GB/s: 10.56 ms; its
    KV cache at the mean context 1,024 + 512 (36 layers x 2 x 1,024 x 2 bytes a token) 0.16 ms more; SGLang's 0.3 ms
    a step and 10 us a layer: 0.66 ms. 11.38 ms, 87.9 tok/s; the math at one row adds under 1%."""
    est, got = rows["B07"]
    assert got == pytest.approx(90.8)
    weights = 36 * (2 * 4096 ** 2 + 2 * 4096 * 1024 + 3 * 4096 * 12288) + 151936 * 4096
    assert weights == 7_568_097_280
    bw = 1792e9 * 0.80
    step = 2 * weights / bw + 36 * 2 * 1024 * 2 * 1536 / bw + 0.3e-3 + 36 * 10e-6
    assert 1 / est == pytest.approx(step, rel=0.01)


@pytest.mark.parametrize(("row", "published", "within"), [
    ("B01", 391.2, 0.20),  # Qwen3-4B AWQ (blind -12.8%)
    ("B03", 208.0, 0.15),  # Qwen3-8B AWQ (blind +3.1%)
    ("B04", 168.9, 0.20),  # Qwen3-30B-A3B BF16 (blind -16.7%)
    ("B05", 136.1, 0.15),  # Qwen3-14B AWQ (blind -2.7%)
    ("B06", 128.5, 0.15),  # Gemma-3-12B-it AWQ (blind +7.0%)
    ("B08", 70.2, 0.15),   # Qwen3-32B AWQ (blind -7.0%)
    ("B09", 53.2, 0.15),   # Qwen3-14B BF16 (blind -8.4%)
    ("B11", 23.9, 0.15),   # Qwen3-32B BF16 (blind -9.2%)
    ("B12", 17.20, 0.15),  # DeepSeek-R1 Q8_0 on 16 x RTX 3090 split by layer, ik_llama.cpp tg128 (blind -5.6%)
])
def test_session_18_rows_the_model_meets_stay_met(rows, row, published, within):
    """B01-B11: treeru.com (RTX PRO 6000, SGLang 0.5.8, one request; lengths not stated, 1,024 / 1,024 taken);
    B12: ikawrakow/ik_llama.cpp issue #263 (Mar 2025). Scored blind on arrival (validation README, rows B01-B12);
    each held within the stated share of the published figure."""
    est, got = rows[row]
    assert got == pytest.approx(published)
    assert abs(est / got - 1) <= within


def test_session_18_known_misses(rows):
    """B10 (the same page's Phi-4-AWQ, 51.8 tok/s) reads ~2.6x fast: Phi-4 (14.7B) has almost the weight bytes of
    Qwen3-14B, whose AWQ checkpoint the same card and engine run at 136.1 tok/s (B05, met), so the row's own page
    puts Phi-4's AWQ path at 0.38x of Qwen3's, a kernel choice nothing in the model's shape tells apart (validation
    README). B02 (Qwen3-4B BF16, 208.1 tok/s) reads ~26% slow: its 8.04 GB a token at the datasheet's 1,792 GB/s
    alone take 4.49 ms of the measured 4.81, so the row leaves 0.32 ms for everything else where the model's
    SGLang figures (0.3 ms a step, 10 us a layer, both engineering assumptions) give 0.66 ms before the bandwidth
    fraction. Held in the directions measured, so a change that moves them is seen."""
    est, got = rows["B10"]
    assert 2.3 <= est / got <= 2.9, ("B10", est, got)
    est, got = rows["B02"]
    assert 0.65 <= est / got <= 0.85, ("B02", est, got)
