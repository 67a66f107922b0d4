"""Values an estimator words (a link description) travel as message ids with values: the English
text is filled from reports/messages.yaml, and a report in another language translates each part
through the catalog, from the result object or from its JSON. No English is parsed back."""

from __future__ import annotations

import json
import re

import pytest

import gpuwise
from gpuwise import messages
from gpuwise.estimators import interconnect as I
from gpuwise.render import words
from gpuwise.render.fmt import Fmt
from gpuwise.results import RecommendResult

from .conftest import ROOT


@pytest.mark.parametrize("gpu, count, english", [
    ("h100-80gb-sxm", 1, "single GPU"),
    # NVLink 4 through NVSwitch: 900 GB/s per GPU, both directions (H100 SXM datasheet)
    ("h100-80gb-sxm", 8, "nvswitch 900 GB/s per GPU (both directions)"),
    ("h100-80gb-sxm", 16, "nvswitch 900 GB/s per GPU (both directions); 2 nodes over infiniband-400"),
    # GeForce: PCIe 4.0 x16 (31.5 GB/s per direction), peer-to-peer disabled by the driver
    ("rtx-4090", 4, "PCIe gen4 x16 31.5 GB/s per direction, no peer-to-peer (via host)"),
])
def test_a_link_is_described_from_message_ids(kb, gpu, count, english):
    topo = I.topology(kb.gpus[gpu], count, kb.runtime, network="infiniband-400" if count > 8 else None)
    assert topo.description == english
    assert messages.phrase_text(topo.phrases) == english
    assert all(mid in messages.catalog() for _sep, mid, _values in topo.phrases)


def test_a_link_is_worded_in_chinese_from_its_parts_not_its_english():
    zh = Fmt("zh")
    parts = [["", "link.pcie", {"gen": "4", "bw": 31.5}], [", ", "link.no_p2p", {}],
             ["; ", "link.nodes", {"n": 2, "network": "ethernet-25"}]]
    worded = words.value("link", "anything: the English is not read", {"link_phrases": parts}, zh)
    assert worded == "PCIe 第 4 代 x16，每方向 31.5 GB/s，无点对点通信（经主机中转）；2 个节点之间为 ethernet-25"
    # without parts (a value no estimator worded) the text is shown as it came
    assert words.value("link", "as written", {}, zh) == "as written"


def test_a_finding_keeps_the_parts_through_json():
    """The parts ride in the finding's values beside the English, so a report re-rendered from the
    saved JSON words the link in Chinese too."""
    r = gpuwise.recommend(str(ROOT / "tests" / "rules" / "NET-NO-P2P" / "input.yaml"))
    f = next(f for f in r.findings if f.rule == "NET-NO-P2P")
    assert f.values["link"] == "PCIe gen4 x16 31.5 GB/s per direction, no peer-to-peer (via host)"
    assert [p[1] for p in f.values["link_phrases"]] == ["link.pcie", "link.no_p2p"]
    again = RecommendResult.model_validate(json.loads(r.model_dump_json()))
    g = next(f for f in again.findings if f.rule == "NET-NO-P2P")
    zh = Fmt("zh").sentence(g.template, g.values)
    assert "每方向 31.5 GB/s，无点对点通信（经主机中转）" in zh and "per direction" not in zh


def _regex_patterns(path):
    """(line, pattern) of every regular expression written as a string in ``path``; an f-string
    pattern with each interpolated part as ``{}``."""
    import ast

    from . import sources

    for node in sources.walk(sources.tree(path)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "re"
                and node.func.attr in ("compile", "match", "fullmatch", "search", "sub", "findall", "split")
                and node.args):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            yield node.lineno, arg.value
        elif isinstance(arg, ast.JoinedStr):
            yield node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in arg.values)


ENGLISH_SHAPES = {
    "two English words": r"[A-Za-z]{2,} [a-z]{2,}",
    "a choice between words (rent|buy)": r"(?<![\\\w])[a-z]{3,}\|[a-z]{2,}",
    "our multiplication sign read back (8 x H100)": r"\[x×\]|\[×x\]",
    "a run of words, to tell English from other text": r"\[A-Za-z\][+*]? \[a-z\]",
}
"""Shapes of a pattern that reads English (ours or anyone's) to word it again."""

# the one pattern over English words left in render/: it trims the advice sentence off the exchange
# rate's source in knowledge/tco.yaml (the report gives its own advice, in its language)
KNOWN = {("views/base.py", r"\s*Refresh it\b[^.]*\.\s*$")}


def english_patterns(root):
    """(file, line, pattern, shape) of every pattern under ``root`` that reads English, but KNOWN."""
    import re

    return [(str(p.relative_to(root)), line, pattern, shape) for p in sorted(root.rglob("*.py"))
            for line, pattern in _regex_patterns(p)
            for shape, english in ENGLISH_SHAPES.items()
            if re.search(english, pattern) and (str(p.relative_to(root)), pattern) not in KNOWN]


def test_no_regular_expression_reads_english_back():
    """Issue 21: estimators and rules hand the report message ids with values; nothing in render/
    matches an English phrase to translate it, reads our own label ("8 x h100 (rent)") or subject
    ("16 x RTX 4090:") back, or guesses whether a text is English."""
    render = ROOT / "gpuwise" / "render"
    assert english_patterns(render) == []
    words_py = (render / "words.py").read_text(encoding="utf-8")
    for table in ("_FORMS", "_SPLIT", "_COPIES", "_NOTES", "term_note", "def network(", "def framework_reason("):
        assert table not in words_py, table


@pytest.mark.parametrize("source, shape", [
    ('re.match(r"^one (?P<port>.+?) port per node$", t)', "two English words"),
    # the three the last stop left (views/charts.py, fmt.py, views/base.py), each caught
    ('re.match(r"^(\\d+) [x×] (.+?) \\((rent|buy)\\)$", label)', "a choice between words (rent|buy)"),
    ('re.sub(rf"^\\s*{c.count}\\s*[x×]\\s*{name}\\s*[:：]\\s*", "", reason)',
     "our multiplication sign read back (8 x H100)"),
    ('re.search(r"[A-Za-z]+ [a-z]+ [a-z]+", v)', "a run of words, to tell English from other text"),
])
def test_the_check_catches_each_shape(tmp_path, source, shape):
    """The check can fail: each shape, written the way the deleted code wrote it, is caught."""
    (tmp_path / "m.py").write_text(f"import re\n\n\ndef f(t, label, reason, c, name, v):\n    return {source}\n")
    assert shape in [found[3] for found in english_patterns(tmp_path)]


