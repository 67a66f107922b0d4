"""The values that reach a sentence as words of the estimators, worded in the report's language.

A rule's sentence is translated through the catalog, and so is every value in it the estimators
word: a link description, a layout label, a network, why a serving framework cannot run, why a
count cannot be bought, a formula's note. Each travels as message ids with values
(gpuwise/messages.py ``Phrase``: a fact's or result's ``<name>_phrases`` beside its English text)
and is worded here part by part from the catalog; nothing is parsed back from English. A value
without parts is shown as it came. Layouts (a training plan's ``layout``, a serving plan's
``layout``) are worded here too, and formulas given as message ids.

Nothing here computes a number: the figures in a phrase are carried over as written.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Protocol

from .. import messages

if TYPE_CHECKING:
    from ..results_serving import ServingLayout
    from ..results_training import TrainingLayout


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


def training_layout(layout: TrainingLayout, count: int, f: Speaker) -> str:
    """A training layout in words: "TP 4 × PP 2 × DP 4, micro-batch 1, 16 accumulation steps
    (262,144 tokens per step), ZeRO-1, gradient checkpointing"."""
    _, ngettext = f._, f.ngettext
    split = []  # the dense split, whose degrees multiply to the GPUs
    # the result's dp counts the context-parallel GPUs too (tp x pp x dp = GPUs): its replicas are dp / cp
    replicas = layout.dp // layout.cp if layout.cp > 1 else layout.dp
    for v, name in ((layout.tp, "TP"), (layout.pp, "PP"), (layout.cp, "CP"), (replicas, "DP")):
        if v > 1:
            split.append(_("PP %(n)s (%(v)s virtual stages each)", n=v, v=layout.interleave)
                         if name == "PP" and layout.interleave > 1 else f"{name} {v}")
    parts = [" × ".join(split) if split else (_("one GPU") if count == 1 else _("no split"))]
    if layout.ep > 1:  # the experts' split is carved out of those GPUs (TP1 PP1 DP16 EP4 is 16), said apart
        experts = [f"EP {layout.ep}"]
        etp = getattr(layout, "etp", None)
        if etp and etp != layout.tp:  # the experts split otherwise than the dense layers (ETP 1)
            experts.append(f"ETP {etp}")
        parts.append(_("experts: %(split)s", split=" × ".join(experts)))
    parts.append(_("micro-batch %(n)s", n=layout.micro_batch))
    tokens = layout.global_batch_tokens
    if tokens > 0:
        parts.append(ngettext("%(n)s accumulation step (%(tokens)s tokens per optimizer step)",
                              "%(n)s accumulation steps (%(tokens)s tokens per optimizer step)", layout.grad_accum,
                              tokens=format(round(tokens), ",")))
    else:
        parts.append(ngettext("%(n)s accumulation step", "%(n)s accumulation steps", layout.grad_accum))
    if layout.zero:  # a hybrid-sharded group is named as the layout's notation names it (ZeRO-3 HSDP8)
        parts.append(f"ZeRO-{layout.zero}" + (f" HSDP{layout.shard_group}" if 0 < layout.shard_group < layout.dp
                                              else ""))
    if layout.checkpointing:
        parts.append(_("gradient checkpointing"))
    if layout.offload != "none":
        parts.append(_("%(target)s offload", target=layout.offload.upper()))
    return f.sep.join(parts)


def serving_layout(layout: ServingLayout | None, label: str, f: Speaker) -> str:
    """A serving layout in words: "1 copy of TP 8" or "4 copies of TP 2"."""
    _, ngettext = f._, f.ngettext
    if layout is None:
        return strategy(label, None, f)
    split = [f"{name} {n}" for n, name in ((layout.dp_attention, "DP-attention"), (layout.tp, "TP"),
                                          (layout.pp, "PP")) if n > 1]  # multiplying to a copy's GPUs
    copy = " × ".join(split) if split else _("one GPU")
    if layout.ep > 1:  # the experts split over those GPUs, not more of them (TP 8 with EP 8 is 8 GPUs)
        copy = f.sep.join([copy, _("experts: %(split)s", split=f"EP {layout.ep}")])
    return ngettext("%(n)s copy of %(copy)s", "%(n)s copies of %(copy)s", layout.replicas, copy=copy)


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
        if message_id == "rule.title":  # a rule's title: the catalog has it (rules/*.yaml titles are msgids)
            out.append(sep + f._(str(kw.get("title", ""))))
            continue
        if message_id == "layout.plain":
            out.append(sep + (f._("one GPU") if count == 1 else f._("data parallel over %(n)s GPUs", n=count)
                              if count else f._("data parallel")))
            continue
        if message_id == "layout.copies":
            copy = list(kw.get("copy") or [])
            if [tuple(p)[1] for p in copy] == ["layout.one_gpu"]:  # nothing to group: no brackets, which a
                # sentence's own then nested ('as requested (8 copies of (one GPU))', review51)
                out.append(sep + f._("%(n)s copies of one GPU", n=kw.get("n")))
                continue
            out.append(sep + f._("%(n)s copies of (%(copy)s)", n=kw.get("n"), copy=phrase(copy, f)))
            continue
        nested = {k: v for k, v in kw.items() if messages.is_phrase(v)}
        kw = {**kw, **{k: messages.phrase_text(v) for k, v in nested.items()},
              **{f"{k}_phrases": v for k, v in nested.items()}}
        said = f.sentence(messages.template(message_id), kw)
        # a full-width bracket takes no space before it (review60: '$1.21 （假设的竞价单价...）')
        out.append(("" if sep == " " and said.startswith("（") else sep) + said)
    return "".join(out)


