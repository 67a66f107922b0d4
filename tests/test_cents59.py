"""cents59: every printed cost table adds up as printed, in yuan as in dollars.

A ledger's total is the sum of its lines (gpuwise/ledger.py); a report converts each line and the total at the
result's rate and rounds each on its own, so the lines as printed could miss the printed total by a cent
(hfrecompute59: review49's bought 4090 D read CN¥25,998.00 + 10,825.76 + 43.93 - 21,751.49 = 15,116.20 under a
total of CN¥15,116.21). The table now apportions the cents by the largest-remainder method
(gpuwise/render/money_view.py apportioned): the total and the cash out are their own amounts rounded, and the
lines are each their amount rounded down or up so that they add up to them. Each test adds the printed figures.
"""
from __future__ import annotations

import html
import json
import re

import yaml

from gpuwise.render.money_view import apportioned, rounded_table
from tests.clirun import gpuwise

ZH_KINDS = {"合计": "total", "现金支出": "cash", "转售": "resale"}  # the catalog's words for the three kinds
MONEY = r"(-?)(?:CN¥|¥|\$)([\d,]+(?:\.\d\d)?)"

# review49's purchase (tests/test_review49.py BUY): 2 RTX 4090 D bought in yuan at 6.7661 CNY per USD
BUY = {"workload": {"task": "finetune", "method": "lora", "model": "qwen3-8b", "train_tokens": 3.0e8},
       "constraints": {"deadline_days": 2.0, "budget_cny": 40000, "acquisition": "buy", "currency": "CNY",
                       "gpus": ["RTX 4090 D"]}}


def _cents(sign: str, digits: str) -> int:
    return round(float(digits.replace(",", "")) * 100) * (-1 if sign else 1)


def _tables(out: str, fmt: str) -> list[list[tuple[str, int]]]:
    """Each cost table's rows as (kind, cents), the cash out and the total last, in any of the three formats."""
    if fmt == "html":
        tables = []
        for body in re.findall(r'<table class="stack ledger">.*?</tbody>', out, re.S):
            if not re.search(r">(?:Amount|金额)</th>", body):  # an audit's timeline tables share the class
                continue
            rows = []
            for m in re.finditer(r'<tr><th scope="row"[^>]*>(.*?)</th>.*?<td class="num"[^>]*>(.*?)</td></tr>', body):
                kind, money = html.unescape(m.group(1)).split()[0], re.search(MONEY + "$", html.unescape(m.group(2)))
                rows.append((ZH_KINDS.get(kind, kind), _cents(*money.groups())))
            tables.append(rows)
        return tables
    marker = r"\| (?:Kind|类别) \| (?:Item|项目) \| (?:Amount|金额) \|" if fmt == "md" else "line by line:|逐项成本："
    tables = []
    for part in re.split(marker, out)[1:]:
        block = part.split("\n\n")[0].splitlines()[1 if fmt == "md" else 3:]
        rows = []
        for line in block:
            m = re.search(MONEY + r"\s*\|?$", line.strip())
            if m:
                kind = line.strip(" |").split()[0]
                rows.append((ZH_KINDS.get(kind, kind), _cents(*m.groups())))
        tables.append(rows)
    return tables


def _adds_up(rows: list[tuple[str, int]]) -> bool:
    total = dict(rows)["total"]
    lines = [(k, v) for k, v in rows if k not in ("cash", "total")]
    paid_ok = "cash" not in dict(rows) or sum(v for k, v in lines if k != "resale") == dict(rows)["cash"]
    return sum(v for _, v in lines) == total and paid_ok


def test_apportioned_by_largest_remainder():
    # floors 1, 2, 3 (fractions .6, .2, .5): two units more go to .6 and .5
    assert apportioned([1.6, 2.2, 3.5], 8) == [2, 2, 4]
    # review49's lines in cents at 6.7661 CNY per USD: 3,842.3907 USD of cards, the 1,600 USD host and
    # 6.4932 USD of power add to the cash out, 5,448.8840 USD = 3,686,769.35 cents
    assert apportioned([2599799.95, 1082576.0, 4393.40], 3686769) == [2599800, 1082576, 4393]
    assert apportioned([-2.5, -1.5], -5) == [-3, -2]  # negative amounts: floors -3, -2; one unit taken back
    assert apportioned([], 0) == []


