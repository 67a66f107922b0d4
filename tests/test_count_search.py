"""The count search of ``recommend`` (``estimates`` in gpuwise/decide/count_search.py): which GPU counts
are judged, the bounds that let it skip the others, and that skipping them never changes what a
result shows. The reference is the same question with every catalog GPU listed in
``constraints.gpus``, which judges every count of every GPU."""

from __future__ import annotations

import gc
import json

import pytest
import yaml

from gpuwise.decide import engine as rule_engine
from gpuwise.decide.recommend import recommend
from gpuwise.decide.subjects import counts_for
from gpuwise.estimators import cost as K
from gpuwise.estimators import held_plan as H
from gpuwise.estimators import planner as P
from gpuwise.estimators import serving as SV
from gpuwise.estimators import step_time as S
from gpuwise.estimators.candidate import evaluate, offers_for, requested_pins, training_job
from gpuwise.estimators.training_job import micro_batch_stated
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

from .conftest import DATA, ROOT, answer_of


def fits(job, ev) -> bool:
    """Whether the memory rules let an estimate through (what ``estimate``'s ``fits`` says)."""
    from gpuwise.decide import rulebook, verdicts

    return verdicts.judge(rulebook.load(None, job.kb.policy_values()), job, [ev])[0].fits

# Questions whose answers the search must not change. The two inline ones caught an earlier
# search: one GPU is five times faster on two GPUs than on one (offload on one), so a bound from
# one count's days skipped the count that wins; and buying a cluster, dear, made "time is cheap"
# stop the search where renting one still got faster.
QUESTIONS = [
    ROOT / "examples" / "lora-70b.yaml",
    ROOT / "examples" / "pretrain-7b.yaml",
    ROOT / "examples" / "inference-70b.yaml",
    DATA / "heldout" / "finetune-8b-full-deadline.yaml",
    DATA / "heldout" / "serve-70b-buy-3y.yaml",
    {"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "train_tokens": 2e10},
     "constraints": {"acquisition": "buy", "max_gpus": 8, "deadline_days": 3}},
    {"workload": {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 2e10},
     "constraints": {"acquisition": "buy", "max_gpus": 64, "deadline_days": 3}},
]


def _question(q) -> dict:
    return yaml.safe_load(q.read_text()) if not isinstance(q, dict) else json.loads(json.dumps(q))


def _pick(r) -> tuple | None:
    return (r.gpu, r.count, r.acquisition) if r else None


def _best_per_gpu(result) -> dict[str, tuple[int, str]]:
    out: dict[str, tuple[int, str]] = {}
    for c in sorted((c for c in result.candidates if c.rank), key=lambda c: c.rank):
        out.setdefault(c.gpu, (c.count, c.acquisition))
    return out


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.stem if not isinstance(q, dict) else
                         f"{q['workload']['task']}-{q['constraints']['acquisition']}-{q['constraints']['max_gpus']}")
def test_the_search_shows_what_judging_every_count_shows(kb, question):
    # a shipped file's answer once per test process (conftest.answer_of), shared with the tests below
    searched = recommend(_question(question)) if isinstance(question, dict) else answer_of("recommend", question)
    every = _question(question)
    every["constraints"]["gpus"] = list(kb.gpus)
    judged_all = recommend(every)
    assert _pick(searched.recommendation) == _pick(judged_all.recommendation)
    assert _pick(searched.runner_up) == _pick(judged_all.runner_up)
    assert _best_per_gpu(searched) == _best_per_gpu(judged_all)  # what the alternatives are made of
    # the search skips the counts below the fewest that fit: a third of them and more (lora-70b: 213 of 318, fewer
    # to skip since smalls58 lets a LoRA job offload its frozen base and fit on 2)
    assert len(searched.candidates) < len(judged_all.candidates) / 1.45


