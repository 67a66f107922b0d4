"""Load the knowledge base (``knowledge/*.yaml``), validate it, overlay the user's files,
and resolve the lenient GPU and model names users type.

A bad entry is a :class:`KnowledgeError` naming the file and the entry.  YAML is
read with the safe loader only: a file cannot build Python objects.
"""

from __future__ import annotations

import datetime as dt
import difflib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from ..errors import KnowledgeError, UserError
from ..paths import knowledge_dir
from ..yamlio import read_yaml
from . import schema as S

FILES: dict[str, type[BaseModel]] = {
    "gpus.yaml": S.GpuFile,
    "models.yaml": S.ModelFile,
    "clouds.yaml": S.CloudFile,
    "tco.yaml": S.TcoFile,
    "software.yaml": S.SoftwareFile,
    "runtime.yaml": S.RuntimeFile,
}

def _entry_name(data: Any, loc: tuple[Any, ...]) -> str:
    """Name the entry a validation error points into: ``gpus[3] (id h100-80gb-sxm).memory.gb``."""
    parts: list[str] = []
    node = data
    for key in loc:
        if isinstance(key, int):
            label = f"[{key}]"
            try:
                node = node[key]
                if isinstance(node, dict) and "id" in node:
                    label += f" (id {node['id']})"
            except (IndexError, KeyError, TypeError):
                node = None
            if parts:
                parts[-1] += label
            else:
                parts.append(label)
        else:
            parts.append(str(key))
            try:
                node = node[key] if isinstance(node, dict) else None
            except (KeyError, TypeError):
                node = None
    return ".".join(parts) or "(top level)"


def validate_file(path: Path, schema: type[BaseModel], data: Any) -> BaseModel:
    if not isinstance(data, dict):
        raise KnowledgeError("expected a mapping at the top level", where=str(path))
    version = data.get("schema_version")
    if version != S.SCHEMA_VERSION:
        raise KnowledgeError(
            f"schema_version {version!r} is not supported (this gpuwise reads {S.SCHEMA_VERSION})",
            where=str(path),
        )
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = f"{path}: {_entry_name(data, tuple(err['loc']))}"
        more = f" (+{len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        raise KnowledgeError(f"{err['msg']}{more}", where=where) from None


def _merge(base: dict, over: dict, path: Path) -> dict:
    """Overlay ``over`` on ``base``: lists of entries with an ``id`` merge by id, mappings merge."""
    out = dict(base)
    for key, value in over.items():
        if key not in out:
            out[key] = value
            continue
        old = out[key]
        if isinstance(old, list) and isinstance(value, list):
            keyed = all(isinstance(e, dict) and "id" in e for e in old + value)
            if keyed:
                merged = {e["id"]: e for e in old}
                for e in value:
                    merged[e["id"]] = e
                out[key] = list(merged.values())
            else:
                out[key] = old + value
        elif isinstance(old, dict) and isinstance(value, dict):
            out[key] = {**old, **value}
        else:
            out[key] = value
    return out


_NORM = re.compile(r"[\s_\-/.()]+")


def norm(name: str) -> str:
    """Normalise a user-typed name: case, separators, 'GB' vs 'G', vendor prefixes."""
    s = name.lower().strip()
    for prefix in ("nvidia ", "geforce ", "tesla ", "amd ", "intel ", "instinct "):
        if s.startswith(prefix):
            s = s[len(prefix):]
    s = _NORM.sub("", s)
    s = re.sub(r"(\d)gb", r"\1g", s)
    return s


@dataclass(frozen=True)
class Resolved:
    id: str
    note: str | None = None  # set when a default variant was chosen for an ambiguous name


@dataclass
class _NameIndex:
    kind: str
    exact: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)  # id -> display name

    def add(self, ident: str, display: str, names: list[str], defaults: list[str]) -> None:
        self.labels[ident] = display
        for n in [ident, display, *names]:
            self.exact.setdefault(norm(n), ident)
        for n in defaults:
            self.defaults[norm(n)] = ident

    def resolve(self, name: str, *, where: str | None = None) -> Resolved:
        key = norm(str(name))
        if not key:
            raise UserError(f"empty {self.kind} name", where=where)
        if key in self.exact:
            return Resolved(self.exact[key])
        if key in self.defaults:
            ident = self.defaults[key]
            return Resolved(ident, f"'{name}' read as {self.labels[ident]} ({ident}), the default variant")
        family = sorted({i for k, i in self.exact.items() if k.startswith(key)})
        if len(family) == 1:
            return Resolved(family[0])
        if family:
            choices = ", ".join(family)
            raise UserError(
                f"'{name}' is ambiguous: it could be {choices}", where=where, hint="give the variant"
            )
        close = difflib.get_close_matches(key, list(self.exact), n=3, cutoff=0.6)
        ids = list(dict.fromkeys(self.exact[c] for c in close))
        hint = f"did you mean {' or '.join(ids)}?" if ids else f"see `gpuwise {self.kind}s` for the list"
        if self.kind == "model":
            hint = (f"did you mean {' or '.join(ids)}?" if ids else "give params_b for a model not in the catalog")
        raise UserError(f"unknown {self.kind} '{name}'", where=where, hint=hint)


