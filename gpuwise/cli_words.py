"""The command line's own words in the language asked for: argparse's usage and error lines, and
the ``gpuwise: error: ... (see ...)`` line around them, from the report catalog.

argparse words its messages with the module's ``_`` and ``ngettext`` (``gettext``'s, English); for
one parse they are the catalog's of the ``--lang`` the command line gives, then English again. The
English templates below are argparse's own (Python 3.10 to 3.13), marked for the catalog.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .errors import N_, _catalog
from .inputs.notation import CURRENCY_NAMES

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("argument %(argument_name)s: %(message)s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("ignored explicit argument %r"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("unexpected option string: %s"),
    N_("positional arguments"),
    N_("options"),
    N_("optional arguments"),  # Python 3.10's heading
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
)
"""argparse's messages a user of gpuwise can meet (its programming errors are not among them)."""


def _plural_marks(ngettext=gettext.ngettext) -> tuple[str, ...]:  # for pybabel: argparse's plural message
    return (ngettext("expected %s argument", "expected %s arguments", 2),)


ERROR_LINE = N_("error: %(message)s (see `%(prog)s --help`)")
"""The usage error's line after ``gpuwise: `` (exit status 2)."""


def lang_of(argv: Sequence[str]) -> str:
    """The ``--lang`` an (unparsed) command line asks for: ``en`` unless it names ``zh``."""
    args = list(argv)
    for i, a in enumerate(args):
        if a == "--":
            break
        if a == "--lang" and i + 1 < len(args):
            return "zh" if args[i + 1] == "zh" else "en"
        if a.startswith("--lang="):
            return "zh" if a.partition("=")[2] == "zh" else "en"
    return "en"


@contextlib.contextmanager
def argparse_in(lang: str) -> Iterator[None]:
    """argparse's words in ``lang`` for the time of one parse (or help)."""
    if lang == "en":
        yield
        return
    words = _catalog(lang)
    saved = argparse._, argparse.ngettext, argparse.ArgumentError.__str__  # type: ignore[attr-defined]
    argparse._, argparse.ngettext = words.gettext, words.ngettext  # type: ignore[attr-defined]
    argparse.ArgumentError.__str__ = _argument_error_str  # type: ignore[method-assign]
    try:
        yield
    finally:
        argparse._, argparse.ngettext, argparse.ArgumentError.__str__ = saved  # type: ignore[attr-defined]


def _argument_error_str(self: argparse.ArgumentError) -> str:
    """``ArgumentError.__str__`` as Python 3.11+ word it, through argparse's ``_``: Python 3.10
    builds ``argument NAME: MESSAGE`` without gettext, which left that prefix English."""
    if self.argument_name is None:
        return self.message
    return argparse._(ARGPARSE_WORDS[1]) % {  # type: ignore[attr-defined]
        "argument_name": self.argument_name, "message": self.message}


def error_line(message: str, prog: str, lang: str) -> str:
    """``error: MESSAGE (see `PROG --help`)`` in ``lang``."""
    text = _catalog(lang).gettext(ERROR_LINE) if lang != "en" else ERROR_LINE
    try:
        return text % {"message": message, "prog": prog}
    except (KeyError, TypeError, ValueError):
        return ERROR_LINE % {"message": message, "prog": prog}


STRAY_OPTION = N_("%(option)s is not an option of `%(prog)s`")
STRAY_OPTION_ELSEWHERE = N_("%(option)s is not an option of `%(prog)s`; commands that have it: %(commands)s")


def stray_option(parser: argparse.ArgumentParser, argv: Sequence[str], message: str, lang: str,
                 whole: Callable[[], argparse.ArgumentParser]) -> str | None:
    """The plain words for an option a command does not have whose value argparse took for the
    command's sub-command: ``prices --fx-rate 7.1`` said "argument import: invalid choice: '7.1'".
    None for any other error (or when the option is one of the command's own). ``whole``: builds
    the whole command line, to name the commands that have the option."""
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if not subs:
        return None
    own = parser._option_string_actions
    for i, word in enumerate(argv[:-1]):
        value = argv[i + 1]
        if word == "--" or word in subs[0].choices:
            break
        if (not word.startswith("--") or "=" in word or any(o.startswith(word) for o in own)
                or value.startswith("-") or value in subs[0].choices or repr(value) not in message):
            continue
        others = _commands_with(word, parser.prog, whole())
        words = _catalog(lang) if lang != "en" else gettext.NullTranslations()
        if others:
            return words.gettext(STRAY_OPTION_ELSEWHERE) % {
                "option": word, "prog": parser.prog, "commands": ", ".join(f"`{c}`" for c in others)}
        return words.gettext(STRAY_OPTION) % {"option": word, "prog": parser.prog}
    return None


