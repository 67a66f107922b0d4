"""What build.py, build_real.py and build_more.py share: the real reports they start from (the
folder above) and one checked way to edit them."""

from __future__ import annotations

import re
from pathlib import Path

BASES = Path(__file__).parent.parent


def read(name: str) -> str:
    return (BASES / name).read_text(encoding="utf-8")


def sub(text: str, *edits: tuple[str, str], count: int = 1) -> str:
    """Each (regex, replacement) must change the text, so an edit never silently misses."""
    for pattern, repl in edits:
        changed = re.sub(pattern, repl, text, count=count)
        if changed == text:
            raise SystemExit(f"edit did not apply: {pattern!r}")
        text = changed
    return text
