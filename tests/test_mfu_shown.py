"""The utilisation an estimate shows is the one its step time gives (review33): a step's model FLOPs over its
GPU-seconds at the dense peak, so it agrees with the GPU-hours beside it. It showed the GEMMs' calibrated MFU
(runtime.yaml mfu hopper, Megatron-Core's 0.60 scaled to the width: 53% for Llama 2 13B) while the step ran the
default (middle) stack at about 0.9 of that stack's speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import gpuwise

ROOT = Path(__file__).parent.parent


def _estimate(path: Path, gpu: str, count: int) -> dict:
    r = gpuwise("estimate", str(path), "--gpu", gpu, "--gpus", str(count), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_full_fine_tune_mfu_is_its_step_s():
    """examples/finetune-full-13b.yaml on 8 x H100 SXM (989.5 TFLOP/s dense BF16): 500e6 tokens at 131,072 a step
    are 3,814.7 steps; the model FLOPs (no recomputation) 3.98e19 / 3,814.7 = 1.044e16 a step, over 8 GPUs x
    989.5e12 x the step's 2.82 s = 2.232e16 FLOP: 0.468, not the 0.532 of the GEMMs at Megatron-Core's speed. The
    whole run's is that times the goodput (0.85): the GPU-hours are steps x step time / goodput x GPUs."""
    d = _estimate(ROOT / "examples" / "finetune-full-13b.yaml", "h100", 8)
    g, t = d["gpu"], d["gpu"]["training"]
    steps = 500e6 / 131072
    assert t["optimizer_steps"] == pytest.approx(steps)
    step_s = t["step_terms"]["step_s"]
    assert g["mfu"] == pytest.approx(d["compute"]["flops"] / steps / (step_s * 8 * 989.5e12), rel=1e-6)
    assert g["mfu"] == pytest.approx(0.468, abs=0.002)
    assert t["mfu_whole_run"] == pytest.approx(g["mfu"] * t["goodput"], rel=1e-6)
    term = next(x for x in g["terms"] if x["name"] == "step_mfu")
    assert term["value"] == g["mfu"] and term["inputs"]["gpus"] == 8
    assert term["inputs"]["step_flops"] * steps == pytest.approx(d["compute"]["flops"])


def test_offloaded_fine_tune_mfu_is_its_compute_s():
    """8B full fine-tune, ZeRO-3 with CPU offload on 2 x RTX 3090 (tests/data/buyer_questions): the row says
    'while computing', so the host's part of the step (offload_s, the GPUs wait) is left out of its seconds; the
    whole run's is that x (step - offload) / step x goodput. Model FLOPs, not the recomputing forward the layout's
    checkpointing adds (the compute term's multiplier 8): 100e6 tokens x (6 x 7,504,924,672 matmul params + 6 x 32
    layers x 4,096 seq x 4,096 hidden) = 4.825e18, over 381.47 steps of 262,144 tokens."""
    d = _estimate(ROOT / "tests" / "data" / "buyer_questions" / "finetune-8b-zero3-offload-cpu.yaml", "rtx-3090", 2)
    g, t = d["gpu"], d["gpu"]["training"]
    s = t["step_terms"]
    assert s["offload_s"] > 0
    busy = s["step_s"] - s["offload_s"]
    assert "ckpt" in t["layout_notation"] and d["compute"]["terms"][0]["inputs"]["multiplier"] == 8
    step_flops = 100e6 * (6 * 7_504_924_672 + 6 * 32 * 4096 * 4096) / (100e6 / 262144)
    assert g["mfu"] == pytest.approx(step_flops / (busy * 2 * g["peak_tflops"] * 1e12), rel=1e-6)
    assert t["mfu_whole_run"] == pytest.approx(g["mfu"] * busy / s["step_s"] * t["goodput"], rel=1e-6)
