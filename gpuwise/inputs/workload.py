"""A requirements or proposal file's ``workload`` section: the task, the model (a catalog name or a
custom architecture), how it trains or serves, the pinned parts of its layout and its serving
targets; with the vocabularies those fields take. Its nested sections (architecture, parallelism, speculative) are
:mod:`.workload_sections`'s, and which fields belong to one task :mod:`.task_fields`'s."""

import math
import re
from typing import Any, Literal

from pydantic import (
    PrivateAttr,
    ValidationInfo,
    field_validator,
    model_validator,
)

from ..errors import N_, Said, SaidAt, either
from ..field import Field  # pydantic's Field(), made faster (gpuwise/field.py)
from .backend import check_runtime_backend
from .notation import Meant, fold_digits, version_text
from .strict import Strict, _finite
from .task_fields import SERVING_ONLY, TRAINING_ONLY, TRAINING_ONLY_PARALLELISM, _same, _says_something
from .workload_sections import Architecture, Parallelism, Speculative

Task = Literal["pretrain", "finetune", "inference"]
Method = Literal["full", "lora", "qlora"]
Precision = Literal["fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"]
Framework = Literal["vllm", "sglang", "tensorrt-llm", "llama.cpp", "exllama", "mlc", "transformers"]
Optimizer = Literal["adamw", "adamw-fused", "adamw-8bit", "sgd", "adafactor"]
Attention = Literal["sdpa", "flash", "eager"]
LoraTargets = Literal["all-linear", "attention", "qv"]

QUANTIZATION_PRECISIONS: dict[str, tuple[str, ...]] = {
    "awq": ("int4",), "gptq": ("int4", "int8"), "bitsandbytes": ("int4", "int8"), "fp8": ("fp8",),
    "w8a8-int8": ("int8",), "nvfp4": ("fp4",), "mxfp4": ("fp4",), "gguf": ("int4", "int8"),
}
"""The precisions each quantization method stores (knowledge/serving.yaml quantization_methods formats);
the first is what the method implies when no precision is given."""

MEMORY_FRACTION_FRAMEWORKS = ("vllm", "sglang", "tensorrt-llm", "mlc")
"""The frameworks with a memory setting ``memory_fraction`` states (knowledge/serving.yaml ``memory_fraction``)."""

MAX_CONTEXT = 10_000_000
"""The longest context_len a workload may give; prompt_tokens + output_tokens (or one of them
mirrored) make a context_len and keep to it as well."""


def _past_releases(framework: Any, v: float) -> Meant | None:
    """The refusal of a release written as a YAML number whose major is past the newest release the framework's
    knowledge names by more than one (vLLM, whose newest named is 0.29.0: 1000, or 1e3 read as 1000.0; 2.0 is still
    asked for in quotes), naming the number as a number, not a float's repr, and that newest release, the framework's
    nearest real one; None where the framework's knowledge names no release (nothing to say it is none of them)."""
    if not isinstance(framework, str) or v < 0:
        return None
    from ..knowledge import load
    from ..knowledge.records import named_releases, release_key

    kb = load()
    fw = next((f for f in (kb.serving.frameworks if kb.serving is not None else ()) if f.id == framework), None)
    known = named_releases(fw) if fw is not None else []
    if not known or v < release_key(known[-1])[0][0] + 2:
        return None
    return Meant(N_("%(given)s is no release of %(framework)s: the newest gpuwise knows is %(newest)s"),
                 given=f"{v:g}", framework=fw.name, newest=known[-1])


_CHECKPOINT_WORDS = {"full": "true", "all": "true", "every layer": "true", "all layers": "true",
                     "full recompute": "true", "full recomputation": "true", "full ac": "true", "fullac": "true",
                     "none": "false", "no recompute": "false", "disabled": "false", "enabled": "true"}
"""Words for full activation recomputation, or none, as stacks' configs and users name them (torchtitan's
activation_checkpoint mode 'full' / 'none', Megatron's --recompute-granularity full)."""