# ---------------------------------------------------------------- framework reasons (serving/support.py)
def test_why_a_framework_cannot_serve_is_message_ids(kb):
    """vLLM's CUDA build needs compute capability 7.0 (knowledge/serving.yaml, vLLM's GPU installation
    page); the Tesla P100 is 6.0 (NVIDIA CUDA GPUs table)."""
    from gpuwise.estimators.serving.support import support

    sup = support(next(f for f in kb.serving.frameworks if f.id == "vllm"), kb.gpus["p100-16gb-pcie"], "bf16")
    assert [p[1] for p in sup.detail_phrases] == ["serve.gpu_cc"]
    assert sup.detail == "vLLM needs compute capability 7.0+; NVIDIA Tesla P100 PCIe 16GB has 6.0"
    parts = messages.phrase_json(sup.detail_phrases)
    zh = words.value("framework_reason", "not read", {"framework_reason_phrases": parts}, Fmt("zh"))
    assert zh == "vLLM 需要计算能力 7.0 以上；NVIDIA Tesla P100 PCIe 16GB 为 6.0"


# ---------------------------------------------------------------- buy reasons (cost.py buy_plan)
def test_why_a_count_cannot_be_bought_is_message_ids_with_the_knowledge_base_quoted(kb):
    """A100 SXM4 modules come on 4- or 8-GPU HGX baseboards (knowledge/prices.yaml units): one cannot
    be bought, four can. The knowledge base's reason rides as a quoted value, never parsed."""
    from gpuwise.estimators import cost as K

    plan, why = K.buy_plan(kb.prices, kb.gpus["a100-80gb-sxm"], 1, kb.tco)
    assert plan is None and why is not None
    assert messages.phrase_text(why) == (
        "NVIDIA A100 SXM4 80GB is sold only as 4 or 8-GPU baseboards in whole servers (A100 SXM4 modules run "
        "only on HGX A100 4- and 8-GPU baseboards; today they are bought as used whole servers); 1 cannot be "
        "bought: buy 4")
    parts = json.loads(json.dumps(messages.phrase_json(why)))  # as a finding's JSON carries it
    zh = words.value("buy_unavailable_reason", "not read", {"buy_unavailable_reason_phrases": parts}, Fmt("zh"))
    assert zh.startswith("NVIDIA A100 SXM4 80GB 只以 4/8 卡基板随整台服务器出售（“A100 SXM4 modules run only")
    assert zh.endswith("”）；买不到 1 块：需买 4 块")


# ---------------------------------------------------------------- how a GPU name was read (names.py)
def test_a_name_reading_is_an_assumption_with_a_message_id(kb):
    r = kb.gpu("A100-80G")
    assert r.id == "a100-80gb-sxm" and r.note_id == "name.module"
    assert r.note == ("'A100-80G' read as NVIDIA A100 SXM4 80GB (a100-80gb-sxm): a name without the form factor "
                      "means the SXM (or OAM) module; write 'NVIDIA A100 PCIe 80GB' for the PCIe card")
    res = gpuwise.recommend({"workload": {"task": "inference", "model": "llama-3.1-8b"},
                             "constraints": {"gpus": ["A100-80G"], "max_gpus": 1}})
    a = next(a for a in res.assumptions if a.field == "constraints.gpus[0]")
    assert a.message_id == "name.module" and a.reason == r.note
    zh = Fmt("zh").sentence(a.template, a.values)
    assert zh.startswith("“A100-80G”按 NVIDIA A100 SXM4 80GB（a100-80gb-sxm）理解")


# ---------------------------------------------------------------- layout changes (candidate.py Strategy.changes_from)
def test_what_gpuwise_changes_in_the_layout_is_message_ids():
    """MEM-NEEDS-CHANGES: 8B full fine-tuning on one H100 fits only with ZeRO-1 and the optimizer
    state offloaded to the CPU; the changes are change.* parts, worded in each language."""
    from gpuwise.estimators.candidate import Strategy

    parts = Strategy(False, 1, "cpu", tp=2).changes_from(Strategy(False, 0))
    assert [mid for _sep, mid, _kw in parts] == ["change.zero", "change.offload", "change.tp"]
    assert messages.phrase_text(parts) == "use ZeRO stage 1; offload optimizer state to cpu; tensor parallel 2"
    assert words.phrase(messages.phrase_json(parts), Fmt("zh")) == "使用 ZeRO-1；把优化器状态卸载到 cpu；张量并行 2"
    r = gpuwise.recommend(str(ROOT / "tests" / "rules" / "MEM-NEEDS-CHANGES" / "input.yaml"))
    c = next(c for c in r.candidates if c.strategy_changes)
    assert c.strategy_changes == ["use ZeRO stage 1", "offload optimizer state to cpu"]
    assert [p[1] for p in c.strategy_changes_phrases] == ["change.zero", "change.offload"]
    from gpuwise.render import report

    assert "使用 ZeRO-1；把优化器状态卸载到 cpu" in report.render(r, "text", lang="zh", detail="full", width=200)


# ---------------------------------------------------------------- chart points (decide/result.py _charts)
def test_a_chart_point_is_named_from_its_parts():
    """The time/cost points carry count, GPU and acquisition beside the English label; the audit's
    alternative is named "（租用）（替代方案）" in Chinese, not "(rent)（替代方案）"."""
    from gpuwise.render import report

    from .conftest import answer_of

    r = answer_of("audit", ROOT / "examples" / "proposal-good-lora-8xh100.yaml")
    point = next(p for p in r.charts.time_cost if p.chosen)
    assert point.label == f"{point.count} x {point.gpu} ({point.acquisition})"
    html = report.render(r, "html", lang="zh", detail="full")
    assert f"{point.count} × {point.gpu}（租用）（替代方案）" in html and "(rent)" not in html
    en = report.render(r, "html", lang="en", detail="full")
    assert f"{point.count} × {point.gpu} (rent) (the alternative)" in en


# ---------------------------------------------------------------- formulas (estimators: a Term's formula)
def test_a_formula_is_message_ids_with_operands():
    """A rental's formula: $/h x hours x (1 - long-rental discount). 100 h of an 8-GPU offer at
    $21.52/h with no discount is $2,152 (hand: 21.52 x 100). The English text comes from the
    template, the report words it in each language, and puts the inputs' numbers in its operands."""
    from gpuwise.estimators import Term
    from gpuwise.render.fmt import operand_number

    t = Term("rent_usd", 2152.0, "USD", messages.formula("formula.rent"),
             {"usd_per_hour": 21.52, "hours": 100.0, "discount": 0.0, "provider": "nebius"})
    assert t.formula == "$/h x hours x (1 - long-rental discount)"
    assert [p[1] for p in t.formula_phrases] == ["formula.rent"]
    parts = messages.phrase_json(t.formula_phrases)
    en, zh = Fmt("en"), Fmt("zh")
    assert words.formula_parts(parts, en) == "$/h × hours × (1 - long-rental discount)"
    assert words.formula_parts(parts, en, lambda n: operand_number(n, t.inputs, en.money_exact)) == \
        "$21.52/h × 100 h × (1 - 0%)"
    assert words.formula_parts(parts, zh) == "$/h × 小时数 × （1 - 长租折扣）"
    assert words.formula_parts(parts, zh, lambda n: operand_number(n, t.inputs, zh.money_exact)) == \
        "$21.52/h × 100 h × (1 - 0%)"


