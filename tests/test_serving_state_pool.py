"""SGLang's recurrent-state pool for hybrid models, and how many requests it lets a server run
(gpuwise/estimators/serving/statepool.py; knowledge/serving.yaml sglang ``hybrid_state_pool``).

Read in the sglang release wheels from PyPI: 0.5.16 sglang/srt/mem_cache/kv_cache_configurator.py
``_handle_max_mamba_cache`` gives the state pool mamba_full_memory_ratio / (1 + ratio) = 0.9 / 1.9 of the memory left
for the pools, in whole slots of ``mamba_cache_per_req`` (every DeltaNet layer's conv and temporal state on the rank);
``resolve_max_num_reqs`` caps the running requests at slots // ``_calculate_mamba_ratio()``: 3 + 2 (the extra_buffer
strategy under the overlap scheduler, which arg_groups/overrides.py ``_mamba_radix_cache_resolution`` picks for
Qwen3_5MoeForConditionalGeneration on the triton linear-attention backend) with the radix cache on, 1 with
--disable-radix-cache; with --disable-radix-cache and --max-running-requests the pool holds exactly that many slots.
0.5.12 (model_runner_kv_cache_mixin.py, server_args.py: 'auto' resolves to 'no_buffer') caps at slots // 3.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.layout import vlm_share_factor

# Qwen3.5-397B-A17B: 45 gated-DeltaNet layers of 64 value heads of 128 x 128 (float32) and a convolution state of
# 3 x (2 x 16 x 128 + 64 x 128) = 36,864 bf16 elements (models.yaml, vllm mamba_utils gated_delta_net_state_shape)
STATE_397B = 45 * (64 * 128 * 128 * 4 + 36_864 * 2)  # 192,061,440 B a sequence
# its 15 attention layers: K and V of 2 KV heads of 256 in bf16, split over min(tp, 2) = 2 of the 8 GPUs
KV_TOKEN_397B_TP8 = 15 * 2 * 2 * 256 * 2 // 2  # 15,360 B a token a GPU
HELD_TOKENS = 8192 + 1024 // 2  # SGLang admits a sequence at its prompt plus half its output (kv_reserve current)


def _job(accuracy, kb, gpu_count, version, options="", precision="fp8", ep=8):
    return accuracy.serving_job(kb, "qwen3.5-397b-a17b", precision, "sglang", 8192, 1024, 1024, gpu_count, 1,
                                ep, None, version, options)


def _served(kb, job, gpu, count):
    return SV.choose(job, kb.gpus[gpu], count)


def test_state_a_sequence_by_hand():
    """45 x (1,048,576 x 4 + 36,864 x 2) = 45 x 4,268,032 = 192,061,440 B; over tensor parallel 8, 24,007,680 B
    (22.9 MiB) a GPU, SGLang's mamba_cache_per_req on a rank (the heads split over the ranks)."""
    assert STATE_397B == 192_061_440
    assert STATE_397B // 8 == 24_007_680


