# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round twenty-five of the hostile corpus: what this session added (``git log f5b1fdeb..b1c0b735``): the
training stacks ``llmc`` and ``nanochat`` and ``litgpt`` held to data parallelism, MEM-FITS-PIN-OFF-STACK
(``fits_as_requested`` false where a pin the stack cannot run is set aside), the GB10 (DGX Spark) entry, which
no price list carries, gpt-oss's FP4 checkpoints keeping attention in BF16, release fields taking the digits 0-9
only with ``transformers_version`` below 2.0 refused, a catalog model named beside an ``architecture``
(assume.shape_given) and FlashAttention-2 on compute capability 10.0 -- over recommend, estimate, audit, plan,
ask with an answers file and the gpus listing, in json, text, markdown and html, English and Chinese: names in
other capitals and close misspellings, pins the stack cannot run alone and together, GB10 proposed, owned and
asked to be rented. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at b1c0b735 (before any change): 119 cases, 101 clean. Fixed, with tests in
tests/test_hostile_twenty_fifth.py (now 119 clean):

* ``zero_stage: 2`` or ``3`` on ``llmc`` was planned at ZeRO-2/3 (8 x B200 at 59.7 GB a GPU, gradients sharded
  that llm.c keeps whole), though llm.c runs -z 2 and -z 3 as stage 0; ``nanochat`` (and ``llmc``) with
  ``offload`` was planned at ZeRO-3 + CPU offload, and nanochat left alone took ZeRO-3 + offload for 70B on 8
  GPUs, though neither has an offload path. runtime.yaml training_stacks gains ``zero_stages`` and ``offload``;
  the planner offers only those and a pin outside them is set aside with MEM-PIN-NOT-ON-STACK (9 cases).
* A GB10 proposal bought at its own ``unit_price_usd`` was rejected (TCO-NO-PURCHASE-PRICE: no price list
  carries the part), and two Sparks without ``nodes`` were judged as one node over PCIe; now costed (the whole
  one-GPU system, host included) and two nodes, and ``nodes: 1`` for two is refused naming hardware.nodes (3).
* ``transformers_version: 1.9`` unquoted was told 'write the version in quotes', which the 2.0 floor then
  refuses (as round 24 found for -4.5); llama.cpp's ``framework_version: 0.6`` alike (4 cases).
* ``precision: 'MXFP4'`` / ``'NVFP4'`` had no close match where 'mxfp4' had 'did you mean fp4?' (2 cases).

Seen and left (not this table's promise, or another helper's area):

* Two Sparks on two nodes are joined by the assumed ``ethernet-25`` (NET-SLOW-NETWORK), not the ConnectX-7
  link gpus.yaml gives them (roce, 50 GB/s); their power is the 140 W SoC plus ``host_power_w_per_gpu``
  (1.1 kW of heat for two, where a Spark draws at most 240 W), and they are priced as hosted in colocation.
* ``hardware.nodes`` for parts without ``server_gpus`` keeps its default 1: 16 x H100 on one node is audited
  without a word. A plan's ``owned`` two GB10 in ``servers: 1`` is accepted.
* ``litgpt``'s ZeRO stage is free (auto picks ZeRO-1), though its Fabric FSDPStrategy shards as HYBRID_SHARD.
* A catalog model beside an ``architecture`` without ``vocab_size`` / ``kv_heads`` takes the architecture's
  defaults (32,000; every head), not the catalog's; assume.shape_given says the given shape replaced it.
* ``offload: 'auto'`` is refused although the assumptions list writes ``workload.offload = auto``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _ok, _one, _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _dump, _edit, _either, _text_ok

PRE = {"workload": {"task": "pretrain", "model": "llama-3.1-8b", "precision": "bf16", "batch_size": 4, "seq_len": 2048,
                    "train_tokens": 1.0e10, "stack": "llmc"},
       "constraints": {"max_gpus": 8, "deadline_days": 30, "acquisition": "rent", "project_months": 1}}
BIG = {"workload": {"task": "pretrain", "model": "llama-3.1-70b", "precision": "bf16", "train_tokens": 1.0e9, "stack": "nanochat"},
       "constraints": {"max_gpus": 8, "acquisition": "rent", "project_months": 1}}
