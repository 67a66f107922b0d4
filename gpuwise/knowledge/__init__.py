"""Load the knowledge base (``knowledge/*.yaml``), validate it, overlay the user's files,
and resolve the lenient GPU and model names users type.

A bad entry is a :class:`KnowledgeError` naming the file and the entry.  YAML is
read with the safe loader only: a file cannot build Python objects.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import math
import os
import re
import stat
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..cache import Memo
from ..errors import N_, KnowledgeError, Said, UserError
from ..frozen import record
from ..paths import dir_stamp, knowledge_dir
from ..yamlio import list_directory, parse_yaml, read_bytes
from .names import NameIndex, Resolved, norm  # Resolved: re-exported
from .records import record_class
from .references import _check_references, _unique

if TYPE_CHECKING:  # the schema classes validate the files; a run holds records (see records.py)
    from pydantic import BaseModel

    from . import schema as S

FILES: dict[str, str] = {
    "gpus.yaml": "GpuFile",
    "models.yaml": "ModelFile",
    "clouds.yaml": "CloudFile",
    "tco.yaml": "TcoFile",
    "software.yaml": "SoftwareFile",
    "runtime.yaml": "RuntimeFile",
    "policy.yaml": "PolicyFile",
    "serving.yaml": "ServingFile",
    "prices.yaml": "PricesFile",
    "apis.yaml": "ApisFile",  # hosted-API token prices (gpuwise plan)
}
"""Each knowledge file and the name of its schema class in :mod:`gpuwise.knowledge.schema`."""

def _entry_name(data: Any, loc: tuple[Any, ...], index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> str:
    """Name the entry a validation error points into: ``gpus[3] (id h100-80gb-sxm).memory.gb``;
    in an overlay merged onto the built-in file (``index``: see :func:`_merge`) by the entry's
    position in the overlay."""
    parts: list[str] = []
    node = data
    for n, key in enumerate(loc):
        if isinstance(key, int):
            shown = (index or {}).get(tuple(loc[:n]), {}).get(key, key)
            label = f"[{shown}]"
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


def _quoted_number(text: str) -> float | None:
    """A quoted plain decimal's number (``'1'`` -> 1.0); None for other text, other notations included."""
    from ..inputs.notation import number_text

    try:
        return number_text(text)
    except ValueError:
        return None


