"""flask-smorest internals our API layer relies on (written against flask-smorest 0.47).

- :class:`LazySpecApi` builds the OpenAPI document the first time ``spec`` is read instead of
  in ``Api.init_app``. Documenting an operation resolves every schema it names into JSON
  Schema, a large part of start-up, and only ``/api/v1/openapi.json`` and the docs page need
  it. flask-smorest has no option for this, so the class overrides its private ``_init_spec``
  (which ``init_app`` calls to make the document), reads its ``_app`` and ``_converters``,
  calls ``_register_converter``, and registers a blueprint in its ``app.extensions`` entry
  and through ``Blueprint.register_views_in_doc`` itself, as ``Api.register_blueprint`` does.
- :func:`api_of` finds an app's Api in that same ``app.extensions["flask-smorest"]`` entry.
- :func:`copy_documentation` moves an operation's documentation (the ``_apidoc`` dict
  flask-smorest's decorators attach to a view function) onto another function, so a view can
  be served without the wrappers that only carried its documentation.
- :func:`add_responses` writes several responses into that dict at once, as a stack of
  ``Blueprint.alt_response`` decorators would; each of those wraps the view and deep-copies
  the whole dict again, which for every error status of every operation added up to a
  noticeable part of start-up.

``tests/compat/test_flask_smorest.py`` checks through ``init_app``, ``register_blueprint`` and
the served document that flask-smorest still calls and reads each of these.
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Callable, Sequence
from typing import Any

import flask_smorest
from apispec import APISpec
from flask import Flask
from flask_smorest.spec import openapi_cli


class LazySpecApi(flask_smorest.Api):
    """``flask_smorest.Api`` whose OpenAPI document (``spec``) is built on first use.

    Blueprints are routed at once but documented the first time ``spec`` is read, in the order
    they were registered, so the document is the one flask-smorest would have built.
    """

    def __init__(self, app: Flask | None = None, **kwargs: Any) -> None:
        self._spec: APISpec | None = None
        self._spec_options: dict[str, Any] | None = None  # set when init_app asks for the document
        self._to_document: list[Callable[[APISpec], object]] = []  # replayed on the new spec
        self._spec_ready = False
        self._spec_building = False
        self._spec_lock = threading.RLock()  # two threads asking at once build it once
        super().__init__(app, **kwargs)

    @property  # type: ignore[override]
    def spec(self) -> APISpec | None:
        if not self._spec_ready and self._spec_options is not None:
            with self._spec_lock:
                if not self._spec_ready and not self._spec_building:  # building: flask-smorest reads the new spec
                    self._build_spec()
        return self._spec

    @spec.setter
    def spec(self, value: APISpec | None) -> None:
        self._spec = value

    def _init_spec(self, **kwargs: Any) -> None:
        self._spec_options = kwargs
        self._app.cli.add_command(openapi_cli)  # `flask openapi print` builds it when run

    def _build_spec(self) -> None:
        self._spec_building = True
        try:
            super()._init_spec(**(self._spec_options or {}))
            for document in self._to_document:
                document(self._built())
            self._spec_ready = True
        finally:
            self._spec_building = False

    def _built(self) -> APISpec:
        assert self._spec is not None, "flask-smorest's _init_spec sets spec"
        return self._spec

    def register_blueprint(self, blp: flask_smorest.Blueprint, *, parameters: Any = None, **options: Any) -> None:
        """Route *blp* now; document it when the spec is built (flask-smorest does both at once)."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)

        def document(spec: APISpec) -> None:
            blp.register_views_in_doc(self, self._app, spec, name=name, parameters=parameters)
            # our blueprints name the areas of the API their routes belong to (web.http.rest.Blueprint)
            for tag, description in getattr(blp, "tags", {name: blp.description}).items():
                spec.tag({"name": tag, "description": description})

        self.document(document)

    def register_converter(self, converter: Any, func: Any) -> None:
        """Path parameters of *converter* documented by *func* (``_init_spec`` registers them)."""
        self._converters.append((converter, func))
        if self._spec_ready:
            self._register_converter(converter, func)

    def document(self, step: Callable[[APISpec], object]) -> None:
        """Run *step* on the document: now if it is built, else when it is."""
        if self._spec_ready:
            step(self._built())
        else:
            self._to_document.append(step)


def api_of(app: Flask) -> flask_smorest.Api:
    """The flask-smorest Api set up on *app* (without a config prefix)."""
    api: flask_smorest.Api = app.extensions["flask-smorest"]["apis"][""]["ext_obj"]
    return api


def copy_documentation(source: Callable[..., Any], target: Callable[..., Any]) -> None:
    """Give *target* the OpenAPI documentation flask-smorest's decorators gave *source*."""
    target._apidoc = source._apidoc  # type: ignore[attr-defined]


def add_responses(view: Callable[..., Any], responses: Sequence[tuple[int, Any, str]]) -> None:
    """Document each ``(status, schema, description)`` of *responses* on *view*, first to last,
    as ``alt_response(status, schema=schema, description=description)`` decorators applied in
    that order would (innermost first), without wrapping *view*. The documentation is copied
    once, so a dict shared with another function is not changed."""
    apidoc = copy.deepcopy(getattr(view, "_apidoc", {}))
    documented = apidoc.setdefault("response", {}).setdefault("responses", {})
    for status, schema, description in responses:
        documented.setdefault(status, []).append({"schema": schema, "description": description, "content_type": None})
    view._apidoc = apidoc  # type: ignore[attr-defined]
