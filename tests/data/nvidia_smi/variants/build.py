"""Write the report variants of this folder and their expected conclusions (variants.yaml).

Each variant is a real report of the folder above (see ../SOURCES.md) put in another shape a seller's
file takes -- another driver's version and DTD, MIG or vGPU, N/A or missing sections, several GPUs,
fields an unusual tool leaves out, Windows line endings, byte-order marks and UTF-16, another
locale's numbers -- with, where it says so, one fault. What each must conclude is written by hand in
VARIANTS (the card's verdict from the used-card findings, the warnings and blockers, or the one-line
refusal), from what the file shows, never from a run of gpuwise. Run from the repository root:
``python tests/data/nvidia_smi/variants/build.py``; tests/test_smi_variants.py reads the result.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from build_more import more_variants  # this folder: run as a script, it is on the path
from build_real import real_variants
from build_twelve import twelfth_variants
from edits import gpu_block, gpus, read, sub

HERE = Path(__file__).parent
A10G, P100, A100 = "telegraf_a10g.xml", "netdata_tesla-p100.xml", "telegraf_a100-sxm4-v12.xml"


def drop(text: str, tag: str) -> str:
    """Remove the first ``<tag>...</tag>`` block (and its line)."""
    return sub(text, (rf"\n[ \t]*<{tag}>[\s\S]*?</{tag}>", ""))


def every_value(text: str, tags: str, value: str) -> str:
    """Every element whose tag matches ``tags`` (a regex) given ``value``."""
    return re.sub(rf"<({tags})>[^<\n]*</\1>", rf"<\1>{value}</\1>", text)


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def load_busy(text: str) -> str:
    """The A10G report as taken under a stress run: P0, 100 % busy, the gpu_idle limiter off."""
    return sub(
        text,
        (r"<performance_state>P8", "<performance_state>P0"),
        (r"<clocks_throttle_reason_gpu_idle>Active", "<clocks_throttle_reason_gpu_idle>Not Active"),
        (r"<gpu_util>0 %", "<gpu_util>100 %"),
        (r"<power_draw>25.58 W", "<power_draw>291.40 W"),
        (r"<gpu_temp>17 C", "<gpu_temp>71 C"),
    )


VGPU_HOST = """        <gpu_virtualization_mode>
            <virtualization_mode>Host VGPU</virtualization_mode>
            <host_vgpu_mode>Non SR-IOV</host_vgpu_mode>
        </gpu_virtualization_mode>"""
VGPUS = """        <vgpus>
            <vgpu_instance id="3251634213">
                <vm_id>ubuntu-22-guest</vm_id>
                <vgpu_name>NVIDIA A10-12Q</vgpu_name>
                <vgpu_type>691</vgpu_type>
                <uuid>e4a2f7c1-1111-2222-3333-444455556666</uuid>
                <guest_driver_version>535.104.05</guest_driver_version>
                <fb_memory_usage>
                    <used>10240 MiB</used>
                </fb_memory_usage>
                <utilization>
                    <gpu_util>97 %</gpu_util>
                </utilization>
                <temperature>
                    <gpu_temp>150 C</gpu_temp>
                </temperature>
            </vgpu_instance>
        </vgpus>
"""
MINIMAL = """<?xml version="1.0" ?>
<nvidia_smi_log>
    <driver_version>535.161.07</driver_version>
    <attached_gpus>1</attached_gpus>
    <gpu id="00000000:03:00.0">
        <product_name>NVIDIA A10G</product_name>
        <fb_memory_usage>
            <total>23028 MiB</total>
        </fb_memory_usage>
        <temperature>
            <gpu_temp>44 C</gpu_temp>
        </temperature>
    </gpu>
</nvidia_smi_log>
"""
AMD_SMI_JSON = """[
    {
        "gpu": 0,
        "asic": {"market_name": "AMD Instinct MI210", "vendor_id": "0x1002", "device_id": "0x740f"},
        "bus": {"bdf": "0000:03:00.0", "max_pcie_width": 16, "max_pcie_speed": "32 GT/s"},
        "vram": {"type": "HBM2E", "size": {"value": 65520, "unit": "MB"}}
    }
]
"""
ROCM_SMI = """