def test_every_formula_field_is_a_value_or_a_declared_operand():
    """A formula template's field is an operand (no format spec: it needs its word, operand.<field>,
    and its number is formatted by its input) or a constant the estimator always gives, written
    with a format spec ({layers:d}, {params_b:g}); the Chinese keeps every field and spec of the English."""
    catalog = messages.catalog()
    zh = Fmt("zh")
    formulas = {mid: t for mid, t in catalog.items() if mid.startswith("formula.")}
    assert len(formulas) >= 25
    for mid, t in formulas.items():
        for _literal, name, spec, _conversion in messages.template_parts(t):
            if name and not spec:
                assert f"operand.{name}" in catalog, (mid, name)
        fields = sorted((n, s) for _l, n, s, _c in messages.template_parts(t) if n)
        assert sorted((n, s) for _l, n, s, _c in messages.template_parts(zh._(t)) if n) == fields, mid



# ------------------------------------------------- the training-side estimators' formulas (issue 21)
def _memory_estimates(kb):
    """Memory estimates over the layouts memory.py words differently: each branch of the training
    model (torch-amp, torch-pure, DeepSpeed ZeRO 1-3 with CPU/NVMe offload, LoRA/QLoRA with a sharded
    or quantized base, model-parallel layouts), every optimizer, checkpointing, eager attention,
    chunked and cut loss; serving layouts (tensor, pipeline, attention data parallel); states only."""
    import dataclasses
    import itertools

    from gpuwise.estimators import memory as M
    from gpuwise.estimators import memory_serving as MS
    from gpuwise.inputs.shape import from_catalog

    rt = kb.runtime
    over = (rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value)
    dense, moe = from_catalog(kb.models["llama-3-70b"]), from_catalog(kb.models["mixtral-8x7b"])
    base = dict(precision="bf16", mixed=True, optimizer="adamw", batch=1, seq=4096, checkpointing=False,
                attention="sdpa", zero=0, offload="none", dp=8)
    setups = [dict(mixed=False), dict(precision="fp32", mixed=False, optimizer="sgd"), dict(optimizer="adamw-8bit"),
              dict(precision="fp32", mixed=False, zero=1),
              dict(optimizer="adafactor", zero=1), dict(optimizer="adamw-8bit", zero=2), dict(optimizer="sgd", zero=1),
              dict(zero=3, offload="cpu", checkpointing=True), dict(zero=2, offload="nvme", attention="eager"),
              dict(ce_chunks=4, checkpointing=True), dict(ce_cut=True), dict(offload="cpu"),
              dict(loss_bytes=6.0, checkpointing=True), dict(checkpointing=True, attention="eager")]
    setups += [dict(method=m, zero=z, base_format=b, checkpointing=c)
               for m, z, b, c in itertools.product(("lora", "qlora"), (0, 3), (None, "int8"), (False, True))]
    setups += [dict(method=m, zero=z, offload="cpu") for m in ("lora", "qlora") for z in (2, 3)]  # LoRA offloaded
    setups += [dict(tp=tp, pp=pp, ep=ep, cp=cp, zero=z, offload=o, method=m)
               for (tp, pp, ep, cp), z, o, m in itertools.product(
                   ((2, 1, 1, 1), (1, 2, 2, 2)), (0, 1, 2, 3), ("none", "cpu"), ("full", "lora"))]
    setups += [dict(tp=2, mixed=False)]  # model parallel in the training dtype: no 'mixed precision' in its label
    # a JAX memory-kind offload (the moments alone on the host, back on the GPU for the update): one GPU's layout
    # and a model-parallel one (jaxoffload66)
    setups += [dict(zero=3, offload="cpu", offload_state_only=True),
               dict(tp=2, zero=1, offload="cpu", offload_state_only=True)]
    # the busier pipeline stage's activations: the first (micro-batches in flight) or the last (the loss), with
    # checkpointing, block recomputation, eager scores, a QLoRA base's dequantized matrix, one unsplit GPU (TE)
    setups += [dict(tp=2, pp=2, checkpointing=True, attention="eager"),
               dict(tp=2, pp=2, inflight=2.0, checkpointing=True),
               dict(tp=2, pp=2, inflight=2.0, recompute=0.5, attention="eager"),
               dict(tp=2, pp=2, inflight=2.0, attention="eager"), dict(tp=2, method="qlora"), dict(te=True)]
    # per-op selective checkpointing: one GPU, and the first and last pipeline stage (ttrecipe49)
    setups += [dict(sac_op=True), dict(tp=2, pp=2, inflight=2.0, sac_op=True), dict(tp=2, pp=2, sac_op=True)]
    out = []
    for shape in (dense, moe):
        for extra in setups:
            s = M.TrainSetup(**{"method": "full", **base, **extra})
            out.append(M.training_memory(shape, s, quant=rt.quantization, overhead=over))
    # serving: sliding-window (Mistral 7B v0.1), MLA (DeepSeek-V3), hybrid (Qwen3-Next's recurrent state) and
    # global layers of their own width (Gemma 4 31B) and MLA with a sparse-attention indexer's key (DeepSeek-V3.2;
    # GLM-5's shape with the key on 21 layers only, as GLM-5.2's IndexShare keeps it) caches too; a prefill or a
    # decode peak
    shared = dataclasses.replace(from_catalog(kb.models["glm-5"]), index_layers=21)
    for shape in (dense, moe, from_catalog(kb.models["mistral-7b-v0.1"]), from_catalog(kb.models["deepseek-v3"]),
                  from_catalog(kb.models["qwen3-next-80b-a3b"]), from_catalog(kb.models["gemma-4-31b"]),
                  from_catalog(kb.models["deepseek-v3.2-exp"]), shared):
        for tp, pp, dpa, ep, attention in ((1, 1, 1, 1, "eager"), (8, 1, 1, 1, "sdpa"), (4, 2, 1, 1, "sdpa"),
                                           (1, 1, 8, 8, "sdpa"), (1, 2, 4, 4, "sdpa")):
            for concurrent, prompt, prefill in ((1, None, None), (64, 128, 2048.0)):
                out.append(MS.inference_memory(shape, "bf16", 32768, concurrent, attention, tp, quant=rt.quantization,
                                              overhead=over, pp=pp, ep=ep, dp_attention=dpa, prefill_tokens=prefill,
                                              prompt_tokens=prompt, fmt="int4" if tp == 8 else None))
    # attention data parallel over a 4-bit MoE: the format's mean bytes a parameter, worded from its weights
    out.append(MS.inference_memory(moe, "bf16", 8192, 8, "sdpa", 1, quant=rt.quantization, overhead=over, ep=8,
                                  dp_attention=8, fmt="int4"))
    for kv_bytes in (1.0, 4.0):  # an 8-bit and an fp32 KV cache
        out.append(MS.inference_memory(dense, "bf16", 8192, 8, "sdpa", 1, quant=rt.quantization, overhead=over,
                                      kv_bytes=kv_bytes))
    for tp in (1, 4):  # a KV pool the job states (workload.kv_cache_tokens), whole and split
        out.append(MS.inference_memory(dense, "bf16", 8192, 8, "sdpa", tp, quant=rt.quantization, overhead=over,
                                      pool_tokens=500_000))
    for method, training in (("full", True), ("lora", True), ("qlora", True), ("full", False)):
        out.append(MS.weights_only_memory(2.6e9, "bf16", training, overhead=over, method=method))
    # a format that quantizes a MoE's experts alone (llama.cpp's gpt-oss files, serving.yaml gguf-mxfp4)
    from gpuwise.estimators.serving.engine import quant_formats
    out.append(MS.inference_memory(from_catalog(kb.models["gpt-oss-20b"]), "fp4", 8192, 1, "sdpa", 1,
                                  quant=quant_formats(kb), overhead=over, fmt="gguf-mxfp4"))
    return out


