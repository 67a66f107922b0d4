"""Verdicts that used to be made in Python and handed to the rules as yes/no fields are now the
rules' own comparisons over the raw figures (versions as numbers, tensor-parallel width against the
fast-link domain and the server, readings against policy values). The old flags are gone from the
vocabulary, and the comparisons decide at their edges."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from gpuwise.decide import engine as rules
from gpuwise.decide import facts, rulebook

BOOK = rulebook.load()

GONE = {
    "environment": {"driver_in_minor_compat", "torch_too_old_for_gpu", "flash_stack_ok", "framework_stack_ok",
                    "rocm_gfx_ok", "flash_gfx_ok", "framework_gfx_ok", "gaudi_device_ok", "gaudi_torch_match",
                    "torch_flavor_ok", "npu_cann_match", "amd_driver_listed", "torch_rocm_wheel", "torch_rocm_gfx_ok",
                    "bnb_version_status", "npu_torch_match"},
    "candidate": {"tp_outside_domain", "tp_across_nodes", "serving_fits", "buy_unit_ok", "framework_multi_node_ok",
                  "framework_supports_gpu", "framework_supports_precision"},
    "job": {"single_node_feasible", "feasible_candidates", "rate_met_somewhere"},
    "card": {"clocks_changed", "hw_slowdown", "width_below_max", "gen_below_max", "at_idle", "power_limit_changed"},
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


@pytest.mark.parametrize("tp, domain, per_node, training, net_ms, over_pcie, across, serving_across", [
    (4, 1, 8, False, 0.0, True, False, False),   # four PCIe cards: outside the (one-GPU) fast-link domain
    (2, 2, 8, False, 0.0, False, False, False),  # an NVLink bridge pair holds a copy
    (8, 8, 8, False, 0.0, False, False, False),  # an NVSwitch board
    (16, 8, 8, True, -1.0, False, True, False),  # a training copy over two servers: rejected
    (16, 8, 8, False, 5.9, False, False, True),  # a serving copy over two servers: estimated, and warned of
    (16, 72, 4, False, 0.0, False, False, False),  # 16 GPUs of an NVL72 rack: its all-reduces stay on NVLink
])
def test_tensor_parallel_placement_is_the_rules_comparison(tp, domain, per_node, training, net_ms, over_pcie,
                                                           across, serving_across):
    got = fired({**CAND, "tp": tp, "tp_domain": domain, "per_node": per_node, "training": training,
                 "cross_node_tp_ms": net_ms, "cross_node_allreduce_us": 47.6 if net_ms > 0 else 0.0})
    assert ("NET-TP-OVER-PCIE" in got) is over_pcie
    assert ("NET-TP-ACROSS-NODES" in got) is across
    assert ("NET-TP-ACROSS-NODES-SERVING" in got) is serving_across


@pytest.mark.parametrize("sequences, expected", [(0.0, True), (1.0, False), (-1.0, False)])
def test_no_room_to_serve_is_the_rules_comparison(sequences, expected):
    fact = {"t": "candidate", "stage": "compute", "tag": "", "gpu": "rtx-4090", "count": 1, "training": False,
            "max_concurrent_sequences": sequences, "kv_pool_gb": -1.0, "kv_pool_room_gb": -1.0}  # no pool stated
    assert ("CMP-NO-ROOM-TO-SERVE" in fired(fact)) is expected


CARD = {"t": "card", "card": 1, "serial": "x", "has_smi": True, "link_width": 16, "link_width_max": 16,
        "link_width_fraction": 1.0,
        "link_gen": 4, "link_gen_max": 4, "gpu_idle": False, "gpu_idle_known": True, "pstate": 0,
        "power_limit_w": 450.0, "default_power_limit_w": 450.0, "app_clocks_off_mhz": -1,
        "reason_hw_slowdown": False, "reason_hw_thermal_slowdown": False, "reason_hw_power_brake": False,
        "reason_sw_thermal_slowdown": False}


@pytest.mark.parametrize("change, rule, expected", [
    # policy used_card_pcie_width_riser_fraction 0.25: x4 of x16 and narrower is a riser or a fault
    # (a warning); x8 of x16 is the slot (information); the full width, or none known, is nothing
    ({"link_width": 1, "link_width_fraction": 0.0625}, "USED-PCIE-WIDTH", True),
    ({"link_width": 4, "link_width_fraction": 0.25}, "USED-PCIE-WIDTH", True),
    ({"link_width": 4, "link_width_fraction": 0.25}, "USED-PCIE-WIDTH-SLOT", False),
    ({"link_width": 8, "link_width_fraction": 0.5}, "USED-PCIE-WIDTH", False),
    ({"link_width": 8, "link_width_fraction": 0.5}, "USED-PCIE-WIDTH-SLOT", True),
    ({}, "USED-PCIE-WIDTH-SLOT", False),
    ({"link_width": -1, "link_width_fraction": -1.0}, "USED-PCIE-WIDTH", False),
    ({"link_width": -1, "link_width_fraction": -1.0}, "USED-PCIE-WIDTH-SLOT", False),
    ({"link_gen": 3}, "USED-PCIE-GEN-UNDER-LOAD", True),
    ({"link_gen": 1, "pstate": 8}, "USED-PCIE-GEN-UNDER-LOAD", False),  # policy idle_pstate_min 8: idling
    ({"link_gen": 1, "gpu_idle": True}, "USED-PCIE-GEN-UNDER-LOAD", False),
    # a report with neither a P-state nor the gpu_idle limiter cannot say the card was busy
    ({"link_gen": 1, "pstate": -1, "gpu_idle_known": False}, "USED-PCIE-GEN-UNDER-LOAD", False),
    ({"link_gen": 1, "pstate": -1, "gpu_idle_known": True}, "USED-PCIE-GEN-UNDER-LOAD", True),
    # application clocks: any distance from the defaults the report gives; -1 when it gives none
    ({"app_clocks_off_mhz": 139}, "USED-CLOCKS-CHANGED", True),
    ({"app_clocks_off_mhz": 0}, "USED-CLOCKS-CHANGED", False),
    ({"app_clocks_off_mhz": -1}, "USED-CLOCKS-CHANGED", False),
    # clock limiters: the hardware and thermal ones mean failing cooling or power; a power cap does not
    ({"reason_hw_slowdown": True}, "USED-THROTTLING", True),
    ({"reason_hw_thermal_slowdown": True}, "USED-THROTTLING", True),
    ({"reason_hw_power_brake": True}, "USED-THROTTLING", True),
    ({"reason_sw_thermal_slowdown": True}, "USED-THROTTLING", True),
    ({"throttle_reasons": "sw_power_cap", "throttling": True}, "USED-THROTTLING", False),
    # policy power_limit_tolerance_fraction 0.01: 1 % either way of the 450 W default
    ({"power_limit_w": 445.0}, "USED-POWER-LIMIT-CHANGED", True),
    ({"power_limit_w": 455.0}, "USED-POWER-LIMIT-RAISED", True),  # worded by direction: raised is no miner's
    ({"power_limit_w": 455.0}, "USED-POWER-LIMIT-CHANGED", False),
    ({"power_limit_w": 445.0}, "USED-POWER-LIMIT-RAISED", False),
    ({"power_limit_w": 454.0}, "USED-POWER-LIMIT-RAISED", False),
    ({"power_limit_w": 449.0}, "USED-POWER-LIMIT-CHANGED", False),
    ({"default_power_limit_w": -1.0}, "USED-POWER-LIMIT-CHANGED", False),
])
def test_used_card_readings_are_compared_by_the_rules(change, rule, expected):
    assert (rule in fired({**CARD, **change})) is expected


ROCM = {"t": "environment", "gpu": "mi300x", "gpu_name": "AMD Instinct MI300X", "stack": "rocm", "gfx": "gfx942",
        "driver_known": True, "rocm_known": True, "rocm_given": True, "rocm_release_known": True,
        "pytorch_known": True, "torch_rocm_release_known": True}


@pytest.mark.parametrize("listed, in_list, expected", [
    ("6.4.x, 6.3.x", False, True),   # AMD lists drivers for the release and this one is not among them
    ("6.4.x, 6.3.x", True, False),
    ("", False, False),              # no list for the release: nothing to check against
])
def test_an_unlisted_amd_driver_is_the_rules_choice(listed, in_list, expected):
    fact = {**ROCM, "rocm_driver_list": listed, "amd_driver_in_list": in_list}
    assert ("CPT-ROCM-DRIVER-UNLISTED" in fired(fact)) is expected


@pytest.mark.parametrize("with_gfx, unchecked, rocm_known, expected", [
    (0, 0, False, True),    # every wheel's ROCm is in the matrix, lists all its targets, and not gfx942
    (1, 0, False, False),   # one wheel's ROCm lists the target
    (0, 1, False, False),   # one wheel's ROCm gpuwise cannot check: not refused on a guess
    (0, 0, True, False),    # a ROCm version is given: CPT-ROCM-GFX-UNSUPPORTED judges that one
])
def test_a_pytorch_release_without_rocm_wheels_for_the_gpu_is_the_rules_count(with_gfx, unchecked, rocm_known,
                                                                              expected):
    fact = {**ROCM, "rocm_known": rocm_known, "torch_rocm_wheels_with_gfx": with_gfx,
            "torch_rocm_wheels_unchecked": unchecked}
    assert ("CPT-ROCM-TORCH-NO-GFX" in fired(fact)) is expected


@pytest.mark.parametrize("in_wheels, release_known, expected", [(False, True, True), (True, True, False),
                                                                (False, False, False)])
def test_no_wheel_for_the_rocm_version_is_the_rules_lookup(in_wheels, release_known, expected):
    fact = {**ROCM, "rocm_in_torch_wheels": in_wheels, "torch_rocm_release_known": release_known}
    assert ("CPT-ROCM-TORCH-NO-WHEEL" in fired(fact)) is expected


BNB = {"t": "environment", "gpu": "mi300x", "gpu_name": "AMD Instinct MI300X", "stack": "rocm", "wants_bnb": True,
       "bnb_known": True, "bnb_stack_status": "official"}


@pytest.mark.parametrize("version, first, official, no_backend, experimental", [
    # bitsandbytes on ROCm: experimental from 0.48.0, official from 0.50.0 (knowledge/software.yaml)
    (0.045, 0.048, 0.050, True, False),
    (0.048, 0.048, 0.050, False, True),
    (0.049002, 0.048, 0.050, False, True),
    (0.050, 0.048, 0.050, False, False),
    # Gaudi: official from 0.48.0, no experimental window
    (0.047, 0.048, 0.048, True, False),
    (0.048, 0.048, 0.048, False, False),
    # a stack the table marks experimental with no floor, and one with no row (-1: not judged)
    (0.045, 0.0, -1.0, False, True),
    (0.045, -1.0, -1.0, False, False),
])
def test_a_bitsandbytes_release_is_judged_against_the_floors_by_the_rules(version, first, official, no_backend,
                                                                          experimental):
    got = fired({**BNB, "bnb_num": version, "bnb_first_num": first, "bnb_official_num": official})
    assert ("CPT-BNB-VERSION-NO-BACKEND" in got) is no_backend
    assert ("CPT-BNB-EXPERIMENTAL" in got) is experimental


def test_the_bitsandbytes_floors_are_read_from_the_table(kb):
    from gpuwise.knowledge.compat import _support_floors, library_row

    rocm = library_row(kb.software, "bitsandbytes", "rocm")
    assert _support_floors(rocm) == (pytest.approx(0.048), pytest.approx(0.050))
    assert _support_floors(library_row(kb.software, "bitsandbytes", "cann")) == (-1.0, -1.0)
    assert _support_floors(None) == (-1.0, -1.0)


@pytest.mark.parametrize("pytorch, pinned, expected", [
    ("2.5", "2.5.1", False),     # the user gave the minor release: any 2.5.x is that release
    ("2.5.1", "2.5.1", False),
    ("2.5.0", "2.5.1", True),    # a patch given is compared as given
    ("2.6.0", "2.5.1", True),
    ("2.5.1+cpu", "2.5.1", False),
])
def test_torch_npu_and_pytorch_are_compared_by_the_rule(pytorch, pinned, expected):
    from gpuwise.knowledge.compat import _as_given, version_num

    fact = {"t": "environment", "gpu": "ascend-910b", "stack": "cann", "torch_npu_known": True,
            "pytorch_known": True, "pytorch_num": version_num(pytorch.split("+")[0]),
            "torch_npu_pytorch_num": _as_given(pinned, pytorch)}
    assert ("CPT-ASCEND-TORCH-NPU-PYTORCH" in fired(fact)) is expected


BUY = {"t": "candidate", "stage": "tco", "tag": "", "gpu": "mi300x", "gpu_name": "AMD Instinct MI300X",
       "acquisition": "buy", "buy_unavailable_reason": "x", "buy_known": False, "count": 2}


@pytest.mark.parametrize("in_servers, listed, past, not_sold", [
    (True, False, 2, True),    # 2 x MI300X: sold only as 8-GPU platforms
    (True, True, 4, False),    # 4 GPUs of an H100 sold as 4- or 8-GPU baseboards: a size sold
    (True, False, 0, False),   # 16 GPUs: two whole 8-GPU servers
    (False, False, 0, False),  # PCIe cards: any count
])
def test_a_count_that_cannot_be_bought_is_the_rules_choice(in_servers, listed, past, not_sold):
    got = fired({**BUY, "buy_in_servers": in_servers, "buy_size_listed": listed, "buy_past_whole_servers": past})
    assert ("MARKET-UNIT-NOT-SOLD" in got) is not_sold
    assert ("TCO-NO-PURCHASE-PRICE" in got) is (not not_sold)  # one reason each, never both


HEADROOM = float(BOOK.policy["memory_headroom_fraction"])
LORA_JOB = {"t": "job", "full_training": True, "task": "finetune", "model": "m", "state_gb": 1.0, "weights_gb": 1.0,
            "int4_weights_gb": 1.0}


@pytest.mark.parametrize("share, expected", [
    (1 - HEADROOM, False),  # exactly the usable share: MEM-NO-FIT lets such a candidate through
    (1 - HEADROOM + 1e-3, True), (0.5, False), (3.0, True),
])
def test_whether_one_server_holds_a_full_fine_tune_is_the_rules_comparison(share, expected):
    """MEM-ALT-LORA compares the roomiest server's least need with its capacity less the policy's
    headroom, as MEM-NO-FIT compares a candidate's (80 GB cards: the edge is 80 x (1 - headroom))."""
    fact = {**LORA_JOB, "server_capacity_gb": 80.0, "server_need_gb": 80.0 * share}
    assert ("MEM-ALT-LORA" in fired(fact)) is expected


