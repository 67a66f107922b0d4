# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-two of the hostile corpus: session 40's merges used as a careless or hostile author would -- the
budget held to what a purchase pays before its resale (TCO-OVER-BUDGET-CASH, TCO-RENT-BUY-OVER-BUDGET, the ledger's
``cash_out``) in recommend, audit and plan, in dollars and in yuan, a rental audited within its budget where buying
pays more; a training rental that outlasts its commitment (the ledger period 'job'); the plan's tie within the
solver's tolerance (``answer.tie``) in every report format and in yuan; owned GPUs over several servers
(``owned[].servers``, llama.cpp over two servers, servers that do not divide the count); ``rocm_fp4_asm_gemm`` with
and without ``rocm_aiter``, on SGLang, on a BF16 job, on MI355X / MI350X / NVIDIA; transformers serving (its eager
decode step) and TensorRT-LLM at request rates; FP8 Llama checkpoints; ``framework_version`` as YAML numbers; a
number field given null; the questionnaire with fullwidth and Thai digits -- through estimate, recommend, audit,
plan and ask, in text, Markdown, HTML and JSON, brief and full, --lang zh. Added to benchmarks/hostile_corpus.py's
table by :func:`add`.

Run on main at ddfa8e16 (before this branch's fixes): 60 cases, 44 clean; on this branch 60 of 60. Fixed (each with
its test in tests/test_hostile42.py):

* an audited 12-month H200 rental within its $260,000 budget was told to buy (TCO-RENT-DEARER-PROPOSED) though
  buying pays $337,076 before resale, what TCO-OVER-BUDGET-CASH rejects: the rule holds to the budget as
  TCO-RENT-DEARER does (its budget clause now shown by ``explain``);
* ``rocm_fp4_asm_gemm: true`` without ``rocm_aiter: true``, on SGLang or on a BF16 job was accepted and changed
  nothing: refused naming the field (vLLM reads it only with AITER on, in its MXFP4 linear layers);
* a number field given null ('egress_tb_per_month: null', 'max_gpus: ~') was refused in pydantic's words ('Input
  should be a valid number (got null)'): gpuwise's, with the way to the default;
* the plan's tie read '$30.00 more' of two totals shown whole ($43,672, $43,642): said '$30';
* 8 owned A100s in 3 servers were taken as 8 // 3 = 2 a server and a run on all 8 said 'over 4 servers': spread as
  evenly as it goes (3, 3, 2; owned[].server_sizes), the fewest servers spanned;
* the plan questionnaire's growth '１０%' was 'not a percentage', its month '２０２４-０３' answered with pydantic's
  regular expression: both offer the ASCII, as every other number question does.

leftovers56 (session 41): a prompt now reads what a full-width input mode types (the 全角 of a Chinese input method:
'７０b', '＄５００００', '１０%', '２０２４－０３') as its ASCII, in either language; those four cases expect it read, and
a case of the month in Arabic-Indic digits (still refused, the ASCII offered) is added: 61 cases.

Left as they are: 'framework_version: 0.10' is asked for in quotes as "0.1" (YAML's float is all gpuwise sees; the
message says YAML drops the zero); a plan's '5万元' budget with no currency stated is refused (docs/formats.md: a
plan's amounts are in constraints.currency, USD unless stated), where a requirements file takes the currency from
the budget's text.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import yaml

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round20 import ACQ, BUDGET, DEADLINE, METHOD, MODEL, TASK, TOKENS, _asked
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round39 import _again
from benchmarks.hostile_round41 import _contract, _plan_sums

R1 = {"task": "inference", "model": "deepseek-r1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "requests_per_s": 4}
FP4 = {"task": "inference", "model": "llama-3.1-70b", "framework": "vllm", "precision": "fp4", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 64}
L70 = {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 200}
SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
PRE8 = {"task": "pretrain", "params_b": 8, "seq_len": 4096, "train_tokens": 1.0e12}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=0.006)


def _ledgers(d: dict) -> list[dict]:
    out = [d.get("recommendation"), d.get("runner_up"), *d.get("alternatives", []), *d.get("candidates", []),
           d.get("proposed"), d.get("alternative")]
    return [c["ledger"] for c in out if isinstance(c, dict) and c.get("ledger")]


