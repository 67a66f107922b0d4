"""The held-out 2024-26 training runs of the early sessions (tests/data/training_heldout.csv H01-H302, each
batch scored blind before that session changed anything; tests/data/validation/README.md), under their published
conditions (tests/data/training_conditions.csv), and the mechanisms a batch was read through once it was scored.
They set no figure of the model. Split from tests/test_training_runs.py, which keeps the mechanisms read on the
published runs themselves."""

from __future__ import annotations

import csv
import statistics

import pytest

from .conftest import DATA


@pytest.fixture(scope="module")
def heldout(kb, accuracy):
    """Every held-out run estimated once under its published conditions, by number (H07 -> 7)."""
    return {int(c[0].split()[0][1:]): c for c in accuracy.published_run_cases(kb, accuracy.HELDOUT_RUNS)}


def _held_out_rows() -> dict[str, dict[str, str]]:
    """tests/data/training_heldout.csv by run id, as published (the checks of a row's own figures)."""
    with open(DATA / "training_heldout.csv", newline="") as fh:
        return {r["id"]: r for r in csv.DictReader(fh)}


def _held_out_ratios(heldout, first: int, last: int) -> list[float]:
    """Estimate / published of the held-out runs numbered first..last that are in use."""
    return [est / published for n, (_, est, published) in heldout.items() if first <= n <= last]


