"""Hostile round 28's seen-and-left (benchmarks/hostile_round28.py's docstring): a hybrid served with 4 MB of
activations, 64 rented Sparks on one network and their finding on another, shares printed as 100.0%, and a
quantized checkpoint's alias served in bf16. Each test fails without its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuwise.messages import fill
from gpuwise.render.fmt import Fmt

from .clirun import gpuwise


def _one_line(r, code: int = 2) -> str:
    assert r.returncode == code, (r.stdout[-300:], r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
    return r.stderr


# ------------------------------------------------------------------ 1. a hybrid's working set at the decode end
def test_a_continuous_batching_engine_holds_a_chunks_working_set_at_the_decode_end(tmp_path: Path) -> None:
    # Qwen3.5-397B-A17B on 8 H200 (tensor parallel 8), 32 x (8,000 + 500) tokens: the decode end has more KV cache
    # than the prefill end, so it is the peak; it showed the logits alone (4 B x 248,320 x 32 / 8 = 3,973,120 B)
    # where vLLM reserves the working set of a step budget of prompt tokens for the engine's life (it sizes its
    # KV pool after profiling a forward of max_num_batched_tokens) and runs such a chunk beside the decodes.
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: qwen3.5-397b-a17b, prompt_tokens: 8000, "
                                     "output_tokens: 500, concurrent_requests: 32}\n", encoding="utf-8")
    d = json.loads(gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--format", "json",
                           cwd=tmp_path).stdout)
    m = d["memory"]
    act = next(t for t in m["terms"] if t["name"] == "activations")
    assert act["inputs"]["tokens"] == 8192  # the engine's step budget
    # (tokens x (8 B x hidden 4096 + 6 B x ffn 1024 x 10 experts) + 4 B x vocab 248,320 x 32) / 8 GPUs
    hand = (8192 * (8 * 4096 + 6 * 1024 * 10) + 4 * 248_320 * 32) / 8
    assert hand == 100_442_112
    # and beside it what vLLM's start-up profile run holds beyond the step's working set, kept from the KV pool for
    # the engine's life (serving.yaml vllm profile_sampler: 37.7 B a logit x the vocabulary x min(max_num_seqs
    # 1,024, 8,192) requests, less (8,192 x (8 B x 4,096 + 6 B x 1,024 x 10) + 4 B x 248,320 x 1,024) / 8)
    profile = 37.7 * 248_320 * 1024 - (8192 * (8 * 4096 + 6 * 1024 * 10) + 4 * 248_320 * 1024) / 8
    assert act["inputs"]["profile_sampler_per_gpu_bytes"] == pytest.approx(profile) == 9_362_735_104
    assert m["peak_phase"] == "decode" and m["breakdown"]["activations"] == hand + profile
    # the decode end: the KV of 32 x (8,000 + 500 / 2) tokens over the 2 KV heads' GPUs, the DeltaNet state over 8
    # (the recurrent state in float32 as Qwen3.5's config keeps it, the convolution state in 2 B: qwen35state)
    kv = 15 * 2 * 2 * 256 * 2 * 32 * 8250 / 2 + 45 * (1_048_576 * 4 + 36_864 * 2) * 32 / 8
    assert m["breakdown"]["kv_cache"] == kv
    assert m["phases"]["decode"] == pytest.approx(m["breakdown"]["weights"] + kv + hand + profile, abs=1)
    assert act["note"].startswith("held at the end of decode too")
    zh = "".join(gpuwise("estimate", "r.yaml", "--gpu", "h200", "--gpus", "8", "--lang", "zh",
                         cwd=tmp_path).stdout.split())
    assert "解码结束时同样占用" in zh


def test_a_static_batch_still_holds_only_the_logits_at_the_decode_end(tmp_path: Path) -> None:
    # transformers' generate() prefills every prompt at once and then only decodes: its decode end carries the
    # logits, 4 B x vocab 128,256 x 8 sequences = 4,104,192 B (llama-3.1-8b at 200 + 4,000 tokens)
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: llama-3.1-8b, prompt_tokens: 200, "
                                     "output_tokens: 4000, concurrent_requests: 8, framework: transformers}\n",
                                     encoding="utf-8")
    m = json.loads(gpuwise("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path).stdout)["memory"]
    assert m["peak_phase"] == "decode" and m["breakdown"]["activations"] == 4 * 128_256 * 8


# ------------------------------------------------------------------ 2. the network of rented Sparks
def test_rented_sparks_run_and_are_said_to_run_over_their_own_port(tmp_path: Path) -> None:
    # an offer of DGX Sparks stating no network: 2-8 were estimated over the Spark's ConnectX-7 (gpus.yaml
    # link.system_fabric roce-200, which MARKET-NETWORK-ASSUMED named), 16-64 over the clouds' ethernet-25
    (tmp_path / "acme.csv").write_text("gpu,gpus,price\nDGX Spark,2,1.0\n", encoding="utf-8")
    (tmp_path / "r.yaml").write_text("workload: {task: inference, model: qwen3-next-80b-a3b, precision: bf16, "
                                     "prompt_tokens: 1500, output_tokens: 500}\nconstraints: {gpus: [gb10], "
                                     "acquisition: rent}\n", encoding="utf-8")
    assert gpuwise("prices", "import", "acme.csv", "-o", "ov", "--as-of", "2026-11-01", cwd=tmp_path).returncode == 0
    d = json.loads(gpuwise("recommend", "r.yaml", "--knowledge", "ov", "--format", "json", cwd=tmp_path).stdout)
    links = {t["facts"]["link"] for t in d["trace"] if "link" in t.get("facts", {})}
    assert any(link.startswith("roce-200 between 64 nodes") for link in links), links
    assert not [link for link in links if "ethernet" in link], links
    named = {f["values"]["network_name"] for f in d["findings"] + d["trace"]
             if f.get("rule") == "MARKET-NETWORK-ASSUMED" and "values" in f}
    assert named == {"roce-200"}
    assert not [f for f in d["findings"] if f["rule"] == "NET-SLOW-NETWORK"]


# ------------------------------------------------------------------ 3. shares near the ends
@pytest.mark.parametrize("x, digits, text", [
    (1 - 7 / 26_280, 1, "99.97%"),  # 7 hours run of 26,280 owned: not 100.0%
    (1 - 7 / 26_280, 0, "99.97%"),
    (0.996, 0, "99.6%"),
    (0.0004, 0, "0.04%"),
    (1 - 1e-9, 1, ">99.999%"),  # past two more decimals: said as a bound
    (1e-9, 0, "<0.01%"),
    (1.0, 1, "100.0%"), (0.0, 1, "0.0%"), (0.5, 0, "50%"), (0.25, 1, "25.0%"),  # the ends and the rest as before
])
def test_a_share_that_is_not_an_end_never_prints_as_one(x: float, digits: int, text: str) -> None:
    from gpuwise.messages import share

    assert share(x, digits) == text
    assert Fmt.pct(x, digits) == text
    assert fill("{v:." + str(digits) + "%}", {"v": x}) == text
    if digits == 0:
        assert fill("{v:pct}", {"v": x}) == text


def test_gpus_run_7_hours_of_26280_are_not_idle_100_percent_of_the_time(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(
        "title: 16 bought\nworkload: {task: finetune, method: full, model: llama-3.1-70b, train_tokens: 1.0e+8}\n"
        "hardware: {gpu: H100 SXM, count: 16, nodes: 2}\nacquisition: {mode: buy, months: 36}\n", encoding="utf-8")
    d = json.loads(gpuwise("audit", "p.yaml", "--format", "json", cwd=tmp_path).stdout)
    f = next(f for f in d["findings"] if f["rule"] == "TCO-BOUGHT-IDLE")
    idle = f["values"]["owned_idle_fraction"]
    assert f["values"]["owned_hours"] == 26_280 and 0.9997 < idle < 1  # 36 x 730 hours, run about 7
    assert f"{100 * idle:.2f}% of the time they would sit idle" in f["message"] and "100.0%" not in f["message"]
    text = " ".join(gpuwise("audit", "p.yaml", cwd=tmp_path).stdout.split())
    assert "% of the proposed cost)" in text and "(100.0% of the proposed cost)" not in text
    zh = "".join(gpuwise("audit", "p.yaml", "--lang", "zh", cwd=tmp_path).stdout.split())
    assert f"{100 * idle:.2f}%的时间处于闲置" in zh


# ------------------------------------------------------------------ 4. an alias that names its precision
SERVE = "task: inference, prompt_tokens: 1000, output_tokens: 200"


@pytest.mark.parametrize("name, precision, layout", [
    ("NVIDIA-Nemotron-3-Nano-30B-A3B-FP8", "fp8", "fp8 weights"),
    ("qwen/qwen3.5-27b-gptq-int4", "int4", "int4 weights"),
    ("nvidia/qwen3.5-397b-a17b-nvfp4", "fp4", "nvfp4 weights"),
])
def test_an_alias_naming_a_quantized_checkpoint_is_served_at_its_precision(tmp_path: Path, name: str,
                                                                          precision: str, layout: str) -> None:
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, model: {name}}}\n", encoding="utf-8")
    d = json.loads(gpuwise("estimate", "r.yaml", "--gpu", "b200", "--format", "json", cwd=tmp_path).stdout)
    assert layout in d["memory"]["layout"]
    said = [a for a in d["assumptions"] if a["field"] == "workload.precision"]
    assert [a["reason"] for a in said] == [f"{name} names a checkpoint in {precision}: served at precision "
                                           f"{precision}"]
    zh = "".join(gpuwise("estimate", "r.yaml", "--gpu", "b200", "--lang", "zh", cwd=tmp_path).stdout.split())
    assert f"{precision}检查点：按精度{precision}部署" in zh


def test_an_alias_naming_its_precision_refuses_another_and_a_16_bit_one_states_nothing(tmp_path: Path) -> None:
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, model: NVIDIA-Nemotron-3-Nano-30B-A3B-FP8, "
                                     "precision: bf16}\n", encoding="utf-8")
    assert _one_line(gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path)) == (
        "gpuwise: r.yaml: workload.model: NVIDIA-Nemotron-3-Nano-30B-A3B-FP8 names a checkpoint in fp8, not "
        "precision bf16: set precision fp8 or name the model without its precision\n")
    zh = _one_line(gpuwise("estimate", "r.yaml", "--gpu", "h100", "--lang", "zh", cwd=tmp_path))
    assert "指的是 fp8 检查点，而不是精度 bf16" in zh
    # a quantization method implying another precision is refused the same way
    (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, model: qwen3.5-27b-fp8, quantization: awq}}\n",
                                     encoding="utf-8")
    assert "names a checkpoint in fp8, not precision int4" in _one_line(
        gpuwise("estimate", "r.yaml", "--gpu", "h100", cwd=tmp_path))
    # the stated precision the name gives, and a 16-bit release, take no note
    for model, extra in (("NVIDIA-Nemotron-3-Nano-30B-A3B-FP8", ", precision: fp8"),
                         ("nvidia/nvidia-nemotron-3-nano-30b-a3b-bf16", "")):
        (tmp_path / "r.yaml").write_text(f"workload: {{{SERVE}, model: {model}{extra}}}\n", encoding="utf-8")
        d = json.loads(gpuwise("estimate", "r.yaml", "--gpu", "h100", "--format", "json", cwd=tmp_path).stdout)
        assert not [a for a in d["assumptions"] if a.get("message_id") == "assume.precision_of_name"]
