"""No string-keyed bag of numbers crosses a module (issue 21, item 2): an estimate is handed on as
typed records (memory, layout, speed, serving, cost, market), and the facts, results and JSON read
their attributes. This fails when a ``numbers`` dict, or any ``dict[str, Any]`` field, comes back on
:class:`Evaluation` or on a record, or when a module reads ``.numbers`` off anything again."""

from __future__ import annotations

import ast
import dataclasses
import types
import typing
from pathlib import Path
from typing import Any

import pytest

from gpuwise.decide.subjects import candidate_fact
from gpuwise.estimators.candidate import Evaluation, evaluate
from gpuwise.estimators.priced import Cost, Market
from gpuwise.estimators.run import Speed, TrainingRun
from gpuwise.estimators.serving.result import ServingResult, serving_json
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements
from gpuwise.knowledge import schema as knowledge_schema
from gpuwise.knowledge.schema import runtime as knowledge_runtime
from gpuwise.knowledge.schema import serving as knowledge_serving

from . import sources
from .conftest import ROOT

RECORDS = (Evaluation, Speed, TrainingRun, ServingResult, Cost, Market)


def _bags(cls: type) -> list[str]:
    """Fields of ``cls`` that are untyped bags: a bare ``dict``/``Any`` or a dict with ``Any`` values."""
    out = []
    # the estimators name knowledge classes for type checkers only (a run holds knowledge records)
    names = {**vars(knowledge_schema), **vars(knowledge_runtime), **vars(knowledge_serving)}
    hints = typing.get_type_hints(cls, localns=names)
    for f in dataclasses.fields(cls):
        t = hints[f.name]
        union = typing.get_origin(t) in (typing.Union, types.UnionType)
        for part in typing.get_args(t) if union else (t,):  # X | None: each side
            origin = typing.get_origin(part)
            if part is Any or part is dict or (origin is dict and typing.get_args(part)[1] is Any):
                out.append(f"{cls.__name__}.{f.name}: {t}")
    return out


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_no_number_bag_on_the_records(cls):
    assert dataclasses.is_dataclass(cls)
    assert "numbers" not in {f.name for f in dataclasses.fields(cls)}
    assert _bags(cls) == []


def test_the_bag_test_can_fail():
    @dataclasses.dataclass
    class Bagged:
        numbers: dict[str, Any]
        fine: dict[str, float]

    assert _bags(Bagged) == ["Bagged.numbers: dict[str, typing.Any]"]


@pytest.mark.parametrize("cls", (Speed, TrainingRun, Cost, Market), ids=lambda c: c.__name__)
def test_step_records_are_frozen(cls):
    assert cls.__dataclass_params__.frozen


def test_no_module_reads_a_numbers_attribute():
    hits = []
    for path in sources.modules():
        for node in sources.walk(sources.tree(path)):
            if isinstance(node, ast.Attribute) and node.attr == "numbers":
                hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hits == []


def test_facts_are_built_from_the_records(kb):
    """One 2 x H100 serving candidate: the fact fields read the records' attributes, and the JSON's
    ``gpu.serving`` quotes the same figures."""
    req = Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                                       "constraints": {"project_months": 12}})
    job = resolve(req, kb)
    ev = evaluate(job, kb.gpus["h100-80gb-sxm"], 2)
    assert isinstance(ev.speed, Speed) and isinstance(ev.serving, ServingResult)
    assert isinstance(ev.cost, Cost) and isinstance(ev.market, Market) and ev.training is None
    sv, k = ev.serving, ev.cost
    fact = candidate_fact(job, ev, "rent")
    assert fact["max_concurrent_sequences"] == sv.max_concurrent_sequences
    assert fact["ttft_ms"] == pytest.approx(sv.ttft_s * 1000)
    assert fact["aggregate_tps"] == ev.speed.decode_tokens_per_s_total == sv.throughput_tokens_per_s
    assert fact["rent_usd"] == k.rent_usd and fact["rent_term"] == k.rent_term
    assert fact["market"] == ev.market.market == "global"
    out = serving_json(sv)
    assert out.layout.model_dump() == sv.layout.as_dict() and out.tpot_s == sv.tpot_s
    assert out.per_sequence_tokens_per_s == pytest.approx(1 / sv.tpot_s)
    assert out.model_dump(mode="json")["layout"] == sv.layout.as_dict()


