"""Many proposals at once (``gpuwise audit A.yaml B.yaml ...``): the loop, the progress bar on a
terminal, one result or one input error per file, and the summary report or JSON lines."""

from __future__ import annotations

import sys
from typing import Any

from .decide.audit import audit, sharing
from .errors import UserError
from .results import AuditResult


def audit_many(paths: list[str], args: Any) -> int:
    """Several proposals: a summary table (or JSON lines), one line per file.

    An error in one file -- bad input, or a failure inside gpuwise while auditing it -- is
    reported for that file, and every other file is still audited and written.  Exit status: 3
    when gpuwise failed on a file, else 2 when a file had an input error, else 1 when a proposal
    was rejected, else 0.
    """
    import json

    from .cli import read_by_run
    from .render import output, report

    fmt = output.report_format(args.output, args.format)
    protect = read_by_run(args, paths) if args.output else []
    output.check_target(args.output, protect=protect)  # before the work, not after it
    results: list[tuple[str, AuditResult | None, str]] = []
    internal: list[str] = []
    show = sys.stderr.isatty() and len(paths) > 1
    with sharing():  # proposals asking the same question share the search for the alternative
        for i, path in enumerate(paths, 1):
            if show:
                _progress(i, len(paths))
            try:
                results.append((path, audit(path, knowledge=args.knowledge, rules=args.rules), ""))
            except UserError as exc:
                results.append((path, None, exc.line()))
            except (KeyboardInterrupt, MemoryError, RecursionError):
                raise
            except Exception as exc:  # a bug met on this file: say so for this file, finish the others
                line = f"{path}: internal error: {type(exc).__name__}: {exc} (a bug in gpuwise)"
                results.append((path, None, " ".join(line.split())))
                internal.append(path)
    if show:
        sys.stderr.write("\n")
    if fmt == "json":
        lines = []
        for path, res, err in results:
            doc = res.model_dump(mode="json") if res else {"file": path, "error": err}
            lines.append(json.dumps(doc, allow_nan=False))
        text = "\n".join(lines) + "\n"
    else:
        currency = report.report_currency(args.currency, args.fx_rate, [res for _, res, _ in results])
        text = report.render_audit_summary(results, fmt, lang=args.lang, currency=currency,
                                           fx_rate=args.fx_rate, knowledge=args.knowledge,
                                           detail=getattr(args, "detail", "brief"))
    written = output.emit(text, args.output, protect=protect)
    errors = [err for _, res, err in results if res is None]
    if errors:  # the summary lists every file's error; stderr gets one line, whatever was written
        n = len(errors) - 1
        more = f" (and {n} more file{'s' if n > 1 else ''} with errors; see the summary)" if n else ""
        done = len(results) - len(errors)
        them = f"the results of the {done} other file{'s' if done != 1 else ''}" if done else "the errors alone"
        wrote = f"; wrote {written} ({them})" if written else ""
        print(f"gpuwise: {errors[0]}{more}{wrote}", file=sys.stderr)
        return 3 if internal else 2
    if written is not None:
        print(f"gpuwise: wrote {written}", file=sys.stderr)
    return 1 if any(res.verdict == "reject" for _, res, _ in results if res) else 0


def _progress(i: int, n: int) -> None:
    width = 30
    done = int(width * i / n)
    sys.stderr.write(f"\raudit [{'#' * done}{'.' * (width - done)}] {i}/{n}")
    sys.stderr.flush()