def test_a_recommendation_in_yuan_adds_up_as_printed(tmp_path):
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(BUY, allow_unicode=True), encoding="utf-8")
    for fmt in ("text", "md", "html"):
        for lang in ("en", "zh"):
            out = gpuwise("recommend", "q.yaml", "--detail", "full", "--format", fmt, "--lang", lang,
                          cwd=tmp_path).stdout
            tables = _tables(out, fmt)
            assert len(tables) == 1 and len(tables[0]) == 6, (fmt, lang, tables)
            # hardware 25,997.9995 (was .00), host 10,825.76, power 43.934, resale -21,751.4875 yuan: the cash out
            # 36,867.6935 -> .69 and the net 15,116.2060 -> .21 as each is on its own; the resale is their difference
            assert [v for _, v in tables[0]] == [2599800, 1082576, 4393, -2175148, 3686769, 1511621], (fmt, lang)
            assert _adds_up(tables[0])
    brief = " ".join(gpuwise("recommend", "q.yaml", "--format", "md", cwd=tmp_path).stdout.split())
    # the answer's row: paid less what comes back is the net, as printed
    assert "CN¥15,116.21 net: CN¥36,867.69 paid, CN¥21,751.48 back from resale after 6 months" in brief


def test_an_audit_in_yuan_adds_up_as_printed():
    # examples/proposal-good-lora-8xh100.yaml in yuan (6.7661): the proposal's rent 1,638.2148, start-up 53.9935 and
    # storage 13.5269 yuan (Lambda's $0.20 a GiB-month, per GB / 1.073741824 since reviewleft60), their floors
    # 1,638.21 + 53.99 + 13.52 = 1,705.72 two cents under a total of 1,705.74 (1,705.7352); the cents go to the
    # largest fractions, the storage's (.69) and the rent's (.48). The alternative: 1,582.4532 + 416.7918 + 0.1522
    # = 1,999.3972 -> 1,999.40, floors 1,999.39; the cent goes to the rent's .32 (1,582.45 -> 1,582.46)
    d = json.loads(gpuwise("audit", "examples/proposal-good-lora-8xh100.yaml", "--currency", "CNY",
                           "--format", "json").stdout)
    assert d["currency"]["usd_cny"] == 6.7661
    assert round(d["proposed"]["ledger"]["total"], 6) == 252.100204  # the USD amounts do not move
    for fmt in ("text", "md", "html"):
        out = gpuwise("audit", "examples/proposal-good-lora-8xh100.yaml", "--currency", "CNY", "--detail", "full",
                      "--format", fmt).stdout
        tables = _tables(out, fmt)
        assert [[v for _, v in t] for t in tables] == [[163822, 5399, 1353, 170574], [158246, 41679, 15, 199940]], fmt
        assert all(_adds_up(t) for t in tables)


def test_a_dollar_table_that_added_up_is_unchanged_and_one_that_did_not_now_does():
    # examples/proposal-spot-h100-pretrain.yaml in dollars: its storage line $1,621.78 one by one left the lines
    # a cent over the $28,347.32 total; now $1,621.77 (the smallest fraction gives the cent back). The
    # alternative's lines added up already and read as before (its storage $15.87 since reviewleft60 charges the
    # provider's per-GiB rate per GB: $17.04 / 1.073741824).
    out = gpuwise("audit", "examples/proposal-spot-h100-pretrain.yaml", "--detail", "full").stdout
    tables = _tables(out, "text")
    assert [[v for _, v in t] for t in tables] == [[2236808, 756, 434991, 162177, 2834732],
                                                   [1924293, 11440, 1587, 1937320]]
    assert all(_adds_up(t) for t in tables)


def test_an_estimate_formula_adds_up_at_the_unit_of_its_total(tmp_path):
    # the estimate prints the purchase's formula with its operands to the cent and the total in whole yuan:
    # 25,998.00 + 10,825.76 + 0 + 43.93 + 0 + 0 - 21,751.49 = 15,116.20, which is the CN¥15,116 printed
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(BUY, allow_unicode=True), encoding="utf-8")
    out = gpuwise("estimate", "q.yaml", "--gpu", "RTX 4090 D", "--gpus", "2", cwd=tmp_path).stdout
    text = " ".join(out.split())
    total = re.search(r"Buy, total = " + MONEY, text)
    numbers = text.split("Buy, total =")[1].split("with numbers:")[1].split("inputs:")[0]
    terms = re.findall(r"([+-]?) ?" + MONEY, numbers)
    summed = sum(_cents("-" if "-" in sign + neg else "", digits) for sign, neg, digits in terms)
    assert round(summed / 100) * 100 == _cents(*total.groups()) == 1511600


