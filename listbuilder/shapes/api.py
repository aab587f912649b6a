"""Response schemas of the REST API: how systems, books and reports look on the wire.

They dump the frozen model objects directly and double as the OpenAPI description.
System-specific stats (``quality``/``defense`` for OPR, move and dice for the hex games) are
listed under ``stats`` and also lifted to the top of each unit, so a client reads
``unit["quality"]`` without knowing which system stores what.
"""

from __future__ import annotations

from functools import cache
from typing import Any, ClassVar

from marshmallow import fields, post_dump, validate

from listbuilder import issue_data, validation
from listbuilder.families import FAMILIES
from listbuilder.formats.fields import Computed, CostField, Described, OutSchema, RuleLabel, Schema
from listbuilder.model import AFFECTS_ALL, AFFECTS_ANY, AFFECTS_ONE, AFFECTS_UNIT, AFFECTS_UP_TO
from listbuilder.shapes.previews import OneOfSchemas


class RuleDefinitionOut(OutSchema):
    name = fields.String()
    param = fields.String(allow_none=True)
    kind = fields.String(validate=validate.OneOf(["unit", "weapon", "item", "spell", "army"]))
    text = fields.String()
    mentions = fields.List(fields.String())


class SpellOut(OutSchema):
    id = fields.String()
    name = fields.String()
    value = fields.Integer()
    text = fields.String()
    limited_to = fields.List(fields.String())
    extra = fields.Dict()


class WeaponOut(OutSchema):
    name = fields.String()
    id = fields.String(metadata={"description": "gear key when two profiles share a name; empty otherwise"})
    carried_by = fields.String(metadata={"description": "the item this weapon comes inside, if any"})
    count = fields.Integer()
    range = fields.Integer(metadata={"description": "0 for melee weapons"})
    attacks = fields.Integer()
    rules = fields.List(RuleLabel())
    label = fields.String()
    extra = fields.Dict()


class ItemOut(OutSchema):
    name = fields.String()
    id = fields.String(metadata={"description": "gear key when two profiles share a name; empty otherwise"})
    count = fields.Integer()
    rules = fields.List(RuleLabel())
    weapons = fields.List(fields.Nested(WeaponOut), metadata={"description": "weapons inside the item, per copy"})
    extra = fields.Dict()


class GainsOut(OutSchema):
    weapons = fields.List(fields.Nested(WeaponOut))
    items = fields.List(fields.Nested(ItemOut))
    rules = fields.List(RuleLabel())
    weapon_rules = fields.List(RuleLabel(), metadata={"description": "rules the section's targeted weapons gain"})


class OptionOut(OutSchema):
    id = fields.String()
    label = fields.String()
    cost = CostField()
    unit_costs = fields.Dict(keys=fields.String(), values=CostField())
    gains = fields.Nested(GainsOut)
    requires = fields.List(fields.String())
    command = fields.String(allow_none=True)
    elite_only = fields.Boolean()
    elite = fields.Function(
        lambda o: bool(o.extra.get("elite")),
        metadata={
            "type": "boolean",
            "description": "the option is an elite model taking a regular one's place (armour-hex)",
        },
    )


class PickOut(OutSchema):
    min = fields.Integer(metadata={"description": "options each affected model must take"})
    max = fields.Integer(
        allow_none=True, metadata={"description": "options each affected model may take; null: any number"}
    )


class SectionOut(OutSchema):
    id = fields.String()
    label = fields.String()
    variant = fields.String(validate=validate.OneOf(["replace", "upgrade", "attachment"]))
    replaces = fields.List(fields.String())
    replace_counts = fields.Dict(
        keys=fields.String(),
        values=fields.Integer(),
        metadata={"description": "copies of a replaced gear each affected model gives up, when not 1"},
    )
    targets = fields.List(
        fields.String(), metadata={"description": "gear an upgrade or attachment is tied to (each copy takes it once)"}
    )
    affects = fields.String(
        validate=validate.OneOf([AFFECTS_UNIT, AFFECTS_ONE, AFFECTS_ALL, AFFECTS_UP_TO, AFFECTS_ANY])
    )
    affects_count = fields.Integer(allow_none=True)
    pick = Computed(
        lambda s: {"min": s.pick_min, "max": s.pick_max},
        PickOut,
        metadata={"description": "options per affected model; max null = any number"},
    )
    options = fields.List(fields.Nested(OptionOut))


