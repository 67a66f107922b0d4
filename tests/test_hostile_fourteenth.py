"""Hostile round 14 (issue 26 items 5 and 6): what round 14 of benchmarks/hostile_corpus.py found,
each fix with a test that fails without it; and used cards' memory judged against its type's
throttle point (item 6)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise import audit
from gpuwise.decide.smi_report import parse_nvidia_smi_xml

from .test_inspect_card import DATA, derive, used_findings

pytestmark = pytest.mark.usefixtures("audits_share_their_search")  # conftest: one search per question

RTX_4090 = "netdata_rtx-4090-driver-535.xml"  # netdata's RTX 4090 (GDDR6X), driver 535: T.Limit form
A100 = "telegraf_a100-sxm4-v12.xml"  # telegraf's A100-SXM4-80GB (HBM2e), driver 535.54.03


def _hot(used: set[tuple[str, str]]) -> set[tuple[str, str]]:
    return {f for f in used if f[0].startswith("USED-MEMORY")}


# ----------------------------------------------------------------------------- item 6: memory type's point
def test_the_memory_tlimit_threshold_is_not_a_memory_temperature() -> None:
    """``gpu_temp_max_mem_tlimit_threshold`` is a point on the GPU's T.Limit margin (NVML
    NVML_FI_DEV_TEMPERATURE_MEM_MAX_TLIMIT), not a memory temperature: netdata's RTX 4090 (40 C now,
    43 C of margin) with a memory margin of 0 C was read as a memory limit of 40 + 43 - 0 = 83 C,
    though GDDR6X throttles at about 110 C (an H100 SXM on driver 565 gives 30 + 57 - 0 = 87 C, its
    GPU's max operating temperature, where driver 525 reports its memory's as 95 C)."""
    text = derive(RTX_4090, [(r"<memory_temp>N/A", "<memory_temp>95 C"),
                             (r"<gpu_temp_max_mem_tlimit_threshold>N/A", "<gpu_temp_max_mem_tlimit_threshold>0 C")])
    g = parse_nvidia_smi_xml(text.encode()).gpus[0]
    assert (g.temperature_c, g.memory_temp_c, g.memory_max_operating_temp_c) == (40, 95, None)
    assert g.gpu_max_operating_temp_c == 83  # the T.Limit: 40 + 43; the GPU's limit, read as before


@pytest.mark.parametrize("mem, expected", [
    ("95 C", set()),  # was USED-MEMORY-HOT: 'at or above its own limit of 83 C'
    ("104 C", {("USED-MEMORY-JUNCTION-HOT", "warning")}),  # 0.9 x 110 = 99 C (policy, Igor's Lab)
])
def test_an_ada_gddr6x_card_in_tlimit_form_is_judged_on_its_memory_type(tmp_path: Path, mem: str,
                                                                        expected: set) -> None:
    text = derive(RTX_4090, [(r"<memory_temp>N/A", f"<memory_temp>{mem}"),
                             (r"<gpu_temp_max_mem_tlimit_threshold>N/A", "<gpu_temp_max_mem_tlimit_threshold>0 C")])
    _, used = used_findings(tmp_path, text, "rtx-4090", made="2023-01", purchased="2026-06", notes=False)
    assert _hot(used) == expected, used


def test_an_hbm2e_card_whose_report_lost_its_limit_is_judged_on_the_type() -> None:
    """HBM2e has a throttle point (95 C, the limit NVIDIA's driver gives an A100-SXM4-80GB); GDDR6X
    keeps Igor's Lab's 110 C; each has a source. The report's own limit is preferred where given."""
    from gpuwise.knowledge import load

    kb = load()
    points = {name: v for name, v in kb.policy.items() if name.endswith("_memory_throttle_c")}
    assert set(points) == {"gddr6x_memory_throttle_c", "hbm2e_memory_throttle_c", "hbm3_memory_throttle_c"}
    assert points["hbm2e_memory_throttle_c"].value == 95 and "a100-sxm4-v12.xml" in points[
        "hbm2e_memory_throttle_c"].source
    assert all(v.source for v in points.values())


@pytest.mark.parametrize("mem, limit, expected", [
    ("88 C", "N/A", {("USED-MEMORY-JUNCTION-HOT", "warning")}),  # no own limit: 0.9 x 95 = 85.5 C
    ("84 C", "N/A", set()),
    ("88 C", "95 C", set()),  # its own limit given: judged on it (88 < 95)
    ("97 C", "95 C", {("USED-MEMORY-HOT", "warning")}),
])
def test_an_a100_is_judged_on_its_own_limit_or_its_type(tmp_path: Path, mem: str, limit: str, expected: set) -> None:
    text = derive(A100, [(r"<memory_temp>44 C", f"<memory_temp>{mem}"),
                         (r"<gpu_temp_max_mem_threshold>95 C", f"<gpu_temp_max_mem_threshold>{limit}")])
    _, used = used_findings(tmp_path, text, "a100-80gb-sxm", made="2022-01", purchased="2026-06", notes=False)
    assert _hot(used) == expected, used


def _a10g_at(tmp_path: Path, mem: str) -> Path:
    """telegraf's A10G (GDDR6) report, its memory at ``mem``, as a proposal."""
    text = derive("telegraf_a10g.xml", [(r"<memory_temp>N/A", f"<memory_temp>{mem}")])
    (tmp_path / "card.xml").write_text(text)
    doc = {"workload": {"task": "inference", "model": "llama-3.1-8b"}, "hardware": {"gpu": "a10g", "count": 1},
           "acquisition": {"mode": "buy", "condition": "used"},
           "used_cards": [{"nvidia_smi": "card.xml", "manufactured": "2022-01", "purchased": "2026-06"}]}
    (tmp_path / "p.yaml").write_text(yaml.safe_dump(doc))
    return tmp_path / "p.yaml"


@pytest.mark.parametrize("given", ["95", "{value: 95, source: 'a GDDR6 datasheet'}"])
def test_an_overlay_sets_a_throttle_point_for_any_memory_type(tmp_path: Path, given: str) -> None:
    """``gddr6_memory_throttle_c`` in an overlay was refused ('unknown policy ... did you mean
    gddr6x_memory_throttle_c?'): the hook named in policy.yaml worked for no type but GDDR6X. An
    A10G (GDDR6) at 90 C is judged on the overlay's 95 C (0.9 x 95 = 85.5 C); without it, on nothing."""
    proposal = _a10g_at(tmp_path, "90 C")
    assert not _hot({(f.rule, f.severity) for f in audit(proposal).findings})
    (tmp_path / "ov").mkdir()
    (tmp_path / "ov" / "policy.yaml").write_text(f"gddr6_memory_throttle_c: {given}\n")
    found = {(f.rule, f.severity) for f in audit(proposal, knowledge=tmp_path / "ov").findings}
    assert _hot(found) == {("USED-MEMORY-JUNCTION-HOT", "warning")}


@pytest.mark.parametrize("line, said", [
    ("gddr9_memory_throttle_c: 95", "no GPU has memory of type 'gddr9'"),
    ("gddr6_memory_throttle_c: 20", "20 is out of range: must be between 60 and 150"),
    ("gddr6_memory_throttle_c: {value: 95, colour: red}", "colour"),
])
def test_an_overlay_throttle_point_is_checked(tmp_path: Path, line: str, said: str) -> None:
    from gpuwise.errors import UserError

    proposal = _a10g_at(tmp_path, "90 C")
    (tmp_path / "ov").mkdir()
    (tmp_path / "ov" / "policy.yaml").write_text(line + "\n")
    with pytest.raises(UserError) as e:
        audit(proposal, knowledge=tmp_path / "ov")
    assert said in str(e.value)


def test_the_tlimit_memory_margin_is_still_read_as_nvidia_smi_writes_it() -> None:
    """Not read as a limit any more, the margin is still a temperature or the report is refused."""
    from gpuwise.errors import UserError

    text = derive(RTX_4090, [(r"<gpu_temp_max_mem_tlimit_threshold>N/A", "<gpu_temp_max_mem_tlimit_threshold>0x10 C")])
    with pytest.raises(UserError):
        parse_nvidia_smi_xml(text.encode())


assert DATA.is_dir()


# ----------------------------------------------------------------------------- Ctrl-C while starting
def test_ctrl_c_as_the_command_starts_is_one_line_and_130(tmp_path: Path) -> None:
    """The ``gpuwise`` command (pyproject's entry point, run as pip's launcher runs it) interrupted
    the moment its entry module is imported: the entry point was ``gpuwise.cli:run``, whose handler
    came after the command's start-up (and ``gpuwise.cli``'s imports before that: 30-70 ms here),
    so Ctrl-C then printed the interpreter's KeyboardInterrupt traceback and the process died of
    SIGINT. The entry point is now ``gpuwise.__main__:start``, whose module installs the handler
    as it is imported, right after the (import-free) package. (Before that, the interpreter's own
    start, ``site`` and the launcher's ``import re`` run no code of gpuwise's: Ctrl-C there is the
    interpreter's, and cannot be changed from here.)"""
    import os

    from benchmarks.hostile_round14 import ROOT, interrupted_at_entry

    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    rc, _out, lines = interrupted_at_entry(tmp_path, ["recommend", "r.yaml"], env, 60)
    assert rc == 130 and lines == ["gpuwise: interrupted\n"], (rc, "".join(lines)[-800:])


# ----------------------------------------------------------------------------- environment versions
LORA = Path(__file__).resolve().parent.parent / "examples" / "lora-70b.yaml"


def _with_environment(tmp_path: Path, line: str) -> Path:
    """examples/lora-70b.yaml with one environment line replaced (the same key) by ``line``."""
    key = line.split(":")[0]
    text = "\n".join(line if raw.startswith(f"{key}:") else raw for raw in LORA.read_text().splitlines())
    assert f"\n{line}\n" in text + "\n"
    (tmp_path / "r.yaml").write_text(text + "\n")
    return tmp_path / "r.yaml"


@pytest.mark.parametrize("line, said", [
    ("  os: ''", "environment.os: is empty"),  # was taken for a known OS that named nothing
    ("  os: '   '", "environment.os: is empty"),
    ("  driver: 537.70", 'write the version in quotes (driver: "537.7")'),  # was read as 537.7
    ("  cuda: 12.25", "the number 12.25 is no CUDA version"),
    ("  cuda: .inf", "the number inf is no CUDA version"),
])
def test_environment_values_a_user_did_not_mean_are_refused(tmp_path: Path, line: str, said: str) -> None:
    from gpuwise import recommend
    from gpuwise.errors import UserError

    with pytest.raises(UserError) as e:
        recommend(_with_environment(tmp_path, line))
    assert said in str(e.value)


@pytest.mark.parametrize("line, read", [("  cuda: 12.1", "12.1"), ("  cuda: 12.10", "12.1"), ("  cuda: 11.8", "11.8"),
                                        ("  driver: 535", "535")])
def test_a_cuda_version_as_a_number_is_read_as_written(tmp_path: Path, line: str, read: str) -> None:
    """``cuda: 12.1`` unquoted is the number 12.1 and is read as "12.1": every CUDA release has a
    one-digit minor (knowledge/software.yaml: 9.0 to 13.2), so ``12.10`` (no such release) is read
    as 12.1 deliberately; a driver branch as a whole number is its text."""
    from gpuwise.inputs.schema import Requirements
    from gpuwise.yamlio import safe_load

    env = Requirements.model_validate(safe_load(_with_environment(tmp_path, line).read_text())).environment
    assert getattr(env, line.split(":")[0].strip()) == read


def test_every_cuda_release_in_the_catalog_has_a_one_digit_minor() -> None:
    """What reading ``cuda: 12.1`` as "12.1" rests on."""
    from gpuwise.knowledge import load

    versions = {row.cuda for row in load().software.cuda_drivers}
    assert versions and all(len(v.split(".")[1]) == 1 for v in versions), versions
