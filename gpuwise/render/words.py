"""The few values that reach a sentence as English words, worded in the report's language.

A rule's sentence is translated through the catalog, but some of its values are phrases the
estimators build. A link description travels as message ids with values (gpuwise/messages.py
``Phrase``; the fact's ``link_phrases`` beside its English ``link``) and is worded here part by
part from the catalog: nothing about it is parsed back. The others still come as English from a
small, fixed vocabulary (a layout label "TP4 + gradient checkpointing + ZeRO-1", a network, why a
serving framework cannot run, formula notes); each form is matched here and rewritten through a
catalog message (marked ``N_`` for extraction), anything not recognised left as it came. Layout
dicts (a training plan's ``layout``, a serving plan's ``layout``) are worded here too.

Nothing here computes a number: the figures in a phrase are carried over as written.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

from .. import messages


class Speaker(Protocol):
    """What wording needs from the report's formatter (:class:`gpuwise.render.fmt.Fmt`)."""

    sep: str  # between the items of a list (", " or "，")
    clause: str  # between clauses ("; " or "；")

    def _(self, message: str, **kw: Any) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, **kw: Any) -> str: ...

    def sentence(self, template: str, values: dict[str, Any], english: str = "") -> str: ...


def N_(message: str) -> str:
    """Mark a string for translation; it is translated where it is used."""
    return message


# --------------------------------------------------------------------------- layout labels
_PLAIN = ("plain data parallel",)
_SPLIT = re.compile(r"^(?:(?:TP|PP|EP|CP)\d+(?:x\d+)?)(?: (?:TP|PP|EP|CP)\d+(?:x\d+)?)*$")
_COPIES = re.compile(r"^(\d+) x \((.*)\)$")
_PART_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^gradient checkpointing$"), N_("gradient checkpointing")),
    (re.compile(r"^(?P<target>CPU|NVME|cpu|nvme) offload$"), N_("%(target)s offload")),
    (re.compile(r"^tensor parallel (?P<n>\d+)$"), N_("tensor parallel %(n)s")),
    (re.compile(r"^expert parallel (?P<n>\d+)$"), N_("expert parallel %(n)s")),
    (re.compile(r"^attention data parallel (?P<n>\d+)$"), N_("attention data parallel %(n)s")),
    (re.compile(r"^(?P<n>\d+) pipeline stages$"), N_("%(n)s pipeline stages")),
    (re.compile(r"^one GPU$"), N_("one GPU")),
)


def strategy(label: str, count: int | None, f: Speaker) -> str:
    """A layout label in the report's language. "plain data parallel" says what it is: one GPU,
    or data parallel over the GPUs."""
    _ = f._
    text = " ".join(str(label).split())
    if not text:
        return text
    m = _COPIES.match(text)
    if m:
        return _("%(n)s copies of (%(copy)s)", n=m.group(1), copy=strategy(m.group(2), None, f))
    parts = []
    for part in text.split(" + "):
        if part in _PLAIN:
            parts.append(_("one GPU") if count == 1 else
                         _("data parallel over %(n)s GPUs", n=count) if count else _("data parallel"))
            continue
        if _SPLIT.match(part) or re.match(r"^ZeRO-\d$", part):
            parts.append(part)
            continue
        for pattern, message in _PART_FORMS:
            hit = pattern.match(part)
            if hit:
                parts.append(_(message, **hit.groupdict()) if hit.groupdict() else _(message))
                break
        else:
            parts.append(part)
    return " + ".join(parts)


