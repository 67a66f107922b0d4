"""LatentMoE (catalog ``moe.latent_size``): NVIDIA Nemotron 3 Super 120B-A12B, whose 512 routed experts work in a
1,024-wide latent between a dense down projection (hidden 4,096 -> 1,024) and an up projection (1,024 -> 4,096).

Shapes: NVIDIA-NeMo/Megatron-Bridge src/megatron/bridge/models/nemotronh/nemotron_h_provider.py @ 6ebf0e4c (branch
super-v3) Nemotron3SuperProvider: hybrid_override_pattern below (88 blocks), hidden 4096, 32 heads of 128 over 2 query
groups, 128 Mamba heads of 64, d_state 128, 8 Mamba groups, 512 experts of 2688 top-22, moe_latent_size 1024, a shared
expert of 5376, squared-ReLU MLPs, untied embeddings; vocabulary 131072. How the engines run it: vllm-project/vllm
vllm/model_executor/models/nemotron_h.py @ 8744bb09 NemotronHMoE (fc1_latent_proj, a ReplicatedLinear, is the fused
MoE's routed input transform, the experts are 1024 -> 2688 -> 1024, fc2_latent_proj back to 4096, the shared expert
on the hidden state); Megatron-Bridge training/utils/theoretical_memory_utils.py @ 067f987d counts the routed experts at
the latent width and 2 x hidden x latent projection weights as dense. The checkpoint: Megatron-Bridge
examples/model_verification_cards/nemotron-3-super-120b-a12b/card.yaml @ 067f987d exports 123,611,033,088 elements of
nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16, the model plus its one MTP block. NVIDIA names it 120B total, 12B active.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import compute as C
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import block_gemms, model_bytes, quant_formats, shape_consts
from gpuwise.estimators.serving.step import consts, step
from gpuwise.estimators.step_time import expert_share
from gpuwise.inputs.shape import from_catalog
from gpuwise.knowledge.schema.models import Model

SUPER = "nvidia-nemotron-3-super-120b-a12b"
PATTERN = "MEMEMEM*EMEMEMEM*EMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEMEM*EMEMEMEM*EMEMEMEME"
H, LATENT, FFN, VOCAB = 4096, 1024, 2688, 131072
EXPERT = 2 * LATENT * FFN  # one routed expert: squared-ReLU up and down in the latent, no gate: 5,505,024
PROJ = 2 * H * LATENT  # a MoE block's down and up projections: 8,388,608
# 40 Mamba-2 blocks: 128 heads x 64 x d_state 128 in float32, 3 x (8,192 + 2 x 8 x 128) convolution elements in BF16
STATE = 40 * (128 * 64 * 128 * 4 + 3 * (128 * 64 + 2 * 8 * 128) * 2)
KV_TOKEN = 8 * 2 * 2 * 128 * 2  # 8 attention blocks, K and V of 2 KV heads of 128, BF16


def _blocks() -> tuple[int, int, int]:
    groups, heads, head_dim, state = 8, 128, 64, 128
    inner = heads * head_dim
    conv = inner + 2 * groups * state
    # in_proj (z, x, B, C, dt), depthwise conv and its bias, dt_bias / A_log / D, gated norm, out_proj, block norm
    mamba = H * (2 * inner + 2 * groups * state + heads) + conv * 4 + conv + 3 * heads + inner + inner * H + H
    attn = H * 32 * 128 + 2 * H * 2 * 128 + 32 * 128 * H + H  # q, k, v, o (no bias), block norm
    # 512 latent experts, the shared expert of 5376 on the hidden state, router and its bias, projections, norm
    moe = 512 * EXPERT + 2 * H * 5376 + 512 * H + 512 + PROJ + H
    return mamba, attn, moe


def test_nemotron_3_super_params_follow_from_its_pattern(kb):
    """88 blocks: 40 Mamba-2, 40 MoE, 8 attention. 120,668,707,840 parameters and 12,770,237,440 a token touches
    (12.23B without the input embedding: NVIDIA's 'A12B'); with the MTP block (an attention and a MoE block, eh_proj
    8,192 x 4,096 and three norms) the checkpoint's 123,611,033,088 elements to the one."""
    mamba, attn, moe = _blocks()
    assert (len(PATTERN), PATTERN.count("M"), PATTERN.count("E"), PATTERN.count("*")) == (88, 40, 40, 8)
    total = 2 * VOCAB * H + 40 * mamba + 8 * attn + 40 * moe + H
    active = total - 40 * (512 - 22) * EXPERT
    assert (total, active) == (120_668_707_840, 12_770_237_440)
    assert total + attn + moe + 2 * H * H + 3 * H == 123_611_033_088
    assert total == pytest.approx(120e9, rel=0.02) and active - VOCAB * H == pytest.approx(12e9, rel=0.02)
    m = kb.models[SUPER]
    assert m.params_b * 1e9 == pytest.approx(total, abs=0.5)
    assert m.active_params_b * 1e9 == pytest.approx(active, abs=0.5)
    assert (m.layers, m.attention_layers, m.recurrent.layers, m.moe.blocks, m.moe.latent_size) == (
        88, 8, 40, 40, LATENT)
    assert 2 * FFN == 5376 and m.moe.shared_experts == 2 and m.mtp_layers == 1


