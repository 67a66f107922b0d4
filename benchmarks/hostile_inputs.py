"""How fast hostile input files are refused: deep nesting, alias bombs, an enormous file, big files
under the size limit. The tests (tests/test_hostile_inputs.py) check that each is refused with one
line; how long it takes depends on the machine, so it is measured here, not asserted there.

Run from a checkout::

    python benchmarks/hostile_inputs.py            # one line per case: seconds, target, verdict
    python benchmarks/hostile_inputs.py --json

Targets: 5 s for nesting, alias bombs and the 20 MB file (refused unread); 10 s for a file just
under the 8 MB limit; 30 s for 9,000 house rules and 5 s for a 20,000-term policy expression
(issue 26: both refused in one line); 2 s for a used card's nvidia-smi report of 20,000 clock
limiters (it took 14 s). A missed target is reported, not turned into a failure (exit status 0
unless a case was not refused with exit status 2).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gpuwise.cli import main  # noqa: E402
from tests.test_hostile_inputs import alias_bomb  # noqa: E402

HEAD = "workload: {task: finetune, model: llama-2-7b}\n"


def _cases() -> dict[str, tuple[float, Callable[[], str]]]:
    """name -> (target seconds, body maker)."""
    return {
        "nesting: 6000 flow sequences": (5, lambda: "[" * 6000 + "]" * 6000),
        "nesting: 6000 flow mappings": (5, lambda: "{a: " * 6000 + "1" + "}" * 6000),
        "nesting: 2000 block mappings": (5, lambda: "".join(" " * i + "a:\n" for i in range(2000)) + " " * 2000 + "1"),
        "alias bomb: 12 levels x 20": (5, lambda: alias_bomb(12, 20, "workload").decode()),
        "alias bomb: 10 levels x 10 under a name": (5, lambda: alias_bomb(10, 10, "model").decode()),
        "alias bomb: 5000 used cards": (5, lambda: (
            "workload: {task: inference, model: llama-2-7b}\nhardware: {gpu: rtx-4090, count: 1}\n"
            "acquisition: {mode: buy, condition: used}\nused_cards: [{fan_speed_percent: &s ["
            + ", ".join(["50"] * 2000) + "]}, " + ", ".join(["{fan_speed_percent: *s}"] * 5000) + "]\n")),
        "20 MB file (refused unread)": (5, lambda: HEAD + "comment: '" + "x" * (20 * 1024 * 1024) + "'\n"),
        "2,000,000-item list": (10, lambda: HEAD + "constraints: {gpus: [" + ", ".join(["a"] * 2_000_000) + "]}\n"),
        "150,000 used cards": (10, lambda: HEAD.replace("finetune", "inference")
                               + "hardware: {gpu: rtx-4090, count: 1}\nacquisition: {mode: buy}\nused_cards:\n"
                               + "  - {serial: x, fan_speed_percent: [1, 2]}\n" * 150_000),
        "7 MB string": (10, lambda: "workload: {task: finetune, model: '" + "m" * 7_000_000 + "'}\n"),
        "600,000 comment lines": (10, lambda: HEAD + "# comment\n" * 600_000 + "seq_len: lots\n"),
    }


HOUSE_RULE = ("  - id: HOUSE-X{i}\n    title: A house rule\n    fact: candidate\n    when:\n"
              "      - [need_gb, \">\", {i}]\n    then:\n      action: reject\n      topic: compatibility\n"
              "      message: \"{{gpu_name}} x\"\n    rationale: \"Because the team says so.\"\n"
              "    source: \"ENG-1\"\n")


def _house(directory: Path, rules: int, per_file: int = 500) -> list[str]:
    """Issue 26: thousands of house rules (durable-rules needed minutes for 800) are refused."""
    d = directory / "house"
    d.mkdir(exist_ok=True)
    for k in range(0, rules, per_file):
        body = "".join(HOUSE_RULE.format(i=i) for i in range(k, min(rules, k + per_file)))
        (d / f"h{k:05d}.yaml").write_text(f"schema_version: 1\nruleset: house\nstep: memory\nrules:\n{body}")
    return ["--rules", str(d)]


def _expression(directory: Path) -> list[str]:
    """Issue 26: a 20,000-term policy expression (it exhausted the parser's stack)."""
    d = directory / "expr"
    d.mkdir(exist_ok=True)
    terms = " + ".join(["memory_headroom_fraction"] * 20_000)
    rule = HOUSE_RULE.format(i=1).replace("[need_gb, \">\", 1]",
                                          f"[need_gb, \">\", {{ref: capacity_gb, times: \"{terms}\"}}]")
    (d / "h.yaml").write_text("schema_version: 1\nruleset: house\nstep: memory\nrules:\n" + rule)
    return ["--rules", str(d)]


EXTRA: dict[str, tuple[float, Callable[[Path], list[str]]]] = {
    "9,000 house rules in 18 files": (30, lambda d: _house(d, 9000)),
    "a 20,000-term policy expression": (5, _expression),
}
"""Cases that are an option's directory, not the input file: name -> (target seconds, setup -> extra args)."""


def _limiters(directory: Path) -> str:
    """Issue 26 round 5: a used card's nvidia-smi report with 20,000 clock-limiter entries (under
    the 4 MB cap) took 14 s, each entry looked up by name again; refused at once now."""
    entries = "".join(f"<clocks_event_reason_x{i}>Active</clocks_event_reason_x{i}>" for i in range(20_000))
    (directory / "r.xml").write_text(f'<?xml version="1.0" ?>\n<nvidia_smi_log><gpu id="00000000:01:00.0">'
                                     f"<clocks_event_reasons>{entries}</clocks_event_reasons></gpu></nvidia_smi_log>")
    return ("workload: {task: inference, model: llama-3.1-8b}\nhardware: {gpu: rtx-3090, count: 1}\n"
            "acquisition: {mode: buy, condition: used, unit_price_usd: 700}\nused_cards: [{nvidia_smi: r.xml}]\n")


SMI: dict[str, tuple[float, Callable[[Path], str]]] = {
    "nvidia-smi: 20,000 clock limiters": (2, _limiters),
}
"""Cases that are a used card's nvidia-smi report: name -> (target seconds, setup -> proposal body)."""


def run_case(body: str, directory: Path, extra: list[str] | None = None) -> tuple[int, float]:
    path = directory / "input.yaml"
    path.write_text(body)
    command = "audit" if "used_cards" in body else "recommend"
    sink = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        code = main([command, str(path), *(extra or [])])
    return code, time.perf_counter() - start


def main_(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true", help="one JSON document instead of a table")
    args = ap.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (target, make) in _cases().items():
            code, seconds = run_case(make(), Path(tmp))
            rows.append({"case": name, "exit": code, "seconds": round(seconds, 3), "target_s": target,
                         "met": seconds <= target})
        for name, (target, write) in SMI.items():
            code, seconds = run_case(write(Path(tmp)), Path(tmp))
            rows.append({"case": name, "exit": code, "seconds": round(seconds, 3), "target_s": target,
                         "met": seconds <= target})
        for name, (target, setup) in EXTRA.items():
            code, seconds = run_case("workload: {task: finetune, method: lora, model: llama-3.1-8b}\n", Path(tmp),
                                     setup(Path(tmp)))
            rows.append({"case": name, "exit": code, "seconds": round(seconds, 3), "target_s": target,
                         "met": seconds <= target})
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        for r in rows:
            verdict = "ok" if r["met"] else "MISSED"
            print(f"{r['case']:<42} exit {r['exit']}  {r['seconds']:7.2f} s  (target {r['target_s']} s) {verdict}")
    return 0 if all(r["exit"] == 2 for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main_())
