"""Saying what the rules are: a rules-edition page per system (which rulebook its lists are
checked by, and what a player who knows Army Forge's edition will notice), linked from the
home page's card and the builder's header; and every page describes itself to a search
engine (a meta description), the pages of one book or list in their own words."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.web.test_events_api import make_event


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def test_the_age_of_fantasy_page_says_what_differs_from_the_edition_players_know(client, registry):
    page = client.get("/systems/age-of-fantasy/rules-edition")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    text = _text(html)
    assert "<h1>Rules edition: Age of Fantasy 2.16</h1>" in html
    assert "checked by the 2.16 rulebook" in text and "Army Forge" in text
    # what a third-edition player notices: no hero or copy limits, pairs of any two copies,
    # heroes join any unit, command groups, special rules read the 2.16 way
    for heading in (
        "No limits on heroes or copies",
        "Pairs of any unit, heroes included",
        "Heroes join any unit",
        "One of each command model",
        "Special rules read the 2.16 way",
    ):
        assert f"<strong>{heading}.</strong>" in html
    assert "Add pair" in text and "Two Marchlords" in text


def test_the_page_is_the_players_text_not_the_system_files_notes(client, registry):
    """The system file's notes and edition changes are the maintainers' record: they cite the
    rulebook's files and clauses and name the list format's fields. The page has text of its own."""
    for system in registry.systems.values():
        text = _text(client.get(f"/systems/{system.id}/rules-edition").get_data(as_text=True).split("<main", 1)[1])
        for written in (*system.notes, *system.imported_books.get("changes", ())):
            assert re.sub(r"\s+", " ", written) not in text, (system.id, written)
        assert MAINTAINERS_WORDS.search(text) is None, (system.id, MAINTAINERS_WORDS.search(text))


# What only a maintainer reads: a rulebook's file number (000, 004) or file, "clause", a field
# or code name of the list format (force_org, joined_to, declare.huge, upgradePackages[10]).
MAINTAINERS_WORDS = re.compile(
    r"\b00\d\b|\.(?:txt|ya?ml|py|json)\b|(?i:\bclauses?\b)|\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z]+\b|\b[a-z]+[A-Z]\w*\b"
    r"|\[\d+\]|(?i:\bglossary\b)|\brulebook \d"
)


def test_the_maintainers_words_are_found_where_they_are(client, registry):
    """The check itself: each kind of wording it is there for is caught."""
    for words in (
        "(000 Combined Units)",
        "send force_org false",
        "declare.huge",
        "upgradePackages[10].sections[2]",
        "rulebook 004",
        "the 002 clause",
        "army_books/armour-hex/_system.yaml",
        "no text in the glossary",
    ):
        assert MAINTAINERS_WORDS.search(words), words
    assert MAINTAINERS_WORDS.search("Two Marchlords in a small game are legal here. 1 VP, 2.16, 10 and 10.") is None


def test_the_system_pages_and_home_cards_speak_the_players_words_too(client, registry):
    home = _text(client.get("/").get_data(as_text=True))
    assert "Rules: 2.16, not Army Forge's 3.x" in home and "Rules: the draft rulebook" in home
    assert "draft (rulebook 004)" not in home
    for system in registry.systems.values():
        page = client.get(f"/systems/{system.id}").get_data(as_text=True)
        for note in system.notes:
            assert re.sub(r"\s+", " ", note) not in _text(page), (system.id, note)
        assert MAINTAINERS_WORDS.search(_text(page.split("<main", 1)[1])) is None, system.id


def test_every_system_has_a_rules_edition_page_and_an_unknown_one_is_a_page_saying_so(client, registry):
    from listbuilder.books.editions import player_edition

    for system in registry.systems.values():
        page = client.get(f"/systems/{system.id}/rules-edition")
        assert page.status_code == 200, system.id
        edition = player_edition(system)
        assert edition["summary"] and (edition["differences"] or edition["readings"]), system.id
        assert edition["title"] in _text(page.get_data(as_text=True))
    missing = client.get("/systems/no-such-game/rules-edition")
    assert missing.status_code == 404 and "text/html" in missing.content_type
    assert "no-such-game" in _text(missing.get_data(as_text=True))


def test_the_home_cards_and_the_builder_header_link_to_the_rules_edition(client, registry):
    home = client.get("/").get_data(as_text=True)
    for system in registry.systems.values():
        assert f'href="/systems/{system.id}/rules-edition"' in home, system.id
    builder = client.get("/build/aof-ember-marches").get_data(as_text=True)
    assert re.search(
        r'<a class="edition-link" id="rules-edition-link" href="/systems/age-of-fantasy/rules-edition">', builder
    )


def test_the_builder_header_names_the_rules_as_players_are_told_them(client, registry):
    """issue 37 (11): the armour-hex builder read "Armour Hex draft (rulebook 004)" and "Rules
    edition draft (rulebook 004)", the ancients one "Rules edition 1": the system file's labels."""
    for system in registry.systems.values():
        book = registry.books_of(system.id)[0]
        header = _text(client.get(f"/build/{book.id}").get_data(as_text=True))
        assert "rulebook 0" not in header and "Rules edition 1" not in header, system.id
    armour = _text(client.get(f"/build/{registry.books_of('armour-hex')[0].id}").get_data(as_text=True))
    assert "Armour Hex, draft rules" in armour and "Rules: the draft rulebook · what this builder checks" in armour


def _description(html: str) -> str:
    found = re.findall(r'<meta name="description" content="([^"]*)">', html)
    assert len(found) == 1, "one meta description per page"
    return unescape(found[0])


@pytest.fixture()
def shared_pages(saved_client):
    made = saved_client.post(
        "/api/v1/lists",
        json={"system": "age-of-fantasy", "book": "aof-ember-marches", "name": 'Ember "Host"', "units": []},
    ).get_json()
    event = make_event(saved_client)
    return made["id"], event["id"]


def test_every_page_has_a_meta_description(saved_client, shared_pages):
    list_id, event_id = shared_pages
    pages = [
        "/",
        "/systems/age-of-fantasy",
        "/systems/age-of-fantasy/rules-edition",
        "/build/aof-ember-marches",
        "/books/aof-ember-marches",
        "/import",
        "/lists",
        "/events/new",
        f"/l/{list_id}",
        f"/events/{event_id}",
    ]
    seen = {}
    for path in pages:
        page = saved_client.get(path)
        assert page.status_code == 200, path
        description = _description(page.get_data(as_text=True))
        assert 50 <= len(description) <= 200, (path, description)
        seen[path] = description
    # a book, a list and an event describe themselves, not the site
    assert "Ember Marches" in seen["/books/aof-ember-marches"]
    assert 'Ember "Host"' in seen[f"/l/{list_id}"]  # the name, its quotes escaped in the attribute
    assert seen[f"/events/{event_id}"].startswith(make_event.__globals__["EVENT"]["name"])
    assert "2.16" in seen["/systems/age-of-fantasy/rules-edition"]
