"""One speculative cycle of GLM-5-FP8 on 8 x H200 (SGLang, EAGLE over the model's MTP layer, 3 steps, top-k 1,
4 draft tokens: validation row SS07, sgl-project/sgl-cookbook docs/autoregressive/GLM/GLM-5.md at f0d5bb8), worked
by hand from the model's published shapes and the engine's figures.

What a cycle launches (sgl-project/sglang): python/sglang/srt/speculative/eagle_worker.py (at 00559eac) runs
num_steps - 1 draft forwards, the target once over each sequence's token and its drafts (verify), then a draft-extend
forward over the accepted tokens: 3 drafting passes a cycle; it hands the drafter the target's embedding and head
(set_embed_and_head), so each pass multiplies the whole vocabulary. The DeepSeek-design MTP drafter
(python/sglang/srt/models/deepseek_nextn.py at 0114f9c9, DeepseekV3ForCausalLMNextN) embeds the token, feeds the
normed embedding and hidden state through eh_proj, a 16-bit nn.Linear(2h, h) every rank holds whole, runs one
decoder layer and its ParallelLMHead.

GLM-5 (knowledge/models.yaml, from GlmMoeDsaConfig): hidden 6,144, vocab 154,880, 78 layers. So a pass reads, beyond
its decoder layer: the head, 154,880 x 6,144 = 951,582,720 weights split over the 8 ranks at the step's 1 B (FP8),
and eh_proj, 2 x 6,144 x 6,144 = 75,497,472 weights x 2 B on every rank; it runs 9 small kernels of its own and two
collectives (the embedding's all-reduce, the logits' all-gather). Its decoder layer costs what a layer of the target's
plain step costs: the step less the host's part and less the target's own head, over 78.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving.step import consts, draft_time, step, token_time

GPU = "h200-141gb-sxm"


@pytest.fixture(scope="module")
def glm5(kb, accuracy):
    from gpuwise.estimators import serving as SV

    job = accuracy.serving_job(kb, "glm-5", "fp8", "sglang", 610, 422, tp=8, framework_version="0.5.9",
                               speculative="mtp:0.91:3")
    s = SV.choose(job, kb.gpus[GPU], 8)
    return job, s.engine, s.replica


def test_glm5_draft_passes_by_hand(glm5):
    job, eng, rep = glm5
    ctx = 610 + 422 / 2
    bw, peak = eng.bw_weights, eng.peak_dense  # H200: 0.8 x 4.8 TB/s; the FP8 GEMM rate
    assert bw == pytest.approx(3.84e12)
    head = 154_880 * 6_144 / 8  # weights of the vocabulary head on one of 8 ranks
    fc = 2 * 6_144 * 6_144
    head_s = head * 1.0 / bw + 2 * head / peak  # 30.98 us of weights, 0.24 us of math at one row
    fc_s = fc * 2.0 / bw + 2 * fc / peak  # 39.32 us
    own = 9 * eng.kernel_floor + 2 * consts(job, eng, rep).allreduce_latency
    plain = step(job, eng, rep, 1.0, 0.0, ctx, 0.0)
    device = plain.seconds - eng.step_overhead - eng.seq_overhead  # the step less its host work
    layer = (device - head_s) / 78
    by_hand = 3 * (layer + head_s + fc_s + own)
    assert draft_time(job, eng, rep, 1.0, ctx) == pytest.approx(by_hand, rel=1e-9)
    # ~0.41 ms a pass: the decoder layer ~0.27 ms (its DSA indexer's 15 kernels 90 us of it: serving.yaml sglang
    # sparse_indexer_kernels, branch glm5_47), head and projection ~0.07 ms, its own kernels and collectives
    # (GLM-5's architecture is not on 0.5.9's fused-kernel list, serving.yaml sglang fused_kernel_models: its
    # counted small kernels cost the framework's 6 us, not the 0.5.7 entry's 2; branch sglss39)
    assert 0.37e-3 < by_hand / 3 < 0.45e-3


def test_glm5_cycle_is_the_verify_step_and_three_passes(glm5):
    """The cycle: one target step over the sequence's token and its 3 drafts (attending the context), then the 3
    passes; a token costs the cycle over the tokens it yields, 1 + a + a^2 + a^3 at a = 0.91 (3.49, the run's printed
    acceptance length 3.48). The run measured 7.54 ms a token, a 26.2 ms cycle: gpuwise's ~25.1 ms (its counted
    kernels at 6 us, branch sglss39, the DSA indexer's 15 a layer among them, branch glm5_47; ~17.8 ms before them:
    tests/data/validation/README.md, branches specdec33 and glm5_47)."""
    job, eng, rep = glm5
    ctx = 610 + 422 / 2
    verify = step(job, eng, rep, 1.0, 3.0, ctx, ctx).seconds
    cycle = verify + draft_time(job, eng, rep, 1.0, ctx)
    tokens = 1 + 0.91 + 0.91 ** 2 + 0.91 ** 3
    assert token_time(job, eng, rep, 1.0, ctx) == pytest.approx(cycle / tokens, rel=1e-9)
    assert 24e-3 < cycle < 26.2e-3
