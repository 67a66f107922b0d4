"""Rows SZ01-SZ24 (serveblind14): gpt-oss-120b on 2 x H100 / H200 / B200 at TP 2, vLLM 0.13.0, as InferenceX's CI
artifact agg_bmk.json of GitHub Actions run 20667906037 reports them (stored by gminneci/mantile at 1d3c259c,
reconcile/sources/inferencemax/raw/run_20667906037/agg_bmk.json), and DeepSeek-R1-0528 on 8 x MI300X / MI325X / H200
with SGLang from runs 20720630953 and 20613446912 of the same store; rows SZ25-SZ45 (serveblind15): gpt-oss-120b on
B200 with TensorRT-LLM 1.2.0rc2 (run 20286968709) and DeepSeek-R1-0528 on 8 x MI355X / B200 (runs 20609406656,
20613446912, 20905985411). Each figure must agree with the artifact's record:
output_tput_per_gpu (tok/s a GPU), mean_tpot, mean_ttft and mean_e2el (seconds); and each condition with the
recipe the run's commit carries (SemiAnalysisAI/InferenceX at 4e52ed4c6: benchmarks/gptoss_fp4_*.sh, the gptoss
entries of .github/configs/nvidia-master.yaml, benchmark-tmpl.yml's random-range-ratio 0.8). A figure copied wrong
fails here, not in the accuracy report."""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "validation"
SOURCE = ("https://github.com/gminneci/mantile/blob/1d3c259c926ecce3322c9ceface7e2f00f2de7e6/"
          "reconcile/sources/inferencemax/raw/run_20667906037/agg_bmk.json")

# the artifact's record: row -> (hw, isl, osl, conc, output_tput_per_gpu, mean_tpot s, mean_ttft s, mean_e2el s)
ARTIFACT = {
    "SZ01": ("h100", 1024, 1024, 8, 607.4575, 0.0063881, 0.070449, 5.99999),
    "SZ02": ("h100", 1024, 1024, 64, 2055.9602, 0.0150623, 0.163983, 14.04165),
    "SZ03": ("h100", 1024, 8192, 8, 628.5251, 0.0062057, 0.069087, 45.73495),
    "SZ04": ("h100", 1024, 8192, 64, 2125.3938, 0.0146867, 0.158478, 108.62848),
    "SZ05": ("h100", 8192, 1024, 8, 497.634, 0.0075963, 0.302807, 7.33978),
    "SZ06": ("h100", 8192, 1024, 64, 1140.0342, 0.0266398, 0.964909, 25.54011),
    "SZ07": ("h200", 1024, 1024, 8, 634.9367, 0.0061094, 0.069748, 5.74057),
    "SZ08": ("h200", 1024, 1024, 64, 2126.6814, 0.0145433, 0.167566, 13.56816),
    "SZ09": ("h200", 1024, 8192, 8, 670.0969, 0.0058187, 0.07038, 42.89254),
    "SZ10": ("h200", 1024, 8192, 64, 2243.6285, 0.0139166, 0.152835, 102.92838),
    "SZ11": ("h200", 8192, 1024, 8, 524.0648, 0.007197, 0.302419, 6.96809),
    "SZ12": ("h200", 8192, 1024, 64, 1194.37, 0.0253969, 0.951018, 24.37956),
    "SZ13": ("b200", 1024, 1024, 8, 1011.6785, 0.0038342, 0.0369, 3.59626),
    "SZ14": ("b200", 1024, 1024, 64, 4384.1172, 0.0070125, 0.074844, 6.53524),
    "SZ15": ("b200", 1024, 8192, 8, 1048.006, 0.0037149, 0.038711, 27.36867),
    "SZ16": ("b200", 1024, 8192, 64, 4500.326, 0.0068968, 0.069522, 51.00959),
    "SZ17": ("b200", 8192, 1024, 8, 939.6776, 0.0040776, 0.09885, 3.87298),
    "SZ18": ("b200", 8192, 1024, 64, 3143.4957, 0.0096729, 0.269209, 9.18692),
}
GPU = {"h100": "h100-80gb-sxm", "h200": "h200-141gb-sxm", "b200": "b200"}


