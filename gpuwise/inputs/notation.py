"""Numbers are read in plain decimal digits in every file gpuwise reads (requirements, proposals,
plans, answers, knowledge and policy overlays, house rules, price CSVs), written bare or in quotes.

Other notations are refused by the field, saying what the text would have meant, instead of being
read as something else: YAML 1.1 reads ``0x10`` as 16, ``0b11`` as 3 and ``1_6`` as 16 (YAML 1.2,
JSON and CSV readers take them as text), Python's ``float()`` reads fullwidth ``１６`` as 16, and
``1:20`` is the base-60 number 80 to YAML 1.1. (``010`` is 10, as YAML 1.2 and a reader read it.)
"""

from __future__ import annotations

import re
import unicodedata

from ..errors import N_, Said, Term, either

PLAIN = re.compile(r"[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?", re.ASCII)
"""A number as gpuwise reads it from text: ASCII decimal digits, a point, an exponent."""

_BASED = re.compile(r"([-+]?)0([xob])_*([0-9a-f][0-9a-f_]*)", re.ASCII | re.IGNORECASE)
_BASE = {"x": (16, N_("%(given)s is a hexadecimal number (%(meant)s in decimal): write numbers in decimal")),
         "o": (8, N_("%(given)s is an octal number (%(meant)s in decimal): write numbers in decimal")),
         "b": (2, N_("%(given)s is a binary number (%(meant)s in decimal): write numbers in decimal"))}
_GROUPED = re.compile(r"[-+]?[0-9_]*[0-9][0-9_]*(\.[0-9_]*)?([eE][-+]?[0-9_]+)?", re.ASCII)
_BASE_60 = re.compile(r"([-+]?)([0-9][0-9_]*)((?::[0-5]?[0-9])+)(\.[0-9_]*)?", re.ASCII)
_THOUSANDS = re.compile(r"[-+]?[0-9]{1,3}(?P<sep>[,' \u00a0\u2009\u202f])[0-9]{3}(?:(?P=sep)[0-9]{3})*"
                        r"(?P<point>[.,][0-9]+)?")
"""Digits grouped by threes with a comma, a space (plain, no-break or thin) or an apostrophe: '1,000', '1 000'; a
decimal comma after spaces, as French writes an amount ('1 234,56', hostile round 52)."""
_POINTS = re.compile(r"[-+]?[0-9]{1,3}(?:\.[0-9]{3}){2,}|[-+]?[0-9]{1,3}(?:\.[0-9]{3})+,[0-9]+")
"""Digits grouped by points, as much of Europe writes them: '1.000.000', '1.000,5' (a decimal comma after them)."""
_NOT_FINITE = re.compile(r"[-+]?(?:nan|inf|infinity)", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"[-+]?[0-9]+,[0-9]+")
_SEPARATORS = {",": Term(N_("commas")), "'": Term(N_("apostrophes"))}


class Meant(Said):
    """A number written in another notation: the complaint quotes the text, so a message that
    adds what was given need not."""


class Grouped(Meant):
    """A number with its thousands grouped or a decimal comma; ``by_commas``: grouped by threes with commas and no
    other mark ('200,000', '1,500'), the way an amount of money may be written (inputs/money.py reads it)."""

    by_commas = False


def fold_digits(text: str) -> str:
    """``text`` NFKC-normalised (fullwidth signs and points as ASCII) with every Unicode decimal digit
    (fullwidth, Arabic-Indic, Devanagari...) as its ASCII digit: one fold for every reader that offers or
    checks the ASCII form of what was typed. A number sign that is no decimal digit (Unicode category No: a
    superscript '²', a subscript, a circled '①', a fraction '½') is kept as written: NFKC writes '10²' as '102'
    and '2⁸' as '28', not the 100 and 256 they mean, so no reader offers that (hostile round 41). The minus sign
    U+2212, which NFKC keeps and word processors and web pages write ('−0.05'), is ASCII's (hostile round 51)."""
    out: list[str] = []
    run = ""
    for ch in text + "\0":  # the runs between such signs normalised whole (a combining mark stays with its letter)
        if unicodedata.category(ch) in ("No", "Cc"):
            out.append(unicodedata.normalize("NFKC", run))
            out.append(ch)
            run = ""
        else:
            run += ch
    return "".join(str(unicodedata.decimal(ch, ch)) for ch in "".join(out)[:-1]).replace("\u2212", "-")


