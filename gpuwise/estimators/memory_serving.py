"""Memory per GPU of serving a model: the KV cache a sequence keeps (sliding windows and MLA's latent
counted), the peak of a serving copy at the end of prefill or of decode (:func:`inference_memory`), and the
states-only lower bound for models whose activations gpuwise does not model (:func:`weights_only_memory`).
The training side, and the weights' bytes both use, are in memory.py."""

from __future__ import annotations

import math

from ..inputs.shape import Shape
from ..messages import formula
from . import Term
from .memory import BYTES, MemoryEstimate, _g, _over, _overhead_term, _then, routed_expert_params, weight_bytes

EAGER_PREFILL_PER_SCORE = 9.0  # inference: scores, masked scores, fp32 softmax and its bf16 copy
PREFILL_PER_TOKEN = (8.0, 6.0)  # inference working set of one layer: 8 B x hidden + 6 B x ffn


def window_tokens(shape: Shape, tokens: float) -> float:
    """Tokens of a sequence whose K/V stay cached, averaged over layers: sliding-window layers
    (``window_layers_fraction`` of them, all when unset) keep at most ``attention_window``."""
    own = getattr(shape, "kv_cached_tokens", None)
    if callable(own):
        return float(own(tokens))
    win = getattr(shape, "attention_window", None)
    if not win:
        return tokens
    frac = getattr(shape, "window_layers_fraction", None)
    frac = 1.0 if frac is None else frac
    return (1 - frac) * tokens + frac * min(tokens, win)


def kv_heads_effective(shape: Shape) -> int:
    """How many ways tensor parallelism can divide a sequence's KV: by KV heads, and not at all for
    MLA's compressed latent (one 'head' shared by all query heads)."""
    return 1 if shape.kv_elements_override else shape.kv_heads


def kv_tp_split(shape: Shape, tp: int, tokens: float) -> float:
    """How many ways tensor parallelism divides a sequence of ``tokens`` tokens' KV cache: min(tp, KV heads) (MLA:
    not at all). Where the global layers have fewer KV heads than the sliding ones (``global_attn``, Gemma 4) and
    ``tp`` exceeds them, each kind of layer divides by min(tp, its own KV heads): the split is the sequence's cache
    over the sum of each kind's share of it over its own divisor (the global layers' heads are replicated)."""
    heads = min(tp, kv_heads_effective(shape))
    g = getattr(shape, "global_attn", None)
    if not g or tp <= g[1]:
        return heads
    f, w = shape.window_layers_fraction, shape.attention_window or tokens
    local = f * shape.kv_heads * shape.head_dim * min(tokens, w)
    glob = (1 - f) * g[1] * g[0] * tokens
    return (local + glob) / (local / heads + glob / g[1])


def _kv_over(split: float, shape: Shape) -> tuple:
    """The KV cache's " / n GPUs", or where the global layers' fewer KV heads make the split uneven (kv_tp_split)
    the effective divisor and why."""
    if float(split).is_integer():
        return _over(int(split))
    return formula("formula.over_kv_kinds", " / ", n=split, kv=shape.kv_heads, global_kv=shape.global_attn[1])


