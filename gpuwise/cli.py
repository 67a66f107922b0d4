"""The ``gpuwise`` command: argument parsing, the one exception boundary, exit codes.

Exit status: 0 done; 1 ``audit`` found a blocker or ``recommend`` found no feasible
option (the report still says why); 2 bad input or usage (one line on stderr); 130
interrupted. Heavy modules are imported inside the commands so ``--version`` is instant.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys
from typing import Any, NoReturn

from . import __version__
from .cli_once import Once
from .errors import one_line as _one_line
from .run_files import read_by_run
from .streams import safe_streams

FORMATS = ("text", "md", "html", "json")


_LANG = "en"
"""The language the command line being parsed asks for (``--lang``): argparse's lines are in it."""


def N_(text: str) -> str:  # marks an argument's complaint for the catalog (gpuwise/errors.py's, not imported here)
    return text


class _Words(argparse.HelpFormatter):
    """``--help`` in the language of the parse: each description and option's help (marked ``N_``)
    goes through argparse's ``_``, which ``cli_words.argparse_in`` points at the catalog for
    ``--lang zh``; in English it is the text as written."""

    building_width: int | None = None
    """While :func:`_parser` builds the parser: the terminal's width, asked once (argparse makes a
    formatter for each of ~80 options to check its metavar, and each asked the terminal again)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        if width is None and _Words.building_width is not None:
            width = _Words.building_width
        super().__init__(prog, indent_increment, max_help_position, width)

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = super()._get_help_string(action)
        return argparse._(text) if text else text  # type: ignore[attr-defined]

    def _format_text(self, text: str) -> str:
        return super()._format_text(argparse._(text) if text else text)  # type: ignore[attr-defined]

    def start_section(self, heading: str | None) -> None:  # 'options' was worded when the parser was built
        super().start_section(argparse._(heading) if heading else heading)  # type: ignore[attr-defined]

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None) -> str:
        """argparse wraps the usage by ``len``: '用法：' is 3 characters but 6 columns."""
        import unicodedata

        prefix = argparse._("usage: ") if prefix is None else prefix  # type: ignore[attr-defined]
        wide = sum(unicodedata.east_asian_width(ch) in "WF" for ch in prefix)
        self._width -= wide
        try:
            return super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += wide

    def _split_lines(self, text: str, width: int) -> list[str]:
        if text.isascii():
            return super()._split_lines(text, width)
        from .render.textfit import wrap  # Chinese: two columns a character, a break between any two

        return wrap(text, width)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Words)
        super().__init__(*args, **kwargs)

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        self.argv = list(sys.argv[1:] if args is None else args)  # for error(): what this parser was given
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        from .cli_words import stray_option, with_close_word
        from .render.output import escape_controls  # 'unrecognized arguments' quotes argv raw: no ESC to the terminal

        message = stray_option(self, getattr(self, "argv", []), message, _LANG, lambda: build_parser(None)) or message
        message = with_close_word(getattr(self, "argv", []), message, _LANG, lambda: build_parser(None))
        message = escape_controls(message).replace("\n", "\\n")
        if _LANG == "en":
            self.exit(2, f"gpuwise: error: {message} (see `{self.prog} --help`)\n")
        from .cli_words import error_line

        self.exit(2, f"gpuwise: {error_line(message, self.prog, _LANG)}\n")

    def _print_message(self, message: str, file: Any = None) -> None:
        """``--version`` and ``--help`` on standard output as the reports are: argparse drops any
        error writing them, so ``gpuwise --version > /dev/full`` said nothing and exited 0. A full
        disk is the one line and exit 2; a reader that went away (``| true``) or a closed standard
        output stays quiet, as for a listing. Errors and usage on standard error are argparse's."""
        if file is None and sys.stdout is None:  # argparse's stdout, closed (``>&-``): quiet, as a listing
            return
        if file is None or file is not sys.stdout or not message:
            super()._print_message(message, file)
            return
        try:
            file.write(message)
            file.flush()
        except OSError as exc:
            from .render.output import silence_stdout

            silence_stdout()  # the interpreter's last flush must not fail again on what was not written
            if isinstance(exc, BrokenPipeError) or exc.errno == errno.EBADF:
                return
            _cannot_write(exc)
            self.exit(2)


def _dir_name(text: str) -> str:
    """``--knowledge``/``--rules``: a directory's name; an empty one (``--rules "$RULES"`` with the
    variable unset) was taken as no option at all, so the house rules silently did not apply."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_said(N_("an empty directory name (an unset shell variable?)")))
    return text


def _file_name(text: str) -> str:
    """An input file's name; an empty one (``"$FILE"`` unset) read the working directory."""
    if not text.strip():
        raise argparse.ArgumentTypeError(_said(N_("an empty file name (an unset shell variable?)")))
    return text


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--knowledge", metavar="DIR", type=_dir_name, action=Once,
                   help=N_("overlay your own YAML (prices, GPUs, models) on the built-in knowledge base"))


