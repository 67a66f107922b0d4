"""Measure real CUDA memory and speed for Hugging Face Llama-family models on one GPU.

What it records per condition (one JSON line each, to stdout and to ``--out``):

* ``max_memory_allocated`` — the peak of live tensor bytes PyTorch's caching allocator handed
  out (compare with an estimate's total minus its runtime overhead);
* ``max_memory_reserved`` — the peak the allocator held from the driver (rounding and
  fragmentation included);
* ``context_bytes`` — what the process holds beyond the allocator's reservation (CUDA context,
  cuBLAS/cuDNN handles): ``total - free - reserved`` from ``cudaMemGetInfo``;
* for training, the mean step time over the timed steps and the model-FLOPs utilisation against
  the GPU's dense BF16 peak (``--peak-tflops``); for inference, decode tokens/s of HF ``generate``
  (eager PyTorch, dynamic KV cache) at the given batch.

Models are built from their published configs with random weights (no download); memory and
speed do not depend on the weights' values. Each condition's ``workload`` is the same job
written as a gpuwise requirements ``workload:`` section, so tests can replay it through
``gpuwise estimate``. Not part of the package: needs torch, transformers and peft.

    python benchmarks/measure_cuda.py --out cuda.jsonl [--only NAME ...] [--tiny]

``--tiny`` shrinks every model to two small layers: a dry run of the harness on a CPU.
It produced tests/data/cuda_h200.jsonl (one H200, torch 2.11, transformers 5.17, peft).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
import time
import warnings

import torch
from transformers import LlamaConfig, LlamaForCausalLM, Qwen2Config, Qwen2ForCausalLM

warnings.filterwarnings("ignore")

# Published configs (config.json of each model card on the Hugging Face Hub).
ARCH = {
    "llama-3.2-1b": dict(kind="llama", layers=16, hidden=2048, heads=32, kv=8, ffn=8192, vocab=128256,
                         tied=True, params_b=1.2355, rope_theta=500000.0),
    "llama-3.2-3b": dict(kind="llama", layers=28, hidden=3072, heads=24, kv=8, ffn=8192, vocab=128256,
                         tied=True, params_b=3.2128, rope_theta=500000.0),
    "llama-3.1-8b": dict(kind="llama", layers=32, hidden=4096, heads=32, kv=8, ffn=14336, vocab=128256,
                         tied=False, params_b=8.0301, rope_theta=500000.0),
    "qwen2.5-0.5b": dict(kind="qwen2", layers=24, hidden=896, heads=14, kv=2, ffn=4864, vocab=151936,
                         tied=True, params_b=0.4940, rope_theta=1000000.0),
    "qwen2.5-7b": dict(kind="qwen2", layers=28, hidden=3584, heads=28, kv=4, ffn=18944, vocab=152064,
                       tied=False, params_b=7.6156, rope_theta=1000000.0),
}

# name, model, mode, extra settings
CONDITIONS: list[dict] = [
    dict(name="amp-1b-b1-s2048", model="llama-3.2-1b", mode="amp", b=1, s=2048),
    dict(name="amp-1b-b4-s2048", model="llama-3.2-1b", mode="amp", b=4, s=2048),
    dict(name="amp-1b-b8-s2048-ckpt", model="llama-3.2-1b", mode="amp", b=8, s=2048, ckpt=True),
    dict(name="amp-1b-b2-s2048-fused", model="llama-3.2-1b", mode="amp", b=2, s=2048, opt="fused"),
    dict(name="amp-qwen0.5b-b4-s1024", model="qwen2.5-0.5b", mode="amp", b=4, s=1024),
    dict(name="amp-3b-b1-s2048", model="llama-3.2-3b", mode="amp", b=1, s=2048),
    dict(name="amp-3b-b4-s4096-ckpt", model="llama-3.2-3b", mode="amp", b=4, s=4096, ckpt=True),
    dict(name="pure-8b-b1-s2048-fused", model="llama-3.1-8b", mode="pure", b=1, s=2048, opt="fused"),
    dict(name="lora-8b-all-b1-s2048", model="llama-3.1-8b", mode="lora", b=1, s=2048, targets="all-linear"),
    dict(name="lora-8b-all-b4-s4096-ckpt", model="llama-3.1-8b", mode="lora", b=4, s=4096, targets="all-linear",
         ckpt=True),
    dict(name="lora-8b-qv-b2-s2048", model="llama-3.1-8b", mode="lora", b=2, s=2048, targets="qv"),
    dict(name="lora-qwen7b-all-b2-s2048", model="qwen2.5-7b", mode="lora", b=2, s=2048, targets="all-linear"),
    dict(name="infer-8b-b1-p1024-o256", model="llama-3.1-8b", mode="infer", b=1, s=1024, new=256),
    dict(name="infer-8b-b16-p1024-o256", model="llama-3.1-8b", mode="infer", b=16, s=1024, new=256),
    dict(name="infer-8b-b64-p2048-o128", model="llama-3.1-8b", mode="infer", b=64, s=2048, new=128),
    dict(name="infer-1b-b1-p512-o256", model="llama-3.2-1b", mode="infer", b=1, s=512, new=256),
    dict(name="infer-qwen7b-b8-p2048-o256", model="qwen2.5-7b", mode="infer", b=8, s=2048, new=256),
]

LORA_TARGETS = {
    "qv": ["q_proj", "v_proj"],
    "attention": ["q_proj", "k_proj", "v_proj", "o_proj"],
    "all-linear": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"],
}


def build(a: dict, dtype: torch.dtype, device: torch.device) -> torch.nn.Module:
    cls_cfg, cls_model = (Qwen2Config, Qwen2ForCausalLM) if a["kind"] == "qwen2" else (LlamaConfig, LlamaForCausalLM)
    cfg = cls_cfg(num_hidden_layers=a["layers"], hidden_size=a["hidden"], num_attention_heads=a["heads"],
                  num_key_value_heads=a["kv"], intermediate_size=a["ffn"], vocab_size=a["vocab"],
                  tie_word_embeddings=a["tied"], max_position_embeddings=8192, rope_theta=a["rope_theta"])
    cfg._attn_implementation = "sdpa"
    with torch.device(device):
        model = cls_model(cfg)
    return model.to(dtype)


def workload_of(c: dict, a: dict) -> dict:
    """The condition as a gpuwise requirements ``workload:`` section."""
    arch = {"layers": a["layers"], "hidden_size": a["hidden"], "heads": a["heads"], "kv_heads": a["kv"],
            "ffn_size": a["ffn"], "vocab_size": a["vocab"], "tied_embeddings": a["tied"]}
    w: dict = {"model": c["model"], "params_b": a["params_b"], "architecture": arch, "attention": "sdpa"}
    if c["mode"] == "infer":
        w.update(task="inference", precision="bf16", context_len=c["s"] + c["new"],
                 prompt_tokens=c["s"], output_tokens=c["new"], concurrent_requests=c["b"], framework="transformers")
        return w
    w.update(task="finetune", batch_size=c["b"], seq_len=c["s"], gradient_checkpointing=bool(c.get("ckpt")),
             zero_stage=0, offload="none", precision="bf16",
             optimizer="adamw-fused" if c.get("opt") == "fused" else "adamw")
    if c["mode"] == "lora":
        w.update(method="lora", lora_rank=16, lora_targets=c["targets"], mixed_precision=True)
    else:
        w.update(method="full", mixed_precision=c["mode"] == "amp")
    return w


def sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def mem(device: torch.device) -> dict:
    if device.type != "cuda":
        return {}
    free, total = torch.cuda.mem_get_info()
    reserved = torch.cuda.memory_reserved()
    return {"max_memory_allocated": torch.cuda.max_memory_allocated(),
            "max_memory_reserved": torch.cuda.max_memory_reserved(),
            "context_bytes": total - free - reserved, "gpu_total_bytes": total}


def train(c: dict, a: dict, device: torch.device, steps: int, peak_tflops: float) -> dict:
    mode = c["mode"]
    dtype = torch.float32 if mode == "amp" else torch.bfloat16
    model = build(a, dtype, device)
    if mode == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=16, target_modules=LORA_TARGETS[c["targets"]], lora_dropout=0.0))
    if c.get("ckpt"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        if mode == "lora":
            model.enable_input_require_grads()
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5, **({"fused": True} if c.get("opt") == "fused" else {"foreach": True}))
    ids = torch.randint(0, a["vocab"], (c["b"], c["s"]), device=device)
    model.train()
    autocast = (torch.autocast(device.type, dtype=torch.bfloat16) if mode in ("amp", "lora")
                else contextlib.nullcontext())
    times = []
    for step in range(steps):
        sync(device)
        t0 = time.perf_counter()
        with autocast:
            loss = model(input_ids=ids, labels=ids).loss
        loss.backward()
        opt.step()
        opt.zero_grad(set_to_none=True)
        sync(device)
        if step >= 2:
            times.append(time.perf_counter() - t0)
    out = mem(device)
    n_all = sum(p.numel() for p in model.parameters())
    out["nparams"] = n_all
    out["trainable_params"] = sum(p.numel() for p in params)
    if times:
        step_s = sum(times) / len(times)
        tokens = c["b"] * c["s"]
        # model FLOPs: 6 N D for full training (4 N D with a frozen base), N without the input embedding
        n_matmul = n_all - (0 if a["tied"] else a["vocab"] * a["hidden"])
        mult = 6 if mode != "lora" else 4
        attn = 6 * a["layers"] * c["s"] * a["hidden"] * (mult / 6)
        flops = (mult * n_matmul + attn) * tokens
        out.update(step_s=step_s, tokens_per_s=tokens / step_s, mfu=flops / step_s / (peak_tflops * 1e12),
                   timed_steps=len(times))
    return out


def infer(c: dict, a: dict, device: torch.device) -> dict:
    model = build(a, torch.bfloat16, device).eval()
    ids = torch.randint(0, a["vocab"], (c["b"], c["s"]), device=device)
    gen = dict(max_new_tokens=c["new"], min_new_tokens=c["new"], do_sample=False, pad_token_id=0)
    with torch.no_grad():
        model.generate(input_ids=ids[:, :32], max_new_tokens=8, min_new_tokens=8, do_sample=False, pad_token_id=0)
        if device.type == "cuda":
            torch.cuda.reset_peak_memory_stats()
        sync(device)
        t0 = time.perf_counter()
        model(input_ids=ids, use_cache=True, logits_to_keep=1)  # prefill alone, for its time
        sync(device)
        prefill_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        out_ids = model.generate(input_ids=ids, **gen)
        sync(device)
        total_s = time.perf_counter() - t0
    new = out_ids.shape[1] - ids.shape[1]
    decode_s = max(total_s - prefill_s, 1e-9)
    out = mem(device)
    out.update(nparams=sum(p.numel() for p in model.parameters()), prefill_s=prefill_s, generate_s=total_s,
               new_tokens=new, decode_tokens_per_s_per_seq=(new - 1) / decode_s,
               decode_tokens_per_s_total=c["b"] * (new - 1) / decode_s)
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="cuda.jsonl")
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--tiny", action="store_true")
    ap.add_argument("--steps", type=int, default=5)
    ap.add_argument("--peak-tflops", type=float, default=989.4, help="dense BF16 peak of the GPU (H100/H200 SXM)")
    args = ap.parse_args()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    env = {"torch": torch.__version__, "device": torch.cuda.get_device_name() if device.type == "cuda" else "cpu"}
    import transformers

    env["transformers"] = transformers.__version__
    with contextlib.suppress(ImportError):
        import peft

        env["peft"] = peft.__version__
    with open(args.out, "w") as fh:
        for c in CONDITIONS:
            if args.only and c["name"] not in args.only:
                continue
            a = dict(ARCH[c["model"]])
            if args.tiny:
                a.update(layers=2, hidden=256, heads=4, kv=2, ffn=512, vocab=1000)
                c = {**c, "s": min(c["s"], 128), "new": min(c.get("new", 0), 8)}
            gc.collect()
            if device.type == "cuda":
                torch.cuda.empty_cache()
                torch.cuda.reset_peak_memory_stats()
            t0 = time.time()
            try:
                res = infer(c, a, device) if c["mode"] == "infer" else train(c, a, device, args.steps,
                                                                            args.peak_tflops)
                res["ok"] = True
            except torch.OutOfMemoryError as exc:  # recorded, not fatal: the next condition still runs
                res = {"ok": False, "error": f"OOM: {str(exc)[:200]}"}
            row = {"name": c["name"], "condition": c, "workload": workload_of(c, a), "env": env,
                   "seconds": round(time.time() - t0, 1), **res}
            line = json.dumps(row)
            print(line, flush=True)
            fh.write(line + "\n")
            fh.flush()
            gc.collect()
    return 0


if __name__ == "__main__":
    sys.exit(main())
