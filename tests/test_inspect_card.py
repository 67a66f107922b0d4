"""Tests for gpuwise.decide.inspect_card against real nvidia-smi XML (see tests/data/nvidia_smi/SOURCES.md)."""

from __future__ import annotations

import datetime as dt
import math
import os
import re
import socket
from pathlib import Path

import pytest
import yaml
from pydantic import ValidationError

from gpuwise import audit, knowledge
from gpuwise.decide import engine, inspect_card, rulebook, smi_report
from gpuwise.decide.audit import _reading_fields
from gpuwise.decide.inspect_card import app_clocks_off_mhz, memory_errors, months_between, variability
from gpuwise.decide.smi_report import GpuReading, parse_nvidia_smi_xml
from gpuwise.errors import UserError

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest

DATA = Path(__file__).parent / "data" / "nvidia_smi"
READING_RULES = {"USED-PCIE-WIDTH", "USED-PCIE-GEN-UNDER-LOAD", "USED-POWER-LIMIT-CHANGED", "USED-POWER-LIMIT-RAISED",
                 "USED-CLOCKS-CHANGED",
                 "USED-THROTTLING"}


def fired_rules(g: GpuReading, gpu: str = "rtx-3090") -> set[str]:
    """Every rule that fires on the card fact of ``g`` (information included): the card fact built as
    an audit builds it, judged by the built-in rule book."""
    kb = knowledge.load()
    fact = {"t": "card", "card": 1, "serial": "x", "has_smi": True, "primary": True,
            **_reading_fields(g, kb.gpus[gpu], [], kb)}
    book = rulebook.load(None, {k: v.value for k, v in kb.policy.items()})
    return {rule for rule, _i, _s in engine.run(book, [fact]).firings}


def judged(g: GpuReading, gpu: str = "rtx-3090") -> set[str]:
    """The rules on a card's readings that fire on ``g`` (the link, power limit and clock verdicts
    are the rules')."""
    return fired_rules(g, gpu) & READING_RULES


def gpu0(name: str) -> GpuReading:
    log = parse_nvidia_smi_xml(DATA / name)
    assert len(log.gpus) == 1
    return log.gpus[0]


def minimal(gpu_body: str, root_extra: str = "") -> bytes:
    """A hand-written report for cases the real files do not cover."""
    return (
        '<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "nvsmi_device_v12.dtd">\n'
        f'<nvidia_smi_log>{root_extra}<gpu id="00000000:01:00.0">{gpu_body}</gpu></nvidia_smi_log>'
    ).encode()


