"""The ``gpuwise prices`` command: the price table, and ``prices import`` into an overlay."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .. import knowledge as knowledge_base
from ..errors import UserError


def run_prices(args: argparse.Namespace) -> int:
    if getattr(args, "prices_command", None) == "import":
        return _import(args)
    from .table import price_rows, render_text

    kb = knowledge_base.load(args.knowledge)
    rows = price_rows(kb, gpu=args.gpu, provider=args.provider, currency=args.currency)
    max_age = float(kb.policy_value("price_max_age_days"))
    if args.format == "json":
        out = {"max_age_days": max_age, "prices": [r.as_dict() for r in rows]}
        sys.stdout.write(json.dumps(out, indent=2, allow_nan=False) + "\n")
    else:
        sys.stdout.write(render_text(rows, max_age, args.lang))
    return 0


def _import(args: argparse.Namespace) -> int:
    from .catalog_csv import read_catalog
    from .overlay import write_overlay

    kb = knowledge_base.load(args.import_knowledge or args.knowledge)
    report = read_catalog(args.file, kb, provider=args.import_provider, as_of=args.as_of)
    if not report.offers:
        _summary(report, None, args.import_format, sys.stderr)
        raise UserError(f"no row could be imported ({len(report.skipped)} listed above, "
                        f"{report.no_gpu} without a GPU); nothing written", where=args.file)
    target = write_overlay(report, args.output)
    _summary(report, str(target), args.import_format, sys.stdout)
    return 0


def _summary(report, target: str | None, fmt: str, stream) -> None:  # type: ignore[no-untyped-def]
    if fmt == "json":
        out = report.as_dict() | {"overlay": target}
        stream.write(json.dumps(out, indent=2, allow_nan=False, default=str) + "\n")
        return
    w = stream.write
    w(f"{report.path}: {report.format} layout, provider {report.provider}, {report.rows} rows\n")
    w(f"as_of {report.as_of.isoformat()} ({report.as_of_from}"
      + ("; give --as-of DATE when the prices are from another day" if report.as_of_from != "--as-of" else "")
      + ")\n")
    w(f"imported {len(report.offers)} offers (instance price / GPU count = per GPU-hour; the cheapest location of "
      "each instance type):\n")
    for o in report.offers:
        spot = f", spot {o.spot_price:g}/h" if o.spot_price is not None else ""
        note = f"  [{'; '.join(o.notes)}]" if o.notes else ""
        w(f"  {o.instance:<28} {o.gpus} x {o.gpu:<22} {o.price:g} {o.currency}/h = {o.per_gpu_hour:.4g} per "
          f"GPU-hour{spot}{note}\n")
    if report.no_gpu:
        w(f"left out {report.no_gpu} rows without a GPU\n")
    if report.spot_only:
        w(f"left out {report.spot_only} instance types listed only as spot (no on-demand price to attach it to)\n")
    if report.skipped:
        w(f"could not use {len(report.skipped)} rows:\n")
        for s in report.skipped:
            w(f"  line {s.line}: {s.name}: {s.reason}\n")
    if target:
        w(f"wrote {target}; use it with --knowledge {Path(target).parent}\n")
