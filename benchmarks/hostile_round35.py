# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-five of the hostile corpus: session 35's merges used as a user and an overlay author would --
DeepSeek Sparse Attention's ``sparse_attention`` block in a models.yaml overlay (top_k 0, negative, far past any
context; index_heads as text; another kind; on a model without MLA; taken away), Gemma's ``layer_norm_kernels``,
SGLang's ``sparse_indexer_kernels`` and ``fused_kernel_models.gpus_excluded``, vLLM's ``compiled_norms_from`` and
``pp_decode_batch`` in serving.yaml overlays, gpus.yaml ``link.host_uplink_gpus`` (0, past the schema, past the
server), a pinned TP 8 x PP 3 on 23 and 25 GPUs and a pipeline deeper than the model, a request rate of 1e-9 and
1e12 a second, GLM-5.2 / MiniMax-M3 at a 1M-token prompt, an audit's instance spelt with look-alike and invisible
characters, and plans of an offloaded fine-tune rented only -- through estimate, recommend, audit and plan. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on hostile35's branch before its fixes (main at be8ee0b1): 35 cases, 29 clean; on this branch 35 of 35 (round 34: 35 of 35).
Fixed:

* a serving.yaml overlay's ``sparse_indexer_kernels.decode.dsa: -1`` was read as minus one kernel a layer (DeepSeek-
  V3.2-Exp's TPOT 9.0 -> 7.1 ms on 8 x H200) and ``1000000000`` priced a 122,000 s token; the kernel counts of
  ``sparse_indexer_kernels`` and ``recurrent_mixer_kernels`` are bounded now (0 to 1,000 a layer).
* a misspelt key under a mapping of sections (``vendor_overrides.nvidia.compiled_norm_from``) said 'unknown key'
  with no close match; it names ``compiled_norms_from`` now.
* ``gpus_excluded: [h20-96gb]`` said 'unknown gpu' with no close match, and named the entry by its place in the
  merged list (frameworks[1] ... releases[6]); it names ``h20-96gb-sxm`` and the overlay's own [0] and [0] now.
* a plan of a 70B fine-tune with CPU offload rented only on RTX 4090s left it unplaced because 'no cloud in the
  knowledge base rents' the 4090 (RunPod does, 8 to a server, none of them with the 1,411 GB); it says
  MEM-HOST-RAM-SHORT now.