# ----------------------------------------------------------------------------- real files
def test_tesla_p100_old_format_data_center():
    """netdata/netdata src/go/plugin/go.d/modules/nvidia_smi/testdata/tesla-p100.xml (driver 510)."""
    log = parse_nvidia_smi_xml(DATA / "netdata_tesla-p100.xml")
    assert (log.driver_version, log.cuda_version) == ("510.47.03", "11.6")
    assert log.timestamp == "Sat Sep 17 17:06:50 2022"
    g = log.gpus[0]
    assert g.pci_bus_id == "00000000:00:04.0"
    assert g.product_name == "Tesla P100-PCIE-16GB"
    assert g.serial == "0324217145110"
    assert g.uuid == "GPU-d3da8716-eaab-75db-efc1-60e88e1cd55e"
    assert g.vbios_version == "86.00.52.00.02"
    assert g.board_part_number is None  # this driver has no <board_part_number> ...
    assert g.gpu_part_number == "900-2H400-6300-031"  # ... and gives the board's number here
    assert (g.driver_version, g.cuda_version) == ("510.47.03", "11.6")
    assert g.memory_total_mib == 16384
    assert (g.pcie_gen_current, g.pcie_gen_max, g.link_width_current, g.link_width_max) == (3, 3, 16, 16)
    assert g.ecc_mode_current is True
    assert (g.ecc_volatile_sbe, g.ecc_volatile_dbe) == (0, 0)
    assert (g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (3, 0)  # the <total> entries
    assert (g.retired_pages_sbe, g.retired_pages_dbe, g.retired_pages_pending) == (0, 0, False)
    assert g.remapped_rows_correctable is None and g.remapped_rows_failure is None  # <remapped_rows>N/A
    assert g.power_draw_w == 26.16
    assert (g.power_limit_w, g.default_power_limit_w, g.max_power_limit_w) == (250.0, 250.0, 250.0)
    assert g.min_power_limit_w == 125.0
    assert (g.clocks_graphics_mhz, g.clocks_sm_mhz, g.clocks_mem_mhz) == (405, 405, 715)
    assert (g.applications_clocks_graphics_mhz, g.applications_clocks_mem_mhz) == (1189, 715)
    assert (g.default_applications_clocks_graphics_mhz, g.default_applications_clocks_mem_mhz) == (1189, 715)
    assert (g.max_clocks_graphics_mhz, g.max_clocks_sm_mhz, g.max_clocks_mem_mhz) == (1328, 1328, 715)
    assert g.active_clock_event_reasons == []  # only gpu_idle is Active, and it is kept apart
    assert g.gpu_idle is True
    assert g.temperature_c == 38
    assert g.fan_speed_percent is None  # passively cooled: N/A
    assert g.performance_state == "P0"


def test_a10g_remapped_rows_and_flat_ecc():
    """influxdata/telegraf plugins/inputs/nvidia_smi/testdata/a10g.xml (driver 515)."""
    g = gpu0("telegraf_a10g.xml")
    assert g.product_name == "NVIDIA A10G"
    assert g.serial is None  # the cloud VM reports 0000000000000: no serial to match a card by
    assert g.vbios_version == "94.02.75.00.01"
    assert g.ecc_mode_current is True
    assert (g.ecc_volatile_sbe, g.ecc_volatile_dbe, g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (0, 0, 0, 0)
    assert (g.remapped_rows_correctable, g.remapped_rows_uncorrectable) == (0, 0)
    assert (g.remapped_rows_pending, g.remapped_rows_failure) == (False, False)
    assert g.retired_pages_sbe is None and g.retired_pages_pending is None  # N/A on Ampere
    assert (g.pcie_gen_current, g.pcie_gen_max, g.link_width_current, g.link_width_max) == (1, 4, 8, 16)
    assert g.fan_speed_percent == 0  # "0 %" is a reading, not unknown
    assert g.performance_state == "P8"
    assert g.power_draw_w == 25.58 and g.power_limit_w == 300.0
    assert g.temperature_c == 17
    # Gen 1 x8 of Gen 4 x16 at P8: neither the idle generation nor the x8 slot of a cloud host is a warning;
    # x8 is told as information (the slot), with what it carries: 31.5 GB/s x 8/16 = 15.75 GB/s each way
    assert judged(g) == set()
    assert {"USED-PCIE-WIDTH", "USED-PCIE-WIDTH-SLOT"} & fired_rules(g) == {"USED-PCIE-WIDTH-SLOT"}
    kb = knowledge.load()
    fields = _reading_fields(g, kb.gpus["a10g"], [], kb)
    assert (fields["link_width_fraction"], fields["link_gb_s"], fields["link_gb_s_full"]) == (0.5, 15.75, 31.5)
    errors = memory_errors(g)
    assert errors.mechanism == "remapped_rows"
    assert (errors.remapped_rows, errors.pending, errors.remap_failure) == (0, False, False)
    assert errors.uncorrectable_ecc == 0


def test_a100_new_format_535():
    """influxdata/telegraf plugins/inputs/nvidia_smi/testdata/a100-sxm4-v12.xml (driver 535, MIG on)."""
    log = parse_nvidia_smi_xml(DATA / "telegraf_a100-sxm4-v12.xml")
    assert (log.driver_version, log.cuda_version) == ("535.54.03", "12.2")
    assert log.timestamp == "Fri Aug  4 11:44:30 2023"
    g = log.gpus[0]
    assert g.product_name == "NVIDIA A100-SXM4-80GB"
    assert g.serial == "1650522003820"
    assert g.board_part_number == "692-2G506-0212-002"
    assert g.gpu_part_number == "20B2-895-A1"
    assert g.vbios_version == "92.00.36.00.02"
    assert g.memory_total_mib == 81920  # the card's, not a MIG slice's 19968 MiB
    assert g.ecc_mode_current is True
    assert (g.ecc_volatile_sbe, g.ecc_volatile_dbe, g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (0, 0, 0, 0)
    assert g.remapped_rows_pending is None  # <remapped_rows>N/A</remapped_rows> in MIG mode
    assert g.power_draw_w == 67.03  # gpu_power_readings/power_draw
    assert (g.power_limit_w, g.default_power_limit_w, g.max_power_limit_w) == (500.0, 500.0, 500.0)
    assert (g.clocks_graphics_mhz, g.clocks_mem_mhz, g.max_clocks_graphics_mhz) == (1275, 1593, 1410)
    assert g.active_clock_event_reasons == [] and g.gpu_idle is False
    assert g.temperature_c == 27 and g.fan_speed_percent is None
    assert g.utilization_gpu_percent is None
    assert memory_errors(g).mechanism is None
    assert app_clocks_off_mhz(g) == 0 and not judged(g, "a100-80gb-sxm")


def test_rtx3080_newest_format_consumer():
    """influxdata/telegraf plugins/inputs/nvidia_smi/testdata/rtx-3080-v13.xml (driver 595)."""
    log = parse_nvidia_smi_xml(DATA / "telegraf_rtx-3080-v13.xml")
    assert (log.driver_version, log.cuda_version) == ("595.58.03", "13.2")
    g = log.gpus[0]
    assert g.product_name == "NVIDIA GeForce RTX 3080"
    assert g.serial is None  # committed as REDACTED: no serial to match a card by
    assert g.board_part_number is None and g.gpu_part_number == "2216-202-A1"
    assert g.vbios_version == "94.02.71.40.72"
    assert g.memory_total_mib == 10240
    assert g.ecc_mode_current is None  # GeForce: N/A
    assert (g.ecc_volatile_sbe, g.ecc_volatile_dbe, g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (None,) * 4
    assert g.fan_speed_percent == 0
    assert g.performance_state == "P2" and g.utilization_gpu_percent == 65
    assert g.power_draw_w == 139.62  # average_power_draw: there is no <power_draw> any more
    assert (g.power_limit_w, g.default_power_limit_w, g.max_power_limit_w) == (320.0, 320.0, 336.0)
    # "Requested functionality has been deprecated" reads as unknown
    assert g.applications_clocks_graphics_mhz is None and g.default_applications_clocks_mem_mhz is None
    assert app_clocks_off_mhz(g) is None
    assert (g.clocks_graphics_mhz, g.clocks_mem_mhz, g.max_clocks_mem_mhz) == (1950, 9251, 9501)
    assert g.active_clock_event_reasons == [] and g.gpu_idle is False
    assert memory_errors(g).pending is None
    assert g.pcie_gen_current == g.pcie_gen_max and g.link_width_current == g.link_width_max
    assert not judged(g) & {"USED-PCIE-WIDTH", "USED-PCIE-GEN-UNDER-LOAD", "USED-CLOCKS-CHANGED"}


def test_old_and_new_format_give_the_same_fields():
    """clocks_throttle_reasons/power_readings (P100, driver 510) vs
    clocks_event_reasons/gpu_power_readings (A100, driver 535): the same facts come out."""
    old, new = gpu0("netdata_tesla-p100.xml"), gpu0("telegraf_a100-sxm4-v12.xml")
    for field in ("power_draw_w", "power_limit_w", "default_power_limit_w", "max_power_limit_w",
                  "ecc_aggregate_sbe", "ecc_aggregate_dbe", "gpu_idle", "clocks_graphics_mhz",
                  "applications_clocks_graphics_mhz", "pcie_gen_current", "link_width_max"):
        assert getattr(old, field) is not None, field
        assert getattr(new, field) is not None, field
    # the throttle-format derived file and the event-format derived file name reasons alike
    throttled = gpu0("derived_tesla-p100_throttled-tuned.xml")
    evented = gpu0("derived_rtx-3080-v13_event-reasons.xml")
    assert throttled.active_clock_event_reasons == ["hw_slowdown", "hw_thermal_slowdown"]
    assert evented.active_clock_event_reasons == ["sw_power_cap", "hw_slowdown", "sw_thermal_slowdown"]


# ----------------------------------------------------------------------------- degraded (derived)
def test_retired_pages_pending():
    """derived_tesla-p100_retired-pages.xml: values changed from netdata's tesla-p100.xml."""
    g = gpu0("derived_tesla-p100_retired-pages.xml")
    assert (g.retired_pages_sbe, g.retired_pages_dbe, g.retired_pages_pending) == (3, 2, True)
    assert (g.ecc_volatile_dbe, g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (2, 41, 2)
    errors = memory_errors(g)
    assert errors.mechanism == "retired_pages"
    assert errors.retired_pages == 5
    assert errors.pending is True
    assert errors.uncorrectable_ecc == 2 and errors.correctable_ecc == 41
    assert errors.remapped_rows is None and errors.remap_failure is None


def test_throttled_and_tuned_card():
    """derived_tesla-p100_throttled-tuned.xml: busy (P0, no gpu_idle), x4 gen 1, HW slowdown."""
    g = gpu0("derived_tesla-p100_throttled-tuned.xml")
    assert g.gpu_idle is False and g.utilization_gpu_percent == 100
    assert (g.power_limit_w, g.default_power_limit_w) == (200.0, 250.0)
    assert (g.applications_clocks_graphics_mhz, g.default_applications_clocks_graphics_mhz) == (1328, 1189)
    assert app_clocks_off_mhz(g) == 1328 - 1189
    # x4 Gen 1 while busy, 200 W of a 250 W default, clocks set, hardware slowdown: the rules say each
    assert judged(g, "p100-16gb-pcie") == READING_RULES - {"USED-POWER-LIMIT-RAISED"}  # lowered, not raised
    assert g.temperature_c == 84 and g.power_draw_w == 181.4


def test_remap_failure():
    """derived_a10g_remap-failure.xml: values changed from telegraf's a10g.xml."""
    g = gpu0("derived_a10g_remap-failure.xml")
    assert (g.remapped_rows_correctable, g.remapped_rows_uncorrectable) == (5, 3)
    assert (g.remapped_rows_pending, g.remapped_rows_failure) == (True, True)
    assert (g.ecc_volatile_dbe, g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (3, 17, 3)
    errors = memory_errors(g)
    assert errors.mechanism == "remapped_rows"
    assert (errors.remapped_rows, errors.remapped_rows_uncorrectable) == (8, 3)
    assert (errors.pending, errors.remap_failure, errors.uncorrectable_ecc) == (True, True, 3)


def test_event_reasons_newest_format():
    """derived_rtx-3080-v13_event-reasons.xml: values changed from telegraf's rtx-3080-v13.xml."""
    g = gpu0("derived_rtx-3080-v13_event-reasons.xml")
    assert "hw_slowdown" in g.active_clock_event_reasons
    assert g.fan_speed_percent == 100 and g.temperature_c == 91
    # 240 W against a 320 W default, an x1 link (a mining riser) at full generation, hw_slowdown active
    assert judged(g) == {"USED-POWER-LIMIT-CHANGED", "USED-PCIE-WIDTH", "USED-THROTTLING"}


# ----------------------------------------------------------------------------- N/A and formats
@pytest.mark.parametrize("marker", ["N/A", "[N/A]", "Not Supported", "[Not Supported]", "Unknown Error",
                                    "Requested functionality has been deprecated", "", "  "])
def test_unknown_markers_read_as_none(marker):
    body = (f"<fan_speed>{marker}</fan_speed><temperature><gpu_temp>{marker}</gpu_temp></temperature>"
            f"<power_readings><power_limit>{marker}</power_limit></power_readings>"
            f"<ecc_mode><current_ecc>{marker}</current_ecc></ecc_mode><serial>{marker}</serial>")
    g = parse_nvidia_smi_xml(minimal(body)).gpus[0]
    assert g.fan_speed_percent is None and g.temperature_c is None and g.power_limit_w is None
    assert g.ecc_mode_current is None and g.serial is None


def test_numbers_with_units():
    body = ("<fan_speed>30 %</fan_speed><temperature><gpu_temp>45 C</gpu_temp></temperature>"
            "<gpu_power_readings><current_power_limit>300.00 W</current_power_limit>"
            "<instant_power_draw>99.5 W</instant_power_draw></gpu_power_readings>"
            "<clocks><graphics_clock>1410 MHz</graphics_clock></clocks>"
            "<pci><pci_gpu_link_info><link_widths><current_link_width>16x</current_link_width>"
            "</link_widths></pci_gpu_link_info></pci>")
    g = parse_nvidia_smi_xml(minimal(body)).gpus[0]
    assert (g.fan_speed_percent, g.temperature_c, g.power_limit_w) == (30, 45, 300.0)
    assert (g.power_draw_w, g.clocks_graphics_mhz, g.link_width_current) == (99.5, 1410, 16)
    assert g.link_width_max is None  # absent element


def test_wrong_unit_is_refused_not_misread():
    """A number in a unit nvidia-smi never writes there is neither misread (0.3 W, 300 W) nor
    read as unknown, which hid the reading (tests/test_hostile_fifth.py has the other forms)."""
    body = "<power_readings><power_limit>300 mW</power_limit></power_readings>"
    with pytest.raises(UserError, match="<power_limit> reads '300 mW': not a number as nvidia-smi writes it"):
        parse_nvidia_smi_xml(minimal(body))


def test_old_ecc_total_na_sums_the_kinds():
    body = ("<ecc_errors><aggregate><single_bit><device_memory>4</device_memory><l1_cache>N/A</l1_cache>"
            "<l2_cache>1</l2_cache><total>N/A</total></single_bit>"
            "<double_bit><device_memory>N/A</device_memory><total>N/A</total></double_bit>"
            "</aggregate></ecc_errors>")
    g = parse_nvidia_smi_xml(minimal(body)).gpus[0]
    assert (g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (5, None)
    assert g.ecc_volatile_sbe is None


def test_old_ecc_total_wins_over_the_kinds_listed():
    """The total may count kinds the file does not list, so it is used where it is a number."""
    body = ("<ecc_errors><volatile><single_bit><device_memory>4</device_memory><total>7</total></single_bit>"
            "</volatile></ecc_errors>")
    assert parse_nvidia_smi_xml(minimal(body)).gpus[0].ecc_volatile_sbe == 7


def test_flat_ecc_sums_sram_and_dram_including_split_sram_uncorrectable():
    """The layout of driver 555+ (an L4 report): sram_uncorrectable split into parity and secded."""
    body = ("<ecc_errors><volatile><sram_correctable>2</sram_correctable>"
            "<sram_uncorrectable_parity>1</sram_uncorrectable_parity>"
            "<sram_uncorrectable_secded>0</sram_uncorrectable_secded><dram_correctable>7</dram_correctable>"
            "<dram_uncorrectable>1</dram_uncorrectable></volatile>"
            "<aggregate><sram_threshold_exceeded>No</sram_threshold_exceeded></aggregate></ecc_errors>")
    g = parse_nvidia_smi_xml(minimal(body)).gpus[0]
    assert (g.ecc_volatile_sbe, g.ecc_volatile_dbe) == (9, 2)
    assert (g.ecc_aggregate_sbe, g.ecc_aggregate_dbe) == (None, None)


def test_power_sections_are_not_mixed():
    na = "<current_power_limit>N/A</current_power_limit><default_power_limit>N/A</default_power_limit>"
    body = (f"<gpu_power_readings>{na}</gpu_power_readings>"
            "<module_power_readings><current_power_limit>900.00 W</current_power_limit>"
            "<default_power_limit>1000.00 W</default_power_limit></module_power_readings>")
    g = parse_nvidia_smi_xml(minimal(body)).gpus[0]
    assert (g.power_limit_w, g.default_power_limit_w) == (900.0, 1000.0)


def test_gpu_power_section_comes_before_module_and_legacy():
    body = ("<power_readings><power_limit>250.00 W</power_limit></power_readings>"
            "<gpu_power_readings><current_power_limit>500.00 W</current_power_limit></gpu_power_readings>"
            "<module_power_readings><current_power_limit>1000.00 W</current_power_limit>"
            "</module_power_readings>")
    assert parse_nvidia_smi_xml(minimal(body)).gpus[0].power_limit_w == 500.0


def test_several_gpus_and_missing_sections():
    data = (b"<nvidia_smi_log><driver_version>550.54.14</driver_version>"
            b"<cuda_version>Not Found</cuda_version>"
            b'<gpu id="0"><product_name>A</product_name></gpu>'
            b'<gpu id="1"><product_name>B</product_name></gpu>'
            b"</nvidia_smi_log>")
    log = parse_nvidia_smi_xml(data)
    assert [g.product_name for g in log.gpus] == ["A", "B"]
    assert log.cuda_version is None and log.gpus[1].driver_version == "550.54.14"
    g = log.gpus[0]
    assert app_clocks_off_mhz(g) is None and not judged(g)
    assert memory_errors(g).mechanism is None and g.active_clock_event_reasons == [] and g.gpu_idle is None


def test_reading_is_frozen():
    g = gpu0("telegraf_a10g.xml")
    with pytest.raises(ValidationError):
        g.temperature_c = 5  # type: ignore[misc]


def test_external_dtd_is_never_fetched(monkeypatch):
    """The DOCTYPE line names a DTD; parsing must not try to load it."""

    def no_network(*args, **kwargs):
        raise AssertionError("tried to open a network connection")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    data = (b'<?xml version="1.0" ?>\n<!DOCTYPE nvidia_smi_log SYSTEM "http://example.invalid/nvsmi_device_v12.dtd">'
            b"<nvidia_smi_log><gpu><product_name>X</product_name></gpu></nvidia_smi_log>")
    assert parse_nvidia_smi_xml(data).gpus[0].product_name == "X"
    assert parse_nvidia_smi_xml(DATA / "telegraf_a10g.xml").gpus[0].product_name == "NVIDIA A10G"


# ----------------------------------------------------------------------------- refused input
BOMB = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
]>
<nvidia_smi_log><gpu><product_name>&lol4;</product_name></gpu></nvidia_smi_log>"""

XXE = b"""<?xml version="1.0"?>
<!DOCTYPE nvidia_smi_log [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<nvidia_smi_log><gpu><product_name>&xxe;</product_name></gpu></nvidia_smi_log>"""

BAD_INPUTS = {
    "truncated": (DATA / "telegraf_a10g.xml").read_bytes()[:5000],
    "not-xml": b"No devices were found\n",
    "empty": b"",
    "wrong-root": b'<?xml version="1.0"?><html><body>nvidia</body></html>',
    "no-gpu": b"<nvidia_smi_log><driver_version>550.54.14</driver_version></nvidia_smi_log>",
    "billion-laughs": BOMB,
    "external-entity": XXE,
    "unknown-encoding": b'<?xml version="1.0" encoding="klingon"?><nvidia_smi_log><gpu/></nvidia_smi_log>',
}


@pytest.mark.parametrize("kind", sorted(BAD_INPUTS))
def test_bad_file_is_a_user_error_naming_the_path(tmp_path, kind):
    path = tmp_path / f"{kind}.xml"
    path.write_bytes(BAD_INPUTS[kind])
    with pytest.raises(UserError) as caught:
        parse_nvidia_smi_xml(path)
    assert caught.value.where == str(path)
    assert str(path) in str(caught.value)
    assert "not valid nvidia-smi XML" in caught.value.message


def test_hostile_xml_says_it_was_refused(tmp_path):
    for name, data in (("bomb.xml", BOMB), ("xxe.xml", XXE)):
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(UserError, match="refused unsafe XML"):
            parse_nvidia_smi_xml(path)


def test_unreadable_paths(tmp_path):
    for path in (tmp_path / "missing.xml", tmp_path):
        with pytest.raises(UserError, match="cannot read nvidia-smi XML") as caught:
            parse_nvidia_smi_xml(path)
        assert caught.value.where == str(path)


def test_oversized_file_is_refused(monkeypatch):
    monkeypatch.setattr(smi_report, "MAX_XML_BYTES", 1000)
    with pytest.raises(UserError, match="larger than 1000 bytes"):
        parse_nvidia_smi_xml(DATA / "telegraf_a10g.xml")


def test_bytes_input_names_itself():
    with pytest.raises(UserError) as caught:
        parse_nvidia_smi_xml(b"<oops")
    assert caught.value.where == "nvidia-smi XML"
    with pytest.raises(UserError) as caught:
        parse_nvidia_smi_xml(b"<oops", where="upload #3")
    assert caught.value.where == "upload #3"


# ----------------------------------------------------------------------------- derived signals
@pytest.mark.parametrize(("limit", "default", "expected"), [
    (250.0, 250.0, False),
    (252.5, 250.0, False),  # exactly 1 %: not more than 1 %
    (252.6, 250.0, "USED-POWER-LIMIT-RAISED"),
    (247.0, 250.0, "USED-POWER-LIMIT-CHANGED"),
    (None, 250.0, None),
    (250.0, None, None),
])
def test_power_limit_changed(limit, default, expected):
    """The rules' comparison with policy power_limit_tolerance_fraction (0.01): more than 1 % off,
    one rule for each direction (a raised limit is an overclock, not a miner's lowered one)."""
    got = judged(GpuReading(power_limit_w=limit, default_power_limit_w=default)) & {
        "USED-POWER-LIMIT-CHANGED", "USED-POWER-LIMIT-RAISED"}
    assert got == ({expected} if expected else set())


def test_application_clocks_use_the_pairs_it_can_read():
    same = GpuReading(applications_clocks_mem_mhz=5001, default_applications_clocks_mem_mhz=5001)
    lowered = GpuReading(applications_clocks_mem_mhz=5001, default_applications_clocks_mem_mhz=6251)
    assert app_clocks_off_mhz(same) == 0 and "USED-CLOCKS-CHANGED" not in judged(same)
    assert app_clocks_off_mhz(lowered) == 1250 and "USED-CLOCKS-CHANGED" in judged(lowered)
    one_sided = GpuReading(applications_clocks_graphics_mhz=1710)
    assert app_clocks_off_mhz(one_sided) is None and "USED-CLOCKS-CHANGED" not in judged(one_sided)


@pytest.mark.parametrize(("pstate", "idle", "at_idle", "degraded"), [
    ("P8", None, True, False),  # generation lowered at idle: power saving
    ("P0", True, True, False),  # gpu_idle limiter active
    ("P0", False, False, True),  # busy and still on a lower generation
    ("P2", None, False, True),
    (None, None, None, None),  # cannot tell whether it idles
])
def test_pcie_generation_below_max(pstate, idle, at_idle, degraded):
    """A lower generation is flagged only while the card is busy (policy idle_pstate_min: P8)."""
    reading = GpuReading(pcie_gen_current=1, pcie_gen_max=4, link_width_current=16, link_width_max=16,
                         performance_state=pstate, gpu_idle=idle)
    got = judged(reading)
    assert "USED-PCIE-WIDTH" not in got
    assert ("USED-PCIE-GEN-UNDER-LOAD" in got) is bool(degraded)


def test_variability_hand_computed():
    # fan speed readings: mean (30+85+40+90)/4 = 61.25; squared deviations from the mean
    # 31.25^2 + 23.75^2 + 21.25^2 + 28.75^2 = 976.5625 + 564.0625 + 451.5625 + 826.5625 = 2818.75
    stats = variability([30, 85, 40, 90])
    assert stats.n == 4
    assert stats.mean == 61.25
    assert stats.stdev == pytest.approx(math.sqrt(2818.75 / 3))  # 30.6526...
    assert stats.cv == pytest.approx(math.sqrt(2818.75 / 3) / 61.25)  # 0.50045...
    assert (stats.min, stats.max) == (30, 90)
    assert stats.relative_swing == pytest.approx(60 / 61.25)  # 0.97959...


def test_variability_steady_and_edge_cases():
    steady = variability([182.0, 182.0, 182.0])
    assert (steady.stdev, steady.cv, steady.relative_swing) == (0.0, 0.0, 0.0)
    zero = variability([-1.0, 1.0])
    assert zero.mean == 0.0 and zero.cv is None and zero.relative_swing is None
    with pytest.raises(UserError, match="at least 2"):
        variability([40.0])
    with pytest.raises(UserError, match="finite"):
        variability([40.0, float("nan")])


def test_months_between():
    assert months_between("2020-11", "2023-05") == 30
    assert months_between("2023-05", "2023-05") == 0
    assert months_between("2021-03-17", dt.date(2022, 3, 1)) == 12
    assert months_between("2023-05", "2020-11") == -30  # purchase before manufacture: flagged by rules
    for bad in ("2020-13", "Nov 2020", "20-11", ""):
        with pytest.raises(UserError, match="not a year and month"):
            months_between(bad, "2023-05")


# ----------------------------------------------------------------------------- issue 16: the card's own report
def test_dual_gpu_report_reads_both_gpus_and_their_limits():
    """influxdata/telegraf testdata/dual_a5000-v13.xml (driver 590), two RTX A5000 (see SOURCES.md)."""
    log = parse_nvidia_smi_xml(DATA / "telegraf_dual-a5000-v13_excerpt.xml")
    assert [g.serial for g in log.gpus] == ["0123456789012", "1234567890123"]
    assert [g.pci_bus_id for g in log.gpus] == ["00000000:81:00.0", "00000000:C1:00.0"]
    for g in log.gpus:
        assert g.memory_total_mib == 24564
        assert (g.remap_banks_none, g.remap_banks_low, g.remap_banks_total) == (0, 0, 192)
        assert (g.gpu_max_operating_temp_c, g.gpu_slowdown_temp_c, g.gpu_shutdown_temp_c) == (90, 95, 98)
        assert g.memory_temp_c is None and g.memory_max_operating_temp_c is None  # GDDR6: N/A
        assert (g.pcie_replay_count, g.pcie_replay_rollovers) == (0, 0)
        assert g.pcie_gen_current < g.pcie_gen_max and g.performance_state == "P8"  # idle: power saving
        assert not judged(g) & {"USED-PCIE-WIDTH", "USED-PCIE-GEN-UNDER-LOAD"}
    assert [g.temperature_c for g in log.gpus] == [13, 15]


def test_a100_temperature_thresholds_and_hbm_temperature():
    g = gpu0("telegraf_a100-sxm4-v12.xml")
    limits = (g.gpu_max_operating_temp_c, g.gpu_slowdown_temp_c, g.gpu_shutdown_temp_c)
    assert (g.temperature_c, *limits) == (27, 85, 89, 92)
    assert (g.memory_temp_c, g.memory_max_operating_temp_c) == (44, 95)


def test_uncorrectable_errors_since_boot_count_while_the_lifetime_counter_is_zero():
    """derived_a10g_volatile-uncorrectable.xml: volatile dram_uncorrectable 2, aggregate still 0."""
    g = gpu0("derived_a10g_volatile-uncorrectable.xml")
    assert (g.ecc_volatile_dbe, g.ecc_aggregate_dbe) == (2, 0)
    assert memory_errors(g).uncorrectable_ecc == 2


def test_the_larger_of_lifetime_and_since_boot_counts():
    g = GpuReading(ecc_volatile_sbe=7, ecc_aggregate_sbe=3, ecc_volatile_dbe=0, ecc_aggregate_dbe=1)
    errors = memory_errors(g)
    assert (errors.correctable_ecc, errors.uncorrectable_ecc) == (7, 1)


def test_row_remapper_histogram_without_spare_rows():
    g = gpu0("derived_a10g_no-spare-rows.xml")
    assert (g.remap_banks_none, g.remap_banks_total) == (2, 192)
    assert memory_errors(g).remap_banks_exhausted == 2


@pytest.mark.parametrize("body, what", [
    ("<retired_pages><double_bit_retirement><retired_count>-1</retired_count></double_bit_retirement>"
     "</retired_pages>", "retired_count"),
    ("<pci><replay_counter>-5</replay_counter></pci>", "replay_counter"),
    ("<ecc_errors><aggregate><dram_uncorrectable>-2</dram_uncorrectable></aggregate></ecc_errors>",
     "dram_uncorrectable"),
    ("<fb_memory_usage><total>-80 MiB</total></fb_memory_usage>", "total"),
    ("<utilization><gpu_util>140 %</gpu_util></utilization>", "gpu_util"),
])
def test_impossible_readings_make_the_report_invalid(body, what):
    with pytest.raises(UserError, match=what):
        parse_nvidia_smi_xml(minimal(body))


def test_a_real_report_with_a_negative_count_is_refused():
    with pytest.raises(UserError, match="cannot be negative"):
        parse_nvidia_smi_xml(DATA / "derived_tesla-p100_negative-retired.xml")


def test_fan_speed_over_100_percent_is_a_reading():
    """NVML, nvmlDeviceGetFanSpeed: the intended speed 'may exceed 100% in certain cases'."""
    assert parse_nvidia_smi_xml(minimal("<fan_speed>104 %</fan_speed>")).gpus[0].fan_speed_percent == 104


@pytest.mark.parametrize("text", ["N/A", "REDACTED", "0000000000000", "[N/A]"])
def test_hidden_serials_are_no_serial(text):
    assert parse_nvidia_smi_xml(minimal(f"<serial>{text}</serial>")).gpus[0].serial is None


def test_select_gpus_by_serial_or_all():
    log = parse_nvidia_smi_xml(DATA / "telegraf_dual-a5000-v13_excerpt.xml")
    second = inspect_card.select_gpus(log, "1234567890123")
    assert (second.how, second.serial_in_report, [i for i, _ in second.gpus]) == ("serial", True, [2])
    unknown = inspect_card.select_gpus(log, "999")
    assert (unknown.how, unknown.serial_in_report, [i for i, _ in unknown.gpus]) == ("all", False, [1, 2])
    none = inspect_card.select_gpus(log, None)
    assert (none.how, none.serial_in_report, len(none.gpus)) == ("all", None, 2)
    single = inspect_card.select_gpus(parse_nvidia_smi_xml(DATA / "telegraf_rtx-3080-v13.xml"), "1324620012345")
    assert (single.how, single.serial_in_report) == ("only", None)  # REDACTED: cannot be checked


@pytest.mark.parametrize("product, claimed, expected", [
    # product_name as nvidia-smi prints it (the real reports in tests/data/nvidia_smi and NVIDIA's
    # product pages) against the names the catalog gives the claimed card
    ("Tesla P100-PCIE-12GB", ["v100-32gb-pcie", "NVIDIA Tesla V100 PCIe 32GB", "tesla v100-pcie-32gb"], False),
    ("Tesla P100-PCIE-16GB", ["p100-16gb-pcie", "NVIDIA Tesla P100 PCIe 16GB"], True),
    ("NVIDIA GeForce RTX 4090 D", ["rtx-4090", "NVIDIA GeForce RTX 4090 24GB", "4090"], False),
    ("NVIDIA GeForce RTX 4090", ["rtx-4090", "NVIDIA GeForce RTX 4090 24GB", "4090"], True),
    ("NVIDIA GeForce RTX 4090 D", ["rtx-4090d", "NVIDIA GeForce RTX 4090D 24GB"], True),
    ("NVIDIA GeForce RTX 3080", ["rtx-3090", "NVIDIA GeForce RTX 3090 24GB"], False),
    ("Tesla V100-PCIE-32GB", ["v100-32gb-sxm2", "tesla v100-sxm2-32gb", "v100 32gb"], False),
    ("NVIDIA H100 80GB HBM3", ["h100-80gb-pcie", "NVIDIA H100 PCIe 80GB", "h100 pcie"], False),
    ("NVIDIA H100 80GB HBM3", ["h100-80gb-sxm", "NVIDIA H100 SXM5 80GB", "h100-80g"], True),
    ("NVIDIA A100-SXM4-80GB", ["a100-80gb-sxm", "NVIDIA A100 SXM4 80GB", "a100-sxm4-80gb"], True),
    ("NVIDIA A100-SXM4-80GB", ["a100-80gb-pcie", "NVIDIA A100 PCIe 80GB", "a100 80gb pcie"], False),
    ("NVIDIA A10G", ["a10", "NVIDIA A10 24GB"], False),
    (None, ["a10"], None),
])
def test_product_matches_by_series_and_variant(product, claimed, expected):
    assert inspect_card.product_matches(product, claimed) is expected


def test_memory_ratio_by_hand():
    """fb_memory_usage/total over the marketed size in MiB (GB = GiB for GPU memory)."""
    p100_12 = gpu0("derived_tesla-p100_12gb.xml")
    assert inspect_card.memory_ratio(p100_12, 32) == pytest.approx(12288 / 32768)  # 0.375: not a V100 32GB
    a10g = gpu0("telegraf_a10g.xml")
    assert inspect_card.memory_ratio(a10g, 24) == pytest.approx(23028 / 24576)  # 0.937: ECC's 1/16 on GDDR6
    assert inspect_card.memory_ratio(GpuReading(), 24) is None


def test_report_path_stays_in_the_proposal_directory(tmp_path):
    (tmp_path / "cards").mkdir()
    inside = tmp_path / "cards" / "a.xml"
    inside.write_text("x")
    resolve = smi_report.resolve_report_path
    assert resolve("cards/a.xml", tmp_path, where="w") == inside.resolve()
    assert resolve(str(inside), tmp_path, where="w") == inside.resolve()  # absolute but inside
    outside = tmp_path.parent / f"{tmp_path.name}-outside.xml"
    outside.write_text("x")
    (tmp_path / "link.xml").symlink_to(outside)
    for value in (str(outside), f"../{outside.name}", "link.xml", "/etc/passwd"):
        with pytest.raises(UserError, match="outside the proposal's directory"):
            resolve(value, tmp_path, where="w")


def test_only_regular_files_are_read(tmp_path):
    fifo = tmp_path / "fifo.xml"
    os.mkfifo(fifo)  # no writer: a blocking open would hang here
    for path in (fifo, tmp_path, Path("/dev/null")):
        with pytest.raises(UserError, match="not a regular file"):
            smi_report.read_regular_file(path, where="w")
    big = tmp_path / "big.xml"
    big.write_bytes(b"x" * 101)
    with pytest.raises(UserError, match="larger than 100 bytes"):
        smi_report.read_regular_file(big, where="w", limit=100)
    assert smi_report.read_regular_file(big, where="w", limit=101) == b"x" * 101


# ----------------------------------------------------------------------------- issue 16: a second corpus
# More reports with one fault each, derived here from the real files by changing one element's text
# (or the two elements that store one fact), and audited end to end as a one-card used purchase.
# Healthy controls must stay free of used-hardware warnings and blockers.
P100, A100, A10G = "netdata_tesla-p100.xml", "telegraf_a100-sxm4-v12.xml", "telegraf_a10g.xml"
RTX3080, DUAL = "telegraf_rtx-3080-v13.xml", "telegraf_dual-a5000-v13_excerpt.xml"
A100_AGG = r"(<aggregate>\s*<sram_correctable>0</sram_correctable>\s*<sram_uncorrectable>0</sram_uncorrectable>\s*"
P100_VOL_DBE = r"(<volatile>\s*<single_bit>[\s\S]*?</single_bit>\s*<double_bit>\s*"
NO_SPARE = [(r"<row_remapper_histogram_max>192", "<row_remapper_histogram_max>191"),
            (r"<row_remapper_histogram_none>0", "<row_remapper_histogram_none>1")]


def derive(base: str, edits: list[tuple[str, str]]) -> str:
    """``base`` with each pattern's first match replaced; a pattern that matches nothing fails."""
    text = (DATA / base).read_text()
    for pattern, new in edits:
        text, n = re.subn(pattern, new, text, count=1)
        assert n == 1, f"{pattern!r} not in {base}"
    return text


def used_findings(tmp_path: Path, xml_text: str, gpu: str, serial: str | None = None, *, made: str = "2023-01",
                  purchased: str = "2025-06", notes: bool = True) -> tuple[str, set]:
    """The verdict and the (rule, severity) of the used-hardware findings of a one-card used purchase
    (``notes=False``: warnings and blockers only)."""
    (tmp_path / "card.xml").write_text(xml_text)
    card = {"nvidia_smi": "card.xml", "manufactured": made, "purchased": purchased}
    if serial:
        card["serial"] = serial
    doc = {"workload": {"task": "inference", "model": "llama-3.1-8b"}, "hardware": {"gpu": gpu, "count": 1},
           "acquisition": {"mode": "buy", "condition": "used"}, "used_cards": [card]}
    (tmp_path / "proposal.yaml").write_text(yaml.safe_dump(doc))
    r = audit(str(tmp_path / "proposal.yaml"))
    return r.verdict, {(f.rule, f.severity) for f in r.findings
                       if f.topic == "used-hardware" and (notes or f.severity != "info")}


SECOND_CORPUS = [
    # uncorrectable errors since boot, lifetime counter still 0, in the DTD v12 flat layout
    (A100, [(r"(<volatile>\s*<sram_correctable>0</sram_correctable>\s*<sram_uncorrectable>)0", r"\g<1>1")],
     "a100-80gb-sxm", None, ("USED-UNCORRECTABLE-ECC", "blocker")),
    # the old layout when only the memory kind is changed and the total is left at 0
    (P100, [(P100_VOL_DBE + r"<device_memory>)0", r"\g<1>1")], "p100-16gb-pcie", None,
     ("USED-UNCORRECTABLE-ECC", "blocker")),
    (P100, [(r"(<aggregate>[\s\S]*?<double_bit>[\s\S]*?<l2_cache>)0", r"\g<1>1")], "p100-16gb-pcie", None,
     ("USED-UNCORRECTABLE-ECC", "blocker")),
    # policy correctable_ecc_warning: more than 100 in the card's life
    (A100, [(A100_AGG + r"<dram_correctable>)0", r"\g<1>101")], "a100-80gb-sxm", None,
     ("USED-CORRECTABLE-ECC", "warning")),
    (P100, [(r"<pending_retirement>No", "<pending_retirement>Yes")], "p100-16gb-pcie", None,
     ("USED-PENDING-RETIREMENT", "blocker")),
    (A10G, [(r"<remapped_row_failure>No", "<remapped_row_failure>Yes")], "a10g", None,
     ("USED-PENDING-RETIREMENT", "blocker")),
    (DUAL, NO_SPARE, "rtx-a6000", "0123456789012", ("USED-REMAP-BANKS-EXHAUSTED", "blocker")),
    # the exact model: name and form factor, not the last word of the name
    (A100, [], "a100-80gb-pcie", None, ("USED-WRONG-MODEL", "blocker")),  # an SXM4 module offered as PCIe
    (A100, [], "a800-80gb-sxm", None, ("USED-WRONG-MODEL", "blocker")),
    (A100, [], "a100-40gb-sxm", None, ("USED-WRONG-MEMORY", "blocker")),  # 81,920 MiB is not 40 GB
    (P100, [], "p100-16gb-sxm2", None, ("USED-WRONG-MODEL", "blocker")),
    (A10G, [], "a10", None, ("USED-WRONG-MODEL", "blocker")),
    (RTX3080, [(r"NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 3090 Ti"),
               (r"<total>10240 MiB", "<total>24564 MiB")], "rtx-3090", None, ("USED-WRONG-MODEL", "blocker")),
    # temperatures against the report's own limits (A100: max operating 85 C; HBM 95 C)
    (A100, [(r"<gpu_temp>27 C", "<gpu_temp>85 C")], "a100-80gb-sxm", None, ("USED-GPU-HOT", "warning")),
    (A100, [(r"<memory_temp>44 C", "<memory_temp>95 C")], "a100-80gb-sxm", None, ("USED-MEMORY-HOT", "warning")),
    # a P100 gives no max-operating limit: its slowdown threshold (82 C) is the one to compare
    (P100, [(r"<gpu_temp>38 C", "<gpu_temp>90 C")], "p100-16gb-pcie", None, ("USED-GPU-HOT", "warning")),
    # policy used_card_pcie_replays_warning: more than 8
    (P100, [(r"<replay_counter>0", "<replay_counter>9")], "p100-16gb-pcie", None, ("USED-PCIE-REPLAYS", "warning")),
    (A100, [(r"<current_link_width>16x", "<current_link_width>4x")], "a100-80gb-sxm", None,
     ("USED-PCIE-WIDTH", "warning")),  # x4 of x16: a riser or a fault (x8 is the slot's: information)
    (A100, [(r"<current_link_gen>4", "<current_link_gen>3")], "a100-80gb-sxm", None,  # at P0: busy
     ("USED-PCIE-GEN-UNDER-LOAD", "warning")),
    (A100, [(r"<current_power_limit>500.00 W", "<current_power_limit>300.00 W")], "a100-80gb-sxm", None,
     ("USED-POWER-LIMIT-CHANGED", "warning")),
    (A100, [(r"(<clocks_event_reason_hw_slowdown>)Not Active", r"\g<1>Active")], "a100-80gb-sxm", None,
     ("USED-THROTTLING", "warning")),
    (P100, [], "p100-16gb-pcie", "0324217145111", ("USED-SERIAL-NOT-IN-REPORT", "warning")),  # one digit off
]


NAMES = {("USED-WRONG-MODEL", "blocker"), ("USED-WRONG-MEMORY", "blocker")}
"""A card that is not the claimed one may differ in name, in memory size, or both."""
UNCHANGED = {A10G: set(), DUAL: NAMES}
"""What the unchanged base files already show: the RTX A5000, which the catalog lacks, is offered as
the RTX A6000 it is not (the A10G report's x8 of x16, an AWS host's slot, is information only)."""


@pytest.mark.parametrize("base, edits, gpu, serial, expected", SECOND_CORPUS)
def test_one_fault_is_found_with_its_severity(tmp_path, base, edits, gpu, serial, expected):
    verdict, used = used_findings(tmp_path, derive(base, edits), gpu, serial)
    assert expected in used, used
    others = {f for f in used if f[1] != "info"} - {expected} - UNCHANGED.get(base, set())
    assert others <= (NAMES if expected in NAMES else set()), others  # the one fault, nothing else
    if expected[1] == "blocker":
        assert verdict == "reject"


@pytest.mark.parametrize("base, edits, gpu, serial, expected", [
    (P100, [], "p100-16gb-pcie", "0324217145110", set()),
    (A100, [], "a100-80gb-sxm", "1650522003820", set()),
    (A10G, [], "a10g", None, UNCHANGED[A10G]),  # gen 1 of 4 at P8 is idle power saving; x8 is the slot (info)
    (A100, [(r"<replay_counter>0", "<replay_counter>8")], "a100-80gb-sxm", None, set()),  # at the limit
    (A100, [(A100_AGG + r"<dram_correctable>)0", r"\g<1>100")], "a100-80gb-sxm", None, set()),  # at the limit
    (A100, [(r"<gpu_temp>27 C", "<gpu_temp>84 C")], "a100-80gb-sxm", None, set()),  # below its 85 C
    (P100, [(r"<current_link_gen>3", "<current_link_gen>2")], "p100-16gb-pcie", None, set()),  # gpu_idle
    # x8 of x16 at P0: the slot (information), no warning
    (A100, [(r"<current_link_width>16x", "<current_link_width>8x")], "a100-80gb-sxm", None, set()),
    # two RTX A5000 (not in the catalog, offered here as the A6000 they are not): the second card
    # is judged by its serial; its idle gen-1 link and its neighbour's exhausted bank are no fault of it
    (DUAL, [], "rtx-a6000", "1234567890123", NAMES),
    (DUAL, NO_SPARE, "rtx-a6000", "1234567890123", NAMES),
])
def test_healthy_cards_and_idle_link_drops_stay_clean(tmp_path, base, edits, gpu, serial, expected):
    _, used = used_findings(tmp_path, derive(base, edits), gpu, serial)
    assert {f for f in used if f[1] != "info"} == expected, used


def test_a_report_whose_kinds_add_up_to_more_than_its_total_is_judged_by_the_larger():
    body = ("<ecc_errors><volatile><double_bit><device_memory>2</device_memory><l2_cache>1</l2_cache>"
            "<total>0</total></double_bit></volatile></ecc_errors>")
    assert parse_nvidia_smi_xml(minimal(body)).gpus[0].ecc_volatile_dbe == 3
