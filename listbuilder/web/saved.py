"""Saved lists under /api/v1/lists: create, read, save versions, diff, lock, copy, delete, print.

Reading is by link: anyone with a list's id reads it (ids are 96 random bits and nothing lists
them). Changing it needs the edit token handed out once at creation (``Authorization: Bearer``)
and the ``ETag`` of the version the change was made to (``If-Match``), so an edit made to an
old version is refused (412) instead of silently overwriting a newer one. The order of checks
is: the list exists (404) and is not deleted (410), a token is sent (401) and is right (403),
the list is not locked (423), ``If-Match`` is sent (428), the list is not full (409: it keeps at
most ``MAX_VERSIONS_PER_LIST`` versions) and ``If-Match`` is current (412); a malformed body is
refused before any of them (400/413/422) and nothing is stored.
"""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, Response, current_app, request, url_for
from flask.views import MethodView
from flask_smorest import abort
from werkzeug.routing import BaseConverter

from listbuilder.lists.canonical import verification_code
from listbuilder.lists.documents import parse_list
from listbuilder.model import ArmyList
from listbuilder.shapes.api import ErrorOut as ErrorSchema
from listbuilder.shapes.saved import (
    CreatedOut,
    DiffOut,
    DiffQuery,
    RosterQuery,
    SavedListOut,
    VersionOut,
    VersionQuery,
    VersionsOut,
    VersionsQuery,
)
from listbuilder.store.errors import StoreError
from listbuilder.store.limits import MAX_VERSIONS_PER_LIST
from listbuilder.store.tokens import ID_PATTERN
from listbuilder.util.lazy import lazy_module
from listbuilder.util.lru import Lru
from listbuilder.web.context import (
    ARMY_LIST,
    DATABASE_URL_KEY,
    bearer_token,
    database,
    database_url,
    list_code,
    registry,
)
from listbuilder.web.http.downloads import BINARY, CODE_HEADER, TEXT, content_disposition, download_name, no_content
from listbuilder.web.http.errors import etag, store_error_response
from listbuilder.web.http.rest import LIST_422, PAGE_HEADERS, Blueprint

saved = lazy_module(
    "listbuilder.lists.saved"
)  # checking and comparing versions: loaded by the first saved-list request
store = lazy_module("listbuilder.store.lists")
rosters = lazy_module("listbuilder.printing.rosters")  # loaded by the first text roster (or wsgi's warm_up)


blp = Blueprint(
    "saved_lists",
    __name__,
    url_prefix="/api/v1/lists",
    description="Saved lists: share links, edit tokens, versions, diffs, locking and rosters.",
    tags={"saved lists": "Saved lists: share links, edit tokens, versions, diffs, locking and rosters."},
)
blp.errorhandler(StoreError)(store_error_response)

EDIT_TOKEN = [{"editToken": []}]
IF_MATCH = {
    "in": "header",
    "name": "If-Match",
    "required": True,
    "schema": {"type": "string"},
    "description": 'the ETag of the version this change was made to, e.g. "v3" (`*`: whatever is current)',
}
LOCK_IF_MATCH = {
    **IF_MATCH,
    "required": False,
    "description": "optional: lock only if this is still the current version",
}
DELETE_IF_MATCH = {
    **IF_MATCH,
    "required": False,
    "description": "optional: delete only if this is still the current version",
}
ETAG_HEADER = {"ETag": {"description": 'the version, as "v<number>"', "schema": {"type": "string"}}}


class SavedIdConverter(BaseConverter):
    """A list id in a URL: never one of the words of the routes beside ``/lists/<id>``, so
    ``/lists/validate``, ``/lists/validate-batch`` and ``/lists/import`` answer only for themselves (405 with their own
    ``Allow``). Real ids are random and 16 characters long; other strings still reach the view
    (and its 404)."""

    regex = r"(?!(?:validate|validate-batch|import)$)[^/]+"

    @staticmethod
    def openapi(converter: BaseConverter) -> dict[str, str]:
        """The ids a list can have, for the OpenAPI document (``listbuilder.store.tokens``)."""
        return {"type": "string", "pattern": ID_PATTERN, "description": "a saved list's id: 16 URL-safe characters"}


