"""render.formats.json_text: the bytes of ``json.dumps(data, indent=2, ensure_ascii=False)`` and a
newline, written by orjson where that gives the same bytes (Python's json is the reference).

The fast path (formats._orjson_text) no longer encodes the answer a second time with json to
compare: it is the same bytes by construction for what it takes (exact JSON types, string keys,
64-bit integers, finite floats, strings without lone surrogates), and gives way to json for the
rest. These tests check each case where the two encoders may differ -- floats of every form and
magnitude, integers past 64 bits, NaN and infinity, non-string keys, subclasses and other types,
control, non-BMP and surrogate characters, number-like text in strings -- against json itself,
one by one and with hypothesis."""

from __future__ import annotations

import dataclasses
import datetime as dt
import enum
import json
import marshal
import math
import random
import struct
import uuid

import orjson
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gpuwise.render import formats
from gpuwise.render.formats import _floats_as_python_writes_them, _non_finite, _orjson_text, json_text
from tests.conftest import examples  # GPUWISE_THOROUGH=1: the larger counts

# floats orjson writes otherwise than Python's repr: 4.148759189642873e-06 is lora-70b's
# communication hours on H100 (an answer that fell back to the pure-Python encoder)
AWKWARD = [4.148759189642873e-06, 1.5e-05, 1e-05, 1e16, 1e22, 4.33124327424e+19, -2.5e-07, 5e-324,
           1.7976931348623157e308, 9.9999e-05, 0.0001, 1000000000000000.0, 10.00001, -0.0,
           9.999999999999999e-05, 1e-10, 2.2250738585072014e-308, 9.999999999999998e15, 1.5e-09]


def _python(data) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _same_as_json(data) -> None:
    """json_text writes json's bytes, or raises what json raises."""
    try:
        expected = _python(data)
    except (TypeError, ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)):
            json_text(data)
        return
    assert json_text(data) == expected


def test_this_orjson_passes_the_panel():
    """Else every answer is written by json's pure-Python indenting encoder (~230 M instructions)."""
    assert formats._orjson_writes_as_python()


@pytest.mark.parametrize("value", AWKWARD)
def test_each_float_is_written_as_python_writes_it_by_the_fast_path(value):
    assert repr(value) in _python([value])
    indented = orjson.dumps([value], option=orjson.OPT_INDENT_2)
    assert _floats_as_python_writes_them(indented) == json.dumps([value], indent=2).encode()
    assert _orjson_text({"x": [value]}) == _python({"x": [value]})  # the fast path, not json
    assert _orjson_text(value) == _python(value)  # a float alone: its line is the whole text


def test_random_floats_over_the_whole_range():
    rnd = random.Random(26)
    values = [rnd.choice((1, -1)) * 10 ** rnd.uniform(-320, 308) for _ in range(3000)]
    values += [float(f"{v:.3g}") for v in values]
    values += [struct.unpack("<d", rnd.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(3000)]
    values = [v for v in values if math.isfinite(v)]
    assert _orjson_text({"v": values}) == _python({"v": values})


@given(st.floats(allow_nan=False, allow_infinity=False))
@settings(max_examples=examples(150, 400), deadline=None)
@example(1e-05)
@example(-1e-07)
@example(1e16)
@example(5e-324)
@example(-0.0)
def test_any_finite_float_takes_the_fast_path_and_is_written_as_json_writes_it(value):
    assert _orjson_text([value, {"k": value}]) == _python([value, {"k": value}])


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, -math.nan,
                                   struct.unpack("<d", b"\x01\x00\x00\x00\x00\x00\xf8\xff")[0]])
def test_nan_and_infinity_are_left_to_json(value):
    """orjson writes null; json writes NaN, Infinity, -Infinity (not JSON; test_ledger checks that
    no answer holds one), and the answer is json's."""
    for data in (value, [value], {"a": [1.5, {"b": value}]}, [value, value], [1e-7, value]):
        assert _orjson_text(data) is None
        assert json_text(data) == _python(data)


@given(st.recursive(st.floats(allow_nan=False, allow_infinity=False) | st.integers(-2 ** 63, 2 ** 64 - 1),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=3), c, max_size=4),
                    max_leaves=20),
       st.sampled_from([math.nan, math.inf, -math.inf]), st.randoms(use_true_random=False))
