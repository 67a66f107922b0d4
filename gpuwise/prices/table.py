"""Every dated price the decision can use, with its age, source and check mark, oldest first:
rental offers (per GPU-hour, and whole instances per GPU-hour), spot prices, purchase prices of
cards and servers, the host-server shares and network parts a purchase adds, and the exchange
rate. What ``gpuwise prices`` prints, so a user sees which figures are old before trusting them.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
from dataclasses import asdict, field
from typing import Any

from ..errors import N_, UserError
from ..estimators.cost import bought_whole
from ..frozen import frozen
from ..messages import text


def _say(message_id: str, **values: Any) -> str:
    """A row's item or unit in English, from its message (reports/messages.yaml prices.*)."""
    return text(message_id, values)


@frozen
class PriceRow:
    kind: str  # rent | spot | reserved | buy | server | network | host | fx
    gpu: str | None
    provider: str | None  # the cloud (rentals) or None
    item: str  # the instance, offer or purchase unit
    amount: float
    currency: str
    unit: str
    as_of: str | None
    age_days: int | None
    source: str
    check: str
    file: str
    said: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """What ``item`` and ``unit`` say, as a kind and its values, so that a listing in another
    language words them itself (gpuwise/render/price_view.py); not part of the JSON."""

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        del out["said"]
        return out


def _age(as_of: dt.date | None, today: dt.date) -> tuple[str | None, int | None]:
    return (as_of.isoformat(), (today - as_of).days) if as_of else (None, None)


def _src(text: str) -> str:
    return " ".join(text.split())


