"""Start-up (issue 11): create_app routes every API operation at once but leaves building the
OpenAPI document to its first reader, and schemas are never deep-copied."""

from __future__ import annotations

import copy
import gc
import re

from listbuilder.formats.fields import Schema
from listbuilder.web import create_app, warm_up
from listbuilder.web.http.rest import built_spec


def new_app(registry, tmp_path):
    return create_app(
        {"TESTING": True, "REGISTRY": registry, "DATABASE_URL": f"sqlite:///{tmp_path / 'startup.sqlite3'}"}
    )


def rest_api(app):
    from listbuilder.compat.flask_smorest import api_of

    return api_of(app)


def openapi_path(rule: str) -> str:
    return re.sub(r"<(?:[a-z_]+:)?([a-z_]+)>", r"{\1}", rule)


def test_create_app_routes_everything_but_builds_no_openapi_document(registry, tmp_path):
    app = new_app(registry, tmp_path)
    assert rest_api(app)._spec is None
    assert app.test_client().get("/api/v1/systems").status_code == 200  # operations answer at once
    assert rest_api(app)._spec is None


def test_first_request_for_the_document_builds_it_with_every_operation(registry, tmp_path):
    app = new_app(registry, tmp_path)
    spec = app.test_client().get("/api/v1/openapi.json").get_json()
    operations = {
        openapi_path(rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.endpoint.split(".")[0] in {"api", "rosters", "previews", "saved_lists", "imports", "events"}
    }
    assert operations and operations <= set(spec["paths"])
    assert set(spec["components"]["securitySchemes"]) == {"editToken", "organiserToken", "playerToken"}
    assert [tag["name"] for tag in spec["tags"]] == [
        "service",
        "systems",
        "books",
        "validation",
        "rosters",
        "previews",
        "saved lists",
        "imports",
        "events",
        "tournament day",
        "event day",
    ]


def test_the_document_is_built_once(registry, tmp_path):
    app = new_app(registry, tmp_path)
    first = built_spec(app)
    assert built_spec(app) is first
    assert app.test_client().get("/api/v1/openapi.json").get_json() == first.to_dict()


def test_warm_up_builds_the_document_before_workers_fork(registry, tmp_path):
    app = warm_up(new_app(registry, tmp_path))
    try:
        assert rest_api(app)._spec is not None and rest_api(app)._spec.to_dict()["paths"]
    finally:
        app.extensions["listbuilder.database"].dispose()
        gc.unfreeze()  # warm_up froze this test process's objects, as gunicorn's master's


def test_warm_up_freezes_what_the_workers_inherit_out_of_the_collectors_walks(tmp_path):
    """A full collection in a worker then walks only the worker's own objects, instead of the
    master's 140,000, each of whose pages it would have copied."""
    import subprocess
    import sys

    code = (
        "import gc, sys; from listbuilder.web import create_app, warm_up; app = create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]}); "
        "print(gc.get_freeze_count()); warm_up(app); print(gc.get_freeze_count() > 100_000, len(gc.get_objects(2)) < 1000)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "startup.sqlite3")], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["0", "True", "True"]


def test_every_schema_of_ours_is_its_own_deep_copy(app):
    from marshmallow import class_registry

    ours = {
        cls
        for classes in class_registry._registry.values()
        for cls in classes
        if cls.__module__.startswith("listbuilder")
    }
    assert len(ours) > 50
    assert all(issubclass(cls, Schema) for cls in ours), sorted(
        c.__qualname__ for c in ours if not issubclass(c, Schema)
    )
    error_out = next(cls for cls in ours if cls.__name__ == "ErrorOut")()
    assert copy.deepcopy({"schema": error_out})["schema"] is error_out


def test_urls_built_by_lazily_compiled_builders_equal_werkzeugs(app):
    """Every rule's URL, with and without extra query arguments, as werkzeug's own Rule builds it."""
    from werkzeug.routing import Map, Rule

    from listbuilder.compat.werkzeug import LazyBuilderRule

    rules = list(app.url_map.iter_rules())
    assert all(isinstance(rule, LazyBuilderRule) for rule in rules if rule.endpoint != "static")
    plain = Map(
        [Rule(r.rule, endpoint=r.endpoint, methods=r.methods, defaults=r.defaults) for r in rules],
        converters=app.url_map.converters,
    )
    ours, theirs = app.url_map.bind("localhost"), plain.bind("localhost")
    for rule in rules:
        values = {name: 7 if f"<int:{name}>" in rule.rule else "AbCdEfGh12345678" for name in rule.arguments}
        for extra in ({}, {"paper": "a4", "n": 2}):
            for append_unknown in (True, False):
                built = (
                    adapter.build(rule.endpoint, {**values, **extra}, append_unknown=append_unknown)
                    for adapter in (ours, theirs)
                )
                assert next(built) == next(built), rule.rule


def test_books_from_the_cache_start_the_app_without_creating_the_book_schemas(tmp_path):
    """The book schemas (a tenth of our start-up) are needed only to read a book's text."""
    import os
    import subprocess
    import sys

    code = (
        "import sys; from listbuilder.web import create_app; create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]}); "
        "print(sorted(m for m in sys.modules if m.startswith('listbuilder.formats.') and m.endswith(('books', 'opr', '_hex'))))"
    )
    env = {**os.environ, "LISTBUILDER_CACHE": str(tmp_path / "cache")}
    run = [sys.executable, "-c", code, str(tmp_path / "startup.sqlite3")]
    first = subprocess.run(run, capture_output=True, text=True, check=True, env=env).stdout
    again = subprocess.run(run, capture_output=True, text=True, check=True, env=env).stdout
    assert "listbuilder.formats.opr" in first  # the books were read from their files
    assert again.strip() == "[]"


def test_saved_lists_events_importers_the_fast_list_reader_and_the_limiter_load_on_their_first_request(tmp_path):
    """Their core modules are lazy (``listbuilder.util.lazy``): start-up does not run them (nor
    import msgspec, nor Flask-Limiter and asyncio: ``web.http.quotas``); the warm-up before the
    workers fork does."""
    import subprocess
    import sys

    modules = [
        "listbuilder.lists.saved",
        "listbuilder.events.submissions",
        "listbuilder.lists.diff",
        "listbuilder.importers.army_forge_book",
        "listbuilder.importers.army_forge_list",
        "listbuilder.formats.fast_reader",
        "msgspec",
        "flask_limiter",
        "asyncio",
    ]
    code = (
        "import sys, types; from listbuilder.web import create_app, warm_up; app = create_app({'DATABASE_URL': 'sqlite:///' + sys.argv[1]}); "
        f"loaded = lambda: [m for m in {modules!r} if type(sys.modules.get(m)) is types.ModuleType]; "
        "print(len(loaded())); warm_up(app); print(len(loaded()))"  # gunicorn's master warms up before it forks
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "startup.sqlite3")], capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["0", str(len(modules))]
