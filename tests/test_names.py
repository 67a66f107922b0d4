"""The one name-matching policy (docs/names.md): a name without the form factor is the SXM (or OAM)
module, said in the result; a name that still fits several cards lists them; an unknown name gets
"did you mean" wherever a name is read (files, flags, `prices` filters)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from gpuwise.errors import UserError
from gpuwise.knowledge import load
from tests.clirun import gpuwise

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def kb():
    return load()


# The SXM parts: NVIDIA's H100 / A100 / V100 / P100 datasheets list an SXM module and a PCIe card
# of the same name; the module is the one the name alone means here.
@pytest.mark.parametrize("name,gpu_id,pcie", [
    ("H100", "h100-80gb-sxm", "h100-80gb-pcie"), ("A100-80G", "a100-80gb-sxm", "a100-80gb-pcie"),
    ("A100-80", "a100-80gb-sxm", "a100-80gb-pcie"), ("a100 40gb", "a100-40gb-sxm", "a100-40gb-pcie"),
    ("V100", "v100-16gb-sxm2", "v100-16gb-pcie"), ("P100", "p100-16gb-sxm2", "p100-16gb-pcie"),
    ("H200", "h200-141gb-sxm", "h200-nvl-141gb"), ("A800", "a800-80gb-sxm", "a800-80gb-pcie"),
])
def test_a_name_without_the_form_factor_is_the_sxm_module_and_says_so(kb, name, gpu_id, pcie):
    r = kb.gpu(name)
    assert r.id == gpu_id
    assert r.note and "SXM" in r.note and kb.gpus[pcie].name in r.note  # how to ask for the other card


@pytest.mark.parametrize("name,gpu_id", [
    ("H100 PCIe", "h100-80gb-pcie"), ("a100-80gb-sxm", "a100-80gb-sxm"), ("H100 NVL", "h100-nvl-94gb"),
    ("H100 94GB", "h100-nvl-94gb"), ("4090", "rtx-4090"), ("A10G", "a10g"),
])
def test_a_name_that_fits_one_card_is_read_without_a_note(kb, name, gpu_id):
    r = kb.gpu(name)
    assert (r.id, r.note) == (gpu_id, None)


def test_a_name_that_fits_several_sizes_is_ambiguous(kb):
    with pytest.raises(UserError) as e:
        kb.gpu("A100")
    assert "ambiguous" in str(e.value) and "a100-40gb-sxm" in str(e.value) and "a100-80gb-sxm" in str(e.value)


def test_an_ambiguous_name_of_a_family_without_a_module_is_not_told_it_means_the_sxm_part(kb):
    """review47: 'RTX PRO 6000 Blackwel' (one letter short) starts three PCIe variants, none of them a module, yet
    the hint said a name without the form factor is the SXM part; it now names a variant to give. A100, whose
    family has SXM modules, keeps the SXM hint."""
    with pytest.raises(UserError) as e:
        kb.gpu("RTX PRO 6000 Blackwel")
    assert "SXM" not in str(e.value) and "give the variant, e.g. rtx-pro-6000-blackwell" in str(e.value)
    with pytest.raises(UserError) as e:
        kb.gpu("A100")
    assert "a name without the form factor means the SXM or OAM module" in str(e.value)


@pytest.mark.parametrize("typed, words", [
    # hostile round 37: every family with no module had the SXM hint, nested in the hint's brackets
    # ('(give the variant; ... the SXM part (docs/names.md))'). MI300X / MI325X / MI350X / MI355X, B200 / B300 and
    # Ascend 910B / 910C are modules only (gpus.yaml form_factor oam / sxm), no PCIe card beside them; the two
    # V100 SXM2 parts differ by memory: rule 2 cannot pick any of them, so a variant is named instead
    ("MI3", "(give the variant, e.g. mi300x)"), ("B", "(give the variant, e.g. b200)"),
    ("ascend", "(give the variant, e.g. ascend-910b)"), ("V100 SX", "(give the variant, e.g. v100-16gb-sxm2)"),
    ("RTX 40", "(give the variant, e.g. rtx-4000-ada)"),  # catalog61: the RTX 4000 Ada sorts first
    # a module and a PCIe card of one family among them (A100 SXM4 and PCIe, Gaudi 3 OAM and PCIe): rule 2 is said
    ("A100", "(give the variant; a name without the form factor means the SXM or OAM module, as docs/names.md says)"),
    ("HL", "(give the variant; a name without the form factor means the SXM or OAM module, as docs/names.md says)"),
])
def test_the_sxm_hint_only_where_rule_2_could_pick_and_no_nested_brackets(kb, typed, words):
    with pytest.raises(UserError) as e:
        kb.gpu(typed)
    line = str(e.value)
    assert line.endswith(words) and line.count("(") == 1 and line.count(")") == 1, line
    assert ("SXM" in words) == ("SXM" in line), line


@pytest.mark.parametrize("typed,meant", [("H10O", "h100-80gb-sxm"), ("A1OO-80G", "a100-80gb-sxm"),
                                         ("RTX 409O", "rtx-4090")])
def test_a_misspelt_gpu_gets_did_you_mean(kb, typed, meant):
    with pytest.raises(UserError) as e:
        kb.gpu(typed)
    assert f"did you mean {meant}" in str(e.value)


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return gpuwise(*args, cwd=cwd)  # in this process (tests/clirun.py): the exit status and both streams


def test_did_you_mean_in_files_flags_and_price_filters(tmp_path: Path):
    req = tmp_path / "req.yaml"
    req.write_text("workload: {task: finetune, model: llama-2-7b, method: lora}\nconstraints: {gpus: [H10O]}\n")
    prop = tmp_path / "prop.yaml"
    prop.write_text("workload: {task: finetune, model: lama-2-7b}\nhardware: {gpu: H100, count: 1}\n"
                    "acquisition: {mode: rent, hourly_usd: 2}\n")
    for args, where, meant in [
        (("recommend", str(req)), "constraints.gpus[0]", "h100-80gb-sxm"),
        (("audit", str(prop)), "workload.model", "llama-2-7b"),
        (("estimate", str(ROOT / "examples" / "lora-70b.yaml"), "--gpu", "H10O"), "--gpu", "h100-80gb-sxm"),
        (("prices", "--gpu", "H10O"), "--gpu", "h100-80gb-sxm"),
    ]:
        p = _cli(*args, cwd=tmp_path)
        assert p.returncode == 2, (args, p.stderr)
        line = p.stderr.strip()
        assert "\n" not in line and where in line and f"did you mean {meant}" in line, (args, line)


def test_the_report_says_which_part_a_bare_name_was_read_as(tmp_path: Path):
    req = tmp_path / "req.yaml"
    req.write_text("workload: {task: finetune, model: llama-2-7b, method: lora, train_tokens: 1.0e7}\n"
                   "constraints: {gpus: [H100], acquisition: rent}\n")
    p = _cli("recommend", str(req), "--detail", "full", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "'H100' read as NVIDIA H100 SXM5 80GB" in " ".join(p.stdout.split())
    p = _cli("recommend", str(req), "--detail", "full", "--lang", "zh", cwd=tmp_path)
    assert "SXM" in p.stdout and "'H100' read as" not in " ".join(p.stdout.split())
