"""How a plan's search grows with its horizon: the bundled team plan (``examples/plan-team-4090.yaml``)
at 12, 24, 36, 48 and 60 months (the schema's most), each planned once in this process, with the CPU
seconds of the whole ``plan()`` call (sizing, the program, both baselines), the plan's cost, HiGHS's
objective (the cost plus the weights on budget overruns), its status and whether the search took two
steps (``gpuwise.plan.solve.LONG_HORIZON``). CPU seconds, not wall time: the host is shared.

    python benchmarks/plan_horizon.py                 # all five horizons
    python benchmarks/plan_horizon.py --months 36 60  # some
    python benchmarks/plan_horizon.py --plan FILE     # another plan file, its horizon replaced
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--plan", default=str(ROOT / "examples" / "plan-team-4090.yaml"))
    ap.add_argument("--months", type=int, nargs="+", default=[12, 24, 36, 48, 60])
    args = ap.parse_args(argv)

    from gpuwise.plan import plan
    from gpuwise.plan.solve import two_steps
    from gpuwise.yamlio import read_yaml

    data = read_yaml(Path(args.plan))
    plan(data | {"horizon_months": 12})  # imports, knowledge and rule books loaded once, not timed
    print(f"{'months':>6} {'CPU-s':>7} {'cost USD':>14} {'objective':>14}  steps  status")
    for months in args.months:
        began = time.process_time()
        r = plan(data | {"horizon_months": months})
        cpu = time.process_time() - began
        print(f"{months:>6} {cpu:>7.2f} {r.total_usd:>14,.0f} {r.solver.objective_usd:>14,.0f}  "
              f"{2 if two_steps(months) else 1:>5}  {r.solver.status}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
