"""Result records made from values gpuwise computed itself, validated only where they need it.

Validating a pydantic model first builds its schema (the result models are built lazily,
``defer_build``): about 20 ms of a ``recommend`` process that writes a text report, for models
whose values the estimators already typed. :func:`made` gives the instance validation would give
without that: each value is checked against its field's type and converted where pydantic's lax
mode converts it losslessly (an int for a float field, an integral float for an int field, a
tuple for a list), lists and dicts copied as validation copies them; a value of any other type, or
a field type not handled here, sends the whole record through ordinary validation, errors and all.
"""

from __future__ import annotations

import types
import typing
from typing import Any

from pydantic import BaseModel

from . import lean
from .ledger import built

_MODELS = (BaseModel, lean.BaseModel)
"""pydantic's models and the lean records that stand for them (gpuwise/lean.py)."""


class _Other(Exception):
    """A value (or a field type) this module leaves to pydantic."""


Check = typing.Callable[[Any], Any]
_CHECKS: dict[type, tuple[dict[str, Check], frozenset[str]] | None] = {}


def made(cls: type[BaseModel], values: dict[str, Any]) -> Any:
    """``cls(**values)``, without building ``cls``'s validator when every value already has (or
    converts exactly to) its field's type. ``values`` must name fields only."""
    got = converted(cls, values)
    return cls(**values) if got is None else got


def converted(cls: type[BaseModel], values: dict[str, Any]) -> Any | None:
    """What :func:`made` gives without validating; None where the values are pydantic's to judge
    (a lean record's own validation: gpuwise/lean.py)."""
    checks = _CHECKS.get(cls, False)
    if checks is False:
        checks = _CHECKS[cls] = _checks_of(cls)
    if checks is not None and checks[1] <= values.keys():
        fields = checks[0]
        try:
            return built(cls, {k: fields[k](v) for k, v in values.items()})
        except (_Other, KeyError):
            pass
    return None


def _checks_of(cls: type[BaseModel]) -> tuple[dict[str, Check], frozenset[str]] | None:
    """A converter per field and the required fields, or None when the model validates in ways of its own (validators,
    aliases, extra fields): then every instance is validated."""
    d = cls.__pydantic_decorators__
    if (d.validators or d.field_validators or d.root_validators or d.model_validators
            or cls.model_config.get("extra") is not None or cls.__pydantic_root_model__):
        return None
    out: dict[str, Check] = {}
    required = frozenset(n for n, f in cls.__pydantic_fields__.items() if f.is_required())
    for name, f in cls.__pydantic_fields__.items():
        if f.alias is not None or f.validation_alias is not None or f.metadata:
            return None
        try:
            out[name] = _check(f.annotation)
        except _Other:
            return None
    return out, required


def _exact(kind: type) -> Check:
    def check(v: Any) -> Any:
        if v.__class__ is not kind:
            raise _Other
        return v
    return check


def _to_float(v: Any) -> float:
    if v.__class__ is float:
        return v
    if v.__class__ is int:
        return float(v)
    raise _Other


def _to_int(v: Any) -> int:
    if v.__class__ is int:
        return v
    if v.__class__ is float and v.is_integer():
        return int(v)
    raise _Other


def _any(v: Any) -> Any:
    return v


def _none(v: Any) -> None:
    if v is not None:
        raise _Other
    return None


def _check(ann: Any) -> Check:
    """The converter of one field type; :class:`_Other` for a type not handled here."""
    if ann is Any:
        return _any
    if ann is float:
        return _to_float
    if ann is int:
        return _to_int
    if ann in (str, bool):
        return _exact(ann)
    if ann is type(None):
        return _none
    if isinstance(ann, type) and issubclass(ann, _MODELS):
        def model(v: Any) -> Any:
            if not isinstance(v, ann):  # an instance is taken as it is (revalidate_instances='never')
                raise _Other
            return v
        return model
    origin, args = typing.get_origin(ann), typing.get_args(ann)
    if origin is typing.Literal:
        allowed = {(a.__class__, a) for a in args}

        def literal(v: Any) -> Any:
            if (v.__class__, v) not in allowed:
                raise _Other
            return v
        return literal
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        optional = len(members) < len(args)
        if len(members) == 1:
            inner = _check(members[0])

            def one(v: Any) -> Any:
                return None if v is None and optional else inner(v)
            return one
        if all(m in (int, float, str, bool) for m in members):  # smart mode: an exact type is kept
            kinds = set(members)

            def several(v: Any) -> Any:
                if v is None and optional:
                    return None
                if v.__class__ not in kinds:
                    raise _Other
                return v
            return several
        if all(isinstance(m, type) and issubclass(m, _MODELS) for m in members):  # an instance of one is kept
            models = tuple(members)

            def one_of(v: Any) -> Any:
                if v is None and optional:
                    return None
                if not isinstance(v, models):
                    raise _Other
                return v
            return one_of
        raise _Other
    if origin is list:
        item = _check(args[0]) if args else _any

        def listed(v: Any) -> list[Any]:
            if v.__class__ is not list and v.__class__ is not tuple:
                raise _Other
            return [item(x) for x in v] if item is not _any else list(v)
        return listed
    if origin is dict:
        key = _check(args[0]) if args else _any
        val = _check(args[1]) if len(args) > 1 else _any
        if key is not _any and args[0] is not str:
            raise _Other

        def mapped(v: Any) -> dict[Any, Any]:
            if v.__class__ is not dict:
                raise _Other
            if key is not _any:
                for k in v:
                    if k.__class__ is not str:
                        raise _Other
            return {k: val(x) for k, x in v.items()} if val is not _any else dict(v)
        return mapped
    raise _Other


lean.CONVERT = converted  # a lean record's own validation (gpuwise/lean.py)
