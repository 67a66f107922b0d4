# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round twenty-nine of the hostile corpus: what review33 changed and the v3 inputs around it --
TensorRT-LLM's prompt hold (``batch_wait_steps``, ``batch_wait_token_fraction``, refused off framework
tensorrt-llm now, as ``scheduler_recv_interval`` is off SGLang), the host-server share a purchase adds judged
stale by DATA-STALE-PRICE in recommend and audit (a house rule on the ``host`` kind, an overlay dating it, a
policy that keeps every price fresh), the DGX Spark priced at NVIDIA's list price (an overlay re-pricing or
excluding it, an audit and a plan buying Sparks), the question as understood without the other task's fields
(read back as a requirements file), and rate-based serving, speculative, quantization and disaggregated
options in plans and audits -- through recommend, estimate, audit, plan, prices, json / text / md / html,
English and Chinese. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review33's branch after its first changes (the round aims at them): 36 cases, 33 clean. Two failures were
the round's own (the mining proposal copied without the seller reports beside it; a policy overlay in the wrong
shape) and one was a case that expected an overlay's older price ($3,999 of 2025-10-15) to replace the built-in
$4,699 of 2026-02-23: price points merge, and the newest is taken, as docs/knowledge.md says; the case now gives a
newer quote. Fixed (now 36 clean):

* A prices.yaml overlay that only excludes a GPU the built-in file prices (the DGX Spark, priced this session) was
  refused 'gpu 'gb10' is both priced and excluded': it now takes the part off the priced list, as an overlay's
  price takes one off the excluded list (1 case; tests/test_review33.py).

Seen and left:

* The estimate's 'Utilisation (MFU)' row is the calibrated stack's (Megatron-Core on Hopper: 53% for
  finetune-full-13b on 8 H100), while the step time runs the named or middle stack at its efficiency over it
  (0.9 of it: about 48% of peak over the compute the time counts): the row and the GPU-hours disagree.
* (Lead, at merge: the built-in Spark price was taken back out for this, its list price kept in the exclusion's
  reason; the Spark cases here price it by an overlay, and the rented proposal's case judges only its own GPU's host:
  its alternative, a bought used RTX 3090, is priced with the 2019 consumer host share, which is flagged, rightly.)
* Pricing the Spark moves the held-out DeepSeek-R1 FP8 question (no throughput target) to 8 x DGX Spark, tensor
  parallel 8 over RoCE 200 GbE across 8 nodes, 7 tokens/s per sequence, '100% scaling efficiency' in its
  interconnect line: the cheapest by total cost, and a layout over Ethernet whose efficiency line says nothing.
"""
from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _ok, _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _dump, _edit, _either, _text_ok
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round26 import _again, _ledger_adds_up, _plan_adds_up
from benchmarks.hostile_round28 import doc_cases

EX = Path(__file__).resolve().parent.parent / "examples"
SERVE = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
TRAIN = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "train_tokens": 1.0e8}
RENT = {"mode": "rent", "provider": "lambda"}
HOLD = {"batch_wait_steps": 40, "batch_wait_token_fraction": 0.8}
HOST = "the host around a bought NVIDIA GeForce RTX 3090 24GB (tco.yaml server_share_usd_per_gpu_consumer)"
SPARK = {"task": "inference", "model": "gpt-oss-120b", "precision": "fp4", "framework": "llama.cpp", "concurrent_requests": 1}
# the GB10 was left unpriced built in for a while (a priced one was offered as eight boxes over Ethernet for a 671B
# model); it is priced again, with the four systems NVIDIA's tools join a rule's fact (NET-SYSTEMS-BEYOND-MAKER): the
# Spark cases keep their overlay at the same list price, so they judge the same figures either way
SPARK_KB = {"kb/prices.yaml": "schema_version: 1\ngpus:\n  - id: gb10\n    units: {sold_as: workstation, sizes: [1], max_per_node: 1, reason: \"one GB10 a DGX Spark\", source: \"NVIDIA\"}\n    prices:\n      - {amount: 4699, condition: new, unit: card, kind: vendor-list, as_of: 2026-02-23, source: \"NVIDIA Developer Forums, 2/23/2026 Price Change Announcement\"}\n"}
CHAT = {"name": "chat", "workload": SERVE, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2, "max_ttft_ms": 2000}}
PLAN = {"horizon_months": 3, "workloads": [CHAT], "constraints": {"acquisition": "rent"}}
HOST_RULE = """schema_version: 1
ruleset: house
step: pitfalls
rules:
  - id: HOUSE-HOST-PRICE
    title: A host-server price the team must quote itself
    fact: price
    when:
      - [kind, "==", host]
    then:
      action: finding
      severity: warning
      topic: data-freshness
      message: "Quote the host around the cards yourself: '{what}' is from {as_of}"
      fix: "Ask the integrator for a quote."
    rationale: "The team buys its own servers."
    source: "house policy"
