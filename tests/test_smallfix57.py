"""smallfix57 item 1: a published quantized checkpoint on a GPU whose engine has no kernels for it (hostile round 44).

gpt-oss-120b with no precision is served at its MXFP4 checkpoint (leftovers56); vLLM's FP4 paths need compute
capability 8.0 on NVIDIA and are not built for Intel Gaudi (knowledge/serving.yaml vllm fp4: min_compute_capability
8.0, vendors nvidia and amd; vLLM's GPT-OSS recipe: H100, H200, B200, MI300X/MI325X/MI355X, and Ampere through Marlin's
MXFP4 MoE). Where no path exists the engines serve the model from 16-bit weights (Transformers dequantizes an MXFP4
checkpoint to bf16 where its kernels do not run: its MXFP4 quantization page), so a V100 is priced in fp16 (no bf16
units) and a Gaudi 3 in bf16, each said as an assumption, instead of being refused by CMP-FRAMEWORK-PRECISION; an H100
keeps the checkpoint; a stated precision is never changed."""

from __future__ import annotations

import gpuwise

OSS = {"task": "inference", "model": "gpt-oss-120b", "requests_per_s": 1}

# gpt-oss-120b: 116,829,156,672 weights (knowledge/models.yaml); in 16 bits 2 B each = 233.7 GB, over 16 V100s
PARAMS = 116_829_156_672


def _by_gpu(r):
    out = {}
    for c in r.candidates:
        out.setdefault(c.gpu, []).append(c)
    return out


def test_each_gpu_is_priced_at_what_its_engine_serves():
    r = gpuwise.recommend({"workload": OSS, "constraints": {"gpus": ["v100-32gb", "gaudi3", "h100"]}})
    by = _by_gpu(r)
    fmt = {g: {c.serving.weight_format for c in cs if c.serving is not None} for g, cs in by.items()}
    assert fmt["v100-32gb-sxm2"] == {"fp16"} and fmt["gaudi3-128gb-oam"] == {"bf16"}
    assert fmt["h100-80gb-sxm"] <= {"mxfp4"}
    for g in ("v100-32gb-sxm2", "gaudi3-128gb-oam"):
        assert not any("CMP-FRAMEWORK-PRECISION" in [s.id for s in c.reason_sentences] for c in by[g])
        assert any(c.feasible for c in by[g])
    said = {a.values.get("gpu"): a for a in r.assumptions if a.message_id == "assume.published_precision_not_here"}
    assert said.keys() == {"NVIDIA Tesla V100 SXM2 32GB", "Intel Gaudi 3 (HL-325L OAM) 128GB"}
    assert said["NVIDIA Tesla V100 SXM2 32GB"].value == "fp16" and "no kernels for the fp4 checkpoint" in \
        said["NVIDIA Tesla V100 SXM2 32GB"].reason
    assert r.recommendation is not None and r.recommendation.gpu == "h100-80gb-sxm"


def test_the_v100s_hold_the_16_bit_weights():
    """2 B x 116.8e9 = 233.7 GB of weights in fp16, where the MXFP4 checkpoint would be about a quarter of that for the
    experts. Over 16 V100s the copy is tensor parallel 8 x pipeline 2 (since serveblind30's pcie_alltoall_links an
    expert-parallel 16's all-to-all outside the NVLink mesh gets 3.3 / 16 of each link, and EP16 with attention data
    parallel, which held the rest's 2.1e9 weights on every GPU at 2 x (2.13e9 + 114.7e9 / 16) = 18.6 GB, no longer
    wins): every weight split 16 ways, 233.7 / 16 = 14.6 GB a GPU."""
    r = gpuwise.estimate({"workload": OSS}, gpu="v100-32gb", gpus=16)
    per_gpu = r.memory.breakdown["weights"] / 1e9
    assert 2 * PARAMS / 16 / 1e9 < per_gpu < 2 * (PARAMS / 16 + 3e9) / 1e9
    assert per_gpu == __import__("pytest").approx(2 * PARAMS / 16 / 1e9, abs=0.05)


def test_estimate_on_one_gpu_says_it_too():
    r = gpuwise.estimate({"workload": OSS}, gpu="v100-32gb", gpus=16)
    assert r.workload["workload"]["precision"] == "fp16"
    assert [a.value for a in r.assumptions if a.message_id == "assume.published_precision_not_here"] == ["fp16"]


def test_a_stated_precision_is_kept_and_refused_where_it_cannot_run():
    r = gpuwise.recommend({"workload": {**OSS, "precision": "fp4"}, "constraints": {"gpus": ["v100-32gb"]}})
    assert r.recommendation is None
    assert all("CMP-FRAMEWORK-PRECISION" in [s.id for s in c.reason_sentences] for c in r.candidates if c.count >= 8)
    assert not [a for a in r.assumptions if a.message_id == "assume.published_precision_not_here"]


def test_an_audit_of_v100s_judges_them_in_fp16_and_names_the_gpus_once():
    """The proposal (16 V100s bought) is judged at fp16, not refused by CMP-FRAMEWORK-PRECISION (its blocker is the
    V100's missing purchase price); the catalog search beside it says each GPU priced in 16 bits once, grouped by
    the precision it is priced at."""
    p = {"workload": OSS, "hardware": {"gpu": "v100-32gb", "count": 16, "nodes": 2}, "acquisition": {"mode": "buy"}}
    r = gpuwise.audit(p)
    assert r.proposed.serving.weight_format == "fp16"
    assert "CMP-FRAMEWORK-PRECISION" not in [f.rule for f in r.findings]
    said = [a for a in r.assumptions if a.message_id == "assume.published_precision_not_here"]
    names = [g for a in said for g in a.values["gpus"]]
    assert len(names) == len(set(names)) and "NVIDIA Tesla V100 SXM2 32GB" in names
    assert {a.value for a in said} <= {"fp16", "bf16"} and len(said) == len({a.values["gpu"] for a in said})


def test_a_plan_serves_it_on_owned_v100s_in_fp16():
    """A plan's service sizes each GPU type through the same estimate: on the 16 V100s it owns gpt-oss-120b is
    placed at fp16 (it was left unplaced, CMP-FRAMEWORK-PRECISION), and the plan's assumptions say so."""
    plan = {"horizon_months": 3, "workloads": [{"name": "oss", "workload": OSS, "cadence": {"continuous": True}}],
            "owned": [{"gpu": "v100-32gb", "count": 16, "servers": 2}],
            "constraints": {"acquisition": "rent", "gpus": ["v100-32gb"]}}
    r = gpuwise.plan(plan)
    assert not r.unplaced
    said = [a for a in r.assumptions if a.message_id == "assume.published_precision_not_here"]
    assert [a.value for a in said] == ["fp16"] and said[0].field == "oss: workload.precision"
