"""Schemas of the events API: an event as an organiser creates it, a submission, the report.

The list settings an event fixes are the fields of the list document itself
(``points_limit``, ``force_org``, ``game_mode``, ``budget``; see ``ArmyListSchema``).
"""

from __future__ import annotations

from typing import Any

from marshmallow import ValidationError, fields, validate

from listbuilder.formats.fields import Described, OutSchema, StrictSchema, positive_int
from listbuilder.formats.lists import BudgetSchema
from listbuilder.shapes.api import CostOut, ErrorOut, PageOut, ReportOut, VerdictOut, page_query
from listbuilder.shapes.saved import PaperQuery
from listbuilder.store.tokens import ID_PATTERN
from listbuilder.tournament import DEFAULT_TIEBREAKERS, TIEBREAKERS

MAX_BOOKS = 50
MAX_BATCH = 1000


def _text(low: int, high: int, **kw: Any) -> fields.String:
    return fields.String(validate=validate.Length(min=low, max=high), **kw)


# At least one character that is not white space. A pattern (not a Python check) so that the
# OpenAPI document states the rule too: clients and schemathesis then know "\u00a0" is refused.
# "\s" differs between Python (which counts \x1c-\x1f and \x85 as space) and ECMAScript (which
# counts \ufeff), so the blank characters are spelled out: every character either calls white
# space, with escapes both read alike. A match anywhere (ECMAScript) and from the start (Python's
# re.match, after the leading blanks) then mean the same: some character is not blank.
BLANK = r"\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
NOT_BLANK = validate.Regexp(f"[{BLANK}]*[^{BLANK}]", error="blank: give at least one character that is not a space")


def _name(high: int, **kw: Any) -> fields.String:
    """A name people read (an event's, a player's): 1 to *high* characters, not all spaces."""
    return fields.String(validate=[validate.Length(min=1, max=high), NOT_BLANK], **kw)


class BookPinIn(StrictSchema):
    book = _text(1, 100, required=True, metadata={"description": "an army book id of the event's system"})
    version = _text(
        1,
        100,
        load_default=None,
        allow_none=True,
        metadata={"description": "optional: the book's version label you expect; 409 if the server serves another"},
    )
    rules_version = _text(
        1,
        16,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "optional: the rules_version you expect (from a saved list or an earlier event); 409 if different"
        },
    )


MAX_PLAYERS = 2000
MAX_TABLE = 9999  # a venue's table numbers, with room for gaps (tables 101-140 in a second hall)
TABLE_NUMBER = r"^[1-9][0-9]{0,3}$"


def _each_once(names: list[str]) -> None:
    if len(set(names)) != len(names):
        raise ValidationError("name each tiebreaker at most once")


def _at_most_players(given: dict[str, Any]) -> None:
    """As the document's maxProperties says (apispec would write marshmallow's Length as maxLength)."""
    if len(given) > MAX_PLAYERS:
        raise ValidationError(f"at most {MAX_PLAYERS} entries")


class DaySettingsIn(StrictSchema):
    """The tournament day's settings, at creation or in an edit before round 1 (the room's
    fixed tables and table names at any time; each optional: not given, the default of
    docs/events.md, or the value set before)."""

    tiebreakers = fields.List(
        fields.String(validate=validate.OneOf(TIEBREAKERS)),
        load_default=None,
        validate=[validate.Length(max=len(TIEBREAKERS)), _each_once],
        metadata={
            "description": "the tiebreakers after the score, in the organiser's order, each at most once"
            f" (until set: {', '.join(DEFAULT_TIEBREAKERS)}); defined in docs/events.md",
            "uniqueItems": True,
        },
    )
    avoid_same_club = fields.Boolean(
        load_default=None, metadata={"description": "pair players of one club apart when the scores allow"}
    )
    avoid_same_faction_first_round = fields.Boolean(
        load_default=None, metadata={"description": "round 1: pair players of one army book apart"}
    )
    clubs = fields.Dict(
        keys=fields.String(),
        values=fields.String(validate=validate.Length(min=1, max=100)),
        load_default=None,
        metadata={"description": "player name -> club", "maxProperties": MAX_PLAYERS},
    )
    lists_after_start = fields.Boolean(
        load_default=None,
        metadata={
            "description": "whether players may submit (or resubmit) lists after round 1 starts;"
            " until set: false, a submission once round 1 has started is 409"
        },
    )
    fixed_tables = fields.Dict(
        keys=fields.String(validate=[validate.Length(min=1, max=100), NOT_BLANK]),
        values=positive_int(validate=validate.Range(min=1, max=MAX_TABLE)),
        load_default=None,
        validate=_at_most_players,
        metadata={
            "description": "player name (any name they are known by) -> the table they always play at, from the next"
            " round paired (a table at most once; replaces the whole set; may change after round 1)",
            "maxProperties": MAX_PLAYERS,
        },
    )
    table_names = fields.Dict(
        keys=fields.String(validate=validate.Regexp(TABLE_NUMBER, error="a table number, 1 to 9999")),
        values=fields.String(validate=[validate.Length(min=1, max=60), NOT_BLANK]),
        load_default=None,
        validate=_at_most_players,
        metadata={
            "description": "table number -> its name, shown beside the number on every page and sheet"
            " (replaces the whole set; may change after round 1)",
            "maxProperties": MAX_PLAYERS,
        },
    )


