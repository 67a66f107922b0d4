"""llama.cpp's layer split at batch 1 (branch llamasplit66, issue 22; validation README, 'llamasplit66'): a stage
boundary of the HIP build on PCIe-linked AMD cards costs a decode step what ggml-org/llama.cpp pull request #19922's
own scaling table reads (gpt-oss-120b on 2, 4 and 6 Radeon MI50s), serving.yaml llama.cpp ``layer_split_hop``;
the CUDA build and Infinity Fabric keep the framework's 25 us hop. And the decode harness pins the copy a row's
metric says its run split ('layer split over N GPUs'), as llama-bench ran it, where it had served one-card copies."""

from __future__ import annotations

import pytest

from tests import decode_rounds

_PR = "ggml-org/llama.cpp pull request #19922"
# the pull request's 'Baseline: scaling vs number of GPUs': gpt-oss-120b MXFP4, llama-bench -ngl 99 -ub 1024 -fa 1,
# layer split over 2, 4 and 6 MI50s, tg1024 t/s
MI50_TG = {2: 82.44, 4: 76.84, 6: 73.43}


def _llamacpp(kb):
    return next(f for f in kb.serving.frameworks if f.id == "llama.cpp")


def _job(kb, model: str, pp: int | None):
    from benchmarks.accuracy_serving import serving_job

    return serving_job(kb, model, "fp4", "llama.cpp", 0, 128, tp=1 if pp else None, pp=pp, framework_version="6517")


def _step_ms(kb, model: str, gpu: str, pp: int) -> float:
    from benchmarks.accuracy_decode import single_stream

    return 1e3 / single_stream(kb, _job(kb, model, pp if pp > 1 else None), gpu, pp)


def test_the_mi50_table_grows_372_us_a_gpu():
    # by hand: 1000 / 82.44 = 12.130 ms, 1000 / 76.84 = 13.014, 1000 / 73.43 = 13.618; a copy of the same weights on
    # more cards reads the same bytes a token, so the growth is its boundaries': 0.442 ms a GPU from two to four,
    # 0.302 from four to six, 0.372 from two to six
    step = {n: 1000 / t for n, t in MI50_TG.items()}
    assert step[2] == pytest.approx(12.130, abs=5e-4)
    assert (step[4] - step[2]) / 2 == pytest.approx(0.442, abs=5e-4)
    assert (step[6] - step[4]) / 2 == pytest.approx(0.302, abs=5e-4)
    assert (step[6] - step[2]) / 4 == pytest.approx(0.372, abs=5e-4)


def test_the_knowledge_holds_the_hop_with_its_source(kb):
    hops = _llamacpp(kb).layer_split_hop
    assert len(hops) == 1
    hop = hops[0]
    assert (hop.vendors, hop.links) == (["amd"], ["pcie"])
    step = {n: 1000 / t for n, t in MI50_TG.items()}
    assert hop.hop_us == pytest.approx((step[6] - step[2]) / 4 * 1e3, abs=0.5)
    assert _PR in hop.source and hop.as_of == "2026-02"


@pytest.mark.parametrize(("gpu", "hop_us"), [
    ("rx-7900-xtx", 372.0),  # HIP over PCIe: the pull request's hop
    ("rtx-4090", 25.0),  # CUDA over PCIe (no peer-to-peer): the framework's allreduce_latency_us
    ("mi300x", 25.0),  # HIP over Infinity Fabric: not read, the framework's
])
def test_a_split_copy_takes_the_hop_of_its_backend_and_link(kb, gpu, hop_us):
    from gpuwise.estimators.serving import layout as L
    from gpuwise.estimators.serving.engine import engine

    job = _job(kb, "gpt-oss-20b", 2)
    eng = engine(job, kb.gpus[gpu])
    rep = L.replica(job, kb.gpus[gpu], eng, L.Layout(pp=2))
    assert rep.hop_latency * 1e6 == pytest.approx(hop_us)


def test_two_more_stages_add_two_hops_to_the_step(kb):
    # gpuwise's layer-split step is the same sum of layers on any count, one hop a stage: gpt-oss-120b on 4 and 6
    # RX 7900 XTX differs by 2 x 0.372 ms, as the MI50 table's two GPUs more do (0.744 ms)
    grown = _step_ms(kb, "gpt-oss-120b", "rx-7900-xtx", 6) - _step_ms(kb, "gpt-oss-120b", "rx-7900-xtx", 4)
    assert grown == pytest.approx(2 * 0.372, abs=0.002)
    # on RTX 4090s the same two stages add the framework's two 25 us hops
    cuda = _step_ms(kb, "gpt-oss-120b", "rtx-4090", 6) - _step_ms(kb, "gpt-oss-120b", "rtx-4090", 4)
    assert cuda == pytest.approx(2 * 0.025, abs=0.002)


@pytest.mark.parametrize(("metric", "tp", "count"), [
    ("llama-bench tg128 t/s (mean of 3 repetitions), HIP backend, layer split over 6 GPUs", "", 6),
    ("llama-bench tg128 t/s (mean of 3 repetitions), HIP backend, layer split over 2 GPUs", "", 2),
    ("llama-bench tg128 t/s (mean of 3 repetitions), HIP backend", "", None),  # one card: nothing said
    ("llama-bench tg128 t/s, layer split over 1 GPUs", "", None),  # one GPU is no split
    ("llama-bench tg128 t/s, layer split over 4 GPUs", "4", None),  # a stated tensor-parallel degree wins
    ("llama-server /completion decode tok/s, -sm layer", "", None),  # the mode, not the count: gpuwise chooses
])
def test_the_harness_reads_the_split_from_the_metric(metric, tp, count):
    from benchmarks.accuracy_decode import stated_split

    assert stated_split({"metric": metric, "tp": tp}) == count


def test_the_split_rows_are_the_four_that_say_so():
    # and decodeblind43's DA31 / DA32 (llama.cpp #19378: gpt-oss-120b on 4 RTX 4090, '-sm layer')
    from benchmarks.accuracy_decode import stated_split

    said = {k: stated_split(r) for k, r in decode_rounds.rows("D").items() if stated_split(r)}
    assert said == {"DA27": 2, "DA28": 6, "DA29": 4, "DA30": 6, "DA31": 4, "DA32": 4}


def test_the_20b_is_split_as_llama_bench_ran_it(kb, accuracy):
    # blind, the harness served gpt-oss-20b on 2 and 6 cards from one-card copies (181.62 t/s for DA26-DA28); pinned
    # to one copy over them it pays the copy's stages: by hand from the one-card step (1000 / 181.62 = 5.506 ms), the
    # split's own few microseconds more (the framework's floor a stage; 179.99 and 176.80 at 25 us a hop) and
    # 2 x (372 - 25) us and 6 x (372 - 25) us: 6.250 ms and 7.738 ms, 160.0 and 129.2 t/s
    est = decode_rounds.estimates(kb, accuracy, "DA")
    assert est["DA26"][0] == pytest.approx(181.62, abs=0.01)
    assert 1e3 / est["DA27"][0] == pytest.approx(1e3 / 179.99 + 2 * 0.347, abs=0.002)
    assert 1e3 / est["DA28"][0] == pytest.approx(1e3 / 176.80 + 6 * 0.347, abs=0.002)
    assert est["DA27"][0] == pytest.approx(160.0, abs=0.1)
    assert est["DA28"][0] == pytest.approx(129.2, abs=0.1)
