"""DeepSpeed ZeRO-3's host work per module (runtime.yaml training.zero3_module_fetch; step_time.zero3_host_seconds).

ZeRO-3 hooks every module holding parameters and fetches it through PartitionedParameterCoordinator.fetch_sub_module
each pass (deepspeedai/DeepSpeed deepspeed/runtime/zero/parameter_offload.py, partitioned_param_coordinator.py), with
at most two fetch events in flight before the host waits on the GPU. The per-fetch figure is read on DeepSpeed's own
measurement (pull request #1188: a 5.1B BERT's ZeRO-3 forward ~270 ms on 8 A100 40GB, where issue #1174 measured its
ZeRO-2 forward at ~60 ms), not on the held-out rows it moves."""

from __future__ import annotations

import pytest

from gpuwise import estimate, knowledge
from gpuwise.estimators import training_job

OLMO2_7B = {"layers": 32, "hidden_size": 4096, "heads": 32, "kv_heads": 32, "ffn_size": 11008, "vocab_size": 100352,
            "tied_embeddings": False}  # allenai/OLMo-core olmo2_7B
QWEN15_MOE = {"layers": 24, "hidden_size": 2048, "heads": 16, "kv_heads": 16, "ffn_size": 1408, "vocab_size": 151936,
              "tied_embeddings": False, "experts": 60, "experts_per_token": 4, "shared_experts": 4,
              "active_params_b": 2.7}  # Qwen/Qwen1.5-MoE-A2.7B config.json


@pytest.fixture(scope="module")
def kb():
    return knowledge.load()


def test_the_per_fetch_figure_from_deepspeeds_measurement(kb):
    """(270 ms - 60 ms - the gather's 5.1e9 x 2 B x 7/8 at 300 GB/s a direction x 0.75) over the BERT's 522 modules
    holding parameters (64 layers x 8: query, key, value, attention output, intermediate, output, two LayerNorms;
    three embeddings and their LayerNorm, the final LayerNorm, the pooler, the head's transform and LayerNorm, the
    decoder bias and the next-sentence classifier) = 0.33 ms a fetch."""
    gather = 5.1e9 * 2 * 7 / 8 / (300e9 * kb.runtime.link_efficiency.value)
    assert gather == pytest.approx(0.0397, abs=5e-4)
    per_fetch = (0.270 - 0.060 - gather) / (64 * 8 + 10)
    assert kb.runtime.training.zero3_module_fetch.ms_per_fetch == pytest.approx(per_fetch * 1e3, abs=0.005)


def _training(w: dict, gpu: str, gpus: int):
    return estimate({"workload": w, "constraints": {"max_gpus": 16384}}, gpu=gpu, gpus=gpus).gpu.training


def _h238() -> dict:
    """allenai/open-instruct docs/algorithms/backend_comparison.md: OLMo 2 7B, DeepSpeed ZeRO-3 with full
    recomputation, one ~490-token example a micro-batch, 2 accumulation steps on 16 H100."""
    return {"task": "pretrain", "train_tokens": 2352000.0, "seq_len": 490, "precision": "bf16", "params_b": 7.30,
            "architecture": OLMO2_7B, "global_batch_tokens": 15680.0, "stack": "deepspeed",
            "parallelism": {"tp": 1, "pp": 1, "cp": 1}, "batch_size": 1, "zero_stage": 3,
            "gradient_checkpointing": True}


