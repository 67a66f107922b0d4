"""review62: recommend, audit and plan read as the buyer and the approver after session 49's changes
(tests/data/validation/README.md, 'review62'). Each test fails on the branch point (1c0ab569), its figures worked
by hand here."""

from __future__ import annotations

import json
import re

import pytest

from gpuwise.render.fmt import Fmt

from .clirun import ROOT
from .clirun import gpuwise as cli

DATA = ROOT / "tests/data/review62"
# an Unsloth LoRA of Qwen3-0.6B on one B200 (H945's job, trainblind44 / unsloth64): 1e8 tokens, micro-batch 2
UNSLOTH = DATA / "recommend-unsloth-0.6b-b200.yaml"


def _run(*args: str) -> str:
    r = cli(*args)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


# ---------------------------------------------------------------- 1. GPU-hours under 10 said as the formula says them
def test_compute_step_says_under_ten_gpu_hours_as_its_formula_does():
    d = json.loads(_run("recommend", str(UNSLOTH), "--format", "json"))
    [step] = [s for s in d["steps"] if s["step"] == "compute"]
    [term] = [t for t in step["terms"] if t["name"] == "gpu_hours"]
    g = step["values"]["gpu_hours"]
    assert g == pytest.approx(term["value"])
    # the training's GPU-hours, 0.906 (wall-clock less the start-up x 1 GPU): '0.91', as the formula's
    # 'GPU-hours of training = 0.91 GPU-hours' (Fmt.quantity: whole from 10 up, else two decimals); the step read
    # '1 GPU-hours of training' ('{gpu_hours:,.0f}')
    assert 0.5 < g < 1.0
    assert step["conclusion"].startswith(f"1 x NVIDIA B200 (HGX B200) 180GB: {g:.2f} GPU-hours of training, ")
    text = " ".join(_run("recommend", str(UNSLOTH), "--detail", "full").split())
    assert f"GPU-hours of training = {g:.2f} GPU-hours" in text
    assert f"{g:.2f} GPU-hours of training" in text and " 1 GPU-hours" not in text
    zh = " ".join(_run("recommend", str(UNSLOTH), "--lang", "zh").split())
    assert f"训练 {g:.2f} GPU 小时" in zh


def test_ten_gpu_hours_and_more_stay_whole():
    # guard: the 70B LoRA of examples/lora-70b.yaml trains for hundreds of GPU-hours, said whole and grouped
    d = json.loads(_run("recommend", str(ROOT / "examples/lora-70b.yaml"), "--format", "json"))
    [step] = [s for s in d["steps"] if s["step"] == "compute"]
    g = step["values"]["gpu_hours"]
    assert g >= 10 and f": {g:,.0f} GPU-hours of training, " in step["conclusion"]


# ---------------------------------------------------------------- 2. no e-notation in the time table
def test_a_part_of_a_few_milliseconds_is_written_out():
    f = Fmt("en")
    # 6.1e-06 h (0.02 s of failures and restarts in a 0.9 h run): two figures, written out
    assert f.hours(6.1e-06) == "0.0000061 hours"
    assert f.hours(0.00017) == "0.00017 hours" and f.hours(0.049) == "0.049 hours"  # as before
    assert f.hours_figure(6.1e-06)[0] == pytest.approx(6.1e-06)
    text = _run("recommend", str(UNSLOTH), "--detail", "full")
    [row] = [ln for ln in text.splitlines() if ln.strip().startswith("failures and restarts")]
    assert not re.search(r"\de-\d", row), row


# ---------------------------------------------------------------- 3. the global batch the layout takes, said
FILLED = ROOT / "tests/rules/TCO-RENT-STEP-FILLED/input.yaml"  # 70B pretrain, 72 GB200 (product64)


