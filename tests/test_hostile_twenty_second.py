"""Hostile round 22: what round 22 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round22.py."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from .clirun import gpuwise


def _write(tmp_path: Path, **workload: object) -> None:
    w = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 300, **workload}
    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": w}), encoding="utf-8")


# ------------------------------------------------------------- llama.cpp given another program's version
@pytest.mark.parametrize("version", ["0.6.0", "0.3.20", "6600rc1", "6600.post1"])
def test_a_dotted_version_for_llama_cpp_is_refused(tmp_path: Path, version: str) -> None:
    """llama.cpp numbers its releases by build alone (its GitHub releases are tagged b6600; llama-bench's
    `build` column), so a dotted version is another program's: Ollama's 0.6.0 (ollama/ollama #9701's
    rows ran it), LM Studio's 0.3.20. gpuwise read '0.6.0' as build 0 and priced llama.cpp from before
    its CUDA graphs (build 2800, serving.yaml llama.cpp releases): on an RTX 4090 a 1,000 + 300 Q4
    decode of Llama 3.1 8B at 7.86 ms a token, not the 6.58 ms of the newest build, without a word.
    Now one line naming the field and the build form, exit 2."""
    _write(tmp_path, framework="llama.cpp", framework_version=version)
    r = gpuwise("estimate", "r.yaml", "--gpu", "rtx-4090", cwd=tmp_path)
    assert r.returncode == 2, r.stdout[-300:]
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr
    assert r.stderr.startswith("gpuwise: r.yaml: workload.framework_version: llama.cpp names a release by its build")
    assert f"'{version}'" in r.stderr
    zh = gpuwise("estimate", "r.yaml", "--gpu", "rtx-4090", "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 2 and "构建号" in zh.stderr and zh.stderr.count("\n") == 1


@pytest.mark.parametrize("version", ["6600", "b6600", " B2800 "])
def test_a_build_number_or_tag_still_reads(tmp_path: Path, version: str) -> None:
    _write(tmp_path, framework="llama.cpp", framework_version=version)
    r = gpuwise("estimate", "r.yaml", "--gpu", "rtx-4090", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_another_frameworks_dotted_version_is_kept(tmp_path: Path) -> None:
    _write(tmp_path, framework="sglang", framework_version="0.5.7.post1")
    assert gpuwise("estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--format", "json", cwd=tmp_path).returncode == 0


# ------------------------------------------------------------- a release written as its tag: the close match
@pytest.mark.parametrize("framework, given, meant", [
    ("sglang", "v0.5.7", "0.5.7"),          # SGLang's and vLLM's git tags and GitHub releases carry the v
    ("sglang", "0.5.7-rc1", "0.5.7rc1"),    # the dash of a pre-release: PyPI's form has none
    ("vllm", "0.10.0 ", "0.10.0"),          # a space inside the quotes
    ("llama.cpp", "v6600", "6600"),
])
def test_a_version_written_as_its_tag_suggests_the_release(tmp_path: Path, framework: str, given: str,
                                                           meant: str) -> None:
    """A refused release named its field and its description but no close match, as a misspelt name
    does; the one line now ends 'did you mean 0.5.7?' where dropping the tag's v, a pre-release's
    dash or surrounding spaces gives the field's form."""
    _write(tmp_path, framework=framework, framework_version=given)
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100-80gb-sxm", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "workload.framework_version" in r.stderr and r.stderr.rstrip().endswith(f"(did you mean {meant}?)")


def test_a_deepspeed_tag_as_stack_version_suggests_the_release(tmp_path: Path) -> None:
    """DeepSpeed tags its releases v0.14.1 (the ZeRO-1/2 offload copies are costed by release)."""
    (tmp_path / "r.yaml").write_text(
        "workload:\n  task: finetune\n  method: full\n  model: llama-3.1-8b\n  stack: deepspeed\n  zero_stage: 2\n"
        "  offload: cpu\n  stack_version: v0.14.1\n", encoding="utf-8")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1
    assert "workload.stack_version" in r.stderr and "你是不是指 0.14.1？" in r.stderr


def test_no_close_match_where_none_is_the_form(tmp_path: Path) -> None:
    _write(tmp_path, framework="sglang", framework_version="v0.5.7x")
    r = gpuwise("estimate", "r.yaml", "--gpu", "h100-80gb-sxm", cwd=tmp_path)
    assert r.returncode == 2 and "did you mean" not in r.stderr