def _english_formulas(terms) -> list[str]:
    """The terms whose formula is an English string (no message ids), or whose ids do not say it."""
    catalog = messages.catalog()
    bad = []
    for t in terms:
        parts = t.formula_phrases
        if not parts or messages.formula_text(parts) != t.formula:
            bad.append(f"{t.name}: {t.formula}")
            continue
        stack = list(parts)
        while stack:
            _sep, mid, values = stack.pop()
            assert mid.startswith("formula.") and mid in catalog, mid
            stack += [p for v in values.values() if messages.is_phrase(v) for p in v]
            for name in messages.placeholders(catalog[mid]):
                if name not in values:  # an operand: worded by operand.<name>, its number from the inputs
                    assert f"operand.{name}" in catalog, (mid, name)
    return bad


def test_memory_formulas_are_message_ids(kb, monkeypatch):
    """memory.py gives every formula (weights, gradients, optimizer moments, activations, KV cache,
    overhead, the ZeRO shards and offload, LoRA/QLoRA bases) as formula.* ids with values: every
    Term it builds, the ones a peak replaces included."""
    import re

    from gpuwise.estimators import Term

    terms: list[Term] = []
    built = Term.__post_init__

    def keep(self: Term) -> None:
        built(self)
        terms.append(self)

    monkeypatch.setattr(Term, "__post_init__", keep)
    _memory_estimates(kb)
    assert _english_formulas(terms) == []
    given, stack = set(), [p for t in terms for p in t.formula_phrases]
    stack += [p for t in terms for parts in t.input_phrases.values() for p in parts]  # a worded input
    while stack:
        _sep, mid, values = stack.pop()
        given.add(mid)
        stack += [p for v in values.values() if messages.is_phrase(v) for p in v]
    source = "".join((ROOT / "gpuwise" / "estimators" / f).read_text(encoding="utf-8")
                     for f in ("memory.py", "memory_lora.py", "memory_serving.py"))
    named = set(re.findall(r'"(formula\.[a-z0-9_]+)"', source)) | {f"formula.zero{n}_shards" for n in (1, 2, 3)}
    assert len(named) > 50 and named <= given, named - given  # every formula memory.py names was built here


def test_a_memory_layout_is_message_ids(kb):
    """The layout a memory estimate models ("data parallel, ZeRO-3 (bf16 + fp32 master weights)") is
    memory_layout.* ids with values, every one memory.py names, and worded in Chinese from them."""
    import re

    estimates = _memory_estimates(kb)
    assert [e.layout for e in estimates if messages.formula_text(e.layout_phrases) != e.layout] == []
    given = {mid for e in estimates for _sep, mid, _values in e.layout_phrases}
    source = "".join((ROOT / "gpuwise" / "estimators" / f).read_text(encoding="utf-8")
                     for f in ("memory.py", "memory_lora.py", "memory_serving.py"))
    named = set(re.findall(r'"(memory_layout\.[a-z0-9_]+)"', source))
    assert len(named) >= 12 and named <= given, named - given
    lora = next(e for e in estimates if e.layout == "qlora (frozen NF4 base sharded over 8 GPUs, fp32 adapters)")
    assert words.formula_parts(messages.phrase_json(lora.layout_phrases), Fmt("zh")) == \
        "qlora（冻结的 NF4 基座分片到 8 块 GPU，fp32 适配器）"


def test_the_check_catches_an_english_formula():
    """The check above fails on a Term written as an English sentence, as memory.py wrote them."""
    from gpuwise.estimators import Term

    assert _english_formulas([Term("weights", 1.4e11, "B", "params x 2 B (bf16)", {"params": 7e10})]) == \
        ["weights: params x 2 B (bf16)"]


def test_the_training_plan_terms_are_message_ids():
    """A training estimate's terms (step time, bubble, data-parallel traffic, goodput, steps, hours,
    the job's start-up, memory) are formula.* ids, through the result and its JSON; only the rental's
    money line (the ledger's) is still English."""
    from gpuwise.decide.estimate import estimate
    from gpuwise.results import EstimateResult

    e = estimate(str(ROOT / "examples" / "pretrain-7b.yaml"), gpu="h100", gpus=8)
    e = EstimateResult.model_validate_json(e.model_dump_json())
    assert e.gpu is not None
    terms = e.memory.terms + e.compute.terms + e.gpu.terms
    names = {t.name for t in terms}
    assert {"step_seconds", "pp_bubble_fraction", "dp_traffic_seconds", "goodput", "optimizer_steps",
            "wall_hours", "gpu_hours", "job_setup_hours", "weights", "activations", "optimizer"} <= names
    assert _english_formulas([t for t in terms if t.name != "rent_usd"]) == []