def init_app(app: Flask) -> None:
    """Record the database URL (opened on first use, see :func:`database`).

    The URL is the app config's ``DATABASE_URL`` (``LISTBUILDER_DATABASE_URL`` in the
    environment), else the environment's ``DATABASE_URL``, else SQLite in the instance folder.
    """
    app.url_map.converters["saved_id"] = SavedIdConverter
    app.extensions[DATABASE_URL_KEY] = database_url(app.config.get("DATABASE_URL"), app.instance_path)
    app.extensions[BODIES_KEY] = Lru(256)  # rendered GET bodies, see _answer


def register_security(rest: Any) -> None:
    rest.security_scheme(
        "editToken",
        {"type": "http", "scheme": "bearer", "description": "the edit_token returned when the list was created"},
    )


_ETAG = re.compile(r"v([1-9][0-9]{0,9})")
# RFC 9110 §13.1.1: If-Match is "*" or a comma-separated list of quoted entity tags (W/ for weak)
_IF_MATCH = re.compile(r'\s*(?:\*|(?:W/)?"[^"]*"(?:\s*,\s*(?:W/)?"[^"]*")*)\s*')


def _expected(list_id: str, token: str | None, *, required: bool = True) -> int | None:
    """The version ``If-Match`` names; None for ``*`` (or when absent and not *required*).

    A missing header is answered 428 and one that is not an entity tag (``v1`` unquoted) 400,
    but only once the caller is known to be allowed to edit: a stranger learns nothing from the
    order of checks.
    """
    raw = request.headers.get("If-Match", "")
    if not raw.strip():
        if required:
            store.check_editable(database(), list_id, token)
            abort(
                428,
                message="send If-Match with the ETag of the version you edited (from GET)",
                errors={"If-Match": ["missing"]},
            )
        return None
    if not _IF_MATCH.fullmatch(raw):
        store.check_editable(database(), list_id, token)
        abort(
            400,
            message='If-Match is not an entity tag: send the ETag as GET gave it, quotes included ("v1"), or *',
            errors={"If-Match": [f"not a quoted entity tag: {raw[:40]!r}"]},
        )
    if_match = request.if_match
    if if_match.star_tag:
        return None
    for tag in if_match.as_set(
        include_weak=False
    ):  # If-Match compares strongly (RFC 9110 13.1.1): a weak tag never matches
        found = _ETAG.fullmatch(tag or "")  # a malformed header can hold an empty (None) tag
        if found:
            return int(found.group(1))
    return 0  # not one of our ETags: never current, so the store answers 412


def _links(list_id: str) -> dict[str, str]:
    return {
        "url": url_for("saved_lists.SavedList", list_id=list_id, _external=True),
        "share_url": url_for("list_pages.view", list_id=list_id, _external=True),
    }


def _created(new: store.NewList, report: Any) -> tuple[dict[str, Any], int, dict[str, str]]:
    links = _links(new.saved.id)
    body = {
        "id": new.saved.id,
        "edit_token": new.token,
        "version": new.saved.version,
        **links,
        "edit_url": f"{links['share_url']}#edit={new.token}",
        "report": report.as_dict() if report is not None else None,
    }
    return body, 201, {"Location": links["url"], "ETag": etag(new.saved.version)}


def version_body(checked: saved.CheckedVersion) -> dict[str, Any]:
    version = checked.version
    changed = checked.book_changed
    return {
        "id": version.list_id,
        "version": version.number,
        "saved_at": version.saved_at,
        "list": version.document,
        "report": checked.report.as_dict() if checked.report is not None else None,
        "verification_code": checked.verification_code,
        "rules": {
            "system": version.rules.system_id,
            "book": version.rules.book_id,
            "book_name": _book_name(version.rules.book_id),
            "book_version": version.rules.book_version,
            "rules_version": version.rules.rules_version,
            "current_rules_version": checked.current_rules_version,
            "changed": changed,
            "report_when_saved": checked.report_when_saved.as_dict()
            if changed and checked.report_when_saved is not None
            else None,
            "verification_code_when_saved": checked.verification_code_when_saved,
        },
    }


