"""Lazily loaded modules: loaded once, on first use, and safe when threads arrive together."""

from __future__ import annotations

import sys
import threading

from listbuilder.util.lazy import lazy_module, load_now


def slow_module(folder, name: str) -> None:
    """A module whose code takes a while to run (as SQLAlchemy's import does) before it
    defines ``answer``."""
    (folder / f"{name}.py").write_text("import time\ntime.sleep(0.2)\nanswer = 42\n")


def test_threads_reading_a_lazy_module_together_all_find_its_attributes(tmp_path, monkeypatch):
    # Threaded gunicorn workers: the first requests reached listbuilder.store.lists together
    # and all but one found no read_head (importlib's LazyLoader on Python 3.11) - a 500 each.
    slow_module(tmp_path, "lb_lazy_threads")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = lazy_module("lb_lazy_threads")
    assert "lb_lazy_threads" not in sys.modules or type(sys.modules["lb_lazy_threads"]).__name__ != "module"
    gate, found = threading.Barrier(8), []

    def read() -> None:
        gate.wait()
        try:
            found.append(module.answer)
        except AttributeError as exc:
            found.append(exc)

    threads = [threading.Thread(target=read) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert found == [42] * 8
    monkeypatch.delitem(sys.modules, "lb_lazy_threads")


def test_a_lazy_module_runs_only_when_used_or_loaded_now(tmp_path, monkeypatch):
    slow_module(tmp_path, "lb_lazy_later")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = lazy_module("lb_lazy_later")
    assert "lb_lazy_later" not in sys.modules
    load_now(module)
    assert sys.modules["lb_lazy_later"].answer == 42 and module.answer == 42
    assert lazy_module("lb_lazy_later") is sys.modules["lb_lazy_later"]
    monkeypatch.delitem(sys.modules, "lb_lazy_later")
