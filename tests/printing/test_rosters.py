"""The roster view model, the text export and the /api/v1/rosters endpoints."""

from __future__ import annotations

import json
import re

import pytest

from listbuilder.families import FAMILIES
from listbuilder.lists.documents import ListError, parse_list
from listbuilder.printing.pdf import PDF_CACHE
from listbuilder.printing.rosters import build_roster, roster_text
from listbuilder.printing.sheets import FALLBACK_SHEET
from listbuilder.web.http.downloads import download_name
from tests.conftest import GOLDEN

CASES = sorted(GOLDEN.glob("*/*.json"))


def golden(path):
    return json.loads(path.read_text(encoding="utf-8"))


def ember(*units, name="Sheet test", **extra):
    return {"system": "age-of-fantasy", "book": "aof-ember-marches", "name": name, "units": list(units), **extra}


def every_unit_list(book):
    """One of every unit of a book, so every profile of every family prints at least once."""
    return {
        "system": book.system,
        "book": book.id,
        "name": f"All of {book.name}",
        "units": [{"key": f"u{i}", "unit": u.id} for i, u in enumerate(book.units)],
    }


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_every_golden_list_has_a_roster(path, registry):
    case = golden(path)
    roster = build_roster(registry, parse_list(case["list"]))
    assert roster.valid is case["valid"]
    text = roster_text(roster)
    for block in roster.blocks:
        assert block.profile.name in text
        for hero in block.heroes:
            assert hero.name in text
    # Every entry of a known unit is printed exactly once, in a block or as a joined hero.
    printed = sum(block.copies * (block.combined + len(block.heroes)) for block in roster.blocks)
    known = [u for u in case["list"]["units"] if registry.books[case["list"]["book"]].unit(u["unit"])]
    assert printed == len(known)


def test_every_book_prints_every_unit(registry):
    for book in registry.books.values():
        roster = build_roster(registry, parse_list(every_unit_list(book)))
        assert [b.profile.book_name for b in roster.blocks] == [u.name for u in book.units]
        assert all(b.profile.stats for b in roster.blocks), book.id


def test_every_family_has_a_sheet(registry):
    # Stat columns are chosen per rules family by data; a new family must say what it shows.
    assert all(FAMILIES[s.family].part("sheet") not in (None, FALLBACK_SHEET) for s in registry.systems.values())


def test_opr_block_shows_quality_defense_tough_weapons_upgrades_and_cost(registry):
    army = ember({"key": "m", "unit": "marchlord"})
    (block,) = build_roster(registry, parse_list(army)).blocks
    stats = {s.label: s.value for s in block.profile.stats}
    assert stats == {"Quality": "3+", "Defense": "4+", "Tough": "3"}
    assert block.profile.weapons.headers[:3] == ("Weapon", "Range", "Att")
    assert block.profile.cost == "60 pts"


def test_combined_pair_prints_as_one_unit_and_joined_hero_rides_with_it(registry):
    army = ember(
        {"key": "a", "unit": "march-swordsmen", "combined_with": "b"},
        {"key": "b", "unit": "march-swordsmen"},
        {"key": "h", "unit": "marchlord", "joined_to": "b", "name": "Lord Ash"},
    )
    roster = build_roster(registry, parse_list(army))
    (block,) = roster.blocks
    assert block.combined == 2
    assert block.profile.models == 20
    assert block.profile.weapons.rows[0][0] == "20× Hand Weapon"
    assert [h.name for h in block.heroes] == ["Lord Ash"]
    assert block.heroes[0].book_name == "Marchlord"
    assert block.models == 21
    assert block.cost == "200 pts"  # 70 + 70 + 60


def test_quick_reference_is_every_rule_used_and_mentioned_once_alphabetical(registry):
    # Lantern Adept: Hero, Tough(3), Wizard(1); Knights: Fast, Impact(1), Fearless, a Lance
    # with Kindled Steel (which mentions AP). Hero mentions Tough. The adept's spells name
    # Kindled Steel (Brand the Blades) and Flying (Wall of Embers).
    army = ember({"key": "a", "unit": "lantern-adept"}, {"key": "k", "unit": "ember-knights"})
    roster = build_roster(registry, parse_list(army))
    assert roster.rule_names == (
        "AP(X)",
        "Fast",
        "Fearless",
        "Flying",
        "Hero",
        "Impact(X)",
        "Kindled Steel",
        "Tough(X)",
        "Wizard(X)",
    )
    assert all(rule.text for rule in roster.reference)
    (book,) = roster.spellbooks
    assert book.casters == ("Lantern Adept",)
    assert ("Beacon Flare", "4+") in [(s.name, s.value) for s in book.spells]
    assert roster.spell_value_label == "Cast on"


