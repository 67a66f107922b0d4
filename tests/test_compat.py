"""Software compatibility per GPU and stack (issue 14): driver ceilings, kernel-module flavours,
PyTorch releases outside the tables, ROCm gfx targets and wheels, Intel Gaudi and Ascend
version pairs, flash-attn / bitsandbytes / frameworks per stack.

Every case builds the environment fact with gpuwise/knowledge/compat.py from the real
knowledge files and runs it through the real durable-rules engine (as tests/test_rules.py
does); the expected outcomes are the vendors' published tables named in each test.
"""

from __future__ import annotations

from typing import Any

import pytest

from gpuwise import knowledge
from gpuwise.decide import engine as rules
from gpuwise.decide import rulebook
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Environment, Requirements, Workload
from gpuwise.knowledge.compat import environment_fact, environment_facts, rocm_row, stack_of
from gpuwise.messages import fill

BOOK = rulebook.load()
KB = knowledge.load(None)
SW = KB.software
INFER = Workload(task="inference", params_b=7)
QLORA = Workload(task="finetune", method="qlora", params_b=7, precision="int4")


def _gpu(gid: str, like: str, **update: Any) -> Any:
    """A catalog GPU; parts another lane is adding to the catalog are stood in by a copy of a
    sibling with the published identity (vendor, architecture, ISA) changed."""
    if gid in KB.gpus:
        return KB.gpus[gid]
    return KB.gpus[like].model_copy(update={"id": gid, **update})


MI355X = _gpu("mi355x", "mi300x", name="AMD Instinct MI355X 288GB", architecture="cdna4", isa="gfx950")
ASCEND_910B = _gpu("ascend-910b", "gaudi2", name="Huawei Ascend 910B 64GB", vendor="huawei",
                   architecture="ascend-910b", isa="ascend910b")


def _run(gpu: Any, env: Environment, w: Workload = INFER) -> dict[str, tuple[str, str]]:
    """rule id -> (severity, message) for the compatibility rules that fire on one GPU."""
    fact = {"t": "environment", **environment_fact(SW, gpu, env, w)}
    out = {}
    for rid, _idx, _stage in rules.run(BOOK, [fact]).firings:
        rule = BOOK.rules[rid]
        if BOOK.ruleset_of[rid] == "compatibility":  # a reject excludes the GPU: a blocker
            severity = "blocker" if rule.then.action == "reject" else rule.then.severity
            out[rid] = (severity, fill(rule.then.message, fact))
    return out


def _blockers(fired: dict[str, tuple[str, str]]) -> list[str]:
    return [rid for rid, (sev, _) in fired.items() if sev == "blocker"]


# ----------------------------------------------------------------------------- NVIDIA driver lifecycle
def test_p40_with_driver_595_is_refused() -> None:
    """NVIDIA deprecation schedule: R580 is the last branch for Maxwell, Pascal and Volta."""
    fired = _run(KB.gpus["p40"], Environment(driver="595.45.04"))
    sev, msg = fired["CPT-DRIVER-DROPPED-GPU"]
    assert sev == "blocker"
    assert "595.45.04" in msg and "R580" in msg and "pascal" in msg.lower()


def test_p40_on_the_r580_branch_is_accepted() -> None:
    assert "CPT-DRIVER-DROPPED-GPU" not in _run(KB.gpus["p40"], Environment(driver="580.95.05"))


def test_volta_with_driver_590_is_refused_but_turing_is_not() -> None:
    assert "CPT-DRIVER-DROPPED-GPU" in _run(KB.gpus["v100-32gb-sxm2"], Environment(driver="590.44.01"))
    assert "CPT-DRIVER-DROPPED-GPU" not in _run(KB.gpus["t4"], Environment(driver="590.44.01"))


def test_b200_with_proprietary_modules_is_refused() -> None:
    """NVIDIA Driver Installation Guide: Blackwell needs the open GPU kernel modules."""
    fired = _run(KB.gpus["b200"], Environment(kernel_modules="proprietary"))
    sev, msg = fired["CPT-KMOD-OPEN-REQUIRED"]
    assert sev == "blocker" and "open GPU kernel modules" in msg
    assert not {"CPT-KMOD-OPEN-REQUIRED", "CPT-KMOD-UNKNOWN"} & set(_run(KB.gpus["b200"],
                                                                          Environment(kernel_modules="open")))


