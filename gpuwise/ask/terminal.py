"""The questionnaire's terminal I/O: prompts (questionary/prompt_toolkit), the answers table and
the result shown with rich.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from ..inputs.notation import typed_form
from .answers import (
    _NONE_WORDS,
    _currency_mark,
    _get,
    _has,
    _Invalid,
    _ordered,
    _short_float,
    number_for,
)
from .ending import rerun_options
from .plan_ask import PLAN_CHOICE, StartPlan
from .questions import _AGAIN, Question, _index
from .session import _Session

_HELP = "?"  # what a select/confirm prompt returns when the user presses ?
_BACK = "<"  # what a question returns when the user asks for the previous one (`<`)


# ------------------------------------------------------------------------------ prompting
def _fold(text: str) -> str:
    """Lower case without separators: ``Qwen2.5 7B`` and ``qwen2.5-7b`` both read ``qwen257b``."""
    return re.sub(r"[\W_]+", "", text.lower())


def _model_completer(entries: list[tuple[str, str, str, tuple[str, ...]]],
                     meta: Callable[[str, str, str | None], str] | None = None) -> Any:
    """A prompt_toolkit completer over the catalog: one line per model, its id (what is inserted),
    with its name and size beside it and, when the match was by an alias, that one alias.

    ``entries``: (id, name, size text, aliases); ``meta(name, size, alias)`` writes the text
    beside the id.  Matching ignores case and separators; matches at the start come before
    matches inside.  Plain strings only: no markup to leak (questionary's own completer wraps
    the meta text in HTML again each time a question is put, which showed ``HTML('<text>...')``).
    """
    if meta is None:
        def meta(name: str, size: str, alias: str | None) -> str:
            return f"{name}, {size}B" if alias is None else f"{name}, {size}B; {alias}"

    from prompt_toolkit.completion import Completer, Completion

    # each entry's names folded once, not at every key (a long line typed folded them all per key:
    # 10,000 characters took 23 s, benchmarks/hostile_round20.py); a line longer than every name,
    # folded, matches nothing (a pasted page is looked at no further than its start)
    folded = [(mid, name, size, [(_fold(n), alias) for n, alias in ((mid, None), (name, None), *((a, a) for a in al))])
              for mid, name, size, al in entries]
    longest = max((len(f) for *_, names in folded for f, _ in names), default=0)

    class ModelCompleter(Completer):
        def get_completions(self, document: Any, complete_event: Any) -> Any:
            before = document.text_before_cursor
            if len(_fold(before[:2 * longest + 2])) > longest:  # folded, a prefix is a prefix: no name that long
                return
            typed = _fold(before)
            if len(typed) > longest:
                return
            start, inside = [], []
            for mid, name, size, names in folded:
                hit: tuple[int, str | None] | None = None
                for f, alias in names:
                    if f.startswith(typed):
                        hit = (0, alias)
                        break
                    if hit is None and typed in f:
                        hit = (1, alias)
                if hit is None:
                    continue
                (start if hit[0] == 0 else inside).append(Completion(
                    mid, start_position=-len(before), display=mid, display_meta=meta(name, size, hit[1])))
            yield from start
            yield from inside

    return ModelCompleter()


class _Prompter:
    """questionary prompts on the given prompt_toolkit input/output (a terminal when None)."""

    def __init__(self, input: Any = None, output: Any = None):
        import questionary

        self.questionary = questionary
        self.kw: dict[str, Any] = {}
        if input is not None:
            self.kw["input"] = input
        if output is not None:
            self.kw["output"] = output

    @staticmethod
    def _help_key(question: Any, back: bool = False) -> Any:
        """Let ``?`` end a select/confirm prompt with the help sentinel, ``<`` (``back``) with the
        back sentinel, and Ctrl-D end it as the end of input, as it ends a text prompt
        (questionary's choice lists ignored it: the questionnaire went on waiting)."""
        from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings

        kb = KeyBindings()

        @kb.add("?")
        def _help(event: Any) -> None:
            event.app.exit(result=_HELP)

        if back:
            kb.add("<")(lambda event: event.app.exit(result=_BACK))

        @kb.add("c-d")
        def _end(event: Any) -> None:
            event.app.exit(exception=EOFError())

        app = question.application
        app.key_bindings = merge_key_bindings([app.key_bindings, kb])
        return question

    @staticmethod
    def _run(question: Any) -> Any:
        """``question`` asked, a SIGINT before, during or after it ending it as Ctrl-C does (.sigint)."""
        from .sigint import ask

        return ask(question)

    def select(self, message: str, titles: list[str], default: int, instruction: str, back: bool = False) -> Any:
        from questionary import Choice as QChoice

        choices = [QChoice(title=t, value=i) for i, t in enumerate(titles)]
        question = self.questionary.select(message, choices=choices, default=default, instruction=instruction,
                                           use_jk_keys=False, **self.kw)
        return self._run(self._help_key(self._typed_picks(question, titles), back))

    @staticmethod
    def _typed_picks(question: Any, titles: list[str]) -> Any:
        """Letters typed at a choice list move its pointer to the first choice they begin (case and separators
        aside), so Enter takes what was typed. review65: a list ignored typing, so 'inference' and Enter at the
        first question answered the highlighted 'Fine-tuning' -- the word typed was nowhere on the screen."""
        from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
        from prompt_toolkit.keys import Keys
        from questionary.prompts.common import InquirerControl

        app = question.application
        control = next(w.content for w in app.layout.find_all_windows() if isinstance(w.content, InquirerControl))
        folded = [_fold(t) for t in titles]
        typed = {"text": ""}
        kb = KeyBindings()

        @kb.add(Keys.Any)
        def _pick(event: Any) -> None:
            for text in (typed["text"] + event.data, event.data):  # go on with the word, else start a new one
                key = _fold(text)
                hit = next((i for i, t in enumerate(folded) if key and t.startswith(key)), None)
                if hit is not None:
                    typed["text"], control.pointed_at = text, hit
                    return
            typed["text"] = ""

        app.key_bindings = merge_key_bindings([app.key_bindings, kb])
        return question

    def confirm(self, message: str, default: bool, instruction: str, words: tuple[str, str] = ("yes", "no"),
                back: bool = False) -> Any:
        """A yes/no prompt: y or n (是 or 否) shows the answer in the session's words (``words``: yes, no), Enter
        takes it (the default where none was typed), and the instruction goes once answered, as a select's does.
        review65: as questionary's confirm, y or n answered at once, so the rest of what a user types at a y/N
        question -- 'es' of 'yes', the Enter after 'y' -- went to the next question: 'y' then Enter at the
        advanced settings took the next question's default unseen, and 'yes' Enter answered it 'es'."""
        from prompt_toolkit import PromptSession
        from prompt_toolkit.formatted_text import to_formatted_text
        from prompt_toolkit.key_binding import KeyBindings
        from prompt_toolkit.keys import Keys
        from questionary.question import Question as QQuestion
        from questionary.styles import merge_styles_default

        status: dict[str, Any] = {"answer": None, "complete": False}

        def tokens() -> Any:
            out = [("class:qmark", "?"), ("class:question", f" {message} ")]
            if not status["complete"]:
                out.append(("class:instruction", instruction))
            if status["answer"] is not None:
                out.append(("class:answer", words[0] if status["answer"] else words[1]))
            return to_formatted_text(out)

        kb = KeyBindings()

        def typed(value: bool | None) -> None:  # shown after the question until Enter takes it
            status["answer"] = value

        def answer(event: Any) -> None:
            value = default if status["answer"] is None else status["answer"]
            status["answer"], status["complete"] = value, True
            event.app.exit(result=value)

        @kb.add(Keys.ControlC, eager=True)
        @kb.add(Keys.ControlQ, eager=True)
        def _interrupt(event: Any) -> None:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

        for key in ("y", "Y", "是"):
            kb.add(key)(lambda e: typed(True))
        for key in ("n", "N", "否"):
            kb.add(key)(lambda e: typed(False))
        kb.add(Keys.Backspace)(lambda e: typed(None))
        kb.add(Keys.ControlM, eager=True)(answer)
        kb.add(Keys.Any)(lambda e: None)  # nothing else is typed in

        session: Any = PromptSession(tokens, key_bindings=kb, style=merge_styles_default([None]), **self.kw)
        return self._run(self._help_key(QQuestion(session.app), back))

    def text(self, message: str, instruction: str, completer: Any = None) -> str:
        if completer is not None:
            question = self.questionary.autocomplete(f"{message} {instruction}", choices=[], completer=completer,
                                                     **self.kw)
        else:
            question = self.questionary.text(message, instruction=instruction, **self.kw)
        return str(self._run(question) or "")


# --------------------------------------------------------------------------- presentation
def _show_value(s: _Session, q: Question | None, key: str, value: Any) -> str:
    """An answer as the summary shows it, in the session's language and currency."""
    if q is not None and q.type in ("section", "advanced"):
        return s.t("value_yes") if value else s.t("value_no")
    if q is not None and q.choices:
        i = _index(q.choices, value)
        if i is not None:
            return q.choices[i].title[s.lang]
    if value is None:
        return _none_text(s, q)
    if isinstance(value, bool):
        return s.t("value_yes") if value else s.t("value_no")
    if key == "workload.params_b":
        return s.t("value_custom_model", size=f"{value:g}")
    if key == "workload.model" and value in s.kb.models:
        m = s.kb.models[value]
        return s.t("model_shown", value=value, meta=s.t("model_meta", name=m.name, size=f"{m.params_b:.1f}"))
    if isinstance(value, list):
        if key == "constraints.gpus" and not value:
            return s.t("value_all_gpus")
        return ", ".join(str(v) for v in value)
    if q is not None and q.money and isinstance(value, int | float):
        return f"{s.sym}{value:,.0f}" if value >= 100 else f"{s.sym}{value:g}"
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


def _none_text(s: _Session, q: Question | None) -> str:
    """What a none answer means: "none", or the policy value it leaves in force (a day's worth:
    knowledge/policy.yaml), in the session's currency."""
    if q is None or q.policy is None:
        return s.t("value_none")
    value = float(s.kb.policy_value(q.policy)) * s.rate
    return s.t("value_policy", value=f"{s.sym}{value:,.0f}")


def _default_text(s: _Session, q: Question, value: Any) -> str:
    """The default as the Enter hint shows it: what the user would type."""
    if value is None:
        return _none_text(s, q)
    if isinstance(value, list):
        return ", ".join(value) if value else s.t("value_all")
    if q.parse == "model" and isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value:g}b"
    if q.key == "workload.train_tokens" and not _has(s.answers, q.key) and s.lookup("workload.task") == "pretrain" \
            and isinstance(value, float):
        return s.t("value_chinchilla", tokens=_short_float(value))
    if q.money and isinstance(value, int | float):
        return f"{s.sym}{value:g}"
    if isinstance(value, float):
        return _short_float(value)
    return str(value)


