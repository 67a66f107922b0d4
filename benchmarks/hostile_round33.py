# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-three of the hostile corpus: session 34's merges used as a user would -- SGLang's attention backends
one maker's own (CMP-ATTENTION-BACKEND-GPU) in an audit, a plan and an estimate's screen and JSON, SGLang's
``fused_kernel_models`` per release, the published FP4 checkpoints' 16-bit, FP8 and W4A16 parts
(``fp4_checkpoints``: Gemma 4, Nemotron 3 Super, Qwen3.5 / 3.6), vLLM's folded FP8 activation quantization, context
parallelism under recomputation, and the day's new catalog entries and aliases (Qwen3.5 0.8B-122B-A10B, Apertus 8B,
Mistral NeMo 12B, Qwen2.5 1.5B, DeepSeek-R1-Distill-Qwen-1.5B, Qwen3.6-27B, Qwen3-VL, Hermes 4.3) -- through
recommend, estimate, audit and plan, json / text / md / html, English and Chinese. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on review42's branch before its fixes (main at 857b2d74): 35 cases, 24 clean; on this branch 35 of 35 (round 32: 36 of 36).
Fixed:

* with no ``framework_version`` SGLang's newest ``fused_kernel_models`` list was read while the question as understood
  said '0.5.7': Qwen3.5-122B-A10B's TPOT was 0.5.10's, 25% shorter than stating 0.5.7 gives; the note now says the
  list the figure came from.
* ``attention_backend: fa3`` on a B200 and ``trtllm_mla`` on an H100 were priced as running: FlashAttention 3's
  kernels are built for compute capability 8.x / 9.x, TensorRT-LLM's MLA kernels for Blackwell
  (``attention_backend_vendors.compute_capability_majors``), so CMP-ATTENTION-BACKEND-GPU refuses them now.
* a model with a published checkpoint entry (``fp4_checkpoints``) was priced as that file stores it (Gemma 4 26B's
  BF16 non-experts) without naming it; an assumption names the repository now.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round23 import _text_ok
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round26 import _ledger_adds_up, _plan_adds_up
from benchmarks.hostile_round28 import doc_cases

QWEN = {"task": "inference", "model": "qwen3.5-122b-a10b", "framework": "sglang", "quantization": "nvfp4", "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 16}
GEMMA = {"task": "inference", "model": "gemma-4-26b-a4b", "framework": "vllm", "quantization": "nvfp4", "prompt_tokens": 2000, "output_tokens": 500, "concurrent_requests": 8}
SUPER = {"task": "inference", "model": "nvidia-nemotron-3-super-120b-a12b", "framework": "vllm", "quantization": "nvfp4", "prompt_tokens": 4000, "output_tokens": 1000, "concurrent_requests": 16}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 16}
LORA = {"task": "finetune", "method": "lora", "model": "apertus-8b", "train_tokens": 2.0e7}
RENT = {"mode": "rent", "provider": "lambda"}
BUY = {"mode": "buy"}


def _flat_ok(*words: str):
    """:func:`_text_ok` with the wrapping undone (runs of spaces and line breaks read as one space)."""
    def check(r) -> bool:
        flat = " ".join(r.stdout.split())
        return _text_ok()(r) and all(w in flat for w in words)
    return check


def _flat_file(name: str, *words: str):
    """Answered (0 or 1), the file ``name`` written holding each of ``words`` (its wrapping undone)."""
    def check(r) -> bool:
        p = Path(r.cwd, name)
        if r.returncode not in (0, 1) or "Traceback" in r.stderr or not p.exists():
            return False
        flat = " ".join(p.read_text(encoding="utf-8").split())
        return all(w in flat for w in words) and "%(" not in flat and "{{" not in flat
    return check


def _serving(d: dict) -> dict:
    return d["gpu"]["serving"]


def _assumed(d: dict, field: str) -> list[str]:
    return [a.get("message_id", "") for a in d.get("assumptions", []) if a.get("field") == field]


