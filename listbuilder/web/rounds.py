"""The tournament day under /api/v1/events/<id>: organiser controls, pre-check, rounds, results, standings.

Reads (a round, the standings) are public, like the event itself. Everything that changes the
day needs a token in ``Authorization: Bearer``: the organiser's for the controls, starting
rounds, swaps and withdrawals; the organiser's or a player's (the ``player_token`` of their
first submission) for results. Each change is one locked transaction of ``store/rounds.py``;
what it answers is read back afterwards.
"""

from __future__ import annotations

from typing import Any

from flask import Response, request, url_for
from flask.views import MethodView
from werkzeug.http import quote_etag

from listbuilder.lists.documents import ListError
from listbuilder.shapes.events import EventOut
from listbuilder.shapes.rounds import (
    EventEditIn,
    LogOut,
    LogQuery,
    PairingOut,
    PlayerIn,
    PrecheckIn,
    PrecheckOut,
    RenameIn,
    RenameOut,
    ReopenIn,
    ResultIn,
    ResultOut,
    RoundIn,
    RoundOut,
    RoundsOut,
    SheetQuery,
    StandingsOut,
    StandingsQuery,
    SwapIn,
    TableIn,
)
from listbuilder.store.errors import RoundNotFound, StoreError, TokenMissing, TokenWrong
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import (
    bearer_token,
    current_day_etag,
    database,
    event_body,
    kept_round_body,
    kept_standings_body,
    registry,
    scoring_of,
)
from listbuilder.web.http.downloads import BINARY, TEXT, content_disposition, file_name, no_content, sheet_pdf
from listbuilder.web.http.errors import store_error_response
from listbuilder.web.http.rest import PAGE_HEADERS, Blueprint

day = lazy_module("listbuilder.events.rounds")
admin = lazy_module("listbuilder.events.admin")
store = lazy_module("listbuilder.store.rounds")
event_store = lazy_module("listbuilder.store.events")
events_core = lazy_module("listbuilder.events.submissions")

blp = Blueprint(
    "rounds",
    __name__,
    url_prefix="/api/v1/events",
    description="The tournament day: organiser controls, a list's pre-check, rounds and pairings, results, standings and printed sheets.",
    tags={
        "tournament day": "The tournament day: organiser controls, a list's pre-check, rounds and pairings, results, standings and printed sheets."
    },
)
blp.errorhandler(StoreError)(store_error_response)

ORGANISER_TOKEN = [{"organiserToken": []}]
ANY_TOKEN = [{"organiserToken": []}, {"playerToken": []}]


def register(rest: Any) -> None:
    rest.security_scheme(
        "playerToken",
        {
            "type": "http",
            "scheme": "bearer",
            "description": "the player_token returned with a player's first submission",
        },
    )
    rest.register_blueprint(blp)


BODY = (400, 413, 415)  # a body that is not JSON, too large, or not declared as JSON


STANDINGS_HEADERS = {
    "ETag": {"description": "the standings as they stand: send it as If-None-Match", "schema": {"type": "string"}},
    "Link": {"description": 'the next page, when there is one: `<url>; rel="next"`', "schema": {"type": "string"}},
}
IF_NONE_MATCH = {
    "in": "header",
    "name": "If-None-Match",
    "required": False,
    "schema": {"type": "string"},
    "description": "the ETag of the answer already fetched: 304 while it has not changed",
}


def _errors(*codes: int) -> Any:
    described = {
        401: "no token (Authorization: Bearer <token>)",
        403: "a wrong token, or one that may not do this (a player's for an organiser's action, or for another table)",
        404: "no event, round or table with this number",
        409: "not now: a table of the last round has no result, round 1 has started, a result is confirmed already, a round with results cannot be undone …",
        410: "the organiser deleted the event",
        422: "invalid fields: the errors name each one",
    }
    return blp.errors(*codes, descriptions=described)


def _change(event_id: str, plan: Any) -> Any:
    """Run *plan* with the event locked, then read the day back for the answer."""
    db = database()
    store.change_day(db, event_id, bearer_token(), plan)
    return store.read_day(db, event_id)


