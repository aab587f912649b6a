"""Tournament events under /api/v1/events: create, submit a saved list, the organiser's report.

Anyone with an event's id reads its settings and submits to it; the report, its exports and
the roster pack need the organiser token handed out once at creation
(``Authorization: Bearer``), kept only as a hash. A submission carries the saved list's edit
token the same way, so only the list's owner can submit (and lock) it. The rules of saved
lists hold here too: 404 unknown id, 401/403 token missing or wrong, 412 when the list was
saved again between its check and its lock, and a malformed body refused (400/413/415/422)
before anything is stored.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from flask import Flask, Response, current_app, jsonify, request, url_for
from flask.views import MethodView
from werkzeug.routing import BaseConverter

from listbuilder.shapes.events import (
    EventCreatedOut,
    EventIn,
    EventOut,
    PackProgressOut,
    PackQuery,
    ReportOutEvent,
    ReportQuery,
    SubmissionOut,
    SubmitIn,
)
from listbuilder.store.errors import DeadlinePassed, StoreError, SubmissionConflict
from listbuilder.store.tokens import ID_PATTERN
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import bearer_token, database, event_body, registry
from listbuilder.web.http import quotas
from listbuilder.web.http.downloads import BINARY, TEXT, content_disposition, file_name
from listbuilder.web.http.errors import store_error_response
from listbuilder.web.http.rest import PAGE_HEADERS, Blueprint

core = lazy_module("listbuilder.events.submissions")  # the tournament rules: loaded by the first event request
store = lazy_module("listbuilder.store.events")
lists_store = lazy_module("listbuilder.store.lists")
event_players = lazy_module("listbuilder.store.event_players")
day_store = lazy_module("listbuilder.store.rounds")
the_day = lazy_module("listbuilder.events.rounds")
refusals = lazy_module("listbuilder.events.refusals")
stored_reports = lazy_module("listbuilder.events.stored_reports")

blp = Blueprint(
    "events",
    __name__,
    url_prefix="/api/v1/events",
    description="Tournament events: pinned rules, list submission and locking, the organiser's report, exports and roster pack.",
    tags={
        "events": "Tournament events: pinned rules, list submission and locking, the organiser's report, exports and roster pack."
    },
)
blp.errorhandler(StoreError)(store_error_response)

ORGANISER_TOKEN = [{"organiserToken": []}]
EDIT_TOKEN = [{"editToken": []}]


class EventIdConverter(BaseConverter):
    """An event id in a URL (random, 16 URL-safe characters, like a list's)."""

    @staticmethod
    def openapi(converter: BaseConverter) -> dict[str, str]:
        return {"type": "string", "pattern": ID_PATTERN, "description": "an event's id: 16 URL-safe characters"}


def register(app: Flask, rest: Any) -> None:
    """The converter and the organiser's security scheme, then the blueprint."""
    app.url_map.converters["event_id"] = EventIdConverter
    rest.register_converter(EventIdConverter, EventIdConverter.openapi)
    rest.security_scheme(
        "organiserToken",
        {"type": "http", "scheme": "bearer", "description": "the organiser_token returned when the event was created"},
    )
    rest.register_blueprint(blp)


def _errors(*codes: int, **overrides: str) -> Any:
    """Document the error answers an operation gives (``_409="..."`` overrides a code's words)."""
    described = {
        401: "no token (Authorization: Bearer <token>)",
        403: "wrong token",
        404: "no event with this id, or a book, system or list we do not have",
        413: "body over 1 MiB; for a submission, also a new player at an event that has its LISTBUILDER_MAX_PLAYERS players",
        409: "submissions closed (the message names the deadline, or round 1 has started and the event does not have lists_after_start), a book version other than the pinned one, or a player name or list another player holds",
        412: "the list was saved again while it was being checked: submit again",
        410: "the organiser deleted the event, or the list was deleted",
        422: "invalid fields (a deadline already past), a list of another system or book, or (unless the event allows them) an illegal list: errors name each issue",
    }
    described.update({int(code.lstrip("_")): text for code, text in overrides.items()})
    return blp.errors(*codes, descriptions=described)


@blp.route("")
class Events(MethodView):
    @blp.arguments(EventIn)
    @blp.response(
        201, EventCreatedOut, headers={"Location": {"description": "the new event's URL", "schema": {"type": "string"}}}
    )
    @_errors(400, 404, 409, 413, 415, 422)
    @blp.doc(operationId="createEvent")
    def post(self, data: dict[str, Any]) -> Any:
        """Create an event: its list settings, allowed books (pinned now) and deadline; an organiser token shown only now."""
        from listbuilder.events import admin

        admin.check_deadline(data["deadline"], dt.datetime.now(dt.timezone.utc))  # a deadline already past: 422
        books = registry()
        pins, texts = core.pin_books(books, data["system"], data["books"])
        settings = core.check_settings(books, data["system"], data)
        new = store.create_event(
            database(),
            name=data["name"].strip(),
            system_id=data["system"],
            settings=settings,
            books=pins,
            texts=texts,
            deadline=data["deadline"],
            allow_illegal=data["allow_illegal"],
            settings_log=admin.creation_settings(data),
        )
        body = event_body(new.event)
        created = {
            "id": new.event.id,
            "organiser_token": new.token,
            "organiser_url": f"{body['page_url']}#organiser={new.token}",
            "event": body,
        }
        return created, 201, {"Location": body["url"]}


@blp.route("/<event_id:event_id>")
class Event(MethodView):
    @blp.response(200, EventOut)
    @_errors(404, 410, _410="the organiser deleted the event")
    @blp.doc(operationId="getEvent")
    def get(self, event_id: str) -> Any:
        """Read an event's settings, pinned books and deadline (anyone with the id: players need them)."""
        return event_body(store.read_event(database(), event_id))


@blp.route("/<event_id:event_id>/submissions")
class Submissions(MethodView):
    @blp.arguments(SubmitIn)
    @blp.response(201, SubmissionOut)
    @blp.alt_response(
        200, schema=SubmissionOut, description="this version was already the player's entry: nothing changed"
    )
    @blp.doc(security=EDIT_TOKEN)
    @_errors(400, 401, 403, 404, 409, 410, 412, 413, 415, 422)
    @blp.doc(operationId="submitToEvent")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Submit a saved list (its edit token in Authorization): checked against the pinned rules, then locked."""
        db, books, token = database(), registry(), bearer_token()
        found = day_store.read_day(db, event_id)
        event = found.event
        if not event.is_open(dt.datetime.now(dt.timezone.utc)):
            raise DeadlinePassed(event_id, event.deadline)
        player = data["player"].strip()
        names = the_day.names(found)
        key = names.key_of(player)  # a player known by this name (any they were shown under), or None: a new one
        closed = not the_day.day_settings(found)["lists_after_start"]
        entry = next((s for s in reversed(found.submissions) if s.player_key == key), None)
        if closed and found.rounds and (entry is None or entry.list_id != data["list_id"]):
            # (the same list again may be a retried request: the store answers a repeat, refuses the rest)
            raise SubmissionConflict(event_id, store.CLOSED_ONCE_STARTED, field="round")
        lists_store.check_owner(db, data["list_id"], token)
        quotas.check_players(
            *event_players.players_and_known(db, event_id, player, key), current_app.config["MAX_PLAYERS"]
        )
        version = lists_store.read_list(db, data["list_id"]).current
        check = core.check_for_event(db, books, event, version)
        if not check.report.valid and not event.allow_illegal:
            refused = core.refusal(check.report)
            # kept for the organiser (GET /refusals): the player alone saw a 422 before
            kept = refusals.refusal_record(player, data["list_id"], refused.errors)
            day_store.record(db, event_id, day_store.AddLog("refusal", kept))
            raise refused
        checked = store.Checked(version.number, check.report.valid, check.report_json, check.verification_code)
        done = store.submit(
            db,
            event_id,
            player=player,
            player_token=data["player_token"],
            list_id=data["list_id"],
            list_token=token,
            checked=checked,
            key=key,
            closed_once_started=closed,
        )
        s = done.submission
        if done.created:
            roster_pack().keep_submitted(db, check, s)
        body = {
            "event_id": event_id,
            "number": s.number,
            "player": names.shown.get(s.player_key, s.player),  # shown: the first spelling, or the organiser's
            "player_token": done.player_token,
            "list_id": s.list_id,
            "list_version": s.list_version,
            "valid": s.valid,
            "verification_code": s.verification_code,
            "report": stored_reports.current_shape(s.report, check.report.as_dict),
            "submitted_at": s.submitted_at,
        }
        return body, 201 if done.created else 200


def _report(event_id: str, *, revalidate: bool, window: slice = slice(None)) -> tuple[Any, list[core.Entry], int, int]:
    """The event, the entries in *window*, the submissions and the players in all."""
    db = database()
    event, submissions = store.read_as_organiser(db, event_id, bearer_token())
    shown = the_day.names(day_store.read_day(db, event_id)).shown
    found = core.entries(db, registry(), event, submissions, revalidate=revalidate, shown=shown, window=window)
    return event, found, len(submissions), len(core.latest_submissions(submissions))


def _report_body(event_id: str, *, revalidate: bool, window: slice = slice(None)) -> dict[str, Any]:
    event, found, count, players = _report(event_id, revalidate=revalidate, window=window)
    return {
        "event": event_body(event),
        "entries": [e.as_dict() for e in found],
        "submissions": count,
        "total": players,
        "next": None,
    }


@blp.route("/<event_id:event_id>/report")
class Report(MethodView):
    @blp.arguments(ReportQuery, location="query")
    @blp.response(200, ReportOutEvent, headers=PAGE_HEADERS)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410, 422, _410="the organiser deleted the event")
    @blp.doc(operationId="getEventReport")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """The organiser's report (also the JSON export): each player's entry as submitted, with the changes since their earlier submission; ``limit`` entries from the ``offset``-th (``next``, and a ``Link`` header, name the next page)."""
        start, end = query["offset"], query["offset"] + query["limit"]
        body = _report_body(event_id, revalidate=False, window=slice(start, end))
        if end < body["total"]:
            body["next"] = url_for(
                request.endpoint or "", event_id=event_id, limit=query["limit"], offset=end, _external=True
            )
            return body, 200, {"Link": f'<{body["next"]}>; rel="next"'}
        return body


@blp.route("/<event_id:event_id>/revalidate")
class Revalidate(MethodView):
    @blp.response(200, ReportOutEvent)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410, _410="the organiser deleted the event")
    @blp.doc(operationId="revalidateEvent")
    def post(self, event_id: str) -> Any:
        """Re-validate every entry now against the pinned rules; what was stored at submission stays."""
        return _report_body(event_id, revalidate=True)


@blp.route("/<event_id:event_id>/report.csv")
class ReportCsv(MethodView):
    @blp.response(200, TEXT, content_type="text/csv", description="One row per player.")
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410, _410="the organiser deleted the event")
    @blp.doc(operationId="getEventReportCsv")
    def get(self, event_id: str) -> Any:
        """The report as CSV: player, faction, points, legal, issues, verification code, changes."""
        event, found, _, _ = _report(event_id, revalidate=False)
        response = Response(core.entries_csv(found), mimetype="text/csv")
        response.headers["Content-Disposition"] = content_disposition(
            "attachment", file_name(f"{event.name} lists", "csv", "event lists")
        )
        return response


def _pack_progress_body(event_id: str, progress: Any) -> dict[str, Any]:
    query = {} if progress.paper == "a4" else {"paper": progress.paper}
    return {**progress.as_dict(), "pdf_url": url_for("events.RosterPack", event_id=event_id, _external=True, **query)}


@blp.route("/<event_id:event_id>/roster-pack")
class RosterPackProgress(MethodView):
    @blp.arguments(PackQuery, location="query")
    @blp.response(200, PackProgressOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410, 422, _410="the organiser deleted the event")
    @blp.doc(operationId="getEventRosterPackProgress")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """How far the roster pack is: rosters rendered so far of the players' entries (renders nothing)."""
        db = database()
        event, submissions = store.read_as_organiser(db, event_id, bearer_token())
        return _pack_progress_body(event_id, roster_pack().progress(db, event, submissions, query["paper"]))


@blp.route("/<event_id:event_id>/roster-pack.pdf")
class RosterPack(MethodView):
    @blp.arguments(PackQuery, location="query")
    @blp.response(
        200,
        BINARY,
        content_type="application/pdf",
        description="Every entry's roster, one after another.",
        headers={
            "ETag": {
                "description": "the pack as it stands (a digest of the PDF): send it as If-None-Match",
                "schema": {"type": "string"},
            }
        },
    )
    @blp.alt_response(
        202,
        schema=PackProgressOut,
        description="rosters are still being rendered: this request rendered some; ask again (Retry-After)",
    )
    @blp.alt_response(304, description="If-None-Match names the pack as it stands (its ETag): nothing was sent")
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(
        401,
        403,
        404,
        409,
        410,
        413,
        422,
        _409="no list has been submitted to the event yet: nothing to print",
        _410="the organiser deleted the event",
    )
    @blp.doc(operationId="getEventRosterPack")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """The roster pack: each player's roster in turn, every page header naming the player.

        Rosters are rendered when lists are submitted (A4); any still missing are rendered
        here a few seconds' worth at a time: until the last one is, the answer is 202 with the
        progress, and the same request again goes on. The joined pack is kept until the next
        submission: later downloads read it (ETag; If-None-Match answers 304)."""
        db, pack = database(), roster_pack()
        event, submissions = store.read_as_organiser(db, event_id, bearer_token())
        digest = pack.kept_digest(db, event, submissions, paper=query["paper"])
        if digest is not None and request.if_none_match.contains(digest):
            return _pack_response(Response(status=304), event, digest)
        if digest is None:  # not joined since the last submission: its rosters first
            progress = pack.render_missing(
                db, registry(), event, submissions, query["paper"], seconds=current_app.config["PACK_RENDER_SECONDS"]
            )
            if not progress.ready:
                # sent as built (PackProgressOut's shape): the 200's schema describes the PDF, not this
                return jsonify(_pack_progress_body(event_id, progress)), 202, {"Retry-After": "1"}
        kept = pack.event_pack(db, event, submissions, paper=query["paper"])
        return _pack_response(Response(kept.pdf, mimetype="application/pdf"), event, kept.digest)


def _pack_response(response: Response, event: Any, digest: str) -> Response:
    response.set_etag(digest)
    response.headers["Content-Disposition"] = content_disposition(
        "attachment", file_name(f"{event.name} rosters", "pdf", "event rosters")
    )
    return response


def roster_pack() -> Any:
    """``listbuilder.printing.packs``, imported on first use: WeasyPrint loads with the first PDF, not at start-up."""
    from listbuilder.printing import packs as module

    return module