def all_rows(kb: Any, today: dt.date) -> list[PriceRow]:
    rows: list[PriceRow] = []
    add = rows.append
    for inst in kb.clouds.instances:
        d, age = _age(inst.as_of, today)
        native = inst.usd_per_hour if inst.currency == "USD" else inst.cny_per_hour
        name = inst.id.removeprefix(f"{inst.provider}:")  # an imported offer's id is provider:instance
        add(PriceRow("rent", inst.gpu, inst.provider, f"{name} ({inst.gpus} GPU{'s' if inst.gpus > 1 else ''}, "
                     f"{native:g}/h)", native / inst.gpus, inst.currency, "per GPU-hour", d, age, _src(inst.source),
                     inst.check, "clouds.yaml",
                     {"item": ("instance", {"instance": name, "n": inst.gpus, "rate": f"{native:g}"}),
                      "unit": ("gpu_hour", {})}))
        if inst.spot_usd_per_hour:
            add(PriceRow("spot", inst.gpu, inst.provider, f"{name} spot", inst.spot_usd_per_hour / inst.gpus,
                         "USD", "per GPU-hour", d, age, _src(inst.source), inst.check, "clouds.yaml",
                         {"item": ("instance_spot", {"instance": name}), "unit": ("gpu_hour", {})}))
        rows.extend(_reserved(inst, name, inst.gpus, inst.currency, today, instance=name))
    for p in kb.clouds.gpu_hour_prices:
        d, age = _age(p.as_of, today)
        native = p.usd_per_gpu_hour if p.currency == "USD" else p.cny_per_gpu_hour
        lo, hi = offer_size(p)
        size = (_say("prices.size.exactly", n=lo) if lo and lo == hi else
                _say("prices.size.range", lo=lo, hi=hi) if lo and hi else
                _say("prices.size.from", n=lo) if lo else
                _say("prices.size.up_to", n=hi) if hi else _say("prices.size.any"))
        if p.step_gpus > 1:  # rented in whole steps (CoreWeave's GB200 NVL72: racks of 72)
            size = _say("prices.size.step", size=size, step=p.step_gpus)
        note = _short_note(p.notes)
        tier = f", {note}" if p.notes else ""
        sized = {"max_gpus": hi, "min_gpus": lo, "note": note, "step_gpus": p.step_gpus}
        add(PriceRow("rent", p.gpu, p.provider, f"per GPU ({size}{tier})", native, p.currency,
                     "per GPU-hour", d, age, _src(p.source), p.check, "clouds.yaml",
                     {"item": ("per_gpu", sized), "unit": ("gpu_hour", {})}))
        if p.spot_usd_per_gpu_hour:
            add(PriceRow("spot", p.gpu, p.provider, _say("prices.per_gpu_spot", size=size), p.spot_usd_per_gpu_hour,
                         "USD",
                         "per GPU-hour", d, age, _src(p.source), p.check, "clouds.yaml",
                         {"item": ("per_gpu_spot", sized | {"note": ""}), "unit": ("gpu_hour", {})}))
        rows.extend(r for r in _reserved(p, "per GPU", 1, p.currency, today) if r not in rows)  # one per cluster
    if kb.prices is not None:
        for g in kb.prices.gpus:
            whole = g.id in kb.gpus and bought_whole(kb.gpus[g.id], g.units)  # a DGX Spark: the price is the system's
            for pp in g.prices:
                d, age = _age(pp.as_of, today)
                shape = "system" if pp.unit == "card" and whole else pp.unit
                unit = (_say(f"price.unit.{shape}") if shape in ("card", "system") else
                        f"per {pp.gpus}-GPU {pp.unit}")
                kind = "buy" if pp.unit == "card" else "server"
                item = f"{pp.condition} {shape}, {pp.kind}"
                item = _say("prices.china_market", item=item) if pp.market == "china" else item
                add(PriceRow(kind, g.id, None, item, pp.amount, pp.currency, unit, d, age, _src(pp.source),
                             pp.check, "prices.yaml",
                             {"item": ("purchase", {"condition": pp.condition, "unit": shape, "kind": pp.kind,
                                                    "china": pp.market == "china"}),
                              "unit": (shape, {}) if shape in ("card", "system") else ("unit", {"n": pp.gpus,
                                                                                           "unit": pp.unit})}))
        for f in kb.prices.fabrics:
            d, age = _age(f.as_of, today)
            for part, amount in (("nic", f.nic_usd), ("switch", f.switch_usd_per_port), ("link", f.link_usd)):
                said = _say(f"prices.part.{part}")
                add(PriceRow("network", None, None, f"{f.id} {said}", amount, "USD", f"per {said}", d, age,
                             _src(f.source), f.check, "prices.yaml",
                             {"item": ("network", {"fabric": f.id, "part": part}), "unit": ("part", {"part": part})}))
    for key, v in kb.tco.values.items():
        if key == "usd_cny":
            d, age = _age(v.as_of, today)
            add(PriceRow("fx", None, None, _say("prices.fx"), v.value, "CNY", "per USD", d, age,
                         _src(v.source), v.check, "tco.yaml", {"item": ("fx", {}), "unit": ("per_usd", {})}))
        elif key.startswith("server_share_usd_per_gpu"):
            d, age = _age(v.as_of, today)
            # tco.yaml words the unit with its currency ("USD per GPU (...)"); the row's currency
            # column already says USD, so the unit starts after it ("800 USD per GPU", not "USD USD")
            unit = v.unit[len("USD "):] if v.unit.startswith("USD ") else v.unit
            add(PriceRow("host", None, None, key, v.value, "USD", unit, d, age, _src(v.source), v.check,
                         "tco.yaml", {"item": ("host", {"key": key}), "unit": ("quoted", {"text": unit})}))
    return rows


def offer_size(p: Any) -> tuple[int | None, int | None]:
    """The GPUs one rental of a per-GPU-hour offer may have at the listed rate: its ``min_gpus`` (None: one) and its
    most, ``max_gpus`` or, where more are rented only as a reserved cluster (``multi_node: reserved``), the most on
    demand (Lambda's B200: 8, a 1-Click Cluster above it); None: any count."""
    hi = p.max_gpus or (p.max_on_demand_gpus if p.multi_node == "reserved" else None)
    return (p.min_gpus if p.min_gpus > 1 else None), hi


