# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-nine of the hostile corpus: session 38's merges used as a careless or hostile author would --
``parallelism.etp`` of 0, 3, 1024 or '2', on a dense model in a plan, on a service, with an ``ep`` that
does not divide the model's routed experts (Qwen3-30B-A3B's 128, Mixtral's 8); ``cut_cross_entropy`` as 'yes', 1,
null, beside chunked_cross_entropy, on a model given by its size (vocabulary assumed) and on a service; serving.yaml
``serial_shared_expert`` overlays with a release '0.5.x' or 'latest', a window that ends before it starts, a
misspelt vendor, a window of .post releases; llama.cpp's ``read_bytes_per_fp32_flop`` at 0 and 1e300;
framework_version 'v0.11.1', '0.11.1rc2.dev5+gabc' and 'nightly'; 9 RTX 4090s on one AutoDL node and on three;
clouds.yaml fees at 0, negative and NaN; a request rate of 1e-9 and 1e7 a second with the KV cache of the
requests in flight; GPU names with a Cyrillic letter and fullwidth digits read as a name four parts share, or with a
Roman numeral; a plan's owned GPUs that have no purchase price; JSON into a closed stdout and a pipe closed early --
through estimate, recommend, audit and plan. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 4a10518a (before this branch's fixes): 35 cases, 27 clean; on this branch 35 of 35.
Fixed:

* serving.yaml ``serial_shared_expert`` from 0.5.9 before 0.5.6 (no release) and ``vendors: [amdd]`` (no GPU) were
  read silently; the window is refused as the other release windows are, the vendor with the close match.
* clouds.yaml ``storage_usd_per_gb_month`` of -0.2 wrote a credit 'fee storage -2.16' on the bill (and
  ``egress_free_gb_per_month`` of -100 billed more egress than was sent); both are at least 0.
* 'А１００' (Cyrillic А, fullwidth digits) was hinted a10 / v100-16gb-sxm2 / h100-80gb-sxm, none an A100, and shown
  raw (no ASCII letter in it to call it a Latin name); 'Ⅼ40S' (a Roman numeral) was shown as written. Hinted with
  the four A100s, and escaped.
* ``etp: 2`` with ``ep`` left to the search on 8 H100s ran ep 8 with ETP 1 (the pin dropped) where ep 4 x etp 2
  holds it; ``ep: 3`` of Qwen3-30B-A3B's 128 experts and ``ep: 16`` of Mixtral's 8 ran 'as requested' (Megatron-Core
  asserts the experts divide by ep); the etp pin is kept where a split holds it, the ep refused.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import _dump, doc_cases

MOE = {"task": "finetune", "method": "full", "model": "qwen3-30b-a3b", "seq_len": 4096, "train_tokens": 2.0e8, "stack": "megatron"}
FULL8 = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
V3 = {"task": "inference", "model": "deepseek-v3", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 8, "framework_version": "0.5.7"}
V3V = {"task": "inference", "model": "deepseek-v3", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 8}
GGUF = {"task": "inference", "model": "llama-3.1-8b", "framework": "llama.cpp", "precision": "int4", "prompt_tokens": 512, "output_tokens": 128, "concurrent_requests": 1}
QWEN = {"task": "inference", "model": "qwen3-32b", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1500, "output_tokens": 350}
LAMBDA = ("providers:\n  - id: lambda\n    name: Lambda\n    kind: gpu-cloud\n    egress_free_gb_per_month: {free}\n    egress_tiers:\n      - {{up_to_tb: null, usd_per_gb: {egress}}}\n"
          "    cross_region_usd_per_gb: 0\n    storage_usd_per_gb_month:\n      premium-ssd: {storage}\n    as_of: 2026-09-20\n    source: ours\n")
H100X8 = ("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json")
MI300X8 = ("estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json")


def _layout(d: dict) -> dict:
    return d["gpu"]["layout"]


def _serial(vendors: str = "[amd]", first: str = "'0.4.6'", before: str = "'0.5.9'") -> dict:
    return {"kb/serving.yaml": f"frameworks:\n  - id: sglang\n    serial_shared_expert:\n      - vendors: {vendors}\n        first: {first}\n        before: {before}\n        source: ours\n"}


def _again(r, *argv: str) -> dict:
    from tests.clirun import gpuwise
    return json.loads(gpuwise(*argv, cwd=r.cwd).stdout)


def _same_as_shipped(r) -> bool:
    """The overlay's window leaves the job's release out: its TPOT is the shipped knowledge's."""
    return _finite_json(r) and json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] == _again(r, *MI300X8)["gpu"]["serving"]["tpot_s"]


