"""ZeRO-3 / FSDP FULL_SHARD traffic (gpuwise/estimators/planner.py, interconnect.ring_seconds) checked
by hand: the weights are all-gathered in every micro-batch's forward pass and again in its backward
pass, and its gradients reduce-scattered (Rajbhandari et al. 2020, ZeRO, section 7.2.3; Zhao et al.
2023, PyTorch FSDP, section 3.3), so gradient accumulation does not amortise them. Each collective is
a flat NCCL ring over all the data-parallel GPUs: every GPU sends (n-1)/n of the buffer, 1/8 of it
through its own 400 Gb/s port on a rail-optimised fabric and 7/8 over NVLink, both at once.

The figures below are written out by hand from published constants: Llama 2 70B has 68,976,648,192
parameters (meta-llama/Llama-2-70b-hf), 80 layers; an H100 SXM has 900 GB/s of NVLink both ways
(450 one way, NVIDIA H100 datasheet); RoCE-400 is one 400 Gb/s port per GPU, 50 GB/s one way, 5 us;
NCCL reaches 75% of line rate (runtime.yaml link_efficiency). What hides the traffic is bucketing
(data_parallel._hidden): ZeRO-3 cuts each collective into one per layer, and the backward (or forward) hides
all but the last layer's, once the first layer's is ready: exposed = max(traffic / 80, traffic - 79/80 x
window) for Llama 2 70B's 80 layers; ZeRO-1/2 reduce in PyTorch DDP's 25 MiB buckets (runtime.yaml
grad_bucket_bytes) when the stack names none.
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators import step_time as ST
from gpuwise.estimators.candidate import training_job
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

PARAMS = 68_976_648_192
S = 2 * PARAMS  # bf16 weights (and DeepSpeed's bf16 gradients): 137.95 GB
EFF = 0.75
NVLINK = 450e9 * EFF
PORT = 50e9 * EFF
FT_70B = {"task": "finetune", "method": "full", "model": "llama-2-70b", "precision": "bf16", "optimizer": "adamw",
          "batch_size": 1, "seq_len": 4096, "train_tokens": 1e8, "global_batch_tokens": 16 * 4096 * 4}


def _step(kb, network: str | None, n: int = 16, ckpt: bool = True, workload: dict = FT_70B, zero: int = 3):
    job = resolve(Requirements(workload=workload, constraints={}), kb)
    tj = training_job(job)
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, n, kb.runtime, network=network)
    st = P.figures(tj, P._layout(tj, n, 1, 1, 1, 1, 1, (zero, ckpt, "none")))
    rates = P.gpu_rates(tj, g, topo)
    step = P.step_time(tj, st, rates)
    return tj, st, rates, step, P.dp_traffic(tj, st, rates, step.compute)


def test_the_constants_the_hand_figures_rest_on(kb):
    assert kb.models["llama-2-70b"].params_b * 1e9 == pytest.approx(PARAMS, rel=1e-9)
    assert kb.runtime.link_efficiency.value == EFF
    assert kb.runtime.grad_bucket_bytes.value == 25 * 2**20  # torch DDP bucket_cap_mb=25
    net = kb.runtime.networks["roce-400"]
    assert (net.gb_s, net.shared_by, net.latency_us) == (50.0, "gpu", 5)


def test_two_node_zero3_collectives_by_hand(kb):
    """16 x H100 on 2 nodes over RoCE-400, micro-batch 1 x 4,096 tokens, 4 micro-batches a step.

    One all-gather: every GPU sends 15/16 x 137.95 GB = 129.3 GB; 7/8 of it, 113.2 GB, over NVLink
    at 337.5 GB/s = 0.335 s, and 1/8, 16.2 GB, through its port at 37.5 GB/s = 0.431 s: the port
    is the slower link, 0.431 s, plus 80 layers x 15 ring steps x 5 us = 6 ms: 0.437 s. The
    reduce-scatter of the bf16 gradients is the same. (Not 131 GB at 50 GB/s = 2.6 s: that would be
    every GPU's whole volume crossing its own port, where NCCL spreads the rings over all 8 ports.)"""
    _, st, _, step, d = _step(kb, "roce-400")
    assert st.layout.grad_accum == 4 and st.layout.dp == 16
    volume = 15 / 16 * S
    assert volume == pytest.approx(129.3e9, rel=1e-3)
    nvlink_leg = volume * 7 / 8 / NVLINK
    port_leg = volume / 8 / PORT
    assert (nvlink_leg, port_leg) == (pytest.approx(0.3353, abs=1e-4), pytest.approx(0.4311, abs=1e-4))
    gather = port_leg + 80 * 15 * 5e-6
    assert d.zero3.gather_s == pytest.approx(gather, rel=1e-6)
    assert d.zero3.gather_s == pytest.approx(0.4371, abs=1e-4)
    assert d.zero3.reduce_scatter_s == pytest.approx(gather, rel=1e-6)
    assert d.zero3.network_bytes_per_gpu == pytest.approx(16.16e9, rel=1e-3)
    # three collectives per micro-batch, four micro-batches: 4 x 3 x 0.437 = 5.25 s a step, all of it
    # moved whatever the accumulation
    assert d.traffic_s == pytest.approx(4 * 3 * gather, rel=1e-6)
    # compute of a micro-batch with recomputation: 8 x 68.7e9 matmul params + attention per token at
    # the planner's rate; the forward is 2/8 of it (6/8: backward 4 + recompute 2)
    micro = step.compute / 4
    assert d.zero3.forward_s == pytest.approx(micro * (2 * 68.7e9 + 2 * 80 * 4096 * 8192)
                                           / (8 * 68.7e9 + 8 * 80 * 4096 * 8192), rel=2e-3)
    # hidden: 0.437 s <= 79/80 x forward and 0.874 s <= 79/80 x backward, so only the last layer's
    # collectives wait: 4 x (0.437 + 0.874) / 80 = 0.066 s a step
    assert gather <= 79 / 80 * d.zero3.forward_s and 2 * gather <= 79 / 80 * (micro - d.zero3.forward_s)
    assert step.dp == pytest.approx(4 * 3 * gather / 80, rel=1e-6)
    assert step.dp == pytest.approx(0.0656, abs=1e-3)
    assert d.hidden_s == pytest.approx(d.traffic_s * 79 / 80)


def test_per_node_ethernet_exposes_zero3_every_micro_batch(kb):
    """The same job over one 100 GbE port per node (12.5 GB/s shared by 8 GPUs, 1.5625 GB/s each):
    the port leg of one collective is 16.2 GB / (1.5625 x 0.75) GB/s = 13.79 s, plus 80 x 15 x 15 us
    = 18 ms; per micro-batch the forward exposes 13.81 - 79/80 x forward and the backward
    2 x 13.81 - 79/80 x backward (all but the last of the 80 layers' collectives hide), four times a step."""
    _, _, _, step, d = _step(kb, "ethernet-100")
    gather = 15 / 16 * S / 8 / (12.5e9 / 8 * EFF) + 80 * 15 * 15e-6
    assert gather == pytest.approx(13.81, abs=0.01)
    assert d.zero3.gather_s == pytest.approx(gather, rel=1e-6)
    micro, fwd = step.compute / 4, d.zero3.forward_s
    exposed = 4 * ((gather - 79 / 80 * fwd) + (2 * gather - 79 / 80 * (micro - fwd)))
    assert step.dp == pytest.approx(exposed, rel=1e-6)
    assert step.dp > 8 * step.compute  # a step waits on the network (9x its compute): the communication part


def test_gradient_accumulation_does_not_amortise_zero3(kb):
    """Twice the micro-batches per step: twice the ZeRO-3 traffic (ZeRO-1 would move it once)."""
    _, _, _, s4, d4 = _step(kb, "ethernet-100")
    _, _, _, s8, d8 = _step(kb, "ethernet-100", workload={**FT_70B, "global_batch_tokens": 16 * 4096 * 8})
    assert d8.traffic_s == pytest.approx(2 * d4.traffic_s, rel=1e-9)
    assert s8.dp == pytest.approx(2 * s4.dp, rel=1e-9)


def test_one_node_zero3_is_the_ring_it_was(kb):
    """On one node the ring sends all of its (n-1)/n over NVLink: 7/8 x 137.95 GB / 337.5 GB/s =
    0.3577 s per collective, as the all-reduce half the planner charged before; only the per-layer
    latency (80 x 7 x 5 us = 2.8 ms) is new."""
    _, _, rates, _, d = _step(kb, None, n=8)
    gather = 7 / 8 * S / NVLINK + 80 * 7 * 5e-6
    assert d.zero3.gather_s == pytest.approx(gather, rel=1e-6)
    assert d.zero3.gather_s - 80 * 7 * 5e-6 == pytest.approx(0.5 * ST._allreduce(rates, S, 8, 8) - 7 * 5e-6,
                                                          rel=1e-9)


@pytest.mark.parametrize("zero", [1, 2])
def test_zero_1_and_2_keep_their_hierarchical_all_reduce(kb, zero):
    """ZeRO-1 (once per step) and ZeRO-2 (gradients every micro-batch) over two nodes: the same
    formulas as before this change, written out. The middle stack all-gathers the updated weights after
    the optimizer step (half an all-reduce), which nothing hides; only the gradients' reduce-scatter hides
    behind the backward (DeepSpeed's overlap_comm covers the gradient reduction only), in PyTorch DDP's
    25 MiB buckets: all but the last bucket, 26,214,400 B of the 137.95 GB of bf16 gradients (b = 1.9e-4)."""
    _, _, rates, step, d = _step(kb, "roce-400", zero=zero, ckpt=True)
    ar = ST._allreduce(rates, S, 16, 8)
    # hierarchical all-reduce of 137.95 GB: 2 x 7/8 x S / 337.5 GB/s + 2 x 1/2 x S/8 / 37.5 GB/s
    assert ar == pytest.approx(2 * 7 / 8 * S / NVLINK + 14 * 5e-6 + S / 8 / PORT + 2 * 5e-6, rel=1e-6)
    if zero == 1:
        grads, window = 0.5 * ar, step.compute / 4
    else:
        grads, window = 4 * 0.5 * ar, step.compute
    gather = 0.5 * ar
    assert d.traffic_s == pytest.approx(grads + gather, rel=1e-9)
    b = 25 * 2**20 / S
    assert b == pytest.approx(1.90e-4, rel=1e-2)
    exposed = gather + max(grads * b, grads - (1 - b) * window)
    # the step's dp term adds what the hidden part slows the compute beside it, for the share of the all-reduce's
    # time on NVLink (data_parallel.dp_contention; tests/test_training_short_steps.py)
    nvlink, port = 2 * 7 / 8 * S / NVLINK + 14 * 5e-6, S / 8 / PORT + 2 * 5e-6
    assert d.contention_s == pytest.approx(0.189 * (d.traffic_s - exposed) * nvlink / (nvlink + port), rel=1e-9)
    assert step.dp == pytest.approx(exposed + d.contention_s, rel=1e-9)


def test_the_report_shows_the_traffic_and_what_hides_it(kb):
    """The estimate names the data-parallel traffic of a step, its hidden and exposed parts."""
    from gpuwise import estimate
    r = estimate({"workload": {**FT_70B, "zero_stage": 3, "gradient_checkpointing": True}}, gpu="H100-80G", gpus=16)
    t = r.gpu.training
    assert t.layout_notation.startswith("TP1 PP1 DP16") and "ZeRO-3" in t.layout_notation
    d = t.dp_traffic
    # all but the last of the 80 layers' collectives hide behind the micro-batches' compute
    assert d.traffic_s > 4 and d.exposed_s == pytest.approx(d.traffic_s / 80) and d.overlap == pytest.approx(79 / 80)
    term = next(x for x in r.gpu.terms if x.name == "dp_traffic_seconds")
    assert term.value == pytest.approx(d.traffic_s) and term.inputs["gather_s"] == pytest.approx(d.gather_s)
