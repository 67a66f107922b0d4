"""Branch modalities65: the held-out Modalities rows H961-H978 state offload none, read from the framework's code at
the sweep's commit, so H967 / H976 (13B, MBS 1 at 4,096, no activation checkpointing, 8 GPUs) are no longer priced with
a CPU offload the framework could not do.

Source: Modalities/modalities src/modalities/models/model_factory.py at aa1a3bcb (branch scaling_experiments, the
commit that carries docs/scaling_experiments/scaling_mn5.md and scaling_leonardo.md): get_fsdp_wrapped_model builds
``FSDP(model, auto_wrap_policy=..., mixed_precision=..., sharding_strategy=..., device_id=..., sync_module_states=...,
use_orig_params=True)`` with no ``cpu_offload``, so PyTorch's default ``CPUOffload(offload_params=False)`` holds; no
commit on any branch adds or removes cpu_offload under src/modalities (git log -S). The tables: MareNostrum 5 line 95
(13B, 8 GPUs, 6.26 samples/s, GBS 8, 4,096, FULL_SHARD, AC False) and Leonardo line 46 (13B, 8 GPUs, 2.64 samples/s)."""

from __future__ import annotations

import csv

import pytest

from benchmarks import accuracy_training as acc
from gpuwise import knowledge

from .test_heldout_trainblind45 import CATALOG64, IDS, NOW, PLANNER65_MOVES


def _rows() -> dict[str, dict]:
    with open(acc.HELDOUT_RUNS, newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh) if r["id"] in IDS}


def _estimate(rid: str, conds: dict):
    row, cond = _rows()[rid], conds[rid]
    w = acc.with_conditions(acc.run_workload(row), cond)
    return acc.run_estimate(w, row["gpu"], int(row["gpus"]), None, network=cond.get("network") or None)


def test_the_rows_state_the_frameworks_offload_and_eager_mode():
    conds = acc.run_conditions()
    for rid in sorted(IDS):
        assert conds[rid]["offload"] == "none", rid
        assert "model_factory.py get_fsdp_wrapped_model at aa1a3bcb" in conds[rid]["source"], rid
        w = acc.with_conditions(acc.run_workload(_rows()[rid]), conds[rid])
        assert (w["offload"], w["torch_compile"]) == ("none", False)
        # no torch.compile call under src/modalities at aa1a3bcb: the sweep trained eager
        assert conds[rid]["torch_compile"] == "false" and "no torch.compile call" in conds[rid]["source"], rid


def test_h967_requested_layout_by_hand():
    """The stated layout (TP1, FULL_SHARD over 8, MBS 1 x 4,096, no recompute) as gpuwise counts it, without offload:
    13e9 x 2 B weights / 8 + 13e9 x 2 B gradients / 8 + 13e9 x 12 B (fp32 master and moments) / 8 = 26.0 GB of state;
    activations on its own fit of a bare 13B (35 layers x 5,120, kv 1,024, ffn 17,408, vocabulary 151,936): 35 x 4,096
    x (20 x 5,120 + 4 x 1,024 + 8 x 17,408) + 12 B x 151,936 x 4,096 (the fp32 loss) + 2 x 2 B x 5,120 x 4,096 =
    42.78 GB; overhead 1 GiB + 5 %: 73.30 GB, over the 60.8 GB usable of 64 GB. So gpuwise still departs from the
    stated layout (its TP2 ZeRO-2), but no longer by an offload: the activation count is what is left (README)."""
    est = _estimate("H967", acc.run_conditions())
    t = est.gpu.training
    assert (t.requested_layout.offload, t.requested_layout.zero, t.requested_layout.tp) == ("none", 3, 1)
    states = 13e9 * (2 + 2 + 12) / 8
    act = 35 * 4096 * (20 * 5120 + 4 * 1024 + 8 * 17408) + 12 * 151936 * 4096 + 2 * 2 * 5120 * 4096
    assert act == pytest.approx(42.784e9, rel=1e-4)
    total = (states + act) * 1.05 + 2**30
    assert t.requested_memory_per_gpu_bytes == pytest.approx(total, rel=1e-6)
    assert total > est.memory.usable_per_gpu_bytes == pytest.approx(0.95 * 64e9)
    assert t.step_terms.offload_s == 0.0 and t.layout_notation == "TP2 PP1 DP4 ZeRO-2"


