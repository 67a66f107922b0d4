"""loraoffload57: a LoRA / QLoRA fine-tune with CPU offload offloads what DeepSpeed and FSDP offload.

review53's proposal (tests/data/review53/proposal-lora-pro6000-offload.yaml: Llama 3.1 70B LoRA rank 32 on 4 RTX
PRO 6000, ZeRO-3, offload cpu) kept every byte on the GPUs (memory.py skipped offload for LoRA) and
MEM-HOST-RAM-HELD said it 'needs 0 GB of host RAM'. Under ZeRO-3, DeepSpeed's offload_param and FSDP's
offload_params keep every parameter's shard on the host, the frozen ones too (ZeRO-Infinity, Rajbhandari et al.
2021, arXiv:2104.07857, partitions all parameters; FSDP CPUOffload(offload_params=True) moves each flat
parameter's shard), and offload_optimizer moves the adapters' optimizer state and gradients; every micro-batch
fetches the shard back for its forward, backward and recomputed forward (step_time.weight_fetches). Each figure
below is worked by hand from the model's parameter count and the adapters' (memory.lora_adapter_params)."""
from __future__ import annotations

import types

import pytest

from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import capacity_bytes, training_job
from gpuwise.estimators.memory import TrainSetup, lora_adapter_params, training_memory, weight_bytes
from gpuwise.estimators.step_time import offload_parts
from gpuwise.estimators.training_layout import Layout, figures
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.inputs.shape import from_catalog
from tests.clirun import ROOT
from tests.clirun import json_of as _json

NO_OVERHEAD = (0.0, 0.0)
PROPOSAL = ROOT / "tests/data/review53/proposal-lora-pro6000-offload.yaml"


def _setup(method: str, zero: int, offload: str, dp: int = 4) -> TrainSetup:
    return TrainSetup(method, "bf16", True, "adamw", 2, 8192, True, "sdpa", zero, offload, dp, lora_rank=32,
                      lora_targets="all-linear")


@pytest.fixture(scope="module")
def llama70(kb):
    return from_catalog(kb.models["llama-3.1-70b"])


def test_zero3_offload_moves_the_frozen_base_to_the_host(kb, llama70):
    """ZeRO-3 over 4 GPUs with CPU offload: the GPU keeps the two layers it gathers, 2 x 70.6e9 x 2 B / 80 layers
    = 3.53 GB; the host holds each GPU's shard of the 16-bit base and the fp32 adapters, (P x 2 + Pa x 4) / 4,
    and their AdamW moments (Pa x 8 / 4) and fp32 gradients (Pa x 4 / 4): 36.95 GB a GPU."""
    P_, q = llama70.params, kb.runtime.quantization
    Pa = lora_adapter_params(llama70, 32, "all-linear")
    on = training_memory(llama70, _setup("lora", 3, "cpu"), quant=q, overhead=NO_OVERHEAD)
    off = training_memory(llama70, _setup("lora", 3, "none"), quant=q, overhead=NO_OVERHEAD)
    assert on.weights.value == pytest.approx(2 * P_ * 2 / 80)
    assert on.optimizer.value == 0.0
    assert on.host_bytes == pytest.approx((P_ * 2 + Pa * 4) / 4 + Pa * 8 / 4 + Pa * 4 / 4)
    assert on.host_bytes == pytest.approx(36.95e9, rel=0.01)
    assert on.offload_target == "cpu"
    # without offload nothing changes: the shard and the two gathered layers stay on the GPU
    assert off.weights.value == pytest.approx((P_ * 2 + Pa * 4) / 4 + 2 * P_ * 2 / 80)
    assert off.host_bytes == 0.0 and off.offload_target == "none"
    assert on.per_gpu < off.per_gpu - 30e9


def test_qlora_offloads_its_nf4_base_at_its_bytes(kb, llama70):
    """QLoRA: the shard on the host is the NF4 base's bytes (memory.weight_bytes with runtime.yaml's nf4 bits a
    weight, embeddings and head in 16 bit), not 2 B a parameter."""
    q = kb.runtime.quantization
    Pa = lora_adapter_params(llama70, 32, "all-linear")
    nf4 = weight_bytes(llama70, "int4", {"int4": q["nf4"]}).value
    est = training_memory(llama70, _setup("qlora", 3, "cpu"), quant=q, overhead=NO_OVERHEAD)
    assert nf4 < 0.35 * llama70.params * 2
    assert est.host_bytes == pytest.approx((nf4 + Pa * 4) / 4 + Pa * 8 / 4 + Pa * 4 / 4)
    assert est.weights.value == pytest.approx(2 * nf4 / 80)


def test_zero2_offload_moves_only_the_adapters_state(kb, llama70):
    """ZeRO-2 offload (offload_optimizer only): the frozen base stays whole on each GPU; the host holds the
    adapters' AdamW moments (Pa x 8 / 4) and gradients (Pa x 4 / 4)."""
    q = kb.runtime.quantization
    Pa = lora_adapter_params(llama70, 32, "all-linear")
    est = training_memory(llama70, _setup("lora", 2, "cpu"), quant=q, overhead=NO_OVERHEAD)
    assert est.weights.value == pytest.approx(llama70.params * 2 + Pa * 4)
    assert est.host_bytes == pytest.approx(Pa * 8 / 4 + Pa * 4 / 4)
    assert est.offload_target == "cpu"


