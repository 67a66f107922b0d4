"""Numbers about a used card from its nvidia-smi readings and the seller's story: memory wear,
clock settings, sample variability, months from manufacture to sale, which GPU of a report is the
card's, and whether the reported product is the one claimed.

Only arithmetic and lookups: the rules (rules/used-hardware.yaml) judge every figure against the
policy values (a PCIe link below the card's maximum while busy, a power limit off the default, a
clock limiter that means failing cooling). The report itself is read by
:mod:`gpuwise.decide.smi_report`.
"""

from __future__ import annotations

import datetime as _dt
import math
import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import N_, UserError
from .smi_readings import GpuReading, SmiLog, _Frozen
from .smi_values import _largest, _sum


# ----------------------------------------------------------------------------- derived signals
def pstate(reading: GpuReading) -> int | None:
    """The performance state as a number (P0 busiest ... P12 idle; ``None`` unknown)."""
    match = re.fullmatch(r"P(\d+)", reading.performance_state or "")
    return int(match.group(1)) if match else None


def app_clocks_off_mhz(reading: GpuReading) -> int | None:
    """How far the application clocks (graphics or memory) are from their defaults, MHz: the larger
    of the pairs the report gives (``None`` when it gives neither: GeForce cards often report N/A,
    newer drivers the field as deprecated). The rules judge it (USED-CLOCKS-CHANGED): clocks set
    with ``nvidia-smi -ac`` are a tuning step common on compute and mining setups."""
    pairs = [
        (reading.applications_clocks_graphics_mhz, reading.default_applications_clocks_graphics_mhz),
        (reading.applications_clocks_mem_mhz, reading.default_applications_clocks_mem_mhz),
    ]
    known = [abs(now - default) for now, default in pairs if now is not None and default is not None]
    return max(known) if known else None


class MemoryErrors(_Frozen):
    """Memory wear in one place (see :func:`memory_errors`)."""

    mechanism: str | None
    """``retired_pages`` or ``remapped_rows``: which repair the card reports; ``None`` if neither."""
    retired_pages: int | None
    remapped_rows: int | None
    remapped_rows_uncorrectable: int | None
    repairs: int | None
    """Retired pages and remapped rows together, as far as the report gives them: a card repairs its
    memory one way (pages up to Turing, rows from Ampere), and the other count is N/A, so this is the
    one a message can say (the unknown other was said as '-1 remapped rows')."""
    pending: bool | None
    """A retirement or a row remap waits for the next GPU reset."""
    remap_failure: bool | None
    remap_banks_exhausted: int | None
    """Memory banks with no spare rows left (row-remapper histogram 'none'): the next failing row
    in such a bank cannot be remapped."""
    uncorrectable_ecc: int | None
    """The larger of the lifetime (aggregate) and since-boot (volatile) uncorrectable ECC counts:
    errors since boot count even while the InfoROM's lifetime counter still says 0 (it is
    updated only periodically and at driver unload)."""
    correctable_ecc: int | None
    """The larger of the lifetime and since-boot correctable ECC counts."""


def memory_errors(reading: GpuReading) -> MemoryErrors:
    """Summarise retired pages, remapped rows, pending repairs and uncorrectable errors.

    The GPU hides worn memory by retiring pages (up to Turing) or remapping rows (Ampere and
    later).  Any retired page or remapped row means the memory has failed somewhere; a pending
    repair means errors occurred since the last reset; a remap failure means the spare rows of a
    bank ran out; uncorrectable (double-bit) errors corrupted data.  Counts add the single- and
    double-bit (correctable and uncorrectable) sides; ``None`` means the card does not report it.
    """
    retired = _sum([reading.retired_pages_sbe, reading.retired_pages_dbe])
    remapped = _sum([reading.remapped_rows_correctable, reading.remapped_rows_uncorrectable])
    # Blackwell's repair flags count when set ("No" on a card without the older counters says nothing of them)
    pending = _any_of([reading.retired_pages_pending, reading.remapped_rows_pending,
                       reading.channel_repair_pending or None])
    mechanism = None
    if remapped is not None:
        mechanism = "remapped_rows"
    elif retired is not None:
        mechanism = "retired_pages"
    return MemoryErrors(
        mechanism=mechanism,
        retired_pages=retired,
        remapped_rows=remapped,
        remapped_rows_uncorrectable=reading.remapped_rows_uncorrectable,
        repairs=_sum([retired, remapped]),
        pending=pending,
        remap_failure=_any_of([reading.remapped_rows_failure, reading.unrepairable_memory or None]),
        remap_banks_exhausted=reading.remap_banks_none,
        uncorrectable_ecc=_largest(reading.ecc_aggregate_dbe, reading.ecc_volatile_dbe),
        correctable_ecc=_largest(reading.ecc_aggregate_sbe, reading.ecc_volatile_sbe),
    )


