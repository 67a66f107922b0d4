"""A yes/no field given a word, as a hurried user writes it from an engine's flag or a dashboard:
``weight_only_gemm: marlin`` (the kernel the flag forces), ``prefix_cache: enabled``, ``rocm_aiter: disabled``,
``liger_kernel: liger``, a plan's ``continuous: always``. Pydantic's refusal said 'Input should be a valid
boolean, unable to interpret input' (hostile round 45); the field is said as a yes/no, and true or false is
offered where the word says which: a word for on or off, or the thing the field switches on named (a word of the
field's own name, or the kernel it forces). Nothing is read silently: the value is still refused."""

from __future__ import annotations

import re

from ..errors import N_, Term
from .notation import Meant

#: The text pydantic reads as a boolean itself (pydantic's bool validation, strings, case-insensitive).
_PYDANTIC_BOOL = {"0", "off", "f", "false", "n", "no", "1", "on", "t", "true", "y", "yes"}
#: Words that say on, or off, whatever the field.
_ON = {"enabled", "enable", "always", "forced", "force", "active", "activated", "use", "used", "with"}
_OFF = {"disabled", "disable", "never", "not", "without", "inactive", "deactivated", "no", "off"}
#: Words of a field's name too general to say that the value names what it switches on ('cutlass kernel').
_GENERAL = {"kernel", "kernels", "gemm", "only", "cache", "comm", "rocm", "torch", "cuda", "params", "graphs",
            "reduce", "cross", "entropy", "mixed", "precision", "overlap", "asm"}
#: What a field switches on, named otherwise than by its own name: ``weight_only_gemm`` forces vLLM's weight-only
#: Marlin kernels (VLLM_TEST_FORCE_FP8_MARLIN=1, ``--linear-backend marlin``, ``--moe-backend marlin``: the field's
#: description in inputs/workload.py), which run the W8A16 / W4A16 forms (8- or 4-bit weights, 16-bit math).
_NAMES = {"weight_only_gemm": {"marlin", "w8a16", "w4a16", "weight-only"}}
#: What a field is, said where it is refused (the fields whose name says least).
_WHAT = {"weight_only_gemm": Term(N_("whether the server forces vLLM's weight-only GEMM kernels, Marlin, on the FP8 or "
                                     "FP4 weights"))}

_SAID = {(True, True): N_("%(given)s: %(field)s is a yes/no, true or false (%(what)s): write %(meant)s"),
         (True, False): N_("%(given)s: %(field)s is a yes/no, true or false (%(what)s)"),
         (False, True): N_("%(given)s: %(field)s is a yes/no, true or false: write %(meant)s"),
         (False, False): N_("%(given)s: %(field)s is a yes/no: write true or false")}


def _meant(text: str, name: str) -> str | None:
    """'true' or 'false' where ``text`` says which for the field ``name``, else None."""
    words = set(re.split(r"[\s_,;:()/.]+", text.lower())) - {""}
    if words & _OFF:
        return "false"
    own = {w for w in name.lower().split("_") if len(w) >= 4} - _GENERAL
    names = _NAMES.get(name, set())
    if words & (_ON | own | names) or text.lower().strip() in names:
        return "true"
    return None


def raise_yes_no_word(v: str, name: str) -> None:
    """Refuse the text ``v`` given to the yes/no field ``name`` in the house's words (what the field is, true or
    false offered where the text says which); return for text pydantic reads as a boolean itself."""
    text = v.strip()
    if text.lower() in _PYDANTIC_BOOL or len(text) > 200:
        return
    meant, what = _meant(text, name), _WHAT.get(name)
    values = {"given": repr(text if len(text) <= 60 else text[:57] + "..."), "field": name}
    raise Meant(_SAID[what is not None, meant is not None], **values,
                **({"what": what} if what else {}), **({"meant": meant} if meant else {}))
