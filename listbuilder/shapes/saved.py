"""Schemas of the saved-list API: what a saved list, a version and a diff look like on the wire.

The list itself is the same document ``POST /lists/validate`` takes (``ArmyListSchema``), in
its canonical form: every field present.
"""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import fields, validate

from listbuilder.formats.fields import OutSchema, Schema
from listbuilder.formats.lists import ArmyListSchema
from listbuilder.printing.html import LAYOUTS, PAPERS
from listbuilder.shapes.api import PageOut, ReportOut, page_query
from listbuilder.store.limits import MAX_VERSIONS_PER_LIST


class SavedRulesOut(OutSchema):
    """The army book and system a version was saved against, and whether they changed since."""

    system = fields.String()
    book = fields.String()
    book_name = fields.String(metadata={"description": "the book's name on this server (its id if no longer served)"})
    book_version = fields.String(metadata={"description": "the book's own version label when saved"})
    rules_version = fields.String(metadata={"description": "digest of the book and system files when saved"})
    current_rules_version = fields.String(
        allow_none=True,
        metadata={"description": "the same digest for the files served now; null if the book is no longer served"},
    )
    changed = fields.Boolean(
        metadata={
            "description": "true when the book or system changed since the save: `report` is against today's files, `report_when_saved` against the saved ones"
        }
    )
    report_when_saved = fields.Nested(
        ReportOut,
        allow_none=True,
        metadata={
            "description": "validation against the book as saved (only when changed; null if that copy cannot be loaded)"
        },
    )
    verification_code_when_saved = fields.String()


class VersionOut(OutSchema):
    id = fields.String(metadata={"description": "the saved list's id"})
    version = fields.Integer()
    saved_at = fields.DateTime()
    list = fields.Nested(ArmyListSchema, metadata={"description": "the list, every field present"})
    report = fields.Nested(
        ReportOut,
        allow_none=True,
        metadata={"description": "validation against the books served now (null if the book is gone)"},
    )
    verification_code = fields.String(metadata={"description": "the code printed on this list's roster (K7QM-2XWD)"})
    rules = fields.Nested(SavedRulesOut)


class LockingEventOut(OutSchema):
    """An event the list was submitted to, which locked it: its public name and page, or,
    once its organiser deleted it, no name and no page."""

    id = fields.String(metadata={"description": "the event's id"})
    name = fields.String(allow_none=True, metadata={"description": "the event's name; null once the event is deleted"})
    deleted = fields.Boolean(metadata={"description": "true when the organiser deleted the event"})
    url = fields.String(allow_none=True, metadata={"description": "the event's page; null once the event is deleted"})


class SavedListOut(VersionOut):
    created_at = fields.DateTime()
    updated_at = fields.DateTime(metadata={"description": "when the current version was saved"})
    locked = fields.Boolean()
    locked_at = fields.DateTime(allow_none=True)
    events = fields.List(
        fields.Nested(LockingEventOut),
        metadata={
            "description": "the events the list was submitted to (submitting locks it), in the order of their first"
            " submission of it; empty for a list never submitted"
        },
    )
    url = fields.String(metadata={"description": "this resource"})
    share_url = fields.String(metadata={"description": "the read-only page for people"})


class CreatedOut(OutSchema):
    id = fields.String()
    edit_token = fields.String(
        metadata={
            "description": "shown only in this answer: send it as `Authorization: Bearer <token>` to change the list"
        }
    )
    version = fields.Integer()
    url = fields.String()
    share_url = fields.String(metadata={"description": "read-only page; anyone with the link can read"})
    edit_url = fields.String(
        metadata={
            "description": "the page with the token in its #fragment: opens the list for editing on another device"
        }
    )
    report = fields.Nested(
        ReportOut,
        allow_none=True,
        metadata={"description": "validation now (a copy of a list whose book is gone: null)"},
    )


