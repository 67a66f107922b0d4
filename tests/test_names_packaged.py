"""Rule 5 of gpuwise/knowledge/names.py (docs/names.md rule 6): a quantized or repackaged release's name
(a Hugging Face repository id as people paste it) means its network, said as an assumption, and its
precision word sets the served precision. The names are real repositories: Qwen/Qwen3-32B-AWQ,
hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4, RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8
(llm-compressor's INT8 W8A8), google/gemma-3-27b-it-qat-q4_0-gguf, unsloth/Qwen3-8B-unsloth-bnb-4bit."""

import pytest

from gpuwise.errors import UserError
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge.names import norm


@pytest.mark.parametrize("name, ident", [
    ("Qwen3-32B-AWQ", "qwen3-32b"),
    ("Qwen/Qwen3-32B-AWQ", "qwen3-32b"),
    ("hugging-quants/Meta-Llama-3.1-70B-Instruct-AWQ-INT4", "llama-3.1-70b"),
    ("RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "llama-3.1-70b"),
    ("google/gemma-3-27b-it-qat-q4_0-gguf", "gemma-3-27b"),
    ("unsloth/Qwen3-8B-unsloth-bnb-4bit", "qwen3-8b"),
    ("Qwen/Qwen3-8B-GGUF", "qwen3-8b"),
    ("unsloth/gpt-oss-20b-GGUF", "gpt-oss-20b"),
    # the least shortened catalog name wins: -V3 is a version word of the name, never taken off before it is tried
    ("deepseek-ai/DeepSeek-V3-FP8", "deepseek-v3"),
])
def test_release_names_mean_their_network(kb, name, ident):
    r = kb.model(name)
    assert r.id == ident
    if kb.model_names.exact.get(norm(name)) is None:  # not a listed alias: read by rule 5
        assert r.note_id == "name.packaged" and r.note_values["id"] == ident


@pytest.mark.parametrize("name", ["foo-AWQ", "llama-3.1-7-AWQ", "Qwen3-3-GGUF", "unsloth/llama-3.1-7"])
def test_what_is_left_must_be_a_whole_name(kb, name):
    # rule 4 holds after the words come off: no prefix is taken for a name
    with pytest.raises(UserError):
        kb.model(name)


def test_gpu_names_are_not_read_as_releases(kb):
    with pytest.raises(UserError):
        kb.gpu("H100-AWQ")


@pytest.mark.parametrize("name, precision", [
    ("Qwen3-32B-AWQ", "int4"),
    ("RedHatAI/Llama-3.3-70B-Instruct-quantized.w8a8", "int8"),
    ("unsloth/Qwen3-8B-unsloth-bnb-4bit", "int4"),
    ("Qwen3-8B-Q4_K_M", "int4"),
    ("Qwen3-8B-Q8_0", "int8"),
])
def test_the_name_says_the_served_precision(kb, name, precision):
    req = Requirements.model_validate({"workload": {"task": "inference", "model": name, "concurrent_requests": 4}})
    job = resolve(req, kb)
    assert job.req.workload.precision == precision
    said = {a.field: a for a in job.assumptions}
    assert said["workload.model"].message_id == "name.packaged"
    assert said["workload.precision"].value == precision


def test_a_different_stated_precision_is_refused(kb):
    req = Requirements.model_validate({"workload": {"task": "inference", "model": "Qwen3-32B-AWQ",
                                                    "precision": "fp8", "concurrent_requests": 4}})
    with pytest.raises(UserError, match="int4"):
        resolve(req, kb)
