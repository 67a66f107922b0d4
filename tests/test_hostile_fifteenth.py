"""Hostile round 15 (issue 26 item 5): what round 15 of benchmarks/hostile_corpus.py found, each fix
with a test that fails without it -- an output codec that takes no error handler, a request whose
prompt and output lengths pass the context bound, a plan service whose growth passes its load's
bound, a plan service too large for any fleet, Ctrl-C during the plan's search, ``-o`` onto a FIFO
no process reads, and an overlay's terminal escapes in the prices listing."""

from __future__ import annotations

import copy
import io
import sys
from pathlib import Path

import pytest
import yaml

from tests.clirun import gpuwise, process
from tests.test_hostile_eleventh import PLAN
from tests.test_hostile_more import one_line
from tests.test_hostile_twelfth import write

SERVE = "workload:\n  task: inference\n  model: llama-3.1-8b\n"


# ----------------------------------------------------------------------------- output encodings
@pytest.mark.parametrize("encoding", ["idna", "undefined"])
def test_a_stream_whose_codec_takes_no_error_handler_writes_ascii(monkeypatch: pytest.MonkeyPatch,
                                                                  encoding: str) -> None:
    """``PYTHONIOENCODING=idna`` raised 'unsupported error handling gpuwise-ascii' on the first
    line written (idna takes only 'strict'), ``undefined`` raises on any text: Python then lost
    its standard error too and the process died with exit status 1."""
    from gpuwise.streams import safe_streams

    streams = [io.TextIOWrapper(io.BytesIO(), encoding=encoding) for _ in range(2)]
    monkeypatch.setattr(sys, "stdout", streams[0])
    monkeypatch.setattr(sys, "stderr", streams[1])
    safe_streams()
    for s in streams:
        s.write("gpuwise: 8 \u00d7 H100, \u6a21\u578b\n")
        s.flush()
    assert streams[0].buffer.getvalue() == b"gpuwise: 8 x H100, ??\n"  # type: ignore[attr-defined]
    assert streams[1].encoding == "ascii"


def test_a_run_with_the_undefined_codec_keeps_its_exit_status() -> None:
    r = process("recommend", "nosuch.yaml", env={"PYTHONIOENCODING": "undefined"}, timeout=60)
    one_line(r, "nosuch.yaml", "no such file")


# ----------------------------------------------------------------------------- request lengths
@pytest.mark.parametrize("lengths, context", [
    ("  prompt_tokens: 10000000\n  output_tokens: 10000000\n", "20,000,000"),  # was answered: a B300 for 20M tokens
    ("  prompt_tokens: 6000000\n", "12,000,000"),  # one length alone is mirrored
])
def test_prompt_and_output_lengths_keep_to_the_context_bound(tmp_path: Path, lengths: str, context: str) -> None:
    """context_len is at most 10,000,000 tokens (workload.py); the lengths that make it up were
    added after that check, so their sum passed it unchecked."""
    write(tmp_path, {"r.yaml": SERVE + lengths})
    one_line(gpuwise("recommend", "r.yaml", cwd=tmp_path), "r.yaml", "prompt_tokens + output_tokens",
             context, "10,000,000")


def test_lengths_at_the_bound_are_read() -> None:
    from gpuwise.inputs.workload import Workload

    w = Workload.model_validate({"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 5_000_000,
                                 "output_tokens": 5_000_000})
    assert w.context_len == 10_000_000


# ----------------------------------------------------------------------------- plans: growth and fleet size
def _plan(horizon: int, growth: float, **targets: float) -> dict:
    d = yaml.safe_load(PLAN)
    d["horizon_months"] = horizon
    d["workloads"] = copy.deepcopy(d["workloads"][:2])
    d["workloads"][1]["cadence"]["growth_per_month"] = growth
    d["workloads"][1]["targets"] = targets or d["workloads"][1]["targets"]
    return d


@pytest.mark.parametrize("horizon, growth, peak", [
    (60, 0.9, "5.59e+16"),  # 2 requests/s x 1.9^59 (10, 2 x 11^59, made the solver say '(Empty)'; 10 is now
    (60, 1, "1.15e+18"),  # 2 x 2^59                  refused by the field's bound of 1, hostile round 48)
])
def test_a_service_growing_past_its_bound_is_refused(tmp_path: Path, horizon: int, growth: float, peak: str) -> None:
    write(tmp_path, {"plan.yaml": yaml.safe_dump(_plan(horizon, growth))})
    one_line(gpuwise("plan", "plan.yaml", cwd=tmp_path), "plan.yaml", "workload 'chat-70b'", "growth_per_month",
             "targets.requests_per_s", peak, "month 60", "1e+07")