def _book_name(book_id: str) -> str:
    book = registry().books.get(book_id)
    return book.name if book is not None else book_id


def list_body(found: store.SavedList) -> dict[str, Any]:
    checked = saved.check_version(database(), registry(), found.current)
    return {
        **version_body(checked),
        "created_at": found.created_at,
        "updated_at": found.updated_at,
        "locked": found.locked,
        "locked_at": found.locked_at,
        "events": [_event(event) for event in found.events],
        **_links(found.id),
    }


def _event(event: store.LockingEvent) -> dict[str, Any]:
    page = None if event.deleted else url_for("event_pages.view", event_id=event.id, _external=True)
    return {"id": event.id, "name": event.name, "deleted": event.deleted, "url": page}


def _answer(found: store.SavedList) -> Response:
    """The list as JSON, rendered once per version: versions never change, and the books a
    process serves are loaded once, so the same (list, version, lock, events mark) always
    reads the same.
    The body goes through ``SavedListOut`` like any response, so the OpenAPI schema holds."""
    data = _rendered(current_app.extensions[BODIES_KEY], found)
    return _json(data, found.version)


def _rendered(bodies: Lru[Any, bytes], found: store.SavedList | store.ListHead) -> bytes | None:
    key = (found.id, found.version, found.locked, found.events_mark, _link_base())
    data = bodies.get(key)
    if data is None and isinstance(found, store.SavedList):
        data = current_app.json.dumps(_LIST_OUT.dump(list_body(found)), separators=(",", ":")).encode()
        bodies.put(key, data)
    return data


def _link_base() -> tuple[str, str, str, str, str]:
    """What a body's links depend on besides the list: ``url_for(_external=True)`` builds them
    from the request's scheme, host and script root, all read from these WSGI environ values
    (with the app's constant config). Read raw: ``request.host_url`` parses and decodes the
    host on every read, a seventh of the work of a read answered from the cache."""
    environ = request.environ
    return (
        environ["wsgi.url_scheme"],
        environ.get("HTTP_HOST", ""),
        environ.get("SERVER_NAME", ""),
        environ.get("SERVER_PORT", ""),
        environ.get("SCRIPT_NAME", ""),
    )


def _json(data: bytes, version: int) -> Response:
    response = Response(data, mimetype="application/json")
    response.headers["ETag"] = etag(version)
    response.headers["Cache-Control"] = "no-cache"  # readers revalidate: someone may save a new version
    return response


_LIST_OUT = SavedListOut()
BODIES_KEY = "listbuilder.saved_bodies"


_NOT_FOUND = {
    "schema": ErrorSchema,
    "description": "no list with this id (or no such version), or the list names a system or book we do not have",
}
_GONE = {"schema": ErrorSchema, "description": "the list was deleted"}
_UNPROCESSABLE = {"schema": ErrorSchema, "description": "malformed list: nothing stored"}


def _errors(*codes: int, **overrides: str) -> Any:
    """Document the error answers an operation really gives, all in the one error shape
    (``_413="..."`` overrides a code's description)."""
    described = {
        400: "the body is not JSON, or If-Match is not a quoted entity tag",
        401: "no edit token (Authorization: Bearer <token>)",
        403: "wrong edit token",
        404: _NOT_FOUND["description"],
        409: f"the list already has {MAX_VERSIONS_PER_LIST} versions, the most one list keeps: copy it to go on saving",
        410: _GONE["description"],
        412: "If-Match names an older version: reload, then change",
        413: "body over 1 MiB",
        422: _UNPROCESSABLE["description"],
        423: "the list is locked",
        428: "If-Match is missing",
    }

    described.update({int(code.lstrip("_")): text for code, text in overrides.items()})
    return blp.errors(*codes, descriptions=described)


@blp.route("")
class SavedLists(MethodView):
    @blp.arguments(ARMY_LIST)
    @blp.response(
        201,
        CreatedOut,
        headers={"Location": {"description": "the new list's URL", "schema": {"type": "string"}}, **ETAG_HEADER},
    )
    @_errors(400, 404, 413, 415, 422, _422=LIST_422)
    @blp.doc(operationId="saveList")
    def post(self, army: ArmyList) -> Any:
        """Save a list (legal or not): a new id, an edit token shown only now, version 1."""
        ready = saved.to_save(registry(), army)
        return _created(store.create_list(database(), ready.document_json, ready.rules, ready.texts), ready.report)


