"""The network a run across servers gets when it names none (netdefault60): a part's reference-system fabric where
gpus.yaml ``link.scale_out_network`` gives one, else runtime.yaml's default for its segment.

A DGX A100 joins its servers by eight single-port ConnectX-6 HDR InfiniBand adapters, 200 Gb/s each, one a GPU (NVIDIA
DGX A100 User Guide; runtime.yaml networks infiniband-200: 25 GB/s a port); a DGX H100 by eight 400 Gb/s NDR ports
(infiniband-400, 50 GB/s a port), the catalog's datacenter default; a DGX B300 by eight 800 Gb/s ConnectX-8 ports
(infiniband-800, 100 GB/s a port; DGX B300 User Guide). The catalog sets the field on no part (the A100 and B300 /
GB300 values were scored and left out: tests/data/validation/README.md, 'Branch netdefault60'), so the tests give it
through a copy of the part or a knowledge overlay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuwise.estimators.interconnect import allreduce_seconds, default_network, topology
from tests.clirun import gpuwise


def _with_fabric(gpu, network: str):
    return gpu.model_copy(update={"link": gpu.link.model_copy(update={"scale_out_network": network})})


def test_a_dgx_a100_class_run_reduces_across_servers_at_hdr_200(kb):
    """16 x A100 SXM4 in two servers of 8 over HDR 200 a GPU, 14e9 gradient bytes (7B parameters in bf16), link
    efficiency 0.75 (runtime.yaml link_efficiency). By hand: inside a server the ring moves 2 x 7/8 of the bytes over
    NVSwitch's 300 GB/s a direction (600 both ways), 24.5e9 / 225e9 = 0.108889 s, + 14 hops x 5 us; across the two
    servers 2 x 1/2 of the bytes over the node's 8 x 25 = 200 GB/s, 14e9 / 150e9 = 0.093333 s, + 2 x 20 us:
    0.202332 s in all, against 0.155665 s over the default NDR 400 (14e9 / 300e9 = 0.046667 s across)."""
    a100 = _with_fabric(kb.gpus["a100-40gb-sxm"], "infiniband-200")
    topo = topology(a100, 16, kb.runtime)
    assert (topo.nodes, topo.per_node, topo.network) == (2, 8, "infiniband-200")
    assert topo.network_gb_s == pytest.approx(200.0) and topo.network_gb_s_per_gpu == pytest.approx(25.0)
    t = allreduce_seconds(14e9, topo, 0.75)
    assert t.inputs["intra_seconds"] == pytest.approx(0.108889 + 70e-6, abs=1e-6)
    assert t.inputs["inter_seconds"] == pytest.approx(0.093333 + 40e-6, abs=1e-6)
    assert t.value == pytest.approx(0.202332, abs=1e-6)
    ndr = allreduce_seconds(14e9, topology(kb.gpus["a100-40gb-sxm"], 16, kb.runtime), 0.75)
    assert ndr.value == pytest.approx(0.155665, abs=1e-6)


def test_a_stated_network_wins_and_the_field_falls_back_to_the_segment(kb):
    rt = kb.runtime
    a100 = _with_fabric(kb.gpus["a100-40gb-sxm"], "infiniband-200")
    assert default_network(a100, rt) == "infiniband-200"
    assert topology(a100, 16, rt, network="ethernet-25").network == "ethernet-25"
    # no field: the segment's default (datacenter NDR 400; a consumer card's 25 GbE); a desktop system's own port first
    assert default_network(kb.gpus["a100-40gb-sxm"], rt) == rt.default_network_datacenter == "infiniband-400"
    assert default_network(kb.gpus["rtx-4090"], rt) == rt.default_network_other == "ethernet-25"
    assert default_network(kb.gpus["gb10"], rt) == "roce-200"


def test_a_b300_class_fabric_is_800_gb_s_a_gpu(kb):
    """runtime.yaml infiniband-800: 800 Gb/s = 100 GB/s a port, one a GPU: 8 x 100 = 800 GB/s a server."""
    net = kb.runtime.networks["infiniband-800"]
    assert (net.gb_s, net.shared_by) == (100.0, "gpu") and net.gb_s * 8 == 800
    topo = topology(_with_fabric(kb.gpus["b300"], "infiniband-800"), 16, kb.runtime)
    assert topo.network == "infiniband-800" and topo.network_gb_s == pytest.approx(800.0)


PROPOSAL = ("title: t\n"
            "workload: {task: pretrain, model: llama-3.1-8b, precision: bf16, seq_len: 4096, train_tokens: 1.0e10}\n"
            "hardware: {gpu: a100-40gb-sxm, count: 16, nodes: 2}\n"
            "acquisition: {mode: buy, months: 3}\n")


def _audit(tmp_path: Path, fabric: str | None):
    (tmp_path / "p.yaml").write_text(PROPOSAL, encoding="utf-8")
    args = ["audit", "p.yaml", "--format", "json"]
    if fabric is not None:
        kb = tmp_path / "kb"
        kb.mkdir()
        (kb / "gpus.yaml").write_text(f"gpus:\n  - id: a100-40gb-sxm\n    link: {{scale_out_network: {fabric}}}\n",
                                      encoding="utf-8")
        args += ["--knowledge", str(kb)]
    return gpuwise(*args, cwd=tmp_path)


def _interconnect(stdout: str) -> str:
    return next(s["conclusion"] for s in json.loads(stdout)["steps"] if s["step"] == "interconnect")


def test_an_audit_without_a_network_runs_over_the_parts_fabric(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    plain, hdr = _audit(tmp_path / "a", None), _audit(tmp_path / "b", "infiniband-200")
    assert plain.returncode in (0, 1) and hdr.returncode in (0, 1), (plain.stderr, hdr.stderr)
    assert "2 nodes over infiniband-400" in _interconnect(plain.stdout)
    assert "2 nodes over infiniband-200" in _interconnect(hdr.stdout)


def test_a_misspelt_fabric_is_one_line(tmp_path: Path) -> None:
    r = _audit(tmp_path, "infiniband-2000")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == (f"gpuwise: {tmp_path}/kb/gpus.yaml: a100-40gb-sxm: link.scale_out_network: unknown network "
                        "'infiniband-2000' (did you mean infiniband-200?)\n")
