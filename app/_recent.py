"""What a pure computation gave last time, for the same input again (a query asked again by a
page, a retry or each collection of one search; a passage read again with the same question
by each draft of a research run): the most recent `size` results, the oldest forgotten
first. Safe to share between the event loop and the threads that compute results."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Recent(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self._size = size
        self._kept: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            if key not in self._kept:
                return None
            self._kept.move_to_end(key)
            return self._kept[key]

    def put(self, key: K, value: V) -> V:
        with self._lock:
            self._kept[key] = value
            if len(self._kept) > self._size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