def test_b200_with_unknown_modules_is_an_info() -> None:
    sev, msg = _run(KB.gpus["b200"], Environment(driver="580.95.05"))["CPT-KMOD-UNKNOWN"]
    assert sev == "info" and "open GPU kernel modules" in msg
    assert "proprietary" in _run(KB.gpus["p40"], Environment(driver="580.95.05"))["CPT-KMOD-UNKNOWN"][1]
    assert "CPT-KMOD-UNKNOWN" not in _run(KB.gpus["h100-80gb-sxm"], Environment(driver="580.95.05"))
    assert "CPT-KMOD-UNKNOWN" in _run(KB.gpus["gh200-96gb"], Environment(driver="580.95.05"))  # Grace Hopper


def test_pascal_with_open_modules_is_refused() -> None:
    """The open modules need the GSP (Turing and newer); Pascal needs the proprietary ones."""
    sev, msg = _run(KB.gpus["p100-16gb-pcie"], Environment(kernel_modules="open"))["CPT-KMOD-PROPRIETARY-REQUIRED"]
    assert sev == "blocker" and "Turing" in msg


# ----------------------------------------------------------------------------- PyTorch outside the tables
def test_h100_with_pytorch_1_12_is_flagged_as_too_old() -> None:
    """pytorch.org previous versions: 1.12 ships cu102/cu113/cu116 only; sm_90 needs CUDA 11.8 (PyTorch 2.0)."""
    fired = _run(KB.gpus["h100-80gb-sxm"], Environment(pytorch="1.12.1"))
    sev, msg = fired["CPT-TORCH-TOO-OLD-FOR-GPU"]
    assert sev == "blocker" and "1.12.1" in msg and "2.0" in msg and "9.0" in msg
    assert "CPT-TORCH-UNKNOWN-RELEASE" not in fired


def test_a100_with_pytorch_1_12_is_unknown_not_silent() -> None:
    """No floor is recorded for sm_80, so 1.12 (below the table's 2.0) is 'cannot check', not a pass."""
    sev, msg = _run(KB.gpus["a100-80gb-sxm"], Environment(pytorch="1.12"))["CPT-TORCH-UNKNOWN-RELEASE"]
    assert sev == "info" and "1.12" in msg and "2.0 to 2.14" in msg


def test_pytorch_newer_than_the_table_is_unknown() -> None:
    fired = _run(KB.gpus["h100-80gb-sxm"], Environment(pytorch="2.15.0"))
    assert fired["CPT-TORCH-UNKNOWN-RELEASE"][0] == "info"
    assert not _blockers(fired)


def test_rocm_wheel_on_an_nvidia_gpu_is_refused() -> None:
    sev, msg = _run(KB.gpus["h100-80gb-sxm"], Environment(pytorch="2.6.0+rocm6.2.4"))["CPT-TORCH-WRONG-FLAVOR"]
    assert sev == "blocker" and "rocm" in msg and "CUDA" in msg


# ----------------------------------------------------------------------------- AMD ROCm
def test_rocm_matrix_rows() -> None:
    """AMD ROCm compatibility matrix (7.1.1 revision): gfx950 from 7.0.0; RDNA4 from 6.4.1."""
    assert "gfx950" not in rocm_row(SW, "6.4.3").gfx and "gfx950" in rocm_row(SW, "7.0.0").gfx
    assert "gfx1201" not in rocm_row(SW, "6.4.0").gfx and "gfx1201" in rocm_row(SW, "6.4.1").gfx
    assert rocm_row(SW, "6.4") is rocm_row(SW, "6.4.3")  # a bare minor means its newest patch
    assert rocm_row(SW, "5.7") is None


def test_mi355x_on_rocm_without_gfx950_is_refused() -> None:
    sev, msg = _run(MI355X, Environment(rocm="6.4.3"))["CPT-ROCM-GFX-UNSUPPORTED"]
    assert sev == "blocker" and "6.4.3" in msg and "gfx950" in msg and "7.0.0" in msg


def test_mi355x_with_a_pytorch_whose_rocm_wheels_lack_gfx950_is_refused() -> None:
    """pytorch.org: 2.9 publishes rocm6.4 wheels only; ROCm 6.4 has no gfx950."""
    sev, msg = _run(MI355X, Environment(pytorch="2.9.0"))["CPT-ROCM-TORCH-NO-GFX"]
    assert sev == "blocker" and "2.9" in msg and "6.4" in msg and "gfx950" in msg
    assert "CPT-ROCM-TORCH-NO-GFX" not in _run(MI355X, Environment(pytorch="2.10.0"))  # rocm7.1 wheels


