"""Peak memory of a batch audit by its number of members: N copies of one proposal in a folder,
``gpuwise audit DIR`` run under ``/usr/bin/time``, its peak resident set size, wall and user seconds.

    python benchmarks/batch_memory.py [--sizes 100,500,2000] [--format text] [--proposal FILE]

A batch's memory should not grow with its members' full results (gpuwise/batch.py): the figures
per member (the slope between the two largest sizes) are printed last.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(n: int, fmt: str, proposal: Path, work: Path) -> tuple[int, float, float]:
    """Peak RSS (KB), wall and user seconds of ``gpuwise audit`` over ``n`` copies of ``proposal``."""
    folder = work / f"batch-{n}"
    if not folder.is_dir():
        folder.mkdir()
        for i in range(n):
            shutil.copyfile(proposal, folder / f"p{i:05d}.yaml")
    stats = work / "time.txt"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = ["/usr/bin/time", "-o", str(stats), "-f", "%M %e %U", sys.executable, "-m", "gpuwise", "audit",
           str(folder), "--format", fmt, "-o", str(work / f"out-{n}.{fmt}")]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if run.returncode not in (0, 1):
        sys.exit(f"gpuwise audit exited {run.returncode}: {run.stderr.strip()}")
    kb, wall, user = stats.read_text().split()[-3:]
    return int(kb), float(wall), float(user)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,500,2000")
    ap.add_argument("--format", default="text", choices=("text", "md", "html", "json"))
    ap.add_argument("--proposal", default=str(ROOT / "examples" / "proposal-good-lora-8xh100.yaml"))
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            kb, wall, user = measure(n, a.format, Path(a.proposal), Path(tmp))
            rows.append((n, kb))
            print(f"batch audit {n:>6} members ({a.format}): peak RSS {kb / 1024:8.1f} MB, "
                  f"{wall:6.1f} s wall, {user:6.1f} s user", flush=True)
    if len(rows) > 1:
        (n0, k0), (n1, k1) = rows[-2], rows[-1]
        print(f"growth {n0} -> {n1} members: {(k1 - k0) / (n1 - n0):.1f} KB per member")


if __name__ == "__main__":
    main()
