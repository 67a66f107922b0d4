"""transformers v4's Python loop over an MoE layer's experts (workload.transformers_version; runtime.yaml
training.moe_dispatch transformers_loop; step_time.loop_wait_seconds).

The code: Qwen3MoeSparseMoeBlock.forward in huggingface/transformers src/transformers/models/qwen3_moe/
modeling_qwen3_moe.py at 00d4b3d2 (a v4.5x tree; Qwen2MoeSparseMoeBlock and MixtralSparseMoeBlock alike) runs, for
each expert, torch.where over its routing mask (a nonzero: the host waits for the GPU), a gather of its tokens, the
expert's MLP (gate_proj, act_fn, up_proj, the product, down_proj), a gather of its routing weights, the weighting
product and index_add_: 10 operators a forward; autograd's backward of those is 23 (runtime.yaml gives the count).
The host time an operator: 7 us, PyTorch's own cost model for eager operators (meta-pytorch/autoparallel pull request
#146; pytorch/pytorch issue #41383 measured about 7 us for the smallest operator with autograd recording); the
forward's operators 18 us, read on the loop itself (huggingface/transformers pull request #42697: Qwen1.5-MoE-A2.7B's
forward at 16 tokens on an A100, 271.80 ms eager against 64.27 ms grouped, 207.53 ms over 24 layers and 40.1 experts
hit a layer, 12 operators a hit expert: 18.0 us, its two syncs included; branch hfclass60).
The rows: ms-swift pinned transformers>=4.33,<4.53 (requirements/framework.txt at 8d95f8c, Apr 2025, and 0f31a5a,
Jun 2025), the commits that published H242-H248's tables."""

from __future__ import annotations

import pytest
import yaml

from gpuwise import estimate, knowledge
from gpuwise.cli import main
from gpuwise.estimators.step_time import expert_share
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

QWEN15_MOE = {"layers": 24, "hidden_size": 2048, "heads": 16, "kv_heads": 16, "ffn_size": 1408, "vocab_size": 151936,
              "tied_embeddings": False, "experts": 60, "experts_per_token": 4, "shared_experts": 4,
              "active_params_b": 2.7}  # Qwen/Qwen1.5-MoE-A2.7B config.json
# the ms-swift benchmark's swift sft runs (H247 ZeRO-2, H248 ZeRO-3): 16 packed sequences of 8,192 over 8 A800,
# one a micro-batch (2 micro-batches a GPU), gradient checkpointing on, no expert parallel
H24X = {"task": "pretrain", "train_tokens": 13107200.0, "seq_len": 8192, "precision": "bf16", "params_b": 14.3,
        "architecture": QWEN15_MOE, "global_batch_tokens": 131072.0, "stack": "deepspeed",
        "parallelism": {"tp": 1, "pp": 1, "cp": 1, "ep": 1}, "batch_size": 1, "gradient_checkpointing": True}
FWD_US = 271.80 - 64.27  # ms: pull request #42697's eager forward less its grouped one, Qwen1.5-MoE-A2.7B, 16 tokens
FWD_US = FWD_US / 24 / (60 * (1 - (56 / 60) ** 16)) / 12 * 1e3  # a layer, a hit expert (40.1 of 60), an operator
LOOP_S = (10 * 18 * 2 + 23 * 7) * 1e-6  # a forward at 18 us, its recomputation and a backward at 7 us: 521 us


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def _run(w: dict, gpu: str = "a800-80gb-sxm", gpus: int = 8):
    return estimate({"workload": w, "constraints": {"max_gpus": 16384}}, gpu=gpu, gpus=gpus)


def test_the_loops_figures_are_the_codes_operators(kb):
    loop = kb.runtime.training.moe_dispatch.transformers_loop
    assert (loop.ops_forward, loop.ops_backward, loop.us_per_op, loop.before) == (10, 23, 7.0, "5.0")
    assert loop.us_per_op_forward == round(FWD_US, 1) == 18.0
    assert set(loop.stacks) == {"fsdp-hf", "deepspeed", "axolotl", "unsloth"}
    assert round(LOOP_S * 1e6) == 521


def test_zero3_rows_pay_the_whole_loop_on_top_of_the_fetches(kb):
    """H248 (ZeRO-3): each expert's three matrices are fetched on every pass (60 x 3 x 3 x 0.33 ms = 178 ms a layer
    and micro-batch, tests/test_zero3_hooks.py), already longer than the experts' GEMMs, and the same host runs the
    loop: 60 experts x 521 us = 31.26 ms more a layer and micro-batch, x 24 layers x 2 micro-batches = 1.500 s
    (0.867 s with every operator at 7 us, before branch hfclass60).
    transformers v5 holds a layer's experts in one module (one fetch a pass, branch zero3moe), so its step is the
    GPU work alone, and v4 adds the loop and the per-expert fetches beyond the experts' GEMMs: 48 layer-micro-batches
    x (178.2 ms - 0.4019 of a layer's GPU work, v5's compute / 48). v5's compute is 2.762 s at the deepspeed class's
    1.0 (3.915 s at its old 0.70, branch hfmiddle60), so the fetches beyond the GEMMs are 8.554 - 0.4019 x 2.762 =
    7.44 s; with each expert matrix's gradient hook in the backward (14 x 2 us + 8 ranks x 2 us + 2 launches x 7 us
    = 58 us, runtime.yaml zero3_module_fetch grad_hook, branch train2x60) 48 x 180 x 58 us = 0.501 s more: 7.94 s."""
    v4 = _run({**H24X, "zero_stage": 3, "transformers_version": "4.52"}).gpu.training.step_terms
    v5 = _run({**H24X, "zero_stage": 3, "transformers_version": "5.0"}).gpu.training.step_terms
    assert v4.moe_host_wait_s == pytest.approx(2 * 24 * 60 * LOOP_S, rel=1e-6)
    assert v4.moe_host_wait_s == pytest.approx(1.500, abs=0.001)
    assert v5.moe_host_wait_s == 0.0
    hook = (14 * 2 + 8 * 2 + 2 * 7) * 1e-6  # a parameter's gradient hook over 8 ranks
    fetches = 48 * (60 * 3 * (3 * 0.33e-3 + hook) - v5.compute_s / 48 * 34_603_008 / 86_106_112)
    assert v5.compute_s == pytest.approx(2.762, abs=0.001)
    assert fetches == pytest.approx(7.94, abs=0.01)  # 7.44 without the hooks; 6.98 while the class was 0.70
    assert v4.compute_s - v5.compute_s == pytest.approx(v4.moe_host_wait_s + fetches, rel=1e-6)


