"""A price CSV's cell read as a number (prices/catalog_csv.py reads the rows): a cell written with its unit
(``$2.50/h``, ``80GB``, ``8x``) offered its number, a price in another currency or a month's named, as an input
file's field of the same unit is (split from catalog_csv.py, hostile round 55, which adds a price a GPU-hour on a
row of several GPUs and a GPU count as a quote prints it)."""

from __future__ import annotations

import math
import re

from ..errors import N_, Said, Term, either
from ..inputs.notation import PLAIN, Meant, number_text, other_currency
from ..inputs.price_terms import csv_said, plan_of
from ..inputs.prose import raise_prose_number
from ..inputs.units import amount_per_unit, raise_unit_written
from ..ledger import HOURS_PER_MONTH

#: The columns whose cells are written with a unit as an input file's field of the same unit is (inputs/units.py
#: reads them): a price an hour, GPU memory and host RAM in GB, a count of GPUs (GPU_COUNT, added below).
#: SkyPilot's MemoryGiB is in GiB, which no input field is, and is left out.
_UNIT_FIELDS = {"price": "hourly_usd", "spot_price": "hourly_usd", "Price": "hourly_usd", "SpotPrice": "hourly_usd",
                "gpu_memory": "gpu_memory_gb", "memory": "host_ram_gb", "host_ram_gb": "host_ram_gb"}


def _written_with_unit(text: str, what: str, currency: str) -> str | None:
    """The number a cell means where it is written with its unit ('$2.50/h': 2.5, '80GB': 80, '8x': 8), as the
    number fields of an input file offer it (hostile round 46); None otherwise, or for a price in another currency
    than the row's ('¥15/h' in a USD row)."""
    name = _UNIT_FIELDS.get(what)
    if name == "hourly_usd":
        read = amount_per_unit(text, name)
        return f"{read[0]:.15g}" if read is not None and read[1] in (None, currency) else None
    if name is not None:
        try:
            raise_unit_written(text, name)
            if name == "count":  # '8 × H100', '2x8' (hostile round 55): as a file's GPU count is offered
                raise_prose_number(text, name, {})
        except Meant as said:
            return str(said.values.get("meant")) if said.values.get("meant") is not None else None
    return None


_PER_GPU = re.compile(r"(?:/|per\s|an?\s|每)\s*(?:gpu|卡)|gpu[\s·-]*(?:h|hr|hour)s?\b|卡\s*时", re.I)
"""A price cell that says it is one GPU's ('$2.49/GPU/hr', '2.49 per GPU-hour', '¥17.5/卡时')."""


def one_gpus_price(text: str | None, count_text: str | None, currency: str) -> None:
    """Refuse a price cell that says it is one GPU's on a row of several GPUs: the layout's price is the row's
    GPUs' together (the per-GPU-hour figure is it over the count), and '$2.49/GPU/hr' on an 8-GPU row was offered
    'write 2.49', an eighth of the price (hostile round 55); the row's price offered."""
    text, count_text = (text or "").strip(), (count_text or "").strip()
    if not _PER_GPU.search(text) or not re.fullmatch(r"\d{1,6}", count_text) or int(count_text) < 2:
        return
    read = amount_per_unit(text, "hourly_usd")
    if read is None or read[1] not in (None, currency) or read[0] <= 0:
        return
    n = int(count_text)
    raise Said(N_("price %(text)r is one GPU's, and price is the row's %(n)s GPUs' together an hour: write %(meant)s "
                  "(%(price)s x %(n)s)"), text=text[:30], n=n, meant=f"{read[0] * n:.6g}", price=f"{read[0]:.15g}")