def test_upgrade_rules_count_and_replaced_gear_does_not(registry):
    base = build_roster(registry, parse_list(ember({"key": "s", "unit": "march-swordsmen"})))
    shields = build_roster(
        registry,
        parse_list(
            ember(
                {
                    "key": "s",
                    "unit": "march-swordsmen",
                    "upgrades": [{"section": "em-shields", "option": "tower-shields"}],
                }
            )
        ),
    )
    assert "Shield Wall" not in base.rule_names
    assert "Shield Wall" in shields.rule_names


def test_illegal_list_still_builds_with_its_issues(registry):
    army = ember({"key": "k", "unit": "ember-knights"}, points_limit=100)
    roster = build_roster(registry, parse_list(army))
    assert not roster.valid
    assert [i.severity for i in roster.issues] == ["error"]
    assert roster.budget[0].over
    assert "NOT A LEGAL LIST" in roster_text(roster)


def test_unknown_book_raises_the_validation_error(registry):
    with pytest.raises(ListError) as caught:
        build_roster(registry, parse_list(ember(book="no-such-book")))
    assert caught.value.code == "unknown_book"


def test_text_export_is_one_line_per_unit(registry):
    army = ember({"key": "m", "unit": "marchlord", "name": "Baron Vell"}, {"key": "c", "unit": "crossbowmen"})
    lines = roster_text(build_roster(registry, parse_list(army))).splitlines()
    assert lines[0].startswith("++ Sheet test ++ Age of Fantasy")
    assert lines[1].startswith("!! NOT A LEGAL LIST (1 error): Marchlord must choose")  # no mount
    assert lines[3].startswith("1. Baron Vell (Marchlord) [1] Q3+ D4+ T3 | Hand Weapon (A3)")
    assert lines[4].startswith("2. Crossbowmen [10]") and lines[4].endswith("| 100 pts")
    assert len(lines) == 5


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Ember Host 2000", "Ember Host 2000.pdf"),
        ("", "roster.pdf"),
        ("../../etc/passwd", "etc passwd.pdf"),
        ('<img src=x>"; rm', "img src=x rm.pdf"),
        ("a\x00b\nc", "abc.pdf"),
        ("x" * 200, "x" * 80 + ".pdf"),
    ],
)
def test_download_name_is_sanitised(name, expected):
    assert download_name(parse_list(ember(name=name)), "pdf") == expected


# -- API ---------------------------------------------------------------------------------------


def test_api_pdf(client):
    army = ember({"key": "m", "unit": "marchlord"}, name="Ember Host: “2000”")
    response = client.post("/api/v1/rosters/pdf", json=army)
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF-")
    disposition = response.headers["Content-Disposition"]
    assert disposition.startswith('attachment; filename="Ember Host 2000.pdf"')
    assert "filename*=UTF-8''Ember%20Host%20%E2%80%9C2000%E2%80%9D.pdf" in disposition


def test_api_pdf_is_served_from_cache_the_second_time(client):
    army = ember({"key": "c", "unit": "crossbowmen"}, name="Cache me")
    first = client.post("/api/v1/rosters/pdf?paper=letter", json=army)
    hits = PDF_CACHE.hits
    # Same list spelled differently (key order, defaults written out): same content hash.
    respelled = {
        "units": [{"unit": "crossbowmen", "key": "c", "upgrades": []}],
        **{k: v for k, v in army.items() if k != "units"},
    }
    second = client.post("/api/v1/rosters/pdf?paper=letter", json=respelled)
    assert PDF_CACHE.hits == hits + 1
    assert second.data == first.data


def test_api_text_and_html(client):
    army = ember({"key": "m", "unit": "marchlord", "name": "<b>Bold</b>"})
    text = client.post("/api/v1/rosters/text", json=army)
    assert text.mimetype == "text/plain" and "<b>Bold</b>" in text.get_data(as_text=True)
    html = client.post("/api/v1/rosters/html?paper=letter", json=army)
    assert html.mimetype == "text/html"
    body = html.get_data(as_text=True)
    assert "&lt;b&gt;Bold&lt;/b&gt;" in body and "<b>Bold</b>" not in body
    stylesheet_url = re.search(r'href="(/static/[0-9a-f]{16}/roster/roster\.css)"', body).group(1)  # versioned
    with client.get(stylesheet_url) as stylesheet:
        assert stylesheet.status_code == 200


@pytest.mark.parametrize("kind", ["pdf", "text", "html"])
def test_api_unknown_book_gets_the_validation_4xx(client, kind):
    army = ember({"key": "m", "unit": "marchlord"}, book="no-such-book")
    expected = client.post("/api/v1/lists/validate", json=army)
    response = client.post(f"/api/v1/rosters/{kind}", json=army)
    assert response.status_code == expected.status_code == 404
    assert response.get_json() == expected.get_json()


