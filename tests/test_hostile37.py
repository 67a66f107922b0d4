"""Hostile round 37's fixed failures (benchmarks/hostile_round37.py): session 36's merges used as a careless
author would -- the Python API's ``fx_rate``, a clouds.yaml offer's ``min_gpus``, a DGX Spark's host RAM stated past
its one memory, an alias named by two alias_checkpoints groups."""

from __future__ import annotations

from pathlib import Path

import pytest

import gpuwise
from gpuwise.errors import UserError

from .clirun import gpuwise as cli

PLAN = """horizon_months: 3
constraints: {acquisition: rent, gpus: [rtx-4090]}
workloads:
  - name: lora-8b
    workload: {task: finetune, method: lora, model: llama-3.1-8b, seq_len: 4096, train_tokens: 2.0e+8}
    cadence: {per_month: 1}
"""
LORA = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "seq_len": 4096,
                     "train_tokens": 2.0e8}}


@pytest.mark.parametrize("rate, words", [
    # round 37: 0 stopped inside the plan with ZeroDivisionError, 'abc' with float()'s ValueError; -1, NaN, inf
    # and True were taken and every amount converted at them (the command line's --fx-rate refuses all six)
    (0, "fx_rate: 0 is not a rate of CNY per USD from 1e-06 to 1e+06"),
    (-1, "fx_rate: -1 is not a rate of CNY per USD from 1e-06 to 1e+06"),
    (float("nan"), "fx_rate: nan is not a rate of CNY per USD"),
    (float("inf"), "fx_rate: inf is not a rate of CNY per USD"),
    ("abc", "fx_rate: 'abc' is not a number"),
    (True, "fx_rate: True is not a number"),
])
def test_plan_api_fx_rate_refused(tmp_path: Path, rate, words):
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    with pytest.raises(UserError) as err:
        gpuwise.plan(str(tmp_path / "plan.yaml"), fx_rate=rate)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_recommend_api_fx_rate_zero_refused():
    with pytest.raises(UserError, match="fx_rate: 0 is not a rate of CNY per USD"):
        gpuwise.recommend(LORA, fx_rate=0)


def test_api_fx_rate_in_range_kept(tmp_path: Path):
    """7.1 CNY per USD (and an int, 7) is the rate the plan converts at, undated, as --fx-rate's is."""
    (tmp_path / "plan.yaml").write_text(PLAN, encoding="utf-8")
    for rate in (7.1, 7):
        info = gpuwise.plan(str(tmp_path / "plan.yaml"), fx_rate=rate, currency="CNY").model_dump()["currency_info"]
        assert (info["usd_cny"], info["as_of"]) == (rate, "")


OFFER = """gpu_hour_prices:
  - provider: runpod
    gpu: h100-80gb-sxm
    usd_per_gpu_hour: 1.10
    {sizes}
    as_of: 2026-11-01
    source: our own quote, 2026-11
    check: U
"""


