"""Hybrid sharded data parallel (HSDP): ZeRO / FSDP states sharded inside a group of GPUs and replicated across
the groups (workload.parallelism.dp_shard). Sources of the mechanism: PyTorch FSDP2 ``fully_shard`` on a 2-D
device mesh (replicate x shard: all-gather and reduce-scatter over the shard dimension, all-reduce over the
replicate one; ``FSDPModule.set_requires_all_reduce`` defers that all-reduce through gradient accumulation);
torchtitan's ``data_parallel_shard_degree`` / ``data_parallel_replicate_degree``; DeepSpeed MiCS (Zhang et al.
2022, arXiv:2205.00119: partition groups, 2-hop gradient synchronisation at the accumulation boundary); ZeRO++
hpZ (Wang et al. 2023, arXiv:2306.10209: a secondary weight shard inside a node)."""

from __future__ import annotations

import pytest
import yaml

from gpuwise import estimate
from gpuwise.cli import main
from gpuwise.estimators import interconnect as I
from gpuwise.estimators import planner as P
from gpuwise.estimators.candidate import training_job
from gpuwise.estimators.training_job import pins_not_kept, requested_pins
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

LLAMA2_7B = {"task": "pretrain", "model": "llama-2-7b", "train_tokens": 1e11, "zero_stage": 3}


def _tj(kb, **workload):
    return training_job(resolve(Requirements(workload={**LLAMA2_7B, **workload}), kb))


def _on_64_h100(kb, tj, group: int):
    g = kb.gpus["h100-80gb-sxm"]
    rates = P.gpu_rates(tj, g, I.topology(g, 64, kb.runtime))
    st = P.figures(tj, P._layout(tj, 64, 1, 1, 1, 1, 1, (3, False, "none", group)))
    return st, rates


def test_zero3_in_a_server_shards_the_states_eight_ways_not_sixty_four(kb):
    """Llama 2 7B (6,738,415,616 parameters, the model card's 6.7B) under ZeRO-3 on 64 H100 in servers of 8:
    DeepSpeed's 12 B of fp32 state a parameter (master weights and Adam's two moments) over 8 GPUs of a group is
    12 x 6,738,415,616 / 8 = 10,107,623,424 B a GPU; over all 64, 1,263,452,928 B; the 16-bit weights and
    gradients likewise 2 x P / 8 = 1,684,603,904 B each."""
    tj = _tj(kb)
    assert tj.shape.params == 6_738_415_616
    hsdp = tj.memory(P._layout(tj, 64, 1, 1, 1, 1, 1, (3, False, "none", 8)))
    flat = tj.memory(P._layout(tj, 64, 1, 1, 1, 1, 1, (3, False, "none")))
    assert hsdp.optimizer.value == pytest.approx(10_107_623_424)
    assert flat.optimizer.value == pytest.approx(1_263_452_928)
    assert hsdp.gradients.value == pytest.approx(1_684_603_904)
    assert hsdp.weights.value >= 1_684_603_904  # plus the layers gathered at a time


def test_hsdp_step_traffic_by_hand(kb):
    """The same layout's data-parallel traffic. Group of 8 (one server, NVLink at 337.5 GB/s a GPU after
    efficiency, 5 us a ring step): a micro-batch all-gathers the 13,476,831,232 B of bf16 weights twice and
    reduce-scatters as many bytes of gradients, each a ring of 7/8 of them cut into 32 layers:
    7/8 x 13,476,831,232 / 337.5e9 + 32 x 7 x 5e-6 s; 32 micro-batches. Once a step, the group's 1/8 share of the
    gradients (1,684,603,904 B) is all-reduced across the 8 replicas, one GPU a server: a ring over the network,
    2 x 7/8 x 1,684,603,904 / 37.5e9 + 2 x 7 x 2e-6 s. Nothing of the per-micro-batch traffic crosses a server."""
    tj = _tj(kb)
    st, r = _on_64_h100(kb, tj, 8)
    assert (r.topo.fabric, r.intra, r.mesh, r.net_bw, r.intra_lat, r.net_lat) == (8, 337.5e9, 0.0, 37.5e9, 5e-6, 2e-6)
    assert st.weight_dense == st.grad_dense == 2 * 6_738_415_616 and st.layout.grad_accum == 32
    ring = 7 / 8 * 13_476_831_232 / 337.5e9 + 32 * 7 * 5e-6
    cross = 2 * 7 / 8 * 1_684_603_904 / 37.5e9 + 2 * 7 * 2e-6
    d = P.dp_traffic(tj, st, r, P.step_time(tj, st, r).compute)
    assert d.zero3.gather_s == pytest.approx(ring) and d.zero3.reduce_scatter_s == pytest.approx(ring)
    assert d.traffic_s == pytest.approx(32 * 3 * ring + cross)
    assert d.zero3.dp == 8 and d.zero3.network_bytes_per_gpu == 0.0
    st64, _ = _on_64_h100(kb, tj, 0)
    d64 = P.dp_traffic(tj, st64, r, P.step_time(tj, st64, r).compute)
    assert d64.zero3.dp == 64 and d64.zero3.network_bytes_per_gpu > 0  # ZeRO-3 over all 64 crosses servers


