"""Army books and game systems: reading them from YAML, caching, checking, editions, stored imports.

Modules:

- ``loader``: systems and books read from folders (``load_registry``) or from text, every problem at once
- ``registry``: ``BookRegistry`` (what was loaded, by id) and ``BookLoadError``
- ``settings``: which folders books are read from, and where the cache is kept
- ``parsing``: a file's text -> plain data (YAML through ``safe_load``, JSON)
- ``schemas``: plain data -> model objects through the family's schema, refusals as problems
- ``checks``: what a schema cannot see, shared by every family (references, warnings, problems)
- ``lines``: the line of a file that a problem's path points at
- ``cache``: parsed books kept on disk between starts, keyed by the files' digests and our code
- ``editions``: which edition of a book a list was built for, and the note that says so
- ``stored``: books imported through the API (``importers.stored``), found again by id in the database

May import: the core (``model``, ``validation``, ``families``, ``systems``), ``formats``,
``util``; ``stored`` also the store. The core never imports it, but for naming
``BookRegistry`` in annotations.
"""
