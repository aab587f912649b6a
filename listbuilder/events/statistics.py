"""The event's results joined to its lists: how each army book and each unit taken fared.

Read from the locked lists (each ranked player's entry) and the games that count (byes left
out: a bye is no game against a book). For a faction (army book): its players, and the wins,
draws and losses of their games; for a unit: how many lists took it and how their players
fared. A win rate is (wins + draws / 2) / games, so a draw is half a win and a field's rates
average one half; null with no game played. A game between two players of one book counts
for that book twice (a win and a loss). ``categories``: points spent per unit category, per
currency, over every list; the categories are each family's own (``unit_categories``: OPR's
heroes, big models and units; the hex families' unit classes and types).

The organiser opens the statistics to everyone (a ``statistics`` row of the log); until then
only they read them.
"""

from __future__ import annotations

import csv
import io
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from listbuilder.books.registry import BookRegistry
from listbuilder.events.organiser import organiser_only
from listbuilder.events.rounds import games, ranked_players
from listbuilder.events.submissions import read_submitted
from listbuilder.events.unit_categories import category
from listbuilder.store.database import Database
from listbuilder.store.rounds import AddLog, Change, Day, Plan

OUTCOMES = ("win", "draw", "loss")
PLURAL = {"win": "wins", "draw": "draws", "loss": "losses"}


def is_public(day: Day) -> bool:
    found = False
    for entry in day.log:
        if entry.kind == "statistics":
            found = bool(entry.data["public"])
    return found


def plan_publish(public: bool) -> Plan:
    """Open the statistics to everyone, or close them again (the organiser only)."""

    def plan(day: Day) -> Sequence[Change]:
        organiser_only(day, "open or close the statistics")
        return [] if is_public(day) == public else [AddLog("statistics", {"public": public})]

    return plan


def win_rate(tally: Mapping[str, int]) -> float | None:
    played = sum(tally[o] for o in OUTCOMES)
    return round((tally["win"] + tally["draw"] / 2) / played, 3) if played else None


def statistics(
    day: Day,
    scoring: str,
    units: Mapping[str, Sequence[tuple[str, Mapping[str, float]]]],
    categories: Mapping[tuple[str, str], str],
) -> dict[str, Any]:
    """*units*: each ranked player's list as (unit id, cost) per entry, by the name shown;
    *categories*: (book, unit id) -> its category (else "other")."""
    book = {p.name: day.book_of(p.submission) for p in ranked_players(day)}
    tallies: dict[str, Counter[str]] = defaultdict(Counter)
    for game in games(day, scoring):
        if game.players[1] is None:
            continue
        for name in game.players:
            tallies[str(name)][game.scores[str(name)].outcome] += 1
    factions: dict[str, Counter[str]] = defaultdict(Counter)
    players: Counter[str] = Counter()
    for name, its_book in book.items():
        players[its_book] += 1
        factions[its_book].update(tallies[name])
    taken: dict[tuple[str, str], set[str]] = defaultdict(set)
    spent: dict[str, Counter[str]] = defaultdict(Counter)
    for name, entries in units.items():
        for unit, cost in entries:
            taken[book[name], unit].add(name)
            spent[categories.get((book[name], unit), "other")].update(cost)
    unit_rows = []
    for (its_book, unit), names in taken.items():
        tally: Counter[str] = Counter()
        for name in names:
            tally.update(tallies[name])
        unit_rows.append({"book": its_book, "unit": unit, "lists": len(names), "win_rate": win_rate(tally)})
    unit_rows.sort(key=lambda r: (-r["lists"], r["book"], r["unit"]))
    return {
        "factions": sorted(
            (
                {
                    "book": b,
                    "players": players[b],
                    **{PLURAL[o]: factions[b][o] for o in OUTCOMES},
                    "win_rate": win_rate(factions[b]),
                }
                for b in players
            ),
            key=lambda r: (-r["players"], r["book"]),
        ),
        "units": unit_rows,
        "categories": [
            {"category": c, "cost": {k: round(v, 3) for k, v in sorted(cost.items())}}
            for c, cost in sorted(spent.items(), key=lambda i: (-sum(i[1].values()), i[0]))
        ],
    }


def event_statistics(db: Database, registry: BookRegistry, day: Day, scoring: str) -> dict[str, Any]:
    """The statistics of *day*, its locked lists read from *db* (*registry*: the systems and army
    books served; a unit's category is its family's, ``events/unit_categories``)."""
    books = registry.books
    system = registry.systems.get(day.event.system_id)
    family = system.family if system is not None else ""
    ranked = ranked_players(day)
    versions = read_submitted(db, [p.submission for p in ranked])
    units: dict[str, list[tuple[str, Mapping[str, float]]]] = {}
    categories: dict[tuple[str, str], str] = {}
    for p in ranked:
        costs = p.submission.report.get("entries", {})
        document = versions[p.submission.list_id, p.submission.list_version].document
        units[p.name] = [(u["unit"], costs.get(u["key"], {}).get("cost", {})) for u in document["units"]]
        book = books.get(day.book_of(p.submission))
        for unit in book.units if book is not None else ():
            categories[book.id, unit.id] = category(family, unit)
    return {"public": is_public(day), **statistics(day, scoring, units, categories)}


def statistics_csv(body: Mapping[str, Any]) -> str:
    """The statistics as one CSV: a faction row per book, then a unit row per unit taken."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["kind", "book", "unit", "players_or_lists", "wins", "draws", "losses", "win_rate"])
    for f in body["factions"]:
        writer.writerow(["faction", f["book"], "", f["players"], f["wins"], f["draws"], f["losses"], _rate(f)])
    for u in body["units"]:
        writer.writerow(["unit", u["book"], u["unit"], u["lists"], "", "", "", _rate(u)])
    return out.getvalue()


def _rate(row: Mapping[str, Any]) -> str:
    return "" if row["win_rate"] is None else f"{row['win_rate']:.3f}"