def test_the_cross_group_all_reduce_waits_for_the_last_micro_batch_only(kb):
    """The exposed part: each micro-batch hides its gathers behind its forward and its gathers and reduce-scatter
    behind its backward, one layer's collective of 32 (b = 1/32) at least exposed: max(t x b, t - window x
    (1 - b)); the replicas' all-reduce joins only the last micro-batch's backward (FSDP2 defers it through gradient
    accumulation), not every one of the 32."""
    tj = _tj(kb)
    st, r = _on_64_h100(kb, tj, 8)
    d = P.dp_traffic(tj, st, r, P.step_time(tj, st, r).compute)
    z, b = d.zero3, 1 / 32
    cross = 2 * 7 / 8 * 1_684_603_904 / 37.5e9 + 2 * 7 * 2e-6

    def hidden(t: float, window: float) -> float:
        return max(t * b, t - window * (1 - b))

    back = z.micro_batch_compute_s - z.forward_s
    fwd, bwd = hidden(z.gather_s, z.forward_s), hidden(z.gather_s + z.reduce_scatter_s, back)
    last = hidden(z.gather_s + z.reduce_scatter_s + cross, back)
    assert d.exposed_s == pytest.approx(32 * fwd + 31 * bwd + last)
    assert last > bwd  # the all-reduce is not all hidden behind the last backward's window


def test_a_pinned_group_is_kept_and_one_that_does_not_divide_the_replicas_gives_way(kb):
    g = kb.gpus["h100-80gb-sxm"]
    topo = I.topology(g, 64, kb.runtime)
    job = resolve(Requirements(workload={**LLAMA2_7B, "parallelism": {"tp": 1, "pp": 1, "dp_shard": 8}}), kb)
    tj = training_job(job)
    pins = requested_pins(job)
    plan = P.plan(tj, g, 64, topo, 75e9, pins)
    assert plan.layout.dp_shard == 8 and plan.layout.shard_group == 8 and "HSDP8" in plan.layout.notation()
    assert pins_not_kept(pins, plan.layout) == ()
    job = resolve(Requirements(workload={**LLAMA2_7B, "parallelism": {"tp": 1, "pp": 1, "dp_shard": 48}}), kb)
    pins = requested_pins(job)
    plan = P.plan(training_job(job), g, 64, topo, 75e9, pins)  # 48 does not divide 64 replicas
    assert plan.layout.shard_group == 64
    assert [v["field"] for _s, _m, v in pins_not_kept(pins, plan.layout)] == ["parallelism.dp_shard"]
    # the note says what the layout trains with: one group of all 64 ranks, not the layout's 0 for 'no group'
    assert [(v["pin"], v["used"]) for _s, _m, v in pins_not_kept(pins, plan.layout)] == [(48, 64)]


def test_auto_chooses_whole_servers_and_says_so(kb):
    """'auto': a group of whole servers (8, 16, 32 GPUs on 64 H100), never all 64; the assumption names the rule."""
    r = estimate({"workload": {**LLAMA2_7B, "parallelism": {"dp_shard": "auto"}}}, gpu="H100-80G", gpus=64)
    lay = r.gpu.layout
    assert lay.shard_group in (8, 16, 32) and lay.dp == 64
    assert r.gpu.strategy == f"ZeRO-3 HSDP{lay.shard_group}"
    assert f"HSDP{lay.shard_group}" in r.gpu.training.layout_notation
    assert r.gpu.training.pins.dp_shard == "auto"
    assert any(a.message_id == "assume.hsdp.auto" for a in r.assumptions)


def test_no_dp_shard_shards_over_every_rank(kb):
    r = estimate({"workload": LLAMA2_7B}, gpu="H100-80G", gpus=64)
    assert r.gpu.layout.shard_group == r.gpu.layout.dp
    assert not any(a.message_id == "assume.hsdp.auto" for a in r.assumptions)