def test_a_kv_cache_formula_puts_its_numbers_in(kb):
    """Llama-3-70B's KV cache for 8,192 tokens: 2 x 80 layers x 8 KV heads x 128 x 2 B x 8,192 =
    2,684,354,560 B (hand calculation; the model card's 80 layers, 8 KV heads of 128). The formula
    is one message; the report puts the inputs' numbers in its operands, in both languages."""
    from gpuwise.estimators.memory_serving import kv_cache_bytes
    from gpuwise.inputs.shape import from_catalog
    from gpuwise.render.fmt import operand_number

    t = kv_cache_bytes(from_catalog(kb.models["llama-3-70b"]), 8192.0)
    assert t.value == 2 * 80 * 8 * 128 * 2 * 8192 == 2_684_354_560
    assert t.formula == "2 x layers x kv_heads x head_dim x bytes x tokens"
    parts = messages.phrase_json(t.formula_phrases)
    for lang in ("en", "zh"):
        f = Fmt(lang)
        assert words.formula_parts(parts, f, lambda n: operand_number(n, t.inputs)) == \
            "2 × 80 × 8 × 128 × 2 × 8,192"
    assert words.formula_parts(parts, Fmt("zh")) == "2 × 层数 × kv_heads × head_dim × 字节数 × 词元数"


# ------------------------------------------------- money lines, serving formulas, estimate's count choice
def test_money_lines_are_message_ids_with_operands(kb):
    """A rental's ledger: 10 h of a $21.52/h offer, 0.25 h of start-up (no discount under the
    clouds.yaml threshold): rent $215.20 (21.52 x 10), set-up $5.38 (21.52 x 0.25). Each line's formula
    is a formula.* id whose English is the JSON's "formula"; the report words it in Chinese."""
    from gpuwise import ledger as L
    from gpuwise.estimators import cost as K
    from gpuwise.estimators.offers import Offer

    offer = Offer(provider="nebius", instance="", gpus=8, usd_per_hour=21.52, spot_usd_per_hour=None,
                  as_of="2026-09-25", source="test", check="S")
    led = K.rent_ledger(offer, kb.clouds, run_hours=10.0, setup_hours=0.25, period=L.period("job", 10.25))
    rent, setup = led.lines
    assert rent.amount == pytest.approx(215.2) and setup.amount == pytest.approx(5.38)
    assert [p[1] for p in rent.formula_phrases] == ["formula.rent"]
    assert rent.formula == "$/h x hours x (1 - long-rental discount)"
    assert [p[1] for p in setup.formula_phrases] == ["formula.setup"]
    assert setup.formula == "$/h x set-up hours x (1 - long-rental discount)"
    zh = words.formula_parts(setup.formula_phrases, Fmt("zh"))
    assert "准备时间" in zh and "set-up" not in zh
    assert rent.item == "8 GPUs on nebius" and messages.phrase_text(rent.item_phrases) == rent.item
    assert words.said(rent.item_phrases, Fmt("zh")) == "nebius 上的 8 块 GPU"
    assert [p[1] for p in setup.item_phrases] == ["item.setup"]


def test_a_plan_line_and_a_serving_term_are_message_ids():
    """Every money line of a plan and a serving estimate's terms carry their formula as
    formula.* ids; their English is the text the JSON has kept all along."""
    from .conftest import answer_of

    p = answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml")
    assert p.lines and all(ln.formula_phrases for ln in p.lines)
    assert all(messages.formula_text(ln.formula_phrases) == ln.formula for ln in p.lines)
    power = next(ln for ln in p.lines if ln.kind == "power")
    assert power.formula == "GPU-hours × (TDP + host W) / 1000 × PUE × $/kWh"
    assert all(messages.phrase_text(ln.item_phrases) == ln.item for ln in p.lines)
    assert power.item_phrases[0][1] == "item.plan.power" and power.item_phrases[0][2]["workload"] in power.item
    from gpuwise.decide.estimate import estimate

    e = estimate(str(ROOT / "examples" / "inference-70b.yaml"), gpu="h100", gpus=8)
    terms = {t.name: t for t in e.gpu.terms}
    kv = terms["max_concurrent_sequences"]
    # vLLM's default gpu_memory_utilization 0.9 of the whole card, below gpuwise's 0.95 headroom, bounds the pool
    assert [p[1] for p in kv.formula_phrases] == ["formula.serving.kv_capacity_total"]
    en = words.formula_parts(kv.formula_phrases, Fmt("en"), lambda n: str(kv.inputs.get(n)))
    # each operand by its input's number, capacity and weights too (users49: they were words)
    assert en.startswith(f"{kv.inputs['replicas']} × floor((0.90 × {kv.inputs['capacity_per_gpu_bytes']} - "
                         f"{kv.inputs['weights_per_gpu_bytes']} - ")


def test_a_speculative_drafter_adds_its_words_as_message_ids(kb):
    """EAGLE-3 on Llama 3.1 8B: one dense decoder layer, a 3 x h x h fusion and its own 32,000-row
    head (knowledge/serving.yaml speculative_methods.eagle3), added to the weights' formula as ids."""
    from gpuwise.estimators import serving as SV

    from .test_serving_draft import H100, job_of

    job = job_of(kb, speculative={"method": "eagle3"}, model="llama-3.1-8b", precision="bf16")
    s = SV.choose(job, kb.gpus[H100], 1)
    m = SV.memory_of(job, s.engine.fw, s.layout)
    ids = [p[1] for p in m.weights.formula_phrases[-3:]] if m.weights.formula_phrases else []
    text = m.weights.formula
    assert "; + eagle3 drafter: 1 dense decoder layer (" in text and "x h x h projection" in text
    if ids:  # the memory estimator's own formula given as ids too
        assert ids[0].startswith("formula.drafter.")
    assert [p[1] for p in m.kv_cache.formula_phrases[-1:]] in ([], ["formula.drafter.kv"])
    assert m.kv_cache.formula.endswith("; + the eagle3 drafter's KV cache")


def test_estimate_says_why_it_chose_the_count_as_a_message():
    """estimate --gpu h100 without --gpus: the fewest GPUs that fit and meet the deadline, said as
    assume.gpus.* with its values (the Chinese report words it from the catalog)."""
    from gpuwise.decide.estimate import estimate
    from gpuwise.render import report

    e = estimate(str(ROOT / "examples" / "pretrain-7b.yaml"), gpu="h100")
    a = next(a for a in e.assumptions if a.field == "--gpus")
    assert a.message_id == "assume.gpus.within_deadline"
    assert a.values["count"] == a.value == e.gpu.count
    assert a.values["days"] <= a.values["deadline"]
    assert a.reason == (f"no --gpus: the fewest GPUs whose layout fits and finishes within the deadline "
                        f"({a.values['deadline']:g} days): {a.values['days']:.1f} days on {a.value}")
    zh = report.render(e, "text", kind="estimate", lang="zh")
    assert "未给出 --gpus" in zh and "no --gpus" not in zh