def typed_form(text: str) -> str:
    """``text`` as typed at a prompt in a full-width input mode (the Chinese, Japanese and Korean input methods'
    全角): each fullwidth form of an ASCII character (U+FF01-U+FF5E: digits '１２', signs and points '－', '．', '，',
    '％', letters 'ｋ') and the ideographic space as the ASCII character NFKC gives, which is what was meant; every
    other character as typed. Other scripts' digits (Arabic-Indic '٥', Devanagari) and number signs that are no
    decimal digit (superscripts '²', circled '①': NFKC writes '10²' as '102') are kept, for :func:`other_digits` to
    refuse with the ASCII offered (hostile round 41). Only a prompt folds: a file's number fields refuse fullwidth
    digits, since a value written in a file is read by every other tool too."""
    return "".join(unicodedata.normalize("NFKC", c) if "\uff01" <= c <= "\uff5e" or c == "\u3000" else c
                   for c in text)


def _ascii_digits(text: str) -> str | None:
    """``text`` with every Unicode decimal digit (fullwidth, Arabic-Indic, Devanagari...) and
    fullwidth sign or point as its ASCII form, when that makes a plain number; else None."""
    ascii_ = fold_digits(text)
    return ascii_ if PLAIN.fullmatch(ascii_) else None


def meant(text: str) -> Meant | None:
    """Why ``text`` is not read as a number though it looks like one, and what it would have meant
    (a :class:`Meant` to raise or quote); None when it is a plain number or does not look like one."""
    t = text.strip()
    if not t or len(t) > 60 or PLAIN.fullmatch(t):
        return None
    m = _BASED.fullmatch(t)
    if m and m.group(2).lower() in _BASE:
        base, template = _BASE[m.group(2).lower()]
        try:
            value = int(m.group(3).replace("_", ""), base)
        except ValueError:
            return None
        return Meant(template, given=repr(t), meant=f"{-value if m.group(1) == '-' else value}")
    if "_" in t and _GROUPED.fullmatch(t):
        return Meant(N_("%(given)s has '_' in a number: write %(meant)s"), given=repr(t), meant=t.replace("_", ""))
    grouped = _grouped(t)
    if grouped is not None:
        return grouped
    m = _BASE_60.fullmatch(t)
    if m:
        value = float(m.group(2).replace("_", ""))
        for part in m.group(3).split(":")[1:]:
            value = value * 60 + int(part)
        value += float("0" + m.group(4).replace("_", "")) if m.group(4) else 0.0
        value = -value if m.group(1) == "-" else value
        return Meant(N_("%(given)s is a time or a ratio, not a number (YAML 1.1 reads it as %(meant)s, in base 60): "
                       "write the number"), given=repr(t), meant=f"{value:g}")
    if not t.isascii() and _ascii_digits(t) is not None:
        return other_digits(t)
    return None


def not_finite(text: str) -> Meant | None:
    """JSON's ``NaN`` and ``Infinity`` (Python's json.dumps writes them), which YAML reads as text: an input file's
    integer field said 'unable to parse string as an integer' (hostile round 52); None for other text."""
    t = text.strip()
    return Meant(N_("%(given)s is not a finite number: write a number"), given=repr(t)) if _NOT_FINITE.fullmatch(
        t) else None


