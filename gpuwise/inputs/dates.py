"""Dates written in another form than ISO 8601's, as a hurried user copies them from an invoice, a price page or
a spreadsheet: ``2026/11/30``, ``30/11/2026``, ``20261130``, ``2026-11-30T10:00``, ``Nov 30 2026``, ``2026年11月30日``;
a month as ``2024/03``, ``03/2024``, ``2024-3``, ``March 2024``, ``202403``, ``2024年3月``. gpuwise reads YYYY-MM-DD
(a month: YYYY-MM) only, and refuses the others; :func:`iso_date` and :func:`iso_month` give the ISO form such a
text surely means, for the refusal to offer (hostile round 44). A day and a month that could be either
(``01/02/2026``) give none: nothing is guessed."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from ..errors import N_, Said

MONTH = re.compile(r"[0-9]{4}-[0-9]{2}(-[0-9]{2})?")
"""A month as the input files take it, YYYY-MM (a whole date YYYY-MM-DD too)."""

_MONTHS = {name: i for i, names in enumerate(
    [("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",), ("jun", "june"),
     ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
     ("dec", "december")], start=1) for name in names}

_SEP = r"[-/. ]"
_TIME = r"(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
"""A time of day after a date ('T10:00', ' 10:00:00Z'): the date is what a price's as_of keeps."""
_YMD = re.compile(rf"(\d{{4}}){_SEP}(\d{{1,2}}){_SEP}(\d{{1,2}}){_TIME}")
_XYZ = re.compile(rf"(\d{{1,2}}){_SEP}(\d{{1,2}}){_SEP}(\d{{4}})")
_COMPACT = re.compile(r"(\d{4})(\d{2})(\d{2})")
_HAN = re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?:\s*(\d{1,2})\s*日)?")
_WORDS = re.compile(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})"
                    r"|(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})")
_YM = re.compile(rf"(\d{{4}}){_SEP}(\d{{1,2}})")
_MY = re.compile(rf"(\d{{1,2}}){_SEP}(\d{{4}})")
_MONTH_WORDS = re.compile(r"([A-Za-z]+)\.?,?\s+(\d{4})|(\d{4})\s+([A-Za-z]+)\.?")
_MON_YY = re.compile(r"([A-Za-z]{3,9})\.?\s*[-']\s*(\d{2})")
"""A month as a spreadsheet's mmm-yy format shows it ('Jan-27', 'Mar-24', "Jan '27"): the month of 2000 + yy (a
day is written the other way round, '27-Jan'); hostile round 55."""


def _date(year: str, month: str | int, day: str | int) -> dt.date | None:
    try:
        return dt.date(int(year), int(month), int(day))
    except ValueError:
        return None


def _month(name: str) -> int | None:
    return _MONTHS.get(name.lower())


def _as_date(text: str) -> dt.date | None:
    """The one date ``text`` surely is, in any of the forms above; None where it is none or could be two."""
    t = text.strip()
    if m := _YMD.fullmatch(t):
        return _date(*m.groups())
    if m := _XYZ.fullmatch(t):
        a, b, year = int(m.group(1)), int(m.group(2)), m.group(3)
        if a > 12 >= b:  # 30/11/2026: day first
            return _date(year, b, a)
        if b > 12 >= a or a == b:  # 11/30/2026: month first; 05/05/2026 either way
            return _date(year, a, b)
        return None  # 01/02/2026: January 2nd or 1 February
    if m := _COMPACT.fullmatch(t):
        return _date(*m.groups())
    if (m := _HAN.fullmatch(t)) and m.group(3):
        return _date(*m.groups())
    if m := _WORDS.fullmatch(t):
        name, day, year = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(4), m.group(6))
        month = _month(name)
        return _date(year, month, day) if month else None
    return None


def iso_date(value: Any) -> str | None:
    """YYYY-MM-DD for a date written in another form (``2026/11/30``, ``30/11/2026``, ``20261130`` written bare,
    ``2026-11-30T10:00``, a YAML timestamp, ``Nov 30 2026``, ``2026年11月30日``); None when it is no date or its day
    and month could be either."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat()
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or len(value) > 60:
        return None
    date = _as_date(value)
    return date.isoformat() if date else None


_EXCEL_1900 = dt.date(1899, 12, 30)
"""Day 0 of Excel's 1900 date system as its serials count from March 1900 on (serial 1 is 1900-01-01, and Lotus'
leap day 1900-02-29, serial 60, is counted): 46357 is 2026-12-01 (Microsoft, 'Date systems in Excel')."""
_EXCEL_1904 = dt.date(1904, 1, 1)
"""Day 0 of Excel's 1904 date system (older Mac workbooks): a serial is 1,462 days later there."""


