"""Pages for events: creating one (``/events/new``) and an event's page (``/events/<id>``).

The event's page is public (settings, pinned books, deadline) and is where players submit a
list this browser can edit (``static/js/event.js``). The organiser's report on the same page
is fetched by the script with the organiser token, which arrives in the page's fragment
(``/events/<id>#organiser=<token>``) or is typed into a form: browsers never send either to
the server, so the token reaches no log. Nothing secret is rendered on the server.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Blueprint, Flask, render_template

from listbuilder.store.errors import EventGone, EventNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database, event_body, registry

store = lazy_module("listbuilder.store.events")

bp = Blueprint("event_pages", __name__)


@bp.route("/events/new")
def new() -> str:
    systems = sorted(registry().systems.values(), key=lambda s: s.name)
    return render_template("event_new.html", systems=systems)


@bp.route("/events/<event_id>")
def view(event_id: str) -> Any:
    try:
        event = store.read_event(database(), event_id)
    except EventGone:
        return render_template("not_found.html", message="This event was deleted by its organiser."), 410
    except EventNotFound:
        return render_template(
            "not_found.html", message="There is no event at this address. Check the link you were given."
        ), 404
    system = registry().systems.get(event.system_id)
    return render_template(
        "event.html",
        event=event_body(event),
        system_name=system.name if system is not None else event.system_id,
        now=dt.datetime.now(dt.timezone.utc),
    )


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
