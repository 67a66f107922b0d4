"""workload.cut_cross_entropy: Apple's cut cross-entropy (apple/ml-cross-entropy at d42911f9, README; Wijmans et al.
2024, arXiv:2411.09009) computes the output layer's matmul and the log-sum-exp over the vocabulary a block at a time
in on-chip memory and keeps only each token's log-sum-exp, so the loss holds no logits: 0 B a vocabulary entry, where
Hugging Face's loss holds 12 B (the fp32 log-softmax and its backward's two fp32 temporaries) and torchtune's chunked
loss 2 + 12 / 8 B. Scicom's how-fast-5090 (held-out H569 / H570: Qwen3-1.7B-Base full fine-tune, 20 x 4,096 tokens
a step on one H100, gradient checkpointing, all state in bf16) computed its loss with it."""

from __future__ import annotations

import csv

import pytest

from benchmarks import accuracy as A
from gpuwise.estimators.memory import TrainSetup, logits_bytes_per_token, training_memory
from gpuwise.inputs.shape import from_catalog

NO_OVERHEAD = (0.0, 0.0)
VOCAB, TOKENS = 151936, 20 * 4096  # Qwen3-1.7B's vocabulary (config.json), H569's micro-batch of 20 x 4,096


def _setup(**kw) -> TrainSetup:  # one micro-batch of 20 x 4,096, no recomputation (the logits add to the rest)
    return TrainSetup("full", "bf16", True, "adamw", 20, 4096, False, "sdpa", 0, "none", 1, **kw)


def test_the_cut_loss_holds_no_logits(kb):
    """By hand: without recomputation the activations are the layers' plus the loss's logits bytes x vocabulary x
    tokens, so the cut loss holds 12 x 151,936 x 81,920 = 149.4 GB less than Hugging Face's and (2 + 12 / 8) x
    151,936 x 81,920 = 43.6 GB less than the chunked one."""
    shape = from_catalog(kb.models["qwen3-1.7b"])
    assert shape.vocab == VOCAB
    q = kb.runtime.quantization
    cut, chunked, hf = _setup(ce_cut=True), _setup(ce_chunks=8), _setup()
    assert [logits_bytes_per_token(s) for s in (cut, chunked, hf)] == [0.0, 3.5, 12.0]

    def act(s):
        return training_memory(shape, s, quant=q, overhead=NO_OVERHEAD).activations.value

    assert act(hf) - act(cut) == pytest.approx(12 * VOCAB * TOKENS, rel=1e-9)
    assert act(chunked) - act(cut) == pytest.approx(3.5 * VOCAB * TOKENS, rel=1e-9)
    # the cut loss takes precedence over a stack's own loss figure and over chunking (it holds none at all)
    assert logits_bytes_per_token(_setup(ce_cut=True, ce_chunks=8, loss_bytes=6.0)) == 0.0


def _h569(**extra):
    with open(A.HELDOUT_RUNS, newline="") as fh:
        rows = {r["id"]: r for r in csv.DictReader(fh)}
    cond = A.run_conditions()["H569"]
    assert cond["cut_cross_entropy"] == "true"  # the run's train.py: cut_cross_entropy.linear_cross_entropy
    w = {**A.with_conditions(A.run_workload(rows["H569"]), cond), **extra}
    return A.run_estimate(w, "h100-80gb-sxm", 1)


def test_h569_fits_one_h100_without_offload_only_with_the_cut_loss():
    """With Hugging Face's loss the 20 x 4,096-token micro-batch's logits (149 GB at 12 B) cannot fit 80 GB, not even
    with the optimizer on the host (the stated layout, read at the micro-batch asked: training.requested_*); with the
    cut loss the run fits on the GPU as it ran, and the step is compute and the optimizer's pass alone.

    Since planner66 the Hugging Face run is planned at the largest smaller micro-batch of the same 81,920 tokens a step
    that the file's settings hold (held_plan.held_smaller), 5 x 4 without offload, and the estimate says so; before, it
    was the least-memory layout at 20, offloaded and still over (the 1.98x of trainblind21's blind reading). At 10 the
    logits alone are 12 x 151,936 x 40,960 = 74.7 GB, with the bf16 weights (3.44 GB) 78.1 GB before the layers'
    activations, the allocator's share or the optimizer (81.2 GB usable); at 5, 37.3 GB."""
    hf = _h569(cut_cross_entropy=False)
    cut = _h569()
    asked = hf.gpu.training.requested_layout
    assert (asked.micro_batch, asked.offload) == (20, "cpu")  # the pins' least memory at 20: offloaded
    assert hf.gpu.training.requested_memory_per_gpu_bytes > hf.memory.usable_per_gpu_bytes  # and still over
    assert not hf.gpu.fits_as_requested and hf.gpu.fits
    lay = hf.gpu.layout
    assert (lay.micro_batch, lay.grad_accum, lay.offload) == (5, 4, "none")
    assert hf.gpu.training.suggested_changes[-1].model_dump() == {"field": "batch_size", "from": 20, "to": 5}
    assert any("the stated micro-batch of 20 fits in no layout" in n for n in hf.memory.notes)
    assert cut.gpu.fits_as_requested and cut.gpu.training.requested_layout.offload == "none"
    assert (cut.gpu.layout.micro_batch, cut.gpu.layout.offload) == (20, "none") and not cut.memory.notes
    hs, cs = hf.gpu.training.step_terms, cut.gpu.training.step_terms
    assert hs.offload_s == cs.offload_s == 0
    assert cs.compute_s == pytest.approx(hs.compute_s)  # the loss's memory, not its speed: the same tokens a step
    assert cs.step_s == pytest.approx(cs.compute_s + cs.optimizer_s, rel=1e-6)


def test_cut_cross_entropy_on_an_inference_workload_is_refused():
    """A serving estimate holds no training loss: the knob is refused as the other training-only ones are."""
    from gpuwise import estimate
    from gpuwise.errors import UserError

    serve = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200}
    assert estimate({"workload": serve}, gpu="h100", gpus=1)
    with pytest.raises(UserError, match="cut_cross_entropy is a training setting"):
        estimate({"workload": {**serve, "cut_cross_entropy": True}}, gpu="h100", gpus=1)
