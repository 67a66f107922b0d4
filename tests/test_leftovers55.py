"""leftovers55: the users' leftovers of session 39's note, each with the words or figures a user sees.

* A section or a list given as something else (``cloud: null``) is refused with what the field takes, the one line
  the other fields give (file, field, what is allowed), not pydantic's 'Input should be a valid dictionary or
  instance of Cloud', which named a class of gpuwise's own; and a null is shown as the file wrote it, not None.
* A purchase that saves less than the solver's tolerance is said to be a tie.
* ``framework_version: 1e3`` is no release of the framework, not "1000.0" in quotes.
* A run or copy over the owned servers is judged there and said to span them.
(The plan brief of many workloads: tests/test_plan_brief_many.py.)"""

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
    # in gpuwise's words since hostile round 42: 'null (~ or an empty key) is no number: write one'
    assert e.value.line("en").startswith("f.yaml: hardware.count: null (~ or an empty key) is no number")
    assert "None" not in e.value.line("en")


def test_a_purchase_within_the_solver_s_tolerance_is_said_to_be_a_tie(tmp_path: Path) -> None:
    """The bundled team plan held to copies of 2 RTX 4090s at 17.5 cents a kWh
    (tests/data/plans/team-4090-two-a-copy-tie.yaml) buys two RTX PRO 6000s and costs $44,515.88; the same plan file
    with ``acquisition: rent`` -- buying nothing, the owned 4090s and rentals alone -- costs $44,541.32, $25.44
    (0.057 %) more, inside the 0.1 % gap HiGHS stops at (milp.MIP_REL_GAP): the answer says that buying and not
    buying are a tie rather than letting the purchase pass for a saving. (At 15 cents the plan was this tie,
    $43,211.57 against $43,241.41, until branch plansolve62 made its purchase $15 cheaper, 0.104 % below; at 15.1
    cents, $43,271.51 against $43,294.27, until plan63's whole runs let the search stop at buying nothing there; at
    15.06 cents, $43,241.52 against $43,273.12, until plan64 priced the two cards as one 2-card desktop.)"""
    from gpuwise.plan import plan
    from gpuwise.render import plan_view
    from tests.conftest import TIE, answer_of

    r = answer_of("plan", TIE)
    data = yaml.safe_load(TIE.read_text())
    data["constraints"]["acquisition"] = "rent"
    (tmp_path / "rent.yaml").write_text(yaml.safe_dump(data))
    rent = plan(tmp_path / "rent.yaml")
    assert r.purchases and not rent.purchases
    assert r.answer.tie is not None and r.answer.tie.gap == 0.001
    assert r.answer.tie.total == pytest.approx(rent.total, rel=1e-9)
    assert 0 < rent.total - r.total <= 0.001 * r.total  # $25.44 of $44,515.88: 0.057 %
    assert r.answer.tie.more == round(rent.total) - round(r.total) == 25  # the totals as shown: $44,541 less $44,516
    text = " ".join(plan_view.render(r, "text", width=200).split())
    # the difference of two figures shown whole is whole: '$25', not '$25.44' (hostile round 42: the gap was $30.16)
    assert ("Buying nothing costs $44,541, $25 more: within the solver's 0.1% tolerance, so buying and not buying "
            "are a tie.") in text
    assert rent.answer.tie is None  # a plan that buys nothing has nothing to tie


@pytest.mark.parametrize("framework, written, said", [
    ("vllm", "1e3", "1000 is no release of vLLM: the newest gpuwise knows is 0.29.0"),
    ("vllm", "1000", "1000 is no release of vLLM: the newest gpuwise knows is 0.29.0"),
    ("sglang", "1e3", "1000 is no release of SGLang: the newest gpuwise knows is 0.5.14"),
    ("tensorrt-llm", "3", "3 is no release of TensorRT-LLM: the newest gpuwise knows is 1.1.0"),
])
def test_a_number_past_every_release_is_no_release(framework: str, written: str, said: str) -> None:
    """``framework_version: 1e3`` is read by YAML as the number 1000.0, and was asked for in quotes as "1000.0" (a
    float's repr, as if it were a release); a number whose major is past the newest release the framework's knowledge
    names (knowledge/serving.yaml: vLLM's release bounds end at 0.29.0, SGLang's releases at 0.5.14, TensorRT-LLM's
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


OWNED_2X4 = """horizon_months: 2
owned:
  - {gpu: %s, count: 8, servers: 2, hosting: office}