class UnitStat(fields.Raw):
    """A stat of *family*'s units, lifted to the top of a unit; the document gives it the type
    the family's book schema reads it with (``listbuilder.web.http.openapi``)."""

    def __init__(self, family: str, name: str, **kwargs: Any) -> None:
        super().__init__(dump_only=True, metadata={"description": f"{family} stat, the same as stats.{name}"}, **kwargs)
        self.family, self.stat = family, name


class UnitStats(fields.Dict):
    """A unit's ``stats``: its family's stats and those the family derives from them; the
    document declares each key any family sends, with its type (``StatBlockOut``)."""


def _lifted_stats() -> dict[str, fields.Field]:
    """One optional property per stat any family's units carry (``quality``, ``figures``, ...)."""
    names: dict[str, str] = {}
    for family in FAMILIES.values():
        for name in family.stat_names:
            names.setdefault(name, family.id)
    return {name: UnitStat(family, name) for name, family in names.items()}


LIFTED = frozenset(_lifted_stats())


class UnitOut(OutSchema.from_dict(_lifted_stats())):  # type: ignore[misc]
    SOMETIMES = LIFTED  # only the stats the unit's family has

    id = fields.String()
    name = fields.String()
    size = fields.Integer()
    cost = CostField()
    stats = UnitStats()
    rules = fields.List(RuleLabel())
    weapons = fields.List(fields.Nested(WeaponOut))
    items = fields.List(fields.Nested(ItemOut))
    upgrades = fields.List(fields.String(), metadata={"description": "ids of the upgrade sections offered"})
    description = fields.String()
    tags = fields.List(fields.String())
    is_hero = fields.Boolean()

    @post_dump
    def lift_stats(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        """The book's own stats, lifted; those a family derives stay in ``stats`` only."""
        for key, value in (data.get("stats") or {}).items():
            if key in LIFTED:
                data.setdefault(key, value)
        return data


class BookSummaryOut(OutSchema):
    id = fields.String()
    system = fields.String(metadata={"system_id": True})
    name = fields.String()
    faction = fields.String()
    version = fields.String()
    description = fields.String()
    unit_count = fields.Function(lambda b: len(b.units), metadata={"type": "integer", "minimum": 0})


class EditionOut(OutSchema):
    """The rules a book is checked under, and what differs for a book written for another edition."""

    checked_under = fields.String(
        metadata={"description": "the rulebook and edition this service checks the book's lists under"}
    )
    written_for = fields.String(
        allow_none=True,
        metadata={
            "description": "the edition the book was written for (Army Forge's version), null for this project's own books"
        },
    )
    other_edition = fields.Boolean(
        allow_none=True,
        metadata={
            "description": "written for another edition than it is checked under (null: the rulebook names none to compare)"
        },
    )
    summary = fields.String(metadata={"description": "one sentence saying both"})
    same = fields.List(fields.String(), metadata={"description": "composition rules that are the same in both"})
    changes = fields.List(
        fields.String(), metadata={"description": "checks that differ from the edition the book was written for"}
    )


class BookOut(BookSummaryOut):
    rules = Computed(lambda b: RuleDefinitionOut(many=True).dump(b.rules.values()), RuleDefinitionOut, many=True)
    spells = fields.List(fields.Nested(SpellOut))
    units = fields.List(fields.Nested(UnitOut))
    upgrades = Computed(
        lambda b: SectionOut(many=True).dump(b.sections.values()),
        SectionOut,
        many=True,
        metadata={"description": "the book's upgrade sections"},
    )
    undefined_rules = fields.List(
        fields.String(), metadata={"description": "rules the book uses that nothing defines (imported books)"}
    )
    extra = fields.Dict()
    edition = fields.Nested(EditionOut, metadata={"description": "which rules the book is checked under (issue 26)"})


class SystemSummaryOut(OutSchema):
    id = fields.String(metadata={"system_id": True})
    name = fields.String()
    family = fields.String()
    edition = fields.String()
    description = fields.String()


class SystemOut(SystemSummaryOut):
    rulebook = fields.String()
    notes = fields.List(fields.String())
    glossary = Computed(lambda s: RuleDefinitionOut(many=True).dump(s.glossary.values()), RuleDefinitionOut, many=True)
    spells = fields.List(fields.Nested(SpellOut))
    composition = fields.Dict(metadata={"description": "the system's army-building parameters"})


class ChoiceOut(OutSchema):
    value = fields.String()
    label = fields.String(metadata={"description": "the words the form shows for it"})


class SituationValue(fields.Raw):
    """A situation key's value in a preview form: a flag, a whole number or a word, or null."""

    def __init__(self, description: str) -> None:
        # allow_none adds "null" to the types in the document
        super().__init__(
            allow_none=True, metadata={"type": ["boolean", "integer", "string"], "description": description}
        )


class FormInputOut(OutSchema):
    """One input of the builder's preview form: a key of the family's situation schema."""

    name = fields.String(metadata={"description": "the situation key it sets"})
    kind = fields.String(
        validate=validate.OneOf(["select", "number", "checkbox", "text"]),
        metadata={"description": "the input it shows as"},
    )
    label = fields.String()
    default = SituationValue("what the engine assumes when the key is left out (null: none, or required)")
    initial = SituationValue("the value the form starts with (null: empty)")
    min = fields.Integer(allow_none=True, metadata={"description": "a number's least value"})
    max = fields.Integer(allow_none=True, metadata={"description": "a number's greatest value"})
    max_length = fields.Integer(allow_none=True, metadata={"description": "a text's longest length"})
    when = fields.String(
        allow_none=True,
        metadata={"description": "shown and sent only when the attack input has this value (null: always)"},
    )
    choices = fields.List(
        fields.Nested(ChoiceOut), metadata={"description": "a select's choices, the first chosen at the start"}
    )
    choices_from = fields.String(
        allow_none=True,
        metadata={"description": "the list of the system's composition the choices come from, default first"},
    )


class ComparisonOut(OutSchema):
    """An attack the builder's loadout comparison offers (``POST /api/v1/previews/compare``)."""

    label = fields.String()
    attack = fields.String(metadata={"description": "the value of the situation's attack input"})
    flags = fields.List(fields.String(), metadata={"description": "situation flags set true for it"})


class PreviewFormOut(OutSchema):
    """The system's combat previews as the builder offers them: the situation form, read from
    the rules family's situation schema (``POST /api/v1/previews`` reads the same keys)."""

    available = fields.Boolean(metadata={"description": "whether the system has combat previews at all"})
    counts_wounds = fields.Boolean(
        metadata={"description": "whether its previews count wounds, so loadouts can be compared per 100 points"}
    )
    attack_input = fields.String(
        allow_none=True, metadata={"description": "the input that picks the kind of attack, which `when` names"}
    )
    inputs = fields.List(fields.Nested(FormInputOut), metadata={"description": "the form's inputs, in order"})
    other_keys = fields.List(
        fields.String(), metadata={"description": "situation keys the form does not show (typed in as JSON)"}
    )
    comparisons = fields.List(
        fields.Nested(ComparisonOut),
        metadata={"description": "the attacks a loadout comparison offers (none unless it counts wounds)"},
    )


class SystemDetailOut(SystemOut):
    """A system with what its rules object adds: limits at common sizes, game modes, codes.
    Each rules family's variant (its ``composition`` and ``limits``) is told apart by ``family``."""

    FAMILY_ANSWER: ClassVar[str | None] = "system"  # listbuilder.web.http.openapi_families
    DISCRIMINATOR: ClassVar[str] = "family"

    limits = fields.Dict(metadata={"description": "family-specific limits (force org maxima, game modes)"})
    issue_codes = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={"description": "every issue code the system's validation can report, with what it means"},
    )
    books = fields.List(fields.String(), metadata={"description": "ids of the system's army books"})
    preview = fields.Nested(
        PreviewFormOut, metadata={"description": "the builder's combat preview form for the system's rules family"}
    )
    stat_formats = fields.Dict(
        keys=fields.String(),
        values=fields.String(),
        metadata={
            "description": 'how a unit\'s stat reads, by stat, "{value}" standing for the value ({"quality": "{value}+"}); a stat not named reads as it is'
        },
    )


