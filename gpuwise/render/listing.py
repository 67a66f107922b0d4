"""``gpuwise gpus``, ``gpuwise rules`` and ``gpuwise explain``: the catalog and the rule base,
as text (Jinja2 templates under reports/templates/catalog/) or JSON."""

from __future__ import annotations

import difflib
import json
from typing import Any

from ..errors import UserError


def _env() -> Any:
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    from ..paths import templates_dir

    return Environment(loader=FileSystemLoader(str(templates_dir() / "catalog")), undefined=StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)


def _num(v: float | None, unit: str = "") -> str:
    if v is None:
        return "-"
    text = f"{v:,.1f}" if v < 100 else f"{v:,.0f}"
    return text.replace(".0", "") if text.endswith(".0") else text + unit


def _street(kb: Any, g: Any) -> str:
    """The dated street price per GPU (new), as prices.yaml gives it."""
    from ..estimators.cost import street_price

    got = street_price(kb.prices, g, kb.tco, usd_cny=kb.tco_value("usd_cny").value)
    return f"${got[0]:,.0f} ({got[1][:7]})" if got else "-"


def gpus(fmt: str = "text", *, knowledge: str | None = None) -> str:
    from ..knowledge import load

    kb = load(knowledge)
    if fmt == "json":
        return json.dumps({"gpus": [g.model_dump(mode="json") for g in kb.gpus.values()]}, indent=2) + "\n"
    rows = []
    for g in kb.gpus.values():
        p = g.peaks
        rows.append({
            "id": g.id, "name": g.name, "arch": g.architecture, "cc": g.compute_capability or g.isa or "-",
            "mem": f"{g.memory.gb:g} GB {g.memory.type}", "bw": _num(g.memory.bandwidth_gb_s),
            "bf16": _num(p.bf16 or p.fp16), "fp8": _num(p.fp8), "tdp": _num(g.power.tdp_w),
            "link": f"{g.link.kind} {g.link.bandwidth_gb_s:g}",
            "price": _street(kb, g),
            "sources": sorted({g.memory.source, g.peaks.source, g.link.source, g.power.source}),
        })
    return _env().get_template("gpus.txt.j2").render(rows=rows, files=kb.files)


def _book(rules: str | None, knowledge: str | None) -> Any:
    from ..decide.rulebook import load
    from ..knowledge import load as load_kb

    return load(rules, {k: v.value for k, v in load_kb(knowledge).policy.items()})


def _value(v: Any, policy: dict[str, Any]) -> str:
    if isinstance(v, str) and v.startswith("$"):
        return v[1:]
    if isinstance(v, dict) and "policy" in v:
        return f"policy {v['policy']} (= {policy.get(v['policy'], '?')})"
    if isinstance(v, dict) and "ref" in v:
        times = v.get("times", 1)
        return f"{v['ref']} x ({times})" if isinstance(times, str) else f"{v['ref']} x {times:g}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _cond(c: list[Any], policy: dict[str, Any]) -> str:
    return f"{c[0]} {c[1]} {_value(c[2], policy)}"


def _rule_view(book: Any, rid: str) -> dict[str, Any]:
    r = book.rules[rid]
    return {
        "id": r.id, "title": r.title, "step": book.step_of[rid], "ruleset": book.ruleset_of[rid],
        "stage": book.stage(rid) or "", "fact": r.fact, "when": [_cond(c, book.policy) for c in r.when],
        "any": [_cond(c, book.policy) for c in r.any], "action": r.then.action,
        "severity": "blocker" if r.then.action == "reject" else r.then.severity, "topic": r.then.topic,
        "message": r.then.message, "fix": r.then.fix, "set": dict(r.then.set),
        "rationale": r.rationale, "source": r.source, "example": r.example,
        "origin": "house" if rid in book.house else "built-in", "file": book.origin[rid],
        "replaces": rid in book.replaced,
    }


def rules(fmt: str = "text", *, rules: str | None = None, knowledge: str | None = None) -> str:
    """The rule base (built-in, plus the house rules of ``rules``), by step."""
    book = _book(rules, knowledge)
    views = [_rule_view(book, rid) for rid in book.rules]
    if fmt == "json":
        return json.dumps({"rules": views, "house": {"added": sorted(book.house - set(book.replaced)),
                                                     "replaced": book.replaced}}, indent=2) + "\n"
    return _env().get_template("rules.txt.j2").render(rules=views, house=sorted(book.house),
                                                      replaced=book.replaced)


def explain(rule_id: str, fmt: str = "text", *, rules: str | None = None, knowledge: str | None = None) -> str:
    book = _book(rules, knowledge)
    rid = rule_id.strip().upper()
    if rid not in book.rules:
        close = difflib.get_close_matches(rid, list(book.rules), n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(close)}?" if close else "see `gpuwise rules` for the list"
        raise UserError(f"unknown rule '{rule_id}'", hint=hint)
    view = _rule_view(book, rid)
    if fmt == "json":
        return json.dumps(view, indent=2) + "\n"
    return _env().get_template("explain.txt.j2").render(r=view)


def facts(fmt: str = "text") -> str:
    """The fact vocabulary: every fact type and field a rule may test (``gpuwise rules --facts``)."""
    from ..decide.facts import FACT_MODELS, STAGES, vocabulary

    vocab = vocabulary()
    if fmt == "json":
        return json.dumps({"stages": list(STAGES), "facts": vocab}, indent=2) + "\n"
    docs = {name: " ".join((m.__doc__ or "").split()) for name, m in FACT_MODELS.items()}
    return _env().get_template("facts.txt.j2").render(facts=vocab, docs=docs, stages=STAGES)
