"""The room on the event day, under /api/v1/events/<id>: check-ins and no-shows, the organiser's
adjustments, refused submissions, and the statistics that join the results to the lists.

Each change is one locked transaction of ``store/rounds.py`` planned by ``events/checkins``,
``events/adjustments`` or ``events/statistics``; a repeat of the same request changes nothing
and answers 200, so a retry on a flaky connection never records twice.
"""

from __future__ import annotations

from typing import Any

from flask import Response, url_for
from flask.views import MethodView

from listbuilder.shapes.day import (
    AdjustmentIn,
    AdjustmentOut,
    AdjustmentsOut,
    CalledOut,
    CheckinIn,
    CheckinsOut,
    HandedOverOut,
    HandoverIn,
    HandoverOut,
    MeOut,
    PublishIn,
    RefusalsOut,
    StatisticsOut,
    TablesOut,
    TimerIn,
    TimerOut,
)
from listbuilder.shapes.rounds import SheetQuery
from listbuilder.store.errors import StoreError, TokenMissing, TokenWrong
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import bearer_token, database, kept_standings_body, registry, scoring_of
from listbuilder.web.http.downloads import BINARY, TEXT, content_disposition, file_name, sheet_pdf
from listbuilder.web.http.errors import store_error_response
from listbuilder.web.http.rest import Blueprint

store = lazy_module("listbuilder.store.rounds")
day = lazy_module("listbuilder.events.rounds")
checkins = lazy_module("listbuilder.events.checkins")
adjustments = lazy_module("listbuilder.events.adjustments")
refusals = lazy_module("listbuilder.events.refusals")
stats = lazy_module("listbuilder.events.statistics")
submissions = lazy_module("listbuilder.events.submissions")
views = lazy_module("listbuilder.events.player_view")
timers = lazy_module("listbuilder.events.timer")
handovers = lazy_module("listbuilder.events.handover")
handover_store = lazy_module("listbuilder.store.handover")

DESCRIPTION = "The room on the event day: check-ins and no-shows, adjustments, refused submissions, statistics."
blp = Blueprint(
    "day_api", __name__, url_prefix="/api/v1/events", description=DESCRIPTION, tags={"event day": DESCRIPTION}
)
blp.errorhandler(StoreError)(store_error_response)

ORGANISER_TOKEN = [{"organiserToken": []}]
ANY_TOKEN = [{"organiserToken": []}, {"playerToken": []}]
BODY = (400, 413, 415)


def _errors(*codes: int) -> Any:
    described = {
        401: "no token (Authorization: Bearer <token>)",
        403: "a wrong token, or one that may not do this (a player's for the organiser's action or for another player)",
        404: "no event with this id",
        409: "not now: no round has started",
        410: "the organiser deleted the event",
        422: "invalid fields: the errors name each one",
    }
    return blp.errors(*codes, descriptions=described)


def _organiser_day(event_id: str) -> Any:
    """The day, read for the organiser only (401 without a token, 403 with another)."""
    found = store.read_day(database(), event_id, bearer_token())
    if not found.caller.organiser:
        raise (TokenWrong if bearer_token() else TokenMissing)(event_id, "this needs the organiser token")
    return found


def _changed(event_id: str, plan: Any) -> tuple[Any, Any]:
    """Run *plan* with the event locked; what it wrote, and the day read back after."""
    db = database()
    written = store.change_day(db, event_id, bearer_token(), plan)
    return written, store.read_day(db, event_id)


@blp.route("/<event_id:event_id>/checkins")
class Checkins(MethodView):
    @blp.response(200, CheckinsOut)
    @_errors(404, 410)
    @blp.doc(operationId="listCheckins")
    def get(self, event_id: str) -> Any:
        """Who has checked in, and who plays on."""
        return {"players": checkins.roll_call(store.read_day(database(), event_id))}

    @blp.arguments(CheckinIn)
    @blp.response(201, CalledOut)
    @blp.alt_response(200, schema=CalledOut, description="checked in already: nothing changed")
    @blp.doc(security=ANY_TOKEN)
    @_errors(*BODY, 401, 403, 404, 410, 422)
    @blp.doc(operationId="checkIn")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Check a player in: the player themselves, or the organiser for them. A player withdrawn as a no-show is back from the next round."""
        written, after = _changed(event_id, checkins.plan_checkin(data["player"], data["missed"]))
        key = day.names(after).key_of(data["player"])
        called = next(c for c, p in zip(checkins.roll_call(after), day.players(after)) if p.key == key)
        return called, 201 if written else 200


@blp.route("/<event_id:event_id>/no-shows")
class NoShows(MethodView):
    @blp.response(200, CheckinsOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="withdrawNoShows")
    def post(self, event_id: str) -> Any:
        """Withdraw every player still in who has not checked in (each withdrawal logged); a late check-in brings them back."""
        _, after = _changed(event_id, checkins.plan_no_shows())
        return {"players": checkins.roll_call(after)}


@blp.route("/<event_id:event_id>/adjustments")
class Adjustments(MethodView):
    @blp.response(200, AdjustmentsOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="listAdjustments")
    def get(self, event_id: str) -> Any:
        """Every penalty and bonus given, with its reason."""
        return {"adjustments": adjustments.adjustments(_organiser_day(event_id))}

    @blp.arguments(AdjustmentIn)
    @blp.response(201, AdjustmentOut)
    @blp.alt_response(200, schema=AdjustmentOut, description="the same adjustment this round already: nothing changed")
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 410, 422)
    @blp.doc(operationId="adjustScore")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Add points to a player's score (negative: a penalty), with a reason: logged, and shown in the standings as adjustment."""
        written, after = _changed(event_id, adjustments.plan_adjustment(data["player"], data["points"], data["reason"]))
        given = adjustments.adjustments(after)
        key_of = day.names(after).key_of
        same = [
            a for a in given if key_of(a["player"]) == key_of(data["player"]) and a["reason"] == data["reason"].strip()
        ]
        return same[-1], 201 if written else 200


