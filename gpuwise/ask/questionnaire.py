"""The guided questionnaire behind ``gpuwise ask``.

The questions are data (``questions.yaml`` beside this module: key, type, texts in every
language, choices, defaults, and ``when``/``advanced`` conditions on earlier answers); this
module only interprets them.  The essential questions come first; one "advanced settings?"
question shows the defaults it would use and asks the rest only on yes, so an answer that is
not given stays out of the file and the documented default (listed in the report as an
assumption) applies.  Every answer is validated with the same pydantic models that read
requirements files (:mod:`gpuwise.inputs.schema`), so a value ``ask`` accepts is one
``recommend`` accepts, and saved after each one (a temporary file, then ``os.replace``), so
Ctrl-C loses nothing and ``--answers FILE`` resumes where it stopped.  A summary lets the
user confirm or change any answer; then the recommendation runs and the report is written.

Languages: every word said comes from ``questions.yaml`` (``en`` and ``zh``; the loader
refuses a text missing a language).  Currency: amounts are asked in ``--currency`` (USD or
CNY) and saved as typed, with ``constraints.currency`` saying which.

The pieces: :mod:`.questions` (the questions as data), :mod:`.answers` (parsing what is typed,
the answers file), :mod:`.session` (which question next, validation, saving), :mod:`.terminal`
(prompts and tables); this module runs them.  Public entry: :func:`run_ask`.
Heavy imports (questionary, prompt_toolkit, rich, pydantic) happen inside functions, so importing
this module costs next to nothing.
"""


from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from .answers import (  # noqa: F401  (the package's API and the tests' entry points)
    CURRENCIES,
    _Invalid,
    parse_number,
    render_answers,
    save_answers,
)
from .ending import EXIT_INTERRUPTED, EXIT_USAGE, guarded  # noqa: F401  (EXIT_*: the package's API)
from .ending import rerun_options as _rerun
from .plan_ask import StartPlan, is_plan_file, plan_path, run_plan_ask
from .questions import (  # noqa: F401
    QUESTIONS_FILE,
    Condition,
    Questionnaire,
    QuestionsError,
    load_questions,
)
from .session import _Session
from .sigint import held, released
from .terminal import (  # noqa: F401
    _HELP,
    _answer_of,
    _answers_table,
    _Asker,
    _model_completer,
    _Prompter,
    _show_result,
    _show_value,
)

DEFAULT_ANSWERS = "gpuwise-answers.yaml"
_PLAN = -1
"""What the questionnaire's part returns when the plan questions take over (never an exit status)."""


# ------------------------------------------------------------------------------------ run
_MENU = ("menu_run", "menu_edit", "menu_quit")


def run_ask(answers_path: str | None, report_path: str | None, *, knowledge: str | None = None,
            lang: str = "en", currency: str | None = None, input: Any = None, output: Any = None) -> int:
    """``gpuwise ask``: the guided questionnaire; returns the exit status.

    ``answers_path`` (default ``./gpuwise-answers.yaml``) is pre-filled from when it exists
    and saved after every answer; ``report_path`` defaults to ``<answers stem>-report.md``
    beside it.  ``lang`` (en, zh) is the language of the questions, the summary and the
    report; ``currency`` (USD, CNY; default: the answers file's, else USD) is the currency
    amounts are asked and saved in, and the report's.  ``input``/``output`` are prompt_toolkit
    objects (tests pass a pipe input and a ``DummyOutput``); without them the terminal is
    used, and stdin must be one.

    Exit status: 0 done; 1 nothing feasible (as ``recommend``); 2 bad input, or no terminal;
    130 interrupted (Ctrl-C or end of input), with the answers so far saved.
    """
    qn = load_questions()
    if lang not in qn.languages:
        print(f"gpuwise ask: unknown language {lang!r} (use {' or '.join(qn.languages)})", file=sys.stderr)
        return EXIT_USAGE
    if currency is not None and currency not in CURRENCIES:
        print(f"gpuwise ask: unknown currency {currency!r} (use {' or '.join(CURRENCIES)})", file=sys.stderr)
        return EXIT_USAGE
    path = Path(answers_path or DEFAULT_ANSWERS)

    def check_report() -> None:
        if report_path:  # -o onto the answers or an overlay file would replace what the run reads
            from types import SimpleNamespace

            from ..render.output import check_target, report_format
            from ..run_files import read_by_run

            check_target(report_path, protect=read_by_run(SimpleNamespace(knowledge=knowledge), [str(path)],
                                                          cards=False))
            # a suffix no report is written in (.pdf): said before any question, without naming --format (ask has none)
            report_format(report_path, None, format_option=False)

    from rich.console import Console

    console = Console(highlight=False)
    if input is None and (sys.stdin is None or not sys.stdin.isatty()):  # <&-: no standard input at all
        def no_terminal() -> int:  # a report that could never be written is said first: this line names its -o
            check_report()
            print(_no_terminal(qn, path if answers_path else None, report_path, lang), file=sys.stderr)
            return EXIT_USAGE

        return guarded(no_terminal, console=console, interrupted=lambda: qn.say("interrupted_empty", lang), lang=lang)
    report = Path(report_path) if report_path else path.with_name(f"{path.stem}-report.md")
    prompter = _Prompter(input, output)
    plan, existing = path, True

    def body() -> int:
        nonlocal plan, existing
        check_report()
        try:
            if not (path.is_file() and is_plan_file(path)):
                session, notes = _start(qn, path, knowledge, lang, currency)
                return _interact(session, notes, report, knowledge, prompter, console)
        except StartPlan:  # the first question's plan choice: the plan questions write a plan file
            plan, existing = plan_path(path, answers_path is not None), False
        return _PLAN

    def interrupted() -> str:
        return (qn.say("interrupted", lang, path=path, opts=_rerun(lang, knowledge)) if path.exists()
                else qn.say("interrupted_empty", lang))

    def held_body() -> int:  # Ctrl-C as a signal between questions: raised where gpuwise asks (.sigint)
        with held():
            return body()

    got = guarded(held_body, console=console, interrupted=interrupted, lang=lang, also=(OSError,),
                  on_also=lambda exc: qn.say("cannot_save", lang, path=path,
                                             error=getattr(exc, "strerror", None) or exc))
    if got != _PLAN:
        return got
    return run_plan_ask(plan, Path(report_path) if report_path else None, knowledge=knowledge, lang=lang,
                        currency=currency, prompter=prompter, console=console, existing=existing)


