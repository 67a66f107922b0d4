"""One continuous-batching step of a copy: linear layers, attention, communication and fixed costs."""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import Any

from ...frozen import frozen
from ...knowledge.records import version_key
from . import draft as D
from .eager import host_seconds
from .engine import FP4_FORMATS, Engine, _kept, prefill_tokens
from .fusion import router_seconds
from .layout import Replica
from .recurrent import recurrent_extra_kernels
from .support import deepgemm_pad_at, depth_rate, request_lengths

ACT_BYTES = 2.0  # activations exchanged between GPUs are 16-bit
# Kernels a layer runs beyond a dense GQA layer's (whose fixed cost is the framework's layer overhead),
# each charged the framework's kernel floor: the latency floor of MoE, MLA and W8A8 layers.
ROUTER_KERNELS = 4  # router GEMM, top-k (soft-max / sigmoid + bias), token sort/alignment, weighted combine
SHARED_EXPERT_KERNELS = 3  # the shared expert's gate/up and down GEMMs and its activation, beside the routed ones
MLA_EXTRA_KERNELS = 6  # q down-projection + norm, latent norm, the absorbed q/v batched GEMMs, split-KV combine
QUANT_KERNELS_DENSE = 4  # W8A8: the activations of qkv, o, gate/up and down are quantized before each GEMM
QUANT_KERNELS_COMPILED = 1  # ... where compile folds the rest into the norms and activation (Engine.act_quant_fused):
# the attention output's, the first op of its graph piece (vLLM splits the compiled graph at attention)
QUANT_KERNELS_MOE = 2  # ... and before each grouped expert GEMM
QUANT_KERNELS_MLA = 2  # ... and before MLA's extra projections
LATENT_KERNELS = 2  # LatentMoE: its fc1_latent_proj and fc2_latent_proj GEMMs a MoE layer (vLLM nemotron_h.py)
PRE_NORM_KERNELS = 2  # a pre-norm layer's norms (input, post-attention) with their residual adds: in the 12
W8A8 = ("fp8", "int8")  # Blackwell FP4 MoE kernels fuse the activation quantization (FlashInfer TRT-LLM-gen)

# --------------------------------------------------------------------------------- step
@frozen
class Step:
    """Seconds of one step of a copy, by part (per GPU, all stages)."""

    seconds: float
    gemm: float
    attention: float
    comm: float
    overhead: float
    bound: str  # what limits the linear layers: "memory" or "compute"
    weight_bytes_gpu: float
    kv_bytes_gpu: float
    flops_gpu: float
    # what set ``seconds`` where a floor did: the step the GPU's parts give, and the release's host floor that
    # raised it (``Engine.host_floor``); 0.0 for both where the GPU's parts set the step (``seconds`` is theirs)
    gpu_seconds: float = 0.0
    host_floor: float = 0.0
    # where block-scaled FP8 GEMMs walk their reduction depth longer than their math takes (Engine.k_block), the
    # dense GEMMs' math and the walk that replaces it in ``gemm`` (all stages); 0.0 for both where the math is longer
    gemm_math: float = 0.0
    k_walk: float = 0.0


def step(job: Any, eng: Engine, rep: Replica, decode: float, prefill: float, kv_ctx: float,
         prefill_ctx: float, longest: float = 0.0) -> Step:
    """One step that decodes ``decode`` sequences (mean context ``kv_ctx``, the longest ``longest``: :func:`_parts`)
    and processes ``prefill`` prompt tokens (mean attended length ``prefill_ctx``) on one copy."""
    c = consts(job, eng, rep)
    total, gemm, attention, comm, over, host, t_mem, t_fl, w_gpu, kv_gpu, flops = _parts(
        c, decode, prefill, kv_ctx, prefill_ctx, longest)
    pp = rep.layout.pp
    own = _host(c, decode)
    # a host floor raised the step (_parts): the GPU's step, as _parts sums it, and the floor beside it
    gpu = pp * (gemm + attention + comm + over) + own if host != own else 0.0
    math_s = c.t_tok * ((decode + prefill) / micro_batches(c, decode, prefill)) / c.ranks / pp  # _parts's t_fl
    walk = c.kserial > math_s  # the block-FP8 walk, not the math, is the dense GEMMs' time beyond their weights
    return Step(total, pp * gemm, pp * attention, pp * comm, pp * over + own,
                "memory" if t_mem >= t_fl else "compute", w_gpu, kv_gpu, flops,
                gpu, c.host_floor if host != own else 0.0, pp * math_s if walk else 0.0,
                pp * c.kserial if walk else 0.0)


def dense_math_seconds(eng: Engine, peak: float) -> float:
    """Seconds a token of the dense (non-expert) GEMMs' math on one GPU, before the ranks and stages split it:
    their FLOPs (2 x the active dense weights, the output head's included) at ``peak``. A W4A4 FP4 engine runs FP4
    GEMMs only on the weights its checkpoint stores in FP4 (``ModelBytes.low_dense``); the ones the checkpoint keeps
    in 16 bits -- the output head (formats ``keeps_16bit``: ModelOpt's NVFP4 and the MXFP4 checkpoints exclude
    ``lm_head``), and attention and the router where ``fp4_checkpoints`` says so (gpt-oss: every non-expert linear;
    DeepSeek-R1-NVFP4: the q/kv projections) -- are 16-bit GEMMs (vLLM runs them with UnquantizedLinearMethod;
    TensorRT-LLM's excluded modules keep their BF16 linear), at the 16-bit rate (``Engine.peak_attn``: the BF16
    peak at the framework's efficiency), and those it stores in FP8 (``ModelBytes.fp8_params``: Nemotron 3 Super's
    Mamba projections and shared experts) at the FP8 rate (``Engine.peak_fp8``). Elsewhere every dense FLOP runs
    at ``peak``."""
    sc, mb = eng.sc, eng.mbytes
    dense = 2.0 * (sc.n_active - sc.n_experts_active)
    if eng.compute != "fp4" or eng.weight_only or eng.weight_format not in FP4_FORMATS:
        return dense / peak
    low = 2.0 * mb.low_dense / mb.linear_bytes_per_param  # FLOPs a token through the FP4 weights
    if mb.fp8_params and eng.peak_fp8:  # the parts the checkpoint stores in FP8 run W8A8 GEMMs at the FP8 rate
        f8 = 2.0 * mb.fp8_params
        kept = max(dense - low - f8, 0.0)
        return low / peak + f8 / eng.peak_fp8 + kept / eng.peak_attn
    kept = max(dense - low, 0.0)
    return (dense - kept) / peak + kept / eng.peak_attn


