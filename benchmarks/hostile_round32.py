# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-two of the hostile corpus: session 33's features used once more as a user would, with review38's
leftovers -- an attention backend of the other maker (AMD's aiter on an NVIDIA GPU, TensorRT-LLM's kernels on an
AMD one), a pipeline pinned on a stack without a pipeline engine in ``estimate``, torchtitan's micro-batch on the
estimate's screen, the rules that refuse an estimate's configuration (optimum-habana off Gaudi, TensorRT-LLM on AMD),
the ``engine`` field of an overlay's training stack, Gemma 4's global layers, GLM-4.7-Flash, DGX Sparks per system
and in a ring, the no-answer blocker of the closest count, ``recurrent_state_dtype`` and SRV-CONTEXT-BEYOND-MODEL --
through recommend, estimate, audit, plan, json / text / md, English and Chinese. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review39's branch before its fixes (main at 97325d73): 36 cases, 22 clean. Fixed (now 36 clean):

* ``attention_backend: aiter`` on an H100 (and ``trtllm_mla`` / ``flashinfer`` on an MI300X) was priced as the
  release's default backend: CMP-ATTENTION-BACKEND-GPU now rejects it (a recommendation answers on AMD, an audit is
  blocked), the estimate's ``serving.supports.gpu`` is false and its screen says why (7 cases).
* estimate of a pinned pp on xtuner / deepspeed said nothing of the pin it set aside: a ``memory.notes`` entry now
  (2 cases).
* estimate's screen named 'ZeRO-3' where torchtitan's local batch of 8 was taken: a layout line now shows the
  micro-batch (2 cases).
* estimate priced optimum-habana on an H100 and TensorRT-LLM on an MI300X with no word of the rules refusing them:
  ``gpu.rejected_by`` and a 'Refused by the rules' row (2 cases).
* an overlay's misspelt ``engine: deepspd`` had no close match (1 case).
* an audit's verdict read '4 ms per output token instead of 4' for 4.4 against 3.6 ms (seen on this branch once
  the aiter proposal was refused; its case is clean on main, whose alternative differed).

Seen and left:

* estimate runs no job rules, so SRV-CONTEXT-BEYOND-MODEL (a warning of a recommendation) is not said by an estimate
  of Gemma 4 31B with a 300,000-token prompt; the job rules judge the whole set of candidates (a server's worth, the
  host RAM of the closest), which one estimate does not hold.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _dump, _text_ok
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round26 import _ledger_adds_up, _plan_adds_up
from benchmarks.hostile_round28 import doc_cases

LONG = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "context_len": 32768, "concurrent_requests": 1}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
TRT = {"task": "inference", "model": "llama-3.1-8b", "framework": "tensorrt-llm", "context_len": 4096, "concurrent_requests": 1}
XT = {"task": "finetune", "method": "full", "model": "llama-2-7b", "train_tokens": 1.0e8, "stack": "xtuner"}
TITAN = {"task": "pretrain", "model": "llama-3.2-1b", "train_tokens": 1.0e9, "stack": "torchtitan", "zero_stage": 3}
HABANA = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1.0e7, "stack": "optimum-habana"}
HYBRID = {"task": "inference", "model": "qwen3-next-80b-a3b", "framework": "sglang", "prompt_tokens": 4000, "output_tokens": 500, "concurrent_requests": 8}
RENT = {"mode": "rent", "provider": "lambda"}
BUY = {"mode": "buy"}


def _flat_ok(*words: str):
    """:func:`_text_ok` with the report's wrapping undone: each of ``words`` in the text with runs of spaces and line
    breaks read as one space (a table cell wraps at the terminal's width)."""
    def check(r) -> bool:
        flat = " ".join(r.stdout.split())
        return _text_ok()(r) and all(w in flat for w in words)
    return check


def _gpu(d: dict) -> dict:
    return d["gpu"]


def _rejected(d: dict) -> list[str]:
    return [x["rule"] for x in d["gpu"].get("rejected_by", [])]


def _supports(d: dict) -> dict:
    return d["gpu"]["serving"]["supports"]


def _note_ids(d: dict) -> list[str]:
    return [p[1] for parts in d["memory"].get("notes_phrases", []) for p in parts]


