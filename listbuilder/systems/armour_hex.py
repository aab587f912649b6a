"""The armour-hex family (rulebook 004): four budgets, hand slots, elites and huge units.

Clause names in comments cite ``shared/rules/004_1c6bb6c5c2233a32.txt`` by its headings
("Build your army", "Angles", "Damage Table", "Unit Abilities and conditions" ...). Every
number the rules need (game modes, currencies, hand slots, the nations) comes from
``army_books/armour-hex/_system.yaml`` so the data stays in one place.

Interpretations (also in the system notes and ``docs/systems/armour-hex.md``):

- "the total cost is less than the total amount of points" is read as *not more than*:
  spending a budget exactly is legal (``spend: at_most``; ``below`` switches to the strict
  reading);
- the asymmetric armoured side divides 12 points over MP, CP and XP: a written division
  (the list's budget) must add up to 12 exactly and is then checked currency by currency; with
  no written division the three currencies are checked together against 12;
- upgrades are applied in list order; gear given to "some models" goes to the models with the
  most free hands, elite-only gear to elites, so the per-model loadout is the best the player
  could have meant.

The work is shared out: :mod:`~listbuilder.systems.armour_hex_books` checks a loaded book,
:mod:`~listbuilder.systems.armour_hex_budget` settles and checks the budget, and
:mod:`~listbuilder.systems.armour_hex_loadout` hands upgrades out model by model; this class
ties them to the family's hooks.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from listbuilder.model import ArmyBook, ArmyList, GameSystem
from listbuilder.resolve import ResolvedEntry
from listbuilder.resolve.deployment import count_totals
from listbuilder.systems.armour_hex_books import BookChecks
from listbuilder.systems.armour_hex_budget import Budgets
from listbuilder.systems.armour_hex_loadout import Loadouts
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import ERROR, Issue, ValidationReport

HUGE = "huge"


class ArmourHexRules(SystemRules):
    # 004 "Victory Condition", "Tournament style: FIXED TIME": match and tournament victory points.
    tournament_scoring = "victory-points"
    ISSUE_CODES: ClassVar[Mapping[str, str]] = {
        "game_mode.unknown": "The list names a game mode the system does not have.",
        "game_mode.budget_mismatch": "The list names a game mode and gives a budget that is not the mode's.",
        "budget.ip": "More industry points (IP) spent than the budget allows.",
        "budget.mp": "More manpower points (MP) spent than the budget allows.",
        "budget.cp": "More craft points (CP) spent than the budget allows.",
        "budget.xp": "More experience points (XP) spent than the budget allows.",
        "budget.split": "The asymmetric side's free points are divided wrongly or overspent.",
        "loadout.hands": "An infantry model carries more than its hands hold (one two-handed or two one-handed items).",
        "loadout.shared": "A unit has more than one shared weapon.",
        "upgrade.elites": "More elite models than the unit has models.",
        "upgrade.elite_only": "Elite-only equipment bought more often than there are elites to carry it (or with no elite).",
        "declare.huge": "The list has a huge unit: tell the opponent before they build their army.",
    }

    def __init__(self, system: GameSystem):
        super().__init__(system)
        self.budgets = Budgets(system.composition)
        self.loadouts = Loadouts(system.composition["loadout"])
        self.book_checks = BookChecks(system, self.loadouts, self.budgets.currencies)

    # -- data --------------------------------------------------------------------------------

    @property
    def composition(self) -> Mapping[str, Any]:
        return self.system.composition

    @property
    def currencies(self) -> tuple[str, ...]:
        return self.budgets.currencies

    def describe(self) -> dict[str, Any]:
        limit = (
            "at most the budget (spending it exactly is legal)"
            if self.composition["spend"] == "at_most"
            else "strictly below the budget"
        )
        return {
            "composition": dict(self.composition),
            "currencies": list(self.currencies),
            "default_mode": self.composition["default_mode"],
            "spend": limit,
            "game_modes": [
                {
                    "id": m["id"],
                    "name": m["name"],
                    "description": m["description"],
                    "budget": dict(m["budget"]),
                    "split": dict(m["split"]) if m.get("split") else None,
                }
                for m in self.composition["game_modes"]
            ],
            "custom_budget": 'send "budget": {"ip": .., "mp": .., "cp": .., "xp": ..} without a game_mode',
            "limits": {
                "model_counts": list(self.composition["model_counts"]),
                "hand_slots": self.composition["loadout"]["hand_slots"],
                "shared_weapons_per_unit": self.composition["loadout"]["shared_per_unit"],
                "upgrade_currencies": list(self.composition["upgrade_currencies"]),
                "huge_units": f"reported as {self.composition['huge']['severity']} (declare.huge)",
            },
            "notes": list(self.system.notes),
        }

    # -- books -------------------------------------------------------------------------------

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        return self.book_checks.check_book(book)

    # -- lists -------------------------------------------------------------------------------

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        spent = self.spent(resolved)
        budget, budget_issues = self.budgets.settle(army)
        issues.extend(budget_issues)
        if budget is not None:
            issues.extend(self.budgets.spending(spent, budget))
        elites = 0
        for entry in resolved:
            entry_elites, entry_issues = self.loadouts.models_of(entry, book)
            elites += entry_elites
            issues.extend(entry_issues)
        huge = [r for r in resolved if r.unit.stat("size_class") == HUGE]
        issues.extend(self._huge(huge))
        totals: dict[str, Any] = {c: spent[c] for c in self.currencies}
        totals.update(
            {
                **count_totals(army, resolved),
                "elites": elites,
                "huge": [r.unit.id for r in huge],
                "game_mode": budget.mode if budget else army.extra.get("game_mode"),
            }
        )
        totals.update(self.budgets.totals(spent, budget))
        return ValidationReport.of(issues, totals, resolved)

    # huge units ------------------------------------------------------------------------------

    def _huge(self, huge: list[ResolvedEntry]) -> Iterator[Issue]:
        """An issue per huge entry (*huge*: the list's huge entries, in list order)."""
        rules = self.composition["huge"]
        for entry in huge:
            # 004 Huge units: name every huge unit to the opponent before they build their army.
            yield Issue(
                "declare.huge",
                f"{entry.name} is huge: tell your opponent before they build their list",
                entry.path,
                rules["clause"],
                severity=rules.get("severity", ERROR),
                data={"unit": entry.unit.id, "name": entry.name},
            )
