"""A step carries every running decode and at most its token budget of prompts (max_num_batched_tokens). vLLM V1's
scheduler schedules the running requests' decode tokens first and fills what is left of the budget with waiting
prompts (vllm/v1/core/sched/scheduler.py; docs.vllm.ai, 'Optimization and Tuning': 'it batches all pending decode
requests before scheduling any prefill operations'), so a decode token waits for one step, never for more than one
step's prompts. Where a closed loop's prompts need more than the budget leaves, the scheduler keeps the batch whose
prompts just fill it and the other requests wait for the budget (Little's law), so the throughput saturates rather
than falls. The figures below are checked by hand against the model's own step."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.load import budget_batch
from gpuwise.estimators.serving.step import consts, per_token


def _point(kb, accuracy, gpu: str, prompt: int, output: int, conc: int):
    job = accuracy.serving_job(kb, "qwen3-32b", "bf16", "vllm", prompt, output, conc, 1, 1, None, None, "0.11.0")
    s = SV.choose(job, kb.gpus[gpu], 1)
    return job, s, SV.point(job, s.engine, s.replica, float(conc))


def test_the_batch_whose_prompts_fill_the_budget_by_hand():
    """Each step the b - 1 other requests' prompts arrive at (b - 1) / output a step and the budget leaves room for
    (budget - b) / prompt: equal at b = (output x budget + prompt) / (prompt + output). 128-token prompts with
    4-token outputs under 8,192 tokens: (4 x 8,192 + 128) / 132 = 249.2 sequences; 2,048 tokens: 63.0; a loop
    below that keeps its own batch."""
    assert budget_batch(8192, 128, 4, 1.0, 1000) == pytest.approx((4 * 8192 + 128) / 132)
    assert budget_batch(8192, 128, 4, 1.0, 1000) == pytest.approx(249.212, rel=1e-5)
    assert budget_batch(2048, 128, 4, 1.0, 1000) == pytest.approx(63.03, rel=1e-3)
    assert budget_batch(8192, 128, 4, 1.0, 100) == 100
    assert budget_batch(8192, 1000, 200, 1.0, 16) == 16


def test_a_decode_step_carries_one_budget_of_prompts_at_most(kb, accuracy):
    """GPUStack's short-prompt burst (TT05: Qwen3-32B BF16 on one H100, vLLM 0.11.0, 1,000 prompts of 128 in / 4 out):
    the 4-token outputs would put ~1,000 / 4 prompts on every decode step, 3.9 budgets of 8,192 tokens. The copy
    decodes at most the 249.2 sequences whose prompts fill the budget; vLLM's own pool (gpu_memory_utilization 0.9
    of the 81,559 MiB, less 65.5 GB of weights, the context and the start-up profile's sampler pass, 37.7 B x
    151,936 x 1,024 = 5.87 GB, the larger of it and the working set: serving.yaml vllm profile_sampler; 4.39 GB)
    holds 116 of 144 tokens' blocks at 256 KiB, fewer, so 116 run and each step carries the 115 / 4 x 128 = 3,680
    prompt tokens the others bring, under the budget: 0.519 s, where the run logs a 1,169.72 ms mean TPOT (-56%;
    before the sampler's peak was counted the 8.0 GB pool held 213 at 0.935 s, -20%). The rest is not this step:
    each request is admitted on its prompt's 8 blocks and needs a ninth at its first output token, which a full
    pool gives only by preempting a running request and recomputing it later (vLLM V1's scheduler, RECOMPUTE
    preemption), which gpuwise does not price: the run's TPOT is 2.26 times the step."""
    job, s, p = _point(kb, accuracy, "h100-80gb-sxm", 128, 4, 1000)
    c = consts(job, s.engine, s.replica)
    budget_run = (4 * 8192 + 128) / 132
    run = s.replica.max_seqs
    assert s.engine.chunk == 8192 and run == 116 < budget_run and s.replica.pool_kind == "total"
    carried = (run - 1) / 4 * 128
    assert carried < 8192 - run
    assert p.tpot == pytest.approx(per_token(c, run, 128 + 4 / 2, carried, 128 - 128 / 2), rel=1e-6)
    assert p.tpot == pytest.approx(0.519, rel=0.01)
    assert 1.1697 / p.tpot == pytest.approx(2.26, abs=0.02)


def test_the_loop_waits_for_the_budget_and_saturates(kb, accuracy):
    """The same loop at 1,000 and 2,000 requests: the same batch runs, so the throughput is the same, and the requests
    beyond it wait for the budget: a request's whole life is 1,000 (2,000) over the batch's request rate."""
    job, s, p = _point(kb, accuracy, "h100-80gb-sxm", 128, 4, 1000)
    run = (4 * 8192 + 128) / 132
    small = SV.point(job, s.engine, s.replica, run)
    rate = small.throughput / 4  # requests a second of the batch that fills the budget
    assert p.throughput == pytest.approx(small.throughput, rel=1e-9)
    assert p.ttft + 4 * p.tpot == pytest.approx(1000 / rate, rel=1e-6)
    more = SV.point(job, s.engine, s.replica, 2000.0)
    assert more.throughput == pytest.approx(p.throughput, rel=1e-9)
    assert more.ttft + 4 * more.tpot == pytest.approx(2000 / rate, rel=1e-6)


def test_below_the_budget_nothing_changes(kb, accuracy):
    """A loop whose prompts fit the budget (Qwen3-32B on one H100, 1,000 in / 200 out at 16: 15 / 200 prompts a decode
    step against 7 a budget) keeps the TPOT of a step carrying its share of the prompts, below a full step."""
    job, s, p = _point(kb, accuracy, "h100-80gb-sxm", 1000, 200, 16)
    c = consts(job, s.engine, s.replica)
    full = per_token(c, 16, 1000 + 200 / 2, 8192 - 16, 1000 - 1000 / 2)
    assert p.decode_step < p.tpot < full