def test_one_short_example_a_micro_batch_waits_on_the_host_by_hand():
    """H238's layout: a layer's 9 modules holding parameters (q, k, v, o, the MLP's three matrices, two norms) x 3
    passes (forward, recomputed forward, backward) x 0.33 ms = 8.91 ms of host work a layer and micro-batch, and in
    the backward each module's weight's gradient hook over the 16 ranks (14 x 2 us + 16 x 2 us + 2 launches x 7 us =
    74 us; 0.67 ms a layer), more than the layer's GPU work at 490 tokens (gpuwise's 0.175 s of compute a step over 2
    x 32 layer-micro-batches, 2.7 ms), so the layer takes the host's time: 2 micro-batches x 32 layers x 9.58 ms =
    0.613 s of compute a step (0.570 s before the hooks; the published step is 32 x 490 / (818 x 16) = 1.20 s)."""
    t = _training(_h238(), "h100-80gb-sxm", 16)
    assert t.layout_notation.startswith("TP1 PP1 DP16 ZeRO-3 ckpt")
    hook = (14 * 2 + 16 * 2 + 2 * 7) * 1e-6
    assert t.step_terms.compute_s == pytest.approx(2 * 32 * 9 * (3 * 0.33e-3 + hook), rel=1e-3)
    assert t.step_terms.compute_s == pytest.approx(0.613, abs=0.001)


def test_other_stacks_and_long_micro_batches_pay_nothing(kb, monkeypatch):
    """An 8,192-token layer of Qwen2.5-14B is seconds of GPU work a micro-batch, far above its 9 x 3 x 0.33 ms of
    host work (H243, ms-swift ZeRO-3 on 8 A800: unchanged); a stack that gathers whole wrapped blocks (FSDP's
    fsdp-hf) takes no per-module figure."""
    w = {"task": "pretrain", "train_tokens": 13107200.0, "seq_len": 8192, "precision": "bf16", "model": "qwen2.5-14b",
         "global_batch_tokens": 131072.0, "stack": "deepspeed", "parallelism": {"tp": 1, "pp": 1, "cp": 1},
         "batch_size": 1, "zero_stage": 3, "gradient_checkpointing": True}
    on = _training(w, "a800-80gb-sxm", 8).step_terms.compute_s
    monkeypatch.setattr(training_job, "zero3_fetch_seconds", lambda job: 0.0)
    off = _training(w, "a800-80gb-sxm", 8).step_terms.compute_s
    assert on == off
    monkeypatch.undo()
    fsdp = _training({**_h238(), "stack": "fsdp-hf"}, "h100-80gb-sxm", 16)
    assert fsdp.step_terms.compute_s < 0.5 * 2 * 32 * 9 * 3 * 0.33e-3


def _h248(**over) -> dict:
    w = {"task": "pretrain", "train_tokens": 13107200.0, "seq_len": 8192, "precision": "bf16", "params_b": 14.3,
         "architecture": QWEN15_MOE, "global_batch_tokens": 131072.0, "stack": "deepspeed",
         "parallelism": {"tp": 1, "pp": 1, "cp": 1, "ep": 1}, "batch_size": 1, "zero_stage": 3,
         "gradient_checkpointing": True, "transformers_version": "4.52"}
    return {**w, **over}


def test_every_expert_a_module_under_zero3(kb):
    """H248's layout (ms-swift ZeRO-3, Qwen1.5-MoE-A2.7B on 8 A800, no expert parallel, recomputation on, 2
    micro-batches): 60 experts x 3 matrices = 180 modules a layer x 3 passes x 0.33 ms = 178 ms of host work a layer
    and micro-batch against the experts' few milliseconds of GEMMs (4 of the 60 experts a token), so the step's
    compute is at least 2 x 24 x 178 ms = 8.55 s (published: 24.30 s an iteration; ZeRO-2 6.02 s). The run's
    transformers was v4 (ms-swift pinned <4.53), whose MoE block holds a list of expert modules."""
    t = _training(_h248(), "a800-80gb-sxm", 8)
    assert "EP" not in t.layout_notation
    floor = 2 * 24 * 60 * 3 * 3 * 0.33e-3
    assert floor == pytest.approx(8.55, abs=0.01)
    # beside it, v4's Python loop over the experts (step_time.loop_wait_seconds, part of moe_host_wait_s)
    assert floor < t.step_terms.compute_s < floor + 3.0 + t.step_terms.moe_host_wait_s


