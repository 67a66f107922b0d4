"""The pieces every report's view model shares: the currency and units notes, the question as
understood, formulas, findings and blockers, assumptions, knowledge dates, names of options.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ... import messages
from ...results import (
    CORE_STEPS,
    SEVERITIES,
    Candidate,
    Finding,
    FormulaTerm,
    Recommendation,
)
from ...results_serving import RatePoint, ServingOut
from .. import glossary, words
from .. import money_view as MV
from ..fmt import (
    DATE_LABELS,
    HTML_LANG,
    N_,
    SEVERITY_LABELS,
    SEVERITY_ONE,
    STEP_NAMES,
    STEP_SHORT,
    TERM_LABELS,
    TOPIC_LABELS,
    Fmt,
    _flatten,
    _reason,
    input_name,
    input_text,
    money_input,
    operand_number,
    pairs,
    table,
)

if TYPE_CHECKING:
    from ...inputs.requirements import Requirements

MONEY_FIELDS = {"constraints.budget_usd": "", "constraints.electricity_usd_per_kwh": "/kWh",
                "constraints.value_of_a_day_usd": "", "acquisition.unit_price_usd": "", "acquisition.hourly_usd": "/h"}
"""Input fields that hold an amount of money (in the input file's currency), and its unit."""
CURRENCY_WORDS = {"USD": N_("US dollars"), "CNY": N_("yuan")}
RENT_TERMS = {"on-demand": N_("on demand"), "reserved": N_("reserved cluster"), "1-month": N_("1-month reservation"),
              "1-year": N_("1-year commitment"), "3-year": N_("3-year commitment"),
              "commitment": N_("the term the proposal commits to"), "spot": N_("spot"),
              "spot-assumed": N_("spot at an assumed discount off its on-demand price")}
CONDITIONS = {"new": N_("new"), "used": N_("used"), "refurbished": N_("refurbished")}

LEADING = 8
"""How many candidates the per-step tables of a full report show (the best-ranked feasible ones)."""
BRIEF_ALTERNATIVES = 6
"""How many alternatives the brief report's table lists besides the answer and the runner-up."""
FULL_ONLY_ASSUMPTIONS = frozenset({"workload.kv_precision", "workload.parallelism"})
"""Defaults only the full report's assumptions list (its question as understood shows them too): the KV cache's
type, the framework's own for the weights' precision, whose sequences the brief's capacity line counts; a training
split left to gpuwise (the brief's layout line names the split chosen). One more brief line put three briefs past the
two 80 x 40 screens tests/test_terminal_width.py holds them to."""


def _unit_id(entry: Any) -> str:
    """The message id of a price's unit (``unit_phrases``' first part): which words the unit takes, never parsed from
    the English."""
    first = (getattr(entry, "unit_phrases", None) or [None])[0]
    return first[1] if isinstance(first, (list, tuple)) and len(first) > 1 else ""


def _on_gpus(a: Any) -> list[str]:
    """The GPU types an assumption holds on, where it names them (else empty: it holds for the whole job)."""
    gpus = (getattr(a, "values", None) or {}).get("gpus")
    return list(gpus) if isinstance(gpus, (list, tuple)) else []


def _first_sentence(text: str) -> str:
    """A source's first sentence, the citation (the brief report's; the full one quotes it whole)."""
    head = re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(text.split()), maxsplit=1)[0]
    return head



def served_tokens_per_s(c: Any) -> float | None:
    """A serving candidate's output tokens/s in total, None where nothing was served: a layout that does not fit
    in memory has no speed (no per-sequence speed and a total of 0), which a table shows as a dash, not as 0.
    One that does not serve the request rate asked within its p95 targets shows what it serves at the highest rate
    it does (the estimator's ``rate.at_max``), as one that serves the rate shows that rate's; its total at a full
    batch is at latencies the targets rule out (review47: 1,726 tokens/s beside 'serves at most 1.09 requests/s')."""
    rate = c.serving.rate if getattr(c, "serving", None) is not None else None
    if rate is not None and rate.meets_requests_per_s is False:
        return rate.at_max.output_tokens_per_s if rate.at_max is not None else None
    total = c.decode_tokens_per_s_total
    return None if c.decode_tokens_per_s is None and not total else total

