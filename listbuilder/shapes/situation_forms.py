"""The builder's preview form, read from the family's situation schema: what
``GET /api/v1/systems/<id>`` serves as ``preview`` (``listbuilder.shapes.api.PreviewFormOut``),
so the browser never names a family.

Each field of the schema that reads a preview request's ``situation`` is one input of the form,
in the order the schema declares them. The field says most of it itself:

- the kind of input: a boolean is a checkbox, a whole number a number, a string with a fixed
  set of words (``OneOf``) a select, any other string a text box (fields of other kinds, nested
  states and lists, are left to the page's JSON box and named in ``other_keys``);
- its range (``Range``) or longest text (``Length``), its words, and its default
  (``load_default``: what the engine assumes when the key is left out).

Its ``metadata`` adds what the form needs beyond that, each key optional:

- ``label``: the words beside the input (default: the key in words, ``"Defender speed"``);
- ``when``: the attack kind that shows it (and sends it), a word of the ``attack`` field;
- ``choices``: words for a select's choices, ``{"melee": "Close combat"}`` (default: in words);
- ``choices_from``: a list of the system's composition the choices are (armour-hex
  ``"speeds"``), shown with the default first; the field itself may be any string;
- ``initial``: the value the form starts with, when not the default (a suggestion: ``12``);
- ``min``, ``max``: a narrower range than the field takes;
- ``form``: ``False`` leaves the field out of the form (typed in as JSON instead).

Two things no single field can say are the schema's own, both optional: ``FORM_ORDER``, the
inputs' names in the form's order when that is not the order of declaration (the OPR fields
come from two classes, the hex ones in the order of their engine's ``Situation``), and
``COMPARISONS``, the attacks a loadout comparison offers (families whose engine counts wounds;
by default one per word of ``attack``).

A family with no engine has no previews and an empty form; one with an engine and no
situation schema an empty form (the JSON box alone).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from marshmallow import Schema, fields, missing, validate

from listbuilder.families import FAMILIES, Family
from listbuilder.model import GameSystem

CHECKBOX, NUMBER, SELECT, TEXT = "checkbox", "number", "select", "text"
ATTACK = "attack"  # the field whose words a ``when`` names

NO_PREVIEWS: dict[str, Any] = {
    "available": False,
    "counts_wounds": False,
    "attack_input": None,
    "inputs": [],
    "other_keys": [],
    "comparisons": [],
}


@dataclass(frozen=True)
class Comparison:
    """An attack a loadout comparison offers: its label, the attack kind (a word of the
    ``attack`` field) and the situation's flags set true for it."""

    label: str
    attack: str
    flags: tuple[str, ...] = ()


def preview_form(system: GameSystem) -> dict[str, Any]:
    """The ``preview`` of *system*: its family's form, with the choices that come from its
    composition. Raises ValueError when the schema's ``FORM_ORDER`` is not its inputs. (The
    engine is not imported: the record names one or not.)"""
    family = FAMILIES.get(system.family)
    if family is None or family.engine is None:
        return dict(NO_PREVIEWS)
    schema_cls = family.part("situation_schema")
    declared = _fields_of(schema_cls) if schema_cls is not None else {}
    shown = [name for name, f in declared.items() if kind_of(f) and f.metadata.get("form", True)]
    order = getattr(schema_cls, "FORM_ORDER", None) or shown
    if sorted(order) != sorted(shown):
        raise ValueError(f"{schema_cls.__name__}.FORM_ORDER names {sorted(order)}, its inputs are {sorted(shown)}")
    inputs = [_input(name, declared[name], system.composition) for name in order]
    attack = next((i for i in inputs if i["name"] == ATTACK and i["kind"] == SELECT), None)
    return {
        "available": True,
        "counts_wounds": family.counts_wounds,
        "attack_input": ATTACK if attack else None,
        "inputs": inputs,
        "other_keys": [name for name in declared if name not in order],
        "comparisons": _comparisons(family, getattr(schema_cls, "COMPARISONS", ()), attack),
    }


def humanize(name: str) -> str:
    """``"front_side"`` -> ``"Front side"`` (as the browser's ``humanize`` words a key)."""
    words = name.replace("_", " ")
    return words[:1].upper() + words[1:]


def kind_of(schema_field: fields.Field[Any]) -> str | None:
    """The input a field shows as, or None for one the form cannot show."""
    if isinstance(schema_field, fields.Boolean):
        return CHECKBOX
    if isinstance(schema_field, fields.Integer):
        return NUMBER
    if isinstance(schema_field, fields.String):
        choices = schema_field.metadata.get("choices_from") or _validator(schema_field, validate.OneOf)
        return SELECT if choices else TEXT
    return None


@cache
def _fields_of(schema_cls: type[Schema]) -> Mapping[str, fields.Field[Any]]:
    """The fields of a situation schema, in the order it declares them (one instance a class)."""
    return dict(schema_cls().fields)


def _validator(schema_field: fields.Field[Any], kind: type) -> Any:
    return next((v for v in schema_field.validators if isinstance(v, kind)), None)


def _default(schema_field: fields.Field[Any]) -> Any:
    value = schema_field.load_default
    if value is missing:
        return None
    return value() if callable(value) else value


def _input(name: str, schema_field: fields.Field[Any], composition: Mapping[str, Any]) -> dict[str, Any]:
    meta, kind = schema_field.metadata, kind_of(schema_field)
    default = _default(schema_field)
    bounds = _validator(schema_field, validate.Range)
    length = _validator(schema_field, validate.Length)
    choices = _choices(schema_field, composition, default) if kind == SELECT else []
    initial = meta.get("initial", default)
    if kind == SELECT and initial not in [c["value"] for c in choices]:
        initial = choices[0]["value"] if choices else None
    elif kind == CHECKBOX:
        initial = bool(initial)
    return {
        "name": name,
        "kind": kind,
        "label": meta.get("label") or humanize(name),
        "default": default,
        "initial": initial,
        "min": meta.get("min", getattr(bounds, "min", None)) if kind == NUMBER else None,
        "max": meta.get("max", getattr(bounds, "max", None)) if kind == NUMBER else None,
        "max_length": getattr(length, "max", None) if kind == TEXT else None,
        "when": meta.get("when"),
        "choices": choices,
        "choices_from": meta.get("choices_from"),
    }


def _choices(schema_field: fields.Field[Any], composition: Mapping[str, Any], default: Any) -> list[dict[str, str]]:
    """A select's choices with their words: the field's (``OneOf``), or the composition list
    its ``choices_from`` names (ids, or ``{id, name}``), the default first."""
    words: Mapping[str, str] = schema_field.metadata.get("choices", {})
    listed = schema_field.metadata.get("choices_from")
    if listed is None:
        return [
            {"value": w, "label": words.get(w) or humanize(w)} for w in _validator(schema_field, validate.OneOf).choices
        ]
    out = []
    for entry in composition.get(listed) or ():
        if isinstance(entry, Mapping):
            out.append({"value": entry["id"], "label": entry.get("name") or entry["id"]})
        else:
            out.append({"value": entry, "label": words.get(entry) or humanize(entry)})
    return sorted(out, key=lambda c: c["value"] != default)


def _comparisons(
    family: Family, declared: tuple[Comparison, ...], attack: dict[str, Any] | None
) -> list[dict[str, Any]]:
    """The attacks a loadout comparison offers: none unless the family's engine counts wounds."""
    if not family.counts_wounds:
        return []
    given = declared or tuple(Comparison(c["label"], c["value"]) for c in (attack or {}).get("choices", ()))
    return [{"label": c.label, "attack": c.attack, "flags": list(c.flags)} for c in given]
