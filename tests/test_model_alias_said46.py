"""A model name that the catalog lists as an alias of another entry is priced as that entry, and the report says so
(review45 found it silent): GLM-5.1 is priced as glm-5, Kimi K2.6 as kimi-k2, Qwen3-VL-8B-Instruct as qwen3-8b,
nvidia/DeepSeek-R1-NVFP4 as deepseek-r1 (each listed under the entry's `aliases` in knowledge/models.yaml). The entry's
own id or display name, however it is spelled (case, spaces, dashes: docs/names.md rule 1), is no alias and says
nothing. The line is an assumption on workload.model (message name.alias), shown in every format and language."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import ROOT, gpuwise

ALIAS_LINE = "'Qwen3-VL-8B-Instruct' is priced as Qwen3 8B (qwen3-8b): the catalog lists it as an alias of that entry"
ALIAS_ZH = "“Qwen3-VL-8B-Instruct”按 Qwen3 8B（qwen3-8b）计价：目录将它列为该条目的别名"


@pytest.mark.parametrize("name, ident", [
    ("GLM-5.1", "glm-5"),            # models.yaml glm-5 aliases: glm-5.1
    ("Kimi-K2-Instruct-0905", "kimi-k2"),  # kimi-k2 aliases (Kimi K2.6, whose INT4 files differ from the entry's
    # FP8, says so too: name.alias_checkpoint, tests/test_alias_checkpoint_k26.py)
    ("Qwen3-VL-8B-Instruct", "qwen3-8b"),
    ("DeepSeek-R1-0528", "deepseek-r1"),  # (nvidia/DeepSeek-R1-NVFP4 names its NVFP4 files: name.alias_checkpoint)
])
def test_an_alias_is_read_as_its_entry_and_said(kb, name, ident):
    r = kb.model(name)
    assert r.id == ident and r.note_id == "name.alias"
    assert r.note_values == {"name": name, "label": kb.models[ident].name, "id": ident}
    assert r.note == (f"'{name}' is priced as {kb.models[ident].name} ({ident}): the catalog lists it as an alias "
                      "of that entry")


@pytest.mark.parametrize("name", ["qwen3-8b", "Qwen3 8B", "QWEN3-8B", "glm-5", "GLM 5", "DeepSeek-R1"])
def test_the_entrys_own_id_or_name_says_nothing(kb, name):
    r = kb.model(name)
    assert r.note_id == "" and r.note is None


def _run(tmp_path, command: str, model: str, *extra: str) -> str:
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {
        "task": "inference", "model": model, "precision": "bf16", "concurrent_requests": 4,
        "prompt_tokens": 1000, "output_tokens": 200}, "constraints": {"max_gpus": 2}}), encoding="utf-8")
    args = ("estimate", "r.yaml", "--gpu", "H100", *extra) if command == "estimate" else ("recommend", "r.yaml", *extra)
    r = gpuwise(*args, cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


@pytest.mark.parametrize("command", ["estimate", "recommend"])
def test_json_carries_the_alias_as_an_assumption(tmp_path, command):
    out = json.loads(_run(tmp_path, command, "Qwen3-VL-8B-Instruct", "--format", "json"))
    said = [a for a in out["assumptions"] if a["message_id"] == "name.alias"]
    assert len(said) == 1
    assert said[0]["field"] == "workload.model" and said[0]["value"] == "qwen3-8b"
    assert said[0]["values"] == {"name": "Qwen3-VL-8B-Instruct", "label": "Qwen3 8B", "id": "qwen3-8b"}
    assert said[0]["reason"] == ALIAS_LINE


@pytest.mark.parametrize("command, fmt", [("estimate", "text"), ("recommend", "md"), ("recommend", "text")])
def test_the_report_prints_the_line_in_english_and_chinese(tmp_path, command, fmt):
    en = " ".join(_run(tmp_path, command, "Qwen3-VL-8B-Instruct", "--format", fmt).split())
    assert ALIAS_LINE in en
    zh = "".join(_run(tmp_path, command, "Qwen3-VL-8B-Instruct", "--format", fmt, "--lang", "zh").split())
    assert ALIAS_ZH.replace(" ", "") in zh


@pytest.mark.parametrize("command", ["estimate", "recommend"])
def test_the_entrys_own_name_prints_nothing(tmp_path, command):
    out = json.loads(_run(tmp_path, command, "Qwen3 8B", "--format", "json"))
    assert not [a for a in out["assumptions"] if a["message_id"] == "name.alias"]
    assert "priced as" not in _run(tmp_path, command, "Qwen3 8B", "--format", "md" if command == "recommend" else
                                   "text")


def test_the_question_keeps_every_note_on_the_models_field(tmp_path):
    # GLM-5 attends sparsely: its workload.model also carries assume.sparse_attention, which alone was shown
    # in the question as understood (one reason a field); both are shown now
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {
        "task": "inference", "model": "GLM-5.1", "concurrent_requests": 8}}), encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "H200", "--gpus", "8", cwd=tmp_path)
    text = " ".join(r.stdout.split("The question as understood", 1)[1].split())
    assert "'GLM-5.1' is priced as GLM-5 (glm-5): the catalog lists it as an alias of that entry; GLM-5 attends " \
           "sparsely" in text


def test_an_audit_says_it_too(tmp_path):
    # examples/proposal-good-lora-8xh100.yaml with the model named by its alias meta-llama/Llama-3.3-70B-Instruct
    # (models.yaml llama-3.1-70b aliases: the same network, weights retrained)
    proposal = yaml.safe_load((ROOT / "examples/proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8"))
    proposal["workload"]["model"] = "meta-llama/Llama-3.3-70B-Instruct"
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(proposal), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "md", cwd=tmp_path)
    assert "'meta-llama/Llama-3.3-70B-Instruct' is priced as Llama 3.1 70B (llama-3.1-70b): the catalog lists it " \
           "as an alias of that entry" in r.stdout