def _rules_opt(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="DIR", type=_dir_name, action=Once,
                   help=N_("add your own rule files (same format as rules/*.yaml); a rule with a built-in id "
                           "replaces it"))


def _lang_opt(p: argparse.ArgumentParser, what: str = N_("report language (default: en)")) -> None:
    """``--lang``: every command that writes words (JSON is the same in every language)."""
    p.add_argument("--lang", choices=("en", "zh"), default="en", help=what)


def _lang_opts(p: argparse.ArgumentParser) -> None:
    """``--lang``, ``--currency`` and ``--fx-rate``: every command that writes sentences or amounts."""
    _lang_opt(p)
    p.add_argument("--currency", choices=("USD", "CNY"),
                   help=N_("report currency (default: the currency the input file writes its amounts in, "
                        "constraints.currency; CNY when --fx-rate is given; else USD)"))
    p.add_argument("--fx-rate", type=_rate, metavar="RATE",
                   help=N_("CNY per USD (default: the knowledge base's dated rate)"))


def _report_opts(p: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS) -> None:
    p.add_argument("--format", choices=formats, action=Once,
                   help=N_("output format (default: text, or from the -o suffix)"))
    p.add_argument("-o", "--output", metavar="FILE", action=Once,
                   help=N_("write the report to FILE (.md, .html, .json, .txt); - for standard output"))
    _lang_opts(p)
    p.add_argument("--detail", choices=("brief", "full"), default="brief",
                   help=N_("brief: the answer, the steps in a line each, alternatives, warnings and "
                        "assumptions (default); full: also every formula, candidate, finding and the rule trace"))


def _said(template: str, **values: object) -> str:
    """An argument's complaint in the language the command line asks for (argparse puts it after
    "argument --gpus: ")."""
    if _LANG == "en":
        return template % values
    from .errors import _say

    return _say(template, values, _LANG)


def _other_notation(text: str) -> str | None:
    """A number option written in digits other than 0-9 ('٨', '７.２'): the ASCII it would have meant, as a file's
    number field offers it (inputs/notation.py meant; hostile round 41); None for other text ('7_1' and '0x7' stay
    'not a number': a rate of 71 or 7 is not surely what was meant). Thousands grouped or a decimal comma ('10,000'
    GPUs, '7,1' CNY per USD) are offered as the number, with both readings where one comma may be either (round 44)."""
    from .inputs.notation import Grouped, meant

    said = meant(text)
    return None if said is None or (text.isascii() and not isinstance(said, Grouped)) else said.words(_LANG)


def _count_with_unit(text: str) -> str | None:
    from .cli_words import count_with_unit

    return count_with_unit(text, "--gpus", _LANG)


def _gpu_count(text: str) -> int:
    """``--gpus``: a whole number from 1 to the cap a file's ``hardware.count`` has."""
    from .inputs.schema import MAX_GPUS

    value = text.strip()
    if value[:1] == "-" and value[1:].isascii() and value[1:].isdigit():  # a whole number below 1: out of range,
        raise argparse.ArgumentTypeError(_said(N_("%(n)s GPUs is out of range: give 1 to %(max)s"),  # not a
                                               n=value[:40], max=f"{MAX_GPUS:,}"))  # fraction
    if not (value.isascii() and value.isdigit()):  # not '１２', '+8', '8.0' or '1e3'
        raise argparse.ArgumentTypeError(_other_notation(text) or _count_with_unit(text) or _said(
            N_("%(given)s is not a whole number of GPUs"), given=repr(text[:40])))
    if len(value.lstrip("0")) > 9 or not 1 <= int(value) <= MAX_GPUS:  # 10**12 is a number, out of range
        raise argparse.ArgumentTypeError(_said(N_("%(n)s GPUs is out of range: give 1 to %(max)s"),
                                               n=value.lstrip("0")[:40] or "0", max=f"{MAX_GPUS:,}"))
    n = int(value)
    return n


