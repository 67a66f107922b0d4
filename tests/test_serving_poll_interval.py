"""A scheduler that polls for new requests every N decode steps (SGLang --scheduler-recv-interval: its
SchedulerRecvSkipper, python/sglang/srt/managers/scheduler_recv_skipper.py, adds 1 per decode iteration and 1,000
per prefill iteration and receives once the count reaches the interval) makes a prompt that arrives while others
decode wait for the next poll: N/2 decode steps on average instead of half a step, and gathers the prompts that
arrive meanwhile into one prefill batch. InferenceX's B300 DeepSeek-R1
scripts (benchmarks/single_node/fixed_seq_len/dsr1_fp8_b300.sh, dsr1_fp4_b300.sh) set 10, and 30 from concurrency
16 with TP 8; rows A03/A04 (InferenceX pull request #3175) read their mean TTFT -39 / -60% with the scheduler
polling every step."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.load import poll_wait
from tests.conftest import validation_row


def test_poll_wait_by_hand():
    """Every step (N = 1): half a step, the wait the model always charged; N = 30 with the GPUs decoding all the
    time: 15 steps; with a prefill running a quarter of the time, a request that arrives during one is taken right
    after it (half a step, as before), so 0.5 x 10 ms x (1 + 29 x 0.75) = 113.75 ms; alone on the copy the
    scheduler idles and takes the request at once."""
    assert poll_wait(1, 0.010, 0.0, 8) == pytest.approx(0.005)
    assert poll_wait(30, 0.010, 0.0, 8) == pytest.approx(0.150)
    assert poll_wait(30, 0.010, 0.25, 8) == pytest.approx(0.11375)
    assert poll_wait(30, 0.010, 0.0, 1) == 0.0


def _row(rid: str) -> dict:
    return validation_row("serving_independent.csv", rid)


def _load(kb, accuracy, row: dict, options: str):
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                               None, row["kv_precision"] or None, row["framework_version"] or None, options)
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    return s.load


def _closed_loop_tpot(pure: float, pre: float, b: int, output: int, poll: int) -> float:
    """The SGLang branch of the load model worked by hand: a request's decode meets the b - 1 others' prompts, each
    prefill batch of k prompts stops the decode for ``pre`` (the launch-bound floor for every batch here), and k is
    1 plus the arrivals (b per request time) over one prefill and the poll - 1 decode steps the scheduler does not
    look; four rounds from k = 1, as the model settles them."""
    k, tpot = 1.0, pure
    for _ in range(4):
        tpot = pure + (b - 1) / output * pre / k
        k = 1.0 + b / (output * tpot) * (pre + (poll - 1) * pure)
    return pure + (b - 1) / output * pre / k


def test_polling_every_thirty_steps_adds_its_wait_and_gathers_the_prompts(kb, accuracy):
    """A04 (DeepSeek-R1 FP8 on 8 x B300, SGLang 0.5.12, 1k/1k at concurrency 64, interval 30): the steady state's
    TTFT gains the wait for the poll, 0.5 x pure decode step x 29 x (1 - the share of time spent prefilling), over
    the same row polled every step. The prompts that arrive over the 29 decode steps the scheduler does not look are
    all waiting at its next poll and go into one prefill batch (sgl-project/sglang scheduler_recv_skipper.py and
    Scheduler.get_new_batch_prefill, the 0.5.12 wheel), so each request's decode is stopped by fewer, larger
    prefills: a lower TPOT at the same decode step. Published (InferenceX pull request #3175): TPOT 21.17 ms,
    2,855.04 output tok/s; polled every step the model read 27.9 ms and 2,275 tok/s, gathered 23.9 ms and 2,626."""
    row = _row("A04")
    assert row["workload_options"] == "scheduler_recv_interval=30"
    every, thirty = _load(kb, accuracy, row, ""), _load(kb, accuracy, row, row["workload_options"])
    assert thirty.decode_step == every.decode_step
    added = thirty.ttft - every.ttft
    # busy lies in (0, 1): the added wait is below the 14.5 steps of an always-decoding copy and above half of them
    assert 0.5 * 14.5 * every.decode_step < added < 14.5 * every.decode_step
    # by hand: the 1k-token prefill of a batch of one to three prompts is the launch-bound floor of this release
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]))
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    pre = SV.prefill_seconds(job, s.engine, s.replica, 1024.0, 512.0)
    assert SV.prefill_seconds(job, s.engine, s.replica, 3072.0, 512.0) == pre  # still the floor at three prompts
    pure, b, out = every.decode_step, 64, 1024
    assert every.tpot == pytest.approx(_closed_loop_tpot(pure, pre, b, out, 1), rel=1e-9)
    assert thirty.tpot == pytest.approx(_closed_loop_tpot(pure, pre, b, out, 30), rel=1e-9)
    assert thirty.tpot < every.tpot
    published_tpot, published_throughput = 0.02117, 2855.04
    assert abs(thirty.tpot - published_tpot) < abs(every.tpot - published_tpot)
    assert every.throughput < thirty.throughput < published_throughput


def test_one_request_alone_waits_for_no_poll(kb, accuracy):
    """A01 (the same server at concurrency 1, interval 10): no other sequence decodes, the scheduler idles between
    requests and takes the next one at once, so the interval changes nothing."""
    row = _row("A01")
    assert _load(kb, accuracy, row, row["workload_options"]) == _load(kb, accuracy, row, "")


def test_a_paced_row_sends_no_first_wave_at_once(kb, accuracy):
    """Q08 (sgl-project/sglang pull request #9770: bench_serving --request-rate 10 under --max-concurrency 256, 516
    prompts of 3,500 tokens): its client spaces the requests 0.1 s apart on average, so no 256 prompts reach the
    server together and its mean TTFT is the steady state's. The same row read as InferenceX's unpaced closed loop
    (the first 256 at once) would average 256 burst TTFTs with 260 steady ones: the burst scoring it had before."""
    row = _row("Q08")
    assert row["request_rate"] == "10"
    job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                               int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]))
    s = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))
    got = s.load
    # the steady state's, but for the first 256 sends' Poisson bunching (paced_ttft): a tenth of a percent here
    assert accuracy.run_ttft(job, s, got, row) == pytest.approx(got.ttft, rel=0.01)
    first = SV.burst_ttft(job, s.engine, s.replica, 256)
    unpaced = (256 * first + 260 * got.ttft) / 516
    assert accuracy.run_ttft(job, s, got, {**row, "request_rate": ""}) == pytest.approx(unpaced)
    assert unpaced > 5 * got.ttft  # the burst is what had put Q08's TTFT at +868%


def test_a_prefill_counts_a_thousand_steps_toward_the_interval():
    """SchedulerRecvSkipper.handle adds the weight of the last forward to its counter and polls (and resets it) once
    the counter reaches the interval: 1 for a decode step, 1,000 for a prefill (sgl-project/sglang
    python/sglang/srt/environ.py @ 21ff4b08, SGLANG_SCHEDULER_RECV_SKIPPER_WEIGHT_DEFAULT 1000 and _DECODE 1). A poll
    that takes in prompts is followed by their prefill, so an interval of at most 1,000 polls again right after it
    and then every N decode steps; a longer one N - 1,000 decode steps after the prefill: InferenceX's Qwen3.5 H100
    recipe sets 1,920 at concurrency 128 and 256, which polls every 920 decode steps, about one 1k output."""
    from gpuwise.estimators.serving.load import PREFILL_POLL_WEIGHT, poll_window
    assert PREFILL_POLL_WEIGHT == 1000
    assert [poll_window(n) for n in (1, 30, 600, 1000, 1001, 1200, 1920)] == [1, 30, 600, 1000, 1, 200, 920]


def test_qwen35_h100_long_intervals_poll_after_the_prefill(kb, accuracy):
    """SY17 / SY19 / SY20 (InferenceX pull request #1544: Qwen3.5-397B-A17B FP8 on 8 x H100, SGLang 0.5.12, 1k/1k,
    TP 8 EP 8, intervals 1,200 at concurrency 32 and 1,920 at 128 and 256): each row is priced as its interval less
    the prefill's 1,000, and the two the model read 38% and 26% slow pricing the whole interval (1,127 against
    1,814 and 3,878 against 5,266 output tok/s) come within 10% of the published figure with the DeltaNet state in
    bf16, within 12% with it in float32 as SGLang keeps it (branch qwen35state: SY17 -9.8% -> -11.2%, SY20
    -4.4% -> -10.3%; tests/test_qwen35_state.py)."""
    for rid, window in (("SY17", 200), ("SY19", 920), ("SY20", 920)):
        row = _row(rid)
        job = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                                   int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]),
                                   int(row["pp"]), int(row["ep"]), row["kv_precision"] or None,
                                   row["framework_version"] or None, row["workload_options"])
        same = accuracy.serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                                    int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]),
                                    int(row["pp"]), int(row["ep"]), row["kv_precision"] or None,
                                    row["framework_version"] or None,
                                    # the row's other settings (--disable-radix-cache, --max-running-requests 256)
                                    ";".join(f"scheduler_recv_interval={window}" if o.startswith("scheduler_recv")
                                             else o for o in row["workload_options"].split(";")))
        got = SV.choose(job, kb.gpus[row["gpu"]], int(row["count"])).load
        assert got == SV.choose(same, kb.gpus[row["gpu"]], int(row["count"])).load
        if rid != "SY19":
            assert 0.88 < got.throughput / float(row["output_tokens_per_s"]) < 1.1
