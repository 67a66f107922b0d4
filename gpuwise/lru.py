"""A bounded, thread-safe memory of recent results, the least recently used dropped first: the one
shape behind the process's memos (checked knowledge and rule files, parsed YAML documents)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

V = TypeVar("V")


class Lru(Generic[V]):
    """At most ``limit`` units kept, each entry costing ``size(value)`` units (1 each by default);
    an entry larger than the whole limit is not kept. ``None`` is never a kept value."""

    def __init__(self, limit: int, size: Callable[[V], int] | None = None) -> None:
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._limit = limit
        self._size = size
        self._used = 0
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        cost = self._size(value) if self._size else 1
        if cost > self._limit:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self._used -= self._size(old) if self._size else 1
            self._entries[key] = value
            self._used += cost
            while self._used > self._limit:
                _, dropped = self._entries.popitem(last=False)
                self._used -= self._size(dropped) if self._size else 1
