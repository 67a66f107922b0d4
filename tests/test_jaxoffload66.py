"""A JAX stack's memory-kind offload (branch jaxoffload66), worked by hand.

Sources:
- marin-community/marin experiments/grug/moe_hero_fsdp/train.py at 020b7dc3: offload_opt_state puts the optimizer
  state in memory kind 'pinned_host'; the jitted train_step moves it to 'device' after jax.value_and_grad, runs
  optimizer.update / optax.apply_updates on the GPU and moves the new state back to 'pinned_host'.
- AI-Hypercomputer/maxtext src/maxtext/trainers/pre_train/train.py at 3532d642: optimizer_memory_host_offload moves
  state.opt_state to memory kind 'device' before state.apply_gradients.
- DeepSpeed's offload_optimizer (deepspeed/runtime/zero/offload_config.py): 'Optimizer computation is offload to CPU
  regardless of device option' -- the host-Adam mechanism the other stacks keep.
- NVIDIA technical blog 'NVIDIA GB200 NVL72 Delivers Trillion-Parameter LLM Training and Real-Time Inference'
  (2024-03): the GB200 superchip joins two Blackwell GPUs and one Grace CPU with NVLink-C2C at 900 GB/s
  bidirectional, shared between the two GPUs (NVIDIA's answer on the post's forum thread, 286460); NVIDIA GH200
  datasheet: NVLink-C2C 900 GB/s between the GPU and its own Grace.
"""

from __future__ import annotations

import pytest


def test_host_link_is_c2c_on_grace_parts(kb):
    """GH200: 900 GB/s both ways, one GPU a Grace -> 450 GB/s a direction; GB200: the same 900 shared by the two
    GPUs of a Grace -> 225 a GPU when both copy (a 4-GPU tray), 450 for one GPU alone; PCIe parts unchanged
    (PCIe 5.0 x16, 63 GB/s a direction, runtime.yaml pcie_gb_s)."""
    from gpuwise.estimators import interconnect as I

    rt = kb.runtime
    assert I.host_link_gb_s(kb.gpus["gh200-96gb"], 4, rt) == pytest.approx(900 / 2)
    assert I.host_link_gb_s(kb.gpus["gh200-144gb"], 4, rt) == pytest.approx(900 / 2)
    assert I.host_link_gb_s(kb.gpus["gb200"], 4, rt) == pytest.approx(900 / 2 / 2)
    assert I.host_link_gb_s(kb.gpus["gb200"], 1, rt) == pytest.approx(900 / 2)
    assert I.host_link_gb_s(kb.gpus["h100-80gb-sxm"], 8, rt) == pytest.approx(63.0)


def test_jax_stacks_update_on_the_gpu(kb):
    """levanter and maxtext keep the state on the host and update on the GPU; every PyTorch stack runs the
    offloaded optimizer on the host's cores (DeepSpeed CPU Adam, FSDP CPU offload), the default."""
    stacks = kb.runtime.training_stacks
    on_gpu = {k for k, v in stacks.items() if v.offload_update == "device"}
    assert on_gpu == {"levanter", "maxtext"}
    assert "020b7dc3" in stacks["levanter"].offload_update_source
    assert "3532d642" in stacks["maxtext"].offload_update_source


def test_device_update_needs_a_source():
    from gpuwise.knowledge.schema.runtime import StackSpeed

    with pytest.raises(ValueError, match="offload_update device needs its offload_update_source"):
        StackSpeed(name="x", efficiency=1.0, source="s s s", offload_update="device")
    assert StackSpeed(name="x", efficiency=1.0, source="s s s").offload_update == "host"


def _setup(**kw):
    from gpuwise.estimators import memory as M

    base = dict(method="full", precision="bf16", mixed=True, optimizer="adamw", batch=1, seq=4096,
                checkpointing=True, attention="sdpa", zero=3, offload="cpu", dp=8)
    return M.TrainSetup(**{**base, **kw})


