"""render.formats.json_text: the bytes of ``json.dumps(data, indent=2, ensure_ascii=False)``, written
by orjson where that gives the same bytes (Python's own ``repr`` of a float is the reference)."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from gpuwise.render.formats import _floats_as_python_writes_them, json_text

# floats orjson writes otherwise than Python's repr: 4.148759189642873e-06 is lora-70b's
# communication hours on H100 (an answer that fell back to the pure-Python encoder)
AWKWARD = [4.148759189642873e-06, 1.5e-05, 1e-05, 1e16, 1e22, 4.33124327424e+19, -2.5e-07, 5e-324,
           1.7976931348623157e308, 9.9999e-05, 0.0001, 1000000000000000.0, 10.00001, -0.0]


def _python(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@pytest.mark.parametrize("value", AWKWARD)
def test_each_float_is_written_as_python_writes_it_by_the_fast_path(value):
    assert repr(value) in _python([value])
    assert _floats_as_python_writes_them(orjson.dumps([value])) == json.dumps([value], separators=(",", ":")).encode()
    assert json_text({"x": [value]}) == _python({"x": [value]})


def test_random_floats_over_the_whole_range():
    rnd = random.Random(26)
    values = [rnd.choice((1, -1)) * 10 ** rnd.uniform(-320, 308) for _ in range(3000)]
    values += [float(f"{v:.3g}") for v in values]
    assert _floats_as_python_writes_them(orjson.dumps(values)) == json.dumps(values, separators=(",", ":")).encode()
    assert json_text({"v": values}) == _python({"v": values})


@pytest.mark.parametrize("data", [
    {"text": ["1e5", "x0.00001", "a e-5", "10.00001 e-7"], "k1e5": 1e-07},  # number-like text stays text
    {"nan": float("nan")}, {"big": 2 ** 70}, {1: "int key"}, {"s": "\ud800"},  # json writes these itself
    {"zh": "每 GPU 显存", "empty": [], "none": {}, "t": True, "n": None},
])
def test_text_and_what_orjson_cannot_write_are_json_s(data):
    assert json_text(data) == _python(data)


def test_a_number_in_a_formula_leaves_the_fast_path_to_orjson():
    """inference-70b's recommendation has the formula '... x 1e6; ...' beside 4.1e-06: the rewrite once
    made it 'x 1000000.0', the compact check failed and Python's indenting encoder wrote the answer."""
    formula = "cost per hour / (output tokens/s x 3600) x 1e6; cost per hour = project cost"
    data = {"formula": formula, "x": [4.148759189642873e-06, 1e16], "rows": [{"t": "0.00001 a"}]}
    assert _floats_as_python_writes_them(orjson.dumps(data)) == json.dumps(
        data, ensure_ascii=False, separators=(",", ":")).encode()
    assert json_text(data) == _python(data)
    # where the rewrite cannot tell (text that reads like a value, ': 1e6'), the check still sends it to json
    assert json_text({"s": "a: 1e6, [1e-5"}) == _python({"s": "a: 1e6, [1e-5"})
