"""Held-out H693-H712 (branch trainblind28), scored blind on main 8473b3cd: MLPerf Training v6.0 submitter-system
pairs no row had used (Richardyu114/training_results_v6.0, the copy of mlcommons/training_results_v6.0 at eabf23a0):
Quanta's GB300 NVL72 trays and 8 x B300 server, ASUSTeK's and Supermicro's 8 x B300 servers, Supermicro's and
GigaComputing's full GB300 NVL72 racks, NVIDIA's two GB200 trays and TTA's eight PCIe RTX PRO 6000 Blackwell cards,
on gpt-oss-20b, Llama 3.1 8B and Llama 2 70B LoRA; a second batch (H708-H710) of NVIDIA's own GB300 and GB200
systems; a third (H711-H712) of AMD Primus Llama 3.1 8B runs on MI350X and MI355X. Each row's tokens and hours are
checked here by hand against the result log's logged batch, step count and block times; no figure of the model was
set from them."""

from __future__ import annotations

import pytest

from .test_heldout_trainblind11 import _rows

IDS = [f"H{i}" for i in range(693, 713)]

# benchmark, GPU, GPUs, sequences a step, steps at run_stop, the last logged block mean (s), micro-batch, (EP, CP)
LOGS = {
    "H693": ("gpt_oss_20b", "gb300", 8, 24, 8704, 0.4943096, 3, (1, 1)),
    "H694": ("gpt_oss_20b", "gb300", 64, 32, 7502, 0.1653236, 1, (4, 2)),
    "H695": ("gpt_oss_20b", "b300", 8, 24, 8704, 0.5628786, 3, (1, 1)),
    "H696": ("gpt_oss_20b", "b300", 8, 24, 8704, 0.5616068, 3, (1, 1)),
    "H697": ("gpt_oss_20b", "b300", 8, 24, 8704, 0.5584504, 3, (1, 1)),
    "H698": ("gpt_oss_20b", "gb300", 72, 36, 6479, 0.1599556, 1, (4, 2)),
    "H699": ("gpt_oss_20b", "gb300", 72, 36, 6479, 0.1590269, 1, (4, 2)),
    "H700": ("gpt_oss_20b", "gb200", 8, 16, 12288, 0.4379712, 2, (1, 1)),
    "H701": ("llama31_8b", "gb300", 64, 64, 3591, 0.1928646, 1, ("", 1)),
    "H702": ("llama31_8b", "b300", 8, 16, 10752, 0.4012203, 2, ("", 1)),
    "H703": ("llama31_8b", "b300", 8, 16, 11520, 0.3986340, 2, ("", 1)),
    "H704": ("llama31_8b", "b300", 8, 16, 11520, 0.3816957, 2, ("", 1)),
    "H705": ("llama31_8b", "gb300", 72, 72, 3420, 0.1940584, 1, ("", 1)),
    "H707": ("llama2_70b_lora", "gb300", 64, 8, 384, 0.1612032, 1, ("", 8)),
    # the second batch: NVIDIA's own systems of the sizes the first batch left
    "H708": ("gpt_oss_20b", "gb300", 8, 24, 9216, 0.4944150, 3, (1, 1)),
    "H709": ("llama31_8b", "gb300", 8, 16, 10752, 0.3431262, 2, ("", 1)),
    "H710": ("gpt_oss_20b", "gb200", 72, 36, 6479, 0.1668721, 1, (4, 2)),
}
# AMD Primus (the third batch): GPU, the last four 384-step training blocks (s), global batch 32 as micro-batch 2 x
# 8 GPUs x two accumulation steps, 5,760 steps at run_stop (184,320 samples)
PRIMUS = {
    "H711": ("mi350x", (418.876, 417.940, 417.697, 417.549)),
    "H712": ("mi355x", (345.618, 345.758, 347.001, 345.405)),
}
MODEL = {"gpt_oss_20b": "gpt-oss-20b", "llama31_8b": "llama-3.1-8b", "llama2_70b_lora": "llama-2-70b"}


def test_the_rows_and_their_conditions_are_entered():
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid in IDS:
        assert rid in rows and rid in conds, rid
        assert rows[rid]["use"] == "1" and "trainblind28" in rows[rid]["notes"], rid
        assert "training_results_v6.0" in rows[rid]["source"] and "eabf23a0" in rows[rid]["source"], rid
        assert conds[rid]["hours_basis"] == "steady", rid
        assert conds[rid]["stack"] == ("megatron" if rid in PRIMUS else "nemo"), rid
        assert rows[rid]["seq_len"] == "8192", rid


