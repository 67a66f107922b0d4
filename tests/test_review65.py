"""review65: the questionnaire and the listing screens read as a new user, the plan read as its approver.

Each test fails on the code before its fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .test_questionnaire import CTRL_C, ENTER, drive, saved, text

# a fine-tune with every essential's default (task, method, model, tokens, deadline, budget, rent or buy,
# hosting), up to the advanced-settings question
ESSENTIALS = ENTER * 8


@pytest.mark.parametrize("lang, word", [("en", "y"), ("en", "yes"), ("en", "Y"), ("zh", "是")])
def test_a_typed_yes_and_its_enter_answer_the_yes_no_question_only(tmp_path: Path, lang: str, word: str,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """'y' then Enter (or 'yes' then Enter) at the advanced-settings question: the Enter is that answer's, not the
    next question's. Before, 'y' answered at once, so its Enter took the project length's default (6 months)
    unseen and the '3' typed for it went to the question after; 'yes' put 'es' in the project length."""
    _, path = drive(tmp_path, [ESSENTIALS, word + ENTER, text("3"), CTRL_C], lang=lang)
    data = saved(path)
    assert "advanced=yes" in path.read_text(encoding="utf-8")
    assert data["constraints"]["project_months"] == 3, data
    assert data["constraints"].get("value_of_a_day_usd") is None, data
    assert "'es'" not in capsys.readouterr().out  # no refusal of the rest of the word


def test_enter_alone_keeps_the_default_and_n_then_enter_says_no(tmp_path: Path) -> None:
    _, path = drive(tmp_path, [ESSENTIALS, "n" + ENTER, CTRL_C])
    assert "advanced=no" in path.read_text(encoding="utf-8")
    _, path = drive(tmp_path, [ESSENTIALS, ENTER, CTRL_C], answers=tmp_path / "b.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")  # the question's default
    # a change of mind before Enter: the last key typed is the answer
    _, path = drive(tmp_path, [ESSENTIALS, "yn" + ENTER, CTRL_C], answers=tmp_path / "c.yaml")
    assert "advanced=no" in path.read_text(encoding="utf-8")


# ------------------------------------------------------------------ the plan: a purchase's price dates
H200_PLAN = {
    "horizon_months": 36,
    "workloads": [{"name": "chat-70b",
                   "workload": {"task": "inference", "model": "llama-3.1-70b", "precision": "fp8",
                                "prompt_tokens": 2000, "output_tokens": 500},
                   "cadence": {"continuous": True, "start_month": 6}, "targets": {"requests_per_s": 6}}],
    "constraints": {"acquisition": "either", "hosting": "colocation", "gpus": ["H200 SXM 141GB"]},
}


def test_a_purchase_gives_the_date_of_the_host_its_amount_adds() -> None:
    """A 4-GPU H200 server bought for a service: its amount is the cards (prices.yaml, dated 2026-03-31) and the
    tco.yaml host share around them, $7,000 a GPU dated 2024-08-01 (1 x ($118,000 + 4 x $7,000) = $146,000 in the
    full report's money line). The Purchases table said 'Price as of 2026-03-31' only, and the host's date only
    in a DATA-STALE-PRICE warning elsewhere on the page."""
    from gpuwise.knowledge import load
    from gpuwise.plan.build import plan
    from gpuwise.render import plan_view

    kb = load()
    host = kb.tco.values["server_share_usd_per_gpu_sxm"]
    r = plan(H200_PLAN)
    (p,) = r.purchases
    assert p.gpu == "h200-141gb-sxm" and p.sold_as == "server"
    assert p.host_as_of == host.as_of.isoformat() == "2024-08-01"
    assert p.price_as_of and p.price_as_of != p.host_as_of
    for lang, said in (("en", f"{p.price_as_of}, host {p.host_as_of}"),
                       ("zh", f"{p.price_as_of}，主机 {p.host_as_of}")):
        text = plan_view.render(r, "text", width=200, lang=lang)
        purchases = text.split("===")[text.split("===").index(" Purchases " if lang == "en" else " 采购 ") + 1]
        assert said in purchases, purchases


# ------------------------------------------------------------------ the listings, read by a new user
def _listing(monkeypatch: pytest.MonkeyPatch, columns: int, *args: str) -> list[str]:
    from tests.clirun import gpuwise

    monkeypatch.setenv("COLUMNS", str(columns))
    r = gpuwise(*args)
    assert r.returncode == 0, r.stderr
    return r.stdout.splitlines()


@pytest.mark.parametrize("columns", [80, 100, 120, 140, 200])
def test_every_gpu_id_stands_whole_on_its_line(monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    """The id is what `--gpu` and a requirements file take. At 120 columns the table wrapped it at 14 characters,
    a text cell's floor: 'radeon-pro-w79' over '00', 'gaudi3-128gb-o' over 'am', 'v100s-pcie-32g' over 'b'."""
    from gpuwise.knowledge import load

    lines = _listing(monkeypatch, columns, "gpus")
    ids = list(load().gpus)
    assert max(len(i) for i in ids) > 14  # the case the floor cut (gaudi3-128gb-pcie, 17)
    for gid in ids:
        assert any(line == gid or line.startswith(gid + " ") for line in lines), (columns, gid)


@pytest.mark.parametrize("lang, order, header", [
    ("en", "in the order the steps run", ["rule", "action", "severity", "title"]),
    ("zh", "依步骤运行的先后排列", ["规则", "动作", "严重程度", "标题"])])
def test_the_rule_listing_labels_its_columns_and_says_its_order(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                 order: str, header: list[str]) -> None:
    """`gpuwise rules` began with '== memory ==' and rows such as 'MEM-FITS  pass  -  Fits as requested': no
    column was named, no action said what it does, nor the order (the steps', docs/rules.md Actions)."""
    lines = _listing(monkeypatch, 200, "rules", "--lang", lang)
    text = "\n".join(lines)
    assert order in lines[0]
    at = next(i for i, line in enumerate(lines) if line.split()[:4] == header)
    assert at < next(i for i, line in enumerate(lines) if line.startswith("== "))
    for action in (("pass", "reject", "finding", "conclude") if lang == "en" else ("通过", "否决", "发现", "结论")):
        assert f"{action}，" in text if lang == "zh" else f"{action}, " in text, action


@pytest.mark.parametrize("lang, words", [
    ("en", ["Oldest first", "V, read in the vendor's or provider's own document", "S, a secondary source",
            "U, unverified"]),
    ("zh", ["按日期从早到晚排列", "V，读自厂商或服务商本身的文件", "S，二手来源", "U，未核实"])])
def test_the_price_listing_says_its_order_and_its_check_letters(monkeypatch: pytest.MonkeyPatch, lang: str,
                                                                words: list[str]) -> None:
    """The chk column printed V, S or U (knowledge/schema/base.py Check) with no word of what they mean, and the
    rows came oldest first (prices/table.py sorts by as_of) unsaid."""
    lines = _listing(monkeypatch, 200, "prices", "--gpu", "rtx-4090", "--lang", lang)
    text = " ".join(" ".join(lines).split())
    for w in words:
        assert w in text, w
    dates = [line.split()[0] for line in lines if line[:4].isdigit()]
    assert dates == sorted(dates) and len(dates) >= 3


# ------------------------------------------------------------------ the questionnaire's choice lists
@pytest.mark.parametrize("typed, task", [("inference", "inference"), ("Inf", "inference"), ("pre", "pretrain"),
                                         ("f", "finetune"), ("xyz", "finetune")])
def test_a_word_typed_at_a_choice_list_picks_the_choice_it_begins(tmp_path: Path, typed: str, task: str) -> None:
    """The first question lists Inference, Fine-tuning (highlighted), Pretraining and a plan. Typing 'inference' and
    Enter answered Fine-tuning: the list ignored the letters. Now they move the pointer to the first choice they
    begin; letters that begin none leave it where it was."""
    _, path = drive(tmp_path, [typed + ENTER, CTRL_C])
    assert saved(path)["workload"]["task"] == task


def test_typing_picks_in_a_later_list_and_in_chinese(tmp_path: Path) -> None:
    """Rent or buy lists 'either: ...' (highlighted), 'rent' and 'buy'; in zh '比较：...', '租用' and '购买' (typed as
    an input method sends it, the title's first character)."""
    from gpuwise.ask.questionnaire import load_questions

    q = load_questions().by_key("constraints.acquisition")
    zh_buy = next(c.title["zh"] for c in q.choices if c.value == "buy")
    _, path = drive(tmp_path, [ENTER * 6, "buy" + ENTER, CTRL_C])
    assert saved(path)["constraints"]["acquisition"] == "buy"
    _, path = drive(tmp_path, [ENTER * 6, zh_buy[:1] + ENTER, CTRL_C], lang="zh", answers=tmp_path / "zh.yaml")
    assert saved(path)["constraints"]["acquisition"] == "buy", zh_buy


OWNED_A100_PLAN = {
    "horizon_months": 12,
    "owned": [{"gpu": "A100 SXM4 80GB", "count": 8, "servers": 1, "hosting": "colocation", "bought": "2023-06",
               "paid_usd": 120000}],
    "workloads": [
        {"name": "sft-8b", "workload": {"task": "finetune", "method": "full", "model": "llama-3.1-8b",
                                        "train_tokens": 5.0e8},
         "cadence": {"per_month": 1}, "deadline_days": 5},
        {"name": "chat-8b", "workload": {"task": "inference", "model": "llama-3.1-8b", "prompt_tokens": 1500,
                                         "output_tokens": 400},
         "cadence": {"continuous": True, "growth_per_month": 0.3}, "targets": {"requests_per_s": 4}}],
    "constraints": {"acquisition": "either", "hosting": "colocation"},
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_answers_rentals_add_up_to_the_rent_total_below_them(lang: str) -> None:
    """Owned A100s and a growing service: the plan rents RTX 4090s ($10,569.47) and an H100 NVL ($3,781.40); the
    cash flow's figures, each rounded on its own, add up, so they are shown as they are, with a Rent total of
    $14,351 (14,350.87). The Answer rounded its two lines on their own, $10,569 + $3,781 = $14,350: a dollar short
    of the total on the same page. As the table's controlled rounding does, the lines are now apportioned to the
    total by largest remainder: $10,570 (.47 the larger fraction) + $3,781."""
    import math
    import re

    from gpuwise.plan.build import plan
    from gpuwise.render import plan_view

    r = plan(OWNED_A100_PLAN)
    amounts = [x.amount for x in r.answer.rent]
    column = math.fsum(m.rent for m in r.months)
    assert len(amounts) >= 2 and abs(math.fsum(amounts) - column) < 0.01
    assert sum(round(a) for a in amounts) != round(column)  # the case: each rounded alone falls short
    text = plan_view.render(r, "text", width=200, lang=lang)
    answer = text.split("===")[2]
    rents = [line for line in answer.splitlines() if "GPU-hours" in line or "GPU 小时" in line]
    shown = [int(re.findall(r"\$([\d,]+)", line)[-1].replace(",", "")) for line in rents]
    assert len(shown) == len(amounts)
    assert sum(shown) == round(column)
    assert all(abs(s - a) < 1 for s, a in zip(shown, amounts, strict=True))  # each its own, rounded down or up


@pytest.mark.parametrize("word, expect", [
    ("ram", {"MEM-HOST-RAM-SHORT", "MEM-HOST-RAM-NEEDED", "PLAN-OWNED-HOST-RAM-SHORT"}),
    ("offload", {"MEM-MICRO-BATCH-OFFLOAD", "MEM-NVME-OFFLOAD"}),
    ("kv", {"SRV-KV-POOL-NO-ROOM", "SRV-LOAD-BEYOND-KV"})])
def test_explain_a_word_of_the_rule_ids_offers_the_rules_that_hold_it(word: str, expect: set[str]) -> None:
    """'gpuwise explain ram' said 'see gpuwise rules for the list', and 'explain offload' offered MEM-NVME-OFFLOAD
    alone (difflib), though the word is a part of several ids (`gpuwise rules`)."""
    from gpuwise.decide.rulebook import load as load_rules
    from gpuwise.errors import UserError
    from gpuwise.render import listing

    holding = {rid for rid in load_rules().rules if word.upper() in rid.split("-")[1:]}
    assert expect <= holding and len(holding) > 1
    with pytest.raises(UserError) as exc:
        listing.explain(word)
    said = exc.value.line()
    assert f"'{word}' names {len(holding)} rules, not one" in said, said
    assert len([rid for rid in holding if rid in said]) == min(len(holding), 6), said  # the hint names six at most
    with pytest.raises(UserError) as one:  # a word of one id only: that id offered
        listing.explain("tight")
    assert "did you mean MEM-TIGHT?" in one.value.line()


# ------------------------------------------------------------------ the questionnaire reaches the compiled kernels
def test_a_training_run_can_say_torch_compile_and_liger_kernel(tmp_path: Path) -> None:
    """A training estimate's assumptions end 'state the stack, torch_compile or liger_kernel the run uses' (the
    stack's assumption), and the questionnaire asked the stack only: torch.compile and Liger Kernel (workload fields
    of docs/formats.md, each at most compiled_memory_bound_scale of the memory-bound work) reached a hand-edited file
    alone. Each is now an advanced yes/no of a training run, after the attention kernel; Enter keeps false."""
    from gpuwise.inputs.schema import Requirements

    from .test_questionnaire import flow

    pre = {"workload.task": "finetune", "workload.method": "lora", "workload.model": "llama-3.1-8b", "advanced": True}
    asked, s = flow(tmp_path, pre)
    k = asked.index("workload.attention_kernel")
    assert asked[k + 1: k + 3] == ["workload.torch_compile", "workload.liger_kernel"]
    w = Requirements.model_validate(s.answers).workload
    assert (w.torch_compile, w.liger_kernel) == (False, False)
    _, s = flow(tmp_path, {**pre, "workload.torch_compile": True, "workload.liger_kernel": True})
    w = Requirements.model_validate(s.answers).workload
    assert (w.torch_compile, w.liger_kernel) == (True, True)
    asked, s = flow(tmp_path, {"workload.task": "inference", "advanced": True})
    assert not {"workload.torch_compile", "workload.liger_kernel"} & set(asked)
    Requirements.model_validate(s.answers)  # a service is never written a training-only field
    asked, _ = flow(tmp_path, {**pre, "advanced": False})
    assert "workload.torch_compile" not in asked


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("key", ["constraints.project_months", "constraints.deadline_days", "workload.p95_ttft_s",
                                 "workload.prefix_cache_hit_rate"])
def test_a_word_at_a_question_in_a_unit_is_not_offered_the_forms_it_refuses(tmp_path: Path, lang: str,
                                                                             key: str) -> None:
    """'y' at 'For how many months will you use the GPUs?' was refused with 'examples: 4096, 2e9, 2B, 50k', a token
    count's forms; '2B' typed there is then refused too, as k / M / B do not multiply months, days or seconds
    (answers.py _NOT_MULTIPLIED). A question in such a unit now offers plain numbers; a count keeps its forms."""
    from gpuwise.ask.answers import _Invalid
    from gpuwise.ask.questionnaire import _Session, load_questions
    from gpuwise.ask.terminal import _number
    from gpuwise.knowledge import load

    qn = load_questions()
    s = _Session(qn, load(), tmp_path / "a.yaml", lang=lang, currency=None)
    s.set_currency()
    with pytest.raises(_Invalid) as exc:
        _number(s, qn.by_key(key), "y")
    said = s.message(exc.value)
    assert "2B" not in said and "50k" not in said and "'y'" in said, said
    with pytest.raises(_Invalid) as exc:  # the forms it offers are taken
        _number(s, qn.by_key(key), "2B")
    assert _number(s, qn.by_key(key), "0.5") == 0.5
    if key != "workload.prefix_cache_hit_rate":  # a share offers 0.1 and 0.5, below its bound of 0.99
        assert _number(s, qn.by_key(key), "3") == 3 and ("3" in said)
    else:
        assert "0.1" in said and "3" not in said.replace("'", ""), said
    with pytest.raises(_Invalid) as exc:
        _number(s, qn.by_key("workload.train_tokens"), "y")
    assert "2B" in s.message(exc.value)


@pytest.mark.parametrize("lang, said", [("en", "Order: as the knowledge file below lists the cards"),
                                        ("zh", "顺序：按下面的知识库文件中卡的顺序")])
def test_the_gpu_listing_says_its_order(monkeypatch: pytest.MonkeyPatch, lang: str, said: str) -> None:
    """78 cards came in the knowledge file's order (NVIDIA's Pascal to Blackwell, then its workstation and consumer
    cards, then AMD's ...), which is no sort a reader can guess, and the listing said nothing of it."""
    from gpuwise.knowledge import load

    lines = _listing(monkeypatch, 200, "gpus", "--lang", lang)
    assert any(line.startswith(said) for line in lines)
    ids = list(load().gpus)
    listed = [line.split()[0] for line in lines if line.split() and line.split()[0] in ids]
    assert listed == ids
