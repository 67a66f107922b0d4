"""The input files users write: requirements (``recommend``/``estimate``/``ask``) and
proposals (``audit``), as strict pydantic models.

Every field except ``workload.task`` and one of ``model``/``params_b`` has a default
here, and the defaults are documented in README.md.  Unknown keys are errors.  The
loader turns validation errors into one line naming the file and the field, with a
close match for a misspelt key.

The models live by section (:mod:`.strict` the base, :mod:`.workload`, :mod:`.requirements`,
:mod:`.proposal`); every name stays importable from here. This module turns a validation error
into that one line.
"""

import reprlib
from pathlib import Path
from typing import Any, get_origin

from pydantic import (
    BaseModel,
    ValidationError,
)

from ..errors import N_, Said, SaidAt, Term, UserError, either, field_path
from .notation import Meant
from .requirements import (  # noqa: F401
    CURRENCY_FIELDS,
    Constraints,
    Environment,
    Requirements,
    from_currency_fields,
    parse_money,
    to_currency_fields,
)
from .strict import MAX_CARD_POWER_W, MAX_GPUS, PosInt, Strict, _finite  # noqa: F401
from .workload import (  # noqa: F401
    QUANTIZATION_PRECISIONS,
    SERVING_ONLY,
    Architecture,
    Attention,
    Framework,
    LoraTargets,
    Method,
    Optimizer,
    Parallelism,
    Precision,
    Speculative,
    Task,
    Workload,
)

PROPOSAL_MODELS = ("Acquisition", "Cloud", "Facility", "Hardware", "Link", "Proposal", "Storage", "UsedCard")
"""The proposal's models (:mod:`.proposal`), importable from here too."""


#: Names users give an inference engine that the schema spells otherwise, for the 'did you mean' of a refused
#: ``framework`` (Ollama and LM Studio serve GGUF models with llama.cpp's kernels).
_ENGINE_NAMES = {"ollama": "llama.cpp", "lm studio": "llama.cpp", "lmstudio": "llama.cpp", "llamacpp": "llama.cpp",
                 "llama-cpp": "llama.cpp", "trtllm": "tensorrt-llm", "trt-llm": "tensorrt-llm",
                 "tensorrt": "tensorrt-llm", "exllamav2": "exllama", "exllamav3": "exllama", "hf": "transformers",
                 "huggingface": "transformers", "mlc-llm": "mlc",
                 # an element type as PyTorch and the engines' flags spell it, or as gpuwise's precision does
                 # (recurrent_state_dtype takes torch's names, precision and kv_precision the short ones)
                 "fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "half": "float16", "float": "float32",
                 "float32": "fp32", "float16": "fp16", "bfloat16": "bf16", "torch.float32": "float32",
                 "torch.bfloat16": "bfloat16", "torch.float16": "float16"}

#: Keys users write as their engine's flag, for the 'did you mean' of an unknown key: SGLang ``--mamba-ssm-dtype``,
#: vLLM ``--mamba-ssm-cache-dtype`` and TensorRT-LLM ``mamba_ssm_cache_dtype`` are ``recurrent_state_dtype``, vLLM's
#: and SGLang's ``--kv-cache-dtype`` is ``kv_precision`` (difflib offered 'kv_cache_tokens', or every key).
_FLAG_KEYS = {"mamba_ssm_dtype": "recurrent_state_dtype", "mamba_ssm_cache_dtype": "recurrent_state_dtype",
              "kv_cache_dtype": "kv_precision"}

