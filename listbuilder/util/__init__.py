"""Small helpers with no subject of their own, shared by several packages.

Modules:

- ``lazy``: a module or a blueprint imported on first use, so start-up loads only what it needs
- ``lru``: a small thread-safe least-recently-used mapping for per-process caches
- ``gc_pause``: the garbage collector paused while a big batch of objects is built
- ``digest``: the SHA-256 a book or system text is known and kept by
- ``words``: English for messages a player reads (counts with the right noun)

May import: the standard library only. Everything in the package may import it.
"""
