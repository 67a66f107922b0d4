"""Every training memory term's formula "with numbers", as the report prints it, gives the term's value.

review30 read the memory section of `gpuwise estimate examples/finetune-full-13b.yaml --gpu h100 --gpus 8`:
its activations line printed 4,096 x 40 x 233,472 + 12 B x 32,000 x 4,096 = 39.82e9 B for a value of
39.91e9 B (the embedding output and final norm, 2 x 2 B x 5,120 x 4,096 = 83.9e6 B, were left out), and a
model-parallel layout's weights line read 'parameters on the busiest GPU (...) x 2 B', the parameter count
(dense_params_on_gpu, 8.82e9 for llama-3.1-70b on TP4 PP2) not among its numbers. Here each printed line is
evaluated, its words and units dropped, over a grid of the layouts users get."""

from __future__ import annotations

import re

import pytest

from gpuwise.estimators.memory import TrainSetup, parallel_training_memory, training_memory
from gpuwise.inputs.shape import from_catalog
from gpuwise.render import words
from gpuwise.render.fmt import Fmt, operand_number

NO_OVERHEAD = (0.0, 0.0)
# the words a printed formula's arithmetic may carry besides its numbers: units and the names of its parts
_WORDS = re.compile(r"\b(B|GPUs|stages|moments|chunks|bits|frozen base)\b")
_NOTE = re.compile(r"\([^()]*[A-Za-z]{2,}[^()]*\)")  # a parenthesis of words: "(logits)", "(ZeRO-3)"


def evaluate(shown: str, at_step: bool = False) -> float:
    """A formula with its numbers worked out: the units, the notes in parentheses and what follows a ';'
    (a sentence about the layout) dropped; '×' multiplies. The foreach AdamW's step copy counts at the
    optimizer step (``at_step``), the moment the term is shown at."""
    text = shown.replace("; at the step the foreach AdamW adds", " +" if at_step else "; ")
    text = re.sub(r"^[A-Za-z][A-Za-z ]*: ", "", text.split("; ")[0]).replace("×", "*")  # a label: "decode ...: "
    text = re.sub(r"(?<=\d),(?=\d{3})", "", _WORDS.sub("", text))
    while _NOTE.search(text):
        text = _NOTE.sub("", text)
    assert re.fullmatch(r"(max|min|[\d.e+\s*/(),-])+", text), (shown, text)
    return float(eval(text))


def with_numbers(term, exact: bool = False) -> str:
    """The line the report prints (gpuwise/render/views/base.py BaseView.term): the formula's parts with
    each operand replaced by its input's number; ``exact``: the input's every digit (the printed ones have
    three significant figures, 13e9 for 13,015,864,320)."""
    f = Fmt("en")

    def number(name: str) -> str | None:
        v = term.inputs.get(name)
        return repr(float(v)) if exact and isinstance(v, (int, float)) else operand_number(name, term.inputs)

    return words.formula_parts(term.formula_phrases, f, number)


def _setup(method: str = "full", *, zero: int = 0, dp: int = 1, ckpt: bool = False, optimizer: str = "adamw",
           mixed: bool = True, attention: str = "sdpa", batch: int = 2, **more) -> TrainSetup:
    return TrainSetup(method, "bf16", mixed, optimizer, batch, 2048, ckpt, attention, zero,
                      more.pop("offload", "none"), dp, **more)


