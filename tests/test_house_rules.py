"""House rules (--rules DIR), policy overlays and the rule chain, as a user meets them: through
the CLI and the public API, with the real rule engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuwise import recommend
from gpuwise.cli import main
from gpuwise.decide import engine, rulebook
from gpuwise.errors import RuleError

ROOT = Path(__file__).resolve().parent.parent
HOUSE = ROOT / "examples" / "house-rules"
LORA_8B = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-8b", "train_tokens": 1e8},
           "constraints": {"max_gpus": 8}}


def _run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def _house(tmp_path: Path, body: str, name: str = "house.yaml") -> Path:
    d = tmp_path / "rules"
    d.mkdir(exist_ok=True)
    (d / name).write_text(body)
    return d


REJECT_AMD = """schema_version: 1
ruleset: house
step: memory
rules:
  - id: HOUSE-NO-AMD
    title: No AMD GPUs here
    fact: candidate
    when: [[vendor, "==", amd]]
    then: {action: reject, topic: compatibility, message: "{gpu_name}: this team does not run AMD GPUs"}
    rationale: "The team's inference stack is validated on NVIDIA and Intel parts only."
    source: "team standard (test)"
"""


def test_a_house_rule_rejecting_a_vendor_removes_its_candidates_and_is_cited(tmp_path: Path) -> None:
    base = recommend(LORA_8B)
    assert any(c.feasible and c.gpu.startswith("mi") for c in base.candidates), "AMD parts are feasible without it"
    res = recommend(LORA_8B, rules=str(_house(tmp_path, REJECT_AMD)))
    amd = [c for c in res.candidates if c.gpu.startswith(("mi250", "mi300", "mi325"))]
    assert amd and not any(c.feasible for c in amd)
    for c in amd:
        assert "HOUSE-NO-AMD" in c.rules
        assert any("this team does not run AMD GPUs" in r for r in c.reasons)
    assert res.house_rules is not None and res.house_rules.added == ["HOUSE-NO-AMD"]
    nvidia = [c for c in res.candidates if c.feasible]
    assert nvidia and all(not c.gpu.startswith("mi") for c in nvidia)


def test_the_cuda_only_example_rejects_every_non_cuda_candidate() -> None:
    res = recommend(LORA_8B, rules=str(HOUSE))
    non_cuda = [c for c in res.candidates if c.gpu.startswith(("mi", "gaudi"))]
    assert non_cuda and all("HOUSE-CUDA-ONLY" in c.rules and not c.feasible for c in non_cuda)


def test_a_house_audit_blocker_makes_audit_exit_1_and_is_cited(capsys) -> None:
    code, out, err = _run(capsys, "audit", str(ROOT / "examples" / "proposal-used-3090-mining.yaml"),
                          "--rules", str(HOUSE), "--format", "json")
    doc = json.loads(out)
    assert code == 1 and doc["verdict"] == "reject", err
    mine = [f for f in doc["findings"] if f["rule"] == "HOUSE-NO-USED"]
    assert mine and mine[0]["severity"] == "blocker" and mine[0]["house"] is True
    assert "company policy buys new hardware only" in mine[0]["message"]


def test_a_house_rule_replaces_a_builtin_by_id_and_the_output_says_so(tmp_path: Path, capsys) -> None:
    body = """schema_version: 1
ruleset: house
step: compute
rules:
  - id: CMP-NO-ECC-LONG-RUN
    title: No ECC on any run longer than a day
    fact: candidate
    when: [[training, "==", true], [ecc, "==", false], [wall_days, ">", 1]]
    then: {action: finding, severity: warning, topic: compute, message: "{gpu_name}: no ECC for {wall_days:.0f} days"}
    rationale: "We checkpoint daily and cannot afford a silent flip within a day."
    source: "team standard (test)"