class Workload(Strict):
    task: Task
    method: Method = "full"
    lora_rank: int = Field(default=16, ge=1, le=4096)
    lora_targets: LoraTargets = "all-linear"
    model: str | None = Field(default=None, min_length=1, max_length=200)
    params_b: float | None = Field(default=None, ge=1e-6, le=100_000)  # 1,000 parameters at least
    architecture: Architecture | None = None
    precision: Precision = "bf16"
    mixed_precision: bool = True
    optimizer: Optimizer = "adamw"
    batch_size: int = Field(default=1, ge=1, le=1_000_000)
    seq_len: int = Field(default=2048, ge=1, le=10_000_000)
    # selective_op: torchtitan's per-op selective activation checkpointing (activation_checkpoint mode 'selective',
    # selective_ac_option 'op'): every layer recomputes its even matmuls, keeping the other outputs
    gradient_checkpointing: bool | Literal["auto", "selective_op"] = False
    # torchtitan's per-layer selective checkpointing (activation_checkpoint mode 'selective', selective_ac_option
    # N): every N-th block of a stage is wrapped in checkpoint_wrapper and recomputed, the others keep what they save
    checkpoint_every_n_layers: int | None = Field(default=None, ge=1, le=1000)
    # the attention kernel a training run calls, where it is not its stack's (runtime.yaml attention_kernels backends):
    # FlashAttention-2, cuDNN's fused flash attention (PyTorch SDPA's cuDNN backend, Transformer Engine's), or
    # FlashAttention-3 (the flash-attn package's Hopper kernels, flash_attn_3)
    attention_kernel: Literal["fa2", "cudnn", "fa3"] | None = None
    attention: Attention = "sdpa"
    # training: how packed sequences reach the model. padding_free: TRL's padding-free collator (SFTTrainer turns it on
    # for packing from v0.19) concatenates a micro-batch's sequences into one row, so an eager attention computes its
    # scores over batch_size x seq_len tokens; none: one row a sequence
    packing: Literal["none", "padding_free"] = "none"
    zero_stage: Literal[0, 1, 2, 3, "auto"] = 0
    offload: Literal["none", "cpu", "nvme", "auto"] = "none"  # auto: left out (_offload_auto)
    host_cpu_cores: int | None = Field(
        default=None, ge=1, le=4096, description="training with offload: physical CPU cores of the host each server's "
        "GPUs share (they run the offloaded optimizer); none given: runtime.yaml host_cores_per_gpu a GPU")
    train_tokens: float | None = Field(default=None, ge=1, le=1e16)  # at least one token
    context_len: int = Field(default=4096, ge=1, le=MAX_CONTEXT)
    concurrent_requests: int = Field(default=1, ge=1, le=1_000_000)
    target_tokens_per_s: float = Field(default=0, ge=0, le=1e9)
    global_batch_tokens: float | Literal["auto"] = Field(
        default="auto", description="training: tokens per optimizer step across all GPUs")
    parallelism: Parallelism | None = None
    stack: Literal["megatron", "nemo", "torchtitan", "deepspeed", "megatron-deepspeed", "fsdp-hf", "axolotl",
                   "unsloth", "litgpt", "llmc", "nanochat", "fast-llm", "levanter", "maxtext", "optimum-habana",
                   "xtuner"] | None = Field(
        default=None, description="training: the software stack (its speed relative to the calibrated middle is in "
        "knowledge/runtime.yaml training_stacks); none given: the middle, stated as an assumption")
    overlap_comm: bool | None = Field(
        default=None, description="training: whether the gradient reduction overlaps the backward "
        "(DeepSpeed's zero_optimization.overlap_comm); none given: the stack's default (knowledge/runtime.yaml "
        "training_stacks overlap_comm: off for DeepSpeed below ZeRO-3, on at ZeRO-3 and for the others)")
    tp_comm_overlap: bool | None = Field(
        default=None, description="training on megatron / nemo: whether Transformer Engine's userbuffers overlap the "
        "tensor-parallel collectives with the GEMMs (NeMo's tp_comm_overlap / ub_tp_comm_overlap, Megatron-LM's "
        "--tp-comm-overlap); none given: the stack's default (knowledge/runtime.yaml training_stacks "
        "tp_comm_overlap: on for nemo, off for megatron, which makes it opt-in)")
    fp8_params: bool = Field(
        default=False, description="training, LoRA in fp8 on a Transformer Engine stack (megatron, nemo): the frozen "
        "base is held in FP8, one byte a weight (NeMo's model.fp8_params, Transformer Engine's fp8_model_init); off: "
        "16-bit weights, as Megatron-Bridge recipes keep them (fp8_param_gather off)")
    fp8_recipe: Literal["delayed", "tensorwise", "mxfp8"] | None = Field(
        default=None, description="training in fp8: the scaling recipe (Megatron-Core's --fp8-recipe, torchao's "
        "recipes): delayed or tensorwise, one scale a tensor; mxfp8, one power-of-two scale a block of 32 values, "
        "which only data-center Blackwell (compute capability 10.0 / 10.3) runs; all priced alike (tests/data/"
        "validation/README.md, branch mxfp8train60)")
    grad_reduce_in_fp32: bool | None = Field(
        default=None, description="training with mixed precision: false holds, accumulates and reduces the main "
        "gradients in the 16-bit training dtype, 2 B a parameter (Megatron-Core's DistributedDataParallelConfig "
        "grad_reduce_in_fp32 false; NeMo 1's optim.grad_sync_dtype bf16); true: in fp32, 4 B; none given: the "
        "stack's (fp32 main gradients, or the 16-bit ones a stack states: llm.c, litgpt); read where memory is held as "
        "Megatron lays it out (Megatron-Core / NeMo, model-parallel layouts, the fused stacks)")
    chunked_cross_entropy: bool = Field(
        default=False, description="training: compute the loss in chunks of the logits (torchtune-style), "
        "so only one chunk is upcast to fp32 at a time")
    cut_cross_entropy: bool = Field(
        default=False, description="training: the loss is Apple's cut cross-entropy (ml-cross-entropy's "
        "linear_cross_entropy), which computes the output layer and the loss a block at a time in on-chip memory "
        "and keeps no logits (only each token's log-sum-exp): the loss then holds nothing a vocabulary entry")
    stack_version: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", max_length=32,
        description="training: the stack's release (e.g. NeMo 26.04): a release whose performance table gpuwise "
        "read sets its MoE layers' dispatch cost (knowledge/runtime.yaml training.moe_dispatch releases), and "
        "DeepSpeed's release how ZeRO copies an offloaded optimizer's gradients and weights (zero3_offload_copies); "
        "none given: "
        "the newest release gpuwise knows")
    transformers_version: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}$", max_length=32,
        description="training an MoE model on a stack that runs the Hugging Face transformers model (fsdp-hf, "
        "deepspeed, axolotl, unsloth): the transformers release; before 5.0 its MoE blocks loop over the experts "
        "in Python, and the host's launches per expert are charged (knowledge/runtime.yaml training.moe_dispatch "
        "transformers_loop); none given: the newest (5.0 on, one grouped GEMM a layer)")
    torch_compile: bool = Field(
        default=False, description="training: the model runs under torch.compile (torchtune compile: True, the HF "
        "Trainer's torch_compile, TorchTitan --compile), whose generated kernels fuse the memory-bound passes; the "
        "stack then pays knowledge/runtime.yaml training.compiled_memory_bound_scale of them at most")
    liger_kernel: bool = Field(
        default=False, description="training: the transformers model is patched with Liger Kernel "
        "(apply_liger_kernel_to_llama and its siblings, AutoLigerKernelForCausalLM), whose Triton kernels fuse "
        "RMSNorm, rotary, SwiGLU and the loss: the stack then pays knowledge/runtime.yaml "
        "training.compiled_memory_bound_scale of the memory-bound passes at most, and the fused linear "
        "cross-entropy holds the logits one chunk at a time (training.ce_chunks)")
    framework: Framework = "vllm"
    framework_version: str | None = Field(
        default=None, pattern=r"^[0-9]+(\.[0-9]+){0,3}(\.?(post|rc)[0-9]+)?$", max_length=64,
        description="inference: the framework release served with (e.g. 0.5.7; llama.cpp: its build, 6600 or "
        "b6600): its kernels set the per-step constants (knowledge/serving.yaml releases); none given: the newest "
        "release gpuwise knows")
    prompt_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    output_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    kv_precision: Literal["auto", "bf16", "fp16", "fp8"] = Field(
        default="auto", description="inference: KV-cache element type (auto: the framework's default for the "
        "precision; fp8 halves the cache)")
    prefix_cache_hit_rate: float = Field(
        default=0.0, ge=0.0, le=0.99, description="inference: share of each prompt already in the prefix cache "
        "(shared system prompts, multi-turn chats): only the rest is prefilled")
    prefix_cache: bool | None = Field(
        default=None, description="inference: the server keeps its prefix cache (SGLang's radix cache, vLLM's "
        "prefix caching); false: started with --disable-radix-cache / --no-enable-prefix-caching, which sizes a "
        "hybrid model's recurrent-state pool on SGLang (knowledge/serving.yaml hybrid_state_pool); none given: on, "
        "the frameworks' default")
    prefill_cuda_graphs: bool | None = Field(
        default=None, description="inference: forwards that carry prompt tokens run under CUDA graphs "
        "(TensorRT-LLM's and SGLang's piecewise CUDA graph); none given: the framework release's default")
    batch_wait_steps: int = Field(
        default=0, ge=0, le=10_000, description="inference: steps the scheduler holds new prompts to gather a "
        "larger prefill (TensorRT-LLM batch_wait_timeout_iters; 0: none, the default)")
    batch_wait_token_fraction: float = Field(
        default=0.0, ge=0.0, le=1.0, description="inference: held prompts are released early once they hold this "
        "share of the step's token budget (TensorRT-LLM batch_wait_max_tokens_ratio; 0: only the step count)")
    scheduler_recv_interval: int = Field(
        default=1, ge=1, le=10_000, description="inference: decode steps the scheduler runs between its polls for new "
        "requests (SGLang --scheduler-recv-interval, times --num-continuous-decode-steps; 1: every step, the default "
        "of both), so a prompt that arrives while others decode waits for the next poll")
    prefill_admission_steps: int = Field(
        default=0, ge=0, le=10_000, description="inference, vLLM: decode-only scheduler steps between two steps that "
        "admit new prompts (VLLM_SUBSEQUENT_DECODE_STEPS of AMD's MLPerf vLLM build: new prompts enter one schedule "
        "in this many plus one; 0: every step, upstream vLLM's behaviour and the default)")
    prefill_admission_floor: int = Field(
        default=0, ge=0, le=1_000_000, description="inference, vLLM: running requests from which the prefill "
        "admission cadence holds (VLLM_MIN_REQUEST_DECODE_STEP of AMD's MLPerf vLLM build); with fewer running, "
        "every step admits; 0: always")
    kv_cache_tokens: int | None = Field(
        default=None, ge=1, le=1_000_000_000, description="inference: tokens the KV-cache pool of one model copy "
        "holds, as the engine logs it at start-up (vLLM's '# GPU blocks' x block size, 'GPU KV cache size'; SGLang's "
        "max_total_num_tokens); default: worked out from the memory the weights and activations leave")
    prefill_chunk_tokens: int | None = Field(
        default=None, ge=16, le=1_048_576, description="inference: the most tokens one step of a model copy "
        "processes, as the engine was started (SGLang --chunked-prefill-size, vLLM --max-num-batched-tokens, "
        "TensorRT-LLM max_num_tokens): a prompt longer than it is prefilled in chunks of it, and shorter prompts "
        "share one step up to it; default: the framework's own for the GPU")
    memory_fraction: float | None = Field(
        default=None, gt=0, le=1, description="inference: the server's memory setting as it was started, each "
        "framework's own meaning (knowledge/serving.yaml memory_fraction): vLLM --gpu-memory-utilization and MLC "
        "gpu_memory_utilization (the share of each GPU's memory for the weights, working set and KV cache together), "
        "SGLang --mem-fraction-static (the share for the weights and the KV pool), TensorRT-LLM "
        "free_gpu_memory_fraction (the share of the memory left once the model is loaded that goes to the KV cache); "
        "default: the framework's own, or gpuwise's usable memory where that leaves less")
    recurrent_state_dtype: Literal["float32", "bfloat16", "float16"] | None = Field(
        default=None, description="inference, hybrid models: the element type of the recurrent (Mamba-2 / gated "
        "DeltaNet) state each running sequence keeps, as the server was started (SGLang --mamba-ssm-dtype, vLLM "
        "--mamba-ssm-cache-dtype, TensorRT-LLM kv_cache_config.mamba_ssm_cache_dtype); default: what the framework "
        "keeps for the model (knowledge/models.yaml recurrent)")
    max_batch_size: int | None = Field(
        default=None, ge=1, le=1_000_000, description="inference: the most sequences one copy's scheduler runs at once "
        "per attention data-parallel rank, as the engine was started (TensorRT-LLM max_batch_size, vLLM "
        "--max-num-seqs, SGLang --max-running-requests); default: what the memory holds, up to the framework's limit")
    api_servers: int = Field(
        default=1, ge=0, le=1024, description="inference: front-end processes per model copy that take requests "
        "over HTTP and tokenise them (vLLM --api-server-count, SGLang --tokenizer-worker-num, trtllm-serve "
        "--num_serve_frontends; 1: the default); "
        "0: no front end, requests enter through the engine's Python API in the same process: offline batch "
        "inference (vLLM's LLM class, trtllm-bench) or, with requests_per_s, an in-process load generator (MLPerf "
        "LoadGen's Server scenario hands its Poisson arrivals to the engine without HTTP)")
    eplb: bool = Field(
        default=False, description="inference: an expert-parallel load balancer places (and replicates) experts by "
        "their measured load (DeepSeek's EPLB: SGLang --enable-eplb, vLLM --enable-eplb; both off by default), so "
        "the busiest expert-parallel GPU is charged the mean load")
    rocm_aiter: bool | None = Field(
        default=None, description="inference on AMD Instinct: AMD's AITER kernels switched on in vLLM's ROCm build "
        "(VLLM_ROCM_USE_AITER=1; off by default in vllm/envs.py), which run block-scaled FP8 checkpoints on aiter's "
        "block-scale GEMM and fused MoE at the FP8 path's speed, or in SGLang's (SGLANG_USE_AITER; false: "
        "SGLANG_USE_AITER=0, its own Triton kernels); none given: the framework's default (vLLM: off; SGLang: on, "
        "as its ROCm images set it)")
    rocm_fp4_asm_gemm: bool | None = Field(
        default=None, description="inference, vLLM on AMD Instinct with AITER on: its MXFP4 linear layers run "
        "aiter's assembly FP4 GEMM (VLLM_ROCM_USE_AITER_FP4_ASM_GEMM=1; off by default in vllm/envs.py, when they "
        "run aiter's Triton FP4 GEMM), priced at the assembly kernels' measured rate on the architectures they were "
        "timed on (knowledge/serving.yaml mxfp4_asm_gemm)")
    weight_only_gemm: bool | None = Field(
        default=None, description="inference, vLLM, an FP8 or FP4 checkpoint: the server forced its weight-only "
        "Marlin kernels (VLLM_TEST_FORCE_FP8_MARLIN=1, --linear-backend marlin, --moe-backend marlin), which read the "
        "8- or 4-bit weights and multiply in 16 bits, the path vLLM takes on GPUs without FP8 / FP4 tensor cores: "
        "priced as there (the precision's fallback_compute), where the GPU's own FP8 / FP4 rate is taken otherwise")
    attention_backend: Literal["triton", "torch_native", "flex_attention", "nsa", "cutlass_mla", "fa3", "fa4",
                               "flashinfer", "flashmla", "trtllm_mla", "trtllm_mha", "aiter", "wave"] | None = Field(
        default=None, description="inference, SGLang: the attention backend the server was launched with "
        "(--attention-backend); triton prices its split-KV decode kernel's walk at few sequences on NVIDIA GPUs "
        "(knowledge/serving.yaml sglang triton_decode_walk); none given or another: the release's default, the "
        "cache read at the card's rate")
    runtime_backend: Literal["tensorrt", "pytorch"] | None = Field(
        default=None, description="inference, TensorRT-LLM: the runtime that runs the model (knowledge/serving.yaml "
        "backends): tensorrt, a built TensorRT engine under the C++ executor (trtllm-build; the MLPerf harness's "
        "TRTLLM_EXECUTOR core), priced with the engine path's constants in any release; pytorch, the PyTorch backend "
        "(from 0.17); none given: the release's default")
    max_ttft_ms: float | None = Field(default=None, gt=0, le=1e9)
    max_tpot_ms: float | None = Field(default=None, gt=0, le=1e9)
    speculative: Speculative | None = None
    quantization: Literal["awq", "gptq", "bitsandbytes", "fp8", "w8a8-int8", "nvfp4", "mxfp4", "gguf"] | None = Field(
        default=None, description="inference: the weight quantization method (sets the precision when none is given)")
    disaggregated: bool = Field(default=False, description="inference: prefill and decode on separate copies")
    requests_per_s: float | None = Field(default=None, gt=0, le=1e7, description="inference: the load as a "
                                         "request rate (Poisson arrivals)")
    p95_ttft_s: float | None = Field(default=None, gt=0, le=1e6, description="inference: 95th-percentile time to "
                                     "first token target at the request rate")
    p95_tpot_s: float | None = Field(default=None, gt=0, le=1e3, description="inference: 95th-percentile time per "
                                     "output token target at the request rate")
    _lengths_note: str = PrivateAttr(default="")
    _lengths_message: tuple[str, dict[str, Any]] | None = PrivateAttr(default=None)
    _lengths_given: bool = PrivateAttr(default=False)

    _v = field_validator("params_b", "train_tokens", "target_tokens_per_s", "max_ttft_ms", "max_tpot_ms",
                         "requests_per_s", "p95_ttft_s", "p95_tpot_s")(_finite)

    @model_validator(mode="after")
    def _serving_knobs(self) -> "Workload":
        if self.task != "inference":
            # a field at its default says nothing (a result's echo of the question carries every field)
            given = [f for f in SERVING_ONLY if f in self.model_fields_set
                     and _says_something(getattr(self, f), type(self).model_fields[f].default)]
            if given:
                raise Said(N_("%(given)s applies to task inference only"), given=given[0])
            if self.parallelism and self.parallelism.dp_shard and self.zero_stage == 0 \
                    and "zero_stage" in self.model_fields_set:
                raise SaidAt(("parallelism", "dp_shard"),
                             N_("parallelism.dp_shard shards the ZeRO/FSDP states, and zero_stage 0 shards none: give "
                                "zero_stage 1, 2 or 3, or drop dp_shard"))
        else:
            self._training_knobs()
        q = self.quantization
        if q is not None:
            allowed = QUANTIZATION_PRECISIONS[q]
            if "precision" not in self.model_fields_set:
                self.precision = allowed[0]  # type: ignore[assignment]
                self.model_fields_set.add("precision")  # implied by the method, not a default to list
            elif self.precision not in allowed:
                raise Said(N_("quantization %(q)s stores %(allowed)s weights, not precision %(precision)s: set "
                              "precision %(allowed2)s or drop one of the two"), q=q, allowed=either(allowed),
                           precision=self.precision, allowed2=allowed[0])
        return self

    def _training_knobs(self) -> None:
        """An inference workload refuses a training-only field given other than its default (a result's echo of the
        question may carry a default; false is no default of mixed_precision), naming it, as a training one refuses
        a serving knob."""
        given = [f for f in TRAINING_ONLY if f in self.model_fields_set
                 and not _same(getattr(self, f), type(self).model_fields[f].default)]
        if given:
            raise SaidAt((given[0],), N_("%(given)s is a training setting (task pretrain or finetune), which an "
                                         "inference estimate does not read: leave it out, or give the training "
                                         "task it belongs to"), given=given[0])
        par = self.parallelism
        extra = [f for f in TRAINING_ONLY_PARALLELISM if par is not None and getattr(par, f) is not None]
        if extra:
            raise SaidAt(("parallelism", extra[0]), N_("%(given)s is a training setting (task pretrain or finetune), "
                                                       "which an inference estimate does not read: leave it out "
                                                       "(serving pins tp, pp and ep only)"),
                         given=f"parallelism.{extra[0]}")

    @model_validator(mode="before")
    @classmethod
    def _offload_auto(cls, data: Any) -> Any:
        """``offload: auto`` is what the assumptions list prints for an offload left out (gpuwise offloads only where
        nothing else fits), so it is taken as left out: refused before, though the report had written it."""
        if isinstance(data, dict) and isinstance(data.get("offload"), str) and data["offload"].strip() == "auto":
            data = {k: v for k, v in data.items() if k != "offload"}
        return data

    @field_validator("gradient_checkpointing", mode="before")
    @classmethod
    def _checkpointing_words(cls, v: Any) -> Any:
        """Full recomputation, or none, named in words ('full', 'Full', 'every layer', 'none'): was pydantic's union
        refusal, 'Input should be a valid boolean, unable to interpret input; or ...', nothing offered (hostile
        round 45). Every layer recomputed is true."""
        meant = _CHECKPOINT_WORDS.get(" ".join(v.lower().split())) if isinstance(v, str) else None
        if meant is not None:
            raise Said(N_("%(given)s: gradient_checkpointing is true (every layer recomputed), false, selective_op or "
                          "auto: write %(meant)s"), given=repr(v.strip()), meant=meant)
        return v

    @field_validator("checkpoint_every_n_layers", mode="before")
    @classmethod
    def _every_zeroth(cls, v: Any) -> Any:
        """0 written for 'no layer recomputed' was pydantic's bound alone (hostile round 49): none is false."""
        if v == 0 and not isinstance(v, bool):
            raise Said(N_("0 recomputes no layer: write gradient_checkpointing false, or leave "
                          "checkpoint_every_n_layers out"))
        return v

    @field_validator("stack_version", "framework_version", "transformers_version", mode="before")
    @classmethod
    def _version_text(cls, v: Any, info: ValidationInfo) -> Any:
        """``stack_version: 26.04`` unquoted was refused as 'Input should be a valid string (got 26.04)', and
        NeMo 25.10 or vLLM 0.10 as a number is another release (25.1, 0.1): asked for in quotes, by name.
        llama.cpp names its releases by build tag (b6600): the tag's number is the version."""
        llama_cpp = info.field_name == "framework_version" and info.data.get("framework") == "llama.cpp"
        if llama_cpp and isinstance(v, str) and re.fullmatch(r"[bB]\d+", v.strip()):
            return v.strip()[1:]
        # the checks below read a YAML number as its text first: 'write 1.9 in quotes' would only be refused again
        # (hostile round 25: transformers_version 1.9, llama.cpp's framework_version 0.6)
        text = str(v) if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) else v
        # a llama.cpp build is one whole number: 0.6.0 or 0.3.20 is Ollama's or LM Studio's own release, which
        # read as build 0 would be priced as llama.cpp before its CUDA graphs (serving.yaml llama.cpp releases)
        if llama_cpp and isinstance(text, str) and re.fullmatch(r"\d+[.a-z].*", text.strip()):
            raise Said(N_("llama.cpp names a release by its build number (6600 or b6600), not %(given)s, which "
                          "reads as another program's version (Ollama's, LM Studio's): give the llama.cpp build it "
                          "runs, or leave framework_version out"), given=repr(text))
        # a YAML number past every release the framework's knowledge names, and the next major: no release of it
        # ('framework_version: 1e3', read as 1000.0, was asked for in quotes as "1000.0"; leftovers55)
        if (info.field_name == "framework_version" and not llama_cpp and isinstance(v, int | float)
                and not isinstance(v, bool) and math.isfinite(v)):
            beyond = _past_releases(info.data.get("framework"), float(v))
            if beyond is not None:
                raise beyond
        # transformers 0.x / 1.x never existed under that name (pytorch-transformers 1.x became transformers 2.0);
        # read as a release before 5.0 it would be priced as the Python loop over experts without a word
        # (its full-width form too: '１.２' would be told 'did you mean 1.2?', itself refused here; review28; and
        # another script's digits, '١.٩', since hostile40 offers them the ASCII release: hostile round 26)
        if (info.field_name == "transformers_version" and isinstance(text, str)
                and re.fullmatch(r"[01](\..*)?", fold_digits(text).strip())):
            raise Said(N_("transformers %(given)s is no release of transformers (the first was 2.0, 2019; MoE "
                          "models arrived in 4.x): give the 4.x or 5.x release the job installs, or leave it out "
                          "for the newest"), given=text)
        return version_text(v, info.field_name)

    @field_validator("global_batch_tokens")
    @classmethod
    def _gbt(cls, v: float | str) -> float | str:
        if isinstance(v, float | int) and (not math.isfinite(v) or v < 1 or v > 1e12):
            raise Said(N_("must be 'auto' or a number of tokens between 1 and 1e12"))
        return v

    @model_validator(mode="after")
    def _every_nth_layer(self) -> "Workload":
        """Every N-th layer recomputed is a share of whole layers: it says what gradient_checkpointing true says for
        those layers, so false (none) or selective_op (every layer, per op) beside it contradicts it."""
        if self.checkpoint_every_n_layers is not None and "gradient_checkpointing" in self.model_fields_set \
                and self.gradient_checkpointing not in (True, "auto"):
            raise SaidAt(("checkpoint_every_n_layers",),
                         N_("every %(n)s-th layer recomputed, and gradient_checkpointing %(ckpt)s: leave one of the "
                            "two out, or set gradient_checkpointing true"),
                         n=self.checkpoint_every_n_layers, ckpt=self.gradient_checkpointing)
        return self

    @model_validator(mode="after")
    def _kernel_not_eager(self) -> "Workload":
        """An attention kernel named beside eager attention (the seq x seq scores held) says two things."""
        if self.attention_kernel is not None and self.attention == "eager":
            raise SaidAt(("attention_kernel",), N_("attention_kernel %(kernel)s is a fused kernel, and attention eager "
                                                   "holds the seq x seq scores: leave one of the two out"),
                         kernel=self.attention_kernel)
        return self

    @model_validator(mode="after")
    def _tp_overlap_stack(self) -> "Workload":
        """Userbuffers overlap is Transformer Engine's, so only the stacks built on it can turn it on."""
        if self.tp_comm_overlap and self.stack not in ("megatron", "nemo"):
            raise SaidAt(("tp_comm_overlap",), N_("true is Transformer Engine's userbuffers overlap, which stack "
                                                  "'megatron' or 'nemo' runs; name one of them as workload.stack, or "
                                                  "leave tp_comm_overlap out"))
        return self

    @model_validator(mode="after")
    def _poll_on_sglang(self) -> "Workload":
        """Polling for new requests every N decode steps is SGLang's scheduler (--scheduler-recv-interval); vLLM's and
        TensorRT-LLM's take new requests at every step, and the wait was priced on them (hostile round 28)."""
        if self.scheduler_recv_interval != 1 and self.framework != "sglang":
            raise SaidAt(("scheduler_recv_interval",), N_("%(interval)s is SGLang's --scheduler-recv-interval; "
                                                          "%(framework)s takes new requests at every step: set "
                                                          "framework sglang, or leave scheduler_recv_interval out"),
                         interval=self.scheduler_recv_interval, framework=self.framework)
        return self

    @model_validator(mode="after")
    def _admission_on_vllm(self) -> "Workload":
        """The prefill-admission cadence is a patch to vLLM's V1 scheduler in AMD's MLPerf build (its
        VLLM_SUBSEQUENT_DECODE_STEPS / VLLM_MIN_REQUEST_DECODE_STEP); another engine has no such knob, and a floor
        without the cadence gates nothing."""
        if self.prefill_admission_steps and self.framework != "vllm":
            raise SaidAt(("prefill_admission_steps",), N_("%(steps)s is the prefill-admission cadence of AMD's vLLM "
                                                          "build (VLLM_SUBSEQUENT_DECODE_STEPS); %(framework)s admits "
                                                          "new prompts at every step: set framework vllm, or leave "
                                                          "prefill_admission_steps out"),
                         steps=self.prefill_admission_steps, framework=self.framework)
        if self.prefill_admission_floor and not self.prefill_admission_steps:
            raise SaidAt(("prefill_admission_floor",), N_("%(floor)s running requests gate the prefill-admission "
                                                          "cadence, and no cadence is set: give "
                                                          "prefill_admission_steps (VLLM_SUBSEQUENT_DECODE_STEPS), or "
                                                          "leave prefill_admission_floor out"),
                         floor=self.prefill_admission_floor)
        return self

    @model_validator(mode="after")
    def _hits_need_the_cache(self) -> "Workload":
        """A prompt share found in the prefix cache needs the cache: with it off every prompt is prefilled whole."""
        if self.prefix_cache is False and self.prefix_cache_hit_rate > 0:
            raise SaidAt(("prefix_cache_hit_rate",), N_("prefix_cache false keeps no prompt prefixes, so none is "
                                                        "found in the cache: leave prefix_cache_hit_rate out, or "
                                                        "prefix_cache on"))
        return self

    @model_validator(mode="after")
    def _budget_where_chunked(self) -> "Workload":
        """A step's token budget is a chunking scheduler's setting (SGLang --chunked-prefill-size, vLLM
        --max-num-batched-tokens, TensorRT-LLM max_num_tokens); the transformers framework prefills each prompt whole
        in one forward (knowledge/serving.yaml: chunked_prefill false), so a budget stated for it would be ignored."""
        if self.prefill_chunk_tokens is not None and self.framework == "transformers":
            raise SaidAt(("prefill_chunk_tokens",), N_("%(framework)s prefills each prompt whole, with no step budget "
                                                       "to set: leave prefill_chunk_tokens out, or name a framework "
                                                       "that chunks prompts (vllm, sglang, tensorrt-llm)"),
                         framework=self.framework)
        return self

    @model_validator(mode="after")
    def _hold_on_tensorrt_llm(self) -> "Workload":
        """Holding new prompts so that prefills gather is TensorRT-LLM's scheduler (batch_wait_timeout_iters,
        batch_wait_max_tokens_ratio in its PyTorch backend's LLM arguments); vLLM, SGLang and the others admit a
        waiting prompt at the next step, and the hold was priced on them (review33)."""
        if self.framework == "tensorrt-llm":
            return self
        for field, knob, value in (("batch_wait_steps", "batch_wait_timeout_iters", self.batch_wait_steps),
                                   ("batch_wait_token_fraction", "batch_wait_max_tokens_ratio",
                                    self.batch_wait_token_fraction)):
            if value:
                raise SaidAt((field,), N_("%(value)s is TensorRT-LLM's %(knob)s; %(framework)s has no such hold "
                                          "of new prompts: set framework tensorrt-llm, or leave %(field)s out"),
                             value=f"{value:g}", field=field, knob=knob, framework=self.framework)
        return self

    @model_validator(mode="after")
    def _memory_setting(self) -> "Workload":
        """llama.cpp, ExLlamaV2 and transformers size their KV cache from the context they are given, with no share
        of the GPU's memory to set (knowledge/serving.yaml: no memory_fraction), so a share stated for them would be
        ignored."""
        if self.memory_fraction is not None and self.framework not in MEMORY_FRACTION_FRAMEWORKS:
            raise SaidAt(("memory_fraction",), N_("%(framework)s has no setting for the share of GPU memory it takes "
                                                  "(it sizes its KV cache from the context it is given): leave "
                                                  "memory_fraction out, or name a framework that has one (vllm, "
                                                  "sglang, tensorrt-llm, mlc)"), framework=self.framework)
        return self

    @model_validator(mode="after")
    def _attention_backend(self) -> "Workload":
        """``attention_backend`` names SGLang's --attention-backend choices (server_args.py of the 0.5.7 wheel);
        another framework's would be ignored."""
        if self.attention_backend is not None and self.framework != "sglang":
            raise SaidAt(("attention_backend",), N_("attention_backend names an SGLang server setting, and "
                                                    "%(framework)s is not SGLang: leave attention_backend out, or set "
                                                    "framework sglang"), framework=self.framework)
        return self

    @model_validator(mode="after")
    def _runtime_backend(self) -> "Workload":
        check_runtime_backend(self)  # one the framework ships in the stated release (inputs/backend.py)
        return self

    @model_validator(mode="after")
    def _aiter_flags_where_read(self) -> "Workload":
        """``rocm_aiter`` is vLLM's VLLM_ROCM_USE_AITER and SGLang's SGLANG_USE_AITER, read by no other engine
        (llama.cpp, TensorRT-LLM, transformers were accepted and nothing changed: hostile round 43);
        ``rocm_fp4_asm_gemm`` is vLLM's VLLM_ROCM_USE_AITER_FP4_ASM_GEMM, read only where AITER is on
        (VLLM_ROCM_USE_AITER=1; vllm/_aiter_ops.py) and only by MXFP4 linear layers: asked for elsewhere it changes
        nothing, and was accepted without a word (hostile round 42). ``weight_only_gemm`` is vLLM's forced Marlin
        path (VLLM_TEST_FORCE_FP8_MARLIN, --linear-backend / --moe-backend marlin), for FP8 and FP4 weights only."""
        if self.rocm_aiter and self.framework not in ("vllm", "sglang"):
            raise SaidAt(("rocm_aiter",), N_("rocm_aiter switches AMD's AITER kernels in vLLM's and SGLang's ROCm "
                                             "builds (VLLM_ROCM_USE_AITER, SGLANG_USE_AITER), which %(framework)s "
                                             "does not read: set framework vllm or sglang, or leave rocm_aiter out"),
                         framework=self.framework)
        if self.weight_only_gemm and self.framework != "vllm":
            raise SaidAt(("weight_only_gemm",), N_("weight_only_gemm is vLLM's forced Marlin path "
                                                   "(VLLM_TEST_FORCE_FP8_MARLIN, --linear-backend marlin), which "
                                                   "%(framework)s does not read: set framework vllm, or leave "
                                                   "weight_only_gemm out"), framework=self.framework)
        if self.weight_only_gemm and self.precision not in ("fp8", "fp4"):
            raise SaidAt(("weight_only_gemm",), N_("weight_only_gemm runs FP8 or FP4 weights through 16-bit math, "
                                                   "and a %(precision)s job has none: set precision fp8 or fp4, or "
                                                   "leave weight_only_gemm out"), precision=self.precision)
        if not self.rocm_fp4_asm_gemm:
            return self
        if self.framework != "vllm":
            raise SaidAt(("rocm_fp4_asm_gemm",), N_("rocm_fp4_asm_gemm is vLLM's VLLM_ROCM_USE_AITER_FP4_ASM_GEMM, "
                                                    "which %(framework)s does not read: set framework vllm, or leave "
                                                    "rocm_fp4_asm_gemm out"), framework=self.framework)
        if not self.rocm_aiter:
            raise SaidAt(("rocm_fp4_asm_gemm",), N_("vLLM reads VLLM_ROCM_USE_AITER_FP4_ASM_GEMM only with AITER on: "
                                                    "add rocm_aiter: true, or leave rocm_fp4_asm_gemm out"))
        if self.precision != "fp4":
            raise SaidAt(("rocm_fp4_asm_gemm",), N_("rocm_fp4_asm_gemm runs MXFP4 linear layers, and a %(precision)s "
                                                    "job has none: set precision fp4, or leave rocm_fp4_asm_gemm "
                                                    "out"), precision=self.precision)
        return self

    @model_validator(mode="after")
    def _one_sequence(self) -> "Workload":
        """A training step takes whole sequences: a global batch of fewer tokens than one sequence has no step."""
        g = self.global_batch_tokens
        if self.task != "inference" and isinstance(g, float | int) and g < self.seq_len:
            raise Said(N_("global_batch_tokens %(tokens)s is less than one sequence (seq_len %(seq_len)s): give at "
                          "least %(seq_len)s tokens, a multiple of seq_len, or 'auto'"),
                       tokens=f"{g:g}", seq_len=self.seq_len)
        return self

    @model_validator(mode="after")
    def _model_given(self) -> "Workload":
        if self.model is None and self.params_b is None:
            raise Said(N_("give 'model' (a catalog name) or 'params_b' (size in billions)"))
        if self.architecture is not None and self.params_b is None and self.model is None:
            raise Said(N_("'architecture' needs 'params_b'"))
        if self.method != "full" and self.task != "finetune":
            raise Said(N_("method '%(method)s' applies to task finetune only"), method=self.method)
        if self.fp8_recipe is not None and self.precision != "fp8":
            raise SaidAt(("fp8_recipe",), N_("fp8_recipe is the scaling recipe of FP8 training, and a %(precision)s "
                                             "job has none: set precision fp8, or leave fp8_recipe out"),
                         precision=self.precision)
        if self.method == "qlora" and self.precision in ("fp32", "int8", "fp8", "fp4"):
            raise Said(N_("qlora keeps a 4-bit NF4 base and computes in bf16/fp16: set precision int4, bf16 or fp16"))
        return self

    @model_validator(mode="after")
    def _request_lengths(self) -> "Workload":
        """prompt_tokens + output_tokens = context_len. Any two give the third; context_len alone is
        split evenly (the 1000/1000 shape of the TensorRT-LLM and NIM benchmark tables); one of
        prompt/output alone is mirrored by the other. The split is stated as an assumption."""
        given = set(self.model_fields_set)
        self._lengths_given = bool(given & {"context_len", "prompt_tokens", "output_tokens"})
        p, o, ctx = self.prompt_tokens, self.output_tokens, self.context_len
        note = ""
        message: tuple[str, dict[str, Any]] | None = None
        if p is not None and o is not None:
            if "context_len" in given and ctx != p + o:
                raise Said(N_("context_len %(ctx)s is not prompt_tokens + output_tokens (%(p)s + %(o)s = %(value)s): "
                              "give context_len or the two lengths, or make them agree"), ctx=ctx, p=p, o=o,
                           value=p + o)
            self.context_len = p + o
        elif p is not None or o is not None:
            name, one = ("prompt_tokens", p) if p is not None else ("output_tokens", o)
            other = "output_tokens" if p is not None else "prompt_tokens"
            if "context_len" in given:
                if ctx <= one:
                    raise Said(N_("%(name)s %(one)s leaves no room in context_len %(ctx)s for %(other)s: context_len "
                                  "is prompt + output tokens"), name=name, one=one, ctx=ctx, other=other)
                rest = ctx - one
                message = ("assume.lengths.rest", {"other": other, "name": name, "context": ctx, "one": one,
                                                   "rest": rest})
            else:
                rest = one
                self.context_len = 2 * one
                message = ("assume.lengths.mirrored", {"other": other, "name": name, "one": one, "context": 2 * one})
            setattr(self, other, rest)
        elif self.task == "inference":
            o = max(1, ctx // 2)
            p = max(1, ctx - o)
            self.prompt_tokens, self.output_tokens = p, o
            message = ("assume.lengths.split", {"context": ctx, "prompt": p, "output": o})
        if self.context_len > MAX_CONTEXT:  # the two lengths' sum passed context_len's own bound unchecked
            raise Said(N_("prompt_tokens + output_tokens make a context of %(value)s tokens, more than %(max)s"),
                       value=f"{self.context_len:,}", max=f"{MAX_CONTEXT:,}")
        if self.kv_cache_tokens is not None and self.kv_cache_tokens < self.context_len:
            # an engine whose pool cannot hold one whole request does not start (vLLM's
            # check_enough_kv_cache_memory, vllm/v1/core/kv_cache_utils.py); it was priced as serving
            # nothing, with a reason about memory the weights leave
            raise Said(N_("kv_cache_tokens %(pool)s cannot hold one request of %(ctx)s tokens (prompt + output): "
                          "give the pool the engine logs, or shorter requests"),
                       pool=f"{self.kv_cache_tokens:,}", ctx=f"{self.context_len:,}")
        if message is not None:  # a sentence of reports/messages.yaml, so a report can translate it
            from .. import messages

            self._lengths_message = message
            note = messages.text(*message)
        self._lengths_note = note
        return self

    @property
    def lengths_note(self) -> str:
        """How prompt/output/context lengths were completed (empty when the user gave them all)."""
        return self._lengths_note

    @property
    def lengths_message(self) -> tuple[str, dict[str, Any]] | None:
        """The same as a message id of reports/messages.yaml and its values."""
        return self._lengths_message

    @property
    def lengths_given(self) -> bool:
        """The file states a length (context_len, prompt_tokens or output_tokens), not the default context."""
        return self._lengths_given

    @property
    def training(self) -> bool:
        return self.task != "inference"
