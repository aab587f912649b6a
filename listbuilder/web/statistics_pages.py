"""An event's statistics page (``/events/<id>/statistics``): the results joined to the lists,
per army book and per unit, with charts (``events/charts``) and the CSV; public once the
organiser opens the statistics (until then the page says so and shows nothing).
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Flask, Response, abort, render_template

from listbuilder.store.errors import EventGone, EventNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database, event_body, missing_event_page, registry, scoring_of

store = lazy_module("listbuilder.store.rounds")
stats = lazy_module("listbuilder.events.statistics")
charts = lazy_module("listbuilder.events.charts")

bp = Blueprint("statistics_pages", __name__)
CHART_POLICY = "default-src 'none'; style-src 'unsafe-inline'"  # pygal's styles inside the SVG; no script at all


def _public_statistics(event_id: str) -> tuple[dict[str, Any] | None, Any]:
    """The statistics (None until the organiser opens them) and the day. Raises EventGone, EventNotFound."""
    found = store.read_day(database(), event_id)
    if not stats.is_public(found):
        return None, found
    return stats.event_statistics(database(), registry(), found, scoring_of(found.event)), found


def _names() -> tuple[dict[str, str], dict[tuple[str, str], str]]:
    books = registry().books
    return (
        {b: book.name for b, book in books.items()},
        {(b, u.id): u.name for b, book in books.items() for u in book.units},
    )


@bp.route("/events/<event_id>/statistics")
def page(event_id: str) -> Any:
    try:
        body, day = _public_statistics(event_id)
    except (EventGone, EventNotFound) as missing:
        return missing_event_page(missing)
    book_names, unit_names = _names()
    return render_template(
        "event_statistics.html",
        event=event_body(day.event),
        body=body,
        book_names=book_names,
        unit_names=unit_names,
    )


@bp.route("/events/<event_id>/statistics/<chart>.svg")
def chart(event_id: str, chart: str) -> Any:
    try:
        body, _ = _public_statistics(event_id)
    except (EventGone, EventNotFound) as missing:
        return missing_event_page(missing)
    if body is None or chart not in ("factions", "units", "categories"):
        abort(404)
    book_names, unit_names = _names()
    if chart == "categories":
        svg = charts.categories_chart(body["categories"])
    elif chart == "factions":
        svg = charts.factions_chart(body["factions"], book_names)
    else:
        svg = charts.units_chart(body["units"], unit_names)
    response = Response(svg, mimetype="image/svg+xml")
    response.headers["Content-Security-Policy"] = CHART_POLICY
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
