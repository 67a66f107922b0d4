"""Hybrid models: layers without attention keep a fixed-size state a running sequence in place of a KV cache.

vLLM sizes that state per layer (vllm-project/vllm vllm/model_executor/layers/mamba/mamba_utils.py @ 2afe1e85):
Mamba-2 (mamba2_state_shape) keeps heads x head_dim x d_state recurrent elements and (kernel - 1) x (heads x
head_dim + 2 x n_groups x d_state) convolution elements, the recurrent ones in mamba_ssm_cache_dtype (NemotronH's
config sets float32: transformers configuration_nemotron_h.py @ cfeb552e); gated DeltaNet
(gated_delta_net_state_shape) keeps value heads x key_dim x value_dim and (kernel - 1) x (2 x key heads x key_dim
+ value heads x value_dim), both in the model dtype (gated_delta_net_state_dtype). Tensor parallelism divides the
heads, so each rank holds 1/tp of a sequence's state. The shapes are Megatron-Bridge's providers
(qwen_provider.py @ fb8a4d6b Qwen3NextModelProvider80B_A3B, nemotron_h_provider.py @ d9f7643b
NemotronNanoModelProvider9Bv2 / 12Bv2), as knowledge/models.yaml cites them.
"""

from __future__ import annotations

import math

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.memory_serving import state_split
from gpuwise.estimators.serving.draft import layer_kv_bytes
from gpuwise.estimators.serving.report import memory, terms
from gpuwise.estimators.serving.step import step
from gpuwise.inputs.shape import from_catalog
from gpuwise.knowledge.schema.models import Model

# Qwen3-Next-80B-A3B: 48 layers of 2,048, every 4th gated attention (16 heads of 256, 2 KV heads), the other 36
# gated DeltaNet (16 key heads and 32 value heads of 128, conv kernel 4); 512 experts of 512, top-10, one shared
QN_STATE = 36 * (32 * 128 * 128 * 2 + 3 * (2 * 16 * 128 + 32 * 128) * 2)
# Nemotron Nano 9B v2: 27 Mamba-2 layers of 128 heads x 80, d_state 128, 8 groups, kernel 4; fp32 SSM state
NANO9_STATE = 27 * (128 * 80 * 128 * 4 + 3 * (128 * 80 + 2 * 8 * 128) * 2)
NANO12_STATE = 28 * (128 * 80 * 128 * 4 + 3 * (128 * 80 + 2 * 8 * 128) * 2)


def test_the_state_a_sequence_holds_by_hand(kb):
    """Qwen3-Next: 36 x (524,288 + 24,576) x 2 B = 39,518,208 B (39.5 MB) a sequence whatever its length; Nemotron
    Nano 9B v2: 27 x (1,310,720 x 4 B + 36,864 x 2 B) = 143,548,416 B; 12B v2: 28 layers, 148,865,024 B."""
    assert QN_STATE == 39_518_208 and NANO9_STATE == 143_548_416 and NANO12_STATE == 148_865_024
    for mid, want, attn in (("qwen3-next-80b-a3b", QN_STATE, 12), ("nvidia-nemotron-nano-9b-v2", NANO9_STATE, 4),
                            ("nvidia-nemotron-nano-12b-v2", NANO12_STATE, 6)):
        shape = from_catalog(kb.models[mid])
        assert shape.state_bytes_per_sequence == want
        assert shape.attn_layers == attn  # the only layers with a KV cache
        assert shape.ssm == "mamba2"
    # a model whose layers all keep a KV cache holds no state
    llama = from_catalog(kb.models["llama-3.1-8b"])
    assert llama.state_bytes_per_sequence == 0.0 and llama.recurrent is None and llama.attn_layers == 32


