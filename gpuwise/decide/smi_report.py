"""Read an ``nvidia-smi -q -x`` report into typed readings of each GPU (:class:`GpuReading`).

This module only reads; :mod:`gpuwise.decide.inspect_card` computes numbers from the readings and
the rules (rules/used-hardware.yaml) decide what they mean. It reads the file and its sections; the
readings it fills are typed in :mod:`gpuwise.decide.smi_readings`, and one value (a number, a
temperature, a flag, a marker for unknown) is read by :mod:`gpuwise.decide.smi_values`.

The XML varies with the driver, and every variant seen in real reports is read:

* clock limiters were ``<clocks_throttle_reasons>`` (``clocks_throttle_reason_*``) and became
  ``<clocks_event_reasons>`` (``clocks_event_reason_*``) in newer drivers (535 and later);
* power was ``<power_readings>`` (``power_limit``, ``power_draw``) and became
  ``<gpu_power_readings>`` (``current_power_limit``; ``power_draw``, later
  ``average_power_draw``/``instant_power_draw``), next to ``<module_power_readings>``;
* ECC counts were ``single_bit``/``double_bit`` blocks with a ``total`` entry, and became flat
  ``sram_*``/``dram_*`` correctable/uncorrectable counters;
* memory repair is ``<retired_pages>`` (page retirement, up to Turing) or ``<remapped_rows>``
  (row remapping, Ampere and later, mostly data-center and workstation boards); the other one is
  ``N/A``, and ``<remapped_rows>`` itself is ``N/A`` on many cards (also an A100 in MIG mode);
* any value may be ``N/A``, ``[N/A]``, ``Not Supported``, ``Requested functionality has been
  deprecated`` and the like: all of them read as ``None`` (unknown), never as zero.

The XML is parsed with ``defusedxml``: entity declarations (billion laughs) and external
entities are refused, and the ``<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_vXX.dtd">`` line is
accepted without the DTD ever being fetched.

Manufacture date: NVIDIA documents no scheme that encodes a manufacture date in the board serial
nvidia-smi reports (``<serial>``, read from the InfoROM; 13 digits on data-center boards, ``N/A``
on most GeForce cards).  The date codes on board partners' label serials are vendor-specific and
only informally described, so this module decodes no serial: the manufacture date has to be asked
for (label, box or seller) and passed to :func:`months_between`.

VBIOS: there is no public registry of stock VBIOS versions, so the version string and the board
part number are exposed as read; comparing them with a known list is the rule layer's business.
"""

from __future__ import annotations

import copy
import io
import os
import re
import stat
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import defusedxml
import defusedxml.ElementTree as SafeET

from gpuwise.errors import N_, Said, UserError

from .smi_given import _as_utf8, _broken, _counted_start, _lost_gpus, _not_xml, _process_names_escaped
from .smi_readings import GpuReading, SmiLog
from .smi_values import (
    _child_count,
    _count,
    _flag,
    _flag_of,
    _int,
    _largest,
    _memory_limit,
    _own_text,
    _percent,
    _product_name,
    _serial,
    _sum,
    _temp,
    _text,
    _watts,
    _width,
)

__all__ = ["MAX_CLOCK_REASONS", "MAX_GPUS", "MAX_XML_BYTES", "GpuReading", "SmiLog", "parse_nvidia_smi_xml",
           "read_regular_file", "resolve_report_path"]

MAX_XML_BYTES = 4 * 1024 * 1024
"""A real report is about 20-70 KB per GPU (an 8-GPU server's: about 0.5 MB); anything far larger
is refused unread. The report is parsed one ``<gpu>`` at a time, so memory stays near this size."""
MAX_GPUS = 64
"""An nvidia-smi report covers one host, and the largest hosts hold 8-20 GPUs (HGX boards 8, PCIe
servers and mining rigs up to 20); a report listing more is refused before its cards are judged:
3.6 MB of empty ``<gpu/>`` elements were 600,000 cards to judge and filled 16 GB."""
_PARSED: dict[tuple[int, int, int, int], SmiLog | Exception] = {}
"""Reports already read in this process, by file identity (device, inode, size, mtime): forty
cards that name one report read it once. A report refused as input (a UserError, or a reading too
large to convert) is kept as its error, re-raised naming the card that asked: a batch of forty
proposals sharing a 65-GPU report had read and parsed it forty times (0.1 s and 1.5 MB a time)."""
_PARSED_MAX = 16

