"""A floor that sets the serving step is shown where the step is explained (issue 22: every number printed is
right, sourced and explained; a time agrees with its own formula).

vLLM's synchronous V1 releases (0.8.0 up to 0.12.0) step no faster than the host's own work, 4.5 ms
(knowledge/serving.yaml vllm sync_host_floor, read on sariekr/gpu_conc: gpt-oss-20b at concurrency 1 steps in
1000 / 220.79 = 4.53 ms on an H200 with 0.10.0 and 1000 / 219.77 = 4.55 ms on a B200 with 0.10.1). Llama-3.2-1B
BF16 on one H100 streams 2.5 GB of weights a step: under 2 ms on the GPU, so at 0.10.0 the floor sets the step.
The TPOT term's formula then says decode step = max(GPU step, host floor) with the release and the knowledge
entry, its numbers recompute to the printed TPOT, and the brief report says so in a row of its own; at 0.12.0
(asynchronous scheduling by default, vLLM pull request #27614) no floor binds and nothing about it is shown.
"""

from __future__ import annotations

import json
import re

import pytest

from gpuwise import estimate
from gpuwise.estimators import serving as SV

from .clirun import gpuwise

FLOOR_S = 4500e-6  # knowledge/serving.yaml vllm sync_host_floor step_us


def _job(tmp_path, version: str):
    req = tmp_path / f"llama-1b-{version}.yaml"
    req.write_text("workload:\n  task: inference\n  model: llama-3.2-1b\n  framework: vllm\n"
                   f"  framework_version: \"{version}\"\n  prompt_tokens: 1000\n  output_tokens: 1000\n"
                   "  concurrent_requests: 1\nconstraints:\n  gpus: [h100-80gb-sxm]\n  max_gpus: 1\n")
    return req