def _memory_as(edit: dict[str, Any], same: bool):
    """Memory a GPU against the same question with ``edit`` (read in a second file): the same, or lower."""
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        import yaml
        doc = yaml.safe_load(Path(r.cwd, "r.yaml").read_text(encoding="utf-8"))
        Path(r.cwd, "r2.yaml").write_text(_dump({"workload": {**doc["workload"], **edit}}), encoding="utf-8")
        mine = json.loads(r.stdout)["memory"]["per_gpu_bytes"]
        other = _again(r, "estimate", "r2.yaml", "--gpu", "h100", "--format", "json")["memory"]["per_gpu_bytes"]
        return mine == other if same else mine < other
    return check


def _faster_than_shipped(r) -> bool:
    """llama.cpp on an H200 with no chip cap on its batch-1 read: its weights stream at the HBM share, faster than
    the shipped Hopper cap (0.0314 B a FP32 FLOP/s) lets them."""
    shipped = _again(r, "estimate", "r.yaml", "--gpu", "h200", "--format", "json")["gpu"]["serving"]["tpot_s"]
    return _finite_json(r) and json.loads(r.stdout)["gpu"]["serving"]["tpot_s"] < shipped


def _one_h200(d: dict) -> dict:
    return next(c for c in d["candidates"] if c["count"] == 1 and c["acquisition"] == "rent")


def _one_sequence_memory(r) -> bool:
    """At 1e-9 requests a second one request is in flight: one rented H200 holds what it holds at
    concurrent_requests 1 (Little's law, at least one sequence)."""
    if not _finite_json(r):
        return False
    Path(r.cwd, "r2.yaml").write_text(_dump({"workload": {**QWEN, "concurrent_requests": 1}, "constraints": {"gpus": ["h200"]}}), encoding="utf-8")
    one = _again(r, "recommend", "r2.yaml", "--format", "json")
    return _one_h200(json.loads(r.stdout))["memory_per_gpu_bytes"] == _one_h200(one)["memory_per_gpu_bytes"]


def _held_at_the_bound(r) -> bool:
    """At 1e7 requests a second no count keeps up (exit 1); the sequences in flight are capped at what each copy's
    KV cache holds, so every candidate whose memory fits shows a finite figure within its usable memory."""
    if r.returncode != 1 or not _finite_json(r):
        return False
    fits = [c for c in json.loads(r.stdout)["candidates"] if "MEM-FITS" in [x if isinstance(x, str) else x.get("rule") for x in c["rules"]]]
    return len(fits) > 4 and all(0 < c["memory_per_gpu_bytes"] <= c["usable_per_gpu_bytes"] for c in fits)


def _fee_lines(kinds: list[str]):
    def check(r) -> bool:
        if not _finite_json(r):
            return False
        p = json.loads(r.stdout)["proposed"]
        return [x["kind"] for x in p["ledger"]["lines"]] == kinds and abs(p["total_cost_usd"] - sum(x["amount"] for x in p["ledger"]["lines"])) < 1e-6
    return check


