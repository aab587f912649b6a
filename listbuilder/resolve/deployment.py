"""How a list stands on the table: combined pairs merged, joined heroes inside their unit.

One definition of "what deploys together" for every place that counts or prints units: the
validation totals, the printed roster and the builder (which reads the totals). The three
counts have one vocabulary everywhere:

- ``units``: entries in the list, as the player added them;
- ``activations``: what deploys and activates on the table (a combined pair once, a joined
  hero or attachment inside the unit it joined);
- ``models``: every model of every entry.

Only links that can be drawn are drawn (the partner exists, is the same unit, is not already
paired; the host exists and is not itself joined elsewhere). Whether a link is *legal* is the
validator's business; an illegal link that can still be drawn is grouped as the player wrote it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from listbuilder.model import ArmyList
from listbuilder.resolve import ResolvedEntry


class Deployment(NamedTuple):
    """One activation: its members (one entry, or a combined pair) and the heroes riding with it.

    A NamedTuple (cheaper to make than a frozen dataclass): every validation counts its
    activations as groups.
    """

    members: tuple[ResolvedEntry, ...]
    heroes: tuple[ResolvedEntry, ...] = ()

    @property
    def entries(self) -> tuple[ResolvedEntry, ...]:
        return (*self.members, *self.heroes)

    @property
    def models(self) -> int:
        return sum(e.models for e in self.entries)


def deployment_groups(resolved: Sequence[ResolvedEntry]) -> list[Deployment]:
    """Group resolved entries as they deploy, in list order of each group's first member."""
    links = _links(resolved)
    if links is None:  # most lists: nothing pairs or joins, each entry deploys alone
        return [Deployment((r,)) for r in resolved]
    keyed, partner, host = links
    riders: dict[str, list[ResolvedEntry]] = {}
    for r in resolved:
        if r.key in host:
            riders.setdefault(host[r.key], []).append(r)
    groups: list[Deployment] = []
    placed: set[str] = set()  # second members of pairs, met again further down the list
    for r in resolved:
        if r.key in placed or r.key in host:
            continue
        if r.key in partner:
            members: tuple[ResolvedEntry, ...] = (r, keyed[partner[r.key]])
            placed.add(members[1].key)
        else:
            members = (r,)
        heroes: tuple[ResolvedEntry, ...] = ()
        if riders:  # most lists have no joined heroes: no lookups, no sorting
            heroes = tuple(sorted((h for m in members for h in riders.get(m.key, ())), key=_list_order))
        groups.append(Deployment(members, heroes))
    return groups


def _links(resolved: Sequence[ResolvedEntry]) -> tuple[dict[str, ResolvedEntry], dict[str, str], dict[str, str]] | None:
    """The links that can be drawn: entries by key, each paired entry's partner (both ways)
    and each joined entry's host; None when no entry could draw one."""
    if not _draws_links(resolved):
        return None
    keyed = {r.key: r for r in resolved}
    partner: dict[str, str] = {}
    for r in resolved:
        other = keyed.get(r.entry.combined_with or "")
        if other is None or other.key == r.key or other.unit.id != r.unit.id:
            continue
        if r.key in partner or other.key in partner:
            continue
        partner[r.key], partner[other.key] = other.key, r.key
    host: dict[str, str] = {}
    for r in resolved:
        target = keyed.get(r.entry.joined_to or "")
        if target is None or target.key == r.key or target.entry.joined_to in keyed or r.key in partner:
            continue
        host[r.key] = target.key
    return keyed, partner, host


def _draws_links(resolved: Sequence[ResolvedEntry]) -> bool:
    """Whether :func:`deployment_groups` could draw any link: only an entry naming a partner or
    a host can (or one with an empty key, which an entry naming neither would find)."""
    for r in resolved:
        entry = r.entry
        if entry.combined_with or entry.joined_to or not entry.key:
            return True
    return False


def _list_order(entry: ResolvedEntry) -> int:
    return entry.index


def count_totals(
    army: ArmyList, resolved: Sequence[ResolvedEntry], groups: Sequence[Deployment] | None = None
) -> dict[str, Any]:
    """``units``, ``activations`` and ``models`` of a list, as every report and sheet labels them
    (*groups*, when the caller has them, are counted; else the links are, without grouping)."""
    if groups is not None:
        activations = len(groups)
    else:
        links = _links(resolved)
        # a pair deploys once, a joined entry inside its host: one activation fewer each
        activations = len(resolved) if links is None else len(resolved) - len(links[1]) // 2 - len(links[2])
    return {
        "units": len(army.units),
        "activations": activations,
        "models": sum(r.models for r in resolved),
    }
