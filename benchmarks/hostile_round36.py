# ruff: noqa: E501  (a table of cases: one case a line reads better than wrapped)
"""Round thirty-six of the hostile corpus: ``gpuwise plan`` asked for a team's months the way a careless or hostile
author writes the file -- a horizon of 0 months, a run after it, a job of zero tokens, budgets of 0, NaN, 1e30 and
'$1e30', owned GPUs of another type than the plan may rent, 500 workloads, a name used twice, an end before the
start, a name with a right-to-left override, offloaded fine-tunes rented only on L4s (the one-GPU g6.xlarge's 16 GiB
against two g6.48xlarge) or bought only (RTX 3090, H200), an aliased model served -- and session 35's merges:
runtime.yaml ``rented_host_ram`` overlays (an instance of 0 or text GiB, ``threads_per_core: 0``, a segment's
negative RAM), ``training.mfu_by_gpu`` named by no id or set to 0 / 5.0, an audit's instance with a trailing space or
holding fewer GPUs than the node, the ten instances whose RAM session 35 read (g6.xlarge, a2-ultragpu-1g), and model
aliases in another case or with a quantization suffix -- through estimate, audit and plan. Added to
benchmarks/hostile_corpus.py's table by :func:`add`.

Run on hostile36's branch before its fixes (main at 31adc481): 34 cases, 26 clean; on this branch 34 of 34.
Fixed:

* an overlay's ``rented_host_ram.instance_gib g6.xlarge: 0`` (or -16) was read as 'no figure' and the one-L4 instance
  judged on the typical 225 GB a datacenter GPU, so the 8B offload it cannot hold was no longer blocked;
  ``threads_per_core: 0`` stopped with 'internal error: ZeroDivisionError'; a negative figure passed any floor of
  runtime.yaml, and 0 any floor above it. Both are refused by their field now.
* ``mfu_by_gpu`` named 'H20' was offered l20, and 'h20-96gb' gh200-96gb; both are offered h20-96gb-sxm now.
* a plan that may only buy answered 'Buy 1 x RTX 3090' for a 70B full fine-tune with CPU offload with no word on
  the 1,411 GB of host RAM a typical consumer server (62 GB) lacks; it lists MEM-HOST-RAM-BUY as recommend does.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks.hostile_round12 import _refused
from benchmarks.hostile_round25 import _doc, _rules
from benchmarks.hostile_round28 import doc_cases
from benchmarks.hostile_round33 import _assumed

LORA = {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096, "train_tokens": 2.0e8}
FT = {"task": "finetune", "method": "full", "precision": "bf16", "seq_len": 2048, "zero_stage": 3, "offload": "cpu", "train_tokens": 2.0e7, "gradient_checkpointing": True}
FT70, FT8 = {**FT, "model": "llama-3.1-70b"}, {**FT, "model": "llama-3.1-8b"}
SERVE = {"task": "inference", "model": "GLM-5.1", "framework": "sglang", "precision": "fp8", "prompt_tokens": 1000, "output_tokens": 1000, "concurrent_requests": 1}
AWS = {"mode": "rent", "provider": "aws", "months": 1}
GCP = {"mode": "rent", "provider": "gcp", "months": 1}
G6 = {"title": "t", "workload": FT8, "hardware": {"gpu": "l4", "count": 1}, "acquisition": {**AWS, "instance": "g6.xlarge"}}
AUDIT_KB = ("audit", "p.yaml", "--format", "json", "--knowledge", "kb")
MFU = "training:\n  mfu_by_gpu:\n    {gpu}:\n      value: {value}\n      source: ours\n"


def _kb(name: str, body: str) -> dict:
    return {f"kb/{name}": body}


def _ram(text: str) -> dict:
    return _kb("runtime.yaml", "rented_host_ram:\n  " + text + "\n")


def _plan(workloads: list[dict], **constraints: Any) -> dict:
    return {"horizon_months": 3, "workloads": workloads, "constraints": {"acquisition": "rent", "gpus": ["rtx-4090"], **constraints}}


def _lora(**edit: Any) -> dict:
    return {"name": "lora-8b", "workload": LORA, "cadence": {"per_month": 1}, "deadline_days": 3, **edit}


def _ft(workload: dict, month: int = 1) -> list[dict]:
    return [{"name": "ft", "workload": workload, "cadence": {"at_month": month}}]


def _options(d: dict, workload: str = "ft") -> list[tuple[str, int]]:
    return [(o["gpu"], o["count"]) for o in d["options"] if o["workload"] == workload]


def _findings(d: dict, rule: str) -> list[dict]:
    return [f for f in d.get("findings", []) if f["rule"] == rule]


def _refused_no_file(name: str, *words: str):
    """Refused in one line naming ``words``, and no output file ``name`` left behind."""
    return lambda r: _refused(*words)(r) and not Path(r.cwd, name).exists()


def _escaped_rtl(r) -> bool:
    """Answered in text, the right-to-left override of a name written escaped, never raw."""
    return r.returncode in (0, 1) and "Traceback" not in r.stderr and "\u202e" not in r.stdout and "\\u202e" in r.stdout


def _resolved(model_id: str, note: str = "name.alias"):
    return _doc(lambda d: d["workload"]["resolved_model"]["id"] == model_id and note in _assumed(d, "workload.model"))


def add(case, ns: dict[str, Any]) -> None:
    rcase, acase, pcase = doc_cases(case)
    plan_text = ("plan", "plan.yaml")

    # ------------------------------------------------------------ a team's months, written carelessly
    pcase("plan36: horizon_months 0: refused by its field", {**_plan([_lora()]), "horizon_months": 0}, _refused("plan.yaml", "horizon_months"), argv=plan_text)
    pcase("plan36: at_month 4 of a 3-month horizon: refused", _plan([_lora(cadence={"at_month": 4})]), _refused("plan.yaml", "workloads[0].cadence.at_month", "after the horizon"), argv=plan_text)
    pcase("plan36: a job of zero tokens: refused by its field", _plan([_lora(workload={**LORA, "train_tokens": 0})]), _refused("plan.yaml", "workloads[0].workload.train_tokens"), argv=plan_text)
    pcase("plan36: budget_total_usd 0, -o plan.html: refused, no file", _plan([_lora()], budget_total_usd=0), _refused_no_file("plan.html", "plan.yaml", "constraints.budget_total_usd"), argv=("plan", "plan.yaml", "-o", "plan.html"))
    pcase("plan36: budget_per_quarter_usd NaN: refused as not finite", _plan([_lora()], budget_per_quarter_usd=float("nan")), _refused("plan.yaml", "constraints.budget_per_quarter_usd", "finite"), argv=plan_text)
    pcase("plan36: budget_total_usd 1e30: refused by its bound", _plan([_lora()], budget_total_usd=1e30), _refused("plan.yaml", "constraints.budget_total_usd"), argv=plan_text)
    pcase("plan36: budget_total_usd '$1e30', -o plan.md: refused, no file", _plan([_lora()], budget_total_usd="$1e30"), _refused_no_file("plan.md", "plan.yaml", "constraints.budget_total_usd"), argv=("plan", "plan.yaml", "-o", "plan.md"))
    pcase("plan36: owned 8 B200, the plan may rent only 4090s: the owned carry it, nothing rented", {**_plan([_lora()]), "owned": [{"gpu": "b200", "count": 8}]},
          _doc(lambda d: not d["purchases"] and all(m["rent"] == 0 for m in d["months"]) and all(m["fleet"] == {"b200": 8} for m in d["months"])))
    pcase("plan36: 500 workloads: refused, counted", _plan([_lora(name=f"j{i}") for i in range(500)]), _refused("plan.yaml", "workloads", "500"), argv=plan_text)
    pcase("plan36: a workload name used twice: refused", _plan([_lora(), _lora()]), _refused("plan.yaml", "workloads[1].name", "used twice"), argv=plan_text)
    pcase("plan36: end_month before start_month: refused", _plan([_lora(cadence={"per_month": 1, "start_month": 3, "end_month": 2})]), _refused("plan.yaml", "workloads[0].cadence", "end_month"), argv=plan_text)
    pcase("plan36: deadline_days NaN: refused as not finite", _plan([_lora(deadline_days=float("nan"))]), _refused("plan.yaml", "workloads[0].deadline_days", "finite"), argv=plan_text)
    pcase("plan36: a name with a right-to-left override and an emoji: the text escapes the override", _plan([_lora(name="微调\u202e-🚀")]), _escaped_rtl, argv=plan_text)
    pcase("plan36: 70B offload rented only on L4s: two g6.48xlarge (825 GB each for 705), not one", _plan(_ft(FT70), gpus=["l4"]),
          _doc(lambda d: _options(d) == [("l4", 16)] and d["options"][0]["rent_provider"] == "aws"))
    pcase("plan36: 8B offload rented only on L4s: never the one-L4 instances of 16 GiB (161 GB needed)", _plan(_ft(FT8), gpus=["l4"]),
          _doc(lambda d: len(_options(d)) == 1 and _options(d)[0][1] >= 2 and not d["unplaced"]))
    pcase("plan36: 70B offload bought only on 3090s: MEM-HOST-RAM-BUY said of the run (1,411 GB, a typical server 62)", _plan(_ft(FT70, 3), acquisition="buy", gpus=["rtx-3090"]),
          _doc(lambda d: [(f["subject"], round(f["values"]["typical_host_ram_gb"])) for f in _findings(d, "MEM-HOST-RAM-BUY")] == [("ft", 62)]))
    pcase("plan36: 8B offload bought only on H200s: held by a typical server, only the RAM to plan said", _plan(_ft(FT8, 3), acquisition="buy", gpus=["h200"]),
          _doc(lambda d: not _findings(d, "MEM-HOST-RAM-BUY") and len(_findings(d, "MEM-HOST-RAM-NEEDED")) == 1))
    pcase("plan36: GLM-5.1 served: priced as glm-5, the alias said", _plan([{"name": "chat", "workload": {k: v for k, v in SERVE.items() if k != "concurrent_requests"}, "cadence": {"continuous": True}, "targets": {"requests_per_s": 0.1}}], gpus=["h200"]),
          _doc(lambda d: any(a["field"] == "chat: workload.model" and a["message_id"] == "name.alias" for a in d["assumptions"])))
    pcase("plan36: an overlay giving g6.48xlarge 0 GiB: refused by its field", _plan(_ft(FT70), gpus=["l4"]), _refused("kb/runtime.yaml", "rented_host_ram.instance_gib.g6.48xlarge"),
          argv=("plan", "plan.yaml", "--knowledge", "kb"), files=_ram("instance_gib: {g6.48xlarge: 0}"))

    # ------------------------------------------------------------ an audit's rented instance
    acase("inst36: 'p4d.24xlarge ' with a trailing space: the close match", {"title": "t", "workload": FT70, "hardware": {"gpu": "a100-40gb-sxm", "count": 8}, "acquisition": {**AWS, "instance": "p4d.24xlarge "}},
          _refused("p.yaml", "acquisition.instance", "did you mean p4d.24xlarge?"))
    acase("inst36: a3-highgpu-2g holding 4 H100 a node: refused, two nodes offered", {"title": "t", "workload": FT8, "hardware": {"gpu": "h100", "count": 4}, "acquisition": {**GCP, "instance": "a3-highgpu-2g"}},
          _refused("p.yaml", "acquisition.instance", "hardware.nodes: 2"))
    acase("inst36: 8B offload on one g6.xlarge (16 GiB): MEM-HOST-RAM-SHORT", G6, _doc(lambda d: "MEM-HOST-RAM-SHORT" in _rules(d)))
    acase("inst36: 8B offload on one a2-ultragpu-1g (170 GiB = 182 GB for 161): no host-RAM blocker", {"title": "t", "workload": FT8, "hardware": {"gpu": "a100-80gb-sxm", "count": 1}, "acquisition": {**GCP, "instance": "a2-ultragpu-1g"}},
          _doc(lambda d: "MEM-HOST-RAM-SHORT" not in _rules(d)))

    # ------------------------------------------------------------ a runtime.yaml overlay of rented_host_ram
    acase("ram36: instance_gib g6.xlarge 0: refused, the blocker kept", G6, _refused("kb/runtime.yaml", "rented_host_ram.instance_gib.g6.xlarge", "unit slip"), argv=AUDIT_KB, files=_ram("instance_gib: {g6.xlarge: 0}"))
    acase("ram36: instance_gib g6.xlarge 'lots': refused by its field", G6, _refused("kb/runtime.yaml", "rented_host_ram.instance_gib.g6.xlarge"), argv=AUDIT_KB, files=_ram("instance_gib: {g6.xlarge: lots}"))
    acase("ram36: threads_per_core 0: refused, no division by zero", G6, _refused("kb/runtime.yaml", "rented_host_ram.threads_per_core"), argv=AUDIT_KB, files=_ram("threads_per_core: 0"))
    acase("ram36: per_gpu_gb datacenter -225: refused by its field", G6, _refused("kb/runtime.yaml", "rented_host_ram.per_gpu_gb.datacenter"), argv=AUDIT_KB, files=_ram("per_gpu_gb: {datacenter: -225}"))

    # ------------------------------------------------------------ a runtime.yaml overlay of training.mfu_by_gpu
    ft_h20 = ("estimate", "r.yaml", "--gpu", "h20", "--format", "json", "--knowledge", "kb")
    rcase("mfu36: mfu_by_gpu 'H20': h20-96gb-sxm offered", {"workload": FT8}, _refused("kb/runtime.yaml", "training.mfu_by_gpu", "did you mean h20-96gb-sxm?"), argv=ft_h20, files=_kb("runtime.yaml", MFU.format(gpu="H20", value=0.5)))
    rcase("mfu36: mfu_by_gpu 'h20-96gb': h20-96gb-sxm offered", {"workload": FT8}, _refused("kb/runtime.yaml", "training.mfu_by_gpu", "did you mean h20-96gb-sxm?"), argv=ft_h20, files=_kb("runtime.yaml", MFU.format(gpu="h20-96gb", value=0.5)))
    rcase("mfu36: mfu_by_gpu h20-96gb-sxm 0: refused by its field", {"workload": FT8}, _refused("kb/runtime.yaml", "training.mfu_by_gpu.h20-96gb-sxm.value"), argv=ft_h20, files=_kb("runtime.yaml", MFU.format(gpu="h20-96gb-sxm", value=0)))
    rcase("mfu36: mfu_by_gpu h20-96gb-sxm 5.0: refused by its field", {"workload": FT8}, _refused("kb/runtime.yaml", "training.mfu_by_gpu.h20-96gb-sxm.value"), argv=ft_h20, files=_kb("runtime.yaml", MFU.format(gpu="h20-96gb-sxm", value=5.0)))

    # ------------------------------------------------------------ model aliases as a buyer spells them
    node = ("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json")
    rcase("alias36: 'glm-5.1' in lower case: glm-5, the alias said", {"workload": {**SERVE, "model": "glm-5.1"}}, _resolved("glm-5"), argv=node)
    rcase("alias36: 'GLM-5.1-FP8' (a quantization suffix): glm-5, the alias said", {"workload": {**SERVE, "model": "GLM-5.1-FP8"}}, _resolved("glm-5"), argv=node)
    rcase("alias36: 'KIMI K2.6' in capitals: kimi-k2, the alias and its INT4 release said", {"workload": {**SERVE, "model": "KIMI K2.6"}}, _resolved("kimi-k2", "name.alias_checkpoint"), argv=node)
