"""The words of a refused value, read from a pydantic model and its error alone: where a key belongs and its
close match, the choice or release a refused value was likely meant as, pydantic's common complaints as the
catalog's templates, and what the user gave, shown short. Every reader of a file says them (an input file
through :mod:`.schema`, a knowledge file through :mod:`gpuwise.knowledge`, a rule book, ``ask``), so this module
imports no model of its own: the knowledge package may use it without importing the requirements it checks."""

import re
import reprlib
import unicodedata
from typing import Any, get_origin

from pydantic import BaseModel

from ..errors import N_
from .notation import CURRENCY_NAMES

#: Names users give an inference engine that the schema spells otherwise, for the 'did you mean' of a refused
#: ``framework`` (Ollama and LM Studio serve GGUF models with llama.cpp's kernels).
_ENGINE_NAMES = {"ollama": "llama.cpp", "lm studio": "llama.cpp", "lmstudio": "llama.cpp", "llamacpp": "llama.cpp",
                 "llama-cpp": "llama.cpp", "trtllm": "tensorrt-llm", "trt-llm": "tensorrt-llm",
                 "tensorrt": "tensorrt-llm", "exllamav2": "exllama", "exllamav3": "exllama", "hf": "transformers",
                 "huggingface": "transformers", "mlc-llm": "mlc",
                 # KoboldCpp is a llama.cpp fork serving GGUF files with its kernels (github.com/LostRuins/koboldcpp
                 # README: 'builds off llama.cpp'; hostile round 51)
                 "koboldcpp": "llama.cpp", "kobold.cpp": "llama.cpp", "kobold-cpp": "llama.cpp",
                 # an element type as PyTorch and the engines' flags spell it, or as gpuwise's precision does
                 # (recurrent_state_dtype takes torch's names, precision and kv_precision the short ones)
                 "fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "half": "float16", "float": "float32",
                 "float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "torch.float32": "float32",
                 "torch.bfloat16": "bfloat16", "torch.float16": "float16"}

#: Serving engines users name that gpuwise has no figures for (knowledge/serving.yaml models none of them): named in
#: the refusal, as difflib matched none of them by spelling and the list of engines alone left the user guessing
#: whether a misspelling was meant (hostile round 50's leftover). TGI is Hugging Face's text-generation-inference
#: (github.com/huggingface/text-generation-inference); LMDeploy serves with its TurboMind or PyTorch engine
#: (github.com/InternLM/lmdeploy); DeepSpeed-MII (github.com/deepspeedai/DeepSpeed-MII); CTranslate2
#: (github.com/OpenNMT/CTranslate2).
_ENGINES_NOT_MODELLED = {"tgi": "Hugging Face Text Generation Inference (TGI)",
                         "text-generation-inference": "Hugging Face Text Generation Inference (TGI)",
                         "text generation inference": "Hugging Face Text Generation Inference (TGI)",
                         "hf-tgi": "Hugging Face Text Generation Inference (TGI)",
                         "lmdeploy": "LMDeploy", "turbomind": "LMDeploy's TurboMind",
                         "deepspeed-mii": "DeepSpeed-MII", "mii": "DeepSpeed-MII", "ctranslate2": "CTranslate2"}


def engine_not_modelled(given: Any) -> str | None:
    """The engine a refused ``framework`` names, where it is one gpuwise has no figures for (TGI, LMDeploy)."""
    return _ENGINES_NOT_MODELLED.get(given.strip().lower()) if isinstance(given, str) and len(given) <= 100 else None