def _workload(version: str) -> dict:
    return {"task": "inference", "model": "llama-3.2-1b", "framework": "vllm", "framework_version": version,
            "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}


def test_the_floored_step_is_itemised_in_the_terms(kb):
    """At 0.10.0 the step is the floor: the TPOT term records the GPU's step, the floor and what set the step;
    the GPU's parts add up to the GPU's step (not to the floor: the floor is no hidden overhead), and
    max(GPU step, floor) + the prompt share (none: one request) is the JSON's TPOT."""
    assert kb.framework("vllm").sync_host_floor.step_us * 1e-6 == pytest.approx(FLOOR_S)
    g = estimate({"workload": _workload("0.10.0")}, gpu="h100-80gb-sxm", gpus=1).gpu
    terms = {t.name: t for t in g.terms}
    t = terms["tpot_s"]
    i = t.inputs
    assert i["step_set_by"] == "host_floor" and i["host_floor_s"] == pytest.approx(FLOOR_S)
    assert i["gpu_step_s"] < FLOOR_S  # the GPU alone would step faster
    parts = i["linear_s"] + i["attention_s"] + i["communication_s"] + i["overhead_s"]
    assert parts == pytest.approx(i["gpu_step_s"], rel=1e-12)
    assert max(i["gpu_step_s"], i["host_floor_s"]) == i["decode_step_s"] == pytest.approx(FLOOR_S)
    assert i["prompt_share_s"] == 0.0
    assert max(i["gpu_step_s"], i["host_floor_s"]) + i["prompt_share_s"] == pytest.approx(g.serving.tpot_s, rel=1e-12)
    assert "max(GPU step, host floor)" in t.formula and "vLLM 0.10.0" in t.formula
    assert "knowledge/serving.yaml vllm sync_host_floor" in t.formula
    d = terms["decode_tokens_per_s"]  # the per-sequence speed's term (recommend's compute step) says the same
    assert d.inputs["host_floor_s"] == i["host_floor_s"] and d.inputs["gpu_step_s"] == i["gpu_step_s"]
    assert "max(GPU step, host floor)" in d.formula and d.value == pytest.approx(1 / FLOOR_S)


def test_the_printed_formula_recomputes_to_the_printed_tpot(tmp_path):
    """The text estimate's TPOT term: its formula with the numbers put in gives max(a, b), and that is the
    ``tpot_s = ...`` it prints and the JSON's ``tpot_s``; the brief and full reports (text, md, html) name the
    floor, the release and the knowledge entry."""
    req = _job(tmp_path, "0.10.0")
    text = gpuwise("estimate", str(req), "--gpu", "h100-80gb-sxm", "--gpus", "1")
    js = gpuwise("estimate", str(req), "--gpu", "h100-80gb-sxm", "--gpus", "1", "--format", "json")
    assert text.returncode == 0 and js.returncode == 0
    tpot = json.loads(js.stdout)["gpu"]["serving"]["tpot_s"]
    # the term's own line, not an input (labelled since review54)
    head = re.search(r"^  Time per output token = ([0-9.]+) s$", text.stdout, re.M)
    shown = float(head.group(1))
    block = " ".join(text.stdout[head.end():].split())
    a, b = (float(v) for v in re.search(r"with numbers: decode step \+ prompt share; decode step = "
                                        r"max\(([0-9.e-]+) s, ([0-9.e-]+) s\) = the host floor", block).groups())
    assert b == pytest.approx(FLOOR_S) and a < b
    assert max(a, b) == pytest.approx(shown, rel=1e-3) == pytest.approx(tpot, rel=1e-3)
    assert "vLLM 0.10.0 schedules each step synchronously" in block
    for fmt in ("text", "md", "html"):
        brief = gpuwise("recommend", str(req), "--format", fmt)
        assert brief.returncode == 0, brief.stderr
        said = " ".join(brief.stdout.split())
        assert "each decode step lasts 4.5 ms, the host floor of vLLM 0.10.0" in said, fmt
        assert "knowledge/serving.yaml vllm sync_host_floor" in said
        full = " ".join(gpuwise("recommend", str(req), "--format", fmt, "--detail", "full").stdout.split())
        assert "max(GPU step, host floor)" in full and "vLLM 0.10.0" in full, fmt


def test_an_audit_of_a_floored_proposal_says_so(tmp_path):
    """The proposal's speed (222 tok/s = 1 / 4.5 ms) is the floor's, whatever the GPU: the audit's brief says so."""
    prop = tmp_path / "proposal.yaml"
    prop.write_text(_job(tmp_path, "0.10.0").read_text().split("constraints:")[0]
                    + "hardware:\n  gpu: h100-80gb-sxm\n  count: 1\nacquisition:\n  mode: rent\n  hourly_usd: 2.5\n")
    out = gpuwise("audit", str(prop))
    assert out.returncode == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "222 tokens/s per sequence" in said and round(1 / FLOOR_S, 1) == 222.2
    assert "each decode step lasts 4.5 ms, the host floor of vLLM 0.10.0" in said


def test_no_floor_is_shown_where_none_binds(tmp_path):
    """At 0.12.0 the GPU's step is the step: the TPOT term's formula is the plain one, no floor input, and no
    report says "host floor"."""
    g = estimate({"workload": _workload("0.12.0")}, gpu="h100-80gb-sxm", gpus=1).gpu
    t = {t.name: t for t in g.terms}["tpot_s"]
    assert not {"gpu_step_s", "host_floor_s", "step_set_by"} & set(t.inputs)
    assert [p[1] for p in t.formula_phrases] == ["formula.serving.tpot"]
    i = t.inputs
    parts = i["linear_s"] + i["attention_s"] + i["communication_s"] + i["overhead_s"]
    assert parts == pytest.approx(i["decode_step_s"], rel=1e-12) and i["decode_step_s"] < FLOOR_S
    req = _job(tmp_path, "0.12.0")
    for args in (("estimate", str(req), "--gpu", "h100-80gb-sxm", "--gpus", "1"),
                 ("estimate", str(req), "--gpu", "h100-80gb-sxm", "--gpus", "1", "--format", "json"),
                 ("recommend", str(req)), ("recommend", str(req), "--detail", "full"),
                 ("recommend", str(req), "--format", "html")):
        out = gpuwise(*args)
        assert out.returncode == 0 and "host floor" not in out.stdout and "host_floor" not in out.stdout, args


# ------------------------------------------------------------------------ block-FP8 reduction walk
def _walk_job(version: str, precision: str = "fp8") -> dict:
    return {"task": "inference", "model": "qwen3-30b-a3b", "precision": precision, "framework": "sglang",
            "framework_version": version, "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}


def test_the_block_fp8_walk_that_sets_the_gemm_time_is_shown(kb):
    """Qwen3-30B-A3B's block-scaled FP8 checkpoint on one H200 with SGLang 0.5.1 (before 0.5.7, whose per-kernel
    figure holds the walk: serving.yaml block_fp8_small_batch included_from): at one sequence each dense GEMM's
    thread block walks its whole reduction depth at 0.42 us per 128-deep block, far longer than the one row's math.
    The TPOT term says GEMM FLOPs / (peak x e) is max(math, walk) = the walk, with both figures; the linear time
    less the walk plus the math is the linear time the step model gives with the walk taken out."""
    from gpuwise.estimators.serving.step import _parts, consts
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = _walk_job("0.5.1")
    g = estimate({"workload": w}, gpu="h200-141gb-sxm", gpus=1).gpu
    t = {t.name: t for t in g.terms}["tpot_s"]
    i = t.inputs
    assert kb.serving.block_fp8_small_batch.k_block_us == pytest.approx(0.42)
    assert i["block_fp8_walk_s"] > 100 * i["gemm_math_s"] > 0
    assert "max(GEMM math, K walk) = the walk" in t.formula and "0.42 us per 128-deep block" in t.formula
    assert "knowledge/serving.yaml block_fp8_small_batch" in t.formula
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 1)
    c = consts(job, s.engine, s.replica)
    assert c.pp == 1 and c.kserial == pytest.approx(i["block_fp8_walk_s"], rel=1e-12)
    kept, c.kserial = c.kserial, 0.0  # the same step without the walk (restored: the constants are memoised)
    try:
        plain = _parts(c, 1.0, 0.0, 1000 + 500, 0.0)[1]
    finally:
        c.kserial = kept
    assert i["linear_s"] - i["block_fp8_walk_s"] + i["gemm_math_s"] == pytest.approx(plain, rel=1e-9)
    parts = i["linear_s"] + i["attention_s"] + i["communication_s"] + i["overhead_s"]
    assert parts == pytest.approx(i["decode_step_s"], rel=1e-12) == pytest.approx(g.serving.tpot_s, rel=1e-12)


@pytest.mark.parametrize(("version", "precision"), [("0.5.7", "fp8"), ("0.5.1", "bf16")])
def test_no_walk_is_shown_where_it_is_held_or_absent(version, precision):
    """SGLang 0.5.7's per-kernel figure holds the walk (not charged again), and a BF16 GEMM splits its reduction:
    no walk part, no walk inputs."""
    g = estimate({"workload": _walk_job(version, precision)}, gpu="h200-141gb-sxm", gpus=1).gpu
    t = {t.name: t for t in g.terms}["tpot_s"]
    assert not {"gemm_math_s", "block_fp8_walk_s"} & set(t.inputs)
    assert [p[1] for p in t.formula_phrases] == ["formula.serving.tpot"]
