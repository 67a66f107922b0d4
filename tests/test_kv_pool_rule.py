"""A stated KV-cache pool (``workload.kv_cache_tokens``) is checked against the memory of the GPU and layout: its
tokens x the KV bytes a token takes per GPU beside what the device's memory leaves after the weights, the working
set and the CUDA context. A pool beyond that cannot exist (an engine sizes its pool from that memory: vLLM's
determine_available_memory), so the copy serves nothing on it and SRV-KV-POOL-NO-ROOM rejects the configuration.

Llama 3.1 8B (meta-llama/Llama-3.1-8B config.json: 32 layers, 8 KV heads of 128; 8,030,261,248 parameters, the
safetensors total) keeps 2 x 32 x 8 x 128 x 2 B = 131,072 B of BF16 KV a token. A pool of 700,000 tokens is
91,750,400,000 B: more than an H100 SXM's whole 81,559 MiB (85,520,809,984 B, nvidia-smi), within an H200's
143,771 MiB (150,754,820,096 B)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise.decide import engine as rules
from gpuwise.decide import rulebook
from gpuwise.decide.audit import audit
from gpuwise.estimators import serving as SV

from .clirun import gpuwise

KV_TOKEN = 2 * 32 * 8 * 128 * 2
POOL = 700_000
WEIGHTS = 8_030_261_248 * 2
H100, H200 = 81_559 * 2**20, 143_771 * 2**20


def _serve(kb, accuracy, gpu: str, tp: int = 1, pool: int = POOL):
    job = accuracy.serving_job(kb, "llama-3.1-8b", "bf16", "vllm", 1000, 1000, 64, tp, 1,
                               options=f"kv_cache_tokens={pool}")
    return SV.choose(job, kb.gpus[gpu], tp)


def test_the_pool_fits_an_h200_but_not_an_h100(kb, accuracy):
    """The pool's bytes a GPU are the same on both; the room is the device's memory less 16,060,522,496 B of weights,
    the working set with the allocator's 5 % on it, and 1 GiB of CUDA context: 66.8 GB on the H100, 132.0 GB on the
    H200. On the H200 the pool holds 700,000 // 1,504 = 465 sequences of 1,000 + 500 tokens in blocks of 16."""
    assert KV_TOKEN * POOL == 91_750_400_000 > H100
    small, large = _serve(kb, accuracy, "h100-80gb-sxm").replica, _serve(kb, accuracy, "h200-141gb-sxm").replica
    for r, cap in ((small, H100), (large, H200)):
        assert r.kv_token_gpu == KV_TOKEN and r.weights_gpu == WEIGHTS
        assert r.pool_gpu == 91_750_400_000
        assert r.pool_room_gpu == pytest.approx(cap - WEIGHTS - 1.05 * r.act_gpu - 2**30, abs=1.0)
    assert small.pool_room_gpu == pytest.approx(66.81e9, abs=0.01e9)
    assert large.pool_room_gpu == pytest.approx(132.05e9, abs=0.01e9)
    # no sequence is served on a pool that cannot exist: the copy does not fit
    assert not small.fits and small.max_seqs == 0
    assert large.fits and large.seq_tokens == 1504 and large.max_seqs == POOL // 1504 == 465


def test_tensor_parallelism_halves_the_pool_a_gpu_holds(kb, accuracy):
    """Two H100 in TP 2: each holds 4 of the 8 KV heads, 45,875,200,000 B of the pool, and half the weights."""
    r = _serve(kb, accuracy, "h100-80gb-sxm", tp=2).replica
    assert r.pool_gpu == POOL * KV_TOKEN / 2 and r.weights_gpu == WEIGHTS / 2
    assert r.fits and r.max_seqs == 465


def test_a_pool_within_the_device_but_past_the_headroom_is_kept(kb, accuracy):
    """A pool an engine logged may use memory gpuwise's headroom policy keeps free (a higher
    gpu_memory_utilization): 480,000 tokens, 62.9 GB, pass the 58.3 GB the 0.95 headroom leaves on an H100 but fit
    its 66.8 GB, so the copy is priced on them: 480,000 // 1,504 = 319 sequences."""
    r = _serve(kb, accuracy, "h100-80gb-sxm", pool=480_000).replica
    assert r.free_gpu < 480_000 * KV_TOKEN < r.pool_room_gpu
    assert r.fits and r.max_seqs == 480_000 // 1504 == 319


BOOK = rulebook.load()
CAND = {"t": "candidate", "stage": "compute", "tag": "", "gpu": "h100-80gb-sxm", "count": 1, "training": False,
        "max_concurrent_sequences": 0.0}