def _rate(text: str) -> float:
    """``--fx-rate``: a finite, positive number of CNY per USD, written as a number is (``7.1``,
    ``7``, ``7.1e0``): ``7_1`` was Python's 71, ten times the rate, and ``1e-300`` made every amount
    nothing. From 1e-06 to 1e+06 (inputs/money.py MAX_FX_RATE, which the Python API's ``fx_rate`` keeps too)."""
    from .inputs.money import MAX_FX_RATE
    # a sign is a number's (-7.1 is refused as out of range, not as 'not a number')
    value = float(text) if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text.strip(), re.ASCII) else None
    if value is None:
        raise argparse.ArgumentTypeError(_other_notation(text) or _said(N_("%(given)s is not a number"),
                                                                       given=repr(text[:40])))
    if not (1 / MAX_FX_RATE <= value <= MAX_FX_RATE):
        raise argparse.ArgumentTypeError(_said(N_("%(given)s is not a rate of CNY per USD from %(min)s to %(max)s"),
                                               given=repr(text[:40]), min=f"{1 / MAX_FX_RATE:g}",
                                               max=f"{MAX_FX_RATE:g}"))
    return value


def _ask_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--answers", type=_file_name, metavar="FILE",
                   help=N_("answers file to resume and save (default: ./gpuwise-answers.yaml)"))
    p.add_argument("-o", "--output", metavar="REPORT", action=Once,
                   help=N_("where to write the report (default: beside the answers)"))
    p.add_argument("--lang", choices=("en", "zh"), default="en",
                   help=N_("language of the questions, the summary and the report (default: en)"))
    p.add_argument("--currency", choices=("USD", "CNY"),
                   help=N_("currency the amounts are asked and saved in, and the report's "
                        "(default: the answers file's, else USD)"))
    _common(p)


def _recommend_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("requirements", type=_file_name, metavar="REQUIREMENTS.yaml")
    _report_opts(p)
    _common(p)
    _rules_opt(p)


def _audit_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("proposals", type=_file_name, metavar="PROPOSAL.yaml", nargs="+",
                   help=N_("proposal files, or a folder of them (its *.yaml and *.yml files, in name order)"))
    _report_opts(p)
    _common(p)
    _rules_opt(p)


def _plan_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("plan", type=_file_name, metavar="PLAN.yaml")
    _report_opts(p)
    _common(p)
    _rules_opt(p)


def _estimate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("requirements", type=_file_name, metavar="REQUIREMENTS.yaml")
    p.add_argument("--gpu", metavar="GPU", help=N_("a GPU name (e.g. H100-80G, A100 80GB, 4090)"))
    p.add_argument("--gpus", type=_gpu_count, metavar="N",
                   help=N_("how many GPUs (default: 1 for a service; for training, the fewest that fit and "
                           "finish within the deadline)"))
    p.add_argument("--format", choices=("text", "json"), default="text")
    _lang_opts(p)
    _common(p)


def _gpus_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text")
    _lang_opt(p, N_("language of the text listing; JSON is the same in every language (default: en)"))
    p.add_argument("--currency", choices=("USD", "CNY"),
                   help=N_("currency of the street prices (default: USD; CNY when --fx-rate is given)"))
    p.add_argument("--fx-rate", type=_rate, metavar="RATE",
                   help=N_("CNY per USD (default: the knowledge base's dated rate)"))
    _common(p)


def _prices_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gpu", metavar="GPU", help=N_("only this GPU (a family name such as A100 lists every variant)"))
    p.add_argument("--provider", metavar="P", help=N_("only this cloud provider's offers"))
    p.add_argument("--currency", choices=("USD", "CNY"), help=N_("only prices written in this currency"))
    p.add_argument("--format", choices=("text", "json"), default="text")
    _lang_opt(p, N_("language of the text table and its notes; amounts stay as their sources write them "
                    "(default: en)"))
    _common(p)
    psub = p.add_subparsers(dest="prices_command", metavar="import", parser_class=_Parser)
    q = psub.add_parser("import", help=N_("read a gpuhunt or SkyPilot catalog CSV (or gpuwise's minimal CSV) into a "
                                       "knowledge overlay directory"))
    q.add_argument("file", type=_file_name, metavar="FILE.csv")
    q.add_argument("-o", "--output", metavar="DIR", required=True, action=Once,
                   help=N_("the overlay directory (use it with --knowledge DIR)"))
    q.add_argument("--provider", dest="import_provider", metavar="P",
                   help=N_("the provider (default: the file's name, as gpuhunt's {provider}.csv)"))
    q.add_argument("--as-of", metavar="DATE", help=N_("the prices' date (default: the file's modification date)"))
    q.add_argument("--format", dest="import_format", choices=("text", "json"), default="text")
    q.add_argument("--lang", dest="import_lang", choices=("en", "zh"),
                   help=N_("language of the summary; JSON is the same in every language (default: en)"))
    q.add_argument("--knowledge", dest="import_knowledge", metavar="DIR", action=Once,
                   help=N_("overlay your own YAML (e.g. GPUs) before the names are matched"))


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--facts", action="store_true", help=N_("list the fact types and fields rules may test"))
    _lang_opt(p, N_("language of the text listing; JSON is the same in every language (default: en)"))
    _rules_opt(p)
    _common(p)


