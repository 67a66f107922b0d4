"""More real shapes for build.py (issue 26, hidden nvidia-smi variants, session 12): the real reports
added to the folder above (netdata's and telegraf's fixtures, gpud's text report; see ../SOURCES.md)
judged as they are, and copies of them with one change each. What each must conclude is written by
hand from what the file shows, never from a run of gpuwise.

Real reports are listed by their path from this folder (``../name``) and are not copied; the
derived ones are written here by build.py.
"""

from __future__ import annotations

from pathlib import Path

from edits import read as _read
from edits import sub as _sub

BLOCK_MODEL = ("USED-WRONG-MODEL", "blocker")
BLOCK_MEMORY = ("USED-WRONG-MEMORY", "blocker")


def _active(reason: str) -> tuple[str, str]:
    return (rf"<clocks_throttle_reason_{reason}>Not Active", f"<clocks_throttle_reason_{reason}>Active")


def real_variants() -> list[dict]:
    """The entries build.py adds: ``file``, ``data`` (None for a real report used as it is), ``gpu``,
    ``serial``, ``manufactured``, ``verdict``, ``findings``, ``error``, ``why``."""
    v: list[dict] = []

    def add(file: str, data: str | None, gpu: str, why: str, *, serial: str | None = None,
            manufactured: str | None = None, verdict: str = "approve", findings: tuple = (),
            error: str | None = None) -> None:
        file = file if Path(file).suffix else f"{file}.xml"
        v.append({"file": file, "data": data, "gpu": gpu, "serial": serial, "manufactured": manufactured,
                  "verdict": None if error else verdict, "findings": [list(f) for f in findings],
                  "error": error, "why": why})

    # ------------------------------------------------------------------ real reports, as they are
    add("../telegraf_tesla-t4.xml", None, "t4", "a cloud T4 (driver 515, DTD v11): serial zeroed, fan N/A on a "
        "passive data-center card, ECC on with no errors, x8 of x16 is the host's slot (information)")
    add("../netdata_a100-sxm4-mig.xml", None, "a100-40gb-sxm", "an A100-SXM4-40GB in MIG mode, driver 510: sound",
        serial="1324321002473", manufactured="2021-06")
    add("../netdata_rtx-4090-driver-535.xml", None, "rtx-4090", "an RTX 4090 idle on driver 535 (DTD v12): sound")
    add("../netdata_rtx-pro-6000-driver-580.xml", None, "rtx-pro-6000-blackwell",
        "driver 580's shape as netdata keeps it: no XML declaration, values padded with spaces ('  40 % '), the "
        "GPU's limits only as T.Limit margins: sound", manufactured="2025-06")
    add("../telegraf_3090-v13.xml", None, "rtx-3090", "an RTX 3090 on driver 590 (DTD v13), idle at gen 1: sound")
    add("../telegraf_rtx-3090-v12.xml", None, "rtx-3090",
        "an RTX 3090 whose power limit is set to 200 W of its 350 W default: a miner's setting, ask",
        verdict="revise", findings=[("USED-POWER-LIMIT-CHANGED", "warning")])
    add("../telegraf_rtx-3080-v12.xml", None, "rtx-3090",
        "Windows (WDDM, driver 536.40): an RTX 3080 offered as an RTX 3090, its power limit raised to 336 W "
        "of 320", verdict="reject",
        findings=[BLOCK_MODEL, BLOCK_MEMORY, ("USED-POWER-LIMIT-RAISED", "warning")])
    add("../netdata_rtx-2080-win.xml", None, "rtx-3090", "Windows (driver 516.59): an RTX 2080 is not an RTX 3090",
        verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../netdata_rtx-3060.xml", None, "rtx-3090",
        "a laptop's RTX 3060 Laptop GPU (6 GB) offered as an RTX 3090", verdict="reject",
        findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_rtx-3060-v12.xml", None, "rtx-3090", "driver 570: an RTX 3060 (12 GB) is not an RTX 3090",
        verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_dual_2070-v13.xml", None, "rtx-3090",
        "two RTX 2070 (driver 590, placeholder UUIDs, no serials): both judged, neither is an RTX 3090",
        verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_gt-1030.xml", None, "t4", "a GT 1030 (2 GB, x4 card) offered as a T4", verdict="reject",
        findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_gtx-1070-ti.xml", None, "p40",
        "a 2 KB report without driver, serial or limits: a GTX 1070 Ti is not a Tesla P40", verdict="reject",
        findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_quadro-p2000-v12.xml", None, "p40", "a Quadro P2000 (5 GB) offered as a Tesla P40",
        verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_quadro-p400.xml", None, "p40", "driver 418: a Quadro P400 (2 GB) offered as a Tesla P40",
        verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("../telegraf_tesla_p4.xml", None, "p40",
        "a Windows VM's 'GRID P4-1Q' vGPU slice (1 GB, VBIOS 00.00.00.00.00): no physical card, and another "
        "model", verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY, ("USED-REPORT-VIRTUAL", "blocker")])
    add("../netdata_tesla-p100.csv", None, "p100-16gb-pcie", "--query-gpu CSV is not the XML report",
        error="this is CSV from `nvidia-smi --query-gpu`")
    add("../gpud_query-535.183.01-h100.txt", None, "h100-80gb-sxm",
        "the text report of `nvidia-smi -q` (8 H100, driver 535) is not the XML report",
        error="this is the text report of `nvidia-smi -q`")

    # ------------------------------------------------------------------ the T4, one change each
    t4 = _read("telegraf_tesla-t4.xml")
    busy = _sub(t4, (r"<gpu_util>0 %", "<gpu_util>100 %"), (r"<power_draw>26.78 W", "<power_draw>69.85 W"),
                (r"<gpu_temp>40 C", "<gpu_temp>76 C"))
    add("t4_busy-sw-power-cap", _sub(busy, _active("sw_power_cap")), "t4",
        "under load at its 70 W limit the software power cap is active: a T4 always runs there, nothing to say")
    add("t4_busy-hw-power-brake", _sub(busy, _active("hw_power_brake_slowdown"), _active("hw_slowdown")), "t4",
        "under load the hardware power brake is asserted (the host's power supply or the board)",
        verdict="revise", findings=[("USED-THROTTLING", "warning")])
    add("t4_busy-hw-thermal", _sub(busy, _active("hw_thermal_slowdown"), _active("hw_slowdown")), "t4",
        "under load the hardware thermal slowdown is active", verdict="revise",
        findings=[("USED-THROTTLING", "warning")])
    add("t4_ecc-disabled", _sub(t4, (r"<current_ecc>Enabled", "<current_ecc>Disabled"),
                                (r"<pending_ecc>Enabled", "<pending_ecc>Disabled"),
                                *[(rf"<{k}>0<", f"<{k}>N/A<") for k in
                                  ("sram_correctable", "sram_uncorrectable", "dram_correctable",
                                   "dram_uncorrectable")] * 2), "t4",
        "ECC switched off on a data-centre card, the error counters N/A: the memory's health cannot be shown",
        verdict="revise", findings=[("USED-ECC-OFF", "warning")])
    add("t4_pending-retirement", _sub(t4, (r"<pending_retirement>No", "<pending_retirement>Yes")), "t4",
        "a page waits for retirement (a reset): errors since the last one", verdict="reject",
        findings=[("USED-PENDING-RETIREMENT", "blocker")])
    add("t4_pending-blacklist-only", _sub(t4, (r"<pending_blacklist>No", "<pending_blacklist>Yes")), "t4",
        "the older name of the same flag says a page waits (pending_retirement still No)", verdict="reject",
        findings=[("USED-PENDING-RETIREMENT", "blocker")])
    add("t4_4-retired-pages", _sub(t4, (r"<retired_count>0", "<retired_count>4")), "t4",
        "four pages retired for repeated single-bit errors", verdict="revise",
        findings=[("USED-RETIRED-MEMORY", "warning")])
    add("t4_fan-0-persistence-on", _sub(t4, (r"<persistence_mode>Disabled", "<persistence_mode>Enabled"),
                                        (r"<fan_speed>N/A", "<fan_speed>0 %")), "t4",
        "persistence mode on and a fan reading of 0 % on a passive card: nothing wrong")
    t4_serial = _sub(t4, (r"<serial>0000000000000", "<serial>1322719051234"))
    add("t4_serial-shown", t4_serial, "t4", "the seller's serial is the report's", serial="1322719051234")
    add("t4_serial-shown", t4_serial, "t4", "the seller's serial is not the report's: another card",
        serial="1322719059999", verdict="revise", findings=[("USED-SERIAL-NOT-IN-REPORT", "warning")])

    # ------------------------------------------------------------------ China and other variants by name
    mig = _read("netdata_a100-sxm4-mig.xml")

    def renamed(name: str, mib: int) -> str:
        return _sub(mig, (r"NVIDIA A100-SXM4-40GB", name), (r"<total>40960 MiB", f"<total>{mib} MiB"))

    a800 = renamed("NVIDIA A800-SXM4-80GB", 81920)
    add("a800-sxm4-80gb_from-a100-mig", a800, "a100-80gb-sxm",
        "an A800 (China's A100, NVLink cut to 400 GB/s) offered as an A100: another model", verdict="reject",
        findings=[BLOCK_MODEL], manufactured="2022-06")
    add("a800-sxm4-80gb_from-a100-mig", a800, "a800-80gb-sxm", "the same report offered as what it is: sound",
        manufactured="2022-06")
    add("h800_from-a100-mig", renamed("NVIDIA H800", 81559), "h100-80gb-sxm",
        "an H800 offered as an H100 SXM: another model", verdict="reject", findings=[BLOCK_MODEL],
        manufactured="2023-06")
    add("h20_from-a100-mig", renamed("NVIDIA H20", 97871), "h100-80gb-sxm",
        "an H20 (96 GB) offered as an H100 80GB", verdict="reject", findings=[BLOCK_MODEL, BLOCK_MEMORY],
        manufactured="2024-06")
    add("h200-nvl_from-a100-mig", renamed("NVIDIA H200 NVL", 143771), "h200-141gb-sxm",
        "an H200 NVL (PCIe) offered as the SXM board", verdict="reject", findings=[BLOCK_MODEL],
        manufactured="2025-01")
    add("b200_from-a100-mig", renamed("NVIDIA B200", 183359), "b200", "a B200 offered as a B200: sound",
        manufactured="2025-03")
    rtx4090 = _read("netdata_rtx-4090-driver-535.xml")
    add("rtx4090-laptop_from-4090", _sub(rtx4090, (r"RTX 4090<", "RTX 4090 Laptop GPU<"),
                                         (r"<total>24564 MiB", "<total>16376 MiB")), "rtx-4090",
        "an RTX 4090 Laptop GPU (16 GB, another chip) offered as the desktop card", verdict="reject",
        findings=[BLOCK_MODEL, BLOCK_MEMORY])
    add("rtx5090d_from-4090", _sub(rtx4090, (r"RTX 4090<", "RTX 5090 D<"), (r"<total>24564 MiB", "<total>32607 MiB")),
        "rtx-5090", "an RTX 5090 D (China's) offered as an RTX 5090: same memory, only the name tells",
        verdict="reject", findings=[BLOCK_MODEL], manufactured="2025-03")
    add("rtx4090-48gb-mod_from-4090", _sub(rtx4090, (r"<total>24564 MiB", "<total>49140 MiB")), "rtx-4090",
        "an RTX 4090 rebuilt with 48 GB (twice the memory of the card on offer): not the card on offer",
        verdict="reject", findings=[BLOCK_MEMORY])
    add("pro6000-server_from-4090", _sub(rtx4090, (r"NVIDIA GeForce RTX 4090<",
                                                   "NVIDIA RTX PRO 6000 Blackwell Server Edition<"),
                                         (r"<total>24564 MiB", "<total>97887 MiB")), "rtx-pro-6000-blackwell",
        "the passive Server Edition offered as the Workstation Edition", verdict="reject", findings=[BLOCK_MODEL],
        manufactured="2025-06")
    return v
