"""Tournament events checked against their pinned rules: the edge between the event store,
the army books and validation (as ``lists/saved.py`` is for saved lists; no SQL, no Flask here).

An event pins each allowed book as a ``RulesRecord`` (ids, version label, digests,
``rules_version``) when it is created, and keeps the files' text, so its submissions are
checked against the same rules for the event's whole life, whatever the server's books do
later. The event also fixes the list settings of its games (``points_limit``, ``force_org``,
and for hex armour ``game_mode`` / ``budget``): a submitted list is validated with the
event's settings in place of its own. A list must have been saved against the pinned version
of its book (anything else is refused as a version mismatch), so the verification code its
player prints is the one the organiser sees.

Errors are :class:`~listbuilder.lists.documents.ListError` (the web layer answers them in the one error
shape): 404 unknown books, 409 version mismatches, 422 settings or books the event cannot
take and illegal lists refused.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from listbuilder.books.registry import BookRegistry
from listbuilder.events import stored_reports
from listbuilder.lists import saved
from listbuilder.lists.canonical import verification_code
from listbuilder.lists.diff import format_cost
from listbuilder.lists.documents import ListError, parse_list
from listbuilder.model import ArmyList, Cost
from listbuilder.util.words import counted
from listbuilder.validation import ERROR, ValidationReport

if TYPE_CHECKING:
    from listbuilder.store.database import Database
    from listbuilder.store.events import Event, Submission
    from listbuilder.store.lists import RulesRecord, SavedVersion

SETTINGS = ("points_limit", "force_org", "game_mode", "budget")
MODE_SETTINGS = ("game_mode", "budget")


# --------------------------------------------------------------------------------------------
# Setting an event up


def pin_books(
    registry: BookRegistry, system_id: str, wanted: Sequence[Mapping[str, Any]]
) -> tuple[list[RulesRecord], dict[str, str]]:
    """Each wanted book (``{"book": id, "version": label?, "rules_version": digest?}``) as the
    server serves it now, pinned, with the files' text by digest. A version asked for must be
    the one served: an event pins real files, not labels. Raises ListError (404 unknown
    system or book, 409 another version asked for, 422 a book named twice)."""
    if system_id not in registry.rules:
        raise ListError(
            "unknown_system",
            f"no game system {system_id!r}",
            {"system": [f"unknown; known: {sorted(registry.systems)}"]},
            status=404,
        )
    pins: list[RulesRecord] = []
    texts: dict[str, str] = {}
    for i, want in enumerate(wanted):
        where = f"books[{i}]"
        book = registry.books.get(want["book"])
        if book is None or book.system != system_id:
            known = sorted(b.id for b in registry.books_of(system_id))
            raise ListError(
                "unknown_book",
                f"no {system_id} army book {want['book']!r}",
                {f"{where}.book": [f"unknown; books for {system_id}: {known}"]},
                status=404,
            )
        if any(pin.book_id == book.id for pin in pins):
            raise ListError("invalid_event", f"{book.name} is named twice", {f"{where}.book": ["named twice"]})
        pin, found = saved.rules_record(registry, saved.Rules(registry.rules[system_id], book))
        for field, served in (("version", pin.book_version), ("rules_version", pin.rules_version)):
            if want.get(field) is not None and want[field] != served:
                raise ListError(
                    "book_version_mismatch",
                    f"this server has {book.name} {field} {served!r}, not {want[field]!r}: an event pins the book it serves",
                    {f"{where}.{field}": [f"served: {served!r}"]},
                    status=409,
                )
        pins.append(pin)
        texts.update(found)
    return pins, texts


def check_settings(registry: BookRegistry, system_id: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The list settings an event imposes, checked against its system; None values dropped.

    Game modes and budgets belong to systems that describe game modes; any other system needs
    a points limit. The settings are then tried on an empty list: any error the system
    reports about them (an unknown game mode, a budget that is not the mode's) is a 422.
    Raises ListError.
    """
    chosen = {k: settings[k] for k in SETTINGS if settings.get(k) is not None}
    rules = registry.rules[system_id]
    has_modes = "game_modes" in rules.describe()
    errors: dict[str, list[str]] = {}
    for key in MODE_SETTINGS:
        if key in chosen and not has_modes:
            errors[key] = [f"{system_id} has no game modes or budgets"]
    if not has_modes and "points_limit" not in chosen:
        errors["points_limit"] = [f"required for {system_id}"]
    if not errors:
        book = registry.books_of(system_id)[0]
        empty = with_settings(ArmyList(system_id, book.id, ()), chosen)
        for issue in rules.validate(empty, book).issues:
            if issue.severity == ERROR and issue.path in SETTINGS:
                errors.setdefault(issue.path, []).append(issue.message)
    if errors:
        raise ListError("invalid_event", "the event's list settings do not fit its game system", errors)
    return chosen


