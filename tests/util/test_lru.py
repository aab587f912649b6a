"""The one LRU behind every per-process cache (saved-list bodies, PDFs, books as saved, imported books)."""

from __future__ import annotations

import threading

from listbuilder.printing.pdf_cache import RenderCache
from listbuilder.util.lru import Lru


def test_the_least_recently_used_entry_is_dropped_first_and_reading_counts_as_use():
    cache: Lru[str, int] = Lru(2)
    cache.put("a", 1)
    cache.put("b", 2)
    assert cache.get("a") == 1  # "b" is now the least recently used
    cache.put("c", 3)
    assert (cache.get("a"), cache.get("b"), cache.get("c")) == (1, None, 3)
    cache.put("a", 10)  # writing counts as use, and replaces
    cache.put("d", 4)
    assert (cache.get("a"), cache.get("c"), cache.get("d"), len(cache)) == (10, None, 4, 2)


def test_none_can_be_kept_and_told_from_a_miss_with_a_default():
    cache: Lru[str, None] = Lru(4)
    missing = object()
    cache.put("known to fail", None)
    assert cache.get("known to fail", missing) is None
    assert cache.get("never seen", missing) is missing


def test_hits_and_misses_are_counted_and_clear_resets_them():
    cache: Lru[int, str] = Lru(4)
    cache.put(1, "x")
    cache.get(1)
    cache.get(2)
    assert (cache.hits, cache.misses, len(cache)) == (1, 1, 1)
    cache.clear()
    assert (cache.hits, cache.misses, len(cache)) == (0, 0, 0) and cache.get(1) is None


def test_threads_writing_at_once_never_push_it_past_its_size():
    cache: Lru[tuple[int, int], int] = Lru(8)
    barrier = threading.Barrier(4)
    failures: list[BaseException] = []

    def churn(thread: int) -> None:
        barrier.wait()
        try:
            for i in range(2000):
                cache.put((thread, i), i)
                cache.get((thread, i - 1))
                assert len(cache) <= 8
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    threads = [threading.Thread(target=churn, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == [] and len(cache) == 8


def test_the_in_process_pdf_cache_is_this_lru():
    cache = RenderCache(max_entries=3)
    assert isinstance(cache, Lru) and cache.size == 3