class VersionSummaryOut(OutSchema):
    version = fields.Integer()
    saved_at = fields.DateTime()
    name = fields.String()
    book = fields.String()
    units = fields.Integer(metadata={"description": "entries in the list"})
    rules_version = fields.String()
    verification_code = fields.String(metadata={"description": "under the rules it was saved with"})


class VersionsOut(PageOut):
    id = fields.String()
    current = fields.Integer(metadata={"description": "the current version's number (versions are 1 to it)"})
    versions = fields.List(
        fields.Nested(VersionSummaryOut), metadata={"description": "this page's versions, oldest first"}
    )


VersionsQuery = page_query("versions", default=100, most=MAX_VERSIONS_PER_LIST, skipped_from="the oldest")


class UpgradeChangeOut(OutSchema):
    section = fields.String()
    option = fields.String()
    label = fields.String()
    from_ = fields.Integer(
        data_key="from", attribute="from", metadata={"description": "models taking it before (0: not taken)"}
    )
    to = fields.Integer()


class EntryChangeOut(OutSchema):
    key = fields.String()
    unit = fields.String()
    name = fields.String()
    change = fields.String(validate=validate.OneOf(["added", "removed", "changed"]))
    cost_before = fields.Dict(keys=fields.String(), values=fields.Integer(), allow_none=True)
    cost_after = fields.Dict(keys=fields.String(), values=fields.Integer(), allow_none=True)
    upgrades = fields.List(fields.Nested(UpgradeChangeOut))
    details = fields.List(
        fields.String(), metadata={"description": "other changes in words: renamed, joined, combined, spells, notes"}
    )
    summary = fields.String()


class SettingValue(fields.Raw):
    """A list setting's value: a name, a points limit, force organisation on or off, a game
    mode, or a budget (a cost vector); null when unset."""

    OPENAPI: ClassVar[dict[str, Any]] = {
        "anyOf": [{"type": ["string", "integer", "boolean", "null"]}, {"$ref": "#/components/schemas/CostOut"}]
    }


class SettingChangeOut(OutSchema):
    field = fields.String(validate=validate.OneOf(["name", "points_limit", "force_org", "game_mode", "budget"]))
    from_ = SettingValue(data_key="from", attribute="from")
    to = SettingValue()


class DiffTotalsOut(OutSchema):
    from_ = fields.Dict(data_key="from", attribute="from", keys=fields.String(), values=fields.Integer())
    to = fields.Dict(keys=fields.String(), values=fields.Integer())
    change = fields.Dict(keys=fields.String(), values=fields.Integer())


class DiffOut(OutSchema):
    id = fields.String()
    from_ = fields.Integer(data_key="from", attribute="from")
    to = fields.Integer()
    added = fields.List(fields.Nested(EntryChangeOut))
    removed = fields.List(fields.Nested(EntryChangeOut))
    changed = fields.List(fields.Nested(EntryChangeOut))
    settings = fields.List(fields.Nested(SettingChangeOut))
    totals = fields.Nested(DiffTotalsOut)
    summary = fields.List(fields.String(), metadata={"description": "the diff in sentences, total last"})


_VERSION = {"validate": validate.Range(min=1, max=2**31 - 1), "strict": False}


class VersionQuery(Schema):
    version = fields.Integer(**_VERSION, metadata={"description": "a saved version (default: the current one)"})


class DiffQuery(Schema):
    from_ = fields.Integer(
        data_key="from",
        attribute="from",
        **_VERSION,
        metadata={"description": "older version (default: the one before `to`)"},
    )
    to = fields.Integer(**_VERSION, metadata={"description": "newer version (default: the current one)"})


class PaperQuery(Schema):
    paper = fields.String(
        load_default="a4", validate=validate.OneOf(sorted(PAPERS)), metadata={"description": "page size: a4 or letter"}
    )


class RosterQuery(PaperQuery, VersionQuery):
    layout = fields.String(
        load_default="sheet",
        validate=validate.OneOf(sorted(LAYOUTS)),
        metadata={"description": "sheet (compact, the default) or cards (one card per unit, to cut out)"},
    )
