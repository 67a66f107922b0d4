"""A number field given with its unit written out, as a tired user writes it from a model card, a dashboard or
an engine's flag: ``params_b: 8B`` or ``70b``, ``params_b: 8e9`` (the parameters counted, not in billions),
``p95_ttft_s: 500ms``, ``max_tpot_ms: 0.05s``, ``requests_per_s: 120/min``. Pydantic's refusal said only
'unable to parse string as a number' or 'less than or equal to 100000' (hostile round 43); the field's name says
its unit, so the refusal offers the number in it. Nothing is read silently: the value is still refused."""

from __future__ import annotations

import re
from typing import Any

from ..errors import N_
from .notation import PLAIN, Meant

_WITH_UNIT = re.compile(rf"\s*(?P<num>{PLAIN.pattern})\s*(?P<unit>[^\d\s.+-].*?)\s*", re.ASCII)

#: The units a size in billions of parameters is written with, in billions.
_SIZE = {"b": 1.0, "bn": 1.0, "billion": 1.0, "m": 1e-3, "million": 1e-3, "t": 1e3, "trillion": 1e3}
#: The units a time is written with, in seconds.
_TIME = {"ms": 1e-3, "msec": 1e-3, "milliseconds": 1e-3, "millisecond": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6,
         "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "min": 60.0, "minute": 60.0,
         "minutes": 60.0}
#: The units a request rate is written with, in requests a second.
_RATE = {"/s": 1.0, "/sec": 1.0, "rps": 1.0, "qps": 1.0, "req/s": 1.0, "requests/s": 1.0, "per second": 1.0,
         "/min": 1 / 60, "rpm": 1 / 60, "req/min": 1 / 60, "requests/min": 1 / 60, "per minute": 1 / 60,
         "/h": 1 / 3600, "/hr": 1 / 3600, "/hour": 1 / 3600, "req/h": 1 / 3600, "per hour": 1 / 3600}

_SAID = {
    "size": N_("%(given)s: %(field)s is the size in billions of parameters, a number: write %(meant)s"),
    "s": N_("%(given)s: %(field)s is a number of seconds: write %(meant)s"),
    "ms": N_("%(given)s: %(field)s is a number of milliseconds: write %(meant)s"),
    "rate": N_("%(given)s: %(field)s is a number of requests a second: write %(meant)s"),
}


def _kind(name: str) -> tuple[str, dict[str, float], float] | None:
    """The unit a field's name gives it: its kind, the units it may be written in and its own unit's size."""
    if name.endswith("params_b"):
        return "size", _SIZE, 1.0
    if name.endswith("requests_per_s"):
        return "rate", _RATE, 1.0
    if re.search(r"_(ttft|tpot)_s$", name):
        return "s", _TIME, 1.0
    if re.search(r"_(ttft|tpot)_ms$", name):
        return "ms", _TIME, 1e-3
    return None


def _number(v: float) -> str:
    return f"{v:.6g}"


def raise_unit_written(v: Any, name: str) -> None:
    """Refuse ``v`` for the field ``name`` where it is a number written with a unit the field's name fixes
    (offering it in the field's unit), or a parameter count given to a size in billions; else return."""
    kind = _kind(name)
    if kind is None:
        return
    what, units, own = kind
    try:  # a count of parameters: 1e6 (a million, 0.001 B) up to 1e15 (a million billion, past the field's bound)
        count = float(v) if isinstance(v, str) and PLAIN.fullmatch(v.strip()) else (
            float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None)
    except OverflowError:  # 10**400 written out: the field's own bound says it
        count = None
    if what == "size" and count is not None and 1e6 <= count <= 1e15:
        raise Meant(N_("%(given)s is a count of parameters, and %(field)s is in billions: write %(meant)s"),
                    given=repr(v) if isinstance(v, str) else f"{count:,.0f}", field=name, meant=_number(count / 1e9))
    if not isinstance(v, str):
        return
    m = _WITH_UNIT.fullmatch(v)
    if m is None:
        return
    unit = " ".join(m.group("unit").lower().split())
    scale = units.get(unit) or (units.get(unit.rstrip("s")) if what == "size" else None)
    if scale is None:
        return
    raise Meant(_SAID[what], given=repr(v), field=name, meant=_number(float(m.group("num")) * scale / own))
