"""Combat preview requests: JSON -> the parsed request the combat service
(``listbuilder.combat.service``) takes.

Loading happens in two steps because what a profile and a situation may contain depends on the
game system named in the same body:

1. ``PreviewRequestSchema`` (``listbuilder.shapes.previews``) checks the envelope.
2. :func:`finish_request` looks the system up, loads inline profiles with the family's own unit
   schema (the very shape an army book uses, :func:`profile_schema`) and the situation with the
   family's situation schema (its record in ``listbuilder.families``).

Errors are raised as :class:`~listbuilder.combat.PreviewError` with every bad field path
(``attacker.profile.weapons[0].attacks``, ``situation.range``).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from marshmallow import ValidationError

from listbuilder.books.registry import BookRegistry
from listbuilder.combat.service import SIDES, PreviewError
from listbuilder.families import FAMILIES
from listbuilder.formats.fields import CostField, Identifier, Schema, positive_int
from listbuilder.lists.documents import field_errors
from listbuilder.model import Cost
from listbuilder.shapes.previews import PreviewRequestSchema, schema_of


def finish_request(
    registry: BookRegistry, loaded: Mapping[str, Any], situation: str = "situation_schema"
) -> dict[str, Any]:
    """Load profiles and the situation for the named system; raises PreviewError.

    *situation* names the family's schema for it: ``"turn_situation_schema"`` for a whole turn."""
    request = dict(loaded)
    system = registry.systems.get(request["system"])
    if system is None:
        raise PreviewError("system", f"no game system {request['system']!r}; known: {sorted(registry.systems)}", 404)
    errors: dict[str, list[str]] = {}
    for side in SIDES:
        value = dict(request[side])
        if "profile" in value:
            try:
                value["profile"] = _load_profile(system.family, value["profile"])
            except ValidationError as exc:
                for where, messages in field_errors(exc.messages).items():
                    errors.setdefault(f"{side}.profile.{where}" if where != "(body)" else f"{side}.profile", []).extend(
                        messages
                    )
        request[side] = value
    schema_cls = FAMILIES[system.family].part(situation)
    if schema_cls is not None:
        try:
            request["situation"] = schema_of(schema_cls).load(request.get("situation") or {})
        except ValidationError as exc:
            for where, messages in field_errors(exc.messages).items():
                errors.setdefault(f"situation.{where}" if where != "(body)" else "situation", []).extend(messages)
    if errors:
        first = next(iter(errors))
        raise PreviewError(first, "the preview request has invalid fields: see errors", errors=errors)
    return request


def load_request(registry: BookRegistry, data: Any, situation: str = "situation_schema") -> dict[str, Any]:
    """Both steps, for the CLI and tests: raw JSON -> the request ``preview`` takes
    (``situation="turn_situation_schema"`` for ``preview_turn``)."""
    if not isinstance(data, dict):
        raise PreviewError("(body)", "the preview request must be a JSON object")
    try:
        loaded = schema_of(PreviewRequestSchema).load(data)
    except ValidationError as exc:
        errors = field_errors(exc.messages)
        raise PreviewError(
            next(iter(errors)), "the preview request has invalid fields: see errors", errors=errors
        ) from None
    return finish_request(registry, loaded, situation)


def _load_profile(family: str, data: Mapping[str, Any]) -> Any:
    """An inline unit, read by the family's profile schema."""
    return schema_of(profile_schema(family)).load(data)


@cache
def profile_schema(family: str) -> type[Schema]:
    """The family's unit schema with ``id``, ``size`` and ``cost`` optional (``profile``, one
    model, free): what an inline profile may hold, and the family's ``Profile`` in the document.
    The book schemas are created by the first inline profile (or the document), not at start-up."""
    book_schema = FAMILIES[family].part("book_schema")
    unit_schema = schema_of(book_schema).fields["units"].inner.schema  # a List(Nested(unit schema))
    name = "".join(part.title() for part in family.split("-")) + "ProfileSchema"
    return type(
        name,
        (type(unit_schema),),
        {
            "__doc__": f"An inline {family} unit for a preview: the book's unit shape, id, size and cost optional.",
            "id": Identifier(load_default="profile"),
            "size": positive_int(load_default=1),
            "cost": CostField(load_default=lambda: Cost({"pts": 0})),
        },
    )
