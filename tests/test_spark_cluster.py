"""The DGX Spark priced, with the systems its maker joins a fact a rule judges.

NVIDIA's Connect Multiple DGX Sparks playbook (NVIDIA/dgx-spark-playbooks
nvidia/playbook-connect-multiple-sparks/README.md @ 600c0216, last updated 2026-09-09) joins two to four DGX Sparks
(two by one cable, three in a ring, up to four through a switch): gpus.yaml gb10 ``link.max_systems: 4``. Rule
NET-SYSTEMS-BEYOND-MAKER refuses a job that joins more (a training run's every system, a serving copy's own), and the
capacity plan sizes within it. Priced at $4,699 (prices.yaml), the held-out DeepSeek-R1 FP8 question answered eight
Sparks joined over 200 GbE; it answers an 8-GPU server again, and Sparks are still offered where they fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuwise.decide.subjects import gpu_fields, joined_systems
from gpuwise.knowledge import load

from .clirun import gpuwise

R1 = "tests/data/heldout/deepseek-r1-fp8-serve.yaml"
RULE = "NET-SYSTEMS-BEYOND-MAKER"


def test_the_systems_its_maker_joins_are_a_fact_of_the_part() -> None:
    kb = load()
    assert kb.gpus["gb10"].link.max_systems == 4  # the playbook's two to four
    assert gpu_fields(kb, kb.gpus["gb10"])["max_systems"] == 4
    assert gpu_fields(kb, kb.gpus["h100-80gb-sxm"])["max_systems"] == -1  # absent: no such limit


@pytest.mark.parametrize(("nodes", "per_node", "copy_gpus", "joined"), [
    (8, 1, 8, 8),  # one tensor-parallel copy over eight Sparks: eight systems
    (8, 1, 1, 1),  # eight copies of one Spark each: none joined
    (8, 1, 2, 2),  # copies of two Sparks each: two a copy
    (2, 8, 16, 2),  # a copy of 16 over two 8-GPU servers
    (1, 8, 4, 1),  # a copy inside one server
    (3, 8, None, 3),  # training: every server of the run
])
def test_the_systems_one_job_joins(nodes: int, per_node: int, copy_gpus: int | None, joined: int) -> None:
    assert joined_systems(nodes, per_node, copy_gpus) == joined


def test_a_gb10_system_count_past_the_makers_is_refused(tmp_path: Path) -> None:
    # gpus.yaml refuses a limit of one (ge=2: a system joined to none needs no limit)
    kb = tmp_path / "kb"
    kb.mkdir()
    text = Path("knowledge/gpus.yaml").read_text(encoding="utf-8").replace("    max_systems: 4\n",
                                                                           "    max_systems: 1\n")
    (kb / "gpus.yaml").write_text(text, encoding="utf-8")
    r = gpuwise("gpus", "--knowledge", str(kb))
    assert r.returncode == 2 and "max_systems" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_r1_question_answers_an_eight_gpu_server_not_eight_sparks() -> None:
    # Before this rule, priced: 8 x DGX Spark ($9,642 over 6 months, tensor parallel 8 over RoCE 200 GbE across 8
    # boxes). DeepSeek-R1 FP8 (671B, about 690 GB of weights) needs more than four Sparks (4 x 121.6 GB usable), so
    # every Spark count that holds it joins more than NVIDIA's four.
    r = gpuwise("recommend", R1, "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    rec = doc["recommendation"]
    assert rec["gpu"] != "gb10" and rec["count"] == 8 and rec["nodes"] == 1, (rec["gpu"], rec["count"])
    sparks = {c["count"]: c for c in doc["candidates"] if c["gpu"] == "gb10"}
    assert not [c for c in sparks.values() if c["feasible"]]
    eight = sparks[8]
    assert [s["id"] for s in eight["reason_sentences"]] == [RULE]
    assert eight["reasons"] == ["8 x NVIDIA GB10 Grace Blackwell Superchip (DGX Spark) 128GB would join 8 systems "
                                "into one job; its maker's tools join at most 4"]


def test_eight_sparks_each_serving_its_own_copy_join_none(tmp_path: Path) -> None:
    # gpt-oss-120b in FP4 fits one Spark: eight Sparks serve eight copies and join no system to another
    (tmp_path / "p.yaml").write_text("title: t\nworkload: {task: inference, model: gpt-oss-120b, precision: fp4, "
                                     "concurrent_requests: 64}\nhardware: {gpu: gb10, count: 8}\n"
                                     "acquisition: {mode: buy}\n", encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert RULE not in r.stdout


@pytest.mark.parametrize(("model", "precision", "count"), [
    ("llama-3.1-70b", "bf16", 2),  # 141 GB of weights: two Sparks, joined by one cable
    ("gpt-oss-120b", "fp4", 1),  # one Spark (tests/test_review33.py prices it)
])
def test_sparks_are_still_offered_where_they_fit(tmp_path: Path, model: str, precision: str, count: int) -> None:
    (tmp_path / "q.yaml").write_text(f"workload: {{task: inference, model: {model}, precision: {precision}, "
                                     "context_len: 8192, concurrent_requests: 1}\n"
                                     "constraints: {acquisition: buy, gpus: [gb10]}\n", encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)["recommendation"]
    assert (rec["gpu"], rec["count"], rec["acquisition"]) == ("gb10", count, "buy")


PLAN = """horizon_months: 1
workloads:
  - name: r1
    workload: {task: inference, model: deepseek-r1, precision: fp8, prompt_tokens: 1000, output_tokens: 200}
    cadence: {continuous: true, hours_per_day: 8}
    targets: {requests_per_s: 0.2}
  - name: pre
    workload: {task: pretrain, model: llama-3.2-1b, train_tokens: 4.0e9}
    cadence: {per_month: 1}
    deadline_days: 2
