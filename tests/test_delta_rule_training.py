"""A gated DeltaNet layer's chunked delta rule, short convolutions, norms and gates in training (runtime.yaml
training.delta_rule_k; architecture / catalog recurrent.kind gated_deltanet). Set, as mamba1_scan_k was, on one
published table of a DeltaNet and a Transformer trained on one H100 (fla-org/flash-linear-attention issue #32, the
delta-net and transformer lines of rakkit's H100 column); checked here by hand and against it."""

from __future__ import annotations

import csv
import json

import pytest

# fla's default TransformerConfig (24 x 2,048, SwiGLU 5,632) and DeltaNetConfig (24 x 2,048, 16 heads of 128, short
# convolutions of 4 on q / k / v, beta, output norm; fla/models/delta_net/configuration_delta_net.py)
FLA_T = {"layers": 24, "hidden_size": 2048, "heads": 32, "kv_heads": 32, "ffn_size": 5632, "vocab_size": 32000,
         "tied_embeddings": False}
FLA_D = {"layers": 24, "hidden_size": 2048, "heads": 16, "kv_heads": 16, "ffn_size": 5632, "vocab_size": 32000,
         "tied_embeddings": False, "attention_layers": 0,
         "recurrent": {"kind": "gated_deltanet", "layers": 24, "state_elements": 16 * 128 * 128,
                       "conv_elements": 3 * 3 * 2048, "head_dim": 128}}
# the DeltaNet model: the Transformer's matmuls plus beta (2,048 x 16), three depthwise convolutions (2,048 x 4) and
# the output norm (128) a layer
D_PARAMS_B = 1.3643 + 24 * (2048 * 16 + 3 * 2048 * 4 + 128) / 1e9


def _job(kb, workload: dict):
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    return training_job(resolve(Requirements.model_validate({"workload": workload}), kb))


def _speed(kb, params_b: float, arch: dict, seq: int = 2048, stack: str | None = None, gpu: str = "h100-80gb-sxm"):
    from gpuwise.estimators.step_time import gpu_speed

    w = {"task": "pretrain", "params_b": params_b, "architecture": arch, "seq_len": seq, "precision": "bf16",
         "train_tokens": 1e9}
    if stack:
        w["stack"] = stack
    tj = _job(kb, w)
    return tj, gpu_speed(tj, kb.gpus[gpu])


def _h836():
    from .test_heldout_trainblind11 import _rows

    return _rows("training_heldout.csv")["H836"]


def test_the_share_is_the_deltanet_layers_matmuls_by_hand():
    """Olmo Hybrid 7B (H836's shape): 7,430,553,600 parameters, the untied 100,352 x 3,840 input embedding and head
    385,351,680 each; the matmuls a token passes 7,045,201,920, of which the 8 attention layers' attention and MLP
    8 x (4 x 3,840^2 + 3 x 3,840 x 11,008) = 1,486,356,480 and the head are not DeltaNet: share 0.73433."""
    from gpuwise.inputs.schema import Workload
    from gpuwise.inputs.shape import from_workload

    arch = json.loads(_h836()["architecture_json"])
    assert arch["recurrent"]["kind"] == "gated_deltanet" and arch["recurrent"]["layers"] == 24
    # 30 value heads x key 96 x value 192; 3 x (2 x 30 x 96 + 30 x 192)
    assert (arch["recurrent"]["state_elements"], arch["recurrent"]["conv_elements"]) == (552960, 34560)
    shape = from_workload(Workload(task="pretrain", params_b=7.4305536, architecture=arch), None)
    emb = 100352 * 3840
    n = 7_430_553_600 - emb
    blocks = 8 * (4 * 3840 ** 2 + 3 * 3840 * 11008)
    assert blocks == 1_486_356_480
    assert shape.delta_rule_share == pytest.approx((n - emb - blocks) / n, rel=1e-6)
    assert shape.delta_rule_share == pytest.approx(0.73433, abs=1e-5)
    assert shape.scan_share == 0.0 and shape.ssd_macs_per_token == 0.0


def test_other_mixers_pay_nothing_here():
    """Mamba-2 (its SSD priced at its kernels' rate, ssd_kernel_utilization), Mamba-1 (mamba1_scan_k) and a plain
    transformer carry no DeltaNet share."""
    from gpuwise.inputs.schema import Workload
    from gpuwise.inputs.shape import from_workload

    m2 = {**FLA_D, "recurrent": {**FLA_D["recurrent"], "kind": "mamba2"}}
    m1 = {**{k: v for k, v in FLA_D.items() if k != "recurrent"}, "ssm": "mamba1"}
    for arch in (m2, m1, FLA_T):
        assert from_workload(Workload(task="pretrain", params_b=1.36, architecture=arch), None).delta_rule_share == 0.0


