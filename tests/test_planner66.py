"""Branch planner66: planner65's smaller micro-batch under the user's pins (held_plan.held_smaller: a stated micro-batch
no layout of the file's settings holds gives way to the largest smaller one of the same tokens a step) taken again,
with the count search's quick fit check (held_plan.fits_at_all) asking the same function, so that a count the full
estimate holds is never skipped, and the user told that the micro-batch was replaced (MEM-MICRO-BATCH-HELD, the
estimate's note, a batch_size suggested change), in English and Chinese.

The count the quick check had skipped (tests/test_one_definition.py, the validation README's 'planner65 reverted'):
Llama 3.1 8B full fine-tune (config.json: vocabulary 128,256), ZeRO-1 pinned, micro-batch 8 x 8,192 tokens, on one
A100 40GB (40,960 MiB x 0.95 = 40.80 GB usable). At micro-batch 8 Hugging Face's loss alone holds 12 B a vocabulary
entry a token (tests/test_stack_loss_memory.py): 12 x 128,256 x 65,536 = 100.9 GB, more than the GPU, so no layout
of one GPU holds it; at micro-batch 1 it is 12.6 GB, and 1 x 64 accumulation steps holds the same 524,288 tokens a
step (8 x 8 x 8,192)."""

from __future__ import annotations

import pytest
import yaml

import gpuwise
from gpuwise.estimators import held_plan as H
from gpuwise.estimators import interconnect as I
from gpuwise.estimators.candidate import evaluate, requested_pins, training_job, usable_bytes
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .conftest import ROOT

CASE = ROOT / "tests" / "rules" / "MEM-MICRO-BATCH-HELD" / "input.yaml"
VOCAB = 128_256  # Llama 3.1's vocabulary


@pytest.fixture(scope="module")
def a100_8b(kb):
    q = {"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "batch_size": 8,
                      "seq_len": 8192, "zero_stage": 1, "train_tokens": 1e8}}
    job = resolve(Requirements.model_validate(q), kb)
    return job, kb.gpus["a100-40gb-pcie"]


def test_the_quick_check_holds_the_count_the_estimate_holds(kb, a100_8b):
    job, g = a100_8b
    usable = usable_bytes(job, g)
    assert usable == pytest.approx(40_960 * 2**20 * 0.95)
    assert kb.models["llama-3.1-8b"].vocab_size == VOCAB
    assert usable < 12 * VOCAB * 8 * 8192  # the stated micro-batch's logits alone
    topo = I.topology(g, 1, kb.runtime)

    def quick(stated: bool) -> bool:
        return H.fits_at_all(training_job(job), 1, topo, usable, requested_pins(job), gpu=g, stated=stated)

    assert quick(True) and not quick(False)  # not stated: the stated micro-batch's layouts alone, none of which fits
    ev = evaluate(job, g, 1)
    lay, asked = ev.plan.layout, ev.requested_plan.layout
    assert (asked.micro_batch, asked.grad_accum) == (8, 8) and ev.requested_plan.per_gpu_bytes > usable
    assert (lay.micro_batch, lay.grad_accum, lay.zero) == (1, 64, 1)
    assert lay.global_batch_tokens == asked.global_batch_tokens == 8 * 8 * 8192
    assert ev.memory.per_gpu <= usable
    # the need the count search gives a server of a count it did not estimate is the estimate's
    need = H.least_need(training_job(job), 1, topo, usable, requested_pins(job), gpu=g, stated=True)
    assert need == pytest.approx(ev.memory.per_gpu, rel=1e-12)


@pytest.mark.parametrize("fmt", ["text", "md"])
def test_the_audit_says_the_micro_batch_was_replaced_in_english_and_chinese(fmt):
    from gpuwise.render import report

    res = gpuwise.audit(str(CASE))
    hits = [f for f in res.findings if f.rule == "MEM-MICRO-BATCH-HELD"]
    assert len(hits) == 1 and hits[0].severity == "warning"
    en = " ".join(report.render(res, fmt, lang="en", detail="full").split())
    assert "the stated micro-batch of 10 fits in no layout of the file's settings (34.8 GB per GPU" in en
    assert "A micro-batch of 5 with 2 accumulation steps holds the same 10,240 tokens a step" in en
    assert "Set workload.batch_size to 5" in en
    zh = "".join(report.render(res, fmt, lang="zh", detail="full").split())
    assert "指定的微批次10在文件设置的任何布局中都放不下" in zh and "微批次5配合2步梯度累积" in zh
    assert "把workload.batch_size（微批次；全局批次不变）设为5" in zh