@blp.route("/<event_id:event_id>/refusals")
class Refusals(MethodView):
    @blp.response(200, RefusalsOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="listRefusals")
    def get(self, event_id: str) -> Any:
        """Submissions the event refused as illegal lists (newest first): who, which list, and why."""
        return {"refusals": refusals.refusals(_organiser_day(event_id))}


@blp.route("/<event_id:event_id>/tables")
class Tables(MethodView):
    @blp.response(200, TablesOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="listTables")
    def get(self, event_id: str) -> Any:
        """The room as the organiser set it (PATCH the event's fixed_tables and table_names): the tables' names, and who always plays where."""
        found = _organiser_day(event_id)
        settings, shown = day.day_settings(found), day.names(found).shown
        return {
            "names": [{"table": int(n), "name": v} for n, v in sorted(settings["table_names"].items(), key=_number)],
            "fixed": sorted(
                ({"player": shown.get(k, k), "table": t} for k, t in settings["fixed_tables"].items()),
                key=lambda f: f["table"],
            ),
        }


def _number(item: tuple[str, str]) -> int:
    return int(item[0])


def _statistics(event_id: str) -> dict[str, Any]:
    """The statistics, for anyone once the organiser opened them, else for the organiser only."""
    db = database()
    found = store.read_day(db, event_id, bearer_token())
    if not stats.is_public(found) and not found.caller.organiser:
        raise (TokenWrong if bearer_token() else TokenMissing)(
            event_id, "the organiser has not opened the statistics yet: they need the organiser token until then"
        )
    result: dict[str, Any] = stats.event_statistics(db, registry(), found, scoring_of(found.event))
    return result


@blp.route("/<event_id:event_id>/statistics")
class Statistics(MethodView):
    @blp.response(200, StatisticsOut)
    @blp.doc(security=[{}, *ORGANISER_TOKEN])
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="getStatistics")
    def get(self, event_id: str) -> Any:
        """Per army book: players, wins, draws, losses and win rate; per unit: lists that took it and their win rate (public once the organiser opens them)."""
        return _statistics(event_id)

    @blp.arguments(PublishIn)
    @blp.response(200, StatisticsOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 410, 422)
    @blp.doc(operationId="publishStatistics")
    def put(self, data: dict[str, Any], event_id: str) -> Any:
        """Open the statistics to everyone (public: true), or close them again."""
        _changed(event_id, stats.plan_publish(data["public"]))
        return _statistics(event_id)


@blp.route("/<event_id:event_id>/statistics.csv")
class StatisticsCsv(MethodView):
    @blp.response(200, TEXT, content_type="text/csv", description="A row per army book, then a row per unit taken.")
    @blp.doc(security=[{}, *ORGANISER_TOKEN])
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="getStatisticsCsv")
    def get(self, event_id: str) -> Any:
        """The statistics as CSV."""
        body = _statistics(event_id)
        response = Response(stats.statistics_csv(body), mimetype="text/csv")
        response.headers["Content-Disposition"] = content_disposition(
            "attachment", file_name(f"{event_id} statistics", "csv", "statistics")
        )
        return response


@blp.route("/<event_id:event_id>/me")
class Me(MethodView):
    @blp.response(200, MeOut)
    @blp.doc(security=[{"playerToken": []}])
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="getMyDay")
    def get(self, event_id: str) -> Any:
        """A player's own day (their player token): their entry, check-in, this round's table and opponent with the opponent's locked list, their standing."""
        db = database()
        found = store.read_day(db, event_id, bearer_token())
        player = views.me(found)
        other = views.opponent(found, player)
        seated = [p for p in (player, other) if p is not None]
        read = submissions.read_submitted(db, [p.submission for p in seated])
        lists = {p.name: read[p.submission.list_id, p.submission.list_version] for p in seated}
        books = registry().books

        def unit_name(book: str, unit: str) -> str:
            found_book = books.get(book)
            return next((u.name for u in found_book.units if u.id == unit), unit) if found_book else unit

        body = views.player_body(found, scoring_of(found.event), lists, unit_name)
        _, standings = kept_standings_body(event_id)
        row = next((r for r in standings["standings"] if r["player"] == player.name), None)
        return {**body, "standing": row}  # MyStandingOut keeps the row's own figures


