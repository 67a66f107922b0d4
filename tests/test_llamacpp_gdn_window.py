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
FLOOR_US = 4.3  # serving.yaml llama.cpp release 6600's kernel_floor_us, the release build 7946 runs under


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


def test_su05_pays_the_layers_kernels_at_the_floor(kb, accuracy, su):
    """36 DeltaNet layers x (52 - 5) kernels x 4.3 us = 7.276 ms a token more than the same job at a build after
    #19375, which pays a DeltaNet mixer as an attention mixer's 5."""
    row = decode_rounds.rows("SU")["SU05"]
    assert row["framework_version"] == "7946" and float(row["decode_tok_s"]) == pytest.approx(58.25)
    job = accuracy.serving_job(kb, "qwen3-next-80b-a3b", "int4", "llama.cpp", 0, 128, 1, framework_version="7946")
    from gpuwise.estimators import serving as SV

    s = SV.choose(job, kb.gpus["a100-80gb-sxm"], 1, weight_format="gguf-q4_k_m")
    eng = s.engine
    assert eng.kernel_floor == pytest.approx(FLOOR_US * 1e-6)
    assert RC.recurrent_extra_kernels(eng) == 36 * (52 - 5)
    later = dataclasses.replace(eng, framework_version="7947")
    assert RC.recurrent_extra_kernels(later) == 0.0
    kv = 64.0  # the mean context of tg128 from an empty cache
    step = ST.seconds_of(ST.consts(job, eng, s.replica), 1.0, 0.0, kv, 0.0)
    without = ST.seconds_of(ST.consts(job, later, s.replica), 1.0, 0.0, kv, 0.0)
    assert step - without == pytest.approx(36 * 47 * FLOOR_US * 1e-6, rel=1e-9)
    step = SV.point(job, eng, s.replica, 1.0).decode_step
    est, got = su["SU05"]
    assert est == pytest.approx(1 / step, rel=1e-9)
    assert got == pytest.approx(58.25)
    assert abs(est / got - 1) < 0.30  # +26.8%, from +174% when the layer paid an attention mixer's kernels


def test_su06_splits_by_layer_so_four_cards_decode_as_one(su):
    assert su["SU06"][0] == pytest.approx(su["SU05"][0], rel=1e-6)
    assert su["SU06"][1] == pytest.approx(55.73)
