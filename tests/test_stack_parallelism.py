"""A training stack is offered only the parallelism it runs (runtime.yaml training_stacks parallelism, issue 22
item 3). The review found DeepSpeed's ZeRO engine on a transformers model given expert parallelism (the ms-swift
rows H245-H248 had to state 'ep 1' to be scored as they ran): DeepSpeed-MoE's expert parallelism belongs to its own
deepspeed.moe.layer.MoE (deepspeedai/DeepSpeed), and accelerate's ParallelismConfig, the Trainer's, composes
dp_replicate, dp_shard, tp and cp only (huggingface/accelerate src/accelerate/parallelism_config.py). A pin the stack
cannot run is set aside and MEM-PIN-NOT-ON-STACK says so."""

from __future__ import annotations

import copy
from pathlib import Path

import yaml

import gpuwise
from gpuwise.estimators import planner as P
from gpuwise.estimators import training_job as TJ
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge import load

MOE = {"workload": {"task": "finetune", "method": "full", "model": "qwen3-30b-a3b", "train_tokens": 1e8,
                    "seq_len": 4096},
       "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 16}}


def _with(stack: str | None, **par) -> dict:
    q = copy.deepcopy(MOE)
    if stack:
        q["workload"]["stack"] = stack
    if par:
        q["workload"]["parallelism"] = par
    return q


def _splits(q: dict, n: int = 16) -> list[tuple[int, int, int, int]]:
    job = resolve(Requirements(**q), load())
    return P.splits(TJ.training_job(job), n, 8, 8, TJ.requested_pins(job))


def test_each_stack_is_offered_only_what_it_runs():
    # (tp, pp, cp, ep): the middle (no stack named) and Megatron-Core get expert and pipeline splits of 16 GPUs
    for stack in (None, "megatron"):
        got = _splits(_with(stack))
        assert any(ep > 1 for _t, _p, _c, ep in got) and any(pp > 1 for _t, pp, _c, _e in got), stack
    # the Hugging Face stacks run tensor (and context) parallel beside FSDP / ZeRO, never pipeline or expert
    for stack in ("deepspeed", "fsdp-hf", "axolotl"):
        got = _splits(_with(stack))
        assert {(pp, ep) for _t, pp, _c, ep in got} == {(1, 1)}, stack
        assert {tp for tp, _p, _c, _e in got} == {1, 2, 4, 8}, stack  # Qwen3-30B-A3B: 32 heads; TP up to a server of 8
    # Unsloth runs data parallel only (its multi-GPU page: DDP or FSDP through accelerate)
    assert _splits(_with("unsloth")) == [(1, 1, 1, 1)]


def test_a_pin_the_stack_cannot_run_is_set_aside_and_said():
    q = _with("deepspeed", ep=8, tp=2)
    job = resolve(Requirements(**q), load())
    assert TJ.pins_off_stack(job) == (("ep", 8),)
    pins = TJ.requested_pins(job)
    assert (pins.tp, pins.ep) == (2, None)  # the tensor-parallel pin runs on AutoTP and is kept
    r = gpuwise.recommend(q).model_dump(mode="json")
    (f,) = [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-ON-STACK"]
    assert f["severity"] == "warning"
    assert "workload.parallelism.ep 8 (expert parallelism)" in f["message"]
    assert not [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-KEPT"]  # not a count that cannot hold it
    assert "EP" not in r["recommendation"]["strategy"]


def test_a_pin_the_stack_runs_raises_nothing():
    for q in (_with("megatron", ep=8), _with("deepspeed", ep=1), _with(None, ep=8)):
        job = resolve(Requirements(**q), load())
        assert TJ.pins_off_stack(job) == ()
        r = gpuwise.recommend(q).model_dump(mode="json")
        assert not [f for f in r["findings"] if f["rule"] == "MEM-PIN-NOT-ON-STACK"]


def test_every_training_example_still_finds_a_layout_on_every_stack():
    """The examples name no stack (the middle, every kind offered: unchanged); named on the stack that runs the
    least (Unsloth, data parallel only) and on a Hugging Face one, each recommend still finds a layout."""
    root = Path(__file__).resolve().parents[1] / "examples"
    for path in ("finetune-full-13b.yaml", "lora-70b.yaml", "pretrain-7b.yaml", "qlora-70b-4090.yaml"):
        q = yaml.safe_load((root / path).read_text())
        for stack in ("unsloth", "fsdp-hf"):
            q["workload"]["stack"] = stack
            r = gpuwise.recommend(q).model_dump(mode="json")
            assert r["recommendation"] is not None and r["recommendation"]["count"] >= 1, (path, stack)


def test_autotp_pairs_tensor_parallel_with_zero_0_to_2_only():
    """DeepSpeed's AutoTP training (deepspeed.ai/tutorials/autotp-training) combines tensor parallelism with ZeRO
    stage 0, 1 or 2: on the deepspeed stack no layout with TP > 1 shards the weights (ZeRO-3); FSDP with the
    Hugging Face Trainer (accelerate's ParallelismConfig, TP beside FSDP2's dp_shard) keeps ZeRO-3 beside TP."""
    q = {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-70b", "train_tokens": 1e8,
                      "seq_len": 4096}, "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 16}}
    for stack, most in (("deepspeed", 2), ("fsdp-hf", 3)):
        q["workload"]["stack"] = stack
        job = resolve(Requirements(**q), load())
        tj = TJ.training_job(job)
        search = P._search(tj, 16, 8, 8, TJ.requested_pins(job))
        zeros = {r[0] for g in (*search.groups, *search.offload) if g.split[0] > 1 for r in g.rungs}
        assert max(zeros) == most, stack
        assert 3 in {r[0] for g in search.groups if g.split[0] == 1 for r in g.rungs}  # ZeRO-3 without TP stays


def test_a_pin_set_aside_does_not_fit_as_requested():
    """docs/formats.md: fits_as_requested says whether the job fits exactly as the file states it. A pin the stack
    cannot run is set aside (MEM-PIN-NOT-ON-STACK), so the job never runs as stated: the memory step's pass rule is
    MEM-FITS-PIN-OFF-STACK (fits, not as requested) and the candidate carries no need as requested. The same job
    without the pin, or with a pin the stack runs, fits as requested. GPT-2 350M on llm.c (data parallel only,
    runtime.yaml training_stacks llmc) on 8 x H100."""
    w = {"task": "pretrain", "params_b": 0.354823, "train_tokens": 1e10, "seq_len": 1024, "stack": "llmc",
         "architecture": {"layers": 24, "hidden_size": 1024, "heads": 16, "kv_heads": 16, "ffn_size": 2731,
                          "vocab_size": 50304, "tied_embeddings": True}}
    pinned = gpuwise.estimate({"workload": {**w, "parallelism": {"tp": 2}}}, gpu="h100-80gb-sxm", gpus=8).gpu
    assert pinned.fits and pinned.fits_as_requested is False
    assert "TP" not in pinned.strategy
    plain = gpuwise.estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=8).gpu
    assert plain.fits and plain.fits_as_requested is True
    mega = gpuwise.estimate({"workload": {**w, "stack": "megatron", "parallelism": {"tp": 2}}},
                            gpu="h100-80gb-sxm", gpus=8).gpu
    assert mega.fits_as_requested is True and "TP2" in mega.training.layout_notation
    r = gpuwise.recommend({"workload": {**w, "parallelism": {"tp": 2}},
                           "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 8}}).model_dump(mode="json")
    for c in r["candidates"]:
        assert "MEM-FITS-PIN-OFF-STACK" in c["rules"] and "MEM-FITS" not in c["rules"], c["count"]
