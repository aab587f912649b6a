"""Army Forge book import, on small Army Forge-shaped books written for these tests
(tests/fixtures/army_forge): every section shape the format has, gear named loosely, rules
defined by the export or nowhere, and every way a file can be refused."""

from __future__ import annotations

import copy
import json
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from listbuilder.books.loader import load_registry
from listbuilder.importers import ImportFailed
from listbuilder.importers.army_forge_book import convert_book
from listbuilder.importers.book_files import book_yaml
from listbuilder.lists.documents import parse_list, validate_list
from listbuilder.resolve import resolve_entry
from tests.conftest import BOOKS

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "army_forge"


def fixture(name: str) -> dict:
    return json.loads((FIXTURES / f"{name}.json").read_text())


@pytest.fixture(scope="module")
def rustbound(registry):
    return convert_book(fixture("gf-rustbound-book"), registry.systems)


@pytest.fixture(scope="module")
def with_rustbound(registry, rustbound):
    return replace(registry, books={**registry.books, rustbound.book.id: rustbound.book})


def entry(book, unit_id, *rows):
    army = parse_list(
        {
            "system": book.system,
            "book": book.id,
            "units": [
                {"key": "a", "unit": unit_id, "upgrades": [{"section": s, "option": o, "count": c} for s, o, c in rows]}
            ],
        }
    )
    book.resolution_memo.clear()
    return resolve_entry(book, army.units[0], 0)


def test_book_keeps_units_stats_gear_and_costs(rustbound):
    book = rustbound.book
    assert (book.id, book.system, book.version, book.faction) == (
        "gf-rustbound-salvagers",
        "grimdark-future",
        "3.5.2",
        "Salvage Crews",
    )
    walker = book.unit("junk-walker")
    assert (walker.size, walker.cost["pts"], walker.stat("quality"), walker.stat("defense")) == (1, 140, 4, 3)
    assert [r.label for r in walker.rules] == ["Tough(6)"]  # the rating came as the text "6"
    assert [(w.name, w.count, w.attacks, [r.label for r in w.rules]) for w in walker.weapons] == [
        ("Walker Fist", 2, 3, ["AP(1)"]),
        ("Rivet Gun", 1, 1, ["AP(1)"]),
    ]
    riders = book.unit("scrap-riders")
    assert [(i.name, i.count, [r.label for r in i.rules]) for i in riders.items] == [("Crash Cage", 3, ["Shielded"])]


def test_same_name_profiles_get_ids_and_units_own_gear_keeps_the_name(rustbound):
    book = rustbound.book
    assert [(w.name, w.id, w.attacks) for w in book.unit("scrap-boss").weapons if w.name == "Hand Tool"] == [
        ("Hand Tool", "", 2)
    ]
    assert [(w.name, w.id, w.attacks) for w in book.unit("salvagers").weapons if w.name == "Hand Tool"] == [
        ("Hand Tool", "hand-tool-2", 1)
    ]
    swap = book.sections["replace-all-hand-tools"].options[0].gains.weapons[0]
    assert (swap.name, swap.id, swap.attacks) == ("Hand Tool", "hand-tool-3", 2)


def test_plural_targets_name_the_units_gear(rustbound):
    sections = rustbound.book.sections
    assert sections["replace-any-scrap-rifles"].replaces == ("Scrap Rifle",)
    assert sections["replace-all-hand-tools"].replaces == ("Hand Tool",)


