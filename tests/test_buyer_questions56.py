"""Issue 22's held-out buyer questions asked again as a user asks them (branch buyerq56): new variants of the three
questions through the command line (``gpuwise estimate`` / ``audit``, JSON) on the files
tests/data/buyer_questions/q56-*.yaml, each held to a published figure or range whose source is named in the test.
A single published figure is held within issue 22's 20%; a range is the span of the published figures. A question
the model does not meet is a strict expected failure naming its measured cause; no range is widened to pass.
tests/data/buyer_questions/README.md, "Branch buyerq56", gives the figures before and after."""

from __future__ import annotations

import json

import pytest

from tests.clirun import gpuwise
from tests.test_buyer_questions import Q, _ask, _estimate, _near  # the same questions folder and goal

GIB = 2**30 / 1e9  # GB in a GiB: Lambda states its instances' RAM in GiB


# ------------------------------------------------------------------ (a) DeepSeek-R1 on one 8-GPU node

@pytest.mark.parametrize(("name", "tpot_ms", "output_tok_s"), [
    ("q56-r1-fp8-sglang057-c8", 12.8, 8 * 74.6),
    ("q56-r1-fp8-sglang057-c64", 34.6, 8 * 223.6),
])
def test_r1_fp8_h200_node_at_a_stated_load_on_sglang_0_5_7(name, tpot_ms, output_tok_s):
    """SemiAnalysisAI/InferenceX issue #870 (Mar 2026): DeepSeek-R1-0528 FP8 on one 8 x H200 node, SGLang v0.5.7, TP 8
    EP 1, random 1k/1k: at concurrency 8 mean TPOT 12.8 ms and 74.6 output tok/s a GPU; at 64, 34.6 ms and 223.6 a
    GPU. Asked without a layout: gpuwise serves it at tensor parallel 8, as the sweep ran."""
    s = _estimate(name, "h200", 8)["serving"]
    assert s["layout"]["tp"] == 8 and s["layout"]["replicas"] == 1
    assert _near(s["tpot_s"], tpot_ms / 1000)
    assert _near(s["throughput_tokens_per_s"], output_tok_s)


@pytest.mark.xfail(strict=True, reason=(
    "14.6 ms against 11.46 (+28%; 542 against 663 output tok/s, -18%), and unpinned gpuwise serves the 8 users on two "
    "TP 4 copies (14.6 ms, 542 tok/s; an MI355X holds the FP8 weights in four). The validation set's NB05, the same "
    "run: the CDNA 4 step's counted small kernels at the ROCm floor (tests/data/validation/README.md, NB05); not "
    "changed here"))
def test_r1_fp8_mi355x_node_at_eight_users_on_sglang():
    """InferenceX's dashboard data (SemiAnalysisAI/InferenceX-app api/benchmarks.json, commit 528c4146, 2026-06-14;
    GitHub Actions run 26486957776): DeepSeek-R1-0528 FP8 on 8 x MI355X, SGLang v0.5.12 ROCm image, TP 8 EP 1, 1k/1k
    (922 / 922 mean), concurrency 8: mean TPOT 11.46 ms, 662.59 output tok/s."""
    s = _estimate("q56-r1-fp8-sglang-amd-c8", "mi355x", 8)["serving"]
    assert _near(s["tpot_s"], 0.01146)


def test_r1_fp8_mi300x_node_at_eight_users_on_sglang():
    """The same dashboard data (GitHub Actions run 26008678094, 2026-05-18): DeepSeek-R1-0528 FP8 on 8 x MI300X, SGLang
    v0.5.12 ROCm image, TP 8, 922 / 922, concurrency 8: mean TPOT 17.42 ms, 438.68 output tok/s."""
    s = _estimate("q56-r1-fp8-sglang-amd-c8", "mi300x", 8)["serving"]
    assert s["layout"]["tp"] == 8
    assert _near(s["tpot_s"], 0.01742)
    assert _near(s["throughput_tokens_per_s"], 438.68)


