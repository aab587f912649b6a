"""Modules loaded on first use, so start-up does not pay for what a request may never need.

The saved-list store pulls in SQLAlchemy (about a third of a cold start); the pages and the
API that never touch the database should not wait for it. ``lazy_module`` hands out the module
object at once and runs its code the first time an attribute is read. ``wsgi.py`` touches the
store before gunicorn forks, so served workers never pay the import inside a request.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any


class _Deferred(ModuleType):
    """Stands for a module not run yet: reading an attribute imports the module (once) and
    from then on every read, write and deletion goes to it (``_Loaded``).

    importlib's own ``LazyLoader`` is not safe with threads before Python 3.12: the module's
    class is switched before its code has run, so a second thread reading an attribute
    meanwhile finds it missing (threaded gunicorn workers answered 500 to their first
    concurrent saved-list requests). ``importlib.import_module`` holds the import system's
    lock for the module, so threads that arrive together wait for the one import, and it
    returns only once the module has run.
    """

    def __getattr__(self, name: str) -> Any:
        # Another thread may turn this into a _Loaded meanwhile: touch only our own slots.
        module = importlib.import_module(ModuleType.__getattribute__(self, "__name__"))
        ModuleType.__getattribute__(self, "__dict__")["_loaded"] = module
        object.__setattr__(self, "__class__", _Loaded)  # later reads skip __getattr__
        return getattr(module, name)


class _Loaded(ModuleType):
    """A ``_Deferred`` whose module has run: a plain forwarder to it."""

    def __getattribute__(self, name: str) -> Any:
        return getattr(ModuleType.__getattribute__(self, "__dict__")["_loaded"], name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(ModuleType.__getattribute__(self, "__dict__")["_loaded"], name, value)

    def __delattr__(self, name: str) -> None:
        delattr(ModuleType.__getattribute__(self, "__dict__")["_loaded"], name)


def lazy_module(name: str) -> ModuleType:
    """The module *name* if already loaded, else a stand-in that loads it on first attribute
    access (``_Deferred``).

    Raises ModuleNotFoundError at once for a name that does not exist (the spec is found
    eagerly; only executing the module is deferred).
    """
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"no module named {name!r}", name=name)
    return _Deferred(name)


def load_now(*modules: ModuleType) -> None:
    """Run each lazily loaded module's code now if it has not run (before a server forks, so
    that no worker runs it inside a request)."""
    for module in modules:
        importlib.import_module(module.__name__)
