"""The view model of an estimate: memory per GPU by part, compute, and a configuration's figures.
"""

from __future__ import annotations

from typing import Any

from ...results import (
    EstimateResult,
)
from .. import money_view as MV
from .. import words
from ..fmt import (
    N_,
    _ordered,
    eng,
    table,
)
from .base import BaseView


class EstimateView(BaseView):
    """An estimate's report."""

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
            if g.idle_gpus:  # a count the copy's GPUs do not divide: paid for, serving nothing
                rows.insert(2, [self._("Idle GPUs"), self.f.ngettext(
                    "%(n)s of the %(count)s holds no model copy", "%(n)s of the %(count)s hold no model copy",
                    g.idle_gpus, count=g.count)])
            sup = g.serving.supports if g.serving is not None else None
            if sup is not None and not (sup.gpu and sup.precision):  # the rules refuse it: the figures are a server
                # that cannot be run as stated (TensorRT-LLM on an AMD GPU, an AMD attention backend on an NVIDIA one)
                why = words.phrase(sup.detail_phrases, f) if sup.detail_phrases else sup.detail
                rows.append([self._("Runs on this GPU"), self._("no: %(why)s", why=why)])
            if g.rejected_by:  # numbers the rules refuse: a recommendation would not offer this configuration
                rows.append([self._("Refused by the rules"), f.sep.join(
                    self._("%(rule)s (%(title)s)", rule=r.rule, title=self._(r.title)) for r in g.rejected_by)])
            if g.fits and g.fits_as_requested is False:  # fits only with what gpuwise changed (a pin not kept, ...)
                rows.append([self._("Fits as requested"), f.yes_no(False)])
            if g.strategy:
                rows.append([self._("Strategy"), f.strategy(g.strategy, g.count, g.strategy_phrases)])
            if g.layout is not None:  # a training layout as a recommendation words it: the micro-batch the planner took
                rows.append([self._("Layout"), words.training_layout(g.layout, g.count, f)])
                rows += self.batch_rounded(g.layout, self.stated_batch())  # recommend's words (product65)
            smaller = getattr(getattr(g, "training", None), "smaller_micro_batch", None)
            if smaller is not None:  # a stated micro-batch that fits only by unasked offload or recomputation
                rows.append([self._("Smaller micro-batch"), self._smaller(smaller)])
            if g.gpu_hours is not None:  # the run's GPU-hours, as published runs count them
                rows.append([self._("GPU-hours of training"), f.num(g.gpu_hours, 0)])
                if g.timeline is not None:  # the billed ones (start-up and wind-down too): what the cost is of
                    rows += MV.gpu_hours_rows(f, self._, g.timeline, g.acquisition == "buy", whole=True)
            if g.wall_hours is not None:
                rows.append([self._("Wall-clock time"), f.days(g.wall_hours / 24)])
            for key, label in (("decode_tokens_per_s", N_("Decode speed, one sequence")),
                               ("decode_tokens_per_s_total", N_("Decode speed, all sequences")),
                               ("prefill_tokens_per_s", N_("Prefill speed"))):
                v = getattr(g, key)
                if v is not None:  # whole tokens from 100 up, as recommend says them (review61: 8 B300 read
                    # '10,000.0 tokens/s' here, '10,000 tokens/s in total' in the recommendation)
                    rows.append([self._(label), self._("%(n)s tokens/s", n=f.num(v, 0 if v >= 100 else 1))])
            rate = self.request_rate(g.serving)
            if rate:  # an inference job with a request rate or p95 targets: the highest rate served within them
                rows.append([self._("Request rate"), rate])
            if g.peak_tflops is not None:
                kind = words.peak_kind(g.peak_kind, f)
                # grouped as every other figure (review53: a B200's '4500 TFLOP/s fp8 tensor')
                rows.append([self._("Dense peak"), f"{g.peak_tflops:,g} TFLOP/s {kind}".rstrip()])
            if g.mfu is not None:
                run = getattr(g, "training", None)
                if run is not None and getattr(getattr(run, "step_terms", None), "offload_s", 0):
                    # offload stops the GPUs between steps: the MFU of the compute alone is not the run's
                    rows.append([self._("Utilisation (MFU) while computing"), f.pct(g.mfu)])
                    rows.append([self._("Utilisation over the whole run"), f.pct(run.mfu_whole_run)])
                else:
                    rows.append([self._("Utilisation (MFU)"), f.pct(g.mfu)])
            if g.scaling_efficiency is not None:
                rows.append([self._("Scaling efficiency"), f.pct(g.scaling_efficiency)])
            if g.cost_usd is not None:
                # a purchase whose ledger takes its resale back is said net of it (review55: '$445,900 (buy)')
                cost = self._("%(money)s net of resale", money=f.money(g.cost_usd)) if (
                    g.acquisition == "buy" and g.ledger is not None and g.ledger.amount("resale") < 0
                ) else f.money(g.cost_usd)
                rows.append([self._("Cost"), self.tagged(cost, f.acquisition(g.acquisition))
                             if g.acquisition else cost])
            gpu = {**table([self._("Item"), self._("Value")], rows),
                   "terms": [self.term(t) for t in g.terms]}
        vm.update({
            "title": self._("GPU memory and time estimate"),
            "question": self.question(r.workload),
            "memory": {**table([self._("Part"), self._("Per GPU")], mem_rows, right=(1,)),
                       "layout": words.formula_parts(m.layout_phrases, f) if m.layout_phrases
                       else words.plain(m.layout, f) if m.layout else "",
                       "peak_phase": words.phase(m.peak_phase, f) if m.peak_phase else "",
                       "notes": ([self._("Host RAM needed per node for offload: %(b)s.",
                                         b=f.bytes(m.host_ram_bytes_per_node))] if m.host_ram_bytes_per_node else [])
                       + ([self._("NVMe needed per node for the offloaded state: %(b)s; host RAM holds only its "
                                  "staging buffers.", b=f.bytes(m.nvme_bytes_per_node))]
                          if getattr(m, "nvme_bytes_per_node", 0) else [])
                       + words.notes(m.notes, m.notes_phrases, f),
                       "terms": [self.term(t) for t in m.terms]},
            # a service's figure is a generated token's, not a total (review53: 'Total FLOPs: 139e9 FLOP' above
            # 'flops_per_generated_token = 139e9 FLOP' for Llama 3.1 70B, 2 x 69.5e9 matmul weights)
            "compute": {"flops": f"{eng(r.compute.flops)} FLOP",
                        "label": self._("FLOPs per generated token") if any(
                            t.name == "flops_per_generated_token" for t in r.compute.terms) else self._("Total FLOPs"),
                        "terms": [self.term(t) for t in r.compute.terms]},
            "gpu": gpu,
            "knowledge": self.knowledge(),
        })
        return vm

    def _smaller(self, m: Any) -> str:
        """The largest smaller micro-batch of the same step that fits without the stated one's measure, worded."""
        f = self.f
        kw = dict(micro=m.alt_micro_batch, need=f.bytes(m.alt_memory_per_gpu_bytes), alt_s=f.num(m.alt_step_s, 2),
                  stated=m.micro_batch, step_s=f.num(m.step_s, 2))
        if m.measure == "offload":
            return f.ngettext("%(micro)s with %(n)s accumulation step fits without offload: %(need)s per GPU, "
                              "%(alt_s)s s a step, against %(step_s)s s at micro-batch %(stated)s with offload",
                              "%(micro)s with %(n)s accumulation steps fits without offload: %(need)s per GPU, "
                              "%(alt_s)s s a step, against %(step_s)s s at micro-batch %(stated)s with offload",
                              m.alt_grad_accum, **kw)
        return f.ngettext("%(micro)s with %(n)s accumulation step fits without recomputation: %(need)s per GPU, "
                          "%(alt_s)s s a step, against %(step_s)s s at micro-batch %(stated)s recomputing",
                          "%(micro)s with %(n)s accumulation steps fits without recomputation: %(need)s per GPU, "
                          "%(alt_s)s s a step, against %(step_s)s s at micro-batch %(stated)s recomputing",
                          m.alt_grad_accum, **kw)
