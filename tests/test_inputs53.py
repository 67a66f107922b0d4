"""Input-checking gaps found in session 38 (branch inputs53), each a one-line error or hint checked in words.

* ``workload.parallelism.etp`` (Megatron-Core's expert_tensor_parallel_size, branch etp52) splits each routed
  expert's matrices over GPUs: on a model with no routed experts it was dropped unsaid (training_job.py kept the
  pin for MoE models alone), so a user who stated it believed it ran.
* A GPU name typed with look-alike characters (Cyrillic 'Н', Greek 'Η', fullwidth 'Ｈ' or '１') is no name: it is
  still refused, but its 'did you mean' hint names the H100 first (difflib on 'н100' ranked v100-16gb-sxm2, one
  letter off, above h100-80gb-sxm, all four off before NFKC and a Cyrillic/Greek-to-Latin fold).
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
    ("0", "workload.parallelism.etp: must be at least 1 (got 0)"),
    ("-2", "workload.parallelism.etp: must be at least 1 (got -2)"),
    ("two", "workload.parallelism.etp: 'two' is a number in words: etp takes its digits: write 2"),  # hostile54
    ("2.5", "workload.parallelism.etp: must be a whole number (got 2.5)"),  # the house's words since hostile54
    ("2048", "workload.parallelism.etp: must be at most 1024 (got 2048)"),
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


LOOKALIKES = ["\u041d100",  # Cyrillic capital EN
              "\u043d100",  # Cyrillic small en
              "\u0397100",  # Greek capital ETA
              "\uff28100",  # fullwidth H
              "h\uff11\uff10\uff10"]  # fullwidth digits


@pytest.mark.parametrize("typed", LOOKALIKES)
def test_lookalike_gpu_hint_names_the_h100_first(kb, typed):
    assert kb.gpu_names.close(typed)[0] == "h100-80gb-sxm"
    with pytest.raises(UserError) as err:  # the look-alike is never taken for the GPU
        kb.gpu(typed)
    assert "did you mean h100-80gb-sxm or " in str(err.value)


def test_lookalike_gpu_on_the_command_line_and_in_a_file(tmp_path):
    from .clirun import gpuwise as cli
    r = cli("estimate", "examples/pretrain-7b.yaml", "--gpu", "\u041d100")
    assert r.returncode == 2
    assert "--gpu: unknown gpu '\\u041d100' (did you mean h100-80gb-sxm or v100-16gb-sxm2" in r.stderr
    (tmp_path / "w.yaml").write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, seq_len: 4096, "
                                     "train_tokens: 2.0e+8}\nconstraints: {gpus: [\uff28100]}\n", encoding="utf-8")
    r = cli("recommend", str(tmp_path / "w.yaml"))
    assert r.returncode == 2
    assert "constraints.gpus[0]: unknown gpu '\\uff28100' (did you mean h100-80gb-sxm" in r.stderr


def test_lookalike_fold_keeps_other_names(kb):
    """Latin names fold to themselves ('H10O' keeps its digit-for-letter reading), a Chinese name is kept, and a
    look-alike model name is folded alike: Cyrillic 'Llаma-3.1-8В' (а, В) hints llama-3.1-8b."""
    from gpuwise.knowledge.names import folded
    assert folded("H10O") == "H10O" and kb.gpu_names.close("H10O")[0] == "h100-80gb-sxm"
    assert folded("\u6607\u817e910B") == "\u6607\u817e910B"  # 昇腾910B: CJK is no look-alike
    assert kb.model_names.close("Ll\u0430ma-3.1-8\u0412")[0] == "llama-3.1-8b"


@pytest.mark.parametrize("rows, said", [
    # round 38's bomb: a..i each nine aliases of the one before; 'f' is the first past 100,000 values, at its first
    # entry (a..e hold 9 + 81 + 729 + 6,561 + 59,049 values, and f's first *e adds 59,049 more)
    ("".join(f"{k}: &{k} [{', '.join([f'*{p}'] * 9) if p else ', '.join(['x'] * 9)}]\n"
             for p, k in zip(["", *"abcdefgh"], "abcdefghi", strict=True)), "'f' had 1 entry so far"),
    ("a: &a [" + ", ".join(["x"] * 60_000) + "]\nb: [1, *a]\n", "'b' had 2 entries so far"),
])
def test_alias_bomb_count_agrees_with_its_noun(rows, said):
    from pathlib import Path

    from gpuwise.yamlio import parse_yaml
    with pytest.raises(UserError) as err:
        parse_yaml(rows.encode(), Path("x.yaml"))
    assert "once aliases are expanded (an alias bomb?); " + said in str(err.value)
