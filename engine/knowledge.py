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
from typing import Any, ClassVar

import yaml
from pydantic import BaseModel, ValidationError

from . import kbschema as S
from .errors import KnowledgeError, UserError
from .paths import knowledge_dir

try:  # the C loader is several times faster; fall back when libyaml is absent
    _Loader: type = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Loader = yaml.SafeLoader

FILES: dict[str, type[BaseModel]] = {
    "gpus.yaml": S.GpuFile,
    "models.yaml": S.ModelFile,
    "clouds.yaml": S.CloudFile,
    "tco.yaml": S.TcoFile,
    "software.yaml": S.SoftwareFile,
    "runtime.yaml": S.RuntimeFile,
}

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_YAML_DEPTH = 64
"""Collections nested deeper than this are refused before anything is built (real files nest < 10)."""
MAX_YAML_VALUES = 100_000
"""Values in a document once every alias is expanded: caps alias bombs ("billion laughs") and the
time a huge-but-small-enough file can take (the largest built-in knowledge file has about 4,000)."""

_TAG = "tag:yaml.org,2002:"


def _clip(value: Any, limit: int = 60) -> str:
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _DataLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, stricter still: plain data only (no ``!!binary``, ``!!set``, ``!!omap``,
    ``!!pairs``; no Python objects), a key given twice in one mapping is an error, and a scalar
    that cannot be read (``2020-02-30``, a 5,000-digit integer) is a YAML error with its position."""

    yaml_constructors: ClassVar[dict[Any, Any]] = {
        k: v for k, v in _Loader.yaml_constructors.items()
        if k not in {_TAG + t for t in ("binary", "set", "omap", "pairs")}
    }

    def construct_object(self, node: Any, deep: bool = False) -> Any:
        try:
            return super().construct_object(node, deep=deep)
        except (yaml.YAMLError, RecursionError, MemoryError):
            raise
        except Exception as exc:  # e.g. !!bool maybe (KeyError), !!timestamp nope (AttributeError)
            kind = str(node.tag).removeprefix(_TAG)
            reason = str(exc).split(";")[0] if isinstance(exc, ValueError | OverflowError) else ""
            raise yaml.constructor.ConstructorError(
                None, None, f"{_clip(node.value)} is not a valid {kind}" + (f" ({reason})" if reason else ""),
                node.start_mark,
            ) from None

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        if isinstance(node, yaml.MappingNode):
            seen: set[Any] = set()
            for key_node, _value in node.value:
                if key_node.tag == _TAG + "merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in seen:
                        raise yaml.constructor.ConstructorError(
                            None, None, f"duplicate key {_clip(key)!r}", key_node.start_mark)
                    seen.add(key)
                except TypeError:  # an unhashable key: the base class reports it
                    pass
        return super().construct_mapping(node, deep=deep)


def _check_shape(text: str) -> None:
    """Walk the event stream (nothing is built) and refuse, with a position, what would be costly
    or dangerous to build: several documents, deep nesting, too many values after alias expansion,
    recursive aliases."""
    ev = yaml.events
    total = 0
    documents = 0
    open_: list[tuple[str | None, int]] = []  # (anchor, total before) of each open collection
    sizes: dict[str, int] = {}  # anchor -> expanded size
    aliases = False
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, ev.DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise yaml.MarkedYAMLError(problem="more than one YAML document in the file ('---')",
                                           problem_mark=event.start_mark)
        elif isinstance(event, ev.CollectionStartEvent):
            open_.append((event.anchor, total))
            total += 1
            if len(open_) > MAX_YAML_DEPTH:
                raise yaml.MarkedYAMLError(problem=f"nested more than {MAX_YAML_DEPTH} levels deep",
                                           problem_mark=event.start_mark)
        elif isinstance(event, ev.CollectionEndEvent):
            anchor, before = open_.pop()
            if anchor is not None:
                sizes[anchor] = total - before
        elif isinstance(event, ev.ScalarEvent):
            total += 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif isinstance(event, ev.AliasEvent):
            if any(a == event.anchor for a, _ in open_):
                raise yaml.MarkedYAMLError(problem=f"recursive alias *{_clip(event.anchor)}",
                                           problem_mark=event.start_mark)
            total += sizes.get(event.anchor, 1)  # an undefined alias is reported by the loader
            aliases = True
        if total > MAX_YAML_VALUES:
            why = "once aliases are expanded (an alias bomb?)" if aliases else "(far more than a real file holds)"
            raise yaml.MarkedYAMLError(problem=f"more than {MAX_YAML_VALUES} values {why}",
                                       problem_mark=event.start_mark)


def read_yaml(path: Path, *, what: str = "file") -> Any:
    """Parse one YAML document safely; every failure is a one-line UserError naming the file.

    Refused before anything is built: files over ``MAX_FILE_BYTES``, non-UTF-8 or NUL bytes, more
    than one document, nesting deeper than ``MAX_YAML_DEPTH``, more than ``MAX_YAML_VALUES`` values
    after alias expansion.  Then only plain data is built (see :class:`_DataLoader`).
    """
    try:
        with path.open("rb") as fh:  # a bounded read: /dev/zero or a growing file cannot exhaust memory
            raw = fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise UserError("no such file", where=str(path)) from None
    except IsADirectoryError:
        raise UserError("is a directory, not a YAML file", where=str(path)) from None
    except OSError as exc:
        raise UserError(f"cannot read: {exc.strerror or exc}", where=str(path)) from None
    except ValueError as exc:  # e.g. an embedded NUL byte in the path
        raise UserError(f"cannot read: {exc}", where=str(path)) from None
    if len(raw) > MAX_FILE_BYTES:
        raise UserError(f"{what} is larger than the limit of {MAX_FILE_BYTES} bytes", where=str(path))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"not UTF-8 text (binary file?): bad byte at offset {exc.start}", where=str(path)) from None
    if "\x00" in text:
        raise UserError("contains NUL bytes (binary file?)", where=str(path))
    try:
        _check_shape(text)
        return yaml.load(text, Loader=_DataLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        pos = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = (exc.problem or str(exc)).strip()
        raise UserError(f"invalid YAML at {pos}{problem}", where=str(path)) from None
    except yaml.YAMLError as exc:
        raise UserError(f"invalid YAML: {str(exc).splitlines()[0]}", where=str(path)) from None
    except RecursionError:
        raise UserError("YAML nested too deeply", where=str(path)) from None


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
