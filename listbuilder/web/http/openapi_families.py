"""Answers whose shape depends on the rules family, declared one variant per family.

An answer schema with ``FAMILY_ANSWER`` (the :class:`~listbuilder.shapes.preview_answers.FamilyAnswers`
field it reads: ``preview``, ``turn`` or ``system``) is declared as a ``oneOf`` of one
variant per family that gives such answers, told apart by ``DISCRIMINATOR`` (``system``:
each variant's system ids; ``family``: its family id) with a discriminator mapping, so a
client narrows the answer on that key. A variant is the shared schema with the family's own
fields in place of the shared ones of the same name. A family without its own shapes keeps
the shared ones.

Where only one family gives an answer (a whole turn, a loadout comparison: OPR only), the
answer *is* that family's variant, not a union of one: a client has nothing to narrow, and
generated clients keep the answer's own name (``TurnOut``, not ``TurnOutOpr``; openapi-python-client
0.29 reads a union of one as its member's class).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from marshmallow import Schema, fields, validate

from listbuilder.families import FAMILIES, Family
from listbuilder.formats.fields import OutSchema


def family_title(family: str) -> str:
    """A family id as a component name's part: ``ancients-hex`` -> ``AncientsHex``."""
    return "".join(part.title() for part in family.split("-"))


def family_variants(
    schema_cls: type[OutSchema],
    name: str,
    systems_by_family: Mapping[str, list[str]],
    answered: Callable[[fields.Field], None],
) -> list[tuple[type[OutSchema], list[str]]]:
    """Each family's variant of *schema_cls* (the component *name*), with the values of the
    discriminator that name it; families that give no such answer are left out. *answered*
    turns the request shapes nested in a family's field into their answer shapes."""
    kind: str = schema_cls.FAMILY_ANSWER  # type: ignore[attr-defined]
    key: str = schema_cls.DISCRIMINATOR  # type: ignore[attr-defined]
    needs: tuple[str, ...] = getattr(schema_cls, "FAMILY_NEEDS", ())  # the record's parts (or flags) it needs
    out = []
    for family_id, systems in systems_by_family.items():
        record = FAMILIES[family_id]
        if not all(_has(record, need) for need in needs):
            continue
        values = systems if key == "system" else [family_id]
        attrs: dict[str, Any] = {
            "__doc__": f"{' '.join((schema_cls.__doc__ or name).split())} For the {family_id} systems.",
            "FAMILY_ANSWER": None,
            key: fields.String(validate=validate.OneOf(values), metadata=fields_of(schema_cls)[key].metadata),
            **_own_fields(record, kind, schema_cls, answered),
        }
        attrs["DESCRIPTION"] = attrs["__doc__"]
        out.append((type(f"{name}{family_title(family_id)}Schema", (schema_cls,), attrs), values))
    return out


def _has(record: Family, need: str) -> bool:
    value = getattr(record, need)
    return value if isinstance(value, bool) else record.part(need) is not None


def _own_fields(
    record: Family, kind: str, schema_cls: type[OutSchema], answered: Callable[[fields.Field], None]
) -> dict[str, fields.Field]:
    """The fields of the family's *kind* shape that the shared answer also has."""
    answers = record.part("answers")
    own = getattr(answers, kind, None) if answers is not None else None
    if own is None:
        return {}
    out = {}
    shared = fields_of(schema_cls)
    for key, field in fields_of(own).items():
        if key in shared:
            out[key] = field
            answered(field)
    return out


def fields_of(schema_cls: type[Schema]) -> dict[str, fields.Field]:
    """*schema_cls*'s declared fields, fresh copies (marshmallow's public ``declared_fields`` of
    an instance; the class's own table is a private name)."""
    return dict(schema_cls().declared_fields)
