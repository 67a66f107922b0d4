"""The questionnaire's Chinese uses the report's words (askreview59).

A Chinese session asked 'p95 首 token 时间（秒）' and '输入 token 数', then wrote a report that says 首词元时间 and
提示词词元: the questionnaire's texts (gpuwise/ask/questions.yaml) were never held to the catalog's table of
Chinese terms (gpuwise/render/locale/README.md, "Chinese terms": token -> 词元, latency -> 时延, prompt ->
提示词...). Every zh text of the questions, their help, choices, variants, messages and glossary entries is
checked here with the catalog's own checker (tests/test_zh_terms.py), and so is every zh text of the plan
questions (gpuwise/ask/plan_texts.yaml: '首 token 不超过 {ms} 毫秒' in the plan's summary).
"""

from __future__ import annotations

from gpuwise.ask.plan_ask import load_texts
from gpuwise.ask.questionnaire import load_questions

from .test_zh_terms import replaced_words

QN = load_questions()


def _zh_texts() -> list[tuple[str, str]]:
    out = [(f"messages.{k}", v["zh"]) for k, v in QN.messages.items()]
    out += [(f"glossary.{k}", t.text["zh"]) for k, t in QN.glossary.items()]
    for q in QN.questions:
        for name in ("label", "question", "help", "invalid"):
            text = getattr(q, name)
            if text is not None:
                out.append((f"{q.key}.{name}", text["zh"]))
        out += [(f"{q.key}.choices", c.title["zh"]) for c in q.choices]
        out += [(f"{q.key}.variants", t["zh"]) for _, texts in q.variants for t in texts.values()]
    return out


def test_every_chinese_text_of_the_questionnaire_uses_the_catalogs_terms() -> None:
    texts = _zh_texts()
    assert len(texts) > 200  # every question, choice and message is read
    bad = [(where, found, want) for where, text in texts for found, want in replaced_words(text)]
    assert bad == []


def test_the_plan_questions_chinese_too() -> None:
    texts = load_texts().texts
    assert len(texts) > 100
    bad = [(k, found) for k, t in texts.items() for found, _ in replaced_words(t["zh"])]
    assert bad == []


def test_the_labels_a_chinese_summary_shows_are_the_reports_words() -> None:
    by = {q.key: q for q in QN.questions}
    assert by["workload.p95_ttft_s"].label["zh"] == "p95 首词元时间（秒）"
    assert by["workload.p95_tpot_s"].label["zh"] == "p95 每输出词元时间（秒）"
    assert by["workload.prompt_tokens"].label["zh"] == "提示词词元数"
