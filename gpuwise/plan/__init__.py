"""``gpuwise plan``: a team's year of workloads on the GPUs it owns, bought and rented over months.

The plan file (:mod:`.schema`) lists the GPUs already owned and the workloads with their cadence;
each workload is sized per GPU type with the existing estimators (:mod:`.sizing`), a mixed-integer
program over the months chooses what to buy, when, and what to rent (:mod:`.solve`, HiGHS), the
rules of ``rules/plan.yaml`` judge the plan (:mod:`.judge`), and :mod:`.build` assembles the typed
result (:mod:`.result`). This ``__init__`` stays light: the fact vocabulary imports :mod:`.facts`.

``gpuwise.plan`` is both this package and the API function: once the package is imported, Python
binds the name ``gpuwise.plan`` to it, so the package itself is callable and does what the
function does (``gpuwise.plan("team.yaml")`` works either way).
"""

from __future__ import annotations

import sys
import types
from typing import Any


def plan(source: Any, *, knowledge: str | None = None, rules: str | None = None,
         currency: str | None = None, fx_rate: float | None = None) -> Any:
    """The plan for a plan file (a path, a dict or a :class:`~.schema.PlanFile`): a
    :class:`~.result.PlanResult`; ``fx_rate``: CNY per USD in place of the dated rate (``--fx-rate``)."""
    from .build import plan as _plan

    return _plan(source, knowledge=knowledge, rules=rules, currency=currency, fx_rate=fx_rate)


class _CallableModule(types.ModuleType):
    def __call__(self, source: Any, *, knowledge: str | None = None, rules: str | None = None,
                 currency: str | None = None, fx_rate: float | None = None) -> Any:
        return plan(source, knowledge=knowledge, rules=rules, currency=currency, fx_rate=fx_rate)


sys.modules[__name__].__class__ = _CallableModule