"""
    d = _house(tmp_path, body)
    book = rulebook.load(d)
    assert book.replaced == {"CMP-NO-ECC-LONG-RUN": str(d / "house.yaml")}
    assert book.rules["CMP-NO-ECC-LONG-RUN"].title == "No ECC on any run longer than a day"
    code, out, _ = _run(capsys, "rules", "--rules", str(d))
    assert code == 0 and "CMP-NO-ECC-LONG-RUN" in out and "replaces the built-in rule" in out
    res = recommend(LORA_8B, rules=str(d))
    assert res.house_rules is not None and "CMP-NO-ECC-LONG-RUN" in res.house_rules.replaced


def test_rules_lists_house_rules_and_explain_shows_them(capsys) -> None:
    code, out, _ = _run(capsys, "rules", "--rules", str(HOUSE))
    assert code == 0
    assert "HOUSE-CUDA-ONLY" in out and "HOUSE-NO-USED" in out and "[house]" in out
    code, out, _ = _run(capsys, "explain", "house-cuda-only", "--rules", str(HOUSE))
    assert code == 0 and "house rule from" in out and "Team engineering standard" in out


def test_rules_facts_prints_the_vocabulary(capsys) -> None:
    code, out, _ = _run(capsys, "rules", "--facts")
    assert code == 0
    for name in ("== candidate ==", "== proposal ==", "need_gb", "capacity_gb", "fits", "(from compute)"):
        assert name in out
    code, out, _ = _run(capsys, "rules", "--facts", "--format", "json")
    doc = json.loads(out)
    assert doc["facts"]["candidate"]["fits"]["set_by"] == "compute"
    assert {"gpu", "vendor", "form_factor", "count", "nodes", "acquisition", "need_gb", "capacity_gb", "fits",
            "wall_days", "cost_usd"} <= set(doc["facts"]["candidate"])  # the contract's vocabulary
    assert {"gpu", "vendor", "count", "condition", "mode"} <= set(doc["facts"]["proposal"])


BAD = {
    "unknown field": ('when: [[vendorr, "==", amd]]', "vendorr", "did you mean 'vendor'"),
    "unknown action": ('when: [[vendor, "==", amd]]\n    then: {action: veto, topic: cost, message: "not here"}',
                       "veto", "not one of"),
    "bad placeholder": ('when: [[vendor, "==", amd]]\n    then: {action: reject, topic: cost, message: "{gpu_nam}"}',
                        "gpu_nam", "unknown field"),
    "too early": ('when: [[fits, "==", true]]', "fits", "exists from the compute stage on"),
    "unknown policy": ('when: [[wall_days, ">", {policy: value_of_a_dya}]]', "value_of_a_dya", "unknown policy"),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_house_rules_are_exit_2_naming_file_and_rule(tmp_path: Path, capsys, case: str) -> None:
    when, bad, why = BAD[case]
    body = f"""schema_version: 1
ruleset: house
step: memory
rules:
  - id: HOUSE-BAD
    title: A bad rule
    fact: candidate
    {when}
    rationale: "Rationale long enough."
    source: "test"