def _explain_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule_id", metavar="RULE_ID")
    p.add_argument("--format", choices=("text", "json"), default="text")
    _lang_opt(p, N_("language of the text; a rule's rationale and source are quoted as written (default: en)"))
    _rules_opt(p)
    _common(p)


_COMMANDS: dict[str, tuple[str, Any]] = {
    "ask": (N_("guided questionnaire in the terminal"), _ask_args),
    "recommend": (N_("the four-step decision with explanations"), _recommend_args),
    "audit": (N_("audit purchase or rental proposals"), _audit_args),
    "plan": (N_("a team's months of work: what to buy and when, what to rent, the cash flow"), _plan_args),
    "estimate": (N_("the numbers alone: memory, time, throughput, cost"), _estimate_args),
    "gpus": (N_("the GPU catalog with specs and sources"), _gpus_args),
    "prices": (N_("every dated price the decision can use, oldest first; `prices import` refreshes them"),
               _prices_args),
    "rules": (N_("the rule base"), _rules_args),
    "explain": (N_("one rule with its rationale and source"), _explain_args),
}
"""Each command: its one-line help and what adds its arguments and options, in ``--help``'s order."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with ``only`` (a command's name), every command is there with its
    one-line help (``gpuwise --help`` and a mistyped command read the same) but only that command
    has its options: a run parses one command, and adding the ~80 options of all ten was a
    millisecond or two of every process."""
    parser = _Parser(prog="gpuwise", description=N_("Which GPUs to rent or buy for large-model work, and why."))
    parser.add_argument("--version", action="version", version=f"gpuwise {__version__}")
    parser.add_argument("--lang", choices=("en", "zh"), dest="help_lang",  # `gpuwise --lang zh --help`
                        help=N_("language of this help (default: en; each command has its own --lang)"))
    # required: a bare `gpuwise` is a usage error of one line, as every other one (it printed the
    # whole help on standard error, exit 2)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, required=True)
    for name, (help_text, add) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        if only is None or only == name:
            add(p)
    return parser


def _out(text: str) -> None:
    """A listing or an estimate to standard output: control characters escaped, a closed pipe quiet."""
    from .render import output

    output.to_stdout(output.escape_controls(text))


_PARSERS: dict[str | None, argparse.ArgumentParser] = {}


def _parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for the command line ``argv``, built once per process for each command a line
    starts with (:func:`build_parser`'s ``only``; the whole parser for any other line): building it
    is argparse calls, each asking the terminal's size and gettext's catalogs, and it holds no
    state between ``parse_args`` calls (help is laid out to the terminal when it is printed)."""
    only = argv[0] if argv and argv[0] in _COMMANDS else None
    parser = _PARSERS.get(only)
    if parser is None:
        import functools

        words = argparse._  # type: ignore[attr-defined]
        # gettext looks for argparse's catalog on disk at every call (~35 while building): once per text
        argparse._ = functools.cache(words)  # type: ignore[attr-defined]
        _Words.building_width = _columns() - 2  # as HelpFormatter works it out (without importing shutil)
        try:
            parser = _PARSERS[only] = build_parser(only)
        finally:
            argparse._ = words  # type: ignore[attr-defined]
            _Words.building_width = None
    return parser


def _columns() -> int:
    """The terminal's columns as ``shutil.get_terminal_size`` says them (``COLUMNS``, else the
    terminal, else 80); importing shutil for it was ~3 ms of a JSON answer."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


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


def _cannot_write(exc: OSError) -> None:
    """The one line for standard output that could not be written (``> /dev/full``)."""
    line = _said(N_("cannot write the output: %(strerror)s"), strerror=exc.strerror or exc)
    print(f"gpuwise: {_one_line(line)}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    global _LANG
    safe_streams()
    given = sys.argv[1:] if argv is None else argv
    parser = _parser(given)
    _LANG = "en"
    if any(a == "--lang" or a.startswith("--lang=") for a in given):
        from .cli_words import argparse_in, lang_of, shows_chinese

        _LANG = lang_of(given) if shows_chinese(sys.stderr) else "en"
        with argparse_in(_LANG):
            args = parser.parse_args(argv)
    else:
        args = parser.parse_args(argv)
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
    if path is not None:
        print("gpuwise:", _said(N_("wrote %(path)s"), path=output.shown_name(path)), file=sys.stderr)


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