#: Names users give a training stack (or its attention kernel) that the schema spells otherwise, for the 'did you mean'
#: of a refused ``stack`` or ``attention_kernel``:
#: Marin trains with Levanter (knowledge/runtime.yaml training_stacks levanter), GPT-NeoX is Megatron's layers on
#: DeepSpeed (docs/formats.md, stack), Megatron-LM and Megatron-Core are ``megatron``; difflib offered megatron for
#: 'marin' and nemo for 'neox' (hostile round 43).
_STACK_NAMES = {"marin": "levanter", "gpt-neox": "megatron-deepspeed", "neox": "megatron-deepspeed",
                "gptneox": "megatron-deepspeed", "megatron-lm": "megatron", "megatron-core": "megatron",
                "mcore": "megatron", "llm.c": "llmc",
                # the Hugging Face tools a fine-tune is run with: the Trainer (trl's trainers subclass it) on
                # accelerate, runtime.yaml's fsdp-hf ('PyTorch FSDP with the Hugging Face Trainer'; round 49)
                "hf trainer": "fsdp-hf", "hf-trainer": "fsdp-hf", "trainer": "fsdp-hf",
                "hugging face trainer": "fsdp-hf", "huggingface trainer": "fsdp-hf", "accelerate": "fsdp-hf",
                "trl": "fsdp-hf", "transformers": "fsdp-hf",
                # FlashAttention-2 as its package (flash-attn), its import (flash_attn) and transformers'
                # attn_implementation ('flash_attention_2') name it: attention_kernel fa2 (round 49)
                "flash": "fa2", "flash-attn": "fa2", "flash_attn": "fa2", "flash_attention_2": "fa2",
                "flashattention-2": "fa2", "flashattention2": "fa2", "flash-attention-2": "fa2", "fa-2": "fa2",
                # FlashAttention-3 as its Hopper package imports (flash_attn_3, flash_attn_interface) and transformers'
                # attn_implementation ('flash_attention_3') name it: attention_kernel fa3 (product61)
                "flash_attn_3": "fa3", "flash-attn-3": "fa3", "flash_attention_3": "fa3", "flashattention-3": "fa3",
                "flashattention3": "fa3", "flash-attention-3": "fa3", "fa-3": "fa3", "flash_attn_interface": "fa3"}

#: Words people use for a choice that the schema names otherwise, for the 'did you mean' of a refused choice: a
#: service is ``inference``, supervised fine-tuning (SFT) ``finetune``, PEFT's adapters ``lora``, half precision
#: ``fp16``, a purchase ``buy``, a lease ``rent``, second-hand cards ``used`` (difflib found none of them; hostile
#: round 50). A width ('4bit', '8-bit') is not here: two choices have it (round 46's ``_word_or_prefix``).
_CHOICE_WORDS = {"serving": "inference", "serve": "inference", "sft": "finetune", "fine-tuning": "finetune",
                 "finetuning": "finetune", "peft": "lora", "half": "fp16", "purchase": "buy", "lease": "rent",
                 "rental": "rent", "second-hand": "used", "secondhand": "used", "second hand": "used",
                 "pre-owned": "used",
                 # bitsandbytes as its users shorten it (transformers' BitsAndBytesConfig, 'bnb-4bit' releases);
                 # FlashAttention named in the attention field ('fa2', as attention_kernel spells it); offload 'to
                 # disk' or 'SSD' (DeepSpeed's ZeRO-Infinity offloads to NVMe drives: offload_param device 'nvme');
                 # a home office (hostile round 54)
                 "bnb": "bitsandbytes", "bitsandbytes-4bit": "bitsandbytes", "bnb-4bit": "bitsandbytes",
                 "bnb-8bit": "bitsandbytes", "fa2": "flash", "fa3": "flash", "flashattention": "flash",
                 "disk": "nvme", "ssd": "nvme", "drive": "nvme", "home": "office", "home office": "office",
                 # TRL's SFTConfig(packing=True) packs padding-free with its default strategy from v0.19
                 # (docs/formats.md, packing); False, no packing: said where the field is packing's
                 "true": "padding_free", "false": "none",
                 # llama.cpp's 8-bit cache type (--cache-type-k q8_0: 32 values and one FP16 scale, 8.5 bits a
                 # value, ggml-org/llama.cpp common/arg.cpp kv_cache_types) is kv_precision's one 8-bit choice
                 "q8_0": "fp8", "f16": "fp16",
                 # a rental's pricing plan as a quote or a spreadsheet's column names it (on demand, reserved, spot:
                 # acquisition.spot and acquisition.months say which), and the Chinese words for renting and buying
                 # (hostile round 55)
                 "on-demand": "rent", "on demand": "rent", "ondemand": "rent", "reserved": "rent", "spot": "rent",
                 "租用": "rent", "租赁": "rent", "租": "rent", "购买": "buy", "采购": "buy", "买": "buy"}

