"""Size limits of the package (docs/architecture.md): no module over 600 lines, no class over
300, no function or method over 80. A long unit is a sign it does several jobs; split it by
job rather than raising a limit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "listbuilder"
MODULE_LINES, CLASS_LINES, FUNCTION_LINES = 600, 300, 80


def sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def oversized(path: Path) -> list[str]:
    """Every module, class and function of *path* over its limit, as ``what name: lines``."""
    text = path.read_text(encoding="utf-8")
    found = []
    lines = text.count("\n") + (not text.endswith("\n"))
    if lines > MODULE_LINES:
        found.append(f"module: {lines} lines (limit {MODULE_LINES})")
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.ClassDef):
            limit, kind = CLASS_LINES, "class"
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            limit, kind = FUNCTION_LINES, "function"
        else:
            continue
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        length = node.end_lineno - start + 1  # type: ignore[operator]
        if length > limit:
            found.append(f"{kind} {node.name}: {length} lines (limit {limit})")
    return found


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(PACKAGE.parent)))
def test_no_module_class_or_function_over_its_size_limit(path):
    assert oversized(path) == []


def test_the_size_check_sees_an_oversized_function(tmp_path):
    body = "\n".join(f"    x{i} = {i}" for i in range(FUNCTION_LINES))
    big = tmp_path / "big.py"
    big.write_text(f"def long():\n{body}\n", encoding="utf-8")
    assert oversized(big) == [f"function long: {FUNCTION_LINES + 1} lines (limit {FUNCTION_LINES})"]