@pytest.mark.parametrize(
    "section, variant, affects, count, pick",
    [
        ("replace-rivet-gun", "replace", "one", None, (0, 1)),  # "Replace X"
        ("replace-any-scrap-rifles", "replace", "any", None, (0, 1)),  # affects any
        ("replace-up-to-two-scrap-rifles", "replace", "up_to", 2, (0, 1)),  # affects up to 2
        ("replace-all-hand-tools", "replace", "all", None, (0, 1)),  # affects all
        ("any-model-may-replace-2x-hand-tool", "replace", "any", None, (0, 1)),  # exactly 1 + select any
        ("upgrade-with-one", "upgrade", "unit", None, (0, 1)),  # select exactly 1
        ("upgrade-with-any", "upgrade", "unit", None, (0, None)),  # select any
        ("upgrade-one-model-with", "upgrade", "one", None, (0, None)),  # affects exactly 1
        ("upgrade-any-walker-fist-with-one", "upgrade", "any", None, (0, 1)),  # tied to a weapon
        ("upgrade-all-scrap-rifles-with", "upgrade", "all", None, (0, None)),
        ("take-one-scrap-rifle-attachment", "attachment", "unit", None, (0, 1)),
    ],
)
def test_section_shapes_translate(rustbound, section, variant, affects, count, pick):
    s = rustbound.book.sections[section]
    assert (s.variant, s.affects, s.affects_count, (s.pick_min, s.pick_max)) == (variant, affects, count, pick)


def test_replace_2x_and_gains_counted_as_text(rustbound):
    book = rustbound.book
    section = book.sections["any-model-may-replace-2x-hand-tool"]
    assert section.replace_counts == {"Hand Tool": 2}
    prods = section.option("shock-prod").gains.weapons[0]
    assert (prods.name, prods.count) == ("Shock Prod", 2)  # the export sent count "02"
    resolved, issues = entry(book, "scrap-riders", ("any-model-may-replace-2x-hand-tool", "shock-prod", 3))
    assert issues == []
    assert {w.name: w.count for w in resolved.weapons} == {"Shock Prod": 6}


def test_negative_and_per_unit_costs(rustbound):
    book = rustbound.book
    lance = book.sections["replace-rivet-gun"].option("drill-lance")
    assert lance.cost_for("scrap-boss")["pts"] == -5
    tools = book.sections["replace-all-hand-tools"].option("hand-tool")
    assert (tools.cost_for("salvagers")["pts"], tools.cost_for("scrap-riders")["pts"]) == (15, 20)


def test_weapon_inside_an_item(rustbound):
    resolved, issues = entry(rustbound.book, "scrap-boss", ("upgrade-with-one-2", "scrap-bike", 1))
    assert issues == []
    spikes = next(w for w in resolved.weapons if w.name == "Ram Spikes")
    assert (spikes.attacks, spikes.carried_by, [r.label for r in spikes.rules]) == (2, "Scrap Bike", ["AP(1)"])
    assert {"Fast", "Impact(2)"} <= {r.label for r in resolved.all_rules}


def test_item_ratings_add_to_the_units(rustbound):
    # 001 "Rules Priority & Stacking Effects": rules with an (X) stack, so Armor Plates' Tough(3)
    # on a Tough(6) walker makes Tough(9); the same holds for Army Forge's "modify" ratings.
    resolved, _ = entry(rustbound.book, "junk-walker", ("upgrade-with-any", "armor-plates", 1))
    assert "Tough(9)" in {r.label for r in resolved.all_rules}
    resolved, _ = entry(rustbound.book, "scrap-boss", ("upgrade-with-one", "tinkerer", 1))
    assert "Caster(1)" in {r.label for r in resolved.all_rules}


def test_item_of_weapon_rules_on_a_targeted_upgrade_changes_the_weapon(rustbound):
    book = rustbound.book
    option = book.sections["upgrade-all-scrap-rifles-with"].option("scopes")
    assert [r.label for r in option.gains.weapon_rules] == ["Rending"] and [i.name for i in option.gains.items] == [
        "Scopes"
    ]
    resolved, issues = entry(book, "salvagers", ("upgrade-all-scrap-rifles-with", "scopes", 1))
    assert issues == []
    rifles = [w for w in resolved.weapons if w.name == "Scrap Rifle"]
    assert [(w.count, [r.label for r in w.rules]) for w in rifles] == [(5, ["Rending"])]


