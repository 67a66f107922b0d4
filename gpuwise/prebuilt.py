"""The pydantic core schemas of gpuwise's models, kept in the user's cache between processes.

A model's validator (or serializer) is built the first time a process validates (or writes) one:
pydantic first generates the model's core schema from its annotations, then pydantic-core compiles
that schema. Generating is the slow half: 9 ms of a new ``recommend`` question for
``Requirements``, 9 ms more for ``RecommendResult`` when the answer is written as JSON. The
generated schema is plain data naming the model's classes and functions, so it pickles.

A model class built on :class:`Prebuilt` has its schema stored when pydantic completes the class
(``__pydantic_on_complete__``, pydantic 2.12 and later) and given back, through pydantic's own hook
``__get_pydantic_core_schema__``, the next time a process completes the class; pydantic-core
compiles the validator and serializer from it as usual. Entries live in gpuwise/cache.py's
directory, keyed by the class's name, gpuwise's files, and the Python and pydantic versions (an
edited model never reads an old schema); one that cannot be read is ignored. Only a class that its
module names (a gpuwise model, not a test's subclass) is kept, and only as a whole: while a schema
is being generated, the models inside it are generated too, never taken from the cache. A schema
that does not pickle (a default factory that is a lambda) is not kept.
"""

from __future__ import annotations

import sys
import threading
from typing import Any

from pydantic import BaseModel

_DEPTH = threading.local()
SCHEMA_ENTRIES = 96
"""Schemas kept (a few dozen models, a few versions of gpuwise)."""
_SERVED: set[str] = set()
"""The classes whose schema this process took from the cache (not stored again)."""


def _name(cls: type) -> str | None:
    """``module.qualname`` of a class that module holds under that name; None for any other."""
    module = cls.__module__
    if not module.startswith("gpuwise."):
        return None
    obj: Any = sys.modules.get(module)
    for part in cls.__qualname__.split("."):
        obj = getattr(obj, part, None)
    return f"{module}.{cls.__qualname__}" if obj is cls else None


def _key(name: str) -> str | None:
    from . import cache

    return cache.key("schema", (), extra=name) if cache.enabled() else None


class Prebuilt:
    """Mixin for a pydantic model base (before ``BaseModel`` in the bases): the model's core schema
    is taken from the cache when a class is completed at the top. Empty before pydantic 2.12, which
    does not call ``__pydantic_on_complete__`` (no schema would ever be stored, and an overridden
    ``__get_pydantic_core_schema__`` kept older versions from reusing a nested model's schema)."""

    if hasattr(BaseModel, "__pydantic_on_complete__"):

        @classmethod
        def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> Any:
            depth = getattr(_DEPTH, "n", 0)
            if depth == 0 and source is cls:
                name = _name(cls)
                if name is not None:
                    from . import cache

                    schema = cache.get("schema", _key(name))
                    if isinstance(schema, dict):
                        _SERVED.add(name)
                        return schema
            _DEPTH.n = depth + 1
            try:
                return handler(source)
            finally:
                _DEPTH.n = depth

        @classmethod
        def __pydantic_on_complete__(cls) -> None:
            name = _name(cls)
            if name is None or name in _SERVED:
                return
            schema = getattr(cls, "__pydantic_core_schema__", None)
            if isinstance(schema, dict):
                from . import cache

                cache.put("schema", _key(name), schema, SCHEMA_ENTRIES)