@pytest.mark.parametrize("gpu", ["h200", "mi300x"])
def test_r1_fp8_one_node_peak_is_below_a_disaggregated_wide_ep_node(gpu):
    """One node's output at full load, asked for the plain 1k/1k file (tests/data/buyer_questions/r1-fp8-sglang-peak):
    at most DeepSeek's own ~14.8k output tok/s per H800 decode node (deepseek-ai/open-infra-index, 'DeepSeek-V3 / R1
    Inference System Overview', day 6), which prefill disaggregation and expert parallelism over many nodes reach and
    one node does not (an H200 or an MI300X computes at about an H800's dense FP8 rate: 989 / 1,307 TFLOP/s), and at
    least what the same GPUs served at concurrency 64, below their peak: H200 2,078 tok/s (InferenceX pull request
    #3173), MI300X 1,507.53 (InferenceX dashboard data, run of 2026-05-18, 922 / 922). Every layout gpuwise reports
    lies inside, the best one (attention data parallel with expert parallelism) included."""
    low = {"h200": 2078, "mi300x": 1507.53}[gpu]
    s = _estimate("r1-fp8-sglang-peak", gpu, 8)["serving"]
    assert low <= s["max_throughput_tokens_per_s"] <= 14_800
    assert low <= s["best_layout"]["max_throughput_tokens_per_s"] <= 14_800


def test_kimi_k2_fp8_b200_node_single_stream_on_sglang_0_5_8():
    """BenHamm's gist 'SGLang B200 Benchmark Sweep - 9 Models on 8xB200 (NVSwitch)' (gist.github.com/BenHamm/
    78563d0d0a08d7cb61b4737392633384, Feb 2026): Kimi-K2 on one 8 x B200 node, SGLang v0.5.8.post1 on its cookbook
    launch (TP 8), bench_serving random 1K / 1K at concurrency 1: TPOT 7.54 ms = 132.63 tok/s."""
    g = _estimate("q56-kimi-k2-fp8-sglang-single", "b200", 8)
    assert g["fits"] and g["serving"]["layout"]["tp"] == 8
    assert _near(g["decode_tokens_per_s"], 132.63)


@pytest.mark.xfail(strict=True, reason=(
    "32.1 tok/s against 24.75 (+30%): the validation set's SX10, the same run (+74.5% when scored blind, branch "
    "decodeblind14); the ROCm step of a 61-layer MLA MoE at one token on SGLang 0.5.7 is slower than the model "
    "carries (tests/data/validation/README.md, rows SX01-SX10); not changed here"))
def test_kimi_k2_fp8_mi300x_node_single_stream_on_sglang_0_5_7():
    """sgl-project/sgl-cookbook docs/autoregressive/Moonshotai/Kimi-K2.md (commit 0abf8552, 'AMD GPU Support'): Kimi-K2
    FP8 on 8 x MI300X, SGLang 0.5.7 ROCm, TP 8, bench_serving random 1000 / 1000 (610 / 422 mean), concurrency 1:
    24.75 tok/s (1 / mean TPOT)."""
    g = _estimate("q56-kimi-k2-fp8-sglang057-single-amd", "mi300x", 8)
    assert _near(g["decode_tokens_per_s"], 24.75)


# ------------------------------------------------------------------ (b) an offloaded fine-tune

def _zero2_offload_steps() -> tuple[dict, dict, dict]:
    z2 = _estimate("q56-finetune-8b-zero2-8xa100-cpu-deepspeed", "a100-40gb-sxm", 8)
    plain = _estimate("finetune-8b-zero3-8xa100-none-deepspeed", "a100-40gb-sxm", 8)["training"]["step_terms"]
    z3 = _estimate("finetune-8b-zero3-8xa100-cpu-deepspeed", "a100-40gb-sxm", 8)["training"]["step_terms"]
    return z2, plain, z3


@pytest.mark.xfail(strict=True, reason=(
    "reads 4.54x against 3.36x (+35%) since branch hfmiddle60 (3.45x while the Hugging Face class was 0.70): the "
    "ZeRO-2 offload adds 5.59 s against the issue's 6.74 s (-17%, asserted below), but the plain ZeRO-3 step at one "
    "sequence a GPU is 1.58 s at the middle against 2.86 s published, and the issue's batch is not in its body: "
    "tests/data/buyer_questions/README.md"))
