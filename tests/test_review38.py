"""review38: a user's hour with session 33's later merges (SGLang's Triton decode walk, torchtitan's local batch,
xtuner, pinned pipeline splits, SRV-CONTEXT-BEYOND-MODEL, the Workload line). Each test fails on the code before
its fix; the whole round is benchmarks/hostile_round31.py."""

from __future__ import annotations

import pytest

from gpuwise import estimate

# Llama 3.1 8B on one H100 SXM under SGLang, one sequence, 16,384 + 16,384 tokens (the step at the mean context,
# 16,384 + 16,384 / 2 = 24,576 tokens): KV 2 x 32 layers x 8 heads x 128 x 2 B = 131,072 B a token, so
# 131,072 x 24,576 = 3,221,225,472 B read a step.
CHAT = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "context_len": 32768,
        "concurrent_requests": 1}


def _terms(w: dict) -> dict:
    return {t.name: t for t in estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=1).gpu.terms}


def test_the_triton_walk_is_in_the_step_formula_it_prices() -> None:
    # knowledge/serving.yaml sglang triton_decode_walk: 8 programs a KV head at 5.25 GB/s each = 42 GB/s a head;
    # one sequence of 8 KV heads on one GPU: 336 GB/s, below the H100's 3.35 TB/s x 0.8, so the cache takes
    # 3,221,225,472 B / 336e9 B/s = 9.587 ms. The TPOT formula said 'max(KV bytes / (BW x f), ...)' (1.2 ms)
    # beside an attention_s of 9.587 ms: it now names the walkers' rate and carries it.
    t = _terms({**CHAT, "attention_backend": "triton"})
    for name in ("tpot_s", "decode_tokens_per_s"):
        assert "42 GB/s x sequences x KV heads" in t[name].formula and "triton_decode_walk" in t[name].formula
        assert t[name].inputs["kv_walk_bytes_per_s_per_kv_head"] == pytest.approx(42e9)
    assert t["tpot_s"].inputs["attention_s"] == pytest.approx(3_221_225_472 / 336e9, rel=1e-3)
    other = _terms({**CHAT, "attention_backend": "flashinfer"})["tpot_s"]
    assert "triton_decode_walk" not in other.formula and "kv_walk_bytes_per_s_per_kv_head" not in other.inputs


def test_the_workload_line_names_a_fine_tunes_method(tmp_path) -> None:
    # A QLoRA fine-tune of an 8B model and a full one differ several times over in the memory they need, and the
    # title's line read 'GPU recommendation: finetune, <model>, bf16' for either: the method is now said.
    import json

    from .clirun import gpuwise as cli

    w = {"task": "finetune", "method": "qlora", "model": "meta-llama/Llama-3.1-8B-Instruct", "train_tokens": 1.0e7}
    (tmp_path / "r.yaml").write_text(json.dumps({"workload": w}), encoding="utf-8")
    out = cli("recommend", "r.yaml", cwd=tmp_path)
    assert out.stdout.splitlines()[0] == ("GPU recommendation: finetune (qlora), meta-llama/Llama-3.1-8B-Instruct, "
                                          "bf16")
    zh = cli("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path)
    assert zh.stdout.splitlines()[0] == "GPU 选型建议：finetune（qlora），meta-llama/Llama-3.1-8B-Instruct，bf16"
    (tmp_path / "p.yaml").write_text(json.dumps({"workload": {"task": "pretrain", "model": "llama-3.2-1b",
                                                              "train_tokens": 1.0e9}}), encoding="utf-8")
    assert cli("recommend", "p.yaml", cwd=tmp_path).stdout.splitlines()[0] == \
        "GPU recommendation: pretrain, llama-3.2-1b, bf16"


def test_the_overlap_off_host_time_is_said_where_it_is_charged() -> None:
    # knowledge/serving.yaml sglang hybrid_state_pool.unoverlapped_host_us 740: SGLang 0.5.9 runs Qwen3-Next with the
    # prefix cache on and no extra state buffer without its overlap scheduler, so its step overhead is 0.74 ms
    # longer than with the prefix cache off (3.232 ms against 2.492 ms on 2 x H200). The formula said only
    # '+ step overhead': it now says what the 740 us are; 0.5.15 (the extra buffer) and prefix_cache false not.
    w = {"task": "inference", "model": "qwen3-next-80b-a3b", "framework": "sglang", "framework_version": "0.5.9",
         "prompt_tokens": 4000, "output_tokens": 500, "concurrent_requests": 1}

    def tpot(extra: dict):
        g = estimate({"workload": {**w, **extra}}, gpu="h200-141gb-sxm", gpus=2).gpu
        return {t.name: t for t in g.terms}["tpot_s"]

    off, on, buffered = tpot({}), tpot({"prefix_cache": False}), tpot({"framework_version": "0.5.15"})
    assert "740 us of host work" in off.formula and "unoverlapped_host_us" in off.formula
    assert off.inputs["unoverlapped_host_s"] == pytest.approx(740e-6)
    assert off.inputs["overhead_s"] - on.inputs["overhead_s"] == pytest.approx(740e-6, abs=1e-6)
    for t in (on, buffered):
        assert "unoverlapped_host_us" not in t.formula and "unoverlapped_host_s" not in t.inputs
