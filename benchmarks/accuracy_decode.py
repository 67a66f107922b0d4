"""The single-stream decode cases of benchmarks/accuracy.py: the validation set's llama.cpp / MLC / ExLlama
speeds (inference_speed.csv) and the rows with the software named (decode_published.csv,
validation/decode_independent.csv), one sequence's tokens/s through the serving model."""

from __future__ import annotations

import csv
import re
import sys
import typing
from pathlib import Path

from benchmarks.accuracy_rows import ROOT, _rows
from benchmarks.accuracy_serving import offline_metric, serving_job
from gpuwise.errors import UserError
from gpuwise.inputs.schema import Workload

GPU_OF_BENCH = {"RTX 3090 24GB": "rtx-3090", "RTX 4090 24GB": "rtx-4090", "RTX A6000 48GB": "rtx-a6000",
                "RTX 6000 Ada 48GB": "rtx-6000-ada", "A100 80GB (RunPod; PCIe/SXM not stated)": "a100-80gb-pcie",
                "H100 PCIe 80GB": "h100-80gb-pcie", "RTX 3090 Ti 24GB": "rtx-3090"}
MODEL_OF_BENCH = {"Llama 2 7B": "llama-2-7b", "LLaMA 7B": "llama-2-7b", "Llama2-7B": "llama-2-7b",
                  "LLaMA 7B (codellama-7b)": "llama-2-7b", "Llama2-13B": "llama-2-13b",
                  "LLaMA 13B (v1)": "llama-2-13b", "Llama 3 8B": "llama-3-8b", "Llama 3 70B": "llama-3-70b"}
FRAMEWORK_OF_BACKEND = {"llama.cpp": "llama.cpp", "MLC": "mlc", "ExLlama": "exllama"}
FORMAT_OF_QUANT = {"Q4_0": "gguf-q4_0", "Q4_K_M": "gguf-q4_k_m", "F16": "fp16", "int4 (MLC q4f16_1)": "mlc-q4f16_1",
                   "GPTQ 4-bit": "int4"}
SINGLE = ROOT / "tests" / "data" / "decode_published.csv"
DECODE_INDEPENDENT = ROOT / "tests" / "data" / "validation" / "decode_independent.csv"


def single_stream(kb, job, gpu: str, count: int, weight_format: str | None = None, end_to_end: bool = False) -> float:
    """One sequence's decode speed (tokens/s) through the serving model: the step of a batch of one
    at the mean context prompt + output/2; ``end_to_end`` counts the prefill too (output / latency)."""
    from gpuwise.estimators import serving as SV

    s = SV.choose(job, kb.gpus[gpu], count, weight_format=weight_format)
    one = SV.point(job, s.engine, s.replica, 1.0)
    if end_to_end:
        out = job.w.output_tokens
        return out / (one.ttft + out * one.decode_step)
    return 1 / one.decode_step


BUILD_OF_LLAMACPP = {"late-2023 llama.cpp (main)": "1700", "ggml-backend branch, 2024-01-10": "1786",
                     "master, Jan 2024 ('t/s master' column)": "1786", "build 32d9f7d9 (1786)": "1786",
                     "May 2024 llama.cpp; CUDA 12.1.1 on RunPod / macOS": "2700", "master, 2023-08-30": "1100"}
"""inference_speed.csv ``build_or_version`` of a llama.cpp row -> its build number (serving.yaml llama.cpp
``releases``): the build the row states, else one current at the row's date, before the CUDA-graph build 2800 for
every row of 2023 to May 2024 (tests/data/validation/README.md, 'llama.cpp's per-layer cost by build')."""


def decode_cases(kb, directory: Path) -> list[tuple[str, float, float]]:
    """The validation set's single-stream decode speeds (llama.cpp, MLC, ExLlama) through the serving model."""
    out = []
    for row in _rows(directory, "inference_speed.csv"):
        gpu_id, model_id = GPU_OF_BENCH.get(row["hardware"]), MODEL_OF_BENCH.get(row["model"])
        if not gpu_id or not model_id or not row["decode_tok_s"]:
            continue
        fw = next((f for k, f in FRAMEWORK_OF_BACKEND.items() if row["backend"].startswith(k)), "llama.cpp")
        fmt = FORMAT_OF_QUANT.get(row["quantization"].split(" (")[0] if fw == "llama.cpp" else row["quantization"])
        precision = "fp16" if row["quantization"].startswith("F16") else "int4"
        build = BUILD_OF_LLAMACPP[row["build_or_version"]] if fw == "llama.cpp" else None
        job = serving_job(kb, model_id, precision, fw, int(row["prompt_tokens"] or 0), int(row["gen_tokens"] or 128),
                          framework_version=build)
        est = single_stream(kb, job, gpu_id, 1, fmt)
        out.append((f"{row['id']} {row['model']} {row['quantization']} on {gpu_id} ({row['backend']})", est,
                    float(row["decode_tok_s"])))
    return out


LAYER_SPLIT = re.compile(r"\blayer split over (\d+) GPUs\b")
"""A row's metric that says its run split one copy's layers over N GPUs (llama-bench's default ``-sm layer`` over every
visible card): the job is pinned to that one copy (tp 1, pp N), not left to gpuwise's choice of copies. Read from the
metric's own words, as decode_independent.csv has no pipeline column (its CRLF rows are appended, never rewritten)."""


def stated_split(row: dict) -> int | None:
    """The GPUs the row's metric says one copy's layers were split over (:data:`LAYER_SPLIT`), or None."""
    m = LAYER_SPLIT.search(row.get("metric") or "")
    return int(m.group(1)) if m and not row.get("tp") and int(m.group(1)) > 1 else None


def single_stream_cases(kb, path: Path = SINGLE) -> list[tuple[str, float, float]]:
    """tests/data/decode_published.csv: single-stream speeds with the software named (not in the
    validation set): llama.cpp on one and several GPUs, ExLlamaV2, transformers, vLLM, TensorRT-LLM."""
    out = []
    modelled = set(typing.get_args(Workload.model_fields["framework"].annotation))
    with open(path, newline="") as fh:
        for row in csv.DictReader(fh):
            if row["framework"] not in modelled:  # an engine gpuwise does not model (Ollama's own, for Gemma 3)
                print(f"  {row['id']} not estimated: {row['framework']} is not an engine gpuwise models",
                      file=sys.stderr)
                continue
            split = stated_split(row)
            try:
                job = serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                                  int(row["output_tokens"]), tp=1 if split else int(row.get("tp") or 0) or None,
                                  pp=split, ep=int(row.get("ep") or 0) or None,
                                  kv_precision=row.get("kv_precision") or None,
                                  framework_version=row.get("framework_version") or None,
                                  options=row.get("workload_options") or "",
                                  speculative=row.get("speculative") or "", offline=offline_metric(row["metric"]))
            except UserError as e:  # a layout gpuwise refuses to price (tensor parallel across nodes): no figure
                print(f"  {row['id']} not estimated: {e.line()}", file=sys.stderr)
                continue
            est = single_stream(kb, job, row["gpu"], int(row["count"]), row["weight_format"] or None,
                                end_to_end="benchmark_latency" in row["metric"])
            out.append((f"{row['id']} {row['model']} {row['weight_format']} {row['count']}x{row['gpu']} "
                        f"({row['framework']})", est, float(row["decode_tok_s"])))
    return out
