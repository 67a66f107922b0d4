"""A number field given with its unit written out, as a tired user writes it from a model card, a dashboard or
an engine's flag: ``params_b: 8B`` or ``70b``, ``params_b: 8e9`` (the parameters counted, not in billions),
``p95_ttft_s: 500ms``, ``max_tpot_ms: 0.05s``, ``requests_per_s: 120/min``. Pydantic's refusal said only
'unable to parse string as a number' or 'less than or equal to 100000' (hostile round 43); the field's name says
its unit, so the refusal offers the number in it. Nothing is read silently: the value is still refused.

Hostile round 45 adds the units a hurried user writes elsewhere: RAM in GB, GiB or TB (``host_ram_gb: 80GB``,
``2 TB``), a share as a percentage (``memory_fraction: 90%``, ``growth_per_month: 10%``), hours, days, weeks, months
and years (``hours_per_day: 8h``, ``deadline_days: 2 weeks``, ``horizon_months: 1 year``), runs a month
(``per_month: 2/month``), GPUs, servers, sequences and requests counted with their noun (``count: 8x``,
``servers: 2 servers``, ``batch_size: 16 sequences``), watts, tokens with a multiplier (``train_tokens: 2B``;
``seq_len: 4k``, offered both as 4 x 1,024 and 4 x 1,000) and an amount a unit (``hourly_usd: $2.50/h``,
``electricity_usd_per_kwh: $0.15/kWh``)."""

from __future__ import annotations

import re
from typing import Any

from ..errors import N_, Said
from .notation import PLAIN, Meant, parse_money, raise_other_currency

_WITH_UNIT = re.compile(rf"\s*(?P<num>{PLAIN.pattern})\s*(?P<unit>[^\d\s.+-].*?)\s*", re.ASCII)

#: The units a size in billions of parameters is written with, in billions.
_SIZE = {"b": 1.0, "bn": 1.0, "billion": 1.0, "m": 1e-3, "million": 1e-3, "t": 1e3, "trillion": 1e3}
#: The units a time is written with, in seconds.
_TIME = {"ms": 1e-3, "msec": 1e-3, "milliseconds": 1e-3, "millisecond": 1e-3, "us": 1e-6, "µs": 1e-6, "μs": 1e-6,
         "s": 1.0, "sec": 1.0, "secs": 1.0, "second": 1.0, "seconds": 1.0, "min": 60.0, "minute": 60.0,
         "minutes": 60.0}
#: The units a request rate is written with, in requests a second.
_RATE = {"/s": 1.0, "/sec": 1.0, "rps": 1.0, "qps": 1.0, "req/s": 1.0, "requests/s": 1.0, "per second": 1.0,
         "/min": 1 / 60, "rpm": 1 / 60, "req/min": 1 / 60, "requests/min": 1 / 60, "per minute": 1 / 60,
         "/h": 1 / 3600, "/hr": 1 / 3600, "/hour": 1 / 3600, "req/h": 1 / 3600, "per hour": 1 / 3600,
         "/day": 1 / 86400, "/d": 1 / 86400, "req/day": 1 / 86400, "requests/day": 1 / 86400, "per day": 1 / 86400,
         "a day": 1 / 86400, "a second": 1.0, "a minute": 1 / 60, "an hour": 1 / 3600}
#: A request rate's multiplier before its unit, or alone ('1.2k', '1M/day', '2k rpm': a dashboard's figure).
_RATE_MULT = {"k": 1e3, "m": 1e6}

#: RAM in gigabytes (10^9 bytes, as the fields count it); the binary units converted.
_GB = {"gb": 1.0, "g": 1.0, "gbyte": 1.0, "gigabyte": 1.0, "gib": 2**30 / 1e9, "tb": 1e3, "t": 1e3, "terabyte": 1e3,
       "tib": 2**40 / 1e9, "mb": 1e-3, "mib": 2**20 / 1e9}
