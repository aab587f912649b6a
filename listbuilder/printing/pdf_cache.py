"""Rendered PDF rosters by content hash: in the process, or in Redis shared by every worker.

A roster is a pure function of the canonical list, the book and system files it was checked
against, the paper, the layout and (for saved lists) the share link, so those make the key.
The key is cheap: the canonical JSON of ``listbuilder.lists.canonical`` (a few dicts, no
``dataclasses.asdict`` deep copy) and the rules digest the loader already computed.

With ``REDIS_URL`` set the cache lives in Redis, so a PDF printed by one worker (or machine) is
served by all of them; a Redis that is down or slow costs only a render, never an error.
Without it, each worker keeps a small LRU.

A Redis that fails once is left alone for a while (a circuit breaker, :class:`RedisCache`):
each request would otherwise pay the failure again (a refused connection and two warnings per
PDF when Redis is down, two socket timeouts, 0.5 s, per PDF when it hangs). Meanwhile the
worker's own LRU serves, and every PDF is kept there too, so the most recent ones survive an
outage.

A saved list's roster prints the list's share link as a QR code, so the link is part of the
key: with ``LISTBUILDER_PUBLIC_URL`` set it is the public one whatever Host a request named
(``web.public_url``), and instances behind different host names share each other's renders.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
from typing import Any, Protocol

from listbuilder.books.registry import BookRegistry
from listbuilder.lists.canonical import canonical_json, rules_version
from listbuilder.model import ArmyList
from listbuilder.printing.assets import assets_digest
from listbuilder.util.lru import Lru

log = logging.getLogger(__name__)

# Bumped when our code changes what a key's PDF holds; a change to a template, stylesheet or
# font changes the key by itself (renderer()).
RENDERER_VERSION = "roster-pdf/4"


def renderer() -> str:
    """The renderer a PDF was made by: our code's version and the digest of the files it reads."""
    return f"{RENDERER_VERSION}/{assets_digest()[:16]}"


def cache_key(
    registry: BookRegistry,
    army: ArmyList,
    paper: str,
    layout: str = "sheet",
    share_url: str | None = None,
    heading: str | None = None,
) -> str:
    """The content hash naming one rendered PDF (unknown book or system: the ids stand in)."""
    book, system = registry.books.get(army.book), registry.systems.get(army.system)
    version = rules_version(book, system) if book is not None and system is not None else f"{army.system}/{army.book}"
    text = "\n".join((renderer(), paper, layout, share_url or "", heading or "", version, canonical_json(army)))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class PdfCache(Protocol):
    hits: int
    misses: int

    def get(self, key: str) -> bytes | None: ...
    def put(self, key: str, value: bytes) -> None: ...
    def clear(self) -> None: ...


class RenderCache(Lru[str, bytes]):
    """Rendered PDFs kept in one worker process (the cache when ``REDIS_URL`` is not set)."""

    def __init__(self, max_entries: int = 64):
        super().__init__(max_entries)


class RedisCache:
    """Rendered PDFs in Redis under ``prefix``, kept ``ttl`` seconds after their last render.

    Short socket timeouts: a Redis that hangs must not hold a worker, so every failure is
    counted in ``errors`` and treated as a miss (get) or skipped (put). After a failure,
    Redis is not asked again for ``pause`` seconds (one warning says so) and ``local``, this
    worker's LRU, answers instead; it also keeps every PDF put, for the next outage.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "listbuilder:roster-pdf:",
        ttl: int = 7 * 24 * 3600,
        timeout: float = 0.25,
        pause: float = 30.0,
    ):
        import redis  # only when REDIS_URL is set

        self._errors: tuple[type[Exception], ...] = (redis.RedisError, OSError)
        self.client: Any = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        self.prefix = prefix
        self.ttl = ttl
        self.pause = pause
        self.local = RenderCache()
        self.hits = self.misses = self.errors = 0
        self._paused_until = 0.0

    @property
    def paused(self) -> bool:
        """Redis failed less than ``pause`` seconds ago: the worker's LRU answers alone."""
        return time.monotonic() < self._paused_until

    def get(self, key: str) -> bytes | None:
        value = None
        if not self.paused:
            try:
                value = self.client.get(self.prefix + key)
            except self._errors as error:
                self._failed("read", error)
        if value is None:
            value = self.local.get(key)
        if value is None:
            self.misses += 1
            return None
        self.hits += 1
        return bytes(value)

    def put(self, key: str, value: bytes) -> None:
        self.local.put(key, value)
        if self.paused:
            return
        try:
            self.client.set(self.prefix + key, value, ex=self.ttl)
        except self._errors as error:
            self._failed("write", error)

    def clear(self) -> None:
        """Drop this cache's keys (tests and benchmarks), and the counters."""
        self.local.clear()
        try:
            for key in self.client.scan_iter(match=self.prefix + "*", count=500):
                self.client.delete(key)
        except self._errors as error:
            self._failed("clear", error)
        self.hits = self.misses = self.errors = 0
        self._paused_until = 0.0

    def __len__(self) -> int:
        return sum(1 for _ in self.client.scan_iter(match=self.prefix + "*", count=500))

    def _failed(self, what: str, error: Exception) -> None:
        self.errors += 1
        self._paused_until = time.monotonic() + self.pause
        log.warning(
            "roster PDF cache: Redis %s failed (%s); this worker renders with its own cache for %g s",
            what,
            error,
            self.pause,
        )


def cache_from_env() -> RenderCache | RedisCache:
    """Redis when ``REDIS_URL`` is set, else an in-process LRU."""
    url = os.environ.get("REDIS_URL")
    return RedisCache(url) if url else RenderCache()
