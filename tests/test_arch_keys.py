"""Which figures reach which chip: knowledge keyed by GPU architecture, by one chip of an architecture, or by compute
capability (branch archkeys33).

gpus.yaml gives the B200 / GB200 architecture ``blackwell`` (compute capability 10.0), the RTX 50 / RTX PRO 6000 parts
``blackwell`` too (12.0) and GB10 12.1, while B300 / GB300 are ``blackwell-ultra`` (10.3): a figure keyed
``blackwell`` reaches the RTX parts and misses the B300. NVIDIA's Blackwell Ultra datasheet and technical blog
('Inside NVIDIA Blackwell Ultra', Aug 2025) give the B300 the B200's BF16 / FP8 dense rates with 1.5x the FP4 and
twice the attention exponent rate; kernels are built per chip (sm100a, sm103a, sm120a). So every table keyed by
architecture must say which of the three it covers. The first test checks that every key names something the catalog
has (a misspelt key would leave its figure unread, silently); the others change the figure a B300 should read and
check that the B300's result moves with it and the B200's does not (the lookup, not the number).
"""

from __future__ import annotations

import pytest

from gpuwise.estimators import serving as SV


def _ids(kb) -> tuple[set[str], set[str], set[str]]:
    gpus = kb.gpus.values()
    archs = {g.architecture for g in gpus if g.architecture}
    ccs = {g.compute_capability for g in gpus if g.compute_capability}
    chips = {f"sm{cc.replace('.', '')}" for cc in ccs}
    return archs, ccs, chips


def test_every_architecture_key_names_a_catalog_architecture_or_chip(kb):
    archs, ccs, chips = _ids(kb)
    rt, tr = kb.runtime, kb.runtime.training
    keyed: dict[str, tuple[set[str], set[str]]] = {  # table -> (its keys, what they may name)
        "runtime.mfu": (set(rt.mfu), archs),
        "training.fp4_gemm_over_fp8": (set(tr.fp4_gemm_over_fp8.ratio), archs),
        "training.moe_dispatch": (set(tr.moe_dispatch.ms_per_local_expert) | {tr.moe_dispatch.default_architecture},
                                  archs),
        "training_stacks.calibrated_on": ({a for s in kb.runtime.training_stacks.values() for a in s.calibrated_on},
                                          archs),
        "training.attention_kernels": ({k for u in tr.attention_kernels.utilization.values() for k in u},
                                       archs | ccs),
        "tco.resale": ({a for c in kb.tco.resale for a in c.architectures}, {"gaudi2", "gaudi3", "davinci"} | archs),
        "serving.block_fp8_small_batch": (set(kb.serving.block_fp8_small_batch.architectures), archs),
        "serving.fp8_large_batch": (set(kb.serving.fp8_large_batch.architectures), archs),
    }
    for name in ("nvfp4_small_batch", "nvfp4_k_walk", "nvfp4_large_batch"):
        keyed[f"serving.{name}"] = (set(getattr(kb.serving, name).compute_capabilities), ccs)
    for fw in kb.serving.frameworks:
        keyed[f"{fw.id}.architecture_overrides"] = (set(fw.architecture_overrides), archs | chips)
        keyed[f"{fw.id}.rocm_block_fp8_walk"] = ({a for w in fw.rocm_block_fp8_walk for a in w.architectures}, archs)
        keyed[f"{fw.id}.releases"] = ({a for r in fw.releases for a in r.block_fp8_gemm_architectures}, archs)
        if fw.triton_block_fp8_moe is not None:
            keyed[f"{fw.id}.triton_block_fp8_moe"] = (set(fw.triton_block_fp8_moe.architectures), archs | chips)
        if fw.rocm_triton_moe_tile is not None:
            keyed[f"{fw.id}.rocm_triton_moe_tile"] = (set(fw.rocm_triton_moe_tile.architectures), archs)
    unknown = {name: sorted(keys - allowed) for name, (keys, allowed) in keyed.items() if keys - allowed}
    assert unknown == {}
    assert {"blackwell-ultra", "sm103", "10.3"} <= archs | chips | ccs  # the B300's three names


def test_the_b300_is_its_own_architecture(kb):
    b200, b300, gb300, rtx = (kb.gpus[g] for g in ("b200", "b300", "gb300", "rtx-5090"))
    assert (b200.architecture, b200.compute_capability) == ("blackwell", "10.0")
    assert (b300.architecture, b300.compute_capability) == (gb300.architecture, gb300.compute_capability) \
        == ("blackwell-ultra", "10.3")
    assert (rtx.architecture, rtx.compute_capability) == ("blackwell", "12.0")


