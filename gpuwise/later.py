"""Records made when a report first reads them, in the ``gpuwise`` process that writes a report
from lean records (gpuwise/lean.py): a recommendation's candidates and its ledgers' lines.

A recommendation lists every candidate it judged (~150 for the whole catalog), each with its
reasons, memory breakdown, layout words and, for a service, its figures with the rules' verdicts
(:func:`gpuwise.decide.result.candidate_out`); a brief report reads a few fields of each (whether
it is feasible, its GPU, count, rank) and the whole record of a handful. Here a candidate starts
with those few fields and the way to make the rest; the first read of any other field (or of the
record as a whole: equality, hashing, iteration, copies, its representation, its fields set)
makes the record with ``candidate_out`` and takes over its fields, in their order, so what a
report reads is the record ``candidate_out`` makes. Likewise a ledger line starts with its kind
and amount (what a ledger's totals and the rules' figures read) and is worded -- its item, formula
and their message parts -- when read (gpuwise/ledger.py ``line``): ~600 lines a recommendation,
those of the few candidates shown read. JSON and every caller outside that process get the
records made at once (pydantic's classes: see :func:`later`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import lean

EAGER = ("gpu", "count", "acquisition", "feasible", "rank")
"""The fields a candidate starts with: what the result sorts candidates by and what a brief
report reads of every one (fmt._chosen, the feasible count)."""

_set = object.__setattr__
_get = object.__getattribute__
_CLASSES: dict[type, type] = {}


def later(cls: type, eager: dict[str, Any], make: Callable[[], Any]) -> Any:
    """A record of ``cls`` that holds ``eager`` (values equal to those ``make()``'s record holds)
    until another field is read, then ``make()``'s fields; ``make()`` itself where the records are
    pydantic's (JSON, the Python API, tests)."""
    if not lean.ENABLED or not issubclass(cls, lean.BaseModel):
        return make()
    sub = _CLASSES.get(cls)
    if sub is None:
        sub = _CLASSES[cls] = _later_class(cls)
    m = sub.__new__(sub)
    _set(m, "__dict__", dict(eager))
    _set(m, "__pydantic_fields_set__", set(eager))
    _set(m, "__pydantic_extra__", None)
    _set(m, "__pydantic_private__", make)  # the lean records keep nothing private: the maker waits here
    return m


def _fill(m: Any) -> bool:
    """Make the record's fields now, if not yet made; whether they were made by this call."""
    make = _get(m, "__pydantic_private__")
    if make is None:
        return False
    _set(m, "__pydantic_private__", None)
    whole = make()
    _set(m, "__dict__", _get(whole, "__dict__"))
    _set(m, "__pydantic_fields_set__", _get(whole, "__pydantic_fields_set__"))
    return True


def _later_class(base: type) -> type:
    """``base`` with its fields made on first use: every way of reading the record as a whole
    makes them first; a missing attribute makes them and is looked up again."""

    def getattr_(self: Any, name: str) -> Any:
        if _fill(self):
            return getattr(self, name)
        return base.__getattr__(self, name)  # type: ignore[attr-defined]

    def filled(name: str) -> Callable[..., Any]:
        method = getattr(base, name)

        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            _fill(self)
            return method(self, *args, **kwargs)

        call.__name__ = name
        return call

    def eq(self: Any, other: object) -> bool:  # equal to the record it stands for, as to another such
        _fill(self)
        if type(other) is type(self):
            _fill(other)
        if type(other) is type(self) or type(other) is base:
            return bool(_get(self, "__dict__") == _get(other, "__dict__"))
        return base.__eq__(self, other)  # type: ignore[no-any-return]

    ns: dict[str, Any] = {name: filled(name) for name in (
        "__hash__", "__iter__", "__repr__", "__copy__", "__deepcopy__", "model_copy", "__reduce_ex__")}
    ns.update(__eq__=eq, __getattr__=getattr_, __module__=base.__module__, __qualname__=base.__qualname__,
              model_fields_set=property(lambda self: (_fill(self), _get(self, "__pydantic_fields_set__"))[1]))
    return type(base)(base.__name__, (base,), ns)
