# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round forty-nine of the hostile corpus: the 2026 serving and training inputs combined as a user gets them wrong,
and the commands asked in a user's words -- a speculative method the framework does not run or spelt as its paper
does (``EAGLE-3``), ``quantization: awq`` beside ``precision: fp8`` or on a model released in FP8, ``kv_precision``
fp4 / nvfp4 / ``fp8_e4m3``, ``disaggregated`` at a concurrency of 1, ``prefix_cache_hit_rate`` beside ``prefix_cache:
false``, p95 targets with no request rate; ``checkpoint_every_n_layers`` 0, at and past the model's layer count and
beside ``gradient_checkpointing: false``; ``attention_kernel`` fa3 / flash / flash_attention_2 / sdpa; ``stack`` as
people write it (Megatron, NeMo 2, HF Trainer, accelerate, trl, transformers, torchtitan==0.2, DeepSpeed ZeRO-3);
models named by a quantized release in and out of the catalog; a plan's owned network misspelt or named by its
generation (InfiniBand NDR / HDR, RoCE v2 400G, 10 GbE); a plan whose model only a --knowledge overlay defines, with
and without it; gpuhunt's catalog CSV layout; a proposals folder holding a README and images; ``--format`` and the
``-o`` suffix disagreeing; ``gpuwise explain`` given a topic; ``rules --topic`` and ``gpus --sort``. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on main at 66f6fccb (before this branch's fixes): 60 cases, 38 clean (57 first written, 39 clean; three
kernel-device cases added and two checks tightened after); on this branch 60 of 60. Fixed (each with its test in
tests/test_hostile49.py):

* ``checkpoint_every_n_layers`` past the model's layers (33, 64 or 100 of Llama-3.1-8B's 32) was estimated as no
  recomputation at all (floor(32 / 33) = 0 a stage), nothing said: refused, the layers said (inputs/job.py); 0 (meant
  as none) was pydantic's bound alone: ``gradient_checkpointing false`` offered;
* ``attention_kernel`` flash / flash-attn / flash_attention_2 and ``stack`` HF Trainer / accelerate / trl /
  transformers were refused with nothing offered: fa2 and fsdp-hf offered (inputs/error_words.py);
* a stated ``attention_kernel`` on a GPU it has no build for (cudnn on MI300X, fa2 or cudnn on V100) was priced as if
  it ran: CPT-ATTENTION-KERNEL-DEVICE refuses the candidate (runtime.yaml attention_kernels devices / min_cc);
* an owned network named by its InfiniBand generation or family and rate ('InfiniBand NDR', 'HDR InfiniBand',
  'RoCE v2 400G') listed all eleven networks: the one meant is offered (inputs/listed.py);
* a quantized release of a model the catalog lacks ('Yi-1.5-34B-Chat-GPTQ') was asked for params_b: 34, the size
  its name states, is offered (knowledge/names.py);
* ``--format json -o out.md`` wrote JSON into out.md and said 'wrote out.md' alone: still written as --format says
  (docs/formats.md), and the line says the suffix disagrees;
