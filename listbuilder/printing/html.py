"""Roster -> HTML through the Jinja templates in ``templates/roster/`` (no WeasyPrint here).

Kept apart from ``pdf.py`` so the web app and the HTML preview start without loading
WeasyPrint (about 0.4 s of imports); the PDF renderer imports this module, not the reverse.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING

from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup

from listbuilder.printing.assets import STATIC, TEMPLATES

if TYPE_CHECKING:
    from listbuilder.printing.rosters import Roster  # annotations only: the API's schemas import PAPERS at start-up

# Paper name -> page box size in PDF points (1/72 inch), for the API and the tests.
PAPERS: dict[str, tuple[float, float]] = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
# Layout name -> its template: the compact sheet (default) or unit cards to cut out.
LAYOUTS: dict[str, str] = {"sheet": "roster/roster.html", "cards": "roster/cards.html"}

_ENV = Environment(
    loader=FileSystemLoader(str(TEMPLATES)),
    autoescape=select_autoescape(["html"]),
    # fewer whitespace-only text nodes between tags: fewer boxes for WeasyPrint to lay out
    trim_blocks=True,
    lstrip_blocks=True,
)


def asset_file_url(relative: str) -> str:
    """A file of ours under static/ as a file:// URL, the only kind LocalFetcher serves."""
    return (STATIC / relative).as_uri()


def check_paper(paper: str) -> str:
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r}; known: {sorted(PAPERS)}")
    return paper


def check_layout(layout: str) -> str:
    if layout not in LAYOUTS:
        raise ValueError(f"unknown layout {layout!r}; known: {sorted(LAYOUTS)}")
    return layout


def render_html(
    roster: Roster,
    *,
    paper: str = "a4",
    layout: str = "sheet",
    share_url: str | None = None,
    asset_url: Callable[[str], str] | None = asset_file_url,
) -> str:
    """The roster as an HTML document; *asset_url* maps ``static/`` paths to links.

    By default the stylesheet is linked with a ``file:`` URL (served by :class:`LocalFetcher`);
    the web preview passes Flask's static URLs so a browser loads the same stylesheet; the PDF
    renderer passes None and applies its pre-parsed copy. A saved list's *share_url* prints as
    a QR code beside the heading.
    """
    template = _ENV.get_template(LAYOUTS[check_layout(layout)])
    qr_svg = share_qr_svg(share_url) if share_url else None
    return template.render(
        roster=roster, paper=check_paper(paper), layout=layout, asset=asset_url, share_url=share_url, qr_svg=qr_svg
    )


def share_qr_svg(url: str) -> Markup:
    """The share link as an inline SVG QR code, so a phone at the table opens the saved list.

    segno draws the modules as one path (no text of the URL inside the SVG, so nothing to
    escape); inline SVG needs nothing fetched, which the renderer's fetcher would refuse.
    """
    import segno  # only saved lists print a QR code

    out = io.BytesIO()
    segno.make(url, error="m").save(out, kind="svg", xmldecl=False, svgns=True, nl=False, border=2, omitsize=True)
    return Markup(out.getvalue().decode("ascii"))
