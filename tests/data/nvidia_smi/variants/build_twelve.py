"""Round twelve's report variants for build.py (issue 26 item 6, hidden nvidia-smi variants): what a
seller who runs nvidia-smi on a whole host sends -- four A100s with serials where one is bad (the
card on offer picked by its serial, or all judged without one), two RTX 3090s under load with the
second on an x1 riser, eight A100s of which one fell off the bus, ``nvidia-smi -i 0`` of a two-GPU
host -- an older driver's tag names on a GeForce report, a serial padded with spaces as some
collectors keep values, a report saved as UTF-32 (PowerShell's ``Out-File -Encoding utf32``), and
driver 570's other recovery actions. Each is a real report of the folder above with element text
changed (or elements renamed or repeated as the driver writes them). What each must conclude is
written by hand from what the file shows and the rules' documented thresholds, never from a run of
gpuwise.
"""

from __future__ import annotations

import codecs

from edits import gpus as _gpus
from edits import read as _read
from edits import sub as _sub

UNCORRECTABLE = "USED-UNCORRECTABLE-ECC", "blocker"
RECOVERY = "USED-RECOVERY-NEEDED", "blocker"
WIDTH = "USED-PCIE-WIDTH", "warning"
LOWERED = "USED-POWER-LIMIT-CHANGED", "warning"
THROTTLING = "USED-THROTTLING", "warning"
A100_SERIAL = "1650522003820"


def _no_mig(a100: str) -> str:
    return _sub(a100, (r"<current_mig>Enabled", "<current_mig>Disabled"),
                (r"<pending_mig>Enabled", "<pending_mig>Disabled"),
                (r"<mig_devices>[\s\S]*?</mig_devices>", "<mig_devices>\n            None\n        </mig_devices>"))


