"""A stated micro-batch whose layout fits only by a measure the file left open (branch mbadvice57, issue 22 item 2).

torchtitan's Qwen3-32B recipe (pytorch/torchtitan pull request 1690: 'local batch size=2, FSDP=8, full AC', seq 4,096,
the 65,536-token step of held-out row H686) on 8 H100 80GB: the stated micro-batch of 2 fits only by offloading the
optimizer to the host, since by its memory model the layout needs more than the card leaves; at micro-batch 1 (2
accumulation steps, the same step) it fits without offload, trains faster, and is planned (branch fsdpmem64). The
figures below by hand from the memory model's terms: ZeRO-3 over 8 GPUs of 32,762,123,264 parameters (bf16 weights and
gradients, fp32 master and two AdamW moments), full recomputation keeping each layer's input, the fp32 logits at the
loss, 1 GiB of CUDA context and 5% of the tensors for the allocator (knowledge/runtime.yaml cuda_context_bytes,
allocator_overhead_fraction)."""
from __future__ import annotations

import copy

import pytest

import gpuwise

from .conftest import ROOT

PARAMS, LAYERS, HIDDEN, VOCAB, SEQ = 32_762_123_264, 64, 5120, 151_936, 4096
WORKLOAD = {"task": "pretrain", "model": "qwen3-32b", "train_tokens": 6_553_600, "seq_len": SEQ, "precision": "bf16",
            "global_batch_tokens": 65_536, "stack": "torchtitan", "parallelism": {"tp": 1, "pp": 1, "cp": 1},
            "batch_size": 2, "zero_stage": 3, "gradient_checkpointing": True}
CASE = ROOT / "tests" / "rules" / "MEM-MICRO-BATCH-OFFLOAD" / "input.yaml"


def _by_hand(micro: int) -> float:
    """Busiest-GPU bytes of the layout without offload at ``micro`` sequences a micro-batch."""
    states = PARAMS * (2 + 2 + 12) / 8  # bf16 weights, bf16 gradients, fp32 master + 2 moments, sharded 8 ways
    tokens = micro * SEQ
    acts = LAYERS * tokens * HIDDEN * 2 + 2 * 2 * HIDDEN * tokens + 12 * VOCAB * tokens  # inputs, embed/norm, logits
    tensors = states + acts
    return tensors + 2**30 + 0.05 * tensors


def _smaller(workload: dict):
    est = gpuwise.estimate({"workload": workload}, gpu="h100-80gb-sxm", gpus=8)
    return est.gpu.training.smaller_micro_batch


def test_stated_micro_batch_2_offloads_where_1_fits_without():
    usable = 81_559 * 2**20 * 0.95  # nvidia-smi's MiB of the H100 SXM 80GB, less policy's 5% headroom
    assert _by_hand(2) / 1e9 == pytest.approx(91.370, abs=0.01) and _by_hand(2) > usable
    assert _by_hand(1) / 1e9 == pytest.approx(80.622, abs=0.01) and _by_hand(1) < usable
    m = _smaller(WORKLOAD)
    assert (m.measure, m.micro_batch, m.alt_micro_batch, m.alt_grad_accum, m.global_batch_tokens) == (
        "offload", 2, 1, 2, 65_536)
    assert m.memory_without_measure_bytes == pytest.approx(_by_hand(2), rel=1e-6)
    assert m.alt_memory_per_gpu_bytes == pytest.approx(_by_hand(1), rel=1e-6)
    assert m.alt_layout_notation == "TP1 PP1 DP8 ZeRO-3 ckpt"
    # the offloaded step waits for the host's AdamW over 4.1B parameters a GPU: the smaller micro-batch is the faster
    assert m.memory_per_gpu_bytes < usable and m.alt_step_s < m.step_s / 4


def test_the_largest_smaller_micro_batch_of_the_same_step_is_found():
    """At 1,024 tokens a sequence, micro-batch 8 holds H686's 8,192 tokens a micro-step: it offloads; of the
    micro-batches that divide a replica's 8 sequences a step (1, 2, 4), 4 is the largest that fits, at H686's
    micro-batch-1 memory (4,096 tokens a micro-step: the memory follows the tokens, not how they are cut)."""
    w = {**WORKLOAD, "seq_len": 1024, "batch_size": 8}
    m = _smaller(w)
    assert (m.micro_batch, m.alt_micro_batch, m.alt_grad_accum, m.global_batch_tokens) == (8, 4, 2, 65_536)
    assert m.alt_memory_per_gpu_bytes == pytest.approx(_by_hand(1), rel=1e-6)


