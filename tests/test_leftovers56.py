"""leftovers56: the users' leftovers of session 40's note, each with the words or figures a user sees.

1. A service of a model whose only published weights are narrower than 16 bits is served at that checkpoint's
   precision when none is given (gpt-oss-120b: MXFP4 experts, 65.3 GB on one H100, where a 16-bit copy was priced,
   233.7 GB on four), the assumption naming the model card; training keeps bf16.
2. The questionnaire's p95 questions say 'At that rate' after a request rate and 'With that many requests at once'
   after a concurrency (they said 'At that rate' after either).
3. What a full-width input mode types at a prompt ('１３b', '４０９６') is read as its ASCII, in English and Chinese
   sessions; other scripts' digits and superscripts are still refused.
4. A 36-month plan over its budget every quarter (12 PLAN-BUDGET-OVER blockers) printed 91 lines on its brief
   screen: a rule's blockers are said once with their count, and it fits 80 lines with every blocker's rule named.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from gpuwise.ask.questionnaire import _Session, load_questions
from gpuwise.knowledge import load

QN = load_questions()
KB = load()
ROOT = Path(__file__).resolve().parent.parent

# ------------------------------------------------------------------------------------------- 1. precision

# gpt-oss-120b: 116,829,156,672 weights (knowledge/models.yaml, recomputed from config.json); its published
# checkpoint is 65.28 GB, MXFP4 experts and BF16 for the rest (huggingface.co/openai/gpt-oss-120b; model card
# arXiv:2508.10925: 60.8 GiB, fits one 80 GB GPU)
GPT_OSS_120B = 116_829_156_672


def _serve(model: str, gpus: int = 1, gpu: str = "h100", **w):
    from gpuwise import estimate

    return estimate({"workload": {"task": "inference", "model": model, **w}}, gpu=gpu, gpus=gpus)


def test_gpt_oss_with_no_precision_is_served_as_published_on_one_h100():
    r = _serve("gpt-oss-120b")
    [p] = [a for a in r.assumptions if a.field == "workload.precision"]
    assert p.message_id == "assume.default.workload.precision.published" and p.value == "fp4"
    assert p.values == {"model": "gpt-oss-120b", "checkpoint": "mxfp4", "precision": "fp4",
                        "card": KB.models["gpt-oss-120b"].checkpoint_card}
    assert "huggingface.co/openai/gpt-oss-120b" in p.values["card"]
    assert r.memory.breakdown["weights"] == pytest.approx(65.28e9, rel=0.005)  # the card's files
    assert r.memory.per_gpu_bytes < r.memory.usable_per_gpu_bytes  # one H100 holds it
    assert r.memory.breakdown == _serve("gpt-oss-120b", precision="fp4").memory.breakdown  # as if fp4 were given
    # precision bf16 stated: the 16-bit copy, 2 bytes a weight, and nothing assumed
    bf16 = _serve("gpt-oss-120b", precision="bf16")
    assert bf16.memory.breakdown["weights"] == GPT_OSS_120B * 2  # 233.66 GB
    assert [a for a in bf16.assumptions if a.field == "workload.precision"] == []


@pytest.mark.parametrize("model, checkpoint, precision", [
    ("deepseek-v3", "fp8", "fp8"), ("deepseek-r1", "fp8", "fp8"), ("Kimi K2", "fp8", "fp8"),
    ("Kimi K2 Thinking", "int4", "int4"), ("minimax-m2", "fp8", "fp8"), ("gpt-oss-20b", "mxfp4", "fp4")])
def test_each_quantized_release_is_served_at_its_precision(model, checkpoint, precision):
    r = _serve(model, gpus=8, gpu="h200")
    [p] = [a for a in r.assumptions if a.field == "workload.precision"]
    assert (p.value, p.values["checkpoint"], p.values["precision"]) == (precision, checkpoint, precision)
    assert p.values["card"].startswith("huggingface.co/")


def test_a_16_bit_release_and_training_keep_bf16():
    from gpuwise import estimate

    [lm] = [a for a in _serve("llama-3.1-8b").assumptions if a.field == "workload.precision"]
    assert lm.message_id == "assume.default.workload.precision" and lm.value == "bf16"
    # training computes in 16 bits whatever the files hold (docs/formats.md precision)
    t = estimate({"workload": {"task": "finetune", "method": "lora", "model": "gpt-oss-120b"}}, gpu="h100", gpus=8)
    [p] = [a for a in t.assumptions if a.field == "workload.precision"]
    assert p.message_id == "assume.default.workload.precision" and p.value == "bf16"


def test_the_note_reads_in_english_and_chinese():
    from gpuwise.messages import fill
    from gpuwise.render.fmt import translations

    [p] = [a for a in _serve("gpt-oss-120b").assumptions if a.field == "workload.precision"]
    assert p.reason.startswith("default: precision fp4, the weights as published: gpt-oss-120b's ship in mxfp4 "
                               "(huggingface.co/openai/gpt-oss-120b: MoE weights in MXFP4")
    assert p.reason.endswith("state precision bf16 to price a 16-bit copy of them instead")
    zh = fill(translations("zh").gettext(p.template), p.values)
    assert zh.startswith("默认：precision fp4，即按发布的权重部署：gpt-oss-120b 的权重以 mxfp4 发布")


def test_a_narrow_checkpoint_needs_its_card():
    from gpuwise.knowledge.schema.models import Model

    entry = {"id": "m", "name": "M", "params_b": 1.0, "layers": 2, "hidden_size": 64, "heads": 2, "kv_heads": 2,
             "ffn_size": 128, "vocab_size": 100, "source": "a test", "checkpoint_precision": "fp8"}
    with pytest.raises(ValueError, match="name the model card that states it in checkpoint_card"):
        Model.model_validate(entry)
    assert Model.model_validate({**entry, "checkpoint_card": "huggingface.co/x/m"}).checkpoint_card
    Model.model_validate({**entry, "checkpoint_precision": "bf16"})  # a 16-bit one needs none


def test_the_questionnaire_offers_the_published_precision(tmp_path):
    q = QN.by_key("workload.precision")
    for model, task, want in (("gpt-oss-120b", "inference", "fp4"), ("deepseek-v3", "inference", "fp8"),
                              ("llama-3.1-8b", "inference", "bf16"), ("gpt-oss-120b", "finetune", "bf16")):
        s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
        s.load({"workload": {"task": task, "model": model, **({"method": "lora"} if task == "finetune" else {})}})
        assert s.default(q) == want, (model, task)


def test_the_questionnaire_keeps_a_release_alias_and_its_precision(tmp_path):
    """'Kimi K2 Thinking' was saved as kimi-k2, whose files are FP8 (1.03 TB): the INT4 release it names (594 GB,
    models.yaml kimi-k2 alias_checkpoints) was lost. An alias of its own release is kept as typed; others are ids."""
    s = _Session(QN, KB, tmp_path / "a.yaml", lang="en", currency=None)
    q = QN.by_key("workload.model")
    assert s.validate(q, "Kimi K2 Thinking").value == "Kimi K2 Thinking"
    assert s.validate(q, "kimi k2").value == "kimi-k2" and s.validate(q, "gpt-oss:120b").value == "gpt-oss-120b"
    s.load({"workload": {"task": "inference", "model": "Kimi K2 Thinking"}})
    assert s.default(QN.by_key("workload.precision")) == "int4"


@pytest.mark.parametrize("pick, written", [("", None), ("\x1b[A" * 3, "bf16")])
def test_the_plan_questions_offer_the_published_precision(tmp_path, pick, written):
    """The plan's service of gpt-oss-120b: Enter at the precision takes fp4 as published (nothing written, the
    plan's job assumes it); bf16, three up from it, is written."""
    from tests.test_plan_ask import ENTER, FINETUNE, LIMITS, OWNED, PLAN, YES, drive, text

    service = [ENTER, text("gpt-oss-120b"), pick + ENTER, ENTER, ENTER, text("0.5"), ENTER, ENTER, text("10%"),
               ENTER, text("chat")]
    keys = [PLAN, text("6"), *OWNED, *service, YES, *FINETUNE, "n", *LIMITS, "\x1b[B" + ENTER]  # write and quit
    assert drive(keys, tmp_path / "p.yaml") == 0
    chat = yaml.safe_load((tmp_path / "p.yaml").read_text(encoding="utf-8"))["workloads"][0]["workload"]
    assert chat["model"] == "gpt-oss-120b" and chat.get("precision") == written


