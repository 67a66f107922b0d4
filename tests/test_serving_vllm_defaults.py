"""vLLM's default step budget (max_num_batched_tokens) and batch (max_num_seqs) by GPU and by how it is run, as its
own code sets them (vllm/engine/arg_utils.py get_batch_defaults) and its own test asserts them
(tests/engine/test_arg_utils.py test_defaults_with_usage_context): on GPUs with >= 70 GiB other than A100 the
OpenAI server takes 8,192 tokens a step with 1,024 sequences; on the others, A100s included, 2,048 with 256
(vllm-project/vllm pull requests #12369, #17073 and #17885, the last one from v0.9.0; from #17073 in v0.8.5 until
then an 80 GB A100 took the large values). The LLM class's own budgets (16,384 / 8,192) are not modelled."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _engine(kb, gpu: str, framework: str = "vllm", version: str | None = None):
    w: dict = {"task": "inference", "model": "qwen3-14b", "precision": "bf16", "framework": framework,
               "prompt_tokens": 2000, "output_tokens": 100}
    if version:
        w["framework_version"] = version
    return SV.engine(resolve(Requirements.model_validate({"workload": w}), kb), kb.gpus[gpu])


@pytest.mark.parametrize(("gpu", "chunk", "batch"), [
    ("h100-80gb-sxm", 8192, 1024),
    ("h200-141gb-sxm", 8192, 1024),
    ("mi300x", 8192, 1024),
    ("a100-80gb-sxm", 2048, 256),  # 80 GB, but 'a100' in the name
    ("l4", 2048, 256),  # 24 GB
])
def test_the_budget_and_batch_by_gpu(kb, gpu, chunk, batch):
    eng = _engine(kb, gpu)
    assert (eng.chunk, eng.max_batch) == (chunk, batch)


def test_an_a100_took_the_large_values_in_0_8_5_only(kb):
    """#17073 (v0.8.5) put every GPU of >= 70 GiB on the large values; #17885 (v0.9.0) took the A100 out again."""
    for version, chunk, batch in (("0.8.5", 8192, 1024), ("0.8.5.post1", 8192, 1024), ("0.9.0", 2048, 256),
                                  ("0.11.0", 2048, 256)):
        eng = _engine(kb, "a100-80gb-sxm", version=version)
        assert (eng.chunk, eng.max_batch) == (chunk, batch), version


def test_other_frameworks_keep_their_budget(kb):
    """SGLang's and TensorRT-LLM's budgets do not follow vLLM's rule (8,192 on an A100 as on an H100)."""
    for fw in ("sglang", "tensorrt-llm"):
        assert _engine(kb, "a100-80gb-sxm", fw).chunk == _engine(kb, "h100-80gb-sxm", fw).chunk == 8192
