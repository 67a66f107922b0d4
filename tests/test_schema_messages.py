"""Messages a requirements file's mistakes get: sentences in the user's terms, never a regular expression."""

from __future__ import annotations

import pytest

from engine.errors import UserError
from engine.inputs.schema import Requirements, parse


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [("pytorch", "abc", "PyTorch version as torch.__version__ prints it, e.g. '2.1.0'"),
     ("driver", "x.y", "NVIDIA driver version as nvidia-smi prints it, e.g. '535.104.05'"),
     ("cuda", "12", "CUDA version as torch.version.cuda prints it, e.g. '12.1'")],
)
def test_bad_version_string_is_a_sentence(field: str, value: str, words: str) -> None:
    data = {"workload": {"task": "inference", "model": "llama-2-7b"}, "environment": {field: value}}
    with pytest.raises(UserError) as exc:
        parse(Requirements, data, "req.yaml")
    line = exc.value.line()
    assert line.startswith(f"req.yaml: environment.{field}: '{value}' is not in the expected form")
    assert words in line
    assert "pattern" not in line and "\\d" not in line and "^" not in line
