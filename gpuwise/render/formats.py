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


def format_for(path: str | os.PathLike[str] | None, fmt: str | None = None) -> str:
    """The report format: ``fmt`` when given, else from the suffix of ``path`` (text when neither)."""
    if fmt:
        return normalise_format(fmt)
    if path is None or str(path) == "-":
        return "text"
    suffix = Path(path).suffix.lower()
    if suffix not in SUFFIXES:
        raise UserError(N_("cannot tell the report format from the suffix '%(suffix)s'"),
                        where=str(path), hint=N_("name the file .md, .html, .json or .txt, or give --format"),
                        values={"suffix": suffix or '(none)'})
    return SUFFIXES[suffix]


_EXPONENT = re.compile(rb"e-?[0-9]")
_SMALL = re.compile(rb"\.0000[0-9]")
_NUMBER = re.compile(rb"-?[0-9]+(?:\.[0-9]+)?(?:e-?[0-9]+)?")
_NUMBER_BYTES = frozenset(b"-0123456789.")
_BLANK = frozenset(b" \n")
_BEFORE_VALUE = frozenset(b":,[")


def _floats_as_python_writes_them(raw: bytes) -> bytes:
    """orjson's JSON with each float that orjson writes otherwise than Python's ``repr`` (an
    exponent: ``4.1e-6`` for ``4.1e-06``, ``1e16`` for ``1e+16``; a small number in full:
    ``0.000015`` for ``1.5e-05``) rewritten as ``repr`` writes it. Both write the shortest digits
    that read back as the same float, so ``repr(float(token))`` is Python's text for it. The
    rewrite passes over a number in a string's text unless, as a value does, it follows ``:``, ``,``
    or ``[`` (white space between): a formula's ``x 1e6;`` was rewritten to ``x 1000000.0;``, the
    check in :func:`json_text` failed, and the answer was written by Python's indenting encoder (a
    70B serving answer: 50 ms of 0.3 s). It may still touch a string's text (``"a: 1e6"``), alike in
    the compact and the indented form; :func:`json_text` compares before trusting it."""
    spans: dict[int, int] = {}
    for pattern in (_EXPONENT, _SMALL):
        for hit in pattern.finditer(raw):
            start = hit.start()
            while start and raw[start - 1] in _NUMBER_BYTES:
                start -= 1
            token = _NUMBER.match(raw, start)
            if token is not None and token.end() > hit.start() and _value_at(raw, start):
                spans[start] = token.end()
    if not spans:
        return raw
    parts: list[bytes] = []
    done = 0
    for start in sorted(spans):
        if start < done:
            continue
        parts += [raw[done:start], repr(float(raw[start:spans[start]])).encode()]
        done = spans[start]
    parts.append(raw[done:])
    return b"".join(parts)


def _value_at(raw: bytes, start: int) -> bool:
    """Whether a token at ``start`` stands where a JSON value may: after ``:``, ``,`` or ``[`` and
    any spaces and newlines (the indented form's), or at the start."""
    while start and raw[start - 1] in _BLANK:
        start -= 1
    return not start or raw[start - 1] in _BEFORE_VALUE


def json_text(data: Any) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False)`` and a newline, byte for byte, written by
    orjson where that gives the same bytes: Python's indenting encoder is pure Python (50 ms of a
    full-catalog recommendation's JSON), its compact one is C. orjson writes some floats otherwise
    (``4.1e-6``, ``0.000015``: most training answers have one); those are rewritten as Python
    writes them (:func:`_floats_as_python_writes_them`). Where the two compact forms then agree,
    every key, string and number is written alike (JSON reads one way only) and the rewrite
    touched numbers alone (indenting adds only white space outside strings, so it rewrites the
    same tokens in the indented form), so orjson's indented form is json's; where they do not (NaN,
    an integer past 64 bits, a key that is not a string), json writes it. Here, not in
    :mod:`.report`: a JSON answer needs none of the report's views and templates."""
    import json

    import orjson

    try:
        compact = _floats_as_python_writes_them(orjson.dumps(data))
        if compact == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode():
            return _floats_as_python_writes_them(orjson.dumps(data, option=orjson.OPT_INDENT_2)).decode() + "\n"
    except (TypeError, ValueError):  # orjson cannot write it (a lone surrogate cannot be encoded either)
        pass
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
