"""flask-smorest set up our way: strict JSON bodies, our error schema, each operation's codes.

Every API blueprint is a :class:`Blueprint` (not ``flask_smorest.Blueprint``) so that bodies go
through :class:`~listbuilder.web.bodies.JsonBodyParser` and an operation documents the errors
it really answers with ``@blp.errors(404, 422)`` instead of a catch-all ``default`` response.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import flask_smorest
from apispec import BasePlugin
from apispec.ext.marshmallow.common import resolve_schema_cls

from listbuilder.schemas.api import ErrorOut
from listbuilder.web.bodies import JsonBodyParser

View = TypeVar("View", bound=Callable[..., Any])

# What each error status means for an operation of this API.
ERROR_DESCRIPTIONS = {
    400: "The body is not JSON (errors name the line and column).",
    404: "An id in the path or the body names nothing we have (system, book, unit, list key).",
    413: "The body is over 1 MiB, or the work it asks for is over a budget no legal list reaches.",
    415: "The body was not sent as application/json.",
    422: "The body or query has invalid fields (errors name each one).",
}


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
    """No catch-all ``default`` response; errors documented with :class:`ErrorOut`."""

    ERROR_SCHEMA = ErrorOut
    DEFAULT_ERROR_RESPONSE_NAME = None

    def _init_spec(self, **kwargs: Any) -> None:
        kwargs["extra_plugins"] = [*(kwargs.get("extra_plugins") or ()), OneOfPlugin()]
        super()._init_spec(**kwargs)


class Blueprint(flask_smorest.Blueprint):
    """flask-smorest's Blueprint with our body parser and :meth:`errors`."""

    ARGUMENTS_PARSER = JsonBodyParser()

    def errors(self, *codes: int, descriptions: Mapping[int, str] | None = None) -> Callable[[View], View]:
        """Document the error statuses an operation answers, each with the error shape
        (and :data:`ERROR_DESCRIPTIONS`' words unless *descriptions* has the operation's own)."""
        words = {**ERROR_DESCRIPTIONS, **(descriptions or {})}

        def decorate(view: View) -> View:
            # alt_response wraps the view once per status only to carry the documentation;
            # keep the documentation and serve the view itself (no wrapper per request).
            documented = view
            for code in reversed(codes):
                documented = self.alt_response(code, schema=ErrorOut, description=words[code])(documented)
            view._apidoc = documented._apidoc  # type: ignore[attr-defined]
            return view

        return decorate
