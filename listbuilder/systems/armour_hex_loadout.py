"""The armour-hex loadout allocator: an entry's upgrades handed out model by model (rulebook 004).

The resolver prices the rows and checks the counts a section allows; only a per-model view
sees hands (one two-handed or two one-handed items per infantry model), shared weapons (one
per unit), elites (never more than models) and elite-only gear (one per elite). Gear given to
"some models" goes to the models with the most free hands, elite-only gear to elites, so the
loadout checked is the best the player could have meant. Pure: book data in, issues out.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from operator import attrgetter
from typing import Any, NamedTuple

from listbuilder.model import AFFECTS_ALL, AFFECTS_UNIT, ArmyBook, Item, Unit, UpgradeOption, UpgradeSection, Weapon
from listbuilder.resolve import ResolvedEntry, TakenUpgrade
from listbuilder.validation import Issue

BUILD = "004 Build your army"
INFANTRY = "infantry"


def is_elite(option: UpgradeOption) -> bool:
    """An elite option is a better model that takes a regular model's place (004 Build your army)."""
    return bool(option.extra.get("elite"))


def option_ref(book: ArmyBook, ref: str) -> UpgradeOption | None:
    """The option a ``"section/option"`` reference names, or None."""
    section_id, _, option_id = ref.partition("/")
    section = book.sections.get(section_id)
    return section.option(option_id) if section else None


class _Model:
    """One model of an infantry unit while upgrades are handed out (working state only; two
    models with the same gear are still two models, so no equality).

    ``hands`` is kept equal to the hands its gear fills (each piece's slot weight, counting only
    gear it holds), so ranking models by free hands never re-adds their gear. ``gear`` keeps
    names in the order the model got them (the loadout message lists them so).
    """

    __slots__ = ("number", "gear", "hands", "elite_as", "taken")

    def __init__(self, number: int, gear: dict[str, int] | None = None, hands: int = 0):
        self.number = number
        self.gear: dict[str, int] = {} if gear is None else gear  # gear name -> copies held
        self.hands = hands
        self.elite_as: str | None = None  # "section/option" of the elite it became
        self.taken: tuple[str, ...] = ()  # "section/option" of every row it took

    def add(self, name: str, copies: int, weight: int) -> None:
        gear = self.gear
        before = gear.get(name, 0)
        gear[name] = after = before + copies
        if weight:  # copies below zero (gear replaced that was never there) fill no hands
            self.hands += weight * ((after if after > 0 else 0) - (before if before > 0 else 0))

    def holds(self, names: tuple[str, ...]) -> bool:
        """Whether it has at least one of each gear name (a replacement needs them all)."""
        gear = self.gear
        for name in names:
            if gear.get(name, 0) <= 0:
                return False
        return True

    def hands_after(self, changes: Mapping[str, int], weights: Mapping[str, int]) -> int:
        """The hands it would fill after *changes* (gear name -> copies added or removed)."""
        hands = self.hands
        gear = self.gear
        for name, copies in changes.items():
            weight = weights[name]
            if weight:
                held = gear.get(name, 0)
                after = held + copies
                hands += weight * ((after if after > 0 else 0) - (held if held > 0 else 0))
        return hands

    def equip(
        self,
        replaces: tuple[str, ...],
        personal: list[tuple[str, int]],
        copies: int,
        key: str,
        elite: bool,
        weights: Mapping[str, int],
    ) -> None:
        for name in replaces:
            self.add(name, -copies, weights.get(name, 0))
        for name, n in personal:
            self.add(name, n * copies, weights[name])
        if elite:
            self.elite_as = key
        self.taken += (key,)


@dataclass(frozen=True)
class _Kit:
    """What handing out one unit's upgrades starts from, derived once per unit (book data,
    never changed: each entry works on copies). The unit's own gear is dealt out one copy per
    model; shared weapons are counted for the unit instead."""

    unit: Unit
    models: tuple[tuple[Mapping[str, int], int], ...]  # per model: gear name -> copies, hands filled
    shared: int  # shared weapons the unit starts with
    slots_of: Mapping[str, str]  # gear name -> hand slot, for the unit's own gear
    weights: Mapping[str, int]  # gear name -> hands that slot fills
    hand_slots: int
    shared_slots: int
    infantry: bool


