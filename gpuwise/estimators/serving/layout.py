"""How one model copy spans GPUs (tensor, pipeline, expert parallel, replicas), and what its memory holds."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ...frozen import frozen
from ...knowledge.records import version_key
from ...messages import Phrase, phrase_text
from .. import memory as M
from .. import memory_serving as MS
from ..interconnect import GPUS_PER_NODE, default_network, link_bandwidth
from . import statepool as SP
from .engine import Engine, kv_per_token, window_tokens
from .profile import profile_beyond
from .support import request_lengths

if TYPE_CHECKING:  # knowledge records at run time; the schema classes only type them
    from ...knowledge.schema import Gpu


# ------------------------------------------------------------------------------- layouts
@frozen
class Layout:
    """How one model copy spans GPUs, and how many copies serve side by side."""

    tp: int = 1  # tensor parallel (attention and dense layers)
    pp: int = 1  # pipeline stages (layer split)
    ep: int = 1  # expert parallel: experts spread over ep GPUs (1 = sharded like dense layers)
    dp_attention: int = 1  # attention data-parallel ranks inside one copy (with ep)
    replicas: int = 1
    # with attention data parallel, the ep ranks hold their 1/ep of every expert and run them tensor-parallel on
    # every rank's gathered tokens (a release's engine, Engine.dpa_tp_experts), not whole experts expert-parallel
    experts_tp: bool = False
    # the servers the copy's GPUs sit in: GPUs one holds, and the network between them (None: the GPU's default).
    # A rental sold only as smaller instances (rental.instance_split: eight T4s are eight one-GPU g4dn.xlarge) is
    # servers of the instance's GPUs on the network its provider states, so a pipeline hop between them crosses it
    node: int = GPUS_PER_NODE
    network: str | None = None

    @property
    def gpus_per_copy(self) -> int:
        return self.tp * self.pp * self.dp_attention

    @property
    def gpus(self) -> int:
        return self.gpus_per_copy * self.replicas

    def as_dict(self) -> dict[str, int]:
        return {"tp": self.tp, "pp": self.pp, "ep": self.ep, "dp_attention": self.dp_attention,
                "replicas": self.replicas, "gpus_per_copy": self.gpus_per_copy}

    def label(self) -> str:
        """The layout in English ("2 x (tensor parallel 4)")."""
        return phrase_text(self.label_phrases())

    def label_phrases(self) -> tuple[Phrase, ...]:
        """The layout as message ids and values (reports/messages.yaml layout.*)."""
        ep = "layout.ep_tp" if self.experts_tp else "layout.ep"
        parts = [(mid, n) for mid, n in (("layout.attention_dp", self.dp_attention), ("layout.tp", self.tp),
                                         ("layout.pp", self.pp), (ep, self.ep)) if n > 1]
        copy: tuple[Phrase, ...] = tuple((" + " if i else "", mid, {"n": n}) for i, (mid, n) in enumerate(parts)) \
            or (("", "layout.one_gpu", {}),)
        return (("", "layout.copies", {"n": self.replicas, "copy": copy}),) if self.replicas > 1 else copy


def layouts(job: Any, eng: Engine, count: int, servers: tuple[int, str | None] | None = None) -> list[Layout]:
    """The layouts worth comparing on ``count`` GPUs: copies of 1, 2, 4... GPUs (tensor parallel
    inside a node, pipeline stages across nodes; layer split for llama.cpp-like engines) and, for
    MoE on engines with expert parallelism, attention data parallel + expert parallel copies.
    GPUs left over stay idle, so every layout of ``n`` GPUs is also one of ``n + 1``. ``servers``:
    (GPUs a server holds, the network between servers) where they are not the usual 8-GPU servers on
    the GPU's default network (:attr:`Layout.node`); tensor parallelism then stays inside one of them."""
    out = _layouts(job, eng, count, servers[0] if servers else GPUS_PER_NODE)
    if servers is None:
        return out
    return [replace(lay, node=servers[0], network=servers[1]) for lay in out]


