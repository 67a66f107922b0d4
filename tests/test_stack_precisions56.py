"""Which training precisions each stack runs (branch stackprec56; knowledge/runtime.yaml training_stacks precisions).

Hostile round 43 found FP8 and FP4 training accepted on stacks with no such path: an 8B pretrain on 8 B200 in FP4
on llm.c, nanochat or Levanter was priced at 121% of the BF16 dense peak (above Megatron-Core's 86%), as if the
stack ran NVFP4 GEMMs. Each stack now lists the precisions its own source offers, read at a named commit, and a job
naming a stack in another precision is refused, naming the stack and the stacks that train in it; a job naming none
keeps its assumed stack, which runs it. The refusals fail before that change (the jobs were accepted); the others
read the new knowledge field against the sources named in it.
"""

from __future__ import annotations

import pytest
import yaml

import gpuwise
from gpuwise.errors import UserError
from gpuwise.knowledge.schema.runtime import StackSpeed

from .clirun import gpuwise as cli

PRE8 = {"task": "pretrain", "params_b": 8, "seq_len": 4096, "train_tokens": 1.0e11}


def _refusal(workload: dict) -> UserError:
    with pytest.raises(UserError) as e:
        gpuwise.estimate({"workload": workload}, gpu="b200", gpus=8)
    return e.value


@pytest.mark.parametrize(("stack", "precision"), [
    ("llmc", "fp4"), ("llmc", "fp8"), ("nanochat", "fp4"), ("levanter", "fp4"), ("fast-llm", "fp8"),
    ("litgpt", "fp8"), ("torchtitan", "fp16"), ("deepspeed", "fp4"), ("unsloth", "fp4")])
def test_a_precision_the_stack_has_no_path_for_is_refused(stack, precision):
    """llm.c's Makefile builds FP32, FP16 or BF16 only (PRECISION, at f1e2ace); Fast-LLM's compute_dtype and
    litgpt's precision hold no 8-bit type; torchtitan's training dtypes are bfloat16 and float32; FP4 training runs
    through Transformer Engine's NVFP4 recipe (Megatron-Core, NeMo, MaxText's te_nvfp4) or torchtitan's torchao
    prototype only. Before: each was estimated at the precision's peak (fp4 on llm.c: 121% of the BF16 peak)."""
    err = _refusal({**PRE8, "precision": precision, "stack": stack})
    assert "workload.precision" in str(err.where)
    assert f"no {precision} training path" in str(err)
    offered = err.hint_values["others"]
    assert stack not in offered and "middle" not in offered
    stacks = gpuwise.knowledge.load().runtime.training_stacks
    assert "megatron" in offered and all(precision in stacks[s].precisions for s in offered)


