"""Report formats and detail levels: the names a user may give and the file suffixes that imply
them (shared by the report writer and the output-file helpers, so neither imports the other)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from ..errors import N_, UserError

FORMATS = ("text", "md", "html", "json")
DETAILS = ("brief", "full")
"""How much a report shows: the brief answer (default), or every formula, candidate and rule."""
_FORMAT_ALIASES = {"text": "text", "txt": "text", "md": "md", "markdown": "md", "html": "html",
                   "htm": "html", "json": "json"}
SUFFIXES = {".txt": "text", ".text": "text", ".md": "md", ".markdown": "md", ".html": "html",
            ".htm": "html", ".json": "json"}
"""File suffixes and the report format each means."""


def normalise_format(fmt: str) -> str:
    key = str(fmt).strip().lower().lstrip(".")
    if key not in _FORMAT_ALIASES:
        raise UserError(N_("unknown report format '%(fmt)s'"), hint=N_("use text, md, html or json"),
                        values={"fmt": fmt})
    return _FORMAT_ALIASES[key]


def normalise_detail(detail: str | None) -> str:
    key = (detail or "brief").strip().lower()
    if key not in DETAILS:
        raise UserError(N_("unknown report detail '%(detail)s'"), hint=N_("use brief or full"),
                        values={"detail": detail})
    return key


def format_for(path: str | os.PathLike[str] | None, fmt: str | None = None, *, format_option: bool = True) -> str:
    """The report format: ``fmt`` when given, else from the suffix of ``path`` (text when neither).
    ``format_option``: whether the command has ``--format`` to name in the refusal's hint (``gpuwise ask``
    has none: its hint sent the user to an option it refuses)."""
    if fmt:
        return normalise_format(fmt)
    if path is None or str(path) == "-":
        return "text"
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise UserError(N_("cannot tell the report format from the suffix '%(suffix)s'"),
                        where=str(path), hint=N_("name the file .md, .html, .json or .txt, or give --format")
                        if format_option else N_("name the file .md, .html, .json or .txt"),
                        values={"suffix": suffix or '(none)'})
    return SUFFIXES[suffix]


_OPTIONS = 0
"""orjson's options for :func:`json_text`, set on first use (orjson is imported then): two-space
indentation and the final newline, as ``json.dumps(indent=2) + "\\n"`` writes them, and a
subclass of str, int, dict or list, a date or time and a dataclass refused (TypeError) rather
than written as orjson would: json writes the first by its own rules and refuses the others."""
_PLAIN: bool | None = None
"""Whether this orjson writes :data:`_PANEL` as json does (:func:`_orjson_writes_as_python`)."""
_HEAD = re.compile(rb' *(?:"(?:[^"\\]|\\.)*": )?')
"""The start of a line of indented JSON up to its value: the indentation and, in an object, the
key. A string holds no raw newline (it is written ``\\n``), so a line is read alone."""
_FLOAT = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:e[-+]?[0-9]+)?(?=[,\n])")
"""A number standing as a whole value in indented JSON: a comma or the line's end follows it."""
_MARKS = (b"e-", b"0.0000")
"""What a float below 1e-4 holds as orjson writes it: a negative exponent (``4.1e-6``, where Python
writes ``4.1e-06``), or its fraction in full (``0.000015``, where Python writes ``1.5e-05``). A
float from 1e-4 up is written alike by both (:data:`_PANEL` checks the forms: fixed below 1e16,
``1.5e+16`` from there), so ``e+`` is not looked for (3.7 M instructions over 983 KB)."""
_DIGITS = frozenset(b"0123456789")
_FLOAT_CODES = frozenset(b"g\xe7")
"""marshal's code of a float (``TYPE_BINARY_FLOAT``), without and with its reference flag."""
_PANEL: dict[str, Any] = {
    "floats": [*(10.0 ** k for k in range(-12, 24)), *(-1.5 * 10.0 ** k for k in range(-12, 24)),
               9.999999999999999e-05, 1e-4, 0.00012, 9.999999999999998e15, 1e16, 2.0 ** 53, 2.0 ** 53 + 2,
               123456789.125, 0.1 + 0.2, 1 / 3, 4.148759189642873e-06, 5e-324, 2.2250738585072014e-308,
               1.7976931348623157e308, 1e-100, 1.5e300, 0.0, -0.0, 1.0, -1.0, 100.0],
    "ints": [0, -1, 7, 2 ** 53 + 1, 2 ** 63 - 1, -(2 ** 63), 2 ** 64 - 1],
    "text": "".join(map(chr, range(0x80))) + "\x85\xa0\xad\u00e9\u4e2d\u2028\u2029\ufeff\U0001f600",
    "keys": {"": 0, "\"\\\n\x1f": [], "\u4e2d": {}},
    "nested": [[], {}, [[]], [{}], {"a": [1, {"b": None}]}, True, False, None, "", "1e-5", "a: 1e-5"],
}
"""What :func:`_orjson_text` counts on orjson writing as json does, checked once a process."""