def test_the_shape_knows_the_latent(kb):
    """The routed experts: 40 x 512 x 5,505,024 = 112,742,891,520 weights (the total less the active count is 490 of
    the 512 experts' worth); the projections 40 x 8,388,608 = 335,544,320, dense; a token multiplies through
    12,770,237,440 less the 536,870,912 input embedding. A model without a latent is as before."""
    shape = from_catalog(kb.models[SUPER])
    assert shape.moe_layers == 40 and shape.expert_width == LATENT
    assert shape.routed_expert_params == 40 * 512 * EXPERT == 112_742_891_520
    assert shape.latent_params == 40 * PROJ == 335_544_320
    assert shape.matmul_params_active == 12_770_237_440 - VOCAB * H
    v3 = from_catalog(kb.models["deepseek-v3"])
    assert v3.expert_width == v3.hidden == 7168 and v3.latent_params == 0.0 and v3.moe_latent is None


def test_nemotron_3_super_state_and_kv_by_hand(kb):
    """40 Mamba-2 blocks hold 40 x (1,048,576 x 4 B + 30,720 x 2 B) = 170,229,760 B a sequence; the 8 attention
    blocks alone keep a KV cache, 8 x 2 x 2 x 128 x 2 B = 8,192 B a token."""
    assert STATE == 40 * (4_194_304 + 61_440) == 170_229_760 and KV_TOKEN == 8192
    shape = from_catalog(kb.models[SUPER])
    assert shape.state_bytes_per_sequence == STATE
    assert shape.attn_layers == 8 and shape.kv_dim * 2 * 2 * shape.attn_layers == KV_TOKEN


def test_a_single_stream_decode_reads_22_latent_experts_a_block(kb, accuracy):
    """BF16 on 4 x H100, one sequence: a MoE block's 22 routed experts are 22 / 512 of its 512, so a step reads
    112,742,891,520 x 2 B x 22 / 512 = 9,688,842,240 B of experts (40 x 22 x 5,505,024 weights at 2 B), a quarter a
    GPU under tensor parallelism; the experts' math is 2 x 4,844,421,120 FLOPs a token."""
    job = accuracy.serving_job(kb, SUPER, "bf16", "vllm", 1000, 1000, 1, 4, 1)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 4)
    sc = shape_consts(job.shape)
    assert sc.n_experts_active == 40 * 22 * EXPERT == 4_844_421_120 and sc.latent == LATENT
    c = consts(job, s.engine, s.replica)
    assert s.replica.layout.tp == 4 and c.w_experts == 112_742_891_520 * 2 / 4
    one = step(job, s.engine, s.replica, 1, 0.0, 1500, 0.0)
    assert one.weight_bytes_gpu == pytest.approx(c.w_dense + 9_688_842_240 / 4, rel=1e-12)
    assert c.f_experts == 2 * 4_844_421_120


def test_the_projections_are_held_whole_and_walked_as_gemms(kb, accuracy):
    """Every tensor-parallel rank holds the 40 blocks' projections whole (vLLM and SGLang build them as
    ReplicatedLinear), beside the 40 routers of 512 x 4,096 kept in 16 bit: 335,544,320 x 2 + 83,886,080 x 2 B in
    BF16; in FP8 the projections are at 1 B. The block-FP8 walk sees a 1,024 x 4,096 and a 4,096 x 1,024 GEMM a
    block."""
    shape = from_catalog(kb.models[SUPER])
    quant = quant_formats(kb)
    assert model_bytes(shape, "bf16", quant).replicated == 335_544_320 * 2 + 40 * 512 * H * 2
    assert model_bytes(shape, "fp8", quant).replicated == 335_544_320 * 1 + 40 * 512 * H * 2
    gemms = block_gemms(shape)
    assert (LATENT, H, "", 40.0) in gemms and (H, LATENT, "", 40.0) in gemms
    assert not any(g[2] == "" for g in block_gemms(from_catalog(kb.models["qwen3-30b-a3b"])))


