"""Issue 22's three held-out buyer questions asked again as a new user asks them (branch buyer63), after the model
changes of sessions 47-48: requirement and proposal files written plainly (tests/data/buyer_questions/q63-*.yaml),
asked through ``gpuwise estimate`` / ``recommend`` / ``audit`` with ``--format json`` (and the text where the reason
is the point). A single published figure is held within issue 22's 20%; a range is the span of the published figures
for the same conditions; a one-sided bound says which figure bounds it. A question the model misses is a strict
expected failure naming its measured cause; no range is widened to pass. tests/data/validation/README.md, section
"buyer63", gives the table of questions, answers, ranges and verdicts."""

from __future__ import annotations

import json

import pytest

from tests.test_buyer_questions import Q, _ask, _estimate, _near

MLA_BYTES_A_TOKEN = 61 * 576 * 2  # DeepSeek-V3/R1: 61 layers x the 512 + 64 latent elements x 2 B (bf16 cache)


def _findings(*args: str) -> tuple[int, dict, dict]:
    code, out = _ask(*args, "--format", "json")
    d = json.loads(out)
    return code, d, {f["rule"]: f for f in d["findings"]}


# ------------------------------------------------------------------ (a) DeepSeek-R1 and other big MoE on one node

@pytest.mark.parametrize(("gpu", "low", "high"), [
    # SemiAnalysisAI/InferenceX pull request #3173 (SGLang v0.5.12, TP 8, 1k/1k, 8 x H200): concurrency 8 at a mean
    # TPOT of 11.73 ms, so one stream runs at least 1 / 11.73 ms = 85.3 tok/s; pull request #3175 (the same release
    # on 8 x B300, the same 8 TB/s HBM as a B200 and more than an H200's 4.8): one stream at 7.04 ms = 142.0 tok/s
    ("h200-141gb-sxm", 1 / 0.01173, 1 / 0.00704),
    # InferenceX dashboard data (SemiAnalysisAI/InferenceX-app api/benchmarks.json, run of 2026-05-18: R1-0528 FP8,
    # 8 x MI300X, SGLang v0.5.12 ROCm, TP 8, 922 / 922): concurrency 8 at a mean TPOT of 17.42 ms bounds one stream
    # from below, 57.4 tok/s; no single-stream MI300X figure of a 2026 release was found, so no upper bound
    ("mi300x", 1 / 0.01742, None),
    # InferenceX pull request #3318 (SGLang 0.5.19 ROCm, 8 x MI325X, TP 8, 8k / 1k): concurrency 4 at a mean TPOT of
    # 18.53 ms bounds one stream of a shorter prompt from below, 54.0 tok/s
    ("mi325x", 1 / 0.01853, None),
])
def test_r1_fp8_single_stream_on_one_node_of_each_card(gpu, low, high):
    """'How fast does one answer stream?' DeepSeek-R1 FP8 on one 8-GPU server, SGLang (release not stated: the
    newest gpuwise knows), 1,000 in / 1,000 out, one user: H200 139.5 tok/s, MI300X 70.6, MI325X 71.6."""
    g = _estimate("q63-r1-fp8-node-c1", gpu, 8)
    assert g["fits"] and g["serving"]["layout"]["tp"] == 8
    assert low <= g["decode_tokens_per_s"] and (high is None or g["decode_tokens_per_s"] <= high)


def test_r1_fp8_single_stream_on_b200_is_near_the_b300_figure_of_the_same_release():
    """8 x B200, the same question: 150.1 tok/s. No B200 single stream of SGLang's 2026 releases was found; the B300
    of the same release (InferenceX pull request #3175, v0.5.12: 140.64 output tok/s, TPOT 7.04 ms) has the same
    8 TB/s of HBM and more compute, so it is the nearest published figure: within 20% (+6.7%), though above it
    (gpuwise's B300 step carries 0.35 ms more fixed time a step than its B200 step: 7.01 against 6.66 ms). The
    older release on the B200 itself (the SGLang cookbook's DeepSeek-R1 page, v0.5.6.post1: TPOT 9.16 ms, 109 tok/s)
    is a lower bound."""
    g = _estimate("q63-r1-fp8-node-c1", "b200", 8)
    assert _near(g["decode_tokens_per_s"], 140.64)
    assert g["decode_tokens_per_s"] >= 1 / 0.00916


