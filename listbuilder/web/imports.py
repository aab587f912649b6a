"""Army Forge files in: ``POST /api/v1/books/import`` and ``POST /api/v1/lists/import``.

A book export is converted and stored in the database under a new random id that nothing
lists (``listbuilder.importers.stored``); from then on that id works wherever a book id does. A list
must name units of a book imported from Army Forge (through the API, ``listbuilder
import-book``, or any book whose ``extra.army_forge`` maps Army Forge ids). A file that cannot
be imported is a 422 whose ``errors`` name the place in the request body (``units[2].cost``
for a book, ``list.list.units[2].id`` for a list); nothing of it is stored.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, url_for
from flask.views import MethodView
from marshmallow import INCLUDE, ValidationError, fields, pre_load, validate

from listbuilder.books.editions import edition_note
from listbuilder.formats.fields import OutSchema, Schema, WholeNumber
from listbuilder.importers import ImportFailed
from listbuilder.importers.army_forge import LINES, supported
from listbuilder.importers.stored import import_book
from listbuilder.lists.canonical import list_document
from listbuilder.lists.documents import ListError, parse_list, validate_list
from listbuilder.shapes.api import BookSummaryOut, EditionOut, ListDocument, ReportOut
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import database, registry
from listbuilder.web.http.bodies import BodyError
from listbuilder.web.http.errors import error_body
from listbuilder.web.http.rest import Blueprint

# The converters run on the first import, not at start-up.
book_importer = lazy_module("listbuilder.importers.army_forge_book")
list_importer = lazy_module("listbuilder.importers.army_forge_list")

blp = Blueprint(
    "imports",
    __name__,
    url_prefix="/api/v1",
    description="Books and lists from other builders (Army Forge).",
    tags={"imports": "Books and lists from other builders (Army Forge)."},
)


class ArmyForgeUnitIn(Schema):
    """What every unit of an export has (its other fields are read by the importer, which
    names the path of anything it cannot use). Unit ids are unique within the book, and an
    age-of-fantasy-regiments unit of several models has a formation size (3, 5, 6 or 10)."""

    class Meta:
        unknown = INCLUDE

    id = fields.String(required=True, validate=validate.Length(min=1, max=100))
    name = fields.String(required=True, validate=validate.Length(max=200))
    size = WholeNumber(required=True, validate=validate.Range(min=1, max=1000))
    cost = WholeNumber(required=True, validate=validate.Range(min=0, max=100_000))
    quality = WholeNumber(required=True, validate=validate.Range(min=2, max=6))
    defense = WholeNumber(required=True, validate=validate.Range(min=2, max=6))


class ArmyForgeBookIn(Schema):
    """The Army Forge book export itself, as Army Forge (3.x) saves it. The fields below are
    checked first; everything else (upgradePackages, specialRules, spells, ...) is read by the
    importer, which names the path in the file of anything it cannot use."""

    class Meta:
        unknown = INCLUDE

    gameSystemSlug = fields.String(
        required=True,
        validate=validate.OneOf(
            [line.slug for line in LINES], error=f"not a game line with a rulebook here; supported: {supported()}"
        ),
    )
    name = fields.String(required=True, validate=validate.Length(max=200))
    units = fields.List(fields.Nested(ArmyForgeUnitIn), required=True, validate=validate.Length(min=1))

    @pre_load
    def _not_a_list(self, data: Any, **_: Any) -> Any:
        """A list file sent as a book: say so, rather than list every book field it lacks."""
        if isinstance(data, dict) and isinstance(data.get("list"), dict) and "units" not in data:
            raise ValidationError(book_importer.NOT_A_BOOK, field_name="list")
        return data


class BookImportOut(OutSchema):
    id = fields.String(
        metadata={
            "description": "the new book's id: unlisted (GET /books never shows it), usable wherever a book id is"
        }
    )
    url = fields.String(metadata={"description": "the book in this API (GET)"})
    builder_url = fields.String(metadata={"description": "the page that builds a list from it"})
    book = fields.Nested(BookSummaryOut)
    warnings = fields.List(
        fields.String(),
        metadata={"description": "what the book loads with but a player should know (rules defined nowhere)"},
    )
    undefined_rules = fields.List(
        fields.String(),
        metadata={
            "description": "rules the book uses that neither the export nor the rulebook glossary defines: lists using them get a warning, previews do not model them"
        },
    )
    notes = fields.List(
        fields.String(), metadata={"description": "what was left out or guessed, with the place in the Army Forge file"}
    )
    edition = fields.Nested(
        EditionOut,
        metadata={
            "description": "the rules the book is checked under, the edition it was written for, and which checks that changes"
        },
    )


class ListImportIn(Schema):
    book = fields.String(
        required=True,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "id of a book imported from Army Forge"},
    )
    list = fields.Dict(
        required=True,
        metadata={"description": "the Army Forge list file as Army Forge saves it (or its inner list object)"},
    )


class ListImportOut(OutSchema):
    list = ListDocument(metadata={"description": "the list in this API's format (as /lists/validate takes it)"})
    report = fields.Nested(ReportOut, metadata={"description": "its validation report"})
    army_forge_points = fields.Integer(
        allow_none=True, metadata={"description": "the points total Army Forge saved with the list, if any"}
    )
    points_match = fields.Boolean(
        allow_none=True, metadata={"description": "whether our total equals Army Forge's (null when it gave none)"}
    )
    notes = fields.List(
        fields.String(), metadata={"description": "what was left out or assumed, with the place in the Army Forge file"}
    )


@blp.errorhandler(ImportFailed)
def _import_failed(error: ImportFailed) -> Any:
    errors = {f"list.{path}" if path else "list": messages for path, messages in error.as_errors().items()}
    return jsonify(error_body(422, "Unprocessable Entity", str(error), errors)), 422


@blp.route("/books/import")
class ImportBook(MethodView):
    @blp.doc(operationId="importBook")
    @blp.arguments(ArmyForgeBookIn)
    @blp.response(
        201, BookImportOut, headers={"Location": {"description": "the new book's URL", "schema": {"type": "string"}}}
    )
    @blp.errors(
        400,
        413,
        415,
        422,
        descriptions={
            413: "The file is over 1 MiB (the largest Army Forge book is about half that).",
            422: "Not an Army Forge book export of a game line we have rules for, or malformed (errors name the path in the file); nothing is stored.",
        },
    )
    def post(self, data: dict[str, Any]) -> Any:
        """Import an Army Forge book: stored under a new unlisted id, usable wherever a book id is."""
        try:
            imported = import_book(database(), registry(), data)
        except ImportFailed as exc:
            raise BodyError(422, str(exc), exc.as_errors()) from None
        book = imported.book
        url = url_for("api.Book", book_id=book.id, _external=True)
        body = {
            "id": book.id,
            "url": url,
            "builder_url": url_for("pages.builder", book_id=book.id, _external=True),
            "book": book,
            "warnings": imported.warnings,
            "undefined_rules": imported.undefined_rules,
            "notes": imported.notes,
            "edition": edition_note(book, registry().systems[book.system]),
        }
        return body, 201, {"Location": url}


@blp.route("/lists/import")
class ImportList(MethodView):
    @blp.doc(operationId="importList")
    @blp.arguments(ListImportIn)
    @blp.response(200, ListImportOut)
    @blp.errors(
        400,
        404,
        413,
        415,
        422,
        descriptions={
            422: "The Army Forge list cannot be read, names units or upgrades the book lacks, or the book was not imported from Army Forge (errors name the place)."
        },
    )
    def post(self, body: dict[str, Any]) -> Any:
        """Import an Army Forge list for a book imported from Army Forge: our list and its report."""
        reg = registry()
        book = reg.books.get(body["book"])
        if book is None:
            raise ListError("unknown_book", f"no army book {body['book']!r}", {"book": ["unknown"]}, status=404)
        try:
            converted = list_importer.convert_list(body["list"], book)
        except ImportFailed as exc:
            if exc.code == "book_mismatch" and exc.path == "book":
                raise ListError("book_mismatch", exc.message, {"book": [exc.message]}) from None
            raise
        army = parse_list(converted.document)
        report = validate_list(reg, army)
        points = converted.army_forge_points
        return {
            "list": list_document(army),
            "report": report.as_dict(),
            "army_forge_points": points,
            "points_match": None if points is None else report.totals.get("pts") == points,
            "notes": converted.notes,
        }
