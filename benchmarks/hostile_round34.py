# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-four of the hostile corpus: issue 22's held-out buyer questions asked the way a buyer asks them --
DeepSeek-R1 / V3 / V3.1 / V3.2, Kimi K2 and GLM-5 on one 8-GPU node (H200, H100, B200, MI300X, MI355X) at FP8 and
FP4, one stream, a node's peak and a request rate with p95 targets; 8B-70B full fine-tunes with ZeRO-3 CPU or NVMe
offload rented on offers whose RAM is too small or just enough (AWS instances, RunPod, a stated host_ram_gb), the
same bought, and in a plan -- through estimate, recommend, audit and plan, json / text / md / html, English and
Chinese. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review44's branch before its fixes (main at fb4db35c): 35 cases, 24 clean; on this branch 35 of 35 (round 33: 35 of 35).
Fixed:

* a misspelt ``acquisition.instance`` ('p4d.24xlage', 'P4D.24XLARGE') was taken as written and the rental priced on
  the provider's listed p4d.24xlarge; an instance of another GPU (p5.48xlarge with A100s) or of another provider
  (p4d.24xlarge with provider gcp) mixed one instance's cores with another's RAM. One line each now.
* a plan rented one H200 for a 70B full fine-tune with CPU offload, its server's 225 GB against the 1,411 GB the
  state needs, which estimate and recommend reject (MEM-HOST-RAM-SHORT); the plan now rents 8 in one server.
* buying two RTX 3090s for the same job was answered at $2,188 with the 1,411 GB only a note of the full report;
  MEM-HOST-RAM-BUY warns in the brief report that the RAM beyond a typical server of the segment is not priced.
* estimate --lang zh wrote 'max_concurrent_sequences = 423 sequences', the unit in English; the host-RAM blocker on
  an offer stating no RAM read '典型的租用 consumer 服务器'; the estimate's screen did not say the host RAM an
  offload needs.
"""
from __future__ import annotations

import re
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round33 import _flat_file, _flat_ok, _one_line, _rejected, _serving

SERVE = {"task": "inference", "model": "deepseek-r1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
RATE = {**{k: v for k, v in SERVE.items() if k != "concurrent_requests"}, "requests_per_s": 2, "p95_ttft_s": 2, "p95_tpot_s": 0.05}
FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}
FT70, FT8 = {**FT, "model": "llama-3.1-70b"}, {**FT, "model": "llama-3.1-8b"}
AWS = {"mode": "rent", "provider": "aws", "months": 1}
A100X8 = {"gpu": "a100-40gb-sxm", "count": 8}
NEED_70B = 70.55e9 * 16 / 0.8 / 1e9  # the 70B's offloaded state over the usable share of host RAM, GB


def _node(gpu: str, fmt: tuple[str, ...] = ("--format", "json")) -> tuple[str, ...]:
    return ("estimate", "r.yaml", "--gpu", gpu, "--gpus", "8", *fmt)


def _host_ram_short(d: dict) -> list[dict]:
    return [f for f in d.get("findings", []) if f["rule"] == "MEM-HOST-RAM-SHORT"]


def _no_english_unit(r) -> bool:
    """Answered in Chinese, no formula term's value left with an English unit ('423 sequences')."""
    flat = " ".join(r.stdout.split())
    return r.returncode in (0, 1) and "Traceback" not in r.stderr and not re.search(r"\d (sequences|tokens)\b", flat) and "个序列" in flat