class _Offer(NamedTuple):
    """An upgrade option as the hand-out reads it, derived once per option (book data)."""

    option: UpgradeOption
    key: str  # "section/option", as requires and elites name it
    elite: bool
    gear: tuple[tuple[str, int, str], ...]  # (name, copies, slot) of each piece gained, weapons first


_by_hands = attrgetter("hands")


class Loadouts:
    """The allocator of one armour-hex system, reading its ``loadout`` composition (slots and
    their hand weights, the default slots, hands and shared weapons per model and unit).

    Book data it derives once is kept per unit (see :meth:`kit`) and per option (see
    :meth:`offer`), by identity: units and options are unhashable frozen data, and the value
    keeps the object so that a recycled id is never taken for it.
    """

    def __init__(self, loadout: Mapping[str, Any]):
        self.loadout = loadout
        self._kits: dict[int, _Kit] = {}
        self._offers: dict[int, _Offer] = {}

    def slot(self, gear: Weapon | Item) -> str:
        """Which hand slot a piece of gear takes; the rulebook default when the book is silent."""
        stated = gear.extra.get("hands")
        if stated:
            return str(stated)
        # 004 Build your army: an infantry weapon is two-handed unless stated otherwise.
        return str(self.loadout["default_weapon"] if isinstance(gear, Weapon) else self.loadout["default_item"])

    def hand_slots(self, unit: Unit) -> int:
        return int(unit.stat("hand_slots") or self.loadout["hand_slots"])

    def shared_slots(self, unit: Unit) -> int:
        stated = unit.stat("shared_slots")
        return int(stated if stated is not None else self.loadout["shared_per_unit"])

    def weigh(self, name: str, own_slot: str, slots_of: dict[str, str], weights: dict[str, int]) -> str:
        """Record the slot of a gear name, and that slot's hand weight, on first sight (the first
        piece seen names the slot); its slot."""
        slot = slots_of.setdefault(name, own_slot)
        weights.setdefault(name, self.loadout["slots"].get(slot, 0))
        return slot

    def base_overload(self, unit: Unit) -> str | None:
        """Why the gear the unit starts with is too much for one of its models, or None."""
        kit = self.kit(unit)
        for number, (_, hands) in enumerate(kit.models):
            if hands > kit.hand_slots:
                return f"model {number + 1} starts with {hands} hands of gear; it has {kit.hand_slots}"
        return None

    def kit(self, unit: Unit) -> _Kit:
        """The unit's :class:`_Kit`, derived on first use (books never change once loaded)."""
        kit = self._kits.get(id(unit))
        if kit is None or kit.unit is not unit:
            models = [_Model(k) for k in range(unit.size)]
            shared = 0
            slots_of: dict[str, str] = {}
            weights: dict[str, int] = {}
            gears: tuple[Weapon | Item, ...] = (*unit.weapons, *unit.items)
            for gear in gears:
                if self.weigh(gear.name, self.slot(gear), slots_of, weights) == "shared":
                    shared += gear.count
                    continue
                for k in range(gear.count):
                    models[k % unit.size].add(gear.name, 1, weights[gear.name])
            kit = self._kits[id(unit)] = _Kit(
                unit,
                tuple((m.gear, m.hands) for m in models),
                shared,
                slots_of,
                weights,
                self.hand_slots(unit),
                self.shared_slots(unit),
                unit.stat("unit_type") == INFANTRY,
            )
        return kit

    def offer(self, section: UpgradeSection, option: UpgradeOption) -> _Offer:
        """The option's :class:`_Offer`, derived on first use."""
        offer = self._offers.get(id(option))
        if offer is None or offer.option is not option:
            gains: tuple[Weapon | Item, ...] = (*option.gains.weapons, *option.gains.items)
            gear = tuple((g.name, g.count, self.slot(g)) for g in gains)
            offer = self._offers[id(option)] = _Offer(option, f"{section.id}/{option.id}", is_elite(option), gear)
        return offer

    def models_of(self, entry: ResolvedEntry, book: ArmyBook) -> tuple[int, list[Issue]]:
        """Hand out the entry's upgrades model by model; the number of elites and the issues.

        The work depends on the resolution (unit and rows) and the entry's name only, so it is
        kept with the resolution and done again only when the entry changes.
        """
        derived = entry.resolution.derived
        found = derived.get(("models", entry.name))
        if found is None:
            found = derived[("models", entry.name)] = self.hand_out(entry, book)
        elites, relative = found
        return elites, [replace(i, path=entry.path + i.path) for i in relative] if relative else []

    def hand_out(self, entry: ResolvedEntry, book: ArmyBook) -> tuple[int, tuple[Issue, ...]]:
        """:meth:`models_of`'s work; issue paths relative to the entry (``.upgrades[2]``)."""
        kit = self.kit(entry.unit)
        if not entry.taken:  # the unit as the book gives it: only its own shared weapons to count
            return 0, _shared_issues(entry, kit, kit.shared, None, self.loadout["clause"])
        work = _HandOut(self, entry, book, kit)
        elites = work.count_elites()
        for taken, offer in work.rows:
            work.give(taken, offer)
        if kit.infantry:
            work.report_overloads()
        work.issues.extend(_shared_issues(entry, kit, work.shared, work.shared_row, self.loadout["clause"]))
        return elites, tuple(work.issues)