@blp.route("/<saved_id:list_id>")
class SavedList(MethodView):
    @blp.response(200, SavedListOut, headers=ETAG_HEADER)
    @_errors(404, 410)
    @blp.doc(operationId="getSavedList")
    def get(self, list_id: str) -> Any:
        """Read a saved list: the list, its validation now, its version and the rules it was saved under."""
        db = database()
        head = store.read_head(db, list_id)
        cached = _rendered(current_app.extensions[BODIES_KEY], head)
        return _json(cached, head.version) if cached is not None else _answer(store.read_list(db, list_id))

    @blp.arguments(ARMY_LIST)
    @blp.response(200, SavedListOut, headers=ETAG_HEADER)
    @blp.doc(security=EDIT_TOKEN, parameters=[IF_MATCH])
    @_errors(400, 401, 403, 404, 409, 410, 412, 413, 415, 422, 423, 428, _422=LIST_422)
    @blp.doc(operationId="updateSavedList")
    def put(self, army: ArmyList, list_id: str) -> Any:
        """Save a new version (edit token and If-Match needed); older versions stay readable."""
        token = bearer_token()
        expected = _expected(list_id, token)
        ready = saved.to_save(registry(), army)
        return _answer(
            store.save_version(database(), list_id, token, expected, ready.document_json, ready.rules, ready.texts)
        )

    @blp.response(204)
    @blp.doc(security=EDIT_TOKEN, parameters=[DELETE_IF_MATCH])
    @_errors(400, 401, 403, 404, 410, 412, 423, _400="If-Match is not a quoted entity tag")
    @blp.doc(operationId="deleteSavedList")
    def delete(self, list_id: str) -> Any:
        """Delete a list and all its versions (edit token needed); its id then answers 410."""
        token = bearer_token()
        store.delete_list(database(), list_id, token, _expected(list_id, token, required=False))
        return no_content()


@blp.route("/<saved_id:list_id>/versions")
class Versions(MethodView):
    @blp.arguments(VersionsQuery, location="query")
    @blp.response(200, VersionsOut, headers=PAGE_HEADERS)
    @_errors(404, 410, 422)
    @blp.doc(operationId="listVersions")
    def get(self, query: dict[str, Any], list_id: str) -> Any:
        """A list's saved versions, oldest first, a page at a time: ``limit`` of them from the
        ``offset``-th (``next``, and a ``Link`` header, name the next page)."""
        head, versions = store.versions_page(database(), list_id, query["offset"], query["limit"])
        end = query["offset"] + query["limit"]
        following = (
            url_for(request.endpoint or "", list_id=list_id, limit=query["limit"], offset=end, _external=True)
            if end < head
            else None
        )
        summaries = []
        for v in versions:
            army = parse_list(v.document)
            summaries.append(
                {
                    "version": v.number,
                    "saved_at": v.saved_at,
                    "name": army.name,
                    "book": v.rules.book_id,
                    "units": len(army.units),
                    "rules_version": v.rules.rules_version,
                    "verification_code": verification_code(army, v.rules.rules_version),
                }
            )
        page = {"id": list_id, "current": head, "versions": summaries, "total": head, "next": following}
        return page, 200, {"Link": f'<{following}>; rel="next"'} if following else {}


@blp.route("/<saved_id:list_id>/versions/<int:number>")
class Version(MethodView):
    @blp.response(200, VersionOut)
    @_errors(404, 410)
    @blp.doc(operationId="getVersion")
    def get(self, list_id: str, number: int) -> Any:
        """One saved version, validated against the books now (and as saved, if they changed)."""
        version = store.read_version(database(), list_id, number)
        return version_body(saved.check_version(database(), registry(), version))


