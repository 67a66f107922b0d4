"""workload.fp8_recipe (branch mxfp8train60): the FP8 scaling recipe a training run states. MXFP8 (one E8M0 scale a
block of 32 values, each GEMM input quantized row-wise and column-wise apart: NVIDIA Transformer Engine's MXFP8 page,
docs/features/low_precision_training/mxfp8) runs on compute capability 10.0 / 10.3 only (its 'Supported devices: SM
10.0, SM 10.3'; knowledge/software.yaml feature mxfp8), so a CUDA GPU outside them is refused; the recipe is priced
as fp8 (tests/data/validation/README.md, 'MXFP8 as a stated recipe')."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from benchmarks.accuracy_training import hours_as_published, run_estimate, run_workload, with_conditions
from gpuwise import knowledge
from gpuwise.inputs.requirements import Requirements
from gpuwise.knowledge.compat import feature_runs

from .test_heldout_trainblind11 import _rows


def test_mxfp8_runs_on_sm100_and_sm103_only():
    kb = knowledge.load()
    runs = {g: feature_runs(kb.software, "mxfp8", kb.gpus[g].compute_capability)
            for g in ("b200", "gb200", "b300", "gb300", "h100-80gb-sxm", "rtx-5090", "rtx-pro-6000-blackwell",
                      "mi355x")}
    # TE's support matrix: 10.0 (B200 / GB200) and 10.3 (B300 / GB300) yes; 9.0 and 12.0 no; AMD has no CUDA
    # compute capability, so the CUDA rule leaves it alone (CMP-MXFP8-UNSUPPORTED needs cuda_device)
    assert runs == {"b200": True, "gb200": True, "b300": True, "gb300": True, "h100-80gb-sxm": False,
                    "rtx-5090": False, "rtx-pro-6000-blackwell": False, "mi355x": False}
    # per-tensor FP8 keeps its floor, 8.9 and up (no list): an H100 runs it
    assert feature_runs(kb.software, "fp8", "9.0") and not feature_runs(kb.software, "fp8", "8.0")


def test_fp8_recipe_needs_precision_fp8_and_training():
    base = {"task": "finetune", "model": "llama-3-70b", "method": "full", "train_tokens": 1e8}
    Requirements.model_validate({"workload": {**base, "precision": "fp8", "fp8_recipe": "mxfp8"}})
    with pytest.raises(ValidationError, match="fp8_recipe is the scaling recipe of FP8 training, and a bf16 job"):
        Requirements.model_validate({"workload": {**base, "precision": "bf16", "fp8_recipe": "mxfp8"}})
    with pytest.raises(ValidationError, match="fp8_recipe"):
        Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3-70b", "precision": "fp8",
                                                  "fp8_recipe": "mxfp8"}})


def test_mxfp8_rows_state_the_recipe_on_blackwell_and_price_as_fp8():
    """The 51 held-out rows whose config, card or table names MXFP8 (H995 / H996 of trainblind48 the latest) carry
    fp8_recipe mxfp8; each is an fp8 row on a compute capability 10.x part. H820 (Llama 3 70B full SFT on 32 GB300,
    Megatron-Bridge 26.06 'fp8mx' recipe) gets
    the same hours with the recipe as without: 0.8444 GPU-h published, gpuwise -15.5% both ways (trainblind34's
    blind reading)."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    mx = sorted(rid for rid, c in conds.items() if c["fp8_recipe"] == "mxfp8")
    assert len(mx) == 51
    assert {"H995", "H996", "H820", "H822", "H825", "H827", "H830", "H832", "H833", "H834", "H835"} <= set(mx)
    kb = knowledge.load()
    for rid in mx:
        assert rows[rid]["precision"] == "fp8", rid
        assert kb.gpus[rows[rid]["gpu"]].compute_capability in ("10.0", "10.3"), rid
    # and one tensorwise row: H942 (trainblind44), torchtune FP8 on MI350X (MAD's fp8_recipe_name tensorwise);
    # trainblind46's AMD logs: Primus / ROCm Megatron-LM FP8 hybrid delayed on MI325X (H979, H980, H982) and Primus's
    # Qwen3-30B-A3B campaign in FP8 tensorwise on MI355X (H983, H984)
    other = {rid: c["fp8_recipe"] for rid, c in conds.items() if c["fp8_recipe"] not in ("", "mxfp8")}
    assert other == {"H942": "tensorwise", "H979": "delayed", "H980": "delayed", "H982": "delayed",
                     "H983": "tensorwise", "H984": "tensorwise"}
    assert all(rows[rid]["precision"] == "fp8" for rid in other)
    r, c = rows["H820"], conds["H820"]
    stated = with_conditions(run_workload(r), c)
    assert stated["fp8_recipe"] == "mxfp8"
    bare = {k: v for k, v in stated.items() if k != "fp8_recipe"}
    hours = [hours_as_published(run_estimate(w, "gb300", 32), c) for w in (stated, bare)]
    assert hours[0] == pytest.approx(hours[1], rel=1e-12)
    assert hours[0] / float(r["gpu_hours"]) - 1 == pytest.approx(-0.155, abs=0.005)
