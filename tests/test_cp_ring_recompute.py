"""Context parallelism's ring traffic in a recomputed layer (branch cpring41).

Ring attention passes each rank's K and V chunk around the ring in the forward (cp - 1 hops) and K, V and their
gradients in the backward (Liu et al. 2023, arXiv:2310.01889; zhuzilin/ring-flash-attention
zigzag_ring_flash_attn.py: the backward's ``kv_comm`` and ``d_kv_comm``). A layer recomputed for the backward runs
its forward again, and its attention's forward is the ring (Transformer Engine's AttnFuncWithCPAndKVP2P.forward does
the P2P exchange; EasyContext's train.py calls ``model.gradient_checkpointing_enable()`` over the patched ring
attention), so a recomputed layer passes K and V once more: 3 + 1 chunk-passes a layer, not 3."""
from __future__ import annotations

from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import training_job
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

JOB = {"task": "pretrain", "model": "llama-3-8b", "train_tokens": 1e10, "seq_len": 65536, "zero_stage": 3}


def _figures(kb, checkpointing: bool):
    tj = training_job(resolve(Requirements(workload={**JOB, "gradient_checkpointing": checkpointing}), kb))
    return P.figures(tj, P._layout(tj, 8, 1, 1, 8, 1, 1, (3, checkpointing, "none")))


def test_ring_bytes_by_hand(kb):
    # Llama 3 8B: 8 KV heads x 128 = 1,024 K (and V) values a token; 65,536 / 8 = 8,192 tokens a rank; 7 hops, 2 B
    st = _figures(kb, False)
    assert st.cp_bytes == 2 * 1024 * 8192 * 2 * 7
    assert st.cp_count == 32 * st.layout.grad_accum * 3  # forward K V, backward K V and dK dV


def test_a_recomputed_layer_passes_k_and_v_once_more(kb):
    plain, ckpt = _figures(kb, False), _figures(kb, True)
    assert plain.cp_bytes == ckpt.cp_bytes
    assert ckpt.cp_count / ckpt.layout.grad_accum == 32 * 4
    assert ckpt.cp_count / ckpt.layout.grad_accum == plain.cp_count / plain.layout.grad_accum * 4 / 3
