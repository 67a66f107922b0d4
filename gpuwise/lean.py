"""Result records without pydantic's class building, for a ``gpuwise recommend`` process that
writes a report (text, Markdown, HTML) and no JSON.

Building the ~55 pydantic classes of the results (gpuwise/results*.py, ledger.py,
chart_series.py) was ~90 M instructions of such a process (a sixth of its own work): pydantic
collects and checks every field of every class when the class statement runs, though a report
only reads the records' fields. When the command enables it (:func:`enable`, before any result
module is imported), those modules take their ``BaseModel``, ``Field``, ``ConfigDict``,
``model_serializer`` and ``AliasChoices`` from here (through :mod:`gpuwise.pyd`): the same class
statements make plain frozen classes with the same fields in the same order, the same defaults,
methods and properties, and what gpuwise's own construction paths use of pydantic's model API
(``__pydantic_fields__``, ``model_construct``, ``model_copy``, ``model_fields_set``, ``built``
and ``made`` in ledger.py and checked.py). The values are the ones pydantic would hold: the
records are made only by ``made``/``built``/``model_construct``, which never validate.

Anything else -- validating (``Finding(...)``), writing JSON, pickling -- raises
:class:`Unsupported`, and the ``gpuwise`` process runs the command again without lean records
(cli.run), so a path not foreseen costs a second start, never a different answer. The Python API,
tests and every other command keep pydantic's classes: only the process entry point enables this.
"""

from __future__ import annotations

import copy
import operator
import os
import sys
from collections.abc import Callable
from typing import Any, ClassVar

ENABLED = False
"""Whether this process's result modules are built from the lean classes."""
CONVERT: Callable[[type, dict[str, Any]], Any] | None = None
"""checked.converted, set when gpuwise.checked is imported: how a lean record validates."""
ALLOWED = False
"""Whether a ``recommend`` may enable them: in the ``gpuwise`` process only (cli.run), never where
the Python API or a test calls ``cli.main``."""


class Unsupported(BaseException):
    """A lean record was asked for what only pydantic does: the process reruns without them. Not an
    ``Exception``: no handler of gpuwise or of a library on the way swallows it."""


def enable() -> bool:
    """Make the result modules lean in this process, when none of them is imported yet and
    ``GPUWISE_LEAN`` is not ``0`` (set by :func:`rerun`); whether they are."""
    global ENABLED
    if "gpuwise.pyd" in sys.modules or os.environ.get("GPUWISE_LEAN", "") == "0":
        return ENABLED
    ENABLED = True
    return True


def enable_for(args: Any) -> bool:
    """:func:`enable` for a ``recommend`` command line whose report is not JSON (a report reads the
    results' fields only) and whose question is not read from standard input (read once)."""
    if not ALLOWED or args.requirements == "-":
        return False
    from .render.output import report_format

    return report_format(args.output, args.format) != "json" and enable()


def main_allowing_lean(main: Callable[[], int]) -> int:
    """``main()`` of the ``gpuwise`` process, lean records allowed; when they meet what they do not
    do (:class:`Unsupported`), the command again from the start with pydantic's (:func:`rerun`)."""
    global ALLOWED
    ALLOWED = True
    try:
        return main()
    except Unsupported:
        rerun()
        raise


def rerun() -> None:
    """Run this process's command again, from the start, with pydantic's result classes."""
    sys.stdout.flush()
    sys.stderr.flush()
    env = {**os.environ, "GPUWISE_LEAN": "0"}
    argv = list(getattr(sys, "orig_argv", [sys.executable, *sys.argv]))
    os.execve(sys.executable, [sys.executable, *argv[1:]], env)


def _smart_deepcopy(obj: Any) -> Any:
    """pydantic's copy of a default value (pydantic._internal._utils.smart_deepcopy)."""
    from pydantic._internal._utils import smart_deepcopy

    return smart_deepcopy(obj)


class _Unset:
    """A field given no default (pydantic's ``PydanticUndefined`` once a field is made: pydantic-core
    is not imported by a command that makes none)."""


_UNSET = _Unset()


class AliasChoices:
    """``pydantic.AliasChoices``: the names a field may be given under."""

    def __init__(self, *choices: str) -> None:
        self.choices = list(choices)


