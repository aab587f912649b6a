"""Combat preview requests as the API reads them: the envelope (:class:`PreviewRequestSchema`:
the system id, each side exactly one of :class:`SideBookSchema`, :class:`SideListSchema` or
:class:`SideProfileSchema`, told apart by the keys each requires) and the OPR family's
situations. ``listbuilder.shapes.preview_requests`` loads the rest, which depends on the system named in the
same body.

The OpenAPI document shows the same thing the other way round (``listbuilder.web.http.openapi``):
one request shape per family (``PreviewRequestOpr``, ... told apart by ``system``), each with
its family's situation schema (the record part named by ``SITUATION_PART``), and a ``Profile``
that is one of the families' unit shapes.

Schema instances are built once per process (:func:`schema_of`) and reused: building one costs
about as much as a small preview, and they keep no state between loads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache, cached_property
from typing import Any, ClassVar

from marshmallow import ValidationError, fields, validate

from listbuilder.formats.fields import Schema, StrictSchema, WholeNumber
from listbuilder.formats.lists import ArmyListSchema, ChosenUpgradeSchema
from listbuilder.shapes.situation_forms import Comparison

_ID = validate.Length(min=1, max=100)
_COUNT = validate.Range(min=0, max=10000, error="not a count from 0 to 10000")


class SideBookSchema(StrictSchema):
    """A side that is a unit of an army book, with upgrades as a list entry takes them."""

    book = fields.String(required=True, validate=_ID, metadata={"description": "army book id"})
    unit = fields.String(required=True, validate=_ID, metadata={"description": "unit id in the book"})
    upgrades = fields.List(fields.Nested(ChosenUpgradeSchema), validate=validate.Length(max=100))


class SideListSchema(StrictSchema):
    """A side that is a unit of a submitted list, as it deploys (combined pair merged, joined heroes in)."""

    list = fields.Nested(ArmyListSchema, required=True, metadata={"description": "a submitted army list"})
    key = fields.String(
        required=True, validate=validate.Length(min=1, max=64), metadata={"description": "key of the unit in the list"}
    )


class ProfileField(fields.Dict):
    """An inline unit: an object here, read by the system's family once the system is known
    (``listbuilder.shapes.preview_requests.profile_schema``); documented as the ``Profile`` component, one of
    the families' unit shapes."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(keys=fields.String(), **kwargs)


class SideProfileSchema(StrictSchema):
    """A side that is a what-if unit given inline."""

    profile = ProfileField(
        required=True,
        metadata={"description": "a unit in the shape the system's army books use; id, size and cost optional"},
    )


class OneOfSchemas(fields.Field):
    """One of several object shapes, told apart by a key only one of them has (no kind field):
    ``{"book": SideBookSchema, "list": SideListSchema, ...}``. Loaded by the shape it names;
    documented as a ``oneOf`` of their components (each closed, with its own required keys).

    *shapes* may be a function that makes that mapping, called when the shapes are first
    needed: an answer's field is dumped as it is, so only the OpenAPI document reads its
    shapes, and start-up need not build their classes."""

    def __init__(
        self, shapes: Mapping[str, type[Schema]] | Callable[[], Mapping[str, type[Schema]]], **kwargs: Any
    ) -> None:
        super().__init__(**kwargs)
        self._shapes = shapes

    @cached_property
    def shapes(self) -> dict[str, type[Schema]]:
        return dict(self._shapes() if callable(self._shapes) else self._shapes)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        kinds = [key for key in self.shapes if isinstance(value, dict) and key in value]
        if len(kinds) != 1:
            raise ValidationError(f"give exactly one of: {self.describe()}")
        return schema_of(self.shapes[kinds[0]]).load(value)

    def describe(self) -> str:
        return ", ".join(
            " + ".join(n for n, f in schema_of(cls).fields.items() if f.required) for cls in self.shapes.values()
        )


def side(**kwargs: Any) -> OneOfSchemas:
    """A preview side: a book unit, a unit of a list, or an inline profile."""
    return OneOfSchemas({"book": SideBookSchema, "list": SideListSchema, "profile": SideProfileSchema}, **kwargs)


class PreviewRequestSchema(StrictSchema):
    """``POST /api/v1/previews``: who fights whom, and how."""

    # the family record's part that reads the situation; the document has one shape per family
    SITUATION_PART: ClassVar[str] = "situation_schema"

    system = fields.String(required=True, validate=_ID)
    attacker = side(required=True)
    defender = side(required=True)
    situation = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={"description": "how they fight; keys depend on the system (see docs/combat.md)"},
    )


