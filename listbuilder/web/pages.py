"""Pages for people (the list builder UI grows here)."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template

from listbuilder.web.api import registry

bp = Blueprint("pages", __name__)


@bp.route("/")
def home() -> str:
    return render_template("home.html", systems=list(registry().systems.values()), registry=registry())


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
