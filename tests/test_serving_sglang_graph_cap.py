"""SGLang replays a decode step from a CUDA graph only for batches up to the largest it captured (--cuda-graph-max-bs;
cuda_graph_runner.py); a larger decode batch runs its forward eagerly, every kernel launched from Python as in a
prefill forward. The cap by release (knowledge/serving.yaml sglang releases): 160 on GPUs of 25 GB or more in the
early-0.4 builds (0.4.0 entry, `cuda_graph_max_bs`: server_args.py of those builds), 256 in 0.4.6-0.5.2 (0.4.6 entry:
sgl-project/sglang pull request #5893, Apr 2025, 'we recently increased the CUDA graph capture batch size from 160 to
256 for GPUs with more than 80 GB of memory'), from 0.5.3 the memory bucket's (`reserved_memory`: 256 below TP 4 and
512 from it on 80-160 GiB cards). The eager forward is priced by the framework's prefill_eager_kernel_us (85 us a
counted kernel)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.layout import graph_batch_cap
from gpuwise.estimators.serving.step import kernels_per_forward
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _served(kb, version: str | None, model: str = "deepseek-v3", precision: str = "fp8",
            gpu: str = "h200-141gb-sxm", count: int = 8, tp: int = 8):
    w = {"task": "inference", "model": model, "precision": precision, "framework": "sglang",
         "prompt_tokens": 1, "output_tokens": 512, "concurrent_requests": 10000, "parallelism": {"tp": tp, "pp": 1}}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    return job, SV.choose(job, kb.gpus[gpu], count)


def test_the_cap_by_release(kb):
    """160 in the early-0.4 builds; 256 in 0.4.6-0.5.2 (pull request #5893's capture list for a GPU above 80 GB); from
    0.5.3 the bucket's: 512 for an H200 server at TP 8, 256 for one H100 at TP 1."""
    assert graph_batch_cap(_served(kb, "0.4.3.post2")[1].engine, 8) == 160
    assert graph_batch_cap(_served(kb, "0.4.6")[1].engine, 8) == 256
    assert graph_batch_cap(_served(kb, "0.5.2")[1].engine, 8) == 256
    assert graph_batch_cap(_served(kb, "0.5.6")[1].engine, 8) == 512
    one = _served(kb, "0.5.5.post1", "qwen3-32b", "bf16", "h100-80gb-sxm", 1, 1)[1]
    assert graph_batch_cap(one.engine, 1) == 256


def test_a_decode_batch_beyond_the_cap_runs_eagerly(kb):
    """DeepSeek-V3 FP8 at TP 8 on 8 x H200 with SGLang 0.4.3.post2 (DataCrunch's server of rows DS01-DS07): a forward
    counts 2,102 kernels (step.py, the shared expert unfused in these builds), so an eager step lasts at least
    2,102 x 85 us + the 0.3 ms step overhead = 178.97 ms. At 160 sequences the graphed step is ~65 ms (its routed
    rows, 160 x 2 x 20.43 B / 8 = 817 GFLOP a GPU, at these builds' block-FP8 fused-MoE rate of 64 TFLOP/s take
    12.8 ms: serving.yaml sglang 0.4.0 `block_fp8_moe_tflops`); at 161 it is the eager forward's."""
    job, s = _served(kb, "0.4.3.post2")
    assert kernels_per_forward(s.engine) == 2102
    floor = 2102 * 85e-6 + 300e-6
    inside = SV.point(job, s.engine, s.replica, 160.0).decode_step
    beyond = SV.point(job, s.engine, s.replica, 161.0).decode_step
    assert inside < 0.07
    assert beyond == pytest.approx(floor, rel=1e-9)
    # 0.4.6 captures up to 256: the same batch keeps its graphed step there, and 257 runs eagerly, its forward
    # counting 1,928 kernels (the shared expert fused from 0.4.6 on): 1,928 x 85 us + 0.3 ms = 164.18 ms
    job6, s6 = _served(kb, "0.4.6")
    assert kernels_per_forward(s6.engine) == 1928
    assert SV.point(job6, s6.engine, s6.replica, 161.0).decode_step < 0.06
    assert SV.point(job6, s6.engine, s6.replica, 256.0).decode_step < 0.06
    assert SV.point(job6, s6.engine, s6.replica, 257.0).decode_step == pytest.approx(1928 * 85e-6 + 300e-6, rel=1e-9)


def test_the_decode_burst_it_moved(kb, accuracy):
    """DataCrunch's 'DeepSeek V3 SGLang Optimizations' (v0.4.3.post2, 8 x H200, --tp 8): 10,000 prompts of 1 in / 512
    out at once, 5,507.9 output tok/s (serving_independent.csv DS02). Scored blind at +34.2% (session 21), +115.9%
    after the KV pool and the burst waves; with the eager decode beyond 160 sequences +68.7%: held within 2x. The
    run's own request rate (10.76/s, 5,509 tok/s) is about what ~1,000 sequences at the 179 ms eager step give."""
    got = {c[0].split()[0]: c[1] / c[2] for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
           if c[0].split()[0] == "DS02"}
    assert 1.0 < got["DS02"] < 2.0


def test_the_rate_run_it_moved(kb, accuracy):
    """SGLang's attention-backend benchmark (benchmark/attention_backend/NVIDIA_H200.md at 0c4ec4f9, the numbers pull
    request #6168 prints, May 2025: 0.4.6-era main): DeepSeek-V3 FP8 at TP 8 on 8 x H200, bench_serving at 16
    requests/s over 200 prompts of random 1k/1k, 2,268.68 output tok/s (serving_rate.csv GH01). The copies cannot
    keep up, so the rate model serves what a full scheduler does. Blind (version blank: the newest release's
    constants) +79.1%; with the row's 0.4.6 and no cap a full scheduler's 1,050 sequences ran graphed (+109%); with the
    decode beyond 256 sequences eager their step is 332 ms, 3,160.6 tok/s, +39.3%. Held below 1.5x."""
    got = {c[0].split()[0]: c[1] / c[2] for c in accuracy.rate_cases(kb) if c[0].startswith("GH01 ")}
    assert 1.2 < got["GH01"] < 1.5


def test_a_dp_attention_server_of_the_early_builds_caps_the_whole_servers_batch(kb):
    """DeepSeek-V3 FP8 on 8 x H200 with SGLang 0.4.1, DP attention 8 and the experts tensor-parallel over the
    gathered tokens (DataCrunch's server of rows GH13-GH16). These builds replay a DP-attention decode from a CUDA
    graph only while the whole server's batch fits the cap, not each rank's: cuda_graph_runner.py compared the sum of
    the ranks' tokens (global_num_tokens) with max_bs (sgl-project/sglang issue #5527, pull request #4390) until the
    per-rank design of pull request #8278 (Jul 2025). So 160 sequences in all (20 a rank) keep the graphed step and
    161 run the eager forward: 2,102 kernels x 85 us + 0.3 ms = 178.97 ms. Before, gpuwise applied the cap to
    tensor-parallel servers only and priced 161-1,000 sequences as graphed steps. (The graphed step at 160 is ~67 ms,
    its experts over the 160 gathered tokens at these builds' 64 TFLOP/s block-FP8 fused-MoE rate.)"""
    w = {"task": "inference", "model": "deepseek-v3", "precision": "fp8", "framework": "sglang",
         "framework_version": "0.4.1", "prompt_tokens": 1, "output_tokens": 512, "concurrent_requests": 10000,
         "parallelism": {"tp": 1, "pp": 1, "ep": 8}}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.replica.layout.dp_attention == 8 and s.engine.dpa_tp_experts
    assert graph_batch_cap(s.engine, s.replica.layout.tp) == 160
    assert SV.point(job, s.engine, s.replica, 160.0).decode_step < 0.07
    assert SV.point(job, s.engine, s.replica, 161.0).decode_step == pytest.approx(2102 * 85e-6 + 300e-6, rel=1e-9)
