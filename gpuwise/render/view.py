"""The view model: a result in one language and currency becomes plain dicts and lists of
preformatted strings ("80.0 GB", "$12,345", "3.2 days") that the templates only place.

Two levels of detail: ``brief`` (the default) is the answer, the four steps in one line each, the
alternatives, the blockers and warnings (each said once), and the assumptions; ``full`` adds every
formula, every candidate, every finding and the rule trace. Chart geometry comes from
:mod:`charts`; the serving chart's points and the cost per million tokens come with the result.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Any

from ..results import (
    CORE_STEPS,
    SEVERITIES,
    AuditResult,
    Candidate,
    EstimateResult,
    Finding,
    FormulaTerm,
    Recommendation,
    RecommendResult,
)
from . import charts as C
from . import money_view as MV
from . import words
from .fmt import (
    CARD_FIELDS,
    CARD_INTERNAL,
    CARD_STATUS,
    DASH,
    DATE_LABELS,
    FRAMEWORK_NAMES,
    HTML_LANG,
    N_,
    SEVERITY_LABELS,
    SEVERITY_ONE,
    STEP_NAMES,
    STEP_ORDER,
    STEP_SHORT,
    STEP_TITLES,
    TERM_LABELS,
    TOPIC_LABELS,
    VERDICT_LABELS,
    VERDICT_TEXT,
    Fmt,
    _card_checked,
    _chosen,
    _fits,
    _flatten,
    _known,
    _leading,
    _ordered,
    _reason,
    _scaled,
    _strip_subject,
    eng,
    input_text,
    pairs,
    substitute,
    table,
)

LEADING = 8
"""How many candidates the per-step tables of a full report show (the best-ranked feasible ones)."""
BRIEF_ALTERNATIVES = 6
"""How many alternatives the brief report's table lists besides the answer and the runner-up."""

__all__ = ["LEADING", "View"]


def _first_sentence(text: str) -> str:
    """A source's first sentence, the citation (the brief report's; the full one quotes it whole)."""
    head = re.split(r"(?<=[.)])\s+(?=[A-Z])", " ".join(text.split()), maxsplit=1)[0]
    return head