* ``gpuwise explain memory`` / ``serving`` / ``SRV`` offered USED-MEMORY-HOT, USED-THROTTLING or nothing: the topic's
  rules (a rule file's name, a finding's topic or an id's prefix) are named (render/listing.py).

Clean on main already: a speculative method the framework does not run (SRV-SPECULATIVE-UNSUPPORTED), EAGLE-3 spelt
as the paper does, awq beside fp8, awq on DeepSeek-V3, kv_precision fp4 / fp8_e4m3, disaggregated at a concurrency
of 1 (SRV-DISAGGREGATED-ONE-COPY), prefix_cache false with a hit rate, p95 targets with no rate (SRV-P95-TTFT-TARGET,
SRV-RATE-AT-LOAD), Megatron / NeMo 2 / torchtitan==0.2 / DeepSpeed ZeRO-3 as stacks, quantized releases of catalog
models (TheBloke, unsloth bnb-4bit, hugging-quants AWQ-INT4, bartowski GGUF, RedHatAI FP8-dynamic), a misspelt
owned network, 10 GbE, an overlay-only model with and without --knowledge, gpuhunt's full catalog header and a
CPU-only row, a proposals folder with a README, a PNG and a PDF, -o out.pdf, ``rules --topic`` and ``gpus --sort``
(argparse's one line).

Seen and left: ``attention_kernel fa3`` is refused with fa2 offered (FlashAttention-3 is the fused class, which a
stack names; a job cannot state it); ``stack torchtune`` offers torchtitan (a different library, difflib's pick);
``prefix_cache_hit_rate`` on transformers or llama.cpp is priced as given (no per-framework prefix-cache table in
knowledge/serving.yaml); ``model: acme-chat`` (no size, not in the catalog) offers llama-2-7b (difflib); ``rules``
has no ``--topic`` (``explain TOPIC`` now lists a topic's rules).
"""
from __future__ import annotations

import json
from typing import Any

from benchmarks.hostile_round12 import _one, _refused
from benchmarks.hostile_round28 import doc_cases

SERVE8 = {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
LORA8 = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
PRE8 = {"task": "pretrain", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 1.0e10}
REC = ("recommend", "r.yaml", "--format", "json")
EST = ("estimate", "r.yaml", "--gpu", "h100", "--format", "json")
IMPORT = ["prices", "import", "c.csv", "-o", "ov", "--provider", "aws", "--as-of", "2026-11-30"]
GPUHUNT = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags\n"
ACME = ("models:\n  - id: acme-1b\n    name: Acme 1B\n    kind: decoder\n    params_b: 1.2358144\n    layers: 16\n"
        "    hidden_size: 2048\n    heads: 32\n    kv_heads: 8\n    ffn_size: 8192\n    vocab_size: 128256\n"
        "    tied_embeddings: true\n    max_context: 131072\n    license: our own\n    source: our config.json\n")


def _json(r) -> Any:
    try:
        return json.loads(r.stdout)
    except ValueError:
        return None


def _answered(*ids: str, absent: tuple[str, ...] = ()):
    """Answered (exit 0 or 1) with JSON, nothing on stderr, the rule ids ``ids`` among its findings."""
    return lambda r: (r.returncode in (0, 1) and not r.stderr.strip() and _json(r) is not None
                      and all(i in r.stdout for i in ids) and not any(a in r.stdout for a in absent))


def _refused_no(*words: str, absent: tuple[str, ...] = ()):
    """Refused in one line holding ``words`` and none of ``absent``."""
    return lambda r: _refused(*words)(r) and not any(w in r.stderr for w in absent)


def _owned_net(plan: str, network: str) -> str:
    return plan.replace("hosting: office", f"hosting: office\n    network: {network}")


def _chat(model: str) -> dict:
    return {"horizon_months": 6, "workloads": [{"name": "chat", "workload": {"task": "inference", "model": model, "prompt_tokens": 1000, "output_tokens": 200},
                                                "cadence": {"continuous": True, "hours_per_day": 24}, "targets": {"requests_per_s": 2}}]}


def add(case, ns: dict[str, Any]) -> None:
    rcase, _acase, pcase = doc_cases(case)
    plan, prop = ns["PLAN"], ns["PROP"]

    # ------------------------------------------------------------ the 2026 serving inputs combined badly
    rcase("srv49: speculative eagle3 on llama.cpp: answered, SRV-SPECULATIVE-UNSUPPORTED said", {"workload": {**SERVE8, "framework": "llama.cpp", "speculative": {"method": "eagle3"}}},
          _answered("SRV-SPECULATIVE-UNSUPPORTED"), argv=REC)
    rcase("srv49: speculative method 'EAGLE-3' (as the paper writes it): refused, eagle3 offered", {"workload": {**SERVE8, "speculative": {"method": "EAGLE-3"}}},
          _refused("r.yaml", "workload.speculative.method", "eagle3"))
    rcase("srv49: speculative method 'medusa' (not modelled): refused, the methods listed", {"workload": {**SERVE8, "speculative": {"method": "medusa"}}},
          _refused("r.yaml", "workload.speculative.method", "'medusa'", "eagle3"))
    rcase("srv49: quantization awq beside precision fp8: refused, int4 said", {"workload": {**SERVE8, "quantization": "awq", "precision": "fp8"}},
          _refused("r.yaml", "awq", "int4", "fp8"))
    rcase("srv49: quantization awq on DeepSeek-V3 (released in FP8; community AWQ releases exist): answered", {"workload": {"task": "inference", "model": "deepseek-v3", "quantization": "awq"}},
          _answered(), argv=("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json"))
    rcase("srv49: kv_precision fp4 (no FP4 KV cache modelled): refused, fp8 offered", {"workload": {**SERVE8, "kv_precision": "fp4"}},
          _refused("r.yaml", "workload.kv_precision", "fp8"))
    rcase("srv49: kv_precision 'fp8_e4m3' (vLLM's --kv-cache-dtype value): refused, fp8 offered", {"workload": {**SERVE8, "kv_precision": "fp8_e4m3"}},
          _refused("r.yaml", "workload.kv_precision", "did you mean fp8"))
    rcase("srv49: kv_precision 'nvfp4': refused, the choices listed", {"workload": {**SERVE8, "kv_precision": "nvfp4"}},
          _refused("r.yaml", "workload.kv_precision", "'nvfp4'"))
    rcase("srv49: disaggregated at concurrent_requests 1: SRV-DISAGGREGATED-ONE-COPY said", {"workload": {**SERVE8, "disaggregated": True, "concurrent_requests": 1}},
          _answered("SRV-DISAGGREGATED-ONE-COPY"), argv=REC)
    rcase("srv49: prefix_cache false with prefix_cache_hit_rate 0.5: refused", {"workload": {**SERVE8, "prefix_cache": False, "prefix_cache_hit_rate": 0.5}},
          _refused("r.yaml", "workload.prefix_cache_hit_rate", "prefix_cache"))
    rcase("srv49: p95_ttft_s with no request rate: answered, SRV-P95-TTFT-TARGET and SRV-RATE-AT-LOAD said", {"workload": {**SERVE8, "p95_ttft_s": 1.0}},
          _answered("SRV-P95-TTFT-TARGET", "SRV-RATE-AT-LOAD"), argv=REC)
    rcase("srv49: p95_tpot_s beside a request rate: answered", {"workload": {**SERVE8, "p95_tpot_s": 0.05, "requests_per_s": 2}}, _answered())

    # ------------------------------------------------------------ the training knobs: recomputation, kernels
    rcase("ckpt49: checkpoint_every_n_layers 0 (meaning none): refused, gradient_checkpointing false offered", {"workload": {**PRE8, "checkpoint_every_n_layers": 0}},
          _refused("r.yaml", "workload.checkpoint_every_n_layers", "gradient_checkpointing false"))
    rcase("ckpt49: checkpoint_every_n_layers 33 of Llama-3.1-8B's 32 layers: refused, the 32 layers said", {"workload": {**PRE8, "checkpoint_every_n_layers": 33}},
          _refused("r.yaml", "workload.checkpoint_every_n_layers", "32"))
    rcase("ckpt49: checkpoint_every_n_layers 64 of 32 layers, --lang zh: refused, the 32 layers said", {"workload": {**PRE8, "checkpoint_every_n_layers": 64}},
          _refused("r.yaml", "workload.checkpoint_every_n_layers", "32"), argv=("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh"))
    pcase("ckpt49: a plan's job with checkpoint_every_n_layers 100 of 32 layers: refused, the plan's field named",
          {"horizon_months": 6, "workloads": [{"name": "ft", "workload": {**LORA8, "checkpoint_every_n_layers": 100}, "cadence": {"per_month": 1}}]},
          _refused("plan.yaml", "workloads[0].workload.checkpoint_every_n_layers", "32"), argv=("plan", "plan.yaml"))
    rcase("ckpt49: checkpoint_every_n_layers 32 of 32 layers (one a stage): answered", {"workload": {**PRE8, "checkpoint_every_n_layers": 32}}, _answered())
    rcase("ckpt49: checkpoint_every_n_layers 2 beside gradient_checkpointing false: refused", {"workload": {**PRE8, "checkpoint_every_n_layers": 2, "gradient_checkpointing": False}},
          _refused("r.yaml", "workload.checkpoint_every_n_layers", "gradient_checkpointing"))
    rcase("kern49: attention_kernel fa3 (accepted since product61: FlashAttention-3, Hopper only): answered on an H100",
          {"workload": {**PRE8, "attention_kernel": "fa3"}}, _answered())
    rcase("kern49: attention_kernel 'flash' (FlashAttention as people say it): refused, fa2 offered", {"workload": {**PRE8, "attention_kernel": "flash"}},
          _refused("r.yaml", "workload.attention_kernel", "did you mean fa2"))
    rcase("kern49: attention_kernel 'flash_attention_2' (transformers' attn_implementation): refused, fa2 offered", {"workload": {**PRE8, "attention_kernel": "flash_attention_2"}},
          _refused("r.yaml", "workload.attention_kernel", "did you mean fa2"))
    rcase("kern49: attention_kernel 'flash-attn' (the package's name): refused, fa2 offered", {"workload": {**PRE8, "attention_kernel": "flash-attn"}},
          _refused("r.yaml", "workload.attention_kernel", "did you mean fa2"))
    rcase("kern49: attention_kernel cudnn on MI300X only (cuDNN is NVIDIA's): CPT-ATTENTION-KERNEL-DEVICE refuses it", {"workload": {**LORA8, "attention_kernel": "cudnn"}, "constraints": {"gpus": ["mi300x"]}},
          _answered("CPT-ATTENTION-KERNEL-DEVICE"), argv=REC)
    rcase("kern49: attention_kernel fa2 on V100 only (FlashAttention-2 builds from Ampere): CPT-ATTENTION-KERNEL-DEVICE", {"workload": {**LORA8, "attention_kernel": "fa2"}, "constraints": {"gpus": ["v100-32gb-sxm2"]}},
          _answered("CPT-ATTENTION-KERNEL-DEVICE"), argv=REC)
    rcase("kern49: attention_kernel fa2 on MI300X (flash-attn's ROCm backend): no kernel refusal", {"workload": {**LORA8, "attention_kernel": "fa2"}, "constraints": {"gpus": ["mi300x"]}},
          _answered(absent=("CPT-ATTENTION-KERNEL-DEVICE",)), argv=REC)
    rcase("kern49: attention_kernel 'sdpa' (PyTorch's dispatcher): refused, the field named", {"workload": {**PRE8, "attention_kernel": "sdpa"}},
          _refused("r.yaml", "workload.attention_kernel", "'sdpa'"))

    # ------------------------------------------------------------ stack names as users write them
    for given, meant in (("Megatron", "megatron"), ("NeMo 2", "nemo"), ("torchtitan==0.2", "torchtitan"), ("DeepSpeed ZeRO-3", "deepspeed"),
                         ("HF Trainer", "fsdp-hf"), ("accelerate", "fsdp-hf"), ("trl", "fsdp-hf"), ("transformers", "fsdp-hf")):
        rcase(f"stack49: stack {given!r}: refused, {meant} offered", {"workload": {**LORA8, "stack": given}},
              _refused("r.yaml", "workload.stack", f"did you mean {meant}?"))

    # ------------------------------------------------------------ models named by a quantized release
    rcase("model49: 'TheBloke/Llama-2-7B-AWQ' (a release of a catalog model): answered", {"workload": {"task": "inference", "model": "TheBloke/Llama-2-7B-AWQ"}}, _answered())
    rcase("model49: 'unsloth/Llama-3.3-70B-Instruct-bnb-4bit': answered", {"workload": {"task": "inference", "model": "unsloth/Llama-3.3-70B-Instruct-bnb-4bit"}}, _answered())
    rcase("model49: 'Meta-Llama-3.1-8B-Instruct-AWQ-INT4' beside precision bf16: refused, int4 said", {"workload": {**SERVE8, "model": "Meta-Llama-3.1-8B-Instruct-AWQ-INT4"}},
          _refused("r.yaml", "workload.model", "int4"))
    rcase("model49: 'Yi-1.5-34B-Chat-GPTQ' (not in the catalog): refused, params_b 34 offered from its name", {"workload": {"task": "inference", "model": "Yi-1.5-34B-Chat-GPTQ"}},
          _refused("r.yaml", "workload.model", "params_b", "34, as its name says"))

    # ------------------------------------------------------------ a plan's owned network and an overlay's model
    for given, meant in (("infiniband-40", "infiniband-400"), ("ethernet10", "ethernet-10"), ("InfiniBand NDR", "infiniband-400"),
                         ("HDR InfiniBand", "infiniband-200"), ("RoCE v2 400G", "roce-400"), ("10 GbE", "ethernet-10")):
        case(f"net49: a plan's owned network {given!r}: refused, {meant} offered", {"plan.yaml": _owned_net(plan, given)}, ["plan", "plan.yaml"], expect="any",
             check=_refused_no("plan.yaml", "owned[0].network", meant, absent=("one of",)))
    pcase("kb49: a plan's model only a --knowledge overlay defines, the overlay given: planned", _chat("acme-1b"),
          lambda r: r.returncode in (0, 1) and _one(r) and _json(r) is not None, argv=("plan", "plan.yaml", "--knowledge", "kb", "--format", "json"), files={"kb/models.yaml": ACME})
    pcase("kb49: the same without --knowledge: refused, the model named", _chat("acme-1b"),
          _refused("plan.yaml", "workloads[0].workload.model", "acme-1b"), argv=("plan", "plan.yaml"), files={"kb/models.yaml": ACME})

    # ------------------------------------------------------------ price CSVs in gpuhunt's catalog layout, proposal folders
    case("csv49: gpuhunt's catalog header (cpu, memory, disk_size, gpu_vendor, flags): imported", {"c.csv": GPUHUNT + "p5.48xlarge,us-east-1,98.32,192,2048,8,H100,80.0,False,,nvidia,\n"},
         IMPORT, expect="any", check=lambda r: r.returncode == 0 and (r.cwd / "ov" / "clouds.yaml").exists())
    case("csv49: gpuhunt's catalog with a CPU-only row: the GPU row imported", {"c.csv": GPUHUNT + "m5.large,us-east-1,0.096,2,8,0,,,False,,,\np5.48xlarge,us-east-1,98.32,192,2048,8,H100,80.0,False,,nvidia,\n"},
         IMPORT, expect="any", check=lambda r: r.returncode == 0 and "h100" in (r.cwd / "ov" / "clouds.yaml").read_text().lower())
    case("dir49: a proposals folder with a README.md, a PNG and a PDF: the one proposal audited", {"ps/a.yaml": prop, "ps/README.md": "# our proposals\n", "ps/rack.png": b"\x89PNG\r\n\x1a\n\0\0", "ps/quote.pdf": b"%PDF-1.4\n"},
         ["audit", "ps"], expect="any", check=lambda r: r.returncode in (0, 1) and "APPROVE" in r.stdout and not r.stderr.strip())
    case("dir49: a folder of a README and a JPEG only: refused, no proposal files", {"ps/README.md": "# x\n", "ps/a.jpg": b"\xff\xd8\xff"}, ["audit", "ps"], expect="any",
         check=_refused("ps", "no proposal files"))

    # ------------------------------------------------------------ commands asked in a user's words
    case("fmt49: --format json -o out.md: --format wins (docs/formats.md), JSON written, the disagreement said", {"r.yaml": "workload: " + json.dumps(SERVE8) + "\n"}, ["recommend", "r.yaml", "--format", "json", "-o", "out.md"],
         expect="any", check=lambda r: r.returncode in (0, 1) and _one(r) and "--format" in r.stderr and (r.cwd / "out.md").read_text().startswith("{"))
    case("fmt49: -o out.pdf and no --format: refused, nothing written", {"r.yaml": "workload: " + json.dumps(SERVE8) + "\n"}, ["recommend", "r.yaml", "-o", "out.pdf"],
         expect="any", check=lambda r: _refused("out.pdf", ".md")(r) and not (r.cwd / "out.pdf").exists())
    case("explain49: explain memory (a topic): refused, the memory rules named", {}, ["explain", "memory"], expect="any",
         check=_refused_no("memory", "MEM-FITS", absent=("USED-MEMORY-HOT",)))
    case("explain49: explain serving (a topic): refused, the SRV- rules named", {}, ["explain", "serving"], expect="any",
         check=_refused_no("serving", "SRV-", absent=("USED-THROTTLING",)))
    case("explain49: explain Serving --lang zh: refused, the SRV- rules named", {}, ["explain", "Serving", "--lang", "zh"], expect="any",
         check=_refused_no("SRV-", absent=("USED-THROTTLING",)))
    case("explain49: explain SRV (an id's prefix): refused, the SRV- rules named", {}, ["explain", "SRV"], expect="any",
         check=_refused("'SRV'", "rules, not one", "SRV-P95-TTFT-TARGET"))  # 16 since product61
    case("explain49: explain mem-fits (lower case): explained", {}, ["explain", "mem-fits"], expect="ok", check=lambda r: "MEM-FITS" in r.stdout)
    case("explain49: explain MEM-FIT (one letter short): refused, MEM-FITS offered", {}, ["explain", "MEM-FIT"], expect="any", check=_refused("MEM-FITS"))
    case("cli49: rules --topic memory: refused in one line", {}, ["rules", "--topic", "memory"], expect="any", check=_refused("--topic"))
    case("cli49: gpus --sort tflops: refused in one line", {}, ["gpus", "--sort", "tflops"], expect="any", check=_refused("--sort"))