def test_a_headroom_overlay_moves_the_one_server_verdict():
    """With half of every GPU kept free (a policy overlay), 60 GB of 80 no longer fits one server."""
    fact = {**LORA_JOB, "server_capacity_gb": 80.0, "server_need_gb": 60.0}
    assert "MEM-ALT-LORA" not in fired(fact)
    half = rulebook.load(None, {**BOOK.policy, "memory_headroom_fraction": 0.5})
    assert "MEM-ALT-LORA" in {r for r, _i, _s in rules.run(half, [fact]).firings}


@pytest.mark.parametrize("ram, needed, expected", [
    (1800.0, 8117.0, True),  # 8 GPUs' rented RAM against a 405B ZeRO-3 offload (tests/test_alt_lora_host_ram.py)
    (1800.0, 1800.0, False),  # exactly the RAM: MEM-HOST-RAM-SHORT lets such a candidate through
    (-1.0, 8117.0, False),  # RAM not known: the built-in rule does not judge it
    (1800.0, 0.0, False),  # nothing offloaded
])
def test_whether_host_ram_keeps_a_full_fine_tune_off_one_server_is_the_rules_comparison(ram, needed, expected):
    """MEM-ALT-LORA-HOST-RAM compares the host RAM of the one-server layout closest to holding its
    offload with what it needs, as MEM-HOST-RAM-SHORT compares a candidate's; only where the GPUs
    of one server hold the job (else MEM-ALT-LORA fires instead)."""
    fits = {**LORA_JOB, "server_capacity_gb": 80.0, "server_need_gb": 40.0,
            "host_server_ram_gb": ram, "host_server_ram_needed_gb": needed}
    got = fired(fits)
    assert ("MEM-ALT-LORA-HOST-RAM" in got) is expected and "MEM-ALT-LORA" not in got
    too_big = {**fits, "server_need_gb": 79.0}
    assert "MEM-ALT-LORA" in fired(too_big) and "MEM-ALT-LORA-HOST-RAM" not in fired(too_big)


