"""review49: gpuwise used as a buyer would, on fresh inputs; each bug found has its test here.

1. Speculative decoding's defaults were silent. Serving Qwen3-235B-A22B (FP8, SGLang, EAGLE-3, 3 requests/s)
   with `speculative: {method: eagle3}` and no acceptance rate, the answer's TPOT rests on EAGLE-3's default
   acceptance of 0.7 and 3 drafted tokens (knowledge/serving.yaml speculative_methods): a verify step yields
   (1 - 0.7^4) / (1 - 0.7) = 2.533 tokens a sequence. Neither default was in the assumptions (brief or full),
   though docs/formats.md says a default that matters to the answer is listed there; the number a buyer most
   needs to check against their own traffic was nowhere on the page. Now both are assumptions with their source.
"""
from __future__ import annotations

import json

import yaml

from tests.clirun import gpuwise

SRV = {"workload": {"task": "inference", "model": "qwen3-235b-a22b", "precision": "fp8", "framework": "sglang",
                    "prompt_tokens": 2000, "output_tokens": 400, "requests_per_s": 3,
                    "speculative": {"method": "eagle3"}},
       "constraints": {"gpus": ["H200"], "acquisition": "rent"}}


def _run(tmp_path, doc: dict, *args: str):
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(doc), encoding="utf-8")
    r = gpuwise("estimate", "q.yaml", "--gpu", "H200", "--gpus", "4", *args, cwd=tmp_path)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return r


def test_speculative_defaults_are_assumptions_with_their_figures(tmp_path):
    d = json.loads(_run(tmp_path, SRV, "--format", "json").stdout)
    spec = d["gpu"]["serving"]["speculative"]
    # knowledge/serving.yaml speculative_methods.eagle3: acceptance 0.7, 3 drafted tokens
    assert (spec["acceptance_rate"], spec["draft_tokens"]) == (0.7, 3)
    assert abs(spec["tokens_per_step"] - (1 - 0.7 ** 4) / (1 - 0.7)) < 1e-9  # 2.533
    said = {a["field"]: a for a in d["assumptions"]}
    assert said["workload.speculative.acceptance_rate"]["value"] == 0.7
    assert said["workload.speculative.draft_tokens"]["value"] == 3
    reason = said["workload.speculative.acceptance_rate"]["reason"]
    assert "70%" in reason and "EAGLE-3" in reason and "speculative_methods" in reason
    text = " ".join(_run(tmp_path, SRV).stdout.split())
    assert "workload.speculative.acceptance_rate: 0.7 [default: not given:" in text
    zh = " ".join(_run(tmp_path, SRV, "--lang", "zh").stdout.split())
    assert "workload.speculative.acceptance_rate" in zh and "not given" not in zh


def test_stated_speculative_figures_are_not_said_as_assumptions(tmp_path):
    doc = json.loads(json.dumps(SRV))
    doc["workload"]["speculative"].update(acceptance_rate=0.55, draft_tokens=2)
    d = json.loads(_run(tmp_path, doc, "--format", "json").stdout)
    spec = d["gpu"]["serving"]["speculative"]
    assert (spec["acceptance_rate"], spec["draft_tokens"]) == (0.55, 2)
    assert not [a for a in d["assumptions"] if a["field"].startswith("workload.speculative")]


def test_a_method_the_framework_does_not_run_states_no_default(tmp_path):
    # llama.cpp runs only a draft model (speculative_methods: eagle3 lists vllm, sglang, tensorrt-llm):
    # SRV-SPECULATIVE-UNSUPPORTED says it is not modelled, so no default of it is used
    doc = json.loads(json.dumps(SRV))
    doc["workload"].update(framework="llama.cpp", precision="int4", model="qwen3-32b")
    doc["workload"].pop("requests_per_s")
    d = json.loads(_run(tmp_path, doc, "--format", "json").stdout)
    assert not [a for a in d["assumptions"] if a["field"].startswith("workload.speculative")]