def _rate(kb, gpu: str, **extra) -> float:
    from gpuwise.estimators.candidate import training_job
    from gpuwise.estimators.step_time import gpu_speed
    from gpuwise.inputs.job import resolve
    from gpuwise.inputs.schema import Requirements

    w = {"task": "pretrain", "model": "llama-3.1-8b", "train_tokens": 1e9, "stack": "megatron", **extra}
    return gpu_speed(training_job(resolve(Requirements.model_validate({"workload": w}), kb)), kb.gpus[gpu])[0]


def test_the_b300_reads_blackwell_ultras_training_mfu(kb, monkeypatch):
    """runtime.mfu blackwell-ultra (0.69, NeMo's GB300 tables) is the B300's and GB300's: halving it halves their
    rate (the MFU is linear in it, and Megatron-Core, calibrated on Blackwell Ultra, runs at it), not the B200's."""
    before = {g: _rate(kb, g) for g in ("b300", "gb300", "b200")}
    half = kb.runtime.mfu["blackwell-ultra"].model_copy(update={"value": kb.runtime.mfu["blackwell-ultra"].value / 2})
    monkeypatch.setitem(kb.runtime.mfu, "blackwell-ultra", half)
    assert _rate(kb, "b300") == pytest.approx(before["b300"] / 2, rel=1e-9)
    assert _rate(kb, "gb300") == pytest.approx(before["gb300"] / 2, rel=1e-9)
    assert _rate(kb, "b200") == pytest.approx(before["b200"], rel=1e-12)


def test_the_b300_reads_blackwell_ultras_fp4_over_fp8_ratio(kb, monkeypatch):
    """training.fp4_gemm_over_fp8 blackwell-ultra (2.12, NeMo 26.04's GB300 NVFP4 / MXFP8 pairs): an NVFP4 step on a
    B300 moves with it, a B200's does not."""
    nvfp4 = {"precision": "fp4"}
    before = {g: _rate(kb, g, **nvfp4) for g in ("b300", "b200")}
    ratio = dict(kb.runtime.training.fp4_gemm_over_fp8.ratio)
    monkeypatch.setitem(kb.runtime.training.fp4_gemm_over_fp8.ratio, "blackwell-ultra", ratio["blackwell-ultra"] * 2)
    assert _rate(kb, "b300", **nvfp4) > before["b300"] * 1.05
    assert _rate(kb, "b200", **nvfp4) == pytest.approx(before["b200"], rel=1e-12)


def test_attention_kernel_keys_reach_a_chip_by_its_compute_capability(kb, monkeypatch):
    """The fused class has no B300 figure (keyed '10.0'); a '10.3' key would be read for B300 and GB300 (the lookup is
    compute capability first, then architecture) and not for the B200."""
    long = {"model": None, "params_b": 8.03, "architecture": {"layers": 32, "hidden_size": 4096, "heads": 32,
            "kv_heads": 8, "ffn_size": 14336, "vocab_size": 128256}, "seq_len": 32768}
    before = {g: _rate(kb, g, **long) for g in ("b300", "gb300", "b200")}
    fused = kb.runtime.training.attention_kernels.utilization["fused"]
    monkeypatch.setitem(fused, "10.3", 0.05)
    for g in ("b300", "gb300"):
        assert _rate(kb, g, **long) < before[g] * 0.9
    assert _rate(kb, "b200", **long) == pytest.approx(before["b200"], rel=1e-12)


@pytest.mark.parametrize("framework", ["vllm", "sglang"])
def test_a_chip_entry_reaches_the_b300(kb, accuracy, monkeypatch, framework):
    """No fused-MoE reading reaches the B300 today (it keeps the framework's grouped_gemm_floor_us); an
    ``architecture_overrides`` entry keyed ``sm103`` or ``blackwell-ultra`` would be read for it, not for the B200."""
    fw = kb.framework(framework)
    version = "0.5.8" if framework == "sglang" else "0.12.0"

    def floor(gpu: str) -> float:
        job = accuracy.serving_job(kb, "qwen3-30b-a3b", "bf16", framework, 16, 512, tp=1, framework_version=version)
        return SV.choose(job, kb.gpus[gpu], 1).engine.grouped_floor

    assert floor("b300") == pytest.approx(fw.grouped_gemm_floor_us.value * 1e-6)
    b200 = floor("b200")
    for key in ("sm103", "blackwell-ultra"):
        entry = fw.architecture_overrides["blackwell"].model_copy(update={"grouped_gemm_floor_us": 2.0})
        with monkeypatch.context() as m:
            m.setitem(fw.architecture_overrides, key, entry)
            assert floor("b300") == pytest.approx(2e-6) and floor("gb300") == pytest.approx(2e-6)
            assert floor("b200") == pytest.approx(b200)
