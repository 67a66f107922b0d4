"""Reading a price catalog CSV into rental offers for a knowledge overlay.

Three layouts are read, told apart by their header:

* gpuhunt (dstack's ``{provider}.csv``): ``instance_name, location, price, cpu, memory,
  gpu_count, gpu_name, gpu_memory, spot, disk_size, gpu_vendor, ...``; one row per instance,
  location and purchase option (``spot`` True or False), price in USD per hour.
* SkyPilot (``catalogs/<version>/<cloud>/vms.csv``): ``InstanceType, AcceleratorName,
  AcceleratorCount, vCPUs, MemoryGiB, Price, SpotPrice, Region, ...``, USD per hour, the spot
  price on the same row.
* gpuwise's own minimal CSV (docs/knowledge.md): ``gpu, gpus, price`` and optionally
  ``currency, spot_price, instance, region, provider, gpu_memory, as_of, source, term`` (a commitment's
  rate, put on its instance's on-demand offer: prices/terms.py).

Every price is for the whole instance; the per-GPU-hour figure is it divided by the GPU count.
A row that cannot be read (a missing or negative price, a fractional GPU count) or whose GPU
is not in the catalog is listed with its line and reason, never fatal. Rows with no GPU are
counted apart. Of one instance type offered in several locations the cheapest is kept.
"""

from __future__ import annotations

import contextlib
import csv
import datetime as dt
import io
import math
import os
import re
from collections import Counter
from dataclasses import field
from pathlib import Path
from typing import Any

from ..errors import N_, Clauses, Said, Term, UserError, either
from ..frozen import record
from ..inputs.dates import day_readings, iso_date
from ..inputs.notation import CURRENCY_NAMES
from ..inputs.schema import MAX_GPUS
from ..knowledge.schema.base import PROSE_MAX, TEXT_MAX
from ..knowledge.schema.clouds import MAX_HOURLY_PRICE, MIN_HOURLY_PRICE, at_least_floor, spot_not_above
from ..ledger import HOURS_PER_MONTH
from ..yamlio import decode_text
from .catalog_terms import DWS_TERM, dws_calendar, price_is_spot, read_as_notes
from .csv_cells import GPU_COUNT, count_in_name, one_gpus_price, plan_in_price, sheet_columns
from .csv_cells import number as _number
from .csv_header import FORMATS, _close_column, _comma_separated, _no_case_twins
from .currencies import in_usd, other_currency_rows
from .terms import TermPrice, row_term
from .terms import attach as attach_terms
from .terms import keep as keep_term

MIN_PRICE = MIN_HOURLY_PRICE  # per hour: the least an overlay's price may be (below it, a typo or a unit slip)

MAX_CSV_BYTES = 64 * 1024 * 1024
MAX_ROWS = 500_000
MAX_COLUMNS = 1_000
"""The catalogs read here have a dozen or so columns."""


# gpuhunt's provider names where gpuwise's clouds.yaml spells them otherwise
PROVIDER_NAMES = {"lambdalabs": "lambda", "lambdalabs.com": "lambda"}
_PROVIDER = re.compile(r"^[a-z0-9][a-z0-9_-]{0,39}$")
_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f", ""}


@record
class Skipped:
    line: int
    name: str  # the instance or GPU name as written
    why: Said  # why the row is left out, a catalog message (its ``str()`` is the English)

    @property
    def reason(self) -> str:
        return str(self.why)


@record
class Imported:
    """One rental offer read from the file (the cheapest location of an instance type)."""

    provider: str
    instance: str
    gpu: str  # catalog id
    gpus: int
    price: float  # whole instance per hour, on-demand (None when only spot was listed: not kept)
    currency: str
    spot_price: float | None
    region: str
    line: int
    as_of: dt.date
    source: str
    notes: list[Said] = field(default_factory=list)  # catalog messages (``str()``: the English)
    host_ram_gb: float | None = None  # the whole instance's RAM as the catalog states it, GB (None: not stated)
    reserved: dict[str, float] = field(default_factory=dict)  # term -> whole instance per hour (prices/terms.py)
    terms_as_of: dt.date | None = None
    terms_source: str = ""
    own_date: bool = False  # dated by the row's own as_of, not by --as-of or the file's date

    @property
    def per_gpu_hour(self) -> float:
        return self.price / self.gpus


@record
class ImportReport:
    path: str
    format: str
    provider: str
    as_of: dt.date
    as_of_from: str  # "--as-of" or FILE_DATE
    rows: int = 0
    no_gpu: int = 0
    totals: list[tuple[int, str]] = field(default_factory=list)  # a sheet's totals rows: line and label
    offers: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    spot_only: int = 0
    read_as: Counter = field(default_factory=Counter)  # rows by the term each was read on (on-demand, spot, 1-month)
    read_as_notes: list[Said] = field(default_factory=list)  # rows read on another term than their column says
    max_age_days: float | None = None  # policy price_max_age_days: an offer older is said so (review63)

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.path, "format": self.format, "provider": self.provider,
            "as_of": self.as_of.isoformat(), "as_of_from": self.as_of_from, "rows": self.rows,
            "without_gpu": self.no_gpu, "spot_only": self.spot_only, "read_as": dict(self.read_as),
            "read_as_notes": [str(n) for n in self.read_as_notes],
            "totals": [{"line": n, "label": label} for n, label in self.totals],
            "imported": [{"id": offer_id(o), "gpu": o.gpu, "gpus": o.gpus, "price_per_hour": o.price,
                          "per_gpu_hour": round(o.per_gpu_hour, 6), "currency": o.currency,
                          "spot_price_per_hour": o.spot_price, "host_ram_gb": o.host_ram_gb,
                          "reserved_per_hour": dict(o.reserved),
                          "region": o.region, "line": o.line, "as_of": o.as_of.isoformat(),
                          "as_of_from": "row" if o.own_date else self.as_of_from,
                          "notes": [str(n) for n in o.notes]} for o in self.offers],
            "skipped": [{"line": s.line, "name": s.name, "reason": s.reason} for s in self.skipped],
        }