def training_layout(layout: dict[str, Any], count: int, f: Speaker) -> str:
    """A training layout in words: "TP 4 × PP 2 × DP 4, micro-batch 1, 16 accumulation steps
    (262,144 tokens per step), ZeRO-1, gradient checkpointing"."""
    _, ngettext = f._, f.ngettext

    def n(key: str, default: int = 1) -> int:
        v = layout.get(key, default)
        return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else default

    split = []
    for key, name in (("tp", "TP"), ("pp", "PP"), ("ep", "EP"), ("cp", "CP"), ("dp", "DP")):
        v = n(key)
        if v > 1:
            split.append(_("PP %(n)s (%(v)s virtual stages each)", n=v, v=n("interleave"))
                         if key == "pp" and n("interleave") > 1 else f"{name} {v}")
    parts = [" × ".join(split) if split else (_("one GPU") if count == 1 else _("no split"))]
    if "micro_batch" in layout:
        parts.append(_("micro-batch %(n)s", n=n("micro_batch")))
    tokens = layout.get("global_batch_tokens")
    if "grad_accum" in layout and isinstance(tokens, (int, float)) and tokens > 0:
        parts.append(ngettext("%(n)s accumulation step (%(tokens)s tokens per optimizer step)",
                              "%(n)s accumulation steps (%(tokens)s tokens per optimizer step)", n("grad_accum"),
                              tokens=format(round(tokens), ",")))
    elif "grad_accum" in layout:
        parts.append(ngettext("%(n)s accumulation step", "%(n)s accumulation steps", n("grad_accum")))
    if n("zero", 0):
        parts.append(f"ZeRO-{n('zero', 0)}")
    if layout.get("checkpointing"):
        parts.append(_("gradient checkpointing"))
    offload = str(layout.get("offload") or "none")
    if offload != "none":
        parts.append(_("%(target)s offload", target=offload.upper()))
    return f.sep.join(parts)


def serving_layout(layout: dict[str, Any] | None, label: str, f: Speaker) -> str:
    """A serving layout in words: "1 copy of TP 8" or "4 copies of TP 2"."""
    _, ngettext = f._, f.ngettext
    if not isinstance(layout, dict):
        return strategy(label, None, f)

    def n(key: str) -> int:
        v = layout.get(key, 1)
        return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 1

    split = [f"{name} {n(key)}" for key, name in (("dp_attention", "DP-attention"), ("tp", "TP"), ("pp", "PP"),
                                                  ("ep", "EP")) if n(key) > 1]
    copy = " × ".join(split) if split else _("one GPU")
    return ngettext("%(n)s copy of %(copy)s", "%(n)s copies of %(copy)s", n("replicas"), copy=copy)


# ------------------------------------------------------------------------------- phrases
def phrase(parts: list[Any], f: Speaker) -> str:
    """A value an estimator worded as message ids and values (gpuwise/messages.py ``Phrase``: a
    link description), each part's catalog template translated and filled, after its separator."""
    out = []
    for sep, message_id, kw in parts:
        out.append({"; ": f.clause, ", ": f.sep}.get(sep, sep) + f.sentence(messages.template(message_id), kw))
    return "".join(out)


# ------------------------------------------------------------------------------ networks
# knowledge/runtime.yaml and prices.yaml: how nodes are networked, as a sentence names it
_NETWORK_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^one (?P<port>.+?) port per node$"), N_("one %(port)s port per node")),
    (re.compile(r"^one (?P<port>.+?) port per GPU$"), N_("one %(port)s port per GPU")),
    (re.compile(r"^one (?P<port>.+?) port per GPU \((?P<note>.+)\)$"), N_("one %(port)s port per GPU (%(note)s)")),
    (re.compile(r"^(?P<port>.+?), one port per GPU$"), N_("%(port)s, one port per GPU")),
    (re.compile(r"^(?P<port>.+?), one port per GPU \((?P<note>.+)\)$"), N_("%(port)s, one port per GPU (%(note)s)")),
)
_NETWORK_NOTES: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^rail-optimised$"), N_("rail-optimised")),
    (re.compile(r"^rail-optimised, as DGX/HGX reference designs$"), N_("rail-optimised, as DGX/HGX reference designs")),
    (re.compile(r"^(?P<system>DGX \w+): (?P<n>\d+) (?P<kind>\w+) ports$"), N_("%(system)s: %(n)s %(kind)s ports")),
)


def network(text: str, f: Speaker) -> str:
    """A network's description in the report's language; a description not recognised is quoted as
    written, a network's id left as it is."""
    plain = " ".join(str(text).split())
    for pattern, message in _NETWORK_FORMS:
        hit = pattern.match(plain)
        if hit:
            kw = hit.groupdict()
            if kw.get("note"):
                kw["note"] = next((f._(m, **h.groupdict()) for p, m in _NETWORK_NOTES if (h := p.match(kw["note"]))),
                                  kw["note"])
            return f._(message, **kw)
    return plain if f.sep == ", " or " " not in plain else f"“{plain}”"  # an id (ethernet-25) stays bare


