"""Section 5 of ``benchmarks/bench.py``: gpuwise's figures beside its peers' (llm-analysis, DeepSpeed's model-state
estimators) on the same four cases, each peer run in the first interpreter that has it, with measured figures from
``../shared/validation/`` where they exist. Moved out of bench.py (it held 933 lines); run it as ``python
benchmarks/bench.py --only peers``.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
from pathlib import Path

from benchmarks.bench_helpers import VALIDATION, _engine, gb, heading, ms, table, timed

# -------------------------------------------------------------------------------- 5. peers
LLM_ANALYSIS_SNIPPET = r'''
import contextlib, dataclasses, json, statistics, sys, time
spec = json.loads(sys.argv[1])
t0 = time.perf_counter()
try:
    with contextlib.redirect_stdout(sys.stderr):
        from importlib.metadata import version
        from llm_analysis import analysis as la
        from llm_analysis import config as lac
except Exception as exc:
    print("BENCH-JSON " + json.dumps({"missing": f"{type(exc).__name__}: {exc}"}))
    raise SystemExit(0)
out = {"import_s": time.perf_counter() - t0, "version": version("llm-analysis"), "cases": {}}
for case in spec["cases"]:
    fn = la.train if case["kind"] == "train" else la.infer
    kw = dict(case["kwargs"], log_level="ERROR")
    res = {"fits_on_gpu": True, "refusal": "", "gpu": kw["gpu_name"]}
    try:
        with contextlib.redirect_stdout(sys.stderr):
            try:
                fn(**kw)
            except AssertionError as exc:  # it refuses a case that does not fit; read its figure anyway
                res.update(fits_on_gpu=False, refusal=str(exc)[:160])
                name = kw["gpu_name"] + "-unbounded"
                lac.gpu_configs[name] = dataclasses.replace(lac.gpu_configs[kw["gpu_name"]], name=name,
                                                            mem_per_GPU_in_GB=1e6)
                kw["gpu_name"] = name
            times = []
            for _ in range(spec["reps"]):
                t = time.perf_counter()
                summary = fn(**kw)
                times.append(time.perf_counter() - t)
        res["s_per_call"] = statistics.median(times)
        res["result"] = {k: summary.get(k) for k in case["keys"]}
    except Exception as exc:
        res["error"] = f"{type(exc).__name__}: {exc}"
    out["cases"][case["id"]] = res
print("BENCH-JSON " + json.dumps(out))
'''

DEEPSPEED_SNIPPET = r'''
import contextlib, json, sys, time
spec = json.loads(sys.argv[1])
t0 = time.perf_counter()
try:
    with contextlib.redirect_stdout(sys.stderr):
        import deepspeed
        from deepspeed.runtime.zero.stage_1_and_2 import estimate_zero2_model_states_mem_needs as z2
        from deepspeed.runtime.zero.stage3 import estimate_zero3_model_states_mem_needs as z3
except Exception as exc:
    print("BENCH-JSON " + json.dumps({"missing": f"{type(exc).__name__}: {exc}"}))
    raise SystemExit(0)
out = {"import_s": time.perf_counter() - t0, "version": deepspeed.__version__, "cases": {}}
for case in spec["cases"]:
    fn = z2 if case["stage"] == 2 else z3
    try:
        r = fn(**case["kwargs"])
        n = 2000
        t = time.perf_counter()
        for _ in range(n):
            fn(**case["kwargs"])
        out["cases"][case["id"]] = {"cpu_bytes": r[0], "gpu_bytes": r[1], "s_per_call": (time.perf_counter() - t) / n,
                                    "function": fn.__name__, "kwargs": case["kwargs"]}
    except Exception as exc:
        out["cases"][case["id"]] = {"error": f"{type(exc).__name__}: {exc}"}
print("BENCH-JSON " + json.dumps(out))
'''

MARKER = "BENCH-JSON "
PEERS_NOTE = """\
What each models:
  gpuwise: the peak over training phases (forward, backward, optimizer step) of weights, gradients,
    optimizer states (with the foreach AdamW temporary) and activations, plus an allowance for the
    CUDA context and allocator; decode speed from memory bandwidth x a runtime efficiency, compute,
    and a per-layer overhead. Its times include validating the requirements dict.
  llm-analysis: the sum of weights, fp32 gradients, Adam states with fp32 master weights and
    activations (no phases, temporaries or CUDA context), from its shipped Llama-2 configs (2-matrix
    MLP of 4 x hidden, tied embeddings: fewer parameters); decode as a roofline at its default 100%
    of peak HBM bandwidth. It refuses a case that does not fit its GPU; the figure is then read from
    the same GPU with unbounded memory.
  DeepSpeed's estimators: model states only (2 + 18 B/param; ZeRO-3 adds 4 B x the largest layer);
    no activations, no temporaries, no inference.
