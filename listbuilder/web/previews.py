"""``POST /api/v1/previews``: exact combat odds for an attacker and a defender.

The view only loads the request (``listbuilder.schemas.previews``) and calls the pure core
(``listbuilder.combat.preview``); nonsense inputs raise PreviewError, answered here in the
API's one error shape.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask.views import MethodView
from marshmallow import Schema, fields

from listbuilder.combat import PreviewError, preview
from listbuilder.schemas.previews import PreviewRequestSchema, finish_request, schema_of
from listbuilder.web.api import registry
from listbuilder.web.rest import Blueprint

blp = Blueprint("previews", __name__, url_prefix="/api/v1", description="Combat previews with exact odds.")


class DistributionOut(Schema):
    mean = fields.Float()
    pmf = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={"description": "outcome -> probability"})
    at_least = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={"description": "N -> probability of at least N"})


class PreviewOut(Schema):
    system = fields.String()
    attacker = fields.Dict(metadata={"description": "the attacking side as it hits the table"})
    defender = fields.Dict()
    situation = fields.Dict(metadata={"description": "the situation after defaults"})
    expected = fields.Dict(keys=fields.String(), values=fields.Float(), metadata={"description": "expected hits, wounds, models killed, ..."})
    distributions = fields.Dict(keys=fields.String(), values=fields.Nested(DistributionOut))
    p_destroyed = fields.Float()
    consequences = fields.Dict(metadata={"description": "system consequences: morale, melee result, retreats, damage results"})
    notes = fields.List(fields.String(), metadata={"description": "interpretations the engine applied"})


@blp.errorhandler(PreviewError)
def _preview_error(error: PreviewError) -> Any:
    return jsonify(error.as_dict()), error.status


@blp.route("/previews")
class Previews(MethodView):
    @blp.arguments(schema_of(PreviewRequestSchema))  # an instance: webargs builds a class anew per request
    @blp.response(200, PreviewOut)
    @blp.errors(400, 404, 413, 415)
    def post(self, request: dict[str, Any]) -> Any:
        """Preview a combat: distributions of hits, wounds and models killed, and consequences."""
        reg = registry()
        # The engine's answer is already JSON in PreviewOut's shape (which documents it); a
        # marshmallow dump would only copy every distribution again.
        return jsonify(preview(reg, finish_request(reg, request)))
