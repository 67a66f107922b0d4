"""A model named by its quantized release is priced at that release's precision (fp8names59, issue 22 item 4).

askreview59: 'Qwen3.5-397B-A17B-FP8' or 'Qwen/Qwen3-235B-A22B-FP8' named in `gpuwise ask` (advanced settings) was
offered precision bf16 and saved it, which the requirements then refused against the name's FP8; an unlisted
'Qwen/Qwen3-4B-FP8' was saved as the id qwen3-4b, its FP8 lost. The releases users name now have
``alias_checkpoints`` groups in knowledge/models.yaml, each naming its Hugging Face card: Qwen's own FP8 releases
('fine-grained fp8 quantization with a block size of 128', Qwen/Qwen3-235B-A22B-FP8 model card), Meta's
Llama-3.1-405B-Instruct-FP8, AMD's Qwen3.5-397B-A17B-MoE-MXFP4 and NVIDIA's FP8 / NVFP4 releases
(NVIDIA/Model-Optimizer modelopt_recipes/published_checkpoints.md @ 28675dcd). With no precision the job is served
at the release's precision and the report says why (the name's precision word, or the card where the name has
none: nvidia/...-FP4); a precision a name's own word contradicts is refused in one line (as before); a listed name
without such a word (Kimi K2.6, nvidia/...-FP4) keeps a precision given, its alias note saying the files' dtype."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise import estimate
from gpuwise.errors import UserError
from gpuwise.inputs.job import served_as_published
from gpuwise.knowledge.names import release_of

QWEN235 = 235_093_634_560  # knowledge/models.yaml qwen3-235b-a22b params_b (Qwen3-235B-A22B safetensors total)


def _weights(name: str, **w) -> tuple[float, list]:
    r = estimate({"workload": {"task": "inference", "model": name, **w}}, gpu="h100-80gb-sxm", gpus=8)
    return r.memory.breakdown["weights"] * 8, [a for a in r.assumptions if a.field == "workload.precision"]


def test_a_named_fp8_release_weighs_one_byte_a_parameter_and_says_so(kb):
    total, notes = _weights("Qwen/Qwen3-235B-A22B-FP8")
    # by hand: 235.09 B parameters x 1 B = 235.1 GB; the card keeps the embeddings and head in BF16 (2 x 151,936 x
    # 4,096 = 1.24 B at 2 B: +1.24 GB), the scales and the router add 0.1%: within 1% of params x 1 B
    assert total == pytest.approx(QWEN235 * 1.0, rel=0.01)
    assert [(a.value, a.values) for a in notes] == [("fp8", {"name": "Qwen/Qwen3-235B-A22B-FP8", "precision": "fp8"})]
    r = kb.model("Qwen/Qwen3-235B-A22B-FP8")  # the name's own note: a release whose published weights are fp8
    assert r.note_id == "name.alias_checkpoint" and r.note_values["checkpoint"] == "fp8"


def test_the_16_bit_name_stays_16_bit():
    total, notes = _weights("Qwen/Qwen3-235B-A22B")
    assert total == pytest.approx(QWEN235 * 2.0, rel=0.01)  # 235.09 B x 2 B = 470.2 GB
    assert [a.value for a in notes] == ["bf16"]


@pytest.mark.parametrize("name, ident, dtype, precision", [
    ("Qwen3.5-397B-A17B-FP8", "qwen3.5-397b-a17b", "fp8", "fp8"),
    ("Qwen/Qwen3-235B-A22B-FP8", "qwen3-235b-a22b", "fp8", "fp8"),
    ("meta-llama/Llama-3.1-405B-Instruct-FP8", "llama-3.1-405b", "fp8", "fp8"),
    ("nvidia/Llama-3.3-70B-Instruct-FP4", "llama-3.1-70b", "nvfp4", "fp4"),  # no precision word: was bf16
    ("nvidia/Llama-4-Maverick-17B-128E-Instruct-NVFP4", "llama-4-maverick-17b-128e", "nvfp4", "fp4"),
    ("amd/Qwen3.5-397B-A17B-MoE-MXFP4", "qwen3.5-397b-a17b", "mxfp4", "fp4"),
])
def test_each_release_is_listed_with_its_format(kb, name, ident, dtype, precision):
    assert kb.model(name).id == ident
    model = kb.models[ident]
    assert release_of(model, name) == dtype and served_as_published(model, name) == precision
    assert release_of(model, ident) is None


def test_nvidias_fp4_name_with_no_precision_word_is_served_at_fp4_naming_its_card(kb):
    """nvidia/Llama-3.3-70B-Instruct-FP4 ('FP4' is no precision word) was priced at bf16: 141 GB for 70.55 B
    parameters; NVFP4 is 4.5 bits a weight (4 bits and an FP8 scale a 16): 70.55 x 0.5625 = 39.7 GB plus the
    BF16 embeddings and head (2 x 128,256 x 8,192 x 2 B = 4.2 GB)."""
    total, notes = _weights("nvidia/Llama-3.3-70B-Instruct-FP4")
    assert [a.value for a in notes] == ["fp4"]
    group = next(g for g in kb.models["llama-3.1-70b"].alias_checkpoints if g.precision == "nvfp4")
    assert notes[0].values["card"] == group.card and "nvidia/Llama-3.3-70B-Instruct-NVFP4" in group.card
    assert 39.7e9 < total < 45e9


def test_a_listed_name_without_a_precision_word_keeps_the_precision_given(kb):
    """As Kimi K2.6 at bf16 (a 16-bit copy, tests/test_alias_checkpoint_k26.py): 70.55 B x 2 B."""
    total, notes = _weights("nvidia/Llama-3.3-70B-Instruct-FP4", precision="bf16")
    assert notes == [] and total == pytest.approx(70.55e9 * 2, rel=0.01)
    assert kb.model("nvidia/Llama-3.3-70B-Instruct-FP4").note_values["checkpoint"] == "nvfp4"


def test_a_listed_names_precision_word_agrees_with_its_group(kb):
    from gpuwise.inputs.job import NAMED_PRECISIONS, precision_word

    for model in kb.models.values():
        for group in model.alias_checkpoints:
            for alias in group.aliases:
                said = precision_word(alias)
                assert said in (None, NAMED_PRECISIONS.get(group.precision, group.precision)), (model.id, alias)


def test_a_precision_the_release_contradicts_is_one_line(tmp_path: Path):
    with pytest.raises(UserError) as err:
        _weights("Qwen/Qwen3-235B-A22B-FP8", precision="bf16")
    assert "names a checkpoint in fp8, not precision bf16" in str(err.value) and "\n" not in str(err.value)


def test_ask_offers_the_release_precision(tmp_path: Path):
    from .test_questionnaire import flow

    for name, precision in (("Qwen3.5-397B-A17B-FP8", "fp8"), ("Qwen/Qwen3-235B-A22B-FP8", "fp8"),
                            ("qwen3-8b", "bf16"), ("Qwen/Qwen3-4B-FP8", "fp8")):
        _, s = flow(tmp_path, {"workload.task": "inference", "workload.model": name, "advanced": True})
        assert s.answers["workload"]["precision"] == precision, name
        if name != "qwen3-8b":  # kept as typed, so that recommend reads the release too
            assert s.answers["workload"]["model"] == name


def test_the_plan_questions_keep_a_release_as_typed_and_offer_its_precision(tmp_path: Path, capsys) -> None:
    """The plan questionnaire (plan_ask.py) reads the model the same way: 'Qwen/Qwen3-8B-FP8' (Qwen's own FP8
    release, listed) is saved as typed, and Enter at the precision keeps the release's (written as nothing: the
    plan's job is served at the name's fp8)."""
    import yaml

    from .test_plan_ask import ENTER, FINETUNE, LIMITS, NO, OWNED, PLAN, YES, drive, text

    service = [ENTER, text("Qwen/Qwen3-8B-FP8"), ENTER, ENTER, ENTER, text("0.5"), ENTER, ENTER, ENTER, ENTER,
               text("10%"), ENTER, text("chat")]  # no p95 targets (productleft60), no max TTFT
    answers = tmp_path / "team.yaml"
    assert drive([PLAN, text("6"), *OWNED, *service, YES, *FINETUNE, NO, *LIMITS, ENTER], answers) == 0, \
        capsys.readouterr().err
    chat = yaml.safe_load(answers.read_text(encoding="utf-8"))["workloads"][0]["workload"]
    assert chat["model"] == "Qwen/Qwen3-8B-FP8" and "precision" not in chat


@pytest.mark.parametrize("name, precision", [
    ("Qwen3.5-397B-A17B-FP8", "fp8"), ("Qwen/Qwen3-235B-A22B-FP8", "fp8"), ("Qwen/Qwen3-4B-FP8", "fp8"),
    ("nvidia/Llama-3.3-70B-Instruct-FP4", "fp4"), ("Qwen/Qwen3-235B-A22B", "bf16"),
])
def test_the_file_ask_saves_is_priced_at_the_release(tmp_path: Path, kb, name, precision):
    """Before, ask saved the catalog id (qwen3.5-397b-a17b), so `gpuwise recommend` on its file priced bf16
    (askreview59's finding); the essentials-only flow writes no precision, the name carries it."""
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    from .test_questionnaire import flow

    _, s = flow(tmp_path, {"workload.task": "inference", "workload.model": name, "advanced": False})
    assert "precision" not in s.answers["workload"]
    assert resolve(Requirements.model_validate(s.answers), kb).req.workload.precision == precision