# ------------------------------------------------------------------------------------------- 2. p95 wording

@pytest.mark.parametrize("lang, rate, concurrency", [
    ("en", "At that rate, the longest wait for the first token",
     "With that many requests at once, the longest wait for the first token"),
    ("zh", "在该速率下，95% 的请求等到首个词元", "在该并发请求数下，95% 的请求等到首个词元")])
def test_the_p95_questions_name_the_load_given(tmp_path, lang, rate, concurrency):
    ttft, tpot = QN.by_key("workload.p95_ttft_s"), QN.by_key("workload.p95_tpot_s")
    s = _Session(QN, KB, tmp_path / "a.yaml", lang=lang, currency=None)
    s.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "requests_per_s": 5}})
    assert s.text(ttft, "question").startswith(rate)
    c = _Session(QN, KB, tmp_path / "b.yaml", lang=lang, currency=None)
    c.load({"workload": {"task": "inference", "model": "llama-3.1-8b", "concurrent_requests": 8}})
    assert c.text(ttft, "question").startswith(concurrency)
    assert c.text(tpot, "question").startswith(concurrency.split("，")[0] if lang == "zh" else
                                               "With that many requests at once, the longest gap")
    # the help says which rate the target holds at
    assert ("concurrent requests amount to" if lang == "en" else "并发请求数相当的请求速率") in c.text(ttft, "help")
    assert "At that rate" not in c.text(ttft, "question") + c.text(tpot, "question")


# ------------------------------------------------------------------------------------------- 3. full-width digits