"""


def run_peer(snippet: str, spec: dict, pythons: list[str]) -> dict:
    """Run a peer's snippet in the first interpreter that has the peer; {'missing': why} if none."""
    tried = []
    for py in pythons:
        if not Path(py).exists():
            tried.append(f"{py}: no such interpreter")
            continue
        proc = subprocess.run([py, "-c", snippet, json.dumps(spec)], capture_output=True, text=True, timeout=300,
                              stdin=subprocess.DEVNULL)
        found = [ln[len(MARKER):] for ln in proc.stdout.splitlines() if ln.startswith(MARKER)]
        if not found:
            tail = " | ".join(proc.stderr.strip().splitlines()[-2:])
            tried.append(f"{py}: exited {proc.returncode} {tail}")
            continue
        doc = json.loads(found[-1])
        if "missing" in doc:
            tried.append(f"{py}: {doc['missing']}")
            continue
        return {"python": py, **doc}
    return {"missing": tried}


def _validation_row(name: str, key: str, value: str) -> dict | None:
    path = VALIDATION / name
    if not path.exists():
        return None
    with path.open(newline="", encoding="utf-8") as f:
        return next((row for row in csv.DictReader(f) if row.get(key) == value), None)


def _train_workload(model: str, zero: int) -> dict:
    return {"task": "finetune", "method": "full", "model": model, "precision": "bf16", "mixed_precision": True,
            "optimizer": "adamw", "batch_size": 1, "seq_len": 2048, "attention": "sdpa",
            "gradient_checkpointing": False, "zero_stage": zero, "offload": "none"}


