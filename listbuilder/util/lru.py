"""A small thread-safe least-recently-used map: the one shape of every per-process cache.

Rendered saved-list bodies (``web.saved``), rendered PDFs without Redis (``pdf_cache``), books
re-loaded as they were saved (``saved``) and imported books (``imported``) each keep one per
worker process. ``size`` bounds the number of entries, not their bytes, so each caller picks
a size for what it keeps. gunicorn's workers may run threads, hence the lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING: Any = object()


class Lru(Generic[K, V]):
    """At most *size* entries; reading or writing one makes it the last to be dropped.
    ``hits`` and ``misses`` count the reads, for tests and benchmarks."""

    def __init__(self, size: int):
        self.size = size
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K, default: Any = None) -> Any:
        """The value kept for *key*, else *default* (pass a sentinel of your own where None
        is a value worth keeping)."""
        with self._lock:
            value = self._items.get(key, _MISSING)
            if value is _MISSING:
                self.misses += 1
                return default
            self._items.move_to_end(key)
            self.hits += 1
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        """Drop every entry and reset the counters."""
        with self._lock:
            self._items.clear()
            self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._items)