def test_a_global_batch_rounded_up_to_whole_micro_batches_is_said():
    # the assumed 4,194,304 tokens (512 sequences of 8,192, LLaMA's 4M) on CP 2 x DP 36: each replica takes
    # ceil(512 / 36) = 15 micro-batches of 1, so 36 x 15 = 540 sequences, 540 x 8,192 = 4,423,680 tokens, 5.47% more
    # than the Assumptions' 4.19e6 the brief lists beside it
    import math
    assumed, seq, replicas = 4_194_304, 8_192, 36
    accum = math.ceil(assumed / seq / replicas)
    tokens = replicas * accum * seq
    assert (accum, tokens) == (15, 4_423_680)
    d = json.loads(_run("recommend", str(FILLED), "--format", "json"))
    [a] = [a for a in d["assumptions"] if a["field"] == "workload.global_batch_tokens"]
    assert a["value"] == assumed and d["recommendation"]["count"] == 72
    text = " ".join(_run("recommend", str(FILLED)).split())
    assert (f"Global batch {tokens:,} tokens a step, 5% more than the {assumed:,} assumed: the {replicas} replicas "
            f"take whole micro-batches, {replicas} × {accum} × 1 = {replicas * accum} sequences of {seq:,} tokens"
            in text)
    zh = " ".join(_run("recommend", str(FILLED), "--lang", "zh").split())
    assert f"全局批次 每步 {tokens:,} 个词元，比假设的 {assumed:,} 多 5%" in zh


def test_a_global_batch_the_replicas_divide_draws_no_row():
    # guard: 64 GB200 (review60's max_gpus 64), CP 2 x DP 32: 512 / 32 = 16 micro-batches, 4,194,304 exactly
    text = _run("recommend", str(ROOT / "tests/data/review60/recommend-gb200-70b-cp.yaml"))
    assert "4,194,304" in text and "Global batch" not in text


# ---------------------------------------------------------------- 4. a committed term's GPU-hours are billed, not run
P4DE_MONTH = DATA / "audit-p4de-2xa100-1-month.yaml"  # 2 A100 of a p4de.24xlarge at $5.12, committed 1 month


def test_a_committed_terms_gpu_hours_on_the_gpus_used_are_called_billed():
    # knowledge/clouds.yaml: a p4de.24xlarge holds 8 A100 80GB, rented whole; a 1-month term bills 730 h.
    # The job runs 6.91 h (2 GPUs: 13.8 GPU-hours); the term bills 2 x 730 = 1,460 on the 2 GPUs it uses and
    # 8 x 730 = 5,840 on the instance, x $5.12 = $29,900.80 (the ledger's total)
    d = json.loads(_run("audit", str(P4DE_MONTH), "--format", "json"))
    tl = d["proposed"]["timeline"]
    assert tl["billed_hours"] == pytest.approx(730) and tl["wall_hours"] < 7
    assert tl["gpu_hours"] == pytest.approx(2 * 730) and tl["billed_gpu_hours"] * 5.12 == pytest.approx(29_900.80)
    text = _run("audit", str(P4DE_MONTH), "--detail", "full")
    assert re.search(r"GPU-hours billed on the 2 GPUs used +1,460\n", text)
    assert re.search(r"GPU-hours billed for 8 GPUs +5,840\n", text)
    # the candidates' time table: the GPUs' hours with the start-up, 2 x 6.91 = 14, not the term's 1,460
    used = 2 * tl["wall_hours"]
    assert f"Strategy: ZeRO-1; GPU-hours with the start-up: {used:,.0f};" in " ".join(text.split())
    assert "GPU-hours with the start-up: 1,460" not in " ".join(text.split())
    zh = _run("audit", str(P4DE_MONTH), "--detail", "full", "--lang", "zh")
    assert re.search(r"所用 2 块 GPU 计费的 GPU 小时 +1,460\n", zh)


def test_a_job_billed_its_own_hours_keeps_the_used_label():
    # guard: 100 GB200 at CoreWeave on demand (product63): 100 x 283.74 = 28,374 run, 144 x 283.74 = 40,859 billed
    text = _run("audit", str(ROOT / "tests/data/product63/audit-gb200-100.yaml"), "--detail", "full")
    assert re.search(r"GPU-hours on the 100 GPUs used +28,374\n", text)
    assert "GPU-hours with the start-up: 28,374;" in " ".join(text.split())


