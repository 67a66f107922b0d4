"""How close the estimators are to measured and published numbers.

    python benchmarks/accuracy.py [--validation DIR] [--all]

Reads the validation set (default: tests/data/validation, a copy of the project's
shared/validation) and prints, per case, the estimate, the measured or published figure
and the error, then a summary against the acceptance targets:

* memory: per-GPU tensor memory (estimate minus its stated runtime overhead) vs what
  PyTorch allocated — target within 10% on average, 25% at worst;
* training GPU-hours vs published pretraining runs — target median error within 25%;
* single-stream decode speed vs published measurements — target median error within 30%.

`--all` prints every case, not only the summary and the worst ones.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import knowledge  # noqa: E402
from engine.estimators.compute import decode_speed, peak_for, training_flops, training_time  # noqa: E402
from engine.estimators.memory import (  # noqa: E402
    TrainSetup,
    inference_memory,
    kv_cache_bytes,
    training_memory,
    weight_bytes,
)
from engine.inputs.schema import Workload  # noqa: E402
from engine.inputs.shape import from_catalog, from_workload, guess_shape  # noqa: E402

GPU_OF_RUN = {"A100-80GB": "a100-80gb-sxm", "A100-40GB": "a100-40gb-sxm", "H100-80GB": "h100-80gb-sxm"}
GPU_OF_BENCH = {"RTX 3090 24GB": "rtx-3090", "RTX 4090 24GB": "rtx-4090", "RTX A6000 48GB": "rtx-a6000",
                "RTX 6000 Ada 48GB": "rtx-6000-ada", "A100 80GB (RunPod; PCIe/SXM not stated)": "a100-80gb-pcie",
                "H100 PCIe 80GB": "h100-80gb-pcie", "RTX 3090 Ti 24GB": "rtx-3090"}
MODEL_OF_BENCH = {"Llama 2 7B": "llama-2-7b", "LLaMA 7B": "llama-2-7b", "Llama2-7B": "llama-2-7b",
                  "LLaMA 7B (codellama-7b)": "llama-2-7b", "Llama2-13B": "llama-2-13b",
                  "LLaMA 13B (v1)": "llama-2-13b", "Llama 3 8B": "llama-3-8b", "Llama 3 70B": "llama-3-70b"}


def _rows(directory: Path, name: str) -> list[dict]:
    with open(directory / name, newline="") as fh:
        return list(csv.DictReader(fh))


def memory_cases(kb, directory: Path) -> list[tuple[str, float, float]]:
    out = []
    for row in _rows(directory, "memory_pytorch.csv"):
        w = Workload(**json.loads(row["workload_json"]))
        m = kb.models[kb.model(w.model).id] if w.model else None
        shape = from_workload(w, m)
        if w.task == "inference":
            est = inference_memory(shape, w.precision, w.context_len, w.concurrent_requests, w.attention, 1,
                                   quant=kb.runtime.quantization, overhead=(0, 0))
        else:
            s = TrainSetup(w.method, w.precision, w.mixed_precision, w.optimizer, w.batch_size, w.seq_len,
                           w.gradient_checkpointing is True, w.attention, int(w.zero_stage), w.offload, 1,
                           w.lora_rank, w.lora_targets)
            est = training_memory(shape, s, quant=kb.runtime.quantization, overhead=(0, 0))
        label = f"{row['id']} {row['model']} {row['mode']} {row['optimizer']} b{row['batch']} s{row['seq']} " \
                f"ckpt={row['grad_ckpt']} {row['attention']}"
        out.append((label, est.tensor_bytes, float(row["measured_peak_bytes"])))
    return out


def training_cases(kb, directory: Path) -> list[tuple[str, float, float]]:
    out = []
    for row in _rows(directory, "training_compute.csv"):
        if row["row_type"] != "full_pretraining_run" or row["accelerator"] not in GPU_OF_RUN:
            continue
        gpu = kb.gpus[GPU_OF_RUN[row["accelerator"]]]
        shape = guess_shape(float(row["params_total_B"]) * 1e9)
        flops = training_flops(shape, float(row["training_tokens_B"]) * 1e9, 2048, "full", False)
        hours, _ = training_time(flops.value, 1, peak_for(gpu, "bf16").tflops,
                                 kb.runtime.mfu[gpu.architecture].value, 1.0)
        out.append((f"{row['id']} {row['model']} on {gpu.id}", hours.value, float(row["accelerator_hours"])))
    return out


def decode_cases(kb, directory: Path) -> list[tuple[str, float, float]]:
    rt = kb.runtime
    out = []
    for row in _rows(directory, "inference_speed.csv"):
        gpu_id, model_id = GPU_OF_BENCH.get(row["hardware"]), MODEL_OF_BENCH.get(row["model"])
        if not gpu_id or not model_id or not row["decode_tok_s"]:
            continue
        shape = from_catalog(kb.models[model_id])
        precision = "bf16" if row["quantization"].startswith("F16") else "int4"
        w = weight_bytes(shape, precision, rt.quantization).value
        ctx = int(row["prompt_tokens"] or 0) + int(row["gen_tokens"] or 128)
        one, _ = decode_speed(shape, kb.gpus[gpu_id], weight_bytes=w,
                              kv_bytes_per_seq=kv_cache_bytes(shape, ctx / 2).value, batch=1, tp=1,
                              precision=precision, bw_eff=rt.decode_bandwidth_efficiency.value,
                              layer_overhead_us=rt.decode_layer_overhead_us.value, util=rt.prefill_mfu.value)
        out.append((f"{row['id']} {row['model']} {row['quantization']} on {gpu_id} ({row['backend']})", one.value,
                    float(row["decode_tok_s"])))
    return out


def report(title: str, unit: str, cases: list[tuple[str, float, float]], show_all: bool) -> dict:
    errors = [est / meas - 1 for _, est, meas in cases]
    ab = [abs(e) for e in errors]
    print(f"\n== {title} ({len(cases)} cases)")
    order = sorted(range(len(cases)), key=lambda i: -ab[i])
    for i in order if show_all else order[:5]:
        label, est, meas = cases[i]
        print(f"  {label[:70]:70} est {est:>14,.1f} {unit}  measured {meas:>14,.1f}  error {errors[i]:+6.1%}")
    summary = {"cases": len(cases), "mean_abs_error": statistics.mean(ab), "median_abs_error": statistics.median(ab),
               "max_abs_error": max(ab)}
    print(f"  mean |error| {summary['mean_abs_error']:.1%}   median {summary['median_abs_error']:.1%}   "
          f"worst {summary['max_abs_error']:.1%}")
    return summary


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--validation", type=Path, default=ROOT / "tests" / "data" / "validation")
    ap.add_argument("--all", action="store_true", help="print every case")
    args = ap.parse_args()
    kb = knowledge.load()
    mem = report("Memory vs PyTorch allocations", "B", memory_cases(kb, args.validation), args.all)
    train = report("Training GPU-hours vs published runs", "h", training_cases(kb, args.validation), args.all)
    dec = report("Decode tokens/s vs published measurements", "t/s", decode_cases(kb, args.validation), args.all)
    print("\nTargets: memory mean <= 10%, worst <= 25%; GPU-hours median <= 25%; decode median <= 30%")
    ok = (mem["mean_abs_error"] <= 0.10 and mem["max_abs_error"] <= 0.25 and train["median_abs_error"] <= 0.25
          and dec["median_abs_error"] <= 0.30)
    print("all targets met" if ok else "a target is missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
