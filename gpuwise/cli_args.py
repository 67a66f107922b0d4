"""The ``gpuwise`` command line's grammar: its commands and their options, what each option's value may be
(``--gpus``, ``--fx-rate``, a file or directory name), ``--help`` and argparse's complaints in the language the
line asks for (``--lang``), and the parser built once per process for the command a line names.

Kept apart from :mod:`gpuwise.cli`, which runs the commands, holds the one exception boundary and sets the exit
status: a reader looking for an option finds it here under its own name. :func:`gpuwise.cli.main` sets
:data:`_LANG` before it parses a line.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import sys
from typing import Any, NoReturn

from . import __version__
from .cli_once import Once
from .errors import one_line as _one_line

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
        from .cli_words import option_elsewhere, stray_option, with_close_word
        from .render.output import escape_controls  # 'unrecognized arguments' quotes argv raw: no ESC to the terminal

        elsewhere = option_elsewhere(self, getattr(self, "argv", []), message, _LANG, lambda: build_parser(None))
        message = stray_option(self, getattr(self, "argv", []), message, _LANG, lambda: build_parser(None)) or message
        message = elsewhere or with_close_word(getattr(self, "argv", []), message, _LANG, lambda: build_parser(None))
        message = _clip_values(escape_controls(message).replace("\n", "\\n"), getattr(self, "argv", []))
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


LONG_VALUE = 60
"""A command-line value longer than this is quoted back cut, with its length (hostile round 53)."""


def _clip_values(message: str, argv: list[str]) -> str:
    """``message`` with each long value of ``argv`` it quotes cut to its first characters and its length: argparse
    quoted a 100,000-character --lang or stray value whole, a 100,000-character line where a file's value is cut
    (errors.one_line); the line is capped as theirs is, whatever else it holds."""
    from .errors import MAX_MESSAGE

    for arg in sorted({a for a in argv if isinstance(a, str) and len(a) > LONG_VALUE}, key=len, reverse=True):
        message = message.replace(arg, f"{arg[:40]}... ({len(arg):,} characters)")
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


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


def _lang_opts(p: argparse.ArgumentParser, json_in_usd: bool = True) -> None:
    """``--lang``, ``--currency`` and ``--fx-rate``: every command that writes sentences or amounts. ``json_in_usd``:
    the command's JSON keeps its money in USD whatever ``--currency`` says (all but ``plan``), which the help says
    (review61: `estimate --format json --currency CNY` gave dollars, and its help said only 'report currency')."""
    _lang_opt(p)
    p.add_argument("--currency", type=_currency_code, choices=CURRENCIES,
                   help=N_("report currency (default: the currency the input file writes its amounts in, "
                        "constraints.currency; CNY when --fx-rate is given; else USD); JSON keeps USD")
                   if json_in_usd else
                   N_("report currency, JSON's too (default: the currency the input file writes its amounts in, "
                      "constraints.currency; CNY when --fx-rate is given; else USD)"))
    p.add_argument("--fx-rate", type=_rate, metavar="RATE",
                   help=N_("CNY per USD (default: the knowledge base's dated rate)"))


def _report_opts(p: argparse.ArgumentParser, formats: tuple[str, ...] = FORMATS, json_in_usd: bool = True) -> None:
    p.add_argument("--format", choices=formats, action=Once,
                   help=N_("output format (default: text, or from the -o suffix)"))
    p.add_argument("-o", "--output", metavar="FILE", action=Once,
                   help=N_("write the report to FILE (.md, .html, .json, .txt); - for standard output"))
    _lang_opts(p, json_in_usd)
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


def _currency_code(text: str) -> str:
    """``--currency`` of every command: ``usd`` / `` Cny`` as ``USD`` / ``CNY``, an ISO 4217 code being the same in
    any case (contract63 took it on ``prices`` alone; recommend, audit, plan, estimate, gpus and ask refused ``usd``
    with 'did you mean USD?' though they meant the same: product64); anything else is left for the choices, whose
    refusal is one line with its close match ('usdd': USD; 'RMB', 'yuan': CNY, cli_words.ALIASES)."""
    return text.strip().upper() if text.strip().upper() in CURRENCIES else text


CURRENCIES = ("USD", "CNY")
"""The ISO codes a report is written in (its amounts converted) and a price list filtered by."""


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
    p.add_argument("--currency", type=_currency_code, choices=CURRENCIES,
                   help=N_("currency the amounts are asked and saved in, and the report's "
                        "(default: the answers file's, else USD)"))
    _common(p)


def _recommend_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("requirements", type=_file_name, metavar="REQUIREMENTS.yaml",
                   help=N_("the requirements file: the workload and its constraints (docs/formats.md)"))
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
    p.add_argument("plan", type=_file_name, metavar="PLAN.yaml",
                   help=N_("the plan file: the GPUs owned, the workloads and how often each runs (docs/formats.md)"))
    _report_opts(p, json_in_usd=False)  # a plan's JSON is in --currency (docs/formats.md, plan JSON)
    _common(p)
    _rules_opt(p)


def _estimate_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("requirements", type=_file_name, metavar="REQUIREMENTS.yaml",
                   help=N_("the requirements file: the workload and its constraints (docs/formats.md)"))
    p.add_argument("--gpu", metavar="GPU", help=N_("a GPU name (e.g. H100-80G, A100 80GB, 4090)"))
    p.add_argument("--gpus", type=_gpu_count, metavar="N",
                   help=N_("how many GPUs (default: 1 for a service; for training, the fewest that fit and "
                           "finish within the deadline)"))
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help=N_("text (default) or json: the JSON is in English and USD"))
    _lang_opts(p)
    _common(p)


def _gpus_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text", help=N_("text (default) or json"))
    _lang_opt(p, N_("language of the text listing; JSON is the same in every language (default: en)"))
    p.add_argument("--currency", type=_currency_code, choices=CURRENCIES,
                   help=N_("currency of the street prices (default: USD; CNY when --fx-rate is given)"))
    p.add_argument("--fx-rate", type=_rate, metavar="RATE",
                   help=N_("CNY per USD (default: the knowledge base's dated rate)"))
    _common(p)


def _prices_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--gpu", metavar="GPU", help=N_("only this GPU (a family name such as A100 lists every variant)"))
    p.add_argument("--provider", metavar="P", help=N_("only this cloud provider's offers"))
    p.add_argument("--currency", type=_currency_code, choices=CURRENCIES,
                   help=N_("only the prices written in this currency (a filter: no amount is converted)"))
    p.add_argument("--format", choices=("text", "json"), default="text", help=N_("text (default) or json"))
    _lang_opt(p, N_("language of the text table and its notes; amounts stay as their sources write them "
                    "(default: en)"))
    _common(p)
    psub = p.add_subparsers(dest="prices_command", metavar="import", parser_class=_Parser)
    q = psub.add_parser("import", help=N_("read a gpuhunt or SkyPilot catalog CSV (or gpuwise's minimal CSV) into a "
                                       "knowledge overlay directory"))
    q.add_argument("file", type=_file_name, metavar="FILE.csv",
                   help=N_("the catalog CSV: gpuhunt's or SkyPilot's, or gpuwise's columns gpu, gpus, price"))
    q.add_argument("-o", "--output", metavar="DIR", required=True, action=Once,
                   help=N_("the overlay directory (use it with --knowledge DIR)"))
    q.add_argument("--provider", dest="import_provider", metavar="P",
                   help=N_("the provider (default: the file's name, as gpuhunt's {provider}.csv)"))
    q.add_argument("--as-of", metavar="DATE", help=N_("the prices' date (default: the file's modification date)"))
    q.add_argument("--format", dest="import_format", choices=("text", "json"), default="text",
                   help=N_("text (default) or json"))
    q.add_argument("--lang", dest="import_lang", choices=("en", "zh"),
                   help=N_("language of the summary; JSON is the same in every language (default: en)"))
    q.add_argument("--knowledge", dest="import_knowledge", metavar="DIR", action=Once,
                   help=N_("overlay your own YAML (e.g. GPUs) before the names are matched"))


def _rules_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--format", choices=("text", "json"), default="text", help=N_("text (default) or json"))
    p.add_argument("--facts", action="store_true", help=N_("list the fact types and fields rules may test"))
    _lang_opt(p, N_("language of the text listing; JSON is the same in every language (default: en)"))
    _rules_opt(p)
    _common(p)


def _explain_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("rule_id", metavar="RULE_ID", help=N_("a rule's id, as a report or `gpuwise rules` shows it "
                                                        "(MEM-FITS)"))
    p.add_argument("--format", choices=("text", "json"), default="text", help=N_("text (default) or json"))
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
                        help=N_("language of this help, and of the command where it gives no --lang of its own "
                                "(default: en)"))
    # required: a bare `gpuwise` is a usage error of one line, as every other one (it printed the
    # whole help on standard error, exit 2)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, required=True)
    for name, (help_text, add) in _COMMANDS.items():
        p = sub.add_parser(name, help=help_text)
        if only is None or only == name:
            add(p)
    return parser


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


def _cannot_write(exc: OSError) -> None:
    """The one line for standard output that could not be written (``> /dev/full``)."""
    line = _said(N_("cannot write the output: %(strerror)s"), strerror=exc.strerror or exc)
    print(f"gpuwise: {_one_line(line)}", file=sys.stderr)
