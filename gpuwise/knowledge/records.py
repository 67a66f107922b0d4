"""The knowledge base as plain frozen records, without pydantic.

The knowledge files are validated by the pydantic classes of :mod:`gpuwise.knowledge.schema`; what
a run then holds (and what the per-user cache stores) is the same tree as records of this module:
one class per schema class, of the same name and fields, carrying the same few methods (the
mixins below, which the schema classes inherit too). Loading a cached knowledge base therefore
imports neither pydantic's model machinery for it nor the ~75 schema classes, which was a fifth of
a short run's start-up.

A record is read-only, compares equal to a record of the same class and fields, and has the two
pydantic methods other code calls on knowledge objects: ``model_copy(update=...)`` and
``model_dump(mode=...)``.
"""

from __future__ import annotations

import copy
import datetime as dt
import re
from typing import Any


class Record:
    """A validated knowledge entry: fields in the schema's order, frozen."""

    @classmethod
    def of(cls, fields: dict[str, Any]) -> Record:
        obj = cls.__new__(cls)
        obj.__dict__.update(fields)
        return obj

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen: cannot delete {name}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Record):
            return NotImplemented
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash((type(self).__name__, *self.__dict__.values()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.__dict__.items())})"

    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Record:
        """A copy with ``update``'s fields replaced, not validated (as pydantic's)."""
        fields = copy.deepcopy(self.__dict__) if deep else dict(self.__dict__)
        unknown = set(update or {}) - set(fields)
        if unknown:
            raise AttributeError(f"{type(self).__name__} has no field {sorted(unknown)[0]}")
        return type(self).of({**fields, **(update or {})})

    def model_dump(self, *, mode: str = "python") -> dict[str, Any]:
        """The fields as plain data; ``mode="json"``: dates as ISO text, tuples as lists."""
        return {k: _dump(v, mode) for k, v in self.__dict__.items()}


def _dump(value: Any, mode: str) -> Any:
    if isinstance(value, Record):
        return value.model_dump(mode=mode)
    if isinstance(value, list | tuple):
        out = [_dump(v, mode) for v in value]
        return out if mode == "json" or isinstance(value, list) else tuple(out)
    if isinstance(value, dict):
        return {(str(k) if mode == "json" and not isinstance(k, str) else k): _dump(v, mode) for k, v in value.items()}
    if mode == "json" and isinstance(value, dt.date):
        return value.isoformat()
    return value


# ------------------------------------------------------------------ methods both forms carry
# No annotations at class level here: pydantic would read them as fields of the schema classes.


class InstanceMethods:
    @property
    def currency(self) -> str:
        """The offer's currency: CNY when priced in CNY, else USD."""
        return "CNY" if self.cny_per_hour is not None else "USD"  # type: ignore[attr-defined]


class GpuHourPriceMethods:
    @property
    def currency(self) -> str:
        """The offer's currency: CNY when priced in CNY, else USD."""
        return "CNY" if self.cny_per_gpu_hour is not None else "USD"  # type: ignore[attr-defined]


class MarketMethods:
    @property
    def licence_policy(self) -> str:
        return self.licence or ("not-required" if self.sold_in_china else "required")  # type: ignore[attr-defined]


class NetworkMethods:
    def phrases(self) -> tuple:
        """How nodes are networked, as message ids and values (reports/messages.yaml net.*)."""
        from ..messages import quoted

        s: Any = self
        if not s.port:
            return (quoted(s.description),)
        note: list = []
        if s.rail_optimised:
            note.append(("", "net.rail", {}))
        if s.reference is not None:
            r = s.reference
            note.append((", " if note else "", "net.reference", {"system": r.system, "ports": r.ports,
                                                                 "kind": r.kind}))
        mid = f"net.per_{s.shared_by}"
        return ((("", mid + "_note", {"port": s.port, "note": note}),) if note
                else (("", mid, {"port": s.port}),))

    @property
    def text(self) -> str:
        """The same in English ("one 25 GbE port per node")."""
        from ..messages import phrase_text

        return phrase_text(self.phrases())


class TrainingFactorsMethods:
    def global_batch_tokens(self, params: float) -> Any:
        """The published global batch for a model of ``params`` parameters (the largest row applies above)."""
        rows = self.pretrain_global_batch  # type: ignore[attr-defined]
        for row in sorted(rows, key=lambda r: r.below_params_b):
            if params < row.below_params_b * 1e9:
                return row
        return max(rows, key=lambda r: r.below_params_b)


class TcoFileMethods:
    def resale_for(self, architecture: str | None) -> tuple[float, float, str]:
        """(fraction kept per year, floor, curve id) for a GPU architecture."""
        s: Any = self
        for c in s.resale:
            if architecture in c.architectures:
                return c.fraction_per_year, c.floor, c.id
        return (s.values["resale_fraction_per_year"].value, s.values["resale_floor_fraction"].value, "default")