def test_block_mean_rows_by_hand():
    """A step is the logged global batch x 8,192 tokens; the row is every step at run_stop at the last logged block
    mean (block_start to block_stop over its steps) on every GPU; the batch is the GPUs over CP x the micro-batch."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (bench, gpu, g, gbs, steps, s, mb, (ep, cp)) in LOGS.items():
        r, c = rows[rid], conds[rid]
        assert f"/{bench}/result_" in r["source"], rid
        assert int(r["global_batch_tokens"]) == gbs * 8192, rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(steps * gbs * 8192, rel=2e-5), rid
        assert float(r["gpu_hours"]) == pytest.approx(g * steps * s / 3600, rel=1e-4), rid
        assert (r["catalog_model"], r["gpu"], r["gpus"]) == (MODEL[bench], gpu, str(g)), rid
        assert g // cp * mb == gbs, rid  # no gradient accumulation: the logged steps are optimizer steps
        assert (c["micro_batch"], c["ep"], c["cp"]) == (str(mb), str(ep), str(cp)), rid
        assert r["precision"] == ("fp4" if "NVFP4" in r["model"] else "fp8"), rid
        assert r["moe"] == ("1" if bench == "gpt_oss_20b" else "0"), rid
    # LoRA rank 16 on the attention projections, as the benchmark's reference and H212 / H601
    assert (rows["H707"]["method"], rows["H707"]["lora_targets"]) == ("lora", "attention")


def test_zero_only_where_a_log_prints_its_configuration_summary():
    """Supermicro's logs print Megatron-FSDP (optim_grads_params: ZeRO-3); the other submitters' logs print no
    summary, so their rows leave the column to gpuwise (as H195 and H200 do)."""
    conds = _rows("training_conditions.csv")
    assert {rid for rid in IDS if conds[rid]["zero"]} == {"H697", "H704"}
    assert all(conds[rid]["zero"] == "3" for rid in ("H697", "H704"))


def test_tta_rtx_pro_6000_row_by_hand():
    """TTA logs two training blocks (ms): 0-159,744 samples and 159,744-172,032; GBS 16 as MBS 1 x 8 GPUs x two
    accumulation steps, FP8 hybrid on eight PCIe cards; the row is 8 GPUs x the two blocks."""
    r, c = _rows("training_heldout.csv")["H706"], _rows("training_conditions.csv")["H706"]
    first = (1780291326384 - 1780270646795) / 1000
    second = (1780292943437 - 1780291364090) / 1000
    assert 172_032 / 16 == 10_752 and (172_032 - 159_744) / 16 == 768
    assert second / 768 == pytest.approx(2.0564, abs=1e-4)
    assert float(r["gpu_hours"]) == pytest.approx(8 * (first + second) / 3600, rel=1e-5)
    assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(172_032 * 8192, rel=1e-6)
    assert (r["gpu"], r["gpus"], r["precision"], r["global_batch_tokens"]) == (
        "rtx-pro-6000-blackwell-server", "8", "fp8", str(16 * 8192))
    assert (c["micro_batch"], c["tp"]) == ("1", "1")


def test_primus_rows_by_hand():
    """A Primus block is 12,288 samples: 384 steps of 32 x 8,192 tokens; the row is 5,760 steps at the mean of the last
    four blocks, on 8 GPUs; micro-batch 2 with two accumulation steps, MXFP4 entered as fp4, stack megatron."""
    rows, conds = _rows("training_heldout.csv"), _rows("training_conditions.csv")
    for rid, (gpu, blocks) in PRIMUS.items():
        r, c = rows[rid], conds[rid]
        step = sum(blocks) / len(blocks) / (12_288 / 32)
        assert float(r["gpu_hours"]) == pytest.approx(8 * 5_760 * step / 3600, rel=1e-4), rid
        assert float(r["training_tokens_b"]) * 1e9 == pytest.approx(184_320 * 8192, rel=1e-6), rid
        assert (r["gpu"], r["gpus"], r["precision"], r["global_batch_tokens"]) == (gpu, "8", "fp4", str(32 * 8192)), rid
        assert (c["micro_batch"], c["tp"], c["cp"]) == ("2", "1", "1"), rid
        assert 32 // (8 * int(c["micro_batch"])) == 2, rid
