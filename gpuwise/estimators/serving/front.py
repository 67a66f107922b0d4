"""The serving front end: the host process that takes each request over HTTP, tokenises its prompt and
streams its output back (vLLM's API server, SGLang's TokenizerManager, trtllm-serve).

It works one request at a time, so a copy served through ``n`` such processes takes at most

    n / (request_ms + prompt tokens / tokenize_tokens_per_s + output tokens x stream_token_us)    requests per second

whatever its GPUs could do (``knowledge/serving.yaml`` ``front_end``, per framework, sourced; the last term is
the host work of streaming each output token back, which grows with the output where the rest does not). The
throughput at a load is the lesser of that and the GPUs' pace: in a closed loop of ``c`` requests, when
the GPUs would finish requests faster than the front end hands them over, only the ``b`` requests that
keep the GPUs at the front end's rate are on them, and the other ``c - b`` wait in the front end's
queue (Little's law: ``(c - b) / rate`` of waiting, added to the time to first token). Offline batch
inference (``workload.api_servers: 0``) and frameworks without a Python front end (llama.cpp's C++
server) have no such bound.
"""

from __future__ import annotations

from typing import Any

from ...frozen import frozen
from .engine import Engine
from .support import request_lengths


@frozen
class Front:
    """One copy's front end for the job's requests."""

    processes: int  # front-end processes serving the copy (workload.api_servers)
    request_s: float  # host seconds per request in one process, beyond tokenising its prompt
    tokenize_s: float  # host seconds to tokenise one prompt
    setting: str  # the server option that runs more processes
    stream_s: float = 0.0  # host seconds to stream one request's output tokens back

    @property
    def seconds(self) -> float:
        """Host seconds per request of the copy's front end, its processes together."""
        return (self.request_s + self.tokenize_s + self.stream_s) / self.processes

    @property
    def requests_per_s(self) -> float:
        """The most requests per second the copy's front end hands to its engine."""
        return 1.0 / self.seconds


def front(job: Any, eng: Engine) -> Front | None:
    """The copy's front end for ``job`` under ``eng``'s framework; None where nothing bounds it (no front
    end modelled for the framework, or offline inference without one)."""
    fe = eng.fw.front_end
    processes = int(getattr(job.w, "api_servers", 1))
    if fe is None or processes <= 0:
        return None
    prompt, output = request_lengths(job.w)
    return Front(processes, fe.request_ms * 1e-3, prompt / fe.tokenize_tokens_per_s, fe.setting,
                 output * fe.stream_token_us * 1e-6)


def burst_seconds(job: Any, eng: Engine, n: int) -> float:
    """Seconds until the last of ``n`` requests that reach one copy at once has passed its front end
    (0 where there is none): the earliest its prompt can start on the GPUs."""
    f = front(job, eng)
    return n * f.seconds if f is not None else 0.0
