"""Measure the tensor memory PyTorch allocates for one training or inference step, the way
../shared/validation/memory_pytorch.csv was measured: PyTorch's MemTracker on CPU tensors
over two full steps of a Hugging Face Llama/Mistral model (random weights).

It produced tests/data/memtracker_cpu.jsonl (torch 2.13.0 CPU, transformers 5.24.0,
peft 0.21.2). Not part of the package: install those three to run it.

    python benchmarks/measure_memory.py '{"arch": {"layers": 2, "hidden": 1024, "heads": 8, "kv": 8,
        "ffn": 2816, "vocab": 1000}, "mode": "lora", "s": 512}'

mode: amp (fp32 weights, bf16 autocast) | pure (all bf16) | lora (frozen bf16 base, fp32
adapters, autocast) | infer (prefill with KV cache + 4 decode steps).
"""

from __future__ import annotations

import json
import os
import sys
import warnings

import torch
from torch.distributed._tools.mem_tracker import MemTracker
from transformers import LlamaConfig, LlamaForCausalLM, MistralConfig, MistralForCausalLM

warnings.filterwarnings("ignore")


class _NoHook:
    def remove(self) -> None:
        return


_track = MemTracker._track_module_params_and_buffers


def _track_frozen_too(self, module, install_grad_hooks=True):
    """MemTracker registers grad hooks on every parameter, which fails for frozen (LoRA base) ones."""
    for p in module.parameters():
        if not p.requires_grad:
            self._param_to_grad_hook_handles.setdefault(p, (_NoHook(), _NoHook()))
    return _track(self, module, install_grad_hooks)


MemTracker._track_module_params_and_buffers = _track_frozen_too


def build(arch: dict, dtype: torch.dtype) -> torch.nn.Module:
    mistral = arch.get("kind") == "mistral"
    config_cls, model_cls = (MistralConfig, MistralForCausalLM) if mistral else (LlamaConfig, LlamaForCausalLM)
    cfg = config_cls(num_hidden_layers=arch["layers"], hidden_size=arch["hidden"], num_attention_heads=arch["heads"],
                     num_key_value_heads=arch["kv"], intermediate_size=arch["ffn"], vocab_size=arch["vocab"],
                     tie_word_embeddings=arch.get("tied", False), max_position_embeddings=8192)
    return model_cls(cfg).to(dtype)


def run(arch: dict, mode: str, opt: str = "foreach", b: int = 1, s: int = 512, ckpt: bool = False,
        attn: str = "sdpa", lora_targets: tuple[str, ...] = ("q_proj", "v_proj"), r: int = 16) -> dict:
    torch.manual_seed(0)
    dtype = torch.bfloat16 if mode in ("pure", "lora", "infer") else torch.float32
    model = build(arch, dtype)
    model.config._attn_implementation = attn
    if mode == "lora":
        from peft import LoraConfig, get_peft_model

        model = get_peft_model(model, LoraConfig(r=r, target_modules=list(lora_targets),
                                                 lora_dropout=float(os.environ.get("LDROP", "0"))))
    if ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    ids = torch.randint(0, arch["vocab"], (b, s))
    tracker = MemTracker()
    if mode == "infer":
        model.eval()
        tracker.track_external(model)
        with tracker, torch.no_grad():
            out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
            cache, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)
            for _ in range(4):
                tracker.reset_mod_stats()
                out = model(input_ids=nxt, past_key_values=cache, use_cache=True)
                cache, nxt = out.past_key_values, out.logits[:, -1:].argmax(-1)
    else:
        params = [p for p in model.parameters() if p.requires_grad]
        optim = torch.optim.AdamW(params, lr=1e-4, **({"fused": True} if opt == "fused" else {"foreach": True}))
        tracker.track_external(model, optim)
        model.train()
        with tracker:
            for _step in range(2):
                tracker.reset_mod_stats()
                if mode in ("amp", "lora"):
                    with torch.autocast("cpu", dtype=torch.bfloat16):
                        loss = model(input_ids=ids, labels=ids).loss
                else:
                    loss = model(input_ids=ids, labels=ids).loss
                loss.backward()
                optim.step()
                optim.zero_grad(set_to_none=True)
    snap = tracker.get_tracker_snapshot("peak")
    cpu = next(d for d in snap if str(d) == "cpu")
    out = {str(k).replace("_MemRefType.", ""): v for k, v in snap[cpu].items()}
    out["nparams"] = sum(p.numel() for p in model.parameters())
    return out


if __name__ == "__main__":
    args = json.loads(sys.argv[1])
    arch = args.pop("arch")
    print(json.dumps(run(arch, **args)))
