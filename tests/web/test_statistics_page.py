"""The event's statistics page (issue 39): nothing shown until the organiser opens the
statistics, then the army books and units with their win rates, three charts drawn by pygal as
SVG images (no script, their own style policy) and the CSV. On SQLite and PostgreSQL."""

from __future__ import annotations

from tests.web.test_event_day_api import SPORES
from tests.web.test_events_api import make_event, organiser, submit
from tests.web.test_rounds_api import confirm, register, result, start, url, win
from tests.web.test_saved_api import create


def test_the_statistics_page_shows_nothing_until_opened_then_books_units_and_charts(saved_client):
    event = make_event(saved_client, name="Spring <Open>")
    tokens = register(saved_client, event, 1, names=["Ann"])
    spores = submit(saved_client, event, create(saved_client, SPORES), player="Bob")
    tokens["Bob"] = spores.json["player_token"]
    start(saved_client, event)
    result(saved_client, event, 1, tokens["Ann"], table=1, **win("Ann", "Bob"))
    confirm(saved_client, event, 1, tokens["Bob"], 1)
    page = f"/events/{event['id']}/statistics"
    closed = saved_client.get(page)
    assert closed.status_code == 200 and "has not opened the statistics yet" in closed.get_data(as_text=True)
    assert "Cinder Covenant" not in closed.get_data(as_text=True)
    assert saved_client.get(f"{page}/factions.svg").status_code == 404
    saved_client.put(url(event, "/statistics"), json={"public": True}, headers=organiser(event))
    opened = saved_client.get(page).get_data(as_text=True)
    assert "Cinder Covenant" in opened and "Spore Choir" in opened and "Ash Wardens" in opened
    assert "100%" in opened and "0%" in opened and "Spring &lt;Open&gt;" in opened
    for chart, words in (("factions", "Cinder Covenant"), ("units", "Ash Wardens"), ("categories", "Heroes")):
        svg = saved_client.get(f"{page}/{chart}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        assert svg.headers["Content-Security-Policy"] == "default-src 'none'; style-src 'unsafe-inline'"
        text = svg.get_data(as_text=True)
        assert text.startswith("<svg") and words in text and "<script" not in text
    assert saved_client.get(f"{page}/other.svg").status_code == 404
    assert saved_client.get("/events/AAAAAAAAAAAAAAAA/statistics").status_code == 404
