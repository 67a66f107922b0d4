"""A serving job's ``parallelism`` pin through ``recommend``. ``parallelism: {tp: 16}`` (SGLang ``--tp 16
--nnodes 2``, DeepSeek-V3/R1 on two 8-GPU servers) with no hardware given was answered with 8 x RTX PRO 6000 at
tensor parallel 8, its memory step labelled "as requested", and the estimate's "cannot be kept" note never
reached the report. Now the search looks only at counts that hold one pinned copy (16 GPUs: two servers of 8,
or one NVLink domain of 16 or more); where the user allows no such count, MEM-FITS-PIN-NOT-KEPT and
MEM-PIN-NOT-KEPT say the pin was not kept, why and what was used, in every format. A ``tp 4 x pp 2`` pin on
8 GPUs is built as asked (the doubling ladder gave 8 GPUs tensor parallel 8 only)."""

from __future__ import annotations

import json

import pytest

from gpuwise import recommend
from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

V3_TP16 = {"task": "inference", "model": "deepseek-v3", "precision": "fp8", "parallelism": {"tp": 16},
           "concurrent_requests": 8}
NOT_KEPT = "workload.parallelism.tp 16 cannot be kept on this GPU count or model: served with tp 8"

# the capped file's 13 command-line runs (formats, detail, languages) render one recommendation (tests/conftest.py)
pytestmark = pytest.mark.usefixtures("cli_answers_shared")


def _memory_step(r: dict) -> dict:
    return next(s for s in r["steps"] if s["step"] == "memory")