def test_mi300x_with_an_unknown_rocm_is_an_info() -> None:
    sev, msg = _run(KB.gpus["mi300x"], Environment(rocm="5.7"))["CPT-ROCM-UNKNOWN-RELEASE"]
    assert sev == "info" and "5.7" in msg and "gfx942" in msg


@pytest.mark.parametrize(("rocm", "pytorch"), [("7.1.1", "2.10.0"), ("6.2.4", "2.6.0"), ("6.4.1", "2.8.0+rocm6.4")])
def test_mi300x_on_a_supported_rocm_pytorch_pair_has_no_compatibility_finding(rocm: str, pytorch: str) -> None:
    """gfx942 is in every ROCm 6.x/7.x column; each PyTorch release publishes a wheel for that ROCm."""
    fired = _run(KB.gpus["mi300x"], Environment(rocm=rocm, pytorch=pytorch, os="ubuntu-22.04"))
    assert not [rid for rid, (sev, _) in fired.items() if sev in ("blocker", "warning")], fired


def test_pytorch_without_a_wheel_for_the_host_rocm_is_an_info() -> None:
    sev, msg = _run(KB.gpus["mi300x"], Environment(rocm="6.4.1", pytorch="2.6.0"))["CPT-ROCM-TORCH-NO-WHEEL"]
    assert sev == "info" and "6.1, 6.2.4" in msg and "6.4.1" in msg


def test_amdgpu_driver_outside_the_listed_window_is_a_warning() -> None:
    """ROCm 7.1.1 lists AMD GPU Driver 30.20.1 ... 30.10 and 6.4.x; 6.2.x is outside."""
    assert "CPT-ROCM-DRIVER-UNLISTED" not in _run(KB.gpus["mi300x"], Environment(rocm="7.1.1", driver="30.10.1"))
    sev, msg = _run(KB.gpus["mi300x"], Environment(rocm="7.1.1", driver="6.2.4"))["CPT-ROCM-DRIVER-UNLISTED"]
    assert sev == "warning" and "6.2.4" in msg and "30.20.1" in msg


# ----------------------------------------------------------------------------- libraries and frameworks
@pytest.mark.parametrize(("bnb", "rule", "severity"), [
    ("0.45.0", "CPT-BNB-VERSION-NO-BACKEND", "blocker"),
    ("0.48.2", "CPT-BNB-EXPERIMENTAL", "warning"),
    (None, "CPT-BNB-VERSION-UNKNOWN", "info"),
])
def test_qlora_on_rocm_by_bitsandbytes_release(bnb: str | None, rule: str, severity: str) -> None:
    """bitsandbytes installation guide: ROCm alpha in 0.45, experimental in 0.48, official from 0.50."""
    fired = _run(KB.gpus["mi300x"], Environment(rocm="7.1.1", bitsandbytes=bnb), QLORA)
    sev, msg = fired[rule]
    assert sev == severity and "QLoRA" in msg and "0.50.0" in msg
    if bnb:
        assert bnb in msg


def test_qlora_on_rocm_with_a_current_bitsandbytes_passes() -> None:
    fired = _run(KB.gpus["mi300x"], Environment(rocm="7.1.1", bitsandbytes="0.50.2"), QLORA)
    assert not [r for r in fired if r.startswith("CPT-BNB")]


def test_qlora_on_ascend_is_refused() -> None:
    """bitsandbytes 0.50 lists no Ascend NPU backend."""
    sev, msg = _run(ASCEND_910B, Environment(), QLORA)["CPT-BNB-NO-BACKEND"]
    assert sev == "blocker" and "CANN" in msg


def test_flash_attention_per_stack() -> None:
    """flash-attn README: ROCm CK/Triton backends for MI200/MI300/MI355 and RDNA3/4, ROCm >= 6.0; no Gaudi build."""
    flash = Workload(task="inference", params_b=7, attention="flash")
    assert not [r for r in _run(KB.gpus["mi250x"], Environment(rocm="6.2.4"), flash) if r.startswith("CPT-FLASH")]
    sev, msg = _run(KB.gpus["gaudi3-128gb-oam"], Environment(), flash)["CPT-FLASH-NO-BUILD"]
    assert sev == "warning" and "FusedSDPA" in msg
    gfx908 = KB.gpus["mi300x"].model_copy(update={"id": "mi100", "name": "AMD Instinct MI100", "isa": "gfx908"})
    assert _run(gfx908, Environment(), flash)["CPT-FLASH-GFX"][0] == "blocker"