def test_attachment_and_weapon_upgrade_are_tied_to_copies(rustbound):
    book = rustbound.book
    _, issues = entry(book, "junk-walker", ("upgrade-any-walker-fist-with-one", "fist-flamer", 2))
    assert issues == []
    _, issues = entry(book, "junk-walker", ("upgrade-any-walker-fist-with-one", "fist-flamer", 3))
    assert [i.code for i in issues] == ["upgrade.count"]
    _, issues = entry(
        book,
        "salvagers",
        ("replace-any-scrap-rifles", "spark-carbine", 5),
        ("take-one-scrap-rifle-attachment", "under-slung-net", 1),
    )
    assert [i.code for i in issues] == ["upgrade.target_exceeds"]


def test_rules_kept_with_the_exports_definition_or_flagged(rustbound, registry):
    book = rustbound.book
    assert book.rules["Salvage Sense"].text.startswith("Test rule: this unit gets Junk Fury")
    assert book.rules["Salvage Sense"].mentions == ("Junk Fury",)
    assert "Junk Fury" in book.rules  # mentioned only by another rule's text, still explained
    assert "Tough" not in book.rules and "Rending" not in book.rules  # the glossary's words win
    assert book.undefined_rules == ("Limited",)
    assert [w.path for w in rustbound.warnings] == ["undefined_rules[0]"] and "Limited" in rustbound.warnings[0].message


def test_undefined_rule_warns_on_a_list_that_stays_legal(rustbound, with_rustbound):
    army = parse_list(
        {
            "system": "grimdark-future",
            "book": rustbound.book.id,
            "units": [
                {
                    "key": "a",
                    "unit": "salvagers",
                    "upgrades": [{"section": "take-one-scrap-rifle-attachment", "option": "under-slung-net"}],
                }
            ],
        }
    )
    report = validate_list(with_rustbound, army)
    assert report.valid
    assert [(i.code, i.severity, i.data) for i in report.issues] == [
        ("rules.undefined", "warning", {"rule": "Limited"})
    ]


def test_units_disabled_sections_and_missing_packages_are_left_out_with_notes(rustbound):
    riders = rustbound.book.unit("scrap-riders")
    assert "replace-any-scrap-rifles" not in riders.upgrades  # disabledSections
    assert "replace-up-to-two-scrap-rifles" not in riders.upgrades  # it has no Scrap Rifle
    assert any("'P-gone'" in note for note in rustbound.notes)
    assert any("Scrap Riders has none of ['Scrap Rifle']" in note for note in rustbound.notes)


def test_spells_and_source_ids_kept(rustbound):
    book = rustbound.book
    assert [(s.id, s.name, s.value) for s in book.spells] == [
        ("spark-storm", "Spark Storm", 1),
        ("welded-shells", "Welded Shells", 2),
    ]
    mapping = book.extra["army_forge"]
    assert mapping["uid"] == "rustbound0000001" and mapping["units"]["uWalk01"] == "junk-walker"
    assert mapping["upgrades"]["replace-rivet-gun"] == {
        "uids": ["s-boss-gun", "s-boss-gun-id"],
        "options": {"o-plasma": "plasma-rivet", "o-lance": "drill-lance"},
    }


def test_age_of_fantasy_book_command_groups_and_rules_used_otherwise(registry):
    converted = convert_book(fixture("aof-thornwick-book"), registry.systems)
    book = converted.book
    assert book.system == "age-of-fantasy"
    section = book.sections["upgrade-up-to-three-models-with-one"]
    # 000 "Command Groups": sergeant and musician are roles here; a banner is not one in AoF 2.16.
    assert [(o.id, o.command) for o in section.options] == [
        ("sergeant", "sergeant"),
        ("musician", "musician"),
        ("banner", None),
    ]
    # AoF 2.16's Fear takes no parameter; the export's Fear(1) is flagged, not forced into it.
    assert book.undefined_rules == ("Banner", "Fear")
    assert book.rules["Caster"].param == "X"  # the glossary has Wizard(X): the export's Caster is kept