def _cash_sums(d: dict) -> bool:
    """Each ledger's cash_out is its lines but the resale, its total all of them (docs/formats.md, Ledger)."""
    leds = _ledgers(d)
    return bool(leds) and all(_close(x["cash_out"], sum(v["amount"] for v in x["lines"] if v["kind"] != "resale"))
                              and _close(x["total"], sum(v["amount"] for v in x["lines"])) for x in leds)


def _money(v: float) -> str:
    return f"${v:,.0f}"


def _cash_said(d: dict) -> bool:
    """TCO-OVER-BUDGET-CASH's message gives the proposal's own cash out and net, as its ledger sums them."""
    led = d["proposed"]["ledger"]
    said = [f["message"] for f in d["findings"] if f["rule"] == "TCO-OVER-BUDGET-CASH"]
    return bool(said) and _money(led["cash_out"]) in said[0] and _money(led["total"]) in said[0]


def _answer_in_budget(budget: float):
    """The answer, where there is one, pays no more than the budget before its resale; the sums hold."""
    def pred(d: dict) -> bool:
        rec = d.get("recommendation")
        return _cash_sums(d) and (not rec or rec["ledger"]["cash_out"] <= budget + 0.01)
    return pred


def _tie_sound(d: dict) -> bool:
    """answer.tie: buying nothing within the gap of the plan's total, and 'more' the difference of the two as shown
    (whole units from 100)."""
    t = d["answer"].get("tie")
    if not t:
        return False
    def shown(v: float) -> float:
        return round(v) if abs(v) >= 100 else round(v, 2)
    return abs(t["total"] - d["total"]) <= t["gap"] * d["total"] + 0.01 and _close(t["more"], shown(t["total"]) - shown(d["total"]))


def _tie_words(lines: int = 80, *words: str):
    """The brief plan: exit 0, the tie said, every one of ``words``, within ``lines`` lines."""
    def check(r) -> bool:
        return (r.returncode == 0 and "Traceback" not in r.stderr and len(r.stdout.rstrip("\n").split("\n")) <= lines
                and all(w in r.stdout for w in words))
    return check


def _no_cents_on_whole(r) -> bool:
    """The tie's 'more' is the difference of two amounts shown in whole units: no cents of its own ('$30.00' where
    the two read $43,672 and $43,642, $30.16 apart)."""
    m = re.search(r"Buying nothing costs (\S+), (\S+) more", r.stdout)
    return r.returncode == 0 and m is not None and not m.group(2).endswith(".00")


def _tpot(d: dict) -> float:
    return d["gpu"]["serving"]["tpot_s"]


def _tpot_vs(relation: str, *argv: str):
    """This answer's TPOT against the same question with ``argv`` (the file it names, read beside it)."""
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        mine, other = _tpot(json.loads(r.stdout)), _tpot(_again(r, *argv))
        return {"same": mine == other, "lower": mine < other, "higher": mine > other}[relation]
    return check