class CostOut(OutSchema):
    """A cost vector: each currency's amount (``{"pts": 485}``, ``{"ip": 18, "mp": 22}``)."""

    EXTRA = {"type": "integer"}


def _data_field(kind: str) -> fields.Field:
    if kind == issue_data.INTEGER:
        return fields.Integer(required=True)
    if kind == issue_data.TEXT:
        return fields.String(required=True)
    if kind == issue_data.TEXTS:
        return fields.List(fields.String(), required=True)
    return fields.Nested(CostOut, required=True)


def _data_schema(shape: issue_data.DataShape) -> type[OutSchema]:
    """One declared shape of ``data`` as a closed component (``IssueDataMaxCount``)."""
    doc = f"The data of {', '.join(shape.codes)}: {shape.about}."
    attrs: dict[str, Any] = {
        "__doc__": doc,
        "DESCRIPTION": doc,
        **{key: _data_field(kind) for key, kind in shape.keys.items()},
    }
    return type(f"IssueData{shape.name}Schema", (OutSchema,), attrs)


@cache
def issue_data_schemas() -> dict[str, type[OutSchema]]:
    """Each declared shape of ``data``, most keys first: a generated client tries the shapes in
    this order and keeps the first whose keys are all there, so a shape is tried before those
    whose keys are a part of its own. Made when the OpenAPI document first needs them."""
    return {shape.name: _data_schema(shape) for shape in sorted(issue_data.SHAPES, key=lambda s: -len(s.keys))}


