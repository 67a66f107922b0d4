"""Shared pieces of every knowledge schema: strict frozen models and the source/check convention."""

import datetime as _dt
import re
import types
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from gpuwise.errors import N_, Said
from gpuwise.inputs.dates import iso_date

# one definition: inputs and knowledge refuse booleans, and numbers in another notation, alike
from gpuwise.inputs.strict import raise_meant, takes_bool, takes_number_only
from gpuwise.inputs.units import amount_per_unit

from ...prebuilt import Prebuilt

SCHEMA_VERSION = 1

Check = Literal["V", "S", "U"]
"""V: read in the vendor/provider document; S: secondary source; U: unverified."""


TEXT_MAX = 500
"""Characters a knowledge string may hold (a name, an id, a setting): the bundled files' longest is 199 (a price
entry's export rule)."""
PROSE_MAX = 20_000
"""Characters a source, note, rationale, reason or description may hold: the bundled files' longest is 9,383 (a
runtime.yaml source that names the lines of five code files)."""
Prose = Annotated[str, Field(max_length=PROSE_MAX)]
"""A knowledge file's free text: a source, a note, a rationale (``source``, ``*_source``, ``notes``...)."""


_BOOL_SAID = N_("%(field)s: a yes/no value (YAML reads yes, no, on, off, true and false as booleans) is not "
                "valid here: write a number, or quote the text")


def _is_bool(v: Any) -> bool:
    return v.__class__ is bool


class Strict(Prebuilt, BaseModel):
    # The schema modules (these, gpuwise/inputs/*, gpuwise/results*.py, gpuwise/chart_series.py,
    # gpuwise/ledger.py) do without `from __future__ import annotations`: with it pydantic compiles and evaluates every
    # field's annotation text when a class is built, a fifth of building the classes in every
    # process. A method returning its own class quotes the name.
    # allow_inf_nan=False: no knowledge figure (or overlay) may be NaN or infinite; NaN would pass
    # every range check and end as invalid JSON in a report
    # str_max_length: every string of a knowledge file (a name, an id, a setting, an alias, a list's item) at most
    # TEXT_MAX characters; a source, a note or a rationale (Prose) at most PROSE_MAX: a 300,000-character name or
    # source in an overlay printed whole in every report that cites it
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False, defer_build=True,
                              str_max_length=TEXT_MAX)

    @model_validator(mode="before")
    @classmethod
    def _no_bool_as_number(cls, data: Any) -> Any:
        """An overlay's ``value: true`` was an MFU of 1.0, ``memory: {gb: true}`` a 1 GB card and
        ``amount: true`` a $1 price (pydantic takes True as 1): only yes/no fields take one. One
        call per model, not per field: a cold load of the built-in knowledge stays as fast."""
        if isinstance(data, dict) and True in map(_is_bool, data.values()):
            fields = cls.model_fields
            for name, v in data.items():
                if isinstance(v, bool) and name in fields and not takes_bool(fields[name].annotation):
                    raise Said(_BOOL_SAID, field=name)
        if isinstance(data, dict):  # '0x10', '1_6', '１６' in a number field: refused, saying what they meant
            kinds = _NUMBER_FIELDS.get(cls)
            if kinds is None:
                kinds = _NUMBER_FIELDS[cls] = (
                    frozenset(n for n, f in cls.model_fields.items() if takes_number_only(f.annotation)),
                    frozenset(n for n, f in cls.model_fields.items() if _takes_date(f.annotation)))
            numbers, dates = kinds
            for name in numbers.intersection(data):
                try:
                    raise_meant(data[name])
                except Said as said:
                    raise Said(N_("%(field)s: %(said)s"), field=name, said=said) from None
                if isinstance(data[name], str):
                    _raise_other_currency(cls, data, name)
            for name in dates.intersection(data) if dates else ():  # pydantic reads 0 or '1767225600' as a Unix time
                v = data[name]
                if isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
                    continue
                meant = iso_date(v)  # 2026/11/30, 20261130, a timestamp with its time: the date offered (round 44)
                if meant is not None and (isinstance(v, _dt.datetime) or not _ISO.fullmatch(str(v).strip())):
                    raise Said(N_("%(field)s: %(value)s is not a date written YYYY-MM-DD: write %(meant)s"),
                               field=name, value=repr(v.isoformat() if isinstance(v, _dt.datetime) else v), meant=meant)
                digits = isinstance(v, str) and v.strip().lstrip("+-").replace(".", "").isdigit()
                if digits or isinstance(v, int | float) or (isinstance(v, str) and not _ISO.fullmatch(v.strip())):
                    raise Said(N_("%(field)s: %(value)s is not a date: write it YYYY-MM-DD"), field=name, value=repr(v))
        return data


