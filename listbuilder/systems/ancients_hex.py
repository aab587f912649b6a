"""The ancients-hex family: hex battles of ancients and fantasy (rulebook 003).

Army building in 003 is short: a points limit (400), a keyword-troop minimum (150), a small
allowance over the limit paid for in opponent VP, magicians choosing spells before the game,
and attributes that change what a list may contain (Attachment joins an Advance unit). Each
rule below cites its clause as ``003 §N``. Interpretations the text leaves open are written
next to the code and collected in ``docs/systems/ancients-hex.md``:

- the keyword minimum scales with the agreed limit: ``ceil(150 * limit / 400)``;
- the overage allowance (5 points) does not scale: the text states it as a number of points
  and prices it point by point (1 opponent VP per 2 points over, rounded up);
- an attachment joins one unit that has Advance (or Advance+/-, Massed or Mob, which the
  glossary defines as Advance variants); it cannot join a unit that is itself attached;
- "Spy (max 2)" limits an army to two Spy units.

Pure core: no YAML, Flask or marshmallow here.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import Any, ClassVar

from listbuilder.model import ArmyBook, ArmyList, GameSystem, has_rule, rule_rating, spell_chart
from listbuilder.resolve import ResolvedEntry
from listbuilder.resolve.deployment import count_totals
from listbuilder.systems.ancients_hex_books import VP, BookChecks
from listbuilder.systems.rules import SystemRules
from listbuilder.validation import ERROR, WARNING, Issue, ValidationReport


def opponent_vp(over: int, points_per_vp: int) -> int:
    """003 §1.0: each 2 points (or part of 2) over the limit gives the opponent 1 starting VP."""
    return math.ceil(over / points_per_vp) if over > 0 else 0


def keyword_required(limit: int, minimum: int, per_points: int) -> int:
    """The keyword-troop minimum at *limit*: 150 at 400, scaled in proportion, rounded up.

    The rulebook states the minimum for the standard 400-point game only. Scaling keeps the
    share (37.5%) the same at any agreed size, and rounding up never lets a list fall short.
    """
    return math.ceil(minimum * limit / per_points)


class AncientsHexRules(SystemRules):
    ISSUE_CODES: ClassVar[Mapping[str, str]] = {
        "points.over_limit": "The list costs more than the agreed limit plus the overage allowance (over 405 at 400).",
        "points.overage": "Warning: the list is over the limit but within the allowance; data.opponent_vp is the opponent's starting VP.",
        "keyword.minimum": "Keyword troops cost less than the minimum (150 points at 400, scaled to the agreed limit).",
        "spells.not_magician": "Spells are chosen for a unit without the Magician attribute.",
        "spells.too_many": "A magician chooses more spells than its Magician number.",
        "spells.duplicate": "A magician chooses the same spell twice.",
        "spells.unknown": "The spell id is in neither the system's spell chart nor the army book.",
        "spells.limited": "A limited spell (6.8) is chosen by a magician who is not one of its named users.",
        "join.unknown_key": "joined_to names a key that is not in the list.",
        "join.self": "An entry is joined to itself.",
        "join.not_attachment": "Only units with the Attachment attribute may join another unit.",
        "join.no_advance": "An attachment may only join a unit with Advance (or an Advance variant).",
        "join.chain": "An attachment joins a unit that is itself attached to another.",
        "combined.unsupported": "ancients-hex has no combined units; combined_with is not used.",
        "attribute.limit": "More units with a limited attribute than the army may field (Spy: at most 2).",
    }

    # -- data --------------------------------------------------------------------------------

    @property
    def composition(self) -> Mapping[str, Any]:
        return self.system.composition

    def default_points(self) -> int:
        return int(self.composition["points"]["default"])

    def keyword_minimum(self, limit: int) -> int:
        rule = self.composition["keyword"]
        return keyword_required(limit, rule["minimum"], rule["per_points"])

    def describe(self) -> dict[str, Any]:
        points = self.composition["points"]
        overage = self.composition["overage"]
        sizes = points.get("suggested") or [self.default_points()]
        return {
            "composition": dict(self.composition),
            "points_default": self.default_points(),
            "currency": VP,
            "activation": dict(self.composition["activation"]),
            "overage_allowance": overage["allowance"],
            "limits": {
                str(size): {
                    "points": size,
                    "keyword_minimum": self.keyword_minimum(size),
                    "legal_up_to": size + overage["allowance"],
                    "opponent_vp_at_most": opponent_vp(overage["allowance"], overage["points_per_vp"]),
                }
                for size in sizes
            },
            "keyword_scaling": f"ceil({self.composition['keyword']['minimum']} * limit / {self.composition['keyword']['per_points']})",
        }

    # -- books -------------------------------------------------------------------------------

    def check_book(self, book: ArmyBook) -> list[tuple[str, str]]:
        return BookChecks(self.system).check_book(book)

    # -- lists -------------------------------------------------------------------------------

    def validate(self, army: ArmyList, book: ArmyBook) -> ValidationReport:
        resolved, issues = self.resolve(army, book)
        limit = army.points_limit or self.default_points()
        spent = self.spent(resolved)[VP]
        keyword_spent = sum(r.cost[VP] for r in resolved if r.unit.stat("keyword"))
        issues.extend(self._points(spent, limit))
        issues.extend(self._keyword(keyword_spent, limit, resolved, book))
        issues.extend(_spell_choices(self.system, self.composition["magician_rule"], resolved, book))
        issues.extend(self._attachments(army, resolved))
        issues.extend(self._attribute_limits(resolved))
        issues.extend(self._unsupported(army))
        overage = self.composition["overage"]
        totals = {
            VP: spent,
            **count_totals(army, resolved),
            "limit": {VP: limit},
            "left": {VP: limit - spent},
            "legal_up_to": {VP: limit + overage["allowance"]},
            "opponent_vp": opponent_vp(spent - limit, overage["points_per_vp"])
            if spent <= limit + overage["allowance"]
            else None,
            "keyword": {VP: keyword_spent, "required": self.keyword_minimum(limit)},
            "magicians": sum(1 for r in resolved if self._magic(r) > 0),
        }
        return ValidationReport.of(issues, totals, resolved)

    def _points(self, spent: int, limit: int) -> Iterator[Issue]:
        overage = self.composition["overage"]
        clause = overage["clause"]
        over = spent - limit
        if over <= 0:
            return
        # 003 §1.0: up to 5 points over is legal, the opponent starting with 1 VP per 2 over (rounded up).
        if over <= overage["allowance"]:
            vp = opponent_vp(over, overage["points_per_vp"])
            yield Issue(
                "points.overage",
                f"{spent} VP is {over} over {limit}: legal, and the opponent begins the game with {vp} VP",
                "points_limit",
                clause,
                WARNING,
                data={"limit": limit, "spent": spent, "over": over, "opponent_vp": vp},
            )
        else:
            # 003 §1.0: beyond the allowance the list is over its limit.
            yield Issue(
                "points.over_limit",
                f"{spent} VP spent; at most {limit + overage['allowance']} ({limit} + {overage['allowance']}) allowed",
                "points_limit",
                clause,
                ERROR,
                data={"limit": limit, "allowance": overage["allowance"], "spent": spent, "over": over},
            )

    def _keyword(
        self, keyword_spent: int, limit: int, resolved: list[ResolvedEntry], book: ArmyBook
    ) -> Iterator[Issue]:
        rule = self.composition["keyword"]
        required = self.keyword_minimum(limit)
        # 003 §1.0: keyword troops worth at least 150 at 400 (scaled for other sizes).
        if keyword_spent < required:
            # Name what counts, so the player sees which units to add more of (data: their paths
            # in the list, and the book's keyword troops, for the builder to link to).
            counted_in = [r for r in resolved if r.unit.stat("keyword")]
            kinds = [u for u in book.units if u.stat("keyword")]
            which = ", ".join(dict.fromkeys(r.name for r in counted_in)) if counted_in else "none in the list"
            options = ", ".join(u.name for u in kinds) or "none"
            yield Issue(
                "keyword.minimum",
                f"{keyword_spent} VP of keyword troops ({which}); at least {required} needed at {limit}. "
                f"Keyword troops in this book: {options}",
                "units",
                rule["clause"],
                data={
                    "required": required,
                    "keyword": keyword_spent,
                    "limit": limit,
                    "entries": [f"units[{r.index}]" for r in counted_in],
                    "book_units": [u.id for u in kinds],
                },
            )

    def _magic(self, entry: ResolvedEntry) -> int:
        """The entry's Magician number (0 for a unit that is not a magician)."""
        return rule_rating(entry.all_rules, self.composition["magician_rule"], 0)

    def _attachments(self, army: ArmyList, resolved: list[ResolvedEntry]) -> Iterator[Issue]:
        keyed = self.by_key(resolved)
        listed = {e.key for e in army.units}
        attachment = self.composition["attachment_rule"]
        advance = set(self.composition["advance_rules"])
        clause = "003 §9 Attachment"
        for entry in resolved:
            target_key = entry.entry.joined_to
            if target_key is None:
                continue
            where = f"{entry.path}.joined_to"
            target = keyed.get(target_key)
            if target_key == entry.key:
                yield Issue("join.self", f"{entry.name} cannot be attached to itself", where, clause)
            elif target is None:
                why = " (its unit is unknown)" if target_key in listed else ""
                yield Issue("join.unknown_key", f"no valid entry with key {target_key!r}{why}", where, clause)
            # 003 §9 Attachment: only a unit with Attachment is attached to another.
            elif not has_rule(entry.all_rules, attachment):
                yield Issue(
                    "join.not_attachment",
                    f"{entry.name} has no {attachment} attribute and cannot join another unit",
                    where,
                    clause,
                )
            # 003 §9 Attachment: the parent unit must have Advance.
            elif not any(has_rule(target.all_rules, name) for name in advance):
                yield Issue(
                    "join.no_advance",
                    f"{target.name} has no Advance attribute, so nothing may attach to it",
                    where,
                    clause,
                    data={"target": target.key},
                )
            # Our reading of §9 Attachment: the parent moves as itself, not as part of a third unit.
            elif target.entry.joined_to is not None:
                yield Issue(
                    "join.chain",
                    f"{target.name} is itself attached to {target.entry.joined_to!r}; attach to that unit instead",
                    where,
                    clause,
                    data={"target": target.key},
                )

    def _attribute_limits(self, resolved: list[ResolvedEntry]) -> Iterator[Issue]:
        for limit in self.composition.get("attribute_limits") or ():
            holders = [r for r in resolved if has_rule(r.all_rules, limit["rule"])]
            # 003 §9 Spy (max 2): at most two Spy units in an army (our reading of "max 2").
            if len(holders) > limit["max_units"]:
                extra = holders[limit["max_units"]]
                yield Issue(
                    "attribute.limit",
                    f"{len(holders)} units with {limit['rule']}; at most {limit['max_units']}",
                    extra.path,
                    limit["clause"],
                    data={"rule": limit["rule"], "max": limit["max_units"], "count": len(holders)},
                )

    def _unsupported(self, army: ArmyList) -> Iterator[Issue]:
        for i, entry in enumerate(army.units):
            # 003 §1.0: every unit card is one unit on the table; there is no combining.
            if entry.combined_with is not None:
                yield Issue(
                    "combined.unsupported",
                    "ancients-hex units never combine; remove combined_with",
                    f"units[{i}].combined_with",
                    "003 §1.0",
                )