def _qwen3_next_params() -> tuple[int, int]:
    h, vocab, expert = 2048, 151936, 3 * 2048 * 512
    attn = h * 16 * 256 * 2 + 2 * h * 2 * 256 + 16 * 256 * h + 2 * 256  # gated q, k, v, o, q/k RMSNorm
    key, value = 16 * 128, 32 * 128
    # in_proj_qkvz, in_proj_ba, depthwise conv (no bias), dt_bias and A_log, gated norm, out_proj
    deltanet = h * (2 * key + 2 * value) + h * 2 * 32 + (2 * key + value) * 4 + 2 * 32 + 128 + value * h
    moe = 512 * expert + h * 512 + expert + h  # routed experts, router, shared expert and its gate
    total = 2 * vocab * h + 12 * attn + 36 * deltanet + 48 * (moe + 2 * h) + h
    return total, total - 48 * (512 - 10) * expert


def _nemotron_h_params(h: int, ffn: int, pattern: str, heads: int = 128, head_dim: int = 80, state: int = 128,
                       attn_heads: int = 40) -> int:
    groups, inner = 8, heads * head_dim
    conv = inner + 2 * groups * state
    mamba = h * (2 * inner + 2 * groups * state + heads) + conv * 4 + conv + 3 * heads + inner + inner * h + h
    attn = h * attn_heads * 128 + 2 * h * 8 * 128 + attn_heads * 128 * h + h
    mlp = 2 * h * ffn + h  # squared-ReLU up and down
    return (2 * 131072 * h + pattern.count("M") * mamba + pattern.count("*") * attn + pattern.count("-") * mlp + h)


def test_params_follow_from_the_shapes(kb):
    """Qwen3-Next 79,674,391,296 total and 3,874,929,408 active (the same count is published for Qwen3-Coder-Next,
    which keeps these shapes); Nemotron Nano 9B v2 8,888,227,328 from its 56-block pattern; 12B v2 12,310,001,152."""
    total, active = _qwen3_next_params()
    m = kb.models["qwen3-next-80b-a3b"]
    assert (total, active) == (79_674_391_296, 3_874_929_408)
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    nano9 = _nemotron_h_params(4480, 15680, "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-")
    nano12 = _nemotron_h_params(5120, 20480, "M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M*-M-M-M-M-")
    assert (nano9, nano12) == (8_888_227_328, 12_310_001_152)
    assert kb.models["nvidia-nemotron-nano-9b-v2"].params_b * 1e9 == pytest.approx(nano9, abs=0.5)
    assert kb.models["nvidia-nemotron-nano-12b-v2"].params_b * 1e9 == pytest.approx(nano12, abs=0.5)
    # the block counts the catalog states are the pattern's
    assert (kb.models["nvidia-nemotron-nano-9b-v2"].recurrent.layers, kb.models["nvidia-nemotron-nano-9b-v2"]
            .attention_layers) == (27, 4)


def test_the_names_resolve(kb):
    for name, mid in (("Qwen/Qwen3-Next-80B-A3B-Instruct", "qwen3-next-80b-a3b"),
                      ("qwen/qwen3-next-80b-a3b-thinking", "qwen3-next-80b-a3b"),
                      ("nvidia/NVIDIA-Nemotron-Nano-9B-v2", "nvidia-nemotron-nano-9b-v2")):
        assert kb.model(name).id == mid


def test_the_schema_states_both_or_neither():
    base = {"id": "x", "name": "x", "params_b": 1.0, "layers": 4, "hidden_size": 64, "heads": 4, "kv_heads": 4,
            "ffn_size": 128, "vocab_size": 100, "source": "test"}
    state = {"kind": "mamba2", "layers": 3, "state_elements": 10, "conv_elements": 3}
    with pytest.raises(ValueError, match="go together"):
        Model.model_validate({**base, "attention_layers": 1})
    with pytest.raises(ValueError, match="exceed layers"):
        Model.model_validate({**base, "attention_layers": 2, "recurrent": state})
    assert Model.model_validate({**base, "attention_layers": 1, "recurrent": state}).recurrent.layers == 3


def _serve(kb, accuracy, model, precision, gpu, tp=1):
    job = accuracy.serving_job(kb, model, precision, "vllm", 1000, 1000, 64, tp, 1)
    return job, SV.choose(job, kb.gpus[gpu], tp)


