"""Compiled regular expressions kept in the user's cache (gpuwise/regex_cache.py): a pattern served
from the cache is the pattern Python compiles (flags, groups, names, and what it matches), errors
are re's own, and a damaged file, a bytes pattern or re.DEBUG fall back to Python's compiler."""

from __future__ import annotations

import marshal
import re
import sys
from array import array
from pathlib import Path

import pytest

from gpuwise import regex_cache

ROOT = Path(__file__).parent.parent
COMPILER = regex_cache._compiler()
PLAIN = COMPILER.compile  # Python's own, before any install

# (pattern, flags, texts): gpuwise's own kinds and re's corners (named groups, inline flags,
# look-around, Unicode classes, case folding, backreferences, possessive-free repeats)
CASES = [
    (r"^\s*(?P<pre>\$|US\$|¥|￥|USD|CNY|RMB)?\s*(?P<num>[0-9][0-9,]*(?:\.[0-9]+)?)\s*(?P<unit>万|k|M)?\s*$", 0,
     ["$200,000", "150万", "USD 12.5k", "x"]),
    ("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD\U00010000-\U0010ffff]", 0, ["abc", "a\x01b", "é\ud800"]),
    (r"(?i)sxm|pcie|(?P<mem>\d+)\s*GB", 0, ["H100 SXM 80GB", "PCIe", "80 gb"]),
    (r"(?<=[，。])\s(?=\S)|(\w)\1", re.UNICODE, ["好， 的", "aab", "ab"]),
    (r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?)$", re.X, ["1.5", "-2.e+3", "1e5"]),
    (r"[a-z]+", re.IGNORECASE | re.ASCII, ["ABC", "ǅ", "K"]),
    (r"K", re.IGNORECASE, ["k", "K", "\u212a"]),  # the Kelvin sign folds to k in Unicode mode
    (r"(a|b)*?c{2,5}", re.DOTALL | re.MULTILINE, ["abcc\nabccccc", "c"]),
]


