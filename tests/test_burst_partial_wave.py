"""A batch started together that the KV pool holds in waves: the last wave is what is left, and each wave's last
prompt chunk is the tokens left, not full ones.

vLLM's V1 scheduler (vllm/v1/core/sched/scheduler.py, schedule(): the running requests first, then the waiting queue
in order while the KV cache manager finds blocks for them, each given min(its tokens left, the step's budget left))
admits a burst's requests while the pool has room; requests of one length admitted together end together and free
the pool for the next ones, so 500 requests at a copy that holds 170 run as 170 + 170 + 160, and a wave's 170 x
1,999 prompt tokens go in 41 steps of the 8,192-token budget and one of the 3,958 left. The harness priced every
wave as a full one and every wave's last chunk as a full budget, which made a smaller pool read faster where it
cut the burst into as many waves (3 x a 170-request wave is cheaper than 3 x a 205-request one, though both runs
have the same prefill tokens and decode steps). Row Z14 (GPUStack performance lab, GLM-4.5-Air BF16 on 4 x H100
SXM, vLLM 0.11.0 TP 4, 500 prompts of 1,999 / 100 tokens sent at once).
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _z14(kb, accuracy, options: str = ""):
    job = accuracy.serving_job(kb, "glm-4.5-air", "bf16", "vllm", 1999, 100, 500, 4, 1, options=options)
    return job, SV.choose(job, kb.gpus["h100-80gb-sxm"], 4)


def _wave(job, s, k: int) -> float:
    """A wave of k requests: its prompts' prefill (to the last of them), then 100 decode steps at its batch."""
    return SV.burst_last_ttft(job, s.engine, s.replica, k) + 100 * SV.burst_decode_step(job, s.engine, s.replica, k)


def test_the_last_wave_is_what_is_left(kb, accuracy):
    """vLLM's pool at its default utilization 0.9 holds 170 Z14 sequences a copy (16.56 GB of KV at 47,104 B a token
    a GPU: 46 layers x 2 x 2 KV heads a rank x 128 x 2 B; 2,048 tokens a sequence in blocks of 16): 500 = 170 + 170 +
    160, the run two full waves and one of 160; the front end's 7.6 s for all 500 requests is shorter."""
    job, s = _z14(kb, accuracy)
    assert s.layout.replicas == 1 and s.replica.max_seqs == 170
    assert s.replica.kv_token_gpu == 46 * 2 * 2 * 128 * 2
    assert accuracy.wave_sizes(500, 170, True) == [170, 170, 160]
    assert accuracy.burst_waves(job, s, 500, 170, 100) == pytest.approx([_wave(job, s, 170)] * 2 + [_wave(job, s, 160)])
    run = 2 * _wave(job, s, 170) + _wave(job, s, 160)
    assert run > SV.burst_seconds(job, s.engine, 500)
    assert accuracy.batch_throughput(job, s, 500, 100) == pytest.approx(500 * 100 / run, rel=1e-12)


def test_a_waves_last_chunk_is_the_tokens_left(kb, accuracy):
    """170 x 1,999 = 339,830 prompt tokens: 41 chunks of 8,192 (335,872) and one of 3,958, each priced at its own
    tokens at the prompts' mean position (1,999 / 2); the mean first token likewise: request i's comes with chunk
    ceil((i + 1) x 1,999 / 8,192)."""
    import math

    job, s = _z14(kb, accuracy)
    assert s.engine.chunk == 8192
    full = SV.prefill_seconds(job, s.engine, s.replica, 8192.0, 1999 - 1999 / 2)
    tail = SV.prefill_seconds(job, s.engine, s.replica, 3958.0, 1999 - 1999 / 2)
    assert 170 * 1999 == 41 * 8192 + 3958 and tail < 0.6 * full
    assert SV.burst_last_ttft(job, s.engine, s.replica, 170) == pytest.approx(41 * full + tail, rel=1e-12)
    ends = [math.ceil((i + 1) * 1999 / 8192) for i in range(170)]
    mean = sum((k - 1) * full + (tail if k == 42 else full) for k in ends) / 170
    assert max(ends) == 42 and SV.burst_ttft(job, s.engine, s.replica, 170) == pytest.approx(mean, rel=1e-12)


def test_a_larger_pool_in_as_many_waves_reads_the_same(kb, accuracy):
    """At a stated memory_fraction of 0.94 the pool holds 205 (500 = 205 + 205 + 90): the same three waves, the same
    500 x 1,999 prompt tokens and 300 decode steps, split into batches less even, so the run is within 0.5% of the
    default pool's (1,414.9 against 1,417.5 tok/s). Priced as three full waves, each with a full last chunk, it read
    1,201 against 1,396: the larger pool 14% slower. At 0.88 the pool holds 152 and the burst takes four waves (400
    decode steps): slower than both."""
    job, s = _z14(kb, accuracy)
    big_job, big = _z14(kb, accuracy, "memory_fraction=0.94")
    small_job, small = _z14(kb, accuracy, "memory_fraction=0.88")
    assert (s.replica.max_seqs, big.replica.max_seqs, small.replica.max_seqs) == (170, 205, 152)
    assert accuracy.wave_sizes(500, 205, True) == [205, 205, 90]
    assert accuracy.wave_sizes(500, 152, True) == [152, 152, 152, 44]
    default = accuracy.batch_throughput(job, s, 500, 100)
    larger = accuracy.batch_throughput(big_job, big, 500, 100)
    smaller = accuracy.batch_throughput(small_job, small, 500, 100)
    assert larger == pytest.approx(default, rel=0.005)
    assert smaller < 0.95 * min(default, larger)