def test_an_input_gpuwise_words_is_said_from_its_ids(kb):
    """Full fine-tuning with checkpointing counts 6 + 2 = 8 FLOPs per parameter and token (forward 2,
    backward 4, the recomputed forward 2: Narayanan et al. 2021); the term's input says so from ids."""
    from gpuwise.estimators import compute as C
    from gpuwise.inputs.shape import from_catalog

    t = C.training_flops(from_catalog(kb.models["llama-3-70b"]), 1e9, 4096, "full", True)
    assert t.inputs["multiplier"] == 8
    assert t.inputs["multiplier_is"] == "6 (forward 2 + backward 4) + 2 (checkpointing recomputes the forward)"
    assert t.inputs["attention_formula"] == "8 x layers x seq x hidden (causal)"
    zh = Fmt("zh")
    assert words.said(messages.phrase_json(t.input_phrases["multiplier_is"]), zh) == \
        "6（前向 2 + 反向 4） + 2（梯度检查点重算前向）"
    assert "因果" in words.said(messages.phrase_json(t.input_phrases["attention_formula"]), zh)


# ------------------------------------------ no English read back: the renderer's word table is gone
def _formulas_and_items(x, out):
    """Every formula-bearing record (a term, a ledger or plan line, a cost per million tokens) and
    every money line of a result's JSON."""
    if isinstance(x, dict):
        if isinstance(x.get("formula"), str) or (isinstance(x.get("item"), str) and "amount" in x):
            out.append(x)
        for v in x.values():
            _formulas_and_items(v, out)
    elif isinstance(x, list):
        for v in x:
            _formulas_and_items(v, out)
    return out


def test_no_english_formula_or_item_reaches_a_report():
    """The shipped examples' answers (recommendations, an audit, a plan, estimates) carry every
    formula, money-line item and worded input as message ids whose English is the JSON's text, and
    their Chinese reports show none of those English formulas: the renderer has no table of English
    words to translate back."""
    from gpuwise.decide.estimate import estimate
    from gpuwise.render import plan_view, report

    from .conftest import answer_of

    assert not hasattr(words, "FORMULA_WORDS") and not hasattr(words, "formula")
    ex = ROOT / "examples"
    answers = [("recommend", answer_of("recommend", ex / "inference-70b.yaml")),
               ("recommend", answer_of("recommend", ex / "pretrain-7b.yaml")),
               ("audit", answer_of("audit", ex / "proposal-spot-h100-pretrain.yaml")),
               ("plan", answer_of("plan", ex / "plan-team-4090.yaml")),
               ("estimate", estimate(str(ex / "lora-70b.yaml"), gpu="h100", gpus=8)),
               ("estimate", estimate(str(ex / "inference-8b-int4.yaml"), gpu="4090", gpus=2))]
    seen = 0
    for kind, r in answers:
        records = _formulas_and_items(r.model_dump(mode="json"), [])
        assert records, kind
        for d in records:
            if d.get("formula"):
                assert d.get("formula_phrases"), (kind, d["formula"])
                assert messages.formula_text(d["formula_phrases"]) == d["formula"], (kind, d["formula"])
            if "item" in d and "formula" in d:  # a ledger or plan line
                assert d.get("item_phrases"), (kind, d["item"])
            for key, parts in (d.get("input_phrases") or {}).items():
                assert messages.phrase_text(parts) == d["inputs"][key], (kind, key)
        zh = (plan_view.render(r, "text", lang="zh", detail="full") if kind == "plan" else
              report.render(r, "text", kind=kind, lang="zh", detail="full"))
        flat = " ".join(zh.split())
        for d in records:
            english = d.get("formula") or ""
            if len(re.findall(r"[A-Za-z]{3,}", english)) >= 3:
                assert " ".join(english.split()) not in flat, (kind, english)
                seen += 1
    assert seen > 20


# ------------------------------------------------ a formula from an older JSON file (no ids beside it)
def test_a_formula_without_its_ids_is_shown_as_written():
    """A term from an older gpuwise's JSON carries its English formula and no ``formula_phrases``: the
    report shows it as written, no word translated and no number put in. Its English is not read for
    operands (the parser that did so put the node count in "then across nodes": "then across 4")."""
    from gpuwise.render import fmt, report
    from gpuwise.results import FormulaTerm

    from .fixtures_results import PARAMS, estimate_result

    assert not hasattr(fmt, "substitute") and not hasattr(fmt, "FORMULA_ALIASES")
    old = FormulaTerm(name="weights", value=4.3e9, unit="B", formula="params x 2 B / 32 GPUs (ZeRO-3)",
                      inputs={"params": PARAMS, "bytes_per_param": 2, "shards": 32})
    r = estimate_result()
    r = r.model_copy(update={"memory": r.memory.model_copy(update={"terms": [old]})})
    for lang in ("en", "zh"):
        out = report.render(r, "text", kind="estimate", lang=lang, detail="full", width=200)
        assert "params × 2 B / 32 GPUs (ZeRO-3)" in out and "69e9 × 2 B" not in out, lang
    new = estimate_result()  # the same term with its ids: the numbers go in
    assert "69e9 × 2 B / 32 GPUs (ZeRO-3)" in report.render(new, "text", kind="estimate", detail="full", width=200)


# ------------------------------------------------ notes on a memory estimate, the prices an answer rests on
def test_a_memory_note_is_message_ids(kb):
    """Offload asked for without ZeRO (zero_stage 0, offload cpu): plain PyTorch cannot offload, so
    memory.py models no offload and notes it, as note.offload_needs_zero; a Chinese report words it."""
    from gpuwise.estimators import memory as M
    from gpuwise.inputs.shape import from_catalog

    rt = kb.runtime
    s = M.TrainSetup(method="full", precision="bf16", mixed=True, optimizer="adamw", batch=1, seq=2048,
                     checkpointing=False, attention="sdpa", zero=0, offload="cpu", dp=1)
    e = M.training_memory(from_catalog(kb.models["llama-2-13b"]), s, quant=rt.quantization,
                          overhead=(rt.cuda_context_bytes.value, rt.allocator_overhead_fraction.value))
    assert e.host_bytes == 0 and e.offload_target == "none"
    assert [p[1] for p in e.note_phrases] == ["note.offload_needs_zero"]
    assert e.notes == ("offload needs DeepSpeed ZeRO (zero_stage >= 1); ignored with zero_stage 0",)
    parts = [messages.phrase_json((p,)) for p in e.note_phrases]
    assert words.notes(list(e.notes), parts, Fmt("en")) == list(e.notes)
    zh = words.notes(list(e.notes), parts, Fmt("zh"))
    assert "DeepSpeed ZeRO" in zh[0] and "ignored" not in zh[0]
    assert words.notes(["as  written"], [], Fmt("zh")) == ["as written"]  # an older result's note


