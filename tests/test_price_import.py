"""``gpuwise prices`` and ``gpuwise prices import``: a public price catalog read into an overlay
that changes the answer, bad rows listed and never fatal, the overlay never half-written.

The CSV layouts are those of the projects' own catalogs: gpuhunt (dstackai/gpuhunt, its
``{provider}.csv`` v2 catalog: instance_name, location, price, cpu, memory, gpu_count, gpu_name,
gpu_memory, spot, disk_size, gpu_vendor, flags) and SkyPilot (skypilot-org/skypilot-catalog,
``vms.csv``: InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, Price, SpotPrice,
Region, GpuInfo).
"""

from __future__ import annotations

import csv
import datetime as dt
import json
import os
import random
from pathlib import Path

import pytest

from gpuwise.cli import main
from gpuwise.decide.recommend import recommend
from gpuwise.prices import price_rows, read_catalog, write_overlay
from gpuwise.prices.catalog_csv import map_gpu

GPUHUNT = ["instance_name", "location", "price", "cpu", "memory", "gpu_count", "gpu_name", "gpu_memory", "spot",
           "disk_size", "gpu_vendor", "flags"]
LORA = Path(__file__).parent.parent / "examples" / "lora-70b.yaml"


def _gpuhunt_csv(path: Path, seed: int = 7) -> dict[str, int]:
    """A few hundred rows as gpuhunt writes them: real part names in many locations, spot twins,
    CPU-only shapes, and rows that cannot be used (unknown parts, a 40/48 GB 'A100', broken prices,
    fractional GPUs). Returns how many of each kind were written."""
    rnd = random.Random(seed)
    rows: list[list[str]] = []
    kinds = {"good_types": 0, "bad": 0, "unknown": 0, "cpu": 0}
    parts = [("H100", 80.0, 8, 1.20), ("H100", 80.0, 1, 2.40), ("A100", 80.0, 8, 1.30), ("L4", 24.0, 1, 0.55),
             ("L40S", 48.0, 4, 1.10), ("RTX4090", 24.0, 1, 0.40), ("A10G", 24.0, 4, 1.20), ("T4", 16.0, 1, 0.35)]
    for n, (name, mem, count, per_gpu) in enumerate(parts):
        kinds["good_types"] += 1
        for loc in range(30):  # 30 locations, the cheapest one first
            price = round(per_gpu * count * (1 + loc * 0.01 + rnd.random() * 0.001), 4)
            rows.append([f"gx{n}.{count}x", f"region-{loc}", f"{price}", "32", "256", str(count), name, f"{mem}",
                         "False", "", "nvidia", ""])
            rows.append([f"gx{n}.{count}x", f"region-{loc}", f"{round(price * 0.4, 4)}", "32", "256", str(count),
                         name, f"{mem}", "True", "", "nvidia", ""])
    for i in range(20):
        kinds["cpu"] += 1
        rows.append([f"c{i}", "region-0", "0.1", "4", "16", "0", "", "", "False", "", "", ""])
    for i, name in enumerate(["FooAccel", "Radeon9000", "TPUv9"]):
        kinds["unknown"] += 1
        rows.append([f"u{i}", "region-0", "1.0", "8", "64", "1", name, "32", "False", "", "nvidia", ""])
    bad = [["b0", "region-0", "abc", "8", "64", "1", "H100", "80", "False", "", "nvidia", ""],  # price not a number
           ["b1", "region-0", "-3", "8", "64", "1", "H100", "80", "False", "", "nvidia", ""],  # negative price
           ["b2", "region-0", "0.5", "8", "64", "0.25", "H100", "80", "False", "", "nvidia", ""],  # a quarter GPU
           ["b3", "region-0", "nan", "8", "64", "1", "H100", "80", "False", "", "nvidia", ""],  # not finite
           ["b4", "region-0", "1.0", "8", "64", "1", "A100", "48", "False", "", "nvidia", ""],  # no 48 GB A100
           ["b5", "region-0", "1.0"]]  # a cut line
    kinds["bad"] = len(bad)
    rows += bad
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(GPUHUNT)
        w.writerows(rows)
    return kinds


