"""An alias whose own release ships in another dtype than its catalog entry's (knowledge/models.yaml kimi-k2
``alias_checkpoints``): Kimi K2 Thinking, K2.5 and K2.6 are K2's network (the same DeepseekV3 shapes) but Moonshot
publishes them with INT4 routed experts (quantization-aware trained, compressed-tensors pack-quantized, group 32;
every other weight BF16: moonshotai/Kimi-K2-Thinking model card, Kimi-K2.6 docs/deploy_guidance.md), where K2's own
files are FP8 (moonshotai/Kimi-K2-Instruct); NVIDIA's nvidia/Kimi-K2.x-NVFP4 releases are NVFP4
(NVIDIA/Model-Optimizer modelopt_recipes/published_checkpoints.md @ 28675dcd). Before, 'Kimi K2.6' with no precision
said "Kimi K2's published weights are fp8 ... state precision fp8": the ~1.03 TB FP8 copy, where the file a K2.6 user
downloads is the ~594 GB INT4 one."""

from __future__ import annotations

import pytest

from gpuwise.errors import KnowledgeError
from gpuwise.estimators.serving.engine import (
    checkpoint_bits,
    checkpoint_keeps,
    format_of,
    model_bytes,
    quant_formats,
)
from gpuwise.knowledge.names import published
from tests.clirun import gpuwise

ROUTED = 60 * 384 * 3 * 7168 * 2048  # K2 config.json: 60 MoE layers x 384 experts x (gate, up, down) 7,168 x 2,048
TOTAL = 1_026_408_232_448  # knowledge/models.yaml kimi-k2 params_b (recomputed from the config's shapes)


@pytest.mark.parametrize("name, dtype, note_id", [
    ("Kimi K2.6", "int4", "name.alias_checkpoint"),
    ("moonshotai/Kimi-K2.5", "int4", "name.alias_checkpoint"),
    ("moonshotai/Kimi-K2-Thinking", "int4", "name.alias_checkpoint"),
    ("nvidia/Kimi-K2.6-NVFP4", "nvfp4", "name.alias_checkpoint"),
    ("kimi-k2-instruct-0905", "fp8", "name.alias"),  # K2's own FP8 release under another name: the entry's dtype
    ("Kimi K2", "fp8", ""),
])
def test_each_name_carries_the_dtype_of_the_files_it_names(kb, name, dtype, note_id):
    r = kb.model(name)
    assert r.id == "kimi-k2" and r.note_id == note_id
    assert published(kb.models["kimi-k2"], name) == dtype
    if note_id == "name.alias_checkpoint":
        assert r.note_values == {"name": name, "label": "Kimi K2", "id": "kimi-k2", "checkpoint": dtype,
                                 "entry": "fp8"}
        assert r.note == (f"'{name}' is priced as Kimi K2 (kimi-k2): the catalog lists it as an alias of that entry, "
                          f"a release of the same network whose published weights are {dtype}, not the entry's fp8 "
                          "(knowledge/models.yaml alias_checkpoints)")


@pytest.mark.parametrize("name, ident", [
    ("nvidia/DeepSeek-R1-0528-FP4", "deepseek-r1"), ("nvidia/DeepSeek-R1-NVFP4", "deepseek-r1"),
    ("nvidia/DeepSeek-V3-0324-FP4", "deepseek-v3"), ("nvidia/DeepSeek-V3.1-NVFP4", "deepseek-v3.1"),
    ("nvidia/DeepSeek-V3.2-NVFP4", "deepseek-v3.2-exp"),
])
def test_nvidias_deepseek_releases_are_nvfp4_where_deepseeks_own_are_fp8(kb, name, ident):
    """published_checkpoints.md @ 28675dcd lists each as an NVFP4 release; an -FP4 name gives no precision word,
    so with none given the note named DeepSeek's FP8 files and precision fp8, and names NVFP4 and fp4 now."""
    from gpuwise import estimate

    assert kb.model(name).id == ident and published(kb.models[ident], name) == "nvfp4"
    assert published(kb.models[ident], ident) == "fp8"
    if name.endswith("-FP4"):
        r = estimate({"workload": {"task": "inference", "model": name}}, gpu="b200", gpus=8)
        assert [a.values for a in r.assumptions if a.field == "workload.precision"] == [
            {"model": name, "checkpoint": "nvfp4", "precision": "fp4",
             "card": kb.models[ident].alias_checkpoints[0].card}]  # served at it (leftovers56)


