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
            "price": f"${g.price.usd:,.0f} ({g.price.as_of:%Y-%m})" if g.price else "-",
            "sources": sorted({g.memory.source, g.peaks.source, g.link.source, g.power.source}),
        })
    return _env().get_template("gpus.txt.j2").render(rows=rows, files=kb.files)


def _rule_view(rid: str) -> dict[str, Any]:
    from ..decide.rulebook import load

    book = load()
    r = book.rules[rid]
    return {
        "id": r.id, "title": r.title, "step": book.step_of[rid], "ruleset": book.ruleset_of[rid],
        "fact": r.fact, "when": [" ".join(str(x) for x in c) for c in r.when],
        "any": [" ".join(str(x) for x in c) for c in r.any], "action": r.then.action,
        "severity": r.then.severity, "topic": r.then.topic, "message": r.then.message, "fix": r.then.fix,
        "rationale": r.rationale, "source": r.source, "example": r.example,
    }


def rules(fmt: str = "text") -> str:
    from ..decide.rulebook import load

    book = load()
    views = [_rule_view(rid) for rid in book.rules]
    if fmt == "json":
        return json.dumps({"rules": views}, indent=2) + "\n"
    return _env().get_template("rules.txt.j2").render(rules=views)


def explain(rule_id: str, fmt: str = "text") -> str:
    from ..decide.rulebook import load

    book = load()
    rid = rule_id.strip().upper()
    if rid not in book.rules:
        close = difflib.get_close_matches(rid, list(book.rules), n=3, cutoff=0.5)
        hint = f"did you mean {' or '.join(close)}?" if close else "see `gpuwise rules` for the list"
        raise UserError(f"unknown rule '{rule_id}'", hint=hint)
    view = _rule_view(rid)
    if fmt == "json":
        return json.dumps(view, indent=2) + "\n"
    return _env().get_template("explain.txt.j2").render(r=view)
