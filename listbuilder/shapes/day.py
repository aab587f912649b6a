"""Schemas of the room on the event day: check-ins, adjustments, refused submissions, statistics."""

from __future__ import annotations

from marshmallow import fields, validate

from listbuilder.formats.fields import OutSchema, StrictSchema, positive_int
from listbuilder.shapes.events import NOT_BLANK
from listbuilder.shapes.rounds import PairingOut, StandingOut

# The standings row's fields a player's own row leaves out (the page names the player already).
MY_STANDING_LEFT_OUT = ("player", "faction", "byes", "withdrawn", "tiebreakers")


def _text(high: int, **kw: object) -> fields.String:
    return fields.String(validate=[validate.Length(min=1, max=high), NOT_BLANK], **kw)  # type: ignore[arg-type]


class CheckinIn(StrictSchema):
    player = _text(100, required=True, metadata={"description": "the player, by any name they are known by"})
    missed = fields.String(
        load_default="none",
        validate=validate.OneOf(["none", "loss"]),
        metadata={
            "description": "a late arrival (withdrawn as a no-show): the rounds they missed count nothing (none) or"
            " a loss each (loss: the organiser only)"
        },
    )


class CalledOut(OutSchema):
    player = fields.String(metadata={"description": "the name shown"})
    checked_in = fields.Boolean()
    withdrawn = fields.Boolean(metadata={"description": "out of the rounds still to come"})
    no_show = fields.Boolean(metadata={"description": "withdrawn as a no-show: checking in brings them back"})


class CheckinsOut(OutSchema):
    players = fields.List(fields.Nested(CalledOut), metadata={"description": "every player, in the order they entered"})


class AdjustmentIn(StrictSchema):
    player = _text(100, required=True, metadata={"description": "the player, by any name they are known by"})
    points = fields.Float(
        required=True,
        allow_nan=False,
        validate=validate.Range(min=-1000, max=1000),
        metadata={"description": "added to the player's score: negative for a penalty (not 0)"},
    )
    reason = _text(300, required=True, metadata={"description": "why, as the record and the player see it"})


class AdjustmentOut(OutSchema):
    player = fields.String()
    points = fields.Float()
    reason = fields.String()
    round = fields.Integer(metadata={"description": "rounds started when it was given (0: before round 1)"})
    at = fields.DateTime()


class AdjustmentsOut(OutSchema):
    adjustments = fields.List(fields.Nested(AdjustmentOut), metadata={"description": "oldest first"})


class RefusalOut(OutSchema):
    player = fields.String(metadata={"description": "the name as the player typed it"})
    list_id = fields.String(metadata={"description": "the saved list refused"})
    problems = fields.List(fields.String(), metadata={"description": "each problem: where in the list, and what"})
    at = fields.DateTime()


class RefusalsOut(OutSchema):
    refusals = fields.List(fields.Nested(RefusalOut), metadata={"description": "newest first"})


class FactionStatsOut(OutSchema):
    book = fields.String(metadata={"description": "the army book's id"})
    players = fields.Integer()
    wins = fields.Integer()
    draws = fields.Integer()
    losses = fields.Integer()
    win_rate = fields.Float(
        allow_none=True, metadata={"description": "(wins + draws / 2) / games; null with no game played"}
    )


class UnitStatsOut(OutSchema):
    book = fields.String()
    unit = fields.String(metadata={"description": "the unit's id in its book"})
    lists = fields.Integer(metadata={"description": "how many players' lists took it"})
    win_rate = fields.Float(allow_none=True, metadata={"description": "of those players' games, as for a faction"})


class CategorySpentOut(OutSchema):
    category = fields.String(
        metadata={
            "description": "the family's own: OPR heroes, big models or units; ancients-hex the unit class"
            " (heroes, troops, beasts); armour-hex the unit type (vehicles, infantry, cavalry)"
        }
    )
    cost = fields.Dict(
        keys=fields.String(), values=fields.Float(), metadata={"description": "currency -> spent over every list"}
    )


