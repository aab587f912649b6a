"""marshmallow internals we rely on (written against marshmallow 4.4): a cheaper table of a
schema class's decorated methods.

When a schema class is made, marshmallow's ``SchemaMeta.__init__`` asks ``resolve_hooks`` for
the class's ``@pre_load``/``@post_dump``/``@validates``... methods and keeps the answer as the
private ``_hooks``, which every load and dump reads. marshmallow's own ``resolve_hooks`` walks
every name ``dir()`` gives (the hundred-odd methods of ``marshmallow.Schema`` included), looks
each up along the class's MRO and catches an AttributeError for each name that is not a hook:
for the hundred-odd schema classes our API defines at import, a large part of start-up.

:class:`HookTableMeta` gives the same table from our own classes' ``__dict__`` only: a name
that only marshmallow's base classes define is never a hook (they decorate nothing), and a
name we define shadows theirs. The table's shape (tag -> ``(name, many, kwargs)`` in ``dir()``
order) is marshmallow's. ``tests/compat/test_marshmallow.py`` checks that marshmallow still
asks the metaclass's hook when a class is made, and that the table equals marshmallow's own
for every schema class in ``listbuilder``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import marshmallow
from marshmallow.schema import SchemaMeta

# marshmallow's own classes: what they define carries no hook (checked by the test)
_MARSHMALLOW_OWN = frozenset(marshmallow.Schema.__mro__)


class HookTableMeta(SchemaMeta):
    """marshmallow's schema metaclass with a ``resolve_hooks`` that reads only our classes."""

    def resolve_hooks(cls) -> dict[str, list[tuple[str, bool, dict[str, Any]]]]:
        defined: dict[str, Any] = {}
        for parent in reversed(cls.__mro__):  # nearest last, so its definition wins
            if parent not in _MARSHMALLOW_OWN:
                defined.update(vars(parent))
        hooks: dict[str, list[tuple[str, bool, dict[str, Any]]]] = defaultdict(list)
        for name in sorted(defined):  # dir()'s order, as marshmallow lists them
            config = getattr(defined[name], "__marshmallow_hook__", None)
            if config is not None:
                for tag, entries in config.items():
                    hooks[tag].extend((name, many, kwargs) for many, kwargs in entries)
        return hooks