def test_of_the_counts_that_do_not_fit_only_the_largest_is_judged(kb):
    result = answer_of("recommend", ROOT / "examples" / "lora-70b.yaml")  # once per test process
    by_gpu: dict[str, list] = {}
    for c in result.candidates:
        by_gpu.setdefault(c.gpu, []).append(c)
    for gid, cands in by_gpu.items():
        fitting = [c.count for c in cands if c.stage != "memory"]
        unfit = {c.count for c in cands if c.stage == "memory" and "MEM-NO-FIT" in c.rules}
        below = [n for n in counts_for(16) if not fitting or n < min(fitting)]
        assert unfit <= {max(below)} if below else not unfit, gid
    # T4 (16 GB): the 70B LoRA fits on none of 1 to 16, not even with its frozen base on the host (the two layers
    # gathered and the activations, 17.2 GB a GPU); only 16 is judged to say so. (The A10 showed it before smalls58:
    # with the base offloaded it now fits from 2.)
    assert {(c.count, c.stage) for c in by_gpu["t4"]} == {(16, "memory")}
    job = resolve(Requirements.model_validate(yaml.safe_load((ROOT / "examples" / "lora-70b.yaml").read_text())), kb)
    assert [fits(job, evaluate(job, kb.gpus["t4"], n)) for n in (1, 2, 4, 8, 16)] == [False] * 5


def test_a_count_that_does_not_fit_is_judged_once_not_once_per_way_of_buying(kb):
    result = answer_of("recommend", ROOT / "examples" / "lora-70b.yaml")  # acquisition: either
    seen: dict[tuple[str, int], int] = {}
    for c in result.candidates:
        if c.stage == "memory" and c.count <= 8:
            seen[(c.gpu, c.count)] = seen.get((c.gpu, c.count), 0) + 1
    assert seen and set(seen.values()) == {1}


def test_a_rental_too_small_for_n_gpus_is_too_small_for_more(kb):
    """What the search's stop at an unpriced count relies on: rent_offers only drops offers as the
    count grows (a per-GPU offer's max_gpus; whole instances always add up)."""
    rate = kb.tco_value("usd_cny").value
    for gid in kb.gpus:
        for n in counts_for(256):
            if not K.rent_offers(kb.clouds, gid, n, rate):
                assert not K.rent_offers(kb.clouds, gid, 2 * n, rate), (gid, n)


def test_no_larger_count_is_judged_where_none_can_be_priced(kb):
    question = yaml.safe_load((ROOT / "examples" / "lora-70b.yaml").read_text())
    job = resolve(Requirements.model_validate(question), kb)
    unpriced = [g for g in kb.gpus if not offers_for(job, kb.gpus[g], 1) and K.price_entry(kb.prices, g) is None]
    # no rental in the global market, no dated purchase price (the GB200 rents by the rack at CoreWeave since market62)
    assert {"mi355x", "mi325x"} <= set(unpriced) and "gb200" not in unpriced
    result = answer_of("recommend", ROOT / "examples" / "lora-70b.yaml")  # the question above, once per process
    for gid in unpriced:
        fitting = [c for c in result.candidates if c.gpu == gid and c.stage != "memory"]
        assert len(fitting) <= 1, gid
        assert not any(c.feasible for c in fitting)
        assert all("TCO-NO-RENTAL" in c.rules for c in fitting if c.stage == "tco")
    assert len([c for c in result.candidates if c.gpu in unpriced and "TCO-NO-RENTAL" in c.rules]) >= 10