def test_r1_fp8_h200_node_at_64_users():
    """64 chats at once on 8 x H200, 1,000 / 1,000, SGLang not pinned: 1,656 output tok/s (TPOT 38.4 ms). Published
    at 1,024 / 1,024 and concurrency 64: SGLang v0.5.7 1,788.8 tok/s at 34.6 ms (InferenceX issue #870), v0.5.12
    2,078.4 tok/s at 29.77 ms (InferenceX pull request #3173). Below the range's low end by 7.4%, within 20% of it."""
    s = _estimate("q63-r1-fp8-node-c64", "h200-141gb-sxm", 8)["serving"]
    assert s["concurrency"] == 64 and s["layout"]["tp"] == 8
    assert _near(s["throughput_tokens_per_s"], 1788.8)
    assert s["throughput_tokens_per_s"] <= 2078.4


def test_r1_fp8_does_not_fit_one_8xh100_node():
    """'Can we serve DeepSeek-R1 FP8 on our one 8 x H100 80GB server?' No: the FP8 checkpoint alone is 688.6 GB
    (deepseek-ai/DeepSeek-R1's safetensors, as tests/data/buyer_questions/README.md cites) against 8 x 81.2 GB
    usable; two nodes or 4-bit weights (dzhsurf/deepseek-v3-r1-deploy-and-benchmarks; Microsoft's ND H100 v5
    write-up runs it on two VMs). Exit 1, no recommendation, every count of H100 refused by MEM-NO-FIT."""
    code, d, rules = _findings("recommend", str(Q / "q63-r1-fp8-8xh100-recommend.yaml"))
    assert code == 1 and d["recommendation"] is None
    no_fit = rules["MEM-NO-FIT"]
    assert no_fit["severity"] == "blocker" and "8 × NVIDIA H100" in no_fit["message"].replace(" x ", " × ")
    g = _estimate("q63-r1-fp8-node-c1", "h100-80gb-sxm", 8)
    assert not g["fits"]


@pytest.mark.xfail(strict=True, reason=(
    "78.1 tok/s (TPOT 12.8 ms) against 61.99 (16.1 ms): +26%; the validation set's Z19 / Z20, the same run (+20.9 / "
    "+25.6%, tests/data/validation/README.md): vLLM's Marlin AWQ MoE path at one token on Hopper; not changed here"))
def test_r1_int4_on_8xh100_single_stream():
    """tenstorrent/tt-inference-server issue #356 (2025-07-10): DeepSeek-R1-0528-AWQ on 8 x H100 with vLLM, TP 8,
    concurrency 1: 61.99 output tok/s a user (TPOT 16.1 ms). Asked as a recommendation on the H100s only: 4-bit
    weights fit, 8 x H100."""
    code, d, _ = _findings("recommend", str(Q / "q63-r1-int4-8xh100-recommend.yaml"))
    assert code == 0 and d["recommendation"]["count"] == 8
    assert _near(1 / d["recommendation"]["serving"]["tpot_s"], 61.99)