def _rejected(d: dict) -> list[str]:
    return [x["rule"] for x in d["gpu"].get("rejected_by", [])]


def _one_line(r) -> bool:
    """Answered or refused (0, 1 or 2) in at most one stderr line, never a traceback."""
    return r.returncode in (0, 1, 2) and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) <= 1


def _weights_add_up(d: dict) -> bool:
    """The memory breakdown's parts sum to its total per GPU (within a byte's rounding of each)."""
    b = d["memory"]["breakdown"]
    parts = sum(v for k, v in b.items() if k not in ("total", "total_per_gpu", "usable", "capacity") and isinstance(v, (int, float)))
    total = b.get("total", b.get("total_per_gpu"))
    return total is None or abs(parts - total) <= max(16, 1e-6 * total)


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    b200 = ("estimate", "r.yaml", "--gpu", "b200", "--gpus", "2", "--format", "json")
    mi300x = ("estimate", "r.yaml", "--gpu", "mi300x", "--format", "json")

    # ------------------------------------------------------------ SGLang's fused-kernel list per release
    rcase("fused33: Qwen3.5-122B, no release: the note names the 0.5.10 list", {"workload": QWEN},
          _doc(lambda d: _assumed(d, "workload.framework_version") == ["assume.default.workload.framework_version.fused_list"]), argv=b200)
    rcase("fused33: Qwen3.5-122B at 0.5.7: slower than at 0.5.10", {"workload": {**QWEN, "framework_version": "0.5.7"}},
          _doc(lambda d: _serving(d)["tpot_s"] > 0.0095 and not _assumed(d, "workload.framework_version")), argv=b200)
    rcase("fused33: a release before SGLang's first, 0.1.0: one line or an answer", {"workload": {**QWEN, "framework_version": "0.1.0"}}, _one_line, argv=b200)
    rcase("fused33: 'v0.5.10' spelt with a v", {"workload": {**QWEN, "framework_version": "v0.5.10"}}, _one_line, argv=b200)
    rcase("fused33: the note in Chinese, no English sentence left", {"workload": QWEN},
          _flat_ok("fused_kernel_models", "融合"), argv=("estimate", "r.yaml", "--gpu", "b200", "--gpus", "2", "--lang", "zh"))
    rcase("fused33: DeepSeek-R1 (listed from 0.5.7): the plain note", {"workload": {**QWEN, "model": "deepseek-r1", "quantization": None, "concurrent_requests": 64}},
          _doc(lambda d: _assumed(d, "workload.framework_version") == ["assume.default.workload.framework_version"]),
          argv=("estimate", "r.yaml", "--gpu", "b200", "--gpus", "8", "--format", "json"))

    # ------------------------------------------------------------ a published checkpoint's parts
    rcase("ckpt33: Gemma 4 26B NVFP4 on a B200: the file named", {"workload": GEMMA},
          _doc(lambda d: _assumed(d, "workload.quantization") == ["assume.published_checkpoint"] and _weights_add_up(d)), argv=("estimate", "r.yaml", "--gpu", "b200", "--format", "json"))
    rcase("ckpt33: Gemma 4 26B NVFP4, text: the repository on the screen", {"workload": GEMMA},
          _flat_ok("nvidia/Gemma-4-26B-A4B-NVFP4"), argv=("estimate", "r.yaml", "--gpu", "b200"))
    rcase("ckpt33: Gemma 4 26B NVFP4, recommend markdown in Chinese: the file named", {"workload": GEMMA},
          _flat_file("o.md", "nvidia/Gemma-4-26B-A4B-NVFP4", "检查点"), argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh", "-o", "o.md"))
    rcase("ckpt33: Gemma 4 26B at fp4 on an MI300X: no FP4 there, one line or an answer", {"workload": {**GEMMA, "quantization": None, "precision": "fp4"}}, _one_line, argv=mi300x)
    rcase("ckpt33: Gemma 4 26B, 'nvfp' misspelt: nvfp4 offered", {"workload": {**GEMMA, "quantization": "nvfp"}}, _refused("r.yaml", "workload.quantization", "nvfp4"))
    rcase("ckpt33: Nemotron 3 Super NVFP4 on one B200: the file named, weights from its FP8 parts", {"workload": SUPER},
          _doc(lambda d: _assumed(d, "workload.quantization") == ["assume.published_checkpoint"] and 60e9 < d["memory"]["breakdown"]["weights"] < 90e9), argv=("estimate", "r.yaml", "--gpu", "b200", "--format", "json"))
    pcase("ckpt33: a plan holding Nemotron 3 Super at NVFP4: adds up", {"horizon_months": 3, "constraints": {"acquisition": "either"},
                                                                        "workloads": [{"name": "super", "workload": SUPER, "cadence": {"continuous": True}, "targets": {"requests_per_s": 1}}]},
          _doc(_plan_adds_up))
    rcase("ckpt33: Qwen3.6-35B-A3B (alias) NVFP4: the same file named", {"workload": {**QWEN, "model": "qwen3.6-35b-a3b"}},
          _doc(lambda d: "assume.published_checkpoint" in _assumed(d, "workload.quantization")), argv=b200)
    rcase("ckpt33: Qwen3.5-122B-A10B NVFP4 (no published entry): no checkpoint named", {"workload": QWEN},
          _doc(lambda d: "assume.published_checkpoint" not in _assumed(d, "workload.quantization")), argv=b200)
    rcase("ckpt33: recommend Gemma 4 31B NVFP4 over the catalog, html", {"workload": {**GEMMA, "model": "gemma-4-31b"}},
          _flat_file("o.html", "nvidia/Gemma-4-31B-IT-NVFP4"), argv=("recommend", "r.yaml", "--format", "html", "-o", "o.html"))

    # ------------------------------------------------------------ attention backends of one maker
    acase("attn33: an audit of SGLang fa3 on 8 bought MI300X: blocked", {"title": "t", "workload": {**CHAT, "attention_backend": "fa3"}, "hardware": {"gpu": "MI300X", "count": 8}, "acquisition": BUY},
          _doc(lambda d: "CMP-ATTENTION-BACKEND-GPU" in _rules(d)))
    acase("attn33: the same audit in Chinese, text", {"title": "t", "workload": {**CHAT, "attention_backend": "fa3"}, "hardware": {"gpu": "MI300X", "count": 8}, "acquisition": BUY},
          _flat_ok("CMP-ATTENTION-BACKEND-GPU", "fa3"), argv=("audit", "p.yaml", "--lang", "zh"))
    rcase("attn33: wave on an H100: refused, detail_phrases given", {"workload": {**CHAT, "attention_backend": "wave"}},
          _doc(lambda d: _serving(d)["supports"]["gpu"] is False and bool(_serving(d)["supports"].get("detail_phrases")) and _rejected(d) == ["CMP-ATTENTION-BACKEND-GPU"]))
    rcase("attn33: fa4 on an MI355X: refused", {"workload": {**CHAT, "attention_backend": "fa4"}},
          _doc(lambda d: _serving(d)["supports"]["gpu"] is False), argv=("estimate", "r.yaml", "--gpu", "mi355x", "--format", "json"))
    rcase("attn33: fa3 on a B200 (FlashAttention 3: SM 8.x / 9.x): refused, the reason named", {"workload": {**CHAT, "attention_backend": "fa3"}},
          _doc(lambda d: _serving(d)["supports"]["reason"] == "attention_backend_compute_capability" and _rejected(d) == ["CMP-ATTENTION-BACKEND-GPU"]), argv=("estimate", "r.yaml", "--gpu", "b200", "--format", "json"))
    rcase("attn33: trtllm_mla on an H100, text in Chinese: the screen says it", {"workload": {**CHAT, "model": "glm-4.7-flash", "attention_backend": "trtllm_mla"}},
          _flat_ok("注意力后端 trtllm_mla 运行于计算能力为 10.x, 12.x 的 GPU", "CMP-ATTENTION-BACKEND-GPU"), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    rcase("attn33: fa3 over the catalog: no Blackwell answer", {"workload": {**CHAT, "attention_backend": "fa3"}},
          _doc(lambda d: d["recommendation"] is not None and d["recommendation"]["gpu"] not in ("b200", "b300", "gb200", "gb300", "rtx-5090", "rtx-pro-6000", "gb10")), argv=("recommend", "r.yaml", "--format", "json"))
    rcase("attn33: 'fa33' misspelt: fa3 offered", {"workload": {**CHAT, "attention_backend": "fa33"}}, _refused("r.yaml", "attention_backend", "fa3"))
    rcase("attn33: 'AITER' in capitals on an MI300X: its close match", {"workload": {**CHAT, "attention_backend": "AITER"}}, _refused("r.yaml", "did you mean aiter?"), argv=mi300x)
    pcase("attn33: a plan's fa3 service on AMD only: no answer said, or an NVIDIA GPU", {"horizon_months": 3, "constraints": {"acquisition": "rent", "gpus": ["mi300x"]},
                                                                                     "workloads": [{"name": "chat", "workload": {**CHAT, "attention_backend": "fa3"}, "cadence": {"continuous": True}, "targets": {"requests_per_s": 2}}]},
          _one_line)

    # ------------------------------------------------------------ the day's catalog entries
    rcase("cat33: Apertus 8B LoRA on an RTX 4090: finite", {"workload": LORA}, _finite_json, argv=("estimate", "r.yaml", "--gpu", "rtx-4090", "--format", "json"))
    rcase("cat33: Apertus 8B LoRA, recommend markdown in Chinese", {"workload": LORA},
          _flat_file("o.md", "apertus-8b"), argv=("recommend", "r.yaml", "--format", "md", "--lang", "zh", "-o", "o.md"))
    rcase("cat33: 'apertus-7b': a close match offered", {"workload": {**LORA, "model": "apertus-7b"}}, _refused("r.yaml", "apertus-8b"))
    for model in ("qwen3.5-0.8b", "deepseek-r1-distill-qwen-1.5b", "hermes-4.3-36b"):
        rcase(f"cat33: {model} served on one H100 with SGLang: finite", {"workload": {**CHAT, "model": model}}, _finite_json)
    acase("cat33: an audit of Mistral NeMo 12B on one rented L40S: the ledger adds up", {"title": "t", "workload": {**CHAT, "model": "mistral-nemo-12b", "framework": "vllm"}, "hardware": {"gpu": "L40S", "count": 1}, "acquisition": RENT},
          lambda r: r.returncode in (0, 1, 2) and ((r.returncode == 2 and _one_line(r)) or _doc(lambda d: _ledger_adds_up(d["proposed"]["ledger"]))(r)))

    # ------------------------------------------------------------ context parallelism under recomputation, vLLM's FP8
    rcase("cp33: Llama 3 8B at 128K with cp 4 and checkpointing on 8 H100: finite", {"workload": {"task": "pretrain", "model": "llama-3-8b", "train_tokens": 1.0e9, "seq_len": 131072, "gradient_checkpointing": True, "stack": "megatron", "parallelism": {"cp": 4}}},
          _finite_json, argv=("estimate", "r.yaml", "--gpu", "h100", "--gpus", "8", "--format", "json"))
    rcase("fp8q33: vLLM FP8 Llama at 0.9.2 and 0.10.0: both finite", {"workload": {**CHAT, "framework": "vllm", "quantization": "fp8", "framework_version": "0.9.2"}}, _finite_json)
