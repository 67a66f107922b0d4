"""review48fix: the page items helper review48 found and left (a buyer's reading of the reports).

1. Serving memory at a request rate. Qwen3-32B fp8 at 4 requests/s (1,500-token prompts, 350 output tokens) on
   1 x H200 with vLLM: the rate model puts ~51 requests in flight (Little's law), yet the memory step counted one
   sequence's KV cache (36.1 GB a GPU). Qwen3-32B's config (64 layers, 8 KV heads of 128) holds
   2 x 64 x 8 x 128 x 2 B = 262,144 B of 16-bit KV a token; vLLM's running sequence holds 1,500 + 350 / 2 = 1,675
   tokens on average, so 51 in flight hold 51 x 1,675 x 262,144 B = 22.39 GB (59.5 GB a GPU; 63.1 GB with vLLM's
   start-up profile peak, branch buyer54), what the same
   workload with concurrent_requests: 51 shows.
2. The brief's cost sentence of a rental billed whole. Two A100s of an AWS p4de.24xlarge at $5.12 a GPU-hour: the
   instance is rented whole (FEE-INSTANCE-WHOLE), so 8 GPUs are billed, 8 x 5.12 x 8,760 h = $358,809.60, yet the
   sentence read '2 x A100 ... at $5.12 per GPU-hour costs $358,810' (2 x 5.12 x 8,760 = $89,702). It now names the
   GPUs billed (TCO-RENT-WHOLE), so its own arithmetic holds.
3. 'n/a buying' with no reason. The cost per million output tokens of 1 x H200 read '$0.71 renting, n/a buying':
   knowledge/prices.yaml sells H200 SXM only on 4- and 8-GPU HGX baseboards in whole servers, so one cannot be
   bought. The row now gives that reason (the market's buy.server_sizes, also in the JSON).
4. Display. knowledge/runtime.yaml's job_setup_hours of 0.25 printed '0.2 hours' in the time table (one decimal
   rounds 0.25 half to even); a figure with two decimals is now shown as written. A model given by size read
   'a 3 B-parameter model' (tests/test_report_subject.py: 'a 3.2B-parameter model').
5. An unknown key beside another problem put its 'did you mean' after the count of the others ('owned[0].host_ram:
   unknown key; 1 more problem (did you mean 'host_ram_gb'?)'); the hint now follows the key it is for.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import yaml

from gpuwise.render.fmt import Fmt
from tests.clirun import gpuwise

SERVE = {"workload": {"task": "inference", "model": "qwen3-32b", "precision": "fp8", "prompt_tokens": 1500,
                      "output_tokens": 350, "requests_per_s": 4, "p95_ttft_s": 2, "p95_tpot_s": 0.06},
         "constraints": {"gpus": ["H200"], "max_gpus": 1, "project_months": 12, "acquisition": "rent"}}
KV_TOKEN = 2 * 64 * 8 * 128 * 2  # bytes of 16-bit KV a token of Qwen3-32B
HELD = 1500 + 350 / 2  # tokens a running vLLM sequence holds on average


def _run(tmp_path, doc: dict, *args: str):
    (tmp_path / "in.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("recommend", "in.yaml", *args, cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return r


def test_serving_memory_at_a_rate_holds_the_kv_cache_of_the_requests_in_flight(tmp_path):
    d = json.loads(_run(tmp_path, SERVE, "--format", "json").stdout)
    [c] = [c for c in d["candidates"] if c["gpu"] == "h200-141gb-sxm" and c["count"] == 1]
    flight = math.ceil(c["serving"]["concurrency"])
    assert flight == 51
    assert c["memory_breakdown"]["kv_cache"] == flight * HELD * KV_TOKEN  # 22.39 GB, not one sequence's 0.44 GB
    # beside them, what vLLM's start-up profile run holds beyond its step's working set (serving.yaml vllm
    # profile_sampler: 37.7 B x 151,936 x 1,024 less 8,192 x (8 B x 5,120 + 6 B x 25,600) + 4 B x 151,936 x 1,024)
    profile = 37.7 * 151_936 * 1024 - (8192 * (8 * 5120 + 6 * 25_600) + 4 * 151_936 * 1024)
    assert abs((c["memory_per_gpu_bytes"] - profile) / 1e9 - 59.5) < 0.05  # 63.1 GB with it
    # the same load stated as concurrent_requests gives the same memory
    stated = {**SERVE, "workload": {**SERVE["workload"], "concurrent_requests": flight}}
    s = json.loads(_run(tmp_path, stated, "--format", "json").stdout)
    [t] = [t for t in s["candidates"] if t["gpu"] == "h200-141gb-sxm" and t["count"] == 1]
    assert t["memory_breakdown"] == c["memory_breakdown"]
    # the page says the KV cache is that of the load's sequences in flight
    full = " ".join(_run(tmp_path, SERVE, "--detail", "full").stdout.split())
    assert "the sequences in flight at the load shown: 51 per copy (workload.concurrent_requests is not given)" in full
    assert "63.1 GB per GPU of 143.2 GB usable" in full


def test_the_cost_sentence_of_a_rental_billed_whole_names_the_gpus_billed(tmp_path):
    r = gpuwise("audit", "tests/rules/TCO-RENT-WHOLE/input.yaml", "--format", "json")
    p = json.loads(r.stdout)["proposed"]
    assert "TCO-RENT-WHOLE" in p["rules"] and "TCO-RENT" not in p["rules"]
    assert abs(p["total_cost_usd"] - 8 * 5.12 * 8760) < 0.01  # $358,809.60
    text = " ".join(gpuwise("audit", "tests/rules/TCO-RENT-WHOLE/input.yaml").stdout.split())
    assert ("2 × NVIDIA A100 SXM4 80GB: renting from aws bills 8 GPUs, the fewest it rents that hold the 2, at "
            "$5.12 per GPU-hour: $358,810") in text
    # all 8 of the instance used: the plain sentence, its arithmetic 8 x 5.12 x 8,760 h
    whole = yaml.safe_load((Path(__file__).parent / "rules/TCO-RENT-WHOLE/input.yaml").read_text(encoding="utf-8"))
    whole["hardware"]["count"] = 8
    (tmp_path / "w.yaml").write_text(yaml.safe_dump(whole), encoding="utf-8")
    w = json.loads(gpuwise("audit", "w.yaml", "--format", "json", cwd=tmp_path).stdout)["proposed"]
    assert "TCO-RENT" in w["rules"] and "TCO-RENT-WHOLE" not in w["rules"]


def test_cost_per_million_tokens_says_why_the_count_cannot_be_bought(tmp_path):
    either = {**SERVE, "constraints": {**SERVE["constraints"], "acquisition": "either"}}
    d = json.loads(_run(tmp_path, either, "--format", "json").stdout)
    assert (d["recommendation"]["gpu"], d["recommendation"]["count"]) == ("h200-141gb-sxm", 1)
    cost = d["estimate"]["gpu"]["serving"]["cost_per_million_output_tokens"]
    assert cost["buy_usd"] is None and cost["rent_usd"] > 0
    assert cost["buy_unavailable_reason"].startswith("NVIDIA H200 SXM 141GB is sold only as 4 or 8-GPU baseboards")
    assert cost["buy_unavailable_reason"].endswith("1 cannot be bought: buy 4")
    text = " ".join(_run(tmp_path, either).stdout.split())
    # review51: the load's proviso sits beside the rent it qualifies, before the reason
    assert ("renting (at this load, all the time), not bought: NVIDIA H200 SXM 141GB is sold only as 4 or 8-GPU "
            "baseboards") in text
    assert "n/a buying" not in text
    # a count that can be bought gives its figure and no reason
    four = {"workload": {**SERVE["workload"], "requests_per_s": 0.5},  # 2 x RTX 4090 serve 0.70 requests/s
            "constraints": {**either["constraints"], "gpus": ["RTX 4090"], "max_gpus": 8}}
    f = json.loads(_run(tmp_path, four, "--format", "json").stdout)
    c4 = f["estimate"]["gpu"]["serving"]["cost_per_million_output_tokens"]
    assert c4["buy_usd"] is not None
    assert c4["buy_unavailable_reason"] == "" and c4["buy_unavailable_reason_phrases"] == []


def test_a_stated_quarter_hour_is_shown_as_written(tmp_path):
    f = Fmt("en")
    assert f.hours(0.25) == "0.25 hours"  # was '0.2 hours'
    assert f.hours(0.75) == "0.75 hours" and f.hours(2.5) == "2.5 hours" and f.hours(0.6234) == "0.6 hours"
    assert f.hours(1.0) == "1 hour" and f.hours(47.25) == "47.25 hours" and f.hours(100.25) == "100 hours"
    ft = {"workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "train_tokens": 3.0e8,
                       "seq_len": 4096}}
    text = " ".join(_run(tmp_path, ft, "--detail", "full").stdout.split())
    assert "start-up and wind-down 0.25 hours" in text  # runtime.yaml training.job_setup_hours: 0.25


def test_the_did_you_mean_hint_follows_the_key_not_the_count_of_other_problems(tmp_path):
    (tmp_path / "plan.yaml").write_text(  # host_ram misspelt, and no workloads: two problems
        "horizon_months: 6\nowned:\n  - {gpu: A100-80G, count: 8, servers: 3, host_ram: 256}\nworkloads: []\n",
        encoding="utf-8")
    r = gpuwise("plan", "plan.yaml", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip().endswith(
        "plan.yaml: owned[0].host_ram: unknown key (did you mean 'host_ram_gb'?); 1 more problem"), r.stderr
    z = gpuwise("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path)
    assert z.returncode == 2 and z.stderr.strip().endswith(
        "owned[0].host_ram: 未知的键（你是不是指“host_ram_gb”？）；另有 1 处问题"), z.stderr
