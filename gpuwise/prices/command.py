"""The ``gpuwise prices`` command: the price table, and ``prices import`` into an overlay."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys

from .. import knowledge as knowledge_base
from ..errors import N_, UserError


def run_prices(args: argparse.Namespace) -> int:
    if getattr(args, "prices_command", None) == "import":
        return _import(args)
    from ..render.output import escape_controls, to_stdout
    from .table import gpu_reading, gpus_matched, not_bought, not_rented, other_matches, price_rows, render_text

    kb = knowledge_base.load(args.knowledge)
    rows = price_rows(kb, gpu=args.gpu, provider=args.provider, currency=args.currency)
    matched = gpus_matched(kb, args.gpu)
    reading = gpu_reading(kb, args.gpu)
    max_age = float(kb.policy_value("price_max_age_days"))
    if args.format == "json":
        # --gpu A100 (a family) lists every variant's prices: which ones, so a script sees the name matched several
        out = {"max_age_days": max_age, **({"gpus_matched": matched} if args.gpu is not None else {}),
               **({"gpu_read_as": {"gpu": reading[0].id, "note": reading[0].note, "other_variants": reading[1]}}
                  if reading else {}),
               **({"not_bought": [{"gpu": e.id, "reason": " ".join(e.reason.split())} for e in unbought]}
                  if (unbought := not_bought(kb, args.gpu, rows)) else {}),
               "prices": [r.as_dict() for r in rows]}
        to_stdout(json.dumps(out, indent=2, allow_nan=False) + "\n")
    else:
        from ..decide import rulebook, verdicts

        book = rulebook.load(None, kb.policy_values())  # the rules judge each price's age, not the view
        given = {"gpu": args.gpu, "provider": args.provider, "currency": args.currency}
        filters = {k: v for k, v in given.items() if v is not None}
        others = other_matches(kb, **given) if not rows and filters else None  # what to ask instead (round 48)
        # an overlay's source may carry terminal escapes (an OSC 8 link, a title-setting OSC): shown, not acted on
        unrented = not_rented(kb, args.gpu, rows)  # why a GPU asked for has no rental (market62)
        to_stdout(escape_controls(render_text(rows, max_age, args.lang, verdicts.stale(book, rows), filters, others,
                                              unrented, matched, reading, not_bought(kb, args.gpu, rows))))
    return 0


def _import(args: argparse.Namespace) -> int:
    from .catalog_csv import read_catalog
    from .overlay import write_overlay

    if not args.output:  # -o "": an unset shell variable; Path('') is the working directory
        raise UserError(N_("the output path is empty"), where="-o", hint=N_("-o names the overlay directory"))
    kb = knowledge_base.load(args.import_knowledge or args.knowledge)
    report = read_catalog(args.file, kb, provider=args.import_provider, as_of=args.as_of)
    if not report.rows:  # a header alone: no row to list, the one line says it all
        raise UserError(N_("no rows after the header; nothing written"), where=args.file)
    if not report.offers:
        _summary(report, None, args.import_format, sys.stderr, _import_lang(args))
        raise UserError(N_("no row could be imported (%(n)s listed above, %(no_gpu)s without a GPU); nothing written"),
                        where=args.file, values={"n": len(report.skipped), "no_gpu": report.no_gpu})
    target = write_overlay(report, args.output)
    _summary(report, str(target), args.import_format, None, _import_lang(args))  # None: standard output
    return 0


def _import_lang(args: argparse.Namespace) -> str:
    """``prices import --lang`` (or ``prices --lang ... import``)."""
    return getattr(args, "import_lang", None) or getattr(args, "lang", None) or "en"


def _summary(report, target: str | None, fmt: str, stream, lang: str = "en") -> None:  # type: ignore[no-untyped-def]
    """The import's summary to ``stream`` (None: standard output, where a closed pipe or a closed
    descriptor is quiet, as for every listing); names from the file have their control characters
    escaped."""
    from ..render.output import escape_controls, to_stdout

    if fmt == "json":
        out = report.as_dict() | {"overlay": target}
        text = json.dumps(out, indent=2, allow_nan=False, default=str) + "\n"
    else:
        from ..render.price_view import import_summary

        text = escape_controls(import_summary(report, target, lang))
    if stream is None:
        to_stdout(text)
    else:
        with contextlib.suppress(OSError, ValueError, AttributeError):  # stderr closed: the error line still counts
            stream.write(text)
