"""The per-user cache of the validated knowledge base and the checked rule book (gpuwise/cache.py):
a hit gives what a fresh load gives, an edited file is read afresh, a corrupt entry is ignored,
GPUWISE_NO_CACHE=1 turns it off, and the command works with it."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from gpuwise import cache, knowledge
from gpuwise.decide import rulebook

ROOT = Path(__file__).parent.parent


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.setattr(knowledge, "_CACHE", {})
    monkeypatch.setattr(rulebook, "_CACHE", {})
    return tmp_path / "xdg" / "gpuwise"


def test_a_second_load_is_served_from_the_cache_and_equal(cache_dir, monkeypatch):
    first = knowledge.load()
    entries = sorted(p.name for p in cache_dir.glob("knowledge-*.pickle"))
    assert len(entries) == 1
    monkeypatch.setattr(knowledge, "_CACHE", {})
    monkeypatch.setattr(knowledge, "_load", lambda overlay: pytest.fail("loaded again"))
    second = knowledge.load()
    assert second is not first and second.gpus == first.gpus and second.policy == first.policy
    book = rulebook.load()
    monkeypatch.setattr(rulebook, "_CACHE", {})
    monkeypatch.setattr(rulebook, "_load", lambda house, policy: pytest.fail("loaded again"))
    again = rulebook.load()
    assert again.digest == book.digest and again.definition() == book.definition()


def test_an_edited_overlay_is_read_afresh(cache_dir, tmp_path, monkeypatch):
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "policy.yaml").write_text("memory_headroom_fraction: 0.1\n")
    assert knowledge.load(str(kb)).policy_value("memory_headroom_fraction") == 0.1
    monkeypatch.setattr(knowledge, "_CACHE", {})
    (kb / "policy.yaml").write_text("memory_headroom_fraction: 0.2\n")
    assert knowledge.load(str(kb)).policy_value("memory_headroom_fraction") == 0.2
    assert len(list(cache_dir.glob("knowledge-*.pickle"))) == 2


def test_an_overlay_or_house_rule_edited_in_the_same_process_is_read_afresh(cache_dir, tmp_path):
    """The Python API called twice in one process: the second call sees the edited files (the
    in-process cache is keyed by the directory's files' names, sizes and times, not its path alone)."""
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "policy.yaml").write_text("memory_headroom_fraction: 0.1\n")
    assert knowledge.load(str(kb)).policy_value("memory_headroom_fraction") == 0.1
    (kb / "policy.yaml").write_text("memory_headroom_fraction: 0.25\n")  # a new size: a new stamp
    assert knowledge.load(str(kb)).policy_value("memory_headroom_fraction") == 0.25
    house = tmp_path / "house"
    house.mkdir()
    rule = (ROOT / "examples" / "house-rules" / "no-second-hand.yaml").read_text()
    (house / "r.yaml").write_text(rule)
    assert "HOUSE-NO-USED" in rulebook.load(str(house)).house
    (house / "r.yaml").write_text(rule.replace("HOUSE-NO-USED", "HOUSE-NO-USED-CARDS"))
    assert rulebook.load(str(house)).house == {"HOUSE-NO-USED-CARDS"}


def test_a_corrupt_or_unreadable_entry_is_rebuilt(cache_dir, monkeypatch):
    knowledge.load()
    (entry,) = cache_dir.glob("knowledge-*.pickle")
    for junk in (b"", b"not a pickle", pickle.dumps({"a": 1})[:5]):
        entry.write_bytes(junk)
        monkeypatch.setattr(knowledge, "_CACHE", {})
        assert "h100-80gb-sxm" in knowledge.load().gpus
    assert pickle.loads(entry.read_bytes())[2].gpus  # rewritten whole, under its own key


def test_no_cache_means_no_files(cache_dir, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    knowledge.load()
    rulebook.load()
    assert not cache_dir.exists()


def test_an_unwritable_cache_directory_is_not_an_error(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))  # a file where the directory should be
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.setattr(knowledge, "_CACHE", {})
    assert knowledge.load().gpus


def test_the_command_gives_the_same_answer_cold_and_cached(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "XDG_CACHE_HOME": str(tmp_path), "GPUWISE_NO_CACHE": "0"}
    argv = [sys.executable, "-m", "gpuwise", "recommend", str(ROOT / "examples" / "qlora-70b-4090.yaml"),
            "--format", "json"]
    cold = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    kept = sorted(p.name.split("-")[0] for p in (tmp_path / "gpuwise").glob("*.pickle"))
    assert [k for k in kept if k != "schema"] == ["knowledge", "messages", "rules"]  # and the models' schemas
    assert "schema" in kept  # gpuwise/prebuilt.py
    warm = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    assert cold.returncode == warm.returncode == 0, cold.stderr
    assert cold.stdout == warm.stdout


def test_compiled_templates_are_kept_and_give_the_same_report(cache_dir, monkeypatch):
    """The Jinja2 bytecode cache (cache.templates): a second environment loads the compiled
    template instead of compiling it, and the report is the same; a corrupt entry is compiled afresh."""
    import jinja2

    from gpuwise.render import fmt, report

    result = gpuwise_recommend("qlora-70b-4090.yaml")
    fmt.environment.cache_clear()
    first = report.render(result, "text", width=100)
    entries = sorted(cache_dir.glob("template-*.jinja"))
    assert entries  # recommend.txt and what it includes
    fmt.environment.cache_clear()
    monkeypatch.setattr(jinja2.Environment, "_compile", lambda *a, **k: pytest.fail("compiled again"))
    assert report.render(result, "text", width=100) == first
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache_dir.parent))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    for entry in entries:
        entry.write_bytes(b"junk")
    fmt.environment.cache_clear()
    assert report.render(result, "text", width=100) == first
    fmt.environment.cache_clear()


def gpuwise_recommend(example: str):
    import gpuwise

    return gpuwise.recommend(ROOT / "examples" / example)


def test_the_package_stamp_names_every_file_of_the_package_with_its_size_and_time():
    """Every cache key and the answer memo carry the stamp: each file of the package but compiled
    bytecode, by its path inside the package, its size and modification time, in name order."""
    from gpuwise import cache

    root = Path(cache.__file__).parent
    want = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in names:
            if not name.endswith((".pyc", ".pyo")):
                path = os.path.join(dirpath, name)
                st = os.stat(path)
                want.append(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns}")
    cache._STAMP = None
    stamp = cache.package_stamp().decode().split("\n")
    assert stamp == sorted(want)
    assert "cache.py:" + str(os.stat(root / "cache.py").st_size) in "\n".join(stamp)
    assert any(line.startswith(os.path.join("render", "locale", "")) for line in stamp)  # folders below too


def test_an_entry_read_back_counts_as_recently_used(cache_dir, monkeypatch):
    """The prune drops the entries least recently used, not least recently written: the built-in
    knowledge base's entry, written once and read by every run, outlives a kind's quota of newer
    entries (tests' overlays, other checkouts) while it is still being read."""
    knowledge.load()
    (entry,) = cache_dir.glob("knowledge-*.pickle")
    now = entry.stat().st_mtime_ns
    os.utime(entry, ns=(now - 3_600 * 10**9,) * 2)  # written an hour ago
    others = []
    for i in range(3):  # written half an hour ago: newer than it
        cache.put("knowledge", f"{i:040d}", {"i": i})
        others.append(cache_dir / f"knowledge-{i:040d}.pickle")
        os.utime(others[-1], ns=(now - (1_800 - i) * 10**9,) * 2)
    monkeypatch.setattr(knowledge, "_CACHE", {})
    monkeypatch.setattr(knowledge, "_load", lambda overlay: pytest.fail("loaded again"))
    assert knowledge.load().gpus  # served from the entry, and so touched
    assert entry.stat().st_mtime_ns >= now
    cache.put("knowledge", "9" * 40, {"i": 9}, keep=3)  # the prune keeps three of five
    assert entry.exists()  # by the time it was written it would have gone first
    assert [p.exists() for p in others] == [False, False, True]


def test_an_entry_read_just_after_it_was_written_is_not_touched(cache_dir):
    """A fresh entry keeps its time: no write to the cache directory on every read."""
    cache.put("knowledge", "1" * 40, {"a": 1})
    entry = cache_dir / f"knowledge-{'1' * 40}.pickle"
    before = entry.stat().st_mtime_ns
    assert cache.get("knowledge", "1" * 40) == {"a": 1}
    assert entry.stat().st_mtime_ns == before
