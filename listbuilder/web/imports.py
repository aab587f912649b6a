"""``POST /api/v1/lists/import``: an Army Forge list in, our list document and its report out.

The list must name units of a book imported from Army Forge (``listbuilder import-book``, or
any book whose ``extra.army_forge`` maps Army Forge ids). A file that cannot be imported is a
422 whose ``errors`` name the place in the request body (``list.list.units[2].id``).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.views import MethodView
from marshmallow import Schema, fields, validate

from listbuilder.canonical import list_document
from listbuilder.importers import ImportFailed
from listbuilder.importers.army_forge_list import convert_list
from listbuilder.lists import ListError, parse_list, validate_list
from listbuilder.schemas.api import ReportOut
from listbuilder.web.api import registry
from listbuilder.web.errors import error_body
from listbuilder.web.rest import Blueprint

blp = Blueprint("imports", __name__, url_prefix="/api/v1", description="Lists from other builders (Army Forge).")


class ListImportIn(Schema):
    book = fields.String(required=True, validate=validate.Length(min=1, max=100), metadata={"description": "id of a book imported from Army Forge"})
    list = fields.Dict(required=True, metadata={"description": "the Army Forge list file as Army Forge saves it (or its inner list object)"})


class ListImportOut(Schema):
    list = fields.Dict(metadata={"description": "the list in this API's format (as /lists/validate takes it)"})
    report = fields.Nested(ReportOut, metadata={"description": "its validation report"})
    army_forge_points = fields.Integer(allow_none=True, metadata={"description": "the points total Army Forge saved with the list, if any"})
    points_match = fields.Boolean(allow_none=True, metadata={"description": "whether our total equals Army Forge's (null when it gave none)"})
    notes = fields.List(fields.String(), metadata={"description": "what was left out or assumed, with the place in the Army Forge file"})


@blp.errorhandler(ImportFailed)
def _import_failed(error: ImportFailed) -> Any:
    errors = {f"list.{path}" if path else "list": messages for path, messages in error.as_errors().items()}
    return jsonify(error_body(422, "Unprocessable Entity", str(error), errors)), 422


@blp.route("/lists/import")
class ImportList(MethodView):
    @blp.arguments(ListImportIn)
    @blp.response(200, ListImportOut)
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: "The Army Forge list cannot be read, names units or upgrades the book lacks, or the book was not imported from Army Forge (errors name the place)."})
    def post(self, body: dict[str, Any]) -> Any:
        """Import an Army Forge list for a book imported from Army Forge: our list and its report."""
        reg = registry()
        book = reg.books.get(body["book"])
        if book is None:
            raise ListError("unknown_book", f"no army book {body['book']!r}", {"book": ["unknown"]}, status=404)
        try:
            converted = convert_list(body["list"], book)
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
