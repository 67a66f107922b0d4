"""SGLang turns its overlap scheduler off for a hybrid (gated DeltaNet / Mamba-2) model whose recurrent state runs
the 'no_buffer' radix-cache strategy with the radix cache on (the 0.5.8 and 0.5.9 wheels from PyPI, server_args.py:
'auto' resolves to no_buffer up to 0.5.13, then 'Disabling overlap schedule since mamba no_buffer is not compatible
with overlap schedule'); from 0.5.14 the listed architectures get the extra buffer and keep the scheduler on. The
host's work for a step then runs between forwards: sgl-project/sglang pull request #38131 (LFM2 on one RTX 5090,
batch 1) reads 364.3 tok/s with the scheduler forced off by that rule and 498.5 with it on,
1000 / 364.3 - 1000 / 498.5 = 0.74 ms a step (knowledge/serving.yaml sglang hybrid_state_pool.unoverlapped_host_us)."""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.engine import unoverlapped_host


def _job(kb, accuracy, model: str, version: str | None, options: str = ""):
    return accuracy.serving_job(kb, model, "bf16", "sglang", 1000, 1000, tp=2, framework_version=version,
                                options=options)


def test_the_published_pair():
    off_ms, on_ms = 1000 / 364.3, 1000 / 498.5
    assert off_ms - on_ms == pytest.approx(0.739, abs=0.001)


@pytest.mark.parametrize(("model", "version", "options", "seconds"), [
    ("qwen3-next-80b-a3b", "0.5.8", "", 740e-6),    # no_buffer, radix cache on: the scheduler off
    ("qwen3-next-80b-a3b", "0.5.9", "", 740e-6),
    ("qwen3-next-80b-a3b", "0.5.13", "", 740e-6),
    ("qwen3-next-80b-a3b", "0.5.14", "", 0.0),      # extra_buffer for the listed architectures: the scheduler on
    ("qwen3-next-80b-a3b", None, "", 0.0),          # no release stated: the newest entry
    ("qwen3-next-80b-a3b", "0.5.8", "prefix_cache=false", 0.0),  # no radix cache: the scheduler stays on
    ("qwen3-next-80b-a3b", "0.5.3", "", 0.0),       # before the first state-pool entry (radix cache turned off)
    ("qwen3-30b-a3b", "0.5.8", "", 0.0),            # no recurrent state
    # the kinds' first releases, read in the wheels (branch assume52): gated DeltaNet (Qwen3NextForCausalLM) from
    # 0.5.5.post2's server_args.py; Mamba-2 (NemotronHForCausalLM, FalconH1ForCausalLM) from 0.5.7's, whose
    # model_runner.py no longer turns the radix cache off for a Mamba-2 model as 0.5.4-0.5.6 did
    ("qwen3-next-80b-a3b", "0.5.5.post1", "", 0.0),
    ("qwen3-next-80b-a3b", "0.5.5.post2", "", 740e-6),
    ("qwen3-next-80b-a3b", "0.5.4", "", 0.0),
    ("nvidia-nemotron-nano-9b-v2", "0.5.6", "", 0.0),
    ("nvidia-nemotron-nano-9b-v2", "0.5.7", "", 740e-6),
    ("falcon-h1-34b", "0.5.6", "", 0.0),
    ("falcon-h1-34b", "0.5.7", "", 740e-6),
])
def test_which_jobs_run_without_the_overlap(kb, accuracy, model, version, options, seconds):
    job = _job(kb, accuracy, model, version, options)
    assert unoverlapped_host(job, kb.framework("sglang")) == pytest.approx(seconds)


def test_the_step_grows_by_the_hosts_time(kb, accuracy):
    """Qwen3-Next-80B-A3B on 2 x B200: the same job at 0.5.8 (scheduler off) and 0.5.14 (on) differs in its fixed
    step overhead by 0.74 ms exactly; the rest of the engine's per-step host figure is the framework's 300 us."""
    gpu = kb.gpus["b200"]
    off = SV.choose(_job(kb, accuracy, "qwen3-next-80b-a3b", "0.5.8"), gpu, 1).engine
    on = SV.choose(_job(kb, accuracy, "qwen3-next-80b-a3b", "0.5.14"), gpu, 1).engine
    assert on.step_overhead == pytest.approx(300e-6)
    assert off.step_overhead - on.step_overhead == pytest.approx(740e-6)
