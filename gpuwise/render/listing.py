"""``gpuwise gpus``, ``gpuwise rules`` and ``gpuwise explain``: the catalog and the rule base,
as text (Jinja2 templates under reports/templates/catalog/) or JSON.

Text is written in the language asked for (``--lang``): labels, headings and instructions come
from the translation catalog, as in the reports; rule titles, messages and fixes are catalog
messages too. A rule's rationale and example, a fact field's description and every source are
English text from the YAML or the code: a Chinese listing quotes them (“…”) and says so. Names,
ids, conditions and figures stay as written. JSON is the same in every language.
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Sequence
from typing import Any

from ..errors import UserError, either, escaped
from .fmt import (
    N_,
    SEVERITY_ONE,
    STEP_NAMES,
    TOPIC_LABELS,
    Currency,
    Fmt,
    currency_for,
    display_width,
    environment,
)
from .textfit import fit_table, fit_text, terminal_width

ACTION_LABELS = {"pass": N_("pass"), "finding": N_("finding"), "reject": N_("reject"),
                 "conclude": N_("conclude")}
"""A rule's action (``then.action``), as a Chinese listing names it; English shows the id."""
STAGE_LABELS = {**STEP_NAMES, "decided": N_("decided")}
FIELD_TYPES = {"text": N_("text"), "number": N_("number"), "integer": N_("integer"), "yes/no": N_("yes/no")}


_CODE = re.compile(r"`+([^`]+)`+")
"""Markdown code marks (`x` and ``x``), which plain text shows as they are."""


def _fit(text: str) -> str:
    """A text listing as a terminal shows it: without Markdown code marks, wrapped to its width."""
    return fit_text(_CODE.sub(r"\1", text), terminal_width())


def _env(lang: str) -> Any:
    return environment(lang)


def columns(cells: Sequence[str], widths: Sequence[int]) -> str:
    """One row of fixed-width columns: a positive width pads on the right, a negative one on the
    left (as ``%-16s`` and ``%6s``), by terminal columns (a Chinese character takes two); the last
    cell is not padded."""
    out = []
    for i, cell in enumerate(cells):
        cell = str(cell)
        if i == len(cells) - 1:
            out.append(cell)
            continue
        pad = " " * max(0, abs(widths[i]) - display_width(cell))
        out.append(cell + pad if widths[i] > 0 else pad + cell)
    return " ".join(out)


def row(cells: Sequence[str], widths: Sequence[int], tail: str = "", indent: str = "") -> str:
    """:func:`columns` as a terminal shows it: a row too wide for it wraps its last cell under that cell's column
    (under the second column where the last starts past half the width), so the columns stay aligned. review61:
    ``gpuwise rules`` wrapped such a row as a sentence, its spaces collapsed ('MEM-FITS-WITH-CHANGES        pass -
    Fits with what gpuwise would change' under 'MEM-FITS                     pass     -        Fits as requested');
    ``rules --facts`` likewise."""
    from .textfit import wrap

    width = terminal_width()
    line = indent + columns(cells, widths) + tail
    if display_width(_CODE.sub(r"\1", line)) <= width:
        return line
    head = indent + columns([*cells[:-1], ""], widths)
    hang = display_width(head)
    if hang > width // 2:
        hang = display_width(indent) + abs(widths[0]) + 1
    return "\n".join(wrap(str(cells[-1]) + tail, width, head, " " * hang))


def _num(v: float | None, unit: str = "") -> str:
    if v is None:
        return "-"
    text = f"{v:,.1f}" if v < 100 else f"{v:,.0f}"
    return text.replace(".0", "") if text.endswith(".0") else text + unit


def _street(kb: Any, g: Any, f: Fmt) -> str:
    """The dated street price per GPU (new), as prices.yaml gives it, in the listing's currency; marked ``*`` where
    it is a share of a whole system's price, its host included (review61: the H100 SXM's $39,625 is 317,000 / 8 for
    a whole HGX server, the H200's $29,500 a GPU's alone, and nothing said so)."""
    from ..estimators.cost import buy_plan, price_entry, street_price

    rate = kb.tco_value("usd_cny").value
    got = street_price(kb.prices, g, kb.tco, usd_cny=rate)
    if not got:
        return "-"
    amount = f"${got[0]:,.0f}" if f.cur.code == "USD" else f.money(got[0])
    entry = price_entry(kb.prices, g.id)
    plan = buy_plan(kb.prices, g, max(entry.units.sizes), kb.tco, usd_cny=rate)[0] if entry is not None else None
    whole = plan is not None and plan.host_usd == 0 and plan.sold_as in ("server", "workstation")
    return f"{amount} ({got[1][:7]}){'*' if whole else ''}"