def kv_cache_bytes(shape: Shape, tokens: float, bytes_per: float = 2.0, *, per_sequence: float | None = None
                   ) -> Term:
    """2 x layers x kv_heads x head_dim x tokens x bytes (MLA: its compressed width, once).

    With ``per_sequence`` (the length of each sequence) sliding-window layers cap each sequence at
    their window."""
    layers = getattr(shape, "attn_layers", shape.layers)  # a hybrid's attention blocks keep the only KV cache
    windowed = bool(per_sequence and getattr(shape, "attention_window", None))
    kept = tokens * window_tokens(shape, per_sequence) / per_sequence if windowed and per_sequence else tokens
    sparse = getattr(shape, "sparse_attn", None)
    index_layers = getattr(shape, "indexer_layers", layers)  # the layers that keep an indexer (IndexShare)
    if shape.kv_elements_override and sparse:  # DSA: the indexer's FP8 key and its scales beside each MLA entry
        per_token = layers * shape.kv_elements_override * bytes_per + index_layers * sparse[3]
        said = formula("formula.kv_cache_dsa" if index_layers == layers else "formula.kv_cache_dsa_shared")
    elif shape.kv_elements_override:
        per_token = layers * shape.kv_elements_override * bytes_per
        said = formula("formula.kv_cache_mla")  # no MLA model of the catalog has local-attention layers
    elif getattr(shape, "global_attn", None):  # global layers of their own KV width (Gemma 4): the layers' mean
        per_token = layers * shape.kv_elements_layer * bytes_per
        said = formula("formula.kv_cache_global")
    else:
        per_token = 2 * layers * shape.kv_heads * shape.head_dim * bytes_per
        said = formula("formula.kv_cache_window" if windowed else "formula.kv_cache")  # the tokens kept, multiplied
    mla = {"kv_elements": shape.kv_elements_override, **({"index_key_bytes": sparse[3]} if sparse else {}),
           **({"indexer_layers": index_layers} if sparse and index_layers != layers else {})} \
        if shape.kv_elements_override else (
        {"kv_elements_mean": shape.kv_elements_layer} if getattr(shape, "global_attn", None) else {})
    return Term("kv_cache", per_token * kept, "B", said,
                {"layers": layers, "kv_heads": shape.kv_heads, "head_dim": shape.head_dim, **mla,
                 "bytes": bytes_per, "tokens": tokens, "tokens_kept": kept, "bytes_per_token": per_token})


def state_split(tp: int, pp: int, dp_attention: int = 1) -> int:
    """How many GPUs share one sequence's recurrent state: tensor parallelism splits its heads (vLLM divides the
    Mamba-2 and gated DeltaNet heads by the tensor-parallel size), pipeline stages its layers; an attention
    data-parallel rank holds its own sequences whole."""
    return pp * (1 if dp_attention > 1 else tp)


def state_term(shape: Shape, sequences: float, split: int) -> Term | None:
    """The recurrent state ``sequences`` running sequences hold per GPU (``Shape.state_bytes_per_sequence`` each,
    whatever their length), or None for a model whose layers all keep a KV cache."""
    per_seq = getattr(shape, "state_bytes_per_sequence", 0.0)
    if not per_seq:
        return None
    layers, state, conv, sb, cb = shape.recurrent
    said = formula("formula.recurrent_state", "; ", layers=layers, state=state, state_bytes=_g(sb), conv=conv,
                   conv_bytes=_g(cb), sequences=_g(sequences)) + (_over(split) if split > 1 else ())
    return Term("recurrent_state", per_seq * sequences / split, "B", said,
                {"recurrent_state_bytes_per_sequence": per_seq, "sequences": sequences})


