"""gpuwise.inputs.job.KEPT: the ``gpuwise`` process (one recommendation) keeps what its answer was
computed from until it ends instead of freeing it when the result is built (issue 26: freeing it
was 8.4 M instructions of a ~1,378 M process that ends with ``os._exit`` and frees nothing). Anything
else -- the Python API, a test calling ``main``, a batch -- frees it as before."""

import os

from gpuwise import cli
from gpuwise.decide.recommend import recommend
from gpuwise.inputs import job


def test_the_api_frees_the_job_caches(monkeypatch):
    """A recommendation through the API clears the job's caches when its result is built."""
    made: list[job.Job] = []
    real = job.Job.release

    def release(self: job.Job) -> None:
        made.append(self)
        real(self)

    monkeypatch.setattr(job.Job, "release", release)
    recommend("examples/lora-70b.yaml")
    assert job.KEPT is None
    assert len(made) == 1 and made[0].memo == {}


def test_the_process_keeps_them(monkeypatch):
    """The ``gpuwise`` process (``cli._STARTING``, set by :func:`cli.process_start`) keeps the job
    with its caches, the estimates and the consultation; the report is the one the API writes."""
    monkeypatch.setattr(job, "KEPT", None)
    cli.main(["recommend", "examples/lora-70b.yaml", "--format", "md", "-o", os.devnull])
    assert job.KEPT is None  # a program calling main in-process: freed as before
    monkeypatch.setattr(cli, "_STARTING", True)
    cli.main(["recommend", "examples/lora-70b.yaml", "--format", "md", "-o", os.devnull])
    kept = job.KEPT
    assert kept is not None and len(kept) == 2
    estimates, consultation = kept[0]
    assert len(estimates) > 10 and consultation.facts
    assert isinstance(kept[1], job.Job) and kept[1].memo  # its caches not cleared
