"""TensorRT-LLM's DeepSeek-R1 step in MLPerf's two rounds, split by part (branch cutedsl54): nothing in the model set.

1. The Offline query is finite and the published rate is the whole query's. loadgen issues every sample at once and
   the run lasts until the last one finishes; its summary (mlperf_log_summary.txt) gives the samples' completion times
   (latency percentiles, issue at t = 0). Between the median and the 90th percentile 40% of the query completes in the
   steady state of the running batch, so 0.4 x samples / (p90 - p50) is the steady sample rate and x the mean output
   the steady token rate. The v5.1 queries (26,328 samples) spend a fifth of the published rate on the fill and the
   drain, the v6.0 ones (70,208-140,416) 4-7%: part of the two rounds' gap is the query length, not the build.
   v5.1's window reaches into the drain (the loadgen queue empties at the 80th percentile, 5,120 in flight), so its
   steady reading is a lower bound.
2. What is left of each build's step beyond gpuwise's decode-only step at the row's load (mean context 804 + output /
   2): the 1.0 side branch ~32-48 ms a step at 105-512 sequences a rank, Server and steady Offline alike (a cost that
   does not grow with the batch); the 1.2 branch 7-18 ms (Server's shorter balance wait packs fewer prompts per
   context iteration). gpuwise prices every Offline row's step at its eager context iteration (137.9 ms), 1.3-2.5x
   both builds' steady steps.

Sources: mlcommons/inference_results_v5.1 at 965182b0 and gbeezybez/inference_results_v6.0 at ab33b214,
closed/<submitter>/results/<system>/deepseek-r1/Offline/performance/run_1/mlperf_log_summary.txt (each row's source
in the validation CSV); the Server TPOTs are the rows' own."""

from __future__ import annotations

import importlib

import pytest

from gpuwise.estimators import serving as SV

from .test_serving_rows_trtllm54 import _rows  # the two CSVs' rows by id

ST = importlib.import_module("gpuwise.estimators.serving.step")

# Offline logs: samples/s, tokens/s, p50 / p90 / max completion time (s), mean output tokens (tokens/s over samples/s)
LOGS = {
    "ML31": (8.93431, 33379.0, 1027.975, 1970.262, 2946.841, 3736),   # NVIDIA B200, v5.1 (TensorRT-LLM 1.0-mlpinf)
    "SH07": (8.41588, 30766.5, 1079.404, 2068.774, 3128.370, 3656),   # Dell XE9685L B200, v5.1
    "SH08": (8.4179, 30873.9, 1079.529, 2077.552, 3127.620, 3668),    # GigaComputing G894-SD1 B200, v5.1
    "SH01": (15.5989, 58581.6, 4249.051, 7710.473, 9001.647, 3755),   # Nebius B200, v6.0 (feat/1.2-mlpinf)
    "SH02": (15.5349, 58235.4, 2001.249, 3689.946, 4519.362, 3749),   # Dell XE9780 B200, v6.0
    "SH03": (15.2288, 57116.9, 2047.552, 3781.349, 4610.226, 3751),   # Google B200, v6.0
    "SH04": (18.4735, 69251.4, 2513.737, 4673.111, 5700.697, 3749),   # Cisco C880A B300, 512 a rank, v6.0
    "MP03": (18.7489, 70325.7, 2493.134, 4613.677, 5616.981, 3751),   # NVIDIA B300, 1,024 a rank, v6.0
}
# samples in the query: samples_per_query / generated_samples_per_query of each log
QUERY = {"ML31": 26328, "SH07": 26328, "SH08": 26328, "SH01": 140416, "SH02": 70208, "SH03": 70208, "SH04": 105312,
         "MP03": 105312}
# hand: 0.4 x samples / (p90 - p50) x output; ML31 0.4 x 26,328 / 942.29 x 3,736 = 41,754; the share published / steady
STEADY = {"ML31": (41754, 0.799), "SH07": (38916, 0.791), "SH08": (38705, 0.798), "SH01": (60930, 0.961),
          "SH02": (62346, 0.934), "SH03": (60757, 0.940), "SH04": (73135, 0.947), "MP03": (74514, 0.944)}