def test_qwen3_next_fp8_on_one_gpu(kb, accuracy):
    """FP8 Qwen3-Next on one H100 does not fit: its weights alone, 79.05B FP8 matmul weights plus the 0.62B 16-bit
    embedding and head (80.35 GB), leave no room under the 81.2 GB gpuwise counts usable. On one H200 vLLM admits a
    request of 1,000 + 1,000 tokens on its prompt and half its output, 1,504 tokens in blocks of 16: 12 attention
    layers x 2 x 2 KV heads x 256 x 2 B = 24,576 B a token, 36,962,304 B of KV, plus the 39,518,208 B of DeltaNet
    state, 76,480,512 B a sequence: floor(free / 76,480,512) sequences, about half the floor(free / 36,962,304) the
    KV cache alone would admit. free is vLLM's 0.9 of the card less the weights, the context and the start-up
    profile's sampler pass, 37.7 B x 151,936 x 1,024 = 5.87 GB where the forward's working set is 1.01 GB
    (serving.yaml vllm profile_sampler): 4.86 GB less than before it was counted, 695 -> 632 sequences."""
    _, small = _serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h100-80gb-sxm")
    assert not small.replica.fits
    _, s = _serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h200-141gb-sxm")
    r = s.replica
    assert r.fits and r.kv_token_gpu == 12 * 2 * 2 * 256 * 2 and r.seq_tokens == 1504
    assert r.state_gpu == QN_STATE
    assert r.per_seq_gpu == 24576 * 1504 + QN_STATE == 76_480_512
    assert r.max_seqs == math.floor(r.free_gpu / 76_480_512) == 632
    assert math.floor(r.free_gpu / (24576 * 1504)) == 1307  # the KV cache alone
    assert r.profile_gpu == pytest.approx(37.7 * 151_936 * 1_024 - r.act_gpu)
    # the printed capacity names the state and its bytes
    cap = terms(*_serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h200-141gb-sxm"))["kv_capacity"]
    assert cap.inputs["recurrent_state_per_sequence_per_gpu_bytes"] == QN_STATE
    assert "39,518,208 B of recurrent state" in cap.formula


def test_tensor_parallelism_splits_the_state_and_the_memory_line_counts_it(kb, accuracy):
    """At TP 2 each rank holds half of a sequence's heads: 19,759,104 B of state beside 12,288 B of KV a token (2 KV
    heads over 2 ranks). The memory report's KV line adds 64 sequences' state to the tokens' cache, / 2 GPUs."""
    assert state_split(2, 1) == 2 and state_split(2, 2) == 4 and state_split(2, 1, dp_attention=2) == 1
    job, s = _serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h100-80gb-sxm", tp=2)
    r = s.replica
    assert r.state_gpu == QN_STATE / 2 and r.kv_token_gpu == 24576 / 2
    assert r.per_seq_gpu == 12288 * r.seq_tokens + QN_STATE / 2
    m = memory(job, s)
    tokens = m.kv_cache.inputs["tokens_kept"] if m.peak_phase == "decode" else m.kv_cache.inputs["tokens"]
    assert m.kv_cache.inputs["recurrent_state_bytes"] == pytest.approx(64 * QN_STATE / 2)
    assert m.kv_cache.value == pytest.approx(24576 * tokens / 2 + 64 * QN_STATE / 2)
    assert "recurrent state of 36 layers without attention" in m.kv_cache.formula


def test_nemotron_nano_9b_holds_its_fp32_state(kb, accuracy):
    """Nemotron Nano 9B v2 in BF16 on one H100: 4 attention layers x 2 x 8 x 128 x 2 B = 16,384 B of KV a token and
    143,548,416 B of Mamba state a sequence, which outweighs the 1,504 tokens' 24.6 MB of KV almost six times."""
    _, s = _serve(kb, accuracy, "nvidia-nemotron-nano-9b-v2", "bf16", "h100-80gb-sxm")
    r = s.replica
    assert r.kv_token_gpu == 16384 and r.state_gpu == NANO9_STATE
    assert r.per_seq_gpu == 16384 * 1504 + NANO9_STATE
    assert r.max_seqs == math.floor(r.free_gpu / r.per_seq_gpu)


def test_a_decode_step_reads_and_writes_the_state(kb, accuracy):
    """A decode step of 64 sequences at a mean 1,500 tokens reads their attention layers' KV, 24,576 B x 1,500 x 64,
    and reads and writes back each sequence's DeltaNet state (vLLM's fused_recurrent_gated_delta_rule updates it in
    place): 2 x 39,518,208 B x 64; 7,417,626,624 B in all, where the KV cache alone is 2,359,296,000. The printed step
    names the state's bytes."""
    job, s = _serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h200-141gb-sxm")
    got = step(job, s.engine, s.replica, 64, 0.0, 1500, 0.0)
    assert got.kv_bytes_gpu == 24576 * 1500 * 64 + 2 * QN_STATE * 64 == 7_417_626_624
    t = terms(job, s)["serving_step"]
    assert t.inputs["recurrent_state_per_sequence_per_gpu_bytes"] == QN_STATE
    assert "2 x 39,518,208 B a sequence" in t.formula
    # a model without the state reads its KV cache alone
    llama_job = accuracy.serving_job(kb, "llama-3.1-8b", "bf16", "vllm", 1000, 1000, 64, 1, 1)
    ls = SV.choose(llama_job, kb.gpus["h200-141gb-sxm"], 1)
    assert step(llama_job, ls.engine, ls.replica, 64, 0.0, 1500, 0.0).kv_bytes_gpu == 131072 * 1500 * 64
    assert "recurrent_state_per_sequence_per_gpu_bytes" not in terms(llama_job, ls)["serving_step"].inputs


def test_a_drafter_layer_caches_as_one_attention_layer(kb):
    """A speculative drafter's layer (EAGLE's, an MTP layer) keeps the KV of one attention layer: Qwen3-Next's 12
    attention layers cache 24,576 B a token, 2 x 2 KV heads x 256 x 2 B = 2,048 B each, not 24,576 / 48 = 512."""
    assert layer_kv_bytes(from_catalog(kb.models["qwen3-next-80b-a3b"]), 2.0) == 2 * 2 * 256 * 2
    assert layer_kv_bytes(from_catalog(kb.models["llama-3.1-8b"]), 2.0) == 2 * 8 * 128 * 2  # every layer attends


# ------------------------------------------------------------------ a user's own hybrid (workload.architecture)
NANO9_ARCH = {"layers": 56, "hidden_size": 4480, "heads": 40, "kv_heads": 8, "head_dim": 128, "ffn_size": 15680,
              "vocab_size": 131072, "attention_layers": 4,
              "recurrent": {"kind": "mamba2", "layers": 27, "state_elements": 128 * 80 * 128,
                            "conv_elements": 3 * (128 * 80 + 2 * 8 * 128), "state_bytes": 4}}


def _custom(kb, arch: dict, **extra):
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = {"task": "inference", "params_b": 8.888227328, "architecture": arch, "prompt_tokens": 1000,
         "output_tokens": 1000, "concurrent_requests": 64, **extra}
    return resolve(Requirements.model_validate({"workload": w}), kb)


def test_a_users_architecture_states_its_recurrent_state(kb):
    """An unlisted hybrid described by hand holds the state the catalog's fields give: Nemotron Nano 9B v2's 27
    Mamba-2 layers of 128 heads x 80 x d_state 128 in float32 and 3 x (10,240 + 2 x 8 x 128) convolution elements in
    BF16, 27 x (5,242,880 + 73,728) = 143,548,416 B a sequence; its 4 attention layers alone keep a KV cache. The
    conv state defaults to 2 B an element; ssm defaults to mamba2, as the catalog's hybrids are priced."""
    shape = _custom(kb, NANO9_ARCH).shape
    assert shape.state_bytes_per_sequence == 27 * (1_310_720 * 4 + 36_864 * 2) == NANO9_STATE
    assert shape.attn_layers == 4 and shape.ssm == "mamba2"
    listed = from_catalog(kb.models["nvidia-nemotron-nano-9b-v2"])
    assert shape.state_bytes_per_sequence == listed.state_bytes_per_sequence
    # a gated DeltaNet layer of 16 key and 32 value heads of 128, kernel 4, in BF16: 524,288 + 24,576 elements
    qn = {**NANO9_ARCH, "recurrent": {"kind": "gated_deltanet", "layers": 36, "state_elements": 32 * 128 * 128,
                                      "conv_elements": 3 * (2 * 16 * 128 + 32 * 128)}}
    assert _custom(kb, qn).shape.state_bytes_per_sequence == QN_STATE == 36 * 548_864 * 2
    # without a recurrent block a user's hybrid keeps no state, as before
    plain = {k: v for k, v in NANO9_ARCH.items() if k != "recurrent"}
    assert _custom(kb, plain).shape.state_bytes_per_sequence == 0.0


def test_serving_holds_a_users_state_per_sequence(kb, accuracy):
    """Served on one H100, the user's hybrid admits sequences of 16,384 B of KV a token over 1,504 tokens plus its
    143,548,416 B of state, as the catalog's model does."""
    job = _custom(kb, NANO9_ARCH)
    r = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1).replica
    assert r.kv_token_gpu == 4 * 2 * 8 * 128 * 2 == 16384 and r.state_gpu == NANO9_STATE
    assert r.per_seq_gpu == 16384 * 1504 + NANO9_STATE


