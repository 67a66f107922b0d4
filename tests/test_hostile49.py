"""Hostile round 49's fixed failures (benchmarks/hostile_round49.py), each failing before its fix:

* ``checkpoint_every_n_layers`` past the model's layer count (33 or 64 of Llama-3.1-8B's 32) was accepted and
  estimated as no recomputation at all (planner.every_nth_share: floor(32 / 33) = 0 layers a stage): refused, the
  model's layers said; ``checkpoint_every_n_layers: 0`` (meant as none) was pydantic's bound alone:
  ``gradient_checkpointing false`` offered;
* ``attention_kernel`` written as people name FlashAttention-2 (``flash``, ``flash-attn``, ``flash_attention_2``,
  transformers' attn_implementation) was refused with the two choices and nothing offered: fa2 offered;
* ``stack`` written as the Hugging Face tools a fine-tune is run with (``HF Trainer``, ``accelerate``, ``trl``,
  ``transformers``) offered nothing: fsdp-hf (knowledge/runtime.yaml: 'PyTorch FSDP with the Hugging Face Trainer');
* a plan's owned ``network`` named by its InfiniBand generation (``InfiniBand NDR``, ``HDR InfiniBand``) or as
  'RoCE v2 400G' listed all eleven networks: the one of that family and line rate is offered;
* ``gpuwise explain memory`` / ``serving`` / ``SRV`` (a topic or an id's prefix, not a rule id) offered unrelated ids
  (USED-MEMORY-HOT, USED-THROTTLING) or none: the rules of that file or prefix are named;
* a model not in the catalog whose name states one size ('Yi-1.5-34B-Chat-GPTQ') is offered that size as params_b;
* ``--format json -o out.md`` said 'wrote out.md' alone: the line says --format's format and the suffix's;
* a stated training ``attention_kernel`` on a GPU it has no build for (cudnn on MI300X or V100, fa2 on V100) was
  priced as if it ran: CPT-ATTENTION-KERNEL-DEVICE refuses the candidate.

The guards beside them (passing before too): every_n at the layer count kept, 'Transformers' as a framework,
'roce 200 Gb/s', explain used-hardware, MEM-FIT, a sizeless unknown model, fa2 on MI300X / A100 and cudnn on H100
not refused, no kernel stated.
"""

from __future__ import annotations

import pytest
import yaml

from .clirun import ROOT
from .clirun import gpuwise as cli

PRE8 = {"task": "pretrain", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 1.0e10}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")


def _one_line(r) -> str:
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


def _est(tmp_path, workload: dict, *more: str):
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": workload}))
    return cli(*EST, *more, cwd=tmp_path)


@pytest.mark.parametrize("n", [33, 64, 1000])
def test_every_nth_layer_past_the_models_layers_is_refused(tmp_path, n):
    # Llama-3.1-8B has 32 layers (meta-llama/Llama-3.1-8B config.json num_hidden_layers 32): every 33rd recomputes none
    err = _one_line(_est(tmp_path, {**PRE8, "checkpoint_every_n_layers": n}))
    assert "r.yaml: workload.checkpoint_every_n_layers" in err and "32" in err and str(n) in err


def test_every_nth_layer_at_the_models_layers_is_kept(tmp_path):
    r = _est(tmp_path, {**PRE8, "checkpoint_every_n_layers": 32})
    assert r.returncode in (0, 1) and not r.stderr.strip()