def _cash_flow(md: str) -> tuple[list[list[int]], list[int]]:
    """The plan's cash-flow table (md) as whole units: each month's capex, rent, hosting + power, fees, resale and
    total (a dash is 0), then the Total row."""
    rows = []
    for line in md.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 8 and (cells[0].isdigit() or cells[0] in ("Total", "合计")) and re.fullmatch(MONEY, cells[1]):
            rows.append([0 if c == "—" else _cents(*re.fullmatch(MONEY, c).groups()) // 100 for c in cells[1:7]])
    return rows[:-1], rows[-1]


def test_a_plan_cash_flow_adds_up_across_and_down():
    # examples/plan-team-4090.yaml in yuan: month 4 read 11,138 + 3,038 under a month's total of 14,175, and the
    # twelve hosting + power months of 3,038 (3,037.641 yuan each) under a year's 36,452 (36,451.69); now each
    # month's parts add to its total, each column's months to its total, the totals to the plan's CN¥237,430
    # (237,429.89, its own amount rounded, as the brief's 'Cost over 12 months' says it): 36,452 - 12 x 3,037 = 8
    # months at 3,038, four at 3,037.
    # In dollars the same table's months 3 ($1,178 + $449 under $1,627) and 12 read a dollar off; the plan's
    # $35,091 does not move.
    for args, whole in ((("--currency", "CNY"), 237430), ((), 35091)):
        md = gpuwise("plan", "examples/plan-team-4090.yaml", "--format", "md", "--detail", "full", *args).stdout
        months, total = _cash_flow(md)
        assert len(months) == 12
        assert all(sum(m[:5]) == m[5] for m in months), months
        assert [sum(m[j] for m in months) for j in range(6)] == total, (months, total)
        assert sum(total[:5]) == total[5] == whole
        assert "rounded on its own" not in md
    months, _total = _cash_flow(gpuwise("plan", "examples/plan-team-4090.yaml", "--format", "md", "--detail",
                                        "full", "--currency", "CNY").stdout)
    assert sorted(m[2] for m in months) == [3037] * 4 + [3038] * 8


def test_controlled_rounding_keeps_totals_within_a_unit():
    # two months of 1.5 + 1.5 (3.0 each): each row adds to 3, each column to 3, a 6 in all
    out, rows, cols, whole = rounded_table([[1.5, 1.5], [1.5, 1.5]])
    assert rows == [3, 3] and cols == [3, 3] and whole == 6 and sorted(map(sorted, out)) == [[1, 2], [1, 2]]
    # zeros stay zeros; a column of 0.4 + 0.4 + 0.4 = 1.2 is 1 and one of its cells is rounded up
    out, rows, cols, whole = rounded_table([[0.4, 0.0], [0.4, 0.0], [0.4, 0.0]])
    assert [r[1] for r in out] == [0, 0, 0] and cols == [1, 0] and whole == 1 and sum(rows) == 1


# 2. A zh report quoted knowledge/serving.yaml's English name of a speculative method (askreview59): 'multi-token
#    prediction (the model's own MTP module)' in the assumptions of a DeepSeek-V3 service with MTP. The knowledge
#    names a report says (gpuwise/render/i18n_extract.py KNOWLEDGE_NAMES) are catalog messages now.
DS = {"workload": {"task": "inference", "model": "deepseek-v3", "framework": "vllm", "prompt_tokens": 2000,
                   "output_tokens": 400, "requests_per_s": 3, "kv_precision": "fp8", "quantization": "awq",
                   "speculative": {"method": "mtp"}},
      "constraints": {"acquisition": "rent"}}


def _knowledge_names() -> list[str]:
    from gpuwise.render.i18n_extract import extract_yaml

    names = []
    for path in ("knowledge/serving.yaml", "knowledge/runtime.yaml"):
        with open(path, "rb") as fh:
            names += [m for _line, _f, m, _c in extract_yaml(fh, None, None, None)]
    return names


def test_every_knowledge_name_a_report_says_has_zh_words():
    from babel.messages.pofile import read_po

    with open("gpuwise/render/locale/zh_CN/LC_MESSAGES/gpuwise.po", "rb") as fh:
        catalog = read_po(fh)
    names = _knowledge_names()
    assert "multi-token prediction (the model's own MTP module)" in names and "EAGLE-3 draft head" in names
    assert "PyTorch FSDP with the Hugging Face Trainer" in names  # runtime.yaml training_stacks
    missing = [n for n in names if not (catalog.get(n) and catalog.get(n).string)]
    assert not missing


def test_a_zh_service_report_says_no_knowledge_name_in_english(tmp_path):
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(DS), encoding="utf-8")
    zh = " ".join(gpuwise("recommend", "q.yaml", "--lang", "zh", "--detail", "full", cwd=tmp_path).stdout.split())
    assert "采用多词元预测（模型自带的 MTP 模块）的默认值" in zh
    # AWQ's 4-bit weights: runtime.yaml quantization int4's description, worded in the formula's inputs
    assert "format = GPTQ/AWQ，组大小 128" in zh
    said = [n for n in _knowledge_names() if " " in n and n in zh]  # one-word names (vLLM, Unsloth) stay as written
    assert not said, said
    en = " ".join(gpuwise("recommend", "q.yaml", "--detail", "full", cwd=tmp_path).stdout.split())
    assert "multi-token prediction (the model's own MTP module)'s default" in en
