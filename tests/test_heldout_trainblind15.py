"""Held-out H444-H455 (branch trainblind15), scored blind on main f79bfdb6: eleven MLPerf Training Llama 2 70B LoRA
results whose submitter system no row had used (mlcommons/training_results_v5.0 at 0fdc28f, v5.1 at 441d65f4) and a
GPT-2 124M speedrun on one RTX 4090 (Deveraux-Parker/nanoGPT_1GPU_SPEEDRUN at 135bc07). The rows' figures are checked
here by hand against the result logs and the training script; no figure of the model was set from them."""

from __future__ import annotations

import json

import pytest

from .test_heldout_trainblind11 import _rows

# each system's result_*.txt, successful runs only: GPUs, gpuwise id, mean run_stop samples_count, mean minutes of
# block_start..block_stop, global_batch_size, config (TP, CP; None: no config for the node count in the folder)
MLPERF = {
    "H444": (8, "b200", 3187.2, 10.075, 8, (1, 1)),              # v5.0 NVIDIA nyx_n1_ngc25.04_nemo
    "H445": (512, "gb200", 7296.0, 0.487, 64, (1, 8)),           # v5.0 NVIDIA tyche_ngpu512_ngc25.04_nemo
    "H446": (8, "b200", 2995.2, 9.478, 8, (1, 1)),               # v5.0 GigaComputing G893-SD1_pytorch
    "H447": (8, "mi300x", 3110.4, 25.573, 8, (1, 1)),            # v5.0 Dell 1xXE9680x8MI300X
    "H448": (8, "mi300x", 3033.6, 25.526, 8, (1, 1)),            # v5.0 MangoBoost MI300X-LLMBoost-GPUBoost-1node
    "H449": (8, "h200-141gb-sxm", 3148.8, 20.693, 8, (1, 2)),    # v5.0 Dell XE9680x8H200-SXM-141GB
    "H450": (16, "h200-141gb-sxm", 3302.4, 12.110, 8, None),     # v5.0 Dell 2xXE9680Lx8H200-SXM-141GB
    "H451": (8, "gb200", 3148.8, 9.722, 8, None),                # v5.0 Oracle 2xBM.GPU.GB200.4
    "H452": (8, "b200", 3242.7, 8.753, 8, (1, 1)),               # v5.1 Dell 1xXE9780x8B200-SXM-180GB (9 runs)
    "H453": (8, "mi325x", 3072.0, 17.880, 8, (1, 1)),            # v5.1 MangoBoost MI325X-LLMBoost-GPUBoost-1node
    "H454": (8, "mi325x", 3072.0, 18.135, 8, (1, 1)),            # v5.1 MiTAC 8xMI325X_2xEPYC_9755
}


def test_mlperf_lora_rows_are_the_logs_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (n, gpu, samples, minutes, gbs, layout) in MLPERF.items():
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], int(r["gpus"]), r["catalog_model"], r["precision"]) == (gpu, n, "llama-2-70b", "fp8"), rid
        assert (r["method"], r["lora_targets"], int(r["seq_len"])) == ("lora", "attention", 8192), rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, rel=2e-4), rid
        assert float(r["gpu_hours"]) == pytest.approx(n * minutes / 60, rel=2e-3), rid
        assert int(r["global_batch_tokens"]) == gbs * 8192, rid
        assert (c["hours_basis"], c["micro_batch"], c["fp8_params"]) == ("steady", "1", "true"), rid
        got = None if not c["tp"] else (int(c["tp"]), int(c["cp"]))
        assert got == layout, rid
        # LLMBoost has no efficiency in runtime.yaml: the middle stack (as H109); the others NeMo recipes
        assert c["stack"] == ("" if "LLMBoost" in r["source"] else "nemo"), rid


def test_tyche_512_runs_one_micro_batch_a_replica():
    """512 GB200 at CP8 make 64 data-parallel replicas: the logged global batch of 64 is one 8,192-token sequence
    each, and 7,296 samples are 114 optimizer steps in 0.487 min, 0.256 s a step."""
    n, _gpu, samples, minutes, gbs, (tp, cp) = MLPERF["H445"]
    assert n // (tp * cp) == gbs == 64
    assert samples / gbs == 114
    assert minutes * 60 / (samples / gbs) == pytest.approx(0.256, abs=0.001)