@pytest.mark.parametrize("tokens, pool_gb, room_gb, pool_rule, room_rule", [
    (700_000, 91.75, 66.81, True, False),  # the pool cannot exist: its own rule, not "no room for a sequence"
    (700_000, 91.75, 132.05, False, True),  # it fits, yet no sequence does (a figure that cannot come from one pool)
    (0, -1.0, -1.0, False, True),  # no pool stated: the memory alone decides
])
def test_the_rule_is_the_comparison(tokens, pool_gb, room_gb, pool_rule, room_rule):
    got = {rule for rule, _i, _s in rules.run(BOOK, [{**CAND, "kv_pool_tokens": tokens, "kv_pool_gb": pool_gb,
                                                        "kv_pool_room_gb": room_gb}]).firings}
    assert ("SRV-KV-POOL-NO-ROOM" in got) is pool_rule
    assert ("CMP-NO-ROOM-TO-SERVE" in got) is room_rule


def _proposal(tmp_path: Path, gpu: str) -> Path:
    path = tmp_path / f"{gpu}.yaml"
    path.write_text(yaml.safe_dump({
        "title": "Llama 3.1 8B with a stated pool",
        "workload": {"task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "prompt_tokens": 1000,
                     "output_tokens": 1000, "concurrent_requests": 64, "kv_cache_tokens": POOL},
        "hardware": {"gpu": gpu, "count": 1, "nodes": 1},
        "acquisition": {"mode": "rent", "provider": "runpod", "hourly_usd": 3.0}}))
    return path


def test_an_audit_blocks_the_h100_and_not_the_h200(tmp_path):
    got = audit(str(_proposal(tmp_path, "H100 SXM")))
    f = next(f for f in got.findings if f.rule == "SRV-KV-POOL-NO-ROOM")
    assert f.severity == "blocker"
    assert f.values["kv_pool_gb"] == pytest.approx(91.7504, abs=1e-9)
    assert "700,000 tokens" in f.message and "91.8 GB per GPU" in f.message and "66.8 GB" in f.message
    assert not any(g.rule == "CMP-NO-ROOM-TO-SERVE" for g in got.findings)
    fine = audit(str(_proposal(tmp_path, "H200 SXM")))
    assert not any(g.rule == "SRV-KV-POOL-NO-ROOM" for g in fine.findings)


def test_the_blocker_in_chinese(tmp_path):
    path = _proposal(tmp_path, "H100 SXM")
    r = gpuwise("audit", str(path), "--lang", "zh", cwd=tmp_path)
    line = next(x for x in r.stdout.splitlines() if "SRV-KV-POOL-NO-ROOM" in x)
    assert "700,000" in r.stdout and "91.8 GB" in r.stdout
    assert "KV" in line and "stated KV-cache pool" not in r.stdout and "more than the" not in r.stdout


def _estimate(tmp_path: Path, gpu: str) -> dict:
    path = tmp_path / "pool.yaml"
    path.write_text(yaml.safe_dump({"workload": {
        "task": "inference", "model": "llama-3.1-8b", "precision": "bf16", "context_len": 1500,
        "concurrent_requests": 64, "kv_cache_tokens": POOL}}))
    r = gpuwise("estimate", str(path), "--gpu", gpu, "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    import json
    return json.loads(r.stdout)


def test_the_memory_table_holds_the_stated_pool(tmp_path):
    """The engine allocates its stated pool whole at start, whatever its requests hold: the memory table's KV cache
    is the pool, 700,000 x 131,072 B = 91,750,400,000 B, not the 64 requests' 72,000 tokens (9.4 GB). So the
    table and the strategy agree: it does not fit one H100 (and the strategy says "one GPU", never "over 1 GPUs"),
    and it fits one H200."""
    small, large = _estimate(tmp_path, "h100"), _estimate(tmp_path, "h200")
    for got in (small, large):
        assert got["memory"]["breakdown"]["kv_cache"] == POOL * KV_TOKEN == 91_750_400_000
        assert got["memory"]["breakdown"]["weights"] == WEIGHTS
    assert small["gpu"]["fits"] is False and large["gpu"]["fits"] is True
    assert small["memory"]["per_gpu_bytes"] > small["memory"]["usable_per_gpu_bytes"]
    assert small["gpu"]["strategy"].startswith("does not fit: one GPU would hold the stated KV-cache pool of "
                                               "700,000 tokens, 91.8 GB, where 66.8 GB is left")
