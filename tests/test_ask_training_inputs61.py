"""`gpuwise ask` reaches the newest training inputs (branch product61).

An engineer sizing an FP8 pretraining run on B200s, or a long-context fine-tune on H100s, could state neither the
FP8 scaling recipe (workload.fp8_recipe, branch mxfp8train60: mxfp8 is refused off data-center Blackwell), nor the
attention kernel the run calls (workload.attention_kernel: fa2, cudnn, fa3), nor torchtitan's every-N-th-layer
recomputation (workload.checkpoint_every_n_layers, branch trainknobs60): the questionnaire had no question for them,
so only a hand-edited file reached them. Each is now an optional advanced question, asked where it matters (the
recipe only for an fp8 run, the interval only where layers are recomputed); Enter keeps the documented default
(none stated), and the saved file carries an answer the requirements model reads back.
"""

from __future__ import annotations

import typing
from pathlib import Path

import pytest

from gpuwise.ask.questionnaire import _Invalid, _Session, load_questions
from gpuwise.inputs.schema import Requirements
from gpuwise.inputs.workload import Workload
from gpuwise.knowledge import load

from .test_questionnaire import flow

QN = load_questions()
KB = load()
TRAINING = ["workload.attention_kernel", "workload.checkpoint_every_n_layers"]
RECIPE = "workload.fp8_recipe"
PRE = {"workload.task": "pretrain", "workload.model": "llama-3.1-8b", "advanced": True}


def _values(field: str) -> set:
    """The values a Workload field's Literal allows (None left out)."""
    (literal, _none) = typing.get_args(Workload.model_fields[field].annotation)
    return set(typing.get_args(literal))


def test_each_is_asked_in_the_advanced_settings_of_a_training_run_only(tmp_path: Path) -> None:
    asked, s = flow(tmp_path, PRE)
    assert set(TRAINING) <= set(asked) and RECIPE not in asked  # bf16: no FP8 recipe
    assert asked.index("workload.checkpoint_every_n_layers") == asked.index("workload.gradient_checkpointing") + 1
    assert asked.index("workload.attention_kernel") == asked.index("workload.stack") + 1
    asked, _ = flow(tmp_path, {**PRE, "workload.precision": "fp8"})
    assert asked.index(RECIPE) == asked.index("workload.precision") + 1  # mixed precision is 16-bit's question
    asked, _ = flow(tmp_path, {"workload.task": "inference", "advanced": True, "workload.precision": "fp8"})
    assert not ({*TRAINING, RECIPE} & set(asked))
    asked, s = flow(tmp_path, {**PRE, "advanced": False})
    assert not ({*TRAINING, RECIPE} & set(asked))
    assert not {"attention_kernel", "checkpoint_every_n_layers", "fp8_recipe"} & set(s.answers["workload"])
    listed = [q.key for q in s.advanced_defaults()]  # said with the defaults before the advanced question
    assert "workload.attention_kernel" in listed


def test_no_interval_where_no_layer_is_recomputed(tmp_path: Path) -> None:
    """gradient_checkpointing false or selective_op beside an interval is refused by the model (Workload
    _every_nth_layer), so the question is not put after those answers."""
    for ckpt in (False, "selective_op"):
        asked, s = flow(tmp_path, {**PRE, "workload.gradient_checkpointing": ckpt})
        assert "workload.checkpoint_every_n_layers" not in asked, ckpt
        Requirements.model_validate(s.answers)
    asked, _ = flow(tmp_path, {**PRE, "workload.gradient_checkpointing": True})
    assert "workload.checkpoint_every_n_layers" in asked


def test_the_choices_are_the_schemas_values_and_enter_keeps_the_documented_default(tmp_path: Path) -> None:
    assert {c.value for c in QN.by_key("workload.attention_kernel").choices} - {None} == _values("attention_kernel")
    assert {c.value for c in QN.by_key(RECIPE).choices} - {None} == _values("fp8_recipe")
    assert "fa3" in _values("attention_kernel")
    _, s = flow(tmp_path, {**PRE, "workload.precision": "fp8"})
    w = Requirements.model_validate(s.answers).workload
    # docs/formats.md: each is 'not given' / 'the stack's' / 'none (unstated)' by default
    assert (w.attention_kernel, w.checkpoint_every_n_layers, w.fp8_recipe) == (None, None, None)


def test_the_answers_reach_the_requirements(tmp_path: Path) -> None:
    _, s = flow(tmp_path, {**PRE, "workload.precision": "fp8", RECIPE: "mxfp8", "workload.attention_kernel": "fa3",
                           "workload.gradient_checkpointing": True, "workload.checkpoint_every_n_layers": 2})
    w = Requirements.model_validate(s.answers).workload
    assert (w.fp8_recipe, w.attention_kernel, w.checkpoint_every_n_layers) == ("mxfp8", "fa3", 2)
    assert w.gradient_checkpointing is True


def test_the_questions_speak_chinese(tmp_path: Path) -> None:
    for key in (*TRAINING, RECIPE):
        q = QN.by_key(key)
        assert q.question["zh"] != q.question["en"] and q.help["zh"] != q.help["en"], key


@pytest.mark.parametrize("lang, words", [("en", "past the model's 32 layers"), ("zh", "32")])
def test_an_interval_past_the_models_layers_is_refused_at_its_prompt(tmp_path: Path, lang: str, words: str) -> None:
    """Llama 3.1 8B has 32 layers (meta-llama/Llama-3.1-8B config.json num_hidden_layers): every 64th recomputes
    none, which `recommend` refuses in the saved file (inputs/job.py); the prompt now refuses it in the same words,
    and takes 32."""
    s = _Session(QN, KB, tmp_path / "a.yaml", lang=lang, currency=None)
    s.set_currency()
    for key, value in (("workload.task", "pretrain"), ("workload.model", "llama-3.1-8b"), ("advanced", True),
                       ("workload.gradient_checkpointing", True)):
        s.apply(QN.by_key(key), s.validate(QN.by_key(key), value))
    q = QN.by_key("workload.checkpoint_every_n_layers")
    with pytest.raises(_Invalid) as exc:
        s.validate(q, 64)
    said = s.message(exc.value)
    assert words in said and "64" in said and "workload." not in said, said
    assert s.validate(q, 32).value == 32