def _plan_counts(workload: str, counts: list[int]):
    return _doc(lambda d: [o["count"] for o in d["options"] if o["workload"] == workload] == counts)


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    rec = ("recommend", "r.yaml", "--format", "json")

    # ------------------------------------------------------------ big MoE on one 8-GPU node
    rcase("moe34: R1 FP8 on 8 H200, one stream: within the newest SGLang's 85-142 tok/s", {"workload": SERVE},
          _doc(lambda d: d["gpu"]["fits"] and 85 <= d["gpu"]["decode_tokens_per_s"] <= 142), argv=_node("h200"))
    rcase("moe34: R1 FP8 on 8 H200, the node's peak and best layout within 2,078-14,800 tok/s", {"workload": {**SERVE, "concurrent_requests": 1024}},
          _doc(lambda d: 2078 <= _serving(d)["max_throughput_tokens_per_s"] <= 14800 and 2078 <= _serving(d)["best_layout"]["max_throughput_tokens_per_s"] <= 14800), argv=_node("h200"))
    rcase("moe34: R1 FP8 on 8 H100 80GB: does not fit (688.6 GB checkpoint)", {"workload": SERVE},
          _doc(lambda d: d["gpu"]["fits"] is False and "MEM-NO-FIT" in _rejected(d)), argv=_node("h100"))
    rcase("moe34: R1 at 2 requests/s within p95 2 s / 50 ms on 8 H200: met, the p95s at the highest rate within them", {"workload": RATE},
          _doc(lambda d: _serving(d)["rate"]["meets_requests_per_s"] is True and _serving(d)["rate"]["at_max"]["p95_tpot_s"] <= 0.05 and _serving(d)["rate"]["at_max"]["p95_ttft_s"] <= 2), argv=_node("h200"))
    rcase("moe34: R1 at 50 requests/s on 8 H200: SRV-RATE-TARGET rejects it", {"workload": {**RATE, "requests_per_s": 50}},
          _doc(lambda d: "SRV-RATE-TARGET" in _rejected(d) and _serving(d)["rate"]["meets_requests_per_s"] is False), argv=_node("h200"))
    rcase("moe34: DeepSeek-V3.1 at fp4 on 8 B200: NVFP4 weights, fits", {"workload": {**SERVE, "model": "deepseek-v3.1", "precision": "fp4"}},
          _doc(lambda d: d["gpu"]["fits"] and _serving(d)["weight_format"] == "nvfp4"), argv=_node("b200"))
    rcase("moe34: DeepSeek-V3.2 with a 100k prompt on 8 H200: finite, the first token after seconds", {"workload": {**SERVE, "model": "deepseek-v3.2", "prompt_tokens": 100000}},
          _doc(lambda d: _serving(d)["ttft_s"] > 1), argv=_node("h200"))
    rcase("moe34: Kimi K2 FP8 on 8 H100: does not fit", {"workload": {**SERVE, "model": "kimi-k2"}},
          _doc(lambda d: d["gpu"]["fits"] is False), argv=_node("h100"))
    rcase("moe34: Kimi K2 at fp4 on 8 MI355X: AMD's MXFP4", {"workload": {**SERVE, "model": "kimi-k2", "precision": "fp4"}},
          _doc(lambda d: _serving(d)["weight_format"] == "mxfp4"), argv=_node("mi355x"))
    rcase("moe34: GLM-5 FP8 on 8 MI300X: finite", {"workload": {**SERVE, "model": "glm-5"}}, _finite_json, argv=_node("mi300x"))
    rcase("moe34: 'glm-5.5' misspelt: glm-5 offered", {"workload": {**SERVE, "model": "glm-5.5"}}, _refused("r.yaml", "workload.model", "glm-5"))
    rcase("moe34: requests_per_s '2/s': one line", {"workload": {**RATE, "requests_per_s": "2/s"}}, _refused("r.yaml", "workload.requests_per_s"))
    rcase("moe34: p95_ttft_ms (no such key): p95_ttft_s offered", {"workload": {**RATE, "p95_ttft_ms": 2000}}, _refused("r.yaml", "p95_ttft_s"))
    rcase("moe34: speculative 'mtpp': mtp offered", {"workload": {**SERVE, "speculative": {"method": "mtpp"}}}, _refused("r.yaml", "workload.speculative.method", "mtp"))
    rcase("moe34: the rate question in Chinese, text: every unit worded", {"workload": RATE}, _no_english_unit, argv=_node("h200", ("--lang", "zh")))
    rcase("moe34: recommend the rate question on one node, markdown in Chinese", {"workload": RATE, "constraints": {"max_gpus": 8, "acquisition": "rent"}},
          _flat_file("o.md", "deepseek-r1", "p95"), argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh", "-o", "o.md"))

    # ------------------------------------------------------------ rented servers and the offloaded state
    acase("ram34: 70B offload on a p4d.24xlarge (1,237 GB < 1,411): blocked", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "instance": "p4d.24xlarge"}},
          _doc(lambda d: d["verdict"] == "reject" and _host_ram_short(d) and abs(_host_ram_short(d)[0]["evidence"]["host_ram_needed_gb"] - NEED_70B) < 1))
    acase("ram34: 'p4d.24xlage' misspelt: p4d.24xlarge offered", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "instance": "p4d.24xlage"}},
          _refused("p.yaml", "acquisition.instance", "did you mean p4d.24xlarge?"))
    acase("ram34: 'P4D.24XLARGE' in capitals: the close match", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "instance": "P4D.24XLARGE"}},
          _refused("p.yaml", "p4d.24xlarge"))
    acase("ram34: p5.48xlarge with A100s: refused, the instance's H100s named", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "instance": "p5.48xlarge"}},
          _refused("p.yaml", "p5.48xlarge", "H100"))
    acase("ram34: p5.48xlarge with A100s, in Chinese: one line", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "instance": "p5.48xlarge"}},
          _refused("p.yaml", "实例"), argv=("audit", "p.yaml", "--lang", "zh"))
    acase("ram34: AWS's p4d.24xlarge with provider gcp: refused", {"title": "t", "workload": FT70, "hardware": A100X8, "acquisition": {**AWS, "provider": "gcp", "instance": "p4d.24xlarge"}},
          _refused("p.yaml", "aws", "gcp"))
    acase("ram34: 32B offload on a g5.48xlarge (825 GB >= 655): no host-RAM blocker", {"title": "t", "workload": {**FT, "model": "qwen2.5-32b"}, "hardware": {"gpu": "a10g", "count": 8}, "acquisition": {**AWS, "instance": "g5.48xlarge"}},
          _doc(lambda d: not _host_ram_short(d)))
    acase("ram34: 8B offload on one rented 4090 stating 160 GB (< 161): blocked", {"title": "t", "workload": FT8, "hardware": {"gpu": "rtx-4090", "count": 1, "host_ram_gb": 160}, "acquisition": {"mode": "rent", "provider": "runpod"}},
          _doc(lambda d: _host_ram_short(d) and _host_ram_short(d)[0]["severity"] == "blocker"))
    acase("ram34: the same stating 192 GB: not blocked", {"title": "t", "workload": FT8, "hardware": {"gpu": "rtx-4090", "count": 1, "host_ram_gb": 192}, "acquisition": {"mode": "rent", "provider": "runpod"}},
          _doc(lambda d: not _host_ram_short(d)))
    acase("ram34: 14B to NVMe on 4 rented 4090s: the drives judged, not host RAM", {"title": "t", "workload": {**FT, "model": "qwen2.5-14b", "offload": "nvme"}, "hardware": {"gpu": "rtx-4090", "count": 4}, "acquisition": {"mode": "rent", "provider": "runpod"}},
          _doc(lambda d: "MEM-NVME-OFFLOAD" in _rules(d) and not _host_ram_short(d)))
    acase("ram34: host_ram_gb '512GB': one line", {"title": "t", "workload": FT8, "hardware": {"gpu": "rtx-4090", "count": 1, "host_ram_gb": "512GB"}, "acquisition": {"mode": "rent", "provider": "runpod"}},
          _refused("p.yaml", "hardware.host_ram_gb"))
    acase("ram34: RunPod's Community price (no RAM stated), in Chinese: the typical server worded", {"title": "t", "workload": FT70, "hardware": {"gpu": "rtx-4090", "count": 8}, "acquisition": {"mode": "rent", "provider": "runpod", "hourly_usd": 0.34}},
          lambda r: _flat_ok("MEM-HOST-RAM-SHORT", "典型的租用消费级服务器")(r) and "consumer" not in r.stdout, argv=("audit", "p.yaml", "--lang", "zh"))
    rcase("ram34: the estimate's screen says the host RAM the 70B's offload needs", {"workload": FT70},
          _flat_ok("Host RAM needed per node for offload: 1.41 TB"), argv=("estimate", "r.yaml", "--gpu", "rtx-3090", "--gpus", "2"))
    rcase("ram34: recommend 8B offload on up to 2 rented 3090s: none holds 161 GB", {"workload": FT8, "constraints": {"gpus": ["rtx-3090"], "max_gpus": 2, "acquisition": "rent"}},
          lambda r: r.returncode == 1 and _doc(lambda d: d["recommendation"] is None and "MEM-HOST-RAM-SHORT" in _rules(d))(r), argv=rec)

    # ------------------------------------------------------------ the same bought, and in a plan
    rcase("buy34: 70B offload on bought 3090s: MEM-HOST-RAM-BUY warns in the brief", {"workload": FT70, "constraints": {"gpus": ["rtx-3090"], "max_gpus": 8, "acquisition": "buy"}},
          _doc(lambda d: any(f["rule"] == "MEM-HOST-RAM-BUY" and f["severity"] == "warning" for f in d["findings"])), argv=rec)
    rcase("buy34: the same in Chinese, text", {"workload": FT70, "constraints": {"gpus": ["rtx-3090"], "max_gpus": 8, "acquisition": "buy"}},
          _flat_ok("MEM-HOST-RAM-BUY", "主机内存"), argv=("recommend", "r.yaml", "--lang", "zh"))
    pcase("plan34: 70B offload rented on H200s: a server that holds it (8), not one GPU", {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["h200"]},
                                                                                        "workloads": [{"name": "ft", "workload": {**FT70, "train_tokens": 1.0e8}, "cadence": {"at_month": 1}}]},
          _plan_counts("ft", [8]))
    pcase("plan34: the same bought only: the smallest count kept", {"horizon_months": 3, "constraints": {"acquisition": "buy", "gpus": ["h200"]},
                                                                   "workloads": [{"name": "ft", "workload": {**FT70, "train_tokens": 1.0e8}, "cadence": {"at_month": 1}}]},
          _plan_counts("ft", [1]))
    pcase("plan34: R1 served at 2 requests/s beside the fine-tune, html: answered", {"horizon_months": 3, "constraints": {"acquisition": "either", "gpus": ["h200", "b200"]},
                                                                                    "workloads": [{"name": "r1", "workload": {k: v for k, v in SERVE.items() if k != "concurrent_requests"}, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2, "max_ttft_ms": 2000, "max_tpot_ms": 50}},
                                                                                                  {"name": "ft", "workload": FT70, "cadence": {"per_month": 0.5}}]},
          _one_line, argv=("plan", "plan.yaml", "--format", "html", "-o", "o.html"))