#: A share written as a percentage, for a field that holds a fraction (0.1 for 10%).
_FRACTION = {"%": 0.01, "percent": 0.01, "pct": 0.01}
#: A percentage field's own unit.
_PERCENT = {"%": 1.0, "percent": 1.0, "pct": 1.0}
#: Hours (a day's: '8h', '8 h/day', '8 hours a day').
_HOURS = {"h": 1.0, "hr": 1.0, "hrs": 1.0, "hour": 1.0, "hours": 1.0}
#: Days, weeks and hours, in days.
_DAYS = {"d": 1.0, "day": 1.0, "days": 1.0, "w": 7.0, "wk": 7.0, "wks": 7.0, "week": 7.0, "weeks": 7.0,
         "h": 1 / 24, "hr": 1 / 24, "hrs": 1 / 24, "hour": 1 / 24, "hours": 1 / 24}
#: Months and years, in months.
_MONTHS = {"mo": 1.0, "mos": 1.0, "month": 1.0, "months": 1.0, "y": 12.0, "yr": 12.0, "yrs": 12.0, "year": 12.0,
           "years": 12.0}
#: Runs a month, and a year.
_PER_MONTH = {"/month": 1.0, "/mo": 1.0, "a month": 1.0, "per month": 1.0, "x/month": 1.0, "x a month": 1.0,
              "times a month": 1.0, "/year": 1 / 12, "/yr": 1 / 12, "a year": 1 / 12, "per year": 1 / 12}
#: A count of GPUs with its noun ('8x', '8 GPUs', '8 cards').
_GPUS = {"x": 1.0, "gpu": 1.0, "gpus": 1.0, "card": 1.0, "cards": 1.0, "x gpu": 1.0, "x gpus": 1.0,
         # a Chinese quote's measure words for cards: '8卡', '8张', '8块', '8张卡' (hostile round 55)
         "卡": 1.0, "张": 1.0, "块": 1.0, "张卡": 1.0, "块卡": 1.0}
#: A micro-batch with its noun.
_SEQUENCES = {"sequence": 1.0, "sequences": 1.0, "seq": 1.0, "seqs": 1.0, "sample": 1.0, "samples": 1.0}
#: Requests in flight with their noun.
_REQUESTS = {"request": 1.0, "requests": 1.0, "req": 1.0, "reqs": 1.0, "user": 1.0, "users": 1.0,
             "sequence": 1.0, "sequences": 1.0, "in flight": 1.0, "requests in flight": 1.0, "concurrent": 1.0}
#: Servers (nodes, machines) with their noun.
_SERVERS = {"server": 1.0, "servers": 1.0, "node": 1.0, "nodes": 1.0, "machine": 1.0, "machines": 1.0,
            "box": 1.0, "boxes": 1.0, "x": 1.0,
            # machines and nodes as a Chinese quote counts them: '2台', '2台服务器', '2个节点' (hostile round 55)
            "台": 1.0, "台服务器": 1.0, "台机器": 1.0, "节点": 1.0, "个节点": 1.0}
#: Watts.
_WATTS = {"w": 1.0, "watt": 1.0, "watts": 1.0, "kw": 1e3}
#: A token count's multiplier (k is said both ways: a context of '4k' is 4,096 tokens, '1k' output often 1,000).
_TOKENS = {"": 1.0, "m": 1e6, "million": 1e6, "b": 1e9, "bn": 1e9, "billion": 1e9, "t": 1e12, "trillion": 1e12}
#: Tokens a second, with a multiplier.
_TOKEN_RATE = {"tok/s": 1.0, "tokens/s": 1.0, "t/s": 1.0, "tps": 1.0, "k tok/s": 1e3, "k tokens/s": 1e3,
               "k": 1e3, "ktok/s": 1e3, "k t/s": 1e3}
