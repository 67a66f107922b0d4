"""The owned servers of a plan's GPU type: how many GPUs each holds (``owned[].count`` over ``owned[].servers``), how
many of them a run or copy spans, and the network between them (``owned[].network``, else the default for the GPU's
class). Read by the sizing (:mod:`.sizing`: a copy or run over the servers) and the reports (:mod:`.build`)."""

from __future__ import annotations

from ..errors import N_, UserError
from ..estimators.interconnect import default_network
from ..inputs.job import check_network
from ..knowledge import Knowledge
from .result import server_sizes, servers_spanned
from .schema import PlanFile


def owned_server_sizes(pf: PlanFile, kb: Knowledge, g: str) -> list[int]:
    """The GPUs of each owned server of ``g``, largest first (:func:`.result.server_sizes`), where every entry of the
    type states its servers; empty where one does not (the plan does not know how they sit)."""
    mine = [w for w in pf.owned if kb.gpu(w.gpu).id == g]
    return server_sizes([(w.count, w.servers) for w in mine]) if mine and all(w.servers for w in mine) else []


def owned_server_gpus(pf: PlanFile, kb: Knowledge, g: str) -> int:
    """The GPUs of the largest owned server of ``g`` (owned[].count over its servers, rounded up: 3 of 8 in 3
    servers, where 8 // 3 = 2 was taken), the owned count where an entry states no servers."""
    sizes = owned_server_sizes(pf, kb, g)
    return sizes[0] if sizes else sum(w.count for w in pf.owned if kb.gpu(w.gpu).id == g)


def stated_server_gpus(pf: PlanFile, kb: Knowledge, g: str) -> int:
    """The GPUs of the largest owned server of ``g`` (:func:`owned_server_gpus`) where every entry of the type states
    its servers; 0 where one does not (the plan does not know how they sit)."""
    sizes = owned_server_sizes(pf, kb, g)
    return sizes[0] if sizes else 0


def owned_servers(pf: PlanFile, kb: Knowledge, g: str, count: int) -> int:
    """The owned servers of ``g`` a run or copy of ``count`` GPUs spans, the largest first; 1 where their servers are
    not stated."""
    return servers_spanned(owned_server_sizes(pf, kb, g), count)


def owned_network(kb: Knowledge, g: str, pf: PlanFile | None = None) -> str:
    """The network between the owned servers of ``g`` that a run or copy over them crosses: the plan file's
    ``owned[].network`` for the type, else the default for the GPU's class (interconnect.default_network, as an
    unstated ``hardware.network``'s), which the plan's assumptions then name (assume.plan.owned_network)."""
    return stated_network(kb, g, pf) or default_network(kb.gpus[g], kb.runtime)


def check_owned(kb: Knowledge, pf: PlanFile, i: int, g: str, where: str) -> None:
    """``owned[i]`` (``where``) of the GPU type ``g``: its network (:func:`check_owned_network`) and the month it was
    bought (:func:`check_owned_bought`)."""
    check_owned_network(kb, pf, i, g, f"{where}.network")
    check_owned_bought(kb, pf, i, g, f"{where}.bought")


def check_owned_network(kb: Knowledge, pf: PlanFile, i: int, g: str, where: str) -> None:
    """``owned[i].network``: one of runtime.yaml's networks (a close match offered), and the one other entries of the
    same GPU type state, if any (their servers are one fleet, on one network)."""
    name = pf.owned[i].network
    check_network(kb, name, where)
    first = stated_network(kb, g, pf)
    if name is not None and first != name:
        raise UserError(N_("owned %(gpu)s are on %(first)s in an earlier entry: one network a GPU type"),
                        where=where, values={"gpu": kb.gpus[g].name, "first": first})


def check_owned_bought(kb: Knowledge, pf: PlanFile, i: int, g: str, where: str) -> None:
    """``owned[i].bought``: not in a year before the GPU was sold (gpus.yaml ``launch_year``), as an audit's used card's
    ``manufactured`` and ``purchased`` are not (hostile round 47: RTX 4090s bought 2019-06 were planned)."""
    bought, part = pf.owned[i].bought, kb.gpus[g]
    if bought and int(bought[:4]) < part.launch_year:
        raise UserError(N_("bought %(bought)s, before the %(name)s launched (%(launch_year)s)"), where=where,
                        hint=N_("check the year they were bought"),
                        values={"bought": bought, "name": part.name, "launch_year": part.launch_year})


def stated_network(kb: Knowledge, g: str, pf: PlanFile | None) -> str | None:
    """The ``owned[].network`` the plan file states for the owned GPUs of ``g`` (None: none)."""
    return next((w.network for w in pf.owned if w.network and kb.gpu(w.gpu).id == g), None) if pf else None
