"""Hostile plan files (issue 26 item 5), as tests/test_hostile_inputs.py tries requirements and
proposals: a wrong value in any field, an unknown key or a key that is not text in any section,
and a file that is not a mapping, each refused with exit 2 and one line naming the file and the
field, never an internal error, no report written. (A key that is not text under ``constraints``
was 'internal error: AttributeError: NoneType object has no attribute endswith', exit 3: the
currency check of amounts read every key as text.)"""

from __future__ import annotations

import copy
import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpuwise.plan.schema import PlanFile
from tests import test_hostile_inputs as H
from tests.conftest import examples

pytestmark = pytest.mark.usefixtures("audits_share_their_search")

SETTINGS = settings(max_examples=examples(20, 40), deadline=None, database=None,  # conftest: GPUWISE_THOROUGH
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PLAN: dict[str, Any] = {
    "horizon_months": 6,
    "owned": [{"gpu": "RTX 4090", "count": 2, "servers": 1, "hosting": "office", "bought": "2024-03",
               "paid_usd": 3000}],
    "workloads": [{"name": "ft", "workload": copy.deepcopy(H.REQUIREMENTS["workload"]),
                   "cadence": {"per_month": 1, "start_month": 1, "end_month": 6, "hours_per_day": 24,
                               "growth_per_month": 0, "continuous": False},
                   "deadline_days": 5, "targets": {}}],
    "constraints": {"budget_total_usd": 1e6, "acquisition": "either", "currency": "USD",
                    "electricity_usd_per_kwh": 0.15, "gpus": ["rtx-4090"], "max_gpus": 8},
}
"""Every section present (one owned entry, one workload with every workload field of the requirements
baseline), so that a mutation anywhere starts from a plan that passes."""
FIELDS = H.leaf_fields(PlanFile)
SECTIONS = H.mapping_paths(PlanFile)


def run(capsys, tmp_path: Path, doc: Any, field: str | None = None) -> str:
    """Write ``doc`` in a folder of its own (hypothesis reuses ``tmp_path``), plan it, check the refusal."""
    folder = tmp_path / uuid.uuid4().hex
    folder.mkdir()
    path, out = folder / "plan.yaml", folder / "out.md"
    path.write_bytes(H.dump(doc))
    code, stdout, err = H.cli(capsys, "plan", str(path), "-o", str(out))
    return H.assert_refused(code, stdout, err, path, field=field, output=out)


def test_the_baseline_is_a_plan(capsys, tmp_path: Path) -> None:
    PlanFile.model_validate(PLAN)
    path = tmp_path / "plan.yaml"
    path.write_bytes(H.dump(PLAN))
    code, _out, err = H.cli(capsys, "plan", str(path), "--format", "json")
    assert code == 0, err


@SETTINGS
@given(data=st.data())
def test_a_wrong_value_in_any_plan_field_is_refused_naming_it(capsys, tmp_path, data) -> None:
    path, f = data.draw(st.sampled_from(FIELDS), label="field")
    value = data.draw(H.invalid_values(path, f), label="value")
    run(capsys, tmp_path, H.set_at(PLAN, path, value), field=H.dotted(path))


@SETTINGS
@given(data=st.data())
def test_an_unknown_key_in_any_plan_section_is_refused_naming_it(capsys, tmp_path, data) -> None:
    where, model = data.draw(st.sampled_from(SECTIONS), label="section")
    key = data.draw(H.words.filter(lambda k: k not in model.model_fields), label="key")
    doc = copy.deepcopy(PLAN)
    H.get_at(doc, where)[key] = data.draw(st.one_of(st.integers(), H.words, st.none(), H.lists, H.mappings))
    assert "unknown key" in run(capsys, tmp_path, doc, field=H.dotted((*where, key)))


@SETTINGS
@given(data=st.data())
def test_a_plan_key_that_is_not_text_is_refused(capsys, tmp_path, data) -> None:
    where, _model = data.draw(st.sampled_from(SECTIONS), label="section")
    key = data.draw(st.one_of(st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False)), label="key")
    doc = copy.deepcopy(PLAN)
    H.get_at(doc, where)[key] = 1
    run(capsys, tmp_path, doc, field=H.dotted(where) or None)


@pytest.mark.parametrize("key", [None, 7, True, 1.5])
def test_a_key_that_is_not_text_under_constraints_is_refused(capsys, tmp_path: Path, key: Any) -> None:
    """The case found: ``constraints: {null: 1}`` (and any key not text) beside the amounts."""
    doc = copy.deepcopy(PLAN)
    doc["constraints"][key] = 1
    run(capsys, tmp_path, doc, field="constraints")


@SETTINGS
@given(doc=st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=20), st.booleans(),
                     st.lists(st.integers(), max_size=3), st.dates()))
def test_a_plan_file_that_is_not_a_mapping_is_refused(capsys, tmp_path, doc) -> None:
    run(capsys, tmp_path, doc)


@pytest.mark.parametrize("value", [{"llamacpp": 4}, {"vllm": 3}, {"sglang": "fp32"}, "vllm", [2]])
def test_a_wrong_engine_state_table_is_refused(capsys, tmp_path: Path, value: Any) -> None:
    """recurrent.framework_state_bytes is a table of engine -> 2 or 4 bytes: an unknown engine, another size or
    not a table is refused naming the field. An empty table is valid (every engine keeps state_bytes), which the
    random draw once offered as a wrong value: the strategy now draws only non-empty wrong tables."""
    path = ("workloads", 0, "workload", "architecture", "recurrent", "framework_state_bytes")
    run(capsys, tmp_path, H.set_at(PLAN, path, value), field=H.dotted(path))
