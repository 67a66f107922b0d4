"""serving.yaml's names of the other knowledge files: every GPU architecture a section lists (``architectures``,
``*_architectures``, the keys of ``architecture_overrides``) is one of gpus.yaml's, or one chip of one (``sm`` and its
compute capability without the dot: sm120), and every model a section lists (``models``, ``read_on_model``) is a
catalog id. A misspelt one ('hoper', 'glm-4.5x') matched no job, so the section's figure was never charged, silently,
and an overlay's list replaces the shipped one (hostile round 38: ``torch_router.models: [glm-4.5x]`` took GLM-4.5's
router cost away)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import N_, KnowledgeError
from .records import Record

Index = dict[tuple[Any, ...], dict[int, int]]


def check_serving_names(kb: Any, path: Path, index: Index | None = None) -> None:
    """Raise KnowledgeError at the first architecture or model of ``kb.serving`` that the knowledge base lacks, the
    place named as the file numbers it (``index``: an overlay's entries by their place in its file)."""
    gpus = kb.gpus.values()
    archs = {g.architecture for g in gpus if g.architecture}
    archs |= {f"sm{g.compute_capability.replace('.', '')}" for g in gpus if g.compute_capability}
    _walk(kb, sorted(archs), kb.serving, (), "", str(path), index or {})


def _walk(kb: Any, archs: list[str], obj: Record, key: tuple[Any, ...], where: str, path: str, index: Index) -> None:
    for field, value in vars(obj).items():
        here = f"{where}.{field}" if where else field
        if field == "architectures" or field.endswith("_architectures") or field == "architecture_overrides":
            for name in value:
                if name not in archs:
                    _unknown_architecture(archs, name, f"{path}: {here}")
        elif (field == "models" and all(isinstance(v, str) for v in value)) or field == "read_on_model":
            for name in [value] if field == "read_on_model" else value:  # fp8_large_batch: the model read on
                if name not in kb.models:
                    close = [m for m in [kb.model_names.meant(name)] if m]  # 'GLM-4.5': its id
                    raise KnowledgeError(N_("unknown model '%(name)s'"), where=f"{path}: {here}", values={"name": name},
                                         hint=N_("did you mean %(name)s?") if close else None,
                                         hint_values={"name": close[0]} if close else None)
        elif isinstance(value, Record):
            _walk(kb, archs, value, (*key, field), here, path, index)
        elif isinstance(value, (list, tuple)):
            for j, item in enumerate(value):
                if isinstance(item, Record):
                    shown = index.get((*key, field), {}).get(j, j)
                    ident = getattr(item, "id", None)
                    named = f" (id {ident})" if isinstance(ident, str) else ""
                    _walk(kb, archs, item, (*key, field, j), f"{here}[{shown}]{named}", path, index)
        elif isinstance(value, dict):
            for k, item in value.items():
                if isinstance(item, Record):
                    _walk(kb, archs, item, (*key, field, k), f"{here}.{k}", path, index)


def _unknown_architecture(archs: list[str], name: Any, where: str) -> None:
    import difflib  # a close match for an error's hint: not on the way of a good answer

    close = difflib.get_close_matches(str(name).strip().lower(), archs, n=1, cutoff=0.6)
    raise KnowledgeError(N_("unknown architecture '%(name)s'"), where=where, values={"name": name},
                         hint=N_("did you mean %(name)s?") if close else None,
                         hint_values={"name": close[0]} if close else None)
