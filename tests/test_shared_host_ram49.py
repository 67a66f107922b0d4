"""The RAM an offload has on a GPU whose memory is the system's only memory (users49): a DGX Spark's 128 GB of
LPDDR5x is shared by its Grace CPU and its GB10 GPU (gpus.yaml memory.shared_with_host; NVIDIA DGX Spark User Guide,
Hardware Overview: 128 GB coherent unified system memory), so the weights, activations and buffers the GPU side
holds there are not free for the offloaded optimizer state. review45 judged the offload against the whole 128 GB;
the room for it is 128 GB less what the GPU side holds. NVIDIA states no share of it for the operating system, so
none is taken off."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise


def _audit(tmp_path, model: str) -> dict:
    p = {"title": "one DGX Spark, optimizer offloaded", "hardware": {"gpu": "gb10", "count": 1},
         "acquisition": {"mode": "buy"},
         "workload": {"task": "finetune", "method": "full", "model": model, "precision": "bf16", "optimizer": "adamw",
                      "batch_size": 1, "seq_len": 2048, "gradient_checkpointing": True, "zero_stage": 2,
                      "offload": "cpu", "train_tokens": 1.0e7}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1) and "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def test_an_8b_full_fine_tune_has_the_memory_its_gpu_side_leaves(tmp_path):
    """Llama 3.1 8B (8,030,261,248 params, model card) on one GB10, ZeRO-2 with the optimizer offloaded: the GPU side
    holds the bf16 weights, 8,030,261,248 x 2 B = 16.06 GB, one 1 GB gradient bucket, the checkpointed activations
    and the CUDA context (22.90 GB in all), so the offload has 128 - 22.90 = 105.10 GB, not 128. The host needs the
    fp32 master weights, two Adam moments and the fp32 gradients, 8.03e9 x 14 B = 112.4 GB, / 0.8 usable = 140.5 GB:
    short either way, and the finding now states the remainder and says why."""
    d = _audit(tmp_path, "llama-3.1-8b")
    held = d["proposed"]["memory_per_gpu_bytes"]
    parts = d["proposed"]["memory_breakdown"]
    assert parts["weights"] == 8_030_261_248 * 2
    assert held == pytest.approx(sum(parts.values()), rel=1e-9)
    assert held / 1e9 == pytest.approx(22.90, abs=0.01)
    short = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT")
    ev = short["evidence"]
    assert short["severity"] == "blocker"
    assert ev["host_ram_gb"] == pytest.approx(128.0 - held / 1e9, abs=1e-4) == pytest.approx(105.10, abs=0.01)
    assert ev["host_ram_needed_gb"] == pytest.approx(8_030_261_248 * 14 / 0.8 / 1e9, rel=0.001)
    assert "22.9 GB" in ev["host_ram_from"] and "shared_with_host" in ev["host_ram_from"]


def test_a_7b_whose_state_fits_128_gb_but_not_what_is_left_is_blocked(tmp_path):
    """Llama 2 7B (6,738,415,616 params, model card): 6.738e9 x 14 B / 0.8 = 117.9 GB of host RAM, under the whole
    128 GB (accepted before), over the 128 GB less the ~13.5 GB of bf16 weights and the rest the GPU side holds."""
    d = _audit(tmp_path, "llama-2-7b")
    held = d["proposed"]["memory_per_gpu_bytes"]
    assert held > 6_738_415_616 * 2
    short = next(f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT")
    assert short["severity"] == "blocker"
    assert short["evidence"]["host_ram_needed_gb"] == pytest.approx(6_738_415_616 * 14 / 0.8 / 1e9, rel=0.001)
    assert short["evidence"]["host_ram_gb"] == pytest.approx(128.0 - held / 1e9, abs=1e-4)
    assert short["evidence"]["host_ram_needed_gb"] < 128.0
