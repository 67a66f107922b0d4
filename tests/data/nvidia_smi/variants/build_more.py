"""Round eleven's report variants for build.py (issue 26 item 6, hidden nvidia-smi variants): ECC
switched off on data-centre cards, power limits moved either way, the memory-health sections in
both schemas (``retired_pages`` of Pascal to Turing, ``remapped_rows`` of Ampere and later) on
one GPU of several, the A100's report in driver 580's schema, an HGX board's eight GPUs, and a
report whose collector dropped the memory sections. Each is a real report of the folder above
with element text changed (or, where a schema or a board is shown, elements renamed or repeated
as the driver writes them). What each must conclude is written by hand from what the file shows
and the rules' documented thresholds, never from a run of gpuwise.
"""

from __future__ import annotations

import re

from edits import gpus as _gpus
from edits import read as _read
from edits import sub as _sub

A100_SERIAL = "1650522003820"
P100_SERIAL = "0324217145110"


def _ecc_off(text: str, *, pending: str = "Disabled") -> str:
    """ECC switched off as nvidia-smi shows it: current mode Disabled and every error counter of the
    GPU's (and each MIG instance's) ECC sections N/A -- NVML counts ECC errors only with ECC on."""
    text = _sub(text, (r"<current_ecc>Enabled", "<current_ecc>Disabled"))
    if pending == "Disabled":
        text = _sub(text, (r"<pending_ecc>Enabled", "<pending_ecc>Disabled"))
    na = re.sub(r"<(ecc_errors|ecc_error_count)>[\s\S]*?</\1>",
                lambda m: re.sub(r">\d+<", ">N/A<", m.group(0)), text)
    if na == text:
        raise SystemExit("no ECC counter to blank")
    return na


ECC_OFF = "USED-ECC-OFF", "warning"
LOWERED = "USED-POWER-LIMIT-CHANGED", "warning"
RAISED = "USED-POWER-LIMIT-RAISED", "warning"
REPAIRED = "USED-RETIRED-MEMORY", "warning"
UNCORRECTABLE = "USED-UNCORRECTABLE-ECC", "blocker"
PENDING = "USED-PENDING-RETIREMENT", "blocker"
AT_LIMIT = "USED-RETIRED-PAGES-LIMIT", "blocker"


