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


# ---------------------------------------------------------------- assumptions without a template
_ASSUMPTION_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    # gpuwise/knowledge/names.py: how a name that could mean several cards was read (docs/names.md)
    (re.compile(r"^'(?P<name>.+)' read as (?P<label>.+) \((?P<id>[\w.-]+)\): a name without the form factor "
                r"means the SXM \(or OAM\) module; write '(?P<other>.+)' for the PCIe card$"),
     N_("'%(name)s' read as %(label)s (%(id)s): a name without the form factor means the SXM (or OAM) module; "
        "write '%(other)s' for the PCIe card")),
    (re.compile(r"^'(?P<name>.+)' read as (?P<label>.+) \((?P<id>[\w.-]+)\), the default variant$"),
     N_("'%(name)s' read as %(label)s (%(id)s), the default variant")),
)


def assumption(text: str, f: Speaker) -> str:
    """An assumption worded without a template (how a GPU name was read), in the report's language;
    any other is shown as it came."""
    plain = " ".join(str(text).split())
    for pattern, message in _ASSUMPTION_FORMS:
        hit = pattern.match(plain)
        if hit:
            return f._(message, **hit.groupdict())
    return plain


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
                               "framework_reason": "framework_reason", "china_rule": "quoted", "owned_reason": "quoted",
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


# ------------------------------------------------------------------------------- formulas
# The words of the estimators' formulas (gpuwise/estimators/*.py: a Term's formula, and the same formula
# with the numbers put in). A formula's identifiers (``trainable_params``), units and numbers stay as
# written; its words are catalog messages, replaced longest first, whole words only.
FORMULA_WORDS: tuple[str, ...] = (
    # a plan's money lines (gpuwise/plan/build.py)
    N_("units"), N_("unit price"), N_("hardware, host share, network"), N_("hosting"),
    N_("billed kW"), N_("resale fraction"), N_("tco.yaml resale curve"), N_("hardware"), N_("host W"),
    N_("copies"), N_("for the copy's GPUs"), N_("hours a day"), N_("days"), N_("long-rental discount"),
    N_("runs"), N_("for the run's GPUs"), N_("wall hours"), N_("committed"), N_("every hour of the term"),
    N_("months of the term after the horizon"),
    N_("CUDA context and workspaces"),
    N_("CUDA context"),
    N_("allocator allowance"),
    N_("tensor bytes"),
    N_("prefill working set of one layer"),
    N_("decode working set"),
    N_("working set"),
    N_("training keeps no KV cache"),
    N_("inference keeps no gradients"),
    N_("inference keeps no optimizer state"),
    N_("wall hours"),
    N_("step time"),
    N_("train tokens"),
    N_("tokens per step"),
    N_("failures per GPU-hour"),
    N_("hours lost per failure"),
    N_("hours lost"),
    N_("whole-run efficiency"),
    N_("unit price"),
    N_("units"),
    N_("host share"),
    N_("IT kW"),
    N_("busy hours"),
    N_("GPU hardware"),
    N_("resale fraction after the project"),
    N_("server around the baseboard"),
    N_("estimate"),
    N_("billed kW"),
    N_("rent"),
    N_("whole servers"),
    N_("server price"),
    N_("cards are more than a 4-card workstation holds"),
    N_("PCIe GPU server(s) of up to 8"),
    N_("ports"),
    N_("switch ports"),
    N_("links"),
    N_("two-tier fat tree above the switch radix"),
    N_("links per endpoint"),
    N_("and"),
    N_("params"),
    N_("matmul params per token"),
    N_("quantized params"),
    N_("adapter params"),
    N_("frozen base params"),
    N_("frozen base"),
    N_("adapters"),
    N_("GPUs"),
    N_("tensor parallel"),
    N_("data-parallel GPUs"),
    N_("moments"),
    N_("at the step the foreach AdamW adds"),
    N_("two gathered layers"),
    N_("checkpointing"),
    N_("plus the larger of the logits"),
    N_("and one layer recomputed"),
    N_("forward"),
    N_("backward"),
    N_("activation gradients"),
    N_("frozen weights need no weight gradients"),
    N_("checkpointing recomputes the forward"),
    N_("causal"),
    N_("hardware"),
    N_("host"),
    N_("network"),
    N_("power"),
    N_("hosting"),
    N_("licences"),
    N_("resale"),
    N_("compute"),
    N_("optimizer"),
    N_("offload"),
    N_("sends"),
    N_("bubble"),
    N_("exposed DP"),
    N_("micro-batches"),
    N_("hours"),
    N_("set-up hours"),
    N_("long-rental discount"),
    N_("restart overhead"),
    N_("spot"),
    N_("months"),
    N_("internet egress by tier"),
    N_("after the free allowance"),
    N_("cross-region GB"),
    N_("storage GB"),
    N_("start-up and wind-down of the job, on every GPU"),
    N_("tokens"),
    N_("multiplier"),
    N_("layers"),
    N_("sequences"),
    N_("bytes"),
    N_("1 / TPOT at the load: one sequence's output speed (its prompt chunks sharing the steps)"),
    N_("sustained output tokens/s of all copies at the load (prefill sharing the GPUs)"),
    N_("prompt tokens / time to first token of one request alone"),
    N_("replicas"),
    N_("usable"),
    N_("weights"),
    N_("context"),
    N_("per GPU"),
    N_("KV per sequence per GPU"),
    N_("weight bytes"),
    N_("peak"),
    N_("KV bytes"),
    N_("attention FLOPs"),
    N_("all-reduces"),
    N_("overhead"),
    N_("step overhead"),
    N_("sequences per copy"),
    N_("cost per hour"),
    N_("output tokens/s"),
    N_("project cost"),
    N_("project months"),
    N_("embeddings"),
    N_("head"),
    N_("bits"),
    N_("NF4 base"),
    N_("16-bit embeddings/head"),
    N_("parameters on the busiest GPU"),
    N_("its stage's layers"),
    N_("experts"),
    N_("embedding or head"),
    N_("fp32 main gradients"),
    N_("shards the optimizer state and gradients over"),
    N_("shards the optimizer state over"),
    N_("gradients stream to"),
    N_("one bucket stays on the GPU"),
    N_("optimizer state offloaded to"),
    N_("the busier pipeline stage"),
    N_("micro-batches in flight"),
    N_("the layer inputs"),
    N_("the vocabulary-parallel loss on the last stage"),
    N_("ZeRO-3 parameter offload: two layers' weights resident"),
    N_("one dequantized weight matrix"),
    N_("the prompts' tokens at the end of prefill"),
    N_("frozen 16-bit base sharded over"),
    N_("frozen NF4 base sharded over"),
    N_("fp32 adapters"),
    N_("frozen NF4 base"),
    N_("master weights"),
    N_("inference"),
    N_("16-bit KV cache"),
    N_("model parallel"),
    N_("mixed precision"),
    N_("gradients"),
    N_("prefill"),
    N_("decode"),
    # data-parallel traffic (gpuwise/estimators/planner.py, _dp_term)
    N_("no data-parallel traffic"), N_("all-gather"), N_("reduce-scatter"), N_("all-reduce"), N_("each"),
    N_("over the slower link"), N_("hidden up to"), N_("overlap"), N_("once per step"),
)
_FORMULA_SORTED = sorted(set(FORMULA_WORDS), key=len, reverse=True)
_FORMULA_RE = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in _FORMULA_SORTED)) \
    if _FORMULA_SORTED else None


