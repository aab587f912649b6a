"""Army-book and system-file schemas for the OPR family (AoF 2.16, Grimdark Future, AoF regiments)."""

from __future__ import annotations

from marshmallow import fields, validate

from listbuilder.families import OPR
from listbuilder.formats.books import UnitSchema, book_schema, system_schema
from listbuilder.formats.fields import StrictSchema, WholeNumber, positive_int

_TARGET = validate.Range(min=2, max=6, error="not a target number from 2 to 6")


class OprUnitSchema(UnitSchema):
    STAT_FIELDS = OPR.stat_names

    quality = WholeNumber(required=True, validate=_TARGET)
    defense = WholeNumber(required=True, validate=_TARGET)


class PointsSchema(StrictSchema):
    default = positive_int(required=True)
    suggested = fields.List(positive_int(), load_default=())


class ForceOrgSchema(StrictSchema):
    default_on = fields.Boolean(required=True)
    hero_per = positive_int(required=True)
    copies_per = positive_int(required=True)
    max_unit_share = WholeNumber(required=True, validate=validate.Range(min=1, max=100))
    unit_per = positive_int(required=True)
    clause = fields.String(required=True)


class HeroJoinSchema(StrictSchema):
    max_tough = positive_int(load_default=None, allow_none=True)
    multi_model_only = fields.Boolean(required=True)
    one_hero_per_unit = fields.Boolean(required=True)
    clause = fields.String(required=True)


class CombinedSchema(StrictSchema):
    multi_model_only = fields.Boolean(required=True)
    clause = fields.String(required=True)


class CommandGroupsSchema(StrictSchema):
    roles = fields.List(fields.String(), required=True)
    clause = fields.String(required=True)


class OprCompositionSchema(StrictSchema):
    points = fields.Nested(PointsSchema, required=True)
    points_clause = fields.String(required=True)
    force_org = fields.Nested(ForceOrgSchema, load_default=None, allow_none=True)
    heroes_join = fields.Nested(HeroJoinSchema, required=True)
    combined = fields.Nested(CombinedSchema, required=True)
    command_groups = fields.Nested(CommandGroupsSchema, required=True)
    unit_sizes = fields.List(positive_int(), load_default=None, allow_none=True)
    unit_sizes_clause = fields.String(load_default=None, allow_none=True)
    spellcasting_rule = fields.String(load_default=None, allow_none=True)


OprBookSchema = book_schema(OprUnitSchema, "OprBookSchema")
OprSystemSchema = system_schema(OprCompositionSchema, "OprSystemSchema")
