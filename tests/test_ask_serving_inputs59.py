"""`gpuwise ask` reaches the 2026 serving inputs, a training run's offload and the market (askreview59).

A team lead sizing a DeepSeek / Qwen3.5 service could state its rate and p95 targets but not what its
server runs with: an FP8 KV cache, a prefix cache hit rate, speculative decoding, a quantisation method,
disaggregated prefill (docs/formats.md, workload fields, v3) -- the questionnaire had no question for any
of them, so only a hand-edited file reached them. Nor could an engineer sizing a 70B fine-tune say
`offload: cpu` or `none`, nor a yuan-paying team outside China say `market: global`. Each is now an
advanced setting; the saved file carries the answer and the requirements model reads it back.
"""

from __future__ import annotations

import typing
from pathlib import Path

import yaml

from gpuwise.ask.questionnaire import _Session, load_questions, render_answers
from gpuwise.inputs.job import resolve
from gpuwise.inputs.requirements import Constraints
from gpuwise.inputs.schema import Requirements
from gpuwise.inputs.workload import QUANTIZATION_PRECISIONS, Workload
from gpuwise.inputs.workload_sections import Speculative
from gpuwise.knowledge import load

from .test_questionnaire import flow

QN = load_questions()
KB = load()
SERVING = ["workload.quantization", "workload.kv_precision", "workload.prefix_cache_hit_rate",
           "workload.speculative", "workload.disaggregated"]


def _values(annotation: object) -> set:
    out: set = set()
    for a in typing.get_args(annotation):
        out |= set(typing.get_args(a)) if typing.get_args(a) else ({a} if a is not type(None) else set())
    return out or set(typing.get_args(annotation))


def test_each_is_asked_in_the_advanced_settings_of_its_task_only(tmp_path: Path) -> None:
    asked, _ = flow(tmp_path, {"workload.task": "inference", "advanced": True})
    assert set(SERVING) <= set(asked) and "workload.offload" not in asked
    assert asked.index("workload.quantization") + 1 == asked.index("workload.precision")
    assert "constraints.market" in asked
    asked, _ = flow(tmp_path, {"workload.method": "lora", "advanced": True})
    assert not set(SERVING) & set(asked) and "workload.offload" in asked
    assert asked.index("workload.offload") == asked.index("workload.zero_stage") + 1
    asked, s = flow(tmp_path, {"workload.task": "inference", "advanced": False})
    assert not set(SERVING) & set(asked) and "constraints.market" not in asked
    assert not {"kv_precision", "quantization", "speculative", "disaggregated"} & set(s.answers["workload"])
    listed = [q.key for q in s.advanced_defaults()]  # said with the defaults before the advanced question
    assert set(SERVING) <= set(listed)


def test_the_choices_are_the_schemas_values_and_enter_keeps_the_documented_default(tmp_path: Path) -> None:
    assert {c.value for c in QN.by_key("workload.quantization").choices} - {None} == set(QUANTIZATION_PRECISIONS)
    assert {c.value for c in QN.by_key("workload.kv_precision").choices} == _values(
        Workload.model_fields["kv_precision"].annotation)
    assert {c.value for c in QN.by_key("workload.offload").choices} == _values(
        Workload.model_fields["offload"].annotation)
    assert {c.value for c in QN.by_key("constraints.market").choices} - {None} == _values(
        Constraints.model_fields["market"].annotation)
    methods = {c.value["method"] for c in QN.by_key("workload.speculative").choices if c.value}
    # draft-model needs draft_params_b, a second answer: written in the file (the help says so)
    assert methods == _values(Speculative.model_fields["method"].annotation) - {"draft-model"}
    _, s = flow(tmp_path, {"workload.task": "inference", "advanced": True})
    req = Requirements.model_validate(s.answers)
    w = req.workload
    assert (w.kv_precision, w.prefix_cache_hit_rate, w.speculative, w.quantization, w.disaggregated) == (
        "auto", 0, None, None, False)
    assert req.constraints.market is None  # not stated: china with CNY, else global (the model's own default)


