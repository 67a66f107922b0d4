"""A catalog CSV's header: the layouts told apart by their columns (``FORMATS``), and a header refused where its
columns cannot be read as written (separated by semicolons or tabs, two columns of one name but for case), a
missing column's closest cell offered."""

from __future__ import annotations

import difflib
from pathlib import Path

from ..errors import N_, UserError

FORMATS: dict[str, tuple[str, ...]] = {
    "gpuhunt": ("instance_name", "price", "gpu_count", "gpu_name"),
    "skypilot": ("InstanceType", "AcceleratorName", "AcceleratorCount", "Price"),
    "gpuwise": ("gpu", "gpus", "price"),
}


def _comma_separated(header: list[str], path: Path) -> None:
    """Refuse a file whose columns are separated by semicolons (a spreadsheet's CSV in a locale that
    writes decimal commas: its ``2,5`` is two and a half) or tabs: it was read as one column and
    refused as 'the header lacks instance_name, price, ...', which did not say why."""
    if len(header) != 1:
        return
    excel = header[0].lower().startswith("sep=")  # Excel's first line naming the separator: 'sep=;'
    for sep, name in ((";", "';'"), ("\t", "tabs"), ("|", "'|'")):  # '|': a database client's export
        cells = [c.strip() for c in header[0].split(sep)]
        if (excel and header[0][4:] == sep) or (
                len(cells) > 1 and any(all(c in cells for c in needed) for needed in FORMATS.values())):
            raise UserError(N_("the columns are separated by %(sep)s, not by commas"), where=str(path),
                            hint=N_("save it as comma-separated values (CSV, with a decimal point)"),
                            values={"sep": name})


def _no_case_twins(header: list[str], path: Path) -> None:
    """Refuse two header cells that differ only in case (``gpu`` and ``GPU``): the columns are matched
    by their exact names, so the first was read and the other silently dropped, though a person
    reading the sheet sees two columns of one name and cannot tell which holds the value."""
    seen: dict[str, str] = {}
    for h in header:
        if h and h.casefold() in seen and seen[h.casefold()] != h:
            raise UserError(N_("columns %(first)s and %(second)s differ only in case: which one holds the value "
                               "is unclear"), where=str(path),
                            values={"first": repr(seen[h.casefold()]), "second": repr(h)},
                            hint=N_("keep one of them"))
        seen.setdefault(h.casefold(), h)


def _close_column(missing: str, header: list[str]) -> list[str]:
    """A header cell that may be ``missing`` misspelt: one equal to it but for case first (``GPU``
    was offered 'gpus' for 'gpu'), else difflib's closest."""
    same = [h for h in header if h.casefold() == missing.casefold()]
    return same[:1] or difflib.get_close_matches(missing, header, n=1)
