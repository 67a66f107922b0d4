"""The corpus's shared inputs, as a later round's ``add(case, ns)`` takes them from the corpus's
namespace: one list of names, so that every round unpacks the same inputs in the same order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

GIVEN = ("LORA", "PROP", "PLAN", "SMI", "CUDA_RULE", "USED", "CSV", "patched", "smi", "wl", "_prop", "_plan")
"""The corpus globals a round reads: the example texts, the edit helpers and the parsed proposal and plan."""


def givens(ns: dict[str, Any]) -> tuple[Any, ...]:
    """:data:`GIVEN` from ``ns``, then the text of the rejected proposal example (``REJECT``)."""
    return (*(ns[k] for k in GIVEN), (ns["EX"] / "proposal-16x4090-70b-full.yaml").read_text())


def api_fx_refused(command: str, file: str, fx_rate: Any):
    """A check that ``gpuwise.<command>(<the case's file>, fx_rate=...)`` from Python raises the package's own
    one-line error naming fx_rate, never a ZeroDivisionError or ValueError from deep inside."""
    def check(r) -> bool:
        import gpuwise
        from gpuwise.errors import UserError
        try:
            getattr(gpuwise, command)(str(Path(r.cwd, file)), fx_rate=fx_rate)
        except UserError as e:
            return "fx_rate" in str(e) and "\n" not in str(e)
        except Exception:
            return False
        return False
    return check
