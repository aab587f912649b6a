"""A deleted event answers 410 on every endpoint that names it, whatever the token and the body.

The organiser's DELETE keeps the event's rows and marks it deleted; from then on every request
to a URL with an ``event_id`` in it (the API's and the pages') answers 410 Gone: with no token,
a wrong one or the organiser's, and with no body, an empty one or one that is not JSON. An
unknown id stays 404. Each endpoint answers 410 itself once it reads the event; what it finds
out before (a missing token, 401; a body that does not parse, 400 or 422) is turned into the
event's 410 here, after the request, so no endpoint has to read the event first and the check
costs one read on error answers only. Before issue 36 a deleted event answered 401 to a
DELETE or a close without a token, 422 to a POST with an incomplete body, 500 on its page and
404 on its standings and day pages. ``tests/web/test_deleted_event.py`` tries every such
endpoint of the URL map, so one added later is held to the same order.
"""

from __future__ import annotations

from flask import Flask, Response, render_template, request

from listbuilder.store.errors import EventGone
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database
from listbuilder.web.http.errors import store_error_response

store = lazy_module("listbuilder.store.events")

# The answers a deleted event's 410 replaces: what an endpoint finds out before it reads the
# event (the token, the body). 404 is an unknown id, 405 the URL's methods, 429 the client's quota.
BEFORE_GONE = frozenset(range(400, 500)) - {404, 405, 410, 429}
DELETED = "This event was deleted by its organiser."


def gone_first(response: Response) -> Response:
    """A 4xx to a request naming a deleted event becomes that event's 410, in place (the headers
    added before this hook, security and rate limits, stay). An answer that succeeded, or an
    event that cannot be read (unknown, or the database away), is left as it is."""
    event_id = (request.view_args or {}).get("event_id")
    if not event_id or response.status_code not in BEFORE_GONE:
        return response
    try:
        store.read_event(database(), str(event_id))
    except EventGone as gone:
        if request.path.startswith("/api/"):
            response.set_data(store_error_response(gone).get_data())
            response.mimetype = "application/json"
        else:
            response.set_data(render_template("not_found.html", message=DELETED))
            response.mimetype = "text/html"
        response.status_code = 410
        response.headers.pop("WWW-Authenticate", None)
    except Exception:  # noqa: BLE001 - unknown, or the database is away: the endpoint's answer stands
        pass
    return response


def init_app(app: Flask) -> None:
    app.after_request(gone_first)