def test_a_diffusion_models_note_reaches_estimate_as_ids():
    """SDXL's UNet (2.6B parameters, knowledge/models.yaml): only its states are modelled, and the
    estimate says its activations are not, from note.diffusion_activations, in both languages."""
    from gpuwise.decide.estimate import estimate
    from gpuwise.render import report

    e = estimate({"workload": {"task": "finetune", "method": "full", "model": "sdxl"}}, gpu="4090", gpus=1)
    assert e.memory.notes == ["activations of diffusion models are not modelled: treat the figure as a lower bound"]
    assert [[p[1] for p in parts] for parts in e.memory.notes_phrases] == [["note.diffusion_activations"]]
    zh = report.render(e, "text", kind="estimate", lang="zh", width=200)
    assert "扩散模型" in zh and "activations of diffusion" not in zh


def test_the_prices_an_answer_rests_on_are_typed_and_worded_from_ids():
    """A yuan purchase: the card's price, its host share and the USD->CNY rate, each a PriceUsed record
    whose item and unit are price.* ids; the JSON has each kind's own keys only, as before."""
    from gpuwise.results import PriceUsed, RecommendResult

    r = gpuwise.recommend({"workload": {"task": "inference", "model": "llama-3.1-70b"},
                           "constraints": {"currency": "CNY", "acquisition": "buy", "max_gpus": 8}})
    assert r.prices_used and all(isinstance(e, PriceUsed) for e in r.prices_used)
    by = {e.kind: e for e in r.prices_used}
    assert by["fx"].item == "USD to CNY exchange rate" and by["fx"].unit == "per USD"
    for e in r.prices_used:
        assert messages.phrase_text(e.item_phrases) == e.item and messages.phrase_text(e.unit_phrases) == e.unit
        assert all(mid.startswith("price.") for _s, mid, _v in e.item_phrases + e.unit_phrases)
    buy = by["buy"]
    assert buy.item == f"buy {buy.gpu} ({buy.condition}, {buy.item_phrases[0][2]['price_kind']})"
    dumped = json.loads(r.model_dump_json())["prices_used"]
    fx = next(d for d in dumped if d["kind"] == "fx")
    assert "gpu" not in fx and "condition" not in fx and "alternative" not in fx
    assert RecommendResult.model_validate_json(r.model_dump_json()).prices_used == r.prices_used


def test_the_audit_alternatives_prices_say_so_in_ids():
    r = gpuwise.audit(str(ROOT / "examples" / "proposal-used-3090-mining.yaml"))
    alt = [e for e in r.prices_used if e.alternative]
    assert alt and all(e.item.startswith("alternative: ") for e in alt)
    assert all(e.item_phrases[0][1] == "price.alternative" for e in alt)
    assert all(messages.phrase_text(e.item_phrases) == e.item for e in alt)


# ------------------------------------------ no new English sentence from an estimator, the plan or prices
KNOWN_ENGLISH: dict[str, set[str]] = {}
"""English still written in code, by file: none (issue 21); the list may only shrink."""

_PROSE = re.compile(r"[A-Za-z]{2,} [a-z]{2,}")
_NOT_SAID = {"N_", "_f", "Said", "UserError", "KnowledgeError", "RuleError", "ValueError", "TypeError", "KeyError",
             "AttributeError"}  # catalog templates, fact descriptions, errors (tests/test_error_lang.py)


def english_in_code(root):
    """{file: {text}} of the string literals and f-strings (each value as ``{}``) under ``root`` that
    read as English words, but docstrings, N_() templates, errors, fact and field descriptions; a
    header comment written to a file (prices/overlay.py's) is its first line."""
    import ast

    from . import sources

    found: dict[str, set[str]] = {}
    for path in sorted(root.rglob("*.py")):
        tree = sources.tree(path)
        skip: set[int] = set()
        for n in sources.walk(tree):
            body = getattr(n, "body", None)
            for st in body if isinstance(body, list) else []:
                if isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant):
                    skip.add(id(st.value))
            if isinstance(n, ast.Call):
                f = n.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                inside = [n] if name in _NOT_SAID else [k.value for k in n.keywords if k.arg in ("description", "hint")]
                skip.update(id(a) for x in inside for a in sources.walk(x))
            if isinstance(n, ast.JoinedStr):
                skip.update(id(v) for v in n.values)
        for n in sources.walk(tree):
            if id(n) in skip:
                continue
            if isinstance(n, ast.JoinedStr):
                text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in n.values)
            elif isinstance(n, ast.Constant) and isinstance(n.value, str):
                text = n.value
            else:
                continue
            if text.startswith("# "):
                text = text.split("\n")[0]
            if _PROSE.search(text):
                found.setdefault(str(path.relative_to(root)), set()).add(text)
    return found


def test_no_new_english_sentence_from_an_estimator_the_plan_or_prices():
    """Issue 21: estimators, the plan and the price modules say things as message ids with values
    (reports/messages.yaml), their English filled from the catalog. A new sentence written in code in
    these modules fails here; one of KNOWN_ENGLISH that is gone must leave the list."""
    root = ROOT / "gpuwise"
    found: dict[str, set[str]] = {}
    for package in ("estimators", "plan", "prices"):
        for rel, texts in english_in_code(root / package).items():
            found[f"{package}/{rel}"] = texts
    new = {f: sorted(t - KNOWN_ENGLISH.get(f, set())) for f, t in found.items() if t - KNOWN_ENGLISH.get(f, set())}
    assert new == {}, f"say these as message ids with values (reports/messages.yaml): {new}"
    gone = {f: sorted(t - found.get(f, set())) for f, t in KNOWN_ENGLISH.items() if t - found.get(f, set())}
    assert gone == {}, f"no longer in the code: remove them from KNOWN_ENGLISH: {gone}"


def test_the_english_check_catches_a_sentence(tmp_path):
    """The check can fail: an f-string reason, a constant note and a sentence in a tuple are caught;
    a docstring, an N_() template and a field's description are not."""
    (tmp_path / "m.py").write_text(
        'def f(n, N_, Field):\n    """Why a count fails."""\n    Field(description="GPUs the job uses")\n'
        '    N_("not enough memory")\n    notes = ("offload ignored without ZeRO",)\n'
        '    return f"misses the deadline on {n} GPUs", "no time estimate", notes\n')
    assert english_in_code(tmp_path) == {"m.py": {"misses the deadline on {} GPUs", "no time estimate",
                                                   "offload ignored without ZeRO"}}


