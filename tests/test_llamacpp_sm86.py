"""llama.cpp's GA10x read share (serving.yaml architecture_overrides.sm86, branch decodeblind34): from build 6100 on,
a compute-capability-8.6 part (RTX 30 series, RTX A-series, A10 / A40) reads its weights at 0.72 of the datasheet
where the framework's 0.80 holds for the RTX 4090 the 6100 release's 20 us a layer was read on.

Source: ggml-org/llama.cpp discussion #15013 'Performance of llama.cpp on NVIDIA CUDA' (build 5143fa8, Aug 2025),
llama-bench tg128 of Llama 2 7B Q4_0 (3.56 GiB = 3.82e9 B, 32 layers): RTX 3090 158.16 t/s, RTX 4090 186.21 t/s."""

from __future__ import annotations

import pytest

from gpuwise.estimators.serving.support import holds_from

LLAMA2_7B_Q4_0, LAYERS = 3.82e9, 32


def _sm86(kb):
    return kb.framework("llama.cpp").architecture_overrides["sm86"]


def test_the_share_is_the_3090_reading_at_the_release_layer_time(kb):
    layer_us = next(r for r in kb.framework("llama.cpp").releases if r.version == "6100").layer_overhead_us
    assert layer_us == 20
    share = LLAMA2_7B_Q4_0 / (1 / 158.16 - LAYERS * layer_us * 1e-6) / 936e9
    assert share == pytest.approx(0.718, abs=0.002)
    assert _sm86(kb).bandwidth_fraction == pytest.approx(share, abs=0.005)
    # the 4090 of the same table at the same 20 us reads at the framework's 0.80
    share_4090 = LLAMA2_7B_Q4_0 / (1 / 186.21 - LAYERS * 20e-6) / 1008e9
    assert share_4090 == pytest.approx(0.80, abs=0.005)


@pytest.mark.parametrize(("version", "holds"), [("2824", False), ("6099", False), ("6100", True), ("7293", True),
                                                (None, True)])
def test_the_share_holds_from_build_6100(kb, version, holds):
    assert holds_from(_sm86(kb), "bandwidth_fraction", version) is holds


def test_the_override_is_the_ga10x_chip_not_ampere(kb):
    """The A100 (compute capability 8.0, HBM) keeps the HBM figure; the 8.6 parts are GDDR6 / 6X."""
    assert "ampere" not in kb.framework("llama.cpp").architecture_overrides
    ga10x = [g for g in kb.gpus.values() if g.compute_capability == "8.6"]
    assert ga10x and all(g.memory.type.startswith("GDDR") for g in ga10x)