_REASON_PREFIXES = ("clocks_event_reason_", "clocks_throttle_reason_")
_RESET_MARKER = re.compile(r"\[?\s*GPU requires reset\s*\]?", re.IGNORECASE)


# ----------------------------------------------------------------------------- sections
def _gpu_thresholds(temp: ET.Element | None) -> dict[str, int | None]:
    """The GPU's shutdown, slowdown and max operating temperatures, in degrees C.

    Drivers give them as temperatures (``gpu_temp_max_threshold`` 98 C ...) or, on Ada and later
    boards with newer drivers (575 on an RTX 4070 Laptop GPU), relative to the GPU's T.Limit:
    ``gpu_temp_tlimit`` is the current margin to it (NVML: "thermal margin temperature, distance
    to nearest slowdown threshold"; NVIDIA's NVML reference marks the absolute thresholds as no
    longer the preferred interface on Ada and later) and ``gpu_temp_*_tlimit_threshold`` are margins
    (``-12 C`` shutdown, ``-2 C`` slowdown, ``0 C`` max operating). Read only as margins, such a
    report had no limit, and a hot Ada card raised no finding. Where the temperatures are absent
    they are worked out: limit = current temperature + margin, threshold = limit - its margin
    (41 C + 46 C margin = 87 C; slowdown 87 - (-2) = 89 C, shutdown 87 - (-12) = 99 C)."""
    shutdown = _temp(temp, "gpu_temp_max_threshold")
    slowdown = _temp(temp, "gpu_temp_slow_threshold")
    max_op = _temp(temp, "gpu_temp_max_gpu_threshold")
    if None in (shutdown, slowdown, max_op):
        now, margin = _temp(temp, "gpu_temp"), _temp(temp, "gpu_temp_tlimit")
        if now is not None and margin is not None:
            limit = now + margin

            def at(path: str) -> int | None:
                own = _temp(temp, path)
                return None if own is None else limit - own

            shutdown = shutdown if shutdown is not None else at("gpu_temp_max_tlimit_threshold")
            slowdown = slowdown if slowdown is not None else at("gpu_temp_slow_tlimit_threshold")
            max_op = max_op if max_op is not None else at("gpu_temp_max_gpu_tlimit_threshold")
    return {"gpu_shutdown_temp_c": shutdown, "gpu_slowdown_temp_c": slowdown, "gpu_max_operating_temp_c": max_op}


def _any_yes(*flags: bool | None) -> bool | None:
    """True when any flag is True, False when none is and one is False, None when none is known."""
    known = [f for f in flags if f is not None]
    return any(known) if known else None


def _ecc_counts(block: ET.Element | None) -> tuple[int | None, int | None]:
    """(correctable, uncorrectable) from a ``<volatile>`` or ``<aggregate>`` block, any format."""
    if block is None:
        return None, None
    single, double = block.find("single_bit"), block.find("double_bit")
    if single is not None or double is not None:  # older drivers: per-kind counts plus a total
        return _kind_total(single), _kind_total(double)
    correctable: list[int | None] = []
    uncorrectable: list[int | None] = []
    for child in block:  # newer drivers: sram_correctable, dram_uncorrectable, sram_uncorrectable_parity ...
        if "_uncorrectable" in child.tag:
            uncorrectable.append(_child_count(child))
        elif child.tag.endswith("_correctable"):
            correctable.append(_child_count(child))
    return _sum(correctable), _sum(uncorrectable)


def _mig_ecc(gpu: ET.Element) -> tuple[int | None, int | None]:
    """(correctable, uncorrectable) errors the GPU's MIG instances counted since boot, summed
    (``mig_devices/mig_device/ecc_error_count/volatile_count``): they are the GPU's own errors, so
    the GPU-wide count is judged as at least their sum. A copy whose GPU-wide counters miss what
    an instance counted was approved on them."""
    counts = [_ecc_counts(d.find("ecc_error_count/volatile_count")) for d in gpu.iterfind("mig_devices/mig_device")]
    return _sum([c for c, _u in counts]), _sum([u for _c, u in counts])