def test_yaml_written_loads_back_into_the_same_book(rustbound, tmp_path):
    folder = tmp_path / "imported" / "grimdark-future"
    folder.mkdir(parents=True)
    text = book_yaml(rustbound.document)
    assert text.startswith("# Rustbound Salvagers: imported from Army Forge")
    assert yaml.safe_load(text) == rustbound.document
    (folder / "gf-rustbound-salvagers.yaml").write_text(text)
    loaded = load_registry([BOOKS, tmp_path / "imported"]).books["gf-rustbound-salvagers"]
    assert loaded.units == rustbound.book.units
    assert dict(loaded.sections) == dict(rustbound.book.sections)
    assert loaded.rules == rustbound.book.rules and loaded.undefined_rules == rustbound.book.undefined_rules


def single_option_lists(book):
    """(unit, upgrades, list body) for every unit of *book*, bare and with each one option."""
    for unit in book.units:
        picks = [[]] + [[{"section": s.id, "option": o.id}] for s in book.sections_of(unit) for o in s.options]
        for upgrades in picks:
            body = {
                "system": book.system,
                "book": book.id,
                "units": [{"key": "a", "unit": unit.id, "upgrades": upgrades}],
            }
            yield unit, upgrades, body


def test_every_unit_and_single_option_validates_over_http(rustbound, with_rustbound):
    from listbuilder.web import create_app

    client = create_app({"TESTING": True, "REGISTRY": with_rustbound}).test_client()
    for unit, upgrades, body in single_option_lists(rustbound.book):
        response = client.post("/api/v1/lists/validate", json=body)
        assert response.status_code == 200, (unit.id, upgrades, response.get_json())


def _validate(registry, converted, unit_id, *rows):
    book = converted.book
    army = parse_list(
        {
            "system": book.system,
            "book": book.id,
            "units": [
                {"key": "a", "unit": unit_id, "upgrades": [{"section": s, "option": o, "count": c} for s, o, c in rows]}
            ],
        }
    )
    return validate_list(replace(registry, books={**registry.books, book.id: book}), army)


def test_section_with_no_options_is_skipped_with_a_note(registry):
    # Army Forge shows a section with ``"options": []`` as a heading with nothing to pick:
    # the book imports without it, at its own costs, and the note says what was left out.
    converted = convert_book(fixture("aof-briarwood-book"), registry.systems)
    book = converted.book
    assert [(u.id, u.cost["pts"]) for u in book.units] == [("oakheart", 230), ("thicket-scouts", 75)]
    assert [s.label for s in book.sections.values()] == ["Upgrade with one"]
    assert book.unit("oakheart").upgrades == ("upgrade-with-one",)
    assert any("sections[1]" in n and "'Upgrade with' offers no options; skipped" in n for n in converted.notes)
    moss = book.sections["upgrade-with-one"].options[0]
    assert (moss.cost["pts"], {k: v["pts"] for k, v in moss.unit_costs.items()}) == (15, {"thicket-scouts": 10})


def test_gear_inside_an_option_item_is_reachable_and_replaceable(registry):
    # The Gun Carriage item mounts a Heavy Machinegun; "Replace any Heavy Machinegun" is offered
    # (it used to be dropped: "has none of ['Heavy Machinegun']") and replaces the carriage's gun.
    converted = convert_book(fixture("gf-cartwright-book"), registry.systems)
    book = converted.book
    train = book.unit("road-train")
    assert train.upgrades == ("upgrade-with-one", "replace-any-heavy-machinegun", "replace-light-machinegun")
    assert not [n for n in converted.notes if "has none of" in n]
    carriage = book.sections["upgrade-with-one"].options[0]
    assert carriage.id == "gun-carriage" and [w.name for w in carriage.gains.weapons] == ["Heavy Machinegun"]
    assert [(i.name, [r.label for r in i.rules], i.weapons) for i in carriage.gains.items] == [
        ("Gun Carriage", ["Tough(3)"], ())
    ]
    report = _validate(
        registry,
        converted,
        "road-train",
        ("upgrade-with-one", "gun-carriage", 1),
        ("replace-any-heavy-machinegun", "flak-gun", 1),
    )
    assert report.totals["pts"] == 160 + 25 + 10 and not [i for i in report.issues if i.severity == "error"]
    report = _validate(registry, converted, "road-train", ("replace-any-heavy-machinegun", "flak-gun", 1))
    assert [i for i in report.issues if i.severity == "error"], "no carriage, no machinegun to replace"