def _shared_issues(entry: ResolvedEntry, kit: _Kit, shared: int, row: int | None, clause: str) -> tuple[Issue, ...]:
    # 004 Build your army: a unit may have a maximum of one shared weapon.
    if shared <= kit.shared_slots:
        return ()
    return (
        Issue(
            "loadout.shared",
            f"{entry.name} has {shared} shared weapons, at most {kit.shared_slots}",
            f".upgrades[{row}]" if row is not None else "",
            clause,
            data={"shared": shared, "max": kit.shared_slots},
        ),
    )


class _HandOut:
    """The working state of one entry's hand-out: its models, the gear slots met so far, the
    shared weapons counted, and the issues found (paths relative to the entry)."""

    def __init__(self, loadouts: Loadouts, entry: ResolvedEntry, book: ArmyBook, kit: _Kit):
        self.loadouts = loadouts
        self.entry = entry
        self.book = book
        self.kit = kit
        self.rows = [(taken, loadouts.offer(taken.section, taken.option)) for taken in entry.taken]
        self.models = [_Model(number, dict(gear), hands) for number, (gear, hands) in enumerate(kit.models)]
        self.shared = kit.shared
        self.slots_of, self.weights = dict(kit.slots_of), dict(kit.weights)
        self.cap = kit.hand_slots
        self.issues: list[Issue] = []
        self.first_overload: dict[int, int] = {}  # model number -> the first row that overloaded it
        self.shared_row: int | None = None

    def count_elites(self) -> int:
        unit = self.entry.unit
        elites = 0
        for taken, offer in self.rows:
            if offer.elite:
                elites += taken.models
        # 004 Build your army: an elite replaces a regular model, so there are never more elites than models.
        if elites > unit.size:
            last = [taken for taken, offer in self.rows if offer.elite][-1]
            self.issues.append(
                Issue(
                    "upgrade.elites",
                    f"{self.entry.name} has {unit.size} models but {elites} elites",
                    f".upgrades[{last.index}]",
                    BUILD,
                    data={"models": unit.size, "elites": elites},
                )
            )
        return elites

    def give(self, taken: TakenUpgrade, offer: _Offer) -> None:
        """Hand one upgrade row out: shared gear to the unit, the rest to the models it affects."""
        section, count = taken.section, taken.models
        affects, replaces, key = section.affects, section.replaces, offer.key
        weights = self.weights
        personal: list[tuple[str, int]] = []
        for name, copies, own_slot in offer.gear:
            if self.loadouts.weigh(name, own_slot, self.slots_of, weights) == "shared":
                self.shared += copies * (1 if affects == AFFECTS_UNIT else count)
                if self.shared > self.kit.shared_slots and self.shared_row is None:
                    self.shared_row = taken.index
            else:
                personal.append((name, copies))
        if affects == AFFECTS_UNIT:
            # Gear bought for the unit goes, copy by copy, to the model with most free hands
            # (the first such model: models stay in number order).
            for name, copies in personal:
                for _ in range(copies):
                    target = min(self.models, key=_by_hands)
                    target.add(name, 1, weights[name])
                    self._check_hands(target, taken.index)
            return
        if affects == AFFECTS_ALL:
            for model in self.models:
                if not replaces or model.holds(replaces):
                    copies = min(model.gear[n] for n in replaces) if replaces else 1
                    model.equip(replaces, personal, copies, key, offer.elite, weights)
                    self._check_hands(model, taken.index)
            return
        for model in self._takers(taken, offer, personal):
            model.equip(replaces, personal, 1, key, offer.elite, weights)
            self._check_hands(model, taken.index)

    def _check_hands(self, model: _Model, row: int) -> None:
        if model.hands > self.cap:
            self.first_overload.setdefault(model.number, row)

    def _takers(self, taken: TakenUpgrade, offer: _Offer, personal: list[tuple[str, int]]) -> list[_Model]:
        """The models a row for some models goes to: those that can take it, then the ones
        left with the most free hands (the first of equals)."""
        option, count, replaces = taken.option, taken.models, taken.section.replaces
        candidates = [m for m in self.models if m.holds(replaces)] if replaces else self.models
        if offer.elite:
            candidates = [m for m in candidates if m.elite_as is None]
        if option.elite_only:
            candidates = self._elites_for(taken, offer, candidates)
        if count < len(candidates):
            changes: dict[str, int] = {}
            for name in replaces:
                changes[name] = changes.get(name, 0) - 1
            for name, copies in personal:
                changes[name] = changes.get(name, 0) + copies
            filled = [m.hands_after(changes, self.weights) for m in candidates]  # hands each would fill
            if count == 1:
                candidates = [candidates[filled.index(min(filled))]]
            else:  # a stable sort: equals stay in model order
                candidates = [candidates[k] for k in sorted(range(len(candidates)), key=filled.__getitem__)[:count]]
        return candidates

    def _elites_for(self, taken: TakenUpgrade, offer: _Offer, candidates: list[_Model]) -> list[_Model]:
        """The elites that may still take an elite-only option; an issue when too few are left."""
        option, count, key = taken.option, taken.models, offer.key
        wanted = {ref for ref in option.requires if (o := option_ref(self.book, ref)) is not None and is_elite(o)}
        candidates = [
            m
            for m in candidates
            if m.elite_as is not None and (not wanted or m.elite_as in wanted) and key not in m.taken
        ]
        # 004 Build your army: elite equipment is paid per elite, and only as long as elites are left.
        # (A required option that is missing altogether is the resolver's upgrade.requires.)
        bought = {o.key for _, o in self.rows}
        missing = any(ref not in bought for ref in option.requires)
        if len(candidates) < count and not missing:
            holders = sum(1 for m in self.models if m.elite_as is not None and (not wanted or m.elite_as in wanted))
            eventual = sum(t.models for t, o in self.rows if o.elite and (not wanted or o.key in wanted))
            self.issues.append(
                Issue(
                    "upgrade.elite_only",
                    f"“{option.label}” bought {count} time(s) but only {len(candidates)} elite(s) of {self.entry.name} can still take it"
                    + (" (list the elites before their equipment)" if holders < count <= eventual else ""),
                    f".upgrades[{taken.index}]",
                    BUILD,
                    data={"bought": count, "elites": holders, "free": len(candidates)},
                )
            )
        return candidates

    def report_overloads(self) -> None:
        # 004 Build your army: one two-handed or two one-handed items per infantry model.
        slot_weights = self.loadouts.loadout["slots"]
        for number in sorted(self.first_overload):
            model = self.models[number]
            used = model.hands
            if used <= self.cap:
                continue  # a later replacement freed the hands again
            carried = ", ".join(
                f"{name} ({self.slots_of[name].replace('_', '-')})" + (f" x{n}" if n > 1 else "")
                for name, n in model.gear.items()
                if n > 0 and slot_weights.get(self.slots_of[name], 0)
            )
            self.issues.append(
                Issue(
                    "loadout.hands",
                    f"{self.entry.name}, model {number + 1}{' (elite)' if model.elite_as else ''}: {carried} need {used} hands, a model has {self.cap}",
                    f".upgrades[{self.first_overload[number]}]",
                    self.loadouts.loadout["clause"],
                    data={"model": number + 1, "hands": used, "slots": self.cap},
                )
            )
