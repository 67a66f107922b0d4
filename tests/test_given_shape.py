"""A catalog model named beside an ``architecture`` is computed with the given shape, and the report says so
(hostile round 24 found it silent)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

SHAPED = ("workload: {task: finetune, method: full, model: llama-3.1-8b, %s"
          "architecture: {layers: 40, hidden_size: 5120, heads: 40}, train_tokens: 1.0e8}\n")


@pytest.mark.parametrize("params", ["", "params_b: 13, "])
def test_a_catalog_model_given_an_architecture_says_whose_shape_is_used(tmp_path: Path, params: str) -> None:
    # hostile round 24: llama-3.1-8b beside an architecture took that shape without a word. The catalog's
    # Llama 3.1 8B is 32 layers x 4096 (meta-llama/Llama-3.1-8B config.json); the given one is used
    (tmp_path / "r.yaml").write_text(SHAPED % params, encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    notes = {a["field"]: a for a in json.loads(r.stdout)["assumptions"]}
    said = notes["workload.architecture"]
    assert said["message_id"] == "assume.shape_given"
    size = "13" if params else "8.03"  # the catalog's 8.03B stays the count when params_b is not given
    assert said["reason"] == (f"the given architecture (40 layers, hidden 5,120, {size}B parameters), not catalog "
                              "model llama-3.1-8b's shape (32 layers, hidden 4,096); leave 'architecture' out "
                              "for the catalog's")


def test_a_custom_name_with_an_architecture_says_nothing_of_the_catalog(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(
        "workload: {task: finetune, method: full, model: my-13b, params_b: 13, "
        "architecture: {layers: 40, hidden_size: 5120, heads: 40}, train_tokens: 1.0e8}\n", encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert all(a["message_id"] != "assume.shape_given" for a in json.loads(r.stdout)["assumptions"])