def test_memory_moments_alone_on_the_host(kb):
    """ZeRO-3 over 8 GPUs, bf16 mixed precision, AdamW: per GPU P/8 parameters. DeepSpeed's offload moves the
    12 B of master weights and moments and the 2 B gradients (+ the 16-bit weights under ZeRO-3) to the host; the
    JAX offload moves only the two fp32 moments, 8 B a parameter, and keeps 2 B weights, 2 B gradients and 4 B
    master weights on the GPU, the moments back on it at the update (the step phase holds them)."""
    from gpuwise.estimators import memory as M
    from gpuwise.inputs.shape import from_catalog

    rt = kb.runtime
    over = (rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value)
    shape = from_catalog(kb.models["llama-3-70b"])
    P = shape.params
    jax_ = M.training_memory(shape, _setup(offload_state_only=True), quant=rt.quantization, overhead=over)
    ds = M.training_memory(shape, _setup(), quant=rt.quantization, overhead=over)
    assert jax_.host_bytes == pytest.approx(P * 8 / 8)
    assert ds.host_bytes == pytest.approx(P * 12 / 8 + P * 2 / 8 + P * 2 / 8)
    assert jax_.weights.value == pytest.approx(P * 2 / 8)
    assert jax_.gradients.value == pytest.approx(P * 2 / 8)
    step = next(k for k in jax_.phases if k != "backward")
    assert jax_.phases[step] == pytest.approx(P * (2 + 2 + 4 + 8) / 8)  # the whole state back for the update


def test_model_parallel_memory_keeps_weights(kb):
    """TP2 ZeRO-1 on a JAX stack's layout: the optimizer's bytes leave for the host, weights and gradients stay;
    the peak is weights + gradients + the larger of the activations and the state back for the update."""
    from gpuwise.estimators import memory as M
    from gpuwise.inputs.shape import from_catalog

    rt = kb.runtime
    shape = from_catalog(kb.models["llama-3-70b"])
    on = M.parallel_bytes(shape, _setup(tp=2, zero=1, offload_state_only=True), rt.quantization)
    off = M.parallel_bytes(shape, _setup(tp=2, zero=1, offload="none"), rt.quantization)
    assert on.host == pytest.approx(off.optimizer)
    assert on.optimizer == 0.0 and on.state_back == pytest.approx(off.optimizer)
    assert (on.weights, on.gradients) == pytest.approx((off.weights, off.gradients))
    assert on.tensors == pytest.approx(off.weights + off.gradients + max(off.activations, off.optimizer))


def _h997(kb, tmp_path):
    from benchmarks.accuracy_training import HELDOUT_RUNS, published_run_cases

    lines = HELDOUT_RUNS.read_text().split("\n")
    path = tmp_path / "rows.csv"
    path.write_text("\n".join([lines[0]] + [r for r in lines[1:] if r.split(",", 1)[0] == "H997"]) + "\n")
    details: dict = {}
    published_run_cases(kb, path, details=details)
    return details["H997"].gpu


def test_h997_offload_is_the_moments_over_c2c(kb, tmp_path):
    """H997 (grug MoE hero, 359.6B, ZeRO-3 over 64 GB200, levanter, offload cpu:optimizer): the moments a GPU
    keeps on the host are 8 B x its 359.6B / 64 = 5.62B parameters = 45.0 GB; they cross NVLink-C2C to the GPU and
    back at 225 GB/s a direction (two GPUs a Grace): 2 x 45.0 / 225 = 0.40 s, where trainblind48's blind reading
    charged 13.77 s of host Adam and 0.37 s of bus traffic. The update's own GPU time is in optimizer_s."""
    g = _h997(kb, tmp_path)
    terms = g.training.step_terms
    per_gpu = 359.6e9 / g.count  # ZeRO-3 over the data-parallel GPUs, tensor parallelism splitting the rest
    assert terms.offload_s == pytest.approx(2 * 8 * per_gpu / 225e9, rel=0.02)
    assert terms.optimizer_s > 0  # the update runs on the GPU
    assert terms.offload_s < 1.0


def test_h997_report_term_says_the_moments_both_ways(kb, tmp_path):
    """The estimate's offload term for H997 is the moments both ways over the link, its inputs the hand
    figures: 8 B x 359.6e9 / 64 = 44.95 GB a GPU, 225 GB/s; 2 x 44.95 / 225 = 0.3996 s (no host Adam inputs)."""
    g = _h997(kb, tmp_path)
    term = next(t for t in g.terms if t.name == "offload_seconds")
    assert [p[1] for p in term.formula_phrases] == ["formula.offload_state_both_ways"]
    assert term.inputs["state_bytes"] == pytest.approx(8 * 359.6e9 / 64, rel=0.01)
    assert term.inputs["link_gb_s_per_gpu"] == pytest.approx(225.0)
    assert term.value == pytest.approx(2 * term.inputs["state_bytes"] / 225e9)
    assert "host_adam_s" not in term.inputs
