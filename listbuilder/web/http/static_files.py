"""Static files under the release's version (``/static/<version>/js/builder.js``), kept a year.

A browser may keep a file without asking again only if its URL changes whenever its bytes do.
The version is the start of a digest of the whole ``static/`` tree, put in the path rather than
in each file's name: the modules import each other by relative names (``./util.js``), which then
resolve under the same version with no build step renaming anything. ``url_for('static', ...)``
adds it, so templates name files as before.

The unversioned ``/static/<file>`` keeps answering, checked again after five minutes: the
service worker and the offline page name their few files that way, and so does any page that
was open before this rule existed. A version that is not this process's (a page of an earlier
release still open) gets today's file with the same short lifetime, never ``immutable``: those
bytes are not the ones that version named.

The digest is computed on first use and once per process (``warm_up`` runs it before gunicorn
forks), never in ``create_app``, whose start-up is kept short. A file changed on disk after that
(edited while ``make run`` serves, or a release copied in under a running instance) is no longer
what the version names, so it too gets the short lifetime until the process starts again with a
new version. ``deploy/render.py`` writes the same version into nginx's site, which serves this
release's prefix from disk with the same headers.
"""

from __future__ import annotations

import functools
import os
import time
from pathlib import Path
from typing import NamedTuple

from flask import Flask, Response, current_app
from werkzeug.routing import BaseConverter
from werkzeug.security import safe_join

from listbuilder.util.digest import files_digest

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=300, must-revalidate"
VERSION_PATTERN = "[0-9a-f]{16}"


class Version(NamedTuple):
    """A static tree's version, and when its files were read (a file changed later is not in it)."""

    digest: str
    read_at: float


@functools.cache
def _version(folder: str) -> Version:
    read_at = time.time()
    root = Path(folder)
    return Version(files_digest((root,), root)[:16], read_at)


def static_version(folder: str) -> str:
    """The version of the files under *folder*: 16 hex digits of their digest (paths and bytes),
    read once per process."""
    return _version(folder).digest


def current_version(app: Flask) -> str:
    """The version *app*'s static URLs carry (computed on the first call)."""
    return static_version(str(app.static_folder))


def _unchanged_since_read(folder: str, filename: str) -> bool:
    path = safe_join(folder, filename)
    return path is not None and os.stat(path).st_mtime <= _version(folder).read_at


class VersionConverter(BaseConverter):
    """A version segment: exactly 16 lower-case hex digits, so no folder of static/ is taken for one."""

    regex = VERSION_PATTERN


def static_file(filename: str, version: str | None = None) -> Response:
    """A file of static/: a year and ``immutable`` under the current version, else five minutes."""
    response = current_app.send_static_file(filename)
    folder = str(current_app.static_folder)
    current = version == static_version(folder) and _unchanged_since_read(folder, filename)
    response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
    return response


def _add_version(endpoint: str, values: dict[str, object]) -> None:
    if endpoint == "static" and "version" not in values:
        values["version"] = current_version(current_app)


def init_app(app: Flask) -> None:
    """Serve static/ under ``/static/<version>/`` beside ``/static/``, one view for both, and make
    ``url_for('static', filename=...)`` name the versioned URL."""
    app.url_map.converters["static_version"] = VersionConverter
    app.view_functions["static"] = static_file  # the rule Flask made for /static/<path:filename>
    app.add_url_rule(
        f"{app.static_url_path}/<static_version:version>/<path:filename>", endpoint="static", view_func=static_file
    )
    app.url_defaults(_add_version)
