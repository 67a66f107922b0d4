"""The view model of one audited proposal: the verdict, the proposal against the best feasible
alternative, its blockers, and the used-card inspection.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ...results import (
    SEVERITIES,
    Candidate,
    Finding,
)
from .. import money_view as MV
from ..fmt import (
    CARD_FIELDS,
    CARD_STATUS,
    DASH,
    SEVERITY_ONE,
    VERDICT_LABELS,
    VERDICT_TEXT,
    _card_checked,
    _fits,
    _known,
    input_text,
    table,
)
from .charts import ChartsView
from .steps import StepsView, served_tokens_per_s

if TYPE_CHECKING:
    from ...results_audit import AuditResult, UsedCard

_SMI_ROWS = ("pcie", "power", "serial-report", "report-gpu", "memory", "mem-type", "gpu-temp", "mem-temp")
"""Rows of fmt.CARD_FIELDS built from an nvidia-smi report's readings: left out without one."""


class AuditView(StepsView, ChartsView):
    """An audit's report."""

    def audit(self) -> dict[str, Any]:
        r: AuditResult = self.r
        f = self.f
        cands = [c for c in (r.proposed, r.alternative) if c is not None]
        vm = self.base()
        savings = ""
        given_up = MV.given_up(f, self._, r.alternative_gives_up)
        # the saving as the two totals are shown (their difference, each rounded as the table rounds it)
        alt_total = r.alternative.total_cost_usd if r.alternative is not None else None
        saved = (MV.gap(f, r.proposed.total_cost_usd, alt_total) if r.savings_usd is not None and r.proposed
                 and r.proposed.total_cost_usd is not None and alt_total is not None else f.money(r.savings_usd))
        dearer = (MV.gap(f, alt_total, r.proposed.total_cost_usd) if r.savings_usd is not None and r.proposed
                  and r.proposed.total_cost_usd is not None and alt_total is not None else f.money(r.savings_usd))
        slower_only = {g.what for g in r.alternative_gives_up} == {"wall_days"}  # the same training, later
        if r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None and given_up and slower_only:
            # review60: 'does not do the same work: 109.3 days instead of 12.0 days' of the same run
            savings = self._("The alternative costs %(amount)s less but takes longer: %(what)s.",
                             amount=saved, what=given_up)
        elif r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None and given_up:
            savings = self._("The alternative costs %(amount)s less but does not do the same work: %(what)s.",
                             amount=saved, what=given_up)
        elif r.savings_usd is not None and r.savings_usd > 0 and r.alternative is not None:
            base_cost = r.proposed.total_cost_usd if r.proposed else None
            if base_cost:
                share = r.savings_usd / base_cost  # 99.8% is not "100%": the alternative still costs something
                savings = self._("The alternative saves %(amount)s (%(pct)s of the proposed cost).",
                                 amount=saved,
                                 pct=f.pct(share, 1 if 0.995 <= share < 1 else 0))
            else:
                savings = self._("The alternative saves %(amount)s.", amount=saved)
        elif r.alternative is None:
            savings = self._("No feasible alternative was found in the catalog.")
        elif getattr(r, "alternative_is_proposal", False):
            savings = self._("The best alternative found is the proposal's own setup: nothing in the catalog does "
                             "the job for less.")
        elif r.proposed is not None and not r.proposed.feasible and r.alternative.total_cost_usd is not None:
            # a proposal that cannot run is never the cheaper option: its price is not weighed
            savings = self._("The proposal cannot run as written, so its price is not weighed against the "
                             "alternative's: the alternative, at %(amount)s, is the best option found that can.",
                             amount=f.money(r.alternative.total_cost_usd))
        elif (r.proposed is not None and r.savings_usd is not None and r.savings_usd < 0
              and r.alternative.wall_days is not None and r.proposed.wall_days is not None
              and r.alternative.wall_days < r.proposed.wall_days):
            # dearer but sooner: the ranking weighs a day sooner as money (decide/rank.py), so say the trade
            savings = self._("The alternative costs %(amount)s more and finishes sooner (%(alt)s against the "
                             "proposal's %(prop)s): it ranks first because each day sooner is weighed at "
                             "constraints.value_of_a_day_usd.", amount=dearer,
                             alt=f.days(r.alternative.wall_days), prop=f.days(r.proposed.wall_days))
        else:
            savings = self._("The alternative is not cheaper than the proposal.")
        own = list(getattr(r, "alternative_findings", []) or [])
        if own and r.alternative is not None:
            # the alternative's own warnings, after what it saves: the approver is offered it (review54); the brief
            # names their rules, as it names the findings it leaves to the full report, which says each
            said = self.f.clause.join(
                self._("%(rule)s: %(said)s", rule=x.rule, said=self.f.sentence(x.template, x.values, x.message)
                       .rstrip(".。")) for x in own)
            savings = self.f.join([savings, self.f.ngettext(
                "The alternative has %(n)s warning of its own: %(list)s.",
                "The alternative has %(n)s warnings of its own: %(list)s.", len(own), list=said) if self.full else
                self.f.ngettext("The alternative has %(n)s warning of its own (in the full report): %(list)s.",
                                "The alternative has %(n)s warnings of its own (in the full report): %(list)s.",
                                len(own), list=self.f.sep.join(x.rule for x in own))])
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
                        if c is not None and c.ledger is not None] + self.proposal_time(r.proposed),
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
            data = self.r.charts
            rows = [(c, w) for c, w in ((r.proposed, proposed_word), (r.alternative, alternative_word)) if c]
            costs = []
            if r.proposed is not None:
                costs.append((data.proposal_cost_curve, self._(
                    "Cumulative cost of renting and of buying %(name)s (proposed)",
                    name=self.candidate_name(r.proposed)), r.proposed.break_even_month))
            if r.alternative is not None:
                costs.append((data.cost_curve, self._(
                    "Cumulative cost of renting and of buying %(name)s (the alternative)",
                    name=self.candidate_name(r.alternative)), r.alternative.break_even_month))
            scatter = None
            if self.full and r.proposed is not None and data.time_cost is not None:
                scatter = [*self.points_of([(r.proposed, proposed_word, True)]),
                           *(p.model_copy(update={"chosen": False, "role": alternative_word if p.chosen else ""})
                             for p in data.time_cost)]
            vm["charts"] = self.charts(memory=self.bars_of(rows), costs=costs, scatter=scatter,
                                       chosen_word=proposed_word)
        return vm

    def proposal_time(self, c: Any) -> list[dict[str, Any]]:
        """A training proposal's wall-clock time part by part, as a recommendation's answer has it: the time the
        verdict quotes (spot capacity's reclaims and waits included) beside the compute step's run (review50: a
        spot rental read '38.5 days' above '28.5 days wall-clock with the start-up', with nothing between)."""
        tl = getattr(c, "timeline", None) if c is not None else None
        if tl is None or c.wall_days is None:
            return []
        return [{"title": self._("How the proposal's time adds up"),
                 "table": MV.timeline_table(self.f, self._, tl, c.acquisition == "buy")}]

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
            (self._("Output tokens/s"), lambda c: f.num(served_tokens_per_s(c), 0)),
            (self._("Rent or buy"), lambda c: f.acquisition(c.acquisition)),
            (self._("Total cost"), lambda c: MV.cost_row(f, self._, c.ledger) if c.ledger else f.money(
                c.total_cost_usd)),
            (self._("Feasible"), lambda c: f.yes_no(c.feasible)),
        ]
        if not self.full:
            spec = [spec[i] for i in (0, 1, 3, 5, 6, 7, 8)]
        stated = self.stated_batch()
        rounded = {id(c): self.batch_rounded(c.step_batch, stated) for c in cols if c is not None and c.step_batch}
        if any(rounded.values()):  # a step of whole micro-batches past the batch asked: recommend's words (product65)
            at = next(i for i, (label, _g) in enumerate(spec) if label == self._("Memory per GPU")) + 1
            spec.insert(at, (self._("Global batch"), lambda c: rounded[id(c)][0][1] if rounded.get(id(c)) else (
                self._("%(tokens)s tokens a step", tokens=format(c.step_batch.global_batch_tokens, ","))
                if c.step_batch else f.na())))
        if any(c is not None and self.request_rate(c.serving) for c in cols):
            # a service asked at a request rate with p95 targets: the queueing answer, as recommend's Request rate
            # row gives it (review53: the JSON held it, the page said nothing of the targets the proposal names)
            at = next(i for i, (label, _g) in enumerate(spec) if label == self._("Rent or buy"))
            spec.insert(at, (self._("Request rate"), lambda c: self.request_rate(c.serving) or f.na()))
        rows = [[label, cell(proposed, get), cell(alternative, get)] for label, get in spec]
        reasons = self.short_reasons(proposed) if proposed else []
        return {**table(["", self._("Proposed"), self._("Best feasible alternative")], rows),
                "reasons": reasons, "reasons_title": self._("Why the proposal falls short")}

    def cards(self, cards: list[UsedCard]) -> list[dict[str, Any]]:
        """Used-card inspection: the known readings of each card, and the findings about it."""
        out = []
        findings = list(getattr(self.r, "findings", []))
        for i, card in enumerate(cards, 1):
            serial = card.serial
            about = [x for x in findings if serial and (x.evidence.get("serial") == serial or serial in x.subject)]
            rows = self._card_rows(card)
            if about:
                rows.append([self._("Findings on this card"),
                             self.f.sep.join(self.tagged(x.rule, self._(SEVERITY_ONE[x.severity])) for x in about)])
            # the worst finding about the card, as the report's summary of it
            worst = min((SEVERITIES.index(x.severity) for x in about), default=len(SEVERITIES))
            status = {0: "fail", 1: "suspect"}.get(worst, "ok" if _card_checked(card) else "unknown")
            out.append({
                "title": self._("Card %(n)s: %(serial)s", n=i, serial=serial or self.f.na()),
                "about": self.f.sep.join(self.tagged(x.rule, self._(SEVERITY_ONE[x.severity])) for x in about),
                "counts": self.severity_counts(about),
                "status": status,
                "status_label": self._(CARD_STATUS[status]) if status in CARD_STATUS else status,
                **table([self._("Check"), self._("Value")], rows),
            })
        return out

    def severity_counts(self, findings: list[Finding]) -> str:
        """"2 blockers, 1 warning": the severities present, counted."""
        n = {sev: sum(x.severity == sev for x in findings) for sev in SEVERITIES}
        said = [self.f.ngettext("%(n)s blocker", "%(n)s blockers", n["blocker"]) if n["blocker"] else "",
                self.f.ngettext("%(n)s warning", "%(n)s warnings", n["warning"]) if n["warning"] else "",
                self.f.ngettext("%(n)s note", "%(n)s notes", n["info"]) if n["info"] else ""]
        return self.f.sep.join(t for t in said if t)

    def _card_rows(self, card: UsedCard) -> list[list[str]]:
        """A used card's checks, a row each (fmt.CARD_FIELDS): every field of the card is shown in a
        row of its own or in another's (fmt.CARD_SHOWN_WITH), or left out by design (fmt.CARD_INTERNAL)."""
        f = self.f
        unknown = self._("not known")
        has_smi = card.has_smi
        known = _known

        def either(v: Any) -> Any:
            return v if known(v) else "?"

        rows = []
        for key, label, how in CARD_FIELDS:
            text = None
            v = getattr(card, key)
            if (how.startswith("smi-") or how in _SMI_ROWS) and not has_smi:
                continue
            kind = how.removeprefix("smi-")
            if kind == "pcie":
                text = self._("Gen %(gen)s x%(width)s (the card supports Gen %(gen_max)s x%(width_max)s)",
                              gen=either(card.link_gen), width=either(card.link_width),
                              gen_max=either(card.link_gen_max), width_max=either(card.link_width_max))
            elif kind == "power":
                if known(v):
                    text = self._("%(limit)s W (default %(default)s W)", limit=format(v, "g"),
                                  default=format(card.default_power_limit_w, "g")
                                  if known(card.default_power_limit_w) else "?")
            elif kind == "serial-report":
                text = ({1: self._("yes"), 0: self._("no")}.get(v, unknown) if not (v == 0 and card.report_serial)
                        else self._("no: the report gives %(serial)s", serial=card.report_serial))
            elif kind == "report-gpu":
                if card.gpus_in_report > 1:  # one GPU in the report: nothing to say which
                    text = self._("%(index)s of %(count)s", index=v, count=card.gpus_in_report)
            elif kind == "memory":
                text = self._("%(shown)s MiB of %(claimed)s MiB claimed (%(ratio)s)", shown=f.num(v, 0),
                              claimed=f.num(card.claimed_memory_mib, 0), ratio=f.pct(card.memory_ratio)) \
                    if known(v) and known(card.claimed_memory_mib) and known(card.memory_ratio) else unknown
            elif kind == "mem-type":
                if known(v):
                    text = (self._("%(type)s, throttles at %(temp)s °C", type=v, temp=card.mem_throttle_c)
                            if known(card.mem_throttle_c) else
                            self._("%(type)s, no published throttle temperature", type=v))
            elif kind == "gpu-temp":
                text = self._("%(temp)s °C (limit %(limit)s °C, slowdown %(slowdown)s °C, shutdown %(shutdown)s °C)",
                              temp=v, limit=either(card.gpu_temp_limit_c), slowdown=either(card.gpu_slowdown_temp_c),
                              shutdown=either(card.gpu_shutdown_temp_c)) if known(v) else unknown
            elif kind == "mem-temp":
                text = (self._("%(temp)s °C (limit %(limit)s °C)", temp=v, limit=either(card.mem_temp_limit_c))
                        if known(v) else unknown)
            elif kind == "text":
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
                n = getattr(card, key.replace("_cv", "_samples"))
                text = self._("%(value)s from %(n)s readings", value=format(v, ".2f"), n=n) if n else \
                    format(v, ".2f")
            elif kind == "pct":
                text = f.pct(v)
            if text is not None:
                rows.append([self._(label), text])
        return rows
