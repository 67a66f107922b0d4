"""The links a training run crosses (issue 22): GPUs per server, the network between servers as the
user states it, and the tensor-parallel overlap a stack brings. Each checked by hand or against a source."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.errors import UserError
from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import capacity_bytes, training_job
from gpuwise.estimators.step_time import dp_traffic, gpu_rates, step_time
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

PRETRAIN_70B = {"task": "pretrain", "model": "llama-3.1-70b", "train_tokens": 1e10}


def test_a_gh200_server_holds_four_gpus_on_nvlink(kb):
    """CSCS Alps (eth-cscs/cscs-docs docs/alps/hardware.md): 2,688 GH200 nodes hold 10,752 GPUs, four per
    node with one NIC each. 8 GH200 are 2 servers of 4 on NVLink (450 GB/s one way), not one 8-GPU server
    whose GPUs beyond the NVLink domain would talk over PCIe; 8 H100 SXM stay one HGX server."""
    gh = I.topology(kb.gpus["gh200-96gb"], 8, kb.runtime)
    assert (gh.nodes, gh.per_node, gh.intra_kind, gh.intra_gb_s) == (2, 4, "nvlink", 450)
    hgx = I.topology(kb.gpus["h100-80gb-sxm"], 8, kb.runtime)
    assert (hgx.nodes, hgx.per_node) == (1, 8)


def test_the_network_between_servers_is_the_users_to_state(kb):
    """constraints.network names the fabric the run crosses: AWS p4de's 400 Gb/s EFA per instance (the
    catalog's ethernet-400, shared by 8 GPUs: 6.25 GB/s each) against the default 400 Gb/s InfiniBand per
    GPU (50 GB/s each). The same 70B job on 64 A100 waits longer on the network over EFA."""
    w = {"workload": PRETRAIN_70B}
    ib = estimate(w, gpu="a100-80gb-sxm", gpus=64).gpu.training
    efa = estimate({**w, "constraints": {"network": "ethernet-400"}}, gpu="a100-80gb-sxm", gpus=64).gpu.training
    assert efa.step_terms.compute_s > 0
    assert efa.mfu_whole_run < ib.mfu_whole_run
    job = resolve(Requirements.model_validate({**w, "constraints": {"network": "ethernet-400"}}), kb)
    from gpuwise.estimators.candidate import evaluate

    ev = evaluate(job, kb.gpus["a100-80gb-sxm"], 64)
    assert ev.topology.network == "ethernet-400"
    assert ev.topology.network_gb_s_per_gpu == pytest.approx(50.0 / 8)


def test_an_unknown_network_is_one_line_with_a_suggestion(kb):
    with pytest.raises(UserError) as e:
        resolve(Requirements.model_validate({"workload": PRETRAIN_70B,
                                             "constraints": {"network": "slingshot-20"}}), kb)
    assert str(e.value) == ("requirements: constraints.network: unknown network 'slingshot-20' "
                            "(did you mean slingshot-200?)")


def _tp_seconds(kb, stack: str | None, gpu: str, n: int, tp: int, precision: str = "bf16") -> float:
    w = {**PRETRAIN_70B, "precision": precision, **({"stack": stack} if stack else {})}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    tj = training_job(job)
    g = kb.gpus[gpu]
    topo = I.topology(g, n, kb.runtime)
    lay = P._layout(tj, n, tp, 1, 1, 1, 1, (1, False, "none"))
    return step_time(tj, P.figures(tj, lay), gpu_rates(tj, g, topo)).tp


def test_nemo_hides_three_quarters_of_tensor_parallel_traffic_inside_nvlink(kb):
    """NeMo overlaps the sequence-parallel all-gathers and reduce-scatters with the GEMMs through Transformer
    Engine userbuffers, exposing one chunk of four (runtime.yaml training_stacks nemo tp_comm_overlap 0.75);
    Megatron-LM leaves it off by default (--tp-comm-overlap), so the same TP8 layout on 16 H100 pays 4x the
    TP time there. Userbuffers need the TP group inside one NVLink domain (NVIDIA/TransformerEngine issue
    #1071): TP8 over two quad-GH200 servers crosses the network and NeMo hides none of it."""
    megatron = _tp_seconds(kb, "megatron", "h100-80gb-sxm", 16, 8)
    nemo = _tp_seconds(kb, "nemo", "h100-80gb-sxm", 16, 8)
    assert megatron > 0 and nemo == pytest.approx(0.25 * megatron, rel=1e-9)
    assert _tp_seconds(kb, "nemo", "gh200-96gb", 16, 8) == pytest.approx(
        _tp_seconds(kb, "megatron", "gh200-96gb", 16, 8), rel=1e-9)
    assert _tp_seconds(kb, "nemo", "gh200-96gb", 16, 4) == pytest.approx(
        0.25 * _tp_seconds(kb, "megatron", "gh200-96gb", 16, 4), rel=1e-9)


def test_nvfp4_training_runs_without_tensor_parallel_overlap(kb):
    """NVIDIA's NVFP4 recipes switch the userbuffers overlap off (mlcommons/training_results_v5.1 NVIDIA
    llama31_405b config_common_fp4.sh, NeMo 25.09: 'TP overlap not supported yet', TP_COMM_OVERLAP=False; the
    FP8 configs set it True): under FP4, NeMo pays the TP collectives in full, as Megatron-LM does, while under
    FP8 it still hides three quarters of them on 8 B200."""
    assert _tp_seconds(kb, "nemo", "b200", 16, 8, "fp4") == pytest.approx(
        _tp_seconds(kb, "megatron", "b200", 16, 8, "fp4"), rel=1e-9)
    assert _tp_seconds(kb, "nemo", "b200", 16, 8, "fp8") == pytest.approx(
        0.25 * _tp_seconds(kb, "megatron", "b200", 16, 8, "fp8"), rel=1e-9)


def test_the_search_bound_stays_below_an_overlapped_step(kb):
    """The planner prunes layouts by a lower bound of their step; with NeMo's overlap the bound uses the
    hidden share too, so the layout it keeps is still the fastest of all it could time."""
    w = {**PRETRAIN_70B, "stack": "nemo"}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    tj = training_job(job)
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, 64, kb.runtime)
    usable = capacity_bytes(g) * 0.9
    plan = P.plan(tj, g, 64, topo, usable)
    rates = gpu_rates(tj, g, topo)
    best = min(st_total for st_total in (
        step_time(tj, st, rates).total / st.tokens
        for grp in P._search(tj, 64, topo.per_node, topo.tp_domain, P.Pins()).groups
        for st in grp.statics if st.per_gpu <= usable))
    assert plan.step.total / plan.layout.global_batch_tokens == pytest.approx(best, rel=1e-9)


