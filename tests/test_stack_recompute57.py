"""A named training stack's own recomputation default (runtime.yaml training_stacks recompute; branch stackdefaults57).

torchtitan at b5bcd76c (2026-08-21): torchtitan/trainer.py Trainer.Config defaults activation_checkpoint to
SelectiveAC (per-op: the expensive ops' outputs saved, every second matmul recomputed), which the shipped configs
keep for llama3_8b, qwen3_0_6b, qwen3_1_7b and sft_qwen3_8b_math, and FullAC in llama3_70b, llama3_405b, qwen3_14b and
qwen3_32b (torchtitan/models/*/config_registry.py; at 238fa995 the TOML configs llama3_8b.toml mode 'selective' with
selective_ac_option 'op', llama3_70b.toml and llama3_405b.toml mode 'full'). A job that names the stack and leaves
gradient_checkpointing out gets that default, said as an assumption; a stated gradient_checkpointing wins.
XTuner (InternLM/xtuner at b934f462, xtuner/model/sft.py SupervisedFinetune use_activation_checkpointing=True) and
Levanter (stanford-crfm/levanter at 9263f81e, LlamaConfig gradient_checkpointing=True) recompute every layer.
"""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge
from gpuwise.estimators.compute import training_flops
from gpuwise.inputs.shape import from_catalog

H, KV, F, L = 4096, 1024, 14336, 32  # Llama 3.1 8B (tests/test_sac_op49.py's hand count)


def _w(**extra) -> dict:
    return {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "train_tokens": 1e10, "seq_len": 8192,
            "global_batch_tokens": 65536, "batch_size": 1, "stack": "torchtitan", "torch_compile": True, **extra}


def _est(w: dict, gpus: int = 8, gpu: str = "h100-80gb-sxm"):
    return estimate({"workload": w}, gpu=gpu, gpus=gpus)


def test_only_torchtitan_lists_a_default_and_it_is_sourced():
    stacks = knowledge.load().runtime.training_stacks
    assert {k for k, s in stacks.items() if s.recompute} == {"torchtitan", "xtuner", "levanter"}
    assert [r.mode for r in stacks["xtuner"].recompute] == ["full"] and stacks["xtuner"].recompute_moe
    assert stacks["maxtext"].recompute is None  # base.yml's 'full' tried: NVIDIA's recipes run lighter policies
    tt = stacks["torchtitan"]
    assert [(r.upto_params_b, r.mode) for r in tt.recompute] == [(10.0, "selective_op"), (None, "full")]
    assert "b5bcd76c" in tt.recompute_source and "FullAC" in tt.recompute_source


def test_an_8b_model_on_torchtitan_recomputes_per_op_as_if_stated():
    """The torchao README's torchtitan Llama3-8b run (pytorch/ao torchao/float8/README.md at 8c81863b: 8 H100, FSDP2,
    batch 1 of 8,192, torch.compile, per-op SAC, bf16) peaked at 47.65 GB; leaving gradient_checkpointing out on
    torchtitan now gives the same estimate as stating selective_op, whose step pays the recomputed matmuls:
    32 layers x 2 x (4,096 x 1,024 + 4,096 x 4,096 + 4,096 x 14,336) = 32 x 159,383,552 FLOPs a token more."""
    pin = {"zero_stage": 3, "parallelism": {"tp": 1, "pp": 1, "cp": 1}}
    left = _est(_w(**pin))
    said = _est(_w(gradient_checkpointing="selective_op", **pin))
    plain = _est(_w(gradient_checkpointing=False, **pin))
    assert left.gpu.training.layout_notation == "TP1 PP1 DP8 ZeRO-3 ckpt-op"
    assert left.gpu.training.step_terms.step_s == pytest.approx(said.gpu.training.step_terms.step_s, rel=1e-12)
    assert left.memory.per_gpu_bytes == pytest.approx(said.memory.per_gpu_bytes, rel=1e-12)
    assert left.memory.per_gpu_bytes == pytest.approx(47.65e9, rel=0.10)
    per_token = training_flops(from_catalog(knowledge.load().models["llama-3.1-8b"]), 1.0, 8192, "full", False).value
    ratio = left.gpu.training.step_terms.compute_s / plain.gpu.training.step_terms.compute_s
    assert ratio == pytest.approx(1 + L * 2 * (H * KV + H * H + H * F) / per_token, rel=1e-6)
    said_as = [a for a in left.assumptions if a.field == "workload.gradient_checkpointing"]
    assert [a.message_id for a in said_as] == ["assume.default.workload.gradient_checkpointing.stack_selective_op"]
    assert said_as[0].values == {"stack": "TorchTitan", "params_b": 8.0}


