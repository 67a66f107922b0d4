"""SGLang's gated DeltaNet decode on ROCm, timed by its own per-kernel profiles (branch sglrocm65, issue 22; the
validation README's 'SGLang on ROCm: the gated DeltaNet decode kernels timed' section).

Six single-stream rows of SGLang on MI300X / MI355X for Qwen3.5-class hybrids (DA19, DA21, DJ24-DJ26, DJ30) read
1.8-3.2x fast. The nearest source, DJ30's own README, puts the missing time on the 48 gated DeltaNet layers on Triton
by subtraction. The profiles read here time those layers' kernels on gfx950; worked by hand below, they show that
gpuwise already prices the chain at the profiled rate and that the chain is too short to be the missing time, so no
figure was set. Sources:

- sgl-project/sglang pull request #39554 ('[AMD] Qwen3-Next: route GDN decode at AITER's fused gfx950 kernel',
  rbrugaro-amd, opened 2026-09-15): torch-profiler table of one decode step of Qwen3-Next-80B-A3B-Instruct-FP8 on
  4 x MI355X / TP 4, rank 0, its 36 GDN layers (the four kernels below, then AITER's fused one).
- lightseekorg/tokenspeed pull request #868 ('[AMD] use Gluon for KDA decode', merged 2026-07-31): one MI355X, the
  Kimi-K3 TP 8 shape (12 local heads, K = V = 128), CUDA-graph replay of the portable Triton recurrent decode.
- vllm-project/vllm pull request #50654 ('[ROCm][Perf] Kimi-K3 Fused kernel for KDA decode', 2026-08): the same
  four-kernel chain (conv update, recurrence, placement copy, gated RMSNorm) traced over 69 layers on 8 x MI355X.
"""

from __future__ import annotations

import pytest

# sglang #39554, per decode step, 36 GDN layers, TP-0 (us)
PROFILE_39554 = {"fused_recurrent_gated_delta_rule_packed_decode_kernel": 361.6,
                 "fused_qkvzba_split_reshape_cat_kernel": 163.5,
                 "_causal_conv1d_update_kernel": 155.7,
                 "layer_norm_gated_fwd_kernel": 149.9}
TOTAL_39554, FUSED_39554, GDN_LAYERS_39554 = 830.8, 279.2, 36
# tokenspeed #868: portable Triton KDA decode on one MI355X, 12 heads, graph replay (us) at batch 1 and 16
KDA_868 = {1: 9.669, 16: 13.062}
# vllm #50654, 69 KDA layers at 16 sequences (ms)
CHAIN_50654 = {"conv": 0.414, "recurrent": 0.603, "copy": 0.367, "gated_rmsnorm": 0.412}


def _engine(kb, accuracy, row_id: str):
    """The serving engine benchmarks/accuracy.py builds for a decode_independent.csv row."""
    import csv

    from gpuwise.estimators import serving as sv

    path = accuracy.DECODE_INDEPENDENT
    with open(path, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == row_id)
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), tp=int(row["tp"] or 0) or None, ep=None,
                               kv_precision=row["kv_precision"] or None,
                               framework_version=row["framework_version"] or None,
                               options=row["workload_options"], speculative=row["speculative"])
    return sv.choose(job, kb.gpus[row["gpu"]], int(row["count"]), weight_format=row["weight_format"] or None).engine


def test_the_gfx950_profile_adds_up():
    # 361.6 + 163.5 + 155.7 + 149.9 = 830.7, printed 830.8 (rounding); the fused kernel's 279.2 is its '2.98x'
    assert sum(PROFILE_39554.values()) == pytest.approx(TOTAL_39554, abs=0.2)
    ratio = TOTAL_39554 / FUSED_39554
    assert ratio == pytest.approx(2.98, abs=0.005)