def test_rtx4090_speedrun_row_is_the_script_by_hand():
    """train_gpt2_4090_90min_3_25loss.py: 1,750 steps of 16 micro-steps of one 32,768-token sequence; GPTConfig 12
    layers, 6 heads, width 768, vocabulary 50,304; attention in layers 1-6 and 8-11 (query, key, value, the value
    embedding's projection, output: five 768 x 768), relu^2 MLP of 768 -> 3,072 -> 768 in layers 1-11, an untied head;
    the three value-embedding lookup tables are left out of the parameter count, as for H306."""
    r, c = _rows("training_heldout.csv")["H455"], _rows("training_conditions.csv")["H455"]
    assert float(r["training_tokens_b"]) * 1e9 == 1750 * 16 * 32768
    assert int(r["global_batch_tokens"]) == 16 * 32768 == int(c["global_batch_tokens"])
    params = 2 * 50304 * 768 + 10 * 5 * 768 * 768 + 11 * 2 * 768 * 3072
    assert float(r["params_b"]) == pytest.approx(params / 1e9, abs=2e-6)
    arch = json.loads(r["architecture_json"])
    # the two-matrix MLP of 4 x 768 as a three-matrix one of the same weights (2 x 768 x 3,072 = 3 x 768 x 2,048)
    assert 3 * arch["ffn_size"] == 2 * 4 * 768 and arch["tied_embeddings"] is False
    # the window steps 256, 512, ..., 1,792 evenly over the run: a mean of 1,024
    assert arch["attention_window"] == sum(range(256, 1793, 256)) / 7
    assert (r["gpu"], r["gpus"], float(r["gpu_hours"]), r["precision"]) == ("rtx-4090", "1", 1.5, "fp8")
    # the fused class's member that trains in FP8 (litgpt, named until branch stackprec56, has no FP8 path)
    assert (c["stack"], c["micro_batch"], c["checkpointing"], c["hours_basis"]) == ("nanochat", "1", "false", "steady")


# the second batch (v4.0 at 6fe9543, v4.1 at b87b9e3): GPUs, id, mean samples, mean block minutes, global batch, layout
MLPERF_V4 = {
    "H456": (1024, "h100-80gb-sxm", 11174.4, 1.2616, 128, ("nemo", "4", "2")),   # v4.0 NVIDIA eos_n128_ngc24.04_nemo
    "H457": (8, "h200-141gb-sxm", 3225.6, 21.8555, 8, ("nemo", "1", "2")),       # v4.1 NVIDIA h200_ngc24.09_nemo
    "H458": (4, "h100-80gb-sxm", 3340.8, 54.9021, 8, ("nemo", "4", "1")),        # v4.1 Dell XE9640x4H100-SXM-80GB
    "H459": (8, "gaudi2", 3187.2, 42.3368, 8, ("optimum-habana", "", "")),       # v4.0 Intel-HabanaLabs HLS-Gaudi2-PT
}


def test_second_batch_rows_are_the_logs_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (n, gpu, samples, minutes, gbs, (stack, tp, cp)) in MLPERF_V4.items():
        r, c = rows[rid], conds[rid]
        assert (r["gpu"], int(r["gpus"]), r["method"], r["precision"]) == (gpu, n, "lora", "fp8"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, rel=2e-4), rid
        assert float(r["gpu_hours"]) == pytest.approx(n * minutes / 60, rel=2e-3), rid
        assert int(r["global_batch_tokens"]) == gbs * 8192, rid
        assert (c["stack"], c["tp"], c["cp"], c["micro_batch"], c["hours_basis"]) == (stack, tp, cp, "1", "steady"), rid
    # Intel's submission script: DeepSpeed ZeRO-3 with overlap_comm false, gradient checkpointing, one sequence a card
    g = conds["H459"]
    assert (g["zero"], g["overlap_comm"], g["checkpointing"]) == ("3", "false", "true")
    # 1,024 H100 in TP4 x CP2 groups are 128 replicas: the global batch of 128 is one micro-batch each
    assert MLPERF_V4["H456"][4] == 1024 // (4 * 2)
