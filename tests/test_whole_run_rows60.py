"""The held-out runs published as a whole run's hours (benchmarks/accuracy_training.whole_run_ids; validation README,
branch wholerun60): the conditions file's hours_basis where a run has a row, else what the row's hours column says."""

import csv

from benchmarks.accuracy_training import CONDITIONS, HELDOUT_RUNS, whole_run_ids


def test_whole_run_ids_follow_the_basis_columns():
    ids = whole_run_ids()
    with open(CONDITIONS, newline="") as fh:
        basis = {r["id"]: r["hours_basis"] for r in csv.DictReader(fh)}
    with open(HELDOUT_RUNS, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["use"] == "1"]
    with_row = {r["id"] for r in rows if basis.get(r["id"]) == "whole"}
    without = {r["id"] for r in rows if r["id"] not in basis and "steady" not in r["hours_kind"]}
    assert ids == with_row | without
    # Phi-3-mini: the card's 7 days on 512 H100, conditions row 'whole'
    assert "H05" in ids and basis["H05"] == "whole"
    # SmolLM2-1.7B: staff's approximate GPU-hours, no conditions row
    assert "H01" in ids and "H01" not in basis
    # MLPerf's Llama 2 70B LoRA on 64 GB200: no conditions row, but its row says the minutes are steady state
    assert "H133" not in ids and "steady state" in next(r for r in rows if r["id"] == "H133")["hours_kind"]
    # no run whose conditions row calls its hours steady-state
    assert not any(basis.get(i) == "steady" for i in ids)
