"""workload.tp_comm_overlap: Transformer Engine's userbuffers overlap of the tensor-parallel collectives, on by default
on NeMo and opt-in on Megatron-LM (knowledge/runtime.yaml training_stacks tp_comm_overlap: NeMo hides three quarters,
its user guide's Communication Overlap section; Megatron-LM's --tp-comm-overlap is off unless given). NVIDIA's own
Nemotron-4 340B benchmark recipe turns it off (NVIDIA/dgxc-benchmarking nemotron/nemotron4-340b-synth.yaml at
8f5cbb3: model.ub_tp_comm_overlap False), which held-out rows H396 / H397 now state."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise
from .conftest import DATA


def _tp_seconds(tmp_path: Path, stack: str, overlap: bool | None) -> float:
    w = {"task": "pretrain", "model": "llama-3.1-70b", "precision": "bf16", "train_tokens": 1e10,
         "parallelism": {"tp": 8}, "stack": stack}
    if overlap is not None:
        w["tp_comm_overlap"] = overlap
    path = tmp_path / f"{stack}-{overlap}.yaml"
    path.write_text(yaml.safe_dump({"workload": w, "constraints": {"max_gpus": 64}}))
    r = gpuwise("estimate", str(path), "--gpu", "h100", "--gpus", "64", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["gpu"]["training"]["step_terms"]["tp_s"]


def test_off_exposes_four_times_what_nemo_leaves_exposed(tmp_path):
    """TP8 inside one H100 server: NeMo hides 0.75 of the TP collectives, so the exposed time with the overlap off
    is 1 / (1 - 0.75) = 4 times the default's; Megatron-LM's default is NeMo's 'off', and its 'on' is NeMo's."""
    nemo, nemo_off = _tp_seconds(tmp_path, "nemo", None), _tp_seconds(tmp_path, "nemo", False)
    mega, mega_on = _tp_seconds(tmp_path, "megatron", None), _tp_seconds(tmp_path, "megatron", True)
    assert nemo > 0 and nemo_off == pytest.approx(4 * nemo, rel=1e-9)
    assert mega == pytest.approx(nemo_off, rel=1e-9) and mega_on == pytest.approx(nemo, rel=1e-9)
    assert _tp_seconds(tmp_path, "nemo", True) == pytest.approx(nemo, rel=1e-9)  # on: NeMo's own default


def test_on_is_refused_on_a_stack_without_userbuffers(tmp_path):
    path = tmp_path / "ds.yaml"
    path.write_text(yaml.safe_dump({"workload": {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9,
                                                 "stack": "deepspeed", "tp_comm_overlap": True}}))
    r = gpuwise("estimate", str(path), "--gpu", "h100")
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert r.stderr.strip() == (f"gpuwise: {path}: workload.tp_comm_overlap: true is Transformer Engine's userbuffers "
                                "overlap, which stack 'megatron' or 'nemo' runs; name one of them as workload.stack, "
                                "or leave tp_comm_overlap out")
    zh = gpuwise("estimate", str(path), "--gpu", "h100", "--lang", "zh")
    assert zh.returncode == 2 and "userbuffers 通信重叠" in zh.stderr


def test_the_340b_rows_state_what_their_recipe_sets():
    with open(DATA / "training_conditions.csv", newline="") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    assert rows["H396"]["tp_comm_overlap"] == rows["H397"]["tp_comm_overlap"] == "false"
    assert "ub_tp_comm_overlap False" in rows["H397"]["source"]
    # trainblind21's H585 (MLPerf v4.0 Supermicro 8 x H100 LoRA) states it too: its config sets TP_COMM_OVERLAP False
    assert "TP_COMM_OVERLAP False" in rows["H585"]["source"] and rows["H585"]["tp_comm_overlap"] == "false"
    # trainblind27's TP4 verification cards (Megatron-Bridge recipes with tp_comm_overlap off) state it as well
    assert all(rows[i]["tp_comm_overlap"] == "false" for i in ("H672", "H677", "H678", "H681", "H682"))
    # trainblind34's Megatron-Bridge 26.06 SFT / LoRA recipes on the Blackwell trays (CommOverlapConfig(tp_comm_overlap=
    # False) in perf_recipes/llama/gb300 and gb200 llama3.py; the H100 rows H823 / H828 leave it to the stack)
    bridge = {f"H{n}" for n in range(819, 828)} - {"H823"}
    assert all(rows[i]["tp_comm_overlap"] == "false" for i in bridge)
    # trainblind47's Apertus logs on 4 GH200 at TP2 (Megatron's argument dump: tp_comm_overlap False)
    apertus = {"H985", "H986"}
    assert all(rows[i]["tp_comm_overlap"] == "false" and "tp_comm_overlap False" in rows[i]["source"] for i in apertus)
    assert {i for i, r in rows.items() if r["tp_comm_overlap"]} == {"H396", "H397", "H585", "H672", "H677", "H678",
                                                                     "H681", "H682"} | bridge | apertus
