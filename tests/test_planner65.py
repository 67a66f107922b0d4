"""Branch planner65: stating ``offload: none`` must not give a slower plan than leaving offload open where the open
plan offloads nothing.

Held-out row H961 (Modalities' scaling sweep, Modalities/modalities docs/scaling_experiments/scaling_mn5.md at
5644c95f: 2.7B, 4 GPUs, FULL_SHARD, MBS 3, 4,096 tokens, no activation checkpointing) with its conditions pinned
(torchtitan, TP1 PP1, ZeRO-3, micro-batch 3 stated; offload none since branch modalities65: Modalities' FSDP wrapper
passes no cpu_offload, model_factory.py at aa1a3bcb), on the H100 80GB entry with its memory set to 72 GB. The stated
micro-batch needs 71.33 GB a GPU against 68.40 usable (tests/test_fsdpmem64.py works it). With offload open the
planner finds the same pins at micro-batch 1 x 3 accumulation steps (32.05 GB, no offload:
micro_batch.faster_without_offload); with offload stated none it went to the free layout, whose search keeps the
stated micro-batch 3: TP2 DP2 ZeRO-1, 3 x 2 -- 0.0815 against 0.0763 GPU-hours. Now the largest smaller micro-batch
under the pins (micro_batch.held_smaller) is weighed against the free layout and the faster taken.

The two plans' step parts by hand (gpuwise/estimators/step_time.py step_parts; runtime.yaml):
- compute: the same in both: the same 12,288 tokens a GPU a step, no recomputation (the micro-batch does not enter
  gpuwise's FLOPs a token).
- optimizer: 2.7e9 / 4 parameters a GPU either way (ZeRO-3 over 4; TP2 x ZeRO-1 over 2) x 30 B
  (training.optimizer_bytes_per_param) / (3,350 GB/s x 0.80, decode_bandwidth_efficiency) = 7.556 ms.
- TP2's exposed tensor-parallel traffic: 4 all-reduces a layer a micro-batch (2 forward, 2 backward) x 23 layers x 2
  micro-batches = 184, each of 3 x 4,096 x 3,072 x 2 B = 75.5 MB over NVLink (450 GB/s a direction x 0.75,
  link_efficiency; a 2-GPU ring moves 2 (2 - 1) / 2 x the bytes) plus 2 x 5 us of ring latency, none hidden
  (torchtitan: training.tp_comm_overlap 0): 184 x (223.7 + 10) us = 43.0 ms.
- ZeRO-3's data-parallel traffic at micro-batch 1: 3 micro-batches x (two weight gathers and one gradient
  reduce-scatter of 2.7e9 x 2 B, each a 4-GPU ring moving 3/4 of it over 337.5 GB/s: 12.0 ms) = 108 ms, hidden
  behind the compute but for the last layer's share (a few ms)."""

from __future__ import annotations

import pytest

from tests.test_fsdpmem64 import h961_on_80gb

GIB = 2**30
PARAMS = 2.7e9
STATES = PARAMS * (2 + 2 + 12) / 4  # weights, gradients, master + moments, ZeRO-3 over 4
PER_TOKEN = 23 * (20 * 3072 + 4 * 1024 + 8 * 8192) + 12 * 128_256 + 2 * 2 * 3072  # B a token (test_fsdpmem64)
INTRA = 450e9 * 0.75  # H100 SXM NVLink a direction x link_efficiency, B/s
USABLE_72 = 68_664 * 2**20 * 0.95


def _need(tokens: int) -> float:
    return (STATES + PER_TOKEN * tokens) * 1.05 + GIB


@pytest.fixture(scope="module")
def at72() -> dict:
    return {"open": h961_on_80gb(72, 68_664, offload=""), "none": h961_on_80gb(72, 68_664, offload="none"),
            # the free layout the stated-none search took before this branch, pinned so that it is planned
            "tp2": h961_on_80gb(72, 68_664, offload="none", tp="2", zero="1")}


def _lay(r) -> tuple:
    lay = r.gpu.layout
    return lay.tp, lay.dp, lay.zero, lay.micro_batch, lay.grad_accum, lay.offload


