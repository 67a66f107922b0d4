"""The input files users write: requirements (``recommend``/``estimate``/``ask``) and
proposals (``audit``), as strict pydantic models.

Every field except ``workload.task`` and one of ``model``/``params_b`` has a default
here, and the defaults are documented in README.md.  Unknown keys are errors.  The
loader turns validation errors into one line naming the file and the field, with a
close match for a misspelt key.

The models live by section (:mod:`.strict` the base, :mod:`.workload`, :mod:`.requirements`,
:mod:`.proposal`); every name stays importable from here. This module turns a validation error
into that one line, in the words :mod:`.error_words` holds for every reader of a file.
"""

import re
from pathlib import Path
from typing import Any

from pydantic import (
    BaseModel,
    ValidationError,
)

from ..errors import N_, Said, SaidAt, Term, UserError, either, field_path
from .error_words import (  # _BOUNDS, _short and literal_close are imported from here too
    _BOUNDS,
    _NEWEST,
    _OR_WORD,
    STACK_LEFT_OUT,
    _clip,
    _close_key,
    _field_info,
    _field_loc,
    _fields_of,
    _is_release,
    _short,
    _version_written_otherwise,
    bound_words,
    engine_not_modelled,
    home_elsewhere,
    literal_close,
    too_long_text,
)
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
from .task_fields import SERVING_ONLY  # noqa: F401
from .units import PERCENT_MEANT, percent_meant
from .workload import (  # noqa: F401
    QUANTIZATION_PRECISIONS,
    Attention,
    Framework,
    LoraTargets,
    Method,
    Optimizer,
    Precision,
    Task,
    Workload,
)
from .workload_sections import Architecture, Parallelism, Speculative  # noqa: F401

PROPOSAL_MODELS = ("Acquisition", "Cloud", "Facility", "Hardware", "Link", "Proposal", "Storage", "UsedCard")
"""The proposal's models (:mod:`.proposal`), importable from here too."""


