"""The product-side points contract63 listed against the external contract (/work/shared's CONTRACT.md, whose words
are quoted beside each test), each fixed where the contract is clear; every test here fails on the code before
(a785af98). The points left as decisions are in tests/data/validation/README.md's contractfix63 section."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise

ROOT = Path(__file__).resolve().parent.parent
EX = ROOT / "examples"
A100S = ["a100-40gb-pcie", "a100-40gb-sxm", "a100-80gb-pcie", "a100-80gb-sxm"]  # knowledge/gpus.yaml's A100 ids


def _run(*args: str, cwd: Path = ROOT, code: int = 0):
    r = gpuwise(*args, cwd=cwd)
    assert r.returncode == code, (r.returncode, r.stderr)
    assert "Traceback" not in r.stderr
    return r


def _json(*args: str, cwd: Path = ROOT, code: int = 0) -> dict:
    return json.loads(_run(*args, "--format", "json", cwd=cwd, code=code).stdout)


def _write(tmp_path: Path, workload: dict) -> str:
    (tmp_path / "q.yaml").write_text(yaml.safe_dump({"workload": workload}), encoding="utf-8")
    return "q.yaml"


# ------------------------------------------------------------------ 1. parallelism left out is an assumption
@pytest.mark.parametrize(("given", "said"), [
    ({}, "auto"),                                   # absent: the whole split is gpuwise's
    ({"parallelism": {"tp": 2}}, "parallelism.pp"),  # some parts pinned: the others are gpuwise's, named
    ({"parallelism": {"tp": 2, "pp": 1}}, None),     # every part of a dense model's split pinned: nothing chosen
])
def test_a_training_split_left_out_is_listed_as_an_assumption(tmp_path, given, said):
    """Version 2: 'Absent or `auto` means gpuwise chooses and lists the choice as an assumption', with
    `parallelism` among the fields named; 'parallelism: optional pins; absent parts are chosen by gpuwise'. The
    split was chosen (gpu.layout) but not listed."""
    q = _write(tmp_path, {"task": "finetune", "model": "llama-2-13b", **given})
    d = _json("estimate", q, "--gpu", "H100-80G", "--gpus", "8", cwd=tmp_path)
    listed = [a for a in d["assumptions"] if a["field"] == "workload.parallelism"]
    if said is None:
        assert listed == []
        return
    assert len(listed) == 1 and listed[0]["value"] == "auto", listed
    assert "gpuwise chooses" in listed[0]["reason"] and (said == "auto" or said in listed[0]["reason"])
    assert "parallelism.tp" not in listed[0]["reason"]  # the pinned part is the user's


def test_a_service_lists_no_training_split(tmp_path):
    q = _write(tmp_path, {"task": "inference", "model": "llama-3.1-8b"})
    d = _json("estimate", q, "--gpu", "H100-80G", cwd=tmp_path)
    assert "workload.parallelism" not in {a["field"] for a in d["assumptions"]}


def test_the_full_report_lists_the_split_and_the_brief_stays_short():
    """The brief lists every assumption but those base.FULL_ONLY_ASSUMPTIONS keeps for the full report (the brief
    must fit two 80 x 40 screens); the split chosen is in the brief's layout line."""
    q = str(EX / "finetune-full-13b.yaml")
    d = _json("recommend", q)
    assert "workload.parallelism" in {a["field"] for a in d["assumptions"]}
    brief = _run("recommend", q).stdout
    full = _run("recommend", q, "--detail", "full").stdout
    assert "Assumed (the reasons are in the full report)" in brief and "workload.parallelism" not in brief
    assert "workload.parallelism = auto" in full
    zh = "".join(_run("recommend", q, "--detail", "full", "--lang", "zh").stdout.split())
    assert "gpuwise随布局一起选择在各GPU间的切分" in zh


# ------------------------------------------------------------------ 2. gpu.gpu_hours against gpu.timeline.gpu_hours
def test_the_estimates_two_gpu_hours_say_which_is_which():
    """Version 3: the timeline's `gpu_hours` = `billed_hours` x GPUs. The estimate's own `gpu.gpu_hours` (version
    1: 'for training tasks') is the run's GPU-hours as published runs count them, without the start-up and
    wind-down; `gpu.start_up_hours` now says what lies between them. By hand: knowledge/runtime.yaml
    training.job_setup_hours, on each of the 16 GPUs."""
    setup = yaml.safe_load((ROOT / "knowledge" / "runtime.yaml").read_text())["training"]["job_setup_hours"]
    setup = setup["value"] if isinstance(setup, dict) else setup
    g = _json("estimate", str(EX / "pretrain-7b.yaml"), "--gpu", "H100-80G", "--gpus", "16")["gpu"]
    t = g["timeline"]
    assert g["start_up_hours"] == pytest.approx(setup) and setup > 0
    assert g["gpu_hours"] == pytest.approx((g["wall_hours"] - g["start_up_hours"]) * g["count"], rel=1e-12)
    assert t["gpu_hours"] == pytest.approx(t["billed_hours"] * t["gpus"], rel=1e-12)
    assert t["gpu_hours"] - g["gpu_hours"] == pytest.approx(setup * 16, rel=1e-9)
    serve = _json("estimate", str(EX / "inference-70b.yaml"), "--gpu", "H100-80G", "--gpus", "4")["gpu"]
    assert serve["start_up_hours"] is None and serve["gpu_hours"] is None


