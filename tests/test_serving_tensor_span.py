"""A pinned serving tensor-parallel degree wider than one node (``workload.parallelism.tp: 16``) used to be
replaced without a word by tensor parallel 8 x 2 pipeline stages (serving/layout.py kept every layout when
none matched the pin): a serving copy spans nodes only as pipeline stages. It is now an input error naming
the field, with the layout gpuwise can price as the hint (tests/data/validation/decode_independent.csv E07,
DeepSeek-R1 FP8 with SGLang --tp 16 on 2 x 8 H100, is no longer estimated as if it ran TP8 x PP2)."""

from __future__ import annotations

import pytest

from gpuwise.errors import UserError
from gpuwise.estimators import serving as SV
from gpuwise.inputs.job import resolve
from gpuwise.inputs.schema import Requirements

R1 = {"task": "inference", "model": "deepseek-r1", "precision": "fp8", "framework": "sglang",
      "prompt_tokens": 128, "output_tokens": 128}


def _job(kb, **w):
    return resolve(Requirements.model_validate({"workload": {**R1, **w}}), kb)


@pytest.mark.parametrize("par, pp", [({"tp": 16, "pp": 1}, 2), ({"tp": 16}, 2), ({"tp": 32, "pp": 2}, 8)])
def test_tensor_parallel_across_nodes_is_refused_naming_the_field(kb, par, pp):
    """16 GPUs of tensor parallel over nodes of 8: 2 stages of 8; tp 32 x pp 2: 4 x 2 = 8 stages of 8."""
    with pytest.raises(UserError) as e:
        _job(kb, parallelism=par)
    line = e.value.line()
    assert "workload.parallelism.tp" in line and "\n" not in line
    assert f"tensor parallelism of {par['tp']} GPUs spans nodes of 8" in line
    assert f"pin tp 8 with pp {pp}" in line


def test_the_hinted_layout_is_the_one_served(kb):
    """The hint is a layout the serving model keeps: tp 8 + pp 2 on 16 x H100 is chosen as pinned."""
    s = SV.choose(_job(kb, parallelism={"tp": 8, "pp": 2}), kb.gpus["h100-80gb-sxm"], 16)
    assert (s.layout.tp, s.layout.pp) == (8, 2)


def test_one_node_of_tensor_parallel_and_training_pins_are_untouched(kb):
    _job(kb, parallelism={"tp": 8})
    resolve(Requirements.model_validate({"workload": {"task": "pretrain", "params_b": 70, "train_tokens": 1e12,
                                                      "parallelism": {"tp": 16}}}), kb)


def test_the_cli_exits_2_with_one_line_in_either_language(tmp_path):
    from tests.clirun import gpuwise

    f = tmp_path / "r.yaml"
    f.write_text("workload:\n  task: inference\n  model: deepseek-r1\n  precision: fp8\n  framework: sglang\n"
                 "  parallelism: {tp: 16}\n")
    p = gpuwise("recommend", str(f))
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    assert "workload.parallelism.tp" in p.stderr and "pipeline stages" in p.stderr
    z = gpuwise("recommend", "--lang", "zh", str(f))
    assert z.returncode == 2 and "workload.parallelism.tp" in z.stderr and "流水线阶段" in z.stderr


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
