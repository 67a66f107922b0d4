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