def with_settings(army: ArmyList, settings: Mapping[str, Any]) -> ArmyList:
    """*army* as it is played at an event with these settings: the event's points limit,
    force organisation and game mode replace the list's own. The event's budget replaces the
    list's; without one, a list keeps its budget only when it was built for the event's game
    mode (in a split mode the player declares how the free points are divided; a budget
    written for another mode means nothing at this event)."""
    extra = {k: v for k, v in army.extra.items() if k not in MODE_SETTINGS}
    if settings.get("game_mode") is not None:
        extra["game_mode"] = settings["game_mode"]
        if army.extra.get("budget") is not None and army.extra.get("game_mode") == settings["game_mode"]:
            extra["budget"] = army.extra["budget"]
    if settings.get("budget") is not None:
        extra["budget"] = settings["budget"]
    return dataclasses.replace(
        army,
        points_limit=settings.get("points_limit", army.points_limit),
        force_org=settings.get("force_org", army.force_org),
        extra=extra,
    )


# --------------------------------------------------------------------------------------------
# Submissions


@dataclass(frozen=True)
class EventCheck:
    """A saved list version as the event sees it: played with the event's settings, validated
    against the pinned book, and its verification code under the pinned rules."""

    army: ArmyList
    report: ValidationReport
    rules: saved.Rules
    verification_code: str

    @property
    def report_json(self) -> str:
        return json.dumps(self.report.as_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def check_for_event(db: Database, registry: BookRegistry, event: Event, version: SavedVersion) -> EventCheck:
    """Validate a saved version against the event's pinned rules and settings.

    Raises ListError: 422 when the list is of another system or its book is not allowed,
    409 when it was saved against another version of its book than the pinned one (or the
    pinned book's saved copy no longer loads).
    """
    army = parse_list(version.document)
    if army.system != event.system_id:
        raise ListError(
            "event_system",
            f"the list is for {army.system}; this event plays {event.system_id}",
            {"list_id": [f"a {army.system} list"]},
        )
    pin = event.pin(army.book)
    if pin is None:
        allowed = [p.book_id for p in event.books]
        raise ListError(
            "event_book",
            f"army book {army.book!r} is not allowed at this event; allowed: {allowed}",
            {"list_id": [f"book {army.book!r} not allowed"]},
        )
    if version.rules.rules_version != pin.rules_version:
        raise ListError(
            "book_version_mismatch",
            f"the list was saved against {pin.book_id} version {version.rules.book_version!r} (rules {version.rules.rules_version}); "
            f"this event pins version {pin.book_version!r} (rules {pin.rules_version}): save the list again with the pinned book",
            {"list_id": [f"rules {version.rules.rules_version}, event pins {pin.rules_version}"]},
            status=409,
        )
    rules = saved.pinned_rules(db, registry, pin)
    if rules is None:
        raise ListError(
            "book_unavailable",
            f"the event's pinned copy of {pin.book_id} cannot be loaded",
            {"list_id": ["pinned book unavailable"]},
            status=409,
        )
    played = with_settings(army, event.settings)
    return EventCheck(played, rules.validate(played), rules, verification_code(played, pin.rules_version))


def refusal(report: ValidationReport) -> ListError:
    """An illegal list refused by an event that does not allow them: 422 naming each issue
    by its path in the list (``list.units[2].upgrades[0]``)."""
    errors: dict[str, list[str]] = {}
    for issue in report.issues:
        if issue.severity == ERROR:
            errors.setdefault(f"list.{issue.path}" if issue.path else "list", []).append(
                f"{issue.code}: {issue.message}"
            )
    return ListError(
        "illegal_list",
        f"the list is not legal under this event's rules ({counted(len(errors), 'problem')}); the organiser does not accept illegal lists",
        errors,
    )


# --------------------------------------------------------------------------------------------
# The organiser's report


@dataclass(frozen=True)
class Entry:
    """A player's entry: their newest submission, how it stands, and what changed since the
    one before it."""

    submission: Submission
    faction: str
    report: Mapping[str, Any]  # as checked on submission, or now when re-validated
    earlier: Submission | None
    changes: tuple[str, ...] | None  # the diff from the earlier submission, in words
    revalidated: bool = False
    changed_since_submission: bool = False
    name: str | None = None  # the player's name shown (first spelling or the organiser's); None: as submitted

    @property
    def player(self) -> str:
        return self.name if self.name is not None else self.submission.player

    @property
    def valid(self) -> bool:
        return bool(self.report["valid"])

    @property
    def points(self) -> str:
        return format_cost(Cost.total(Cost(e["cost"]) for e in self.report.get("entries", {}).values()))

    @property
    def errors(self) -> list[Mapping[str, Any]]:
        return [i for i in self.report["issues"] if i["severity"] == ERROR]

    def as_dict(self) -> dict[str, Any]:
        s = self.submission
        return {
            "number": s.number,
            "player": self.player,
            "faction": self.faction,
            "list_id": s.list_id,
            "list_version": s.list_version,
            "submitted_at": s.submitted_at,
            "points": self.points,
            "totals": dict(self.report["totals"]),
            "valid": self.valid,
            "issues": list(self.report["issues"]),
            "verification_code": s.verification_code,
            "earlier": {
                "number": self.earlier.number,
                "list_id": self.earlier.list_id,
                "list_version": self.earlier.list_version,
                "verification_code": self.earlier.verification_code,
            }
            if self.earlier
            else None,
            "changes": list(self.changes) if self.changes is not None else None,
            "revalidated": self.revalidated,
            "changed_since_submission": self.changed_since_submission,
        }


def entries(
    db: Database,
    registry: BookRegistry,
    event: Event,
    submissions: Sequence[Submission],
    *,
    revalidate: bool = False,
    shown: Mapping[str, str] | None = None,
    window: slice = slice(None),
) -> list[Entry]:
    """One entry per player (their newest submission), in the order players first submitted,
    named as *shown* (player key -> name) has them, else as their newest submission spelt it.

    With *revalidate*, every entry is checked again now against the pinned rules (the
    validation code may have been corrected since); ``changed_since_submission`` says
    whether the verdict or the issues moved. Stored submissions are never rewritten. *window*
    picks a page of the players (their entries alone are read and compared).
    """
    latest = latest_submissions(submissions)[window]
    versions = read_submitted(db, [s for pair in latest for s in pair if s is not None])
    found = []
    for s, earlier in latest:
        version = versions[s.list_id, s.list_version]

        def now(version: SavedVersion = version) -> dict[str, Any]:
            return check_for_event(db, registry, event, version).report.as_dict()

        report: Mapping[str, Any] = stored_reports.current_shape(s.report, now)
        changed = False
        if revalidate:
            fresh = now()
            changed = (fresh["valid"], fresh["issues"]) != (report["valid"], report["issues"])
            report = fresh
        changes = None
        if earlier is not None:
            older = versions[earlier.list_id, earlier.list_version]
            changes = tuple(saved.diff_versions(db, registry, older, version).summary())
        name = (shown or {}).get(s.player_key)
        faction = _faction(registry, event, version.rules.book_id)
        found.append(Entry(s, faction, report, earlier, changes, revalidate, changed, name))
    return found


def read_submitted(db: Database, submitted: Sequence[Submission]) -> dict[tuple[str, int], SavedVersion]:
    """The list versions *submitted* names, read together (one statement per few hundred).
    Raises what reading a version raises (ListGone, ListNotFound) for one that is missing."""
    versions = saved.stored_lists.read_versions(db, [(s.list_id, s.list_version) for s in submitted])
    for s in submitted:
        if (s.list_id, s.list_version) not in versions:
            versions[s.list_id, s.list_version] = saved.stored_lists.read_version(db, s.list_id, s.list_version)
    return versions


def latest_submissions(submissions: Sequence[Submission]) -> list[tuple[Submission, Submission | None]]:
    """Each player's newest submission with the one before it (None for a first), in the
    order players first submitted."""
    latest: dict[str, Submission] = {}
    before: dict[str, Submission] = {}
    for s in submissions:
        if s.player_key in latest:
            before[s.player_key] = latest[s.player_key]
        latest[s.player_key] = s
    return [(s, before.get(key)) for key, s in latest.items()]


def _faction(registry: BookRegistry, event: Event, book_id: str) -> str:
    book = registry.books.get(book_id)
    return book.name if book is not None else book_id


CSV_COLUMNS = (
    "player",
    "faction",
    "points",
    "valid",
    "issues",
    "verification_code",
    "list_id",
    "list_version",
    "submitted_at",
    "changes",
)


def entries_csv(found: Sequence[Entry]) -> str:
    """The entries as CSV for a spreadsheet: one row per player, issues and changes joined
    with "; ". Cells starting with = + - @ are prefixed with ' so no spreadsheet runs them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for entry in found:
        s = entry.submission
        row = {
            "player": entry.player,
            "faction": entry.faction,
            "points": entry.points,
            "valid": "yes" if entry.valid else "no",
            "issues": "; ".join(f"{i['code']}: {i['message']}" for i in entry.errors),
            "verification_code": s.verification_code,
            "list_id": s.list_id,
            "list_version": s.list_version,
            "submitted_at": s.submitted_at.isoformat().replace("+00:00", "Z"),
            "changes": "; ".join(entry.changes or ()),
        }
        writer.writerow([_cell(row[c]) for c in CSV_COLUMNS])
    return out.getvalue()


def _cell(value: Any) -> str:
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
