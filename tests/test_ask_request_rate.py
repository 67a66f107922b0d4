"""`gpuwise ask` for a service stated as a request rate with p95 targets (askreview55).

A team lead sizing a service says "20 requests a second, first token within 2 s and 50 ms per
token at the 95th percentile". The requirements file has fields for exactly that
(``workload.requests_per_s``, ``p95_ttft_s``, ``p95_tpot_s``: docs/formats.md), and the rules
judge them (SRV-RATE-TARGET, SRV-P95-TTFT-TARGET, SRV-P95-TPOT-TARGET), but the questionnaire
never asked them: its only load was a concurrency and an aggregate tokens/s. A rate replaces the
concurrency as the load (docs/formats.md: without ``concurrent_requests`` the load is the rate),
so the concurrency is not asked after a rate; the tokens/s target is an advanced setting there
(askreview59: rate x output tokens already says it), kept from a file on resume.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.ask.questionnaire import _Session, load_questions
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge import load

from .test_questionnaire import flow

QN = load_questions()
KB = load()


def test_a_rate_is_asked_before_the_concurrency(tmp_path: Path) -> None:
    asked, s = flow(tmp_path, {"workload.task": "inference", "advanced": False})
    assert asked.index("workload.output_tokens") < asked.index("workload.requests_per_s") \
        < asked.index("workload.concurrent_requests")
    # none (Enter) keeps the concurrency as the load: nothing new in the file, no p95 question
    assert "requests_per_s" not in s.answers["workload"] or s.answers["workload"]["requests_per_s"] is None
    assert "workload.p95_ttft_s" not in asked and "workload.p95_tpot_s" not in asked


def test_a_rate_with_p95_targets_is_saved_and_the_concurrency_not_asked(tmp_path: Path) -> None:
    asked, s = flow(tmp_path, {"workload.task": "inference", "workload.model": "deepseek-v3.2-exp",
                               "workload.requests_per_s": 20, "workload.p95_ttft_s": 2,
                               "workload.p95_tpot_s": 0.05, "advanced": False})
    assert "workload.concurrent_requests" not in asked
    assert asked.index("workload.requests_per_s") < asked.index("workload.p95_ttft_s") \
        < asked.index("workload.p95_tpot_s") < asked.index("constraints.budget_usd")
    w = s.answers["workload"]
    assert (w["requests_per_s"], w["p95_ttft_s"], w["p95_tpot_s"]) == (20, 2, 0.05)
    assert "concurrent_requests" not in w and "target_tokens_per_s" not in w
    req = Requirements.model_validate({k: v for k, v in s.answers.items() if k != "constraints"})
    assert req.workload.requests_per_s == 20


def test_a_rate_given_later_drops_the_concurrency(tmp_path: Path) -> None:
    _, s = flow(tmp_path, {"workload.task": "inference", "workload.concurrent_requests": 16, "advanced": False})
    assert s.answers["workload"]["concurrent_requests"] == 16
    q = QN.by_key("workload.requests_per_s")
    s.apply(q, s.validate(q, 5.0))  # "Change an answer" -> the rate
    assert "concurrent_requests" not in s.answers["workload"]  # the rate is the load now
    assert s.pending().key == "workload.p95_ttft_s"


def test_a_files_own_tokens_target_is_kept_with_a_rate(tmp_path: Path) -> None:
    s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
    s.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "requests_per_s": 5,
                         "target_tokens_per_s": 900}})
    assert s.answers["workload"]["target_tokens_per_s"] == 900
    assert s.advanced is True  # an advanced value the file sets keeps the advanced settings on


def test_a_rate_goes_on_to_the_p95_targets_not_a_tokens_target(tmp_path: Path) -> None:
    """askreview59: a team lead who had just said 12 requests/s of 800-token answers was asked next for the
    'output tokens per second wanted, summed over all requests' -- 12 x 800 = 9,600, which the rate already
    says -- and typed the p95 first-token target there ('2'), where it was saved as a 2 tokens/s target.
    With a rate the tokens/s target is an advanced setting (a further bound, 0: none), listed with the
    defaults; without a rate it stays an essential question beside the concurrency."""
    asked, s = flow(tmp_path, {"workload.task": "inference", "workload.output_tokens": 800,
                               "workload.requests_per_s": 12, "advanced": False})
    assert "workload.target_tokens_per_s" not in asked
    assert asked[asked.index("workload.requests_per_s") + 1] == "workload.p95_ttft_s"
    assert "target_tokens_per_s" not in s.answers["workload"]
    assert "workload.target_tokens_per_s" in [q.key for q in s.advanced_defaults()]
    asked, s = flow(tmp_path, {"workload.task": "inference", "workload.requests_per_s": 12, "advanced": True,
                               "workload.target_tokens_per_s": 9000})
    assert "workload.target_tokens_per_s" in asked and s.answers["workload"]["target_tokens_per_s"] == 9000
    asked, _ = flow(tmp_path, {"workload.task": "inference", "advanced": False})
    assert asked.index("workload.concurrent_requests") + 1 == asked.index("workload.target_tokens_per_s")


def test_a_files_p95_target_without_a_rate_is_kept(tmp_path: Path) -> None:
    # docs/formats.md: with no requests_per_s a p95 target applies at the rate the load amounts to
    s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
    s.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "concurrent_requests": 8,
                         "p95_ttft_s": 1.5}})
    assert s.answers["workload"]["p95_ttft_s"] == 1.5 and s.answers["workload"]["concurrent_requests"] == 8


@pytest.mark.parametrize("key, bad, limit", [("workload.requests_per_s", 0, "0"), ("workload.p95_tpot_s", -1, "0")])
def test_out_of_range_is_one_line(tmp_path: Path, key: str, bad: float, limit: str) -> None:
    from gpuwise.ask.questionnaire import _Invalid

    _, s = flow(tmp_path, {"workload.task": "inference", "workload.requests_per_s": 1.0, "advanced": False})
    with pytest.raises(_Invalid) as exc:
        s.validate(QN.by_key(key), bad)
    said = s.message(exc.value)
    assert "\n" not in said and limit in said


def test_a_file_with_a_concurrency_is_not_asked_a_rate_on_resume(tmp_path: Path) -> None:
    """A service file written before the rate question (its load a concurrency) resumed with a new question
    first: hostile rounds 27 / 28 resume Qwen3-Next and Nemotron 3 Nano services and met it as an extra prompt.
    The concurrency settles the rate as none (questions.yaml settled_by); the file's values are kept."""
    s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
    s.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 100, "output_tokens": 100,
                         "concurrent_requests": 4, "target_tokens_per_s": 0}})
    s.set_currency()
    rate = QN.by_key("workload.requests_per_s")
    assert s.answered(rate) and "requests_per_s" not in s.answers["workload"]
    assert s.pending().key != "workload.requests_per_s" and s.answers["workload"]["concurrent_requests"] == 4
    # a file without a load still asks it
    s2 = _Session(QN, KB, tmp_path / "b.yaml", lang="en", currency=None)
    s2.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 100, "output_tokens": 100}})
    s2.set_currency()
    assert s2.pending().key == "workload.requests_per_s"