# ------------------------------------------------------------------- framework reasons
_FRAMEWORK_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    # gpuwise/estimators/serving/support.py support(): why a framework cannot serve a precision on a GPU
    (re.compile(r"^(?P<fw>.+?) runs on (?P<vendors>[\w, ]+) GPUs, not (?P<vendor>\w+)$"),
     N_("%(fw)s runs on %(vendors)s GPUs, not %(vendor)s")),
    (re.compile(r"^(?P<fw>.+?) needs compute capability (?P<need>[\d.]+)\+; (?P<gpu>.+) has (?P<has>[\d.]+)$"),
     N_("%(fw)s needs compute capability %(need)s+; %(gpu)s has %(has)s")),
    (re.compile(r"^(?P<fw>.+?) cannot load (?P<precision>\w+) weights$"),
     N_("%(fw)s cannot load %(precision)s weights")),
    (re.compile(r"^(?P<fw>.+?) has no (?P<precision>\w+) kernels \((?P<kernel>.+)\) for (?P<vendor>\w+) GPUs$"),
     N_("%(fw)s has no %(precision)s kernels (%(kernel)s) for %(vendor)s GPUs")),
    (re.compile(r"^(?P<fw>.+?) (?P<precision>\w+) \((?P<kernel>.+)\) needs compute capability (?P<need>[\d.]+)\+; "
                r"(?P<gpu>.+) has (?P<has>[\d.]+)$"),
     N_("%(fw)s %(precision)s (%(kernel)s) needs compute capability %(need)s+; %(gpu)s has %(has)s")),
    (re.compile(r"^(?P<fw>.+?) (?P<precision>\w+) needs (?P<units>\w+) tensor cores; (?P<gpu>.+) has none$"),
     N_("%(fw)s %(precision)s needs %(units)s tensor cores; %(gpu)s has none")),
    (re.compile(r"^the framework runs this precision on this GPU$"),
     N_("the framework runs this precision on this GPU")),
    (re.compile(r"^the framework does not run on this GPU vendor$"),
     N_("the framework does not run on this GPU vendor")),
    (re.compile(r"^the GPU is older than the framework's CUDA build supports$"),
     N_("the GPU is older than the framework's CUDA build supports")),
    (re.compile(r"^the framework cannot load this precision$"), N_("the framework cannot load this precision")),
    (re.compile(r"^one model copy would span nodes and the framework runs on one machine only$"),
     N_("one model copy would span nodes and the framework runs on one machine only")),
)


def framework_reason(text: str, f: Speaker) -> str:
    """Why a framework cannot serve (gpuwise/estimators/serving/) in the report's language; a reason
    quoted from the knowledge base's serving.yaml stays as written."""
    plain = " ".join(str(text).split())
    for pattern, message in _FRAMEWORK_FORMS:
        hit = pattern.match(plain)
        if hit:
            return f._(message, **hit.groupdict()) if hit.groupdict() else f._(message)
    return f"“{plain}”" if f.sep != ", " else plain


# gpuwise/estimators/cost.py buy_plan(): why a count of a server-only GPU cannot be bought
_BUY_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(?P<gpu>.+?) is sold only as (?P<sizes>[\d or]+)-GPU baseboards in whole servers "
                r"\((?P<why>.+)\); (?P<count>\d+) cannot be bought: buy (?P<up>\d+)$"),
     N_("%(gpu)s is sold only as %(sizes)s-GPU baseboards in whole servers (%(why)s); %(count)s cannot be "
        "bought: buy %(up)s")),
)


def buy_unavailable(text: str, f: Speaker) -> str:
    """Why a count cannot be bought, in the report's language; the knowledge base's own reason in
    it is quoted."""
    plain = " ".join(str(text).split())
    for pattern, message in _BUY_FORMS:
        hit = pattern.match(plain)
        if hit:
            kw = hit.groupdict()
            if f.sep != ", ":
                kw["why"] = f"“{kw['why']}”"
                kw["sizes"] = kw["sizes"].replace(" or ", "/")  # "4/8 卡基板"
            return f._(message, **kw)
    return plain if f.sep == ", " or " " not in plain else f"“{plain}”"