def offer_id(o: Imported) -> str:
    """The overlay id of an imported offer: re-importing the same provider's file replaces it."""
    return f"{o.provider}:{o.instance}"


def provider_of(path: Path, given: str | None) -> str:
    """``--provider``, else the file's name as in gpuhunt's ``{provider}.csv`` (SkyPilot's
    ``<cloud>/vms.csv``: the folder's name)."""
    if given is not None and not given.strip():  # `--provider "$P"` with P unset: the file's name was used
        raise UserError(N_("empty provider name"), where="--provider")
    raw = given or (path.parent.name if path.stem.lower() in ("vms", "catalog", "prices") else path.stem)
    name = PROVIDER_NAMES.get(raw.strip().lower(), raw.strip().lower())
    if not _PROVIDER.match(name):
        where = "--provider" if given else str(path)
        raise UserError(N_("'%(raw)s' is not a provider name (lowercase letters, digits, - and _)"), where=where,
                        hint=N_("name the file {provider}.csv as gpuhunt does, or give --provider"),
                        values={"raw": raw[:40]})
    return name


def file_date(path: Path, as_of: str | None) -> tuple[dt.date, str]:
    """The prices' date: ``--as-of`` as YYYY-MM-DD (an empty one, as ``--as-of "$DAY"`` with the
    variable unset gives, was taken for no date: the file's time, silently; ``20260105`` was read
    though the hint asks for YYYY-MM-DD), else the file's modification date."""
    if as_of is not None:
        try:
            if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", as_of):
                raise ValueError(as_of)
            date = dt.date.fromisoformat(as_of)
        except ValueError:
            meant = iso_date(as_of)  # '2026/11/30', '30/11/2026', '20261130': its YYYY-MM-DD offered (round 44)
            if meant is None and (said := day_readings(as_of[:40])) is not None:  # '12/01/2026' (round 56)
                raise UserError(N_("not a date written YYYY-MM-DD: %(said)s"), where="--as-of",
                                values={"said": said}) from None
            raise UserError(N_("'%(as_of)s' is not a date"), where="--as-of",
                            hint=N_("give YYYY-MM-DD: write %(meant)s") if meant else N_("give YYYY-MM-DD"),
                            values={"as_of": as_of[:40]}, hint_values={"meant": meant} if meant else None) from None
        if date > dt.date.today():  # a future date would never be flagged as stale
            raise UserError(N_("%(date)s is after today"), where="--as-of",
                            hint=N_("give the day the prices were read"), values={"date": date.isoformat()})
        return date, "--as-of"
    mtime = os.stat(path).st_mtime
    return dt.datetime.fromtimestamp(mtime, dt.timezone.utc).date(), FILE_DATE


FILE_DATE = N_("the file's modification date")
"""Where the prices' date comes from without --as-of (the report translates it)."""


_PACKED = {b"\x1f\x8b": "gzip", b"PK\x03\x04": "zip", b"\xfd7zXZ": "xz", b"BZh": "bzip2",
           b"\x28\xb5\x2f\xfd": "zstd", b"%PDF": "PDF", b"\xd0\xcf\x11\xe0": "legacy Excel (.xls)"}
"""How a file that is not text starts (an .xlsx workbook is a zip)."""


def _is_json(text: str) -> bool:
    import json

    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _floor_said(price: float) -> Said:
    """Why a price below :data:`MIN_PRICE` or above the ceiling is refused: the overlay's own words for it."""
    try:
        at_least_floor(price)
    except Said as said:
        return said
    raise AssertionError(price)


def _one_line(cell: str) -> str:
    """A cell's text on one line: a line break inside a quoted cell (wrapped text in a spreadsheet)
    is a space, as the spreadsheet shows it."""
    if "\n" not in cell and "\r" not in cell:  # nearly every cell: no pattern run over it
        return cell.strip()
    return re.sub(r"\s*[\r\n]+\s*", " ", cell).strip()


_PRICES = ("price", "Price")
"""The layouts' hourly price columns (FORMATS)."""
_MONTHLY = re.compile(r"(?i)(?:^|[\s_/-])(?:month|monthly|mo|mth|per_month)(?:$|[\s_/-])")
"""A column named for a price a month ('price_per_month', 'monthly_usd', 'USD/mo')."""


_COLUMNS = ("AcceleratorCount", "AcceleratorName", "GpuInfo", "InstanceType", "MemoryGiB", "Price", "Region",
            "SpotPrice", "as_of", "currency", "gpu", "gpu_count", "gpu_memory", "gpu_name", "gpus", "host_ram_gb",
            "instance", "instance_name", "location", "memory", "price", "provider", "region", "source", "spot",
            "spot_price")
