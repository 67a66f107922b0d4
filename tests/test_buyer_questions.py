"""Held-out buyer questions of issue 22, asked as a user asks them: through the command line
(``gpuwise estimate``/``audit``) on the files in tests/data/buyer_questions/ (its README gives each
published range and its primary source). A range is the span of the published figures for the
same conditions; a single published figure is held within issue 22's 20% goal. A range the model
does not meet yet is an expected failure (strict) that names its cause: it is never widened.

One computation per question, kept for the module (:func:`_ask`)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from tests.clirun import gpuwise

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one search per question

Q = Path(__file__).parent / "data" / "buyer_questions"
WITHIN = 0.20  # issue 22: serving and decode within 20% (median); a single figure is held to it


@functools.cache
def _ask(*args: str) -> tuple[int, str]:
    r = gpuwise(*args)
    assert r.returncode in (0, 1), r.stderr
    assert "Traceback" not in r.stderr
    return r.returncode, r.stdout


def _estimate(name: str, gpu: str, count: int) -> dict:
    code, out = _ask("estimate", str(Q / f"{name}.yaml"), "--gpu", gpu, "--gpus", str(count), "--format", "json")
    assert code == 0
    return json.loads(out)["gpu"]


def _near(got: float, published: float) -> bool:
    return published * (1 - WITHIN) <= got <= published * (1 + WITHIN)


# ------------------------------------------------------------------ (a) big MoE on one 8-GPU node

def test_r1_fp8_h200_node_single_stream_on_a_2025_sglang_release():
    """sgl-project/sglang issue #3956 (Mar 2025): DeepSeek-R1 FP8 on one 8 x H200 server, SGLang
    v0.4.3.post4 --tp 8, a request at short context generates at 30 tok/s; sgl-project/sglang pull request
    #2643 (v0.4.1.post2): DeepSeek-V3 on 8 x H200, 30.29 tok/s at batch 1. 2025 releases: 20-35 tok/s.

    Was 35.7 tok/s (a strict xfail, 2% past the top). Those releases ran an MLA model on SGLang's Triton decode
    attention unless told otherwise (model_runner.py of the 0.4.1.post7-0.4.5 wheels: 'MLA optimization is turned
    on. Use triton backend.'; knowledge/serving.yaml sglang triton_decode_walk mla_default_before 0.4.5.post1), whose
    8 programs walk the one latent head at 5.25 GB/s each: a sequence holding 1,024 + 512 tokens x 576 x 2 B =
    1.77 MB a layer is read in 42 us, 61 layers 2.6 ms where the card's bandwidth read it in 0.03 ms: 32.8 tok/s."""
    g = _estimate("r1-fp8-sglang-2025-single", "h200", 8)
    assert 20 <= g["decode_tokens_per_s"] <= 35
    # the walk is priced (tests/test_sglang_mla_default_backend.py checks its time by hand)
    assert any(t["inputs"].get("kv_walk_bytes_per_s_per_kv_head") == 8 * 5.25e9 for t in g["terms"])


def test_r1_fp8_h200_node_single_stream_on_the_newest_sglang():
    """No framework_version: SGLang's newest release gpuwise knows (0.5.7 on). Published bounds of the same
    release line: SemiAnalysisAI/InferenceX pull request #3173 (SGLang v0.5.12, TP 8, 1k/1k on 8 x H200) has a
    mean TPOT of 11.73 ms at concurrency 8, so one stream runs at least 1/11.73 ms = 85 tok/s; the same
    release on 8 x B300 (InferenceX pull request #3175, a GPU with 8 TB/s to the H200's 4.8) runs one stream
    at 1/7.04 ms = 142 tok/s, which an H200 does not pass. Range 85-142 tok/s."""
    g = _estimate("r1-fp8-sglang-single", "h200", 8)
    assert g["fits"]
    assert 85 <= g["decode_tokens_per_s"] <= 142


def test_r1_fp8_h200_node_single_stream_on_tensorrt_llm():
    """NVIDIA/TensorRT-LLM issue #5929 (Jul 2025, v0.21.0rc2, TP 8 EP 8 on 8 x H200, 1,600 in / 600 out,
    batch 1, no MTP): p50 inter-token latency 11.0 ms = 91 tok/s."""
    g = _estimate("r1-fp8-trtllm-single", "h200", 8)
    assert _near(1 / g["serving"]["tpot_s"], 1 / 0.0110)


def test_r1_fp8_b200_node_single_stream_on_sglang_0_4_10():
    """sgl-project/sglang pull request #8638 (Aug 2025, SGLang 0.4.10, TP 8 on 8 x B200, random 1k/1k,
    concurrency 1): 80 output tok/s (bench_serving, the request's prefill included): the estimate's
    throughput at concurrency 1 counts it the same way."""
    g = _estimate("r1-fp8-sglang-0410-single", "b200", 8)
    assert _near(g["serving"]["throughput_tokens_per_s"], 80)


def test_r1_fp8_b200_node_single_stream_on_sglang_0_5_6():
    """SGLang cookbook DeepSeek-R1 speed benchmark (sgl-project/sglang docs_new/cookbook/autoregressive/DeepSeek/
    DeepSeek-R1.mdx): DeepSeek-R1-0528 FP8 on 8 x B200, sglang 0.5.6.post1 --tp 8, ~610 in / ~421 out,
    concurrency 1: mean TPOT 9.16 ms = 109.2 tok/s."""
    g = _estimate("r1-fp8-sglang-056-single", "b200", 8)
    assert _near(g["decode_tokens_per_s"], 1 / 0.00916)


@pytest.mark.xfail(strict=True, reason=(
    "17.0 ms against 22.05 ms (-23%; 17.2 ms at session 21). Not the borrowed constants (branch rocmsglang55): the "
    "figure is of a build no release shipped, a Jan 2026 ROCm build (0.5.7-0.5.9 era, aiter from before its per-"
    "shape gfx942 GEMM configs) with the one shape N=2112 K=7168 tuned by the pull request itself; q_b and o_proj "
    "still walked aiter's default Triton config until aiter #2024 (0.5.10's image). At 0.5.8 gpuwise gives 27.1 ms "
    "(the pull request's before-figure 28.76, -6%) and, less the tuned shape's 6.58 ms walk, 20.5 ms (-7%); an "
    "unpinned question is priced as the current build, which runs this step faster (InferenceX, 0.5.12 on 8 x "
    "MI300X at c=8, 922/922: 17.42 ms, where this build's c=8 took 25.56; row NB07, gpuwise +17% there). No release"
    " states the after-state, so neither pin passes: tests/test_serving_rocm_block_fp8_walk.py, validation README"))
def test_r1_fp8_mi300x_node_time_per_token_at_four_users():
    """ROCm/aiter pull request #1930 (Jan 2026, after the A8W8 block-scale GEMM tuning): DeepSeek-R1 FP8 served
    by SGLang on 8 x MI300X (TP 8), random 1k/1k, concurrency 4: median TPOT 22.05 ms."""
    g = _estimate("r1-fp8-sglang-c4", "mi300x", 8)
    assert _near(g["serving"]["tpot_s"], 0.02205)


def test_r1_fp8_does_not_fit_one_h100_node():
    """DeepSeek-R1's FP8 checkpoint is 688.6 GB (model.safetensors.index.json total_size), more than 8 x 80 GB:
    a one-node H100 deployment needs a 4-bit checkpoint (dzhsurf/deepseek-v3-r1-deploy-and-benchmarks: 'with
    8xH100 GPUs offering a total of 640GB VRAM, this setup falls short') or two nodes (Azure HPC blog,
    'Performance analysis of DeepSeek R1 AI inference using vLLM on ND-H100-v5': two ND_H100_v5 nodes were
    required). gpuwise: does not fit, no feasible option (exit 1), and no speed figure for that node."""
    g = _estimate("r1-fp8-sglang-single", "h100-80gb-sxm", 8)
    assert g["fits"] is False
    assert g["decode_tokens_per_s"] is None
    assert g["serving"]["max_throughput_tokens_per_s"] == 0
    code, out = _ask("recommend", str(Q / "r1-fp8-8xh100-recommend.yaml"), "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["recommendation"] is None
    eight = [c for c in d["candidates"] if c["count"] == 8]
    assert eight and not any(c["feasible"] for c in eight)


def test_r1_fp8_h200_node_peak_within_the_published_bracket():
    """One node's output at full load, SGLang, 1k/1k: at least what InferenceX measured at concurrency 64
    (pull request #3173: 2,078 tok/s, not yet the peak), at most DeepSeek's own production figure per node
    (deepseek-ai/open-infra-index, 'DeepSeek-V3 / R1 Inference System Overview', day 6: ~14.8k output tok/s per
    H800 decode node, with prefill disaggregated and expert parallelism over many nodes, which one node does
    not have). Both the reported peak (tensor parallel 8) and the labelled best layout lie inside."""
    s = _estimate("r1-fp8-sglang-peak", "h200", 8)["serving"]
    assert 2078 <= s["max_throughput_tokens_per_s"] <= 14_800
    assert 2078 <= s["best_layout"]["max_throughput_tokens_per_s"] <= 14_800


@pytest.mark.xfail(strict=True, reason=(
    "16,740 against 12,960 (+29%; 16,745 at session 21): the validation README's Y04 (DEP8 holds 4,464 sequences "
    "in the model; at the "
    "run's 3,000, +29.4%); scored as the burst trtllm-bench runs it, +45%, so R1's block-FP8 step on Hopper costs "
    "more than the model carries (README, 'The TensorRT-LLM maximum-load misses Y16 and Y04 reread'); the serving "
    "helper's to settle (estimators/serving)"))
def test_r1_fp8_h200_node_peak_on_tensorrt_llm():
    """NVIDIA TensorRT-LLM performance overview (docs/source/developer-guide/perf-overview.md, late-2025
    edition): DeepSeek-R1-0528 FP8 on 8 x H200, attention data parallel 8 + expert parallel 8, FP8 KV cache,
    trtllm-bench with 3,000 requests of 1k/1k queued at once: 1,620 output tok/s per GPU = 12,960."""
    s = _estimate("r1-fp8-trtllm-peak", "h200", 8)["serving"]
    assert _near(s["throughput_tokens_per_s"], 12_960)


def test_qwen3_235b_bf16_b200_node_single_stream():
    """SGLang on 8 x B200, Qwen3-235B-A22B BF16, TP 8, one request: TPOT 10.12 ms = 98.8 tok/s (SGLang
    cookbook Qwen3 speed benchmark, sglang 0.5.6) to 6.70 ms = 149.25 tok/s (BenHamm's 'SGLang B200 Benchmark
    Sweep' gist, v0.5.8.post1). Range 98.8-149.25 tok/s."""
    g = _estimate("qwen3-235b-bf16-sglang-single", "b200", 8)
    assert 98.8 <= g["decode_tokens_per_s"] <= 149.25


@pytest.mark.xfail(strict=True, reason=(
    "8,614 against 15,480 (-44%; 8,656 at session 21): the validation README's Y16, the worst maximum-load row. "
    "Not KV capacity (3,000 "
    "sequences need 74 GB of FP8 KV per H100, which has 48 GB beside its weights): the estimator reads 3,000 "
    "requests as a closed loop whose every step carries a prompt (eager, 192 ms), where trtllm-bench queues them "
    "at once with equal lengths (as a burst in waves: +7.6%); a workload key for that is the serving helper's "
    "(README, 'The TensorRT-LLM maximum-load misses Y16 and Y04 reread')"))
def test_qwen3_235b_fp8_h100_node_peak_on_tensorrt_llm():
    """TensorRT-LLM performance overview (late-2025 edition): nvidia/Qwen3-235B-A22B-FP8 on 8 x H100, DEP8,
    3,000 requests of 1k/1k queued at once: 1,935 output tok/s per GPU = 15,480."""
    s = _estimate("qwen3-235b-fp8-trtllm-peak", "h100-80gb-sxm", 8)["serving"]
    assert _near(s["throughput_tokens_per_s"], 15_480)


def test_llama4_maverick_fp8_h200_node_peak_on_tensorrt_llm():
    """TensorRT-LLM performance overview (late-2025 edition): nvidia/Llama-4-Maverick-17B-128E-Instruct-FP8 on
    8 x H200, DEP8, 3,000 requests of 1k/1k: 4,180 output tok/s per GPU = 33,440."""
    s = _estimate("maverick-fp8-trtllm-peak", "h200", 8)["serving"]
    assert _near(s["throughput_tokens_per_s"], 33_440)


@pytest.mark.parametrize(("name", "tpot_ms"), [
    ("maverick-bf16-sglang-single", 5.95),  # Llama-4-Maverick BF16
    ("scout-bf16-sglang-single", 7.49),  # Llama-4-Scout BF16
])
def test_llama4_mi300x_node_time_per_token_of_one_user(name, tpot_ms):
    """SGLang cookbook Llama 4 speed benchmark (sglang 0.5.9 ROCm, 8 x MI300X, --tp 8, ~610 in / ~422 out,
    concurrency 1): mean TPOT 5.95 ms (Maverick) and 7.49 ms (Scout)."""
    g = _estimate(name, "mi300x", 8)
    assert _near(g["serving"]["tpot_s"], tpot_ms / 1000)


def test_gpt_oss_120b_h100_node_single_stream():
    """LMSYS blog 'SGLang for gpt-oss' (2025-08-27): gpt-oss-120b MXFP4 on 8 x H100, bench_one_batch_server at
    batch 1, 1k in / 512 out: 318.53 tok/s of decode."""
    g = _estimate("gpt-oss-120b-sglang-single", "h100-80gb-sxm", 8)
    assert _near(g["decode_tokens_per_s"], 318.53)


def test_gpt_oss_20b_one_rtx_4090_llama_cpp():
    """llama-bench tg128 of gpt-oss-20b MXFP4 on one RTX 4090: 167.01 tok/s (ggml-org/llama.cpp pull request
    #16649, CUDA, Oct 2025) to 279.65 tok/s (geerlingguy/ai-benchmarks issue #43, Vulkan build 7340, Dec 2025).
    Range 167-280 tok/s."""
    g = _estimate("gpt-oss-20b-llamacpp-single", "rtx-4090", 1)
    assert 167.01 <= g["decode_tokens_per_s"] <= 279.65


# ------------------------------------------------------------------ (b) an offloaded fine-tune

def _step(name: str, gpu: str, count: int) -> dict:
    return _estimate(name, gpu, count)["training"]["step_terms"]


def test_offloaded_fine_tune_shows_the_published_slowdown():
    """DeepSpeed issue #3901 (deepspeedai/DeepSpeed, Jul 2023): a Hugging Face model (Falcon-7B) fine-tuned at
    4k context on 8 x A100-40GB: 2.86 s a step with ZeRO-3, 13.70 s with ZeRO-3 offloading the optimizer and the
    parameters to the CPU: 4.8x. Asked for Llama-3.1-8B on the same cards at one sequence per GPU a step (the
    question's reading: the issue's batch is in its attached reproduction, not its body), a Hugging Face model (stack
    fsdp-hf: the speed class is the model code's, whichever engine shards it; the offload is then PyTorch FSDP's, not
    the issue's DeepSpeed engine). It reads 4.18x (-13%) since branch hfmiddle60 (3.20x while the class was 0.70),
    from two misses that offset: the plain step at the middle (compute 1.548 s + 0.006 s of exposed gathers + 0.024 s
    of optimizer = 1.578 s against 2.86 s) and FSDP's offload, which adds 5.02 s (host Adam 4.92 s, the parameter
    moves hidden behind the compute: runtime.yaml training_stacks fsdp-hf offload_prefetch) where the issue's
    DeepSpeed 0.9.5 offload adds 10.84 s (the question below prices that engine)."""
    off = _step("finetune-8b-zero3-8xa100-cpu", "a100-40gb-sxm", 8)
    plain = _step("finetune-8b-zero3-8xa100-none", "a100-40gb-sxm", 8)
    assert _near(off["step_s"] / plain["step_s"], 13.70 / 2.86)


@pytest.mark.xfail(strict=True, reason=(
    "reads 7.03x against 4.8x (+47%) since branch hfmiddle60 (5.18x while the Hugging Face class was 0.70): the "
    "offload adds 9.52 s against the issue's 10.84 s (-12%, the test below), but the plain ZeRO-3 step at one "
    "4,096-token sequence a GPU is 1.58 s at the middle against the published 2.86 s; the issue's batch is in its "
    "attached reproduction, not its body (validation README, branch dsstack54), so the plain step pins no class: "
    "tests/data/buyer_questions/README.md"))
def test_offloaded_fine_tune_slowdown_when_the_stack_is_named_deepspeed():
    """The same question with the stack written as a DeepSpeed user writes it, at the release the issue ran (0.9.5,
    the newest on 2023-07-07): `deepspeed` is DeepSpeed's ZeRO engine on a Hugging Face model, the model code's
    class (knowledge/runtime.yaml training_stacks deepspeed, as fsdp-hf: the issue's own ZeRO-3 and FSDP steps, 2.86
    and 2.93 s). Its ZeRO-3 copies each 16-bit gradient partition to pageable host memory and back
    a micro-batch and then, at the step, into the fp32 gradient through the CPU's upcast, and the backward waits for
    them (runtime.yaml zero3_offload_copies: stage3.py partition_grads, pull requests #6670, #6962 and #8207): a
    GPU's 1.004e9 parameters x (2 + 2 + 2 B) at 15.75 GB/s / 4.5 (PCIe 4.0 x16 shared by the GPU pair behind each
    switch uplink of an HGX A100, gpus.yaml link.host_uplink_gpus; pageable: pull request #5301, eight GPUs a server)
    = 1.72 s and the upcast's 6 B at an eighth of the host's 45.7 GB/s = 1.05 s; the weights, offloaded too, are
    fetched from the same pageable memory for the forward, the recomputed forward and the backward
    (step_time.weight_fetches: 1.004e9 x 3 x 2 B at 15.75 GB/s / 4.5 = 1.72 s) and return at 15.75 GB/s (0.13 s):
    11.80 s against 2.28 s, 5.18x of the published 4.8x (4.40x with a whole x16 link a GPU; 3.37x at the newest
    release, whose pinned copies hide behind the backward)."""
    off = _step("finetune-8b-zero3-8xa100-cpu-deepspeed", "a100-40gb-sxm", 8)
    plain = _step("finetune-8b-zero3-8xa100-none-deepspeed", "a100-40gb-sxm", 8)
    assert _near(off["step_s"] / plain["step_s"], 13.70 / 2.86)


def test_offloaded_fine_tune_adds_the_published_seconds_when_named_deepspeed():
    """What the offload itself adds, which the unstated batch does not move (the copies go with the parameters, not
    the tokens): DeepSpeed issue #3901's ZeRO-3 offload of the optimizer and the parameters, 13.70 - 2.86 = 10.84 s a
    step. Modelled on DeepSpeed 0.9.5 (the question above): the offload term 9.54 s (host Adam 4.92 s; the
    gradient partitions' pageable copies 1.72 s and the CPU's upcast 1.05 s the backward waits for; the weights'
    three pageable fetches 1.72 s and their return, runtime.yaml zero3_offload_copies) less the 0.024 s optimizer
    step the plain run does on the GPU = 9.52 s, -12%."""
    off = _step("finetune-8b-zero3-8xa100-cpu-deepspeed", "a100-40gb-sxm", 8)
    plain = _step("finetune-8b-zero3-8xa100-none-deepspeed", "a100-40gb-sxm", 8)
    assert _near(off["step_s"] - plain["step_s"], 13.70 - 2.86)
    assert off["offload_s"] - plain["optimizer_s"] == pytest.approx(off["step_s"] - plain["step_s"], abs=0.01)


def test_offloaded_step_says_which_part_is_pcie_and_which_host_adam():
    """The offloaded step's own term splits it: host Adam on the GPU's 8.03e9 / 8 parameters at the GPU's eighth of
    its server's CPU Adam rate (knowledge/runtime.yaml host_memory_gb_s: 45.7 GB/s / 28 B / 8 = 2.04e8 parameters/s,
    below its 12 cores' 4.08e8) = 4.92 s; PCIe the rest (16-bit gradients and ZeRO-3's weights, 8 B per parameter at
    one micro-batch a step)."""
    g = _estimate("finetune-8b-zero3-8xa100-cpu", "a100-40gb-sxm", 8)
    term = next(t for t in g["terms"] if t["name"] == "offload_seconds")
    parts = term["inputs"]
    assert parts["pcie_s"] > 0 and parts["host_adam_s"] > 0
    assert parts["pcie_s"] + parts["host_adam_s"] + parts["nvme_s"] == pytest.approx(g["training"]["step_terms"]
                                                                                      ["offload_s"])
    assert parts["host_adam_s"] == pytest.approx(8.03e9 / 8 / (45.7e9 / 28 / 8), rel=0.01)


def test_offloaded_fine_tune_report_agrees_with_its_own_formulas():
    """8B full fine-tune, ZeRO-3 with CPU offload on 2 x RTX 3090 (the question of issue 22): the scaling
    efficiency is (compute + optimizer + offload) / step time as its formula now says (it read '(compute +
    optimizer) / step time' beside 0.998 where that gives 0.785), and the utilisation row says it is the
    compute's, beside the whole run's."""
    g = _estimate("finetune-8b-zero3-offload-cpu", "rtx-3090", 2)
    s = g["training"]["step_terms"]
    eff = next(t for t in g["terms"] if t["name"] == "scaling_efficiency")
    assert "offload" in eff["formula"]
    assert eff["value"] == pytest.approx((s["compute_s"] + s["optimizer_s"] + s["offload_s"]) / s["step_s"])
    _, text = _ask("estimate", str(Q / "finetune-8b-zero3-offload-cpu.yaml"), "--gpu", "rtx-3090", "--gpus", "2")
    assert "Utilisation (MFU) while computing" in text and "Utilisation over the whole run" in text
    assert f"{round(100 * g['training']['mfu_whole_run'])}%" in text


# ------------------------------------------------------------------ (c) rented GPUs without the host RAM

def test_rented_4090s_without_the_ram_for_a_70b_offload_are_blocked():
    """Renting 8 x RTX 4090 on RunPod's Secure Cloud ($0.74/GPU-h) to fully fine-tune Llama-3.1-70B with ZeRO-3
    CPU offload: the host holds fp32 master weights and both Adam moments, 70.55e9 x 16 B / 0.8 usable =
    1,411 GB; the offer's server holds 512 GB (RunPod Secure Cloud Partner Requirements: 8 x 24 GB GPUs,
    >= 512 GB of RAM). Blocked by MEM-HOST-RAM-SHORT, exit 1, the RAM's origin said."""
    code, out = _ask("audit", str(Q / "proposal-rent-8x4090-70b-full-offload.yaml"), "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["verdict"] == "reject"
    short = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]
    assert short and short[0]["severity"] == "blocker"
    assert short[0]["evidence"]["host_ram_gb"] == 512
    assert short[0]["evidence"]["host_ram_needed_gb"] == pytest.approx(70.55e9 * 16 / 0.8 / 1e9, rel=0.01)
    assert "runpod" in short[0]["message"]


def test_recommend_finds_no_rented_4090s_that_hold_a_70b_offload():
    """Asked as a recommendation (rent up to 8 RTX 4090s, the same 70B full fine-tune with CPU offload): no
    count of rented 4090s holds the 1,411 GB of offloaded state (a server of 8 has 496-512 GB): no feasible
    option, exit 1, and the 8-GPU candidate is rejected for host RAM."""
    code, out = _ask("recommend", str(Q / "rent-8x4090-70b-full-offload.yaml"), "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["recommendation"] is None
    eight = next(c for c in d["candidates"] if c["count"] == 8)
    assert not eight["feasible"]
    assert any("1,411 GB of host RAM" in why for why in eight["reasons"])
    assert any(f["rule"] == "MEM-HOST-RAM-SHORT" and f["severity"] == "blocker" for f in d["findings"])


def test_a_rental_offer_that_states_no_ram_is_judged_on_the_typical_server_and_says_so():
    """The same proposal at RunPod's Community Cloud price ($0.34), which states no RAM: the typical rented
    consumer server's 62 GB per GPU (knowledge/runtime.yaml rented_host_ram), 496 GB, said in the message; with
    the server's RAM written in the proposal (2,048 GB) the proposal's own figure is judged and nothing blocks."""
    import yaml

    from gpuwise import audit

    p = yaml.safe_load((Q / "proposal-rent-8x4090-70b-full-offload.yaml").read_text())
    p["acquisition"]["hourly_usd"] = 0.34
    d = audit(p).model_dump(mode="json")
    short = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]
    assert short and short[0]["evidence"]["host_ram_gb"] == 496
    assert "typical" in short[0]["message"]
    p["hardware"]["host_ram_gb"] = 2048
    d = audit(p).model_dump(mode="json")
    assert not [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]


def test_an_imported_catalog_brings_each_instance_ram(kb, tmp_path):
    """`gpuwise prices import` reads an instance's host RAM from the catalog (gpuhunt's ``memory`` in GB,
    SkyPilot's ``MemoryGiB``) into the overlay, and a rented job with offload is judged on it: a gpuhunt row
    of 8 x RTX 4090 with 256 GB at $2.00 an hour (the cheapest 4090s, so the 8-GPU candidate rents it) holds
    256 GB of the 1,411 GB the 70B offload needs; SkyPilot's p4de.24xlarge row, 1,152 GiB = 1,236.95 GB for
    8 GPUs, as AWS's instance specifications give it."""
    from gpuwise.decide.recommend import recommend
    from gpuwise.prices import read_catalog, write_overlay

    src = tmp_path / "cheapcloud.csv"
    src.write_text("instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,"
                   "gpu_vendor,flags\n"
                   "4090.8x,eu,2.0,64,256,8,RTX4090,24,False,1000,nvidia,\n"
                   "4090.1x,eu,0.5,8,lots,1,RTX4090,24,False,100,nvidia,\n")
    rep = read_catalog(src, kb, as_of="2026-11-30")
    by = {o.instance: o for o in rep.offers}
    assert by["4090.8x"].host_ram_gb == 256
    assert by["4090.1x"].host_ram_gb is None and "host RAM not read" in str(by["4090.1x"].notes[-1])
    out = write_overlay(rep, str(tmp_path / "overlay")).parent
    r = recommend(str(Q / "rent-8x4090-70b-full-offload.yaml"), knowledge=str(out)).model_dump(mode="json")
    eight = next(c for c in r["candidates"] if c["count"] == 8)
    assert any("the node has 256 GB (as cheapcloud states" in why for why in eight["reasons"])

    sky = tmp_path / "aws" / "vms.csv"
    sky.parent.mkdir()
    sky.write_text("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,"
                   "AvailabilityZone,GpuInfo\n"
                   "p4de.24xlarge,A100-80GB,8.0,96,1152,40.96,16.5,us-east-1,us-east-1a,"
                   "\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 81920}}]}\"\n")
    (p4de,) = read_catalog(sky, kb, as_of="2026-11-01").offers
    assert p4de.host_ram_gb == pytest.approx(1152 * 2**30 / 1e9)


def test_nvme_offload_is_judged_on_the_drives_not_on_host_ram():
    """ZeRO-Infinity (Rajbhandari et al. 2021, arXiv:2104.07857) keeps the offloaded state on NVMe and only its
    staging buffers in host RAM: the same rental with offload: nvme is not blocked for host RAM (it was: 'nvme
    offload ... needs 1411 GB of host RAM'); MEM-NVME-OFFLOAD asks for the drives to hold the state, 70.55e9 x
    16 B = 1,129 GB per node (the host RAM figure's 1,411 GB before the usable fraction of 0.8)."""
    import yaml

    from gpuwise import audit

    p = yaml.safe_load((Q / "proposal-rent-8x4090-70b-full-offload.yaml").read_text())
    p["workload"]["offload"] = "nvme"
    d = audit(p).model_dump(mode="json")
    rules = {f["rule"]: f for f in d["findings"]}
    assert "MEM-HOST-RAM-SHORT" not in rules
    nvme = rules["MEM-NVME-OFFLOAD"]
    assert nvme["evidence"]["offloaded_state_gb"] == pytest.approx(70.55e9 * 16 / 1e9, rel=0.01)


# ------------------------------------------------------------------ second blind round (session 19)
# Twelve questions from sources not cited before in tests/data, asked and recorded before any code change
# (tests/data/buyer_questions/README.md, "Second blind round"). A failing one is a strict xfail with its
# measured cause.

@pytest.mark.xfail(strict=True, reason=(
    "27.4 tok/s against 13-26 (+5% past the top; 35.7 before branch buyer54, 41.2 before session 21): SGLang "
    "0.4.0-0.4.5 take the early-2025 release entry (17 us a counted kernel, set from pull request #2643's 30.29 "
    "tok/s at 128 in / 256 out) and, since buyer54, read the latent cache at the Triton decode kernel's walking rate "
    "(8 programs x 5.25 GB/s: serving.yaml triton_decode_walk mla_default_before), 36.5 ms a step at the answer's "
    "mean 5,096 tokens; the period's users saw one long answer at half the short-answer speed, and #3196 counts "
    "words, not tokens (its ~13 may read ~1.3x low)"))
def test_deepseek_v3_h200_node_long_answer_on_a_january_2025_sglang():
    """sgl-project/sglang issue #3196 (2025-01-28): DeepSeek-V3 on one 8 x H200 server (nvidia-smi in the
    thread) with SGLang of that week, one sequence generating a long answer (TTFT ~2 s): ~13 tok/s;
    vllm-project/vllm issue #11539 (2025-01-10, lhl): SGLang bench_serving at concurrency 1 (ShareGPT) ~26 tok/s,
    the GPUs not named in the comment. The release of #3196 is not stated; every 0.4.x of January 2025 takes
    the same release entry in gpuwise. Range 13-26 tok/s."""
    g = _estimate("v3-fp8-sglang-jan2025-long", "h200", 8)
    assert 13 <= g["decode_tokens_per_s"] <= 26


@pytest.mark.xfail(strict=True, reason=(
    "34.4 tok/s against 13 (+165%; 39.5 before session 21): the early-2025 release entry (17 us a counted kernel) "
    "with SGLang's ROCm constants; at short context that step is near the period's AMD reading (sglang #3237, "
    "Feb 2025, DeepSeek-V3 on 8 x MI300X, bench_one_batch batch 4 at 2,048 in: decode step 38.5 ms, gpuwise's "
    "32.0 ms at 0.4.3, -17%), so what the long answer adds is context-dependent: those releases decoded MLA on "
    "SGLang's Triton kernel (8 splits) and ran the block-FP8 linears on SGLang's Triton w8a8 kernel, neither "
    "timed on gfx942 (triton_decode_walk is read on NVIDIA only; with the H200's 5.25 GB/s a program it reads "
    "26.7, still +105%); branch rocmsglang55; see the H200 question beside it"))
def test_deepseek_v3_mi300x_node_long_answer_on_a_january_2025_sglang():
    """sgl-project/sglang issue #3196 (2025-01-28): the same ~13 tok/s for one long answer on 8 x MI300X
    ('true for either 8*MI300X or 8*H200'). One figure, held within 20%."""
    g = _estimate("v3-fp8-sglang-jan2025-long", "mi300x", 8)
    assert _near(g["decode_tokens_per_s"], 13)


def test_kimi_k2_fp8_at_128k_does_not_fit_one_h200_node():
    """MoonshotAI/Kimi-K2 docs/deploy_guidance.md (vLLM section, v0.10.0rc1 and later): the smallest
    deployment unit for Kimi-K2's FP8 weights with a 128k sequence length on H200 or H20 is a cluster of 16
    GPUs (TP 16, or DP + EP over two nodes). One 8 x H200 node does not hold it.

    Why, by hand: vLLM sizes its KV cache after a start-up profile run whose dummy sampler pass holds
    37.7 B x the 163,840-entry vocabulary x min(max_num_seqs 1,024, max_num_batched_tokens 8,192) =
    6.32e9 B a GPU (knowledge/serving.yaml vllm profile_sampler; vllm/v1/worker/gpu_worker.py
    determine_available_memory), kept from the pool for the server's life. Beside the 129.7 GB of FP8 weights,
    9.07 GB of one 129,024-token latent KV cache (61 x 576 x 2 B a token, whole on every rank), ~0.2 GB of the
    forward's working set and 1.07 GB of CUDA context, that passes the 143.2 GB usable (0.95 x 150.8 GB),
    let alone vLLM's own 0.9 x 150.8 = 135.7 GB. Was 'fits, 139.9 GB' while the serving copy held no sequence:
    the memory total now carries the profile's peak the copy's room was reckoned on."""
    g = _estimate("kimi-k2-fp8-128k-fit", "h200", 8)
    assert g["fits"] is False
    _, out = _ask("estimate", str(Q / "kimi-k2-fp8-128k-fit.yaml"), "--gpu", "h200", "--gpus", "8",
                  "--format", "json")
    mem = json.loads(out)["memory"]
    act = next(t for t in mem["terms"] if t["name"] == "activations")
    peak = 37.7 * 163_840 * 1_024
    beyond = act["inputs"]["profile_sampler_per_gpu_bytes"]
    assert peak - 0.3e9 < beyond < peak  # the sampler's peak less the forward's working set it follows
    assert mem["breakdown"]["activations"] == pytest.approx(act["value"], abs=1) and act["value"] > beyond
    assert mem["per_gpu_bytes"] > mem["usable_per_gpu_bytes"] == pytest.approx(0.95 * 150_754_820_096, rel=1e-6)
    assert mem["per_gpu_bytes"] == pytest.approx(sum(mem["breakdown"].values()), abs=8)
    assert "146.1 GB" in g["strategy"]


def test_kimi_k2_fp8_at_128k_fits_two_h200_nodes():
    """The same guide: 16 x H200 (two nodes) is the unit that serves Kimi-K2 FP8 at 128k. gpuwise: fits,
    70.6 GB a GPU."""
    g = _estimate("kimi-k2-fp8-128k-fit", "h200", 16)
    assert g["fits"] is True


def test_llama4_scout_fits_one_h100_only_quantized():
    """Meta's Llama 4 announcement puts Scout on one H100 with INT4 quantization; Fixstars tried it ('Running
    Llama 4 Scout on a single NVIDIA H100 using INT4 quantization', blog.us.fixstars.com, 2025-04-10): Meta's
    int4_mixed script runs on one H100 (FP8 takes two, BF16 four); the BF16 checkpoint (109B parameters, ~218 GB)
    does not fit one.
    gpuwise: BF16 217.8 GB a GPU, no; INT4 61.3 GB, yes."""
    assert _estimate("scout-1xh100-bf16", "h100-80gb-sxm", 1)["fits"] is False
    assert _estimate("scout-1xh100-int4", "h100-80gb-sxm", 1)["fits"] is True


@pytest.mark.xfail(strict=True, reason=(
    "120.6 tok/s against 88-90 (+34%; 134.6 when the question was written): the estimate's step is 8.29 ms (3.82 ms "
    "of weights, 5.0 GB read a token; 4.44 ms of per-layer and step overhead) against 11.1 ms published. An A100 has "
    "no FP4 path: vLLM runs MXFP4 experts on sm_80 through its Marlin MoE kernel, a weight-dequantizing W4A16 GEMM "
    "(vllm/model_executor/layers/quantization/mxfp4.py get_mxfp4_backend at commit 007d5005: the triton_kernels path "
    "only on compute capability 9.0 to 10.x; branch buyer54 read), with Triton attention (TRITON_ATTN_VLLM_V1 in the "
    "thread); the August 2025 gptoss image's own selection and that kernel's time at one token on an A100 were not "
    "found in a stored source, so nothing is priced from them"))
def test_gpt_oss_120b_one_a100_single_stream_on_vllm():
    """vllm-project/vllm issue #22331 (Aug 2025, the vllm/vllm-openai:gptoss image with
    VLLM_ATTENTION_BACKEND=TRITON_ATTN_VLLM_V1): gpt-oss-120b on one A100 80GB (NVLink server), TP 1: 90 tok/s;
    a second user on one A100: 88 tok/s. Two figures, held within 20% of them: 70.4-108 tok/s."""
    g = _estimate("gpt-oss-120b-vllm-1xa100-single", "a100-80gb-sxm", 1)
    assert 88 * (1 - WITHIN) <= g["decode_tokens_per_s"] <= 90 * (1 + WITHIN)


def test_zero_offload_tutorial_10b_fits_one_v100():
    """DeepSpeed's ZeRO-Offload tutorial (deepspeed.ai/tutorials/zero-offload, docs/_tutorials/zero-offload.md):
    a 10B GPT-2 (Megatron-LM, 50 layers, hidden 4,096, 32 heads), batch 10, activation checkpointing, ZeRO-2 with
    cpu_offload, trains on one V100-SXM3 32GB. It did not fit (34.8 GB a GPU of 30.4 usable) while the card was taken
    as 32.0e9 B and the loss as Hugging Face's 12 B a vocabulary entry a token; now the card is nvidia-smi's
    32,768 MiB (knowledge/gpus.yaml smi_mib) and Megatron's in-place vocabulary-parallel loss holds 6 B
    (runtime.yaml training_stacks megatron-deepspeed loss_bytes_per_vocab): 31.5 GB of 32.6 usable."""
    g = _estimate("gpt2-10b-zero-offload-1xv100", "v100-32gb-sxm2", 1)
    assert g["fits"] is True


@pytest.mark.xfail(strict=True, reason=(
    "30.6 s a step against 21.8 s (+40%), session 22 (session 21: 31.9 s; before it 111.2 s): host Adam is now the "
    "tutorial's DGX-2 host "
    "(workload.host_cpu_cores 48) x 3.4e7 parameters/s a core (knowledge/runtime.yaml "
    "cpu_adam_params_per_s_per_core, from the tutorial's own log) = 6.3 s, the log's optimizer_step 6.2-6.5 s; the "
    "rest is compute 23.0 s where the log's forward + backward take 18.2 s, and 1.3 s of PCIe (the weights' return; "
    "the gradients' 1.3 s leave during the backward). The paper's 40 TFLOP/s "
    "was measured at 512 sequences a step with gradient accumulation (section 6.2.2), where the host step is "
    "amortised (gpuwise 37.7 TFLOP/s at 512 x 1,024 tokens in micro-batches of 8, 35.2 before the gradients hid "
    "behind the backward); the tutorial's batch of 10 logs "
    "25.7-26.8 s"))
def test_zero_offload_10b_one_v100_step_time():
    """Ren et al., 'ZeRO-Offload: Democratizing Billion-Scale Model Training' (USENIX ATC 2021, arXiv:2101.06840):
    40 TFLOP/s on one V100 for a 10B model with ZeRO-Offload (PyTorch alone: 30 TFLOP/s at 1.4B, the largest that
    fits). At the tutorial's batch (10 x 1,024 tokens) a step is 96 x 10 x 1,024 x 50 x 4,096^2 x (1 + 1024/(6 x
    4096) + 50,257/(16 x 50 x 4096)) = 8.72e14 FLOP (Megatron's count, recompute included) / 40e12 = 21.8 s."""
    s = _step("gpt2-10b-zero-offload-1xv100", "v100-32gb-sxm2", 1)
    assert _near(s["step_s"], 8.72e14 / 40e12)


def _findings(name: str) -> tuple[int, dict]:
    code, out = _ask("audit", str(Q / f"{name}.yaml"), "--format", "json")
    d = json.loads(out)
    return code, {f["rule"]: f for f in d["findings"]}


def test_rented_p4d_cannot_hold_a_70b_offload():
    """AWS EC2 P4 instances (aws.amazon.com/ec2/instance-types/p4): p4d.24xlarge has 8 x A100 40GB and 1,152 GiB
    of instance memory = 1,237 GB; Llama-3.1-70B fully fine-tuned with ZeRO-3 CPU offload keeps 70.55e9 x 16 B
    (fp32 master weights and both Adam moments) = 1,129 GB in host RAM, / 0.8 usable = 1,411 GB. Blocked, exit 1,
    the instance's RAM named as its origin."""
    code, rules = _findings("proposal-rent-p4d-70b-full-offload")
    assert code == 1
    short = rules["MEM-HOST-RAM-SHORT"]
    assert short["severity"] == "blocker"
    assert short["evidence"]["host_ram_gb"] == pytest.approx(1152 * 2**30 / 1e9, rel=0.001)
    assert short["evidence"]["host_ram_needed_gb"] == pytest.approx(70.55e9 * 16 / 0.8 / 1e9, rel=0.01)
    assert "p4d.24xlarge" in short["message"]


def test_rented_p5_holds_a_70b_offload():
    """AWS EC2 P5 instances (aws.amazon.com/ec2/instance-types/p5): p5.48xlarge has 8 x H100 80GB and 2 TiB
    (2,048 GiB = 2,199 GB) of instance memory, more than the 1,411 GB the same 70B offload needs: no host RAM
    blocker, and no blocker at all (exit 0)."""
    code, rules = _findings("proposal-rent-p5-70b-full-offload")
    assert code == 0
    assert "MEM-HOST-RAM-SHORT" not in rules


def test_a_job_that_asks_for_offload_is_not_told_it_relies_on_8_bytes_a_parameter():
    """Asked first, the p5.48xlarge rental above (640 GB of H100s, 70.55e9 parameters) drew MEM-MYTH-8-BYTES:
    '684 GB covers the articles' params x 8 B x 1.2 = 677 GB, but mixed-precision AdamW keeps 16 B per parameter:
    1129 GB', while the job asks for ZeRO-3 CPU offload and its 1,129 GB of state sit in host RAM by design. The
    rule now judges only jobs that keep the state on the GPUs (offload: none); the same proposal without offload
    is still warned (gpuwise then adds the offload itself: the plan was sized on the articles' figure)."""
    import yaml

    from gpuwise import audit

    _, rules = _findings("proposal-rent-p5-70b-full-offload")
    assert "MEM-MYTH-8-BYTES" not in rules
    p = yaml.safe_load((Q / "proposal-rent-p5-70b-full-offload.yaml").read_text())
    p["workload"]["offload"] = "none"
    myth = [f for f in audit(p).model_dump(mode="json")["findings"] if f["rule"] == "MEM-MYTH-8-BYTES"]
    assert myth and myth[0]["severity"] == "warning"
    assert "677 GB" in myth[0]["message"] and "1,129 GB" in myth[0]["message"]


def test_rented_p5_cannot_hold_a_405b_offload():
    """The same p5.48xlarge (2,199 GB) for Llama-3.1-405B with ZeRO-3 CPU offload: 405.85e9 x 16 B / 0.8 =
    8,117 GB of host RAM. Blocked, exit 1."""
    code, rules = _findings("proposal-rent-p5-405b-full-offload")
    assert code == 1
    short = rules["MEM-HOST-RAM-SHORT"]
    assert short["severity"] == "blocker"
    assert short["evidence"]["host_ram_gb"] == pytest.approx(2048 * 2**30 / 1e9, rel=0.001)
    assert short["evidence"]["host_ram_needed_gb"] == pytest.approx(405.85e9 * 16 / 0.8 / 1e9, rel=0.01)


def test_zero_offload_host_adam_is_the_tutorials_logged_optimizer_step():
    """DeepSpeed's ZeRO-Offload tutorial (github.com/deepspeedai/DeepSpeed docs/_tutorials/zero-offload.md), its
    training log figure (docs/assets/images/zero_offload_dp1_10B_log.png, 2020-09-10): the question's 10.27B GPT-2
    on one V100 takes optimizer_step 6,479 / 6,217 ms (DeepSpeedCPUAdam and the 16-bit copy back) with 48 CPUs busy
    on its DGX-2 host (zero_offload_dp1_10B_cpu.png). With that host stated (host_cpu_cores 48) host Adam is
    10.27e9 / (48 x 3.4e7) = 6.29 s, within 10% of the log; the offload term recomputes from its inputs (params /
    min(cores x rate a core, host bandwidth / 28 B); PCIe + host Adam + NVMe) and the step from its terms."""
    g = _estimate("gpt2-10b-zero-offload-1xv100", "v100-32gb-sxm2", 1)
    term = next(t for t in g["terms"] if t["name"] == "offload_seconds")
    off = term["inputs"]
    assert off["host_cores_per_gpu"] == 48 and off["host_cores_stated"] is True
    assert term["note_phrases"][0][1] == "note.offload_host_stated" and "48 a GPU, 34 million" in term["note"]
    assert off["host_adam_s"] == pytest.approx(10.27e9 / (48 * 3.4e7), rel=1e-6)
    assert 6.217 * 0.9 <= off["host_adam_s"] <= 6.479 * 1.1
    rate = min(off["host_cores_per_gpu"] * off["cpu_adam_params_per_s_per_core"], off["host_gb_s_per_gpu"] * 1e9 / 28)
    assert off["host_adam_params_per_s"] == pytest.approx(rate)
    assert off["params_per_gpu"] / rate == pytest.approx(off["host_adam_s"])
    s = g["training"]["step_terms"]
    assert off["pcie_s"] + off["host_adam_s"] + off["nvme_s"] == pytest.approx(s["offload_s"])
    parts = ("compute_s", "tp_s", "pp_p2p_s", "pp_bubble_s", "dp_s", "ep_s", "cp_s", "optimizer_s", "offload_s")
    assert sum(s[k] for k in parts) == pytest.approx(s["step_s"])