# ------------------------------------------------------------------------- formula notes
# the notes the estimators put on a formula (gpuwise/estimators/memory.py, serving/, cost.py)
_NOTE_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^gradients are allocated as activations are freed$"),
     N_("gradients are allocated as activations are freed")),
    (re.compile(r"^(?P<n>\d+) B at the start of backward, below the step's peak$"),
     N_("%(n)s B at the start of backward, below the step's peak")),
    (re.compile(r"^(?P<n>\d+) B during prefill, with less KV cache$"),
     N_("%(n)s B during prefill, with less KV cache")),
    (re.compile(r"^(?P<n>\d+) B at the end of decode, below this peak$"),
     N_("%(n)s B at the end of decode, below this peak")),
    (re.compile(r"^(?P<bound>memory|compute)-bound linear layers$"), N_("%(bound)s-bound linear layers")),
    (re.compile(r"^MLA's compressed KV cache cannot be split by heads: every tensor-parallel rank holds it all$"),
     N_("MLA's compressed KV cache cannot be split by heads: every tensor-parallel rank holds it all")),
    (re.compile(r"^(?P<kv>\d+) KV heads over (?P<tp>\d+) GPUs: KV heads are replicated$"),
     N_("%(kv)s KV heads over %(tp)s GPUs: KV heads are replicated")),
    (re.compile(r"^availability and restart overhead are planning assumptions \(clouds.yaml spot\)$"),
     N_("availability and restart overhead are planning assumptions (clouds.yaml spot)")),
    (re.compile(r"^(?P<gpu>.+) is not sold new any more: priced used$"),
     N_("%(gpu)s is not sold new any more: priced used")),
    (re.compile(r"^(?P<unit>\d+)-GPU unit priced pro rata from the (?P<p>\d+)-GPU price$"),
     N_("%(unit)s-GPU unit priced pro rata from the %(p)s-GPU price")),
)
_BOUND = {"memory": N_("memory"), "compute": N_("compute")}


def term_note(text: str, f: Speaker) -> str:
    """A formula's note in the report's language, clause by clause; a serving step's note ends with
    the framework and its layout ("vLLM, tensor parallel 8"), worded as a layout."""
    out = []
    for chunk in " ".join(str(text).split()).split("; "):
        for pattern, message in _NOTE_FORMS:
            hit = pattern.match(chunk)
            if hit:
                kw = hit.groupdict()
                if "bound" in kw:
                    kw["bound"] = f._(_BOUND[kw["bound"]])
                out.append(f._(message, **kw))
                break
        else:
            fw = re.match(r"^(?P<fw>[^,]+), (?P<layout>.+)$", chunk)
            out.append(f"{fw.group('fw')}{f.sep}{strategy(fw.group('layout'), None, f)}" if fw else chunk)
    return f.clause.join(out)


VALUE_WORDS: dict[str, str] = {"strategy": "strategy", "link": "link", "network": "network", "layout": "strategy",
                               "framework_reason": "framework_reason", "china_rule": "quoted",
                               "buy_unavailable_reason": "buy_unavailable"}
"""Sentence values worded here, by key: which function words them."""

VALUE_TERMS: dict[str, dict[str, str]] = {
    # a sentence value that is one word of a closed vocabulary (the input schema's or the rule chain's)
    "acquisition": {"rent": N_("rent"), "buy": N_("buy"), "either": N_("rent or buy")},
    "condition": {"new": N_("new"), "used": N_("used"), "refurbished": N_("refurbished")},
    "offload": {"cpu": N_("CPU"), "nvme": N_("NVMe")},
    "hosting": {"office": N_("an office"), "colocation": N_("colocation"), "datacenter": N_("a data center")},
    "stage": {"memory": N_("memory"), "compute": N_("compute"), "interconnect": N_("interconnect"),
              "tco": N_("cost"), "decided": N_("decided")},
}


def value(key: str, v: Any, values: dict[str, Any], f: Speaker) -> Any:
    """A sentence's value in the report's language, where it is one of the phrases above."""
    terms = VALUE_TERMS.get(key)
    if terms is not None and isinstance(v, str) and v in terms:
        return f._(terms[v])
    how = VALUE_WORDS.get(key)
    if not isinstance(v, str) or how is None:
        return v
    if how == "link":  # worded by the estimator as message ids: no English is parsed back
        parts = values.get(f"{key}_phrases")
        return phrase(parts, f) if isinstance(parts, list) and parts else v
    if how == "framework_reason":
        return framework_reason(v, f)
    if how == "network":
        return network(v, f)
    if how == "buy_unavailable":
        return buy_unavailable(v, f)
    if how == "quoted":  # the knowledge base's own wording (an export rule), quoted in another language
        plain = " ".join(v.split())
        return plain if f.sep == ", " or " " not in plain else f"“{plain}”"  # an id (ethernet-25) stays bare
    count = values.get("count")
    return strategy(v, int(count) if isinstance(count, (int, float)) and not isinstance(count, bool) else None, f)
