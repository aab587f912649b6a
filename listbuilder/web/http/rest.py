"""flask-smorest set up our way: strict JSON bodies, our error schema, each operation's codes,
and an OpenAPI document built when first asked for.

Every API blueprint is a :class:`Blueprint` (not ``flask_smorest.Blueprint``) so that bodies go
through :class:`~listbuilder.web.http.bodies.JsonBodyParser`, arguments are read without webargs'
per-request layers (:meth:`Blueprint.arguments`), an operation documents the errors it
really answers with ``@blp.errors(404, 422)`` (and every operation has ``default: ErrorOut``
beside them, for what a proxy or gunicorn may answer), and every route is tagged with its area
of the API. What the document says beyond one schema per payload (operationIds, unions, one
request shape per rules family) is in :mod:`listbuilder.web.http.openapi`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import flask
import flask_smorest
from apispec import APISpec
from flask import Flask
from marshmallow import Schema, ValidationError
from webargs import core
from webargs.flaskparser import is_json_request

from listbuilder.compat.flask_smorest import LazySpecApi, add_responses, api_of, copy_documentation
from listbuilder.shapes.api import ErrorOut
from listbuilder.web.http.bodies import JsonBodyParser, may_hold_nul
from listbuilder.web.http.openapi import ContractPlugin, RateLimitPlugin

# The header a paginated answer sends beside its ``next`` (versions, an event's report).
PAGE_HEADERS = {
    "Link": {"description": 'the next page, when there is one: `<url>; rel="next"`', "schema": {"type": "string"}}
}

View = TypeVar("View", bound=Callable[..., Any])

# What each error status means for an operation of this API.
ERROR_DESCRIPTIONS = {
    400: "The body is not JSON (errors name the line and column).",
    404: "An id in the path or the body names nothing we have (system, book, unit, list key).",
    413: "The body is over 1 MiB, or the work it asks for is over a budget no legal list reaches.",
    415: "The body was not sent as application/json.",
    422: "The body or query has invalid fields (errors name each one).",
}

# What a 422 to a list in the body may say beyond what its schema declares (JSON Schema cannot
# say that the units' keys are unique: uniqueItems compares whole objects).
LIST_422 = (
    "The body or query has invalid fields, errors naming each: beside what the schema declares,"
    " two units sharing a key (units[i].key) and more than 2000 upgrade rows in all (units)."
)
# ... and to a combat preview, whose situation keys depend on the system named beside them.
PREVIEW_422 = (
    "The body has invalid fields, errors naming each: beside what the schema declares, a"
    " defender shortcut given twice (situation.shaken and situation.defender.shaken), a profile"
    " in another family's shape, or a situation that makes no sense for the units (a weapon the"
    " attacker lacks, a range for a melee attack)."
)


# One instance documents every error answer: given the class, flask-smorest built one per
# status and operation (about 120), a tenth of the API modules' import.
ERROR_OUT = ErrorOut()


class Api(LazySpecApi):
    """Errors documented with :class:`ErrorOut` (each operation's own codes and a ``default``);
    every operation named (:class:`~listbuilder.web.http.openapi.ContractPlugin`); the OpenAPI
    document (``spec``) built on first use (:class:`~listbuilder.compat.flask_smorest.LazySpecApi`).

    Documenting every operation is needed only by ``/api/v1/openapi.json`` (and the docs page
    that reads it), so ``create_app`` leaves it to the first reader; ``wsgi.warm_up`` reads it
    before gunicorn forks, so served workers never pay for it.
    """

    ERROR_SCHEMA = ErrorOut

    def __init__(self, app: Flask | None = None, *, spec_kwargs: dict[str, Any] | None = None, **kwargs: Any) -> None:
        spec_kwargs = dict(spec_kwargs or {})
        spec_kwargs["extra_plugins"] = [*(spec_kwargs.get("extra_plugins") or ()), ContractPlugin(), RateLimitPlugin()]
        super().__init__(app, spec_kwargs=spec_kwargs, **kwargs)
        # flask-smorest documents its pagination header's schema for every API; we paginate nothing
        self.document(lambda spec: spec.components.schemas.pop("PaginationMetadata", None))

    def security_scheme(self, name: str, definition: dict[str, Any]) -> None:
        """An OpenAPI security scheme (``components.securitySchemes``)."""
        self.document(lambda spec: spec.components.security_scheme(name, definition))


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


def parser_loader(parser: JsonBodyParser, location: str) -> Callable[[flask.Request, Schema], Any]:
    """The parser's loader of *location*: its JSON body or its query string."""
    loaders = {"json": parser.load_json, "query": parser.load_querystring, "querystring": parser.load_querystring}
    if location not in loaders:
        raise ValueError(f"arguments() reads the JSON body or the query string, not {location!r}")
    return loaders[location]


def built_spec(app: Flask) -> APISpec:
    """The app's OpenAPI document, built now if nothing asked for it yet."""
    spec = api_of(app).spec
    assert spec is not None, "Api.init_app was called"
    return spec


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with our body parser, :meth:`errors`, and the areas of the API
    its routes belong to: *tags* maps each tag to its description; a route takes the first
    unless it names its own (``@blp.route("/books", tags=["books"])``)."""

    ARGUMENTS_PARSER = JsonBodyParser()

    def __init__(self, name: str, import_name: str, *, tags: Mapping[str, str], **options: Any) -> None:
        super().__init__(name, import_name, **options)
        self.tags = dict(tags)

    def route(
        self, rule: str, *, parameters: Any = None, tags: list[str] | None = None, **options: Any
    ) -> Callable[[View], View]:
        unknown = set(tags or ()) - set(self.tags)
        if unknown:
            raise ValueError(f"{rule}: tags {sorted(unknown)} are not among {self.name}'s {sorted(self.tags)}")
        return super().route(rule, parameters=parameters, tags=tags or [next(iter(self.tags))], **options)

    # Options of flask-smorest's ``arguments`` that only document; webargs' own are not taken.
    _DOCUMENTING = frozenset({"content_type", "required", "description", "example", "examples", "error_status_code"})

    def arguments(
        self, schema: type[Schema] | Schema, *, location: str = "json", **options: Any
    ) -> Callable[[View], View]:
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
        instance = schema() if isinstance(schema, type) else schema
        document = super().arguments(instance, location=location, **options)  # one instance for both
        parser = self.ARGUMENTS_PARSER
        read = parser_loader(parser, location)
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

            copy_documentation(document(view), with_arguments)
            return with_arguments  # type: ignore[return-value]

        return decorate

    def errors(self, *codes: int, descriptions: Mapping[int, str] | None = None) -> Callable[[View], View]:
        """Document the error statuses an operation answers, each with the error shape
        (and :data:`ERROR_DESCRIPTIONS`' words unless *descriptions* has the operation's own)."""
        words = {**ERROR_DESCRIPTIONS, **(descriptions or {})}

        def decorate(view: View) -> View:
            # what alt_response per code would document, innermost first; the view is served as it is
            add_responses(view, [(code, ERROR_OUT, words[code]) for code in reversed(codes)])
            return view

        return decorate
