"""Rate limits per client (Flask-Limiter) and caps on what one client or event may grow to.

One client once imported 17 books of 1 MiB in 21 s (about 1.1 GiB of database an hour), and
nothing bounded lists, events or the players of an event. So, per client address:

==========================  ==============  =================================================
setting (environment)       default         counts
==========================  ==============  =================================================
LISTBUILDER_RATE_LIMIT      600/minute      every request but /health and static files: one
                                            budget per client across every endpoint
LISTBUILDER_HEAVY_RATE_LIMIT  60/minute     one shared budget for the heavy kinds: validate-
                                            batch, imports, PDFs (rosters, pairings,
                                            standings), previews, roster pack, revalidate
LISTBUILDER_IMPORTS_PER_HOUR  20            books imported (POST /books/import)
LISTBUILDER_LISTS_PER_HOUR    300           lists saved new or copied (POST /lists, /copy)
LISTBUILDER_EVENTS_PER_HOUR   30            events created
==========================  ==============  =================================================

The first is Flask-Limiter's application limit (one count per client, ``scope="all"``), not
its default limits, which count per client *and endpoint*: with those, a client that had
spent its 600 on ``/systems`` got 1,500 more answers from five other endpoints (issue 36). A
heavy request or a new list spends from its own budget and from the 600 alike.

Over a limit: 429 in the API's error shape, with ``Retry-After``. And per event,
``LISTBUILDER_MAX_PLAYERS`` (1000) players: a new player past it is 413 naming ``player``
(checked before the submission's transaction, so players submitting at the very same moment
at the cap can pass it by as many as they are).

Counts live in Redis when ``REDIS_URL`` is set, shared by every worker and instance; a Redis
that fails is replaced by counts in the worker (Flask-Limiter's in-memory fallback) until it
answers again. A storage error never becomes an answer (``swallow_errors``): the limiter
checks Redis before the view and reads it again after, for the ``X-RateLimit-*`` headers,
and when Redis dies between the two, or under several requests at once, the requests that
find it dead after another one switched to the fallback are let through uncounted, or
answered without those headers, instead of with a 500 (killing Redis under load gave 1 x 500
in 22,118 requests before). Without Redis each worker process counts alone, so a client can reach the
limit once per worker. Behind a reverse proxy the client is the proxy unless
``LISTBUILDER_PROXY_HOPS`` says how many proxies append to ``X-Forwarded-For``. The limits are
off in tests (``TESTING``) unless ``RATELIMIT_ENABLED`` is set.

Flask-Limiter and its ``limits`` package (which imports asyncio) are the largest import of
start-up, so the limiter is made by the first request, before Flask sees it (``_LimitsFirst``),
or by ``start`` before gunicorn forks (``web.warm_up``): every request is counted, and no
served worker pays the import inside a request.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix

if TYPE_CHECKING:
    from flask_limiter import Limiter

DEFAULTS = {
    "RATE_LIMIT": "600/minute",
    "HEAVY_RATE_LIMIT": "60/minute",
    "IMPORTS_PER_HOUR": 20,
    "LISTS_PER_HOUR": 300,
    "EVENTS_PER_HOUR": 30,
    "MAX_PLAYERS": 1000,
    "PROXY_HOPS": 0,
}
HEAVY = (
    "api.ValidateBatch",
    "imports.ImportBook",
    "imports.ImportList",
    "rosters.RosterPdf",
    "saved_lists.SavedRosterPdf",
    "previews.Previews",
    "previews.TurnPreviews",
    "previews.ComparePreviews",
    "events.RosterPack",
    "events.Revalidate",
    "rounds.PairingsPdf",
    "rounds.StandingsPdf",
)
UNLIMITED = frozenset({"api.Health", "static"})
LIMITER_KEY = "listbuilder.limiter"
STORAGE_KEY = "listbuilder.limiter_storage"


def init_app(app: Flask) -> None:
    """Settle the settings and have the limiter made before the first request is handled; call
    after every blueprint is registered (the limiter wraps the counted views)."""
    config = app.config
    for name, value in DEFAULTS.items():
        config.setdefault(name, value)
    config.setdefault("RATELIMIT_ENABLED", not app.testing)
    app.extensions[STORAGE_KEY] = _storage()  # read from the environment now, as when the limiter was made here
    app.wsgi_app = _LimitsFirst(app, app.wsgi_app)  # type: ignore[method-assign]
    if config["PROXY_HOPS"]:
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=int(config["PROXY_HOPS"]))  # type: ignore[method-assign]


class _LimitsFirst:
    """WSGI middleware, innermost: makes the app's limiter (``start``) before the first request
    reaches Flask, which takes no new request hooks once it has handled one. Threads arriving
    together wait for the one that makes it."""

    def __init__(self, app: Flask, wsgi_app: Any):
        self.app, self.wsgi_app = app, wsgi_app
        self.started = False
        self.lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
        if not self.started:
            with self.lock:
                if not self.started:
                    start(self.app)
                    self.started = True
        return self.wsgi_app(environ, start_response)


def start(app: Flask) -> Limiter:
    """The app's limiter, made now if it is not yet (before the first request, or before
    gunicorn forks): it hooks into the app and wraps the counted views."""
    if LIMITER_KEY in app.extensions:
        return app.extensions[LIMITER_KEY]
    from flask_limiter import ApplicationLimit, Limiter
    from flask_limiter.util import get_remote_address

    config = app.config
    limiter = Limiter(
        get_remote_address,
        app=app,
        application_limits=[
            ApplicationLimit(
                config["RATE_LIMIT"], scope="all", error_message=_message("RATE_LIMIT", "requests of any kind")
            )
        ],
        headers_enabled=True,
        key_prefix="listbuilder",
        in_memory_fallback_enabled=True,
        swallow_errors=True,
        **app.extensions[STORAGE_KEY],
    )
    app.extensions[LIMITER_KEY] = limiter  # the wrapped views hold it only weakly
    limiter.request_filter(lambda: request.endpoint in UNLIMITED)
    views = app.view_functions
    heavy = limiter.shared_limit(
        config["HEAVY_RATE_LIMIT"], scope="heavy", error_message=_message("HEAVY_RATE_LIMIT", "heavy requests")
    )
    for endpoint in HEAVY:
        views[endpoint] = heavy(views[endpoint])
    _per_hour(limiter, views, "imports.ImportBook", config["IMPORTS_PER_HOUR"], "IMPORTS_PER_HOUR", "books imported")
    _per_hour(limiter, views, "events.Events", config["EVENTS_PER_HOUR"], "EVENTS_PER_HOUR", "events created")
    lists = limiter.shared_limit(
        f"{int(config['LISTS_PER_HOUR'])}/hour",
        scope="new-lists",
        methods=["POST"],
        error_message=_message("LISTS_PER_HOUR", "lists saved new or copied"),
    )
    for endpoint in ("saved_lists.SavedLists", "saved_lists.Copy"):
        views[endpoint] = lists(views[endpoint])
    return limiter


def _per_hour(limiter: Limiter, views: dict[str, Any], endpoint: str, count: int, setting: str, what: str) -> None:
    views[endpoint] = limiter.limit(f"{int(count)}/hour", methods=["POST"], error_message=_message(setting, what))(
        views[endpoint]
    )


def _message(setting: str, what: str) -> str:
    return f"too many {what} from this client (LISTBUILDER_{setting}); try again after Retry-After seconds"


def _storage() -> dict[str, Any]:
    """Redis when REDIS_URL is set (short timeouts: a hanging Redis must not hold requests), else memory."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return {"storage_uri": "memory://"}
    return {"storage_uri": url, "storage_options": {"socket_timeout": 0.25, "socket_connect_timeout": 0.25}}


def check_players(count: int, known: bool, cap: int) -> None:
    """A new player at an event that already has *cap*: 413 naming ``player``. Raises ListError."""
    from listbuilder.lists.documents import ListError

    if not known and count >= cap:
        raise ListError(
            "event_full",
            f"this event has its {cap} players, the most one event takes (LISTBUILDER_MAX_PLAYERS)",
            {"player": [f"the event is full ({cap} players)"]},
            status=413,
        )