@dataclass
class Knowledge:
    """The validated knowledge base, with lookups by id and lenient name resolution."""

    gpus: dict[str, S.Gpu]
    models: dict[str, S.Model]
    clouds: S.CloudFile
    tco: S.TcoFile
    software: S.SoftwareFile
    runtime: S.RuntimeFile
    files: dict[str, Path]
    gpu_names: _NameIndex
    model_names: _NameIndex

    def gpu(self, name: str, *, where: str | None = None) -> Resolved:
        return self.gpu_names.resolve(name, where=where)

    def model(self, name: str, *, where: str | None = None) -> Resolved:
        return self.model_names.resolve(name, where=where)

    def tco_value(self, key: str) -> S.SourcedValue:
        try:
            return self.tco.values[key]
        except KeyError:
            raise KnowledgeError(f"tco value '{key}' missing", where=str(self.files["tco.yaml"])) from None

    def dates(self) -> dict[str, dt.date]:
        """The newest and oldest ``as_of`` of every dated figure, for the report's freshness note."""
        found: list[dt.date] = [i.as_of for i in self.clouds.instances]
        found += [p.as_of for p in self.clouds.gpu_hour_prices]
        found += [p.as_of for p in self.clouds.providers]
        found += [g.price.as_of for g in self.gpus.values() if g.price]
        found += [v.as_of for v in self.tco.values.values() if v.as_of]
        return {"oldest": min(found), "newest": max(found)} if found else {}


_CACHE: dict[str | None, Knowledge] = {}
_LOCK = threading.Lock()


def load(overlay: str | Path | None = None) -> Knowledge:
    """The knowledge base, with the user's ``overlay`` directory on top. Cached per process."""
    key = str(Path(overlay).resolve()) if overlay else None
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = _load(Path(overlay) if overlay else None)
        return _CACHE[key]


def _load(overlay: Path | None) -> Knowledge:
    base = knowledge_dir()
    if overlay is not None and not overlay.is_dir():
        raise UserError("--knowledge must be a directory of YAML files", where=str(overlay))
    parsed: dict[str, BaseModel] = {}
    files: dict[str, Path] = {}
    for fname, schema in FILES.items():
        path = base / fname
        data = read_yaml(path, what="knowledge file")
        files[fname] = path
        if overlay is not None and (overlay / fname).is_file():
            extra = read_yaml(overlay / fname, what="knowledge file")
            if not isinstance(extra, dict):
                raise KnowledgeError("expected a mapping at the top level", where=str(overlay / fname))
            data = _merge(data, extra, overlay / fname)
            path = overlay / fname
            files[fname] = path
        parsed[fname] = validate_file(path, schema, data)
    if overlay is not None:
        unknown = sorted(p.name for p in overlay.glob("*.y*ml") if p.name not in FILES)
        if unknown:
            raise UserError(
                f"unknown knowledge file {unknown[0]}",
                where=str(overlay),
                hint=f"overlay files are named {', '.join(FILES)}",
            )
    gpus_f: S.GpuFile = parsed["gpus.yaml"]  # type: ignore[assignment]
    models_f: S.ModelFile = parsed["models.yaml"]  # type: ignore[assignment]
    gpus = _unique(gpus_f.gpus, files["gpus.yaml"], "gpus")
    models = _unique(models_f.models, files["models.yaml"], "models")
    gpu_names = _NameIndex("gpu")
    for g in gpus.values():
        gpu_names.add(g.id, g.name, g.aliases, g.default_for)
    model_names = _NameIndex("model")
    for m in models.values():
        model_names.add(m.id, m.name, m.aliases, [])
    kb = Knowledge(
        gpus=gpus,
        models=models,
        clouds=parsed["clouds.yaml"],  # type: ignore[arg-type]
        tco=parsed["tco.yaml"],  # type: ignore[arg-type]
        software=parsed["software.yaml"],  # type: ignore[arg-type]
        runtime=parsed["runtime.yaml"],  # type: ignore[arg-type]
        files=files,
        gpu_names=gpu_names,
        model_names=model_names,
    )
    _check_references(kb)
    return kb


def _unique(entries: list, path: Path, what: str) -> dict:
    out: dict = {}
    for i, e in enumerate(entries):
        if e.id in out:
            raise KnowledgeError(f"duplicate id '{e.id}'", where=f"{path}: {what}[{i}]")
        out[e.id] = e
    return out


def _check_references(kb: Knowledge) -> None:
    path = kb.files["clouds.yaml"]
    for i, inst in enumerate(kb.clouds.instances):
        if inst.gpu not in kb.gpus:
            raise KnowledgeError(f"unknown gpu '{inst.gpu}'", where=f"{path}: instances[{i}] (id {inst.id})")
    for i, p in enumerate(kb.clouds.gpu_hour_prices):
        if p.gpu not in kb.gpus:
            raise KnowledgeError(f"unknown gpu '{p.gpu}'", where=f"{path}: gpu_hour_prices[{i}]")
    for arch in kb.gpus.values():
        if arch.architecture not in kb.runtime.mfu:
            raise KnowledgeError(
                f"no default MFU for architecture '{arch.architecture}'",
                where=f"{kb.files['runtime.yaml']}: mfu",
            )
