"""Several whole desktop systems (DGX Sparks) bought in an audit: hosted where desktops run and joined
by their own port. Before, two Sparks were placed in colocation (PUE 1.58, $250 per kW-month, a 2 kW
minimum) and priced a 25 GbE adapter, switch port and cable each, and the estimate ran their traffic
over 25 GbE, where the DGX Spark User Guide (Spark Stacking) cables two Sparks' ConnectX-7 ports back
to back at 200 Gb/s with no switch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .clirun import gpuwise

SPARKS = ("title: sparks\n"
          "workload: {task: inference, model: gpt-oss-120b, precision: fp4, prompt_tokens: 1000, output_tokens: 200}\n"
          "hardware: {gpu: DGX Spark, count: %d}\n"
          "acquisition: {mode: buy, unit_price_usd: 3999}\n")


def _audit(tmp_path: Path, count: int) -> dict:
    (tmp_path / "p.yaml").write_text(SPARKS % count, encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def _line(d: dict, kind: str) -> dict:
    return next(x for x in d["proposed"]["ledger"]["lines"] if x["kind"] == kind)


def test_two_sparks_sit_in_an_office_joined_by_one_cable(tmp_path: Path) -> None:
    d = _audit(tmp_path, 2)
    net = _line(d, "network")
    # prices.yaml fabrics roce-200: no adapter (the ConnectX-7 is the system's), no switch, one $120 cable
    assert net["inputs"]["fabric"] == "roce-200"
    assert (net["inputs"]["ports"], net["inputs"]["nic_usd"], net["inputs"]["switch_ports"],
            net["inputs"]["links"]) == (2, 0.0, 0, 1)
    assert net["amount"] == pytest.approx(120.0)
    power = _line(d, "power")
    # 2 x (140 W GB10 + 100 W rest of system) = 0.48 kW, within an office's 3.0 kW (tco.yaml hosting.office)
    assert power["inputs"]["hosting"] == "office" and power["inputs"]["pue"] == 1.0
    assert power["inputs"]["it_kw"] == pytest.approx(0.48)
    assert not [x for x in d["proposed"]["ledger"]["lines"] if x["kind"] == "hosting" and x["amount"] > 0]
    said = {f["rule"]: f["message"] for f in d["findings"]}
    # the estimate's traffic runs over the Sparks' own 200 GbE (25 GB/s), not the 25 GbE default of desktops
    assert d["steps"][2]["values"]["link"] == "roce-200 between 2 nodes of one GPU each"
    # and 200 Gb/s a GPU is what NET-SLOW-NETWORK's own fix asks for (policy fast_network_gb_s_per_gpu 25): no
    # warning to 'use RoCE at 200-400 Gb/s per GPU' on a link that is one
    assert "NET-SLOW-NETWORK" not in said
    # the airflow is the ledger's IT load: 0.48 kW x 158 CFM per kW = 75.8 CFM (was 1.1 kW, a server's host per GPU)
    assert said["PWR-AIRFLOW"].startswith("0.5 kW of heat needs about 76 CFM")


def test_two_sparks_on_25_gbe_are_still_warned(tmp_path: Path) -> None:
    # the same pair stated on 25 GbE (3.1 GB/s a GPU): below both the node's 50 GB/s and a GPU's 25 GB/s
    (tmp_path / "p.yaml").write_text((SPARKS % 2).replace("count: 2}", "count: 2, network: ethernet-25}"),
                                     encoding="utf-8")
    d = json.loads(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path).stdout)
    slow = [f["message"] for f in d["findings"] if f["rule"] == "NET-SLOW-NETWORK"]
    assert slow and "over ethernet-25 (3.125 GB/s per node)" in slow[0]  # review58: four figures


def test_three_sparks_are_cabled_in_a_ring(tmp_path: Path) -> None:
    """NVIDIA's Connect Multiple DGX Sparks playbook (NVIDIA/dgx-spark-playbooks
    nvidia/playbook-connect-multiple-sparks/README.md @ 09e077d8, 'Three-device direct ring'): three QSFP cables,
    each Spark linked to the other two by its two ports, no switch. They were priced three switch ports and three
    cables ($840); now three cables, $360."""
    net = _line(_audit(tmp_path, 3), "network")
    assert (net["inputs"]["ports"], net["inputs"]["nic_usd"], net["inputs"]["switch_ports"],
            net["inputs"]["links"]) == (3, 0.0, 0, 3)
    assert net["amount"] == pytest.approx(3 * 120)


def test_four_sparks_go_through_a_switch(tmp_path: Path) -> None:
    net = _line(_audit(tmp_path, 4), "network")
    # 4 ports x $160 a switch port + 4 cables x $120 = $1,120 (one switch: radix 8)
    assert (net["inputs"]["switch_ports"], net["inputs"]["links"]) == (4, 4)
    assert net["amount"] == pytest.approx(4 * 160 + 4 * 120)


def test_sparks_beyond_an_offices_power_go_to_colocation(tmp_path: Path) -> None:
    # 13 x 0.24 kW = 3.12 kW, past the office's 3.0 kW (two circuits): colocation, as any other cluster
    d = _audit(tmp_path, 13)
    assert _line(d, "power")["inputs"]["hosting"] == "colocation"
    net = _line(d, "network")
    # 13 ports past the radix of 8: a two-tier fabric, 3 switch ports and 2 cables an endpoint
    assert (net["inputs"]["switch_ports"], net["inputs"]["links"]) == (39, 26)


def test_a_system_fabric_that_is_not_priced_is_one_line(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "gpus.yaml").write_text("gpus:\n  - id: gb10\n    link: {system_fabric: roce-2000}\n", encoding="utf-8")
    (tmp_path / "p.yaml").write_text(SPARKS % 2, encoding="utf-8")
    r = gpuwise("audit", "p.yaml", "--knowledge", str(kb), cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr == (f"gpuwise: {kb}/gpus.yaml: gb10: link.system_fabric: no prices.yaml fabric 'roce-2000' "
                        "(did you mean roce-200?)\n")


def test_a_spark_is_priced_per_system_not_per_card(tmp_path: Path) -> None:
    """The DGX Spark's $4,699 list price (NVIDIA Developer Forums, '2/23/2026 Price Change Announcement') buys the
    whole desktop: GB10, CPU, 128 GB, disk and ConnectX-7 NIC. `gpuwise prices` and the decision's prices said
    '$4,699 per card', as for a PCIe card that still needs a server; both now say 'per system' (zh: 每台整机),
    and an RTX 4090's price stays per card."""
    r = gpuwise("prices", "--gpu", "GB10", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    rows = [x for x in json.loads(r.stdout)["prices"] if x["kind"] == "buy"]
    assert [(x["amount"], x["unit"]) for x in rows] == [(4699, "per system")]
    assert rows[0]["item"].startswith("new system")
    r = gpuwise("prices", "--gpu", "RTX 4090", "--format", "json", cwd=tmp_path)
    assert {x["unit"] for x in json.loads(r.stdout)["prices"] if x["kind"] == "buy"} == {"per card"}
    (tmp_path / "q.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, precision: bf16, "
                                     "concurrent_requests: 4}\nconstraints: {gpus: [GB10], acquisition: buy}\n",
                                     encoding="utf-8")
    r = gpuwise("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    used = [x for x in json.loads(r.stdout)["prices_used"] if x["kind"] == "buy"]
    assert [(x["amount"], x["unit"]) for x in used] == [(4699, "per system")]
    full = " ".join(gpuwise("recommend", "q.yaml", "--detail", "full", cwd=tmp_path).stdout.split())
    assert "new: $4,699 per system (2026-02-23" in full and "per card" not in full
    zh = "".join(gpuwise("recommend", "q.yaml", "--detail", "full", "--lang", "zh", cwd=tmp_path).stdout.split())
    assert "每台整机$4,699" in zh  # the wrapped Chinese text joined without its line breaks