def test_gear_inside_a_units_own_item_is_replaceable(registry):
    converted = convert_book(fixture("gf-cartwright-book"), registry.systems)
    train = converted.book.unit("road-train")
    assert [w.name for w in train.weapons] == ["Ram Plough", "Light Machinegun"]
    assert [(i.name, i.weapons) for i in train.items] == [("Gun Rack", ())]
    report = _validate(registry, converted, "road-train", ("replace-light-machinegun", "shock-lance", 1))
    assert report.totals["pts"] == 165 and not [i for i in report.issues if i.severity == "error"]


# -- refused files -------------------------------------------------------------------------


def _edit(data, path, value):
    target = data
    for step in path[:-1]:
        target = target[step]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()


@pytest.mark.parametrize(
    "path, value, code, where, words",
    [
        (("units", 1, "size"), "five", "malformed", "units[1].size", "expected a whole number, got 'five'"),
        (("units", 0, "weapons", 0, "attacks"), _DELETE, "malformed", "units[0].weapons[0].attacks", "missing"),
        (("units", 0, "weapons", 0, "attacks"), 0, "malformed", "units[0].weapons[0].attacks", "at least 1"),
        (
            ("upgradePackages", 0, "sections", 0, "variant"),
            "swap",
            "malformed",
            "upgradePackages[0].sections[0].variant",
            "expected one of replace, upgrade, attachment",
        ),
        (
            ("upgradePackages", 2, "sections", 0, "affects", "type"),
            "most",
            "malformed",
            "upgradePackages[2].sections[0].affects.type",
            "expected exactly, any, all or up to",
        ),
        (
            ("upgradePackages", 2, "sections", 1, "affects", "value"),
            _DELETE,
            "malformed",
            "upgradePackages[2].sections[1].affects.value",
            "'up to' needs a number",
        ),
        (
            ("upgradePackages", 4, "sections", 1, "options", 0, "gains", 0, "type"),
            "ArmyBookSpell",
            "malformed",
            "upgradePackages[4].sections[1].options[0].gains[0].type",
            "got 'ArmyBookSpell'",
        ),
        (
            ("upgradePackages", 0, "sections", 1, "options", 0, "gains", 0, "content", 0, "rating"),
            [1],
            "malformed",
            "upgradePackages[0].sections[1].options[0].gains[0].content[0].rating",
            "expected a number or text",
        ),
        (("units",), "none", "malformed", "units", "expected a list"),
        (("units", 2, "id"), "uBoss01", "malformed", "units[2].id", "unit id 'uBoss01' repeats"),
    ],
)
def test_malformed_book_names_the_source_path(registry, path, value, code, where, words):
    data = _edit(copy.deepcopy(fixture("gf-rustbound-book")), path, value)
    with pytest.raises(ImportFailed) as caught:
        convert_book(data, registry.systems)
    assert (caught.value.code, caught.value.path) == (code, where)
    assert words in caught.value.message


@pytest.mark.parametrize(
    "slug, named",
    [
        ("grimdark-future-firefight", "Grimdark Future: Firefight"),
        ("age-of-fantasy-skirmish", "Age of Fantasy: Skirmish"),
        ("warfleets-ftl", "Warfleets: FTL"),
        ("some-new-line", "some-new-line"),
    ],
)
def test_lines_without_a_rulebook_are_refused_naming_the_supported_ones(registry, slug, named):
    data = fixture("gf-rustbound-book")
    data["gameSystemSlug"] = slug
    with pytest.raises(ImportFailed) as caught:
        convert_book(data, registry.systems)
    assert (caught.value.code, caught.value.path) == ("unsupported_system", "gameSystemSlug")
    assert named in caught.value.message
    assert "grimdark-future (gf), age-of-fantasy (aof), age-of-fantasy-regiments (aofr)" in caught.value.message