def test_stated_none_plans_the_open_plan(at72):
    assert _need(3 * 4096) > USABLE_72 >= _need(4096)  # 71.33 GB for MBS 3, 32.05 GB for MBS 1
    assert at72["open"].gpu.training.requested_layout.offload == "cpu"  # open: MBS 3 fits only offloaded
    assert not at72["none"].gpu.fits_as_requested  # none: MBS 3 does not fit under the pins
    assert _lay(at72["open"]) == _lay(at72["none"]) == (1, 4, 3, 1, 3, "none")
    assert at72["none"].gpu.layout.global_batch_tokens == 12 * 4096
    assert at72["none"].memory.per_gpu_bytes == pytest.approx(_need(4096), rel=1e-4)
    assert at72["none"].gpu.gpu_hours == pytest.approx(at72["open"].gpu.gpu_hours, rel=1e-12)


def test_the_two_plans_step_parts_by_hand(at72):
    mb1, tp2 = at72["none"].gpu.training.step_terms, at72["tp2"].gpu.training.step_terms
    assert _lay(at72["tp2"]) == (2, 2, 1, 3, 2, "none")  # the free layout: micro-batch 3 kept, two of them
    assert mb1.compute_s == pytest.approx(tp2.compute_s, rel=1e-9)  # the same tokens a GPU, no recompute
    opt = PARAMS / 4 * 30 / (3350e9 * 0.80)
    assert mb1.optimizer_s == pytest.approx(opt, rel=1e-6) and tp2.optimizer_s == pytest.approx(opt, rel=1e-6)
    assert mb1.tp_s == 0.0
    tp_hand = 23 * 4 * 2 * (2 * (2 - 1) / 2 * 3 * 4096 * 3072 * 2 / INTRA + 2 * (2 - 1) * 5e-6)
    assert tp_hand == pytest.approx(0.04300, abs=1e-5)
    assert tp2.tp_s == pytest.approx(tp_hand, rel=1e-6)
    # ZeRO-3's traffic at MBS 1: 3 x (2 gathers + 1 reduce-scatter) of 2 B a parameter, 4-GPU rings over NVLink
    ring = 3 / 4 * PARAMS * 2 / INTRA
    assert ring == pytest.approx(0.0120, abs=1e-4)
    assert 0 < mb1.dp_s < 0.1 * 3 * 3 * ring  # all but the last layer's share hidden behind the compute
    # the step: compute + exposed communication + optimizer; TP2's all-reduces outweigh ZeRO-3's exposed part
    for s in (mb1, tp2):
        assert s.step_s == pytest.approx(s.compute_s + s.tp_s + s.dp_s + s.optimizer_s, rel=1e-9)
    assert tp2.step_s - mb1.step_s == pytest.approx(tp_hand + tp2.dp_s - mb1.dp_s, rel=1e-6)
    assert at72["tp2"].gpu.gpu_hours / at72["none"].gpu.gpu_hours == pytest.approx(tp2.step_s / mb1.step_s,
                                                                                     rel=1e-9)
    assert at72["none"].gpu.gpu_hours < at72["tp2"].gpu.gpu_hours  # 0.0763 against 0.0815 GPU-hours


def test_64_gb_takes_the_smaller_micro_batch_too():
    # on 64 GB no layout of the pins holds MBS 3 even offloaded, and MBS 1 (32.05 GB) fits: both searches find it
    usable = 61_035 * 2**20 * 0.95
    assert _need(4096) < usable
    o, n = h961_on_80gb(64, 61_035, offload=""), h961_on_80gb(64, 61_035, offload="none")
    assert _lay(o) == _lay(n) == (1, 4, 3, 1, 3, "none")


def test_no_held_out_run_of_the_scan_plans_slower_with_offload_none():
    # the one run benchmarks/offload_none_scan.py listed before this branch (814 runs planned twice): H686,
    # torchtitan's Qwen3-32B on 8 H100 at local batch 2 (pytorch/torchtitan pull request 1690), whose open plan is
    # fsdpmem64's MBS 1 x 2 under the pins (TP1 ZeRO-3, checkpointing) and whose stated-none plan was the free
    # TP8 ZeRO-0 at MBS 2: 1.278 -> 1.679 GPU-hours
    from benchmarks.offload_none_scan import scan

    twice, slower = scan(ids={"H686"})
    assert twice == 1 and slower == []
