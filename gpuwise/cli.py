"""The ``gpuwise`` command: running a parsed line, the one exception boundary, exit codes (the line's grammar,
its options and their help, is :mod:`gpuwise.cli_args`).

Exit status: 0 done; 1 ``audit`` found a blocker or ``recommend`` found no feasible
option (the report still says why); 2 bad input or usage (one line on stderr); 130
interrupted. Heavy modules are imported inside the commands so ``--version`` is instant.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from typing import Any, NoReturn

from . import cli_args
from .cli_args import N_, _cannot_write, _parser, _said
from .cli_args import _rate as _rate  # tests import these two from here
from .cli_args import build_parser as build_parser
from .errors import one_line as _one_line
from .run_files import read_by_run
from .streams import safe_streams


def _out(text: str) -> None:
    """A listing or an estimate to standard output: control characters escaped, a closed pipe quiet."""
    from .render import output

    output.to_stdout(output.escape_controls(text))


_STARTING = False
"""Set by :func:`run` in the ``gpuwise`` process: start-up runs without cyclic garbage collection."""


def _started() -> None:
    """Start-up is over: collect garbage again. What start-up made (the modules, the knowledge base,
    the rule book, the decision) lives until the process ends, so it is frozen out of every later
    collection's walk (:func:`gc.freeze`). In the ``gpuwise`` process only: a program or a test that
    calls :func:`main` keeps its own collector as it was. A single ``recommend``, ``audit`` or
    ``estimate`` never calls it: writing its one report makes little garbage and no cycles worth a
    walk, and the process ends right after (the 10-20 collections that report made were 2-4 ms of a
    ~0.3 s run); a batch, the questionnaire and the other commands do."""
    global _STARTING
    if _STARTING:
        import gc

        _STARTING = False
        gc.freeze()
        gc.enable()


_FULL = frozenset({28, 122, 27, 5})  # ENOSPC, EDQUOT, EFBIG, EIO: the output could not be written


def main(argv: list[str] | None = None) -> int:
    safe_streams()
    given = sys.argv[1:] if argv is None else argv
    parser = _parser(given)
    cli_args._LANG = "en"
    if any(a == "--lang" or a.startswith("--lang=") for a in given):
        from .cli_words import argparse_in, lang_of, shows_chinese

        cli_args._LANG = lang_of(given) if shows_chinese(sys.stderr) else "en"
        with argparse_in(cli_args._LANG):
            args = parser.parse_args(argv)
    else:
        args = parser.parse_args(argv)
    _command_lang(args, given)
    if args.command == "ask":  # the questionnaire saves the answers given so far on Ctrl-C
        import signal

        if signal.getsignal(signal.SIGINT) is interrupted:
            signal.signal(signal.SIGINT, signal.default_int_handler)
    from .cli_words import english_where_chinese_cannot_show, shows_chinese

    english = english_where_chinese_cannot_show(args, sys.stdout)
    try:
        code = int(_dispatch(args) or 0)
        if english:  # after the answer: a refused input's line stays the only one
            print("gpuwise:", _said(N_("standard output cannot show Chinese (encoding %(encoding)s): written in "
                                       "English (set PYTHONIOENCODING=utf-8, or write the report to a file with -o)"),
                                    encoding=getattr(sys.stdout, "encoding", "?")), file=sys.stderr)
        return code
    except KeyboardInterrupt:
        print("gpuwise:", _said(N_("interrupted")), file=sys.stderr)
        return 130
    except BrokenPipeError:  # a listing's reader went away (``| head``): not an error of ours
        from .render.output import silence_stdout

        silence_stdout()
        return 0
    except Exception as exc:  # the one exception boundary
        from .compat_py import durable_import_hint
        from .errors import SetupError, UserError

        if isinstance(exc, UserError):
            lang = getattr(args, "import_lang", None) or getattr(args, "lang", None) or "en"
            lang = lang if shows_chinese(sys.stderr) else "en"
            print(f"gpuwise: {_one_line(exc.line(lang if lang in ('en', 'zh') else 'en'))}", file=sys.stderr)
            return 2
        if isinstance(exc, OSError) and exc.errno in _FULL:  # the output's disk is full: not a bug
            _cannot_write(exc)
            return 2
        hint = str(exc) if isinstance(exc, SetupError) else durable_import_hint(exc)
        if hint:  # a broken installation, not a bug: say how to fix it
            print(f"gpuwise: {_one_line(hint)}", file=sys.stderr)
            return 3
        if os.environ.get("GPUWISE_DEBUG"):
            raise
        print(f"gpuwise: internal error: {_one_line(f'{type(exc).__name__}: {exc}')} "
              "(a bug in gpuwise; rerun with GPUWISE_DEBUG=1 for details)", file=sys.stderr)
        return 3




def _command_lang(args: argparse.Namespace, given: list[str]) -> None:
    """``gpuwise --lang zh gpus``: the language put before the command is the command's where it gives none of its
    own. argparse keeps the two apart (the first is ``help_lang``), so the listing, the report and a one-line error
    came in English with no word said (review59); a ``--lang`` after the command still wins."""
    top = getattr(args, "help_lang", None)
    if top is None or sum(a == "--lang" or a.startswith("--lang=") for a in given) > 1:
        return
    for dest in ("lang", "import_lang"):  # `prices import` names its own
        if hasattr(args, dest):
            setattr(args, dest, top)


def _dispatch(args: argparse.Namespace) -> int:
    cmd = args.command
    if cmd not in ("recommend", "audit", "estimate"):  # one answer of those three: never (see _started)
        _started()
    if cmd == "ask":
        from .ask.questionnaire import run_ask

        return run_ask(args.answers, args.output, knowledge=args.knowledge, lang=args.lang,
                       currency=args.currency)
    if cmd == "recommend":
        return _recommend(args)
    if cmd == "audit":
        return _audit(args)
    if cmd == "estimate":
        return _estimate(args)
    if cmd == "plan":
        return _plan(args)
    if cmd == "gpus":
        return _gpus(args)
    if cmd == "rules":
        return _rules(args)
    if cmd == "prices":
        from .prices.command import run_prices

        return run_prices(args)
    if cmd == "explain":
        return _explain(args)
    raise AssertionError(cmd)


def _write(text: str, args: argparse.Namespace, inputs: list[str], *, is_json: bool = False) -> None:
    """The rendered report to ``-o`` (never onto one of the ``inputs``) or to standard output;
    ``is_json``: the report is JSON (see output.escape_controls)."""
    from .render import output

    path = output.emit(text, args.output, protect=inputs, is_json=is_json)
    if path is None:
        return
    shown = output.shown_name(path)
    fmt, other = _suffix_disagrees(getattr(args, "format", None), path)
    if other:  # '--format json -o r.md': written as --format says, which the name does not (hostile round 49)
        print("gpuwise:", _said(N_("wrote %(path)s in %(fmt)s, as --format says, though its suffix says %(other)s"),
                                path=shown, fmt=fmt, other=other), file=sys.stderr)
    else:
        print("gpuwise:", _said(N_("wrote %(path)s"), path=shown), file=sys.stderr)


def _suffix_disagrees(fmt: str | None, path: str) -> tuple[str, str]:
    """The format ``--format`` gave and the other one ``path``'s suffix names, or ('', '') where they agree or
    either is not given."""
    from pathlib import Path

    from .render.formats import SUFFIXES, normalise_format

    named = SUFFIXES.get(Path(str(path)).suffix.lower())
    given = normalise_format(fmt) if fmt else None
    return (given, named) if given and named and named != given else ("", "")


def _check_output(args: argparse.Namespace, inputs: list[str]) -> None:
    """A bad ``-o`` (its suffix, an input file, a directory, a missing directory) is refused
    before the work, not after it."""
    from .render import output

    output.report_format(args.output, args.format)
    output.check_target(args.output, protect=inputs)
    output.refuse_closed_stdout(args.output)


def _emit(result: Any, args: argparse.Namespace, kind: str, inputs: list[str]) -> None:
    from .render import formats, output

    fmt = output.report_format(args.output, args.format)
    if fmt == "json":  # the contract's data, in USD whatever the language and currency: no views, no templates
        _write(formats.json_text(result.model_dump(mode="json")), args, inputs, is_json=True)
        return
    from .render import report

    currency = report.report_currency(args.currency, args.fx_rate, [result])
    text = report.render(result, fmt, kind=kind, lang=args.lang, currency=currency, fx_rate=args.fx_rate,
                         detail=args.detail)
    _write(text, args, inputs)


def _recommend(args: argparse.Namespace) -> int:
    inputs = read_by_run(args, [args.requirements], cards=False) if args.output else []
    _check_output(args, inputs)
    from . import lean

    lean.enable_for(args)  # a report (not JSON) of the gpuwise process: results as lean records
    from .decide.recommend import recommend
    from .inputs import job

    if _STARTING:  # the gpuwise process, one answer: what it was computed from is never freed (inputs/job.py)
        job.KEPT = []
    result = recommend(args.requirements, knowledge=args.knowledge, rules=args.rules, fx_rate=args.fx_rate)
    _emit(result, args, "recommend", inputs)
    return 0 if result.recommendation is not None else 1


def _audit(args: argparse.Namespace) -> int:
    from .batch import audit_many, proposal_files

    paths, refused, folder = proposal_files(args.proposals)
    if len(paths) > 1 or folder:
        _started()  # a batch makes garbage proposal by proposal
        return audit_many(paths, args, refused)
    from .decide.audit import audit

    inputs = read_by_run(args, args.proposals) if args.output else []
    _check_output(args, inputs)
    result = audit(args.proposals[0], knowledge=args.knowledge, rules=args.rules, fx_rate=args.fx_rate)
    _emit(result, args, "audit", inputs)
    return 1 if result.verdict == "reject" else 0


def _plan(args: argparse.Namespace) -> int:
    """``gpuwise plan``: exit 1 when the plan does not keep to its constraints -- some workload could not be placed,
    or a budget no mix of GPUs keeps to (PLAN-BUDGET-OVER) -- as ``recommend`` exits 1 with no feasible option; the
    report says why. A blocker the plan routes around (an owned server's RAM: the run rented) leaves it 0."""
    from .plan.build import plan
    from .plan.milp import progress_in
    from .render import output, plan_view

    inputs = read_by_run(args, [args.plan], cards=False) if args.output else []  # knowledge and rule files too
    _check_output(args, inputs)
    currency = args.currency or ("CNY" if args.fx_rate is not None else None)
    with progress_in(args.lang or "en"):  # a long search's progress line on a terminal, in the report's language
        result = plan(args.plan, knowledge=args.knowledge, rules=args.rules, currency=currency, fx_rate=args.fx_rate)
    text = plan_view.render(result, output.report_format(args.output, args.format), lang=args.lang,
                            detail=args.detail)
    _write(text, args, inputs)
    return 1 if result.unplaced or result.answer.why_not else 0


def _estimate(args: argparse.Namespace) -> int:
    import json

    from .decide.estimate import estimate

    result = estimate(args.requirements, gpu=args.gpu, gpus=args.gpus, knowledge=args.knowledge,
                      fx_rate=args.fx_rate)
    if args.format == "json":
        _out(json.dumps(result.model_dump(mode="json"), indent=2, allow_nan=False) + "\n")
    else:
        from .render import report

        # an estimate carries no currency record: its file's constraints.currency is the default, as for recommend
        own = (result.workload.get("constraints") or {}).get("currency") if args.fx_rate is None else None
        currency = args.currency or own or report.report_currency(None, args.fx_rate, [result])
        _out(report.render(result, "text", kind="estimate", lang=args.lang, currency=currency, fx_rate=args.fx_rate,
                           knowledge=args.knowledge))
    return 0


def _gpus(args: argparse.Namespace) -> int:
    from .render import listing

    _out(listing.gpus(args.format, knowledge=args.knowledge, lang=args.lang, currency=args.currency,
                      fx_rate=args.fx_rate))
    return 0


def _rules(args: argparse.Namespace) -> int:
    from .render import listing

    if args.facts:
        _out(listing.facts(args.format, lang=args.lang))
        return 0
    _out(listing.rules(args.format, rules=args.rules, knowledge=args.knowledge, lang=args.lang))
    return 0


def _explain(args: argparse.Namespace) -> int:
    from .render import listing

    _out(listing.explain(args.rule_id, args.format, rules=args.rules, knowledge=args.knowledge, lang=args.lang))
    return 0


def interrupted(_signum: int = 2, _frame: Any = None) -> None:
    """Ctrl-C in the ``gpuwise`` process: remove the temporary file being written (the old report
    stays as it was), say so in one line, exit 130 -- at once. Raised as KeyboardInterrupt
    instead, the interrupt could be caught on the way: pydantic turned it into a validation error
    (exit 2) and durable-rules printed its own traceback and went on with half a session.
    Once the command's output is renamed into place the run is done and the interrupt changes
    nothing (it ends as it would have, exit 0 or 1): exit 130 always leaves the old file. Nothing
    is imported here: a handler importing in the middle of another import met a half-built module."""
    output = sys.modules.get("gpuwise.render.output")  # not imported yet: no file is being written
    if output is not None:
        if getattr(output, "PLACED", None):
            return
        with contextlib.suppress(Exception):
            output.remove_pending()
    with contextlib.suppress(OSError):
        os.write(2, b"gpuwise: interrupted\n")
    os._exit(130)


PLUGIN_LOADER = "pydantic.plugin._loader"


def _no_plugin_search() -> None:
    """pydantic looks for third-party plugins (package entry points) the first time it builds a
    validator, and importing ``importlib.metadata`` for that was about 15 ms of every gpuwise
    process. The command runs with pydantic's own switch ``PYDANTIC_DISABLE_PLUGINS=__all__``
    unless the environment sets it (``PYDANTIC_DISABLE_PLUGINS=`` keeps plugins on); switched off,
    the loader module is not imported at all: a stand-in answers "no plugins", as pydantic's
    does then, and hands any other name to the real module (a newer pydantic's)."""
    import types

    if os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__") not in ("__all__", "1", "true"):
        return
    if PLUGIN_LOADER in sys.modules:
        return
    stand_in = types.ModuleType(PLUGIN_LOADER)

    def real(name: str) -> Any:
        import importlib

        if name.startswith("__"):  # the import system asks for __path__, __spec__...: a plain module's answer
            raise AttributeError(name)
        if sys.modules.get(PLUGIN_LOADER) is stand_in:
            del sys.modules[PLUGIN_LOADER]
        return getattr(importlib.import_module(PLUGIN_LOADER), name)

    stand_in.get_plugins = lambda: ()  # type: ignore[attr-defined]
    stand_in.__getattr__ = real  # type: ignore[attr-defined]
    sys.modules[PLUGIN_LOADER] = stand_in


def process_start() -> None:
    """What the ``gpuwise`` process sets before its work (and a benchmark timing one in its place):
    no search for pydantic plugins, and no cyclic garbage collection until start-up is over
    (:func:`_started`: imports and loading make no garbage worth a collection's walk)."""
    import gc

    global _STARTING
    _STARTING = True
    gc.disable()
    _no_plugin_search()


def work_start() -> None:
    """What the ``gpuwise`` process sets once it computes an answer (not replayed by the answer
    memo, which needs neither): compiled regular expressions, and the code of the sources the
    libraries compile as they are imported, from the user's cache. Loading them before the memo's
    replay had made a repeated question 9 ms slower."""
    from . import code_cache, regex_cache

    regex_cache.install()
    code_cache.install()


def run() -> NoReturn:
    """The ``gpuwise`` command as a process: :func:`main` with Ctrl-C handled by
    :func:`interrupted`, then out at once. Once the work is done an interrupt changes nothing, and
    the interpreter is not torn down: the rule engine's native state, freed at shutdown, crashed
    the process (SIGSEGV) when Ctrl-C arrived then, and skipping the teardown saves its time."""
    import signal

    process_start()
    with contextlib.suppress(ValueError, OSError):
        signal.signal(signal.SIGINT, interrupted)

    def done() -> None:
        with contextlib.suppress(ValueError, OSError, AttributeError):
            signal.signal(signal.SIGINT, signal.SIG_IGN)

    from . import memo

    digest = memo.key(sys.argv[1:])
    try:
        code = memo.replay(digest)  # the same question asked again: what the first run printed
    except OSError as exc:  # lost on the way out (a full disk): as for an answer computed here
        _cannot_write(exc)
        code = 2
    recording = memo.record(digest) if code is None else None
    try:
        if code is None:
            work_start()
            from .lean import main_allowing_lean

            code = main_allowing_lean(main)
        done()
    except KeyboardInterrupt:  # it came after main's own handler
        done()
        with contextlib.suppress(Exception):
            print("gpuwise: interrupted", file=sys.stderr)
        code = 130
    except SystemExit as exc:  # argparse: --help, --version, bad usage
        done()
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
        if exc.code is not None and not isinstance(exc.code, int):
            with contextlib.suppress(Exception):
                print(exc.code, file=sys.stderr)
    if recording is not None:
        with contextlib.suppress(Exception):
            recording.finish(digest, code)  # type: ignore[arg-type]
    # the record classes, regular expressions, library sources compiled and files hashed in this run, for the next one
    for kept in ("gpuwise.frozen", "gpuwise.regex_cache", "gpuwise.code_cache", "gpuwise.cache"):
        module = sys.modules.get(kept)
        if module is not None:
            with contextlib.suppress(Exception):
                module.save()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            from .render.output import silence_stdout

            silence_stdout()
        except OSError as exc:  # the report's last bytes were lost (a full disk): not a success
            if stream is sys.stdout and exc.errno in _FULL:
                with contextlib.suppress(Exception):
                    _cannot_write(exc)
                    sys.stderr.flush()
                code = 2
        except ValueError:
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    run()