@pytest.mark.parametrize("rid,samples_s", [("H967", 6.26), ("H976", 2.64)])
def test_step_against_the_table(rid, samples_s):
    """Steady hours are GPUs x steps x step time, so the error is gpuwise's step over the table's (GBS 8 samples at
    the published samples/s): MareNostrum 1.278 s, Leonardo 3.030 s a step."""
    est = _estimate(rid, acc.run_conditions())
    step = est.gpu.training.step_terms.step_s
    assert (step / (8 / samples_s) - 1) * 100 == pytest.approx(NOW[rid], abs=0.1)


def test_only_the_offloaded_rows_move(tmp_path):
    """With offload left open (as catalog64 read the rows) the two 13B lines were priced with CPU offload (H967: 4.14 s
    of a 5.07 s step on the host's Adam and the parameter traffic); stated none, they read -35.4% / -37.1%, and the
    sixteen others are unchanged (their plans never offloaded)."""
    held = acc.HELDOUT_RUNS.read_text().split("\n")
    path = tmp_path / "rows.csv"
    path.write_text("\n".join([held[0], *(r for r in held[1:] if r.split(",", 1)[0] in IDS)]) + "\n")
    now_c = acc.run_conditions()
    open_c = {k: ({**c, "offload": ""} if k in IDS else c) for k, c in now_c.items()}
    kb = knowledge.load()
    det: dict = {}
    before = {lab.split()[0]: (e / m - 1) * 100
              for lab, e, m in acc.published_run_cases(kb, path, conditions=open_c, details=det)}
    assert det["H967"].gpu.training.step_terms.offload_s == pytest.approx(4.14, abs=0.01)
    assert det["H967"].gpu.training.step_terms.step_s == pytest.approx(5.07, abs=0.01)
    after = {lab.split()[0]: (e / m - 1) * 100 for lab, e, m in acc.published_run_cases(kb, path, conditions=now_c)}
    for rid in sorted(IDS):
        # planner65's smaller micro-batch under the pins moves H961, H971 and H973 on both readings alike
        assert before[rid] == pytest.approx({**CATALOG64, **PLANNER65_MOVES}[rid], abs=0.1), rid
        assert after[rid] == pytest.approx({**NOW, **PLANNER65_MOVES}[rid], abs=0.1), rid
    assert {r for r in IDS if abs(after[r] - before[r]) > 0.05} == {"H967", "H976"}


# scaling_mn5.md at 5644c95f, the 13B lines with AC at 8,192 (GPUs: samples/s; lines 94, 96, 98, 99, 101, 103, 105,
# 108, 110) and the 28B line on 2,048 GPUs (line 123)
SERIES_13B = {8: 3.21, 16: 6.41, 32: 12.76, 64: 25.62, 128: 45.98, 256: 100.04, 512: 196.74, 1024: 329.0,
              2048: 241.79}
LINE_28B_2048 = 297.0


def test_h968_is_one_line_of_its_series():
    """Per GPU the 13B series keeps 0.36-0.40 samples/s to 512 GPUs and 0.32 at 1,024, then 0.118 at 2,048, below the
    28B line on the same GPUs (0.145) whose sample costs 2.09x the FLOPs (the table's MFU: 199.9 / 95.6 GFLOP a token
    at 8,192): no cost that grows with the ranks or the model separates the one line. gpuwise's data-parallel term
    over the 2,048-rank ring leaves 0.04 s of its 2.14 s step exposed."""
    per_gpu = {n: s / n for n, s in SERIES_13B.items()}
    assert all(0.35 < per_gpu[n] < 0.41 for n in (8, 16, 32, 64, 128, 256, 512))
    assert per_gpu[1024] == pytest.approx(0.321, abs=0.001) and per_gpu[2048] == pytest.approx(0.118, abs=0.001)
    assert per_gpu[2048] < LINE_28B_2048 / 2048
    assert 2048 / SERIES_13B[2048] > 2048 / LINE_28B_2048  # 8.47 s against 6.90 s a step
    t = _estimate("H968", acc.run_conditions()).gpu.training
    assert t.exposed_comm_s.dp_s < 0.05 and t.step_terms.step_s == pytest.approx(2.14, abs=0.01)


