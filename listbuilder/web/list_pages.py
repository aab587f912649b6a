"""Pages for saved lists: "My lists" (``/lists``) and the read-only page of one list (``/l/<id>``).

The read-only page is rendered on the server, so it reads without JavaScript and prints well:
the list, its validation, its verification code, what changed in its last save, links to the
PDF and text rosters, and a card for each unit on the table so an opponent reads what the
units do without the PDF. The cards are the printed roster's view model
(``listbuilder.printing.rosters``) drawn as a web page: one source for both. ``static/js/list_view.js`` adds what needs the browser's memory of
edit tokens: "make a copy to edit", "edit", and taking in an edit link (``/l/<id>#edit=<token>``;
the token rides in the fragment, which browsers never send to the server or its logs).
"My lists" is a shell filled by ``static/js/lists.js`` from the ids and tokens this browser keeps.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from flask import Blueprint, Flask, render_template, request

from listbuilder.model import ArmyBook, ArmyList, Cost
from listbuilder.store.errors import ListGone, ListNotFound
from listbuilder.util.lazy import lazy_module
from listbuilder.validation import ValidationReport
from listbuilder.web import unit_cards
from listbuilder.web.context import database, registry

list_diff = lazy_module("listbuilder.lists.diff")
saved = lazy_module("listbuilder.lists.saved")
store = lazy_module("listbuilder.store.lists")

bp = Blueprint("list_pages", __name__)


@dataclass(frozen=True)
class UnitRow:
    """One entry of the list as the read-only page shows it."""

    key: str
    name: str
    book_name: str
    models: int | None
    cost: str
    details: tuple[str, ...]


@bp.route("/lists")
def my_lists() -> str:
    return render_template("lists.html")


@bp.route("/l/<list_id>")
def view(list_id: str) -> Any:
    db, books = database(), registry()
    wanted = request.args.get("version", type=int)
    try:
        found = store.read_list(db, list_id)
        version = store.read_version(db, list_id, wanted) if wanted and wanted != found.version else found.current
    except ListGone:
        return render_template("not_found.html", message="This list was deleted by its owner."), 410
    except ListNotFound:
        message = (
            f"This list has no version {wanted}."
            if wanted
            else "There is no saved list at this address. Check the link you were given."
        )
        return render_template("not_found.html", message=message), 404
    checked = saved.check_version(db, books, version)
    rules = saved.pricing_rules(db, books, version)
    report = checked.report or checked.report_when_saved
    book = rules.book if rules is not None else None
    system = books.systems.get(version.rules.system_id)
    changes = None
    if version.number > 1:
        previous = store.read_version(db, list_id, version.number - 1)
        changes = saved.diff_versions(db, books, previous, version).summary()
    return render_template(
        "list_view.html",
        found=found,
        version=version,
        checked=checked,
        report=report,
        book=book,
        system_name=system.name if system is not None else version.rules.system_id,
        blocks=unit_blocks(checked.army, unit_rows(checked.army, report, book), report),
        total=_total(report),
        changes=changes,
        roster=unit_cards.version_roster(db, books, version, checked.army),
    )


def unit_rows(army: ArmyList, report: ValidationReport | None, book: ArmyBook | None) -> list[UnitRow]:
    """Each entry with its book name, models, cost and upgrades in words (ids if unknown)."""
    entries = report.entries if report is not None else {}
    names = {e.key: e.name or _unit_name(book, e.unit) for e in army.units}
    rows = []
    for entry in army.units:
        details = [
            _upgrade_label(book, u.section, u.option) + (f" ×{u.count}" if u.count > 1 else "") for u in entry.upgrades
        ]
        if entry.combined_with:
            details.append(f"combined with {names.get(entry.combined_with, entry.combined_with)}")
        if entry.joined_to:
            details.append(f"joined to {names.get(entry.joined_to, entry.joined_to)}")
        if entry.spells:
            details.append("spells: " + ", ".join(entry.spells))
        if entry.notes:
            details.append(f"notes: {entry.notes}")
        priced = entries.get(entry.key, {})
        cost = list_diff.format_cost(Cost(priced["cost"])) if "cost" in priced else "–"
        rows.append(
            UnitRow(
                entry.key, names[entry.key], _unit_name(book, entry.unit), priced.get("models"), cost, tuple(details)
            )
        )
    return rows


@dataclass(frozen=True)
class UnitBlock:
    """What stands on the table as one unit, as the builder shows it: one entry, or a combined
    pair, with the heroes joined to it; its models and cost summed once."""

    title: str
    models: int | None
    cost: str
    members: tuple[UnitRow, ...]
    heroes: tuple[UnitRow, ...]


def unit_blocks(army: ArmyList, rows: list[UnitRow], report: ValidationReport | None) -> list[UnitBlock]:
    """The rows grouped as they deploy: a pair once, a joined hero inside its unit."""
    row_of = {r.key: r for r in rows}
    keys = {e.key for e in army.units}
    groups: list[tuple[list[str], list[str]]] = []
    group_at: dict[str, int] = {}
    joined = [e for e in army.units if e.joined_to in keys and e.joined_to != e.key]
    for entry in army.units:
        if entry in joined:
            continue
        at = group_at.get(entry.combined_with or "")
        if at is not None and len(groups[at][0]) == 1:
            groups[at][0].append(entry.key)
        else:
            at = len(groups)
            groups.append(([entry.key], []))
        group_at[entry.key] = at
    for entry in joined:
        at = group_at.get(entry.joined_to)
        if at is None:
            group_at[entry.key] = len(groups)
            groups.append(([entry.key], []))
        else:
            groups[at][1].append(entry.key)
    priced = report.entries if report is not None else {}
    blocks = []
    for members, heroes in groups:
        everyone = members + heroes
        costs = [priced.get(k, {}).get("cost") for k in everyone]
        total: dict[str, int] = {}
        for cost in costs:
            for currency, value in (cost or {}).items():
                total[currency] = total.get(currency, 0) + value
        models = [row_of[k].models for k in everyone]
        # The block shows the pairing and the joining itself: those lines go from the members.
        drawn = (
            [
                replace(
                    row_of[k],
                    details=tuple(d for d in row_of[k].details if not d.startswith(("combined with ", "joined to "))),
                )
                for k in everyone
            ]
            if len(everyone) > 1
            else [row_of[k] for k in everyone]
        )
        first = row_of[members[0]]
        title = (
            ("2× " if len(members) > 1 else "")
            + first.name
            + (" with " + ", ".join(row_of[k].name for k in heroes) if heroes else "")
        )
        blocks.append(
            UnitBlock(
                title,
                None if None in models else sum(m for m in models if m is not None),
                list_diff.format_cost(Cost(total)) if None not in costs else "–",
                tuple(drawn[: len(members)]),
                tuple(drawn[len(members) :]),
            )
        )
    return blocks


def _unit_name(book: ArmyBook | None, unit_id: str) -> str:
    unit = book.unit(unit_id) if book is not None else None
    return unit.name if unit is not None else unit_id


def _upgrade_label(book: ArmyBook | None, section_id: str, option_id: str) -> str:
    section = book.sections.get(section_id) if book is not None else None
    option = next((o for o in section.options if o.id == option_id), None) if section is not None else None
    return option.label if option is not None else option_id


def _total(report: ValidationReport | None) -> str:
    if report is None:
        return ""
    return list_diff.format_cost(Cost.total(Cost(e["cost"]) for e in report.entries.values()))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