#: What an amount is a price of, by the field: its per-unit suffixes ('$2.50/h', '$0.15/kWh', '$500/day').
_PER_UNIT = {"hourly_usd": r"(?:(?:/\s*|per\s+|an?\s+)(?:gpu[\s/·-]*)?(?:h|hr|hour)s?(?:\s*/\s*gpu)?"
                           # '28元/小时', '28元每卡时' (hostile round 51); '17.5 元/卡/小时', '¥17.5/GPU·h' (round 55)
                           r"|\s*(?:/|每)\s*(?:卡\s*/?\s*)?(?:小时|时|h)(?:\s*/\s*卡)?)",
             "electricity_usd_per_kwh": r"(?:/|per\s+|an?\s+)kwh",
             "value_of_a_day_usd": r"(?:/|per\s+|an?\s+)(?:d|day)",
             # a quote's price of one GPU ('$30,000.00/GPU', '30,000 per GPU', '$30,000 each', hostile round 52)
             "unit_price_usd": r"(?:(?:/|per\s+|an?\s+)(?:gpu|card|unit|pc|piece)|\s*each|\s*ea\.?)",
             # no field's: a price CSV's cell priced by the month ('$1800/month'), offered an hour (round 48)
             "a_month": r"(?:/|per\s+|an?\s+)(?:mo|mon|mth|month)s?"}

_SAID = {
    "size": N_("%(given)s: %(field)s is the size in billions of parameters, a number: write %(meant)s"),
    "s": N_("%(given)s: %(field)s is a number of seconds: write %(meant)s"),
    "ms": N_("%(given)s: %(field)s is a number of milliseconds: write %(meant)s"),
    "rate": N_("%(given)s: %(field)s is a number of requests a second: write %(meant)s"),
    "gb": N_("%(given)s: %(field)s is a number of gigabytes (GB): write %(meant)s"),
    "fraction": N_("%(given)s: %(field)s is a fraction, 0.1 for ten percent: write %(meant)s"),
    "percent": N_("%(given)s: %(field)s is a number of percent: write %(meant)s"),
    "hours": N_("%(given)s: %(field)s is a number of hours: write %(meant)s"),
    "days": N_("%(given)s: %(field)s is a number of days: write %(meant)s"),
    "months": N_("%(given)s: %(field)s is a number of months: write %(meant)s"),
    "per_month": N_("%(given)s: %(field)s is a number of runs a month: write %(meant)s"),
    "gpus": N_("%(given)s: %(field)s is a number of GPUs: write %(meant)s"),
    "sequences": N_("%(given)s: %(field)s is a number of sequences: write %(meant)s"),
    "requests": N_("%(given)s: %(field)s is a number of requests: write %(meant)s"),
    "watts": N_("%(given)s: %(field)s is a number of watts: write %(meant)s"),
    "servers": N_("%(given)s: %(field)s is a number of servers: write %(meant)s"),
    "tokens": N_("%(given)s: %(field)s is a number of tokens: write %(meant)s"),
    "token_rate": N_("%(given)s: %(field)s is a number of tokens a second: write %(meant)s"),
}
_SERVERS_IN_GPUS = N_("%(given)s counts servers, and %(field)s is the number of GPUs in all: put %(n)s in "
                      "%(servers)s and the GPUs in %(field)s")
_KILO_TOKENS = N_("%(given)s: %(field)s is a number of tokens: write %(meant)s if k is 1,024, or %(decimal)s if it "
                  "is 1,000")
_AMOUNT = N_("%(given)s: %(field)s is a number in the file's currency (constraints.currency): write %(meant)s")


def _kind(name: str) -> tuple[str, dict[str, float], float] | None:
    """The unit a field's name gives it: its kind, the units it may be written in and its own unit's size."""
    if name.endswith("params_b"):
        return "size", _SIZE, 1.0
    if name.endswith("requests_per_s"):
        return "rate", _RATE, 1.0
    if re.search(r"_(ttft|tpot)_s$", name):
        return "s", _TIME, 1.0
    if re.search(r"_(ttft|tpot)_ms$", name):
        return "ms", _TIME, 1e-3
    return _NAMED.get(name) or next((k for suffix, k in _SUFFIXED if name.endswith(suffix)), None)


