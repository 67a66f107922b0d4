"""SGLang's early-2025 release edges, read in the sglang wheels from PyPI (branch assume52; knowledge/serving.yaml
sglang ``releases``), and the post-release order the release entries now keep.

- The shared expert fused by default: python/sglang/srt/models/deepseek_v2.py of 0.4.4.post4, 0.4.5 and 0.4.5.post1
  fuses it only when --n-share-experts-fusion is given (default 0); 0.4.5.post2 is the first that sets it to the
  tensor-parallel size by itself on a device of capability >= (9, 0) for DeepseekV3ForCausalLM with 256 routed
  experts (sgl-project/sglang pull request #5571).
- The CUDA-graph capture up to 256 sequences on a GPU of more than 80 GB: model_executor/cuda_graph_runner.py
  get_batch_sizes_to_capture of 0.4.5.post3 is the first with the ``gpu_mem > 81920`` branch (pull request #5604);
  0.4.5.post2 adds 160-256 only on a HIP build.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving.engine import fuses_shared_experts, release
from gpuwise.knowledge.records import release_at_least, release_key


@pytest.mark.parametrize(("version", "entry", "fused", "graph_bs", "floor_us"), [
    ("0.4.5", "0.4.0", False, 160, 17),          # the fusion only on request
    ("0.4.5.post1", "0.4.0", False, 160, 17),    # the last release without it
    ("0.4.5.post2", "0.4.5.post2", True, 160, 6),  # the first with the fusion by default
    ("0.4.5.post3", "0.4.5.post3", True, 256, 6),  # the first with the > 80 GB capture list
    ("0.4.6", "0.4.6", True, 256, 6),
    ("0.4.6.post1", "0.4.6", True, 256, 6),
])
def test_the_release_entry_at_each_edge(kb, version, entry, fused, graph_bs, floor_us):
    fw = kb.framework("sglang")
    got = release(fw, version, "nvidia")
    assert got.version == entry
    assert fuses_shared_experts(fw, version, "nvidia") is fused
    assert got.cuda_graph_max_bs == graph_bs and got.kernel_floor_us == floor_us


@pytest.mark.parametrize(("version", "entry"), [
    ("1.0rc1", "1.0"),       # a candidate keeps taking its release's entry, as before the post order
    ("1.1.0rc2", "1.1"),
    ("0.21.0", "0.17"),
])
def test_candidates_take_their_release(kb, version, entry):
    assert release(kb.framework("tensorrt-llm"), version, "nvidia").version == entry


def test_post_releases_order_after_their_release():
    assert release_key("0.4.5.post2") > release_key("0.4.5.post1") > release_key("0.4.5")
    assert release_key("1.0rc1") == release_key("1.0")  # a candidate is its release (tests/test_release_order54.py)
    assert release_at_least("0.5.5.post2", "0.5.5.post2") and not release_at_least("0.5.5.post1", "0.5.5.post2")
    assert release_at_least("0.5.6", "0.5.5.post2")


@pytest.mark.parametrize(("version", "floor_us"), [
    ("0.5.4.post2", 14.0),   # before MiniMax-M2's model file (0.5.4.post3): the Blackwell architecture's figure
    ("0.5.4.post3", 22.3),   # the first release with models/minimax_m2.py; no SM100 TRT-LLM MoE default names it
    ("0.5.6", 22.3),
    ("0.5.7", 22.3),
])
def test_minimax_triton_moe_window_starts_with_its_model_file(kb, accuracy, version, floor_us):
    """serving.yaml sglang ``triton_block_fp8_moe`` (minimax-m2 on SM100): the 0.5.4.post3, 0.5.5, 0.5.5.post3 and
    0.5.6 wheels' server_args.py set --moe-runner-backend flashinfer_trtllm on SM100 only in their DeepSeek-V3,
    Llama 4 (and, in 0.5.6, Qwen3 MoE / Qwen3-Next) blocks, so MiniMax-M2's block-FP8 experts run the Triton kernel."""
    from gpuwise.estimators.serving.engine import triton_block_fp8_floor_us
    job = accuracy.serving_job(kb, "minimax-m2", "fp8", "sglang", 1000, 1000, tp=4, framework_version=version)
    fw = kb.framework("sglang")
    assert triton_block_fp8_floor_us(job, fw, kb.gpus["b200"], "fp8", None, None, 14.0) == pytest.approx(floor_us)
