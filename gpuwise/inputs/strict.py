"""The base of every input model (:class:`Strict`: unknown keys are errors, no NaN, no yes/no read as
a number) and the bounds the input files share."""

import contextlib
import datetime as dt
import math
import types
import typing
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    ValidationInfo,
    field_validator,
)

from ..errors import N_, Said
from ..field import Field  # pydantic's Field(), made faster (gpuwise/field.py)
from ..prebuilt import Prebuilt
from .notation import meant, not_finite
from .prose import raise_prose_number
from .units import raise_unit_written
from .yes_no import raise_yes_no_word

MAX_GPUS = 100_000
MAX_CARD_POWER_W = 5000
"""No single GPU board draws more (a GB200 superchip module is about 2,700 W)."""

PosInt = Annotated[int, Field(ge=1)]


def _finite(v: float | None) -> float | None:
    if v is not None and not math.isfinite(v):
        raise Said(N_("must be a finite number"))
    return v


def takes_bool(annotation: Any) -> bool:
    """Whether a field's type admits a boolean anywhere (``bool``, ``bool | Literal['auto']``)."""
    if annotation is bool:
        return True
    if typing.get_origin(annotation) is Literal:
        return any(isinstance(a, bool) for a in typing.get_args(annotation))
    return any(takes_bool(a) for a in typing.get_args(annotation))


def takes_bool_only(annotation: Any) -> bool:
    """Whether a field holds a yes/no and nothing else but null (``bool``, ``bool | None``): not
    ``bool | Literal['auto']``, whose words the choices' refusal says."""
    try:
        return _BOOL_ONLY[annotation]
    except (KeyError, TypeError):
        pass
    answer = annotation is bool or (typing.get_origin(annotation) in (typing.Union, types.UnionType) and bool in (
        args := typing.get_args(annotation)) and all(a in (bool, type(None)) for a in args))
    with contextlib.suppress(TypeError):
        _BOOL_ONLY[annotation] = answer
    return answer


_BOOL_ONLY: dict[Any, bool] = {}
_YES_NO_WORDS = frozenset({"yes", "no", "on", "off", "true", "false"})
"""The words YAML 1.1 reads as booleans, as text: no number field takes one."""


class Strict(Prebuilt, BaseModel):
    # allow_inf_nan=False: .nan, .inf and -.inf are refused as "not a finite number" by every
    # float field (and its lists), before any range check could give a confusing message
    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False, defer_build=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_as_number(cls, v: Any, info: ValidationInfo) -> Any:
        """YAML reads yes/no/on/off/true/false as booleans, and pydantic would take True as 1
        (``count: yes`` as one GPU, ``zero_stage: on`` as stage 1): only fields that hold a
        yes/no answer take one."""
        if isinstance(v, bool | list) and not takes_bool(cls.model_fields[info.field_name].annotation) and (
                isinstance(v, bool) or any(isinstance(x, bool) for x in v)):
            if isinstance(v, bool) and (words := choice_words(cls.model_fields[info.field_name].annotation)):
                _raise_bool_choice(v, words)  # 'packing: true' (TRL's flag) on a field of words (round 54)
            raise Said(N_("a yes/no value (YAML reads yes, no, on, off, true and false as booleans) is not valid "
                          "here: write a number, or quote the text"))
        if isinstance(v, str) and takes_bool_only(cls.model_fields[info.field_name].annotation):
            raise_yes_no_word(v, info.field_name)  # 'marlin', 'enabled', 'always' (hostile round 46)
        if isinstance(v, str | list | dict) and takes_number_only(cls.model_fields[info.field_name].annotation):
            raise_meant(v)
            if isinstance(v, str) and (said := not_finite(v)) is not None:
                raise said
            if isinstance(v, str) and v.strip().lower() in _YES_NO_WORDS:  # 'on' quoted: pydantic's 'unable to parse
                # string as an integer' (hostile round 53), where the unquoted word is said to be a yes/no value
                raise Said(N_("%(given)s is a yes/no word, not a number: write a number"), given=repr(v.strip()))
        if isinstance(v, str | int | float) and takes_number_only(cls.model_fields[info.field_name].annotation):
            raise_unit_written(v, info.field_name, field_bounds(cls.model_fields[info.field_name]),  # '8B', '500ms'
                               next((f for f in ("nodes", "servers") if f in cls.model_fields), None))
            # for params_b and p95_ttft_s (round 43); '50 years' for horizon_months: 600, past 60 (round 48)
        if isinstance(v, str | dt.date) and takes_number_only(cls.model_fields[info.field_name].annotation):
            # '~1000', '16-32', '2x8', '15 cents', a date for deadline_days (round 48)
            raise_prose_number(v, info.field_name, field_bounds(cls.model_fields[info.field_name]))
        elif isinstance(v, list) and takes_number_only(cls.model_fields[info.field_name].annotation):
            for x in v:  # a list of readings: fan_speed_percent ['90%'], power_under_load_w ['350W'] (round 45)
                if isinstance(x, str):
                    raise_unit_written(x, info.field_name)
        if v is None:
            _no_null_number(cls.model_fields[info.field_name], info.field_name)
        return v