class BaseView:
    """Builds the parts of a view model that every kind of report has, in one language and currency."""

    def __init__(self, result: Any, kind: str, f: Fmt, detail: str = "brief", fmt: str = "text"):
        self.r = result
        self.kind = kind
        self.f = f
        self._ = f._
        self.detail = detail
        self.full = detail == "full"
        self.fmt = fmt
        self.sources = self._rule_sources()

    def batch_rounded(self, lay: Any, stated: Any) -> list[list[str]]:
        """A 'Global batch' row where a training layout's step holds more tokens than the batch ``stated`` (a
        number; None: not stated) or, not stated, than the one the result's Assumptions give (:func:`batch_words`).
        The same row in recommend, estimate and audit (product65)."""
        stated = stated if isinstance(stated, int | float) and not isinstance(stated, bool) else None
        assumed = next((a.value for a in getattr(self.r, "assumptions", ()) if a.field == "workload.global_batch_tokens"
                        and isinstance(a.value, int | float)), None)
        said = batch_words(self.f, self._, lay, stated, assumed)
        return [[self._("Global batch"), said]] if said else []

    def stated_batch(self) -> Any:
        """The global batch the input file states, read through its typed schema (recommend's question, an
        estimate's requirements, an audit's proposal): a number, or None where it states none ('auto')."""
        from pydantic import ValidationError

        from ...inputs.proposal import Proposal
        from ...inputs.requirements import Requirements

        q = self.asked()
        if q is None:
            for attr, schema in (("workload", Requirements), ("proposal", Proposal)):
                echo = getattr(self.r, attr, None)
                if not isinstance(echo, dict) or not echo:
                    continue
                try:
                    q = schema.model_validate({k: v for k, v in echo.items() if k in schema.model_fields})
                except ValidationError:
                    q = None
                break
        stated = q.workload.global_batch_tokens if q is not None else None
        return None if stated == "auto" else stated

    def asked(self) -> Requirements | None:
        """The question a recommendation echoes (``question``), typed again by its input schema: what
        the views read of it (the budget, the deadline, the targets). None for a result without one,
        or an echo that is not a question (a hand-made or older JSON file's)."""
        question = getattr(self.r, "question", None)
        if not question:
            return None
        from pydantic import ValidationError

        from ...inputs.requirements import Requirements

        try:
            return Requirements.model_validate({k: v for k, v in question.items() if k in Requirements.model_fields})
        except ValidationError:
            return None

    def _rule_sources(self) -> dict[str, str]:
        """Rule id -> source, from the result itself (its trace and findings): a report needs no
        rule files."""
        out: dict[str, str] = {}
        for entry in [*getattr(self.r, "trace", []), *getattr(self.r, "findings", [])]:
            if entry.source and entry.rule not in out:
                out[entry.rule] = self.f.cite(entry.source)
        return out

    def currency_note(self) -> str:
        """Which currency the amounts are in, at what rate, of what date, from what source."""
        f = self.f
        cur = f.cur
        if cur.code == "USD":
            return self._("Amounts are in US dollars.")
        if cur.given:
            return self._("Amounts are in Chinese yuan at %(rate)s CNY per USD, the rate given for this "
                          "report.", rate=format(cur.rate, "g"))
        if not self.full:
            return self._("Amounts are in Chinese yuan at %(rate)s CNY per USD (as of %(date)s; source: "
                          "%(source)s).", rate=format(cur.rate, "g"), date=cur.as_of or f.na(),
                          source=_first_sentence(cur.source))
        # the source as a citation; what to do about the rate is the report's own sentence, in its language
        cited = re.sub(r"\s*Refresh it\b[^.]*\.\s*$", "", " ".join(cur.source.split()))
        return f.join([self._("Amounts are in Chinese yuan at %(rate)s CNY per USD (as of %(date)s; source: "
                              "%(source)s).", rate=format(cur.rate, "g"), date=cur.as_of or f.na(), source=cited),
                       self._("Check the rate before quoting these amounts; --fx-rate sets another.")])

    def currency_short(self) -> str:
        """The rate and its date alone (the source is in the full report): the last thing a brief
        text answer gives up to fit two 80 × 40 screens."""
        cur = self.f.cur
        if cur.code == "USD" or cur.given:
            return ""
        return self._("Amounts in CNY at %(rate)s CNY per USD (%(as_of)s).", rate=format(cur.rate, "g"),
                      as_of=cur.as_of or self.f.na())

    def base(self) -> dict[str, Any]:
        f = self.f
        cur = f.cur
        note = self.currency_note()
        command = {"recommend": "gpuwise recommend", "audit": "gpuwise audit"}.get(self.kind, "gpuwise")
        return {
            "kind": self.kind, "lang": f.lang, "html_lang": HTML_LANG[f.lang], "detail": self.detail,
            "full": self.full,
            "currency": {"code": cur.code, "rate": f"{cur.rate:g}", "as_of": cur.as_of, "source": cur.source,
                         "note": note, "short": self.currency_short()},
            "units_note": self._("GB = 10^9 bytes. Times are wall-clock unless marked GPU-hours."),
            # the terms the report uses, at its end (an HTML brief report holds the full one's sections)
            "glossary": {"title": self._("Glossary"),
                         "entries": glossary.entries(self._) if self.full or self.fmt == "html" else []},
            "more": "" if self.full else self._("This is the brief report. Every formula, candidate, finding and "
                                                "rule, and a glossary of the terms: %(command)s ... --detail full.",
                                                command=command),
        }

    def question(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The question as understood: every given field, and each default marked with its reason."""
        # every assumption a field has, in order: workload.model's name reading (name.alias, name.packaged) beside
        # its sparse attention's note was lost when the last one alone was kept
        assumed: dict[str, list[Any]] = {}
        for a in getattr(self.r, "assumptions", []):
            assumed.setdefault(a.field, []).append(a)
        rows, seen = [], set()
        for field, value in _flatten(data):
            said = assumed.get(field, [])
            # the value is the job's: an assumption naming the GPUs it holds on (a published checkpoint served in
            # 16 bits where the engine has no kernels for it) is an exception beside it, not the value (review54:
            # gpt-oss-120b's question read 'workload.precision: bf16', the Gaudis', where it is served in fp4)
            whole = [x for x in said if not _on_gpus(x)]
            a = whole[-1] if whole else (said[-1] if said else None)
            if value is None and a is None:
                continue
            seen.add(field)
            shown = value if a is None or a.value is None else a.value
            rows.append({"field": field, "value": self.value_shown(field, shown, given=a is None or a.value is None),
                         "assumed": a is not None, "reason": self.f.clause.join(self.assumption(x) for x in said)})
        for field, said in assumed.items():
            # the file gave the architecture, listed field by field above: not a default
            said = [x for x in said if getattr(x, "message_id", "") != "assume.shape_given"]
            if said and field not in seen:
                rows.append({"field": field, "value": self.value_shown(field, said[-1].value, given=False),
                             "assumed": True, "reason": self.f.clause.join(self.assumption(x) for x in said)})
        return rows

    def value_shown(self, field: str, value: Any, *, given: bool) -> str:
        """A field's value as the report shows it. An amount of money is in the report's currency; one
        the input file wrote in another currency is quoted as written, and says so. The question's
        amounts are in USD whatever the file wrote (inputs/money.py converts them at load), so the
        file's own figure is the USD amount at the result's rate."""
        unit = MONEY_FIELDS.get(field)
        if unit is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            return input_text(value)
        info = getattr(self.r, "currency", None)
        wrote = str(getattr(info, "asked", "USD")) if given else "USD"  # a default is in USD
        usd = float(value)
        f = self.f
        local = (f.money_exact(usd) if f.to_local(usd) is not None and abs(f.to_local(usd) or 0) < 100
                 else f.money(usd)) + unit
        if wrote == f.cur.code or not given:  # a default is stated in the report's currency
            return local
        written = float(f"{usd * float(getattr(info, 'usd_cny', 1.0) or 1.0) if wrote == 'CNY' else usd:.9g}")
        return self._("%(amount)s %(currency)s as the file writes it (%(local)s)",
                      amount=f"{int(written):,}" if written.is_integer() else f"{written:,.6g}",
                      currency=self._(CURRENCY_WORDS[wrote]), local=local)

    def assumption(self, a: Any) -> str:
        """An assumption's reason in this language (its sentence template when it has one)."""
        if a.template:  # the sentence as the catalog words it, without its own "default:" either
            return _reason(self.f.sentence(a.template, a.values, _reason(a.reason)))
        return " ".join(_reason(a.reason).split())  # no message id: shown as it came

    def rules_of(self, ids: Iterable[str]) -> list[dict[str, str]]:
        return [{"id": i, "source": self.sources.get(i, "")} for i in dict.fromkeys(ids)]

    def term(self, t: FormulaTerm, peak: str = "") -> dict[str, str]:
        """A formula with its value, its inputs and the formula with the numbers put in. A memory part
        that is 0 at the peak while its formula is not (gradients freed before the peak, say) says so."""
        label = self._(TERM_LABELS[t.name]) if t.name in TERM_LABELS else t.name
        value = self.f.quantity(t.value, t.unit)
        # a training layout's dp counts its context-parallel GPUs too (tp x pp x dp = GPUs) where the Layout row
        # says DP alone (CP 2 x DP 36 on 72): beside cp > 1 it is named as the product it is (review64's Left)
        cp, dp = t.inputs.get("cp"), t.inputs.get("dp")
        joint = (isinstance(cp, int) and isinstance(dp, int) and not isinstance(dp, bool) and cp > 1
                 and dp % cp == 0)
        named = {"dp": "operand.dp_cp"} if joint else None
        if t.formula_phrases:  # message ids with values: worded in this language, operands by their numbers
            formula = words.formula_parts(t.formula_phrases, self.f, named=named)
            shown = words.formula_parts(t.formula_phrases, self.f,
                                        lambda name: operand_number(name, t.inputs, self.f.money_exact,
                                                                    self.f.rate_exact), named)
            with_numbers = shown if shown != formula else ""
        else:  # a formula from a result without its parts (an older JSON file): as written, no word translated
            formula, with_numbers = words.plain(t.formula, self.f), ""  # its English is not read for operands
        trivial = not t.inputs  # a part a model never keeps ("training keeps no KV cache") has no inputs
        if t.unit == "B" and t.value == 0 and not trivial:
            value = (self._("0 GB at the peak (%(phase)s)", phase=peak) if peak else self._("0 GB at the peak"))
        return {
            "name": t.name, "label": label, "formula": formula, "with_numbers": with_numbers,
            "inputs": self.f.sep.join(self.dp_cp_shown(dp, cp) if joint and k == "dp"
                                      else f"{input_name(k, self.f.cur.code)} = "
                                      f"{self.input_shown(k, v, t.input_phrases.get(k))}"
                                      for k, v in t.inputs.items()),
            "value": value, "note": words.phrase(t.note_phrases, self.f) if t.note_phrases else t.note,
        }

    def dp_cp_shown(self, dp: int, cp: int) -> str:
        """A layout's ``dp`` that counts its context-parallel GPUs, as its factors: "dp × cp = 36 × 2 = 72",
        the data-parallel replicas as the Layout row names them (DP 36) times CP."""
        name = words.times(self._(messages.template("operand.dp_cp"))).strip("()（）")
        return f"{name} = {dp // cp:,} × {cp:,} = {dp:,}"

    def input_shown(self, key: str, v: Any, parts: Any = None) -> str:
        """A formula's input: a number as written, one gpuwise words from its message ids (``parts``:
        a layout label) in the report's language, any other text as written (a source quoted)."""
        if parts:
            return words.said(parts, self.f)
        if money_input(key) and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            # an amount in the report's money and house style, as the line with the numbers has it (review47: a
            # yuan audit's buy inputs read 'capex = 7.704e+04, host_usd = 64,000' beside CN¥ figures)
            local = self.f.to_local(v) or 0.0
            if key == "usd_per_hour":  # as the formula with the numbers writes it
                return self.f.rate_exact(v) + "/h"
            return self.f.money_exact(v) if 0 < abs(local) < 100 else self.f.money(v)
        return words.input_value(key, input_text(v), self.f) if isinstance(v, str) else input_text(v)

    def evidence_name(self, key: str, v: Any) -> str:
        """A finding's evidence key: an amount shown in the report's money is named for it, as a formula's is."""
        shown_as_money = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0
        return input_name(key, self.f.cur.code) if shown_as_money else key

    def evidence_shown(self, key: str, v: Any, values: dict[str, Any]) -> str:
        """A finding's evidence value: a phrase of the estimators (a link) in the report's words."""
        if isinstance(v, str) and (key in words.VALUE_WORDS or f"{key}_phrases" in values):
            if words.worded(key, v, values) or words.VALUE_WORDS.get(key) == "strategy":
                return str(words.value(key, v, values, self.f))  # a bare layout label is symbols: as it came
            # a phrase that came without its parts is the evidence as recorded: quoted in another
            # language, unless it is one word (an id such as ethernet-25)
            return self.f.cite(v) if len(v.split()) > 1 else v
        if money_input(key) and isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) \
                and v >= 0:  # an amount in the report's money, as a formula's input is (-1: none known, as written)
            return self.input_shown(key, v)
        return input_text(v)

    def counted(self, findings: list[Finding], scope: str = "") -> str:
        """'0 blockers, 3 warnings, 2 notes', after what they are about where the report counts two sets (review52:
        a recommendation's brief counted the answer's 4 warnings, its full report every candidate's 7, unlabelled)."""
        n = {s: sum(1 for x in findings if x.severity == s) for s in SEVERITIES}
        counts = self.f.sep.join([self.f.ngettext("%(n)s blocker", "%(n)s blockers", n["blocker"]),
                                  self.f.ngettext("%(n)s warning", "%(n)s warnings", n["warning"]),
                                  self.f.ngettext("%(n)s note", "%(n)s notes", n["info"])])
        return self._("%(scope)s: %(counts)s", scope=self._(scope), counts=counts) if scope else counts

    def findings(self, findings: list[Finding], scope: str = "") -> dict[str, Any]:
        groups = []
        for sev in SEVERITIES:
            items = [self.finding(x) for x in findings if x.severity == sev]
            if items:
                groups.append({"severity": sev, "label": self._(SEVERITY_LABELS[sev]), "entries": items})
        return {"groups": groups, "count": len(findings), "summary": self.counted(findings, scope),
                "none": self._("No findings.")}

    def issues(self, findings: list[Finding], first: str = "", scope: str = "") -> dict[str, Any]:
        """Blockers and warnings for the brief report, each said once: findings of one rule with the
        same fix are one entry, its sentence written for the first subject (``first``, the answer's
        or the proposal's GPU, when it is one of them) and the others named."""
        findings = sorted(findings, key=lambda x: x.subject != first) if first else findings
        groups = []
        for sev in ("blocker", "warning"):
            merged: dict[tuple[str, str], dict[str, Any]] = {}
            firsts: list[Finding] = []  # each entry's first finding
            for x in findings:
                if x.severity != sev:
                    continue
                fix = self.f.sentence(x.fix_template, x.values, x.fix)
                entry = merged.get((x.rule, fix))
                # a price is named by its parts in this language (price.what.*), not by the English subject
                what = x.values.get("what_phrases")
                name = (words.said(what, self.f) if what else
                        str(x.values.get("gpu_name") or x.evidence.get("gpu_name") or x.subject or ""))
                if entry is None:
                    merged[(x.rule, fix)] = {"rule": x.rule, "severity": sev, "topic": x.topic,
                                             "message": self.f.sentence(x.template, x.values, x.message),
                                             "fix": fix, "names": [name], "also": "",
                                             "label": self._(SEVERITY_ONE[sev])}
                    firsts.append(x)
                elif name and name not in entry["names"]:
                    entry["names"].append(name)
            entries = list(merged.values())
            for e, x in zip(entries, firsts, strict=True):
                others = [n for n in e["names"][1:] if n]
                if others:
                    e["also"] = self._("The same for: %(names)s.", names=self.f.sep.join(others))
                elif isinstance(rejected := x.evidence.get("candidates_rejected"), int):  # no answer: a rule's count
                    e["also"] = self.f.ngettext("It rejected %(n)s candidate (GPU types: %(types)s).",
                                                "It rejected %(n)s candidates (GPU types: %(types)s).", rejected,
                                                types=x.evidence.get("gpu_types_rejected", 0))
            if entries:
                groups.append({"severity": sev, "label": self._(SEVERITY_LABELS[sev]), "entries": entries})
        notes = sum(1 for x in findings if x.severity == "info")
        flat = [e for g in groups for e in g["entries"]]
        # past the first i said: 'N more'; none said, not 'more' (review53: a brief read '3 more in the full report'
        # under a heading counting 3 warnings and none shown)
        rest = [self.f.ngettext("%(n)s more in the full report: %(rules)s.",
                                "%(n)s more in the full report: %(rules)s.", len(flat) - i,
                                rules=self.f.sep.join(counted_rules(e["rule"] for e in flat[i:]))) if i else
                self._("In the full report: %(rules)s.", rules=self.f.sep.join(counted_rules(e["rule"] for e in flat)))
                for i in range(len(flat))]
        return {"groups": groups, "summary": self.counted(findings, scope), "entries": flat, "rest": [*rest, ""],
                "cap": len(flat),
                # a stale price is named here (said, or in the rest's rule ids): the brief's last step leaves out
                # the banner that says so again
                "freshness_named": any(e["topic"] == "data-freshness" for e in flat),
                # an audit's blockers are all said; a recommendation's are about options it did not choose
                "floor": sum(1 for e in flat if e["severity"] == "blocker") if self.kind == "audit" else 0,
                "none": self._("No blockers and no warnings."),
                "notes": "" if self.full or not notes else self.f.ngettext(
                    "%(n)s note (information only) is in the full report.",
                    "%(n)s notes (information only) are in the full report.", notes)}

    def assumptions(self) -> dict[str, Any]:
        """The defaults and assumptions the answer rests on, one line each (the brief leaves out those
        :data:`FULL_ONLY_ASSUMPTIONS` names: the full report lists them)."""
        rows = []
        for a in getattr(self.r, "assumptions", []):
            if not self.full and a.field in FULL_ONLY_ASSUMPTIONS:
                continue
            value = self.value_shown(a.field, a.value, given=False) if a.value is not None else ""
            gpus = _on_gpus(a)
            # a value that holds on some GPUs only says so in the brief's list, which has no reasons to say it
            scoped = self.f.ngettext("%(value)s on %(n)s GPU type", "%(value)s on %(n)s GPU types", len(gpus),
                                     value=value) if value and gpus else value
            rows.append({"field": a.field, "value": value, "scoped": scoped, "reason": self.assumption(a)})
        given = [f"{r['field']} = {r['scoped']}" if r["value"] else r["field"] for r in rows]
        return {"rows": rows,
                "brief": self._("Assumed (the reasons are in the full report): %(list)s.",
                                list=self.f.clause.join(given)) if given else "",
                "table": table([self._("Field"), self._("Value"), self._("Why")],
                               [[r["field"], r["value"], r["reason"]] for r in rows])}

    def answer_key(self) -> str | None:
        """The candidate key of the configuration the result chose (a recommendation's answer), else None."""
        rec = getattr(self.r, "recommendation", None)
        return f"{rec.gpu}x{rec.count}:{rec.acquisition}" if rec is not None else None

    def another(self, x: Finding) -> bool:
        """A finding about a candidate other than the answer (another count or way of acquiring its GPU)."""
        answer = self.answer_key()
        return bool(answer and x.candidate and x.candidate != answer)

    def finding_subject(self, x: Finding) -> str:
        """What a finding is about as the full report heads it: a price by what it prices (as the sentence words
        it, price.what.*); a candidate other than the answer by its configuration, said not to be the answer."""
        if x.values.get("what_phrases") and x.subject == x.values.get("what"):
            return words.said(x.values["what_phrases"], self.f)
        if self.another(x):
            c = next((c for c in getattr(self.r, "candidates", []) if f"{c.gpu}x{c.count}:{c.acquisition}" ==
                      x.candidate), None)
            if c is not None:
                return self._("%(option)s, %(mode)s: not the answer", option=self.candidate_name(c),
                              mode=self.f.acquisition(c.acquisition))
        return x.subject

    def finding(self, x: Finding) -> dict[str, str]:
        return {
            "rule": x.rule, "severity": x.severity, "severity_label": self._(SEVERITY_ONE[x.severity]),
            "topic": self._(TOPIC_LABELS[x.topic]) if x.topic in TOPIC_LABELS else x.topic,
            "subject": self.finding_subject(x),
            "message": self.f.sentence(x.template, x.values, x.message),
            "fix": self.f.sentence(x.fix_template, x.values, x.fix),
            "source": self.f.cite(x.source),
            "evidence": self.f.sep.join(f"{self.evidence_name(k, v)} = "
                                        f"{self.evidence_shown(k, v, {**x.values, **x.evidence})}"
                                        for k, v in x.evidence.items()),
        }

    def reasons(self, c: Candidate) -> list[str]:
        """Why a candidate is out, in this language and currency."""
        if c.reason_sentences:
            return [self.f.sentence(s.template, s.values, s.text) for s in c.reason_sentences]
        return [" ".join(r.split()) for r in c.reasons]

    def short_reasons(self, c: Candidate) -> list[str]:
        """:meth:`reasons` for a line that names the candidate already: a sentence that opens with
        it ("2 x NVIDIA A10 24GB: ...") is written without that opening."""
        if c.reason_sentences:
            return [self.f.sentence(s.template, s.values, s.text, subject=c) for s in c.reason_sentences]
        return self.reasons(c)

    def knowledge(self) -> dict[str, Any]:
        dates = [{"label": self._(DATE_LABELS[k]) if k in DATE_LABELS else k, "date": str(v)}
                 for k, v in self.r.knowledge_dates.items()]
        stale = []
        for s in getattr(self.r, "stale_prices", []) or []:
            what = words.said(s.what_phrases, self.f) if s.what_phrases else s.what
            age = format(s.age_days, ",.0f")
            # another option's price is said to be one (review61: a Markdown brief listed the runner-up's old host
            # share under the answer's 'Price used', as if the answer rested on it)
            stale.append(self._("%(what)s, another option's: price as of %(as_of)s, %(age)s days old; check it "
                                "before relying on it.", what=what, as_of=s.as_of, age=age) if s.answer is False
                         else self._("%(what)s: price as of %(as_of)s, %(age)s days old; check it before "
                                     "relying on it.", what=what, as_of=s.as_of, age=age))
        # the text brief counts the answer's own (a price not told apart counts as the answer's) and the other
        # options' apart: the full report's Data freshness lists both
        others = sum(1 for s in getattr(self.r, "stale_prices", []) or [] if s.answer is False)
        own = len(stale) - others
        span = [str(v) for v in self.r.knowledge_dates.values()]
        prices = self.prices_used(brief=not self.full)
        return {"dates": dates, "stale": stale, "prices": prices,
                "house": house_lines(getattr(self.r, "house_rules", None), self._),
                "prices_line": self._("Prices used: %(list)s.", list=self.f.clause.join(prices)) if prices else "",
                "span": self._("Figures dated %(first)s to %(last)s.", first=min(span), last=max(span))
                if span else "",
                # out of date by its kind's limit (a price after a year, an exchange rate after a quarter)
                # the answer's own and the other options' apart, as the brief text says them (review61: a Markdown
                # and HTML report said '1 price used here is out of date' of the runner-up's host share alone)
                "stale_banner": " ".join(x for x in (self.f.ngettext(
                    "%(n)s price used here is out of date; see Data freshness.",
                    "%(n)s prices used here are out of date; see Data freshness.", own) if own else "",
                    self.f.ngettext(
                    "%(n)s price of another option is out of date; see Data freshness.",
                    "%(n)s prices of other options are out of date; see Data freshness.", others)
                    if others else "") if x),
                # a brief text lists them in its full report alone (two screens)
                "stale_banner_brief": " ".join(x for x in (self.f.ngettext(
                    "%(n)s price used here is out of date; the full report's Data freshness names it.",
                    "%(n)s prices used here are out of date; see the full report's Data freshness.",
                    own) if own else "", self.f.ngettext(
                    "%(n)s price of another option is out of date; the full report's Data freshness names it.",
                    "%(n)s prices of other options are out of date; see the full report's Data freshness.",
                    others) if others else "") if x)}

    def prices_used(self, brief: bool = False) -> list[str]:
        """The prices the answer rests on, each with its date and age (the result's prices_used),
        worded in this language, in the report's currency. The brief leaves out a proposal's own
        figures (undated: the user's) and the audit alternative's (the full report has them)."""
        out = []
        # the prices a data-freshness rule called stale, by kind and date (price.what.rent -> rent): the brief says so
        # beside each one's age with the banner's '!' (review63: its line gave '858 days old' and no word of which were
        # out of date; the full report lists them apart, each with '!'; a longer word took a brief past 80 lines)
        stale = {(str(s.what_phrases[0][1]).rsplit(".", 1)[-1], s.as_of)
                 for s in getattr(self.r, "stale_prices", None) or [] if s.what_phrases}
        for e in getattr(self.r, "prices_used", None) or []:
            if brief and (e.alternative or not e.as_of):
                continue
            kind, cur, amount = e.kind, e.currency, e.amount
            rate = getattr(getattr(self.r, "currency", None), "usd_cny", None)
            if amount is None:
                shown = self.f.na()
            elif kind == "fx":
                shown = f"{amount:.4f}"
            elif cur == "CNY" and self.f.cur.code == "CNY":
                shown = self.f.local(amount)
            else:  # in the report's one currency (a yuan price converted at the answer's dated rate)
                shown = self.f.money2(amount if cur == "USD" else amount / rate if rate else None)
            if kind == "rent":
                term = self._(RENT_TERMS[e.term]) if e.term in RENT_TERMS else (e.term or "")
                inst = (e.instance or "").removeprefix(f"{e.provider}:")  # an imported offer's id: provider:instance
                where = " ".join(x for x in (self.f.provider(e.provider), inst) if x)
                what = (self._("rent %(gpu)s on %(provider)s, %(term)s", gpu=e.gpu, provider=where, term=term)
                        if brief else
                        self._("rent %(gpu)s on %(provider)s, %(term)s: %(amount)s per GPU-hour", gpu=e.gpu,
                               provider=where, term=term, amount=shown))
            elif kind == "buy":
                cond = self._(CONDITIONS[e.condition]) if e.condition in CONDITIONS else e.condition
                what = (self._("buy %(gpu)s, %(condition)s", gpu=e.gpu, condition=cond) if brief else
                        self._("buy %(gpu)s, %(condition)s: %(amount)s per system", gpu=e.gpu, condition=cond,
                               amount=shown) if _unit_id(e) == "price.unit.system" else
                        self._("buy %(gpu)s, %(condition)s: %(amount)s per card", gpu=e.gpu, condition=cond,
                               amount=shown) if (e.unit_gpus or 1) == 1 else
                        self._("buy %(gpu)s, %(condition)s: %(amount)s per %(n)s GPUs", gpu=e.gpu,
                               condition=cond, amount=shown, n=e.unit_gpus))
            elif kind == "host":
                what = self._("host server") if brief else self._("host server: %(amount)s per GPU", amount=shown)
            else:  # fx
                what = (self._("USD to CNY rate") if brief else
                        self._("exchange rate: %(amount)s CNY per USD", amount=shown))
            if e.alternative:
                what = self._("alternative: %(what)s", what=what)
            age = e.age_days
            # the user's own figures have no source to name; the rate's is in the currency line below
            own = e.kind == "fx" or e.source == messages.template("source.proposal")
            line = (self._("%(what)s (%(as_of)s, %(age)s days old!)", what=what, as_of=e.as_of,
                           age=format(age, ",.0f")) if e.as_of and isinstance(age, (int, float))
                    and brief and (e.kind, e.as_of) in stale  # the full report lists them apart, each with '!'
                    else self._("%(what)s (%(as_of)s, %(age)s days old)", what=what, as_of=e.as_of,
                                age=format(age, ",.0f")) if e.as_of and isinstance(age, (int, float))
                    else self._("%(what)s (the proposal's own price)", what=what)
                    if e.source == messages.template("source.proposal")  # the user's figure: no date to give
                    else self._("%(what)s (the rate given with --fx-rate)", what=what)
                    if e.kind == "fx" and e.source == messages.template("source.fx_given")
                    else self._("%(what)s (undated)", what=what))
            # the full report names where each dated figure comes from (the price page, the price list)
            out.append(line if brief or own or not e.source else
                       self._("%(price)s; source: %(source)s", price=line, source=self.f.cite(e.source)))
        return out

    def trace_table(self) -> dict[str, Any] | None:
        trace = getattr(self.r, "trace", [])
        if not trace:
            return None
        rows = [[e.rule, self._(STEP_NAMES[e.step]) if e.step in STEP_NAMES else e.step,
                 self.f.sentence(e.template, e.values, e.conclusion), self.f.cite(e.source)] for e in trace]
        return table([self._("Rule"), self._("Step"), self._("Conclusion"), self._("Source")], rows)

    def request_rate(self, sv: ServingOut | None) -> str:
        """The serving model's answer to a request rate with p95 targets: the highest rate served within them
        and, when a rate was asked, its p95 latencies ("" when the job stated no rate or targets)."""
        rate = sv.rate if sv is not None else None
        if rate is None or not rate.model:
            return ""
        f = self.f
        at = rate.at_requests_per_s
        t = rate.targets
        if t is not None and t.p95_ttft_s is None and t.p95_tpot_s is None:  # no target: it read 'within the
            # p95 targets' where none was given; the bound is the queue's (the rate a full scheduler keeps up with)
            text = self._("at most %(max)s requests/s before the queue grows without bound (no p95 target given)",
                          max=f.num(rate.max_requests_per_s, 2))
        else:
            text = self._("at most %(max)s requests/s within the p95 targets", max=f.num(rate.max_requests_per_s, 2))
        top = rate.at_max
        said_at = bool(rate.requests_per_s and at is not None and at.stable and at.prefill_copies)
        if top is not None and top.prefill_copies and (not said_at or (at.prefill_copies, at.decode_copies)
                                                       != (top.prefill_copies, top.decode_copies)):
            # disaggregated serving: the split of the copies the highest rate is reached with, where the rate asked
            # has no split of its own to say (review57: the reports never said how the copies were split)
            text = f.clause.join([text, self.copies_split(top)])
        if rate.requests_per_s and at is not None and not at.stable:  # above what it serves: no p95 exists (it
            # printed 'p95 first token n/a' beside a finite per-token figure)
            text = f.clause.join([text, self._("at %(rate)s requests/s more arrive than it serves (the wait has no "
                                               "bound)", rate=f.num(rate.requests_per_s, 2))])
        elif rate.requests_per_s:
            text = f.clause.join([text, self._(
                "at %(rate)s requests/s: p95 first token %(ttft)s, p95 per token %(tpot)s",
                rate=f.num(rate.requests_per_s, 2), ttft=f.seconds(at.p95_ttft_s if at else None),
                tpot=f.seconds(at.p95_tpot_s if at else None))])
            if said_at:
                text = f.clause.join([text, self.copies_split(at)])
        return text

    def copies_split(self, point: RatePoint) -> str:
        """How disaggregated serving splits its copies at a rate: those that prefill, those that decode."""
        return self._("the copies split %(prefill)s for prefill, %(decode)s for decode",
                      prefill=point.prefill_copies, decode=point.decode_copies)

    def gpus_on_nodes(self, count: int, nodes: int) -> str:
        gpus = self.f.ngettext("%(n)s GPU", "%(n)s GPUs", count)
        return self.f.ngettext("%(gpus)s on %(n)s node", "%(gpus)s on %(n)s nodes", nodes, gpus=gpus)

    def tagged(self, name: str, role: str) -> str:
        """A name with its role in brackets: "4 × RTX 3090 (proposed)", "4 × RTX 3090（原方案）"."""
        return self._("%(name)s (%(role)s)", name=name, role=role) if role else name

    def candidate_name(self, c: Candidate | Recommendation) -> str:
        name = c.gpu_name or c.gpu
        return f"{c.count} × {name}"

    def changes(self, c: Candidate) -> str:
        """What gpuwise changes in the layout the question wrote, in this language (from the parts;
        a result without them shows its English list)."""
        if c.strategy_changes_phrases:
            return words.phrase(c.strategy_changes_phrases, self.f)
        return "; ".join(c.strategy_changes)

    def strategy(self, c: Candidate | Recommendation) -> str:
        """A candidate's layout in the report's language ("one GPU", not "plain data parallel")."""
        return self.f.strategy(c.strategy, c.count, c.strategy_phrases)

    def acquired(self, c: Candidate) -> str:
        """How a configuration is had: "buy", or "rent, from azure"."""
        how = self.f.acquisition(c.acquisition)
        if c.acquisition == "rent" and c.provider:
            how = self._("%(mode)s, from %(where)s", mode=how, where=self.f.provider(c.provider))
        return how

    def option_line(self, c: Candidate, who: str) -> str:
        """One configuration in a line: "The proposal: 4 × RTX 3090, buy: 3.2 days, $9,000 (not feasible)"."""
        f = self.f
        how = self.acquired(c)
        # a service's output tokens/s as the table beside the line gives them: at the highest rate it serves within
        # its p95 targets where it misses the rate asked (review55: 'The proposal: 8 x H200 ...: 1,800 output
        # tokens/s in total' above the table's 1,504 for 8 x H200 serving DeepSeek-V3 at 2.51 of 3 requests/s)
        served = served_tokens_per_s(c) if c.wall_days is None else None
        time = (f.days(c.wall_days) if c.wall_days is not None else
                self._("%(n)s output tokens/s in total", n=f.num(served, 0)) if served is not None else f.na())
        return self._("%(who)s: %(name)s, %(how)s: %(time)s, %(cost)s (%(status)s)", who=who,
                      name=self.candidate_name(c), how=how, time=time, cost=MV.total_said(f, self._, c),
                      status=self._("feasible") if c.feasible else self._("not feasible"))

    def host_floor(self, terms: Iterable[FormulaTerm]) -> str:
        """The sentence that says a release's host floor sets the decode step (the estimator's per-sequence speed
        term carries it: its ``formula.serving.host_floor`` part, the GPU's step and the floor); "" where the
        GPU's own step is the step."""
        for t in terms:
            said = next((v for _, mid, v in t.formula_phrases if mid == "formula.serving.host_floor"), None)
            if said is not None and "host_floor_s" in t.inputs and "gpu_step_s" in t.inputs:
                f = self.f
                return self._("each decode step lasts %(step)s ms, the host floor of %(framework)s %(version)s, "
                              "which schedules each step synchronously (%(source)s); the GPU's own step is "
                              "%(gpu)s ms", step=f.num(t.inputs["host_floor_s"] * 1e3, 1), framework=said["fw"],
                              version=said["version"], source=said["source"],
                              gpu=f.num(t.inputs["gpu_step_s"] * 1e3, 1))
        return ""

    def decision(self) -> dict[str, Any]:
        """The four steps in one line each (the chosen candidate's, or the proposal's, conclusions),
        and how the candidates were ranked."""
        rows = []
        for sid in CORE_STEPS:
            s = next((x for x in self.r.steps if x.step == sid), None)
            if s is None or not (s.conclusion or s.template):
                continue
            text = self.f.sentence(s.template, s.values, s.conclusion)
            subject = getattr(self.r, "recommendation", None) or getattr(self.r, "proposed", None)
            short = (self.f.sentence(s.template, s.values, s.conclusion, subject=subject) if subject is not None
                     else text)
            floor = self.host_floor(s.terms)  # the release's host floor sets the speed: said beside it
            if floor:
                text, short = self.f.clause.join((text, floor)), self.f.clause.join((short, floor))
            # the brief has no 'Cost, line by line': the cost line says the rental's lines, so that the price a
            # GPU-hour and the GPU-hours of training beside it are seen not to be the whole total (plansolve62)
            parts = MV.parts_said(self.f, self._, getattr(subject, "ledger", None)) if sid == "tco" else ""
            if parts:
                text, short = self.f.clause.join((text, parts)), self.f.clause.join((short, parts))
            rows.append({"title": self._(STEP_SHORT[sid]), "text": text,
                         # the brief names the answer (or the proposal) above: its lines need not repeat it
                         "short": short})
        rank = getattr(self.r, "ranking", None)
        tie = getattr(self.r, "ranking_note", None)
        return {"steps": rows, "lines": pairs([[r["title"], r["text"]] for r in rows]),
                "short_lines": pairs([[r["title"], r["short"]] for r in rows]),
                "ranking": self.f.sentence(rank.template, rank.values, rank.text) if rank and self.kind == "recommend"
                else "",
                "tie": self.f.sentence(tie.template, tie.values, tie.text) if tie else ""}