def test_64_users_on_r1_fp8_8xh20_96gb_are_said_to_wait():
    """DeepSeek-R1 FP8 for 64 users (1,000 / 1,000) on the 8 x H20 96GB server a buyer owns: the weights take 85.1 GB
    of each GPU's 97,871 MiB = 102.6 GB (knowledge/gpus.yaml smi_mib), so SGLang's default share (0.848 of the
    memory for weights and KV pool) leaves (0.848 x 102.6e9 - 85.1e9 - 1.07e9 of CUDA context) / (1,500 tokens a
    running sequence x 70,272 B of MLA latent cache, whole on each GPU) < 9 sequences: 7 with the working set. The
    other 57 requests wait for a slot, and the answer's first token comes after ~139 s. Before branch buyer63 the
    recommendation said '139 s' in its load line and nothing else: no warning, no reason. Now SRV-LOAD-BEYOND-KV
    warns with both counts and the wait, in English and Chinese; the 141 GB H20 holds all 64 and is not warned."""
    code, d, rules = _findings("recommend", str(Q / "q63-r1-fp8-8xh20-96-c64-recommend.yaml"))
    assert code == 0 and d["recommendation"]["gpu"] == "h20-96gb-sxm"
    held = int((0.848 * 97871 * 2**20 - 85.1e9 - 1.07e9) // (1500 * MLA_BYTES_A_TOKEN))
    assert held == 8
    w = rules["SRV-LOAD-BEYOND-KV"]
    assert w["severity"] == "warning"
    # the count the KV cache holds is a condition's, beside its words (wording65: kv_sequences, '7 sequences')
    assert 1 <= w["evidence"]["max_concurrent_sequences"] <= held and w["values"]["load_sequences"] == 64
    assert w["values"]["kv_sequences"] == f"{round(w['evidence']['max_concurrent_sequences'])} sequences"
    assert w["values"]["ttft_ms"] > 60_000  # 57 waiting behind 7 slots of ~1,000 tokens at ~17 ms each
    _, text = _ask("recommend", str(Q / "q63-r1-fp8-8xh20-96-c64-recommend.yaml"))
    flat = " ".join(text.split())
    assert "SRV-LOAD-BEYOND-KV" in flat and "holds 7 sequences at once and 64 requests are in flight" in flat
    _, zh = _ask("recommend", str(Q / "q63-r1-fp8-8xh20-96-c64-recommend.yaml"), "--lang", "zh")
    assert "进行中的请求有64个" in "".join(zh.split())
    s = _estimate("q63-r1-fp8-node-c64", "h20-141gb", 8)["serving"]
    assert s["max_concurrent_sequences"] >= 64  # the 141 GB part holds them: no wait to say


@pytest.mark.parametrize(("model", "gpu", "published", "source"), [
    # SGLang cookbook, Qwen3 page (sgl-project/sglang docs_new/cookbook/autoregressive/Qwen/Qwen3.mdx, v0.5.6):
    # Qwen3-235B-A22B BF16 on 8 x B200, TP 8, one user: TPOT 10.12 ms; FP8 reads half the expert bytes, so the BF16
    # figure bounds the FP8 one from below: 98.8 tok/s
    ("qwen3-235b-a22b", "b200", 1 / 0.01012, "lower"),
    # SGLang cookbook, gpt-oss page (v0.5.6): gpt-oss-120b MXFP4 on 8 x B200, TP 8, one user: TPOT 2.31 ms
    ("gpt-oss-120b", "b200", 1 / 0.00231, "near"),
])
def test_other_big_moe_single_stream(model, gpu, published, source):
    """Qwen3-235B-A22B FP8 and gpt-oss-120b on one 8-GPU server, SGLang, one user, 1,000 / 1,000: Qwen3 128.7 tok/s
    on B200 (above the BF16 figure's 98.8, as it must be), gpt-oss-120b 377.2 tok/s against 432.9 (-12.9%)."""
    g = _estimate(f"q63-{model}-c1", gpu, 8)
    rate = g["decode_tokens_per_s"]
    assert rate >= published if source == "lower" else _near(rate, published)


# ------------------------------------------------------------------ (b) an offloaded fine-tune against no offload

@pytest.mark.parametrize(("stage", "published"), [
    (3, 4.45 / 2.05),  # ZeRO-3, optimizer offload, 2 sequences a GPU: 4.45 -> 2.05 samples/s
    (2, 4.19 / 1.81),  # ZeRO-2, optimizer offload, 1 sequence a GPU: 4.19 -> 1.81 samples/s
])
def test_7b_offloaded_fine_tune_slowdown_on_8_gpus(stage, published):
    """chenyaofo's 'Benchmark of LLaMA-7B' gist (gist.github.com/chenyaofo/d4cd6a20ab4b95cb3a49491747e2139a;
    DeepSpeed 0.14.2, 8 x A800 80GB, 4k sequences, 64 a step): ZeRO-3 2.17x slower with the optimizer offloaded,
    ZeRO-2 2.31x. Asked as a user writes it (llama-2-7b, the same stack, release, batch and sequence): ZeRO-3 26.08 /
    10.87 s = 2.40x, ZeRO-2 24.05 / 11.54 s = 2.08x; the same ratio on A100 80GB."""
    for gpu in ("a800-80gb-sxm", "a100-80gb-sxm"):
        off = _estimate(f"q63-ft-7b-zero{stage}-cpu-8gpu", gpu, 8)
        plain = _estimate(f"q63-ft-7b-zero{stage}-none-8gpu", gpu, 8)
        assert off["fits"] and plain["fits"] and "CPU offload" in off["strategy"]
        ratio = off["training"]["step_terms"]["step_s"] / plain["training"]["step_terms"]["step_s"]
        assert _near(ratio, published)


# ------------------------------------------------------------------ (c) host RAM that cannot hold the offloaded state

def test_rented_8x4090_is_blocked_naming_the_offer_ram_and_the_state():
    """Rent 8 x RTX 4090 on RunPod Secure Cloud ($0.74) to fully fine-tune Llama 2 70B with ZeRO-3 CPU offload: the
    server has 512 GB (RunPod's Secure Cloud partner requirements, docs.runpod.io/hosting/partner-requirements: 8 x
    24 GB GPUs, >= 512 GB RAM). The state: 68.98e9 parameters x 16 B (fp32 master weights, two Adam moments, fp32
    gradients) = 1,104 GB; over the usable 0.8 of the RAM (knowledge/runtime.yaml host_ram_fraction_usable) 1,380 GB.
    Blocked, exit 1; before branch buyer63 the message named the 1,380 GB and the 512 GB but not the state it holds,
    so a buyer could not check the figure; now it names the 1,104 GB and where the rest goes, in both languages."""
    code, d, rules = _findings("audit", str(Q / "q63-rent-runpod-8x4090-70b-offload.yaml"))
    assert code == 1 and d["verdict"] == "reject"
    f = rules["MEM-HOST-RAM-SHORT"]
    assert f["values"]["host_ram_gb"] == 512
    assert f["values"]["offloaded_state_gb"] == pytest.approx(68.98e9 * 16 / 1e9, rel=0.01)
    assert f["values"]["host_ram_needed_gb"] == pytest.approx(68.98e9 * 16 / 0.8 / 1e9, rel=0.01)
    assert "the training state moved off each node's GPUs is 1,104 GB" in f["message"]
    assert "as runpod states for its servers" in f["message"]
    _, zh = _ask("audit", str(Q / "q63-rent-runpod-8x4090-70b-offload.yaml"), "--lang", "zh")
    assert "移出GPU的训练状态为1,104GB" in "".join(zh.split())


@pytest.mark.parametrize(("name", "ram", "params", "held"), [
    # RunPod Secure Cloud 8 x H100 SXM ($3.49): >= 2,048 GB a server (the same partner requirements)
    ("q63-rent-runpod-8xh100-70b-offload", 2048, 68.98e9, True),
    # 4 of a Secure Cloud 4090 server's GPUs: 4 x the 64 GB a GPU it guarantees = 256 GB, Llama 2 13B's 13.02e9 x 16 B
    # = 208 GB over 0.8 = 260 GB: short by 4 GB
    ("q63-rent-runpod-4x4090-13b-offload", 256, 13.02e9, False),
    # an owned workstation whose RAM the proposal states (hardware.host_ram_gb)
    ("q63-own-2x4090-13b-offload-128gb", 128, 13.02e9, False),
    ("q63-own-2x4090-7b-offload-128gb", 128, 6.74e9, False),  # 6.74e9 x 16 / 0.8 = 135 GB > 128
    ("q63-own-2x4090-7b-offload-192gb", 192, 6.74e9, True),
    ("q63-own-8xa100-70b-offload-2tb", 2048, 68.98e9, True),
])
def test_host_ram_decides_an_offloaded_fine_tune(name, ram, params, held):
    """Full fine-tunes with ZeRO-3 CPU offload on rented or owned servers: blocked where the server's RAM (the
    offer's or the proposal's) is under 16 B a parameter over the usable 0.8, held otherwise."""
    code, d, rules = _findings("audit", str(Q / f"{name}.yaml"))
    rule = "MEM-HOST-RAM-HELD" if held else "MEM-HOST-RAM-SHORT"
    f = rules[rule]
    assert f["values"]["host_ram_gb"] == ram
    assert f["values"]["host_ram_needed_gb"] == pytest.approx(params * 16 / 0.8 / 1e9, rel=0.01)
    assert ("MEM-HOST-RAM-SHORT" in rules) is not held
    if not held:
        assert code == 1 and d["verdict"] == "reject"
