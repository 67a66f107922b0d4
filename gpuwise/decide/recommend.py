"""``gpuwise recommend``: candidates -> the four steps as a chain of rules -> ranking policy.

Candidates are GPU type x count (1, 2, 4, 8 in a node, then whole nodes up to ``max_gpus``) x
rent or buy. Estimators compute every number of every step; the rule book decides, step by
step, which candidates pass (memory -> compute -> interconnect -> TCO -> decided) and what to
say about them; the ranking policy (:mod:`gpuwise.decide.rank`) orders the candidates that reached
the end of the chain unrejected. The rooms: the count search (:mod:`.count_search`), the
consultation (:mod:`.consult`), the result (:mod:`.result`).
"""

from __future__ import annotations

from typing import Any

from .. import knowledge as knowledge_mod
from ..inputs import job as job_mod
from ..inputs.job import resolve
from ..inputs.money import to_usd, with_rate
from ..inputs.schema import Requirements, coerce
from ..results import RecommendResult
from .consult import consult, gc_paused, rulebook_for
from .count_search import estimates
from .result import build_result
from .subjects import candidate_gpus


def recommend(requirements: Any, *, knowledge: str | None = None, rules: str | None = None,
              fx_rate: float | None = None) -> RecommendResult:
    """``fx_rate``: CNY per USD instead of the knowledge base's dated rate (``--fx-rate``)."""
    with gc_paused():
        return _recommend(requirements, knowledge=knowledge, rules=rules, fx_rate=fx_rate)


def _recommend(requirements: Any, *, knowledge: str | None, rules: str | None,
               fx_rate: float | None = None) -> RecommendResult:
    req: Requirements = coerce(Requirements, requirements)
    kb = with_rate(knowledge_mod.load(knowledge), fx_rate)
    where = str(requirements) if isinstance(requirements, str) else "requirements"
    req, money_notes = to_usd(req, kb)
    with resolve(req, kb, where) as job:  # its caches are dropped when the result is built
        book = rulebook_for(job, rules)
        gpu_ids, notes = candidate_gpus(job)
        notes = [*money_notes, *notes]
        evaluations, modes, server = estimates(job, gpu_ids, book)
        con = consult(job, evaluations, book, modes=modes, server=server, every_rule=True)
        if job_mod.KEPT is not None:  # the gpuwise process: freed by its end (inputs/job.py KEPT)
            job_mod.KEPT.append((evaluations, con))
        return build_result(job, con, notes, rules)
