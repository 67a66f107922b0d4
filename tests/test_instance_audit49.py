"""An audit of an instance runtime.yaml knows, and an overlay's instance names (planfix49, hostile round 36).

GCP's a2-ultragpu-8g had its RAM in runtime.yaml (1,360 GiB) but no clouds.yaml offer, so an audit naming it was
priced and judged on the a2-ultragpu-1g offer ('as a a2-ultragpu-1g comes'); it now has its own offer
(Cyclenerd/google-cloud-pricing-cost-calculator pricing.yml generated 2025-03-06, us-central1: hour
40.5503831232877) and its own RAM is read. An overlay's rented_host_ram entry misspelling a known instance
('g6.xlarg') was accepted silently; it is refused with the close match."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

A2_8G = ("title: t\n"
         "workload: {task: finetune, method: full, model: llama-3.1-405b, precision: bf16, seq_len: 2048, "
         "zero_stage: 3, offload: cpu, train_tokens: 2.0e7, gradient_checkpointing: true}\n"
         "hardware: {gpu: a100-80gb-sxm, count: 8}\n"
         "acquisition: {mode: rent, provider: gcp, months: 1, instance: a2-ultragpu-8g}\n")


def _audit(tmp: Path, runtime: str | None = None):
    (tmp / "p.yaml").write_text(A2_8G, encoding="utf-8")
    args = ["audit", "p.yaml", "--format", "json"]
    if runtime is not None:
        (tmp / "kb").mkdir(exist_ok=True)
        (tmp / "kb" / "runtime.yaml").write_text(runtime, encoding="utf-8")
        args += ["--knowledge", "kb"]
    return gpuwise(*args, cwd=tmp)


def test_an_instance_runtime_yaml_knows_is_audited_on_its_own_offer_and_ram(tmp_path: Path) -> None:
    r = _audit(tmp_path)
    assert r.returncode == 1, r.stderr  # 405B's offloaded state does not fit any 8-GPU server
    d = json.loads(r.stdout)
    assert (d["proposed"]["provider"], d["proposed"]["instance"]) == ("gcp", "a2-ultragpu-8g")  # was a2-ultragpu-1g
    (short,) = [f for f in d["findings"] if f["rule"] == "MEM-HOST-RAM-SHORT"]
    # runtime.yaml rented_host_ram.instance_gib a2-ultragpu-8g: 1,360 GiB = 1,360 x 2^30 / 1e9 = 1,460.3 GB
    assert round(short["values"]["host_ram_gb"], 1) == round(1360 * 2**30 / 1e9, 1) == 1460.3
    assert short["values"]["host_ram_from"] == "as the a2-ultragpu-8g instance comes"
    assert "(as the a2-ultragpu-8g instance comes)" in short["message"] and "as a a2" not in short["message"]
    # priced on its own whole-instance rate (clouds.yaml a2-ultragpu-8g, 8 x a2-ultragpu-1g's 5.06879789)
    rates = {ln["inputs"].get("usd_per_hour") for ln in d["proposed"]["ledger"]["lines"] if "usd_per_hour" in
             ln.get("inputs", {})}
    assert rates == {40.5503831232877}


@pytest.mark.parametrize("entry, meant", [
    ("instance_gib: {g6.xlarg: 16}", "g6.xlarge"),
    ("instance_vcpus: {G6.48XLARGE: 192}", "g6.48xlarge"),
])
def test_an_overlay_misspelling_a_known_instance_is_refused(tmp_path: Path, entry: str, meant: str) -> None:
    r = _audit(tmp_path, f"rented_host_ram:\n  {entry}\n")
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "kb/runtime.yaml: rented_host_ram." in r.stderr and f"did you mean {meant}?" in r.stderr, r.stderr


def test_an_overlay_may_give_its_own_instance_and_the_shipped_ones(tmp_path: Path) -> None:
    # a name like no listed one is the user's own instance (a proposal may name it); a2-ultragpu-8g is shipped
    r = _audit(tmp_path, "rented_host_ram:\n  instance_gib: {my-box-8: 512, a2-ultragpu-8g: 1360}\n")
    assert r.returncode == 1 and '"MEM-HOST-RAM-SHORT"' in r.stdout, r.stderr