@pytest.mark.parametrize("sizes, words", [
    # round 37: listed 'per GPU (16 to 8 GPUs)' and rented as 16 GPUs of an offer of at most 8 (offers.py
    # n = max(count, min_gpus)); -8 and 0 were read as one GPU; 1e9 rented a billion GPUs at $1.1e9 an hour
    ("min_gpus: 16\n    max_gpus: 8", "kb/clouds.yaml: gpu_hour_prices[0]: min_gpus 16 is more than max_gpus 8"),
    # the value given is said in English as in zh (round 37: '(got -8)' was in the zh line only)
    ("min_gpus: -8\n    max_gpus: 8",
     "kb/clouds.yaml: gpu_hour_prices[0].min_gpus: must be at least 1 (got -8)"),
    ("min_gpus: 0", "kb/clouds.yaml: gpu_hour_prices[0].min_gpus: must be at least 1 (got 0)"),
    ("min_gpus: 1000000000", "kb/clouds.yaml: gpu_hour_prices[0].min_gpus: must be at most"),
])
def test_offer_min_gpus_refused(tmp_path: Path, sizes, words):
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(OFFER.format(sizes=sizes), encoding="utf-8")
    r = cli("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr)
    assert words in r.stderr, r.stderr


def test_knowledge_bound_error_names_the_value_in_both_languages(tmp_path: Path):
    """A knowledge file's number past its bound (clouds.yaml min_gpus: -8, bound ge=1) shows the value given in
    English as the zh line does; a validator's own complaint is not given it twice."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(OFFER.format(sizes="min_gpus: -8"), encoding="utf-8")
    en = cli("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb", cwd=tmp_path)
    zh = cli("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb", "--lang", "zh", cwd=tmp_path)
    assert en.stderr.strip().endswith("min_gpus: must be at least 1 (got -8)"), en.stderr
    assert zh.stderr.strip().endswith("必须不小于 1（给出的是 -8）"), zh.stderr
    (tmp_path / "kb" / "clouds.yaml").write_text(OFFER.format(sizes="min_gpus: 16\n    max_gpus: 8"),
                                                 encoding="utf-8")
    en = cli("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb", cwd=tmp_path)
    assert en.stderr.strip().endswith("min_gpus 16 is more than max_gpus 8") and "(got" not in en.stderr, en.stderr


def test_offer_min_gpus_a_whole_node_listed(tmp_path: Path):
    """min_gpus 8 with max_gpus 8 (a node rented whole, as CoreWeave's HGX offers are) is listed as 8 GPUs."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "clouds.yaml").write_text(OFFER.format(sizes="min_gpus: 8\n    max_gpus: 8"),
                                                 encoding="utf-8")
    # a wide terminal: one line a row, the item's cell beside its amount
    r = cli("prices", "--gpu", "h100-80gb-sxm", "--knowledge", "kb", cwd=tmp_path, env={"COLUMNS": "300"})
    assert r.returncode == 0 and "GPU (8 GPUs) 1.1 USD per GPU-hour" in " ".join(r.stdout.split()), r.stderr


# one GB10 (a DGX Spark: 128 GB its GPU and CPU share, gpus.yaml memory.shared_with_host) for an 8B full fine-tune
# with ZeRO-2 optimizer offload: 141 GB of host RAM needed, 128 - 36.1 GB held by the GPU side = 91.9 GB left
SPARK = ("title: t\n"
         "workload: {task: finetune, method: full, model: llama-3.1-8b, precision: bf16, seq_len: 2048, zero_stage: 2, "
         "offload: cpu, train_tokens: 2.0e+7}\n"
         "hardware: {gpu: gb10, count: %d%s}\nacquisition: {mode: buy}\n")


@pytest.mark.parametrize("count, ram, most", [(1, 1000, 128), (1, 129, 128), (2, 200, 128)])
def test_spark_host_ram_past_its_memory_refused(tmp_path: Path, count, ram, most):
    """Round 37: 1,000 GB stated on one Spark was taken as host RAM beside its 128 GB, so the 141 GB offload was
    judged held (MEM-HOST-RAM-HELD, audit exit 0); two Sparks are two servers of one GB10 each (128 GB each)."""
    (tmp_path / "p.yaml").write_text(SPARK % (count, f", host_ram_gb: {ram}"), encoding="utf-8")
    r = cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr)
    assert "p.yaml: hardware.host_ram_gb: the 128 GB of NVIDIA GB10" in r.stderr
    assert f"a server of 1 has {most} GB in all, not the {ram} GB given" in r.stderr, r.stderr