@pytest.mark.parametrize("short,long,layers,hidden", [("H961", "H962", 32, 2560), ("H964", "H965", 32, 4096),
                                                       ("H967", "H966", 40, 5120)])
def test_the_mfu_column_reads_gpt3_shapes(short, long, layers, hidden):
    """mfu.py at aa1a3bcb: FLOPs a token = 6N + 12 L T H, MFU = samples/s x T x that / (GPUs x 989e12). Two lines of
    one size at T = 4,096 and 8,192 give L x H and then N; N is 12 L H^2 (no embedding counted) for GPT-3's 2.7B /
    6.7B / 13B widths (Brown et al. 2020, Table 2.1). Read in the README, not entered: the vocabulary and MLP kind
    stay unread."""
    from .test_heldout_trainblind45 import ROWS

    def per_token(rid: str) -> float:
        _, _, gpus, sps, _, _, _, seq, _, _, mfu = ROWS[rid]
        return mfu * 989e12 * gpus / (sps * seq)

    assert (ROWS[short][7], ROWS[long][7]) == (4096, 8192)
    lh = (per_token(long) - per_token(short)) / (12 * 4096)
    n = (per_token(short) - 12 * lh * 4096) / 6
    assert lh == pytest.approx(layers * hidden, rel=0.015)
    assert n == pytest.approx(12 * layers * hidden**2, rel=0.003)


MAXTEXT_IDS = [f"H{i}" for i in range(926, 931)]


def test_maxtext_rows_state_their_configs_bf16_weights():
    """H926-H930 (ROCm/rocm-blogs maxtext-dropless-moe): the base config at the commit the blog links,
    AMD-AGI/maxtext-slurm configs/deepseek3-671b.gpu.yml at ad3c5245, sets weight_dtype bfloat16 (MaxText's base.yml
    default float32 overridden) beside dcn_fsdp_parallelism 8 and ici_expert_parallelism 8: the rows state
    mixed_precision false (bf16 weights, gradients and Adam moments, 2 + 2 + 4 B a parameter)."""
    conds = acc.run_conditions()
    for rid in MAXTEXT_IDS:
        c = conds[rid]
        assert (c["stack"], c["ep"], c["zero"], c["mixed_precision"]) == ("maxtext", "8", "3", "false"), rid
        assert "weight_dtype bfloat16" in c["source"] and "ad3c5245" in c["source"], rid
        assert "ASSUMPTION" not in c["source"], rid


def test_maxtext_gradient_traffic_halves_by_hand():
    """H927 (per-device batch 7, synthetic): in bf16 the gradients reduce-scattered over the FSDP group are the
    weights' size (2 B a parameter), half the fp32 gradients the stack's default layout sends; the weights' gathers
    are unchanged. gpuwise's step is bound by that traffic, so the step falls by the reduce-scatter's half."""
    with open(acc.HELDOUT_RUNS, newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "H927")
    conds = acc.run_conditions()
    got = {}
    for mp in ("true", "false"):
        cond = {**conds["H927"], "mixed_precision": mp}
        w = acc.with_conditions(acc.run_workload(row), cond)
        got[mp] = acc.run_estimate(w, row["gpu"], int(row["gpus"]), None).gpu.training
    fp32, bf16 = got["true"].dp_traffic, got["false"].dp_traffic
    assert fp32.gradient_bytes == pytest.approx(2 * fp32.weight_bytes) and bf16.gradient_bytes == bf16.weight_bytes
    # the bandwidth term halves, the per-hop latency (8.5 ms) does not: 4.3 ms over the half
    assert bf16.reduce_scatter_s == pytest.approx(fp32.reduce_scatter_s / 2, rel=2e-3)
    assert bf16.reduce_scatter_s > fp32.reduce_scatter_s / 2
    assert bf16.gather_s == fp32.gather_s
    drop = got["true"].step_terms.step_s - got["false"].step_terms.step_s
    assert drop == pytest.approx(fp32.reduce_scatter_s / 2, rel=0.01)  # 3.93 s of 17.14