def _no_terminal(qn: Questionnaire, answers: Path | None, report: str | None, lang: str) -> str:
    """The one line of an ``ask`` without a terminal. The questions need one (the contract: a
    questionnaire in the terminal), but ``--answers FILE`` naming saved answers (a script's, or
    one resumed from cron) can have its report without them: the line names the command that
    writes the report ``ask`` would have written, ``gpuwise recommend FILE -o REPORT`` or, for a
    plan file, ``gpuwise plan FILE -o REPORT``."""
    import shlex

    from ..errors import one_line

    try:
        saved = answers is not None and answers.is_file() and os.access(answers, os.R_OK)
    except (OSError, ValueError):
        saved = False
    if not saved:
        return qn.say("no_terminal", lang)
    assert answers is not None
    try:  # a plan's few KB; a huge or odd file is left to recommend, which says what is wrong with it
        command = "plan" if answers.stat().st_size <= 1 << 20 and is_plan_file(answers) else "recommend"
    except Exception:
        command = "recommend"
    out = report or str(answers.with_name(f"{answers.stem}-report.md"))
    words = [("./" + w if w.startswith("-") else w) for w in (str(answers), out)]
    return one_line(qn.say("no_terminal_saved", lang, path=answers,
                           command=f"gpuwise {command} {shlex.quote(words[0])} -o {shlex.quote(words[1])}"))


def _start(qn: Questionnaire, path: Path, knowledge: str | None, lang: str,
           currency: str | None) -> tuple[_Session, list[str]]:
    from ..errors import N_, UserError
    from ..knowledge import load
    from ..yamlio import read_yaml

    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise UserError(N_("is a directory; give a file name for the answers"), where=str(path))
    if not parent.is_dir():
        raise UserError(N_("the directory does not exist"), where=str(path))
    if not os.access(parent, os.W_OK):
        raise UserError(N_("cannot write the answers there (no permission)"), where=str(path))
    session = _Session(qn, load(knowledge), path, lang=lang, currency=currency)
    notes: list[str] = []
    if path.exists():
        data = read_yaml(path, what="answers file")
        notes = session.load(data, path.read_text(encoding="utf-8", errors="replace"))
        notes.insert(0, session.t("resuming", path=path, n=len(session.asked())))
    session.set_currency()
    return session, notes


def _interact(s: _Session, notes: list[str], report: Path, knowledge: str | None,
              prompter: _Prompter, console: Any) -> int:
    asker = _Asker(s, prompter, console)
    asker.say(s.t("intro", path=s.path))
    if s.currency != "USD":
        asker.say(s.t("amounts_in", cur=s.currency, sym=s.sym), "dim")
    for note in notes:
        asker.say(note, "dim")
    while True:
        while (q := s.pending()) is not None:
            while not asker.ask(q):  # `<`: the question before it, with its answer offered
                order = s.qn.questions.index
                earlier = [a for a in s.asked() if order(a) < order(q)]
                if not earlier:
                    asker.say(s.t("no_back"), "yellow")
                    continue
                q = earlier[-1]
        s.save()
        console.print(_answers_table(s))
        choice = prompter.select(s.t("ready"), [s.t(m) for m in _MENU], 0, s.t("hint_menu"))
        if choice == _HELP:
            asker.say(s.t("menu_help"))
            continue
        if choice == 1:
            _edit(s, prompter, asker)
            continue
        if choice == 2:
            asker.say(s.t("saved_quit", path=s.path, opts=_rerun(s.lang, knowledge)))
            return 0
        return _finish(s, report, knowledge, console, asker)


def _edit(s: _Session, prompter: _Prompter, asker: _Asker) -> None:
    asked = s.asked()
    titles = []
    for q in asked:
        key, value = _answer_of(s, q)
        titles.append(f"{s.text(q, 'label')}: {_show_value(s, q, key, value)}")
    titles.append(s.t("back"))
    got = prompter.select(s.t("which_answer"), titles, 0, s.t("hint_menu"))
    if got == _HELP or got == len(asked):
        return
    asker.ask(asked[got])


def _finish(s: _Session, report: Path, knowledge: str | None, console: Any, asker: _Asker) -> int:
    from .. import recommend
    from ..errors import N_, UserError
    from ..render.report import write_report

    asker.say(s.t("saved_replay", path=s.path, opts=_rerun(s.lang, knowledge)))
    asker.say(s.t("working"))  # no spinner: no second thread near durable-rules
    # the saved file itself, as `gpuwise recommend FILE` reads it: the run is reproducible exactly
    with released():  # the work: Ctrl-C ends it at once
        result = recommend(str(s.path), knowledge=knowledge)
    _show_result(console, s, result, knowledge)
    try:
        write_report(result, str(report), fmt=None, lang=s.lang, currency=s.currency, knowledge=knowledge)
    except OSError as exc:
        raise UserError(N_("cannot write the report: %(strerror)s"), where=str(report),
                        values={"strerror": exc.strerror or exc}) from None
    asker.say(s.t("report_written", path=report))
    return 0 if result.recommendation is not None else 1
