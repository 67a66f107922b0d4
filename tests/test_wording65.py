"""wording65: findings and report lines that said the wrong thing in their case (review62's 'Left' list, issue 22).

1. FEE-RENT-STEP-CHOSEN told a job capped at max_gpus 64 to 'size the job to a whole number of steps (72 GPUs each)',
   which the cap forbids: where the count billed is above max_gpus, FEE-RENT-STEP-CAPPED gives the same message and a
   fix that names the cap (rules/cloud-fees.yaml; the candidate fact's max_gpus).
2. CMP-LAYER-HOST-WAIT (and CMP-MOE-HOST-WAIT) said 'the GPUs wait' of one GPU; a rule's template cannot choose its
   plural, so the candidate fact words its counts (gpus_wait, tp_gpus, kv_sequences, each with its parts): found
   the same way, CMP-NO-ROOM-TO-SERVE's '(1 GPUs per model copy)' and SRV-LOAD-BEYOND-KV's 'holds 1 sequences'.
3. The plan's solver line said '2 variables, 1 constraints' (render/plan_view.py): plural by count.

Each test fails on the branch point f857a20b.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from tests.test_buyer_questions import _ask

HERE = Path(__file__).parent
GB200_REC = "tests/data/review60/recommend-gb200-70b-cp.yaml"  # 70B pretrain, gb200 only, rent, max_gpus 64
CHOSEN = "tests/rules/FEE-RENT-STEP-CHOSEN/input.yaml"  # 70B service on gb200, max_gpus 128
HOST_WAIT = HERE / "rules" / "CMP-LAYER-HOST-WAIT" / "input.yaml"  # Unsloth LoRA of Qwen3-0.6B on 1 B200
NO_ROOM = "tests/data/wording65/audit-8b-128k-one-4090.yaml"
ONE_SLOT = "tests/data/wording65/audit-8b-128k-one-l40s.yaml"
PLAN = "tests/data/wording65/plan-one-gb200-lora.yaml"
RACK = 72  # knowledge/clouds.yaml coreweave gb200 step_gpus (docs.coreweave.com/docs/platform/instances/gb200)


def _json(*args: str) -> dict:
    return json.loads(_ask(*args, "--format", "json")[1])


def _flat(text: str) -> str:
    return " ".join(text.split())


def _found(d: dict, rule: str) -> list[dict]:
    return [f for f in d["findings"] if f["rule"] == rule]


def test_a_rack_above_max_gpus_is_not_answered_by_sizing_the_job_to_it():
    """64 GB200 under max_gpus 64: ceil(64 / 72) x 72 = 72 billed, 8 more than the cap, so the job cannot be sized to
    the rack; the fix names the cap and the count to allow. The message stays FEE-RENT-STEP's (the audit's words)."""
    d = _json("recommend", GB200_REC)
    assert d["recommendation"]["count"] == 64
    (f,) = _found(d, "FEE-RENT-STEP-CAPPED")
    paid = -(-64 // RACK) * RACK
    assert f["evidence"]["gpus_paid"] == paid == 72 and f["evidence"]["max_gpus"] == 64 < paid
    assert f["message"].endswith(f"so {paid} GPUs are billed and the job uses 64")
    assert f["fix"].startswith(f"Allow {paid} GPUs (constraints.max_gpus is 64, below the {paid} billed")
    assert "whole number of steps" not in f["fix"]
    assert not _found(d, "FEE-RENT-STEP-CHOSEN")
    zh = "".join(_ask("recommend", GB200_REC, "--lang", "zh", "--detail", "full")[1].split())
    assert f"允许{paid}块GPU（constraints.max_gpus为64，低于计费的{paid}块" in zh


def test_a_rack_within_max_gpus_keeps_the_size_to_whole_steps_fix():
    """A service's count is its load's: 1 GB200 answered, billed a whole rack of 72, within max_gpus 128, so sizing the
    job to whole racks is allowed and FEE-RENT-STEP-CHOSEN gives FEE-RENT-STEP's fix. The 128 candidate, billed
    ceil(128 / 72) x 72 = 144 > 128, is CAPPED's."""
    d = _json("recommend", CHOSEN)
    rec = d["recommendation"]
    (f,) = [f for f in _found(d, "FEE-RENT-STEP-CHOSEN") if f["candidate"] == f"gb200x{rec['count']}:rent"]
    assert f["evidence"]["gpus_paid"] == RACK <= f["evidence"]["max_gpus"] == 128
    assert f["fix"].startswith(f"Size the job to a whole number of steps ({RACK} GPUs each)")
    capped = {f["candidate"]: f for f in _found(d, "FEE-RENT-STEP-CAPPED")}
    assert f"gb200x{rec['count']}:rent" not in capped
    if "gb200x128:rent" in capped:
        assert capped["gb200x128:rent"]["evidence"]["gpus_paid"] == 2 * RACK