def test_a_solved_plan_is_handed_on_as_typed_records():
    """plan/build.py reads the solver's values into plan/solution.py's records and plan/judge.py builds
    the plan's facts from their attributes: no string-keyed bag between them. A money line keeps its
    formula's operands as the JSON shows them (``inputs``), as a ledger line does."""
    from gpuwise.plan import judge, solution

    records = (solution.Extracted, solution.MonthFigures, solution.Placed, solution.Bought, solution.Committed,
               solution.MoneyLine, solution.HostedApi)
    assert all(dataclasses.is_dataclass(r) and r.__dataclass_params__.frozen for r in records)  # type: ignore[attr-defined]
    assert [b for r in records for b in _bags(r)] == ["MoneyLine.inputs: dict[str, typing.Any]"]
    source = sources.text(ROOT / "gpuwise" / "plan" / "judge.py")
    assert 'ex["' not in source and 'a["' not in source and ".get(\"provider\")" not in source
    hints = typing.get_type_hints(judge.facts)
    assert hints["ex"] is solution.Extracted and hints["api"] == list[solution.HostedApi]


# ------------------------------------------------------------- the results the layers hand on
BAGS_BY_DESIGN = {
    # a sentence's placeholder values, by name (reports/messages.yaml, the rules' messages)
    "Finding.evidence", "Finding.values", "TraceEntry.facts", "TraceEntry.values", "Sentence.values",
    "StepSummary.values", "Assumption.value", "Assumption.values",
    # a formula's operands, by name, as the JSON shows them
    "FormulaTerm.inputs", "LedgerLine.inputs", "Line.inputs",
    # the input echoed back as it was given
    "RecommendResult.question", "AuditResult.proposal", "EstimateResult.workload",
    # the policy values in force, by policy name
    "RecommendResult.policy", "AuditResult.policy",
}
"""Fields of the result models that are string-keyed by nature (names chosen by a message, a
formula, the input or the policy file), not a bag of figures one module hands another."""

KNOWN_BAGS: set[str] = set()
"""Bags still left (issue 21 item 2): none; a field put here must be made a typed record."""


def _result_bags(*roots: type) -> set[str]:
    """``Model.field`` for every field of the pydantic models reachable from ``roots`` whose type is a
    bare ``dict`` or ``Any``, or holds a dict with ``Any`` values (``list[dict[str, Any]]`` too)."""
    from pydantic import BaseModel

    def is_bag(t: Any, top: bool = True) -> bool:  # Any inside a list is a phrase's parts, not a bag
        origin = typing.get_origin(t)
        if (t is Any and top) or t is dict or (origin is dict and typing.get_args(t)[1] is Any):
            return True
        if origin in (typing.Union, types.UnionType):
            return any(is_bag(a, top) for a in typing.get_args(t))
        if origin in (list, tuple):
            return any(is_bag(a, False) for a in typing.get_args(t) if a is not Ellipsis)
        return False

    def models(t: Any) -> list[type]:
        if isinstance(t, type) and issubclass(t, BaseModel):
            return [t]
        return [m for a in typing.get_args(t) for m in models(a)]

    seen: set[type] = set()
    todo, out = list(roots), set()
    while todo:
        cls = todo.pop()
        if cls in seen:
            continue
        seen.add(cls)
        for name, f in cls.model_fields.items():
            if is_bag(f.annotation):
                out.add(f"{cls.__name__}.{name}")
            todo += models(f.annotation)
    return out


def test_the_results_carry_typed_records_not_bags():
    """The results the decision hands the views and the JSON (recommend, audit, estimate, plan) hold
    typed records all the way down: the charts' series, a used card, an estimate's cost, the plan's
    rentals. A ``dict[str, Any]`` field that comes back fails here; one that becomes typed must leave
    KNOWN_BAGS."""
    from gpuwise.plan.result import PlanResult
    from gpuwise.results import AuditResult, EstimateResult, RecommendResult

    found = _result_bags(RecommendResult, AuditResult, EstimateResult, PlanResult)
    assert found - BAGS_BY_DESIGN - KNOWN_BAGS == set(), "a new untyped bag on a result"
    assert KNOWN_BAGS - found == set(), "typed now: remove it from KNOWN_BAGS"
    assert found >= BAGS_BY_DESIGN


