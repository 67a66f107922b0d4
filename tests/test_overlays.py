"""--knowledge overlays (docs/knowledge.md): entries merge field by field by id, a new entry must be
whole, ids are unique, policy values come in short form and within their bounds."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise import knowledge, recommend
from gpuwise.errors import KnowledgeError, UserError
from gpuwise.estimators import cost as K


def _overlay(tmp_path: Path, **files: str) -> str:
    for name, body in files.items():
        (tmp_path / f"{name}.yaml").write_text(body)
    return str(tmp_path)


def test_a_gpu_patch_is_a_few_lines_and_keeps_every_other_field(tmp_path: Path) -> None:
    base = knowledge.load().gpus["a100-80gb-pcie"]
    kb = knowledge.load(_overlay(tmp_path, gpus="gpus:\n  - id: a100-80gb-pcie\n    memory: {smi_mib: 81154}\n"))
    g = kb.gpus["a100-80gb-pcie"]
    assert g.memory.smi_mib == 81154
    assert g.memory.bandwidth_gb_s == base.memory.bandwidth_gb_s and g.peaks == base.peaks and g.name == base.name


def test_a_price_quote_is_added_and_used(tmp_path: Path) -> None:
    """A quote of $289,000 for an 8-GPU HGX H100 server, dated after the built-in prices, is the
    street price per GPU: 289,000 / 8 = $36,125."""
    body = """schema_version: 1
gpus:
  - id: h100-80gb-sxm
    prices:
      - {amount: 289000, currency: USD, condition: new, unit: server, gpus: 8, kind: quote,
         as_of: 2026-11-15, source: "Quote Q-2291 from our integrator"}
"""
    kb = knowledge.load(_overlay(tmp_path, prices=body))
    assert K.street_price(kb.prices, kb.gpus["h100-80gb-sxm"], kb.tco) == (36_125.0, "2026-11-15")


def test_a_new_entry_must_be_whole(tmp_path: Path) -> None:
    with pytest.raises(KnowledgeError) as err:
        knowledge.load(_overlay(tmp_path, gpus="gpus:\n  - id: my-gpu\n    name: Mine\n"))
    assert "gpus.yaml" in err.value.line() and "my-gpu" in err.value.line()


def test_an_id_twice_in_an_overlay_is_refused(tmp_path: Path) -> None:
    body = "gpus:\n  - id: a100-80gb-pcie\n    notes: a\n  - id: a100-80gb-pcie\n    notes: b\n"
    with pytest.raises(KnowledgeError, match="duplicate id 'a100-80gb-pcie'"):
        knowledge.load(_overlay(tmp_path, gpus=body))


@pytest.mark.parametrize("body", ["memory_headroom_fraction: 0.25\n",
                                  "policy:\n  memory_headroom_fraction: 0.25\n",
                                  "schema_version: 1\npolicy:\n  memory_headroom_fraction: {value: 0.25}\n"])
def test_a_policy_value_in_any_form_a_user_writes(tmp_path: Path, body: str) -> None:
    kb = knowledge.load(_overlay(tmp_path, policy=body))
    assert kb.policy_value("memory_headroom_fraction") == 0.25
    assert kb.policy["memory_headroom_fraction"].rationale == knowledge.load().policy[
        "memory_headroom_fraction"].rationale  # the rest of the entry is kept


@pytest.mark.parametrize(("body", "why"), [("memory_headroom_fraction: 1.5\n", "between 0 and 0.9"),
                                           ("memory_headroom_fractio: 0.5\n", "did you mean memory_headroom_fraction"),
                                           ("value_of_a_day_usd: yes\n", "expected a number")])
def test_a_bad_policy_overlay_is_refused_in_one_line(tmp_path: Path, body: str, why: str) -> None:
    with pytest.raises(UserError) as err:
        knowledge.load(_overlay(tmp_path, policy=body))
    assert why in err.value.line() and "policy.yaml" in err.value.line()


def test_the_value_of_a_day_changes_the_ranking(tmp_path: Path) -> None:
    """Worth nothing, time never beats money (the cheapest feasible candidate wins); worth $1M a day,
    the candidate with the least cost + days x 1,000,000 wins, and it is faster."""
    req = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 5e8},
           "constraints": {"max_gpus": 16}}
    cheap = recommend(req, knowledge=_overlay(tmp_path / "a" if (tmp_path / "a").mkdir() is None else "",
                                              policy="value_of_a_day_usd: 0\n"))
    rush = recommend(req, knowledge=_overlay(tmp_path / "b" if (tmp_path / "b").mkdir() is None else "",
                                             policy="value_of_a_day_usd: 1000000\n"))
    feasible = [c for c in cheap.candidates if c.feasible]
    assert cheap.recommendation.total_cost_usd == pytest.approx(min(c.total_cost_usd for c in feasible), rel=0.03)
    best = min(c.total_cost_usd + 1e6 * c.wall_days for c in rush.candidates if c.feasible)
    assert rush.recommendation.score_usd == pytest.approx(best, rel=0.02)
    assert rush.recommendation.wall_days < cheap.recommendation.wall_days
