"""The input files users write: requirements (``recommend``/``estimate``/``ask``) and
proposals (``audit``), as strict pydantic models.

Every field except ``workload.task`` and one of ``model``/``params_b`` has a default
here, and the defaults are documented in README.md.  Unknown keys are errors.  The
loader turns validation errors into one line naming the file and the field, with a
close match for a misspelt key.
"""

import datetime as dt
import difflib
import math
import re
import reprlib
import typing
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ..errors import N_, Said, UserError, either

Task = Literal["pretrain", "finetune", "inference"]
Method = Literal["full", "lora", "qlora"]
Precision = Literal["fp32", "fp16", "bf16", "fp8", "int8", "int4", "fp4"]
Framework = Literal["vllm", "sglang", "tensorrt-llm", "llama.cpp", "exllama", "mlc", "transformers"]
Optimizer = Literal["adamw", "adamw-fused", "adamw-8bit", "sgd", "adafactor"]
Attention = Literal["sdpa", "flash", "eager"]
LoraTargets = Literal["all-linear", "attention", "qv"]

MAX_GPUS = 100_000
MAX_CARD_POWER_W = 5000
"""No single GPU board draws more (a GB200 superchip module is about 2,700 W)."""

PosInt = Annotated[int, Field(ge=1)]


def _finite(v: float | None) -> float | None:
    if v is not None and not math.isfinite(v):
        raise Said(N_("must be a finite number"))
    return v


def _takes_bool(annotation: Any) -> bool:
    """Whether a field's type admits a boolean anywhere (``bool``, ``bool | Literal['auto']``)."""
    if annotation is bool:
        return True
    if typing.get_origin(annotation) is Literal:
        return any(isinstance(a, bool) for a in typing.get_args(annotation))
    return any(_takes_bool(a) for a in typing.get_args(annotation))


