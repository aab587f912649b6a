"""Schemas of the tournament day's API: organiser controls, the pre-check, rounds, results, standings."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields, validate

from listbuilder.formats.fields import OutSchema, StrictSchema, positive_int
from listbuilder.formats.lists import BudgetSchema
from listbuilder.shapes.api import PageOut, ReportOut, page_query
from listbuilder.shapes.events import MAX_PLAYERS, NOT_BLANK, DaySettingsIn, EventOut
from listbuilder.shapes.log_entries import log_variants
from listbuilder.shapes.saved import PaperQuery
from listbuilder.store.tokens import ID_PATTERN
from listbuilder.tournament import TIEBREAKERS
from listbuilder.tournament.results import CONFIRMATION, DISPUTE, ENTRY, OVERRIDE

OUTCOMES = ("win", "draw", "loss")
RESULT_STEPS = (ENTRY, CONFIRMATION, DISPUTE, OVERRIDE)


def _name(high: int, **kw: Any) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=high), NOT_BLANK], **kw)


class EventEditIn(DaySettingsIn):
    """What the organiser may change before round 1 (every field optional)."""

    name = _name(200, load_default=None)
    deadline = fields.AwareDateTime(
        load_default=None, format="iso", metadata={"description": "a new deadline, in the future (else 422)"}
    )
    allow_illegal = fields.Boolean(load_default=None)
    points_limit = positive_int(
        load_default=None,
        validate=validate.Range(min=1, max=100000),
        metadata={"description": "only while no list is submitted"},
    )
    force_org = fields.Boolean(load_default=None, metadata={"description": "only while no list is submitted"})
    game_mode = fields.String(
        load_default=None,
        validate=validate.Length(min=1, max=100),
        metadata={"description": "armour-hex; only while no list is submitted"},
    )
    budget = fields.Nested(
        BudgetSchema, load_default=None, metadata={"description": "armour-hex; only while no list is submitted"}
    )


class ReopenIn(StrictSchema):
    deadline = fields.AwareDateTime(
        required=True, format="iso", metadata={"description": "submissions close again at this time (in the future)"}
    )


class PrecheckIn(StrictSchema):
    list_id = fields.String(
        required=True,
        validate=validate.Regexp(ID_PATTERN, error="not a saved list's id (16 URL-safe characters)"),
        metadata={"description": "a saved list's id (its current version is checked)"},
    )


class PrecheckOut(OutSchema):
    legal = fields.Boolean(metadata={"description": "whether the event would accept the list as it is now"})
    reasons = fields.List(fields.String(), metadata={"description": "why not, one line per problem"})
    report = fields.Nested(
        ReportOut,
        allow_none=True,
        metadata={
            "description": "the validation under the event's rules (null when the list cannot be checked for it)"
        },
    )
    verification_code = fields.String(allow_none=True)


class RoundIn(StrictSchema):
    seed = positive_int(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=2**31 - 1),
        metadata={"description": "round 1: the random draw's seed (the same seed, the same round)"},
    )
    seed_order = fields.List(
        fields.String(validate=validate.Length(min=1, max=100)),
        load_default=None,
        allow_none=True,
        validate=validate.Length(max=MAX_PLAYERS),
        metadata={"description": "round 1: every player still in, best seed first"},
    )


class TablePlayers(fields.List):
    """A table's two players, the second null for a bye: a pair, not a list."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": ["string", "null"]}],
        "minItems": 2,
        "maxItems": 2,
    }

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(fields.String(allow_none=True), **kwargs)


class TableSideOut(OutSchema):
    """Armour-hex: what one player did to the enemy's list at a table."""

    destroyed = fields.List(fields.String(), metadata={"description": "unit keys of the enemy's list destroyed"})
    crippled = fields.List(fields.String(), metadata={"description": "unit keys of the enemy's list crippled"})


class TableResultOut(OutSchema):
    """A table's result as entered: the OPR family (and others) give outcome and secondary,
    armour-hex gives sides (and the secondary, when its event scores one); each keyed by player."""

    SOMETIMES = frozenset({"outcome", "secondary", "sides"})

    outcome = fields.Dict(keys=fields.String(), values=fields.String(validate=validate.OneOf(OUTCOMES)))
    secondary = fields.Dict(keys=fields.String(), values=fields.Float())
    sides = fields.Dict(keys=fields.String(), values=fields.Nested(TableSideOut))


