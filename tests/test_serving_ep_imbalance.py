"""Load imbalance under expert parallelism and attention data parallelism: a MoE layer waits for its
busiest GPU (SGLang team, 'Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism
on 96 H100 GPUs', lmsys.org 2025-05-05: balancedness = mean / max GPU load; EPLB, off by default, is
what evens it). Figures by hand from the uniform-routing statistics gpuwise.estimators.serving.step
writes down, with the model's experts and top-k read from the catalog (DeepSeek-V3 config.json:
n_routed_experts 256, num_experts_per_tok 8)."""

from __future__ import annotations

import math
from statistics import NormalDist

import pytest

from gpuwise.estimators.serving.step import busiest_rank, ep_imbalance, max_normal
from gpuwise.inputs.shape import from_catalog


def test_expected_maximum_of_eight_normals_is_blom_close_to_harter():
    """Blom's Phi^-1((8 - 0.375) / (8 + 0.25)) = Phi^-1(0.92424) = 1.434; Harter's table (Biometrika 1961)
    gives 1.4236 for the exact expectation of the largest of 8 standard normals."""
    assert max_normal(8) == pytest.approx(NormalDist().inv_cdf(7.625 / 8.25))
    assert max_normal(8) == pytest.approx(1.4236, abs=0.015)
    assert max_normal(1) == 0.0


def test_one_token_on_eight_expert_parallel_gpus_deepseek_v3(kb):
    """One token's 8 experts of 256, 32 on each of 8 GPUs: a GPU reads binomial(32, 1/32) experts, mean 1,
    sd sqrt(31/32) = 0.9843, so the busiest reads 1 + 1.4342 x 0.9843 = 2.412 (by hand); its routed rows are
    hypergeometric, sd sqrt(8 x 1/8 x 7/8 x 248/255) = 0.9225 over a mean of 1: 1 + 1.4342 x 0.9225 = 2.323."""
    shape = from_catalog(kb.models["deepseek-v3"])
    assert (shape.experts, shape.experts_per_token) == (256, 8)
    f_w, f_c = ep_imbalance(shape.experts, shape.experts_per_token, 8, 1)
    z = 1.43420
    assert f_w == pytest.approx(1 + z * math.sqrt(31 / 32), rel=1e-4)
    assert f_w == pytest.approx(2.412, abs=1e-3)
    assert f_c == pytest.approx(1 + z * math.sqrt(7 * 248 / (8 * 255)), rel=1e-4)
    assert f_c == pytest.approx(2.323, abs=1e-3)


def test_imbalance_fades_with_the_batch_and_is_absent_without_expert_parallelism():
    """8,192 tokens: every expert is read (factor 1) and the rows' spread is 1.4342 x sqrt(7 x 248 /
    (8,192 x 8 x 255)) = 1.45% over the mean; with ep = 1 there is no busiest GPU."""
    f_w, f_c = ep_imbalance(256, 8, 8, 8192)
    assert f_w == pytest.approx(1.0)
    assert f_c == pytest.approx(1.0145, abs=2e-4)
    assert ep_imbalance(256, 8, 1, 1) == (1.0, 1.0)
    assert ep_imbalance(256, 8, 8, 100)[1] < ep_imbalance(256, 8, 8, 10)[1] < ep_imbalance(256, 8, 8, 1)[1]


def test_a_sequence_is_not_split_over_attention_ranks():
    """One sequence on 8 attention data-parallel ranks: its rank holds it whole (not 1/8); 4 sequences: 1 on
    the busiest; 64: 8 each (round-robin)."""
    assert busiest_rank(1, 8) == 1.0
    assert busiest_rank(4, 8) == 1.0
    assert busiest_rank(64, 8) == 8.0
    assert busiest_rank(0.5, 8) == 0.5


def test_eplb_charges_the_mean_load(kb):
    """workload.eplb (SGLang and vLLM --enable-eplb, off by default): the busiest expert-parallel GPU is charged
    the mean, so the EP step at one token equals the uniform-load one; off, it reads 2.41x the mean's experts."""
    from gpuwise.estimators import serving as SV
    from gpuwise.estimators.serving.step import consts, step
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    def job(eplb: bool):
        w = {"task": "inference", "model": "deepseek-v3", "precision": "fp8", "framework": "sglang",
             "prompt_tokens": 128, "output_tokens": 256, "eplb": eplb,
             "parallelism": {"tp": 1, "pp": 1, "ep": 8}}
        return resolve(Requirements.model_validate({"workload": w}), kb)

    gpu = kb.gpus["h200-141gb-sxm"]
    on, off = job(True), job(False)
    s_on, s_off = SV.choose(on, gpu, 8), SV.choose(off, gpu, 8)
    assert (s_on.replica.layout.ep, s_on.replica.layout.dp_attention) == (8, 8)
    a = step(on, s_on.engine, s_on.replica, 1.0, 0.0, 256.0, 0.0)
    b = step(off, s_off.engine, s_off.replica, 1.0, 0.0, 256.0, 0.0)
    c = consts(on, s_on.engine, s_on.replica)
    mean_read = c.w_experts * c.k_over_e  # one token: 8 of 256 experts, a GPU's 32 read 1 on average
    assert c.ep_z == 0.0
    assert b.weight_bytes_gpu - a.weight_bytes_gpu == pytest.approx((ep_imbalance(256, 8, 8, 1)[0] - 1) * mean_read)