#: A GGUF file's quantization type, as llama.cpp's ``llama-quantize`` names them (Q4_K_M, Q8_0, IQ4_XS, Q5_K_S ...;
#: ggml-org/llama.cpp tools/quantize/README.md): the ``gguf`` method (hostile round 54).
_GGUF_TYPE = re.compile(r"i?q\d(?:_[a-z0-9]+)*(?:\.gguf)?", re.I)

#: Stack names that are no stack of their own: a torchtune recipe and a plain PyTorch loop run PyTorch's FSDP or DDP
#: with nothing of a named stack's, which is what a job naming no stack is priced as (docs/formats.md, stack: 'none
#: given: the middle'); difflib offered torchtitan for torchtune, another project with its own figures (round 54).
STACK_LEFT_OUT = frozenset({"torchtune", "pytorch", "torch", "plain pytorch", "pytorch fsdp", "fsdp2", "ddp",
                            "pytorch ddp"})

#: Keys users write as their engine's flag, for the 'did you mean' of an unknown key: SGLang ``--mamba-ssm-dtype``,
#: vLLM ``--mamba-ssm-cache-dtype`` and TensorRT-LLM ``mamba_ssm_cache_dtype`` are ``recurrent_state_dtype``, vLLM's
#: and SGLang's ``--kv-cache-dtype`` is ``kv_precision`` (difflib offered 'kv_cache_tokens', or every key).
_FLAG_KEYS = {"mamba_ssm_dtype": "recurrent_state_dtype", "mamba_ssm_cache_dtype": "recurrent_state_dtype",
              "kv_cache_dtype": "kv_precision"}


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
    keyed = False  # the last field maps keys to sections (vendor_overrides: {nvidia: ...}): the next key names none
    for key in loc[:-1]:
        if isinstance(key, int) or current is None or keyed:
            keyed = False
            continue
        fld = current.model_fields.get(key) if hasattr(current, "model_fields") else None
        if fld is None:
            return []
        current = _nested_model(fld.annotation)
        keyed = any(get_origin(a) is dict for a in (fld.annotation, *getattr(fld.annotation, "__args__", ())))
    return list(current.model_fields) if current is not None else []