class GameScoreOut(OutSchema):
    """One player's share of a game that counts."""

    points = fields.Float(metadata={"description": "standings points"})
    secondary = fields.Float(metadata={"description": "the secondary score"})
    outcome = fields.String(validate=validate.OneOf(OUTCOMES))


class TableEntryOut(OutSchema):
    by = fields.String(metadata={"description": "the player who entered it"})
    result = fields.Nested(TableResultOut, metadata={"description": "the result as they entered it"})


TABLE_STATUSES = ("open", "waiting", "disputed", "confirmed", "decided", "bye")


class PairingOut(OutSchema):
    SOMETIMES = frozenset({"entered_by", "entries"})  # not on a bye's table; entries only in a dispute

    table = fields.Integer()
    table_name = fields.String(
        allow_none=True, metadata={"description": "the name the organiser gave the table (null: none)"}
    )
    players = TablePlayers(metadata={"description": "the two players; the second is null for a bye"})
    status = fields.String(
        validate=validate.OneOf(TABLE_STATUSES),
        metadata={
            "description": "open, waiting (entered, not confirmed), disputed (the players entered different"
            " results: both in entries), confirmed, decided (by the organiser) or bye"
        },
    )
    result = fields.Nested(
        TableResultOut,
        allow_none=True,
        metadata={"description": "the result that counts, or the one waiting for confirmation"},
    )
    entered_by = fields.String(allow_none=True, metadata={"description": "who entered the waiting result"})
    entries = fields.List(
        fields.Nested(TableEntryOut),
        metadata={"description": "a disputed table: the two players' entries, the first one entered first"},
    )
    scores = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(GameScoreOut),
        allow_none=True,
        metadata={"description": "player -> points, secondary, outcome (once the result counts)"},
    )


class RoundOut(OutSchema):
    number = fields.Integer()
    pairings = fields.List(fields.Nested(PairingOut))
    notes = fields.List(
        fields.String(),
        metadata={
            "description": "where the organiser's fixed tables are not kept (two fixed players who meet, a swap),"
            " in words"
        },
    )
    complete = fields.Boolean(metadata={"description": "every table has a result that counts"})
    seed = fields.Integer(allow_none=True)
    started_at = fields.DateTime()


class RoundsOut(OutSchema):
    rounds = fields.List(fields.Nested(RoundOut))


class SideIn(StrictSchema):
    destroyed = fields.List(
        fields.String(validate=validate.Length(min=1, max=100)),
        load_default=list,
        validate=validate.Length(max=500),
        metadata={"description": "unit keys of the enemy's list this side destroyed"},
    )
    crippled = fields.List(
        fields.String(validate=validate.Length(min=1, max=100)),
        load_default=list,
        validate=validate.Length(max=500),
        metadata={"description": "unit keys of the enemy's list this side crippled"},
    )


class ResultIn(StrictSchema):
    table = positive_int(required=True)
    outcome = fields.Dict(
        keys=fields.String(),
        values=fields.String(validate=validate.OneOf(OUTCOMES)),
        load_default=None,
        metadata={"description": "OPR family and others: player -> win, draw or loss"},
    )
    secondary = fields.Dict(
        keys=fields.String(),
        values=fields.Float(allow_nan=False, validate=validate.Range(min=-1e6, max=1e6)),
        load_default=None,
        metadata={"description": "player -> the event's secondary score"},
    )
    sides = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(SideIn),
        load_default=None,
        metadata={"description": "armour-hex: player -> the enemy units they destroyed and crippled"},
    )


class TableIn(StrictSchema):
    table = positive_int(required=True)


class ResultOut(PairingOut):
    recorded = fields.String(
        validate=validate.OneOf(RESULT_STEPS),
        metadata={"description": "what this request recorded: entry, confirmation, dispute or override"},
    )


class SwapIn(StrictSchema):
    players = fields.List(
        _name(100),
        required=True,
        validate=validate.Length(equal=2),
        metadata={"description": "two players of the current round"},
    )


class PlayerIn(StrictSchema):
    player = _name(100, required=True)


class RenameIn(StrictSchema):
    player = _name(100, required=True, metadata={"description": "the player, by any name they are known by"})
    name = _name(100, required=True, metadata={"description": "the name they are shown under from now on"})


