"""Reproduce the validation methodology: MemTracker peak over two training steps on CPU."""
import sys, json, torch, warnings
warnings.filterwarnings("ignore")
from torch.distributed._tools import mem_tracker as _mt
from torch.distributed._tools.mem_tracker import MemTracker
class _Nop:
    def remove(self): pass
_orig = MemTracker._track_module_params_and_buffers
def _patched(self, module, install_grad_hooks=True):
    frozen = [p for p in module.parameters() if not p.requires_grad]
    for p in frozen:
        self._param_to_grad_hook_handles.setdefault(p, (_Nop(), _Nop()))
    return _orig(self, module, install_grad_hooks)
MemTracker._track_module_params_and_buffers = _patched
from transformers import LlamaConfig, LlamaForCausalLM, MistralConfig, MistralForCausalLM

def build(arch, dtype):
    cls_cfg, cls = (MistralConfig, MistralForCausalLM) if arch.get("kind")=="mistral" else (LlamaConfig, LlamaForCausalLM)
    cfg = cls_cfg(num_hidden_layers=arch["layers"], hidden_size=arch["hidden"], num_attention_heads=arch["heads"],
                  num_key_value_heads=arch["kv"], intermediate_size=arch["ffn"], vocab_size=arch["vocab"],
                  tie_word_embeddings=arch.get("tied", False), max_position_embeddings=8192)
    return cls(cfg).to(dtype)

def run(arch, mode, opt="foreach", b=1, s=512, ckpt=False, attn="sdpa", lora_targets=("q_proj","v_proj"), r=16):
    torch.manual_seed(0)
    dtype = torch.bfloat16 if mode in ("pure", "lora", "infer") else torch.float32
    model = build(arch, dtype)
    model.config._attn_implementation = attn
    if mode == "lora":
        from peft import LoraConfig, get_peft_model
        if __import__("os").environ.get("EIRG"): model.enable_input_require_grads()
        model = get_peft_model(model, LoraConfig(r=r, target_modules=list(lora_targets), task_type=__import__("os").environ.get("TT") or None, lora_dropout=float(__import__("os").environ.get("LDROP","0"))))
    if ckpt:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    ids = torch.randint(0, arch["vocab"], (b, s))
    nparams = sum(p.numel() for p in model.parameters())
    mt = MemTracker()
    if mode == "infer":
        model.eval()
        mt.track_external(model)
        with mt, torch.no_grad():
            out = model(input_ids=ids, use_cache=True, logits_to_keep=1)
            pkv = out.past_key_values
            nxt = out.logits[:, -1:].argmax(-1)
            for _ in range(4):
                mt.reset_mod_stats()
                out = model(input_ids=nxt, past_key_values=pkv, use_cache=True)
                pkv = out.past_key_values; nxt = out.logits[:, -1:].argmax(-1)
        snap = mt.get_tracker_snapshot("peak")
    else:
        params = [p for p in model.parameters() if p.requires_grad]
        kw = {"fused": True} if opt == "fused" else {"foreach": True}
        optim = torch.optim.AdamW(params, lr=1e-4, **kw)
        mt.track_external(model, optim)
        model.train()
        with mt:
            for step in range(2):
                mt.reset_mod_stats()
                if mode in ("amp", "lora"):
                    with torch.autocast("cpu", dtype=torch.bfloat16):
                        loss = model(input_ids=ids, labels=ids).loss
                else:
                    loss = model(input_ids=ids, labels=ids).loss
                loss.backward()
                optim.step()
                optim.zero_grad(set_to_none=True)
        snap = mt.get_tracker_snapshot("peak")
    dev = [d for d in snap if str(d) == "cpu"][0]
    res = {str(k): v for k, v in snap[dev].items()}
    res["nparams"] = nparams
    return res

if __name__ == "__main__":
    a = json.loads(sys.argv[1])
    arch = a.pop("arch")
    print(json.dumps(run(arch, **a)))