def test_held_out_runs(heldout):
    """2024-26 runs gathered after the model was set and never tuned to (sources per row): SmolLM2
    1.7B/360M/135M and SmolLM-135M on 64-256 H100; Phi-3-mini (two releases), Phi-3-medium and Phi-4 on
    512-1,920 H100, Phi-4-mini on 512 A100-80GB, Stable LM 2 1.6B on 512 A100-40GB (model cards: GPU
    count, type, days, tokens; Phi-4's batch of 5,760 x 4,096 from its report); stop 31 added Nemotron-4 15B's
    main stage (2,304 H100, NeMo TP8, steady state), Phi-3.5-mini and Phi-3.5-MoE (512 H100). Blind figures
    (tests/data/validation/README.md): 16.7% over H01-H10 at stop 30, 22.2% on H11-H13 and 19.5% over all
    13 (worst 1.79x) at stop 31. Since then, not blind: the planner compares layouts per token (the Phi-3-mini
    rows had been split over 2 GPUs to fit a batch too small for 512 GPUs, which happened to land them close),
    and the Phi-3 rows run the stack their cards name (DeepSpeed on a Transformers model, deepspeed-hf): 19.5%,
    worst 1.77x. The issue's 15% goal is not met on these rows: Phi-3.5-mini and Phi-4 (H100, no stack named)
    run at ~25% of peak over the whole run where gpuwise gives ~40%, while Phi-4-mini, with the same named
    software on A100, lands within 1%. Stop 32 added Olmo 3 7B and 32B stage-1 pretraining (steady state from
    the Olmo 3 report's tokens/s per H100) and Apertus 70B (4,096 GH200, ~6M GPU-hours), scored blind at
    -16.4% / -0.9% / +141.8%: Apertus was estimated on 8-GPU servers whose tensor-parallel traffic crossed
    PCIe, where Alps' GH200 nodes hold 4 GPUs on NVLink (gpus.yaml link.server_gpus; +15.6% since)."""
    ratios = _held_out_ratios(heldout, 0, 29)
    assert len(ratios) >= 16
    assert all(0.55 <= r <= 1.8 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.20


def test_held_out_runs_of_session_9(heldout):
    """H30-H42, gathered in session 9 and scored before any change of that session: twelve MLPerf Training
    v5.1 submissions (mlcommons/training_results_v5.1 result logs: tokens to the target and training-block
    time per run; Llama 3.1 405B on 448-5,120 B200/GB200/GB300, Llama 3.1 8B on 8-512 B200/B300/GB200/GB300,
    H100 and MI350X) and INTELLECT-1 (112 H100, GPU-hours from its published MFU). Blind, with each
    submission's published layout: 31.1% median, worst 2.36x (the 8B on 512 GB300: its data-parallel
    gradient reduction charged in full over InfiniBand, where the GPUs of an NVL72 rack reduce over NVLink);
    without layout or stack: 31.4%, worst 2.19x (the 405B on 5,120 GB200). Since then, not blind: an NVL72
    rack's 72 GPUs are one NVLink fabric (a pipelined replica placed in one rack), FP4 training GEMMs run at
    the FP4 / FP8 peak ratio (H32 ran NVFP4), Blackwell Ultra's MFU from the Megatron-Bridge tables: 19.4%,
    worst 1.55x (H31, GB300, whose precision, FP8 or NVFP4, its logs do not say); without layouts 26.7%,
    worst 1.64x. H43 (OpenEuroLLM 2.15B on 64 LUMI nodes of MI250X, Megatron-LM, ~165,000 GPU-hours; model
    card) was added after those changes and scored blind at +42.5% (+34.8% without its stack); its servers were
    then counted as the HPE Cray EX235a nodes MI250X ships in (4 cards on Infinity Fabric, not 8 over PCIe):
    +0.7%. The set of 14 is at 18.7%, worst 1.55x. Session 10: H30 and H31 ran NVFP4 (each submission's README
    names its _fp4 launch config; the logs do not log the precision), whose NeMo 25.09 recipes run without the
    tensor-parallel overlap (config_common_fp4.sh): H31 +48% -> -18%, H30 +15% -> -14%; the set 17.6%, worst
    1.45x (H37, 8B on 128 H100). The goal (<= 15% median) is not met."""
    ratios = _held_out_ratios(heldout, 30, 43)
    assert len(ratios) == 14
    assert all(0.6 <= r <= 1.6 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.20


def test_held_out_runs_of_session_10(heldout):
    """H44-H55, gathered in session 10 and scored blind before any change of that session (figures in
    tests/data/validation/README.md). Eleven MLPerf Training submissions not used before, from their result
    logs (tokens to the target, summed training-block time, global batch) and configs (layout): Llama 3.1 405B
    (v5.0) on 512 H200 (Nebius), 512/1,024/2,048 GB200 (CoreWeave), 2,048/2,560 H100 (NVIDIA); GPT-3 175B
    (v4.1) on 256/512 H100 (NVIDIA) and 1,536 H100 (Oracle), (v4.0) on 10,752 H100 (NVIDIA) and 512 H100
    (Sustainable Metal Cloud). Blind with their layouts: 14.2% median, worst 1.43x (GPT-3 on 10,752 H100: the
    interleaved pipeline's gradient overlap); without layout or stack 35.0%, worst 1.62x. H55 Pleias-3B (192 H100,
    'about 20 days' for 1.09T tokens; model card) is a known miss: the card's hours imply 6% of the dense BF16
    peak, a sixth of what any other 2024-26 run here reaches at that size. Since then, not blind: an interleaved
    schedule reduces each chunk's gradients behind the backward still to run (Megatron-Core): 14.1%, worst 1.24x."""
    ratios = _held_out_ratios(heldout, 44, 54)
    assert len(ratios) == 11
    assert all(0.7 <= r <= 1.3 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.16
    # Pleias-3B by hand: 6 x 3.0e9 x 1.0863e12 FLOP over 92,160 H100-hours is 59 TFLOP/s, 6% of 989.4 dense BF16
    with open(DATA / "training_heldout.csv", newline="") as fh:
        pleias = next(r for r in csv.DictReader(fh) if r["id"] == "H55")
    mfu = 6 * 3.0e9 * float(pleias["training_tokens_b"]) * 1e9 / (float(pleias["gpu_hours"]) * 3600) / 989.4e12
    assert 0.055 <= mfu <= 0.065


def test_held_out_runs_of_session_10_second_batch(heldout):
    """H56-H62, gathered later in session 10 and scored blind on the model as it stood before any change of the
    session: MLPerf Training v5.1 Llama 3.1 8B submissions not used before (Dell 8 B300, 16 B200 and 8 MI355X;
    Supermicro 8 MI355X; Verda 64 B200; University of Florida 128 B200; Cisco 64 H100), each with the layout of
    the config its submission ships. Blind and now (no change of the session moves a TP1 PP1 layout): 24.3%
    median, worst 1.47x (the context-parallel runs on 64 and 128 B200 +44% / +47%: their data-parallel
    traffic is charged at fp32 gradients and bf16 parameters, where NeMo's recipes reduce bf16 gradients and
    gather FP8 parameters; counting that alone makes other NeMo rows too fast, H34 at 2.05x, so it is left);
    the MI355X rows +24% / +26% as AMD's own (H29). Without layouts 39.4% blind, 19.7% now. Session 11 (not
    blind): CDNA4 runs at the share of its peak AMD measured against B200 (runtime.mfu cdna4 0.42 -> 0.57), the
    MI355X rows -8% / -7%: 8.5% median with layouts."""
    ratios = _held_out_ratios(heldout, 56, 62)
    assert len(ratios) == 7
    assert all(0.8 <= r <= 1.5 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.25


def test_held_out_runs_of_session_11(heldout):
    """H63-H75, gathered in session 11 and scored blind on the model as it stood before any change of the session:
    eleven MLPerf Training v5.1 submissions not used before, each with the layout of the config it ships (Llama 3.1
    8B on 8-256 B200, 8 GB200 / GB300, 8 MI355X, four of them NVFP4; Llama 3.1 405B on 2,560 GB200 NVFP4), and two
    2024-25 runs whose GPU count and time their authors gave in answer to users: OLMo 2 1B (128 H100, 8 days 17 h,
    allenai/OLMo issue #861) and MiniCPM-2B (160 A100, about 15 days, OpenBMB/MiniCPM issue #36). Blind: 14.0%
    median, worst 1.45x (University of Florida's context-parallel runs on 32 / 64 / 256 B200 +33 / +45 / +30%, as
    H60/H61; OLMo 2 1B +36%, MiniCPM-2B -18%); the MLPerf rows 7.7%."""
    ratios = _held_out_ratios(heldout, 63, 75)
    assert len(ratios) == 13
    assert all(0.7 <= r <= 1.5 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.15
    # OLMo 2 1B by hand: 4T tokens over 128 x 209 h is 41,500 tokens/s per H100; 6 x 1.485e9 FLOP per token is
    # 370 TFLOP/s, 37% of the 989.4 dense BF16 peak
    with open(DATA / "training_heldout.csv", newline="") as fh:
        olmo = next(r for r in csv.DictReader(fh) if r["id"] == "H74")
    rate = float(olmo["training_tokens_b"]) * 1e9 / (float(olmo["gpu_hours"]) * 3600)
    assert 41_000 <= rate <= 42_000
    assert 0.36 <= 6 * float(olmo["params_b"]) * 1e9 * rate / 989.4e12 <= 0.38


def test_held_out_runs_of_session_11_second_batch(heldout):
    """H76-H79, MLPerf Training v5.0 Llama 3.1 405B submissions not used before (NVIDIA 256 / 512 GB200, CoreWeave 1,536
    GB200, NVIDIA 2,432 H100), each with its config's layout, scored after the session's one model change (CDNA4), which
    moves no NVIDIA row: -18.0 / -18.7 / -15.0 / -4.0%, 16.5% median. The GB200 rows read fast by about as much as the
    other GB200 405B rows (H25, H45-H47: -13..-19%). Session 12's buckets (all but the last gradient bucket hides)
    move them -19.9 / -20.5 / -19.2 / -7.5%: 19.6% median, no longer within the 15% goal."""
    ratios = _held_out_ratios(heldout, 76, 79)
    assert len(ratios) == 4
    assert all(0.75 <= r <= 1.1 for r in ratios)
    assert statistics.median(abs(r - 1) for r in ratios) <= 0.20


def test_held_out_runs_of_session_12(heldout):
    """H80-H89, gathered in session 12 and scored blind on the session's starting main (0a20965) before any change.
    MobileLLM 125M / 350M / 600M / 1B / 1.5B (facebookresearch/MobileLLM README, 'Training cost': 1T tokens on 32
    A100 80G in ~3 / 6 / 8 / 12 / 18 days): blind +85 / +74 / +102 / +111 / +87%, and unmoved since. They are kept
    as published, a known conflict: the README's days imply more of the A100's dense BF16 peak than any published
    A100 run reaches (by hand below: the 1B at 30,100 tokens/s per GPU is 6 x 1.005e9 + 6 x 54 layers x 1,280 x 2,048
    FLOP per token with causal attention, 66% of 312 TFLOP/s, where Megatron-LM's best A100 runs reach 52% and
    FlashAttention-2's fused GPT runs ~62%). MLPerf Training v5.1 Llama 3.1 8B submissions not used before
    (mlcommons/training_results_v5.1 result logs): NVIDIA 72 x GB300, Cisco 8 x MI350X, Nebius 16 x B200 and 8 x B300,
    Supermicro 8 x B300: blind -12.8 / -19.7 / +15.5 / +26.0 / -8.9% (15.5% median; without layouts or stack +1.8 /
    -5.5 / +35.9 / +48.3 / +7.1%). H90, AMD-OLMo-1B (64 MI250 on 16 nodes of 4, 12,200 tokens/s per GPU for 1.3T
    tokens: 29,600 steady-state GPU-hours; amd/AMD-OLMo model card), scored blind on the starting main with only the
    MI250's catalog entry added: -19.4%, as the MI250X row H43 read before its servers were fixed and CDNA2 rows
    read fast."""
    amd = _held_out_ratios(heldout, 90, 90)
    assert len(amd) == 1 and 0.75 <= amd[0] <= 0.9
    mlperf = _held_out_ratios(heldout, 85, 89)
    assert len(mlperf) == 5
    assert all(0.7 <= r <= 1.35 for r in mlperf)
    assert statistics.median(abs(r - 1) for r in mlperf) <= 0.20
    mobile = _held_out_ratios(heldout, 80, 84)
    assert len(mobile) == 5 and all(1.6 <= r <= 2.2 for r in mobile)  # the conflict, by how much
    with open(DATA / "training_heldout.csv", newline="") as fh:
        one_b = next(r for r in csv.DictReader(fh) if r["id"] == "H83")
    rate = 1e12 / (float(one_b["gpu_hours"]) * 3600)
    assert 30_000 <= rate <= 30_300
    assert 0.65 <= rate * (6 * 1.005e9 + 6 * 54 * 1280 * 2048) / 312e12 <= 0.68


def test_the_backward_hides_all_but_the_last_gradient_bucket(heldout):
    """Data-parallel traffic hides behind compute bucket by bucket (PyTorch DDP's Reducer, Li et al. 2020, VLDB,
    section 3.2.3; Megatron-Core's overlap_grad_reduce, buckets of max(40M, 1M x DP) parameters), which replaced the
    unsourced comm_overlap_fraction of 0.5 (session 12). The rows that hinged on it, University of Florida's and
    Verda's context-parallel Llama 3.1 8B runs on 32-256 B200 (one 8k sequence per 2 GPUs, so the reduction of the
    8B gradients is as long as the compute), were +30..+47% under the flat 0.5 and are now within 15%: H60 +43.5
    -> +7.0%, H61 +47.4 -> +11.7%, H70 +32.9 -> -3.8%, H71 +45.0 -> +8.1%, H72 +30.0 -> +0.1%. The cost of the hidden
    part's NVLink share (data_parallel.dp_contention, session 24) adds 3-5 points: +11.4 / +15.8 / +1.1 / +12.5 / +3.5%,
    on gradients still counted in fp32 and weights in bf16 where NeMo reduces bf16 and gathers FP8 (session 11)."""
    cp_rows = [heldout[n] for n in (60, 61, 70, 71, 72)]
    assert all(abs(est / published - 1) <= 0.16 for _, est, published in cp_rows)


def test_held_out_runs_of_session_13(heldout):
    """H91-H97, gathered in session 13 and scored blind on the session's starting main (b2c6f16): -74.7 / +72.9 /
    +49.8 / +98.9 / +89.7 / +74.6 / +60.2%. The six one-node runs publish stacks that fuse the memory-bound work:
    nanochat compiles the whole model (karpathy/nanochat scripts/base_train.py, torch.compile; FlashAttention-3) and
    llm.c fuses by hand (karpathy/llm.c train_gpt2.cu: fused_residual_forward5, llmc/fused_classifier.cuh, cuDNN
    flash attention); in the fused-kernel class (runtime.yaml training_stacks litgpt, s = 0.4 from FlashAttention-2's
    GPT3-2.7B figures) they read +12 / +2 / +28 / +34 / +25 / +5%: the A100 rows stay slow. Lucie-7B (H91) is a known
    conflict: 550,000 H100-hours for 3.13T tokens (its model card) is, by hand, 1,582 tokens/s per GPU x (6 x 6.441e9
    matmul parameters + 6 x 32 layers x 4,096 x 4,096 causal attention) = 66 TFLOP/s, 6.7% of the H100's 989 TFLOP/s,
    where gpuwise runs the card's own launch script (TP4 PP4, ZeRO-0, full recomputation) about 2.9 times as fast."""
    small = _held_out_ratios(heldout, 92, 97)
    assert len(small) == 6 and all(0.95 <= r <= 1.40 for r in small)
    assert statistics.median(abs(r - 1) for r in small) <= 0.30
    # session 14: the card's hours are the repository's own sum of logged iteration time x world size
    # (Lucie-Training assets/hugging_face/plot_training_loss.py), so the row is scored on the steady-state basis
    # branch trainaudit32: the hours are that sum itself, as the repository tabulates it for the three stages
    # (Lucie-Training chronicles/pretrain/{1_pretraining,2_extension,3_annealing}/training_logs.csv, last rows:
    # gputime 486,654.26 / 1,657.54 / 1,657.10 h at 3,121,742,086,144 / 4,997,120,000 / 4,997,120,000 tokens),
    # not the card's round 550,000, which is 12% more
    lucie = _held_out_ratios(heldout, 91, 91)
    assert len(lucie) == 1 and 0.33 <= lucie[0] <= 0.40
    with open(DATA / "training_heldout.csv", newline="") as fh:
        row = next(r for r in csv.DictReader(fh) if r["id"] == "H91")
    assert float(row["gpu_hours"]) == pytest.approx(486_654.26 + 1_657.54 + 1_657.10, abs=0.1)
    assert float(row["training_tokens_b"]) * 1e9 == pytest.approx(3_121_742_086_144 + 2 * 4_997_120_000, abs=1e6)
    assert 550_000 / float(row["gpu_hours"]) == pytest.approx(1.12, abs=0.005)
    rate = float(row["training_tokens_b"]) * 1e9 / (float(row["gpu_hours"]) * 3600)
    assert 1_770 <= rate <= 1_780
    flops = 6 * (6.706958e9 - 65_024 * 4096) + 6 * 32 * 4096 * 4096
    assert 0.072 <= rate * flops / 989.4e12 <= 0.078


def test_held_out_runs_of_session_14(heldout):
    """H98-H101, gathered in session 14 and scored blind on the session's starting main (594a0f3): -26.8 / -3.8 /
    +2.9 / +12.6% (Phi-4-reasoning's 32k-token SFT on 32 H100, microsoft/Phi-4-reasoning card: 32 x 2.5 days;
    AMD-Llama-135m on 16 MI250 for six days; nanochat d26 FP8 at the 0.5M batch, 8 x 10,493 s; OpenELM-3B on 128
    H100 for 13 days). After attention ran at its kernel's rate (training.attention_kernels) Phi-4-reasoning's
    32k sequences, a third of whose FLOPs are attention, read -18%; every row stays within 1.25x."""
    rows = _held_out_ratios(heldout, 98, 101)
    assert len(rows) == 4 and all(0.80 <= r <= 1.25 for r in rows)
    by_id = _held_out_rows()
    assert float(by_id["H98"]["gpu_hours"]) == 32 * 2.5 * 24
    assert float(by_id["H99"]["gpu_hours"]) == 4 * 4 * 6 * 24
    assert float(by_id["H100"]["gpu_hours"]) == pytest.approx(8 * 10_493 / 3600, abs=0.001)
    assert float(by_id["H100"]["training_tokens_b"]) * 1e9 == pytest.approx(14_889 * 524_288, rel=1e-6)
    assert float(by_id["H101"]["gpu_hours"]) == 128 * 13 * 24
    assert float(by_id["H101"]["training_tokens_b"]) * 1e9 == pytest.approx(350_000 * 16 * 128 * 2048, rel=1e-6)


def test_held_out_runs_of_session_15(heldout):
    """H102-H111, MLPerf Training v5.1 Llama 2 70B LoRA fine-tunes (mlcommons/training_results_v5.1 result logs:
    samples to the 0.925 target x 8,192 tokens, training blocks summed), the first fine-tune rows. Scored blind on
    the session's starting main (4bbb44a): +51.8 / +85.0 / -20.9 / -25.4 / -8.2 / -20.1 / -0.9 / -26.7 / -22.4 /
    +3.7%, 21.6% median (1.85x, NVFP4 on 8 GB300). Two mechanisms after: NVFP4 LoRA runs FP4 GEMMs (it ran at
    BF16's rate), and attention keeps its full backward under frozen weights: 17.0% median, 1.35x. Then TE's
    frozen GEMMs keep no inputs (the runs' own layouts fit) and LoRA's memory-bound share is 6 / 4 of full
    training's: 9.2% median, every row within 0.70-1.20x."""
    rows = _held_out_ratios(heldout, 102, 111)
    assert len(rows) == 10 and all(0.70 <= r <= 1.20 for r in rows)
    assert statistics.median(abs(r - 1) for r in rows) <= 0.20
    by_id = _held_out_rows()
    # NVIDIA/results/theia_ngpu8_ngc25.09_nemo/llama2_70b_lora: 10 runs, mean 5.2522 min of training blocks, mean
    # 3,110.4 samples of 8,192 tokens; tyche_ngpu512: 0.4020 min on 512 GB200, 7,296 samples
    assert float(by_id["H103"]["gpu_hours"]) == pytest.approx(8 * 5.2522 / 60, abs=1e-4)
    assert float(by_id["H103"]["training_tokens_b"]) * 1e9 == pytest.approx(3110.4 * 8192, rel=1e-4)
    assert float(by_id["H105"]["gpu_hours"]) == pytest.approx(512 * 0.4020 / 60, abs=1e-3)
    assert float(by_id["H105"]["training_tokens_b"]) * 1e9 == pytest.approx(7296 * 8192, rel=1e-4)
    assert all(by_id[f"H{n}"]["method"] == "lora" and by_id[f"H{n}"]["lora_targets"] == "attention"
               for n in range(102, 112))


def test_held_out_runs_of_session_15_second_batch(heldout):
    """H112-H118, MLPerf Training v5.1 LoRA submissions not used before (Cisco 64 / 128 H100, University of Florida 64
    B200, Nebius 32 B200 NVFP4, Wiwynn 576 GB200, Lenovo 8 B300, AMD 8 MI350X), scored blind after the session's two
    LoRA mechanisms: -24.8 / -26.4 / +23.2 / -9.7 / -23.5 / -3.7 / -25.4%, 23.5% median, worst 1.36x. H114 reads slow
    because gpuwise's memory model added recomputation the run's config (TP1 CP8, no recompute) did not use; with TE's
    frozen GEMMs keeping no inputs it fits (-5.3% after the session's last two mechanisms; the batch 13.9%, 1.21x)."""
    rows = _held_out_ratios(heldout, 112, 118)
    assert len(rows) == 7 and all(0.70 <= r <= 1.30 for r in rows)
    by_id = _held_out_rows()
    # Cisco/results/hpf_n8/llama2_70b_lora: 64 H100, mean 3.7140 min of training blocks, 3,148.8 samples of 8,192
    assert float(by_id["H112"]["gpu_hours"]) == pytest.approx(64 * 3.7140 / 60, abs=1e-3)
    assert float(by_id["H112"]["training_tokens_b"]) * 1e9 == pytest.approx(3148.8 * 8192, rel=1e-4)
    # Wiwynn/results/8xKinabalux18x4GB200: 144 x 4 GB200, 0.3773 min, 7,516.8 samples
    assert float(by_id["H116"]["gpu_hours"]) == pytest.approx(576 * 0.3773 / 60, abs=1e-3)


def test_held_out_runs_of_session_15_third_batch(heldout):
    """H119-H125, MLPerf Training v5.0 Llama 2 70B LoRA submissions (mlcommons/training_results_v5.0), scored blind on
    the model after all of session 15's changes: -47.5 / -20.1 / -17.1 / -23.4 / +14.8 / -1.4 / -43.7%, 20.1% median,
    worst 1.91x (Oracle's 512 H200 at one sequence per data-parallel rank; MangoBoost's 4 x 8 MI300X on Ethernet)."""
    rows = _held_out_ratios(heldout, 119, 125)
    assert len(rows) == 7 and all(0.50 <= r <= 1.20 for r in rows)
    by_id = _held_out_rows()
    # HPE/results/HPE-Cray-XD670-H200-SXM5-141GB_n4_24.09: 32 H200, mean 7.7977 min of training blocks, 4,070.4 samples
    assert float(by_id["H124"]["gpu_hours"]) == pytest.approx(32 * 7.7977 / 60, abs=1e-3)
    assert float(by_id["H124"]["training_tokens_b"]) * 1e9 == pytest.approx(4070.4 * 8192, rel=1e-4)


def test_held_out_runs_of_session_16(heldout):
    """H126-H136, Llama 2 70B LoRA submissions of MLPerf Training v4.1, v5.0 and v5.1 no row had used, scored blind
    on session 16's starting model: -25.9 / -24.2 / -33.9 / -3.6 / +45.4 / -8.5 / -20.9 / +15.2 / -17.8 / +195.5 /
    +0.7%, 20.9% median, worst 2.96x (H135, Dell's 8 H200 NVL, whose FP8-parameter base gpuwise held in 16 bit and
    so moved to ZeRO-3 over PCIe). With FP8 parameters, H200 NVL's nvidia-smi capacity and the planner timing each
    recomputation level, H135 reads +21%; H130 (GigaComputing's 8 H200) was entered as BF16 and is corrected to the FP8
    its config exports (+45% -> +8%)."""
    rows = _held_out_ratios(heldout, 126, 136)
    assert len(rows) == 11 and all(0.60 <= r <= 1.25 for r in rows)
    assert 0.95 <= heldout[135][1] / heldout[135][2] <= 1.30
    by_id = _held_out_rows()
    # NVIDIA/results/eos_n128_ngc24.09_nemo: 1,024 H100, mean 0.943 min of training blocks, 11,251.2 samples
    assert float(by_id["H126"]["gpu_hours"]) == pytest.approx(1024 * 0.943 / 60, abs=0.01)
    assert float(by_id["H126"]["training_tokens_b"]) * 1e9 == pytest.approx(11251.2 * 8192, rel=1e-4)


def test_held_out_runs_of_session_16_second_round(heldout):
    """H137-H140, 2024 pretraining and continued-pretraining runs whose cards give a GPU count and wall-clock days
    (sources per row): Falcon2-11B (1,024 A100-40GB, roughly two months, 5.5T tokens), Falcon-Mamba-7B (256 H100,
    roughly two months, 5.5T), Zamba2-7B (128 H100, about 50 days, 3.1T) and AURORA-M (StarCoderPlus continued on
    435B tokens, 128 MI250X, 48 days). Scored blind on session 16's main (848267a): -22.5 / -51.0 / -40.3 / -37.3%,
    38.8% median, worst 2.04x (H138): all read fast, the two SSM models most (gpuwise costs Mamba layers as a
    transformer's GEMMs)."""
    by_id = _held_out_rows()
    # the cards' GPUs x days x 24 h
    for rid, gpus, days in (("H137", 1024, 60), ("H138", 256, 60), ("H139", 128, 50), ("H140", 128, 48)):
        assert float(by_id[rid]["gpu_hours"]) == pytest.approx(gpus * days * 24)
        assert int(by_id[rid]["gpus"]) == gpus
    rows = _held_out_ratios(heldout, 137, 140)
    assert len(rows) == 4 and all(0.45 <= r <= 0.85 for i, r in enumerate(rows) if i != 2)
    # session 23: Falcon-Mamba-7B's Mamba-1 layers pay the selective scan's memory-bound work (runtime.yaml
    # training.mamba1_scan_k; tests/test_mamba_scan.py): -51.3% -> -33.5%, inside 2x
    assert 0.60 <= rows[1] <= 0.72
    # session 20: Zamba2-7B's two shared transformer blocks run 13 times among 81 Mamba2 layers (its config.json), so a
    # token goes through 7.4 + 11 x 0.334 = 11.07B parameters' matmuls, not 7.4B (tests/test_attention_and_shared_
    # blocks.py): the row reads within a few percent once its published shape is given
    assert 0.90 <= rows[2] <= 1.10
    # H141 MicroLlama-300M: 4 RTX 4090 for 4 days (its README), on TinyLlama's lit-gpt stack: +3.3% blind
    assert float(by_id["H141"]["gpu_hours"]) == pytest.approx(4 * 4 * 24)
    assert 0.85 <= heldout[141][1] / heldout[141][2] <= 1.20


def test_held_out_runs_of_session_17(heldout):
    """H142-H144, scored blind on session 17's starting main (0edf6cf): Zamba-7B (Zyphra's release: 128 H100 'in 30
    days', 1T + 50B annealing tokens), Motif 2.6B (its card: 384 MI250X, 42 days, 2.4T tokens), L20-Edu-135M (its
    card: one L20, 10,001,252,352 tokens at a logged mean 38,541 tokens/s): -63.6 / -71.1 / +117.9%. After the L20's
    measured GEMM share and its card's torch.compile (both later in the session) H144 reads +1.4%."""
    by_id = _held_out_rows()
    assert float(by_id["H142"]["gpu_hours"]) == pytest.approx(128 * 30 * 24)
    assert float(by_id["H142"]["training_tokens_b"]) == pytest.approx(1000 + 50)
    assert float(by_id["H143"]["gpu_hours"]) == pytest.approx(384 * 42 * 24)
    assert float(by_id["H144"]["gpu_hours"]) == pytest.approx(10_001_252_352 / 38_541 / 3600, abs=0.05)
    # the two wall-clock rows read fast (their 6ND implies 13% and 7% of the dense BF16 peak); the single-GPU run slow.
    # Session 20: Zamba-7B's one shared block runs 13 times (transformers' ZambaConfig: a hybrid layer at index 2 and
    # at every i % 6 == 4 of the next 73), so a token goes through 7.2325 + 12 x 0.35825 = 11.53B parameters' matmuls:
    # 1.59x the FLOPs of 6ND, and the row reads -37% where it read -64% (still fast: the Mamba-1 scan is not costed).
    # Session 23: its Mamba-1 layers (architecture.ssm mamba1) pay the scan's memory-bound work (runtime.yaml
    # training.mamba1_scan_k, set on fla-org/flash-linear-attention issue #32's table, tests/test_mamba_scan.py):
    # -37.2% -> -19.6%
    assert 0.75 <= heldout[142][1] / heldout[142][2] <= 0.85 and heldout[143][1] / heldout[143][2] < 0.5
    assert 0.85 <= heldout[144][1] / heldout[144][2] <= 1.20


def test_held_out_runs_of_session_17_later(heldout):
    """H145 GPUburnout-1B (its card: one A100, 11.8B tokens at ~28,535 tokens/s) and H146 GPT-2 small 163M (Giles
    Thomas's 'LLM from scratch' part 28: one RTX 3090, ~3.2B tokens, about 48 hours), scored blind after the session's
    changes: +40.3 / -34.1%."""
    by_id = _held_out_rows()
    assert float(by_id["H145"]["gpu_hours"]) == pytest.approx(11.8e9 / 28_535 / 3600, abs=0.1)
    assert float(by_id["H146"]["gpu_hours"]) == pytest.approx(48)
    assert all(0.5 <= heldout[n][1] / heldout[n][2] <= 2.0 for n in (145, 146))


def test_held_out_runs_of_session_23(heldout):
    """H181-H188, MLPerf Training v6.0 runs no row had used (Richardyu114/training_results_v6.0, a copy of
    mlcommons/training_results_v6.0 at eabf23a0), scored blind on the session's starting main (ced47b2):
    -27.7 / -16.4 / -12.7 / +17.7 / +19.5 / -15.3 / -15.5 / +3.5%. The hours as the sources give them: steps x the
    logged step time for NVIDIA's two runs, and MLPerf's time-to-train (minutes) from each submitter's summary.json
    for the eight-B300 runs."""
    by_id = _held_out_rows()
    # theia, 512 GB300: 3,456 steps of 64 x 8,192 tokens at 14.55 s per block of 192 steps; 221,184 samples
    assert float(by_id["H181"]["gpu_hours"]) == pytest.approx(512 * 3456 * 14.553 / 192 / 3600, abs=0.05)
    assert float(by_id["H181"]["training_tokens_b"]) == pytest.approx(221_184 * 8192 / 1e9, abs=1e-6)
    # theia-cmh, 2,048 GB300: 342 steps of 1,024 x 8,192 tokens at 3.069 s
    assert float(by_id["H188"]["gpu_hours"]) == pytest.approx(2048 * 342 * 3.069 / 3600, abs=0.1)
    assert float(by_id["H188"]["training_tokens_b"]) == pytest.approx(342 * 1024 * 8192 / 1e9, abs=1e-6)
    for rid, minutes in (("H182", 77.328), ("H183", 74.081), ("H184", 85.155), ("H185", 85.131), ("H186", 6.759),
                         ("H187", 6.771)):
        assert float(by_id[rid]["gpu_hours"]) == pytest.approx(8 * minutes / 60, abs=0.001), rid
    assert all(0.70 <= heldout[n][1] / heldout[n][2] <= 1.30 for n in range(181, 189))


def test_a_held_out_run_is_outside_the_2x_criterion_only_by_its_sources_words(heldout, accuracy):
    """A held-out row is listed apart from the 2x criterion only where its source says (or the source's code that
    computed it shows) the figure is not the GPUs' own time, and it stays in every median. H180 Fietje 2
    (BramVanroy/fietje-2's card): 'Accounting for waiting for jobs, training took around two weeks on four nodes of
    4x A100 80GB each', so 16 x 14 x 24 = 5,376 h is an upper bound; gpuwise's 1,477 h is 3.64x under it. H553:
    tests/test_train2x57.py."""
    rows = _held_out_rows()
    outside = accuracy.heldout_outside_criterion()
    assert set(outside) == {"H180", "H231", "H553"}
    assert "waiting for jobs" in outside["H180"] and "waiting for jobs" in rows["H180"]["hours_kind"]
    assert all(r["criterion"] == "" or r["criterion"].startswith("outside: ") for r in rows.values())
    assert float(rows["H180"]["gpu_hours"]) == pytest.approx(16 * 14 * 24)
    assert 180 in heldout and heldout[180][1] / heldout[180][2] < 0.5  # still scored, still a miss


def test_a_held_out_run_whose_sources_disagree_on_its_tokens_is_outside_the_2x_criterion(heldout, accuracy):
    """H231, Gradient's 1048K stage of Llama-3-8B-Instruct-Gradient-1048k (branch trainaudit32). That card's table:
    batch 16, 50 steps, 'Total Tokens' 838,860,800 = 50 x 16 x 1,048,576 ('We trained on 830M tokens for this
    stage'); the publisher's Llama-3-8B-Instruct-Gradient-4194k card reprints the column with batch 8, accumulation
    1, 50 steps and the same total, which 50 x 8 x 1,048,576 = 419,430,400 does not give, while its 4191k column
    multiplies out (12 x 2 x 2 x 4,194,304 = 201,326,592). By hand on the 87 minutes of 512 L40S (362 TFLOP/s dense
    BF16): 838,860,800 / (512 x 5,220 s) = 313.9 tokens/s a GPU x (6 x 8.03e9 + 6 x 32 x 4,096 x 1,048,576 causal
    attention) = 2.74e14 FLOP/s, 76% of the peak; at batch 8, 38%."""
    rows = _held_out_rows()
    crit = accuracy.heldout_outside_criterion()["H231"]
    assert "'Batch Size' 16" in crit and "'Batch Size' 8" in crit and "838860800" in crit
    assert 50 * 16 * 2**20 == 838_860_800 == round(float(rows["H231"]["training_tokens_b"]) * 1e9)
    assert 50 * 8 * 2**20 == 419_430_400 and 12 * 2 * 2 * 2**22 == 201_326_592
    assert float(rows["H231"]["gpu_hours"]) == pytest.approx(512 * 87 / 60)
    rate = 838_860_800 / (512 * 87 * 60)
    share = rate * (6 * 8.03e9 + 6 * 32 * 4096 * 2**20) / 362e12
    assert share == pytest.approx(0.757, abs=0.005) and share / 2 == pytest.approx(0.378, abs=0.003)
    assert 231 in heldout and heldout[231][1] / heldout[231][2] > 2  # still scored, still a miss


def test_held_out_runs_of_session_24(heldout):
    """H190-H199, scored blind on the session's starting main (00c6ff56): -18.1 / -23.2 / -1.4 / +6.4 / -5.1 /
    +24.5 / -45.7 / +66.1 / +87.8 / +30.2%. MLPerf Training v6.0 submitters no row had used (Richardyu114/
    training_results_v6.0, a copy of mlcommons/training_results_v6.0 at eabf23a0), steps x the logged step time;
    the Tucano cards (Nkluge-correa/Tucano cards/models/*.md: GPUs x the card's hours, tokens = steps x the
    specs-*.yml batch)."""
    by_id = _held_out_rows()
    # Krai, 4 GH200: 3,072 samples of 8,192 at 8 a step, 9.013 s logged
    assert float(by_id["H190"]["gpu_hours"]) == pytest.approx(4 * 3072 / 8 * 9.013 / 3600, abs=0.005)
    assert float(by_id["H190"]["training_tokens_b"]) == pytest.approx(3072 * 8192 / 1e9, abs=1e-6)
    # Krai, 64 GH200: 4,224 samples at 16 a step, 1.240 s
    assert float(by_id["H191"]["gpu_hours"]) == pytest.approx(64 * 4224 / 16 * 1.240 / 3600, abs=0.005)
    # Cisco, 16 nodes x 8 H100: 221,184 samples at 64 a step; NVIDIA, 1,024 GB200: the same tokens at 0.07183 s
    assert float(by_id["H192"]["gpu_hours"]) == pytest.approx(128 * 3456 * 0.3513 / 3600, abs=0.01)
    assert float(by_id["H196"]["gpu_hours"]) == pytest.approx(1024 * 3456 * 0.07183 / 3600, abs=0.01)
    # Cisco, 16 H200: 188,416 samples at 32 a step, 1.1804 s; HPE, 16 GB300: 229,376 at 32, 0.35426 s
    assert float(by_id["H193"]["gpu_hours"]) == pytest.approx(16 * 5888 * 1.1804 / 3600, abs=0.01)
    assert float(by_id["H195"]["gpu_hours"]) == pytest.approx(16 * 7168 * 0.35426 / 3600, abs=0.005)
    # MiTAC, 8 MI325X: 172,032 samples at 12,288 per 967.8 s
    assert float(by_id["H194"]["gpu_hours"]) == pytest.approx(8 * 172_032 / 12_288 * 967.8 / 3600, abs=0.01)
    for rid, gpus, hours, steps, batch in (("H197", 8, 44, 320_000, 524_288), ("H198", 16, 180, 480_000, 524_288),
                                           ("H199", 16, 845, 1_960_000, 262_144)):
        assert float(by_id[rid]["gpu_hours"]) == gpus * hours, rid
        assert float(by_id[rid]["training_tokens_b"]) == pytest.approx(steps * batch / 1e9, abs=1e-5), rid
    assert all(0.5 <= heldout[n][1] / heldout[n][2] <= 2.0 for n in range(190, 200))


def test_held_out_runs_of_session_25(heldout):
    """H200-H208, scored blind on the session's starting main (32e90565): -4.6 / +71.9 / +9.8 / -1.5 / +1.8 / -22.4 /
    +3.7 / -12.9 / +2.0%. MLPerf Training v6.0 submitters and systems no row had used (Richardyu114/
    training_results_v6.0, a copy of mlcommons/training_results_v6.0 at eabf23a0): GPUs x steps x the logged step."""
    by_id = _held_out_rows()
    # CoreWeave, 64 B200: 233,472 samples of 8,192 at 64 a step (3,648 steps), 0.24643 s a step
    assert float(by_id["H200"]["gpu_hours"]) == pytest.approx(64 * 3648 * 0.24643 / 3600, abs=0.005)
    assert float(by_id["H200"]["training_tokens_b"]) == pytest.approx(233_472 * 8192 / 1e9, abs=1e-6)
    # gpt-oss-20b: 319,488 samples at 64 a step, 125.05 s per 384-step block
    assert float(by_id["H201"]["gpu_hours"]) == pytest.approx(64 * 4992 * 125.048 / 384 / 3600, abs=0.005)
    # 405B on 4,096 GB300: 331,776 samples at 1,024 a step, 30.788 s per 18-step block
    assert float(by_id["H202"]["gpu_hours"]) == pytest.approx(4096 * 324 * 30.788 / 18 / 3600, abs=0.05)
    # DeepSeek-V3: 16,384 sequences of 4,096 a step; 46 steps at 6.268 s on 2,048, 45 at 1.735 s on 8,192 GB300
    assert float(by_id["H203"]["training_tokens_b"]) == pytest.approx(46 * 16_384 * 4096 / 1e9, abs=1e-5)
    assert float(by_id["H203"]["gpu_hours"]) == pytest.approx(2048 * 46 * 6.268 / 3600, abs=0.05)
    assert float(by_id["H204"]["gpu_hours"]) == pytest.approx(8192 * 45 * 1.7349 / 3600, abs=0.05)
    # NVIDIA, 512 GB300: gpt-oss-20b 4,608 steps at 0.09111 s; LoRA 144 steps of 64 samples at 0.1530 s
    assert float(by_id["H205"]["gpu_hours"]) == pytest.approx(512 * 4608 * 0.09111 / 3600, abs=0.01)
    assert float(by_id["H206"]["gpu_hours"]) == pytest.approx(512 * 144 * 0.1530 / 3600, abs=0.001)
    # AMD, 8 MI355X: 184,320 samples at 32 a step, 384-step blocks of 336.17 s on average
    assert float(by_id["H207"]["gpu_hours"]) == pytest.approx(8 * 5760 * 336.1735 / 384 / 3600, abs=0.005)
    # Krai, 64 H200: 3,840 samples at 18.096 samples/s
    assert float(by_id["H208"]["gpu_hours"]) == pytest.approx(64 * 3840 / 18.096 / 3600, abs=0.001)
    assert all(0.5 <= heldout[n][1] / heldout[n][2] <= 2.0 for n in range(200, 209))


def test_held_out_runs_of_branch_trainblind7(heldout):
    """H300-H302, scored blind on the branch's starting main (f1db361c): +10.4 / +25.9 / -34.3%. SEA-LION-v1 3B / 7B
    (aisingapore/sealion at 5c9f65a, models/sea-lion-v1/sea-lion-v1.md: 240 / 256 A100 40GB for 14 / 22 days, 980B
    tokens, batch 1,200 / 2,048 x 2,048); NVIDIA's Llama 3.1 8B on 512 GB200 (mlcommons/training_results_v5.1 at
    441d65f4, NVIDIA/results/tyche_ngpu512_ngc25.09_nemo/llama31_8b: 10 runs, samples to the target x 8,192)."""
    by_id = _held_out_rows()
    for rid, gpus, days, batch in (("H300", 240, 14, 1200), ("H301", 256, 22, 2048)):
        assert float(by_id[rid]["gpu_hours"]) == gpus * days * 24, rid
        assert float(by_id[rid]["global_batch_tokens"]) == batch * 2048, rid
    # MPT's GELU MLP (2 matrices of 4 x d_model) entered as 3 matrices of the same weights; the embedding tied
    for rid, d, ffn in (("H300", 2560, 6827), ("H301", 4096, 10923)):
        params = 32 * (4 * d * d + 3 * d * ffn) + 256_000 * d
        assert 3 * ffn == pytest.approx(8 * d, rel=1e-4), rid
        assert params / 1e9 == pytest.approx(float(by_id[rid]["params_b"]), abs=0.005), rid
    # ten runs: 2,236,416 samples of 8,192 to the target in all, 52.4886 min of training blocks in all
    assert float(by_id["H302"]["training_tokens_b"]) == pytest.approx(2_236_416 / 10 * 8192 / 1e9, abs=1e-6)
    assert float(by_id["H302"]["gpu_hours"]) == pytest.approx(512 * 52.4886 / 10 / 60, abs=0.01)
    assert all(0.5 <= heldout[n][1] / heldout[n][2] <= 2.0 for n in range(300, 303))


def test_liger_kernel_fuses_the_memory_bound_passes_and_chunks_the_loss(kb, heldout):
    """workload.liger_kernel: Liger Kernel's apply_liger_kernel_to_llama patches RMSNorm, rotary, SwiGLU and the
    loss (fused linear cross-entropy) by default (linkedin/Liger-Kernel src/liger_kernel/transformers/
    monkey_patch.py), so the step pays compiled_memory_bound_scale (0.4) of the middle's memory-bound work, as
    torch.compile does: L20-Edu-135M's shape on an L20 at MFU = 0.66 x (1 + 7.5 r / 8,192) / (1 + 3 r / 576) =
    0.432; and the loss holds the logits a chunk at a time (training.ce_chunks), as chunked_cross_entropy does.
    The Tucano cards (H197-H199: PyTorch DDP, FlashAttention-2, apply_liger_kernel_to_llama(); Nkluge-correa/Tucano
    train-tucano.py) read +66.1 / +87.8 / +30.2% blind on the middle stack (the 1b1 put on ZeRO-3 with CPU offload,
    its 16 x 2,048-token micro-batch not fitting with 12 B of logits a vocabulary entry), +6.5 / +8.4 / +6.5% with
    the condition."""
    from gpuwise.estimators import step_time
    from gpuwise.estimators.candidate import training_job
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    arch = {"layers": 30, "hidden_size": 576, "heads": 9, "kv_heads": 3, "ffn_size": 1536, "vocab_size": 49152,
            "tied_embeddings": True}
    base = {"task": "pretrain", "params_b": 0.1345, "architecture": arch, "seq_len": 2048, "train_tokens": 1e10}
    r = 119.5e12 / 864e9

    def job(**extra):
        return training_job(resolve(Requirements.model_validate({"workload": {**base, **extra}}), kb))

    def mfu(**extra):
        return step_time.gpu_speed(job(**extra), kb.gpus["l20"])[1].value

    assert mfu(liger_kernel=True) == pytest.approx(0.66 * (1 + 7.5 * r / 8192) / (1 + 3.0 * r / 576), rel=1e-6)
    assert mfu(liger_kernel=True) == pytest.approx(mfu(torch_compile=True), rel=1e-12)
    assert mfu(liger_kernel=True) > mfu() * 1.2  # the middle pays the whole k = 7.5
    assert job(liger_kernel=True).ce_chunks == kb.runtime.training.ce_chunks.value == job(
        chunked_cross_entropy=True).ce_chunks
    assert job().ce_chunks == 0
    rows = _held_out_rows()
    assert all(float(rows[f"H{n}"]["gpu_hours"]) > 0 for n in (197, 198, 199))
    assert all(0.9 <= heldout[n][1] / heldout[n][2] <= 1.1 for n in (197, 198, 199))


def test_trinity_large_states_the_reports_own_batch_group_and_stack(heldout):
    """H224, Arcee's Trinity Large, re-read in its technical report (arXiv:2602.17004, section 3.3-3.4; branch
    trainaudit32): 'We use a modified version of TorchTitan', 'Fully-Sharded Data Parallel (FSDP) ... is used within
    the replica group', 'For all models, we set the FSDP group size to 128. For Trinity Large, we set the EP group
    size to 8', 'We train with global batch size 12288 at sequence length 8192, and increase the global batch size
    to 16384 after crossing 4.9T tokens'. By hand: 16,384 x 8,192 = 134,217,728 tokens (the report's '128M
    (134,217,728) tokens'), 8 sequences per rank per step on 2,048 ranks; 4.9T / 100,663,296 + 12.1T / 134,217,728
    = 138,829 steps, so the ~33 days over them are 20.5 s a step, restarts and the collapsed first runs included.
    The micro-batch is not published: with one sequence per micro-batch gpuwise gathered the FSDP shards 8 times a
    step and the row read 4.3x slow (+329.7%); torchtitan's own default local_batch_size of 8 (runtime.yaml
    training_stacks local_batch, branch moetrain37) is the whole 8 sequences in one micro-step, and the row reads
    -40.8% (11.2 s a step against the 20.5 s the days imply with restarts and the collapsed first runs)."""
    with open(DATA / "training_conditions.csv", newline="") as fh:
        cond = next(r for r in csv.DictReader(fh) if r["id"] == "H224")
    assert (cond["stack"], cond["zero"], cond["dp_shard"], cond["ep"]) == ("torchtitan", "3", "128", "8")
    assert int(cond["global_batch_tokens"]) == 16_384 * 8_192 == 134_217_728 and cond["micro_batch"] == ""
    assert 16_384 * 8_192 // (2_048 * 8_192) == 8 and 12_288 * 8_192 == 100_663_296
    steps = 4.9e12 / 100_663_296 + 12.1e12 / 134_217_728
    assert steps == pytest.approx(138_829, abs=2)
    assert 33 * 86_400 / steps == pytest.approx(20.5, abs=0.05)
    assert 224 in heldout and 0.5 < heldout[224][1] / heldout[224][2] < 1  # scored; the micro-batch decides it