def test_api_illegal_list_prints(client):
    army = ember({"key": "k", "unit": "ember-knights"}, points_limit=100)
    response = client.post("/api/v1/rosters/text", json=army)
    assert response.status_code == 200
    assert "NOT A LEGAL LIST" in response.get_data(as_text=True)


def test_api_rejects_unknown_paper(client):
    response = client.post("/api/v1/rosters/pdf?paper=a5", json=ember())
    assert response.status_code == 422
    assert "query.paper" in response.get_json()["errors"]


def test_api_malformed_list(client):
    response = client.post("/api/v1/rosters/pdf", json={"system": "age-of-fantasy"})
    assert response.status_code == 422
    assert "book" in response.get_json()["errors"]


def test_identical_entries_print_once_with_their_count(registry):
    army = ember(
        {"key": "a", "unit": "crossbowmen"},
        {"key": "s", "unit": "march-swordsmen"},
        {"key": "b", "unit": "crossbowmen"},
        {"key": "c", "unit": "crossbowmen", "name": "Renamed"},
    )
    roster = build_roster(registry, parse_list(army))
    assert [(b.number, b.title) for b in roster.blocks] == [
        (1, "2× Crossbowmen"),
        (2, "March Swordsmen"),
        (3, "Renamed"),
    ]
    first = roster.blocks[0]
    assert (first.copies, first.models, first.cost, first.total_cost) == (2, 10, "100 pts", "200 pts")
    # The counts stay those of the builder: entries, activations, models.
    assert dict(roster.counts) == {"units": 4, "activations": 4, "models": 40}
    assert "1a–1b. 2× Crossbowmen [10]" in roster_text(roster)


def test_keyword_troops_are_marked_003_1_0(registry):
    roster = build_roster(registry, parse_list(golden(GOLDEN / "ancients-hex" / "thalassan-400-legal.json")["list"]))
    marked = {b.profile.book_name for b in roster.blocks if "keyword troops" in b.profile.marks}
    assert marked and all(
        registry.books["ahx-thalassan-league"].unit(u).stat("keyword") for u in ("hoplites", "pike-phalanx")
    )
    for block in roster.blocks:
        unit = next(u for u in registry.books["ahx-thalassan-league"].units if u.name == block.profile.book_name)
        assert (block.profile.book_name in marked) == bool(unit.stat("keyword"))


def test_elites_are_marked_004_build_your_army(registry):
    roster = build_roster(
        registry, parse_list(golden(GOLDEN / "armour-hex" / "legal-standard-hammerdeep.json")["list"])
    )
    marks = {b.profile.book_name: b.profile.marks for b in roster.blocks}
    assert marks["Hold Guard"] == ("3 elites",)
    assert marks["Ram Riders"] == ("1 elite",)
    assert marks["Mountain Fortress"] == ()


def test_roster_carries_the_verification_code_of_the_list(registry):
    from listbuilder.lists.canonical import rules_version, verification_code

    army = parse_list(ember({"key": "a", "unit": "crossbowmen"}))
    roster = build_roster(registry, army)
    book, system = registry.books[army.book], registry.systems[army.system]
    assert roster.code == verification_code(army, rules_version(book, system))
    assert f"code {roster.code}" in roster_text(roster).splitlines()[0]


def test_unit_card_rules_are_those_its_profiles_carry(registry):
    army = ember({"key": "k", "unit": "ember-knights"}, {"key": "a", "unit": "lantern-adept"})
    roster = build_roster(registry, parse_list(army))
    knights = roster.blocks[0]
    labels = {r.label for r in roster.rules_of(knights)}
    assert {"Fast", "Impact(X)", "Fearless", "Kindled Steel"} <= labels
    assert "Wizard(X)" not in labels


def test_a_pair_with_the_same_upgrade_lists_it_once_on_both_halves(registry):
    drill = [{"section": "cc-squad-drill", "option": "ember-drill"}]
    army = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "Pair",
        "units": [
            {"key": "a", "unit": "cc-ash-wardens", "combined_with": "b", "upgrades": drill},
            {"key": "b", "unit": "cc-ash-wardens", "upgrades": drill},
        ],
    }
    (block,) = build_roster(registry, parse_list(army)).blocks
    assert len(block.profile.upgrades) == 1
    assert block.profile.upgrades[0].startswith("Ember Drill on both halves (") and block.profile.upgrades[0].endswith(
        " pts each)"
    )
    single = {
        "system": "grimdark-future",
        "book": "gf-cinder-covenant",
        "name": "One",
        "units": [{"key": "a", "unit": "cc-ash-wardens", "upgrades": drill}],
    }
    (one,) = build_roster(registry, parse_list(single)).blocks
    assert one.profile.upgrades[0].startswith("Ember Drill (") and "both" not in one.profile.upgrades[0]