def test_the_refusal_is_one_line_in_english_and_chinese(tmp_path):
    """The CLI's one-line error names the field, the stack and the stacks that train in FP4 (megatron, nemo,
    torchtitan, maxtext by their sources), in --lang zh too."""
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {**PRE8, "precision": "fp4", "stack": "llmc"}}))
    r = cli("estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "r.yaml: workload.precision: llm.c" in r.stderr and "has no fp4 training path" in r.stderr
    assert "trains in bf16, fp16 or fp32" in r.stderr
    assert "set precision bf16 with stack llmc, or a stack that trains in fp4: megatron, nemo, torchtitan or maxtext" \
        in r.stderr
    zh = cli("estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 2 and zh.stderr.count("\n") == 1, zh.stderr
    assert "没有 fp4 训练路径" in zh.stderr and "megatron、nemo、torchtitan 或 maxtext" in zh.stderr


def test_a_plan_workload_is_refused_the_same_way(tmp_path):
    """A plan's workload goes through the same job: FP8 on llm.c is refused there, naming the plan file."""
    plan = {"horizon_months": 3, "workloads": [{"name": "pre", "workload": {**PRE8, "precision": "fp8",
                                                                           "stack": "llmc"},
                                                "cadence": {"per_month": 1}, "deadline_days": 30}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(plan))
    r = cli("plan", "plan.yaml", cwd=tmp_path)
    assert r.returncode == 2 and "has no fp8 training path" in r.stderr, r.stderr


@pytest.mark.parametrize(("stack", "precision"), [
    ("megatron", "fp4"), ("nemo", "fp4"), ("maxtext", "fp4"), ("torchtitan", "fp8"), ("nanochat", "fp8"),
    ("levanter", "fp8"), ("llmc", "fp16"), ("litgpt", "fp32")])
def test_a_precision_the_stack_runs_is_estimated(stack, precision):
    """What the sources offer is kept: Megatron-Core's fp4_recipe nvfp4, Megatron-Bridge's bf16_with_nvfp4_mixed,
    MaxText's te_nvfp4, torchtitan's float8 converter, nanochat's --fp8, Levanter's quantization fp8, llm.c's
    PRECISION=FP16, litgpt's '32-true'."""
    r = gpuwise.estimate({"workload": {**PRE8, "precision": precision, "stack": stack}}, gpu="b200", gpus=8)
    assert r.gpu.training.step_terms.step_s > 0


@pytest.mark.parametrize("precision", ["fp32", "fp16", "bf16", "fp8", "fp4"])
@pytest.mark.parametrize("method", ["full", "lora"])
def test_the_assumed_stack_runs_the_precision(kb, precision, method):
    """None named: the stack gpuwise assumes (Megatron-Core for FP8 / FP4 full training and LoRA, the calibrated
    middle otherwise, which lists none and so runs any) trains in the job's precision; the job is estimated."""
    w = {**PRE8, "precision": precision} if method == "full" else {
        "task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8,
        "precision": precision}
    r = gpuwise.estimate({"workload": w}, gpu="b200", gpus=8)
    assumed = next(a for a in r.assumptions if a.field == "workload.stack")
    spec = kb.runtime.training_stacks[str(assumed.value)]
    assert spec.precisions is None or precision in spec.precisions
    assert (str(assumed.value) == "megatron") == (precision in ("fp8", "fp4"))


def test_every_stack_lists_its_precisions_with_a_source(kb):
    """Every stack but the middle lists the precisions it trains in, with the source they were read from (a
    repository at a commit, or a dated documentation page); what the sources say, read by hand."""
    stacks = kb.runtime.training_stacks
    assert stacks["middle"].precisions is None
    for sid, s in stacks.items():
        if sid == "middle":
            continue
        assert s.precisions, sid
        assert " at " in s.precisions_source or "read 20" in s.precisions_source, sid
    fp4 = sorted(sid for sid, s in stacks.items() if s.precisions and "fp4" in s.precisions)
    assert fp4 == ["maxtext", "megatron", "nemo", "torchtitan"]
    no_fp8 = sorted(sid for sid, s in stacks.items() if s.precisions and "fp8" not in s.precisions)
    assert no_fp8 == ["fast-llm", "litgpt", "llmc"]
    no_fp16 = sorted(sid for sid, s in stacks.items() if s.precisions and "fp16" not in s.precisions)
    assert no_fp16 == ["levanter", "optimum-habana", "torchtitan"]  # bf16-only configs; Gaudi refuses fp16


def test_a_precisions_list_needs_its_source():
    with pytest.raises(ValueError, match="precisions need their precisions_source"):
        StackSpeed(name="x", efficiency=1.0, source="s s s", precisions=["bf16"])




def test_maxtext_fp4_pays_transformer_engines_cast_kernels(kb, monkeypatch):
    """MaxText's FP4 is Transformer Engine's NVFP4 recipe (quantization te_nvfp4: TransformerEngineQuantization at
    e591f30c), which quantizes in TE's own kernels, not through XLA's folded FP8 dots (quantization fp8,
    fp8_quantize fused). Before, the fused FP8 figure carried into FP4 (the 8B pretrain on 8 B200 read 130% of the
    BF16 dense peak, 121% now, the class's FP4 with cast kernels): MaxText's FP4 step is the one it has with
    fp8_quantize kernels, while its FP8 step is faster than that one."""
    def step(precision: str) -> float:
        w = {**PRE8, "precision": precision, "stack": "maxtext", "parallelism": {"tp": 1, "pp": 1}, "zero_stage": 1}
        return gpuwise.estimate({"workload": w}, gpu="b200", gpus=8).gpu.training.step_terms.compute_s
    assert kb.runtime.training_stacks["maxtext"].fp8_quantize == "fused"
    fused = step("fp8"), step("fp4")
    stacks = gpuwise.knowledge.load().runtime.training_stacks
    monkeypatch.setitem(stacks, "maxtext", stacks["maxtext"].model_copy(update={"fp8_quantize": "kernels"}))
    kernels = step("fp8"), step("fp4")
    assert fused[0] < kernels[0] * 0.95
    assert fused[1] == pytest.approx(kernels[1], rel=1e-9)