def _sixteen(p: Any, f: Fmt) -> str:
    """The BF16 column: a part without bf16 units (V100, T4, P100) shows its FP16 peak as that, not as BF16
    (review55: 'BF16: 125' for a V100, whose bf16 the estimates emulate in fp32)."""
    if p.bf16 or not p.fp16:
        return _num(p.bf16)
    return f._("none (fp16 %(v)s)", v=_num(p.fp16))


GPU_RIGHT = (3, 5, 6, 7, 8)
"""The catalog's columns of figures (SMs, bandwidth, BF16, FP8, TDP), aligned right."""
#: The driver's memory, in the GiB a GPU's marketed GB stand for, below this share of it: said beside it
USABLE_SAID_BELOW = 0.98


def _memory(m: Any, f: Fmt) -> str:
    """A GPU's memory as marketed and, where the driver gives notably less (nvidia-smi's or rocm-smi's total in GiB,
    the unit a marketed GB stands for: ECC on a GDDR card, a part sold by its fitted stacks), what the driver reports
    (product65: the B300 listed as 270 GB, the figure NVIDIA's per-GPU table and MLPerf system names give for the
    288 GB its datasheets state; the driver has 275,040 MiB, 268.6 GiB)."""
    gib = m.smi_mib / 1024 if m.smi_mib else None
    if gib is None or gib >= USABLE_SAID_BELOW * m.gb:
        return f"{m.gb:g} GB {m.type}"
    # the driver's figure, not 'usable': recommend and audit call 95% of it usable ('45.9 GB usable of 48.3 GB' of an
    # L40S listed here as '45.0 GiB usable'), so the listing names it as they do, in their GB too (review64)
    return f._("%(gb)s GB %(type)s (the driver reports %(gib)s GiB, %(gb_driver)s GB)", gb=f"{m.gb:g}", type=m.type,
               gib=f"{gib:,.1f}", gb_driver=f"{m.smi_mib * 2**20 / 1e9:,.1f}")


GPU_HEADERS = (N_("id"), N_("arch"), N_("cc"), N_("SMs"), N_("memory"), N_("BW"), N_("BF16"), N_("FP8"), N_("TDP"),
               N_("link GB/s"), N_("price"))


def _currency_note(f: Fmt) -> str:
    """Where a listing shows yuan: the rate, its date and its source, as a report states them."""
    cur = f.cur
    if cur.code == "USD":
        return ""
    if cur.given:
        return f._("Amounts are in Chinese yuan at %(rate)s CNY per USD, the rate given for this report.",
                   rate=f"{cur.rate:g}")
    return f._("Amounts are in Chinese yuan at %(rate)s CNY per USD (as of %(date)s; source: %(source)s).",
               rate=f"{cur.rate:g}", date=cur.as_of or f.na(), source=" ".join(cur.source.split()))


def gpus(fmt: str = "text", *, knowledge: str | None = None, lang: str = "en", currency: str | None = None,
         fx_rate: float | None = None) -> str:
    """The GPU catalog; ``currency`` (USD or CNY, at ``fx_rate`` or the knowledge base's dated rate)
    is the street price's."""
    from ..knowledge import load

    kb = load(knowledge)
    if fmt == "json":
        return json.dumps({"gpus": [g.model_dump(mode="json") for g in kb.gpus.values()]}, indent=2) + "\n"
    code = currency or ("CNY" if fx_rate is not None else "USD")
    f = Fmt(lang, currency_for(code, fx_rate, knowledge) if code != "USD" or fx_rate is not None else Currency())
    rows = []
    for g in kb.gpus.values():
        p = g.peaks
        # SMs (NVIDIA) or compute units (AMD), gpus.yaml peaks.sms; '-' where not read (smcount66)
        cells = [g.id, g.architecture, g.compute_capability or g.isa or "-", str(p.sms) if p.sms else "-",
                 _memory(g.memory, f),
                 _num(g.memory.bandwidth_gb_s), _sixteen(p, f), _num(p.fp8), _num(g.power.tdp_w),
                 f"{g.link.kind} {g.link.bandwidth_gb_s:,g}", _street(kb, g, f)]
        rows.append(cells)
    lines = fit_table([f._(h) for h in GPU_HEADERS], rows, GPU_RIGHT, terminal_width(), whole=(0,))
    return _fit(_env(f.lang).get_template("catalog/gpus.txt.j2").render(
        lines=lines, n=len(rows), files=kb.files, currency_note=_currency_note(f),
        whole=any(r[-1].endswith("*") for r in rows)))


