"""One word for one thing in the Chinese catalog: each core term has the word of the table in
gpuwise/render/locale/README.md ("Chinese terms"), and a msgstr that uses a word the table replaced fails here.

Only prose is read: placeholders, backquoted code, quoted text and identifiers (kv_cache_tokens) stay as written.
"""
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "gpuwise" / "render" / "locale"
PO = LOCALE / "zh_CN" / "LC_MESSAGES" / "gpuwise.po"

# what a msgstr may keep in English or as code: %-placeholders, {name:spec} fields, `code`, “quoted text”,
# and identifiers joined by _ or . (field names, rule ids)
_KEEP = re.compile(r"%\([^)]*\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|\{[^{}]*\}|`[^`]*`|“[^”]*”"
                   r"|[A-Za-z0-9]+(?:[_.][A-Za-z0-9]+)+")

# the word the table replaced -> the word the catalog uses (README.md, "Chinese terms")
REPLACED = {
    r"(?i)(?<![A-Za-z_])tokens?(?![A-Za-z_])": "词元",
    r"令牌": "词元",
    r"提示(?=词元)": "提示词",
    r"首词元时延": "首词元时间",
    r"每输出词元时延|每个输出词元的时间": "每输出词元时间",
    r"延迟": "时延",
    r"吞吐(?!量)": "吞吐量",
    r"批大小": "批次大小",
    r"提供商|供应商|云厂商": "服务商",
    r"估计值": "估算值",
}


def prose(text):
    return _KEEP.sub(" ", text)


def replaced_words(text):
    """The replaced words `text` uses in its prose, each with the word it should use."""
    return [(m.group(), want) for rx, want in REPLACED.items() for m in re.finditer(rx, prose(text))]


def _messages():
    with PO.open("rb") as f:
        cat = read_po(f)
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        for s in m.string if isinstance(m.string, tuple) else (m.string,):
            yield ids[0], s


MESSAGES = list(_messages())


def test_the_checker_reads_prose_and_leaves_code_alone():
    # a msgstr as review30 found it: English 'token' in Chinese prose, beside a placeholder and a field name
    bad = "放不下：所填的 {tokens:int} 个 token 的 KV 缓存池（workload.kv_cache_tokens）"
    assert replaced_words(bad) == [("token", "词元")]
    assert replaced_words("所填的 {tokens:int} 个词元的 KV 缓存池（workload.kv_cache_tokens，%(tokens)s）") == []
    assert replaced_words("`--max-num-batched-tokens` 与 “tokens per second” 照原文") == []
    assert replaced_words("每个提示词元") == [("提示", "提示词")]
    assert replaced_words("每个提示词词元；达不到吞吐量目标；p95 首词元时间") == []
    assert replaced_words("未达到吞吐目标，延迟更高") == [("延迟", "时延"), ("吞吐", "吞吐量")]


@pytest.mark.parametrize("rx,want", REPLACED.items())
def test_no_msgstr_uses_a_replaced_word(rx, want):
    used = [(mid, s) for mid, s in MESSAGES if re.search(rx, prose(s))]
    assert not used, f"say {want}: " + "; ".join(f"{mid!r} -> {s!r}" for mid, s in used[:5])


def test_gpu_memory_is_xianchun():
    # 内存 is host RAM (主机内存, CPU 内存, a server's memory); the GPU's memory is 显存
    host = re.compile(r"(?i)host|cpu|\bram\b|server|instance|node|nvme|offload")
    used = [(mid, s) for mid, s in MESSAGES
            if re.search(r"(?i)\bmemory\b", mid) and not host.search(mid) and "内存" in prose(s)]
    assert not used, used


def test_a_prompt_is_tishici():
    # 提示 alone is a hint or a note ('%(n)s 条提示'); the user's prompt is 提示词 (a shell prompt 提示符)
    used = [(mid, s) for mid, s in MESSAGES
            if re.search(r"(?i)\bprompts?\b", mid) and re.search(r"提示(?![词符])", prose(s))]
    assert not used, used


def test_the_readme_table_names_each_word():
    readme = (LOCALE / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Chinese terms (zh_CN)", 1)[1]
    for want in set(REPLACED.values()) | {"显存"}:
        assert f"| {want}" in table, want
