"""Settings gpuwise accepted and then ignored, or credited where they cannot apply (hostile round 21, 'left';
issue 22 item 4, issue 26 item 5). An explicit setting is the user's: where it cannot apply, it is refused at input
(invalid whatever the GPU) or a rule says so with a fix (it depends on the candidate), never a silent credit."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

import gpuwise
from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements, Workload

from .clirun import gpuwise as gpuwise_cli


def job_of(kb, **w):
    w.setdefault("task", "inference")
    return resolve(Requirements.model_validate({"workload": w}), kb)


# ------------------------------------------------------------------------------ MTP without MTP layers
def test_catalog_records_the_mtp_layers_each_checkpoint_ships(kb):
    """config.json num_nextn_predict_layers: 1 for DeepSeek-V3/R1/V3.1/V3.2-Exp and GLM-4.5/4.5-Air; MiniMax-M2's
    config num_mtp_modules 3; Llama 3.1 (LlamaForCausalLM) and Kimi K2 (num_nextn_predict_layers 0) none."""
    got = {m: kb.models[m].mtp_layers for m in ("deepseek-v3", "deepseek-r1", "deepseek-v3.1", "deepseek-v3.2-exp",
                                                "glm-4.5", "glm-4.5-air", "minimax-m2", "llama-3.1-8b", "kimi-k2")}
    assert got == {"deepseek-v3": 1, "deepseek-r1": 1, "deepseek-v3.1": 1, "deepseek-v3.2-exp": 1, "glm-4.5": 1,
                   "glm-4.5-air": 1, "minimax-m2": 3, "llama-3.1-8b": 0, "kimi-k2": 0}


MTP_LLAMA = {"workload": {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16",
                          "speculative": {"method": "mtp"}},
             "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 1}}


def test_mtp_is_not_credited_to_a_model_without_mtp_layers(kb):
    """Llama 3.1 8B has no MTP layers: MTP asked of it decodes at exactly the plain speed (before: the MTP default
    acceptance 0.85 gave about 1.8x: 275 against 154 tokens/s on one H100), no drafter is held in memory, and the
    result says the method was not modelled."""
    gpu = kb.gpus["h100-80gb-sxm"]
    w = dict(model="llama-3.1-8b", framework="vllm", precision="bf16", prompt_tokens=1000, output_tokens=1000)
    plain = SV.choose(job_of(kb, **w), gpu, 1)
    job = job_of(kb, speculative={"method": "mtp"}, **w)
    mtp = SV.choose(job, gpu, 1)
    assert mtp.engine.spec is None
    assert mtp.single.decode_step == plain.single.decode_step
    assert mtp.replica.draft_gpu == 0 and mtp.replica.weights_gpu == plain.replica.weights_gpu
    r = SV.result(job, mtp)
    assert r.speculative_method == "mtp" and r.speculative_supported is True


def test_mtp_still_credited_where_the_model_ships_it(kb):
    """DeepSeek-V3 ships one MTP layer: its MTP is modelled as before (DeepSeek-V3 report section 5.4.3, 1.8x;
    the speed-up itself is checked in tests/test_serving_rate.py)."""
    gpu = kb.gpus["h200-141gb-sxm"]
    w = dict(model="deepseek-v3", precision="fp8", framework="sglang", prompt_tokens=1000, output_tokens=1000)
    mtp = SV.choose(job_of(kb, speculative={"method": "mtp"}, **w), gpu, 8)
    assert mtp.engine.spec is not None and mtp.engine.spec.method == "mtp"


def test_mtp_without_layers_is_a_warning_naming_the_model_and_the_fix():
    r = gpuwise.recommend(MTP_LLAMA)
    found = [f for f in r.findings if f.rule == "SRV-MTP-NO-LAYERS"]
    assert len(found) == 1 and found[0].severity == "warning"
    assert "Llama 3.1 8B" in found[0].message and "EAGLE" in found[0].fix


def test_mtp_on_a_model_that_ships_it_draws_no_warning():
    req = {"workload": {"task": "inference", "model": "deepseek-v3", "framework": "sglang", "precision": "fp8",
                        "speculative": {"method": "mtp"}},
           "constraints": {"gpus": ["h200-141gb-sxm"], "max_gpus": 8}}
    assert not [f for f in gpuwise.recommend(req).findings if f.rule == "SRV-MTP-NO-LAYERS"]


# ------------------------------------------------------------------------------ refused at input
def test_global_batch_below_one_sequence_is_refused_at_input():
    """A step takes whole sequences: 1 token a step at seq_len 2048 has no step (before: accepted and approved)."""
    with pytest.raises(ValidationError, match=r"global_batch_tokens 1 is less than one sequence .seq_len 2048"):
        Workload(task="finetune", method="lora", model="llama-3.1-8b", global_batch_tokens=1)
    with pytest.raises(ValidationError, match=r"global_batch_tokens 4095 is less than one sequence .seq_len 4096"):
        Workload(task="pretrain", model="llama-3.1-8b", seq_len=4096, global_batch_tokens=4095)
    assert Workload(task="pretrain", model="llama-3.1-8b", seq_len=4096, global_batch_tokens=4096)


def test_refusals_exit_2_with_one_line_naming_the_field(tmp_path):
    for body, field in (("workload: {task: finetune, method: lora, model: llama-3.1-8b, global_batch_tokens: 1}",
                         "global_batch_tokens"),):
        f = tmp_path / "req.yaml"
        f.write_text(body + "\n")
        p = gpuwise_cli("recommend", str(f))  # in this process (tests/clirun.py): the refusal is cli.main's
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1 and field in p.stderr, p.stderr


# ------------------------------------------------------------------------------ rules per GPU
def _findings(req):
    return {f.rule: f for f in gpuwise.recommend(req).findings}


def test_rocm_aiter_on_an_nvidia_gpu_is_a_warning():
    """VLLM_ROCM_USE_AITER is read by vLLM's ROCm platform only (vllm/envs.py): on an H100 it changes nothing."""
    req = {"workload": {"task": "inference", "model": "llama-3.1-8b", "rocm_aiter": True},
           "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 1}}
    f = _findings(req)["SRV-ROCM-AITER-NOT-AMD"]
    assert f.severity == "warning" and "NVIDIA H100" in f.message
    req["workload"]["rocm_aiter"] = False
    assert "SRV-ROCM-AITER-NOT-AMD" not in _findings(req)


def test_rocm_fp4_asm_gemm_on_an_nvidia_gpu_is_the_same_warning():
    """VLLM_ROCM_USE_AITER_FP4_ASM_GEMM is read by vLLM's ROCm platform only (vllm/envs.py): on a B200 it changes
    nothing, and the warning names each ROCm-only setting asked for, not only rocm_aiter (the flag alone, without
    rocm_aiter, is refused at input since hostile round 42: vLLM reads it only with AITER on)."""
    req = {"workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "fp4", "rocm_fp4_asm_gemm": True,
                        "rocm_aiter": True}, "constraints": {"gpus": ["b200"], "max_gpus": 1}}
    f = _findings(req)["SRV-ROCM-AITER-NOT-AMD"]
    assert f.severity == "warning" and "B200" in f.message
    assert f.message.startswith("rocm_aiter and rocm_fp4_asm_gemm: ")
    req["workload"]["rocm_aiter"] = req["workload"]["rocm_fp4_asm_gemm"] = False
    assert "SRV-ROCM-AITER-NOT-AMD" not in _findings(req)


