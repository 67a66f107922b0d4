"""One quantity, one value: a figure the JSON gives is the figure every report and every formula term of the
same name shows (estimate, recommend, audit), checked against hand calculations.

- The TPOT term of a serving estimate is the load's TPOT (it showed a step worked out again with the prompts
  spread evenly over the steps: 0.0425 s beside the JSON's 0.0375 s for DeepSeek-R1 FP8 on 8 x H200).
- A copy that does not fit in memory is not timed: no TPOT, TTFT, per-sequence speed or curve, in the JSON,
  the text and the audit's comparison (it printed 54.5 tok/s per sequence and "18 ms per output token").
- The "does not fit ... would hold X GB per GPU" label shows the memory estimate's per-GPU total, the figure
  the candidate's memory and MEM-NO-FIT show (it showed weights + working set: 85.3 GB beside 86.4 GB).
"""

from __future__ import annotations

import json
import math
import re

import pytest

from gpuwise import audit, estimate
from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .clirun import gpuwise

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one search per question


def _terms(g) -> dict:
    return {t.name: t for t in g.terms}


# ------------------------------------------------------------------------------------------- TPOT
def test_the_tpot_term_is_the_loads_tpot_by_hand(kb):
    """Llama-3.1-8B BF16 on one H100 SXM with vLLM, 1000 + 1000 tokens, 8 requests in a closed loop. vLLM
    carries each prompt on the decode steps as chunks (its 8,192-token step budget leaves room for the whole
    1,000-token prompt: one chunk, n = 1); a = b / output x n = 8 / 1000 prompts join each step, one at a time
    (k = 1), and a request's decode meets the other b - 1 requests' prompts, (b - 1) / b of them. So by hand
    TPOT = pure decode step + a x (b - 1) / b x (step carrying one prompt - pure decode step), each step the
    step model's at a mean context of 1000 + 500 tokens (the prompt's chunk attends to 500 on average). The JSON's
    ``tpot_s``, the term named ``tpot_s`` and 1 / the per-sequence speed are that one number, and the term's parts
    add up to it."""
    w = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 1000,
         "concurrent_requests": 8}
    r = estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=1)
    g = r.gpu
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 1)
    eng, rep = s.engine, s.replica
    assert eng.fw.id == "vllm" and eng.fw.chunked_prefill and eng.chunk - 8 >= 1000 and eng.spec is None
    assert not eng.eager_kernel  # no launch floor on a step that carries a prompt (vLLM's CUDA graphs)
    pure = SV.step(job, eng, rep, 8, 0.0, 1000 + 500, 0.0).seconds
    joined = SV.step(job, eng, rep, 8, 1000.0, 1000 + 500, 500).seconds
    tpot = pure + (8 / 1000) * (7 / 8) * (joined - pure)
    assert g.serving.tpot_s == pytest.approx(tpot, rel=1e-9)
    t = _terms(g)["tpot_s"]
    assert t.value == g.serving.tpot_s  # the same number, not a step worked out again another way
    assert t.inputs["decode_step_s"] == pytest.approx(pure, rel=1e-9)
    assert t.inputs["decode_step_s"] + t.inputs["prompt_share_s"] == pytest.approx(t.value, rel=1e-12)
    parts = sum(t.inputs[k] for k in ("linear_s", "attention_s", "communication_s", "overhead_s"))
    assert parts == pytest.approx(pure, rel=1e-9)
    assert g.serving.per_sequence_tokens_per_s == pytest.approx(1 / tpot, rel=1e-9)
    assert _terms(g)["decode_tokens_per_s"].value == pytest.approx(1 / tpot, rel=1e-9)
    # the throughput term's formula, with its own inputs, gives its value: b x output / (TTFT + output x TPOT)
    th = _terms(g)["throughput_tokens_per_s"]
    got = th.inputs["concurrency"] * 1000 / (th.inputs["ttft_s"] + 1000 * th.inputs["tpot_s"])
    assert th.value == pytest.approx(got, rel=1e-9) and th.value == g.serving.throughput_tokens_per_s