def _kind_total(block: ET.Element | None) -> int | None:
    """The larger of the ``total`` entry and the sum of the memory kinds listed: the total may
    count kinds the file does not list, and a report whose kinds add up to more than its total
    contradicts itself -- for a purchase the larger count is the one to judge."""
    if block is None:
        return None
    kinds = _sum([_child_count(child) for child in block if child.tag != "total"])
    return _largest(_count(block, "total"), kinds)


def _power(gpu: ET.Element) -> dict[str, float | None]:
    """Power figures from the first section that holds any number.

    ``gpu_power_readings`` (newer drivers) comes first, then ``power_readings`` (older), then
    ``module_power_readings`` (whole module, e.g. Grace Hopper); figures are never mixed across
    sections, so a limit is always compared with the default of the same section.
    """
    for name in ("gpu_power_readings", "power_readings", "module_power_readings"):
        section = gpu.find(name)
        if section is None:
            continue
        values = {
            "power_draw_w": _first_float(section, ("power_draw", "average_power_draw", "instant_power_draw")),
            "power_limit_w": _first_float(section, ("current_power_limit", "power_limit")),
            "default_power_limit_w": _watts(section, "default_power_limit"),
            "min_power_limit_w": _watts(section, "min_power_limit"),
            "max_power_limit_w": _watts(section, "max_power_limit"),
        }
        if any(v is not None for v in values.values()):
            return values
    return {}


def _first_float(section: ET.Element, tags: Sequence[str]) -> float | None:
    for tag in tags:
        value = _watts(section, tag)
        if value is not None:
            return value
    return None


MAX_CLOCK_REASONS = 64
"""Drivers list about ten clock limiters (idle, application clocks, software power cap, hardware
slowdown, thermal and power-brake slowdowns, sync boost, display clocks); a section of more is no
report a driver wrote, and is refused by name rather than judged (20,000 entries took 14 s)."""


def _clock_reasons(gpu: ET.Element) -> tuple[list[str], bool | None]:
    """(active limiter names without gpu_idle, gpu_idle) from either element name, in one pass."""
    section = gpu.find("clocks_event_reasons")
    if section is None:
        section = gpu.find("clocks_throttle_reasons")
    if section is None:
        return [], None
    if len(section) > MAX_CLOCK_REASONS:
        raise Said(N_("<%(section)s> lists %(count)s clock limiters: drivers list about ten"),
                   section=section.tag, count=len(section))
    active: list[str] = []
    idle: bool | None = None
    for child in section:
        name = child.tag
        for prefix in _REASON_PREFIXES:
            name = name.removeprefix(prefix)
        state = _flag_of(_own_text(child))
        if name == "gpu_idle":
            idle = state
        elif state and name not in active:
            active.append(name)
    return active, idle


_LISTS = frozenset({"mig_devices", "processes", "accounted_processes", "supported_clocks", "retired_pagelist",
                    "retired_page_addresses"})
"""Elements whose children repeat in a real report (one per MIG device, process, clock pair or page)."""


def _once_each(element: ET.Element, path: str = "gpu") -> None:
    """Refuse a ``<gpu>`` in which an element is given twice where nvidia-smi writes it once: the
    parser reads the first, so a copied healthy ``<temperature>`` block put before the real one hid
    a 95 C reading. Repeating lists (processes, MIG devices, clocks, pages) are not looked into."""
    seen: set[str] = set()
    for child in element:
        if child.tag in seen:
            raise Said(N_("<%(path)s> has <%(tag)s> twice: nvidia-smi writes it once (edited?)"), path=path,
                       tag=str(child.tag)[:40])
        seen.add(child.tag)
        if len(child) and child.tag not in _LISTS:
            _once_each(child, f"{path}/{child.tag}")


