"""Report formats and detail levels: the names a user may give and the file suffixes that imply
them (shared by the report writer and the output-file helpers, so neither imports the other)."""

from __future__ import annotations

import os
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


def json_text(data: Any) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=False)`` and a newline, byte for byte, written by
    orjson where that gives the same bytes: Python's indenting encoder is pure Python (40 ms of a
    full-catalog recommendation's JSON), its compact one is C. Where the two compact forms agree,
    every key, string and number is written alike (JSON reads one way only), so orjson's indented
    form is json's; where they do not (a float Python writes as ``1e-05``, NaN, an integer past 64
    bits, a key that is not a string), json writes it. Here, not in :mod:`.report`: a JSON answer
    needs none of the report's views and templates."""
    import json

    import orjson

    try:
        if orjson.dumps(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode():
            return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n"
    except (TypeError, ValueError):  # orjson cannot write it (a lone surrogate cannot be encoded either)
        pass
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
