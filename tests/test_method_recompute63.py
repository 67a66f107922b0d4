"""A QLoRA fine-tune that states no gradient_checkpointing recomputes every layer (runtime.yaml
training.method_recompute; branch nocond63, issue 22 item 3).

The tools a QLoRA run is made with turn recomputation on whatever memory needs: PEFT's prepare_model_for_kbit_training
(huggingface/peft src/peft/utils/other.py at 5d602fdb: use_gradient_checkpointing defaults to True, then
model.gradient_checkpointing_enable() for a 4- or 8-bit base model) and the QLoRA authors' script (artidoro/qlora
qlora.py at 00e5ad2a: gradient_checkpointing default True, 'You want to use this.'). Every held-out QLoRA run that says
(tests/data/training_conditions.csv, H748-H753 and H883-H899) recomputed; gpuwise's own choice recomputes only where
the layout needs it to fit. 16-bit LoRA and full fine-tunes are not listed: their tools split (validation README,
trainbare56 and nocond63).
"""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge

# Llama 2 7B (the catalog's llama-2-7b): 32 layers, hidden 4,096, MLP 11,008, vocabulary 32,000, untied head
L, H, F, V, SEQ = 32, 4096, 11008, 32000, 4096
N = L * (4 * H * H + 3 * H * F) + H * V + (2 * L + 1) * H  # the matmul weights, the head and the norms' weights
HEAD = H * V  # the output head: not recomputed (the checkpoint wraps each decoder layer)
ATTN = 6 * L * SEQ * H  # causal attention's score and value products, forward and backward, a token


def _est(**extra):
    w = {"task": "finetune", "method": "qlora", "model": "llama-2-7b", "train_tokens": 1e8, "seq_len": SEQ,
         "precision": "bf16", **extra}
    return estimate({"workload": w}, gpu="a100-80gb-sxm", gpus=1)


def _flops(e) -> float:
    return next(t for t in e.gpu.terms if t.name == "training_flops").value


def test_the_entry_lists_qlora_alone_with_its_sources():
    rule = knowledge.load().runtime.training.method_recompute
    assert rule.methods == ["qlora"]
    assert "5d602fdb" in rule.source and "00e5ad2a" in rule.source


def test_qlora_left_out_recomputes_every_layer_as_if_stated():
    """Frozen 4-bit weights: 4 FLOPs a weight a token (forward 2, activations' backward 2), +2 recomputed, less the
    head's 2 (kept); attention's 6 becomes 8. 6 x 6,607,343,616 - 2 x 131,072,000 + 8 / 6 x 3,221,225,472 =
    43,676,884,992 FLOPs a token, against 4 x N + 3,221,225,472 = 29,650,599,936 stated off: 1.473x the compute."""
    assert N == 6_607_343_616 and ATTN == 3_221_225_472
    left, said, off = _est(), _est(gradient_checkpointing=True), _est(gradient_checkpointing=False)
    assert left.gpu.layout.checkpointing and left.gpu.layout.recompute_share == 1.0
    assert _flops(left) == pytest.approx(1e8 * (6 * N - 2 * HEAD + ATTN * 8 / 6), rel=1e-12)
    assert _flops(left) / 1e8 == pytest.approx(43_676_884_992, rel=1e-12)
    assert _flops(off) == pytest.approx(1e8 * (4 * N + ATTN), rel=1e-12)
    assert left.gpu.training.step_terms.step_s == pytest.approx(said.gpu.training.step_terms.step_s, rel=1e-12)
    assert left.gpu.gpu_hours > 1.4 * off.gpu.gpu_hours  # it fits without: gpuwise's own choice would not recompute
    said_as = [a for a in left.assumptions if a.field == "workload.gradient_checkpointing"]
    assert [(a.message_id, a.values) for a in said_as] == [
        ("assume.default.workload.gradient_checkpointing.method_full", {"method": "qlora"})]
    assert "prepare_model_for_kbit_training" in said_as[0].reason


def test_a_stated_value_lora_and_a_stack_default_win():
    assert not _est(gradient_checkpointing=False).gpu.layout.checkpointing
    lora = _est(method="lora")  # 16-bit LoRA: gpuwise's own choice, none where it fits
    assert not lora.gpu.layout.checkpointing
    assert [a.message_id for a in lora.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing"]
    # a stack without a recompute default of its own (the Hugging Face class on FSDP) takes the method's
    hf = _est(stack="fsdp-hf")
    assert hf.gpu.layout.checkpointing
    assert [a.message_id for a in hf.assumptions if a.field == "workload.gradient_checkpointing"] == [
        "assume.default.workload.gradient_checkpointing.method_full"]


def test_the_zh_report_translates_the_assumption():
    from gpuwise.render.fmt import translations

    a = next(a for a in _est().assumptions if a.field == "workload.gradient_checkpointing")
    zh = translations("zh").gettext(a.template)
    assert zh != a.template and "{method}" in zh