def _book(rules: str | None, knowledge: str | None) -> Any:
    from ..decide.rulebook import load
    from ..knowledge import load as load_kb

    return load(rules, {k: v.value for k, v in load_kb(knowledge).policy.items()})


def _value(v: Any, policy: dict[str, Any], f: Fmt | None = None) -> str:
    zh = f is not None and f.lang != "en"
    if isinstance(v, str) and v.startswith("$"):
        return v[1:]
    if isinstance(v, dict) and "policy" in v:
        if zh:
            return f._("policy %(name)s (= %(value)s)", name=v["policy"], value=policy.get(v["policy"], "?"))
        return f"policy {v['policy']} (= {policy.get(v['policy'], '?')})"
    if isinstance(v, dict) and "ref" in v:
        times = v.get("times", 1)
        x = "×" if zh else "x"
        return f"{v['ref']} {x} ({times})" if isinstance(times, str) else f"{v['ref']} {x} {times:g}"
    if isinstance(v, list):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return str(v).lower() if isinstance(v, bool) else str(v)


def _cond(c: list[Any], policy: dict[str, Any], f: Fmt | None = None) -> str:
    return f"{c[0]} {c[1]} {_value(c[2], policy, f)}"


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _policy_named(r: Any, policy: dict[str, Any]) -> dict[str, Any]:
    """The policy values a rule's conditions use, by name in the order they appear: a ``{policy: NAME}`` operand,
    and a name inside a ``times`` expression (MEM-TIGHT's ``(1 - memory_headroom_fraction) * (1 -
    memory_tight_fraction)``), which ``explain`` showed as a bare name (review61: how tight 'tight' is, 0.05 and
    0.03, was said nowhere on the screen)."""
    out: dict[str, Any] = {}
    for c in (*r.when, *r.any):
        v = c[2]
        if isinstance(v, dict) and "policy" in v:
            out.setdefault(v["policy"], policy.get(v["policy"]))
        elif isinstance(v, dict) and isinstance(v.get("times"), str):
            for name in _NAME.findall(v["times"]):
                if name in policy:
                    out.setdefault(name, policy[name])
    return out


def _rule_view(book: Any, rid: str) -> dict[str, Any]:
    """A rule as data: the JSON of ``rules`` and ``explain`` (the same in every language)."""
    r = book.rules[rid]
    return {
        "id": r.id, "title": r.title, "step": book.step_of[rid], "ruleset": book.ruleset_of[rid],
        "stage": book.stage(rid) or "", "fact": r.fact, "when": [_cond(c, book.policy) for c in r.when],
        "any": [_cond(c, book.policy) for c in r.any], "action": r.then.action,
        "severity": "blocker" if r.then.action == "reject" else r.then.severity, "topic": r.then.topic,
        "message": r.then.message, "fix": r.then.fix, "set": dict(r.then.set),
        "rationale": r.rationale, "source": r.source, "example": r.example,
        "origin": "house" if rid in book.house else "built-in", "file": book.origin[rid],
        "replaces": rid in book.replaced, "policy": _policy_named(r, book.policy),
    }


def _said(text: str, f: Fmt) -> str:
    """A rule's title, message or fix in the listing's language: the catalog's translation; a
    sentence the catalog does not have (a house rule's) is quoted as written."""
    if not text or f.lang == "en":
        return text
    got = f.tr.gettext(text)
    return got if got != text else f.cite(text)


