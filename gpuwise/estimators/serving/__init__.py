"""Serving: how many sequences fit, how fast a batch steps, and what a service delivers at a load.

The model (the roofline analyses of "How to Scale Your Model", inference chapter, and LLM-Viewer,
applied per operator and per GPU):

* **Capacity.** Each GPU keeps ``1 - memory_headroom_fraction`` of its memory; weights (its share),
  the CUDA context, the allocator allowance and one prefill chunk's working set come off the top;
  the rest is paged KV cache. A sequence occupies whole blocks for its prompt + output (frameworks
  that reserve at admission) or, on average, prompt + half the output (frameworks that admit on
  current length and preempt). Tensor parallelism divides a sequence's KV by ``min(tp, kv_heads)``
  (MLA's compressed cache has one "head": every rank holds it all); attention data parallelism gives
  each rank its own sequences. Sliding-window layers keep at most the window.
* **A step** of continuous batching decodes one token for each of ``b`` sequences and carries
  ``b x prompt/output`` prompt tokens (chunked prefill), so prefill and decode share the GPUs:

      step = pp x [ weight bytes / (BW x f) + GEMM FLOPs / (peak x e)            (linear layers)
                  + max(KV bytes / (BW x f), attention FLOPs / (peak x e))       (attention)
                  + all-reduces + all-to-alls + layers/pp x layer overhead ] + step overhead

  per GPU, with ``f``, ``e`` and the overheads from the framework (``knowledge/serving.yaml``). A
  linear layer's weight streaming and its tensor-core work add (few token rows per weight tile: the
  math waits for each load), so near the roofline's ridge a step costs up to twice the larger roof. MoE
  layers read only the experts the step's tokens route to: ``E x (1 - (1 - k/E)^tokens)`` of them,
  as an operator of their own whose GEMMs run on whole row tiles (an expert given a few tokens
  costs a tile), and no faster than the framework's fused-MoE kernel reaches on prompt-sized batches
  (``moe_gemm_fraction`` of the 16-bit peak, from its kernel benchmarks: Triton on Hopper and Ada).
  Under expert parallelism each MoE layer waits for its busiest GPU: the expected maximum over the
  ``ep`` GPUs of the experts read and rows multiplied under uniform routing (``step.ep_imbalance``,
  no EPLB: off by default in SGLang and vLLM); under attention data parallelism attention waits
  for the rank with the most sequences. Host work per running sequence adds to every step.
  Pipelined engines keep ``pp`` micro-batches in flight; layer-split engines (llama.cpp, ExLlama,
  transformers' device_map) run one GPU at a time, so more GPUs add memory, not speed.
* **At a load** of ``c`` concurrent requests spread over the replicas: TPOT = step time,
  throughput = sequences / TPOT, TTFT = the prompt's chunks x the step they ride in (at least its
  kernels' launch time where such steps run outside CUDA graphs), plus the wait for the step budget
  (max_num_batched_tokens: M/D/1 behind the prompts queued, half a step in flight; a closed loop's
  request, sent as another ends, waits the whole step it meets: ``load.sent_on_completion``, and the step
  scheduled behind it where the release schedules a step ahead: ``load.scheduled_step``), any hold
  the scheduler puts on new prompts, and, beyond the memory's limit, the wait for a free slot (Little's
  law in a closed loop).

Modules, by concern: ``support`` (can a framework run it), ``engine`` (its constants; the model's
shape figures), ``weights`` (the model's bytes, which ``engine`` re-exports), ``layout`` (copies and
their memory), ``step`` (one batch step), ``load`` (a copy at a load), ``front`` (the HTTP front end's
bound on it), ``choice`` (the layout for a GPU count), ``report`` (terms, memory, the typed result),
``result`` (that record and its JSON).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import Any

_NAMES: dict[str, tuple[str, ...]] = {
    "choice": ("Serving", "_score", "choose", "curve", "evaluate_layout", "least_bytes", "load_concurrency",
               "surely_unfit"),
    "engine": ("FP4_FORMATS", "Engine", "ModelBytes", "ShapeConsts", "attention_width", "capacity_bytes", "coverage",
               "engine", "format_of", "kv_element_bytes", "kv_heads_effective", "kv_per_token", "memory_kind",
               "model_bytes", "moe_layers", "prefill_attention_width", "prefill_tokens", "quant_formats", "release",
               "shape_consts", "window_tokens"),
    "burst": ("burst_tpot",),
    "front": ("Front", "burst_seconds", "front"),
    "layout": ("Layout", "Replica", "layouts", "pinned_gpus", "pins_not_kept", "replica"),
    "load": ("Point", "_point", "budget_wait", "burst_decode_step", "burst_last_ttft", "burst_ttft", "capacity_point",
             "closed_loop_throughput", "held", "peak_point", "point", "prefill_seconds", "scheduled_ahead",
             "scheduled_step", "sent_on_completion", "system_point"),
    "report": ("memory", "memory_of", "result", "terms"),
    "result": ("ServingResult", "serving_json"),
    "step": ("ACT_BYTES", "Step", "floor_per_step", "kernels_per_forward", "prefill_host", "step"),
    "support": ("Support", "has_units", "peak_tflops", "request_lengths", "support"),
    "published": ("notes_of", "on_gpu"),
}
"""The names this package offers (``SV.choose``, ``SV.Layout``...), by the module that defines them."""

_HOME = {name: module for module, names in _NAMES.items() for name in names}


class _Package(types.ModuleType):
    """This package, its names loaded with their module on first use: a training question never
    needs the serving model, and importing it all was ~15 ms of every process's start-up."""

    def __getattr__(self, name: str) -> Any:
        home = _HOME.get(name)
        if home is None:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{self.__name__}.{home}"), name)
        self.__dict__[name] = value
        return value

    def __setattr__(self, name: str, value: Any) -> None:
        """Importing a submodule makes it an attribute of its package; four of them (``engine``,
        ``step``, ``support``, ``result``) share a name with a function offered here, and the
        function is what that name means (as when this package imported everything at once)."""
        if isinstance(value, types.ModuleType) and name in _HOME:
            return
        super().__setattr__(name, value)

    def __dir__(self) -> list[str]:
        return sorted({*self.__dict__, *_HOME})


sys.modules[__name__].__class__ = _Package