def formula(text: str, f: Speaker) -> str:
    """A formula in the report's language and currency: a price per unit ("$/h", "$/kWh") in the
    report's currency, its words through the catalog, its punctuation full-width beside Chinese."""
    cur = getattr(f, "cur", None)
    if cur is not None and getattr(cur, "code", "USD") != "USD":
        text = re.sub(r"\$/(?=[A-Za-z])", ("¥" if f.sep != ", " else "CN¥") + "/", text)
    if f.sep == ", " or _FORMULA_RE is None:
        return text
    return fullwidth(_FORMULA_RE.sub(lambda m: f._(m.group(0)), text))


_CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")
_PUNCT = {",": "，", ";": "；", ":": "："}


def fullwidth(text: str) -> str:
    """Chinese text's punctuation: a bracket pair around Chinese words, and a comma, semicolon or
    colon beside them, full-width; the brackets of a formula's arithmetic stay as they are."""
    chars = list(text)
    stack: list[int] = []
    for i, ch in enumerate(chars):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            j = stack.pop()
            inner = text[j + 1:i]
            if _CJK.search(inner[:1] + inner[-1:]) or (j > 0 and _CJK.match(text[j - 1])):
                chars[j], chars[i] = "（", "）"
    out = "".join(chars)
    out = re.sub(r"([,;:]) ?(?=[\u4e00-\u9fff])", lambda m: _PUNCT[m.group(1)], out)
    return re.sub(r"(?<=[\u4e00-\u9fff])([,;:]) ?", lambda m: _PUNCT[m.group(1)], out)


_PHASES = {"backward": N_("the backward pass"), "forward": N_("the forward pass"), "decode": N_("decode"),
           "prefill": N_("prefill"), "optimizer step": N_("the optimizer step")}


def phase(text: str, f: Speaker) -> str:
    """When memory peaks (gpuwise/estimators/memory.py ``peak_phase``), in the report's language."""
    return f._(_PHASES[text]) if text in _PHASES else formula(text, f)


def input_value(key: str, text: str, f: Speaker) -> str:
    """A formula input that is text: a source or a format description quoted as the knowledge base
    writes it; a phrase of the estimators worded like a formula."""
    if key == "source" or key.endswith("_source") or key == "format":
        return text if f.sep == ", " else f"“{text}”"
    return formula(text, f)