def test_zero2_optimizer_offload_slowdown_ratio_at_the_issues_release():
    """DeepSpeed issue #3901 (deepspeedai/DeepSpeed, Jul 2023; Falcon-7B at 4k context on 8 x A100-40GB): ZeRO-3
    2.86 s a step, 'Stage-2 offload optimizer and params' 9.60 s: 3.36x, read at one sequence a GPU."""
    z2, plain, _ = _zero2_offload_steps()
    assert _near(z2["training"]["step_terms"]["step_s"] / plain["step_s"], 9.60 / 2.86)


def test_zero2_optimizer_offload_slowdown_at_the_issues_release():
    """DeepSpeed issue #3901 (deepspeedai/DeepSpeed, Jul 2023; Falcon-7B at 4k context, 8 x A100-40GB): ZeRO-3 2.86 s
    a step, 'Stage-2 offload optimizer and params' 9.60 s (ZeRO-2 offloads the optimizer only; ZeRO-2 without
    offload ran out of memory): the offload adds 6.74 s a step. Asked with the DeepSpeed stack at the issue's release
    (0.9.5) for Llama-3.1-8B at one sequence a GPU, the ZeRO-2 offloaded step against the same job's plain ZeRO-3
    step (tests/data/buyer_questions/finetune-8b-zero3-8xa100-none-deepspeed.yaml): host Adam of a GPU's 1.004e9
    parameters at an eighth of the server's CPU Adam rate (45.7 GB/s / 28 B / 8 = 2.04e8 a second) = 4.92 s, beside
    the compute, and 0.57 s of PCIe copies: 7.17 - 1.58 = 5.59 s added, -17% (what the offload adds goes with the
    parameters, not with the batch the issue does not state). And the ZeRO-2 offload is the faster of the issue's two
    offloads (9.60 against 13.70 s)."""
    z2, plain, z3 = _zero2_offload_steps()
    assert z2["fits"] and z2["strategy"] == "gradient checkpointing + ZeRO-2 + CPU offload"
    step = z2["training"]["step_terms"]["step_s"]
    assert _near(step - plain["step_s"], 9.60 - 2.86)
    assert step < z3["step_s"]
    off = next(t for t in z2["terms"] if t["name"] == "offload_seconds")["inputs"]
    assert off["host_adam_s"] == pytest.approx(8.03e9 / 8 / (45.7e9 / 28 / 8), rel=0.01)


# ------------------------------------------------------------------ (c) rented or owned servers without the RAM

def _findings(name: str) -> tuple[int, str, dict]:
    code, out = _ask("audit", str(Q / f"{name}.yaml"), "--format", "json")
    d = json.loads(out)
    return code, d["verdict"], {f["rule"]: f for f in d["findings"]}


def test_an_8xa100_server_with_1tb_of_ram_cannot_hold_a_70b_offload():
    """axolotl-ai-cloud/axolotl issue #1439 (Mar 2024): a full fine-tune of a 70B model with DeepSpeed ZeRO-3 and CPU
    offload on one 8 x A100 80GB node failed for host memory ('the insufficient CPU memory caused issues. The node
    with 8*A100 has a total of 1024GB of CPU memory'), at batch size 1 too. By hand: Llama-2-70B's 68.98e9
    parameters x 16 B (fp32 master weights, both Adam moments, the fp32 gradients' host copy) = 1,104 GB of host
    state, / 0.8 usable = 1,380 GB. Blocked, exit 1, the RAM said to be the proposal's."""
    code, verdict, rules = _findings("q56-own-8xa100-80-70b-offload-1tb")
    assert code == 1 and verdict == "reject"
    short = rules["MEM-HOST-RAM-SHORT"]
    assert short["severity"] == "blocker" and short["evidence"]["host_ram_gb"] == 1024
    assert short["evidence"]["host_ram_needed_gb"] == pytest.approx(68.98e9 * 16 / 0.8 / 1e9, rel=0.01)


