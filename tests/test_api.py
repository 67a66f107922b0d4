"""The Python API of docs/api.md: ``import gpuwise; gpuwise.recommend(dict)`` and its siblings,
their typed signatures, the package a wheel installs, and no import cycle between the commands'
modules."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import gpuwise
from gpuwise.errors import UserError
from gpuwise.results import AuditResult, EstimateResult, RecommendResult

from . import sources
from .conftest import ROOT

LORA_8B = {"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "lora"},
           "constraints": {"acquisition": "rent", "max_gpus": 8, "gpus": ["h100", "a100-80gb-sxm"]}}


def test_recommend_takes_a_dict_a_path_or_a_path_object():
    got = gpuwise.recommend(LORA_8B)
    assert isinstance(got, RecommendResult) and got.recommendation is not None
    assert got.recommendation.gpu in {"h100-80gb-sxm", "a100-80gb-sxm"}
    by_path = gpuwise.recommend(ROOT / "examples" / "lora-70b.yaml")
    by_str = gpuwise.recommend(str(ROOT / "examples" / "lora-70b.yaml"))
    assert by_path.model_dump(mode="json")["recommendation"] == by_str.model_dump(mode="json")["recommendation"]


def test_audit_and_estimate_as_documented():
    a = gpuwise.audit(ROOT / "examples" / "proposal-used-3090-mining.yaml", rules=ROOT / "examples" / "house-rules")
    assert isinstance(a, AuditResult) and a.verdict == "reject"
    assert any(f.rule == "HOUSE-NO-USED" and f.house for f in a.findings)
    e = gpuwise.estimate(LORA_8B, gpu="h100", gpus=2)
    assert isinstance(e, EstimateResult) and e.gpu is not None
    assert (e.gpu.id, e.gpu.count) == ("h100-80gb-sxm", 2)
    # LoRA on a frozen 16-bit 8B base: at least the weights, 8.03e9 x 2 bytes = 16 GB, on each GPU
    assert e.memory.per_gpu_bytes > 16e9


def test_bad_input_is_a_one_line_user_error():
    with pytest.raises(UserError) as err:
        gpuwise.recommend({"workload": {"task": "finetune", "model": "llama-3.1-8b", "methd": "lora"}})
    assert "\n" not in str(err.value) and "methd" in str(err.value)


@pytest.mark.parametrize(("name", "params", "returns"), [
    ("recommend", ["requirements", "knowledge", "rules", "fx_rate"], "RecommendResult"),
    ("audit", ["proposal", "knowledge", "base_dir", "rules", "fx_rate"], "AuditResult"),
    ("estimate", ["requirements", "gpu", "gpus", "knowledge", "fx_rate"], "EstimateResult"),
])
def test_the_signatures_are_the_documented_ones(name, params, returns):
    fn = getattr(gpuwise, name)
    sig = inspect.signature(fn)
    assert list(sig.parameters) == params
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(sig.parameters.values())[1:])
    assert sig.return_annotation == returns
    doc = (ROOT / "docs" / "api.md").read_text()
    assert f"def {name}(" in doc and returns in doc


def _imports(path: Path, package: str) -> set[str]:
    """The gpuwise modules a module imports, anywhere in it (a lazy import is still a dependency)."""
    out: set[str] = set()
    for node in sources.walk(sources.tree(path)):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")
            base = base[: len(base) - node.level + 1]
            mod = ".".join([*base, *(node.module.split(".") if node.module else [])])
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("gpuwise"):
            out.add(node.module)
    return out


def test_estimate_does_not_import_recommend_and_subjects_does_not_import_either():
    pkg = ROOT / "gpuwise" / "decide"
    recommending = {"gpuwise.decide.recommend", "gpuwise.decide.consult", "gpuwise.decide.count_search",
                    "gpuwise.decide.result"}
    assert not recommending & _imports(pkg / "estimate.py", "gpuwise.decide.estimate")
    subj = _imports(pkg / "subjects.py", "gpuwise.decide.subjects")
    assert not subj & {*recommending, "gpuwise.decide.estimate", "gpuwise.decide.audit"}


def test_a_wheel_installs_gpuwise_and_nothing_else(tmp_path):
    pytest.importorskip("hatchling")
    # built from this checkout with the build backend installed here: no package index is asked (pip
    # listed the configured indexes and find-links first: 5.4 -> 1.9 s here, 0.8 CPU-s either way)
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", str(ROOT), "--no-deps", "--no-build-isolation",
                          "--no-index", "--disable-pip-version-check", "-w", str(tmp_path)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    (wheel,) = tmp_path.glob("gpuwise-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {"gpuwise", wheel.name.split("-py")[0] + ".dist-info"}
    assert "gpuwise/_data/rules/memory.yaml" in names and "gpuwise/__init__.py" in names
