"""Rows RV01-RV22 (serveblind34, second batch): MLPerf Inference v5.1 partner Server logs on NVIDIA's harness that no
row had cited, scored blind.

The rule (validation README, 'Rows RV01-RV22'): closed-division Server logs of llama2-70b-99, llama3.1-8b and
llama3.1-405b on one node of 8 x B200 or 8 x H200 SXM, NVIDIA's harness, from a system whose log of that benchmark no
row cites, with its Server config in the repository (the 0.99-accuracy MaxP Custom-harness entry), every such log in
the repository's path order (mlcommons/inference_results_v5.1 at 965182b0). Twenty-two qualified (Cisco's C885 Llama
3.1 8B has no Server config). The figures below are copied from the logs' summaries; the checks redo the rows'
arithmetic and hold the harness to the blind reading recorded in the README.
"""

from __future__ import annotations

import pytest

from .validation_rows import assert_logs_read_once, assert_rate_rows_within, assert_server_log_row, rows_in

# row -> (results folder, benchmark, gpu, precision, tensor parallelism, scheduled /s, completed /s, tokens/s,
#         TTFT mean / p50 / p95 / p99 ms, TPOT mean / p50 / p95 / p99 ms, the config's gpu_batch_size)
SERVER = {
    "RV01": ("Dell/results/XE9680_H200_SXM_141GBx8_TRT", "llama2-70b-99", "h200-141gb-sxm", "fp8", 1,
            114.23, 113.35, 33244.25, (394.7, 357.0, 716.2, 922.1),
            (169.1, 171.7, 177.8, 180.8), 2048),
    "RV02": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            363.79, 361.66, 99214.41, (222.2, 222.3, 295.8, 400.2),
            (115.4, 117.8, 123.1, 125.3), 2048),
    "RV03": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1246.56, (1565.6, 1318.9, 3482.8, 4824.1),
            (100.2, 99.6, 122.1, 135.5), 256),
    "RV04": ("Dell/results/XE9685L_B200_SXM_180GBx8_TRT", "llama3.1-8b", "b200", "fp4", 1,
            999.47, 998.49, 128794.14, (278.4, 259.5, 560.7, 880.5),
            (19.7, 19.8, 23.3, 24.9), 6000),
    "RV05": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            363.79, 361.12, 99065.98, (372.4, 311.1, 673.1, 920.7),
            (145.0, 149.3, 154.7, 156.8), 2048),
    "RV06": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1244.97, (1717.6, 1449.1, 3839.4, 5115.4),
            (107.4, 106.8, 131.7, 145.5), 256),
    "RV07": ("GigaComputing/results/G894-SD1_B200-SXM-180GBx8_TRT", "llama3.1-8b", "b200", "fp4", 1,
            999.47, 997.36, 128659.56, (83.0, 72.3, 135.6, 310.8),
            (27.2, 27.3, 29.6, 30.7), 6000),
    "RV08": ("HPE/results/HPE_Cray_XD670_H200_SXM_141GBx8_TRT", "llama2-70b-99", "h200-141gb-sxm", "fp8", 1,
            114.23, 113.29, 33164.39, (402.6, 362.5, 734.8, 943.5),
            (171.2, 174.3, 180.6, 184.3), 2048),
    "RV09": ("Lenovo/results/SR680a_V3_B200SXMx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            363.79, 361.47, 99159.27, (240.4, 240.2, 353.5, 424.8),
            (123.0, 125.7, 129.7, 131.4), 2048),
    "RV10": ("Lenovo/results/SR780a_V3_B200SXMx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1249.04, (1622.9, 1376.6, 3542.9, 4966.0),
            (100.9, 100.0, 125.0, 136.2), 256),
    "RV11": ("Nebius/results/B200-SXM-180GBx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            373.26, 370.39, 101610.58, (570.6, 449.2, 1390.9, 1856.0),
            (145.4, 150.2, 153.9, 155.4), 2048),
    "RV12": ("Nebius/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.95, 1.95, 1279.53, (1741.0, 1461.2, 3895.3, 5552.2),
            (106.0, 105.4, 130.7, 143.3), 256),
    "RV13": ("Oracle/results/B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1243.67, (1657.1, 1392.5, 3770.7, 4893.1),
            (103.4, 102.8, 126.5, 139.1), 256),
    "RV14": ("Oracle/results/B200-SXM-180GBx8_TRT", "llama3.1-8b", "b200", "fp4", 1,
            999.47, 997.28, 128649.18, (59.8, 57.4, 97.3, 116.2),
            (24.9, 24.9, 26.6, 27.4), 6000),
    "RV15": ("Quanta_Cloud_Technology/results/D74U-7U_H200-SXM-141GBx8_TRT", "llama2-70b-99", "h200-141gb-sxm",
             "fp8", 1,
            114.23, 113.30, 33356.25, (418.2, 368.5, 757.3, 970.0),
            (173.3, 175.8, 182.9, 186.5), 2048),
    "RV16": ("Supermicro/results/AS-4126GS-NBR-LCC_B200-SXM-180GBx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            363.79, 361.57, 99186.48, (376.3, 241.1, 428.5, 1051.8),
            (118.8, 120.4, 125.3, 127.1), 2048),
    "RV17": ("Supermicro/results/AS-4126GS-NBR-LCC_B200-SXM-180GBx8_TRT", "llama3.1-8b", "b200", "fp4", 1,
            999.47, 997.77, 128701.09, (328.4, 290.1, 712.7, 1071.0),
            (20.3, 20.5, 24.5, 26.4), 6000),
    "RV18": ("Supermicro/results/SYS-422GA-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1240.44, (1586.6, 1336.8, 3507.5, 4649.8),
            (100.8, 100.0, 122.6, 135.4), 256),
    "RV19": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama2-70b-99", "b200", "fp4", 1,
            363.79, 361.54, 99181.07, (243.1, 241.8, 366.2, 433.3),
            (124.4, 127.0, 131.7, 133.6), 2048),
    "RV20": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1244.69, (1587.7, 1328.3, 3538.5, 4649.0),
            (101.0, 100.5, 122.0, 134.5), 256),
    "RV21": ("Supermicro/results/SYS-422GS-NBRT-LCC_B200-SXM-180GBx8_TRT", "llama3.1-8b", "b200", "fp4", 1,
            949.09, 948.38, 122331.12, (451.5, 376.0, 1061.7, 1389.7),
            (25.4, 25.1, 36.7, 38.9), 6000),
    "RV22": ("Supermicro/results/SYS-A21GE-NBRT_B200-SXM-180GBx8_TRT", "llama3.1-405b", "b200", "fp4", 4,
            1.90, 1.90, 1242.84, (1611.6, 1342.3, 3566.6, 4762.7),
            (99.7, 99.2, 121.8, 134.6), 256),
}
MODEL = {"llama2-70b-99": ("llama-2-70b", 222), "llama3.1-8b": ("llama-3.1-8b", 871),
         "llama3.1-405b": ("llama-3.1-405b", 9429)}
