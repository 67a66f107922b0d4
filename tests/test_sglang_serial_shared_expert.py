"""SGLang's ROCm build runs a MoE layer's shared expert apart from the fused-MoE kernel and after it (knowledge/
serving.yaml sglang ``serial_shared_expert``; fusion.serial_shared_gemms; engine.Engine.shared_gemms): its three
kernels at the kernel floor and, for a block-FP8 checkpoint, the reduction walk of its two GEMMs (step.kserial_seconds).

- When: the sglang wheels' python/sglang/srt/models/deepseek_v2.py fuse the shared expert on HIP in 0.4.6 to
  0.4.6.post3 (a capability >= (9, 0) check an MI300X passes), not from 0.4.6.post4 (`not _is_cuda`) until 0.5.5.post3
  ('AMD-platform with capability >= gfx942(MI30x)'), and never for a DeepseekV3ForCausalLM with other than 256 routed
  experts (Kimi K2's 384: 0.4.6 to 0.5.12; 0.5.13 to 0.5.23 admit 384 only for a Quark checkpoint, which Kimi K2's
  own FP8 release is not).
- Why serial on ROCm: the same files make DeepseekV2Model.alt_stream a CUDA stream only where _is_cuda, and
  DeepseekV2MoE runs the shared expert beside the routed ones (forward_normal_dual_stream) only with that stream."""

from __future__ import annotations

import importlib
import math

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.fusion import serial_shared_gemms

ST = importlib.import_module("gpuwise.estimators.serving.step")


def _choice(kb, accuracy, model: str, gpu: str, version: str | None):
    job = accuracy.serving_job(kb, model, "fp8", "sglang", 610, 422, tp=8, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], 8)


@pytest.mark.parametrize(("model", "gpu", "version", "serial"), [
    ("deepseek-v3", "mi300x", "0.4.10.post1", True),     # LMSYS's MTP blog baseline (row DZ03): `not _is_cuda`
    ("deepseek-v3", "mi300x", "0.4.7", True),            # inside the window
    ("deepseek-v3", "mi300x", "0.4.6.post4", True),      # the first release with that check (branch assume52)
    ("deepseek-v3", "mi300x", "0.4.6.post3", False),     # the last with the capability check alone
    ("deepseek-v3", "mi300x", "0.5.2", True),            # read inside the window (0.5.0 was never uploaded)
    ("deepseek-v3", "mi300x", "0.5.5.post2", True),      # the last without the AMD branch
    ("deepseek-v3", "mi300x", "0.5.5.post3", False),     # the first with it
    ("deepseek-v3.1", "mi300x", "0.5.7", False),         # fused on gfx942 (row M01)
    ("deepseek-v3", "mi300x", "0.4.6", False),           # the capability check alone: fused on an MI300X
    ("deepseek-v3", "mi300x", None, False),              # no release stated: the newest, fused
    ("deepseek-v3", "h200-141gb-sxm", "0.4.10.post1", False),  # a CUDA build fuses it
    ("kimi-k2", "mi300x", "0.5.7", True),                # 384 routed experts: never fused (row SX10)
    ("kimi-k2", "mi300x", None, True),                   # ... in every release read
    ("kimi-k2", "mi300x", "0.5.23", True),               # 0.5.13 on admit 384 only for a Quark checkpoint
    ("kimi-k2", "h200-141gb-sxm", "0.5.7", False),       # unfused but on CUDA's second stream: not serial
])
def test_which_jobs_run_it_apart(kb, accuracy, model, gpu, version, serial):
    job, s = _choice(kb, accuracy, model, gpu, version)
    assert bool(serial_shared_gemms(job, s.engine.fw, kb.gpus[gpu])) is serial
    assert bool(s.engine.shared_gemms) is serial
    if serial:
        assert not s.engine.fuses_shared


def test_kimi_shared_expert_gemms_by_hand(kb, accuracy):
    """Kimi K2 (moonshotai/Kimi-K2-Instruct config.json: hidden 7,168, moe_intermediate_size 2,048, one shared expert,
    first_k_dense_replace 1 of 61 layers): gate/up N = 2 x 2,048 over K = 7,168, down N = 7,168 over K = 2,048, in
    each of the 60 MoE layers."""
    job, s = _choice(kb, accuracy, "kimi-k2", "mi300x", "0.5.7")
    assert serial_shared_gemms(job, s.engine.fw, kb.gpus["mi300x"]) == (
        (4096.0, 7168.0, "n", 60.0), (7168.0, 2048.0, "k", 60.0))


def test_kimi_walk_and_kernels_by_hand(kb, accuracy):
    """SGLang 0.5.7 on 8 x MI300X walks a block-FP8 GEMM 2.0 us a 128-deep block (rocm_block_fp8_walk) less its
    weights at 0.70 x 5.3 TB/s = 3.71 TB/s. The shared expert a MoE layer at TP 8: gate/up N = 4,096 / 8 = 512 over
    K = 7,168 (56 blocks): 112 - 512 x 7,168 B / 3.71 TB/s = 111.01 us; down N = 7,168 over K = 2,048 / 8 = 256
    (2 blocks): 4 - 0.49 = 3.51 us; 60 layers: 6.87 ms. Its three kernels (gate/up, activation, down) at the ROCm
    floor of 6 us: 60 x 18 us = 1.08 ms. The step grows by their sum, 7.95 ms."""
    _, s = _choice(kb, accuracy, "kimi-k2", "mi300x", "0.5.7")
    bw = 0.70 * 5.3e12
    gate_up = math.ceil(7168 / 128) * 2.0e-6 - 512 * 7168 / bw
    down = math.ceil(256 / 128) * 2.0e-6 - 7168 * 256 / bw
    walk = 60 * (gate_up + down)
    assert walk == pytest.approx(6.87e-3, rel=2e-3)
    eng = s.engine
    shared_walk = ST.kserial_seconds(eng, 8) - ST.kserial_seconds(
        type(eng)(**{**{f: getattr(eng, f) for f in eng.__dataclass_fields__}, "shared_gemms": ()}), 8)
    assert shared_walk == pytest.approx(walk, rel=1e-6)
    kernels = ST.floor_per_step(eng) - ST.floor_per_step(
        type(eng)(**{**{f: getattr(eng, f) for f in eng.__dataclass_fields__}, "fuses_shared": True}))
    assert kernels == pytest.approx(60 * 3 * 6e-6, rel=1e-6)


@pytest.mark.parametrize(("row", "model", "version", "published", "before", "after"), [
    # SGLang cookbook Kimi-K2 page (sgl-cookbook 0abf8552), 8 x MI300X TP 8, 0.5.7: 40.41 ms mean TPOT (row SX10)
    ("SX10", "kimi-k2", "0.5.7", 40.41e-3, 23.16e-3, 31.11e-3),
])
def test_step_moves_toward_the_published_one(kb, accuracy, row, model, version, published, before, after):
    """The decode step of one sequence at the row's mean context (610 + 422 / 2) moves by the hand figure above, from
    23.16 ms (43 % short of the published 40.41) to 31.11 ms (23 % short)."""
    job, s = _choice(kb, accuracy, model, "mi300x", version)
    step = SV.point(job, s.engine, s.replica, 1.0).decode_step
    assert step == pytest.approx(after, rel=5e-3)
    assert step - before == pytest.approx(7.95e-3, rel=0.01)
    assert before < step < published
