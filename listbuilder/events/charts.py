"""The statistics page's charts, drawn as SVG by pygal (a library made for charts).

Each chart is a file of its own, shown on the page as an image beside a table with the same
figures (the table is what a screen reader reads): an image keeps pygal's own styles inside the
SVG, away from the page's style policy, and runs no script (pygal's tooltip settings are taken
out).
The colours read on a light and a dark page alike. Names (army books, units) are text in the
SVG, escaped by pygal's XML writer.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pygal.style import Style

from listbuilder.compat.pygal import pygal  # pygal without its import finder

STYLE = Style(
    background="transparent",
    plot_background="transparent",
    foreground="#8a8a8a",
    foreground_strong="#8a8a8a",
    foreground_subtle="#8a8a8a55",
    colors=("#c0603a", "#3a7dc0", "#5a9e4b"),
    font_family="DejaVu Sans, sans-serif",
    label_font_size=15,
    major_label_font_size=15,
    value_font_size=15,
    title_font_size=17,
)
SCRIPT = re.compile(r"<script\b.*?</script>", re.DOTALL)  # pygal's tooltip settings: nothing runs in an image
TOP_UNITS = 15  # the units chart shows the most taken; the table and the CSV have them all


def _chart(title: str, rows: Sequence[tuple[str, float | None]], series: str = "win rate") -> str:
    """A bar per row, its share (0 to 1; None: no bar) shown as a percentage."""
    chart = pygal.HorizontalBar(
        js=[],
        disable_xml_declaration=True,
        style=STYLE,
        show_legend=False,
        range=(0, 100),
        y_labels=[0, 25, 50, 75, 100],
        title=title,
        height=130 + 40 * max(len(rows), 1),
        width=520,  # narrow, so that its words stay readable on a phone
        print_values=True,
        value_formatter=lambda v: f"{v:.0f}%",
    )
    drawn = list(reversed(rows))  # pygal draws the first bar at the bottom: the first row goes on top
    chart.x_labels = [label for label, _ in drawn]
    chart.add(series, [None if rate is None else round(100 * rate, 1) for _, rate in drawn])
    return SCRIPT.sub("", str(chart.render(is_unicode=True)))


def factions_chart(factions: Sequence[Mapping[str, Any]], names: Mapping[str, str]) -> str:
    """Each army book's win rate (*names*: book id -> its name)."""
    return _chart("Win rate by army book", [(names.get(f["book"], f["book"]), f["win_rate"]) for f in factions])


def units_chart(units: Sequence[Mapping[str, Any]], names: Mapping[tuple[str, str], str]) -> str:
    """The most taken units' win rates, with how many lists took each (*names*: (book, unit) -> its name)."""
    rows = [
        (f"{names.get((u['book'], u['unit']), u['unit'])} ({u['lists']})", u["win_rate"]) for u in units[:TOP_UNITS]
    ]
    return _chart("Win rate of the units most taken (lists taking them)", rows)


def categories_chart(categories: Sequence[Mapping[str, Any]]) -> str:
    """Each unit category's share of the points spent, in the currency most spent (OPR's pts;
    of armour-hex's budgets, the largest)."""
    totals: Counter[str] = Counter()
    for c in categories:
        totals.update(c["cost"])
    currency = max(totals, key=lambda k: (totals[k], k), default="pts")
    whole = totals[currency]
    rows = [
        (str(c["category"]).capitalize(), c["cost"].get(currency, 0) / whole if whole else None) for c in categories
    ]
    return _chart(f"Share of the points spent by unit category ({currency})", rows, "share")
