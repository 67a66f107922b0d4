"""Serving rows R01-R09 of tests/data/validation/serving_independent.csv (session 15), from sources the project had
not used: vllm-project/vllm issue #17788 and pull requests #48757 and #44437, NVIDIA/TensorRT-LLM issues #4043 and
#5929. Each figure below is the published one, read off its source; the blind scores are in the validation README."""

from __future__ import annotations

import re

import pytest

from tests.conftest import validation_row


def _row(rid: str) -> dict:
    return validation_row("serving_independent.csv", rid)


def _cases(kb, accuracy, latency: list | None = None) -> dict[str, tuple[float, float]]:
    got = accuracy.serving_cases(kb, accuracy.INDEPENDENT, latency=latency)
    # ids R01..: not RT.. (capacity56's MLPerf v5.0 Offline rows share the letter)
    return {label.split()[0]: (est, pub) for label, est, pub in got if re.match(r"R\d", label)}


def test_mi350x_rows_are_the_tables_total_over_eleven():
    """vllm-project/vllm #44437, 'Serving throughput' table (ISL 1000, OSL 100, TP 8, 8 x MI350X), baseline column:
    3.92 / 6.54 / 9.78 req/s and 4,317 / 7,189 / 10,757 total tok/s at concurrency 8 / 16 / 32. A request is 1,100
    tokens (3.92 x 1,100 = 4,312), so the output is 100/1,100 of the total: 392.5 / 653.5 / 977.9 tok/s, which the
    req/s x 100 confirm (392 / 654 / 978)."""
    for rid, total, rps in (("R05", 4317, 3.92), ("R06", 7189, 6.54), ("R07", 10757, 9.78)):
        out = float(_row(rid)["output_tokens_per_s"])
        assert out == pytest.approx(total * 100 / 1100, abs=0.05)
        assert out == pytest.approx(rps * 100, rel=0.005)
        assert rps * 1100 == pytest.approx(total, rel=0.005)


def test_rows_hold_their_published_figures():
    """The published figures as the sources print them: #17788 653.61 output tok/s (200,516 tokens in 306.78 s);
    #48757 4,563.10 tok/s, mean TPOT 6.94 ms; #4043 3,396 (B200) and 6,051 (H200) output tok/s; #5929 ITL p50 0.011 s
    and 0.01642 s."""
    assert float(_row("R01")["output_tokens_per_s"]) == pytest.approx(200516 / 306.78, rel=1e-3)
    assert (float(_row("R02")["output_tokens_per_s"]), float(_row("R02")["tpot_ms"])) == (4563.10, 6.94)
    assert (float(_row("R03")["output_tokens_per_s"]), float(_row("R04")["output_tokens_per_s"])) == (3396, 6051)
    assert (float(_row("R08")["tpot_ms"]), float(_row("R09")["tpot_ms"])) == (11.00, 16.42)


def test_dense_and_hopper_rows_within_ten_percent(kb, accuracy):
    """Qwen3-32B-FP8 TP8 on 8 x H100 at concurrency 32 (vllm #48757: 4,563.10 output tok/s, TPOT 6.94 ms) and
    Llama-3.1-405B FP8 TP8 on 8 x H200 at maximum load (TensorRT-LLM #4043: 6,051 tok/s): within 10% (blind -4.2%,
    TPOT +5.5%, and -3.7%). DeepSeek-R1 FP8 TP8 EP8 on 8 x H200 with TensorRT-LLM 0.21.0rc2 (#5929): the p50
    inter-token latency at batch 8 (16.42 ms) within 10%, at batch 1 (11.00 ms) within 20% (blind +0.2 / -15.5%)."""
    lat: list = []
    cases = _cases(kb, accuracy, lat)
    for rid in ("R02", "R04"):
        est, pub = cases[rid]
        assert est == pytest.approx(pub, rel=0.10), rid
    tpot = {label.split()[0]: (est, pub) for label, est, pub in lat if label.startswith("R") and "TPOT" in label}
    assert tpot["R02"][0] == pytest.approx(6.94, rel=0.10)
    assert tpot["R09"][0] == pytest.approx(16.42, rel=0.10)
    assert tpot["R08"][0] == pytest.approx(11.00, rel=0.20)


def test_only_the_b200_trtllm_row_is_beyond_2x(kb, accuracy):
    """The R rows' throughput within 2x but R03, Llama-3.1-405B FP8 on 8 x B200 with TensorRT-LLM 0.20.0rc0 (TensorRT
    engine path), which its user reported as slower than the same recipe on 8 x H200 (3,396 against 6,051 tok/s,
    issue #4043), where B200's FP8 peak is 2.3x the H200's: a known miss with its reason in the validation README.
    The MI350X rows (R05-R07) read fast (blind +39..+47%): the README gives the release's unfused MLA kernels as the
    reason (the same pull request's fusions take 21-37% off its TPOT)."""
    cases = _cases(kb, accuracy)
    assert sorted(cases) == ["R01", "R02", "R03", "R04", "R05", "R06", "R07"]
    beyond = sorted(rid for rid, (est, pub) in cases.items() if not 0.5 <= est / pub <= 2.0)
    assert beyond == ["R03"], beyond
    est, pub = cases["R03"]
    assert est / pub > 2.0