class _Asker:
    """Puts one question (with help on ``?``), re-asking until the answer validates."""

    def __init__(self, session: _Session, prompter: _Prompter, console: Any):
        self.s = session
        self.p = prompter
        self.console = console
        self._completer: Any = None

    def say(self, text: str, style: str = "") -> None:
        from rich.markup import escape

        from ..render.output import escape_controls

        text = escape_controls(text)  # an answers file's '\x1b[2J' in a complaint cleared the screen
        # the terminal wraps, not rich: a file name longer than the width stays whole for copy and paste
        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text), soft_wrap=True)

    def show_help(self, q: Question | None, typed: str = "") -> None:
        from rich.markup import escape

        glossary = self.s.qn.glossary
        lang = self.s.lang
        typed = typed.strip()
        terms = ", ".join(sorted(glossary))
        if typed:
            key = self.s.qn.term(typed)
            if key is None:
                self.say(self.s.t("no_entry", term=repr(typed), terms=terms), "yellow")
            else:
                self.console.print(f"[bold]{escape(key)}[/]: {escape(glossary[key].text[lang])}")
            return
        if q is not None:
            self.console.print(f"[bold cyan]{escape(self.s.text(q, 'label'))}[/]: {escape(self.s.text(q, 'help'))}")
            for t in q.terms:
                self.console.print(f"  [bold]{escape(t)}[/]: {escape(glossary[t].text[lang])}")
        self.say("  " + self.s.t("glossary_hint", terms=terms), "dim")

    def ask(self, q: Question) -> bool:
        """Put ``q`` until its answer validates; False when the user asked for the previous question."""
        if q.type == "advanced":
            self._show_defaults()
        while True:
            current = self.s.current(q)
            value = self._prompt(q, current)
            if value is _AGAIN:
                continue
            if value is _BACK:
                return False
            if q.key == "workload.task" and value == PLAN_CHOICE:  # a plan: plan_ask.py takes over
                raise StartPlan
            try:
                update = self.s.validate(q, value)
            except _Invalid as exc:
                self.say(f"✗ {self.s.message(exc)}", "red")
                continue
            for note in update.notes:
                self.say(note, "dim")
            self.s.apply(q, update)
            return True

    def _show_defaults(self) -> None:
        """Before the advanced-settings question: what a no keeps."""
        pending = self.s.advanced_defaults()
        if not pending:
            return
        self.say(self.s.t("advanced_defaults"), "dim")
        for q in pending:
            colon = "：" if self.s.lang == "zh" else ": "
            self.say(f"  {self.s.text(q, 'label')}{colon}{_show_value(self.s, q, q.key, self.s.current(q))}", "dim")

    def _prompt(self, q: Question, current: Any) -> Any:
        s = self.s
        message = s.text(q, "question")
        if q.type == "select":
            default = _index(q.choices, current)
            got = self.p.select(message, [c.title[s.lang] for c in q.choices], default or 0, s.t("hint_select"),
                                back=True)
            if got == _BACK:
                return _BACK
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return q.choices[got].value
        if q.type in ("bool", "section", "advanced"):
            got = self.p.confirm(message, bool(current), s.t("hint_confirm_yes" if current else "hint_confirm_no"),
                                 (s.t("value_yes"), s.t("value_no")), back=True)
            if got == _BACK:
                return _BACK
            if got == _HELP:
                self.show_help(q)
                return _AGAIN
            return bool(got)
        default = _default_text(s, q, current)
        completer = None
        instruction = s.t("hint_text", default=default)
        if q.type == "autocomplete" and q.source == "models":
            completer = self._model_completer()
            instruction = s.t("hint_complete", default=default)
        # a full-width input mode's '１２' is 12 (notation.typed_form); another script's digits are still refused
        text = typed_form(self.p.text(message, instruction, completer)).strip()
        if text.startswith(("?", "？")):
            self.show_help(q, text[1:])
            return _AGAIN
        if text in ("<", "＜"):
            return _BACK
        if not text:
            return current
        if q.optional and text.lower() in _NONE_WORDS:
            return None
        if q.type in ("int", "float"):
            try:
                if not q.money and _currency_mark(text)[1] is not None:
                    raise _Invalid("not_money", text=repr(text))
                return _number(s, q, text)
            except _Invalid as exc:
                self.say(f"✗ {s.message(exc)}", "red")
                return _AGAIN
        return text

    def _model_completer(self) -> Any:
        if self._completer is None:
            entries = [(m.id, m.name, f"{m.params_b:.1f}", tuple(m.aliases)) for m in self.s.kb.models.values()]

            def meta(name: str, size: str, alias: str | None) -> str:
                if alias is None:
                    return self.s.t("model_meta", name=name, size=size)
                return self.s.t("model_meta_alias", name=name, size=size, alias=alias)

            self._completer = _model_completer(entries, meta)
        return self._completer