def test_disaggregated_on_one_copy_is_a_warning_and_two_copies_are_not():
    """One GPU holds one copy of Llama 3.1 8B: no prefill copy apart from a decode copy (the rate model serves it
    colocated, rate.one_copy_colocated); two GPUs pinned at tensor parallel 1 hold two copies, which disaggregate
    (left to itself the layout choice may put both GPUs in one copy: the rule then says so too)."""
    req = {"workload": {"task": "inference", "model": "llama-3.1-8b", "disaggregated": True},
           "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 1}}
    f = _findings(req)["SRV-DISAGGREGATED-ONE-COPY"]
    assert f.severity == "warning" and "1 x NVIDIA H100" in f.message
    proposal = {"title": "disaggregated on two H100", "workload": {**req["workload"], "parallelism": {"tp": 1}},
                "hardware": {"gpu": "h100-80gb-sxm", "count": 2, "nodes": 1},
                "acquisition": {"mode": "rent", "hourly_usd": 2.0}}
    assert "SRV-DISAGGREGATED-ONE-COPY" not in {f.rule for f in gpuwise.audit(proposal).findings}
    proposal["hardware"]["count"] = 1
    assert "SRV-DISAGGREGATED-ONE-COPY" in {f.rule for f in gpuwise.audit(proposal).findings}


def test_disaggregated_serving_is_given_two_copies_where_the_gpus_allow():
    """Explicit settings are the user's: asked for disaggregated serving, the layout choice takes a layout of two
    copies or more where one fits (before, two H100s unpinned served Llama 3.1 8B as one tensor-parallel-2 copy
    and the rule warned), and the count search starts at two GPUs (before: one GPU, colocated, with the warning,
    won on cost)."""
    two = {"title": "disaggregated on two H100, unpinned",
           "workload": {"task": "inference", "model": "llama-3.1-8b", "disaggregated": True, "requests_per_s": 4},
           "hardware": {"gpu": "h100-80gb-sxm", "count": 2, "nodes": 1},
           "acquisition": {"mode": "rent", "hourly_usd": 2.0}}
    a = gpuwise.audit(two)
    assert "SRV-DISAGGREGATED-ONE-COPY" not in {f.rule for f in a.findings}
    r = gpuwise.recommend({"workload": two["workload"],
                           "constraints": {"gpus": ["h100-80gb-sxm"], "max_gpus": 4}})
    assert r.recommendation is not None and r.recommendation.count >= 2
    assert "SRV-DISAGGREGATED-ONE-COPY" not in {f.rule for f in r.findings}


FP8_LORA = {"task": "finetune", "model": "llama-2-70b", "method": "lora", "precision": "fp8", "stack": "nemo",
            "fp8_params": True, "seq_len": 4096, "train_tokens": 1.0e7}


def test_fp8_params_on_a_gpu_without_fp8_is_blocked():
    """An A100 (compute capability 8.0) has no FP8 (Transformer Engine needs 8.9+): the one-byte base the memory
    estimate credits does not exist there. Before: the audit approved 8 x A100 with 59.8 GB a GPU and no finding
    on fp8_params. An H100 has FP8: no finding."""
    proposal = {"title": "fp8_params on A100", "workload": FP8_LORA,
                "hardware": {"gpu": "a100-80gb-sxm", "count": 8, "nodes": 1},
                "acquisition": {"mode": "rent", "hourly_usd": 2.0}}
    a = gpuwise.audit(proposal)
    found = [f for f in a.findings if f.rule == "CMP-FP8-PARAMS-NO-FP8"]
    assert found and found[0].severity == "blocker" and "gives no FP8 rate" in found[0].message
    proposal["hardware"]["gpu"] = "h100-80gb-sxm"
    assert not [f for f in gpuwise.audit(proposal).findings if f.rule == "CMP-FP8-PARAMS-NO-FP8"]
