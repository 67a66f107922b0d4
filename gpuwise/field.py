"""``Field``: pydantic's ``Field()``, the same ``FieldInfo``, made with a tenth of the calls' work.

pydantic's ``Field()`` hands all of its ~45 keyword arguments (those not given as pydantic's
"unset" marker) to ``FieldInfo.from_field``, which hands them on to ``FieldInfo``: about 90,000
instructions a call on Python 3.11, and the input models a ``recommend`` process builds as it
starts declare some ninety fields with ``Field(...)``. Here the arguments given are handed to
``FieldInfo.from_field`` alone, as ``Field()`` hands them (``FieldInfo`` reads a missing argument
as unset, and orders the constraints' metadata by its own code, not by the arguments' order).
``Field()`` itself is called where it does more than hand them on: an alias (it derives the
validation and serialization aliases), or a keyword that is no ``FieldInfo`` argument (pydantic
1's names, which it refuses or warns about). tests/test_field.py compares the two.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field as _pydantic_field
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined


def _names(code: Any) -> set[str]:
    return set(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])


PLAIN = frozenset((_names(_pydantic_field.__code__) & _names(FieldInfo.__init__.__code__))
                  - {"self", "default", "annotation", "alias", "alias_priority", "validation_alias",
                     "serialization_alias"})
"""``Field()``'s arguments it hands to ``FieldInfo.from_field`` as given (every one but the aliases)."""


def Field(default: Any = PydanticUndefined, **kwargs: Any) -> Any:
    """``pydantic.Field(default, **kwargs)``."""
    if kwargs.keys() <= PLAIN:
        return FieldInfo.from_field(default, **kwargs)
    return _pydantic_field(default, **kwargs)