def test_transformers_v5_experts_one_module_a_fetch(kb, monkeypatch):
    """From transformers v5 an MoE layer's routed experts are one module holding stacked 3-D weights
    (huggingface/transformers pull request #41580; pull request #42654: gate_up_proj and down_proj 'are not modules,
    just parameters'), so ZeRO-3 fetches them once a pass: H248's layout on v5 has 1 x 3 x 0.33 ms = 0.99 ms of expert
    host work a layer and micro-batch where v4 had 178 ms, under the experts' GEMMs, and the other ten modules
    (q, k, v, o, two norms, the router, the shared expert's three matrices) 9.9 ms under the rest of a layer's
    8,192-token micro-batch: no host wait at all, the compute the same as with the per-fetch figure at 0. On v4 the
    step keeps its 8.55 s floor."""
    v4 = _training(_h248(), "a800-80gb-sxm", 8).step_terms.compute_s
    v5 = _training(_h248(transformers_version="5.0"), "a800-80gb-sxm", 8).step_terms.compute_s
    unnamed = _training({k: v for k, v in _h248().items() if k != "transformers_version"}, "a800-80gb-sxm", 8)
    monkeypatch.setattr(training_job, "zero3_fetch_seconds", lambda job: 0.0)
    bare = _training(_h248(transformers_version="5.0"), "a800-80gb-sxm", 8).step_terms.compute_s
    assert v4 > 2 * 24 * 60 * 3 * 3 * 0.33e-3
    assert v5 == pytest.approx(bare, rel=1e-9)
    assert unnamed.step_terms.compute_s == pytest.approx(v5, rel=1e-9)  # none named: the newest
    assert v5 < 0.5 * v4


def test_experts_one_module_only_on_the_transformers_model(kb):
    """Megatron-DeepSpeed's MoE (DeepSpeed-MoE's Experts) holds a list of expert modules whatever transformers is
    installed: the same 60 x 3 modules a layer on v5 as on v4, the step above H248's 8.55 s floor either way."""
    md = {"stack": "megatron-deepspeed"}
    v4 = _training(_h248(**md), "a800-80gb-sxm", 8)
    v5 = _training(_h248(transformers_version="5.0", **md), "a800-80gb-sxm", 8)
    assert v5.layout_notation == v4.layout_notation
    assert v5.step_terms.compute_s == pytest.approx(v4.step_terms.compute_s, rel=1e-9)
    assert v5.step_terms.compute_s > 2 * 24 * 60 * 3 * 3 * 0.33e-3


def test_zero3_without_overlap_comm_reduce_scatters_on_the_compute_stream(kb):
    """ms-swift's swift/llm/ds_config/zero3.json (at 8d95f8c and 0f31a5a) sets overlap_comm false, and DeepSpeed's
    stage3.py then reduce-scatters on the default stream (reduce_and_partition_stream = default_stream()), so no
    reduce-scatter hides behind the backward. H248's layout: the bf16 gradients' reduce-scatter over 8 A800 is
    28.6e9 B x 7/8 at 150 GB/s (200 GB/s a direction x 0.75) = 0.167 s a micro-batch, exposed twice a step, beside
    the first layer's gather of each pass (1/24 of 0.167 s, twice a micro-batch): 2 x (0.167 + 2 x 0.167 / 24) =
    0.362 s, where with overlap_comm on (DeepSpeed's default for ZeRO-3) only 0.04 s shows."""
    off = _training(_h248(overlap_comm=False), "a800-80gb-sxm", 8)
    on = _training(_h248(), "a800-80gb-sxm", 8)
    z = off.dp_traffic
    assert z.reduce_scatter_s == pytest.approx(28.6e9 * 7 / 8 / 150e9, rel=0.01)
    assert off.step_terms.dp_s == pytest.approx(2 * (z.reduce_scatter_s + 2 * z.gather_s / 24), rel=1e-6)
    assert off.step_terms.dp_s == pytest.approx(0.362, abs=0.002)
    assert on.step_terms.dp_s < 0.05