def _kv_by_hand(d: dict) -> bool:
    """The KV cache term's value is its own inputs multiplied out: layers x K and V elements a token and layer x
    bytes x tokens kept / the tensor-parallel split the formula names (Gemma 4's global layers replicate past 4)."""
    t = next(t for t in d["memory"]["terms"] if t["name"] == "kv_cache")
    i = t["inputs"]
    whole = i["layers"] * i["kv_elements_mean"] * i["bytes"] * i["tokens_kept"]
    split = whole / t["value"]
    return 1.0 <= split <= 8.0 and abs(d["memory"]["breakdown"]["kv_cache"] - t["value"]) <= 1


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    h100 = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
    mi300x = ("estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json")  # sold and rented in eights

    # ------------------------------------------------------------ an attention backend of the other maker
    rcase("attn32: aiter on an H100: does not run, CMP-ATTENTION-BACKEND-GPU", {"workload": {**LONG, "attention_backend": "aiter"}},
          _doc(lambda d: _supports(d)["gpu"] is False and _rejected(d) == ["CMP-ATTENTION-BACKEND-GPU"]), argv=h100)
    rcase("attn32: aiter on an MI300X: runs", {"workload": {**LONG, "attention_backend": "aiter"}},
          _doc(lambda d: _supports(d)["gpu"] is True and not _rejected(d)), argv=mi300x)
    rcase("attn32: trtllm_mla on an MI300X: does not run, the reason named", {"workload": {**LONG, "model": "glm-4.7-flash", "attention_backend": "trtllm_mla"}},
          _doc(lambda d: _supports(d)["gpu"] is False and _supports(d)["reason"] == "attention_backend_vendor"), argv=("estimate", "r.yaml", "--gpu", "mi300x", "--format", "json"))
    rcase("attn32: triton on an MI300X: runs on both builds", {"workload": {**LONG, "attention_backend": "triton"}},
          _doc(lambda d: _supports(d)["gpu"] is True and not _rejected(d)), argv=mi300x)
    rcase("attn32: flashinfer on an MI300X, text: the screen says it", {"workload": {**LONG, "attention_backend": "flashinfer"}},
          _flat_ok("Runs on this GPU no: the attention backend flashinfer runs on nvidia GPUs, not amd", "CMP-ATTENTION-BACKEND-GPU"), argv=("estimate", "r.yaml", "--gpu", "mi300x"))
    rcase("attn32: aiter, recommend over the catalog: an AMD answer", {"workload": {**LONG, "attention_backend": "aiter"}},
          _doc(lambda d: d["recommendation"] is not None and d["recommendation"]["gpu"] in ("mi300x", "mi325x", "mi355x", "mi350x", "mi250x", "mi210")), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("attn32: aiter on H100s only: no answer, the rule said in Chinese", {"workload": {**LONG, "attention_backend": "aiter"}, "constraints": {"gpus": ["h100"], "max_gpus": 2}},
          _flat_ok("CMP-ATTENTION-BACKEND-GPU", "注意力后端 aiter"), argv=("recommend", "r.yaml", "--lang", "zh"))
    acase("attn32: an audit of aiter on 8 rented H100s: blocked", {"title": "t", "workload": {**CHAT, "attention_backend": "aiter"}, "hardware": {"gpu": "H100 SXM", "count": 8}, "acquisition": RENT},
          _doc(lambda d: "CMP-ATTENTION-BACKEND-GPU" in _rules(d)))
    pcase("attn32: a plan's aiter service: adds up", {"horizon_months": 3, "constraints": {"acquisition": "either"},
                                                     "workloads": [{"name": "chat", "workload": {**CHAT, "attention_backend": "aiter"}, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}}]},
          _doc(_plan_adds_up))

    # ------------------------------------------------------------ a pin the stack cannot run, in estimate
    rcase("pin32: xtuner pp 2: set aside, said in memory.notes", {"workload": {**XT, "parallelism": {"pp": 2}}},
          _doc(lambda d: "note.pin_off_stack" in _note_ids(d) and _gpu(d)["layout"]["pp"] == 1 and _gpu(d)["fits_as_requested"] is False), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))
    rcase("pin32: deepspeed pp 2, memory alone, in Chinese", {"workload": {**XT, "stack": "deepspeed", "parallelism": {"pp": 2}}},
          _flat_ok("workload.parallelism.pp 2（流水线并行）", "已搁置该指定"), argv=("estimate", "r.yaml", "--lang", "zh"))
    rcase("pin32: megatron pp 2: kept, no such note", {"workload": {**XT, "stack": "megatron", "parallelism": {"pp": 2}}},
          _doc(lambda d: "note.pin_off_stack" not in _note_ids(d) and _gpu(d)["layout"]["pp"] == 2), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))

    # ------------------------------------------------------------ the layout's micro-batch on the estimate's screen
    rcase("titan32: no batch_size: the screen shows micro-batch 8", {"workload": TITAN},
          _flat_ok("DP 8, micro-batch 8, 8 accumulation steps (1,048,576 tokens per optimizer step), ZeRO-3"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8"))
    rcase("titan32: batch_size 2 stated: the screen shows micro-batch 2", {"workload": {**TITAN, "batch_size": 2}},
          _flat_ok("micro-batch 2"), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8"))

    # ------------------------------------------------------------ the rules that refuse an estimate
    rcase("refused32: optimum-habana on one H100: CPT-TRAINING-STACK-DEVICE", {"workload": HABANA},
          _doc(lambda d: _rejected(d) == ["CPT-TRAINING-STACK-DEVICE"]), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "1", "--format", "json"))
    rcase("refused32: optimum-habana on 8 Gaudi 2: not refused for the stack", {"workload": HABANA},
          _doc(lambda d: "CPT-TRAINING-STACK-DEVICE" not in _rejected(d)), argv=("estimate", "r.yaml", "--gpu", "gaudi2", "--gpus", "8", "--format", "json"))
    rcase("refused32: TensorRT-LLM on an MI300X, text: the rule and the reason", {"workload": TRT},
          _flat_ok("Runs on this GPU no: TensorRT-LLM runs on nvidia GPUs, not amd", "CMP-FRAMEWORK-GPU (The serving software does not run on this GPU)"), argv=("estimate", "r.yaml", "--gpu", "mi300x"))
    rcase("refused32: TensorRT-LLM on an H100: nothing refused", {"workload": TRT}, _doc(lambda d: not _rejected(d) and _supports(d)["gpu"] is True), argv=h100)
    rcase("refused32: no --gpu: no gpu block", {"workload": HABANA}, _doc(lambda d: d["gpu"] is None), argv=("estimate", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ an overlay's training-stack engine
    def _engine(e: str) -> dict:
        return {"kb/runtime.yaml": f"training_stacks:\n  xtuner:\n    name: XTuner\n    efficiency: 1.0\n    engine: {e}\n    source: \"ours\"\n"}
    rcase("engine32: 'deepspd': its close match", {"workload": XT}, _refused("runtime.yaml", "engine deepspd", "did you mean 'deepspeed'?"),
          argv=("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb"), files=_engine("deepspd"))
    rcase("engine32: a stack its own engine: refused in one line", {"workload": XT}, _refused("runtime.yaml", "engine xtuner"),
          argv=("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb"), files=_engine("xtuner"))
    rcase("engine32: xtuner on Megatron's engine: a pinned pp 2 kept", {"workload": {**XT, "parallelism": {"pp": 2}}}, _doc(lambda d: _gpu(d)["layout"]["pp"] == 2),
          argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json", "--knowledge", "kb"), files=_engine("megatron"))

    # ------------------------------------------------------------ Gemma 4, GLM-4.7-Flash
    rcase("gemma32: Gemma 4 31B at TP 8: the KV term is its inputs multiplied out", {"workload": {"task": "inference", "model": "gemma-4-31b", "context_len": 131072, "concurrent_requests": 1, "parallelism": {"tp": 8}}},
          _doc(_kv_by_hand), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))
    rcase("gemma32: Gemma 4 26B-A4B QLoRA, markdown in Chinese: the method on the title's line", {"workload": {"task": "finetune", "method": "qlora", "model": "gemma-4-26b-a4b", "train_tokens": 2.0e7}},
          lambda r: r.returncode in (0, 1) and "finetune（qlora），gemma-4-26b-a4b" in Path(r.cwd, "o.md").read_text(encoding="utf-8"), argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh", "-o", "o.md"))
    rcase("gemma32: Gemma 4 31B with a 300,000-token prompt: SRV-CONTEXT-BEYOND-MODEL", {"workload": {"task": "inference", "model": "gemma-4-31b", "prompt_tokens": 300000, "output_tokens": 1000, "concurrent_requests": 1}},
          _doc(lambda d: "SRV-CONTEXT-BEYOND-MODEL" in _rules(d)), argv=("recommend", "r.yaml", "--format", "json"))
    acase("glm32: GLM-4.7-Flash on SGLang's triton, one rented H200: the ledger adds up", {"title": "t", "workload": {**CHAT, "model": "glm-4.7-flash", "attention_backend": "triton"}, "hardware": {"gpu": "H200", "count": 1}, "acquisition": RENT},
          _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"])))
    acase("glm32: GLM-4.7-Flash with aiter on one H200: blocked, not priced as running", {"title": "t", "workload": {**CHAT, "model": "glm-4.7-flash", "attention_backend": "aiter"}, "hardware": {"gpu": "H200", "count": 1}, "acquisition": RENT},
          _doc(lambda d: "CMP-ATTENTION-BACKEND-GPU" in _rules(d)))

    # ------------------------------------------------------------ DGX Sparks, the closest count
    acase("spark32: three Sparks bought serving GLM-4.7-Flash: the ledger adds up", {"title": "t", "workload": {**CHAT, "model": "glm-4.7-flash", "framework": "vllm"}, "hardware": {"gpu": "gb10", "count": 3}, "acquisition": BUY},
          _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"])))
    acase("spark32: five Sparks: beyond the maker's cluster", {"title": "t", "workload": {**CHAT, "model": "gemma-4-31b", "framework": "vllm", "parallelism": {"tp": 5}}, "hardware": {"gpu": "gb10", "count": 5}, "acquisition": BUY},
          lambda r: r.returncode in (0, 1, 2) and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) <= 1)
    rcase("spark32: DeepSeek-R1 on at most 4 Sparks: MEM-NO-FIT said of 4", {"workload": {"task": "inference", "model": "deepseek-r1", "prompt_tokens": 4000, "output_tokens": 1000, "concurrent_requests": 64}, "constraints": {"gpus": ["gb10"], "max_gpus": 4}},
          _flat_ok("MEM-NO-FIT: 4 × NVIDIA GB10"), argv=("recommend", "r.yaml"))

    # ------------------------------------------------------------ recurrent_state_dtype
    rcase("hybrid32: recurrent_state_dtype 'bf16': offered bfloat16", {"workload": {**HYBRID, "recurrent_state_dtype": "bf16"}}, _refused("r.yaml", "workload.recurrent_state_dtype", "bfloat16"))
    rcase("hybrid32: recurrent_state_dtype bfloat16 on SGLang, two H200: finite", {"workload": {**HYBRID, "recurrent_state_dtype": "bfloat16"}}, _finite_json, argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "2", "--format", "json"))
    rcase("hybrid32: recurrent_state_dtype on Llama (no recurrent state): refused", {"workload": {**CHAT, "recurrent_state_dtype": "bfloat16"}}, _refused("r.yaml", "recurrent_state_dtype"))

    def _told_apart(r) -> bool:
        m = re.findall(r"([\d.,]+) ms per output token instead of ([\d.,]+)", " ".join(r.stdout.split()))
        return _text_ok()(r) and bool(m) and all(a != b for a, b in m)
    acase("attn32: the aiter proposal's verdict: a slower token's times told apart", {"title": "t", "workload": {**CHAT, "attention_backend": "aiter"}, "hardware": {"gpu": "H100 SXM", "count": 8}, "acquisition": RENT},
          _told_apart, argv=("audit", "p.yaml"))

    # ------------------------------------------------------------ the job on the title's line
    pcase("line32: a plan with an xtuner fine-tune and a service: adds up", {"horizon_months": 3, "constraints": {"acquisition": "rent"},
                                                                           "workloads": [{"name": "chat", "workload": CHAT, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}},
                                                                                         {"name": "tune", "workload": {**XT, "parallelism": {"pp": 2}}, "cadence": {"per_month": 1}}]},
          _doc(_plan_adds_up))
    case("line32: html of a service named by its repository", {"r.yaml": _dump({"workload": {"task": "inference", "model": "google/gemma-4-31b-it", "concurrent_requests": 4}})},
         ["recommend", "r.yaml", "--format", "html", "-o", "o.html"], expect="any",
         check=lambda r: r.returncode in (0, 1, 2) and "Traceback" not in r.stderr and (r.returncode == 2 or "google/gemma-4-31b-it" in Path(r.cwd, "o.html").read_text(encoding="utf-8")))