def test_one_gpu_waits_in_the_singular_and_several_in_the_plural():
    """CMP-LAYER-HOST-WAIT on H945's job: 1 B200 waits about 70% of each step (0.44 s of host wait over a 0.62 s step,
    tests/test_unsloth_host64.py); the same job on 2 B200 (data parallel) waits the same share, each GPU alike."""
    one = _json("audit", str(HOST_WAIT))
    (f,) = _found(one, "CMP-LAYER-HOST-WAIT")
    assert ": the GPU waits 70% of each training step" in f["message"] and "GPUs wait" not in f["message"]
    zh = "".join(_ask("audit", str(HOST_WAIT), "--lang", "zh", "--detail", "full")[1].split())
    assert "的时间GPU在等主机从Python逐层启动内核" in zh and "的时间各GPU" not in zh
    case = yaml.safe_load(HOST_WAIT.read_text())
    case["hardware"]["count"] = 2
    d = __import__("gpuwise").audit(case).model_dump(mode="json")
    (two,) = _found(d, "CMP-LAYER-HOST-WAIT")
    assert two["message"].startswith("2 x ") and ": the GPUs wait 70% of each training step" in two["message"]


def test_one_gpu_a_copy_and_one_sequence_at_once_are_singular():
    """Llama 3.1 8B in BF16 (8.03e9 x 2 B = 16.1 GB of weights) with a 128k context: on one RTX 4090 no sequence fits
    beside the weights, a copy on 1 GPU (tp 1); on one L40S one sequence fits at once and 4 are in flight."""
    d = _json("audit", NO_ROOM)
    (f,) = _found(d, "CMP-NO-ROOM-TO-SERVE")
    assert f["values"]["tp_gpus"] == "1 GPU" and "(1 GPU per model copy)" in f["message"]
    assert "16.1 GB per GPU" in f["message"]  # 8.03e9 x 2 B
    d = _json("audit", ONE_SLOT)
    (f,) = _found(d, "SRV-LOAD-BEYOND-KV")
    assert round(f["evidence"]["max_concurrent_sequences"]) == 1 and f["evidence"]["load_sequences"] == 4
    assert "the KV cache holds 1 sequence at once and 4 requests are in flight" in f["message"]
    zh = "".join(_ask("audit", ONE_SLOT, "--lang", "zh", "--detail", "full")[1].split())
    assert "KV缓存一次容纳1个序列，而进行中的请求有4个" in zh


def test_the_plans_solver_line_counts_one_constraint_in_the_singular():
    """One workload, one GPU type, one month: the program's 2 variables and 1 constraint (the JSON's solver block)."""
    d = _json("plan", PLAN)
    n, rows = d["solver"]["variables"], d["solver"]["rows"]
    assert rows == 1
    brief = _flat(_ask("plan", PLAN)[1])
    # the brief's solver line is the short one where the plan's findings fill the brief (product65's PLAN-RENT-STEP)
    assert f"{n} variables, 1 constraint" in brief and "1 constraints" not in brief
    zh = _flat(_ask("plan", PLAN, "--lang", "zh")[1])
    assert f"{n} 个变量，1 个约束" in zh


SERIAL_CASE = "tests/rules/USED-SERIAL-NOT-IN-REPORT/input.yaml"  # one P100's report, a serial one digit off
ONE_USED = "tests/data/wording65/audit-one-used-3090.yaml"
OWNED_ONE = "tests/data/wording65/plan-one-owned-4090-past-warranty.yaml"


def test_a_one_gpu_report_and_one_used_card_read_alike_of_one():
    """The bundled USED-SERIAL-NOT-IN-REPORT case's report holds one GPU (tests/data/nvidia_smi/netdata_tesla-p100.xml):
    it read '(1 GPUs)'. One used RTX 3090 bought with no report read '1 used ... cards, 0 with an nvidia-smi record:
    the others are unchecked'. Both are now worded for any count, the count as a label."""
    d = _json("audit", SERIAL_CASE)
    (f,) = _found(d, "USED-SERIAL-NOT-IN-REPORT")
    assert f["evidence"]["serial_in_report"] == 0 and "(GPUs in the report: 1)" in f["message"]
    assert "1 GPUs" not in f["message"]
    d = _json("audit", ONE_USED)
    (f,) = _found(d, "USED-NO-INSPECTION")
    assert f["evidence"]["count"] == 1 and f["evidence"]["inspected_cards"] == 0
    assert f["message"] == ("Cards bought used: 1 x NVIDIA GeForce RTX 3090 24GB, 0 of them with an nvidia-smi record; "
                            "a card without one is unchecked")
    zh = "".join(_ask("audit", ONE_USED, "--lang", "zh", "--detail", "full")[1].split())
    assert "二手购买的卡：1×NVIDIAGeForceRTX309024GB，其中0块有nvidia-smi记录" in zh