def test_a_tp16_pin_is_recommended_on_sixteen_gpus_as_requested():
    """No count under 16 holds one TP16 copy, so none is judged: the answer is 16 GPUs in two servers of 8
    (or one NVLink domain), served at tensor parallel 16 and labelled as requested."""
    r = recommend({"workload": V3_TP16}).model_dump(mode="json")
    rec = r["recommendation"]
    assert rec is not None and rec["count"] == 16 and rec["strategy"] == "tensor parallel 16"
    assert all(c["count"] >= 16 for c in r["candidates"])
    mem = _memory_step(r)
    assert mem["rule"] == "MEM-FITS" and mem["conclusion"].endswith("as requested (tensor parallel 16)")
    assert not [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT"]


@pytest.fixture(scope="module")
def capped(tmp_path_factory):
    """The same pin with at most 8 GPUs allowed: no candidate can take it."""
    d = tmp_path_factory.mktemp("pin")
    f = d / "r.yaml"
    f.write_text(json.dumps({"workload": V3_TP16, "constraints": {"max_gpus": 8}}))
    return f


def test_a_pin_no_allowed_count_keeps_is_said_not_labelled_as_requested(capped):
    """8 GPUs at most: the answer is served at tensor parallel 8, and its memory step says so (the estimate's
    note, through the fact the rules read) instead of "as requested"; the warning says the pinned copy spans 16
    GPUs. JSON: the finding (contract key ``findings``) with the pin and what was used as values."""
    from tests.clirun import gpuwise

    p = gpuwise("recommend", str(capped), "--format", "json")
    assert p.returncode == 0, p.stderr
    r = json.loads(p.stdout)
    rec = r["recommendation"]
    assert rec["count"] == 8 and rec["strategy"] == "tensor parallel 8"
    mem = _memory_step(r)
    assert mem["rule"] == "MEM-FITS-PIN-NOT-KEPT" and "usable, as requested" not in mem["conclusion"]
    assert f"not as requested: {NOT_KEPT} (tensor parallel 8)" in mem["conclusion"]
    mine = [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT" and f["subject"] == rec["gpu"]]
    assert len(mine) == 1 and mine[0]["severity"] == "warning"
    assert mine[0]["values"]["pin_not_kept_phrases"] == [["", "note.pin_not_kept", {"key": "tp", "pin": 16,
                                                                                    "used": 8}]]
    assert "one copy of it spans 16 GPUs" in mine[0]["message"]
    assert not [t for t in r["trace"] if t["rule"] == "MEM-FITS" and t["subject"].startswith(f"{rec['gpu']}x8")]


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
@pytest.mark.parametrize("detail", ["brief", "full"])
def test_every_format_says_the_pin_was_not_kept(capped, fmt, detail):
    from tests.clirun import gpuwise

    p = gpuwise("recommend", str(capped), "--format", fmt, "--detail", detail, env={"COLUMNS": "400"})
    assert p.returncode == 0, p.stderr
    assert "as requested (tensor parallel 8)" not in p.stdout
    assert "not as requested" in p.stdout and "workload.parallelism.tp 16 cannot be kept" in p.stdout
    z = gpuwise("recommend", str(capped), "--format", fmt, "--detail", detail, "--lang", "zh",
                env={"COLUMNS": "400"})
    assert z.returncode == 0 and "workload.parallelism.tp 16 在此 GPU 数量或模型上无法保持" in z.stdout


def test_a_tp4_pp2_pin_is_built_inside_one_node(kb):
    """vLLM --tensor-parallel-size 4 --pipeline-parallel-size 2 on 8 x H100: one copy of 4 x 2 GPUs, each
    holding an eighth of Llama-3.1-70B's bf16 weights (70,553,706,496 parameters, its config; 2 B each), and
    no note (it was served at tensor parallel 8 with the note)."""
    job = resolve(Requirements.model_validate({"workload": {
        "task": "inference", "model": "llama-3.1-70b", "parallelism": {"tp": 4, "pp": 2}}}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 8)
    assert (s.layout.tp, s.layout.pp, s.layout.replicas) == (4, 2, 1)
    assert s.replica.weights_gpu == pytest.approx(70_553_706_496 * 2 / 8, rel=1e-3)
    assert not [v for _, mid, v in s.replica.notes if mid == "note.pin_not_kept"]


def test_a_pin_that_fits_is_still_labelled_as_requested():
    """tensor parallel 4 for Llama-3.1-70B: four GPUs take it, and the memory step says as requested."""
    r = recommend({"workload": {"task": "inference", "model": "llama-3.1-70b", "parallelism": {"tp": 4},
                                "concurrent_requests": 8}}).model_dump(mode="json")
    assert r["recommendation"]["strategy"] == "tensor parallel 4"
    mem = _memory_step(r)
    assert mem["rule"] == "MEM-FITS" and mem["conclusion"].endswith("as requested (tensor parallel 4)")
    assert not [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT"]


@pytest.mark.parametrize("pins, gpus", [({"tp": 16}, 16), ({"tp": 4, "pp": 2}, 8), ({"tp": 8, "pp": 2}, 16),
                                         ({"tp": 8, "pp": 3}, 24), ({"tp": 48}, 1), ({}, 1)])
def test_the_counts_a_pin_needs(kb, pins, gpus):
    """A copy of tp x pp GPUs: fewer cannot keep the pin, so the search starts there, three stages of a server as
    well (vLLM's --pipeline-parallel-size takes any count of stages; vllm-project/vllm pull request #15322 serves
    DeepSeek-R1 at pp 3 x tp 8 on three 8-GPU L20 servers); a tensor-parallel degree
    Llama-3.1-70B's 64 attention heads (its config.json) do not divide can be kept on no count, and restricts
    nothing (the candidates then say the pin was not kept)."""
    job = resolve(Requirements.model_validate({"workload": {
        "task": "inference", "model": "llama-3.1-70b", **({"parallelism": pins} if pins else {})}}), kb)
    assert SV.pinned_gpus(job) == gpus


def test_the_estimate_of_an_inference_pin_not_kept_is_not_as_requested():
    """``estimate`` carries the memory rule's fits_as_requested for inference as for training (contract v2: it
    says whether the job fits exactly as stated). Llama 3.1 70B in bf16 pinned at tp 8 on 4 H100s: served at
    tensor parallel 4 (141 GB of weights / 4 = 35 GB a GPU fits in 80 GB), so it fits, not as requested; the
    same file on 8 H100s keeps the pin; unpinned on 4 it is as requested."""
    from gpuwise import estimate

    job = {"task": "inference", "model": "llama-3.1-70b", "precision": "bf16", "concurrent_requests": 4}
    pinned = {**job, "parallelism": {"tp": 8}}

    def fits(w: dict, n: int) -> tuple[bool, bool | None, str]:
        g = estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=n).model_dump(mode="json")["gpu"]
        return g["fits"], g["fits_as_requested"], g["strategy"]

    assert fits(pinned, 4) == (True, False, "tensor parallel 4")
    assert fits(pinned, 8) == (True, True, "tensor parallel 8")
    assert fits(job, 4) == (True, True, "tensor parallel 4")
