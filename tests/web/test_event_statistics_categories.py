"""Points by unit category in the event statistics (issue 39): each family's own categories, as
its books give them (events/unit_categories.py), and over the API an OPR event whose lists take
a hero, units and a single big model. On SQLite and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

from collections import Counter

from listbuilder.events.unit_categories import category
from listbuilder.model import Unit
from tests.web.test_events_api import make_event, organiser, submit
from tests.web.test_saved_api import LIST, create


def categories_of(registry, book_id):
    book = registry.books[book_id]
    family = registry.systems[book.system].family
    return {u.id: category(family, u) for u in book.units}


def test_opr_books_split_heroes_big_single_models_and_units(registry):
    found = categories_of(registry, "gf-cinder-covenant")
    assert found["cc-pyre-marshal"] == "heroes"  # a hero of Tough(6) is still a hero
    assert found["cc-ember-ark"] == found["cc-forge-crawler"] == "big models"  # one model, Tough(12) and (6)
    assert found["cc-iron-sentinels"] == "units"  # three models of Tough(3)
    assert found["cc-ash-wardens"] == "units"
    assert set(categories_of(registry, "aof-ember-marches").values()) == {"heroes", "big models", "units"}


def test_hex_books_give_their_units_classes_and_types(registry):
    assert Counter(categories_of(registry, "ahx-fjordhold").values()) == {"heroes": 5, "troops": 5, "beasts": 4}
    hammerdeep = categories_of(registry, "ah-hammerdeep-holds")
    assert hammerdeep["anvil-tank"] == "vehicles" and hammerdeep["hold-guard"] == "infantry"
    assert hammerdeep["ram-riders"] == "cavalry"


def test_a_family_without_categories_of_its_own_counts_heroes_and_units():
    plain = Unit(id="x", name="X", size=1, cost=None, stats={})
    assert category("toy-family", plain) == "units"
    assert category("ancients-hex", plain) == "units"  # a book that gives no class


def test_the_statistics_spend_points_by_the_familys_categories(saved_client):
    event = make_event(saved_client)
    big = {**LIST, "units": [*LIST["units"], {"key": "k", "unit": "cc-forge-crawler"}]}
    assert submit(saved_client, event, create(saved_client, big), player="Ann").status_code == 201
    assert submit(saved_client, event, create(saved_client, LIST), player="Bob").status_code == 201
    body = saved_client.get(f"/api/v1/events/{event['id']}/statistics", headers=organiser(event)).json
    spent = {c["category"]: c["cost"]["pts"] for c in body["categories"]}
    assert set(spent) == {"heroes", "units", "big models"}
    assert spent["big models"] > 0 and spent["units"] > spent["heroes"] > 0
