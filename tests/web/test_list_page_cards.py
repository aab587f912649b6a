"""The read-only page of a saved list (/l/<id>) shows a card for each unit on the table, so an
opponent reads what the units do without downloading the PDF: the profile, the weapons, the
rules, the upgrades with their costs, copies told apart as the printed cards tell them, and the
special rules in our own words. The cards are the printed roster's data, not a second copy."""

from __future__ import annotations

import re
from html import unescape

from listbuilder.lists.documents import parse_list
from listbuilder.printing.rosters import build_roster

ARMY = {
    "system": "grimdark-future",
    "book": "gf-cinder-covenant",
    "name": "Cards <b>on</b> the table",
    "points_limit": 2000,
    "units": [
        {"key": "a", "unit": "cc-ash-wardens", "combined_with": "b"},
        {"key": "b", "unit": "cc-ash-wardens", "combined_with": "a"},
        {"key": "p", "unit": "cc-ember-priest", "joined_to": "a"},
        {
            "key": "s1",
            "unit": "cc-flame-sisters",
            "upgrades": [{"section": "cc-squad-leader", "option": "veteran"}],
        },
        {
            "key": "s2",
            "unit": "cc-flame-sisters",
            "upgrades": [{"section": "cc-squad-leader", "option": "veteran"}],
        },
        {"key": "z", "unit": "cc-cinder-zealots", "name": "<script>alert(1)</script>"},
    ],
}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def _cards(html: str) -> list[str]:
    return re.findall(r'<article class="list-card".*?</article>', html, re.S)


def _page(saved_client) -> str:
    made = saved_client.post("/api/v1/lists", json=ARMY).get_json()
    page = saved_client.get(f"/l/{made['id']}")
    assert page.status_code == 200
    return page.get_data(as_text=True)


def test_every_unit_on_the_table_has_a_card_with_its_profile_weapons_rules_upgrades_and_cost(saved_client, registry):
    html = _page(saved_client)
    cards = _cards(html)
    roster = build_roster(registry, parse_list(ARMY))
    assert len(cards) == len(roster.blocks) == 3  # the pair with its priest, two sisters as one, the zealots
    pair, sisters, zealots = (_text(c) for c in cards)
    # the pair and its joined hero: one card, both profiles, the pair's models and cost summed
    assert pair.startswith("1 Ash Wardens 21 models") and "combined ×2" in pair
    assert "Quality 4+" in pair and "Defense 4+" in pair
    assert "Ash Rifle" in pair and '24"' in pair and "Combat Knife" in pair
    assert "Pyre Oath" in pair
    assert "+ joined: Ember Priest" in pair
    assert roster.blocks[0].cost in pair
    # identical units: one card, each copy numbered apart as on the printed cards
    assert sisters.startswith("2a–2b 2× Flame Sisters")
    assert "copies 2a, 2b" in sisters
    assert "Veteran Leader (10 pts)" in sisters  # an upgrade and what it cost
    assert "Power Sabre" in sisters and "AP(1)" in sisters  # the weapon it gave
    assert "Flamer" in sisters and "Blast(3)" in sisters
    assert f"{roster.blocks[1].cost} each, {roster.blocks[1].total_cost}" in sisters
    # the special rules follow the cards, in our own words
    rules = _text(html.split('id="card-rules-title"', 1)[1])
    for rule in roster.reference:
        assert f"{rule.label} – {rule.text}" in rules or (rule.label in rules and rule.text in rules)
    assert "Zealot Blade" in zealots


def test_names_on_the_cards_are_escaped(saved_client):
    html = _page(saved_client)
    cards = "".join(_cards(html))
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in cards
    assert "Cinder Zealots" in cards  # the book's name beside the player's


def test_a_page_without_units_has_no_cards(saved_client):
    empty = dict(ARMY, units=[])
    made = saved_client.post("/api/v1/lists", json=empty).get_json()
    html = saved_client.get(f"/l/{made['id']}").get_data(as_text=True)
    assert _cards(html) == [] and "cards-title" not in html


def test_the_cards_print_as_a_document(saved_client):
    html = _page(saved_client)
    with saved_client.get(re.search(r'href="([^"]*list_cards\.css[^"]*)"', html).group(1)) as css:
        assert css.status_code == 200
        print_rules = css.get_data(as_text=True).split("@media print", 1)[1]
    assert ".list-card { break-inside: avoid; }" in print_rules  # a card never split across pages
    assert "header.site" in print_rules and "display: none" in print_rules  # no site chrome on paper


def test_the_unit_table_numbers_units_as_their_cards_do(saved_client):
    html = _page(saved_client)
    rows = re.findall(r'<tr class="unit-block">\s*<td>([^<]*)</td>', html)
    assert rows == ["1", "2a", "2b", "3"]


def test_a_list_whose_book_this_server_no_longer_serves_shows_cards_from_the_book_as_saved(
    saved_client, registry, database_url
):
    from dataclasses import replace

    from listbuilder.web import create_app

    made = saved_client.post("/api/v1/lists", json=ARMY).get_json()
    without = replace(registry, books={k: b for k, b in registry.books.items() if k != ARMY["book"]})
    app = create_app({"TESTING": True, "REGISTRY": without, "DATABASE_URL": database_url})
    try:
        page = app.test_client().get(f"/l/{made['id']}")
        assert page.status_code == 200
        html = page.get_data(as_text=True)
        assert "The army book has changed since this list was saved" in html
        cards = [_text(c) for c in _cards(html)]
        assert len(cards) == 3 and cards[0].startswith("1 Ash Wardens")
    finally:
        if (opened := app.extensions.get("listbuilder.database")) is not None:
            opened.dispose()
