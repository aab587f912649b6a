"""Pages of the tournament day: the public standings (``/events/<id>/standings``) and the
organiser's round page (``/events/<id>/day``), made to be used on a phone at a venue.

The standings are rendered on the server and refreshed by ``static/js/standings.js``. The
round page renders nothing secret: its script reads the organiser token from the fragment
or this browser's memory (as the event page does) and works through the API.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, render_template

from listbuilder.store.errors import EventGone, EventNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database, kept_round_body, kept_standings_body, registry

store = lazy_module("listbuilder.store.rounds")
day = lazy_module("listbuilder.events.rounds")

bp = Blueprint("round_pages", __name__)


def _day(event_id: str) -> Any:
    """The event's day, or the page for an unknown (404) or deleted (410) event."""
    try:
        return store.read_day(database(), event_id)
    except (EventGone, EventNotFound) as error:
        return _missing(error)


def _missing(error: Exception) -> tuple[str, int]:
    if isinstance(error, EventGone):
        return render_template("not_found.html", message="This event was deleted by its organiser."), 410
    return render_template(
        "not_found.html", message="There is no event at this address. Check the link you were given."
    ), 404


@bp.route("/events/<event_id>/standings")
def standings(event_id: str) -> Any:
    """The public standings and the current round's tables, both as kept (``store/kept.py``):
    a room of phones opening the page costs one computation per change of the day."""
    try:
        body = kept_standings_body(event_id)[1]
        current = kept_round_body(event_id, body["rounds"])[1] if body["rounds"] else None
    except (EventGone, EventNotFound) as error:
        return _missing(error)
    return render_template("event_standings.html", body=body, current=current)


@bp.route("/events/<event_id>/day")
def organiser_day(event_id: str) -> Any:
    found = _day(event_id)
    if isinstance(found, tuple):
        return found
    scoring = str(registry().rules[found.event.system_id].tournament_scoring)
    return render_template("event_day.html", event=found.event, scoring=scoring)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