def test_deepseek_r1_on_eight_h200_shows_one_tpot_in_json_and_text(tmp_path):
    """The case the report showed two TPOTs for: DeepSeek-R1 FP8, 4096 + 4096 tokens, 32 requests on 8 x H200
    (TP 8, vLLM). The text's ``tpot_s = ...`` term and the throughput term's ``tpot_s`` input are the JSON's."""
    req = tmp_path / "r1.yaml"
    req.write_text("workload:\n  task: inference\n  model: deepseek-r1\n  precision: fp8\n  context_len: 8192\n"
                   "  concurrent_requests: 32\n")
    js = gpuwise("estimate", str(req), "--gpu", "H200", "--gpus", "8", "--format", "json")
    text = gpuwise("estimate", str(req), "--gpu", "H200", "--gpus", "8")
    assert js.returncode == 0 and text.returncode == 0
    tpot = json.loads(js.stdout)["gpu"]["serving"]["tpot_s"]
    shown = [float(v) for v in re.findall(r"tpot_s = ([0-9.]+)", text.stdout)]
    assert len(shown) >= 2 and all(v == pytest.approx(tpot, rel=2e-3) for v in shown), (tpot, shown)
    per_seq = json.loads(js.stdout)["gpu"]["serving"]["per_sequence_tokens_per_s"]
    assert per_seq == pytest.approx(1 / tpot, rel=1e-12)
    assert f"Decode speed, one sequence   {per_seq:.1f} tokens/s" in text.stdout


# ------------------------------------------------------------------------------ a copy that does not fit
R1_H100 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "prompt_tokens": 2048,
           "output_tokens": 2048}


def test_a_copy_that_does_not_fit_has_no_speed_and_its_label_shows_the_memory_total():
    """DeepSeek-R1 FP8 on 8 x H100 80GB does not fit (TP 8, the closest layout). By hand, per GPU: the
    weights term's 669,173,061,120 FP8 params x 1 B / 8 + 1,853,358,080 16-bit params x 2 B / 8 + 1,007,591,424 B
    held whole on every rank (MLA down-projections and gate) = 85,117,563,584 B; the working set of the 2,048-token
    prompt vLLM prefills beside the decodes, held at the decode end (since users32), (2,048 x (8 B x 7,168 + 6 B x
    2,048 x 8 experts) + 4 B x 129,280 vocab x 1 sequence) / 8 = 39,910,528 B; the MLA cache 61 layers x (512 + 64)
    x 2 B x (2048 + 1024) tokens = 215,875,584 B; the CUDA context 2^30 B + 5% x 39,910,528 B; and what vLLM's
    start-up profile run holds beyond its step's working set, kept from the KV pool (serving.yaml vllm
    profile_sampler): 37.7 B x 129,280 x min(1,024, 8,192) requests = 4,990,828,544 B less (8,192 x (8 B x 7,168 +
    6 B x 2,048 x 8) + 4 B x 129,280 x 1,024) / 8 = 225,574,912 B, 4,765,253,632 B. Total 91,214,340,678 B: the
    JSON's memory, and the label's "would hold 91.2 GB" (it said 85.3: weights and working set alone; 86.4 before
    the profile's peak was counted). Nothing is timed: no TPOT, TTFT, per-sequence speed, prefill speed or curve
    (it gave 54.5 tok/s per sequence)."""
    r = estimate({"workload": R1_H100}, gpu="h100-80gb-sxm", gpus=8)
    g = r.gpu
    weights = 669_173_061_120 * 1 / 8 + 1_853_358_080 * 2 / 8 + 1_007_591_424
    act = (2048 * (8 * 7168 + 6 * 2048 * 8) + 4 * 129_280 * 1) / 8
    kv = 61 * (512 + 64) * 2 * (2048 + 1024)
    profile = 37.7 * 129_280 * 1024 - (8192 * (8 * 7168 + 6 * 2048 * 8) + 4 * 129_280 * 1024) / 8
    total = weights + act + kv + 2**30 + 0.05 * act + profile
    assert r.memory.per_gpu_bytes == round(total) == 91_214_340_678
    assert not g.fits
    assert g.strategy == "does not fit: tensor parallel 8 over 8 GPUs would hold 91.2 GB per GPU"
    sv = g.serving
    assert sv.tpot_s is None and sv.ttft_s is None and sv.per_sequence_tokens_per_s is None
    assert sv.single_stream_tokens_per_s is None and sv.curve == []
    assert g.decode_tokens_per_s is None and g.prefill_tokens_per_s is None and sv.throughput_tokens_per_s == 0
    # nothing fits, so no other layout of the count is "best" (it named 8 x (one GPU) serving nothing)
    assert sv.best_layout.layout == sv.layout
    out = json.loads(json.dumps(r.model_dump(mode="json")))["gpu"]["serving"]
    assert out["tpot_s"] is None and out["ttft_s"] is None and out["per_sequence_tokens_per_s"] is None
    names = {t.name for t in g.terms}
    assert not names & {"decode_tokens_per_s", "prefill_tokens_per_s", "tpot_s"}
    for t in g.terms:  # no term times a copy that does not fit
        assert not {"tpot_s", "ttft_s"} & set(t.inputs), t.name