def test_zero0_offload_offloads_nothing_and_says_so(kb, llama70):
    est = training_memory(llama70, _setup("lora", 0, "cpu", dp=1), quant=kb.runtime.quantization,
                          overhead=NO_OVERHEAD)
    assert est.host_bytes == 0.0 and est.offload_target == "none"
    assert any("offload needs DeepSpeed ZeRO" in n for n in est.notes)


def test_the_fetch_of_the_frozen_shard_is_timed_by_hand():
    """offload_parts with a LoRA job's fetched bytes: 35.3 GB a pass x (forward + backward + recomputed forward)
    x 8 micro-batches over 50 GB/s = 16.9 s, where the adapters' 2 B a parameter would have moved 0.03 s."""
    g = types.SimpleNamespace(pcie_gb_s=50.0, host_gb_s_per_gpu=100.0, nvme_gb_s_per_gpu=1.5,
                              cpu_adam_params_per_s_per_gpu=12 * 1e7, zero3_copies=(),
                              zero3_copy_slowdown=1.0, zero12_copies=(), offload_prefetch=False,
                              offload_on_gpu=False)
    lay = Layout(zero=3, offload="cpu", grad_accum=8, checkpointing=True)
    p, fetched = 103.5e6, 35.3e9
    weight_passes = 3  # forward, backward, the forward recomputed (lay.recompute_share 1)
    assert 2 + lay.recompute_share == weight_passes
    pcie, _, _ = offload_parts(p, lay, g, 0.0, fetched)
    # gradients down (2 B x 8, not hidden: no compute given), the adapters back (2 B), the shard up each pass
    assert pcie == pytest.approx((p * 2 * 8 + p * 2 + fetched * weight_passes * 8) / 50e9)
    assert offload_parts(p, lay, g, 0.0)[0] == pytest.approx((p * 2 * 8 + p * 2 + p * 2 * weight_passes * 8) / 50e9)


def test_the_planner_fetches_the_lora_shard(kb, llama70):
    """figures() gives a LoRA job's ZeRO-3 offloaded layout the shard a pass fetches: the frozen base's
    (P x 2 B) / 4 and the adapters' Pa x 4 B / 4; the full-training layout keeps 0 (its 16-bit weights)."""
    Pa = lora_adapter_params(llama70, 32, "all-linear")
    w = {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "lora_rank": 32, "batch_size": 2,
         "seq_len": 8192, "gradient_checkpointing": True, "zero_stage": 3, "offload": "cpu", "train_tokens": 3e8}
    tj = training_job(resolve(Requirements(workload=w), kb))
    g = kb.gpus["rtx-pro-6000-blackwell-server"]
    topo = I.topology(g, 4, kb.runtime)
    pl = P.plan(tj, g, 4, topo, capacity_bytes(g) * 0.95, P.Pins(zero=3, offload="cpu", checkpointing=True, tp=1,
                                                                      pp=1))
    st = figures(tj, pl.layout)
    assert pl.layout.offload == "cpu" and pl.layout.zero == 3
    assert st.fetched == pytest.approx(llama70.params * 2 / 4 + Pa * 4 / 4)
    assert st.host == pytest.approx(st.fetched + Pa * 12 / 4)
    pcie = pl.offload_split[0]
    fetch_s = st.fetched * (2 + pl.layout.recompute_share) * pl.layout.grad_accum / (
        I.host_link_gb_s(g, topo.per_node, kb.runtime) * 1e9)
    assert pcie >= fetch_s and pcie == pytest.approx(fetch_s, rel=0.02)


def test_review53_lora_offload_needs_host_ram(tmp_path):
    """The proposal's MEM-HOST-RAM-HELD names the host RAM the 4 GPUs' offloaded state needs: 4 x 36.95 GB over
    the usable share of a node's RAM, where it said 0 GB."""
    d = _json(tmp_path, "audit", str(PROPOSAL))
    f = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-HELD")
    need = f["values"]["host_ram_needed_gb"]
    assert 4 * 36.9 < need < 1024
    assert d["proposed"]["memory_breakdown"]["weights"] == pytest.approx(2 * 70.6e9 * 2 / 80, rel=0.01)


@pytest.mark.parametrize("method", ["lora", "full"])
def test_one_gpu_with_offload_asked_runs_under_zero(kb, method):
    """One GPU, offload: cpu asked and no ZeRO stage: the layout ran at ZeRO 0, where nothing is offloaded
    (memory.py's note offload_needs_zero), yet it read 'ZeRO-0 ckpt offload-cpu', charged offload time and
    MEM-HOST-RAM-HELD said 0 GB. DeepSpeed offloads under ZeRO (ZeRO-Offload's single-GPU schedule, Ren et al.
    2021, arXiv:2101.06840), so the planner tries ZeRO-1 and ZeRO-3 there and the layout's offload moves state."""
    w = {"task": "finetune", "method": method, "model": "llama-3.1-8b", "batch_size": 1, "seq_len": 4096,
         "gradient_checkpointing": True, "offload": "cpu", "train_tokens": 1e7}
    tj = training_job(resolve(Requirements(workload=w), kb))
    g = kb.gpus["rtx-pro-6000-blackwell-server"]
    pl = P.plan(tj, g, 1, I.topology(g, 1, kb.runtime), capacity_bytes(g) * 0.95, P.Pins(offload="cpu"))
    assert pl.layout.offload == "cpu" and pl.layout.zero >= 1
    assert pl.memory.host_bytes > 0 and pl.memory.offload_target == "cpu"
