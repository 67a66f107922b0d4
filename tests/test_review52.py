"""review52: review51's leftovers, the decision document as the person who signs it reads it.

1. A proposal that gives its hourly rate and names no provider is priced at provider 'proposal'; the page says
   'the proposal's provider' (review51), but the JSON's English still read '8 GPUs on proposal' (the ledger
   item), 'renting from proposal at $2.95 per GPU-hour' (the TCO-RENT step) and 'proposal per GPU-hour' (the
   prices used): the English a result carries is filled the way the page words the value.
"""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

# 8 MI355X rented at the proposal's own $2.95 a GPU-hour, no provider named (as tests/test_review51.py)
MI355X_RATE_ONLY = {
    "title": "Rent 8 x MI355X for long-context Llama 3.1 70B FP8 on vLLM without AITER",
    "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "framework": "vllm",
                 "framework_version": "0.15.1", "rocm_aiter": False, "prompt_tokens": 32000,
                 "output_tokens": 1000, "concurrent_requests": 16},
    "hardware": {"gpu": "MI355X", "count": 8, "nodes": 1},
    "acquisition": {"mode": "rent", "hourly_usd": 2.95, "months": 12}}


def _write(tmp_path, doc: dict, name: str = "q.yaml") -> str:
    (tmp_path / name).write_text(yaml.safe_dump(doc), encoding="utf-8")
    return name


def _json(tmp_path, *args: str) -> dict:
    r = gpuwise(*args, "--format", "json", cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return json.loads(r.stdout)


def _text(tmp_path, *args: str) -> str:
    r = gpuwise(*args, cwd=tmp_path)
    assert "Traceback" not in r.stderr, r.stderr
    return " ".join(r.stdout.split())


def test_the_json_names_the_proposals_provider_as_the_page_does(tmp_path):
    d = _json(tmp_path, "audit", _write(tmp_path, MI355X_RATE_ONLY, "p.yaml"))
    rent = d["proposed"]["ledger"]["lines"][0]
    assert rent["kind"] == "rent" and rent["item"] == "8 GPUs on the proposal's provider"
    assert round(rent["amount"]) == 206_736  # 8 x $2.95 x 8,760 h
    assert rent["item_phrases"][0][2]["provider"] == "proposal"  # the value stays the key a report words
    said = [s["conclusion"] for s in d["steps"]] + [p["item"] for p in d["prices_used"]]
    assert any("renting from the proposal's provider at $2.95 per GPU-hour" in s for s in said)
    assert any("(the proposal's provider per GPU-hour" in s for s in said)
    assert not any("from proposal" in s or "(proposal per" in s for s in said)
