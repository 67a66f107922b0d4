"""Held-out training runs without their published conditions (benchmarks/bare_attribution.py, branch baredefaults):
most of the bare estimates' excess (+9.1% signed median over 321 runs against -3.9% with the conditions) is the
published figure's hours basis, not a default of the run: 252 of the 300 runs with a conditions row publish
steady-state hours (MLPerf time-to-train blocks, logged iteration times), which the bare estimate reads as a whole
run's, steady-state time over runtime.yaml training.whole_run_efficiency (0.85) and failures."""

from __future__ import annotations

import pytest

from benchmarks import accuracy
from gpuwise.errors import UserError

from .conftest import heldout_subset


def test_conditions_only_states_the_kept_columns_and_blanks_the_rest():
    conds = accuracy.run_conditions()
    kept = accuracy.conditions_only(conds, {"hours_basis"})
    # Pythia-70M (T22): GPT-NeoX config pythia-70m.yml, ZeRO-1, checkpoint-activations true, hours from iteration time
    assert conds["T22"]["zero"] == "1" and conds["T22"]["checkpointing"] == "true"
    assert kept["T22"]["hours_basis"] == "steady"
    assert kept["T22"]["zero"] == kept["T22"]["checkpointing"] == kept["T22"]["stack"] == ""
    assert kept.keys() == conds.keys() and all(set(kept[k]) == set(conds[k]) for k in conds)


def test_a_steady_state_figure_read_as_a_whole_run_is_one_over_the_whole_run_efficiency_high(kb, tmp_path):
    """H56: MLPerf Training v5.1 Llama 3.1 8B, Dell 8 x B300, 93.48 minutes of training blocks (the results table;
    the row's source), 8 x 93.48 / 60 = 12.46 GPU-hours at steady state. Bare, the estimate's GPU-hours are its
    steady-state hours over whole_run_efficiency 0.85 (the failure term on 8 GPUs for under two hours is below
    1e-4): 1 / 0.85 = 1.176, the +17.6% that the hours basis alone moves a bare held-out estimate."""
    path, rows = heldout_subset(tmp_path, ("H56",))
    row = rows["H56"]
    assert float(row["gpu_hours"]) == pytest.approx(8 * 93.48 / 60, abs=0.005)
    (_, bare, _), = accuracy.published_run_cases(kb, path, conditions=None)
    basis = accuracy.conditions_only(accuracy.run_conditions(), {"hours_basis"})
    assert basis["H56"]["hours_basis"] == "steady"
    (_, steady, _), = accuracy.published_run_cases(kb, path, conditions=basis)
    whole = kb.runtime.training.whole_run_efficiency.value
    assert bare / steady == pytest.approx(1 / whole, rel=1e-3)


def test_a_subset_of_columns_that_only_holds_together_is_scored_on_every_condition(kb, tmp_path):
    """H475 (XTuner's Qwen3-235B-A22B on Pai-Megatron-Patch: PP32 with VPP3 over 94 layers) states a pinned
    interleaved schedule that only a Megatron-Core stack admits (32 x 3 = 96 places for 94 layers, the first and
    last stage one short); without its stack column gpuwise refuses it, as a user stating that layout with no stack
    would be refused. bare_attribution's 'all but stack' and 'layout only' rows then score the run on its full
    conditions and name it, where they stopped with the error (branch trainout44)."""
    path, _ = heldout_subset(tmp_path, ("H475",))
    conds = accuracy.run_conditions()
    assert (conds["H475"]["stack"], conds["H475"]["pp"], conds["H475"]["vpp"]) == ("megatron", "32", "3")
    no_stack = accuracy.conditions_only(conds, set(conds["H475"]) - {"stack", "stack_version"})
    with pytest.raises(UserError, match="virtual stages"):
        accuracy.published_run_cases(kb, path, conditions=no_stack)
    refused: dict[str, str] = {}
    (_, est, _), = accuracy.published_run_cases(kb, path, conditions=no_stack, refused=refused)
    assert list(refused) == ["H475"] and "94" in refused["H475"]
    (_, full, _), = accuracy.published_run_cases(kb, path)
    assert est == full


def test_size_and_task_keep_only_their_runs(tmp_path, monkeypatch, capsys):
    """--size and --task score one split alone (branch trainbare56): of H56 (MLPerf Llama 3.1 8B pretraining, 8 x
    B300), H98 (Phi-4-reasoning, a full SFT on 32 x H100) and H402 (a LoRA run on 32 x H100), '--size 1-8' keeps
    H56 alone and '--task fine-tune' H98 alone."""
    from benchmarks import bare_attribution as B

    path, rows = heldout_subset(tmp_path, ("H56", "H98", "H402"))
    assert (B.size_of(rows["H56"]["gpus"]), B.task_of(rows["H98"]), B.task_of(rows["H402"])) == (
        "1-8 GPUs", "fine-tune", "LoRA")
    for flag, value in (("--size", "1-8"), ("--task", "fine-tune")):
        monkeypatch.setattr("sys.argv", ["bare_attribution.py", "--runs", str(path), flag, value])
        assert B.main() == 0
        assert capsys.readouterr().out.startswith("some.csv: 1 runs")


def test_the_split_by_stack_and_the_rows_file_name_each_run_once(tmp_path):
    """bare_attribution's split by the stack a run's conditions name (branch bare57) and its --rows file: H56 (MLPerf
    Llama 3.1 8B, Dell 8 x B300: NeMo) and H98 (Phi-4-reasoning, no conditions row); each scoring's column holds
    estimate / published - 1 (1.2 / 1.0 - 1 = +0.2000; 0.5 / 1.0 - 1 = -0.5000)."""
    from benchmarks.bare_attribution import stack_of, write_rows

    conds = accuracy.run_conditions()
    assert conds["H56"]["stack"] == "nemo" and "H98" not in conds
    assert (stack_of(conds, "H56"), stack_of(conds, "H98")) == ("stack nemo", "stack none")
    rows = {"H56": {"gpus": "8", "method": ""}, "H98": {"gpus": "32", "method": "full"}}
    scored = {"bare": [("H56 x", 1.2, 1.0), ("H98 y", 0.5, 1.0)], "full": [("H56 x", 1.0, 1.0), ("H98 y", 2.0, 1.0)]}
    path = tmp_path / "rows.csv"
    write_rows(path, rows, conds, scored)
    assert path.read_text().splitlines() == ["id,gpus,task,stack,bare,full", "H56,8,pretrain,nemo,+0.2000,+0.0000",
                                             "H98,32,fine-tune,none,-0.5000,+1.0000"]