def test_the_host_ram_server_is_the_one_closest_to_holding_its_offload():
    """Nothing offloaded or RAM enough first, then RAM not known, then the least short: a rule that
    counted an unknown RAM as short would find the servers after it short too."""
    from types import SimpleNamespace

    from gpuwise.decide.subjects import host_ram_key

    def est(gpu, need_gb, ram_gb):
        return SimpleNamespace(gpu=SimpleNamespace(id=gpu), count=8, host_ram_needed_bytes_per_node=need_gb * 1e9,
                               host_ram_gb=ram_gb)

    short, shorter = est("a", 2000.0, 1800.0), est("b", 8000.0, 1800.0)
    unknown, enough, none = est("c", 2000.0, None), est("d", 1000.0, 1800.0), est("e", 0.0, None)
    order = sorted([shorter, unknown, short, enough, none], key=host_ram_key)
    assert [e.gpu.id for e in order] == ["e", "d", "c", "a", "b"]


def test_the_roomiest_server_is_the_least_share_of_capacity():
    """8 x H100 (80 GB) needing 70 GB each is 87.5 % full; 8 x MI300X (192 GB) needing 150 GB is
    78.1 %: the MI300X server is the one the rule judges, whatever the headroom."""
    from gpuwise.decide.subjects import Server, roomiest

    h100, mi300x = Server("h100", 8, 70e9, 80e9), Server("mi300x", 8, 150e9, 192e9)
    assert roomiest(h100, mi300x, None) == mi300x
    assert roomiest(None) is None
    assert roomiest(Server("x", 8, float("inf"), 80e9), h100) == h100
    # a server under the rules' memory limit is kept (the search looks no further), roomier or not
    held = Server("a100", 8, 60e9, 80e9, held=True)
    assert roomiest(mi300x, held) == held


