"""Roster -> HTML through the Jinja templates in ``templates/roster/`` (no WeasyPrint here).

Kept apart from ``pdf.py`` so the web app and the HTML preview start without loading
WeasyPrint (about 0.4 s of imports); the PDF renderer imports this module, not the reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, select_autoescape

from listbuilder.rosters import Roster

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"
STATIC = ROOT / "static"
# The only folders the renderer may read from.
ASSET_FOLDERS: tuple[Path, ...] = (TEMPLATES / "roster", STATIC / "roster", STATIC / "fonts")
# Paper name -> page box size in PDF points (1/72 inch), for the API and the tests.
PAPERS: dict[str, tuple[float, float]] = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}

_ENV = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(["html"]),
    # fewer whitespace-only text nodes between tags: fewer boxes for WeasyPrint to lay out
    trim_blocks=True,
    lstrip_blocks=True,
)


def _file_url(relative: str) -> str:
    return (STATIC / relative).as_uri()


def check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {sorted(PAPERS)}")
    return paper


def render_html(roster: Roster, *, paper: str = "a4", asset_url: Callable[[str], str] | None = _file_url) -> str:
    """The roster as an HTML document; *asset_url* maps ``static/`` paths to links.

    By default the stylesheet is linked with a ``file:`` URL (served by :class:`LocalFetcher`);
    the web preview passes Flask's static URLs so a browser loads the same stylesheet; the PDF
    renderer passes None and applies its pre-parsed copy.
    """
    return _ENV.get_template("roster/roster.html").render(roster=roster, paper=check_paper(paper), asset=asset_url)