def bench_peers(args: argparse.Namespace) -> tuple[dict, str]:
    engine = _engine()
    from gpuwise.knowledge import load

    kb = load()
    m7, m70 = kb.models["llama-2-7b"], kb.models["llama-2-70b"]
    p7, p70 = m7.params_b * 1e9, m70.params_b * 1e9
    largest70 = m70.vocab_size * m70.hidden_size  # embedding (= lm_head): the largest single layer
    reps = 20

    # ---- gpuwise
    gw: dict[str, dict] = {}
    w7 = _train_workload("llama-2-7b", 0)
    res, t = timed(lambda: engine.estimate({"workload": w7}), reps)
    bd = res.memory.breakdown
    states = bd["weights"] + bd["gradients"] + bd["optimizer"]
    on_a100 = engine.estimate({"workload": w7}, gpu="A100-80G", gpus=1).gpu
    gw["7b_ft"] = {"total_bytes": res.memory.per_gpu_bytes, "no_overhead_bytes": res.memory.per_gpu_bytes
                   - bd["overhead"], "states_bytes": states, "peak_phase": res.memory.peak_phase,
                   "s_per_call": statistics.median(t), "a100_strategy": on_a100.strategy, "layout": res.memory.layout}
    w70 = _train_workload("llama-2-70b", 3)
    for n in (8, 64):
        res, t = timed(lambda n=n: engine.estimate({"workload": w70}, gpus=n), reps)
        bd = res.memory.breakdown
        on_a100 = engine.estimate({"workload": w70}, gpu="A100-80G", gpus=n).gpu
        gw[f"70b_z3_{n}"] = {"states_bytes": bd["weights"] + bd["gradients"] + bd["optimizer"],
                             "total_bytes": res.memory.per_gpu_bytes, "activations_bytes": bd["activations"],
                             "s_per_call": statistics.median(t), "a100_strategy": on_a100.strategy,
                             "layout": res.memory.layout}
    wi = {"task": "inference", "model": "llama-2-7b", "precision": "bf16", "context_len": 640,
          "concurrent_requests": 1}
    res, t = timed(lambda: engine.estimate({"workload": wi}, gpu="A100-80G", gpus=1), reps)
    gw["7b_decode"] = {"decode_tokens_per_s": res.gpu.decode_tokens_per_s, "gpu": res.gpu.name,
                       "s_per_call": statistics.median(t), "total_bytes": res.memory.per_gpu_bytes}

    # ---- peers
    pythons = list(dict.fromkeys([sys.executable, *args.peer_python]))
    mem_keys = ["num_params_total", "weight_memory_per_gpu", "gradient_memory_per_gpu",
                "optimizer_state_memory_per_gpu", "(weight+op_state+grad)_memory_per_gpu", "activation_memory_per_gpu",
                "(weight+op_state+grad+act)_memory_per_gpu"]
    train = {"dtype_name": "w16a16e16", "batch_size_per_gpu": 1, "gradient_accumulation_steps": 1, "seq_len": 2048,
             "flash_attn": True, "activation_recomputation": 0}
    la_spec = {"reps": 5, "cases": [
        {"id": "7b_ft", "kind": "train", "keys": mem_keys,
         "kwargs": {**train, "model_name": "NousResearch_Llama-2-7b-hf", "gpu_name": "a100-sxm-80gb",
                    "total_num_gpus": 1, "ds_zero": 0}},
        *({"id": f"70b_z3_{n}", "kind": "train", "keys": mem_keys,
           "kwargs": {**train, "model_name": "upstage_Llama-2-70b-instruct-v2", "gpu_name": "a100-sxm-80gb",
                      "total_num_gpus": n, "ds_zero": 3}} for n in (8, 64)),
        {"id": "7b_decode", "kind": "infer",
         "keys": ["decode_tokens_per_sec", "prefill_tokens_per_sec", "weight_memory_per_gpu",
                  "kv_cache_memory_per_gpu", "hbm_memory_efficiency"],
         "kwargs": {"model_name": "NousResearch_Llama-2-7b-hf", "gpu_name": "a100-sxm-80gb",
                    "dtype_name": "w16a16e16", "batch_size_per_gpu": 1, "seq_len": 512,
                    "num_tokens_to_generate": 128}},
    ]}
    ds_spec = {"cases": [
        {"id": "7b_ft", "stage": 2, "kwargs": {"total_params": int(p7), "num_gpus_per_node": 1, "num_nodes": 1,
                                               "cpu_offload": False, "additional_buffer_factor": 1.5}},
        *({"id": f"70b_z3_{n}", "stage": 3,
           "kwargs": {"total_params": int(p70), "largest_layer_params": largest70, "num_gpus_per_node": 8,
                      "num_nodes": n // 8, "cpu_offload": False, "cpu_offload_params": False, "zero_init": True,
                      "additional_buffer_factor": 1.5}} for n in (8, 64)),
    ]}
    la = run_peer(LLM_ANALYSIS_SNIPPET, la_spec, pythons)
    ds = run_peer(DEEPSPEED_SNIPPET, ds_spec, pythons)

    # ---- measured
    p054 = _validation_row("memory_pytorch.csv", "id", "P054")
    i16 = _validation_row("inference_speed.csv", "id", "I16")
    measured = {
        "7b_ft": {"bytes": float(p054["measured_peak_bytes"]), "phase": p054["peak_phase"]} if p054 else None,
        "7b_decode": {"tokens_per_s": float(i16["decode_tok_s"]), "backend": i16["backend"],
                      "quantization": i16["quantization"], "hardware": i16["hardware"]} if i16 else None,
    }

    text = [heading("5. Peers on the same cases (per GPU; ms/call = one call in a warm process, median)"),
            PEERS_NOTE.rstrip()]
    for name, peer, hint in (("llm-analysis", la, "pip install llm-analysis"),
                             ("DeepSpeed", ds, "pip install deepspeed torch")):
        if "missing" in peer:
            text.append(f"{name}: not installed ({hint})" + (f"; tried: {'; '.join(peer['missing'])}"
                                                            if len(pythons) > 1 else ""))
        else:
            text.append(f"{name} {peer['version']}: run in {peer['python']} (import {peer['import_s']:.2f} s)")

    def peer_case(peer: dict, cid: str) -> dict | None:
        return peer.get("cases", {}).get(cid)

    def la_row(cid: str, first: str, second: str) -> list | None:
        c = peer_case(la, cid)
        if not c:
            return None
        if "error" in c:
            return ["llm-analysis", "error", "-", "-", c["error"][:70]]
        r = c["result"]
        note = f"{r['num_params_total'] / 1e9:.2f}B params" + ("" if c["fits_on_gpu"] else f"; refuses on {c['gpu']}")
        return ["llm-analysis", gb(r[first]), gb(r[second]), ms(c["s_per_call"], 2), note]

    # A. Llama-2-7B full fine-tune on one GPU
    g = gw["7b_ft"]
    rows: list[list] = []
    if measured["7b_ft"]:
        rows.append(["measured: PyTorch, P054", gb(measured["7b_ft"]["bytes"]), "-", "-",
                     f"tensors at the peak ({measured['7b_ft']['phase']} = 1st optimizer step)"])
    rows.append(["gpuwise", gb(g["total_bytes"]), gb(g["states_bytes"]), ms(g["s_per_call"], 2),
                 f"peak at '{g['peak_phase']}'; {gb(g['no_overhead_bytes'])} without the allowance"])
    rows.append(la_row("7b_ft", "(weight+op_state+grad+act)_memory_per_gpu", "(weight+op_state+grad)_memory_per_gpu"))
    d = peer_case(ds, "7b_ft")
    if d:
        rows.append(["DeepSpeed ZeRO-2 est.", gb(d["gpu_bytes"]), gb(d["gpu_bytes"]), ms(d["s_per_call"], 4),
                     "model states only"] if "error" not in d else ["DeepSpeed", "error", "-", "-", d["error"][:70]])
    text += ["", "A. Llama-2-7B full fine-tune, bf16 autocast + AdamW, batch 1, seq 2048, 1 GPU: peak memory per GPU",
             table(["source", "total GB", "states GB", "ms/call", "notes"], [r for r in rows if r], "lrrrl"),
             f"   gpuwise layout: {g['layout']}", f"   on one A100-80G gpuwise switches to: {g['a100_strategy']}"]

    # B/C. Llama-2-70B ZeRO-3
    for n in (8, 64):
        cid = f"70b_z3_{n}"
        g = gw[cid]
        rows = [["gpuwise", gb(g["states_bytes"]), gb(g["total_bytes"]), ms(g["s_per_call"], 2),
                 f"{g['layout']}; activations {gb(g['activations_bytes'])}"],
                la_row(cid, "(weight+op_state+grad)_memory_per_gpu", "(weight+op_state+grad+act)_memory_per_gpu")]
        d = peer_case(ds, cid)
        if d:
            rows.append(["DeepSpeed ZeRO-3 est.", gb(d["gpu_bytes"]), "-", ms(d["s_per_call"], 4),
                         f"model states only; largest layer {largest70 / 1e6:.0f}M params"]
                        if "error" not in d else ["DeepSpeed", "error", "-", "-", d["error"][:70]])
        text += ["", f"{'B' if n == 8 else 'C'}. Llama-2-70B full fine-tune, ZeRO-3 over {n} GPUs "
                 f"({n // 8} node{'s' if n > 8 else ''} of 8), batch 1, seq 2048: per GPU (nothing measured)",
                 table(["source", "states GB", "total GB", "ms/call", "notes"], [r for r in rows if r], "lrrrl"),
                 f"   on {n} x A100-80G gpuwise switches to: {g['a100_strategy']}"]

    # D. decode speed
    rows = []
    if measured["7b_decode"]:
        mm = measured["7b_decode"]
        rows.append(["measured: I16", f"{mm['tokens_per_s']:.1f}", "-",
                     f"{mm['backend']} {mm['quantization']}, {mm['hardware']}"])
    g = gw["7b_decode"]
    rows.append(["gpuwise", f"{g['decode_tokens_per_s']:.1f}", ms(g["s_per_call"], 2), g["gpu"]])
    c = peer_case(la, "7b_decode")
    if c:
        rows.append(["llm-analysis", f"{c['result']['decode_tokens_per_sec']:.1f}", ms(c["s_per_call"], 2),
                     f"{c['gpu']}, {100 * c['result']['hbm_memory_efficiency']:.0f}% of peak HBM bandwidth"]
                    if "error" not in c else ["llm-analysis", "error", "-", c["error"][:70]])
    if "missing" not in ds:
        rows.append(["DeepSpeed", "-", "-", "not modelled (training model states only)"])
    text += ["", "D. Llama-2-7B bf16 decode, batch 1, prompt 512 + 128 generated, one A100 80GB: tokens/s per sequence",
             table(["source", "tokens/s", "ms/call", "notes"], rows, "lrrl")]
    data = {"gpuwise": gw, "llm_analysis": la, "deepspeed": ds, "measured": measured,
            "params": {"llama-2-7b": p7, "llama-2-70b": p70, "llama-2-70b_largest_layer": largest70}}
    return data, "\n".join(text)