def test_a_profiled_gdn_kernel_costs_sglangs_rocm_kernel_floor(kb, accuracy):
    # 830.8 us / (36 layers x 4 kernels) = 5.77 us a kernel, 23.1 us a layer; gpuwise's SGLang engine on the MI355X
    # (DJ30's) charges a counted small kernel 6 us (serving.yaml kernel_floor_us), 4% above the profile
    per_kernel = TOTAL_39554 / (GDN_LAYERS_39554 * len(PROFILE_39554))
    assert per_kernel == pytest.approx(5.77, abs=0.005)
    per_layer = TOTAL_39554 / GDN_LAYERS_39554
    assert per_layer == pytest.approx(23.08, abs=0.01)
    floor_us = _engine(kb, accuracy, "DJ30").kernel_floor * 1e6
    assert floor_us == pytest.approx(6.0)
    assert abs(floor_us / per_kernel - 1) < 0.05


def test_gpuwise_counts_the_layer_as_the_profile_launches_it(kb, accuracy):
    # the profile's four small kernels plus the in_proj_qkvz and out_proj GEMMs are serving.yaml's 6 a gated DeltaNet
    # layer (an attention mixer's 5: QKV GEMM, RoPE, cache write, attention, output GEMM), so each of DJ30's 48 GDN
    # layers is charged one kernel more than an attention layer: 48 kernels, 0.29 ms at 6 us
    from gpuwise.estimators.serving.recurrent import ATTENTION_MIXER_KERNELS, mixer_decode, recurrent_extra_kernels

    eng = _engine(kb, accuracy, "DJ30")
    count = mixer_decode(eng.fw.recurrent_mixer_kernels, "0.5.18")["gated_deltanet"]
    assert count == len(PROFILE_39554) + 2
    assert eng.sc.hybrid[2] == 48
    assert recurrent_extra_kernels(eng) == (count - ATTENTION_MIXER_KERNELS) * 48 == 48


def test_the_recurrent_decode_grows_slowly_with_its_heads():
    # tokenspeed #868: 16x the (sequence, head) pairs cost 1.35x the time, so a TP 1 layer's 48 value heads (DJ30)
    # against TP 4's 8 (Qwen3-Next's 32 / 4 in #39554), 6x the pairs, cost at most 1.35x the profiled chain;
    # vllm #50654's four-kernel chain over 69 layers at 16 sequences is 26.0 us a layer, within 13% of #39554's 23.1
    assert KDA_868[16] / KDA_868[1] == pytest.approx(1.351, abs=0.001)
    per_layer_50654 = sum(CHAIN_50654.values()) * 1e3 / 69
    assert per_layer_50654 == pytest.approx(26.03, abs=0.01)
    assert per_layer_50654 / (TOTAL_39554 / GDN_LAYERS_39554) < 1.13


def test_the_gdn_chain_is_too_short_to_be_the_missing_time():
    # the blind estimates (validation README, decodeblind41) against the measured steps: DJ30 1e3 / 180.69 = 5.53 ms
    # against 1e3 / 96.08 = 10.41 ms, 4.87 ms missing; DJ24 1e3 / 108.67 = 9.20 against 1e3 / 43.79 = 22.84, 13.63
    # missing. The whole profiled chain, scaled up for the heads, is 48 x 23.08 x 1.351 = 1.50 ms (DJ30) and
    # 36 x 23.08 x 1.351 = 1.12 ms (DJ24): under a third and under a tenth of the gaps, were gpuwise to charge nothing
    # for these kernels (it charges them the attention mixer's kernels plus one, above)
    scale = KDA_868[16] / KDA_868[1]
    per_layer_ms = TOTAL_39554 / GDN_LAYERS_39554 / 1e3
    for layers, blind, measured, share in ((48, 180.69, 96.08, 0.31), (36, 108.67, 43.79, 0.083)):
        gap = 1e3 / measured - 1e3 / blind
        chain = layers * per_layer_ms * scale
        assert chain / gap == pytest.approx(share, abs=0.005)
        assert chain < gap / 3
