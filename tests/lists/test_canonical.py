"""The canonical list document and the verification code printed on every roster."""

from __future__ import annotations

import json
from pathlib import Path

from listbuilder.lists.canonical import canonical_json, list_document, rules_version, verification_code
from listbuilder.lists.documents import parse_list

GOLDEN = Path(__file__).parent.parent / "golden"


def _golden(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))["list"]


def test_canonical_document_reads_back_to_the_same_list():
    data = _golden("grimdark-future/legal-2000-cinder-covenant.json")
    army = parse_list(data)
    assert parse_list(list_document(army)) == army


def test_spelling_does_not_change_the_canonical_json():
    data = _golden("age-of-fantasy/legal-2000-ember-marches.json")
    shuffled = dict(reversed(list(data.items())))
    shuffled["units"] = [dict(reversed(list(u.items()))) for u in data["units"]]
    assert canonical_json(parse_list(shuffled)) == canonical_json(parse_list(data))


def test_armour_hex_budget_and_mode_are_part_of_the_document():
    data = _golden("armour-hex/legal-asymmetric-armour-declared-sylvan.json")
    document = list_document(parse_list(data))
    assert document["game_mode"] == data["game_mode"]
    assert {k: v for k, v in document["budget"].items() if v} == {k: v for k, v in data["budget"].items() if v}


def test_verification_code_is_short_readable_and_changes_with_the_list_or_rules(registry):
    army = parse_list(_golden("grimdark-future/legal-2000-cinder-covenant.json"))
    book, system = registry.books[army.book], registry.systems[army.system]
    version = rules_version(book, system)
    code = verification_code(army, version)
    assert len(code) == 9 and code[4] == "-"
    assert not set(code) & set("ILOU")
    assert verification_code(army, version) == code
    renamed = parse_list({**list_document(army), "name": army.name + "!"})
    assert verification_code(renamed, version) != code
    assert verification_code(army, "another-book-version") != code


def test_rules_version_follows_the_file_digests(registry):
    book = registry.books["gf-cinder-covenant"]
    system = registry.systems[book.system]
    assert len(book.digest) == 64 and len(system.digest) == 64
    assert rules_version(book, system) != rules_version(registry.books["gf-spore-choir"], system)