# ------------------------------------------------------------------ 3. a batch audit's JSON file
def test_a_batch_audit_writes_one_json_document_into_a_json_file(tmp_path):
    """'-o FILE picks the format from the suffix (.md, .html, .json)': a .json file is one JSON document (the
    array of the audits, in the order given); it held one document a line, which json.load refuses. Another name
    with --format json, and standard output, keep JSON Lines."""
    props = [str(EX / "proposal-good-lora-8xh100.yaml"), str(EX / "proposal-h100-old-driver.yaml")]
    for name in ("out.json", "OUT.JSON"):
        _run("audit", *props, "-o", name, cwd=tmp_path, code=1)
        docs = json.loads((tmp_path / name).read_text())
        assert isinstance(docs, list) and [d["verdict"] for d in docs] == ["approve", "reject"]
    _run("audit", *props, "--format", "json", "-o", "out.jsonl", cwd=tmp_path, code=1)
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert [json.loads(x)["verdict"] for x in lines] == ["approve", "reject"]
    out = _run("audit", *props, "--format", "json", cwd=tmp_path, code=1).stdout
    assert [json.loads(x)["verdict"] for x in out.splitlines()] == ["approve", "reject"]
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "a.yaml").write_text(Path(props[0]).read_text(), encoding="utf-8")
    _run("audit", str(folder), "-o", "one.json", cwd=tmp_path)  # a folder of one is a batch: still an array
    assert [d["verdict"] for d in json.loads((tmp_path / "one.json").read_text())] == ["approve"]


# ------------------------------------------------------------------ 4. prices --currency
def test_prices_currency_takes_any_case_and_says_it_filters():
    """A currency code is the same in any case: `--currency usd` was 'invalid choice'. The help says that the
    option filters: the amounts stay in the currency their sources write them in."""
    upper = _json("prices", "--currency", "CNY")
    assert _json("prices", "--currency", "cny") == upper and _json("prices", "--currency", " Cny") == upper
    assert upper["prices"] and {p["currency"] for p in upper["prices"]} == {"CNY"}
    assert _json("prices", "--currency", "usd") == _json("prices", "--currency", "USD")
    r = gpuwise("prices", "--currency", "eur")
    assert r.returncode == 2 and "invalid choice: 'eur'" in r.stderr
    assert "a filter: no amount is converted" in " ".join(_run("prices", "--help").stdout.split())


# ------------------------------------------------------------------ 5. prices --gpu with a family name
def test_prices_says_a_family_name_matched_several_gpus():
    """'An ambiguous name (`A100`) is an input error that lists the choices': `prices --gpu A100` is a filter and
    lists every variant's prices, and now says which variants it matched (text: first; JSON: gpus_matched)."""
    d = _json("prices", "--gpu", "A100")
    assert d["gpus_matched"] == A100S and {p["gpu"] for p in d["prices"]} <= set(A100S)
    text = " ".join(_run("prices", "--gpu", "A100").stdout.split())
    assert text.startswith("--gpu A100 names 4 GPU types (" + ", ".join(A100S) + ")")
    one = _json("prices", "--gpu", "A100-80G")
    assert one["gpus_matched"] == ["a100-80gb-sxm"]
    assert "GPU types" not in _run("prices", "--gpu", "A100-80G").stdout
    assert "gpus_matched" not in _json("prices")


# ------------------------------------------------------------------ 6. estimate --gpus N without --gpu
def test_gpus_without_a_gpu_is_refused_where_gpuwise_would_choose_the_split(tmp_path):
    """`estimate --gpus 8` of examples/pretrain-7b.yaml (zero_stage auto) gave one GPU's unsplit 241 GB and
    8 x that as total_bytes: the split is chosen for a GPU's memory, and no GPU was named. Exit 2 (bad usage):
    one line naming --gpus and saying --gpu is needed, nothing on standard output."""
    r = gpuwise("estimate", str(EX / "pretrain-7b.yaml"), "--gpus", "8")
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr
    assert r.stderr.startswith("gpuwise: --gpus: 8 GPUs without --gpu") and "give --gpu GPU" in r.stderr
    pinned = _write(tmp_path, {"task": "pretrain", "model": "llama-2-7b", "zero_stage": 1,
                               "parallelism": {"tp": 2}})
    r = gpuwise("estimate", pinned, "--gpus", "8", cwd=tmp_path)
    assert r.returncode == 2 and "parallelism.tp" in r.stderr and r.stdout == ""
    zh = gpuwise("estimate", str(EX / "pretrain-7b.yaml"), "--gpus", "8", "--lang", "zh")
    assert zh.returncode == 2 and "未给 --gpu" in zh.stderr


def test_gpus_without_a_gpu_splits_a_stated_zero_stage(tmp_path):
    """With the ZeRO stage stated the memory alone is a true split, data parallel over the GPUs: ZeRO-3 holds
    1 / 8 of the weights on each (llama-2-7b: 6,738,415,616 params, bf16 = 2 B each, the catalog's params_b),
    and total_bytes is 8 x per GPU. One GPU without --gpu is the memory alone, as before."""
    q = _write(tmp_path, {"task": "pretrain", "model": "llama-2-7b", "zero_stage": 3})
    m = _json("estimate", q, "--gpus", "8", cwd=tmp_path)["memory"]
    assert m["breakdown"]["weights"] == pytest.approx(6_738_415_616 * 2 / 8, abs=8)
    assert m["total_bytes"] == pytest.approx(8 * m["per_gpu_bytes"], abs=8)
    one = _json("estimate", str(EX / "pretrain-7b.yaml"), "--gpus", "1")["memory"]
    assert one["total_bytes"] == one["per_gpu_bytes"]