def option_elsewhere(parser: argparse.ArgumentParser, argv: Sequence[str], message: str, lang: str,
                     whole: Callable[[], argparse.ArgumentParser]) -> str | None:
    """``-o`` / ``--output`` given to a command without it, said so with the commands that have it: ``estimate x.yaml
    -o e.json`` was 'unrecognized arguments: -o e.json; did you mean json?' (the contract's 'Common options' name
    ``-o``, so a script tries it on every command). None for any other error."""
    said = argparse._("unrecognized arguments: %s").split("%s")[0]  # type: ignore[attr-defined]  # in --lang's words
    head = next((h for h in ("unrecognized arguments: ", said) if h and message.startswith(h)), None)
    if head is None:
        return None
    for word in argv:  # the command the words were given to (argparse says it at the top: 'gpuwise')
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if subs and word in subs[0].choices:
            parser = subs[0].choices[word]
    for token in message[len(head):].split():
        if not token.startswith("-") or token == "-":
            continue
        word = token.split("=", 1)[0]
        if word not in ("-o", "--output") or word in parser._option_string_actions:
            return None  # the other options keep argparse's words and their close match
        others = _commands_with(word, parser.prog, whole())
        if not others:
            return None
        words = _catalog(lang) if lang != "en" else gettext.NullTranslations()
        return words.gettext(STRAY_OPTION_ELSEWHERE) % {
            "option": word, "prog": parser.prog, "commands": ", ".join(f"`{c}`" for c in others)}
    return None


def _commands_with(option: str, prog: str, whole: argparse.ArgumentParser) -> list[str]:
    """The commands (and sub-commands) of the whole command line that have ``option``."""
    found: list[str] = []

    def walk(p: argparse.ArgumentParser) -> None:
        if option in p._option_string_actions and p.prog != prog:
            found.append(p.prog)
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                for sub in dict.fromkeys(a.choices.values()):
                    walk(sub)

    walk(whole)
    return found


def shows_chinese(stream: Any) -> bool:
    """Whether ``stream``'s encoding can write Chinese (not ``PYTHONIOENCODING=ascii``, a C locale)."""
    try:
        "中文".encode(getattr(stream, "encoding", None) or "utf-8")
    except (UnicodeError, LookupError):
        return False
    return True


def english_where_chinese_cannot_show(args: argparse.Namespace, stdout: Any) -> bool:
    """``--lang zh`` to a standard output that cannot show Chinese: every sentence was '?????'. The
    words come in English then, and stderr says why (a report written with ``-o`` stays Chinese)."""
    key = "import_lang" if getattr(args, "import_lang", None) else "lang"
    json_out = "json" in (getattr(args, "format", None), getattr(args, "import_format", None))  # one in every language
    if (getattr(args, key, None) != "zh" or args.command == "ask" or json_out or shows_chinese(stdout)
            or (key == "lang" and getattr(args, "output", None) not in (None, "-", "/dev/stdout"))):
        return False
    setattr(args, key, "en")
    return True



CLOSE_WORD = N_("did you mean %(name)s?")
"""The close match of a misspelt command, option or choice (the catalog's words for names)."""

ALIASES = {"markdown": "md", "txt": "text", "htm": "html", **CURRENCY_NAMES,
           "cn": "zh", "chinese": "zh", "中文": "zh", "汉语": "zh", "简体中文": "zh",
           "english": "en", "英文": "en", "英语": "en"}
"""Other names of a choice, too far from it for difflib: a report format's (the -o suffixes and their words: ``--format
markdown`` was refused with the list of formats alone, hostile round 26), a currency's and a language's as people
write them (``--currency RMB``, ``yuan``, ``¥``, ``$``; ``--lang cn``, ``中文``, ``english``: refused with the two
choices alone, hostile round 47). An alias is offered only where the refusal lists its choice."""

OPTION_ALIASES = {"--json": "--format json", "--html": "--format html", "--md": "--format md",
                  "--markdown": "--format md", "--text": "--format text", "--txt": "--format text",
                  "--output-format": "--format", "--out-format": "--format", "--fmt": "--format"}