@pytest.fixture
def installed(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.setattr(COMPILER, "compile", PLAIN)  # put back after the test

    def fresh() -> None:
        """As a new process: the table from the file, re's own cache empty."""
        monkeypatch.setattr(COMPILER, "compile", PLAIN)
        for name, value in (("_TABLE", {}), ("_USED", {}), ("_NEW", False), ("_INSTALLED", False)):
            monkeypatch.setattr(regex_cache, name, value)
        re.purge()
        regex_cache.install()

    fresh()
    yield fresh
    re.purge()


def described(p: re.Pattern, texts: list[str]) -> tuple:
    return (p.pattern, p.flags, p.groups, dict(p.groupindex),
            [(m.span(), m.groups()) if (m := p.search(t)) else None for t in texts],
            [p.findall(t) for t in texts], [p.sub("_", t) for t in texts])


def test_a_pattern_from_the_cache_is_the_one_python_compiles(installed, tmp_path):
    plain = [described(PLAIN(p, f), texts) for p, f, texts in CASES]
    first = [described(re.compile(p, f), texts) for p, f, texts in CASES]
    assert first == plain
    regex_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("regex-*.marshal")
    installed()  # a new process
    assert len(regex_cache._TABLE) >= len(CASES)
    served = [described(re.compile(p, f), texts) for p, f, texts in CASES]
    assert served == plain
    assert not regex_cache._NEW  # every one served, nothing new to store
    assert entry.stat().st_mode & 0o077 == 0


def test_errors_are_res_own(installed):
    for bad in ("(", "[z-a]", "(?P<x>a)(?P<x>b)", "a{3,2}"):
        with pytest.raises(re.error) as got:
            re.compile(bad)
        with pytest.raises(re.error) as plain:
            PLAIN(bad, 0)
        assert str(got.value) == str(plain.value)


def test_bytes_and_debug_patterns_go_to_pythons_compiler(installed, capsys):
    assert re.compile(rb"a+b").match(b"aab")
    re.compile("q+r", re.DEBUG)
    assert "LITERAL" in capsys.readouterr().out
    assert not any(k[0] in ("q+r",) for k in regex_cache._TABLE) and all(isinstance(k[0], str)
                                                                     for k in regex_cache._TABLE)


def test_a_damaged_file_or_entry_is_compiled_afresh(installed, tmp_path):
    pattern = r"(?P<word>\w+)-(\d+)"
    re.compile(pattern)
    regex_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("regex-*.marshal")
    entry.write_bytes(b"\x00garbage")
    installed()
    assert re.compile(pattern).match("ab-12").group("word") == "ab"
    key = (pattern, 0)
    regex_cache._TABLE[key] = (0, array(regex_cache._WORD, [1, 2, 3]).tobytes(), 0, {}, ())  # code C refuses
    re.purge()
    assert re.compile(pattern).match("ab-12").groups() == ("ab", "12")
    assert key not in regex_cache._TABLE


def test_off_with_the_cache(installed, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    installed()
    assert COMPILER.compile is PLAIN


def test_the_command_keeps_them(estimate_cold_and_warm):
    cold, warm, left = estimate_cold_and_warm  # conftest: two real runs on an empty cache
    assert [name for name in left if name.startswith("regex-") and name.endswith(".marshal")]
    assert cold.returncode == warm.returncode == 0, cold.stderr
    assert cold.stdout == warm.stdout


def test_the_code_is_kept_as_words_and_the_file_stays_small(installed, tmp_path, monkeypatch):
    """The code list is stored as bytes, one machine word per number (reading ~330,000 numbers back
    as integers was 14 ms a process); past the limits the patterns not used lately go first."""
    pattern = r"(?P<word>\w+)-(\d+)"
    re.compile(pattern)
    regex_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("regex-*.marshal")
    table = marshal.loads(entry.read_bytes())
    _flags, words, groups, groupindex, indexgroup = table[(pattern, 0)]
    parser = getattr(COMPILER, "_parser", None) or sys.modules["sre_parse"]  # 3.10: sre_compile, sre_parse
    tree = parser.parse(pattern, 0)
    assert array(regex_cache._WORD, words).tolist() == list(COMPILER._code(tree, 0))
    assert (groups, groupindex, indexgroup) == (2, {"word": 1}, (None, "word", None))
    # tokenize's token pattern, its string prefixes in another order in each process: 200 variants
    # of ~7,600 bytes go over MAX_CODE_BYTES; the oldest are dropped, what this process used stays
    old = {(f"x{i}", 0): (0, bytes(7_600), 0, {}, ()) for i in range(200)}
    kept = regex_cache.kept({**old, **regex_cache._TABLE}, regex_cache._USED)
    assert (pattern, 0) in kept and list(kept)[-1] == (pattern, 0)
    assert sum(len(v[1]) for v in kept.values()) <= regex_cache.MAX_CODE_BYTES
    assert ("x0", 0) not in kept and ("x199", 0) in kept
    monkeypatch.setattr(regex_cache, "MAX_PATTERNS", 3)
    assert list(regex_cache.kept({**old, **regex_cache._TABLE}, regex_cache._USED)) == [
        ("x198", 0), ("x199", 0), (pattern, 0)]


def test_a_table_in_the_old_form_is_not_served(installed, tmp_path):
    """A file whose code is a list of numbers (the first form) is compiled afresh, not served."""
    pattern = r"a(b+)c"
    re.compile(pattern)
    regex_cache.save()
    [entry] = (tmp_path / "xdg" / "gpuwise").glob("regex-*.marshal")
    table = marshal.loads(entry.read_bytes())
    entry.write_bytes(marshal.dumps({k: (v[0], array(regex_cache._WORD, v[1]).tolist(), *v[2:])
                                     for k, v in table.items()}))
    installed()
    assert regex_cache._TABLE == {}
    assert re.compile(pattern).match("abbc").group(1) == "bb"
