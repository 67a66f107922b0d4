"""``workload.recurrent_state_dtype``: the element type of a hybrid model's recurrent state as the server was started
(SGLang --mamba-ssm-dtype, vLLM --mamba-ssm-cache-dtype, TensorRT-LLM kv_cache_config.mamba_ssm_cache_dtype;
knowledge/serving.yaml ``recurrent_state_dtype``), branch hybridknobs36.

By hand from Qwen3.5-35B-A3B's config (text_config of Qwen/Qwen3.5-35B-A3B as alibaba/InferSim
hf_configs/qwen3.5-35B-A3B_config.json @ 7ed3db76 stores it: 30 of 40 layers gated DeltaNet, 32 value heads and 16 key
heads of 128, conv kernel 4, mamba_ssm_dtype float32): the temporal state 32 x 128 x 128 = 524,288 elements a layer,
the convolution state 3 x (2 x 16 x 128 + 32 x 128) = 24,576 (vllm mamba_utils gated_delta_net_state_shape), the
convolution in bf16 on both engines. SGLang's pool (0.5.16 mem_cache/kv_cache_configurator.py
``_handle_max_mamba_cache``) takes ratio / (1 + ratio) of the memory left whatever the type, in slots of
``mamba_cache_per_req``: a 16-bit state gives twice the slots from the same bytes and leaves the KV pool as it was.
"""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

LAYERS, STATE, CONV = 30, 32 * 128 * 128, 3 * (2 * 16 * 128 + 32 * 128)
FP32_SEQ = LAYERS * (STATE * 4 + CONV * 2)  # 64,389,120 B a sequence
BF16_SEQ = LAYERS * (STATE * 2 + CONV * 2)  # 32,931,840 B


def _job(kb, **w):
    base = {"task": "inference", "model": "qwen3.5-35b-a3b", "precision": "fp8", "framework": "sglang"}
    return resolve(Requirements.model_validate({"workload": {**base, **w}}), kb)


def test_the_state_a_sequence_by_hand(kb):
    assert (STATE, CONV) == (524_288, 24_576)
    assert (FP32_SEQ, BF16_SEQ) == (64_389_120, 32_931_840)
    assert _job(kb).shape.state_bytes_per_sequence == FP32_SEQ  # SGLang's default: the config's float32
    assert _job(kb, recurrent_state_dtype="bfloat16").shape.state_bytes_per_sequence == BF16_SEQ
    assert _job(kb, recurrent_state_dtype="float16", framework_version="0.5.9").shape.state_bytes_per_sequence \
        == BF16_SEQ
    # Qwen3-Next on vLLM keeps its state in the model dtype unless float32 is asked for (36 DeltaNet layers)
    nxt = {"model": "qwen3-next-80b-a3b", "framework": "vllm", "precision": "bf16"}
    assert _job(kb, **nxt).shape.state_bytes_per_sequence == 36 * (STATE + CONV) * 2 == 39_518_208
    assert _job(kb, **nxt, recurrent_state_dtype="float32").shape.state_bytes_per_sequence == 77_266_944


def test_the_default_is_said(kb):
    said = [a for a in _job(kb).assumptions if a.field == "workload.recurrent_state_dtype"]
    assert [(a.value, a.values["bytes"]) for a in said] == [("float32", 4.0)]
    assert not [a for a in _job(kb, recurrent_state_dtype="bfloat16").assumptions
                if a.field == "workload.recurrent_state_dtype"]
    assert not [a for a in _job(kb, model="llama-3.1-8b").assumptions if a.field == "workload.recurrent_state_dtype"]


