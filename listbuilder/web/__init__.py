"""Flask application factory: config, army books loaded once, database, API, pages, error shape.

Modules entered from outside (the blueprints are registered here and entered by URL only):

- ``http``: the plumbing under the blueprints (bodies, errors, OpenAPI, quotas, security)
- ``context``: what every blueprint shares (the registry, the database, the bearer token)
- ``serving``: gunicorn's settings for ``make run``
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from flask import Flask

from listbuilder.books.loader import load_registry
from listbuilder.books.stored import with_imported_books
from listbuilder.compat.werkzeug import LazyBuilderRule
from listbuilder.formats.lists import FastSchema
from listbuilder.util.lazy import load_now
from listbuilder.web import (
    api,
    book_pages,
    context,
    day_api,
    deleted_events,
    docs,
    event_pages,
    events,
    imports,
    list_pages,
    pages,
    player_pages,
    previews,
    rosters,
    round_pages,
    rounds,
    saved,
    statistics_pages,
)
from listbuilder.web.http import bodies, errors, quotas, security, static_files
from listbuilder.web.http.json_provider import OrjsonProvider
from listbuilder.web.http.openapi import UnionPlugin, systems_by_family
from listbuilder.web.http.public_url import PublicUrl
from listbuilder.web.http.rest import Api, built_spec

# Bodies above this are refused with 413 before parsing (a 300-unit list is well under 200 KB).
MAX_BODY_BYTES = 1024 * 1024

ROOT = Path(__file__).resolve().parent.parent.parent


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    app = Flask(__name__, template_folder=str(ROOT / "templates"), static_folder=str(ROOT / "static"))
    app.url_rule_class = LazyBuilderRule
    app.config.from_mapping(
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        API_TITLE="listbuilder",
        API_VERSION="v1",
        OPENAPI_VERSION="3.1.0",
        OPENAPI_URL_PREFIX="/api/v1",
        OPENAPI_JSON_PATH="openapi.json",
        DATABASE_URL=None,  # see saved.init_app: else $DATABASE_URL, else SQLite in the instance folder
        PACK_RENDER_SECONDS=2.0,
        PUBLIC_URL=None,  # https://lists.example.org: links and QR codes use it, never the Host header (web.public_url)  # rendering a roster pack may spend per request before answering 202 (roster_pack)
    )
    app.config.from_prefixed_env("LISTBUILDER")
    if test_config:
        app.config.update(test_config)
    registry = app.config.get("REGISTRY") or load_registry(app.config.get("BOOKS_FOLDER"))
    # Books imported through the API are found by id wherever a book id is looked up.
    app.extensions[context.REGISTRY_KEY] = with_imported_books(
        registry, lambda: app.extensions.get(context.DATABASE_KEY) or context.open_database(app)
    )
    app.json = OrjsonProvider(app)  # keeps payloads in schema order
    saved.init_app(app)
    app.url_map.converters["book_id"] = api.BookIdConverter

    rest = Api(
        app,
        spec_kwargs={
            "info": {"description": "Build and validate army lists, print rosters, preview combats."},
            "servers": public_servers(app),
            "extra_plugins": [UnionPlugin(lambda: systems_by_family(registry.systems))],
        },
    )
    rest.register_converter(saved.SavedIdConverter, saved.SavedIdConverter.openapi)
    rest.register_converter(api.BookIdConverter, api.BookIdConverter.openapi)
    rest.register_blueprint(api.blp)
    rest.register_blueprint(rosters.blp)
    rest.register_blueprint(previews.blp)
    rest.register_blueprint(saved.blp)
    saved.register_security(rest)
    rest.register_blueprint(imports.blp)
    events.register(app, rest)
    rounds.register(rest)
    rest.register_blueprint(day_api.blp)
    api.init_app(app)
    bodies.init_app(app)
    docs.init_app(app)
    pages.init_app(app)
    book_pages.init_app(app)
    list_pages.init_app(app)
    event_pages.init_app(app)
    round_pages.init_app(app)
    player_pages.init_app(app)
    statistics_pages.init_app(app)
    errors.init_app(app)  # after Api, so our one error shape wins over flask-smorest's
    deleted_events.init_app(app)  # a deleted event's 410 before a token's 401 or a body's 422
    security.init_app(app)
    static_files.init_app(app)  # /static/<version>/...: URLs that change with the files, kept a year
    quotas.init_app(app)  # after every blueprint: it wraps the views it counts
    if app.config.get("PUBLIC_URL"):
        app.wsgi_app = PublicUrl(app.wsgi_app, app.config["PUBLIC_URL"])  # type: ignore[method-assign]
    return app


def public_servers(app: Flask) -> list[dict[str, str]]:
    """The OpenAPI ``servers``: the configured ``PUBLIC_URL`` (``LISTBUILDER_PUBLIC_URL`` in the
    environment), else the server the document was fetched from (``/``: paths already start
    with ``/api/v1``)."""
    public = (app.config.get("PUBLIC_URL") or "").rstrip("/")
    if public:
        return [{"url": public, "description": "this service"}]
    return [{"url": "/", "description": "the server this document was fetched from"}]


def warm_up(app: Flask) -> Flask:
    """Do once, before gunicorn forks its workers, what the first request would otherwise pay:
    open and migrate the database (a broken DATABASE_URL stops the server here, not at the
    first save), build the OpenAPI document, run the modules start-up leaves lazy, make the rate
    limiter, derive the list format's fast readers, and import WeasyPrint and print one roster,
    so no request pays for a first PDF. ``wsgi.py`` calls it; create_app stays quick for tests and tools.

    Last, everything loaded is frozen out of the cyclic collector's walks (``gc.freeze``): a full
    collection in a worker would otherwise walk every object it inherits and write each one's
    header, copying their pages from the master. No collection runs first: it would slow
    start-up to free the little garbage that the freeze keeps instead (docs/performance.md)."""
    context.open_database(app)
    built_spec(app)
    load_now(
        saved.saved, saved.rosters, events.core, imports.book_importer, imports.list_importer, list_pages.list_diff
    )
    quotas.start(app)
    static_files.current_version(app)
    FastSchema.prepare()
    from listbuilder.printing import pdf  # WeasyPrint: never imported by create_app

    pdf.warm_up(app.extensions[context.REGISTRY_KEY])
    gc.freeze()
    return app