def plan_in_price(text: str | None, count_text: str | None, currency: str, term_cell: str | None = None,
                  has_term: bool = True) -> None:
    """Refuse a price cell written with its pricing plan ('$2.49/GPU-hr (1-yr reserved)', '(spot)'): it was 'not a
    number', nothing offered (hostile round 56), and the number alone would be imported as an on-demand price; the
    row's price (a GPU-hour's times the row's GPUs) and the column the plan goes in said."""
    plan = plan_of((text or "").strip())
    if plan is None:
        return
    if PLAIN.fullmatch(plan.price.strip()):
        amount = float(plan.price)
    elif (read := amount_per_unit(plan.price, "hourly_usd")) is not None and read[1] in (None, currency):
        amount = read[0]
    else:
        return
    count_text, meant = (count_text or "").strip(), f"{amount:.6g}"
    if _PER_GPU.search(plan.price) and re.fullmatch(r"\d{1,6}", count_text) and int(count_text) >= 2:
        # a GPU's price on a row of several: the row's, the layout's price column being its GPUs' together
        meant = f"{amount * int(count_text):.6g} ({amount:.6g} x {int(count_text)} GPUs)"
    raise csv_said(repr((text or "").strip()[:40]), plan, meant, term_cell, has_term)


def _a_month(text: str, what: str, currency: str) -> dict[str, str] | None:
    """A price cell written as a price a month ('$1800/month', '1800 per month'): the price an hour it is over
    gpuwise's month (ledger.HOURS_PER_MONTH, 8,760 / 12 hours, what a monthly bill covers), for the refusal to offer
    (hostile round 48: 'not a number', nothing offered); None for any other cell, or one in another currency."""
    if _UNIT_FIELDS.get(what) != "hourly_usd" or not re.search(r"\d\s*(?:/|per\s|an?\s)\s*m", text, re.I):
        return None
    read = amount_per_unit(text, "a_month")
    if read is None or read[1] not in (None, currency) or read[0] <= 0:
        return None
    return {"amount": f"{read[0]:.15g}", "hours": f"{HOURS_PER_MONTH:g}", "meant": f"{read[0] / HOURS_PER_MONTH:.4g}"}


def _other_currency(text: str, what: str, currency: str) -> str | None:
    """The currency a price cell is written in where it is not the row's ('¥15/h' in a USD row: CNY); else None."""
    read = (amount_per_unit(text, "hourly_usd") or amount_per_unit(text, "a_month")  # '¥13000/mo' too
            if _UNIT_FIELDS.get(what) == "hourly_usd" else None)
    return read[1] if read is not None and read[1] not in (None, currency) else None


def number(text: str | None, what: str, currency: str | None = None) -> float:
    """A cell's number, in plain decimal digits: Python's ``float()`` also took fullwidth ``１６``,
    ``1_6`` and `` inf`` (:mod:`gpuwise.inputs.notation` says what such a cell would have meant); a cell written
    with its unit is offered its number; a price in another currency than its row's (``currency``: the row's
    currency column, None for a layout without one, whose prices are in USD) names both."""
    column, currency = currency is not None, currency or "USD"
    try:
        value = number_text((text or "").strip())
    except Said as said:
        raise Said(N_("%(what)s: %(said)s"), what=what, said=said) from None
    if value is None and (text or "").strip().lower().lstrip("+-") in ("inf", "infinity", "nan"):
        value = math.inf
    if value is None and text and _UNIT_FIELDS.get(what) == "hourly_usd" and not column:  # gpuhunt's, SkyPilot's
        plan_in_price(text, None, currency, has_term=False)  # '2.49 (1-yr reserved)' (hostile round 56)
    meant = _written_with_unit(text.strip(), what, currency) if value is None and text else None
    other = _other_currency(text.strip(), what, currency) if value is None and text and meant is None else None
    if other is not None:  # '¥15/h' in a row priced in USD: the row's currency and the one given, not 'not a number'
        raise Said(N_("%(what)s %(text)r is in %(given)s, and this row's prices are in %(currency)s: write the price "
                      "in %(currency)s, or give the row's currency as %(given)s") if column else
                   N_("%(what)s %(text)r is in %(given)s, and this layout's prices are in %(currency)s: write the "
                      "price in %(currency)s"), what=what, text=text.strip()[:30], given=other, currency=currency)
    if meant is not None:
        raise Said(N_("%(what)s %(text)r is not a number: write %(meant)s"), what=what, text=text.strip()[:30],
                   meant=meant)
    monthly = _a_month(text.strip(), what, currency) if value is None and text else None
    if monthly is not None:
        raise Said(N_("%(what)s %(text)r is a price a month, and %(what)s is the price an hour: write %(meant)s "
                      "(%(amount)s / %(hours)s hours) if it is billed by the month"), what=what,
                   text=text.strip()[:30], **monthly)
    if value is None and text and (code := other_currency(text.strip())) is not None:  # '€2.50': EUR named
        raise Said(N_("%(what)s %(text)r is in %(given)s, a currency gpuwise does not price in: write the price in "
                      "%(choices)s"), what=what, text=text.strip()[:30], given=code, choices=either(["USD", "CNY"]))
    if value is None:
        raise Said(N_("%(what)s %(text)r is not a number"), what=what, text=(text or "")[:30])
    if not math.isfinite(value):
        raise Said(N_("%(what)s is not a finite number"), what=what)
    return value