"""Every column a layout reads (SkyPilot's in CamelCase, gpuhunt's and gpuwise's in lower case)."""


def _header_below(text: str, p: Path) -> None:
    """A sheet's title or notes above its header ('Acme GPU Cloud price list'): where a layout's header is on one of
    the next lines, the lines to delete said, not 'not a price catalog' (hostile round 55)."""
    rows = csv.reader(io.StringIO(text, newline=""))
    with contextlib.suppress(csv.Error):
        for _, row in zip(range(10), rows, strict=False):
            cells = _header_case([_one_line(c) for c in row])
            if rows.line_num > 1 and any(all(c in cells for c in needed) for needed in FORMATS.values()):
                raise UserError(N_("the header is at line %(line)s, below a title or notes"), where=str(p),
                                hint=N_("delete the line(s) above it"), values={"line": rows.line_num})


def _header_case(header: list[str]) -> list[str]:
    """``header`` with its cells in the capitals of the layout its columns name but for case: a sheet's 'GPU, GPUs,
    Price' was refused as lacking gpu, gpus and price, 'did you mean GPU for gpu?' (hostile round 53). Cells that
    differ only in case are refused before this (_no_case_twins); a header one layout matches as written is kept."""
    have = set(header)
    if any(all(c in have for c in needed) for needed in FORMATS.values()):
        return header
    folded = {h.casefold() for h in header}
    for needed in FORMATS.values():
        if all(c.casefold() in folded for c in needed):
            camel = needed[0][0].isupper()  # SkyPilot's CamelCase, or the others' lower case
            names = {c.casefold(): c for c in (*(k for k in _COLUMNS if k[0].isupper() == camel), *needed)}
            return [names.get(h.casefold(), h) for h in header]
    return header


def _detect(header: list[str], path: Path) -> str:
    have = set(header)
    for name, needed in FORMATS.items():
        if all(c in have for c in needed):
            return name
    folded = {h.casefold() for h in header}  # 'GPU,GPUS,PRICE' is gpuwise's layout in capitals, not gpuhunt's
    best = max(FORMATS, key=lambda n: (sum(c.casefold() in folded for c in FORMATS[n]),
                                       sum(c in have for c in FORMATS[n])))
    sheet = sheet_columns(header) if not any(c.casefold() in folded for n in FORMATS.values() for c in n) else None
    best = "gpuwise" if sheet is not None else best  # 'GPU Model, Qty, Price/hr': gpuwise's, not gpuhunt's (round 55)
    missing = [c for c in FORMATS[best] if c not in have]
    spare = [h for h in header if h not in FORMATS[best]]  # a column the layout already reads is no misspelling
    close = [_close_column(m, spare) for m in missing]
    pairs = [(repr(c[0]), repr(m)) for m, c in zip(missing, close, strict=True) if c]
    hint, hint_values = N_("give a gpuhunt or SkyPilot catalog CSV, or gpuwise's own columns gpu, gpus, price"), None
    monthly = next((h for h in spare if _MONTHLY.search(h)), None) if any(m in _PRICES for m in missing) else None
    if monthly is not None:  # 'price_per_month': the hourly price it is not (hostile round 48)
        hint, hint_values = N_("%(column)s reads as a price a month, and the layout's price is an hour's: divide "
                               "each by %(hours)s hours (gpuwise's month) into a column %(price)s"), {
            "column": repr(monthly), "hours": f"{HOURS_PER_MONTH:g}",
            "price": repr(next(m for m in missing if m in _PRICES))}
    elif sheet is not None:
        hint = N_("a sheet's own words for gpuwise's columns: rename %(renamed)s (price: the row's GPUs' price "
                  "together, an hour)")
        hint_values = {"renamed": ", ".join(f"{cell!r} as {column}" for cell, column in sheet)}
    elif len(pairs) == 1:
        hint, hint_values = N_("did you mean %(name)s for %(missing)s?"), {"name": pairs[0][0], "missing": pairs[0][1]}
    elif pairs:  # several columns to rename: as many clauses
        hint, hint_values = N_("%(clauses)s"), {"clauses": Clauses(
            Said(N_("did you mean %(name)s for %(missing)s?"), name=name, missing=m) for name, m in pairs)}
    raise UserError(
        N_("not a price catalog: the header lacks %(missing)s (read as the %(best)s layout)"), where=str(path),
        hint=hint, hint_values=hint_values,
        values={"missing": ', '.join(missing), "best": best})


def _header(reader: Any, p: Path) -> list[str]:
    """The next row of ``reader`` that holds something, as a header: one line per cell; an empty or
    broken file refused. Blank lines before it (a sheet saved with empty rows above its table) are
    passed over: the blank line was read as the header, and the file refused as 'the header lacks
    instance_name, price, gpu_count, gpu_name'."""
    try:
        row = next(reader)
        while not any(c.strip() for c in row):
            row = next(reader)
        return [_one_line(h) for h in row]
    except StopIteration:
        raise UserError(N_("empty file"), where=str(p)) from None
    except csv.Error as exc:
        raise UserError(N_("not a CSV file: %(reason)s"), where=str(p), values={"reason": csv_said(exc)}) from None