def test_an_moe_layer_costs_a_dispatch_time_per_token(kb):
    """Beyond its experts' matmuls and the all-to-all, an MoE layer costs GPU time per token it routes
    (runtime.yaml training.moe_dispatch: 1.96 us per token per MoE layer on Hopper, the median of what
    NVIDIA's own Megatron-Bridge MoE benchmarks imply). Qwen3-30B-A3B (48 MoE layers) on 8 H100 with EP8:
    a step of T tokens adds 1.96e-6 x T x 48 / 8 seconds to the layers' compute (work, not a wait on
    communication: the scaling efficiency does not count it); a dense model adds nothing."""
    from gpuwise.estimators.step_time import _alltoall

    w = {"task": "pretrain", "model": "qwen3-30b-a3b", "train_tokens": 1e10, "seq_len": 4096}
    job = resolve(Requirements.model_validate({"workload": w}), kb)
    tj = training_job(job)
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, 8, kb.runtime)
    rates = gpu_rates(tj, g, topo)
    assert rates.moe_dispatch_s == pytest.approx(1.96e-6)
    lay = P._layout(tj, 8, 1, 1, 1, 8, 1, (1, False, "none"))
    st = P.figures(tj, lay)
    t = step_time(tj, st, rates)
    assert t.ep == pytest.approx(st.ep_count * _alltoall(rates, st.ep_bytes, lay.ep, 8) * rates.ep_exposed)
    assert t.compute - st.flops / rates.flops == pytest.approx(1.96e-6 * st.tokens * 48 / 8, rel=1e-9)
    dense = training_job(resolve(Requirements.model_validate({"workload": PRETRAIN_70B}), kb))
    assert gpu_rates(dense, g, topo).moe_dispatch_s == 0.0


def test_moe_runs_the_dispatch_figure_was_not_set_on(kb, accuracy):
    """The dispatch figure comes from NeMo's benchmark tables alone; the MoE runs trained on other stacks
    check it: JetMoE-8B (Megatron + MegaBlocks, 96 H100) -42% -> +23%, Phi-3.5-MoE (512 H100) -24% -> +8%,
    DeepSeek-V2 -24% -> +2%; DeepSeek-V3, whose DualPipe hides its dispatch behind computation, +9% -> +31%.
    The NeMo MoE rows themselves (calibration, not a check) land within 27%."""
    runs = {label.split()[0]: est / pub for label, est, pub in accuracy.published_run_cases(kb)}
    held = {label.split()[0]: est / pub for label, est, pub in accuracy.published_run_cases(kb, accuracy.HELDOUT_RUNS)}
    for ratio in (runs["R17"], runs["R09"], held["H13"]):
        assert 0.75 <= ratio <= 1.30
    assert runs["R08"] <= 1.40
    moe = accuracy.throughput_cases(kb, moe=True, releases=("25.09", "26.02"))
    assert len(moe) == 8 and all(0.75 <= est / pub <= 1.30 for _, est, pub in moe)


