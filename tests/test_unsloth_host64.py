"""A dense layer's host launches on Unsloth's LoRA path (branch unsloth64; runtime.yaml training.dense_layer_host).

Unsloth reads the packed sequences' longest length back to the host in every layer's attention
(unslothai/unsloth unsloth/utils/packing.py get_packed_info_from_kwargs at ee0a2424: ``int(lengths.max().item())``),
so a layer's micro-batch takes the longer of its GPU work and the host's launches. The count is read in that
release's Qwen3 / Llama layer and LoRA kernels; the host time a launch from a profile of an Unsloth LoRA step on one
B200 (unslothai/unsloth issue #10806: ~850 ms a step, ~20,000 launches, fla's autotune key ~180 ms of it).
H945 is Surogate's 'Unsloth BF16' Qwen3-0.6B row on one B200 (benchmarks/speed.md at 10977026: 19.1k tokens/s)."""

from __future__ import annotations

import pytest

from benchmarks import accuracy_training as acc
from gpuwise import knowledge

from .test_heldout_trainblind11 import _rows

# the forward's kernels, item by item (runtime.yaml dense_layer_host source)
FORWARD = {"input RMSNorm": 1, "LoRA_QKV: 3 x (GEMM, X A, addmm_ B)": 9,
           "get_packed_info_from_kwargs: copy in, cu_seqlens[0], cumsum, max, .item()": 5, "q and k RMSNorm": 2,
           "RoPE: two clones, ids' int32 cast, kernel": 4, "attention: three reshape copies, varlen kernel": 4,
           "LoRA_W o_proj": 3, "residual adds": 2, "post-attention RMSNorm": 1, "LoRA_MLP: 3 x 3 + SwiGLU": 10,
           "checkpoint's copy to or from the host": 1}
BACKWARD = {"LoRA_MLP": 3 + 1 + 12 + 6, "LoRA_W": 2 + 2 + 1 + 2, "LoRA_QKV": 12 + 9, "four RMSNorms": 4,
            "RoPE: two clones, kernel": 3, "attention: three flash kernels, three reshapes": 6,
            "residual forks": 2, "AccumulateGrad of 14 adapter matrices": 14}


def test_count_and_launch_time():
    dh = knowledge.load().runtime.training.dense_layer_host
    assert (dh.forward, dh.backward) == (sum(FORWARD.values()), sum(BACKWARD.values())) == (42, 79)
    assert dh.us_per_launch == pytest.approx((850 - 180) / 20_000 * 1e3, abs=0.05)  # 33.5 us
    assert dh.stacks == ["unsloth"] and dh.methods == ["lora"]


def _estimate(rid: str, **change):
    row, cond = _rows("training_heldout.csv")[rid], _rows("training_conditions.csv")[rid]
    w = {**acc.with_conditions(acc.run_workload(row), cond), **change}
    return acc.run_estimate(w, row["gpu"], int(row["gpus"])).gpu.training.step_terms


def test_small_lora_step_waits_on_the_host():
    """Qwen3-0.6B (28 layers) on one B200, 4 micro-batches, every layer recomputed: each layer's micro-batch launches
    42 x 2 + 79 = 163 kernels at 33.5 us, 5.4605 ms, longer than its GPU work (gpuwise's 0.173 s step over 112 layer
    micro-batches, 1.5 ms), so the compute term is the host's: 28 x 4 x 5.4605 ms = 0.6116 s (the published step:
    4 x 2 x 2,048 / 19,100 = 0.858 s)."""
    host = 28 * 4 * (42 * 2 + 79) * 33.5e-6
    assert host == pytest.approx(0.61158, abs=1e-5)
    assert _estimate("H945").compute_s == pytest.approx(host, rel=1e-6)


def test_full_finetune_not_counted():
    """The count is Unsloth's LoRA path: the same job as a full fine-tune keeps its GPU time, under the LoRA step's
    host floor though it does more work (its weight gradients)."""
    assert _estimate("H945", method="full").compute_s < 0.5