# ------------------------------------------------ why the plan left a workload out (plan/why.py)
UNPLACEABLE = """\
horizon_months: 3
owned:
  - {gpu: RTX 4090, count: 4, servers: 1, hosting: office, bought: 2024-03, paid_usd: 7200}
workloads:
  - name: pretrain-70b
    workload: {task: pretrain, model: llama-3.1-70b, seq_len: 4096, train_tokens: 1.0e12}
    cadence: {at_month: 1}
    deadline_days: 1
constraints: {max_gpus: 8, acquisition: either}
"""


def test_why_a_workload_is_unplaced_is_message_ids(tmp_path):
    """Pretraining Llama 3.1 70B on 1e12 tokens within a day: 6 x 70.6e9 x 1e12 = 4.2e23 FLOPs, which
    8 H100s (8 x 989e12 FLOP/s dense BF16 at ~40% MFU: ~3.2e15 FLOP/s) need about four years for; no GPU type
    takes it on up to 8 GPUs. The reason, each GPU type's (plan.why.*) and the owned fleet's are ids
    with values, worded in Chinese; the binding constraints are sorted by the reasons' kind."""
    from gpuwise.plan import plan
    from gpuwise.render import plan_view

    (tmp_path / "p.yaml").write_text(UNPLACEABLE)
    r = plan(str(tmp_path / "p.yaml"))
    (u,) = r.unplaced
    assert u.workload == "pretrain-70b" and u.reason.startswith("no GPU type can run it: ")
    assert u.reason_phrases[0][1] == "plan.unplaced.no_type" and messages.phrase_text(u.reason_phrases) == u.reason
    inner = [p[1] for p in u.reason_phrases[0][2]["reasons"]]
    assert inner and set(inner) <= {"plan.why.memory", "plan.why.deadline", "plan.why.on_gpu"}
    w = next(w for w in r.workloads if w.name == "pretrain-70b")
    assert w.why_not and all(isinstance(t, str) for t in w.why_not.values())
    assert {b.kind for b in r.binding if b.subject == "pretrain-70b"} >= {"deadline"}
    owned = next(f for f in r.findings if f.rule == "PLAN-OWNED-CANNOT-RUN")
    assert [p[1] for p in owned.values["owned_reason_phrases"]] == ["plan.why.owned_gpu"]
    zh = " ".join(plan_view.render(r, "text", lang="zh", detail="full").split())
    assert "没有哪种 GPU 能运行它" in zh and "no GPU type" not in zh and "longer than" not in zh


# ------------------------------------------------ a price import's reasons and notes (prices/catalog_csv.py)
def test_an_import_words_its_reasons_in_the_report_language(tmp_path, kb):
    """A row priced -3 is left out, a 48 GB 'A100' is no catalog part (A100s come with 40 or 80 GB,
    NVIDIA's A100 datasheet), an 8-GPU 'A100' instance with 80 GB is the HGX (SXM) module: each
    reason and note is a catalog message, worded in Chinese from its template, not quoted English."""
    from gpuwise.prices import read_catalog
    from gpuwise.render.price_view import import_summary

    head = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags\n"
    rows = ["p4de,us-0,32.7,96,1152,8,A100,80,False,,nvidia,", "p4de,us-1,33.7,96,1152,8,A100,80,False,,nvidia,",
            "b1,us-0,-3,8,64,1,H100,80,False,,nvidia,", "b4,us-0,1.0,8,64,1,A100,48,False,,nvidia,"]
    (tmp_path / "aws.csv").write_text(head + "\n".join(rows) + "\n")
    rep = read_catalog(tmp_path / "aws.csv", kb, as_of="2026-11-01")
    assert [s.reason for s in rep.skipped] == ["price -3 is not positive",
                                               "GPU 'A100' with 48 GB is not in the catalog"]
    assert [str(n) for n in rep.offers[0].notes] == [
        "'A100' read as NVIDIA A100 SXM4 80GB: an 8-GPU cloud instance of this part is an HGX (SXM) server",
        "cheapest of 2 locations"]
    zh = import_summary(rep, None, "zh")
    assert "价格 -3 不是正数" in zh and "48 GB 的 GPU“A100”不在目录中" in zh and "2 个地区中最便宜的" in zh
    assert "not positive" not in zh and "cheapest" not in zh and "read as" not in zh
    assert rep.as_dict()["skipped"][0] == {"line": 4, "name": "b1", "reason": "price -3 is not positive"}


def test_an_import_of_one_row_says_row_not_rows(tmp_path, kb):
    """One row, one offer, one row it could not use (hostile round 44: '1 rows', 'could not use 1 rows'): the
    singular in English, the catalog's plural forms (one form in Chinese) for any count; two rows say 'rows'."""
    from gpuwise.prices import read_catalog
    from gpuwise.render.price_view import import_summary

    head = "instance_name,location,price,cpu,memory,gpu_count,gpu_name,gpu_memory,spot,disk_size,gpu_vendor,flags\n"
    (tmp_path / "one.csv").write_text(head + "b1,us-0,-3,8,64,1,H100,80,False,,nvidia,\n")
    rep = read_catalog(tmp_path / "one.csv", kb, as_of="2026-11-01")
    en = import_summary(rep, None, "en")
    assert "provider one, 1 row\n" in en and "could not use 1 row:" in en and "1 rows" not in en
    assert "共 1 行" in import_summary(rep, None, "zh") and "有 1 行无法使用：" in import_summary(rep, None, "zh")
    (tmp_path / "two.csv").write_text(head + "b1,us-0,2.0,8,64,1,H100,80,False,,nvidia,\n"
                                      "b2,us-0,-3,8,64,1,H100,80,False,,nvidia,\n")
    two = import_summary(read_catalog(tmp_path / "two.csv", kb, as_of="2026-11-01"), None, "en")
    assert ", 2 rows\n" in two and "imported 1 offer (" in two and "could not use 1 row:" in two


def test_a_rule_title_inside_a_plan_reason_is_the_catalog_title():
    """A plan reason naming the rule that ruled a GPU type out carries the rule's title as a part
    (rule.title), so a Chinese report shows the rule's translated title (MARKET-RESERVED-ONLY:
    "That size is rented only reserved", rules/market.yaml), not the English one."""
    from gpuwise.plan.why import why

    w = why("software", "plan.why.ruled_out", rule="MARKET-RESERVED-ONLY",
            title=[("", "rule.title", {"title": "That size is rented only reserved"})])
    assert w.text == "ruled out by MARKET-RESERVED-ONLY (That size is rented only reserved)"
    parts = json.loads(json.dumps(messages.phrase_json(w.parts)))
    zh = words.said(parts, Fmt("zh"))
    assert "该规模只能预留租用" in zh and "rented only" not in zh
    assert "该规模只能预留租用" in words.phrase(parts, Fmt("zh"))
