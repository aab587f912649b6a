"""The opponent's list on a player's page as the share page's unit cards (issue 39):
/events/<id>/cards/<list_id>/<version> renders a version submitted to the event with
list_cards.html, folded when long; any other version, list or event is 404. On SQLite and on
PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

from tests.web.test_events_api import make_event, organiser, submit
from tests.web.test_saved_api import LIST, create

FIVE = ("cc-ash-wardens", "cc-cinder-zealots", "cc-flame-sisters", "cc-pathfinders", "cc-iron-sentinels")
LONG = {**LIST, "units": [{"key": f"u{i}", "unit": unit} for i, unit in enumerate(FIVE)]}


def cards(client, event, made, version=1):
    return client.get(f"/events/{event['id']}/cards/{made['id']}/{version}")


def test_a_submitted_list_is_drawn_as_the_share_pages_cards(saved_client):
    event = make_event(saved_client, allow_illegal=True)  # the cards are shown whatever the verdict
    short, long = create(saved_client, LIST), create(saved_client, LONG)
    assert submit(saved_client, event, short, player="Ann").status_code == 201
    assert submit(saved_client, event, long, player="Bob").status_code == 201
    shown = cards(saved_client, event, short)
    page = shown.get_data(as_text=True)
    assert shown.status_code == 200 and shown.mimetype == "text/html"
    assert '<details class="opponent-cards" open>' in page and "(1 unit)" in page
    assert page.count('class="list-card"') == 1 and "Ember Priest" in page  # the joined hero, as on /l/<id>
    shared = saved_client.get(f"/l/{short['id']}").get_data(as_text=True)
    assert page[page.index('<section class="list-cards"') :].split("</details>")[0].strip() in shared
    folded = cards(saved_client, event, long).get_data(as_text=True)
    assert '<details class="opponent-cards">' in folded and "(5 units)" in folded


def test_only_a_version_submitted_to_the_event_is_shown(saved_client):
    event, other = make_event(saved_client), make_event(saved_client)
    made = create(saved_client, LIST)
    assert submit(saved_client, event, made, player="Ann").status_code == 201
    assert cards(saved_client, other, made).status_code == 404  # submitted elsewhere
    assert cards(saved_client, event, made, version=2).status_code == 404
    assert cards(saved_client, event, create(saved_client, LIST)).status_code == 404  # never submitted
    assert saved_client.get(f"/events/nope/cards/{made['id']}/1").status_code == 404
    undone = create(saved_client, LIST)
    number = submit(saved_client, event, undone, player="Bob").json["number"]
    assert cards(saved_client, event, undone).status_code == 200
    gone = saved_client.delete(f"/api/v1/events/{event['id']}/submissions/{number}", headers=organiser(event))
    assert gone.status_code == 204
    assert cards(saved_client, event, undone).status_code == 404  # undone: no longer the event's