# the second batch (DeepSeek-R1-0528 FP8, SGLang, TP 8, concurrency 32, 10 x 32 prompts): row -> (run, hw, isl,
# output_tput_per_gpu, mean_tpot s, mean_ttft s, mean_e2el s); MI300X / MI325X run SGLang 0.5.5.post3 (InferenceX
# 70c1eceb6: --num-continuous-decode-steps 4), H200 SGLang 0.5.6 (d27433dff)
DSR1 = {
    "SZ19": ("20720630953", "mi300x", 1024, 98.0205, 0.038948, 0.780373, 36.74628),
    "SZ20": ("20720630953", "mi300x", 8192, 66.1067, 0.0564288, 2.386414, 54.68883),
    "SZ21": ("20720630953", "mi325x", 1024, 105.9413, 0.0360929, 0.585658, 33.90629),
    "SZ22": ("20720630953", "mi325x", 8192, 73.5102, 0.0509987, 1.800644, 49.04215),
    "SZ23": ("20613446912", "h200", 1024, 152.0925, 0.0253707, 0.397636, 23.82255),
    "SZ24": ("20613446912", "h200", 8192, 108.7486, 0.0348101, 1.141108, 33.36251),
}
DSR1_GPU = {"mi300x": "mi300x", "mi325x": "mi325x", "h200": "h200-141gb-sxm"}


# serveblind15, first batch (gpt-oss-120b MXFP4, TensorRT-LLM 1.2.0rc2 on B200, run 20286968709, no DP attention):
# row -> (tp, isl, osl, conc, output_tput_per_gpu, mean_tpot s, mean_ttft s, mean_e2el s); recipe
# benchmarks/gptoss_fp4_b200_trt_docker.sh at InferenceX 156fef3fc (pull request #256)
TRT = {
    "SZ25": (1, 1024, 1024, 64, 6518.6536, 0.0095077, 0.083473, 8.8413),
    "SZ26": (1, 1024, 8192, 64, 6845.4981, 0.0091219, 0.075696, 67.4451),
    "SZ27": (1, 8192, 1024, 64, 4432.3028, 0.013792, 0.3791, 13.0946),
    "SZ28": (2, 1024, 1024, 8, 1193.2054, 0.0032411, 0.043688, 3.05271),
    "SZ29": (2, 1024, 1024, 32, 2971.1974, 0.0052001, 0.061397, 4.86179),
    "SZ30": (2, 1024, 8192, 8, 1262.1854, 0.0030881, 0.035825, 22.7585),
    "SZ31": (2, 1024, 8192, 32, 3338.6396, 0.0046772, 0.048764, 34.7373),
    "SZ32": (2, 8192, 1024, 8, 1112.4721, 0.0034286, 0.10297, 3.27661),
    "SZ33": (2, 8192, 1024, 32, 2467.1684, 0.0061434, 0.17306, 5.859),
    "SZ34": (4, 1024, 1024, 8, 725.1499, 0.0026664, 0.03465, 2.50993),
    "SZ35": (4, 1024, 1024, 32, 1858.9645, 0.0041443, 0.060236, 3.88631),
    "SZ36": (4, 1024, 8192, 8, 755.2604, 0.002577, 0.03475, 18.9941),
    "SZ37": (4, 1024, 8192, 32, 2173.7214, 0.0035839, 0.055525, 26.6362),
    "SZ38": (4, 8192, 1024, 8, 661.1153, 0.0028749, 0.093822, 2.75487),
    "SZ39": (4, 8192, 1024, 32, 1614.2592, 0.0046629, 0.14934, 4.46512),
}