_RELEASE = re.compile(r"(\d+(?:\.\d+)*)\.?(?:rc\d+|post(\d+))?")
"""The release forms a workload's ``framework_version`` and a knowledge window's bounds take (their patterns:
inputs/workload.py, schema/releases.py ``RELEASE_VERSION``): a release number, then at most an rcN or a .postN."""


def release_key(version: str) -> tuple[tuple[int, ...], int]:
    """A framework release as gpuwise orders releases, the one ordering every release window and release list is
    read in (docs/formats.md, ``framework_version``):

    * the release number as PEP 440 compares it, trailing zeros aside (0.5.12 after 0.5.7; 1.0 is 1.0.0);
    * a .postN after its release and after every lower .postN (0.5.5 < 0.5.5.post1 < 0.5.5.post2 < 0.5.6): SGLang
      ships kernel changes in post releases, so a window may start or end at one;
    * an rcN counts as the release it is a candidate for (0.11.1rc2 is 0.11.1), not before it as PEP 440 has it:
      vLLM tags its candidates on the release branch it ships from, so a candidate runs the kernels of its release,
      and a window bounded at that release holds the candidate too (one that starts there) or leaves it out (one
      that ends there). TensorRT-LLM's weekly candidates are read at the same resolution: 1.2.0rc1 as 1.2.0.

    Nightly and development builds (0.11.1rc2.dev5+gabc, 0.5.9.dev20260204) are no release here: the workload's
    pattern refuses them, with the release they name as the close match (inputs/schema.py)."""
    got = _RELEASE.fullmatch(version.strip())
    if got is None:
        raise ValueError(f"not a release: {version!r}")
    parts = [int(p) for p in got.group(1).split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts), int(got.group(2) or 0)


version_key = release_key
"""The same ordering under the name its older readers import (no reader has one of its own)."""


def release_at_least(version: str, first: str) -> bool:
    """Whether ``version`` is ``first`` or a later release (:func:`release_key`)."""
    return release_key(version) >= release_key(first)


def in_releases(span: Any, version: str | None) -> bool:
    """Whether the stated release ``version`` is in ``span``'s releases, from ``span.first`` up to, not
    including, ``span.before`` (a knowledge entry's release window, :func:`release_key`'s ordering); never for a
    job that states none."""
    return version is not None and release_key(span.first) <= release_key(version) < release_key(span.before)


_NOT_RELEASES = re.compile(r"compute_capabilit")
"""Fields whose texts have a release's form but are not releases: GPU compute capabilities ('12.0', '12.1', as
serving.yaml's fla_gdn_prefill lists them), which a framework's newest release must not be read from."""


def named_releases(record: Any) -> list[str]:
    """The releases a knowledge record names, in :func:`release_key`'s order: its release list and every release
    bound of its windows and overrides (a framework's ``releases[].version``, ``scheduled_ahead.first``, a vendor
    override's ``fused_from``...), each a text of the release form found anywhere in the record."""
    found: set[str] = set()

    def walk(x: Any, depth: int) -> None:
        if isinstance(x, str):
            if "." in x and _RELEASE.fullmatch(x.strip()):
                found.add(x.strip())
        elif depth < 12 and isinstance(x, dict):
            for k, v in x.items():
                if not _NOT_RELEASES.search(str(k)):
                    walk(v, depth + 1)
        elif depth < 12 and isinstance(x, list | tuple):
            for v in x:
                walk(v, depth + 1)
        elif depth < 12 and hasattr(x, "__dict__") and not isinstance(x, type):
            for k, v in vars(x).items():
                if not _NOT_RELEASES.search(k):
                    walk(v, depth + 1)

    walk(record, 0)
    return sorted(found, key=lambda v: (release_key(v), len(v)))  # 1.1 before 1.1.0, the same release


MIXINS: dict[str, type] = {
    "Instance": InstanceMethods, "GpuHourPrice": GpuHourPriceMethods, "Market": MarketMethods,
    "Network": NetworkMethods, "TrainingFactors": TrainingFactorsMethods, "TcoFile": TcoFileMethods,
}
"""Schema class name -> the methods its record carries."""

_CLASSES: dict[str, type[Record]] = {}


def record_class(name: str) -> type[Record]:
    """The record class standing for the schema class ``name`` (made on first use; schema class
    names are unique across the knowledge files)."""
    cls = _CLASSES.get(name)
    if cls is None:
        bases = (MIXINS[name], Record) if name in MIXINS else (Record,)
        cls = type(name, bases, {"__module__": __name__, "__qualname__": name})
        _CLASSES[name] = cls
    return cls


def __getattr__(name: str) -> type[Record]:
    """``records.Gpu``: how pickle finds a record's class when a cached knowledge base is loaded."""
    if name.startswith("_") or not name[:1].isupper():
        raise AttributeError(name)
    return record_class(name)