def _any_of(flags: list[bool | None]) -> bool | None:
    """True when a flag is set, False when none is and one is known to be clear, else None."""
    return True if any(flags) else (False if any(f is False for f in flags) else None)


def recovery_needed(reading: GpuReading) -> list[str]:
    """What the driver says the GPU needs before it can be trusted again, in words: it cannot be
    reached (fell off the bus), a recovery action (reset, reboot, drain), a pending compute-unit
    repair, or SRAM errors past NVIDIA's field-diagnostic threshold. Empty for a sound report.
    (A pending memory repair and unrepairable memory are memory wear: :func:`memory_errors`.)"""
    said = []
    if reading.unreachable:
        said.append(f"nvidia-smi cannot reach it: {reading.unreachable}")
    if reading.recovery_action:
        said.append(f"recovery action: {reading.recovery_action}")
    if reading.reset_required or reading.requires_reset_marker:
        said.append("GPU reset required")
    if reading.drain_and_reset_recommended:
        said.append("drain and reset recommended")
    if reading.tpc_repair_pending:
        said.append("TPC repair pending")
    if reading.sram_threshold_exceeded:
        said.append("SRAM error threshold exceeded")
    return said


_VGPU_PROFILE = re.compile(r"(GRID\s+|NVIDIA\s+)?[A-Z]{0,3}\d{1,4}[A-Z]{0,3}-\d{1,3}[ABCQ]", re.IGNORECASE)
"""A vGPU type's name as a guest sees it (A10-24Q, A100-40C, V100DX-32Q, T4-8A, A16-4B): the
physical GPU, a dash, the frame buffer in GB and the series letter."""


def virtual_gpu(reading: GpuReading) -> bool:
    """The report is a virtual machine's view of a vGPU (NVML nvmlGpuVirtualizationMode_t VGPU:
    the GPU as a vGPU inside a virtual machine), or names a vGPU type where the product goes: it
    shows a slice of a card that a host hands out, not the card."""
    mode = (reading.virtualization_mode or "").strip().lower()
    return mode == "vgpu" or bool(reading.product_name and _VGPU_PROFILE.fullmatch(reading.product_name.strip()))


@dataclass(frozen=True)
class Variability:
    """How much a series of readings moves (:func:`variability`)."""

    n: int
    mean: float
    stdev: float
    cv: float | None  # stdev / mean (None: the mean is 0)
    min: float
    max: float
    relative_swing: float | None  # (max - min) / mean (None: the mean is 0)


def variability(samples: Sequence[float]) -> Variability:
    """How much a series of readings moves: ``n``, ``mean``, ``stdev``, ``cv``, ``min``, ``max``,
    ``relative_swing``.

    Used on fan speed and on power draw sampled under a steady load: on a healthy card both
    hold steady, while a worn fan hunting for speed, or power that swings under an unchanging
    load, are among the signs of a card run hard (the seed article's mining-card signs).
    ``stdev`` is the sample standard deviation (n - 1); ``cv`` = stdev / mean and
    ``relative_swing`` = (max - min) / mean are ``None`` when the mean is 0.  Needs at least two
    finite readings, else :class:`~gpuwise.errors.UserError`.
    """
    values = [float(v) for v in samples]
    if len(values) < 2:
        raise UserError(N_("variability needs at least 2 readings, got %(n)s"), values={"n": len(values)})
    if not all(math.isfinite(v) for v in values):
        raise UserError(N_("variability needs finite readings (no NaN or infinity)"))
    mean = statistics.fmean(values)
    stdev = statistics.stdev(values)
    low, high = min(values), max(values)
    return Variability(n=len(values), mean=mean, stdev=stdev, cv=stdev / mean if mean else None, min=low, max=high,
                       relative_swing=(high - low) / mean if mean else None)


def months_between(manufactured: str | _dt.date, purchased: str | _dt.date) -> int:
    """Whole calendar months from manufacture to purchase: ``('2020-11', '2023-05')`` -> 30.

    Takes ``YYYY-MM`` (or ``YYYY-MM-DD``, the day ignored) or a date.  The age of a used card at
    purchase bounds how long it can have been worked; the result is negative when the purchase
    precedes the manufacture date -- an inconsistency for the rule layer to flag.
    """
    start, end = _year_month(manufactured), _year_month(purchased)
    return (end[0] - start[0]) * 12 + (end[1] - start[1])


def _year_month(value: Any) -> tuple[int, int]:
    if isinstance(value, _dt.date):
        return value.year, value.month
    match = re.fullmatch(r"(\d{4})-(\d{2})(?:-\d{2})?", str(value).strip())
    if not match or not 1 <= int(match.group(2)) <= 12:
        raise UserError(N_("not a year and month: %(value)s"), hint=N_("write it as YYYY-MM, e.g. 2021-03"),
                        values={"value": f"{value!r}"})
    return int(match.group(1)), int(match.group(2))


