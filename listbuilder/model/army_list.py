"""Army lists as a player submits them: entries, their upgrade rows, and the list around them.

Why a module of its own: a list names units and options of a book by id and holds no book
values, so it depends on nothing else in the model; the book side (units, sections, gear) is
in ``listbuilder.model``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple


class ChosenUpgrade(NamedTuple):
    """One upgrade row of an entry: an option of a section, bought *count* times.

    A NamedTuple rather than a frozen dataclass: every validation makes one per row and looks
    the rows up in the book's resolution memo (``listbuilder.resolve``), and a tuple is made,
    hashed and compared in C, where a dataclass runs Python for each.
    """

    section: str
    option: str
    count: int = 1  # type: ignore[assignment]  # the list format's name; it hides tuple.count


@dataclass(frozen=True, init=False)
class ListEntry:
    """One unit in a submitted list, keyed so that others can refer to it."""

    key: str
    unit: str
    name: str = ""
    notes: str = ""
    upgrades: tuple[ChosenUpgrade, ...] = ()
    combined_with: str | None = None
    joined_to: str | None = None
    spells: tuple[str, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)

    def __init__(
        self,
        key: str,
        unit: str,
        name: str = "",
        notes: str = "",
        upgrades: tuple[ChosenUpgrade, ...] = (),
        combined_with: str | None = None,
        joined_to: str | None = None,
        spells: tuple[str, ...] = (),
        extra: Mapping[str, Any] | None = None,
    ):
        # The dataclass's own __init__ (frozen) sets each field through object.__setattr__; a
        # validation makes one entry per unit, and filling the dict at once costs a third of that.
        # The fields and their defaults are the ones above (tests/formats/test_lists.py checks).
        self.__dict__.update(
            key=key,
            unit=unit,
            name=name,
            notes=notes,
            upgrades=upgrades,
            combined_with=combined_with,
            joined_to=joined_to,
            spells=spells,
            extra={} if extra is None else extra,
        )


@dataclass(frozen=True)
class ArmyList:
    """A submitted army list, as the API contract names it."""

    system: str
    book: str
    units: tuple[ListEntry, ...]
    points_limit: int | None = None
    force_org: bool | None = None
    name: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