@pytest.mark.parametrize("arch, said", [
    ({k: v for k, v in NANO9_ARCH.items() if k != "attention_layers"}, "recurrent needs attention_layers"),
    ({**NANO9_ARCH, "attention_layers": 30}, "attention_layers 30 and recurrent.layers 27 exceed layers 56"),
    ({**NANO9_ARCH, "recurrent": {**NANO9_ARCH["recurrent"], "state_bytes": 3}}, "state_bytes"),
    ({**NANO9_ARCH, "recurrent": {**NANO9_ARCH["recurrent"], "kind": "mamba"}}, "kind"),
    ({**NANO9_ARCH, "recurrent": {**NANO9_ARCH["recurrent"], "layer": 27}}, "layer"),
])
def test_a_users_recurrent_block_is_checked(kb, arch, said):
    with pytest.raises(ValueError, match=said):
        _custom(kb, arch)


def test_the_users_block_takes_the_catalogs_fields():
    """One vocabulary: the architecture's recurrent block and the catalog's take the same fields and types."""
    from gpuwise.inputs.workload_sections import RecurrentState as Asked
    from gpuwise.knowledge.schema.models import RecurrentState as Listed

    assert {k: f.annotation for k, f in Asked.model_fields.items()} == {
        k: f.annotation for k, f in Listed.model_fields.items()}
    assert {k: f.default for k, f in Asked.model_fields.items()} == {
        k: f.default for k, f in Listed.model_fields.items()}


