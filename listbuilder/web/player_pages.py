"""A player's own page for an event (``/events/<id>/me``): their entry, check-in, this round's
table, their result to enter or confirm, their standing.

Nothing secret is rendered on the server: the page's script (``static/js/event_me.js``) reads
the player token from the fragment (``#player=<token>``, the link for another device; browsers
never send a fragment) or from this browser's memory, and works through the API (``GET /me``).

The opponent's list is shown as the share page's unit cards (``list_cards.html``, drawn from the
printed roster's view model): ``/events/<id>/cards/<list_id>/<version>`` renders a list version
submitted to the event as that fragment, which the page's script puts under the table. It
holds only what ``/l/<list_id>?version=<n>`` shows anyone with the list's id already.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, abort, render_template

from listbuilder.store.errors import EventGone, EventNotFound, ListGone, ListNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.web import unit_cards
from listbuilder.web.context import database, event_body, missing_event_page, registry, scoring_of

store = lazy_module("listbuilder.store.events")
lists_store = lazy_module("listbuilder.store.lists")
saved = lazy_module("listbuilder.lists.saved")

# A list of more units than this starts folded under the table (a phone scrolls past it).
OPEN_UP_TO = 4

bp = Blueprint("player_pages", __name__)


@bp.route("/events/<event_id>/me")
def me(event_id: str) -> Any:
    try:
        event = store.read_event(database(), event_id)
    except (EventGone, EventNotFound) as missing:
        return missing_event_page(missing)
    return render_template("event_me.html", event=event_body(event), scoring=scoring_of(event))


@bp.route("/events/<event_id>/cards/<list_id>/<int:version>")
def list_cards(event_id: str, list_id: str, version: int) -> Any:
    """A list version submitted to this event, as the share page's unit cards (a fragment);
    404 for any other version or list, 410 (as every page of it) for an event since deleted."""
    db = database()
    try:
        if not store.was_submitted(db, event_id, list_id, version):
            abort(404)
        found = lists_store.read_version(db, list_id, version)
    except (EventGone, EventNotFound) as missing:
        return missing_event_page(missing)
    except (ListGone, ListNotFound):
        abort(404)
    books = registry()
    roster = unit_cards.version_roster(db, books, found, saved.check_version(db, books, found).army)
    if roster is None:  # its book is gone: the page keeps its link to the list
        abort(404)
    return render_template("event_cards.html", roster=roster, open=len(roster.blocks) <= OPEN_UP_TO)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
