"""An instance a price CSV lists in yuan and in dollars: the rows compared as money, and the row left out said.

gpuwise's own CSV layout has a ``currency`` column (USD or CNY), so one instance may be given twice, once in each;
the import keeps one offer per instance type, the cheaper in US dollars at the knowledge base's dated rate, and
the kept offer's notes name the other row (docs/knowledge.md)."""

from __future__ import annotations

from typing import Any

from ..errors import N_, Said


def in_usd(kb: Any, price: float, currency: str) -> float:
    """An instance's hourly price in US dollars at the knowledge base's dated rate (tco.yaml usd_cny), so that rows
    of one instance in yuan and in dollars are compared as money: 100 CNY (~$14) is cheaper than 20 USD, which the
    bare numbers put the other way. Without a rate the numbers are compared as written."""
    fx = kb.tco.values.get("usd_cny") if currency == "CNY" else None
    return price / fx.value if fx is not None and fx.value > 0 else price


def other_currency_rows(kb: Any, kept: Any, rows: Any) -> list[Said]:
    """The rows of the kept offer's instance priced in another currency, left out: each said with its line, its
    price and that price in US dollars, and why the kept row won (cheaper in dollars at the dated rate). Before,
    an instance listed in CNY and in USD kept one with no word of the other (hostile round 54's leftover)."""
    fx = kb.tco.values.get("usd_cny")
    out = []
    for line, price, currency, _region in rows:
        if currency == kept.currency:
            continue
        rate = f"{fx.value:g}" if fx is not None else "?"
        as_of = fx.as_of.isoformat() if fx is not None and fx.as_of is not None else "?"
        usd = (f"{in_usd(kb, price, currency):.4g}", f"{in_usd(kb, kept.price, kept.currency):.4g}")
        said = (N_("line %(line)s lists it at %(price)s %(currency)s/h, the same in US dollars at %(rate)s CNY a USD "
                   "(%(as_of)s): left out, this row comes first") if usd[0] == usd[1] else
                N_("line %(line)s lists it at %(price)s CNY/h, %(usd)s USD at %(rate)s CNY a USD (%(as_of)s): left "
                   "out, this row's %(kept)s USD/h is cheaper") if currency == "CNY" else
                N_("line %(line)s lists it at %(price)s %(currency)s/h: left out, this row's %(kept)s CNY/h is "
                   "%(kept_usd)s USD at %(rate)s CNY a USD (%(as_of)s), cheaper"))
        out.append(Said(said, line=line, price=f"{price:g}", currency=currency, usd=usd[0], rate=rate, as_of=as_of,
                        kept=f"{kept.price:g}", kept_usd=usd[1]))
    return out