# serveblind15, second batch (DeepSeek-R1-0528, SGLang, TP 8, concurrency 32): row -> (run, hw, precision, isl,
# output_tput_per_gpu, mean_tpot s, mean_ttft s, mean_e2el s)
DSR1_2 = {
    "SZ40": ("20609406656", "mi355x", "fp8", 1024, 200.5234, 0.019617, 0.18, 18.2265),
    "SZ41": ("20609406656", "mi355x", "fp8", 8192, 141.0697, 0.027583, 0.57637, 25.9428),
    "SZ42": ("20613446912", "b200", "fp8", 1024, 213.4126, 0.017567, 0.72332, 16.9447),
    "SZ43": ("20613446912", "b200", "fp8", 8192, 111.9539, 0.026095, 8.397, 32.5671),
    "SZ44": ("20905985411", "mi355x", "fp4", 1024, 254.9881, 0.015024, 0.52366, 14.3413),
    "SZ45": ("20905985411", "mi355x", "fp4", 8192, 175.9418, 0.022204, 0.39481, 20.8089),
}


def _rows() -> dict[str, dict]:
    with (DATA / "serving_independent.csv").open(newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"].startswith("SZ")}


def test_the_rule_gives_eighteen_rows_every_gpu_length_and_load_once():
    rows = _rows()
    assert sorted(rows) == sorted(ARTIFACT) + sorted(DSR1) + sorted(TRT) + sorted(DSR1_2)
    cells = {(a[0], a[1], a[2], a[3]) for a in ARTIFACT.values()}
    assert len(cells) == 18 == 3 * 3 * 2  # H100 / H200 / B200 x 1k1k / 1k8k / 8k1k x concurrency 8 / 64


@pytest.mark.parametrize("row_id", sorted(ARTIFACT))
def test_a_row_keeps_its_artifacts_figures_and_the_recipes_conditions(row_id):
    row = _rows()[row_id]
    hw, isl, osl, conc, out_gpu, tpot, ttft, e2el = ARTIFACT[row_id]
    assert row["source"] == SOURCE
    assert (row["model"], row["precision"], row["framework"], row["framework_version"]) == (
        "gpt-oss-120b", "fp4", "vllm", "0.13.0")  # image vllm/vllm-openai:v0.13.0, openai/gpt-oss-120b (MXFP4)
    assert (row["gpu"], row["count"], row["tp"], row["pp"], row["ep"]) == (GPU[hw], "2", "2", "1", "")
    assert int(row["concurrency"]) == conc and int(row["prompts"]) == 10 * conc  # NUM_PROMPTS = 10 x CONC
    # random lengths at range ratio 0.8: uniform on [0.8 L, L], mean 0.9 L
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(0.9 * isl), round(0.9 * osl))
    assert float(row["output_tokens_per_s"]) == pytest.approx(2 * out_gpu, abs=0.05)  # per GPU x 2 GPUs
    assert float(row["tpot_ms"]) == pytest.approx(1e3 * tpot, abs=0.005)
    assert float(row["ttft_ms"]) == pytest.approx(1e3 * ttft, abs=0.051)  # rounded to 0.1 ms
    # the run's own means agree with the 0.9 x output: (E2E - TTFT) / TPOT + 1 tokens
    assert (e2el - ttft) / tpot + 1 == pytest.approx(0.9 * osl, rel=0.01)
    # every recipe passes no-enable-prefix-caching: the prefix cache off
    if hw == "b200":  # gptoss_fp4_b200_*.sh: kv-cache-dtype fp8, --max-num-seqs 512
        assert (row["kv_precision"], row["workload_options"]) == ("fp8", "prefix_cache=false;memory_fraction=0.9")
    else:  # gptoss_fp4_h{100,200}_slurm.sh: KV cache in the model dtype, --max-num-seqs = the concurrency
        assert (row["kv_precision"], row["workload_options"]) == (
            "", f"max_batch_size={conc};prefix_cache=false;memory_fraction=0.9")  # --gpu-memory-utilization 0.9