"""
    if "then:" not in when:
        then = '    then: {action: reject, topic: cost, message: "not here"}\n'
        body = body.replace("    rationale:", then + "    rationale:")
    d = _house(tmp_path, body)
    code, out, err = _run(capsys, "recommend", str(ROOT / "examples" / "lora-70b.yaml"), "--rules", str(d))
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert str(d / "house.yaml") in err and "HOUSE-BAD" in err and bad in err and why in err


def test_a_duplicate_house_rule_id_is_exit_2(tmp_path: Path, capsys) -> None:
    d = _house(tmp_path, REJECT_AMD, "a.yaml")
    _house(tmp_path, REJECT_AMD, "b.yaml")
    code, _out, err = _run(capsys, "rules", "--rules", str(d))
    assert code == 2 and "duplicate rule id 'HOUSE-NO-AMD'" in err and "b.yaml" in err


def test_a_policy_overlay_keeps_half_of_each_card_free(tmp_path: Path) -> None:
    """memory_headroom_fraction: 0.5 -> no recommended candidate plans above half of its cards."""
    (tmp_path / "policy.yaml").write_text("memory_headroom_fraction: 0.5\n")
    req = {"workload": {"task": "finetune", "method": "lora", "model": "llama-3.1-70b", "train_tokens": 1e7},
           "constraints": {"max_gpus": 16}}
    base = recommend(req)
    half = recommend(req, knowledge=str(tmp_path))
    assert base.recommendation and half.recommendation
    b = next(c for c in base.candidates if c.rank == 1)
    h = next(c for c in half.candidates if c.rank == 1)
    assert b.memory_per_gpu_bytes > 0.5 * b.capacity_per_gpu_bytes  # the default plan uses more than half
    for c in half.candidates:
        if c.feasible:
            assert c.memory_per_gpu_bytes <= 0.5 * c.capacity_per_gpu_bytes
    assert h.memory_per_gpu_bytes <= 0.5 * h.capacity_per_gpu_bytes
    assert half.policy["memory_headroom_fraction"] == 0.5


def test_the_steps_chain_and_the_trace_shows_it() -> None:
    """The chosen candidate was passed by one rule per step, in order, each at its stage."""
    res = recommend(LORA_8B)
    best = next(c for c in res.candidates if c.rank == 1)
    key = f"{best.gpu}x{best.count}:{best.acquisition}"
    passes = [t for t in res.trace if t.subject == key and t.action == "pass"]
    assert [t.stage for t in passes] == ["memory", "compute", "interconnect", "tco"]
    assert [t.step for t in passes] == ["memory", "compute", "interconnect", "tco"]
    assert [s.rule for s in res.steps] == [t.rule for t in passes]
    assert all(s.template and s.values for s in res.steps)


def test_no_gpu_id_and_no_decision_threshold_in_the_engine() -> None:
    """GPU ids live in knowledge/, decision numbers in policy.yaml: none in gpuwise/. The modules
    that turn facts into a result compare no measured value with a number."""
    import ast
    import re

    from gpuwise import knowledge

    from . import sources

    ids = set(knowledge.load().gpus)
    problems = []
    deciding = {"recommend.py", "consult.py", "count_search.py", "result.py", "audit.py", "actions.py", "subjects.py",
                "rank.py", "estimate.py"}
    # a GPU id in quotes: one pass of every id at once (the closing quote looked ahead to, not taken, so an id
    # that begins at the quote ending another is still found), the ids a search per id finds
    quoted = re.compile("[\"'](" + "|".join(map(re.escape, ids)) + ")(?=[\"'])")
    for path in (ROOT / "gpuwise").rglob("*.py"):
        text = path.read_text()
        found = {m.group(1) for m in quoted.finditer(text)}
        problems += [f"{path.name}: GPU id {gid}" for gid in ids if gid in found]
        for pattern in (r"\b365\b", r"2022[-, ]0?9", r"\b0\.97\b", r"tdp_w\s*>\s*\d"):
            if re.search(pattern, text):
                problems.append(f"{path.name}: {pattern}")
        if path.name not in deciding or "render" in path.parts:  # the views present, they do not decide
            continue
        for node in sources.walk(sources.tree(path)):  # a comparison with a number other than 0/1/-1 decides in code
            if isinstance(node, ast.Compare):
                for side in (node.left, *node.comparators):
                    if (isinstance(side, ast.Constant) and isinstance(side.value, int | float)
                            and not isinstance(side.value, bool) and side.value not in (0, 1, -1)):
                        problems.append(f"{path.name}:{node.lineno}: compares with {side.value}")
    assert not problems, problems


def test_numbers_of_every_size_reach_the_engine() -> None:
    """durable-rules' parser refuses exponent notation; tiny, huge and negative-zero values are
    brought into its range keeping their order and sign."""
    assert engine.engine_number(1e-5) == 1e-4 and engine.engine_number(-1e-9) == -1e-4
    assert engine.engine_number(-0.0) == 0.0 and str(engine.engine_number(-0.0)) == "0.0"
    assert engine.engine_number(1e22) == 1e15 and engine.engine_number(123.5) == 123.5
    for v in (1e-5, 1e22, -0.0):
        assert "e" not in repr(engine.engine_number(v))


def test_a_rule_error_names_the_file(tmp_path: Path) -> None:
    d = _house(tmp_path, "schema_version: 1\nruleset: house\nstep: memory\nrules: []\n")
    with pytest.raises(RuleError) as err:
        rulebook.load(d)
    assert str(d / "house.yaml") in err.value.line()


@pytest.mark.parametrize("value", [1e-5, 1e-300, -1e-7, -0.0, 0.0, 1e22, -1e300, 5e-324, 123.456])
def test_every_float_reaches_the_rule_engine_in_a_form_it_parses(value: float) -> None:
    """Fact values of any size go through the real engine without error code 204, and a rule
    comparing with zero still sees their sign (rules/cloud-fees.yaml FEE-CROSS-REGION: > 0)."""
    book = rulebook.load()
    fact = {"t": "proposal", "mode": "rent", "cross_region_tb": value, "title": "t", "gpu": "h100-80gb-sxm"}
    fired = {rid for rid, _, _ in engine.run(book, [fact]).firings}
    assert ("FEE-CROSS-REGION" in fired) == (value > 0)


def test_tiny_and_huge_numbers_in_a_file_go_through_the_cli(tmp_path: Path, capsys) -> None:
    """The amounts users write as 0.00001 or 1e12 (Python prints them in exponent form) are judged."""
    p = tmp_path / "r.yaml"
    p.write_text("workload: {task: finetune, method: lora, model: llama-3.1-8b, train_tokens: 1.0e+7}\n"
                 "constraints: {budget_usd: 0.00001, deadline_days: 0.00001, electricity_usd_per_kwh: 0.000001}\n")
    code, out, err = _run(capsys, "recommend", str(p), "--format", "json")
    assert code == 1 and "internal error" not in err, err  # nothing is within a $0.00001 budget
    import json as _json

    doc = _json.loads(out)
    assert doc["recommendation"] is None
    assert any("budget" in r or "deadline" in r for c in doc["candidates"] for r in c["reasons"])


def test_a_house_rule_is_named_as_this_run_spells_the_directory(capsys, monkeypatch):
    """The rule book is cached by the directory's real path (in the process and on disk); the file a
    house rule comes from is still shown as this run wrote --rules, not as the first run did."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("COLUMNS", "400")  # a clone in a deep folder would wrap the absolute path
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")  # the first call below builds the book, spelled absolute
    monkeypatch.setattr(rulebook, "_CACHE", {})
    absolute = ROOT / "examples" / "house-rules"
    for spelled, shown in ((str(absolute), f"{absolute}/no-second-hand.yaml"),
                           ("examples/house-rules", "examples/house-rules/no-second-hand.yaml"),
                           ("./examples/house-rules/", "examples/house-rules/no-second-hand.yaml")):
        assert main(["explain", "HOUSE-NO-USED", "--rules", spelled]) == 0
        out = capsys.readouterr().out
        assert f"house rule from {shown}\n" in out, out
    # the cached book is not renamed by a copy spelled another way (the copy once shared its maps)
    assert main(["explain", "HOUSE-NO-USED", "--rules", str(absolute)]) == 0
    assert f"house rule from {absolute}/no-second-hand.yaml\n" in capsys.readouterr().out
