"""Printed sheets of the tournament day (HTML -> PDF): a round's pairings (with each player's
score and army book), the same round by player name ("find your table"), a result slip per
table (with both lists' verification codes), and the standings; the standings as CSV.

Forty tables (or standings rows, or names) to a page, so a sheet pinned on a wall at a venue is
read from a step away, on A4 or Letter; four slips to a page, to cut and hand to the tables. The same safe renderer as the rosters: Jinja escapes every
name, and WeasyPrint loads nothing but our own stylesheet and fonts (``pdf.LocalFetcher``).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from jinja2 import Environment, FileSystemLoader, select_autoescape
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration

from listbuilder.printing.assets import STATIC, TEMPLATES
from listbuilder.printing.html import asset_file_url, check_paper
from listbuilder.printing.pdf import LocalFetcher

PER_PAGE = 40
PAGE_SIZES = {"a4": "A4", "letter": "letter"}

_ENV = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(["html"]),
    trim_blocks=True,
    lstrip_blocks=True,
)


def pages(rows: Sequence[Any], per_page: int = PER_PAGE) -> list[Sequence[Any]]:
    """*rows* cut into pages of *per_page* (one empty page for no rows)."""
    return [rows[i : i + per_page] for i in range(0, len(rows), per_page)] or [rows]


def pairings_pdf(
    event_name: str,
    round_body: Mapping[str, Any],
    *,
    paper: str = "a4",
    seats: Mapping[str, Mapping[str, Any]] | None = None,
) -> bytes:
    """A round's tables: table number, both players (or "bye"), each with their score and army
    book from *seats* (player -> their standings row) when given."""
    return _render(
        "pairings",
        paper,
        event=event_name,
        title=f"Round {round_body['number']} pairings",
        pages=pages(round_body["pairings"]),
        seats=seats or {},
    )


def find_your_table_pdf(
    event_name: str, round_body: Mapping[str, Any], seats: Mapping[str, Mapping[str, Any]], *, paper: str = "a4"
) -> bytes:
    """Every player of the round in alphabetical order, with their table and opponent (*seats*
    is taken as by :func:`slips_pdf`, so one view serves both sheets; the names need none of it)."""
    found = []
    for t in round_body["pairings"]:
        a, b = t["players"]
        at = {"table": t["table"], "table_name": t.get("table_name")}
        found.append({"player": a, **at, "opponent": b})
        if b is not None:
            found.append({"player": b, **at, "opponent": a})
    found.sort(key=lambda row: str(row["player"]).casefold())
    return _render(
        "find", paper, event=event_name, title=f"Round {round_body['number']}: find your table", pages=pages(found)
    )


SLIPS_PER_PAGE = 4


def slips_pdf(
    event_name: str,
    round_body: Mapping[str, Any],
    seats: Mapping[str, Mapping[str, Any]],
    *,
    paper: str = "a4",
) -> bytes:
    """A result slip per table with a game (byes have none): both players, their army books and
    their lists' verification codes (*seats*: player -> faction, verification_code), and boxes
    for the result and both signatures."""
    games = [t for t in round_body["pairings"] if t["players"][1] is not None]
    return _render(
        "slips",
        paper,
        event=event_name,
        title=f"Round {round_body['number']} result slips",
        round=round_body["number"],
        pages=pages(games, SLIPS_PER_PAGE),
        seats=seats,
    )


def standings_pdf(body: Mapping[str, Any], *, paper: str = "a4") -> bytes:
    """The standings: rank, player, faction, record, score and the tiebreakers in order."""
    title = f"Standings after round {body['rounds']}" if body["rounds"] else "Standings"
    return _render(
        "standings",
        paper,
        event=body["event"]["name"],
        title=title,
        pages=pages(body["standings"]),
        tiebreakers=body["tiebreakers"],
    )


def _render(kind: str, paper: str, **values: Any) -> bytes:
    check_paper(paper)
    html = _ENV.get_template("roster/sheets.html").render(
        kind=kind, stylesheet=asset_file_url("roster/sheets.css"), **values
    )
    fetcher = LocalFetcher()
    page = CSS(string=f"@page {{ size: {PAGE_SIZES[paper]}; }}")
    return HTML(string=html, base_url=STATIC.as_uri() + "/", url_fetcher=fetcher).write_pdf(
        stylesheets=[page], font_config=FontConfiguration()
    )


CSV_COLUMNS = ("rank", "player", "faction", "score", "played", "wins", "draws", "losses", "byes", "withdrawn")


def standings_csv(body: Mapping[str, Any]) -> str:
    """The standings as CSV, the tiebreakers as the last columns; text cells starting with
    = + - @ get a leading ' so no spreadsheet runs them (numbers stay numbers: a negative
    ``secondary_difference`` is -9, not '-9)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([*CSV_COLUMNS, *body["tiebreakers"]])
    for row in body["standings"]:
        cells = [row[c] for c in CSV_COLUMNS] + [row["tiebreakers"].get(t, "") for t in body["tiebreakers"]]
        writer.writerow([_cell(c) for c in cells])
    return out.getvalue()


def _cell(value: Any) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    text = "yes" if value is True else "no" if value is False else str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