========================================= ROCm System Management Interface =========================================
=================================================== Concise Info ===================================================
Device  Node  IDs              Temp    Power  Partitions          SCLK    MCLK     Fan  Perf  PwrCap  VRAM%  GPU%
0       1     0x740f,   23411  38.0C   42.0W  N/A, N/A, 0         800Mhz  1600Mhz  0%   auto  300.0W  0%     0%
====================================================================================================================
"""


def variants() -> list[dict]:
    a10g, p100, a100 = read(A10G), read(P100), read(A100)
    v = []

    def add(
        name: str,
        data: str | bytes,
        gpu: str,
        why: str,
        *,
        serial: str | None = None,
        verdict: str = "approve",
        findings: tuple = (),
        error: str | None = None,
    ) -> None:
        v.append(
            {
                "file": f"{name}.xml" if not name.endswith((".json", ".txt")) else name,
                "data": data,
                "gpu": gpu,
                "serial": serial,
                "verdict": None if error else verdict,
                "findings": [list(f) for f in findings],
                "error": error,
                "why": why,
            }
        )

    # ---------------------------------------------------------------- drivers of 2020-2026
    add(
        "p100_driver-450-dtd-v10",
        sub(
            p100,
            (r"nvsmi_device_v11", "nvsmi_device_v10"),
            (r"510\.47\.03", "450.80.02"),
            (r"<cuda_version>11\.6", "<cuda_version>11.0"),
        ),
        "p100-16gb-pcie",
        "driver 450 (2020), DTD v10: the same readings",
        serial="0324217145110",
    )
    add(
        "a10g_driver-470",
        sub(a10g, (r"515\.105\.01", "470.57.02"), (r"<cuda_version>11\.7", "<cuda_version>11.4")),
        "a10g",
        "driver 470 (2021): the same readings; x8 is the AWS host's slot (information)",
    )
    a100_550 = sub(a100, (r"535\.54\.03", "550.54.15"), (r"<cuda_version>12\.2", "<cuda_version>12.4"))
    add(
        "a100_driver-550-reset-status",
        a100_550,
        "a100-80gb-sxm",
        "driver 550: the reset status block, nothing required",
        serial="1650522003820",
    )
    add(
        "a100_driver-550-reset-required",
        sub(a100_550, (r"<reset_required>No", "<reset_required>Yes")),
        "a100-80gb-sxm",
        "driver 550 says a reset is required: the GPU is not in working order",
        serial="1650522003820",
        verdict="reject",
        findings=[("USED-RECOVERY-NEEDED", "blocker")],
    )
    a100_570 = sub(
        a100,
        (r"535\.54\.03", "570.124.06"),
        (r"<cuda_version>12\.2", "<cuda_version>12.8"),
        (
            r"[ \t]*<gpu_reset_status>[\s\S]*?</gpu_reset_status>",
            "        <gpu_recovery_action>None</gpu_recovery_action>",
        ),
    )
    add(
        "a100_driver-570-recovery-none",
        a100_570,
        "a100-80gb-sxm",
        "driver 570: recovery action None",
        serial="1650522003820",
    )
    add(
        "a100_driver-570-recovery-reboot",
        sub(a100_570, (r"<gpu_recovery_action>None", "<gpu_recovery_action>Node Reboot")),
        "a100-80gb-sxm",
        "driver 570 asks for a node reboot",
        serial="1650522003820",
        verdict="reject",
        findings=[("USED-RECOVERY-NEEDED", "blocker")],
    )
    future = sub(
        a10g,
        (r"nvsmi_device_v11", "nvsmi_device_v14"),
        (r"515\.105\.01", "610.20.04"),
        (r"<cuda_version>11\.7", "<cuda_version>13.4"),
        (
            r"(</mig_devices>)",
            r"\1\n        <gpu_health_summary>\n            <overall>Healthy</overall>\n"
            r"            <temperature>\n                <gpu_temp>120 C</gpu_temp>\n"
            r"            </temperature>\n        </gpu_health_summary>",
        ),
    )
    add(
        "a10g_driver-610-dtd-v14-new-sections",
        future,
        "a10g",
        "a later driver's DTD v14 with a section gpuwise does not know (its nested gpu_temp is not the GPU's)",
    )

    # ---------------------------------------------------------------- MIG
    add(
        "a100_mig-disabled",
        sub(
            a100,
            (r"<current_mig>Enabled", "<current_mig>Disabled"),
            (r"<pending_mig>Enabled", "<pending_mig>Disabled"),
            (r"<mig_devices>[\s\S]*?</mig_devices>", "<mig_devices>\n            None\n        </mig_devices>"),
        ),
        "a100-80gb-sxm",
        "the same A100 with MIG off",
        serial="1650522003820",
    )
    add(
        "a100_mig-instance-uncorrectable",
        sub(a100, (r"(<volatile_count>\s*<sram_uncorrectable>)0", r"\g<1>2")),
        "a100-80gb-sxm",
        "MIG on: one instance counted 2 uncorrectable SRAM errors (the GPU-wide counters were not updated in the copy)",
        serial="1650522003820",
        verdict="reject",
        findings=[("USED-UNCORRECTABLE-ECC", "blocker")],
    )

    # ---------------------------------------------------------------- vGPU
    guest = sub(
        a10g,
        (r"<product_name>NVIDIA A10G", "<product_name>NVIDIA A10-24Q"),
        (r"<virtualization_mode>Pass-Through", "<virtualization_mode>VGPU"),
    )
    add(
        "a10_vgpu-guest-24q",
        guest,
        "a10",
        "a virtual machine's view of a 24Q vGPU slice: not the physical card",
        verdict="reject",
        findings=[("USED-WRONG-MODEL", "blocker"), ("USED-REPORT-VIRTUAL", "blocker")],
    )
    add(
        "a100_vgpu-guest-80c",
        sub(
            a100,
            (r"<product_name>NVIDIA A100-SXM4-80GB", "<product_name>NVIDIA A100-80C"),
            (r"<virtualization_mode>None", "<virtualization_mode>VGPU"),
            (r"<serial>1650522003820", "<serial>N/A"),
        ),
        "a100-80gb-sxm",
        "a cloud VM's full-card 80C vGPU: the frame buffer is the whole card's, only the mode and the type tell",
        verdict="reject",
        findings=[("USED-REPORT-VIRTUAL", "blocker")],
    )
    host = sub(
        a10g,
        (r"[ \t]*<gpu_virtualization_mode>[\s\S]*?</gpu_virtualization_mode>", VGPU_HOST),
        (r"([ \t]*<fb_memory_usage>)", VGPUS.rstrip("\n") + "\n" + r"\1"),
    )
    add(
        "a10g_vgpu-host-one-guest",
        host,
        "a10g",
        "the host's report with one vGPU guest: the physical card is judged, not the guest's slice",
    )

    # ---------------------------------------------------------------- N/A and missing sections
    na = every_value(
        a10g,
        r"gpu_temp\w*|power_draw|power_limit|default_power_limit|enforced_power_limit|"
        r"\w*_clock|current_link_\w+|max_link_\w+|replay_counter|\w+_correctable|"
        r"\w+_uncorrectable|remapped_row_\w+|row_remapper_histogram_\w+|performance_state|"
        r"gpu_util|fan_speed",
        "N/A",
    )
    add("a10g_all-readings-na", na, "a10g", "every reading N/A: nothing to judge, nothing wrong said")
    add(
        "p100_not-supported-brackets",
        p100.replace(">N/A<", ">[Not Supported]<"),
        "p100-16gb-pcie",
        "older drivers' [Not Supported] for N/A",
        serial="0324217145110",
    )
    add(
        "a10g_unknown-error-markers",
        every_value(a10g, r"gpu_temp|power_draw|replay_counter", "[Unknown Error]"),
        "a10g",
        "[Unknown Error] where readings go: unknown, not zero",
    )
    add("a10g_no-pci-section", drop(a10g, "pci"), "a10g", "no <pci> section")
    add(
        "a10g_no-temperature-no-power",
        drop(drop(a10g, "temperature"), "power_readings"),
        "a10g",
        "no temperature or power sections",
    )
    head, block, tail = gpu_block(a10g)
    mem = re.search(r"[ \t]*<fb_memory_usage>[\s\S]*?</fb_memory_usage>\n", block).group(0)
    add(
        "a10g_display-memory-only",
        head + block.split("\n", 1)[0] + "\n" + mem + "    </gpu>\n" + tail,
        "a10g",
        "`nvidia-smi -q -x -d MEMORY`: no product name, so no proof it is the card",
        verdict="revise",
        findings=[("USED-REPORT-UNNAMED", "warning")],
    )

    # ---------------------------------------------------------------- several GPUs
    def serials(i: int, b: str) -> str:
        return sub(b, (r"<serial>0000000000000", f"<serial>132000000000{i}"))

    four = gpus(
        a10g,
        4,
        lambda i, b: (
            serials(i, b) if i != 3 else sub(serials(i, b), (r"<remapped_row_failure>No", "<remapped_row_failure>Yes"))
        ),
    )
    add(
        "4x-a10g_third-remap-failure",
        four,
        "a10g",
        "four A10G, the third's row remapping failed: the card is the third",
        serial="1320000000003",
        verdict="reject",
        findings=[("USED-PENDING-RETIREMENT", "blocker")],
    )
    v.append(
        {
            **v[-1],
            "file": "4x-a10g_third-remap-failure.xml",
            "data": None,
            "serial": "1320000000002",
            "verdict": "approve",
            "findings": [],
            "why": "the same report, the card is the second: sound",
        }
    )
    a100_short = re.sub(r"\n[ \t]*<supported_clocks>[\s\S]*?</supported_clocks>", "", a100)  # not read: 8 x smaller
    eight = gpus(
        a100_short,
        8,
        lambda i, b: (
            sub(b, (r"<serial>1650522003820", "<serial>N/A"))
            if i != 6
            else sub(b, (r"<serial>1650522003820", "<serial>N/A"), (r"<memory_temp>44 C", "<memory_temp>97 C"))
        ),
    )
    add(
        "8x-a100_no-serials_sixth-hbm-hot",
        eight,
        "a100-80gb-sxm",
        "eight A100 without serials, the sixth's HBM at 97 C over its 95 C limit: all are judged",
        verdict="revise",
        findings=[("USED-MEMORY-HOT", "warning")],
    )

    # ---------------------------------------------------------------- tools that leave fields out, other tools
    add("minimal_absent-fields", MINIMAL, "a10g", "a report with only the name, memory and temperature")
    add(
        "amd-smi-static.json",
        AMD_SMI_JSON,
        "mi300x",
        "amd-smi's JSON: not an nvidia-smi report",
        error="not valid nvidia-smi XML",
    )
    add(
        "rocm-smi.txt",
        ROCM_SMI,
        "mi300x",
        "rocm-smi's table: not an nvidia-smi report",
        error="not valid nvidia-smi XML",
    )

    # ---------------------------------------------------------------- line endings, marks, encodings
    add("a10g_crlf", crlf(a10g), "a10g", "Windows line endings")
    add("a10g_utf8-bom", "\ufeff" + a10g, "a10g", "a UTF-8 byte-order mark (Notepad)")
    add(
        "a10g_utf16le-bom-crlf",
        ("\ufeff" + crlf(a10g)).encode("utf-16-le"),
        "a10g",
        "PowerShell 5's `>`: UTF-16 LE with a byte-order mark and CRLF",
    )
    add(
        "a100_utf16be-bom-declared-utf8",
        ("\ufeff" + a100).encode("utf-16-be"),
        "a100-80gb-sxm",
        "UTF-16 BE with a mark while the declaration still says UTF-8",
        serial="1650522003820",
    )
    add(
        "a10g_crlf-remap-failure",
        crlf(sub(a10g, (r"<remapped_row_failure>No", "<remapped_row_failure>Yes"))),
        "a10g",
        "a fault is still found through CRLF",
        verdict="reject",
        findings=[("USED-PENDING-RETIREMENT", "blocker")],
    )
    add("a10g_cr-only", a10g.replace("\n", "\r"), "a10g", "old Mac line endings (CR only)")
    add("a10g_utf16le-no-bom", a10g.encode("utf-16-le"), "a10g", "UTF-16 LE without a byte-order mark")
    add(
        "a10g_utf8-declared-utf16",
        sub(a10g, (r'<\?xml version="1.0" \?>', '<?xml version="1.0" encoding="UTF-16"?>')),
        "a10g",
        "saved again as UTF-8 with a declaration still saying UTF-16: the bytes decide (it was refused)",
    )
    wddm = sub(
        a10g,
        (r"<current_dm>N/A", "<current_dm>WDDM"),
        (r"<pending_dm>N/A", "<pending_dm>WDDM"),
        (
            r"(<processes>)",
            r"\1\n            <process_info>\n                <pid>7412</pid>\n"
            r"                <type>C+G</type>\n                <process_name>C:\\Users\\"
            "\u5f20\u4f1f"
            r"\\AppData\\Local\\Programs\\Python\\python.exe</process_name>\n"
            r"                <used_memory>N/A</used_memory>\n            </process_info>",
        ),
    )
    add(
        "a10g_windows-wddm-utf16",
        ("\ufeff" + crlf(wddm)).encode("utf-16-le"),
        "a10g",
        "Windows: WDDM, a process path with Chinese characters, UTF-16",
    )

    # ---------------------------------------------------------------- other locales' numbers
    add(
        "a10g_decimal-comma-watts",
        sub(a10g, (r"<power_draw>25\.58 W", "<power_draw>25,58 W")),
        "a10g",
        "a decimal comma (re-saved in a German locale): refused by name, never guessed",
        error="reads '25,58 W': not a number as nvidia-smi writes it",
    )
    add(
        "a10g_grouped-memory-dot",
        sub(a10g, (r"<total>23028 MiB", "<total>23.028 MiB")),
        "a10g",
        "23.028 MiB: a thousands point; read as 23 MiB it made a fraud blocker; refused by name",
        error="reads '23.028 MiB': not a number as nvidia-smi writes it",
    )
    add(
        "a10g_grouped-memory-space",
        sub(a10g, (r"<total>23028 MiB", "<total>23\u202f028 MiB")),
        "a10g",
        "23 028 MiB with a narrow no-break space (French grouping): refused by name",
        error="not a number as nvidia-smi writes it",
    )
    add(
        "a10g_german-timestamp",
        sub(a10g, (r"<timestamp>Mon Apr 24", "<timestamp>Mo Apr 24")),
        "a10g",
        "a timestamp in German: not a reading",
    )
    add(
        "a10g_chinese-timestamp",
        sub(a10g, (r"<timestamp>Mon Apr 24 16:11:51 2023", "<timestamp>2023\u5e744\u670824\u65e5 16:11:51")),
        "a10g",
        "a timestamp in Chinese: not a reading",
    )

    # ---------------------------------------------------------------- defects of nvidia-smi's own XML
    def process(name: str) -> str:
        return sub(
            a10g,
            (
                r"(<processes>)",
                r"\1\n            <process_info>\n                <pid>4242</pid>\n"
                r"                <type>C</type>\n                <process_name>"
                + name
                + r"</process_name>\n                <used_memory>20480 MiB</used_memory>\n"
                r"            </process_info>",
            ),
        )

    add(
        "a10g_process-name-ampersand",
        process("python train.py --tag a&b <run>"),
        "a10g",
        "nvidia-smi writes process names unescaped (gpud PR #181): '&' and '<' in one made a real report ill-formed",
    )
    raw = process("PLACEHOLDER").encode().replace(b"PLACEHOLDER", b"python\xff\xfe\x01")
    add(
        "a10g_process-name-invalid-bytes",
        raw,
        "a10g",
        "a process name read while it changed: arbitrary bytes (cwltool PR #1910)",
    )
    add(
        "a10g_supported-clock-without-value",
        sub(a10g, (r"<value>6251 MHz</value>", "6251 MHz")),
        "a10g",
        "a driver that wrote a supported memory clock as bare text (flutter_server_box #286): not read, not refused",
    )
    add(
        "p100_driver-390-dtd-v9-no-cuda",
        sub(
            p100,
            (r"nvsmi_device_v11", "nvsmi_device_v9"),
            (r"510\.47\.03", "390.157"),
            (r"\n\t<cuda_version>11\.6</cuda_version>", ""),
        ),
        "p100-16gb-pcie",
        "driver 390 (still shipped for old boards in 2025), DTD v9, no <cuda_version>",
        serial="0324217145110",
    )
    add("a10g_one-line", re.sub(r">\s+<", "><", a10g), "a10g", "the whole report on one line (a log collector's copy)")

    # ---------------------------------------------------------------- which card of several
    v.append(
        {
            **v[[x["file"] for x in v].index("4x-a10g_third-remap-failure.xml")],
            "data": None,
            "serial": "1320000000009",
            "verdict": "reject",
            "findings": [["USED-SERIAL-NOT-IN-REPORT", "warning"], ["USED-PENDING-RETIREMENT", "blocker"]],
            "why": "a serial none of the four has: the report is of other cards, and all four are judged",
        }
    )
    mixed = gpus(
        a10g, 2, lambda i, b: b if i == 1 else sub(b, (r"<product_name>NVIDIA A10G", "<product_name>NVIDIA A10"))
    )
    add(
        "2x_a10g-and-a10_no-serials",
        mixed,
        "a10g",
        "an A10G and an A10 in one host, no serials: the A10 is not the card on offer",
        verdict="reject",
        findings=[("USED-WRONG-MODEL", "blocker")],
    )

    # ---------------------------------------------------------------- GDDR6X junction (policy gddr6x_memory_throttle_c)
    rtx = re.sub(r"\n\t\t<supported_clocks>[\s\S]*?</supported_clocks>", "", read("telegraf_rtx-3080-v13.xml"))
    as_3090 = sub(
        rtx,
        (r"NVIDIA GeForce RTX 3080", "NVIDIA GeForce RTX 3090"),
        (r"<total>10240 MiB", "<total>24576 MiB"),
        (r"<gpu_temp>27 C", "<gpu_temp>74 C"),
    )
    add(
        "rtx3090_gddr6x-100c-under-load",
        sub(as_3090, (r"<memory_temp>N/A", "<memory_temp>100 C")),
        "rtx-3090",
        "GDDR6X at 100 C under load (65 %): at or above 0.9 x 110 C = 99 C",
        verdict="revise",
        findings=[("USED-MEMORY-JUNCTION-HOT", "warning")],
    )
    add(
        "rtx3090_gddr6x-98c-under-load",
        sub(as_3090, (r"<memory_temp>N/A", "<memory_temp>98 C")),
        "rtx-3090",
        "GDDR6X at 98 C under load: below 99 C, nothing to say",
    )

    # ---------------------------------------------------------------- the link, under load and at idle
    busy = load_busy(a10g)
    add(
        "a10g_busy-x8-gen4",
        sub(busy, (r"<current_link_gen>1", "<current_link_gen>4")),
        "a10g",
        "under load at gen 4 x8: the slot, information only",
    )
    add(
        "a10g_busy-x1-riser",
        sub(
            busy, (r"<current_link_gen>1", "<current_link_gen>4"), (r"<current_link_width>8x", "<current_link_width>1x")
        ),
        "a10g",
        "under load at x1: a mining riser",
        verdict="revise",
        findings=[("USED-PCIE-WIDTH", "warning")],
    )
    add(
        "a10g_busy-x4",
        sub(
            busy, (r"<current_link_gen>1", "<current_link_gen>4"), (r"<current_link_width>8x", "<current_link_width>4x")
        ),
        "a10g",
        "under load at x4: a riser, an M.2 adapter or a fault",
        verdict="revise",
        findings=[("USED-PCIE-WIDTH", "warning")],
    )
    add(
        "a10g_busy-width-written-x1",
        sub(
            busy, (r"<current_link_gen>1", "<current_link_gen>4"), (r"<current_link_width>8x", "<current_link_width>x1")
        ),
        "a10g",
        "a retyped width in the PCIe specification's form, x1: still a riser (it was read as unknown)",
        verdict="revise",
        findings=[("USED-PCIE-WIDTH", "warning")],
    )
    add(
        "a10g_busy-gen1",
        busy,
        "a10g",
        "under load (P0, 100 %) the link stays at gen 1 of 4",
        verdict="revise",
        findings=[("USED-PCIE-GEN-UNDER-LOAD", "warning")],
    )
    add(
        "a10g_idle-gen1-p8",
        a10g.replace("<current_link_width>8x", "<current_link_width>16x"),
        "a10g",
        "idle at P8 with gpu_idle active: gen 1 of 4 is power saving, nothing to say",
    )
    return v + real_variants() + more_variants() + twelfth_variants()


def main() -> None:
    written, manifest = set(), []
    for item in variants():
        data = item.pop("data")
        if data is not None:
            (HERE / item["file"]).write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))
            written.add(item["file"])
        manifest.append({k: val for k, val in item.items() if val not in (None, [])})
    for stale in HERE.iterdir():
        if stale.suffix in (".xml", ".json", ".txt") and stale.name not in written:
            stale.unlink()
    (HERE / "variants.yaml").write_text(
        "# Written by build.py: each variant, the card offered, and what its report must conclude\n"
        "# (verdict and the used-card warnings and blockers; or the one-line refusal, error).\n"
        + yaml.safe_dump(manifest, sort_keys=False, allow_unicode=True, width=110),
        encoding="utf-8",
    )
    print(f"{len(manifest)} variants, {len(written)} files")


if __name__ == "__main__":
    main()