"""
from __future__ import annotations

from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round33 import _one_line, _rejected, _serving

V32 = {"task": "inference", "model": "deepseek-v3.2-exp", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
GEMMA = {"task": "inference", "model": "gemma-3-1b", "framework": "sglang", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 1}
R1PP = {"task": "inference", "model": "deepseek-r1", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 64, "parallelism": {"tp": 8, "pp": 3}}
RATE = {"task": "inference", "model": "deepseek-r1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "p95_ttft_s": 2, "p95_tpot_s": 0.05}
LONG = {"task": "inference", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1000000, "output_tokens": 1000, "concurrent_requests": 1}
FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}
FT70, FT8 = {**FT, "model": "llama-3.1-70b"}, {**FT, "model": "llama-3.1-8b"}
AWS = {"mode": "rent", "provider": "aws", "months": 1}


def _kb(name: str, body: str) -> dict:
    return {f"kb/{name}": body}


def _v32(text: str) -> dict:
    return _kb("models.yaml", "models:\n  - id: deepseek-v3.2-exp\n    sparse_attention:\n" + text)


def _sglang(text: str) -> dict:
    return _kb("serving.yaml", "frameworks:\n  - id: sglang\n" + text)


def _a100_link(text: str, gpu: str = "a100-80gb-sxm") -> dict:
    return _kb("gpus.yaml", f"gpus:\n- id: {gpu}\n  link:\n{text}")


def _est(gpu: str, n: int, *, kb: bool = True) -> tuple[str, ...]:
    return ("estimate", "r.yaml", "--gpu", gpu, "--gpus", str(n), "--format", "json", *(("--knowledge", "kb") if kb else ()))


def _plan_ft(model_ft: dict) -> dict:
    return {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["rtx-4090"]},
            "workloads": [{"name": "ft", "workload": model_ft, "cadence": {"at_month": 1}}]}


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    v32 = _est("h200", 8)

    # ------------------------------------------------------------ a models.yaml overlay's sparse attention
    rcase("dsa35: top_k 0: refused by its field", {"workload": V32}, _refused("models.yaml", "sparse_attention.top_k"), argv=v32, files=_v32("      top_k: 0\n"))
    rcase("dsa35: top_k -5: refused by its field", {"workload": V32}, _refused("models.yaml", "sparse_attention.top_k"), argv=v32, files=_v32("      top_k: -5\n"))
    rcase("dsa35: top_k 1e12 (past every context): attends the whole context, answered", {"workload": V32},
          _doc(lambda d: d["gpu"]["fits"] and 0 < _serving(d)["tpot_s"] < 1), argv=v32, files=_v32("      top_k: 1000000000000\n"))
    rcase("dsa35: index_heads 'many': refused by its field", {"workload": V32}, _refused("models.yaml", "sparse_attention.index_heads"), argv=v32, files=_v32("      index_heads: many\n"))
    rcase("dsa35: kind 'nsa': refused, dsa offered", {"workload": V32}, _refused("models.yaml", "sparse_attention.kind", "dsa"), argv=v32, files=_v32("      kind: nsa\n"))
    rcase("dsa35: 'topk' misspelt: top_k offered", {"workload": V32}, _refused("models.yaml", "did you mean 'top_k'?"), argv=v32, files=_v32("      topk: 10\n"))
    rcase("dsa35: a DSA block on Llama 3.1 8B (no MLA): refused", {"workload": {**V32, "model": "llama-3.1-8b", "precision": "bf16"}}, _refused("models.yaml", "sparse_attention"), argv=v32,
          files=_kb("models.yaml", "models:\n  - id: llama-3.1-8b\n    sparse_attention: {kind: dsa, index_heads: 64, index_head_dim: 128, top_k: 2048, index_key_bytes: 132, source: ours}\n"))
    rcase("dsa35: sparse_attention null (the indexer taken away): dense MLA, answered", {"workload": V32}, _finite_json, argv=v32,
          files=_kb("models.yaml", "models:\n  - id: deepseek-v3.2-exp\n    sparse_attention: null\n"))
    rcase("norm35: layer_norm_kernels 0: refused", {"workload": GEMMA}, _refused("models.yaml", "layer_norm_kernels"), argv=_est("h100", 1),
          files=_kb("models.yaml", "models:\n  - id: gemma-3-1b\n    layer_norm_kernels: 0\n"))
    rcase("norm35: layer_norm_kernels 10,000: refused", {"workload": GEMMA}, _refused("models.yaml", "layer_norm_kernels"), argv=_est("h100", 1),
          files=_kb("models.yaml", "models:\n  - id: gemma-3-1b\n    layer_norm_kernels: 10000\n"))

    # ------------------------------------------------------------ a serving.yaml overlay's new knobs
    rcase("sik35: sparse_indexer_kernels dsa -1: refused", {"workload": V32}, _refused("serving.yaml", "sparse_indexer_kernels.decode.dsa"), argv=v32,
          files=_sglang("    sparse_indexer_kernels:\n      decode: {dsa: -1}\n"))
    rcase("sik35: sparse_indexer_kernels dsa 1e9: refused", {"workload": V32}, _refused("serving.yaml", "sparse_indexer_kernels.decode.dsa"), argv=v32,
          files=_sglang("    sparse_indexer_kernels:\n      decode: {dsa: 1000000000}\n"))
    rcase("sik35: sparse_indexer_kernels kind 'nsa': dsa offered", {"workload": V32}, _refused("serving.yaml", "dsa"), argv=v32,
          files=_sglang("    sparse_indexer_kernels:\n      decode: {nsa: 3}\n"))
    rcase("sik35: recurrent_mixer_kernels mamba2 -3: refused", {"workload": V32}, _refused("serving.yaml", "recurrent_mixer_kernels.decode.mamba2"), argv=v32,
          files=_kb("serving.yaml", "frameworks:\n  - id: vllm\n    recurrent_mixer_kernels:\n      decode: {mamba2: -3}\n      as_of: '2026-04'\n      source: ours\n"))
    rcase("norm35: compiled_norms_from 'v0.8': refused by its field", {"workload": GEMMA}, _refused("serving.yaml", "compiled_norms_from"), argv=_est("h100", 1),
          files=_kb("serving.yaml", "frameworks:\n  - id: vllm\n    vendor_overrides:\n      nvidia:\n        compiled_norms_from: 'v0.8'\n"))
    rcase("norm35: 'compiled_norm_from' misspelt: compiled_norms_from offered", {"workload": GEMMA}, _refused("serving.yaml", "did you mean 'compiled_norms_from'?"), argv=_est("h100", 1),
          files=_kb("serving.yaml", "frameworks:\n  - id: vllm\n    vendor_overrides:\n      nvidia:\n        compiled_norm_from: '0.8.0'\n"))
    rcase("ppd35: pp_decode_batch first 'latest': refused by its field", {"workload": R1PP}, _refused("serving.yaml", "pp_decode_batch.first"), argv=_est("h100", 24),
          files=_kb("serving.yaml", "frameworks:\n  - id: vllm\n    pp_decode_batch:\n      first: latest\n"))
    rcase("excl35: gpus_excluded [h20-96gb]: h20-96gb-sxm offered", {"workload": V32}, _refused("serving.yaml", "gpus_excluded", "h20-96gb-sxm"), argv=v32,
          files=_sglang("    fused_kernel_models:\n      releases:\n        - {since: '0.5.15', models: [deepseek-r1], gpus_excluded: [h20-96gb]}\n"))
    rcase("excl35: gpus_excluded a string, not a list: refused by its field", {"workload": V32}, _refused("serving.yaml", "gpus_excluded"), argv=v32,
          files=_sglang("    fused_kernel_models:\n      releases:\n        - {since: '0.5.15', models: [deepseek-r1], gpus_excluded: h200}\n"))

    # ------------------------------------------------------------ gpus.yaml link.host_uplink_gpus
    ft_a100 = _est("a100-80gb-sxm", 8)
    rcase("uplink35: host_uplink_gpus 0: refused", {"workload": FT8}, _refused("gpus.yaml", "link.host_uplink_gpus"), argv=ft_a100, files=_a100_link("    host_uplink_gpus: 0\n"))
    rcase("uplink35: host_uplink_gpus 9: refused", {"workload": FT8}, _refused("gpus.yaml", "link.host_uplink_gpus"), argv=ft_a100, files=_a100_link("    host_uplink_gpus: 9\n"))
    rcase("uplink35: 'host_uplink_gpu' misspelt: the close match", {"workload": FT8}, _refused("gpus.yaml", "did you mean 'host_uplink_gpus'?"), argv=ft_a100, files=_a100_link("    host_uplink_gpu: 2\n"))
    rcase("uplink35: all 8 behind one uplink: answered, finite", {"workload": FT8}, _finite_json, argv=ft_a100, files=_a100_link("    host_uplink_gpus: 8\n"))
    rcase("uplink35: 8 behind one uplink on the one-GPU GB10: capped at the server, answered", {"workload": FT8},
          _doc(lambda d: d["gpu"]["fits"] and d["gpu"]["wall_hours"] > 0), argv=_est("gb10", 1), files=_a100_link("    host_uplink_gpus: 8\n", "gb10"))

    # ------------------------------------------------------------ pinned layouts and rates
    rcase("pin35: TP 8 x PP 3 on 23 H100: the pin not kept, said", {"workload": R1PP},
          _doc(lambda d: d["gpu"]["fits_as_requested"] is False and (_serving(d)["layout"]["tp"], _serving(d)["layout"]["pp"]) != (8, 3)), argv=_est("h100", 23, kb=False))
    rcase("pin35: TP 8 x PP 3 on 25 H100: the pin kept, one GPU idle", {"workload": R1PP},
          _doc(lambda d: (_serving(d)["layout"]["tp"], _serving(d)["layout"]["pp"], _serving(d)["layout"]["gpus_per_copy"]) == (8, 3, 24) and d["gpu"]["idle_gpus"] == 1), argv=_est("h100", 25, kb=False))
    rcase("pin35: PP 64 on Llama 3.1 8B (32 layers): not as requested, answered", {"workload": {**GEMMA, "model": "llama-3.1-8b", "framework": "vllm", "concurrent_requests": 16, "parallelism": {"pp": 64}}},
          _doc(lambda d: d["gpu"]["fits_as_requested"] is False and _serving(d)["layout"]["pp"] <= 32), argv=_est("h100", 64, kb=False))
    rcase("rate35: 1e-9 requests/s: met, finite", {"workload": {**RATE, "requests_per_s": 1e-9}},
          _doc(lambda d: _serving(d)["rate"]["meets_requests_per_s"] is True), argv=_est("h200", 8, kb=False))
    rcase("rate35: 1e12 requests/s: refused by its field", {"workload": {**RATE, "requests_per_s": 1e12}}, _refused("r.yaml", "workload.requests_per_s"))

    # ------------------------------------------------------------ the day's catalog at a 1M-token prompt
    rcase("long35: GLM-5.2 at 1M tokens on 8 H200: the latent cache on every TP rank, no fit", {"workload": {**LONG, "model": "glm-5.2"}},
          _doc(lambda d: d["gpu"]["fits"] is False and "MEM-NO-FIT" in _rejected(d)), argv=_est("h200", 8, kb=False))
    rcase("long35: MiniMax-M3 at 1M tokens (window 524,288): the window said", {"workload": {**LONG, "model": "minimax-m3"}},
          _doc(lambda d: "SRV-CONTEXT-BEYOND-MODEL" in _rules(d)), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ an audit's instance spelt with look-alikes
    for label, inst in (("a Cyrillic р", "\u0440" + "4d.24xlarge"), ("a right-to-left override", "p4d\u202e.24xlarge")):
        acase(f"inst35: {label} in p4d.24xlarge: the close match, escaped", {"title": "t", "workload": FT70, "hardware": {"gpu": "a100-40gb-sxm", "count": 8}, "acquisition": {**AWS, "instance": inst}},
              lambda r: _refused("p.yaml", "acquisition.instance", "did you mean p4d.24xlarge?")(r) and "\u202e" not in r.stderr)

    # ------------------------------------------------------------ plans of an offloaded fine-tune, rented only
    pcase("plan35: 70B offload rented only on 4090s: unplaced for the host RAM, not 'no cloud rents'", _plan_ft(FT70),
          lambda r: _one_line(r) and _doc(lambda d: not d["options"] and "MEM-HOST-RAM-SHORT" in d["workloads"][0]["why_not"]["rtx-4090"])(r))
    pcase("plan35: 8B offload rented only on 4090s: a server that holds 161 GB (4 x 62)", _plan_ft(FT8),
          _doc(lambda d: [(o["gpu"], o["count"]) for o in d["options"]] == [("rtx-4090", 4)]))