def test_every_nth_layer_past_the_layers_in_a_plan_names_the_plans_field(tmp_path):
    plan = {"horizon_months": 6, "workloads": [{"name": "ft", "workload": {**LORA8, "checkpoint_every_n_layers": 100},
                                                "cadence": {"per_month": 1}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(plan))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "plan.yaml: workloads[0].workload.checkpoint_every_n_layers" in err and "32" in err


def test_every_nth_layer_past_the_layers_in_chinese(tmp_path):
    err = _one_line(_est(tmp_path, {**PRE8, "checkpoint_every_n_layers": 64}, "--lang", "zh"))
    assert "32" in err and "past" not in err and "层" in err


def test_every_zeroth_layer_offers_no_checkpointing(tmp_path):
    err = _one_line(_est(tmp_path, {**PRE8, "checkpoint_every_n_layers": 0}))
    assert "workload.checkpoint_every_n_layers" in err and "gradient_checkpointing false" in err


@pytest.mark.parametrize("given", ["flash", "flash-attn", "flash_attention_2", "FlashAttention-2", "flash_attn"])
def test_flash_attention_as_people_name_it_offers_fa2(tmp_path, given):
    err = _one_line(_est(tmp_path, {**PRE8, "attention_kernel": given}))
    assert "workload.attention_kernel" in err and "did you mean fa2?" in err


@pytest.mark.parametrize("given", ["HF Trainer", "accelerate", "trl", "transformers", "Hugging Face Trainer"])
def test_hugging_face_tools_as_a_stack_offer_fsdp_hf(tmp_path, given):
    err = _one_line(_est(tmp_path, {**LORA8, "stack": given}))
    assert "workload.stack" in err and "did you mean fsdp-hf?" in err


def test_transformers_as_a_framework_is_still_transformers(tmp_path):
    r = _est(tmp_path, {"task": "inference", "model": "llama-3.1-8b", "framework": "Transformers"})
    assert "did you mean transformers?" in _one_line(r)


@pytest.mark.parametrize("given,meant", [("InfiniBand NDR", "infiniband-400"), ("HDR InfiniBand", "infiniband-200"),
                                         ("IB EDR", "infiniband-100"), ("RoCE v2 400G", "roce-400"),
                                         ("roce 200 Gb/s", "roce-200")])
def test_a_network_by_its_generation_offers_the_one_meant(tmp_path, given, meant):
    # InfiniBand's generations by their 4x line rate: EDR 100, HDR 200, NDR 400 Gb/s (NVIDIA ConnectX-6 / -7 and
    # Quantum / Quantum-2 product briefs)
    text = (ROOT / "examples" / "plan-team-4090.yaml").read_text()
    (tmp_path / "plan.yaml").write_text(text.replace("hosting: office", f"hosting: office\n    network: {given}"))
    err = _one_line(cli("plan", "plan.yaml", cwd=tmp_path))
    assert "owned[0].network" in err and f"did you mean {meant}?" in err and "one of" not in err


@pytest.mark.parametrize("topic,member,stranger", [("memory", "MEM-FITS", "USED-MEMORY-HOT"),
                                                   ("serving", "SRV-", "USED-THROTTLING"),
                                                   ("Serving", "SRV-", "USED-THROTTLING"),
                                                   ("SRV", "SRV-", "(see `gpuwise rules`"),
                                                   ("used-hardware", "USED-", "MEM-")])
def test_explain_given_a_topic_names_its_rules(topic, member, stranger):
    err = _one_line(cli("explain", topic))
    assert member in err and stranger not in err and topic in err


def test_explain_given_a_topic_in_chinese():
    err = _one_line(cli("explain", "memory", "--lang", "zh"))
    assert "MEM-FITS" in err and "names" not in err and "规则" in err


def test_explain_a_near_id_still_offers_it():
    assert "MEM-FITS" in _one_line(cli("explain", "MEM-FIT"))


@pytest.mark.parametrize("name,size", [("Yi-1.5-34B-Chat-GPTQ", "34"), ("acme-1.3b-awq", "1.3")])
def test_a_release_of_a_model_not_in_the_catalog_offers_the_size_its_name_says(tmp_path, name, size):
    err = _one_line(_est(tmp_path, {"task": "inference", "model": name}))
    assert f"unknown model '{name}' (give params_b for a model not in the catalog: {size}, as its name says)" in err


def test_a_model_not_in_the_catalog_without_a_size_asks_for_params_b(tmp_path):
    err = _one_line(_est(tmp_path, {"task": "inference", "model": "zzyzx-chat"}))
    assert err.rstrip().endswith("(give params_b for a model not in the catalog)")


def test_format_and_a_disagreeing_suffix_is_written_as_format_says_and_said(tmp_path):
    # docs/formats.md: --format wins, the suffix is the default only; the line says which, one line still
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {"task": "inference", "model": "llama-3.1-8b"}}))
    r = cli("recommend", "r.yaml", "--format", "json", "-o", "out.md", cwd=tmp_path)
    assert r.returncode in (0, 1) and (tmp_path / "out.md").read_text().startswith("{")
    assert r.stderr == "gpuwise: wrote out.md in json, as --format says, though its suffix says md\n"
    r = cli("recommend", "r.yaml", "--format", "md", "-o", "same.markdown", cwd=tmp_path)
    assert r.stderr == "gpuwise: wrote same.markdown\n"
    r = cli("recommend", "r.yaml", "--format", "html", "-o", "out.pdf", cwd=tmp_path)
    assert r.stderr == "gpuwise: wrote out.pdf\n"
    r = cli("recommend", "r.yaml", "--format", "json", "-o", "zh.md", "--lang", "zh", cwd=tmp_path)
    assert r.stderr.count("\n") == 1 and "zh.md" in r.stderr and "--format" in r.stderr and "wrote" not in r.stderr



def _rec(tmp_path, workload: dict, gpus: list[str]) -> str:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": workload, "constraints": {"gpus": gpus}}))
    r = cli("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


@pytest.mark.parametrize("kernel,gpu,refused", [
    ("cudnn", "mi300x", True),  # cuDNN SDPA: 'requires SM80 (Ampere) or newer' (cuDNN frontend docs), NVIDIA only
    ("fa2", "v100-32gb-sxm2", True),  # flash-attn README: Ampere, Ada, Hopper; Turing and older use FlashAttention 1.x
    ("cudnn", "v100-32gb-sxm2", True),
    ("fa2", "mi300x", False),  # flash-attn's ROCm backends: MI200 / MI300
    ("cudnn", "h100", False),
    ("fa2", "a100-80gb-sxm", False)])
def test_a_stated_attention_kernel_without_a_build_for_the_gpu_is_refused(tmp_path, kernel, gpu, refused):
    out = _rec(tmp_path, {**LORA8, "attention_kernel": kernel}, [gpu])
    assert ("CPT-ATTENTION-KERNEL-DEVICE" in out) == refused


def test_the_kernel_refusal_names_where_it_runs(tmp_path):
    out = _rec(tmp_path, {**LORA8, "attention_kernel": "cudnn"}, ["mi300x"])
    assert "attention_kernel cudnn has kernels for NVIDIA (compute capability 8.0 or later) only, not for" in out


def test_no_kernel_stated_refuses_nothing(tmp_path):
    assert "CPT-ATTENTION-KERNEL-DEVICE" not in _rec(tmp_path, LORA8, ["v100-32gb-sxm2"])
