"""A copy's step token budget as its server was started (workload.prefill_chunk_tokens: SGLang --chunked-prefill-size,
vLLM --max-num-batched-tokens, TensorRT-LLM max_num_tokens), one MLA prefill step worked by hand, and a burst's mean
time to first token under a stated budget.

Sources: DeepSeek-R1's config.json (61 layers, 128 heads, qk_nope_head_dim 128 + qk_rope_head_dim 64, v_head_dim 128);
SGLang's scheduler packs waiting prompts into one prefill batch up to the budget and cuts the last one to fit
(python/sglang/srt/managers/schedule_policy.py PrefillAdder: rem_chunk_tokens = chunked_prefill_size, less the running
decodes only with --enable-mixed-chunk); InferenceX's DeepSeek-R1 FP8 script for 8 x MI300X starts the server with
--chunked-prefill-size 196608 (benchmarks/dsr1_fp8_mi300x_docker.sh at InferenceX 70c1eceb6, the conditions of
validation row SZ20)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.load import burst_ttft, prefill_seconds
from gpuwise.estimators.serving.step import step

from .clirun import gpuwise


def _job(accuracy, kb, framework: str = "sglang", version: str | None = "0.5.5.post3", options: str = "",
         prompt: int = 7373, output: int = 922, conc: int = 32):
    return accuracy.serving_job(kb, "deepseek-r1", "fp8", framework, prompt, output, conc, 8, 1, None, None, version,
                                options)


def test_a_stated_budget_is_the_step_budget(kb, accuracy):
    """Stated, the budget is the copy's (the SZ20 server's 196,608); not stated, SGLang's default (8,192); a release
    that prefills MLA prompts whole (vLLM 0.7.3: chunked prefill forced off, max_num_batched_tokens = max(max_model_len,
    2048)) keeps its own, R1's 163,840-token context, whatever the job states."""
    stated = SV.choose(_job(accuracy, kb, options="prefill_chunk_tokens=196608"), kb.gpus["mi300x"], 8).engine
    default = SV.choose(_job(accuracy, kb), kb.gpus["mi300x"], 8).engine
    assert stated.chunk == 196608
    assert default.chunk == 8192
    whole = SV.choose(_job(accuracy, kb, "vllm", "0.7.3", "prefill_chunk_tokens=4096"), kb.gpus["h200-141gb-sxm"],
                      8).engine
    assert whole.chunk == 163840


def test_one_mla_prefill_step_attention_by_hand(kb, accuracy):
    """An 8,192-token prompt of DeepSeek-R1 on 8 x H200 (TP 8), prefilled in MLA's uncompressed multi-head form:
    per context position and layer 2 x 128 heads x 192 (QK) + 2 x 128 x 128 (PV) = 81,920 FLOPs; at a mean attended
    length of 4,096 over 61 layers and 8,192 tokens, split over 8 GPUs: 81,920 x 61 x 4,096 x 8,192 / 8 =
    2.0960e13 FLOPs a GPU, at the 16-bit rate the engine runs attention at (the H200's 989.5 TFLOP/s dense BF16 x
    SGLang's compute_efficiency 0.5 = 494.75 TFLOP/s): 42.37 ms. Nothing of the decode path enters (no sequence
    decodes), so the step's attention is that math alone."""
    job = _job(accuracy, kb, version="0.5.7", prompt=8192, output=1024, conc=1)
    s = SV.choose(job, kb.gpus["h200-141gb-sxm"], 8)
    assert s.engine.peak_attn == pytest.approx(989.5e12 * 0.5)
    flops = 81920 * 61 * 4096 * 8192 / 8
    assert flops == pytest.approx(2.0960e13, rel=1e-4)
    st = step(job, s.engine, s.replica, 0.0, 8192.0, 0.0, 4096.0)
    assert st.attention == pytest.approx(flops / 494.75e12)
    assert st.attention == pytest.approx(0.04237, rel=1e-3)


def test_a_burst_ttft_under_a_stated_budget_by_hand(kb, accuracy):
    """32 prompts of 7,373 tokens sent at once to one copy (SZ20's first wave): a request's first token comes with the
    prefill forward that ends its prompt. With the server's 196,608-token budget the first forward ends 26 prompts
    (26 x 7,373 = 191,698 tokens; the 27th is cut) and the second the other 6: (26 x 1 + 6 x 2) / 32 = 38/32
    forwards on average, the second of the 39,328 tokens left (235,936 - 196,608: a forward carries the tokens
    waiting, no more). With SGLang's default 8,192 the prompts end in forwards 1, 2, ... 29 (the i-th in
    ceil(i x 7,373 / 8,192)), 492 forwards summed over the 32, each of 8,192 tokens but the 29th, the last
    prompt's, of the 6,560 left (235,936 - 28 x 8,192)."""
    stated = _job(accuracy, kb, options="prefill_chunk_tokens=196608")
    s = SV.choose(stated, kb.gpus["mi300x"], 8)
    big = prefill_seconds(stated, s.engine, s.replica, 196608.0, 7373 / 2)
    rest = prefill_seconds(stated, s.engine, s.replica, 39328.0, 7373 / 2)
    assert 32 * 7373 - 196608 == 39328 and rest < big
    assert burst_ttft(stated, s.engine, s.replica, 32) == pytest.approx((26 * big + 6 * (big + rest)) / 32)
    default = _job(accuracy, kb)
    d = SV.choose(default, kb.gpus["mi300x"], 8)
    small = prefill_seconds(default, d.engine, d.replica, 8192.0, 7373 / 2)
    tail = prefill_seconds(default, d.engine, d.replica, 6560.0, 7373 / 2)
    assert 32 * 7373 - 28 * 8192 == 6560
    assert burst_ttft(default, d.engine, d.replica, 32) == pytest.approx((491 * small + tail) / 32)
    # the stated budget's forwards are longer than the default's 24 a prompt's worth (fixed costs once, not 24 times)
    assert 196608 / 8192 * small > big > small


def test_no_budget_where_prompts_are_prefilled_whole(tmp_path: Path) -> None:
    """transformers prefills each prompt whole in one forward (knowledge/serving.yaml: chunked_prefill false): a
    budget stated for it would be ignored, so it is refused with a one-line error naming the field, in English and
    in the catalog's Chinese."""
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: transformers, "
                                     "prefill_chunk_tokens: 4096}\n", encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == ("gpuwise: r.yaml: workload.prefill_chunk_tokens: transformers prefills each prompt whole, "
                        "with no step budget to set: leave prefill_chunk_tokens out, or name a framework that chunks "
                        "prompts (vllm, sglang, tensorrt-llm)\n")
    zh = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh", cwd=tmp_path)
    assert "没有可设置的单步词元预算" in zh.stderr