class EventIn(DaySettingsIn):
    name = _name(200, required=True)
    system = _text(1, 100, required=True, metadata={"system_id": True})
    points_limit = positive_int(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=1, max=100000),
        metadata={"description": "required unless the system plays game modes (armour-hex)"},
    )
    force_org = fields.Boolean(
        load_default=None,
        allow_none=True,
        metadata={"description": "force organisation on or off (default: the system's)"},
    )
    game_mode = _text(
        1,
        100,
        load_default=None,
        allow_none=True,
        metadata={"description": "armour-hex: the game mode every list plays"},
    )
    budget = fields.Nested(
        BudgetSchema,
        load_default=None,
        allow_none=True,
        metadata={"description": "armour-hex: a budget agreed for the event"},
    )
    books = fields.List(
        fields.Nested(BookPinIn),
        required=True,
        validate=validate.Length(min=1, max=MAX_BOOKS),
        metadata={"description": "the allowed army books, pinned to the version served now"},
    )
    deadline = fields.AwareDateTime(
        required=True,
        format="iso",
        metadata={"description": "submissions close at this time (ISO 8601 with a time zone)"},
    )
    allow_illegal = fields.Boolean(
        load_default=False, metadata={"description": "accept illegal lists (flagged) instead of refusing them"}
    )


class BookPinOut(OutSchema):
    book = fields.String()
    name = fields.String()
    version = fields.String(metadata={"description": "the book's version label"})
    rules_version = fields.String(
        metadata={"description": "digest of the pinned book and system files; a list must be saved against it"}
    )


class EventSettingsOut(OutSchema):
    """The list settings an event imposes on every list (those it sets)."""

    SOMETIMES = frozenset({"points_limit", "force_org", "game_mode", "budget"})

    points_limit = fields.Integer()
    force_org = fields.Boolean()
    game_mode = fields.String(metadata={"description": "armour-hex"})
    budget = Described(CostOut, metadata={"description": "armour-hex"})


class EventOut(OutSchema):
    id = fields.String()
    name = fields.String()
    system = fields.String(metadata={"system_id": True})
    settings = Described(
        EventSettingsOut, metadata={"description": "the list settings every submitted list is validated with"}
    )
    books = fields.List(fields.Nested(BookPinOut))
    deadline = fields.DateTime()
    open = fields.Boolean(metadata={"description": "whether submissions are still accepted"})
    allow_illegal = fields.Boolean()
    created_at = fields.DateTime()
    url = fields.String()
    page_url = fields.String(
        metadata={"description": "the event's page: players submit there; the organiser adds the token"}
    )


class EventCreatedOut(OutSchema):
    id = fields.String()
    organiser_token = fields.String(
        metadata={
            "description": "shown only in this answer: `Authorization: Bearer <token>` for the organiser's report"
        }
    )
    organiser_url = fields.String(
        metadata={"description": "the event's page with the token in its #fragment (never sent to the server)"}
    )
    event = fields.Nested(EventOut)


