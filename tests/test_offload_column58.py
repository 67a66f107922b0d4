"""training_conditions.csv's ``offload`` column (branch offload58): where a held-out run kept its optimizer state and
weights, read from its own DeepSpeed config, and how benchmarks/accuracy.py states it to gpuwise."""

import pytest

from benchmarks.accuracy_training import offload_device, run_conditions, with_conditions


def test_the_column_holds_what_each_config_offloads():
    conds = run_conditions()
    # jzhang38/EasyContext accelerate_configs/zero3_offload.json: ZeRO-3, offload_optimizer and offload_param both
    # device cpu, pin_memory true
    for rid in ("H501", "H502", "H503", "H504", "H505"):
        assert conds[rid]["offload"] == "cpu:optimizer+parameters", rid
        assert conds[rid]["zero"] == "3" and conds[rid]["stack_version"] == "", rid
    # ms-swift swift/llm/ds_config/zero3_offload.json (7258e11b, 401737e2): offload_param cpu, offload_optimizer none
    assert conds["H506"]["offload"] == "cpu:parameters"
    # stated without offload by their sources: H553's config tool prints offloading false, H685's run no optimizer
    # offload
    assert conds["H553"]["offload"] == conds["H685"]["offload"] == "none"
    assert {c["offload"] for c in conds.values()} <= {"", "none", "cpu:optimizer", "cpu:optimizer+parameters",
                                                       "cpu:parameters"}


def test_the_workload_takes_the_device():
    conds = run_conditions()
    w = with_conditions({"task": "pretrain", "model": "llama-2-7b"}, conds["H501"])
    assert w["offload"] == "cpu" and w["zero_stage"] == 3
    assert "offload" not in with_conditions({"task": "pretrain"}, conds["H501"] | {"offload": ""})
    assert with_conditions({"task": "pretrain"}, conds["H553"])["offload"] == "none"


@pytest.mark.parametrize(("value", "zero"), [("cpu", "3"), ("gpu:optimizer", "3"), ("cpu:weights", "3"),
                                             ("none:optimizer", ""), ("cpu:parameters", "2"),
                                             ("nvme:optimizer+parameters", "1")])
def test_a_value_the_configs_cannot_hold_is_a_data_error(value, zero):
    # DeepSpeed's offload_param is valid only with stage 3 (deepspeed/runtime/zero/offload_config.py)
    with pytest.raises(ValueError):
        offload_device(value, zero)


def test_optimizer_offload_at_any_stage():
    assert offload_device("cpu:optimizer", "2") == "cpu"
    assert offload_device("nvme:optimizer+parameters", "3") == "nvme"
    assert offload_device("none") == "none"