_NAMED: dict[str, tuple[str, dict[str, float], float]] = {
    "growth_per_month": ("fraction", _FRACTION, 1.0), "acceptance_rate": ("fraction", _FRACTION, 1.0),
    "hours_per_day": ("hours", _HOURS, 1.0),
    "months": ("months", _MONTHS, 1.0), "per_month": ("per_month", _PER_MONTH, 1.0),
    "count": ("gpus", _GPUS, 1.0), "max_gpus": ("gpus", _GPUS, 1.0), "batch_size": ("sequences", _SEQUENCES, 1.0),
    "concurrent_requests": ("requests", _REQUESTS, 1.0), "concurrency": ("requests", _REQUESTS, 1.0),
    "seq_len": ("tokens", _TOKENS, 1.0), "servers": ("servers", _SERVERS, 1.0), "nodes": ("servers", _SERVERS, 1.0)}
"""Fields whose whole name says their unit."""
_SUFFIXED: tuple[tuple[str, tuple[str, dict[str, float], float]], ...] = (
    ("_gb", ("gb", _GB, 1.0)), ("_fraction", ("fraction", _FRACTION, 1.0)), ("_hit_rate", ("fraction", _FRACTION, 1.0)),
    ("_percent", ("percent", _PERCENT, 1.0)),
    ("_days", ("days", _DAYS, 1.0)), ("_months", ("months", _MONTHS, 1.0)), ("_w", ("watts", _WATTS, 1.0)),
    ("tokens_per_s", ("token_rate", _TOKEN_RATE, 1.0)), ("_tokens", ("tokens", _TOKENS, 1.0)))
"""Fields whose name ends in their unit (``host_ram_gb``, ``memory_fraction``, ``deadline_days``, ``train_tokens``)."""


def _unit(text: str, what: str) -> str:
    """The unit as written, lower case, its spaces single; a day's hours without the day ('8 h/day' is 8 h)."""
    unit = " ".join(text.lower().split())
    if what == "hours":
        unit = re.sub(r"\s*(?:/\s*d(?:ay)?|a day|per day)$", "", unit)
    return unit


def _tokens(v: str, name: str) -> None:
    """A token count written with a multiplier, and the word 'tokens' or none ('2B', '500M tokens', '4k'): refused
    offering it written out; 'k' both ways (1,024 and 1,000)."""
    m = re.fullmatch(rf"\s*(?P<num>{PLAIN.pattern})\s*(?P<mult>[a-z]*)\s*(?:tokens?|tok)?\s*", v, re.ASCII | re.I)
    if m is None or not (m.group("mult") or re.search(r"to?k", v, re.I)):
        return
    num, mult = float(m.group("num")), m.group("mult").lower()
    if mult == "k":
        raise Meant(_KILO_TOKENS, given=repr(v), field=name, meant=_whole(num * 1024), decimal=_whole(num * 1000))
    if mult in _TOKENS:
        raise Meant(_SAID["tokens"], given=repr(v), field=name, meant=_whole(num * _TOKENS[mult]))


PERCENT_MEANT = N_("%(share)s is a fraction, 0.1 for ten percent: write %(meant)s if %(given)s is a percentage")


def percent_meant(name: str, value: Any, bound: dict[str, Any]) -> dict[str, str] | None:
    """The values of :data:`PERCENT_MEANT` where a share field (``prefix_cache_hit_rate``, ``memory_fraction``,
    ``speculative.acceptance_rate``, ``growth_per_month``) is given a whole percentage past its bound (80 for 0.8:
    pydantic said only 'less than or equal to 0.99', hostile round 48) and the fraction it would be is within
    ``bound`` (pydantic's ``le`` / ``lt``, empty for none); else None."""
    kind = _kind(name)
    if kind is None or kind[0] != "fraction" or isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if not 1 < value <= 100:
        return None
    meant = value / 100
    if ("le" in bound and meant > bound["le"]) or ("lt" in bound and meant >= bound["lt"]):
        return None
    return {"share": name, "meant": _number(meant), "given": _number(float(value))}


def _whole(v: float) -> str:
    """A count written out in digits where it is whole (2000000000, not 2e+09)."""
    return f"{v:.0f}" if v.is_integer() and abs(v) < 1e16 else _number(v)