MOE = {"workload": {"task": "finetune", "method": "full", "model": "qwen3-30b-a3b", "precision": "bf16", "train_tokens": 1.0e8,
                    "stack": "deepspeed", "zero_stage": 3},
       "constraints": {"max_gpus": 16, "deadline_days": 14, "acquisition": "rent", "project_months": 1}}
OSS = {"workload": {"task": "inference", "model": "gpt-oss-120b", "precision": "fp4", "prompt_tokens": 1000, "output_tokens": 200}}
SPARK = {"title": "spark", "workload": OSS["workload"], "hardware": {"gpu": "DGX Spark", "count": 1},
         "acquisition": {"mode": "buy", "unit_price_usd": 3999}}
PLAN25 = {"horizon_months": 3,
          "owned": [{"gpu": "DGX Spark", "count": 1, "servers": 1, "hosting": "office", "bought": "2025-11", "paid_usd": 3999}],
          "workloads": [{"name": "chat", "workload": OSS["workload"], "cadence": {"continuous": True, "hours_per_day": 8},
                         "targets": {"requests_per_s": 0.2}}]}


def _doc(pred):
    """A finite JSON answer whose document satisfies ``pred``."""
    def check(r) -> bool:
        return _finite_json(r) and bool(pred(json.loads(r.stdout)))
    return check


def _rules(d: dict) -> list[str]:
    return [f.get("rule") for f in d.get("findings", [])]


def _feasible(d: dict) -> list[dict]:
    return [c for c in d.get("candidates", []) if c.get("feasible")]


def _strategies(d: dict) -> str:
    return " | ".join(str(c.get("strategy")) for c in _feasible(d))


def _off_stack(rule_word: str = ""):
    """MEM-PIN-NOT-ON-STACK said (naming ``rule_word``), and no feasible candidate judged as requested."""
    def pred(d: dict) -> bool:
        said = [f for f in d.get("findings", []) if f.get("rule") == "MEM-PIN-NOT-ON-STACK"]
        fits = _feasible(d)
        return bool(said) and rule_word in json.dumps(said) and bool(fits) and all(
            "MEM-FITS" not in c.get("rules", []) for c in fits)
    return _doc(pred)


def _no_zero_above(stage: int):
    """No feasible layout shards more than ZeRO-``stage`` (llm.c runs ZeRO 0 or 1: -z 2 and 3 fall back to 0)."""
    def pred(d: dict) -> bool:
        s = _strategies(d)
        return bool(_feasible(d)) and not any(f"ZeRO-{z}" in s for z in range(stage + 1, 4))
    return _doc(pred)


def _no_offload(d: dict) -> bool:
    """No feasible layout offloads (none feasible is an answer: llm.c and nanochat cannot offload)."""
    return "offload" not in _strategies(d).lower()


def _weights_gb(lo: float, hi: float):
    def pred(d: dict) -> bool:
        w = d["memory"]["breakdown"]["weights"] / 1e9
        return lo <= w <= hi
    return _doc(pred)


def _nodes(n: int):
    return _doc(lambda d: d.get("proposal", d).get("nodes", (d.get("gpu") or {}).get("nodes")) == n
                or f'"nodes": {n}' in json.dumps(d))


