"""The digests of hashed files kept by the files' identity (``gpuwise.cache.file_digest``): a file whose size,
times, inode and device are unchanged is not read again; any edit -- even one that keeps the size
and puts the modification time back -- is read and hashed afresh; a file changed in the last two
seconds, or a table that cannot be read, is never trusted; the table is kept between processes."""

from __future__ import annotations

import hashlib
import os
import time
from types import SimpleNamespace

import pytest

from gpuwise import cache


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """An empty table in a cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("GPUWISE_NO_CACHE", "0")
    monkeypatch.setattr(cache, "_DIGESTS", None)
    monkeypatch.setattr(cache, "_DIGESTS_USED", set())
    monkeypatch.setattr(cache, "_DIGESTS_NEW", False)
    return tmp_path


def _settled(path, ago_s: float = 60.0) -> os.stat_result:
    """Give ``path`` times ``ago_s`` in the past (its change time moves to now: wait past it)."""
    t = time.time_ns() - int(ago_s * 1e9)
    os.utime(path, ns=(t, t))
    return os.stat(path)


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def test_a_settled_file_is_hashed_once_and_an_edit_of_the_same_size_and_time_is_seen(fresh, monkeypatch):
    f = fresh / "a.yaml"
    f.write_bytes(b"value: 1\n")
    st = _settled(f)
    monkeypatch.setattr(cache, "SETTLED_NS", 0)  # the change time is a moment ago; trust it for this test
    assert cache.file_digest(str(f), st) == _sha(b"value: 1\n")
    hashed: list[bytes] = []
    monkeypatch.setattr(cache, "hashlib", SimpleNamespace(sha256=lambda b: (hashed.append(b), hashlib.sha256(b))[1]))
    assert cache.file_digest(str(f), os.stat(f)) == _sha(b"value: 1\n") and hashed == []  # from the table
    before = os.stat(f)
    f.write_bytes(b"value: 2\n")  # the same size; the modification time put back as it was
    os.utime(f, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = os.stat(f)
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)
    assert cache.file_digest(str(f), after) == _sha(b"value: 2\n")  # the change time moved: read again
    assert hashed == [b"value: 2\n"]


def test_a_file_changed_just_now_is_hashed_every_time(fresh):
    f = fresh / "b.yaml"
    f.write_bytes(b"x: 1\n")  # its change time is now: within SETTLED_NS
    assert cache.file_digest(str(f), os.stat(f)) == _sha(b"x: 1\n")
    assert str(f) not in (cache._DIGESTS or {})


def test_a_stale_stat_is_not_kept(fresh, monkeypatch):
    """The file changed between the caller's stat and the read: the digest is of what was read,
    and nothing is kept under the old identity."""
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    f = fresh / "c.yaml"
    f.write_bytes(b"old\n")
    old = os.stat(f)
    f.write_bytes(b"newer\n")
    assert cache.file_digest(str(f), old) == _sha(b"newer\n")
    assert str(f) not in (cache._DIGESTS or {})


def test_the_table_is_kept_between_processes_and_a_bad_one_is_ignored(fresh, monkeypatch):
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    f = fresh / "d.yaml"
    f.write_bytes(b"d: 4\n")
    st = os.stat(f)
    cache.file_digest(str(f), st)
    cache.save()
    (kept,) = (fresh / "xdg" / "gpuwise").glob("digests-*.marshal")
    monkeypatch.setattr(cache, "_DIGESTS", None)
    assert cache._digests()[str(f)] == (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev,
                                         _sha(b"d: 4\n"))
    # a table that cannot be read is ignored: every file is hashed
    kept.write_bytes(b"\x00 not marshal")
    monkeypatch.setattr(cache, "_DIGESTS", None)
    assert cache._digests() == {}
    assert cache.file_digest(str(f), st) == _sha(b"d: 4\n")


def test_no_cache_keeps_nothing(fresh, monkeypatch):
    monkeypatch.setenv("GPUWISE_NO_CACHE", "1")
    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    f = fresh / "e.yaml"
    f.write_bytes(b"e: 5\n")
    assert cache.file_digest(str(f), os.stat(f)) == _sha(b"e: 5\n")
    cache.save()
    assert not (fresh / "xdg").exists()


def test_an_entry_of_the_wrong_shape_is_not_trusted(fresh, monkeypatch):
    """The table is read without checking every entry (a thousand of them, to use some seventy); the
    entry of a file is checked when the file is looked up: one of the wrong shape (its size a float,
    its digest short) is hashed afresh and replaced, never served."""
    import marshal

    monkeypatch.setattr(cache, "SETTLED_NS", 0)
    f = fresh / "g.yaml"
    f.write_bytes(b"g: 7\n")
    st = _settled(f)
    ident = (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)
    d = fresh / "xdg" / "gpuwise"
    d.mkdir(parents=True, mode=0o700)
    for bad in ((float(ident[0]), *ident[1:], _sha(b"other")), (*ident, b"short"), "not a tuple"):
        (d / cache.DIGESTS).write_bytes(marshal.dumps({str(f): bad, "/elsewhere/x.yaml": "junk"}))
        monkeypatch.setattr(cache, "_DIGESTS", None)
        assert cache.file_digest(str(f), st) == _sha(b"g: 7\n")
        assert cache._DIGESTS[str(f)] == (*ident, _sha(b"g: 7\n"))
