"""Hostile round 38's fixed failures (benchmarks/hostile_round38.py): session 37's serving.yaml entries overlaid as a
careless author would -- a release window that holds no release (``deepgemm_moe_padding`` from 0.12.0 before
0.11.1), an architecture or model no other knowledge file has ('hoper', 'glm-4.5x'), two router readings at one
token count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise as cli

V3 = ("workload: {task: inference, model: deepseek-v3, framework: vllm, precision: fp8, prompt_tokens: 1000, "
      "output_tokens: 1000, concurrent_requests: 8, framework_version: '0.11.1'}\n")
PADDING = ("frameworks:\n  - id: vllm\n    deepgemm_moe_padding:\n      first: '{first}'\n      before: '{before}'\n"
           "      block_m: 128\n      architectures: [{arch}]\n      source: ours\n")


def _estimate(tmp_path: Path, overlay: str, *more: str):
    (tmp_path / "r.yaml").write_text(V3, encoding="utf-8")
    (tmp_path / "kb").mkdir(exist_ok=True)
    (tmp_path / "kb" / "serving.yaml").write_text(overlay, encoding="utf-8")
    return cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", "--knowledge", "kb", *more,
               cwd=tmp_path)


@pytest.mark.parametrize("first, before", [("0.12.0", "0.11.1"), ("0.11.1", "0.11.1"), ("0.11.1", "0.11.1rc2")])
def test_a_release_window_that_holds_no_release_refused(tmp_path: Path, first, before):
    """Round 38: the window was read as holding no release, so the padding the shipped window charges vLLM 0.11.1
    on Hopper was dropped, exit 0 (an rcN counts as its release: records.release_key; 0.11.1 up to 0.11.1.post1,
    refused here before branch release54, holds 0.11.1 in that one ordering: tests/test_release_order54.py)."""
    r = _estimate(tmp_path, PADDING.format(first=first, before=before, arch="hopper"))
    assert r.returncode == 2, r.stdout[:200]
    assert r.stderr.strip() == ("gpuwise: kb/serving.yaml: frameworks[0] (id vllm).deepgemm_moe_padding: "
                                f"before {before} is not after first {first}: no release is in the window")


def test_a_window_that_holds_no_release_refused_in_chinese(tmp_path: Path):
    r = _estimate(tmp_path, "frameworks:\n  - id: vllm\n    mla_whole_prefill: {first: '0.9.0', before: '0.8.0', "
                  "source: ours}\n", "--lang", "zh")
    assert r.returncode == 2 and "mla_whole_prefill" in r.stderr and "0.8.0" in r.stderr and "0.9.0" in r.stderr
    assert "no release" not in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_window_of_one_release_read(tmp_path: Path):
    """0.11.1 up to 0.11.2 holds the job's 0.11.1: the padding is charged (slower than the window 0.11.2 up to
    0.12.0, which leaves it out)."""
    tpot = {}
    for first, before in (("0.11.1", "0.11.2"), ("0.11.2", "0.12.0")):
        r = _estimate(tmp_path, PADDING.format(first=first, before=before, arch="hopper"))
        assert r.returncode == 0, r.stderr
        tpot[first] = json.loads(r.stdout)["gpu"]["serving"]["tpot_s"]
    assert tpot["0.11.1"] > 1.5 * tpot["0.11.2"]


GLM = ("workload: {task: inference, model: glm-4.5, framework: sglang, precision: fp8, prompt_tokens: 1000, "
       "output_tokens: 1000, concurrent_requests: 64, parallelism: {tp: 8}}\n")
ROUTER = ("frameworks:\n  - id: sglang\n    torch_router:\n      models: [{model}]\n      vendors: [nvidia]\n"
          "      points: [{{tokens: 3, torch_us: 10, fused_us: 5}}]\n      as_of: '2026-01'\n      source: ours\n")


@pytest.mark.parametrize("arch, hint", [("hoper", "hopper"), ("Hopper", "hopper"), ("sm91", "sm90"), ("quantum", None)])
def test_a_serving_architecture_not_in_gpus_yaml_refused(tmp_path: Path, arch, hint):
    """Round 38: 'hoper' matched no GPU, so the padding was never charged (exit 0); an architecture is one of
    gpus.yaml's or a chip of one (sm and the compute capability without the dot)."""
    r = _estimate(tmp_path, PADDING.format(first="0.11.1", before="0.12.0", arch=arch))
    want = (f"gpuwise: kb/serving.yaml: frameworks[0] (id vllm).deepgemm_moe_padding.architectures: unknown "
            f"architecture '{arch}'") + (f" (did you mean {hint}?)" if hint else "")
    assert (r.returncode, r.stderr.strip()) == (2, want)