def test_line_named_by_number_only(registry):
    data = fixture("gf-rustbound-book")
    del data["gameSystemSlug"], data["gameSystemKey"]
    assert convert_book(data, registry.systems).book.system == "grimdark-future"
    data["gameSystemId"] = 3
    with pytest.raises(ImportFailed) as caught:
        convert_book(data, registry.systems)
    assert caught.value.code == "unsupported_system" and caught.value.path == "gameSystemId"


@pytest.mark.parametrize(
    "data, words",
    [
        ([], "not an Army Forge book export"),
        ({"name": "x"}, "not an Army Forge book export"),
        ({"list": {"units": []}}, "this is an Army Forge list, not a book"),
    ],
)
def test_other_files_are_not_books(registry, data, words):
    with pytest.raises(ImportFailed) as caught:
        convert_book(data, registry.systems)
    assert caught.value.code == "not_army_forge" and words in caught.value.message


def test_converted_book_our_loader_refuses_points_back_at_the_source(registry):
    # 002 Regiments: units of 3/5/6/10 models. A 4-model unit imported for regiments is refused,
    # naming the Army Forge unit behind it.
    data = fixture("aof-thornwick-book")
    data["gameSystemSlug"] = "age-of-fantasy-regiments"
    data["units"][0]["size"] = 4
    with pytest.raises(ImportFailed) as caught:
        convert_book(data, registry.systems)
    assert caught.value.code == "invalid_result"
    assert caught.value.path == "units[0] (our units[0].size)"
    assert "not a formation size" in caught.value.message


def test_older_gain_types_multi_profile_weapons_and_defense(registry):
    """Older exports: a weapon with profiles to pick from, and "Defense" as a gain type."""
    data = fixture("gf-rustbound-book")
    options = data["upgradePackages"][4]["sections"][1]["options"]
    options.append(
        {
            "uid": "o-launcher",
            "cost": 15,
            "label": "Shell Launcher",
            "gains": [
                {
                    "name": "Shell Launcher",
                    "type": "ArmyBookMultiWeapon",
                    "count": 1,
                    "profiles": [
                        {
                            "name": "Blast Shell",
                            "type": "ArmyBookWeapon",
                            "range": 24,
                            "attacks": 1,
                            "specialRules": [{"name": "Blast", "rating": 3}],
                        },
                        {
                            "name": "Slug",
                            "type": "ArmyBookWeapon",
                            "range": 24,
                            "attacks": 1,
                            "specialRules": [{"name": "AP", "rating": 2}],
                        },
                    ],
                }
            ],
        }
    )
    options.append(
        {
            "uid": "o-plating",
            "cost": 10,
            "label": "Plating",
            "gains": [{"name": "Defense", "type": "ArmyBookDefense", "rating": 1}],
        }
    )
    converted = convert_book(data, registry.systems)
    section = converted.book.sections["upgrade-with-any"]
    launcher = section.option("shell-launcher").gains.items[0]
    assert (launcher.name, [(w.name, w.range, [r.label for r in w.rules]) for w in launcher.weapons]) == (
        "Shell Launcher",
        [("Shell Launcher (Blast Shell)", 24, ["Blast(3)"]), ("Shell Launcher (Slug)", 24, ["AP(2)"])],
    )
    assert any("Shell Launcher has 2 profiles to pick from" in note for note in converted.notes)
    assert [r.label for r in section.option("plating").gains.rules] == ["Defense(1)"]
    assert "Defense" in converted.book.undefined_rules  # no text for it in the export or our glossary