def test_counts_certainly_late_are_skipped_and_are_late(kb):
    """The deadline bound is a lower bound: on fewer GPUs than it, every layout misses the deadline."""
    question = yaml.safe_load((ROOT / "examples" / "pretrain-7b.yaml").read_text())
    job = resolve(Requirements.model_validate(question), kb)
    setup = kb.runtime.training.job_setup_hours.value
    hours = 30 * 24 - setup
    result = answer_of("recommend", ROOT / "examples" / "pretrain-7b.yaml")  # the question above, once per process
    for gid in ("h100-80gb-sxm", "a100-80gb-sxm", "rtx-4090", "l40s"):
        gpu = kb.gpus[gid]
        bound = P.fewest_gpus_in_time(training_job(job), gpu, hours)
        assert bound > 1  # 200B tokens of a 7B model take more than a month on one GPU
        for n in (n for n in counts_for(64) if n < bound):
            ev = evaluate(job, gpu, n)
            assert ev.wall_days > 30, (gid, n)
        judged = {c.count for c in result.candidates if c.gpu == gid}
        assert all(n >= bound for n in judged) or judged == {64}, (gid, judged)
    # by hand for H100 SXM: 6 N D (plus attention) FLOPs at 989 TFLOP/s dense BF16 x the planner's MFU, which on
    # Hopper is Megatron-Core's figure: the middle stack (none named) runs at 1 / 1.10 of it (training_stacks), its
    # attention share a at FlashAttention-2's 0.35 of the peak (training.attention_kernels; FlashAttention-3 paper), a
    # rate of FlashAttention's count, whose backward is 2.5 forwards to gpuwise's 2: 0.35 / (3.5 / 3) in gpuwise's
    tj = training_job(job)
    rate, mfu = S.gpu_speed(tj, kb.gpus["h100-80gb-sxm"])
    gemm = 989.5e12 * mfu.value / 1.10
    attn = 6 * job.shape.layers * tj.seq * job.shape.q_dim
    a = attn / (6 * min(job.shape.matmul_params_active, job.shape.active_params) + attn)
    assert rate == pytest.approx(gemm / (1 - a + a * gemm * (3.5 / 3) / (0.35 * 989.5e12)), rel=1e-3)
    gpu_hours = tj.flops_per_token(False) * 2e11 / rate / 3600
    assert tj.flops_per_token(False) > 6 * job.shape.params
    assert P.fewest_gpus_in_time(tj, kb.gpus["h100-80gb-sxm"], hours) == pytest.approx(gpu_hours / hours)
    assert P.fewest_gpus_in_time(tj, kb.gpus["h100-80gb-sxm"], 0) == float("inf")


def test_the_weights_alone_bound_never_rejects_a_count_that_fits(kb):
    job = resolve(Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-70b",
                                                            "precision": "bf16"}}), kb)
    ruled_out = 0
    for gid, gpu in kb.gpus.items():
        for n in (1, 2, 4, 8, 16):
            if SV.surely_unfit(job, gpu, n):
                ruled_out += 1
                assert not SV.choose(job, gpu, n).replica.fits, (gid, n)
                assert not fits(job, evaluate(job, gpu, n)), (gid, n)
    assert ruled_out > 20
    # 70.55e9 parameters x 2 bytes = 141 GB: more than one 24 GB L4 holds, less than 2 x 80 GB H100s
    assert SV.surely_unfit(job, kb.gpus["l4"], 1) and SV.surely_unfit(job, kb.gpus["l4"], 4)
    assert not SV.surely_unfit(job, kb.gpus["h100-80gb-sxm"], 2)


def test_a_serving_copy_is_timed_once_whatever_the_count(kb):
    job = resolve(Requirements.model_validate({"workload": {"task": "inference", "model": "llama-3.1-8b"}}), kb)
    gpu = kb.gpus["h100-80gb-sxm"]
    eng = SV.engine(job, gpu)
    one = SV.replica(job, gpu, eng, SV.Layout(tp=2, replicas=1))
    four = SV.replica(job, gpu, eng, SV.Layout(tp=2, replicas=4))
    p = SV.point(job, eng, one, 8.0)
    assert SV.point(job, eng, four, 8.0) is p  # the same copy: the same point, not recomputed
    assert SV._point(job, eng, four, 8.0) == p  # and what it would be if it were


def _left_to_the_collector(run) -> int:
    """Objects a second call of ``run`` leaves to the cyclic garbage collector. What is alive before
    it is frozen out of the count's walk (as tests/conftest.py freezes what collection left): each
    full collection walked every object the worker had kept by then (about 0.4 s each, late in a
    run); the count is of the second call's garbage all the same."""
    run()
    was = gc.isenabled()
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        if was:
            gc.enable()