def _label(labels: dict[str, str], value: str, f: Fmt) -> str:
    """An id as a Chinese listing names it (a step, an action, a topic); English shows the id."""
    return f._(labels[value]) if f.lang != "en" and value in labels else value


def _rule_text(book: Any, rid: str, f: Fmt) -> dict[str, Any]:
    """What the text templates show of a rule: the JSON view, with its words in the listing's language."""
    view = _rule_view(book, rid)
    r = book.rules[rid]
    return view | {
        "title": _said(view["title"], f), "message": _said(view["message"], f), "fix": _said(view["fix"], f),
        "step_label": _label(STEP_NAMES, view["step"], f), "stage_label": _label(STAGE_LABELS, view["stage"], f),
        "action_label": _label(ACTION_LABELS, view["action"], f),
        "severity_label": _label(SEVERITY_ONE, view["severity"], f) if view["severity"] else "",
        "topic_label": _label(TOPIC_LABELS, view["topic"], f),
        "when": [_cond(c, book.policy, f) for c in r.when], "any": [_cond(c, book.policy, f) for c in r.any],
        "rationale": _quoted(view["rationale"], f), "example": _quoted(view["example"], f),
        "source": _quoted(view["source"], f),
    }


def rules(fmt: str = "text", *, rules: str | None = None, knowledge: str | None = None, lang: str = "en") -> str:
    """The rule base (built-in, plus the house rules of ``rules``), by step."""
    book = _book(rules, knowledge)
    if fmt == "json":
        views = [_rule_view(book, rid) for rid in book.rules]
        return json.dumps({"rules": views, "house": {"added": sorted(book.house - set(book.replaced)),
                                                     "replaced": book.replaced}}, indent=2) + "\n"
    f = Fmt(lang)
    views = [_rule_text(book, rid, f) for rid in book.rules]
    return _fit(_env(f.lang).get_template("catalog/rules.txt.j2").render(
        rules=views, house=sorted(book.house), replaced=book.replaced, row=row))


def _visible(text: str) -> str:
    """An id as typed, every character that is not a printable ASCII one escaped: the one-line error
    turned ``"MEM\\nFITS"`` into 'MEM FITS' (an id with a space, which the user never typed), and a
    Cyrillic 'М' looked like the Latin one it is not."""
    return escaped(text, lambda c: " " <= c <= "~")


_RULE_ID = re.compile(r"[A-Z]+-[A-Z0-9-]*[A-Z0-9]")


def _rule_named(typed: str, ids: Any) -> str:
    """The rule id ``typed`` names: as typed (case and the spaces around it aside), else the one id it holds once an
    underscore is read as a dash -- as a report shows it, '[MEM-FITS]', 'MEM-NO-FIT (blocker)', 'MEM-NO-FIT:', or
    written 'MEM_FITS' (hostile round 47: each was refused with the id offered). A look-alike dash ('MEM\u2010FITS')
    is never read as one: it is refused, the id offered."""
    rid = typed.strip().upper()
    if rid in ids:
        return rid
    named = {m for m in _RULE_ID.findall(rid.replace("_", "-")) if m in ids}
    return named.pop() if len(named) == 1 else rid


def _topic_rules(typed: str, book: Any) -> list[str]:
    """The rules a topic names instead of one id -- a rule file's name ('memory', 'serving', 'power' for
    power-cooling.yaml), a finding's topic ('cost') or an id's first part ('SRV', 'mem') -- in their files' order;
    [] where it names none. 'explain memory' offered USED-MEMORY-HOT, and 'explain serving' USED-THROTTLING (hostile
    round 49)."""
    from pathlib import Path

    word = typed.strip().lower()
    if not word or len(word) > 64:
        return []
    named = [rid for rid, rule in book.rules.items()
             if rid.split("-")[0].lower() == word or str(rule.then.topic).lower() == word
             or word in (stem := Path(book.origin.get(rid, "")).stem.lower(), *stem.split("-"))]
    # else a word of the ids ('ram', 'offload', 'price'): review65, 'explain ram' was told to read the whole list,
    # though seven ids hold RAM, and 'explain price' offered TCO-PRICED-USED only
    return named or [rid for rid in book.rules if word.upper() in rid.split("-")[1:]]


