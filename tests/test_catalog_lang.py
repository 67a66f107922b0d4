"""``--lang`` on the catalog commands (issue 25, item 4: "--lang works on every command that writes
words"): ``gpus``, ``rules`` (and ``rules --facts``), ``explain`` and ``prices`` in Chinese have no
English prose outside names, code, ids and quoted sources (the checker of test_report_zh_all), use
full-width punctuation, and show yuan without "$" when asked; their JSON is the same in every
language; the English text is what it was (the lines pinned below are the old templates' output);
every command that writes words takes ``--lang`` and says so in its ``--help``.
"""

from __future__ import annotations

import json
import re

import pytest

from gpuwise.render import listing
from tests.clirun import gpuwise
from tests.test_report_zh_all import check

CONDITION = re.compile(r"^  - \S+ (==|!=|<=|>=|<|>|in|not in|contains) .*$", re.M)


def _zh_problems(out: str, dollars: bool = False) -> list[str]:
    """The zh checker's problems; ``dollars``: "$" allowed (a USD listing). A rule's conditions
    (``segment in [consumer, workstation]``) are code, as the rule file writes them."""
    return [p for p in check(CONDITION.sub("¶", out)) if not (dollars and p.startswith("$ in"))]


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    """The listings fit the terminal's width (tests/test_catalog_width.py checks 80 columns): these
    tests read them as a 200-column terminal shows them, one row a line."""
    monkeypatch.setenv("COLUMNS", "200")


def _run(*args: str) -> str:
    r = gpuwise(*args)
    assert r.returncode == 0, r.stderr
    return r.stdout


# ------------------------------------------------------------------------------------------- gpus
def test_gpus_in_chinese_and_yuan():
    out = _run("gpus", "--lang", "zh", "--currency", "CNY")
    assert _zh_problems(out) == []
    assert out.startswith("GPU 目录（")
    assert "$" not in out and "¥" in out
    assert "金额以人民币计" in out  # the rate, its date and its source are stated, as in a report


def test_gpus_in_chinese_keeps_dollars_when_asked_for_usd():
    out = _run("gpus", "--lang", "zh")
    assert _zh_problems(out, dollars=True) == []
    assert "$390 (2025-07)" in out  # a USD listing: the same figure as in English


def test_gpus_street_price_in_yuan_at_the_given_rate():
    """prices.yaml: the P100 16GB PCIe's street price is $390 (2025-07); at 7 CNY per USD that is
    390 x 7 = 2,730 yuan. --fx-rate alone means CNY, as on recommend."""
    out = _run("gpus", "--fx-rate", "7", "--lang", "zh")
    row = next(line for line in out.splitlines() if line.startswith("p100-16gb-pcie "))
    assert row.endswith("¥2,730 (2025-07)")
    en = _run("gpus", "--fx-rate", "7")
    row = next(line for line in en.splitlines() if line.startswith("p100-16gb-pcie "))
    assert row.endswith("CN¥2,730 (2025-07)")
    assert "the rate given for this report" in en


def test_gpus_in_chinese_keeps_its_columns_aligned():
    """A Chinese header takes two terminal columns a character: the data columns still line up."""
    from gpuwise.render.fmt import display_width

    lines = _run("gpus", "--lang", "zh").splitlines()
    header, first = lines[1], lines[3]
    assert display_width(header[:header.index("架构")]) == first.index("pascal")


def test_gpus_usd_with_a_rate_is_refused():
    r = gpuwise("gpus", "--currency", "USD", "--fx-rate", "7")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "--currency CNY" in r.stderr


# ------------------------------------------------------------------------------------------ rules
def test_rules_in_chinese():
    out = _run("rules", "--lang", "zh")
    assert _zh_problems(out) == []
    assert "== 显存 ==" in out and "MEM-FITS " in out  # step names translated, ids as they are
    assert re.search(r"^MEM-NO-FIT +否决 +阻断 +任何策略都放不下$", out, re.M)
    assert re.search(r"^共 \d+ 条规则。gpuwise explain RULE_ID", out, re.M)


def test_rule_facts_in_chinese_quote_the_code_s_descriptions():
    out = _run("rules", "--facts", "--lang", "zh")
    assert _zh_problems(out) == []
    assert "字段说明引自代码，为英文原文" in out
    assert re.search(r"^  gpu_name +文本 +“GPU display name”$", out, re.M)


def test_house_rules_in_chinese(tmp_path):
    out = _run("rules", "--rules", "examples/house-rules", "--lang", "zh")
    assert _zh_problems(out) == []
    assert "［自定义］" in out or "［自定义，替换内置规则］" in out
    # a house rule's own sentence is not in the catalog: quoted as written
    one = _run("explain", "HOUSE-NO-USED", "--rules", "examples/house-rules", "--lang", "zh")
    assert one.startswith("HOUSE-NO-USED - “No second-hand hardware”\n")
    assert "自定义规则，来自 examples/house-rules/no-second-hand.yaml" in one
    assert _zh_problems(one) == []