def more_variants() -> list[dict]:
    """The entries build.py adds (the shape of build_real.real_variants)."""
    v: list[dict] = []

    def add(file: str, data: str, gpu: str, why: str, *, serial: str | None = None, verdict: str = "approve",
            findings: tuple = ()) -> None:
        v.append({"file": f"{file}.xml", "data": data, "gpu": gpu, "serial": serial, "manufactured": None,
                  "verdict": verdict, "findings": [list(f) for f in findings], "error": None, "why": why})

    t4, p100 = _read("telegraf_tesla-t4.xml"), _read("netdata_tesla-p100.xml")
    a100, a10g, r3090 = _read("telegraf_a100-sxm4-v12.xml"), _read("telegraf_a10g.xml"), _read("telegraf_3090-v13.xml")

    # ------------------------------------------------------------------ ECC mode
    add("t4_ecc-off-pending-on", _ecc_off(t4, pending="Enabled"), "t4",
        "ECC off now and switched on for the next boot (pending Enabled): until then nothing was counted",
        verdict="revise", findings=[ECC_OFF])
    add("p100_ecc-disabled-dtd-v11", _ecc_off(p100),
        "p100-16gb-pcie", "a Tesla P100 (HBM2) with ECC switched off, driver 510's old ECC schema",
        serial=P100_SERIAL, verdict="revise", findings=[ECC_OFF])
    add("a100_mig-ecc-disabled", _ecc_off(a100),
        "a100-80gb-sxm", "an A100 in MIG mode with ECC switched off", serial=A100_SERIAL, verdict="revise",
        findings=[ECC_OFF])
    add("p100_ecc-on-pending-off", _sub(p100, (r"<pending_ecc>Enabled", "<pending_ecc>Disabled")), "p100-16gb-pcie",
        "ECC on now (its counters are valid and clean) and set to go off at the next boot: nothing wrong shown",
        serial=P100_SERIAL)

    # ------------------------------------------------------------------ power limit, by direction
    raised = _sub(r3090, (r"<current_power_limit>350.00 W", "<current_power_limit>480.00 W"),
                  (r"<requested_power_limit>350.00 W", "<requested_power_limit>480.00 W"))
    add("rtx3090-v13_power-limit-raised", raised,
        "rtx-3090", "an RTX 3090 raised to its 480 W maximum from the 350 W default: overclocked, not mined",
        verdict="revise", findings=[RAISED])
    add("a100_v12-power-limit-lowered", _sub(a100, (r"<current_power_limit>500.00 W", "<current_power_limit>300.00 W"),
                                             (r"<requested_power_limit>500.00 W",
                                              "<requested_power_limit>300.00 W")),
        "a100-80gb-sxm", "an A100 capped at 300 W of its 500 W default (DTD v12 gpu_power_readings)",
        serial=A100_SERIAL, verdict="revise", findings=[LOWERED])

    # ------------------------------------------------------------------ memory repairs, both schemas
    def t4_second_worn(i: int, block: str) -> str:
        if i != 2:
            return block
        return _sub(block, (r"(<aggregate>[\s\S]*?<dram_correctable>)0<", r"\g<1>14<"),
                    (r"(<aggregate>[\s\S]*?<dram_uncorrectable>)0<", r"\g<1>1<"),
                    (r"(<multiple_single_bit_retirement>\s*<retired_count>)0<", r"\g<1>2<"),
                    (r"(<double_bit_retirement>\s*<retired_count>)0<", r"\g<1>1<"))
    add("4x-t4_second-retired-pages", _gpus(t4, 4, t4_second_worn), "t4",
        "four T4s without serials, the second with 2 + 1 retired pages (old schema) after one double-bit error: "
        "all are judged, so the card cannot be told apart", verdict="reject", findings=[UNCORRECTABLE, REPAIRED])
    add("t4_retired-pages-at-60", _sub(t4, (r"(<multiple_single_bit_retirement>\s*<retired_count>)0<", r"\g<1>52<"),
                                       (r"(<double_bit_retirement>\s*<retired_count>)0<", r"\g<1>8<"),
                                       (r"(<aggregate>[\s\S]*?<dram_uncorrectable>)0<", r"\g<1>8<")),
        "t4", "52 + 8 = 60 retired pages: DCGM's limit", verdict="reject", findings=[UNCORRECTABLE, AT_LIMIT, REPAIRED])
    add("a10g_remapped-rows-corr-2", _sub(a10g, (r"<remapped_row_corr>0", "<remapped_row_corr>2"),
                                          (r"(<aggregate>[\s\S]*?<dram_correctable>)0<", r"\g<1>9<"),
                                          (r"<row_remapper_histogram_max>192", "<row_remapper_histogram_max>190"),
                                          (r"<row_remapper_histogram_high>0", "<row_remapper_histogram_high>2")),
        "a10g", "two rows remapped after correctable errors (new schema), histogram 190 max + 2 high: repaired, no "
        "bank short of spares", verdict="revise", findings=[REPAIRED])

    def a10g_second_pending(i: int, block: str) -> str:
        if i != 2:
            return block
        return _sub(block, (r"<remapped_row_unc>0", "<remapped_row_unc>1"),
                    (r"<remapped_row_pending>No", "<remapped_row_pending>Yes"),
                    (r"(<aggregate>[\s\S]*?<dram_uncorrectable>)0<", r"\g<1>1<"))
    add("2x-a10g_second-remap-pending", _gpus(a10g, 2, a10g_second_pending), "a10g",
        "two A10Gs, the second with a row remap for an uncorrectable error waiting for a reset", verdict="reject",
        findings=[UNCORRECTABLE, PENDING, REPAIRED])

    # ------------------------------------------------------------------ other schemas and boards
    v13 = _sub(a100, (r"nvsmi_device_v12", "nvsmi_device_v13"), (r"535\.54\.03", "580.65.06"),
               (r"<cuda_version>12\.2", "<cuda_version>13.0"),
               (r"<power_draw>67.03 W</power_draw>",
                "<average_power_draw>66.12 W</average_power_draw>\n"
                "            <instant_power_draw>67.03 W</instant_power_draw>"))
    add("a100_driver-580-dtd-v13", v13, "a100-80gb-sxm",
        "the A100's report in driver 580's DTD v13 (average and instant power draw): sound", serial=A100_SERIAL)
    hgx = _sub(a100, (r"NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3"), (r"<total>81920 MiB", "<total>81559 MiB"),
               (r"<current_mig>Enabled", "<current_mig>Disabled"), (r"<pending_mig>Enabled", "<pending_mig>Disabled"),
               (r"<mig_devices>[\s\S]*?</mig_devices>", "<mig_devices>\n            None\n        </mig_devices>"),
               (r"<serial>1650522003820", "<serial>N/A"), (r"<current_power_limit>500.00 W", "<current_power_limit>"
                                                                                        "700.00 W"),
               (r"<requested_power_limit>500.00 W", "<requested_power_limit>700.00 W"),
               (r"<default_power_limit>500.00 W", "<default_power_limit>700.00 W"),
               (r"<max_power_limit>500.00 W", "<max_power_limit>700.00 W"))
    add("8x-h100-hgx_from-a100", _gpus(hgx, 8, lambda _i, b: b), "h100-80gb-sxm",
        "an HGX H100 board's eight GPUs in one report, serials N/A: all eight judged, all sound")
    trimmed = a100
    for tag in ("ecc_mode", "ecc_errors", "retired_pages"):
        trimmed = _sub(trimmed, (rf"\n[ \t]*<{tag}>[\s\S]*?</{tag}>", ""))
    trimmed = _sub(trimmed, (r"\n[ \t]*<remapped_rows>N/A</remapped_rows>", ""))
    add("a100_no-memory-sections", trimmed, "a100-80gb-sxm",
        "a collector that drops ecc_mode, ecc_errors, retired_pages and remapped_rows: nothing known, nothing "
        "wrong said", serial=A100_SERIAL)
    return v
