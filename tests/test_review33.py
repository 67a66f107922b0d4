"""What review33 found as a new user, and the leftovers it was given: TensorRT-LLM's prompt hold accepted (and
priced) on any framework, host-server prices never judged stale by recommend or audit, and DGX Spark unpriced (priced
at NVIDIA's list price: test_one_dgx_spark_is_bought_whole_at_nvidias_list_price)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import pytest

from .clirun import gpuwise

SERVE = "task: inference, model: llama-3.1-8b, prompt_tokens: 1000, output_tokens: 200, concurrent_requests: 16"


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


# ------------------------------------------------------------------ batch_wait_* off TensorRT-LLM
@pytest.mark.parametrize("framework", ["vllm", "sglang", "llama.cpp", None])
@pytest.mark.parametrize("field, value, knob", [
    ("batch_wait_steps", "40", "batch_wait_timeout_iters"),
    ("batch_wait_token_fraction", "0.8", "batch_wait_max_tokens_ratio"),
])
def test_tensorrt_llms_prompt_hold_is_refused_on_another_engine(tmp_path: Path, framework: str | None, field: str,
                                                                value: str, knob: str) -> None:
    # the hold is TensorRT-LLM's PyTorch scheduler (py_executor.py _waiting_requests, batch_wait_timeout_iters /
    # batch_wait_max_tokens_ratio); vLLM and SGLang schedule a waiting prompt at the next step. Before review33 a
    # vLLM service with batch_wait_steps 40 was accepted and its first token priced with a hold vLLM never makes.
    fw = f", framework: {framework}" if framework else ""
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, {field}: {value}{fw}}}\n", encoding="utf-8")
    err = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    assert err == (f"gpuwise: r.yaml: workload.{field}: {value} is TensorRT-LLM's {knob}; {framework or 'vllm'} has "
                   f"no such hold of new prompts: set framework tensorrt-llm, or leave {field} out\n")
    zh = _one_line(gpuwise("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path))
    assert f"workload.{field}: {value} 是 TensorRT-LLM 的 {knob}" in zh, zh


def test_the_hold_still_lengthens_tensorrt_llms_first_token(tmp_path: Path) -> None:
    ttft = {}
    for steps in (0, 40):
        (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, framework: tensorrt-llm, requests_per_s: 4, "
                                         f"batch_wait_steps: {steps}}}\n", encoding="utf-8")
        r = gpuwise("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        ttft[steps] = json.loads(r.stdout)["gpu"]["serving"]["ttft_s"]
    assert ttft[40] > ttft[0]


def test_the_default_zero_hold_stays_accepted_on_any_engine(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, framework: sglang, batch_wait_steps: 0, "
                                     "batch_wait_token_fraction: 0}\n", encoding="utf-8")
    assert gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path).returncode == 0


# ------------------------------------------------------------ host-server prices judged stale in recommend / audit
def _stale(doc: dict) -> dict[str, str]:
    return {f["subject"]: f["message"] for f in doc["findings"] if f["rule"] == "DATA-STALE-PRICE"}


def test_a_recommendations_stale_host_share_is_a_finding_with_its_date(tmp_path: Path) -> None:
    # buying 1 x RTX 6000 Ada in a desktop adds tco.yaml server_share_usd_per_gpu_consumer, $800 a card as_of
    # 2019-01-01 (its anchor is a 2019 build): prices_used listed it '2,895 days old' and DATA-STALE-PRICE
    # (price_max_age_days 365) never judged it, where the plan does (plan/judge.py prices). The answer was 2 x RTX
    # 3090 until hostshare62 charged the workstation card a desktop's host, not a PCIe server's $4,000
    r = gpuwise("recommend", "examples/qlora-70b-4090.yaml", "--format", "json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    host = [e for e in doc["prices_used"] if e["kind"] == "host"]
    assert [(e["as_of"], e["amount"]) for e in host] == [("2019-01-01", 800)]
    what = "the host around a bought NVIDIA RTX 6000 Ada Generation 48GB (tco.yaml server_share_usd_per_gpu_consumer)"
    stale = _stale(doc)
    assert stale[what].startswith(f"The price '{what}' is from 2019-01-01, ")
    assert {s["what"]: s["as_of"] for s in doc["stale_prices"]}[what] == "2019-01-01"
    # the brief names the answer's host share, not the PCIe-server share of 8 x RTX 6000 Ada (another count); its
    # two notes MEM-HOST-RAM-NEEDED and MARKET-HOSTING-ASSUMED (one office desktop, assumed)
    brief = " ".join(gpuwise("recommend", "examples/qlora-70b-4090.yaml", "--format", "md").stdout.split())
    assert "Blockers and warnings (the answer's: 0 blockers, 3 warnings, 2 notes)" in brief
    zh = gpuwise("recommend", "examples/qlora-70b-4090.yaml", "--detail", "full", "--lang", "zh").stdout
    assert "server_share_usd_per_gpu_consumer" in zh and "2019-01-01" in zh


def test_a_fresh_host_share_is_not_stale(tmp_path: Path) -> None:
    # the same question with the share dated this year (an overlay, as the fix says): no finding on it
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "tco.yaml").write_text(
        "values:\n  server_share_usd_per_gpu_consumer: {as_of: " + dt.date.today().isoformat()
        + "}\n", encoding="utf-8")
    r = gpuwise("recommend", str(Path("examples/qlora-70b-4090.yaml").resolve()), "--format", "json", "--knowledge",
                "kb", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert not [w for w in _stale(json.loads(r.stdout)) if "server_share_usd_per_gpu_consumer" in w]


def test_an_audited_purchase_at_its_own_price_still_judges_the_host_share() -> None:
    # the proposal's own card price is undated (not judged); the host share around its cards is the knowledge
    # base's, 2019-01-01
    r = gpuwise("audit", "examples/proposal-used-3090-mining.yaml", "--format", "json")
    assert r.returncode == 1, r.stderr  # its blockers (a relabelled card)
    stale = _stale(json.loads(r.stdout))
    assert list(stale) == ["the host around a bought NVIDIA GeForce RTX 3090 24GB (tco.yaml "
                           "server_share_usd_per_gpu_consumer)"]
    assert " is from 2019-01-01, " in next(iter(stale.values()))


# ------------------------------------------------------------ DGX Spark (GB10) priced
SPARK = ("workload: {task: inference, model: gpt-oss-120b, precision: fp4, framework: llama.cpp, "
         "concurrent_requests: 1}\nconstraints: {max_gpus: 1, acquisition: either, gpus: [gb10]}\n")


def test_one_dgx_spark_is_bought_whole_at_nvidias_list_price(tmp_path: Path) -> None:
    # prices.yaml gb10: NVIDIA's Founders Edition list price of 23 Feb 2026, $4,699 (up from the $3,999 of its
    # October 2025 launch), a whole system: no tco.yaml host share is added. The lead had taken the price back out
    # (a priced GB10 answered the held-out DeepSeek-R1 question with eight Sparks joined over Ethernet); with the
    # systems its maker joins a fact a rule judges (gpus.yaml link.max_systems, NET-SYSTEMS-BEYOND-MAKER:
    # tests/test_spark_cluster.py) it is priced built in again.
    from gpuwise.knowledge import load

    assert "gb10" not in {e.id for e in load().prices.excluded}
    (tmp_path / "q.yaml").write_text(SPARK, encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert (doc["recommendation"]["gpu"], doc["recommendation"]["acquisition"]) == ("gb10", "buy")
    used = [(e["kind"], e["amount"], e["as_of"]) for e in doc["prices_used"]]
    assert used == [("buy", 4699, "2026-02-23")]  # no host share beside it
    assert not [f for f in doc["findings"] if f["rule"] == "TCO-NO-PRICE-EITHER-WAY"]


# ------------------------------------------------------------ the question as understood says only the task's fields
def test_the_question_lists_no_field_of_the_other_task() -> None:
    # a fine-tune's 'question as understood' listed batch_wait_steps: 0, scheduler_recv_interval: 1, eplb: false..., a
    # service's torch_compile: false and global_batch_tokens: auto: fields the schema refuses set on that task
    from gpuwise.inputs.task_fields import SERVING_ONLY, TRAINING_ONLY

    tune = json.loads(gpuwise("estimate", "examples/finetune-full-13b.yaml", "--gpu", "h100", "--gpus", "8",
                              "--format", "json").stdout)["workload"]["workload"]
    serve = json.loads(gpuwise("estimate", "examples/inference-70b.yaml", "--gpu", "h100", "--gpus", "4",
                               "--format", "json").stdout)["workload"]["workload"]
    assert not set(tune) & set(SERVING_ONLY) and not set(serve) & set(TRAINING_ONLY)
    assert tune["global_batch_tokens"] == 131072 or tune["global_batch_tokens"] == "auto"
    assert serve["kv_precision"] == "auto" and serve["prompt_tokens"] == 4096


def test_the_split_lengths_row_shows_the_prompts_own_length() -> None:
    # inference-70b gives context_len 8192 alone: split 4,096 + 4,096; the prompt_tokens row read '4,096, 4,096'
    out = gpuwise("estimate", "examples/inference-70b.yaml", "--gpu", "h100", "--gpus", "4").stdout
    row = next(x for x in out.splitlines() if x.strip().startswith("workload.prompt_tokens:"))
    assert row.split("[")[0].split() == ["workload.prompt_tokens:", "4,096"]


def test_an_overlay_that_only_excludes_a_priced_gpu_takes_it_off(tmp_path: Path) -> None:
    # hostile round 29: a prices.yaml overlay excluding the (now priced) GB10, a part not sold to the team, was
    # refused "gpu 'gb10' is both priced and excluded", of an overlay that priced nothing; it now takes the built-in
    # price off, as an overlay's price takes a built-in exclusion off (test_review28)
    from gpuwise.knowledge import load

    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "prices.yaml").write_text('schema_version: 1\nexcluded:\n  - {id: gb10, reason: "not sold to '
                                                 'us here"}\n', encoding="utf-8")
    kb = load(tmp_path / "kb")
    assert "gb10" not in {g.id for g in kb.prices.gpus}
    assert {e.id: e.reason for e in kb.prices.excluded}["gb10"] == "not sold to us here"
    (tmp_path / "q.yaml").write_text(SPARK.replace("either", "buy"), encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", "--format", "json", "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "TCO-NO-PURCHASE-PRICE" in {f["rule"] for f in json.loads(r.stdout)["findings"]}