def test_a_quantisation_method_offers_the_precision_it_stores(tmp_path: Path) -> None:
    """AWQ stores int4 (inputs/workload.py QUANTIZATION_PRECISIONS): Enter at the precision question after
    it must not write bf16, which the model refuses beside awq."""
    for method, precision in [("awq", "int4"), ("fp8", "fp8"), ("nvfp4", "fp4"), ("w8a8-int8", "int8")]:
        _, s = flow(tmp_path, {"workload.task": "inference", "workload.model": "qwen3.5-397b-a17b",
                               "advanced": True, "workload.quantization": method})
        assert s.answers["workload"]["precision"] == precision, method
        Requirements.model_validate(s.answers)


def test_a_service_answered_with_them_is_saved_and_read_back(tmp_path: Path) -> None:
    answers = {"workload.task": "inference", "workload.model": "deepseek-v3.2-exp", "workload.requests_per_s": 12,
               "workload.p95_ttft_s": 2, "workload.p95_tpot_s": 0.05, "advanced": True,
               "workload.framework": "sglang", "workload.kv_precision": "fp8",
               "workload.prefix_cache_hit_rate": 0.5, "workload.speculative": {"method": "mtp"},
               "workload.disaggregated": True, "constraints.market": "global"}
    _, s = flow(tmp_path, answers, currency="CNY")
    text = render_answers(s.answers, QN, lang="zh", currency="CNY", state=s.state())
    data = yaml.safe_load(text)
    w = data["workload"]
    assert (w["kv_precision"], w["prefix_cache_hit_rate"], w["speculative"], w["disaggregated"]) == (
        "fp8", 0.5, {"method": "mtp"}, True)
    assert data["constraints"]["market"] == "global"
    assert "speculative: {method: mtp}  # 投机解码" in text
    # resumed, the file asks nothing again and keeps every answer
    s2 = _Session(QN, KB, tmp_path / "again.yaml", lang="zh", currency=None)
    s2.load(data, text)
    s2.set_currency()
    assert s2.pending() is None and s2.answers["workload"]["speculative"] == {"method": "mtp"}
    job = resolve(Requirements.model_validate(data), KB)
    assert (job.w.kv_precision, job.w.prefix_cache_hit_rate, job.w.disaggregated) == ("fp8", 0.5, True)
    assert job.w.speculative is not None and job.w.speculative.method == "mtp"


def test_a_fine_tune_can_ask_for_cpu_offload_or_none(tmp_path: Path) -> None:
    for offload in ("cpu", "none", "nvme"):
        _, s = flow(tmp_path, {"workload.model": "llama-3.1-70b", "workload.method": "lora", "advanced": True,
                               "workload.offload": offload})
        assert Requirements.model_validate(s.answers).workload.offload == offload


def test_the_advanced_questions_of_a_service_say_what_they_are(tmp_path: Path) -> None:
    """The gate named 'precision, batch, optimizer, sharding' to a service, which has none of the last three; and
    after a p95 first-token target of 2 s the max TTFT question read 'Longest acceptable wait for the first token,
    in milliseconds?' -- the same question again to the user, though it bounds another figure (the estimate at the
    load, rule CMP-TTFT-TARGET), not the 95th percentile."""
    _, s = flow(tmp_path, {"workload.task": "inference", "workload.requests_per_s": 4, "workload.p95_ttft_s": 2,
                           "workload.p95_tpot_s": 0.05, "advanced": True})
    for lang in ("en", "zh"):
        s.lang = lang
        assert "optimizer" not in s.text(QN.by_key("advanced"), "question") and "优化器" not in s.text(
            QN.by_key("advanced"), "question")
        for key in ("workload.max_ttft_ms", "workload.max_tpot_ms"):
            said = s.text(QN.by_key(key), "question")
            assert "p95" in said, (lang, key)
    s.lang = "en"
    assert "CMP-TTFT-TARGET" in s.text(QN.by_key("workload.max_ttft_ms"), "help")
    _, t = flow(tmp_path, {"workload.task": "inference", "advanced": True})  # no p95 target: the plain question
    assert t.text(QN.by_key("workload.max_ttft_ms"), "question").startswith("Longest acceptable wait")
    _, f = flow(tmp_path, {"advanced": True})  # a fine-tune keeps the training words
    assert "optimizer" in f.text(QN.by_key("advanced"), "question")