@pytest.mark.parametrize("change", [{"batch_size": None}, {"offload": "cpu"}, {"batch_size": 1}])
def test_nothing_said_where_the_micro_batch_is_not_stated_or_the_offload_is_asked_for(change):
    w = copy.deepcopy(WORKLOAD)
    for k, v in change.items():
        if v is None:
            del w[k]
        else:
            w[k] = v
    assert _smaller(w) is None


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_the_audit_says_it_in_english_and_chinese(fmt):
    from gpuwise.render import report

    res = gpuwise.audit(CASE)
    hits = [f for f in res.findings if f.rule == "MEM-MICRO-BATCH-OFFLOAD"]
    assert hits and hits[0].severity == "warning"
    en = " ".join(report.render(res, fmt, lang="en", detail="full").split())
    assert "A micro-batch of 1 with 2 accumulation steps" in en and "80.6 GB per GPU, 4.89 s a step" in en
    zh = "".join(report.render(res, fmt, lang="zh", detail="full").split())
    assert "微批次1配合2步梯度累积" in zh and "每步4.89秒" in zh


def test_the_estimate_shows_the_smaller_micro_batch_in_english_and_chinese():  # an estimate is text or JSON
    fmt = "text"
    from gpuwise.render import report

    res = gpuwise.estimate({"workload": WORKLOAD}, gpu="h100-80gb-sxm", gpus=8)
    en = " ".join(report.render(res, fmt, kind="estimate", lang="en").split())
    assert "Smaller micro-batch" in en
    assert "1 with 2 accumulation steps fits without offload: 80.6 GB per GPU, 4.89 s a step" in en
    zh = "".join(report.render(res, fmt, kind="estimate", lang="zh").split())
    assert "微批次1配合2步梯度累积无需卸载即可放下" in zh and "微批次2卸载时每步25.43秒" in zh


def test_a_recommendation_says_it_for_recomputation_left_open(tmp_path):
    """Llama 3 8B full fine-tune, data parallel only (tp = pp = cp = 1 pinned), 8 sequences of 4,096 a micro-batch,
    recomputation left to gpuwise: on 8 H100 80GB the stated micro-batch fits only recomputing every layer, and a
    smaller one of the same 524,288-token step fits without; the recommendation says so on that candidate."""
    import yaml

    req = tmp_path / "req.yaml"
    req.write_text(yaml.safe_dump({"workload": {
        "task": "finetune", "method": "full", "model": "llama-3-8b", "train_tokens": 1e8, "seq_len": 4096,
        "batch_size": 8, "global_batch_tokens": 524_288, "parallelism": {"tp": 1, "pp": 1, "cp": 1}}}))
    res = gpuwise.recommend(req)
    hits = [f for f in res.findings if f.rule == "MEM-MICRO-BATCH-RECOMPUTE" and "H100 SXM5" in f.message]
    assert hits and hits[0].severity == "info"
    assert "the stated micro-batch of 8" in hits[0].message and "524,288 tokens a step" in hits[0].message


def test_nothing_said_of_recomputation_the_named_stack_does_by_default(tmp_path):
    """The same fine-tune naming XTuner, whose SupervisedFinetune recomputes every layer by default
    (use_activation_checkpointing=True, InternLM/xtuner at b934f462; knowledge/runtime.yaml training_stacks): the
    recomputation is the stack's own, not a measure gpuwise took to fit the stated micro-batch, so no
    MEM-MICRO-BATCH-RECOMPUTE; without the stack the same file gets it (the test above)."""
    import yaml

    req = tmp_path / "req.yaml"
    req.write_text(yaml.safe_dump({"workload": {
        "task": "finetune", "method": "full", "model": "llama-3-8b", "train_tokens": 1e8, "seq_len": 4096,
        "batch_size": 8, "global_batch_tokens": 524_288, "parallelism": {"tp": 1, "pp": 1, "cp": 1},
        "stack": "xtuner"}}))
    res = gpuwise.recommend(req)
    assert not [f for f in res.findings if f.rule == "MEM-MICRO-BATCH-RECOMPUTE"]
    assert any(a.message_id.endswith("stack_full") for a in res.assumptions)
