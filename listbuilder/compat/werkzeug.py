"""werkzeug internals we rely on (written against werkzeug 3.1): URL rules that compile their
URL builders when first used.

werkzeug compiles two functions per rule as the rule is bound to its map (one builds its URL,
one builds it with extra query arguments), each through ``ast`` and ``compile``: a large part of
``create_app`` for an app of our size. Only ``url_for`` calls them, and for a handful of
endpoints; matching a request never does. So the app's rules (``app.url_rule_class``) override
the private ``Rule._compile_builder`` to hand werkzeug a builder that compiles the real one on
its first call and passes every call to it. ``tests/compat/test_werkzeug.py`` checks that
binding a rule and building its URL still go through it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule


class LazyBuilderRule(Rule):
    """A werkzeug Rule whose URL builders are compiled on their first use."""

    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        compile_builder = super()._compile_builder
        compiled: list[Callable[..., tuple[str, str]]] = []

        def build(rule: Rule, **values: Any) -> tuple[str, str]:
            if not compiled:
                compiled.append(compile_builder(append_unknown))
            return compiled[0](rule, **values)

        return build
