"""A published INT4 checkpoint that quantizes only the routed experts (Kimi K2 Thinking / K2.5: compressed-tensors
INT4, symmetric, group 32, every other weight BF16; knowledge/serving.yaml int4_checkpoints, sources there) is held and
read at its own bytes, not at the group-128 int4 format's 4.156 bits for every weight."""

from __future__ import annotations

import pytest

from gpuwise.estimators import memory as M
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import checkpoint_bits, checkpoint_keeps, model_bytes, quant_formats
from gpuwise.inputs.schema import Workload
from gpuwise.inputs.shape import from_workload

ROUTED = 60 * 384 * 3 * 7168 * 2048  # Kimi K2 config.json: 60 MoE layers x 384 experts x (gate, up, down) 7168 x 2048
TOTAL = 1_026_408_232_448  # knowledge/models.yaml kimi-k2 params_b (recomputed from the config's shapes)


def _shape(kb, model: str):
    m = kb.models[kb.model(model).id]
    return from_workload(Workload(model=model, task="inference"), m)


def test_the_checkpoint_is_its_experts_at_4_5_bits_and_the_rest_in_bf16(kb):
    """1,014,686,023,680 routed weights x 4.5 / 8 = 570.76 GB, plus 11,722,208,768 others x 2 = 23.44 GB: 594.21 GB,
    the size of moonshotai/Kimi-K2-Thinking's safetensors (~594 GB); at 4.156 bits everywhere it read 536.9 GB."""
    sh = _shape(kb, "kimi-k2")
    assert M.routed_expert_params(sh) == pytest.approx(ROUTED, rel=1e-7)  # from the catalog's total and active counts
    mb = model_bytes(sh, "int4", quant_formats(kb), ("non_experts",), 4.5)
    assert mb.experts == pytest.approx(ROUTED * 4.5 / 8)
    assert mb.total == pytest.approx(ROUTED * 0.5625 + (TOTAL - ROUTED) * 2, rel=1e-7)
    assert mb.total / 1e9 == pytest.approx(594.21, abs=0.01)
    assert model_bytes(sh, "int4", quant_formats(kb)).total / 1e9 == pytest.approx(536.94, abs=0.01)


def test_a_kimi_int4_job_is_served_from_it_and_others_are_not(kb, accuracy):
    """The entry applies where the job serves kimi-k2 in int4 with no other file named; a dense int4 model (GPTQ/AWQ,
    group 128) and Kimi K2 in FP8 keep their bytes."""
    job = accuracy.serving_job(kb, "kimi-k2", "int4", "vllm", 8000, 390, 1000, 8, 1)
    assert checkpoint_keeps(job, "int4", None) == ("non_experts",) and checkpoint_bits(job, "int4", None) == 4.5
    assert checkpoint_keeps(job, "int4", "awq") == () and checkpoint_bits(job, "int4", "awq") is None
    fp8 = accuracy.serving_job(kb, "kimi-k2", "fp8", "vllm", 8000, 390, 1000, 8, 1)
    assert checkpoint_keeps(fp8, "fp8", None) == ()
    dense = accuracy.serving_job(kb, "llama-3.1-8b", "int4", "vllm", 512, 128, 8, 1, 1)
    assert checkpoint_bits(dense, "int4", None) is None


def test_each_h200_of_a_tp8_copy_holds_76_gb_and_fewer_sequences(kb, accuracy):
    """TP 8 on 8 x H200 (vLLM's recipe for Kimi K2 Thinking, vllm-project/recipes moonshotai/Kimi-K2-Think.md): each
    GPU holds an eighth of the experts (71.35 GB) and of the split BF16 weights, and whole the MLA down-projections
    and the gate every rank keeps (2.18 GB): 76.18 GB where 67.83 GB was counted, so the copy holds 90 sequences of
    8,208 tokens in vLLM's own pool (gpu_memory_utilization 0.9 of the card less the weights, working set, context
    and the profile run's sampler peak, 37.7 B x 163,840 vocabulary x 1,024 requests = 6.33 GB: serving.yaml
    profile_sampler; 100 without it, 113 at gpuwise's 0.95 headroom), not 128 (the recipe's log: 46.80 GiB of KV
    memory, 715,072 tokens, ~85 such sequences; the rest is vLLM's non-torch memory and the forward's own peak)."""
    job = accuracy.serving_job(kb, "kimi-k2", "int4", "vllm", 8000, 390, 1000, 8, 1)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.replica.weights_gpu / 1e9 == pytest.approx(76.18, abs=0.01)
    assert s.replica.max_seqs == 90 and s.replica.pool_kind == "total"
