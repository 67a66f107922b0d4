"""Messages a requirements file's mistakes get: sentences in the user's terms, never a regular expression."""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.inputs.schema import Requirements, parse


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


@pytest.mark.parametrize(("template", "values", "expected"), [
    ("{count} x {gpu_name}: {need_gb:.1f} GB", {"count": 8, "gpu_name": "H100", "need_gb": 12.345},
     "8 x H100: 12.3 GB"),
    ("{a:money} {b:money2} {c:pct} {d:int} {e:days} {f:gb}", {"a": 1234.5, "b": 3.14159, "c": 0.42, "d": 1234567.4,
                                                          "e": 0.5, "f": 3.21},
     "$1,234 $3.14 42% 1,234,567 12.0 hours 3.2 GB"),
    ("{g!r} and {missing}", {"g": "x"}, "'x' and ?"),
    ("{a:.1f} {b:money}", {"a": "text", "b": None}, "text None"),
    ("{{braces}} {x:>4}", {"x": True}, "{braces}    1"),
    ("{a:{w}}", {"a": 1, "w": 5}, "    1"),  # nested spec: str.format's own path
    ("{0} {}", {}, "{0} {}"),  # positional fields: left as written
    ("half {", {}, "half {"),  # does not parse: left as written
])
def test_a_message_is_filled_as_str_format_would_and_never_fails(template, values, expected):
    """messages.fill parses a plain template once and fills its fields; the result is what
    string.Formatter with gpuwise's specs gives (money, pct, int, days, gb; '?' for a missing value)."""
    from gpuwise.messages import Filler, fill

    assert fill(template, values) == expected
    try:
        reference = Filler().vformat(template, (), values)
    except (ValueError, IndexError, KeyError, AttributeError):
        reference = template
    assert reference == expected
