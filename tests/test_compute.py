"""Compute estimator: hand-calculated FLOPs, dense peaks, and published training GPU-hours and
decode speeds (tests/data/validation, sources per row)."""

from __future__ import annotations

import statistics

import pytest

from gpuwise.estimators.compute import peak_for, training_flops, training_time
from gpuwise.inputs.shape import from_catalog

from .conftest import DATA


def test_six_n_d_by_hand(kb):
    """Llama-2-7B on 2T tokens: 6 x matmul params x D + causal attention 6 x L x s x h x D. LoRA drops the linear
    layers' weight gradients (4 N) but not attention's backward: the score and value products have no weights, and
    their backward (dQ, dK, dV from dO; Dao et al. 2022, FlashAttention, arXiv:2205.14135, section 3.1) runs for the
    activation gradients whatever trains, so attention stays at 6 L s h (8 with recomputation). Recomputation runs the
    layers' forward again, 2 x (N - the output head's 32,000 x 4,096) a token: the head and loss follow the last
    checkpointed layer and keep their activations."""
    shape = from_catalog(kb.models["llama-2-7b"])
    n = 6_738_415_616 - 32000 * 4096  # the input embedding is a lookup, not a matmul
    layers = n - 32000 * 4096  # the decoder layers' matmuls, without the output head
    attn = 6 * 32 * 4096 * 4096
    t = training_flops(shape, 2e12, 4096, "full", False)
    assert t.value == pytest.approx((6 * n + attn) * 2e12)
    lora = training_flops(shape, 2e12, 4096, "lora", False).value
    ckpt = training_flops(shape, 2e12, 4096, "full", True).value
    lora_ckpt = training_flops(shape, 2e12, 4096, "lora", True).value
    assert lora == pytest.approx((4 * n + attn) * 2e12)  # 5.93e22, not 4/6 of full training's 8.57e22 (5.72e22)
    assert lora == pytest.approx(5.930e22, rel=1e-3)
    assert ckpt == pytest.approx((6 * n + 2 * layers + attn * 8 / 6) * 2e12)  # 1.1378e23, not 8/6 of 8.57e22
    assert ckpt == pytest.approx(1.1378e23, rel=1e-4)
    assert lora_ckpt == pytest.approx((4 * n + 2 * layers + attn * 8 / 6) * 2e12)


def test_mla_attention_counts_its_wider_query_and_key(kb):
    """Multi-head latent attention trains in its uncompressed form: each of DeepSeek-V3's 128 heads multiplies a
    query and key of qk_nope + qk_rope = 128 + 64 and a value of 128 (DeepSeek-V2, arXiv:2405.04434, section
    2.1.3; DeepSeek-V3 config.json), so a token's causal attention is 6 x 61 x seq x 128 x (192 + 128) / 2 FLOPs,
    not 6 x 61 x seq x 128 x 128. Hand calculation at 4,096 tokens: 6 x 61 x 4,096 x 20,480 = 3.070e10 a token.
    With the main model's matmuls this is 250.5 GFLOP a token; NVIDIA's MLPerf Training v6.0 DeepSeek-V3 recipe
    counts 1,068 TFLOP a 4,096-token sample (260.7 GFLOP a token, MODEL_TFLOP_PER_SAMPLE in
    NVIDIA/benchmarks/deepseekv3_671b/implementations/*/config_common.sh, Richardyu114/training_results_v6.0 at
    eabf23a0), the rest being the one multi-token-prediction module the recipe trains (mtp_num_layers 1), which
    gpuwise does not count. A model without MLA keeps heads x head_dim."""
    shape = from_catalog(kb.models["deepseek-v3"])
    t = training_flops(shape, 1.0, 4096, "full", False)
    assert t.inputs["attention_flops_per_token"] == pytest.approx(6 * 61 * 4096 * 128 * (128 + 64 + 128) / 2)
    assert t.inputs["attention_flops_per_token"] == pytest.approx(3.0704e10, rel=1e-4)
    assert t.value == pytest.approx(6 * shape.matmul_params_active + 3.0704e10, rel=1e-4)
    assert 1068e12 / 4096 - t.value == pytest.approx(10.2e9, rel=0.05)  # the MTP module left out
    plain = from_catalog(kb.models["llama-3.1-8b"])
    assert training_flops(plain, 1.0, 8192, "full", False).inputs["attention_flops_per_token"] == (
        pytest.approx(6 * 32 * 8192 * 32 * 128))


def test_dense_peaks_not_sparse(kb):
    """Datasheet headlines are 2:4-sparse for Hopper/Ada; dense is half (reference gpus.md)."""
    assert peak_for(kb.gpus["h100-80gb-sxm"], "bf16").tflops == 989.5
    assert peak_for(kb.gpus["h100-80gb-sxm"], "fp8").tflops == 1979
    assert peak_for(kb.gpus["a100-80gb-sxm"], "bf16").tflops == 312
    assert peak_for(kb.gpus["rtx-4090"], "bf16").tflops == pytest.approx(165.2)  # FP32 accumulate
    assert peak_for(kb.gpus["l4"], "bf16").tflops == pytest.approx(121)


