"""Many proposals at once (``gpuwise audit A.yaml B.yaml ...`` or ``gpuwise audit DIR``): the
folder's proposal files, the loop, the progress bar on a terminal, one result or one input error per
file, and the summary report, JSON Lines, or a .json file's one array."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

from .decide.audit import audit, sharing
from .errors import N_, UserError, _say, one_line
from .results_audit import AuditResult
from .run_files import read_by_run

PROPOSAL_SUFFIXES = (".yaml", ".yml")
"""The files of a folder that ``gpuwise audit DIR`` reads as proposals."""


def proposal_files(args: list[str]) -> tuple[list[str], dict[str, str], bool]:
    """The proposal files the command line names: a file as given, a folder as its ``*.yaml`` and
    ``*.yml`` members in name order (hidden ones left out; a sub-folder so named is a member whose
    audit is the error "is a directory", not skipped in silence).  Returns the paths,
    a one-line error for each folder member that cannot be read as a file without blocking (a
    named pipe, a socket, a device: reading one could wait for ever), and whether a folder was
    named (a folder is a batch even when it holds one proposal).  A folder that cannot be listed
    or holds no proposal file is an input error."""
    from .yamlio import list_directory

    paths: list[str] = []
    refused: dict[str, UserError] = {}
    folder = False
    for arg in args:
        try:
            is_dir = os.path.isdir(arg)
        except ValueError:  # a NUL in the path: the audit says so for this file
            is_dir = False
        if not is_dir:
            paths.append(arg)
            continue
        folder = True
        names = sorted(n for n in list_directory(arg, "audit", "proposal files")
                       # PROPOSAL.YAML too (a Windows user's): it was 'no proposal files in this folder'
                       if n.lower().endswith(PROPOSAL_SUFFIXES) and not n.startswith("."))
        members = []
        for name in names:
            path = os.path.join(arg, name)
            try:
                mode = os.stat(path).st_mode
            except OSError:  # a broken link, a vanished file: the audit names the problem
                members.append(path)
                continue
            members.append(path)  # a folder named *.yaml too: its audit says "is a directory", for that member
            if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
                refused[path] = UserError(
                    N_("not a regular file but a named pipe (FIFO); a folder's proposals are read from regular "
                       "files only") if stat.S_ISFIFO(mode) else
                    N_("not a regular file but a socket; a folder's proposals are read from regular files only")
                    if stat.S_ISSOCK(mode) else
                    N_("not a regular file but a device; a folder's proposals are read from regular files only"),
                    where=path, hint=N_("name it alone on the command line to read it"))
        if not members:
            raise UserError(N_("no proposal files (%(suffixes)s) in this folder"),
                            where=arg, values={"suffixes": ', '.join('*' + s for s in PROPOSAL_SUFFIXES)})
        paths += members
    return paths, refused, folder


def audit_many(paths: list[str], args: Any, refused: dict[str, UserError] | None = None) -> int:
    """Several proposals: a summary table (or JSON: JSON Lines, a .json file one array), one entry per file.

    An error in one file -- bad input, or a failure inside gpuwise while auditing it -- is
    reported for that file, and every other file is still audited and written.  Exit status: 3
    when gpuwise failed on a file, else 2 when a file had an input error, else 1 when a proposal
    was rejected, else 0.  ``refused``: files already known to be unreadable, with their error.
    """
    import json

    from .render import output, report

    fmt = output.report_format(args.output, args.format)
    protect = read_by_run(args, paths) if args.output else []
    output.check_target(args.output, protect=protect)  # before the work, not after it
    output.refuse_closed_stdout(args.output)
    lang = getattr(args, "lang", "en") or "en"
    # a .json file holds one JSON document, the array of the proposals' audits (the contract: -o picks the format
    # from the suffix, .json is JSON); standard output and any other name (.jsonl) take JSON Lines, one a line
    array = fmt == "json" and output.names_a_file(args.output) and \
        os.path.splitext(os.fspath(args.output))[1].lower() == ".json"
    # each file's result becomes what the output shows of it as soon as it is in, and is dropped; that
    # text waits in a spool file (a JSON line or an HTML section: ~40 KB of an example proposal's): a
    # batch's memory grows with neither its members' whole results (~0.2 MB each) nor its output
    with _spool(args.output if output.names_a_file(args.output) else None) as spool:
        summary = None if fmt == "json" else report.AuditSummary(
            # no currency asked for: each file's section keeps the currency that file writes its amounts in
            fmt, spool, lang=args.lang, currency=args.currency or ("CNY" if args.fx_rate is not None else None),
            fx_rate=args.fx_rate, knowledge=args.knowledge, detail=getattr(args, "detail", "brief"))
        errors: list[str] = []
        internal: list[str] = []
        rejected = False
        show = sys.stderr is not None and sys.stderr.isatty() and len(paths) > 1  # None: started with 2>&-
        with sharing():  # proposals asking the same question share the search for the alternative
            for i, path in enumerate(paths, 1):
                if show:
                    _progress(i, len(paths))
                res: AuditResult | None = None
                err = ""
                if refused and path in refused:
                    err = refused[path].line(lang)
                else:
                    try:
                        res = audit(path, knowledge=args.knowledge, rules=args.rules, fx_rate=args.fx_rate)
                    except UserError as exc:
                        err = exc.line(lang)
                    except (KeyboardInterrupt, MemoryError, RecursionError):
                        raise
                    except Exception as exc:  # a bug met on this file: say so for this file, finish the others
                        err = f"{path}: internal error: {type(exc).__name__}: {exc} (a bug in gpuwise)"
                        err = " ".join(err.split())
                        internal.append(path)
                if res is None:
                    errors.append(err)
                rejected = rejected or (res is not None and res.verdict == "reject")
                if summary is not None:
                    summary.add(path, res, err)
                else:  # a JSON document a line, or an element of the array
                    doc = res.model_dump(mode="json") if res else {"file": path, "error": err}
                    lead = (b"[\n" if i == 1 else b",\n") if array else b""
                    spool.write(lead + json.dumps(doc, allow_nan=False).encode("ascii") + (b"" if array else b"\n"))
                    del doc
                del res
        if array:
            spool.write(b"\n]\n")
        if show:
            sys.stderr.write("\n")
        text = _read_back(spool) if summary is None else summary.chunks()
        written = output.emit(text, args.output, protect=protect, is_json=fmt == "json")  # JSON: C0 escaped already
    if errors:  # the summary lists every file's error; stderr gets one line, whatever was written
        line = _batch_line(errors, len(paths), written and output.shown_name(written), args.lang or "en")
        print(f"gpuwise: {one_line(line)}", file=sys.stderr)  # escaped, as a single file's
        return 3 if internal else 2
    if written is not None:
        print("gpuwise:", _say(N_("wrote %(path)s"), {"path": output.shown_name(written)}, args.lang or "en"),
              file=sys.stderr)
    return 1 if rejected else 0


def _spool(target: str | None) -> BinaryIO:
    """A file without a name for a batch's output while its members are audited: in the output's
    folder when ``-o`` names a file (where the output will need the room anyway), else where
    temporary files go.  It goes when closed, or with the process."""
    import tempfile

    if target:
        with contextlib.suppress(OSError, ValueError):
            return tempfile.TemporaryFile(dir=os.path.dirname(os.path.realpath(target)) or ".")
    return tempfile.TemporaryFile()


def _read_back(spool: BinaryIO, size: int = 1 << 16) -> Iterator[str]:
    """What was written to ``spool``, in pieces of ``size`` bytes (JSON: ASCII)."""
    spool.seek(0)
    while data := spool.read(size):
        yield data.decode("ascii")


def _progress(i: int, n: int) -> None:
    width = 30
    done = int(width * i / n)
    sys.stderr.write(f"\raudit [{'#' * done}{'.' * (width - done)}] {i}/{n}")
    sys.stderr.flush()


def _batch_line(errors: list[str], files: int, written: str | None, lang: str) -> str:
    """The one stderr line of a batch with errors: the first file's error, how many more, and what
    was written (in the language asked for)."""
    n, done = len(errors) - 1, files - len(errors)
    parts = [errors[0]]
    if n:
        parts.append(_say(N_(" (and %(n)s more file with errors; see the summary)") if n == 1 else
                          N_(" (and %(n)s more files with errors; see the summary)"), {"n": n}, lang))
    if written:
        them = (_say(N_("the results of the %(n)s other file") if done == 1 else
                     N_("the results of the %(n)s other files"), {"n": done}, lang) if done
                else _say(N_("the errors alone"), None, lang))
        parts.append(_say(N_("; wrote %(path)s (%(them)s)"), {"path": written, "them": them}, lang))
    return "".join(parts)