class Strict(BaseModel):
    # allow_inf_nan=False: .nan, .inf and -.inf are refused as "not a finite number" by every
    # float field (and its lists), before any range check could give a confusing message
    model_config = ConfigDict(extra="forbid", validate_default=True, allow_inf_nan=False, defer_build=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_as_number(cls, v: Any, info: ValidationInfo) -> Any:
        """YAML reads yes/no/on/off/true/false as booleans, and pydantic would take True as 1
        (``count: yes`` as one GPU, ``zero_stage: on`` as stage 1): only fields that hold a
        yes/no answer take one."""
        if isinstance(v, bool | list) and not _takes_bool(cls.model_fields[info.field_name].annotation) and (
                isinstance(v, bool) or any(isinstance(x, bool) for x in v)):
            raise Said(N_("a yes/no value (YAML reads yes, no, on, off, true and false as booleans) is not valid "
                          "here: write a number, or quote the text"))
        return v


class Architecture(Strict):
    """A custom transformer's shape (with ``params_b``)."""

    layers: int = Field(ge=1, le=1000)
    hidden_size: int = Field(ge=1, le=1_000_000)
    heads: int = Field(ge=1, le=10_000)
    kv_heads: int | None = Field(default=None, ge=1, le=10_000, description="default: heads")
    ffn_size: int | None = Field(default=None, ge=1, le=10_000_000, description="default: 4 x hidden")
    vocab_size: int = Field(default=32000, ge=1, le=10_000_000)
    tied_embeddings: bool = False
    experts: int | None = Field(default=None, ge=2, le=100_000, description="MoE: routed experts per MoE layer")
    experts_per_token: int | None = Field(default=None, ge=1, le=100_000, description="MoE: experts per token")
    shared_experts: int = Field(default=0, ge=0, le=1000, description="MoE: experts every token uses")
    active_params_b: float | None = Field(default=None, ge=1e-6, le=100_000,
                                          description="MoE: parameters used per token")

    _v = field_validator("active_params_b")(_finite)

    @model_validator(mode="after")
    def _kv(self) -> "Architecture":
        if self.kv_heads is not None and self.kv_heads > self.heads:
            raise Said(N_("kv_heads cannot exceed heads"))
        if (self.experts is None) != (self.experts_per_token is None):
            raise Said(N_("a MoE architecture needs both 'experts' and 'experts_per_token'"))
        if self.experts is not None and self.experts_per_token is not None and self.experts_per_token > self.experts:
            raise Said(N_("experts_per_token cannot exceed experts"))
        return self


class Parallelism(Strict):
    """Pinned parts of a training layout; absent parts are chosen by gpuwise."""

    tp: int | None = Field(default=None, ge=1, le=1024, description="tensor parallel")
    pp: int | None = Field(default=None, ge=1, le=1024, description="pipeline parallel")
    ep: int | None = Field(default=None, ge=1, le=100_000, description="expert parallel (MoE)")
    cp: int | None = Field(default=None, ge=1, le=1024, description="context (sequence) parallel")
    vpp: int | None = Field(default=None, ge=1, le=64, description="virtual pipeline stages per rank (Megatron's "
                            "interleaved 1F1B schedule; 1: the plain 1F1B schedule, Megatron's default)")


QUANTIZATION_PRECISIONS: dict[str, tuple[str, ...]] = {
    "awq": ("int4",), "gptq": ("int4", "int8"), "bitsandbytes": ("int4", "int8"), "fp8": ("fp8",),
    "w8a8-int8": ("int8",), "nvfp4": ("fp4",), "mxfp4": ("fp4",), "gguf": ("int4", "int8"),
}
"""The precisions each quantization method stores (knowledge/serving.yaml quantization_methods formats);
the first is what the method implies when no precision is given."""

SERVING_ONLY = ("quantization", "disaggregated", "requests_per_s", "p95_ttft_s", "p95_tpot_s", "prefill_cuda_graphs",
                "batch_wait_steps", "batch_wait_token_fraction")
"""Inference-only scalars a training workload refuses (the ``speculative`` section is read by serving only)."""


class Speculative(Strict):
    """Speculative decoding: the drafting method, and what the user measured of it (defaults per method
    in knowledge/serving.yaml speculative_methods)."""

    method: Literal["mtp", "eagle", "eagle3", "draft-model", "ngram"]
    acceptance_rate: float | None = Field(default=None, gt=0, lt=1, description="chance a drafted token is kept")
    draft_tokens: int | None = Field(default=None, ge=1, le=16, description="tokens drafted per step")
    draft_params_b: float | None = Field(default=None, gt=0, le=10_000, description="draft-model: its size, "
                                         "billions of parameters")

    @model_validator(mode="after")
    def _draft(self) -> "Speculative":
        if self.method == "draft-model" and self.draft_params_b is None:
            raise Said(N_("method draft-model needs draft_params_b (the draft model's size in billions)"))
        if self.method != "draft-model" and self.draft_params_b is not None:
            raise Said(N_("draft_params_b applies to method draft-model, not %(method)s"), method=self.method)
        return self


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
    gradient_checkpointing: bool | Literal["auto"] = False
    attention: Attention = "sdpa"
    zero_stage: Literal[0, 1, 2, 3, "auto"] = 0
    offload: Literal["none", "cpu", "nvme"] = "none"
    train_tokens: float | None = Field(default=None, ge=1, le=1e16)  # at least one token
    context_len: int = Field(default=4096, ge=1, le=10_000_000)
    concurrent_requests: int = Field(default=1, ge=1, le=1_000_000)
    target_tokens_per_s: float = Field(default=0, ge=0, le=1e9)
    global_batch_tokens: float | Literal["auto"] = Field(
        default="auto", description="training: tokens per optimizer step across all GPUs")
    parallelism: Parallelism | None = None
    stack: Literal["megatron", "nemo", "torchtitan", "deepspeed", "fsdp-hf", "axolotl", "unsloth",
                   "litgpt"] | None = Field(
        default=None, description="training: the software stack (its speed relative to the calibrated middle is in "
        "knowledge/runtime.yaml training_stacks); none given: the middle, stated as an assumption")
    chunked_cross_entropy: bool = Field(
        default=False, description="training: compute the loss in chunks of the logits (torchtune-style), "
        "so only one chunk is upcast to fp32 at a time")
    framework: Framework = "vllm"
    framework_version: str | None = Field(
        default=None, pattern=r"^\d+(\.\d+){0,3}(\.?(post|rc)\d+)?$", max_length=32,
        description="inference: the framework release served with (e.g. 0.5.7): its kernels set the per-step "
        "constants (knowledge/serving.yaml releases); none given: the newest release gpuwise knows")
    prompt_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    output_tokens: int | None = Field(default=None, ge=1, le=10_000_000)
    kv_precision: Literal["auto", "bf16", "fp16", "fp8"] = Field(
        default="auto", description="inference: KV-cache element type (auto: the framework's default for the "
        "precision; fp8 halves the cache)")
    prefix_cache_hit_rate: float = Field(
        default=0.0, ge=0.0, le=0.99, description="inference: share of each prompt already in the prefix cache "
        "(shared system prompts, multi-turn chats): only the rest is prefilled")
    prefill_cuda_graphs: bool | None = Field(
        default=None, description="inference: forwards that carry prompt tokens run under CUDA graphs "
        "(TensorRT-LLM's and SGLang's piecewise CUDA graph); none given: the framework release's default")
    batch_wait_steps: int = Field(
        default=0, ge=0, le=10_000, description="inference: steps the scheduler holds new prompts to gather a "
        "larger prefill (TensorRT-LLM batch_wait_timeout_iters; 0: none, the default)")
    batch_wait_token_fraction: float = Field(
        default=0.0, ge=0.0, le=1.0, description="inference: held prompts are released early once they hold this "
        "share of the step's token budget (TensorRT-LLM batch_wait_max_tokens_ratio; 0: only the step count)")
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

    _v = field_validator("params_b", "train_tokens", "target_tokens_per_s", "max_ttft_ms", "max_tpot_ms",
                         "requests_per_s", "p95_ttft_s", "p95_tpot_s")(_finite)

    @model_validator(mode="after")
    def _serving_knobs(self) -> "Workload":
        if self.task != "inference":
            given = [f for f in SERVING_ONLY if f in self.model_fields_set and getattr(self, f) not in (None, False)]
            if given:
                raise Said(N_("%(given)s applies to task inference only"), given=given[0])
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

    @field_validator("global_batch_tokens")
    @classmethod
    def _gbt(cls, v: float | str) -> float | str:
        if isinstance(v, float | int) and (not math.isfinite(v) or v < 1 or v > 1e12):
            raise Said(N_("must be 'auto' or a number of tokens between 1 and 1e12"))
        return v

    @model_validator(mode="after")
    def _model_given(self) -> "Workload":
        if self.model is None and self.params_b is None:
            raise Said(N_("give 'model' (a catalog name) or 'params_b' (size in billions)"))
        if self.architecture is not None and self.params_b is None and self.model is None:
            raise Said(N_("'architecture' needs 'params_b'"))
        if self.method != "full" and self.task != "finetune":
            raise Said(N_("method '%(method)s' applies to task finetune only"), method=self.method)
        if self.method == "qlora" and self.precision in ("fp32", "int8", "fp8", "fp4"):
            raise Said(N_("qlora keeps a 4-bit NF4 base and computes in bf16/fp16: set precision int4, bf16 or fp16"))
        return self

    @model_validator(mode="after")
    def _request_lengths(self) -> "Workload":
        """prompt_tokens + output_tokens = context_len. Any two give the third; context_len alone is
        split evenly (the 1000/1000 shape of the TensorRT-LLM and NIM benchmark tables); one of
        prompt/output alone is mirrored by the other. The split is stated as an assumption."""
        given = set(self.model_fields_set)
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
    def training(self) -> bool:
        return self.task != "inference"


class Environment(Strict):
    os: str | None = Field(default=None, max_length=100)
    driver: str | None = Field(default=None, pattern=r"^\d+(\.\d+){0,2}$",
                               description="NVIDIA driver version as nvidia-smi prints it, e.g. '535.104.05'")
    cuda: str | None = Field(default=None, pattern=r"^\d+\.\d+(\.\d+)?$",
                             description="CUDA version as torch.version.cuda prints it, e.g. '12.1'")
    pytorch: str | None = Field(
        default=None, max_length=100,  # PEP 440: 2.1.0+cu121, 2.4.0rc1, 2.5.0.dev20240801
        pattern=r"^\d+\.\d+(\.\d+)?((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?(\+[A-Za-z0-9]+(\.[A-Za-z0-9]+)*)?$",
        description="PyTorch version as torch.__version__ prints it, e.g. '2.1.0' or '2.4.1+cu121'")
    kernel_modules: Literal["open", "proprietary"] | None = Field(
        default=None, description="NVIDIA kernel module flavour: open (nvidia-open) or proprietary")
    rocm: str | None = Field(default=None, pattern=r"^\d+\.\d+(\.\d+)?$", description="AMD ROCm release, e.g. '6.4.1'")
    synapse: str | None = Field(
        default=None, pattern=r"^\d+\.\d+(\.\d+)?(-\d+)?$", description="Intel Gaudi software release, e.g. '1.21.0'")
    cann: str | None = Field(
        default=None, pattern=r"^\d+\.\d+(\.(\d+|[Rr][Cc]\d+))?(\.\d+)?$", description="Huawei CANN, e.g. '8.1.RC1'")
    torch_npu: str | None = Field(
        default=None, pattern=r"^\d+\.\d+\.\d+(\.post\d+|\.?rc\d+)?$", description="Ascend torch_npu, e.g. 2.5.1.post1")
    bitsandbytes: str | None = Field(
        default=None, pattern=r"^\d+\.\d+(\.\d+)?(\.post\d+|\.dev\d+)?$", description="bitsandbytes release")

    @field_validator("driver", "cuda", "rocm", "synapse", "cann", "torch_npu", "bitsandbytes", mode="after")
    @classmethod
    def _short(cls, v: str | None) -> str | None:
        """A version is a few characters; a 5,000-digit one is refused, not turned into a number."""
        if v is not None and len(v) > 40:
            raise Said(N_("a version of %(n)s characters is not a version (at most 40)"), n=len(v))
        return v

    @field_validator("rocm", "synapse", "bitsandbytes", "cann", "torch_npu", mode="before")
    @classmethod
    def _version_text(cls, v: Any, info: ValidationInfo) -> Any:
        """Versions such as ROCm 7.10, Gaudi 1.20 or bitsandbytes 0.50 lose their zero as YAML numbers."""
        if isinstance(v, float):
            raise Said(N_('write the version in quotes (%(field_name)s: "%(v)s"): YAML reads 1.20 as 1.2'),
                       field_name=info.field_name, v=v)
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @field_validator("driver", "cuda", mode="before")
    @classmethod
    def _str(cls, v: Any) -> Any:
        return str(v) if isinstance(v, int | float) and not isinstance(v, bool) else v

    @field_validator("pytorch", mode="before")
    @classmethod
    def _quoted(cls, v: Any) -> Any:
        """YAML reads an unquoted 2.10 as the number 2.1: PyTorch 2.10 exists, so ask for quotes."""
        if isinstance(v, float):
            raise Said(N_('write the version in quotes (pytorch: "%(v)s"): YAML reads 2.10 as the number 2.1'), v=v)
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v


_MONEY = re.compile(
    r"^\s*(?P<pre>\$|US\$|¥|￥|USD|CNY|RMB)?\s*(?P<num>\d[\d,_]*(?:\.\d+)?(?:e[-+]?\d{1,4})?)\s*"
    r"(?P<mult>k|m|万|亿)?\s*(?P<post>USD|CNY|RMB|dollars?|yuan|元)?\s*$", re.IGNORECASE)
_CURRENCY = {"$": "USD", "us$": "USD", "usd": "USD", "dollar": "USD", "dollars": "USD",
             "¥": "CNY", "￥": "CNY", "cny": "CNY", "rmb": "CNY", "yuan": "CNY", "元": "CNY"}
_MULT = {"k": 1e3, "m": 1e6, "万": 1e4, "亿": 1e8}


class _Mismatch:
    """A budget whose written currency contradicts ``currency`` (reported on the field)."""

    def __init__(self, message: str, text: str):
        self.message, self.text = message, text

    def __repr__(self) -> str:
        return repr(self.text)


def parse_money(text: str) -> tuple[float, str | None]:
    """An amount as people write it: ``$200,000``, ``¥1500000``, ``1500000 CNY``, ``RMB 1.5m``,
    ``150万元`` -> (amount, currency or None when no currency is written)."""
    m = _MONEY.match(text)
    if m is None:
        raise Said(N_('%(text)s is not an amount (write e.g. 200000, "$200,000" or "1500000 CNY")'), text=f"{text!r}")
    pre, post = (m.group("pre") or "").lower(), (m.group("post") or "").lower()
    cur_pre, cur_post = _CURRENCY.get(pre), _CURRENCY.get(post)
    if cur_pre and cur_post and cur_pre != cur_post:
        raise Said(N_("%(text)s names two currencies"), text=f"{text!r}")
    amount = float(m.group("num").replace(",", "").replace("_", ""))
    amount *= _MULT.get((m.group("mult") or "").lower(), 1.0)
    return amount, cur_pre or cur_post


CURRENCY_FIELDS = {"budget_usd": "budget_{cur}", "electricity_usd_per_kwh": "electricity_{cur}_per_kwh"}
"""The money fields of ``constraints`` and their name in a file's own currency (``budget_cny``)."""


def to_currency_fields(constraints: dict, currency: str) -> dict:
    """``constraints`` with its money fields named for ``currency`` (``budget_cny`` in a CNY file), in
    the same order; a USD file keeps the contract's names."""
    if currency == "USD":
        return dict(constraints)
    names = {k: v.format(cur=currency.lower()) for k, v in CURRENCY_FIELDS.items()}
    return {names.get(k, k): v for k, v in constraints.items()}


def from_currency_fields(constraints: dict) -> dict:
    """The inverse of :func:`to_currency_fields`: ``budget_cny: 300000`` is ``budget_usd: 300000`` with
    ``currency: CNY``. A yuan field in a file whose currency is USD, or a field given under both
    names, is an error naming the field."""
    out = dict(constraints)
    for usd, pattern in CURRENCY_FIELDS.items():
        name = pattern.format(cur="cny")
        if name not in out:
            continue
        if usd in out:
            raise PydanticCustomError("currency_field", f"give {usd} or {name}, not both")
        if out.get("currency", "CNY") != "CNY":
            raise PydanticCustomError("currency_field",
                                      f"{name} is in CNY but currency is {out['currency']}: every amount in the "
                                      f"file is in the one currency")
        out = {(usd if k == name else k): v for k, v in out.items()}
        out["currency"] = "CNY"
    return out


class Constraints(Strict):
    gpus: list[Annotated[str, Field(min_length=1, max_length=100)]] = Field(default=[], max_length=200)
    max_gpus: int = Field(default=64, ge=1, le=MAX_GPUS)
    deadline_days: float | None = Field(default=None, gt=0, le=36500)
    budget_usd: float | None = Field(default=None, gt=0, le=1e13)
    acquisition: Literal["rent", "buy", "either"] = "either"
    project_months: float = Field(default=6, gt=0, le=600)
    electricity_usd_per_kwh: float = Field(default=0.15, ge=0, le=100)
    currency: Literal["USD", "CNY"] = Field(default="USD", description="the currency of every amount in this file")
    hosting: Literal["office", "colocation", "datacenter"] | None = Field(
        default=None, description="where bought hardware runs (default: chosen per candidate, stated)")
    market: Literal["global", "china"] | None = Field(
        default=None, description="where the hardware is bought or rented (default: china with CNY, else global)")
    value_of_a_day_usd: float | None = Field(
        default=None, ge=0, le=1e9, description="what a training result one wall-clock day earlier is worth, in the "
                                                "file's currency; the ranking adds it for each day (default: the "
                                                "policy's value_of_a_day_usd)")
    procurement: Literal["any", "domestic"] = Field(
        default="any", description="domestic: Chinese accelerators only (Huawei Ascend...), as state buyers in "
                                   "China are asked to buy")

    _v = field_validator("deadline_days", "budget_usd", "project_months", "electricity_usd_per_kwh",
                         "value_of_a_day_usd")(_finite)

    @model_validator(mode="before")
    @classmethod
    def _own_currency_fields(cls, data: Any) -> Any:
        """``budget_cny`` / ``electricity_cny_per_kwh``: a yuan amount in a field named for its
        currency (as ``gpuwise ask`` writes a CNY file) is ``budget_usd`` / ``electricity_usd_per_kwh``
        of a file whose ``currency`` is CNY."""
        return from_currency_fields(data) if isinstance(data, dict) else data

    @model_validator(mode="before")
    @classmethod
    def _budget_text(cls, data: Any) -> Any:
        """A budget written with its currency (``¥1500000``, ``1500000 CNY``, ``$200,000``). The
        currency must agree with ``currency``; when ``currency`` is not given, it sets it. Errors
        are raised by the field check below, so they name ``budget_usd``."""
        if not isinstance(data, dict) or not isinstance(data.get("budget_usd"), str):
            return data
        text = data["budget_usd"]
        try:
            amount, cur = parse_money(text)
        except ValueError:
            return data  # the field check names the field and says what an amount looks like
        given = data.get("currency")
        if cur is not None and given is not None and given != cur:
            return {**data, "budget_usd": _Mismatch(f"{text!r} is in {cur} but currency is {given}: "
                                                    f"every amount in the file is in the one currency", text)}
        out = {**data, "budget_usd": amount}
        if cur is not None and given is None:
            out["currency"] = cur
        return out

    @field_validator("budget_usd", mode="before")
    @classmethod
    def _budget_checked(cls, v: Any) -> Any:
        if isinstance(v, _Mismatch):
            raise ValueError(v.message)
        if isinstance(v, str):
            parse_money(v)  # raises with the accepted forms; a bare number text parses
            return parse_money(v)[0]
        return v

    @field_validator("gpus", mode="before")
    @classmethod
    def _gpus_str(cls, v: Any) -> Any:
        if isinstance(v, list):
            return [str(x) if isinstance(x, int) and not isinstance(x, bool) else x for x in v]
        return v


class Requirements(Strict):
    # a section's default comes from a factory: an instance written here would build that
    # section's validator when the module is imported, in every process (pydantic's defer_build)
    workload: Workload
    constraints: Constraints = Field(default_factory=Constraints)
    environment: Environment = Field(default_factory=Environment)


# ------------------------------------------------------------------------- proposals
Link = Literal["nvlink", "nvswitch", "pcie-3", "pcie-4", "pcie-5"]


class Hardware(Strict):
    gpu: str = Field(min_length=1, max_length=100)
    count: int = Field(ge=1, le=MAX_GPUS)
    nodes: int = Field(default=1, ge=1, le=MAX_GPUS)
    link: Link | None = None
    network: str | None = Field(default=None, max_length=50)
    host_ram_gb: float | None = Field(default=None, gt=0, le=1e7)

    _v = field_validator("host_ram_gb")(_finite)

    @field_validator("gpu", mode="before")
    @classmethod
    def _gpu_str(cls, v: Any) -> Any:
        """``gpu: 4090`` is a name YAML reads as a number (as in ``constraints.gpus``)."""
        return str(v) if isinstance(v, int) and not isinstance(v, bool) else v

    @model_validator(mode="after")
    def _nodes(self) -> "Hardware":
        if self.nodes > self.count:
            raise Said(N_("more nodes than GPUs"))
        return self


class Acquisition(Strict):
    mode: Literal["buy", "rent"]
    condition: Literal["new", "used", "refurbished"] = "new"
    unit_price_usd: float | None = Field(default=None, gt=0, le=1e9)
    hourly_usd: float | None = Field(default=None, gt=0, le=1e6)
    spot: bool = False
    provider: str | None = Field(default=None, max_length=50)
    instance: str | None = Field(default=None, max_length=100)
    months: float = Field(default=6, gt=0, le=600)
    checkpointing: bool | None = Field(default=None, description="the job checkpoints and restarts automatically")
    region: str | None = Field(default=None, max_length=50)

    _v = field_validator("unit_price_usd", "hourly_usd", "months")(_finite)


def _yyyymm(v: Any) -> Any:
    if isinstance(v, dt.date):
        return v.strftime("%Y-%m")
    return v


def _real_month(v: str | None) -> str | None:
    """``2020-13`` and ``2021-02-30`` match the pattern but are no dates."""
    if v is not None:
        try:
            dt.date.fromisoformat(v if len(v) == 10 else v + "-01")
        except ValueError:
            raise Said(N_("not a real year and month (write YYYY-MM, e.g. 2021-03)")) from None
    return v


class UsedCard(Strict):
    serial: str | None = Field(default=None, max_length=100)
    manufactured: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}(-\d{2})?$")
    purchased: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}(-\d{2})?$")
    nvidia_smi: str | None = Field(default=None, max_length=4096)
    fan_speed_percent: list[float] = Field(default=[], max_length=100_000)
    power_under_load_w: list[float] = Field(default=[], max_length=100_000)

    _d = field_validator("manufactured", "purchased", mode="before")(_yyyymm)
    _m = field_validator("manufactured", "purchased")(_real_month)

    @field_validator("fan_speed_percent", "power_under_load_w")
    @classmethod
    def _samples(cls, v: list[float], info: ValidationInfo) -> list[float]:
        top = 100 if info.field_name == "fan_speed_percent" else MAX_CARD_POWER_W
        for x in v:
            if not math.isfinite(x) or not 0 <= x <= top:
                unit = "percent" if top == 100 else "W"
                raise Said(N_("samples must be numbers from 0 to %(top)s %(unit)s (got %(x)s)"), top=top, unit=unit,
                           x=f"{x:g}")
        return v

    @model_validator(mode="after")
    def _dates(self) -> "UsedCard":
        """A card is bought after it is made, and neither happens in the future."""
        today = dt.date.today().strftime("%Y-%m")
        for name in ("manufactured", "purchased"):
            value = getattr(self, name)
            if value is not None and value[:7] > today:
                raise Said(N_("%(name)s %(value)s is in the future (today is %(today)s)"), name=name, value=value,
                           today=today)
        if self.manufactured and self.purchased and self.purchased[:7] < self.manufactured[:7]:
            raise Said(N_("purchased %(purchased)s before it was manufactured (%(manufactured)s)"),
                       purchased=self.purchased, manufactured=self.manufactured)
        return self