# ----------------------------------------------------------------------------- which GPU, which model
class Selection(_Frozen):
    """The GPUs of a report that stand for one card on offer (see :func:`select_gpus`)."""

    gpus: list[tuple[int, GpuReading]]
    """(position in the report, 1-based; reading)."""
    how: str
    """``serial``: the GPU whose serial is the card's; ``only``: the report's one GPU; ``all``: no
    GPU could be picked by serial, so every GPU in the report is judged."""
    serial_in_report: bool | None
    """Whether the card's serial is one the report shows; ``None`` when no serial was given or
    the report shows none (N/A, REDACTED, zeros)."""


def _same_serial(a: str, b: str) -> bool:
    return a.strip().lower() == b.strip().lower()


def select_gpus(log: SmiLog, serial: str | None) -> Selection:
    """Pick the GPU that is the card on offer: the one with its serial.  Without a serial, or
    when no GPU carries it, a report of several GPUs is judged whole -- a fault on any of them
    is reported -- rather than read as its first GPU (a bad second card would pass)."""
    indexed = list(enumerate(log.gpus, 1))
    if serial:
        hit = [(i, g) for i, g in indexed if g.serial and _same_serial(g.serial, serial)]
        if hit:
            return Selection(gpus=hit[:1], how="serial", serial_in_report=True)
    known = any(g.serial for g in log.gpus)
    in_report = (False if known else None) if serial else None
    return Selection(gpus=indexed, how="only" if len(indexed) == 1 else "all", serial_in_report=in_report)


_VENDOR_WORDS = re.compile(r"\b(nvidia|geforce|tesla|quadro|amd|radeon|instinct|intel)\b")
_MEMORY_SIZE = re.compile(r"(?<![a-z0-9])\d+(\.\d+)?\s*(gb|g|gib)(?![a-z])|\b(hbm\d?e?|gddr\d+x?)\b")
VARIANT_WORDS = frozenset({"d", "ti", "super", "xt", "nvl", "pcie", "sxm", "sxm2", "sxm3", "sxm4", "sxm5",
                           "max", "q", "mobile", "laptop", "hgx", "dgx", "ada", "blackwell"})
"""Words that make another product of the same series (an RTX 4090 D is not an RTX 4090, a V100
PCIe not a V100 SXM2)."""


def model_words(name: str) -> tuple[str | None, frozenset[str]]:
    """(series, other words) of a GPU name, without vendor words and memory sizes:
    ``'NVIDIA GeForce RTX 4090 D'`` -> ``('4090', {'rtx', 'd'})``; ``'Tesla P100-PCIE-12GB'`` ->
    ``('p100', {'pcie'})``.  The series is the first word with a digit."""
    text = _MEMORY_SIZE.sub(" ", _VENDOR_WORDS.sub(" ", name.lower()))
    text = re.sub(r"\b(\d+)([a-z]+)\b", r"\1 \2", text)  # 4090d -> 4090 d, 3080ti -> 3080 ti (not a10g)
    words = [w for w in re.split(r"[^a-z0-9]+", text) if w]
    series = next((w for w in words if any(ch.isdigit() for ch in w)), None)
    return series, frozenset(w for w in words if w != series)


def product_matches(product: str | None, claimed_names: Sequence[str]) -> bool | None:
    """Whether a report's ``product_name`` is the claimed GPU, by the names the claimed GPU goes
    by (catalog id, name, aliases): ``True`` when one of them has the same series and the same
    variant words; ``False`` when none has (a P100 is not a V100, an RTX 3080 not an RTX 3090, an
    ``RTX 4090 D`` not an RTX 4090, an ``H100 80GB HBM3`` -- the SXM board -- not an H100 PCIe);
    ``None`` when the report names no product.  The memory size is compared apart
    (:func:`memory_ratio`)."""
    if not product:
        return None
    series, words = model_words(product)
    if series is None:
        return None
    claimed = [model_words(n) for n in claimed_names]
    variants = words & VARIANT_WORDS
    return any(s == series and w & VARIANT_WORDS == variants for s, w in claimed)


def memory_ratio(reading: GpuReading, claimed_gb: float) -> float | None:
    """The memory the report shows (``fb_memory_usage/total``, MiB) over the claimed card's
    marketed size (GB as the vendor writes it, which for GPU memory means GiB: 16 GB = 16,384 MiB).

    A genuine card shows a little less than its size: the driver keeps some for itself, and ECC
    on GDDR memory takes 1/16 (an A10G with ECC on shows 23,028 MiB of 24 GB: 0.937).  A much
    smaller figure is another card (a P100 12GB shows 12,288 MiB: 0.375 of a V100 32GB)."""
    if reading.memory_total_mib is None or claimed_gb <= 0:
        return None
    return reading.memory_total_mib / (claimed_gb * 1024)
