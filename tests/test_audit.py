"""Audits of the example proposals: verdicts, topics and severities a careful reviewer expects."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import audit
from engine.errors import UserError

EX = Path(__file__).parent.parent / "examples"


def findings(name: str):
    r = audit(str(EX / name))
    return r, {(f.rule, f.severity, f.topic) for f in r.findings}


def test_sound_proposal_is_approved():
    r, found = findings("proposal-good-lora-8xh100.yaml")
    assert r.verdict == "approve", found
    assert r.proposed.feasible and r.alternative is not None


def test_16x4090_for_70b_full_finetune():
    """The fastest layout that could work (8 pipeline stages per node, CPU offload) finishes within
    the 30 days, but its optimizer state and gradients need far more host RAM than the 256 GB."""
    r, found = findings("proposal-16x4090-70b-full.yaml")
    assert r.verdict == "reject"
    rules = {x[0] for x in found}
    assert {"MEM-HOST-RAM-SHORT", "PWR-OVER-FACILITY", "LIC-GEFORCE-DATACENTER", "NET-SLOW-NETWORK",
            "NET-NO-P2P"} <= rules
    assert r.savings_usd and r.savings_usd > 0


def test_article_sizing_of_70b_on_8xa100():
    r, found = findings("proposal-8xa100-70b-article.yaml")
    assert r.verdict == "reject"
    assert ("MEM-MYTH-8-BYTES", "warning", "memory") in found
    assert ("FEE-EGRESS", "warning", "cloud-fees") in found
    assert ("MEM-HOST-RAM-SHORT", "blocker", "memory") in found


def test_spot_without_checkpoints():
    r, found = findings("proposal-spot-h100-pretrain.yaml")
    assert r.verdict == "reject" and ("FEE-SPOT-NO-CHECKPOINT", "blocker", "cloud-fees") in found


def test_used_mining_cards():
    r, found = findings("proposal-used-3090-mining.yaml")
    rules = {x[0] for x in found}
    assert {"USED-FAN-SWINGS", "USED-POWER-UNSTABLE", "USED-LONG-SHELF-GAP", "USED-PCIE-WIDTH",
            "USED-POWER-LIMIT-CHANGED", "USED-THROTTLING", "USED-NO-INSPECTION", "USED-WRONG-MODEL"} <= rules
    assert r.verdict == "revise"
    card = r.cards[0]
    assert card["months_to_sale"] == 30 and card["link_width"] == 8 and card["link_width_max"] == 16


def test_old_driver_blocks_h100():
    r, found = findings("proposal-h100-old-driver.yaml")
    assert r.verdict == "reject"
    assert ("CPT-DRIVER-TOO-OLD-FOR-GPU", "blocker", "compatibility") in found
    assert ("CPT-CUDA-TOO-OLD-FOR-GPU", "blocker", "compatibility") in found


def test_malformed_nvidia_smi_is_an_input_error(tmp_path):
    xml = tmp_path / "bad.xml"
    xml.write_text("<nvidia_smi_log><gpu>")
    prop = tmp_path / "p.yaml"
    prop.write_text(f"""workload: {{task: inference, model: llama-3.1-8b}}
hardware: {{gpu: RTX 3090, count: 1}}
acquisition: {{mode: buy, condition: used}}
used_cards:
  - serial: "x"
    nvidia_smi: {xml.name}
""")
    with pytest.raises(UserError) as err:
        audit(str(prop))
    assert "bad.xml" in err.value.line()