def choice_words(annotation: Any) -> list[str]:
    """The words a field of choices takes (``Literal['none', 'padding_free']``, with or without ``| None``); empty
    for any other field."""
    args = [annotation] if typing.get_origin(annotation) is Literal else [
        a for a in typing.get_args(annotation) if typing.get_origin(a) is Literal]
    return [w for a in args for w in typing.get_args(a) if isinstance(w, str)]


def _raise_bool_choice(v: bool, words: list[str]) -> None:
    """A yes/no given to a field of words: its words said, and the one the yes/no means where a word does (TRL's
    ``packing: true`` is padding_free, ``false`` none: error_words._CHOICE_WORDS), not 'write a number'."""
    from .error_words import literal_close

    expected = ", ".join(repr(w) for w in words)
    close = literal_close("true" if v else "false", expected)
    given = "true" if v else "false"
    if close:
        raise Said(N_("%(given)s is a yes/no value (YAML reads yes, no, on, off, true and false as booleans), not one "
                      "of the choices %(expected)s: did you mean %(close)s?"), given=given, expected=expected,
                   close=close)
    raise Said(N_("%(given)s is a yes/no value (YAML reads yes, no, on, off, true and false as booleans), not one of "
                  "the choices %(expected)s"), given=given, expected=expected)


def field_bounds(field: Any) -> dict[str, float]:
    """A number field's bounds as pydantic holds them (``Field(ge=1, le=60)``): ``{"ge": 1, "le": 60}``."""
    return {k: float(b) for m in field.metadata for k in ("ge", "gt", "le", "lt")
            if isinstance(b := getattr(m, k, None), int | float)}


def _no_null_number(field: Any, name: str) -> None:
    """A number field that takes no null given one (``egress_tb_per_month: null``, ``max_gpus: ~``, an empty key):
    said in gpuwise's words, with the way to its default, where pydantic's 'Input should be a valid number' was
    printed (hostile round 42); a field whose type admits null takes it as before."""
    ann = field.annotation
    if not takes_number_only(ann) or ann is type(None) or type(None) in _leaf_types(ann):
        return
    if field.is_required():
        raise Said(N_("null (~ or an empty key) is no number: write one"))
    raise Said(N_("null (~ or an empty key) is no number: write one, or leave %(name)s out for its default"),
               name=name)


def _leaf_types(a: Any) -> list[Any]:
    args = typing.get_args(a)
    return [x for arg in args for x in _leaf_types(arg)] if args else [a]


def raise_meant(v: Any) -> None:
    """Raise :func:`~gpuwise.inputs.notation.meant`'s complaint for a number field's text (or a
    list's or mapping's item): ``'0x10'``, ``'1_6'``, ``'１６'``, ``'1:20'`` are not read as another
    number."""
    items = v.values() if isinstance(v, dict) else v if isinstance(v, list) else (v,)
    for x in items:
        said = meant(x) if isinstance(x, str) else None
        if said is not None:
            raise said


def takes_number_only(annotation: Any) -> bool:
    """Whether a field holds a number and no text (``int``, ``float | None``, ``list[float]``, the
    values of ``dict[str, float]``): the fields where a quoted number is read as the number, in
    plain decimal digits only."""
    try:
        return _NUMBER_ONLY[annotation]
    except (KeyError, TypeError):
        pass

    def leaves(a: Any) -> list[Any]:
        args = typing.get_args(a)
        if typing.get_origin(a) is Literal:
            return [type(x) for x in args]
        if typing.get_origin(a) is Annotated:
            return leaves(args[0])
        if typing.get_origin(a) is dict:  # a mapping of names to numbers: its values
            return leaves(args[1])
        return [x for arg in args for x in leaves(arg)] if args else [a]

    kinds = leaves(annotation)
    answer = any(k in (int, float) for k in kinds) and str not in kinds
    with contextlib.suppress(TypeError):  # an unhashable annotation: not kept
        _NUMBER_ONLY[annotation] = answer
    return answer


_NUMBER_ONLY: dict[Any, bool] = {}