class RenameOut(OutSchema):
    player = fields.String(metadata={"description": "the name the player is shown under now"})
    before = fields.String(metadata={"description": "the name they were shown under before this request"})


class StandingOut(OutSchema):
    rank = fields.Integer()
    player = fields.String()
    faction = fields.String()
    score = fields.Float()
    played = fields.Integer()
    wins = fields.Integer()
    draws = fields.Integer()
    losses = fields.Integer()
    byes = fields.Integer()
    withdrawn = fields.Boolean()
    adjustment = fields.Float(
        metadata={"description": "the organiser's penalties and bonuses summed (already in score; POST /adjustments)"}
    )
    tiebreakers = fields.Dict(
        keys=fields.String(validate=validate.OneOf(TIEBREAKERS)),
        values=fields.Float(),
        metadata={"description": "each tiebreaker's value, in the organiser's order"},
    )


class StandingsOut(OutSchema):
    event = fields.Nested(EventOut)
    rounds = fields.Integer(metadata={"description": "rounds started"})
    tiebreakers = fields.List(fields.String())
    standings = fields.List(fields.Nested(StandingOut), metadata={"description": "this page's rows, in rank order"})
    total = fields.Integer(metadata={"description": "rows in the whole standings"})
    next = fields.String(allow_none=True, metadata={"description": "the next page's URL (null: this is the last page)"})


MAX_PAGE = MAX_PLAYERS  # one page, the default, holds every player an event may have


class StandingsQuery(StrictSchema):
    """A page of the standings: *limit* rows from *offset* (0: the leader)."""

    limit = fields.Integer(
        load_default=MAX_PAGE,
        validate=validate.Range(min=1, max=MAX_PAGE),
        metadata={"description": f"rows per page (1 to {MAX_PAGE}; the default: all of an event's players)"},
    )
    offset = fields.Integer(
        load_default=0, validate=validate.Range(min=0), metadata={"description": "rows to skip from the top"}
    )


class LogEntryOut(OutSchema):
    """One action of the day, as logged. The document declares one shape per kind, its
    ``data`` that kind's (``listbuilder.shapes.log_entries``)."""

    VARIANTS = staticmethod(log_variants)
    DISCRIMINATOR = "kind"

    seq = fields.Integer(metadata={"description": "its place in the event's log, from 1"})
    kind = fields.String(
        metadata={"description": "settings, close, reopen, withdraw, reinstate, swap, rename, delete, ..."}
    )
    data = fields.Dict(
        keys=fields.String(), metadata={"description": "what the action changed, in the shape its kind logs"}
    )
    at = fields.DateTime()


class TableRow(fields.Raw):
    """A table as paired: its number, the player and the opponent (null: a bye)."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "type": "array",
        "prefixItems": [{"type": "integer"}, {"type": "string"}, {"type": ["string", "null"]}],
        "minItems": 3,
        "maxItems": 3,
    }


class PairedRoundOut(OutSchema):
    """A round as it was paired, before any swap."""

    number = fields.Integer()
    seed = fields.Integer(allow_none=True)
    started_at = fields.DateTime()
    tables = fields.List(TableRow(), metadata={"description": "[table, player, opponent (null: a bye)]"})


class ResultStepOut(OutSchema):
    """One step of a table's result: an entry, a confirmation or the organiser's override."""

    round = fields.Integer()
    seq = fields.Integer(metadata={"description": "its place among the round's steps, from 1"})
    table = fields.Integer()
    kind = fields.String(validate=validate.OneOf(RESULT_STEPS))
    entered_by = fields.String(metadata={"description": "a player's name, or organiser"})
    result = fields.Nested(TableResultOut)
    at = fields.DateTime()


class LogOut(PageOut):
    """The day's record; the result steps, which grow with every table, a page at a time
    (``total`` and ``next`` count them), the organiser's actions and the rounds whole."""

    log = fields.List(fields.Nested(LogEntryOut), metadata={"description": "the organiser's actions, oldest first"})
    rounds = fields.List(
        fields.Nested(PairedRoundOut), metadata={"description": "each round as paired (before any swap), with its seed"}
    )
    results = fields.List(
        fields.Nested(ResultStepOut), metadata={"description": "this page's result steps, in the order they were taken"}
    )


LogQuery = page_query("result steps", default=1000, most=10000, skipped_from="the first")


class SheetQuery(PaperQuery):
    """The paper of a printed pairings or standings sheet."""