def day_readings(text: str, today: dt.date | None = None) -> Said | None:
    """Why a date a price's ``as_of`` cannot take is not read, with what it may mean (hostile round 56: 'not a date',
    nothing offered): a month without its day ('Dec 2026') said to need one; a day and month that could be either
    ('12/01/2026') both readings; a date with dots ('01.12.2026') read day first, as dotted dates are written, the
    other reading beside it; a spreadsheet's date serial ('46357') the day it is in Excel's 1900 date system (the
    1904 system's too, where that is no later than today). None for text it reads as none of these; nothing is
    taken silently: each is a refusal."""
    t = text.strip()
    today = today or dt.date.today()
    m = _XYZ.fullmatch(t)
    if m is not None and (a := int(m.group(1))) <= 12 and (b := int(m.group(2))) <= 12 and a != b:
        first, second = _date(m.group(3), a, b), _date(m.group(3), b, a)
        if first is None or second is None:
            return None
        if "." in t:
            return Said(N_("%(given)s is %(day_first)s read day first, as a date with dots is written (DD.MM.YYYY): "
                           "write %(day_first)s, or %(month_first)s if it is month first"), given=repr(t),
                        day_first=second.isoformat(), month_first=first.isoformat())
        return Said(N_("%(given)s could be %(month_first)s (month first, as the US writes it) or %(day_first)s (day "
                       "first): write the one meant as YYYY-MM-DD"), given=repr(t), month_first=first.isoformat(),
                    day_first=second.isoformat())
    if re.fullmatch(r"\d{5}(?:\.0+)?", t):
        serial = int(float(t))
        day, mac = _EXCEL_1900 + dt.timedelta(days=serial), _EXCEL_1904 + dt.timedelta(days=serial)
        if not 1990 <= day.year <= 2100:
            return None
        if mac <= today:
            return Said(N_("%(given)s is a spreadsheet's date serial: %(day)s in Excel's 1900 date system, %(mac)s in "
                           "the 1904 system of older Mac workbooks: write the one meant as YYYY-MM-DD"), given=repr(t),
                        day=day.isoformat(), mac=mac.isoformat())
        return Said(N_("%(given)s is a spreadsheet's date serial: %(day)s in Excel's 1900 date system: write "
                       "%(day)s"), given=repr(t), day=day.isoformat())
    if _as_date(t) is None and (month := iso_month(t)) is not None:
        return Said(N_("%(given)s is a month, and as_of is the day the price was read: write the day, %(month)s-DD"),
                    given=repr(t), month=month)
    return None


def iso_month(value: Any) -> str | None:
    """YYYY-MM for a month written in another form (``2024/03``, ``03/2024``, ``2024-3``, ``March 2024``,
    ``202403``, ``2024年3月``, or a whole date in any form :func:`iso_date` reads); None otherwise. A YAML number
    ``2024.03`` is read as its text; ``2024.1`` could be January or October and is not."""
    if isinstance(value, dt.date):
        return value.strftime("%Y-%m")
    if isinstance(value, float):
        text = repr(value)
        value = text if re.fullmatch(r"\d{4}\.\d{2}", text) else None
    elif isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str) or len(value) > 60:
        return None
    t = value.strip()
    if date := _as_date(t):
        return date.strftime("%Y-%m")
    found: tuple[Any, Any] | None = None
    if m := _YM.fullmatch(t):
        found = m.groups()
    elif m := _MY.fullmatch(t):
        found = (m.group(2), m.group(1))
    elif (m := re.fullmatch(r"(\d{4})(\d{2})", t)) or (m := _HAN.fullmatch(t)):
        found = (m.group(1), m.group(2))
    elif m := _MONTH_WORDS.fullmatch(t):
        name, year = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
        found = (year, _month(name)) if _month(name) else None
    elif (m := _MON_YY.fullmatch(t)) and _month(m.group(1)):
        found = (2000 + int(m.group(2)), _month(m.group(1)))
    if found is None or _date(found[0], found[1], 1) is None:
        return None
    return f"{int(found[0]):04d}-{int(found[1]):02d}"


def month_text(v: Any) -> Any:
    """A field holding a month (a plan's ``owned[].bought``, a used card's ``manufactured`` / ``purchased``): a
    YAML date as its YYYY-MM; a month in another form refused with its YYYY-MM offered ('2024/03', 202403,
    'March 2024'), and a number that is none ('2024') refused as no month, where pydantic said 'Input should be a
    valid string' or 'is not in the expected form' (hostile round 44). YYYY-MM and YYYY-MM-DD pass as they are."""
    if isinstance(v, dt.date):  # a day after today kept whole, so it is refused as in the future (hostile round 53)
        day = v.date() if isinstance(v, dt.datetime) else v
        return day.isoformat() if day > dt.date.today() else v.strftime("%Y-%m")
    if isinstance(v, str) and MONTH.fullmatch(v.strip()):
        return v.strip()
    if isinstance(v, bool) or not isinstance(v, str | int | float):
        return v
    shown = repr(v.strip()) if isinstance(v, str) else repr(v)
    if isinstance(v, str):
        _span_of_months(v.strip(), shown)
    meant = iso_month(v)
    if meant is not None:
        raise Said(N_("%(given)s is not written YYYY-MM: write %(meant)s"), given=shown, meant=meant)
    if isinstance(v, int | float):
        raise Said(N_("%(given)s is a number, not a year and month: write it YYYY-MM (e.g. 2024-03)"), given=shown)
    return v


