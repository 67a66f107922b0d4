"""How many sequences a hybrid model's server runs where the framework keeps the recurrent state (models.yaml
``recurrent``: gated DeltaNet, Mamba-2) in a pool of its own beside the KV pool (serving.yaml ``hybrid_state_pool``).

SGLang (from 0.5.4; the release wheels' ``handle_max_mamba_cache`` / ``_handle_max_mamba_cache`` and
``resolve_max_num_reqs``) splits the memory left for its pools so that state bytes / KV bytes = the memory ratio
(0.9 by default), fills the state share with whole slots of one request's state, and runs at most slots // r
requests: r = 3 with the radix (prefix) cache on, 5 from 0.5.14 for the architectures it gives the extra state buffer
under the overlap scheduler, 1 with the radix cache off. With the radix cache off and ``--max-running-requests``
given the pool holds exactly that many slots (0.5.4-0.5.8: 512 where none is given). The KV pool keeps the rest, and
what it holds of the sequences' KV caches bounds the running requests too.

vLLM keeps each sequence's state in the KV pool's own pages (MambaSpec), which :mod:`.layout` already prices: no
entry, no split.
"""

from __future__ import annotations

from typing import Any

from ...frozen import frozen
from ...knowledge.records import version_key


@frozen
class StateSplit:
    """One rank's pools under a state pool of its own."""

    held: int  # sequences the KV pool holds (their KV caches alone)
    cap: int  # running requests the state pool's slots allow
    slots: int  # the state pool's slots
    per_request: int  # slots a running request takes


def release_entry(fw: Any, version: str | None) -> Any:
    """The ``hybrid_state_pool`` entry of the stated release (the last at or before it; the newest where none is
    stated); None before the first, or where the framework keeps the state in the KV pool."""
    pool = getattr(fw, "hybrid_state_pool", None)
    if pool is None:
        return None
    if version is None:
        return pool.releases[-1]
    got = None
    for entry in pool.releases:
        if version_key(entry.since) <= version_key(version):
            got = entry
    return got


def split(job: Any, eng: Any, room: float, kv_seq: float, state: float, pool_stated: bool) -> StateSplit | None:
    """The KV pool's sequences and the state pool's cap on one rank, from ``room`` bytes a GPU for both pools (or,
    ``pool_stated``, the stated KV pool's bytes, beside which the state pool holds the ratio of them), ``kv_seq``
    KV bytes a sequence and ``state`` state bytes a sequence, a GPU; None where no state pool of its own applies."""
    if state <= 0 or room <= 0 or kv_seq <= 0:
        return None
    w = job.w
    entry = release_entry(eng.fw, getattr(w, "framework_version", None))
    if entry is None:
        return None
    cache_on = getattr(w, "prefix_cache", None) is not False
    stated = getattr(w, "max_batch_size", None)
    r = entry.memory_ratio
    if not cache_on and (stated or entry.fixed_slots):
        slots = int(stated or entry.fixed_slots)  # the pool holds that many, whatever the ratio
        kv_room = room if pool_stated else room - slots * state
    else:
        state_room = room * r if pool_stated else room * r / (1.0 + r)
        slots = int(state_room // state)
        kv_room = room if pool_stated else room - slots * state
    buffered = job.model_id in eng.fw.hybrid_state_pool.buffered_models
    per = 1 if not cache_on else entry.slots_per_request if buffered else entry.plain_slots_per_request
    held = max(0, int(kv_room // kv_seq))
    return StateSplit(held, slots // per, slots, per)
