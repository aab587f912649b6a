"""Shared fixtures: the real army books (loaded once), the app and its test client."""

from __future__ import annotations

from pathlib import Path

import pytest

from listbuilder.books import BookRegistry, load_registry

ROOT = Path(__file__).resolve().parent.parent
BOOKS = ROOT / "army_books"
GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.fixture(scope="session")
def registry() -> BookRegistry:
    return load_registry(BOOKS)


@pytest.fixture(scope="session")
def app(registry, tmp_path_factory):
    from listbuilder.web import create_app

    database = tmp_path_factory.mktemp("db") / "app.sqlite3"
    return create_app({"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{database}"})


@pytest.fixture()
def client(app):
    return app.test_client()
