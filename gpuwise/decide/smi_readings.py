"""The typed readings of an ``nvidia-smi -q -x`` report: what one ``<gpu>`` says
(:class:`GpuReading`) and the whole report (:class:`SmiLog`).

Kept apart from the reading code (:mod:`gpuwise.decide.smi_report`) so that what the used-card
rules judge (:mod:`gpuwise.decide.inspect_card`) depends on the vocabulary, not on the parser.
``None`` everywhere means the report did not say.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class GpuReading(_Frozen):
    """What one ``<gpu>`` block says. ``None`` everywhere means the report did not say."""

    pci_bus_id: str | None = None
    bus_id_in_pci: str | None = None
    """``pci/pci_bus_id``: the bus id inside the block (the ``<gpu id=...>`` attribute repeats it)."""
    product_name: str | None = None
    product_architecture: str | None = None
    serial: str | None = None
    uuid: str | None = None
    vbios_version: str | None = None
    board_part_number: str | None = None
    gpu_part_number: str | None = None
    """Older drivers report the board's 900-... number here and have no ``board_part_number``."""
    driver_version: str | None = None
    cuda_version: str | None = None

    memory_total_mib: int | None = None
    pcie_gen_current: int | None = None
    pcie_gen_max: int | None = None
    link_width_current: int | None = None
    link_width_max: int | None = None
    pcie_replay_count: int | None = None
    """PCIe transactions the GPU had to resend since the driver loaded (``pci/replay_counter``)."""
    pcie_replay_rollovers: int | None = None
    """Times the replay counter wrapped around (``pci/replay_rollover_counter``)."""

    ecc_mode_current: bool | None = None
    ecc_volatile_sbe: int | None = None
    """Correctable ECC errors since the driver loaded (single-bit; ``*_correctable``)."""
    ecc_volatile_dbe: int | None = None
    """Uncorrectable ECC errors since the driver loaded (double-bit; ``*_uncorrectable*``)."""
    ecc_aggregate_sbe: int | None = None
    """Correctable ECC errors over the board's life (kept in the InfoROM)."""
    ecc_aggregate_dbe: int | None = None
    """Uncorrectable ECC errors over the board's life (kept in the InfoROM)."""
    retired_pages_sbe: int | None = None
    retired_pages_dbe: int | None = None
    retired_pages_pending: bool | None = None
    remapped_rows_correctable: int | None = None
    remapped_rows_uncorrectable: int | None = None
    remapped_rows_pending: bool | None = None
    remapped_rows_failure: bool | None = None
    remap_banks_none: int | None = None
    """Memory banks with no spare rows left (``row_remapper_histogram_none``, driver 510 and later)."""
    remap_banks_low: int | None = None
    """Memory banks with few spare rows left (``row_remapper_histogram_low``)."""
    remap_banks_total: int | None = None
    """All banks in the histogram (max + high + partial + low + none)."""

    power_draw_w: float | None = None
    power_limit_w: float | None = None
    default_power_limit_w: float | None = None
    min_power_limit_w: float | None = None
    max_power_limit_w: float | None = None

    clocks_graphics_mhz: int | None = None
    clocks_sm_mhz: int | None = None
    clocks_mem_mhz: int | None = None
    applications_clocks_graphics_mhz: int | None = None
    applications_clocks_mem_mhz: int | None = None
    default_applications_clocks_graphics_mhz: int | None = None
    default_applications_clocks_mem_mhz: int | None = None
    max_clocks_graphics_mhz: int | None = None
    max_clocks_sm_mhz: int | None = None
    max_clocks_mem_mhz: int | None = None

    active_clock_event_reasons: list[str] = []
    """Names of the clock limiters reported ``Active`` (``hw_slowdown``, ``sw_power_cap`` ...),
    without their ``clocks_event_reason_``/``clocks_throttle_reason_`` prefix and without
    ``gpu_idle``, which is in :attr:`gpu_idle`."""
    gpu_idle: bool | None = None
    temperature_c: int | None = None
    gpu_shutdown_temp_c: int | None = None
    """``gpu_temp_max_threshold``: the GPU shuts down at this temperature."""
    gpu_slowdown_temp_c: int | None = None
    """``gpu_temp_slow_threshold``: the GPU slows its clocks at this temperature."""
    gpu_max_operating_temp_c: int | None = None
    """``gpu_temp_max_gpu_threshold``: the highest temperature the GPU is meant to run at."""
    memory_temp_c: int | None = None
    """``memory_temp``: HBM temperature (data-center boards; N/A on GDDR cards)."""
    memory_max_operating_temp_c: int | None = None
    """``gpu_temp_max_mem_threshold``: the memory temperature at which the GPU begins software
    slowdown (a T.Limit margin is not one: :func:`_memory_limit`)."""
    recovery_action: str | None = None
    """``gpu_recovery_action`` (driver 570 and later) when it is not ``None``: what the driver says the
    GPU needs after an error it could not clear (NVML nvmlDeviceGetGpuRecoveryAction: a GPU reset, a
    node reboot, draining peer-to-peer traffic, or a drain and reset for a GPU at reduced capacity)."""
    reset_required: bool | None = None
    """``gpu_reset_status/reset_required`` (drivers 550-565): the GPU needs a reset."""
    drain_and_reset_recommended: bool | None = None
    """``gpu_reset_status/drain_and_reset_recommended`` (drivers 550-565)."""
    channel_repair_pending: bool | None = None
    """``ecc_errors/channel_repair_pending`` (Blackwell): a memory channel repair waits for a reset."""
    tpc_repair_pending: bool | None = None
    """``ecc_errors/tpc_repair_pending`` (Blackwell): a compute unit (TPC) repair waits for a reset."""
    unrepairable_memory: bool | None = None
    """``ecc_errors/unrepairable_memory`` (NVML nvmlDeviceGetUnrepairableMemoryFlag): memory the GPU
    can no longer repair."""
    sram_threshold_exceeded: bool | None = None
    """``ecc_errors/aggregate/sram_threshold_exceeded`` (NVML nvmlEccSramErrorStatus_t
    bThresholdExceeded: the SRAM uncorrectable errors passed the field-diagnostic threshold)."""
    requires_reset_marker: bool = False
    """A reading is ``GPU requires reset`` where a value goes: nvidia-smi writes it for a GPU that
    hit an error and answers no query until it is reset."""
    unreachable: str | None = None
    """nvidia-smi could not reach this GPU ("Unable to determine the device handle for GPU ...:
    Unknown Error" above the report): a GPU that fell off the bus. The reason as nvidia-smi gave it."""
    virtualization_mode: str | None = None
    """``gpu_virtualization_mode/virtualization_mode``: ``VGPU`` is a vGPU inside a virtual machine."""
    fan_speed_percent: int | None = None
    """The fan speed the driver *intends* (NVML, nvmlDeviceGetFanSpeed: "the reported speed is the
    intended fan speed"; a blocked fan does not change it): it says nothing about a worn fan."""
    performance_state: str | None = None
    utilization_gpu_percent: int | None = None


class SmiLog(_Frozen):
    """A whole ``nvidia-smi -q -x`` report."""

    driver_version: str | None = None
    cuda_version: str | None = None
    timestamp: str | None = None
    gpus: list[GpuReading]