def _number(s: _Session, q: Question, text: str) -> int | float:
    """The number typed at ``q`` (answers.number_for: a unit the question's field fixes is offered in it, and the
    field's bound said after a number offered past it)."""
    from ..inputs.error_words import _field_info
    from ..inputs.schema import Requirements
    from ..inputs.strict import field_bounds

    info = _field_info(Requirements, tuple(q.key.split(".")))
    return number_for(text, q.key.partition(".")[2], integer=q.type == "int",
                      currency=s.currency if q.money else None, lang=s.lang,
                      bounds=field_bounds(info) if info is not None else None)


def _answers_table(s: _Session) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=s.t("table_title"), title_justify="left")
    table.add_column("#", justify="right", style="dim")
    table.add_column(s.t("col_question"))
    table.add_column(s.t("col_answer"), style="bold")
    table.add_column(s.t("col_key"), style="dim", overflow="fold")
    for i, q in enumerate(s.asked(), 1):
        key, value = _answer_of(s, q)
        table.add_row(str(i), escape(s.text(q, "label")), escape(_show_value(s, q, key, value)),
                      "" if q.type == "advanced" else _file_key(s, key))
    for section, body in _ordered(s.answers).items():
        for name, value in body.items():
            key = f"{section}.{name}"
            if key not in s.owner:
                label = s.t("currency_label") if key == "constraints.currency" else s.t("from_file")
                table.add_row("", escape(label), escape(_show_value(s, None, key, value)), _file_key(s, key))
    return table


