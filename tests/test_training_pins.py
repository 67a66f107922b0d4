"""A training layout the file pins is the user's (contract v2: an explicit setting is never replaced;
``fits_as_requested`` says whether the job fits exactly as stated). Where no layout of the GPU count
keeps a pin -- tensor x pipeline parallel wider than the count -- the planner used to drop every pin
(gradient checkpointing and the ZeRO stage with them) and the estimate still said ``fits_as_requested:
true`` (hostile round 21, benchmarks/hostile_round21.py). Now the layout's degrees are dropped first and
the memory settings kept, the estimate is not "as requested", the memory rules say which pin was not
kept (MEM-FITS-PIN-NOT-KEPT, MEM-PIN-NOT-KEPT, as for a pinned serving layout), and the count search
tries the counts that can hold one copy of the pin first."""

from __future__ import annotations

import copy

import gpuwise
from gpuwise.estimators import training_job as TJ
from gpuwise.estimators.training_layout import Pins

LORA_PINNED = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "train_tokens": 1e8,
                            "seq_len": 4096, "gradient_checkpointing": True, "parallelism": {"tp": 8, "pp": 8}},
               "constraints": {"max_gpus": 8, "gpus": ["h100-80gb-sxm"]}}


def _with(**constraints) -> dict:
    q = copy.deepcopy(LORA_PINNED)
    q["constraints"].update(constraints)
    return q


def test_a_pin_wider_than_the_count_is_not_as_requested_and_the_other_settings_stay():
    g = gpuwise.estimate(LORA_PINNED, gpu="h100-80gb-sxm", gpus=8).model_dump(mode="json")["gpu"]
    assert g["fits"] is True and g["fits_as_requested"] is False
    lay = g["layout"]
    assert lay["checkpointing"] is True  # the file's gradient_checkpointing, kept (it was dropped with the pins)
    assert lay["tp"] * lay["pp"] * lay["dp"] == 8 and (lay["tp"], lay["pp"]) != (8, 8)


def test_the_pins_not_kept_are_named_with_what_was_used():
    r = gpuwise.recommend(LORA_PINNED).model_dump(mode="json")
    assert r["recommendation"]["count"] <= 8
    (f,) = [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT"]
    assert f["severity"] == "warning"
    assert "one copy of it spans 64 GPUs" in f["message"]  # tp 8 x pp 8
    assert "workload.parallelism.tp 8 cannot be kept" in f["message"]
    assert "workload.parallelism.pp 8 cannot be kept" in f["message"]
    assert "gradient_checkpointing" not in f["message"]  # kept, so not named


def test_a_count_that_holds_the_pin_is_chosen_where_one_is_allowed():
    """64 GPUs hold one copy of TP 8 x PP 8: with up to 64 allowed the answer keeps the pin, whether the
    catalog is searched or the GPU is named (both ways try only the counts that hold it)."""
    for q in (_with(max_gpus=64), {**_with(max_gpus=64), "constraints": {"max_gpus": 64}}):
        r = gpuwise.recommend(q).model_dump(mode="json")
        rec = r["recommendation"]
        assert rec["count"] == 64, rec
        assert rec["strategy"] == "TP8 PP8 + gradient checkpointing"
        assert not [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT"]
    g = gpuwise.estimate(_with(max_gpus=64), gpu="h100-80gb-sxm", gpus=64).model_dump(mode="json")["gpu"]
    assert g["fits_as_requested"] is True
    assert (g["layout"]["tp"], g["layout"]["pp"], g["layout"]["checkpointing"]) == (8, 8, True)


def test_a_pin_the_count_holds_is_as_requested():
    q = copy.deepcopy(LORA_PINNED)
    q["workload"]["parallelism"] = {"tp": 8}
    g = gpuwise.estimate(q, gpu="h100-80gb-sxm", gpus=8).model_dump(mode="json")["gpu"]
    assert g["fits_as_requested"] is True
    assert (g["layout"]["tp"], g["layout"]["checkpointing"]) == (8, True)


def test_pins_not_kept_compares_each_setting_with_the_layout():
    class Lay:
        tp, pp, ep, cp, interleave, zero, checkpointing, offload = 4, 1, 1, 1, 1, 3, True, "none"

    lost = TJ.pins_not_kept(Pins(tp=8, zero=3, checkpointing=True), Lay())
    assert [(mid, v["field"], v["pin"], v["used"]) for _sep, mid, v in lost] == [
        ("note.train_pin_not_kept", "parallelism.tp", 8, 4)]
    assert TJ.pins_not_kept(Pins(tp=4, zero=3), Lay()) == ()
    assert TJ.pinned_span(Pins(tp=8, pp=8, cp=2)) == 128 and TJ.pinned_span(Pins(zero=3)) == 1
