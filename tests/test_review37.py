"""review37: a user's hour with session 33's merges (optimum-habana, recurrent_state_dtype, Gemma 4, the Spark
priced per system). Each test fails on the code before its fix; the whole round is benchmarks/hostile_round30.py."""

from __future__ import annotations

import json
from pathlib import Path

from .clirun import gpuwise as cli

TUNE = {"task": "finetune", "method": "lora", "model": "llama-2-70b", "train_tokens": 100_000_000,
        "stack": "optimum-habana"}
CHAT = {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1000, "output_tokens": 200,
        "concurrent_requests": 16}


def _plan(tmp_path: Path, acquisition: str) -> dict:
    (tmp_path / "plan.yaml").write_text(json.dumps({
        "horizon_months": 3,
        "workloads": [{"name": "chat", "workload": CHAT, "cadence": {"continuous": True},
                       "targets": {"requests_per_s": 2}},
                      {"name": "tune", "workload": TUNE, "cadence": {"per_month": 1}}],
        "constraints": {"acquisition": acquisition}}), encoding="utf-8")
    r = cli("plan", "plan.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def test_a_plan_never_places_an_optimum_habana_fine_tune_off_gaudi(tmp_path: Path) -> None:
    # optimum-habana runs only on Intel Gaudi (runtime.yaml training_stacks devices). The plan judged each GPU with
    # the first acquisition mode, and a GPU no cloud rents was refused by the cost rules (TCO-NO-RENTAL) before the
    # pitfalls step where CPT-TRAINING-STACK-DEVICE stood: the fine-tune was placed on 2 x H200 (rent) or bought
    # B300s (either). Now the rule is judged with the estimate, before the cost.
    either = _plan(tmp_path, "either")
    placed = {pl["gpu"] for m in either["months"] for pl in m["placements"] if pl["workload"] == "tune"}
    assert placed and all(g.startswith("gaudi") for g in placed), placed
    tune = next(w for w in either["workloads"] if w["name"] == "tune")
    assert "CPT-TRAINING-STACK-DEVICE" in tune["why_not"]["h200-141gb-sxm"]
    assert "CPT-TRAINING-STACK-DEVICE" in tune["why_not"]["b300"]
    rent = _plan(tmp_path, "rent")  # no cloud in the knowledge base rents a Gaudi: the fine-tune is not placed
    assert [u["workload"] for u in rent["unplaced"]] == ["tune"]
    assert not [pl for m in rent["months"] for pl in m["placements"] if pl["workload"] == "tune"]


def test_recommend_says_the_stack_rule_of_a_gpu_no_cloud_rents(tmp_path: Path) -> None:
    # a B300 the cost rules refuse to rent (no offer of 8) was refused for its price alone, never for the stack
    (tmp_path / "q.yaml").write_text(json.dumps({"workload": TUNE, "constraints": {
        "gpus": ["b300"], "acquisition": "rent"}}), encoding="utf-8")
    r = cli("recommend", "q.yaml", "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    fits = [c for c in d["candidates"] if "MEM-NO-FIT" not in c["rules"]]
    assert fits and all("CPT-TRAINING-STACK-DEVICE" in c["rules"] for c in fits)


def _said(tmp_path: Path, workload: dict) -> str:
    (tmp_path / "q.yaml").write_text(json.dumps({"workload": workload}), encoding="utf-8")
    r = cli("estimate", "q.yaml", "--gpu", "h200", "--gpus", "2", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and len(r.stderr.strip().splitlines()) == 1, r.stderr
    return r.stderr


HYBRID = {"task": "inference", "model": "qwen3-next-80b-a3b", "framework": "sglang", "prompt_tokens": 1000,
          "output_tokens": 200, "concurrent_requests": 8}


def test_an_element_type_in_other_capitals_or_torchs_spelling_is_offered_its_own_name(tmp_path: Path) -> None:
    # 'BFloat16' was offered float16 (difflib's nearest spelling, case kept) and 'fp32' nothing
    for given, meant in (("BFloat16", "bfloat16"), ("fp32", "float32"), ("torch.float16", "float16")):
        assert f"(did you mean {meant}?)" in _said(tmp_path, {**HYBRID, "recurrent_state_dtype": given})
    assert "(did you mean fp16?)" in _said(tmp_path, {**HYBRID, "precision": "float16"})


def test_an_engines_own_flag_as_a_key_is_offered_the_field_that_says_it(tmp_path: Path) -> None:
    # docs/formats.md: recurrent_state_dtype is SGLang --mamba-ssm-dtype, vLLM --mamba-ssm-cache-dtype; the KV
    # cache's type is kv_precision (vLLM --kv-cache-dtype), where difflib offered kv_cache_tokens
    for key, field in (("mamba_ssm_cache_dtype", "recurrent_state_dtype"), ("mamba_ssm_dtype", "recurrent_state_dtype"),
                       ("kv_cache_dtype", "kv_precision")):
        assert f"unknown key (did you mean '{field}'?)" in _said(tmp_path, {**HYBRID, key: "float32"})


def test_a_copy_on_one_gpu_systems_spans_its_own_servers_and_was_not_pinned(tmp_path: Path) -> None:
    # three DGX Sparks (one GB10 a system) bought for a Qwen3-235B-A22B FP4 copy of TP 2 (68.8 GB a GPU): the copy
    # spans ceil(2 / 1) = 2 systems, the third idles (SRV-GPUS-IDLE); the line said 'one copy across 3 nodes as
    # pinned', of a layout no one pinned
    (tmp_path / "p.yaml").write_text(json.dumps({
        "title": "three sparks", "hardware": {"gpu": "DGX Spark", "count": 3}, "acquisition": {"mode": "buy"},
        "workload": {"task": "inference", "model": "qwen3-235b-a22b", "precision": "fp4", "framework": "vllm",
                     "prompt_tokens": 1000, "output_tokens": 200, "concurrent_requests": 4}}), encoding="utf-8")
    r = cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    d = json.loads(r.stdout)
    said = [s["conclusion"] for s in d["steps"] if "one copy across" in s["conclusion"]]
    assert said and said[0].endswith("(tensor parallel 2, one copy across 2 nodes)"), said
    zh = cli("audit", "p.yaml", "--lang", "zh", cwd=tmp_path).stdout
    assert "一个副本跨2个节点" in "".join(zh.split()) and "按指定" not in zh


def test_zh_says_what_each_serving_copy_is(tmp_path: Path) -> None:
    # '%(n)s copy of %(copy)s' read '1 个副本，每个 单块 GPU' ('1 copy, each single GPU'): now '每个副本为单块 GPU'
    # (review52: no space where a CJK value meets CJK text)
    (tmp_path / "q.yaml").write_text(json.dumps({"workload": {
        "task": "inference", "model": "gemma-4-26b-a4b", "prompt_tokens": 8000, "output_tokens": 1000,
        "concurrent_requests": 8}}), encoding="utf-8")
    zh = cli("recommend", "q.yaml", "--lang", "zh", cwd=tmp_path).stdout
    assert "1 个副本，每个副本为单块 GPU" in zh and "每个 单块" not in zh


def _context_rule(tmp_path: Path, workload: dict) -> list[str]:
    (tmp_path / "q.yaml").write_text(json.dumps({"workload": workload}), encoding="utf-8")
    d = json.loads(cli("recommend", "q.yaml", "--format", "json", cwd=tmp_path).stdout)
    return [f["message"] for f in d["findings"] if f["rule"] == "SRV-CONTEXT-BEYOND-MODEL"]


def test_a_context_past_the_models_window_is_said(tmp_path: Path) -> None:
    # Llama 3.1 8B's window is 131,072 tokens (models.yaml max_context, config.json max_position_embeddings): a
    # 300,000-token prompt was estimated and recommended without a word
    said = _context_rule(tmp_path, {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 300_000,
                                    "output_tokens": 100})
    assert said == ["Llama 3.1 8B takes at most 131,072 tokens of context, prompt and output together; the workload "
                    "asks for 300,100, which the figures price as if it ran"]
    # within the window says nothing; nor does the default context (4,096) past Pythia-410M's 2,048, which the user
    # did not write, where a stated 3,000-token prompt is said
    assert not _context_rule(tmp_path, {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 131_000,
                                        "output_tokens": 72})
    assert not _context_rule(tmp_path, {"task": "inference", "model": "pythia-410m"})
    assert len(_context_rule(tmp_path, {"task": "inference", "model": "pythia-410m", "prompt_tokens": 3000})) == 1