def amount_per_unit(v: str, name: str) -> tuple[float, str | None] | None:
    """The amount and its currency (None where none is written) of a price a unit written with its currency and
    unit for the field ``name`` ('$2.50/h', '2.50 USD/hr', '$0.15/kWh'), or of an amount with no unit ('$0.15');
    None for a plain number or text that is no amount. Read by :func:`parse_money`, as every amount is."""
    m = re.fullmatch(rf"(?P<amount>.*?)\s*(?:{_PER_UNIT[name]})?\s*", v, re.I)
    if m is None or not m.group("amount").strip() or PLAIN.fullmatch(v.strip()):
        return None
    try:
        return parse_money(m.group("amount"))
    except (Said, ValueError):
        return None


_FOR_GPUS = re.compile(r"(?P<price>.+?)\s*(?:\bfor\s+(?P<n>\d{1,4})\s*(?:x\s*)?(?:gpus?|cards?)"
                       r"|\(\s*(?P<m>\d{1,4})\s*(?:x|gpus?|x\s*gpus?)\s*\))\s*", re.I)
_FOR_GPUS_SAID = N_("%(given)s is a price for %(n)s GPUs, and %(field)s is one GPU's: write %(meant)s")


#: A price of a whole server an hour ('$19.92/node/hr', '$19.92 per node-hour', '19.92/hr/node'): a quote's node or
#: instance price in a GPU's field (hostile round 55).
PER_NODE = re.compile(r"(?P<price>.+?)\s*(?:(?:/|per\s+|an?\s+)(?:node|server|instance|machine|box)[\s/-]*"
                      r"(?:h|hr|hour)s?|(?:/|per\s+|an?\s+)(?:h|hr|hour)s?\s*/\s*(?:node|server|instance|machine|box))\s*",
                      re.I)
_PER_NODE_SAID = N_("%(given)s is a server's price, and %(field)s is one GPU's: write the server's price over its "
                    "GPUs")
_A_MONTH_SAID = N_("%(given)s is a price a month, and %(field)s is the price an hour: write %(meant)s (%(amount)s / "
                   "%(hours)s hours) if it is billed by the month")
HOURS_PER_MONTH = 730.0
"""gpuwise/ledger.py's month, 8,760 / 12 hours (what a monthly bill covers), not imported: the inputs stand apart
from the ledger (tests/test_hostile55.py holds the two equal)."""


def _per_unit_amount(v: str, name: str) -> None:
    """A price a unit written with its currency and unit: refused offering the amount, in the file's currency as
    the field is (hostile round 45); a price for several GPUs ('$19.92/hr for 8 GPUs', an instance's) offering one
    GPU's, and an amount in a currency gpuwise does not price in ('2,49 €/h') naming it (hostile round 52)."""
    several = _FOR_GPUS.fullmatch(v) if name == "hourly_usd" else None
    if several is not None and (n := int(several.group("n") or several.group("m"))) > 0:
        whole = amount_per_unit(several.group("price"), name)
        if whole is not None:
            raise Meant(_FOR_GPUS_SAID, given=repr(v.strip()), n=n, field=name, meant=f"{whole[0] / n:.6g}")
    read = amount_per_unit(v, name)
    if read is not None:
        raise Meant(_AMOUNT, given=repr(v.strip()), field=name, meant=f"{read[0]:.15g}")
    node = PER_NODE.fullmatch(v) if name == "hourly_usd" else None
    price = node.group("price") if node is not None else ""
    if node is not None and (PLAIN.fullmatch(price.strip()) or amount_per_unit(price, name)):
        raise Meant(_PER_NODE_SAID, given=repr(v.strip()), field=name)
    month = amount_per_unit(v, "a_month") if name == "hourly_usd" else None
    if month is not None and month[1] in (None, "USD") and month[0] > 0:  # '$1,793/mo' (hostile round 55)
        raise Meant(_A_MONTH_SAID, given=repr(v.strip()), field=name, meant=f"{month[0] / HOURS_PER_MONTH:.4g}",
                    amount=f"{month[0]:.15g}", hours=f"{HOURS_PER_MONTH:g}")
    raise_other_currency(v)


def _number(v: float) -> str:
    return f"{v:.6g}"