def test_the_job_fact_carries_the_roomiest_servers_figures(kb):
    """The 405B full fine-tune of the MEM-ALT-LORA case on RTX 4090s: 8 cards of 24 GB; its least
    need per card (every layout of 8, offload included) is far over 24 x (1 - headroom)."""
    from gpuwise.decide.count_search import estimates
    from gpuwise.decide.subjects import candidate_gpus, job_fact
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    q = {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-405b", "seq_len": 8192,
                      "train_tokens": 1e8},
         "constraints": {"gpus": ["rtx-4090"], "max_gpus": 64, "acquisition": "rent"}}
    job = resolve(Requirements.model_validate(q), kb)
    evs, _modes, server = estimates(job, candidate_gpus(job)[0])
    fact = job_fact(job, evs, -1.0, server)
    assert (fact["server_gpu"], fact["server_gpus"]) == ("rtx-4090", 8)
    assert fact["server_capacity_gb"] == pytest.approx(24564 * 2**20 / 1e9)  # nvidia-smi: 24564 MiB
    assert fact["server_need_gb"] > fact["server_capacity_gb"]
    eight = next(e for e in evs if e.count == 8)
    assert fact["server_need_gb"] * 1e9 <= min(eight.memory.per_gpu, eight.requested_memory_per_gpu) + 1


