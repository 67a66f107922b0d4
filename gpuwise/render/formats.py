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


def json_text(result: Any) -> str:
    """A result as the contract's JSON (``model_dump(mode="json")``, indented, UTF-8 as written).
    Here, not in :mod:`.report`: a JSON answer needs none of the report's views and templates."""
    import json

    return json.dumps(result.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
