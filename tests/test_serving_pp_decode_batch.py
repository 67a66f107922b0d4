"""vLLM V1's decode through pipeline stages (serving.yaml ``pp_decode_batch``): its scheduler takes up a running
request again only once its last step is back (the V1 scheduler's comment: 'No new tokens to schedule. This may
happen when (1) PP>1 and we have already scheduled all prompt tokens but they are not finished yet'), so a
decode-only step holds every running request in one batch (up to the step budget) and the stages run it one after
another (vllm/v1/engine/core.py step_with_batch_queue; pull request #13064). V0 (before 0.8.0) runs one virtual
engine a stage, a micro-batch each. And a pinned tp 8 x pp 3 copy is built on 24 GPUs, as vllm-project/vllm pull
request #15322 served DeepSeek-R1 on three 8-GPU L20 servers. Figures by hand from the model card: Kimi K2 routes
each token to 8 of 384 experts (moonshotai/Kimi-K2-Instruct config.json: n_routed_experts 384,
num_experts_per_tok 8)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.step import consts, micro_batches, step
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _copy(kb, version: str | None = None, model: str = "kimi-k2", gpu: str = "h200-141gb-sxm", tp: int = 8,
          pp: int = 2, count: int = 16):
    w = {"task": "inference", "model": model, "precision": "fp8", "framework": "vllm", "prompt_tokens": 8000,
         "output_tokens": 1000, "concurrent_requests": 16, "parallelism": {"tp": tp, "pp": pp}}
    if version:
        w["framework_version"] = version
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus[gpu], count)
    assert (s.replica.layout.tp, s.replica.layout.pp) == (tp, pp)
    return job, s, consts(job, s.engine, s.replica)


def _covered(tokens: float) -> float:
    """Share of Kimi K2's 384 experts a batch of ``tokens`` routes to, each token to 8 (uniform routing)."""
    return 1.0 - (1.0 - 8 / 384) ** tokens


def test_a_v1_decode_step_is_one_batch_through_both_stages(kb):
    job, s, c = _copy(kb)
    assert micro_batches(c, 16, 0) == 1
    st = step(job, s.engine, s.replica, 16, 0.0, 8500, 0.0)
    # each stage reads its dense weights and the experts all 16 sequences route to: 28.6% of them
    assert _covered(16) == pytest.approx(0.286, abs=5e-4)
    assert st.weight_bytes_gpu == pytest.approx(c.w_dense + c.w_experts * _covered(16), rel=1e-9)


def test_a_step_with_a_prompt_chunk_keeps_a_micro_batch_a_stage(kb):
    _, _, c = _copy(kb)
    assert micro_batches(c, 16, 2048) == 2


def test_decodes_beyond_the_step_budget_split_into_batches_at_most_one_a_stage(kb):
    _, s, c = _copy(kb)
    budget = s.engine.chunk
    assert micro_batches(c, budget, 0) == 1
    assert micro_batches(c, budget + 1, 0) == 2
    assert micro_batches(c, 5 * budget, 0) == 2  # two stages: two in flight at most


def test_a_v0_release_keeps_a_micro_batch_a_stage(kb):
    """0.7.3 (before V1 became the default in 0.8.0): 16 sequences as two micro-batches of 8, each reading the
    experts its 8 route to, 15.5% of them."""
    job, s, c = _copy(kb, "0.7.3")
    assert micro_batches(c, 16, 0) == 2
    st = step(job, s.engine, s.replica, 16, 0.0, 8500, 0.0)
    assert _covered(8) == pytest.approx(0.155, abs=5e-4)
    assert st.weight_bytes_gpu == pytest.approx(c.w_dense + c.w_experts * _covered(8), rel=1e-9)


def test_a_pinned_three_stage_copy_takes_three_servers(kb):
    """DeepSeek-R1 FP8 at tp 8 x pp 3 on 24 L20s (pull request #15322's layout): one copy of 24 GPUs, each holding
    a third of the layers, not tp 8 x pp 2 on 16 of them."""
    _, s, _ = _copy(kb, model="deepseek-r1", gpu="l20", pp=3, count=24)
    assert (s.replica.layout.replicas, s.replica.layout.tp * s.replica.layout.pp) == (1, 24)
    assert not [v for _, mid, v in s.replica.notes if mid == "note.pin_not_kept"]


def test_the_search_judges_the_three_server_copy_on_its_own_count(kb):
    """The count ladder (1, 2, 4, 8, then whole servers doubling: 16, 32, 64) skips 24; a tp 8 x pp 3 pin is judged
    on 24 GPUs first, not first on 32 with a server idle."""
    from gpuwise.decide.count_search import _keeping_the_pin
    from gpuwise.estimators.interconnect import count_ladder

    job, _, _ = _copy(kb, model="deepseek-r1", gpu="l20", pp=3, count=24)
    assert count_ladder(64) == [1, 2, 4, 8, 16, 32, 64]
    assert _keeping_the_pin(job, count_ladder(64)) == [24, 32, 64]
    assert _keeping_the_pin(job, count_ladder(16)) == [1, 2, 4, 8, 16]  # no count holds it: every one searched
