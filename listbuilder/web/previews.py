"""``POST /api/v1/previews`` (one attack) and ``/previews/turn`` (shooting then the charge):
exact combat odds for an attacker and a defender.

The view only loads the request (``listbuilder.shapes.preview_requests``) and calls the pure core
(``listbuilder.combat.preview``); nonsense inputs raise PreviewError, answered here in the
API's one error shape.
"""

from __future__ import annotations

from typing import Any, ClassVar

from flask import jsonify
from flask.views import MethodView
from marshmallow import fields

from listbuilder.combat import PreviewError, preview
from listbuilder.combat.service import compare, preview_turn
from listbuilder.formats.fields import OutSchema
from listbuilder.shapes.preview_answers import CompareOptionOut, CompareUnitOut, DistributionOut, SideOut
from listbuilder.shapes.preview_requests import finish_request
from listbuilder.shapes.previews import CompareRequestSchema, PreviewRequestSchema, schema_of
from listbuilder.web.context import registry
from listbuilder.web.http.rest import PREVIEW_422, Blueprint

blp = Blueprint(
    "previews",
    __name__,
    url_prefix="/api/v1",
    description="Combat previews with exact odds.",
    tags={"previews": "Combat previews with exact odds."},
)


class PreviewOut(OutSchema):
    """A combat preview's answer: each rules family's variant is told apart by ``system``."""

    FAMILY_ANSWER: ClassVar[str | None] = "preview"  # what FamilyAnswers field holds a family's own fields
    DISCRIMINATOR: ClassVar[str] = "system"
    FAMILY_NEEDS: ClassVar[tuple[str, ...]] = ("engine",)

    system = fields.String()
    attacker = fields.Nested(SideOut, metadata={"description": "the attacking side as it hits the table"})
    defender = fields.Nested(SideOut)
    situation = fields.Dict(metadata={"description": "the situation after defaults"})
    expected = fields.Dict(
        keys=fields.String(),
        values=fields.Float(),
        metadata={"description": "expected hits, wounds, models killed, ..."},
    )
    distributions = fields.Dict(keys=fields.String(), values=fields.Nested(DistributionOut))
    p_destroyed = fields.Float()
    consequences = fields.Dict(
        metadata={"description": "system consequences: morale, melee result, retreats, damage results"}
    )
    notes = fields.List(fields.String(), metadata={"description": "interpretations the engine applied"})
    unmodelled = fields.List(
        fields.String(),
        metadata={"description": "rules on either side the preview does not model (ignored in the odds)"},
    )


class TurnOut(PreviewOut):
    """A whole turn's answer (shooting, then the charge)."""

    FAMILY_ANSWER = "turn"
    FAMILY_NEEDS = ("turn_engine",)

    steps = fields.Dict(metadata={"description": "the shooting alone, then the charge"})


class TurnRequestSchema(PreviewRequestSchema):
    """``POST /api/v1/previews/turn``: the attacker shoots the defender, then charges it."""

    SITUATION_PART = "turn_situation_schema"

    situation = fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "range, hold, cover, weapons, pick (the shooting); facing, strike_back (the charge); attacker/defender states (see docs/combat.md)"
        },
    )


class CompareOut(OutSchema):
    """A loadout comparison's answer (its situation is the family's)."""

    FAMILY_ANSWER: ClassVar[str | None] = "preview"
    DISCRIMINATOR: ClassVar[str] = "system"
    FAMILY_NEEDS: ClassVar[tuple[str, ...]] = ("engine", "counts_wounds")

    system = fields.String()
    attacker = fields.Nested(CompareUnitOut, metadata={"description": "book, unit and name of the unit compared"})
    defender = fields.Nested(SideOut)
    situation = fields.Dict(metadata={"description": "the situation after defaults"})
    options = fields.List(fields.Nested(CompareOptionOut))
    best = fields.Integer(
        allow_none=True, metadata={"description": "index of the option with the most expected wounds per 100 points"}
    )


@blp.errorhandler(PreviewError)
def _preview_error(error: PreviewError) -> Any:
    return jsonify(error.as_dict()), error.status


@blp.route("/previews")
class Previews(MethodView):
    @blp.doc(operationId="previewAttack")
    @blp.arguments(schema_of(PreviewRequestSchema))  # an instance: webargs builds a class anew per request
    @blp.response(200, PreviewOut)
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: PREVIEW_422})
    def post(self, request: dict[str, Any]) -> Any:
        """Preview a combat: distributions of hits, wounds and models killed, and consequences."""
        reg = registry()
        # The engine's answer is already JSON in PreviewOut's shape (which documents it); a
        # marshmallow dump would only copy every distribution again.
        return jsonify(preview(reg, finish_request(reg, request)))


@blp.route("/previews/turn")
class TurnPreviews(MethodView):
    @blp.doc(operationId="previewTurn")
    @blp.arguments(schema_of(TurnRequestSchema))
    @blp.response(200, TurnOut)
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: PREVIEW_422})
    def post(self, request: dict[str, Any]) -> Any:
        """Preview a whole turn: the attacker's shooting, then its charge into the same target
        (with the target's strike-back and morale), as one exact distribution."""
        reg = registry()
        return jsonify(preview_turn(reg, finish_request(reg, request, "turn_situation_schema")))


@blp.route("/previews/compare")
class ComparePreviews(MethodView):
    @blp.doc(operationId="compareLoadouts")
    @blp.arguments(schema_of(CompareRequestSchema))
    @blp.response(200, CompareOut)
    @blp.errors(400, 404, 413, 415, 422, descriptions={422: PREVIEW_422})
    def post(self, request: dict[str, Any]) -> Any:
        """Compare loadouts of one unit against a target: points, expected wounds, chance to
        destroy and expected wounds per 100 points of each option."""
        reg = registry()
        return jsonify(compare(reg, finish_request(reg, request)))