def _dispatch(kb, **extra) -> float:
    """The MoE dispatch seconds per token per layer of Qwen3-30B-A3B on 8 B200 with the workload's stack fields."""
    w = {"task": "pretrain", "model": "qwen3-30b-a3b", "train_tokens": 1e10, "seq_len": 4096, **extra}
    tj = training_job(resolve(Requirements.model_validate({"workload": w}), kb))
    g = kb.gpus["b200"]
    return gpu_rates(tj, g, I.topology(g, 8, kb.runtime)).moe_dispatch_s


def test_a_nemo_release_brings_its_own_moe_dispatch_figure(kb):
    """NeMo's MoE layers got faster between releases on the same systems (Megatron-Bridge performance summary:
    Qwen3-30B-A3B on 8 B200 at 9,691 tokens/s per GPU in 26.02 and 26,859 in 26.04), so the dispatch figure is read
    per release from each release's own table (runtime.yaml training.moe_dispatch releases): a nemo job that states
    no release takes the newest (26.04: 0.54 us per token per MoE layer on Blackwell, the median of the 26.04
    rows' implied figures 0.04 / 0.11 / 0.34 / 0.74 / 0.83 / 2.27); one that states 26.02 or earlier, and any other
    stack, the figure read on 25.09-26.02 (1.40 us). On 8 B200 a step of T tokens then adds 0.54e-6 x T x 48 / 8
    seconds to the layers' compute."""
    assert _dispatch(kb, stack="nemo") == pytest.approx(0.54e-6)
    assert _dispatch(kb, stack="nemo", stack_version="26.08") == pytest.approx(0.54e-6)
    assert _dispatch(kb, stack="nemo", stack_version="26.02") == pytest.approx(1.40e-6)
    assert _dispatch(kb, stack="megatron") == pytest.approx(1.40e-6)
    assert _dispatch(kb) == pytest.approx(1.40e-6)  # no stack named: the middle
    w = {"task": "pretrain", "model": "qwen3-30b-a3b", "train_tokens": 1e10, "seq_len": 4096, "stack": "nemo"}
    tj = training_job(resolve(Requirements.model_validate({"workload": w}), kb))
    g = kb.gpus["b200"]
    rates = gpu_rates(tj, g, I.topology(g, 8, kb.runtime))
    st = P.figures(tj, P._layout(tj, 8, 1, 1, 1, 8, 1, (1, False, "none")))
    t = step_time(tj, st, rates)
    assert t.compute - st.flops / rates.flops == pytest.approx(0.54e-6 * st.tokens * 48 / 8, rel=1e-9)


def test_nemo_2604_moe_runs_land_near_their_mlperf_logs(kb, accuracy):
    """MLPerf Training v6.0 (NeMo 26.04 on GB300; training_heldout.csv H147-H149, scored blind at +48 / +45 / +35%
    with the 25.09-26.02 figure): DeepSeek-V3 on 256 and 512 GB300 take 40.14 and 20.69 s a step of 15,360 x 4,096
    tokens by their logs; with the 26.04 figure gpuwise is within 15% of both; gpt-oss-20b on 72 GB300 (0.160 s a
    step) reads 27% fast: its implied cost (0.84 us) is above the release's Blackwell Ultra median (0.39 us)."""
    held = {label.split()[0]: est / pub for label, est, pub in accuracy.published_run_cases(kb, accuracy.HELDOUT_RUNS)}
    assert 0.85 <= held["H147"] <= 1.15 and 0.85 <= held["H148"] <= 1.15
    assert 0.65 <= held["H149"] <= 0.80


def _dp_of(kb, stack: str, v: int) -> tuple[float, float, float, int, int, float]:
    """(all data-parallel seconds of a step, the exposed part, compute, micro-batches, pp, the gradient bytes a
    GPU reduces) of Llama 3.1 70B as
    TP8 PP8 with ZeRO-1 on 1,024 H100, plain 1F1B (v = 1) or interleaved over v chunks per rank."""
    job = resolve(Requirements.model_validate({"workload": {**PRETRAIN_70B, "stack": stack}}), kb)
    tj = training_job(job)
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, 1024, kb.runtime)
    st = P.figures(tj, P._layout(tj, 1024, 8, 8, 1, 1, v, (1, 0.0, "none")))
    rates = gpu_rates(tj, g, topo)
    t = step_time(tj, st, rates)
    d = dp_traffic(tj, st, rates, t.compute)
    return d.traffic_s, d.exposed_s, t.compute, st.layout.grad_accum, st.layout.pp, st.grad_dense