def test_qwen35_397b_on_8_h200_radix_on_by_hand(kb, accuracy):
    """SK08's server (FP8, --tp 8 --ep 8 on 8 x H200, SGLang 0.5.16, radix cache on): the pools' memory a GPU is
    split 0.9 : 1; the state slots are floor(0.9 / 1.9 x pool / 24,007,680 B), the cap slots // 5, and the KV pool
    the rest over 8,704 tokens x 15,360 B = 133,693,440 B a sequence. Before the state pool the KV pool held each
    sequence's state beside its KV cache: floor(pool / 157,701,120 B) = 533 sequences at the plain default share."""
    job = _job(accuracy, kb, 8, "0.5.16")
    s = _served(kb, job, "h200-141gb-sxm", 8)
    rep = s.replica
    assert (s.layout.tp, s.layout.ep, s.layout.replicas) == (8, 8, 1)
    assert rep.state_gpu == STATE_397B / 8
    assert rep.kv_token_gpu == KV_TOKEN_397B_TP8
    pool = rep.free_gpu
    slots = int(pool * 0.9 / 1.9 // (STATE_397B / 8))
    kv_seq = HELD_TOKENS * KV_TOKEN_397B_TP8
    assert kv_seq == 133_693_440
    held = int((pool - slots * STATE_397B / 8) // kv_seq)
    assert rep.state_slots == slots and rep.state_pool_gpu == slots * STATE_397B / 8
    assert rep.max_seqs == min(held, slots // 5)
    # the default share is lowered for the checkpoint's vision encoder (sglvlm41: 0.95 x (1 - 0.1 x (24 x 1152^2 /
    # (24 x 1024^2) - 1)) = 0.9248, tests/test_serving_vlm_share.py); at the plain share the shared pool held
    # serveblind16's 533 sequences, at the lowered one 468
    f = vlm_share_factor(job, s.engine)
    assert f == pytest.approx(0.95 * 0.9734375, rel=1e-12)
    plain = pool + rep.pool_share * (1 / f - 1) * s.engine.capacity
    assert int(plain // (kv_seq + STATE_397B / 8)) == 533  # the shared pool before (serveblind16's 533)
    assert int(pool // (kv_seq + STATE_397B / 8)) == 468
    assert rep.max_seqs < 468


def test_the_cap_binds_where_the_state_pool_is_small(kb, accuracy):
    """SK22's server (FP8 on 2 x B300, --tp 2, 0.5.16): the state a GPU is 4 x as large as on 8 GPUs, so the slots
    // 5 bind below what the KV pool holds, and the report's formula says so (state_slots_per_rank)."""
    job = _job(accuracy, kb, 2, "0.5.16", ep=None)
    s = _served(kb, job, "b300", 2)
    rep = s.replica
    state = STATE_397B / 2
    assert rep.state_gpu == state
    slots = int(rep.free_gpu * 0.9 / 1.9 // state)
    assert (rep.state_slots, rep.state_slots_per_request) == (slots, 5)
    assert rep.max_seqs == rep.sched_cap == slots // 5 and rep.state_capped
    # 0.5.12 resolves the strategy to no_buffer: slots // 3
    old = _served(kb, _job(accuracy, kb, 2, "0.5.12", ep=None), "b300", 2).replica
    assert old.max_seqs == min(slots // 3, old.max_seqs) and old.max_seqs > rep.max_seqs


def test_radix_off_sizes_the_pool_from_max_running_requests(kb, accuracy):
    """--disable-radix-cache --max-running-requests 128 (SK14 / SK21's flags): the state pool holds 128 slots, the
    KV pool the rest, one slot a request; without --max-running-requests (0.5.9 on) the 0.9 : 1 split with one slot
    a request."""
    job = _job(accuracy, kb, 2, "0.5.16", "prefix_cache=false;max_batch_size=128", ep=None)
    rep = _served(kb, job, "b300", 2).replica
    assert rep.max_seqs == 128 and rep.cap_stated and not rep.state_capped
    assert rep.state_slots == 128 and rep.state_pool_gpu == 128 * STATE_397B / 2
    off = _served(kb, _job(accuracy, kb, 2, "0.5.16", "prefix_cache=false", ep=None), "b300", 2).replica
    slots = int(off.free_gpu * 0.9 / 1.9 // (STATE_397B / 2))
    held = int((off.free_gpu - slots * STATE_397B / 2) // (HELD_TOKENS * 15 * 2 * 2 * 256 * 2 // 2))
    assert off.max_seqs == min(slots, held)


def test_before_the_first_release_and_on_vllm_the_state_shares_the_kv_pool(kb, accuracy):
    """SGLang 0.5.2 and 0.5.3 size no ratio split (the state pool there is --max-running-requests or 512 with the
    radix cache forced off, not modelled), and vLLM keeps the state in its KV pool's pages (MambaSpec): the KV pool
    holds state and KV cache a sequence together, with no cap of its own."""
    for job, gpu in ((_job(accuracy, kb, 8, "0.5.2"), "h200-141gb-sxm"),
                     (accuracy.serving_job(kb, "qwen3.5-397b-a17b", "fp8", "vllm", 8192, 1024, 1024, 8, 1, None,
                                           None, None, ""), "h200-141gb-sxm")):
        rep = _served(kb, job, gpu, 8).replica
        assert rep.state_slots == 0
        assert rep.max_seqs <= int(rep.free_gpu // rep.per_seq_gpu)


def test_prefix_cache_off_with_a_hit_rate_is_refused(kb, accuracy):
    with pytest.raises(ValueError, match="prefix_cache false keeps no prompt prefixes"):
        _job(accuracy, kb, 8, "0.5.16", "prefix_cache=false;prefix_cache_hit_rate=0.5")


def test_prefix_cache_on_a_training_job_is_refused():
    from gpuwise.inputs.workload import Workload
    with pytest.raises(ValueError, match="prefix_cache applies to task inference only"):
        Workload.model_validate({"task": "finetune", "model": "llama-3.1-8b", "prefix_cache": True})
    Workload.model_validate({"task": "finetune", "model": "llama-3.1-8b", "prefix_cache": False})  # says nothing
