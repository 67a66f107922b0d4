"""The serving knobs a user turns beyond the precision: speculative decoding and the weight
quantization method, resolved against what the chosen framework runs (knowledge/serving.yaml).

A method the framework does not run is not modelled (the figures are without it) and is reported as
a fact, so a rule can say so; a method it runs replaces the framework's defaults.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...knowledge.records import release_at_least

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema.serving import Framework, MethodKernel, QuantizationMethod



@frozen
class Spec:
    """Speculative decoding as modelled: ``k`` drafted tokens per step, each kept with chance ``alpha``
    until the first miss; the drafter's cost per drafted token in target layers (``draft_layers``) or
    as a model of ``draft_params`` parameters."""

    method: str
    alpha: float
    k: int
    draft_layers: float
    draft_params: float

    @property
    def tokens_per_step(self) -> float:
        """Expected tokens a verify step yields per sequence: (1 - a^(k+1)) / (1 - a) (Leviathan et al.
        2023, eq. 1): the accepted drafts plus the target's own token."""
        a = self.alpha
        return (1.0 - a ** (self.k + 1)) / (1.0 - a)

    def as_dict(self) -> dict[str, Any]:
        return {"method": self.method, "acceptance_rate": self.alpha, "draft_tokens": self.k,
                "tokens_per_step": self.tokens_per_step, "draft_layers": self.draft_layers,
                "draft_params_b": self.draft_params / 1e9 if self.draft_params else None}


def prefix_cached(fw: Framework | None, w: Any) -> bool:
    """Whether the server keeps prompt prefixes from one request to the next, so that the workload's
    prefix_cache_hit_rate holds (serving.yaml ``prefix_cache``): not where the job turns the cache off, nor on a
    framework that keeps none (transformers' generate()), nor on a release before the one that keeps them by default
    unless the job states ``prefix_cache: true`` (vLLM's V0 engine with --enable-prefix-caching); a framework whose
    entry is not read keeps them, as the job states."""
    stated = getattr(w, "prefix_cache", None)
    pc = getattr(fw, "prefix_cache", None)
    if stated is False:
        return False
    if pc is None:
        return True
    if not pc.kept:
        return False
    version = getattr(w, "framework_version", None)
    return bool(stated) or not (pc.default_first and version and not release_at_least(version, pc.default_first))


def model_mtp_layers(job: Any) -> int:
    """The multi-token-prediction layers the job's catalog model ships (knowledge/models.yaml
    ``mtp_layers``); -1 for a model not in the catalog (its checkpoint is not known)."""
    models = getattr(job.kb, "models", None) or {}
    m = models.get(job.model_id) if job.model_id else None
    return int(m.mtp_layers) if m is not None else -1


def speculative(kb: Any, fw: Framework, w: Any, job: Any = None) -> tuple[Spec | None, bool]:
    """(the speculative decoding to model, whether ``fw`` runs the asked method); (None, True) when none
    is asked, (None, False) when the framework does not run it. MTP is not modelled (None, True) for a
    catalog model whose checkpoint ships no MTP layers: there is no drafter to run."""
    asked = getattr(w, "speculative", None)
    if asked is None:
        return None, True
    known = getattr(getattr(kb, "serving", None), "speculative_methods", {}) or {}
    m = known.get(asked.method)
    if m is None or fw.id not in m.frameworks:
        return None, False
    if asked.method == "mtp" and job is not None and model_mtp_layers(job) == 0:
        return None, True
    alpha = asked.acceptance_rate if asked.acceptance_rate is not None else m.acceptance_rate
    k = asked.draft_tokens if asked.draft_tokens is not None else m.draft_tokens
    draft = (asked.draft_params_b or 0.0) * 1e9
    return Spec(asked.method, float(alpha), int(k), float(m.draft_layers), draft), True


def supported_speculative(kb: Any, method: str) -> list[str]:
    """Framework ids that run ``method``."""
    known = getattr(getattr(kb, "serving", None), "speculative_methods", {}) or {}
    m = known.get(method)
    return list(m.frameworks) if m is not None else []


def quantization(kb: Any, fw: Framework, w: Any) -> tuple[QuantizationMethod | None, MethodKernel | None, bool]:
    """(the method, its kernel in ``fw``, whether ``fw`` loads it); (None, None, True) when none is asked."""
    asked = getattr(w, "quantization", None)
    if asked is None:
        return None, None, True
    known = getattr(getattr(kb, "serving", None), "quantization_methods", {}) or {}
    m = known.get(asked)
    if m is None or fw.id not in m.frameworks or w.precision not in m.formats:
        return None, None, False
    return m, m.frameworks[fw.id], True


def supported_quantization(kb: Any, method: str) -> list[str]:
    """Framework ids that load ``method``."""
    known = getattr(getattr(kb, "serving", None), "quantization_methods", {}) or {}
    m = known.get(method)
    return list(m.frameworks) if m is not None else []
