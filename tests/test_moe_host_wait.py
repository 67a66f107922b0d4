"""The MoE layers' wait for the host's per-expert launches, as a user sees it: the step's own terms
(``step_terms.moe_host_wait_s``) and the compute step's finding CMP-MOE-HOST-WAIT.

Why the wait exists (Megatron-Core's dropless dispatcher hands Transformer Engine's GroupedLinear the
tokens per local expert as a host list and GroupedLinear loops over the local experts on the host:
NVIDIA/TransformerEngine transformer_engine/pytorch/module/grouped_linear.py) and the figure a local
expert costs (knowledge/runtime.yaml training.moe_dispatch, read on NeMo 25.09-26.02's tables) are in
tests/test_training_fabric.py; here, that where the host binds every MoE layer's micro-batch lasts
exactly its launches, that a stack keeping the counts on the GPU pays none, and that the finding says so."""

from __future__ import annotations

import json
import math

import pytest

from .clirun import gpuwise

_LORA = """workload:
  task: finetune
  method: lora
  model: qwen3-30b-a3b
  batch_size: 1
  seq_len: 4096
  gradient_checkpointing: true
  train_tokens: 1.0e8
{extra}"""

_PROPOSAL = _LORA + """constraints:
  deadline_days: 14
hardware:
  gpu: H100-80G
  count: 8
  nodes: 1
  link: nvswitch
  host_ram_gb: 2048
acquisition:
  mode: rent
  provider: lambda
  hourly_usd: 3.99
"""


def _write(tmp_path, text: str, name: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def _estimate(tmp_path, extra: str = "") -> dict:
    path = _write(tmp_path, _LORA.format(extra=extra), "job.yaml")
    r = gpuwise("estimate", path, "--gpu", "h100-80gb-sxm", "--gpus", "2", "--format", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["gpu"]


def test_host_bound_layers_last_their_launches(tmp_path):
    """Qwen3-30B-A3B (48 MoE layers, 128 experts; its config.json) on 2 x H100 with no stack named: the
    middle stack is costed as Megatron-Core's path, and one 4,096-token sequence a micro-batch over 128 / ep
    local experts leaves every layer waiting on the host. A layer's micro-batch then lasts local experts x
    1.03 ms (Hopper, read on full-weight training) x 4/9 (LoRA freezes the experts: 4 of the 9 host steps a
    trainable expert takes, knowledge/runtime.yaml training.moe_dispatch lora_host_ops; the unnamed stack shares
    its adapters as Megatron-Bridge does) x 1.5 (checkpointing repeats the forward: its 2 of the 4 steps again),
    plus the layer's own host calls (layer_host_ops: 51 forward, again when recomputed, and 39 backward, at 7 us), so
    the compute, tensor-parallel and all-to-all terms together are grad_accum x 48 x that, by hand."""
    g = _estimate(tmp_path)
    lay, s = g["layout"], g["training"]["step_terms"]
    assert lay["tp"] == 1 and lay["pp"] == 1 and lay["recompute_share"] == 1.0
    per_layer = (128 / lay["ep"] * 1.03e-3 * 4 / 9 * (1 + lay["recompute_share"] / 2)
                 + (51 * (1 + lay["recompute_share"]) + 39) * 7e-6)
    by_hand = lay["grad_accum"] * 48 * per_layer  # 32 x 48 x (64 x 1.03 ms x 4/9 x 1.5 + 141 x 7 us) at EP2
    assert s["compute_s"] + s["tp_s"] + s["ep_s"] == pytest.approx(by_hand, rel=1e-6)
    assert 0 < s["moe_host_wait_s"] < s["compute_s"]
    assert s["moe_passes_s"] > 0
    # the nine terms still add up to the step; the MoE parts are inside compute_s
    nine = ("compute_s", "tp_s", "pp_p2p_s", "pp_bubble_s", "dp_s", "ep_s", "cp_s", "optimizer_s", "offload_s")
    assert math.fsum(s[k] for k in nine) == pytest.approx(s["step_s"], rel=1e-9)
    # and the step's formula says so, where a reader sees moe_host_wait_s beside compute_s
    step = next(t for t in g["terms"] if t["name"] == "step_seconds")
    assert [p[1] for p in step["formula_phrases"]] == ["formula.step_time", "formula.step_time_moe"]
    assert "compute includes the MoE layers' memory passes" in step["formula"]
    dense = gpuwise("estimate", _write(tmp_path, _LORA.format(extra="").replace("qwen3-30b-a3b", "llama-3.1-8b"),
                                       "dense.yaml"), "--gpu", "h100-80gb-sxm", "--gpus", "2", "--format", "json")
    step = next(t for t in json.loads(dense.stdout)["gpu"]["terms"] if t["name"] == "step_seconds")
    assert [p[1] for p in step["formula_phrases"]] == ["formula.step_time"]


def test_grouped_gemm_stack_waits_on_no_host(tmp_path):
    """torchtitan runs a layer's experts as one torch._grouped_mm with the offsets on the GPU
    (pytorch/torchtitan torchtitan/models/moe/moe.py): no host wait, and a far shorter step."""
    middle = _estimate(tmp_path)["training"]["step_terms"]
    titan = _estimate(tmp_path, "  stack: torchtitan\n")["training"]["step_terms"]
    assert titan["moe_host_wait_s"] == 0.0
    assert titan["step_s"] < middle["step_s"] / 3


def _audit(tmp_path, extra: str = "", method: str = "full") -> dict:
    path = _write(tmp_path, _PROPOSAL.format(extra=extra).replace("method: lora", f"method: {method}"),
                  "proposal.yaml")
    r = gpuwise("audit", path, "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_finding_names_the_share(tmp_path):
    """A full fine-tune on 8 x H100 at EP8 (16 experts a GPU): the finding fires at its policy's quarter of a step
    and gives the share the step's terms give (knowledge/policy.yaml moe_host_wait_warning). LoRA on the same
    proposal freezes the experts, whose launches take 4/9 of the host's time (runtime.yaml training.moe_dispatch
    lora_host_ops), and 16 local experts no longer keep a quarter of its step waiting. The proposal states offload
    none: left free on its 2 TB of host RAM, the planner offloads the optimizer at TP1 EP8 (the split fits only so),
    27.0 s a step of which the host's Adam and copies take 18.8 s and the MoE launches 3.4 s, against 31.7 s at TP2
    EP4 without offload (planner56)."""
    d = _audit(tmp_path, "  offload: none\n")
    hits = [f for f in d["findings"] if f["rule"] == "CMP-MOE-HOST-WAIT"]
    assert len(hits) == 1 and hits[0]["severity"] == "warning"
    share = hits[0]["values"]["moe_host_wait_share"]
    assert 0.25 <= share < 1
    assert f"{share:.0%}" in hits[0]["message"]
    titan = _audit(tmp_path, "  stack: torchtitan\n  offload: none\n")
    assert not [f for f in titan["findings"] if f["rule"] == "CMP-MOE-HOST-WAIT"]
    lora = _audit(tmp_path, "  offload: none\n", method="lora")
    assert not [f for f in lora["findings"] if f["rule"] == "CMP-MOE-HOST-WAIT"]