def _reading(gpu: ET.Element, driver: str | None, cuda: str | None) -> GpuReading:
    _once_each(gpu)
    link = gpu.find("pci/pci_gpu_link_info")
    errors = gpu.find("ecc_errors")
    vol_sbe, vol_dbe = _ecc_counts(errors.find("volatile") if errors is not None else None)
    mig_sbe, mig_dbe = _mig_ecc(gpu)
    vol_sbe, vol_dbe = _largest(vol_sbe, mig_sbe), _largest(vol_dbe, mig_dbe)
    agg_sbe, agg_dbe = _ecc_counts(errors.find("aggregate") if errors is not None else None)
    retired = gpu.find("retired_pages")
    # newer drivers write one flag under both names (pending_blacklist is the older: the 510 and 515
    # reports in tests/data hold both); a report in which either says Yes has a page waiting: read as
    # pending_retirement alone, a Yes in pending_blacklist next to a No was approved
    pending_retire = _any_yes(_flag(retired, "pending_retirement"), _flag(retired, "pending_blacklist"))
    remap = gpu.find("remapped_rows")
    histogram = remap.find("row_remapper_histogram") if remap is not None else None
    banks = {k: _count(histogram, f"row_remapper_histogram_{k}", "bank(s)")
             for k in ("max", "high", "partial", "low", "none")}
    temp = gpu.find("temperature")
    reasons, idle = _clock_reasons(gpu)
    action = _text(gpu, "gpu_recovery_action")
    defaults = "default_applications_clocks"
    return GpuReading(
        pci_bus_id=gpu.get("id"),
        bus_id_in_pci=_text(gpu, "pci/pci_bus_id"),
        product_name=_product_name(gpu),
        product_architecture=_text(gpu, "product_architecture"),
        serial=_serial(gpu),
        uuid=_text(gpu, "uuid"),
        vbios_version=_text(gpu, "vbios_version"),
        board_part_number=_text(gpu, "board_part_number"),
        gpu_part_number=_text(gpu, "gpu_part_number"),
        driver_version=driver,
        cuda_version=cuda,
        memory_total_mib=_count(gpu, "fb_memory_usage/total", "MiB"),
        pcie_gen_current=_int(link, "pcie_gen/current_link_gen"),
        pcie_gen_max=_int(link, "pcie_gen/max_link_gen"),
        link_width_current=_width(link, "link_widths/current_link_width"),
        link_width_max=_width(link, "link_widths/max_link_width"),
        pcie_replay_count=_count(gpu, "pci/replay_counter"),
        pcie_replay_rollovers=_count(gpu, "pci/replay_rollover_counter"),
        ecc_mode_current=_flag(gpu, "ecc_mode/current_ecc"),
        ecc_volatile_sbe=vol_sbe,
        ecc_volatile_dbe=vol_dbe,
        ecc_aggregate_sbe=agg_sbe,
        ecc_aggregate_dbe=agg_dbe,
        retired_pages_sbe=_count(retired, "multiple_single_bit_retirement/retired_count"),
        retired_pages_dbe=_count(retired, "double_bit_retirement/retired_count"),
        retired_pages_pending=pending_retire,
        remapped_rows_correctable=_count(remap, "remapped_row_corr"),
        remapped_rows_uncorrectable=_count(remap, "remapped_row_unc"),
        remapped_rows_pending=_flag(remap, "remapped_row_pending"),
        remapped_rows_failure=_flag(remap, "remapped_row_failure"),
        remap_banks_none=banks["none"],
        remap_banks_low=banks["low"],
        remap_banks_total=_sum(list(banks.values())),
        **_power(gpu),
        clocks_graphics_mhz=_int(gpu, "clocks/graphics_clock", "MHz"),
        clocks_sm_mhz=_int(gpu, "clocks/sm_clock", "MHz"),
        clocks_mem_mhz=_int(gpu, "clocks/mem_clock", "MHz"),
        applications_clocks_graphics_mhz=_int(gpu, "applications_clocks/graphics_clock", "MHz"),
        applications_clocks_mem_mhz=_int(gpu, "applications_clocks/mem_clock", "MHz"),
        default_applications_clocks_graphics_mhz=_int(gpu, f"{defaults}/graphics_clock", "MHz"),
        default_applications_clocks_mem_mhz=_int(gpu, f"{defaults}/mem_clock", "MHz"),
        max_clocks_graphics_mhz=_int(gpu, "max_clocks/graphics_clock", "MHz"),
        max_clocks_sm_mhz=_int(gpu, "max_clocks/sm_clock", "MHz"),
        max_clocks_mem_mhz=_int(gpu, "max_clocks/mem_clock", "MHz"),
        active_clock_event_reasons=reasons,
        gpu_idle=idle,
        temperature_c=_temp(temp, "gpu_temp"),
        **_gpu_thresholds(temp),
        memory_temp_c=_temp(temp, "memory_temp"),
        memory_max_operating_temp_c=_memory_limit(temp),
        recovery_action=None if action is None or action.lower() == "none" else action[:80],
        reset_required=_flag(gpu, "gpu_reset_status/reset_required"),
        drain_and_reset_recommended=_flag(gpu, "gpu_reset_status/drain_and_reset_recommended"),
        channel_repair_pending=_flag(errors, "channel_repair_pending"),
        tpc_repair_pending=_flag(errors, "tpc_repair_pending"),
        unrepairable_memory=_flag(errors, "unrepairable_memory"),
        sram_threshold_exceeded=_flag(errors, "aggregate/sram_threshold_exceeded"),
        requires_reset_marker=any(_RESET_MARKER.fullmatch(e.text.strip()) for e in gpu.iter() if e.text),
        virtualization_mode=(_text(gpu, "gpu_virtualization_mode/virtualization_mode") or "")[:40] or None,
        fan_speed_percent=_count(gpu, "fan_speed", "%"),  # NVML: "may exceed 100% in certain cases"
        performance_state=_text(gpu, "performance_state"),
        utilization_gpu_percent=_percent(gpu, "utilization/gpu_util"),
    )


