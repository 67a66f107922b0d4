"""A pinned serving tensor-parallel degree wider than one node (``workload.parallelism.tp: 16``, SGLang's
``--tp 16 --nnodes 2``, a published recipe for DeepSeek-V3/R1 on 2 x 8 H100/H200) is estimated as that layout,
each layer's two all-reduces over the network: a fixed part each plus the bytes at the GPU's NIC (runtime.yaml
infiniband-400, 50 GB/s, at link_efficiency 0.75). The fixed part is nccl-tests all_reduce_perf on 2 x 8 H20 over
InfiniBand NDR with NVLSTree forced, 8 B, 47.6 us (knowledge/runtime.yaml cross_node_allreduce_us, NVIDIA/nccl issue
#1244), except for SGLang, which starts NCCL with NVLink SHARP off (NCCL_NVLS_ENABLE from enable_nccl_nvls, default
False): there NCCL's tree over the LL protocol runs it, 61.58 us at 128 B on 2 x 8 H100 over InfiniBand (NVIDIA/nccl
issue #1453; serving.yaml sglang cross_node_allreduce_us 61.6). It was
an input error until session 20 (no measured cross-node all-reduce to price it from); a rule
(NET-TP-ACROSS-NODES-SERVING) now warns with the cost per step, and the search still builds tensor parallel
inside a node only (pipeline stages, expert parallel or copies across), so an unpinned job never gets it."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuwise.estimators import serving as SV
from gpuwise.estimators.serving.layout import crosses_nodes
from gpuwise.estimators.serving.step import consts, tp_allreduce_seconds
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

R1 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang",
      "prompt_tokens": 128, "output_tokens": 128}

# NVIDIA/nccl issue #1244, comment of 2024-04-09: 2 nodes x 8 H20, 16 ConnectX-7 NDR, NCCL 2.21.5, NVLSTree,
# all_reduce_perf 8 B float sum out-of-place 47.60 us
NCCL_8B_US = 47.60
# NVIDIA/nccl issue #1453: 2 nodes x 8 H100, default algorithm (the tuner's log: tree, LL), all_reduce_perf 128 B
# float sum out-of-place 61.58 us: SGLang's figure (it runs NCCL without NVLink SHARP)
SGLANG_US = 61.6
NIC_B_S = 50e9 * 0.75  # NDR 400 Gb/s = 50 GB/s a GPU, at NCCL's 75% of line rate (runtime.yaml link_efficiency)
HIDDEN, LAYERS = 7168, 61  # DeepSeek-R1 / V3 config.json: hidden_size, num_hidden_layers


def _job(kb, **w):
    return resolve(Requirements.model_validate({"workload": {**R1, **w}}), kb)


def test_the_figure_is_the_published_measurement(kb):
    assert kb.runtime.cross_node_allreduce_us.value == NCCL_8B_US
    assert "nccl issue #1244" in kb.runtime.cross_node_allreduce_us.source
    assert "47.60 us" in kb.runtime.cross_node_allreduce_us.source
    own = kb.framework("sglang").cross_node_allreduce_us
    assert own.value == SGLANG_US and "issue #1453" in own.source and "61.58 us" in own.source
    assert "NCCL_NVLS_ENABLE" in own.source


@pytest.mark.parametrize("gpu", ["h100-80gb-sxm", "h200-141gb-sxm"])
def test_tp16_over_two_nodes_is_estimated_as_pinned(kb, gpu):
    s = SV.choose(_job(kb, parallelism={"tp": 16}), kb.gpus[gpu], 16)
    assert (s.layout.tp, s.layout.pp, s.layout.replicas) == (16, 1, 1)
    assert s.replica.allreduce_s == pytest.approx(SGLANG_US * 1e-6)
    assert s.replica.link_bw == pytest.approx(NIC_B_S)
    assert not [v for _, mid, v in s.replica.notes if mid == "note.pin_not_kept"]
    assert s.single.decode_step > 0


@pytest.mark.parametrize("tokens", [1, 8, 64])
def test_cross_node_allreduce_time_against_hand_calculation(kb, tokens):
    """Per decode step of ``tokens`` sequences on SGLang: 2 all-reduces x 61 layers, each 61.6 us + 2 (16 - 1) / 16
    of the tokens' 16-bit activations (7168 x 2 B a token) over a GPU's NIC: 1 token 122 x (61.6 + 0.717) us =
    7.603 ms; 8 tokens (E02's concurrency; 114,688 B an all-reduce) 122 x (61.6 + 5.734) us = 8.215 ms."""
    job = _job(kb, parallelism={"tp": 16})
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], 16)
    per = SGLANG_US * 1e-6 + 2 * 15 / 16 * tokens * HIDDEN * 2 / NIC_B_S
    assert tp_allreduce_seconds(consts(job, s.engine, s.replica), tokens) == pytest.approx(2 * LAYERS * per)
    if tokens == 1:
        assert 2 * LAYERS * per == pytest.approx(7.603e-3, abs=1e-6)
    if tokens == 8:
        assert 2 * LAYERS * per == pytest.approx(8.215e-3, abs=1e-6)