class Storage(Strict):
    kind: Literal["premium-ssd", "standard-ssd", "object"] = "premium-ssd"
    tb: float = Field(default=0, ge=0, le=1e6)


class Cloud(Strict):
    egress_tb_per_month: float = Field(default=0, ge=0, le=1e6)
    cross_region_tb_per_month: float = Field(default=0, ge=0, le=1e6)
    storage: Storage = Field(default_factory=Storage)


class Facility(Strict):
    power_kw_available: float | None = Field(default=None, gt=0, le=1e6)
    rack_units: int | None = Field(default=None, ge=1, le=100_000)
    cooling: Literal["air", "liquid"] | None = None


class Proposal(Strict):
    title: str = Field(default="(untitled proposal)", max_length=500)
    workload: Workload
    constraints: Constraints = Field(default_factory=Constraints)
    environment: Environment = Field(default_factory=Environment)
    hardware: Hardware
    acquisition: Acquisition
    used_cards: list[UsedCard] = Field(default=[], max_length=10_000)
    cloud: Cloud = Field(default_factory=Cloud)
    facility: Facility = Field(default_factory=Facility)


# ----------------------------------------------------------------------------- loading
def _nested_model(ann: Any) -> type[BaseModel] | None:
    """The model a field holds, looking through ``X | None``, ``list[X]`` and the like (None for a
    leaf field): how an error location walks down into nested sections."""
    found = None
    for cand in getattr(ann, "__args__", (ann,)):
        for c in (cand, *(getattr(cand, "__args__", None) or ())):
            if isinstance(c, type) and issubclass(c, BaseModel):
                found = c
    return found


