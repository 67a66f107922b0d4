"""Chinese and yuan all through the full report (issue 25, item 4): the full zh + CNY report of every
example in examples/, in every format (and the estimate of each training example, and the batch
audit of every proposal), has

- no "$" outside quoted sources (a source quoted in dollars stays in its quotes);
- no run of three or more English words outside quotes, code and names (GPU, model, framework and
  provider names, the proposal's own title, identifiers such as ``workload.precision``);
- no half-width punctuation (, ; : ( ) and the like) touching Chinese text.

Quotes are “…” (a quoted source or a user's own words), `…` and <code>; names come from the knowledge
base. Plan reports are `gpuwise plan`'s own views (tests/test_plan.py); this file renders the reports
`recommend`, `audit` and `estimate` write.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

import pytest

from gpuwise.decide.estimate import estimate
from gpuwise.knowledge import load
from gpuwise.render import report
from gpuwise.render.fmt import times
from tests.conftest import answer_of, load_yaml

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
FORMATS = ("text", "md", "html")
REQUIREMENTS = sorted(p.name for p in EXAMPLES.glob("*.yaml") if not p.name.startswith(("proposal", "plan")))
PROPOSALS = sorted(p.name for p in EXAMPLES.glob("proposal-*.yaml"))


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    """One sentence on one line (tests/test_terminal_width.py checks the wrapping)."""
    monkeypatch.setenv("COLUMNS", "1000")


@cache
def result(name: str):  # computed once per test process (tests/conftest.py)
    return answer_of("audit" if name.startswith("proposal") else "recommend", EXAMPLES / name)


# ------------------------------------------------------------------------------ what is allowed
QUOTED = re.compile(r"“[^”]*”|`[^`\n]*`|<code[^>]*>.*?</code>|<style>.*?</style>"
                    r"|<script.*?</script>|<kbd>.*?</kbd>", re.S)
CODE_WORDS = {
    # code a reader types or reads as written: settings, frameworks, kernels, libraries, tools, units
    "lora", "qlora", "full", "sdpa", "flash", "eager", "adamw", "foreach", "AdamW", "fused", "sgd", "adafactor",
    "ZeRO", "PyTorch", "Megatron", "Megatron-LM", "NeMo", "DeepSpeed", "FSDP", "Hugging", "Face", "Trainer",
    "Axolotl", "vLLM", "vllm", "SGLang", "sglang", "TensorRT-LLM", "llama.cpp", "ExLlama", "exllama", "MLC",
    "mlc", "transformers", "FlashAttention", "FlashAttention-2", "bitsandbytes", "nvidia-smi", "dcgmi",
    "nvswitch", "nvlink", "NVLink", "NVSwitch", "pcie", "PCIe", "InfiniBand", "infiniband", "ethernet", "RoCE",
    "autocast", "kWh", "GiB", "MiB", "TFLOP", "FLOP", "FLOPs", "tok", "ms", "Ubuntu", "ubuntu", "Linux", "CUDA",
    "cuDNN", "NCCL", "gpuwise", "Blackwell", "Hopper", "Ampere", "Ada", "Grace", "Superchip", "Lovelace",
    "Volta", "Pascal", "Gaudi", "Ascend", "Instinct", "GeForce", "Tesla", "RTX", "Edition", "Workstation",
    "Server", "Ultra", "Generation", "Llama", "Qwen", "DeepSeek", "Mistral", "Mixtral", "Gemma", "Phi",
    "sxm", "oam", "nvl", "hgx", "spot", "on-demand", "reserved", "colocation", "office", "datacenter",
    "rent", "buy", "either", "new", "used", "refurbished", "none", "auto", "true", "false", "null", "cpu", "nvme",
    "finetune", "pretrain", "inference", "middle", "global", "china", "domestic", "any", "all-linear",
    "attention", "qv", "fast", "slow",
}


@cache
def names() -> tuple[str, ...]:
    """Names that stay as written, longest first: GPUs, models, frameworks, providers, networks."""
    kb = load()
    out: set[str] = set()
    for g in kb.gpus.values():
        out |= {g.name, g.id, *g.aliases}
    for m in kb.models.values():
        out |= {m.name, m.id}
    if kb.serving is not None:
        out |= {f.id for f in kb.serving.frameworks} | {getattr(f, "name", f.id) for f in kb.serving.frameworks}
    for o in getattr(kb.clouds, "providers", []) or []:
        out |= {getattr(o, "id", ""), getattr(o, "name", "")}
    out |= set(kb.runtime.networks)
    return tuple(sorted((n for n in out if len(n) > 3 or " " in n), key=len, reverse=True))


def visible(text: str, titles: tuple[str, ...] = ()) -> str:
    """The report's own words: quotes, code, tags, names and the user's titles taken out."""
    said = re.findall(r'(?:aria-label|title|alt|placeholder)="([^"]*)"', text)  # tooltips and labels are read too
    text = QUOTED.sub(" ¶ ", "\n".join([text, *said]))
    text = re.sub(r"<[^>]+>", " ", text)
    text = text.replace("&#39;", "'").replace("&amp;", "&").replace("&quot;", '"')
    for t in titles:
        text = text.replace(t, " ¶ ")
    for n in names():
        text = text.replace(n, " ¶ ")
    return text


WORD = re.compile(r"[A-Za-z]+(?:[-'][A-Za-z]+)*")


def english_runs(text: str, limit: int = 3) -> list[str]:
    """Runs of ``limit`` or more English words (not code words, not all capitals) in ``text``."""
    out = []
    for line in text.splitlines():
        run: list[str] = []
        for token in [*line.split(), "¶"]:
            word = token.strip(".,;:!?()[]{}*|—-=/+×<>\"'，。；：（）")
            if WORD.fullmatch(word) and not word.isupper() and word not in CODE_WORDS:
                run.append(word)
                continue
            if len(run) >= limit:
                out.append(" ".join(run))
            run = []
    return out


HALF_WIDTH = re.compile(r"[\u4e00-\u9fff][,;:!?()]|[,;:!?(][\u4e00-\u9fff]|[)][\u4e00-\u9fff]")


def check(out: str, titles: tuple[str, ...] = ()) -> list[str]:
    text = visible(out, titles)
    problems = [f"$ in: {line.strip()[:160]}" for line in text.splitlines() if "$" in line]
    problems += [f"English: {r}" for r in english_runs(text)]
    problems += [f"half-width punctuation: {m.string[max(0, m.start() - 20):m.end() + 20]!r}"
                 for m in HALF_WIDTH.finditer(text)]
    return list(dict.fromkeys(problems))


def test_the_checks_find_english_dollars_and_half_width_punctuation():
    assert check("显存 the job does not fit one GPU (164 GB)") == ["English: the job does not fit one"]
    assert english_runs("16 × NVIDIA GeForce RTX 4090 24GB：租用 foreach AdamW 以 PyTorch autocast 计") == []
    assert check("来源：“Llama 2 supervised fine-tuning: global batch”，$3/h") == ["$ in: 来源： ¶ ，$3/h"]
    assert check("费用：¥753 (US$107)") == ["$ in: 费用：¥753 (US$107)"]
    assert check("默认值: 默认") == ["half-width punctuation: '默认值: 默认'"]
    assert check('<svg><title>成本: 1 天</title></svg>') == ["half-width punctuation: '  成本: 1 天  '"]
    assert check("16 × NVIDIA H100 SXM5 80GB：租用，¥753；每块 GPU 需要 26.6 GB") == []


# ------------------------------------------------------------------------------------ the reports
def _title(name: str) -> tuple[str, ...]:
    data = load_yaml((EXAMPLES / name).read_text(encoding="utf-8"))
    title = str(data.get("title") or "") if isinstance(data, dict) else ""
    return (title, times(title)) if title else ()  # the report writes "8 x A100" with ×


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", REQUIREMENTS + PROPOSALS)
def test_a_full_chinese_yuan_report_is_chinese_and_yuan_throughout(name, fmt):
    out = report.render(result(name), fmt, lang="zh", currency="CNY", detail="full")
    assert check(out, _title(name)) == []


@pytest.mark.parametrize("name", [n for n in REQUIREMENTS if "inference" not in n])
def test_a_chinese_yuan_estimate_is_chinese_and_yuan_throughout(name):
    res = estimate(str(EXAMPLES / name), gpu="h100-80gb-sxm", gpus=8)
    out = report.render(res, "text", kind="estimate", lang="zh", currency="CNY")
    assert check(out) == []


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_chinese_yuan_batch_audit_is_chinese_and_yuan_throughout(fmt):
    batch = [(f"examples/{n}", result(n), "") for n in PROPOSALS]
    out = report.render_audit_summary(batch, fmt, lang="zh", currency="CNY")
    assert check(out, tuple(t for n in PROPOSALS for t in _title(n))) == []


# ------------------------------------------------------------- held-out questions in yuan (issue 25)
HELDOUT = ROOT / "tests" / "data" / "heldout"
HELDOUT_CNY = sorted(p.name for p in HELDOUT.glob("*.yaml")
                     if "currency: CNY" in p.read_text(encoding="utf-8"))


@cache
def heldout(name: str):
    return answer_of("audit" if name.startswith("audit") else "recommend", HELDOUT / name)


def _heldout_title(name: str) -> tuple[str, ...]:
    title = str(load_yaml((HELDOUT / name).read_text(encoding="utf-8")).get("title") or "")
    return (title, times(title)) if title else ()


def test_the_held_out_yuan_questions_are_found():
    assert {"china-shortlist-cny.yaml", "audit-china-two-h100-sxm.yaml", "audit-china-rent-16-a800-cny.yaml",
            "china-buy-qwen-72b-int8-rps-cny.yaml"} <= set(HELDOUT_CNY)


HELDOUT_ALL = sorted(p.name for p in HELDOUT.glob("*.yaml"))


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("name", HELDOUT_ALL)
def test_a_held_out_question_is_chinese_and_yuan_throughout(name, fmt):
    """Every held-out question, in yuan and Chinese. A file that writes its amounts in yuan: the
    assumption that says so named its conversions in English with dollars ("budget 1,200,000 CNY =
    $171,777"), and a rental proposal's ledger line read "16 GPUs on proposal"; gpt-oss-120b's
    KV-cache formula kept "sliding-window layers keep at most the window" and a framework's kernel
    ("FP4 Marlin weight-only elsewhere") was not quoted. A file in yuan has no $ in English either."""
    res = heldout(name)
    assert check(report.render(res, fmt, lang="zh", currency="CNY", detail="full"), _heldout_title(name)) == []
    if name in HELDOUT_CNY:  # a price's source, quoted as written in the full report, may say "$700": left out
        english = " ".join(html.unescape(report.render(res, fmt, lang="en", currency="CNY", detail="full")).split())
        for e in res.prices_used:
            source = " ".join(e.source.split())
            english = english.replace(source, " ¶ ").replace(times(source), " ¶ ")  # a text report writes "4 ×"
        assert [line for line in visible(english, _heldout_title(name)).splitlines() if "$" in line] == []


def test_a_yuan_file_s_conversions_are_stated_without_dollars():
    """The proposal's 12 yuan an hour per GPU is 12 / rate US dollars (tco.yaml usd_cny); the
    assumption states both amounts by their currency codes, and in Chinese by 元 and 美元."""
    res = heldout("audit-china-rent-16-a800-cny.yaml")
    rate = load().tco_value("usd_cny").value
    a = next(x for x in res.assumptions if x.field == "constraints.currency")
    assert a.message_id == "assume.currency.converted"
    assert a.reason == (f"every amount in the file is in CNY, converted at {rate:g} CNY per USD "
                        f"({load().tco_value('usd_cny').as_of}, tco.yaml usd_cny): hourly price 12 CNY = "
                        f"{12 / rate:.2f} USD")
    zh = report.render(res, "text", lang="zh", currency="CNY", detail="full")
    assert f"每小时价格12元={12 / rate:.2f}美元" in "".join(zh.split())


def test_a_proposal_s_own_rental_line_is_worded():
    """The ledger's rental line "16 GPUs on the proposal's provider" (estimators/cost.py; the proposal names no
    provider, review51), worded from its parts."""
    res = heldout("audit-china-rent-16-a800-cny.yaml")
    zh = report.render(res, "text", lang="zh", currency="CNY", detail="full")
    assert "提案中的云服务商上的 16 块 GPU" in zh and "GPUs on" not in zh and "proposal 上的" not in zh


@pytest.mark.parametrize("name", REQUIREMENTS)
def test_a_default_is_marked_once(name):
    """The question section marks a default itself ("[default: ...]", zh "［默认值：...］"), so the assumption's reason
    is shown without its own opening "default:" - in English and as the catalog words it ("默认：..."); the zh
    report read "［默认值：默认：vLLM ...］" (hostile round 22)."""
    for lang, doubled in (("en", "default: default:"), ("zh", "默认值：默认：")):
        out = report.render(result(name), "text", lang=lang, detail="full")
        assert doubled not in out.lower()
        assert ("[default: " if lang == "en" else "［默认值：") in out
