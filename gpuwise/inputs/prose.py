"""A number field given a number as people write it in a message or a ticket rather than in a file (hostile round 48):
``prompt_tokens: ~1000`` or ``about 1k``, ``concurrent_requests: 16-32`` (a range), ``max_gpus: 2x8`` (two servers of
eight), ``electricity_usd_per_kwh: 15 cents`` or ``12¢/kWh``, and ``deadline_days: 2026-12-31`` (a date where a
number of days goes). Pydantic said 'unable to parse string as a number' or 'a valid number (got 2026-12-31)'; the
refusal now offers the number meant where one is, as inputs/units.py offers a number written with its unit. Nothing is
read silently: the value is still refused."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import N_, Term
from .notation import PLAIN, Meant
from .units import _AMOUNT, _SAID, _kind, _number, _offer, raise_unit_written

_APPROX = re.compile(r"\s*(?:~|≈|about|approx\.?|approximately|around|roughly|circa|ca\.)\s*(?P<rest>.+?)\s*", re.I)
_RANGE = re.compile(rf"\s*(?P<low>{PLAIN.pattern})\s*(?:-|–|—|to|\.\.)\s*(?P<high>{PLAIN.pattern})\s*", re.I)
_PRODUCT = re.compile(r"\s*(?P<a>\d+)\s*[x×*]\s*(?P<b>\d+)\s*(?:gpus?)?\s*", re.I)
_CENTS = re.compile(rf"\s*(?P<num>{PLAIN.pattern})\s*(?:¢|c|ct|cts|cents?)\s*(?:(?:/|per\s+|an?\s+)kwh)?\s*", re.I)
_ISO_DATE = re.compile(r"\s*\d{4}-\d{2}-\d{2}\s*", re.ASCII)
_BOUND = re.compile(r"\s*(?:<=?|≤|=<|<|under|below|less than|at most|max\.?|maximum|up to|within|p\d\d\s*(?:<=?|≤|<))"
                    r"\s*(?P<rest>.+?)\s*", re.I)
"""A target written with its comparison, as an SLO states it ('<500ms', '≤ 500 ms', 'under 2s'): the field is the
bound itself (hostile round 52)."""
_ISO_DURATION = re.compile(r"\s*P(?:(?P<Y>\d+(?:\.\d+)?)Y)?(?:(?P<M>\d+(?:\.\d+)?)M)?(?:(?P<W>\d+(?:\.\d+)?)W)?"
                           r"(?:(?P<D>\d+(?:\.\d+)?)D)?(?:T(?:(?P<h>\d+(?:\.\d+)?)H)?(?:(?P<m>\d+(?:\.\d+)?)M)?"
                           r"(?:(?P<s>\d+(?:\.\d+)?)S)?)?\s*", re.I)
"""An ISO 8601 duration ('P14D', 'P2W', 'P3M', 'P1Y', 'PT0.5S'), as a calendar, a config or a JSON schema writes one."""
#: The size of each of a duration's parts in a field's unit, by the field's kind: years and months have no fixed
#: number of days (nor days a number of months), so a duration mixing them into another unit is offered nothing.
_DURATION_UNITS = {"days": {"W": 7.0, "D": 1.0, "h": 1 / 24, "m": 1 / 1440, "s": 1 / 86400},
                   "months": {"Y": 12.0, "M": 1.0},
                   "hours": {"D": 24.0, "h": 1.0, "m": 1 / 60, "s": 1 / 3600},
                   "s": {"h": 3600.0, "m": 60.0, "s": 1.0}, "ms": {"h": 3.6e6, "m": 6e4, "s": 1e3}}
_DURATION_SAID = N_("%(given)s is an ISO 8601 duration, and %(field)s is a number of %(unit)s: write the number")

_ALONE = N_("%(given)s: %(field)s takes the number alone: write %(meant)s")
_RANGE_SAID = N_("%(given)s is a range, and %(field)s takes one number: write %(low)s or %(high)s, or one between")
_PRODUCT_SAID = N_("%(given)s: %(field)s is the number of GPUs in all: write %(meant)s (%(a)s x %(b)s)")
_DATE_AHEAD = N_("%(given)s is a date, and %(field)s is a number of days: write %(meant)s if the work starts today "
                 "(%(today)s)")
_DATE_PAST = N_("%(given)s is a date, and %(field)s is a number of days from the work's start (that date is not after "
                "today, %(today)s)")


_WORDS = {w: i for i, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                                       "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                                       "seventeen", "eighteen", "nineteen", "twenty"))}
_WORDS.update({"thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "sixty-four": 64, "hundred": 100,
               "a hundred": 100, "dozen": 12, "a dozen": 12, "a couple": 2, "a pair": 2, "pair": 2})
_HAN = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
        "九": 9}
_IN_WORDS = N_("%(given)s is a number in words: %(field)s takes its digits: write %(meant)s")


def _in_words(text: str) -> int | None:
    """The whole number ``text`` writes in English words ('eight', 'Sixteen') or Chinese numerals up to 99 ('八',
    '十六', '三十二', '两'), else None: a count written as a message says it (hostile round 54)."""
    t = text.strip().lower()
    if t in _WORDS:
        return _WORDS[t]
    if not t or len(t) > 3 or any(c not in _HAN and c != "十" for c in t):
        return None
    if "十" not in t:
        return _HAN[t] if len(t) == 1 else None
    tens, _, ones = t.partition("十")
    if len(tens) > 1 or len(ones) > 1:
        return None
    return (_HAN[tens] if tens else 1) * 10 + (_HAN[ones] if ones else 0)


def raise_prose_number(v: Any, name: str, bounds: dict[str, float], today: dt.date | None = None) -> None:
    """Refuse ``v`` for the number field ``name`` where it is a number written as prose (see the module), offering
    the number meant, and the field's ``bounds`` where it is past one; else return."""
    if isinstance(v, dt.date) and not isinstance(v, dt.datetime):
        _date_for_days(v, v.isoformat(), name, bounds, today)
        return
    if not isinstance(v, str) or len(v) > 60:
        return
    if _ISO_DATE.fullmatch(v):
        try:
            day = dt.date.fromisoformat(v.strip())
        except ValueError:
            return
        _date_for_days(day, repr(v), name, bounds, today)
        return
    _duration(v, name, bounds)
    if (said := _in_words(v)) is not None:  # 'eight', '八': its digits offered (hostile round 54)
        raise _offer(_IN_WORDS, float(said), bounds, given=repr(v), field=name, meant=str(said))
    approx = _APPROX.fullmatch(v) or _BOUND.fullmatch(v)
    if approx is not None:
        rest = approx.group("rest")
        if PLAIN.fullmatch(rest):
            raise _offer(_ALONE, float(rest), bounds, given=repr(v), field=name, meant=_number(float(rest)))
        try:  # 'about 1k': offered as '1k' is, the words quoted whole
            raise_unit_written(rest, name, bounds)
        except Meant as said:
            raise Meant(said.template, **{**said.values, "given": repr(v)}) from None
        return
    if (_kind(name) or ("",))[0] == "hours":
        _working_day(v, name, bounds)
    span = _RANGE.fullmatch(v)
    if span is not None and float(span.group("low")) < float(span.group("high")):
        raise Meant(_RANGE_SAID, given=repr(v), field=name, low=_number(float(span.group("low"))),
                    high=_number(float(span.group("high"))))
    kind = _kind(name)
    product = _PRODUCT.fullmatch(v) if kind is not None and kind[0] == "gpus" else None
    if product is not None:
        a, b = int(product.group("a")), int(product.group("b"))
        raise _offer(_PRODUCT_SAID, float(a * b), bounds, given=repr(v), field=name, meant=str(a * b), a=a, b=b)
    if kind is not None and kind[0] == "gpus":
        _quoted_count(v, name, bounds)
    cents = _CENTS.fullmatch(v) if name == "electricity_usd_per_kwh" else None
    if cents is not None:
        amount = float(cents.group("num")) / 100
        raise _offer(_AMOUNT, amount, bounds, given=repr(v.strip()), field=name, meant=_number(amount))


