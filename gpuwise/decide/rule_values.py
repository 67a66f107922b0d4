"""The values a house rule's conditions compare a fact field with, checked against the field's kind
(a number, yes/no, text or one of a field's choices) when the rule file is loaded, and the way a
condition or value is quoted back in a complaint (gpuwise/decide/rulebook.py checks the rest)."""

from __future__ import annotations

import re
from typing import Any, Literal

from ..errors import N_, Said, Term, either

_DATE = re.compile(r"datetime\.date\((\d+), (\d+), (\d+)\)")


def _clip(value: Any, limit: int = 80) -> str:
    """A condition or value as the rule file has it: a date YAML read is 2026-01-01, not Python's
    ``datetime.date(2026, 1, 1)``."""
    text = _DATE.sub(lambda m: f"{int(m[1]):04d}-{int(m[2]):02d}-{int(m[3]):02d}", repr(value))
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _close(name: str, names: set[str]) -> str:
    """The name of ``names`` nearest ``name`` ("" when none is near)."""
    import difflib

    close = difflib.get_close_matches(name, sorted(names), n=1)
    return close[0] if close else ""



def _is_text(fact: str, name: str) -> bool:
    """Whether a fact field holds text (its placeholder's format is then a text format)."""
    from .facts import FACT_MODELS

    model = FACT_MODELS.get(fact)
    info = model.model_fields.get(name) if model is not None else None
    return info is not None and info.annotation is str


def _digits_as_written(value: Any) -> Any:
    """A whole number a text field is tested equal to (``==``, ``!=``, ``in``) is the text it was written as: a
    board serial of digits unquoted (``[serial, ==, 1324620012345]``, leading zeros kept from ``0123``) was
    refused ('serial is text'), though a proposal takes the same serial unquoted (gpuwise/inputs/proposal.py).
    Other numbers (``12.5``), yes/no and an order (``[serial, >, 5]``) stay for the kind check to refuse."""
    if isinstance(value, list):
        return [_digits_as_written(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return getattr(value, "written", None) or str(value)
    return value


def _kind(fact: str, name: str) -> str | None:
    """``number``, ``bool``, ``str`` or None (unknown, or another kind) for a fact field: a number
    compared with a text field (``[mem_temp_c, ">=", "$mem_type"]``) was read and never matched."""
    from .facts import FACT_MODELS

    model = FACT_MODELS.get(fact)
    info = model.model_fields.get(name) if model is not None else None
    kind = info.annotation if info is not None else None
    return "number" if kind in (int, float) else kind.__name__ if kind in (bool, str) else None


def _same_kind(fact: str, name: str, item: Any, cond: list[Any]) -> None:
    """A literal must be of its field's kind: ``[need_gb, ">", true]`` compared a size with 1,
    ``[need_gb, ">", "12"]`` or ``1:30`` (text in YAML 1.1) never matched, and a misspelt choice
    (``[acquisition, ==, biy]``) silently disabled the rule."""
    import typing

    from ..inputs.notation import meant
    from .facts import FACT_MODELS

    model = FACT_MODELS.get(fact)
    info = model.model_fields.get(name) if model is not None else None
    if info is None:
        return
    kind = info.annotation
    if kind in (int, float):
        ok, word = isinstance(item, int | float) and not isinstance(item, bool), Term(N_("a number"))
    elif kind is bool:
        ok, word = isinstance(item, bool), Term(N_("true or false"))
    elif kind is str:
        ok, word = isinstance(item, str), Term(N_("text"))
    elif typing.get_origin(kind) is Literal:
        choices = typing.get_args(kind)
        if item in choices and not isinstance(item, bool):
            return
        close = _close(str(item), set(map(str, choices)))
        if close:
            raise Said(N_("'%(item)s' is not a value of '%(name)s' (did you mean '%(close)s'?) in %(cond)s"),
                       item=str(item)[:40], name=name, close=close, cond=_clip(cond))
        raise Said(N_("'%(item)s' is not a value of '%(name)s' (one of %(choices)s) in %(cond)s"),
                   item=str(item)[:40], name=name, choices=either(choices, commas=True), cond=_clip(cond))
    else:
        return
    said = meant(item) if kind in (int, float) and isinstance(item, str) else None
    if said is not None:  # '0x10', '1_6', '１６': say what it would have meant
        raise Said(N_("%(said)s, in %(cond)s"), said=said, cond=_clip(cond))
    if not ok:
        raise Said(N_("'%(name)s' is %(word)s; %(item)s is not, in %(cond)s"), name=name, word=word,
                   item=_clip(item, 40), cond=_clip(cond))
