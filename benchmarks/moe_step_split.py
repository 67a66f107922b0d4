"""The MoE decode step of a validation row split at the run's batch: what the routed experts' weight reads take,
what the rest takes, and how many distinct experts a step must have read for the published TPOT.

gpuwise reads the experts a step's ``b`` decode tokens touch as uniform independent routing: a share
``1 - (1 - k/E)^b`` of a MoE layer's ``E`` experts (serving/step.py ``_parts``). For one row at one batch this prints
gpuwise's step (``step.seconds_of``), the seconds of reading every routed expert once (``w_experts / bw_experts``),
the rest of the step (the step less the uniform share of that read: dense weights, attention and KV / state reads,
the fixed cost), and the share the published TPOT leaves for the experts, ``(TPOT - rest) / all experts``: the
distinct experts the run read a step if every other term is right. A diagnostic, no estimate changes.

The batch: a serving_independent.csv row's concurrency; a serving_rate.csv row's requests in flight by Little's
law on its published means, completed (else offered) requests/s x (mean TTFT + (output - 1) x mean TPOT); or
``ID:batch``.
``python benchmarks/moe_step_split.py RT78 SH61:25 ...`` (validation README, branch moeexperts57)."""

from __future__ import annotations

import sys

from benchmarks.accuracy_rows import _rows
from benchmarks.accuracy_serving import RATE, rate_row_served, serving_job

INDEPENDENT = RATE.parent / "serving_independent.csv"


def run_batch(row: dict) -> float:
    """The decode batch a row's run held: its concurrency, or Little's law on a rate row's published means."""
    if "served_requests_per_s" in row:  # a serving_rate.csv row
        done = float(row["served_requests_per_s"] or row["request_rate"])
        return done * (float(row["ttft_ms"]) + (int(row["output_tokens"]) - 1) * float(row["tpot_ms"])) / 1e3
    return float(row["concurrency"])


def served(kb, row: dict):
    """(job, serving estimate) of a row as accuracy.py prices it."""
    if "served_requests_per_s" in row:
        return rate_row_served(kb, row)
    from gpuwise.estimators import serving as SV

    job = serving_job(kb, row["model"], row["precision"], row["framework"], int(row["prompt_tokens"]),
                      int(row["output_tokens"]), int(row["concurrency"]), int(row["tp"]), int(row["pp"]),
                      int(row["ep"]) if row.get("ep") else None, row.get("kv_precision") or None,
                      row.get("framework_version") or None, row.get("workload_options") or "")
    return job, SV.choose(job, kb.gpus[row["gpu"]], int(row["count"]))


def split(kb, row: dict, batch: float | None = None) -> dict:
    """The step of ``row``'s chosen copy at ``batch`` decode sequences (default :func:`run_batch`), each at the
    mean context (prompt + output / 2): seconds of the step, of reading every routed expert once, of the rest,
    the uniform share of experts read, and the share the published TPOT implies."""
    from gpuwise.estimators.serving.step import consts, seconds_of

    job, s = served(kb, row)
    c = consts(job, s.engine, s.replica)
    b = run_batch(row) if batch is None else batch
    ctx = int(row["prompt_tokens"]) + int(row["output_tokens"]) / 2
    total = seconds_of(c, b, 0.0, ctx, 0.0)
    every = c.w_experts / c.bw_experts if c.experts else 0.0
    uniform = 1.0 - c.base ** b if c.experts else 0.0
    rest = total - every * uniform
    tpot = float(row["tpot_ms"]) / 1e3
    return {"id": row["id"], "model": row["model"], "precision": row["precision"], "batch": b, "step": total,
            "experts_all": every, "rest": rest, "uniform": uniform, "experts": c.e_total,
            "implied": (tpot - rest) / every if every else float("nan"), "tpot": tpot}


def main(argv: list[str]) -> int:
    from gpuwise import knowledge

    kb = knowledge.load()
    rows = {r["id"]: r for path in (RATE, INDEPENDENT) for r in _rows(path.parent, path.name)}
    for arg in argv:
        rid, _, b = arg.partition(":")
        g = split(kb, rows[rid], float(b) if b else None)
        ms = {k: g[k] * 1e3 for k in ("step", "tpot", "rest", "experts_all")}
        print(f"{g['id']:5} {g['model'][:30]:30} {g['precision']:5} b {g['batch']:5.1f}  step {ms['step']:6.1f} ms "
              f"(published TPOT {ms['tpot']:6.1f})  rest {ms['rest']:5.1f}  every expert {ms['experts_all']:6.1f}"
              f"  read: uniform {g['uniform']:.2f} ({g['uniform'] * g['experts']:.0f} of {g['experts']:.0f}), "
              f"implied {g['implied']:.2f} ({g['implied'] * g['experts']:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
