"""Interactive API docs served offline: Swagger UI's files come from the flask-swagger-ui wheel.

Clubs have no internet; flask-smorest's Swagger page would load its scripts from a CDN, so we
serve the same files from our own route instead.
"""

from __future__ import annotations

from pathlib import Path

import flask_swagger_ui
from flask import Blueprint, Flask, send_from_directory

SWAGGER_ASSETS_URL = "/api/v1/docs-assets/"
_DIST = Path(flask_swagger_ui.__file__).resolve().parent / "dist"

bp = Blueprint("docs_assets", __name__)


@bp.route(f"{SWAGGER_ASSETS_URL}<path:filename>")
def asset(filename: str):  # type: ignore[no-untyped-def]
    return send_from_directory(_DIST, filename, max_age=86400)


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