def add(case, ns: dict[str, Any]) -> None:
    rec = ["recommend", "r.yaml", "--format", "json"]
    est = ["estimate", "r.yaml", "--gpu", "h100-80gb-sxm", "--gpus", "8"]

    def rcase(name, base, path, value, check, argv=rec):
        case(name, {"r.yaml": _dump(_edit(base, path, value))}, argv, expect="any", check=check)

    # ------------------------------------------------------------ the stacks' names
    for name, value, check in [
        ("stk25: stack 'LLMC'", "LLMC", _refused("r.yaml", "workload.stack", "did you mean llmc?")),
        ("stk25: stack 'llm.c'", "llm.c", _refused("r.yaml", "workload.stack", "did you mean llmc?")),
        ("stk25: stack 'NanoChat'", "NanoChat", _refused("r.yaml", "workload.stack", "did you mean nanochat?")),
        ("stk25: stack 'lit-gpt'", "lit-gpt", _refused("r.yaml", "workload.stack", "did you mean litgpt?")),
        ("stk25: stack 'karpathy/nanochat'", "karpathy/nanochat", _refused("r.yaml", "workload.stack", "nanochat")),
        ("stk25: stack 'llmc ' (trailing space)", "llmc ", _either(_refused("r.yaml", "workload.stack", "llmc"), _finite_json)),
    ]:
        rcase(name, PRE, "workload.stack", value, check)

    # ------------------------------------------------------------ pins the data-parallel stacks cannot run
    for name, wl, check in [
        ("pin25: llmc tp 2 (set aside, not as requested)", {"parallelism": {"tp": 2}}, _off_stack("tp 2")),
        ("pin25: llmc tp 2 + zero_stage 3: no ZeRO-3 on llm.c", {"parallelism": {"tp": 2}, "zero_stage": 3}, _no_zero_above(1)),
        ("pin25: llmc zero_stage 3: no ZeRO-3 on llm.c", {"zero_stage": 3}, _no_zero_above(1)),
        ("pin25: llmc zero_stage 2: no ZeRO-2 on llm.c", {"zero_stage": 2}, _no_zero_above(1)),
        ("pin25: llmc zero_stage 3 said", {"zero_stage": 3}, _doc(lambda d: "zero_stage" in json.dumps([f for f in d["findings"] if f.get("severity") in ("warning", "blocker")]))),
        ("pin25: llmc zero_stage 1 kept as requested", {"zero_stage": 1}, _doc(lambda d: "ZeRO-1" in _strategies(d) and "MEM-PIN-NOT-ON-STACK" not in _rules(d))),
        ("pin25: llmc zero_stage 'auto'", {"zero_stage": "auto"}, _no_zero_above(1)),
        ("pin25: llmc pp 2 cp 2", {"parallelism": {"pp": 2, "cp": 2}}, _off_stack("pp 2")),
        # ep above 1 on a dense model is an input error since session 39 (tests/test_inputs54.py)
        ("pin25: llmc pp 2 cp 2 ep 2 (ep on a dense model)", {"parallelism": {"pp": 2, "cp": 2, "ep": 2}}, _refused("r.yaml", "workload.parallelism.ep")),
        ("pin25: llmc vpp 2 (no pipeline to interleave)", {"parallelism": {"vpp": 2}}, _either(_refused("r.yaml"), _finite_json)),
        ("pin25: llmc dp_shard 8", {"parallelism": {"dp_shard": 8}, "zero_stage": 1}, _either(_refused("r.yaml", "dp_shard"), _finite_json)),
        ("pin25: llmc tp 1 (nothing to set aside)", {"parallelism": {"tp": 1}}, _doc(lambda d: "MEM-PIN-NOT-ON-STACK" not in _rules(d))),
        ("pin25: litgpt pp 2", {"stack": "litgpt", "parallelism": {"pp": 2}}, _off_stack("pp 2")),
        ("pin25: nanochat cp 2", {"stack": "nanochat", "parallelism": {"cp": 2}}, _off_stack("cp 2")),
        ("pin25: nanochat tp 8 on 8 GPUs", {"stack": "nanochat", "parallelism": {"tp": 8}}, _off_stack("tp 8")),
        ("pin25: litgpt tp '2' (quoted)", {"stack": "litgpt", "parallelism": {"tp": "2"}}, _either(_refused("r.yaml", "tp"), _off_stack("tp 2"))),
        ("pin25: llmc tp 0", {"parallelism": {"tp": 0}}, _refused("r.yaml", "tp")),
    ]:
        rcase(name, PRE, "workload", {**PRE["workload"], **wl}, check)
    for name, wl, check in [
        ("off25: nanochat offload cpu: no offload in nanochat", {"offload": "cpu"}, _doc(_no_offload)),
        ("off25: llmc offload nvme: no offload in llm.c", {"stack": "llmc", "offload": "nvme"}, _doc(_no_offload)),
        ("off25: nanochat offload cpu said", {"offload": "cpu"}, _doc(lambda d: "offload" in json.dumps([f for f in d["findings"] if f.get("severity") in ("warning", "blocker")]))),
        ("off25: nanochat offload 'auto' (offload left out since 3819a0af): none planned", {"offload": "auto"}, _doc(_no_offload)),
        ("off25: nanochat offload 'CPU'", {"offload": "CPU"}, _refused("r.yaml", "offload", "did you mean cpu?")),
        ("off25: nanochat, nothing pinned: no offload planned", {}, _doc(_no_offload)),
        ("off25: litgpt offload cpu", {"stack": "litgpt", "offload": "cpu"}, _finite_json),
    ]:
        rcase(name, BIG, "workload", {**BIG["workload"], **wl}, check)
    rcase("pin25: litgpt MoE ep 8", MOE, "workload", {**MOE["workload"], "stack": "litgpt", "zero_stage": "auto", "parallelism": {"ep": 8}}, _off_stack("ep 8"))
    rcase("pin25: llmc tp 2, text says not as requested", PRE, "workload.parallelism", {"tp": 2}, _text_ok("not as requested:", "MEM-PIN-NOT-ON-STACK"), argv=["recommend", "r.yaml"])
    rcase("pin25: llmc tp 2, --lang zh text", PRE, "workload.parallelism", {"tp": 2}, _text_ok("MEM-PIN-NOT-ON-STACK"), argv=["recommend", "r.yaml", "--lang", "zh"])
    rcase("pin25: llmc tp 2, md", PRE, "workload.parallelism", {"tp": 2}, _text_ok("MEM-PIN-NOT-ON-STACK"), argv=["recommend", "r.yaml", "--format", "md"])
    rcase("pin25: nanochat pp 2, html", PRE, "workload", {**PRE["workload"], "stack": "nanochat", "parallelism": {"pp": 2}}, _text_ok("MEM-PIN-NOT-ON-STACK"), argv=["recommend", "r.yaml", "--format", "html"])
    rcase("pin25: llmc tp 2, estimate text", PRE, "workload.parallelism", {"tp": 2}, _text_ok(), argv=est)
    rcase("pin25: llmc tp 2 zero 3, estimate --lang zh", PRE, "workload", {**PRE["workload"], "zero_stage": 3, "parallelism": {"tp": 2}}, _text_ok(), argv=[*est, "--lang", "zh"])

    # ------------------------------------------------------------ GB10 by its names, listed, estimated
    for name, gpu, check in [
        ("gb25: --gpu GB10", "GB10", _text_ok("GB10")),
        ("gb25: --gpu 'DGX Spark'", "DGX Spark", _text_ok("GB10")),
        ("gb25: --gpu 'gb1O' (letter O)", "gb1O", _refused("--gpu", "did you mean gb10?")),
        ("gb25: --gpu 'spark'", "spark", _refused("--gpu", "gb10")),
        ("gb25: --gpu 'DGX Spark 256GB'", "DGX Spark 256GB", _refused("--gpu")),
    ]:
        case(name, {"r.yaml": _dump(OSS)}, ["estimate", "r.yaml", "--gpu", gpu], expect="any", check=check)
    case("gb25: gpus json lists gb10 without a price", {}, ["gpus", "--format", "json"], expect="any",
         check=_doc(lambda d: any(g["id"] == "gb10" and g["memory"]["gb"] == 128.0 for g in d["gpus"])))
    case("gb25: gpus text, --lang zh", {}, ["gpus", "--lang", "zh"], expect="any", check=_text_ok("gb10", "LPDDR5x"))
    # gpt-oss-120b's checkpoint: 114.67e9 expert weights x 4.25 bits + 2.11e9 BF16 = 65.15 GB (serving.yaml fp4_checkpoints)
    case("oss25: gpt-oss-120b fp4 on gb10 json weights 65.2 GB", {"r.yaml": _dump(OSS)}, ["estimate", "r.yaml", "--gpu", "gb10", "--format", "json"], expect="any", check=_weights_gb(64.9, 65.5))
    case("oss25: gpt-oss-120b bf16 on gb10 does not fit", {"r.yaml": _dump(_edit(OSS, "workload.precision", "bf16"))}, ["estimate", "r.yaml", "--gpu", "gb10"], expect="any", check=_text_ok("234"))
    case("oss25: gpt-oss-20b fp4 weights 13.7 GB", {"r.yaml": _dump(_edit(OSS, "workload.model", "GPT-OSS-20B"))}, ["estimate", "r.yaml", "--gpu", "gb10", "--format", "json"], expect="any", check=_either(_weights_gb(13.5, 14.0), _refused("r.yaml", "model")))
    case("oss25: quantization mxfp4 implies fp4", {"r.yaml": _dump(_edit(OSS, "workload", {**{k: v for k, v in OSS["workload"].items() if k != "precision"}, "quantization": "mxfp4"}))}, ["estimate", "r.yaml", "--gpu", "h100", "--format", "json"], expect="any", check=_weights_gb(64.9, 65.5))
    for name, value, check in [
        ("oss25: precision 'MXFP4'", "MXFP4", _refused("r.yaml", "precision", "did you mean fp4?")),
        ("oss25: precision 'NVFP4'", "NVFP4", _refused("r.yaml", "precision", "did you mean fp4?")),
        ("oss25: precision 'FP4'", "FP4", _refused("r.yaml", "precision", "did you mean fp4?")),
    ]:
        case(name, {"r.yaml": _dump(_edit(OSS, "workload.precision", value))}, ["estimate", "r.yaml", "--gpu", "gb10"], expect="any", check=check)
    case("oss25: quantization 'MXFP4'", {"r.yaml": _dump(_edit(OSS, "workload.quantization", "MXFP4"))}, ["estimate", "r.yaml", "--gpu", "gb10"], expect="any", check=_refused("r.yaml", "quantization", "mxfp4"))
    case("oss25: gb10 --gpus 2: two Sparks, two nodes", {"r.yaml": _dump(OSS)}, ["estimate", "r.yaml", "--gpu", "gb10", "--gpus", "2", "--format", "json"], expect="any", check=_doc(lambda d: d["gpu"]["nodes"] == 2))
    case("oss25: gb10 estimate --lang zh", {"r.yaml": _dump(OSS)}, ["estimate", "r.yaml", "--gpu", "gb10", "--lang", "zh"], expect="any", check=_text_ok())
    case("oss25: gb10 LoRA fine-tune estimate", {"r.yaml": _dump({"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1.0e7}})}, ["estimate", "r.yaml", "--gpu", "gb10"], expect="any", check=_text_ok())

    # ------------------------------------------------------------ GB10 as a candidate: recommend
    def gcase(name, gpus, acq, check, wl=OSS["workload"], argv=rec):
        doc = {"workload": wl, "constraints": {"gpus": gpus, "acquisition": acq, "max_gpus": 4}}
        case(name, {"r.yaml": _dump(doc)}, list(argv), expect="any", check=check)

    def _no_gb10_answer(d: dict) -> bool:
        r = d.get("recommendation")
        return r is None or r.get("gpu") != "gb10"

    gcase("rent25: gpus [gb10], rent: nothing rents it", ["gb10"], "rent", lambda r: r.returncode == 1 and _doc(_no_gb10_answer)(r))
    gcase("rent25: gpus ['DGX Spark', rtx-4090], rent", ["DGX Spark", "rtx-4090"], "rent", _doc(_no_gb10_answer))
    # session 32: the GB10 is priced (NVIDIA's DGX Spark list price, $4,699 of 2026-02-23): bought, where it was unpriced
    gcase("rent25: gpus [GB10], buy: bought at the list price", ["GB10"], "buy", _doc(lambda d: d["recommendation"] is not None and d["recommendation"]["gpu"] == "gb10" and d["recommendation"]["acquisition"] == "buy"))
    gcase("rent25: gpus [gb10], rent, text --lang zh", ["gb10"], "rent", lambda r: r.returncode == 1 and _text_ok()(r), argv=["recommend", "r.yaml", "--lang", "zh"])
    gcase("rent25: gpus [gb10], rent, md", ["gb10"], "rent", lambda r: r.returncode == 1 and _text_ok()(r), argv=["recommend", "r.yaml", "--format", "md"])
    gcase("rent25: gpus ['gb 10'] misspelt", ["gb 10"], "rent", _either(_refused("r.yaml", "gpus"), _doc(_no_gb10_answer)))

    # ------------------------------------------------------------ GB10 proposed: audit
    def acase(name, edits, check, argv=("audit", "p.yaml", "--format", "json")):
        doc = SPARK
        for path, value in edits:
            doc = _edit(doc, path, value)
        case(name, {"p.yaml": _dump(doc)}, list(argv), expect="any", check=check)

    acase("aud25: one Spark bought at $3,999", [], _doc(lambda d: d["verdict"] != "reject"))
    acase("aud25: two Sparks, nodes not given: two nodes", [("hardware.count", 2)], _nodes(2))
    acase("aud25: two Sparks, nodes not given: no PCIe between them", [("hardware.count", 2)], _doc(lambda d: "NET-TP-OVER-PCIE" not in _rules(d) and "NET-NO-P2P" not in _rules(d)))
    acase("aud25: two Sparks on one node", [("hardware.count", 2), ("hardware.nodes", 1)], _either(_refused("p.yaml", "hardware.nodes"), _doc(lambda d: d["verdict"] == "reject")))
    acase("aud25: two Sparks on two nodes", [("hardware.count", 2), ("hardware.nodes", 2)], _finite_json)
    acase("aud25: Spark rented at $1/h", [("acquisition", {"mode": "rent", "hourly_usd": 1.0})], _finite_json)
    acase("aud25: Spark rented, no price", [("acquisition", {"mode": "rent", "provider": "lambda"})], lambda r: r.returncode == 1 and _doc(lambda d: "TCO-NO-RENTAL" in _rules(d))(r))
    acase("aud25: Spark bought, no price given: the list price", [("acquisition", {"mode": "buy"})], _doc(lambda d: "TCO-NO-PURCHASE-PRICE" not in _rules(d) and d["proposed"]["gpu"] == "gb10"))
    acase("aud25: Spark, text --lang zh", [], _text_ok("GB10"), argv=("audit", "p.yaml", "--lang", "zh"))
    acase("aud25: Spark, html", [], _text_ok("GB10"), argv=("audit", "p.yaml", "--format", "html"))
    acase("aud25: Spark, md", [], _text_ok("GB10"), argv=("audit", "p.yaml", "--format", "md"))
    acase("aud25: Spark, gpu 'DGX  Spark' (two spaces)", [("hardware.gpu", "DGX  Spark")], _either(_refused("p.yaml", "hardware.gpu"), _finite_json))
    acase("aud25: Spark fine-tuning on nanochat with offload", [("workload", {"task": "pretrain", "params_b": 0.56, "train_tokens": 1.1e10, "stack": "nanochat", "offload": "cpu"})], _doc(_no_offload))

    # ------------------------------------------------------------ GB10 owned: plan
    def pcase(name, path, value, check, argv=("plan", "plan.yaml", "--format", "json")):
        case(name, {"plan.yaml": _dump(_edit(PLAN25, path, value))}, list(argv), expect="any", check=check)

    pcase("plan25: one owned Spark carries a chat", "horizon_months", 3, _finite_json)
    pcase("plan25: owned 'gb10' in capitals 'GB10'", "owned.0.gpu", "GB10", _finite_json)
    pcase("plan25: owned 'dgx sprak' misspelt", "owned.0.gpu", "dgx sprak", _refused("plan.yaml", "owned[0].gpu"))
    pcase("plan25: two Sparks in one server", "owned.0", {**PLAN25["owned"][0], "count": 2, "servers": 1}, _either(_refused("plan.yaml", "owned[0]"), _finite_json))
    pcase("plan25: Spark plan --lang zh", "horizon_months", 3, lambda r: _ok(r) and _one(r), argv=("plan", "plan.yaml", "--lang", "zh"))
    pcase("plan25: Spark owns a llmc pretrain with tp 2", "workloads.0", {"name": "pre", "workload": {**PRE["workload"], "model": "llama-3.2-1b", "train_tokens": 1.0e9, "parallelism": {"tp": 2}}, "cadence": {"per_month": 1}, "deadline_days": 14}, _finite_json)

    # ------------------------------------------------------------ release fields
    tv = "workload.transformers_version"
    for name, value, check in [
        ("rel25: transformers_version 1.9 (a YAML number below 2.0: not asked in quotes)", 1.9, _refused("r.yaml", "transformers_version", "no release of transformers")),
        ("rel25: transformers_version 1.5 (a YAML number below 2.0)", 1.5, lambda r: _refused("r.yaml", "transformers_version")(r) and "in quotes" not in r.stderr),
        ("rel25: transformers_version '1.9'", "1.9", _refused("r.yaml", "transformers_version", "first was 2.0")),
        ("rel25: transformers_version '1.99.9'", "1.99.9", _refused("r.yaml", "transformers_version", "first was 2.0")),
        ("rel25: transformers_version '2.0'", "2.0", _finite_json),
        ("rel25: transformers_version 4.50 (YAML 4.5)", 4.50, _refused("r.yaml", "transformers_version", "in quotes")),
        ("rel25: transformers_version '4.5²' (superscript)", "4.5²", _refused("r.yaml", "transformers_version", "release number")),
        ("rel25: transformers_version '4.๕' (Thai)", "4.๕", _refused("r.yaml", "transformers_version", "release number")),
        ("rel25: transformers_version '٤.٥٢' (Arabic-Indic)", "٤.٥٢", _refused("r.yaml", "transformers_version", "release number")),
        ("rel25: transformers_version '４.５２' (fullwidth)", "４.５２", _refused("r.yaml", "transformers_version", "did you mean 4.52?")),
        ("rel25: transformers_version '4.52\u200b' (zero-width space)", "4.52\u200b", _refused("r.yaml", "transformers_version")),
    ]:
        rcase(name, MOE, tv, value, check)
    rcase("rel25: stack_version '０.１６.７' (fullwidth)", MOE, "workload.stack_version", "０.１６.７", _refused("r.yaml", "stack_version", "0.16.7"))
    rcase("rel25: transformers_version '1.9', --lang zh", MOE, tv, "1.9", _refused("r.yaml", "transformers_version"), argv=[*rec, "--lang", "zh"])
    rcase("rel25: transformers_version 1.9 unquoted, --lang zh", MOE, tv, 1.9, lambda r: _refused("r.yaml", "transformers_version")(r) and '"1.9"' not in r.stderr, argv=[*rec, "--lang", "zh"])
    case("rel25: framework_version '٠.١٠.٠' on vllm", {"r.yaml": _dump(_edit(OSS, "workload.framework_version", "٠.١٠.٠"))}, ["recommend", "r.yaml"], expect="any", check=_refused("r.yaml", "framework_version"))
    case("rel25: audit transformers_version 1.9", {"p.yaml": _dump({**SPARK, "workload": {**MOE["workload"], "transformers_version": 1.9}})}, ["audit", "p.yaml"], expect="any", check=lambda r: _refused("p.yaml", "transformers_version")(r) and "in quotes" not in r.stderr)
    case("rel25: plan transformers_version '1.9'", {"plan.yaml": _dump({"horizon_months": 3, "workloads": [{"name": "moe", "workload": {**MOE["workload"], "transformers_version": "1.9"}, "cadence": {"per_month": 1}, "deadline_days": 14}]})}, ["plan", "plan.yaml"], expect="any", check=_refused("plan.yaml", "transformers_version"))

    # ------------------------------------------------------------ a catalog model beside an architecture
    arch = {"layers": 40, "hidden_size": 4096, "heads": 32, "kv_heads": 8, "vocab_size": 128256}
    sg = {"workload": {**PRE["workload"], "stack": "megatron", "architecture": arch}, "constraints": PRE["constraints"]}
    rcase("arch25: model + architecture: shape_given said", sg, "workload.model", "llama-3.1-8b", _doc(lambda d: any(a.get("message_id") == "assume.shape_given" for a in d["assumptions"])))
    rcase("arch25: 'LLAMA-3.1-8B' + architecture", sg, "workload.model", "LLAMA-3.1-8B", _either(_refused("r.yaml", "model"), _doc(lambda d: any(a.get("message_id") == "assume.shape_given" for a in d["assumptions"]))))
    rcase("arch25: model + architecture, estimate text", sg, "workload.model", "llama-3.1-8b", _text_ok("llama-3.1-8b"), argv=est)
    rcase("arch25: model + architecture, estimate --lang zh", sg, "workload.model", "llama-3.1-8b", _text_ok(), argv=[*est, "--lang", "zh"])
    rcase("arch25: misspelt model 'llama-3.1-8` + architecture", sg, "workload.model", "lama-3.1-8b", _refused("r.yaml", "model", "llama-3.1-8b"))
    rcase("arch25: MoE catalog model + dense architecture", sg, "workload.model", "qwen3-30b-a3b", _finite_json)
    rcase("arch25: model + params_b + architecture", sg, "workload", {**sg["workload"], "params_b": 8.0}, _either(_refused("r.yaml"), _finite_json))
    rcase("arch25: model + architecture heads not dividing hidden", sg, "workload.architecture", {**arch, "heads": 30}, _either(_refused("r.yaml", "architecture"), _finite_json))
    case("arch25: audit model + architecture, text", {"p.yaml": _dump({**SPARK, "workload": sg["workload"]})}, ["audit", "p.yaml"], expect="any", check=_text_ok())
    case("arch25: plan model + architecture", {"plan.yaml": _dump({"horizon_months": 3, "workloads": [{"name": "p", "workload": {**sg["workload"], "train_tokens": 1.0e9}, "cadence": {"per_month": 1}, "deadline_days": 14}]})}, ["plan", "plan.yaml", "--format", "json"], expect="any", check=_finite_json)

    # ------------------------------------------------------------ FlashAttention-2 on compute capability 10.0
    fa = {"workload": {**PRE["workload"], "stack": "torchtitan", "attention": "flash"}}
    for name, gpu in [("b200", "b200"), ("b300 (10.3)", "b300"), ("rtx-5090 (12.0)", "rtx-5090"), ("gb10 (12.1)", "gb10")]:
        case(f"fa25: attention flash on {name}", {"r.yaml": _dump(fa)}, ["estimate", "r.yaml", "--gpu", gpu, "--gpus", "1", "--format", "json"], expect="any", check=_finite_json)
    for name, value, check in [
        ("fa25: attention 'FLASH'", "FLASH", _refused("r.yaml", "attention", "did you mean flash?")),
        ("fa25: attention 'flash-attn'", "flash-attn", _refused("r.yaml", "attention", "flash")),
        ("fa25: attention 'flash_attention_2'", "flash_attention_2", _refused("r.yaml", "attention", "flash")),
    ]:
        rcase(name, fa, "workload.attention", value, check, argv=["estimate", "r.yaml", "--gpu", "b200"])
    rcase("fa25: flash on b200, text --lang zh", fa, "workload.attention", "flash", _text_ok(), argv=["estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", "--lang", "zh"])

    # ------------------------------------------------------------ ask with an answers file (no terminal)
    for name, wl, words in [
        ("ask25: answers stack 'LLMC'", {**PRE["workload"], "stack": "LLMC"}, ("stack", "llmc")),
        ("ask25: answers transformers_version 1.9", {**MOE["workload"], "transformers_version": 1.9}, ("transformers_version",)),
    ]:
        text = _dump({"workload": wl})
        case(name, {"a.yaml": text}, ["ask", "--answers", "a.yaml", "-o", "o.md"], expect="any", check=_refused("a.yaml"))
        case(name.replace("ask25: answers", "ask25: recommend of answers"), {"a.yaml": text}, ["recommend", "a.yaml"], expect="any", check=_refused("a.yaml", *words))
    case("ask25: answers llmc tp 2, recommend -o", {"a.yaml": _dump({"workload": {**PRE["workload"], "parallelism": {"tp": 2}}})}, ["recommend", "a.yaml", "-o", "o.md", "--format", "md"], expect="any", check=lambda r: _ok(r) and "MEM-PIN-NOT-ON-STACK" in Path(r.cwd, "o.md").read_text(encoding="utf-8"))
