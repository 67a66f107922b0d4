"""A closed loop's new request is sent as another request's response ends, at the end of a step, and the engine
takes new requests only between steps (vLLM's EngineCore ``run_busy_loop``: ``_process_input_queue`` then one engine
step, vllm/v1/engine/core.py; SGLang's event loop: receive, then run a batch), so the request waits the whole step
that has just begun without it, not the half step of a request that arrives at a random instant. The benchmark
clients send a request once a --max-concurrency slot frees (vllm bench serve and sglang bench_serving:
``limited_request_func``, ``async with semaphore``). Figures checked by hand against the model's own step and
against NVIDIA's published NIM table (tests/data/serving_published.csv S36/S37)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, per_token


def test_the_other_half_step_by_hand():
    """Half the step the request meets, where another request is running; none alone on the copy (the engine is idle
    and takes the request at once)."""
    assert SV.sent_on_completion(0.040, 16) == pytest.approx(0.020)
    assert SV.sent_on_completion(0.0597, 50.0) == pytest.approx(0.02985)
    assert SV.sent_on_completion(0.040, 1.0) == 0.0
    assert SV.sent_on_completion(0.040, 0.5) == 0.0


def _nim(kb, accuracy, conc: int):
    job = accuracy.serving_job(kb, "llama-3.1-70b", "fp8", "tensorrt-llm", 5000, 500, conc, 2, 1)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 2)
    return job, s


def _carry(job, s, b: float) -> float:
    """The step that carries a request's own prompt beside the b - 1 others' decodes (load.py's mixed branch): one
    chunk of 5,000 tokens (the 8,192-token step budget less the b running sequences leaves room for it), the KV cache
    at the prompt and half the output, the chunk's attention over half the prompt; at least the eager launch floor
    where the framework runs prompt steps outside CUDA graphs."""
    c = consts(job, s.engine, s.replica)
    floor = c.prefill_floor if s.engine.eager_kernel else 0.0
    return max(per_token(c, b - 1, 5000 + 500 / 2, 5000.0, 5000 - 5000 / 2), floor)


def test_nim_at_50_rebuilt_from_its_terms(kb, accuracy):
    """NVIDIA NIM (TensorRT-LLM), Llama-3.3-70B FP8 TP2 on 2 x H100, 5,000 in / 500 out at 50 concurrent requests
    (docs.nvidia.com/nim/benchmarking/llm/latest/performance.html; serving_published.csv S37: mean TTFT 834.51 ms,
    ITL 59.73 ms). TTFT = the step that carries its prompt + the wait for the step budget (half a step in flight and
    the M/D/1 queue, ``queued``) + the other half of the step it was sent into + the step the overlap scheduler had
    already scheduled behind that one (TensorRT-LLM's PyTorch backend, no release stated: serving.yaml
    scheduled_ahead). The model read 753.6 ms (-9.7%) with the half step alone, 786.8 ms (-5.7%) with the whole
    step, 853.3 ms (+2.2%) with the step scheduled ahead."""
    job, s = _nim(kb, accuracy, 50)
    assert s.engine.chunk - 50 >= 5000 and s.replica.max_seqs >= 50
    assert SV.scheduled_ahead(job, s.engine)
    p = SV.point(job, s.engine, s.replica, 50.0)
    want = _carry(job, s, 50.0) + p.queued + 0.5 * p.tpot + p.tpot
    assert p.ttft == pytest.approx(want, rel=1e-9)
    assert p.ttft * 1e3 == pytest.approx(834.51, rel=0.05)
    assert (p.ttft - 1.5 * p.tpot) * 1e3 < 834.51 * 0.92  # the half step alone reads more than 8% fast
    lat = []
    accuracy.serving_cases(kb, accuracy.SERVING, latency=lat)
    got = {label.split()[0] + label.split()[-1]: est for label, est, _ in lat}
    assert got["S37TTFT"] == pytest.approx(p.ttft * 1e3, rel=1e-9)


def test_one_request_alone_and_a_stream_of_arrivals_have_no_such_term(kb, accuracy):
    """At concurrency 1 the engine is idle when the request comes (S36: TTFT 406.77 ms published, no other request to
    wait for); the request-rate model's independent arrivals meet steps at random instants (rate.residual prices the
    step in flight there), so its points carry the half step of ``budget_wait`` only. The model reads 4.4% under it
    since TensorRT-LLM's Hopper FP8 dense GEMMs are priced by their depth (serving.yaml fp8_large_batch: the 70B's
    prompt forward at TP 2 1.053 x the rate the 8B was read at; -0.4% before; validation README, branch capacity56)."""
    job, s = _nim(kb, accuracy, 1)
    one = SV.point(job, s.engine, s.replica, 1.0)
    assert one.queued == 0.0
    assert one.ttft == pytest.approx(_carry(job, s, 1.0), rel=1e-9)
    assert one.ttft * 1e3 == pytest.approx(406.77, rel=0.05)
    job, s = _nim(kb, accuracy, 50)
    opened = SV.point(job, s.engine, s.replica, 50.0, open_loop=True)
    # its prompt's step carries the decodes of the others of the 50 in service past their first token (load._open)
    share = 500 * opened.tpot / (opened.ttft + 500 * opened.tpot)
    assert 0.9 < share < 1.0
    assert opened.ttft == pytest.approx(_carry(job, s, 1.0 + 49.0 * share) + opened.queued, rel=1e-6)


def test_sglang_separate_prefills_wait_the_decode_step(kb, accuracy, monkeypatch):
    """SGLang without mixed chunks (prefill batches run alone): a request sent as another ends meets a decode step
    as it begins, so beside the half step ``poll_wait`` counts it waits the other half, for the share of the time
    the GPUs decode (1 - busy). The busy share follows from the point's own figures: each prefill pauses the b - 1
    others' decoding, TPOT = decode step + (b - 1) / output x (prefill time a request), and the copy prefills b /
    (output x TPOT) requests a second, so busy = b / (b - 1) x (1 - step / TPOT). GPUStack's Qwen3-8B page (Z17:
    SGLang on one H100, ShareGPT 233 in / 221 out at 4)."""
    from gpuwise.estimators.serving import load

    def at(off: bool):
        if off:
            monkeypatch.setattr(load, "sent_on_completion", lambda step_s, running: 0.0)
        job = accuracy.serving_job(kb, "qwen3-8b", "bf16", "sglang", 233, 221, 4, 1, 1)
        s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
        assert not s.engine.fw.mixed_prefill
        return SV.point(job, s.engine, s.replica, 4.0)

    p, q = at(False), at(True)
    assert (p.tpot, p.decode_step) == (q.tpot, q.decode_step)
    busy = min(4 / 3 * (1 - p.decode_step / p.tpot), 1.0)
    assert 0.0 < busy < 1.0
    assert p.ttft - q.ttft == pytest.approx(0.5 * p.decode_step * (1 - busy), rel=1e-6)