def _file_key(s: _Session, key: str) -> str:
    """``key`` as the saved file writes it: a money field of a yuan session under its yuan name
    (``constraints.budget_usd`` is saved as ``constraints.budget_cny``, answers.py ``to_currency_fields``)."""
    section, _, name = key.partition(".")
    if section != "constraints" or not name:
        return key
    from ..inputs.schema import to_currency_fields

    return f"{section}.{next(iter(to_currency_fields({name: None}, s.currency)))}"


def _answer_of(s: _Session, q: Question) -> tuple[str, Any]:
    """The key ``q``'s answer is under (``key`` or ``alt_key``), and the answer."""
    if q.type == "advanced":
        return q.key, s.advanced
    if q.type == "section":
        return q.key, q.key in s.answers
    key = q.key if _has(s.answers, q.key) else (q.alt_key or q.key)
    return key, _get(s.answers, key)


def _duration(s: _Session, days: float | None) -> str:
    if days is None or not math.isfinite(days):
        return "—"
    return s.t("days", n=f"{days:,.1f}") if days >= 1 else s.t("hours", n=f"{days * 24:,.1f}")


def _show_result(console: Any, s: _Session, result: Any, knowledge: str | None = None) -> None:
    """The answer in the terminal, in the session's language and currency; the report has the rest.
    The engine's sentences (the answer, why an option is out, the warnings) are translated through
    the report's catalog, so a Chinese session shows them in Chinese."""
    from rich.markup import escape
    from rich.table import Table

    from ..render.fmt import Currency, Fmt
    from ..render.views import RecommendView

    info = getattr(result, "currency", None)
    rate_info = (Currency("CNY", s.rate, getattr(info, "as_of", ""), getattr(info, "source", ""))
                 if s.currency == "CNY" else Currency())
    f = Fmt(s.lang, rate_info)
    view = RecommendView(result, "recommend", f)
    rec = result.recommendation
    if rec is None:
        console.print(f"[bold red]{escape(s.t('no_feasible'))}[/]")
    else:
        acq = {"rent": s.t("acq_rent"), "buy": s.t("acq_buy")}
        t = Table(title=s.t("recommendation"), title_justify="left")
        row = {"col_gpu": rec.gpu_name or rec.gpu, "col_count": str(rec.count), "col_nodes": str(rec.nodes),
               "col_acquire": acq.get(rec.acquisition or "", rec.acquisition or "—"),
               "col_duration": _duration(s, rec.wall_days), "col_cost": f.money(rec.total_cost_usd)}
        if rec.wall_days is None:  # serving: no duration
            del row["col_duration"]
        for col in row:
            t.add_column(s.t(col))
        t.add_row(*(escape(v) for v in row.values()))
        console.print(t)
        summary = (f.sentence(rec.summary_sentence.template, rec.summary_sentence.values, rec.summary)
                   if rec.summary_sentence else rec.summary)
        if summary:
            console.print(escape(summary))
    cands = sorted(result.candidates, key=lambda c: (not c.feasible, 1 << 30 if c.rank is None else c.rank))
    if cands:
        serving = all(c.wall_days is None for c in cands)  # inference: speed, not duration
        t = Table(title=s.t("candidates"), title_justify="left")
        shown = cands[:10]
        why_any = any(not c.feasible for c in shown)  # no empty "why" column when every option shown is feasible
        cols = ["col_rank", "col_gpu", "col_count", "col_feasible", "col_speed" if serving else "col_duration",
                "col_cost"] + (["col_why"] if why_any else [])
        for col in cols:
            t.add_column(s.t(col), overflow="fold")
        for c in shown:
            speed = c.decode_tokens_per_s_total or c.decode_tokens_per_s
            cells = ["—" if c.rank is None else str(c.rank), escape(c.gpu_name or c.gpu), str(c.count),
                     s.t("value_yes") if c.feasible else f"[red]{escape(s.t('value_no'))}[/]",
                     ("—" if speed is None else f"{speed:,.0f}") if serving else
                     _duration(s, c.wall_days if c.feasible else None),  # an infeasible run has no duration
                     f.money(c.total_cost_usd)]
            if why_any:
                why = view.short_reasons(c)
                cells.append(escape(why[0]) if why and not c.feasible else "")
            t.add_row(*cells)
        if len(cands) > 10:
            t.caption = s.t("more_in_report", n=len(cands) - 10)
        console.print(t)
    # each warning once, its sentence for the answer's GPU and the other GPUs named, and only the answer's, as the
    # brief report counts them (review61: a Qwen3 service bought on B300 showed the runner-up B200's stale host price
    # under 'Findings' while the report it wrote said 'the answer's: 0 blockers, 0 warnings')
    mine = view.answers_findings(result)
    issues = view.issues(mine, rec.gpu if rec is not None else "")
    important = [e for g in issues["groups"] for e in g["entries"]]
    ids = {id(x) for x in mine}
    others = sum(1 for x in result.findings if x.severity in ("blocker", "warning") and id(x) not in ids)
    if others:
        console.print(escape(s.t("others_in_report", n=others, path=s.path, opts=rerun_options(s.lang, knowledge))))
    if important:
        t = Table(title=s.t("findings"), title_justify="left")
        for col in ("col_severity", "col_rule", "col_finding"):
            t.add_column(s.t(col), overflow="fold")
        for e in important[:12]:
            colour = "red" if e["severity"] == "blocker" else "yellow"
            text = f"{e['message']}\n{e['also']}" if e["also"] else e["message"]
            t.add_row(f"[{colour}]{escape(s.t('sev_' + e['severity']))}[/]", escape(e["rule"]), escape(text))
        if len(important) > 12:
            t.caption = s.t("more_in_report", n=len(important) - 12)
        console.print(t)


