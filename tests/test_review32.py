"""What review32 read wrong as an approver, left by review31: a finding about a count not chosen in the brief, a
storage note that called the object-storage amount premium SSD, the Chinese formulas' ASCII semicolon, the eager
prefill formula in Chinese, and the KV cache's default type missing from the assumptions."""

from __future__ import annotations

import re
from pathlib import Path

from gpuwise import knowledge

from .clirun import gpuwise

NEXT = ("workload: {task: inference, model: qwen3-next-80b-a3b, precision: bf16, prompt_tokens: 8000,"
        " output_tokens: 1000, concurrent_requests: 64}\n")


def _run(tmp_path: Path, command: str, text: str, *args: str) -> str:
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    r = gpuwise(command, "q.yaml", *args, cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    return r.stdout


def _flat(text: str) -> str:
    return " ".join(text.split())


def _tight(text: str) -> str:
    """Chinese text with no spaces: a wrapped line breaks between two characters, where _flat puts one."""
    return "".join(text.split())


def test_the_brief_speaks_of_the_answer_and_the_full_report_heads_the_others(tmp_path: Path) -> None:
    """Qwen3-Next-80B-A3B on H200, rent or buy: the answer rents 2 x H200, and TCO-RENT-DEARER fires on renting
    64 of them (dearer than buying that count). The brief's blockers and warnings are the answer's (none here,
    in every format and in Chinese); the full report keeps the finding, headed by its configuration."""
    text = NEXT + "constraints: {gpus: [H200]}\n"
    for args in ((), ("--lang", "zh"), ("--format", "md"), ("--format", "html")):
        out = _run(tmp_path, "recommend", text, *args)
        assert "TCO-RENT-DEARER" not in out, args
    out = _flat(_run(tmp_path, "recommend", text))
    assert out.startswith("GPU recommendation: inference, qwen3-next-80b-a3b, bf16 === Answer === "
                          "Rent 2 × NVIDIA H200 SXM 141GB")
    assert ("Blockers and warnings (the answer's: 0 blockers, 0 warnings, 0 notes) === No blockers and no warnings."
            in out)
    full = _flat(_run(tmp_path, "recommend", text, "--detail", "full"))
    assert "[blocker] TCO-RENT-DEARER (cost, 64 × NVIDIA H200 SXM 141GB, rent: not the answer)" in full
    zh = _tight(_run(tmp_path, "recommend", text, "--detail", "full", "--lang", "zh"))
    assert _tight("［阻断］TCO-RENT-DEARER（成本，64 × NVIDIA H200 SXM 141GB，租用：不是推荐方案）") in zh


NEBIUS = ("title: b200 for llama\n"
          "workload: {task: inference, model: llama-3.1-70b, precision: fp8, prompt_tokens: 1500,"
          " output_tokens: 300, requests_per_s: 5}\n"
          "hardware: {gpu: B200, count: 8, nodes: 1}\n"
          "acquisition: {mode: rent, provider: nebius, months: 12}\n"
          "cloud: {storage: {kind: premium-ssd, tb: 2}}\n")


def test_storage_priced_at_the_object_rate_says_what_it_priced(tmp_path: Path) -> None:
    """Nebius's fee table lists object storage only (knowledge/clouds.yaml: $0.0147 a GiB-month, from
    docs.nebius.com/object-storage/resources/pricing), so 2 TB of premium SSD is charged 2,000 GB x $0.0147 x 12
    / 1.073741824 (the rate is per GiB: reviewleft60) = $329 at the object rate (cost.storage_rate_for). The
    ledger line said so, but FEE-PREMIUM-STORAGE's note
    read '2 TB of premium SSD costs about $353': an object-storage amount stated as premium SSD's."""
    rate = next(p for p in knowledge.load().clouds.providers if p.id == "nebius").storage_usd_per_gb_month
    assert set(rate) == {"object"}
    fee = f"${2000 * rate['object'] * 12 / 1.073741824:,.0f}"
    assert fee == "$329"
    out = _flat(_run(tmp_path, "audit", NEBIUS, "--detail", "full"))
    assert (f"[info] FEE-STORAGE-PRICED-AS (cloud fees, b200) nebius lists no premium SSD price: the 2 TB asked"
            f" for are priced at its object storage rate, about {fee} over 12 months") in out
    assert "premium SSD costs about" not in out and "FEE-PREMIUM-STORAGE" not in out
    zh = _tight(_run(tmp_path, "audit", NEBIUS, "--detail", "full", "--lang", "zh", "--currency", "USD"))
    assert _tight(f"nebius 未列出高级 SSD 的价格：所需的 2 TB 按其 object 存储的单价计，12 个月内约需 {fee}") in zh
    # a provider that lists premium SSD keeps the note as it was (AWS: tests/rules/FEE-PREMIUM-STORAGE)
    aws = NEBIUS.replace("provider: nebius", "provider: aws")
    assert "FEE-STORAGE-PRICED-AS" not in _run(tmp_path, "audit", aws, "--detail", "full")


def test_a_chinese_formula_joins_its_parts_with_the_chinese_semicolon(tmp_path: Path) -> None:
    """Qwen3-Next on 2 H200: the KV line's formula joins the attention layers' cache and the DeltaNet layers'
    state with a semicolon, printed in Chinese as '/ 2 块 GPU; + 36 个...' (an ASCII one between two ASCII
    operands, which the full-width pass leaves); every formula's separators are now the report's own."""
    zh = _run(tmp_path, "estimate", NEXT, "--gpu", "H200", "--gpus", "2", "--lang", "zh")
    tight = _tight(zh)
    assert _tight("公式：2 × 层数 × kv_heads × head_dim × 字节数 × 词元数 / 2 块 GPU；+ 36 个") in tight
    assert _tight("代入数值：2 × 12 × 2 × 256 × 2 × 544,000 / 2 块 GPU；+ 36 个") in tight
    assert "GPU;+" not in tight and "B;36" not in tight
    en = _flat(_run(tmp_path, "estimate", NEXT, "--gpu", "H200", "--gpus", "2"))
    assert "/ 2 GPUs; + the recurrent state of 36 layers" in en  # English keeps its own


def test_the_eager_prefill_formula_is_in_chinese(tmp_path: Path) -> None:
    """Llama 3.1 8B served by transformers with eager attention, 4 sequences of 2,000 prompt tokens on one H100:
    the prefill's score matrices, 9 B x sequences x heads x prompt^2 = 9 x 4 x 32 x 2,000 x 2,000 = 4.608e9 B
    (memory_serving.py), worded through the catalog with the other eager formulas' '（eager 注意力）'."""
    text = ("workload: {task: inference, model: llama-3.1-8b, precision: bf16, prompt_tokens: 2000,"
            " output_tokens: 200, concurrent_requests: 4, attention: eager, framework: transformers}\n")
    zh = _tight(_run(tmp_path, "estimate", text, "--gpu", "H100", "--gpus", "1", "--lang", "zh"))
    assert _tight("+ 9 B × 序列数 × heads × prompt_tokens × prompt_tokens （eager 注意力）") in zh
    assert _tight("+ 9 B × 4 × 32 × 2,000 × 2,000 （eager 注意力）") in zh
    assert "(eager)" not in zh
    assert 9 * 4 * 32 * 2000 * 2000 == 4_608_000_000


def test_the_kv_caches_default_type_is_a_full_report_assumption(tmp_path: Path) -> None:
    """A served model without kv_precision takes the framework's own KV type for the weights' precision (2 B an
    element for BF16 here), a default that sets how many sequences fit; no assumption named it. The full report
    lists it (en and zh); the brief, held to two 80 x 40 screens, leaves it to the full report; a file that
    states the type is not told it assumed it."""
    text = NEXT + "constraints: {gpus: [H200], max_gpus: 2, project_months: 12}\n"
    line = ("workload.kv_precision = auto — the KV cache in the serving framework's own type for the weights'"
            " precision (knowledge/serving.yaml kv_cache_bytes: 16-bit unless it says otherwise)")
    assert line in _flat(_run(tmp_path, "recommend", text, "--detail", "full"))
    assert _tight("workload.kv_precision = auto — KV 缓存采用推理框架针对该权重精度的默认类型") in _tight(
        _run(tmp_path, "recommend", text, "--detail", "full", "--lang", "zh"))
    assert "kv_precision" not in _run(tmp_path, "recommend", text)
    stated = text.replace("precision: bf16,", "precision: bf16, kv_precision: bf16,")
    assert not re.search(r"workload\.kv_precision =", _run(tmp_path, "recommend", stated, "--detail", "full"))