def _layouts(job: Any, eng: Engine, count: int, node: int) -> list[Layout]:
    shape = job.shape
    fw = eng.fw
    # a pinned expert-parallel degree with tensor-parallel attention (TensorRT-LLM's moe_expert_parallel_size,
    # vLLM's --enable-expert-parallel without data parallel): the experts spread over ep of the tp GPUs
    ep_pin = _pin(job, "ep") if shape.moe and "expert" in fw.parallelism else None
    out: list[Layout] = []
    g = 1
    while g <= count:
        reps = count // g
        if fw.split == "layer":
            out.append(Layout(pp=g, replicas=reps))
        else:
            tp = min(g, node)
            while tp > 1 and shape.heads % tp:
                tp //= 2
            pp = g // tp
            if pp == 1 or "pipeline" in fw.parallelism:
                out.append(Layout(tp=tp, pp=pp, replicas=reps))
                if ep_pin and 1 < ep_pin <= tp and tp % ep_pin == 0:
                    out.append(Layout(tp=tp, pp=pp, ep=ep_pin, replicas=reps))
            if shape.moe and g > 1 and {"expert", "data-attention"} <= set(fw.parallelism):
                out.append(Layout(tp=1, pp=1, ep=g, dp_attention=g, replicas=reps, experts_tp=eng.dpa_tp_experts))
        g *= 2
    # a layer-split engine spreads one copy's layers over every GPU it is given (llama.cpp's default split mode,
    # docs/multi-gpu.md), so 3 or 6 cards hold a model that 2 or 4 do not: that copy beside the ladder's
    if fw.split == "layer" and count & (count - 1) and count <= shape.layers:
        out.append(Layout(pp=count, replicas=1))
    out += [lay for lay in _pinned_copy(job, eng, count, ep_pin) if lay not in out]
    return _pinned(job, out)