def __getattr__(name: str) -> Any:
    """A proposal model, imported when first named here: ``recommend`` never reads a proposal."""
    if name in PROPOSAL_MODELS:
        from . import proposal

        return getattr(proposal, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ----------------------------------------------------------------------------- loading

_ONE_VALUE = {"int_type", "int_parsing", "float_type", "float_parsing", "string_type", "literal_error", "bool_type",
              "bool_parsing", "enum"}
"""pydantic's complaints of a field that takes one value, where a list given is told as a list (round 51)."""


_VERSION_KEYS = frozenset({"version", "schemaversion", "apiversion", "kind", "formatversion", "fileversion",
                           "contractversion", "gpuwiseversion", "specversion"})
"""Top-level keys other tools' file formats carry (Kubernetes' apiVersion and kind, Compose's version)."""


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
    if isinstance(err.get("input"), list) and err["type"] in _ONE_VALUE:
        # a list where one value goes ('prompt_tokens: [1000, 2000]', 'count: [8]') was pydantic's 'Input should
        # be a valid integer' or the field's choices quoting the list (hostile round 51): one value asked, the one
        # item offered where there is one
        given = err["input"]
        one = given[0] if len(given) == 1 and isinstance(given[0], str | int | float) else None
        values = {"given": _short(given), "n": len(given), "one": one}
        msg = (N_("%(given)s is a list, and one value goes here: write %(one)s") if one is not None
               else N_("%(given)s is a list of %(n)s, and one value goes here: give one (a file for each, to compare "
                       "them)"))
    elif err["type"] == "extra_forbidden":
        valid = _fields_of(model, loc)
        home = home_elsewhere(model, loc) if str(loc[-1]) not in valid else None
        close = [home] if home else _close_key(str(loc[-1]), valid)
        msg = N_("unknown key")
        hint, hint_values = ((N_("did you mean '%(name)s'?"), {"name": close[0]}) if close
                             else (N_("valid keys: %(names)s"), {"names": ", ".join(valid)}) if valid else (None, None))
        key = str(loc[-1])
        if len(loc) == 1 and re.sub(r"[-_ ]", "", key.lower()) in _VERSION_KEYS:
            # 'version: 2', 'apiVersion: gpuwise/v1' from another tool's format (hostile round 52): the valid keys
            # listed, not why this one is none
            msg = N_("unknown key: gpuwise's requirements, proposal and plan files carry no version or kind")
            hint, hint_values = N_("remove it: a file is read by its fields, as docs/formats.md lists them"), {}
        elif key[:2].lower() == "x-" and not close:
            # a Compose-style extension key kept for its anchor ('x-serve: &s' merged into workload) listed the
            # valid keys (hostile round 52's leftover): docs/formats.md keeps unknown keys an error, so it is refused
            # saying no x- key is read and where an anchor goes
            msg = N_("unknown key: gpuwise reads no x- extension keys, as Compose files carry")
            hint = N_("remove it, and put a YAML anchor on a value inside a section: workload: &serve, then <<: *serve "
                      "where it is used again")
            hint_values = {}
        elif key.lower().endswith("_cny") and f"{key[:-4].lower()}_usd" in valid:
            # 'hourly_cny: 28' was offered hourly_usd alone, as if 28 yuan were 28 dollars (hostile round 51)
            hint = N_("did you mean '%(name)s' with constraints.currency: CNY? Every amount is written under its "
                      "_usd name, in the file's one currency")
            hint_values = {"name": f"{key[:-4].lower()}_usd"}
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
        if loc and loc[-1] == "stack" and isinstance(given, str) and given.strip().lower() in STACK_LEFT_OUT:
            # torchtune, plain PyTorch: no stack of their own, priced as a job naming none (hostile round 54)
            hint, hint_values = N_("%(given)s runs plain PyTorch (FSDP or DDP), which a job naming no stack is "
                                   "priced as: leave stack out"), values
        engine = engine_not_modelled(given) if loc and loc[-1] == "framework" else None
        if engine is not None:  # TGI, LMDeploy: named, not matched by spelling (round 50's leftover)
            msg, values["engine"] = N_("%(given)s is %(engine)s, a serving engine gpuwise has no figures for"), engine
            hint, hint_values = N_("give one it models, %(expected)s, or leave framework out (vllm)"), values
        pin = re.fullmatch(r"\s*([\w.-]+?)\s*(?:==|@|\s)\s*v?(\d+(?:\.\d+){1,3})\s*", given) if isinstance(
            given, str) else None
        release = f"{loc[-1]}_version" if loc else ""
        if pin and pin.group(1).lower() in [q.strip("'") for q in quoted] and release in _fields_of(model, loc):
            # a pip pin or a tag ('vllm==0.6.3', 'sglang 0.5.7') holds the release too (hostile round 50)
            hint, hint_values = N_("did you mean %(name)s? The release goes in its own field, %(release)s: "
                                   "'%(version)s'"), {"name": pin.group(1).lower(), "release": release,
                                                      "version": pin.group(2)}
    elif err["type"] in ("too_short", "too_long"):  # how many were given, not the list itself
        ctx = err.get("ctx", {})
        values = {**ctx, "given": f"{ctx.get('actual_length', 0):,}"}
        msg = _BOUNDS[err["type"]]
    elif (long := too_long_text(err)) is not None:  # its length, not 60 of its letters
        msg, values = long
    elif (bound := bound_words(err)) is not None:  # a bound in the house's words in every language (round 48)
        msg, values = bound
        if hint is None and loc and (pct := percent_meant(str(loc[-1]), err["input"], err.get("ctx", {}))):
            hint, hint_values = PERCENT_MEANT, pct  # 80 for a share: 0.8 offered (hostile round 48)
    elif err["type"] in _BOUNDS and "input" in err:  # pydantic's words in English, the catalog's in another (a
        # number or a yes/no not parsed)
        values = {**err.get("ctx", {}), "given": _short(err["input"])}
        msgid, msg = _BOUNDS[err["type"]], f"{msg} (got {values['given']})"
        if err["type"] in _HOUSE_WORDS:  # YAML's .nan, .inf, 1e309: pydantic's 'Input should be a finite number'
            # in English alone (hostile round 53); 'high' for a share, 1.5 or 'eight' for a count: 'Input should be
            # a valid integer, unable to parse string as an integer' (round 54)
            msgid, msg = None, _BOUNDS[err["type"]]
        # a number or a word ('auto'): the word is named in every language, and a close spelling of it
        words = [e for e, b in zip(errors[1:], bases[1:], strict=True) if b == loc and e["type"] == "literal_error"]
        if words and err["type"] in _OR_WORD:
            expected = words[0].get("ctx", {}).get("expected", "")
            quoted = [c for c in (x.strip() for x in str(expected).replace(" or ", ",").split(",")) if c]
            msgid, values["expected"] = _OR_WORD[err["type"]], either(quoted, commas=True)  # 'or' in its language
            if err["type"] in _HOUSE_WORDS:  # the house's words in English too: 8.5 for a count or 'auto' read
                msg, msgid = msgid, None  # 'must be a whole number (got %(given)s)', its slot unfilled (round 54)
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


_HOUSE_WORDS = frozenset({"finite_number", "int_parsing", "int_from_float", "float_parsing"})
"""Pydantic's complaints said in the house's words in English too, not only in another language."""


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


def _comma_split(before: tuple[Any, Any] | None, key: Any, value: Any, where: str, field: str) -> None:
    """``{train_tokens: 1,000}``: in braces a comma ends an entry, so YAML reads ``train_tokens: 1`` and a key
    ``000`` with no value, which was refused as 'the key 0 is not text: YAML read it as Written' (hostile round 44).
    A number key with no value just after a number is said as the number written with its thousands grouped."""
    if before is None or value is not None or not isinstance(key, int) or isinstance(key, bool):
        return
    name, number = before
    digits = getattr(key, "written", str(key))
    if not isinstance(name, str) or not isinstance(number, int) or isinstance(number, bool) or not digits.isdigit():
        return
    raise UserError(N_("%(name)s: %(given)s inside braces { } is read as %(name)s: %(number)s and a key %(digits)s: "
                       "a comma there ends an entry"), where=f"{where}: {field}" if field else where,
                    hint=N_("write %(meant)s, without the comma"),
                    values={"name": name, "given": f"{number},{digits}", "number": number, "digits": digits},
                    hint_values={"meant": f"{number}{digits}"})


def refuse_keys_not_text(data: Any, where: str, path: tuple[Any, ...] = ()) -> None:
    """Refuse a mapping key YAML read as something other than text (``~``, ``yes``, ``1``, a date),
    naming it as written, what YAML made of it and its section: pydantic showed it as a field
    'None' or a list index '[1]', ``yes`` as 1, and a date key as ``datetime.date(...)``."""
    if isinstance(data, dict):
        before: tuple[Any, Any] | None = None
        for key, value in data.items():
            if not isinstance(key, str):
                field = field_path(path, lambda p: _clip(p) if isinstance(p, str) else _short(p))
                _comma_split(before, key, value, where, field)
                kind = _KEY_KINDS.get(type(key).__name__) or next(
                    (v for k, v in _KEY_KINDS.items() if k in {c.__name__ for c in type(key).__mro__}), None)
                shown = {None: "~", True: "true", False: "false"}.get(key, key) if isinstance(key, bool | None) else key
                shown = getattr(key, "written", shown)  # '000' as written, not the 0 YAML made of it
                raise UserError(N_("the key %(key)s is not text: YAML read it as %(kind)s"),
                                where=f"{where}: {field}" if field else where, hint=N_("quote it, or remove the line"),
                                values={"key": shown if isinstance(shown, str) else _short(shown),
                                        "kind": Term(kind) if kind else type(key).__name__})
            refuse_keys_not_text(value, where, (*path, key))
            before = (key, value)
    elif isinstance(data, list):
        for i, value in enumerate(data):
            refuse_keys_not_text(value, where, (*path, i))



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