#: A GPU count as a vendor's quote prints it: 'x8' (the times sign first), '8 × H100' or '8x RTX 4090' (the count and
#: the GPU's name), '16 (2 × 8)' (the total and its servers by GPUs).
_TIMES_FIRST = re.compile(r"\s*[x×*]\s*(?P<n>\d{1,6})\s*", re.I)
_COUNT_NAMED = re.compile(r"\s*(?P<n>\d{1,6})\s*[x×*]\s*(?P<gpu>[a-z][\w .-]*?)\s*", re.I)
_TOTAL_OF = re.compile(r"\s*(?P<n>\d{1,6})\s*\(\s*(?P<a>\d{1,4})\s*[x×*]\s*(?P<b>\d{1,4})\s*\)\s*", re.I)
_ON_SERVERS = re.compile(r"\s*(?P<n>\d{1,6})\s*(?:x|gpus?|cards?)?\s*\(\s*(?:on\s+|in\s+)?(?P<s>\d{1,4})\s*"
                         r"(?:nodes?|servers?|machines?|boxes|台)\s*\)\s*", re.I)
_ON_SERVERS_SAID = N_("%(given)s: %(field)s is the number of GPUs alone: write %(meant)s, and put %(servers)s in the "
                      "field for servers (nodes; servers for owned GPUs)")
_COUNT_NAMED_SAID = N_("%(given)s: %(field)s is the number of GPUs alone (the GPU goes in its own field): write "
                       "%(meant)s")
_TOTAL_DISAGREES = N_("%(given)s: %(n)s is not %(a)s x %(b)s (%(product)s): %(field)s is the number of GPUs in all, "
                      "write the one that is meant")


