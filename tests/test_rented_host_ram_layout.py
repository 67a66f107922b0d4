"""A rented server's host RAM decides the training layout before the layout is final (branch hostram56). Branch
planner56 let the planner keep a layout that fits only with the optimizer on the host where it trains fastest, and
fell back to the fastest layout without offload only where a proposal states ``hardware.host_ram_gb``; a rental's
RAM (the named instance's, the offer's as stated, else a typical rented server of the GPU's segment: runtime.yaml
rented_host_ram) was judged after the layout, so renting 64 RTX 5090 for a 70B pretrain was refused by
MEM-HOST-RAM-SHORT where ZeRO-3 over the 64 GPUs runs without offload.

By hand (Llama 3.1 70B, 80 layers of 856e6 parameters and a 1.05e9-parameter embedding; 64 RTX 5090, 8 a server):
the offloaded PP8 DP8 ZeRO-1 layout keeps on the host, per GPU of the first stage (10 layers and the embedding, 9.61e9
parameters), its fp32 gradients (4 B x 9.61e9 = 38.4 GB) and its eighth of the fp32 master weights and Adam moments
(12 B x 9.61e9 / 8 = 14.4 GB): 52.9 GB, x 8 GPUs / 0.8 of the RAM usable (runtime.yaml host_ram_fraction_usable)
= 528 GB a server. A typical rented consumer server has 62 GB a GPU (runtime.yaml rented_host_ram.per_gpu_gb
consumer), 496 GB for 8."""

from __future__ import annotations

import json

import pytest

from gpuwise.estimators.candidate import evaluate
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .clirun import gpuwise

PRE70 = {"task": "pretrain", "model": "llama-3.1-70b", "seq_len": 4096, "train_tokens": 1e11}
FIRST_STAGE = 10 * 856e6 + 1.05e9  # PP8's first stage: 10 of the 80 layers and the embedding


def _ev(kb, n: int, nodes: int, constraints: dict | None = None, **kw):
    job = resolve(Requirements(workload=PRE70, constraints=constraints or {}), kb)
    return evaluate(job, kb.gpus["rtx-5090"], n, nodes=nodes, network="ethernet-100", **kw)


def test_a_typical_rented_server_too_small_for_the_offload_keeps_zero3(kb):
    """Rented at a proposal's own rate (no listed offer, so a typical consumer server's RAM): 496 GB a server
    against the offloaded layout's 528 GB, so the fastest layout without offload (ZeRO-3 over the 64 GPUs, 233 days)
    is kept. Bought, the server's RAM is the buyer's to choose (MEM-HOST-RAM-BUY says what the price leaves out),
    and the offloaded layout stays (101.8 days); stated at 768 GB, likewise."""
    typical = kb.runtime.rented_host_ram.per_gpu_gb["consumer"] * 8
    assert typical == 496
    need = (4 * FIRST_STAGE + 12 * FIRST_STAGE / 8) * 8 / kb.runtime.host_ram_fraction_usable.value
    assert need == pytest.approx(528e9, rel=2e-3)
    bought = _ev(kb, 64, 8, acquisition="buy", unit_price=3000)
    lay = bought.plan.layout
    assert (lay.pp, lay.dp, lay.zero, lay.offload) == (8, 8, 1, "cpu")
    assert bought.host_ram_needed_bytes_per_node == pytest.approx(need, rel=2e-3)
    rented = _ev(kb, 64, 8, acquisition="rent", hourly_usd=0.9)
    lay = rented.plan.layout
    assert (lay.pp, lay.dp, lay.zero, lay.offload) == (1, 64, 3, "none")
    assert rented.host_ram_needed_bytes_per_node == 0
    assert rented.wall_days > 2 * bought.wall_days
    stated = _ev(kb, 64, 8, acquisition="rent", hourly_usd=0.9, host_ram_gb=768)
    assert stated.plan.layout == bought.plan.layout


def test_recommend_renting_reads_the_rented_server_too(kb):
    """A recommendation that only rents (constraints.acquisition rent) evaluates without a proposal's acquisition:
    the same typical server decides; one open to buying keeps the offloaded layout (a bought server's RAM is chosen
    with it, and TCO-BUY-DEARER leaves buying open where the rented server cannot hold the state)."""
    rent = _ev(kb, 64, 8, {"acquisition": "rent"})
    assert (rent.plan.layout.zero, rent.plan.layout.offload) == (3, "none")
    either = _ev(kb, 64, 8)
    assert either.plan.layout.offload == "cpu"


def test_where_nothing_fits_without_offload_the_rental_is_still_refused(kb):
    """32 RTX 5090 (4 servers): no layout fits without offload; PP8 DP4 keeps 4 B x 9.61e9 + 12 B x 9.61e9 / 4 =
    67.3 GB a GPU on the host, 673 GB a server with the 0.8 usable, over the typical 496 GB: the offloaded layout
    stays and MEM-HOST-RAM-SHORT judges it."""
    ev = _ev(kb, 32, 4, acquisition="rent", hourly_usd=0.9)
    lay = ev.plan.layout
    assert (lay.pp, lay.dp, lay.offload) == (8, 4, "cpu")
    need = (4 * FIRST_STAGE + 12 * FIRST_STAGE / 4) * 8 / 0.8
    assert ev.host_ram_needed_bytes_per_node == pytest.approx(need, rel=2e-3)
    assert ev.host_ram_gb == 496 and ev.host_ram_from == "typical"


def test_a_rented_server_that_holds_the_offload_keeps_it(kb):
    """64 L40S rented from the catalog's offer (a datacenter server, 225 GB a GPU typical: 1,800 GB a server) hold
    the offloaded PP8 DP8's 528 GB: the offloaded layout stays."""
    job = resolve(Requirements(workload=PRE70, constraints={"acquisition": "rent"}), kb)
    ev = evaluate(job, kb.gpus["l40s"], 64, nodes=8, network="ethernet-100")
    assert (ev.plan.layout.pp, ev.plan.layout.offload) == (8, "cpu")
    assert ev.host_ram_needed_bytes_per_node / 1e9 < ev.host_ram_gb


_AUDIT = """title: rent 64 RTX 5090 for a 70B pretrain
workload:
  task: pretrain
  model: llama-3.1-70b
  seq_len: 4096
  train_tokens: 1.0e11
hardware:
  gpu: RTX 5090
  count: {n}
  nodes: {nodes}
  network: ethernet-100
acquisition:
  mode: rent
  hourly_usd: 0.9
"""


@pytest.mark.parametrize(("n", "nodes", "short"), [(64, 8, False), (32, 4, True)])
def test_the_audit_refuses_the_rental_for_its_ram_only_where_no_layout_fits_without_offload(tmp_path, n, nodes,
                                                                                              short):
    p = tmp_path / "proposal.yaml"
    p.write_text(_AUDIT.format(n=n, nodes=nodes), encoding="utf-8")
    r = gpuwise("audit", str(p), "--format", "json")
    assert r.returncode in (0, 1), r.stderr
    d = json.loads(r.stdout)
    assert ("MEM-HOST-RAM-SHORT" in [f["rule"] for f in d["findings"]]) is short
    said = [a["reason"] for a in d["assumptions"] if a["field"] == "workload.offload"]
    assert said and "host RAM" in said[0]