def counted_rules(rules: Any) -> list[str]:
    """Rule ids in first-seen order, each once, a repeated one with its count ('PLAN-OWNED-CANNOT-RUN (2)'): the
    brief names the findings it leaves out by rule, and a rule that fired for several workloads is one name."""
    seen: dict[str, int] = {}
    for r in rules:
        seen[r] = seen.get(r, 0) + 1
    return [r if k == 1 else f"{r} ({k})" for r, k in seen.items()]



def house_lines(house: Any, _: Any) -> list[str]:
    """What the house rules of ``--rules DIR`` did to the rule base, said in the report as the contract asks ('a
    house rule may replace a built-in rule by id, and the output says so'): the rules added, the built-in rules
    replaced. ``[]`` without house rules."""
    if house is None:
        return []
    out = []
    if house.added:
        out.append(_("House rules from %(dir)s added: %(ids)s.", dir=house.directory, ids=", ".join(house.added)))
    if house.replaced:
        out.append(_("House rules from %(dir)s that replace the built-in rule of the same id: %(ids)s.",
                     dir=house.directory, ids=", ".join(house.replaced)))
    return out


def batch_words(f: Fmt, _: Any, lay: Any, stated: float | None, assumed: float | None) -> str:
    """Where a training layout's step (``lay``: its dp, cp, grad_accum, micro_batch and global_batch_tokens, a
    TrainingLayout's or a StepBatch's names) holds more tokens than the batch ``stated``, else ``assumed``: every
    replica takes whole micro-batches, so 4,194,304 tokens (512 sequences of 8,192) on 36 replicas are 15
    accumulation steps, 540 sequences, 4,423,680 tokens, 5.5% more (review62); '' where it does not. The words
    recommend, estimate, audit and plan say (product65)."""
    asked = stated if stated is not None else assumed
    tokens = lay.global_batch_tokens
    if not asked or not tokens or tokens <= asked * (1 + 1e-6):
        return ""
    replicas = lay.dp // lay.cp if lay.cp > 1 else lay.dp
    msg = (N_("%(tokens)s tokens a step, %(pct)s more than the %(asked)s stated: the %(replicas)s replicas take "
              "whole micro-batches, %(replicas)s × %(accum)s × %(mb)s = %(seqs)s sequences of %(seq)s tokens")
           if stated is not None else
           N_("%(tokens)s tokens a step, %(pct)s more than the %(asked)s assumed: the %(replicas)s replicas take "
              "whole micro-batches, %(replicas)s × %(accum)s × %(mb)s = %(seqs)s sequences of %(seq)s tokens"))
    if replicas == 1:  # one replica (a TP 8 LoRA): not 'the 1 replicas take' (product66)
        msg = (N_("%(tokens)s tokens a step, %(pct)s more than the %(asked)s stated: the one replica takes whole "
                  "micro-batches, %(replicas)s × %(accum)s × %(mb)s = %(seqs)s sequences of %(seq)s tokens")
               if stated is not None else
               N_("%(tokens)s tokens a step, %(pct)s more than the %(asked)s assumed: the one replica takes whole "
                  "micro-batches, %(replicas)s × %(accum)s × %(mb)s = %(seqs)s sequences of %(seq)s tokens"))
    seqs = replicas * lay.grad_accum * lay.micro_batch
    return _(msg, tokens=format(round(tokens), ","), pct=f.pct(tokens / asked - 1), asked=format(round(asked), ","),
             replicas=replicas, accum=lay.grad_accum, mb=lay.micro_batch, seqs=format(seqs, ","),
             seq=format(round(tokens / seqs), ","))
