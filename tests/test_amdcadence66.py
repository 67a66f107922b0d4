"""AMD's prefill-admission cadence (branch amdcadence66): ``workload.prefill_admission_steps`` /
``prefill_admission_floor``, the request-rate model's :func:`gpuwise.estimators.serving.rate.cadence`, and the MLPerf
v6.0 rows whose harness configs state it.

The mechanism is AMD's MLPerf v6.0 vLLM patch (gbeezybez/inference_results_v6.0 at ab33b214,
closed/AMD/setup/llama2-70b-99/patches/llama2-70b_vllm_gfx950.patch, vllm/v1/core/sched/scheduler.py): the WAITING
loop breaks while ``max_decode_step and current_step != 0 and len(running) >= min_request_for_decode``; after every
schedule the counter resets once it reaches ``max_decode_step``, else adds one. So with S = VLLM_SUBSEQUENT_DECODE_STEPS
prompts enter one schedule in S + 1, and one taken in at schedule j of the cycle (j = 0..S, each as likely) waits
S + 1 - j more steps (none at j = 0): mean (1 + 2 + ... + S) / (S + 1) = S / 2 steps."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import pytest

from benchmarks.accuracy_serving import RATE, rate_row_served
from gpuwise.estimators.serving import rate as RT

from .clirun import gpuwise

SERVE = "task: inference, model: llama-3.1-8b, prompt_tokens: 1000, output_tokens: 200"


def _row(rid: str) -> dict:
    with open(RATE, newline="") as fh:
        return next(r for r in csv.DictReader(fh) if r["id"] == rid)


def _options(row: dict) -> dict:
    return dict(o.split("=", 1) for o in row["workload_options"].split(";") if o)


def test_the_cycles_mean_and_p95_by_hand():
    """S = 6 (AMD's interactive_mi355x.yaml), no floor, a busy copy (206.6 in service: e^-206.6 is nothing): the
    discrete uniform on 0..6 steps, mean 21 / 7 = 3 steps; its p95 with each count's chance (1/7) spread over the unit
    below it: the CDF reaches 6/7 = 0.857 at 5 and 0.95 at 5 + (0.95 - 6/7) x 7 = 5.65 steps. At 17.9 ms a step:
    53.7 ms and 101.1 ms."""
    mean, p95 = RT.cadence(6, 0, 206.6, 0.0179)
    assert mean == pytest.approx(3 * 0.0179, rel=1e-12)
    assert p95 == pytest.approx(5.65 * 0.0179, rel=1e-9)
    assert RT.cadence(2, 0, 50.0, 0.05) == pytest.approx((0.05, (3 * 0.95 - 1) * 0.05))  # S = 2: 1 and 1.85 steps
    assert RT.cadence(0, 0, 206.6, 0.0179) == (0.0, 0.0)  # off: upstream vLLM admits at every step


def test_the_floor_gates_the_cadence_by_the_running_count():
    """AMD's server_mi355x.yaml: S = 2 while 1,216 or more run. The batch in service taken as Poisson: at a mean of
    600 the chance of 1,216 running is nothing (25 standard deviations up), so no wait; at a mean of 1,216 it is
    P(N >= 1216) = 1/2 + 1 / (3 sqrt(2 pi 1216)) = 0.50381 (the Poisson median's expansion: P(N <= lam - 1) =
    1/2 - 2/3 / sqrt(2 pi lam), plus the pmf at lam, 1 / sqrt(2 pi lam)), so the mean is 0.50381 steps and the p95
    (3 (1 - 0.05 / 0.50381) - 1) = 1.7023 steps. A trickle with no floor: the gate is the chance the copy is busy,
    1 - e^-b (an idle engine's empty schedules take no time)."""
    assert RT.cadence(2, 1216, 600.0, 0.05) == (0.0, 0.0)
    gate = 0.5 + 1.0 / (3.0 * math.sqrt(2.0 * math.pi * 1216.0))
    assert RT.poisson_tail(1216.0, 1216) == pytest.approx(gate, abs=2e-5)
    mean, p95 = RT.cadence(2, 1216, 1216.0, 1.0)
    assert mean == pytest.approx(RT.poisson_tail(1216.0, 1216), rel=1e-12)
    assert p95 == pytest.approx(3 * (1 - 0.05 / RT.poisson_tail(1216.0, 1216)) - 1, rel=1e-12)
    assert p95 == pytest.approx(1.7023, abs=2e-4)
    assert RT.poisson_tail(3.0, 2) == pytest.approx(1 - 4 * math.exp(-3), rel=1e-12)  # 1 - e^-3 (1 + 3)
    assert RT.cadence(6, 0, 0.02, 1.0)[0] == pytest.approx(-math.expm1(-0.02) * 3, rel=1e-12)
    assert RT.cadence(6, 0, 0.02, 1.0)[1] == 0.0  # 2% busy: 95% of arrivals meet an idle engine


# the harness configs the rows ran (gbeezybez/inference_results_v6.0 at ab33b214, each submitter's copy of AMD's
# harness: src/llama2-70b-99/<scenario>_<gpu>.yaml, env_config): Server S = 2, floor 1,216; Interactive S = 6, none
CONFIGS = {"MP22": (2, 1216), "MP23": (2, 1216), "RT16": (2, 1216), "RT58": (2, 1216), "RT59": (2, 1216),
           "RT60": (2, 1216), "RT94": (2, 1216), "RT95": (2, 1216), "RT15": (6, 0), "RT17": (6, 0)}


@pytest.mark.parametrize("rid", sorted(CONFIGS))
def test_the_mlperf_rows_state_their_configs_cadence(rid: str):
    opts = _options(_row(rid))
    steps, floor = CONFIGS[rid]
    assert int(opts["prefill_admission_steps"]) == steps
    assert int(opts.get("prefill_admission_floor", 0)) == floor


def _without(row: dict) -> dict:
    keep = [o for o in row["workload_options"].split(";") if not o.startswith("prefill_admission")]
    return {**row, "workload_options": ";".join(keep)}


def test_rt15s_first_token_waits_three_decode_steps_more(kb):
    """RT15 (AMD's 8 x MI355X Interactive run, S = 6, no floor): the answer's TTFT with the cadence is the one without
    plus 3 of its decode steps (mean) and 5.65 (p95); the batch, the TPOT and the rate are the same."""
    row = _row("RT15")
    job, s = rate_row_served(kb, row)
    _, s0 = rate_row_served(kb, _without(row))
    at, at0 = s.rate.at_rate, s0.rate.at_rate
    step = RT.at_batch(job, s.engine, s.replica, at.batch).decode_step
    assert at.batch == pytest.approx(at0.batch, rel=1e-12) and at.tpot_mean == pytest.approx(at0.tpot_mean)
    assert at.ttft_mean - at0.ttft_mean == pytest.approx(3 * step, rel=1e-9)
    assert at.ttft_p95 - at0.ttft_p95 == pytest.approx(5.65 * step, rel=1e-9)


def test_a_server_rows_batch_below_the_floor_waits_nothing_more(kb):
    """RT58 (Dell's 8 x MI355X Server run, S = 2 from 1,216 running): gpuwise holds ~616 a copy, far below the floor,
    so the cadence never gates and the TTFT is the one without it (the run itself held ~1,800: ratelat66's group 3)."""
    row = _row("RT58")
    at = rate_row_served(kb, row)[1].rate.at_rate
    at0 = rate_row_served(kb, _without(row))[1].rate.at_rate
    assert at.batch < 1000
    assert at.ttft_mean == at0.ttft_mean and at.ttft_p95 == at0.ttft_p95


def test_the_cadence_is_vllms_and_a_floor_needs_it(tmp_path: Path):
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, framework: sglang, prefill_admission_steps: 6}}\n",
                                     encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr == (
        "gpuwise: r.yaml: workload.prefill_admission_steps: 6 is the prefill-admission cadence of AMD's vLLM build "
        "(VLLM_SUBSEQUENT_DECODE_STEPS); sglang admits new prompts at every step: set framework vllm, or leave "
        "prefill_admission_steps out\n")
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, prefill_admission_floor: 1216}}\n", encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "预填充准入节奏的门槛" in r.stderr and "prefill_admission_steps" in r.stderr


def test_the_answer_says_the_cadence_and_what_it_adds(tmp_path: Path):
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, requests_per_s: 4, prefill_admission_steps: 2, "
                                     "prefill_admission_floor: 64}\n", encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    said = [a["reason"] for a in json.loads(r.stdout)["assumptions"]
            if a["field"] == "workload.prefill_admission_steps"]
    assert said == ["prefill-admission cadence on (AMD's MLPerf vLLM build, VLLM_SUBSEQUENT_DECODE_STEPS 2, "
                    "VLLM_MIN_REQUEST_DECODE_STEP 64): while 64 requests or more run, the scheduler admits new prompts "
                    "one step in 3, so a new prompt waits 1 decode steps more on average (up to 2) before its first "
                    "token; with fewer running, every step admits"]
    zh = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 0 and "预填充准入节奏已开启" in zh.stdout