# ------------------------------------------------------------------ the burst simulator's pool holds the state too
def test_a_burst_pool_counts_each_running_sequences_state(kb, accuracy):
    """The burst simulator keeps its pool in KV tokens; a running Qwen3-Next sequence also holds 39,518,208 B of
    DeltaNet state, 39,518,208 / 24,576 = 1,608 tokens of the same pool (the bytes admission counts, layout.py
    state_gpu). A stated pool of 30,000 tokens then holds 30,000 // (1,000 + 1,608) = 11 sequences of 1,000-token
    prompts, not the 20 their KV alone would allow; as the eleven decode (vLLM reserves the current length, so they
    hold 11 x 2,608 = 28,688 tokens and more), the twelfth waits until they end. Without the state (a copy of the
    replica with none) all 20 fit (20,000 tokens and what they write while the front end hands the rest over) and
    decode together, none of their 100 tokens done before the last arrives."""
    from gpuwise.estimators.serving.burst import burst_run, state_tokens

    job, s = _serve(kb, accuracy, "qwen3-next-80b-a3b", "fp8", "h200-141gb-sxm")
    assert state_tokens(s.replica) == QN_STATE / 24576 == 1608
    rep = type(s.replica)(**{**s.replica.__dict__, "pool_tokens": 30_000, "max_seqs": 64})
    lengths = [(1000, 100)] * 20
    held = burst_run(job, s.engine, rep, lengths)
    free = burst_run(job, s.engine, type(rep)(**{**rep.__dict__, "state_gpu": 0.0}), lengths)
    assert held is not None and free is not None
    assert held.most_running == 30_000 // (1000 + 1608) == 11
    assert free.most_running == 20
    assert held.seconds > free.seconds and held.ttft > free.ttft
    # a model without the state is unchanged: its token-equivalent is 0
    llama_job = accuracy.serving_job(kb, "llama-3.1-8b", "bf16", "vllm", 1000, 1000, 64, 1, 1)
    assert state_tokens(SV.choose(llama_job, kb.gpus["h200-141gb-sxm"], 1).replica) == 0.0


