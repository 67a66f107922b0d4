"""One ordering of framework releases for every release list and window (records.release_key; docs/formats.md,
``framework_version``), found by hostile round 39: the same string fell on different sides of different windows
(``version_key`` counted 0.11.1rc2 as 0.11.1 and 0.5.5.post3 as 0.5.5; ``release_key``, read by the
serial_shared_expert window, put 0.11.1rc2 before 0.11.1).

The rule, from how the frameworks number their builds:

* the release number compares as PEP 440 compares it (trailing zeros aside: 1.0 is 1.0.0);
* a .postN comes after its release and its lower posts: SGLang ships kernel changes in post releases (the
  serial_shared_expert window ends at 0.5.5.post3, the aiter all-reduce starts there);
* an rcN counts as its release: vLLM tags v0.11.1rc1... on the releases/v0.11.1 branch the release ships from;
* a nightly is no release: setuptools_scm names a build after the last tag by the next version plus .devN
  (vllm-project/vllm issue #25476: main's nightly '0.10.2rc3.dev377+g231c2c63e'; docker/model-runner pull request
  #735: '0.16.1rc1.dev268+ge2b31243c' ahead of 0.17.0; sgl-project/sglang pull request #14924:
  '0.5.6.post2.dev7788+g82c390d22', #18212: the nightlies between 0.5.8 and 0.5.9 are '0.5.9.dev0+<hash>'), so it
  runs some of the named release's kernels, not surely all: refused with the release it names as the close match.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from gpuwise.errors import UserError
from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import fused_kernel_floor_us, release
from gpuwise.estimators.serving.fusion import release_entry, serial_shared_gemms
from gpuwise.estimators.serving.support import holds_from
from gpuwise.inputs.schema import Requirements, parse
from gpuwise.knowledge.records import in_releases, release_at_least, release_key, version_key
from gpuwise.knowledge.schema.serving import ReleaseWindow
from gpuwise.knowledge.schema.shared_expert import SerialSharedExpert


# ------------------------------------------------------------------------------------------- the ordering
@pytest.mark.parametrize(("lower", "higher"), [
    ("0.5.7", "0.5.12"),
    ("0.5.5", "0.5.5.post1"),
    ("0.5.5.post1", "0.5.5.post2"),
    ("0.5.5.post2", "0.5.6"),
    ("0.5.6rc1", "0.5.6.post1"),       # a candidate is its release, a post after it
    ("0.11.0.post1", "0.11.1rc1"),     # a candidate after the releases before its own
    ("1.1", "1.2.0rc1"),
    ("0.10.1", "0.10.1.1"),
])
def test_releases_in_order(lower, higher):
    assert release_key(lower) < release_key(higher)
    assert release_at_least(higher, lower) and not release_at_least(lower, higher)


@pytest.mark.parametrize(("a", "b"), [
    ("0.11.1rc2", "0.11.1"),           # PEP 440 puts it before; gpuwise reads it as its release
    ("1.0rc1", "1.0.rc1"),             # both spellings the patterns take
    ("0.5.5post1", "0.5.5.post1"),
    ("1.0", "1.0.0"),                  # PEP 440: trailing zeros compare equal
    ("0.20", "0.20.0rc3"),
])
def test_the_same_release(a, b):
    assert release_key(a) == release_key(b)


def test_one_function_for_every_reader():
    assert version_key is release_key


# ------------------------------------------------------------------------------------------- each window kind
def test_a_first_before_window_in_releases(kb):
    """vLLM's deepgemm_moe_padding: from 0.11.1 up to, not including, 0.12.0 (knowledge/serving.yaml)."""
    span = kb.framework("vllm").deepgemm_moe_padding
    assert (span.first, span.before) == ("0.11.1", "0.12.0")
    assert in_releases(span, "0.11.1rc2") and in_releases(span, "0.11.1") and in_releases(span, "0.11.1.post1")
    assert not in_releases(span, "0.11.0.post1")
    assert not in_releases(span, "0.12.0rc1")  # a candidate of the release that ends the window is past it
    assert not in_releases(span, None)


def test_a_candidate_pays_its_releases_padding(kb, accuracy):
    """End to end: vLLM 0.11.1rc2 serving MiniMax-M2 FP8 at TP 4 on H100s multiplies 0.11.1's 127 padding rows
    for each of the 256 experts a MoE layer; 0.12.0rc1 at TP 4 (below the MoE TP of 8 that turns it off,
    ``below_tp``) too, as 0.12.0 does."""
    for version in ("0.11.1rc2", "0.12.0rc1"):
        job = accuracy.serving_job(kb, "minimax-m2", "fp8", "vllm", 2048, 942, 10, 4, 1, framework_version=version)
        assert SV.choose(job, kb.gpus["h100-80gb-sxm"], 4).engine.moe_pad_rows == 256 * 127


def test_a_since_list(kb):
    """SGLang's fused_kernel_models: entries from 0.5.7 on; a candidate of 0.5.7 takes that entry, a post of 0.5.6
    none (before the first)."""
    entries = kb.framework("sglang").fused_kernel_models.releases
    assert release_entry(entries, "0.5.7rc1").since == "0.5.7"
    assert release_entry(entries, "0.5.8.post1").since == "0.5.8"
    assert release_entry(entries, "0.5.6.post2") is None


