"""backendmla43: SGLang attention backends that need, or refuse, a model with multi-head latent attention (MLA).

SGLang's own checks (sgl-project/sglang @ 43681aaa768047065d50fb746c884077a44ed505):
- python/sglang/srt/layers/attention/attention_registry.py: create_trtllm_mla_backend raises 'trtllm_mla backend can
  only be used with MLA models.', create_trtllm_mha_backend 'trtllm_mha backend can only be used with non-MLA
  models.', and create_flashattention_v3_backend asserts a device major of 9, or of 8 for a model without MLA;
- python/sglang/srt/model_executor/model_runner.py: an MLA model whose stated backend is not in
  MLA_ATTENTION_BACKENDS (aiter, flashinfer, fa3, fa4, triton, flashmla, cutlass_mla, trtllm_mla, ascend, nsa) stops
  with 'Invalid attention backend for MLA';
- FlashMLABackend and CutlassMLABackend read model_config.kv_lora_rank, which model_config.py sets for an MLA
  architecture only.
Before this branch each case below was priced as a server that runs. Catalog: llama-3.1-8b has no MLA shapes,
glm-4.7-flash has (kv_lora_rank 512, knowledge/models.yaml)."""

from __future__ import annotations

from pathlib import Path

import yaml

from gpuwise import audit, estimate, recommend

CHAT = {"task": "inference", "model": "llama-3.1-8b", "framework": "sglang", "prompt_tokens": 1000,
        "output_tokens": 200, "concurrent_requests": 4}
GLM = {**CHAT, "model": "glm-4.7-flash"}  # multi-head latent attention


def _runs(w: dict, gpu: str) -> tuple[bool, str, list[str]]:
    g = estimate({"workload": w}, gpu=gpu, gpus=1).gpu
    assert g.serving is not None
    return g.serving.supports.gpu, g.serving.supports.reason, [x.rule for x in g.rejected_by]


def test_estimate_refuses_an_mla_only_backend_for_a_model_without_mla() -> None:
    refused = (False, "attention_backend_model", ["CMP-ATTENTION-BACKEND-GPU"])
    assert _runs({**CHAT, "attention_backend": "trtllm_mla"}, "b200") == refused  # a Blackwell GPU: only the model
    assert _runs({**CHAT, "attention_backend": "flashmla"}, "h100-80gb-sxm") == refused
    assert _runs({**CHAT, "attention_backend": "cutlass_mla"}, "b200") == refused
    # the same backends serve the MLA model
    assert _runs({**GLM, "attention_backend": "trtllm_mla"}, "b200")[0] is True
    assert _runs({**GLM, "attention_backend": "flashmla"}, "h100-80gb-sxm")[0] is True
    assert _runs({**GLM, "attention_backend": "cutlass_mla"}, "b200")[0] is True
    # fa4 is left unlimited by model kind (later registries drop 43681aaa's MLA-only assertion)
    assert _runs({**CHAT, "attention_backend": "fa4"}, "b200")[0] is True


def test_recommend_refuses_a_non_mla_backend_for_an_mla_model() -> None:
    for backend in ("trtllm_mha", "torch_native", "flex_attention"):
        assert _runs({**GLM, "attention_backend": backend}, "h100-80gb-sxm") == (
            False, "attention_backend_model", ["CMP-ATTENTION-BACKEND-GPU"]), backend
        assert _runs({**CHAT, "attention_backend": backend}, "h100-80gb-sxm")[0] is True, backend
    r = recommend({"workload": {**GLM, "attention_backend": "trtllm_mha"},
                   "constraints": {"gpus": ["h100"], "max_gpus": 2}})
    assert r.recommendation is None
    h100 = [c for c in r.candidates if c.gpu == "h100-80gb-sxm"]
    assert h100 and all("CMP-ATTENTION-BACKEND-GPU" in c.rules and not c.feasible for c in h100)


def _audit_rules(tmp_path: Path, workload: dict, gpu: str) -> set[str]:
    doc = {"title": "t", "workload": workload, "hardware": {"gpu": gpu, "count": 1}, "acquisition": {"mode": "buy"}}
    prop = tmp_path / "proposal.yaml"
    prop.write_text(yaml.safe_dump(doc))
    return {f.rule for f in audit(str(prop)).findings}


def test_audit_blocks_fa3_for_an_mla_model_on_ampere(tmp_path: Path) -> None:
    # the fa3 assert admits SM 8.x for a model without MLA only: GLM-4.7-Flash on an A100 (8.0) stops, on an H100
    # (9.0) it runs, and Llama 3.1 8B runs on the A100
    assert _runs({**GLM, "attention_backend": "fa3"}, "a100-80gb-sxm") == (
        False, "attention_backend_model", ["CMP-ATTENTION-BACKEND-GPU"])
    assert _runs({**GLM, "attention_backend": "fa3"}, "h100-80gb-sxm")[0] is True
    assert "CMP-ATTENTION-BACKEND-GPU" in _audit_rules(tmp_path, {**GLM, "attention_backend": "fa3"}, "a100-80gb-sxm")
    assert "CMP-ATTENTION-BACKEND-GPU" not in _audit_rules(tmp_path, {**CHAT, "attention_backend": "fa3"},
                                                             "a100-80gb-sxm")
