"""How close the estimators are to measured and published numbers.

    python benchmarks/accuracy.py [--validation DIR] [--all]

Reads the validation set (default: tests/data/validation, a copy of the project's
shared/validation) and prints, per case, the estimate, the measured or published figure
and the error, then a summary against the acceptance targets:

* memory: per-GPU tensor memory (estimate minus its stated runtime overhead) vs what
  PyTorch allocated — target within 10% on average, 25% at worst;
* training GPU-hours vs published pretraining runs, measured through the path users get
  (``estimate(requirements, gpu=G, gpus=N)`` with the published GPU count N; runs without a
  published count let gpuwise pick the count for the run's deadline): the validation set's runs
  and tests/data/training_runs.csv (>1,000-GPU, MoE and FP8 runs), each under the conditions it
  published (tests/data/training_conditions.csv: stack, layout, recomputation, offload, whether its hours
  are steady-state), with the figures without them beside — target median error within 15% and no run
  off by more than 2x either way; and tests/data/training_heldout.csv, 2024-26 runs that set no figure;
* single-stream decode speed vs published measurements — target median error within 20%, on the
  validation set and on tests/data/decode_published.csv (software named: llama.cpp on one and
  several GPUs, ExLlamaV2, transformers, vLLM, TensorRT-LLM);
* serving throughput of the whole system at maximum load (or a stated concurrency) vs
  tests/data/serving_published.csv (TensorRT-LLM and NIM tables, vLLM on MI300X) — target median
  error within 20%; TPOT/TTFT where published are reported;
* serving at a stated request rate (tests/data/validation/serving_rate.csv: Poisson arrivals, no concurrency
  cap) through the request-rate answer: the output served, mean and p95 TTFT/TPOT (reported, no target).

`--all` prints every case, not only the summary and the worst ones (the independent serving rows are
always printed whole).
"""

from __future__ import annotations

import argparse
import csv
import re
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# the cases, by what they measure: training, serving (and its run timing), single-stream decode; every name is
# re-exported (__all__), since tests and the other benchmarks read them as accuracy.<name>
from benchmarks.accuracy_decode import (  # noqa: E402
    BUILD_OF_LLAMACPP,
    DECODE_INDEPENDENT,
    FORMAT_OF_QUANT,
    FRAMEWORK_OF_BACKEND,
    GPU_OF_BENCH,
    MODEL_OF_BENCH,
    SINGLE,
    decode_cases,
    single_stream,
    single_stream_cases,
)
from benchmarks.accuracy_rows import _rows, _scored_rows  # noqa: E402
from benchmarks.accuracy_serving import (  # noqa: E402
    INDEPENDENT,
    LOOP_SHARES,
    OFFLINE_METRICS,
    RATE,
    SERVING,
    batch_throughput,
    burst_run_ttft,
    burst_waves,
    dataset_burst,
    dataset_loop,
    dataset_paced,
    finite_paced,
    finite_run_share,
    offline_metric,
    rate_cases,
    run_lengths,
    run_ttft,
    serving_cases,
    serving_job,
    wave_sizes,
    wave_throughput,
    wave_tpot,
)
from benchmarks.accuracy_training import (  # noqa: E402
    CONDITIONS,
    FINETUNE,
    GPU_OF_RUN,
    HELDOUT_RUNS,
    OFFLOAD,
    RUN_DEADLINE_DAYS,
    RUN_MAX_GPUS,
    RUNS,
    THROUGHPUT,
    _catalog_model,
    _step_tokens_per_gpu,
    conditions_only,
    finetune_cases,
    heldout_outside_criterion,
    hours_as_published,
    memory_cases,
    offload_cases,
    offload_workload,
    published_run_cases,
    run_conditions,
    run_estimate,
    run_workload,
    throughput_cases,
    throughput_workload,
    training_cases,
    with_conditions,
)
from gpuwise import knowledge  # noqa: E402

__all__ = [  # the case builders and data paths above, the report printer, the round tables, main
    "BUILD_OF_LLAMACPP", "CONDITIONS", "DECODE_INDEPENDENT", "FINETUNE", "FORMAT_OF_QUANT", "FRAMEWORK_OF_BACKEND",
    "GPU_OF_BENCH", "GPU_OF_RUN", "HELDOUT_RUNS", "INDEPENDENT", "LOOP_SHARES", "MODEL_OF_BENCH", "OFFLINE_METRICS",
    "OFFLOAD", "RATE", "RATE_ROUNDS", "RUNS", "RUN_DEADLINE_DAYS", "RUN_MAX_GPUS", "SERVING", "SERVING_ROUNDS",
    "SINGLE", "THROUGHPUT", "_catalog_model", "_rows", "_scored_rows", "_step_tokens_per_gpu", "batch_throughput",
    "burst_run_ttft", "burst_waves", "conditions_only", "dataset_burst", "dataset_loop", "dataset_paced",
    "decode_cases", "finetune_cases", "finite_paced", "finite_run_share", "heldout_outside_criterion",
    "hours_as_published", "main", "memory_cases", "offline_metric", "offload_cases", "offload_workload",
    "published_run_cases", "rate_cases", "report", "run_conditions", "run_estimate", "run_lengths", "run_ttft",
    "run_workload", "serving_cases", "serving_job", "single_stream", "single_stream_cases", "throughput_cases",
    "throughput_workload", "training_cases", "wave_sizes", "wave_throughput", "wave_tpot", "with_conditions",
]


def report(title: str, unit: str, cases: list[tuple[str, float, float]], show_all: bool) -> dict:
    errors = [est / meas - 1 for _, est, meas in cases]
    ab = [abs(e) for e in errors]
    print(f"\n== {title} ({len(cases)} cases)")
    order = sorted(range(len(cases)), key=lambda i: -ab[i])
    for i in order if show_all else order[:5]:
        label, est, meas = cases[i]
        print(f"  {label[:70]:70} est {est:>14,.1f} {unit}  measured {meas:>14,.1f}  error {errors[i]:+6.1%}")
    ratios = [max(est / meas, meas / est) for _, est, meas in cases]
    summary = {"cases": len(cases), "mean_abs_error": statistics.mean(ab), "median_abs_error": statistics.median(ab),
               "max_abs_error": max(ab), "max_ratio": max(ratios)}
    print(f"  mean |error| {summary['mean_abs_error']:.1%}   median {summary['median_abs_error']:.1%}   "
          f"worst {summary['max_abs_error']:.1%}   worst ratio {summary['max_ratio']:.2f}x")
    return summary