def _grouped(t: str) -> Grouped | None:
    """A number whose thousands are grouped ('1,000,000', '200 000 000', "1'000") or written with a decimal comma
    ('1,5', '1.000,5'): pydantic's 'unable to parse string as a number' offered nothing (hostile round 44). One
    comma before three digits ('1,500') is said both ways: 1500 in English, 1.5 where the comma is the point."""
    m = _THOUSANDS.fullmatch(t)
    if m is not None and (m.group("point") or ".")[0] == "," and m.group("sep") in ",'":
        m = None  # '1,234,56': no grouping of a decimal comma; an apostrophe groups a decimal point (Swiss)
    if m is not None:
        point = m.group("point") or ""
        plain = re.sub(r"[,' \u00a0\u2009\u202f]", "", t[:len(t) - len(point)]) + point.replace(",", ".")
        if m.group("sep") == "," and t.count(",") == 1 and not m.group("point"):
            said = Grouped(N_("%(given)s has a comma in a number: write %(meant)s, or %(decimal)s if the comma is "
                              "the decimal point"), given=repr(t), meant=plain,
                           decimal=f"{float(t.replace(',', '.')):g}")
        else:
            said = Grouped(N_("%(given)s groups its thousands with %(sep)s: write %(meant)s"), given=repr(t),
                           sep=_SEPARATORS.get(m.group("sep"), Term(N_("spaces"))), meant=plain)
        said.by_commas = m.group("sep") == ","
        return said
    if _POINTS.fullmatch(t):
        return Grouped(N_("%(given)s groups its thousands with points: write %(meant)s"), given=repr(t),
                       meant=t.replace(".", "").replace(",", "."))
    if _DECIMAL_COMMA.fullmatch(t):
        return Grouped(N_("%(given)s has a decimal comma: write %(meant)s"), given=repr(t), meant=t.replace(",", "."))
    return None


def other_digits(text: str) -> Meant | None:
    """``text`` written with a decimal digit other than 0-9 or a fullwidth sign or point (fullwidth '１６', '－8',
    Arabic-Indic '٥٠٠٠٠', a size '٧b', an amount '５万'): the complaint that names the first such digit (else the first
    such sign) and offers the text as :func:`fold_digits` writes it; None where the fold changes nothing. Python's
    ``float()`` and ``\\d`` read those digits, so a reader that parses typed text itself asks this first, as every
    file's number field refuses them (the questionnaire's answers: hostile round 41)."""
    t = text.strip()
    changed = [c for c in t if not c.isascii() and fold_digits(c) != c]
    if not changed:
        return None
    # by its name: an ASCII terminal shows '１６' as '16'
    odd = next((c for c in changed if c.isdecimal()), changed[0])
    return Meant(N_("%(given)s has digits other than 0-9 (%(char)s): write %(meant)s"), given=repr(t),
                 char=f"U+{ord(odd):04X} {unicodedata.name(odd, '')}".strip(), meant=fold_digits(t))


def number_text(text: str) -> float | None:
    """``text`` as a number when it is written as one (:data:`PLAIN`); raises the :func:`meant`
    complaint for another notation; None for other text."""
    if PLAIN.fullmatch(text.strip()):
        return float(text)
    said = meant(text)
    if said is not None:
        raise said
    return None


def version_text(v: object, field_name: str) -> object:
    """A release written as a YAML number: ``26`` is its text "26", but ``25.10`` is the number 25.1, another
    release (ROCm 7.10, NeMo 25.10, bitsandbytes 0.50 and vLLM 0.10 lose their zero), so a version with a
    decimal point is asked for in quotes; text passes as it is, for the field's own pattern to check."""
    if isinstance(v, float) and re.fullmatch(r"\d+\.\d+", repr(v)):
        raise Said(N_('write the version in quotes (%(field_name)s: "%(v)s"): YAML reads 1.20 as 1.2'),
                   field_name=field_name, v=v)
    # -4.5, 1e+308 or nan is no release in quotes either: its text goes to the field's form, which refuses it
    return str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v


_MONEY = re.compile(
    r"^\s*(?P<pre>\$|US\$|¥|￥|USD|CNY|RMB)?\s*(?P<num>[0-9][0-9,]*(?:\.[0-9]+)?(?:e[-+]?[0-9]{1,4})?)\s*"
    r"(?P<mult>k|m|万|亿)?\s*(?P<post>USD|CNY|RMB|dollars?|yuan|元|\$|¥|￥)?\s*$", re.IGNORECASE)  # '2.49$' (round 55)
CURRENCY_NAMES = {"$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD", "美元": "USD",
                  "¥": "CNY", "￥": "CNY", "cny": "CNY", "rmb": "CNY", "renminbi": "CNY", "yuan": "CNY", "元": "CNY",
                  "人民币": "CNY"}