def test_a_70b_model_on_torchtitan_recomputes_every_layer():
    """llama3_70b's config: FullAC. On 64 H100 the 70B model recomputes every layer, as if true were stated, though
    gpuwise's own choice (none where it fits) would pick another layout."""
    w = {**_w(), "model": "llama-3.1-70b", "global_batch_tokens": 64 * 8192}
    left, said = _est(w, 64), _est({**w, "gradient_checkpointing": True}, 64)
    assert left.gpu.layout.checkpointing and left.gpu.layout.recompute_share == 1.0
    assert left.gpu.training.step_terms.step_s == pytest.approx(said.gpu.training.step_terms.step_s, rel=1e-12)
    assert [a.message_id for a in left.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing.stack_full"]


def test_what_the_user_states_wins_and_no_stack_keeps_gpuwise_own_choice():
    plain = _est(_w(gradient_checkpointing=False))
    assert not plain.gpu.layout.checkpointing and not plain.gpu.training.layout_notation.endswith("ckpt-op")
    auto = _est(_w(gradient_checkpointing="auto"))  # stated 'auto': gpuwise's own choice, none where it fits
    assert not auto.gpu.training.layout_notation.endswith("ckpt-op")
    w = _w()
    del w["stack"]
    unnamed = _est(w)
    assert not unnamed.gpu.training.layout_notation.endswith("ckpt-op")
    assert [a.message_id for a in unnamed.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing"]


def test_an_moe_model_keeps_gpuwise_own_choice():
    """The MoE configs split (qwen3_30b_a3b and gpt_oss FullAC, deepseek_v3 SelectiveAC), and per-op selective
    checkpointing is costed for dense decoders only: an MoE model on torchtitan is the planner's."""
    e = _est({**_w(), "model": "qwen3-30b-a3b", "global_batch_tokens": 8 * 8192})
    assert [a.message_id for a in e.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing"]


def test_xtuner_recomputes_every_layer_of_a_full_sft():
    """Held-out H460's shape (Llama 2 7B full SFT on 8 A100 80 GB, XTuner, its conditions 'true'): left out, XTuner's
    default recomputes every layer, the same estimate as stating true; FLOPs a token grow from 6 N to 8 N plus
    attention's share, so the compute term grows by at most a third."""
    w = {"task": "finetune", "method": "full", "model": "llama-2-7b", "precision": "bf16", "train_tokens": 1e8,
         "seq_len": 4096, "global_batch_tokens": 8 * 4096, "batch_size": 1, "stack": "xtuner"}
    left = _est(w, 8, "a100-80gb-sxm")
    said = _est({**w, "gradient_checkpointing": True}, 8, "a100-80gb-sxm")
    plain = _est({**w, "gradient_checkpointing": False}, 8, "a100-80gb-sxm")
    assert left.gpu.layout.checkpointing and not plain.gpu.layout.checkpointing
    assert left.gpu.training.step_terms.step_s == pytest.approx(said.gpu.training.step_terms.step_s, rel=1e-12)
    ratio = left.gpu.training.step_terms.compute_s / plain.gpu.training.step_terms.compute_s
    assert 1.25 < ratio <= 4 / 3 + 1e-9
    assert [a.message_id for a in left.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing.stack_full"]
