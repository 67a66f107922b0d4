"""The plan's brief text at its shortest (plan_view.render's steps past the catalog ids): a buy answer says more
than a rent one (the purchase, the late hardware, the bought fleet's capacity), so where the text still passes two
80 x 40 screens the purchases are left to the answer's sentences, each service keeps its cheapest hosted API, each
workload's GPUs of one type and one way share a row and the findings past what fits are named by their rules. What
is folded keeps its figures: each is checked here against the plan's own result."""

from __future__ import annotations

import re
from pathlib import Path

from gpuwise.render import plan_view
from tests.conftest import TWO_A_COPY, answer_of

ROOT = Path(__file__).resolve().parent.parent


def _sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    name = ""
    for line in text.split("\n"):
        head = re.match(r"=== (.+) ===$", line)
        if head:
            name = head.group(1)
            out[name] = []
        elif line and not line.startswith(" "):  # the solver's line after the last section
            name = ""
        elif name and line.strip():
            out[name].append(line)
    return out


def test_the_example_s_buy_answer_fits_two_screens_and_keeps_its_figures() -> None:
    # the example held to copies of 2 RTX 4090s: the example itself buys nothing since plancopy57 (copies of 4)
    r = answer_of("plan", TWO_A_COPY)
    text = plan_view.render(r, "text", width=80)
    assert len(text.rstrip("\n").split("\n")) <= 80
    s = _sections(text)
    assert r.purchases  # it buys two RTX PRO 6000s in month 1 (test_leftovers55)
    answer = " ".join(line.strip() for line in s["Answer"])
    assert "Purchases" not in s
    for p in r.purchases:  # the purchases table is left out: the answer's sentence says each of its figures
        assert f"Buy {p.count} × " in answer and f"in month {p.month} ({p.units} × {p.unit_gpus}-GPU" in answer
        assert f"${p.amount:,.0f}" in answer and f"run work from month {p.arrives}" in answer
    # where each workload runs: one row a workload, GPU type and way; its hours the placements' sum, its
    # counts from the fewest to the most of them, its months those they run in
    # (the rows as the brief's table holds them: a long catalog id may wrap onto a second line of the text; the
    # table has a service's GPUs a copy beside them since planleft58, 2 for chat-70b's, a dash for the runs)
    vm = plan_view.view(r)
    shown = vm["where_folded"] or vm["where_ids"]
    assert shown["headers"] == ["Workload", "GPUs", "A copy", "How", "Months", "GPU-hours"]
    # the rows the brief keeps, and the rest counted with their GPU-hours (product66: the Data freshness block, which
    # names the host share's 858-day-old price, takes the brief to keeping the rows of the most GPU-hours)
    table = "\n".join(s["Where each workload runs"])
    kept = [row for row in shown["rows"] if f" {row['cells'][0]} " in table]
    more = re.search(r"(\d+) more workloads? in the full report \(([\d,]+) GPU-hours\)", " ".join(table.split()))
    if len(kept) < len(shown["rows"]):
        assert more is not None
        hidden = {row["cells"][0] for row in shown["rows"]} - {row["cells"][0] for row in kept}
        assert int(more.group(1)) == len(hidden)
        assert int(more.group(2).replace(",", "")) == round(sum(
            float(row["cells"][-1].replace(",", "")) for row in shown["rows"] if row["cells"][0] in hidden))
    rows = [[c["cells"][0], *c["cells"][1].split(" x "), *c["cells"][3:]] for c in shown["rows"]]
    assert len(rows) == len({(w, g, h) for w, _n, g, h, *_ in rows})
    assert {c["cells"][2] for c in shown["rows"] if c["cells"][0] == "chat-70b"} <= {"1", "2"}
    for w, n, g, h, *months in rows:
        how = {"owned": "owned", "bought": "buy", "rented": "rent"}[h]
        ps = [(x.month, p) for x in r.months for p in x.placements if (p.workload, p.gpu, p.acquisition) == (w, g, how)]
        counts = sorted({p.count for _m, p in ps})
        assert n == (str(counts[0]) if len(counts) == 1 else f"{counts[0]}-{counts[-1]}")
        assert months[-1] == f"{sum(p.gpu_hours for _m, p in ps):,.0f}"
        assert " ".join(months[:-1]) == plan_view._ranges(sorted({m for m, _p in ps}))
    # each service's cheapest hosted API (the one self-hosting has to beat), with its month's figure
    cheapest = min(r.api, key=lambda a: a.api_per_month)
    api = s["Hosted APIs for the services"][2:]
    assert len(api) == 1 and f" {cheapest.provider} " in api[0] and f" ${cheapest.api_per_month:,.0f} " in api[0]
    # the findings: those not said in full are named by their rules, none dropped, no blocker among them
    said = [f.rule for f in r.findings if f"({f.rule})" in " ".join(s["Findings"])]
    rest = [f.rule for f in r.findings if f.rule not in said]
    assert rest and all(f.severity != "blocker" for f in r.findings if f.rule in rest)
    told = f"{len(rest)} more in the full report: " if said else "In the full report: "  # none said: no 'more'
    assert f"{told}{', '.join(rest)}." in " ".join(x.strip() for x in s["Findings"])


def test_the_full_report_keeps_every_section_the_brief_folds() -> None:
    r = answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml")
    full = _sections(plan_view.render(r, "text", width=80, detail="full"))
    assert all(f"${p.amount:,.0f}" in " ".join(full["Purchases"]) for p in r.purchases)
    assert all(f"Provider: {a.provider};" in " ".join(full["Hosted APIs for the services"]) for a in r.api)
    assert all(f"({f.rule})" in " ".join(full["Findings"]) for f in r.findings)