def _fields_of(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    """Field names valid at ``loc`` (for a 'did you mean' on unknown keys)."""
    current: Any = model
    for key in loc[:-1]:
        if isinstance(key, int) or current is None:
            continue
        fld = current.model_fields.get(key) if hasattr(current, "model_fields") else None
        if fld is None:
            return []
        current = _nested_model(fld.annotation)
    return list(current.model_fields) if current is not None else []


def _field_info(model: type[BaseModel], loc: tuple[Any, ...]) -> Any:
    """The pydantic FieldInfo at ``loc`` (None when ``loc`` names no field)."""
    current: Any = model
    fld = None
    for key in loc:
        if isinstance(key, int):
            continue
        if current is None:
            return None
        fld = current.model_fields.get(key)
        if fld is None:
            return None
        current = _nested_model(fld.annotation)
    return fld


def _field_loc(model: type[BaseModel], loc: tuple[Any, ...]) -> tuple[Any, ...]:
    """``loc`` without the union-member tags pydantic appends below a leaf field
    (``workload.gradient_checkpointing.bool`` -> ``workload.gradient_checkpointing``)."""
    current: Any = model
    for i, key in enumerate(loc):
        if isinstance(key, int):
            continue
        if current is None:  # below a leaf: a tag such as 'bool' or "literal['auto']"
            return loc[:i]
        fld = current.model_fields.get(key)
        if fld is None:  # an unknown key: keep it, it is the point
            return loc[: i + 1]
        current = _nested_model(fld.annotation)
    return loc


def explain_validation(exc: ValidationError, model: type[BaseModel], where: str) -> UserError:
    errors = exc.errors()
    err = errors[0]
    loc = _field_loc(model, tuple(err["loc"]))
    field = ".".join(_short(p) if not isinstance(p, str) else _clip(p) for p in loc) if loc else "(top level)"
    bases = [_field_loc(model, tuple(e["loc"])) for e in errors]
    alternatives = [e["msg"] for e, b in zip(errors[1:], bases[1:], strict=True) if b == loc]  # the other union members
    msg = "; or ".join([err["msg"], *alternatives]).replace("Value error, ", "")
    values: dict[str, Any] = {"msg": msg}
    hint, hint_values, msgid = None, None, None
    if err["type"] == "extra_forbidden":
        valid = _fields_of(model, loc)
        close = difflib.get_close_matches(str(loc[-1]), valid, n=1)
        msg = N_("unknown key")
        hint, hint_values = ((N_("did you mean '%(name)s'?"), {"name": close[0]}) if close
                             else (N_("valid keys: %(names)s"), {"names": ", ".join(valid)}) if valid else (None, None))
    elif err["type"] == "missing":
        msg = N_("required field is missing")
    elif err["type"] == "string_pattern_mismatch":  # the field's own words, not its regular expression
        info = _field_info(model, loc)
        what = info.description if info is not None and info.description else None
        values = {"given": _short(err.get("input")), "what": what}
        msg = N_("%(given)s is not in the expected form (%(what)s)") if what else N_(
            "%(given)s is not in the expected form")
    elif err["type"] == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        given = err.get("input")
        choices = [e.strip(" '") for e in str(expected).split(",")]
        close = difflib.get_close_matches(given, choices) if isinstance(given, str) and len(given) <= 100 else []
        quoted = [c for c in (x.strip() for x in str(expected).replace(" or ", ",").split(",")) if c]
        values = {"given": _short(err.get("input")), "expected": either(quoted, commas=True)}
        if either(quoted, commas=True).words("en") != expected:  # pydantic worded it otherwise: as written
            values["expected"] = expected
        msg = N_("%(given)s is not one of %(expected)s")
        hint, hint_values = (N_("did you mean %(names)s?"), {"names": close[0]}) if close else (None, None)
    elif err["type"] in _BOUNDS and "input" in err:  # pydantic's words in English, the catalog's in another
        values = {**err.get("ctx", {}), "given": _short(err["input"])}
        msgid, msg = _BOUNDS[err["type"]], f"{msg} (got {values['given']})"
    elif "input" in err and err["type"] not in ("model_type", "dict_type"):
        said = err.get("ctx", {}).get("error")
        values = {"msg": said if isinstance(said, Said) and not alternatives else msg, "given": _short(err["input"])}
        msg = N_("%(msg)s (got %(given)s)")  # pydantic's own words stay as it writes them
    else:
        msg = "%(msg)s"
    more = len(set(bases) - {loc})
    if more:
        values["more"] = more
        tail = N_("%(more)s more problem") if more == 1 else N_("%(more)s more problems")
        msg, msgid = (f"{msg}; {tail % values}", (msgid, tail)) if msgid else ((msg, tail), None)
    return UserError(msg, where=f"{where}: {field}", hint=hint, values=values, hint_values=hint_values, msgid=msgid)


_BOUNDS = {
    "greater_than": N_("must be greater than %(gt)s (got %(given)s)"),
    "greater_than_equal": N_("must be at least %(ge)s (got %(given)s)"),
    "less_than": N_("must be less than %(lt)s (got %(given)s)"),
    "less_than_equal": N_("must be at most %(le)s (got %(given)s)"),
    "int_parsing": N_("must be a whole number (got %(given)s)"),
    "int_type": N_("must be a whole number (got %(given)s)"),
    "int_from_float": N_("must be a whole number (got %(given)s)"),
    "float_parsing": N_("must be a number (got %(given)s)"),
    "float_type": N_("must be a number (got %(given)s)"),
    "bool_parsing": N_("must be true or false (got %(given)s)"),
    "bool_type": N_("must be true or false (got %(given)s)"),
    "string_type": N_("must be text (got %(given)s)"),
    "string_too_short": N_("must have at least %(min_length)s characters (got %(given)s)"),
    "string_too_long": N_("must have at most %(max_length)s characters (got %(given)s)"),
    "too_short": N_("must have at least %(min_length)s items (got %(given)s)"),
    "too_long": N_("must have at most %(max_length)s items (got %(given)s)"),
}
"""Pydantic's common complaints as the catalog's templates (its ``ctx`` values fill them)."""


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxdict, _REPR.maxlist, _REPR.maxstring, _REPR.maxother = 3, 6, 12, 60, 60


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _short(value: Any) -> str:
    """A short repr of what the user gave; bounded in time and size whatever it is (an alias bomb's
    shared lists, a recursive structure, a huge string)."""
    try:
        text = _REPR.repr(value)
    except Exception:  # a repr that fails cannot be allowed to hide the real message
        text = f"a {type(value).__name__}"
    return _clip(text)


def parse(model: type[BaseModel], data: Any, where: str) -> Any:
    """Validate ``data`` against ``model``; errors become one-line UserErrors."""
    if data is None:
        raise UserError(N_("the file is empty"), where=where)
    if not isinstance(data, dict):
        raise UserError(N_("expected a mapping of sections, got %(kind)s"), values={"kind": type(data).__name__},
                        where=where)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise explain_validation(exc, model, where) from None
    except RecursionError:
        raise UserError(N_("nested too deeply"), where=where) from None


def load_file(model: type[BaseModel], path: str | Path) -> Any:
    from ..yamlio import read_yaml

    p = Path(path)
    return parse(model, read_yaml(p, what="input file"), str(p))


def coerce(model: type[BaseModel], source: Any) -> Any:
    """A path, a dict or an instance of ``model`` -> an instance of ``model``."""
    if isinstance(source, model):
        return source
    if isinstance(source, str | Path):
        return load_file(model, source)
    if isinstance(source, dict):
        return parse(model, source, "<dict>")
    raise UserError(N_("expected a path, a dict or a %(name)s, got %(name2)s"),
                    values={"name": model.__name__, "name2": type(source).__name__})
