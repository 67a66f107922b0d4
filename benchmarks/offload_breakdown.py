"""The host part of each offloaded fine-tune in tests/data/offload_published.csv, term by term.

    python benchmarks/offload_breakdown.py [--all]

For every scored row (``--all``: every row with a figure and a GPU in the catalog) it prints what gpuwise
charges the offloaded optimizer (knowledge/runtime.yaml host_memory_gb_s, cpu_adam_params_per_s_per_core,
host_cores_per_gpu; gpuwise/estimators/step_time.py offload_parts) beside the published figure and the
conditions its source states:

* host Adam: the parameters a GPU owns over the slower of its cores' rate and its share of the server's
  CPU Adam rate, and which of the two binds;
* the PCIe part: gradient copies left after the backward hides them, the 16-bit weights' return, ZeRO-3's
  weight fetches;
* the rate the published figure implies, a rank and a server (the published time less gpuwise's PCIe part
  where the figure holds it), against gpuwise's.

Nothing here changes an estimate: it reads the same ``run_estimate`` path as benchmarks/accuracy.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import accuracy as acc  # noqa: E402
from gpuwise.estimators.interconnect import host_link_gb_s  # noqa: E402

KB = acc.knowledge.load()
HOST_GB_S = KB.runtime.host_memory_gb_s.value  # a server's CPU Adam traffic, its ranks' share


def pcie_split(gpu: str, params: float, micro: int, zero: int, backward_s: float,
               per_node: int = 8) -> tuple[float, float, float]:
    """The PCIe part by direction, as step_time.offload_parts charges a job that names no DeepSpeed release: 16-bit
    gradients to the host a micro-batch less what the backward hides, the 16-bit weights back once, and (ZeRO-3) the
    weight shard fetched for the forward, the recomputed forward and the backward a micro-batch, at the GPU's PCIe
    line rate (runtime.yaml pcie_gb_s; the rows' workloads recompute) over the GPUs of the server that share its x16
    uplink (gpus.yaml link.host_uplink_gpus; interconnect.host_link_gb_s)."""
    g = next(x for x in (KB.gpus.values() if isinstance(KB.gpus, dict) else KB.gpus) if x.id == gpu)
    bw = host_link_gb_s(g, per_node, KB.runtime) * 1e9
    to_host = max(0.0, params * 2 * micro / bw - backward_s)
    fetches = params * 2 * 3 * micro / bw if zero >= 3 else 0.0
    return to_host, params * 2 / bw, fetches

# The conditions each row's source states (the row's `source` and `notes` in offload_published.csv), and what the
# stack's code did at that release (deepspeedai/DeepSpeed tags; dates are the release tags'):
# stack / release: the software and the newest release at the source's date where the source names none;
# adam: the host optimizer and the SIMD path its source names; pin: whether the host buffers were pinned (DeepSpeed
# offload_optimizer pin_memory defaulted to false until v0.19.5); overlap: whether the host step ran beside the GPU.
CONDITIONS = {
    "OF01": ("DeepSpeed, release not stated (v0.5.8 newest on 2021-12-13), PyTorch 1.7.1",
             "DeepSpeedCPUAdam, AVX-512 (one FMA unit a core); v0.5.5-v0.5.8 opened an OpenMP region in every SIMD "
             "helper (csrc/includes/simd.h, removed by pull request #1637, in v0.5.9)", "default (pageable)",
             "none: after the backward",
             "the reporter's own timer around the optimizer's step (unscale 506 ms timed apart)"),
    "OF02": ("DeepSpeed, release not stated (v0.15.3 newest on 2024-10-31)", "DeepSpeedCPUAdam, ISA not stated",
             "default (pageable)", "none", "the reporter's ADAM TIME a step (fp32 training)"),
    "OF03": ("as OF02", "as OF02", "as OF02", "none", "as OF02"),
    "OF04": ("DeepSpeed ZeRO-Offload, release not stated (v0.17.x on 2025-08)", "DeepSpeedCPUAdam, ISA not stated",
             "not stated", "none: the blog's point is the GPU waiting",
             "the CPU path (Adam + weights' return), a lower bound"),
    "OF07": ("DeepSpeed 0.14.5, torch 2.5", "DeepSpeedCPUAdam, ISA not stated", "not stated (default pageable)",
             "none", "DeepSpeed's optimizer 'step' timer, ~10 s"),
    "OF08": ("Megatron-Core HybridDeviceOptimizer", "torch.optim.AdamW on the host (a rate a rank)", "Megatron's own",
             "transfers overlapped (overlap_cpu_optimizer_d2h_h2d)", "step time added by the full offload"),
    "OF10": ("Megatron-Core HybridDeviceOptimizer, distributed optimizer", "torch.optim.AdamW on the host",
             "Megatron's own", "none (the 100% row without the overlap option)", "step time added by the full offload"),
    "OF11": ("DeepSpeed, release not stated (v0.17.6-0.18.0 on 2025-10)", "DeepSpeedCPUAdam, ISA not stated",
             "pinned", "none; ranks bound to 64 cores each (--bind_cores_to_rank)", "step time added by ZeRO-Offload"),
}


def breakdown(row: dict) -> dict:
    """gpuwise's offload term for one row, by part, and the rates the published figure implies."""
    n = int(row["gpus"])
    d = acc.run_estimate(acc.offload_workload(row), row["gpu"], n).model_dump(mode="json")["gpu"]
    term = {t["name"]: t for t in d["terms"]}
    off = term["offload_seconds"]
    i = off["inputs"]
    p = i["params_per_gpu"]
    per_node = round(HOST_GB_S / i["host_gb_s_per_gpu"])  # the ranks that divide one server's host
    cores_rate = i["host_cores_per_gpu"] * i["cpu_adam_params_per_s_per_core"]
    host_rate = i["host_gb_s_per_gpu"] * 1e9 / 28
    est = {"host_adam_s": i["host_adam_s"], "offload_s": off["value"], "step_s": term["step_seconds"]["value"]}
    published = float(row["value"])
    host_part = published - (i["pcie_s"] if row["metric"] == "offload_s" else 0.0)
    implied = p / host_part if host_part > 0 else float("nan")
    to_host, back, fetches = pcie_split(row["gpu"], p, i["micro_batches"], i["zero"], i["backward_s"], per_node)
    return {"id": row["id"], "metric": row["metric"], "to_host_s": to_host, "back_s": back, "fetch_s": fetches,
            "published": published, "est": est[row["metric"]],
            "adam_s": i["host_adam_s"], "pcie_s": i["pcie_s"], "backward_s": i["backward_s"],
            "params": p, "ranks": per_node, "cores": i["host_cores_per_gpu"], "stated": i["host_cores_stated"],
            "rate": i["host_adam_params_per_s"], "binds": "cores" if cores_rate <= host_rate else "host share",
            "implied": implied, "implied_host": implied * per_node, "host_cpu": row["host_cpu"] or "not stated"}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every row with a figure and a catalog GPU, not only use=1")
    args = ap.parse_args(argv)
    rows = [r for r in acc._scored_rows(acc.OFFLOAD, not args.all) if r["value"] and r["gpu"] and r["layers"]]
    print(f"{'row':5} {'metric':11} {'published':>9} {'gpuwise':>8} {'err':>8} | {'Adam s':>7} {'PCIe s':>7} "
          f"{'bwd s':>6} {'->host':>6} {'->GPU':>6} {'fetch':>6} | {'params/GPU':>10} {'ranks':>5} {'cores':>5} "
          f"{'rate/rank':>9} {'binds':>10} | "
          f"{'implied/rank':>12} {'implied/host':>12} {'x gpuwise':>9}")
    for row in rows:
        b = breakdown(row)
        err = (b["est"] - b["published"]) / b["published"] * 100
        cores = f"{b['cores']:g}{'' if b['stated'] else '*'}"
        print(f"{b['id']:5} {b['metric']:11} {b['published']:9.3f} {b['est']:8.3f} {err:+7.1f}% | {b['adam_s']:7.3f} "
              f"{b['pcie_s']:7.3f} {b['backward_s']:6.3f} {b['to_host_s']:6.3f} {b['back_s']:6.3f} "
              f"{b['fetch_s']:6.3f} | "
              f"{b['params']:10.3e} {b['ranks']:5d} {cores:>5} "
              f"{b['rate']:9.2e} {b['binds']:>10} | {b['implied']:12.2e} {b['implied_host']:12.2e} "
              f"{b['implied'] / b['rate']:9.2f}")
        stack, adam, pin, overlap, what = CONDITIONS.get(b["id"], ("",) * 5)
        print(f"      host: {b['host_cpu']}; stack: {stack}; optimizer: {adam}; host buffers: {pin}; "
              f"overlap: {overlap}; figure: {what}")
    print("->host: gradient copies the backward does not hide; ->GPU: the 16-bit weights' return; fetch: ZeRO-3's "
          "weight fetches (no row names a DeepSpeed release, so none is pageable: runtime.yaml zero3_offload_copies)")
    print("cores: the host's cores a GPU (* not stated: runtime.yaml host_cores_per_gpu); rate: gpuwise's parameters a "
          "second a rank; implied: the published figure's (less gpuwise's PCIe part for offload_s rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
