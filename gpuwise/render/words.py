"""The values that reach a sentence as words of the estimators, worded in the report's language.

A rule's sentence is translated through the catalog, and so is every value in it the estimators
word: a link description, a layout label, a network, why a serving framework cannot run, why a
count cannot be bought, a formula's note. Each travels as message ids with values
(gpuwise/messages.py ``Phrase``: a fact's or result's ``<name>_phrases`` beside its English text)
and is worded here part by part from the catalog; nothing is parsed back from English. A value
without parts is shown as it came. Layout dicts (a training plan's ``layout``, a serving plan's
``layout``) are worded here too, and a formula's words (identifiers, units and numbers stay).

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
def strategy(label: str, count: int | None, f: Speaker, parts: Any = None) -> str:
    """A layout label in the report's language, from its parts (message ids and values: a
    candidate's ``strategy_phrases``); a label without parts is shown as it came."""
    if isinstance(parts, list) and parts:
        return phrase(parts, f, count)
    return " ".join(str(label).split())


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
def phrase(parts: list[Any], f: Speaker, count: int | None = None) -> str:
    """A value an estimator worded as message ids and values (gpuwise/messages.py ``Phrase``: a
    link description, a layout label, why a framework cannot serve...), each part's catalog template
    translated and filled, after its separator. A value that is a phrase itself rides beside its
    English text as ``<name>_phrases``, as a sentence's do. A report words two layout parts its own
    way: "plain data parallel" says what it is (one GPU, or data parallel over ``count`` GPUs), and
    copies of a layout are counted ("2 copies of (tensor parallel 4)")."""
    out = []
    for sep, message_id, kw in parts:
        sep = {"; ": f.clause, ", ": f.sep, " or ": " or " if f.sep == ", " else "/"}.get(sep, sep)
        if message_id == "layout.plain":
            out.append(sep + (f._("one GPU") if count == 1 else f._("data parallel over %(n)s GPUs", n=count)
                              if count else f._("data parallel")))
            continue
        if message_id == "layout.copies":
            out.append(sep + f._("%(n)s copies of (%(copy)s)", n=kw.get("n"), copy=phrase(kw.get("copy") or [], f)))
            continue
        nested = {k: v for k, v in kw.items() if messages.is_phrase(v)}
        kw = {**kw, **{k: messages.phrase_text(v) for k, v in nested.items()},
              **{f"{k}_phrases": v for k, v in nested.items()}}
        out.append(sep + f.sentence(messages.template(message_id), kw))
    return "".join(out)


VALUE_WORDS: dict[str, str] = {"strategy": "strategy", "link": "phrases", "network": "phrases", "layout": "strategy",
                               "framework_reason": "phrases", "china_rule": "quoted", "owned_reason": "quoted",
                               "buy_unavailable_reason": "phrases"}
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


def worded(key: str, v: Any, values: dict[str, Any]) -> bool:
    """Whether :func:`value` words ``v`` in the report's language: a closed-vocabulary term, a
    phrase with its parts (``<key>_phrases``), or the knowledge base's own wording it quotes; a
    value that came without its parts is shown as it came."""
    terms = VALUE_TERMS.get(key)
    parts = values.get(f"{key}_phrases")
    return ((terms is not None and isinstance(v, str) and v in terms)
            or (isinstance(parts, (list, tuple)) and bool(parts)) or VALUE_WORDS.get(key) == "quoted")


def value(key: str, v: Any, values: dict[str, Any], f: Speaker) -> Any:
    """A sentence's value in the report's language, where it is one of the phrases above."""
    terms = VALUE_TERMS.get(key)
    if terms is not None and isinstance(v, str) and v in terms:
        return f._(terms[v])
    parts = values.get(f"{key}_phrases")
    count = values.get("count")
    count = int(count) if isinstance(count, (int, float)) and not isinstance(count, bool) else None
    if isinstance(parts, (list, tuple)) and parts:  # worded by an estimator as message ids: nothing parsed back
        return phrase(list(parts), f, count)
    how = VALUE_WORDS.get(key)
    if not isinstance(v, str) or how is None or how == "phrases":
        return v
    if how == "quoted":  # the knowledge base's own wording (an export rule), quoted in another language
        plain = " ".join(v.split())
        return plain if f.sep == ", " or " " not in plain else f"“{plain}”"  # an id (ethernet-25) stays bare
    count = values.get("count")
    return strategy(v, int(count) if isinstance(count, (int, float)) and not isinstance(count, bool) else None, f)