def json_text(data: Any) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False)`` and a newline, byte for byte: written by
    orjson where that gives the same bytes (:func:`_orjson_text`: every example's answer), else by
    json. Python's indenting encoder is pure Python (~230 M instructions for lora-70b's 983 KB
    answer; orjson ~8 M). Here, not in :mod:`.report`: a JSON answer needs none of the report's
    views and templates."""
    text = _orjson_text(data)
    if text is not None:
        return text
    import json

    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _orjson_text(data: Any) -> str | None:
    """orjson's indented JSON of ``data`` with its floats written as ``repr`` writes them
    (:func:`_floats_as_python_writes_them`), or ``None`` where json may write other bytes. Both
    encoders write the same bytes for what passes here, by construction:

    - the types: marshal takes exact dicts, lists, tuples, strings, integers, floats, booleans and
      ``None`` alone (ValueError for a subclass, an enum, a UUID, an orjson Fragment, data nested
      2,000 deep), and orjson with :data:`_OPTIONS` refuses (TypeError) the types json refuses, a
      key that is not a string (json writes ``1`` as ``"1"``), an integer past 64 bits, a string
      with a lone surrogate and data nested 255 deep: what passes both, each writes by JSON's
      grammar alone, and json writes the rest;
    - the layout: two spaces a level, ``": "`` after a key, ``,`` at a line's end, ``[]`` and
      ``{}`` when empty, keys in the dict's order, a tuple as a list;
    - a string: ``"`` and ``\\`` escaped, a character below U+0020 as ``\\n`` ``\\r`` ``\\t``
      ``\\b`` ``\\f`` or ``\\u00XX`` in lower case, every other one as it is (UTF-8);
    - an integer in decimal; a float by the shortest digits that read back as it, which orjson
      writes in another form where Python writes an exponent (``4.1e-6``; ``0.000015``), and
      those are rewritten by ``repr``;
    - NaN and infinity: orjson writes ``null``, json ``NaN`` and ``Infinity``: such a float is
      found in marshal's bytes (:func:`_non_finite`; where bytes of other values only look like
      one, orjson's JSON read back equals ``data``) and json writes the answer.

    orjson's side of each rule is checked once a process on :data:`_PANEL` (its float forms
    changed in 3.11.7): if one differs, json writes every answer. Before, the answer was encoded
    a second time by json's compact encoder and compared (~76 M instructions of a 70B question's
    1.52 G). tests/test_json_text.py checks these cases against json with hypothesis."""
    import marshal

    import orjson

    if not _orjson_writes_as_python():
        return None
    try:
        raw = orjson.dumps(data, option=_OPTIONS)
        plain = marshal.dumps(data)
    except (TypeError, ValueError):  # a type json writes by rules of its own, or refuses; too deep
        return None
    if _non_finite(plain) and orjson.loads(raw) != data:  # NaN and infinity read back as None
        return None
    return _floats_as_python_writes_them(raw).decode()


def _orjson_writes_as_python() -> bool:
    """Whether this orjson writes :data:`_PANEL` (every rule :func:`_orjson_text` counts on) as
    ``json.dumps(indent=2, ensure_ascii=False)`` does; once a process."""
    global _OPTIONS, _PLAIN
    if _PLAIN is None:
        import json

        import orjson

        _OPTIONS = (orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE | orjson.OPT_PASSTHROUGH_SUBCLASS
                    | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS)
        try:
            ours = _floats_as_python_writes_them(orjson.dumps(_PANEL, option=_OPTIONS))
        except TypeError:
            ours = b""
        _PLAIN = ours == (json.dumps(_PANEL, indent=2, ensure_ascii=False) + "\n").encode()
    return _PLAIN


def _non_finite(plain: bytes) -> bool:
    """Whether ``marshal.dumps`` of some data may hold a NaN or an infinity: marshal writes a float
    as its code (:data:`_FLOAT_CODES`) and 8 bytes little-endian, and one with every exponent bit
    set ends in 0x7F or 0xFF after a byte of 0xF0 or more, so such a float cannot hide. Bytes of
    other values may look alike (about one answer in ten whose floats have random-looking bytes;
    :func:`_orjson_text` then reads its JSON back, ~22 M instructions). A search for one byte, not a
    pattern: lora-70b's 314 KB in 0.8 M instructions (a regular expression: 20 M)."""
    for last in (b"\x7f", b"\xff"):
        at = plain.find(last, 8)
        while at >= 0:
            if plain[at - 1] >= 0xF0 and plain[at - 8] in _FLOAT_CODES:
                return True
            at = plain.find(last, at + 1)
    return False


def _floats_as_python_writes_them(raw: bytes) -> bytes:
    """orjson's indented JSON with each float below 1e-4 (:data:`_MARKS`), which it writes
    otherwise than Python's ``repr``, rewritten as ``repr`` writes it (``4.1e-6`` -> ``4.1e-06``,
    ``0.000015`` -> ``1.5e-05``). Both write the shortest digits that read back as the same float,
    so ``repr(float(token))`` is Python's text for it. Only a number that is a whole value is
    touched: one that starts where its line's value starts (after the indentation and any key,
    :data:`_HEAD`) and ends before a comma or the line's end. Number-like text in a string
    (``"x 1e6"``, ``"a: 1e-5"``) is never touched: a line's start is outside any string. The marks
    are found by ``bytes.find``: a regular expression over lora-70b's 983 KB took 17-65 M
    instructions, the two finds 5 M."""
    spans: dict[int, int] = {}
    for mark in _MARKS:
        exponent = mark[0] == 0x65  # "e"
        at = raw.find(mark)
        while at >= 0:
            # an exponent follows a digit; a full small fraction starts with its 0 (not 10.00001)
            if (at > 0 and raw[at - 1] in _DIGITS) == exponent:
                line = raw.rfind(b"\n", 0, at) + 1
                start = _HEAD.match(raw, line).end()  # type: ignore[union-attr]  # it matches ""
                token = _FLOAT.match(raw, start)
                if token is not None and start <= at < token.end():
                    spans[start] = token.end()
            at = raw.find(mark, at + 1)
    if not spans:
        return raw
    parts: list[bytes] = []
    done = 0
    for start in sorted(spans):
        parts += [raw[done:start], repr(float(raw[start:spans[start]])).encode()]
        done = spans[start]
    parts.append(raw[done:])
    return b"".join(parts)
