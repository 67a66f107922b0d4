"""Standard output and error that never fail on a character their encoding lacks, nor on a codec
that cannot encode at all: the streams gpuwise writes every report and error line to."""

from __future__ import annotations

import contextlib
import sys

_FALLBACK = {"×": "x", "¥": "Y", "€": "EUR ", "£": "GBP ", "–": "-", "—": "-", "−": "-", "≤": "<=",
             "≥": ">=", "≈": "~", "°": " deg", "µ": "u", "…": "...", "‘": "'", "’": "'", "“": '"', "”": '"',
             "→": "->", "←": "<-", "·": ".", "•": "*", "\u00a0": " ", "✓": "ok", "✗": "x"}


def _ascii_fallback(exc: UnicodeError) -> tuple[str, int]:
    """Where the terminal's encoding cannot show a character (``PYTHONIOENCODING=ascii``, a C
    locale), an ASCII stand-in (``×`` -> ``x``, ``¥`` -> ``CNY``), else ``?``: never a crash."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    import unicodedata

    out = []
    for ch in exc.object[exc.start:exc.end]:
        alt = _FALLBACK.get(ch)
        if alt is None:
            alt = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode() or "?"
        out.append(alt)
    return "".join(out), exc.end


def safe_streams() -> None:
    """Standard output and error that never fail on a character their encoding lacks. A codec that
    takes no error handler (``PYTHONIOENCODING=idna``) or refuses every text (``undefined``) made
    the first line written raise, and Python then lost its standard error too: such a stream
    writes ASCII instead."""
    import codecs

    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")
        if stream is None or encoding in ("utf8", "utf8sig", "utf16", "utf32") or not hasattr(stream, "reconfigure"):
            continue
        try:
            codecs.lookup_error("gpuwise-ascii")
        except LookupError:
            codecs.register_error("gpuwise-ascii", _ascii_fallback)
        try:
            codecs.encode("gpuwise: \u00d7\u6a21\n", stream.encoding, "gpuwise-ascii")
            usable = True
        except (UnicodeError, LookupError, TypeError, ValueError):
            usable = False
        with contextlib.suppress(ValueError, OSError, AttributeError):
            if usable:
                stream.reconfigure(errors="gpuwise-ascii")
            else:
                stream.reconfigure(encoding="ascii", errors="gpuwise-ascii")