# --------------------------------------------------------------------------------------------
# Organiser controls


@blp.route("/<event_id:event_id>")
class EventControls(MethodView):
    @blp.arguments(EventEditIn)
    @blp.response(200, EventOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="updateEvent")
    def patch(self, data: dict[str, Any], event_id: str) -> Any:
        """Edit the event: before round 1 its name, deadline (in the future), illegal lists and day settings, and its list settings while nothing is submitted; at any time its tables (table_names, fixed_tables), which seat every round paired after."""
        event = store.read_day(database(), event_id).event
        list_settings = None
        if any(data.get(k) is not None for k in events_core.SETTINGS):
            list_settings = events_core.check_settings(
                registry(), event.system_id, {**event.settings, **{k: v for k, v in data.items() if v is not None}}
            )
        return event_body(_change(event_id, admin.plan_edit(data, list_settings, day.now())).event)

    @blp.response(204)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="deleteEvent")
    def delete(self, event_id: str) -> Any:
        """Delete the event: it answers 410 from now on; its records are kept and its lists stay locked (its rendered rosters go)."""
        store.change_day(database(), event_id, bearer_token(), admin.plan_delete(day.now()))
        return no_content()


@blp.route("/<event_id:event_id>/close")
class Close(MethodView):
    @blp.response(200, EventOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 409, 410)
    @blp.doc(operationId="closeEvent")
    def post(self, event_id: str) -> Any:
        """Close submissions now (before the deadline)."""
        return event_body(_change(event_id, admin.plan_close(day.now())).event)


@blp.route("/<event_id:event_id>/reopen")
class Reopen(MethodView):
    @blp.arguments(ReopenIn)
    @blp.response(200, EventOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 410, 422)
    @blp.doc(operationId="reopenEvent")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Open submissions again until a new deadline (in the future)."""
        return event_body(_change(event_id, admin.plan_reopen(data["deadline"], day.now())).event)


@blp.route("/<event_id:event_id>/withdrawals")
class Withdrawals(MethodView):
    @blp.arguments(PlayerIn)
    @blp.response(201, PlayerIn)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="withdrawPlayer")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Withdraw a player from the rounds still to come (their games so far stay in the standings)."""
        _change(event_id, day.plan_withdrawal(data["player"], withdraw=True))
        return data, 201


@blp.route("/<event_id:event_id>/reinstatements")
class Reinstatements(MethodView):
    @blp.arguments(PlayerIn)
    @blp.response(201, PlayerIn)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="reinstatePlayer")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Bring a withdrawn player back: they are paired again from the next round."""
        _change(event_id, day.plan_withdrawal(data["player"], withdraw=False))
        return data, 201


@blp.route("/<event_id:event_id>/renames")
class Renames(MethodView):
    @blp.arguments(RenameIn)
    @blp.response(201, RenameOut)
    @blp.alt_response(200, schema=RenameOut, description="the player is shown under that name already: nothing changed")
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="renamePlayer")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Show a player under another name (a typo fixed): tables, results and standings follow, past rounds too; the player stays who they are (409: another player's name)."""
        written = store.change_day(
            database(), event_id, bearer_token(), admin.plan_rename(data["player"], data["name"])
        )
        if written:
            return {"player": written[0].data["after"], "before": written[0].data["before"]}, 201
        shown = day.find_player(store.read_day(database(), event_id), data["name"], "name").name
        return {"player": shown, "before": shown}, 200


@blp.route("/<event_id:event_id>/submissions/<int:number>")
class Submission(MethodView):
    @blp.response(204)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 409, 410)
    @blp.doc(operationId="undoSubmission")
    def delete(self, event_id: str, number: int) -> Any:
        """Undo a player's newest submission before round 1: their earlier entry counts again, or they are out (the row is kept, the list stays locked)."""
        store.change_day(database(), event_id, bearer_token(), admin.plan_undo_submission(number))
        return no_content()