def test_a_copy_that_does_not_fit_prints_no_speed_in_any_format(tmp_path):
    """The estimate's text, and recommend's JSON, say the copy does not fit and print no per-token time or
    per-sequence speed for it; recommend's candidate label gives the candidate's own memory figure."""
    req = tmp_path / "r1.yaml"
    req.write_text("workload:\n  task: inference\n  model: deepseek-r1\n  precision: fp8\n  prompt_tokens: 2048\n"
                   "  output_tokens: 2048\nconstraints:\n  gpus: [H100]\n  max_gpus: 8\n")
    text = gpuwise("estimate", str(req), "--gpu", "H100", "--gpus", "8").stdout
    words = " ".join(text.split())  # the text wraps its lines
    assert "would hold 91.2 GB per GPU" in words and "Total per GPU 91.2 GB" in words
    assert "tpot_s" not in text and "ttft_s" not in text and "Decode speed, one sequence" not in words
    assert "tokens/s per sequence" not in words and "one sequence:" not in words
    assert "0: a copy that does not fit in memory serves nothing" in words
    rec = gpuwise("recommend", str(req), "--format", "json")
    assert rec.returncode == 1
    for c in json.loads(rec.stdout)["candidates"]:
        assert not c["feasible"] and c["serving"]["tpot_s"] is None and c["serving"]["ttft_s"] is None
        assert c["serving"]["per_sequence_tokens_per_s"] is None
        # one GPU holds its figure ("one GPU would hold X GB"), a layout of several per GPU
        need = re.search(r"would hold ([0-9.]+) GB(?: per GPU)?$", c["strategy"])
        assert need and float(need.group(1)) == round(c["memory_per_gpu_bytes"] / 1e9, 1), c["strategy"]


def test_an_audit_compares_no_latency_of_a_proposal_that_does_not_fit(tmp_path):
    """A proposal of DeepSeek-R1 FP8 on 8 x H100: the alternative "does not do the same work: 41 ms per output
    token instead of 18" said the proposal (which holds no copy) decodes at 18 ms a token. It is not timed, so
    the alternative gives nothing up; the proposal's serving has no TPOT in any format."""
    p = tmp_path / "p.yaml"
    p.write_text("title: R1 on 8 H100\nworkload:\n  task: inference\n  model: deepseek-r1\n  precision: fp8\n"
                 "  context_len: 4096\n  concurrent_requests: 8\n  max_tpot_ms: 50\nhardware:\n  gpu: H100\n"
                 "  count: 8\n  nodes: 1\n  link: nvswitch\nacquisition:\n  mode: rent\n  hourly_usd: 2.5\n"
                 "  months: 6\n")
    a = audit(str(p))
    assert a.proposed.serving.tpot_s is None and a.proposed.serving.per_sequence_tokens_per_s is None
    assert not any(gu.what == "tpot_s" for gu in a.alternative_gives_up)
    for fmt in ("text", "md", "html"):
        out = gpuwise("audit", str(p), "--format", fmt, "--detail", "full").stdout
        assert "per output token instead of" not in out, fmt
        assert not re.search(r"tpot_s = [0-9]", out.split("Best feasible alternative")[0]), fmt


