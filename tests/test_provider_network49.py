"""A rental audit that names its provider but no instance and no network (users49; auditnet46 fixed the case that
names an instance). It was estimated on the network of the provider's cheapest offer of the GPU: 16 x H100 on
Google Cloud over 2 nodes ran over the 25 GbE default of the a3-highgpu-1g ($10.98 a GPU-hour, no network listed)
and was priced as sixteen of those, though 8 GPUs a node is the a3-highgpu-8g (clouds.yaml: 400 GbE a node,
$88.49 an hour = $11.06 a GPU-hour). Now the instance the proposal's nodes or its own rate match is read, and
where none matches, the offer whose network was taken is said as an assumption."""
from __future__ import annotations

import json

import pytest
import yaml

from tests.clirun import gpuwise

PRETRAIN = {"task": "pretrain", "model": "llama-2-7b", "precision": "bf16", "batch_size": 4, "seq_len": 4096,
            "train_tokens": 2.0e10}
FINETUNE = {"task": "finetune", "method": "full", "model": "llama-3.1-8b", "precision": "bf16", "seq_len": 4096,
            "train_tokens": 1.0e9}


def _audit(tmp_path, workload: dict, hardware: dict, acquisition: dict, *extra: str):
    p = {"title": "t", "workload": workload, "hardware": hardware, "acquisition": {"mode": "rent", "months": 1,
                                                                                    **acquisition}}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(p), encoding="utf-8")
    r = gpuwise("audit", "p.yaml", *extra, cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


def _said(d: dict, field: str) -> dict:
    return next(a for a in d["assumptions"] if a["field"] == field)


def _interconnect(d: dict) -> str:
    return next(s["conclusion"] for s in d["steps"] if s["step"] == "interconnect")


def test_the_nodes_the_proposal_gives_pick_the_instance(tmp_path):
    d = json.loads(_audit(tmp_path, PRETRAIN, {"gpu": "h100-80gb-sxm", "count": 16, "nodes": 2}, {"provider": "gcp"},
                          "--format", "json"))
    assert d["proposed"]["instance"] == "a3-highgpu-8g"
    assert "2 nodes over ethernet-400" in _interconnect(d)
    said = _said(d, "acquisition.instance")
    assert said["value"] == "a3-highgpu-8g" and said["message_id"] == "assume.instance.nodes"
    assert "with the 8 GPUs a node the proposal gives" in said["reason"]
    assert not any(f["rule"] in ("NET-LOW-EFFICIENCY", "NET-SLOW-NETWORK") for f in d["findings"])


def test_the_proposals_rate_picks_the_instance(tmp_path):
    # AWS g6e.48xlarge: $30.13118 an hour for 8 L40S = $3.766 a GPU-hour, within 1% of the proposal's $3.77; the
    # g6e.xlarge (the cheapest, $1.861, 10 GbE) does not match. 16 GPUs over 4 nodes: no 4-GPU L40S instance, so
    # the rate decides
    d = json.loads(_audit(tmp_path, FINETUNE, {"gpu": "l40s", "count": 16, "nodes": 4},
                          {"provider": "aws", "hourly_usd": 3.77}, "--format", "json"))
    assert d["proposed"]["instance"] == "g6e.48xlarge"
    assert "4 nodes over ethernet-400" in _interconnect(d)
    said = _said(d, "acquisition.instance")
    assert said["message_id"] == "assume.instance.price" and "$3.77 a GPU-hour" in said["reason"]


def test_with_nothing_to_match_the_offer_taken_is_said(tmp_path):
    d = json.loads(_audit(tmp_path, FINETUNE, {"gpu": "l40s", "count": 16, "nodes": 4}, {"provider": "aws"},
                          "--format", "json"))
    said = _said(d, "hardware.network")
    assert said["message_id"] == "assume.network.offer" and said["value"] == "ethernet-10"
    assert "g6e.xlarge ($1.86 a GPU-hour)" in said["reason"] and "the 4 nodes" in said["reason"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_assumption_is_worded_in_the_reports_language(tmp_path, lang):
    text = _audit(tmp_path, PRETRAIN, {"gpu": "h100-80gb-sxm", "count": 16, "nodes": 2}, {"provider": "gcp"},
                  "--lang", lang, "--detail", "full")
    flat = "".join(text.split())  # the report wraps its lines
    if lang == "zh":
        assert "gcp列出的a3-highgpu-8g每节点8块GPU，与提案所给相符" in flat and "proposalgives" not in flat
    else:
        assert "gcplistsa3-highgpu-8gwiththe8GPUsanodetheproposalgives" in flat
