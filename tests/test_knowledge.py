"""The knowledge base: coverage, sources, dense peaks, lenient names, overlays, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise import knowledge
from gpuwise.errors import KnowledgeError, UserError

REQUIRED_GPUS = ["p100-16gb-pcie", "v100-32gb-sxm2", "rtx-3090", "rtx-4090", "rtx-6000-ada", "a10g", "a30",
                 "a100-40gb-sxm", "a100-80gb-sxm", "h100-80gb-sxm", "mi250x", "p40", "t4", "l4", "l40s", "a10", "a40",
                 "rtx-a6000", "rtx-5090", "h100-80gb-pcie", "h100-nvl-94gb", "h200-141gb-sxm", "b200", "mi300x",
                 "gaudi2", "a800-80gb-sxm", "h800-80gb-sxm", "h20-96gb-sxm", "l20"]
REQUIRED_MODELS = ["llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
                   "mistral-7b-v0.1", "mixtral-8x7b", "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b",
                   "qwen2.5-72b", "deepseek-v3", "gemma-2-9b", "gemma-2-27b", "falcon-40b"]


def test_coverage(kb):
    assert len(kb.gpus) >= 30 and len(kb.models) >= 20
    assert set(REQUIRED_GPUS) <= set(kb.gpus)
    assert set(REQUIRED_MODELS) <= set(kb.models)


def test_every_figure_block_has_a_source(kb):
    for g in kb.gpus.values():
        for block in (g.memory, g.peaks, g.link, g.power):
            assert len(block.source) > 10, g.id
    for m in kb.models.values():
        assert m.source
    for name, v in kb.tco.values.items():
        assert v.source, name
    for name, f in kb.runtime.mfu.items():
        assert f.source, name


@pytest.mark.parametrize("name,gpu_id", [
    ("A100-80G", "a100-80gb-sxm"), ("A100 80GB", "a100-80gb-sxm"), ("a100-80gb-sxm", "a100-80gb-sxm"),
    ("H100-80G", "h100-80gb-sxm"), ("RTX 4090", "rtx-4090"), ("4090", "rtx-4090"), ("A10G", "a10g"),
    ("P100", "p100-16gb-sxm2"), ("V100", "v100-16gb-sxm2"), ("nvidia h100", "h100-80gb-sxm"),
])
def test_contract_names_resolve(kb, name, gpu_id):
    assert kb.gpu(name).id == gpu_id


def test_default_variant_is_said(kb):
    r = kb.gpu("P100")  # docs/names.md: a name without the form factor is the SXM module
    assert r.id == "p100-16gb-sxm2" and r.note and "SXM" in r.note


def test_ambiguous_name_lists_choices(kb):
    with pytest.raises(UserError) as err:
        kb.gpu("A100")
    text = err.value.line()
    assert "ambiguous" in text and "a100-80gb-sxm" in text and "a100-40gb-pcie" in text


def test_misspelt_names_get_a_close_match(kb):
    with pytest.raises(UserError, match="did you mean rtx-4090"):
        kb.gpu("rtx 4900")
    with pytest.raises(UserError, match="llama-2-13b"):
        kb.model("llama-2-14b")


def test_seed_article_myths_are_not_in_the_data(kb):
    """reference seed-claims.md: RTX 6000 Ada is ~364 dense TFLOPS, not 152; A100 80GB uses HBM2e;
    BF16 = FP16 memory; g5.48xlarge is $16.288/h, not $14.688."""
    assert kb.gpus["rtx-6000-ada"].peaks.bf16 == pytest.approx(364.2, rel=0.01)
    assert kb.gpus["a100-80gb-sxm"].memory.type.lower().startswith("hbm2e")
    g5 = next(i for i in kb.clouds.instances if i.id == "g5.48xlarge")
    assert g5.usd_per_hour == pytest.approx(16.288)
    assert kb.tco.values["nvaie_usd_per_gpu_year"].value == 4500


def _overlay(tmp_path: Path, name: str, text: str) -> Path:
    d = tmp_path / "kb"
    d.mkdir()
    (d / name).write_text(text)
    return d


def test_overlay_replaces_a_price(tmp_path):
    d = _overlay(tmp_path, "tco.yaml", "values:\n  pue: {value: 1.1, unit: ratio, source: our facility meter}\n")
    kb = knowledge.load(d)
    assert kb.tco.values["pue"].value == 1.1
    assert "hosting_usd_per_kw_month" in kb.tco.values


def test_bad_overlay_names_file_and_entry(tmp_path):
    d = _overlay(tmp_path, "gpus.yaml", """gpus:
  - id: my-card
    name: My card
    vendor: nvidia
    architecture: ampere
    launch_year: 2021
    segment: datacenter
    form_factor: pcie
    tensor_cores: true
    memory: {gb: -80, type: HBM2e, bandwidth_gb_s: 2000, source: my datasheet}
    peaks: {fp32: 19.5, bf16: 312, source: my datasheet}
    link: {kind: pcie, bandwidth_gb_s: 64, domain_gpus: 1, pcie_gen: 4, p2p: true, source: my datasheet}
    power: {tdp_w: 300, source: my datasheet}
""")
    with pytest.raises(KnowledgeError) as err:
        knowledge.load(d)
    line = err.value.line()
    assert "gpus.yaml" in line and "my-card" in line and "memory.gb" in line


def test_yaml_cannot_build_python_objects(tmp_path):
    d = _overlay(tmp_path, "tco.yaml", "values: !!python/object/apply:os.system ['echo pwned']\n")
    with pytest.raises(UserError):
        knowledge.load(d)