@blp.route("/<event_id:event_id>/precheck")
class Precheck(MethodView):
    @blp.arguments(PrecheckIn)
    @blp.response(200, PrecheckOut)
    @_errors(*BODY, 404, 410, 422)
    @blp.doc(operationId="precheckList")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Would the event take this saved list now? Legal or not, and why, under the event's pinned rules: nothing is locked or recorded."""
        from listbuilder.lists import saved

        db = database()
        event = store.read_day(db, event_id).event
        version = saved.stored_lists.read_list(db, data["list_id"]).current
        try:
            check = events_core.check_for_event(db, registry(), event, version)
        except ListError as refused:
            if refused.status == 404:
                raise
            return {"legal": False, "reasons": [refused.message], "report": None, "verification_code": None}
        reasons = [
            f"{i.code}: {i.message}" + (f" ({i.path})" if i.path else "")
            for i in check.report.issues
            if i.severity == "error"
        ]
        return {
            "legal": check.report.valid,
            "reasons": reasons,
            "report": check.report.as_dict(),
            "verification_code": check.verification_code,
        }


# --------------------------------------------------------------------------------------------
# Rounds and results


@blp.route("/<event_id:event_id>/rounds")
class Rounds(MethodView):
    @blp.arguments(RoundIn)
    @blp.response(201, RoundOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="startRound")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Start the next round: Swiss pairing of the players still in (409 while a table of the last round has no result)."""
        scoring = scoring_of(event_store.read_event(database(), event_id))
        written = store.change_day(
            database(),
            event_id,
            bearer_token(),
            day.plan_round(scoring, seed=data["seed"], seed_order=data["seed_order"]),
        )
        # answered as kept: the room's phones asking for the new round next read this one
        return kept_round_body(event_id, written[0].number)[1]

    @blp.response(200, RoundsOut)
    @_errors(404, 410)
    @blp.doc(operationId="listRounds")
    def get(self, event_id: str) -> Any:
        """Every round so far, with its tables and where their results stand."""
        found = store.read_day(database(), event_id)
        scoring = scoring_of(found.event)
        return {"rounds": [day.round_body(found, r.number, scoring) for r in found.rounds]}


@blp.route("/<event_id:event_id>/rounds/<int:number>")
class Round(MethodView):
    @blp.response(200, RoundOut, headers={"ETag": STANDINGS_HEADERS["ETag"]})
    @blp.alt_response(304, description="If-None-Match names the round as it stands (its ETag): nothing was sent")
    @_errors(404, 410)
    @blp.doc(operationId="getRound", parameters=[IF_NONE_MATCH])
    def get(self, event_id: str, number: int) -> Any:
        """A round's pairings ({"table", "players": [a, b or null for a bye]}) and each table's
        result. Computed once per change of the day and kept; its ETag changes with every change
        of the day: a phone polling its pairing with it is answered 304 after one read of the
        event's row until something changes."""
        if request.if_none_match and request.if_none_match.contains(now := f"r{number}.{current_day_etag(event_id)}"):
            return _not_modified(now)
        etag, body = kept_round_body(event_id, number)
        return body, 200, {"ETag": quote_etag(etag), "Cache-Control": "no-cache"}

    @blp.response(204)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 409, 410)
    @blp.doc(operationId="undoRound")
    def delete(self, event_id: str, number: int) -> Any:
        """Undo the last round while none of its tables has a result (409 after): its pairing goes (logged), and the next start pairs again."""
        from listbuilder.events.round_undo import plan_undo_round

        store.change_day(database(), event_id, bearer_token(), plan_undo_round(number))
        return no_content()


@blp.route("/<event_id:event_id>/rounds/<int:number>/tables/<int:table>")
class Table(MethodView):
    @blp.response(200, PairingOut)
    @_errors(404, 410)
    @blp.doc(operationId="getTable")
    def get(self, event_id: str, number: int, table: int) -> Any:
        """One table of a round as ``GET /rounds/<n>`` shows it, read from that table's rows
        alone: what a player's phone asks while waiting for the opponent's entry."""
        found = store.read_table(database(), event_id, (number, table))
        seats = day.tables(found, number)
        if not seats:
            raise RoundNotFound(event_id, f"round {number} has no table {table}")
        return day.table_body(found, number, seats[0], scoring_of(found.event))


