"""Expert tensor parallelism as a layout setting (branch etp52, issue 22): workload.parallelism.etp, the stacks'
defaults (runtime.yaml training_stacks expert_tensor_parallel), and what follows from it, each figure by hand.

* Megatron-Core lays a stage's tp x dp GPUs out for the experts as EP x ETP x EDP (Liu et al. 2025, MoE parallel
  folding, arXiv:2504.14960); Megatron-LM's megatron/training/arguments.py sets an unset
  --expert-tensor-parallel-size to the tensor-parallel size, Megatron-Bridge's recipes set 1
  (src/megatron/bridge/recipes/deepseek/deepseek_v3.py at f9aad1f31, scripts/performance/configs/*_workload_base_
  configs.py at 1ff09371d; models/transformer_config.py _set_moe_expert_tensor_parallel_default from 6f2f546ef).
* Megatron-Core's all-to-all dispatcher (megatron/core/transformer/moe/token_dispatcher.py at core_r0.12.0:
  'permute->A2A(EP)->AG(TP)->sort_chunk', 'sort_chunk->RS(TP)->A2A(EP)->unpermute') gathers the routed rows over
  the experts' tensor-parallel group after the all-to-all and reduce-scatters the output before the one back; with
  sequence parallelism the MoE block gathers no sequence of its own, and with ETP 1 it moves no TP traffic at all.

The layout is held-out row H244's (Qwen3-30B-A3B, Megatron-SWIFT TP2 EP8 on 16 A800, 8,192-token sequences, micro-
batch 1, global batch 16, full recomputation): 48 layers, hidden 2,048, 128 experts of 3 x 2,048 x 768, top-8.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import memory as M
from gpuwise.estimators import stage_split as S
from gpuwise.estimators.training_layout import Layout, figures

ROUTED = 48 * 128 * 3 * 2048 * 768  # 28,991,029,248 routed-expert parameters


def _tj(kb, stack: str, etp: int | None = None):
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    par = {"tp": 2, "ep": 8, **({"etp": etp} if etp else {})}
    w = {"task": "pretrain", "model": "qwen3-30b-a3b", "precision": "bf16", "train_tokens": 1e10, "seq_len": 8192,
         "global_batch_tokens": 131072, "batch_size": 1, "gradient_checkpointing": True, "stack": stack,
         "parallelism": par}
    return training_job(resolve(Requirements.model_validate({"workload": w}), kb))


def _lay(etp: int) -> Layout:
    # 16 GPUs: TP2 x DP8, EP8; 8 replicas x 8,192 tokens = 65,536 a micro-step, 2 of them make 131,072
    return Layout(tp=2, pp=1, dp=8, ep=8, micro_batch=1, grad_accum=2, global_batch_tokens=131072, zero=1,
                  checkpointing=True, etp=etp)


def test_expert_split_takes_the_stated_size_where_it_divides():
    assert S.expert_split(2, 8, 8, 1) == (1, 2)  # 16 GPUs / (EP8 x ETP1) = 2 expert data-parallel ranks
    assert S.expert_split(2, 8, 8, 2) == (2, 1)  # ETP2: 16 / 16 = 1
    assert S.expert_split(2, 8, 8, 4) == (2, 1)  # EP8 x ETP4 = 32 does not divide 16: Megatron-LM's rule, ETP = TP
    assert S.expert_split(2, 8, 8) == (2, 1)  # unset: ETP = TP, EP inside the data-parallel GPUs
    assert S.expert_split(2, 16, 32) == (1, 1)  # unset, EP wider than DP: folded, each expert whole


def test_stack_defaults_and_the_users_pin(kb):
    assert _tj(kb, "nemo").etp == 1  # Megatron-Bridge's recipes
    assert _tj(kb, "megatron").etp == 0  # Megatron-LM's argument default: the rule (ETP = TP here)
    assert _tj(kb, "megatron", 1).etp == 1  # the user's
    assert _tj(kb, "nemo", 2).etp == 2


def test_memory_per_gpu_follows_the_experts_split(kb):
    """Experts whole (ETP 1): 28.99e9 / 8 = 3.62e9 routed parameters a GPU over 2 expert data-parallel ranks; split
    over TP2: 1.81e9 over 1. Megatron's layout holds 2 B of bf16 weight and 4 B of fp32 main gradient a parameter
    and its distributed optimizer 12 B (fp32 master, two moments) over the expert data-parallel ranks: 3.62e9 x
    (2 + 4 + 12 / 2) = 43.49 GB against 1.81e9 x (2 + 4 + 12) = 32.62 GB, 10.87 GB more a GPU with ETP 1."""
    shape = _tj(kb, "megatron").shape
    assert shape.routed_expert_params == pytest.approx(ROUTED, rel=1e-5)
    assert S.stage_params(shape, 2, 1, 8, 8, 1)[1] == pytest.approx(ROUTED / 8, rel=1e-5)
    assert S.stage_params(shape, 2, 1, 8, 8, 2)[1] == pytest.approx(ROUTED / 16, rel=1e-5)
    assert S.expert_shards(2, 8, 8, 8, 1) == 2 and S.expert_shards(2, 8, 8, 8, 2) == 1
    tj = _tj(kb, "megatron")
    rt = tj.runtime
    whole, split = (M.parallel_bytes(shape, tj.setup(_lay(e)), rt.quantization) for e in (1, 2))
    states = [b.weights + b.gradients + b.optimizer for b in (whole, split)]
    assert states[0] - states[1] == pytest.approx(ROUTED / 8 * 12 - ROUTED / 16 * 18, rel=1e-3)  # 10.87 GB
    assert whole.activations == pytest.approx(split.activations)  # k rows / tp at full width = k rows at width / tp


def test_traffic_a_layer_follows_the_experts_split(kb):
    """ETP2 (Megatron-LM's default here): each GPU dispatches the top-8 rows of its 4,096 tokens (sequence parallel
    over TP2) at width 2,048; the ETP group gathers its 2 GPUs' rows, 2 x 4,096 x 8 rows x 2,048 x 2 B = 268 MB,
    an all-gather and a reduce-scatter a pass (one all-reduce equivalent), 3 passes with full recomputation, 48
    MoE layers x 2 micro-steps: 288. The attention's sequence gathers stay: 8,192 x 2,048 x 2 B = 33.6 MB, 48 x 2
    x 3 = 288, the MoE block's own dropped (Qwen3 has no shared expert). ETP 1: no gather of routed rows."""
    tj = _tj(kb, "megatron")
    two, one = figures(tj, _lay(2)), figures(tj, _lay(1))
    assert two.etp_bytes == pytest.approx(2 * 4096 * 8 * 2048 * 2)  # 268,435,456 B
    assert two.etp_count == 48 * 2 * 3
    assert two.tp_bytes == pytest.approx(8192 * 2048 * 2)
    assert two.tp_count == 48 * 2 * 3 == one.tp_count
    assert one.etp_bytes == 0.0 and one.etp_count == 0.0
    assert two.ep_bytes == one.ep_bytes == pytest.approx(4096 * 8 * 2048 * 2)  # the all-to-all does not change
    # a stack not built on Megatron-Core's MoE layer keeps the dense layers' count: 4 + 2 x 1 a layer
    tt = _tj(kb, "torchtitan")
    plain = figures(tt, _lay(0))
    assert plain.tp_count == 48 * 2 * 6 and plain.etp_count == 0.0


def test_the_layout_says_its_experts_split(kb):
    assert _lay(1).notation().startswith("TP2 PP1 DP8 EP8 ETP1 ")
    assert "ETP" not in _lay(2).notation()  # the experts split as the dense layers
    assert _lay(1).as_dict()["etp"] == 1 and "etp" not in Layout().as_dict()
