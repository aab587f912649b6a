"""flask-smorest set up our way: strict JSON bodies, our error schema, each operation's codes,
and an OpenAPI document built when first asked for.

Every API blueprint is a :class:`Blueprint` (not ``flask_smorest.Blueprint``) so that bodies go
through :class:`~listbuilder.web.bodies.JsonBodyParser`, arguments are read without webargs'
per-request layers (:meth:`Blueprint.arguments`) and an operation documents the errors it
really answers with ``@blp.errors(404, 422)`` instead of a catch-all ``default`` response.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import flask
import flask_smorest
from apispec import APISpec, BasePlugin
from apispec.ext.marshmallow.common import resolve_schema_cls
from flask import Flask
from flask_smorest.spec import openapi_cli
from marshmallow import Schema, ValidationError
from webargs import core
from webargs.flaskparser import is_json_request

from listbuilder.shapes.api import ErrorOut
from listbuilder.web.bodies import JsonBodyParser, may_hold_nul

View = TypeVar("View", bound=Callable[..., Any])

# What each error status means for an operation of this API.
ERROR_DESCRIPTIONS = {
    400: "The body is not JSON (errors name the line and column).",
    404: "An id in the path or the body names nothing we have (system, book, unit, list key).",
    413: "The body is over 1 MiB, or the work it asks for is over a budget no legal list reaches.",
    415: "The body was not sent as application/json.",
    422: "The body or query has invalid fields (errors name each one).",
}


# One instance documents every error answer: given the class, flask-smorest built one per
# status and operation (about 120), a tenth of the API modules' import.
ERROR_OUT = ErrorOut()


class OneOfPlugin(BasePlugin):
    """Documents a schema with a ``ONE_OF`` table (kind -> required, optional fields) as a
    JSON-schema ``oneOf`` of closed objects, which marshmallow cannot say by itself."""

    def schema_helper(self, name: str, definition: dict[str, Any], **kwargs: Any) -> dict[str, Any] | None:
        one_of = getattr(resolve_schema_cls(kwargs.get("schema")), "ONE_OF", None)
        if not one_of or "properties" not in definition:
            return None
        properties = definition.pop("properties")
        definition.pop("additionalProperties", None)
        definition["oneOf"] = [
            {"type": "object", "title": kind, "properties": {n: properties[n] for n in (*needs, *optional)}, "required": list(needs), "additionalProperties": False}
            for kind, (needs, optional) in one_of.items()
        ]
        return None


class Api(flask_smorest.Api):
    """No catch-all ``default`` response; errors documented with :class:`ErrorOut`; the
    OpenAPI document (``spec``) built on first use.

    Documenting an operation resolves every schema it names into JSON Schema, which took
    about a tenth of ``create_app`` and is needed only by ``/api/v1/openapi.json`` (and the
    docs page that reads it). So blueprints are routed at once but documented the first time
    ``spec`` is read, in the order they were registered: the document is the same.
    ``wsgi.warm_up`` reads it before gunicorn forks, so served workers never pay for it.
    """

    ERROR_SCHEMA = ErrorOut
    DEFAULT_ERROR_RESPONSE_NAME = None

    def __init__(self, app: Flask | None = None, **kwargs: Any) -> None:
        self._spec: APISpec | None = None
        self._spec_options: dict[str, Any] = {}
        self._to_document: list[Callable[[APISpec], object]] = []  # replayed on the new spec
        self._spec_ready = False
        self._spec_building = False
        self._spec_lock = threading.RLock()  # two threads asking at once build it once
        super().__init__(app, **kwargs)

    @property  # type: ignore[override]
    def spec(self) -> APISpec | None:
        if not self._spec_ready and self._spec_options:
            with self._spec_lock:
                if not self._spec_ready and not self._spec_building:  # building: flask-smorest reads the new spec
                    self._build_spec()
        return self._spec

    @spec.setter
    def spec(self, value: APISpec | None) -> None:
        self._spec = value

    def _init_spec(self, **kwargs: Any) -> None:
        kwargs["extra_plugins"] = [*(kwargs.get("extra_plugins") or ()), OneOfPlugin()]
        self._spec_options = kwargs
        self._app.cli.add_command(openapi_cli)  # `flask openapi print` builds it when run

    def _build_spec(self) -> None:
        self._spec_building = True
        try:
            super()._init_spec(**self._spec_options)
            for document in self._to_document:
                document(self._spec)  # type: ignore[arg-type]
            self._spec_ready = True
        finally:
            self._spec_building = False

    def register_blueprint(self, blp: flask_smorest.Blueprint, *, parameters: Any = None, **options: Any) -> None:
        """Route *blp* now; document it when the spec is built (flask-smorest does both at once)."""
        name = options.get("name", blp.name)
        self._app.extensions["flask-smorest"]["blp_name_to_api"][name] = self
        self._app.register_blueprint(blp, **options)

        def document(spec: APISpec) -> None:
            blp.register_views_in_doc(self, self._app, spec, name=name, parameters=parameters)
            spec.tag({"name": name, "description": blp.description})

        self._document(document)

    def register_converter(self, converter: Any, func: Any) -> None:
        """Path parameters of *converter* documented by *func* (``_init_spec`` registers them)."""
        self._converters.append((converter, func))
        if self._spec_ready:
            self._register_converter(converter, func)

    def security_scheme(self, name: str, definition: dict[str, Any]) -> None:
        """An OpenAPI security scheme (``components.securitySchemes``)."""
        self._document(lambda spec: spec.components.security_scheme(name, definition))

    def _document(self, step: Callable[[APISpec], object]) -> None:
        if self._spec_ready:
            step(self._spec)  # type: ignore[arg-type]
        else:
            self._to_document.append(step)


def _empty_query(schema: Schema, load_options: dict[str, Any]) -> dict[str, Any] | None:
    """What *schema* loads from an empty query string, when that is the same on every request:
    a dict of plain values (defaults such as ``profiles=False``). Most requests send no query,
    and reading one (webargs' proxy, a marshmallow load) cost a tenth of a list validation.
    None when the empty query is an error (a required argument) or loads anything else:
    then every request reads its query."""
    try:
        value = schema.load({}, **load_options)
    except ValidationError:
        return None
    plain = type(value) is dict and all(v is None or type(v) in (bool, int, float, str) for v in value.values())
    return value if plain else None


def built_spec(app: Flask) -> APISpec:
    """The app's OpenAPI document, built now if nothing asked for it yet."""
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"].spec


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with our body parser and :meth:`errors`."""

    ARGUMENTS_PARSER = JsonBodyParser()

    # Options of flask-smorest's ``arguments`` that only document; webargs' own are not taken.
    _DOCUMENTING = frozenset({"content_type", "required", "description", "example", "examples", "error_status_code"})

    def arguments(self, schema: type[Schema] | Schema, *, location: str = "json", **options: Any) -> Callable[[View], View]:
        """flask-smorest's ``arguments`` for the documentation, with the request read here.

        webargs wraps a view in three layers per argument and builds a schema class anew for
        every request; on a validation they cost about as much as reading the list. This reads
        the same data with the same parser's loader (JsonBodyParser for bodies, webargs' for
        the query string), loads it with one schema instance, and reports a failure through
        the parser's error handler, so answers and errors are the ones webargs gave. A body
        schema with ``fast_json`` (listbuilder.formats.lists.FastSchema) reads the body's bytes
        first; what it leaves (None) takes the parser and the schema.
        """
        unsupported = set(options) - self._DOCUMENTING
        if unsupported:
            raise TypeError(f"arguments() does not take {sorted(unsupported)}")
        document = super().arguments(schema, location=location, **options)
        parser = self.ARGUMENTS_PARSER
        instance = schema() if isinstance(schema, type) else schema
        read = getattr(parser, parser.__location_map__[location])
        unknown = parser.DEFAULT_UNKNOWN_BY_LOCATION.get(location)
        load_options = {"unknown": unknown} if unknown else {}
        status = options.get("error_status_code")
        empty: list[dict[str, Any] | None] = []  # what an empty query string loads, once known (see _empty_query)
        fast_json = getattr(instance, "fast_json", None) if location == "json" else None

        def decorate(view: View) -> View:
            @functools.wraps(view)
            def with_arguments(*args: Any, **kwargs: Any) -> Any:
                request = flask.request
                if location == "query" and not request.query_string:
                    if not empty:
                        empty.append(_empty_query(instance, load_options))
                    if empty[0] is not None:
                        return view(*args, dict(empty[0]), **kwargs)
                if fast_json is not None and is_json_request(request):
                    body = request.get_data(cache=True)
                    made = None if may_hold_nul(body) else fast_json(body)  # NUL: load_json_body names the field
                    if made is not None:
                        return view(*args, made, **kwargs)
                try:
                    data = read(request, instance)
                    value = instance.load({} if data is core.missing else data, **load_options)
                except ValidationError as error:
                    error.messages = {location: error.messages}  # webargs' shape: {"json": {...}}
                    parser.handle_error(error, request, instance, error_status_code=status, error_headers=None)
                    raise  # handle_error raises; never reached
                return view(*args, value, **kwargs)

            with_arguments._apidoc = document(view)._apidoc  # type: ignore[attr-defined]
            return with_arguments  # type: ignore[return-value]

        return decorate

    def errors(self, *codes: int, descriptions: Mapping[int, str] | None = None) -> Callable[[View], View]:
        """Document the error statuses an operation answers, each with the error shape
        (and :data:`ERROR_DESCRIPTIONS`' words unless *descriptions* has the operation's own)."""
        words = {**ERROR_DESCRIPTIONS, **(descriptions or {})}

        def decorate(view: View) -> View:
            # alt_response wraps the view once per status only to carry the documentation;
            # keep the documentation and serve the view itself (no wrapper per request).
            documented = view
            for code in reversed(codes):
                documented = self.alt_response(code, schema=ERROR_OUT, description=words[code])(documented)
            view._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return view

        return decorate
