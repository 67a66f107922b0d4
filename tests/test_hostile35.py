"""Hostile round 35's fixed failures (benchmarks/hostile_round35.py): knowledge overlays of session 35's merges
that were read as written or refused without the name the author meant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

V32 = ("workload: {task: inference, model: deepseek-v3.2-exp, framework: sglang, precision: fp8, prompt_tokens: 1000, "
       "output_tokens: 1000, concurrent_requests: 1}\n")
SGLANG = "frameworks:\n  - id: sglang\n    sparse_indexer_kernels:\n      decode: {dsa: %s}\n"
RUN = ("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json")


def _one_line(r) -> str:
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def _overlay(tmp: Path, name: str, text: str) -> None:
    (tmp / "kb").mkdir(exist_ok=True)
    (tmp / "kb" / name).write_text(text, encoding="utf-8")
    (tmp / "r.yaml").write_text(V32, encoding="utf-8")


@pytest.mark.parametrize("count", [-1, 1001, 1000000000])
def test_an_indexer_kernel_count_below_zero_or_past_a_thousand_is_refused(tmp_path: Path, count: int) -> None:
    # round 35: dsa -1 was read as minus one kernel a layer (V3.2-Exp's TPOT 9.0 -> 7.1 ms on 8 x H200), 1e9 priced
    # a token at 122,000 s; the count read in SGLang's nsa_indexer.py is 15
    _overlay(tmp_path, "serving.yaml", SGLANG % count)
    err = _one_line(gpuwise(*RUN, "--knowledge", "kb", cwd=tmp_path))
    assert "kb/serving.yaml" in err and "sparse_indexer_kernels.decode.dsa" in err, err


def test_a_recurrent_mixer_kernel_count_below_zero_is_refused(tmp_path: Path) -> None:
    _overlay(tmp_path, "serving.yaml", "frameworks:\n  - id: vllm\n    recurrent_mixer_kernels:\n"
             "      decode: {mamba2: -3}\n      as_of: '2026-04'\n      source: ours\n")
    err = _one_line(gpuwise(*RUN, "--knowledge", "kb", cwd=tmp_path))
    assert "recurrent_mixer_kernels.decode.mamba2" in err, err


def test_an_indexer_without_kernels_costs_less_than_sglangs_fifteen(tmp_path: Path) -> None:
    # 0 stays allowed (an indexer fused into the attention kernel): the step is shorter by 15 x 61 layers x the
    # kernel floor, never negative
    _overlay(tmp_path, "serving.yaml", SGLANG % 0)
    zero = json.loads(gpuwise(*RUN, "--knowledge", "kb", cwd=tmp_path).stdout)["gpu"]["serving"]["tpot_s"]
    built_in = json.loads(gpuwise(*RUN, cwd=tmp_path).stdout)["gpu"]["serving"]["tpot_s"]
    assert 0 < zero < built_in


def test_a_misspelt_key_under_a_mapping_of_sections_is_offered_its_close_match(tmp_path: Path) -> None:
    # round 35: vendor_overrides maps a vendor to its section, so the walk to the keys valid there stopped at
    # 'nvidia' (no such field) and 'compiled_norm_from: unknown key' came with no hint
    _overlay(tmp_path, "serving.yaml", "frameworks:\n  - id: vllm\n    vendor_overrides:\n      nvidia:\n"
             "        compiled_norm_from: '0.8.0'\n")
    err = _one_line(gpuwise(*RUN, "--knowledge", "kb", cwd=tmp_path))
    assert err.rstrip().endswith("vendor_overrides.nvidia.compiled_norm_from: unknown key (did you mean "
                                 "'compiled_norms_from'?)"), err


@pytest.mark.parametrize(("written", "meant"), [("h20-96gb", "h20-96gb-sxm"), ("h200", "h200-141gb-sxm"),
                                                ("H20", "h20-96gb-sxm")])
def test_a_gpu_excluded_by_a_name_that_is_no_id_is_offered_the_id(tmp_path: Path, written: str, meant: str) -> None:
    # round 35: 'unknown gpu' came with no hint (plain spelling would offer gh200-96gb for h20-96gb and b200 for
    # h200); and the entry was named by its place in the merged list (frameworks[1] ... releases[6]), not the
    # overlay's own [0] and [0]
    _overlay(tmp_path, "serving.yaml", "frameworks:\n  - id: sglang\n    fused_kernel_models:\n      releases:\n"
             f"        - {{since: '0.5.15', models: [deepseek-r1], gpus_excluded: [{written}]}}\n")
    err = _one_line(gpuwise(*RUN, "--knowledge", "kb", cwd=tmp_path))
    assert err.rstrip().endswith(f"kb/serving.yaml: frameworks[0] (id sglang).fused_kernel_models.releases[0]"
                                 f".gpus_excluded: unknown gpu '{written}' (did you mean {meant}?)"), err


def test_a_plan_rented_only_says_the_host_ram_not_that_no_cloud_rents_the_gpu(tmp_path: Path) -> None:
    # round 35: 70.55e9 params x 16 B / 0.8 = 1,411 GB of offloaded state per server; a rented 4090 server holds
    # 62 GB a GPU (runtime.yaml rented_host_ram.per_gpu_gb consumer), 496 GB for RunPod's 8, and no offer rents 16,
    # so the plan's reason was 'no cloud in the knowledge base rents NVIDIA GeForce RTX 4090 24GB'
    ft = ("{task: finetune, method: full, precision: bf16, seq_len: 2048, zero_stage: 3, offload: cpu, "
          "train_tokens: 2.0e7, gradient_checkpointing: true, model: %s}")
    plan = ("horizon_months: 3\nconstraints: {acquisition: rent, gpus: [rtx-4090]}\n"
            "workloads: [{name: ft, workload: %s, cadence: {at_month: 1}}]\n")
    (tmp_path / "plan.yaml").write_text(plan % (ft % "llama-3.1-70b"), encoding="utf-8")
    d = json.loads(gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path).stdout)
    assert not d["options"] and "MEM-HOST-RAM-SHORT" in d["workloads"][0]["why_not"]["rtx-4090"], d["workloads"]
    # the 8B's 8.03e9 x 16 / 0.8 = 161 GB: 4 x 62 = 248 GB holds it, 2 x 62 = 124 does not
    (tmp_path / "plan.yaml").write_text(plan % (ft % "llama-3.1-8b"), encoding="utf-8")
    d = json.loads(gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path).stdout)
    assert [(o["gpu"], o["count"]) for o in d["options"]] == [("rtx-4090", 4)]