GRID = {  # model, setup: the layouts of the brief (checkpointing off; model parallel with ZeRO-1/3, LoRA, MoE)
    "13b ZeRO-3 x8 (review30)": ("llama-2-13b", _setup(zero=3, dp=8)),
    "13b ZeRO-1 x8": ("llama-2-13b", _setup(zero=1, dp=8)),
    "13b ZeRO-3 x8, CPU offload": ("llama-2-13b", _setup(zero=3, dp=8, offload="cpu")),
    "13b ZeRO-2 x8, NVMe offload": ("llama-2-13b", _setup(zero=2, dp=8, offload="nvme")),
    "1b torch amp": ("llama-3.2-1b", _setup()),
    "1b pure bf16, eager": ("llama-3.2-1b", _setup(mixed=False, optimizer="adamw-fused", attention="eager")),
    "13b LoRA": ("llama-2-13b", _setup("lora")),
    "13b LoRA ZeRO-3 x4": ("llama-2-13b", _setup("lora", zero=3, dp=4)),
    "8b QLoRA": ("llama-3.1-8b", _setup("qlora")),
    "70b QLoRA, checkpointing": ("llama-3.1-70b", _setup("qlora", ckpt=True)),
    "13b ZeRO-1 x8, checkpointing": ("llama-2-13b", _setup(zero=1, dp=8, ckpt=True)),
    "1b torch amp, checkpointing, eager": ("llama-3.2-1b", _setup(ckpt=True, attention="eager", batch=32)),
    "1b torch amp, checkpointing": ("llama-3.2-1b", _setup(ckpt=True, batch=16)),
    "8b LoRA on an int8 base": ("llama-3.1-8b", _setup("lora", base_format="int8")),
    "70b TP4 PP2 ZeRO-1 (review30)": ("llama-3.1-70b", _setup(zero=1, dp=2, tp=4, pp=2)),
    "70b TP2 ZeRO-3 x4": ("llama-3.1-70b", _setup(zero=3, dp=4, tp=2)),
    "70b TP8 CP2": ("llama-3.1-70b", _setup(zero=1, dp=1, tp=8, cp=2)),
    "70b LoRA TP2 ZeRO-3 x4": ("llama-3.1-70b", _setup("lora", zero=3, dp=4, tp=2)),
    "mixtral TP2 EP4": ("mixtral-8x7b", _setup(zero=1, dp=4, tp=2, ep=4)),
    # the busier pipeline stage's activations: 1F1B's and interleaving's micro-batches in flight on the first
    # stage, the loss on the last, checkpointing and block recomputation, eager scores split over tp and cp
    "70b TP4 PP4 1F1B, 4 in flight": ("llama-3.1-70b", _setup(zero=1, dp=2, tp=4, pp=4, inflight=4.0)),
    "8b TP2 PP2, 2 in flight, batch 1": ("llama-3.1-8b", _setup(zero=1, dp=2, tp=2, pp=2, inflight=2.0, batch=1)),
    "70b TP8 PP4 interleaved, checkpointing": ("llama-3.1-70b", _setup(zero=1, dp=1, tp=8, pp=4, inflight=5.5,
                                                                      ckpt=True)),
    "8b TP2 PP2 checkpointing, 1 in flight": ("llama-3.1-8b", _setup(zero=1, dp=1, tp=2, pp=2, ckpt=True)),
    "70b TP4 PP2 CP2, half recomputed": ("llama-3.1-70b", _setup(zero=1, dp=2, tp=4, pp=2, cp=2, inflight=2.0,
                                                                 recompute=0.5)),
    "8b TP2 recomputing a quarter": ("llama-3.1-8b", _setup(zero=1, dp=2, tp=2, recompute=0.25)),
    "8b TP2 PP2 checkpointing over a recomputed share": ("llama-3.1-8b", _setup(zero=1, dp=1, tp=2, pp=2,
                                                                                  inflight=2.0, ckpt=True,
                                                                                  recompute=0.5)),
    "70b TP8 checkpointing": ("llama-3.1-70b", _setup(zero=1, dp=1, tp=8, ckpt=True)),
    "8b TP2 CP2 eager": ("llama-3.1-8b", _setup(zero=1, dp=2, tp=2, cp=2, attention="eager")),
    "8b TP2 PP2 eager, checkpointing": ("llama-3.1-8b", _setup(zero=1, dp=1, tp=2, pp=2, inflight=2.0, ckpt=True,
                                                               attention="eager", batch=4)),
    "70b QLoRA TP2": ("llama-3.1-70b", _setup("qlora", tp=2)),
    "1b Megatron-Core with TE, one GPU": ("llama-3.2-1b", _setup(te=True)),
    # offload with model parallelism: the gradient bucket a GPU keeps of its stage's share
    "70b TP2 PP2 ZeRO-1 x2, CPU offload": ("llama-3.1-70b", _setup(zero=1, dp=2, tp=2, pp=2, inflight=2.0,
                                                                   offload="cpu")),
    "70b TP2 ZeRO-3 x4, NVMe offload": ("llama-3.1-70b", _setup(zero=3, dp=4, tp=2, offload="nvme")),
    "mixtral TP2 EP4 ZeRO-2, CPU offload": ("mixtral-8x7b", _setup(zero=2, dp=4, tp=2, ep=4, offload="cpu")),
}
CHECKED = ("weights", "gradients", "optimizer", "activations", "overhead")


def _memory(kb, model: str, s: TrainSetup):
    shape = from_catalog(kb.models[kb.model(model).id])
    run = parallel_training_memory if s.megatron_layout else training_memory
    return run(shape, s, quant=kb.runtime.quantization, overhead=NO_OVERHEAD)


