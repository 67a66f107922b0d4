"""Row DE66's decode step by hand from its terms (branch adafloor56; the validation README, 'vLLM's small kernels at
batch 1 on Ada'). The row: Qwen/Qwen3-30B-A3B-Instruct-2507-FP8 (Qwen's block-FP8 checkpoint) on 2 x L40S, vLLM 0.10.2,
TP 2 with expert parallel, one streaming request: 1,655 tokens in 14.278 s, TTFT in it (tim-roethig/ai-platform
platform/docs/ollama_vs_vllm.md @ 8fc2c9be). Qwen3-30B-A3B's shape (models.yaml): 48 layers, every one attention and
MoE (128 experts, top 8), no dense MLP, no shared expert. vLLM's constants (serving.yaml): a counted small kernel 10 us
(kernel_floor_us, read end to end on 8 x H200 at TP 8 and concurrency 4), a grouped expert GEMM 17 us (Ada keeps the
framework's figure), 10 us a layer plus 14 us a layer under the piecewise graphs of releases before 0.11.0
(piecewise_layer_us), 8 us an all-reduce (two a layer), 400 us a step and 12 us a sequence of host time.

The step counts (step.py) charge a layer the router's 4 kernels (ROUTER_KERNELS), the W8A8 activation quantizations of
a layer with a dense MLP (QUANT_KERNELS_DENSE 4) and the experts' 2 (QUANT_KERNELS_MOE). The 0.10.2 code launches
fewer: read in the vllm-0.10.2 source distribution from PyPI, model_executor/models/qwen3_moe.py (Qwen3MoeDecoderLayer
runs Qwen3MoeSparseMoeBlock, a router gate and a FusedMoE, where a dense layer has its MLP), quantization/fp8.py
(Fp8LinearMethod.apply sends a block-scaled linear to torch.ops.vllm.apply_w8a8_block_fp8_linear, one registered op
that runs per_token_group_fp8_quant and then the GEMM, so Inductor cannot fold the quantization into the norm before
it) and fused_moe/fused_moe.py (fused_experts_impl quantizes before each of its two grouped GEMMs): 2 + 2
quantizations a layer, 384 counted kernels where the model charges 480 (the count set right was measured and not kept:
validation README)."""

from __future__ import annotations

import importlib

import pytest

from benchmarks import accuracy as A
from gpuwise import knowledge
from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
MEASURED_S, TOKENS = 14.278, 1655  # the client's one request, TTFT and HTTP in it
LAYERS = 48


@pytest.fixture(scope="module")
def de66():
    kb = knowledge.load()
    job = A.serving_job(kb, "qwen3-30b-a3b", "fp8", "vllm", 26, TOKENS, tp=2, ep=2, framework_version="0.10.2")
    s = SV.choose(job, kb.gpus["l40s"], 2)
    return job, s


def test_counts_and_floors_by_hand(de66):
    _, s = de66
    eng = s.engine
    small, grouped = LAYERS * (4 + 4 + 2), 2 * LAYERS  # 480 small kernels, 96 grouped GEMMs
    assert ST._extra_kernels(eng) == (small, grouped)
    assert eng.kernel_floor == pytest.approx(10e-6) and eng.grouped_floor == pytest.approx(17e-6)
    assert ST.floor_per_step(eng) == pytest.approx(480 * 10e-6 + 96 * 17e-6)  # 4.80 + 1.632 = 6.432 ms


def test_step_is_the_sum_of_its_terms(de66):
    job, s = de66
    c = ST.consts(job, s.engine, s.replica)
    seconds, gemm, attention, comm, over, host = ST._parts(c, 1.0, 0.0, 26 + TOKENS / 2, 0.0)[:6]
    assert over == pytest.approx(LAYERS * (10e-6 + 14e-6) + 6.432e-3)  # 1.152 + 6.432 = 7.584 ms of fixed cost
    assert host == pytest.approx(400e-6 + 12e-6)
    assert 2 * LAYERS * 8e-6 <= comm < 0.8e-3  # 96 all-reduces of one token's 4 KiB
    # the weights a GPU reads a token (1.954 GB: the attention split by TP, the active experts of each GPU's half
    # under expert parallel) at 0.8 of the L40S's 864 GB/s, 2.83 ms, and the GEMMs' math beside them: 2.93 ms
    st = ST.step(job, s.engine, s.replica, 1.0, 0.0, 26 + TOKENS / 2, 0.0)
    assert st.weight_bytes_gpu / (0.8 * 864e9) == pytest.approx(2.83e-3, abs=0.01e-3)
    assert 2.83e-3 < gemm < 3.0e-3
    assert seconds == pytest.approx(gemm + attention + comm + over + host)
    assert 11.7e-3 < seconds < 11.85e-3  # 11.77 ms: the row's blind -26.8%


def test_what_the_measured_token_leaves_a_small_kernel(de66):
    """The measured request less gpuwise's own TTFT leaves ~8.6 ms a token; less every term but the counted small
    kernels' 4.80 ms, ~1.6 ms for them: ~3.4 us for each of the 480 the model counts, ~4.3 us for each of the 384 the
    0.10.2 code launches -- a small kernel's own GPU time at one token (vLLM pull request #25427: its CUDA
    per-token-group FP8 quantization kernel, group 128, one token, hidden 896-7,168, 3.3-3.8 us on an H100), not the
    10 us the TP 8 rows read end to end."""
    job, s = de66
    one = SV.point(job, s.engine, s.replica, 1.0)
    per_token = (MEASURED_S - one.ttft) / TOKENS
    assert 8.55e-3 < per_token < 8.7e-3
    rest = one.decode_step - 480 * 10e-6
    left = per_token - rest
    assert 1.5e-3 < left < 1.8e-3
    assert left / 480 == pytest.approx(3.4e-6, abs=0.3e-6)
    assert left / 384 == pytest.approx(4.3e-6, abs=0.3e-6)
