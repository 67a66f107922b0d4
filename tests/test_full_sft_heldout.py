"""Held-out full fine-tunes (branch sft31, issue 22 item 2): the full-SFT runs of tests/data/training_heldout.csv
(27 then; 30 with trainblind14's H433-H435; 45 with trainblind16's XTuner rows H460-H474; 57 with trainblind27's
Megatron-Bridge verification-card SFTs H672, H676, H679, H682; 59 with offload58's Megatron-SWIFT SFTs with the
optimizer on the CPU, H741 and H742; 67 with trainblind31's TRL 1M-token SFTs H778 and H779; 72 with trainblind34's
Megatron-Bridge 26.06 Llama 3 70B SFT table, H819-H823; 84 with trainblind44's MI350X rows H941, H942, H944)
carry method 'full', so that benchmarks/accuracy.py's run_workload states them as their users would (task finetune,
method full) and benchmarks/bare_attribution.py splits them by the row's own method, not by words in the title."""

from __future__ import annotations

import csv

import pytest

from benchmarks import accuracy
from benchmarks.bare_attribution import task_of

from .conftest import DATA


def _rows() -> dict[str, dict]:
    with open(DATA / "training_heldout.csv", newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def test_full_sft_rows_are_the_runs_their_titles_call_a_fine_tune():
    """Every row whose title names a supervised fine-tune ('SFT', 'fine-tune') and trains every weight is method
    'full', and no other row is: continued pretraining (H140, H167, H219-H235) stays pretraining."""
    rows = _rows()
    titled = {rid for rid, r in rows.items() if r["method"] != "lora" and "continued training" not in r["model"]
              and any(w in r["model"].lower() for w in ("sft", "fine-tun", "finetun"))}
    full = {rid for rid, r in rows.items() if r["method"] == "full"}
    assert full == titled and len(full) == 85  # H433-H435 NeMo 24.07; H460-H474 XTuner; H507-H509 ms-swift; H569-H570
    assert {"H672", "H676", "H679", "H682"} <= full  # trainblind27: Megatron-Bridge verification cards' full SFTs
    assert {"H741", "H742"} <= full  # offload58: ms-swift qwen3_moe_offload.sh and 72b.sh, full SFT
    assert {f"H{i}" for i in range(761, 767)} <= full  # trainblind30: training_hub Granite 3.3 8B full SFTs
    assert {"H778", "H779"} <= full  # trainblind31: TRL's one-million-token example, Qwen3-8B and -0.6B
    assert {f"H{i}" for i in range(819, 824)} <= full  # trainblind34: Megatron-Bridge 26.06 SFT table, Llama 3 70B
    # trainblind37: PEFT's MetaMathQA full fine-tunes (L40S) and fms-acceleration's Mistral-7B / PowerLM-3b ones
    assert {"H871", "H874", "H877", "H878", "H879", "H889", "H890", "H891"} <= full
    assert "H844" in full  # trainblind36: Phi-4-mini-reasoning, a full fine-tune of Phi-4-mini (its card)
    assert {"H941", "H942", "H944"} <= full  # trainblind44: MAD torchtune (BF16, FP8), open-r1 SFT, MI350X
    assert "H996" in full  # trainblind48: the Qwen3.5-35B-A3B text card's 128K full SFT (sft_long_context)
    assert {"H98", "H225", "H238", "H337", "H389", "H400"} <= full
    assert not full & {"H140", "H167", "H219", "H223", "H235", "H501", "H505"}  # H501-H505: EasyContext CPT
    # LongRoPE's long-context 'fine-tunes' (trainblind25) train every weight as continued pretraining
    assert not full & {"H632", "H633"} and all(rows[r]["method"] == "" for r in ("H632", "H633"))
    assert {task_of(rows[rid]) for rid in full} == {"fine-tune"}
    assert task_of(rows["H401"]) == "LoRA" and task_of(rows["H140"]) == "pretrain"


def test_run_workload_states_a_full_sft_as_a_fine_tune_and_a_lora_run_with_its_adapters():
    rows = _rows()
    w = accuracy.run_workload(rows["H389"])  # NVIDIA dgxc-benchmarking Llama 3 70B SFT (README_70b.md at 741c886)
    assert (w["task"], w["method"]) == ("finetune", "full") and "lora_targets" not in w
    assert w["seq_len"] == 4096 and w["global_batch_tokens"] == 32 * 4096  # GBS 32 packed 4,096-token sequences
    lora = accuracy.run_workload(rows["H401"])
    assert (lora["task"], lora["method"]) == ("finetune", "lora") and lora["lora_targets"]
    pre = accuracy.run_workload(rows["H140"])  # AURORA-M: continued pretraining
    assert pre["task"] == "pretrain" and "method" not in pre


def test_a_full_fine_tune_with_its_batch_given_is_estimated_as_pretraining_is(kb):
    """The estimator's full fine-tune is pretraining's arithmetic (6 N plus attention a token, the same optimizer
    state); the task only picks the default batch. So stating the 27 runs (sft31) as fine-tunes moved no estimate: H238
    (open-instruct backend A/B, DeepSpeed ZeRO-3, 2 x 8 H100) reads the same stated either way."""
    row = _rows()["H238"]
    cond = accuracy.run_conditions()["H238"]
    sft = accuracy.run_workload(row)
    as_pretrain = {k: v for k, v in sft.items() if k != "method"} | {"task": "pretrain"}
    a, b = (accuracy.run_estimate(accuracy.with_conditions(w, cond), row["gpu"], int(row["gpus"]), None)
            for w in (sft, as_pretrain))
    assert a.gpu.training.step_terms.step_s == pytest.approx(b.gpu.training.step_terms.step_s, rel=1e-9)


def test_open_instruct_backend_rows_are_the_sources_own_arithmetic():
    """allenai/open-instruct docs/algorithms/backend_comparison.md (commit 1c770f2), SFT of OLMo-2-1124-7B over
    2 x 8 H100, 150 steps of bs1 x ga2 a GPU. OLMo-core (H237): 150 x 32 x 4,096 = 19.66M packed tokens over the
    logged window of 167-215 s (the middle, 191 s) on 16 GPUs. DeepSpeed (H238): one unpacked example of ~490 real
    tokens a micro-batch (finetune.py's DataCollatorForSeq2Seq pads to the longest in a micro-batch, so one example
    a micro-batch carries no padding), 150 x 16 x 2 x 490 tokens at the published 818 non-padding tokens/s a GPU."""
    rows = _rows()
    oc, ds = rows["H237"], rows["H238"]
    assert float(oc["training_tokens_b"]) * 1e9 == 150 * 32 * 4096
    assert float(oc["gpu_hours"]) == pytest.approx(16 * (167 + 215) / 2 / 3600, rel=1e-5)
    tokens = 150 * 16 * 2 * 490
    assert float(ds["training_tokens_b"]) * 1e9 == pytest.approx(tokens, rel=1e-9)
    assert float(ds["gpu_hours"]) == pytest.approx(tokens / 818 / 3600, rel=1e-5)
    assert int(ds["global_batch_tokens"]) == 16 * 2 * 490 and int(ds["seq_len"]) == 490