def test_the_mfu_falls_by_hand(kb):
    """fla's DeltaNet on an H100, the middle stack (k 7.5): share s of the matmuls in DeltaNet layers, k_scan =
    4.87 s; with r = 989.4 / 3.35 = 295.4 FLOP/B at width w = 2,048 the MFU falls by (1 + 7.5 r / w) /
    (1 + (7.5 + 4.87 s) r / w)."""
    assert kb.runtime.training.delta_rule_k.value == 4.87
    tj, (_, mfu) = _speed(kb, D_PARAMS_B, FLA_D)
    s = tj.shape.delta_rule_share
    n = D_PARAMS_B * 1e9 - 32000 * 2048
    assert s == pytest.approx((n - 32000 * 2048) / n, rel=1e-6)
    assert mfu.inputs["k_scan"] == pytest.approx(4.87 * s)
    r = mfu.inputs["r_flop_per_byte"]
    expected = (1 + 7.5 * r / 2048) / (1 + (7.5 + 4.87 * s) * r / 2048)
    _, (_, mfu0) = _speed(kb, D_PARAMS_B, {k: v for k, v in FLA_D.items() if k != "recurrent"})
    assert mfu.value / mfu0.value == pytest.approx(expected, rel=1e-9)
    assert "k_scan" not in mfu0.inputs


@pytest.mark.parametrize("bs,seq,t_tok_s,d_tok_s", [(4, 8192, 25004.98, 22723.17)])
def test_the_fla_table_it_was_read_from(kb, bs, seq, t_tok_s, d_tok_s):
    """fla-org/flash-linear-attention issue #32, H100: the default Transformer and DeltaNet at batch 4 x 8,192,
    25,005 and 22,723 tokens/s, the DeltaNet's time 1.100 of the Transformer's. In the fused-kernel class (litgpt's)
    gpuwise gives 0.751 by the matmuls alone and, with delta_rule_k 4.87 (the median of the five pairs' k, this
    pair's own), the table's ratio."""
    from gpuwise.estimators.compute import training_flops

    def per_token(params, arch):
        tj, (rate, _) = _speed(kb, params, arch, seq, "litgpt")
        return training_flops(tj.shape, 1.0, seq, "full", False).value / rate

    t = per_token(1.3643, FLA_T)
    d = per_token(D_PARAMS_B, FLA_D)
    d0 = per_token(D_PARAMS_B, {k: v for k, v in FLA_D.items() if k != "recurrent"})
    assert d0 / t == pytest.approx(0.751, abs=0.002)
    assert d / t == pytest.approx(t_tok_s / d_tok_s, rel=0.01)


def test_olmo_hybrid_read_after_not_set_on(accuracy):
    """H836 (scored blind at -36.5% on 66f6fccb, validation README 'Rows H819-H836'), read after delta_rule_k was set
    from the fla table and not used to set it: -27.0% with its conditions; without the DeltaNet term -36.5%."""
    row = _h836()
    assert float(row["gpu_hours"]) == pytest.approx(76062.7)
    conds = accuracy.run_conditions(accuracy.CONDITIONS)["H836"]
    est = accuracy.run_estimate(accuracy.with_conditions(accuracy.run_workload(row), conds), "b200", 512, None)
    assert est.gpu.gpu_hours / 76062.72 - 1 == pytest.approx(-0.270, abs=0.005)


def test_no_other_scored_training_row_names_a_deltanet_mixer(accuracy):
    """The term reaches only gated DeltaNet models: of the scored training rows H836 (Olmo Hybrid 7B) and H996
    (trainblind48: Qwen3.5-35B-A3B text-only SFT, a gated DeltaNet hybrid) state one."""
    names = []
    for path in (accuracy.HELDOUT_RUNS, accuracy.RUNS):
        with open(path, newline="") as fh:
            for r in csv.DictReader(fh):
                if "gated_deltanet" in r.get("architecture_json", "") or "qwen3-next" in r.get("catalog_model", "") \
                        or "qwen3.5" in r.get("catalog_model", ""):
                    names.append(r["id"])
    assert names == ["H836", "H996"]