@pytest.mark.parametrize("best, expected", [(2.0, False), (1.999, True), (-1.0, True), (5.0, False)])
def test_a_rate_no_candidate_serves_is_the_rules_comparison(best, expected):
    """SRV-RATE-NONE compares the best rate any candidate serves with the rate asked (2 requests/s)."""
    fact = {"t": "job", "has_rate_target": True, "requests_per_s": 2.0, "best_requests_per_s": best}
    assert ("SRV-RATE-NONE" in fired(fact)) is expected


@pytest.mark.parametrize("spans, copy, per_node, expected", [
    (False, 16, 8, True), (False, 8, 8, False), (True, 16, 8, False), (False, 8, 6, True), (False, 1, 1, False),
])
def test_a_copy_over_servers_is_the_rules_comparison(spans, copy, per_node, expected):
    """CMP-FRAMEWORK-NODES: a framework that runs on one machine (llama.cpp, ExLlama) cannot serve a
    copy needing more GPUs than one server of the candidate holds."""
    fact = {"t": "candidate", "stage": "compute", "tag": "", "detail": 0, "training": False,
            "framework_spans_servers": spans, "copy_gpus": copy, "per_node": per_node}
    assert ("CMP-FRAMEWORK-NODES" in fired(fact)) is expected


SERVED = {"t": "candidate", "stage": "compute", "tag": "", "detail": 0, "training": False,
          "framework_vendor_listed": True, "framework_min_cc": 8.0, "precision_listed": True,
          "precision_min_cc": 0.0, "precision_units": True}