@pytest.mark.parametrize("case", list(GRID))
def test_every_printed_memory_formula_gives_its_value(kb, case: str) -> None:
    model, s = GRID[case]
    est = _memory(kb, model, s)
    checked = 0
    for t in est.terms():
        if t.name not in CHECKED or (t.value == 0 and t.inputs):  # 0 at the peak: the report says so instead
            continue
        shown = with_numbers(t)
        assert re.search(r"\d", shown), (case, t.name, shown)  # its numbers printed, not its words alone
        at_step = est.peak_phase != "backward"
        exact = with_numbers(t, exact=True)
        assert evaluate(exact, at_step) == pytest.approx(t.value, rel=1e-5), (case, t.name, exact, t.value)
        assert evaluate(shown, at_step) == pytest.approx(t.value, rel=6e-3), (case, t.name, shown, t.value)
        checked += 1
    assert checked >= 3


def test_review30s_lines_by_hand(kb) -> None:
    """llama-2-13b, batch 2 x 2048 tokens, bf16 ZeRO-3 on 8 GPUs: activations 4,096 x 40 x 233,472 (20 x 5,120
    + 4 x 5,120 + 8 x 13,824 B per token per layer) + 12 B x 32,000 x 4,096 (logits) + 2 x 2 B x 5,120 x 4,096
    (embedding output and final norm) = 39,908,802,560 B. llama-3.1-70b on TP4 PP2: its weights line prints
    the busiest GPU's parameter count."""
    est = _memory(kb, *GRID["13b ZeRO-3 x8 (review30)"])
    act = est.activations.value
    assert act == 4096 * 40 * 233_472 + 12 * 32_000 * 4096 + 2 * 2 * 5120 * 4096 == 39_908_802_560
    assert with_numbers(est.activations) == ("4,096 × 40 × 233,472 + 12 B × 32,000 × 4,096 (logits) + 2 × 2 B × "
                                             "5,120 × 4,096 (embedding output and final norm)")
    par = _memory(kb, *GRID["70b TP4 PP2 ZeRO-1 (review30)"])
    dense = par.weights.inputs["dense_params_on_gpu"]
    assert with_numbers(par.weights).startswith(f"({dense / 1e9:.3g}e9 + 0) × 2 B")
    assert par.weights.value == dense * 2


def test_pipeline_stage_activations_by_hand(kb) -> None:
    """llama-3.1-70b (hidden 8,192, kv 1,024, ffn 28,672: Megatron's 12 x 8,192 + 4 x 1,024 + 6 x 28,672 =
    274,432 B per token and layer, Korthikanti et al. 2022), micro-batch 2 x 2,048 tokens. TP4 PP2: the last
    stage's 40 layers of 4,096 / 4 tokens, the loss's 12 B x 128,256 / 4 vocabulary entries a token and the
    embedding output and final norm, 12,850,298,880 B. TP4 PP4 with 4 micro-batches in flight under 1F1B: the
    first stage's 20 layers x 4 micro-batches and no loss, 22,515,023,872 B."""
    last = _memory(kb, *GRID["70b TP4 PP2 ZeRO-1 (review30)"]).activations
    assert last.value == 40 * 1024 * 274_432 + 12 * 128_256 * 1024 + 2 * 2 * 8192 * 1024 == 12_850_298_880
    assert with_numbers(last).startswith("40 × 4,096 / 4 × 274,432 (the stage's layers) + 12 B × 128,256 × "
                                         "4,096 / 4 (logits")
    first = _memory(kb, *GRID["70b TP4 PP4 1F1B, 4 in flight"]).activations
    assert first.value == 20 * 4 * 1024 * 274_432 + 2 * 2 * 8192 * 1024 == 22_515_023_872
    assert with_numbers(first).startswith("20 × 4 × 4,096 / 4 × 274,432 (the stage's layers) + 2 × 2 B × 8,192")


