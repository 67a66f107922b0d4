"""The exceptions that cross the CLI boundary.

A ``UserError`` is bad input: it becomes one line on stderr and exit status 2.
Anything else reaching the CLI is a bug in gpuwise.
"""

from __future__ import annotations

import functools
import gettext
from collections.abc import Callable
from pathlib import Path
from typing import Any


class GpuwiseError(Exception):
    """Base of every error gpuwise raises on purpose."""


def N_(text: str) -> str:
    """Marks an error's English template for the translation catalog (``pybabel extract -k N_``):
    the template is the msgid; it is translated only when the line is shown."""
    return text


@functools.cache
def _catalog(lang: str) -> gettext.NullTranslations:
    """The report catalog (``gpuwise/render/locale``) for ``lang``; English: none."""
    locale = {"zh": "zh_CN"}.get(lang)
    if locale is None:
        return gettext.NullTranslations()
    try:
        return gettext.translation("gpuwise", localedir=str(Path(__file__).parent / "render" / "locale"),
                                   languages=[locale])
    except OSError:  # no compiled catalog: the English line still says what is wrong
        return gettext.NullTranslations()


class Either(tuple):
    """Choices a message offers ("a or b or c", "'a', 'b' or 'c'"), worded in the line's language
    (the names themselves stay as written). ``commas``: commas between all but the last two."""

    commas = False

    def words(self, lang: str) -> str:
        items = [str(x) for x in self]
        if len(items) < 2:
            return "".join(items)
        if lang == "zh":
            return "、".join(items[:-1]) + " 或 " + items[-1]
        return (", ".join(items[:-1]) + " or " + items[-1]) if self.commas else " or ".join(items)


class Clauses(tuple):
    """Sentences (each a :class:`Said`) that make one message's value, one clause each, worded in the
    line's language and joined as clauses ("a; b", "a；b")."""

    def words(self, lang: str) -> str:
        return ("; " if lang == "en" else "；").join(s.words(lang) for s in self)


def either(items: Any, *, commas: bool = False) -> Either:
    e = Either(items)
    e.commas = commas
    return e


class Said(ValueError):
    """A validator's complaint (a pydantic validator's, a rule check's) as a catalog message: its
    English template (marked ``N_()``, ``%(name)s`` placeholders) and values. ``str()`` is the English
    sentence, as a plain ``ValueError`` would have it; the one-line error that quotes it shows it in
    the language asked for (:meth:`words`)."""

    def __init__(self, template: str, **values: Any):
        self.template, self.values = template, values
        super().__init__(_say(template, values or None, "en"))

    def words(self, lang: str) -> str:
        return _say(self.template, self.values or None, lang)


class SaidAt(Said):
    """A whole file's check that judges one field (an ``at_month`` past the file's horizon, a name
    used twice): ``at`` is that field's place, e.g. ``("workloads", 1, "cadence", "at_month")``, so
    the one-line error names it as a field's own check would, not '(top level)'."""

    def __init__(self, at: tuple[str | int, ...], template: str, **values: Any):
        self.at = at
        super().__init__(template, **values)


class Term(str):
    """A word a message's value is (``a condition``, marked ``N_()``): English as a ``str``, the
    catalog's in another language."""

    def words(self, lang: str) -> str:
        return _say(str(self), None, lang)


def _say(template: str | tuple[str, ...], values: dict[str, Any] | None, lang: str) -> str:
    """``template`` in ``lang``, filled with ``values`` (``%(name)s``); a template without values is
    shown as written (it may hold a literal ``%``). A translation that lost a placeholder falls back
    to the English, never to a traceback. A tuple of templates is one clause each, joined."""
    if isinstance(template, tuple):
        return ("; " if lang == "en" else "；").join(_say(t, values, lang) for t in template)
    if not template:
        return template
    text = _catalog(lang).gettext(template) if lang != "en" else template
    if values is None:
        return text
    values = {k: v.words(lang) if isinstance(v, (Either, Said, Term, Clauses)) else v for k, v in values.items()}
    try:
        return text % values
    except (KeyError, TypeError, ValueError):
        return template % values


class UserError(GpuwiseError):
    """Bad input or usage: names the file, the field and what is wrong.

    ``where`` is the file (and field) the problem is in; ``hint`` says how to fix it. A message or
    hint marked ``N_()`` with ``values`` / ``hint_values`` (``%(name)s`` placeholders) is shown in
    the language asked for (:meth:`line`); the file, field and names given stay as written.
    """

    def __init__(self, message: str | tuple[str, ...], *, where: str | None = None, hint: str | None = None,
                 values: dict[str, Any] | None = None, hint_values: dict[str, Any] | None = None,
                 msgid: str | tuple[str, ...] | None = None, tail: str | None = None,
                 tail_values: dict[str, Any] | None = None):
        # msgid: the catalog's template when the English line is another's words as written (pydantic's)
        self.template, self.values = msgid or message, values
        # tail: a clause after the hint, which belongs to the message ('1 more problem': the file's others)
        self.tail_template, self.tail_values = tail, tail_values
        self.hint_template, self.hint_values = hint, hint_values
        self.message = message if isinstance(message, str) and msgid else _say(message, values, "en")
        self.where = where
        self.hint = _say(hint, hint_values, "en") if hint is not None else None
        super().__init__(self.line())

    def line(self, lang: str = "en") -> str:
        """The one line for stderr, in ``lang`` (``en``, ``zh``)."""
        message = self.message if lang == "en" else _say(self.template, self.values, lang)
        hint = self.hint if lang == "en" or self.hint_template is None else _say(
            self.hint_template, self.hint_values, lang)
        text = f"{self.where}: {message}" if self.where else message
        if hint:
            text += f" ({hint})" if lang == "en" else f"（{hint}）"
        if self.tail_template:
            text += ("; " if lang == "en" else "；") + _say(self.tail_template, self.tail_values, lang)
        return " ".join(text.split())


class KnowledgeError(UserError):
    """A knowledge file (built-in or overlay) is malformed."""


class RuleError(UserError):
    """A rule file is malformed."""


class SetupError(GpuwiseError):
    """gpuwise or a dependency is installed in a way that cannot work (durable-rules built without
    the Python 3.13 flag, say): one line with the fix, exit status 3, not reported as a bug."""


class EngineError(GpuwiseError):
    """The rule engine failed inside an action: a bug, surfaced rather than lost."""


MAX_MESSAGE = 2000


def field_path(loc: Any, name: Any = str) -> str:
    """A field's place in a file as every error names it: keys joined by dots, list positions in
    brackets (``owned[0].count``, ``used_cards[0].nvidia_smi``), as the knowledge loader and the
    seller-report checks write it; pydantic's ``owned.0.count`` was a second notation. ``name``
    words a key (clipped, say)."""
    out = ""
    for p in loc:
        if isinstance(p, int) and not isinstance(p, bool):
            out += f"[{p}]"
        else:
            out += ("." if out else "") + name(p)
    return out


def escaped(text: str, keep: Callable[[str], bool] = str.isprintable) -> str:
    """``text`` with every character ``keep`` refuses written as Python writes it in a string
    (``\\n``, ``\\x1b``, ``\\u0397``), so a name or message from a file never acts on the terminal."""
    return "".join(c if keep(c) else c.encode("unicode_escape").decode("ascii") for c in text)


def one_line(text: str) -> str:
    """One printable line, whatever a hostile file or path put in the message: whitespace (every
    line break included) collapsed, other control characters escaped (no terminal escapes reach the
    terminal), and the length capped (the file name comes first, so it survives)."""
    text = " ".join(text.split())
    text = escaped(text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."