class SubmitIn(StrictSchema):
    list_id = fields.String(
        required=True,
        validate=validate.Regexp(ID_PATTERN, error="not a saved list's id (16 URL-safe characters)"),
        metadata={"description": "a saved list's id; its edit token goes in Authorization"},
    )
    player = _name(100, required=True, metadata={"description": "the player's name as the organiser will see it"})
    player_token = _text(
        1,
        100,
        load_default=None,
        allow_none=True,
        metadata={
            "description": "needed to submit again under the same name: the token given with the first submission"
        },
    )


class SubmittedOut(OutSchema):
    """Which saved list, at which version, a submission locked, and its verification code."""

    number = fields.Integer()
    list_id = fields.String()
    list_version = fields.Integer(metadata={"description": "the version submitted (and locked)"})
    verification_code = fields.String(metadata={"description": "under the event's pinned rules and settings"})


class SubmissionOut(SubmittedOut):
    event_id = fields.String()
    player = fields.String()
    player_token = fields.String(
        allow_none=True,
        metadata={
            "description": "with a player's first submission, and again when that same submission is repeated (see docs/events.md): keep it to submit again"
        },
    )
    valid = fields.Boolean(metadata={"description": "false: an illegal list the organiser accepts, flagged"})
    report = fields.Nested(ReportOut)
    submitted_at = fields.DateTime()


class EarlierOut(SubmittedOut):
    """The player's submission before this one."""


class EntryOut(SubmittedOut, VerdictOut):
    player = fields.String()
    faction = fields.String()
    submitted_at = fields.DateTime()
    points = fields.String(metadata={"description": "the list's cost in words (1995 pts; 18 IP, 22 MP …)"})
    earlier = fields.Nested(
        EarlierOut, allow_none=True, metadata={"description": "the player's submission before this one"}
    )
    changes = fields.List(
        fields.String(),
        allow_none=True,
        metadata={"description": "what changed since the earlier submission, in words"},
    )
    revalidated = fields.Boolean()
    changed_since_submission = fields.Boolean(
        metadata={"description": "after re-validation: the verdict or issues differ from those at submission"}
    )


class ReportOutEvent(PageOut):
    event = fields.Nested(EventOut)
    entries = fields.List(
        fields.Nested(EntryOut), metadata={"description": "one per player (this page's): their newest submission"}
    )
    submissions = fields.Integer(
        metadata={"description": "submissions received in all (players who submitted again count each time)"}
    )


# players in the order they first submitted
ReportQuery = page_query("entries", default=500, most=MAX_PLAYERS, skipped_from="the first player to submit")


class PackQuery(PaperQuery):
    """The paper of an event's roster pack (the same choice as a saved list's roster)."""


class PackProgressOut(StrictSchema):
    paper = fields.String(required=True, metadata={"description": "a4 or letter"})
    players = fields.Integer(required=True, metadata={"description": "entries in the pack: one per player"})
    rendered = fields.Integer(required=True, metadata={"description": "entries whose roster is rendered and kept"})
    ready = fields.Boolean(required=True, metadata={"description": "every roster is rendered: the PDF answers 200"})
    pdf_url = fields.String(
        required=True, metadata={"description": "the roster pack's URL (GET with the organiser token)"}
    )


class BatchIn(StrictSchema):
    lists = fields.List(
        fields.Dict(
            metadata={
                "description": "a list, as the body of POST /lists/validate (ArmyList), checked on its own: one that is"
                " not a list gets its error in its place (see `error`), the batch still answers 200"
            }
        ),
        required=True,
        metadata={
            "maxItems": MAX_BATCH,
            "description": f"up to {MAX_BATCH} lists (more: 413); one that cannot be checked gets its error in its place",
        },
    )


class BatchItemOut(OutSchema):
    index = fields.Integer()
    report = fields.Nested(ReportOut, allow_none=True)
    error = fields.Nested(
        ErrorOut,
        allow_none=True,
        metadata={
            "description": "when this list could not be validated: the error shape (code, status, message, errors)"
        },
    )


class BatchOut(OutSchema):
    reports = fields.List(fields.Nested(BatchItemOut))
    valid = fields.Integer(metadata={"description": "how many lists are legal"})