@blp.route("/<event_id:event_id>/rounds/<int:number>/results")
class Results(MethodView):
    @blp.arguments(ResultIn)
    @blp.response(201, ResultOut)
    @blp.doc(security=ANY_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="enterResult")
    def post(self, data: dict[str, Any], event_id: str, number: int) -> Any:
        """Enter a table's result: a player enters it, the opponent confirms (or enters the same); the organiser's overrides."""
        body = {k: v for k, v in data.items() if k != "table" and v is not None}
        return _recorded(event_id, number, data["table"], body)


@blp.route("/<event_id:event_id>/rounds/<int:number>/confirmations")
class Confirmations(MethodView):
    @blp.arguments(TableIn)
    @blp.response(201, ResultOut)
    @blp.doc(security=ANY_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="confirmResult")
    def post(self, data: dict[str, Any], event_id: str, number: int) -> Any:
        """Confirm the result the opponent entered at this table (the organiser's confirmation decides it)."""
        return _recorded(event_id, number, data["table"], None)


def _recorded(event_id: str, number: int, table: int, body: dict[str, Any] | None) -> Any:
    """Record a step at one table, reading and answering only that table's rows: entering a
    result costs the same whatever the size of the event."""
    db, at = database(), (number, table)
    scoring = scoring_of(event_store.read_event(db, event_id))
    written = store.change_day(db, event_id, bearer_token(), day.plan_result(scoring, number, table, body), table=at)
    after = store.read_table(db, event_id, at)
    item = day.table_body(after, number, day.tables(after, number)[0], scoring)
    return {**item, "recorded": written[0].kind}, 201


@blp.route("/<event_id:event_id>/rounds/<int:number>/swaps")
class Swaps(MethodView):
    @blp.arguments(SwapIn)
    @blp.response(201, RoundOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="swapPairings")
    def post(self, data: dict[str, Any], event_id: str, number: int) -> Any:
        """Swap two players of the current round between their tables, before either game has a result (logged)."""
        after = _change(event_id, day.plan_swap(number, *data["players"]))
        return day.round_body(after, number, scoring_of(after.event))


# --------------------------------------------------------------------------------------------
# Standings, the record, printed sheets


@blp.route("/<event_id:event_id>/standings")
class Standings(MethodView):
    @blp.arguments(StandingsQuery, location="query")
    @blp.response(200, StandingsOut, headers=STANDINGS_HEADERS)
    @blp.alt_response(304, description="If-None-Match names the standings as they stand (their ETag): nothing was sent")
    @_errors(404, 410, 422)
    @blp.doc(operationId="getStandings", parameters=[IF_NONE_MATCH])
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """The standings now: score, then the organiser's tiebreakers in order. Computed once per
        change of the day and kept: a poll with the ETag it was given is answered 304 until
        something changes. ``limit`` and ``offset`` page through them (``next``, and a ``Link``
        header, name the next page)."""
        if request.if_none_match and request.if_none_match.contains(now := current_day_etag(event_id)):
            return _not_modified(now)
        etag, body = kept_standings_body(event_id)
        rows = body["standings"]
        start, end = query["offset"], query["offset"] + query["limit"]
        following = url_for(request.endpoint or "", event_id=event_id, limit=query["limit"], offset=end, _external=True)
        page = {
            **body,
            "standings": rows[start:end],
            "total": len(rows),
            "next": following if end < len(rows) else None,
        }
        headers = {"ETag": quote_etag(etag), "Cache-Control": "no-cache"}
        if page["next"]:
            headers["Link"] = f'<{page["next"]}>; rel="next"'
        return page, 200, headers


