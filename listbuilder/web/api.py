"""The REST API under /api/v1: systems, army books and list validation.

Views stay thin: they find the registry loaded at start-up, call the core, and let the
schemas in ``listbuilder.shapes`` describe payloads (and the OpenAPI document).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from flask import jsonify
from flask.views import MethodView
from flask_smorest import abort
from marshmallow import fields
from werkzeug.http import HTTP_STATUS_CODES
from werkzeug.routing import BaseConverter

from listbuilder.books.editions import edition_note
from listbuilder.families import FAMILIES
from listbuilder.formats.fields import OutSchema, Schema
from listbuilder.lists.documents import ListError, book_for, parse_list, validate_list
from listbuilder.model import ArmyList, GameSystem
from listbuilder.resolve import resolve_entry
from listbuilder.shapes.api import BookOut, BookSummaryOut, ProfileOut, ReportOut, SystemDetailOut, SystemSummaryOut
from listbuilder.shapes.events import MAX_BATCH, BatchIn, BatchOut
from listbuilder.shapes.situation_forms import preview_form
from listbuilder.web.context import ARMY_LIST, BookAnswer, registry
from listbuilder.web.http.errors import error_body
from listbuilder.web.http.rest import LIST_422, Blueprint

# One schema instance for every request: webargs builds a new one per request from a class,
# and building one deep-copies every field (about a quarter of a validation request's time).

blp = Blueprint(
    "api",
    __name__,
    url_prefix="/api/v1",
    description="Game systems, army books and list validation.",
    tags={
        "service": "Whether the service is up.",
        "systems": "Game systems: glossaries, composition parameters, game modes, issue codes.",
        "books": "Army books: units, weapons, rules, spells and upgrade sections.",
        "validation": "List validation: legal or not, totals, and every issue with its path and clause.",
    },
)


class BookIdConverter(BaseConverter):
    """A book id in a URL, never the word of the route beside ``/books/<id>``: so
    ``/books/import`` answers only for itself (405 with its own ``Allow`` for GET)."""

    regex = r"(?!import$)[^/]+"

    @staticmethod
    def openapi(converter: BaseConverter) -> dict[str, str]:
        return {"type": "string", "description": "a book's id (a listed book's, or one an import answered)"}


class SystemDetail:
    """A game system with what its rules object, the registry and its family's record (the
    preview form, how its stats read) add (see SystemDetailOut)."""

    def __init__(self, system: GameSystem, limits: dict[str, Any], issue_codes: Mapping[str, str], books: list[str]):
        self.system, self.limits, self.issue_codes, self.books = system, limits, issue_codes, books
        self.preview = preview_form(system)
        self.stat_formats = stat_formats(system)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.system, name)


_PLACEHOLDER = re.compile(r"\{[^{}]*\}")  # "{value}", "{missile_range}" in a sheet's column format


def stat_formats(system: GameSystem) -> dict[str, str]:
    """How the family's roster sheet writes a stat on its own, by stat: ``{"quality": "{value}+"}``
    (columns that combine stats, or print the value as it is, are left out)."""
    family = FAMILIES.get(system.family)
    sheet = family.part("sheet") if family is not None else None
    columns = sheet.stats if sheet is not None else ()
    return {
        c.key: c.fmt
        for c in columns
        if ":" not in c.key and c.fmt != "{value}" and _PLACEHOLDER.findall(c.fmt) == ["{value}"]
    }


class BookQuery(Schema):
    system = fields.String(metadata={"description": "only the books of this game system"})


class ValidateQuery(Schema):
    profiles = fields.Boolean(
        load_default=False,
        metadata={"description": "add each entry's profile after upgrades (weapons, items, rules) to entries"},
    )


VALIDATE_QUERY = ValidateQuery()  # an instance, as ARMY_LIST
PROFILE = ProfileOut()


class HealthOut(OutSchema):
    status = fields.String()
    books = fields.Integer()


@blp.route("/health", tags=["service"])
class Health(MethodView):
    @blp.response(200, HealthOut)
    @blp.doc(operationId="getHealth")
    def get(self) -> Any:
        """Liveness check for load balancers (also the benchmark's trivial baseline)."""
        return {"status": "ok", "books": len(registry().books)}


@blp.route("/systems", tags=["systems"])
class Systems(MethodView):
    @blp.response(200, SystemSummaryOut(many=True))
    @blp.doc(operationId="listSystems")
    def get(self) -> Any:
        """List the game systems."""
        return list(registry().systems.values())


@blp.route("/systems/<system_id>", tags=["systems"])
class System(MethodView):
    @blp.response(200, SystemDetailOut)
    @blp.errors(404)
    @blp.doc(operationId="getSystem")
    def get(self, system_id: str) -> Any:
        """Read one game system: glossary, composition parameters, game modes, issue codes, and
        the builder's combat preview form."""
        reg = registry()
        system = reg.systems.get(system_id)
        if system is None:
            abort(
                404,
                message=f"no game system {system_id!r}",
                errors={"system_id": [f"unknown; known: {sorted(reg.systems)}"]},
            )
        rules = reg.rules[system_id]
        limits = {k: v for k, v in rules.describe().items() if k != "composition"}
        return SystemDetail(system, limits, rules.issue_codes, [b.id for b in reg.books_of(system_id)])


@blp.route("/books", tags=["books"])
class Books(MethodView):
    @blp.arguments(BookQuery, location="query")
    @blp.response(200, BookSummaryOut(many=True))
    @blp.errors(404)
    @blp.doc(operationId="listBooks")
    def get(self, query: dict[str, str]) -> Any:
        """List army books, optionally of one system."""
        reg = registry()
        system = query.get("system")
        if system is not None and system not in reg.systems:
            abort(
                404, message=f"no game system {system!r}", errors={"system": [f"unknown; known: {sorted(reg.systems)}"]}
            )
        return reg.books_of(system) if system else list(reg.books.values())


@blp.route("/books/<book_id:book_id>", tags=["books"])
class Book(MethodView):
    @blp.response(200, BookOut)
    @blp.errors(404)
    @blp.doc(operationId="getBook")
    def get(self, book_id: str) -> Any:
        """Read one army book: units, weapons, rules, spells and upgrade sections."""
        reg = registry()
        book = reg.books.get(book_id)
        if book is None:
            abort(404, message=f"no army book {book_id!r}", errors={"book_id": ["unknown"]})
        return BookAnswer(book, edition_note(book, reg.systems[book.system]))


@blp.route("/lists/validate", tags=["validation"])
class ValidateList(MethodView):
    @blp.arguments(VALIDATE_QUERY, location="query")
    @blp.arguments(ARMY_LIST)
    @blp.response(200, ReportOut)
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: LIST_422})
    @blp.doc(operationId="validateList")
    def post(self, query: dict[str, Any], army: ArmyList) -> Any:
        """Validate an army list: legal or not, totals, and every issue with path and clause."""
        # as_dict() is already in ReportOut's shape (tests check that dumping it changes
        # nothing): sent as is, instead of re-serialising every issue through marshmallow.
        answer = validate_list(registry(), army).as_dict()
        if query["profiles"]:
            add_profiles(army, answer["entries"])
        return jsonify(answer)


