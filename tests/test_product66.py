"""product66: five product leftovers (tests/data/validation/README.md 'product66').

1. With context parallelism the estimate's formulas printed a ``dp`` that is DP x CP (``dp = 72, cp = 2`` beside
   the Layout row's 'CP 2 x DP 36'; the ZeRO note '72 data-parallel GPUs'; the traffic '(dp-1)/dp'): each now names
   the product as its factors ('dp x cp = 36 x 2 = 72', '32 GPUs (DP 4 x CP 8)'); the JSON keeps ``dp``.
Each test that names a defect fails on the branch point (ae05131a); the figures are worked by hand beside them.
"""

from __future__ import annotations

import json

from .clirun import ROOT
from .clirun import gpuwise as cli

DATA = ROOT / "tests" / "data" / "product66"


def _run(*args: str, cwd=ROOT) -> str:
    r = cli(*args, cwd=cwd)
    assert r.returncode in (0, 1) and not r.stderr.strip(), r.stderr
    return r.stdout


def _flat(text: str) -> str:
    """A report's text with its wrapping undone (a formula's line breaks where 80 columns end)."""
    return " ".join(text.split())


# ---------------------------------------------------------------- 1. dp named as DP x CP
CP_RUN = str(DATA / "estimate-70b-32k-cp.yaml")  # Llama 3.1 70B pretraining at 32,768 tokens on 64 H100


def test_the_estimates_formulas_name_dp_as_the_layout_row_does():
    d = json.loads(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64", "--format", "json"))
    layout = d["gpu"]["layout"]
    tp, pp, dp, cp = layout["tp"], layout["pp"], layout["dp"], layout["cp"]
    # the layout's dp counts the context-parallel GPUs: tp x pp x dp = the GPUs (docs: replicas = dp / cp)
    assert cp > 1 and tp * pp * dp == 64
    replicas = dp // cp
    text = _flat(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64"))
    # the Layout row names the replicas alone: 'TP 2 x CP 8 x DP 4' (2 x 8 x 4 = 64)
    assert f"CP {cp} × DP {replicas}," in text and tp * cp * replicas == 64
    # the step time's and scaling efficiency's inputs, and the traffic's: 'dp x cp = 4 x 8 = 32', never 'dp = 32'
    step = text.split("Step time = ")[1].split("Pipeline bubble")[0]
    assert f"dp × cp = {replicas} × {cp} = {dp}, ep = 1, cp = {cp}," in step
    assert f"dp = {dp}," not in text and text.count(f"dp × cp = {replicas} × {cp} = {dp}") == 3
    # the ZeRO-3 traffic: each collective moves (n-1)/n of the weights over the DP x CP group (Megatron's
    # distributed optimizer shards over the data-parallel group with its context-parallel ranks), 31/32 here
    traffic = text.split("Data-parallel traffic per step = ")[1].split("Goodput")[0]
    assert "each ((dp × cp)-1)/(dp × cp) × bytes per GPU" in traffic
    assert f"each ({dp}-1)/{dp} × bytes per GPU" in traffic
    [term] = [t for t in d["gpu"]["terms"] if t["name"] == "dp_traffic_seconds"]
    i = term["inputs"]
    assert i["dp"] == dp == 32 and i["cp"] == cp  # the JSON keeps dp (the product); cp is added beside it
    assert abs(i["bytes_per_gpu"] - (dp - 1) / dp * i["weight_bytes"]) < 1e-6 * i["weight_bytes"]
    # the memory note: the ZeRO-3 shards over 32 GPUs, DP 4 x CP 8 (not '32 data-parallel GPUs')
    assert f"over {dp} GPUs (DP {replicas} × CP {cp})" in text and "data-parallel GPUs" not in text
    zh = _flat(_run("estimate", CP_RUN, "--gpu", "h100", "--gpus", "64", "--lang", "zh"))
    assert f"dp × cp = {replicas} × {cp} = {dp}" in zh and f"dp = {dp}，" not in zh
    assert f"{dp} 块 GPU（DP {replicas} × CP {cp}）" in zh


def test_a_layout_without_context_parallelism_keeps_dp():
    run = str(DATA / "estimate-8b-4k-dp.yaml")  # Llama 3.1 8B at 4,096 tokens on 16 H100: DP 16, no CP
    text = _flat(_run("estimate", run, "--gpu", "h100", "--gpus", "16"))
    assert "Layout DP 16," in text and "dp = 16, ep = 1, cp = 1," in text and "dp × cp" not in text
