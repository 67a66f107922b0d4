"""review65: the questionnaire and the listing screens read as a new user, the plan read as its approver.

Each test fails on the code before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_questionnaire import CTRL_C, ENTER, drive, saved, text

# a fine-tune with every essential's default (task, method, model, tokens, deadline, budget, rent or buy,
# hosting), up to the advanced-settings question
ESSENTIALS = ENTER * 8


@pytest.mark.parametrize("lang, word", [("en", "y"), ("en", "yes"), ("en", "Y"), ("zh", "是")])
def test_a_typed_yes_and_its_enter_answer_the_yes_no_question_only(tmp_path: Path, lang: str, word: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """'y' then Enter (or 'yes' then Enter) at the advanced-settings question: the Enter is that answer's, not the
    next question's. Before, 'y' answered at once, so its Enter took the project length's default (6 months)
    unseen and the '3' typed for it went to the question after; 'yes' put 'es' in the project length."""
    _, path = drive(tmp_path, [ESSENTIALS, word + ENTER, text("3"), CTRL_C], lang=lang)
    data = saved(path)
    assert "advanced=yes" in path.read_text(encoding="utf-8")
    assert data["constraints"]["project_months"] == 3, data
    assert data["constraints"].get("value_of_a_day_usd") is None, data
    assert "'es'" not in capsys.readouterr().out  # no refusal of the rest of the word


def test_enter_alone_keeps_the_default_and_n_then_enter_says_no(tmp_path: Path) -> None:
    _, path = drive(tmp_path, [ESSENTIALS, "n" + ENTER, CTRL_C])
    assert "advanced=no" in path.read_text(encoding="utf-8")
    _, path = drive(tmp_path, [ESSENTIALS, ENTER, CTRL_C], answers=tmp_path / "b.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")  # the question's default
    # a change of mind before Enter: the last key typed is the answer
    _, path = drive(tmp_path, [ESSENTIALS, "yn" + ENTER, CTRL_C], answers=tmp_path / "c.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the plan: a purchase's price dates
H200_PLAN = {
    "horizon_months": 36,
    "workloads": [{"name": "chat-70b",
                   "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8",
                                "prompt_tokens": 2000, "output_tokens": 500},
                   "cadence": {"continuous": True, "start_month": 6}, "targets": {"requests_per_s": 6}}],
    "constraints": {"acquisition": "either", "hosting": "colocation", "gpus": ["H200 SXM 141GB"]},
}


def test_a_purchase_gives_the_date_of_the_host_its_amount_adds() -> None:
    """A 4-GPU H200 server bought for a service: its amount is the cards (prices.yaml, dated 2026-03-31) and the
    tco.yaml host share around them, $7,000 a GPU dated 2024-08-01 (1 x ($118,000 + 4 x $7,000) = $146,000 in the
    full report's money line). The Purchases table said 'Price as of 2026-03-31' only, and the host's date only
    in a DATA-STALE-PRICE warning elsewhere on the page."""
    from gpuwise.knowledge import load
    from gpuwise.plan.build import plan
    from gpuwise.render import plan_view

    kb = load()
    host = kb.tco.values["server_share_usd_per_gpu_sxm"]
    r = plan(H200_PLAN)
    (p,) = r.purchases
    assert p.gpu == "h200-141gb-sxm" and p.sold_as == "server"
    assert p.host_as_of == host.as_of.isoformat() == "2024-08-01"
    assert p.price_as_of and p.price_as_of != p.host_as_of
    for lang, said in (("en", f"{p.price_as_of}, host {p.host_as_of}"),
                       ("zh", f"{p.price_as_of}，主机 {p.host_as_of}")):
        text = plan_view.render(r, "text", width=200, lang=lang)
        purchases = text.split("===")[text.split("===").index(" Purchases " if lang == "en" else " 采购 ") + 1]
        assert said in purchases, purchases