def test_k26_with_no_precision_names_its_int4_files_and_their_bytes(kb, accuracy):
    """With no precision K2.6 is served at its INT4 release (leftovers56; review46 had kept bf16, a 16-bit copy at 2
    bytes a weight: 2,052.82 GB), the note naming Moonshot's cards; precision int4 prices the file as published:
    1,014,686,023,680 routed weights x 4.5 bits (4 + a BF16 scale per 32) / 8 = 570.76 GB plus the 11,722,208,768
    others x 2 B = 23.44 GB: 594.21 GB (the ~594 GB of moonshotai/Kimi-K2-Thinking's safetensors; K2.6 ships the
    same format)."""
    from gpuwise import estimate

    r = estimate({"workload": {"task": "inference", "model": "Kimi K2.6"}}, gpu="h200", gpus=8)
    [p] = [a for a in r.assumptions if a.field == "workload.precision"]
    assert p.message_id == "assume.default.workload.precision.published" and p.value == "int4"
    assert p.values == {"model": "Kimi K2.6", "checkpoint": "int4", "precision": "int4",
                        "card": "huggingface.co/moonshotai/Kimi-K2-Thinking, Kimi-K2.5 and Kimi-K2.6: native INT4 "
                                "routed experts, the rest BF16"}
    given = estimate({"workload": {"task": "inference", "model": "Kimi K2.6", "precision": "int4"}}, gpu="h200",
                     gpus=8)
    assert r.memory.breakdown == given.memory.breakdown  # the same bytes as precision int4 stated
    job = accuracy.serving_job(kb, "Kimi K2.6", "int4", "vllm", 8000, 390, 1000, 8, 1)
    keeps, bits = checkpoint_keeps(job, "int4", None), checkpoint_bits(job, "int4", None)
    assert keeps == ("non_experts",) and bits == 4.5
    mb = model_bytes(job.shape, "int4", quant_formats(kb), keeps, bits)
    assert mb.total == pytest.approx(ROUTED * 4.5 / 8 + (TOTAL - ROUTED) * 2, rel=1e-7)
    assert mb.total / 1e9 == pytest.approx(594.21, abs=0.01)
    bf16 = accuracy.serving_job(kb, "Kimi K2.6", "bf16", "vllm", 8000, 390, 1000, 8, 1)
    assert model_bytes(bf16.shape, "bf16", quant_formats(kb)).total == pytest.approx(TOTAL * 2, rel=1e-7)
    # K2 itself keeps its FP8 note
    k2 = estimate({"workload": {"task": "inference", "model": "kimi-k2"}}, gpu="h200", gpus=8)
    assert [a.values for a in k2.assumptions if a.field == "workload.precision"] == [
        {"model": "Kimi K2", "checkpoint": "fp8", "precision": "fp8",
         "card": "huggingface.co/moonshotai/Kimi-K2-Instruct: block-FP8 weights, docs/deploy_guidance.md"}]


def test_the_nvfp4_release_is_served_as_its_file_on_amd_too(kb, accuracy):
    """precision fp4 on an MI355X: vLLM's FP4 is MXFP4 there, so Kimi K2 is requantized to it; NVIDIA's NVFP4 file
    named by its repository is served as it ships (as gpt-oss's MXFP4 is on NVIDIA: engine.format_of), with its
    experts-only parts (serving.yaml fp4_checkpoints kimi-k2)."""
    gpu = kb.gpus["mi355x"]
    nv = accuracy.serving_job(kb, "nvidia/Kimi-K2.6-NVFP4", "fp4", "vllm", 1024, 1024, 16, 8, 1)
    k2 = accuracy.serving_job(kb, "kimi-k2", "fp4", "vllm", 1024, 1024, 16, 8, 1)
    assert format_of(nv, kb.framework("vllm"), gpu) == "nvfp4"
    assert format_of(k2, kb.framework("vllm"), gpu) == "mxfp4"
    assert checkpoint_keeps(nv, "nvfp4", None) == ("non_experts",)


def test_the_screen_says_which_files_were_assumed_in_english_and_chinese(tmp_path):
    import yaml

    (tmp_path / "r.yaml").write_text(yaml.safe_dump({"workload": {"task": "inference", "model": "Kimi K2.6",
                                                                  "concurrent_requests": 4}}), encoding="utf-8")
    en = gpuwise("estimate", "r.yaml", "--gpu", "H200", "--gpus", "8", cwd=tmp_path)
    text = " ".join(en.stdout.split())
    assert ("'Kimi K2.6' is priced as Kimi K2 (kimi-k2): the catalog lists it as an alias of that entry, a release of "
            "the same network whose published weights are int4, not the entry's fp8") in text
    assert "default: precision int4, the weights as published: Kimi K2.6's ship in int4" in text
    zh = gpuwise("estimate", "r.yaml", "--gpu", "H200", "--gpus", "8", "--lang", "zh", cwd=tmp_path)
    said = "".join(zh.stdout.split())
    assert ("“KimiK2.6”按KimiK2（kimi-k2）计价：目录将它列为该条目的别名，"
            "是同一网络的另一发布版本，其发布的权重为int4") in said
    assert "默认值：precisionint4，即按发布的权重部署：KimiK2.6的权重以int4发布" in said


def test_an_alias_checkpoint_that_names_no_alias_is_a_one_line_error(tmp_path):
    from gpuwise import knowledge

    d = tmp_path / "kb"
    d.mkdir()
    (d / "models.yaml").write_text("models:\n  - id: kimi-k2\n    alias_checkpoints:\n"
                                   "      - {aliases: [kimi-k2.6, kimi-k2.7], precision: int4, source: a test}\n")
    with pytest.raises(KnowledgeError) as err:
        knowledge.load(d)
    assert err.value.line() == (f"{d / 'models.yaml'}: models[0] (id kimi-k2).alias_checkpoints[0].aliases[1]: "
                                "'kimi-k2.7' is not one of kimi-k2's aliases: did you mean 'kimi-k2.6'?")
    assert "“kimi-k2.7”不是 kimi-k2 的别名之一：是否指“kimi-k2.6”？" in err.value.line("zh")
