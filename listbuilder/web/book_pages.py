"""``/books/<id>``: an army book to read without building a list (every unit, its upgrades and
the rules in full, searchable and printable), rendered from the same data the API answers."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Flask, render_template

from listbuilder.books.editions import edition_note
from listbuilder.shapes.api import BookOut, SystemDetailOut
from listbuilder.util.lazy import lazy_module
from listbuilder.web.context import BookAnswer, registry

book_profiles = lazy_module("listbuilder.printing.book_profiles")

bp = Blueprint("book_pages", __name__)


@bp.route("/books/<book_id>")
def book_page(book_id: str) -> Any:
    reg = registry()
    found = reg.books.get(book_id)
    if found is None:
        return render_template("not_found.html", message=f"There is no army book called “{book_id}”."), 404
    system = reg.systems[found.system]
    book = BookOut().dump(BookAnswer(found, edition_note(found, system)))
    glossary = SystemDetailOut().dump(system)["glossary"]
    sections = {s["id"]: s for s in book["upgrades"]}
    return render_template(
        "book.html",
        book=book,
        system=system,
        sections=sections,
        rules=rules_used(book, glossary),
        cost=cost_text,
        # each unit's stat line and tables as the roster prints them (a hex family's speeds,
        # facings and damage tables in words, not the book file's raw values)
        profiles=book_profiles.book_profiles(reg, found),
    )


def cost_text(cost: dict[str, int] | None) -> str:
    """{"pts": 65} -> "65 pts"; an empty cost is "free"."""
    parts = [f"{value} {currency}" for currency, value in (cost or {}).items() if value]
    return ", ".join(parts) or "free"


def _rule_name(text: str) -> str:
    return re.sub(r"\s*\(.*\)$", "", text).strip()


def rules_used(book: dict[str, Any], glossary: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The book's own rules and the system's rules its units, weapons and options name, by name."""
    named: set[str] = set()
    for unit in book["units"]:
        named.update(_rule_name(r) for r in unit["rules"])
        for weapon in unit["weapons"]:
            named.update(_rule_name(r) for r in weapon["rules"])
    for section in book["upgrades"]:
        for option in section["options"]:
            gains = option.get("gains") or {}
            named.update(_rule_name(r) for r in gains.get("rules", []))
            for item in gains.get("items", []):
                named.update(_rule_name(r) for r in item["rules"])
            for weapon in gains.get("weapons", []):
                named.update(_rule_name(r) for r in weapon["rules"])
    own = {r["name"]: r for r in book["rules"]}
    core = {r["name"]: r for r in glossary if r["name"] in named and r["name"] not in own}
    return sorted([*own.values(), *core.values()], key=lambda r: r["name"].lower())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