def _round_sheet(event_id: str, number: int) -> tuple[Any, dict[str, Any], dict[str, dict[str, Any]]]:
    """The day, round *number* as the API shows it, and each player's army book and list code."""
    found = store.read_day(database(), event_id)
    body = day.round_body(found, number, scoring_of(found.event))
    faction = {r["player"]: r["faction"] for r in kept_standings_body(event_id)[1]["standings"]}
    seats = {
        p.name: {"faction": faction.get(p.name, ""), "verification_code": p.submission.verification_code}
        for p in day.players(found)
    }
    return found, body, seats


def _sheet_route(path: str, renderer: str, title: str, summary: str, answer: str, operation_id: str) -> None:
    """One printed sheet of a round at /rounds/<n>/*path*: the two sheets differ only in the
    renderer of ``printing/round_sheets`` they call (*renderer*, with the event's name, the
    round and each player's seat) and in their words."""

    def get(self: MethodView, query: dict[str, Any], event_id: str, number: int) -> Any:
        from listbuilder.printing import round_sheets

        found, body, seats = _round_sheet(event_id, number)
        pdf = getattr(round_sheets, renderer)(found.event.name, body, seats, paper=query["paper"])
        return sheet_pdf(pdf, f"{found.event.name} round {number} {title}")

    get.__doc__ = summary
    for decorate in (  # as the other views' decorators, innermost first
        blp.doc(operationId=operation_id),
        _errors(404, 410, 422),
        blp.response(200, BINARY, content_type="application/pdf", description=answer),
        blp.arguments(SheetQuery, location="query"),
    ):
        get = decorate(get)
    view = type(operation_id[3:], (MethodView,), {"get": get})
    blp.route(f"/<event_id:event_id>/rounds/<int:number>/{path}")(view)


_sheet_route(
    "find-your-table.pdf",
    "find_your_table_pdf",
    "find your table",
    "The round by player name, alphabetical, to pin up beside the pairings (A4 or Letter).",
    "Every player A to Z: table, opponent.",
    "getFindYourTablePdf",
)
_sheet_route(
    "slips.pdf",
    "slips_pdf",
    "slips",
    "The round's result slips: both players, their army books and list verification codes, boxes for the result.",
    "A result slip per table, four to a page.",
    "getResultSlipsPdf",
)


def _timer_body(found: Any) -> dict[str, Any]:
    return {**timers.timer(found), "now": day.now().isoformat()}


@blp.route("/<event_id:event_id>/timer")
class Timer(MethodView):
    @blp.response(200, TimerOut)
    @_errors(404, 410)
    @blp.doc(operationId="getRoundTimer")
    def get(self, event_id: str) -> Any:
        """The current round's timer (every page of the event shows it), with the server's clock."""
        return _timer_body(store.read_day(database(), event_id))

    @blp.arguments(TimerIn)
    @blp.response(200, TimerOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(*BODY, 401, 403, 404, 409, 410, 422)
    @blp.doc(operationId="setRoundTimer")
    def put(self, data: dict[str, Any], event_id: str) -> Any:
        """Start the current round's timer for so many minutes from now, or stop it (minutes: null); 409 before round 1."""
        _, after = _changed(event_id, timers.plan_timer(data["minutes"], day.now()))
        return _timer_body(after)


@blp.route("/<event_id:event_id>/handover")
class Handover(MethodView):
    @blp.response(201, HandoverOut)
    @blp.doc(security=ORGANISER_TOKEN)
    @_errors(401, 403, 404, 410)
    @blp.doc(operationId="offerHandover")
    def post(self, event_id: str) -> Any:
        """A short code (good once, for ten minutes) that makes another device organiser too: it sends the code to /handover/claim."""
        code, now = handovers.new_code(), day.now()
        _changed(event_id, handovers.plan_handover(code, now))
        page = url_for("round_pages.organiser_day", event_id=event_id, _external=True)
        return {
            "code": code,
            "expires_at": (now + handovers.LIFETIME).isoformat(),
            "url": f"{page}#handover={code}",
        }, 201


@blp.route("/<event_id:event_id>/handover/claim")
class HandoverClaim(MethodView):
    @blp.arguments(HandoverIn)
    @blp.response(201, HandedOverOut)
    @_errors(*BODY, 403, 404, 410, 422)
    @blp.doc(operationId="claimHandover")
    def post(self, data: dict[str, Any], event_id: str) -> Any:
        """Trade a hand-over code for an organiser token of this device's own (403: a wrong, used or expired code)."""
        db = database()
        store.read_day(db, event_id)  # 404 or 410 first
        token = handover_store.claim(db, event_id, data["code"], day.now())
        if token is None:
            raise TokenWrong(event_id, "that hand-over code is wrong, used already or expired: ask for a new one")
        return {"organiser_token": token}, 201