class IssueFields(OutSchema):
    """What every issue has."""

    code = fields.String(metadata={"description": "stable machine code, e.g. force_org.heroes"})
    severity = fields.String(validate=validate.OneOf([validation.ERROR, validation.WARNING, validation.INFO]))
    message = fields.String()
    path = fields.String(metadata={"description": "JSON path into the submitted list, e.g. units[3].upgrades[1]"})
    clause = fields.String(metadata={"description": "the rule clause enforced"})


def issue_codes() -> list[str]:
    """Every code a registered family's validation can report."""
    from listbuilder.systems.rules import COMMON_CODES

    codes = dict(COMMON_CODES)
    for family in FAMILIES.values():
        codes.update(family.part("rules").ISSUE_CODES)
    return sorted(codes)


def issue_variants() -> tuple[type[OutSchema], ...]:
    """``IssueOut`` as the document has it: one closed shape per shape of ``data``, its
    ``code`` one of the codes that send that shape (a code with two shapes is in two variants,
    told apart by their keys), and ``IssueNoData`` for the codes that send none. Made again
    when a family registered since has other codes."""
    return _issue_variants(tuple(issue_codes()))


@cache
def _issue_variants(codes: tuple[str, ...]) -> tuple[type[OutSchema], ...]:
    variants: list[type[OutSchema]] = []
    with_data: set[str] = set()
    for name, data_schema in issue_data_schemas().items():
        shape = next(s for s in issue_data.SHAPES if s.name == name)
        with_data.update(shape.codes)
        variants.append(_issue_variant(f"Issue{name}", shape.codes, data_schema))
    plain = tuple(code for code in codes if code not in with_data)
    return (*variants, _issue_variant("IssueNoData", plain, None))