GPU_COUNT = Term(N_("gpu count"))  # the column a row's GPU count is read from, as its reasons name it
_UNIT_FIELDS[GPU_COUNT] = "count"  # its cells written with a unit ('8x') as a count of GPUs is


_COUNTED_NAME = re.compile(r"\s*(?P<n>\d{1,4})\s*[x×*]\s*(?P<gpu>[A-Za-z].*?)\s*"
                           r"|\s*(?P<gpu2>[A-Za-z].*?)\s*[x×*]\s*(?P<n2>\d{1,4})\s*")
"""A GPU named with its count, as a quote's line prints it ('8x H100 SXM', '8 × H100', 'H100 80GB x8')."""


def count_in_name(name: str, count_text: str | None) -> None:
    """Refuse a row whose GPU count is empty and whose GPU's name holds one ('8x H100 SXM'): it was 'gpu count ''
    is not a number' (hostile round 55); the count and the GPU said apart."""
    if (count_text or "").strip() or len(name) > 100 or (m := _COUNTED_NAME.fullmatch(name)) is None:
        return
    n, gpu = (m.group("n"), m.group("gpu")) if m.group("n") else (m.group("n2"), m.group("gpu2"))
    if int(n) >= 1:
        raise Said(N_("the GPU count is empty, and the GPU %(name)r holds one: write gpus %(n)s and gpu %(gpu)s"),
                   name=name, n=n, gpu=gpu)


_SHEET_WORDS = (("gpus", re.compile(r"\bqty\b|quantity|\bcount\b|#|\bnum\b|number\sof|卡数|数量")),
                ("price", re.compile(r"price|cost|\brate\b|\$|\busd\b|价")),
                ("gpu", re.compile(r"gpu|model|type|accelerator|card|显卡|型号")))
"""A sheet's own words for gpuwise's three columns ('GPU Model', 'Qty', 'Price/hr (USD)'), the first that fits."""


def sheet_columns(header: list[str]) -> list[tuple[str, str]] | None:
    """The cells of a header in a sheet's own words and the gpuwise column each is (hostile round 55: 'GPU Model,
    Qty, Price/hr (USD)' was read as gpuhunt's layout lacking all four of its columns), where each of gpu, gpus and
    price is named by exactly one cell; else None."""
    found: dict[str, list[str]] = {}
    for cell in header:
        column = next((c for c, words in _SHEET_WORDS if words.search(cell.casefold())), None)
        if column is not None:
            found.setdefault(column, []).append(cell)
    if any(len(found.get(c, ())) != 1 for c, _ in _SHEET_WORDS):
        return None
    return [(found[c][0], c) for c in ("gpu", "gpus", "price")]
