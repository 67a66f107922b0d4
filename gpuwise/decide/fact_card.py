"""The card fact of the vocabulary (:mod:`gpuwise.decide.facts`): one used card of an audited proposal, as the
rules on used cards and their sellers' reports (rules/used-hardware.yaml) read it."""

from __future__ import annotations

from typing import Literal

from .fact_base import FactModel, _f


class CardFact(FactModel):
    """One used card of a proposal: dates, samples under load and what nvidia-smi reports."""

    card: int = _f("position in the proposal's list, from 1")
    serial: str = _f("serial number")
    gpu: str = _f("GPU id claimed")
    has_dates: bool = _f("manufacture and purchase dates given")
    months_to_sale: int = _f("months from manufacture to sale (-1 unknown)")
    manufactured: str = _f("manufacture month, YYYY-MM ('' unknown)")
    segment: Literal["datacenter", "workstation", "consumer", "cloud-only"] = _f("the claimed GPU's market segment")
    consumer: bool = _f("a consumer card")
    fan_cv: float = _f("fan speed coefficient of variation (-1 unknown)")
    fan_swing: float = _f("fan speed swing, fraction of the mean (-1 unknown)")
    fan_samples: int = _f("fan samples given")
    power_cv: float = _f("power draw coefficient of variation (-1 unknown)")
    power_swing: float = _f("power draw swing, fraction of the mean (-1 unknown)")
    power_samples: int = _f("power samples given")
    has_smi: bool = _f("an nvidia-smi report was given")
    smi_error: str = _f("what was wrong with the report")
    retired_pages: int = _f("retired memory pages (-1 unknown)")
    remapped_rows: int = _f("remapped memory rows (-1 unknown)")
    memory_repairs: int = _f("retired pages and remapped rows together, as far as the report gives them (-1 unknown)")
    pending: bool = _f("a memory repair waits for a reset")
    remap_failure: bool = _f("row remapping failed")
    uncorrectable_ecc: int = _f("uncorrectable ECC errors (-1 unknown)")
    correctable_ecc: int = _f("correctable ECC errors (-1 unknown)")
    ecc_on: int = _f("1 the report says ECC is on now, 0 off, -1 unknown (N/A, not given, no report)")
    ecc_memory: bool = _f("the claimed GPU's memory has ECC (knowledge gpus.yaml memory.ecc)")
    pstate: int = _f("performance state of the report (0 busiest ... 12 idle; -1 unknown)")
    gpu_idle: bool = _f("the report's gpu_idle clock limiter is active")
    gpu_idle_known: bool = _f("the report states the gpu_idle clock limiter (active or not)")
    link_width: int = _f("PCIe width now (-1 unknown)")
    link_width_max: int = _f("PCIe width supported")
    link_gen: int = _f("PCIe generation now")
    link_gen_max: int = _f("PCIe generation supported")
    link_width_fraction: float = _f("PCIe width now / width supported (-1 unknown)")
    link_gb_s: float = _f("one-direction GB/s of the link at its width now and the generation supported "
                          "(what it carries under load; -1 unknown)")
    link_gb_s_full: float = _f("one-direction GB/s of the link at the width and generation supported (-1 unknown)")
    power_limit_w: float = _f("power limit, W")
    default_power_limit_w: float = _f("default power limit, W")
    app_clocks_off_mhz: int = _f("how far the application clocks (graphics or memory) are from their defaults, "
                                 "MHz: the larger of the pairs the report gives (-1 unknown)")
    throttle_reasons: str = _f("active clock limiters")
    throttling: bool = _f("a clock limiter is active")
    reason_hw_slowdown: bool = _f("the report's hw_slowdown clock limiter is active")
    reason_hw_thermal_slowdown: bool = _f("the report's hw_thermal_slowdown clock limiter is active")
    reason_hw_power_brake: bool = _f("the report's hw_power_brake_slowdown clock limiter is active")
    reason_sw_thermal_slowdown: bool = _f("the report's sw_thermal_slowdown clock limiter is active")
    vbios: str = _f("VBIOS version")
    product_name: str = _f("product name the report gives")
    product_matches: int = _f("1 the report's product is the claimed GPU, 0 another, -1 unknown")
    purchase: bool = _f("the proposal buys the cards (not a rental)")
    primary: bool = _f("the card's first fact: card-level signals (dates, samples, serial) are judged on it")
    serial_given: bool = _f("the proposal gives the card's serial number")
    serial_in_report: int = _f("1 the serial is in the nvidia-smi report, 0 it is not, -1 unknown")
    gpu_index: int = _f("which GPU of the report this fact judges, from 1")
    gpus_in_report: int = _f("GPUs in the nvidia-smi report (0 none)")
    judged_all: bool = _f("the report has several GPUs and none has the card's serial: each is judged")
    report_serial: str = _f("the serial the report gives for this GPU ('' none)")
    remap_banks_exhausted: int = _f("memory banks with no spare rows left for remapping (-1 unknown)")
    pcie_replays: int = _f("PCIe replays since the driver loaded (-1 unknown)")
    memory_mib: int = _f("memory the report shows, MiB (-1 unknown)")
    claimed_memory_mib: int = _f("memory of the claimed GPU, MiB (GB as marketed x 1024)")
    memory_ratio: float = _f("memory shown / memory claimed (-1 unknown)")
    gpu_temp_c: int = _f("GPU temperature, deg C (-1 unknown)")
    gpu_temp_limit_c: int = _f("GPU maximum operating (else slowdown) temperature, deg C (-1 unknown)")
    gpu_slowdown_temp_c: int = _f("GPU slowdown temperature, deg C (-1 unknown)")
    gpu_shutdown_temp_c: int = _f("GPU shutdown temperature, deg C (-1 unknown)")
    mem_temp_c: int = _f("memory temperature, deg C (-1 unknown)")
    mem_temp_limit_c: int = _f("memory maximum operating temperature, deg C (-1 unknown)")
    mem_type: str = _f("memory type of the GPU claimed (GDDR6X, HBM3...; empty without a report)")
    mem_throttle_c: int = _f("temperature at which that memory type throttles, deg C, from policy (-1 unknown)")
    recovery: str = _f("what the driver says the GPU needs after an error it could not clear (unreachable, a reset, "
                       "a reboot, a drain, a pending TPC repair, SRAM errors past the threshold); '' none")
    virtual_gpu: bool = _f("the report is a virtual machine's view of a vGPU (vGPU mode, or a vGPU type's name), "
                           "not of a physical card")