"""A currency's other names, lower case, as people write it beside an amount or in a currency field: read in an
amount (``RMB 1.5m``), offered where a currency field or option is given one (``currency: RMB``, hostile round 47's
``--currency RMB`` and round 48's files and price CSVs)."""
_MULT = {"k": 1e3, "m": 1e6, "万": 1e4, "亿": 1e8}
OTHER_CURRENCY_NAMES = {"€": "EUR", "eur": "EUR", "euro": "EUR", "euros": "EUR", "£": "GBP", "gbp": "GBP",
                        "₹": "INR", "inr": "INR", "₩": "KRW", "krw": "KRW", "jpy": "JPY", "yen": "JPY", "円": "JPY",
                        "chf": "CHF", "cad": "CAD", "c$": "CAD", "aud": "AUD", "a$": "AUD", "sgd": "SGD", "s$": "SGD",
                        "hkd": "HKD", "hk$": "HKD", "twd": "TWD", "nt$": "TWD", "₽": "RUB", "rub": "RUB"}
"""Currencies gpuwise does not price in (it prices in USD and CNY: tco.yaml's usd_cny the one rate it holds), by
the names written beside an amount: '€20,000', '20000 EUR', '£1.5k' were 'not an amount' or 'not a number', EUR
not named as the problem (hostile round 48, left; hostileleft60). ¥ is CNY's here (:data:`CURRENCY_NAMES`)."""
_OTHER_MONEY = re.compile(r"^\s*(?P<pre>[^\d\s.+-][^\d\s]*?)?\s*[-+]?[0-9][0-9,.]*(?:e[-+]?[0-9]{1,4})?\s*"
                          r"(?:k|m|万|亿)?\s*(?P<post>[^\d\s][^\d]*?)?\s*$", re.IGNORECASE)
OTHER_CURRENCY = N_("%(text)s is an amount in %(currency)s, a currency gpuwise does not price in: write it in "
                    "%(choices)s")


def other_currency(text: str) -> str | None:
    """The code of a currency gpuwise does not price in that ``text``, an amount, is written in ('€20,000',
    '20000 EUR', '2.50 EUR/hr', '£1.5k': EUR, GBP); None for any other text."""
    m = _OTHER_MONEY.match(text) if len(text) <= 60 else None
    if m is None:
        return None
    post = re.split(r"\s*(?:/|\bper\b|\ban?\b)\s*", (m.group("post") or "").strip(), maxsplit=1)[0]
    return OTHER_CURRENCY_NAMES.get((m.group("pre") or "").strip().lower()) or OTHER_CURRENCY_NAMES.get(post.lower())


def raise_other_currency(text: str) -> None:
    """Refuse an amount written in a currency gpuwise does not price in, naming it and the ones it takes."""
    code = other_currency(text)
    if code is not None:
        raise Said(OTHER_CURRENCY, text=f"{text.strip()!r}", currency=code, choices=either(["USD", "CNY"]))


def parse_money(text: str) -> tuple[float, str | None]:
    """An amount as people write it: ``$200,000``, ``¥1500000``, ``1500000 CNY``, ``RMB 1.5m``,
    ``150万元`` -> (amount, currency or None when no currency is written)."""
    said = meant(text)  # '0x10', '1_000', '１６', '1,5', '20 000': said what it would have meant
    if said is not None and not getattr(said, "by_commas", False):  # '200,000' is an amount as people write it
        raise said
    m = _MONEY.match(text)
    if m is None:
        raise_other_currency(text)  # '€20,000': EUR named, and USD and CNY
        raise Said(N_('%(text)s is not an amount (write e.g. 200000, "$200,000" or "1500000 CNY")'), text=f"{text!r}")
    pre, post = (m.group("pre") or "").lower(), (m.group("post") or "").lower()
    cur_pre, cur_post = CURRENCY_NAMES.get(pre), CURRENCY_NAMES.get(post)
    if cur_pre and cur_post and cur_pre != cur_post:
        raise Said(N_("%(text)s names two currencies"), text=f"{text!r}")
    amount = float(m.group("num").replace(",", ""))
    amount *= _MULT.get((m.group("mult") or "").lower(), 1.0)
    return amount, cur_pre or cur_post