@pytest.mark.parametrize(("what", "before"), [("recommend", 6705), ("audit", 2660)])
def test_a_consultation_leaves_its_facts_and_estimates_to_reference_counting(what, before):
    """durable-rules keeps each action's context in a reference cycle, and the planner's cache
    referred back to the job: a full-catalog recommendation of lora-70b left 6,705 objects to the
    garbage collector (a sixth of its time, paid at the next collection), an audit 2,660. Now only
    durable's contexts are (about 390 objects, none holding facts)."""
    from gpuwise.decide.audit import audit

    if what == "recommend":
        left = _left_to_the_collector(lambda: recommend(str(ROOT / "examples" / "lora-70b.yaml")))
    else:
        left = _left_to_the_collector(lambda: audit(str(ROOT / "examples" / "proposal-good-lora-8xh100.yaml")))
    assert left < 1000 < before


def test_durable_is_handed_the_same_json():
    codec = rule_engine._durable.json
    message = {"t": "candidate", "gpu_name": "RTX 4090 D（中国特供）", "need_gb": 0.0001, "cost_usd": 999999999999999.9,
               "count": 8, "fits": True, "reason": None, "id": "f3@memory"}
    text = codec.dumps(message, ensure_ascii=False)
    assert isinstance(text, str) and "中国" in text and "e" not in text.split('"cost_usd":')[1].split(",")[0]
    assert json.loads(text) == message and codec.loads(json.dumps(message, ensure_ascii=False)) == message


def test_a_job_late_on_one_server_still_fits_on_one(kb):
    """Counts skipped for the deadline are still known to fit: the job fact says the job fits on
    one server, so MEM-ALT-LORA ("more than one 8-GPU node holds") does not fire. Full fine-tuning
    of an 8B model on 100B tokens in 3 days needs more than 8 of any GPU (B200: about 2 x 10^21
    FLOPs at ~1 PFLOP/s is ~560 GPU-hours, 72 hours each), yet its state fits on one H100 server."""
    from gpuwise.decide.count_search import estimates
    from gpuwise.decide.subjects import candidate_gpus

    q = {"workload": {"task": "finetune", "model": "llama-3.1-8b", "method": "full", "train_tokens": 1e11},
         "constraints": {"acquisition": "rent", "max_gpus": 64, "deadline_days": 3}}
    job = resolve(Requirements.model_validate(q), kb)
    evaluations, _modes, server = estimates(job, candidate_gpus(job)[0])
    assert min(e.count for e in evaluations) > 8
    # the job fact carries the roomiest server's figures and the rule finds they fit
    assert server is not None and server.count == 8 and server.share <= 1 - kb.policy_value("memory_headroom_fraction")
    assert fits(job, evaluate(job, kb.gpus["h100-80gb-sxm"], 8))
    result = recommend(q)
    assert "MEM-ALT-LORA" not in {f.rule for f in result.findings}


@pytest.mark.parametrize("question", [ROOT / "examples" / "lora-70b.yaml", ROOT / "examples" / "pretrain-7b.yaml",
                                      ROOT / "examples" / "finetune-full-13b.yaml",
                                      DATA / "heldout" / "moe-16b-a3b-pretrain-h100.yaml"], ids=lambda p: p.stem)
def test_the_planner_memory_alone_says_what_the_estimate_says_about_fitting(kb, question):
    """The search asks P.fits_at_all before estimating a count; it must agree with the estimate."""
    job = resolve(Requirements.model_validate(yaml.safe_load(question.read_text())), kb)
    headroom = float(kb.policy_value("memory_headroom_fraction"))
    from gpuwise.estimators import interconnect as I
    from gpuwise.estimators.candidate import capacity_bytes

    agree = fitting = 0
    for gpu in kb.gpus.values():
        for n in (1, 2, 4, 8, 16, 64):
            usable = capacity_bytes(gpu) * (1 - headroom)
            quick = H.fits_at_all(training_job(job), n, I.topology(gpu, n, kb.runtime), usable, requested_pins(job),
                                  gpu=gpu, stated=micro_batch_stated(job))
            full = fits(job, evaluate(job, gpu, n, defer=True))
            assert quick == full, (gpu.id, n)
            agree += 1
            fitting += full
    assert 0 < fitting < agree  # both answers occur