#: A number offered past the field's bound ('50 years' for horizon_months, at most 60): the bound said after it
#: (hostile round 48: 'write 600' alone was refused again at once).
_PAST = {"le": N_("%(meant)s is past its bound: %(field)s must be at most %(bound)s"),
         "lt": N_("%(meant)s is past its bound: %(field)s must be less than %(bound)s"),
         "ge": N_("%(meant)s is past its bound: %(field)s must be at least %(bound)s"),
         "gt": N_("%(meant)s is past its bound: %(field)s must be more than %(bound)s")}


def _offer(template: str | tuple[str, ...], value: float, bounds: dict[str, float], **values: Any) -> Meant:
    """The refusal offering ``value`` (written as ``values['meant']``), with the bound it passes where it does."""
    past = next((k for k, b in bounds.items() if not {"le": value <= b, "lt": value < b, "ge": value >= b,
                                                      "gt": value > b}[k]), None)
    if past is None:
        return Meant(template, **values)
    return Meant((*template, _PAST[past]) if isinstance(template, tuple) else (template, _PAST[past]), **values,
                 bound=f"{bounds[past]:g}")


def raise_unit_written(v: Any, name: str, bounds: dict[str, float] | None = None,
                       servers_field: str | None = None) -> None:
    """Refuse ``v`` for the field ``name`` where it is a number written with a unit the field's name fixes
    (offering it in the field's unit), or a parameter count given to a size in billions; else return. ``bounds``:
    the field's (``le``, ``lt``, ``ge``, ``gt``), said after a number offered past one; ``servers_field``: where the
    section beside a GPU count takes its servers (``nodes``, an owned entry's ``servers``), for '2 nodes' given as
    the count."""
    bounds = bounds or {}
    if name in _PER_UNIT and isinstance(v, str):
        _per_unit_amount(v, name)
    kind = _kind(name)
    if kind is None:
        return
    what, units, own = kind
    try:  # a count of parameters: 1e6 (a million, 0.001 B) up to 1e15 (a million billion, past the field's bound)
        count = float(v) if isinstance(v, str) and PLAIN.fullmatch(v.strip()) else (
            float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None)
    except OverflowError:  # 10**400 written out: the field's own bound says it
        count = None
    if what == "size" and count is not None and 1e6 <= count <= 1e15:
        raise _offer(N_("%(given)s is a count of parameters, and %(field)s is in billions: write %(meant)s"),
                     count / 1e9, bounds, given=repr(v) if isinstance(v, str) else f"{count:,.0f}", field=name,
                     meant=_number(count / 1e9))
    if not isinstance(v, str):
        return
    if what == "tokens":
        _tokens(v, name)
        return
    if name == "growth_per_month":
        _growth(v, name, bounds)
    grouped = _GROUPED_UNIT.fullmatch(v)  # '2,000 ms', '1,200 rpm' (hostile round 52): the thousands joined
    m = _WITH_UNIT.fullmatch(v if grouped is None else grouped.group("num").replace(",", "") + " " +
                             grouped.group("unit"))
    if m is None:
        return
    unit = _unit(m.group("unit"), what)
    if what == "gpus" and unit != "x" and unit in _SERVERS:  # '2 nodes' in a GPU count (hostile round 55)
        raise Meant(_SERVERS_IN_GPUS, given=repr(v), field=name, servers=servers_field or "nodes", n=m.group("num"))
    if what == "rate":  # '300 requests per minute', '5 queries a second' (hostile round 52): the noun before the unit
        unit = re.sub(r"^(?:requests?|reqs?|queries|query|calls?)\s*(?=/|per\b|an?\b)", "", unit)
    scale = units.get(unit) or (units.get(unit.rstrip("s")) if what == "size" else None)
    mult = re.fullmatch(r"([km])\s*(.*)", unit) if what == "rate" and scale is None else None
    if mult and (mult.group(2) == "" or mult.group(2) in _RATE):  # '1.2k', '1M/day' (hostile round 50)
        scale = _RATE_MULT[mult.group(1)] * (_RATE[mult.group(2)] if mult.group(2) else 1.0)
    if scale is None:
        return
    value = float(m.group("num")) * scale / own
    meant = _whole(value) if what == "token_rate" else _number(value)
    if grouped is not None and re.fullmatch(r"\d{1,3},\d{3}", grouped.group("num")):
        # one comma before three digits may be a decimal comma: both readings, as a number alone has them
        decimal = float(grouped.group("num").replace(",", ".")) * scale / own
        raise _offer((_SAID[what], _OR_DECIMAL), value, bounds, given=repr(v), field=name, meant=meant,
                     decimal=_number(decimal))
    raise _offer(_SAID[what], value, bounds, given=repr(v), field=name, meant=meant)


