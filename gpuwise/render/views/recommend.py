"""The view model of a recommendation: the answer and its layout, the alternatives in a short
table, why GPUs are out, and (in full) every candidate.
"""

from __future__ import annotations

from typing import Any

from ...messages import batch_size_change, phrase_json
from ...results import (
    Candidate,
    EstimateResult,
    Finding,
    Recommendation,
    RecommendResult,
)
from ...results_training import TrainingOut
from .. import money_view as MV
from .. import words
from ..fmt import (
    DASH,
    FRAMEWORK_NAMES,
    N_,
    _chosen,
    input_text,
    pairs,
    table,
)
from .base import BRIEF_ALTERNATIVES, LEADING
from .charts import ChartsView
from .steps import StepsView, served_tokens_per_s

# what a count of findings counts: the brief lists the answer's (and the question's), the full report's Blockers and
# warnings adds the other GPU types' (named 'The same for: ...'), its Findings every candidate's
FINDINGS_ABOUT = {"answer": N_("the answer's"), "answer_and_types": N_("the answer's and other GPUs'"),
                  "everything": N_("every candidate's")}


class RecommendView(StepsView, ChartsView):
    """A recommendation's report."""

    def subject(self, question: dict[str, Any]) -> str:
        """The job the answer is for, on the title's line, with the values as the question holds them (the brief
        named no model: a signed page must say what it sizes; on the title's line, so the brief keeps its length)."""
        w = (question or {}).get("workload") or {}
        if not w.get("task"):
            return ""
        model = w.get("model") or (self._("a %(b)sB-parameter model", b=self.f.num(w["params_b"]))
                                   if w.get("params_b") else "")
        if w.get("method") and w["task"] == "finetune":  # a QLoRA and a full fine-tune differ several times over
            return self._("%(task)s (%(method)s), %(model)s, %(precision)s", task=w["task"], method=w["method"],
                          model=model, precision=w.get("precision") or "")
        return self._("%(task)s, %(model)s, %(precision)s", task=w["task"], model=model,
                      precision=w.get("precision") or "")

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
            "subject": self.subject(r.question),
            "answer": self.answer(r.recommendation, chosen, est, cands) if r.recommendation else None,
            "no_answer": self._("No candidate meets the requirements. The reasons each one was rejected are "
                                "listed below."),
            "decision": self.decision(),
            "alternatives": alternatives,
            # each count says what it counts: the brief's are the answer's, the full report's Findings every
            # candidate's (review52)
            "issues": self.issues(self.answers_findings(r), r.recommendation.gpu if r.recommendation else "",
                                  scope=FINDINGS_ABOUT["everything" if r.recommendation is None else
                                                       "answer_and_types" if self.full else "answer"]),
            "assumptions": self.assumptions(),
            "knowledge": self.knowledge(),
            "steps": self.steps(focus, cands, est) if self.full or self.fmt == "html" else [],
            "question": self.question(r.question) if self.full else [],
            "rejected": self.rejected(cands) if self.full or r.recommendation is None else [],
            "rejected_more": "",
            "candidates": self.candidates_table(cands, chosen) if self.full else None,
            "findings": self.findings(list(r.findings), FINDINGS_ABOUT["everything"]) if self.full else None,
            "trace": self.trace_table() if self.full else None,
            "charts": {},
        })
        named = {c.gpu for c in r.alternatives}
        n = len([g for g in vm["rejected"] if g["gpu"] not in named])
        if not self.full and r.recommendation is None and named and n:
            # no answer from the whole catalog: the alternatives say why not for the GPU types that
            # came closest; the full report lists every other one with its reasons
            vm["rejected"] = []
            vm["rejected_more"] = self.f.ngettext(
                "%(n)s more GPU type was rejected; the full report lists each with its reasons.",
                "%(n)s more GPU types were rejected; the full report lists each with its reasons.", n)
        if self.fmt == "html" or self.full:
            data = self.r.charts
            answer_word = self._("the answer")
            memory = (data.memory if self.full and data.memory else
                      self.bars_of((c, answer_word if c is chosen else "") for c in listed) if listed else
                      self.bars_of((c, "") for c in cands[:LEADING]))
            cost_title = self._("Cumulative cost of renting and of buying %(name)s",
                                name=self.candidate_name(r.recommendation)) if r.recommendation else ""
            scatter = (data.time_cost if self.full and data.time_cost else
                       self.points_of((c, "", c is chosen) for c in listed) if len(listed) > 1 else
                       self.points_of((c, "", c is chosen) for c in cands))
            serving = est.gpu.serving if est is not None and est.gpu is not None and r.recommendation and \
                est.gpu.id == r.recommendation.gpu and est.gpu.count == r.recommendation.count else None
            be = chosen.break_even_month if chosen is not None else None
            vm["charts"] = self.charts(memory=memory, costs=[(data.cost_curve, cost_title, be)],
                                       scatter=scatter, chosen_word=answer_word if not self.full else "",
                                       serving=serving)
        return vm

    def first_step_reasons(self, c: Candidate) -> str:
        """Why a configuration is not feasible, in a line: its first reason, and where that is the cost step's,
        every reason of that step, which price the ways of acquiring it apart (review57: 32 x GB200 read 'No cloud
        in the knowledge base rents 32 x NVIDIA GB200' alone, where TCO-NO-PRICE-EITHER-WAY adds that it has no
        purchase price either: the approver read that buying was open). Another step's later reasons follow from
        its first (a p95 floor above the target, then a rate of 0.00 within it: test_serving_rate) and stay out."""
        reasons = self.short_reasons(c)
        sentences = list(c.reason_sentences)
        if not reasons:
            return ""
        step = {x.rule: x.step for x in self.r.findings}  # a rule's step is the rule's, whichever it judged
        if len(sentences) != len(reasons) or step.get(sentences[0].id) != "tco":
            return reasons[0]
        return self.f.clause.join(t for s, t in zip(sentences, reasons, strict=True) if step.get(s.id) == "tco")

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
        # in rank order: the answer, then the feasible options by rank, then those that are not feasible
        rows_in.sort(key=lambda x: (x[1] != "answer", not x[0].feasible,
                                    x[0].rank if x[0].rank is not None else 1 << 30))
        feasible = sum(1 for c in cands if c.feasible)
        inference = all(c.wall_days is None for c, _ in rows_in)
        if inference:
            speed_header = self._("Output tokens/s")
            speed = [f.num(served_tokens_per_s(c), 0) for c, _ in rows_in]
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
                note = self.first_step_reasons(c) or self._("rejected")
            how = f.acquisition(c.acquisition)
            if c.acquisition == "rent" and c.provider:
                how = self._("%(mode)s, from %(where)s", mode=how, where=f.provider(c.provider))
            elif c.stage == "tco" and c.rent_cost_usd is None and c.buy_cost_usd is None:  # the cost step priced
                # it neither way (review57: GB200 read 'Rent or buy: rent' beside 'No cloud ... rents 32 x GB200')
                how = f.na()
            rows.append([self.candidate_name(c), how, time, MV.total_said(f, self._, c), note])
            classes.append("chosen" if role == "answer" else ("" if c.feasible else "bad"))
        return {**table([self._("Option"), self._("Rent or buy"), speed_header, self._("Total cost"),
                         self._("Why not")], rows, right=(2, 3), classes=classes),
                "candidates": [c for c, _ in rows_in]}

    def answers_findings(self, r: RecommendResult) -> list[Finding]:
        """The findings a brief recommendation lists: those about the answer and the question, not
        those about candidates that were not chosen (they stay in the alternatives' "why not" and in
        the full report). With no answer, every finding says why. A finding about another configuration of the
        answer's own GPU is left to the full report's findings, headed by that configuration, in either detail."""
        if r.recommendation is None:
            return list(r.findings)
        if self.full:  # another GPU's is named by its GPU ('The same for: ...'); another count of this one is not
            return [x for x in r.findings if not (self.another(x) and x.subject == r.recommendation.gpu)]
        others = {c.gpu for c in r.candidates} - {r.recommendation.gpu}
        mine = r.recommendation.gpu_name

        # the host share the answer's cost adds (prices_used): another share of its GPU is another count's (8 cards
        # in PCIe servers beside an answer of 2 in a workstation)
        hosts = {str(v.get("key")) for e in r.prices_used if e.kind == "host"
                 for *_, v in e.item_phrases if isinstance(v, dict)}

        def about_another(x: Finding) -> bool:  # a GPU id, or a price of a GPU shown, named (price.what.*)
            what = x.values.get("what_phrases") or []
            return any(word in others for word in x.subject.split()) or any(
                len(part) == 3 and isinstance(part[2], dict) and (
                    part[2].get("gpu") not in (None, mine)
                    or (part[1] == "price.what.host" and str(part[2].get("key")) not in hosts))
                for part in what)

        # another count of the answer's own GPU is another candidate too (NET-SLOW-NETWORK of 64 rented Sparks
        # under an answer of two, hostile round 27): its findings carry the configuration they judged
        return [x for x in r.findings if not about_another(x) and not self.another(x)]

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
            rows.append([self._("Wall-clock time"), MV.time_row(f, self._, tl, rec.acquisition == "buy") if tl else (
                f.days(rec.wall_days) if hours is None else self._(
                    "%(time)s (%(gpu_hours)s GPU-hours)", time=f.days(rec.wall_days), gpu_hours=f.num(hours, 0)))])
        months = (rec.summary_sentence.values.get("project_months") if rec.summary_sentence else None)
        if led is not None:
            rows.append([self._("Total cost"), MV.cost_row(f, self._, led)])
        elif rec.wall_days is None and isinstance(months, (int, float)):
            rows.append([self._("Total cost"), self._("%(total)s over %(months)s", total=f.money(rec.total_cost_usd),
                                                      months=f.months(months))])
        else:
            rows.append([self._("Total cost"), f.money(rec.total_cost_usd)])
        rows += MV.constraint_rows(f, self._, self.asked(), led, tl, rec.serving)
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
            # the brief's lines leave out what its headline says (count, rent or buy, time, cost)
            "brief_lines": pairs([r for r in rows if r[0] not in {
                self._("Count"), self._("Rent or buy"), self._("Wall-clock time"), self._("Total cost")}]),
            # the brief's last fitting step: also without the highest peak of another layout (the full report has it)
            "brief_short": pairs([r for r in rows if r[0] not in {
                self._("Count"), self._("Rent or buy"), self._("Wall-clock time"), self._("Total cost"),
                self._("Highest peak")}]),
            "ledger": MV.ledger_table(f, self._, led) if led is not None else None,
            "timeline": MV.timeline_table(f, self._, tl, rec.acquisition == "buy")
            if tl is not None and rec.wall_days is not None else None,
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
        lay, tr = g.layout, g.training if isinstance(g.training, TrainingOut) else None
        rows = [[self._("Layout"), words.training_layout(lay, g.count, f)]]
        rows += self._batch_rounded(lay)
        why = []
        split = lay.tp * lay.pp * lay.ep * lay.cp
        one = [c for c in cands if c.gpu == g.id and c.count == 1 and not c.feasible and c.stage == "memory"]
        if split > 1 and one:
            why.append(self._("the job does not fit one GPU's memory (%(need)s needed, %(usable)s usable)",
                              need=f.bytes(one[0].memory_per_gpu_bytes), usable=f.bytes(one[0].usable_per_gpu_bytes)))
        if tr is not None and tr.layouts_tried > 1:
            why.append(self._("fastest of %(n)s that fit", n=tr.layouts_tried))
        if est is not None and est.memory.usable_per_gpu_bytes:
            why.append(self._("%(need)s per GPU of %(usable)s usable", need=f.bytes(est.memory.per_gpu_bytes),
                              usable=f.bytes(est.memory.usable_per_gpu_bytes)))
        if why:
            rows.append([self._("Why this layout"), f.clause.join(why)])
        if g.fits_as_requested is False and tr is not None and tr.suggested_changes:
            # a micro-batch planned smaller: in the file's field with its accumulation steps (as the changes column)
            shown = f.clause.join(
                words.phrase(phrase_json((batch_size_change(c.before, c.after, lay.grad_accum),)), f)
                if c.field == "batch_size" else f"{c.field}: {input_text(c.before)} → {input_text(c.after)}"
                for c in tr.suggested_changes)
            rows.append([self._("Suggested changes"), self._(
                "as written the job needs %(need)s per GPU, more than is usable; gpuwise would change %(changes)s",
                need=f.bytes(tr.requested_memory_per_gpu_bytes), changes=shown)])
        return rows

    def _batch_rounded(self, lay: Any) -> list[list[str]]:
        """The global batch the layout takes where it is more than the one stated or assumed: a step holds whole
        micro-batches on every replica, so 4,194,304 tokens (512 sequences of 8,192) on 36 replicas are 15
        accumulation steps, 540 sequences, 4,423,680 tokens, 5.5% more than the Assumptions' figure (review62).
        The words are :meth:`BaseView.batch_rounded`'s, which estimate and audit say too (product65)."""
        return self.batch_rounded(lay, self.stated_batch())  # the typed question (test_typed_records)

    def serving(self, est: EstimateResult | None, rec: Recommendation | Candidate) -> dict[str, Any] | None:
        """An inference job's serving figures: the framework and layout, throughput and latency at the
        load, what the memory holds, the targets, and the cost per million output tokens."""
        g = est.gpu if est is not None else None
        sv = g.serving if g is not None else None
        if sv is None or g is None or g.id != rec.gpu or g.count != rec.count:
            return None
        f = self.f
        fw = FRAMEWORK_NAMES.get(sv.framework, sv.framework)
        layout = words.serving_layout(sv.layout, sv.layout_label, f)
        rows = [
            [self._("Served with"), self._("%(framework)s, %(layout)s", framework=fw, layout=layout)],
            [self._("At the load"), self._(
                "requests in flight: %(n)s; %(tps)s output tokens/s in total; the first token after %(ttft)s, "
                "then one every %(tpot)s per request", n=f.num(sv.concurrency, 0),
                tps=f.num(sv.throughput_tokens_per_s, 0), ttft=f.seconds(sv.ttft_s), tpot=f.seconds(sv.tpot_s))],
            # one sequence in the singular (wording65: 'memory holds 1 sequences at once' of a 128k context)
            [self._("Capacity"), f.ngettext(
                "memory holds %(x)s sequence at once; at most %(tps)s output tokens/s within latency limits",
                "memory holds %(x)s sequences at once; at most %(tps)s output tokens/s within latency limits",
                round(sv.max_concurrent_sequences), x=f.num(sv.max_concurrent_sequences, 0),
                tps=f.num(sv.max_throughput_tokens_per_s, 0))
             if sv.targets.max_ttft_ms or sv.targets.max_tpot_ms else f.ngettext(
                "memory holds %(x)s sequence at once; at most %(tps)s output tokens/s",
                "memory holds %(x)s sequences at once; at most %(tps)s output tokens/s",
                round(sv.max_concurrent_sequences), x=f.num(sv.max_concurrent_sequences, 0),
                tps=f.num(sv.max_throughput_tokens_per_s, 0))],
        ]
        best = sv.best_layout
        if best.higher_peak:
            # the layout chosen for the load is not the one with the highest peak (by more than the policy's
            # serving_higher_peak_fraction, judged in the serving result): say so beside its capacity
            rows.append([self._("Highest peak"), self._(
                "%(layout)s: memory holds %(n)s sequences; at most %(tps)s output tokens/s (the layout above is "
                "the one chosen for the load)", layout=words.serving_layout(best.layout, best.label, f),
                n=f.num(best.max_concurrent_sequences, 0), tps=f.num(best.max_throughput_tokens_per_s, 0))])
        rate = self.request_rate(sv)
        if rate:
            rows.append([self._("Request rate"), rate])
        targets = sv.targets
        met = []
        for v, meets, text in ((targets.tokens_per_s, targets.meets_throughput_target, N_("%(v)s output tokens/s")),
                               (targets.max_ttft_ms, targets.meets_ttft, N_("first token within %(v)s ms")),
                               (targets.max_tpot_ms, targets.meets_tpot, N_("%(v)s ms per output token"))):
            if v is not None and v > 0:
                what = self._(text, v=f.num(v, 0))
                met.append(self._("meets the target of %(target)s", target=what) if meets else
                           self._("misses the target of %(target)s", target=what))
        if met:
            rows.append([self._("Targets"), f.clause.join(met)])
        cost = sv.cost_per_million_output_tokens
        if cost is not None and (cost.rent_usd is not None or cost.buy_usd is not None):
            why = cost.buy_unavailable_reason_phrases if cost.buy_usd is None else []
            rows.append([self._("Cost per million output tokens"), self._(
                # the load's proviso beside the figure it qualifies, before the reason, which ends on its own
                # 'buy 8' (review51: '... 1 cannot be bought: buy 8 (at this load, all the time)')
                "%(rent)s renting (at this load, all the time), not bought: %(why)s", rent=f.money2(cost.rent_usd),
                why=words.phrase(why, f)) if why else self._(
                # buying's figure is its total over the project, which takes the resale back: said so, as every
                # purchase beside a rental is (review55: '$2.62 buying' for 8 x B200 was $445,900 net / 170,294
                # million tokens; $559,776 paid is $3.29)
                "%(rent)s renting, %(buy)s buying net of resale (at this load, all the time)",
                rent=f.money2(cost.rent_usd), buy=f.money2(cost.buy_usd))])
        return {"rows": rows, "framework": fw, "layout": layout}

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
            twice = {n for n in (c.count for c in unique) if sum(1 for u in unique if u.count == n) > 1}
            items = []
            for c, rs in zip(unique, reasons, strict=True):
                own = [short for r, short in zip(rs, self.short_reasons(c), strict=True) if r not in common]
                if own or not common:  # a count rented and bought for different reasons says which is which
                    title = self.candidate_name(c) if c.count not in twice else self._(
                        "%(name)s, %(how)s", name=self.candidate_name(c), how=self.acquired(c))
                    items.append({"title": title, "count": str(c.count),
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