#: The blind rounds of independent serving rows, each reported on its own (none of them set a constant): the
#: id prefix, the throughput line's label, the latency line's label (None: not reported) and where the rows
#: came from; each round's blind figures are in the validation README.
SERVING_ROUNDS: tuple[tuple[str, str, str | None], ...] = (
    # the rows gathered at stop 30 (ids W..: InferenceX 2026 sweeps of SGLang 0.5.12 and TensorRT-LLM 1.3 on
    # H200/B200/B300, vLLM's Qwen3 FP8 rows on MI300X)
    ("W", "  of which the rows added at stop 30 (ids W..): throughput",
     "  of which the rows added at stop 30 (ids W..): latency"),
    # the rows gathered at stop 32 (ids X..: SGLang's cookbook speed benchmarks of DeepSeek-R1-0528 and
    # Qwen3-235B-A22B on 8 x B200, Llama 4 Scout/Maverick on 8 x MI300X, gpt-oss-120b and Kimi K2 on 8 x B200,
    # DeepSeek-V3 on 8 x MI300X; gpt-oss-20b on one H100; vLLM's GLM-4.6 on 8 x MI300X): scored blind when added,
    # those blind figures are in the validation README; what prints here is after stop 32's change, so not blind
    ("X", "  of which the rows added at stop 32 (ids X..; not blind: blind figures in the validation README): "
     "throughput",
     "  of which the rows added at stop 32 (ids X..; not blind): latency"),
    # the rows gathered at stop 33 (ids Y..: TensorRT-LLM's performance overview, late-2025 edition with MoE tables:
    # DeepSeek-R1, gpt-oss, Llama 4 Maverick, Qwen3 MoE and Llama 3.3 70B at maximum load on B200/H200/H100, most of
    # them attention data parallel + expert parallel): scored blind when added, blind figures in the validation README
    ("Y", "  of which the rows added at stop 33 (ids Y..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at stop 34 (ids Z..: GPUStack's performance lab, vllm bench serve runs of DeepSeek-R1,
    # DeepSeek-V3.2, Qwen3-235B, GLM-4.6/4.5-Air, gpt-oss and Qwen3-8B/14B on H200/H100/A100 with vLLM 0.10-0.13 and
    # SGLang 0.5.3: bursts of 100-500 prompts sent at once and ShareGPT at concurrency 1-8): blind figures in the README
    ("Z", "  of which the rows added at stop 34 (ids Z..; blind figures in the validation README): throughput",
     "  of which the rows added at stop 34 (ids Z..): latency"),
    # the rows gathered at session 10 (ids U..: Argonne's LLM-Inference-Bench vLLM batches on H100 and MI300X,
    # inference-bench on L4/A100, vLLM on an RTX 4090 and an A40): blind figures in the validation README
    ("U", "  of which the rows added at session 10 (ids U..; blind figures in the validation README): throughput",
     "  of which the rows added at session 10 (ids U..): latency"),
    # the rows gathered at session 11 (ids T..: TensorRT-LLM's DeepSeek-R1 best-practice page, trtllm-bench at
    # concurrency 1,024-7,168 on 8 x B200 / 8 x H200; its H200 launch blogs' static batches of Llama-2 13B/70B FP8)
    ("T", "  of which the rows added at session 11 (ids T..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 13 (ids Q..: vLLM's FP8 KV-cache blog of Apr 2026, Llama-3.1-8B and gpt-oss-20b on
    # one H100 at concurrency 8 with 20k-token prompts; vLLM pull request #25135, Llama 3.1 405B MXFP4 on one MI355X;
    # vllm-project/recipes pull request #431, Qwen3-8B on one MI300X; GLM-4.5-Air FP8 on B200 with vLLM and SGLang from
    # their MoE-config pull requests #23695 / #9770): blind figures in the validation README
    ("Q", "  of which the rows added at session 13 (ids Q..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 14 (ids N..: vLLM/SGLang pull requests' benchmark runs of Qwen3-30B-A3B on H100/H200,
    # DeepSeek-V3/R1 on 8 x H20 and 24 x L20, DeepSeek-V3.1 on 8 x H200): blind figures in the validation README
    ("N", "  of which the rows added at session 14 (ids N..; blind figures in the validation README): throughput",
     None),
    # the rows gathered at session 15 (ids R..: vLLM issue #17788 Qwen3-32B on one H100 NVL, pull request #48757
    # Qwen3-32B FP8 on 8 x H100, #44437 DeepSeek-R1 MXFP4 on 8 x MI350X; TensorRT-LLM issues #4043 Llama 3.1 405B
    # FP8 on 8 x B200 / 8 x H200 and #5929 DeepSeek-R1 FP8 on 8 x H200): blind figures in the validation README
    ("R", "  of which the rows added at session 15 (ids R..; blind figures in the validation README): throughput",
     "  of which the rows added at session 15 (ids R..): latency"),
    # the rows gathered at session 16 (ids S..: dstackai/benchmarks' DeepSeek-R1 FP8 sweep of Mar 2025, vLLM, SGLang
    # and TensorRT-LLM on 8 x H200 and 8 x MI300X, random 3200/800 at concurrency 4-128): blind figures in the
    # validation README
    ("S", "  of which the rows added at session 16 (ids S..; blind figures in the validation README): throughput",
     "  of which the rows added at session 16 (ids S..): latency"),
    # the rows gathered at session 17 (ids P..: vLLM's recipes pages, Kimi K2 Thinking INT4 / Kimi K2 FP8 /
    # DeepSeek-V3.2 on H200 and H20, DeepSeek-R1 on 8 x MI300X, Llama 3.3 70B on one MI355X; vLLM issue #49723,
    # Mistral Small 24B BF16/NVFP4 on one B200): blind figures in the validation README
    ("P", "  of which the rows added at session 17 (ids P..; blind figures in the validation README): throughput",
     "  of which the rows added at session 17 (ids P..): latency"),
    # the rows gathered at session 18 (ids A..: InferenceX baseline tables of DeepSeek-R1-0528 FP8 with SGLang 0.5.12
    # on 8 / 4 x B300 (pull request #3175) and SGLang 0.5.19's ROCm build on 8 x MI325X (#3318); vLLM pull request
    # #43232, Qwen3-235B FP8 on 4 x B200; tenstorrent/tt-inference-server issue #143, Qwen2.5-72B BF16 on 2 x H100 at
    # concurrency 1): blind figures in the validation README
    ("A", "  of which the rows added at session 18 (ids A..; blind figures in the validation README): throughput",
     "  of which the rows added at session 18 (ids A..): latency"),
    # the rows gathered at session 19 (ids D..: SemiAnalysisAI/InferenceX issue #828, gpt-oss-120b MXFP4 with vLLM
    # 0.15.1 on 2 / 4 / 8 x H100 at 1k/1k, 1k/8k and 8k/1k, concurrency 4 and 64): blind figures in the README
    ("D", "  of which the rows added at session 19 (ids D..; blind figures in the validation README): throughput",
     "  of which the rows added at session 19 (ids D..): latency"),
    # the rows gathered at session 20 (ids G..: SGLang's cookbook speed benchmark of Llama-3.1-70B BF16 on 8 x A100 with
    # SGLang 0.5.6, 1k/1k and 8k/1k at concurrency 1-100): issue 22's latency blind round, blind figures in the README
    ("G", "  of which the rows added at session 20 (ids G..; blind figures in the validation README): throughput",
     "  of which the rows added at session 20 (ids G..): latency"),
    # the throughput round of session 20 (ids E..: SGLang's fused-MoE-config pull requests #7631, #7687, #6111, #6939,
    # #12343: DeepSeek-V3 FP8 on 8 x H20, 16 x H200 over two nodes, 8 x B200; Qwen3-30B-A3B FP8 on 4 x H200): blind
    # figures in the validation README
    ("E", "  of which the rows added at session 20 (ids E..; blind figures in the validation README): throughput",
     None),
    # the big-MoE round of session 21 (ids DS..: DataCrunch's DeepSeek-V3 SGLang v0.4.3.post2 runs on 8 x H200, one
    # request and 10,000-prompt bursts, TP 8 and --enable-dp-attention): blind figures in the validation README
    ("DS", "  of which the rows added at session 21 (ids DS..; blind figures in the validation README): throughput",
     "  of which the rows added at session 21 (ids DS..): latency"),
    # the latency round of session 21 (ids LT..: vLLM issues #20710, Llama-3.3-70B FP8 on 2 x B200 with vLLM 0.9.0 at
    # concurrency 1 and 16, and #20469, Qwen3-14B-AWQ on one A100 with 16k prompts at concurrency 1): blind figures in
    # the validation README
    ("LT", "  of which the rows added at session 21 (ids LT..; blind figures in the validation README): throughput",
     "  of which the rows added at session 21 (ids LT..): latency"),
    # the AMD serving round of session 22 (ids AM..: ROCm/ATOM pull request #409, vLLM with the ATOM plugin serving
    # DeepSeek-R1-0528 FP8 at TP 8 on 8 x MI355X, random 1k/1k, 1k/8k and 8k/1k at concurrency 4-64): blind figures
    # in the validation README
    ("AM", "  of which the rows added at session 22 (ids AM..; blind figures in the validation README): throughput",
     "  of which the rows added at session 22 (ids AM..): latency"),
    # the TTFT round of session 22 (ids TT..: GPUStack's Qwen3-32B BF16 page on one H100, vllm bench serve bursts of
    # 100-1,000 prompts sent at once to vLLM 0.11.0, SGLang 0.5.5.post1 and TensorRT-LLM 1.2.0rc1): blind figures in
    # the validation README
    ("TT", "  of which the rows added at session 22 (ids TT..; blind figures in the validation README): throughput",
     "  of which the rows added at session 22 (ids TT..): latency"),
    # the TTFT round of session 23 (ids TA..: GPUStack's Qwen3-32B and Qwen3-14B BF16 pages on one A100, vllm bench
    # serve bursts of 500-1,000 prompts sent at once to vLLM 0.11.0, SGLang 0.5.5.post1 and TensorRT-LLM 1.2.0rc1):
    # blind figures in the validation README
    ("TA", "  of which the rows added at session 23 (ids TA..; blind figures in the validation README): throughput",
     "  of which the rows added at session 23 (ids TA..): latency"),
    # the SGLang cookbook round of session 26 (ids CK..: sgl-project/sgl-cookbook pages of MiniMax-M2/M2.5/M2.7 on
    # MI300X, B200, H100 and GB300, Qwen3-Coder-480B FP8 and ERNIE-4.5-21B on MI300X, concurrency 16-100): blind figures
    # in the validation README
    ("CK", "  of which the rows added at session 26 (ids CK..; blind figures in the validation README): throughput",
     "  of which the rows added at session 26 (ids CK..): latency"),
    # the other-sources round of session 26 (ids VP..: vLLM and SGLang pull requests with benchmark output, Lambda's
    # model pages; Qwen3-Coder-480B, gpt-oss-120b, MiniMax-M2/M2.5, Qwen3-30B-A3B, Kimi K2.6): blind figures in README
    ("VP", "  of which the rows added at session 26 (ids VP..; blind figures in the validation README): throughput",
     "  of which the rows added at session 26 (ids VP..): latency"),
    # the TensorRT-LLM round of session 26 (ids TR..: the performance overview's 0.20.0 edition, Llama 3.3 70B, Llama
    # 3.1 405B and Llama 4 Maverick at TP 4-8 on B200/H200/H100, and its release 1.2 edition, DeepSeek-R1, gpt-oss-120b,
    # Qwen3 MoE and Llama 3.3 70B on B300/H200, all at maximum load): blind figures in the validation README
    ("TR", "  of which the rows added at session 26 (ids TR..; blind figures in the validation README): throughput",
     None),
    # the serveblind7 round (ids SW..: vLLM's MiniMax-M2 recipe on 4 x H20-3e, vLLM issue #30326's gpt-oss-120b on
    # 8 x H200, GPUStack's GLM-4.6 FP8 on 8 x H100 and GLM-4.5-Air on 4 x A100 ShareGPT bursts, a Nebius cluster's
    # InferenceX runs of DeepSeek-R1 (SGLang 0.5.12) and gpt-oss-120b (vLLM 0.22) on H200): blind figures in README
    ("SW", "  of which the rows added by serveblind7 (ids SW..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind7 (ids SW..): latency"),
    # the serveblind8 round (ids VC..: Vultr's inference cookbook, MiniMax-M2.5 FP8 at TP 4 on 4 x B200, vLLM 0.12.0,
    # random 2048/512 at concurrency 8-32; its concurrency-1 point is VC04 in decode_independent.csv)
    ("VC", "  of which the rows added by serveblind8 (ids VC..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind8 (ids VC..): latency"),
    # the serveblind9 round (ids NB..: InferenceX's dashboard data as the InferenceX-app test fixture carries it,
    # DeepSeek-R1-0528 FP8 / MXFP4 / NVFP4 on one node of MI355X, MI300X, MI325X and B200, SGLang 0.5.6-0.5.12, random
    # 1k/1k and 8k/1k at range ratio 0.8, concurrency 8-64)
    ("NB", "  of which the rows added by serveblind9 (ids NB..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind9 (ids NB..): latency"),
    # the serveblind11 round (ids GS..: Scicom's llm-benchmaxxing results, vLLM on 8 x B200 / H200 / H100 serving
    # Qwen3-32B BF16 at TP 8 and TP 4 x 2 copies and GLM-4.7 BF16 / FP8 at TP 8, bursts of 100 prompts of 1,024 and
    # 15,000 tokens, 128 out)
    ("GS", "  of which the rows added by serveblind11 (ids GS..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind11 (ids GS..): latency"),
    # the serveblind12 round (ids SQ..: SGLang fused-MoE config pull requests #10404 / #10467, Qwen3-Next-80B-A3B BF16
    # on H200 at TP 2/4/8 and H20 at TP 4/8, 100-prompt bench_serving closed loops, 1,000 in / 2,000 out, at 8 / 32)
    ("SQ", "  of which the rows added by serveblind12 (ids SQ..; blind figures in the validation README): throughput",
     None),
    # the serveblind13 round (ids SY..: AMD-AGI/Magpie pull request #88, Qwen3-Coder-480B MXFP4 / FP8 on 4 x MI355X;
    # InferenceX pull requests #3311 (Qwen3.5-397B-A17B MXFP4 on MI355X, SGLang 0.5.19, 8k/1k), #980 (BF16, 8 x MI355X)
    # and #1544 (FP8 on 8 x H100, SGLang 0.5.12, 1k/1k))
    ("SY", "  of which the rows added by serveblind13 (ids SY..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind13 (ids SY..): latency"),
    # the serveblind14 round (ids SZ..: InferenceX's CI artifacts as gminneci/mantile stores them: run 20667906037,
    # gpt-oss-120b MXFP4 on 2 x H100 / H200 / B200 at TP 2, vLLM 0.13.0, 1k/1k, 1k/8k and 8k/1k at 8 and 64; runs
    # 20720630953 and 20613446912, DeepSeek-R1-0528 FP8 on 8 x MI300X / MI325X / H200, SGLang, 1k/1k and 8k/1k at 32;
    # serveblind15's SZ25-SZ45 from the same store: gpt-oss-120b on B200 with TensorRT-LLM 1.2.0rc2 (run 20286968709,
    # TP 1 / 2 / 4), DeepSeek-R1-0528 on 8 x MI355X FP8 / MXFP4 and 8 x B200 FP8, SGLang, TP 8, 1k/1k and 8k/1k at 32)
    ("SZ", "  of which the rows added by serveblind14 and serveblind15 (ids SZ..; blind figures in the validation "
     "README): throughput",
     "  of which the rows added by serveblind14 and serveblind15 (ids SZ..): latency"),
    # the serveblind16 round (ids SK..: SGLang pull request #32323's Qwen3.5 cookbook re-bench on SGLang 0.5.16,
    # 9B / 27B / 35B-A3B / 397B-A17B on H100 / H200 / B200 / B300, random 8k/1k at concurrency 1024, no speculative
    # decoding; SGLang's MiniMax-M2.7 cookbook cells on 2 / 4 / 8 x MI300X, SGLang 0.5.13.post1, 1k/1k at 16-4096;
    # vLLM's Nemotron-3-Nano-30B-A3B recipe, FP8 on one H200, vLLM 0.12.0, 1k/1k at 1024)
    ("SK", "  of which the rows added by serveblind16 (ids SK..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind16 (ids SK..): latency"),
    # the serveblind17 round (ids SV..: ROCm/vllm's dev-docker README at b309ea79, vLLM 0.7.3 on 8 x MI300X, Llama 3.1
    # 70B / 405B FP8 at maximum load and in benchmark_latency batches of 64 / 128; the vLLM recipe's Ministral 3
    # 3B / 8B / 14B FP8 on one MI300X, vllm bench serve 1k/1k at concurrency 32 over 100 prompts)
    ("SV", "  of which the rows added by serveblind17 (ids SV..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind17 (ids SV..): latency"),
    # the serveblind18 round (ids SJ..: SGLang's Qwen3.6 cookbook speed cells, pull request #32959's
    # qwen3.6-benchmarks.jsx at 4b7077be, Qwen3.6-35B-A3B BF16 / FP8 / NVFP4 on one H200 / B200 / B300, SGLang
    # 0.5.15-0.5.16, random 8k/1k at concurrency 1024 and 4096, no speculative decoding)
    ("SJ", "  of which the rows added by serveblind18 (ids SJ..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind18 (ids SJ..): latency"),
    # the serveblind19 round (ids SN..: an independent user's TensorRT-LLM 0.16.0 sweep,
    # shaamil101-etched/trtllm-benchmarks at aeec9f29, Llama-3.1-70B FP8 at TP 8 on 8 x H100, trtllm-bench throughput)
    ("SN", "  of which the rows added by serveblind19 (ids SN..; blind figures in the validation README): throughput",
     None),
    # the mlperfinf round (ids ML..: MLPerf Inference Offline results, v4.1 / v5.1 llama2-70b-99 (ML01-ML11: NVIDIA
    # TensorRT-LLM on B200 / GB200 / H200 / H200 NVL / H100 / GH200, AMD vLLM on MI300X / MI325X / MI355X) and v5.1
    # Mixtral 8x7B, Llama 3.1 405B / 8B and DeepSeek-R1 (ML22-ML32); the Server results of the same systems are rows
    # ML12-ML21 and ML33-ML43 of serving_rate.csv, reported with the rate rows)
    ("ML", "  of which the rows added by mlperfinf (ids ML..: MLPerf Inference Offline; blind figures in the "
     "validation README): throughput", None),
    # the mlperfinf2 round (ids MP..: MLPerf Inference Offline results not used by ML: v6.0 B300 (NVIDIA, GIGABYTE),
    # MI355X / MI350X (AMD, MiTAC) and RTX PRO 6000 (HPE); v5.1 RTX PRO 6000 Mixtral (HPE), one L40S (Red Hat vLLM),
    # Krai's open Llama 3.1 70B on vLLM / SGLang; v4.1 H100 NVL (HPE), 8 x L40S (Fujitsu), H100 Mixtral (NVIDIA);
    # MP01-MP17, their Server twins MP18-MP34 in serving_rate.csv)
    ("MP", "  of which the rows added by mlperfinf2 (ids MP..: MLPerf Inference Offline; blind figures in the "
     "validation README): throughput", None),
    # the serveblind20 round (ids SP..: Lambda's model pages for GLM-4.7-Flash, Qwen3.5-397B-A17B and GLM-5 (SGLang,
    # random 8k/1k at 32); MLPerf Inference v6.1 DeepSeek-R1 Offline on NVIDIA's 8 x B300; GPUStack's Qwen3.5-35B-A3B
    # (one H200) and Qwen3.5-9B (one H100) pages, vLLM 0.17.1 / SGLang 0.5.9 through guidellm at 512 in flight and
    # one-batch bursts; the Server twin and two paced runs are RP01-RP03 of serving_rate.csv)
    ("SP", "  of which the rows added by serveblind20 (ids SP..; blind figures in the validation README): throughput",
     None),
    # the serveblind21 round (ids SE..: vLLM and SGLang pull requests and issues of 2025-26 with their printouts:
    # Qwen3.5-397B-A17B FP8 on 4 x MI300X (AMD-AGI Hyperloom #428), DeepSeek-R1 NVFP4 on 4 x B200 (SGLang #17309),
    # MiniMax-M2.5 FP8 on 4 x H100 (vLLM #34924), Qwen3-Coder-Next FP8 on 2 x H100 (SGLang #18195), DeepSeek-R1
    # FP8 on 8 x H200 (vLLM #34206), Qwen3-30B-A3B on 4 x A40 (SGLang #6121))
    ("SE", "  of which the rows added by serveblind21 (ids SE..; blind figures in the validation README): throughput",
     "  of which the rows added by serveblind21 (ids SE..): latency"),
    # the serveblind23 round (ids SG..: InferenceX pull request #1531's local numbers, gpt-oss-120b MXFP4 on one
    # MI355X, vLLM 0.19.0 with AITER, random 1k/1k at concurrency 4-128; InferenceX's experimental token-position
    # sweeps, MiniMax-M2.5 FP8 TP 8 + EP and Qwen3.5-397B-A17B BF16 TP 8 on 8 x H200, vLLM main of February 2026)
    ("SG", "  of which the rows added by serveblind23 (ids SG..; blind figures in the validation README): throughput",
     None),
    # the serveblind24 round (ids SH..: MLPerf Inference DeepSeek-R1 Offline logs of submitters no row cited before,
    # v6.0 Nebius / Dell / Google B200 and Cisco / Quanta / Giga Computing B300, v5.1 Dell / Giga Computing B200,
    # HPE's open-division 8 x H200; SGLang's MiniMax-M3 cookbook cells on B200 / B300 / GB300 / H200 / MI355X;
    # sgl-cookbook's Nemotron 3 Nano / Super printouts; GPUStack's GLM-4.6 FP8 bursts on 8 x A100)
    ("SH(?=[01]\\d\\b|20\\b)", "  of which the rows added by serveblind24 (ids SH01-SH20; blind figures in the "
     "validation README): throughput", None),
    # the serveblind25 round (ids SH21..: vLLM pull request #48983's stock baseline, Gemma 4 26B-A4B NVFP4 on one RTX
    # PRO 6000 Blackwell, random 1k/1k at concurrency 32; the vLLM blog's EAGLE3-on-AMD no-speculation bars,
    # MiniMax-M2.5 FP8 and Kimi-K2.5 MXFP4 on 4 x MI355X at TP 4, 1K/1K at concurrency 4-64)
    ("SH(?=2[1-9]|3[01])", "  of which the rows added by serveblind25 (ids SH21-SH31; blind figures in the validation "
     "README): throughput", "  of which the rows added by serveblind25 (ids SH21-SH31): latency"),
    # the serveblind26 round (ids SH32..: InferenceX issue #870's B200 sweep, DeepSeek-R1-0528 NVFP4 on 8 x B200, SGLang
    # 0.5.6 TP 8 EP 8, random 1k/1k at concurrency 4-64; the round's rate rows are RT15.. in RATE_ROUNDS)
    ("SH(?=3[2-6])", "  of which the rows added by serveblind26 (ids SH32-SH36; blind figures in the validation "
     "README): throughput", "  of which the rows added by serveblind26 (ids SH32-SH36): latency"),
    # the serveblind28 round (ids SH37..: llm-d's MI355X performance reference, Llama-3.3-70B FP8 at TP 8 on 8 x MI355X,
    # vLLM 0.15.1, random 1k/256 to 64k/128 at concurrency 2-256; AMD's ROCm blog on reasoning benchmarks, Qwen3-8B on
    # one MI300X, vLLM 0.9.1, bursts of 128; an Azure MI300X handbook's Qwen3-235B-A22B BF16 on 8 x MI300X, vLLM 0.8.3,
    # evalscope at 256 in flight)
    ("SH(?=3[7-9]|4\\d|5[01])", "  of which the rows added by serveblind28 (ids SH37-SH51; blind figures in the "
     "validation README): throughput", "  of which the rows added by serveblind28 (ids SH37-SH51): latency"),
    # the sparkblind57 round (ids SH52..: djangodevreng/dgx-spark-benchmarks' 10-monday-peak runs, one DGX Spark (GB10)
    # under vLLM 0.26.0: Gemma 4 26B-A4B / 31B, gpt-oss-20b, Ministral 3, Nemotron 3 Nano, Qwen3.5 / 3.6 / 3.8 at BF16,
    # FP8 and NVFP4, vllm bench serve random 4k / 500 at 1.5/s capped at 25 in flight)
    ("SH(?=5[2-9]|6|7[0-3])", "  of which the rows added by sparkblind57 (ids SH52-SH73; blind figures in the "
     "validation README): throughput", "  of which the rows added by sparkblind57 (ids SH52-SH73): latency"),
    # the serveblind30 round (ids SH74..: the RTX 6000 Pro Blackwell Server Edition tables of TensorRT-LLM's late-2025
    # performance overview, the Y rows' source, which no row had entered: Llama 3.3 70B, Qwen3-235B-A22B and
    # Qwen3-30B-A3B NVFP4 on 1-8 PCIe cards at TP x PP and DEP x PP, trtllm-bench maximum load; SH95-SH98:
    # Light-Heart-Labs/MMBT's vLLM power sweep, Qwen3.6-27B and Qwen3-Coder-Next AWQ on one RTX PRO 6000 Workstation
    # at 1 and 32 closed-loop requests)
    ("SH(?=7[4-9]|8|9[0-8])", "  of which the rows added by serveblind30 (ids SH74-SH98; blind figures in the "
     "validation README): throughput", None),
    # the serveblind31 round (ids SH99-SH130: MLPerf Inference v6.0 Offline logs of submitter-system-benchmark runs
    # whose Offline log no row had cited, read from the same copy: ASUSTeK's, Dell's and HPE's 2 / 8 / 10 x RTX PRO 6000
    # Server Edition, partners' 8 x B300 / B200 (Llama 2 70B, Llama 3.1 8B / 405B, DeepSeek-R1), Dell's and Cisco's
    # H200 NVL, Cisco's MI350X and Dell's, GIGABYTE's and HPE's MI355X on AMD's vLLM harness, HPE's Mixtral 8x7B)
    ("SH(?=99\\b|1[0-2]\\d\\b|130\\b)", "  of which the rows added by serveblind31 (ids SH99-SH130: MLPerf Inference "
     "v6.0 Offline; blind figures in the validation README): throughput", None),
    # the serveblind32 round (ids SH131..: sglang #30812's GLM-5.1-FP8 on 8 x MI300X at concurrency 16-4096; three v6.0
    # Offline logs serveblind31 left free: Nebius's B300 DeepSeek-R1, Quanta's B300 405B, Oracle's MI355X)
    ("SH(?=13[1-9]\\b|1[4-6]\\d\\b|170\\b)", "  of which the rows added by serveblind32 (ids SH131-SH170; blind "
     "figures in the validation README): throughput",
     "  of which the rows added by serveblind32 (ids SH131-SH170): latency"),
    # branch capacity56 (ids RT33..: MLPerf Inference v5.0 Offline logs of the systems whose Server runs are RT23..,
    # NVIDIA's 8 x H200 / DGX H100 / one GH200 / 8 x and one B200 llama2-70b, 8 x H200 / 8 x B200 Mixtral 8x7B, GB200
    # NVL72 Llama 3.1 405B; the figures were seen as capacity bounds before entry, scored on unchanged code first)
    ("RT(?=3[3-9]|4[0-5])", "  of which the rows added by capacity56 (ids RT33..: MLPerf Inference v5.0 Offline; "
     "figures on unchanged code in the validation README): throughput", None),
)

#: The blind rounds of rows at a stated request rate (serving_rate.csv), reported on their own as SERVING_ROUNDS are:
#: the id prefix and the throughput line's label.
RATE_ROUNDS: tuple[tuple[str, str], ...] = (
    # the serveblind10 round (ids GH..: SGLang's attention-backend benchmark file NVIDIA_H200.md, DeepSeek-V3 FP8 on
    # 8 x H200 and Llama 3.1 8B on one H200, bench_serving at 16 requests/s over 200 and 1,000 prompts, random
    # 1k/1k, 8k/1k and 8k/8k)
    ("GH", "  of which the rows added by serveblind10 (ids GH..; blind figures in the validation README): throughput"),
    # the serveblind20 round (ids RP..: MLPerf Inference v6.1 DeepSeek-R1 Server on NVIDIA's 8 x B300; GPUStack's
    # Qwen3.5-9B page, guidellm at a constant 1 request/s, 32k/100 and 1k/2k, vLLM 0.17.1 on one H100)
    ("RP", "  of which the rows added by serveblind20 (ids RP..; blind figures in the validation README): throughput"),
    # the serveblind24 round (ids RT..: the same submitters' DeepSeek-R1 Server logs, loadgen's Poisson arrivals;
    # GPUStack's Qwen3.5-35B-A3B on one H200, guidellm at a constant 1-16 requests/s, vLLM 0.17.1 and SGLang 0.5.9)
    ("RT(?=0|1[0-4])", "  of which the rows added by serveblind24 (ids RT01-RT14; blind figures in the validation "
     "README): throughput"),
    # the serveblind26 round (ids RT15..: MLPerf Inference v6.0 Server and Interactive logs no row cited before: AMD's
    # 8 and 87 x MI355X llama2-70b Interactive / Server, ASUSTeK's 8 x RTX PRO 6000 and HPE's 8 x B200 llama2-70b
    # Interactive, HPE's 8 x B200 Mixtral 8x7B Server, CoreWeave's DeepSeek-R1 Server on 8 x GB300 and 64 x GB200)
    ("RT(?=1[5-9]|2[0-2])", "  of which the rows added by serveblind26 (ids RT15-RT22; blind figures in the validation "
     "README): throughput"),
    # the serveblind27 round (ids RT23..: MLPerf Inference v5.0 Server logs, the round no row cited, read from
    # ntuhpc's copy: NVIDIA's 8 x H200 / 8 x B200 / DGX H100 / one B200 / one GH200 llama2-70b (Server and the
    # Interactive targets), 8 x H200 / 8 x B200 Mixtral 8x7B, GB200 NVL72 Llama 3.1 405B over 72 GPUs)
    ("RT(?=2[3-9]|3[0-2])", "  of which the rows added by serveblind27 (ids RT23-RT32; blind figures in the validation "
     "README): throughput"),
    # the serveblind29 round (ids RT41..: MLPerf Inference v6.0 Server logs of systems no row cited, read from the same
    # copy: partners' B300 / B200 Llama 2 70B, Llama 3.1 8B / 405B and DeepSeek-R1 runs of NVIDIA's harness, HPE's two
    # RTX PRO 6000 Server Edition (Llama 2 70B, Llama 3.1 8B, Mixtral 8x7B), Dell's eight, Dell's 8 x H200 NVL, Dell's
    # and HPE's 8 x MI355X and Cisco's 8 x MI350X on AMD's vLLM harness)
    ("RT(?=4[1-9]|5|60)", "  of which the rows added by serveblind29 (ids RT41-RT60; blind figures in the validation "
     "README): throughput"),
    # the sparkrate57 round (ids RT61..: djangodevreng/dgx-spark-benchmarks' Poisson tests with no binding cap, one DGX
    # Spark (GB10) under vLLM 0.26.0: 09-reasoning, random 1k / 4k, 50 prompts at 0.2/s, of 19 checkpoints, and
    # Qwen3.5-0.8B's 10-monday-peak, 300 prompts at 1.5/s, whose cap of 25 never bound)
    ("RT(?=6[1-9]|7|80)", "  of which the rows added by sparkrate57 (ids RT61-RT80; blind figures in the validation "
     "README): throughput"),
    # the decodeblind26 round (ids RT81..: MLPerf Inference v6.0 Server logs no row had cited, read from the same copy:
    # ASUSTeK's, Dell's and HPE's 8 / 10 x RTX PRO 6000 Server Edition, Cisco's 4 x H200 NVL and 8 x B300, GIGABYTE's
    # B300, GIGABYTE's and Oracle's 8 x MI355X on AMD's vLLM harness)
    ("RT(?=8[1-9]\\b|9[0-5]\\b)", "  of which the rows added by decodeblind26 (ids RT81-RT95; blind figures in the "
     "validation README): throughput"),
    # serveblind32 (ids RT96..: MLPerf v5.1 Server logs of submitter systems no row had cited, NVIDIA's harness)
    ("RT(?=9[6-9]\\b|1[01]\\d\\b|120\\b)", "  of which the rows added by serveblind32 (ids RT96-RT120; blind "
     "figures in the validation README): throughput"),
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--validation", type=Path, default=ROOT / "tests" / "data" / "validation")
    ap.add_argument("--all", action="store_true", help="print every case")
    args = ap.parse_args()
    kb = knowledge.load()
    mem = report("Memory vs PyTorch allocations", "B", memory_cases(kb, args.validation), args.all)
    val_cases, run_cases = training_cases(kb, args.validation), published_run_cases(kb)
    train = report("Training GPU-hours vs published runs (validation set)", "h", val_cases, args.all)
    runs = report("Training GPU-hours vs published runs (tests/data/training_runs.csv)", "h", run_cases, args.all)
    report("Training GPU-hours, both sets", "h", val_cases + run_cases, False)
    with open(RUNS, newline="") as fh:
        counted = {r["id"] for r in csv.DictReader(fh) if r["gpus"] and r["use"] == "1"}
    beyond = [(label, est / meas) for label, est, meas in val_cases + run_cases if not 0.5 <= est / meas <= 2.0]
    scored = [abs(est / meas - 1) for label, est, meas in run_cases if label.split()[0] in counted]
    print(f"  runs with a published GPU count (the scored set; the rest are estimated on the count gpuwise picks "
          f"for a {RUN_DEADLINE_DAYS:g}-day deadline): median {statistics.median(scored):.1%} over {len(scored)}")
    for label, ratio in beyond:
        why = ("training_runs.csv, GPU count published" if label.split()[0] in counted
               else "outside the criterion: no published GPU count, or conflicting published figures (row notes)")
        print(f"  beyond 2x: {label[:80]}  {ratio:.2f}x  [{why}]")
    bare_val = training_cases(kb, args.validation, conditions=None)
    bare_runs = published_run_cases(kb, conditions=None)
    for name, bare in (("validation set", bare_val), ("training_runs.csv", bare_runs)):
        ab = [abs(est / meas - 1) for _, est, meas in bare]
        worst = max(max(est / meas, meas / est) for _, est, meas in bare)
        print(f"  without the runs' published conditions ({name}): median {statistics.median(ab):.1%}, "
              f"worst ratio {worst:.2f}x")
    held = published_run_cases(kb, HELDOUT_RUNS)
    report("Training GPU-hours, held-out 2024-26 runs (tests/data/training_heldout.csv; set no figure)", "h",
           held, args.all)
    # what a user who states only the model, tokens and GPU count gets; and the same on the published figure's own
    # hours basis (steady-state or whole-run: the figure's, no condition of the run). By column and run size:
    # benchmarks/bare_attribution.py (tests/data/validation/README.md, 'Held-out runs without their conditions')
    basis = conditions_only(run_conditions(), {"hours_basis"})
    for name, cond in (("without the runs' published conditions", None),
                       ("  of which on the figure's own hours basis", basis)):
        r = [est / meas for _, est, meas in published_run_cases(kb, HELDOUT_RUNS, conditions=cond)]
        print(f"  {name}: median {statistics.median(abs(x - 1) for x in r):.1%}, signed "
              f"{statistics.median(x - 1 for x in r):+.1%}, {sum(not 0.5 <= x <= 2.0 for x in r)} beyond 2x")
    # each batch of held-out rows as gathered (the newest last: session 10's H44-H55, MLPerf logs and Pleias-3B)
    batches = ((1, 29), (30, 43), (44, 55), (56, 62), (63, 73), (74, 75), (76, 79), (80, 84), (85, 90), (91, 97),
               (98, 101), (102, 111), (112, 118), (119, 125), (126, 136), (137, 141), (142, 146),
               (147, 158), (159, 161), (162, 164), (165, 166), (167, 169), (170, 176), (177, 178),
               (179, 180), (181, 188), (189, 189), (190, 199), (200, 208), (209, 216), (217, 218),
               (219, 223), (224, 231), (232, 235), (236, 240), (241, 245), (246, 248), (300, 302),
               (303, 311), (330, 343), (350, 353),
               (360, 373), (374, 388), (389, 389), (390, 402), (403, 420), (421, 443), (444, 455), (456, 459),
               (460, 474), (475, 483), (484, 500), (501, 509), (510, 523), (524, 533),
               (534, 552), (553, 553), (554, 568), (569, 585), (586, 602),
               (603, 609), (610, 619), (620, 627), (628, 635), (636, 649), (650, 654),
               (655, 670), (671, 690), (691, 692), (693, 707), (708, 710), (711, 712),
               (713, 729), (730, 737),
               (741, 745), (746, 753), (761, 766), (767, 784), (785, 787),
               (788, 813))
    for lo, hi in batches:
        part = [(est, meas) for label, est, meas in held if lo <= int(label.split()[0][1:]) <= hi]
        if part:
            ab = [abs(est / meas - 1) for est, meas in part]
            worst = max(max(est / meas, meas / est) for est, meas in part)
            print(f"  H{lo:02d}-H{hi:02d}: median {statistics.median(ab):.1%} over {len(part)}, worst {worst:.2f}x")
    # the runs whose own config put state on the host (training_conditions.csv offload; branch offload58)
    moved = {rid for rid, c in run_conditions().items() if (c.get("offload") or "none") != "none"}
    part = [(label, est / meas) for label, est, meas in held if label.split()[0] in moved]
    if part:
        print(f"  offloaded runs (offload column): median {statistics.median(abs(r - 1) for _, r in part):.1%} over "
              f"{len(part)}, worst {max(max(r, 1 / r) for _, r in part):.2f}x "
              f"({', '.join(f'{lab.split()[0]} {r - 1:+.1%}' for lab, r in sorted(part))})")
        print("  blind (branch offload58, before any change): see tests/data/validation/README.md, H741-H745")
    outside = heldout_outside_criterion()
    held_beyond = [(label, est / meas) for label, est, meas in held if not 0.5 <= est / meas <= 2.0]
    inside = [label for label, _ in held_beyond if label.split()[0] not in outside]
    print(f"  runs beyond 2x: {len(inside)} inside the criterion, {len(held_beyond) - len(inside)} outside it "
          f"(every row stays in the median)")
    for label, ratio in held_beyond:
        rid = label.split()[0]
        why = outside[rid][:90] if rid in outside else "inside the criterion"
        print(f"  beyond 2x: {label[:60]}  {max(ratio, 1 / ratio):.2f}x  [{why}]")
    report("Training tokens/s per GPU, NeMo performance recipes, dense (training_throughput_published.csv)", "t/s",
           throughput_cases(kb, moe=False, releases=("25.09", "25.11", "26.02")), True)
    report("Training tokens/s per GPU, NeMo performance recipes, dense, 26.04 (the NVFP4 / MXFP8 pairs on one layout "
           "set training.fp4_gemm_over_fp8; the FP8 rows are checks)", "t/s",
           throughput_cases(kb, moe=False, releases=("26.04",)), True)
    report("Training tokens/s per GPU, NeMo performance recipes, MoE, 25.09-26.02 (training_throughput_published.csv; "
           "set runtime.yaml training.moe_dispatch)", "t/s",
           throughput_cases(kb, moe=True, releases=("25.09", "26.02")), True)
    report("Training tokens/s per GPU, NeMo performance recipes, MoE, 26.04 (checks: set no figure)", "t/s",
           throughput_cases(kb, moe=True, releases=("26.04",)), True)
    report("Training tokens/s per GPU, NeMo performance recipes, MoE, 26.08 (checks: set no figure)", "t/s",
           throughput_cases(kb, moe=True, releases=("26.08",)), True)
    report("Fine-tune tokens/s on one GPU, torchtune's published tables (finetune_throughput_published.csv, use=1)",
           "t/s", finetune_cases(kb), True)
    report("Offloaded fine-tunes: the host part of a step as published (offload_published.csv, use=1)", "s",
           offload_cases(kb), True)
    print("  blind (session 21, before the host-core mechanism): see tests/data/validation/README.md, offload rows")
    from benchmarks.offload_slowdown import slowdown_cases
    report("Offloaded fine-tunes: the slowdown a sample against the same fine-tune without offload "
           "(offload_slowdown.csv, use=1)", "x", slowdown_cases(), True)
    print("  blind (branch offloadblind33, before any change): see tests/data/validation/README.md, rows OS01-OS09")
    print("  blind (session 15, before training.mfu_by_gpu): F05 -42.5% (QLoRA, 1 x 4090), F06 +0.6%, F07 -22.4%, F08 "
          "-25.0%, F09 -22.1%, F10 -20.4% (A100; F05, F07-F10 ran torch.compile: workload.torch_compile since); "
          "not scored: F01-F04 (row notes)")
    print("  gathered at stop 32 and scored blind as printed here: no figure was set on them (the MoE rows show the "
          "expert layers' cost gpuwise does not yet model)")
    print("  held-out runs not blind: mechanisms were added after these rows were scored. Blind, each batch when added "
          "(tests/data/validation/README.md): H01-H10 16.7% (1.97x), H11-H13 22.2% (1.28x), H14-H16 16.4% (2.42x), "
          "H17-H29 (MLPerf Training logs) 28.9% (1.43x),\n"
          "  H30-H42 (MLPerf Training v5.1 logs, INTELLECT-1) 31.1% (2.36x), H43 (OpenEuroLLM on MI250X) +42.5%,\n"
          "  H44-H55 (MLPerf Training v4.0-v5.0 logs not used before, Pleias-3B) 15.3% (5.13x; MLPerf 14.2%, 1.43x),\n"
          "  H56-H62 (MLPerf v5.1 Llama 3.1 8B: Dell, Supermicro, Verda, University of Florida, Cisco) 24.3% (1.47x),\n"
          "  H63-H73 (MLPerf v5.1 submissions not used before: Dell, Giga Computing, NVIDIA 8-GPU and 2,560-GB200, "
          "Oracle, University of Florida) 7.7% (1.45x), H74 OLMo 2 1B +36.2%, H75 MiniCPM-2B -18.0%,\n"
          "  H76-H79 (MLPerf v5.0 Llama 3.1 405B: NVIDIA 256 / 512 GB200, CoreWeave 1,536 GB200, NVIDIA 2,432 H100) "
          "16.5% (1.23x),\n"
          "  H80-H84 (MobileLLM 125M-1.5B on 32 A100, README days) +74..+111% (2.11x; the days imply 37-66% of the "
          "A100's peak), H85-H89 (MLPerf v5.1 Llama 3.1 8B: NVIDIA 72 GB300, Cisco MI350X, Nebius, Supermicro) 15.5% "
          "(1.26x), H90 AMD-OLMo-1B on 64 MI250 -19.4%,\n"
          "  H91-H97 (Lucie-7B on 512 Jean Zay H100; nanochat d24/d26 and llm.c GPT-2 124M-1558M on one 8-GPU node) "
          "74.6% (3.95x, H91; the six small-model runs +50..+99%),\n"
          "  H98-H101 (Phi-4-reasoning SFT on 32 H100, AMD-Llama-135m on 16 MI250, nanochat d26 0.5M batch, OpenELM-3B "
          "on 128 H100) -26.8 / -3.8 / +2.9 / +12.6% (1.37x),\n"
          "  H102-H111 (MLPerf v5.1 Llama 2 70B LoRA fine-tunes: 8 B200 / 8 GB300 NVFP4, 72 / 512 GB200, 72 GB300, "
          "8 MI300X, 16 MI300X, 8 MI325X, 8 MI355X, 8 H200) 21.6% (1.85x, H103 NVFP4 on 8 GB300; NVFP4 LoRA then "
          "ran at BF16's rate),\n"
          "  H112-H118 (MLPerf v5.1 LoRA, not used before: 64 / 128 H100, 64 B200, 32 B200 NVFP4, 576 GB200, 8 B300, "
          "8 MI350X; after the session's LoRA changes) 23.5% (1.36x),\n"
          "  H119-H125 (MLPerf v5.0 LoRA: 512 / 32 H200, 64 B200, 64 H100, 144 GB200, 4 H200 NVL, 32 MI300X; after all "
          "of the session's changes) 20.1% (1.91x, H119),\n"
          "  H126-H136 (LoRA submissions of MLPerf v4.1 / v5.0 / v5.1 not used before: 1,024 / 512 / 64 / 4 H100, "
          "512 / 8 / 16 H200, 8 H200 NVL, 8 B200, 64 / 72 GB200) 20.9% (2.96x, H135),\n"
          "  H137-H140 (Falcon2-11B on 1,024 A100-40GB, Falcon-Mamba-7B on 256 H100, Zamba2-7B on 128 H100, AURORA-M "
          "on 128 MI250X; wall-clock days) -22.5 / -51.0 / -40.3 / -37.3%: 38.8% (2.04x, H138);\n"
          "  H141 (MicroLlama-300M on 4 RTX 4090, lit-gpt) +3.3%,\n"
          "  H142-H144 (Zamba-7B on 128 H100 and Motif 2.6B on 384 MI250X, wall-clock days; L20-Edu-135M on one L20) "
          "-63.6 / -71.1 / +117.9%: 71.1% (3.45x, H143),\n"
          "  H145-H146 (GPUburnout-1B on one A100, GPT-2 163M on one RTX 3090; after the session's changes) "
          "+40.3 / -34.1%,\n"
          "  H147-H158 (MLPerf v6.0 DeepSeek-V3 671B on 256 / 512 GB300 and gpt-oss-20b on 72 GB300; LoRA submissions "
          "of v4.0-v5.1 not used before: 64 / 384 L40S, DeepSpeed ZeRO-3 on 64 A100 and 8 / 32 H100, 4 H100, 8 MI300X, "
          "8 MI325X, 8 B200) +48.4 / +44.5 / +34.7 / -7.1 / -8.3 / -2.2 / -42.7 / -25.0 / -3.8 / -20.0 / +11.3 / "
          "+20.5%: 20.2% (1.75x, H153; the L40S rows were first entered with the logs' node counts as GPU counts, "
          "+271 / +267%);\n"
          "  H159 (MLPerf v6.0 DeepSeek-V3 on 2,048 GB200, NeMo 26.04; added after the session's MoE dispatch change, "
          "a check) -24.0% (-7.5% with the 25.09-26.02 figure); H160-H161 (MLPerf v6.0 NVFP4 dense runs, which the "
          "session's change does not reach: Llama 3.1 405B on 512 GB300, Llama 3.1 8B on 72 GB300) -12.1 / -23.5%;\n"
          "  H162-H164 (SmolLM3-3B on 384 H100 for 24 days; OpenAI Parameter Golf's 17M baseline on 8 H100 for 598 s; "
          "SmolLM2-70M on one L40S for 77.8 h) +9.4 / +49.1 / +123.8%: 49.1% (2.24x, H164);\n"
          "  H165-H166 (Parameter Golf's 17M on one RTX 5090 for 1,200 s, a 12 x 416 variant on 8 H100 for 600 s; "
          "after the session's stack names) +13.6 / -45.2%;\n"
          "  H167 (eBay's e-Llama 70B, Llama 3.1 70B continued on 1T tokens on 480 H100 with Megatron-LM, about "
          "340,000 GPU-hours; session 20, before its changes) -16.6%; H168 (nanochat d34, 2.2B on 88.7B tokens on one "
          "8-H100 node for about 100 h; after the session's changes) +0.1%;\n"
          "  H169 (nanochat d32, run1000.sh's logged step on 8 H100) -1.1%;\n"
          "  H170-H176 (torchtitan's benchmark files: Llama 3.1 8B on 8 / 128 H100, 70B on 256, 405B on 512 with 1F1B; "
          "8B on 32 / 64 H200 by Trainy; session 21, before its changes) -30.0 / -17.4 / -19.2 / +3.4 / -60.0 / -2.2 / "
          "-3.9%: 17.4% (2.50x, H174);\n"
          "  H177-H178 (torchtitan's DeepSeek-V3 671B DistMoE on 256 GB300, PP1 and PP2 / VPP8; after the session's "
          "first two changes) +53.6 / +46.5%;\n"
          "  H179-H180 (continued pretraining from model cards: polka-1.1b on one 8 x RTX 4090 machine, 680 GPU-hours; "
          "Fietje 2 on 16 A100 for about two weeks 'accounting for waiting for jobs'; session 22, before any change) "
          "-44.3 / -72.5%;\n"
          "  H190-H199 (MLPerf v6.0 submitters no row had used: Krai's LoRA on 4 / 64 GH200, Cisco's 8B on 128 "
          "H100 and 16 H200, MiTAC's 8B on 8 MI325X with Primus, HPE's gpt-oss-20b on 16 GB300, NVIDIA's 8B "
          "on 1,024 GB200; Tucano 160m / 1b1 / 2b4 on 8 / 16 / 16 A100, card hours; session 24, before any change) "
          "-18.1 / -23.2 / -1.4 / +6.4 / -5.1 / +24.5 / -45.7 / +66.1 / +87.8 / +30.2%: 23.9% (1.88x, H198);\n"
          "  H200-H208 (MLPerf v6.0 submitters and systems no row had used: CoreWeave's 8B NVFP4 and "
          "gpt-oss-20b on 64 B200, 405B NVFP4 on 4,096 GB300, DeepSeek-V3 on 2,048 / 8,192 GB300; NVIDIA's "
          "gpt-oss-20b and 70B LoRA on 512 GB300; AMD's 8B MXFP4 on 8 MI355X; Krai's LoRA on 64 H200; session 25, "
          "before any change) -4.6 / +71.9 / +9.8 / -1.5 / +1.8 / -22.4 / +3.7 / -12.9 / +2.0%: 4.6% (1.72x, H201);\n"
          "  H209-H216 (MLPerf v6.0 submitters and systems no row had used: DeepSeek-V3 on 256 GB200 (Google) and on "
          "512 / 8,192 GB200 (NVIDIA), NVIDIA's 70B LoRA on 72 GB300 (26.04), Dell's 8B on 8 H200 NVL, Krai's LoRA on "
          "16 H200 and 16 GH200; the SEA-LIONv3 8B card on 64 H100; branch trainblind4, before any change) "
          "-7.8 / -11.1 / -39.2 / -4.5 / +2.6 / +4.7 / -19.5 / -29.4%: 9.5% (1.64x, H211);\n"
          "  H217-H218 (Cisco's 8B MXFP4 on 16 MI350X and NVFP4 on 16 B300; after the branch's MLA change) "
          "-30.9 / -3.3%;\n"
          "  H219-H223 (none from MLPerf: AI Singapore's SEA-LION docs - v2 8B and Gemma v3 9B on 64 H100, "
          "the v3 70B's stages on 64 H200 and 128 H100 - and Llama 3.3 Swallow 70B on 256 H100; branch trainblind5, "
          "before any change) -15.0 / -7.3 / +16.0 / +4.0 / -6.0%: 7.3% (1.18x, H219);\n"
          "  H224-H231 (none from MLPerf: Trinity Large 398B-A13B MoE on 2,048 B300, Hermes 4 14B / 70B / 405B "
          "SFT on 192 B200, Gradient's Llama 3 8B context-extension stages at 65K-1,048K on 8-512 L40S; branch "
          "trainblind6, before any change) +385.8 / -60.3 / -37.7 / -43.5 / -26.0 / -73.0 / +463.2 / +1390.1%: 66.7% "
          "(14.90x, H231);\n"
          "  H232-H235 (Gradient's Llama 3 70B context-extension stages at 65K-1,048K on 512 / 128 L40S; after the "
          "branch's context-parallel change) -83.5 / -73.9 / -46.0 / -65.8%: 69.9% (6.05x, H232);\n"
          "  H300-H302 (SEA-LION-v1 3B / 7B, MPT from scratch on 240 / 256 A100 40GB, 2023; NVIDIA's MLPerf v5.1 "
          "8B on 512 GB200; branch trainblind7, before any change) +10.4 / +25.9 / -34.3%: 25.9% (1.52x, H302);\n"
          "  H236-H240 (full SFTs from AI2's open-instruct: Olmo 3 7B one epoch on 8 H100; OLMo 2 7B on 16 H100, "
          "OLMo-core packed and DeepSpeed ZeRO-3 one unpacked example a micro-batch; Olmo 3 7B at 32K with CP2 "
          "Ulysses / ring on 32 H100; branch sftblind, before any change) +71.2 / -33.2 / -75.8 / +66.3 / +42.7%: "
          "66.3% (4.13x, H238);\n"
          "  H241-H245 (ms-swift's Megatron-SWIFT benchmark, packed 8K SFT on A800: Qwen2.5-14B on 8 with Megatron, "
          "DeepSpeed ZeRO-2 and ZeRO-3; Qwen3-30B-A3B on 16 with Megatron TP2 EP8 and ZeRO-3; branch sftblind, no "
          "change reaching them) +3.1 / +155.0 / +58.1 / -66.9 / -95.7%: 66.9% (23.49x, H245);\n"
          "  H246-H248 (the same table's Qwen1.5-MoE-A2.7B on 8 A800: Megatron PP2 EP4, DeepSpeed ZeRO-2, ZeRO-3) "
          "-1.7 / -27.5 / -87.3%: 27.5% (7.88x, H248);\n"
          "  H330-H343 (prime-rl's SFT benchmarks: Qwen3-0.6B on one H100 / RTX A6000, Qwen3-4B on 8 H100 / H200 / "
          "B200 at 16K and 8 B200 at 64K, Qwen3-30B-A3B on 8 H200; NeMo AutoModel's LoRA table: Llama 3.1 8B and "
          "Qwen2.5-7B on one H100, Llama 3.3 70B and Qwen2.5-32B at TP2 on 8 and 16 H100; branch sftblind2, before "
          "any change) +3.4 / +45.0 / +23.8 / -10.7 / -9.3 / -47.4 / -56.9 / -22.0 / +64.0 / +81.7 / +5.7 / "
          "+16.6 / -4.6 / +7.6%: 19.3% (2.32x, H336);\n"
          "  H350-H353 (whole-run cards and reports: Phi-3-small on 1,024 H100 for 18 days, GRIN-MoE on 512 H100 for "
          "18 days, abacaj's llama-161M on 8 RTX 3090 for ~110 h, NT-Java-1.1B on 6 A100 for 12 days; branch "
          "trainblind9, before any change) -57.3 / +10.1 / +13.4 / +23.7%: 18.5% (2.34x, H350); without the conditions "
          "-57.3 / -20.7 / +13.4 / +36.1%: 28.4%;\n"
          "  H360-H373 (NeMo AutoModel's pre-training table on H100: DeepSeek-V3 on 1,024 / 256, Kimi K2 on 256, "
          "Qwen3-30B-A3B and gpt-oss-20b on 8, gpt-oss-120b and Llama 3.1 70B on 64; MLPerf Llama 2 70B LoRA on 4 / "
          "8 / 16 / 32 GB200, 16 / 128 B200, 16 MI325X; branch trainblind10, before any change) +17.0 / +199.5 / "
          "+244.2 / +158.4 / +141.3 / +208.2 / +0.7 / -3.5 / -13.8 / -13.4 / -11.4 / +17.6 / -3.7 / -6.2%: 15.4% "
          "(3.44x, H362); without the conditions 9.6% (17.05x, H363);\n"
          "  H374-H388 (NVIDIA's DGX Cloud Benchmarking recipes, NeMo 24.12 / 25.04: Llama 3.1 405B on 576 / 2,304 / "
          "512 H100 and 128 / 512 GB200, 70B on 2,048 / 64 H100, 8B on 128 H100, Grok-1 on 2,048 / 512 H100 and 256 "
          "GB200, DeepSeek-V3 on 1,024 H100 and 128 GB200, Llama 4 Maverick on 128 GB200 and 512 H100; branch "
          "trainblind11, before any change) +7.2 / -3.9 / -9.7 / -4.7 / +5.3 / -23.6 / -22.9 / +2.0 / -14.3 / +14.6 / "
          "-1.1 / -39.3 / -74.7 / -26.4 / -20.8%: 14.3% (3.95x, H386); without the conditions 26.0% (2.57x, H386);\n"
          "  H389 (the same recipes' Llama 3 70B full SFT, packed 4K, TP4 PP4 VP5 on 32 H100; branch trainblind11, "
          "second batch, before any change) +7.4%; without the conditions +44.6%;\n"
          "  H390-H402 (the same recipes: Nemotron-H 56B FP8 on 32 / 128 / 512 / 2,048 H100, Nemotron-4 15B on 64 / "
          "1,024 H100, 340B on 128 / 2,048 H100 and 128 / 512 GB200, Llama 3 70B SFT FP8 and LoRA on 32 / 8 / 32 H100; "
          "branch trainblind12, before any change) +6.1 / -18.1 / -18.3 / -18.9 / -2.4 / +0.5 / +5.2 / -22.8 / -36.0 / "
          "-25.5 / +13.8 / +2.1 / +5.9%: 13.8% (1.56x, H398); without the conditions 13.4% (1.67x, H396);\n"
          "  H403-H420 (none from NVIDIA or MLPerf: IBM's fms-fsdp - a Llama 2 7B replica's 2.2T tokens on 128 A100, "
          "its README's Llama 2 7B / 13B / 34B / 70B FSDP throughput on 128 A100 80G and 96 H100 compiled and before "
          "torch.compile - and Bamba-9B's 2T tokens on 192 A100; branch trainblind13, before any change) +11.8 / "
          "+14.5 / +31.0 / +19.2 / +21.2 / -3.8 / +14.1 / -2.0 / -3.6 / -6.9 / +9.7 / +1.8 / +9.4 / -24.8 / "
          "-10.6 / -17.0 / -13.3 / -18.9%: 12.5% (1.33x, H416); without the conditions 12.2% (1.40x, H404);\n"
          "  H421-H443 (NVIDIA/NeMo's own 24.07 performance summary on DGX-H100 in FP8 - GPT-3 5B / 20B / 175B, "
          "Llama 2 7B / 13B / 70B, Nemotron 8B / 22B / 340B, Llama 3 8B / 70B pretraining, Llama 2 SFT and LoRA - and "
          "ServiceNow's Fast-LLM: Mistral-7B and Llama 3.1 8B on 32 H100, SmolLM2-135M on 8 H100 / A100 / V100; branch "
          "trainblind14, before any change) +15.5 / +12.5 / -7.7 / +11.4 / +15.0 / +23.4 / +7.4 / -2.3 / -13.9 / "
          "+9.2 / +6.1 / -7.3 / +17.0 / +26.3 / +514.0 / +40.4 / +41.2 / +10.8 / +17.6 / +51.1 / +153.5 / +146.6 / "
          "-13.0%: 15.0% (6.14x, H435); without the conditions 35.3% (6.81x, H435);\n"
          "  H444-H455 (MLPerf v5.0 / v5.1 Llama 2 70B LoRA systems no row had used: 8 B200 (NVIDIA, GigaComputing, "
          "Dell v5.1), 512 / 8 GB200, 8 MI300X (Dell, MangoBoost), 8 / 16 H200 (Dell), 8 MI325X (MangoBoost, MiTAC); "
          "a GPT-2 124M speedrun on one RTX 4090; branch trainblind15, before any change) +3.2 / -27.1 / +3.1 / "
          "-16.9 / -18.8 / +8.5 / -2.7 / -3.8 / +20.9 / +14.9 / +13.3 / +34.6%: 14.1% (1.37x, H455); without the "
          "conditions 21.5% (2.53x, H455);\n"
          "  H456-H459 (MLPerf v4.0 / v4.1 Llama 2 70B LoRA systems no row had used: NVIDIA's 1,024 H100 (TP4 CP2) "
          "and 8 H200, Dell's 4 H100, Intel's 8 Gaudi2 with optimum-habana on DeepSpeed ZeRO-3; branch trainblind15, "
          "second batch, after its GEMM-clock change, which reaches none of them) -45.0 / +5.2 / -4.0 / +112.7%: 25.1% "
          "(2.13x, H459); without the conditions 19.9% (1.32x, H457);\n"
          "  H460-H474 (XTuner's speed benchmark and sequence-parallel guide: full SFT of Llama 2 7B / 70B and "
          "Yi-34B on 8-64 A100 at 8K-1M tokens, DeepSpeed with Ulysses-style sequence parallelism; branch "
          "trainblind16, before any change) +58.8 / +62.4 / +51.9 / +48.0 / +29.8 / +9.4 / +42.0 / +36.6 / +5.7 / "
          "-5.0 / +60.6 / +32.4 / -8.7 / -1.1 / +23.5%: 32.4% (1.62x, H461); without the conditions 11.5% (1.58x, "
          "H469);\n"
          "  H475-H483 (XTuner's Megatron MoE benchmark: Qwen3-235B-A22B on 256 H800 with Pai-Megatron-Patch, nine "
          "TP / EP / PP / recompute layouts; branch trainblind16, before any change) +25.1 / +50.6 / -34.1 / -9.4 / "
          "-1.5 / +15.9 / +5.7 / +14.2 / +12.7%: 14.2% (1.52x, H477); without the conditions 11.1% (1.58x, H476);\n"
          "  H484-H500 (NVIDIA/NeMo's long-sequence table: Llama 2 7B on 4-1,024 H100 at 4K-1M tokens, NeMo 24.03, "
          "and Llama 3 8B on 2-256 B200 at 8K-1M, NeMo 25.04, FP8, each with its TP / PP / CP / DP; branch "
          "trainblind17, before any change) +17.2 / +3.4 / -11.5 / -23.9 / -33.0 / -33.1 / -30.3 / -26.2 / -27.2 / "
          "+3.1 / -0.7 / -13.3 / -21.2 / -27.1 / -27.9 / -26.7 / -27.1%: 26.2% (1.50x, H489); without the "
          "conditions 16.9% (1.38x, H489)")
    dec = report("Decode tokens/s vs published measurements", "t/s", decode_cases(kb, args.validation), args.all)
    single = report("Single-stream tokens/s, software named (tests/data/decode_published.csv)", "t/s",
                    single_stream_cases(kb), args.all)
    # session 11's single-stream rows (ids E..: TensorRT-LLM's DeepSeek-R1 best-practice doc on B200/H200, InferenceX's
    # gpt-oss-120b on MI300X, gpt-oss-20b with llama.cpp on RTX 5090/3090, DeepSeek-R1 on two 8 x H100 nodes with
    # SGLang): a file of its own, not gated by a test; blind figures in the validation README
    independent = single_stream_cases(kb, DECODE_INDEPENDENT)
    report("Single-stream tokens/s, independent rows (validation/decode_independent.csv)", "t/s", independent, True)
    # session 18's blind round (ids B..: treeru.com's SGLang 0.5.8 single requests on an RTX PRO 6000, Qwen3 dense
    # BF16/AWQ, Qwen3-30B-A3B, Gemma-3-12B and Phi-4 AWQ; ik_llama.cpp's DeepSeek-R1 Q8_0 on 16 x RTX 3090)
    report("  of which the rows added at session 18 (ids B..; blind figures in the validation README)", "t/s",
           [c for c in independent if c[0].startswith("B")], False)
    # session 26's blind rounds: ids DQ.. (SGLang cookbook pages, MiniMax-M2.x, Qwen3-Coder-480B, ERNIE-4.5 on
    # MI300X, B200, H100, GB300) and ids DV.. (llama.cpp and Ollama: imp's RTX 5090 re-sweep, hkadm/ollama_gpu_test,
    # ollama issue #9701) and ids DR.. (AMD's own batch-1 latency tables: vLLM on 8 x MI300X, and the TensorRT-LLM
    # 0.16 H100 column beside them); branch decodeblind7's ids DZ.. (AMD's llama.cpp b6652 blog, LMSYS's SGLang
    # MTP blog); branch decodeblind8's ids DX.. (one DGX Spark: llama.cpp benches/dgx-spark.md at build 6918,
    # LMSYS's DGX Spark review with SGLang, vLLM 0.15.1 and a source build in dgx-spark-playbooks #79 and
    # spark-arena #17); branch decodeblind9's ids DY.. (GLM-4.5-Air on 2 x RTX A6000 in ik_llama.cpp #700, imp's
    # cross-engine bench on an RTX 5090, MiniMax-M2.5 NVFP4 on 4 x RTX PRO 6000 in ambientlight/rtx-pro-6000-bench);
    # branch decodeblind10's ids DW.. (6/model-workbench's Dec 2025 runs on one and two RTX PRO 6000 Max-Q: vLLM 0.12 /
    # 0.13, TensorRT-LLM 1.2.0rc5 and llama.cpp, gpt-oss, Qwen3-30B-A3B / 235B-A22B, GLM-4.5-Air, MiniMax-M2);
    # branch decodeblind11's ids DT.. (flash7777/vllm-marlin-sm12x: vLLM Qwen3-Coder-30B-A3B in BF16 / FP8 / NVFP4 /
    # INT4 and Qwen3-Coder-Next INT4 on one GB10 and one RTX PRO 6000; Qwen3-4B on an RTX 4090; gpt-oss-20b on a P40);
    # branch decodeblind13's ids SU.. (GLM-4.7 / Qwen3.5-397B on 4 x RTX PRO 6000 Max-Q in AlexGS74/glm47-nvfp4-sm120,
    # Qwen3-Next on A100 in llama.cpp #19365, GLM-5.1-FP8 on 8 x MI300X in SGLang #30812, vLLM / TensorRT-LLM 8-9B
    # models and Qwen2.5-32B on H100 and RTX PRO 6000 Max-Q in waynehacking8/trtllm-triton-serving); branch
    # decodeblind29's ids DF.. (kubesimplify/website: vLLM 0.27.1 TP / EP / PP on 2 and 4 RTX PRO 6000 Server Edition
    # cards without NVLink; one GB10 under vLLM, SGLang, TensorRT-LLM and llama.cpp; infervisor/plow's vLLM baselines of
    # Gemma 4 31B on 2-8 MI350X at 1K-64K contexts and Gemma 4 26B-A4B on one H100)
    for ids, when, where in (("DQ", "session 26", "SGLang cookbook"), ("DV", "session 26", "llama.cpp and Ollama"),
                             ("DR", "session 26", "vLLM on MI300X, TensorRT-LLM on H100: ROCm's tables"),
                             ("DZ", "branch decodeblind7", "llama.cpp and SGLang on 8 x MI300X: AMD's, LMSYS's blogs"),
                             ("VC", "branch serveblind8", "vLLM 0.12.0 on 4 x B200: Vultr's inference cookbook"),
                             ("DX", "branch decodeblind8", "one GB10: llama.cpp's benches, LMSYS, vLLM issues"),
                             ("DY", "branch decodeblind9", "RTX A6000 / 5090 / PRO 6000: llama.cpp PR threads, vLLM"),
                             ("DW", "branch decodeblind10", "1-2 x RTX PRO 6000 Max-Q: vLLM, TensorRT-LLM, llama.cpp"),
                             ("DT", "branch decodeblind11", "GB10 / RTX PRO 6000 vLLM by format, RTX 4090, P40"),
                             ("SU", "branch decodeblind13", "4 x PRO 6000 Max-Q, A100 llama.cpp, MI300X, H100"),
                             ("DF", "branch decodeblind29", "PRO 6000 Server TP / PP, GB10, Gemma 4 on MI350X / H100")):
        report(f"  of which the rows added at {when} (ids {ids}..; {where}; blind figures in the README)", "t/s",
               [c for c in independent if re.match(rf"{ids}\d", c[0])], False)
    # the later rounds of DE.. ids, each a range: decodeblind23 (DE31-DE56: Kimi-K2.5 on 8 x H100 under vLLM 0.15.0,
    # Qwen3.6-27B FP8 on 4 x L4 under vLLM 0.21.0, Qwen2.5 / Qwen3 dense and Qwen3-30B-A3B under transformers generate()
    # on one H100 NVL; premAI's batch-1 tables on one A100: Llama 2 / Mistral 7B under transformers, vLLM 0.4.0,
    # ExLlamaV2, llama-cpp-python); decodeblind24 (DE57-DE65: DeepSeek-R1 FP8 on 8 x MI350X under ROCm vLLM 0.11.2;
    # gpt-oss-20b / 120b on one H100 under SGLang 0.5.1's bench_one_batch_server; Qwen3.6-27B FP8 on one H100 under vLLM
    # 0.21; Qwen3.6-35B-A3B Q4 on one L40S under llama.cpp b8833); decodeblind25 (DE66-DE67: Qwen3-30B-A3B-2507 FP8 on 2
    # x L40S and Qwen3-235B-A22B-2507 FP8 on 8 x L40S under vLLM 0.10.2 with expert parallel, one streaming request at a
    # time: tim-roethig/ai-platform); sparkblind57 (DE68-DE88: djangodevreng/dgx-spark-benchmarks' 03-long-output runs
    # at concurrency 1: one DGX Spark (GB10) under vLLM 0.26.0, Gemma 4, gpt-oss-20b, Ministral 3, Nemotron 3 Nano,
    # Qwen3.5 / 3.6 / 3.8); decodeblind26 (DE89-DE90: Qwen3.6-27B Q4_K_M under llama.cpp on one RTX 3090 (InsiderLLM,
    # b9079) and one RTX 4090 (jaigouk's gpumod log, b8838)); decodeblind27 (DE91-DE98: llama-bench tg20 of Qwen3.8-27B
    # Q4_K_M, a Qwen3.5-9B-architecture Q8_0 and Qwen2.5-0.5B Q4_K_M on H100 SXM / H100 NVL / L40S:
    # deven367/agent-handoffs; Gemma 4 26B-A4B Q4_K_M on RTX 3090 / RTX 5090: smeltcore's recipes); decodeblind28
    # (DE99-DE116: Qwen3-8B BF16 and online FP8 at concurrency 1 on one H100 SXM under vLLM 0.30.0 at five request
    # shapes, tgarg01/silybench-data; llama-bench tg128 of Llama 2 7B Q4_0, Llama 3.3 70B / Mistral NeMo 12B /
    # Qwen3-30B-A3B Q4_K_M on one RTX PRO 6000 Workstation, build 6413, and Llama 2 7B Q4_0 on one and eight MI300X
    # under the ROCm build 3891, Llama 2 70B Q4_K_M / Q8_0 on one A100 of Nov 2023, AUGMXNT/llm-tracker.info-vault);
    # llamaformat59 (DE117-DE130: Llama 3 8B Q4_K_M / F16 and 70B Q4_K_M, llama-bench tg512 on one A100 SXM / A100 PCIe
    # / H100 PCIe / L40S at builds 2834-2843, XiongjieDai/GPU-Benchmarks-on-LLM-Inference's May 2024 notebooks)
    for branch, lo, hi, what in (
            ("decodeblind23", 31, 56, "ids DE31..; vLLM, transformers, ExLlamaV2, llama.cpp on H100 / L4 / A100"),
            ("decodeblind24", 57, 65, "ids DE57..; vLLM on MI350X / H100, SGLang on H100, llama.cpp on L40S"),
            ("decodeblind25", 66, 67, "ids DE66-DE67; vLLM 0.10.2 on 2 / 8 x L40S"),
            ("sparkblind57", 68, 88, "ids DE68..; vLLM 0.26.0 on one GB10"),
            ("decodeblind26", 89, 90, "ids DE89-DE90; llama.cpp on one RTX 3090 / 4090"),
            ("decodeblind27", 91, 98, "ids DE91-DE98; llama.cpp on H100 SXM / NVL, L40S, RTX 3090 / 5090"),
            ("decodeblind28", 99, 116, "ids DE99..; vLLM 0.30.0 on H100, llama.cpp on RTX PRO 6000 / MI300X / A100"),
            ("llamaformat59", 117, 130, "ids DE117..; llama.cpp by weight format on A100 / H100 PCIe / L40S")):
        report(f"  of which the rows added at branch {branch} ({what}; blind figures in the README)", "t/s",
               [c for c in independent if re.match(r"DE(\d+)\b", c[0]) and lo <= int(c[0][2:].split()[0]) <= hi],
               False)
    lat: list = []
    serve = report("Serving throughput at load (tests/data/serving_published.csv)", "t/s",
                   serving_cases(kb, latency=lat), args.all)
    report("Serving latency, TPOT and TTFT (tests/data/serving_published.csv)", "ms", lat, args.all)
    lat_ind: list = []
    # the independent rows are the ones the goals are checked on: every row is printed, with median and worst
    report("Serving at a stated concurrency, independent sources (validation/serving_independent.csv)", "t/s",
           serving_cases(kb, INDEPENDENT, latency=lat_ind), True)
    report("Serving latency, independent sources (validation/serving_independent.csv)", "ms", lat_ind, True)
    lat_rate: list = []
    # runs at a stated request rate (ids RQ..: Poisson arrivals, no concurrency cap), through the rate model; blind
    # figures in the validation README
    rate_all = rate_cases(kb, latency=lat_rate)
    report("Serving at a stated request rate (validation/serving_rate.csv; the rate model)", "t/s", rate_all, True)
    for ids, throughput_label in RATE_ROUNDS:
        ours = re.compile(rf"{ids}\d").match
        report(throughput_label, "t/s", [c for c in rate_all if ours(c[0])], False)
    report("Serving latency at a stated request rate (validation/serving_rate.csv; mean and p95)", "ms", lat_rate,
           True)
    for who, ids in (("serveblind29 (ids RT41-RT60)", r"RT(?=4[1-9]|5|60)"),
                     ("sparkrate57 (ids RT61-RT80)", r"RT(?=6[1-9]|7|80)"),
                     ("decodeblind26 (ids RT81-RT95)", r"RT(?=8[1-9]\b|9[0-5]\b)"),
                     ("serveblind32 (ids RT96-RT120)", r"RT(?=9[6-9]\b|1[01]\d\b|120\b)")):
        mine = [c for c in lat_rate if re.match(ids + r"\d", c[0])]
        report(f"  of which the rows added by {who}: latency", "ms", mine, False)
    # the mlperfinf round's Server rows (ids ML..: MLPerf Inference loadgen's Poisson arrivals at the scheduled rate)
    ml_rate = [c for c in rate_all if re.match(r"ML\d", c[0])]
    report("  of which the MLPerf Inference Server rows (ids ML..; blind figures in the validation README)", "t/s",
           ml_rate, False)
    report("  of which the MLPerf Inference Server rows (ids ML..): latency", "ms",
           [c for c in lat_rate if re.match(r"ML\d", c[0])], False)
    # the mlperfinf2 round's Server rows (ids MP..), reported apart from ML's
    report("  of which the mlperfinf2 MLPerf Inference Server rows (ids MP..; blind figures in the validation README)",
           "t/s", [c for c in rate_all if re.match(r"MP\d", c[0])], False)
    report("  of which the mlperfinf2 MLPerf Inference Server rows (ids MP..): latency", "ms",
           [c for c in lat_rate if re.match(r"MP\d", c[0])], False)
    new_lat: list = []
    new_thr_all = serving_cases(kb, INDEPENDENT, latency=new_lat)
    for ids, throughput_label, latency_label in SERVING_ROUNDS:
        ours = re.compile(rf"{ids}\d").match  # D.. is not DS..
        report(throughput_label, "t/s", [c for c in new_thr_all if ours(c[0])], False)
        if latency_label:
            report(latency_label, "ms", [c for c in new_lat if ours(c[0])], False)
    # the goals of the physics issue: GPU-hours median <= 15% and serving/decode median <= 20%, no row off
    # by more than 2x (the held-out rows are reported above; this verdict covers the summarised sets)
    print("\nTargets: memory mean <= 10%, worst <= 25%; GPU-hours median <= 15% (both sets) and every "
          "training_runs.csv run with a published GPU count within 2x;\n decode median <= 20% (validation, "
          "and single-stream with the software named); serving "
          "throughput at load median <= 20%")
    within_2x = all(label.split()[0] not in counted for label, _ in beyond)
    ok = (mem["mean_abs_error"] <= 0.10 and mem["max_abs_error"] <= 0.25 and train["median_abs_error"] <= 0.15
          and runs["median_abs_error"] <= 0.15 and within_2x and dec["median_abs_error"] <= 0.20
          and single["median_abs_error"] <= 0.20 and serve["median_abs_error"] <= 0.20)
    print("all targets met" if ok else "a target is missed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