def test_cuda_only_framework_on_rocm_is_refused_and_plugins_are_named() -> None:
    trt = Workload(task="inference", params_b=7, framework="tensorrt-llm")
    sev, msg = _run(KB.gpus["mi300x"], Environment(), trt)["CPT-FRAMEWORK-NOT-ON-STACK"]
    assert sev == "blocker" and "tensorrt-llm" in msg and "ROCm" in msg
    vllm = Workload(task="inference", params_b=7, framework="vllm")
    sev, msg = _run(KB.gpus["gaudi3-128gb-oam"], Environment(), vllm)["CPT-FRAMEWORK-PLUGIN"]
    assert sev == "info" and "Gaudi" in msg
    assert not _run(KB.gpus["mi300x"], Environment(rocm="7.1.1"), vllm)


# ----------------------------------------------------------------------------- Intel Gaudi
def test_gaudi3_with_mismatched_software_and_pytorch_is_refused() -> None:
    """Intel Gaudi Support Matrix v1.21.0: PyTorch 2.6.0."""
    fired = _run(KB.gpus["gaudi3-128gb-oam"], Environment(synapse="1.21.0", pytorch="2.7.1"))
    sev, msg = fired["CPT-GAUDI-TORCH"]
    assert sev == "blocker" and "1.21.0" in msg and "2.6.0" in msg and "2.7.1" in msg
    assert not _run(KB.gpus["gaudi3-128gb-oam"], Environment(synapse="1.23.0", pytorch="2.9.0"))


def test_gaudi3_on_software_before_gaudi3_is_refused() -> None:
    """Support Matrix v1.15.0 covers first-gen Gaudi and Gaudi 2 only; v1.16.0 adds Gaudi 3."""
    sev, msg = _run(KB.gpus["gaudi3-128gb-oam"], Environment(synapse="1.15.0"))["CPT-GAUDI-DEVICE"]
    assert sev == "blocker" and "1.15.0" in msg and "1.16" in msg


# ----------------------------------------------------------------------------- Huawei Ascend
def test_ascend_910b_with_mismatched_cann_is_a_finding() -> None:
    """Ascend/pytorch COMPATIBILITY.md: torch_npu 2.5.1 pairs with PyTorch 2.5.1 and CANN 8.1.RC1."""
    fired = _run(ASCEND_910B, Environment(torch_npu="2.5.1", pytorch="2.5.1", cann="8.0.0"))
    sev, msg = fired["CPT-ASCEND-CANN"]
    assert sev == "warning" and "2.5.1" in msg and "8.1.RC1" in msg and "8.0.0" in msg
    assert not _run(ASCEND_910B, Environment(torch_npu="2.5.1", pytorch="2.5.1", cann="8.1.RC1"))


def test_ascend_910b_with_torch_npu_for_another_pytorch_is_refused() -> None:
    sev, msg = _run(ASCEND_910B, Environment(torch_npu="2.5.1.post1", pytorch="2.6.0"))["CPT-ASCEND-TORCH-NPU-PYTORCH"]
    assert sev == "blocker" and "2.5.1" in msg and "2.6.0" in msg


# ----------------------------------------------------------------------------- when facts exist
def _job(environment: dict, **workload: Any) -> Any:
    req = Requirements.model_validate({"workload": {"task": "finetune", "params_b": 7, **workload},
                                       "environment": environment})
    return resolve(req, KB)


def test_facts_only_when_an_environment_or_a_stack_dependent_library_is_asked_for() -> None:
    assert environment_facts(_job({}), ["h100-80gb-sxm", "mi300x"]) == []
    qlora = environment_facts(_job({}, method="qlora", precision="int4"), ["h100-80gb-sxm", "mi300x"])
    assert [f["gpu"] for f in qlora] == ["mi300x"]
    assert len(environment_facts(_job({"rocm": "7.1.1"}), ["h100-80gb-sxm", "mi300x"])) == 2


def test_stacks_of_the_catalog() -> None:
    assert {stack_of(KB.gpus[g]) for g in ("b200", "mi300x", "gaudi2")} == {"cuda", "rocm", "gaudi"}
    assert stack_of(ASCEND_910B) == "cann"


def test_versions_that_yaml_would_mangle_must_be_quoted() -> None:
    """ROCm 7.10, Gaudi 1.20 and bitsandbytes 0.50 read as the numbers 7.1, 1.2 and 0.5."""
    for field in ("rocm", "synapse", "bitsandbytes"):
        with pytest.raises(ValueError, match="quotes"):
            Environment.model_validate({field: 1.2})
