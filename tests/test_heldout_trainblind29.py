"""Held-out H713-H737 (branch trainblind29), scored blind on main 2e922bea: the MLPerf Training v5.0 / v5.1 Llama 2 70B
LoRA submitter-system pairs no row had used (mlcommons/training_results_v5.0 at 0fdc28f, v5.1 at 441d65f4): ASUSTeK's,
HPE's, Lenovo's, Krai's and Supermicro's H200 systems, Lambda's and Supermicro's B200 servers, Supermicro's GB200 NVL72
rack and B300 server; a second batch (H730-H737) of v4.1's unused pairs (b87b9e3) and v4.0's 64-GPU one (6fe9543).
Each row's tokens and hours are checked here by hand against the means of its result logs (every successful run's
run_stop samples_count and block_start..block_stop minutes); no figure of the model was set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

# result folder, GPUs, gpuwise id, mean run_stop samples, mean block minutes, global batch, (TP, CP) or None where the
# layout for the node count is not published, FP8 parameters entered
LOGS = {
    "H713": ("ESC_N8_E11_n2", 16, "h200-141gb-sxm", 3187.2, 11.79421, 8, (2, 1), True),
    "H714": ("HPE-Cray-XD670-H200-SXM5-141GB_n1_24.09", 8, "h200-141gb-sxm", 3264.0, 23.79055, 8, (2, 1), True),
    "H715": ("HPE-Cray-XD670-H200-SXM5-141GB_n2_24.09", 16, "h200-141gb-sxm", 3302.4, 12.53440, 8, None, True),
    "H716": ("1cc_b200_n1_ngc25.04_nemo", 8, "b200", 3148.8, 9.97721, 8, (1, 1), True),
    "H717": ("4xSR680Ax8H200-SXM-141GB", 32, "h200-141gb-sxm", 3110.4, 6.00885, 8, (4, 1), True),
    "H718": ("ARS-121GL-NBO_18", 72, "gb200", 3364.2, 1.42893, 9, (1, 8), True),
    "H719": ("AS-4125GS-TNHR2-LCC", 8, "h200-141gb-sxm", 3110.4, 20.19017, 8, (1, 2), True),
    "H720": ("AS-4126GS-NBR-LCC_N1", 8, "b200", 3110.4, 9.96833, 8, (1, 1), True),
    "H721": ("AS-4126GS-NBR-LCC_N2", 16, "b200", 2995.2, 5.08013, 8, (1, 2), True),
    "H722": ("AS-A126GS-TNBR", 8, "b200", 3110.4, 9.78340, 8, (1, 1), True),
    "H723": ("AS-A126GS-TNBR_N1", 8, "b200", 3302.4, 10.42017, 8, (1, 1), True),
    "H724": ("SYS-422GA-NBRT-LCC", 8, "b200", 3033.6, 9.54559, 8, (1, 1), True),
    "H725": ("SYS-821GE-TNHR", 8, "h200-141gb-sxm", 3072.0, 20.44632, 8, (1, 2), True),
    "H726": ("SYS-A21GE-NBRT", 8, "b200", 3072.0, 9.72538, 8, (1, 1), True),
    # v5.1
    "H727": ("Cray-XD670-H200-SXM5-141GB_n4_v5.0", 32, "h200-141gb-sxm", 3264.0, 6.09313, 8, (4, 1), True),
    "H728": ("AS-A126GS-TNBR", 8, "b200", 3148.8, 8.54580, 8, (1, 1), False),
    "H729": ("SYS-822GS-NB3RT", 8, "b300", 3187.2, 8.40596, 8, (1, 1), False),
    # the second batch: v4.1 (b87b9e3), and v4.0's (6fe9543) 64-GPU pair
    "H730": ("ESC_N8_E11", 8, "h200-141gb-sxm", 3225.6, 23.17391, 8, (2, 1), True),
    "H731": ("SR680aV3-8xH200_SXM_141GB_700W", 8, "h200-141gb-sxm", 3148.8, 20.43790, 8, (1, 2), True),
    "H732": ("SR685aV3-8xH200_SXM_141GB_700W", 8, "h200-141gb-sxm", 3187.2, 20.75177, 8, (1, 2), True),
    "H733": ("SR780aV3-8xH200_SXM_141GB_700W", 8, "h200-141gb-sxm", 3148.8, 20.67067, 8, (1, 2), True),
    "H734": ("AS-4125GS-TNHR2-LCC-1", 8, "h100-80gb-sxm", 3072.0, 24.44794, 8, (4, 1), True),
    "H735": ("AS-8125GS-TNHR-1", 8, "h100-80gb-sxm", 3110.4, 23.97870, 8, (4, 1), True),
    "H736": ("SYS-821GE-TNHR-1", 8, "h100-80gb-sxm", 3110.4, 24.30436, 8, (4, 1), True),
    "H737": ("SYS-421GE-TNHR2-LCC-8", 64, "h100-80gb-sxm", 3148.8, 4.40708, 8, (4, 2), True),
}
VERSION = {**{f"H{i}": "v5.0" for i in range(713, 727)}, **{f"H{i}": "v5.1" for i in range(727, 730)},
           **{f"H{i}": "v4.1" for i in range(730, 737)}, "H737": "v4.0"}


def test_the_rows_are_the_logs_by_hand():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (folder, n, gpu, samples, minutes, gbs, layout, fp8p) in LOGS.items():
        r, c = rows[rid], conds[rid]
        assert f"training_results_{VERSION[rid]}" in r["source"], rid
        assert f"/results/{folder}/llama2_70b_lora/" in r["source"], rid
        assert (r["gpu"], int(r["gpus"]), r["catalog_model"], r["precision"]) == (gpu, n, "llama-2-70b", "fp8"), rid
        assert (r["method"], r["lora_targets"], int(r["seq_len"]), r["use"]) == ("lora", "attention", 8192, "1"), rid
        assert float(r["training_tokens_b"]) == pytest.approx(samples * 8192 / 1e9, rel=2e-5), rid
        assert float(r["gpu_hours"]) == pytest.approx(n * minutes / 60, rel=1e-4), rid
        assert int(r["global_batch_tokens"]) == gbs * 8192, rid
        assert "trainblind29" in r["notes"], rid
        assert (c["stack"], c["micro_batch"], c["hours_basis"]) == ("nemo", "1", "steady"), rid
        got = None if not c["tp"] else (int(c["tp"]), int(c["cp"]))
        assert got == layout, rid
        assert c["fp8_params"] == ("true" if fp8p else ""), rid


def test_replicas_make_the_logged_batch():
    """One 8,192-token sequence a micro-batch: the GPUs over TP x CP are the data-parallel replicas, and the logged
    global batch is those replicas times the accumulation steps (1; 2 on the one-node H200 CP2 / TP2 recipes,
    MINIBS 2; 4 on the one-node H100 TP4 recipe, MINIBS 4)."""
    accumulation = {"H714": 2, "H719": 2, "H725": 2, "H730": 2, "H731": 2, "H732": 2, "H733": 2,
                    "H734": 4, "H735": 4, "H736": 4}
    for rid, (_f, n, _g, _s, _m, gbs, layout, _p) in LOGS.items():
        if layout is None:
            continue
        tp, cp = layout
        assert n // (tp * cp) * accumulation.get(rid, 1) == gbs, rid


def test_the_v5_1_copy_of_a_used_result_is_not_entered():
    """Dell's v5.1 1xXE9680x8H200-SXM-141GB folder logs H449's v5.0 means (3,148.8 samples, 20.693 min): not a new
    run."""
    rows = _rows("training_heldout.csv")
    assert "20.693 min" in rows["H449"]["source"]
    assert not any("1xXE9680x8H200-SXM-141GB" in r["source"] for r in rows.values())
