"""The event log's entries as ``GET /events/<id>/log`` sends them: one closed shape per
``kind``, its ``data`` as the day's plans write it (``listbuilder.events``, ``store/handover``,
the refused submission in ``web/events``).

The OpenAPI document declares ``LogEntryOut`` as a ``oneOf`` of :func:`log_variants`, with a
discriminator mapping on ``kind``, so a client reads ``entry.data.after_round`` of a
``checkin`` with its type. A kind written without a shape here fails the answer checks of the
tests (``tests/answer_schemas.py``): every kind's data is declared.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from marshmallow import fields, validate

from listbuilder.formats.fields import OutSchema
from listbuilder.shapes.events import EventSettingsOut
from listbuilder.tournament import TIEBREAKERS

_DAY_KEYS = (
    "tiebreakers",
    "avoid_same_club",
    "avoid_same_faction_first_round",
    "clubs",
    "lists_after_start",
    "fixed_tables",
    "table_names",
)


class LogDaySettingsOut(OutSchema):
    """The day's settings an edit changed (each only when it did)."""

    SOMETIMES = frozenset(_DAY_KEYS)

    tiebreakers = fields.List(fields.String(validate=validate.OneOf(TIEBREAKERS)))
    avoid_same_club = fields.Boolean()
    avoid_same_faction_first_round = fields.Boolean()
    clubs = fields.Dict(keys=fields.String(), values=fields.String(), metadata={"description": "player -> club"})
    lists_after_start = fields.Boolean()
    fixed_tables = fields.Dict(
        keys=fields.String(), values=fields.Integer(), metadata={"description": "player key -> table number"}
    )
    table_names = fields.Dict(
        keys=fields.String(), values=fields.String(), metadata={"description": "table number -> name"}
    )


class LogSettingsSideOut(OutSchema):
    """The event's settings on one side of an edit: what it changed, as it was or became."""

    SOMETIMES = frozenset({"name", "deadline", "allow_illegal", "settings", "day"})

    name = fields.String()
    deadline = fields.DateTime()
    allow_illegal = fields.Boolean()
    settings = fields.Nested(EventSettingsOut, metadata={"description": "the list settings"})
    day = fields.Nested(LogDaySettingsOut)


class LogSettingsOut(OutSchema):
    before = fields.Nested(LogSettingsSideOut)
    after = fields.Nested(LogSettingsSideOut)


class LogDeadlineOut(OutSchema):
    """Submissions closed now (``close``) or open again until a new deadline (``reopen``)."""

    before = fields.DateTime(metadata={"description": "the deadline before"})
    after = fields.DateTime(metadata={"description": "the deadline after"})


class LogDeletedOut(OutSchema):
    at = fields.DateTime()


class LogRenameOut(OutSchema):
    player = fields.String(metadata={"description": "the player's key"})
    before = fields.String(metadata={"description": "the name shown before"})
    after = fields.String(metadata={"description": "the name shown from now on"})


class LogUndoneSubmissionOut(OutSchema):
    number = fields.Integer(metadata={"description": "the submission undone"})
    player = fields.String()
    list_id = fields.String()
    list_version = fields.Integer()
    verification_code = fields.String()


class LogPlayerOut(OutSchema):
    """A player checked in, withdrawn or reinstated after a number of rounds."""

    SOMETIMES = frozenset({"no_show", "late", "missed"})

    player = fields.String()
    after_round = fields.Integer(metadata={"description": "rounds started when it happened"})
    no_show = fields.Boolean(metadata={"description": "withdraw: not checked in when the no-shows were withdrawn"})
    late = fields.Boolean(metadata={"description": "reinstate: a no-show who checked in late"})
    missed = fields.String(
        validate=validate.OneOf(["none", "loss"]), metadata={"description": "how the missed rounds count"}
    )


class LogSwapOut(OutSchema):
    round = fields.Integer()
    players = fields.List(
        fields.String(), validate=validate.Length(equal=2), metadata={"description": "the two swapped"}
    )


def _undone_round() -> type[OutSchema]:
    """``undo_round``'s data: the round as it was paired (made on first use: ``shapes.rounds``,
    which declares a table row, imports this module for ``LogEntryOut``)."""
    from listbuilder.shapes.rounds import TableRow

    return type(
        "LogUndoneRoundOutSchema",
        (OutSchema,),
        {
            "round": fields.Integer(),
            "seed": fields.Integer(allow_none=True),
            "tables": fields.List(TableRow(), metadata={"description": "its tables as they were paired"}),
        },
    )


class LogStatisticsOut(OutSchema):
    public = fields.Boolean(metadata={"description": "the statistics are public from now on"})


class LogTimerOut(OutSchema):
    round = fields.Integer()
    ends_at = fields.DateTime(allow_none=True, metadata={"description": "null: the timer stopped"})


class LogRefusalOut(OutSchema):
    player = fields.String()
    list_id = fields.String()
    problems = fields.List(fields.String(), metadata={"description": "where and what, the first few"})
    more = fields.Boolean(metadata={"description": "there were more problems than those kept"})


class LogAdjustmentOut(OutSchema):
    player = fields.String()
    points = fields.Float(metadata={"description": "added to the score (negative: a penalty)"})
    reason = fields.String()
    round = fields.Integer(metadata={"description": "rounds started when it was given"})


class LogHandoverOut(OutSchema):
    code_hash = fields.String(metadata={"description": "the code's hash (the code itself is never kept)"})
    expires_at = fields.DateTime()


class LogHandoverUsedOut(OutSchema):
    code_hash = fields.String()


class LogOrganiserTokenOut(OutSchema):
    hash = fields.String(metadata={"description": "a handed-over organiser token's hash"})


def kinds() -> dict[str, type[OutSchema]]:
    """Each kind the log holds -> the shape of its data (kinds that share a shape name it each)."""
    return {
        "settings": LogSettingsOut,
        "close": LogDeadlineOut,
        "reopen": LogDeadlineOut,
        "delete": LogDeletedOut,
        "rename": LogRenameOut,
        "undo_submission": LogUndoneSubmissionOut,
        "checkin": LogPlayerOut,
        "withdraw": LogPlayerOut,
        "reinstate": LogPlayerOut,
        "swap": LogSwapOut,
        "undo_round": _undone_round(),
        "statistics": LogStatisticsOut,
        "timer": LogTimerOut,
        "refusal": LogRefusalOut,
        "adjustment": LogAdjustmentOut,
        "handover": LogHandoverOut,
        "handover_used": LogHandoverUsedOut,
        "organiser_token": LogOrganiserTokenOut,
    }


class LogEntryFields(OutSchema):
    """What every log entry has."""

    seq = fields.Integer(metadata={"description": "its place in the event's log, from 1"})
    at = fields.DateTime()


@cache
def log_variants() -> tuple[type[OutSchema], ...]:
    """``LogEntryOut`` as the document has it: one closed shape per kind (``LogEntryCheckin``)."""
    out = []
    for kind, data in kinds().items():
        title = "".join(part.title() for part in kind.split("_"))
        attrs: dict[str, Any] = {
            "DESCRIPTION": f"An entry of the log of kind {kind}.",
            "kind": fields.String(validate=validate.OneOf([kind])),
            "data": fields.Nested(data, metadata={"description": "what the action changed"}),
        }
        out.append(type(f"LogEntry{title}Schema", (LogEntryFields,), attrs))
    return tuple(out)