def test_gpuhunt_catalog_imported_then_used(kb, tmp_path: Path) -> None:
    src = tmp_path / "cheapcloud.csv"
    kinds = _gpuhunt_csv(src)
    rep = read_catalog(src, kb, as_of="2026-11-30")
    assert rep.format == "gpuhunt" and rep.provider == "cheapcloud"  # the provider is the file's name
    assert rep.rows > 300
    assert len(rep.offers) == kinds["good_types"]  # one offer per instance type: its cheapest location
    assert rep.no_gpu == kinds["cpu"]
    assert len(rep.skipped) == kinds["bad"] + kinds["unknown"]
    reasons = {s.name: s.reason for s in rep.skipped}
    assert "not a number" in reasons["b0"] and "not positive" in reasons["b1"]
    assert "whole number" in reasons["b2"] and "not a finite" in reasons["b3"]
    assert "48 GB" in reasons["b4"] and "fields" in reasons["b5"]
    h100 = next(o for o in rep.offers if o.instance == "gx0.8x")
    # by hand: region-0 is the cheapest of 30 (price factor 1 + 0.01 x location); $1.20 x 8 = $9.60/h
    assert h100.gpu == "h100-80gb-sxm" and h100.gpus == 8 and h100.region == "region-0"
    assert h100.per_gpu_hour == pytest.approx(h100.price / 8) and h100.per_gpu_hour == pytest.approx(1.20, rel=2e-3)
    assert h100.spot_price == pytest.approx(round(h100.price * 0.4, 4))  # the spot twin of that location
    a100 = next(o for o in rep.offers if o.instance == "gx2.8x")
    assert a100.gpu == "a100-80gb-sxm"  # 'A100' with 80 GB on 8 GPUs: the HGX (SXM) part, said so
    assert "SXM" in str(a100.notes[0])

    out = tmp_path / "overlay"
    before = recommend(str(LORA))
    assert before.recommendation.provider != "cheapcloud"
    target = write_overlay(rep, str(out))
    assert target == out / "clouds.yaml"
    after = recommend(str(LORA), knowledge=str(out))
    rec = after.recommendation
    # $1.20 per H100-hour is below every built-in H100 offer (RunPod Community $2.69 the cheapest): 8 GPUs
    # on one server now beat the 16 on a Nebius cluster
    assert rec.gpu == "h100-80gb-sxm" and rec.provider == "cheapcloud" and rec.instance == "cheapcloud:gx0.8x"
    assert rec.total_cost_usd < before.recommendation.total_cost_usd
    listed = price_rows(__import__("gpuwise").knowledge.load(str(out)), provider="cheapcloud",
                        today=dt.date(2026, 12, 1))
    assert {r.as_of for r in listed} == {"2026-11-30"} and {r.age_days for r in listed} == {1}
    # the listing names the instance as the provider does, its provider in a column of its own (review63: it was
    # 'cheapcloud: cheapcloud:gx0.8x')
    assert any(r.item.startswith("gx0.8x (8 GPUs") and r.provider == "cheapcloud"
               and r.amount == pytest.approx(h100.per_gpu_hour) for r in listed)


def test_gpu_names_told_apart_by_memory(kb) -> None:
    assert map_gpu(kb, "A100", 40.0, 1)[0] is None  # 40 GB comes as SXM and PCIe: listed, not guessed
    assert map_gpu(kb, "A100", 80.0, 8)[0] == "a100-80gb-sxm"
    assert map_gpu(kb, "A100", 40.0, 8)[0] == "a100-40gb-sxm"
    assert map_gpu(kb, "H100", 80.0, 1)[0] == "h100-80gb-sxm"
    assert map_gpu(kb, "RTX4090", 24.0, 1)[0] == "rtx-4090"
    assert map_gpu(kb, "L40S", 48.0, 1)[0] == "l40s"
    assert map_gpu(kb, "H100", 94.0, 1)[0] == "h100-nvl-94gb"  # the name with 94 GB is the NVL card


