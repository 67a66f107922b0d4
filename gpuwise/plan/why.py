"""Why a GPU type cannot take a plan's workload, or why a workload was left unplaced: what failed (a
kind the plan's binding constraints are sorted by, never read back from the words) and what to say,
as message ids with values (reports/messages.yaml ``plan.why.*``, ``plan.unplaced.*``), worded in
each report's language from them."""

from __future__ import annotations

from typing import Any, Literal

from ..frozen import frozen
from ..messages import Phrase, phrase_text

Kind = Literal["memory", "deadline", "latency", "estimate", "software", "owned", "unplaced", "price"]


@frozen
class Why:
    """A reason: its kind and its words (``parts``); ``text`` is the English."""

    kind: Kind
    parts: tuple[Phrase, ...]

    @property
    def text(self) -> str:
        return phrase_text(self.parts)


def why(kind: Kind, message_id: str, **values: Any) -> Why:
    """A reason of one message."""
    return Why(kind, (("", message_id, values),))


def joined(reasons: list[Why], sep: str = "; ") -> tuple[Phrase, ...]:
    """Several reasons' parts, one after another, ``sep`` between them."""
    out: list[Phrase] = []
    for r in reasons:
        first, *rest = r.parts
        out.append((sep if out else "", first[1], first[2]))
        out += rest
    return tuple(out)
