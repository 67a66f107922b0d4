"""How the planner chooses among layouts that hold different batches, the batch it runs, and a pinned
interleaved schedule the model cannot fill (issue 22, item 3 of stop 30's notes)."""

from __future__ import annotations

import pytest

from gpuwise import estimate
from gpuwise.errors import UserError

# Phi-3-mini's shape (microsoft/Phi-3-mini-4k-instruct config.json): 32 layers, hidden 3,072, 32 heads
PHI3_MINI = {"layers": 32, "hidden_size": 3072, "heads": 32, "kv_heads": 32, "ffn_size": 8192, "vocab_size": 32064,
             "tied_embeddings": False}


def _run(gpus: int = 512, **extra):
    w = {"task": "pretrain", "params_b": 3.821, "architecture": PHI3_MINI, "train_tokens": 3.3e12, "seq_len": 4096,
         **extra}
    return estimate({"workload": w, "constraints": {"max_gpus": 16384}}, gpu="h100-80gb-sxm", gpus=gpus).gpu


def test_a_small_model_on_many_gpus_runs_data_parallel_with_one_sequence_each():
    """No batch given: the size's published batch is 1,048,576 tokens (GPT-3 Table 2.1, 1-6B), 256 sequences
    of 4,096 for 512 GPUs. The planner used to compare step times of layouts holding different batches and
    split the model over 2 GPUs (TP2 DP256: 0.18 s for 1M tokens) rather than run 512 replicas (0.25 s for
    2M tokens): per token the data-parallel layout is the faster. It now runs one sequence per GPU, a batch
    of 512 x 4,096 = 2,097,152 tokens (within published practice: Phi-4 ran 3 sequences per GPU on 1,920)."""
    g = _run()
    lay = g.training.layout_notation
    assert lay.startswith("TP1 PP1 DP512"), lay
    assert g.training.global_batch_tokens == 512 * 4096
    split = _run(parallelism={"tp": 2})
    assert split.training.layout_notation.startswith("TP2 PP1 DP256")
    assert split.gpu_hours > g.gpu_hours  # per token the split is slower, so it is not the choice


def test_a_given_batch_is_never_exceeded_by_the_layout():
    """With the batch given (256 sequences of 4,096 on 512 GPUs), no layout may run 512 replicas: each would
    need a sequence the batch does not have. The planner splits the model (2 GPUs per replica) and runs
    exactly the batch."""
    g = _run(global_batch_tokens=1_048_576)
    assert g.training.global_batch_tokens == 1_048_576
    lay = g.training.layout_notation.split()
    tp, pp, dp = (int(lay[i][2:].split("x")[0]) for i in range(3))
    assert tp * pp == 2 and dp == 256


@pytest.mark.parametrize("par, says", [
    ({"pp": 8, "vpp": 8}, "8 virtual stages on each of 8 pipeline ranks need 64 layers; the model has 32"),
    ({"vpp": 40}, "40 virtual stages on each of 2 pipeline ranks need 80 layers; the model has 32"),
    ({"pp": 1, "vpp": 2}, "needs a pipeline, and pp is 1"),
])
def test_an_interleaved_schedule_the_layers_cannot_fill_is_an_input_error(par, says):
    """A pinned vpp used to fall back to the plain schedule without a word where pp x vpp exceeded the
    layers: now a one-line error naming the field and the largest vpp that fits (32 layers / 8 ranks = 4)."""
    with pytest.raises(UserError) as e:
        _run(parallelism=par)
    line = e.value.line()
    assert "workload.parallelism.vpp" in line and says in line
    assert "\n" not in line


def test_a_pinned_interleave_restricts_the_pipeline_depth():
    """vpp 4 without pp: only pipelines whose ranks hold 4 stages of at least one layer (pp x 4 <= 32, pp >= 2)."""
    g = _run(gpus=64, parallelism={"vpp": 4})
    pp = g.training.layout_notation.split()[1]
    depth, v = (int(x) for x in pp[2:].split("x"))
    assert v == 4 and 2 <= depth <= 8


def _one_node(stack: str | None):
    w = {"task": "pretrain", "params_b": 3.821, "architecture": PHI3_MINI, "train_tokens": 1e10, "seq_len": 4096,
         "global_batch_tokens": 8 * 4 * 4096, "zero_stage": 1, "gradient_checkpointing": False,
         "parallelism": {"tp": 1, "pp": 1}, **({"stack": stack} if stack else {})}
    return estimate({"workload": w}, gpu="h100-80gb-sxm", gpus=8).gpu.training


def test_the_weights_all_gather_after_the_optimizer_step_is_exposed_unless_the_stack_gathers_ahead(kb):
    """ZeRO-1 on one 8 x H100 server (DP8, 4 micro-batches): gradients are reduce-scattered behind the last
    micro-batch's backward (DeepSpeed's overlap_comm), but the updated bf16 weights are all-gathered after
    the optimizer step and before the next forward, where nothing hides them, unless the stack gathers them
    layer by layer behind the forward (Megatron-Core / NeMo overlap_param_gather, NeMo user guide,
    Communication Overlap). By hand: the all-gather is half a ring all-reduce of 3.821e9 x 2 B over 8 GPUs,
    0.5 x (2 x 7/8 x 7.642 GB / (450 GB/s x 0.75) + 14 x 5 us) = 19.9 ms. Megatron-Core reduce-scatters its
    fp32 main gradients (Megatron-Bridge bf16_mixed: grad_reduce_in_fp32=True), twice the bf16 gradients'
    bytes of the middle stack; the weights it gathers are the same bf16 bytes. What hides is bucketed: all but
    the last bucket, PyTorch DDP's 25 MiB for the middle stack (b = 25 MiB / 7.642 GB) and Megatron-Core's
    max(40M, 8 x 1M) parameters (b = 40M / 3.821e9)."""
    mid, meg = _one_node(None), _one_node("megatron")
    d_mid, d_meg = mid.dp_traffic, meg.dp_traffic
    from gpuwise.inputs.schema import Workload
    from gpuwise.inputs.shape import from_workload

    params = from_workload(Workload(task="pretrain", params_b=3.821, architecture=PHI3_MINI), None).params
    eff = kb.runtime.link_efficiency.value
    gather = 0.5 * (2 * 7 / 8 * params * 2 / (450e9 * eff) + 2 * 7 * 5e-6)
    assert gather == pytest.approx(0.0199, abs=0.0005)
    window_mid = mid.step_terms.compute_s / 4
    window_meg = meg.step_terms.compute_s / 4
    grads = d_mid.traffic_s - gather
    assert d_meg.traffic_s == pytest.approx(gather + 2 * grads, rel=1e-3)  # fp32 main gradients
    b_mid, b_meg = 25 * 2**20 / (params * 2), 40e6 / params
    assert d_mid.exposed_s == pytest.approx(gather + max(b_mid * grads, grads - (1 - b_mid) * window_mid), rel=1e-6)
    assert d_meg.exposed_s == pytest.approx(max(b_meg * d_meg.traffic_s, d_meg.traffic_s - (1 - b_meg) * window_meg),
                                            rel=1e-6)
    assert d_mid.exposed_s >= gather