def _span_of_months(text: str, shown: str) -> None:
    """A quarter or a half year with its year ('2024 Q1', 'H2 2024') where one month goes: its first and last months
    said ('is not in the expected form', hostile round 55); a fiscal period said to be one gpuwise cannot date."""
    if _FISCAL.fullmatch(text):
        raise Said(N_("%(given)s is a fiscal period, and when a fiscal year starts differs from one company to "
                      "the next: write the calendar month, YYYY-MM"), given=shown)
    quarter, half = _QUARTER.fullmatch(text), _HALF.fullmatch(text)
    got = quarter or half
    year = got and (got.group("y1") or got.group("y2") or got.group("y3"))
    if not year:
        return
    if quarter is not None:
        han = quarter.group("hq") or ""
        start, size = 3 * (int(quarter.group("q") or (han if han.isdigit() else "一二三四".index(han) + 1)) - 1) + 1, 3
    else:
        start, size = (1 if (half.group("h") or "") == "1" or half.group("hh") == "上" else 7), 6
    raise Said(N_("%(given)s spans the months %(first)s to %(last)s: write the one month, YYYY-MM"), given=shown,
               first=f"{int(year):04d}-{start:02d}", last=f"{int(year):04d}-{start + size - 1:02d}")


def this_month() -> dt.date:
    """The first day of the current month: a plan's month 1 (plan/judge.py reads owned warranties from it too)."""
    return dt.date.today().replace(day=1)


_NTH_MONTH = re.compile(r"(?:month|mo|m)\.?\s*(\d{1,3})|(\d{1,3})\s*(?:st|nd|rd|th)(?:\s+month)?"
                        r"|第\s*(\d{1,3})\s*个?月", re.IGNORECASE)
_HAN_MONTH = re.compile(r"(\d{1,2})\s*月(?:份)?")
_QUARTER = re.compile(r"(?:(?P<y1>\d{4})\s*[-/ ]?\s*)?q(?P<q>[1-4])(?:\s*[-/ ]?\s*(?P<y2>\d{4}))?"
                      r"|(?:(?P<y3>\d{4})\s*年\s*)?第?(?P<hq>[1-4一二三四])\s*季度?", re.IGNORECASE)
"""A calendar quarter ('2027-Q2', 'Q3 2027', 'Q3', '2027年第二季度'), hostile round 52."""
_HALF = re.compile(r"(?:(?P<y1>\d{4})\s*[-/ ]?\s*)?h(?P<h>[12])(?:\s*[-/ ]?\s*(?P<y2>\d{4}))?"
                   r"|(?:(?P<y3>\d{4})\s*年\s*)?(?P<hh>[上下])半年", re.IGNORECASE)
"""A half year ('H2 2027', '2027-H1', 'H2', '2027年下半年'), hostile round 55."""
_FISCAL = re.compile(r"(?:q[1-4]\s*[-/ ]?\s*)?fy\s*'?\d{2,4}(?:\s*[-/ ]?\s*(?:q[1-4]|h[12]))?", re.IGNORECASE)
"""A fiscal period ('FY27 Q1', 'Q1 FY2027', 'FY27'): no calendar month without the company's fiscal year."""
_SAID_MONTH = {"now": 1, "this month": 1, "today": 1, "next month": 2, "本月": 1, "这个月": 1, "下个月": 2, "下月": 2}
"""A plan's month said in words, counted from month 1, this month (hostile round 52)."""


