"""TensorRT-LLM's engine path: its host time a step and a sequence, bounded by published engine runs (branch
trtengine64, issue 22).

Sources (no CUDA graphs in trtllm-bench's throughput command; its latency command sets ``cuda_graphs``:
tensorrt_llm/bench/benchmark/low_latency.py):

- TensorRT-LLM docs, performance tuning guide (https://nvidia.github.io/TensorRT-LLM/performance/
  performance-tuning-guide/: tuning-max-batch-size-and-max-num-tokens.md, fp8-quantization.md), TensorRT-LLM 0.16.0
  engines of Llama 3.3 70B on 4 x H100 SXM 80GB at TP 4, 2,048 / 2,048 tokens, 1,000 requests: BF16 at max batch 512
  2,474.2581 output tok/s, at max batch 64 1,944.3031; FP8 with a BF16 KV cache 3,389.5305, with an FP8 KV cache
  5,299.6372; the latency command (batch 1, CUDA graphs) 14.6852 ms between tokens in BF16.
- TensorRT-LLM docs/source/performance/perf-overview.md at v0.13.0: Llama 3.1 8B FP8 on one H100 SXM, 128 / 128
  tokens, 27,147.22 output tok/s (tests/data/serving_published.csv S01).

The engine path keeps its constants (serving.yaml tensorrt-llm: 200 us a step, 3 us a sequence); these tests hold the
derivation that bounds them (validation README, branch trtengine64).
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# (precision, KV precision, options, published output tok/s): the guide's four tuned throughput runs
GUIDE = (("bf16", None, "max_batch_size=512;prefill_chunk_tokens=2048", 2474.2581),
         ("bf16", None, "max_batch_size=64;prefill_chunk_tokens=8192", 1944.3031),
         ("fp8", "bf16", "max_batch_size=512;prefill_chunk_tokens=2048", 3389.5305),
         ("fp8", "fp8", "max_batch_size=512;prefill_chunk_tokens=2048", 5299.6372))


def _load(model: str, precision: str, prompt: int, output: int, queued: int, count: int, kv: str | None,
          version: str, options: str = ""):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge
    from gpuwise.estimators import serving as SV

    kb = knowledge.load()
    job = accuracy.serving_job(kb, model, precision, "tensorrt-llm", prompt, output, queued, count, 1, None, kv,
                               version, options, offline=True)
    return SV.choose(job, kb.gpus["h100-80gb-sxm"], count)


@pytest.fixture(scope="module")
def guide():
    """(batch in service, gpuwise's step, the published step at that batch) of the guide's four runs."""
    out = []
    for precision, kv, options, published in GUIDE:
        got = _load("llama-3.1-70b", precision, 2048, 2048, 1000, 4, kv, "0.16", options).load
        batch = got.throughput * got.tpot  # each sequence in service gains a token a step
        out.append((batch, got.tpot, batch / published, got.throughput / published))
    return out


def test_guide_runs_within_a_fifth(guide):
    """gpuwise's engine path reads the four published 0.16 runs within 20%: -2.9% at max batch 64 (64 in service),
    +5.6% / +17.0% / +10.8% at max batch 512, where the memory holds 130 / 176 / 352."""
    ratios = [r for *_, r in guide]
    assert all(0.8 < r < 1.2 for r in ratios), ratios
    assert [round(b) for b, *_ in guide] == pytest.approx([130, 64, 176, 352], abs=3)


def test_guide_leaves_no_step_cost(guide):
    """The published step at the batch in service (batch / published tok/s) less gpuwise's, against the batch: by
    hand, (64, -0.98 ms), (130, +2.78), (176, +7.53), (352, +6.47) give a least-squares line of 23 us a sequence
    crossing zero at -0.2 ms: no host time a step beyond the 200 us is left to enter."""
    xs = [b for b, *_ in guide]
    ys = [(pub - est) * 1e3 for _, est, pub, _ in guide]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum((x - mx) ** 2 for x in xs)
    assert slope * 1e3 == pytest.approx(23, abs=4)  # us a sequence
    assert my - slope * mx == pytest.approx(-0.2, abs=0.6)  # ms a step


def test_8b_at_tp1_leaves_no_sequence_cost():
    """S01 (0.13.0, 8B FP8 on one H100, 128 / 128): 3,878 sequences in service, a 141.8 ms step, +0.8% on 27,147.22
    tok/s, so the room a sequence is step x (estimate / published - 1) / batch = +0.3 us. The 23 us of the 70B TP 4
    runs would add 3,878 x 23 us = 89.2 ms to the step: 141.8 / 231.0 = 0.614 of the throughput, -38% on the table."""
    got = _load("llama-3.1-8b", "fp8", 128, 128, 0, 1, None, "0.13.0").capacity
    batch = got.throughput * got.tpot
    room = got.tpot * (got.throughput / 27147.22 - 1) / batch
    assert batch == pytest.approx(3878, rel=0.02)
    assert abs(room) < 5e-6
    slowed = got.tpot / (got.tpot + batch * 23e-6)
    assert got.throughput * slowed / 27147.22 == pytest.approx(0.62, abs=0.02)


def test_batch1_step_by_hand_and_the_graph_gap():
    """Llama 3.3 70B BF16 at TP 4 on H100 SXM, one sequence (2,048 + 1,024 tokens of context on average): the
    weights less the input embedding, (141.107 - 2.101) GB / 4 = 34.75 GB at 0.88 x 3,350 GB/s = 11.79 ms; 80 layers
    x 50 us = 4.00 ms; 160 all-reduces x 16 us = 2.56 ms; 0.20 ms a step, 3 us a sequence; the KV cache 3,072 x 80
    x 2 x 2 heads x 128 x 2 B = 251.7 MB at the same rate, 0.085 ms: 18.64 ms. The guide's latency command, which runs
    CUDA graphs, logs 14.69 ms: the 4.0 ms between is the 80 layers' launch time, which the graphs remove."""
    got = _load("llama-3.1-70b", "bf16", 2048, 2048, 1, 4, None, "0.16").load
    hand = (139.006e9 / 4 / (0.88 * 3350e9) + 80 * 50e-6 + 160 * 16e-6 + 200e-6 + 3e-6
            + 3072 * 80 * 2 * 2 * 128 * 2 / (0.88 * 3350e9))
    assert got.tpot == pytest.approx(hand, rel=0.01)
    assert got.tpot - 14.6852e-3 == pytest.approx(80 * 50e-6, rel=0.1)
