"""Every candidate a ``recommend`` result lists carries every rule that fired on its facts, not only
the rules that decide (review47: CMP-FP4-EMULATED was in ``candidates[].rules`` of the H100 x 2 and
L40S x 4 rentals of a gpt-oss-120b fp4 question, not of H100 x 4 bought, H100 x 1 or L40S x 2: the
rule book's first pass runs only the deciding rules, and only the shown candidates were run again)."""

from __future__ import annotations

import pytest

from gpuwise.decide.recommend import recommend

GPTOSS_FP4 = {
    "workload": {"task": "inference", "model": "gpt-oss-120b", "precision": "fp4", "prompt_tokens": 2000,
                 "output_tokens": 500, "requests_per_s": 5, "p95_ttft_s": 1.5, "p95_tpot_s": 0.05},
    "constraints": {"gpus": ["l40s", "h100-80gb-sxm", "rtx-pro-6000-blackwell", "gb10"], "max_gpus": 4,
                    "project_months": 12},
}
# knowledge/gpus.yaml: FP4 tensor math (peaks.fp4) on Blackwell (RTX PRO 6000, GB10), none on Hopper
# (H100) or Ada (L40S); NVIDIA Blackwell architecture technical brief (2024)
NO_FP4 = {"h100-80gb-sxm", "l40s"}


def test_fp4_emulated_on_every_candidate_past_memory():
    result = recommend(GPTOSS_FP4)
    judged = [c for c in result.candidates if {"CMP-SERVES", "CMP-SERVES-PAST-RATE"} & set(c.rules)]  # the compute
    # step reached (a rate past the p95 limits: CMP-SERVES-PAST-RATE, reviewleft60)
    assert {(c.gpu, c.count, c.acquisition) for c in judged if c.gpu in NO_FP4} >= {
        ("h100-80gb-sxm", 1, "rent"), ("h100-80gb-sxm", 2, "rent"), ("h100-80gb-sxm", 4, "rent"),
        ("h100-80gb-sxm", 4, "buy"), ("l40s", 2, "rent"), ("l40s", 4, "rent")}
    for c in judged:
        assert ("CMP-FP4-EMULATED" in c.rules) == (c.gpu in NO_FP4), (c.gpu, c.count, c.acquisition, c.rules)
    # the L40S that does not fit stops at the memory step, before the compute rules
    one = next(c for c in result.candidates if (c.gpu, c.count) == ("l40s", 1))
    assert "MEM-NO-FIT" in one.rules and "CMP-FP4-EMULATED" not in one.rules


def test_listed_rules_do_not_depend_on_which_candidates_are_shown():
    """The same H100 x 4 facts, bought and rented, get the same non-deciding findings of the compute step."""
    result = recommend(GPTOSS_FP4)
    by = {(c.gpu, c.count, c.acquisition): set(c.rules) for c in result.candidates}
    compute = {"CMP-FP4-EMULATED", "CMP-SERVES"}
    assert by[("h100-80gb-sxm", 4, "buy")] & compute == by[("h100-80gb-sxm", 4, "rent")] & compute == compute


def test_rate_rejected_candidate_shows_what_it_serves_within_targets():
    """2 x L40S serves at most ~1.09 requests/s within p95 TPOT 50 ms; at 500 output tokens a request that is
    1.09 x 500 = ~544 tokens/s, the figure the alternatives table shows (it showed 1,726, the full batch's at a
    122 ms TPOT). An accepted candidate shows the asked rate's: 5 requests/s x 500 tokens = 2,500."""
    from gpuwise.render import report

    result = recommend(GPTOSS_FP4)
    l40s = next(c for c in result.candidates if (c.gpu, c.count) == ("l40s", 2))
    at = l40s.serving.rate.at_max
    assert "SRV-RATE-TARGET" in l40s.rules and l40s.serving.rate.meets_requests_per_s is False
    assert at.output_tokens_per_s == pytest.approx(at.requests_per_s * 500)
    assert 500 < at.output_tokens_per_s < 600 < l40s.decode_tokens_per_s_total
    shown = f"{at.output_tokens_per_s:,.0f}"
    for lang in ("en", "zh"):
        text = report.render(result, "text", lang=lang)
        row = text[text.index("2 × NVIDIA L40S 48GB"):][:200]
        assert shown in row and f"{l40s.decode_tokens_per_s_total:,.0f}" not in row, row
    best = next(c for c in result.candidates if c.rank == 1)
    assert best.serving.rate.at_requests_per_s.output_tokens_per_s == pytest.approx(5 * 500)


def test_buying_not_weighed_is_said_where_no_purchase_price_exists():
    """knowledge/prices.yaml lists the L40S under excluded (no dated street price: OEM server quotes), so with
    renting or buying allowed only its rentals are judged; the report says buying it was not weighed. The H100 SXM
    has a dated price (bought at x 4) and the RTX PRO 6000 both; with renting alone asked, buying is not in question."""
    result = recommend(GPTOSS_FP4)
    said = {(c.gpu, c.count, c.acquisition) for c in result.candidates if "TCO-BUY-NOT-WEIGHED" in c.rules}
    assert said == {("l40s", 2, "rent"), ("l40s", 4, "rent")}
    assert any(f.rule == "TCO-BUY-NOT-WEIGHED" and f.severity == "info" for f in result.findings)
    rent_only = recommend({**GPTOSS_FP4, "constraints": {**GPTOSS_FP4["constraints"], "acquisition": "rent"}})
    assert not any("TCO-BUY-NOT-WEIGHED" in c.rules for c in rent_only.candidates)


def test_every_candidate_goes_through_the_chain_once(monkeypatch):
    """startup53: a recommendation asserts its candidates with ``detail: 1`` at once, so the rule book
    runs once over them and no second (detail) session is merged in. Before, every candidate was run
    through the deciding rules and then through the whole chain again (Consultation.detail, 14 ms of a
    lora-70b recommend); the rules listed are the same (the tests above)."""
    from gpuwise.decide import engine

    merged: list[int] = []
    real = engine.merge
    monkeypatch.setattr(engine, "merge", lambda s, more, index: (merged.append(len(index)), real(s, more, index)))
    result = recommend(GPTOSS_FP4)
    assert merged == []
    one = next(c for c in result.candidates if (c.gpu, c.count) == ("l40s", 1))
    assert "MEM-NO-FIT" in one.rules