def plan_month_text(v: Any, field: str) -> Any:
    """A plan's month field (``cadence.at_month``, ``start_month``, ``end_month``), which counts the plan's months
    from 1, the current month, written as a calendar month: a month's name ('June', 'jun', '6月': the next such
    month, this one if it is it), a year and month in any form :func:`iso_month` reads ('2027-06', 'March 2027', a
    YAML date) or an ordinal ('month 4', 'M4', '4th'). Each was pydantic's 'unable to parse string as an integer'
    (hostile round 50's leftover): refused, the month's number offered, or said to be before the plan's first month.
    Anything else passes on to the field's own check."""
    if isinstance(v, bool) or not isinstance(v, str | dt.date):
        return v
    text = v.strip() if isinstance(v, str) else ""
    if isinstance(v, str) and re.fullmatch(r"\d{1,3}", text):
        return v  # '4': the number, as pydantic reads it
    first = this_month()
    shown = repr(text) if isinstance(v, str) else v.isoformat()
    ordinal = _NTH_MONTH.fullmatch(text)
    if ordinal:
        n = int(next(g for g in ordinal.groups() if g))
        raise Said(N_("%(field)s counts the plan's months from 1: %(given)s is %(field)s: %(n)s"), field=field,
                   given=shown, n=n)
    if (said := _SAID_MONTH.get(" ".join(text.lower().split()))) is not None:
        raise Said(N_("%(field)s counts the plan's months from 1, this month (%(now)s): %(given)s is %(field)s: "
                      "%(n)s"), field=field, given=shown, now=f"{first:%Y-%m}", n=said)
    if (quarter := _QUARTER.fullmatch(text)) is not None:
        _quarter(quarter, first, field, shown)
    if (half := _HALF.fullmatch(text)) is not None:
        _half(half, first, field, shown)
    if _FISCAL.fullmatch(text):
        raise Said(N_("%(given)s is a fiscal period, and when a fiscal year starts differs from one company to "
                      "the next: write the calendar month as %(field)s counts it, from 1, this month (%(now)s)"),
                   given=shown, field=field, now=f"{first:%Y-%m}")
    name = _month(text.rstrip(".")) if text else None
    if name is None and (han := _HAN_MONTH.fullmatch(text)) and 1 <= int(han.group(1)) <= 12:
        name = int(han.group(1))
    if name is not None:
        n = (name - first.month) % 12 + 1
    else:
        meant = iso_month(v)
        if meant is None:
            return v
        n = int(meant[:4]) * 12 + int(meant[5:7]) - (first.year * 12 + first.month) + 1
        if n < 1:
            raise Said(N_("%(given)s is before the plan's first month: %(field)s counts the plan's months from 1, "
                          "this month (%(now)s)"), given=shown, field=field, now=f"{first:%Y-%m}")
    raise Said(N_("%(field)s counts the plan's months from 1, this month (%(now)s): %(given)s is %(field)s: %(n)s"),
               field=field, given=shown, now=f"{first:%Y-%m}", n=n)


def _quarter(got: re.Match, first: dt.date, field: str, shown: str) -> None:
    """Refuse a quarter given for a plan's month: its three months' numbers in the plan said, its first offered; a
    quarter without a year is the next one (this one while it lasts, from month 1)."""
    han = got.group("hq") or ""
    q = int(got.group("q") or (han if han.isdigit() else "一二三四".index(han) + 1))
    year_text = got.group("y1") or got.group("y2") or got.group("y3")
    start = 3 * (q - 1) + 1
    year = (first.year if start + 2 >= first.month else first.year + 1) if year_text is None else int(year_text)
    n = year * 12 + start - (first.year * 12 + first.month) + 1
    if n + 2 < 1:
        raise Said(N_("%(given)s is before the plan's first month: %(field)s counts the plan's months from 1, "
                      "this month (%(now)s)"), given=shown, field=field, now=f"{first:%Y-%m}")
    begin = max(n, 1)
    raise Said(N_("%(field)s counts the plan's months from 1, this month (%(now)s): %(given)s, a quarter, is months "
                  "%(begin)s to %(end)s of the plan: %(field)s: %(begin)s for its first"), field=field, given=shown,
               now=f"{first:%Y-%m}", begin=begin, end=n + 2)


def _half(got: re.Match, first: dt.date, field: str, shown: str) -> None:
    """Refuse a half year given for a plan's month (hostile round 55), as :func:`_quarter` a quarter: its six months'
    numbers in the plan said, its first offered; a half without a year is the next one (this one while it lasts)."""
    start = 1 if (got.group("h") or "") == "1" or got.group("hh") == "上" else 7
    year_text = got.group("y1") or got.group("y2") or got.group("y3")
    year = (first.year if start + 5 >= first.month else first.year + 1) if year_text is None else int(year_text)
    n = year * 12 + start - (first.year * 12 + first.month) + 1
    if n + 5 < 1:
        raise Said(N_("%(given)s is before the plan's first month: %(field)s counts the plan's months from 1, "
                      "this month (%(now)s)"), given=shown, field=field, now=f"{first:%Y-%m}")
    begin = max(n, 1)
    raise Said(N_("%(field)s counts the plan's months from 1, this month (%(now)s): %(given)s, a half year, is "
                  "months %(begin)s to %(end)s of the plan: %(field)s: %(begin)s for its first"), field=field,
               given=shown, now=f"{first:%Y-%m}", begin=begin, end=n + 5)