def __getattr__(name: str) -> Any:
    """A proposal model, imported when first named here: ``recommend`` never reads a proposal."""
    if name in PROPOSAL_MODELS:
        from . import proposal

        return getattr(proposal, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    choices = [e.strip(" '") for e in str(expected).replace(" or ", ",").split(",")]  # 'a', 'b' or 'c'
    alias = _ENGINE_NAMES.get(given.strip().lower())
    if alias in choices:
        return alias
    # the same name in other capitals first: difflib offered 'BFloat16' the nearer-spelt float16 over bfloat16
    close = [c for c in choices if c.lower() == given.strip().lower()]
    close = close or (difflib.get_close_matches(given, choices) if len(given) <= 100 else [])
    # a close spelling in other capitals ('MXFP4', 'NVFP4': fp4) is as close as its lower case ('mxfp4')
    if not close and len(given) <= 100:
        lower = {c.lower(): c for c in choices}
        close = [lower[m] for m in difflib.get_close_matches(given.lower(), list(lower))]
    return close[0] if close else None


def _close_key(given: str, valid: list[str]) -> list[str]:
    """The closest key to a misspelt one, of the keys that keep its longest word where one does: difflib alone
    offered 'p95_tpot_ms' (a time per output token, written by the pattern of max_ttft_ms's older name
    p95_ttft_ms) the time-to-first-token key p95_ttft_ms, two letters away, over max_tpot_ms (hostile round 28)."""
    import difflib

    flag = _FLAG_KEYS.get(given.strip().lower().replace("-", "_").lstrip("_"))
    if flag in valid:
        return [flag]
    close = difflib.get_close_matches(given, valid, n=3)
    words = sorted((w for w in given.lower().split("_") if w.isalpha()), key=len, reverse=True)
    if words and len(words[0]) >= 3:
        keeps = [c for c in close if words[0] in c.lower().split("_")]
        if keeps:
            return keeps[:1]
    return close[:1]


def explain_validation(exc: ValidationError, model: type[BaseModel], where: str) -> UserError:
    errors = exc.errors()
    # a misspelt key is also a missing one ('wrkload' given, 'workload' missing): the misspelling is the news
    first = next((k for k, e in enumerate(errors) if e["type"] == "extra_forbidden"), 0)
    errors = [errors[first], *errors[:first], *errors[first + 1:]]
    err = errors[0]

    def place(e: Any) -> tuple[Any, ...]:  # a whole section's check names the field it judged (SaidAt)
        said = (e.get("ctx") or {}).get("error")
        return (*e["loc"], *said.at) if isinstance(said, SaidAt) else _field_loc(model, tuple(e["loc"]))

    loc = place(err)
    field = field_path(loc, lambda p: _clip(p) if isinstance(p, str) else _short(p)) or "(top level)"
    bases = [place(e) for e in errors]
    alternatives = [e["msg"] for e, b in zip(errors[1:], bases[1:], strict=True) if b == loc]  # the other union members
    msg = "; or ".join([err["msg"], *alternatives]).replace("Value error, ", "")
    values: dict[str, Any] = {"msg": msg}
    hint, hint_values, msgid = None, None, None
    if err["type"] == "extra_forbidden":
        valid = _fields_of(model, loc)
        close = _close_key(str(loc[-1]), valid)
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
        if _is_release(info):  # the form in a few words, not a whole paragraph of English in every language
            msg = N_("%(given)s is not a release number (digits and dots, as 4.52 or 0.5.7)")
        close = _version_written_otherwise(err.get("input"), info)
        hint, hint_values = (N_("did you mean %(names)s?"), {"names": close}) if close else (None, None)
        if close is None and _is_release(info) and str(err.get("input")).strip().lower() in _NEWEST:
            hint, hint_values = N_("leave %(name)s out: gpuwise then takes the newest release it knows"), {
                "name": str(loc[-1])}
    elif err["type"] == "literal_error":
        expected = err.get("ctx", {}).get("expected", "")
        given = err.get("input")
        close = [c] if (c := literal_close(given, expected)) else []
        quoted = [c for c in (x.strip() for x in str(expected).replace(" or ", ",").split(",")) if c]
        values = {"given": _short(err.get("input")), "expected": either(quoted, commas=True)}
        if either(quoted, commas=True).words("en") != expected:  # pydantic worded it otherwise: as written
            values["expected"] = expected
        msg = N_("%(given)s is not one of %(expected)s")
        hint, hint_values = (N_("did you mean %(names)s?"), {"names": close[0]}) if close else (None, None)
    elif err["type"] in ("too_short", "too_long"):  # how many were given, not the list itself
        ctx = err.get("ctx", {})
        values = {**ctx, "given": f"{ctx.get('actual_length', 0):,}"}
        msg = _BOUNDS[err["type"]]
    elif err["type"] in _BOUNDS and "input" in err:  # pydantic's words in English, the catalog's in another
        values = {**err.get("ctx", {}), "given": _short(err["input"])}
        msgid, msg = _BOUNDS[err["type"]], f"{msg} (got {values['given']})"
        # a number or a word ('auto'): the word is named in every language, and a close spelling of it
        words = [e for e, b in zip(errors[1:], bases[1:], strict=True) if b == loc and e["type"] == "literal_error"]
        if words and err["type"] in _OR_WORD:
            expected = words[0].get("ctx", {}).get("expected", "")
            quoted = [c for c in (x.strip() for x in str(expected).replace(" or ", ",").split(",")) if c]
            msgid, values["expected"] = _OR_WORD[err["type"]], either(quoted, commas=True)  # 'or' in its language
            close = literal_close(err["input"], expected)
            hint, hint_values = (N_("did you mean %(names)s?"), {"names": close}) if close else (None, None)
    elif err["type"] in ("model_type", "dict_type", "list_type") and "input" in err:
        # a section or a list given as something else ('cloud: null'): what the field takes, not pydantic's class name
        # ('Input should be a valid dictionary or instance of Cloud')
        info = _field_info(model, loc)
        keys = _fields_of(model, (*loc, "")) if err["type"] == "model_type" else []
        values = {"given": _short(err["input"])}
        msg = (N_("must be a list (got %(given)s)") if err["type"] == "list_type"
               else N_("must be a section of keys (got %(given)s)"))
        optional = info is not None and not info.is_required()
        hint_values = {"names": ", ".join(keys), "name": str(loc[-1]) if loc else ""}
        hint = ((N_("valid keys: %(names)s; or leave %(name)s out") if optional else N_("valid keys: %(names)s"))
                if keys else N_("or leave %(name)s out") if optional else None)
    elif "input" in err and err["type"] not in ("model_type", "dict_type"):
        said = err.get("ctx", {}).get("error")
        values = {"msg": said if isinstance(said, Said) and not alternatives else msg, "given": _short(err["input"])}
        # pydantic's own words stay as it writes them; a number in another notation is quoted already;
        # the whole file, a section or a list a validator judged and named the value of is not quoted
        # back ('manufactured 2030-01 is in the future (got {'manufactured': ...})', '(got -5) (got [-5, 30])')
        quoted = loc and not isinstance(said, Meant) and not (isinstance(said, Said) and (isinstance(
            err["input"], dict | list) or values["given"] in str(said)))  # "'lots' is not an amount ... (got 'lots')"
        msg = N_("%(msg)s (got %(given)s)") if quoted else "%(msg)s"
    else:
        msg = "%(msg)s"
    more = len(set(bases) - {loc})  # the other problems, counted after the hint, which is the first one's
    tail = (N_("%(more)s more problem") if more == 1 else N_("%(more)s more problems")) if more else None
    return UserError(msg, where=f"{where}: {field}", hint=hint, values=values, hint_values=hint_values, msgid=msgid,
                     tail=tail, tail_values={"more": more})


_FILE_KINDS = {"Requirements": (N_("a requirements file"), "recommend"), "Proposal": (N_("a proposal"), "audit"),
               "PlanFile": (N_("a plan file"), "plan")}
"""The input files by their model: what the file is called and the command that reads it."""


def refuse_other_kind(model: type[BaseModel], data: dict, where: str) -> None:
    """Refuse a file of another kind by what it is and the command that reads it: a proposal given
    to ``recommend`` was refused as 'title: unknown key; 3 more problems', and a plan as
    'constraints.budget_per_quarter_usd: unknown key (did you mean 'budget_usd'?)', a close match
    that sent its writer the wrong way. Only once the file is refused, by the sections only one
    kind has (a plan's ``workloads``, a proposal's ``hardware``/``acquisition``/``used_cards``); a
    file with neither is a requirements file only when it is a good one (a proposal that lacks its
    ``hardware`` and has a mistake of its own is told that mistake)."""
    if model.__name__ not in _FILE_KINDS:
        return
    key = next((k for k in ("workloads", "horizon_months") if k in data), None)
    kind = "PlanFile" if key else None
    if kind is None:
        key = next((k for k in ("hardware", "acquisition", "used_cards") if k in data), None)
        kind = "Proposal" if key else "Requirements" if "workload" in data and _requirements(data) else None
    if kind is None or kind == model.__name__:
        return
    (name, command), (wanted, _) = _FILE_KINDS[kind], _FILE_KINDS[model.__name__]
    missing = {"Proposal": "hardware", "PlanFile": "workloads"}.get(model.__name__, "")
    raise UserError(N_("this is %(kind)s, not %(wanted)s (it has %(key)s)") if key else N_(
        "this is %(kind)s, not %(wanted)s (it has no %(key)s)"), where=where,
        values={"kind": Term(name), "wanted": Term(wanted), "key": key or missing},
        hint=N_("%(kind)s is read by `gpuwise %(command)s %(file)s`"),
        hint_values={"kind": Term(name), "command": command, "file": where})


def _requirements(data: dict) -> bool:
    """Whether ``data`` is a good requirements file."""
    try:
        Requirements.model_validate(data)
    except (ValidationError, RecursionError, ValueError):
        return False
    return True


_KEY_KINDS = {"NoneType": N_("null (~ or an empty key)"), "bool": N_("a yes/no value"), "int": N_("a number"),
              "float": N_("a number"), "date": N_("a date"), "datetime": N_("a date")}


def refuse_keys_not_text(data: Any, where: str, path: tuple[Any, ...] = ()) -> None:
    """Refuse a mapping key YAML read as something other than text (``~``, ``yes``, ``1``, a date),
    naming it as written, what YAML made of it and its section: pydantic showed it as a field
    'None' or a list index '[1]', ``yes`` as 1, and a date key as ``datetime.date(...)``."""
    if isinstance(data, dict):
        for key, value in data.items():
            if not isinstance(key, str):
                field = field_path(path, lambda p: _clip(p) if isinstance(p, str) else _short(p))
                kind = _KEY_KINDS.get(type(key).__name__)
                shown = {None: "~", True: "true", False: "false"}.get(key, key) if isinstance(key, bool | None) else key
                raise UserError(N_("the key %(key)s is not text: YAML read it as %(kind)s"),
                                where=f"{where}: {field}" if field else where, hint=N_("quote it, or remove the line"),
                                values={"key": shown if isinstance(shown, str) else _short(shown),
                                        "kind": Term(kind) if kind else type(key).__name__})
            refuse_keys_not_text(value, where, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            refuse_keys_not_text(value, where, (*path, i))


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
    "too_short": N_("must have at least %(min_length)s item(s) (got %(given)s)"),
    "too_long": N_("must have at most %(max_length)s item(s) (got %(given)s)"),
}
"""Pydantic's common complaints as the catalog's templates (its ``ctx`` values fill them)."""

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
        refuse_keys_not_text(data, where)  # the clearer complaint, looked for only once the input is refused
        refuse_other_kind(model, data, where)
        raise explain_validation(exc, model, where) from None
    except RecursionError:
        raise UserError(N_("nested too deeply"), where=where) from None


def list_caps(model: type[BaseModel]) -> dict[str, int]:
    """The most entries each top-level list of ``model`` may hold (``workloads``: 50), so reading a
    file refuses a longer list by its field and limit while scanning (a 5,000-entry list was refused
    only as 'more than 100,000 values')."""
    caps: dict[str, int] = {}
    for name, field in model.model_fields.items():
        for meta in field.metadata:
            listed = getattr(field.annotation, "__origin__", None) is list
            if listed and isinstance(getattr(meta, "max_length", None), int):
                caps[field.alias or name] = meta.max_length
    return caps


def load_file(model: type[BaseModel], path: str | Path) -> Any:
    from ..yamlio import read_yaml

    p = Path(path)
    return parse(model, read_yaml(p, what="input file", caps=list_caps(model)), str(p))


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
