"""Input-checking gaps found in session 38 (branch inputs53), each a one-line error or hint checked in words.

* ``workload.parallelism.etp`` (Megatron-Core's expert_tensor_parallel_size, branch etp52) splits each routed
  expert's matrices over GPUs: on a model with no routed experts it was dropped unsaid (training_job.py kept the
  pin for MoE models alone), so a user who stated it believed it ran.
"""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements


def _train(model: str, par: dict, **more) -> dict:
    return {"workload": {"task": "pretrain", "model": model, "precision": "bf16", "seq_len": 4096,
                         "train_tokens": 1e10, "parallelism": par, **more}}


@pytest.mark.parametrize("etp", [1, 2])
def test_etp_on_a_dense_model_refused(kb, etp):
    """Llama 2 7B has no routed experts (a dense FFN in every layer): any etp, 1 included, names nothing."""
    with pytest.raises(UserError) as err:
        resolve(Requirements.model_validate(_train("llama-2-7b", {"tp": 2, "etp": etp})), kb)
    text = str(err.value)
    assert "workload.parallelism.etp" in text and "Llama 2 7B has none (a dense model)" in text
    assert "leave parallelism.etp out" in text and "\n" not in text


def test_etp_on_a_custom_dense_model_refused(kb):
    with pytest.raises(UserError, match="custom 7B has none"):
        resolve(Requirements.model_validate({"workload": {"task": "pretrain", "params_b": 7, "precision": "bf16",
                                                          "seq_len": 4096, "train_tokens": 1e10,
                                                          "parallelism": {"etp": 1}}}), kb)


def test_etp_on_a_moe_model_kept(kb):
    """Qwen3-30B-A3B (128 routed experts) keeps the pin: etp52's EP8 x ETP1 layout (tests/test_etp52.py)."""
    from gpuwise.estimators.training_job import job_pins
    job = resolve(Requirements.model_validate(_train("qwen3-30b-a3b", {"tp": 2, "ep": 8, "etp": 1})), kb)
    assert job_pins(job).etp == 1


def test_etp_on_a_dense_model_refused_in_chinese(tmp_path):
    from .clirun import gpuwise as cli
    (tmp_path / "w.yaml").write_text("workload: {task: pretrain, model: llama-2-7b, precision: bf16, seq_len: 4096, "
                                     "train_tokens: 1.0e+10, parallelism: {etp: 2}}\n", encoding="utf-8")
    r = cli("recommend", "--lang", "zh", str(tmp_path / "w.yaml"))
    assert r.returncode == 2
    assert "workload.parallelism.etp: 专家张量并行切分的是路由专家，而 Llama 2 7B 没有路由专家" in r.stderr
    assert "去掉 parallelism.etp" in r.stderr and r.stderr.count("\n") == 1


@pytest.mark.parametrize("etp, words", [
    ("0", "workload.parallelism.etp: Input should be greater than or equal to 1 (got 0)"),
    ("-2", "workload.parallelism.etp: Input should be greater than or equal to 1 (got -2)"),
    ("two", "workload.parallelism.etp: Input should be a valid integer, unable to parse string as an integer"),
    ("2.5", "workload.parallelism.etp: Input should be a valid integer, got a number with a fractional part"),
    ("2048", "workload.parallelism.etp: Input should be less than or equal to 1024 (got 2048)"),
])
def test_etp_values_that_cannot_be_a_size_refused(tmp_path, etp, words):
    """0, a negative, a word, a fraction, more than 1,024 GPUs: one line each, before any model is read."""
    from .clirun import gpuwise as cli
    (tmp_path / "w.yaml").write_text("workload: {task: pretrain, model: qwen3-30b-a3b, precision: bf16, seq_len: 4096, "
                                     f"train_tokens: 1.0e+10, parallelism: {{etp: {etp}}}}}\n", encoding="utf-8")
    r = cli("estimate", str(tmp_path / "w.yaml"), "--gpu", "h100")
    assert r.returncode == 2 and words in r.stderr and r.stderr.count("\n") == 1


def test_etp_the_count_cannot_hold_said_as_not_kept(tmp_path):
    """TP2 EP8 ETP4 needs EP x ETP = 32 GPUs to divide a stage's TP x DP GPUs (Megatron-Core's EP x ETP x EDP
    folding): no count up to 16 holds it, so the layout takes Megatron-LM's rule instead and the answer says the
    pin was not kept (MEM-PIN-NOT-KEPT), never 'as requested'."""
    from .clirun import gpuwise as cli
    (tmp_path / "w.yaml").write_text("workload: {task: pretrain, model: qwen3-30b-a3b, precision: bf16, seq_len: 4096, "
                                     "train_tokens: 1.0e+10, parallelism: {tp: 2, ep: 8, etp: 4}}\n"
                                     "constraints: {max_gpus: 16}\n", encoding="utf-8")
    r = cli("recommend", str(tmp_path / "w.yaml"))
    assert r.returncode == 0
    assert "workload.parallelism.etp 4 cannot be kept on this GPU count or model" in " ".join(r.stdout.split())