def _host(c: StepConsts, decode: float) -> float:
    """A step's host time before any floor: the step's own and each decoded sequence's (per attention rank)."""
    dpa = c.dpa
    return c.step_overhead + c.seq_overhead * (decode / dpa if dpa > 1 else decode)


class StepConsts:
    """What a step of one engine on one copy's layout reads that does not depend on the batch, worked
    out once per pair (:func:`consts`): the step runs thousands of times per recommendation. Each
    figure is the same expression, in the same order, as the step formula writes it, so a step's
    seconds are the same to the last bit."""

    __slots__ = ("allreduce_latency", "alltoall_2", "attn_4", "base", "bw_experts", "bw_kv", "bw_weights", "capacity",
                 "chunk_fl", "dpa", "e_total", "eager", "eng", "ep", "ep_bw", "ep_comm", "ep_k", "ep_share", "ep_width",
                 "ep_z", "experts", "f_dense", "f_experts", "fla_s", "front", "gather", "gpu_points", "hidden",
                 "hop_bw", "hop_latency", "host_floor", "idx_4", "idx_share", "k_over_e", "kserial", "kv_reads",
                 "kv_token_gpu", "kv_walk", "kv_walk_one", "layers", "lengths", "link_bw", "m", "moe_rate", "moe_stage",
                 "one_batch", "over", "pad_rows", "passed", "peak_attn", "peak_dense", "peak_gemm", "peak_index",
                 "points", "poll", "pp", "pp_comm", "prefill_floor", "prefills", "qk_bytes", "qk_count", "qk_granule",
                 "qk_layers", "qk_nccl", "ranks", "rep", "router", "router_layers", "sc", "seq_overhead", "sparse_k",
                 "state_rw", "step_overhead", "t_mem", "t_tok", "tile", "tp", "tp_comm", "tp_share", "two_layers",
                 "units", "w_dense", "w_experts", "waits", "walk_cap", "walk_global", "walk_longest", "walk_seqs",
                 "window")

    def __init__(self, eng: Engine, rep: Replica, w: Any = None) -> None:
        sc, lay, mbytes = eng.sc, rep.layout, eng.mbytes
        tp, pp, ep, dpa = lay.tp, lay.pp, lay.ep, lay.dp_attention
        self.eng, self.rep, self.sc = eng, rep, sc
        self.tp, self.pp, self.ep, self.dpa = tp, pp, ep, dpa
        self.m = pp if (pp > 1 and eng.fw.split == "tensor") else 1  # micro-batches in flight
        # ... but one batch, stage after stage, in a decode-only step of a release that schedules a running request
        # again only once its token is back (serving.yaml pp_decode_batch): the step's budget (tokens) a batch
        span, version = eng.fw.pp_decode_batch, getattr(w, "framework_version", None)
        self.one_batch = float(eng.chunk) if self.m > 1 and span is not None and (
            version is None or version_key(version) >= version_key(span.first)) else 0.0
        self.ranks = tp * dpa
        # dense linear layers (attention projections, dense/shared MLPs, head), then the routed experts:
        # separate operators, each at its own roof (the experts' few tokens each keep them memory-bound longer)
        # tensor parallelism splits them but for what every rank holds whole (MLA's down-projections, the router)
        split = 1 if dpa > 1 else tp
        self.w_dense = ((mbytes.dense_read - mbytes.replicated) / split + mbytes.replicated) / pp
        self.f_dense = 2.0 * (sc.n_active - sc.n_experts_active)
        self.peak_dense = eng.peak_dense or eng.peak_gemm  # the dense GEMMs' rate (Engine.peak_dense)
        if eng.fp8_depth and eng.sc.gemms:  # ... by its GEMMs' depth share over those read on (fp8_large_batch)
            fixed, read_on = eng.fp8_depth
            self.peak_dense *= depth_rate(eng.sc.gemms, fixed, split) / read_on
        self.t_tok = dense_math_seconds(eng, self.peak_dense)  # seconds a token of the dense GEMMs' math
        self.t_mem = self.w_dense / eng.bw_weights
        if eng.fp4_dense_bw:  # dense NVFP4 GEMMs stream their share at the FP4 kernels' own rate (nvfp4_dense_rate)
            low = ((mbytes.low_dense - mbytes.low_replicated) / split + mbytes.low_replicated) / pp
            self.t_mem += low * max(1.0 / eng.fp4_dense_bw - 1.0 / eng.bw_weights, 0.0)
        self.peak_gemm, self.bw_weights = eng.peak_gemm, eng.bw_weights
        self.experts = bool(sc.moe and mbytes.experts)
        self.base = 1.0 - sc.k_over_e
        self.k_over_e = sc.k_over_e
        # experts: over the ep ranks of attention data parallel, else over all tp GPUs (moe_ep x moe_tp = tp)
        self.w_experts = mbytes.experts / pp / (ep if dpa > 1 else tp)
        self.tile = eng.expert_tile
        self.bw_experts = eng.bw_experts  # the fused-MoE kernel streams the experts at its own share where it has one
        self.moe_rate = eng.moe_rate
        self.f_experts = 2.0 * sc.n_experts_active
        # DeepGEMM's contiguous grouped GEMM (serving.yaml deepgemm_moe_padding): its buffer of the routed rows and
        # block_m - 1 padding rows an expert, each multiplied by a whole expert (split over the ranks)
        self.pad_rows = eng.moe_pad_rows if deepgemm_pad_at(eng.fw, version, 1 if ep > 1 else tp * dpa) else 0.0
        # expert parallel: the step waits for the GPU whose experts the batch routes most to (ep_imbalance)
        balanced = bool(getattr(w, "eplb", False)) if w is not None else False  # EPLB evens the GPUs' loads
        # a release whose attention data parallel gathers every rank's tokens and runs the experts tensor-parallel
        # on them (Engine.dpa_tp_experts): each rank holds its 1/dpa of every expert, so no rank waits on a
        # busiest share and no all-to-all runs; an all-gather and an all-reduce a MoE layer instead (_parts)
        self.gather = self.experts and dpa > 1 and eng.dpa_tp_experts
        self.ep_z = max_normal(ep) if self.experts and ep > 1 and not balanced and not self.gather else 0.0
        self.e_total = sc.k / sc.k_over_e if sc.k_over_e > 0 else 0.0
        self.layers = sc.layers / pp
        self.kv_token_gpu = rep.kv_token_gpu
        # a hybrid's layers without attention read each decoding sequence's recurrent state and write it back a step
        # (vLLM's fused_recurrent_gated_delta_rule and selective_state_update update it in place)
        self.state_rw = 2.0 * rep.state_gpu
        self.window = sc.window is not None
        # attention's FLOPs grow with the context in the layers that run it; a hybrid's recurrent layers (gated
        # DeltaNet) cost a fixed chunked-prefill work a prompt token instead (recurrent.py chunk_flops), or, where the
        # release runs flash-linear-attention's Triton chunk kernels on this GPU, their measured time a token and
        # value head (recurrent.py fla_prefill_seconds) in place of those FLOPs
        hybrid = sc.hybrid
        self.attn_4 = 4.0 * (hybrid[0] / pp if hybrid else self.layers)
        fla = eng.fla_prefill * hybrid[4] if hybrid and hybrid[1] == "gated_deltanet" else 0.0
        self.chunk_fl = hybrid[2] * hybrid[3] / pp if hybrid and not fla else 0.0
        self.fla_s = hybrid[2] * fla / pp / (tp * dpa) if fla else 0.0
        self.bw_kv, self.peak_attn = eng.bw_kv, eng.peak_attn
        # the cache is read once per query head where the decode kernel gives each its own block (serving.yaml
        # kv_per_query_head: llama.cpp below Turing's MMA); a recurrent state still once
        self.kv_reads = sc.group if eng.kv_per_query_head else 1.0
        # sparse attention (DSA): a query reads and multiplies the top-k MLA entries its indexer picks, and the
        # indexer reads its own key (its share of a token's cached bytes) over the whole context and multiplies
        # it at the FP8 rate, on every tensor-parallel rank (vLLM builds the indexer replicated); only the layers
        # that keep an indexer (a ``share`` of them: IndexShare) cache its key and score the context
        self.sparse_k, self.idx_share, self.idx_4, self.peak_index = 0.0, 0.0, 0.0, 0.0
        if sc.sparse:
            top_k, width, key_bytes, latent, share = sc.sparse
            self.sparse_k, self.idx_share = top_k, share * key_bytes / (latent * eng.kv_bytes + share * key_bytes)
            self.idx_4, self.peak_index = 4.0 * self.layers * share * width, eng.peak_index or eng.peak_attn
        # a split-KV decode kernel walks each sequence's KV heads on this GPU (a latent: one) at its programs' rate
        kv_heads = 1 if sc.mla else max(1, sc.kv_heads // tp) if dpa == 1 else sc.kv_heads
        self.kv_walk = eng.kv_walk * kv_heads
        # ... by at most the programs the GPU holds at once (walk_cap)
        self.walk_cap = walk_cap(eng, tp, dpa)
        # ... and it cuts every sequence's cache into shares of the longest one's (get_num_kv_splits_triton sizes
        # the split from the batch's longest sequence): a step lasts that sequence's walk (the ROCm kernels split
        # each sequence by its own length)
        self.walk_longest = bool(eng.kv_walk) and not eng.kv_walk_grid and not eng.kv_walk_one
        # ... a kernel that gives each (sequence, KV head) one program instead past its launch grid (ROCm's unified
        # attention: sequences x KV heads a GPU holds above kv_walk_grid; walk_seqs 0: no such limit)
        self.kv_walk_one = eng.kv_walk_one * kv_heads
        self.walk_seqs = eng.kv_walk_grid / kv_heads if eng.kv_walk_grid else 0.0
        # ... where the ROCm unified kernel walks wider global layers (Gemma 4), each of their heads' programs walks
        # a tile of its own width per iteration: their layers' walk, over the windowed layers' (0: one rate for all)
        self.walk_global = 0.0
        if eng.kv_walk_grid and sc.global_kv and not sc.mla:
            g_kv, wider = sc.global_kv
            self.walk_global = wider * (max(1, g_kv // tp) if dpa == 1 else g_kv) / kv_heads
        self.tp_comm = tp > 1 and dpa == 1
        # a q/k RMSNorm over all heads (MiniMax-M2) needs every rank's sum of squares: one more all-reduce a layer
        self.qk_layers = self.layers if self.tp_comm and sc.qk_norm_all_heads else 0.0
        # ... as one exchange a layer of the two FP32 sums a token, or as a release ran it (engine.qk_norm_exchange)
        self.qk_count, self.qk_bytes, self.qk_granule, nccl = eng.qk_norm
        # two a layer; a block hybrid's block (block_hybrid) runs one, after its mixer's or its MLP's output projection
        self.units = self.layers / 2 if block_hybrid(sc) else self.layers
        self.two_layers = 2 * self.units
        self.allreduce_latency = rep.allreduce_s or eng.allreduce_latency  # NCCL's ring over PCIe (layout)
        # an exchange the own all-reduce kernel declines: NCCL, at its PCIe ring's latency on a PCIe copy
        self.qk_nccl = max(self.allreduce_latency, rep.nccl_small_s or nccl)
        self.tp_share = 2 * (tp - 1) / tp
        self.link_bw = rep.link_bw
        # all-to-all only with attention data parallel: with tensor-parallel attention every rank holds every
        # token, runs its own experts on those routed there, and the layer's all-reduce (tp_comm) combines them
        # (TensorRT-LLM docs, Expert Parallelism: moe_tp_size x moe_ep_size = tp_size)
        self.ep_comm = ep > 1 and dpa > 1 and not self.gather
        self.ep_k, self.hidden = sc.k, sc.hidden
        self.ep_width = sc.latent or sc.hidden  # a routed row: LatentMoE dispatches its latent (vLLM nemotron_h.py)
        self.ep_share = ep - 1
        self.moe_stage = sc.moe_layers / pp
        self.alltoall_2 = 2 * eng.alltoall_latency
        self.ep_bw = rep.ep_bw
        self.pp_comm = pp > 1
        self.hop_latency, self.hop_bw = rep.hop_latency, rep.hop_bw
        self.over = self.units * eng.layer_overhead + floor_per_step(eng) / pp  # a block: half a layer's boundaries
        self.eager = eng.eager  # an eager engine's launch counts (eager.py): its host launches overlap the GPU's work
        # a router the framework runs as a torch.compile'd top-k function (fusion.torch_router): each MoE layer pays
        # its cost beyond the fused gate by the step's tokens; not under expert parallelism (a release may fuse it)
        self.router = eng.router if ep <= 1 else ()
        self.router_layers = sc.moe_layers / pp
        self.kserial = kserial_seconds(eng, split) / pp if eng.k_block else 0.0
        self.step_overhead, self.seq_overhead = eng.step_overhead, eng.seq_overhead
        self.host_floor = eng.host_floor  # a synchronous release's step lasts at least the host's time for it
        self.prefill_floor = prefill_host(eng) + eng.step_overhead  # a prefill forward lasts at least this
        # the job's request: (prompt, output, prompt tokens prefilled), and whether its scheduler holds
        # prompts back to gather them (load.held); read by the load model at every concurrency
        if w is not None:
            prompt, output = request_lengths(w)
            self.lengths = (prompt, output, prefill_tokens(w, prompt, eng.fw))
            self.waits = int(getattr(w, "batch_wait_steps", 0) or 0) > 0
            self.poll = max(int(getattr(w, "scheduler_recv_interval", 1) or 1), 1)
        else:  # no job: only the step's own figures
            self.lengths, self.waits, self.poll = None, False, 1
        # the load model's memos (:mod:`.load`), set by :func:`consts`: points by concurrency and capacities
        # by latency limits, shared by every copy of the same shape in the job, and the job's front end
        self.points: dict = {}
        self.gpu_points: dict = {}
        self.capacity: dict = {}
        self.passed: set = set()
        self.front: Any = None
        # this pair's prefill seconds by (tokens, attended length) (load._prefill): a copy's load model prices the
        # same prompt chunk at every concurrency it tries (accuracy.py --all: 7,652 of 86,243 steps again)
        self.prefills: dict[tuple[float, float], float] = {}


def walk_cap(eng: Engine, tp: int, dpa: int) -> float:
    """B/s a split-KV decode kernel reads a GPU's cache at, at most, once its grid passes the programs the GPU holds
    at once (serving.yaml ``triton_decode_walk`` ``programs_per_sm``; 0: no such limit read): a KV head's query heads
    on the GPU take cdiv(them, ``block_heads``) programs, each reading the same share of its cache, so the resident
    programs' rate (``Engine.kv_walk_slots``) is shared by those head blocks."""
    slots, block = eng.kv_walk_slots
    if not slots:
        return 0.0
    sc = eng.sc
    kv_heads = 1 if sc.mla else max(1, sc.kv_heads // tp) if dpa == 1 else sc.kv_heads
    q_heads = (max(1, sc.heads // tp) if dpa == 1 else sc.heads) / kv_heads
    return slots / math.ceil(q_heads / min(block, q_heads))


def consts(job: Any, eng: Engine, rep: Replica) -> StepConsts:
    """:class:`StepConsts` of ``eng`` on ``rep``, kept per job by the pair's identity (both are frozen).
    Its load memos (points, capacities) are the job's for the copy's shape -- the GPU, framework,
    weights and layout: a copy of the same shape is the same on 2 GPUs as on 16 (only the number of
    copies differs), so every pair of that shape shares them."""
    key = ("serving-step", id(eng), id(rep))
    memo = job.memo
    got = memo.get(key)
    if got is None or got.eng is not eng or got.rep is not rep:
        got = memo[key] = StepConsts(eng, rep, job.w)
        lay = rep.layout
        shape = (eng.gpu_id, eng.fw.id, eng.weight_format, lay.tp, lay.pp, lay.ep, lay.dp_attention, lay.node,
                 lay.network)
        shared = memo.get("serving-shapes")
        if shared is None:
            shared = memo["serving-shapes"] = {}
        kept = shared.get(shape)
        if kept is None:
            kept = shared[shape] = ({}, {}, {}, set())
        got.points, got.gpu_points, got.capacity, got.passed = kept
    return got


def _parts(c: StepConsts, decode: float, prefill: float, kv_ctx: float, prefill_ctx: float,
           longest: float = 0.0) -> tuple[float, ...]:
    """:func:`step`'s figures, per stage where the step record multiplies them by the stages:
    (seconds, gemm, attention, comm, overhead, host, weight time, math time, weight bytes, KV bytes, FLOPs).
    ``longest``: the context a decoding sequence ends at where the batch's spread from prompt to it (a load's steady
    state; 0: all at ``kv_ctx``), whose longest on a GPU sets a split-KV walk's share (``StepConsts.walk_longest``)."""
    m, ranks, pp, dpa = micro_batches(c, decode, prefill), c.ranks, c.pp, c.dpa
    tokens = (decode + prefill) / m
    d_mb, p_mb = decode / m, prefill / m
    w_gpu = c.w_dense
    flops = c.f_dense * tokens / ranks / pp
    t_mem = c.t_mem
    t_fl = c.t_tok * tokens / ranks / pp  # flops at the dense rate, the 16-bit kept weights' at theirs
    # block-FP8 GEMMs walk their reduction depth at few rows (kserial_seconds): a floor the math hides once it is larger
    gemm = linear_time(t_mem, t_fl) + (max(c.kserial - t_fl, 0.0) if c.kserial else 0.0)
    e_time, hits = 0.0, 0.0  # the routed experts' GEMMs, and the experts the step's tokens touch a MoE layer
    if c.experts:
        cov = 1.0 - c.base ** tokens if tokens > 0 else 0.0
        w_exp = c.w_experts * cov
        per_expert = tokens * c.k_over_e / cov if cov > 0 else 0.0  # tokens each touched expert receives
        tile = c.tile
        padded = math.ceil(per_expert / tile) * tile if per_expert > 0 else 0.0
        f_exp = c.f_experts * tokens / ranks / pp * (padded / per_expert if per_expert > 0 else 0.0)
        f_rows = c.f_experts * tokens / ranks / pp  # the routed rows' own math, without the tiles' padding
        if c.ep_z:  # the busiest expert-parallel GPU: more experts to read, more rows to multiply
            f_w, f_c = ep_imbalance(c.e_total, c.ep_k, c.ep, tokens, c.ep_z)
            real = per_expert / padded if padded > 0 else 1.0  # tile-padded GEMMs cost by experts, full ones by rows
            w_exp, f_exp, f_rows = w_exp * f_w, f_exp * (f_w * (1.0 - real) + f_c * real), f_rows * f_c
        if c.pad_rows:  # every routed row and every expert's padding rows multiplied (DeepGEMM's M_sum buffer)
            f_exp = max(f_exp, c.f_experts / c.ep_k * (tokens * c.ep_k + c.pad_rows) / ranks / pp)
        # the padded tiles at the dense rate, or the routed rows at the fused-MoE kernel's own rate on prompt-sized
        # batches (Engine.moe_rate), whichever is slower: the kernel reaches no more than its measured throughput
        e_mem, e_fl = w_exp / c.bw_experts, max(f_exp / c.peak_gemm, f_rows / c.moe_rate)
        e_time, hits = linear_time(e_mem, e_fl), cov * c.e_total
        gemm += e_time
        w_gpu += w_exp
        flops += f_exp
        t_mem, t_fl = t_mem + e_mem, t_fl + e_fl
    seqs_gpu = busiest_rank(d_mb, dpa) if dpa > 1 else d_mb
    kv_gpu = c.kv_token_gpu * (_kept(c.sc, kv_ctx) if c.window else kv_ctx) * seqs_gpu + c.state_rw * seqs_gpu
    sc = c.sc
    d_attn = seqs_gpu * dpa  # attention waits for the rank holding the most sequences
    index_s = 0.0
    if c.sparse_k:  # DSA: the top-k entries read and attended, the indexer's keys over the whole context
        k = c.sparse_k
        kv_gpu = (c.kv_token_gpu * (c.idx_share * kv_ctx + (1.0 - c.idx_share) * min(kv_ctx, k))
                  + c.state_rw) * seqs_gpu
        index_s = c.idx_4 * (kv_ctx * d_attn + prefill_ctx * p_mb) / dpa / c.peak_index
        kv_ctx, prefill_ctx = min(kv_ctx, k), min(prefill_ctx, k)
    attn_fl = (c.attn_4 * (sc.attn_width * kv_ctx * d_attn + sc.attn_width_prefill * prefill_ctx * p_mb)
               + c.chunk_fl * p_mb) / ranks
    read = kv_gpu / c.bw_kv
    if c.kv_walk and seqs_gpu > 0:  # the cache (not a recurrent state) at the split-KV kernel's walkers' rate
        state = c.state_rw * seqs_gpu
        walk = c.kv_walk_one if c.walk_seqs and seqs_gpu > c.walk_seqs else c.kv_walk
        glob = c.kv_token_gpu * (1.0 - sc.window_frac) * kv_ctx * seqs_gpu if c.walk_global else 0.0
        walked = kv_gpu - state - glob
        # the longest sequence's programs walk its shares while the others' finish theirs; past the GPU's resident
        # programs (walk_cap) every program's share waits its turn; the card's bandwidth bounds both. Of n sequences
        # a GPU's kernel holds, spread evenly from their prompt to its end, the longest stands n / (n + 1) of the way
        # (the expected largest of n uniform draws): kv_ctx + (longest - kv_ctx) (n - 1) / (n + 1)
        longer = 1.0
        if c.walk_longest and not c.window and longest > kv_ctx > 0 and seqs_gpu > 1:
            longer = 1.0 + (longest / kv_ctx - 1.0) * (seqs_gpu - 1.0) / (seqs_gpu + 1.0)
        one = walked * longer / (walk * seqs_gpu)
        read = state / c.bw_kv + max(walked / c.bw_kv, one, walked / c.walk_cap if c.walk_cap else 0.0)
        if glob:  # the global layers' cache, at their heads' own walk
            read += glob / min(c.bw_kv, walk * c.walk_global * seqs_gpu)
    if c.kv_reads > 1.0:  # the cache again for every further query head of a KV head (not the state)
        read += (kv_gpu - c.state_rw * seqs_gpu) * (c.kv_reads - 1.0) / c.bw_kv
    attention = max(read, attn_fl / c.peak_attn + index_s) + c.fla_s * p_mb
    comm = 0.0
    if c.tp_comm:
        comm += _tp_allreduce_stage(c, tokens)
    if c.ep_comm:  # dispatch and combine: every token to its k experts' ranks and back
        size = 2 * (tokens / dpa) * c.ep_k * c.ep_width * ACT_BYTES * c.ep_share / c.ep
        comm += c.moe_stage * (c.alltoall_2 + size / c.ep_bw)
    if c.gather:  # every rank's tokens gathered to all (ring all-gather), the MoE output all-reduced over them
        size = tokens * c.hidden * ACT_BYTES
        comm += c.moe_stage * (2 * c.allreduce_latency + 3 * (dpa - 1) / dpa * size / c.link_bw)
    if c.pp_comm:
        comm += c.hop_latency + tokens * c.hidden * ACT_BYTES / c.hop_bw
    over = c.over + (c.router_layers * router_seconds(c.router, tokens) if c.router and tokens > 0 else 0.0)
    stage = gemm + attention + comm + over
    if c.eager is not None:  # launches overlap the GPU's work up to a sync; a MoE loop's syncs make it a stretch apart
        lay, loops = host_seconds(c.eager, c.layers - c.moe_stage, c.moe_stage, hits)
        stage = max(stage - e_time - over, lay) + max(e_time, loops) + over
        over = stage - gemm - attention - comm
    host = _host(c, decode)
    total = pp * stage + host
    if total < c.host_floor:  # the host's own work sets the step (a release that schedules synchronously)
        host += c.host_floor - total
        total = c.host_floor
    return total, gemm, attention, comm, over, host, t_mem, t_fl, w_gpu, kv_gpu, flops


def micro_batches(c: StepConsts, decode: float, prefill: float) -> float:
    """Batches a step of ``decode`` sequences and ``prefill`` prompt tokens keeps in flight over the copy's stages,
    each 1/m of it: ``c.m`` (one a stage), but in a decode-only step of a release whose scheduler takes up a running
    request again only once its last token is back (serving.yaml ``pp_decode_batch``), the batches the step's
    budget cuts the decodes into (one while they fit in it), at most one a stage: with every running request in
    one batch the batch queue's other slots stay empty and the stages run it one after another, each reading the
    weights (the experts) its whole batch needs. A step that carries prompt chunks keeps a micro-batch a stage."""
    if c.one_batch and prefill <= 0:
        return min(float(c.m), max(1.0, math.ceil(decode / c.one_batch)))
    return c.m


def tp_allreduce_seconds(c: StepConsts, tokens: float = 1.0) -> float:
    """Seconds a decode step of ``tokens`` spends in its copy's tensor-parallel all-reduces, every stage's
    (two a layer: :func:`_parts` prices the same); 0 where attention is data parallel. A copy whose tensor
    parallel spans nodes runs them over the network (layout.cross_node_allreduce): what the rule that warns
    of it quotes."""
    if not c.tp_comm:
        return 0.0
    return c.pp * _tp_allreduce_stage(c, tokens)


def _tp_allreduce_stage(c: StepConsts, tokens: float) -> float:
    """One stage's tensor-parallel all-reduces for a step of ``tokens``: two a layer, each the link's latency
    and the activations' ring share over its bandwidth; and, for a model whose q/k RMSNorm spans all heads of a
    layer (``qk_norm_all_heads``), one more a layer over each token's two FP32 sums of squares, since each rank
    holds only its heads (SGLang python/sglang/srt/models/minimax_m2.py MiniMaxM2QKRMSNorm: attn_tp_all_reduce of
    sum_sq between its two Triton kernels; vLLM layers/mamba/linear_attn.py MiniMaxText01RMSNormTP.forward_qk:
    tensor_model_parallel_all_reduce of the q and k variances concatenated). A release that normalizes q and k apart
    runs two such all-reduces of 4 bytes a token, and one that leaves the buffer unpadded sends an exchange of fewer
    bytes than its own kernel's granule to NCCL (engine.qk_norm_exchange): the decode batch as its CUDA graph pads it
    (:func:`graph_batch`) times the bytes a token."""
    size = tokens * c.hidden * ACT_BYTES
    out = c.two_layers * (c.allreduce_latency + c.tp_share * size / c.link_bw)
    if c.qk_layers:
        lat = c.allreduce_latency
        if c.qk_granule and (graph_batch(tokens) * c.qk_bytes) % c.qk_granule:
            lat = c.qk_nccl
        out += c.qk_layers * c.qk_count * (lat + c.tp_share * tokens * c.qk_bytes / c.link_bw)
    return out


def graph_batch(tokens: float) -> int:
    """The batch a decode step of ``tokens`` replays its CUDA graph at, as far as its byte alignment goes: SGLang
    captures batches of 1, 2, 4, 8, 12 and then multiples of 8 (python/sglang/srt/server_args.py
    _generate_cuda_graph_batch_sizes, 0.5.7-0.5.9) and pads a batch up to the next, so one or two tokens run as they
    are and from 3 on the batch is a multiple of 4 (here: the next one)."""
    n = max(math.ceil(tokens - 1e-9), 1)
    return n if n <= 2 else 4 * math.ceil(n / 4)


def busiest_rank(seqs: float, dpa: int) -> float:
    """Sequences on the busiest of ``dpa`` attention data-parallel ranks: a sequence lives on one rank,
    so below ``dpa`` sequences one rank holds a whole one (``seqs/dpa`` would split it), and above it the
    scheduler's round-robin dispatch (SGLang ``--load-balance-method round_robin``, the default: SGLang
    docs, Server Arguments) fills them evenly. Continuous in ``seqs`` so the load curve stays monotone."""
    return max(seqs / dpa, min(seqs, 1.0))


def max_normal(n: int) -> float:
    """Expected maximum of ``n`` independent standard normal variables, Blom's approximation
    Phi^-1((n - 0.375) / (n + 0.25)) (Blom 1958, Statistical Estimates and Transformed Beta-Variables;
    1.433 for n = 8 against the exact 1.4236 of Harter 1961, Biometrika 48, 151-165)."""
    return NormalDist().inv_cdf((n - 0.375) / (n + 0.25)) if n > 1 else 0.0


def ep_imbalance(experts: float, k: int, ep: int, tokens: float, z: float | None = None) -> tuple[float, float]:
    """(weight-read, compute) factors of the busiest of ``ep`` expert-parallel GPUs over the mean, for a
    step of ``tokens`` each routed to ``k`` of ``experts`` experts held ``experts/ep`` per GPU, under
    uniform routing with no load balancer (EPLB is off by default in SGLang, ``--enable-eplb``, and vLLM,
    ``--enable-eplb``: their server-argument docs). Under EP each MoE layer waits for its slowest GPU
    (SGLang team, 'Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism', lmsys.org
    2025-05-05: balancedness = mean / max GPU load). Routed pairs on one GPU per token are hypergeometric,
    variance k (1/ep)(1 - 1/ep)(E - k)/(E - 1); the experts a GPU must read are binomial(E/ep, p) with
    p = 1 - (1 - k/E)^tokens. The expected maximum over the GPUs is mean + z x sd, z = :func:`max_normal`,
    capped by all of a GPU's share. First principles, no fitted constant; real routing is skewed beyond
    uniform (popular experts) and DeepSeek's group-limited routing crowds a token's experts onto fewer
    GPUs, both left out, so it is a lower bound. Measured skew is tens of percent, not a multiple: a
    median max/mean rank load of 1.069 at EP16 without EPLB (vllm-project/vllm pull request #50647,
    Kimi K3), EPLB's +17-34% prefill throughput at EP8 with attention DP (ROCm/ATOM pull request #1210)."""
    if ep <= 1 or tokens <= 0 or experts <= k:
        return 1.0, 1.0
    z = max_normal(ep) if z is None else z
    f_c = min(1.0 + z * math.sqrt((ep - 1) * (experts - k) / (tokens * k * (experts - 1))), float(ep))
    per_gpu = experts / ep
    p = 1.0 - (1.0 - k / experts) ** tokens
    f_w = min(1.0 + z * math.sqrt((1.0 - p) / (per_gpu * p)), 1.0 / p) if p < 1.0 else 1.0
    return f_w, f_c


def seconds_of(c: StepConsts, decode: float, prefill: float, kv_ctx: float, prefill_ctx: float) -> float:
    """:func:`step`'s seconds alone (no step record built), on the engine and copy of ``c``."""
    return _parts(c, decode, prefill, kv_ctx, prefill_ctx)[0]


def linear_time(mem: float, comp: float) -> float:
    """Seconds of a linear layer that streams ``mem`` seconds of weights and does ``comp`` seconds of
    tensor-core work: their sum, the non-overlapping case of the Execution-Cache-Memory model (Treibig &
    Hager, PPAM 2009). A pipelined Hopper GEMM alone overlaps the two (DeepGEMM's published FP8 table on
    H800 reads as the larger roof, tests/test_serving_gemm_ridge.py), so the sum is not the kernel's time:
    it stands in for what a serving step near the ridge loses besides (too few tiles for the SMs at
    tensor parallelism among the candidates; validation README, branch ridge55), and the maximum alone
    read the serving sets worse (14.0% -> 15.8% median at a stated concurrency)."""
    return mem + comp


def kserial_seconds(eng: Engine, split: int) -> float:
    """Seconds one forward's block-scaled FP8 GEMMs (gemms.block_gemms) last beyond streaming their weights,
    at a decode batch, all stages: without split-K one thread block walks a GEMM's whole reduction depth K
    (K / 128 blocks at ``eng.k_block`` each, serving.yaml ``block_fp8_small_batch``), however few columns it
    has, and a GEMM lasts the longer of that walk and its weights at the dense bandwidth. ``split``: the
    tensor-parallel ranks that divide the projections ("n" columns, "k" the reduction)."""
    total = 0.0
    for n, k, dim, count in eng.sc.gemms + eng.shared_gemms:  # a shared expert run after the routed ones walks too
        n_gpu = n / split if dim == "n" else n
        k_gpu = k / split if dim == "k" else k
        walk = math.ceil(k_gpu / 128.0) * eng.k_block
        total += count * max(walk - n_gpu * k_gpu * eng.k_walk_bytes / eng.bw_weights, 0.0)
    return total


DENSE_LAYER_KERNELS = 12  # norm, QKV GEMM, RoPE, cache write, attention, output GEMM, all-reduce, norm,
# gate/up GEMM, activation, down GEMM, all-reduce: a dense GQA layer's kernels in a PyTorch engine


def kernels_per_forward(eng: Engine) -> float:
    """Kernels one forward pass launches: a dense layer's per layer plus the extra kernels and grouped
    GEMMs of :func:`floor_per_step` (MoE routing, MLA, activation quantization), all stages."""
    kernels, grouped = _extra_kernels(eng)
    return DENSE_LAYER_KERNELS * eng.sc.layers + kernels + grouped


def block_hybrid(sc: Any) -> bool:
    """Whether the model's layers are blocks that each hold one mixer or one MLP (Nemotron-H: a Mamba-2, attention,
    MLP or MoE block, each a norm and its module; vLLM vllm/model_executor/models/nemotron_h.py @
    8744bb0924a53c0d16867426b8b17428d41e4002, ALL_DECODER_LAYER_TYPES 'M', '*', '-', 'E'), so that a block is half a
    dense layer: its kernels are a mixer's or an MLP's of DENSE_LAYER_KERNELS (and so the per-layer overhead's
    boundaries, Engine.layer_overhead), and under tensor parallelism it all-reduces once, after the mixer's output
    projection (o_proj, the Mamba mixer's out_proj, the MLP's down_proj: RowParallelLinear) or the MoE block's
    combined routed and shared output (NemotronHMoE.forward: maybe_all_reduce_tensor_model_parallel), where a dense
    layer all-reduces twice. Known from the counts: the layers that run attention and the recurrent layers together
    fewer than all (hybrid_consts; a hybrid whose every layer holds a mixer and an MLP, Qwen3.5's gated DeltaNet, has
    as many mixers as layers)."""
    hybrid = sc.hybrid
    return bool(hybrid) and hybrid[0] + hybrid[2] < sc.layers


def prefill_host(eng: Engine) -> float:
    """Seconds of host time a prefill forward needs when it runs outside CUDA graphs (the framework's
    ``prefill_eager_kernel_us``; 0 under graphs or a compiled runtime): a forward cannot finish before
    its last kernel is launched, so a short prompt's prefill is launch-bound, whatever the GPU."""
    return eng.eager_kernel * kernels_per_forward(eng) if eng.eager_kernel else 0.0


def _extra_kernels(eng: Engine) -> tuple[float, float]:
    """(small kernels beyond a dense layer's, grouped expert GEMMs) of one forward, all stages."""
    sc = eng.sc
    kernels = 0.0
    # layer-split engines (llama.cpp, ExLlama) quantize activations inside the per-layer overhead they are measured with
    w8a8 = eng.compute in W8A8 and not eng.weight_only and eng.fw.split != "layer"
    if w8a8:
        kernels += QUANT_KERNELS_COMPILED * sc.layers if eng.act_quant_fused else w8a8_quant_kernels(sc)
    kernels += fp4_quant_kernels(eng)
    if sc.mla:  # less the norm and quantization kernels a build folds into its norms (Engine.mla_norm_quant)
        kernels += (MLA_EXTRA_KERNELS + (QUANT_KERNELS_MLA - eng.mla_norm_quant if w8a8 else 0)) * sc.layers
    kernels += recurrent_extra_kernels(eng)  # a recurrent mixer's kernels beyond an attention mixer's
    graph = graph_layer_kernels(eng)
    if graph is not None:  # the framework's own count of the model's layer: norms, router, MLP beside the experts
        kernels += graph * sc.layers
    elif not eng.norms_fused:  # norms beyond a pre-norm layer's (Gemma's on the attention and MLP outputs)
        kernels += max(sc.norm_kernels - PRE_NORM_KERNELS, 0) * sc.layers
    grouped = 0.0
    if graph is not None and sc.moe and sc.moe_layers:
        return kernels, 2.0 * sc.moe_layers
    if sc.moe and sc.moe_layers:
        shared = SHARED_EXPERT_KERNELS if sc.shared and not eng.fuses_shared else 0
        per = ROUTER_KERNELS + shared + (QUANT_KERNELS_MOE if w8a8 else 0) + (LATENT_KERNELS if sc.latent else 0)
        kernels += per * sc.moe_layers
        grouped = 2.0 * sc.moe_layers
    return kernels, grouped


def graph_layer_kernels(eng: Engine) -> float | None:
    """The kernels the job's framework launches in one of the model's layers beyond a dense pre-norm layer's, as a
    mean over the layers, where the catalog counted its graph for that framework (models.yaml
    ``graph_layer_kernels``: llama.cpp's gemma4 graph, its norms, the MoE router's input scaling, the dense MLP beside
    the experts, the per-expert scale); None: the generic counts (norms, router, shared expert) apply."""
    return dict(getattr(eng.sc, "graph_kernels", ())).get(getattr(eng.fw, "id", None))  # the last listed (an overlay's)


def w8a8_quant_kernels(sc: Any) -> float:
    """Activation-quantization kernels one forward launches before its dense W8A8 GEMMs where no compile folds
    them (all stages): one before each quantized linear's GEMM (SGLang's apply_fp8_linear quantizes the input, then
    multiplies), QUANT_KERNELS_DENSE a layer that holds a mixer (q/k/v, o) and an MLP (gate/up, down). A hybrid whose
    mixers are layers of their own (Nemotron-H: ``layers`` counts its blocks, each a Mamba-2 mixer, an attention
    mixer, an MLP or a MoE block) quantizes before a mixer's two projections in a mixer block and before an MLP's or
    shared expert's two GEMMs in an MLP block: half of that a block, as fp4_quant_kernels counts the same blocks."""
    mixers = sc.hybrid[0] + sc.hybrid[2] if sc.hybrid else sc.layers
    if mixers >= sc.layers:  # every layer holds a mixer and an MLP
        return float(QUANT_KERNELS_DENSE * sc.layers)
    return float(QUANT_KERNELS_DENSE // 2 * sc.layers)


def sparse_indexer_kernels(eng: Engine) -> float:
    """Kernels one forward launches for a DSA model's lightning indexer, all stages: the framework's count a layer
    (serving.yaml ``sparse_indexer_kernels``: its projections, norm, RoPE, Hadamard rotations, FP8 quantization, key
    cache write, logits and top-k) x the layers that keep an indexer (every layer of DeepSeek-V3.2 and GLM-5; 21 of
    GLM-5.2's 78, whose other layers reuse the top-k: ``sparse_attention.indexer_layers``); 0 for dense attention or
    where the framework's count was not read. Charged at the kernel floor by :func:`floor_per_step`."""
    table = eng.fw.sparse_indexer_kernels
    if not eng.sc.sparse or table is None:
        return 0.0
    return float(table.decode.get("dsa", 0) * eng.sc.layers * eng.sc.sparse[4])


def fp4_quant_kernels(eng: Engine) -> float:
    """Activation-quantization kernels one forward launches apart before its dense W4A4 NVFP4 GEMMs (serving.yaml
    ``nvfp4_activation_quant``; 0 where the framework quantizes inside other kernels): the mixer layers' quantized
    projections (``Engine.fp4_quant_attn`` each), and the gate/up and down of every dense MLP and of every shared
    expert the framework runs beside the routed experts (a fused shared expert and the routed experts quantize in
    the fused-MoE kernel). A hybrid model whose mixers are layers of their own (Nemotron-H) has MLPs only in its
    other layers."""
    sc = eng.sc
    mixers = sc.hybrid[0] + sc.hybrid[2] if sc.hybrid else sc.layers
    shared = sc.moe_layers if sc.shared and not eng.fuses_shared else 0
    fp8 = dict(eng.mbytes.fp8_parts)
    if eng.fp4_quant_attn < 0:
        return 0.0 if not fp8 else fp8_quant_kernels(eng, mixers, shared, fp8)
    mlps = sc.layers if mixers >= sc.layers else sc.layers - mixers
    if fp8:  # the FP8 share of the mixers and shared experts quantizes to FP8, not NVFP4
        return (eng.fp4_quant_attn * mixers * (1.0 - fp8.get("mixers", 0.0)) + 2 * max(mlps - sc.moe_layers, 0)
                + 2 * shared * (1.0 - fp8.get("shared_experts", 0.0)) + fp8_quant_kernels(eng, mixers, shared, fp8))
    return float(eng.fp4_quant_attn * mixers + 2 * (max(mlps - sc.moe_layers, 0) + shared))


def fp8_quant_kernels(eng: Engine, mixers: float, shared: float, fp8: dict) -> float:
    """Activation-quantization kernels one forward launches before the W8A8 FP8 GEMMs of the parts an FP4
    checkpoint stores in FP8 (``ModelBytes.fp8_parts``), as the FP8 W8A8 layers count them (QUANT_KERNELS_DENSE:
    one before each GEMM): a mixer's input and output projections and a shared expert's gate/up and down, each
    weighed by the part's FP8 share; none in a layer-split engine (its per-layer overhead holds them)."""
    if eng.fw.split == "layer" or eng.compute != "fp4" or eng.weight_only:
        return 0.0
    return 2.0 * mixers * fp8.get("mixers", 0.0) + 2.0 * shared * fp8.get("shared_experts", 0.0)


def floor_per_step(eng: Engine) -> float:
    """Seconds of one step's kernels beyond a dense layer's, all stages: MoE routing and the grouped
    GEMMs' fixed time per MoE layer, MLA's extra projections, the activation quantization of W8A8
    paths and a DSA model's indexer (:func:`sparse_indexer_kernels`), each small kernel at the framework's floor.
    The indexer's kernels are the graph-replayed decode step's, so an eager prefill's host time
    (:func:`prefill_host`, :func:`kernels_per_forward`) leaves them out: its extend path (a k-only path up to
    top-k tokens, a per-request loop beyond) was not read."""
    kernels, grouped = _extra_kernels(eng)
    return (kernels + sparse_indexer_kernels(eng)) * eng.kernel_floor + grouped * eng.grouped_floor


def token_time(job: Any, eng: Engine, rep: Replica, decode: float, kv_ctx: float, prefill: float = 0.0,
               prefill_ctx: float = 0.0) -> float:
    """Seconds per output token of each of ``decode`` sequences in a step that also carries ``prefill``
    prompt tokens. Plain decoding: the step. With speculative decoding (``eng.spec``): the verify step,
    which runs each sequence's ``k`` drafted tokens beside its own (attending its context), plus the
    drafter's ``k`` passes, over the tokens a step yields, (1 - a^(k+1)) / (1 - a)."""
    return per_token(consts(job, eng, rep), decode, kv_ctx, prefill, prefill_ctx)


def per_token(c: StepConsts, decode: float, kv_ctx: float, prefill: float = 0.0, prefill_ctx: float = 0.0,
              longest: float = 0.0) -> float:
    """:func:`token_time` of the engine and copy of ``c`` (``longest``: :func:`_parts`)."""
    spec = c.eng.spec
    if spec is None or decode <= 0:
        return _parts(c, decode, prefill, kv_ctx, prefill_ctx, longest)[0]  # seconds_of, one call fewer
    drafted = decode * spec.k
    ctx = (drafted * kv_ctx + prefill * prefill_ctx) / (drafted + prefill)
    verify = _parts(c, decode, prefill + drafted, kv_ctx, ctx, longest)[0]
    return (verify + _draft(c, decode, kv_ctx)) / spec.tokens_per_step


def draft_time(job: Any, eng: Engine, rep: Replica, decode: float, kv_ctx: float) -> float:
    """The drafter's seconds per step: ``k`` passes, each ``draft_layers`` of the target's layers (MTP,
    EAGLE: one decoder layer at the target's width) or a draft model's share of the target's active
    parameters, priced at what the target's plain decode step costs per layer or per parameter
    (its host work excepted: the drafter runs inside the same scheduler step). N-gram lookup: nothing."""
    return _draft(consts(job, eng, rep), decode, kv_ctx)


def _draft(c: StepConsts, decode: float, kv_ctx: float) -> float:
    eng = c.eng
    spec = eng.spec
    if spec is None:
        return 0.0
    parts = _parts(c, decode, 0.0, kv_ctx, 0.0)
    device = max(parts[0] - parts[5], 0.0)  # the plain step less its host work (a host floor included)
    if spec.draft_params:
        return spec.k * spec.draft_params / max(eng.sc.n_active, 1.0) * device
    # a pass: its layers at the target's cost a layer (the step less its own head), then its head and projection
    split, d = (1 if c.dpa > 1 else c.tp), eng.drafter
    head = D.head_seconds(d.target_head_params, eng.mbytes.linear_bytes_per_param, split, c.bw_weights,
                          c.peak_dense, decode) if d is not None else 0.0
    layer = max(device - head, 0.0) / max(eng.sc.layers, 1)
    return spec.k * (spec.draft_layers * layer
                     + D.pass_extra_seconds(d, split, c.bw_weights, c.peak_dense, decode, eng.kernel_floor,
                                            c.allreduce_latency if c.tp_comm else 0.0))