@pytest.mark.parametrize(("name", "ram_gib", "needed_gb", "held"), [
    # lambda.ai/instances (transcribed 2026-09-20, api-evangelist/lambda-labs plans/lambda-labs-plans-pricing.yml):
    ("q56-rent-lambda-8xv100-32b-offload", 448, 32.76e9 * 16 / 0.8 / 1e9, False),  # 8x Tesla V100: 448 GiB
    ("q56-rent-lambda-8xv100-13b-offload", 448, 13.02e9 * 16 / 0.8 / 1e9, True),
    ("q56-rent-lambda-1xb200-14b-offload", 360, 14.77e9 * 16 / 0.8 / 1e9, True),  # 1x B200 SXM6: 360 GiB
    ("q56-rent-lambda-1xh100-14b-offload", 225, 14.77e9 * 16 / 0.8 / 1e9, False),  # 1x H100 SXM: 225 GiB
    ("q56-rent-lambda-1xa10-8b-offload", 226, 8.03e9 * 16 / 0.8 / 1e9, True),  # 1x A10: 226 GiB
    ("q56-rent-lambda-8xa100-80-70b-offload", 1800, 68.98e9 * 16 / 0.8 / 1e9, True),  # 8x A100 80 GB: 1800 GiB
])
def test_a_lambda_rental_is_judged_on_the_ram_lambda_states(name, ram_gib, needed_gb, held):
    """A full fine-tune with ZeRO-3 CPU offload rented on Lambda (on-demand, one instance): the instance's RAM as
    Lambda's instances page states it decides whether the offloaded state fits (host state 16 B a parameter over
    the usable 0.8). Before branch buyerq56 the Lambda offers stated none and every one was judged on a typical
    rented datacenter server's 225 GB a GPU: the 8 x V100 instance (448 GiB = 481 GB) was approved for Qwen2.5-32B's
    655 GB as if it had 1,800 GB, and one B200 (360 GiB = 387 GB) was refused Qwen2.5-14B's 295 GB at 225."""
    code, verdict, rules = _findings(name)
    rule = "MEM-HOST-RAM-HELD" if held else "MEM-HOST-RAM-SHORT"
    assert rule in rules and ("MEM-HOST-RAM-SHORT" in rules) is not held
    f = rules[rule]
    assert f["evidence"]["host_ram_gb"] == pytest.approx(ram_gib * GIB, abs=0.05)
    assert f["evidence"]["host_ram_needed_gb"] == pytest.approx(needed_gb, rel=0.01)
    assert "as lambda states for its servers" in f["message"]
    assert (code, verdict == "reject") == ((0, False) if held else (1, True))


def test_recommend_rents_no_v100_server_that_holds_a_32b_offload():
    """Asked as a recommendation (rent up to 8 Tesla V100 16GB for the Qwen2.5-32B offload above): the largest V100
    server on offer, Lambda's 8x instance, has 448 GiB = 481 GB of RAM (lambda.ai/instances) against the 655 GB the
    state needs, so no count is feasible (exit 1) and the 8-GPU candidate is refused on Lambda's own figure; it was
    'rent 8 x V100 from lambda' while the offer stated no RAM and a typical 225 GB a GPU (1,800 GB) was assumed."""
    code, out = _ask("recommend", str(Q / "q56-rent-v100-32b-offload-recommend.yaml"), "--format", "json")
    d = json.loads(out)
    assert code == 1 and d["recommendation"] is None
    short = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"
                 and f["evidence"]["host_ram_gb"] == pytest.approx(448 * GIB, abs=0.05))
    assert "8 x NVIDIA Tesla V100" in short["message"] and "as lambda states for its servers" in short["message"]