@pytest.mark.parametrize(("framework", "version", "entry"), [
    ("sglang", "0.4.6rc1", "0.4.6"),
    ("sglang", "0.4.5.post3", "0.4.5.post3"),
    ("sglang", "0.4.5.post2", "0.4.5.post2"),
    ("sglang", "0.4.5.post1", "0.4.0"),
    ("tensorrt-llm", "1.2.0rc5", "1.1"),     # rows DW11/DW12
    ("tensorrt-llm", "1.1.0rc2", "1.1"),
    ("tensorrt-llm", "0.21.0rc2", "0.17"),   # rows R08/R09
])
def test_a_framework_release_list(kb, framework, version, entry):
    assert release(kb.framework(framework), version, "nvidia").version == entry


def _serial(kb, first: str, before: str):
    fw = kb.framework("sglang")
    window = SerialSharedExpert(vendors=["amd"], first=first, before=before, source="test")
    return fw.model_copy(update={"serial_shared_expert": [window]})


@pytest.mark.parametrize(("version", "serial"), [
    ("0.5.6rc1", True),      # before: outside (the old release_key put an rc before its release)
    ("0.5.6", True),
    ("0.5.8.post1", True),
    ("0.5.5.post3", False),
    ("0.5.9rc1", False),     # the candidate of the release that ends the window
])
def test_a_serial_shared_expert_window(kb, accuracy, version, serial):
    """An overlay's window from 0.5.6 up to 0.5.9 on AMD GPUs, read by fusion.serial_shared_gemms."""
    job = accuracy.serving_job(kb, "deepseek-v3", "fp8", "sglang", 610, 422, tp=8, framework_version=version)
    assert bool(serial_shared_gemms(job, _serial(kb, "0.5.6", "0.5.9"), kb.gpus["mi300x"])) is serial


@pytest.mark.parametrize(("version", "holds"), [
    ("0.5.5", False), ("0.5.5.post2", False), ("0.5.5.post3", True), ("0.5.6rc1", True), (None, True),
])
def test_a_from_release_figure(version, holds):
    """SGLang's ROCm allreduce_latency_from 0.5.5.post3 (support.holds_from)."""
    override = SimpleNamespace(allreduce_latency_from="0.5.5.post3")
    assert holds_from(override, "allreduce_latency_us", version) is holds


def test_a_vendor_override_boundary(kb):
    """vLLM's NVIDIA build fused the small kernels from 0.20.0 (fused_from; 3 us a small kernel, not 10): its
    candidates run the fused figure, 0.19.1 does not."""
    vo = kb.framework("vllm").vendor_overrides["nvidia"]
    assert vo.fused_from == "0.20.0"
    assert fused_kernel_floor_us(vo, "0.20.0rc1", 10.0) == fused_kernel_floor_us(vo, "0.20.0", 10.0) != 10.0
    assert fused_kernel_floor_us(vo, "0.19.1", 10.0) == 10.0


# ------------------------------------------------------------------------------------------- knowledge windows
def test_a_window_of_post_releases_is_valid():
    """0.5.5.post1 up to 0.5.5.post3 holds post1 and post2: refused before by ReleaseWindow, whose check read both
    bounds as 0.5.5."""
    window = ReleaseWindow(first="0.5.5.post1", before="0.5.5.post3")
    assert in_releases(window, "0.5.5.post2") and not in_releases(window, "0.5.5.post3")


@pytest.mark.parametrize("cls, extra", [(ReleaseWindow, {}), (SerialSharedExpert, {"vendors": ["amd"],
                                                                                    "source": "test"})])
def test_a_window_from_a_candidate_to_its_release_holds_none(cls, extra):
    """1.2.0rc1 is 1.2.0: no release between them (SerialSharedExpert accepted it before, and held nothing)."""
    with pytest.raises(ValidationError, match=r"before 1\.2\.0 is not after first 1\.2\.0rc1"):
        cls(first="1.2.0rc1", before="1.2.0", **extra)


# ------------------------------------------------------------------------------------------- builds refused
@pytest.mark.parametrize(("given", "hint"), [
    ("0.11.1rc2.dev5+gabc", "(did you mean 0.11.1?)"),
    ("0.16.1rc1.dev268+ge2b31243c.cu129", "(did you mean 0.16.1?)"),  # 33 characters: refused by length before
    ("0.5.6.post3.dev1278", "(did you mean 0.5.6.post3?)"),
    ("0.5.9.dev20260204", "(did you mean 0.5.9?)"),
    ("0.10.1.1+cu126", "(did you mean 0.10.1.1?)"),
    ("nightly", "(leave framework_version out: gpuwise then takes the newest release it knows)"),
])
def test_a_build_is_refused_with_the_release_it_names(given, hint):
    workload = {"task": "inference", "model": "deepseek-v3", "framework": "vllm", "precision": "fp8",
                "framework_version": given}
    with pytest.raises(UserError) as err:
        parse(Requirements, {"workload": workload}, "r.yaml")
    text = str(err.value)
    assert "\n" not in text and text.startswith("r.yaml: workload.framework_version: ")
    assert "is not a release number" in text and text.endswith(hint)