def test_every_rule_explained_in_chinese():
    """Every built-in rule: the title, message and fix from the catalog; the rationale, example and
    source (English, from the YAML) quoted, and said to be the English original."""
    book = listing._book(None, None)
    bad = {}
    for rid in book.rules:
        out = listing.explain(rid, lang="zh")
        problems = _zh_problems(out)
        if problems:
            bad[rid] = problems
        assert "为何重要（英文原文）：\n  “" in out
    assert bad == {}


def test_a_rule_condition_on_a_policy_value_in_chinese():
    out = listing.explain("MEM-TIGHT", lang="zh")
    assert "策略 " in out or "×" in out
    assert "（阶段 " in out and "动作：发现" in out and "严重程度：警告" in out


# ----------------------------------------------------------------------------------------- prices
@pytest.mark.parametrize("args", [(), ("--gpu", "A100"), ("--provider", "lambda"), ("--currency", "CNY")])
def test_prices_in_chinese(args):
    out = _run("prices", *args, "--lang", "zh")
    assert _zh_problems(out) == []
    if args == ("--gpu", "A100"):  # a family name that matches several types says so first (contractfix63)
        head, out = out.split("\n\n", 1)
        assert head.startswith("--gpu A100 对应 4 种 GPU（a100-40gb-pcie, a100-40gb-sxm, "
                               "a100-80gb-pcie, a100-80gb-sxm）")
    assert out.startswith("日期 ")
    assert "金额按来源所写的原币种列出" in out  # amounts are the sources' own, in their currency
    assert "\n来源（英文原文）：\n[1] “" in out


def test_prices_rows_worded_in_chinese():
    """The same rows as in English, their items and units from the catalog: a whole instance
    (its GPUs and hourly rate), a per-GPU price with the offer's note quoted, a China-market purchase."""
    en = _run("prices", "--gpu", "A100").splitlines()
    zh = _run("prices", "--gpu", "A100", "--lang", "zh").splitlines()
    assert len(en) - len(zh) == -2  # the note on currencies, and its blank line
    assert any(re.search(r"[a-z]+：\S+（\d+ 块 GPU，[\d.]+/小时）", line) for line in zh)
    assert any(re.search(r"lambda：按 GPU 计（任意数量，“", line) for line in zh)
    assert any("每 GPU 小时" in line for line in zh)
    cny = _run("prices", "--currency", "CNY", "--lang", "zh")
    assert "全新卡，厂商标价，中国市场" in cny and "每块卡" in cny


def test_no_prices_in_chinese():
    """No P40 at lambda, nor anywhere: the filters as typed, and what each left out would match (hostile round 48,
    tests/test_hostile48.py)."""
    out = _run("prices", "--gpu", "p40", "--provider", "lambda", "--lang", "zh").splitlines()
    assert out[0] == "没有符合 --gpu p40 --provider lambda 的价格。"
    assert out[1].startswith("  去掉 --gpu：有 ") and out[1].endswith(" 的价格")
    assert out[2] == "  去掉 --provider：同样没有"


# ------------------------------------------------------------------------------ JSON and English
@pytest.mark.parametrize("args", [("gpus",), ("rules",), ("rules", "--facts"), ("explain", "MEM-TIGHT"),
                                  ("prices", "--gpu", "H100")])
def test_json_is_the_same_in_every_language(args):
    en = _run(*args, "--format", "json")
    zh = _run(*args, "--format", "json", "--lang", "zh")
    assert en == zh
    json.loads(en)


def test_price_rows_json_keys_unchanged():
    """The contract's price row: the keys it had before the rows carried their words."""
    data = json.loads(_run("prices", "--gpu", "H100", "--format", "json"))
    # gpus_matched: the types --gpu named; gpu_read_as: how 'H100' was read, the SXM module (review61)
    assert set(data) == {"max_age_days", "prices", "gpus_matched", "gpu_read_as"}
    assert {p["gpu"] for p in data["prices"]} <= set(data["gpus_matched"])
    assert {tuple(sorted(p)) for p in data["prices"]} == {tuple(sorted(
        ("kind", "gpu", "provider", "item", "amount", "currency", "unit", "as_of", "age_days", "source", "check",
         "file")))}