"""


def _stale(d: dict) -> dict[str, str]:
    return {f["subject"]: f["message"] for f in d.get("findings", []) if f["rule"] == "DATA-STALE-PRICE"}


def _ttft(r) -> float:
    return json.loads(r.stdout)["gpu"]["serving"]["ttft_s"]


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ TensorRT-LLM's prompt hold off TensorRT-LLM
    for fw in ("vllm", "sglang", "llama.cpp", "transformers"):
        rcase(f"hold29: batch_wait_steps 40 on {fw}: refused naming the field and {fw}", {"workload": {**SERVE, "framework": fw, "batch_wait_steps": 40}}, _refused("r.yaml", "workload.batch_wait_steps", "batch_wait_timeout_iters", fw))
    rcase("hold29: batch_wait_token_fraction alone on the default engine: refused", {"workload": {**SERVE, "batch_wait_token_fraction": 0.5}}, _refused("r.yaml", "workload.batch_wait_token_fraction", "vllm"))
    rcase("hold29: zero hold on sglang (the defaults): accepted", {"workload": {**SERVE, "framework": "sglang", "batch_wait_steps": 0, "batch_wait_token_fraction": 0.0}}, _finite_json)
    rcase("hold29: tensorrt-llm, 40 / 0.8 with a rate: the first token waits longer than without", {"workload": {**SERVE, "framework": "tensorrt-llm", "requests_per_s": 4, **HOLD}},
          lambda r: _finite_json(r) and _ttft(r) > _ttft(_again(r, "estimate", "none.yaml", "--gpu", "h100", "--format", "json")) if Path(r.cwd, "none.yaml").write_text(_dump({"workload": {**SERVE, "framework": "tensorrt-llm", "requests_per_s": 4}}), encoding="utf-8") else False)
    rcase("hold29: tensorrt-llm, the largest hold at a trickle of requests: finite", {"workload": {**SERVE, "framework": "tensorrt-llm", "requests_per_s": 0.001, "batch_wait_steps": 10000, "batch_wait_token_fraction": 1.0}}, _finite_json)
    rcase("hold29: batch_wait_steps '40' as text on vllm: refused", {"workload": {**SERVE, "batch_wait_steps": "40"}}, _refused("r.yaml", "batch_wait_steps"))
    rcase("hold29: on vllm, --lang zh: refused in Chinese", {"workload": {**SERVE, "batch_wait_steps": 40}}, _refused("r.yaml", "TensorRT-LLM 的 batch_wait_timeout_iters"), argv=("recommend", "r.yaml", "--lang", "zh"))
    rcase("hold29: on a fine-tune: refused as inference only", {"workload": {**TRAIN, "batch_wait_steps": 40}}, _refused("r.yaml", "batch_wait_steps", "inference only"))
    acase("hold29: an audited service on vllm with a hold: refused naming the proposal's field", {"title": "t", "workload": {**SERVE, **HOLD}, "hardware": {"gpu": "H100 SXM", "count": 1}, "acquisition": RENT}, _refused("p.yaml", "workload.batch_wait_steps"))
    pcase("hold29: a plan's service on sglang with a hold: the plan's field named", _edit(PLAN, "workloads.0.workload", {**SERVE, "framework": "sglang", **HOLD}), _refused("plan.yaml", "workloads[0].workload.batch_wait_steps", "sglang"), argv=("plan", "plan.yaml"))
    pcase("hold29: a plan's service on tensorrt-llm with a hold: adds up", _edit(PLAN, "workloads.0.workload", {**SERVE, "framework": "tensorrt-llm", **HOLD}), lambda r: r.returncode in (0, 1) and _doc(_plan_adds_up)(r))

    # ------------------------------------------------------------ the host-server share judged stale
    qlora = (EX / "qlora-70b-4090.yaml").read_text(encoding="utf-8")
    case("host29: recommend buying 3090s: the 2019 host share is stale, its date said", {"r.yaml": qlora}, ["recommend", "r.yaml", "--format", "json"], expect="any",
         check=_doc(lambda d: " is from 2019-01-01, " in _stale(d).get(HOST, "")))
    case("host29: a policy keeping prices 5,000 days: nothing stale", {"r.yaml": qlora, "kb/policy.yaml": "price_max_age_days: 5000\n"}, ["recommend", "r.yaml", "--format", "json", "--knowledge", "kb"], expect="any",
         check=_doc(lambda d: not _stale(d)))
    case("host29: the share dated today by an overlay: not stale", {"r.yaml": qlora, "kb/tco.yaml": "values:\n  server_share_usd_per_gpu_consumer: {as_of: " + dt.date.today().isoformat() + "}\n"}, ["recommend", "r.yaml", "--format", "json", "--knowledge", "kb"], expect="any",
         check=_doc(lambda d: HOST not in _stale(d)))
    case("host29: the share dated in the future: refused or not stale", {"r.yaml": qlora, "kb/tco.yaml": "values:\n  server_share_usd_per_gpu_consumer: {as_of: 2099-01-01}\n"}, ["recommend", "r.yaml", "--format", "json", "--knowledge", "kb"], expect="any",
         check=_either(_refused("tco.yaml"), _doc(lambda d: HOST not in _stale(d))))
    case("host29: a house rule on the host kind fires on it", {"r.yaml": qlora, "rules/house.yaml": HOST_RULE}, ["recommend", "r.yaml", "--format", "json", "--rules", "rules"], expect="any",
         check=_doc(lambda d: "HOUSE-HOST-PRICE" in _rules(d)))
    case("host29: --lang zh full: the host named in Chinese, no English 'host around'", {"r.yaml": qlora}, ["recommend", "r.yaml", "--lang", "zh", "--detail", "full"], expect="any",
         check=lambda r: _text_ok("所在主机")(r) and "the host around" not in r.stdout)
    case("host29: md and html carry it", {"r.yaml": qlora}, ["recommend", "r.yaml", "--format", "html", "-o", "o.html"], expect="any",
         check=lambda r: _ok(r) and "server_share_usd_per_gpu_consumer" in Path(r.cwd, "o.html").read_text(encoding="utf-8") and "server_share_usd_per_gpu_consumer" in _again(r, "recommend", "r.yaml", "--format", "md", "--detail", "full").stdout)
    mining = str(EX / "proposal-used-3090-mining.yaml")  # its seller reports are read beside it
    case("host29: audit of used 3090s at their own price: the host share judged, exit 1 (blockers)", {}, ["audit", mining, "--format", "json"], expect="any",
         check=lambda r: r.returncode == 1 and list(_stale(json.loads(r.stdout))) == [HOST])
    case("host29: that audit's brief fits two 80 x 40 screens", {}, ["audit", mining], expect="any",
         check=lambda r: r.returncode == 1 and r.stdout.count("\n") <= 80 and "DATA-STALE-PRICE" in r.stdout)
    acase("host29: a rented proposal: no host share, none stale", {"title": "t", "workload": SERVE, "hardware": {"gpu": "H100 SXM", "count": 1}, "acquisition": RENT}, _doc(lambda d: not [w for w in _stale(d) if "host around" in w and "H100" in w]))

    # ------------------------------------------------------------ the DGX Spark priced
    rcase("spark29: one Spark, rent or buy: bought at $4,699, no host share", {"workload": SPARK, "constraints": {"max_gpus": 1, "acquisition": "either", "gpus": ["gb10"]}},
          _doc(lambda d: [(e["kind"], e["amount"]) for e in d["prices_used"]] == [("buy", 4699)]), argv=("recommend", "r.yaml", "--format", "json", "--knowledge", "kb"), files=SPARK_KB)
    rcase("spark29: an overlay's newer $3,999 quote: taken over the list price", {"workload": SPARK, "constraints": {"max_gpus": 1, "acquisition": "buy", "gpus": ["gb10"]}},
          _doc(lambda d: [e["amount"] for e in d["prices_used"] if e["kind"] == "buy"] == [3999]), argv=("recommend", "r.yaml", "--format", "json", "--knowledge", "kb"),
          files={"kb/prices.yaml": "schema_version: 1\ngpus:\n  - id: gb10\n    units: {sold_as: workstation, sizes: [1], max_per_node: 1, reason: \"one GB10 a DGX Spark\", source: \"NVIDIA\"}\n    prices:\n      - {amount: 3999, condition: new, unit: card, kind: vendor-list, as_of: 2026-11-01, source: \"a reseller's November quote\"}\n"})
    # an overlay that only excludes it was refused 'gpu 'gb10' is both priced and excluded': it now takes the part off
    rcase("spark29: an overlay excluding it (not sold to us): unpriced, no answer", {"workload": SPARK, "constraints": {"max_gpus": 1, "acquisition": "buy", "gpus": ["gb10"]}},
          lambda r: r.returncode == 1 and _doc(lambda d: d["recommendation"] is None and "TCO-NO-PURCHASE-PRICE" in _rules(d))(r), argv=("recommend", "r.yaml", "--format", "json", "--knowledge", "kb"),
          files={"kb/prices.yaml": "schema_version: 1\nexcluded:\n  - {id: gb10, reason: \"not sold to us here\"}\n"})
    acase("spark29: audit buying 2 Sparks at the list price: the ledger adds up", {"title": "t", "workload": SPARK, "hardware": {"gpu": "DGX Spark", "count": 2}, "acquisition": {"mode": "buy"}},
          _doc(lambda d: d["proposed"]["gpu"] == "gb10" and _ledger_adds_up(d["proposed"]["ledger"])), argv=("audit", "p.yaml", "--format", "json", "--knowledge", "kb"), files=SPARK_KB)
    pcase("spark29: a plan that may buy only Sparks: adds up", {"horizon_months": 3, "workloads": [{"name": "chat", "workload": {**SPARK, "prompt_tokens": 1000, "output_tokens": 200}, "cadence": {"continuous": True, "hours_per_day": 8}, "targets": {"requests_per_s": 0.2}}], "constraints": {"gpus": ["gb10"], "acquisition": "buy"}},
          lambda r: r.returncode in (0, 1) and _doc(_plan_adds_up)(r))
    case("spark29: prices --gpu 'DGX Spark': its dated list price", SPARK_KB, ["prices", "--gpu", "DGX Spark", "--format", "json", "--knowledge", "kb"], expect="any",
         check=lambda r: _ok(r) and "2026-02-23" in r.stdout and "4699" in r.stdout.replace(",", ""))

    # ------------------------------------------------------------ the question as understood, read back
    def _read_back(r) -> bool:
        """The question an estimate echoes, read back as a requirements file."""
        if not _finite_json(r):
            return False
        q = {k: v for k, v in json.loads(r.stdout)["workload"].items() if k not in ("resolved_model", "train_tokens_used", "deadline_days_used")}
        Path(r.cwd, "q.yaml").write_text(_dump(q), encoding="utf-8")
        return _ok(_again(r, "recommend", "q.yaml", "--format", "json"))
    for label, wl in (("a tensorrt-llm service with a hold", {**SERVE, "framework": "tensorrt-llm", **HOLD}), ("a fine-tune", TRAIN),
                      ("a speculative, quantized, rate-based service", {**SERVE, "model": "llama-3.1-70b", "requests_per_s": 1, "p95_ttft_s": 2, "quantization": "awq", "speculative": {"method": "eagle3", "draft_tokens": 3}})):
        case(f"echo29: {label}'s question read back", {"r.yaml": _dump({"workload": wl})}, ["estimate", "r.yaml", "--gpu", "h100", "--gpus", "2", "--format", "json"], expect="any", check=_read_back)
    case("echo29: a context split evenly shows the prompt's length once", {"r.yaml": _dump({"workload": {"task": "inference", "model": "llama-3.1-8b", "context_len": 8192}})}, ["estimate", "r.yaml", "--gpu", "h100"], expect="any",
         check=lambda r: _ok(r) and "4,096, 4,096" not in r.stdout)

    # ------------------------------------------------------------ v3 serving options in plans and audits
    pcase("v329: a plan's service with awq, eagle3 and a p95 target: adds up", _edit(PLAN, "workloads.0.workload", {**SERVE, "model": "llama-3.1-70b", "quantization": "awq", "speculative": {"method": "eagle3", "draft_tokens": 3}}),
          lambda r: r.returncode in (0, 1) and _doc(_plan_adds_up)(r))
    acase("v329: audit of a disaggregated R1 service on 8 H200 at a rate: finite or refused", {"title": "t", "workload": {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "prompt_tokens": 2000, "output_tokens": 500, "requests_per_s": 2, "p95_ttft_s": 3, "disaggregated": True, "framework": "sglang"}, "hardware": {"gpu": "H200", "count": 8}, "acquisition": {"mode": "rent"}},
          _either(_refused("p.yaml"), _finite_json))