def _proposal(**over: Any) -> dict:
    return {"title": "t", "workload": LORA8, "hardware": {"gpu": "rtx-4090", "count": 9, "nodes": 1, "host_ram_gb": 512},
            "acquisition": {"mode": "rent", "provider": "autodl"}, **over}


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    ex = ns["EX"]

    # ------------------------------------------------------------ parallelism.etp and ep (Megatron-Core MoE)
    rcase("etp39: etp 0: refused by its bound", {"workload": {**MOE, "parallelism": {"etp": 0}}}, _refused("r.yaml", "workload.parallelism.etp", "(got 0)"), argv=H100X8)
    rcase("etp39: etp '2' (text), ep left to the search on 8 H100s: read as 2, ep 4 x etp 2 kept", {"workload": {**MOE, "parallelism": {"etp": "2"}}},
          _doc(lambda d: (_layout(d)["ep"], _layout(d)["etp"], d["gpu"]["fits_as_requested"]) == (4, 2, True)), argv=H100X8)
    rcase("etp39: etp 3 on 8 GPUs (no ep x 3 divides 8): answered, the pin not kept", {"workload": {**MOE, "parallelism": {"etp": 3}}},
          _doc(lambda d: _layout(d)["etp"] != 3 and d["gpu"]["fits_as_requested"] is False), argv=H100X8)
    rcase("etp39: etp 1024 (its bound) on 8 GPUs: answered, finite, not kept", {"workload": {**MOE, "parallelism": {"etp": 1024}}},
          _doc(lambda d: _layout(d)["etp"] != 1024 and d["gpu"]["fits_as_requested"] is False and d["gpu"]["wall_hours"] > 0), argv=H100X8)
    rcase("etp39: ep 3 with etp 2 on 12 GPUs (128 experts): refused, the experts named", {"workload": {**MOE, "parallelism": {"ep": 3, "etp": 2}}},
          _refused("r.yaml", "workload.parallelism.ep", "128 routed experts do not divide by 3"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "12"))
    rcase("etp39: ep 16 on Mixtral's 8 experts, in Chinese: refused in one line", {"workload": {**MOE, "model": "mixtral-8x7b", "parallelism": {"ep": 16}}},
          lambda r: _refused("r.yaml", "workload.parallelism.ep", "路由专家")(r) and "routed" not in r.stderr, argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "16", "--lang", "zh"))
    rcase("etp39: etp on a service: refused as a training setting", {"workload": {**V3V, "parallelism": {"tp": 8, "etp": 2}}},
          _refused("r.yaml", "workload.parallelism.etp", "training setting"), argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8"))
    pcase("etp39: a plan's dense 8B with etp 2: refused by the plan's field", {"horizon_months": 3, "workloads": [{"name": "ft", "workload": {**FULL8, "parallelism": {"etp": 2}}, "cadence": {"at_month": 1}}],
                                                                              "constraints": {"acquisition": "rent", "gpus": ["h100"]}},
          _refused("plan.yaml", "workloads[0].workload.parallelism.etp", "Llama 3.1 8B has none"), argv=("plan", "plan.yaml"))

    # ------------------------------------------------------------ cut_cross_entropy
    est = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
    rcase("cce39: 'yes' (text): read as true, the memory of true", {"workload": {**FULL8, "cut_cross_entropy": "yes"}}, _memory_as({"cut_cross_entropy": True}, True), argv=est)
    rcase("cce39: 1: read as true, less memory than false", {"workload": {**FULL8, "cut_cross_entropy": 1}}, _memory_as({"cut_cross_entropy": False}, False), argv=est)
    rcase("cce39: null: refused by its field", {"workload": {**FULL8, "cut_cross_entropy": None}}, _refused("r.yaml", "workload.cut_cross_entropy", "boolean"), argv=est)
    rcase("cce39: with chunked_cross_entropy too: the cut loss holds nothing, as alone", {"workload": {**FULL8, "cut_cross_entropy": True, "chunked_cross_entropy": True}},
          _memory_as({"chunked_cross_entropy": False}, True), argv=est)
    rcase("cce39: a model given as params_b 8 (vocabulary assumed): less memory than without", {"workload": {**{k: v for k, v in FULL8.items() if k != "model"}, "params_b": 8, "cut_cross_entropy": True}},
          _memory_as({"cut_cross_entropy": False}, False), argv=est)

    # ------------------------------------------------------------ serving.yaml serial_shared_expert (SGLang on ROCm)
    v3kb = (*MI300X8, "--knowledge", "kb")
    for label, edit, field in (("first '0.5.x'", {"first": "'0.5.x'"}, "serial_shared_expert[0].first"), ("before 'latest'", {"before": "latest"}, "serial_shared_expert[0].before")):
        rcase(f"sse39: {label}: refused by its pattern", {"workload": V3}, _refused("kb/serving.yaml", field), argv=v3kb, files=_serial(**edit))
    rcase("sse39: from 0.5.9 before 0.5.6: refused, no release in the window", {"workload": V3}, _refused("kb/serving.yaml", "serial_shared_expert[0]", "before 0.5.6 is not after first 0.5.9"),
          argv=v3kb, files=_serial(first="'0.5.9'", before="'0.5.6'"))
    rcase("sse39: vendors [amdd]: refused, amd offered", {"workload": V3}, _refused("kb/serving.yaml", "serial_shared_expert[0].vendors[0]", "did you mean amd?"), argv=v3kb, files=_serial(vendors="[amdd]"))
    rcase("sse39: 0.5.5.post1 before 0.5.5.post3: read, a 0.5.7 job outside it", {"workload": V3}, _same_as_shipped, argv=v3kb, files=_serial(first="'0.5.5.post1'", before="'0.5.5.post3'"))

    # ------------------------------------------------------------ llama.cpp's chip-bound read on Hopper
    gguf = ("estimate", "r.yaml", "--gpu", "h200", "--format", "json", "--knowledge", "kb")
    rb = "frameworks:\n  - id: llama.cpp\n    architecture_overrides:\n      hopper:\n        read_bytes_per_fp32_flop: {v}\n        source: ours\n"
    rcase("rb39: read_bytes_per_fp32_flop 0: refused by its bound", {"workload": GGUF}, _refused("kb/serving.yaml", "hopper.read_bytes_per_fp32_flop", "(got 0)"), argv=gguf, files={"kb/serving.yaml": rb.format(v=0)})
    rcase("rb39: 1e300 (no cap): faster than the shipped 0.0314", {"workload": GGUF}, _faster_than_shipped, argv=gguf, files={"kb/serving.yaml": rb.format(v="1.0e300")})

    # ------------------------------------------------------------ framework_version against release windows
    for given, words in (("v0.11.1", ("did you mean 0.11.1?",)), ("0.11.1rc2.dev5+gabc", ("not a release number",)), ("nightly", ("leave framework_version out",))):
        rcase(f"fv39: framework_version {given!r}: refused in one line", {"workload": {**V3V, "framework_version": given}}, _refused("r.yaml", "workload.framework_version", *words),
              argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8"))

    # ------------------------------------------------------------ AutoDL's one 8-GPU host, cloud fees
    acase("autodl39: 9 RTX 4090s on one AutoDL node: FEE-NODE-BEYOND-RENTAL, a blocker", _proposal(),
          lambda r: r.returncode == 1 and _doc(lambda d: d["verdict"] == "reject" and "FEE-NODE-BEYOND-RENTAL" in _rules(d))(r))
    case("autodl39: the same as JSON into a pipe closed early: exit 1 kept", {"p.yaml": _dump(_proposal())}, ["PIPE", "audit", "p.yaml", "--format", "json"], expect="any", real=True,
         check=lambda r: r.returncode == 1 and "Traceback" not in r.stderr)
    acase("autodl39: 9 on three nodes: no FEE-NODE-BEYOND-RENTAL", _proposal(hardware={"gpu": "rtx-4090", "count": 9, "nodes": 3, "host_ram_gb": 512}),
          _doc(lambda d: "FEE-NODE-BEYOND-RENTAL" not in _rules(d) and d["proposed"]["nodes"] == 3))
    good = (ex / "proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8").replace("kind: object", "kind: premium-ssd")
    audit_kb = ["audit", "p.yaml", "--format", "json", "--knowledge", "kb"]
    case("fee39: Lambda with every fee at 0: the GPUs alone billed", {"p.yaml": good, "kb/clouds.yaml": LAMBDA.format(free=0, egress=0, storage=0)}, audit_kb, expect="any", check=_fee_lines(["rent", "setup"]))
    case("fee39: storage -0.2 a GB-month: refused, no credit on the bill", {"p.yaml": good, "kb/clouds.yaml": LAMBDA.format(free=0, egress=0, storage=-0.2)}, audit_kb, expect="any",
         check=_refused("kb/clouds.yaml", "storage_usd_per_gb_month.premium-ssd", "(got -0.2)"))
    case("fee39: egress .nan a GB: refused as not finite", {"p.yaml": good, "kb/clouds.yaml": LAMBDA.format(free=0, egress=".nan", storage=0.2)}, audit_kb, expect="any",
         check=_refused("kb/clouds.yaml", "egress_tiers[0].usd_per_gb", "finite"))

    # ------------------------------------------------------------ a request rate's sequences in flight
    rec = ("recommend", "r.yaml", "--format", "json")
    rcase("rate39: 1e-9 requests/s on H200: one sequence in flight, the memory of concurrent_requests 1", {"workload": {**QWEN, "requests_per_s": 1e-9}, "constraints": {"gpus": ["h200"]}}, _one_sequence_memory, argv=rec)
    rcase("rate39: 1e7 requests/s (the bound): unmet, the in-flight KV capped by each copy's pool", {"workload": {**QWEN, "requests_per_s": 1e7}, "constraints": {"gpus": ["h200"]}}, _held_at_the_bound, argv=rec)
    case("rate39: a rate's recommendation as JSON into a closed stdout: one line, exit 2", {"r.yaml": _dump({"workload": {**QWEN, "requests_per_s": 4}, "constraints": {"gpus": ["h200"]}})},
         ["CLOSED", "recommend", "r.yaml", "--format", "json"], expect="bad", real=True, has=("standard output is closed",))

    # ------------------------------------------------------------ look-alike GPU names, owned GPUs without a price
    prop = ns["_y"].safe_load((ex / "proposal-good-lora-8xh100.yaml").read_text(encoding="utf-8"))
    acase("name39: an audit of 'А１００' (Cyrillic, fullwidth digits): escaped, the four A100s offered", {**prop, "hardware": {**prop["hardware"], "gpu": "\u0410\uff11\uff10\uff10"}},
          _refused("p.yaml", "hardware.gpu", "\\u0410\\uff11", "a100-40gb-pcie or a100-40gb-sxm or a100-80gb-pcie or a100-80gb-sxm"))
    rcase("name39: --gpu 'Ⅼ40S' (a Roman numeral fifty): escaped, l40s offered", {"workload": LORA8},
          lambda r: _refused("--gpu", "\\u216c40S", "did you mean l40s")(r) and "\u216c" not in r.stderr, argv=("estimate", "r.yaml", "--gpu", "\u216c40S"))
    pcase("own39: 2 owned L40S (no purchase price), rent or buy: run on both, nothing bought", {"horizon_months": 3, "owned": [{"gpu": "l40s", "count": 2}],
                                                                                               "workloads": [{"name": "ft", "workload": LORA8, "cadence": {"at_month": 1}}], "constraints": {"acquisition": "either", "gpus": ["l40s"]}},
          _doc(lambda d: not d["purchases"] and not d["unplaced"] and [(o["gpu"], o["own_count"]) for o in d["options"]] == [("l40s", 2)] and 0 < d["options"][0]["own_wall_hours"] < d["options"][0]["wall_hours"]))