def _quoted_count(v: str, name: str, bounds: dict[str, float]) -> None:
    """A GPU count as a quote prints it ('x8', '8 × H100', '16 (2 × 8)'): pydantic's 'must be a whole number'
    (hostile round 55), the count offered; a total that is not its product names both."""
    m = _TIMES_FIRST.fullmatch(v) or _COUNT_NAMED.fullmatch(v)
    if m is not None:
        n = float(m.group("n"))
        raise _offer(_COUNT_NAMED_SAID if "gpu" in m.groupdict() else _SAID["gpus"], n, bounds, given=repr(v),
                     field=name, meant=m.group("n"))
    m = _ON_SERVERS.fullmatch(v)
    if m is not None:  # '8 (2 nodes)': the GPUs and their servers in one cell
        raise _offer(_ON_SERVERS_SAID, float(m.group("n")), bounds, given=repr(v), field=name, meant=m.group("n"),
                     servers=m.group("s"))
    m = _TOTAL_OF.fullmatch(v)
    if m is None:
        return
    n, a, b = (int(m.group(k)) for k in ("n", "a", "b"))
    if n != a * b:
        raise Meant(_TOTAL_DISAGREES, given=repr(v), n=n, a=a, b=b, product=a * b, field=name)
    raise _offer(_PRODUCT_SAID, float(n), bounds, given=repr(v), field=name, meant=str(n), a=a, b=b)


_ROUND_CLOCK = re.compile(r"\s*24\s*/\s*7\s*|\s*24\s*x\s*7\s*|\s*around the clock\s*|\s*always\s*", re.I)
_CLOCK = r"(?P<{0}>\d{{1,2}})(?::(?P<{0}m>[0-5]\d))?\s*(?P<{0}p>am|pm|a\.m\.|p\.m\.)?"
_WORKING_DAY = re.compile(rf"\s*{_CLOCK.format('a')}\s*(?:-|–|—|to)\s*{_CLOCK.format('b')}\s*", re.I)


def _working_day(v: str, name: str, bounds: dict[str, float]) -> None:
    """Hours a day written as people say a service's day: '24/7' (24), '9-5', '9am-5pm', '09:00-17:00' (8 hours;
    an end at or before the start without am/pm is the afternoon's): pydantic's 'unable to parse string as a
    number' (hostile round 51), the hours offered. '8-10' with neither am/pm nor minutes could be a range of hours
    as well as a clock's: left to the range's refusal, which offers both ends."""
    if _ROUND_CLOCK.fullmatch(v):
        raise _offer(_SAID["hours"], 24.0, bounds, given=repr(v), field=name, meant="24")
    m = _WORKING_DAY.fullmatch(v)
    if m is None:
        return

    def hour(k: str) -> float:
        h = int(m.group(k)) % 12 if m.group(f"{k}p") else int(m.group(k))
        h += 12 if (m.group(f"{k}p") or "").lower().startswith("p") else 0
        return h + int(m.group(f"{k}m") or 0) / 60

    start, end = hour("a"), hour("b")
    clock = any(m.group(k) for k in ("ap", "bp", "am", "bm"))
    if start > 24 or end > 24 or (end > start and not clock):
        return
    if end <= start and not m.group("bp") and start < 12 and end < 12:
        end += 12  # '9-5': five in the afternoon ('22-6' wraps past midnight instead: 8 hours)
    hours = (end - start) % 24 or 24.0
    raise _offer(_SAID["hours"], hours, bounds, given=repr(v), field=name, meant=_number(hours))


def _date_for_days(day: dt.date, given: str, name: str, bounds: dict[str, float], today: dt.date | None) -> None:
    """A date given where a number of days goes: the days from today to it offered (hostile round 48)."""
    kind = _kind(name)
    if kind is None or kind[0] != "days":
        return
    today = today or dt.date.today()
    days = (day - today).days
    if days < 1:
        raise Meant(_DATE_PAST, given=given, field=name, today=today.isoformat())
    raise _offer(_DATE_AHEAD, float(days), bounds, given=given, field=name, meant=str(days), today=today.isoformat())


def _duration(v: str, name: str, bounds: dict[str, float]) -> None:
    """An ISO 8601 duration given where a number of days, months, hours or (milli)seconds goes ('P14D', 'P3M',
    'PT0.5S'): pydantic's 'unable to parse string as a number' (hostile round 52); the number in the field's unit
    offered where its parts convert exactly (weeks and days to days, years and months to months), else the field's
    unit said."""
    m = _ISO_DURATION.fullmatch(v)
    kind = (_kind(name) or ("",))[0]
    if m is None or kind not in _DURATION_UNITS or not any(m.groupdict().values()):
        return
    sizes = _DURATION_UNITS[kind]
    parts = {k: float(x) for k, x in m.groupdict().items() if x is not None}
    unit = {"days": N_("days"), "months": N_("months"), "hours": N_("hours"), "s": N_("seconds"),
            "ms": N_("milliseconds")}[kind]
    if any(k not in sizes for k in parts):
        raise Meant(_DURATION_SAID, given=repr(v), field=name, unit=Term(unit))
    value = sum(x * sizes[k] for k, x in parts.items())
    raise _offer(_SAID[kind], value, bounds, given=repr(v), field=name, meant=_number(value))