def test_the_result_bag_check_can_fail():
    from pydantic import BaseModel

    class Inner(BaseModel):
        figures: list[dict[str, Any]] = []
        fine: dict[str, int] = {}

    class Outer(BaseModel):
        inner: Inner | None = None
        loose: Any = None

    assert _result_bags(Outer) == {"Inner.figures", "Outer.loose"}


def test_a_training_estimate_is_typed_and_reads_back_as_written(kb):
    """A 70B full fine-tune written with ZeRO-0, no offload, no checkpointing on 8 x A100-80G does not
    fit as asked (16 B of state x 69e9 parameters = 1.1 TB against 8 x 80 GB): gpu.layout and
    gpu.training are records (gpuwise/results_training.py), the suggested changes keep the JSON's
    ``from``/``to``, and the JSON reads back into the same records (contract version 2 keys)."""
    from gpuwise import estimate
    from gpuwise.results import EstimateResult
    from gpuwise.results_training import NO_TRAINING, DpTraffic, SuggestedChange, TrainingLayout, TrainingOut

    w = {"task": "finetune", "model": "llama-2-70b", "train_tokens": 1e8, "zero_stage": 0, "offload": "none",
         "gradient_checkpointing": False}
    r = estimate({"workload": w}, gpu="A100-80G", gpus=8)
    g = r.gpu
    assert isinstance(g.layout, TrainingLayout) and isinstance(g.training, TrainingOut)
    assert g.layout.tp * g.layout.pp * g.layout.dp == 8
    t = g.training
    assert all(isinstance(c, SuggestedChange) for c in t.suggested_changes)
    out = r.model_dump(mode="json")
    written = out["gpu"]["training"]["suggested_changes"]
    assert written == [{"field": c.field, "from": c.before, "to": c.after} for c in t.suggested_changes]
    asked = {c["field"]: c["from"] for c in written}
    assert asked["zero_stage"] == 0 and asked.get("offload", "none") == "none"  # as the file wrote them
    assert all(c["from"] != c["to"] for c in written)
    # the step is its parts; the exposed communication is the step's communication parts
    s = t.step_terms
    assert s.step_s == pytest.approx(s.compute_s + s.tp_s + s.pp_p2p_s + s.pp_bubble_s + s.dp_s + s.ep_s + s.cp_s
                                     + s.optimizer_s + s.offload_s, rel=1e-12)
    assert t.exposed_comm_s.model_dump() == {k: v for k, v in s.model_dump().items()
                                             if k in ("tp_s", "pp_p2p_s", "pp_bubble_s", "dp_s", "ep_s", "cp_s")}
    d = t.dp_traffic
    assert isinstance(d, DpTraffic) and d.traffic_s == pytest.approx(d.hidden_s + d.exposed_s, rel=1e-12)
    term = next(x for x in g.terms if x.name == "dp_traffic_seconds")
    assert term.inputs == out["gpu"]["training"]["dp_traffic"]  # one record behind the formula and the JSON
    assert EstimateResult.model_validate(out).model_dump(mode="json") == out
    # a service plans no training: {} in the JSON, read back as the empty record
    serve = estimate({"workload": {"task": "inference", "model": "llama-3.1-8b"}}, gpu="H100-80G", gpus=1)
    assert serve.gpu.training is NO_TRAINING and serve.gpu.layout is None
    dumped = serve.model_dump(mode="json")
    assert dumped["gpu"]["training"] == {} and dumped["gpu"]["layout"] is None
    assert EstimateResult.model_validate(dumped).model_dump(mode="json") == dumped