def _spell_choices(
    system: GameSystem, magician_rule: str, resolved: list[ResolvedEntry], book: ArmyBook
) -> Iterator[Issue]:
    """The spells each entry chose: only magicians choose, up to their number, each spell once,
    from the chart or the book, and limited spells by their named users only."""
    chart = spell_chart(system, book)
    for entry in resolved:
        chosen = entry.entry.spells
        if not chosen:
            continue
        where = f"{entry.path}.spells"
        magic = rule_rating(entry.all_rules, magician_rule, 0)
        # 003 §6.3/§6.4: magicians choose spells; units with innate spell attributes do not.
        if magic == 0:
            yield Issue(
                "spells.not_magician", f"{entry.name} is not a magician and chooses no spells", where, "003 §6.3"
            )
            continue
        # 003 §6.3: spells chosen up to the Magician number.
        distinct = list(dict.fromkeys(chosen))
        if len(distinct) > magic:
            yield Issue(
                "spells.too_many",
                f"{entry.name} is Magician({magic}) and may choose {magic} spell(s), not {len(distinct)}",
                where,
                "003 §6.3",
                data={"allowed": magic, "chosen": len(distinct)},
            )
        roles = set(entry.unit.stats.get("spell_roles", ()))
        seen: Counter[str] = Counter()
        for j, spell_id in enumerate(chosen):
            here = f"{where}[{j}]"
            seen[spell_id] += 1
            spell = chart.get(spell_id)
            if seen[spell_id] > 1:
                # 003 §6.3: each choice is a different spell; one choice is cast as often as allowed.
                yield Issue(
                    "spells.duplicate",
                    f"{entry.name} already chose {spell_id!r}",
                    here,
                    "003 §6.3",
                    data={"spell": spell_id},
                )
            elif spell is None:
                # 003 §6.7: spells come from the spell chart (or the army book's own spells).
                yield Issue(
                    "spells.unknown",
                    f"no spell {spell_id!r} in the spell chart or {book.name}",
                    here,
                    "003 §6.7",
                    data={"spell": spell_id},
                )
            elif spell.limited_to and not roles & set(spell.limited_to):
                # 003 §6.8: limited spells belong to their named users only.
                yield Issue(
                    "spells.limited",
                    f"{spell.name} is limited to {', '.join(spell.limited_to)}; {entry.name} is none of them",
                    here,
                    "003 §6.8",
                    data={"spell": spell_id, "limited_to": list(spell.limited_to)},
                )