# ----------------------------------------------------------------------------- entry point
def resolve_report_path(value: str, base_dir: str | os.PathLike[str], *, where: str) -> Path:
    """Where a proposal's ``nvidia_smi:`` path points, refused unless it stays in the proposal's
    directory (or below it).

    A relative path is read from the proposal file's directory, not the working directory, so
    the same proposal gives the same audit wherever it is run.  An absolute path, a ``..`` or a
    symbolic link that leads out of that directory is refused: a proposal is often a file from a
    seller, and auditing it must not read whatever file on the auditor's machine it names (a
    FIFO that never ends, a device, a private key).  Copy the report next to the proposal.
    """
    base = Path(os.path.realpath(base_dir))
    given = Path(value)
    try:
        target = Path(os.path.realpath(given if given.is_absolute() else base / given))
    except (OSError, ValueError) as exc:
        raise UserError(N_("not a usable path: %(reason)s"), where=where, values={"reason": exc}) from None
    if target != base and base not in target.parents:
        raise UserError(
            N_("'%(value)s' is outside the proposal's directory (%(base)s)"), where=where,
            hint=N_("put the nvidia-smi report next to the proposal (or below it) and give a relative path"),
            values={"value": value, "base": base})
    return target


def read_regular_file(path: str | os.PathLike[str], *, where: str, limit: int | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; every failure a UserError.

    Opened without blocking and checked with ``fstat`` on the open descriptor (no race between
    a check and the open): a FIFO, a device, a socket or a directory is refused without waiting
    for a writer or reading a byte, and a larger file is refused after ``limit + 1`` bytes.
    """
    limit = MAX_XML_BYTES if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(path, flags)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise UserError(N_("cannot read nvidia-smi XML: %(reason)s"), where=where, values={"reason": reason}) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UserError(N_("cannot read nvidia-smi XML: not a regular file (a directory, device, FIFO or socket)"),
                            where=where, hint=N_("save the output of `nvidia-smi -q -x` to a file"))
        if info.st_size > limit:
            raise UserError(N_("not valid nvidia-smi XML: larger than %(limit)s bytes"), where=where,
                            values={"limit": limit})
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise UserError(N_("cannot read nvidia-smi XML: %(strerror)s"), where=where,
                        values={"strerror": exc.strerror or exc}) from None
    finally:
        os.close(fd)


def parse_nvidia_smi_xml(source: str | os.PathLike[str] | bytes, *, where: str | None = None) -> SmiLog:
    """Parse ``nvidia-smi -q -x`` output: a file path (``str`` or path-like) or the raw ``bytes``.

    Raises :class:`~gpuwise.errors.UserError` -- and nothing else -- for an unreadable or oversized
    file, malformed or hostile XML (entity declarations, external entities), a root element other
    than ``<nvidia_smi_log>``, or a report without any ``<gpu>``.  ``where`` names the input in
    the message; it defaults to the path, or to ``nvidia-smi XML`` for bytes.
    """
    if isinstance(source, (bytes, bytearray)):
        data = bytes(source)
        where = where or "nvidia-smi XML"
    else:
        where = where or os.fspath(source) or "(empty path)"
        key = _identity(source)
        if key is not None and key in _PARSED and key[2] <= MAX_XML_BYTES:
            return _known(_PARSED[key], where)
        data = read_regular_file(source, where=where)
        if len(data) > MAX_XML_BYTES:
            raise UserError(N_("not valid nvidia-smi XML: larger than %(max_xml_bytes)s bytes"), where=where,
                            values={"max_xml_bytes": MAX_XML_BYTES})
        try:
            log: SmiLog | Exception = _parse(data, where)
        except (UserError, ValueError, ArithmeticError) as exc:  # the input's fault: the same on every read
            log = exc
        del data
        if key is not None and key == _identity(source):  # unchanged while it was read
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.pop(next(iter(_PARSED)))
            _PARSED[key] = log
        return _known(log, where)
    if len(data) > MAX_XML_BYTES:
        raise UserError(N_("not valid nvidia-smi XML: larger than %(max_xml_bytes)s bytes"), where=where,
                        values={"max_xml_bytes": MAX_XML_BYTES})
    return _parse(data, where)


def _known(log: SmiLog | Exception, where: str) -> SmiLog:
    """A report read before: its readings, or its error raised again for the card now asking
    (``where`` names that card; the error had named the first)."""
    if not isinstance(log, Exception):
        return log
    if isinstance(log, UserError):
        again = copy.copy(log)
        again.where = where
        again.args = (again.line(),)
        raise again.with_traceback(None)
    raise type(log)(*log.args)


def _identity(path: str | os.PathLike[str]) -> tuple[int, int, int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)


class _Chunks(io.BytesIO):
    """The report handed to the parser a megabyte at a time, not ElementTree's 16 KB: expat 2.5
    scans a token that spans reads again from its start on every read, so a 3.8 MB comment,
    processing instruction or attribute (under the 4 MB cap) cost 0.5-0.6 CPU-s per report, 20 s
    for a batch of forty such cards; now 0.02 s. A report still parses GPU by GPU: at most a
    megabyte of it is read ahead."""

    def read(self, size: int | None = -1) -> bytes:
        return super().read(-1 if size is None or size < 0 else max(size, _CHUNK))


_CHUNK = 1 << 20


def _parse(data: bytes, where: str) -> SmiLog:
    """The report, read ``<gpu>`` by ``<gpu>``: each is read into a :class:`GpuReading` and then
    dropped from the tree, so a report of many GPUs never sits in memory as a whole tree."""
    lost, data = _lost_gpus(data)
    if lost and not data.strip():  # only the GPUs it could not reach
        return SmiLog(gpus=[GpuReading(pci_bus_id=bus, unreachable=why) for bus, why in lost])
    wrong = _not_xml(data, where)
    if wrong is not None:
        raise wrong
    driver = cuda = timestamp = None
    attached: int | None = None
    gpus: list[GpuReading] = []
    depth = 0
    root: ET.Element | None = None
    try:
        data = _process_names_escaped(_as_utf8(data))
        events = SafeET.iterparse(_Chunks(data), events=("start", "end"), forbid_dtd=False,
                                  forbid_entities=True, forbid_external=True)
        counts = [0, 0]  # elements in the report, in the current section
        for event, elem in events:
            if event == "start":
                depth += 1
                _counted_start(depth, counts, where)
                if depth == 1:
                    root = elem
                    if elem.tag != "nvidia_smi_log":
                        raise UserError(
                            N_("not valid nvidia-smi XML: root element is <%(tag)s>, expected <nvidia_smi_log>"),
                            where=where, hint=N_("save the output of `nvidia-smi -q -x`"), values={"tag": elem.tag})
                continue
            depth -= 1
            if depth != 1 or root is None:
                continue
            if elem.tag == "gpu":
                if len(gpus) >= MAX_GPUS:
                    raise UserError(N_("not valid nvidia-smi XML: more than %(max_gpus)s <gpu> entries (one host's "
                                       "report lists at most a few dozen)"), where=where,
                                    hint=N_("give each card's own report, or the report of the host it sits in"),
                                    values={"max_gpus": MAX_GPUS})
                gpus.append(_reading(elem, driver, cuda))
                root.remove(elem)  # done with it: free its subtree
            elif elem.tag == "driver_version":
                driver = _text(root, "driver_version")
            elif elem.tag == "cuda_version":
                cuda = _text(root, "cuda_version")
            elif elem.tag == "timestamp":
                timestamp = _text(root, "timestamp")
            elif elem.tag == "attached_gpus":
                attached = _count(root, "attached_gpus")
    except defusedxml.DefusedXmlException as exc:
        raise UserError(N_("not valid nvidia-smi XML: refused unsafe XML (%(reason)s)"), where=where,
                        values={"reason": exc}) from exc
    except ET.ParseError as exc:
        raise _broken(data, exc, where) from exc
    except (ValueError, LookupError, OverflowError) as exc:  # LookupError: unknown encoding
        raise UserError(N_("not valid nvidia-smi XML: %(reason)s"), where=where, values={"reason": exc}) from exc
    if not gpus:
        raise UserError(N_("not valid nvidia-smi XML: the report lists no <gpu>"), where=where)
    seen: set[tuple[str | None, str | None]] = set()
    for g in gpus:  # a UUID and bus id are one GPU's own: a block copied to fake a second card repeats them
        # the bus id inside the block, not its id attribute: a copy with only the attribute changed
        # still repeats it. A UUID alone may repeat: reports anonymised for publication give every
        # GPU one placeholder UUID (telegraf's dual RTX 2080 report: GPUs on buses 01 and 02)
        ident = (g.uuid, g.bus_id_in_pci or g.pci_bus_id)
        if ident != (None, None) and ident in seen:
            raise UserError(N_("not valid nvidia-smi XML: it lists GPU %(gpu)s twice (edited or joined?)"),
                            where=where, values={"gpu": (g.uuid or g.pci_bus_id or "")[:80]},
                            hint=N_("give the report exactly as `nvidia-smi -q -x` wrote it"))
        seen.add(ident)
    if attached is not None and len(gpus) > attached:
        # nvidia-smi writes one <gpu> per attached GPU, or fewer when asked for some (-i); more
        # than it counted is a report edited or joined (a card's block copied to fake a second
        # card, two hosts' reports pasted together): refused, as a second <nvidia_smi_log> is
        raise UserError(N_("not valid nvidia-smi XML: it lists %(gpus)s <gpu> entries but <attached_gpus> says "
                           "%(attached)s: nvidia-smi never writes more than it counts (edited or joined?)"),
                        where=where, values={"gpus": len(gpus), "attached": attached},
                        hint=N_("give the report exactly as `nvidia-smi -q -x` wrote it"))
    known = {g.bus_id_in_pci or g.pci_bus_id for g in gpus}
    gpus += [GpuReading(pci_bus_id=bus, unreachable=why) for bus, why in lost if bus not in known]
    # the versions come before the <gpu> elements in every real report; where they do not, the
    # readings still get them (as reading the whole tree first gave them)
    gpus = [g if (g.driver_version, g.cuda_version) == (driver, cuda)
            else g.model_copy(update={"driver_version": driver, "cuda_version": cuda}) for g in gpus]
    return SmiLog(driver_version=driver, cuda_version=cuda, timestamp=timestamp, gpus=gpus)
