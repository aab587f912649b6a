"""The package's layers (docs/architecture.md), checked from its imports.

A room is a top-level module of ``listbuilder`` or one of its packages (``web/``, ``combat/``),
plus the entry points beside it (``wsgi.py``, ``benchmarks/``). Every import counts, at the top
of a module or inside a function or an ``if TYPE_CHECKING`` block: each says which room needs
which. A room's floor is one above the highest floor it imports. Run this file with Python to
print the floors: ``python tests/test_layers.py``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "listbuilder"
MAX_FLOORS = 12
MAX_WEB_FLOORS = 3
# The pure core: no web framework, YAML, schema library or PDF renderer, not even through
# another module of the package.
CORE = (
    "model/",
    "validation.py",
    "issue_data.py",
    "dice.py",
    "resolve/",
    "deployment.py",
    "rules.py",
    "families.py",
    "sheets.py",
    "systems/",
    "combat/",
)
EDGE_LIBRARIES = (
    "flask",
    "flask_smorest",
    "werkzeug",
    "webargs",
    "marshmallow",
    "yaml",
    "weasyprint",
    "sqlalchemy",
    "alembic",
)


def _imports(path: Path, *, at_run_time: bool = False) -> Iterable[str]:
    """Modules *path* imports; with *at_run_time*, not those named only for annotations."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    skipped = set()
    if at_run_time:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                skipped.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def _room(path: Path, base: Path) -> str:
    parts = path.relative_to(base).parts
    return parts[0] + "/" if len(parts) > 1 else parts[0]


def _module_room(module: str, base: Path) -> str | None:
    """The room of ``listbuilder.<name>...`` within *base*, or None for anything else."""
    parts = module.split(".")
    if len(parts) < 2 or parts[0] != "listbuilder":
        return None
    if (base / parts[1]).is_dir():
        return parts[1] + "/"
    return parts[1] + ".py" if (base / f"{parts[1]}.py").is_file() else None


def graph(base: Path = PACKAGE, *, at_run_time: bool = False) -> dict[str, set[str]]:
    """Room -> the rooms it imports, for the modules under *base* (``listbuilder`` or a package of it)."""
    edges: dict[str, set[str]] = {}
    for path in base.rglob("*.py"):
        if "migrations" in path.parts:
            continue
        room = _room(path, base)
        targets = edges.setdefault(room, set())
        for module in _imports(path, at_run_time=at_run_time):
            if base != PACKAGE:  # inside a package: listbuilder.web.x.y -> x
                prefix = "listbuilder." + ".".join(base.relative_to(PACKAGE).parts)
                module = "listbuilder" + module[len(prefix) :] if module.startswith(prefix + ".") else ""
            target = _module_room(module, base)
            if target is not None and target != room:
                targets.add(target)
    return edges


def floors(edges: dict[str, set[str]]) -> dict[str, int]:
    """Each room's floor; raises ValueError naming a loop of imports (no floor order exists)."""
    found: dict[str, int] = {}

    def floor(room: str, path: tuple[str, ...]) -> int:
        if room in path:
            raise ValueError("rooms import each other: " + " -> ".join((*path[path.index(room) :], room)))
        if room not in found:
            found[room] = 1 + max((floor(t, (*path, room)) for t in edges.get(room, ())), default=0)
        return found[room]

    for room in edges:
        floor(room, ())
    return found


def _whole_house() -> dict[str, set[str]]:
    edges = graph()
    for entry in (ROOT / "wsgi.py", *sorted((ROOT / "benchmarks").glob("*.py"))):
        name = "benchmarks/" if entry.parent.name == "benchmarks" else entry.name
        edges.setdefault(name, set()).update(r for m in _imports(entry) if (r := _module_room(m, PACKAGE)))
    return edges


def test_no_room_imports_a_room_above_it_and_the_house_has_at_most_twelve_floors():
    stack = floors(_whole_house())  # raises on any import running back up
    assert max(stack.values()) <= MAX_FLOORS, sorted(stack.items(), key=lambda item: -item[1])


def test_the_web_layer_spans_at_most_three_floors():
    stack = floors(graph(PACKAGE / "web"))
    assert max(stack.values()) <= MAX_WEB_FLOORS, stack


def test_the_core_imports_no_edge_library():
    # At run time: the core may name the loader's BookRegistry in an annotation.
    edges = graph(at_run_time=True)
    reached = set(CORE)
    todo = list(CORE)
    while todo:
        for target in edges.get(todo.pop(), ()):
            if target not in reached:
                reached.add(target)
                todo.append(target)
    offenders = {}
    for room in reached:
        paths = [PACKAGE / room] if room.endswith(".py") else list((PACKAGE / room).rglob("*.py"))
        for path in paths:
            bad = {m.split(".")[0] for m in _imports(path, at_run_time=True)} & set(EDGE_LIBRARIES)
            if bad:
                offenders[str(path.relative_to(ROOT))] = sorted(bad)
    assert offenders == {}


def test_a_loop_of_imports_is_refused():
    try:
        floors({"a.py": {"b.py"}, "b.py": {"a.py"}})
    except ValueError as exc:
        assert "a.py -> b.py -> a.py" in str(exc)
    else:
        raise AssertionError("a loop was given floors")


if __name__ == "__main__":
    where = PACKAGE / sys.argv[1] if len(sys.argv) > 1 else None
    stack = floors(graph(where) if where else _whole_house())
    for room, floor in sorted(stack.items(), key=lambda item: (-item[1], item[0])):
        print(f"{floor:3}  {room}")
