"""Modules loaded on first use, so start-up does not pay for what a request may never need.

The saved-list store pulls in SQLAlchemy (about a third of a cold start); the pages and the
API that never touch the database should not wait for it. ``lazy_module`` hands out the module
object at once and runs its code the first time an attribute is read. ``wsgi.py`` touches the
store before gunicorn forks, so served workers never pay the import inside a request.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module *name*, imported now if already loaded, else on first attribute access.

    Raises ModuleNotFoundError at once for a name that does not exist (the spec is found
    eagerly; only executing the module is deferred).
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def load_now(*modules: ModuleType) -> None:
    """Run each lazily loaded module's code now if it has not run (before a server forks, so
    that no worker runs it inside a request). Reading any attribute of one runs it."""
    for module in modules:
        module.__dict__  # noqa: B018 - the read is the point
