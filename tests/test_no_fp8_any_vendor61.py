"""amdfp8_61 (issue 22 item 6): an FP8 job on a GPU without FP8 matrix units is flagged whatever its maker.

Before: CMP-NO-FP8 asked for a CUDA device, so FP8 training on an Instinct MI210 / MI250X / MI100 or a Radeon
RX 7900 XTX / PRO W7900 (datasheets: no FP8 rate; knowledge/gpus.yaml peaks.fp8 null) got no finding, and vLLM
served FP8 weights there priced as NVIDIA's weight-only FP8 Marlin path, which vLLM's ROCm build does not have
(Marlin kernels are CUDA's; RocmPlatform.supports_fp8() names gfx94x, gfx95x and gfx12 only, vllm/platforms/rocm.py;
vllm-project/vllm pull request #52985: on gfx90a an FP8 checkpoint 'crashes in torch._scaled_mm' as no weight-only
FP8 kernel is registered for ROCm; #44369: MI250 'has no native fp8 and cannot run these models')."""

from __future__ import annotations

import pytest

import gpuwise
from gpuwise.estimators.serving.support import support

NO_FP8 = ["mi210", "mi250x", "mi250", "mi100", "rx-7900-xtx", "radeon-pro-w7900", "a100-80gb-sxm"]
FP8 = ["mi300x", "h100-80gb-sxm"]

TRAIN = {"task": "finetune", "model": "llama-3.1-8b", "method": "lora", "train_tokens": 1.0e8, "precision": "fp8"}


def _hits(result, rule: str) -> set[str]:
    return {c.gpu for c in result.candidates if rule in c.rules} | {
        f.subject.split(" x ")[0] for f in result.findings if f.rule == rule}


def test_fp8_training_without_fp8_units_is_flagged_on_every_vendor(kb):
    assert all(kb.gpus[g].peaks.fp8 is None for g in NO_FP8) and all(kb.gpus[g].peaks.fp8 for g in FP8)
    r = gpuwise.recommend({"workload": TRAIN, "constraints": {"gpus": NO_FP8 + FP8, "max_gpus": 1,
                                                             "acquisition": "buy"}})
    hit = _hits(r, "CMP-NO-FP8")
    assert hit >= set(NO_FP8) and not hit & set(FP8), hit
    said = [f.message for f in r.findings if f.rule == "CMP-NO-FP8"]
    assert said and all("compute capability 0.0" not in m for m in said), said


def test_fp8_training_is_priced_at_the_bf16_rate_where_there_is_no_fp8(kb):
    """No FP8 GEMM rate is used on a card that has none: on one stack (Megatron, the fp8 default; bf16 alone would
    default to another stack, 17.15 against 15.61 GPU-hours on the MI210 for the stack's sake) the MI210's and the
    A100's fp8 runs take their bf16 runs' GPU-hours (step_time.py takes the FP8 speed-up only where peaks.fp8 is
    set), where an H100's fp8 run is faster than its bf16 one."""
    hours = {}
    for gid in ("mi210", "a100-80gb-sxm", "h100-80gb-sxm"):
        for p in ("fp8", "bf16"):
            r = gpuwise.recommend({"workload": {**TRAIN, "precision": p, "stack": "megatron"},
                                   "constraints": {"gpus": [gid], "max_gpus": 1, "acquisition": "buy"}})
            c = next(c for c in r.candidates if c.gpu == gid)
            hours[gid, p] = (c.gpu_hours, c.memory_per_gpu_bytes)
    assert hours["mi210", "fp8"] == hours["mi210", "bf16"], hours
    assert hours["a100-80gb-sxm", "fp8"] == hours["a100-80gb-sxm", "bf16"], hours
    assert hours["h100-80gb-sxm", "fp8"][0] < 0.9 * hours["h100-80gb-sxm", "bf16"][0], hours


@pytest.mark.parametrize("gid", ["mi210", "mi250x", "rx-7900-xtx", "radeon-pro-w7900"])
def test_vllm_has_no_fp8_path_on_amd_parts_without_fp8(kb, gid):
    """vLLM ROCm: no weight-only FP8 kernel, and FP8 W8A8 only where the part has FP8 (supports_fp8: gfx94x / gfx95x
    / gfx12): refused, where it was priced as a weight-only path at the bf16 rate."""
    s = support(kb.framework("vllm"), kb.gpus[gid], "fp8")
    assert not s.precision_ok and s.reason == "precision_hardware", s


def test_vllm_fp8_stays_weight_only_on_an_a100_and_native_on_mi300x(kb):
    """vLLM docs, FP8 W8A8: FP8 models run on compute capability 7.5+ as weight-only W8A16 (FP8 Marlin)."""
    a100 = support(kb.framework("vllm"), kb.gpus["a100-80gb-sxm"], "fp8")
    assert a100.precision_ok and a100.compute == "bf16" and a100.weight_only
    mi300 = support(kb.framework("vllm"), kb.gpus["mi300x"], "fp8")
    assert mi300.precision_ok and mi300.compute == "fp8" and not mi300.weight_only


def test_fp8_serving_rules_say_what_happens_instead():
    """An A100 serves FP8 weights widened to 16 bits (CMP-FP8-WEIGHT-ONLY, not the training rule's wording); an
    MI210 under vLLM is refused by CMP-FRAMEWORK-PRECISION; an MI300X gets neither."""
    r = gpuwise.recommend({"workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "fp8",
                                        "framework": "vllm"},
                           "constraints": {"gpus": ["a100-80gb-sxm", "mi210", "mi300x"], "max_gpus": 1}})
    assert _hits(r, "CMP-FP8-WEIGHT-ONLY") == {"a100-80gb-sxm"}
    assert "mi210" in _hits(r, "CMP-FRAMEWORK-PRECISION") and "mi300x" not in _hits(r, "CMP-FRAMEWORK-PRECISION")
    assert not _hits(r, "CMP-NO-FP8")
    mi210 = next(c for c in r.candidates if c.gpu == "mi210")
    assert "no weight-only fp8 kernel for AMD GPUs" in " ".join(s.text for s in mi210.reason_sentences), mi210


def test_fp4_training_without_fp4_units_is_a_training_finding_priced_at_fp8():
    """The same question for FP4: full training in fp4 on an H100 or an MI300X (FP8 units, no FP4) got
    CMP-FP4-EMULATED's serving sentence ('fp4 weights are dequantized to 16 bit') while its step was priced at the
    FP8 speed. Now CMP-NO-FP4 says so for training, the serving rule stays silent, and a B200 gets neither; the
    H100's fp4 GPU-hours are its fp8 ones (25.95 on 8 GPUs, Megatron), the B200's fp4 run is faster than its fp8."""
    job = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1.0e9, "stack": "megatron"}
    gpus = ["h100-80gb-sxm", "mi300x", "b200"]
    r = gpuwise.recommend({"workload": {**job, "precision": "fp4"},
                           "constraints": {"gpus": gpus, "max_gpus": 8, "acquisition": "buy"}})
    assert _hits(r, "CMP-NO-FP4") == {"h100-80gb-sxm", "mi300x"} and not _hits(r, "CMP-FP4-EMULATED")
    r8 = gpuwise.recommend({"workload": {**job, "precision": "fp8"},
                            "constraints": {"gpus": gpus, "max_gpus": 8, "acquisition": "buy"}})

    def hours(res, gid):
        return next(c.gpu_hours for c in res.candidates if c.gpu == gid and c.count == 8)
    assert hours(r, "h100-80gb-sxm") == hours(r8, "h100-80gb-sxm")
    assert hours(r, "b200") < hours(r8, "b200")
