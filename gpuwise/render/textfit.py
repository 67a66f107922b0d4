"""Plain text that fits the terminal: the width to write for, tables laid out to it (their widest
text columns wrapped inside the cell, or stacked as label/value pairs when even that cannot fit),
and sentences wrapped with a hanging indent.

Widths are display columns: a Chinese character takes two (:func:`display_width`), and Chinese
text may break between any two characters, English only at spaces; no line starts with a closing
mark ('，', '）') or ends with an opening one ('（', '('), as Chinese typesetting keeps them (kinsoku).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import sys
from bisect import bisect_right
from collections.abc import Iterable
from itertools import accumulate
from typing import Any

from .fmt import display_width
from .words import times

DEFAULT_WIDTH = 80
"""Columns written for when the output is not a terminal and ``COLUMNS`` does not say."""
MIN_WIDTH, MAX_WIDTH = 40, 400


def _is_cjk(ch: str) -> bool:
    """Whether the character ``ch`` is Chinese (or Japanese, Korean) script or punctuation:
    U+2E80-9FFF (radicals, punctuation, kana, ideographs), U+F900-FAFF, U+FF00-FFEF (full-width
    forms). Compared, not matched by a character class: compiling that class was 3-4 ms of every
    process."""
    return "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff" or "\uff00" <= ch <= "\uffef"


def _has_cjk(text: str) -> bool:
    return bool(text) and max(text) >= "\u2e80" and any(map(_is_cjk, text))


_CLOSING = set("，。；：！？）」』】〕》〉、”’.,;:!?)]")
"""Punctuation that stays with the character before it."""
_OPENING = set("（「『【〔《〈“‘([")
"""Brackets and quotes that stay with the character after them (kinsoku: no line ends with one)."""
_HANG = re.compile(r"^(\s*)(?:(\[[^\]]+\]\s|[-*!]\s|\d+\.\s)|(\S(?:.*?\S)?\s{2,}(?=\S)))")
"""What a continuation line lines up under: a bullet's or tag's text, or a label/value line's value."""


def terminal_width(width: int | None = None, stream: Any = None) -> int:
    """The columns to write for: ``width`` when given, else ``COLUMNS``, else the terminal's width
    when ``stream`` (standard output) is one, else 80."""
    if width is None:
        env = os.environ.get("COLUMNS", "").strip()
        if env.isdigit() and int(env) > 0:
            width = int(env)
        else:
            out = stream if stream is not None else sys.stdout
            try:
                tty = out.isatty()
            except (AttributeError, ValueError):
                tty = False
            width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns if tty else DEFAULT_WIDTH
    return max(MIN_WIDTH, min(MAX_WIDTH, int(width)))


_PIECES = re.compile(r"\s+|[^\s]+")


def _tokens(text: str) -> list[str]:
    """Words and the spaces between them; each Chinese character is a token of its own."""
    if text.isascii():  # no Chinese character: the words and spaces as they are
        return _PIECES.findall(text)
    out: list[str] = []
    for piece in _PIECES.findall(text):
        if piece.isspace() or not _has_cjk(piece):
            out.append(piece)
            continue
        buf = ""
        for ch in piece:
            if ch in _CLOSING and (buf or out):  # never at the start of a line
                if buf:
                    buf += ch
                    if _is_cjk(ch):  # a line may break after a full-width mark: a list of rule ids
                        out.append(buf)  # joined by '，' was one word, cut inside an id
                        buf = ""
                else:
                    out[-1] += ch
                continue
            if _is_cjk(ch):
                if buf:
                    out.append(buf)
                    buf = ""
                out.append(ch)
            else:
                buf += ch
        if buf:
            out.append(buf)
    return _openings_joined(out)


def _openings_joined(tokens: list[str]) -> list[str]:
    """``tokens`` with each that ends in an opening bracket or quote joined to the word or character
    after it (not across a space), so that no line ends with '（' or '(' and its text starts the next."""
    out: list[str] = []
    for tok in tokens:
        if out and out[-1][-1] in _OPENING and not tok.isspace() and not out[-1].isspace():
            out[-1] += tok
        else:
            out.append(tok)
    return out


_columns = functools.lru_cache(maxsize=1 << 16)(display_width)
"""A character's columns, kept per character (called from C by ``map``: no Python frame a character)."""


def _cut(tok: str, at: int, left: int) -> tuple[int, int]:
    """Where the piece of ``tok`` from ``at`` that fills ``left`` columns ends, and its width: the
    most characters whose widths add up to ``left`` at most, one at least (even a wide one). Only the
    next ``left`` characters are measured (none takes less than a column), their running widths
    summed and searched in C: measuring what was left of a 3.8 MB word past ASCII after every line
    was quadratic (an audit of a seller's report with such a VBIOS version ran out of memory)."""
    widths = list(accumulate(map(_columns, tok[at:at + max(1, left)])))
    n = max(1, bisect_right(widths, left))
    return at + n, widths[n - 1]


def wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` in lines of at most ``width`` columns, the first prefixed ``first``, the others
    ``rest`` (``first``'s width in spaces by default). A word longer than a line is cut. Widths add
    up character by character, so the line's is kept as it grows (measuring it anew for every word
    made a long paragraph quadratic). A text that fits on the first line is that line at once (most
    table cells and sentences): its words joined by single spaces, as the loop below gives them (not
    for a text past ASCII that starts with a space, whose spaces before a closing mark stay as
    they are)."""
    flat = " ".join(text.split())
    if (text.isascii() or not text.startswith(" ")) and display_width(flat) <= max(1, width - display_width(first)):
        return [first + flat]
    rest = " " * display_width(first) if rest is None else rest
    lines: list[str] = []
    line, prefix = "", first
    line_w = 0  # display_width(line)

    def room(p: str) -> int:
        return max(1, width - display_width(p))

    left = room(prefix)
    for tok in _tokens(" ".join(text.split()) if not text.startswith(" ") else text.strip()):
        if tok.isspace():
            if line:
                line += " "
                line_w += 1
            continue
        tok_w = display_width(tok)
        if tok_w > left:  # cut a word that no line holds, from a moving start (not copying what is left
            # of it for every line: a seller's 3.8 MB serial took 10 CPU-s to cut into lines)
            plain, at = tok.isascii() and tok.isprintable(), 0  # one column a character
            while tok_w > left:
                if line.strip():
                    lines.append(prefix + line.rstrip())
                    line, prefix, line_w = "", rest, 0
                    left = room(prefix)
                if plain:
                    end = min(len(tok), at + max(1, left))
                    w = end - at
                else:
                    end, w = _cut(tok, at, left)
                lines.append(prefix + tok[at:end])
                at, prefix = end, rest
                left, tok_w = room(prefix), tok_w - w  # widths add up character by character
            tok = tok[at:]
        if line_w + tok_w > left and line.strip():
            lines.append(prefix + line.rstrip())
            line, prefix, line_w = "", rest, 0
            left = room(prefix)
        line += tok
        line_w += tok_w
    if line.strip() or not lines:
        lines.append(prefix + line.rstrip())
    return lines


def wrap_line(line: str, width: int) -> list[str]:
    """A line of a report that is too wide, wrapped: continuation lines hang under the text of a
    bullet or ``[tag]``, or under the value of a ``label   value`` line."""
    if display_width(line) <= width:
        return [line]
    if line.startswith("=== ") and line.endswith(" ===") and len(line) > 8:  # a heading keeps its closing mark
        lines = wrap(line[4:-4], width - 4, "=== ", "    ")
        return [*lines[:-1], lines[-1] + " ==="]
    m = _HANG.match(line)
    if m and (m.group(2) or m.group(3)):
        head = line[: m.end()]
        hang = display_width(head)
        if hang > width // 2:  # a label too wide to hang under: indent a little instead
            hang = display_width(m.group(1)) + 4
        return wrap(line[m.end():], width, head, " " * hang)
    indent = line[: len(line) - len(line.lstrip())]
    return wrap(line.lstrip(), width, indent, indent + "  ")


def fit_text(text: str, width: int) -> str:
    """Every line of a text report at most ``width`` columns. A line too wide is wrapped once per
    process (:func:`_wrapped`): a brief answer that does not fit two screens is placed again, saying
    less each time, and most of its lines are the same each time."""
    out: list[str] = []
    for line in text.split("\n"):
        if display_width(line) <= width:
            out.append(line)
        else:
            out += _wrapped(line, width)
    return "\n".join(out)


@functools.lru_cache(maxsize=2048)
def _wrapped(line: str, width: int) -> tuple[str, ...]:
    """:func:`wrap_line` of a line (a function of the line and the width alone), kept."""
    return tuple(wrap_line(line, width))


def fit_table(headers: list[str], rows: list[list[str]], right: Iterable[int], width: int,
              whole: Iterable[int] = ()) -> list[str]:
    """A table's text lines within ``width`` columns: as it is when it fits; else its widest
    columns wrapped inside their cells (each at least 12 columns); else each row stacked as its
    first cell, then ``header: value`` lines. A ``whole`` column is never wrapped: an id the user types
    (review65: ``gpuwise gpus`` at 120 columns split 'radeon-pro-w79' / '00' and 'gaudi3-128gb-o' / 'am')."""
    right, whole = set(right), set(whole)
    cols = len(headers)
    natural = [max([display_width(headers[i])] + [display_width(r[i]) for r in rows if i < len(r)])
               for i in range(cols)]
    gap = 2
    if sum(natural) + gap * (cols - 1) <= width:
        return _grid(headers, rows, right, natural)
    # the narrowest each column may become: a column of numbers (right-aligned) keeps its figures
    # whole, a text column its longest word (up to 14); a header wraps at its spaces
    def longest_word(i: int) -> int:
        return max([display_width(w) for r in [headers, *rows] if i < len(r) for w in _tokens(r[i])
                    if not w.isspace()] or [1])

    floor = [max(display_width(r[i]) for r in rows if i < len(r)) if i in right and rows else
             min(natural[i], max(8, min(14, longest_word(i)))) for i in range(cols)]
    floor = [max(f, max((display_width(w) for w in headers[i].split()), default=1)) for i, f in enumerate(floor)]
    floor = [natural[i] if i in whole else f for i, f in enumerate(floor)]
    stacked = _stacked(headers, rows, width)
    if sum(floor) + gap * (cols - 1) > width:
        return stacked
    widths = _narrowed(natural, floor, width - gap * (cols - 1))
    grid = _grid(headers, rows, right, widths)
    return grid if len(grid) <= len(stacked) else stacked


def _narrowed(natural: list[int], floor: list[int], room: int) -> list[int]:
    """Column widths summing to ``room`` at most: the widest column above its floor loses a column
    at a time, the first of equally wide ones first. Taken a level at a time over all the equally
    wide columns, not a column at a time: a seller's 3.8 MB VBIOS version made a cell 3.8 million
    columns wide, and the loop of one column a step ran 3.8 million times (14 CPU-s for one audit)."""
    widths = list(natural)
    excess = sum(widths) - room
    while excess > 0:
        top = max(widths[k] for k in range(len(widths)) if widths[k] > floor[k])
        at_top = [k for k in range(len(widths)) if widths[k] == top and widths[k] > floor[k]]
        below = [widths[k] for k in range(len(widths)) if floor[k] < widths[k] < top]
        stop = max([*below, *(floor[k] for k in at_top)])  # the level where another column joins or one stops
        levels = min(top - stop, excess // len(at_top))
        if levels == 0:  # less than one level left: the first columns give one more each
            for k in at_top[:excess]:
                widths[k] -= 1
            break
        for k in at_top:
            widths[k] -= levels
        excess -= levels * len(at_top)
    return widths


def _grid(headers: list[str], rows: list[list[str]], right: set[int], widths: list[int]) -> list[str]:
    def lines(cells: list[str]) -> list[str]:
        parts = [wrap(cells[i] if i < len(cells) else "", widths[i]) for i in range(len(widths))]
        out = []
        for k in range(max(len(p) for p in parts)):
            row = []
            for i, p in enumerate(parts):
                cell = p[k] if k < len(p) else ""
                pad = " " * (widths[i] - display_width(cell))
                row.append(pad + cell if i in right else cell + pad)
            out.append("  ".join(row).rstrip())
        return out

    body = [line for r in rows for line in lines(r)]
    return [*lines(headers), "  ".join("-" * w for w in widths), *body]


def _stacked(headers: list[str], rows: list[list[str]], width: int) -> list[str]:
    """Each row as its first cell, then its other cells as ``header: value`` on wrapped lines."""
    colon = "：" if any(map(_has_cjk, headers)) else ": "
    sep = "；" if colon == "：" else "; "
    out: list[str] = []
    for r in rows:
        out += wrap(r[0] if r else "", width)
        said = [f"{h}{colon}{v}" if h else v for h, v in zip(headers[1:], r[1:], strict=False) if v]
        if said:
            out += _pairs(said, sep, width, "    ")
    return out


def _pairs(said: list[str], sep: str, width: int, indent: str) -> list[str]:
    """``header: value`` pairs joined by ``sep`` on lines of ``width`` columns, a line broken between pairs:
    wrapping the joined text word by word broke inside a pair, a label on one line and its figure on the next
    ('TDP:' / '300', 'provider' / '/ item: ...' in a 60-column `gpuwise gpus` and `gpuwise prices`, review59).
    A pair longer than a line is wrapped by itself."""
    room = max(1, width - display_width(indent))
    joint = " " if sep.endswith(" ") else ""
    out: list[str] = []
    line = ""
    for i, pair in enumerate(said):
        piece = " ".join(pair.split()) + (sep.rstrip() if i < len(said) - 1 else "")
        if line and display_width(line) + len(joint) + display_width(piece) <= room:
            line += joint + piece
            continue
        if line:
            out.append(indent + line)
        if display_width(piece) <= room:
            line = piece
        else:
            lines = wrap(piece, width, indent)
            out += lines[:-1]
            line = lines[-1][len(indent):]
    if line:
        out.append(indent + line)
    return out


def fit_tables(vm: Any, width: int) -> Any:
    """The view model with every table's text lines laid out for ``width`` columns (the text
    templates indent a table by two)."""
    if isinstance(vm, dict):
        if "headers" in vm and "rows" in vm and "lines" in vm:
            # one multiplication sign before the cells wrap: a wrap between '16' and 'x H100' leaves no ' x ' for
            # the page's times() to find (review56: a zh batch summary's title read '(16\n x H100)')
            rows = [[times(c) if isinstance(c, str) else c for c in r["cells"]] for r in vm["rows"]]
            vm = {**vm, "lines": fit_table(vm["headers"], rows, vm.get("right", ()), width - 2)}
        return {k: fit_tables(v, width) if isinstance(v, (dict, list)) else v for k, v in vm.items()}
    if isinstance(vm, list):
        return [fit_tables(v, width) if isinstance(v, (dict, list)) else v for v in vm]
    return vm
