"""leftovers55: the users' leftovers of session 39's note, each with the words or figures a user sees.

* A section or a list given as something else (``cloud: null``) is refused with what the field takes, the one line
  the other fields give (file, field, what is allowed), not pydantic's 'Input should be a valid dictionary or
  instance of Cloud', which named a class of gpuwise's own; and a null is shown as the file wrote it, not None."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise.errors import UserError
from gpuwise.inputs.proposal import Proposal
from gpuwise.inputs.schema import parse
from gpuwise.plan.schema import PlanFile
from gpuwise.yamlio import parse_yaml

ROOT = Path(__file__).resolve().parent.parent


def _refusal(model, example: str, key: str, value, lang: str = "en") -> str:
    data = yaml.safe_load((ROOT / "examples" / example).read_text())
    data[key] = value
    with pytest.raises(UserError) as e:
        parse(model, data, "f.yaml")
    return e.value.line(lang)


@pytest.mark.parametrize("value, given", [(None, "null"), (5, "5"), ("egress", "'egress'"), ([1], "[1]")])
def test_a_section_given_as_something_else_says_what_it_takes(value, given: str) -> None:
    line = _refusal(Proposal, "proposal-good-lora-8xh100.yaml", "cloud", value)
    assert line == (f"f.yaml: cloud: must be a section of keys (got {given}) (valid keys: egress_tb_per_month, "
                    "cross_region_tb_per_month, storage; or leave cloud out)")
    assert "instance of" not in line and "Cloud" not in line


def test_a_required_section_and_a_list_given_as_null() -> None:
    assert _refusal(Proposal, "proposal-good-lora-8xh100.yaml", "hardware", None) == (
        "f.yaml: hardware: must be a section of keys (got null) (valid keys: gpu, count, nodes, link, network, "
        "host_ram_gb)")
    assert _refusal(PlanFile, "plan-team-4090.yaml", "owned", None) == (
        "f.yaml: owned: must be a list (got null) (or leave owned out)")
    assert _refusal(PlanFile, "plan-team-4090.yaml", "workloads", None) == (
        "f.yaml: workloads: must be a list (got null)")
    zh = _refusal(Proposal, "proposal-good-lora-8xh100.yaml", "cloud", None, "zh")
    assert "必须是由键组成的一节（给出的是 null）" in zh and "或不写 cloud" in zh


def test_a_null_number_is_shown_as_the_file_wrote_it() -> None:
    data = yaml.safe_load((ROOT / "examples" / "proposal-good-lora-8xh100.yaml").read_text())
    data["hardware"]["count"] = None
    with pytest.raises(UserError) as e:
        parse(Proposal, data, "f.yaml")
    assert e.value.line("en").startswith("f.yaml: hardware.count: ") and "(got null)" in e.value.line("en")
    assert "None" not in e.value.line("en")


def test_a_purchase_within_the_solver_s_tolerance_is_said_to_be_a_tie(tmp_path: Path) -> None:
    """The bundled team plan buys two RTX PRO 6000s and costs $43,642.32 (proven optimal at a relative gap of 0 as at
    0.001: the same plan, leftovers55); the same plan file with ``acquisition: rent`` -- buying nothing, the owned
    4090s and rentals alone -- costs $43,672.49, $30.17 (0.069 %) more, inside the 0.1 % gap HiGHS stops at
    (milp.MIP_REL_GAP): the answer says that buying and not buying are a tie rather than letting the purchase pass for
    a saving."""
    from gpuwise.plan import plan
    from gpuwise.render import plan_view
    from tests.conftest import answer_of

    r = answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml")
    data = yaml.safe_load((ROOT / "examples" / "plan-team-4090.yaml").read_text())
    data["constraints"]["acquisition"] = "rent"
    (tmp_path / "rent.yaml").write_text(yaml.safe_dump(data))
    rent = plan(tmp_path / "rent.yaml")
    assert r.purchases and not rent.purchases
    assert r.answer.tie is not None and r.answer.tie.gap == 0.001
    assert r.answer.tie.total == pytest.approx(rent.total, rel=1e-9)
    assert 0 < rent.total - r.total <= 0.001 * r.total  # $30.17 of $43,642.32: 0.069 %
    assert r.answer.tie.more == round(rent.total) - round(r.total) == 30  # the totals as shown: $43,672 less $43,642
    text = " ".join(plan_view.render(r, "text", width=200).split())
    assert ("Buying nothing costs $43,672, $30.00 more: within the solver's 0.1% tolerance, so buying and not buying "
            "are a tie.") in text
    assert rent.answer.tie is None  # a plan that buys nothing has nothing to tie


@pytest.mark.parametrize("framework, written, said", [
    ("vllm", "1e3", "1000 is no release of vLLM: the newest gpuwise knows is 0.20.0"),
    ("vllm", "1000", "1000 is no release of vLLM: the newest gpuwise knows is 0.20.0"),
    ("sglang", "1e3", "1000 is no release of SGLang: the newest gpuwise knows is 0.5.14"),
    ("tensorrt-llm", "3", "3 is no release of TensorRT-LLM: the newest gpuwise knows is 1.1.0"),
])
def test_a_number_past_every_release_is_no_release(framework: str, written: str, said: str) -> None:
    """``framework_version: 1e3`` is read by YAML as the number 1000.0, and was asked for in quotes as "1000.0" (a
    float's repr, as if it were a release); a number whose major is past the newest release the framework's knowledge
    names (knowledge/serving.yaml: vLLM's release bounds end at 0.20.0, SGLang's releases at 0.5.14, TensorRT-LLM's
    at 1.1.0) by more than one is refused as no release of the framework, naming that newest release."""
    from gpuwise.inputs.schema import Requirements

    data = parse_yaml(f"workload: {{task: inference, model: llama-3.1-8b, framework: {framework}, "
                      f"framework_version: {written}}}".encode(), Path("r.yaml"))  # as gpuwise reads a file
    with pytest.raises(UserError) as e:
        parse(Requirements, data, "r.yaml")
    assert e.value.line("en") == f"r.yaml: workload.framework_version: {said}"
    assert "1000.0" not in e.value.line("en") and "in quotes" not in e.value.line("en")


@pytest.mark.parametrize("framework, written, quoted", [("vllm", "0.10", "0.1"), ("tensorrt-llm", "2.0", "2.0"),
                                                        ("exllama", "1e3", "1000.0")])
def test_a_number_a_release_may_be_written_as_is_still_asked_for_in_quotes(framework: str, written: str,
                                                                           quoted: str) -> None:
    """vLLM 0.10 (YAML: 0.1) and TensorRT-LLM 2.0 (the next major) may be releases: asked for in quotes as before; a
    framework whose knowledge names no release (ExLlama) has nothing to say a number is none of them."""
    from gpuwise.inputs.schema import Requirements

    data = parse_yaml(f"workload: {{task: inference, model: llama-3.1-8b, framework: {framework}, "
                      f"framework_version: {written}}}".encode(), Path("r.yaml"))  # as gpuwise reads a file
    with pytest.raises(UserError) as e:
        parse(Requirements, data, "r.yaml")
    assert f'write the version in quotes (framework_version: "{quoted}")' in e.value.line("en")
