"""Input-checking gaps found in session 39 (branch lead54), each a one-line error checked in words.

* ``workload.parallelism.ep`` above 1 on a dense model (no routed experts) was dropped unsaid, as ``etp`` was
  before session 38: ``gpuwise estimate`` on Llama 2 7B with ``ep: 4`` printed a TP2 PP1 layout with no word of
  the pin. ``ep: 1`` (no expert parallelism) is true of any model and stays allowed.
"""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _train(model: str, par: dict) -> dict:
    return {"workload": {"task": "pretrain", "model": model, "precision": "bf16", "seq_len": 4096,
                         "train_tokens": 1e10, "parallelism": par}}


@pytest.mark.parametrize("ep", [2, 4, 8])
def test_ep_on_a_dense_model_refused(kb, ep):
    with pytest.raises(UserError) as err:
        resolve(Requirements.model_validate(_train("llama-2-7b", {"tp": 2, "ep": ep})), kb)
    text = str(err.value)
    assert "workload.parallelism.ep:" in text and "Llama 2 7B has none (a dense model)" in text
    assert "leave parallelism.ep out" in text and "\n" not in text


def test_ep_one_on_a_dense_model_kept(kb):
    from gpuwise.estimators.training_job import job_pins
    job = resolve(Requirements.model_validate(_train("llama-2-7b", {"tp": 2, "ep": 1})), kb)
    assert job_pins(job).ep in (None, 1)


def test_ep_on_a_moe_model_kept(kb):
    from gpuwise.estimators.training_job import job_pins
    job = resolve(Requirements.model_validate(_train("qwen3-30b-a3b", {"tp": 2, "ep": 8})), kb)
    assert job_pins(job).ep == 8


def test_ep_on_a_dense_model_refused_in_chinese(tmp_path):
    from .clirun import gpuwise as cli
    (tmp_path / "w.yaml").write_text("workload: {task: pretrain, model: llama-2-7b, precision: bf16, seq_len: 4096, "
                                     "train_tokens: 1.0e+10, parallelism: {ep: 4}}\n", encoding="utf-8")
    r = cli("estimate", "--lang", "zh", str(tmp_path / "w.yaml"), "--gpu", "h100-80gb-sxm", "--gpus", "8")
    assert r.returncode == 2
    assert "workload.parallelism.ep: 专家并行把路由专家分布到各 GPU 上，而 Llama 2 7B 没有路由专家" in r.stderr
    assert r.stderr.count("\n") == 1


@pytest.mark.parametrize("given", ["١.٩", "१.९", "１.９"])  # Arabic-Indic, Devanagari, fullwidth
def test_transformers_below_two_in_another_scripts_digits_is_no_release(kb, given):
    """transformers 0.x / 1.x never existed (the first release was 2.0, 2019): in any script's digits it is refused as
    that, never offered 'did you mean 1.9?' (hostile40 folds another script's digits to ASCII for the hint, which the
    ASCII-only check missed: hostile round 26)."""
    w = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "precision": "bf16", "train_tokens": 1e7,
         "stack": "fsdp-hf", "transformers_version": given}
    with pytest.raises(Exception) as err:
        Requirements.model_validate({"workload": w})
    text = str(err.value)
    assert "is no release of transformers (the first was 2.0" in text and "did you mean" not in text