def test_one_owned_card_in_a_one_month_plan_past_its_warranty():
    """One RTX 4090 bought 2022-11 with a 3-year warranty (tco.yaml warranty_years_consumer: GIGABYTE's 3 years) ended
    2025-11; the one-month plan read 'The 1 owned ... are past', 'the plan's 1 months', 'counts on all 1'."""
    d = _json("plan", OWNED_ONE)
    (f,) = _found(d, "PLAN-OWNED-PAST-WARRANTY")
    assert f["message"].startswith("1 x NVIDIA GeForce RTX 4090 24GB owned, bought 2022-11: out of the maker's "
                                   "3-year warranty since 2025-11, so a card that fails in the plan's 1 month is")
    assert "1 months" not in f["message"] and "all 1" not in f["message"]


ONE_SEQ = "tests/data/wording65/recommend-8b-128k-l40s.yaml"


def test_the_recommendations_capacity_and_its_chart_count_one_sequence_and_one_request():
    """Llama 3.1 8B on one L40S, one 128k-token request: memory holds one sequence beside the weights (the audit of the
    same shape, tests/data/wording65/audit-8b-128k-one-l40s.yaml, holds 1 too). The Capacity row read 'memory holds
    1 sequences at once', the serving chart's text '1 requests at once ... 1 sequences'."""
    d = _json("recommend", ONE_SEQ)
    sv = d["recommendation"]["serving"]
    assert sv["max_concurrent_sequences"] == 1 and sv["concurrency"] == 1
    full = _flat(_ask("recommend", ONE_SEQ, "--detail", "full")[1])
    assert "memory holds 1 sequence at once; at most" in full and "1 sequences" not in full
    html = _ask("recommend", ONE_SEQ, "--format", "html", "--detail", "full")[1]
    assert "at 1 request at once (the load); memory holds 1 sequence, beyond which" in html
    zh = _flat(_ask("recommend", ONE_SEQ, "--lang", "zh", "--detail", "full")[1])
    assert "显存最多同时容纳 1 个序列" in zh


P4DE_MONTH = "tests/data/review62/audit-p4de-2xa100-1-month.yaml"  # acquisition.months: 1, no project_months


def test_a_one_month_acquisition_is_one_month_in_the_assumption():
    """The project's length taken from acquisition.months: 1 read 'the project runs the 1 months of the proposal's
    acquisition.months'; it is said with the months format ('1 month', zh '1 个月')."""
    full = _flat(_ask("audit", P4DE_MONTH, "--detail", "full")[1])
    assert "the project runs the 1 month of the proposal's acquisition.months" in full and "1 months" not in full
    zh = "".join(_ask("audit", P4DE_MONTH, "--detail", "full", "--lang", "zh")[1].split())
    assert "项目周期为提案acquisition.months所写的1个月" in zh


COPIES_CASE = "tests/rules/SRV-COPIES-BEYOND-RATE/input.yaml"  # 4 copies of one H100, one copy serves 5 requests/s


def test_the_copies_a_rate_needs_read_alike_of_one_gpu_copies():
    """SRV-COPIES-BEYOND-RATE's bundled case: one copy of one H100 keeps 5 requests/s within p95 1 s / 50 ms, so the
    fix's product is 1 x 1; it read '(1 x 1 GPUs: hardware.count)', now the product as hardware.count's label."""
    d = _json("audit", COPIES_CASE)
    (f,) = _found(d, "SRV-COPIES-BEYOND-RATE")
    assert f["values"]["copies_for_rate"] == 1 and f["values"]["copy_gpus"] == 1
    assert "(hardware.count: 1 x 1, the copies times a copy's GPUs)" in f["fix"] and "1 GPUs" not in f["fix"]


def test_a_latency_of_hours_reads_in_hours_not_millions_of_ms():
    """SRV-LOAD-BEYOND-KV on one L40S read 'the first token comes after 8,144,310 ms': the `ms` format spec writes
    a latency in ms under 10 s, in seconds under an hour, then in the report's hours (8,144,310 ms / 3.6e6 = 2.26 h,
    written to one decimal: 2.3 hours; zh 2.3 小时). The figure in the evidence stays in ms."""
    from gpuwise import messages

    assert messages.fill("{t:ms}", {"t": 41.04}) == "41 ms"
    assert messages.fill("{t:ms}", {"t": 12_345.0}) == "12.3 s"  # 12,345 ms / 1000, one decimal under 100 s
    assert messages.fill("{t:ms}", {"t": 600_000.0}) == "600 s"
    assert messages.fill("{t:ms}", {"t": 8_144_310.0}) == "2.3 hours"
    d = _json("audit", ONE_SLOT)
    (f,) = _found(d, "SRV-LOAD-BEYOND-KV")
    hours = f["evidence"]["ttft_ms"] / 3.6e6
    assert 2.2 < hours < 2.35 and f["message"].endswith(f"the first token comes after {hours:.1f} hours at this load")
    zh = "".join(_ask("audit", ONE_SLOT, "--lang", "zh", "--detail", "full")[1].split())
    assert f"首个词元要{hours:.1f}小时后才出现" in zh