def _nested_key(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """The dotted place of an unknown key that is a field of a section one level down (a models.yaml entry's
    ``indexer_layers`` -> ``sparse_attention.indexer_layers``): a key written a level too high is that field,
    not the nearest spelling at its own level ('layers'). None where no section, or more than one, has it."""
    homes = []
    for name in _fields_of(model, loc):
        fld = _field_info(model, (*loc[:-1], name))
        section = _nested_model(fld.annotation) if fld is not None else None
        keyed = fld is not None and any(get_origin(a) is dict for a in (fld.annotation, *getattr(
            fld.annotation, "__args__", ())))  # vendor_overrides: {nvidia: ...}: its fields are a level further down
        if section is not None and not keyed and str(loc[-1]) in section.model_fields:
            homes.append(f"{name}.{loc[-1]}")
    return homes[0] if len(homes) == 1 else None


def home_elsewhere(model: type[BaseModel], loc: tuple[Any, ...]) -> str | None:
    """The one other place in the file where an unknown key is a field, looking from the nearest section outwards:
    ``workload.max_gpus`` is ``constraints.max_gpus``, ``constraints.precision`` is ``workload.precision``, a flat
    file's ``task`` is ``workload.task``, a proposal's ``hardware.hourly_usd`` is ``acquisition.hourly_usd`` (difflib
    offered max_tpot_ms, acquisition or every key; hostile round 50). Sections held in lists (a plan's workloads)
    and keyed maps are not searched; None where no place, or more than one at the nearest level, has it."""
    from ..errors import field_path

    key = str(loc[-1])
    for depth in range(len(loc) - 1, -1, -1):
        base = loc[:depth]
        if base and isinstance(base[-1], int):
            continue  # a list entry's fields are its section's, met one level down
        homes = []
        for name in _fields_of(model, (*base, "")):
            if depth < len(loc) - 1 and loc[depth] == name:
                continue  # the section the key was written in: difflib's 'did you mean' says that
            fld = _field_info(model, (*base, name))
            args = (fld.annotation, *getattr(fld.annotation, "__args__", ())) if fld is not None else ()
            if any(get_origin(a) in (dict, list) for a in args):
                continue
            section = _nested_model(fld.annotation) if fld is not None else None
            if section is not None and key in section.model_fields:
                homes.append(field_path((*base, name, key)))
        if len(homes) == 1:
            return homes[0]
        if homes:
            return None
    return None


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


def _version_written_otherwise(given: Any, info: Any) -> str | None:
    """A release written as its git tag or with a separator the field's form has not (``v0.5.7``, ``0.5.7-rc1``,
    ``0.5.7 ``), or a build's version (``0.10.1.1+cu126``, ``0.11.1rc2.dev5+gabc``): the release in the field's form,
    for the refusal's 'did you mean'; None for anything else."""
    import re

    pattern = next((m.pattern for m in getattr(info, "metadata", ()) if getattr(m, "pattern", None)), None)
    if not isinstance(given, str) or pattern is None or len(given) > 64:
        return None
    from .notation import fold_digits

    # full-width digits (４.５７) and other scripts' (Arabic-Indic ٠.١١.١, Devanagari) are refused as every number
    # field refuses them (docs/formats.md), with the ASCII release offered
    close = fold_digits(given.strip())
    close = re.sub(r"[-_](?=(post|rc)\d)", "", re.sub(r"^(release-)?[vV](?=\d)", "", close))
    # a build's local label (0.10.1.1+cu126) is the release it labels; a nightly or development build
    # (0.11.1rc2.dev5+gabc, 0.5.6.post3.dev1278, 0.5.9.dev20260204) is offered the release it names, an rcN as
    # that release (records.release_key)
    close = re.sub(r"\+[0-9A-Za-z.]*$", "", close)
    if re.search(r"[.-]?dev\d*$", close):
        close = re.sub(r"\.?rc\d+$", "", re.sub(r"[.-]?dev\d*$", "", close))
    return close if close != given and re.fullmatch(pattern, close) else None


_RELEASE = r"^[0-9]+(\.[0-9]+){0,3}"
_NEWEST = {"latest", "newest", "last", "stable", "current", "main", "master", "nightly", "head"}


def _is_release(info: Any) -> bool:
    """A workload's release field (``stack_version``, ``transformers_version``, ``framework_version``), whose
    description is a paragraph on what the release sets: its pattern starts with :data:`_RELEASE`."""
    pattern = next((m.pattern for m in getattr(info, "metadata", ()) if getattr(m, "pattern", None)), "")
    return pattern.startswith(_RELEASE)


def literal_close(given: Any, expected: Any) -> str | None:
    """The choice a value refused by a ``Literal`` field was likely meant as, or None: a close spelling,
    the same name in other capitals ('cny': CNY), or an engine named as its users know it (Ollama and LM
    Studio run llama.cpp's kernels, trtllm is TensorRT-LLM). ``expected`` is pydantic's "'a', 'b' or 'c'".
    One function for every reader of a file, so that ``ask`` resuming a file says what ``recommend`` says."""
    import difflib

    if not isinstance(given, str):
        return None
    folded = unicodedata.normalize("NFKC", given) if len(given) <= 100 else given
    if folded != given:  # full-width letters from a Chinese input method ('ｖｌｌｍ', 'ＢＦ１６'; hostile round 53)
        return literal_close(folded, expected)
    choices = [e.strip(" '") for e in str(expected).replace(" or ", ",").split(",")]  # 'a', 'b' or 'c'
    # a currency as people say it: 'RMB', '¥' (round 48); a choice in other words: 'serving', 'lease' (round 50)
    for names in (_ENGINE_NAMES, _STACK_NAMES, CURRENCY_NAMES, _CHOICE_WORDS):
        alias = names.get(given.strip().lower())
        if alias in choices:
            return alias
    if "gguf" in choices and len(given) <= 40 and _GGUF_TYPE.fullmatch(given.strip()):  # 'Q4_K_M' (round 54)
        return "gguf"
    # the same name in other capitals first: difflib offered 'BFloat16' the nearer-spelt float16 over bfloat16
    close = [c for c in choices if c.lower() == given.strip().lower()]
    close = close or (difflib.get_close_matches(given, choices) if len(given) <= 100 else [])
    # a close spelling in other capitals ('MXFP4', 'NVFP4': fp4) is as close as its lower case ('mxfp4')
    if not close and len(given) <= 100:
        lower = {c.lower(): c for c in choices}
        close = [lower[m] for m in difflib.get_close_matches(given.lower(), list(lower))]
    return close[0] if close else _word_or_prefix(given, choices)


def _word_or_prefix(given: str, choices: list[str]) -> str | None:
    """The one choice a refused value names as a word of it ('ZeRO-3': 3, 'CPU offload': cpu) or begins
    ('colo': colocation), where difflib finds none; a precision given as its width, the one choice of that many bits
    ('8 bit': fp8 where int8 is no choice, hostile round 46); None where no choice or several do (round 45)."""
    text = given.strip().lower()
    if not text or len(text) > 100:
        return None
    lower = {c.lower(): c for c in choices}
    width = re.fullmatch(r"(\d+)[\s-]*bits?", text)  # a precision as its width ('8 bit': fp8; round 46)
    if width:
        wide = [c for c in choices if re.fullmatch(rf"[a-z]+{width.group(1)}", c.lower())]
        return wide[0] if len(wide) == 1 else None
    words = {lower[w] for w in re.split(r"[\s_/,:-]+", text) if w in lower}
    if words:
        return words.pop() if len(words) == 1 else None
    begun = [c for c in choices if len(text) >= 3 and c.lower().startswith(text)]
    return begun[0] if len(begun) == 1 else None


def _close_key(given: str, valid: list[str]) -> list[str]:
    """The closest key to a misspelt one, of the keys that keep its longest word where one does: difflib alone
    offered 'p95_tpot_ms' (a time per output token, written by the pattern of max_ttft_ms's older name
    p95_ttft_ms) the time-to-first-token key p95_ttft_ms, two letters away, over max_tpot_ms (hostile round 28)."""
    import difflib

    flag = _FLAG_KEYS.get(given.strip().lower().replace("-", "_").lstrip("_"))
    if flag in valid:
        return [flag]
    same = [v for v in valid if v.casefold() == given.strip().casefold()]
    if same:  # 'WORKLOAD', 'TASK', 'GPU': difflib compares case, so a key in capitals listed the valid keys (round 53)
        return same[:1]
    close = difflib.get_close_matches(given, valid, n=3)
    words = sorted((w for w in given.lower().split("_") if w.isalpha()), key=len, reverse=True)
    if words and len(words[0]) >= 3:
        keeps = [c for c in close if words[0] in c.lower().split("_")]
        if keeps:
            return keeps[:1]
    return close[:1]


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
    "finite_number": N_("must be a finite number (got %(given)s)"),  # '1e400', past a float (yamlio.WrittenFloat)
    "bool_parsing": N_("must be true or false (got %(given)s)"),
    "bool_type": N_("must be true or false (got %(given)s)"),
    "string_type": N_("must be text (got %(given)s)"),
    "string_too_short": N_("must have at least %(min_length)s characters (got %(given)s)"),
    "string_too_long": N_("must have at most %(max_length)s characters (got %(given)s)"),
    "too_short": N_("must have at least %(min_length)s item(s) (got %(given)s)"),
    "too_long": N_("must have at most %(max_length)s item(s) (got %(given)s)"),
}
"""Pydantic's common complaints as the catalog's templates (its ``ctx`` values fill them)."""