def test_growth_within_the_bound_is_read() -> None:
    """100 % a month (growth_per_month's bound of 1 since hostileleft60; 1,000 % before) for three months takes
    2 requests/s to 8: a plan, not an error; the load's bound is its field's own (1e7 requests/s), reached exactly."""
    from gpuwise.plan.schema import PlanFile

    PlanFile.model_validate(_plan(3, 1))
    PlanFile.model_validate(_plan(2, 1, requests_per_s=5e6))  # 5e6 x 2 = 1e7: at the bound
    with pytest.raises(ValueError, match=r"targets\.concurrency from 6e\+06 to 1\.2e\+07"):
        PlanFile.model_validate(_plan(2, 1, concurrency=6_000_000))


def test_a_service_needing_more_gpus_than_any_fleet_is_no_option() -> None:
    """Ten million requests/s of a 70B model made the solver search for a million copies (over 90 s,
    and Ctrl-C cannot reach it); a type whose copies at the peak month need more than MAX_GPUS is no
    option, and the plan says why."""
    from gpuwise.inputs.strict import MAX_GPUS
    from gpuwise.plan.sizing import Option, Sized, _within_fleet_bound

    s = Sized("svc", None, None, True, 3, demand=[1000.0, 4000.0, 2000.0])  # type: ignore[arg-type]
    s.options = {"big": Option("big", 8, capacity=4000.0 * 8 / (MAX_GPUS + 8)),  # 12,501 copies x 8 GPUs at month 2
                 "edge": Option("edge", 4, capacity=4000.0 * 4 / MAX_GPUS)}  # 25,000 copies x 4 = MAX_GPUS exactly
    _within_fleet_bound(s)
    assert set(s.options) == {"edge"}
    assert s.why_not["big"].text == f"big: its copies would need 100,008 GPUs in month 2, more than {MAX_GPUS:,}"


def test_ctrl_c_reaches_a_plan_while_the_solver_searches() -> None:
    """HiGHS's search ran on the main thread and Python saw Ctrl-C only when it ended (up to the
    300 s time limit); the search now runs on a worker thread and the interrupt is raised at once.
    The stand-in search is a C call that never looks at Python's signal flag (libc ``sleep``, which
    ``interrupt_main`` does not wake, as HiGHS does not)."""
    import _thread
    import ctypes
    import signal
    import threading
    import time

    from gpuwise.plan.milp import _interruptible

    # A shell starts a background job with SIGINT ignored, and Python keeps it so; interrupt_main then
    # does nothing. A terminal's Ctrl-C meets Python's own handler: install it for this test.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Timer(0.2, _thread.interrupt_main).start()
        start = time.monotonic()
        with pytest.raises(KeyboardInterrupt):
            _interruptible(lambda: ctypes.CDLL(None).sleep(4))
        assert time.monotonic() - start < 2.0
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_output_fifo_no_process_reads_is_refused_not_waited_on(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``-o`` onto a FIFO opened it as a shell redirection does, waiting for a reader for ever: a run
    whose reader never came hung (the corpus's runner gave up after 120 s). A FIFO with a reader
    still gets the report (tests/test_odd_paths.py)."""
    import errno
    import os
    import time

    from gpuwise.render import output

    monkeypatch.setattr(output, "FIFO_READER_WAIT_S", 0.2)
    fifo = tmp_path / "o.md"
    os.mkfifo(fifo)
    start = time.monotonic()
    with pytest.raises(OSError) as caught:
        output.atomic_write_text(fifo, "# report\n")
    assert caught.value.errno == errno.ENXIO and "no process reads" in str(caught.value)
    assert time.monotonic() - start < 2.0


def test_an_overlay_price_source_with_terminal_escapes_is_shown_escaped(tmp_path: Path) -> None:
    """``gpuwise prices`` wrote an overlay's source as it was: an OSC 8 hyperlink (ESC ] 8 ;; URL
    ESC \\) reached the terminal and was acted on."""
    write(tmp_path, {"k/clouds.yaml": "instances:\n- id: mycloud:h100x8\n  provider: mycloud\n  gpu: h100-80gb-sxm\n"
                     "  gpus: 8\n  usd_per_hour: 20.0\n  as_of: 2026-12-01\n"
                     '  source: "a page\\e]8;;http://x/\\e\\\\"\n  check: S\n'})
    r = gpuwise("prices", "--knowledge", "k", "--provider", "mycloud", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout and "[1] a page\\u001b]8;;http://x/\\u001b\\" in r.stdout