def test_an_8k_micro_batch_hides_most_of_the_loop_without_zero3(kb):
    """H247 (ZeRO-2): the routed experts are 4 x 3 x 2,048 x 1,408 = 34,603,008 of a layer's 86,106,112 weights a
    token (attention 4 x 2,048^2 = 16,777,216; the shared expert as large as the four routed; the router 2,048 x 60),
    0.4019 of its GEMMs: at 8,192 tokens and the deepspeed class at the middle (1.0, branch hfmiddle60) v5's GPU work
    is 2.762 s over 48 layer-micro-batches, 0.4019 x 57.54 ms = 23.12 ms of experts' GEMMs a layer, against the
    loop's 31.26 ms: the host waits 48 x (31.26 - 23.12) ms = 0.391 s a step (nothing while the class was 0.70, whose
    GEMMs took 32.8 ms)."""
    shape = resolve(Requirements(workload={**H24X, "zero_stage": 2}), kb).shape
    assert expert_share(shape) == pytest.approx(34_603_008 / 86_106_112, rel=1e-6)
    terms = _run({**H24X, "zero_stage": 2, "transformers_version": "4.52"}).gpu.training.step_terms
    v5 = _run({**H24X, "zero_stage": 2, "transformers_version": "5.0"}).gpu.training.step_terms
    gemms = v5.compute_s / (2 * 24) * 34_603_008 / 86_106_112
    assert gemms == pytest.approx(23.12e-3, abs=0.01e-3) and gemms < 60 * LOOP_S
    assert terms.moe_host_wait_s == pytest.approx(48 * (60 * LOOP_S - gemms), rel=1e-6)
    assert terms.moe_host_wait_s == pytest.approx(0.391, abs=0.001)


def test_a_small_micro_batch_waits_on_the_loop(kb):
    """The same ZeRO-2 run at 1,024 tokens a micro-batch (one a GPU): the experts' GEMMs shrink 8x with the tokens
    (8.5 tokens an expert) while the loop's 31.26 ms a layer does not, so a v4 run waits on it, at most the whole
    loop (24 x 31.26 ms = 0.750 s), and a v5 run does not."""
    w = {**H24X, "seq_len": 1024, "global_batch_tokens": 8192.0, "train_tokens": 8192.0 * 10, "zero_stage": 2}
    v4 = _run({**w, "transformers_version": "4.51"}).gpu.training.step_terms
    v5 = _run({**w, "transformers_version": "5.0"}).gpu.training.step_terms
    assert v5.moe_host_wait_s == 0.0
    assert 0.1 < v4.moe_host_wait_s <= 24 * 60 * LOOP_S


def test_none_given_is_the_newest_said_for_moe_on_a_transformers_stack(kb):
    r = _run({**H24X, "zero_stage": 2})
    said = [a for a in r.assumptions if a.field == "workload.transformers_version"]
    assert len(said) == 1 and said[0].value == "5.0"
    assert r.gpu.training.step_terms.moe_host_wait_s == 0.0
    dense = {k: v for k, v in QWEN15_MOE.items() if k not in ("experts", "experts_per_token", "shared_experts",
                                                                "active_params_b")}
    for w in ({**H24X, "zero_stage": 2, "architecture": dense}, {**H24X, "stack": "megatron"}):
        assert not any(a.field == "workload.transformers_version" for a in _run(w).assumptions)


def test_megatron_ignores_the_transformers_release(kb):
    a = _run({**H24X, "stack": "megatron", "transformers_version": "4.40"}).gpu.training.step_terms
    b = _run({**H24X, "stack": "megatron"}).gpu.training.step_terms
    assert a.step_s == b.step_s


@pytest.mark.parametrize(("value", "says"), [("v4.51", "transformers_version"), (4.51, "in quotes")])
def test_a_bad_release_is_refused_in_one_line(capsys, tmp_path, value, says):
    path = tmp_path / "job.yaml"
    path.write_text(yaml.safe_dump({"workload": {**H24X, "zero_stage": 2, "transformers_version": value}}))
    capsys.readouterr()
    code = main(["estimate", str(path), "--gpu", "a800-80gb-sxm", "--gpus", "8"])
    _out, err = capsys.readouterr()
    assert code == 2 and len(err.splitlines()) == 1 and says in err, err