def inference_memory(shape: Shape, precision: str, context_len: int, concurrent: int, attention: str,
                     tp: int, *, quant: dict, overhead: tuple[float, float], fmt: str | None = None,
                     prompt_tokens: int | None = None, prefill_tokens: float | None = None, pp: int = 1,
                     ep: int = 1, dp_attention: int = 1, kv_bytes: float | None = None,
                     kv_len: float | None = None, pool_tokens: float | None = None,
                     chunked: bool = False) -> MemoryEstimate:
    """Peak bytes per GPU of serving ``concurrent`` sequences of ``context_len`` tokens.

    Two moments compete: the end of prefill (weights + the prompts' KV + the working set of the
    tokens prefilled in one step: all prompts for a static ``generate()`` batch, one chunk for
    engines with chunked prefill, ``prefill_tokens``) and the end of decode (weights + the full
    contexts' KV). Layouts: ``tp`` tensor parallel divides weights, working set and KV (KV only by
    ``min(tp, kv_heads)``; MLA's latent is held whole by every rank); ``pp`` pipeline stages divide
    layers; attention data parallel (``dp_attention`` ranks) replicates non-expert weights, spreads
    the routed experts over ``ep`` GPUs and gives each rank its own sequences. ``fmt`` is the weight
    format (default: ``precision``); ``kv_bytes`` the cached element size (default 2, fp32 4);
    ``kv_len`` the tokens a sequence holds at the decode peak (default ``context_len``; engines that
    admit on current length hold prompt + half the output on average). ``pool_tokens`` is a KV pool the job
    states (``workload.kv_cache_tokens``): the engine allocates it whole at start, at both peaks, and a hybrid's
    recurrent state lives inside it. The allocator allowance applies to the working set: weights and a paged KV
    pool are allocated once. ``chunked``: an engine with continuous batching runs a step budget of prefill tokens
    beside the decodes at every step, so the decode end holds the chunk's working set too (vLLM sizes its KV pool
    after a profiling forward of max_num_batched_tokens, reserving that peak for the engine's life).
    """
    fmt = fmt or precision
    w = weight_bytes(shape, fmt, quant)
    prompt = prompt_tokens if prompt_tokens is not None else context_len
    kv_b = kv_bytes if kv_bytes is not None else (4.0 if precision == "fp32" else 2.0)
    seqs = math.ceil(concurrent / dp_attention) if dp_attention > 1 else concurrent
    held = float(kv_len if kv_len is not None else context_len)
    split_kv = pp * (1 if dp_attention > 1 else kv_tp_split(shape, tp, held))
    split_prompt = pp * (1 if dp_attention > 1 else kv_tp_split(shape, tp, float(prompt)))
    kv = kv_cache_bytes(shape, held * seqs, kv_b, per_sequence=held)
    kv_prompt_term = kv_cache_bytes(shape, float(prompt) * seqs, kv_b, per_sequence=prompt)
    kv_prompt = kv_prompt_term.value / split_prompt
    ranks = tp * dp_attention
    T = prefill_tokens if prefill_tokens is not None else float(prompt) * concurrent
    ph, pf = PREFILL_PER_TOKEN
    act_b = 2.0 if precision == "fp32" else 1.0
    work = (ph * shape.hidden + pf * shape.ffn * shape.experts_per_token) * T * act_b
    if attention == "eager":
        work += EAGER_PREFILL_PER_SCORE * concurrent * shape.heads * prompt * prompt
    work += 4.0 * shape.vocab * concurrent  # the last position's logits in fp32
    moe = shape.experts_per_token > 1  # each token's FFN working set is its routed experts'
    act = Term("activations", work / ranks, "B",
               formula("formula.prefill_working_set_moe" if moe else "formula.prefill_working_set",
                       "(" if ranks > 1 else "")  # the whole sum is divided: bracketed, its printed numbers give it
               + (formula("formula.prefill_eager", " + ") if attention == "eager" else ())
               + formula("formula.last_logits", " + ")
               + (formula("formula.over_gpus", ") / ", n=ranks) if ranks > 1 else ()),
               {"tokens": T, "hidden": shape.hidden, "ffn": shape.ffn,
                **({"experts_per_token": shape.experts_per_token} if moe else {}),
                "vocab": shape.vocab, "sequences": concurrent,
                **({"heads": shape.heads, "prompt_tokens": prompt} if attention == "eager" else {})})
    if dp_attention > 1:  # every GPU the non-expert weights, the routed experts over ep, at the format's mean bytes
        routed = routed_expert_params(shape)
        mean = w.value / max(shape.params, 1.0)
        experts = routed * mean
        w = Term(w.name, (w.value - experts) / pp + experts / (ep * pp), w.unit,
                 formula("formula.experts_parallel", "(" if pp > 1 else "", ep=ep)
                 + (formula("formula.over_stages", ") ", pp=pp) if pp > 1 else ())
                 + (formula("formula.mean_bytes", "; ", weights=w.formula_phrases)
                    if mean != w.inputs.get("bytes_per_param") else ()),
                 {**w.inputs, "expert_bytes": experts, "non_expert_params": shape.params - routed,
                  "routed_expert_params": routed, "mean_bytes_per_param": mean, "params": shape.params})
    elif tp * pp > 1:
        whole = w.formula_phrases  # a sum of parts is divided whole: bracketed, its printed numbers give it
        if len(whole) > 1:
            whole = (("(" + whole[0][0], *whole[0][1:]), *whole[1:])
        over = (_over(tp * pp, "formula.over_gpus_tp") if pp == 1
                else _over(tp * pp, "formula.over_gpus_tp_pp", tp=tp, pp=pp))
        if len(whole) > 1:
            over = ((") / ", *over[0][1:]),)
        w = Term(w.name, w.value / (tp * pp), w.unit, whole + over, w.inputs)
    if split_kv > 1:
        kv = Term(kv.name, kv.value / split_kv, kv.unit, _then(kv, _kv_over(split_kv, shape)), kv.inputs)
    decode_work = act.value if chunked else 4.0 * shape.vocab * concurrent / ranks
    state = state_term(shape, seqs, state_split(tp, pp, dp_attention))
    held_state = state.value if state else 0.0  # every running sequence's, at either peak
    phases = {"prefill": w.value + kv_prompt + act.value + held_state,
              "decode": w.value + kv.value + decode_work + held_state}
    if pool_tokens:  # the stated pool, allocated whole whatever the requests hold; the state lives inside it
        stated = kv_cache_bytes(shape, float(pool_tokens), kv_b)
        kv = Term(kv.name, stated.value / split_kv, kv.unit,
                  _then(stated, _kv_over(split_kv, shape) if split_kv > 1 else (),
                        formula("formula.kv_pool_stated", " ")),
                  stated.inputs)
        phases = {"prefill": w.value + kv.value + act.value, "decode": w.value + kv.value + decode_work}
    peak = "prefill" if phases["prefill"] >= phases["decode"] else "decode"
    if peak == "decode" and chunked:  # the same chunk's working set, beside the decode end's KV cache
        act = Term(act.name, act.value, act.unit, act.formula_phrases, act.inputs,
                   note_phrases=(("", "note.chunk_every_step", {}),))
    elif peak == "decode":
        act = Term("activations", decode_work, "B", formula("formula.decode_working_set")
                   + (_over(ranks) if ranks > 1 else ()), {"vocab": shape.vocab, "sequences": concurrent},
                   note_phrases=(("", "note.prefill_less_kv", {"n": work / ranks}),))
    elif not pool_tokens:
        # the prompts' tokens, not the decode end's, so the printed inputs give the value
        kv = Term(kv.name, kv_prompt, kv.unit,
                  _then(kv_prompt_term, _kv_over(split_prompt, shape) if split_prompt > 1 else (),
                        formula("formula.kv_prompts", " ")),
                  kv_prompt_term.inputs, note_phrases=(("", "note.decode_end", {"n": kv.value}),))
    if state and not pool_tokens:  # beside the attention layers' KV cache, in the same pool (vLLM's hybrid
        # allocator, SGLang's mamba pool)
        kv = Term(kv.name, kv.value + state.value, kv.unit, _then(kv, state.formula_phrases),
                  {**kv.inputs, **state.inputs, "recurrent_state_bytes": state.value}, note_phrases=kv.note_phrases)
    over = _overhead_term(act.value, overhead, "formula.overhead_serving")
    zero = Term("gradients", 0.0, "B", formula("formula.gradients_inference"))
    kv_layout = {4.0: "memory_layout.inference_kv32", 1.0: "memory_layout.inference_kv8"}.get(
        kv_b, "memory_layout.inference_kv16")
    return MemoryEstimate(w, zero, Term("optimizer", 0.0, "B", formula("formula.optimizer_inference")),
                          act, kv, over, formula(kv_layout, format=fmt),
                          peak, phases, 0.0, "none", 0.0, ())


