"""The plan's leftovers from session 42 (planleft58), each checked by hand against the knowledge files it reads.

1. Copies of a service on a committed term share one committed rental where it holds several (an 8-GPU instance
   reserved for a year holds eight one-GPU copies), as on-demand copies already did (planreview57's packs).
2. Owned consumer cards draw the host power of the machine they sit in: a desktop workstation's 250 W (tco.yaml
   workstation_host_w) where one holds them, the server's 410 W a GPU only past it, as a bought one does.
3. A plan over a budget no mix meets exits 1, as the contract's "no feasible option" does, and says so.
4. A service's copies over the owned servers.
5. The copy size on the brief page.
6. ``owned[].network``: an input, documented, and what the JSON and the page name.
"""

from __future__ import annotations

from pathlib import Path

from gpuwise.knowledge import load
from gpuwise.plan.build import plan
from tests.clirun import gpuwise, json_of, write_yaml

KB = load()
HOURS = 730.0  # a month's hours as the plan bills them (gpuwise/ledger.py HOURS_PER_MONTH: 8,760 / 12)

LAB = {"horizon_months": 12,
       "owned": [{"gpu": "A100 80GB SXM", "count": 16, "servers": 2, "hosting": "datacenter", "bought": "2024-06"}],
       "workloads": [{"name": "lab-chat", "workload": {"task": "inference", "model": "llama-3.1-8b",
                                                       "prompt_tokens": 1500, "output_tokens": 400},
                      "cadence": {"continuous": True, "hours_per_day": 10},
                      "targets": {"requests_per_s": 0.5, "p95_ttft_ms": 1500}}]}


# ---------------------------------------------------------------------------------------------- 3. over budget
def test_a_plan_over_a_budget_no_mix_meets_exits_1(tmp_path: Path):
    """16 owned A100s in a datacenter cost their hosting and power whatever runs on them (over $2,000 a month), so
    a $1,000 budget for the year cannot be kept by any mix: PLAN-BUDGET-OVER is a blocker, and the command exits 1
    as the contract's exit status says for a decision with no feasible option (it exited 0). The answer says it
    too, and the JSON's answer.why_not."""
    f = write_yaml(tmp_path, {**LAB, "constraints": {"budget_total_usd": 1000}}, "lab.yaml")
    done = gpuwise("plan", f, cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    assert "It goes over the budget" in " ".join(done.stdout.split())
    assert "[blocker]" in done.stdout and "PLAN-BUDGET-OVER" in done.stdout
    d = json_of(tmp_path, "plan", f)
    assert d["answer"]["why_not"] == "over_budget"
    assert [x["rule"] for x in d["findings"] if x["severity"] == "blocker"] == ["PLAN-BUDGET-OVER"]
    zh = gpuwise("plan", f, "--lang", "zh", cwd=tmp_path)
    assert zh.returncode == 1 and "PLAN-BUDGET-OVER" in zh.stdout
    assert "It goes over the budget" not in zh.stdout


def test_a_plan_within_its_budget_exits_0(tmp_path: Path):
    f = write_yaml(tmp_path, {**LAB, "constraints": {"budget_total_usd": 1_000_000}}, "lab.yaml")
    done = gpuwise("plan", f, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "It goes over the budget" not in done.stdout