def test_checkpoint_copy_back_by_hand():
    """Unsloth's checkpointing copies each recomputed layer's input back from pinned host memory between two
    layers' backward work (runtime.yaml training.checkpoint_offload; unsloth_zoo UnslothCheckpointFunction):
    Qwen3-14B (40 layers, hidden 5,120) at 2 x 2,048 tokens a micro-batch, 4 micro-batches, on an H100's PCIe 5.0
    x16 (63 GB/s): 39 inputs (the last stays) x 4 x 4,096 x 5,120 x 2 B / 63e9 = 0.1039 s a step. An input of
    1,048,576 elements or fewer (2 MB of bf16) stays on the GPU: none is copied."""
    from types import SimpleNamespace as NS

    from gpuwise.estimators.step_time import checkpoint_copy_seconds
    from gpuwise.estimators.training_layout import Layout

    co = knowledge.load().runtime.training.checkpoint_offload
    assert co.stacks == ["unsloth"] and co.min_elements == 2 * 1024 * 1024 // 2
    lay = Layout(micro_batch=2, grad_accum=4, checkpointing=True)
    assert lay.recompute_share == 1.0
    tj = NS(seq=2048, shape=NS(hidden=5120, layers=40), ckpt_offload_min=float(co.min_elements), precision="bf16")
    got = checkpoint_copy_seconds(tj, NS(layout=lay), NS(pcie_gb_s=63.0))
    assert got == pytest.approx(39 * 4 * 4096 * 5120 * 2 / 63e9, rel=1e-9)
    assert got == pytest.approx(0.1039, abs=1e-4)
    small = NS(seq=512, shape=NS(hidden=1024, layers=40), ckpt_offload_min=float(co.min_elements), precision="bf16")
    assert checkpoint_copy_seconds(small, NS(layout=Layout(micro_batch=2, grad_accum=4, checkpointing=True)),
                                   NS(pcie_gb_s=63.0)) == 0.0  # 2 x 512 x 1,024 = 1,048,576 elements


def test_the_compute_step_names_the_wait():
    """CMP-LAYER-HOST-WAIT (knowledge/policy.yaml layer_host_wait_warning, a quarter): Qwen3-0.6B's LoRA on one B200
    waits on the host for 70% of its step (0.44 s of host wait over the 0.62 s step); Qwen3-14B's layers on the same
    B200 outlast their launches, and the rule stays silent."""
    from pathlib import Path

    import yaml

    import gpuwise

    case = yaml.safe_load((Path(__file__).parent / "rules" / "CMP-LAYER-HOST-WAIT" / "input.yaml").read_text())

    def hits(q):
        r = gpuwise.audit(q).model_dump(mode="json")
        return [f for f in r["findings"] if f["rule"] == "CMP-LAYER-HOST-WAIT"]

    small = hits(case)
    assert len(small) == 1 and small[0]["values"]["layer_host_wait_share"] == pytest.approx(0.70, abs=0.02)
    case["workload"]["model"] = "qwen3-14b"
    assert hits(case) == []


def test_padding_free_row_under_eager_attention():
    """H944 (open-r1 SFT of Qwen2.5-Math-7B on 8 MI350X; configs/sft_mi350x.yaml: packing true, batch 4 x 4,096,
    attn_implementation eager): TRL from v0.19 turns padding-free on for packing and its collator concatenates the
    micro-batch into one 16,384-token row, so the eager scores span 4 x 4,096 tokens, four times the score traffic
    a token. trainblind44's hand figure for one row a sequence: the step's attention 6 x 28 x 4,096 x 3,584 x
    65,536 x 4/3 FLOP at 81.92 TFLOP/s = 2.6307 s; over the flattened row, 4 x 2.6307 = 10.523 s. The step with it
    is the fused-kernel step less its attention plus that (published: ~14 s a step)."""
    attention = 4 * 6 * 28 * 4096 * 3584 * 65536 * 4 / 3 / (6 * 3584 * 6.4e12 / (28 * 60))  # 8,000 GB/s x 0.8
    assert attention == pytest.approx(10.523, abs=1e-3)
    row, cond = _rows("training_heldout.csv")["H944"], _rows("training_conditions.csv")["H944"]
    assert cond["packing"] == "padding_free" and cond["attention"] == "eager"
    w = acc.with_conditions(acc.run_workload(row), cond)
    flat = acc.run_estimate(w, "mi350x", 8).gpu.training.step_terms.compute_s
    fused = acc.run_estimate({k: v for k, v in w.items() if k != "attention"}, "mi350x", 8).gpu.training
    assert attention < flat < fused.step_terms.compute_s + attention
    assert flat - fused.step_terms.compute_s > 0.85 * attention
    # padding-free under a flash kernel changes nothing (its varlen path keeps each sequence's scores)
    plain = {k: v for k, v in w.items() if k not in ("attention", "packing")}
    assert acc.run_estimate(plain, "mi350x", 8).gpu.training.step_terms.compute_s == fused.step_terms.compute_s