_CSV_ERRORS = (
    (re.compile(r"^field\slarger\sthan\sfield\slimit"), N_("a cell longer than %(limit)s characters")),
    (re.compile(r"^line\scontains\sNUL"), N_("a NUL byte in a line")),
    (re.compile(r"^new-line\scharacter\sseen\sin\sunquoted\sfield"), N_("a line break inside an unquoted cell")),
    (re.compile(r"^unexpected\send\sof\sdata"), N_("the file ends inside a quoted cell")),
)
"""The csv module's complaints, matched (English in every language: 'field larger than field limit
(131072)' stayed English in a Chinese line) -> catalog sentences."""


def csv_said(exc: Exception) -> Said:
    """The csv module's complaint ``exc`` as a catalog sentence; one the table does not know is
    quoted in its own words."""
    text = str(exc)
    for pattern, template in _CSV_ERRORS:
        if pattern.match(text):
            return Said(template, limit=f"{csv.field_size_limit():,}")
    return Said(N_("CSV error: %(error)s"), error=text)


def read_catalog(path: str | os.PathLike[str], kb: Any, *, provider: str | None = None,
                 as_of: str | None = None) -> ImportReport:
    """Read a catalog CSV into offers (cheapest location per instance type) and a list of the rows
    left out with their reasons."""
    p = Path(path)
    if str(p) == "-" and not p.exists():  # the contract's inputs are files; standard input is not read
        raise UserError(N_("reading the %(what)s from standard input is not supported"), where="-",
                        values={"what": "catalog CSV"}, hint=N_("save it to a file and give the file's path"))
    if not p.is_file():
        raise UserError(N_("no such file") if not p.exists() else N_("not a file"), where=str(p))
    if p.stat().st_size > MAX_CSV_BYTES:
        raise UserError(N_("file larger than %(mib)s MiB"), where=str(p), values={"mib": MAX_CSV_BYTES // 2**20})
    prov = provider_of(p, provider)
    date, how = file_date(p, as_of)
    oldest = min(kb.gpus.values(), key=lambda g: g.launch_year, default=None)
    if how == "--as-of" and oldest is not None and date.year < oldest.launch_year:  # 1970-01-01, 1999-01-01
        raise UserError(N_("%(date)s is before any GPU the catalog knows was launched (the oldest, %(gpu)s, in "
                           "%(year)s)"), where="--as-of", hint=N_("give the day the prices were read"),
                        values={"date": date.isoformat(), "gpu": oldest.name, "year": oldest.launch_year})
    try:
        raw = p.read_bytes()
        for magic, kind in _PACKED.items():  # a gzip'd catalog was 'not UTF-8 text (byte 1)'
            if raw.startswith(magic):
                raise UserError(N_("a %(kind)s file, not CSV text"), where=str(p), values={"kind": kind},
                                hint=N_("unpack it, or save the sheet as CSV"))
        text = decode_text(raw)  # UTF-8, or UTF-16 with a byte-order mark (Excel's "Unicode text")
    except UnicodeDecodeError as exc:
        raise UserError(N_("not UTF-8 text (byte %(start)s)"), where=str(p), values={"start": exc.start}) from None
    if text.lstrip()[:1] in ("{", "[") and _is_json(text):  # was 'the header lacks instance_name, ...' of gpuhunt
        raise UserError(N_("a %(kind)s file, not CSV text"), where=str(p), values={"kind": "JSON"},
                        hint=N_("give a gpuhunt or SkyPilot catalog CSV, or gpuwise's own columns gpu, gpus, price"))
    if "\x00" in text:  # as a YAML input is refused: UTF-16 without its mark, or a binary file
        if len(raw) > 1 and (raw[0] == 0) != (raw[1] == 0) and raw.count(0) * 2 >= len(raw) - 1:
            raise UserError(N_("UTF-16 text without a byte-order mark: save it as UTF-8"), where=str(p))
        raise UserError(N_("contains NUL bytes (binary file?)"), where=str(p))
    # newline="": a quoted cell may hold a line break (a spreadsheet's wrapped text); reading the
    # file line by line glued its two halves into one name ("H100\n80GB" read as "H10080GB")
    if text.count("\n") > MAX_ROWS:  # counted before any row is read (600,000 rows were read first: 72 s)
        with contextlib.suppress(csv.Error):  # a broken file is refused with its line below
            rows = csv.reader(io.StringIO(text, newline=""))
            if sum(1 for _ in zip(rows, range(MAX_ROWS + 2), strict=False)) > MAX_ROWS + 1:
                raise UserError(N_("more than %(max_rows)s rows"), where=str(p), values={"max_rows": f"{MAX_ROWS:,}"})
    reader = csv.reader(io.StringIO(text, newline=""))
    header = _header(reader, p)
    if [h.lower() for h in header] == ["sep=", ""]:  # Excel's 'sep=,' line: the header follows
        header = _header(reader, p)
    _comma_separated(header, p)
    if len(header) > MAX_COLUMNS:  # 200,000 columns took minutes: each was counted against all
        raise UserError(N_("more than %(n)s columns: not a price catalog"), where=str(p),
                        values={"n": f"{MAX_COLUMNS:,}"})
    counts = Counter(header)
    twice = sorted(h for h, n in counts.items() if h and n > 1)
    if twice:  # a row's value was the last such column's, silently
        raise UserError(N_("column %(name)s is in the header twice: which one holds the value is unclear"),
                        where=str(p), values={"name": repr(twice[0])})
    _no_case_twins(header, p)
    header = _header_case(header)
    try:
        fmt = _detect(header, p)
    except UserError:
        _header_below(text, p)  # a title above the header (hostile round 55)
        raise
    report = ImportReport(str(p), fmt, prov, date, how, max_age_days=float(kb.policy_value("price_max_age_days")))
    source = str(Said(N_("%(format)s catalog CSV '%(file)s' imported with gpuwise prices import (as_of: --as-of)")
                      if how == "--as-of" else
                      N_("%(format)s catalog CSV '%(file)s' imported with gpuwise prices import (as_of: the file's "
                         "modification date, not a date the file states)"), format=fmt, file=p.name))
    # a row that states its own as_of is dated by it, whatever the file's date came from
    row_dated = str(Said(N_("%(format)s catalog CSV '%(file)s' imported with gpuwise prices import (as_of: the "
                            "row's own)"), format=fmt, file=p.name))
    best: dict[tuple[str, str], Imported] = {}
    spot: dict[tuple[str, str, str], float] = {}
    terms: dict[tuple[tuple[str, str], str], TermPrice] = {}  # (instance type, term) -> its reserved rate
    priced: dict[tuple[str, str], list[tuple[int, float, str, str]]] = {}  # an instance's on-demand rows, regions
    line = next_line = reader.line_num + 1
    try:
        for raw in reader:
            line, next_line = next_line, reader.line_num + 1  # a row's first line (a cell may span lines)
            if line > MAX_ROWS:
                raise UserError(N_("more than %(max_rows)s rows"), where=str(p), values={"max_rows": f"{MAX_ROWS:,}"})
            if not any(c.strip() for c in raw):
                continue
            report.rows += 1
            raw = [_one_line(c) for c in raw]
            label = _totals_label(raw, header, fmt)
            if label:  # a sheet's 'Total' row: its sum is no offer (hostile round 52's leftover)
                report.totals.append((line, label))
                continue
            row = {h: (raw[i] if i < len(raw) else "") for i, h in enumerate(header)}
            if len(raw) != len(header):
                report.skipped.append(Skipped(line, raw[0] if raw else "", Said(
                    N_("%(fields)s fields, the header has %(header)s"), fields=len(raw), header=len(header))))
                continue
            _read_row(row, line, fmt, kb, prov, date, (source, row_dated), report, best, spot, (priced, terms))
    except csv.Error as exc:
        # the row that broke starts at next_line ('line' is the last one read: a 200,000-character cell on
        # line 3 was reported on line 2)
        why = Said(N_("%(why)s, reading stopped"), why=csv_said(exc))  # the csv module's words were English
        report.skipped.append(Skipped(next_line, "", why))
    for key, o in best.items():
        s = spot.get((*key, o.region)) or spot.get((*key, ""))
        if s is not None:
            o.spot_price = s
        try:  # a spot price above the on-demand one: the offer is kept, its spot price left out
            spot_not_above(o.spot_price, o.price, SPOT_PRICE)
        except Said as said:
            o.notes.append(Said(N_("%(said)s: left out"), said=said))
            o.spot_price = None
        n = len({r[3] for r in priced.get(key, ())})  # a row given twice is not a second location (hostile round 26)
        if n > 1:
            o.notes.append(Said(N_("cheapest of %(n)s locations"), n=n))
        o.notes.extend(other_currency_rows(kb, o, priced.get(key, ())))
    report.skipped.extend(Skipped(n, name, why) for n, name, why in attach_terms(best, terms))
    report.skipped.sort(key=lambda sk: sk.line)
    _one_gpu_per_instance(best, report)
    report.spot_only = sum(1 for k in {(a, b) for a, b, _ in spot} if k not in best)
    report.read_as_notes = read_as_notes(report.read_as.pop("dws", 0), report.read_as.pop("spot-in-price", 0), prov)
    report.offers = sorted(best.values(), key=lambda o: (o.gpu, o.gpus, o.per_gpu_hour))
    return report


def _one_gpu_per_instance(best: dict, report: ImportReport) -> None:
    """An instance name given to offers of two GPUs (an ``instance`` column repeated, as a sheet's
    fill-down leaves it) would be two overlay entries of one id, and the overlay refused at its
    first use: the first row's offer is kept, the later ones listed as left out."""
    first: dict[str, Imported] = {}
    for key, o in sorted(best.items(), key=lambda kv: kv[1].line):
        kept = first.setdefault(offer_id(o), o)
        if kept is not o:
            del best[key]
            report.skipped.append(Skipped(o.line, o.instance, Said(
                N_("instance %(instance)r is already an offer of %(gpu)s (line %(line)s)"), instance=o.instance,
                gpu=kept.gpu, line=kept.line)))


_TOTALS = frozenset({"total", "totals", "grandtotal", "subtotal", "sum", "合计", "合計", "总计", "總計", "小计",
                     "小計", "总和", "汇总", "彙總"})
"""A spreadsheet's label for its totals row (English and Chinese sheets): the row sums the offers above it."""
_NAME_COLUMN = {"gpuhunt": "gpu_name", "skypilot": "AcceleratorName"}


def _totals_label(raw: list[str], header: list[str], fmt: str) -> str:
    """The label of a totals row ('Total', 'Grand total:', '合计'), '' for any other row: its first cell that holds
    something is such a label and its GPU name cell is empty or that label. Such a row was listed as a row whose GPU
    count is not a number; it is left out with a note, as the sheet's sum is no offer and the rest still imports."""
    first = next((c.strip() for c in raw if c.strip()), "")
    if re.sub(r"[\s:：_-]", "", first).lower() not in _TOTALS:
        return ""
    column = _NAME_COLUMN.get(fmt, "gpu")
    name = raw[header.index(column)].strip() if column in header and header.index(column) < len(raw) else ""
    return first if name in ("", first) else ""


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""How a spreadsheet formula cell begins (OWASP's CSV injection list): such a cell written into the
overlay would be a formula again in any sheet a user exports the prices to."""


def _no_formula(*cells: str) -> None:
    """A name, instance, region or source cell that begins as a formula (``=cmd|' /C calc'!A0``) is
    no catalog's value: the row is left out, saying which cell."""
    for cell in cells:
        if cell.startswith(_FORMULA_START):
            raise Said(N_("%(cell)s begins like a spreadsheet formula, not a name"), cell=repr(cell[:40]))


def _within_overlay(prov: str, instance: str, region: str, source: str) -> None:
    """A cell longer than the overlay's field holds (knowledge/schema/base.py TEXT_MAX, PROSE_MAX: the offer's id,
    provider:instance, its region, its source) leaves the row out, saying which, as the overlay's reader would
    refuse it: it was written and then failed every command that read it (an internal error on import)."""
    for name, cell, most in (("instance", instance, TEXT_MAX - len(prov) - 1), ("region", region, TEXT_MAX),
                             ("source", source, PROSE_MAX // 2)):
        if len(cell) > most:
            raise Said(N_("%(field)s: %(said)s"), field=name, said=Said(
                N_("must have at most %(max_length)s characters (%(given)s given)"), max_length=max(most, 0),
                given=f"{len(cell):,}"))


def _read_row(row: dict[str, str], line: int, fmt: str, kb: Any, prov: str, date: dt.date, sources: tuple[str, str],
              report: ImportReport, best: dict, spot: dict, kept: tuple[dict, dict]) -> None:
    """One row read into ``best`` / ``spot`` / a term's rate or ``report.skipped``; ``sources``: how the import is
    cited for a row dated by the file (--as-of or its modification date), and for a row that states its own
    ``as_of``; ``kept``: each instance type's on-demand rows (their regions), and its term rates (prices/terms.py)."""
    priced, terms = kept
    currency, is_spot, spot_price, region, mem, term, own_date = "USD", False, None, "", None, "on-demand", False
    ram_cell, ram_scale, ram_col = "", 1.0, ""  # the instance's host RAM: an offloaded job's state must fit in it
    row_source, row_date = sources[0], date
    try:
        if fmt == "gpuhunt":
            name, instance = row.get("gpu_name", ""), row.get("instance_name", "")
            count_text, price = row.get("gpu_count", ""), _number(row.get("price"), "price")
            region = row.get("location", "")
            flag = row.get("spot", "").lower()
            if flag not in _TRUE | _FALSE:
                raise Said(N_("spot is %(spot)r, not True or False"), spot=row.get("spot"))
            is_spot = flag in _TRUE
            if not is_spot and dws_calendar(row):  # GCP's calendar-mode reservation: a term, never on demand
                term = DWS_TERM
            mem = _number(row["gpu_memory"], "gpu_memory") if row.get("gpu_memory") else None
            ram_cell, ram_col = row.get("memory", ""), "memory"
        elif fmt == "skypilot":
            name, instance = row.get("AcceleratorName", ""), row.get("InstanceType", "")
            count_text, region = row.get("AcceleratorCount", ""), row.get("Region", "")
            price = _number(row.get("Price"), "Price") if row.get("Price") else math.nan
            spot_price = _number(row["SpotPrice"], "SpotPrice") if row.get("SpotPrice") else None
            if price_is_spot(prov) and not math.isnan(price):  # its Price column holds the spot price too
                spot_price, price = spot_price if spot_price is not None else price, math.nan
                report.read_as["spot-in-price"] += 1
            mem = _skypilot_memory(row.get("GpuInfo", ""))
            ram_cell, ram_scale, ram_col = row.get("MemoryGiB", ""), 2**30 / 1e9, "MemoryGiB"
        else:
            name = row.get("gpu", "")
            written = (row.get("currency") or "USD").strip()
            currency = written.upper()
            if currency not in ("USD", "CNY"):  # 'RMB', 'yuan', '¥' offered as CNY, as written (hostile round 48)
                named = CURRENCY_NAMES.get(written.lower())
                if named is not None:
                    raise Said(N_("currency %(currency)r is not USD or CNY: write %(named)s"), currency=written,
                               named=named)
                raise Said(N_("currency %(currency)r is not USD or CNY"), currency=written)
            plan_in_price(row.get("price"), row.get("gpus"), currency, row.get("term"))  # '(1-yr reserved)' (round 56)
            one_gpus_price(row.get("price"), row.get("gpus"), currency)  # '$2.49/GPU/hr' on 8 (hostile round 55)
            count_text, price = row.get("gpus", ""), _number(row.get("price"), "price", currency)
            spot_price = _number(row["spot_price"], "spot_price", currency) if row.get("spot_price") else None
            region = row.get("region", "")
            mem = _number(row["gpu_memory"], "gpu_memory") if row.get("gpu_memory") else None
            ram_cell, ram_col = row.get("host_ram_gb", ""), "host_ram_gb"
            term = row_term(row.get("term"))
            if term != "on-demand" and spot_price is not None:
                raise Said(N_("a spot price on a %(term)s row: give it on the on-demand row"), term=term)
            row_prov = (row.get("provider") or "").lower()
            if row_prov and row_prov != prov:
                raise Said(N_("provider %(row)r is not the file's (%(file)s): one provider per file"), row=row_prov,
                           file=prov)
            instance = row.get("instance") or f"{name} x{count_text}"
            if row.get("as_of"):  # as --as-of: YYYY-MM-DD alone (Python 3.11 also read '20260105' and '2026-W02-1')
                if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", row["as_of"].strip()):
                    meant = iso_date(row["as_of"])
                    if meant:
                        raise Said(N_("'%(as_of)s' is not a date written YYYY-MM-DD: write %(meant)s"),
                                   as_of=row["as_of"][:40], meant=meant)
                    raise day_readings(row["as_of"][:40]) or Said(N_("'%(as_of)s' is not a date"),
                                                                  as_of=row["as_of"][:40])
                row_date = dt.date.fromisoformat(row["as_of"].strip())
                if row_date > dt.date.today():
                    raise Said(N_("as_of %(date)s is after today"), date=row_date.isoformat())
                row_source = sources[1]
                own_date = True
            if row.get("source"):
                row_source = f"{row['source']} (via {row_source})"
        _no_formula(name, instance, region, row.get("source", ""))
        _within_overlay(prov, instance, region, row.get("source", ""))
        if fmt == "gpuwise":
            count_in_name(name, count_text)  # '8x H100 SXM' with no count (hostile round 55)
        if not name and (not count_text or _number(count_text, GPU_COUNT) == 0):
            report.no_gpu += 1
            return
        count_f = _number(count_text, GPU_COUNT)
        if count_f == 0:  # a GPU named beside 0 GPUs (a CPU instance of the family) was 'not a whole number' (round 54)
            raise Said(N_("GPU count %(count)r: a row with no GPU (a CPU instance) has no GPU price"), count=count_text)
        if count_f != int(count_f) or count_f < 1:
            raise Said(N_("GPU count %(count)r is not a whole number of GPUs (a shared or partial GPU)"),
                       count=count_text)
        gpus = int(count_f)
        if gpus > MAX_GPUS:
            raise Said(N_("GPU count %(count)r is more than %(max)s GPUs"), count=count_text[:30], max=f"{MAX_GPUS:,}")
        if spot_price is not None and spot_price <= 0:
            raise Said(N_("spot price is not positive"))
        if spot_price is not None and not MIN_PRICE <= spot_price <= MAX_HOURLY_PRICE:
            raise Said(N_("spot price: %(said)s"), said=_floor_said(spot_price))
    except (ValueError, KeyError) as exc:  # a date Python cannot read, a missing column: its own words
        why = exc if isinstance(exc, Said) else Said(N_("%(reason)s"), reason=str(exc))
        report.skipped.append(Skipped(line, row.get("instance_name") or row.get("InstanceType") or
                                      row.get("gpu", ""), why))
        return
    if math.isnan(price) and spot_price is None:
        report.skipped.append(Skipped(line, instance, Said(N_("no price"))))
        return
    if not math.isnan(price) and price <= 0:
        report.skipped.append(Skipped(line, instance, Said(N_("price %(price)s is not positive"), price=f"{price:g}")))
        return
    if not math.isnan(price) and not MIN_PRICE <= price <= MAX_HOURLY_PRICE:  # 1e-320 would be written as 0
        report.skipped.append(Skipped(line, instance, Said(N_("price: %(said)s"), said=_floor_said(price))))
        return
    mapped, why = map_gpu(kb, name, mem, gpus)
    if mapped is None:
        report.skipped.append(Skipped(line, instance or name, why or Said(N_("unknown GPU"))))
        return
    launched = kb.gpus[mapped].launch_year
    if row_date.year < launched:  # an H100 priced on 1999-01-01 (--as-of mistyped): a date no offer of it had
        report.skipped.append(Skipped(line, instance, Said(
            N_("dated %(date)s, before %(gpu)s was launched (%(year)s): give the day the price was read"),
            date=row_date.isoformat(), gpu=kb.gpus[mapped].name, year=launched)))
        return
    key = (instance, mapped)
    # the term each row is read on, said by the summary: a spot or reserved price is never an on-demand offer
    report.read_as["spot" if is_spot or math.isnan(price) else term] += 1
    if term != "on-demand":  # a commitment's rate: put on the instance's on-demand offer, never one of its own
        keep_term(terms, key, term, TermPrice(price, currency, row_date, row_source, line))
        report.read_as["dws"] += fmt == "gpuhunt"
        return
    if is_spot:
        old = spot.get((*key, region))
        spot[(*key, region)] = price if old is None else min(old, price)
        return
    if math.isnan(price):  # SkyPilot row with only a spot price
        spot[(*key, region)] = spot_price  # type: ignore[assignment]
        return
    priced.setdefault(key, []).append((line, price, currency, region))
    old = best.get(key)
    if old is None or in_usd(kb, price, currency) < in_usd(kb, old.price, old.currency):
        notes = [why] if why else []
        ram, ram_why = _host_ram(ram_cell, ram_col, ram_scale, gpus)
        best[key] = Imported(prov, instance, mapped, gpus, price, currency, spot_price, region, line, row_date,
                             row_source, notes + ([ram_why] if ram_why else []), ram, own_date=own_date)


def _host_ram(cell: str, column: str, scale: float, gpus: int) -> tuple[float | None, Said | None]:
    """The instance's host RAM in GB from its catalog cell (gpuhunt ``memory`` in GB, SkyPilot ``MemoryGiB``,
    gpuwise's ``host_ram_gb``): what a rented server holds of an offloaded job's state. Empty: not stated;
    a cell that is no positive number is not read, and the offer says so (its price still counts)."""
    if not cell.strip():
        return None, None
    try:
        ram = _number(cell, column) * scale
    except Said as said:
        return None, Said(N_("%(said)s (host RAM not read)"), said=said)
    if ram <= 0:
        return None, None  # a catalog's 0: not stated
    if ram / gpus > 100_000:
        return None, Said(N_("%(column)s %(ram)s GB is more than 100,000 GB per GPU: host RAM not read"),
                          column=column, ram=f"{ram:g}")
    return ram, None


def _skypilot_memory(info: str) -> float | None:
    """GPU memory in GB from SkyPilot's GpuInfo (``{'Gpus': [{... 'MemoryInfo': {'SizeInMiB': 81920}}]}``)."""
    m = re.search(r"SizeInMiB['\"]?\s*:\s*([0-9.]+)", info or "")
    return float(m.group(1)) / 1024 if m else None


SPOT_PRICE = Term(N_("spot price"))  # the column named when a spot price above on-demand is left out


_MAPPED: dict[tuple[str, float | None, bool], tuple[str | None, Said | None]] = {}
"""GPU names already mapped with the knowledge base :data:`_MAPPED_KB`: a catalog repeats a few dozen
names over its rows, and resolving each row's name again was half the import's time (500,000 rows:
72 s on a busy 2-core machine)."""
_MAPPED_KB: list[Any] = [None]


def map_gpu(kb: Any, name: str, memory_gb: float | None, gpus: int) -> tuple[str | None, Said | None]:
    """The catalog id for a catalog's GPU name, told apart by the row's memory where the name is
    a family (``A100`` with 40 or 80 GB). (id, note) or (None, why not)."""
    key = (name, memory_gb, gpus >= 8)
    if _MAPPED_KB[0] is not kb or len(_MAPPED) > 10_000:  # another knowledge base (an overlay) maps anew
        _MAPPED.clear()
        _MAPPED_KB[0] = kb
    if key not in _MAPPED:
        _MAPPED[key] = _map_gpu(kb, name, memory_gb, gpus)
    return _MAPPED[key]


def _map_gpu(kb: Any, name: str, memory_gb: float | None, gpus: int) -> tuple[str | None, Said | None]:
    if not name:
        return None, Said(N_("no GPU name"))
    try:
        ident = kb.gpu(name).id
    except UserError:
        ident = None
    family = _family(kb, name) if ident is None or memory_gb else []
    if ident is not None and (memory_gb is None or _same_memory(kb.gpus[ident].memory.gb, memory_gb)):
        return ident, None
    pool = family or ([ident] if ident else [])
    if memory_gb is not None:
        pool = [i for i in pool if _same_memory(kb.gpus[i].memory.gb, memory_gb)]
    if len(pool) == 1:
        return pool[0], None
    if not pool:
        if memory_gb:
            return None, Said(N_("GPU '%(name)s' with %(gb)s GB is not in the catalog"), name=name, gb=f"{memory_gb:g}")
        close = kb.gpu_names.close(name)  # a misspelt name ('H100 80GB SMX') says what it was meant to be
        if close:
            return None, Said((N_("GPU '%(name)s' is not in the catalog"), N_("did you mean %(names)s?")), name=name,
                              names=either(close))
        return None, Said(N_("GPU '%(name)s' is not in the catalog"), name=name)
    sxm = [i for i in pool if kb.gpus[i].form_factor in ("sxm", "oam")]
    if gpus >= 8 and len(sxm) == 1:
        return sxm[0], Said(N_("'%(name)s' read as %(gpu)s: an 8-GPU cloud instance of this part is an HGX (SXM) "
                               "server"), name=name, gpu=kb.gpus[sxm[0]].name)
    return None, Said(N_("GPU '%(name)s' is ambiguous: it could be %(ids)s"), name=name, ids=", ".join(sorted(pool)))


def _same_memory(catalog_gb: float, row_gb: float) -> bool:
    # catalogs write GiB or GB, rounded (80, 79.6, 81.5): 6 % covers it and never joins 40 with 48
    return abs(catalog_gb - row_gb) <= 0.06 * catalog_gb


def _family(kb: Any, name: str) -> list[str]:
    from ..knowledge import norm

    key = norm(name)
    idx = kb.gpu_names
    ids = set(idx.family(key))  # a part built into named systems alone (Leonardo's A100 64GB) is no family's
    ids |= {i for k, i in idx.defaults.items() if k == key}
    return sorted(ids)
