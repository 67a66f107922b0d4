"""vLLM 0.7.1-0.7.3 turned chunked prefill off for MLA models ('MLA is enabled; forcing chunked prefill and prefix
caching to be disabled', max_num_batched_tokens = max(max_model_len, 2048); knowledge/serving.yaml vllm
mla_whole_prefill): a DeepSeek job that states such a release is prefilled whole, in forwards without decodes, with
the model's whole context (163,840 tokens for DeepSeek-R1, its config's max_position_embeddings) as the step budget,
which the memory profile also reserves. From 0.8.0 (MLA on the V1 engine) and for models without MLA nothing
changes."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _served(kb, accuracy, model: str, precision: str, version: str | None, gpu: str = "h200-141gb-sxm"):
    job = accuracy.serving_job(kb, model, precision, "vllm", 3200, 800, 32, 8, 1, framework_version=version)
    return job, SV.choose(job, kb.gpus[gpu], 8)


def test_an_mla_job_on_0_7_prefills_whole_prompts_alone_with_the_whole_context_as_budget(kb, accuracy):
    _, s = _served(kb, accuracy, "deepseek-r1", "fp8", "0.7.3")
    fw = s.engine.fw
    assert (fw.chunked_prefill, fw.mixed_prefill) == (False, False)
    assert s.engine.chunk == 163840 == kb.models["deepseek-r1"].max_context
    assert kb.framework("vllm").chunked_prefill  # the catalog's framework is left as it is


@pytest.mark.parametrize("version", ["0.8.0", "0.11.0", None])
def test_from_0_8_and_without_a_release_the_framework_schedules_as_its_own(kb, accuracy, version):
    _, s = _served(kb, accuracy, "deepseek-r1", "fp8", version)
    assert (s.engine.fw.chunked_prefill, s.engine.fw.mixed_prefill, s.engine.chunk) == (True, True, 8192)


def test_a_model_without_mla_keeps_chunked_prefill_on_0_7(kb, accuracy):
    _, s = _served(kb, accuracy, "llama-3.1-70b", "fp8", "0.7.3")
    assert (s.engine.fw.chunked_prefill, s.engine.chunk) == (True, 8192)


def test_the_memory_profile_of_the_whole_context_comes_out_of_the_kv_room(kb, accuracy):
    """The activation term of a step of T prompt tokens is (8 B x hidden + 6 B x ffn x top-k) per token, split over
    the TP ranks: (8 x 7,168 + 6 x 2,048 x 8) = 155,648 B a token for DeepSeek-R1, so a 163,840-token budget holds
    155,648 x (163,840 - 8,192) / 8 = 3.03 GB a GPU more than the 8,192-token one (the allocator's overhead on it
    comes on top), which the KV room loses. From 0.8.0 the V1 profile also ends in a sampler pass over 1,024
    requests of the 129,280-entry vocabulary, 37.7 B x 129,280 x 1,024 = 4.99 GB, 4.77 GB beyond its 0.23 GB
    working set (serving.yaml vllm profile_sampler, from 0.8.0), which 0.7.3's V0 engine is not charged: so 0.8.0's
    pool is the smaller by 4.77 - 3.03 (and the allocator's share) = 1.59 GB, 175 sequences against 182."""
    _, old = _served(kb, accuracy, "deepseek-r1", "fp8", "0.7.3")
    _, new = _served(kb, accuracy, "deepseek-r1", "fp8", "0.8.0")
    assert old.replica.profile_gpu == 0.0
    assert new.replica.profile_gpu == pytest.approx(37.7 * 129_280 * 1_024 - new.replica.act_gpu)
    lost = new.replica.free_gpu + new.replica.profile_gpu - old.replica.free_gpu
    assert lost == pytest.approx(155_648 * (163_840 - 8_192) / 8, rel=0.10)
    assert (old.replica.max_seqs, new.replica.max_seqs) == (182, 175)


def test_decodes_wait_for_whole_prompt_prefills(kb, accuracy):
    """In a closed loop of 32 the steps that prefill carry no decode: each request's TPOT is its decode step plus
    the other 31 prompts' prefills spread over its 800 tokens, so it is longer than the decode step by at least
    31 / 800 of one whole 3,200-token prefill shared by the prompts that arrive together; and the TTFT holds the
    request's own whole-prompt prefill."""
    job, s = _served(kb, accuracy, "deepseek-r1", "fp8", "0.7.3")
    p = SV.point(job, s.engine, s.replica, 32.0)
    whole = SV.prefill_seconds(job, s.engine, s.replica, 3200.0, 1600.0)
    assert p.ttft >= whole
    most = 163840 // 3200  # prompts a forward can carry
    assert p.tpot - p.decode_step >= 31 / 800 * whole / most
