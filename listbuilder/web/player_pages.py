"""A player's own page for an event (``/events/<id>/me``): their entry, check-in, this round's
table, their result to enter or confirm, their standing.

Nothing secret is rendered on the server: the page's script (``static/js/event_me.js``) reads
the player token from the fragment (``#player=<token>``, the link for another device; browsers
never send a fragment) or from this browser's memory, and works through the API (``GET /me``).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, render_template

from listbuilder.store.errors import EventGone, EventNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database, event_body, missing_event_page, scoring_of

store = lazy_module("listbuilder.store.events")

bp = Blueprint("player_pages", __name__)


@bp.route("/events/<event_id>/me")
def me(event_id: str) -> Any:
    try:
        event = store.read_event(database(), event_id)
    except (EventGone, EventNotFound) as missing:
        return missing_event_page(missing)
    return render_template("event_me.html", event=event_body(event), scoring=scoring_of(event))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