class FieldInfo:
    """A field: its annotation (resolved on first use), default or factory, aliases, and the
    constraints it was given (kept only to say that there are some: ``made`` then validates)."""

    __slots__ = ("_annotation", "_module", "_raw", "alias", "default", "default_factory", "description", "exclude",
                 "metadata", "validation_alias")

    def __init__(self, default: Any = _UNSET, *, default_factory: Any = None, alias: str | None = None,
                 validation_alias: Any = None, description: str | None = None, exclude: bool | None = None,
                 **constraints: Any) -> None:
        from pydantic_core import PydanticUndefined

        self.default = PydanticUndefined if default is _UNSET else default
        self.default_factory, self.alias = default_factory, alias
        self.validation_alias, self.description, self.exclude = validation_alias, description, exclude
        self.metadata = [constraints] if constraints else []
        self._raw: Any = None
        self._module = ""
        self._annotation: Any = _UNSET

    @property
    def annotation(self) -> Any:
        """The field's type; a string annotation (``from __future__ import annotations``) is
        evaluated in its module, as pydantic does when it builds the class."""
        if self._annotation is _UNSET:
            raw = self._raw
            self._annotation = eval(raw, vars(sys.modules[self._module])) if isinstance(raw, str) else raw
        return self._annotation

    def is_required(self) -> bool:
        from pydantic_core import PydanticUndefined

        return self.default is PydanticUndefined and self.default_factory is None

    def get_default(self, *, call_default_factory: bool = False, validated_data: dict[str, Any] | None = None) -> Any:
        if self.default_factory is None:
            return _smart_deepcopy(self.default)
        if not call_default_factory:
            return None
        raise Unsupported("a default factory")  # none of the result classes has one


def Field(default: Any = _UNSET, **kw: Any) -> Any:
    return FieldInfo(default, **kw)


def ConfigDict(**kw: Any) -> dict[str, Any]:
    return dict(kw)


def model_serializer(*args: Any, **kw: Any) -> Any:
    """The method as written: a lean record is never serialized (that is JSON: pydantic's)."""
    if args and callable(args[0]) and not kw:
        return args[0]
    return lambda f: f


class _Decorators:
    validators: ClassVar[dict] = {}
    field_validators: ClassVar[dict] = {}
    root_validators: ClassVar[dict] = {}
    model_validators: ClassVar[dict] = {}


_object_setattr = object.__setattr__