def _not_modified(etag: str) -> Response:
    response = Response(status=304)
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@blp.route("/<event_id:event_id>/standings.csv")
class StandingsCsv(MethodView):
    @blp.response(200, TEXT, content_type="text/csv", description="One row per player, in rank order.")
    @_errors(404, 410)
    @blp.doc(operationId="getStandingsCsv")
    def get(self, event_id: str) -> Any:
        """The standings as CSV."""
        from listbuilder.printing.round_sheets import standings_csv

        body = kept_standings_body(event_id)[1]
        response = Response(standings_csv(body), mimetype="text/csv")
        response.headers["Content-Disposition"] = content_disposition(
            "attachment", file_name(f"{body['event']['name']} standings", "csv", "standings")
        )
        return response


@blp.route("/<event_id:event_id>/log")
class Log(MethodView):
    @blp.arguments(LogQuery, location="query")
    @blp.response(200, LogOut, headers=PAGE_HEADERS)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410, 422)
    @blp.doc(operationId="getEventLog")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """The day's record: the organiser's actions, each round as paired, and the result steps, ``limit`` of them from the ``offset``-th (``next``, and a ``Link`` header, name the next page)."""
        found = store.read_day(database(), event_id, bearer_token())
        if not found.caller.organiser:
            raise (TokenWrong if bearer_token() else TokenMissing)(event_id, "the record needs the organiser token")
        start, end = query["offset"], query["offset"] + query["limit"]
        following = None
        if end < len(found.results):
            following = url_for(
                request.endpoint or "", event_id=event_id, limit=query["limit"], offset=end, _external=True
            )
        body = {
            "log": [{"seq": e.seq, "kind": e.kind, "data": dict(e.data), "at": e.at} for e in found.log],
            "rounds": [
                {
                    "number": r.number,
                    "seed": r.seed,
                    "started_at": r.started_at,
                    "tables": [list(t) for t in r.tables],
                }
                for r in found.rounds
            ],
            "results": [
                {
                    "round": r.round,
                    "seq": r.seq,
                    "table": r.table,
                    "kind": r.kind,
                    "entered_by": r.by,
                    "result": dict(r.result),
                    "at": r.at,
                }
                for r in found.results[start:end]
            ],
            "total": len(found.results),
            "next": following,
        }
        return body, 200, {"Link": f'<{following}>; rel="next"'} if following else {}


@blp.route("/<event_id:event_id>/rounds/<int:number>/pairings.pdf")
class PairingsPdf(MethodView):
    @blp.arguments(SheetQuery, location="query")
    @blp.response(
        200,
        BINARY,
        content_type="application/pdf",
        description="The round's tables, each player with their score and army book, 40 to a page.",
    )
    @_errors(404, 410, 422)
    @blp.doc(operationId="getPairingsPdf")
    def get(self, query: dict[str, Any], event_id: str, number: int) -> Any:
        """The round's pairings to print and pin up (A4 or Letter), with each player's score and army book."""
        from listbuilder.printing.round_sheets import pairings_pdf

        found = store.read_day(database(), event_id)
        body = day.round_body(found, number, scoring_of(found.event))
        seats = {r["player"]: r for r in kept_standings_body(event_id)[1]["standings"]}
        pdf = pairings_pdf(found.event.name, body, paper=query["paper"], seats=seats)
        return sheet_pdf(pdf, f"{found.event.name} round {number}")


@blp.route("/<event_id:event_id>/standings.pdf")
class StandingsPdf(MethodView):
    @blp.arguments(SheetQuery, location="query")
    @blp.response(200, BINARY, content_type="application/pdf", description="The standings, 40 rows to a page.")
    @_errors(404, 410, 422)
    @blp.doc(operationId="getStandingsPdf")
    def get(self, query: dict[str, Any], event_id: str) -> Any:
        """The standings to print (A4 or Letter)."""
        from listbuilder.printing.round_sheets import standings_pdf

        body = kept_standings_body(event_id)[1]
        return sheet_pdf(standings_pdf(body, paper=query["paper"]), f"{body['event']['name']} standings")