def test_spark_host_ram_within_its_memory_judged(tmp_path: Path):
    """128 GB stated (the whole memory) is read as stated: short of the 141 GB, MEM-HOST-RAM-SHORT (exit 1)."""
    (tmp_path / "p.yaml").write_text(SPARK % (1, ", host_ram_gb: 128"), encoding="utf-8")
    r = cli("audit", "p.yaml", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1 and "MEM-HOST-RAM-SHORT" in r.stdout, r.stderr


def test_owned_spark_host_ram_past_its_memory_refused(tmp_path: Path):
    (tmp_path / "plan.yaml").write_text(PLAN + "owned: [{gpu: gb10, count: 2, host_ram_gb: 200}]\n", encoding="utf-8")
    r = cli("plan", "plan.yaml", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr)
    assert "plan.yaml: owned[0].host_ram_gb:" in r.stderr and "共有 128 GB，而非给出的 200 GB" in r.stderr, r.stderr


K26 = ("workload: {task: inference, model: Kimi K2.6, framework: sglang, prompt_tokens: 1000, output_tokens: 1000, "
       "concurrent_requests: 1}\n")
GROUP = "models:\n  - id: kimi-k2\n    alias_checkpoints:\n      - {aliases: [%s], precision: %s, source: ours}\n"


def _k26(tmp: Path, overlay: str):
    (tmp / "kb").mkdir()
    (tmp / "kb" / "models.yaml").write_text(overlay, encoding="utf-8")
    (tmp / "r.yaml").write_text(K26, encoding="utf-8")
    return cli("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json", "--knowledge", "kb", cwd=tmp)


def test_alias_in_two_groups_of_two_precisions_refused(tmp_path: Path):
    """Round 37: an overlay's group giving Kimi-K2.6 nvfp4 was added after models.yaml's int4 group naming it, and
    never read (the alias note still said int4, exit 0)."""
    r = _k26(tmp_path, GROUP % ("Kimi-K2.6", "nvfp4"))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, (r.returncode, r.stderr)
    assert ("kb/models.yaml: models[0] (id kimi-k2).alias_checkpoints[0].aliases[0]: 'kimi-k2.6' is named by two "
            "alias_checkpoints groups, int4 and nvfp4") in r.stderr, r.stderr


def test_alias_repeated_in_its_own_precision_read(tmp_path: Path):
    """The same alias in the same precision (an overlay restating models.yaml's group) is no conflict: int4 said."""
    import json

    r = _k26(tmp_path, GROUP % ("kimi k2.6", "int4"))
    assert r.returncode == 0, r.stderr
    note = next(a for a in json.loads(r.stdout)["assumptions"] if a["field"] == "workload.model")
    assert note["message_id"] == "name.alias_checkpoint" and note["values"]["checkpoint"] == "int4", note


@pytest.mark.parametrize("given", ["Selective_Op", "selective_op "])
def test_selective_op_written_otherwise_gets_did_you_mean(tmp_path: Path, given):
    """Round 37: 'Selective_Op' and 'selective_op ' (a trailing space) were refused listing true, false, 'auto' and
    'selective_op' but without the close match other enumerated fields give: the union's word (Literal 'auto' or
    'selective_op' of workload.gradient_checkpointing) is now offered as a misspelt choice's is, in both languages."""
    (tmp_path / "r.yaml").write_text(
        "workload: {task: finetune, method: full, model: llama-3.1-8b, train_tokens: 1.0e+6, "
        f"gradient_checkpointing: '{given}'}}\n", encoding="utf-8")
    r = cli("recommend", "r.yaml", cwd=tmp_path)
    assert r.returncode == 2 and "workload.gradient_checkpointing" in r.stderr, r.stderr
    assert "(did you mean selective_op?)" in r.stderr, r.stderr
    r = cli("recommend", "r.yaml", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and "必须是 true 或 false，或者 'auto' 或 'selective_op'" in r.stderr, r.stderr
    assert "你是不是指 selective_op" in r.stderr, r.stderr


@pytest.mark.parametrize("entry, en, zh", [
    # round 37: 'sparse_attention.kind: Field required (+5 more)'; SparseAttention (gpuwise/knowledge/schema/models.py)
    # requires kind, index_heads, index_head_dim, top_k, index_key_bytes and source, indexer_layers alone is given
    ("    sparse_attention:\n      indexer_layers: 8\n",
     "kb/models.yaml: models[0] (id llama-3.1-8b).sparse_attention: sparse_attention needs kind, index_heads, "
     "index_head_dim, top_k, index_key_bytes, source",
     "sparse_attention 缺少 kind, index_heads, index_head_dim, top_k, index_key_bytes, source"),
    # round 37: at the entry's top level it was offered 'layers' (the nearest spelling); it is sparse_attention's field
    ("    indexer_layers: 8\n",
     "kb/models.yaml: models[0] (id llama-3.1-8b).indexer_layers: unknown key (did you mean "
     "'sparse_attention.indexer_layers'?)", "你是不是指“sparse_attention.indexer_layers”"),
])
def test_indexer_layers_on_a_model_without_sparse_attention(tmp_path: Path, entry, en, zh):
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "models.yaml").write_text("models:\n  - id: llama-3.1-8b\n" + entry, encoding="utf-8")
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 1000, "
                                     "output_tokens: 100, concurrent_requests: 1}\n", encoding="utf-8")
    r = cli("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip() == f"gpuwise: {en}", r.stderr
    r = cli("estimate", "r.yaml", "--gpu", "h100", "--knowledge", "kb", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and zh in r.stderr, r.stderr


def test_a_section_missing_fields_beside_another_problem_counts_it(tmp_path: Path):
    """The missing fields of one section are one problem named whole; another problem in it (indexer_layers 0, its
    bound ge=1) is counted after, in each language."""
    (tmp_path / "kb").mkdir()
    (tmp_path / "kb" / "models.yaml").write_text(
        "models:\n  - id: llama-3.1-8b\n    sparse_attention:\n      indexer_layers: 0\n", encoding="utf-8")
    r = cli("prices", "--knowledge", "kb", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip().endswith(
        "sparse_attention: sparse_attention needs kind, index_heads, index_head_dim, top_k, index_key_bytes, source; "
        "1 more problem"), r.stderr
    r = cli("prices", "--knowledge", "kb", "--lang", "zh", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.strip().endswith("source；另有 1 处问题"), r.stderr