def test_peak_fallbacks_for_old_architectures(kb):
    v100 = peak_for(kb.gpus["v100-32gb-sxm2"], "bf16")
    assert v100.tflops == kb.gpus["v100-32gb-sxm2"].peaks.fp32 and "emulated" in v100.kind
    p100 = peak_for(kb.gpus["p100-16gb-pcie"], "fp16")
    assert p100.tflops == pytest.approx(18.7) and "no tensor cores" in p100.kind


def test_training_time_arithmetic():
    hours, wall = training_time(1e21, 8, 312, 0.4, 0.9)
    per_gpu = 312e12 * 0.4 * 0.9
    assert wall.value == pytest.approx(1e21 / (8 * per_gpu) / 3600)
    assert hours.value == pytest.approx(wall.value * 8)


def _errors(cases: list[tuple[str, float, float]]) -> list[float]:
    return [abs(est / measured - 1) for _, est, measured in cases]


def test_gpu_hours_of_published_pretraining_runs(kb, accuracy):
    """Median error within 20% over the published runs in training_compute.csv (LLaMA: Touvron et al.
    2023 Table 15; Pythia: Biderman et al. 2023 Table 5; Phi model cards; SmolLM3 blog), through the
    path users get: estimate(..., gpus=N) with the published count."""
    errors = _errors(accuracy.training_cases(kb, DATA / "validation"))
    assert len(errors) >= 15
    assert statistics.median(errors) <= 0.20  # measured: 11.1% with the runs' published conditions, 9.7% without


def test_gpu_hours_of_large_moe_and_fp8_runs(kb, accuracy):
    """tests/data/training_runs.csv (sources per row): Llama 2 and 3.1, DeepSeek-V2/V3 (MoE, FP8),
    BLOOM, Falcon, MPT, StarCoder, TinyLlama, JetMoE, MLPerf GPT-3 on H100 and Gaudi 2, Nemotron-4 340B
    (6,144 H100, arXiv:2406.11704 Table 2: within 5% of its iterations x 8.0 s). Median within
    20%; every run with a published GPU count within 2x either way (runs without one are estimated on
    the count gpuwise picks for a 90-day deadline)."""
    cases = accuracy.published_run_cases(kb)
    assert len(cases) >= 21
    assert statistics.median(_errors(cases)) <= 0.20  # measured: 18.4% with the runs' conditions, 22.0% without
    # Nemotron-4 340B: published hours are iterations x 8.0 s, steady state; compared with the estimate's
    # steady state (tests/data/training_conditions.csv), NeMo named (at runtime.mfu hopper, which is a
    # Megatron-Bridge figure: calibrated_on) and NeMo's tensor-parallel overlap (training_stacks nemo
    # tp_comm_overlap, three quarters of TP8 hidden inside the node): 0.76 (0.86 with TP in full); 0.71 since the
    # interleaved schedule reduces each chunk's gradients behind the backward still to run (session 10), which
    # hides its data-parallel traffic: the run's 41% MFU (2024 Megatron-LM, BF16) sits below gpuwise's Hopper figure;
    # 0.69 since all but the last gradient bucket hides behind the backward (session 12, not a flat half)
    nemotron = next(est / published for label, est, published in cases if label.startswith("R22 "))
    assert 0.65 <= nemotron <= 1.10
    import csv

    with open(accuracy.RUNS, newline="") as fh:
        counted = {r["id"] for r in csv.DictReader(fh) if r["gpus"] and r["use"] == "1"}
    assert len(counted) >= 12
    for label, est, published in cases:
        if label.split()[0] in counted:
            assert 0.5 <= est / published <= 2.0, label


def test_single_stream_decode_against_published_measurements(kb, accuracy):
    """Median error within 30% against llama.cpp, MLC LLM and ExLlama single-stream decode
    (XiongjieDai/GPU-Benchmarks-on-LLM-Inference; llama.cpp discussions; MLC blog; ExLlama README)."""
    errors = _errors(accuracy.decode_cases(kb, DATA / "validation"))
    assert len(errors) >= 15
    assert statistics.median(errors) < 0.30


