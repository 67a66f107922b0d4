# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-one of the hostile corpus: session 33's later merges, used as a user would -- SGLang's
``attention_backend`` (serving.yaml ``triton_decode_walk``) on other engines, misspelt, in a plan and an audit, on AMD,
on a fine-tune, and the walk said in the step's formula; SGLang's overlap scheduler off for a hybrid; torchtitan's
``local_batch`` (runtime.yaml ``training_stacks``) tried without a batch_size, beside a stated one and a pipeline, and
in an overlay; the stack ``xtuner`` with pipeline parallelism pinned, misspelt, on a service, audited and planned;
Megatron-Core's ``pipeline_split_slots`` for a pinned vpp and on a stack without them; SRV-CONTEXT-BEYOND-MODEL; the
job named on the recommendation's title line -- through recommend, estimate, audit, plan, json / text / md /
html, English and Chinese. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review38's branch before its fixes (main at fff82bb6): 37 cases, 33 clean. Fixed (now 37 clean):

* With ``attention_backend: triton`` the TPOT and decode-speed formulas read 'max(KV bytes / (BW x f), ...)' beside
  an attention time priced at the Triton kernel's walkers (9.6 ms for Llama 3.1 8B at 24,576 tokens on an H100,
  where the formula gives 1.2 ms): the formula now names the walkers' rate, 42 GB/s a KV head (2 cases).
* A hybrid on SGLang 0.5.9 showed a step overhead 0.74 ms above the same job's with the prefix cache off and no word
  of it: the formula now says the overlap scheduler's host time (1 case).
* The title's job said 'finetune' alike for a QLoRA and a full fine-tune: the method is now said (1 case).

Seen and left:

* estimate of a pinned pp on a stack without pipelines (xtuner, deepspeed) shows the pin in 'the question as
  understood' and a layout without it, with no word: recommend and audit say MEM-PIN-NOT-ON-STACK; estimate runs no
  rules.
* ``attention_backend`` 'aiter' (ROCm only) on an NVIDIA GPU, or 'trtllm_mla' on AMD, is accepted and priced as the
  release's default backend.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _dump, _text_ok
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round26 import _again, _ledger_adds_up, _plan_adds_up
from benchmarks.hostile_round28 import doc_cases

LONG = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "context_len": 32768, "concurrent_requests": 1}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
HYBRID = {"task": "inference", "model": "qwen3-next-80b-a3b", "framework": "sglang", "prompt_tokens": 4000, "output_tokens": 500, "concurrent_requests": 1}
TITAN = {"task": "pretrain", "model": "llama-3.2-1b", "train_tokens": 1.0e9, "stack": "torchtitan", "zero_stage": 3}
XT = {"task": "finetune", "method": "full", "model": "llama-2-7b", "train_tokens": 1.0e8, "stack": "xtuner"}
PIPE = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1.0e9}
H100X8 = {"gpu": "H100 SXM", "count": 8}
RENT = {"mode": "rent", "provider": "lambda"}


def _plan(w: dict) -> dict:
    return {"horizon_months": 3, "constraints": {"acquisition": "rent"},
            "workloads": [{"name": "chat", "workload": CHAT, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}},
                          {"name": "tune", "workload": w, "cadence": {"per_month": 1}}]}


def _decode(d: dict) -> float:
    return d["gpu"]["decode_tokens_per_s"]