def test_expert_parallel_rows_are_latent_wide(kb, accuracy):
    """With attention data parallel over 4 H100s (EP 4) the dispatch and combine carry each token's 22 rows at the
    latent width, 1,024 x 2 B, not the hidden 4,096 (a quarter of the bytes): the step's all-to-all, the MoE pass
    bytes a routed row costs in training (8 x 1,024 + 5 x 2,688 elements at 2 B = 43,264 B; FP8 quantization adds
    4 x (2 x 1,024 + 2 x 2,688) = 29,696 B), and the routed experts' share of a MoE block's GEMM weights."""
    job = accuracy.serving_job(kb, SUPER, "bf16", "sglang", 1000, 1000, 64)
    gpu = kb.gpus["h100-80gb-sxm"]
    eng = SV.choose(job, gpu, 4).engine
    rep = SV.replica(job, gpu, eng, SV.Layout(tp=1, pp=1, ep=4, dp_attention=4))
    c = consts(job, eng, rep)
    assert c.ep_comm and c.ep_width == LATENT and c.hidden == H
    tokens = 64.0
    alltoall = c.moe_stage * (c.alltoall_2 + 2 * (tokens / 4) * 22 * LATENT * 2 * 3 / 4 / c.ep_bw)
    assert step(job, eng, rep, tokens, 0.0, 1500, 0.0).comm == pytest.approx(alltoall, rel=1e-12)
    shape = job.shape
    assert C.moe_pass_bytes(shape, False) == (8 * 1024 + 5 * 2688) * 2 == 43_264
    assert C.moe_pass_bytes(shape, True) == 43_264 + 4 * (2 * 1024 + 2 * 2688) == 72_960
    k_w = 22 * 2 * LATENT * FFN  # 121,110,528
    layer = 2 * H * H + 2 * H * 256 + k_w + 2 * 2 * H * FFN + H * 512 + PROJ  # 211,288,064
    assert expert_share(shape) == pytest.approx(k_w / layer, rel=1e-12)


def test_the_width_for_mfu_weighs_each_matmul(kb):
    """Attention at 4,096; the routed experts at the harmonic mean of 1,024 and 2,688 (1,483.0); the shared expert at
    that of 4,096 and 2,688 (3,245.9); the projections at that of 4,096 and 1,024 (1,638.4), by their weights."""
    shape = from_catalog(kb.models[SUPER])
    parts = ((2 * H * H + 2 * H * 256, H), (2 * LATENT * FFN * 22, 2 * LATENT * FFN / (LATENT + FFN)),
             (2 * H * FFN * 2, 2 * H * FFN / (H + FFN)), (PROJ, 2 * H * LATENT / (H + LATENT)))
    want = sum(n for n, _ in parts) / sum(n / w for n, w in parts)
    assert C.width_for_mfu(shape) == pytest.approx(want, rel=1e-12)
    assert 1400 < want < 2000


def test_the_names_resolve(kb):
    for name in ("nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16", "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-NVFP4",
                 "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-FP8", "Nemotron-3-Super", "nemotron 3 super"):
        assert kb.model(name).id == SUPER


def test_latent_size_is_checked():
    base = {"id": "x", "name": "x", "kind": "moe", "params_b": 1.0, "active_params_b": 0.5, "layers": 6,
            "hidden_size": 64, "heads": 4, "kv_heads": 4, "ffn_size": 32, "vocab_size": 100, "source": "test"}
    ok = Model.model_validate({**base, "moe": {"experts": 4, "experts_per_token": 2, "latent_size": 16}})
    assert ok.moe.latent_size == 16
    assert Model.model_validate({**base, "moe": {"experts": 4, "experts_per_token": 2}}).moe.latent_size is None
    with pytest.raises(ValueError):
        Model.model_validate({**base, "moe": {"experts": 4, "experts_per_token": 2, "latent_size": 0}})
