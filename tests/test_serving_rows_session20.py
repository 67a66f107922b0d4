"""Serving rows E01-E06 of tests/data/validation/serving_independent.csv (session 20's throughput blind round) and
Z14's correction: each figure below is read off its source (SGLang pull requests #7631, #7687, #6111, #6939, #12343;
GPUStack's GLM-4.5-Air H100 page) and checked by hand; the blind scores are in the validation README."""

from __future__ import annotations

import pytest

from tests.conftest import validation_row


def _row(rid: str) -> dict:
    return validation_row("serving_independent.csv", rid)


def test_rows_carry_the_runs_logged_totals():
    """bench_serving prints totals, the rows carry means and rates: #7631 (random 1024/512 at the default range
    ratio, 200 prompts): 103,005 in / 53,590 out -> 515 / 268 a prompt; #7687 (range ratio 1): 102,400 output tokens in
    409.60 s = 250.0 tok/s; #6111's bench_one_batch_server: 32 x 512 / 13.89 s = 1,179.6 (printed 1,179.25) and
    512 / 10.95 s = 46.76 (46.75); #12343: 100 x 1,024 / 479.09 s = 213.74; #6939: 128 x 1,000 / 221.31 s = 578.37."""
    e01 = _row("E01")
    assert (int(e01["prompt_tokens"]), int(e01["output_tokens"])) == (round(103005 / 200), round(53590 / 200))
    assert float(_row("E02")["output_tokens_per_s"]) == pytest.approx(102400 / 409.60, abs=0.01)
    assert float(_row("E03")["output_tokens_per_s"]) == pytest.approx(32 * 512 / 13.89, rel=1e-3)
    assert float(_row("E04")["output_tokens_per_s"]) == pytest.approx(512 / 10.95, rel=1e-3)
    assert float(_row("E05")["output_tokens_per_s"]) == pytest.approx(100 * 1024 / 479.09, abs=0.01)
    assert float(_row("E06")["output_tokens_per_s"]) == pytest.approx(128 * 1000 / 221.31, abs=0.01)


def test_tensor_parallel_across_nodes_is_estimated(kb, accuracy):
    """E02 ran TP 16 over two 8 x H200 nodes (#7687: --tp 16 --nnodes 2). It was refused as an input error when the
    round was scored blind; since each layer's all-reduces are priced over the network (nccl-tests' 47.6 us on
    2 x 8 H20 over InfiniBand NDR, NVIDIA/nccl issue #1244, plus the bytes at the NIC) it is estimated, and all six
    E rows are scored: E02 349.6 tok/s against 250.0 (+39.8%); 325.1 (+30.0%) since SGLang's own cross-node figure
    (61.6 us: NCCL's tree over LL, NVLink SHARP off; NVIDIA/nccl issue #1453)."""
    scored = {label.split()[0]: (est, pub) for label, est, pub in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
              if label.startswith("E")}
    assert sorted(scored) == ["E01", "E02", "E03", "E04", "E05", "E06"]
    est, pub = scored["E02"]
    assert pub == pytest.approx(250.0, abs=0.01)
    assert 1.2 <= est / pub <= 1.6


def test_blind_round_rows_stay_within_two_times(kb, accuracy):
    """Scored blind at session 20 (validation README): E01 -11.1%, E03 +28.7%, E04 +89.4% (1.89x), E05 -28.8%,
    E06 +44.9%; none beyond 2x. E02 (estimated since its TP 16 over two nodes is priced) +39.8%."""
    cases = {label.split()[0]: (est, pub) for label, est, pub in accuracy.serving_cases(kb, accuracy.INDEPENDENT)
             if label.startswith("E")}
    for rid, (est, pub) in cases.items():
        assert 0.5 <= est / pub <= 2.0, (rid, est, pub)


def test_z14_carries_its_pages_comparison_table():
    """GPUStack docs/performance-lab/glm-4.5-air/h100.md, comparison table, Medium Prompt (2,000 in / 100 out),
    'baseline (vLLM without any optimizations)': Total TPS 22,582.76, Mean TPOT 125.44 ms. The run's prompts are the
    page's seeded random set, 999,429 in and 50,000 out, so the output share is 50,000 / 1,049,429 and the output
    rate 22,582.76 x 50,000 / 1,049,429 = 1,075.95 tok/s; the page's other log of the run (411.83) is the one named as
    conflicting in the row's notes."""
    z = _row("Z14")
    assert float(z["output_tokens_per_s"]) == pytest.approx(22582.76 * 50000 / 1049429, abs=0.01)
    assert float(z["tpot_ms"]) == 125.44
    assert "411.83" in z["notes"] and "22,582.76" in z["notes"]