def _issue_variant(name: str, codes: tuple[str, ...], data: type[OutSchema] | None) -> type[OutSchema]:
    attrs: dict[str, Any] = {
        "DESCRIPTION": f"An issue of code {' or '.join(codes)}, with its figures."
        if data
        else "An issue whose code sends no figures.",
        "code": fields.String(validate=validate.OneOf(codes), metadata={"description": "stable machine code"}),
    }
    if data is not None:
        attrs["data"] = fields.Nested(data, metadata={"description": "the figures behind the message"})
    return type(f"{name}Schema", (IssueFields,), attrs)


class IssueOut(IssueFields):
    """One problem of a list. The document declares it as ``issue_variants``: which ``data``
    an issue carries follows from its ``code``."""

    SOMETIMES = frozenset({"data"})  # only when the issue has figures to give
    VARIANTS = staticmethod(issue_variants)

    data = OneOfSchemas(
        issue_data_schemas,
        metadata={
            "description": "the figures behind the message, in the shape its code sends (listbuilder/issue_data.py); absent when it has none"
        },
    )


class ProfileOut(OutSchema):
    """An entry's unit after its upgrades: the gear and rules it fights with (stats are the unit's)."""

    models = fields.Integer()
    weapons = fields.List(fields.Nested(WeaponOut))
    items = fields.List(fields.Nested(ItemOut))
    rules = fields.List(RuleLabel())


class KeywordOut(OutSchema):
    """Ancients-hex: what the list spends on keyword troops, and the least it must."""

    vp = fields.Integer(metadata={"description": "victory points spent on keyword troops"})
    required = fields.Integer(metadata={"description": "the least the list must spend on them"})


class SplitOut(OutSchema):
    """Armour-hex: a budget's points shared by several currencies."""

    points = fields.Integer(metadata={"description": "the shared pool"})
    across = fields.List(fields.String(), metadata={"description": "the currencies sharing it"})
    declared = fields.Nested(
        CostOut, allow_none=True, metadata={"description": "the division the list wrote down (null: pooled)"}
    )
    spent = fields.Integer(metadata={"description": "spent from the pool"})
    left = fields.Integer(metadata={"description": "what the pool leaves (below 0: overspent)"})


# The currencies a list's totals name (pts: OPR family; vp: ancients-hex; ip, mp, cp, xp: armour-hex).
CURRENCIES = ("pts", "vp", "ip", "mp", "cp", "xp")


class TotalsOut(OutSchema.from_dict({c: fields.Integer() for c in CURRENCIES})):  # type: ignore[misc]
    """A list's totals: what it spends in each currency its system prices in (``pts``;
    armour-hex ``ip``, ``mp``, ``cp``, ``xp``; ancients-hex ``vp``) beside these counts and
    limits. Keys past ``left`` are sent by the systems they belong to."""

    SOMETIMES = frozenset(
        {
            *CURRENCIES,
            "limit",
            "force_org",
            "legal_up_to",
            "opponent_vp",
            "keyword",
            "magicians",
            "budget",
            "split",
            "elites",
            "huge",
            "game_mode",
        }
    )

    units = fields.Integer(metadata={"description": "entries in the list"})
    activations = fields.Integer(
        metadata={"description": "units on the table: a combined pair once, joined heroes inside their unit"}
    )
    models = fields.Integer()
    left = fields.Nested(
        CostOut,
        allow_none=True,
        metadata={"description": "what the limit or budget leaves (null: armour-hex without a budget)"},
    )
    limit = fields.Nested(CostOut, metadata={"description": "the points limit (OPR family, ancients-hex)"})
    force_org = fields.Boolean(metadata={"description": "OPR family: force organisation was checked"})
    legal_up_to = fields.Nested(CostOut, metadata={"description": "ancients-hex: the limit plus the allowed overage"})
    opponent_vp = fields.Integer(
        allow_none=True, metadata={"description": "ancients-hex: victory points the overage gives the opponent"}
    )
    keyword = fields.Nested(
        KeywordOut, metadata={"description": "ancients-hex: keyword-troop spend and the minimum required"}
    )
    magicians = fields.Integer(metadata={"description": "ancients-hex: magicians in the list"})
    budget = fields.Nested(
        CostOut, allow_none=True, metadata={"description": "armour-hex: each currency's budget (null without one)"}
    )
    split = fields.Nested(SplitOut, metadata={"description": "armour-hex: the shared pool of a split budget"})
    elites = fields.Integer(metadata={"description": "armour-hex: elite models in the list"})
    huge = fields.List(
        fields.String(), metadata={"description": "armour-hex: ids of the huge units (declared to the opponent)"}
    )
    game_mode = fields.String(allow_none=True, metadata={"description": "armour-hex: the game mode played"})