def validate_file(path: Path, schema: type[BaseModel], data: Any,
                  index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> BaseModel:
    from pydantic import ValidationError

    from . import schema as S

    if not isinstance(data, dict):
        raise KnowledgeError(N_("expected a mapping at the top level"), where=str(path))
    version = data.get("schema_version")
    if isinstance(version, str) and _quoted_number(version) == S.SCHEMA_VERSION:  # '1': the number 1, as documented
        data, version = {**data, "schema_version": S.SCHEMA_VERSION}, S.SCHEMA_VERSION
    if version != S.SCHEMA_VERSION:
        raise KnowledgeError(
            N_("schema_version %(version)s is not supported (this gpuwise reads %(schema_version)s)"),
            where=str(path), values={"version": f"{version!r}", "schema_version": S.SCHEMA_VERSION},
        )
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        at = err.get("ctx", {}).get("error")  # a whole entry's check that judges one of its fields (SaidAt)
        where = f"{path}: {_entry_name(data, (*err['loc'], *getattr(at, 'at', ())), index)}"
        from ..inputs.error_words import _BOUNDS, _fields_of, _nested_key, _short, bound_words, too_long_text

        if err["type"] == "extra_forbidden":  # 'valuez' in tco.yaml: say which key was meant
            import difflib

            valid = _fields_of(schema, tuple(err["loc"]))
            # a section's own field written a level up (an entry's indexer_layers) before a near spelling ('layers')
            close = [nested] if (nested := _nested_key(schema, tuple(err["loc"]))) else difflib.get_close_matches(
                str(err["loc"][-1])[:100], valid, n=1)
            hint = ({"hint": N_("did you mean '%(name)s'?"), "hint_values": {"name": close[0]}} if close else
                    {"hint": N_("valid keys: %(names)s"), "hint_values": {"names": ", ".join(valid)}} if valid else {})
            raise KnowledgeError(N_("unknown key"), where=where, **hint) from None

        n = len(exc.errors()) - 1
        block = tuple(err["loc"][:-1])
        missing = [str(e["loc"][-1]) for e in exc.errors() if e["type"] == "missing" and tuple(e["loc"][:-1]) == block]
        if err["type"] == "missing" and len(missing) > 1 and block and isinstance(block[-1], str):
            # a section given without most of its fields (sparse_attention: {indexer_layers: 8} on a model without
            # one) is named with all it lacks, not as its first field's 'Field required (+5 more)'
            more = n + 1 - len(missing)
            tail = (N_("%(more)s more problem") if more == 1 else N_("%(more)s more problems"),) if more else ()
            place = f"{path}: {_entry_name(data, block, index)}"
            raise KnowledgeError((N_("%(block)s needs %(names)s"), *tail), where=place,
                                 values={"block": block[-1], "names": ", ".join(missing), "more": more}) from None
        if err["type"] == "literal_error" and not n:  # a misspelt choice ('kind: list'): what was given, the
            # choices and the close match, as an input file's field says them (it read 'Input should be ...' alone)
            from ..errors import either
            from ..inputs.error_words import literal_close

            expected = str(err.get("ctx", {}).get("expected", ""))
            close = literal_close(err.get("input"), expected)
            quoted = [c for c in (x.strip() for x in expected.replace(" or ", ",").split(",")) if c]
            hint = {"hint": N_("did you mean %(names)s?"), "hint_values": {"names": close}} if close else {}
            raise KnowledgeError(N_("%(given)s is not one of %(expected)s"), where=where, values={
                "given": _short(err.get("input")), "expected": either(quoted, commas=True)}, **hint) from None
        if err["type"] == "string_pattern_mismatch" and not n and err["ctx"].get("pattern") == S.RELEASE_VERSION:
            # a release window's bound written as a build ('0.12.0.dev5+gabc') or a tag ('v0.12.0'): said as a
            # workload's framework_version says it, with the release as the close match, not the regular expression
            from types import SimpleNamespace

            from ..inputs.error_words import _version_written_otherwise

            close = _version_written_otherwise(err.get("input"), SimpleNamespace(metadata=[
                SimpleNamespace(pattern=S.RELEASE_VERSION)]))
            hint = {"hint": N_("did you mean %(names)s?"), "hint_values": {"names": close}} if close else {}
            raise KnowledgeError(N_("%(given)s is not a release number (digits and dots, as 4.52 or 0.5.7)"),
                                 where=where, values={"given": _short(err.get("input"))}, **hint) from None
        if (long := too_long_text(err)) is not None:  # its length, as an input file's field says it
            tail = (N_("%(more)s more problem") if n == 1 else N_("%(more)s more problems"),) if n else ()
            raise KnowledgeError((long[0], *tail), where=where, values={**long[1], "more": n}) from None
        said = err.get("ctx", {}).get("error")
        if (bound := bound_words(err)) is not None and not isinstance(said, Said):  # a bound: the house's words in
            # every language ('must be at least 1 (got -8)', was pydantic's English; hostileleft60)
            tail = (N_("%(more)s more problem") if n == 1 else N_("%(more)s more problems"),) if n else ()
            raise KnowledgeError((bound[0], *tail), where=where, values={**bound[1], "more": n}) from None
        # English: pydantic's words as written; another language: the catalog's for its common complaints
        template = _BOUNDS.get(err["type"], "%(reason)s") if "input" in err else "%(reason)s"
        if isinstance(said, Said):  # a validator's own complaint, a catalog message
            template, err = said.template, {**err, "ctx": {**said.values}}
        msgid = (template, N_("%(more)s more problem") if n == 1 else N_("%(more)s more problems")) if n else template
        english = str(said) if isinstance(said, Said) else err["msg"]  # not pydantic's "Value error, " before it
        given = (f"{err['ctx'].get('actual_length', 0):,}" if err["type"] in ("too_short", "too_long")
                 else _short(err.get("input")))  # a list of 3,000 is counted, not quoted
        if not isinstance(said, Said) and "input" in err and err["type"] in set(_BOUNDS) - {"too_short", "too_long"}:
            english += f" (got {given})"  # the value given, as the catalog's words say it (pydantic counts a list's)
        raise KnowledgeError(english + (f" (+{n} more)" if n else ""), where=where, msgid=msgid,
                             values={**err.get("ctx", {}), "reason": err["msg"], "given": given,
                                     "more": n}) from None


def _merge(base: Any, over: Any, path: Path, where: str = "", at: tuple[Any, ...] = (),
           index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> Any:
    """Overlay ``over`` on ``base`` field by field.

    Mappings merge key by key (recursively); lists of entries that carry an ``id`` merge entry by
    entry: an entry whose id exists is patched field by field (a price patch is a few lines), a
    new id is added whole (the schema then checks it is complete). An id given twice in one
    overlay list is an error. Any other value (a number, a string, a plain list) replaces the
    built-in one. ``index`` (when given) gets, for each merged list at path ``at``, the position
    of each overlay entry in the merged list -> its position in the overlay file: an error names
    the entry as the user wrote it (``gpu_hour_prices[0]``, not the merged list's ``[37]``).
    """
    if isinstance(base, dict) and isinstance(over, dict):
        out = dict(base)
        for key, value in over.items():
            out[key] = (_merge(base[key], value, path, f"{where}.{key}" if where else str(key), (*at, key), index)
                        if key in base else value)
        return out
    if isinstance(base, list) and isinstance(over, list) and _keyed(base) and _keyed(over):
        merged = {e["id"]: e for e in base}
        position = {e["id"]: j for j, e in enumerate(base)}
        seen: set[Any] = set()
        for i, e in enumerate(over):
            ident = e["id"]
            if not isinstance(ident, str | int) or isinstance(ident, bool):
                raise KnowledgeError(N_("an id must be a name, not %(ident)s"),
                                     where=f"{path}: {where}[{i}].id", values={"ident": _clip(ident)})
            if ident in seen:
                raise KnowledgeError(N_("duplicate id %(ident)s in the overlay"),
                                     where=f"{path}: {where}[{i}]", values={"ident": f"{ident!r}"})
            seen.add(ident)
            position.setdefault(ident, len(position))
            merged[ident] = (_merge(merged[ident], e, path, f"{where}[{i}]", (*at, position[ident]), index)
                             if ident in merged else e)
            if index is not None:
                index.setdefault(at, {})[position[ident]] = i
        return list(merged.values())
    if isinstance(base, list) and isinstance(over, list) and all(isinstance(e, dict) for e in base + over):
        if index is not None:
            index[at] = {len(base) + i: i for i in range(len(over))}
        return base + over  # entries without ids (per-GPU-hour offers...): the overlay adds to them
    return over


def _priced_not_excluded(data: Any, extra: dict) -> Any:
    """The built-in prices.yaml without the ``excluded`` entries of GPUs the overlay prices: a user's dated
    price for a part gpuwise left unpriced (the RTX PRO 6000 Max-Q) is what TCO-NO-PRICE-EITHER-WAY asks for, not
    a contradiction; and without the priced entries of GPUs the overlay excludes (a part not sold to the team:
    hostile round 29 found 'both priced and excluded' said of an overlay that only excluded the DGX Spark). An
    overlay that both prices and excludes one GPU is still refused."""
    if not isinstance(data, dict):
        return data
    priced = {e.get("id") for e in extra.get("gpus") or () if isinstance(e, dict)}
    excluded = {e.get("id") for e in extra.get("excluded") or () if isinstance(e, dict)} - priced
    for section, drop in (("excluded", priced), ("gpus", excluded)):
        if drop and isinstance(data.get(section), list):
            data = {**data, section: [e for e in data[section] if not (isinstance(e, dict) and e.get("id") in drop)]}
    return data


def _keyed(entries: list) -> bool:
    return bool(entries) and all(isinstance(e, dict) and "id" in e for e in entries)


@record
class Knowledge:
    """The validated knowledge base, with lookups by id and lenient name resolution."""

    gpus: dict[str, S.Gpu]
    models: dict[str, S.Model]
    clouds: S.CloudFile
    tco: S.TcoFile
    software: S.SoftwareFile
    runtime: S.RuntimeFile
    policy: dict[str, S.PolicyValue]
    files: dict[str, Path]
    gpu_names: NameIndex
    model_names: NameIndex
    prices: S.PricesFile | None = None
    serving: S.ServingFile | None = None
    shape_guesses: S.ShapeGuesses | None = None  # catalog models a size-only model borrows its shape from
    apis: S.ApisFile | None = None  # hosted-API token prices (gpuwise plan)

    def framework(self, name: str | None = None, *, where: str | None = None) -> S.Framework:
        """A serving framework by id (``serving.yaml``); ``None`` = the default one."""
        assert self.serving is not None, "serving.yaml not loaded"
        ident = name or self.serving.default_framework
        for f in self.serving.frameworks:
            if f.id == ident:
                return f
        ids = [f.id for f in self.serving.frameworks]
        import difflib  # a close match for an error's hint: not on the way of a good answer
        close = difflib.get_close_matches(str(ident), ids, n=1)
        raise UserError(N_("unknown framework '%(ident)s'"), where=where,
                        values={"ident": ident}, hint=N_("did you mean %(name)s?") if close else N_("known: %(names)s"),
                        hint_values={"name": close[0]} if close else {"names": ", ".join(ids)})

    def gpu(self, name: str, *, where: str | None = None) -> Resolved:
        return self.gpu_names.resolve(name, where=where)

    def model(self, name: str, *, where: str | None = None) -> Resolved:
        return self.model_names.resolve(name, where=where)

    def policy_values(self) -> dict[str, float | str]:
        """Every policy value by name."""
        return {k: v.value for k, v in self.policy.items()}

    def policy_value(self, name: str) -> float | str:
        """One policy value by name (see ``knowledge/policy.yaml``)."""
        try:
            return self.policy[name].value
        except KeyError:
            raise KnowledgeError(N_("policy value '%(name)s' missing"), where=str(self.files["policy.yaml"]),
                                 values={"name": name}) from None

    def tco_value(self, key: str) -> S.SourcedValue:
        try:
            return self.tco.values[key]
        except KeyError:
            raise KnowledgeError(N_("tco value '%(key)s' missing"), where=str(self.files["tco.yaml"]),
                                 values={"key": key}) from None

    def dates(self) -> dict[str, dt.date]:
        """The newest and oldest ``as_of`` of every dated figure, for the report's freshness note."""
        found: list[dt.date] = [i.as_of for i in self.clouds.instances]
        found += [p.as_of for p in self.clouds.gpu_hour_prices]
        found += [p.as_of for p in self.clouds.providers]
        if self.prices is not None:
            found += [pp.as_of for g in self.prices.gpus for pp in g.prices]
        found += [v.as_of for v in self.tco.values.values() if v.as_of]
        if self.prices is not None:
            found += [p.as_of for g in self.prices.gpus for p in g.prices]
        return {"oldest": min(found), "newest": max(found)} if found else {}


_CACHE: dict[tuple[str, str] | None, Knowledge] = {}
_LOCK = threading.Lock()


def load(overlay: str | Path | None = None) -> Knowledge:
    """The knowledge base, with the user's ``overlay`` directory on top. Cached per process, by the
    overlay's real path and its files' names, sizes and times (an overlay edited between two calls
    of the Python API is read afresh)."""
    key = (_dir_key(overlay), dir_stamp(overlay)) if overlay else None
    with _LOCK:
        if key not in _CACHE:
            _CACHE[key] = _load_cached(Path(overlay) if overlay else None)
        return _CACHE[key]


def _load_cached(overlay: Path | None) -> Knowledge:
    """:func:`_load`, or the knowledge base an earlier run built from the same files (see
    gpuwise/cache.py: keyed by their bytes, so an edited file is read afresh)."""
    from .. import cache

    base = knowledge_dir()
    files = [base / f for f in FILES]
    if overlay is not None:
        files += list(overlay_files(overlay).values())  # a bad overlay directory: its one-line error
    return cache.cached("knowledge", files, lambda: _load(overlay))


def _meant_file(name: str) -> str | None:
    """The knowledge file a misnamed overlay file stands for: the same name in another case or with ``.yml``
    (``GPUS.YAML``, ``gpus.yml``), else the one close in spelling (``model.yaml``); None where none is."""
    import difflib

    plain = name.lower().removesuffix(".yml").removesuffix(".yaml") + ".yaml"
    return plain if plain in FILES else next(iter(difflib.get_close_matches(plain, list(FILES), n=1, cutoff=0.8)), None)


def overlay_files(overlay: Path) -> dict[str, Path]:
    """The knowledge files of an overlay directory, by name. The directory must be listable, and
    each name gpuwise reads must be a regular file (through links): a directory, a dangling link
    or a link loop named ``policy.yaml`` is an error, not silently skipped; an unknown ``*.yaml``
    is an error with the names gpuwise reads."""
    names = list_directory(overlay, "--knowledge", "YAML files")
    with contextlib.suppress(OSError):
        if os.path.samefile(overlay, knowledge_dir()):  # the built-in files, read anyway: laid on themselves,
            return {}  # their lists doubled ('releases must be listed oldest first, each version once')
    found: dict[str, Path] = {}
    for name in sorted(names):
        if not name.lower().endswith((".yaml", ".yml")) or name.startswith("."):  # POLICY.YAML was skipped unread
            continue
        path = overlay / name
        if name not in FILES:
            meant = _meant_file(name)  # hostile round 47: model.yaml, gpus.yml, GPUS.YAML were given the ten names
            raise UserError(N_("unknown knowledge file %(name)s"), where=str(overlay), values={"name": name},
                            hint=N_("did you mean %(names)s?") if meant else N_("overlay files are named %(files)s"),
                            hint_values={"names": meant} if meant else {"files": ', '.join(FILES)})
        try:
            info = os.stat(path)
        except FileNotFoundError:
            raise KnowledgeError(N_("a link to nothing (dangling symbolic link)"), where=str(path)) from None
        except OSError as exc:  # a link loop, a permission
            raise KnowledgeError(N_("cannot read: %(strerror)s"), where=str(path),
                                 values={"strerror": exc.strerror or exc}) from None
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise KnowledgeError(N_("is %(kind)s, not a YAML file"), where=str(path), values={"kind": kind})
        found[name] = path
    return found


_VALIDATED = Memo()
"""Knowledge files validated in this process, by the bytes of the built-in file and of the overlay's
file of the same name: loading several overlays validates each file they leave alone once."""


def _one_owner(index: NameIndex, ident: str, names: list[str], defaults: list[str], path: Path) -> None:
    """A name (id, display name, alias, a short name it is the default for) belongs to one entry: an
    overlay's alias ``h100`` on the RTX 4090 silently turned every 'H100' a user typed into an RTX
    4090."""
    for n in [*names, *defaults]:
        key = norm(n)
        other = index.exact.get(key) or index.defaults.get(key)
        if other is not None and other != ident:
            raise KnowledgeError(N_("the name '%(name)s' is given to both %(other)s and %(id)s: a name means one "
                                    "entry"), where=str(path), values={"name": n, "other": other, "id": ident})


def _load(overlay: Path | None) -> Knowledge:
    from . import schema as S

    base = knowledge_dir()
    mine = overlay_files(overlay) if overlay is not None else {}
    parsed: dict[str, Any] = {}
    indexes: dict[str, dict[tuple[Any, ...], dict[int, int]]] = {}
    files: dict[str, Path] = {}
    for fname, class_name in FILES.items():
        schema = getattr(S, class_name)
        path = base / fname
        raw = read_bytes(path, what="knowledge file")
        files[fname] = path
        over = overlay / fname if overlay is not None and fname in mine else None
        over_raw = read_bytes(over, what="knowledge file") if over is not None else b""
        key = Memo.key(path, raw, f"{os.path.abspath(over)}\0{hashlib.sha256(over_raw).hexdigest()}" if over else "")
        if over is not None:
            files[fname] = over
        memo = _VALIDATED.get(key)
        got, index = memo if memo is not None else (None, {})
        if got is None:
            data = parse_yaml(raw, path, what="knowledge file")
            if over is not None:
                extra = parse_yaml(over_raw, over, what="knowledge file")
                if extra is None:  # empty, or comments only: an overlay gives only what it changes (nothing)
                    extra = {}
                if not isinstance(extra, dict):
                    raise KnowledgeError(N_("expected a mapping at the top level"), where=str(over))
                if fname == "policy.yaml":
                    extra = policy_overlay(extra, data, over)
                if fname == "prices.yaml":
                    data = _priced_not_excluded(data, extra)
                data = _merge(data, extra, over, index=index)
            valid = validate_file(files[fname], schema, data, index)
            if over is not None:
                _no_future_dates(valid, over, index)
            got = as_records(valid)
            _VALIDATED.put(key, (got, index))
        parsed[fname] = got
        indexes[fname] = index
    gpus_f: S.GpuFile = parsed["gpus.yaml"]  # type: ignore[assignment]
    models_f: S.ModelFile = parsed["models.yaml"]  # type: ignore[assignment]
    gpus = _unique(gpus_f.gpus, files["gpus.yaml"], "gpus")
    models = _unique(models_f.models, files["models.yaml"], "models")
    gpu_names = NameIndex("gpu")
    for g in gpus.values():
        _one_owner(gpu_names, g.id, [g.id, g.name, *g.aliases], g.default_for, files["gpus.yaml"])
        gpu_names.add(g.id, g.name, g.aliases, g.default_for, g, unlisted=g.not_listed)
    model_names = NameIndex("model")
    for m in models.values():
        _one_owner(model_names, m.id, [m.id, m.name, *m.aliases], [], files["models.yaml"])
        model_names.add(m.id, m.name, m.aliases, [], model=m)
    for f in models_f.family_names:  # '通义千问' is Qwen: a hint's reading only (names.NameIndex.families)
        model_names.families[f.name] = f.family
    kb = Knowledge(
        gpus=gpus,
        models=models,
        clouds=parsed["clouds.yaml"],  # type: ignore[arg-type]
        tco=parsed["tco.yaml"],  # type: ignore[arg-type]
        software=parsed["software.yaml"],  # type: ignore[arg-type]
        runtime=parsed["runtime.yaml"],  # type: ignore[arg-type]
        policy=parsed["policy.yaml"].policy,  # type: ignore[attr-defined]
        files=files,
        gpu_names=gpu_names,
        model_names=model_names,
        prices=parsed["prices.yaml"],  # type: ignore[arg-type]
        serving=parsed["serving.yaml"],  # type: ignore[arg-type]
        shape_guesses=models_f.shape_guesses,
        apis=parsed["apis.yaml"],  # type: ignore[arg-type]
    )
    _check_references(kb, indexes)
    _memory_types_known(kb)
    return kb


def as_records(value: Any) -> Any:
    """A validated schema object (and what it holds) as the plain records a run keeps."""
    from pydantic import BaseModel

    if isinstance(value, BaseModel):
        return record_class(type(value).__name__).of(
            {name: as_records(getattr(value, name)) for name in type(value).model_fields})
    if isinstance(value, list):
        return [as_records(v) for v in value]
    if isinstance(value, tuple):
        return tuple(as_records(v) for v in value)
    if isinstance(value, dict):
        return {k: as_records(v) for k, v in value.items()}
    return value


def _no_future_dates(model: BaseModel, path: Path, index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> None:
    """A price, offer or rate an overlay dates after today would never be called stale (as an
    imported row dated after today is skipped): refused by its place in the file."""
    from pydantic import BaseModel

    today = dt.date.today()

    def walk(obj: Any, where: str, at: tuple[Any, ...] = ()) -> None:
        if isinstance(obj, BaseModel):
            for name in type(obj).model_fields:
                value, loc = getattr(obj, name), f"{where}.{name}" if where else name
                if name in ("as_of", "terms_as_of") and isinstance(value, dt.date) and value > today:
                    raise KnowledgeError(N_("%(name)s %(date)s is after today (%(today)s)"), where=f"{path}: {loc}",
                                         values={"name": name, "date": value.isoformat(), "today": today.isoformat()})
                walk(value, loc, (*at, name))
        elif isinstance(obj, list):
            for i, item in enumerate(obj):  # named by its place in the overlay, not in the merged list
                walk(item, f"{where}[{(index or {}).get(at, {}).get(i, i)}]", (*at, i))
        elif isinstance(obj, dict):
            for key, item in obj.items():
                walk(item, f"{where}.{key}")

    walk(model, "")


def policy_overlay(extra: dict, base: dict, path: Path) -> dict:
    """An overlay's ``policy.yaml`` in any of the forms a user writes: the full form
    (``schema_version`` + ``policy: {name: {value: ...}}``), or only the values to change, with or
    without the ``policy:`` level (``memory_headroom_fraction: 0.5``). Unknown names are refused
    with a close match; values outside a policy's ``min``/``max`` are refused."""
    from ..inputs.notation import number_text
    from . import schema as S

    body = extra.get("policy", extra) if isinstance(extra.get("policy"), dict) else extra
    for holder in (extra, body):  # the short form skipped the version: 'schema_version: 99' was read as 1
        version = holder.get("schema_version", S.SCHEMA_VERSION)
        if isinstance(version, str) and _quoted_number(version) == S.SCHEMA_VERSION:
            version = S.SCHEMA_VERSION
        if version != S.SCHEMA_VERSION or isinstance(version, bool):
            raise KnowledgeError(
                N_("schema_version %(version)s is not supported (this gpuwise reads %(schema_version)s)"),
                where=str(path), values={"version": _clip(version), "schema_version": S.SCHEMA_VERSION})
    known = dict(base.get("policy", {}))
    out: dict[str, Any] = {}
    for name, value in body.items():
        if name == "schema_version":
            continue
        if name not in known and isinstance(name, str) and MEMORY_THROTTLE.fullmatch(name):
            known[name] = _memory_throttle_entry(name, known)  # any memory type's (checked against gpus.yaml)
            if isinstance(value, dict):  # a new entry is whole: what the overlay gives, the rest as set here
                value = {**{k: v for k, v in known[name].items() if k != "value"}, **value}
            else:
                value = {**known[name], "value": value}
        if name not in known:
            import difflib  # a close match for an error's hint: not on the way of a good answer
            # a name cut short is the name it starts ('fast_network_gb_s' was offered slow_network_gb_s, not
            # fast_network_gb_s_per_gpu: hostile round 27), else the closest spelling
            close = sorted((k for k in known if str(name) and k.startswith(str(name))), key=len)[:1] or \
                difflib.get_close_matches(str(name), list(known), n=1)
            raise KnowledgeError(N_("unknown policy '%(name)s'"), where=f"{path}: {name}",
                                 values={"name": name},
                                 hint=N_("did you mean %(name)s?") if close else N_("knowledge/policy.yaml lists them"),
                                 hint_values={"name": close[0]} if close else None)
        patch = value if isinstance(value, dict) else {"value": value}
        new = patch.get("value", known[name].get("value"))
        if isinstance(new, str):  # '0.2' in quotes is the number; '0x10', '1_6', '１６' are refused by name
            try:
                number = number_text(new)
            except Said as said:
                raise KnowledgeError(N_("%(said)s"), where=f"{path}: {name}", values={"said": said}) from None
            if number is not None:
                new = number
                patch = {**patch, "value": new}
        if isinstance(new, bool) or not isinstance(new, int | float | str):
            raise KnowledgeError(N_("expected a number, got %(new)s"), where=f"{path}: {name}",
                                 values={"new": _clip(new)})
        if isinstance(new, int | float):
            lo, hi = known[name].get("min"), known[name].get("max")
            hi = POLICY_CEILING if hi is None else hi  # 1e300 days, dollars or GPUs: a typo, never a choice
            huge = abs(new) > 1e300 if isinstance(new, int) else not math.isfinite(new)  # float(10**400) overflows
            if huge or (lo is not None and new < lo) or (hi is not None and new > hi):
                # the whole sentence is one catalog message: "between ... and ..." stayed English in zh
                template = (N_("%(new)s is out of range: must be between %(lo)s and %(hi)s")
                            if lo is not None and hi is not None else
                            N_("%(new)s is out of range: must be at least %(lo)s") if lo is not None else
                            N_("%(new)s is out of range: must be at most %(hi)s") if hi is not None else
                            N_("%(new)s is out of range: must be finite"))
                raise KnowledgeError(template, where=f"{path}: {name}", values={
                    "new": _clip(new), "lo": "" if lo is None else f"{lo:g}", "hi": "" if hi is None else f"{hi:g}"})
        out[name] = patch
    return {"policy": out}


MEMORY_THROTTLE = re.compile(r"([a-z0-9]+)_memory_throttle_c")
"""A memory type's throttle point in policy (``gddr6x_memory_throttle_c``): the type as
:func:`memory_type_key` writes it. An overlay may set one for any memory type gpus.yaml names."""


def memory_type_key(kind: str) -> str:
    """A memory type as a policy name spells it: ``HBM2e`` and ``HBM2E`` are one (``hbm2e``)."""
    return re.sub(r"[^a-z0-9]", "", kind.lower())


def _memory_throttle_entry(name: str, known: dict) -> dict:
    """A throttle point an overlay adds for a memory type the built-in policy gives none: the unit
    and bounds of the built-in ones (a junction below 60 or above 150 deg C is a typo)."""
    like = known.get("gddr6x_memory_throttle_c", {})
    kind = MEMORY_THROTTLE.fullmatch(name).group(1)  # type: ignore[union-attr]
    return {"unit": f"deg C memory temperature at which {kind} memory throttles (set by an overlay)",
            "rationale": "set by a knowledge overlay for this memory type", "source": "",
            "min": like.get("min", 60), "max": like.get("max", 150), "value": None}


def _memory_types_known(kb: Knowledge) -> None:
    """A throttle point for a memory type no GPU has (``gddr9_memory_throttle_c``, ``hbm_3``) judges
    nothing: refused, naming the types gpus.yaml has."""
    kinds = {memory_type_key(g.memory.type) for g in kb.gpus.values()}
    for name in kb.policy:
        m = MEMORY_THROTTLE.fullmatch(name)
        if m and m.group(1) not in kinds:
            raise KnowledgeError(N_("no GPU has memory of type '%(kind)s' (gpus.yaml's types: %(kinds)s)"),
                                 where=f"{kb.files['policy.yaml']}: {name}",
                                 values={"kind": m.group(1), "kinds": ", ".join(sorted(kinds))})


POLICY_CEILING = 1e12
"""The largest value of a policy that gives no ``max`` of its own (the largest shipped is 1,000): 1e9
still turns a warning off, 1e300 was read as the age at which a price goes stale."""


def _clip(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _dir_key(path: str | Path) -> str:
    """The cache key of a directory argument: its real path, or as given when that cannot be
    worked out (a link loop: the loader then says what is wrong with it)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError, RuntimeError):
        return os.path.abspath(path)