def test_english_text_as_before():
    """Lines of the English listings as the templates wrote them before --lang (byte for byte)."""
    gpus = _run("gpus").splitlines()
    bf16 = gpus.index("BF16 column: BF16 tensor rate with FP32 accumulate (FP16 where the card has no BF16).")
    assert gpus[0] == f"GPU catalog ({bf16 - 4} cards; dense peaks, TFLOPS; bandwidth GB/s; TDP W)"
    # SMs: the P100's 56 (Tesla P100 whitepaper, 2016), gpus.yaml peaks.sms (smcount66)
    assert gpus[1].split() == ["id", "arch", "cc", "SMs", "memory", "BW", "BF16", "FP8", "TDP", "link", "GB/s",
                               "price"]
    assert gpus[2].startswith("-----")
    assert re.search(r"^p100-16gb-pcie +pascal +6\.0 +56 +16 GB HBM2 +732 +- +- +250 +pcie 32 +\$390 \(2025-07\)$",
                     "\n".join(gpus), re.M)
    assert gpus[bf16 + 1].startswith("Price column: a new GPU's dated street price; * ")  # review61
    assert gpus[-2] == "Sources per card: gpuwise gpus --format json (every figure block carries its source)."
    rules = _run("rules")
    assert "\n== memory ==\nMEM-FITS                     pass     -        Fits as requested\n" in rules
    assert re.search(r"\n\n\d+ rules\. gpuwise explain RULE_ID shows one with its rationale and source\.\n$", rules)
    one = _run("explain", "mem-tight")
    assert one.splitlines()[1] == ("step: memory (stage memory) (memory rules)   action: finding   severity: warning"
                                   "   topic: memory")
    assert "\nWhat it checks (a candidate fact where):\n" in one and "\n\nWhy it matters:\n  " in one
    prices = _run("prices", "--provider", "lambda")
    assert prices.split("\n")[0].split()[:4] == ["as_of", "age", "(d)", "kind"]
    assert "\nSources:\n[1] " in prices


def test_a_house_rule_s_origin_is_on_its_own_line():
    """It was glued to the topic ("topic: used-hardwarehouse rule from ...")."""
    one = _run("explain", "HOUSE-NO-USED", "--rules", "examples/house-rules").splitlines()
    assert one[1].endswith("topic: used-hardware")
    assert one[2] == "house rule from examples/house-rules/no-second-hand.yaml"


# ---------------------------------------------------------------------------------------- --lang
WORDS = ["ask", "recommend", "audit", "plan", "estimate", "gpus", "prices", "rules", "explain"]


@pytest.mark.parametrize("command", WORDS)
def test_every_command_that_writes_words_takes_lang(command):
    r = gpuwise(command, "--help")
    assert r.returncode == 0
    assert re.search(r"--lang \{en,zh\}", r.stdout), command


@pytest.mark.parametrize("args", [("gpus",), ("rules",), ("explain", "MEM-FITS"), ("prices",)])
def test_an_unknown_language_is_refused_as_on_recommend(args):
    r = gpuwise(*args, "--lang", "fr")
    assert r.returncode == 2
    assert "invalid choice: 'fr' (choose from 'en', 'zh')" in r.stderr.replace('"', "'")
    assert r.stdout == ""


# ---------------------------------------------------------------------------------- prices import
def test_prices_import_summary_in_chinese(tmp_path):
    """The gpuhunt catalog of tests/test_price_import.py: the summary's own words from the catalog,
    a row's reason and an offer's notes too (catalog messages); the overlay and the JSON as in English."""
    from tests.test_price_import import _gpuhunt_csv

    src = tmp_path / "cheapcloud.csv"
    _gpuhunt_csv(src)
    en = gpuwise("prices", "import", str(src), "-o", str(tmp_path / "en"))
    zh = gpuwise("prices", "import", str(src), "-o", str(tmp_path / "zh"), "--lang", "zh")
    assert en.returncode == zh.returncode == 0
    assert _zh_problems(zh.stdout.replace(str(tmp_path), "DIR")) == []
    lines = zh.stdout.splitlines()
    assert lines[0].endswith("：gpuhunt 格式，服务商 cheapcloud，共 509 行")
    assert "（文件的修改日期；价格若属于别的日期，请用 --as-of DATE 指定）" in lines[1]
    assert re.search(r"^  第 \d+ 行：b1：价格 -3 不是正数$", zh.stdout, re.M)
    assert len(lines) == len(en.stdout.splitlines())
    assert (tmp_path / "en" / "clouds.yaml").read_text() == (tmp_path / "zh" / "clouds.yaml").read_text()
    # English as before: the summary's first line and an offer's line
    first = en.stdout.splitlines()
    assert first[0] == f"{src}: gpuhunt layout, provider cheapcloud, 509 rows"
    assert any(re.fullmatch(r"  gx1\.1x {23}1 x h100-80gb-sxm {10}2\.4015 USD/h = 2\.401 per GPU-hour, spot "
                            r"0\.9606/h  \[cheapest of \d+ locations\]", line) for line in first)
    js = [gpuwise("prices", "import", str(src), "-o", str(tmp_path / d), "--format", "json", *a).stdout
          for d, a in (("j1", ()), ("j2", ("--lang", "zh")))]
    assert json.loads(js[0]) | {"overlay": None} == json.loads(js[1]) | {"overlay": None}


def test_prices_import_help_mentions_lang():
    assert "--lang {en,zh}" in gpuwise("prices", "import", "--help").stdout