def test_the_step_counts_what_the_network_costs(kb):
    """The single-stream step of TP 16 over two H200 nodes reads half one node's TP 8 weights per GPU but adds the
    network's all-reduces: 7.6 ms where one node's TP 8 all-reduces over NVLink take ~1 ms, so it is slower."""
    s16 = SV.choose(_job(kb, parallelism={"tp": 16}), kb.gpus["h200-141gb-sxm"], 16)
    s8 = SV.choose(_job(kb, parallelism={"tp": 8}), kb.gpus["h200-141gb-sxm"], 8)
    assert s16.single.decode_step > s8.single.decode_step + 4.0e-3


def test_an_nvl72_rack_keeps_tp16_on_nvlink(kb):
    """GB200 NVL72: 72 GPUs on one NVLink fabric, so 16 of them do not cross the network."""
    assert not crosses_nodes(kb.gpus["gb200"], 16)
    assert crosses_nodes(kb.gpus["h100-80gb-sxm"], 16) and not crosses_nodes(kb.gpus["h100-80gb-sxm"], 8)


def test_the_search_keeps_tensor_parallel_inside_a_node(kb):
    """No pin: every layout offered on 16 or 32 x H200 keeps tp within a node (pipeline stages, expert parallel and
    copies span nodes), so the chosen one does too."""
    job = _job(kb)
    gpu = kb.gpus["h200-141gb-sxm"]
    for count in (16, 32):
        eng = SV.engine(job, gpu)
        assert max(lay.tp for lay in SV.layouts(job, eng, count)) <= 8
        assert SV.choose(job, gpu, count).layout.tp <= 8


def test_the_hinted_layout_is_the_one_served(kb):
    """tp 8 + pp 2 on 16 x H100 is chosen as pinned."""
    s = SV.choose(_job(kb, parallelism={"tp": 8, "pp": 2}), kb.gpus["h100-80gb-sxm"], 16)
    assert (s.layout.tp, s.layout.pp) == (8, 2)


def test_one_node_of_tensor_parallel_and_training_pins_are_untouched(kb):
    _job(kb, parallelism={"tp": 8})
    resolve(Requirements.model_validate({"workload": {"task": "pretrain", "params_b": 70, "train_tokens": 1e12,
                                                      "parallelism": {"tp": 16}}}), kb)


def test_the_cli_estimates_and_warns_in_either_language(tmp_path):
    """The audit of E02's launch (DeepSeek-V3, SGLang --tp 16 --nnodes 2 on 2 x 8 H200) exits 0 with an estimate
    and the rule's warning quoting the network's share of a step: 61 x 2 x (61.6 + 0.717) us = 7.6 ms."""
    from tests.clirun import gpuwise

    f = str(Path(__file__).parent / "rules" / "NET-TP-ACROSS-NODES-SERVING" / "input.yaml")
    p = gpuwise("audit", f, env={"COLUMNS": "300"})
    assert p.returncode == 0, p.stderr
    assert "NET-TP-ACROSS-NODES-SERVING" in p.stdout and "61.6 us each" in p.stdout and "7.6 ms" in p.stdout
    z = gpuwise("audit", "--lang", "zh", f, env={"COLUMNS": "300"})
    assert z.returncode == 0 and "61.6 微秒" in z.stdout and "7.6 毫秒" in z.stdout


@pytest.mark.parametrize("count, tp, noted", [(4, 4, True), (8, 8, False), (16, 8, False)])
def test_a_pin_the_count_cannot_keep_is_said_not_dropped_silently(kb, count, tp, noted):
    """tp 8 pinned for Llama 3.1 70B on 4 x H100 can only be served as tp 4 (4 GPUs); that used to happen
    without a word. The copy now carries note.pin_not_kept with the pin and what was served; 8 and 16 GPUs
    keep tp 8 (16: two copies of 8) and carry no such note."""
    job = resolve(Requirements.model_validate({"workload": {
        "task": "inference", "model": "llama-3.1-70b", "precision": "fp8", "parallelism": {"tp": 8}}}), kb)
    s = SV.choose(job, kb.gpus["h100-80gb-sxm"], count)
    assert s.layout.tp == tp
    pins = [values for _, mid, values in s.replica.notes if mid == "note.pin_not_kept"]
    assert pins == ([{"key": "tp", "pin": 8, "used": 4}] if noted else [])


def test_the_note_reaches_the_report_in_either_language(tmp_path):
    from tests.clirun import gpuwise

    f = tmp_path / "r.yaml"
    f.write_text("workload:\n  task: inference\n  model: llama-3.1-70b\n  precision: fp8\n  parallelism: {tp: 8}\n")
    en = gpuwise("estimate", str(f), "--gpu", "H100", "--gpus", "4", env={"COLUMNS": "300"})
    assert en.returncode == 0 and "workload.parallelism.tp 8 cannot be kept on this GPU count or model: served " \
        "with tp 4" in en.stdout
    zh = gpuwise("estimate", str(f), "--gpu", "H100", "--gpus", "4", "--lang", "zh", env={"COLUMNS": "300"})
    assert "workload.parallelism.tp 8 在此 GPU 数量或模型上无法保持：按 tp 4 部署" in zh.stdout