# ------------------------------------------------------------------------------- formulas
# A formula an estimator gives as message ids (formula.*: compute, cost, interconnect) is worded by
# formula_parts above. The table below is for the formulas still written as English strings (the
# memory, planner and serving estimators', the plan's and the ledger's money lines, text inputs): a
# formula's identifiers (``trainable_params``), units and numbers stay as written; its words are
# catalog messages, replaced longest first, whole words only. It goes when those producers give ids.
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
_FORMULA_RE: re.Pattern[str] | None = None


def _formula_re() -> re.Pattern[str]:
    """The formula words, longest first, as one pattern: compiled on the first report in another
    language only (about 8 ms of every English run's start-up otherwise)."""
    global _FORMULA_RE
    if _FORMULA_RE is None:
        words = sorted(set(FORMULA_WORDS), key=len, reverse=True)
        _FORMULA_RE = re.compile("|".join(rf"(?<![\w-]){re.escape(w)}(?![\w-])" for w in words))
    return _FORMULA_RE


def formula_parts(parts: list[Any], f: Speaker, number: Any = None) -> str:
    """A formula an estimator gave as message ids with values (``formula_phrases``), in the report's
    language: each part's template translated and filled with its constants; an operand (a field
    without a value) is its word (``operand.<field>``, translated), or, given ``number`` (field ->
    the input's number as the report writes it, None for a field with no number), that number."""
    out = []
    for sep, message_id, values in parts:
        text = f._(messages.template(message_id))
        filled: dict[str, Any] = dict(values)
        for name in messages.placeholders(text):
            if name in values:
                continue
            shown = number(name) if number is not None else None
            filled[name] = shown if shown is not None else f._(messages.operand(name))
        out.append(sep + messages.fill(text, filled))
    return _local(times(" ".join("".join(out).split())), f)


def times(text: str) -> str:
    """One multiplication sign throughout: "8 x H100", "seq x seq" are written with ×."""
    return _TIMES.sub(" × ", text)


_TIMES = re.compile(r"(?<=[\w)]) x (?=[\w(])")


def _local(text: str, f: Speaker) -> str:
    """A formula's units in the report's currency ("$/h" -> "¥/h"), its punctuation full-width
    beside Chinese."""
    cur = getattr(f, "cur", None)
    if cur is not None and getattr(cur, "code", "USD") != "USD":
        text = re.sub(r"\$/(?=[A-Za-z])", ("¥" if f.sep != ", " else "CN¥") + "/", text)
    return text if f.sep == ", " else fullwidth(text)


def formula(text: str, f: Speaker) -> str:
    """A formula in the report's language and currency: a price per unit ("$/h", "$/kWh") in the
    report's currency, its words through the catalog, its punctuation full-width beside Chinese."""
    cur = getattr(f, "cur", None)
    if cur is not None and getattr(cur, "code", "USD") != "USD":
        text = re.sub(r"\$/(?=[A-Za-z])", ("¥" if f.sep != ", " else "CN¥") + "/", text)
    if f.sep == ", " or not FORMULA_WORDS:
        return text
    return fullwidth(_formula_re().sub(lambda m: f._(m.group(0)), text))


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


def said(parts: list[Any], f: Speaker) -> str:
    """A value gpuwise worded as message ids (a formula input such as a layout label or what a
    multiplier counts, a money line's item), each part's template translated and filled, a value
    that is a phrase itself worded first; as written otherwise (no sign or bracket changed in
    English, brackets full-width beside Chinese)."""
    out = []
    for sep, message_id, values in parts:
        filled = {k: said(v, f) if messages.is_phrase(v) else v for k, v in values.items()}
        out.append(sep + messages.fill(f._(messages.template(message_id)), filled))
    return "".join(out) if f.sep == ", " else fullwidth("".join(out))


def input_value(key: str, text: str, f: Speaker) -> str:
    """A formula input that is text: a source or a format description quoted as the knowledge base
    writes it; a phrase of the estimators worded like a formula."""
    if key == "source" or key.endswith("_source") or key == "format":
        return text if f.sep == ", " else f"“{text}”"
    return formula(text, f)