@settings(max_examples=examples(100, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_non_finite_float_anywhere_is_found_in_marshals_bytes(data, bad, rnd):
    """_non_finite may say yes to finite data (then json writes it: slower, the same bytes), never
    no to a NaN or an infinity, wherever it sits and whatever is beside it."""
    holder = [data, bad] if rnd.random() < 0.5 else {"x": [bad], "y": data}
    assert _non_finite(marshal.dumps(holder))
    assert json_text(holder) == _python(holder)


@pytest.mark.parametrize("data", [
    {"big": 2 ** 64}, {"big": -(2 ** 63) - 1}, {"big": 10 ** 29},  # past orjson's 64 bits
    {1: "int key"}, {1.5e-05: 1}, {True: 1}, {None: 1},  # keys json writes as strings
    {"s": "\ud800"}, ["\udfff x"], {"\ud83d": 1},  # lone surrogates: orjson refuses them
])
def test_what_orjson_cannot_write_as_json_does_is_json_s(data):
    assert _orjson_text(data) is None
    _same_as_json(data)


class Text(str):
    pass


class Count(int):
    pass


class Real(float):
    pass


class Mapping(dict):
    def items(self):  # json's encoder asks a subclass for its items
        return [("swapped", 1)]


class Row(list):
    pass


class Colour(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Name(str, enum.Enum):
    A = "a"


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize("value", [
    Text("t"), Count(5), Real(1e-7), Mapping(a=1), Row([1]), Colour.RED, Level.HIGH, Name.A,
    uuid.UUID(int=7), dt.date(2026, 12, 4), dt.datetime(2026, 12, 4, 16, 30), dt.time(1, 2), Point(1),
    orjson.Fragment(b'{"raw": 1}'), b"bytes", {1, 2}, complex(1, 2), Ellipsis,
])
def test_a_subclass_or_another_type_is_left_to_json(value):
    """orjson writes an enum, a UUID, a date, a dataclass and a Fragment where json refuses them, and a
    subclass by its own rules: they go to json, which writes them as before or refuses them."""
    for data in ({"v": value}, [value], value):
        assert _orjson_text(data) is None
        _same_as_json(data)
    _same_as_json({Text("k"): 1})  # a key of a str subclass
    assert _orjson_text({Text("k"): 1}) is None


def test_tuples_are_lists_in_both():
    data = {"t": (1, (2.5e-06, "x")), "e": ()}
    assert _orjson_text(data) == _python(data)


def test_too_deep_is_left_to_json():
    data: list = []
    for _ in range(300):  # orjson stops at 255 levels
        data = [data]
    assert _orjson_text(data) is None
    assert json_text(data) == _python(data)


def test_every_character_of_a_string_or_a_key():
    """Each code point below U+0800, a sample above, non-BMP ones: escaped (below U+0020, quote,
    backslash) or kept (everything else, DEL, C1, U+2028, U+FEFF) alike."""
    text = "".join(map(chr, range(0x800))) + "\u2028\u2029\ufeff\ufffd\uffff\U0001f600\U000e0001\U0010ffff"
    data = {text: text, "chunks": [text[i:i + 7] for i in range(0, len(text), 7)]}
    assert _orjson_text(data) == _python(data)


_JSON_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["1e-5", "a: 1e-05", ", 0.00001", ": 1e-7,", "\": 1e-7", "x\n1e-7", "[1e-6", "e-", "0.0000", "\\", "\""])
_LEAF = (st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 64 - 1) | st.integers()
         | st.floats() | st.sampled_from(AWKWARD) | _JSON_TEXT | st.text(st.characters(), max_size=6))
_DATA = st.recursive(_LEAF, lambda c: (st.lists(c, max_size=5) | st.tuples(c, c)
                                       | st.dictionaries(_JSON_TEXT | st.text(st.characters(), max_size=4), c,
                                                         max_size=5)
                                       | st.dictionaries(st.integers() | st.floats() | st.booleans(), c,
                                                         max_size=2)),
                     max_leaves=30)


@given(_DATA)
@settings(max_examples=examples(200, 600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_json_text_is_json_s_bytes_for_any_data(data):
    """Odd floats, big integers, NaN and infinity, non-string keys, surrogates (st.characters()
    draws them), control and non-BMP characters, number-like text where a value could stand."""
    _same_as_json(data)


@given(st.recursive(st.none() | st.booleans() | st.integers(-2 ** 63, 2 ** 64 - 1)
                    | st.floats(allow_nan=False, allow_infinity=False) | _JSON_TEXT,
                    lambda c: st.lists(c, max_size=5) | st.dictionaries(_JSON_TEXT, c, max_size=5), max_leaves=30))
@settings(max_examples=examples(150, 400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_plain_data_takes_the_fast_path(data):
    """What an answer holds (model_dump(mode="json")) is written by orjson, not left to json (unless
    marshal's bytes happen to look like a NaN), and the bytes are json's."""
    text = _orjson_text(data)
    if text is None:
        assert _non_finite(marshal.dumps(data))
        return
    assert text == _python(data)


@pytest.mark.parametrize("data", [
    {"text": ["1e5", "x0.00001", "a e-5", "10.00001 e-7"], "k1e5": 1e-07},  # number-like text stays text
    {"zh": "每 GPU 显存", "empty": [], "none": {}, "t": True, "n": None},
    {"s": "a: 1e-6, [1e-5", "k: 1e-7": "0.00001", "l": ["0.00001", ": 1e-7"], "a\": 1e-7": 1e-7},
])
def test_text_that_reads_like_a_number_stays_text(data):
    assert _orjson_text(data) == _python(data)


def test_a_number_in_a_formula_leaves_the_fast_path_to_orjson():
    """inference-70b's recommendation has the formula '... x 1e6; ...' beside 4.1e-06: the rewrite once
    made it 'x 1000000.0'; a number is rewritten only where a line's value starts."""
    formula = "cost per hour / (output tokens/s x 3600) x 1e6; cost per hour = project cost"
    data = {"formula": formula, "x": [4.148759189642873e-06, 1e16], "rows": [{"t": "0.00001 a"}]}
    assert _orjson_text(data) == _python(data)
    assert _orjson_text({"s": "a: 1e6, [1e-5"}) == _python({"s": "a: 1e6, [1e-5"})


def test_a_changed_orjson_sends_every_answer_to_json(monkeypatch):
    """orjson changed its float forms in 3.11.7 (``1e+16`` for ``1e16``): an orjson that writes the
    panel otherwise than json is not trusted, and json writes the answers."""
    real = orjson.dumps

    def older(data, **kw):
        return real(data, **kw).replace(b"e+", b"e")

    monkeypatch.setattr(formats, "_PLAIN", None)
    monkeypatch.setattr(orjson, "dumps", older)
    assert not formats._orjson_writes_as_python()
    data = {"x": [1e16, 1e-7]}
    assert _orjson_text(data) is None and json_text(data) == _python(data)
    monkeypatch.setattr(formats, "_PLAIN", None)  # the real orjson's verdict is taken again after


def test_bytes_that_only_look_like_a_nan_keep_the_fast_path():
    """marshal writes [x, y] as b"[" n b"g" x0..x7 b"g" y0..y7: with x2 = b"g", y0 >= 0xF0 and
    y1 = 0x7F, the bytes from x2 look like a NaN's record; the JSON read back equals the data."""
    x = struct.unpack("<d", bytes([0, 0, 0x67, 0, 0, 0, 0xF0, 0x3F]))[0]
    y = struct.unpack("<d", bytes([0xF0, 0x7F, 0, 0, 0, 0, 0xF0, 0x3F]))[0]
    assert math.isfinite(x) and math.isfinite(y)
    assert _non_finite(marshal.dumps([x, y]))
    assert _orjson_text([x, y]) == _python([x, y])
    assert _orjson_text([x, y, math.nan]) is None


@given(_DATA, st.booleans())
@settings(max_examples=examples(100, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_control_pass_of_json_needs_no_look_but_for_del(data, ascii_only):
    """output.escape_controls(is_json=True) looks in ASCII JSON for DEL alone (a JSON encoder escapes
    every character below U+0020; the line breaks between values are kept by both passes): the same
    text as the full pass, for json_text's answer and the batch's ``json.dumps`` lines."""
    from gpuwise.render.output import escape_controls

    try:
        texts = [json_text(data), json.dumps(data, ensure_ascii=ascii_only) + "\n" + json.dumps([data, "\x7f"])]
    except (TypeError, ValueError):
        return
    for text in texts:
        assert escape_controls(text, is_json=True) == escape_controls(text)
    assert escape_controls('{"a": "x\x7fy"}', is_json=True) == '{"a": "x\\u007fy"}'
