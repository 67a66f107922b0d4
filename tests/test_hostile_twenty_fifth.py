"""Hostile round 25: what round 25 of benchmarks/hostile_corpus.py found, each fix with a test that
fails without it. The whole round is benchmarks/hostile_round25.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

MOE = ("workload: {task: finetune, method: full, model: qwen3-30b-a3b, stack: deepspeed, zero_stage: 3, "
       "train_tokens: 1.0e8, transformers_version: %s}\n")
PRE = ("workload: {task: pretrain, model: %s, precision: bf16, batch_size: 4, seq_len: 2048, "
       "train_tokens: 1.0e10, stack: %s, %s}\n"
       "constraints: {max_gpus: 8, deadline_days: 30, acquisition: rent, project_months: 1}\n")
SPARK = ("title: spark\n"
         "workload: {task: inference, model: gpt-oss-120b, precision: fp4, prompt_tokens: 1000, output_tokens: 200}\n"
         "hardware: {gpu: DGX Spark, count: %s}\n"
         "acquisition: {mode: buy, unit_price_usd: 3999}\n")


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


@pytest.mark.parametrize("value", ["1.9", "1.5", "0"])
def test_a_yaml_number_below_the_first_transformers_is_not_asked_for_in_quotes(tmp_path: Path, value: str) -> None:
    # round 25: 'write the version in quotes (transformers_version: "1.9")', which the floor added this session
    # (no transformers before 2.0) then refuses: the quoted form is judged first
    (tmp_path / "r.yaml").write_text(MOE % value, encoding="utf-8")
    err = _one_line(gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path))
    assert "in quotes" not in err
    assert f"transformers {value} is no release of transformers (the first was 2.0, 2019" in err


def test_a_llama_cpp_release_written_as_a_yaml_number_is_not_asked_for_in_quotes(tmp_path: Path) -> None:
    # framework_version: 0.6 (Ollama's release) was asked for in quotes, then refused as another program's version
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, framework: llama.cpp, "
                                     "framework_version: 0.6}\n", encoding="utf-8")
    err = _one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path))
    assert "in quotes" not in err and "llama.cpp names a release by its build number" in err and "'0.6'" in err


@pytest.mark.parametrize("given", ["MXFP4", "NVFP4"])
def test_a_format_name_in_capitals_gets_the_close_match_its_lower_case_gets(tmp_path: Path, given: str) -> None:
    # 'mxfp4' was told 'did you mean fp4?', 'MXFP4' nothing (difflib is case-sensitive)
    (tmp_path / "r.yaml").write_text(f"workload: {{task: inference, model: gpt-oss-120b, precision: {given}}}\n",
                                     encoding="utf-8")
    err = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "gb10", cwd=tmp_path))
    assert err.rstrip().endswith("(did you mean fp4?)"), err


@pytest.mark.parametrize("given, meant", [("cny", "CNY"), ("Usd", "USD"), ("Fsdp-HF", "fsdp-hf")])
def test_a_name_in_other_capitals_still_gets_its_choice(tmp_path: Path, given: str, meant: str) -> None:
    # the lower-case match above must keep the choice's own capitals (an early draft ended in StopIteration,
    # an internal error, for currency 'cny', which round 23's plan case caught)
    field = "currency" if meant.isupper() else "stack"
    doc = ("workload: {task: finetune, method: lora, model: llama-3.1-8b, stack: %s}\nconstraints: {currency: %s}\n"
           % ((given, "USD") if field == "stack" else ("fsdp-hf", given)))
    (tmp_path / "r.yaml").write_text(doc, encoding="utf-8")
    err = _one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path))
    assert f"(did you mean {meant}?)" in err and "internal error" not in err


def _recommend(tmp_path: Path, stack: str, extra: str, model: str = "llama-3.1-8b") -> dict:
    (tmp_path / "r.yaml").write_text(PRE % (model, stack, extra), encoding="utf-8")
    r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def _said(d: dict) -> str:
    return " ".join(f["message"] for f in d["findings"] if f["rule"] == "MEM-PIN-NOT-ON-STACK")


@pytest.mark.parametrize("zero", [2, 3])
def test_llm_c_is_not_planned_at_a_zero_stage_it_does_not_run(tmp_path: Path, zero: int) -> None:
    # llm.c runs ZeRO 0 or 1: set_zero_configs (train_gpt2.cu) runs -z 2 and -z 3 as stage 0 ('Zero Stage2 and
    # Stage3 are not yet supported'); round 25 found 8 x B200 planned at ZeRO-3 (59.7 GB a GPU) for llmc, with
    # gradients sharded that llm.c keeps whole on every GPU
    d = _recommend(tmp_path, "llmc", f"zero_stage: {zero}")
    fits = [c for c in d["candidates"] if c["feasible"]]
    assert fits and all(c["strategy"] in ("ZeRO-1", "") or "ZeRO-1" in c["strategy"] for c in fits[:3])
    assert f"does not run workload.zero_stage {zero} (ZeRO-{zero} sharding)" in _said(d)
    assert "MEM-FITS-PIN-OFF-STACK" in fits[0]["rules"]  # fits_as_requested false: the job as stated cannot run
    # ZeRO-1 itself is llm.c's -z 1: kept, as requested
    kept = _recommend(tmp_path, "llmc", "zero_stage: 1")
    assert kept["recommendation"]["strategy"] == "ZeRO-1" and not _said(kept)


def test_nanochat_is_planned_at_its_own_sharding_and_never_offloaded(tmp_path: Path) -> None:
    # nanochat's DistMuonAdamW reduce-scatters the gradients and shards the optimizer (ZeRO-2 style, the held-out
    # rows state 2); base_train.py has no sharding or offload option
    auto = _recommend(tmp_path, "nanochat", "zero_stage: auto")
    assert auto["recommendation"]["strategy"] == "ZeRO-2"
    off = _recommend(tmp_path, "nanochat", "offload: cpu", "llama-3.1-70b")
    assert "does not run workload.offload cpu" in _said(off)
    assert not any("offload" in c["strategy"].lower() for c in off["candidates"] if c["feasible"])
    # a stack that offloads keeps the pin (litgpt trains on FSDP, whose CPU offload gpuwise prices)
    lit = _recommend(tmp_path, "litgpt", "offload: cpu", "llama-3.1-70b")
    assert not _said(lit)


def test_a_proposal_of_a_spark_at_its_own_price_is_costed(tmp_path: Path) -> None:
    # round 25: a GB10 (no price list carries it: sold only as the whole DGX Spark) bought at the proposal's own
    # $3,999 was rejected 'no dated purchase price ... buying cannot be costed'
    (tmp_path / "p.yaml").write_text(SPARK % "1", encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert "TCO-NO-PURCHASE-PRICE" not in [f["rule"] for f in d["findings"]]
    capex = [x for x in d["proposed"]["ledger"]["lines"] if x["kind"] == "capex"]
    assert [x["amount"] for x in capex] == [3999.0]  # the whole system, host included: no server share on top


def test_two_sparks_are_two_systems(tmp_path: Path) -> None:
    # a DGX Spark holds one GB10 (gpus.yaml link.server_gpus 1): two without nodes were judged as one node over
    # PCIe without peer-to-peer (NET-TP-OVER-PCIE)
    (tmp_path / "p.yaml").write_text(SPARK % "2", encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    assert d["proposed"]["nodes"] == 2
    assert "NET-TP-OVER-PCIE" not in [f["rule"] for f in d["findings"]]
    (tmp_path / "p.yaml").write_text(SPARK % "2, nodes: 1", encoding="utf-8")
    err = _one_line(gpuwise("audit", "p.yaml", cwd=tmp_path))
    assert err.startswith("gpuwise: p.yaml: hardware.nodes: 2 x NVIDIA GB10")
    assert "puts 2 GPUs in a node, but one of its systems holds 1 (give nodes: 2, or leave nodes out)" in err
    zh = _one_line(gpuwise("audit", "p.yaml", "--lang", "zh", cwd=tmp_path))
    assert "一台整机只有 1 块" in zh and "请写 nodes: 2" in zh


def test_offload_auto_is_offload_left_out(tmp_path: Path) -> None:
    # hostile round 25 saw it: the assumptions list prints 'workload.offload = auto' for an offload left out, and a
    # user who wrote that back was refused ("'auto' is not one of 'none', 'cpu' or 'nvme'")
    body = "workload: {task: finetune, method: full, model: llama-3.1-8b, train_tokens: 1.0e8%s}\n"
    outs = []
    for extra in ("", ", offload: auto"):
        (tmp_path / "r.yaml").write_text(body % extra, encoding="utf-8")
        r = gpuwise("recommend", "r.yaml", "--format", "json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        outs.append(json.loads(r.stdout))
    assert outs[0]["recommendation"] == outs[1]["recommendation"]
    said = [(a["field"], a["value"]) for a in outs[1]["assumptions"] if a["field"] == "workload.offload"]
    assert said == [("workload.offload", "auto")]


def test_a_spark_is_charged_its_own_system_power_not_a_desktop_pcs(tmp_path: Path) -> None:
    # review28: each Spark was charged tco.yaml workstation_host_w (250 W of a desktop PC's CPU and board) beside its
    # GB10, whose 140 W TDP already holds the Grace CPU. ChargerLab's teardown: a 240 W (48 V / 5 A) adapter beside
    # the 140 W SoC, at most 100 W for the rest (gpus.yaml gb10 power.system_host_w)
    (tmp_path / "p.yaml").write_text(SPARK % "1", encoding="utf-8")
    d = json.loads(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path).stdout)
    power = next(x for x in d["proposed"]["ledger"]["lines"] if x["kind"] == "power")
    assert power["inputs"]["host_w"] == 100 and power["inputs"]["tdp_w"] == 140
    assert power["inputs"]["it_kw"] == pytest.approx(0.240)
    # 0.24 kW x PUE 1.0 (one desktop in an office) x 4,380 busy hours x $0.15 = $157.68
    assert power["amount"] == pytest.approx(0.24 * 1.0 * 4380 * 0.15)