class StatisticsOut(OutSchema):
    public = fields.Boolean(metadata={"description": "whether everyone may read them (the organiser opens them)"})
    factions = fields.List(fields.Nested(FactionStatsOut), metadata={"description": "most players first"})
    units = fields.List(fields.Nested(UnitStatsOut), metadata={"description": "most taken first"})
    categories = fields.List(fields.Nested(CategorySpentOut), metadata={"description": "points spent by unit category"})


class PublishIn(StrictSchema):
    public = fields.Boolean(required=True, metadata={"description": "true: everyone may read the statistics"})


class TickUnitOut(OutSchema):
    key = fields.String(metadata={"description": "the unit's key in the list: what a result's sides name"})
    name = fields.String()


class MyEntryOut(OutSchema):
    number = fields.Integer(metadata={"description": "the submission's number in the event"})
    list_id = fields.String()
    list_version = fields.Integer()
    book = fields.String(metadata={"description": "the army book's id"})
    points = fields.String(metadata={"description": "the list's cost, as the builder shows it"})
    valid = fields.Boolean(metadata={"description": "legal under the event's pinned rules when submitted"})
    verification_code = fields.String()
    problems = fields.List(fields.String(), metadata={"description": "what makes it illegal, in words"})
    units = fields.List(fields.Nested(TickUnitOut), metadata={"description": "the locked list's units, in order"})


class OpponentListOut(OutSchema):
    number = fields.Integer()
    list_id = fields.String(metadata={"description": "read it at /l/<list_id>?version=<list_version>"})
    list_version = fields.Integer()
    book = fields.String()
    points = fields.String()
    valid = fields.Boolean()
    verification_code = fields.String()
    units = fields.List(fields.Nested(TickUnitOut), metadata={"description": "the locked list's units, in order"})


class MyTableOut(PairingOut):
    round = fields.Integer()
    opponent = fields.String(allow_none=True, metadata={"description": "null: a bye"})
    opponent_list = fields.Nested(OpponentListOut, allow_none=True)


class MyStandingOut(StandingOut):
    """The player's own row of the standings: its figures, without what the page shows already."""

    class Meta:
        exclude = MY_STANDING_LEFT_OUT


class MeOut(OutSchema):
    player = fields.String(metadata={"description": "the name shown"})
    entry = fields.Nested(MyEntryOut)
    checked_in = fields.Boolean()
    withdrawn = fields.Boolean()
    rounds = fields.Integer(metadata={"description": "rounds started"})
    table = fields.Nested(
        MyTableOut, allow_none=True, metadata={"description": "this round's table (null: none yet, or not seated)"}
    )
    standing = fields.Nested(MyStandingOut, allow_none=True)


class TableNameOut(OutSchema):
    table = fields.Integer()
    name = fields.String()


class FixedTableOut(OutSchema):
    player = fields.String(
        metadata={"description": "the name shown (a player yet to submit: the name given, case folded)"}
    )
    table = fields.Integer()


class TablesOut(OutSchema):
    names = fields.List(fields.Nested(TableNameOut), metadata={"description": "by table number"})
    fixed = fields.List(
        fields.Nested(FixedTableOut), metadata={"description": "players who always play at one table, by table"}
    )


class TimerIn(StrictSchema):
    minutes = positive_int(
        required=True,
        allow_none=True,
        validate=validate.Range(min=1, max=600),
        metadata={"description": "the current round ends this many minutes from now (null: stop the timer)"},
    )


class TimerOut(OutSchema):
    round = fields.Integer(metadata={"description": "the current round (0: none started)"})
    ends_at = fields.String(
        allow_none=True, metadata={"description": "when its time is up (ISO 8601, UTC); null: no timer"}
    )
    now = fields.String(metadata={"description": "the server's clock, to count down from on any device"})


class HandoverOut(OutSchema):
    code = fields.String(metadata={"description": "eight characters (ABCD-EFGH), good once, for ten minutes"})
    expires_at = fields.String(metadata={"description": "when the code stops working (ISO 8601, UTC)"})
    url = fields.String(
        metadata={"description": "the round page with the code in its fragment, to open on the other device"}
    )


class HandoverIn(StrictSchema):
    code = _text(20, required=True, metadata={"description": "the hand-over code the organiser's device shows"})


class HandedOverOut(OutSchema):
    organiser_token = fields.String(
        metadata={"description": "an organiser token of this device's own (shown only now)"}
    )