def test_sk06_server_bf16_doubles_the_slots_not_the_pool(kb, accuracy):
    """SK06's server (Qwen3.5-35B-A3B FP8 on one H200, SGLang 0.5.16, --mem-fraction-static 0.8, radix cache on):
    the state pool keeps 0.9 / 1.9 of the memory the weights leave in either type, so --mamba-ssm-dtype bfloat16
    fits 1.96 x the slots (the convolution state stays bf16) in the same bytes, and the cap slots // 5 rises."""
    def served(opts):
        job = accuracy.serving_job(kb, "qwen3.5-35b-a3b", "fp8", "sglang", 8192, 1024, 1024, 1, 1, None, None,
                                   "0.5.16", opts)
        return SV.choose(job, kb.gpus["h200-141gb-sxm"], 1).replica

    f32 = served("memory_fraction=0.8")
    b16 = served("memory_fraction=0.8;recurrent_state_dtype=bfloat16")
    assert (f32.state_gpu, b16.state_gpu) == (FP32_SEQ, BF16_SEQ)
    assert b16.free_gpu == f32.free_gpu
    assert f32.state_slots == int(f32.free_gpu * 0.9 / 1.9 // FP32_SEQ)
    assert b16.state_slots == int(b16.free_gpu * 0.9 / 1.9 // BF16_SEQ)
    # the convolution state stays bf16, so the slots grow by 64,389,120 / 32,931,840 = 1.955, not 2
    assert b16.state_slots / f32.state_slots == pytest.approx(FP32_SEQ / BF16_SEQ, rel=0.005)
    assert b16.state_pool_gpu == pytest.approx(f32.state_pool_gpu, rel=0.01)
    assert b16.max_seqs > f32.max_seqs


@pytest.mark.parametrize("w, words", [
    ({"model": "llama-3.1-8b"}, "keeps no recurrent state"),
    ({"framework": "llama.cpp", "precision": "int4"}, "has no setting for the recurrent state"),
    ({"framework_version": "0.5.8", "recurrent_state_dtype": "float16"}, "SGLang 0.5.8 takes no --mamba-ssm-dtype"),
    ({"framework_version": "0.5.1"}, "from 0.5.2 on"),
    ({"framework": "vllm"}, "vLLM takes no --mamba-ssm-cache-dtype bfloat16"),  # bfloat16 in no release read
])
def test_refused_in_one_line(kb, w, words):
    with pytest.raises(UserError) as e:
        _job(kb, **{"recurrent_state_dtype": "bfloat16", **w})
    assert words in str(e.value) and "\n" not in str(e.value)
    assert "workload.recurrent_state_dtype" in str(e.value)


def test_a_training_workload_refuses_it(kb):
    with pytest.raises(Exception) as e:
        Requirements.model_validate({"workload": {"task": "finetune", "model": "qwen3.5-9b",
                                                  "recurrent_state_dtype": "bfloat16"}})
    assert "recurrent_state_dtype" in str(e.value)


@pytest.mark.parametrize(("version", "dtype", "ok"), [
    ("0.10.0", "float32", False),  # 0.10.0's arg_utils.py has no --mamba-ssm-cache-dtype
    ("0.10.1", "float32", True),   # 0.10.1 adds it: MambaDType = Literal['auto', 'float32'] (branch assume52)
    ("0.12.0", "float16", False),  # 0.12.0 keeps those two
    ("0.13.0", "float16", True),   # 0.13.0's MambaDType adds 'float16'
])
def test_vllm_release_edges_read_in_the_sdists(kb, version, dtype, ok):
    """vLLM's --mamba-ssm-cache-dtype choices at the window edges, read in the vllm sdists on PyPI
    (vllm/engine/arg_utils.py and vllm/config/cache.py MambaDType of 0.10.0, 0.10.1, 0.12.0 and 0.13.0)."""
    w = {"model": "qwen3.5-35b-a3b", "framework": "vllm", "framework_version": version, "recurrent_state_dtype": dtype}
    if ok:
        assert _job(kb, **w).w.recurrent_state_dtype == dtype
    else:
        with pytest.raises(UserError) as e:
            _job(kb, **w)
        assert "workload.recurrent_state_dtype" in str(e.value) and "\n" not in str(e.value)