class _Meta(type):
    """Collects the fields of a class statement as pydantic does: the bases' fields first, then
    the class's own annotations in order (a field given again keeps its place); names that start
    with ``_`` and ``ClassVar`` annotations are not fields; a field's default leaves the class."""

    def __new__(mcs, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> _Meta:
        fields: dict[str, FieldInfo] = {}
        config: dict[str, Any] = {}
        for base in reversed(bases):
            fields.update(getattr(base, "__pydantic_fields__", {}))
            config.update(getattr(base, "model_config", {}))
        config.update(ns.get("model_config", {}))
        module = ns.get("__module__", "")
        for fname, ann in ns.get("__annotations__", {}).items():
            if fname.startswith("_") or ann is ClassVar or (isinstance(ann, str) and ann.startswith("ClassVar")):
                continue
            value = ns.pop(fname, _UNSET)
            info = value if isinstance(value, FieldInfo) else FieldInfo(value)
            info._raw, info._module = ann, module
            fields[fname] = info
        ns["__pydantic_fields__"] = fields
        ns["model_config"] = config
        ns["_lean_hash"] = operator.itemgetter(*fields) if fields else (lambda _d: 0)
        return super().__new__(mcs, name, bases, ns)

    @property
    def model_fields(cls) -> dict[str, FieldInfo]:
        return cls.__pydantic_fields__  # type: ignore[attr-defined, no-any-return]

    def __getattr__(cls, name: str) -> Any:
        if name.startswith(("model_", "__pydantic", "__get_pydantic")):
            raise Unsupported(f"{cls.__name__}.{name}")
        raise AttributeError(name)


class BaseModel(metaclass=_Meta):
    """The lean counterpart of ``pydantic.BaseModel`` (see the module docstring)."""

    __slots__ = ("__dict__", "__pydantic_extra__", "__pydantic_fields_set__", "__pydantic_private__")
    __pydantic_root_model__ = False
    __pydantic_post_init__ = None
    __private_attributes__: ClassVar[dict] = {}
    __pydantic_decorators__ = _Decorators()
    __pydantic_fields__: ClassVar[dict[str, FieldInfo]]

    def __init__(self, **data: Any) -> None:
        """Validation where every value has its field's type or converts exactly, as pydantic's
        lax mode converts it (checked.made's way); any other value is pydantic's to judge."""
        got = None if CONVERT is None else CONVERT(type(self), data)
        if got is None:
            raise Unsupported(f"validating a {type(self).__name__}")
        for name in ("__dict__", "__pydantic_extra__", "__pydantic_fields_set__", "__pydantic_private__"):
            _object_setattr(self, name, object.__getattribute__(got, name))

    @classmethod
    def model_construct(cls, _fields_set: set[str] | None = None, **values: Any) -> Any:
        """pydantic's ``model_construct``, step by step (aliases, defaults, the fields set)."""
        m = cls.__new__(cls)
        fields_values: dict[str, Any] = {}
        fields_set: set[str] = set()
        for name, field in cls.__pydantic_fields__.items():
            if field.alias is not None and field.alias in values:
                fields_values[name] = values.pop(field.alias)
                fields_set.add(name)
            if name not in fields_set and field.validation_alias is not None:
                va = field.validation_alias
                for alias in (va.choices if isinstance(va, AliasChoices) else [va]):
                    if not isinstance(alias, str):
                        raise Unsupported("an alias path")
                    if alias in values:
                        fields_values[name] = values.pop(alias)
                        fields_set.add(name)
                        break
            if name not in fields_set:
                if name in values:
                    fields_values[name] = values.pop(name)
                    fields_set.add(name)
                elif not field.is_required():
                    fields_values[name] = field.get_default(call_default_factory=True, validated_data=fields_values)
        if cls.model_config.get("extra") == "allow":
            raise Unsupported("extra fields")
        _object_setattr(m, "__dict__", fields_values)
        _object_setattr(m, "__pydantic_fields_set__", fields_set if _fields_set is None else _fields_set)
        _object_setattr(m, "__pydantic_extra__", None)
        _object_setattr(m, "__pydantic_private__", None)
        return m

    @property
    def model_fields_set(self) -> set[str]:
        return self.__pydantic_fields_set__

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Any:
        """pydantic's ``model_copy``: a shallow (or deep) copy with ``update``'s fields, unchecked."""
        copied = self.__deepcopy__() if deep else self.__copy__()
        if update:
            copied.__dict__.update(update)
            copied.__pydantic_fields_set__.update(update.keys())
        return copied

    def __copy__(self) -> Any:
        cls = type(self)
        m = cls.__new__(cls)
        _object_setattr(m, "__dict__", copy.copy(self.__dict__))
        _object_setattr(m, "__pydantic_extra__", None)
        _object_setattr(m, "__pydantic_fields_set__", copy.copy(self.__pydantic_fields_set__))
        _object_setattr(m, "__pydantic_private__", None)
        return m

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Any:
        cls = type(self)
        m = cls.__new__(cls)
        _object_setattr(m, "__dict__", copy.deepcopy(self.__dict__, memo=memo))
        _object_setattr(m, "__pydantic_extra__", None)
        _object_setattr(m, "__pydantic_fields_set__", copy.copy(self.__pydantic_fields_set__))
        _object_setattr(m, "__pydantic_private__", None)
        return m

    def __setattr__(self, name: str, value: Any) -> None:
        raise Unsupported(f"setting {type(self).__name__}.{name}")

    def __delattr__(self, name: str) -> None:
        raise Unsupported(f"deleting {type(self).__name__}.{name}")

    def __getattr__(self, name: str) -> Any:
        if name.startswith(("model_", "__pydantic", "__get_pydantic")):
            raise Unsupported(f"{type(self).__name__}.{name}")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise Unsupported(f"pickling a {type(self).__name__}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseModel):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    def __hash__(self) -> int:
        return hash(type(self)._lean_hash(self.__dict__))  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    def __iter__(self) -> Any:
        yield from self.__dict__.items()
