"""Rows SH99-SH130 (serveblind31): MLPerf Inference v6.0 Offline logs whose Offline run no row had cited, scored blind.

Read from gbeezybez/inference_results_v6.0 at ab33b214, the copy of MLCommons' 'Publishing Results' commit the MP,
SH01.., RT41.. and RT81.. rows read; the rules are the validation README's ('Rows SH99-SH130'): closed-division Offline
logs of the five LLM benchmarks, a catalog part, the submitter's Offline config in the repository, one row per
submitter-system-benchmark. The figures below are copied from each log's summary (Tokens per second, Samples per
second, samples_per_query) with the config's batch and front end as entered; the checks redo the log's arithmetic and
hold the harness to the band of the reading recorded in the README (blind, then with the Mixtral rows' ep 1).
"""

from __future__ import annotations

import sys
from pathlib import Path

from .validation_rows import assert_logs_read_once, rows_in, serving_ratios

ROOT = Path(__file__).resolve().parents[1]
V60 = "https://github.com/gbeezybez/inference_results_v6.0/blob/ab33b2144a9f822f69d24f78569f993d195ee7e5/closed/"
# row -> (results folder / benchmark / scenario, model, precision, gpu, GPUs, mean prompt, tokens/s, samples/s,
#         samples_per_query, the config's settings as entered, over HTTP through trtllm-serve)
LOGS = {
    "SH99": ("ASUSTeK/results/ESC8000A_E13P_RTX_PRO_6000_PCIE_96GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 27812.9, 101.456, 396000,
             "max_batch_size=4096", True),
    "SH100": ("ASUSTeK/results/ESC8000A_E13P_RTX_PRO_6000_PCIE_96GBx8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 871, 48791, 378.237, 1056000,
             "max_batch_size=4096;prefill_cuda_graphs=true", True),
    "SH101": ("ASUSTeK/results/ESC8000_E12P_RTX_PRO_6000_PCIE_96GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 27730.1, 101.154, 198000,
             "max_batch_size=2048", False),
    "SH102": ("ASUSTeK/results/ESC8000_E12P_RTX_PRO_6000_PCIE_96GBx8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 871, 48613.8, 376.863, 1056000,
             "max_batch_size=4096;prefill_cuda_graphs=true", True),
    "SH103": ("ASUSTeK/results/XA_NB3I-E12_B300x8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "b300", 8, 222, 109625, 401.864, 992640,
             "max_batch_size=2048", False),
    "SH104": ("ASUSTeK/results/XA_NB3I-E12_B300x8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "b300", 8, 871, 166745, 1292.76, 802560,
             "max_batch_size=6000;prefill_cuda_graphs=true", True),
    "SH105": ("Cisco/results/C880A_M8_B300_288GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "b300", 8, 222, 115730, 423.839, 1267200,
             "max_batch_size=3072;prefill_cuda_graphs=true", True),
    "SH106": ("Cisco/results/C880A_M8_B300_288GBx8_TRT/llama3.1-405b/Offline",
             "llama-3.1-405b", "fp4", "b300", 8, 9429, 1971.11, 3.09594, 8313,
             "max_batch_size=2048;prefill_cuda_graphs=true", True),
    "SH107": ("Cisco/results/Cisco_UCS_8xMI350x/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "mi350x", 8, 222, 78936.7, 276.837, 237600,
             "max_batch_size=3392;rocm_aiter=true;rocm_fp4_asm_gemm=true", False),
    "SH108": ("Cisco/results/X210M8_X580P_H200NVL_141GBx4_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp8", "h200-nvl-141gb", 4, 871, 24216.6, 189.192, 184800,
             "max_batch_size=4608", False),
    "SH109": ("Dell/results/8xMI355X_2xEPYC_9655/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "mi355x", 8, 222, 100008, 346.048, 1465200,
             "max_batch_size=3392;rocm_aiter=true;rocm_fp4_asm_gemm=true", False),
    "SH110": ("Dell/results/XE7740_H200_NVL_141GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp8", "h200-nvl-141gb", 8, 222, 32004, 109.085, 422400,
             "max_batch_size=2048", False),
    "SH111": ("Dell/results/XE7740_H200_NVL_141GBx8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp8", "h200-nvl-141gb", 8, 871, 53193.6, 412.378, 528000,
             "max_batch_size=2048;prefill_cuda_graphs=true", True),
    "SH112": ("Dell/results/XE7740_RTXPro6000_PCIe_96GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 27034.8, 99.4603, 132000,
             "max_batch_size=2048", False),
    "SH113": ("Dell/results/XE7745_RTXPro6000_PCIe_96GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 8, 222, 26829.8, 98.7393, 132000,
             "max_batch_size=2048", False),
    "SH114": ("Dell/results/XE7745_RTXPro6000_PCIe_96GBx8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 8, 871, 49036.1, 380.137, 330000,
             "max_batch_size=4096;prefill_cuda_graphs=true", True),
    "SH115": ("Dell/results/XE9780L-B300-SXM-270GBx8_TRT/deepseek-r1/Offline",
             "deepseek-r1", "fp4", "b300", 8, 804, 66287.9, 17.6909, 105312,
             "max_batch_size=1024", True),
    "SH116": ("Dell/results/XE9780L-B300-SXM-270GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "b300", 8, 222, 108669, 399.32, 1478400,
             "max_batch_size=2048", False),
    "SH117": ("Dell/results/XE9780_x86_B300-SXM-270GBx8_TRT/deepseek-r1/Offline",
             "deepseek-r1", "fp4", "b300", 8, 804, 69021.2, 18.358, 105312,
             "max_batch_size=1024", True),
    "SH118": ("GigaComputing/results/8xMI355X_2xEPYC-9575F/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "mi355x", 8, 222, 100310, 354.555, 1486980,
             "max_batch_size=3392;rocm_aiter=true;rocm_fp4_asm_gemm=true", False),
    "SH119": ("GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "b300", 8, 222, 109343, 395.698, 992640,
             "max_batch_size=2048", False),
    "SH120": ("GigaComputing/results/G894-SD3-AAX7_B300-SXM-270GBx8_TRT/llama3.1-405b/Offline",
             "llama-3.1-405b", "fp4", "b300", 8, 9429, 1947.91, 2.98962, 8313,
             "max_batch_size=128", False),
    "SH121": ("Google/results/B200-SXM-180GBx8_TRT/llama3.1-405b/Offline",
             "llama-3.1-405b", "fp4", "b200", 8, 9429, 1350.24, 2.05933, 8313,
             "max_batch_size=128", False),
    "SH122": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_11_0_33_TRT/mixtral-8x7b/Offline",
             "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 10, 427, 41242.4, 285.203, 396000,
             "max_batch_size=1280", False),
    "SH123": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_14_1_48_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 10, 222, 36710.8, 135.05, 224400,
             "max_batch_size=2304", False),
    "SH124": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx10_TRT_10_14_1_48_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 10, 871, 60679.9, 474.062, 330000,
             "max_batch_size=1280", False),
    "SH125": ("HPE/results/HPE_PROLIANT_DL380A_RTX_PRO_6000_PCIE_96GBx8_TRT_10_11_0_33_TRT/mixtral-8x7b/Offline",
             "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 8, 427, 33637.3, 232.583, 396000,
             "max_batch_size=1280", False),
    "SH126": ("HPE/results/HPE_ProLiant_XD685_B200_SXM_192GBx8_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "b200", 8, 871, 152625, 1192.39, 778800,
             "max_batch_size=6000", True),
    "SH127": ("HPE/results/HPE_ProLiant_XD685_MI355X_288GBx8/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "mi355x", 8, 222, 100019, 353.485, 1465200,
             "max_batch_size=3392;rocm_aiter=true;rocm_fp4_asm_gemm=true", False),
    "SH128": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_11_0_33_TRT/mixtral-8x7b/Offline",
             "mixtral-8x7b", "fp8", "rtx-pro-6000-blackwell-server", 2, 427, 8198.25, 56.6991, 116160,
             "max_batch_size=1280", False),
    "SH129": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_14_1_48_TRT/llama2-70b-99/Offline",
             "llama-2-70b", "fp4", "rtx-pro-6000-blackwell-server", 2, 222, 6901.9, 25.3898, 58080,
             "max_batch_size=768", False),
    "SH130": ("HPE/results/HPE_Proliant_DL385_RTX_PRO_6000_PCIe_96GBx2_TRT_10_14_1_48_TRT/llama3.1-8b/Offline",
             "llama-3.1-8b", "fp4", "rtx-pro-6000-blackwell-server", 2, 871, 12495.2, 97.6188, 274560,
             "max_batch_size=2816", False),
}
# est / published after the Mixtral rows' ep 1: 0.44 (SH104, Llama 3.1 8B through trtllm-serve on 8 x B300, not blind)
# to 1.24 (SH116, Llama 2 70B NVFP4 on 8 x B300); blind the Mixtral rows read 0.44-0.88 (README)
BAND = (0.43, 1.25)


