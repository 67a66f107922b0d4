"""``attention_kernel: fa3``, FlashAttention-3 stated for a training run (branch product61).

Users write it (nanochat and ms-swift's flash_attention_3 scripts run it on Hopper); it was refused as 'not one of
fa2, cudnn'. FlashAttention-3 is the kernel the fused class's Hopper figure was read from: 1.5x FlashAttention-2's
35% of the H100's dense BF16 peak, 0.525 (Shah et al. 2024, arXiv:2407.08608, abstract: 'FlashAttention-2
achieving only 35% utilization on the H100', FlashAttention-3 '1.5-2.0x' faster), so a stated fa3 is priced in that
class on Hopper, as cuDNN's kernel is. It is built for Hopper only: the flash-attention README's FlashAttention-3
section, 'Requirements: H100 / H800 GPU, CUDA >= 12.3', and its Python interface refuses other parts ('only supports
Hopper GPUs (SM90)', hopper/test_blackwell_guard.py at 7766a87d), so on an A100 or a B200 the candidate is refused
(CPT-ATTENTION-KERNEL-DEVICE) naming compute capability 9.0 alone.
"""

from __future__ import annotations

import pytest

import gpuwise
from gpuwise.errors import UserError

# Phi-4's shape (microsoft/phi-4 config.json), pretraining at 32,768 tokens: attention is about a third of its FLOPs,
# so the kernel's rate shows in the hours (tests/test_attention_kernels.py reads the same shape)
PHI4 = {"layers": 40, "hidden_size": 5120, "heads": 40, "kv_heads": 10, "ffn_size": 17920, "vocab_size": 100352,
        "tied_embeddings": False}
JOB = {"task": "pretrain", "params_b": 14.7, "architecture": PHI4, "seq_len": 32768, "train_tokens": 1e10,
       "stack": "fsdp-hf"}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}


def _hours(kernel: str | None, gpu: str = "h100") -> float:
    w = {**JOB, **({"attention_kernel": kernel} if kernel else {})}
    return gpuwise.estimate({"workload": w}, gpu=gpu, gpus=8).gpu.gpu_hours


def test_fa3_on_hopper_runs_at_flashattention3s_figure():
    """fsdp-hf's own class is fa2 (0.35 of the peak on Hopper); fa3 runs at 0.525, the fused class's Hopper figure,
    which is FlashAttention-3's own: the same hours as cuDNN's kernel stated, fewer than fa2's."""
    fa3, cudnn, fa2, unstated = _hours("fa3"), _hours("cudnn"), _hours("fa2"), _hours(None)
    assert fa3 == pytest.approx(cudnn, rel=1e-12)
    assert fa2 == pytest.approx(unstated, rel=1e-12)
    assert fa3 < 0.95 * fa2  # a third of the FLOPs at 1.5x the rate
    assert _hours("fa3", "h200") == pytest.approx(_hours("cudnn", "h200"), rel=1e-12)


def _rejections(gpu: str) -> list:
    got = gpuwise.recommend({"workload": {**LORA8, "attention_kernel": "fa3"}, "constraints": {"gpus": [gpu],
                                                                                               "max_gpus": 8}})
    return [f for f in got.findings if f.rule == "CPT-ATTENTION-KERNEL-DEVICE"]


@pytest.mark.parametrize(("gpu", "refused"), [("a100-80gb-sxm", True), ("b200", True), ("rtx-4090", True),
                                              ("mi300x", True), ("h100", False), ("h20", False)])
def test_fa3_off_hopper_is_refused(gpu, refused):
    found = _rejections(gpu)
    assert bool(found) == refused
    if refused:
        assert "attention_kernel fa3 has kernels for NVIDIA (compute capability 9.0) only, not for" in found[0].message


def test_flashattention3_as_people_name_it_offers_fa3():
    for given in ("flash_attention_3", "flash_attn_3", "FlashAttention-3"):
        with pytest.raises(UserError) as err:
            gpuwise.estimate({"workload": {**LORA8, "attention_kernel": given}}, gpu="h100")
        assert "did you mean fa3?" in str(err.value), given
