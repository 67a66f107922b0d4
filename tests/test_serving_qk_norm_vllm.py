"""vLLM's MiniMax-M2 q/k RMSNorm over all heads (knowledge/models.yaml ``qk_norm_all_heads``) as its releases ran it,
read in the source distributions from PyPI (knowledge/serving.yaml vllm ``qk_norm_allreduce``; branch minimax56):

- 0.12.0 and 0.13.0 (vllm/model_executor/models/minimax_m2.py, MiniMaxM2Attention.forward) call ``self.q_norm(q)`` and
  then ``self.k_norm(k)``, each a MiniMaxText01RMSNormTP (vllm/model_executor/layers/mamba/linear_attn.py) whose
  ``_forward`` all-reduces its [tokens, 1] FP32 variance: two all-reduces a layer, 4 bytes a token each;
- 0.14.1 and 0.16.0 call ``MiniMaxText01RMSNormTP.forward_qk``, one all-reduce of the [tokens, 2] concatenated
  variances, 8 bytes a token;
- vllm/distributed/device_communicators/custom_all_reduce.py (0.12.0, 0.16.0) ``should_custom_ar`` declines a buffer
  whose bytes are not a multiple of 16, symm_mem.py declines a tensor not of the model's dtype (FP32 here), and
  cuda_communicator.py then runs pynccl: at a CUDA-graph batch of 1 (and of 2 for the 4-byte exchanges) NCCL, 24 us
  inside a CUDA graph on NVLink (pynccl's smallest readings in vllm-project/vllm pull request #37756); on a PCIe copy
  NCCL's ring, 2 (tp - 1) steps of 3.87 us (serving.yaml vllm ``pcie_allreduce``: nccl-tests over PCIe, NVIDIA/nccl
  issue #1439), at least the copy's own all-reduce latency."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

ST = importlib.import_module("gpuwise.estimators.serving.step")
EN = importlib.import_module("gpuwise.estimators.serving.engine")
LY = importlib.import_module("gpuwise.estimators.serving.layout")

LAYERS = 62  # MiniMax-M2's config.json num_hidden_layers


@pytest.mark.parametrize(("version", "expected"), [
    ("0.12.0", (2, 4.0, 16)),   # q and k apart, each 4 bytes a token, unpadded
    ("0.13.0", (2, 4.0, 16)),
    ("0.14.1", (1, 8.0, 16)),   # forward_qk: one 8-byte exchange, unpadded
    ("0.16.0", (1, 8.0, 16)),
    ("0.19.0", (1, 8.0, 0)),    # not read: the current way (one exchange on the own kernel)
    (None, (1, 8.0, 0)),
])
def test_the_release_exchange(kb, version, expected):
    got = EN.qk_norm_exchange(kb.framework("vllm"), version, "nvidia")
    assert got[:3] == expected and got[3] == pytest.approx(24e-6)


def _consts(kb, accuracy, gpu: str, count: int, version: str | None, tp: int, precision: str = "fp8"):
    job = accuracy.serving_job(kb, "minimax-m2", precision, "vllm", 2048, 512, tp=tp, framework_version=version)
    s = SV.choose(job, kb.gpus[gpu], count)
    return ST.consts(job, s.engine, s.replica)


def test_vc04_one_token_on_four_b200(kb, accuracy):
    """Row VC04 (decode_independent.csv: MiniMax-M2.5 block FP8, vLLM 0.12.0 TP 4 on 4 x B200, one request): at one
    token 0.12.0's two 4-byte exchanges a layer both run on NCCL (24 us each) where 0.16.0's one 8-byte exchange does
    too: 62 x 24 us = 1.488 ms more a step, plus the second exchange's 4 bytes over the ring. At four tokens both are
    16-byte aligned and run on the own kernel: 62 x 8 us more."""
    c12 = _consts(kb, accuracy, "b200", 4, "0.12.0", 4)
    c16 = _consts(kb, accuracy, "b200", 4, "0.16.0", 4)
    assert c12.tp == 4 and c12.qk_layers == LAYERS and c12.allreduce_latency == pytest.approx(8e-6)
    assert c12.qk_nccl == pytest.approx(24e-6) and c16.qk_nccl == pytest.approx(24e-6)
    share, bw = c12.tp_share, c12.link_bw
    one = ST.tp_allreduce_seconds(c12, 1.0) - ST.tp_allreduce_seconds(c16, 1.0)
    assert one == pytest.approx(LAYERS * (24e-6 + share * (2 * 4 - 8) / bw), rel=1e-9)
    four = ST.tp_allreduce_seconds(c12, 4.0) - ST.tp_allreduce_seconds(c16, 4.0)
    assert four == pytest.approx(LAYERS * 8e-6, rel=1e-9)


def test_a_pcie_copy_sends_the_small_exchange_through_nccls_ring(kb, accuracy):
    """Row DW13's system (2 x RTX PRO 6000 Blackwell Max-Q over PCIe, vLLM 0.13.0, TP 2): NCCL's ring over two GPUs
    is 2 steps of 3.87 us, 7.74 us, under the copy's own all-reduce latency (8 us), so a declined exchange costs what
    an own one does; the NVLink reading (24 us) is not taken for it."""
    c = _consts(kb, accuracy, "rtx-pro-6000-blackwell-max-q", 2, "0.13.0", 2, "int4")
    assert c.rep.nccl_small_s == pytest.approx(max(c.eng.allreduce_latency, 2 * 3.87e-6))
    assert c.qk_nccl == pytest.approx(c.allreduce_latency)


def test_pcie_ring_latency_off_pcie_is_zero(kb, accuracy):
    c = _consts(kb, accuracy, "b200", 4, "0.12.0", 4)
    assert c.rep.nccl_small_s == 0.0
    assert LY.pcie_nccl_latency(c.eng, "nvlink", 4) == 0.0
