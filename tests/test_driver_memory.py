"""Each GPU's memory as its driver reports it (gpus.yaml ``smi_mib``).

The figures are the totals the sources in gpus.yaml give (nvidia-smi's 'used / total' MiB, rocm-smi's bytes): the
marketed '180GB' of a B200 is 183,359 MiB (192.3e9 B) to the driver, so a plan that counted 180e9 B left 12.3 GB
a GPU unused."""

from __future__ import annotations

import pytest

from gpuwise.estimators.candidate import capacity_bytes

MIB = 2**20

# (gpus.yaml id, the driver's total in MiB as the entry's source prints it)
DRIVER_TOTALS = [
    ("b200", 183359), ("gb200", 189471), ("b300", 275040), ("gb300", 284208), ("h100-nvl-94gb", 95830),
    ("h800-80gb-sxm", 81559), ("h20-96gb-sxm", 97871), ("gh200-96gb", 97871), ("gh200-144gb", 146831),
    ("l40s", 46068), ("l4", 23034), ("a10", 23028), ("t4", 15360), ("a100-40gb-sxm", 40960),
    ("a100-40gb-pcie", 40960),
]


@pytest.mark.parametrize("gpu,mib", DRIVER_TOTALS)
def test_nvidia_totals_are_the_drivers(kb, gpu, mib):
    g = kb.gpus[gpu]
    assert g.memory.smi_mib == mib
    assert f"{mib}" in g.memory.source.replace(",", "")  # the figure is the one its source prints
    assert capacity_bytes(g) == mib * MIB


def test_amd_totals_are_rocm_smis_bytes(kb):
    """rocm-smi's 'VRAM Total Memory (B)': 205,822,885,888 on an MI300X (192 GiB less 320 MiB), 309,220,868,096 on
    an MI355X or MI350X (288 GiB less 16 MiB): whole MiB, so smi_mib holds them exactly."""
    assert capacity_bytes(kb.gpus["mi300x"]) == 205_822_885_888 == 196288 * MIB == 192 * 2**30 - 320 * MIB
    for gpu in ("mi350x", "mi355x"):
        assert capacity_bytes(kb.gpus[gpu]) == 309_220_868_096 == 288 * 2**30 - 16 * MIB


def test_the_b200_holds_12_gb_more_than_its_marketed_figure(kb):
    """183,359 MiB = 192,265,846,784 B: 12.27 GB over the 180e9 B the marketed '180GB' read as."""
    assert capacity_bytes(kb.gpus["b200"]) == 192_265_846_784
    assert capacity_bytes(kb.gpus["b200"]) - 180e9 == pytest.approx(12.27e9, abs=0.01e9)
