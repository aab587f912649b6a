"""Golden lists: every file under tests/golden/<system>/ is validated and its codes checked.

A golden file is ``{"description", "list", "valid", "codes"}``; ``codes`` is the exact
multiset of issue codes the list must produce (order ignored).
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from listbuilder.lists.documents import parse_list, validate_list
from tests.conftest import GOLDEN

CASES = sorted(GOLDEN.glob("*/*.json"))


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_golden_list(path, registry):
    case = json.loads(path.read_text(encoding="utf-8"))
    report = validate_list(registry, parse_list(case["list"]))
    assert Counter(report.codes) == Counter(case["codes"]), json.dumps(report.as_dict(), indent=1)
    assert report.valid is case["valid"]


def test_every_system_has_legal_and_illegal_goldens(registry):
    for system in registry.systems:
        cases = [json.loads(p.read_text()) for p in GOLDEN.glob(f"{system}/*.json")]
        assert any(c["valid"] for c in cases), f"{system}: no legal golden list"
        assert any(not c["valid"] for c in cases), f"{system}: no illegal golden list"
