"""Writing imported offers into a knowledge overlay directory (``DIR/clouds.yaml``).

The overlay holds only ``instances`` (merged by id into the built-in clouds.yaml when
``--knowledge DIR`` is given). An overlay already in DIR keeps its other entries; an imported
offer replaces the one with its id (re-importing a provider's file refreshes it). The file is
checked against the clouds schema before it is written, and written atomically: a reader sees the
old file or the new one, never half of either.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import yaml

from ..errors import N_, Said, Term, UserError
from ..knowledge.schema.clouds import Instance
from ..render.output import atomic_write_text
from ..yamlio import read_yaml
from .catalog_csv import ImportReport, offer_id


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _entry(o: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"id": offer_id(o), "provider": o.provider, "gpu": o.gpu, "gpus": o.gpus}
    e["usd_per_hour" if o.currency == "USD" else "cny_per_hour"] = round(o.price, 6)
    if o.spot_price is not None and o.currency == "USD":
        e["spot_usd_per_hour"] = round(o.spot_price, 6)
    if o.region:
        e["region"] = o.region
    if o.host_ram_gb:  # the instance's RAM as the catalog states it: an offloaded job on it is judged on it
        e["host_ram_gb_per_gpu"] = round(o.host_ram_gb / o.gpus, 3)
        e["host_ram_source"] = f"{o.source}, line {o.line}"
    e.update({"as_of": o.as_of, "source": f"{o.source}, line {o.line}", "check": "S"})
    if o.reserved:  # a commitment's rate, dated and sourced by its own row (prices/terms.py)
        e.update({"reserved_per_hour": {t: round(v, 6) for t, v in sorted(o.reserved.items())},
                  "terms_as_of": o.terms_as_of, "sold_as_source": o.terms_source, "terms_check": "S"})
    if o.notes:
        e["notes"] = "; ".join(str(n) for n in o.notes)
    Instance.model_validate(e)  # the schema's own check, before anything is written
    return e


def _not_built_in(d: Path, out_dir: str) -> None:
    """The built-in knowledge or rules directory is never an overlay: an import there would replace
    the shipped clouds.yaml every run reads (or put a non-rule file among the rules)."""
    from ..paths import knowledge_dir, rules_dir

    for built_in, what in ((knowledge_dir(), "knowledge"), (rules_dir(), "rules")):
        try:
            same = d.is_dir() and os.path.samefile(d, built_in)
        except OSError:
            same = False
        if same:
            raise UserError(N_("is gpuwise's built-in %(what)s directory; an import never replaces its files"),
                            where=out_dir,
                            hint=N_("give a directory of your own and use it with --knowledge DIR"),
                            values={"what": what})


HEADER = N_("# Knowledge overlay written by `gpuwise prices import` on %(stamp)s from %(file)s\n"
            "# (%(format)s layout, provider %(provider)s, as_of %(as_of)s from %(from)s).\n"
            "# Use it with --knowledge DIR; instances merge by id into the built-in clouds.yaml.\n")
"""The overlay file's header comment (a data file: written in English, as its keys are)."""


def write_overlay(report: ImportReport, out_dir: str, today: dt.date | None = None) -> Path:
    """Merge the report's offers into ``out_dir/clouds.yaml`` (created with its directory). A
    ``clouds.yaml`` there that is a link to the CSV read or to a built-in knowledge or rule file is
    refused: the write follows a link, and rewrote the shipped clouds.yaml (exit 0)."""
    from ..render.output import check_target
    from ..run_files import read_by_run

    d = Path(out_dir)
    if d.exists() and not d.is_dir():
        raise UserError(N_("is a file, not a directory"), where=out_dir, hint=N_("-o names the overlay directory"))
    _not_built_in(d, out_dir)
    if not d.exists():
        if not d.parent.is_dir():
            raise UserError(N_("the overlay's parent directory does not exist"), where=out_dir)
        try:  # a read-only working directory or file system was an internal error (PermissionError)
            d.mkdir()
        except OSError as exc:
            raise UserError(N_("cannot write the overlay: %(strerror)s"), where=out_dir,
                            values={"strerror": exc.strerror or exc}) from None
    target = d / "clouds.yaml"
    check_target(target, protect=read_by_run(None, [report.path], cards=False))
    existing: dict[str, Any] = {}
    if target.is_file():
        existing = read_yaml(target, what=Term(N_("knowledge overlay"))) or {}
        if not isinstance(existing, dict):
            raise UserError(N_("expected a mapping at the top level"), where=str(target))
    if not isinstance(existing.get("instances") or [], list):
        raise UserError(N_("instances: expected a list of offers"), where=str(target),
                        hint=N_("-o names the overlay directory `prices import` keeps its offers in"))
    new = [_entry(o) for o in report.offers]
    ids = {e["id"] for e in new}
    kept = [e for e in existing.get("instances") or [] if not (isinstance(e, dict) and e.get("id") in ids)]
    data = dict(existing)
    data["instances"] = kept + new
    stamp = (today or dt.date.today()).isoformat()
    head = str(Said(HEADER, stamp=stamp, file=Path(report.path).name, format=report.format, provider=report.provider,
                    as_of=report.as_of, **{"from": report.as_of_from}))
    text = head + yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True, width=100)
    try:
        atomic_write_text(target, text)
    except OSError as exc:
        raise UserError(N_("cannot write the overlay: %(strerror)s"), where=str(target),
                        values={"strerror": exc.strerror or exc}) from None
    return target
