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
    system = registry.systems["age-of-fantasy"]
    assert "<h1>Rules edition: Age of Fantasy 2.16</h1>" in html
    assert "checked by the 2.16 rulebook" in text
    # what a 3.x player notices: no hero or copy limits, pairs of any two copies, heroes join any unit
    for change in system.imported_books["changes"]:
        assert re.sub(r"\s+", " ", change) in text
    assert "Add pair" in text and "heroes, copies of one unit" in text
    for note in system.notes:
        assert re.sub(r"\s+", " ", note) in text


def test_every_system_has_a_rules_edition_page_and_an_unknown_one_is_a_page_saying_so(client, registry):
    for system in registry.systems.values():
        page = client.get(f"/systems/{system.id}/rules-edition")
        assert page.status_code == 200, system.id
        assert system.edition in _text(page.get_data(as_text=True))
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
