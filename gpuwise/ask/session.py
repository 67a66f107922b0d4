"""The questionnaire's flow: the answers so far, which questions apply next, validation and saving,
in one language and currency.
"""

from __future__ import annotations

import contextlib
import copy
import difflib
import math
import re
from dataclasses import field
from pathlib import Path
from typing import Any

from ..frozen import record
from ..inputs.notation import fold_digits, meant, other_digits
from .answers import (
    _SIZE,
    _STATE,
    CURRENCIES,
    SYMBOLS,
    _currency_mark,
    _drop,
    _get,
    _has,
    _Invalid,
    _put,
    _short,
    _short_float,
    parse_number,
    save_answers,
)
from .questions import (
    _UNSET,
    SECTIONS,
    Condition,
    Question,
    Questionnaire,
    Text,
    _model_default,
    _section_models,
)


# -------------------------------------------------------------------------------- session
@record
class _Update:
    key: str
    value: Any
    drop: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)


class _Session:
    """The answers so far, which questions apply, validation, and saving, in one language and currency."""

    def __init__(self, questionnaire: Questionnaire, kb: Any, path: Path, *, lang: str = "en",
                 currency: str | None = None):
        if lang not in questionnaire.languages:
            raise ValueError(f"language {lang!r} is not one of {', '.join(questionnaire.languages)}")
        self.qn = questionnaire
        self.kb = kb
        self.path = path
        self.lang = lang
        self.requested_currency = currency
        self.currency = currency or "USD"
        self.answers: dict[str, dict[str, Any]] = {}
        self.declined: set[str] = set()  # optional sections answered "no"
        self.advanced: bool | None = None  # the answer to the advanced-settings question
        self.owner = {k: q for q in questionnaire.questions for k in q.keys}
        self._rate: float | None = None
        # a resumed file's values that were refused and are to be asked again, as the file wrote them: saved
        # back until answered, so a Ctrl-C before the question comes keeps what the user wrote (review59)
        self.refused: dict[str, Any] = {}

    # ---- language and currency
    def t(self, msg: str, **params: Any) -> str:
        return self.qn.say(msg, self.lang, **params)

    def text(self, q: Question, name: str) -> str:
        """One of ``q``'s texts (label, question, help, invalid) in the session's language and currency: a variant's
        where its condition on the earlier answers holds (the p95 targets after a concurrency, not a rate)."""
        value: Text | None = getattr(q, name)
        for cond, texts in q.variants:
            if name in texts and cond.evaluate(self.lookup):
                value = texts[name]
                break
        return "" if value is None else value[self.lang].format(sym=self.sym, cur=self.currency)

    @property
    def sym(self) -> str:
        return SYMBOLS[self.currency]

    @property
    def rate(self) -> float:
        """Units of the session's currency per USD (the knowledge base's dated ``usd_cny`` for CNY)."""
        if self._rate is None:
            self._rate = 1.0 if self.currency == "USD" else float(self.kb.tco_value("usd_cny").value)
        return self._rate

    def set_currency(self) -> None:
        _put(self.answers, "constraints.currency", self.currency)

    # ---- state
    def lookup(self, path: str) -> Any:
        if "." not in path:
            return self.answers.get(path)
        if _has(self.answers, path):
            return _get(self.answers, path)
        return _model_default(path)

    def answered(self, q: Question) -> bool:
        if q.type == "advanced":
            return self.advanced is not None
        return (any(_has(self.answers, k) for k in (*q.keys, *q.settled_by)) or q.key in self.declined)

    def is_advanced(self, q: Question) -> bool:
        if isinstance(q.advanced, Condition):
            return q.advanced.evaluate(self.lookup)
        return q.advanced

    def applies(self, q: Question, advanced: bool | None = None) -> bool:
        """Whether ``q`` is to be asked; ``advanced`` overrides the gate's answer (to list the defaults)."""
        if q.when is not None and not q.when.evaluate(self.lookup):
            return False
        if self.is_advanced(q):
            return (self.advanced if advanced is None else advanced) is True
        return True

    def _gone(self, q: Question) -> bool:
        """``q`` cannot apply, and everything that decides so is final (answered, or never asked)."""
        if not all(self._settled(n) for n in q.names()):
            return False
        if q.when is not None and not q.when.evaluate(self.lookup):
            return True
        return self.is_advanced(q) and self.advanced is False

    def _settled(self, path: str) -> bool:
        """Whether ``path``'s value is final: answered, not asked at all, or asked by nothing that applies."""
        q = self.owner.get(path)
        return q is None or self.answered(q) or self._gone(q)

    def prune(self) -> list[Question]:
        """Drop the answers of questions that no longer apply (say, LoRA rank after task -> inference)."""
        dropped = []
        for q in self.qn.questions:
            if q.type != "advanced" and self.answered(q) and self._gone(q):
                for k in q.keys:
                    _drop(self.answers, k)
                self.declined.discard(q.key)
                dropped.append(q)
        return dropped

    def pending(self) -> Question | None:
        for q in self.qn.questions:
            if not self.answered(q) and self.applies(q):
                return q
        return None

    def asked(self) -> list[Question]:
        return [q for q in self.qn.questions if self.answered(q) and self.applies(q)]

    def advanced_defaults(self) -> list[Question]:
        """The advanced questions that a yes would put (their defaults apply on no)."""
        return [q for q in self.qn.questions if self.is_advanced(q) and not self.answered(q)
                and self.applies(q, advanced=True)]

    def default(self, q: Question) -> Any:
        """The value offered when ``q`` has no answer: its conditional default, its default, or
        the model's; money converted from USD at the dated rate."""
        value = _UNSET
        for cond, kind, what in q.defaults:
            if cond.evaluate(self.lookup):
                value = what if kind == "value" else self._compute(what)
                if value is not _UNSET:
                    break
        if value is _UNSET:
            value = q.default if q.default is not _UNSET else _model_default(q.key)
        if q.money and isinstance(value, int | float) and not isinstance(value, bool) and self.currency != "USD":
            value = round(value * self.rate, 2)
        return value

    def _compute(self, name: str) -> Any:
        if name == "chinchilla_tokens":  # 20 tokens per parameter (Hoffmann et al. 2022)
            from ..errors import UserError

            params_b = self.lookup("workload.params_b")
            model = self.lookup("workload.model")
            with contextlib.suppress(UserError):  # an id, or an alias kept as typed (Kimi K2 Thinking)
                params_b = self.kb.models[self.kb.model(str(model)).id].params_b if model else params_b
            if params_b is None:
                return _UNSET
            return float(f"{20 * params_b * 1e9:.3g}")
        if name == "published_precision":  # a model whose published weights are narrower than 16 bits
            from ..errors import UserError
            from ..inputs.job import served_as_published

            model = self.lookup("workload.model")
            try:
                entry = self.kb.models[self.kb.model(str(model)).id] if model else None
            except UserError:
                return _UNSET
            return served_as_published(entry, model) or _UNSET
        if name == "published_method":  # a model named by a quantized release (Qwen/Qwen3.5-27B-GPTQ-Int4: gptq)
            from ..errors import UserError
            from ..inputs.job import named_method

            model = self.lookup("workload.model")
            try:
                entry = self.kb.models[self.kb.model(str(model)).id] if model else None
            except UserError:
                return _UNSET
            return named_method(entry, model) or _UNSET
        raise AssertionError(name)

    def current(self, q: Question) -> Any:
        """The value to offer: the current answer, else the default."""
        if q.type == "advanced":
            return self.advanced if self.advanced is not None else bool(q.default)
        if q.type == "section":
            if self.answered(q):
                return q.key in self.answers
            return bool(q.default) if q.default is not _UNSET else False
        if q.alt_key and _has(self.answers, q.alt_key) and not _has(self.answers, q.key):
            return _get(self.answers, q.alt_key)
        if _has(self.answers, q.key):
            return _get(self.answers, q.key)
        return self.default(q)

    def state(self) -> str:
        """The questionnaire's own answers, for the file's ``# gpuwise-ask:`` line."""
        parts = []
        if self.advanced is not None:
            parts.append(f"advanced={'yes' if self.advanced else 'no'}")
        parts += [f"{s}=no" for s in sorted(self.declined)]
        return ", ".join(parts)

    def save(self) -> None:
        answers = self.answers
        kept = {k: v for k, v in self.refused.items()
                if self.applies(self.owner[k]) and not self.answered(self.owner[k])}
        if kept:  # not yet asked again: the file keeps the value it had, not nothing
            answers = copy.deepcopy(answers)
            for k, v in kept.items():
                _put(answers, k, v)
        save_answers(self.path, answers, self.qn, lang=self.lang, currency=self.currency,
                     state=self.state())

    def apply(self, q: Question, update: _Update) -> None:
        if q.type == "advanced":
            self.advanced = bool(update.value)
        elif q.type == "section":
            if update.value:
                self.answers.setdefault(q.key, {})
                self.declined.discard(q.key)
            else:
                self.answers.pop(q.key, None)
                self.declined.add(q.key)
        else:
            for k in update.drop:
                _drop(self.answers, k)
            _put(self.answers, update.key, update.value)
        self.set_currency()
        self.prune()
        self.save()

    # ---- validation
    def validate(self, q: Question, value: Any) -> _Update:
        """Convert (named converter) and validate one answer; raises _Invalid with the message to show."""
        if q.type in ("section", "advanced"):
            return _Update(q.key, bool(value))
        update = _Update(q.key, value)
        if q.parse == "model":
            update = self._convert_model(q, value)
        elif q.parse == "gpu_list":
            update = self._convert_gpus(q, value)
        if update.value is None and not q.optional:
            raise _Invalid("need_answer")
        message = self._check_section(q, update) or self._check_layers(q, update)
        if message:
            raise _Invalid(raw=message)
        return update

    def _check_layers(self, q: Question, update: _Update) -> str | None:
        """A recomputation interval past the model's layers (workload.checkpoint_every_n_layers), refused at the
        prompt in the words `recommend` refuses the saved file in (inputs/job.py, the model's resolved layers),
        not after the last question."""
        if update.key != "workload.checkpoint_every_n_layers" or update.value is None:
            return None
        from ..errors import UserError
        from ..inputs.job import resolve
        from ..inputs.schema import Requirements

        trial = copy.deepcopy(self.answers)
        _put(trial, update.key, update.value)
        try:
            resolve(Requirements.model_validate({"workload": trial.get("workload") or {}}), self.kb)
        except UserError as exc:
            if update.key not in (exc.where or ""):
                return None  # another answer's fault: its own question says so
            exc.where = None  # the prompt names the field already
            return exc.line(self.lang)
        except ValueError:  # the answers so far do not validate yet: their own questions say why
            return None
        return None

    def _convert_model(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError
        from ..inputs.job import precision_word
        from ..knowledge.names import kept_name

        alt = q.alt_key or q.key
        if isinstance(value, int | float) and not isinstance(value, bool):
            return _Update(alt, float(value), drop=(q.key,))
        text = str(value or "").strip()
        if not text:
            raise _Invalid("model_needed")
        said = meant(text)  # '0x10', '1_6', '１６': a size in another notation, refused as every file does
        if said is None and _SIZE.match(fold_digits(text)):  # '٧b', '１６b': float() reads them (hostile round 41)
            said = other_digits(text)
        if said is not None:
            raise _Invalid(raw=said.words(self.lang))
        if _SIZE.match(text):
            return _Update(alt, float(text.rstrip("bB").strip()), drop=(q.key,))
        try:
            resolved = self.kb.model(text)
        except UserError as exc:
            raise _Invalid(raw=exc.line(self.lang)) from None
        notes = [resolved.said(self.lang)] if resolved.note else []
        # the catalog id, or an alias naming a release of its own dtype as typed (Kimi K2 Thinking: its INT4 files)
        # ('Qwen/Qwen3-4B-FP8' likewise: the precision its name states, fp8names59)
        kept = kept_name(self.kb.models[resolved.id], resolved.id, text, precision_word(text) is not None)
        return _Update(q.key, kept, drop=(alt,) if alt != q.key else (), notes=notes)

    def _convert_gpus(self, q: Question, value: Any) -> _Update:
        from ..errors import UserError

        if value is None:
            items: list[str] = []
        elif isinstance(value, str):
            items = [] if value.strip().lower() in ("", "all", "any", "全部") else re.split(r"[,，、]", value)
        elif isinstance(value, list):
            items = [str(v) for v in value]
        else:
            raise _Invalid("gpu_list")
        ids: list[str] = []
        notes: list[str] = []
        for name in (i.strip() for i in items):
            if not name:
                continue
            try:
                resolved = self.kb.gpu(name)
            except UserError as exc:
                raise _Invalid(raw=exc.line(self.lang)) from None
            if resolved.note:
                notes.append(resolved.said(self.lang))
            if resolved.id not in ids:
                ids.append(resolved.id)
        return _Update(q.key, ids, notes=notes)

    def _check_section(self, q: Question, update: _Update) -> str | None:
        """Validate the section as it would be with ``update``; the first error about it, or None."""
        from pydantic import ValidationError

        section = q.section
        model = _section_models()[section]
        # the answers as they would be, answers that would stop applying dropped (task finetune ->
        # inference drops the method): validate what would be saved, not an impossible mixture
        trial = copy.deepcopy(self.answers)
        for k in update.drop:
            _drop(trial, k)
        _put(trial, update.key, update.value)
        kept, self.answers = self.answers, trial
        try:
            self.prune()
        finally:
            self.answers = kept
        data = dict(trial.get(section) or {})
        name = update.key.partition(".")[2]
        if section == "workload":  # placeholders for what is not asked yet; they never reach the file
            data.setdefault("task", "finetune")
            if data.get("model") is None and data.get("params_b") is None:
                data["params_b"] = 1.0
        try:
            model.model_validate(data)
        except ValidationError as exc:
            for err in exc.errors():
                loc = err.get("loc") or ()
                if not loc or loc[0] == name:
                    return self.explain(err, q)
        return None

    def explain(self, err: Any, q: Question) -> str:
        """A pydantic error as a sentence in the session's language: the question's own ``invalid``
        text for the checks a value can fail beyond its range, else from the error's type."""
        kind = err.get("type")
        ctx = err.get("ctx") or {}
        limits = {"greater_than": ("err_gt", "gt"), "greater_than_equal": ("err_ge", "ge"),
                  "less_than": ("err_lt", "lt"), "less_than_equal": ("err_le", "le"),
                  "string_too_long": ("err_too_long", "max_length")}
        if kind in ("value_error", "string_pattern_mismatch", "assertion_error") and q.invalid:
            msg = self.text(q, "invalid")
        elif kind in limits and limits[kind][1] in ctx:
            from ..inputs.error_words import bound_text  # 0.000001 and 10000000 as a file's refusal writes them

            msg = self.t(limits[kind][0], limit=bound_text(ctx[limits[kind][1]]))
        elif kind == "literal_error":
            said = self.t("err_literal", input=_short(err.get("input")), expected=ctx.get("expected", ""))
            from ..inputs.schema import literal_close

            close = literal_close(err.get("input"), ctx.get("expected", ""))
            return self.t("err_literal_close", message=said, close=close) if close else said
        elif kind == "value_error":
            msg = str(err.get("msg", "")).removeprefix("Value error, ")
        elif kind and kind.endswith(("_type", "_parsing")):
            msg = self.t("err_type")
        else:
            msg = str(err.get("msg", ""))
        if err.get("loc") and "input" in err and kind not in ("model_type", "dict_type"):
            given = err["input"]  # a number as typed: -3, not the float it was read as (-3.0)
            shown = _short_float(given) if isinstance(given, float) and math.isfinite(given) else _short(given)
            if isinstance(given, str) and shown in msg:  # the message quotes it already ("'500ms': ... write 0.5")
                return msg
            return self.t("got", message=msg, input=shown)
        return msg

    def message(self, exc: _Invalid) -> str:
        return exc.raw if exc.msg is None else self.t(exc.msg, **exc.params)

    # ---- resume
    def load(self, data: Any, text: str = "") -> list[str]:
        """Pre-fill from an answers file's parsed content (and its ``text``, for the state line);
        returns notes (answers to be asked again).

        Unknown sections or keys, and values of keys no question asks that do not validate,
        are a UserError (exit 2): resuming must not silently change what a file says.
        """
        from ..errors import N_, UserError
        from ..inputs.schema import Requirements, explain_validation

        where = str(self.path)
        if data is not None and not isinstance(data, dict):
            raise UserError(N_("expected a mapping with the sections workload, constraints, environment"),
                            where=where)
        for section, body in (data or {}).items():
            if section not in SECTIONS:
                close = difflib.get_close_matches(str(section), SECTIONS, n=1)
                raise UserError(N_("unknown section"), where=f"{where}: {section}",
                                hint=N_("did you mean '%(name)s'?") if close else N_("sections: %(names)s"),
                                hint_values={"name": close[0]} if close else {"names": ", ".join(SECTIONS)})
            if body is not None and not isinstance(body, dict):
                raise UserError(N_("expected a mapping, got %(name)s"), where=f"{where}: {section}",
                                values={"name": type(body).__name__})
            self.answers[section] = dict(body or {})
        if isinstance(self.answers.get("constraints"), dict):  # budget_cny: the file's own currency field
            from ..inputs.schema import from_currency_fields

            try:
                self.answers["constraints"] = from_currency_fields(self.answers["constraints"])
            except ValueError as exc:
                raise UserError(str(exc), where=f"{where}: constraints") from None
        self._load_currency(where)
        state = dict(p.strip().partition("=")[::2] for m in _STATE.finditer(text) for p in m.group(1).split(","))
        if state.get("advanced") in ("yes", "no"):
            self.advanced = state["advanced"] == "yes"
        if any(self.is_advanced(q) and self.answered(q) for q in self.qn.questions):
            self.advanced = True  # the file sets an advanced value: keep it, never drop it silently
        for section in SECTIONS:
            if state.get(section) == "no" and section not in self.answers and section in self.owner:
                self.declined.add(section)
        as_read = copy.deepcopy(self.answers)
        notes: list[str] = []
        for q in self.qn.questions:  # the answers the file gives (not one settled by another's, settled_by)
            if q.type in ("section", "advanced") or not any(_has(self.answers, k) for k in q.keys):
                continue
            key = q.key if _has(self.answers, q.key) else q.alt_key
            assert key is not None
            value = _get(self.answers, key)
            if q.money and isinstance(value, str):  # "¥1,500,000" or "150万" as written by hand: the number
                with contextlib.suppress(_Invalid):  # if not a number, validation below says what is wrong
                    value = parse_number(value, currency=self.currency)
            try:
                update = self.validate(q, value)
            except _Invalid as exc:
                self.refused[key] = _get(self.answers, key)
                for k in q.keys:
                    _drop(self.answers, k)
                notes.append(self.t("asking_again", key=key, error=self.message(exc)))
                continue
            if q.parse == "model" and _has(self.answers, q.key) and _has(self.answers, q.alt_key or q.key):
                update.drop = ()  # a hand-written file may give both; keep both
            for k in update.drop:
                _drop(self.answers, k)
            _put(self.answers, update.key, update.value)
            notes.extend(update.notes)
        for q in self.prune():
            notes.append(self.t("dropped", key=q.key))
        check = copy.deepcopy(self.answers)  # unknown keys (never pruned) must fail here
        work = check.setdefault("workload", {})
        work.setdefault("task", "finetune")
        if work.get("model") is None and work.get("params_b") is None:
            work["params_b"] = 1.0
        from pydantic import ValidationError

        try:
            Requirements.model_validate(check)
        except ValidationError as exc:
            raise explain_validation(exc, Requirements, where) from None
        if self.answers != as_read:  # names normalised, answers dropped: the file says so at once
            self.save()
        return notes

    def _load_currency(self, where: str) -> None:
        """The file's currency, reconciled with ``--currency``: a file with amounts in one currency
        is not resumed in another (its numbers would change meaning)."""
        from ..errors import N_, UserError

        constraints = self.answers.get("constraints") or {}
        given = constraints.get("currency")
        if given is not None and given not in CURRENCIES:
            raise UserError(N_("%(given)s is not one of %(choices)s"),
                            where=f"{where}: constraints.currency",
                            values={"given": _short(given), "choices": ", ".join(map(repr, CURRENCIES))})
        money = [constraints.get(q.key.partition(".")[2]) for q in self.qn.questions
                 if q.money and q.section == "constraints"]
        marked = {_currency_mark(v)[1] for v in money if isinstance(v, str)} - {None}
        in_file = given or (marked.pop() if len(marked) == 1 else "USD")  # "¥1500000" says CNY
        amounts = any(v is not None for v in money)
        if self.requested_currency is None:
            self.currency = in_file
        elif self.requested_currency != in_file and amounts:
            raise UserError(self.t("currency_conflict", file=in_file), where=f"{where}: constraints.currency")
        if "constraints" in self.answers or given is not None:
            self.set_currency()


