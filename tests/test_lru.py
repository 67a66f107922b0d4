"""gpuwise.lru.Lru, the memory behind the process's memos (checked knowledge and rule files by entry
count, parsed YAML by bytes): the least recently used goes first, sizes are counted, and a value
larger than the whole limit is not kept."""

from gpuwise.lru import Lru


def test_least_recently_used_goes_first():
    m: Lru[str] = Lru(2)
    m.put("a", "A")
    m.put("b", "B")
    assert m.get("a") == "A"  # a is now the most recent
    m.put("c", "C")
    assert (m.get("a"), m.get("b"), m.get("c")) == ("A", None, "C")


def test_sizes_are_counted_and_a_replaced_entry_gives_its_size_back():
    m: Lru[bytes] = Lru(10, size=len)
    m.put("a", b"1234")  # 4 of 10
    m.put("a", b"12345678")  # replaced: 8 of 10, not 12
    m.put("b", b"12")  # 10 of 10: both kept
    assert (m.get("a"), m.get("b")) == (b"12345678", b"12")
    m.put("c", b"1")  # 11 > 10: the least recent (a, 8) goes, 3 of 10 left
    assert (m.get("a"), m.get("b"), m.get("c")) == (None, b"12", b"1")
    m.put("big", b"x" * 11)  # larger than the whole limit: not kept, nothing dropped for it
    assert (m.get("big"), m.get("b"), m.get("c")) == (None, b"12", b"1")
