"""The package's layers (docs/architecture.md), checked from its imports.

A room is a module at the root of ``listbuilder`` (``families.py``, ``cli.py``), one of its
packages (``books/``, ``printing/``, ``web/``: a folder is one room, whatever it holds), or an
entry point beside the package (``wsgi.py``, ``benchmarks/``). Every import counts, at the top
of a module or inside a function or an ``if TYPE_CHECKING`` block: each says which room needs
which. A room's floor is one above the highest floor it imports. Run this file with Python to
print the floors: ``python tests/test_layers.py``.

The pure core is checked module by module: from each of its modules, every module it imports
(and each package ``__init__`` that import runs), transitively, imports no edge library.

A package is entered through its front door: from outside it, code imports the package itself
(the names its ``__init__`` defines) or one of the modules its docstring lists as
``- ``name``: what it is for``, never a module it does not list and never a ``_private`` name.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "listbuilder"
MAX_FLOORS = 12
MAX_WEB_FLOORS = 3
MAX_ROOT_MODULES = 8
# The pure core: no web framework, YAML, schema library or PDF renderer, not even through
# another module of the package.
CORE = (
    "model/",
    "validation.py",
    "issue_data.py",
    "dice.py",
    "resolve/",
    "resolve/deployment.py",
    "families.py",
    "printing/sheets.py",
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
ENTRY_POINTS = (ROOT / "wsgi.py", *sorted((ROOT / "benchmarks").glob("*.py")))


def _parsed(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _import_nodes(path: Path, *, at_run_time: bool = False) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every absolute import of *path*; with *at_run_time*, not those named only for annotations."""
    tree = _parsed(path)
    skipped = set()
    if at_run_time:
        for node in ast.walk(tree):
            if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
                skipped.update(id(n) for child in node.body for n in ast.walk(child))
    for node in ast.walk(tree):
        if id(node) not in skipped and (
            isinstance(node, ast.Import) or (isinstance(node, ast.ImportFrom) and node.level == 0)
        ):
            yield node


def _imports(path: Path, *, at_run_time: bool = False) -> Iterable[str]:
    """Modules *path* imports (and, for ``from m import n``, ``m.n`` in case ``n`` is a module)."""
    for node in _import_nodes(path, at_run_time=at_run_time):
        if isinstance(node, ast.ImportFrom) and node.module:
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
    for entry in ENTRY_POINTS:
        name = "benchmarks/" if entry.parent.name == "benchmarks" else entry.name
        edges.setdefault(name, set()).update(r for m in _imports(entry) if (r := _module_room(m, PACKAGE)))
    return edges


def test_no_room_imports_a_room_above_it_and_the_house_has_at_most_twelve_floors():
    stack = floors(_whole_house())  # raises on any import running back up
    assert max(stack.values()) <= MAX_FLOORS, sorted(stack.items(), key=lambda item: -item[1])


def test_the_web_layer_spans_at_most_three_floors():
    stack = floors(graph(PACKAGE / "web"))
    assert max(stack.values()) <= MAX_WEB_FLOORS, stack


def _files_run_by(module: str) -> list[Path]:
    """The files importing *module* runs: each package ``__init__`` on its way, then the module
    (or package) itself; nothing for a name that is not a module of ours."""
    parts = module.split(".")
    if parts[0] != "listbuilder":
        return []
    files = []
    for depth in range(1, len(parts) + 1):
        here = ROOT.joinpath(*parts[:depth])
        if (here / "__init__.py").is_file():
            files.append(here / "__init__.py")
        elif here.with_suffix(".py").is_file():
            files.append(here.with_suffix(".py"))
        else:
            break
    return files


def test_the_core_imports_no_edge_library():
    # At run time: the core may name the loader's BookRegistry in an annotation.
    core = [p for name in CORE for p in ([PACKAGE / name] if name.endswith(".py") else (PACKAGE / name).rglob("*.py"))]
    reached, todo, offenders = set(core), list(core), {}
    while todo:
        path = todo.pop()
        imported = set(_imports(path, at_run_time=True))
        bad = {m.split(".")[0] for m in imported} & set(EDGE_LIBRARIES)
        if bad:
            offenders[str(path.relative_to(ROOT))] = sorted(bad)
        for module in imported:
            for found in _files_run_by(module):
                if found not in reached:
                    reached.add(found)
                    todo.append(found)
    assert offenders == {}
    assert PACKAGE / "util" / "words.py" in reached  # the walk follows the core into what it imports