@pytest.mark.parametrize(("parallelism", "extra", "says"), [
    ({"dp_shard": 0}, {}, "between 1 and 100000"),
    ({"dp_shard": 4, "ep": 8}, {"model": "mixtral-8x7b"}, "does not hold whole expert-parallel groups of 8"),
    ({"dp_shard": 8}, {"zero_stage": 0}, "zero_stage 0 shards none"),
])
def test_a_bad_dp_shard_is_refused_in_one_line(capsys, tmp_path, parallelism, extra, says):
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump({"workload": {**LLAMA2_7B, **extra, "parallelism": parallelism}}))
    capsys.readouterr()
    code = main(["estimate", str(path), "--gpu", "H100-80G", "--gpus", "64"])
    _out, err = capsys.readouterr()
    assert code == 2 and len(err.splitlines()) == 1 and says in err, err
    # each names the field it judges (the zero_stage 0 refusal named only 'workload': test_hostile_inputs' random
    # mutation of dp_shard to a valid 7 beside the base file's zero_stage 0 caught it)
    assert f"{path}: workload.parallelism.dp_shard: " in err, err


@pytest.mark.parametrize(("zero", "said"), [(3, "formula.dp_zero3_hsdp"), (2, "formula.dp_zero2_hsdp"),
                                            (1, "formula.dp_zero1_hsdp")])
def test_the_traffic_line_names_the_cross_replica_all_reduce_it_adds(kb, zero, said):
    """The report's data-parallel line under hybrid sharding: its formula names the once-a-step all-reduce across
    the group's replicas, and its inputs carry that part, so the total can be redone from the page. Llama 2 7B on
    64 H100 in groups of 8 (one server): 8 replicas, each GPU's 1/8 of the 2 x 6,738,415,616 B bf16 gradients
    over the network, 2 x 7/8 x 1,684,603,904 / 37.5e9 + 2 x 7 x 2e-6 s (as test_hsdp_step_traffic_by_hand)."""
    r = estimate({"workload": {**LLAMA2_7B, "zero_stage": zero, "parallelism": {"tp": 1, "pp": 1, "dp_shard": 8}}},
                 gpu="H100-80G", gpus=64)
    t = next(t for t in r.gpu.terms if t.name == "dp_traffic_seconds")
    assert [p[1] for p in t.formula_phrases] == [said]
    assert t.inputs["replicas"] == 8
    if zero == 3:
        i = t.inputs
        assert i["cross_replica_s"] == pytest.approx(2 * 7 / 8 * 1_684_603_904 / 37.5e9 + 2 * 7 * 2e-6)
        assert t.value == pytest.approx(i["micro_batches"] * (2 * i["gather_s"] + i["reduce_scatter_s"])
                                        + i["cross_replica_s"])
    flat = estimate({"workload": {**LLAMA2_7B, "zero_stage": zero}}, gpu="H100-80G", gpus=64)
    t = next(t for t in flat.gpu.terms if t.name == "dp_traffic_seconds")
    assert "replicas" not in t.inputs and not t.formula_phrases[0][1].endswith("_hsdp")



def test_the_layout_line_in_words_names_the_group(kb):
    """The report's 'Layout' row says 'ZeRO-3 HSDP8' where the strategy and the layout's notation do (Llama 2 7B
    on 64 H100 in groups of 8), and 'ZeRO-3' alone without hybrid sharding."""
    from gpuwise.render.fmt import Fmt
    from gpuwise.render.words import training_layout

    for parallelism, said in (({"tp": 1, "pp": 1, "dp_shard": 8}, "ZeRO-3 HSDP8"), ({"tp": 1, "pp": 1}, "ZeRO-3")):
        lay = estimate({"workload": {**LLAMA2_7B, "parallelism": parallelism}}, gpu="H100-80G", gpus=64).gpu.layout
        for lang in ("en", "zh"):
            f = Fmt(lang)
            parts = training_layout(lay, 64, f).split(f.sep)
            assert parts[0] == "DP 64" and parts[-1] == said, parts


@pytest.mark.parametrize(("field", "value", "zh"), [
    ("parallelism", {"dp_shard": "Auto"}, "必须是整数或 'auto'（给出的是 'Auto'）（你是不是指 auto？）"),
    ("global_batch_tokens", "Auto", "必须是数字或 'auto'（给出的是 'Auto'）（你是不是指 auto？）"),
    ("parallelism", {"dp_shard": 8.5}, "必须是整数或 'auto'（给出的是 8.5）"),
])
def test_a_number_or_auto_refused_names_auto_in_either_language(capsys, tmp_path, field, value, zh):
    """A field that takes a number or 'auto' (zero_stage's sibling fields): 'Auto' is refused with the close
    match that zero_stage: Auto gets, and the Chinese line names 'auto' beside the number (it said only 'must be
    an integer')."""
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump({"workload": {**LLAMA2_7B, field: value}}))
    capsys.readouterr()
    for lang, said in (("en", "(did you mean auto?)" if "Auto" in str(value) else
                        "must be a whole number or 'auto' (got 8.5)"),
                       ("zh", zh)):
        code = main(["estimate", str(path), "--gpu", "H100-80G", "--gpus", "8", "--lang", lang])
        _out, err = capsys.readouterr()
        assert code == 2 and len(err.splitlines()) == 1 and said in err, err
