"""Offloaded fine-tunes against the same fine-tune without offload: the slowdown a sample, as published and as
gpuwise estimates it (tests/data/offload_slowdown.csv, rows OS..).

    python benchmarks/offload_slowdown.py [--all]

Each row holds one published pair: the same model, GPUs, ZeRO stage and sequence run with and without CPU offload
(each at its own micro-batch), and ``ratio`` the published time a sample with offload over the time without. Both
runs go through the estimate a user gets (benchmarks/accuracy.py run_estimate) with the layout pinned to plain
data parallelism (the sources ran ZeRO / FSDP alone) and the stack, release and host the source states; the
estimated slowdown is the offloaded run's step time a sample over the plain run's. ``--all`` prints the rows not
scored (use=0) too, beside the scored ones; their notes say why they are not in the median.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import accuracy as acc  # noqa: E402

SLOWDOWN = ROOT / "tests" / "data" / "offload_slowdown.csv"


def pair_workloads(row: dict) -> tuple[dict, dict]:
    """The row's plain and offloaded runs as workloads: a full fine-tune with AdamW on the row's shape, each run's
    ZeRO stage and micro-batch, the sequence, recomputation, stack and release, the global batch the row states
    (else one micro-batch a GPU)."""
    n, seq = int(row["gpus"]), int(row["seq_len"])
    heads = int(row["heads"])
    base = {"task": "finetune", "method": "full", "params_b": float(row["params_b"]),
            "architecture": {"layers": int(row["layers"]), "hidden_size": int(row["hidden"]), "heads": heads,
                             "kv_heads": heads, "ffn_size": int(row["ffn"]), "vocab_size": int(row["vocab"]),
                             "tied_embeddings": row["tied"] == "1"},
            "precision": row["precision"], "optimizer": "adamw", "seq_len": seq, "train_tokens": 1e8,
            "gradient_checkpointing": row["gradient_checkpointing"] == "1", "parallelism": {"tp": 1, "pp": 1}}
    if row["stack"]:
        base["stack"] = row["stack"]
    if row["stack_version"]:
        base["stack_version"] = row["stack_version"]
    if row["host_cores"]:
        base["host_cpu_cores"] = int(row["host_cores"])

    def run(micro: int, zero: str, offload: str) -> dict:
        samples = int(row["global_batch"]) if row["global_batch"] else micro * n
        return {**base, "batch_size": micro, "global_batch_tokens": float(samples * seq), "zero_stage": int(zero),
                "offload": offload}

    return (run(int(row["plain_micro_batch"]), row["plain_zero_stage"], "none"),
            run(int(row["micro_batch"]), row["zero_stage"], row["offload"]))


def estimate_pair(row: dict) -> dict:
    """gpuwise's two steps for the row, a sample each, and the slowdown."""
    out: dict = {}
    for name, w in zip(("plain", "offloaded"), pair_workloads(row), strict=True):
        d = acc.run_estimate(w, row["gpu"], int(row["gpus"])).model_dump(mode="json")["gpu"]
        terms = {t["name"]: t for t in d["terms"]}
        step = terms["step_seconds"]["value"]
        out[name] = {"step_s": step, "per_sample_s": step / (w["global_batch_tokens"] / w["seq_len"]),
                     "offload_s": terms["offload_seconds"]["value"] if "offload_seconds" in terms else 0.0,
                     "layout": d["training"]["layout_notation"] if d.get("training") else ""}
    out["ratio"] = out["offloaded"]["per_sample_s"] / out["plain"]["per_sample_s"]
    return out


def published_steps(row: dict) -> tuple[float, float] | None:
    """The row's published plain and offloaded step, seconds, where its metric gives a step: ``step_s`` as
    published, ``samples_per_s`` the step's samples (global_batch) over the throughput, ``ms_per_sample`` the
    figure x the step's samples; None for a whole run (``epoch_min``). Each run's step holds the same samples, so
    their difference is the time the offload adds to a step."""
    plain, off, metric = float(row["plain"]), float(row["offloaded"]), row["metric"]
    samples = float(row["global_batch"]) if row["global_batch"] else 0.0
    if metric == "step_s":
        return plain, off
    if metric == "samples_per_s" and samples:
        return samples / plain, samples / off
    if metric == "ms_per_sample" and samples:
        return plain * samples / 1e3, off * samples / 1e3
    return None


def slowdown_cases(path: Path = SLOWDOWN, *, scored: bool = True) -> list[tuple[str, float, float]]:
    """(label, gpuwise's slowdown, the published slowdown) for each row (``scored``: only use=1)."""
    out = []
    for row in acc._scored_rows(path, scored):
        e = estimate_pair(row)
        host = f"host {row['host_cores']} cores" if row["host_cores"] else "host not stated"
        stack = f"{row['stack']} {row['stack_version']}".strip() or "stack not named"
        zero = f"ZeRO-{row['plain_zero_stage']}->{row['zero_stage']}"
        out.append((f"{row['id']} {row['params_b']}B {row['gpus']}x{row['gpu']} {zero} "
                    f"b{row['plain_micro_batch']}->{row['micro_batch']} {stack}, {host}", e["ratio"],
                    float(row["ratio"])))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="also the rows not scored (use=0)")
    args = ap.parse_args()
    for row in acc._scored_rows(SLOWDOWN, not args.all):
        e = estimate_pair(row)
        p, o = e["plain"], e["offloaded"]
        print(f"{row['id']} use={row['use']} published {float(row['ratio']):.2f}x  gpuwise {e['ratio']:.2f}x  "
              f"plain {p['step_s']:.2f} s ({p['layout']})  offloaded {o['step_s']:.2f} s, offload part "
              f"{o['offload_s']:.2f} s ({o['layout']})")
        steps = published_steps(row)
        if steps is not None:  # the steps themselves, where the source gives them: which run the ratio misses on
            print(f"    published steps: plain {steps[0]:.3f} s, offloaded {steps[1]:.3f} s, offload adds "
                  f"{steps[1] - steps[0]:.3f} s; gpuwise adds {o['step_s'] - p['step_s']:.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
