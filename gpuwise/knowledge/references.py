"""The knowledge base's checks across its files, once every file is validated and merged with the user's overlay:
ids unique within a list, and every name one file gives another's entry known there -- a cloud offer's GPU and network,
the default network and discount schedule, prices.yaml's GPUs and fabrics, serving.yaml's weight formats and excluded
GPUs, runtime.yaml's per-GPU figures and rented instances, each architecture's default MFU. A name not known is one
line naming the file and the entry, with the close match. Moved out of the package's ``__init__`` (it held 792
lines), which loads and merges the files.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import N_, KnowledgeError, either
from ..paths import knowledge_dir
from ..yamlio import parse_yaml, read_bytes

if TYPE_CHECKING:
    from . import Knowledge


def _unique(entries: list, path: Path, what: str) -> dict:
    out: dict = {}
    for i, e in enumerate(entries):
        if e.id in out:
            raise KnowledgeError(N_("duplicate id '%(id)s'"), where=f"{path}: {what}[{i}]", values={"id": e.id})
        out[e.id] = e
    return out


def _check_references(kb: Knowledge, indexes: dict[str, dict[tuple[Any, ...], dict[int, int]]] | None = None) -> None:
    path = kb.files["clouds.yaml"]

    def at(section: str, i: int, fname: str = "clouds.yaml") -> int:
        """Entry ``i`` of the merged list as the file at ``path`` numbers it (an overlay's own index)."""
        return (indexes or {}).get(fname, {}).get((section,), {}).get(i, i)

    for section, offers in (("instances", kb.clouds.instances), ("gpu_hour_prices", kb.clouds.gpu_hour_prices)):
        for i, o in enumerate(offers):
            label = f"{path}: {section}[{at(section, i)}]" + (f" (id {o.id})" if section == "instances" else "")
            if o.gpu not in kb.gpus:
                import difflib  # a close match for an error's hint: not on the way of a good answer
                close = difflib.get_close_matches(o.gpu, list(kb.gpus), n=1)
                raise KnowledgeError(N_("unknown gpu '%(gpu)s'"), where=label, values={"gpu": o.gpu},
                                     hint=N_("did you mean %(name)s?") if close else None,
                                     hint_values={"name": close[0]} if close else None)
            if o.network is not None and o.network not in kb.runtime.networks:
                raise KnowledgeError(N_("unknown network '%(network)s'"), where=label, values={"network": o.network})
    seen: set[str] = set()
    for i, e in enumerate(kb.clouds.not_rented):
        label = f"{path}: not_rented[{at('not_rented', i)}]"
        if e.id not in kb.gpus:
            raise KnowledgeError(N_("unknown gpu '%(id)s'"), where=label, values={"id": e.id})
        if e.id in seen:
            raise KnowledgeError(N_("gpu '%(id)s' listed twice"), where=label, values={"id": e.id})
        seen.add(e.id)
    if kb.clouds.default_network not in kb.runtime.networks:  # 'carrier-pigeon' was accepted and never checked
        import difflib  # a close match for an error's hint: not on the way of a good answer
        close = difflib.get_close_matches(kb.clouds.default_network, list(kb.runtime.networks), n=1)
        raise KnowledgeError(N_("unknown network '%(network)s'"), where=f"{path}: default_network",
                             values={"network": kb.clouds.default_network},
                             hint=N_("did you mean %(name)s?") if close else None,
                             hint_values={"name": close[0]} if close else None)
    schedules = ["none", *(d.id for d in kb.clouds.discount_schedules)]
    if kb.clouds.default_discount_schedule not in schedules:  # a typo meant no discount, silently
        raise KnowledgeError(N_("unknown discount schedule '%(name)s' (one of %(names)s)"),
                             where=f"{path}: default_discount_schedule",
                             values={"name": kb.clouds.default_discount_schedule, "names": either(schedules)})
    _check_prices(kb, (indexes or {}).get("prices.yaml", {}))
    _check_serving(kb, (indexes or {}).get("serving.yaml", {}))
    if kb.shape_guesses is not None:
        for ident in kb.shape_guesses.models:
            m = kb.models.get(ident)
            if m is None or m.kind != "decoder":
                raise KnowledgeError(N_("shape_guesses names '%(ident)s', which is not a dense decoder of the catalog"),
                                     where=f"{kb.files['models.yaml']}: shape_guesses", values={"ident": ident})
    # a misspelt card would keep its architecture's figure, and a misspelt reference part leave its architecture's
    # other parts at that figure, silently
    read_on = kb.runtime.training.mfu_read_on
    for field, idents in (("mfu_by_gpu", list(kb.runtime.training.mfu_by_gpu)),
                          ("mfu_read_on", list(read_on.parts.values()) if read_on else [])):
        for ident in idents:
            if ident not in kb.gpus:
                # the id the name stands for as --gpu reads it ('H20' -> h20-96gb-sxm), as gpus_excluded offers it:
                # plain spelling offered l20 for 'H20' and gh200-96gb for 'h20-96gb'
                close = [m for m in [kb.gpu_names.meant(ident)] if m]
                raise KnowledgeError(N_("unknown gpu '%(gpu)s'"), where=f"{kb.files['runtime.yaml']}: training.{field}",
                                     values={"gpu": ident}, hint=N_("did you mean %(name)s?") if close else None,
                                     hint_values={"name": close[0]} if close else None)
    _check_rented_instances(kb)
    for gid, arch in kb.gpus.items():
        own = arch.link.scale_out_network  # a misspelt network fell back to the segment's default, silently
        if own is not None and own not in kb.runtime.networks:
            import difflib  # a close match for an error's hint: not on the way of a good answer
            close = difflib.get_close_matches(own, list(kb.runtime.networks), n=1)
            raise KnowledgeError(N_("unknown network '%(network)s'"),
                                 where=f"{kb.files['gpus.yaml']}: {gid}: link.scale_out_network",
                                 values={"network": own},
                                 hint=N_("did you mean %(name)s?") if close else None,
                                 hint_values={"name": close[0]} if close else None)
        if arch.architecture not in kb.runtime.mfu:
            raise KnowledgeError(
                N_("no default MFU for architecture '%(architecture)s'"),
                where=f"{kb.files['runtime.yaml']}: mfu", values={"architecture": arch.architecture},
            )


def _check_rented_instances(kb: Knowledge) -> None:
    """An overlay's runtime.yaml ``rented_host_ram`` instance close to one clouds.yaml lists or runtime.yaml ships
    but not it ('g6.xlarg') is a misspelling no audit or plan would read: refused with the close match, as
    ``acquisition.instance`` is (inputs/listed.py check_instance). Any other name is the user's own instance, read
    when a proposal names it; the shipped names (some with no offer) are runtime.yaml's own."""
    path, base = kb.files["runtime.yaml"], knowledge_dir() / "runtime.yaml"
    if path == base:
        return
    shipped = (parse_yaml(read_bytes(base, what="knowledge file"), base, what="knowledge file") or {}).get(
        "rented_host_ram") or {}
    listed = {i.id for i in kb.clouds.instances}
    for field in ("instance_gib", "instance_vcpus"):
        known = sorted(listed | set(shipped.get(field) or {}))
        for name in getattr(kb.runtime.rented_host_ram, field):
            if name in known:
                continue
            import difflib  # a close match for an error's hint: not on the way of a good answer

            close = difflib.get_close_matches(name, known, n=1, cutoff=0.8) or difflib.get_close_matches(
                name.strip().lower(), [k.lower() for k in known], n=1, cutoff=0.8)
            if close:
                meant = next(k for k in known if k.lower() == close[0].lower())
                raise KnowledgeError(N_("unknown instance '%(instance)s'"), where=f"{path}: rented_host_ram.{field}",
                                     values={"instance": name}, hint=N_("did you mean %(name)s?"),
                                     hint_values={"name": meant})


def _check_serving(kb: Knowledge, index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> None:
    """serving.yaml: every framework precision names a weight format gpuwise knows, ids are unique. ``index``: an
    overlay's entries by their place in its file (:func:`_merge`)."""
    if kb.serving is None:
        return
    path = kb.files["serving.yaml"]
    known = {"fp32", "fp16", "bf16"} | set(kb.runtime.quantization) | set(kb.serving.formats)
    _unique(kb.serving.frameworks, path, "frameworks")
    for i, f in enumerate(kb.serving.frameworks):
        for prec, fp in f.precisions.items():
            if fp.format not in known:
                raise KnowledgeError(N_("unknown weight format '%(format)s'"),
                                     where=f"{path}: frameworks[{i}] (id {f.id}).precisions.{prec}.format",
                                     values={"format": fp.format})
        listed = f.fused_kernel_models
        for j, entry in enumerate(listed.releases if listed is not None else []):
            for ident in entry.gpus_excluded:  # a misspelt GPU would keep the fused figure, silently
                if ident not in kb.gpus:
                    close = [m for m in [kb.gpu_names.meant(ident)] if m]  # 'h200': its id, not b200
                    at = ("frameworks", i, "fused_kernel_models", "releases")  # as the overlay numbers them
                    fi, rj = (index or {}).get(at[:1], {}).get(i, i), (index or {}).get(at, {}).get(j, j)
                    where = f"{path}: frameworks[{fi}] (id {f.id}).fused_kernel_models.releases[{rj}].gpus_excluded"
                    raise KnowledgeError(N_("unknown gpu '%(gpu)s'"), values={"gpu": ident}, where=where,
                                         hint=N_("did you mean %(name)s?") if close else None,
                                         hint_values={"name": close[0]} if close else None)
    names = {f.id for f in kb.serving.frameworks}
    for mid, m in kb.models.items():  # a misspelt framework would leave the generic counts in place, silently
        for k, g in enumerate(getattr(m, "graph_layer_kernels", [])):
            if g.framework not in names:
                raise KnowledgeError(N_("unknown framework '%(ident)s'"), values={"ident": g.framework},
                                     where=f"{kb.files['models.yaml']}: {mid}.graph_layer_kernels[{k}].framework")
    if path != knowledge_dir() / "serving.yaml":  # the shipped file's names: tests/test_hostile38.py
        from .serving_names import check_serving_names  # a misspelt architecture or model matched no job, silently

        check_serving_names(kb, path, index)


def _check_prices(kb: Knowledge, index: dict[tuple[Any, ...], dict[int, int]] | None = None) -> None:
    """prices.yaml names only catalog GPUs, known networks, and each GPU at most once."""
    if kb.prices is None:
        return
    path = kb.files["prices.yaml"]
    for section in ("gpus", "excluded", "markets"):
        seen: set[str] = set()
        for i, e in enumerate(getattr(kb.prices, section)):
            shown = (index or {}).get((section,), {}).get(i, i)
            if e.id not in kb.gpus:
                raise KnowledgeError(N_("unknown gpu '%(id)s'"), where=f"{path}: {section}[{shown}]",
                                     values={"id": e.id})
            if e.id in seen:
                raise KnowledgeError(N_("gpu '%(id)s' listed twice"), where=f"{path}: {section}[{shown}]",
                                     values={"id": e.id})
            seen.add(e.id)
    both = {g.id for g in kb.prices.gpus} & {e.id for e in kb.prices.excluded}
    if both:
        raise KnowledgeError(N_("gpu '%(gpu)s' is both priced and excluded"), where=str(path),
                             values={"gpu": sorted(both)[0]})
    for i, f in enumerate(kb.prices.fabrics):
        if f.id not in kb.runtime.networks:
            raise KnowledgeError(N_("unknown network '%(id)s'"), where=f"{path}: fabrics[{i}]", values={"id": f.id})
    fabric_ids = {f.id for f in kb.prices.fabrics}
    for form, fid in kb.prices.bought_fabric.items():
        if fid not in fabric_ids:
            raise KnowledgeError(N_("bought_fabric.%(form)s: no fabric '%(fid)s'"), where=str(path),
                                 values={"form": form, "fid": fid})
    for gid, g in kb.gpus.items():
        fid = g.link.system_fabric
        if fid is not None and fid not in fabric_ids:
            import difflib  # a close match for an error's hint: not on the way of a good answer
            close = difflib.get_close_matches(fid, sorted(fabric_ids), n=1)
            raise KnowledgeError(N_("link.system_fabric: no prices.yaml fabric '%(fid)s'"),
                                 where=f"{kb.files['gpus.yaml']}: {gid}", values={"fid": fid},
                                 hint=N_("did you mean %(name)s?") if close else None,
                                 hint_values={"name": close[0]} if close else None)