def add_profiles(army: ArmyList, entries: dict[str, dict[str, Any]]) -> None:
    """Each priced entry's profile after upgrades, for the builder's live unit profile.

    Resolution is remembered per book (listbuilder.resolve), so this reuses what validating
    just built; entries that could not be resolved (unknown unit) have no price and no profile.
    """
    _, book = book_for(registry(), army)
    for index, entry in enumerate(army.units):
        resolved, _ = resolve_entry(book, entry, index)
        if resolved is not None and entry.key in entries:
            entries[entry.key]["profile"] = PROFILE.dump(resolved)


# A batch of 1000 ordinary lists (1-2 KB each) is over the 1 MiB every other body is held to.
BATCH_BODY_BYTES = 16 * 1024 * 1024


@blp.route("/lists/validate-batch", tags=["validation"])
class ValidateBatch(MethodView):
    @blp.arguments(BatchIn)
    @blp.response(200, BatchOut)
    @blp.errors(
        400,
        413,
        415,
        422,
        descriptions={413: f"over {MAX_BATCH} lists, or the body is over {BATCH_BODY_BYTES // 2**20} MiB"},
    )
    @blp.doc(operationId="validateLists")
    def post(self, data: dict[str, Any]) -> Any:
        """Validate up to 1000 lists in one request: one report per list, in the order sent.

        A list that cannot be checked (malformed, or naming a system or book we do not have)
        gets its error, in the one error shape, in its place; the others are still reported.
        """
        lists = data["lists"]
        if len(lists) > MAX_BATCH:
            abort(
                413,
                message=f"{len(lists)} lists: a batch holds at most {MAX_BATCH}",
                errors={"lists": [f"at most {MAX_BATCH} lists"]},
            )
        reg = registry()
        reports = []
        for index, raw in enumerate(lists):
            try:
                reports.append({"index": index, "report": validate_list(reg, parse_list(raw)).as_dict(), "error": None})
            except ListError as exc:
                error = error_body(
                    exc.status, HTTP_STATUS_CODES.get(exc.status, "Unprocessable Entity"), exc.message, exc.errors
                )
                reports.append({"index": index, "report": None, "error": error})
        # sent as built, like /lists/validate: the reports are already in ReportOut's shape
        return jsonify(
            {"reports": reports, "valid": sum(1 for r in reports if r["report"] is not None and r["report"]["valid"])}
        )


def init_app(app: Any) -> None:
    """Let the batch endpoint take a larger body than the rest of the API."""
    app.config.setdefault("BODY_LIMITS", {})["api.ValidateBatch"] = BATCH_BODY_BYTES
