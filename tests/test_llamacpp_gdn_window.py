"""llama.cpp's gated DeltaNet layer at a decode token in the builds between pull requests #17996 and #19375
(serving.yaml llama.cpp ``recurrent_mixer_kernels.releases``; validation README, branch qwen3next61), by hand.

The count: ggml-org/llama.cpp src/models/qwen3next.cpp in the form #17996 ('Optimization: Qwen3 next autoregressive
pass', Dec 2025) gave it and #19375 ('models : optimizing qwen3next graph', Feb 2026, against b7946) rewrote it,
llm_build_qwen3next::build_layer_attn_linear and build_delta_net_autoregressive at one token of one sequence. A
node that launches a CUDA kernel or a copy is counted; views, reshapes, permutes and transposes launch none.

The rows: SU05 / SU06, ggml-org/llama.cpp pull request #19365 (2026-02-05), Qwen3-Next-80B-A3B-Instruct Q4_K_M,
llama-bench on master (b7946): 58.25 t/s on one A100, 55.73 on four.
"""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from tests import decode_rounds

RC = importlib.import_module("gpuwise.estimators.serving.recurrent")
ST = importlib.import_module("gpuwise.estimators.serving.step")

BEFORE_RULE = [  # build_layer_attn_linear up to the delta rule
    "mul_mat ssm_in", "mul_mat ssm_beta_alpha", "cont alpha", "add dt_bias", "softplus", "mul A",
    "cont query", "cont key", "cont value", "get_rows conv state (build_rs)", "concat q k", "concat qk v",
    "concat conv state, column", "cpy last conv columns", "ssm_conv", "cont transpose", "silu",
    "cont transpose back", "cont_4d q", "cont_4d k", "cont_4d v", "cont_4d beta",
    "get_rows recurrent state (build_rs)", "repeat_4d q", "repeat_4d k",
]
DELTA_RULE = [  # build_delta_net_autoregressive
    "l2_norm q", "l2_norm k", "scale q", "sigmoid beta", "exp gate", "mul state decay", "mul state k",
    "cont transpose", "sum_rows", "sub v", "mul beta", "repeat_4d k", "mul k delta", "add state",
    "mul state q", "cont transpose", "sum_rows", "concat output state",
]
AFTER_RULE = [  # back in build_layer_attn_linear
    "cont_4d output", "cpy new state", "cont_2d output", "cont_2d z", "rms_norm+mul (fused)", "silu z",
    "mul gated", "mul_mat ssm_out", "cont_2d result",
]
EAGER_FLOOR_US = 6.0  # serving.yaml llama.cpp kernel_floor_us before any release entry: the graph-less build's
GRAPH_FLOOR_US = 4.3  # release 6600's, which a build past the window runs under


def test_the_count_by_hand(kb):
    assert (len(BEFORE_RULE), len(DELTA_RULE), len(AFTER_RULE)) == (25, 18, 9)
    table = kb.framework("llama.cpp").recurrent_mixer_kernels
    counted = len(BEFORE_RULE) + len(DELTA_RULE) + len(AFTER_RULE)
    assert RC.mixer_decode(table, "7946") == {"gated_deltanet": counted} == {"gated_deltanet": 52}
    assert RC.mixer_decode(table, "7420") == {"gated_deltanet": 52}
    for outside in ("7419", "7947", "10100", None):  # before #17996, from #19375 on, a job that states none
        assert RC.mixer_decode(table, outside) == {}


@pytest.fixture(scope="module")
def su(kb, accuracy):
    return decode_rounds.estimates(kb, accuracy, "SU0")


def test_su05_pays_the_layers_kernels_eagerly(kb, accuracy, su):
    """In the window the decode drops its CUDA graphs (llama.cpp issue #19345, 2026-02-09: the graph's updates fail
    every ~128 tokens): the job takes the eager build's 6 us a kernel and 60 us a layer, and its 36 DeltaNet layers
    launch 47 kernels beyond an attention mixer's each: 36 x 47 x 6 us = 10.152 ms a token."""
    from gpuwise.estimators import serving as SV

    row = decode_rounds.rows("SU")["SU05"]
    assert row["framework_version"] == "7946" and float(row["decode_tok_s"]) == pytest.approx(58.25)

    def engine(version):
        job = accuracy.serving_job(kb, "qwen3-next-80b-a3b", "int4", "llama.cpp", 0, 128, 1,
                                   framework_version=version)
        return job, SV.choose(job, kb.gpus["a100-80gb-sxm"], 1, weight_format="gguf-q4_k_m")

    job, s = engine("7946")
    eng = s.engine
    assert eng.kernel_floor == pytest.approx(EAGER_FLOOR_US * 1e-6)
    assert eng.layer_overhead == pytest.approx(60e-6)
    assert RC.recurrent_extra_kernels(eng) == 36 * (52 - 5)
    assert engine("7947")[1].engine.kernel_floor == pytest.approx(GRAPH_FLOOR_US * 1e-6)  # graphs kept after
    later = dataclasses.replace(eng, framework_version="7947")  # the same constants, the count not read there
    assert RC.recurrent_extra_kernels(later) == 0.0
    kv = 64.0  # the mean context of tg128 from an empty cache
    step = ST.seconds_of(ST.consts(job, eng, s.replica), 1.0, 0.0, kv, 0.0)
    without = ST.seconds_of(ST.consts(job, later, s.replica), 1.0, 0.0, kv, 0.0)
    assert step - without == pytest.approx(36 * 47 * EAGER_FLOOR_US * 1e-6, rel=1e-9)
    est, got = su["SU05"]
    assert est == pytest.approx(1 / SV.point(job, eng, s.replica, 1.0).decode_step, rel=1e-9)
    assert got == pytest.approx(58.25)
    assert abs(est / got - 1) < 0.05  # +1.1%, from +174% when the layer paid an attention mixer's kernels


def test_no_release_or_a_dense_model_keeps_the_graph_constants(kb):
    fw = kb.framework("llama.cpp")
    from gpuwise.inputs import shape as SH

    next80 = SH.from_catalog(kb.models["qwen3-next-80b-a3b"])
    assert RC.graphs_dropped(fw, "7946", next80)
    assert not RC.graphs_dropped(fw, None, next80)
    assert not RC.graphs_dropped(fw, "7947", next80)
    assert not RC.graphs_dropped(fw, "7946", SH.from_catalog(kb.models["llama-3.1-8b"]))
    assert not RC.graphs_dropped(kb.framework("sglang"), "0.5.8", next80)


def test_su06_splits_by_layer_so_four_cards_decode_as_one(su):
    assert su["SU06"][0] == pytest.approx(su["SU05"][0], rel=1e-6)
    assert su["SU06"][1] == pytest.approx(55.73)
