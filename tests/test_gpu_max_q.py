"""The RTX PRO 6000 Blackwell Max-Q Workstation Edition as its own catalog entry.

Figures against NVIDIA's Max-Q datasheet (workstation-datasheet-blackwell-rtx-pro-6000-max-q-nvidia-3519233.pdf,
Apr 2025: 96 GB GDDR7 with ECC, 1,792 GB/s, 110 TFLOPS FP32 and 3,511 AI TOPS -- sparse FP4 -- at the GPU Boost
Clock, PCIe 5.0 x16, 300 W total board power) and against the card's own nvidia-smi report (influxdata/telegraf
plugins/inputs/nvidia_smi/testdata/pro-6000-maxq-blackwell-v13.xml, tests/data/nvidia_smi/SOURCES.md)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from gpuwise.decide.inspect_card import product_matches

from .test_inspect_card import used_findings

MAXQ = "rtx-pro-6000-blackwell-max-q"
WORKSTATION = "rtx-pro-6000-blackwell"
DATA = Path(__file__).parent / "data"
REPORT = DATA / "nvidia_smi" / "telegraf_pro-6000-maxq-blackwell-v13_excerpt.xml"
SMI_NAME = "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition"
CUDA_CORES = 24_064  # GB202 with 188 SMs x 128 (NVIDIA's RTX PRO 6000 datasheets)


def _report(pattern: str) -> float:
    m = re.search(pattern, REPORT.read_text(), re.S)
    assert m, pattern
    return float(m.group(1))


def test_memory_power_and_link_are_the_datasheets(kb):
    g = kb.gpus[MAXQ]
    assert (g.memory.gb, g.memory.type, g.memory.ecc, g.memory.bandwidth_gb_s) == (96, "GDDR7", True, 1792)
    assert g.power.tdp_w == 300
    assert (g.link.kind, g.link.pcie_gen, g.link.bandwidth_gb_s) == ("pcie", 5, 128)  # PCIe 5.0 x16: 64 GB/s a way
    assert (g.architecture, g.compute_capability, g.segment, g.form_factor) == (
        "blackwell", "12.0", "workstation", "pcie")


def test_the_cards_own_report_agrees(kb):
    """telegraf's Max-Q report (driver 590.44.01): 97,887 MiB total, a default power limit of 300 W
    (settable 250-325 W), a Gen 5 device on x16."""
    g = kb.gpus[MAXQ]
    assert g.memory.smi_mib == _report(r"<fb_memory_usage>\s*<total>(\d+) MiB")
    assert g.power.tdp_w == _report(r"<default_power_limit>([\d.]+) W")
    assert g.link.pcie_gen == _report(r"<max_device_link_gen>(\d+)<")


def test_peaks_are_the_datasheets_dense_figures(kb):
    """FP32 110 as stated; dense FP4 half the sparse 3,511 AI TOPS; FP8 / INT8, FP16 / BF16 and TF32 at
    1/2, 1/4 and 1/8 of it, as GB202 runs them on the Workstation Edition entry; FP64 at FP32 / 64."""
    p = kb.gpus[MAXQ].peaks
    assert p.fp32 == 110
    assert p.sparse_halved and p.fp4 * 2 == 3511
    assert p.fp8 == pytest.approx(3511 / 4, abs=0.05) and p.int8 == p.fp8
    assert p.fp16 == pytest.approx(3511 / 8, abs=0.05) and p.bf16 == p.fp16
    assert p.tf32 == pytest.approx(3511 / 16, abs=0.05)
    assert p.fp64 == pytest.approx(110 / 64, abs=0.005)
    ws = kb.gpus[WORKSTATION].peaks
    for f in ("fp4", "fp8", "fp16", "bf16", "tf32"):  # the same ratios between precisions as the Workstation Edition
        assert getattr(p, f) / p.fp4 == pytest.approx(getattr(ws, f) / ws.fp4, rel=1e-3), f


def test_the_clocks_the_peaks_imply_agree():
    """By hand: 110 TFLOPS / (24,064 cores x 2 FLOPs) = 2,285.6 MHz boost; 1,755.5 dense FP4 at the
    Workstation entry's 2,015.2 per 2,617 MHz = 2,279.7 MHz. The two agree within 0.3%, and both are
    0.87 of the Workstation Edition's 2,617 MHz."""
    boost = 110e12 / (CUDA_CORES * 2) / 1e6
    tensor = 1755.5 / 2015.2 * 2617
    assert boost == pytest.approx(2285.6, abs=0.1) and tensor == pytest.approx(2279.7, abs=0.1)
    assert tensor / boost == pytest.approx(1, abs=0.003)
    assert boost / 2617 == pytest.approx(0.873, abs=0.001)


@pytest.mark.parametrize("name", ["RTX PRO 6000 Max-Q", "rtx pro 6000 maxq", "6000 Blackwell Max-Q",
                                  "RTX PRO 6000 Blackwell Max-Q", "RTX 6000 PRO Max-Q", SMI_NAME])
def test_the_names_buyers_type_resolve_to_it(kb, name):
    assert kb.gpu(name).id == MAXQ


def test_the_bare_name_stays_the_workstation_edition(kb):
    r = kb.gpu("RTX PRO 6000")
    assert r.id == WORKSTATION and r.note and "default" in r.note


def test_the_driver_name_matches_the_max_q_and_only_it(kb):
    def names(gid):
        g = kb.gpus[gid]
        return [g.id, g.name, *g.aliases]
    assert product_matches(SMI_NAME, names(MAXQ)) is True
    assert product_matches(SMI_NAME, names(WORKSTATION)) is False


@pytest.mark.usefixtures("audits_share_their_search")
def test_its_report_offered_as_the_max_q_is_not_another_model(tmp_path: Path):
    """Offered as the Workstation Edition, the report is another model (tests/test_smi_variants.py);
    offered as the Max-Q, it is the card claimed."""
    _, used = used_findings(tmp_path, REPORT.read_text(), MAXQ, made="2025-06", purchased="2026-06", notes=False)
    assert ("USED-WRONG-MODEL", "blocker") not in used, used


def test_rows_that_name_the_max_q_are_scored_on_it():
    """decode_independent.csv: every row whose source names the Max-Q runs on this entry and says it was
    re-pointed after its blind scoring."""
    with open(DATA / "validation" / "decode_independent.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if "Max-Q" in r["notes"]]
    moved = {"SD04", "DY06", *(f"DW{i:02d}" for i in range(1, 14))}  # entered before the entry, re-pointed
    assert moved <= {r["id"] for r in rows}
    for r in rows:
        assert r["gpu"] == MAXQ, r["id"]  # every row naming the Max-Q, the later blind rounds' (SU) included
        assert ("CORRECTED AFTER SCORING" in r["notes"]) is (r["id"] in moved), r["id"]