class CompareOptionSchema(StrictSchema):
    """One loadout to compare: upgrades as in a list entry, and a label to show."""

    label = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "shown for this option (default: the options' names)"},
    )
    upgrades = fields.List(fields.Nested(ChosenUpgradeSchema), load_default=list, validate=validate.Length(max=100))


class CompareUnitSchema(StrictSchema):
    book = fields.String(required=True, validate=_ID, metadata={"description": "army book id"})
    unit = fields.String(required=True, validate=_ID, metadata={"description": "unit id in the book"})


class CompareRequestSchema(StrictSchema):
    """``POST /api/v1/previews/compare``: loadouts of one unit against the same defender."""

    SITUATION_PART: ClassVar[str] = "situation_schema"
    FAMILY_FLAG: ClassVar[str] = "counts_wounds"  # only families whose answers count wounds compare loadouts

    system = fields.String(required=True, validate=_ID)
    attacker = fields.Nested(CompareUnitSchema, required=True)
    options = fields.List(
        fields.Nested(CompareOptionSchema),
        required=True,
        validate=validate.Length(min=2, max=8, error="give 2 to 8 options"),
    )
    defender = side(required=True)
    situation = fields.Dict(
        keys=fields.String(), load_default=dict, metadata={"description": "as in /previews for the system"}
    )


# --------------------------------------------------------------------------------------------
# Situations, per rules family


class SideStateSchema(StrictSchema):
    """What has already happened to one side this game."""

    shaken = fields.Boolean(
        load_default=False, metadata={"description": "Shaken (001) / Wavering (000) / Shaken (002)"}
    )
    fatigued = fields.Boolean(load_default=False, metadata={"description": "already fought in melee this round"})
    models_lost = WholeNumber(load_default=0, validate=_COUNT)
    wounds_taken = WholeNumber(
        load_default=0,
        validate=_COUNT,
        metadata={"description": "wounds on the most-wounded tough model (or on a single-model unit)"},
    )
    moved = fields.Boolean(
        load_default=False, metadata={"description": "moved in its last activation (001 Entrenched)"}
    )


class PickField(fields.Field):
    """``situation.pick``: which defender model Sniper (000/001) or Takedown (002) attacks go at.

    ``"next"`` (the default: the next model in the wound order), ``"hero"`` (the first joined
    hero), ``{"hero": index or name}`` or ``{"model": place}`` (0 = the next model to take
    wounds, counting the models still standing in wound order, heroes last). The engine checks
    that the named model exists; this field checks the shape.
    """

    OPENAPI: ClassVar[dict[str, Any]] = {
        "oneOf": [
            {"type": "string", "enum": ["next", "hero"]},
            {
                "type": "object",
                "properties": {
                    "hero": {
                        "oneOf": [
                            {"type": "integer", "minimum": 0, "maximum": 10000},
                            {"type": "string", "minLength": 1, "maxLength": 100},
                        ]
                    }
                },
                "required": ["hero"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {"model": {"type": "integer", "minimum": 0, "maximum": 10000}},
                "required": ["model"],
                "additionalProperties": False,
            },
        ]
    }

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if value in ("next", "hero"):
            return value
        if not isinstance(value, dict) or len(value) != 1 or not {"hero", "model"} >= set(value):
            raise ValidationError('not a pick: "next", "hero", {"hero": index or name} or {"model": place}')
        ((key, inner),) = value.items()
        whole = isinstance(inner, int) and not isinstance(inner, bool) and 0 <= inner <= 10000
        if key == "model" and not whole:
            raise ValidationError({"model": ["not a place from 0 (the next model) to 10000"]})
        if key == "hero" and not (whole or (isinstance(inner, str) and 1 <= len(inner) <= 100)):
            raise ValidationError({"hero": ["not a hero index from 0 or a hero's name"]})
        return dict(value)


class OprSharedSituation(StrictSchema):
    """The OPR situation keys a single attack and a whole turn share."""

    range = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=validate.Range(min=0, max=1000),
        metadata={
            "description": "shooting: distance in inches (weapons out of range do not fire)",
            "label": "Range (inches)",
            "when": "shooting",
            "initial": 12,
        },
    )
    hold = fields.Boolean(
        load_default=True,
        metadata={
            "description": "shooting: the attacker stood still (Hold) rather than moved before firing",
            "label": "Attacker held still",
            "when": "shooting",
        },
    )
    cover = fields.Boolean(
        load_default=False, metadata={"description": "the defender is in cover", "label": "Defender in cover"}
    )
    facing = fields.String(
        load_default="front",
        validate=validate.OneOf(["front", "flank", "rear"]),
        metadata={"description": "melee: where the charge hits the defender (002 flanking, Counter)", "form": False},
    )
    strike_back = fields.Boolean(
        load_default=True,
        metadata={"description": "melee: the defender strikes back", "label": "Defender strikes back", "when": "melee"},
    )
    attacker = fields.Nested(SideStateSchema, load_default=lambda: fresh_side_state())
    defender = fields.Nested(SideStateSchema, load_default=lambda: fresh_side_state())
    weapons = fields.List(
        fields.String(validate=_ID),
        load_default=None,
        allow_none=True,
        metadata={
            "description": "only these attacker weapons fight (default: all that can); in a whole turn, the weapons that shoot"
        },
    )
    pick = PickField(
        load_default="next",
        metadata={
            "description": 'Sniper/Takedown target: "next" (default), "hero", {"hero": index or name} or {"model": place in wound order, 0 = next}; in a whole turn, for the shooting'
        },
    )


