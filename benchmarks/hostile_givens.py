"""The corpus's shared inputs, as a later round's ``add(case, ns)`` takes them from the corpus's
namespace: one list of names, so that every round unpacks the same inputs in the same order."""

from __future__ import annotations

from typing import Any

GIVEN = ("LORA", "PROP", "PLAN", "SMI", "CUDA_RULE", "USED", "CSV", "patched", "smi", "wl", "_prop", "_plan")
"""The corpus globals a round reads: the example texts, the edit helpers and the parsed proposal and plan."""


def givens(ns: dict[str, Any]) -> tuple[Any, ...]:
    """:data:`GIVEN` from ``ns``, then the text of the rejected proposal example (``REJECT``)."""
    return (*(ns[k] for k in GIVEN), (ns["EX"] / "proposal-16x4090-70b-full.yaml").read_text())
