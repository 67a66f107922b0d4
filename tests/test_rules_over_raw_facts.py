"""Verdicts that used to be made in Python and handed to the rules as yes/no fields are now the
rules' own comparisons over the raw figures (versions as numbers, tensor-parallel width against the
fast-link domain and the server, readings against policy values). The old flags are gone from the
vocabulary, and the comparisons decide at their edges."""

from __future__ import annotations

from typing import Any

import pytest

from gpuwise.decide import engine as rules
from gpuwise.decide import facts, rulebook

BOOK = rulebook.load()

GONE = {
    "environment": {"driver_in_minor_compat", "torch_too_old_for_gpu", "flash_stack_ok", "framework_stack_ok",
                    "rocm_gfx_ok", "flash_gfx_ok", "framework_gfx_ok", "gaudi_device_ok", "gaudi_torch_match",
                    "torch_flavor_ok", "npu_cann_match"},
    "candidate": {"tp_outside_domain", "tp_across_nodes", "serving_fits"},
}


def test_the_python_verdicts_are_gone_from_the_vocabulary():
    for fact, names in GONE.items():
        assert not names & facts.FACT_TYPES[fact], names & facts.FACT_TYPES[fact]


def fired(fact: dict[str, Any]) -> set[str]:
    return {rule for rule, _idx, _stage in rules.run(BOOK, [fact]).firings}


ENV = {"t": "environment", "gpu": "h100-80gb-sxm", "cuda_device": True, "driver_known": True, "cuda_known": True}


@pytest.mark.parametrize("driver, expected", [
    # CUDA 12.4 needs driver 550.54.14; the 12.x family runs from 525.60.13 under minor-version
    # compatibility (NVIDIA CUDA Toolkit release notes, tables 2 and 3)
    (535.104005, True), (525.060013, True), (550.054014, False), (525.060012, False),
])
def test_minor_version_compatibility_is_the_rules_comparison(driver, expected):
    fact = {**ENV, "driver_num": driver, "cuda_family_floor_num": 525.060013, "cuda_min_driver_num": 550.054014}
    assert ("CPT-DRIVER-MINOR-COMPAT" in fired(fact)) is expected


@pytest.mark.parametrize("release, expected", [(2.006, True), (2.007, False), (2.008, False)])
def test_a_pytorch_release_older_than_the_gpu_is_refused_by_the_rule(release, expected):
    """PyTorch 2.7 is the first release with sm_100 kernels (PyTorch 2.7 release blog)."""
    fact = {**ENV, "pytorch_known": True, "torch_release_known": False, "torch_release_num": release,
            "gpu_first_pytorch_num": 2.007}
    assert ("CPT-TORCH-TOO-OLD-FOR-GPU" in fired(fact)) is expected


@pytest.mark.parametrize("rocm, expected", [(5.007, True), (6.0, False), (-1.0, False)])
def test_flash_attn_on_an_old_rocm_is_the_rules_comparison(rocm, expected):
    """flash-attn's ROCm backends need ROCm 6.0 (knowledge/software.yaml library_support)."""
    fact = {"t": "environment", "gpu": "mi300x", "wants_flash": True, "stack": "rocm", "rocm_num": rocm,
            "flash_min_stack_num": 6.0}
    assert ("CPT-FLASH-OLD-ROCM" in fired(fact)) is expected


@pytest.mark.parametrize("flavor, stack, expected", [
    ("rocm", "cuda", True), ("cpu", "rocm", True), ("cuda", "cuda", False), ("", "cuda", False),
    ("cpu", "gaudi", False),  # Gaudi's bridge loads into a plain (CPU) wheel
])
def test_a_wheel_for_another_vendor_is_the_rules_choice(flavor, stack, expected):
    fact = {"t": "environment", "gpu": "g", "pytorch_known": True, "torch_flavor": flavor, "stack": stack}
    assert ("CPT-TORCH-WRONG-FLAVOR" in fired(fact)) is expected


@pytest.mark.parametrize("cann, needs, expected", [("8.0.RC3", "8.0.RC3", False), ("8.0.RC2", "8.0.RC3", True)])
def test_torch_npu_and_cann_are_matched_by_the_rule(cann, needs, expected):
    fact = {"t": "environment", "gpu": "ascend-910b", "stack": "cann", "torch_npu_release_known": True,
            "cann_known": True, "cann_key": cann.upper(), "torch_npu_cann_key": needs.upper()}
    assert ("CPT-ASCEND-CANN" in fired(fact)) is expected


CAND = {"t": "candidate", "stage": "interconnect", "tag": "", "gpu": "rtx-4090", "fast_enough": True,
        "multi_gpu": True, "training": False, "efficiency": 0.9, "link": "PCIe", "nodes": 1, "count": 8}


@pytest.mark.parametrize("tp, domain, per_node, over_pcie, across", [
    (4, 1, 8, True, False),   # four PCIe cards: outside the (one-GPU) fast-link domain
    (2, 2, 8, False, False),  # an NVLink bridge pair holds a copy
    (8, 8, 8, False, False),  # an NVSwitch board
    (16, 8, 8, False, True),  # a copy over two servers
])
def test_tensor_parallel_placement_is_the_rules_comparison(tp, domain, per_node, over_pcie, across):
    got = fired({**CAND, "tp": tp, "tp_domain": domain, "per_node": per_node})
    assert ("NET-TP-OVER-PCIE" in got) is over_pcie
    assert ("NET-TP-ACROSS-NODES" in got) is across


@pytest.mark.parametrize("sequences, expected", [(0.0, True), (1.0, False), (-1.0, False)])
def test_no_room_to_serve_is_the_rules_comparison(sequences, expected):
    fact = {"t": "candidate", "stage": "compute", "tag": "", "gpu": "rtx-4090", "count": 1, "training": False,
            "max_concurrent_sequences": sequences}
    assert ("CMP-NO-ROOM-TO-SERVE" in fired(fact)) is expected


CARD = {"t": "card", "card": 1, "serial": "x", "has_smi": True, "link_width": 16, "link_width_max": 16,
        "link_gen": 4, "link_gen_max": 4, "gpu_idle": False, "pstate": 0, "power_limit_w": 450.0,
        "default_power_limit_w": 450.0}


@pytest.mark.parametrize("change, rule, expected", [
    ({"link_width": 8}, "USED-PCIE-WIDTH", True),
    ({"link_width": -1}, "USED-PCIE-WIDTH", False),
    ({"link_gen": 3}, "USED-PCIE-GEN-UNDER-LOAD", True),
    ({"link_gen": 1, "pstate": 8}, "USED-PCIE-GEN-UNDER-LOAD", False),  # policy idle_pstate_min 8: idling
    ({"link_gen": 1, "gpu_idle": True}, "USED-PCIE-GEN-UNDER-LOAD", False),
    # policy power_limit_tolerance_fraction 0.01: 1 % either way of the 450 W default
    ({"power_limit_w": 445.0}, "USED-POWER-LIMIT-CHANGED", True),
    ({"power_limit_w": 455.0}, "USED-POWER-LIMIT-CHANGED", True),
    ({"power_limit_w": 449.0}, "USED-POWER-LIMIT-CHANGED", False),
    ({"default_power_limit_w": -1.0}, "USED-POWER-LIMIT-CHANGED", False),
])
def test_used_card_readings_are_compared_by_the_rules(change, rule, expected):
    assert (rule in fired({**CARD, **change})) is expected