class VerdictOut(OutSchema):
    """Whether a list is legal, its totals and every issue: the part of a report that an
    event's entry repeats beside the player's name."""

    valid = fields.Boolean()
    totals = Described(TotalsOut)
    issues = fields.List(fields.Nested(IssueOut))


class EntryTotalsOut(OutSchema):
    """One entry of a validated list: its cost after upgrades and its models (with
    ``?profiles=true`` also its profile)."""

    SOMETIMES = frozenset({"profile"})

    cost = Described(CostOut)
    models = fields.Integer()
    profile = fields.Nested(ProfileOut, metadata={"description": "weapons, items and rules after upgrades"})


class ListDocument(fields.Dict):
    """A list document as ``POST /lists/validate`` takes it, read later (or checked on its
    own, as in a batch); an answer sends it complete (``ArmyListOut``)."""

    OPENAPI: ClassVar[dict[str, Any]] = {"$ref": "#/components/schemas/ArmyList"}
    OPENAPI_OUT: ClassVar[dict[str, Any]] = {"$ref": "#/components/schemas/ArmyListOut"}


class ReportOut(VerdictOut):
    entries = fields.Dict(
        keys=fields.String(),
        values=fields.Nested(EntryTotalsOut),
        metadata={
            "description": "per entry key: its cost vector after upgrades and its model count; with ?profiles=true also its profile (ProfileOut: weapons, items and rules after upgrades)"
        },
    )


class PageOut(OutSchema):
    """What an answer that comes a page at a time adds: how many in all, and the next page."""

    total = fields.Integer(metadata={"description": "items in all"})
    next = fields.String(allow_none=True, metadata={"description": "the next page's URL (null: this is the last page)"})


def page_query(items: str, *, default: int, most: int, skipped_from: str) -> type[Schema]:
    """The query of a page of *items*: ``limit`` of them (1 to *most*, *default* when not
    given) from the ``offset``-th, counted from *skipped_from*."""
    return Schema.from_dict(
        {
            "limit": fields.Integer(
                load_default=default,
                validate=validate.Range(min=1, max=most),
                metadata={"description": f"{items} per page (1 to {most}, default {default})"},
            ),
            "offset": fields.Integer(
                load_default=0,
                validate=validate.Range(min=0),
                metadata={"description": f"{items} to skip from {skipped_from}"},
            ),
        },
        name=f"{items.title().replace(' ', '')}PageQuery",
    )


class ErrorOut(OutSchema):
    """The one error shape of every 4xx and 5xx."""

    code = fields.Integer(required=True, metadata={"description": "the HTTP status code"})
    status = fields.String(required=True, metadata={"description": "the HTTP status name"})
    message = fields.String(required=True)
    errors = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        required=True,
        metadata={"description": "field path in the request (units[2].count, (body)) -> messages"},
    )