def test_decode_is_bandwidth_bound_at_batch_one_and_compute_bound_at_512(kb):
    """Llama-2-7B BF16 on an H100 SXM with vLLM: one sequence streams ~13.2 GB of weights (all but the input
    embedding) at 3,350 GB/s x 0.8 -> ~4.9 ms of linear layers, plus its 2 x 6.6e9 FLOPs at 989.5 TFLOPS x 0.5
    (27 us: load and math add); 512 sequences need 2 x 6.6e9 x 512 FLOPs -> ~13.7 ms, more than the
    weights' 4.9 ms, which add to it (gpuwise/estimators/serving/step.py linear_time)."""
    from gpuwise.estimators import serving as SV
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    job = resolve(Requirements.model_validate({"workload": {"task": "inference", "model": "llama-2-7b",
                                                            "prompt_tokens": 1, "output_tokens": 2}}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    one = SV.step(job, s.engine, s.replica, 1, 0.0, 0.0, 0.0)
    read = 6_738_415_616 * 2 - 32000 * 4096 * 2
    n = 6_738_415_616 - 32000 * 4096
    peak = 989.5e12 * 0.5
    assert one.bound == "memory" and one.gemm == pytest.approx(read / (3350e9 * 0.8) + 2 * n / peak, rel=1e-6)
    big = SV.step(job, s.engine, s.replica, 512, 0.0, 0.0, 0.0)
    assert big.bound == "compute"
    assert big.gemm == pytest.approx(2 * n * 512 / peak + read / (3350e9 * 0.8), rel=1e-6)
    assert 512 / big.seconds > 50 / one.seconds


def test_mfu_falls_for_narrow_models_by_the_memory_bound_share(kb):
    """MFU(h) = MFU_ref x (1 + k r / 8192) / (1 + k r / h), r = peak / bandwidth (runtime.yaml training)."""
    from gpuwise.estimators.compute import training_mfu

    h100 = kb.gpus["h100-80gb-sxm"]
    f = kb.runtime.training
    k, ref = f.mfu_memory_bound_k.value, f.mfu_reference_hidden.value
    r = 989.5e12 / 3350e9
    l7 = from_catalog(kb.models["llama-2-7b"])
    got = training_mfu(l7, h100, 0.6, 989.5, reference_hidden=ref, k=k).value
    assert got == pytest.approx(0.6 * (1 + k * r / ref) / (1 + k * r / 4096))
    l70 = from_catalog(kb.models["llama-2-70b"])
    assert training_mfu(l70, h100, 0.6, 989.5, reference_hidden=ref, k=k).value == pytest.approx(0.6)
    # the published llm-foundry ratio MPT-7B / MPT-70B HFU on H100 is 46.4 / 56.8 = 0.82
    assert got / 0.6 == pytest.approx(0.82, abs=0.05)


def test_moe_expert_matmuls_count_as_narrower(kb):
    """DeepSeek-V3's experts are 2,048 wide against a 7,168 hidden size: a lower width than hidden."""
    from gpuwise.estimators.compute import width_for_mfu

    ds = from_catalog(kb.models["deepseek-v3"])
    assert 2048 < width_for_mfu(ds) < 7168
    assert width_for_mfu(from_catalog(kb.models["llama-2-7b"])) == 4096


def test_fp8_speed_up_is_the_matmul_share(kb):
    """(1 + x) / (1 / g + x): 1.37 for a 13B GPT on H100 against 1.42 measured (Megatron-LM issue #396)."""
    from gpuwise.estimators.compute import fp8_speedup

    f = kb.runtime.training
    l13 = from_catalog(kb.models["llama-2-13b"])
    s = fp8_speedup(l13, kb.gpus["h100-80gb-sxm"], 989.5, gemm_speedup=f.fp8_gemm_speedup.value,
                    k=f.mfu_memory_bound_k.value).value
    assert 1.3 < s < 1.45 < f.fp8_gemm_speedup.value


def test_guessed_shapes_never_add_flops(kb):
    """A guessed shape whose vocabulary outweighs the model (70M parameters, 150k vocabulary) cannot
    make a token cost more than 6 x its parameters plus attention."""
    from gpuwise.inputs.shape import guess_shape

    tiny = guess_shape(70e6)
    t = training_flops(tiny, 1.0, 2048, "full", False)
    assert t.value <= 6 * 70e6 + t.inputs["attention_flops_per_token"] + 1


def test_fp8_gemm_factor_sits_below_the_measured_raw_gemm_ratio(kb):
    """tests/data/gemm_h200.jsonl (benchmarks/measure_gemm.py on one H200): FP8 over BF16 square GEMMs
    run 1.57x at n = 4096 and ~1.9x above; the factor gpuwise applies to a step's matmuls is no higher
    (per-step quantization takes some back) and above 1.5."""
    import json

    rows = [json.loads(x) for x in (DATA / "gemm_h200.jsonl").read_text().splitlines() if x]
    tf = {(r["dtype"], r["n"]): r["tflops"] for r in rows}
    ratios = [tf[("fp8", n)] / tf[("bf16", n)] for n in (4096, 8192, 16384)]
    g = kb.runtime.training.fp8_gemm_speedup.value
    assert 1.5 <= g <= min(ratios) + 0.05
    assert all(1.5 < r < 2.0 for r in ratios)
    assert 650 < tf[("bf16", 8192)] < 0.85 * 989.5  # BF16 reaches ~75% of the dense peak