# the benchmarks' p99 constraints (TTFT ms, TPOT ms): a valid Server run keeps inside them
CAPS = {"llama2-70b-99": (2000, 200), "llama3.1-8b": (2000, 100), "llama3.1-405b": (6000, 175)}
# blind est / published: 0.937 (RV15, Quanta's 8 x H200 SXM Llama 2 70B FP8, past the copies' reach) to 1.002
BAND = (0.93, 1.01)


def _rv() -> dict[str, dict]:
    return rows_in("serving_rate.csv", "RV", 1, 30)


def test_the_round_has_its_rows_and_no_more():
    assert sorted(_rv()) == sorted(SERVER)


@pytest.mark.parametrize("row_id", sorted(SERVER))
def test_a_server_row_is_its_log(row_id):
    folder, bench, gpu, precision, tp, sched, done, tps, ttft, tpot, batch = SERVER[row_id]
    model, prompt = MODEL[bench]
    r = _rv()[row_id]
    assert_server_log_row(r, folder, bench, model, gpu, 8, prompt, "tensorrt-llm", (sched, done, tps), ttft, tpot,
                          batch)
    assert (r["precision"], int(r["tp"]), r["pp"], r["framework_version"]) == (precision, tp, "1", "")
    cap_ttft, cap_tpot = CAPS[bench]
    assert ttft[3] <= cap_ttft and tpot[3] <= cap_tpot
    # the scheduled rate is served: a valid Server run completes within 1.2% of it
    assert done <= sched and done >= 0.988 * sched


def test_no_log_is_read_twice():
    assert_logs_read_once(_rv(), SERVER)


def test_the_harness_estimates_every_row_within_the_blind_band():
    assert_rate_rows_within(_rv(), SERVER, BAND)
