"""The validation rows of one blind round: a CSV under tests/data/validation read once, its ids by prefix and range.

Each round's row tests (tests/test_serving_rows_*.py) hold their own ids only; this is the one reader they share."""
from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data" / "validation"


def rows_in(name: str, prefix: str, lo: int, hi: int) -> dict[str, dict]:
    """The rows of ``DATA / name`` whose id is ``prefix`` and a number from ``lo`` to ``hi`` (both kept), by id."""
    with (DATA / name).open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)
                if r["id"][:len(prefix)] == prefix and r["id"][len(prefix):].isdigit()
                and lo <= int(r["id"][len(prefix):]) <= hi}


def log_key(source: str) -> str:
    """An MLPerf log by its round and its path: a fork's copy or another commit of the same round is the same log; the
    same results path a round later is another run (Google's DGX B200 in v5.1 and v6.0)."""
    return re.sub(r"^https://github.com/[^/]+/(inference_results_v[\d.]+)/blob/[0-9a-f]+/", r"\1/", source)


def assert_logs_read_once(rows: dict[str, dict], logs: dict) -> None:
    """An MLPerf round's rows each read their own log, and no row of another blind round (any validation CSV)
    reads it (:func:`log_key`)."""
    sources = [log_key(r["source"]) for r in rows.values()]
    assert len(set(sources)) == len(sources)
    others: set[str] = set()
    for name in ("serving_independent.csv", "serving_rate.csv", "decode_independent.csv"):
        with (DATA / name).open(newline="") as fh:
            others |= {log_key(r["source"]) for r in csv.DictReader(fh) if r["id"] not in logs}
    assert not set(sources) & others


def assert_rate_rows_within(rows: dict[str, dict], logs: dict, band: tuple[float, float]) -> None:
    """The harness (benchmarks/accuracy.py's rate cases) estimates every row of a round, none refused, each within
    the round's blind band of its published output tokens/s."""
    sys.path.insert(0, str(DATA.parents[2] / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = {c[0].split()[0]: c for c in accuracy.rate_cases(kb) if c[0].split()[0] in rows and "out tok" in c[0]}
    assert sorted(cases) == sorted(logs)  # none refused, none without a figure
    for row_id, (label, est, published) in cases.items():
        assert published == float(rows[row_id]["output_tokens_per_s"]), label
        assert band[0] <= est / published <= band[1], label


def serving_ratios(kb, tmp_path: Path, ids) -> dict[str, float]:
    """The harness (benchmarks/accuracy_serving.serving_cases) over the serving_independent.csv rows ``ids`` only,
    written to a CSV of their own under ``tmp_path``: each row's estimate over its published figure, by id."""
    sys.path.insert(0, str(DATA.parents[2]))
    import benchmarks.accuracy_serving as acc

    with (DATA / "serving_independent.csv").open(newline="") as fh:
        reader = csv.DictReader(fh)
        fields, rows = reader.fieldnames, [r for r in reader if r["id"] in ids]
    path = tmp_path / "rows.csv"
    with path.open("w", newline="") as fh:
        out = csv.DictWriter(fh, fieldnames=fields)
        out.writeheader()
        out.writerows(rows)
    return {label.split()[0]: est / meas for label, est, meas in acc.serving_cases(kb, path)}


V51 = "https://github.com/mlcommons/inference_results_v5.1/blob/965182b03376a00fcae415c54e560e1c83937932/closed/"
"""MLPerf Inference v5.1's results at the commit the v5.1 rounds read (serveblind32-34)."""


def assert_server_log_row(r: dict, folder: str, bench: str, model: str, gpu: str, count: int, prompt: int,
                          framework: str, rate: tuple[float, float, float], ttft: tuple, tpot: tuple,
                          batch: int) -> None:
    """A v5.1 Server row holds its log summary's figures: the log's path, the system's model, GPUs, prompt and
    engine, the scheduled and served requests a second and output tokens a second (``rate``), the mean / p50 / p95
    / p99 TTFT and TPOT, and the engine's batch cap with the arrivals handed to it in the same process (the
    harnesses of NVIDIA and AMD, as the ML rows read them)."""
    done, tps = rate[1:]
    assert r["source"] == f"{V51}{folder}/{bench}/Server/performance/run_1/mlperf_log_summary.txt"
    assert (r["model"], r["gpu"], int(r["count"]), int(r["prompt_tokens"]), r["framework"], r["kv_precision"]) == (
        model, gpu, count, prompt, framework, "fp8")
    assert (float(r["request_rate"]), float(r["served_requests_per_s"]), float(r["output_tokens_per_s"])) == rate
    assert int(r["output_tokens"]) == round(tps / done)
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p95_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p95_ms"]), float(r["tpot_p99_ms"])) == tpot
    assert r["workload_options"] == f"max_batch_size={batch};api_servers=0"


def assert_server_log(r: dict, sched: float, done: float, ttft: tuple, tpot: tuple, target: float, options: str,
                      caps: tuple[float, float]) -> None:
    """An MLPerf Inference Server row holds its log summary's mean / p50 / p95 / p99 TTFT and TPOT, its workload
    options and target_qps; a VALID Server run keeps its benchmark's p99 constraints (``caps``: TTFT, TPOT ms) and
    serves within 2% of the scheduled rate."""
    assert (float(r["ttft_ms"]), float(r["ttft_p50_ms"]), float(r["ttft_p95_ms"]), float(r["ttft_p99_ms"])) == ttft
    assert (float(r["tpot_ms"]), float(r["tpot_p50_ms"]), float(r["tpot_p95_ms"]), float(r["tpot_p99_ms"])) == tpot
    assert r["workload_options"] == options and f"target_qps {target}" in r["notes"]
    assert ttft[3] <= caps[0] and tpot[3] <= caps[1]
    assert 0.98 * sched <= done <= sched