def _layout(d: dict) -> dict:
    return d["gpu"]["training"]["requested_layout"]


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    h100 = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
    h100x8 = ("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json")

    # ------------------------------------------------------------ attention_backend
    rcase("attn31: triton on vLLM: refused, SGLang named", {"workload": {**LONG, "framework": "vllm", "attention_backend": "triton"}}, _refused("r.yaml", "workload.attention_backend", "vllm", "sglang"))
    rcase("attn31: triton on llama.cpp: refused", {"workload": {**LONG, "framework": "llama.cpp", "attention_backend": "triton"}}, _refused("r.yaml", "workload.attention_backend", "llama.cpp"))
    rcase("attn31: triton with no framework (vLLM by default): refused", {"workload": {**{k: v for k, v in LONG.items() if k != "framework"}, "attention_backend": "triton"}}, _refused("r.yaml", "workload.attention_backend"))
    rcase("attn31: 'Triton': offered triton", {"workload": {**LONG, "attention_backend": "Triton"}}, _refused("r.yaml", "did you mean triton?"))
    rcase("attn31: 'flashinfer_mla': offered flashinfer", {"workload": {**LONG, "attention_backend": "flashinfer_mla"}}, _refused("r.yaml", "did you mean flashinfer?"))
    rcase("attn31: a number: refused in one line", {"workload": {**LONG, "attention_backend": 3}}, _refused("r.yaml", "workload.attention_backend"))
    rcase("attn31: on a fine-tune: refused as inference only", {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1.0e7, "attention_backend": "triton"}}, _refused("r.yaml", "attention_backend", "inference"))

    def _slower_than_flashinfer(r) -> bool:
        if not _finite_json(r):
            return False
        Path(r.cwd, "f.yaml").write_text(_dump({"workload": {**LONG, "attention_backend": "flashinfer"}}), encoding="utf-8")
        other = _again(r, "estimate", "f.yaml", "--gpu", "h100", "--format", "json")
        # the walk at 42 GB/s a KV head: 3,221,225,472 B / 336 GB/s = 9.59 ms of attention against ~1.2 ms
        return _finite_json(other) and _decode(json.loads(r.stdout)) < 0.6 * _decode(json.loads(other.stdout))
    rcase("attn31: triton at 32K on an H100: decode well below FlashInfer's (the walkers bind)", {"workload": {**LONG, "attention_backend": "triton"}}, _slower_than_flashinfer, argv=h100)

    def _same_on_mi300x(r) -> bool:
        if not _finite_json(r):
            return False
        Path(r.cwd, "f.yaml").write_text(_dump({"workload": LONG}), encoding="utf-8")
        other = _again(r, "estimate", "f.yaml", "--gpu", "mi300x", "--format", "json")
        return _finite_json(other) and abs(_decode(json.loads(r.stdout)) - _decode(json.loads(other.stdout))) < 1e-9
    rcase("attn31: triton on an MI300X (rate read on NVIDIA only): the default's decode", {"workload": {**LONG, "attention_backend": "triton"}}, _same_on_mi300x, argv=("estimate", "r.yaml", "--gpu", "mi300x", "--format", "json"))
    rcase("attn31: the walk said in the step's formula", {"workload": {**LONG, "attention_backend": "triton"}}, _text_ok("42 GB/s × sequences × KV heads", "triton_decode_walk"), argv=("estimate", "r.yaml", "--gpu", "h100"))
    rcase("attn31: the walk said in Chinese", {"workload": {**LONG, "attention_backend": "triton"}}, _text_ok("序列数", "triton_decode_walk"), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    rcase("attn31: triton with EAGLE drafting: finite", {"workload": {**LONG, "model": "llama-3.1-8b", "attention_backend": "triton", "speculative": {"method": "eagle"}}}, _finite_json, argv=h100)
    rcase("attn31: triton on an MLA model (GLM-4.7-Flash): finite", {"workload": {**LONG, "model": "glm-4.7-flash", "attention_backend": "triton"}}, _finite_json, argv=("estimate", "r.yaml", "--gpu", "h200", "--format", "json"))
    pcase("attn31: a plan's service naming triton on vLLM: the plan's field named", {"horizon_months": 3, "workloads": [{"name": "chat", "workload": {**CHAT, "framework": "vllm", "attention_backend": "triton"}, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}}]},
          _refused("plan.yaml", "workloads[0].workload.attention_backend"), argv=("plan", "plan.yaml"))
    acase("attn31: an audit with 'tritn': offered triton", {"title": "t", "workload": {**CHAT, "framework": "sglang", "attention_backend": "tritn"}, "hardware": {"gpu": "H100 SXM", "count": 1}, "acquisition": RENT},
          _refused("p.yaml", "did you mean triton?"), argv=("audit", "p.yaml"))
    acase("attn31: an audited SGLang service on triton: the ledger adds up", {"title": "t", "workload": {**CHAT, "framework": "sglang", "attention_backend": "triton"}, "hardware": {"gpu": "H100 SXM", "count": 1}, "acquisition": RENT},
          _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"])))

    # ------------------------------------------------------------ the hybrid's overlap-off host time
    for version in ("0.5.9", "0.5.15"):
        rcase(f"hybrid31: Qwen3-Next on SGLang {version}, one sequence: finite", {"workload": {**HYBRID, "framework_version": version}}, _finite_json, argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "2", "--format", "json"))
    rcase("hybrid31: SGLang 0.5.9's overlap-off host time said in the step's formula", {"workload": {**HYBRID, "framework_version": "0.5.9"}}, _text_ok("740 us of host work", "unoverlapped_host_us"), argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "2"))

    # ------------------------------------------------------------ torchtitan's local batch
    rcase("titan31: no batch_size under ZeRO-3: 8 sequences a micro-step", {"workload": TITAN}, _doc(lambda d: _layout(d)["micro_batch"] == 8 and _layout(d)["grad_accum"] == 8), argv=h100x8)
    rcase("titan31: batch_size 2 stated: kept", {"workload": {**TITAN, "batch_size": 2}}, _doc(lambda d: _layout(d)["micro_batch"] == 2), argv=h100x8)
    rcase("titan31: a pipeline pinned: one sequence", {"workload": {**TITAN, "model": "llama-3.1-8b", "zero_stage": "auto", "parallelism": {"pp": 2}}}, _doc(lambda d: _layout(d)["micro_batch"] == 1 and _layout(d)["pp"] == 2), argv=h100x8)
    case("titan31: recommend: the layout names the micro-batch", {"r.yaml": _dump({"workload": TITAN})}, ["recommend", "r.yaml"], expect="any", check=_text_ok("micro-batch 8"))
    rcase("titan31: the assumption in Chinese", {"workload": TITAN}, _text_ok("TorchTitan 自身的每 GPU 批次"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--lang", "zh"))
    rcase("titan31: an overlay's local_batch 0: refused naming the file and field", {"workload": TITAN}, _refused("runtime.yaml", "local_batch"),
          argv=("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb"), files={"kb/runtime.yaml": "training_stacks:\n  torchtitan:\n    local_batch: 0\n"})

    # ------------------------------------------------------------ xtuner
    rcase("xtuner31: pp 2 pinned: set aside, MEM-PIN-NOT-ON-STACK", {"workload": {**XT, "parallelism": {"pp": 2}}}, _doc(lambda d: "MEM-PIN-NOT-ON-STACK" in _rules(d)), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("xtuner31: 'x-tuner': its close match", {"workload": {**XT, "stack": "x-tuner"}}, _refused("r.yaml", "workload.stack", "xtuner"))
    rcase("xtuner31: on a service: refused as a training setting", {"workload": {**CHAT, "stack": "xtuner"}}, _refused("r.yaml", "workload.stack"))
    acase("xtuner31: 8 rented H100s audited: the ledger adds up", {"title": "t", "workload": XT, "hardware": H100X8, "acquisition": RENT},
          _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"])))
    pcase("xtuner31: a plan renting: adds up", _plan(XT), _doc(_plan_adds_up))

    # ------------------------------------------------------------ pinned virtual stages
    rcase("vpp31: Megatron PP2 x VPP17 on 32 layers (+ embedding and loss): kept", {"workload": {**PIPE, "stack": "megatron", "parallelism": {"pp": 2, "vpp": 17}}}, _doc(lambda d: _layout(d)["interleave"] == 17), argv=h100x8)
    rcase("vpp31: the same on torchtitan: refused, vpp 16 offered", {"workload": {**PIPE, "stack": "torchtitan", "parallelism": {"pp": 2, "vpp": 17}}}, _refused("r.yaml", "workload.parallelism.vpp", "vpp 16"), argv=h100x8)
    rcase("vpp31: Megatron PP4 x VPP9: refused, vpp 8 offered, in Chinese", {"workload": {**PIPE, "stack": "megatron", "parallelism": {"pp": 4, "vpp": 9}}}, _refused("r.yaml", "workload.parallelism.vpp", "8"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--lang", "zh"))

    # ------------------------------------------------------------ the model's window and the job on the title's line
    rcase("ctx31: context_len 200,000 on Llama 3.1 8B: the window said", {"workload": {"task": "inference", "model": "llama-3.1-8b", "context_len": 200000, "concurrent_requests": 1}},
          _doc(lambda d: "SRV-CONTEXT-BEYOND-MODEL" in _rules(d)), argv=("recommend", "r.yaml", "--format", "json"))
    case("line31: a QLoRA fine-tune's line names its method", {"r.yaml": _dump({"workload": {"task": "finetune", "method": "qlora", "model": "llama-3.1-8b", "train_tokens": 1.0e7}})},
         ["recommend", "r.yaml"], expect="any", check=_text_ok("GPU recommendation: finetune (qlora), llama-3.1-8b"))
    for fmt in ("md", "html"):
        case(f"line31: a model by size, --format {fmt}, --lang zh", {"r.yaml": _dump({"workload": {"task": "inference", "params_b": 3.2, "precision": "int4"}})},
             ["recommend", "r.yaml", "--format", fmt, "--lang", "zh", "-o", f"o.{fmt}"], expect="any",
             check=lambda r, fmt=fmt: r.returncode in (0, 1) and "GPU 选型建议：inference，3.2B 参数的模型，int4" in Path(r.cwd, f"o.{fmt}").read_text(encoding="utf-8"))