def test_typed_form_folds_the_fullwidth_forms_only():
    from gpuwise.inputs.notation import typed_form

    assert typed_form("１３ｂ") == "13b" and typed_form("＄５００００") == "$50000"
    assert typed_form("２０２４－０３") == "2024-03" and typed_form("１０％") == "10%"
    assert typed_form("\u3000４０９６") == " 4096"
    for kept in ("10²", "①⑥", "٥٠٠", "५"):  # superscript, circled, Arabic-Indic, Devanagari: still refused
        assert typed_form(kept) == kept


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_ask_reads_fullwidth_digits_at_the_prompt(tmp_path, capsys, lang):
    """'１３b' at the model question and '４０９６' at the prompt-tokens one were refused ('write 13b'); a Chinese input
    method types them in its full-width mode. Read as 13b and 4096; '¹³b' (superscripts) is still no size."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from gpuwise.ask.questionnaire import run_ask

    tasks = [c.value for c in QN.by_key("workload.task").choices]
    up = "\x1b[A" * (tasks.index(QN.by_key("workload.task").default) - tasks.index("inference"))
    path = tmp_path / "answers.yaml"
    with create_pipe_input() as pipe:
        pipe.send_text(up + "\r" + "\u00b9\u00b3b\r" + "\uff11\uff13b\r" + "\uff14\uff10\uff19\uff16\r" + "\x03")
        pipe.close()
        rc = run_ask(str(path), None, lang=lang, currency=None, input=pipe, output=DummyOutput())
    out = capsys.readouterr().out
    assert rc == 130 and "U+FF1" not in out
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["workload"] == {
        "task": "inference", "params_b": 13.0, "prompt_tokens": 4096}


# ------------------------------------------------------------------------------------------- 4. the plan's blockers

def _plan36(rule=lambda q: "PLAN-BUDGET-OVER"):
    """The bundled team plan held to copies of 2 RTX 4090s over 36 months (its 12 months three times), over a $10,000
    budget every quarter. Held to copies of 2 it buys (TWO_A_COPY), so its own findings are three, besides the
    blockers: DATA-STALE-PRICE, PLAN-LATE-HARDWARE, PLAN-SERVING-OUTGROWS (the example itself, buying nothing on
    copies of 4 since plancopy57, has only the last)."""
    from tests.conftest import TWO_A_COPY, answer_of

    r = answer_of("plan", TWO_A_COPY)
    months = [x.model_copy(update={"month": x.month + 12 * k}) for k in range(3) for x in r.months]
    blockers = [r.findings[0].model_copy(update={
        "severity": "blocker", "rule": rule(q), "template": "", "fix": "Raise the budget.", "fix_template": "",
        "message": f"months {3 * q - 2}-{3 * q}: the plan spends ${29_587 + q:,} against a budget of $10,000"})
        for q in range(1, 13)]
    return r.model_copy(update={"months": months, "horizon_months": 36, "findings": [*blockers, *r.findings]})


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_rules_blockers_are_said_once_with_their_count(lang):
    from gpuwise.render import plan_view

    r = _plan36()
    text = plan_view.render(r, "text", width=80, lang=lang)
    assert len(text.rstrip("\n").split("\n")) <= 80, text  # was 91
    flat = " ".join(text.split())
    if lang == "en":
        assert "months 1-3: the plan spends $29,588 against a budget of $10,000 (PLAN-BUDGET-OVER)" in flat
    else:  # full-width (review53), and a line may break after the bracket
        assert "$10,000（PLAN-BUDGET-OVER）" in "".join(text.split())
    assert ("11 more PLAN-BUDGET-OVER blockers in the full report." if lang == "en" else
            "另有 11 个 PLAN-BUDGET-OVER 阻断问题见完整报告。") in flat
    full = plan_view.render(r, "text", width=80, detail="full", lang=lang)
    assert all(f"months {3 * q - 2}-{3 * q}:" in full for q in range(1, 13))  # the full report keeps each


def test_blockers_of_many_rules_are_named_each_with_none_hidden():
    from gpuwise.render import plan_view

    r = _plan36(lambda q: f"HOUSE-RULE-{q:02d}")
    text = plan_view.render(r, "text", width=80)
    assert len(text.rstrip("\n").split("\n")) <= 80, text
    flat = " ".join(text.split())
    shown = [q for q in range(1, 13) if f"(HOUSE-RULE-{q:02d})" in flat]
    assert shown == list(range(1, len(shown) + 1)) and len(shown) < 12  # the first in full
    assert f"{12 - len(shown)} more blockers in the full report: " + ", ".join(
        f"HOUSE-RULE-{q:02d}" for q in range(len(shown) + 1, 13)) + "." in flat
    for rule in ("DATA-STALE-PRICE", "PLAN-LATE-HARDWARE", "PLAN-SERVING-OUTGROWS"):  # the others still named
        assert rule in flat


def test_the_example_and_one_blocker_are_not_grouped():
    from gpuwise.render import plan_view
    from tests.conftest import answer_of

    r = answer_of("plan", ROOT / "examples" / "plan-team-4090.yaml")
    assert "blockers in the full report" not in plan_view.render(r, "text", width=80)