_GROUPED_UNIT = re.compile(r"\s*(?P<num>[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?)\s*(?P<unit>[^\d\s.,+-].*?)\s*")
_OR_DECIMAL = N_("or %(decimal)s if the comma is the decimal point")
_MONTHLY = re.compile(r"%\s*(?:/\s*(?:mo|mon|month)|(?:a|per)\s+month|mom|m/m|monthly|month[- ]over[- ]month)")
_YEARLY = re.compile(r"%\s*(?:/\s*(?:y|yr|year)|(?:a|per)\s+year|yoy|y/y|yearly|annually|a\s+yr|year[- ]over[- ]year)")
_GROWTH_YEAR = N_("%(given)s is a growth a year, and %(field)s is a month's: write %(meant)s (compounded: 1 + %(year)s "
                  "a year is 1 + %(meant)s a month over twelve months)")


def _growth(v: str, name: str, bounds: dict[str, float]) -> None:
    """A growth written a month with its period ('5%/mo', '5% MoM') or a year ('60%/yr', '60% YoY', hostile round
    52): pydantic's 'unable to parse string as a number'; a month's share offered, a year's compounded to a
    month's ((1 + yearly)^(1/12) - 1, as the plan compounds growth_per_month month on month)."""
    m = re.fullmatch(rf"\s*(?P<num>{PLAIN.pattern})\s*(?P<unit>%.*?)\s*", v, re.ASCII)
    if m is None:
        return
    unit, share = " ".join(m.group("unit").lower().split()), float(m.group("num")) / 100
    if _MONTHLY.fullmatch(unit):
        raise _offer(_SAID["fraction"], share, bounds, given=repr(v), field=name, meant=_number(share))
    if _YEARLY.fullmatch(unit) and share > -1:
        month = (1 + share) ** (1 / 12) - 1
        raise _offer(_GROWTH_YEAR, month, bounds, given=repr(v), field=name, meant=_number(month),
                     year=_number(share))


#: A link's line rate written with its unit, in Gb/s: bits ('400 Gbps', '400Gb/s', '400G', '400GbE', '100 Mbps',
#: '1.6 Tbps'), or bytes where the B is a capital before '/s' or 'ps' ('50 GB/s': 400 Gb/s).
_LINK = {"g": 1.0, "gb": 1.0, "gbe": 1.0, "gbps": 1.0, "gb/s": 1.0, "gbit": 1.0, "gbit/s": 1.0, "gbits/s": 1.0,
         "m": 1e-3, "mb": 1e-3, "mbe": 1e-3, "mbps": 1e-3, "mb/s": 1e-3, "mbit/s": 1e-3, "t": 1e3, "tb": 1e3,
         "tbps": 1e3, "tb/s": 1e3, "tbit/s": 1e3}


def link_gbps(text: str) -> float | None:
    """The line rate in Gb/s that ``text`` writes as a number and a unit (a network given as its speed, hostile
    round 46), or None where it is no such text."""
    m = _WITH_UNIT.fullmatch(text) if len(text) <= 40 else None
    if m is None:
        return None
    unit = re.sub(r"\s+", "", m.group("unit"))
    if re.fullmatch(r"[GMT]B(?:/s|ps)", unit):  # bytes a second
        return float(m.group("num")) * 8 * _LINK[unit[0].lower()]
    scale = _LINK.get(unit.lower())
    return float(m.group("num")) * scale if scale is not None else None
