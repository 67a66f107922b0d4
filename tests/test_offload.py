"""Offload (issue 22): the time it costs and the host RAM it needs, decided by rules."""

from __future__ import annotations

from gpuwise import estimate, recommend


def test_rented_consumer_gpus_cannot_hold_a_70b_offloaded_state():
    """Full fine-tuning Llama-3.1-70B with CPU offload keeps ~16 B per parameter on the host
    (fp32 master weights and both Adam moments: ~1.1 TB, ~1.4 TB with the usable fraction of 0.8);
    8 rented RTX 4090s come with ~62 GB of RAM each (runtime.yaml rented_host_ram): blocked."""
    r = recommend({"workload": {"task": "finetune", "model": "llama-3.1-70b", "method": "full", "precision": "bf16",
                                "train_tokens": 2e8, "seq_len": 2048},
                   "constraints": {"gpus": ["rtx-4090"], "max_gpus": 8, "acquisition": "rent", "deadline_days": 30}})
    d = r.model_dump(mode="json")
    eight = next(c for c in d["candidates"] if c["count"] == 8)
    assert not eight["feasible"]
    assert any("host RAM" in why and "496 GB" in why for why in eight["reasons"])


def test_offload_costs_the_host_optimizer_step():
    """8B full fine-tune on 2 x RTX 3090 with CPU offload: each GPU's 4e9 parameters take
    4e9 / (12 cores x 1e7 parameters/s) = 33 s of CPU Adam per optimizer step, beside the PCIe traffic."""
    e = estimate({"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "precision": "bf16",
                               "train_tokens": 1e8, "seq_len": 2048, "batch_size": 4, "offload": "cpu"}},
                 gpu="rtx-3090", gpus=2)
    terms = e.gpu.training["step_terms"]
    assert terms["offload_s"] >= 8.03e9 / 2 / 1.2e8
