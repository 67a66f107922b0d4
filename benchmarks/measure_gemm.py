"""Measure dense BF16 and FP8 matrix-multiply throughput on one GPU (the ratio backs
runtime.yaml training.fp8_gemm_speedup).

    python benchmarks/measure_gemm.py --out gemm.jsonl

For square products of n = 2048 ... 16384 on random data: BF16 ``torch.matmul`` and FP8 (E4M3)
``torch._scaled_mm`` with per-tensor scales and BF16 output, as Transformer Engine's delayed/current
scaling runs them. Each figure is the median of timed products (CUDA events) after warm-ups. One
JSON line per (dtype, n). Not part of the package: needs torch with CUDA.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

import torch


def timed(fn, iters: int = 20, warmup: int = 5) -> float:
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end) / 1e3)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--sizes", type=int, nargs="+", default=[2048, 4096, 8192, 16384])
    args = ap.parse_args()
    dev = torch.cuda.get_device_name(0)
    out = open(args.out, "w") if args.out else None  # noqa: SIM115
    for n in args.sizes:
        a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
        rows = [("bf16", timed(lambda a=a, b=b: torch.matmul(a, b)))]
        a8 = a.to(torch.float8_e4m3fn)
        b8 = b.t().contiguous().t().to(torch.float8_e4m3fn)  # column-major second operand
        one = torch.tensor(1.0, device="cuda")
        try:
            rows.append(("fp8", timed(lambda a8=a8, b8=b8, one=one: torch._scaled_mm(
                a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))))
        except Exception as exc:  # an FP8 path this torch build lacks is reported, not fatal
            print(json.dumps({"dtype": "fp8", "n": n, "error": str(exc)[:200]}))
        for dtype, s in rows:
            rec = {"device": dev, "torch": torch.__version__, "dtype": dtype, "n": n, "seconds": s,
                   "tflops": 2 * n ** 3 / s / 1e12}
            line = json.dumps(rec)
            print(line)
            if out:
                out.write(line + "\n")
        del a, b, a8, b8
        torch.cuda.empty_cache()
    if out:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
