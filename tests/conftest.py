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
def app(registry):
    from listbuilder.web import create_app

    return create_app({"TESTING": True, "REGISTRY": registry})


@pytest.fixture()
def client(app):
    return app.test_client()