def test_a_loop_of_imports_is_refused():
    try:
        floors({"a.py": {"b.py"}, "b.py": {"a.py"}})
    except ValueError as exc:
        assert "a.py -> b.py -> a.py" in str(exc)
    else:
        raise AssertionError("a loop was given floors")


# --------------------------------------------------------------------------------------------
# The root stays small, and every package is entered through its front door

BULLET = re.compile(r"^\s*- ((?:``\w+``(?:, )?)+):", re.MULTILINE)  # "- ``a``, ``b``: what they are for"


def test_the_root_holds_at_most_eight_modules_and_no_two_share_a_first_word():
    modules = sorted(p.stem for p in PACKAGE.glob("*.py"))
    assert len(modules) <= MAX_ROOT_MODULES, modules
    first_words = [m.strip("_").split("_")[0] for m in modules]
    assert len(set(first_words)) == len(first_words), modules  # roster_x beside rosters is a folder in disguise


def packages() -> list[Path]:
    return sorted(p.parent for p in PACKAGE.rglob("__init__.py") if "migrations" not in p.parts)


def front_door(package: Path) -> tuple[set[str], set[str]]:
    """The modules a package's docstring lists, and the names its ``__init__`` defines or imports."""
    tree = _parsed(package / "__init__.py")
    listed = {name for names in BULLET.findall(ast.get_docstring(tree) or "") for name in re.findall(r"\w+", names)}
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                names.update(ast.literal_eval(node.value))  # given on first use by a module __getattr__
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return listed, names


def back_doors(path: Path) -> list[str]:
    """Every import in *path* that enters a package it is not in other than by the front door."""
    found = []
    doors = {package: front_door(package) for package in packages()}
    for node in _import_nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module:
            targets = [(node.module, alias.name) for alias in node.names]
        else:
            targets = [(alias.name, None) for alias in node.names]  # type: ignore[union-attr]
        for module, name in targets:
            if not module.startswith("listbuilder"):
                continue
            dotted = module.split(".") + ([name] if name else [])
            if name and name.startswith("_"):
                found.append(f"{module}.{name}: a private name")
            for depth in range(2, len(dotted)):
                package = PACKAGE.joinpath(*dotted[1:depth])
                if package not in doors or package in path.parents:
                    continue
                listed, names = doors[package]
                entry = dotted[depth]
                is_module = (package / f"{entry}.py").is_file() or (package / entry).is_dir()
                if is_module and entry not in listed:
                    found.append(f"{'.'.join(dotted[: depth + 1])}: not listed in {package.name}/__init__.py")
                elif not is_module and depth == len(dotted) - 1 and entry not in names:
                    found.append(f"{'.'.join(dotted)}: not a name {package.name}/__init__.py gives")
                if is_module:
                    continue
                break
    return found


def test_every_package_is_entered_through_the_names_its_init_or_its_documented_modules_give():
    sources = [p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts]
    found = {str(p.relative_to(ROOT)): bad for p in [*sources, *ENTRY_POINTS] if (bad := back_doors(p))}
    assert found == {}


def test_every_module_a_package_lists_exists():
    missing = {}
    for package in packages():
        listed, _ = front_door(package)
        gone = sorted(m for m in listed if not (package / f"{m}.py").is_file() and not (package / m).is_dir())
        if gone:
            missing[str(package.relative_to(ROOT))] = gone
    assert missing == {}


def test_a_back_door_is_seen(tmp_path, monkeypatch):
    intruder = tmp_path / "intruder.py"
    intruder.write_text(
        "from listbuilder.books.parsing import _json_text\nimport listbuilder.combat.opr.fight\n", encoding="utf-8"
    )
    assert back_doors(intruder) == [
        "listbuilder.books.parsing._json_text: a private name",
        "listbuilder.combat.opr.fight: not listed in opr/__init__.py",
    ]


if __name__ == "__main__":
    where = PACKAGE / sys.argv[1] if len(sys.argv) > 1 else None
    stack = floors(graph(where) if where else _whole_house())
    for room, floor in sorted(stack.items(), key=lambda item: (-item[1], item[0])):
        print(f"{floor:3}  {room}")