def weights_only_memory(params: float, precision: str, training: bool, *, overhead: tuple[float, float],
                        method: str = "full") -> MemoryEstimate:
    """For models whose activations gpuwise does not model (diffusion): states only, a lower bound.
    Full training keeps fp32 weights, gradients and Adam moments (16 B/param); LoRA a frozen
    16-bit base and QLoRA a 4-bit one (their small adapters are not counted)."""
    b = BYTES.get(precision, 2) if precision in ("fp32", "fp16", "bf16") else 2
    full = training and method == "full"
    frozen_b = {"lora": 2.0, "qlora": 4.127 / 8}.get(method, 4.0) if training else b
    none = formula("formula.none")
    w = Term("weights", params * frozen_b, "B", formula("formula.params_bytes", bytes=_g(frozen_b)),
             {"params": params})
    g = Term("gradients", params * 4 if full else 0.0, "B", formula("formula.params_bytes", bytes=4) if full else none)
    o = Term("optimizer", params * 8 if full else 0.0, "B", formula("formula.params_adam") if full else none)
    a = Term("activations", 0.0, "B", formula("formula.activations_not_modelled"))
    tensors = w.value + g.value + o.value
    over = _overhead_term(tensors, overhead, "formula.overhead_states")
    return MemoryEstimate(w, g, o, a, Term("kv_cache", 0.0, "B", none), over, formula("memory_layout.states_only"),
                          "n/a", {}, 0.0, "none", params if full else 0.0,
                          (("", "note.diffusion_activations", {}),))
