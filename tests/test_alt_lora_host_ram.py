"""MEM-ALT-LORA-HOST-RAM: full fine-tuning whose one-server layouts fit the GPUs only by offloading
state to host RAM the servers do not have is not a one-server job, so LoRA/QLoRA is suggested. The
job fact carries the RAM and the need of the one-server layout that comes closest to holding its
offloaded state; the rule compares them."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise.decide.recommend import recommend

# Llama 3.1 405B: 405,853,388,800 parameters (meta-llama/Llama-3.1-405B model card / safetensors total)
PARAMS_B = 405.853388800


@pytest.fixture(scope="module")
def result(tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("lora")) / "full405.yaml"
    path.write_text(yaml.safe_dump({
        "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-405b", "precision": "bf16",
                     "optimizer": "adamw", "batch_size": 1, "seq_len": 2048, "train_tokens": 1.0e7},
        # rented servers only: each one's host RAM is known (the rental's), and too small for the offload
        "constraints": {"max_gpus": 8, "acquisition": "rent", "project_months": 1}}))
    return recommend(str(path))


def test_lora_is_suggested_when_one_server_fails_only_on_host_ram(result, kb):
    offloaded = [c for c in result.candidates if "MEM-HOST-RAM-SHORT" in c.rules]
    assert offloaded, "the one-server layouts offload more than the servers' RAM"
    assert result.recommendation is None  # nothing else holds a full fine-tune of 405B in one server
    assert "MEM-ALT-LORA" not in {f.rule for f in result.findings}  # the GPUs of one server hold it
    lora = [f for f in result.findings if f.rule == "MEM-ALT-LORA-HOST-RAM"]
    assert len(lora) == 1
    v = lora[0].values
    # ZeRO-3 offload keeps all 16 B per parameter in host RAM, of which a usable share is counted
    usable = kb.runtime.host_ram_fraction_usable.value
    assert v["host_server_ram_needed_gb"] == pytest.approx(PARAMS_B * 16 / usable, rel=1e-3)
    assert 0 < v["host_server_ram_gb"] < v["host_server_ram_needed_gb"]
    # mixed-precision AdamW: 16 B per parameter (ZeRO paper, section 3); LoRA's frozen base: 2 B
    assert v["state_gb"] == pytest.approx(PARAMS_B * 16, rel=1e-3)  # 6,494 GB
    assert v["weights_gb"] == pytest.approx(PARAMS_B * 2, rel=1e-3)  # 812 GB