def test_skypilot_and_own_layouts(kb, tmp_path: Path) -> None:
    sky = tmp_path / "aws" / "vms.csv"
    sky.parent.mkdir()
    sky.write_text(
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,SpotPrice,Region,AvailabilityZone,GpuInfo\n"
        "p4de.24xlarge,A100-80GB,8.0,96,1152,40.96,16.5,us-east-1,us-east-1a,"
        "\"{'Gpus': [{'Name': 'A100', 'MemoryInfo': {'SizeInMiB': 81920}}]}\"\n"
        "g5.xlarge,A10G,1.0,4,16,1.006,0.4,us-east-1,us-east-1a,\n"
        "m5.large,,,2,8,0.096,,us-east-1,us-east-1a,\n"
        "g4ad.xlarge,Radeon Pro V520,0.5,4,16,0.38,,us-east-1,us-east-1a,\n")
    rep = read_catalog(sky, kb, as_of="2026-11-01")
    assert rep.format == "skypilot" and rep.provider == "aws"  # SkyPilot's <cloud>/vms.csv
    by = {o.instance: o for o in rep.offers}
    assert by["p4de.24xlarge"].gpu == "a100-80gb-sxm" and by["p4de.24xlarge"].spot_price == 16.5
    assert by["p4de.24xlarge"].per_gpu_hour == pytest.approx(40.96 / 8)
    assert by["g5.xlarge"].gpu == "a10g"
    assert rep.no_gpu == 1 and len(rep.skipped) == 1 and "whole number" in rep.skipped[0].reason

    own = tmp_path / "mycloud.csv"
    own.write_text("gpu,gpus,price,currency,region,as_of,source\n"
                   "H200,8,20.0,USD,eu,2026-10-15,https://mycloud.example/pricing\n"
                   "RTX 4090 D,1,2.5,CNY,cn,2026-10-15,https://mycloud.example/cn\n"
                   "H200,8,,USD,eu,,\n")
    rep = read_catalog(own, kb)
    assert rep.format == "gpuwise" and rep.as_of_from == "the file's modification date"
    h200 = next(o for o in rep.offers if o.gpu == "h200-141gb-sxm")
    assert h200.as_of == dt.date(2026, 10, 15) and "mycloud.example/pricing" in h200.source  # the row's own date
    assert next(o for o in rep.offers if o.gpu == "rtx-4090d").currency == "CNY"
    assert len(rep.skipped) == 1 and rep.skipped[0].line == 4


