"""``@frozen``: ``@dataclass(frozen=True)`` whose ``__init__`` stores the fields straight into the
instance's ``__dict__``.

A frozen dataclass's own ``__init__`` sets every field through ``object.__setattr__`` (its
``__setattr__`` refuses assignment), which makes it about four times slower to build than a plain
dataclass. An estimate builds thousands of small frozen records (terms, layouts, offers, ranges):
on a full-catalog recommendation their construction was about a tenth of the time. The instance
is the same -- the same fields in ``__dict__`` in declared order, defaults and default factories
applied, ``__post_init__`` called -- and equality, hashing, ``repr``, ``dataclasses.replace`` and
pickling are the dataclass's own. A class this cannot rebuild exactly (slots, keyword-only fields,
``InitVar`` or ``ClassVar`` pseudo-fields) keeps the dataclass's ``__init__``.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def frozen(cls: type[T]) -> type[T]:
    """``dataclass(frozen=True)(cls)`` with the faster ``__init__`` (see the module docstring)."""
    cls = dataclasses.dataclass(frozen=True)(cls)
    init = _dict_init(cls)
    if init is not None:
        init.__qualname__ = f"{cls.__qualname__}.__init__"
        cls.__init__ = init  # type: ignore[misc]
    return cls


def _dict_init(cls: type) -> Any:
    fields = dataclasses.fields(cls)
    if "__slots__" in cls.__dict__ or len(fields) != len(cls.__dataclass_fields__):  # type: ignore[attr-defined]
        return None
    ns: dict[str, Any] = {"__gw_missing": dataclasses.MISSING}
    params: list[str] = []
    body: list[str] = []
    for f in fields:
        if f.kw_only:
            return None
        name = f.name
        if not f.init:  # as dataclasses does: a factory's value is set, a plain default stays the class's
            if f.default_factory is not dataclasses.MISSING:
                ns[f"__gw_factory_{name}"] = f.default_factory
                body.append(f"    __gw_d[{name!r}] = __gw_factory_{name}()")
            continue
        if f.default is not dataclasses.MISSING:
            ns[f"__gw_default_{name}"] = f.default
            params.append(f"{name}=__gw_default_{name}")
            body.append(f"    __gw_d[{name!r}] = {name}")
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"__gw_factory_{name}"] = f.default_factory
            params.append(f"{name}=__gw_missing")
            body.append(f"    __gw_d[{name!r}] = __gw_factory_{name}() if {name} is __gw_missing else {name}")
        else:
            params.append(name)
            body.append(f"    __gw_d[{name!r}] = {name}")
    if hasattr(cls, "__post_init__"):
        body.append("    __gw_self.__post_init__()")
    source = (f"def __init__(__gw_self, {', '.join(params)}):\n    __gw_d = __gw_self.__dict__\n"
              + "\n".join(body) + "\n")
    exec(source, ns)
    return ns["__init__"]