# ---------------------------------------------------------------- 5. 16 SXM GPUs bought are the two servers priced
QUOTE16 = DATA / "audit-quote-16xh100-sxm.yaml"  # a vendor's quote: 16 x H100 SXM at $45,000, no nodes given


def test_sixteen_sxm_gpus_bought_are_estimated_on_the_two_servers_priced():
    # knowledge/prices.yaml: the H100 SXM is sold in 8-GPU servers (units.sizes), so 16 are 2 x 8-GPU baseboards
    # (2 x 8 x $45,000 = $720,000) with a scale-out network line; the estimate ran them as one 16-GPU node over
    # PCIe. Now 16 / 8 = 2 nodes, each 8 on NVSwitch, said as an assumption; the same file with nodes: 2 reads the
    # same time
    d = json.loads(_run("audit", str(QUOTE16), "--format", "json"))
    p = d["proposed"]
    lines = {ln["kind"]: ln for ln in p["ledger"]["lines"]}
    assert lines["capex"]["amount"] == 16 * 45_000 and "network" in lines
    assert p["nodes"] == 2
    [a] = [a for a in d["assumptions"] if a["field"] == "hardware.nodes"]
    assert a["value"] == 2
    text = " ".join(_run("audit", str(QUOTE16)).split())
    assert "16 GPUs on 2 nodes" in text and "over nvswitch 900 GB/s per GPU" in text and "PCIe" not in text
    assert "hardware.nodes = 2" in text


def test_stated_nodes_and_a_rental_are_as_written(tmp_path):
    # guard: nodes given stay given (1 node of 16, the buyer's own word), and eight SXM GPUs stay one server
    import yaml
    doc = yaml.safe_load(QUOTE16.read_text(encoding="utf-8"))
    doc["hardware"]["nodes"] = 1
    (tmp_path / "one.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = cli("audit", str(tmp_path / "one.yaml"), "--format", "json")
    assert json.loads(r.stdout)["proposed"]["nodes"] == 1
    doc["hardware"] = {"gpu": "H100 SXM", "count": 8}
    (tmp_path / "eight.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    d = json.loads(cli("audit", str(tmp_path / "eight.yaml"), "--format", "json").stdout)
    assert d["proposed"]["nodes"] == 1 and not [a for a in d["assumptions"] if a["field"] == "hardware.nodes"]


# ---------------------------------------------------------------- 6. a batch's row says a dearer, sooner alternative
def test_a_batch_summary_says_the_alternative_costs_more_and_finishes_sooner():
    # examples/proposal-good-lora-8xh100.yaml: 8 H100 at Lambda, $252 in 7.8 h; the alternative 64 H100 at Nebius,
    # $296 in 1.2 h: $296 - $252 = $44 more (as the section says it), ranked first by the value of a day
    good = str(ROOT / "examples/proposal-good-lora-8xh100.yaml")
    d = json.loads(_run("audit", good, "--format", "json"))
    prop, alt = d["proposed"]["total_cost_usd"], d["alternative"]["total_cost_usd"]
    gap = round(alt) - round(prop)
    assert gap == 44 and d["alternative"]["wall_days"] < d["proposed"]["wall_days"]
    text = " ".join(_run("audit", good, str(ROOT / "examples/proposal-h100-old-driver.yaml")).split())
    assert f"Best alternative: 64 × NVIDIA H100 SXM5 80GB (costs ${gap} more, finishes sooner)" in text
    assert f"The alternative costs ${gap} more and finishes sooner" in text  # the section, as before
    zh = " ".join(_run("audit", good, str(ROOT / "examples/proposal-h100-old-driver.yaml"), "--lang", "zh").split())
    assert f"贵 ${gap}，但完成更早" in zh
