# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty of the hostile corpus: what session 33 merged, used as a user would -- the training stack
``optimum-habana`` (runtime.yaml ``devices``, rule CPT-TRAINING-STACK-DEVICE) in recommend, audit, plan and explain,
with an overlay widening or emptying its devices; ``workload.recurrent_state_dtype`` on models without recurrent
state, on llama.cpp, on a fine-tune, in a plan and an audit, spelt as torch and the engines spell it; Gemma 4's wider
global layers at TP 8 (the KV a GPU against the formula by hand) and past the model's context; GLM-4.7-Flash and the
new aliases (QwQ, Hermes 4, Mistral Small 3.x); the DGX Spark priced per system, three cabled in a ring, and the
no-answer blocker said of a refused candidate; training on the MI325X at its GEMM clock; NVFP4 activation-quant
kernels; long prompts packed into the step -- through recommend, estimate, audit, plan, prices, explain, json / text /
md / html, English and Chinese. Added to benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review37's branch before its fixes (main at d5c1114f): 40 cases, 29 clean. Fixed (now 40 clean):

* A plan placed an optimum-habana fine-tune on NVIDIA GPUs (2 x H200 rented; bought B300s with acquisition
  either): the plan judges each GPU under the first way of paying the user allows, and a GPU the cost rules refused
  there (no cloud rents it, a count not sold) never reached the pitfalls step where CPT-TRAINING-STACK-DEVICE stood,
  so recommend also refused a B300 no cloud rents for its price alone; the plan's training option ignored a
  compatibility reject besides. The rule is now judged at the compute step, as CMP-FRAMEWORK-GPU is, and the plan
  rules a GPU out on it (3 cases; tests/test_review37.py).