def test_the_unfit_bound_is_infinite_not_a_speed(kb):
    """The serving model's own record of an unfit copy: its load and single-request points are not timed
    (infinite), so the rules' latency facts read them as not known (-1), never as a speed."""
    job = resolve(Requirements.model_validate({"workload": R1_H100}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 8)
    assert not s.replica.fits
    assert math.isinf(s.load.tpot) and math.isinf(s.load.ttft) and math.isinf(s.single.decode_step)
    assert SV.curve(job, s) == []


# ------------------------------------------------------------------------------------------- GPU-hours
def test_the_estimate_says_which_gpu_hours_it_gives(kb):
    """Full fine-tune of Llama-2-13B on 8 x B200 (examples/finetune-full-13b.yaml): the estimate's
    ``gpu_hours`` is the run's GPU-hours as published runs count them, while ``timeline.gpu_hours`` (and
    recommend's ``gpu_hours``) is what is billed, the start-up and wind-down included. By hand: billed =
    wall-clock x 8 GPUs; of training = (wall-clock - the 0.25 h start-up, knowledge/runtime.yaml
    job_setup_hours) x 8, 2 GPU-hours fewer; the cost is the billed ones x $/GPU-hour. The text showed 12 under
    "GPU-hours" beside a cost of 14.4 x $5.98: it names both now."""
    setup = kb.runtime.training.job_setup_hours.value
    assert setup == 0.25
    r = estimate("examples/finetune-full-13b.yaml", gpu="b200", gpus=8)
    g = r.gpu
    assert g.timeline.gpu_hours == pytest.approx(g.wall_hours * 8, rel=1e-12)
    assert g.gpu_hours == pytest.approx((g.wall_hours - setup) * 8, rel=1e-12)
    assert g.timeline.gpu_hours - g.gpu_hours == pytest.approx(2.0, rel=1e-12)
    assert g.cost_usd == pytest.approx(g.timeline.gpu_hours * g.cost.usd_per_gpu_hour, rel=1e-9)
    text = gpuwise("estimate", "examples/finetune-full-13b.yaml", "--gpu", "b200", "--gpus", "8").stdout
    assert re.search(rf"GPU-hours of training +{g.gpu_hours:.0f}\n", text)
    assert re.search(rf"GPU-hours billed +{g.timeline.gpu_hours:.0f}\n", text)
    rec = json.loads(gpuwise("recommend", "examples/finetune-full-13b.yaml", "--format", "json").stdout)
    top = rec["recommendation"]
    assert (top["gpu"], top["count"]) == ("b200", 8)
    assert top["gpu_hours"] == pytest.approx(g.timeline.gpu_hours, rel=1e-12)


# ------------------------------------------------------------------------------ memory without --gpu
def test_the_memory_alone_keeps_the_pinned_serving_layout_and_says_it():
    """``estimate`` of Llama-3.1-70B served with ``parallelism: {tp: 4}`` on 4 GPUs gave 143.4 GB per GPU
    without ``--gpu`` (the pin dropped: one whole copy a GPU) and 36.6 GB with ``--gpu H100``. The pin is the
    user's: by hand each GPU holds 70,553,706,496 params x 2 B / 4 (Hugging Face safetensors total, the catalog's
    params_b) of the weights, and the memory alone is the GPU estimate's to the byte but for what vLLM's start-up
    profile run holds beyond its step's working set on that GPU (its default batch follows the device's memory:
    37.7 B x 128,256 x 1,024 less (8,192 x (8 B x 8,192 + 6 B x 28,672) + 4 B x 128,256 x 1,024) / 4 =
    4,333,423,821 B on an H100; serving.yaml vllm profile_sampler). Without a pin the layout it assumes is said
    beside the memory ("4 x (one GPU)")."""
    w = {"task": "inference", "model": "llama-3.1-70b", "parallelism": {"tp": 4}}
    alone = estimate({"workload": w}, gpus=4)
    on_gpu = estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=4)
    assert alone.memory.breakdown["weights"] == 70_553_706_496 * 2 // 4 == 35_276_853_248
    profile = 37.7 * 128_256 * 1024 - (8192 * (8 * 8192 + 6 * 28_672) + 4 * 128_256 * 1024) / 4
    assert alone.memory.per_gpu_bytes + profile == pytest.approx(on_gpu.memory.per_gpu_bytes, abs=1)  # each rounded
    assert alone.memory.total_bytes == pytest.approx(alone.memory.per_gpu_bytes * 4, abs=4)  # each rounded
    assert alone.memory.layout.endswith("; tensor parallel 4")
    unpinned = estimate({"workload": {"task": "inference", "model": "llama-3.1-70b"}}, gpus=4)
    assert unpinned.memory.breakdown["weights"] == 70_553_706_496 * 2
    assert unpinned.memory.layout.endswith("; 4 x (one GPU)")