def test_cli_import_lists_bad_rows_and_says_where_the_date_came_from(tmp_path: Path, capsys) -> None:
    src = tmp_path / "cheapcloud.csv"
    _gpuhunt_csv(src)
    stamp = dt.datetime(2026, 11, 20, 12, tzinfo=dt.timezone.utc).timestamp()
    os.utime(src, (stamp, stamp))
    out = tmp_path / "ov"
    assert main(["prices", "import", str(src), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "as_of 2026-11-20 (the file's modification date" in text and "--as-of" in text
    assert "could not use 9 rows" in text and "line " in text
    assert (out / "clouds.yaml").is_file()
    assert main(["prices", "--provider", "cheapcloud", "--knowledge", str(out), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["prices"] and all(p["provider"] == "cheapcloud" and p["as_of"] == "2026-11-20"
                                  for p in data["prices"])


def test_import_refusals_write_nothing(tmp_path: Path, capsys) -> None:
    junk = tmp_path / "junk.csv"
    junk.write_text("name,cost\nx,1\n")
    assert main(["prices", "import", str(junk), "-o", str(tmp_path / "ov")]) == 2
    err = capsys.readouterr().err
    assert "junk.csv" in err and "not a price catalog" in err and err[-1] == "\n" and err.count("\n") == 1
    assert not (tmp_path / "ov").exists()
    only_bad = tmp_path / "bad.csv"
    only_bad.write_text(",".join(GPUHUNT) + "\nx,us,abc,1,1,1,H100,80,False,,nvidia,\n")
    assert main(["prices", "import", str(only_bad), "-o", str(tmp_path / "ov")]) == 2
    assert not (tmp_path / "ov").exists()
    assert main(["prices", "import", str(junk), "-o", str(tmp_path / "ov"), "--as-of", "yesterday"]) == 2
    assert "--as-of" in capsys.readouterr().err


def test_reimport_replaces_and_keeps_other_entries(kb, tmp_path: Path) -> None:
    out = tmp_path / "ov"
    out.mkdir()
    (out / "clouds.yaml").write_text("instances:\n  - id: mine\n    provider: aws\n    gpu: l4\n    gpus: 1\n"
                                     "    usd_per_hour: 0.5\n    as_of: 2026-11-01\n    source: my quote\n")
    src = tmp_path / "cheapcloud.csv"
    src.write_text(",".join(GPUHUNT) + "\nh8,us,16.0,1,1,8,H100,80,False,,nvidia,\n")
    write_overlay(read_catalog(src, kb, as_of="2026-11-01"), str(out))
    src.write_text(",".join(GPUHUNT) + "\nh8,us,12.0,1,1,8,H100,80,False,,nvidia,\n")
    write_overlay(read_catalog(src, kb, as_of="2026-11-30"), str(out))
    import yaml

    data = yaml.safe_load((out / "clouds.yaml").read_text())
    ids = [e["id"] for e in data["instances"]]
    assert ids == ["mine", "cheapcloud:h8"]
    assert data["instances"][1]["usd_per_hour"] == 12.0
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporary file left behind


def test_prices_table_is_oldest_first_with_ages(kb) -> None:
    rows = price_rows(kb, today=dt.date(2026, 12, 1))
    dated = [r.as_of for r in rows if r.as_of]
    assert dated == sorted(dated)
    fx = next(r for r in rows if r.kind == "fx")
    v = kb.tco_value("usd_cny")
    assert fx.amount == v.value and fx.age_days == (dt.date(2026, 12, 1) - v.as_of).days
    assert {r.kind for r in rows} >= {"rent", "spot", "buy", "server", "fx", "host", "network"}
    a100 = price_rows(kb, gpu="A100", today=dt.date(2026, 12, 1))
    assert {r.gpu for r in a100} >= {"a100-80gb-sxm", "a100-40gb-pcie"}  # a family name lists its variants
    assert all(r.currency == "CNY" for r in price_rows(kb, currency="CNY"))


def test_an_imported_provider_without_a_fee_table_is_charged_no_fees_and_says_so(kb) -> None:
    """An offer from a catalog's provider (not in clouds.yaml providers) is not billed AWS's fees:
    no fee is counted and the answer states it as an assumption."""
    from gpuwise.estimators.candidate import evaluate
    from gpuwise.estimators.cost import cloud_fees
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Proposal, Requirements

    fees = cloud_fees(kb.clouds, "cheapcloud", egress_tb=10, cross_region_tb=5, storage_kind="premium-ssd",
                      storage_tb=20, months=6)
    assert fees.value == 0 and fees.inputs["fees_unknown"] and fees.inputs["provider"] == "cheapcloud"
    aws = cloud_fees(kb.clouds, "aws", egress_tb=10, cross_region_tb=5, storage_kind="premium-ssd",
                     storage_tb=20, months=6)
    # by hand, AWS: 9,900 GB x $0.09 + 5,000 GB x $0.02 + 20,000 GB x $0.08 = $2,591 a month
    assert aws.value == pytest.approx(6 * (9900 * 0.09 + 5000 * 0.02 + 20000 * 0.08))
    req = Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                                       "constraints": {"acquisition": "rent"}})
    job = resolve(req, kb)
    job.cloud = Proposal.model_validate({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                                         "hardware": {"gpu": "l4", "count": 1},
                                         "acquisition": {"mode": "rent", "hourly_usd": 1.0,
                                                         "provider": "cheapcloud"},
                                         "cloud": {"egress_tb_per_month": 10}}).cloud
    evaluate(job, kb.gpus["l4"], 1, provider="cheapcloud", hourly_usd=1.0, acquisition="rent")
    said = [a for a in job.assumptions if a.field == "cloud.fees"]
    assert len(said) == 1 and said[0].value == "cheapcloud" and "cheapcloud" in said[0].reason