def _pinned_copy(job: Any, eng: Engine, count: int, ep_pin: int | None) -> list[Layout]:
    """The copy a pinned tensor-parallel degree names, where the doubling ladder of :func:`layouts` does not
    build it: wider than a node (SGLang ``--tp 16 --nnodes 2``, a published recipe for DeepSeek-V3/R1 on
    2 x 8 H100/H200; each layer's all-reduces over the network, :func:`_replica`, and a rule says what that
    costs a step), tensor x pipeline inside one node (``--tensor-parallel-size 4
    --pipeline-parallel-size 2`` on 8 GPUs: the ladder gives 8 GPUs tensor parallel 8), or a count of stages
    across servers the ladder's powers of two skip (vLLM ``--pipeline-parallel-size 3`` over three 8-GPU servers,
    vllm-project/vllm pull request #15322; each stage a server, the hops between them over the network).
    Only where pinned."""
    tp, pp = _pin(job, "tp"), _pin(job, "pp") or 1
    dep = _dep_stages(job, eng, count, ep_pin, tp, pp)
    if dep:
        return dep
    if not tp or eng.fw.split != "tensor" or job.shape.heads % tp or tp * pp > count:
        return []
    if pp > 1 and "pipeline" not in eng.fw.parallelism:
        return []
    out = [Layout(tp=tp, pp=pp, replicas=count // (tp * pp))]
    if ep_pin and 1 < ep_pin <= tp and tp % ep_pin == 0:
        out.append(Layout(tp=tp, pp=pp, ep=ep_pin, replicas=count // (tp * pp)))
    return out


def _dep_stages(job: Any, eng: Engine, count: int, ep_pin: int | None, tp: int | None, pp: int) -> list[Layout]:
    """Attention data parallel with expert parallel inside each of ``pp`` pipeline stages, where pinned as
    ``tp`` 1, ``ep`` > 1, ``pp`` > 1 on an engine that runs all three: TensorRT-LLM's performance overview runs
    Qwen3 MoE as 'DEP2,PP2' on four RTX 6000 Pro Server cards (enable_attention_dp with --ep 2 --pp 2;
    NVIDIA/TensorRT-LLM docs/source/developer-guide/perf-overview.md at 03e27c7d). The doubling ladder builds
    attention data parallel with one stage only."""
    if not (tp == 1 and ep_pin and ep_pin > 1 and pp > 1 and job.shape.moe and ep_pin * pp <= count):
        return []
    if not {"expert", "data-attention", "pipeline"} <= set(eng.fw.parallelism):
        return []
    return [Layout(tp=1, pp=pp, ep=ep_pin, dp_attention=ep_pin, replicas=count // (ep_pin * pp),
                   experts_tp=eng.dpa_tp_experts)]


def split_hop(eng: Engine, gpu: Any) -> float | None:
    """Seconds a stage boundary of a layer-split copy adds to a step where the framework's build was read on the GPU's
    vendor and link (serving.yaml ``layer_split_hop``: llama.cpp's HIP build hands each split over through the host
    at a cost no PCIe hop of its CUDA build shows); None elsewhere, where the framework's hop holds."""
    for hop in eng.fw.layer_split_hop:
        if gpu.vendor in hop.vendors and gpu.link.kind in hop.links:
            return hop.hop_us * 1e-6
    return None


def pinned_gpus(job: Any) -> int:
    """The GPUs one copy of the user's pinned layout takes (tensor x pipeline parallel): fewer GPUs cannot keep
    the pin. 1 without a pin, or where no count can keep it (a tensor-parallel degree the model's attention heads
    do not divide: neither :func:`layouts` nor :func:`_pinned_copy` builds it). A pinned ``tp`` 1 with ``ep`` and
    ``pp`` on an MoE model takes ep x pp (:func:`_dep_stages`)."""
    tp = _pin(job, "tp") or 1
    pp = _pin(job, "pp") or 1
    if job.shape.heads % tp:
        return 1
    ep = _pin(job, "ep") or 1
    if tp == 1 and ep > 1 and pp > 1 and job.shape.moe:  # attention data parallel over ep in each stage
        return ep * pp
    return tp * pp


def pins_not_kept(job: Any, lay: Layout) -> tuple[Phrase, ...]:
    """What of the user's ``parallelism`` pins ``lay`` does not keep, as message ids with values
    (note.pin_not_kept: the pin, and the degree served instead); nothing where every pin is kept."""
    out: list[Phrase] = []
    for key in ("tp", "pp", "ep"):
        pin = _pin(job, key)
        if pin is not None and getattr(lay, key) != pin:
            out.append(("; " if out else "", "note.pin_not_kept", {"key": key, "pin": pin, "used": getattr(lay, key)}))
    return tuple(out)


def _pin(job: Any, key: str) -> int | None:
    """The user's ``parallelism`` pin ``key`` (tp, pp, ep), or None."""
    return getattr(getattr(job.w, "parallelism", None), key, None)


def _pinned(job: Any, options: list[Layout]) -> list[Layout]:
    """Only the layouts that keep the user's ``parallelism`` pins (all of them when none match: the
    replica then carries a note saying which pin it could not keep)."""
    par = getattr(job.w, "parallelism", None)
    if par is None:
        return options
    pins = {k: getattr(par, k, None) for k in ("tp", "pp", "ep")}
    keep = [lay for lay in options if all(v is None or getattr(lay, k) == v for k, v in pins.items())]
    return keep or options


# ------------------------------------------------------------------------------ replica
@frozen
class Replica:
    """One model copy on its GPUs: memory and the constants of its step."""

    layout: Layout
    weights_gpu: float  # bytes held per GPU
    act_gpu: float  # prefill working set per GPU (chunked engines)
    act_per_seq_gpu: float  # static engines: per sequence's prompt
    kv_token_gpu: float  # KV bytes per token per GPU (of a sequence the GPU holds)
    free_gpu: float  # bytes per GPU left for the KV cache
    max_seqs: int  # most sequences the copy holds at once
    seq_tokens: float  # KV tokens a sequence occupies at admission
    link_bw: float  # B/s for tensor-parallel traffic
    ep_bw: float  # B/s for expert all-to-all
    hop_bw: float  # B/s between pipeline stages
    hop_latency: float  # s
    fits: bool
    notes: tuple[Phrase, ...] = ()  # message ids and values (note.*)
    draft_gpu: float = 0.0  # of weights_gpu: the speculative drafter's bytes
    draft_kv_token_gpu: float = 0.0  # the drafter's KV bytes per token of a sequence (beside kv_token_gpu)
    per_seq_gpu: float = 0.0  # bytes per GPU one sequence takes at admission (its KV cache, the drafter's, its prompt)
    allreduce_s: float = 0.0  # s per small tensor-parallel all-reduce over this copy's links (0: the engine's)
    pool_share: float = 0.0  # the framework's own share of a GPU's memory, where it bounded the KV pool (0: none did)
    pool_tokens: int = 0  # the engine's KV pool in tokens, where the job states it (workload.kv_cache_tokens)
    sched_cap: int = 0  # sequences a rank is capped at below what its memory holds (0: no cap bound)
    cap_stated: bool = False  # that cap is the job's own (workload.max_batch_size), not the framework's
    pool_kind: str = ""  # pool_share is the engine's own KV-pool setting, 'free' / 'total' ('': a release share)
    held_gpu: float = 0.0  # where pool_kind is set: bytes a GPU holds beside the pool (weights, working set, context)
    state_gpu: float = 0.0  # of per_seq_gpu: the recurrent state of the layers without attention (Mamba-2, DeltaNet)
    pool_gpu: float = 0.0  # the stated pool's bytes a GPU: pool_tokens x kv_token_gpu (0: no pool stated)
    pool_room_gpu: float = 0.0  # what a stated pool may take a GPU: the device's memory less what it holds beside
    state_slots: int = 0  # where the framework keeps the recurrent state in a pool of its own: its slots a rank
    state_slots_per_request: int = 0  # the slots a running request takes there (statepool.py)
    state_pool_gpu: float = 0.0  # the bytes a GPU that pool takes beside the KV pool
    state_capped: bool = False  # its slots capped the batch below what the KV pool holds
    share_stated: bool = False  # pool_share is the job's own setting of the engine's (workload.memory_fraction)
    profile_gpu: float = 0.0  # the profiled sampler peak beyond the working set the pool is sized short of (profile.py)
    nccl_small_s: float = 0.0  # s NCCL takes for an all-reduce of a few bytes over PCIe links (0: not PCIe, or none)


def replica(job: Any, gpu: Gpu, eng: Engine, lay: Layout) -> Replica:
    """Memory of one copy in ``lay`` and how many sequences its KV cache holds (memoised)."""
    key = ("serving-replica", gpu.id, eng.fw.id, eng.weight_format, lay.tp, lay.pp, lay.ep, lay.dp_attention,
           lay.node, lay.network)
    got = job.memo.get(key)
    if got is None:
        got = job.memo[key] = _replica(job, gpu, eng, lay)
    if got.layout.replicas != lay.replicas:
        got = Replica(**{**got.__dict__, "layout": lay})
    return got


def _replica(job: Any, gpu: Gpu, eng: Engine, lay: Layout) -> Replica:
    shape, kb = job.shape, job.kb
    prompt, output = request_lengths(job.w)
    mbytes = eng.mbytes
    tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
    # attention data parallel: non-expert weights on every rank, experts spread over ep GPUs
    # (tensor parallel: each rank its share, but the replicated down-projections and router whole)
    weights = mbytes.non_expert / pp + mbytes.experts / (ep * pp) if dpa > 1 else (
        mbytes.per_rank(tp) + mbytes.experts / tp) / pp
    kv_tok = kv_per_token(shape, eng.kv_bytes) / pp
    if dpa == 1:  # over min(tp, KV heads); each kind of layer over its own where global layers have fewer
        kv_tok /= MS.kv_tp_split(shape, tp, prompt + output if eng.fw.kv_reserve == "full" else prompt + output / 2)
    # a speculative drafter's weights and KV cache sit beside the last stage's (draft.py)
    d = eng.drafter
    draft_w = d.weights_gpu(tp, ep, dpa) if d is not None else 0.0
    draft_kv = d.kv_token_gpu(tp, dpa) if d is not None else 0.0
    weights += draft_w
    ph, pf = MS.PREFILL_PER_TOKEN
    scale = 2.0 if eng.compute == "fp32" else 1.0  # activations in the compute precision
    per_token_act = (ph * shape.hidden + pf * shape.ffn * max(1, shape.experts_per_token)) * scale
    logits = 4.0 * shape.vocab * min(eng.max_batch, eng.chunk) / max(tp, 1)
    fw = eng.fw
    if fw.continuous_batching:
        act = per_token_act * eng.chunk / (tp * dpa) + logits
        act_seq = 0.0
    else:
        act = 4.0 * shape.vocab  # the last position's logits per sequence, counted below
        act_seq = per_token_act * prompt / (tp * dpa) + 4.0 * shape.vocab
    # what the KV cache may take: the memory total without it (weights and the KV pool are allocated once)
    beside = M.total_bytes(weights + act, act, (eng.context_bytes, eng.alloc_frac))
    free = eng.usable - beside
    share = static_share(eng, tp * dpa * pp)
    bound = 0.0  # the share that bounded the pool, for the formula the report shows
    if share and share * eng.capacity - weights - eng.context_bytes < free:
        # the release sizes its KV pool as a share of the GPU's memory less the weights (and CUDA context)
        free, bound = share * eng.capacity - weights - eng.context_bytes, share
    sized_by = ""  # the engine's own pool sizing that bounded the pool ("free" / "total"; "": none did)
    held_by = 0.0
    # the same from the device's memory (later releases), lowered for a checkpoint with a vision encoder
    default = reserved_share(eng, tp * dpa, pp, dpa) * vlm_share_factor(job, eng)
    block = fw.kv_block_tokens
    held = prompt + output if fw.kv_reserve == "full" else prompt + output / 2
    # a sliding-window layer keeps only its window, unless the release's KV manager holds the whole sequence there
    kept = held if eng.window_kv_full else window_tokens(shape, held)
    seq_tokens = math.ceil(kept / block) * block
    # the layers without attention keep a fixed-size state a running sequence, in the same pool (vLLM's MambaSpec)
    state = shape.state_bytes_per_sequence / MS.state_split(tp, pp, dpa) if getattr(shape, "recurrent", None) else 0.0
    per_seq = kv_tok * seq_tokens + draft_kv * math.ceil(held / block) * block + act_seq + state
    if default and not share:
        # a server whose default share leaves no room for one request does not start ('Not enough memory. Please
        # try to increase --mem-fraction-static'): its operator raised the share, so the headroom policy stands
        pooled = default * eng.capacity - weights - eng.context_bytes
        if per_seq <= pooled < free:
            free, bound = pooled, default
    kp = eng.fw.kv_pool
    # what the engine's start-up profile holds beyond the working set where it sizes its pool from that profile
    profiled = profile_beyond(job, eng, gpu.vendor, act)
    short = 0.0  # of it, what the pool is sized short of
    if kp is not None and not share and not bound and eng.capacity > 0:
        # the engine sizes its pool itself at its default setting: a share of the memory the weights, activations
        # and context leave (TensorRT-LLM), or of the whole device, those included (vLLM); a setting that leaves
        # no room for one request does not start, so its operator raised it and the headroom policy stands
        held_by = eng.usable - free + profiled
        own = kp.share * (eng.capacity - held_by) if kp.of == "free" else kp.share * eng.capacity - held_by
        if per_seq <= own < free:
            free, bound, sized_by, short = own, kp.share, kp.of, profiled
        elif own < per_seq and profiled:
            # raised to the headroom policy's share, the engine still sizes its pool from its profile run: the
            # pool is short of the same peak there (else the profile would make the pool larger, not smaller)
            free, short = free - profiled, profiled
    frac = getattr(job.w, "memory_fraction", None) if fw.memory_fraction is not None and eng.capacity > 0 else None
    if frac:
        # the job states the engine's own setting: it sizes the pool as the engine does, below or past gpuwise's
        # headroom, never past the device (what the weights, working set and context leave of it)
        kind = fw.memory_fraction.of
        free, bound, sized_by = stated_pool(kind, frac, eng.capacity, weights + eng.context_bytes,
                                            beside + profiled), frac, ("" if kind == "static" else kind)
        held_by, short = beside + profiled, profiled
    pool = getattr(job.w, "kv_cache_tokens", None)
    # a stated pool is the engine's log, so it may pass the headroom policy, never the device: beyond the memory
    # the weights, working set and context leave, no engine allocates it and the copy serves nothing
    pool_gpu, pool_room = (pool * kv_tok, eng.capacity - beside) if pool else (0.0, 0.0)
    room = pool_gpu if pool_gpu else free  # the engine's own KV pool where the job states it, else what memory leaves
    room_ok = free > 0 and room > 0 and per_seq > 0 and pool_gpu <= pool_room
    per_rank = max(0, int(room // per_seq)) if room_ok else 0
    # a framework that keeps the recurrent state in a pool of its own splits the room, and its slots cap the batch
    sp = SP.split(job, eng, room, per_seq - state, state, bool(pool_gpu)) if room_ok else None
    if sp is not None:
        per_rank = sp.held
    # the framework's most sequences a rank schedules, or the job's own setting of it (TensorRT-LLM's max_batch_size
    # and vLLM's max_num_seqs hold per attention data-parallel rank, SGLang's max_running_requests likewise)
    held = per_rank  # what the memory (or the stated pool) holds a rank
    stated = getattr(job.w, "max_batch_size", None)
    per_rank = min(per_rank, eng.batch_cap, stated or eng.batch_cap, sp.cap if sp is not None else per_rank)
    cap = per_rank if per_rank < held else 0  # a scheduler cap that bound: the formula the report shows says so
    slots = (sp.slots, sp.per_request, sp.slots * state) if sp is not None else (0, 0, 0.0)
    state_capped = bool(sp is not None and cap and cap == sp.cap and cap != stated)
    max_seqs = per_rank * dpa
    # links: tensor parallel inside a node; pipeline stages cross nodes when a copy is larger than one
    rt = kb.runtime
    eff = rt.link_efficiency.value
    kind, tp_bw, p2p, _ = link_bandwidth(gpu, max(tp, dpa), rt)
    link_bw = tp_bw * 1e9 * eff if math.isfinite(tp_bw) else float("inf")
    ep_bw = link_bw
    if kind == "pcie" and lay.ep > 1 and rt.pcie_alltoall_links is not None:
        # every GPU of the expert group writes to every other at once: the host fabric carries a few links' worth
        ep_bw = link_bw * min(1.0, rt.pcie_alltoall_links.value / lay.ep)
    allreduce_s = allreduce_latency(eng, kind, p2p, tp)
    if lay.gpus_per_copy > lay.node:  # the copy spans servers: its pipeline hops cross the network between them
        net = rt.networks.get(lay.network or default_network(gpu, rt))
        net_bw = (net.gb_s if net else 1.25) * 1e9 * eff
        # tensor parallel over the network: NCCL all-reduces across it, no custom kernel. A copy whose tensor
        # parallelism is wider than a rented instance is not priced so: NET-TP-ACROSS-INSTANCES refuses it
        if crosses_nodes(gpu, tp):
            link_bw = ep_bw = net_bw  # NVLink inside each node; every ring's hop between them is a GPU's NIC
            allreduce_s = cross_node_allreduce(rt, net, eng)
        hop_bw = min(link_bw, net_bw)
        ep_bw = min(ep_bw, net_bw) if dpa > lay.node else ep_bw
        hop_lat = max(eng.allreduce_latency, (net.latency_us if net else 20) * 1e-6)
    else:
        hop_bw = link_bw
        hop_lat = split_hop(eng, gpu) or eng.allreduce_latency
    notes: list[Phrase] = []  # message ids and values (reports/messages.yaml note.*)
    if shape.kv_elements_override and tp > 1 and dpa == 1:
        notes.append(("", "note.mla_replicated", {}))
    kv_fewest = min(shape.kv_heads, shape.global_attn[1]) if getattr(shape, "global_attn", None) else shape.kv_heads
    if dpa == 1 and tp > kv_fewest and not shape.kv_elements_override:
        notes.append(("; " if notes else "", "note.kv_replicated", {"kv": kv_fewest, "tp": tp}))
    for _sep, mid, values in pins_not_kept(job, lay):  # a pin no layout of this count keeps (layouts() offers all)
        notes.append(("; " if notes else "", mid, values))
    fits = free > 0 and max_seqs >= 1
    return Replica(lay, weights, act, act_seq, kv_tok, free, max_seqs, seq_tokens, link_bw, ep_bw, hop_bw, hop_lat,
                   fits, tuple(notes), draft_w, draft_kv, per_seq, allreduce_s, bound, int(pool or 0), cap,
                   bool(cap and stated and cap == stated), sized_by, held_by if sized_by else 0.0, state, pool_gpu,
                   pool_room, *slots, state_capped, bool(frac), short, nccl_small_s=pcie_nccl_latency(eng, kind, tp))


def stated_pool(kind: str, share: float, capacity: float, resident: float, beside: float) -> float:
    """Bytes a GPU for the KV pool (and a hybrid's state pool) at the engine's memory setting ``share`` of kind
    ``kind`` (serving.yaml ``memory_fraction``): ``free``, that share of what the weights, working set and context
    leave (TensorRT-LLM's free_gpu_memory_fraction); ``total``, that share of the device less them (vLLM's
    gpu_memory_utilization); ``static``, that share of the device less the weights and context alone, the working
    set outside it (SGLang's --mem-fraction-static: free memory after loading - total x (1 - share)). ``resident``:
    the weights and CUDA context a GPU, ``beside``: those with the working set and its allocator allowance. Never
    more than the device leaves beside them."""
    own = share * (capacity - beside) if kind == "free" else share * capacity - (
        beside if kind == "total" else resident)
    return min(own, capacity - beside)


def static_share(eng: Engine, gpus: int) -> float:
    """The share of a GPU's memory the release's weights and KV pool take together on a server of ``gpus`` GPUs
    (serving.yaml releases ``mem_fraction_static``: the entry of the largest count at or below ``gpus``); 0 where
    the release sizes its pool otherwise."""
    got = 0.0
    for n, share in eng.static_share:
        if n <= gpus:
            got = share
    return got


def _bucket(eng: Engine) -> Any:
    """The release's launch defaults for the device's memory (``reserved_memory`` buckets)."""
    mib = eng.capacity / 2**20
    return next(b for b in eng.reserve.buckets if b.below_mib is None or mib < b.below_mib)


def graph_batch_cap(eng: Engine, tp: int) -> int:
    """The largest decode batch the release captures in CUDA graphs by default on a ``tp``-GPU server: its own
    ``cuda_graph_max_bs``, else its memory bucket's (SGLang's server_args.py sets the cap by the device's memory and
    the tensor-parallel size); 0 where neither is known."""
    if eng.graph_cap:
        return eng.graph_cap
    if eng.reserve is None or eng.capacity <= 0:
        return 0
    b = _bucket(eng)
    return b.graph_batch if tp < eng.reserve.graph_batch_from_tp else b.graph_batch_large_tp


def copy_graph_cap(eng: Engine, rep: Replica) -> int:
    """The largest decode batch of a whole copy that replays its CUDA graph (0: no cap is known, or none applies):
    a tensor-parallel copy's :func:`graph_batch_cap`; a data-parallel-attention copy of the releases that run the
    experts tensor-parallel over the gathered tokens (``Engine.dpa_tp_experts``, SGLang 0.4.0-0.4.5) compares the
    whole server's batch with that cap (sgl-project/sglang issue #5527, pull request #4390); later designs cap each
    rank's batch, which no figure here prices."""
    lay = rep.layout
    return graph_batch_cap(eng, lay.tp) if lay.dp_attention == 1 or eng.dpa_tp_experts else 0


def _tower(job: Any) -> tuple[Any, Any]:
    """The serving.yaml ``vlm_memory_share`` block and the job's model's ``vision_tower`` (None where either is
    missing)."""
    serving = getattr(job.kb, "serving", None)
    rule = getattr(serving, "vlm_memory_share", None) if serving is not None else None
    model = job.kb.models.get(job.model_id) if rule is not None and job.model_id else None
    return rule, getattr(model, "vision_tower", None)


def vlm_share_factor(job: Any, eng: Engine) -> float:
    """What the framework's default share is multiplied by for the job's model (serving.yaml ``vlm_memory_share``):
    where the model's checkpoint ships a vision encoder (models.yaml ``vision_tower``) and the stated release (the
    newest where none is stated) is one that scales it, the encoder's depth (as the block reads it) times its width
    squared against the baseline's; 1 elsewhere."""
    rule, tower = _tower(job)
    version = getattr(job.w, "framework_version", None) or eng.release
    if tower is None or eng.fw.id not in rule.frameworks or version is None \
            or version_key(version) < version_key(rule.first):
        return 1.0
    depth = tower.layers if tower.layers_key == rule.layers_key else rule.default_layers
    ratio = depth * tower.hidden_size**2 / (rule.baseline_layers * rule.baseline_hidden**2)
    return rule.base * min(rule.ceiling, max(rule.floor, 1.0 - rule.sensitivity * (ratio - 1.0)))


def reserved_share(eng: Engine, tp: int, pp: int, dpa: int) -> float:
    """The share of a GPU's memory the weights and KV pool take in a release that sizes it from the device's memory
    (serving.yaml releases ``reserved_memory``; SGLang's server_args.py ``_handle_gpu_memory_settings`` when no
    --mem-fraction-static is given): the device's MiB less a reserve for the prefill chunk's activations and the
    CUDA-graph buffers, both at the defaults of the device's memory bucket, over the device's MiB. ``tp``: the
    server's tensor-parallel size (every attention data-parallel rank counted), ``dpa``: its data-parallel ranks.
    0 where the release has no such rule."""
    r = eng.reserve
    if r is None or eng.capacity <= 0:
        return 0.0
    mib = eng.capacity / 2**20
    b = _bucket(eng)
    graph = graph_batch_cap(eng, tp)
    reserve = (r.base_mib + r.per_prefill_token_mib * max(b.prefill_tokens, r.min_prefill_tokens)
               + r.per_graph_batch_mib * graph + r.per_gpu_mib * tp * pp)
    if dpa > 1:
        reserve += r.dp_attention_per_graph_batch_mib * graph * dpa
        if graph > r.dp_attention_large_above:
            reserve += r.dp_attention_large_mib * graph * dpa
    if mib > r.floor_above_mib:
        reserve = max(reserve, r.floor_mib)
    if eng.drafter is not None:
        reserve += r.speculative_mib
    return round((mib - reserve) / mib, 3)


def crosses_nodes(gpu: Gpu, tp: int) -> bool:
    """A tensor-parallel group of ``tp`` GPUs spans servers: wider than a node and than the GPU's NVLink domain
    (an NVL72 rack's 72 GPUs share one NVLink fabric, so 16 of them stay on it)."""
    return tp > GPUS_PER_NODE and tp > gpu.link.domain_gpus


def cross_node_allreduce(rt: Any, net: Any, eng: Engine | None = None) -> float:
    """Seconds of the fixed part of one small all-reduce over two 8-GPU servers: the framework's own figure where
    its NCCL settings rule out the algorithm the general one was measured with (serving.yaml
    ``cross_node_allreduce_us``: SGLang turns NVLink SHARP off), else nccl-tests' 8 B all-reduce on 16 GPUs over
    InfiniBand NDR (runtime.yaml cross_node_allreduce_us); the network's own latency where that is slower (an
    Ethernet or overlay network). The bytes are priced on top at the network's bandwidth."""
    own = eng.fw.cross_node_allreduce_us if eng is not None else None
    fixed = own.value if own is not None else rt.cross_node_allreduce_us.value
    return max(fixed, net.latency_us if net else 20.0) * 1e-6


def pcie_nccl_latency(eng: Engine, kind: str, tp: int) -> float:
    """Seconds NCCL's ring takes for an all-reduce of a few bytes over ``tp`` GPUs on PCIe links: 2 (tp - 1) steps
    one after another at the framework's measured PCIe step (``pcie_allreduce``), at least the framework's own
    all-reduce latency; 0 off PCIe or where the step was not read. What an exchange the framework's own kernel
    declines (``qk_norm_allreduce``: a buffer not a whole multiple of its byte granule) costs on such a copy."""
    pa = eng.fw.pcie_allreduce
    if pa is None or kind != "pcie" or tp <= 1:
        return 0.0
    return max(eng.allreduce_latency, 2 * (tp - 1) * pa.nccl_step_us * 1e-6)


def allreduce_latency(eng: Engine, kind: str, p2p: bool, tp: int) -> float:
    """Seconds of one small tensor-parallel all-reduce of a copy whose ``tp`` GPUs meet over ``kind`` links. vLLM's
    and SGLang's own all-reduce kernel needs the GPUs fully connected by NVLink beyond two of them (vLLM's
    custom_all_reduce.py: 'Custom allreduce is disabled because it's not supported on more than two PCIe-only
    GPUs') and peer-to-peer access; otherwise NCCL's ring runs it, 2 (tp - 1) steps one after another, each at
    the framework's measured PCIe step (``pcie_allreduce``). Elsewhere the framework's ``allreduce_latency_us``."""
    pa = eng.fw.pcie_allreduce
    if pa is None or kind != "pcie" or tp <= 1 or (tp <= pa.custom_max_ranks and p2p):
        return eng.allreduce_latency
    return max(eng.allreduce_latency, 2 * (tp - 1) * pa.nccl_step_us * 1e-6)