SERVING = {  # requirements, GPUs: one GPU, a 4-bit 70B over tensor parallel, a MoE, local attention, eager prefill
    "8b decode": ({"task": "inference", "model": "llama-3.1-8b", "context_len": 4096, "concurrent_requests": 8}, 1),
    "70b int4 TP2": ({"task": "inference", "model": "llama-3.1-70b", "precision": "int4", "context_len": 8192,
                      "concurrent_requests": 16}, 2),
    "8b eager prefill": ({"task": "inference", "model": "llama-3.1-8b", "attention": "eager", "context_len": 8192,
                          "concurrent_requests": 1}, 1),
    "gemma-2 sliding window": ({"task": "inference", "model": "gemma-2-9b", "context_len": 8192,
                                "concurrent_requests": 4}, 1),
    # attention data parallel with expert parallel (DeepSeek-style): the non-expert weights on every GPU, the
    # routed experts over ep; a 16-bit model, and DeepSeek-R1 FP8 whose 16-bit MoE gate the serving copy adds
    "qwen3-30b-a3b attention DP 4 + EP 4": ({"task": "inference", "model": "qwen3-30b-a3b", "framework": "sglang",
                                             "prompt_tokens": 1024, "output_tokens": 1024,
                                             "parallelism": {"tp": 1, "pp": 1, "ep": 4}}, 4),
    "deepseek-r1 fp8 attention DP 8 + EP 8": ({"task": "inference", "model": "deepseek-r1", "precision": "fp8",
                                               "framework": "tensorrt-llm", "prompt_tokens": 1024,
                                               "output_tokens": 1024, "kv_precision": "fp8",
                                               "parallelism": {"tp": 1, "pp": 1, "ep": 8}}, 8, "h200-141gb-sxm"),
    # tensor parallel: the 16-bit MoE gate beyond the format, and what every rank holds whole (MLA's
    # down-projections, the gate)
    "deepseek-r1 fp4 TP8": ({"task": "inference", "model": "deepseek-r1", "precision": "fp4",
                             "framework": "tensorrt-llm", "parallelism": {"tp": 8}}, 8, "b200"),
    "mixtral fp8 TP2": ({"task": "inference", "model": "mixtral-8x7b", "precision": "fp8",
                         "parallelism": {"tp": 2}}, 2),
}


@pytest.mark.parametrize("case", list(SERVING))
def test_every_printed_serving_memory_formula_gives_its_value(case: str) -> None:
    """The serving memory terms as `gpuwise estimate` prints them: weights (a quantized model's quantized and
    16-bit parameters, bracketed when tensor parallel divides their sum; under attention data parallel the
    non-expert and routed-expert parts; the MoE gate's 16-bit bytes and the weights every tensor-parallel rank
    holds whole), KV cache, the working set (eager prefill: 9 B x sequences x heads x prompt^2) and the overhead."""
    import gpuwise

    w, n, *gpu = SERVING[case]
    r = gpuwise.estimate({"workload": w}, gpu=gpu[0] if gpu else "h100", gpus=n)
    checked = 0
    for t in r.memory.terms:
        if t.value == 0:  # inference keeps no gradients nor optimizer state: words, no numbers
            continue
        exact, shown = with_numbers(t, exact=True), with_numbers(t)
        assert evaluate(exact) == pytest.approx(t.value, rel=1e-5), (case, t.name, exact, t.value)
        assert evaluate(shown) == pytest.approx(t.value, rel=6e-3), (case, t.name, shown, t.value)
        checked += 1
    assert checked == 4


@pytest.mark.parametrize("pp", [1, 2])
def test_attention_data_parallel_weights_by_hand(kb, pp: int) -> None:
    """Mixtral 8x7B in bf16 under attention data parallel 4 with expert parallel 4 (memory_serving.inference_memory,
    before the serving copy's own parts): every GPU holds the 1.60e9 non-expert parameters, a quarter of the
    45.1e9 routed-expert ones (8 experts of 32 layers x 3 x 4,096 x 14,336 = 45,097,156,608), at 2 B, over pp
    stages; the printed line gives it."""
    from gpuwise.estimators.memory_serving import inference_memory

    shape = from_catalog(kb.models[kb.model("mixtral-8x7b").id])
    est = inference_memory(shape, "bf16", 4096, 8, "sdpa", 1, quant=kb.runtime.quantization, overhead=NO_OVERHEAD,
                           pp=pp, ep=4, dp_attention=4)
    routed = 8 * 32 * 3 * 4096 * 14336
    assert routed == 45_097_156_608 and est.weights.inputs["routed_expert_params"] == routed
    assert est.weights.value == pytest.approx(((shape.params - routed) * 2 + routed * 2 / 4) / pp, rel=1e-12)
    assert evaluate(with_numbers(est.weights, exact=True)) == pytest.approx(est.weights.value, rel=1e-9)
    assert evaluate(with_numbers(est.weights)) == pytest.approx(est.weights.value, rel=6e-3)