"""Other tools' options for a report's format (``jq``-minded ``--json``, ``--output-format json``): 'unrecognized
arguments: --json' offered nothing, difflib finding no option close (hostile round 52)."""


def close_word(argv: Sequence[str], message: str, lang: str,
               whole: Callable[[], argparse.ArgumentParser]) -> str | None:
    """``; did you mean NAME?`` for a word of ``argv`` that ``message`` refuses and that is close to
    a command, an option of the command given or a choice: ``gpuwise recomend`` and ``--formt``
    were refused with the list of every word, and ``--format JSON`` without saying that case
    matters. None when no word is close (or the message already names one)."""
    import difflib

    if "did you mean" in message:
        return None
    parser = whole()
    commands: list[str] = []
    options: list[str] = []
    choices: list[str] = []
    typed: set[str] = set()  # the options whose value a type function reads, no list of choices

    def walk(p: argparse.ArgumentParser, named: bool) -> None:
        for a in p._actions:
            if isinstance(a, argparse._SubParsersAction):
                commands.extend(a.choices)
                for word, sub in a.choices.items():
                    walk(sub, word in argv)
            else:
                if named:
                    options.extend(o for o in a.option_strings if o.startswith("--"))
                choices.extend(str(c) for c in (a.choices or ()))
                if a.choices is None and a.type is not None:
                    typed.update(a.option_strings)

    walk(parser, True)
    for i, token in enumerate(argv):
        word = token.split("=", 1)[0] if token.startswith("--") else token
        if word in commands or word in options or word not in message:
            continue
        if word.lower() in OPTION_ALIASES and "--format" in options:  # '--json' (hostile round 52)
            words = _catalog(lang) if lang != "en" else gettext.NullTranslations()
            return words.gettext(CLOSE_WORD) % {"name": OPTION_ALIASES[word.lower()]}
        # a value an option's type reads ('--gpus "8 GPUs"': not a whole number) is matched against nothing: it
        # was offered the command 'gpus' (hostile round 45); a choice, a command or a stray word still is
        if i and argv[i - 1] in typed:
            continue
        # a refused choice is matched against the choices its refusal lists ('choose from ...'), not another
        # command's: 'estimate --format htm' was told 'did you mean html?', which estimate refuses too
        listed = [c for c in choices if repr(c) in message]
        pool = options if word.startswith("-") else [*commands, *(listed or choices)]
        lower = {c.lower(): c for c in pool}
        # a locale's name for a language (--lang zh_CN, zh-Hans, ZH, as LANG spells it) is its language; a list's
        # first (a browser's Accept-Language 'zh-CN,zh;q=0.9,en', --lang 'zh,en': hostile round 54) is the one meant
        head = re.split(r"[-_.@,;\s]", word.lower())[0] if not word.startswith("-") else word.lower()
        alias = ALIASES.get(word.lower(), "")
        if len(word) < 3 and head not in lower and not alias:  # 'cn', '¥', '$' have an alias
            continue
        # an alias names a choice the refusal lists (argparse's 'choose from ...'), not another command's
        match = [alias.lower()] if alias and repr(alias) in message else [head] if head in lower else (
            difflib.get_close_matches(word.lower(), list(lower), n=1, cutoff=0.75))
        if match and lower[match[0]] != word:
            words = _catalog(lang) if lang != "en" else gettext.NullTranslations()
            return words.gettext(CLOSE_WORD) % {"name": lower[match[0]]}
    return None


def with_close_word(argv: Sequence[str], message: str, lang: str,
                    whole: Callable[[], argparse.ArgumentParser]) -> str:
    """``message`` and, where :func:`close_word` finds one, its close match after a semicolon."""
    close = close_word(argv, message, lang, whole)
    return f"{message}{'；' if lang == 'zh' else '; '}{close}" if close else message


def count_with_unit(text: str, option: str, lang: str) -> str | None:
    """A count of GPUs written with its noun ('8 GPUs', '8x'): the number offered, as a file's ``count`` offers it
    (hostile round 45: ``--gpus '8 GPUs'`` was 'not a whole number of GPUs; did you mean gpus?', the command); else
    None."""
    from .errors import Said
    from .inputs.units import raise_unit_written

    try:
        raise_unit_written(text[:60], "count")
    except Said as said:
        said.values["field"] = option
        return said.words(lang)
    return None