def _rows() -> dict[str, dict]:
    return rows_in("serving_independent.csv", "SH", 99, 130)


def test_rows_copy_their_logs():
    rows = _rows()
    assert sorted(rows) == sorted(LOGS)
    for rid, (path, model, prec, gpu, n, prompt, tps, sps, spq, opts, http) in LOGS.items():
        r = rows[rid]
        assert r["source"] == V60 + path + "/performance/run_1/mlperf_log_summary.txt"
        assert path.endswith("/Offline")
        assert (r["model"], r["precision"], r["gpu"], int(r["count"])) == (model, prec, gpu, n)
        assert (int(r["prompt_tokens"]), r["concurrency"], r["workload_options"]) == (prompt, "max", opts)
        assert float(r["output_tokens_per_s"]) == tps
        assert int(r["output_tokens"]) == round(tps / sps)  # output tokens a sample, as the SUT reports them
        assert f"one query of {spq:,} samples" in r["notes"]
        # HTTP rows say so in the metric; in-process rows carry the words the harness reads as no front end
        assert ("over HTTP" in r["metric"]) == http and ("in-process" in r["metric"]) == (not http)


def test_logs_read_once():
    assert_logs_read_once(_rows(), LOGS)


def test_mixtral_rows_hold_every_expert_on_each_gpu(kb):
    """HPE's Offline configs set tensor_parallelism 1 and no moe_expert_parallelism: each card is a whole copy
    (ep 1), so ten cards serve ten copies, not one expert-parallel copy of eight (the blind rows' reading)."""
    sys.path.insert(0, str(ROOT))
    import benchmarks.accuracy_serving as acc
    from gpuwise.estimators import serving as SV

    for rid, copies in (("SH122", 10), ("SH125", 8), ("SH128", 2)):
        r = _rows()[rid]
        assert r["ep"] == "1"
        job = acc.serving_job(kb, r["model"], r["precision"], r["framework"], int(r["prompt_tokens"]),
                              int(r["output_tokens"]), None, int(r["tp"]), int(r["pp"]), int(r["ep"]), "fp8", None,
                              r["workload_options"], offline=acc.offline_metric(r["metric"]))
        lay = SV.choose(job, kb.gpus[r["gpu"]], int(r["count"])).layout
        assert (lay.tp, lay.ep, lay.replicas, lay.gpus_per_copy) == (1, 1, copies, 1)


def test_harness_estimates_inside_band(kb, tmp_path):
    got = serving_ratios(kb, tmp_path, LOGS)
    assert sorted(got) == sorted(LOGS)  # none refused
    for rid, ratio in got.items():
        assert BAND[0] <= ratio <= BAND[1], (rid, ratio)