# ------------------------------------------------------------- below the results: function returns
NUMBER_DICTS_BY_DESIGN = {
    "gpuwise/estimators/memory_terms.py:breakdown": "bytes by memory part (results.MEMORY_PARTS), the JSON's breakdown",
    "gpuwise/estimators/serving/layout.py:as_dict": "a serving layout as the JSON writes it",
    "gpuwise/estimators/data_parallel.py:as_dict": "a step's data-parallel traffic's figures as a formula's operands",
    "gpuwise/estimators/step_time.py:as_dict": "a step's figures as a formula's operands",
    "gpuwise/inputs/schema.py:list_caps": "a top-level list's most entries by its key, as the YAML scan looks them up",
    "gpuwise/inputs/strict.py:field_bounds": "a number field's bounds by pydantic's own names (ge, gt, le, lt), as the "
                                             "refusals that say a bound look them up (hostileleft60)",
}
"""Functions returning a string-keyed dict of numbers to another module by nature: a breakdown by
part name, operands by name, a layout as the JSON writes it."""

_NUMBER = {"int", "float", "bool", "None", "Number"}


def _number_dict(node: ast.expr | None) -> bool:
    """``dict[str, V]`` where ``V`` is made only of int, float, bool, None (a union of them)."""
    if node is None:
        return False
    text = ast.unparse(node).strip("'\"").replace(" ", "")
    if not (text.startswith("dict[str,") and text.endswith("]")):
        return False
    return set(text[len("dict[str,"):-1].split("|")) <= _NUMBER


def _number_dict_returns() -> dict[str, set[str]]:
    """``path:function`` of each function returning a dict of numbers -> the other modules that import
    it or read it as an attribute (a bare name elsewhere is that module's own function)."""
    made: dict[str, str] = {}
    names: dict[Path, set[str]] = {}
    for path in sources.modules():
        rel = path.relative_to(ROOT).as_posix()
        seen = names[path] = set()
        for node in sources.walk(sources.tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _number_dict(node.returns):
                made[f"{rel}:{node.name}"] = node.name
            elif isinstance(node, ast.Attribute):
                seen.add(node.attr)
            elif isinstance(node, ast.ImportFrom):
                seen.update(a.name for a in node.names)
    out: dict[str, set[str]] = {}
    for where, name in made.items():
        home = where.split(":")[0]
        out[where] = {p.relative_to(ROOT).as_posix() for p, seen in names.items()
                      if name in seen and p.relative_to(ROOT).as_posix() != home}
    return out


def test_no_dict_of_numbers_is_returned_across_a_module():
    """Below the results (issue 21 item 2): a function that hands another module a string-keyed dict
    of figures (the support figures, the data-parallel traffic, the serving limits, a run's suggested
    changes) returns a frozen record instead. A public function returning one, or a private one named
    in another module, fails here unless it is listed by design."""
    found = _number_dict_returns()
    crossing = {w for w, users in found.items() if not w.split(":")[1].startswith("_") or users}
    assert crossing - NUMBER_DICTS_BY_DESIGN.keys() == set(), "return a frozen record (gpuwise/frozen.py)"
    assert NUMBER_DICTS_BY_DESIGN.keys() <= found.keys(), "gone: remove it from NUMBER_DICTS_BY_DESIGN"


def test_the_number_dict_check_can_fail():
    tree = ast.parse("def f() -> dict[str, float | None]: ...\ndef g() -> dict[str, Any]: ...\n"
                     "def h() -> 'dict[str, bool | int]': ...\ndef k() -> dict[str, list[float]]: ...")
    assert [n.name for n in tree.body if _number_dict(n.returns)] == ["f", "h"]


def test_no_view_reads_the_echoed_input_by_key():
    """The views read what the user asked through the typed question (views/base.py ``asked``), not the
    echoed ``question``/``proposal``/``workload`` dict by key; the question table lists the echo whole."""
    echoes = {"question", "proposal", "workload"}
    hits = []
    for path in sources.modules(ROOT / "gpuwise" / "render"):
        for node in sources.walk(sources.tree(path)):
            target = None
            if isinstance(node, ast.Subscript):
                target = node.value
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
                target = node.func.value
            if (isinstance(target, ast.Attribute) and target.attr in echoes) or (
                    isinstance(target, ast.Name) and target.id in echoes):
                hits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert hits == []