workloads:
  - name: job
    workload: %s
    %s
constraints: {acquisition: rent}
"""


def test_a_copy_over_two_owned_servers_is_kept_off_them_where_the_framework_serves_from_one(tmp_path: Path) -> None:
    """A team's 8 RTX 4090s sit in two 4-GPU servers; Llama 3.1 70B in BF16 on llama.cpp takes 8 of them a copy (8
    pipeline stages), and llama.cpp's layer split runs inside one machine (knowledge/serving.yaml multi_node false):
    on the owned GPUs the copy would span the two servers, which CMP-FRAMEWORK-NODES rejects. It was placed there as
    if the 8 were one server; now it is kept off them, and the owned GPUs' reason names the rule."""
    from gpuwise.plan import plan

    (tmp_path / "p.yaml").write_text(OWNED_2X4 % (
        "RTX 4090", "{task: inference, model: llama-3.1-70b, precision: bf16, framework: llama.cpp, "
        "prompt_tokens: 1000, output_tokens: 300}", "cadence: {continuous: true, hours_per_day: 24}\n"
        "    targets: {concurrency: 2}"))
    r = plan(tmp_path / "p.yaml")
    assert r.owned[0].server_gpus == 4
    assert not any(p.acquisition == "owned" for x in r.months for p in x.placements)
    assert "CMP-FRAMEWORK-NODES" in r.workloads[0].owned_reason["rtx-4090"]
    assert any(f.rule == "PLAN-OWNED-CANNOT-RUN" and "CMP-FRAMEWORK-NODES" in f.message for f in r.findings)


def test_a_run_over_two_owned_servers_says_where_it_runs(tmp_path: Path) -> None:
    """A full fine-tune of Llama 2 13B (3e9 tokens, no offload) that must finish in 4 days needs 8 A100 SXM (56.5 h a
    run; 4 would take longer than the deadline): on the team's 8, two 4-GPU servers, it runs over both (DeepSpeed
    spans servers, and the rules reject nothing there), and the page says so: 'owned, over 2 servers' (8 / 4)."""
    from gpuwise.plan import plan
    from gpuwise.render import plan_view

    (tmp_path / "p.yaml").write_text(OWNED_2X4 % (
        "A100 80GB SXM", "{task: finetune, method: full, model: llama-2-13b, seq_len: 4096, train_tokens: 3.0e9, "
        "offload: none}", "cadence: {per_month: 1}\n    deadline_days: 4"))
    r = plan(tmp_path / "p.yaml")
    owned = [p for x in r.months for p in x.placements if p.acquisition == "owned"]
    assert owned and all(p.count == 8 for p in owned)
    text = plan_view.render(r, "text", width=120)
    assert "8 × NVIDIA A100 SXM4 80GB  owned, over 2 servers" in text
    assert "自有，跨 2 台服务器" in plan_view.render(r, "text", width=120, lang="zh")
    # the network between the owned servers is the plan's assumption: the default for a data-centre GPU
    said = [a for a in r.assumptions if a.field == "owned[].servers"]
    assert len(said) == 1 and said[0].value == "4 x a100-80gb-sxm"
    assert "over infiniband-400 between them" in said[0].reason


def test_a_brief_names_a_rule_it_leaves_out_once_with_its_count():
    """The 26-workload plan's brief left three findings to the full report and listed them as
    'PLAN-OWNED-CANNOT-RUN, PLAN-OWNED-CANNOT-RUN, PLAN-API-CHEAPER': a rule that fired for two workloads is named
    once, with its count."""
    from gpuwise.render.views.base import counted_rules

    assert counted_rules(["PLAN-OWNED-CANNOT-RUN", "PLAN-OWNED-CANNOT-RUN", "PLAN-API-CHEAPER"]) == [
        "PLAN-OWNED-CANNOT-RUN (2)", "PLAN-API-CHEAPER"]
    assert counted_rules(["A", "B", "A", "A"]) == ["A (3)", "B"]