@pytest.mark.parametrize("rid", sorted(LOGS))
def test_the_logs_are_the_rows_and_their_queries(rid):
    sps, tps, _, _, last, out = LOGS[rid]
    row = _rows()[rid]
    assert float(row["output_tokens_per_s"]) == tps and int(row["output_tokens"]) == out
    assert tps / sps == pytest.approx(out, abs=0.5)
    assert sps * last == pytest.approx(QUERY[rid], abs=1.5)  # the run ends when the query's last sample does


@pytest.mark.parametrize("rid", sorted(LOGS))
def test_the_steady_rate_between_the_median_and_the_90th_percentile(rid):
    _, tps, p50, p90, _, out = LOGS[rid]
    steady = 0.4 * QUERY[rid] / (p90 - p50) * out
    assert steady == pytest.approx(STEADY[rid][0], abs=1.0)
    assert tps / steady == pytest.approx(STEADY[rid][1], abs=1e-3)


def test_the_query_length_is_a_fifth_of_v51_and_a_twentieth_of_v60():
    v51 = [STEADY[r][1] for r in ("ML31", "SH07", "SH08")]
    v60 = [STEADY[r][1] for r in ("SH01", "SH02", "SH03", "SH04", "MP03")]
    assert max(v51) < 0.80 < 0.93 < min(v60)
    # the published B200 gap 58,235.4 / 30,766.5 = 1.89 (SH02 / SH07), steady 62,346 / 38,916 = 1.60
    assert LOGS["SH02"][1] / LOGS["SH07"][1] == pytest.approx(1.893, abs=1e-3)
    assert STEADY["SH02"][0] / STEADY["SH07"][0] == pytest.approx(1.602, abs=1e-3)


# (row, GPU, sequences a rank, published step in ms, output tokens, max_batch_size): Server rows' mean TPOT; Offline
# rows' steady step 8 x batch / steady tok/s; sequences a rank from Little's law (validation README, trtllm54)
STEPS = [("RT07", "b200", 105, 59.9, 3684, 512, 25.3), ("ML31", "b200", 512, 8 * 512 / 41754 * 1e3, 3736, 512, 58.3),
         ("RT03", "b200", 275, 53.6, 3743, 512, 39.4), ("SH02", "b200", 512, 8 * 512 / 62346 * 1e3, 3749, 512, 58.4)]


@pytest.mark.parametrize("rid,gpu,per_rank,published,out,mbs,decode", STEPS)
def test_what_each_build_adds_to_the_decode_only_step(kb, accuracy, rid, gpu, per_rank, published, out, mbs, decode):
    """gpuwise's decode-only step at the row's load (8 x B200, NVFP4, FP8 KV, attention DP 8 + EP 8): RT07 25.3 ms at
    105 a rank, ML31 58.3 and SH02 58.4 at 512, RT03 39.4 at 275. The published step beyond it: 1.0 RT07 59.9 - 25.3 =
    34.6, ML31 98.1 - 58.3 = 39.8; 1.2 RT03 53.6 - 39.4 = 14.2, SH02 65.7 - 58.4 = 7.3 ms. The step every Offline row is
    given, the eager context iteration, is 137.9 ms whatever the build."""
    job = accuracy.serving_job(kb, "deepseek-r1", "fp4", "tensorrt-llm", 804, out, None, 1, 1, 8, "fp8", None,
                               f"max_batch_size={mbs}")
    s = SV.choose(job, kb.gpus[gpu], 8)
    d = ST.step(job, s.engine, s.replica, per_rank * 8, 0.0, 804 + out / 2, 0.0).seconds * 1e3
    assert d == pytest.approx(decode, abs=0.05)
    excess = published - d
    if rid in ("RT07", "ML31"):  # the 1.0 side branch: 30 ms and more at either load
        assert 30.0 < excess < 50.0
    else:  # the 1.2 branch
        assert 0.0 < excess < 20.0
    assert s.capacity.tpot * 1e3 == pytest.approx(137.9, abs=0.05)
