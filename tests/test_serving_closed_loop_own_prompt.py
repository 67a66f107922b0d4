"""A request's own prompt is prefilled before its first token (its TTFT); the decode steps after it carry only the
prompts of the requests that arrive meanwhile. In a closed loop of c requests (a benchmark's --max-concurrency) a new
request arrives only when one of the others ends, so a request's decode meets c - 1 requests' prompts; with
independent arrivals (the request-rate model) they come at the stream's rate whatever the request's own presence.
Published: Qwen2.5-72B BF16 on 2 x H100 with vLLM at concurrency 1 (tenstorrent/tt-inference-server issue #143,
validation rows A14-A17): TPOT 30.9 / 31.0 / 31.1 / 31.3 ms at 128 / 2,048 / 4,096 / 8,192 prompt tokens, flat; the
model had charged each request its own prompt's prefill again over its 128 output tokens (+9 ms at 8,192)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


def _copy(kb, prompt: int, conc: int):
    job = job_of(kb, model="qwen2.5-72b", precision="bf16", framework="vllm", prompt_tokens=prompt, output_tokens=128,
                 concurrent_requests=conc, parallelism={"tp": 2, "pp": 1})
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 2)
    return job, s


def test_alone_a_request_decodes_at_the_decode_step(kb):
    """Concurrency 1: nothing arrives while it decodes, so TPOT is the decode step exactly, whatever the prompt,
    and the request lasts its prefill plus 128 such steps."""
    for prompt in (128, 8192):
        job, s = _copy(kb, prompt, 1)
        p = SV.point(job, s.engine, s.replica, 1.0)
        assert p.tpot == p.decode_step
        assert p.throughput == pytest.approx(128 / (p.ttft + 128 * p.tpot), rel=1e-12)
    # the published TPOT is flat in the prompt; the model's decode step grows only by the KV it reads
    job, s = _copy(kb, 8192, 1)
    assert SV.point(job, s.engine, s.replica, 1.0).tpot == pytest.approx(0.0313, rel=0.15)


def test_a_closed_loop_meets_the_others_prompts_an_open_stream_all(kb):
    """vLLM (mixed steps): TPOT = pure + a x m / k x (step with the chunk - pure), a = b / output x n chunks a step;
    m = (b - 1) / b in a closed loop, 1 in the open one. At b = 2, the sequences of 4,096 + 64 tokens vLLM's pool holds
    beside 72.7 GB of BF16 weights a GPU (gpu_memory_utilization 0.9 of 85.52 GB: 1.82 GB of KV at 163,840 B a
    token), 4,096-token prompts in one chunk each (room 8,190), k = 1: with both decoding, the open loop's added time
    is exactly twice the closed loop's. The open stream's step decodes a request and the other only for its share of
    the time past its first token, 128 TPOT / (TTFT + 128 TPOT) (Little's law on each phase: load._open; branch
    pcieep59); a closed loop's request is sent as another ends, so both of its 2 decode."""
    from gpuwise.estimators.serving import load
    from gpuwise.estimators.serving.step import consts, per_token

    job, s = _copy(kb, 4096, 2)
    eng, rep = s.engine, s.replica
    assert rep.max_seqs == 2
    c = consts(job, eng, rep)
    closed = SV.point(job, eng, rep, 2.0)
    opened = SV.point(job, eng, rep, 2.0, open_loop=True)
    pure = closed.decode_step
    assert pure == per_token(c, 2.0, 4096 + 64)
    both = load._timed(job, eng, rep, 2.0, c, True)  # the open stream's point with both decoding
    assert both.decode_step == pure
    assert (both.tpot - pure) == pytest.approx((closed.tpot - pure) * 2, rel=1e-9)
    assert both.tpot > closed.tpot  # (the TTFTs differ by the step-budget queue, which follows the TPOT)
    share = 128 * opened.tpot / (opened.ttft + 128 * opened.tpot)
    assert 0.5 < share < 1.0
    assert opened.decode_step == pytest.approx(per_token(c, 1.0 + share, 4096 + 64), rel=1e-6)
    assert opened.decode_step < pure