class OprSituationSchema(OprSharedSituation):
    """How an OPR-family attack happens. Top-level state keys describe the defender."""

    # The builder's preview form (listbuilder.shapes.situation_forms): the shared fields come
    # first in the class, the form shows them among this class's own. A loadout comparison
    # offers a charge and shooting.
    FORM_ORDER: ClassVar[tuple[str, ...]] = (
        "attack",
        "range",
        "hold",
        "charging",
        "strike_back",
        "cover",
        "shaken",
        "fatigued",
        "models_lost",
        "wounds_taken",
    )
    COMPARISONS: ClassVar[tuple[Comparison, ...]] = (
        Comparison("Charge (melee)", "melee", flags=("charging",)),
        Comparison("Shooting", "shooting"),
    )
    # the defender shortcuts are folded into `defender` by the load: an answer's situation has none
    ANSWER_LEAVES_OUT: ClassVar[tuple[str, ...]] = ("shaken", "fatigued", "models_lost", "wounds_taken")

    attack = fields.String(
        required=True,
        validate=validate.OneOf(["shooting", "melee"]),
        metadata={"label": "Attack", "choices": {"shooting": "Shooting", "melee": "Melee"}},
    )
    charging = fields.Boolean(
        load_default=False,
        metadata={
            "description": "melee: the attacker charged this activation",
            "label": "Attacker charged",
            "when": "melee",
            "initial": True,
        },
    )
    shaken = fields.Boolean(
        load_default=None,
        allow_none=True,
        metadata={"description": "shortcut for defender.shaken", "label": "Defender shaken"},
    )
    fatigued = fields.Boolean(
        load_default=None,
        allow_none=True,
        metadata={"description": "shortcut for defender.fatigued", "label": "Defender fatigued", "when": "melee"},
    )
    models_lost = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=_COUNT,
        metadata={
            "description": "shortcut for defender.models_lost",
            "label": "Defender models already lost",
            "initial": 0,
        },
    )
    wounds_taken = WholeNumber(
        load_default=None,
        allow_none=True,
        validate=_COUNT,
        metadata={
            "description": "shortcut for defender.wounds_taken",
            "label": "Wounds already on the defender",
            "initial": 0,
        },
    )

    def load(self, data: Any, **kw: Any) -> Any:  # type: ignore[override]
        """Fold the defender shortcuts into ``defender`` (giving both is an error)."""
        loaded = super().load(data, **kw)
        raw_defender = data.get("defender") if isinstance(data, dict) and isinstance(data.get("defender"), dict) else {}
        for key in ("shaken", "fatigued", "models_lost", "wounds_taken"):
            value = loaded.pop(key, None)
            if value is None:
                continue
            if key in raw_defender:
                raise ValidationError({key: [f"give either {key} or defender.{key}, not both"]})
            loaded["defender"][key] = value
        return loaded


class OprTurnSituationSchema(OprSharedSituation):
    """A whole turn (``/previews/turn``): the attacker shoots (range, hold, cover, weapons,
    pick), then charges the same target (facing, strike_back)."""


@cache
def schema_of(cls: type[Schema]) -> Schema:
    """The one instance of a schema class this process uses."""
    return cls()


@cache
def _side_state_defaults() -> dict[str, Any]:
    return schema_of(SideStateSchema).load({})


def fresh_side_state() -> dict[str, Any]:
    """A side state with every default (a new dict: the situation loader writes into it)."""
    return dict(_side_state_defaults())