# ------------------------------------------------------------------ Nemotron-H 8B / 47B / 56B
# Megatron-Bridge nemotron_h_provider.py @ d9f7643b NemotronHModelProvider8B / 47B / 56B: Mamba heads of 64 (the base
# provider's mamba_head_dim), 8 groups, conv kernel 4; 8 KV heads of 128
H8 = "M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-"
H47 = "M-M-M-M-M-M-M-M-M*-M-M-M-M-M-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-M-M---MM---M-M*-M-M-M-M-M-"
H56 = ("M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-"
       "M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-")


@pytest.mark.parametrize("mid, h, ffn, pattern, heads, state, attn_heads, nominal, total, state_total", [
    ("nemotron-h-8b", 4096, 21504, H8, 128, 128, 32, 8e9, 8_100_852_736, 102_137_856),
    ("nemotron-h-47b", 8192, 30720, H47, 256, 256, 64, 47e9, 46_791_554_816, 760_504_320),
    ("nemotron-h-56b", 8192, 32768, H56, 256, 256, 64, 56e9, 56_324_350_464, 912_605_184),
])
def test_nemotron_h_from_its_pattern(kb, mid, h, ffn, pattern, heads, state, attn_heads, nominal, total,
                                     state_total):
    """Each Nemotron-H size counted from its block pattern and widths, within 2 % of the size its paper names it by
    (arXiv:2504.03624: 8B, 47B, 56B); the catalog states the count. The attention blocks alone keep a KV cache
    (2 x 8 x 128 x 2 B = 4,096 B a token each); each Mamba-2 block keeps 64-wide heads of d_state elements in float32
    and 3 x (heads x 64 + 2 x 8 x state) convolution elements in BF16 a sequence: the 8B 24 x (1,048,576 x 4 +
    30,720 x 2) = 102,137,856 B, the 47B 45 x (4,194,304 x 4 + 61,440 x 2) = 760,504,320 B, the 56B 54 x the same =
    912,605,184 B."""
    got = _nemotron_h_params(h, ffn, pattern, heads=heads, head_dim=64, state=state, attn_heads=attn_heads)
    assert got == total and abs(got - nominal) / nominal < 0.02
    m = kb.models[mid]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert (m.layers, m.attention_layers, m.recurrent.layers) == (len(pattern), pattern.count("*"), pattern.count("M"))
    shape = from_catalog(m)
    per_layer = heads * 64 * state * 4 + 3 * (heads * 64 + 2 * 8 * state) * 2
    assert shape.state_bytes_per_sequence == pattern.count("M") * per_layer == state_total
    assert shape.attn_layers == pattern.count("*")
    assert kb.model(f"nvidia/{mid.replace('nemotron-h', 'Nemotron-H')}-Base-8K").id == mid


def test_nemotron_h_56b_on_one_h200(kb, accuracy):
    """In BF16 the 56B's weights (112.6 GB) fit one H200; each sequence of 1,504 tokens then takes 10 x 4,096 B x
    1,504 = 61,603,840 B of KV beside 912,605,184 B of state, so the state sets how many sequences fit."""
    _, s = _serve(kb, accuracy, "nemotron-h-56b", "bf16", "h200-141gb-sxm")
    r = s.replica
    assert r.kv_token_gpu == 40960 and r.state_gpu == 912_605_184
    assert r.per_seq_gpu == 40960 * 1504 + 912_605_184
    assert r.fits and r.max_seqs == math.floor(r.free_gpu / r.per_seq_gpu)