@pytest.mark.parametrize("change, expected", [
    ({"cc": 8.0}, False), ({"cc": 7.5}, True),  # TensorRT-LLM's CUDA build: Ampere (sm_80) and newer
    ({"cc": 0.0, "framework_min_cc": 0.0}, False),  # not a CUDA device: no compute-capability floor
    ({"cc": 9.0, "framework_vendor_listed": False}, True),
])
def test_a_framework_that_does_not_run_on_the_gpu_is_the_rules_comparison(change, expected):
    assert ("CMP-FRAMEWORK-GPU" in fired({**SERVED, **change})) is expected


@pytest.mark.parametrize("change, expected", [
    # TensorRT-LLM's FP8 W8A8 kernels: Ada, Hopper and Blackwell (sm_89 and newer; its support matrix)
    ({"cc": 8.9, "precision_min_cc": 8.9}, False), ({"cc": 8.0, "precision_min_cc": 8.9}, True),
    ({"cc": 9.0, "precision_listed": False}, True), ({"cc": 9.0, "precision_units": False}, True),
    ({"cc": 9.0}, False),
])
def test_a_precision_the_framework_cannot_serve_here_is_the_rules_comparison(change, expected):
    assert ("CMP-FRAMEWORK-PRECISION" in fired({**SERVED, **change})) is expected


def test_the_framework_figures_come_from_the_serving_table(kb):
    """knowledge/serving.yaml: TensorRT-LLM runs on NVIDIA from sm_80; its FP8 path needs sm_89; vLLM
    runs AMD; llama.cpp serves from one machine."""
    from gpuwise.estimators.serving.support import support, support_figures

    trt, vllm = kb.framework("tensorrt-llm"), kb.framework("vllm")
    a100, h100, mi300x = kb.gpus["a100-80gb-sxm"], kb.gpus["h100-80gb-sxm"], kb.gpus["mi300x"]
    fig = support_figures(trt, a100, "fp8")
    assert (fig.framework_min_cc, fig.precision_min_cc, fig.precision_listed) == (8.0, 8.9, True)
    assert support_figures(trt, mi300x, "bf16").framework_vendor_listed is False
    amd = support_figures(vllm, mi300x, "bf16")
    assert amd.framework_vendor_listed and amd.framework_min_cc == 0.0
    # the rules and the estimator's own reading of the same entry agree on every GPU and precision
    for fw in (trt, vllm, kb.framework("llama.cpp")):
        for g in (a100, h100, mi300x, kb.gpus["rtx-4090"], kb.gpus["v100-32gb-sxm2"]):
            for precision in ("bf16", "fp8", "int4", "fp4"):
                figs = support_figures(fw, g, precision)
                cc = float(g.compute_capability) if g.compute_capability else 0.0
                fact = {**SERVED, **dataclasses.asdict(figs), "cc": cc}
                sup = support(fw, g, precision)
                got = fired(fact)
                assert ("CMP-FRAMEWORK-GPU" in got) is (not sup.gpu_ok), (fw.id, g.id, precision)
                assert ("CMP-FRAMEWORK-PRECISION" in got) is (not sup.precision_ok), (fw.id, g.id, precision)


def test_estimates_count_for_a_deadline_is_the_rules_choice():
    """``gpuwise estimate --gpu`` without ``--gpus`` picks the fewest GPUs the memory and deadline
    rules let through, as recommend judges the same counts: 8B full fine-tune on 3B tokens in 2 days."""
    from gpuwise.decide.estimate import estimate
    from gpuwise.decide.recommend import recommend

    q = {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096,
                      "train_tokens": 3e9}, "constraints": {"deadline_days": 2, "acquisition": "rent"}}
    got = estimate(q, gpu="h100-80gb-sxm")
    n = got.gpu.count
    judged = {c.count: c for c in recommend({**q, "constraints": {**q["constraints"], "gpus": ["h100-80gb-sxm"]}}
                                            ).candidates}
    assert not {"MEM-NO-FIT", "CMP-DEADLINE"} & set(judged[n].rules)
    assert judged[n].wall_days <= 2
    assert {"MEM-NO-FIT", "CMP-DEADLINE"} & set(judged[n // 2].rules)  # the count below fails one of them
    # a looser deadline (4 days) lets fewer GPUs through
    looser = estimate({**q, "constraints": {**q["constraints"], "deadline_days": 4}}, gpu="h100-80gb-sxm")
    assert looser.gpu.count < n