@blp.route("/<saved_id:list_id>/diff")
class Diff(MethodView):
    @blp.arguments(DiffQuery, location="query")
    @blp.response(200, DiffOut)
    @_errors(404, 410, 422)
    @blp.doc(operationId="diffVersions")
    def get(self, query: dict[str, int], list_id: str) -> Any:
        """What changed between two versions: units added, removed and changed, and the points."""
        db = database()
        to = query.get("to") or store.read_list(db, list_id).version
        before = query.get("from") or max(1, to - 1)
        older, newer = store.read_version(db, list_id, before), store.read_version(db, list_id, to)
        return {"id": list_id, "from": before, "to": to, **saved.diff_versions(db, registry(), older, newer).as_dict()}


@blp.route("/<saved_id:list_id>/lock")
class Lock(MethodView):
    @blp.response(200, SavedListOut, headers=ETAG_HEADER)
    @blp.doc(security=EDIT_TOKEN, parameters=[LOCK_IF_MATCH])
    @_errors(400, 401, 403, 404, 410, 412, _400="If-Match is not a quoted entity tag")
    @blp.doc(operationId="lockSavedList")
    def post(self, list_id: str) -> Any:
        """Lock a list (e.g. when submitted to an event): no more saves; id and history stay."""
        token = bearer_token()
        return _answer(store.lock_list(database(), list_id, token, _expected(list_id, token, required=False)))


@blp.route("/<saved_id:list_id>/copy")
class Copy(MethodView):
    @blp.arguments(VersionQuery, location="query")
    @blp.response(
        201,
        CreatedOut,
        headers={"Location": {"description": "the copy's URL", "schema": {"type": "string"}}, **ETAG_HEADER},
    )
    @_errors(404, 410, 422)
    @blp.doc(operationId="copySavedList")
    def post(self, query: dict[str, int], list_id: str) -> Any:
        """Copy any list one can read into a new list with its own id and edit token."""
        db = database()
        new = store.copy_list(db, list_id, query.get("version"))
        return _created(new, saved.check_version(db, registry(), new.saved.current).report)


def _version_to_print(list_id: str, number: int | None) -> tuple[Any, ArmyList]:
    db = database()
    version = store.read_version(db, list_id, number) if number is not None else store.read_list(db, list_id).current
    return saved.registry_for(db, registry(), version), parse_list(version.document)


@blp.route("/<saved_id:list_id>/roster.pdf")
class SavedRosterPdf(MethodView):
    @blp.arguments(RosterQuery, location="query")
    @blp.response(
        200, BINARY, content_type="application/pdf", description="The roster as a PDF file.", headers=CODE_HEADER
    )
    @_errors(
        404, 410, 413, 422, _413="the roster is over a work budget no legal list reaches (listbuilder.printing.budget)"
    )
    @blp.doc(operationId="getSavedRosterPdf")
    def get(self, query: dict[str, Any], list_id: str) -> Any:
        """The PDF roster of the current version (or ?version=N), legal or not."""
        from listbuilder.printing.pdf import roster_pdf  # WeasyPrint loads on the first PDF, not at start-up

        books, army = _version_to_print(list_id, query.get("version"))
        share = url_for("list_pages.view", list_id=list_id, _external=True)
        response = Response(
            roster_pdf(books, army, paper=query["paper"], layout=query["layout"], share_url=share),
            mimetype="application/pdf",
        )
        response.headers["Content-Disposition"] = content_disposition("attachment", download_name(army, "pdf"))
        response.headers["X-Verification-Code"] = list_code(army, books)
        return response


@blp.route("/<saved_id:list_id>/roster.txt")
class SavedRosterText(MethodView):
    @blp.arguments(VersionQuery, location="query")
    @blp.response(
        200, TEXT, content_type="text/plain", description="One line per unit, for forums.", headers=CODE_HEADER
    )
    @_errors(404, 410, 422)
    @blp.doc(operationId="getSavedRosterText")
    def get(self, query: dict[str, Any], list_id: str) -> Any:
        """The roster of the current version (or ?version=N) as compact text."""
        books, army = _version_to_print(list_id, query.get("version"))
        roster = rosters.build_roster(books, army)
        return Response(
            rosters.roster_text(roster), mimetype="text/plain", headers={"X-Verification-Code": roster.code}
        )