constraints: {gpus: [gb10], acquisition: buy}
"""


def test_the_plan_sizes_within_the_makers_systems(tmp_path: Path) -> None:
    # the plan's sizing asks the same rule: R1's copy would join eight Sparks (ruled out); the 1B pretraining takes
    # 3.0 days on four, past its 2-day deadline, and eight are ruled out, so the deadline stays the reason
    (tmp_path / "p.yaml").write_text(PLAN, encoding="utf-8")
    r = gpuwise("plan", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert doc["options"] == []
    why = {w["name"]: w["why_not"]["gb10"] for w in doc["workloads"]}
    assert why["r1"] == f"ruled out by {RULE} (More desktop systems joined than their maker supports)"
    assert why["pre"].startswith("misses the deadline (3.0 days on 4 GPUs, 2.0 days allowed)")


def test_the_rule_speaks_chinese() -> None:
    r = gpuwise("audit", f"tests/rules/{RULE}/input.yaml", "--lang", "zh")
    assert r.returncode == 1, r.stderr
    assert "要把8台系统联接成一个作业；其厂商的工具最多联接4台" in r.stdout.replace("\n", "").replace(" ", "")


# ------------------------------------------------------------ no offload into the memory the GPU already uses
def test_a_spark_offloads_nothing_its_memory_is_the_hosts() -> None:
    # gpus.yaml gb10 memory.shared_with_host: the DGX Spark's 128 GB LPDDR5x is the system's only memory, shared by the
    # Grace CPU and the GPU (NVIDIA DGX Spark User Guide, Hardware Overview). Once the Spark was priced, a full
    # fine-tune of Llama 3.1 70B was answered '2 x DGX Spark, ZeRO-3 + CPU offload' ($1,657): 70.6e9 x 16 B = 1.13 TB
    # of weights, gradients and Adam state, offloaded into the same 2 x 128 GB. No layout offloads there now, so no
    # Spark count up to 4 holds it; an 8B full fine-tune fits on two without offload (ZeRO-1).
    from gpuwise import recommend

    def sparks(model: str) -> dict[int, tuple[bool, str]]:
        r = recommend({"workload": {"task": "finetune", "method": "full", "model": model, "train_tokens": 2.0e7,
                                    "seq_len": 2048},
                       "constraints": {"acquisition": "buy", "max_gpus": 4, "deadline_days": 60, "gpus": ["gb10"]}})
        return {c.count: (c.feasible, c.strategy) for c in r.candidates if c.gpu == "gb10"}

    big = sparks("llama-3.1-70b")
    assert big and not any(ok for ok, _ in big.values())
    assert not any("offload" in s for _, s in big.values())
    small = sparks("llama-3.1-8b")
    assert small[2][0] and "offload" not in small[2][1]


def test_with_no_answer_the_rule_is_said_of_the_fewest_sparks_it_refused(tmp_path: Path) -> None:
    """DeepSeek-R1 FP8 on DGX Sparks only: 1, 2 and 4 do not hold its 676 GB a GPU (121.6 GB usable each), 8, 16,
    32 and 64 join more than the playbook's four. The blocker was said of the listed GPU's largest candidate ('64 x
    ... would join 64 systems'); it is said of the closest one it refused (rank.closeness: the cheapest), eight."""
    (tmp_path / "q.yaml").write_text("workload: {task: inference, model: deepseek-r1, precision: fp8, "
                                     "concurrent_requests: 4}\nconstraints: {gpus: [GB10], acquisition: buy}\n",
                                     encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1, r.stderr  # the contract's 'recommend found no feasible option'
    d = json.loads(r.stdout)
    assert d["recommendation"] is None
    net = next(f for f in d["findings"] if f["rule"] == RULE)
    assert net["severity"] == "blocker"
    assert "8 x NVIDIA GB10" in net["message"] and "would join 8 systems" in net["message"]
    assert net["evidence"]["candidates_rejected"] == 4  # 8, 16, 32 and 64
    mem = next(f for f in d["findings"] if f["rule"] == "MEM-NO-FIT")
    assert mem["evidence"]["candidates_rejected"] == 3  # 1, 2 and 4
    # a memory rule is said of the most GPUs of that kind it refused: 4 Sparks still need 171.4 GB a GPU at tensor
    # parallel 4 (review37: it was said of one, 674 GB, which tells less)
    assert mem["message"].startswith("4 x NVIDIA GB10") and "even with tensor parallel 4" in mem["message"]