def twelfth_variants() -> list[dict]:
    """The entries build.py adds (the shape of build_real.real_variants)."""
    v: list[dict] = []

    def add(file: str, data: str | bytes | None, gpu: str, why: str, *, serial: str | None = None,
            verdict: str = "approve", findings: tuple = ()) -> None:
        v.append({"file": f"{file}.xml", "data": data, "gpu": gpu, "serial": serial, "manufactured": None,
                  "verdict": verdict, "findings": [list(f) for f in findings], "error": None, "why": why})

    a100, r3090 = _read("telegraf_a100-sxm4-v12.xml"), _read("telegraf_3090-v13.xml")
    plain = _no_mig(a100)

    # ------------------------------------------------------------------ one host's GPUs, one of them bad
    def serial_and_third_bad(i: int, block: str) -> str:
        block = _sub(block, (rf"<serial>{A100_SERIAL}", f"<serial>16505220038{i:02d}"))
        if i != 3:
            return block
        return _sub(block, (r"(<volatile>[\s\S]*?<dram_uncorrectable>)0<", r"\g<1>1<"),
                    (r"(<aggregate>[\s\S]*?<dram_uncorrectable>)0<", r"\g<1>1<"))
    four = _gpus(plain, 4, serial_and_third_bad)
    add("4x-a100_serials_third-uncorrectable", four, "a100-80gb-sxm",
        "four A100s of one host with their serials; the card on offer is the first: only it is judged, sound",
        serial="1650522003801")
    add("4x-a100_serials_third-uncorrectable", None, "a100-80gb-sxm",
        "the same host's report, the card on offer the third: its uncorrectable DRAM error rejects it",
        serial="1650522003803", verdict="reject", findings=[UNCORRECTABLE])

    def second_on_riser(i: int, block: str) -> str:
        block = _sub(block, (r"<performance_state>P8", "<performance_state>P2"), (r"<gpu_util>0 %", "<gpu_util>100 %"),
                     (r"<average_power_draw>35.06 W", "<average_power_draw>318.40 W"),
                     (r"<instant_power_draw>35.15 W", "<instant_power_draw>321.72 W"),
                     (r"<current_link_gen>1", "<current_link_gen>4"),
                     (r"<device_current_link_gen>1", "<device_current_link_gen>4"))
        return _sub(block, (r"<current_link_width>16x", "<current_link_width>1x")) if i == 2 else block
    add("2x-rtx3090_busy_second-x1-riser", _gpus(r3090, 2, second_on_riser), "rtx-3090",
        "two RTX 3090s (no serials) under a stress run, the second on an x1 link: both judged, a mining riser",
        verdict="revise", findings=[WIDTH])

    def second_capped(i: int, block: str) -> str:
        if i != 2:
            return block
        return _sub(block, (r"<current_power_limit>350.00 W", "<current_power_limit>250.00 W"),
                    (r"<requested_power_limit>350.00 W", "<requested_power_limit>250.00 W"))
    add("2x-rtx3090_second-power-capped", _gpus(r3090, 2, second_capped), "rtx-3090",
        "two idle RTX 3090s (no serials), the second's limit lowered to 250 W of 350 W: both judged",
        verdict="revise", findings=[LOWERED])
    hot = _sub(r3090, (r"<performance_state>P8", "<performance_state>P2"), (r"<gpu_util>0 %", "<gpu_util>100 %"),
               (r"<average_power_draw>35.06 W", "<average_power_draw>296.10 W"),
               (r"<current_link_gen>1", "<current_link_gen>4"),
               (r"<device_current_link_gen>1", "<device_current_link_gen>4"),
               (r"<clocks_event_reason_sw_power_cap>Active", "<clocks_event_reason_sw_power_cap>Not Active"),
               (r"<clocks_event_reason_hw_thermal_slowdown>Not Active",
                "<clocks_event_reason_hw_thermal_slowdown>Active"),
               (r"<clocks_event_reason_hw_slowdown>Not Active", "<clocks_event_reason_hw_slowdown>Active"))
    add("rtx3090-v13_busy-hw-thermal-slowdown", hot, "rtx-3090",
        "under a stress run the hardware (thermal) slowdown is active, in driver 590's clocks_event_reasons names",
        verdict="revise", findings=[THROTTLING])

    lost = "Unable to determine the device handle for GPU0000:15:00.0: Unknown Error\n"
    add("8x-a100_fifth-lost-off-the-bus", lost + _gpus(_sub(plain, (rf"<serial>{A100_SERIAL}", "<serial>N/A")), 7,
                                                       lambda _i, b: b),
        "a100-80gb-sxm", "eight A100s without serials, one fell off the bus (the line nvidia-smi writes to standard "
        "error, kept with 2>&1) above the seven it reached: not in working order", verdict="reject",
        findings=[RECOVERY])
    one_of_two = _sub(r3090, (r"<attached_gpus>1", "<attached_gpus>2"))
    add("rtx3090_i0-of-2-attached", one_of_two, "rtx-3090",
        "`nvidia-smi -q -x -i 0` on a two-GPU host: one <gpu> of two attached, sound")

    # ------------------------------------------------------------------ older tags, padded values, encodings
    older = _sub(r3090, (r"nvsmi_device_v13", "nvsmi_device_v11"),
                 (r"<gpu_power_readings>", "<power_readings>"), (r"</gpu_power_readings>", "</power_readings>"),
                 (r"<average_power_draw>35.06 W</average_power_draw>\s*"
                  r"<instant_power_draw>35.15 W</instant_power_draw>", "<power_draw>35.15 W</power_draw>"))
    older = older.replace("clocks_event_reasons_counters", "clocks_throttle_reasons_counters") \
        .replace("clocks_event_reason", "clocks_throttle_reason")
    add("rtx3090_driver-470-tags_from-v13", older, "rtx-3090",
        "the RTX 3090's report with driver 470's tag names (clocks_throttle_reasons, power_readings, one "
        "power_draw): the same readings, sound")
    add("a100_serial-padded", _sub(plain, (rf"<serial>{A100_SERIAL}</serial>", f"<serial>  {A100_SERIAL}  </serial>")),
        "a100-80gb-sxm", "the serial padded with spaces, as some collectors keep values: it is the seller's serial",
        serial=A100_SERIAL)
    add("a100_utf32le-bom", codecs.BOM_UTF32_LE + plain.encode("utf-32-le"), "a100-80gb-sxm",
        "the A100 report saved as UTF-32 (PowerShell's Out-File -Encoding utf32): read as UTF-8 would be, sound",
        serial=A100_SERIAL)

    # ------------------------------------------------------------------ driver 570's other recovery actions
    actions = (("Drain and Reset", "drain-and-reset"), ("Drain P2P", "drain-p2p"), ("GPU Reset", "gpu-reset"))
    for action, slug in actions:
        added = _sub(plain, (r"535\.54\.03", "570.124.06"), (r"<cuda_version>12\.2", "<cuda_version>12.8"),
                     (r"[ \t]*<gpu_reset_status>[\s\S]*?</gpu_reset_status>",
                      f"        <gpu_recovery_action>{action}</gpu_recovery_action>"))
        add(f"a100_driver-570-recovery-{slug}", added, "a100-80gb-sxm",
            f"driver 570 asks for '{action}' (NVML's recovery actions): the GPU is not in working order until done",
            serial=A100_SERIAL, verdict="reject", findings=[RECOVERY])
    return v
