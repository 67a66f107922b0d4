"""The plan's records are built before the planner makes its first ones (gpuwise/plan/result.py complete()).

They defer their build to their first instance, when pydantic rebuilds the model from its caller's frame locals;
the planner makes its first ones inside list comprehensions, and CPython 3.13.0 crashed there (SIGSEGV: `gpuwise plan
examples/plan-team-4090.yaml`, found by the README check on 3.13 in session 40). complete() builds every record from
a plain frame first.
"""

import subprocess
import sys
from pathlib import Path

from gpuwise.plan import result


def _records() -> list[type]:
    out, todo = [], [result.Frozen]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        out.append(cls)
    return [c for c in out if c is not result.Frozen]


def test_complete_builds_every_plan_record():
    records = _records()
    assert {"Rental", "Option", "Tie", "PlanResult", "OwnedFleet"} <= {c.__name__ for c in records}
    result.complete()
    assert all(c.__pydantic_complete__ for c in records)


def test_a_fresh_process_plans_the_bundled_example():
    root = Path(__file__).parents[1]
    r = subprocess.run([sys.executable, "-m", "gpuwise", "plan", str(root / "examples/plan-team-4090.yaml"),
                        "--format", "json"], capture_output=True, text=True, cwd=root,
                       env={"GPUWISE_NO_CACHE": "1", "PATH": "/usr/bin:/bin"})
    assert r.returncode in (0, 1), r.stderr[-500:]  # 1: findings, never a crash (-11)
    assert '"total"' in r.stdout