def _short_note(notes: str, most: int = 40) -> str:
    """An offer's note as the item shows it: its first clause, cut at a word (with an ellipsis) past ``most``."""
    first = re.split(r'[.;:(] ', notes)[0] if notes else ""
    # a note of one sentence ends in its full stop, which the item's bracket closes after (review55: RunPod's
    # '(up to 8 GPUs, Community Cloud.)')
    first = first[:-1] if first.endswith(".") and not first.endswith("..") else first
    if len(first) <= most:
        return first
    cut = first[:most].rsplit(" ", 1)[0]
    if cut.count("(") > cut.count(")"):  # a parenthesis cut open: the clause ends before it
        cut = cut[:cut.rindex("(")]
    return f"{cut.rstrip(' ,')}…"


def _reserved(entry: Any, item: str, gpus: int, currency: str, today: dt.date,
              instance: str = "") -> list[PriceRow]:
    """An offer's published reserved rates and reserved-cluster rates, per GPU-hour, dated and
    sourced apart (terms_as_of, sold_as_source)."""
    d, age = _age(entry.terms_as_of, today)
    return [PriceRow("reserved", entry.gpu, entry.provider, f"{item} {term} reservation", rate / gpus, currency,
                     "per GPU-hour", d, age, _src(entry.sold_as_source), entry.terms_check or entry.check,
                     "clouds.yaml",
                     {"item": ("reserved", {"instance": instance, "term": term}), "unit": ("gpu_hour", {})})
            for term, rate in entry.reserved_per_hour.items()] + [
        PriceRow("reserved", entry.gpu, entry.provider, _say("prices.cluster", n=n), rate, currency,
                 "per GPU-hour", d, age, _src(entry.sold_as_source), entry.terms_check or entry.check, "clouds.yaml",
                 {"item": ("cluster", {"n": n}), "unit": ("gpu_hour", {})})
        for n, rate in sorted(entry.cluster_per_gpu_hour.items())]


def price_rows(kb: Any, *, gpu: str | None = None, provider: str | None = None, currency: str | None = None,
               today: dt.date | None = None) -> list[PriceRow]:
    """The prices that pass the filters, oldest first (undated ones last)."""
    rows = all_rows(kb, today or dt.date.today())
    if gpu is not None:  # '--gpu ""' (an unset shell variable) listed every price, as if no filter were given
        if not gpu.strip():
            raise UserError(N_("empty gpu name"), where="--gpu")
        ids = _gpu_ids(kb, gpu)
        rows = [r for r in rows if r.gpu in ids]
    if provider is not None:
        if not provider.strip():
            raise UserError(N_("empty provider name"), where="--provider")
        known = sorted({p.id for p in kb.clouds.providers} | {r.provider for r in rows if r.provider})
        want = provider.strip().lower()
        if want not in known:
            close = difflib.get_close_matches(want, known, n=1)
            raise UserError(N_("unknown provider '%(provider)s'"), where="--provider",
                            values={"provider": provider[:40]},
                            hint=N_("did you mean %(name)s?") if close else N_("known: %(names)s"),
                            hint_values={"name": close[0]} if close else {"names": ", ".join(known)})
        rows = [r for r in rows if r.provider == want]
    if currency:
        rows = [r for r in rows if r.currency == currency]
    return sorted(rows, key=lambda r: (r.as_of is None, r.as_of or "", r.kind, r.gpu or "", r.item))


def not_rented(kb: Any, gpu: str | None, rows: list[PriceRow]) -> list[Any]:
    """For ``--gpu``: clouds.yaml ``not_rented`` entries of the GPUs it names that no rental row lists (an offer,
    an overlay's included, supersedes the entry), so that the listing says why a GPU has no rental."""
    if gpu is None or not gpu.strip():
        return []
    rented = {r.gpu for r in all_rows(kb, dt.date.today()) if r.kind == "rent"}
    ids = _gpu_ids(kb, gpu)
    return [e for e in kb.clouds.not_rented if e.id in ids and e.id not in rented]


def not_bought(kb: Any, gpu: str | None, rows: list[PriceRow]) -> list[Any]:
    """For ``--gpu``: prices.yaml ``excluded`` entries (a GPU deliberately left without a purchase price, and why)
    of the GPUs it names that no purchase row lists, as :func:`not_rented` gives the rentals' (review61: `prices
    --gpu gb200` listed CoreWeave's rack rental and said nothing of why no purchase price, 'sold only as GB200 NVL72
    rack-scale systems ... no dated public price found', which recommend's buy options say)."""
    if gpu is None or not gpu.strip():
        return []
    bought = {r.gpu for r in all_rows(kb, dt.date.today()) if r.kind in ("buy", "server")}
    ids = _gpu_ids(kb, gpu)
    return [e for e in (kb.prices.excluded if kb.prices else []) if e.id in ids and e.id not in bought]