def test_the_estimate_says_it_and_keeps_the_stated_layouts_memory():
    from gpuwise.render import report

    q = yaml.safe_load(CASE.read_text())
    for key in ("title", "hardware", "acquisition"):
        q.pop(key)
    res = gpuwise.estimate(q, gpu="v100-32gb-sxm2", gpus=1)
    tr = res.gpu.training
    assert [(c.field, c.before, c.after) for c in tr.suggested_changes] == [("batch_size", 10, 5)]
    assert sum(tr.requested_memory_breakdown.values()) == tr.requested_memory_per_gpu_bytes
    assert tr.requested_memory_breakdown["activations"] == 2 * res.memory.breakdown["activations"]  # 10 against 5
    en = " ".join(report.render(res, "text", kind="estimate", lang="en").split())
    assert ("the stated micro-batch of 10 fits in no layout of the file's settings: a micro-batch of 5 with 2 "
            "accumulation steps is planned, the same 10,240 tokens a step") in en
    zh = "".join(report.render(res, "text", kind="estimate", lang="zh").split())
    assert "指定的微批次10在文件设置的任何布局中都放不下：按微批次5配合2步梯度累积规划" in zh


def test_nothing_said_where_the_micro_batch_fits_as_stated():
    q = yaml.safe_load(CASE.read_text())
    for key in ("title", "hardware", "acquisition"):
        q.pop(key)
    q["workload"]["stack"] = "megatron-deepspeed"  # Megatron's loss, 6 B: 31.5 GB at 10 (test_stack_loss_memory)
    res = gpuwise.estimate(q, gpu="v100-32gb-sxm2", gpus=1)
    assert res.gpu.fits_as_requested and res.gpu.layout.micro_batch == 10
    assert not res.gpu.training.suggested_changes and not res.memory.notes


def test_the_changes_name_the_micro_batch_and_an_offload_given_up_in_english_and_chinese(kb, a100_8b):
    """A recommendation's 'changes from the question' are message parts (Strategy.changes_from): the micro-batch
    planned in place of the stated one is one of them (result._changes), and a layout that gives up the offload the
    stated one took is worded as such, not as 'offload optimizer state to none'."""
    from gpuwise import messages
    from gpuwise.decide.result import _changes
    from gpuwise.estimators.candidate import Strategy

    job, g = a100_8b
    ev = evaluate(job, g, 1)
    parts = _changes(ev)
    assert [mid for _sep, mid, _kw in parts] == ["change.batch_size"]  # worded in the file's field (leftovers66)
    assert messages.phrase_text(parts) == ("batch_size 8 → 1 (micro-batch 1 with 64 accumulation steps, the same "
                                           "tokens a step)")
    off = Strategy(True, 1, "none").changes_from(Strategy(True, 1, "cpu"))
    assert messages.phrase_text(off) == "keep the optimizer state on the GPU"
    from gpuwise.render import words
    from gpuwise.render.fmt import Fmt

    zh = Fmt("zh")
    assert words.phrase(messages.phrase_json(parts), zh) == (
        "batch_size 8 → 1（微批次 1 配合 64 步梯度累积，每步词元数不变）")
    assert words.phrase(messages.phrase_json(off), zh) == "把优化器状态留在 GPU 上"


def test_a_stated_micro_batch_that_does_not_divide_the_step_gives_way_to_one_that_does(kb):
    """Llama 3.1 70B LoRA at 4,096 tokens, batch_size 63, on 8 H100 (review64's Left, product66's case): the step
    assumed for a fine-tune is 262,144 tokens = 64 sequences (the Assumptions line), which 63 does not divide, so the
    stated layout rounds the step up to 2 x 63 = 126 sequences (516,096 tokens) and needs 117.4 GB a GPU, more than
    the 81.2 GB usable. No divisor of 126 below 63 keeps 126 sequences on the 64-sequence step (21 takes 4 x 21 = 84),
    so the smaller micro-batch is read against the step asked: 32 divides 64, 32 x 2 = 64 sequences = 262,144
    tokens, 69.6 GB. Before this, held_smaller found nothing and every count read MEM-NO-FIT."""
    q = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "seq_len": 4096,
                      "batch_size": 63, "train_tokens": 1e8}}
    job = resolve(Requirements.model_validate(q), kb)
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 8)
    asked, lay = ev.requested_plan.layout, ev.plan.layout
    assert (asked.micro_batch, asked.grad_accum, asked.global_batch_tokens) == (63, 2, 2 * 63 * 4096)
    assert not ev.requested_plan.fits
    assert (lay.micro_batch, lay.grad_accum, lay.global_batch_tokens) == (32, 2, 64 * 4096)
    assert ev.plan.fits and ev.memory.per_gpu / 1e9 == pytest.approx(69.6, abs=0.05)
