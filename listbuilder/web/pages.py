"""Pages for people: pick a system, pick a book, build a list in the browser.

The pages are thin Jinja shells. Everything the builder shows (book contents, costs, totals,
issues, previews, rosters) is fetched by ``static/js/`` from the REST API, so the browser and
the API never disagree. Unknown systems and books get an HTML page saying so (not JSON).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, current_app, render_template, request, send_from_directory

from listbuilder.books.editions import edition_note, player_edition
from listbuilder.importers.army_forge import LINES
from listbuilder.web.context import registry

bp = Blueprint("pages", __name__)
_ARMY_FORGE_SYSTEMS = [line.system for line in LINES]


@bp.route("/")
def home() -> str:
    reg = registry()
    systems = [(s, reg.books_of(s.id), player_edition(s)) for s in reg.systems.values()]
    return render_template("home.html", systems=systems)


@bp.route("/systems/<system_id>")
def system(system_id: str) -> Any:
    reg = registry()
    found = reg.systems.get(system_id)
    if found is None:
        return _not_found(f"There is no game system called “{system_id}”.")
    return render_template("system.html", system=found, books=reg.books_of(system_id), edition=player_edition(found))


@bp.route("/systems/<system_id>/rules-edition")
def rules_edition(system_id: str) -> Any:
    """Which rulebook a system's lists are checked by, and what a player who knows another
    edition (Army Forge's) will notice, in the players' text of ``rules_editions.yaml``: the
    system file's notes and edition changes are written for maintainers (clauses, field names)."""
    found = registry().systems.get(system_id)
    if found is None:
        return _not_found(f"There is no game system called “{system_id}”.")
    return render_template("rules_edition.html", system=found, edition=player_edition(found))


@bp.route("/build/<book_id>")
def builder(book_id: str) -> Any:
    reg = registry()
    book = reg.books.get(book_id)
    if book is None:
        return _not_found(f"There is no army book called “{book_id}”.")
    system = reg.systems[book.system]
    return render_template(
        "builder.html", book=book, system=system, edition=edition_note(book, system), rules=player_edition(system)
    )


@bp.route("/import")
def import_page() -> str:
    """Army Forge books and lists in (static/js/import.js calls the import API)."""
    reg = registry()
    return render_template("import.html", systems=[reg.systems[s] for s in _ARMY_FORGE_SYSTEMS if s in reg.systems])


# Installable app: the icon, the manifest and the service worker live in static/app/ but are
# served from the site root (a worker only controls pages under its own path).
_APP_FILES = {
    "/favicon.ico": ("icon.svg", "image/svg+xml"),
    "/manifest.webmanifest": ("manifest.webmanifest", "application/manifest+json"),
    "/sw.js": ("sw.js", "text/javascript"),
}


@bp.route("/favicon.ico")
@bp.route("/manifest.webmanifest")
@bp.route("/sw.js")
def app_file() -> Response:
    name, mimetype = _APP_FILES[request.path]
    response = send_from_directory(current_app.static_folder + "/app", name, mimetype=mimetype, max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # the browser checks for a new worker on every visit
    return response


def _not_found(message: str) -> tuple[str, int]:
    return render_template("not_found.html", message=message), 404


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