def test_four_lambda_v100s_pay_for_the_whole_node_and_have_its_ram():
    """Four of Lambda's V100s for Llama 2 13B with ZeRO-3 CPU offload (260 GB of host state over the usable 0.8):
    Lambda rents V100s only as its 8x instance (lambda.ai/instances: '8x NVIDIA Tesla V100', 88 vCPUs, 448 GiB RAM;
    knowledge/clouds.yaml min_gpus 8), so the four are billed as eight and run on a server of 481 GB. Asked before
    branch buyerq56 the proposal was approved, billed for 4 GPUs and judged on an assumed 900 GB (4 x a typical 225);
    with Lambda's RAM a GPU alone it would be blocked at 4/8 of the server (241 GB). Now it holds on the whole node's
    481 GB, FEE-NODE-WHOLE says 8 are billed, and the bill is 8 x $0.79 an hour. Asked as a recommendation (up to 8
    V100s), the 4-GPU candidate is feasible on the same node and 8 on it finish sooner (the answer)."""
    code, verdict, rules = _findings("q56-rent-lambda-4xv100-13b-offload")
    assert verdict == "revise"  # the warning, no blocker
    assert code == 0 and "MEM-HOST-RAM-SHORT" not in rules
    assert rules["MEM-HOST-RAM-HELD"]["evidence"]["host_ram_gb"] == pytest.approx(448 * GIB, abs=0.05)
    whole = rules["FEE-NODE-WHOLE"]
    assert whole["severity"] == "warning" and "only as a whole node of 8" in whole["message"]
    _, out = _ask("audit", str(Q / "q56-rent-lambda-4xv100-13b-offload.yaml"), "--format", "json")
    rent = next(x for x in json.loads(out)["proposed"]["ledger"]["lines"] if x["kind"] == "rent")["inputs"]
    assert rent["gpus_paid"] == 8 and rent["usd_per_hour"] == pytest.approx(8 * 0.79)
    code, out = _ask("recommend", str(Q / "q56-rent-v100-13b-offload-recommend.yaml"), "--format", "json")
    d = json.loads(out)
    four = next(c for c in d["candidates"] if c["count"] == 4 and c["provider"] == "lambda")
    assert four["feasible"] and d["recommendation"]["count"] == 8


def test_two_v100s_are_not_priced_as_two_single_gpu_instances_summed_into_one_server():
    """The same recommendation's 2-GPU candidate is estimated as one server of 2 V100s. It was priced on two AWS
    p3.2xlarge (one V100 each: aws.amazon.com/ec2/instance-types/p3, 61 GiB), two machines, and judged as one node of
    their summed RAM: 'needs 260 GB of host RAM per node; the node has 131 GB (as the p3.2xlarge instance comes)'. A
    one-server estimate is now priced on an offer whose one rental holds the server where there is one: Lambda's 8x
    V100 (481 GB, 8 billed), where it holds."""
    _, out = _ask("recommend", str(Q / "q56-rent-v100-13b-offload-recommend.yaml"), "--format", "json")
    two = next(c for c in json.loads(out)["candidates"] if c["count"] == 2)
    assert two["nodes"] == 1 and two["instance"] != "p3.2xlarge"
    assert two["provider"] == "lambda" and two["feasible"]
    assert not any("p3.2xlarge" in r for r in two["reasons"])


def test_a_plan_renting_lambdas_v100_node_runs_on_all_its_gpus(tmp_path):
    """The 13B offload in a plan that rents V100s (up to 8): Lambda rents them only as the 8x instance ($0.79 a
    GPU-hour, 8 billed: $6.32 an hour). The plan rented 2 of them, paying the node's $6.32 an hour for a 66.6-hour
    run on two GPUs (judged on an assumed 450 GB); a run on fewer GPUs than a whole-node offer bills now runs on all
    of them where that is faster, as on a listed instance (plan/sizing._on_paid): 8 V100s, 14.1 hours, the same
    $6.32 an hour, the node's 481 GB holding the 260 GB of state."""
    import yaml

    ft = {"task": "finetune", "method": "full", "model": "llama-2-13b", "precision": "fp16", "seq_len": 2048,
          "gradient_checkpointing": True, "zero_stage": 3, "offload": "cpu", "train_tokens": 1.0e8}
    doc = {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["v100-16gb-sxm2"], "max_gpus": 8},
           "workloads": [{"name": "ft", "workload": ft, "cadence": {"at_month": 1}}]}
    (tmp_path / "plan.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    [o] = [o for o in json.loads(r.stdout)["options"] if o["workload"] == "ft"]
    assert (o["count"], o["rent_count"], o["rent_provider"]) == (8, 8, "lambda")
    assert o["rent_per_hour"] == pytest.approx(8 * 0.79)