def test_an_interleaved_schedule_reduces_each_chunk_behind_the_backward_still_to_run(kb):
    """Megatron-Core launches a model chunk's gradient reduction once the chunk's last micro-batch has passed
    backward (megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving:
    grad_sync_func per chunk). The last group of pp micro-batches then passes backward chunk by chunk, so after
    the first chunk is done pp x (v - 1) / v micro-batches' backward (2/3 of their compute) remain to hide the
    reductions behind, on top of the last micro-batch that a plain 1F1B schedule hides them behind. Within a
    window, Megatron-Core reduces in buckets of max(40M, 1M x 16 data-parallel ranks) = 40M parameters
    (megatron/core/distributed/distributed_data_parallel.py), all but the last hidden: b = 40M x 4 B of fp32
    gradients over the GPU's ~70.55e9 / 64 parameters' = ~3.6%. By hand, with m = compute / micro-batches:
    exposed = max(b x traffic, traffic - (1 - b) x min(compute, m + m x pp x 3/4 x 2/3)) for v = 4 on
    Megatron-Core; DeepSpeed's pipeline engine has no interleaved schedule and keeps the 1F1B window."""
    traffic1, exposed1, compute1, ga1, pp, grads = _dp_of(kb, "megatron", 1)
    traffic, exposed, compute, ga, _, _ = _dp_of(kb, "megatron", 4)
    assert traffic == pytest.approx(traffic1) and ga >= pp == 8
    assert grads == pytest.approx(70.55e9 / 64 * 4, rel=0.1)
    b = 40e6 * 4 / grads
    m = compute / ga
    assert exposed1 == pytest.approx(max(b * traffic1, traffic1 - (1 - b) * compute1 / ga1), rel=1e-9)
    assert exposed == pytest.approx(max(b * traffic, traffic - (1 - b) * min(compute, m + m * 8 * 3 / 4 * 2 / 3)),
                                    rel=1e-9)
    assert 0 < exposed < exposed1
    assert _dp_of(kb, "deepspeed", 4)[1] == pytest.approx(_dp_of(kb, "deepspeed", 1)[1], rel=1e-9)


def test_a_nemo_moe_job_is_told_which_release_costs_its_moe_layers(kb):
    """A nemo job that states no release is costed at the newest release whose table gpuwise read (26.04), and
    says so as an assumption (workload.stack_version); a stated release, another stack or a dense model says
    nothing about it."""
    w = {"task": "pretrain", "model": "qwen3-30b-a3b", "train_tokens": 1e10, "seq_len": 4096}

    def said(**extra):
        e = estimate({"workload": {**w, **extra}}, gpu="b200", gpus=8)
        return {a.field: a.value for a in e.assumptions}.get("workload.stack_version")

    assert said(stack="nemo") == "26.04"
    assert said(stack="nemo", stack_version="26.02") is None
    assert said(stack="megatron") is None
    dense = estimate({"workload": {**PRETRAIN_70B, "stack": "nemo"}}, gpu="b200", gpus=8)
    assert "workload.stack_version" not in {a.field for a in dense.assumptions}


def test_nvfp4_gemms_run_at_the_ratio_nvidias_own_recipes_show(kb, accuracy):
    """Megatron-Bridge's 26.04 table runs Llama 3.1 405B on 256 GB300 (TP4 PP8 VP4) at 1,424 tokens/s per GPU in
    NVFP4 and 1,036 in FP8: 1.375x, where the datasheet triples FP4 over FP8 (15 against 5 PFLOPS dense). With FP4
    GEMMs at 2.12x FP8 (runtime.yaml training.fp4_gemm_over_fp8 blackwell-ultra, the median of the table's GB300 pairs)
    the modelled pair lands within 5% of the published ratio; the held-out GB300 NVFP4 MLPerf runs, which set nothing
    (H31 405B on 512 GB300 -20.4% with the datasheet ratio, H66 8B on 8 GB300 -13.9%, H103 70B LoRA on 8 GB300
    -10.3%, H160 405B on 512 GB300 -12.1%), then read within 10%."""
    assert kb.runtime.training.fp4_gemm_over_fp8.ratio["blackwell-ultra"] == pytest.approx(2.12)
    rows = {label.split()[0]: est for label, est, _ in accuracy.throughput_cases(kb, moe=False, releases=("26.04",))}
    assert rows["M47"] / rows["M51"] == pytest.approx(1424 / 1036, rel=0.05)
    held = {label.split()[0]: est / pub for label, est, pub in accuracy.published_run_cases(kb, accuracy.HELDOUT_RUNS)}
    for row in ("H31", "H66", "H103", "H160"):
        assert 0.90 <= held[row] <= 1.10, row