def _raise_other_currency(cls: type, data: dict[str, Any], name: str) -> None:
    """Refuse a price written in another currency than its entry's ('¥250000' for a point whose currency is USD,
    '$2/h' for cny_per_hour), naming both: pydantic's 'not a valid number' named neither. The entry's currency is the
    field's own (``usd_per_hour``, ``cny_per_gpu_hour``), else its ``currency`` (given, or the field's default)."""
    words = name.split("_")
    own = "USD" if "usd" in words else "CNY" if "cny" in words else None
    field = cls.model_fields.get("currency")  # type: ignore[attr-defined]
    currency = own or (str(data.get("currency", field.default)).upper() if field is not None else None)
    read = amount_per_unit(data[name], "hourly_usd")
    if currency not in ("USD", "CNY") or read is None or read[1] in (None, currency):
        return
    other = "_".join(read[1].lower() if w in ("usd", "cny") else w for w in words) if own else None
    if other is not None and other not in cls.model_fields:  # type: ignore[attr-defined]
        other = None  # (no field of that currency: spot prices are in USD only)
    said = (N_("%(field)s: %(written)s is in %(given_currency)s, and this entry's prices are in %(currency)s: write "
               "the amount in %(currency)s, or give it as %(other)s") if other else
            N_("%(field)s: %(written)s is in %(given_currency)s, and this entry's prices are in %(currency)s: write "
               "the amount in %(currency)s") if own else
            N_("%(field)s: %(written)s is in %(given_currency)s, and this entry's prices are in %(currency)s: write "
               "the amount in %(currency)s, or give currency: %(given_currency)s"))
    raise Said(said, field=name, written=repr(data[name].strip()[:30]), given_currency=read[1], currency=currency,
               other=other or "")


_NUMBER_FIELDS: dict[type, tuple[frozenset[str], frozenset[str]]] = {}
_ISO = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _takes_date(annotation: Any) -> bool:
    """Whether a field holds a date (``date``, ``date | None``, as the schemas write them): a number
    there is no date, though pydantic reads one as seconds since 1970 (``as_of: 0`` was a price dated
    1970-01-01). Identity tests, not typing.get_args: this runs for every field of every class."""
    return annotation is _dt.date or (type(annotation) is types.UnionType and _dt.date in annotation.__args__)


class Within:
    """Bounds on a catalog figure (an ``AfterValidator``): a value this far beyond, or beneath,
    every part made is a typo or a unit slip, not a GPU (an overlay's ``memory: {gb: 1e9}`` made
    an RTX 4090 of a billion GB; ``bandwidth_gb_s: 1e-300`` one that decodes 0 tokens/s and was
    still recommended). A class, not a closure, so the schema that holds it is kept between
    processes (gpuwise/prebuilt.py)."""

    def __init__(self, floor: float, ceiling: float):
        self.floor, self.ceiling = floor, ceiling

    def __call__(self, v: Any) -> Any:
        if v is not None and v > self.ceiling:
            raise Said(N_("%(value)s is above %(ceiling)s, beyond any GPU made: a typo or a unit slip"),
                       value=f"{v:g}", ceiling=f"{self.ceiling:,.0f}")
        if v is not None and 0 < v < self.floor:
            raise Said(N_("%(value)s is below %(floor)s, beneath any GPU made: a typo or a unit slip"),
                       value=f"{v:g}", floor=f"{self.floor:g}")
        return v

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Within) and (other.floor, other.ceiling) == (self.floor, self.ceiling)

    def __hash__(self) -> int:
        return hash((self.floor, self.ceiling))


class Sourced(Strict):
    source: Prose = Field(min_length=3)
    check: Check = "S"