def explain(rule_id: str, fmt: str = "text", *, rules: str | None = None, knowledge: str | None = None,
            lang: str = "en") -> str:
    book = _book(rules, knowledge)
    rid = _rule_named(rule_id, book.rules)
    topic = _topic_rules(rule_id, book) if rid not in book.rules else []
    if len(topic) > 1:
        raise UserError(N_("'%(topic)s' names %(n)s rules, not one"),
                        values={"topic": _visible(rule_id), "n": len(topic)},
                        hint=N_("give one rule id, such as %(names)s; `gpuwise rules` lists them all"),
                        hint_values={"names": ", ".join(topic[:6])})
    if rid not in book.rules:
        close = topic or difflib.get_close_matches(rid, list(book.rules), n=3, cutoff=0.5)
        raise UserError(N_("unknown rule '%(rule_id)s'"), values={"rule_id": _visible(rule_id)},
                        hint=N_("did you mean %(names)s?") if close else N_("see `gpuwise rules` for the list"),
                        hint_values={"names": either(close)} if close else None)
    if fmt == "json":
        return json.dumps(_rule_view(book, rid), indent=2) + "\n"
    f = Fmt(lang)
    from ..knowledge import load as load_kb

    kb_policy = load_kb(knowledge).policy
    view = _rule_text(book, rid, f)
    # each value the conditions use, with its unit (policy.yaml's words: quoted in another language)
    policy_lines = [f"{name} = {value:g}" if isinstance(value, float) else f"{name} = {value}"
                    for name, value in view["policy"].items()]
    lp, rp = ("（", "）") if f.lang == "zh" else (" (", ")")
    policy_lines = [line + (f"{lp}{_quoted(kb_policy[name].unit, f)}{rp}" if name in kb_policy else "")
                    for line, name in zip(policy_lines, view["policy"], strict=True)]
    template = _env(f.lang).get_template("catalog/explain.txt.j2")
    text = template.render(r=view, policy_lines=policy_lines, br="   ")
    if display_width(text.split("\n")[1]) > terminal_width():  # the action, severity and topic on a line of their
        # own, their spaces kept (review61: wrapped, they read 'action: finding severity: warning')
        text = template.render(r=view, policy_lines=policy_lines, br="\n")
    return _fit(text)


def _field_type(text: str, f: Fmt) -> str:
    """A fact field's type as ``rules --facts`` shows it ("text: rent|buy", "yes/no")."""
    if f.lang == "en":
        return text
    head, sep, values = text.partition(": ")
    if not sep:
        return _label(FIELD_TYPES, head, f)
    return f._("%(type)s: %(values)s", type=_label(FIELD_TYPES, head, f), values=values)


def _quoted(text: str | None, f: Fmt) -> str:
    """English text from the YAML or the code (a rationale, a source): as written in English,
    quoted in another language."""
    return (text or "") if f.lang == "en" else f.cite(text or "")


def facts(fmt: str = "text", *, lang: str = "en") -> str:
    """The fact vocabulary: every fact type and field a rule may test (``gpuwise rules --facts``)."""
    from ..decide.facts import FACT_MODELS, STAGES, vocabulary

    vocab = vocabulary()
    if fmt == "json":
        return json.dumps({"stages": list(STAGES), "facts": vocab}, indent=2) + "\n"
    f = Fmt(lang)
    docs = {name: _quoted(" ".join((m.__doc__ or "").split()), f) for name, m in FACT_MODELS.items()}
    widths = (22, 10, 0)
    lp, rp = ("（", "）") if f.lang == "zh" else (" (", ")")

    def set_by(stage: str | None) -> str:
        # outside an f-string: Python 3.12's tokenizer lets pybabel see a call inside one, 3.11's does not
        return lp + f._("from %(stage)s", stage=stage) + rp if stage else ""

    shown = {name: [{"line": row([fname, _field_type(str(x["type"]), f), _quoted(x["description"], f)], widths,
                                 set_by(x["set_by"]), "  ")}
                    for fname, x in fields.items()]
             for name, fields in vocab.items()}
    return _fit(_env(f.lang).get_template("catalog/facts.txt.j2").render(facts=shown, docs=docs, stages=STAGES))
