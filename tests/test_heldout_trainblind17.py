"""Held-out H484-H500 (branch trainblind17), scored blind on main 97325d73: NVIDIA/NeMo's long-sequence performance
page (docs/source/performance/performance_long_sequence.md: Llama 2 7B on DGX-H100 with NeMo 24.03.01, first published
at 5b47a94c; Llama 3 8B on DGX-B200 with NeMo 25.04.rc2, at 14d427f5 and 19fadb67). The page prints model TFLOPS a GPU
with each 'With CP' row's TP / PP / DP / CP; the rows' figures are checked here by hand against it and against NeMo's
own FLOPs count. No figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# sequence (K tokens), batch (sequences), TP, PP, DP, CP, model TFLOPS a GPU, as printed
H100 = {
    "H484": (4, 1024, 1, 1, 4, 1, 768), "H485": (8, 512, 1, 2, 4, 1, 730), "H486": (16, 256, 2, 1, 8, 1, 660),
    "H487": (32, 128, 2, 1, 8, 2, 610), "H488": (64, 64, 4, 1, 8, 2, 574), "H489": (128, 32, 4, 1, 8, 4, 555),
    "H490": (256, 16, 4, 1, 8, 8, 549), "H491": (512, 8, 8, 1, 4, 16, 549), "H492": (1024, 4, 8, 1, 4, 32, 536),
}
B200 = {
    "H493": (8, 512, 1, 1, 2, 1, 1671), "H494": (16, 256, 1, 1, 4, 1, 1717), "H495": (32, 128, 1, 1, 4, 2, 1624),
    "H496": (64, 64, 1, 1, 4, 4, 1600), "H497": (128, 32, 2, 1, 4, 4, 1588), "H498": (256, 16, 4, 1, 4, 4, 1590),
    "H499": (512, 8, 4, 1, 4, 8, 1619), "H500": (1024, 4, 4, 1, 4, 16, 1608),
}


def nemo_llama_flops_per_token(layers, hidden, groups, heads, ffn, vocab, seq):
    """NVIDIA/NeMo nemo/utils/flops_formulas.py at 19fadb67, llama2 / llama3: gbs x s x L h^2 (12 + 12 g/a + 18 f/h
    + 12 s/h + 6 V/(L h)) a step, full (not causal) attention; here a token's share."""
    return layers * hidden ** 2 * (12 + 12 * groups / heads + 18 * ffn / hidden + 12 * seq / hidden
                                   + 6 * vocab / (layers * hidden))


def test_the_count_reproduces_the_24_07_summary_pair():
    """The 24.07 performance summary (held-out H425) printed Llama 2 7B at 4,096 tokens as 16,634 tokens/s and 767
    model TFLOP/s a GPU: the count turns one into the other within 0.1%."""
    f = nemo_llama_flops_per_token(32, 4096, 32, 32, 11008, 32000, 4096)
    assert f == pytest.approx(46.08e9, rel=1e-3)
    assert 767e12 / f == pytest.approx(16634, rel=1e-3)


@pytest.mark.parametrize("table,gpu,model,shape", [
    (H100, "h100-80gb-sxm", "llama-2-7b", (32, 4096, 32, 32, 11008, 32000)),
    (B200, "b200", "llama-3-8b", (32, 4096, 8, 32, 14336, 128256)),
])
def test_rows_are_the_table_by_hand(table, gpu, model, shape):
    """Each row: TP x PP x DP x CP GPUs, 100 steps of batch x sequence tokens (4,194,304 at every length), GPU-hours
    = those tokens x NeMo's FLOPs a token / the printed TFLOPS / 3,600 (the GPUs cancel); the layout in the
    conditions."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (k, batch, tp, pp, dp, cp, tflops) in table.items():
        r, c = rows[rid], conds[rid]
        seq = k * 1024
        assert (r["gpu"], int(r["gpus"]), r["catalog_model"], int(r["seq_len"]), r["precision"]) == (
            gpu, tp * pp * dp * cp, model, seq, "fp8"), rid
        assert int(r["global_batch_tokens"]) == batch * seq == 4194304, rid
        assert float(r["training_tokens_b"]) == pytest.approx(100 * batch * seq / 1e9, rel=1e-6), rid
        f = nemo_llama_flops_per_token(*shape, seq)
        assert float(r["gpu_hours"]) == pytest.approx(100 * batch * seq * f / (tflops * 1e12) / 3600, rel=1e-5), rid
        assert (c["stack"], c["tp"], c["pp"], c["cp"], c["hours_basis"]) == (
            "nemo", str(tp), str(pp), str(cp), "steady"), rid


def test_million_token_rows_by_hand():
    """At 1,048,576 tokens attention is nearly all of the count: Llama 2 7B 1,688.9 GFLOP a token (3,072 of the
    bracket's 3,145.8 from 12 s/h), so 536 TFLOPS is 317.4 tokens/s a H100 and a 100-step row 367.1 GPU-hours;
    Llama 3 8B 1,694.3 GFLOP, 1,608 TFLOPS, 949.1 tokens/s a B200, 122.8 GPU-hours."""
    f7 = nemo_llama_flops_per_token(32, 4096, 32, 32, 11008, 32000, 1048576)
    f8 = nemo_llama_flops_per_token(32, 4096, 8, 32, 14336, 128256, 1048576)
    assert (f7 / 1e9, f8 / 1e9) == (pytest.approx(1688.9, abs=0.1), pytest.approx(1694.3, abs=0.1))
    assert 536e12 / f7 == pytest.approx(317.4, abs=0.1)
    assert 1608e12 / f8 == pytest.approx(949.1, abs=0.1)
    assert 419430400 / (536e12 / f7) / 3600 == pytest.approx(367.1, abs=0.1)
    assert 419430400 / (1608e12 / f8) / 3600 == pytest.approx(122.8, abs=0.1)