@pytest.mark.parametrize("row_id", sorted(DSR1))
def test_a_deepseek_row_keeps_its_artifacts_figures_and_the_recipes_conditions(row_id):
    row = _rows()[row_id]
    run, hw, isl, out_gpu, tpot, ttft, e2el = DSR1[row_id]
    assert row["source"] == SOURCE.replace("20667906037", run)
    assert (row["model"], row["precision"], row["framework"]) == ("deepseek-r1", "fp8", "sglang")
    assert (row["gpu"], row["count"], row["tp"], row["pp"], row["ep"]) == (DSR1_GPU[hw], "8", "8", "1", "")
    assert (int(row["concurrency"]), int(row["prompts"])) == (32, 320)
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(0.9 * isl), round(0.9 * 1024))
    assert float(row["output_tokens_per_s"]) == pytest.approx(8 * out_gpu, abs=0.05)  # per GPU x 8 GPUs
    assert float(row["tpot_ms"]) == pytest.approx(1e3 * tpot, abs=0.005)
    assert float(row["ttft_ms"]) == pytest.approx(1e3 * ttft, abs=0.051)
    assert (e2el - ttft) / tpot + 1 == pytest.approx(0.9 * 1024, rel=0.01)
    assert row["kv_precision"] == ""  # neither recipe passes --kv-cache-dtype
    # both recipes pass --disable-radix-cache: the prefix cache off
    if hw == "h200":
        # --mem-fraction-static 0.82
        assert (row["framework_version"], row["workload_options"]) == (
            "0.5.6", "prefix_cache=false;memory_fraction=0.82")
    else:  # --num-continuous-decode-steps 4: a poll every 4 decode steps (the A08-A12 and NB rows' reading)
        assert (row["framework_version"], row["workload_options"]) == (
            "0.5.5.post3", "scheduler_recv_interval=4;prefix_cache=false;memory_fraction=0.8")  # --mem-fraction-static


def test_the_tensorrt_llm_rule_gives_fifteen_rows_each_cell_once():
    """serveblind15's rule: TP 1 at 64 (its smallest swept load), TP 2 and TP 4 at 8 and 32 (swept without DP
    attention at every length), 1k/1k, 1k/8k and 8k/1k."""
    cells = {(t[0], t[1], t[2], t[3]) for t in TRT.values()}
    lengths = {(1024, 1024), (1024, 8192), (8192, 1024)}
    assert cells == ({(1, i, o, 64) for i, o in lengths} | {(tp, i, o, c) for tp in (2, 4) for i, o in lengths
                                                              for c in (8, 32)})


@pytest.mark.parametrize("row_id", sorted(TRT))
def test_a_tensorrt_llm_row_keeps_its_artifacts_figures_and_the_recipes_conditions(row_id):
    row = _rows()[row_id]
    tp, isl, osl, conc, out_gpu, tpot, ttft, e2el = TRT[row_id]
    assert row["source"] == SOURCE.replace("20667906037", "20286968709")
    assert (row["model"], row["precision"], row["framework"], row["framework_version"]) == (
        "gpt-oss-120b", "fp4", "tensorrt-llm", "1.2.0rc2")  # nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2
    assert (row["gpu"], row["count"], row["tp"], row["pp"], row["ep"]) == ("b200", str(tp), str(tp), "1", "")
    assert int(row["concurrency"]) == conc and int(row["prompts"]) == 10 * conc
    assert (int(row["prompt_tokens"]), int(row["output_tokens"])) == (round(0.9 * isl), round(0.9 * osl))
    assert float(row["output_tokens_per_s"]) == pytest.approx(tp * out_gpu, abs=0.05)  # per GPU x TP GPUs
    assert float(row["tpot_ms"]) == pytest.approx(1e3 * tpot, abs=0.005)
    assert float(row["ttft_ms"]) == pytest.approx(1e3 * ttft, abs=0.051)
    assert (e2el - ttft) / tpot + 1 == pytest.approx(0.9 * osl, rel=0.01)
    # gptoss_fp4_b200_trt_docker.sh: kv_cache_config dtype fp8, free_gpu_memory_fraction 0.85; --max_batch_size 512,
    # above every row's load
    assert (row["kv_precision"], row["workload_options"]) == ("fp8", "memory_fraction=0.85")


