"""SGLang releases up to 0.4.5 ran a model with multi-head latent attention on their Triton decode attention unless
launched with another backend: the 0.4.1.post7, 0.4.3.post4 and 0.4.4 wheels' ModelRunner logs 'MLA optimization is
turned on. Use triton backend.' and sets it, 0.4.5 sets triton 'for mla attention' when no backend is given, and from
0.4.5.post1 an MLA model defaults to FA3 on Hopper (model_runner.py in the PyPI wheels; knowledge/serving.yaml sglang
triton_decode_walk mla_default_before). That kernel splits one sequence's latent cache (one head) over 8 programs
walking 5.25 GB/s each (server_args.py triton_attention_num_kv_splits = 8 in those wheels; the rate: sgl-project/sglang
pull request #21775's H100 table), so a job that states such a release and no backend reads its cache at 42 GB/s.

DeepSeek-R1 FP8 (61 layers, a latent of 512 + 64 = 576 elements in 16 bit: 1,152 B a token a layer) on 8 x H200 at
TP 8, 1,024 tokens in and out, one stream: at the decode's mean of 1,024 + 512 tokens a step walks
61 x 1,536 x 1,152 B = 107.9 MB at 42 GB/s = 2.570 ms, where the H200's bandwidth read it in a few hundredths of a
millisecond."""

from __future__ import annotations

import pytest

from gpuwise import estimate

R1 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang", "prompt_tokens": 1024,
      "output_tokens": 1024, "concurrent_requests": 1}
WALK_S = 61 * (1024 + 512) * 576 * 2 / (8 * 5.25e9)  # 2.570 ms


def _tpot(gpu: str = "h200", **w) -> tuple[float, float]:
    g = estimate({"workload": {**R1, **w}, "constraints": {"max_gpus": 8}}, gpu=gpu, gpus=8).gpu
    walk = max((t.inputs.get("kv_walk_bytes_per_s_per_kv_head", 0.0) for t in g.terms), default=0.0)
    return g.serving.tpot_s, walk


def test_an_early_release_walks_the_latent_cache_by_default():
    early, walk = _tpot(framework_version="0.4.3.post4")
    stated, none = _tpot(framework_version="0.4.3.post4", attention_backend="flashinfer")
    assert walk == 8 * 5.25e9 and none == 0.0
    # the walk less the card's own read of the same bytes (4.8 TB/s x its share: a few hundredths of a ms)
    assert round(WALK_S * 1e6) == 2570
    assert early - stated == pytest.approx(WALK_S, rel=0.03)
    assert _tpot(framework_version="0.4.3.post4", attention_backend="triton") == (early, walk)  # as if stated


def test_later_releases_and_other_vendors_do_not():
    for version in ("0.4.5.post1", "0.5.7"):
        assert _tpot(framework_version=version)[1] == 0.0
    assert _tpot()[1] == 0.0  # no release stated: the newest's default
    assert _tpot("mi300x", framework_version="0.4.3.post4")[1] == 0.0  # the rate was read on NVIDIA only
