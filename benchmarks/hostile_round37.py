# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-seven of the hostile corpus: session 36's merges used as a careless or hostile author would --
``gradient_checkpointing: selective_op`` on a MoE given by its architecture in JSON, in another case, with a trailing
space, on a service, on Mixtral in a plan and on DeepSeek-V3 in recommend; a models.yaml overlay of GLM-5's
``sparse_attention.indexer_layers`` (past its 78 layers, negative, a list with a layer twice, the key twice,
misspelt, on a model with no block, GLM-5.2's 21); ``alias_checkpoints`` overlays (an unknown precision, another
model's alias, Kimi K2.6 in a second group of another precision, no aliases); an audit's provider-only rental
(another provider's instance, 0 nodes, a rate of -1 or NaN, the instance matched by its nodes); host RAM stated
past a DGX Spark's one 128 GB memory, bought or owned, and owned servers' ``host_ram_gb`` of 0 or text; a
clouds.yaml offer's ``min_gpus`` above its ``max_gpus`` or of 1e9; ``plan --fx-rate`` and ``gpuwise.plan(fx_rate=)``
from Python; a plan whose only offer is an 8-GPU instance for a job of one sequence; a p95 TTFT of 0 and of 1e-9
at 1e7 requests a second -- through estimate, recommend, audit, plan, prices and the Python API. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on hostile37's branch before its fixes (main at e3d01a96): 35 cases, 28 clean; on this branch 35 of 35.
Fixed:

* ``gpuwise.plan(fx_rate=0)`` stopped with ZeroDivisionError from inside the plan and ``fx_rate='abc'`` with
  float()'s ValueError (-1, NaN, inf and True were taken as rates); the Python API checks fx_rate as --fx-rate
  does and raises the package's one-line UserError naming it.
* ``hardware.host_ram_gb: 1000`` on one DGX Spark (its 128 GB is the host's memory too) passed an 8B offload of
  141 GB as held (audit exit 0), and a plan's owned GB10 took 200 GB a server; both are refused by their field.
* a clouds.yaml offer's ``min_gpus: 16`` with ``max_gpus: 8`` was listed 'per GPU (16 to 8 GPUs)' and rented as 16,
  ``min_gpus: 1e9`` as a billion GPUs, 0 and -8 as one; min_gpus is bounded and never above max_gpus now.
* an overlay's ``alias_checkpoints`` group naming Kimi-K2.6 nvfp4 was added after models.yaml's int4 group naming
  it and never read, silently; an alias two groups name in two precisions is refused.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from benchmarks.hostile_givens import api_fx_refused
from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round21 import _finite_json
from benchmarks.hostile_round25 import _doc, _feasible, _rules
from benchmarks.hostile_round28 import doc_cases

FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}
FT70, FT8 = {**FT, "model": "llama-3.1-70b"}, {**FT, "model": "llama-3.1-8b"}
SAC = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 4096, "train_tokens": 1.0e8, "gradient_checkpointing": "selective_op"}
MOE_ARCH = {"layers": 24, "hidden_size": 2048, "heads": 16, "kv_heads": 4, "ffn_size": 1024, "vocab_size": 151936, "experts": 64, "experts_per_token": 8, "active_params_b": 3.0}
GLM5 = {"task": "inference", "model": "glm-5", "framework": "vllm", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
K26 = {"task": "inference", "model": "Kimi K2.6", "framework": "sglang", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
RATE = {"task": "inference", "model": "llama-3.1-8b", "framework": "vllm", "precision": "bf16", "prompt_tokens": 1000, "output_tokens": 200}
AWS = {"mode": "rent", "provider": "aws", "months": 1}
H100X16 = {"gpu": "h100", "count": 16, "nodes": 2}
LORA = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
SPARK = {"title": "t", "workload": {**FT8, "zero_stage": 2}, "hardware": {"gpu": "gb10", "count": 1, "host_ram_gb": 1000}, "acquisition": {"mode": "buy"}}
ONE_SEQ = {"task": "finetune", "method": "lora", "model": "llama-3.2-1b", "seq_len": 4096, "global_batch_tokens": 4096, "train_tokens": 2.0e7}


def _kb(name: str, body: str) -> dict:
    return {f"kb/{name}": body}


def _glm5(text: str) -> dict:
    return _kb("models.yaml", "models:\n  - id: glm-5\n    sparse_attention:\n" + text)


def _offer(sizes: str) -> dict:
    return _kb("clouds.yaml", "gpu_hour_prices:\n  - provider: runpod\n    gpu: h100-80gb-sxm\n    usd_per_gpu_hour: 1.10\n"
               f"    {sizes}\n    as_of: 2026-11-01\n    source: our own quote, 2026-11\n    check: U\n")


def _est(gpu: str, n: int, *, kb: bool = True, fname: str = "r.yaml") -> tuple[str, ...]:
    return ("estimate", fname, "--gpu", gpu, "--gpus", str(n), "--format", "json", *(("--knowledge", "kb") if kb else ()))


def _plan(workloads: list[dict], owned: list[dict] | None = None, **constraints: Any) -> dict:
    return {"horizon_months": 3, "workloads": workloads, **({"owned": owned} if owned else {}),
            "constraints": {"acquisition": "rent", "gpus": ["h100"], **constraints}}


def _ft(workload: dict, month: int = 1) -> list[dict]:
    return [{"name": "ft", "workload": workload, "cadence": {"at_month": month}}]


def _api_refused(fx_rate: Any):
    return api_fx_refused("plan", "plan.yaml", fx_rate)


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan_text = ("plan", "plan.yaml")
    chat = [{"name": "lora", "workload": LORA, "cadence": {"per_month": 1}}]

    # ------------------------------------------------------------ per-op selective checkpointing (selective_op)
    case("sac37: selective_op on a MoE given by its architecture (JSON): refused by its field",
         {"r.json": json.dumps({"workload": {**SAC, "params_b": 30.0, "architecture": MOE_ARCH}})}, ["estimate", "r.json", "--gpu", "h100", "--gpus", "8", "--format", "json"],
         expect="any", check=_refused("r.json", "workload.gradient_checkpointing", "dense models"))
    rcase("sac37: 'Selective_Op' in another case: refused, selective_op named", {"workload": {**SAC, "model": "llama-3.1-8b", "gradient_checkpointing": "Selective_Op"}},
          _refused("r.yaml", "workload.gradient_checkpointing", "'selective_op'"))
    rcase("sac37: 'selective_op ' with a trailing space: refused, selective_op named", {"workload": {**SAC, "model": "llama-3.1-8b", "gradient_checkpointing": "selective_op "}},
          _refused("r.yaml", "workload.gradient_checkpointing", "'selective_op'"))
    rcase("sac37: selective_op on a service: refused as a training setting", {"workload": {**RATE, "concurrent_requests": 1, "gradient_checkpointing": "selective_op"}},
          _refused("r.yaml", "workload.gradient_checkpointing", "training setting"))
    pcase("sac37: selective_op on Mixtral in a plan: refused by the plan's field", _plan(_ft({**SAC, "model": "mixtral-8x7b"})),
          _refused("plan.yaml", "workloads[0].workload.gradient_checkpointing", "dense models"), argv=plan_text)
    rcase("sac37: selective_op on DeepSeek-V3 (MLA) in recommend: refused", {"workload": {**SAC, "model": "deepseek-v3"}},
          _refused("r.yaml", "workload.gradient_checkpointing", "dense models"), argv=("recommend", "r.yaml", "--format", "json"))

    # ------------------------------------------------------------ a models.yaml overlay of sparse_attention.indexer_layers (GLM-5: 78 layers)
    g5 = _est("h200", 8)
    rcase("idx37: indexer_layers 100 of 78 layers: refused", {"workload": GLM5}, _refused("kb/models.yaml", "indexer_layers exceeds layers"), argv=g5, files=_glm5("      indexer_layers: 100\n"))
    rcase("idx37: indexer_layers -21: refused by its field", {"workload": GLM5}, _refused("kb/models.yaml", "sparse_attention.indexer_layers"), argv=g5, files=_glm5("      indexer_layers: -21\n"))
    rcase("idx37: indexer_layers as a list with a layer twice [3, 7, 7]: refused by its field", {"workload": GLM5}, _refused("kb/models.yaml", "sparse_attention.indexer_layers"), argv=g5,
          files=_glm5("      indexer_layers: [3, 7, 7]\n"))
    rcase("idx37: indexer_layers given twice in the block: refused, the key named", {"workload": GLM5}, _refused("kb/models.yaml", "indexer_layers"), argv=g5,
          files=_glm5("      indexer_layers: 21\n      indexer_layers: 40\n"))
    rcase("idx37: 'indexer_layer' misspelt: indexer_layers offered", {"workload": GLM5}, _refused("kb/models.yaml", "did you mean 'indexer_layers'?"), argv=g5, files=_glm5("      indexer_layer: 21\n"))
    rcase("idx37: indexer_layers on Llama 3.1 8B (no sparse_attention block): refused by the block", {"workload": {**GLM5, "model": "llama-3.1-8b", "precision": "bf16"}},
          _refused("kb/models.yaml", "sparse_attention"), argv=_est("h100", 1), files=_kb("models.yaml", "models:\n  - id: llama-3.1-8b\n    sparse_attention:\n      indexer_layers: 8\n"))
    rcase("idx37: indexer_layers 21 of 78 (GLM-5.2's IndexShare): answered, finite", {"workload": GLM5}, _finite_json, argv=g5, files=_glm5("      indexer_layers: 21\n"))

    # ------------------------------------------------------------ a models.yaml overlay of alias_checkpoints (Kimi K2.6)
    k26 = _est("h200", 8)
    group = "models:\n  - id: kimi-k2\n    alias_checkpoints:\n      - {{aliases: [{alias}], precision: {precision}, source: ours}}\n"
    rcase("aliasck37: precision 'int3': refused, the precisions listed", {"workload": K26}, _refused("kb/models.yaml", "alias_checkpoints[0].precision", "'int4'"), argv=k26,
          files=_kb("models.yaml", group.format(alias="kimi k2.6", precision="int3")))
    rcase("aliasck37: another model's alias (glm-5.1): refused by the alias", {"workload": K26}, _refused("kb/models.yaml", "alias_checkpoints[0].aliases[0]", "not one of kimi-k2's aliases"), argv=k26,
          files=_kb("models.yaml", group.format(alias="glm-5.1", precision="int4")))
    rcase("aliasck37: Kimi-K2.6 nvfp4 beside models.yaml's int4 group: refused, both named", {"workload": K26}, _refused("kb/models.yaml", "alias_checkpoints[0].aliases[0]", "int4 and nvfp4"), argv=k26,
          files=_kb("models.yaml", group.format(alias="Kimi-K2.6", precision="nvfp4")))
    rcase("aliasck37: aliases an empty list: refused by its field", {"workload": K26}, _refused("kb/models.yaml", "alias_checkpoints[0].aliases"), argv=k26,
          files=_kb("models.yaml", "models:\n  - id: kimi-k2\n    alias_checkpoints:\n      - {aliases: [], precision: int4, source: ours}\n"))

    # ------------------------------------------------------------ an audit's provider, nodes and rate (provider-only matching)
    acase("prov37: provider aws with GCP's a3-highgpu-8g: refused, gcp named", {"title": "t", "workload": FT70, "hardware": {"gpu": "h100", "count": 8}, "acquisition": {**AWS, "instance": "a3-highgpu-8g"}},
          _refused("p.yaml", "acquisition.instance", "rented from gcp"))
    acase("prov37: nodes 0: refused by its field", {"title": "t", "workload": FT70, "hardware": {**H100X16, "nodes": 0}, "acquisition": AWS}, _refused("p.yaml", "hardware.nodes"))
    acase("prov37: hourly_usd -1 over two nodes: refused by its field", {"title": "t", "workload": FT70, "hardware": H100X16, "acquisition": {**AWS, "hourly_usd": -1}}, _refused("p.yaml", "acquisition.hourly_usd"))
    acase("prov37: hourly_usd NaN over two nodes: refused as not finite", {"title": "t", "workload": FT70, "hardware": H100X16, "acquisition": {**AWS, "hourly_usd": float("nan")}},
          _refused("p.yaml", "acquisition.hourly_usd", "finite"))
    acase("prov37: aws, 16 H100 on two nodes, no instance: p5.48xlarge matched by its nodes, said", {"title": "t", "workload": FT70, "hardware": H100X16, "acquisition": AWS},
          _doc(lambda d: [(a["value"], a["message_id"]) for a in d["assumptions"] if a["field"] == "acquisition.instance"] == [("p5.48xlarge", "assume.instance.nodes")]))

    # ------------------------------------------------------------ host RAM: a DGX Spark's one memory, owned servers
    acase("spark37: 1,000 GB host RAM stated on one DGX Spark (128 GB shared): refused by its field", SPARK, _refused("p.yaml", "hardware.host_ram_gb", "128 GB in all"))
    pcase("spark37: owned 2 GB10 with 200 GB host RAM each: refused by its field", _plan(_ft(FT8), owned=[{"gpu": "gb10", "count": 2, "host_ram_gb": 200}]),
          _refused("plan.yaml", "owned[0].host_ram_gb", "128 GB in all"), argv=plan_text)
    for label, ram in (("0", 0), ("'lots'", "lots")):
        pcase(f"own37: owned host_ram_gb {label}: refused by its field", _plan(_ft(FT8), owned=[{"gpu": "l4", "count": 1, "host_ram_gb": ram}], gpus=["l4"]),
              _refused("plan.yaml", "owned[0].host_ram_gb"), argv=plan_text)

    # ------------------------------------------------------------ a clouds.yaml overlay's offer size (the prices listing's GPU counts)
    prices = ("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb")
    case("min37: min_gpus 16 above max_gpus 8: refused, not listed '16 to 8 GPUs'", _offer("min_gpus: 16\n    max_gpus: 8"), list(prices), expect="any",
         check=_refused("kb/clouds.yaml", "gpu_hour_prices[0]", "min_gpus 16 is more than max_gpus 8"))
    case("min37: min_gpus 1e9: refused by its bound, not a billion GPUs rented", {**_offer("min_gpus: 1000000000"), "r.yaml": json.dumps({"workload": FT70})}, ["recommend", "r.yaml", "--format", "json", "--knowledge", "kb"], expect="any",
         check=_refused("kb/clouds.yaml", "gpu_hour_prices[0].min_gpus"))

    # ------------------------------------------------------------ --fx-rate on the command line, fx_rate from Python
    for label in ("0", "abc"):
        pcase(f"fx37: plan --fx-rate {label}, -o plan.html: refused, no file", _plan(chat), lambda r: _refused("--fx-rate")(r) and not Path(r.cwd, "plan.html").exists(),
              argv=("plan", "plan.yaml", "--fx-rate", label, "-o", "plan.html"))
    for label, rate in (("0", 0), ("'abc'", "abc")):
        pcase(f"fx37: gpuwise.plan(fx_rate={label}) from Python: the package's one-line error", _plan(chat), _api_refused(rate), argv=("plan", "plan.yaml", "--format", "json"))

    # ------------------------------------------------------------ a per-instance offer, and a serving target no GPU meets
    pcase("inst37: a 1-sequence LoRA rented only on V100 32GB (AWS's 8-GPU p3dn.24xlarge alone): the whole instance paid and used",
          _plan(_ft(ONE_SEQ), gpus=["v100-32gb-sxm2"]),
          _doc(lambda d: [(o["gpu"], o["count"], o["rent_count"]) for o in d["options"]] == [("v100-32gb-sxm2", 8, 8)]
               and abs(d["months"][0]["rent"] - 31.212 * d["options"][0]["rent_wall_hours"]) < 0.01))
    rcase("tgt37: p95_ttft_s 0: refused by its field", {"workload": {**RATE, "requests_per_s": 1, "p95_ttft_s": 0}}, _refused("r.yaml", "workload.p95_ttft_s"))
    rcase("tgt37: p95_ttft_s 1e-9 at 1e7 requests/s: nothing feasible, the target said", {"workload": {**RATE, "requests_per_s": 1e7, "p95_ttft_s": 1e-9}},
          lambda r: r.returncode == 1 and _doc(lambda d: not _feasible(d) and "SRV-P95-TTFT-TARGET" in _rules(d))(r), argv=("recommend", "r.yaml", "--format", "json"))
