"""Interactive API docs served offline: Swagger UI's files come from the flask-swagger-ui wheel.

Clubs have no internet; flask-smorest's Swagger page would load its scripts from a CDN and
start them with an inline script, which our Content-Security-Policy forbids. So the page is
ours (``templates/api_docs.html``), the Swagger UI files are served from our own route, and
``static/js/api-docs.js`` starts Swagger UI on the OpenAPI document.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from flask import Blueprint, Flask, Response, render_template, send_from_directory, url_for

SWAGGER_ASSETS_URL = "/api/v1/docs-assets/"
# The wheel's files only: its module (a Flask blueprint we do not use) is never imported.
_FOUND = find_spec("flask_swagger_ui")
assert _FOUND is not None and _FOUND.origin is not None, "flask-swagger-ui is a declared dependency"
_DIST = Path(_FOUND.origin).resolve().parent / "dist"

bp = Blueprint("docs_assets", __name__)


@bp.route(f"{SWAGGER_ASSETS_URL}<path:filename>")
def asset(filename: str) -> Response:
    return send_from_directory(_DIST, filename, max_age=86400)


@bp.route("/api/v1/docs")
def page() -> str:
    return render_template("api_docs.html", assets=SWAGGER_ASSETS_URL, spec_url=url_for("api-docs.openapi_json"))


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
