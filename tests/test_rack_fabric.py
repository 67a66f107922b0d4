"""Rack-scale NVLink domains (GB200/GB300 NVL72), FP4 training GEMMs and Blackwell Ultra's MFU, by hand."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.estimators.data_parallel import _dp_local
from gpuwise.estimators.interconnect import topology
from gpuwise.estimators.training_layout import Layout


def test_an_nvl72_rack_joins_its_servers_on_nvlink(kb):
    """GB200 NVL72: 72 GPUs in 18 trays of 4, one NVLink domain (NVIDIA GB200 NVL72 spec: 1,800 GB/s per GPU,
    72-GPU domain). gpuwise counts the 4-GPU trays as servers (gpus.yaml link.server_gpus 4, product63: NVIDIA DGX
    GB200 user guide, 18 compute trays of 2 Grace + 4 Blackwell); the fabric, the GPUs whose collectives stay on
    NVLink, is the rack: 72 of 72, 72 of 512, and tensor parallelism may span its trays. HGX H100 keeps one
    server's 8."""
    rack = topology(kb.gpus["gb200"], 72, kb.runtime)
    assert (rack.nodes, rack.per_node, rack.fabric, rack.intra_gb_s) == (18, 4, 72, 900)
    assert rack.tp_domain == 72  # the rack's NVLink domain, not the tray's 4
    assert topology(kb.gpus["gb200"], 512, kb.runtime).fabric == 72
    assert topology(kb.gpus["gb300"], 16, kb.runtime).fabric == 16
    assert topology(kb.gpus["gb200"], 8, kb.runtime).fabric == 8  # one server: no rack-wide fabric needed
    assert topology(kb.gpus["h100-80gb-sxm"], 512, kb.runtime).fabric == 8


def test_data_parallel_peers_on_the_fabric(kb):
    """Megatron's order (tp, cp, dp, pp): DP ranks tp GPUs apart, so 72 // 1 = 72 of a DP72 group share the
    rack, 8 // 2 = 4 on an H100 server. A pipelined replica placed inside one rack (TP4 x CP2 x PP8 = 64 <= 72,
    NVIDIA's NVL72 recipes: SLURM segment of tp x pp x cp GPUs, mlcommons/training_results_v5.1 NVIDIA
    llama31_405b configs) has only its 2 CP ranks on NVLink; the 8 replicas sit in 8 racks."""
    gb = topology(kb.gpus["gb200"], 512, kb.runtime)
    assert _dp_local(Layout(tp=1, dp=72), topology(kb.gpus["gb200"], 72, kb.runtime)) == 72
    assert _dp_local(Layout(tp=2, dp=256), topology(kb.gpus["h100-80gb-sxm"], 512, kb.runtime)) == 4
    assert _dp_local(Layout(tp=4, pp=8, dp=16, cp=2), gb) == 2
    assert _dp_local(Layout(tp=4, pp=32, dp=4, cp=1), gb) == min(4, 72 // 4)


def test_a_rack_reduces_8b_gradients_at_nvlink_speed(kb):
    """Llama 3.1 8B on one GB200 NVL72 rack (NeMo, TP1, DP72, ZeRO-1): the FP32 gradients' reduce-scatter
    (71/72 x 4 bytes x 8.03e9) and the bf16 weights' all-gather (71/72 x 2 bytes x 8.03e9) over NVLink at
    900 GB/s per direction x the link efficiency, not over the trays' 400 Gb/s InfiniBand ports."""
    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "seq_len": 8192, "precision": "fp8",
         "global_batch_tokens": 36 * 8192, "parallelism": {"tp": 1, "pp": 1}, "stack": "nemo"}
    t = estimate({"workload": w}, gpu="gb200", gpus=72).gpu.training
    assert t.layout_notation.startswith("TP1 PP1 DP36 CP2")  # 36 replicas x CP 2: the gradients reduce over all 72
    eff = kb.runtime.link_efficiency.value
    by_hand = 71 / 72 * (4 + 2) * kb.models["llama-3.1-8b"].params_b * 1e9 / (900e9 * eff)
    assert t.dp_traffic.traffic_s == pytest.approx(by_hand, rel=0.02)


def test_fp4_gemms_run_at_the_fp4_over_fp8_ratio_nvidias_recipes_show(kb):
    """NVFP4 training on GB200: GEMMs 1.6 x 2.13 = 3.408x BF16 (FP8's 1.6 at the FP4 / FP8 ratio NVIDIA's own NVFP4
    and MXFP8 runs on one layout show for Blackwell, runtime.yaml training.fp4_gemm_over_fp8, near the spec table's
    10,000 / 5,000), the memory-bound share unchanged: compute FP8 / FP4 = (1 / 1.6 + x) / (1 / 3.408 + x),
    x = 7.5 x (2,500e12 / 8,000e9) / 4,096 for Llama 3.1 8B (hidden 4,096)."""
    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "seq_len": 8192,
         "global_batch_tokens": 64 * 8192}
    fp8 = estimate({"workload": {**w, "precision": "fp8"}}, gpu="gb200", gpus=8).gpu.training
    fp4 = estimate({"workload": {**w, "precision": "fp4"}}, gpu="gb200", gpus=8).gpu.training
    assert fp8.layout_notation == fp4.layout_notation
    x = 7.5 * (2500e12 / 8000e9) / 4096
    ratio = fp8.step_terms.compute_s / fp4.step_terms.compute_s
    # attention stays in 16 bits at the fused kernels' 0.55 of the BF16 peak on Blackwell (cuDNN 9.13 on B200,
    # training.attention_kernels), slower than either precision's GEMMs: its share a of the FLOPs (6 x 32 x 8,192 x
    # 4,096 per token over 6 x matmul params + that) takes the same time in both, which narrows the ratio; the 0.55 is
    # a rate of FlashAttention's count (the backward 2.5 forwards to gpuwise's 2): 0.55 / (3.5 / 3) in gpuwise's
    from gpuwise.estimators.candidate import training_job
    from gpuwise.estimators.step_time import gpu_speed
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    job = resolve(Requirements.model_validate({"workload": {**w, "precision": "fp8"}}), kb)
    mfu = gpu_speed(training_job(job), kb.gpus["gb200"])[1].value
    attn = 6 * 32 * 8192 * 4096
    a = attn / (6 * job.shape.matmul_params_active + attn)
    r8, r4 = mfu * (1 + x) / (1 / 1.6 + x), mfu * (1 + x) / (1 / (1.6 * 2.13) + x)

    def time(r):
        return (1 - a) / r + a / min(r, 0.55 / (3.5 / 3))

    assert r8 > 0.55 and r4 > 0.55
    assert ratio == pytest.approx(time(r8) / time(r4), rel=1e-3)
    assert ratio < (1 / 1.6 + x) / (1 / (1.6 * 2.13) + x)


def test_blackwell_ultra_mfu_from_the_published_model_tflops(kb):
    """Megatron-Bridge performance summary, Llama 3 70B FP8: 2,030-2,248 model TFLOP/s per GB300, 1,791-1,937
    per GB200, at equal dense peaks: Blackwell Ultra's MFU is Blackwell's 0.60 x the ratio of the midpoints."""
    ratio = (2030 + 2248) / (1791 + 1937)
    assert kb.runtime.mfu["blackwell-ultra"].value == pytest.approx(0.60 * ratio, abs=0.005)
    assert kb.runtime.mfu["blackwell"].value == 0.60