def test_architectures_of_other_sections_and_overrides_checked(tmp_path: Path):
    over = ("frameworks:\n  - id: vllm\n    architecture_overrides:\n"
            "      blackwel: {layer_overhead_us: 5, source: ours}\n")
    r = _estimate(tmp_path, over)
    assert r.returncode == 2 and "frameworks[0] (id vllm).architecture_overrides: unknown architecture 'blackwel' " \
        "(did you mean blackwell?)" in r.stderr


@pytest.mark.parametrize("model, hint", [("glm-4.5x", "glm-4.5"), ("GLM-4.5", "glm-4.5")])
def test_a_serving_model_not_in_the_catalog_refused(tmp_path: Path, model, hint):
    """Round 38: the overlay's list replaced the shipped [glm-4.5] and named no catalog model, so GLM-4.5 lost its
    router cost (TPOT 30.8 -> 30.2 ms at 64 sequences on 8 x H200), exit 0; a name of a model is not its id."""
    (tmp_path / "r.yaml").write_text(GLM, encoding="utf-8")
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "serving.yaml").write_text(ROUTER.format(model=model), encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--knowledge", "kb", cwd=tmp_path)
    assert (r.returncode, r.stderr.strip()) == (2, "gpuwise: kb/serving.yaml: frameworks[0] (id sglang).torch_router."
                                                   f"models: unknown model '{model}' (did you mean {hint}?)")


def test_the_shipped_serving_names_are_known():
    """The shipped serving.yaml is not walked at each load (3 ms): here instead."""
    from gpuwise.knowledge import load
    from gpuwise.knowledge.serving_names import check_serving_names

    kb = load()
    check_serving_names(kb, kb.files["serving.yaml"])


def test_an_architecture_refused_in_chinese(tmp_path: Path):
    r = _estimate(tmp_path, PADDING.format(first="0.11.1", before="0.12.0", arch="hoper"), "--lang", "zh")
    assert r.returncode == 2 and "hoper" in r.stderr and "hopper" in r.stderr and "unknown" not in r.stderr


def test_router_points_at_one_token_count_refused(tmp_path: Path):
    """Round 38: two readings at 50,000 tokens (beyond the shipped 40,000) stopped a 200,000-token prompt's prefill
    with 'internal error: ZeroDivisionError' (fusion.router_seconds' line beyond the last point)."""
    (tmp_path / "r.yaml").write_text(GLM.replace("prompt_tokens: 1000", "prompt_tokens: 200000, prefill_chunk_tokens: "
                                                 "100000").replace("concurrent_requests: 64", "concurrent_requests: 1"),
                                     encoding="utf-8")
    (tmp_path / "kb").mkdir()
    over = ROUTER.format(model="glm-4.5").replace(
        "[{tokens: 3, torch_us: 10, fused_us: 5}]",
        "[{tokens: 50000, torch_us: 1000, fused_us: 5}, {tokens: 50000, torch_us: 2000, fused_us: 6}]")
    (tmp_path / "kb" / "serving.yaml").write_text(over, encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--knowledge", "kb", cwd=tmp_path)
    assert (r.returncode, r.stderr.strip()) == (2, "gpuwise: kb/serving.yaml: frameworks[0] (id sglang).torch_router."
                                                   "points: 50000 tokens read twice: give one reading a token count")


def test_router_point_at_a_shipped_count_refused(tmp_path: Path):
    """An overlay's points are added to the shipped ones (1 to 40,000 tokens): a reading at 8 tokens is a second."""
    (tmp_path / "r.yaml").write_text(GLM, encoding="utf-8")
    (tmp_path / "kb").mkdir()
    over = ROUTER.format(model="glm-4.5").replace("tokens: 3,", "tokens: 8,")
    (tmp_path / "kb" / "serving.yaml").write_text(over, encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--knowledge", "kb", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "torch_router.points" in r.stderr and "8" in r.stderr and "read twice" not in r.stderr
