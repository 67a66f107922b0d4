"""``gpuwise ask`` for a plan: the questions that write a plan file, then ``gpuwise plan`` on it.

The questionnaire's first question (``workload.task``) offers "a plan: more than one job, or GPUs
you already own"; choosing it raises :class:`StartPlan`, and :func:`run_plan_ask` takes over: the
horizon, the GPUs owned (type, count, hosting, when bought, what was paid), the workloads (each a
requirements-style workload with its cadence, deadline and, for a service, its load, growth and
latency target) and the limits (budgets, rent/buy, hosting, market). A plan is lists of entries,
so this flow is code with its words as data (``plan_texts.yaml``), not rows of ``questions.yaml``.

Every answer is checked by the plan file's own pydantic models (:mod:`gpuwise.plan.schema`) as it
is given, GPU and model names by the knowledge base's name matching (with "did you mean"), and the
whole file once more before it is written; it is written only complete (temporary file, then
``os.replace``), never half-written. An answers path that already holds a plan file is shown and
run as it is.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..frozen import frozen
from ..inputs.notation import other_digits, typed_form
from .ending import rerun_options as _rerun
from .sigint import held, released

PLAN_CHOICE = "plan"
"""The value of the first question's plan choice (``questions.yaml``, ``workload.task``)."""
TEXTS_FILE = Path(__file__).with_name("plan_texts.yaml")
DEFAULT_PLAN = "gpuwise-plan.yaml"
_AGAIN: Any = object()
_MONTH = re.compile(r"^[0-9]{4}-[0-9]{2}$")  # ASCII digits: re's \d takes '２０２４-０３' (hostile round 42)
_NONE = ("none", "null", "-", "无", "没有", "不限")
_SIZE = re.compile(r"^(\d+(?:\.\d+)?|\.\d+)\s*b$", re.IGNORECASE)


class StartPlan(Exception):
    """The user chose a plan at the first question: the plan questions take over."""


# ------------------------------------------------------------------------------------ texts
@frozen
class PlanTexts:
    texts: dict[str, dict[str, str]]
    languages: tuple[str, ...]

    def get(self, key: str, lang: str, **params: Any) -> str:
        return self.texts[key][lang].format(**params)