def _own(servers: Any, framework: str = "llama.cpp", count: int = 8) -> dict:
    return {"horizon_months": 6, "owned": [{"gpu": "a100-sxm4-80gb", "count": count, "servers": servers}],
            "workloads": [{"name": "chat", "workload": {**L70, "framework": framework, "precision": "bf16"},
                           "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 0.2}}],
            "constraints": {"acquisition": "rent", "gpus": ["a100-sxm4-80gb"], "max_gpus": 8}}


def _copies_within(per_server: int):
    """Each owned run's copy sits on at most ``per_server`` GPUs (llama.cpp serves from one server), the sums hold."""
    def pred(d: dict) -> bool:
        owned_lines = [x for x in d["lines"] if x["kind"] == "power"]
        return _plan_sums(d) and all(x["inputs"]["gpu_hours"] > 0 for x in owned_lines) and d["owned"][0]["server_gpus"] == per_server
    return pred


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ the budget on the cash a purchase pays before resale
    either = {"workload": R1, "constraints": {"budget_usd": 200000, "acquisition": "either", "project_months": 12}}
    rcase("cash42: recommend rent or buy of R1 under $200,000: every ledger's cash_out is its lines but resale", either,
          _doc(_cash_sums), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("cash42: the same under $260,000: the answer pays no more than the budget before resale", {**either, "constraints": {**either["constraints"], "budget_usd": 260000}},
          _doc(_answer_in_budget(260000)), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("cash42: the same in yuan at --fx-rate 7.2 (text): the cash-before-resale reasons in CN¥, no $", either,
          lambda r: r.returncode == 1 and "before its resale" in r.stdout and "CN¥1,440,000" in r.stdout and not re.search(r"before its resale \(\$", r.stdout),
          argv=("recommend", "r.yaml", "--currency", "CNY", "--fx-rate", "7.2"))
    rcase("cash42: a budget of '150万元', Markdown, --lang zh: answered, no traceback", {**either, "constraints": {**either["constraints"], "budget_usd": "150万元"}},
          lambda r: r.returncode == 1 and "¥1,500,000" in r.stdout and "Traceback" not in r.stderr, argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh"))
    rcase("cash42: the same, HTML to a file: written whole", either,
          lambda r: r.returncode == 1 and (r.cwd / "out.html").read_text().rstrip().endswith("</html>"), argv=("recommend", "r.yaml", "--format", "html", "-o", "out.html"))
    buy = {"title": "t", "workload": R1, "hardware": {"gpu": "h200", "count": 8, "nodes": 1}, "acquisition": {"mode": "buy"},
           "constraints": {"budget_usd": 200000, "project_months": 12}}
    acase("cash42: an audit of 8 x H200 bought under $200,000: TCO-OVER-BUDGET-CASH with its ledger's cash out and net", buy, _doc(lambda d: _cash_said(d) and _cash_sums(d)))
    acase("cash42: the same, --detail full --lang zh: exit 1, no traceback", buy, lambda r: r.returncode == 1 and "Traceback" not in r.stderr and "转售" in r.stdout,
          argv=("audit", "p.yaml", "--detail", "full", "--lang", "zh"))
    rent = {**buy, "acquisition": {"mode": "rent", "months": 12}, "constraints": {"budget_usd": 260000, "project_months": 12}}
    acase("cash42: a 12-month H200 rental within $260,000, where buying pays $337,076 before resale: not told to buy", rent,
          _doc(lambda d: "TCO-RENT-DEARER-PROPOSED" not in _rules(d) and "TCO-OVER-BUDGET" not in _rules(d)))
    acase("cash42: the same rental under $400,000 (buying's cash fits): TCO-RENT-DEARER-PROPOSED still said", {**rent, "constraints": {"budget_usd": 400000, "project_months": 12}},
          _doc(lambda d: "TCO-RENT-DEARER-PROPOSED" in _rules(d)))
    acase("cash42: the same rental with no budget: TCO-RENT-DEARER-PROPOSED said", {**rent, "constraints": {"project_months": 12}},
          _doc(lambda d: "TCO-RENT-DEARER-PROPOSED" in _rules(d)))
    acase("cash42: the $260,000 rental in yuan ('187万元' at 7.2): not told to buy either", {**rent, "constraints": {"budget_usd": "187万元", "project_months": 12}},
          _doc(lambda d: "TCO-RENT-DEARER-PROPOSED" not in _rules(d)), argv=("audit", "p.yaml", "--format", "json", "--fx-rate", "7.2"))
    team_cash = {"horizon_months": 12, "workloads": [{"name": "r1", "workload": R1, "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 4}}],
                 "constraints": {"acquisition": "either", "gpus": ["h200", "mi300x"], "max_gpus": 8, "budget_total_usd": 260000}}
    pcase("cash42: a plan of R1 with a $260,000 total budget: the months sum, cash kept within it", team_cash,
          _doc(lambda d: _plan_sums(d) and (bool(d["unplaced"]) or sum(m["capex"] + m["rent"] + m["opex"] + m["fees"] for m in d["months"]) <= 260000 * 1.001)))

    # ------------------------------------------------------------ a rental that outlasts its commitment (period 'job')
    long = {"title": "t", "workload": PRE8, "hardware": {"gpu": "b200", "count": 8, "nodes": 1}, "acquisition": {"mode": "rent", "provider": "runpod", "months": 1}}
    def _job_period(d: dict) -> bool:
        led, tl = d["proposed"]["ledger"], d["proposed"]["timeline"]
        return led["period"]["kind"] == "job" and _close(led["period"]["hours"], tl["billed_hours"]) and _contract(d)
    acase("job42: 8 x B200 on a 1-month term for a 94-day pretrain: period 'job', its hours the billed hours", long, _doc(_job_period))
    acase("job42: the same, --detail full: never 'for the committed 1 month'", long,
          lambda r: r.returncode in (0, 1) and "committed 1 month" not in r.stdout and "Traceback" not in r.stderr, argv=("audit", "p.yaml", "--detail", "full"))
    acase("job42: the same on spot: period 'job', sums hold", {**long, "acquisition": {**long["acquisition"], "spot": True, "checkpointing": True}}, _doc(_job_period))

    # ------------------------------------------------------------ the plan's tie within the solver's tolerance
    # the team example held to copies of 2 RTX 4090s at 17.5 cents a kWh: it buys 2 RTX PRO 6000 for $44,515.88 against
    # buying nothing's $44,541.32, a tie (at 15 cents a tie until plansolve62 made the purchase 0.104% cheaper; at 15.1
    # until plan63's whole runs let the search stop at buying nothing there; at 15.06 until plan64's 2-card desktop)
    team = (Path(__file__).resolve().parent.parent / "tests" / "data" / "plans" / "team-4090-two-a-copy-tie.yaml").read_text()
    case("tie42: the team plan, JSON: answer.tie within the gap, 'more' the difference of the totals as shown", {"plan.yaml": team},
         ["plan", "plan.yaml", "--format", "json"], expect="any", check=_doc(_tie_sound))
    case("tie42: the team plan in yuan at 7: the tie's 'more' the difference of the yuan totals shown", {"plan.yaml": team},
         ["plan", "plan.yaml", "--format", "json", "--currency", "CNY", "--fx-rate", "7"], expect="any", check=_doc(_tie_sound))
    case("tie42: the team plan, text: the tie's difference of two whole figures shows no cents of its own", {"plan.yaml": team},
         ["plan", "plan.yaml"], expect="any", check=_no_cents_on_whole)
    case("tie42: the team plan, --lang zh brief: the tie said within 80 lines", {"plan.yaml": team},
         ["plan", "plan.yaml", "--lang", "zh"], expect="any", check=_tie_words(80, "容差"))
    case("tie42: the team plan, Markdown full: the tie said", {"plan.yaml": team},
         ["plan", "plan.yaml", "--format", "md", "--detail", "full"], expect="any", check=_tie_words(10000, "tolerance"))

    # ------------------------------------------------------------ owned GPUs over several servers
    pcase("own42: 8 owned A100s in 4 servers, 70B BF16 on llama.cpp: copies of 2 in one server each, sums hold", _own(4), _doc(_copies_within(2)))
    pcase("own42: 8 in 8 servers (one a server): llama.cpp cannot span them, PLAN-OWNED-CANNOT-RUN", _own(8),
          _doc(lambda d: "PLAN-OWNED-CANNOT-RUN" in _rules(d) and _plan_sums(d)))
    pcase("own42: 8 in 3 servers (the count does not divide): answered, sums hold", _own(3), _doc(_plan_sums))
    own405 = _own(3, "vllm")
    own405["workloads"][0]["workload"] = {**L70, "model": "llama-3.1-405b", "framework": "vllm", "precision": "fp8"}
    pcase("own42: 405B FP8 on all 8 owned A100s in 3 servers: 'over 3 servers', not 4 (8 // 3 = 2 a server)", own405,
          lambda r: r.returncode == 0 and "over 3 servers" in " ".join(r.stdout.split()) and "over 4 servers" not in r.stdout, argv=("plan", "plan.yaml", "--detail", "full"))
    pcase("own42: the same, JSON: owned[].server_sizes 3, 3, 2", own405, _doc(lambda d: d["owned"][0].get("server_sizes") == [3, 3, 2] and _plan_sums(d)))
    pcase("own42: servers '٤' (Arabic-Indic): refused, 4 offered", _own("٤"), _refused("plan.yaml", "owned[0].servers", "write 4"), argv=("plan", "plan.yaml"))
    acase("own42: an audit of 70B BF16 on llama.cpp over 4 A100s in 4 nodes (a copy needs 2): CMP-FRAMEWORK-NODES", {"title": "t", "workload": {**L70, "framework": "llama.cpp", "precision": "bf16"}, "hardware": {"gpu": "a100-sxm4-80gb", "count": 4, "nodes": 4}, "acquisition": {"mode": "buy"}},
          _doc(lambda d: "CMP-FRAMEWORK-NODES" in _rules(d)))

    # ------------------------------------------------------------ rocm_fp4_asm_gemm with and without rocm_aiter
    est = ("estimate", "r.yaml", "--gpu", "mi355x", "--format", "json")
    rcase("fp4asm42: rocm_fp4_asm_gemm true without rocm_aiter (vLLM reads it only with AITER on): refused naming it", {"workload": {**FP4, "rocm_fp4_asm_gemm": True}},
          _refused("r.yaml", "workload.rocm_fp4_asm_gemm", "rocm_aiter"), argv=est)
    rcase("fp4asm42: rocm_fp4_asm_gemm true, rocm_aiter false: refused naming it", {"workload": {**FP4, "rocm_fp4_asm_gemm": True, "rocm_aiter": False}},
          _refused("r.yaml", "workload.rocm_fp4_asm_gemm", "rocm_aiter"), argv=est)
    rcase("fp4asm42: rocm_fp4_asm_gemm on SGLang (a vLLM variable): refused naming it", {"workload": {**FP4, "framework": "sglang", "rocm_fp4_asm_gemm": True, "rocm_aiter": True}},
          _refused("r.yaml", "workload.rocm_fp4_asm_gemm", "vllm"), argv=est)
    rcase("fp4asm42: rocm_fp4_asm_gemm on a BF16 job (no MXFP4 layers): refused naming it", {"workload": {**FP4, "precision": "bf16", "rocm_fp4_asm_gemm": True, "rocm_aiter": True}},
          _refused("r.yaml", "workload.rocm_fp4_asm_gemm", "fp4"), argv=est)
    rcase("fp4asm42: rocm_fp4_asm_gemm false without rocm_aiter: kept (it says nothing)", {"workload": {**FP4, "rocm_fp4_asm_gemm": False}}, _finite_json, argv=est)
    rcase("fp4asm42: with rocm_aiter on the MI355X: a lower TPOT than AITER alone", {"workload": {**FP4, "rocm_fp4_asm_gemm": True, "rocm_aiter": True}},
          _tpot_vs("lower", "estimate", "a.yaml", "--gpu", "mi355x", "--format", "json"), argv=est, files={"a.yaml": json.dumps({"workload": {**FP4, "rocm_aiter": True}})})
    rcase("fp4asm42: with rocm_aiter on the MI350X (no timed table): the TPOT of AITER alone", {"workload": {**FP4, "rocm_fp4_asm_gemm": True, "rocm_aiter": True}},
          _tpot_vs("same", "estimate", "a.yaml", "--gpu", "mi350x", "--format", "json"), argv=("estimate", "r.yaml", "--gpu", "mi350x", "--format", "json"), files={"a.yaml": json.dumps({"workload": {**FP4, "rocm_aiter": True}})})
    rcase("fp4asm42: recommend over MI355X and H100: SRV-ROCM-AITER-NOT-AMD names both settings on the H100", {"workload": {**FP4, "rocm_fp4_asm_gemm": True, "rocm_aiter": True}, "constraints": {"gpus": ["mi355x", "h100"]}},
          _doc(lambda d: any(f["rule"] == "SRV-ROCM-AITER-NOT-AMD" and "rocm_aiter and rocm_fp4_asm_gemm" in f["message"] for f in d["findings"])), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ transformers serving, TensorRT-LLM at a rate, FP8 Llama
    h4 = ("estimate", "r.yaml", "--gpu", "h100", "--gpus", "4", "--format", "json")
    rcase("tf42: transformers serving Qwen3-30B-A3B (the Python expert loop): finite, slower than dense Llama 3.1 8B", {"workload": {**SERVE8, "framework": "transformers", "model": "qwen3-30b-a3b", "concurrent_requests": 1}},
          _tpot_vs("higher", "estimate", "a.yaml", "--gpu", "h100", "--format", "json"), argv=("estimate", "r.yaml", "--gpu", "h100", "--format", "json"),
          files={"a.yaml": json.dumps({"workload": {**SERVE8, "framework": "transformers", "concurrent_requests": 1}})})
    rcase("tf42: framework_version 4.53 as a YAML number on transformers: quotes asked", {"workload": {**SERVE8, "framework": "transformers", "framework_version": 4.53}},
          _refused("r.yaml", "workload.framework_version", '"4.53"'), argv=h4)
    rcase("trt42: TensorRT-LLM 70B FP8 at 10 requests/s: TPOT no lower than at 0.5/s", {"workload": {**L70, "framework": "tensorrt-llm", "requests_per_s": 10}},
          _tpot_vs("higher", "estimate", "a.yaml", "--gpu", "h100", "--gpus", "4", "--format", "json"), argv=h4, files={"a.yaml": json.dumps({"workload": {**L70, "framework": "tensorrt-llm", "requests_per_s": 0.5}})})
    rcase("trt42: TensorRT-LLM at 1e6 requests/s: answered, finite JSON", {"workload": {**L70, "framework": "tensorrt-llm", "requests_per_s": 1e6}}, _finite_json, argv=h4)
    rcase("fp842: vLLM 0.10.0 Llama 3.1 70B FP8, recommend Markdown: answered", {"workload": {**L70, "framework": "vllm", "framework_version": "0.10.0", "concurrent_requests": 32}},
          lambda r: r.returncode in (0, 1) and "Traceback" not in r.stderr and "# " in r.stdout, argv=("recommend", "r.yaml", "--format", "md"))
    rcase("fv42: vLLM framework_version 0.10 as a YAML number: quotes asked", {"workload": {**SERVE8}}, _refused("v.yaml", "workload.framework_version", "quotes"),
          argv=("estimate", "v.yaml", "--gpu", "h100"), files={"v.yaml": "workload: {task: inference, model: llama-3.1-8b, framework: vllm, framework_version: 0.10}\n"})

    # ------------------------------------------------------------ a number field given null
    aws = {"title": "t", "workload": LORA8, "hardware": {"gpu": "h100", "count": 8, "nodes": 1}, "acquisition": {"mode": "rent", "provider": "aws", "instance": "p5.48xlarge"}}
    acase("null42: cloud.egress_tb_per_month null: refused in gpuwise's words, leave it out offered", {**aws, "cloud": {"egress_tb_per_month": None}},
          lambda r: _refused("p.yaml", "cloud.egress_tb_per_month", "leave egress_tb_per_month out")(r) and "Input should be" not in r.stderr)
    rcase("null42: constraints.max_gpus null: refused in gpuwise's words", {"workload": LORA8, "constraints": {"max_gpus": None}},
          lambda r: _refused("r.yaml", "constraints.max_gpus", "leave max_gpus out")(r) and "Input should be" not in r.stderr, argv=("recommend", "r.yaml"))
    rcase("null42: workload.seq_len null on a fine-tune: refused, or its default said", {"workload": {**LORA8, "seq_len": None}},
          lambda r: r.returncode in (0, 2) and "Input should be" not in r.stderr and "Traceback" not in r.stderr, argv=("estimate", "r.yaml", "--gpu", "h100"))

    # ------------------------------------------------------------ house rules and the rule base over the cash facts
    cap = ("schema_version: 1\nruleset: house-cash\nstep: tco\ndescription: cash up front capped\nrules:\n  - id: HOUSE-CASH-CAP\n"
           "    title: Cash up front capped\n    fact: candidate\n    when:\n      - [cash_out_usd, \">\", 150000]\n    then:\n      action: reject\n"
           "      topic: cost\n      message: \"{count} x {gpu_name} pays {cash_out_usd:money} up front\"\n      fix: \"Rent.\"\n"
           "    rationale: \"Treasury keeps cash for payroll.\"\n    source: \"Team policy (example)\"\n")
    r1 = {"workload": R1, "constraints": {"acquisition": "either", "project_months": 12}}
    rcase("house42: a house rule on cash_out_usd: each rejection's amount is that candidate's ledger cash out", r1,
          _doc(lambda d: _cash_sums(d) and all(_money(c["ledger"]["cash_out"]) in " ".join(c.get("reasons") or [])
                                               for c in d["alternatives"] if "HOUSE-CASH-CAP" in (c.get("rules") or []))),
          argv=("recommend", "r.yaml", "--rules", "hr", "--format", "json"), files={"hr/cash.yaml": cap})
    rcase("house42: the same in yuan at 7, text: the house rule's amounts in CN¥", r1,
          lambda r: r.returncode == 1 and re.search(r"HOUSE-CASH-CAP: .* pays CN¥[0-9,]+ up", " ".join(r.stdout.split())) is not None,
          argv=("recommend", "r.yaml", "--rules", "hr", "--currency", "CNY", "--fx-rate", "7"), files={"hr/cash.yaml": cap})
    case("rules42: explain TCO-RENT-DEARER-PROPOSED: its budget clause said", {}, ["explain", "TCO-RENT-DEARER-PROPOSED"], expect="ok",
         check=lambda r: "buy_cash_out_usd <= budget_usd" in r.stdout)
    case("rules42: explain 'TCO-OVER-BUDGET-CAHS' (misspelt): TCO-OVER-BUDGET-CASH offered", {}, ["explain", "TCO-OVER-BUDGET-CAHS"], has=("TCO-OVER-BUDGET-CASH",))
    case("rules42: rules --facts --format json: cash_out_usd and buy_cash_out_usd listed", {}, ["rules", "--facts", "--format", "json"], expect="ok",
         check=lambda r: "buy_cash_out_usd" in r.stdout and "cash_out_usd" in r.stdout and json.loads(r.stdout) is not None)
    buy400 = {"workload": R1, "constraints": {"acquisition": "buy", "project_months": 12, "budget_usd": 400000}}
    def _budget_row(r) -> bool:
        m = re.search(r"Your budget\s+(\$[0-9,]+) of \$400,000", r.stdout)
        return r.returncode == 0 and m is not None and m.group(1) == _money(_again(r, "recommend", "r.yaml", "--format", "json")["recommendation"]["ledger"]["cash_out"])
    rcase("cash42: buy under $400,000: the answer's 'Your budget' row is its ledger's cash out", buy400, _budget_row, argv=("recommend", "r.yaml"))
    pcase("cur42: a plan's budget '5万元' with no currency stated: refused naming the field and currency", {"horizon_months": 6, "workloads": [{"name": "ft", "workload": LORA8, "cadence": {"per_month": 1}}], "constraints": {"budget_total_usd": "5万元", "gpus": ["rtx-4090"]}},
          _refused("plan.yaml", "constraints.budget_total_usd", "currency"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ the plan brief's fold for many workloads, and the tie
    many = {"horizon_months": 12, "owned": [{"gpu": "rtx-4090", "count": 8, "servers": 2}],
            "workloads": [{"name": f"svc{i}", "workload": {**SERVE8, "concurrent_requests": 4}, "cadence": {"continuous": True, "hours_per_day": 12}, "targets": {"requests_per_s": 0.5 + i / 4}} for i in range(14)]
            + [{"name": f"tune{i}", "workload": LORA8, "cadence": {"per_month": 1}, "deadline_days": 5} for i in range(14)],
            "constraints": {"acquisition": "either", "gpus": ["rtx-4090", "h100"], "max_gpus": 8, "budget_per_quarter_usd": 60000}}
    pcase("brief42: 28 workloads over owned 4090s in 2 servers, rent or buy: the brief within 80 lines", many, _tie_words(80), argv=("plan", "plan.yaml"))
    pcase("brief42: the same, --lang zh: within 80 lines", many, _tie_words(80), argv=("plan", "plan.yaml", "--lang", "zh"))
    pcase("brief42: the same, JSON: the months sum, any tie within its gap", many,
          _doc(lambda d: _plan_sums(d) and (d["answer"].get("tie") is None or _tie_sound(d))))

    # ------------------------------------------------------------ the questionnaire: fullwidth and Thai digits
    # (leftovers56: a prompt reads what a full-width input mode types as its ASCII -- '７０b' is 70b -- where round 42
    # had them refused with the ASCII offered; other scripts' digits are still refused so)
    ask = ["ask", "--answers", "a.yaml"]
    for name, script, shows in [
        ("ask42: tokens '๒e8' (Thai) at the tokens prompt: refused, 2e8 offered", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\r"], [TOKENS, "\u0e52e8\r"], ["", "\x03"]], "write 2e8"),
    ]:
        case(name, {}, ["ASK20", json.dumps(script), *ask], expect="any", real=True, check=_asked(130, shows=(shows,)))
    for name, script, key, value in [
        ("ask42: model '７０b' (fullwidth) at the model prompt: read as 70b (leftovers56)", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\uff17\uff10b\r"], [TOKENS, "\x03"]], ("workload", "params_b"), 70.0),
        ("ask42: budget '＄５００００' (fullwidth sign and digits): read as $50,000 (leftovers56)", [[TASK, "\r"], [METHOD, "\r"], [MODEL, "\r"], [TOKENS, "\r"], [DEADLINE, "\r"], [BUDGET, "\uff04\uff15\uff10\uff10\uff10\uff10\r"], [ACQ, "\x03"]], ("constraints", "budget_usd"), 50000),
    ]:
        case(name, {}, ["ASK20", json.dumps(script), *ask], expect="any", real=True,
             check=lambda r, key=key, value=value: _asked(130)(r) and "digits other than" not in r.stdout
             and (yaml.safe_load(Path(r.cwd, "a.yaml").read_text(encoding="utf-8")) or {}).get(key[0], {}).get(key[1]) == value)
    # the plan's questions (the first question's last choice): no owned GPUs, a service, its growth in percent
    plan_to_growth = [[TASK, "\x1b[B\x1b[B\r"], ["Over how many months", "6\r"], ["", "n"], ["", "\r"], ["", "llama-3.1-8b\r"],
                      ["", "\r"], ["", "\r"], ["", "\r"], ["", "0.5\r"], ["", "\r"], ["", "\r"], ["", "\r"], ["", "\r"],
                      ["How much does the load grow", ""]]  # after the rate: the p95 TTFT and TPOT targets (productleft60)
    for name, growth, shows in [
        ("ask42: a plan's growth '١٠' (Arabic-Indic): refused, 10 offered", "\u0661\u0660", "write 10"),
    ]:
        case(name, {}, ["ASK20", json.dumps([*plan_to_growth, ["", growth + "\r"], ["write", "\x03"]]), "ask", "--answers", "p.yaml"], expect="any", real=True,
             check=lambda r, shows=shows: r.returncode == 130 and shows in r.stdout and "Traceback" not in r.stdout)
    case("ask42: a plan's growth '１０%' (fullwidth): read as 10% and the next question asked (leftovers56)", {},
         ["ASK20", json.dumps([*plan_to_growth, ["", "\uff11\uff10%\r"], ["From which month", "\x03"]]), "ask", "--answers", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode == 130 and "From which month" in r.stdout and "digits other than" not in r.stdout
         and "not a percentage" not in r.stdout and "Traceback" not in r.stdout)
    plan_to_bought = [[TASK, "\x1b[B\x1b[B\r"], ["Over how many months", "6\r"], ["", "y"], ["", "RTX 4090\r"], ["", "8\r"], ["", "\r"]]
    case("ask42: a plan's owned GPUs bought '２０２４-０３' (fullwidth): read as 2024-03, the price asked next (leftovers56)", {},
         ["ASK20", json.dumps([*plan_to_bought, ["", "\uff12\uff10\uff12\uff14-\uff10\uff13\r"], ["What was paid", "\x03"]]), "ask", "--answers", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode == 130 and "What was paid" in r.stdout and "digits other than" not in r.stdout
         and "should match pattern" not in r.stdout)
    case("ask42: a plan's owned GPUs bought '٢٠٢٤-٠٣' (Arabic-Indic): 2024-03 offered, not a regular expression", {},
         ["ASK20", json.dumps([*plan_to_bought, ["", "\u0662\u0660\u0662\u0664-\u0660\u0663\r"], ["write", "\x03"]]), "ask", "--answers", "p.yaml"], expect="any", real=True,
         check=lambda r: r.returncode == 130 and "write 2024-03" in r.stdout and "should match pattern" not in r.stdout)