# ---------------------------------------------------------------------------- view model
class View:
    """Builds the view model of one result in one language and currency, brief or in full."""

    def __init__(self, result: Any, kind: str, f: Fmt, detail: str = "brief", fmt: str = "text"):
        self.r = result
        self.kind = kind
        self.f = f
        self._ = f._
        self.detail = detail
        self.full = detail == "full"
        self.fmt = fmt
        self.sources = self._rule_sources()

    # shared pieces --------------------------------------------------------------------
    def _rule_sources(self) -> dict[str, str]:
        """Rule id -> source, from the result itself (its trace and findings): a report needs no
        rule files."""
        out: dict[str, str] = {}
        for entry in [*getattr(self.r, "trace", []), *getattr(self.r, "findings", [])]:
            if entry.source and entry.rule not in out:
                out[entry.rule] = " ".join(entry.source.split())
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
        return self._("Amounts are in Chinese yuan at %(rate)s CNY per USD (as of %(date)s; source: "
                      "%(source)s).", rate=format(cur.rate, "g"), date=cur.as_of or f.na(),
                      source=cur.source if self.full else _first_sentence(cur.source))

    def base(self) -> dict[str, Any]:
        f = self.f
        cur = f.cur
        note = self.currency_note()
        command = {"recommend": "gpuwise recommend", "audit": "gpuwise audit"}.get(self.kind, "gpuwise")
        return {
            "kind": self.kind, "lang": f.lang, "html_lang": HTML_LANG[f.lang], "detail": self.detail,
            "full": self.full,
            "currency": {"code": cur.code, "rate": f"{cur.rate:g}", "as_of": cur.as_of, "source": cur.source,
                         "note": note},
            "units_note": self._("GB = 10^9 bytes. Times are wall-clock unless marked GPU-hours."),
            "more": "" if self.full else self._("This is the brief report. Every formula, candidate, finding and "
                                                "rule: %(command)s ... --detail full.", command=command),
        }

    def question(self, data: dict[str, Any]) -> list[dict[str, Any]]:
        """The question as understood: every given field, and each default marked with its reason."""
        assumed = {a.field: a for a in getattr(self.r, "assumptions", [])}
        rows, seen = [], set()
        for field, value in _flatten(data):
            a = assumed.get(field)
            if value is None and a is None:
                continue
            seen.add(field)
            shown = value if a is None or a.value is None else a.value
            rows.append({"field": field, "value": input_text(shown), "assumed": a is not None,
                         "reason": self.assumption(a) if a else ""})
        for field, a in assumed.items():
            if field not in seen:
                rows.append({"field": field, "value": input_text(a.value), "assumed": True,
                             "reason": self.assumption(a)})
        return rows

    def assumption(self, a: Any) -> str:
        """An assumption's reason in this language (its sentence template when it has one)."""
        if a.template:
            return self.f.sentence(a.template, a.values, _reason(a.reason))
        return words.assumption(_reason(a.reason), self.f)

    def rules_of(self, ids: Iterable[str]) -> list[dict[str, str]]:
        return [{"id": i, "source": self.sources.get(i, "")} for i in dict.fromkeys(ids)]

    def term(self, t: FormulaTerm, peak: str = "") -> dict[str, str]:
        """A formula with its value, its inputs and the formula with the numbers put in. A memory part
        that is 0 at the peak while its formula is not (gradients freed before the peak, say) says so."""
        label = self._(TERM_LABELS[t.name]) if t.name in TERM_LABELS else t.name
        with_numbers = substitute(t.formula, t.inputs)
        value = self.f.quantity(t.value, t.unit)
        trivial = not t.inputs or t.formula.lower().startswith(("training keeps no", "inference keeps no", "0"))
        if t.unit == "B" and t.value == 0 and not trivial:
            value = (self._("0 GB at the peak (%(phase)s)", phase=peak) if peak else self._("0 GB at the peak"))
        return {
            "name": t.name, "label": label, "formula": " ".join(t.formula.split()),
            "with_numbers": with_numbers if with_numbers != t.formula else "",
            "inputs": ", ".join(f"{k} = {input_text(v)}" for k, v in t.inputs.items()),
            "value": value, "note": words.term_note(t.note, self.f) if t.note else "",
        }

    def findings(self, findings: list[Finding]) -> dict[str, Any]:
        groups = []
        for sev in SEVERITIES:
            items = [self.finding(x) for x in findings if x.severity == sev]
            if items:
                groups.append({"severity": sev, "label": self._(SEVERITY_LABELS[sev]), "entries": items})
        n = {s: sum(1 for x in findings if x.severity == s) for s in SEVERITIES}
        counts = [self.f.ngettext("%(n)s blocker", "%(n)s blockers", n["blocker"]),
                  self.f.ngettext("%(n)s warning", "%(n)s warnings", n["warning"]),
                  self.f.ngettext("%(n)s note", "%(n)s notes", n["info"])]
        return {"groups": groups, "count": len(findings), "summary": self.f.sep.join(counts),
                "none": self._("No findings.")}

    def issues(self, findings: list[Finding], first: str = "") -> dict[str, Any]:
        """Blockers and warnings for the brief report, each said once: findings of one rule with the
        same fix are one entry, its sentence written for the first subject (``first``, the answer's
        or the proposal's GPU, when it is one of them) and the others named."""
        findings = sorted(findings, key=lambda x: x.subject != first) if first else findings
        groups = []
        for sev in ("blocker", "warning"):
            merged: dict[tuple[str, str], dict[str, Any]] = {}
            for x in findings:
                if x.severity != sev:
                    continue
                fix = self.f.sentence(x.fix_template, x.values, x.fix)
                entry = merged.get((x.rule, fix))
                name = str(x.values.get("gpu_name") or x.evidence.get("gpu_name") or x.subject or "")
                if entry is None:
                    merged[(x.rule, fix)] = {"rule": x.rule, "severity": sev,
                                             "message": self.f.sentence(x.template, x.values, x.message),
                                             "fix": fix, "names": [name], "also": "",
                                             "label": self._(SEVERITY_ONE[sev])}
                elif name and name not in entry["names"]:
                    entry["names"].append(name)
            entries = list(merged.values())
            for e in entries:
                others = [n for n in e["names"][1:] if n]
                if others:
                    e["also"] = self._("The same for: %(names)s.", names=self.f.sep.join(others))
            if entries:
                groups.append({"severity": sev, "label": self._(SEVERITY_LABELS[sev]), "entries": entries})
        notes = sum(1 for x in findings if x.severity == "info")
        n = {s: sum(1 for x in findings if x.severity == s) for s in SEVERITIES}
        counts = [self.f.ngettext("%(n)s blocker", "%(n)s blockers", n["blocker"]),
                  self.f.ngettext("%(n)s warning", "%(n)s warnings", n["warning"]),
                  self.f.ngettext("%(n)s note", "%(n)s notes", n["info"])]
        return {"groups": groups, "summary": self.f.sep.join(counts),
                "none": self._("No blockers and no warnings."),
                "notes": "" if self.full or not notes else self.f.ngettext(
                    "%(n)s note (information only) is in the full report.",
                    "%(n)s notes (information only) are in the full report.", notes)}

    def answers_findings(self, r: RecommendResult) -> list[Finding]:
        """The findings a brief recommendation lists: those about the answer and the question, not
        those about candidates that were not chosen (they stay in the alternatives' "why not" and in
        the full report). With no answer, every finding says why."""
        if self.full or r.recommendation is None:
            return list(r.findings)
        others = {c.gpu for c in r.candidates} - {r.recommendation.gpu}

        def about_another(x: Finding) -> bool:  # a GPU id, or a price of it: "buy <gpu id>"
            return any(word in others for word in x.subject.split())

        return [x for x in r.findings if not about_another(x)]

    def assumptions(self) -> dict[str, Any]:
        """The defaults and assumptions the answer rests on, one line each."""
        rows = []
        for a in getattr(self.r, "assumptions", []):
            value = input_text(a.value) if a.value is not None else ""
            rows.append({"field": a.field, "value": value, "reason": self.assumption(a)})
        return {"rows": rows,
                "table": table([self._("Field"), self._("Value"), self._("Why")],
                               [[r["field"], r["value"], r["reason"]] for r in rows])}

    def finding(self, x: Finding) -> dict[str, str]:
        return {
            "rule": x.rule, "severity": x.severity, "severity_label": self._(SEVERITY_ONE[x.severity]),
            "topic": self._(TOPIC_LABELS[x.topic]) if x.topic in TOPIC_LABELS else x.topic,
            "subject": x.subject, "message": self.f.sentence(x.template, x.values, x.message),
            "fix": self.f.sentence(x.fix_template, x.values, x.fix),
            "source": " ".join(x.source.split()),
            "evidence": ", ".join(f"{k} = {input_text(v)}" for k, v in x.evidence.items()),
        }

    def reasons(self, c: Candidate) -> list[str]:
        """Why a candidate is out, in this language and currency."""
        if c.reason_sentences:
            return [self.f.sentence(s.template, s.values, s.text) for s in c.reason_sentences]
        return [" ".join(r.split()) for r in c.reasons]

    def knowledge(self) -> dict[str, Any]:
        dates = [{"label": self._(DATE_LABELS[k]) if k in DATE_LABELS else k, "date": str(v)}
                 for k, v in self.r.knowledge_dates.items()]
        stale = []
        for s in getattr(self.r, "stale_prices", []) or []:
            age = s.get("age_days")
            stale.append(self._("%(what)s: price as of %(as_of)s, %(age)s days old; check it before "
                                "relying on it.", what=s.get("what", "?"), as_of=s.get("as_of", "?"),
                                age=format(age, ",.0f") if isinstance(age, (int, float)) else "?"))
        return {"dates": dates, "stale": stale,
                "stale_banner": self.f.ngettext(
                    "%(n)s price used here is more than a year old; see Data freshness.",
                    "%(n)s prices used here are more than a year old; see Data freshness.", len(stale))
                if stale else ""}

    def trace_table(self) -> dict[str, Any] | None:
        trace = getattr(self.r, "trace", [])
        if not trace:
            return None
        rows = [[e.rule, self._(STEP_NAMES[e.step]) if e.step in STEP_NAMES else e.step,
                 self.f.sentence(e.template, e.values, e.conclusion), " ".join(e.source.split())] for e in trace]
        return table([self._("Rule"), self._("Step"), self._("Conclusion"), self._("Source")], rows)

    def gpus_on_nodes(self, count: int, nodes: int) -> str:
        gpus = self.f.ngettext("%(n)s GPU", "%(n)s GPUs", count)
        return self.f.ngettext("%(gpus)s on %(n)s node", "%(gpus)s on %(n)s nodes", nodes, gpus=gpus)

    def tagged(self, name: str, role: str) -> str:
        """A name with its role in brackets: "4 × RTX 3090 (proposed)", "4 × RTX 3090（原方案）"."""
        return self._("%(name)s (%(role)s)", name=name, role=role) if role else name

    def candidate_name(self, c: Candidate | Recommendation) -> str:
        name = c.gpu_name or c.gpu
        return f"{c.count} × {name}"

    def strategy(self, c: Candidate | Recommendation) -> str:
        """A candidate's layout in the report's language ("one GPU", not "plain data parallel")."""
        return self.f.strategy(c.strategy, c.count)

    # steps ---------------------------------------------------------------------------
    def steps(self, focus: Candidate | None, candidates: list[Candidate], estimate: EstimateResult | None,
              always: Iterable[str] = CORE_STEPS) -> list[dict[str, Any]]:
        summaries = {s.step: s for s in self.r.steps}
        by_step: dict[str, list[Any]] = {}
        for e in self.r.trace:
            by_step.setdefault(e.step, []).append(e)
        order = [s for s in STEP_ORDER if s in summaries or s in by_step or s in always]
        order += [s for s in [*summaries, *by_step] if s not in order]
        out = []
        for sid in order:
            summary = summaries.get(sid)
            rules, seen = [], set()
            for e in by_step.get(sid, []):
                key = (e.rule, e.conclusion)
                if key not in seen:
                    seen.add(key)
                    rules.append({"id": e.rule, "conclusion": self.f.sentence(e.template, e.values, e.conclusion),
                                  "source": " ".join(e.source.split()) or self.sources.get(e.rule, "")})
            for rid in summary.rules if summary else []:
                if rid not in {r["id"] for r in rules}:
                    rules.append({"id": rid, "conclusion": "", "source": self.sources.get(rid, "")})
            terms = list(summary.terms) if summary and summary.terms else self._fallback_terms(sid, estimate)
            peak = estimate.memory.peak_phase if estimate is not None and sid == "memory" else ""
            step = {
                "id": sid, "title": self._(STEP_TITLES[sid]) if sid in STEP_TITLES else sid,
                "conclusion": self.f.sentence(summary.template, summary.values, summary.conclusion) if summary else "",
                "rules": rules if self.full else [], "terms": [self.term(t, peak) for t in terms],
                "tables": [], "notes": [],
            }
            if self.full:
                self._step_details(step, focus, candidates, estimate)
            out.append(step)
        return out

    @staticmethod
    def _fallback_terms(sid: str, estimate: EstimateResult | None) -> list[FormulaTerm]:
        if estimate is None:
            return []
        if sid == "memory":
            return list(estimate.memory.terms)
        if sid == "compute":
            gpu_terms = [t for t in estimate.gpu.terms if t.unit != "USD"] if estimate.gpu else []
            return [*estimate.compute.terms, *gpu_terms]
        if sid == "tco" and estimate.gpu:
            return [t for t in estimate.gpu.terms if t.unit == "USD"]
        return []

    def _step_details(self, step: dict[str, Any], focus: Candidate | None, candidates: list[Candidate],
                      estimate: EstimateResult | None) -> None:
        f = self.f
        sid = step["id"]
        shown = _leading(candidates, focus, LEADING)
        feasible = sum(1 for c in candidates if c.feasible)
        if sid in CORE_STEPS and feasible > len([c for c in shown if c.feasible]):
            step["notes"].append(self._("The tables in this step show the %(n)s best-ranked of %(total)s feasible "
                                        "candidates; every candidate is in the table of all candidates.",
                                        n=len([c for c in shown if c.feasible]), total=feasible))
        if sid == "memory":
            if focus is not None and focus.memory_breakdown:
                total = sum(focus.memory_breakdown.values()) or 1
                rows = [[f.kind(k), f.bytes(v), f.pct(v / total)]
                        for k, v in _ordered(focus.memory_breakdown)]
                rows.append([self._("Total per GPU"), f.bytes(focus.memory_per_gpu_bytes), ""])
                if focus.usable_per_gpu_bytes:
                    rows.append([self._("Usable per GPU"), f.bytes(focus.usable_per_gpu_bytes), ""])
                if focus.capacity_per_gpu_bytes:
                    rows.append([self._("Capacity per GPU"), f.bytes(focus.capacity_per_gpu_bytes), ""])
                step["tables"].append({
                    "caption": self._("Memory per GPU for %(name)s", name=self.candidate_name(focus)),
                    **table([self._("Part"), self._("Per GPU"), self._("Share")], rows, right=(1, 2))})
            if estimate is not None:
                m = estimate.memory
                if m.layout:
                    step["notes"].append(self._("Memory layout modelled: %(layout)s.", layout=m.layout))
                if m.peak_phase:
                    step["notes"].append(self._("Peak memory is reached during: %(phase)s.",
                                                phase=m.peak_phase))
                if m.host_ram_bytes_per_node:
                    step["notes"].append(self._("Host RAM needed per node for offload: %(b)s.",
                                                b=f.bytes(m.host_ram_bytes_per_node)))
                step["notes"] += [" ".join(n.split()) for n in m.notes]
            rows, classes = [], []
            for c in shown:
                rows.append([self.candidate_name(c), self.strategy(c), f.bytes(c.memory_per_gpu_bytes),
                             f.bytes(c.usable_per_gpu_bytes or None),
                             f.bytes(c.capacity_per_gpu_bytes or None),
                             self._("yes") if _fits(c) else self._("no")])
                classes.append("" if _fits(c) else "bad")
            if rows:
                step["tables"].append({
                    "caption": self._("Memory per GPU of the leading candidates"),
                    **table([self._("Candidate"), self._("Strategy"), self._("Needed"), self._("Usable"),
                             self._("Capacity"), self._("Fits in memory")], rows, right=(2, 3, 4),
                            classes=classes)})
        elif sid == "compute":
            time_header, time_cells = f.duration_column([c.wall_days for c in shown], self._("Wall-clock time"))
            when = {id(c): cell for c, cell in zip(shown, time_cells, strict=True)}
            cols: list[tuple[str, Callable[[Candidate], str], bool]] = [
                (self._("Candidate"), self.candidate_name, False),
                (self._("Strategy"), self.strategy, False),
                (self._("GPU-hours"), lambda c: f.num(c.gpu_hours, 0), True),
                (time_header, lambda c: when[id(c)], True),
                (self._("Tokens/s, one sequence"), lambda c: f.num(c.decode_tokens_per_s), True),
                (self._("Tokens/s, all sequences"), lambda c: f.num(c.decode_tokens_per_s_total), True),
            ]
            keep = [0, 1] + [i for i, attr in ((2, "gpu_hours"), (3, "wall_days"), (4, "decode_tokens_per_s"),
                                               (5, "decode_tokens_per_s_total"))
                             if any(getattr(c, attr) is not None for c in shown)]
            if shown:
                step["tables"].append({
                    "caption": self._("Time on the leading candidates") if any(i in keep for i in (2, 3))
                    else self._("Decode speed on the leading candidates"),
                    **table([cols[i][0] for i in keep], [[cols[i][1](c) for i in keep] for c in shown],
                            right=[n for n, i in enumerate(keep) if cols[i][2]])})
        elif sid == "interconnect":
            rows = [[self.candidate_name(c), f.num(c.nodes), self.strategy(c), f.pct(c.scaling_efficiency),
                     "; ".join(c.strategy_changes) or DASH] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Scaling across GPUs and nodes"),
                    **table([self._("Candidate"), self._("Nodes"), self._("Strategy"),
                             self._("Scaling efficiency"), self._("Changes from the question")],
                            rows, right=(1, 3))})
        elif sid == "tco":
            rows = [[self.candidate_name(c), f.money(c.rent_cost_usd), f.money(c.buy_cost_usd),
                     f.month(c.break_even_month) if c.break_even_month is not None else self._("never"),
                     f.acquisition(c.acquisition), f.money(c.total_cost_usd)] for c in shown]
            if rows:
                step["tables"].append({
                    "caption": self._("Rent or buy"),
                    **table([self._("Candidate"), self._("Rent"), self._("Buy"), self._("Break-even"),
                             self._("Acquisition"), self._("Total cost")], rows, right=(1, 2, 5))})

    def rejected(self, candidates: list[Candidate]) -> list[dict[str, Any]]:
        """Why not X: the GPUs with no feasible option, each with the reasons its counts were rejected
        (a reason shared by every count said once, a count tried twice -- rent and buy -- shown once)
        and the rules that rejected them."""
        feasible_gpus = {c.gpu for c in candidates if c.feasible}
        groups: dict[str, list[Candidate]] = {}
        for c in candidates:
            if not c.feasible and c.gpu not in feasible_gpus:
                groups.setdefault(c.gpu, []).append(c)
        out = []
        for gpu, cands in groups.items():
            seen: dict[tuple[int, tuple[str, ...]], Candidate] = {}
            for c in cands:
                seen.setdefault((c.count, tuple(self.reasons(c))), c)
            unique = list(seen.values())
            reasons = [list(k[1]) for k in seen]
            common = [r for r in reasons[0] if all(r in rs for rs in reasons[1:])]
            items = []
            for c, rs in zip(unique, reasons, strict=True):
                own = [_strip_subject(r, c) for r in rs if r not in common]
                if own or not common:
                    items.append({"title": self.candidate_name(c), "count": str(c.count),
                                  "reasons": own or [self._("No reason recorded.")]})
            rejecting = [s.id for c in unique for s in c.reason_sentences if s.id] or [
                r for c in unique for r in c.rules]
            out.append({"title": cands[0].gpu_name or gpu, "gpu": gpu,
                        "counts": self._("GPU counts tried: %(counts)s",
                                         counts=", ".join(dict.fromkeys(str(c.count) for c in cands))),
                        "common": common, "entries": items, "rules": self.rules_of(rejecting)})
        return out

    def candidates_table(self, candidates: list[Candidate], chosen: Candidate | None
                         ) -> dict[str, Any] | None:
        f = self.f
        if not candidates:
            return None
        time_header, times = f.duration_column([c.wall_days for c in candidates], self._("Wall-clock time"))
        rows, classes = [], []
        for c, time in zip(candidates, times, strict=True):
            rows.append([self.candidate_name(c), str(c.rank) if c.rank is not None else DASH, f.num(c.nodes),
                         f.bytes(c.memory_per_gpu_bytes), time, f.money(c.total_cost_usd),
                         f.acquisition(c.acquisition),
                         self._("feasible") if c.feasible else self._("rejected")])
            classes.append("chosen" if c is chosen else ("" if c.feasible else "bad"))
        return table([self._("Candidate"), self._("Rank"), self._("Nodes"), self._("Memory per GPU"),
                      time_header, self._("Cost"), self._("Acquisition"), self._("Status")],
                     rows, right=(1, 2, 3, 4, 5), classes=classes)

    def answer(self, rec: Recommendation, cand: Candidate | None, est: EstimateResult | None = None,
               cands: list[Candidate] | None = None) -> dict[str, Any]:
        """The answer up front: the recommendation's sentence, its key numbers, and how the job is laid
        out on the GPUs (a training layout in words, or the serving framework and its figures at the
        load). ``cand`` is the matching candidate; ``est`` the chosen candidate's estimate, when the
        result carries it."""
        f = self.f
        name = rec.gpu_name or rec.gpu
        where = " / ".join(x for x in (rec.provider, rec.instance) if x)
        serving = self.serving(est, rec) if rec.wall_days is None else None
        total = cand.decode_tokens_per_s_total if cand is not None else rec.decode_tokens_per_s_total
        if rec.wall_days is None and total is not None:
            time = self._("%(n)s output tokens/s in total", n=f.num(total, 0))
        else:
            time = f.days(rec.wall_days)
        rows = [
            [self._("GPU"), f"{name} ({rec.gpu})" if rec.gpu_name else rec.gpu],
            [self._("Count"), self.gpus_on_nodes(rec.count, rec.nodes)],
            [self._("Rent or buy"), self._("%(mode)s, from %(where)s", mode=f.acquisition(rec.acquisition),
                                           where=where) if where else f.acquisition(rec.acquisition)],
        ]
        led, tl = rec.ledger, rec.timeline
        if rec.wall_days is not None:
            hours = cand.gpu_hours if cand is not None else None
            rows.append([self._("Wall-clock time"), MV.time_row(f, self._, tl) if tl else (
                f.days(rec.wall_days) if hours is None else self._(
                    "%(time)s (%(gpu_hours)s GPU-hours)", time=f.days(rec.wall_days), gpu_hours=f.num(hours, 0)))])
        months = (rec.summary_sentence.values.get("project_months") if rec.summary_sentence else None)
        if led is not None:
            rows.append([self._("Total cost"), MV.cost_row(f, self._, led)])
        elif rec.wall_days is None and isinstance(months, (int, float)):
            rows.append([self._("Total cost"), self._("%(cost)s over %(months)s months",
                                                      cost=f.money(rec.total_cost_usd), months=format(months, "g"))])
        else:
            rows.append([self._("Total cost"), f.money(rec.total_cost_usd)])
        rows += MV.constraint_rows(f, self._, self.r.question if isinstance(self.r, RecommendResult) else {},
                                   led, tl, rec.serving)
        plan = self.training_plan(est, rec, cands or []) if rec.wall_days is not None else None
        if plan:
            rows += plan
        elif serving:
            rows += serving["rows"]
        elif rec.strategy:
            rows.append([self._("Strategy"), self.strategy(rec)])
        if rec.acquisition == "rent" and where:
            headline = self._("Rent %(count)s × %(gpu)s from %(where)s: %(time)s, %(cost)s", count=rec.count,
                              gpu=name, where=where, time=time, cost=f.money(rec.total_cost_usd))
        elif rec.acquisition == "buy":
            headline = self._("Buy %(count)s × %(gpu)s: %(time)s, %(cost)s", count=rec.count, gpu=name, time=time,
                              cost=f.money(rec.total_cost_usd))
        else:
            headline = self._("%(count)s × %(gpu)s, %(mode)s: %(time)s, %(cost)s", count=rec.count, gpu=name,
                              mode=f.acquisition(rec.acquisition), time=time, cost=f.money(rec.total_cost_usd))
        return {
            "headline": headline, "rows": rows, "lines": pairs(rows), "gpu": rec.gpu,
            "ledger": MV.ledger_table(f, self._, led) if led is not None else None,
            "timeline": MV.timeline_table(f, self._, tl) if tl is not None and rec.wall_days is not None else None,
            "summary": self.f.sentence(rec.summary_sentence.template, rec.summary_sentence.values, rec.summary)
            if rec.summary_sentence else " ".join(rec.summary.split()),
        }

    def training_plan(self, est: EstimateResult | None, rec: Recommendation | Candidate,
                      cands: list[Candidate]) -> list[list[str]]:
        """A training job's layout in words, why it is laid out so, and what gpuwise would change
        from the file (a suggestion: explicit settings are the user's)."""
        g = est.gpu if est is not None else None
        if g is None or not g.layout or g.id != rec.gpu or g.count != rec.count:
            return []
        f = self.f
        lay, tr = g.layout, g.training or {}
        rows = [[self._("Layout"), words.training_layout(lay, g.count, f)]]
        why = []
        split = 1
        for key in ("tp", "pp", "ep", "cp"):
            v = lay.get(key, 1)
            split *= int(v) if isinstance(v, (int, float)) and v > 0 else 1
        one = [c for c in cands if c.gpu == g.id and c.count == 1 and not c.feasible and c.stage == "memory"]
        if split > 1 and one:
            why.append(self._("the job does not fit one GPU's memory (%(need)s needed, %(usable)s usable)",
                              need=f.bytes(one[0].memory_per_gpu_bytes), usable=f.bytes(one[0].usable_per_gpu_bytes)))
        tried = tr.get("layouts_tried")
        if isinstance(tried, int) and tried > 1:
            why.append(self._("the fastest layout that fits in memory, of %(n)s tried", n=tried))
        if est is not None and est.memory.usable_per_gpu_bytes:
            why.append(self._("%(need)s per GPU of %(usable)s usable", need=f.bytes(est.memory.per_gpu_bytes),
                              usable=f.bytes(est.memory.usable_per_gpu_bytes)))
        if why:
            rows.append([self._("Why this layout"), f.clause.join(why)])
        changes = tr.get("suggested_changes") or []
        if g.fits_as_requested is False and changes:
            asked = tr.get("requested_memory_per_gpu_bytes")
            shown = f.clause.join(f"{c.get('field')}: {input_text(c.get('from'))} → {input_text(c.get('to'))}"
                                  for c in changes if isinstance(c, dict))
            rows.append([self._("Suggested changes"), self._(
                "as written the job needs %(need)s per GPU, more than is usable; gpuwise would change %(changes)s",
                need=f.bytes(asked) if isinstance(asked, (int, float)) else f.na(), changes=shown)])
        return rows

    def serving(self, est: EstimateResult | None, rec: Recommendation | Candidate) -> dict[str, Any] | None:
        """An inference job's serving figures: the framework and layout, throughput and latency at the
        load, what the memory holds, the targets, and the cost per million output tokens."""
        g = est.gpu if est is not None else None
        sv = g.serving if g is not None else None
        if not sv or g is None or g.id != rec.gpu or g.count != rec.count:
            return None
        f = self.f
        fw = FRAMEWORK_NAMES.get(str(sv.get("framework")), str(sv.get("framework") or ""))
        layout = words.serving_layout(sv.get("layout"), str(sv.get("layout_label") or ""), f)
        conc = sv.get("concurrency")
        rows = [
            [self._("Served with"), self._("%(framework)s, %(layout)s", framework=fw, layout=layout)],
            [self._("At the load"), self._(
                "requests in flight: %(n)s; %(tps)s output tokens/s in total; the first token after %(ttft)s, "
                "then one every %(tpot)s per request", n=f.num(conc, 0),
                tps=f.num(sv.get("throughput_tokens_per_s"), 0), ttft=f.seconds(sv.get("ttft_s")),
                tpot=f.seconds(sv.get("tpot_s")))],
            [self._("Capacity"), self._(
                "memory holds %(n)s sequences at once; at most %(tps)s output tokens/s",
                n=f.num(sv.get("max_concurrent_sequences"), 0), tps=f.num(sv.get("max_throughput_tokens_per_s"), 0))],
        ]
        targets = sv.get("targets") or {}
        met = []
        for key, meets, text in (("tokens_per_s", "meets_throughput_target", N_("%(v)s output tokens/s")),
                                 ("max_ttft_ms", "meets_ttft", N_("first token within %(v)s ms")),
                                 ("max_tpot_ms", "meets_tpot", N_("%(v)s ms per output token"))):
            v = targets.get(key)
            if isinstance(v, (int, float)) and v > 0:
                what = self._(text, v=f.num(v, 0))
                met.append(self._("meets the target of %(target)s", target=what) if targets.get(meets) else
                           self._("misses the target of %(target)s", target=what))
        if met:
            rows.append([self._("Targets"), f.clause.join(met)])
        cost = sv.get("cost_per_million_output_tokens") or {}
        if cost.get("rent_usd") is not None or cost.get("buy_usd") is not None:
            rows.append([self._("Cost per million output tokens"), self._(
                "%(rent)s renting, %(buy)s buying (at this load, all the time)",
                rent=f.money2(cost.get("rent_usd")), buy=f.money2(cost.get("buy_usd")))])
        return {"rows": rows, "framework": fw, "layout": layout}

    def decision(self) -> dict[str, Any]:
        """The four steps in one line each (the chosen candidate's, or the proposal's, conclusions),
        and how the candidates were ranked."""
        rows = []
        for sid in CORE_STEPS:
            s = next((x for x in self.r.steps if x.step == sid), None)
            if s is None or not (s.conclusion or s.template):
                continue
            rows.append({"title": self._(STEP_SHORT[sid]), "text": self.f.sentence(s.template, s.values, s.conclusion)})
        rank = getattr(self.r, "ranking", None)
        tie = getattr(self.r, "ranking_note", None)
        return {"steps": rows, "lines": pairs([[r["title"], r["text"]] for r in rows]),
                "ranking": self.f.sentence(rank.template, rank.values, rank.text) if rank and self.kind == "recommend"
                else "",
                "tie": self.f.sentence(tie.template, tie.values, tie.text) if tie else ""}

    def alternatives(self, r: RecommendResult, chosen: Candidate | None) -> dict[str, Any] | None:
        """The short table of the brief report: the answer, the runner-up, and the best of each other
        GPU family and every GPU asked about (``result.alternatives``), with why each is not the answer."""
        f = self.f
        cands = list(r.candidates)
        rows_in: list[tuple[Candidate, str]] = []
        if chosen is not None:
            rows_in.append((chosen, "answer"))
        ru = _chosen(cands, r.runner_up) if r.runner_up else None
        if ru is not None and all(ru is not c for c, _ in rows_in):
            rows_in.append((ru, "runner-up"))
        alts = list(r.alternatives) if self.full else list(r.alternatives)[:BRIEF_ALTERNATIVES]
        for c in alts:
            if all(not (c.gpu == x.gpu and c.count == x.count and c.acquisition == x.acquisition) for x, _ in rows_in):
                rows_in.append((c, "alternative"))
        if len(rows_in) < 2:
            return None
        feasible = sum(1 for c in cands if c.feasible)
        inference = all(c.wall_days is None for c, _ in rows_in)
        if inference:
            speed_header = self._("Output tokens/s")
            speed = [f.num(c.decode_tokens_per_s_total, 0) for c, _ in rows_in]
        else:
            speed_header, speed = f.duration_column([c.wall_days for c, _ in rows_in], self._("Wall-clock time"))
        rows, classes = [], []
        for (c, role), time in zip(rows_in, speed, strict=True):
            if role == "answer":
                note = self._("the answer")
            elif role == "runner-up":
                note = self._("runner-up")
            elif c.feasible and c.rank is not None:
                note = self._("rank %(n)s of %(total)s feasible", n=c.rank, total=feasible)
            else:
                reasons = [_strip_subject(x, c) for x in self.reasons(c)]
                note = reasons[0] if reasons else self._("rejected")
            how = f.acquisition(c.acquisition)
            if c.acquisition == "rent" and c.provider:
                how = self._("%(mode)s, from %(where)s", mode=how, where=c.provider)
            rows.append([self.candidate_name(c), how, time, f.money(c.total_cost_usd), note])
            classes.append("chosen" if role == "answer" else ("" if c.feasible else "bad"))
        return {**table([self._("Option"), self._("Rent or buy"), speed_header, self._("Total cost"),
                         self._("Why not")], rows, right=(2, 3), classes=classes),
                "candidates": [c for c, _ in rows_in]}

    # charts --------------------------------------------------------------------------
    def charts(self, *, memory: Any = None, costs: Iterable[tuple[Any, str]] = (), scatter: Any = None,
               chosen_word: str = "", serving: Any = None) -> dict[str, Any]:
        """The charts of an HTML report, each about what it is labelled with: ``memory`` a series of
        bars (the answer or the proposal first), ``costs`` (curve, title) pairs, ``scatter`` time/cost
        points (the starred one marked ``chosen_word``), ``serving`` the chosen layout's curve."""
        f = self.f
        cost_charts = []
        for curve, title in costs:
            chart = self.cost_chart(curve, title, f"chart-cost{'-' + str(len(cost_charts) + 1) if cost_charts else ''}")
            if chart is not None:
                cost_charts.append(chart)
        return {"memory": self.memory_chart(memory, []) if memory else None,
                "costs": cost_charts, "cost": cost_charts[0] if cost_charts else None,
                "scatter": self.scatter_chart(scatter, [], None, chosen_word) if scatter else None,
                "serving": self.serving_chart(serving),
                "log_scale": self._("log scale"),
                "kinds": [{"kind": k, "label": f.kind(k)} for k in C.MEMORY_KINDS]}

    def bars_of(self, rows: Iterable[tuple[Candidate, str]]) -> list[dict[str, Any]]:
        """Memory bars of candidates, each labelled with its role ("the answer", "proposed")."""
        return [{"label": self.tagged(self.candidate_name(c), role),
                 "capacity": c.capacity_per_gpu_bytes or None, "usable": c.usable_per_gpu_bytes or None,
                 "parts": c.memory_breakdown} for c, role in rows if c.memory_breakdown]

    def points_of(self, rows: Iterable[tuple[Candidate, str, bool]]) -> list[dict[str, Any]]:
        """Time/cost points of candidates: (candidate, role, starred)."""
        return [{"label": self.tagged(self.candidate_name(c), role),
                 "wall_days": c.wall_days, "cost_usd": c.total_cost_usd, "feasible": c.feasible, "chosen": star}
                for c, role, star in rows]

    def memory_chart(self, series: Any, candidates: list[Candidate]) -> dict[str, Any] | None:
        f = self.f
        if not series:
            series = [{"label": self.candidate_name(c), "capacity": c.capacity_per_gpu_bytes or None,
                       "usable": c.usable_per_gpu_bytes or None, "parts": c.memory_breakdown}
                      for c in candidates if c.memory_breakdown]
        geo = C.memory_bars(series, fmt=f.bytes_tick)
        if geo is None:
            return None
        for row in geo["rows"]:
            for s in row["segments"]:
                s["kind_label"] = f.kind(s["kind"])
                s["label"] = f.bytes(s["value"])
            row["total_label"] = f.bytes(row["total"])
            limit = row["usable"] if row["usable"] is not None else row["capacity"]
            limit = f.bytes(limit) if limit is not None else ""
            row["side"] = (f"{row['total_label']} / {limit}" if limit else row["total_label"])
            row["status"] = self._("no") if row["over"] else self._("yes")
            row["over_label"] = self._("exceeds")
            row["capacity_label"] = f.bytes(row["capacity"]) if row["capacity"] is not None else ""
            row["usable_label"] = f.bytes(row["usable"]) if row["usable"] is not None else ""
        rows = []
        for r in geo["rows"]:
            parts = {s["kind"]: s["label"] for s in r["segments"]}
            rows.append([r["label"], *[parts.get(k, DASH) for k in geo["kinds"]], r["total_label"],
                         r["usable_label"] or DASH, r["capacity_label"] or DASH, r["status"]])
        over = [r["label"] for r in geo["rows"] if r["over"]]
        alt = self.f.join([self.f.ngettext("%(n)s candidate shown.", "%(n)s candidates shown.", len(geo["rows"])),
                           self.f.ngettext("%(n)s exceeds the usable memory of its GPU.",
                                           "%(n)s exceed the usable memory of their GPU.", len(over))])
        return {"geo": geo, "id": "chart-memory", "title": self._("Memory per GPU by part, against the card"),
                "desc": alt + (" " + ", ".join(over) if over else ""),
                "alt": alt, "over": over,
                "legend": [{**entry, "label": f.kind(entry["kind"])} for entry in geo["legend"]],
                "capacity_label": self._("capacity"), "usable_label": self._("usable"),
                "omitted": self.f.ngettext("%(n)s more candidate not drawn.",
                                           "%(n)s more candidates not drawn.", geo["omitted"])
                if geo["omitted"] else "",
                "table": table([self._("Candidate"), *[f.kind(k) for k in geo["kinds"]], self._("Total"),
                                self._("Usable"), self._("Capacity"), self._("Fits in memory")], rows,
                               right=tuple(range(1, len(geo["kinds"]) + 4)))}

    def cost_chart(self, curve: Any, title: str = "", chart_id: str = "chart-cost") -> dict[str, Any] | None:
        """The cumulative cost of renting and of buying over the configuration's own period (from its
        ledgers): buying is drawn as cash out, its resale as a labelled step at the end; the
        break-even is where the lines cross, or the text says there is none in the period."""
        f = self.f
        if not isinstance(curve, dict) or not isinstance(curve.get("x"), list):
            return None
        xs = curve["x"]
        hours = curve.get("unit") == "hours"
        local: dict[str, Any] = {"months": xs, "break_even_month": curve.get("break_even")}
        for key in ("rent", "buy"):
            values = curve.get(key)
            if isinstance(values, (list, tuple)):
                local[key] = [_scaled(v, f.cur.rate) for v in values]
        resale = curve.get("resale")
        if local.get("buy") and isinstance(resale, (int, float)) and resale < 0:
            end = local["buy"][-1]
            local["resale"] = [end, _scaled(curve["buy_cash_out"] + resale, f.cur.rate)]
            local["resale_x"] = [xs[-1], xs[-1]]
        def fmt_x(x: float) -> str:  # whole months as they are, a crossing between them to a tenth
            return f"{x:g}" if float(x).is_integer() else f.num(x, 1 if hours and x >= 10 else (2 if hours else 1))
        geo = C.cost_curve(local, fmt_y=lambda v: f.local(v, compact=True), fmt_x=fmt_x,
                           keys=("rent", "buy", "resale"))
        if geo is None:
            return None
        names = {"rent": self._("Rent"), "buy": self._("Buy, cash out"), "resale": self._("Buy, after resale")}
        for s in geo["series"]:
            s["name"] = names.get(s["key"], s["key"])
            s["end_label"] = f"{s['name']} {f.local(s['end_value'])}"
        span = fmt_x(float(curve.get("span") or (xs[-1] if xs else 0)))
        period = {"job": self._("the job's %(n)s hours", n=span) if hours else "",
                  "commitment": self._("the committed %(n)s months", n=span),
                  "project": self._("the project's %(n)s months", n=span)}.get(str(curve.get("period")), span)
        parts = []
        if "rent" in local:
            parts.append(self._("Over %(period)s, renting costs %(rent)s.", period=period,
                                rent=f.money(curve.get("rent_total"))))
        if "buy" in local:
            parts.append(self._("Buying pays %(cash)s in cash; resold after %(months)s months it comes to "
                                "%(net)s net.", cash=f.money(curve.get("buy_cash_out")),
                                months=f"{float(curve.get('resale_after_months') or 0):g}",
                                net=f.money(curve.get("buy_net"))))
        be = geo["break_even"]
        if be:
            at = self._("hour %(x)s", x=be["month_label"]) if hours else self._("month %(x)s", x=be["month_label"])
            parts.append(self._("The lines cross at %(at)s: renting for longer than that costs more than "
                                "buying's cash out.", at=at))
            be["label"] = self._("break-even: %(at)s", at=at)
        elif "rent" in local and "buy" in local:
            parts.append(self._("The lines do not cross within %(period)s: no break-even in the period.",
                                period=period))
        step = max(1, math.ceil(len(xs) / 12))
        idx = sorted({*range(0, len(xs), step), len(xs) - 1})
        rows = []
        for i in idx:
            row = [fmt_x(xs[i])]
            for key in ("rent", "buy"):
                vals = local.get(key) or []
                row.append(f.local(vals[i]) if i < len(vals) and vals[i] is not None else DASH)
            rows.append(row)
        x_title = self._("Hours of the job") if hours else self._("Months")
        head = self._("Hour") if hours else self._("Month")
        return {"geo": geo, "id": chart_id, "title": title or self._("Cumulative cost of renting and of buying"),
                "desc": self.f.join(parts), "alt": self.f.join(parts),
                "x_title": x_title, "y_title": self._("Cumulative cost"),
                "table": table([head, self._("Rent"), self._("Buy, cash out")], rows, right=(1, 2))}

    def scatter_chart(self, points: Any, candidates: list[Candidate], chosen: Candidate | None,
                      chosen_word: str = "") -> dict[str, Any] | None:
        f = self.f
        if not points:
            points = [{"label": self.candidate_name(c), "wall_days": c.wall_days,
                       "cost_usd": c.total_cost_usd, "feasible": c.feasible, "chosen": c is chosen}
                      for c in candidates]
        if not isinstance(points, (list, tuple)):
            return None
        local = [{**p, "cost_usd": _scaled(p.get("cost_usd"), f.cur.rate)}
                 for p in points if isinstance(p, dict)]
        word = chosen_word or self._("chosen")
        suffix = "" if chosen_word else self.tagged("", word)
        geo = C.time_cost(local, fmt_x=lambda d: f"{d:g}", fmt_y=lambda v: f.local(v, compact=True),
                          chosen_suffix=suffix)
        if geo is None or len(geo["points"]) < 2:  # one point compares nothing
            return None
        for p in geo["points"]:
            p["time"] = f.days(p["xv"])
            p["cost"] = f.local(p["yv"])
            p["status"] = (word if p["chosen"] else self._("feasible") if p["feasible"] else self._("rejected"))
            p["tip"] = f"{p['label']}: {p['time']}, {p['cost']} ({p['status']})"
        some = geo["labelled"] < len(geo["points"])
        listed = sorted((p for p in geo["points"] if p["show_label"] or not some), key=lambda q: q["xv"])
        time_header, times = f.duration_column([p["xv"] for p in listed], self._("Wall-clock time"))
        rows = [[f"{p['number']}: {p['label']}" if p.get("number") else p["label"], t, p["cost"], p["status"]]
                for p, t in zip(listed, times, strict=True)]
        pick = next((p for p in geo["points"] if p["chosen"]), None)
        alt = (self._("The starred option, %(name)s, takes %(time)s and costs %(cost)s.", name=pick["label"],
                      time=pick["time"], cost=pick["cost"]) if pick else
               self._("No option is marked as chosen."))
        feasible = [p for p in geo["points"] if p["feasible"]]
        if feasible:
            fastest = min(feasible, key=lambda p: p["xv"])
            cheapest = min(feasible, key=lambda p: p["yv"])
            alt = f.join([alt, self._("Fastest feasible: %(fast)s; cheapest feasible: %(cheap)s.",
                                fast=fastest["label"], cheap=cheapest["label"])])
        if some:
            alt = f.join([alt, self._("Labelled, and listed below: the starred option and the feasible options "
                                      "that no other beats on both time and cost.")])
        x_title = self._("Wall-clock time, days")
        y_title = self._("Cost")
        if geo["xlog"]:
            x_title = self._("%(title)s (%(scale)s)", title=x_title, scale=self._("log scale"))
        if geo["ylog"]:
            y_title = self._("%(title)s (%(scale)s)", title=y_title, scale=self._("log scale"))
        return {"geo": geo, "id": "chart-time-cost", "title": self._("Time against cost of each option"),
                "desc": alt, "alt": alt, "x_title": x_title, "y_title": y_title,
                "legend": {"chosen": word, "feasible": self._("feasible"), "rejected": self._("rejected")},
                "omitted": self._("Not placed (no time or cost): %(names)s.", names=f.sep.join(geo["omitted"]))
                if geo["omitted"] else "",
                "table": table([self._("Option"), time_header, self._("Cost"), self._("Status")], rows,
                               right=(1, 2))}

    def serving_chart(self, sv: Any) -> dict[str, Any] | None:
        """Throughput and latency against the number of requests served at once, with the load and
        the most sequences the memory holds marked (the serving model's curve, as the result has it)."""
        f = self.f
        if not isinstance(sv, dict):
            return None
        geo = C.serving_curve(sv.get("curve"), load=sv.get("concurrency"), limit=sv.get("max_concurrent_sequences"),
                              fmt_x=lambda v: f"{v:g}", fmt_tps=lambda v: f.num(v, 0),
                              fmt_ms=lambda v: f.num(v, 0))
        if geo is None:
            return None
        geo["load_label"] = self._("the load: %(n)s", n=f.num(sv.get("concurrency"), 0))
        geo["limit_label"] = self._("memory holds %(n)s", n=f.num(sv.get("max_concurrent_sequences"), 0))
        names = {"throughput": self._("Output tokens/s, all requests"), "tpot": self._("Time per output token, ms"),
                 "ttft": self._("Time to first token, ms")}
        for s in geo["series"]:
            s["name"] = names[s["key"]]
        rows = [[f.num(p["concurrency"], 0), f.num(p["throughput"], 0), f.seconds(p["tpot_s"]), f.seconds(p["ttft_s"])]
                for p in geo["table"]]
        fw = FRAMEWORK_NAMES.get(str(sv.get("framework")), str(sv.get("framework") or ""))
        alt = self._("With %(framework)s: %(tps)s output tokens/s at %(n)s requests at once (the load); memory holds "
                     "%(max)s sequences, beyond which requests wait and the time to the first token grows.",
                     framework=fw, tps=f.num(sv.get("throughput_tokens_per_s"), 0), n=f.num(sv.get("concurrency"), 0),
                     max=f.num(sv.get("max_concurrent_sequences"), 0))
        return {"geo": geo, "id": "chart-serving",
                "title": self._("Throughput and latency against requests served at once"),
                "desc": alt, "alt": alt, "x_title": self._("Requests served at once (log scale)"),
                "y_title": self._("Output tokens/s"), "y2_title": self._("Latency, ms (log scale)"),
                "table": table([self._("Requests at once"), self._("Output tokens/s"),
                                self._("Time per output token"), self._("Time to first token")], rows,
                               right=(0, 1, 2, 3))}

    # whole reports -------------------------------------------------------------------
    def recommend(self) -> dict[str, Any]:
        r: RecommendResult = self.r
        cands = list(r.candidates)
        chosen = _chosen(cands, r.recommendation)
        focus = chosen or next((c for c in cands if c.feasible), cands[0] if cands else None)
        est = r.estimate
        vm = self.base()
        alternatives = self.alternatives(r, chosen)
        listed = alternatives["candidates"] if alternatives else ([chosen] if chosen else [])
        vm.update({
            "title": self._("GPU recommendation"),
            "answer": self.answer(r.recommendation, chosen, est, cands) if r.recommendation else None,
            "no_answer": self._("No candidate meets the requirements. The reasons each one was rejected are "
                                "listed below."),
            "decision": self.decision(),
            "alternatives": alternatives,
            "issues": self.issues(self.answers_findings(r), r.recommendation.gpu if r.recommendation else ""),
            "assumptions": self.assumptions(),
            "knowledge": self.knowledge(),
            "steps": self.steps(focus, cands, est) if self.full or self.fmt == "html" else [],
            "question": self.question(r.question) if self.full else [],
            "rejected": self.rejected(cands) if self.full or r.recommendation is None else [],
            "candidates": self.candidates_table(cands, chosen) if self.full else None,
            "findings": self.findings(list(r.findings)) if self.full else None,
            "trace": self.trace_table() if self.full else None,
            "charts": {},
        })
        if self.fmt == "html" or self.full:
            data = self.r.charts or {}
            answer_word = self._("the answer")
            memory = (data.get("memory") if self.full and data.get("memory") else
                      self.bars_of((c, answer_word if c is chosen else "") for c in listed) if listed else
                      self.bars_of((c, "") for c in cands[:LEADING]))
            cost_title = self._("Cumulative cost of renting and of buying %(name)s",
                                name=self.candidate_name(r.recommendation)) if r.recommendation else ""
            scatter = (data.get("time_cost") if self.full and data.get("time_cost") else
                       self.points_of((c, "", c is chosen) for c in listed) if len(listed) > 1 else
                       self.points_of((c, "", c is chosen) for c in cands))
            serving = est.gpu.serving if est is not None and est.gpu is not None and r.recommendation and \
                est.gpu.id == r.recommendation.gpu and est.gpu.count == r.recommendation.count else None
            vm["charts"] = self.charts(memory=memory, costs=[(data.get("cost_curve"), cost_title)],
                                       scatter=scatter, chosen_word=answer_word if not self.full else "",
                                       serving=serving)
        return vm

    def audit(self) -> dict[str, Any]:
        r: AuditResult = self.r
        f = self.f
        cands = [c for c in (r.proposed, r.alternative) if c is not None]
        vm = self.base()
        savings = ""
        given_up = MV.given_up(f, self._, r.alternative_gives_up)
        if r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None and given_up:
            savings = self._("The alternative costs %(amount)s less but does not do the same work: %(what)s.",
                             amount=f.money(r.savings_usd), what=given_up)
        elif r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None:
            base_cost = r.proposed.total_cost_usd if r.proposed else None
            if base_cost:
                share = r.savings_usd / base_cost  # 99.8% is not "100%": the alternative still costs something
                savings = self._("The alternative saves %(amount)s (%(pct)s of the proposed cost).",
                                 amount=f.money(r.savings_usd),
                                 pct=f.pct(share, 1 if 0.995 <= share < 1 else 0))
            else:
                savings = self._("The alternative saves %(amount)s.", amount=f.money(r.savings_usd))
        elif r.alternative is None:
            savings = self._("No feasible alternative was found in the catalog.")
        else:
            savings = self._("The alternative is not cheaper than the proposal.")
        proposed_word, alternative_word = self._("proposed"), self._("the alternative")
        vm.update({
            "title": self._("GPU proposal audit"),
            "proposal_title": r.title, "file": r.file,
            "verdict": {"code": r.verdict, "label": self._(VERDICT_LABELS[r.verdict]),
                        "text": self._(VERDICT_TEXT[r.verdict])},
            "proposal": self.option_line(r.proposed, self._("The proposal")) if r.proposed else "",
            "alternative": self.option_line(r.alternative, self._("The alternative")) if r.alternative else "",
            "comparison": self.comparison(r.proposed, r.alternative),
            "savings": savings,
            "ledgers": [{"title": title, "table": MV.ledger_table(f, self._, c.ledger)}
                        for c, title in ((r.proposed, self._("The proposal's cost, line by line")),
                                         (r.alternative, self._("The alternative's cost, line by line")))
                        if c is not None and c.ledger is not None],
            "decision": self.decision(),
            "issues": self.issues(list(r.findings), r.proposed.gpu if r.proposed else ""),
            "assumptions": self.assumptions(),
            "cards": self.cards(r.cards),
            "knowledge": self.knowledge(),
            "question": self.question(r.proposal) if self.full else [],
            "steps": self.steps(r.proposed, cands, None) if self.full or self.fmt == "html" else [],
            "rejected": [],
            "findings": self.findings(list(r.findings)) if self.full else None,
            "trace": self.trace_table() if self.full else None,
            "charts": {},
        })
        if vm["comparison"]:  # a reason the blockers below say already is not said twice
            said = [e["message"] for g in vm["issues"]["groups"] for e in g["entries"]]
            vm["comparison"]["reasons"] = [x for x in vm["comparison"]["reasons"] if not any(x in m for m in said)]
        if self.fmt == "html" or self.full:
            data = self.r.charts or {}
            rows = [(c, w) for c, w in ((r.proposed, proposed_word), (r.alternative, alternative_word)) if c]
            costs = []
            if r.proposed is not None:
                costs.append((data.get("proposal_cost_curve"), self._(
                    "Cumulative cost of renting and of buying %(name)s (proposed)",
                    name=self.candidate_name(r.proposed))))
            if r.alternative is not None:
                costs.append((data.get("cost_curve"), self._(
                    "Cumulative cost of renting and of buying %(name)s (the alternative)",
                    name=self.candidate_name(r.alternative))))
            scatter = None
            if self.full and r.proposed is not None and isinstance(data.get("time_cost"), list):
                scatter = [*self.points_of([(r.proposed, proposed_word, True)]),
                           *({**p, "chosen": False, "label": self.tagged(str(p.get("label", "")), alternative_word)
                              if p.get("chosen") else p.get("label", "")}
                             for p in data["time_cost"] if isinstance(p, dict))]
            vm["charts"] = self.charts(memory=self.bars_of(rows), costs=costs, scatter=scatter,
                                       chosen_word=proposed_word)
        return vm

    def option_line(self, c: Candidate, who: str) -> str:
        """One configuration in a line: "The proposal: 4 × RTX 3090, buy: 3.2 days, $9,000 (not feasible)"."""
        f = self.f
        how = f.acquisition(c.acquisition)
        if c.acquisition == "rent" and c.provider:
            how = self._("%(mode)s, from %(where)s", mode=how, where=c.provider)
        time = (f.days(c.wall_days) if c.wall_days is not None else
                self._("%(n)s output tokens/s in total", n=f.num(c.decode_tokens_per_s_total, 0))
                if c.decode_tokens_per_s_total is not None else f.na())
        return self._("%(who)s: %(name)s, %(how)s: %(time)s, %(cost)s (%(status)s)", who=who,
                      name=self.candidate_name(c), how=how, time=time, cost=f.money(c.total_cost_usd),
                      status=self._("feasible") if c.feasible else self._("not feasible"))

    def comparison(self, proposed: Candidate | None, alternative: Candidate | None) -> dict[str, Any] | None:
        f = self.f
        cols = [c for c in (proposed, alternative)]
        if not any(cols):
            return None

        def cell(c: Candidate | None, get: Callable[[Candidate], str]) -> str:
            return get(c) if c is not None else DASH

        spec: list[tuple[str, Callable[[Candidate], str]]] = [
            (self._("GPU"), lambda c: c.gpu_name or c.gpu),
            (self._("Count"), lambda c: self.gpus_on_nodes(c.count, c.nodes)),
            (self._("Strategy"), self.strategy),
            (self._("Memory per GPU"), lambda c: self._("%(need)s of %(usable)s usable",
                                                        need=f.bytes(c.memory_per_gpu_bytes),
                                                        usable=f.bytes(c.usable_per_gpu_bytes or None))),
            (self._("Fits in memory"), lambda c: f.yes_no(_fits(c))),
            (self._("Wall-clock time"), lambda c: f.days(c.wall_days)) if any(
                c is not None and c.wall_days is not None for c in cols) else
            (self._("Output tokens/s"), lambda c: f.num(c.decode_tokens_per_s_total, 0)),
            (self._("Rent or buy"), lambda c: f.acquisition(c.acquisition)),
            (self._("Total cost"), lambda c: MV.cost_row(f, self._, c.ledger) if c.ledger else f.money(
                c.total_cost_usd)),
            (self._("Feasible"), lambda c: f.yes_no(c.feasible)),
        ]
        if not self.full:
            spec = [spec[i] for i in (0, 1, 3, 5, 6, 7, 8)]
        rows = [[label, cell(proposed, get), cell(alternative, get)] for label, get in spec]
        reasons = [_strip_subject(x, proposed) for x in self.reasons(proposed)] if proposed else []
        return {**table(["", self._("Proposed"), self._("Best feasible alternative")], rows),
                "reasons": reasons, "reasons_title": self._("Why the proposal falls short")}

    def cards(self, cards: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Used-card inspection: the known readings of each card, and the findings about it."""
        out = []
        findings = list(getattr(self.r, "findings", []))
        for i, card in enumerate(cards, 1):
            serial = str(card.get("serial") or "")
            about = [x for x in findings if serial and (x.evidence.get("serial") == serial or serial in x.subject)]
            rows = self._card_rows(card)
            if about:
                rows.append([self._("Findings on this card"),
                             self.f.sep.join(self.tagged(x.rule, self._(SEVERITY_ONE[x.severity])) for x in about)])
            status = str(card.get("status") or card.get("verdict") or "").lower()
            if not status:  # the worst finding about the card, as the report's summary of it
                worst = min((SEVERITIES.index(x.severity) for x in about), default=len(SEVERITIES))
                status = {0: "fail", 1: "suspect"}.get(worst, "ok" if _card_checked(card) else "unknown")
            out.append({
                "title": self._("Card %(n)s: %(serial)s", n=i, serial=serial or self.f.na()),
                "about": self.f.sep.join(self.tagged(x.rule, self._(SEVERITY_ONE[x.severity])) for x in about),
                "status": status,
                "status_label": self._(CARD_STATUS[status]) if status in CARD_STATUS else status,
                **table([self._("Check"), self._("Value")], rows),
            })
        return out

    def _card_rows(self, card: dict[str, Any]) -> list[list[str]]:
        f = self.f
        unknown = self._("not known")
        has_smi = card.get("has_smi", True) is not False

        known = _known
        rows, seen = [], set()
        for key, label, how in CARD_FIELDS:
            text = None
            if how == "pcie" and "link_width" in card:
                w, wm, g, gm = (card.get(k) for k in ("link_width", "link_width_max", "link_gen", "link_gen_max"))
                if has_smi:
                    text = self._("Gen %(gen)s x%(width)s (the card supports Gen %(gen_max)s x%(width_max)s)",
                                  gen=g if known(g) else "?", width=w if known(w) else "?",
                                  gen_max=gm if known(gm) else "?", width_max=wm if known(wm) else "?")
            elif how == "power" and "power_limit_w" in card:
                lim, default = card.get("power_limit_w"), card.get("default_power_limit_w")
                if has_smi and known(lim):
                    text = self._("%(limit)s W (default %(default)s W)", limit=format(lim, "g"),
                                  default=format(default, "g") if known(default) else "?")
            elif key in card:
                v = card[key]
                seen.add(key)
                if how.startswith("smi-") and not has_smi:
                    continue
                kind = how.removeprefix("smi-")
                if kind == "text":
                    text = input_text(v) if known(v) else None
                elif kind == "bool":
                    text = f.yes_no(bool(v))
                elif kind == "match":
                    text = {1: self._("yes"), 0: self._("no")}.get(v, unknown) if has_smi else None
                elif not known(v):
                    text = unknown
                elif kind == "count":
                    text = f.num(v, 0)
                elif kind == "ratio":
                    n = card.get(key.replace("_cv", "_samples"))
                    text = self._("%(value)s from %(n)s readings", value=format(v, ".2f"), n=n) if n else \
                        format(v, ".2f")
                elif kind == "pct":
                    text = f.pct(v)
            if text is not None:
                rows.append([self._(label), text])
        for key, value in card.items():  # anything the list above does not know yet, as it came
            if key in seen or key in CARD_INTERNAL or key in {k for k, _, _ in CARD_FIELDS}:
                continue
            if isinstance(value, dict):
                rows += [[f"{key}: {k}", input_text(v)] for k, v in value.items()]
            elif key != "findings":
                rows.append([key, input_text(value)])
        return rows

    def estimate(self) -> dict[str, Any]:
        r: EstimateResult = self.r
        f = self.f
        m = r.memory
        vm = self.base()
        mem_rows = [[f.kind(k), f.bytes(v)] for k, v in _ordered(m.breakdown)]
        mem_rows.append([self._("Total per GPU"), f.bytes(m.per_gpu_bytes)])
        if m.usable_per_gpu_bytes:
            mem_rows.append([self._("Usable per GPU"), f.bytes(m.usable_per_gpu_bytes)])
        if m.capacity_per_gpu_bytes:
            mem_rows.append([self._("Capacity per GPU"), f.bytes(m.capacity_per_gpu_bytes)])
        mem_rows.append([self._("Total over all GPUs"), f.bytes(m.total_bytes)])
        gpu = None
        if r.gpu is not None:
            g = r.gpu
            rows = [[self._("GPU"), f"{g.name} ({g.id})" if g.name else g.id],
                    [self._("Count"), self.gpus_on_nodes(g.count, g.nodes)],
                    [self._("Fits in memory"), f.yes_no(g.fits)]]
            if g.strategy:
                rows.append([self._("Strategy"), f.strategy(g.strategy, g.count)])
            if g.gpu_hours is not None:
                rows.append([self._("GPU-hours"), f.num(g.gpu_hours, 0)])
            if g.wall_hours is not None:
                rows.append([self._("Wall-clock time"), f.days(g.wall_hours / 24)])
            for key, label in (("decode_tokens_per_s", N_("Decode speed, one sequence")),
                               ("decode_tokens_per_s_total", N_("Decode speed, all sequences")),
                               ("prefill_tokens_per_s", N_("Prefill speed"))):
                v = getattr(g, key)
                if v is not None:
                    rows.append([self._(label), self._("%(n)s tokens/s", n=f.num(v))])
            if g.peak_tflops is not None:
                rows.append([self._("Dense peak"), f"{g.peak_tflops:g} TFLOP/s {g.peak_kind}".rstrip()])
            if g.mfu is not None:
                rows.append([self._("Utilisation (MFU)"), f.pct(g.mfu)])
            if g.scaling_efficiency is not None:
                rows.append([self._("Scaling efficiency"), f.pct(g.scaling_efficiency)])
            if g.cost_usd is not None:
                rows.append([self._("Cost"), f"{f.money(g.cost_usd)} ({f.acquisition(g.acquisition)})"
                             if g.acquisition else f.money(g.cost_usd)])
            gpu = {**table([self._("Item"), self._("Value")], rows),
                   "terms": [self.term(t) for t in g.terms]}
        vm.update({
            "title": self._("GPU memory and time estimate"),
            "question": self.question(r.workload),
            "memory": {**table([self._("Part"), self._("Per GPU")], mem_rows, right=(1,)),
                       "layout": m.layout, "peak_phase": m.peak_phase,
                       "notes": [" ".join(n.split()) for n in m.notes],
                       "terms": [self.term(t) for t in m.terms]},
            "compute": {"flops": f"{eng(r.compute.flops)} FLOP",
                        "terms": [self.term(t) for t in r.compute.terms]},
            "gpu": gpu,
            "knowledge": self.knowledge(),
        })
        return vm

