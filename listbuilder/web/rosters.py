"""Printed rosters under /api/v1/rosters: the same list body as validation, as PDF, text or HTML.

An illegal list still prints (with its "not a legal list" banner); a list naming a system or
book we do not have gets the same 4xx as ``/lists/validate``.
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for
from flask.views import MethodView
from marshmallow import fields, validate

from listbuilder.formats.fields import Schema
from listbuilder.model import ArmyList
from listbuilder.printing.budget import RosterListSchema, check_entries, check_roster
from listbuilder.printing.html import LAYOUTS, PAPERS, render_html
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import list_code, registry
from listbuilder.web.http.downloads import BINARY, CODE_HEADER, TEXT, content_disposition, download_name
from listbuilder.web.http.rest import LIST_422, Blueprint

rosters = lazy_module("listbuilder.printing.rosters")  # loaded by the first roster (or wsgi's warm_up), not at start-up

ROSTER_LIST = RosterListSchema()

blp = Blueprint(
    "rosters",
    __name__,
    url_prefix="/api/v1/rosters",
    description="Printable army rosters: PDF, forum text, HTML preview.",
    tags={"rosters": "Printable army rosters of a list sent in the body: PDF, forum text, HTML preview."},
)


class PaperQuery(Schema):
    paper = fields.String(
        load_default="a4", validate=validate.OneOf(sorted(PAPERS)), metadata={"description": "page size: a4 or letter"}
    )
    layout = fields.String(
        load_default="sheet",
        validate=validate.OneOf(sorted(LAYOUTS)),
        metadata={"description": "sheet (compact, the default) or cards (one card per unit, to cut out)"},
    )


# Every roster answer names the list's verification code, as printed on each page.
@blp.route("/pdf")
class RosterPdf(MethodView):
    @blp.doc(operationId="printRosterPdf")
    @blp.arguments(PaperQuery, location="query")
    @blp.arguments(ROSTER_LIST)
    @blp.response(
        200, BINARY, content_type="application/pdf", description="The roster as a PDF file.", headers=CODE_HEADER
    )
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: LIST_422})
    def post(self, query: dict[str, str], army: ArmyList) -> Any:
        """Print an army list as a PDF roster (A4 or US Letter; compact sheet or unit cards), legal or not."""
        from listbuilder.printing.pdf import roster_pdf  # loaded by wsgi.warm_up before the workers fork

        pdf = roster_pdf(registry(), army, paper=query["paper"], layout=query["layout"])
        response = Response(pdf, mimetype="application/pdf")
        response.headers["Content-Disposition"] = content_disposition("attachment", download_name(army, "pdf"))
        response.headers["X-Verification-Code"] = list_code(army)
        return response


@blp.route("/text")
class RosterText(MethodView):
    @blp.doc(operationId="printRosterText")
    @blp.arguments(ROSTER_LIST)
    @blp.response(
        200, TEXT, content_type="text/plain", description="One line per unit, for forums.", headers=CODE_HEADER
    )
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: LIST_422})
    def post(self, army: ArmyList) -> Any:
        """The roster as compact text: a header line, then one line per unit."""
        roster = rosters.build_roster(registry(), army)
        return Response(
            rosters.roster_text(roster), mimetype="text/plain", headers={"X-Verification-Code": roster.code}
        )


@blp.route("/html")
class RosterHtml(MethodView):
    @blp.doc(operationId="printRosterHtml")
    @blp.arguments(PaperQuery, location="query")
    @blp.arguments(ROSTER_LIST)
    @blp.response(
        200, TEXT, content_type="text/html", description="The print preview as an HTML page.", headers=CODE_HEADER
    )
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: LIST_422})
    def post(self, query: dict[str, str], army: ArmyList) -> Any:
        """The roster as the HTML print preview (same document the PDF is made from)."""
        check_entries(army)
        roster = rosters.build_roster(registry(), army)
        check_roster(roster)
        html = render_html(
            roster,
            paper=query["paper"],
            layout=query["layout"],
            asset_url=lambda path: url_for("static", filename=path),
        )
        return Response(html, mimetype="text/html", headers={"X-Verification-Code": roster.code})