def other_matches(kb: Any, *, gpu: str | None = None, provider: str | None = None, currency: str | None = None,
                  today: dt.date | None = None) -> dict[str, list[str]]:
    """Where no price passes every filter given (``--gpu B200 --provider autodl``): by each filter given, the values
    of its field among the prices the other filters pass -- the providers that list a B200, the GPUs autodl lists,
    the currencies of the H100's prices -- so that the listing says what to ask instead of 'No prices match.'
    alone (hostile round 48). Empty where no filter is given."""
    given = {"gpu": gpu, "provider": provider, "currency": currency}
    out: dict[str, list[str]] = {}
    for name, value in given.items():
        if value is None:
            continue
        rows = price_rows(kb, **{k: v for k, v in given.items() if k != name}, today=today)
        out[name] = sorted({v for r in rows if (v := getattr(r, name))})
    return out


def _gpu_ids(kb: Any, name: str) -> set[str]:
    """A GPU name as the catalog reads it; a family name (``A100``) stands for all its variants."""
    from .catalog_csv import _family

    try:
        return {kb.gpu(name, where="--gpu").id}
    except UserError as exc:
        fam = _family(kb, name)
        if len(fam) > 1:
            return set(fam)
        raise exc from None


def gpus_matched(kb: Any, name: str | None) -> list[str]:
    """The catalog ids ``--gpu`` lists the prices of, in name order (empty without ``--gpu``): more than one where it
    names a family (``A100``), which the other commands refuse as ambiguous; the listing says so (contract63)."""
    return sorted(_gpu_ids(kb, name)) if name is not None and name.strip() else []


def gpu_reading(kb: Any, name: str | None) -> tuple[Any, list[str]] | None:
    """How ``--gpu`` was read where the name stands for one variant by a rule or a listed default (``H100``: the SXM
    module), with the family's other variants that have prices, not listed; None for a plain name or a family listed
    whole. review61: ``prices --gpu H100`` listed the SXM module's prices alone and said nothing of the PCIe card's
    or the NVL's (lambda $3.29, runpod $1.99 a GPU-hour), as ``estimate --gpu H100`` says how it read the name."""
    from .catalog_csv import _family

    if name is None or not name.strip():
        return None
    try:
        got = kb.gpu(name, where="--gpu")
    except UserError:
        return None
    # only the variants that have a price: an HPC part neither sold nor rented (catalog64's H100 64GB) has none left out
    priced = {r.gpu for r in all_rows(kb, dt.date.today())}
    return (got, [g for g in _family(kb, name) if g != got.id and g in priced]) if got.note_id else None


def render_text(rows: list[PriceRow], max_age: float | None = None, lang: str = "en",
                stale: dict[int, list[str]] | None = None, filters: dict[str, str] | None = None,
                others: dict[str, list[str]] | None = None, unrented: list[Any] | None = None,
                matched: list[str] | None = None, reading: tuple[Any, list[str]] | None = None,
                unbought: list[Any] | None = None) -> str:
    """The table a terminal shows (gpuwise/render/price_view.py), in ``lang``; ``stale``: the rows
    the data-freshness rules call stale (:func:`gpuwise.decide.verdicts.stale`); ``filters`` (the options given, as
    typed) and ``others`` (:func:`other_matches`): what no row matched, and what the other filters do; ``unrented``
    (:func:`not_rented`): why a GPU asked for has no rental; ``matched`` (:func:`gpus_matched`): the GPUs ``--gpu``
    stands for; ``reading`` (:func:`gpu_reading`): how it was read, where a rule or a default chose the variant."""
    from ..render.price_view import render_text as view

    return view(rows, max_age, lang, stale, filters, others, unrented, matched, reading, unbought)