VALUE_WORDS: dict[str, str] = {"strategy": "strategy", "link": "phrases", "network": "phrases", "layout": "strategy",
                               "framework_reason": "phrases", "china_rule": "quoted", "owned_reason": "quoted",
                               "china_import_note": "quoted", "china_rule_source": "quoted", "kernel": "quoted",
                               "buy_unavailable_reason": "phrases", "rent_term_why": "phrases",
                               "method": "knowledge", "stack": "knowledge", "training_stack_name": "knowledge",
                               "framework": "knowledge", "framework_name": "knowledge", "fw": "knowledge"}
"""Sentence values worded here, by key: which function words them ('knowledge': a knowledge entry's display name,
a catalog message where gpuwise/render/i18n_extract.py KNOWLEDGE_NAMES lists its section, else as written)."""

VALUE_TERMS: dict[str, dict[str, str]] = {
    # a sentence value that is one word of a closed vocabulary (the input schema's or the rule chain's)
    "acquisition": {"rent": N_("rent"), "buy": N_("buy"), "either": N_("rent or buy")},
    # a proposal's own rate with no provider named is priced as provider 'proposal' (estimators/candidate.py)
    "provider": {"proposal": N_("the proposal's provider")},
    "china_import": {"allowed": N_("allowed"), "discouraged": N_("discouraged"), "blocked": N_("blocked")},
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
    if how == "knowledge":  # a speculative method's, a stack's or a framework's name: the catalog's words for it
        return f._(v) if v else v
    if how == "quoted":  # the knowledge base's own wording (an export rule), quoted in another language
        plain = " ".join(v.split())
        return plain if f.sep == ", " or " " not in plain else f"“{plain}”"  # an id (ethernet-25) stays bare
    count = values.get("count")
    return strategy(v, int(count) if isinstance(count, (int, float)) and not isinstance(count, bool) else None, f)


# ------------------------------------------------------------------------------- formulas
# Every formula an estimator writes is message ids with values (formula.*: a Term's and a ledger or
# plan line's ``formula_phrases``; a memory layout's memory_layout.*), worded by formula_parts below;
# an input gpuwise words comes with its ids too (a Term's ``input_phrases``, :func:`said`). No
# English is read back: a formula from a result without its parts is shown as written (:func:`plain`).
def formula_parts(parts: list[Any], f: Speaker, number: Any = None, named: dict[str, str] | None = None) -> str:
    """A formula an estimator gave as message ids with values (``formula_phrases``), in the report's
    language: each part's template translated and filled with its constants; an operand (a field
    without a value) is its word (``operand.<field>``, translated; ``named``: field -> the operand
    message id that names it here instead, as ``dp`` is "(dp × cp)" beside context parallelism), or,
    given ``number`` (field -> the input's number as the report writes it, None for a field with no
    number), that number."""
    return _local(times(" ".join(_formula_words(parts, f, number, named or {}).split())), f)


def _formula_words(parts: list[Any], f: Speaker, number: Any, named: dict[str, str]) -> str:
    """:func:`formula_parts` before spacing: a value that is a formula itself is worded the same way."""
    out = []
    for sep, message_id, values in parts:
        text = f._(messages.template(message_id))
        filled: dict[str, Any] = {k: _formula_words(v, f, number, named) if messages.is_phrase(v) else v
                                  for k, v in values.items()}
        for name in messages.placeholders(text):
            if name in values:
                continue
            shown = number(name) if number is not None else None
            filled[name] = shown if shown is not None else f._(messages.template(named[name]) if name in named
                                                              else messages.operand(name))
        # a part's separator in the report's punctuation: "; " and ", " full-width in Chinese (between two
        # ASCII operands fullwidth() leaves them as written: "/ 2 块 GPU; + 36")
        out.append({"; ": f.clause, ", ": f.sep}.get(sep, sep) + messages.fill(text, filled))
    return "".join(out)


def times(text: str) -> str:
    """One multiplication sign throughout: "8 x H100", "seq x seq" are written with ×."""
    return _TIMES.sub(" × ", text)


_TIMES = re.compile(r"(?<=[\w)）]) x (?=[\w(（$¥])")  # a translation's full-width brackets too; an amount ($800.00)


def _local(text: str, f: Speaker) -> str:
    """A formula's units in the report's currency ("$/h" -> "¥/h"), its punctuation full-width
    beside Chinese."""
    cur = getattr(f, "cur", None)
    if cur is not None and getattr(cur, "code", "USD") != "USD":
        text = re.sub(r"\$/(?=[A-Za-z])", ("¥" if f.sep != ", " else "CN¥") + "/", text)
    return text if f.sep == ", " else fullwidth(text)


def plain(text: str, f: Speaker) -> str:
    """A formula or a layout written as English text, from a result that came without its parts (a
    JSON file of an older gpuwise): shown as written, no word of it translated; one multiplication
    sign and the report's currency, as a worded formula has."""
    return _local(times(" ".join(text.split())), f)


def _chinese(text: str) -> bool:
    """Whether ``text`` holds a Chinese character or full-width punctuation (U+3000-303F,
    U+4E00-9FFF, U+FF00-FFEF); compared, not matched by a character class, whose compiling was
    3 ms of every process."""
    return any("\u3000" <= ch <= "\u303f" or "\u4e00" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" for ch in text)


_PUNCT = {",": "，", ";": "；", ":": "："}


def fullwidth(text: str) -> str:
    """Chinese text's punctuation: a bracket pair around Chinese words, and a comma, semicolon or
    colon beside them, full-width (no space between a word and such a bracket); the brackets of a
    formula's arithmetic stay as they are."""
    chars = list(text)
    stack: list[int] = []
    for i, ch in enumerate(chars):
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            j = stack.pop()
            inner = text[j + 1:i]
            if _chinese(inner[:1] + inner[-1:]) or (j > 0 and _chinese(text[j - 1])):
                chars[j], chars[i] = "（", "）"
                # a full-width bracket after a word takes no space before it, as the reports' own brackets
                # (review55: '显存布局：lora （冻结的 16 位基座...）'); after an operator it keeps it
                # ('× （1 - 长租折扣）')
                if j >= 2 and chars[j - 1] == " " and text[j - 2].isalnum():
                    chars[j - 1] = ""
    out = "".join(chars)
    out = re.sub(r"([,;:]) ?(?=[\u4e00-\u9fff])", lambda m: _PUNCT[m.group(1)], out)
    return re.sub(r"(?<=[\u4e00-\u9fff])([,;:]) ?", lambda m: _PUNCT[m.group(1)], out)


_PHASES = {"backward": N_("the backward pass"), "forward": N_("the forward pass"), "decode": N_("decode"),
           "prefill": N_("prefill"), "optimizer step": N_("the optimizer step")}


def phase(text: str, f: Speaker) -> str:
    """When memory peaks (gpuwise/estimators/memory_terms.py ``peak_phase``), in the report's language; a
    phase this report does not know is shown as written."""
    return f._(_PHASES[text]) if text in _PHASES else text


def peak_kind(text: str, f: Speaker) -> str:
    """The datasheet figure a job runs at (gpuwise/estimators/compute.py ``peak_for``: a peak.*
    message of reports/messages.yaml), in the report's language; another text is shown as written."""
    known = {t for mid, t in messages.catalog().items() if mid.startswith("peak.")}
    return f._(text) if text in known else text


def said(parts: list[Any], f: Speaker) -> str:
    """A value gpuwise worded as message ids (a formula input such as a layout label or what a
    multiplier counts, a money line's item), each part's template translated and filled, a value
    that is a phrase itself worded first; as written otherwise (no sign or bracket changed in
    English, brackets full-width beside Chinese)."""
    out = []
    for sep, message_id, values in parts:
        if message_id == "rule.title":  # a rule's title: the catalog has it (rules/*.yaml titles are msgids)
            out.append(sep + f._(str(values.get("title", ""))))
            continue
        filled = {k: said(v, f) if messages.is_phrase(v) else value(k, v, {}, f) if k == "provider" else v
                  for k, v in values.items()}
        # a duration in the report's words (a plan's unplaced deadline read '0.3 hours' in Chinese)
        out.append(sep + messages.fill(f._(messages.template(message_id)), filled, None, getattr(f, "days", None),
                                       getattr(f, "months", None)))
    return "".join(out) if f.sep == ", " else fullwidth("".join(out))


def notes(texts: list[str], parts: list[Any], f: Speaker) -> list[str]:
    """Notes on an estimate (a memory estimate's ``notes``) in the report's language, each from its
    message ids (``notes_phrases``: one phrase per note); as written when a result came without them."""
    if parts and len(parts) == len(texts):
        return [said(p, f) for p in parts]
    return [" ".join(n.split()) for n in texts]


def input_value(key: str, text: str, f: Speaker) -> str:
    """A formula input that is text and not worded by gpuwise (those come as ``input_phrases``): an id
    or a name as written (a provider, a precision, a date); a source quoted as the knowledge base writes it in a
    report in another language, and a format description too where the catalog has no words for it."""
    if key == "format" and f._(text) != text:  # a quantized format's description the catalog words (cents59)
        return f._(text)
    if key == "source" or key.endswith("_source") or key == "format":
        return text if f.sep == ", " else f"“{text}”"
    return text
