"""Every third-party package the code imports is declared in pyproject.toml, and private names
of other packages are used only in listbuilder/compat/ (issue 27)."""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
OURS = {"listbuilder", "tests", "wsgi", "deploy"}  # deploy/: the production stack beside the package


def imported_modules(folder: Path) -> set[str]:
    """Top-level names of the modules imported anywhere under *folder* (not the standard library's)."""
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.add(node.module.split(".")[0])
    return found - set(sys.stdlib_module_names) - OURS


def declared(requirements: list[str]) -> set[str]:
    return {normalise(re.split(r"[\[<>=!~;\s]", requirement, maxsplit=1)[0]) for requirement in requirements}


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def distributions(modules: set[str]) -> dict[str, set[str]]:
    """The installed distribution(s) each module comes from."""
    owners = packages_distributions()
    return {module: {normalise(d) for d in owners.get(module, [module])} for module in modules}


def test_every_package_the_service_imports_is_a_declared_dependency():
    runtime = declared(PROJECT["dependencies"])
    missing = {m: d for m, d in distributions(imported_modules(ROOT / "listbuilder")).items() if not d & runtime}
    assert missing == {}


def test_every_package_the_tests_import_is_declared_for_the_tests():
    everything = declared(PROJECT["dependencies"]) | declared(PROJECT["optional-dependencies"]["test"])
    missing = {m: d for m, d in distributions(imported_modules(ROOT / "tests")).items() if not d & everything}
    assert missing == {}


# ``x._name`` (one underscore: not a dunder such as __init__), and webargs' __location_map__.
PRIVATE_ATTRIBUTE = re.compile(r"\b(?!self\b|cls\b)(\w+|\))\._(?!_)\w+|__location_map__")
# Where listbuilder defines a private name of its own: def/class, or an assignment to a name,
# a class attribute or an attribute of self/cls.
OWN_DEFINITION = re.compile(r"(?:def|class)\s+(_\w+)|^\s*(?:(?:self|cls)\.)?(_\w+)\s*(?::[^=\n]*)?=(?!=)", re.M)


def test_private_names_of_other_packages_are_used_only_in_compat():
    """Outside listbuilder/compat/, no ``x._name`` but for names listbuilder defines itself."""
    sources = {path: path.read_text(encoding="utf-8") for path in (ROOT / "listbuilder").rglob("*.py")}
    ours = {name for text in sources.values() for match in OWN_DEFINITION.findall(text) for name in match if name}
    ours |= {"_serialize", "_deserialize"}  # marshmallow documents these as a custom field's methods
    found = []
    for path, text in sources.items():
        if "compat" in path.relative_to(ROOT).parts:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            for match in PRIVATE_ATTRIBUTE.finditer(line.split("#", 1)[0]):
                if match.group(0).rsplit(".", 1)[-1] not in ours:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {match.group(0)}")
    assert found == []