BOUND_TYPES = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})
"""The bound refusals, said in the house's words in every language ('must be at most 60 (got 600)'); pydantic's
English ('Input should be less than or equal to 60') stood beside them where --lang zh had the catalog's (hostile
round 48)."""


def bound_text(bound: Any) -> str:
    """A field's bound as a user writes it: 60, 0.99, 10000000, 0.000001 (not 1e7's '10000000.0' or '1e-06')."""
    from decimal import Decimal

    if isinstance(bound, bool) or not isinstance(bound, int | float):
        return str(bound)
    if isinstance(bound, int) or bound.is_integer():
        return f"{bound:.0f}" if abs(bound) < 1e16 else f"{bound:g}"
    return format(Decimal(repr(bound)), "f")


def bound_words(err: Any) -> tuple[str, dict[str, Any]] | None:
    """A bound refusal (``err`` one of pydantic's errors) as the house says it in every language: the template and
    its values ('must be at most %(le)s (got %(given)s)'); None for another complaint."""
    if err["type"] not in BOUND_TYPES or "input" not in err:
        return None
    ctx = err.get("ctx", {})
    return _BOUNDS[err["type"]], {**ctx, **{k: bound_text(ctx[k]) for k in ("gt", "ge", "lt", "le") if k in ctx},
                                  "given": _short(err["input"])}