@pytest.mark.parametrize("row_id", sorted(DSR1_2))
def test_a_second_round_deepseek_row_keeps_its_artifacts_figures_and_the_recipes_conditions(row_id):
    row = _rows()[row_id]
    run, hw, precision, isl, out_gpu, tpot, ttft, e2el = DSR1_2[row_id]
    assert row["source"] == SOURCE.replace("20667906037", run)
    assert (row["model"], row["precision"], row["framework"]) == ("deepseek-r1", precision, "sglang")
    assert (row["gpu"], row["count"], row["tp"], row["pp"], row["ep"]) == (hw, "8", "8", "1", "")
    assert (int(row["prompt_tokens"]), int(row["output_tokens"]), int(row["concurrency"])) == (
        round(0.9 * isl), round(0.9 * 1024), 32)
    assert float(row["output_tokens_per_s"]) == pytest.approx(8 * out_gpu, abs=0.05)
    assert float(row["tpot_ms"]) == pytest.approx(1e3 * tpot, abs=0.005)
    assert float(row["ttft_ms"]) == pytest.approx(1e3 * ttft, abs=0.051)
    assert (e2el - ttft) / tpot + 1 == pytest.approx(0.9 * 1024, rel=0.01)
    if hw == "b200":  # dsr1_fp8_b200_*.sh at d27433dff: fp8_e4m3 KV, --scheduler-recv-interval 30 at 16 and up,
        # --max-running-requests 128; the slurm script's own --num-prompts 10 x c
        assert (row["framework_version"], row["kv_precision"], row["workload_options"], row["prompts"]) == (
            "0.5.6", "fp8", "scheduler_recv_interval=30;max_batch_size=128;prefix_cache=false;memory_fraction=0.82",
            "320")
    else:  # --num-continuous-decode-steps 4; launch_mi355x-amd.sh: NUM_PROMPTS = 50 x c for DeepSeek-R1 at 1k out
        version, kv = ("0.5.5.post3", "") if precision == "fp8" else ("0.5.7", "fp8")  # the FP4 script: fp8_e4m3
        assert (row["framework_version"], row["kv_precision"], row["workload_options"], row["prompts"]) == (
            version, kv, "scheduler_recv_interval=4;prefix_cache=false;memory_fraction=0.8", "1600")  # radix off


def test_the_blind_figures_stay_where_the_validation_readme_records_them():
    """The round read every gpt-oss row slow but SZ12 (blind, README section 'Rows SZ01-SZ18'): -29.5% (SZ15) to
    +0.3% (SZ12); the DeepSeek-R1 batch -22.5% (SZ23) to +36.8% (SZ20). serveblind15 (section 'Rows SZ25-SZ45')
    read every TensorRT-LLM row slow, -36.8% (SZ25) to -11.8% (SZ36 / SZ38), and its DeepSeek-R1 batch -31.5% (SZ40)
    to +29.4% (SZ43). A change that moves a row out of its band, in either direction, has to be read against those
    sections first."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import accuracy

    from gpuwise import knowledge

    kb = knowledge.load()
    cases = [c for c in accuracy.serving_cases(kb, accuracy.INDEPENDENT) if c[0].startswith("SZ")]
    assert len(cases) == 45
    for label, est, published in cases:
        row_id = label.split()[0]
        if row_id in TRT:
            low, high = 0.60, 1.05
        elif row_id in DSR1_2:
            low, high = 0.65, 1.40
        else:
            low, high = (0.70, 1.45) if "deepseek-r1" in label else (0.65, 1.10)
        assert low <= est / published <= high, label