* 'BFloat16' was offered float16 and 'fp32' nothing; mamba_ssm_cache_dtype (the engines' own flag) was answered with
  every key, kv_cache_dtype with 'kv_cache_tokens' (4 cases).
* zh said a serving copy's size as '1 个副本，每个 单块 GPU' (2 cases).
* A prompt longer than the model's window (Llama 3.1 8B at 300,000 tokens, Gemma 4 31B past 262,144) was estimated
  and recommended without a word: no rule read the model's ``max_context``. SRV-CONTEXT-BEYOND-MODEL now warns
  where the workload states its lengths (a warning, not a refusal: a YaRN-stretched server runs past the window)
  (1 case).
* CPT-TRAINING-STACK-DEVICE read 'runs only on GPUs of the Intel Gaudi software' (the software stack's name where the
  sentence wants the accelerators'): now 'runs only on Intel Gaudi accelerators' (tests/test_optimum_habana_stack.py).
* Three Sparks serving one TP 2 copy said 'one copy across 3 nodes as pinned' of a layout no one pinned: now 'one copy
  across 2 nodes' (1 case).

Seen and left:

* With no answer, MEM-NO-FIT is said of 1 x GB10 (674 GB a GPU) rather than 4 x (170 GB): rank.closeness orders
  candidates refused at the same step by cost before GPUs, so the cheapest refused is 'closest'.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _ok, _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _dump, _edit, _either, _text_ok
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round26 import _again, _ledger_adds_up, _plan_adds_up
from benchmarks.hostile_round28 import doc_cases

HAB = {"task": "finetune", "method": "lora", "model": "llama-2-70b", "train_tokens": 1.0e8, "stack": "optimum-habana"}
HYBRID = {"task": "inference", "model": "qwen3-next-80b-a3b", "framework": "sglang", "prompt_tokens": 4000, "output_tokens": 500, "concurrent_requests": 32}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
SPARKS3 = {"title": "three sparks", "hardware": {"gpu": "DGX Spark", "count": 3}, "acquisition": {"mode": "buy"},
           "workload": {"task": "inference", "model": "qwen3-235b-a22b", "precision": "fp4", "framework": "vllm", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 4}}
H100X8 = {"gpu": "H100 SXM", "count": 8}
RENT = {"mode": "rent", "provider": "lambda"}


def _plan(tune: dict, acquisition: str) -> dict:
    return {"horizon_months": 3, "constraints": {"acquisition": acquisition},
            "workloads": [{"name": "chat", "workload": CHAT, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}},
                          {"name": "tune", "workload": tune, "cadence": {"per_month": 1}}]}


def _placed(d: dict, name: str) -> set[str]:
    return {pl["gpu"] for m in d["months"] for pl in m["placements"] if pl["workload"] == name}


def _step(d: dict) -> float:
    return d["gpu"]["training"]["step_terms"]["step_s"]


def _serving(d: dict) -> dict:
    return d["gpu"]["serving"]


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)

    # ------------------------------------------------------------ optimum-habana off Gaudi
    rcase("habana30: recommend on H100s only: no answer, the stack rule names why", {"workload": HAB, "constraints": {"gpus": ["h100"]}},
          lambda r: r.returncode == 1 and _doc(lambda d: d["recommendation"] is None and "CPT-TRAINING-STACK-DEVICE" in _rules(d))(r), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("habana30: recommend on B300 rented only (no offer of it): the stack rule, not the price alone", {"workload": HAB, "constraints": {"gpus": ["b300"], "acquisition": "rent"}},
          _doc(lambda d: all("CPT-TRAINING-STACK-DEVICE" in c["rules"] for c in d["candidates"] if "MEM-NO-FIT" not in c["rules"])), argv=("recommend", "r.yaml", "--format", "json"))
    acase("habana30: audit of 8 rented H100s with the stack: a blocker, exit 1", {"title": "t", "workload": HAB, "hardware": H100X8, "acquisition": RENT},
          lambda r: r.returncode == 1 and _doc(lambda d: "CPT-TRAINING-STACK-DEVICE" in _rules(d))(r))
    pcase("habana30: a plan renting: the fine-tune unplaced (no cloud rents a Gaudi), never on NVIDIA", _plan(HAB, "rent"),
          _doc(lambda d: [u["workload"] for u in d["unplaced"]] == ["tune"] and not _placed(d, "tune") and _plan_adds_up(d)))
    pcase("habana30: a plan renting or buying: the fine-tune only on Gaudi", _plan(HAB, "either"),
          _doc(lambda d: bool(_placed(d, "tune")) and all(g.startswith("gaudi") for g in _placed(d, "tune")) and _plan_adds_up(d)))
    case("habana30: explain CPT-TRAINING-STACK-DEVICE --lang zh: its title in Chinese", {}, ["explain", "CPT-TRAINING-STACK-DEVICE", "--lang", "zh"], expect="any",
         check=_text_ok("训练框架无法在这种 GPU 上运行"))
    rcase("habana30: stack 'optimum_habana': its close match", {"workload": {**HAB, "stack": "optimum_habana"}}, _refused("r.yaml", "workload.stack", "optimum-habana"))
    rcase("habana30: the stack on a service: refused as a training setting", {"workload": {**CHAT, "stack": "optimum-habana"}}, _refused("r.yaml", "workload.stack"))
    rcase("habana30: an overlay letting it run on CUDA too: an NVIDIA answer may come", {"workload": HAB},
          _doc(lambda d: d["recommendation"] is not None), argv=("recommend", "r.yaml", "--format", "json", "--knowledge", "kb"),
          files={"kb/runtime.yaml": "training_stacks:\n  optimum-habana:\n    devices: [cuda, gaudi]\n"})
    rcase("habana30: an overlay's devices naming a TPU: refused naming the file and field", {"workload": HAB}, _refused("runtime.yaml", "devices", "tpu"),
          argv=("recommend", "r.yaml", "--knowledge", "kb"), files={"kb/runtime.yaml": "training_stacks:\n  optimum-habana:\n    devices: [tpu]\n"})

    # ------------------------------------------------------------ recurrent_state_dtype
    rcase("state30: on a dense model: refused, the model named", {"workload": {**CHAT, "recurrent_state_dtype": "bfloat16"}}, _refused("r.yaml", "workload.recurrent_state_dtype", "Llama 3.1 8B"))
    rcase("state30: on llama.cpp: refused, the engines that take it named", {"workload": {**HYBRID, "framework": "llama.cpp", "recurrent_state_dtype": "float32"}}, _refused("r.yaml", "llama.cpp", "sglang"))
    rcase("state30: on a fine-tune: refused as inference only", {"workload": {**HAB, "model": "qwen3-next-80b-a3b", "stack": "deepspeed", "recurrent_state_dtype": "float32"}}, _refused("r.yaml", "recurrent_state_dtype", "inference"))
    rcase("state30: float16 on SGLang 0.5.7: refused naming the release", {"workload": {**HYBRID, "framework_version": "0.5.7", "recurrent_state_dtype": "float16"}}, _refused("r.yaml", "0.5.7", "float16"))
    rcase("state30: 'BFloat16': offered bfloat16, not float16", {"workload": {**HYBRID, "recurrent_state_dtype": "BFloat16"}}, _refused("r.yaml", "did you mean bfloat16?"))
    rcase("state30: 'fp32': offered float32", {"workload": {**HYBRID, "recurrent_state_dtype": "fp32"}}, _refused("r.yaml", "did you mean float32?"))
    rcase("state30: the key as vLLM spells it: offered recurrent_state_dtype", {"workload": {**HYBRID, "mamba_ssm_cache_dtype": "float32"}}, _refused("r.yaml", "did you mean 'recurrent_state_dtype'?"))
    rcase("state30: kv_cache_dtype: offered kv_precision", {"workload": {**HYBRID, "kv_cache_dtype": "fp8"}}, _refused("r.yaml", "did you mean 'kv_precision'?"))
    rcase("state30: bfloat16 on SGLang: about twice float32's state slots", {"workload": {**HYBRID, "recurrent_state_dtype": "bfloat16"}},
          _doc(lambda d: _serving(d)["max_concurrent_sequences"] > 1.8 * 136), argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "2", "--format", "json"))
    pcase("state30: a plan's service on a dense model with it: the plan's field named", _edit(_plan(HAB, "rent"), "workloads.0.workload", {**CHAT, "recurrent_state_dtype": "float32"}),
          _refused("plan.yaml", "workloads[0].workload.recurrent_state_dtype"), argv=("plan", "plan.yaml"))
    acase("state30: an audited hybrid service with bfloat16 on SGLang: answered", {"title": "t", "workload": {**HYBRID, "recurrent_state_dtype": "bfloat16"}, "hardware": {"gpu": "H200", "count": 2}, "acquisition": {"mode": "rent"}},
          _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"])))
    rcase("state30: on llama.cpp, --lang zh: refused in one line", {"workload": {**HYBRID, "framework": "llama.cpp", "recurrent_state_dtype": "float32"}}, _refused("r.yaml", "recurrent_state_dtype"), argv=("recommend", "r.yaml", "--lang", "zh"))

    # ------------------------------------------------------------ Gemma 4, GLM-4.7-Flash and the new names
    # Gemma 4 31B, 131,000 + 144 / 2 = 131,072 tokens at TP 8: 10 global layers x 2 x 4 x 512 x 2 B x 131,072 / min(8, 4)
    # + 50 sliding layers x 2 x 16 x 256 x 2 B x 1,024 / 8 = 2,684,354,560 + 104,857,600 = 2,789,212,160 B a GPU
    rcase("gemma30: 31B at TP 8 and 128K: the KV a GPU as the formula by hand", {"workload": {"task": "inference", "model": "gemma-4-31b", "prompt_tokens": 131000, "output_tokens": 144, "concurrent_requests": 1, "parallelism": {"tp": 8}}},
          _doc(lambda d: abs(d["memory"]["breakdown"]["kv_cache"] - 2_789_212_160) < 1e6), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))
    for fmt in ("md", "html"):
        case(f"gemma30: 26B-A4B recommended in full, --format {fmt}, --lang zh: the model named, a copy's GPUs said", {"r.yaml": _dump({"workload": {"task": "inference", "model": "gemma4:26b", "prompt_tokens": 8000, "output_tokens": 1000, "concurrent_requests": 8}})},
             ["recommend", "r.yaml", "--format", fmt, "--lang", "zh", "--detail", "full", "-o", f"o.{fmt}"], expect="any",
             check=lambda r, fmt=fmt: _ok(r) and "Gemma 4 26B-A4B" in Path(r.cwd, f"o.{fmt}").read_text(encoding="utf-8")
             and "每个副本为" in Path(r.cwd, f"o.{fmt}").read_text(encoding="utf-8"))
    rcase("gemma30: 31B fine-tuned with LoRA on one H200: finite", {"workload": {"task": "finetune", "method": "lora", "model": "google/gemma-4-31b-it", "train_tokens": 1.0e7, "seq_len": 8192}},
          _finite_json, argv=("estimate", "r.yaml", "--gpu", "h200", "--format", "json"))
    rcase("glm30: GLM-4.7-Flash on SGLang: 54,144 B of MLA cache a token", {"workload": {"task": "inference", "model": "GLM-4.7-Flash", "framework": "sglang", "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 64}},
          _doc(lambda d: d["workload"]["resolved_model"]["id"] == "glm-4.7-flash"), argv=("estimate", "r.yaml", "--gpu", "h200", "--format", "json"))
    rcase("glm30: 'glm-4.7-flsh': its close match", {"workload": {"task": "inference", "model": "glm-4.7-flsh"}}, _refused("r.yaml", "glm-4.7-flash"))
    for name, resolved in (("QwQ-32B", "qwen2.5-32b"), ("hermes-4-405b", "llama-3.1-405b"), ("mistral-small-3.2", "mistral-small-24b")):
        rcase(f"names30: {name} resolves to {resolved}", {"workload": {"task": "inference", "model": name}},
              _doc(lambda d, resolved=resolved: d["workload"]["resolved_model"]["id"] == resolved), argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json"))

    # ------------------------------------------------------------ the DGX Spark
    case("spark30: prices --gpu gb10 --format md: the one-line refusal (text or json)", {}, ["prices", "--gpu", "gb10", "--format", "md"], expect="bad", has=("--format",))
    case("spark30: prices --gpu 'DGX Spark' --lang zh: priced per system (每台整机)", {}, ["prices", "--gpu", "DGX Spark", "--lang", "zh"], expect="any", check=_text_ok("每台整机"))
    acase("spark30: three Sparks bought: a ring of 3 cables ($360), the copy across 2 of them", SPARKS3,
          _doc(lambda d: [x["amount"] for x in d["proposed"]["ledger"]["lines"] if x["kind"] == "network"] == [360.0]
               and any(s["conclusion"].endswith("one copy across 2 nodes)") for s in d["steps"]) and "SRV-GPUS-IDLE" in _rules(d)))
    rcase("spark30: DeepSeek-R1 FP8 on Sparks only: no answer, exit 1, the systems rule of 8, not 64", {"workload": {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 200}, "constraints": {"gpus": ["gb10"], "acquisition": "buy"}},
          lambda r: r.returncode == 1 and _doc(lambda d: any(f["rule"] == "NET-SYSTEMS-BEYOND-MAKER" and f["message"].startswith("8 x") for f in d["findings"]))(r), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ MI325X training, NVFP4, long prompts
    def _faster_than_mi300x(r) -> bool:
        if not _finite_json(r):
            return False
        other = _again(r, "estimate", "r.yaml", "--gpu", "mi300x", "--gpus", "8", "--format", "json")
        return _finite_json(other) and _step(json.loads(r.stdout)) < _step(json.loads(other.stdout))
    rcase("mi30: a 70B LoRA on 8 MI325X steps faster than on 8 MI300X (its GEMM clock)", {"workload": {**HAB, "stack": "megatron", "train_tokens": 5.0e7}}, _faster_than_mi300x,
          argv=("estimate", "r.yaml", "--gpu", "mi325x", "--gpus", "8", "--format", "json"))
    rcase("nvfp430: Qwen3-32B FP4 on vLLM on one B200: finite", {"workload": {"task": "inference", "model": "qwen3-32b", "precision": "fp4", "framework": "vllm", "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 64}},
          _finite_json, argv=("estimate", "r.yaml", "--gpu", "b200", "--format", "json"))
    rcase("chunk30: 100K-token prompts, 4 at once on 8 H100: finite, the sequences' output below one's rate x 4", {"workload": {"task": "inference", "model": "gemma-4-31b", "prompt_tokens": 100000, "output_tokens": 1000, "concurrent_requests": 4}},
          _doc(lambda d: 0 < d["gpu"]["decode_tokens_per_s_total"] <= 4 * d["gpu"]["decode_tokens_per_s"] + 1e-6), argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))
    rcase("chunk30: a prompt past Gemma 4 31B's 262,144-token window: answered, with the window said", {"workload": {"task": "inference", "model": "gemma-4-31b", "prompt_tokens": 300000, "output_tokens": 100}},
          _doc(lambda d: any(f["rule"] == "SRV-CONTEXT-BEYOND-MODEL" and "262,144" in f["message"] for f in d["findings"])), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("chunk30: a prompt at the model's whole context on one H200: answered or refused in a line", {"workload": {"task": "inference", "model": "gemma-4-26b-a4b", "prompt_tokens": 262000, "output_tokens": 144, "concurrent_requests": 2}},
          _either(_refused("r.yaml"), _finite_json), argv=("estimate", "r.yaml", "--gpu", "h200", "--format", "json"))