def load_texts(path: str | Path | None = None) -> PlanTexts:
    """``plan_texts.yaml`` read and checked (every text in every language, the same placeholders)."""
    from ..yamlio import safe_load
    from .questions import QuestionsError, _text

    p = Path(path) if path else TEXTS_FILE
    data = safe_load(p.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or set(data) != {"languages", "texts"}:
        raise QuestionsError(f"{p}: expected the keys languages and texts")
    languages = tuple(str(x) for x in data["languages"])
    if any(not isinstance(k, str) for k in data["texts"] or {}):  # `yes:` unquoted reads as True
        raise QuestionsError(f"{p}: every text id must be a string (quote yes, no, on, off)")
    texts = {k: _text(v, f"{p}: texts.{k}", languages) for k, v in (data["texts"] or {}).items()}
    return PlanTexts(texts, languages)


def is_plan_file(path: Path) -> bool:
    """Whether ``path`` holds a plan file (rather than a requirements answers file)."""
    import yaml

    from ..yamlio import safe_load

    try:
        data = safe_load(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False
    return isinstance(data, dict) and ("horizon_months" in data or isinstance(data.get("workloads"), list))


def plan_path(answers: Path, explicit: bool) -> Path:
    """Where a plan chosen at the first question is written: the answers path named on the command
    line when nothing is there yet; beside an answers file already there (never over it); else
    ``gpuwise-plan.yaml``."""
    if answers.exists():
        return answers.with_name(f"{answers.stem}-plan.yaml")
    return answers if explicit else answers.with_name(DEFAULT_PLAN)


# ----------------------------------------------------------------------------- the session
class _Refused(Exception):
    """An answer refused: the sentence to show; the question is put again."""


class PlanAsk:
    """The plan questions on one prompter and console; :meth:`run` returns the exit status."""

    def __init__(self, kb: Any, path: Path, report: Path, *, knowledge: str | None, lang: str, currency: str,
                 prompter: Any, console: Any):
        from .questions import load_questions

        self.kb, self.path, self.report, self.knowledge = kb, path, report, knowledge
        self.lang, self.currency = lang, currency
        self.sym = {"USD": "$", "CNY": "¥"}[currency]
        self.p, self.console = prompter, console
        self.texts = load_texts()
        self.qn = load_questions()  # its error sentences (numbers, limits) are shared
        self.written = False  # the plan file is at self.path, complete

    # ---- words
    def w(self, key: str, **params: Any) -> str:
        return self.texts.get(key, self.lang, sym=self.sym, cur=self.currency, **params)

    def show(self, text: str, style: str = "") -> None:
        from rich.markup import escape

        self.console.print(f"[{style}]{escape(text)}[/]" if style else escape(text), soft_wrap=True)

    def help(self, key: str) -> None:
        from rich.markup import escape

        self.console.print(f"[bold cyan]?[/] {escape(self.w('h_' + key))}")

    # ---- prompts
    def select(self, key: str, options: list[tuple[Any, str]], default: Any) -> Any:
        titles = [self.w(t) for _, t in options]
        start = next((i for i, (v, _) in enumerate(options) if v == default), 0)
        while True:
            got = self.p.select(self.w("q_" + key), titles, start, self.w("tip_select"))
            if got == "?":
                self.help(key)
                continue
            return options[got][0]

    def confirm(self, key: str, default: bool, help_key: str | None = None) -> bool:
        while True:
            got = self.p.confirm(self.w("q_" + key), default, self.w("tip_yes" if default else "tip_no"),
                                 (self.w("yes"), self.w("no")))
            if got == "?":
                self.help(help_key or key)
                continue
            return bool(got)

    def value(self, key: str, default: Any, *, kind: str = "text", optional: bool = False, money: bool = False,
              check: Callable[[Any], str | None] | None = None, show: str | None = None,
              field: str | None = None) -> Any:
        """A typed answer: ``kind`` int, float, percent, month or text; Enter takes ``default``
        (none when ``optional`` and no default); ``check`` says why a value is refused, or None; ``field``, the
        plan file's field a number goes to: a number typed with the unit its name fixes is offered in that unit."""
        from .answers import _currency_mark, _Invalid, number_for, parse_number

        while True:
            if default is None:
                tip = self.w("tip_optional" if optional else "tip_required")
            else:
                tip = self.w("tip_text", default=show if show is not None else self._show(default, money))
            text = typed_form(self.p.text(self.w("q_" + key), tip)).strip()  # '１２' typed full-width is 12
            if text.startswith(("?", "？")):
                self.help(key)
                continue
            try:
                if not text:
                    got = default
                elif optional and text.lower() in _NONE:
                    got = None
                elif kind in ("int", "float"):
                    if not money and _currency_mark(text)[1] is not None:
                        raise _Invalid("not_money", text=repr(text))
                    got = number_for(text, field, integer=kind == "int", currency=self.currency if money else None,
                                     lang=self.lang, bounds=getattr(check, "bounds", None))
                elif kind == "percent":
                    try:
                        got = float(parse_number(text.rstrip("%％").strip()))
                    except _Invalid as exc:
                        # '１０%' or '١٠%': the ASCII offered, as every other number question offers it (hostile 42)
                        if exc.msg == "other_digits":
                            raise
                        raise _Refused(self.w("not_a_percent", text=repr(text))) from None
                elif kind == "month":
                    said = other_digits(text)  # '２０２４-０３': the ASCII offered, as the plan file's field offers it
                    if said is not None:
                        raise _Invalid("other_digits", **said.values)
                    if not _MONTH.match(text):
                        raise _Refused(self.w("not_a_month", text=repr(text)))
                    got = text
                else:
                    got = text
                if got is None and not optional:
                    raise _Invalid("need_answer")
                why = check(got) if check is not None and got is not None else None
                if why:
                    raise _Refused(why)
                return got
            except _Invalid as exc:
                self.show("✗ " + (exc.raw if exc.msg is None else self.qn.say(exc.msg, self.lang, **exc.params)),
                          "red")
            except _Refused as exc:
                self.show(f"✗ {exc}", "red")

    def _show(self, v: Any, money: bool = False) -> str:
        if v is None:
            return self.w("none")
        if isinstance(v, bool):
            return self.w("yes" if v else "no")
        if money and isinstance(v, int | float):
            return f"{self.sym}{v:,.0f}"
        if isinstance(v, float):
            from .answers import _short_float

            return _short_float(v)
        return str(v)

    # ---- checks by the plan file's own models
    def field(self, model: Any, base: dict[str, Any], name: str, scale: float = 1) -> Callable[[Any], str | None]:
        """A check of one field: ``model`` validated with ``base`` and the value over ``scale`` (100 for a share
        asked as a percentage); the first error about that field (errors about fields not asked yet are not this
        answer's)."""
        from pydantic import ValidationError

        from ..inputs.strict import field_bounds

        def check(v: Any) -> str | None:
            try:
                model.model_validate({**base, name: v / scale if scale != 1 else v})
            except ValidationError as exc:
                for err in exc.errors():
                    if tuple(err.get("loc") or ())[:1] == (name,):
                        return self.explain(err, scale)
            return None

        check.bounds = field_bounds(model.model_fields[name])  # type: ignore[attr-defined]  # said after a unit's
        return check  # number offered past one ('50 years' at the horizon: 600, at most 60; hostileleft60)

    def explain(self, err: dict[str, Any], scale: float = 1) -> str:
        """Why a value is refused; ``scale``: the question's unit in the field's (100 where a share is asked as a
        percentage: growth_per_month's bound of 1 said as 100)."""
        kind, ctx = err.get("type", ""), err.get("ctx") or {}
        limits = {"greater_than": ("err_gt", "gt"), "greater_than_equal": ("err_ge", "ge"),
                  "less_than": ("err_lt", "lt"), "less_than_equal": ("err_le", "le"),
                  "string_too_long": ("err_too_long", "max_length")}
        if kind in limits and limits[kind][1] in ctx:
            from ..inputs.error_words import bound_text  # 0.000001 and 10000000 as a file's refusal writes them

            limit = ctx[limits[kind][1]]
            limit = round(limit * scale, 9) if scale != 1 and kind != "string_too_long" else limit  # -0.9: -90
            return self.qn.say(limits[kind][0], self.lang, limit=bound_text(limit))
        if kind == "literal_error":
            from ..inputs.schema import literal_close

            said = self.qn.say("err_literal", self.lang, input=err.get("input"), expected=ctx.get("expected", ""))
            close = literal_close(err.get("input"), ctx.get("expected", ""))
            return self.qn.say("err_literal_close", self.lang, message=said, close=close) if close else said
        return str(err.get("msg", "")).removeprefix("Value error, ")

    def month_check(self, horizon: int) -> Callable[[Any], str | None]:
        def check(v: Any) -> str | None:
            if v < 1:
                return self.qn.say("err_ge", self.lang, limit=1)
            if v > horizon:
                return self.qn.say("err_le", self.lang, limit=horizon) + f" ({self.w('months', n=horizon)})"
            return None

        return check

    # ---- the questions
    def ask_all(self) -> dict[str, Any]:
        from ..plan.schema import PlanFile

        data: dict[str, Any] = {}
        horizon = self.value("horizon", 12, kind="int", field="horizon_months",
                             check=self.field(PlanFile, {"workloads": []}, "horizon_months"))
        data["horizon_months"] = horizon
        owned: list[dict[str, Any]] = []
        if self.confirm("own_any", False):
            while True:
                owned.append(self.ask_owned())
                if not self.confirm("own_more", False, "own_any"):
                    break
        data["owned"] = owned
        workloads: list[dict[str, Any]] = []
        while True:
            workloads.append(self.ask_workload(len(workloads) + 1, horizon, {w["name"] for w in workloads}))
            if not self.confirm("more_work", False):
                break
        data["workloads"] = workloads
        data["constraints"] = self.ask_constraints()
        return data

    def ask_owned(self) -> dict[str, Any]:
        from pydantic import ValidationError

        from ..plan.schema import Owned

        self.show(self.w("section_owned"), "bold")
        while True:
            name = self.value("owned_gpu", None, check=self.gpu_check)
            entry: dict[str, Any] = {"gpu": self.kb.gpu(name).id}
            entry["count"] = self.value("owned_count", 8, kind="int", field="count",
                                        check=self.field(Owned, entry, "count"))
            entry["hosting"] = self.select("owned_hosting", [("office", "host_office"),
                                                             ("colocation", "host_colocation"),
                                                             ("datacenter", "host_datacenter")], "office")
            bought = self.value("owned_bought", None, kind="month", optional=True,
                                check=self.field(Owned, {"gpu": entry["gpu"], "count": 1}, "bought"))
            if bought is not None:
                entry["bought"] = bought
            paid = self.value("owned_paid", None, kind="float", optional=True, money=True,
                              check=self.field(Owned, {"gpu": entry["gpu"], "count": 1}, "paid_usd"))
            if paid is not None:
                entry["paid_usd"] = paid
            try:
                Owned.model_validate(entry)
            except ValidationError as exc:
                self.show("✗ " + self.w("entry_refused", what=entry["gpu"], error=self.explain(exc.errors()[0])),
                          "red")
                continue
            return entry

    def gpu_check(self, text: Any) -> str | None:
        from ..errors import UserError

        name = str(text or "").strip()
        if not name:
            return self.w("gpu_needed")
        try:
            r = self.kb.gpu(name)
        except UserError as exc:
            return exc.line(self.lang)
        if r.note:
            self.show(r.said(self.lang), "dim")
        return None

    def model_answer(self) -> dict[str, Any]:
        from ..errors import UserError
        from ..inputs.job import precision_word
        from ..knowledge.names import kept_name

        while True:
            text = self.value("model", "llama-3.1-8b")
            text = str(text).strip()
            said = other_digits(text) if _SIZE.match(text) or re.fullmatch(r"\d+(?:\.\d+)?", text) else None
            if said is not None:  # '٧b': float() reads another script's digits; a file refuses them (hostile round 41)
                self.show("✗ " + said.words(self.lang), "red")
                continue
            if _SIZE.match(text) or re.fullmatch(r"\d+(?:\.\d+)?", text):
                size = float(text.rstrip("bB").strip())
                if 1e-6 <= size <= 100_000:
                    return {"params_b": size}
                self.show("✗ " + self.w("model_needed"), "red")
                continue
            try:
                r = self.kb.model(text)
            except UserError as exc:
                self.show(f"✗ {exc.line(self.lang)}", "red")
                continue
            if r.note:
                self.show(r.said(self.lang), "dim")
            # Kimi K2 Thinking: its INT4 release; 'Qwen/Qwen3-4B-FP8': the precision its name states
            return {"model": kept_name(self.kb.models[r.id], r.id, text, precision_word(text) is not None)}

    def ask_workload(self, n: int, horizon: int, names: set[str]) -> dict[str, Any]:
        from pydantic import ValidationError

        from ..inputs.job import served_as_published
        from ..inputs.schema import Workload
        from ..plan.schema import Cadence, PlanWorkload, Targets

        self.show(self.w("section_workload", n=n), "bold")
        while True:
            task = self.select("task", [("inference", "task_inference"), ("finetune", "task_finetune"),
                                        ("pretrain", "task_pretrain")], "inference" if n == 1 else "finetune")
            w: dict[str, Any] = {"task": task}
            if task == "finetune":
                w["method"] = self.select("method", [("lora", "method_lora"), ("qlora", "method_qlora"),
                                                     ("full", "method_full")], "lora")
            w.update(self.model_answer())
            entry: dict[str, Any] = {}
            if task == "inference":
                # a model published narrower than 16 bits (gpt-oss MXFP4, DeepSeek-V3 FP8) is offered as published,
                # the default the plan's job takes with no precision; another choice is written
                listed = self.kb.models[self.kb.model(w["model"]).id] if w.get("model") else None
                as_published = served_as_published(listed, w.get("model")) or "bf16"
                precision = self.select("precision", [("bf16", "prec_bf16"), ("fp8", "prec_fp8"),
                                                      ("int4", "prec_int4"), ("fp4", "prec_fp4")], as_published)
                if precision != as_published:
                    w["precision"] = precision
                w["prompt_tokens"] = self.value("prompt", 1000, kind="int", field="prompt_tokens",
                                                check=self.field(Workload, w, "prompt_tokens"))
                w["output_tokens"] = self.value("output", 300, kind="int", field="output_tokens",
                                                check=self.field(Workload, w, "output_tokens"))
                targets: dict[str, Any] = {"requests_per_s": self.value(
                    "rps", 1.0, kind="float", field="requests_per_s", check=self.field(Targets, {}, "requests_per_s"))}
                # the p95 targets at that rate, the workload's own (as a requirements file's: the plan reads them
                # there), in seconds; '500ms' is offered as 0.5 (answers.number_for)
                for key in ("p95_ttft_s", "p95_tpot_s"):
                    p95 = self.value(key, None, kind="float", optional=True, field=key,
                                     check=self.field(Workload, w, key))
                    if p95 is not None:
                        w[key] = p95
                # after a p95 target the max TTFT bounds the estimate at the load, not a percentile: said so
                ttft = self.value("ttft_besides" if "p95_ttft_s" in w else "ttft", None, kind="float",
                                  optional=True, field="max_ttft_ms", check=self.field(Targets, {}, "max_ttft_ms"))
                if ttft is not None:
                    targets["max_ttft_ms"] = ttft
                cadence: dict[str, Any] = {"continuous": True}
                cadence["hours_per_day"] = self.value("hours", 24.0, kind="float", field="hours_per_day",
                                                      check=self.field(Cadence, cadence, "hours_per_day"))
                growth = self.value("growth", 0.0, kind="percent",  # asked in percent: its bounds said in percent
                                    check=self.field(Cadence, dict(cadence), "growth_per_month", scale=100))
                cadence["growth_per_month"] = round(growth / 100, 6)
                cadence["start_month"] = self.value("start", 1, kind="int", check=self.month_check(horizon))
                entry["targets"] = targets
            else:
                tokens = self.value("tokens", 2e8 if task == "finetune" else 2e10, kind="float", field="train_tokens",
                                    check=self.field(Workload, w, "train_tokens"))
                w["train_tokens"] = tokens
                how = self.select("cadence", [("monthly", "cadence_monthly"), ("once", "cadence_once")],
                                  "monthly" if task == "finetune" else "once")
                if how == "once":
                    cadence = {"at_month": self.value("at_month", 1, kind="int", check=self.month_check(horizon))}
                else:
                    cadence = {"per_month": self.value("per_month", 1.0, kind="float", field="per_month",
                                                       check=self.field(Cadence, {}, "per_month"))}
                    start = self.value("start", 1, kind="int", check=self.month_check(horizon))
                    if start != 1:
                        cadence["start_month"] = start
                deadline = self.value("deadline", None, kind="float", optional=True, field="deadline_days",
                                      check=self.field(PlanWorkload, {}, "deadline_days"))
                if deadline is not None:
                    entry["deadline_days"] = deadline
            suggested = _name_for(w, names)
            name = self.value("name", suggested, check=lambda v: (
                self.w("name_used", name=v) if v in names else
                self.field(PlanWorkload, {}, "name")(v)))
            out = {"name": name, "workload": w, "cadence": cadence, **entry}
            try:
                PlanWorkload.model_validate(out)
            except ValidationError as exc:
                self.show("✗ " + self.w("entry_refused", what=name, error=self.explain(exc.errors()[0])), "red")
                continue
            return out

    def ask_constraints(self) -> dict[str, Any]:
        from ..plan.schema import PlanConstraints

        self.show(self.w("section_constraints"), "bold")
        c: dict[str, Any] = {}
        for key, name in (("budget_quarter", "budget_per_quarter_usd"), ("budget_total", "budget_total_usd")):
            v = self.value(key, None, kind="float", optional=True, money=True,
                           check=self.field(PlanConstraints, {}, name))
            if v is not None:
                c[name] = v
        c["acquisition"] = self.select("acquisition", [("either", "way_either"), ("rent", "way_rent"),
                                                       ("buy", "way_buy")], "either")
        if c["acquisition"] != "rent":
            c["hosting"] = self.select("hosting", [("colocation", "host_colocation"), ("office", "host_office"),
                                                   ("datacenter", "host_datacenter")], "colocation")
        c["market"] = self.select("market", [("global", "market_global"), ("china", "market_china")],
                                  "china" if self.currency == "CNY" else "global")
        c["currency"] = self.currency
        return c

    # ---- summary, writing, running
    def summary(self, data: dict[str, Any]) -> Any:
        from rich.markup import escape
        from rich.table import Table

        t = Table(title=self.w("summary_title"), title_justify="left")
        t.add_column(self.w("column_item"))
        t.add_column(self.w("column_value"), style="bold", overflow="fold")
        t.add_row(escape(self.w("l_horizon")), escape(self.w("months", n=data["horizon_months"])))
        for o in data.get("owned") or []:
            row = [self.w("owned_row", count=o["count"], gpu=self._gpu_name(o["gpu"]),
                          hosting=self.w("host_" + o.get("hosting", "office")))]
            if o.get("bought"):
                row.append(self.w("owned_bought", month=o["bought"]))
            if o.get("paid_usd") is not None:
                row.append(self.w("owned_paid", amount=self._show(o["paid_usd"], money=True)))
            t.add_row(escape(self.w("l_owned_gpu")), escape(self._joined(row)))
        for x in data["workloads"]:
            t.add_row(escape(x["name"]), escape(self._describe(x)))
        c = data.get("constraints") or {}
        for key, name in (("budget_quarter", "budget_per_quarter_usd"), ("budget_total", "budget_total_usd")):
            if c.get(name) is not None:
                t.add_row(escape(self.w("l_" + key)), escape(self._show(c[name], money=True)))
        t.add_row(escape(self.w("l_acquisition")), escape(self.w("way_" + c.get("acquisition", "either"))))
        if c.get("hosting"):
            t.add_row(escape(self.w("l_hosting")), escape(self.w("host_" + c["hosting"])))
        if c.get("market"):
            t.add_row(escape(self.w("l_market")), escape(self.w("market_" + c["market"])))
        return t

    def _joined(self, parts: list[str]) -> str:
        """``parts`` as a list in the session's language ("a, b, c"; "a，b，c")."""
        out = parts[0]
        for part in parts[1:]:
            out = self.w("list_pair", a=out, b=part)
        return out

    def _gpu_name(self, g: str) -> str:
        from ..errors import UserError

        try:
            return self.kb.gpus[self.kb.gpu(g).id].name
        except (UserError, KeyError):  # a name the file gave that the catalog lacks: shown as given
            return g

    def _describe(self, x: dict[str, Any]) -> str:
        w, c = x["workload"], x["cadence"]
        model = w.get("model") or self.w("custom_model", size=f"{w.get('params_b', 0):g}")
        method = {"lora": "LoRA", "qlora": "QLoRA", "full": self.w("kind_full")}.get(w.get("method") or "")
        head = self._joined([f"{self.w('kind_' + w['task'])}{' ' + method if method else ''}", model,
                             *([w["precision"]] if w.get("precision") else [])])
        if c.get("continuous"):
            rate = (x.get("targets") or {}).get("requests_per_s")
            how = self.w("continuous", h=f"{c.get('hours_per_day', 24):g}", m=c.get("start_month", 1),
                         req=f"{rate:g}" if rate is not None else "-",
                         g=f"{100 * c.get('growth_per_month', 0):g}")
        elif c.get("at_month") is not None:
            how = self.w("once_at", m=c["at_month"])
        else:
            how = self.w("per_month", n=f"{c['per_month']:g}", m=c.get("start_month", 1))
        more = []
        if x.get("deadline_days") is not None:
            more.append(self.w("deadline_days", d=f"{x['deadline_days']:g}"))
        if w.get("p95_ttft_s") is not None:
            more.append(self.w("p95_ttft_within", s=f"{w['p95_ttft_s']:g}"))
        if w.get("p95_tpot_s") is not None:
            more.append(self.w("p95_tpot_within", s=f"{w['p95_tpot_s']:g}"))
        if (x.get("targets") or {}).get("max_ttft_ms") is not None:
            more.append(self.w("ttft_within", ms=f"{x['targets']['max_ttft_ms']:g}"))
        return "; ".join([head, how, *more])

    def write(self, data: dict[str, Any]) -> None:
        """The plan file, validated whole first, written complete or not at all."""
        from ..errors import N_, UserError
        from ..plan.build import _load
        from ..render.output import atomic_write_text

        _load(data)  # the same check `gpuwise plan` makes; a UserError here is a bug in these questions
        text = render_plan(data)
        try:
            atomic_write_text(self.path, text)
        except OSError as exc:
            raise UserError(N_("cannot write the plan file: %(strerror)s"), where=str(self.path),
                            values={"strerror": exc.strerror or exc}) from None

    def run_plan(self) -> int:
        from ..errors import N_, UserError
        from ..plan.build import plan
        from ..render import plan_view
        from ..render.output import atomic_write_text, report_format

        self.show(self.w("working"))
        with released():  # the work: Ctrl-C ends it at once (.sigint)
            result = plan(str(self.path), knowledge=self.knowledge)  # the file as `gpuwise plan FILE` reads it
        vm = plan_view.view(result, lang=self.lang)
        for line in vm["brief"]:
            self.show("  " + line)
        text = plan_view.render(result, report_format(self.report, None, format_option=False),
                                lang=self.lang)
        try:
            atomic_write_text(self.report, text)
        except OSError as exc:
            raise UserError(N_("cannot write the report: %(strerror)s"), where=str(self.report),
                            values={"strerror": exc.strerror or exc}) from None
        self.show(self.w("report_written", path=self.report))
        return 1 if result.unplaced else 0

    def run(self, existing: dict[str, Any] | None = None) -> int:
        """Ask (or show ``existing``, a plan file already at the path), then write and run it."""
        if existing is not None:
            self.show(self.w("resume", path=self.path), "dim")
        else:
            self.show(self.w("intro"))
        data = existing
        while True:
            if data is None:
                data = self.ask_all()
            self.console.print(self.summary(data))
            menu = ["run_plan", "write_quit", "start_over"]
            got = self.p.select(self.w("ready"), [self.w(m) for m in menu], 0, self.w("tip_select"))
            if got == "?" or menu[got] == "start_over":
                data, existing = None, None
                continue
            if existing is None:
                self.write(data)
            self.written = True
            self.show(self.w("written", path=self.path, opts=_rerun(self.lang, self.knowledge)))
            if menu[got] == "write_quit":
                return 0
            return self.run_plan()


def _name_for(w: dict[str, Any], taken: set[str]) -> str:
    """A default name: the task and the model (``finetune-llama-3.1-8b``), numbered if taken."""
    model = w.get("model") or f"{w.get('params_b', 0):g}b"
    base = f"{'serve' if w['task'] == 'inference' else w['task']}-{model}"[:90]
    name, i = base, 2
    while name in taken:
        name, i = f"{base}-{i}", i + 1
    return name


def render_plan(data: dict[str, Any]) -> str:
    """The plan file's text: a comment saying where it came from, then the YAML, keys in the
    order the format documents."""
    import yaml

    from ..yamlio import safe_load

    head = (f"# A plan written by `gpuwise ask` on {dt.date.today().isoformat()}; "
            "run it with `gpuwise plan FILE` (the format: docs/formats.md, plan files).\n")
    body = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    text = head + body
    if safe_load(text) != data:  # never write what reads back differently
        raise AssertionError("the plan file does not read back as written")
    return text


def run_plan_ask(path: Path, report: Path | None, *, knowledge: str | None, lang: str, currency: str | None,
                 prompter: Any, console: Any, existing: bool = False) -> int:
    """The plan questions (or the plan file at ``path`` when ``existing``): 0 done, 1 some workload
    not placed (as ``gpuwise plan``), 2 bad input, 130 interrupted (nothing written)."""
    from ..knowledge import load
    from .ending import guarded

    texts = load_texts()
    session: PlanAsk | None = None

    def body() -> int:
        nonlocal session, currency
        data = None
        if existing:
            from ..plan.build import _load

            pf = _load(str(path))  # a malformed plan file: exit 2 with its one line
            data = pf.model_dump(mode="json", exclude_unset=True)
            currency = currency or pf.constraints.currency
        session = PlanAsk(load(knowledge), path, report or path.with_name(f"{path.stem}-report.md"),
                          knowledge=knowledge, lang=lang, currency=currency or "USD", prompter=prompter,
                          console=console)
        return session.run(data)

    def interrupted() -> str:
        if session is not None and session.written:
            return texts.get("interrupted_written", lang, path=path, opts=_rerun(lang, knowledge))
        return texts.get("interrupted", lang)

    def held_body() -> int:  # Ctrl-C as a signal between questions: raised where gpuwise asks (.sigint)
        with held():
            return body()

    return guarded(held_body, console=console, interrupted=interrupted, lang=lang)