def too_long_text(err: Any) -> tuple[str, dict[str, Any]] | None:
    """A string past its field's length, as every reader of a file says it (hostile round 46): the limit and the
    length given, not pydantic's 'String should have at most N characters' and 60 of its letters. The template and
    its values; None for another complaint."""
    if err["type"] != "string_too_long" or not isinstance(err.get("input"), str):
        return None
    return (N_("must have at most %(max_length)s characters (%(given)s given)"),
            {**err.get("ctx", {}), "given": f"{len(err['input']):,}",
             **({"max_length": f"{err['ctx']['max_length']:,}"} if isinstance(err.get("ctx", {}).get("max_length"), int)
                else {})})


_OR_WORD = {
    "int_parsing": N_("must be a whole number or %(expected)s (got %(given)s)"),
    "int_from_float": N_("must be a whole number or %(expected)s (got %(given)s)"),
    "float_parsing": N_("must be a number or %(expected)s (got %(given)s)"),
    "bool_parsing": N_("must be true or false, or %(expected)s (got %(given)s)"),
}
"""A number refused where the field also takes a word ('auto'): the complaint in another language names it."""


class _Given(reprlib.Repr):
    """What a user gave, as they wrote it: a date YAML read is shown 2026-01-01, not Python's
    ``datetime.date(2026, 1, 1)``."""

    def repr_date(self, x: Any, level: int) -> str:
        return x.isoformat()

    def repr_datetime(self, x: Any, level: int) -> str:
        return x.isoformat(sep=" ")

    def repr_NoneType(self, x: Any, level: int) -> str:  # reprlib calls repr_ + the type's name
        return "null"  # as YAML and JSON write it, not Python's None

    def repr_bool(self, x: Any, level: int) -> str:
        return "true" if x else "false"

    def repr_Written(self, x: Any, level: int) -> str:  # yamlio.Written: '-0', '0123' as written, not 0 or 123
        return x.written

    def repr_WrittenFloat(self, x: Any, level: int) -> str:  # yamlio.WrittenFloat: '1e400', not inf
        return x.written


_REPR = _Given()
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
