"""Wounds: groups resolved one after another from every state the earlier ones left.

The state is a position on the defender's wound line (wounds absorbed so far). A group's dice
become effective wounds (after blocks and Regeneration, see :mod:`.saves`) and each moves the
position: +1, or with Deadly(X) up to X but never past the current model. When Regeneration
differs along the line, raw wounds are stepped one at a time so each rolls for the model it
reaches. The groups of one volley (see :mod:`.groups`) block at the Defense, and count Blast's
models, of the position the volley started from: all their block dice are rolled before any
casualty is removed.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from listbuilder.combat.opr.fight import Fight
from listbuilder.combat.opr.groups import Group, volleys
from listbuilder.combat.opr.hits import B, group_2d, hit_chances, hits_n, hits_only, raw_n, wounds_n
from listbuilder.combat.opr.saves import Saves
from listbuilder.combat.profiles import Fighter, WoundLine
from listbuilder.dice import Dist


class Wounding:
    """Resolves groups of attacks into distributions of positions (and hits)."""

    def __init__(self, fight: Fight, saves: Saves):
        self.f = fight
        self.saves = saves

    def strike(
        self,
        groups: list[Group],
        attacker: Fighter,
        line_a: WoundLine,
        pa: int,
        defender: Fighter,
        line_d: WoundLine,
        start: Dist,
        shooting: bool,
    ) -> tuple[Dist, Dist]:
        """Resolve *groups* in order; returns (hits, defender positions) distributions.

        The state is a position on the defender's line. When a later group has Blast, its cap
        depends on what earlier groups killed, so hits are carried along (key hits*S + position)
        to keep the hits distribution exact.
        """
        unit_alive, heroes_alive = self.f.strikers(attacker, line_a, pa)
        S = line_d.end + 1
        track = len(groups) > 1 and any(g.blast > 1 for g in groups[1:])
        state: dict[int, float] = dict(start.items())
        hits: Dist | None = None
        for volley in volleys(groups):
            attacks = [(g, g.attacks(unit_alive, heroes_alive)) for g in volley]
            attacks = [(g, n) for g, n in attacks if n > 0]
            if not attacks:
                continue
            if not track:
                first = next(iter(state))
                for g, n in attacks:
                    these = hits_only(g, n, line_d.alive(first))
                    hits = these if hits is None else hits + these
            state = self.apply_volley(attacks, defender, line_d, state, S if track else 0, shooting)
        ends = Dist(state)
        if track:
            return ends.map(lambda k: k // S), ends.map(lambda k: k % S)
        return hits if hits is not None else Dist.constant(0), ends

    def apply_volley(
        self,
        attacks: list[tuple[Group, int]],
        defender: Fighter,
        line: WoundLine,
        state: dict[int, float],
        S: int,
        shooting: bool,
    ) -> dict[int, float]:
        """The groups of one volley (with their attack counts) from every state.

        000/001/002 Hero: blocks use the unit's Defense until all non-hero models are killed,
        and casualties are removed only after the whole volley's blocks, so every group of the
        volley blocks at the Defense of the volley's starting position (and Blast counts the
        models standing then). States are split by that view and each part runs the volley.
        """
        if len(attacks) == 1:
            g, n = attacks[0]
            return self.apply_group(g, n, defender, line, state, S, shooting)
        any_blast = any(g.blast > 1 for g, _ in attacks)
        parts: dict[tuple[int, int], tuple[int, dict[int, float]]] = {}
        for k, w in state.items():
            p = k % S if S else k
            view = (id(self.saves.target(defender, line, p, attacks[0][0])), line.alive(p) if any_blast else 0)
            start, part = parts.setdefault(view, (p, {}))
            part[k] = w
        out: dict[int, float] = {}
        for start, part in parts.values():
            for g, n in attacks:
                part = self.apply_group(g, n, defender, line, part, S, shooting, view=start)
            for k, w in part.items():
                out[k] = out.get(k, 0.0) + w
        return out

    def apply_group(
        self,
        g: Group,
        n: int,
        defender: Fighter,
        line: WoundLine,
        state: dict[int, float],
        S: int,
        shooting: bool,
        view: int | None = None,
    ) -> dict[int, float]:
        """One group from every state; keys are positions, or hits*S + position when S > 0.

        ``view``: the position whose Defense blocks and whose models cap Blast (the start of the
        group's volley); by default each state's own.
        """
        out: dict[int, float] = {}
        batches: dict[tuple[Any, ...], dict[int, float]] = {}
        p6, pn = hit_chances(g)
        for k, w in state.items():
            p = k % S if S else k
            seen = p if view is None else view
            if p >= line.end:
                if S and view is not None:
                    # the volley's dice were all thrown before this group's target fell: its
                    # hits still count, its wounds have no one left to reach
                    blast = min(g.blast, line.alive(seen))
                    for h, ph in hits_n(p6, pn, g.six_hits, g.six_extra, blast, g.auto, n).items():
                        out[k + h * S] = out.get(k + h * S, 0.0) + w * ph
                else:
                    out[k] = out.get(k, 0.0) + w  # nothing left to hit
                continue
            blast = min(g.blast, 1 if g.single_model else line.alive(seen))  # Blast(X): never more hits than models
            if g.single_model:
                # 000/001 Sniper, 002 Takedown: resolved as a unit of 1, so the model blocks with
                # its own Defense and rolls its own Regeneration (interpretation 8)
                target = self.saves.alone(self.saves.owner(defender, line, line.model_at(p)))
                regen: tuple[float, float] | None = (
                    self.saves.regen_roll(target.has("Regeneration"), g, "plain"),
                    self.saves.regen_roll(target.has("Regeneration"), g, "six"),
                )
            else:
                target = self.saves.target(defender, line, seen, g)
                regen = self.saves.regen_profile(defender, line, p, g)
            block_plain = self.saves.block(target, g.ap, g, shooting)
            block_six = self.saves.block(target, g.six_ap, g, shooting)
            cap = line.model_end(p) if g.single_model else line.end
            if regen is None:
                # Regeneration differs along the line (a hero without it, or 002's all-models
                # rule): batch these states and let each wound roll for the model it reaches.
                batches.setdefault((blast, id(target), block_plain, block_six, cap), {})[k] = w
                continue
            r_plain, r_six = regen
            q_plain = (1 - block_plain) * (1 - r_plain)
            q_six = (1 - block_six) * (1 - r_six)
            if S:
                dist = group_2d(p6, pn, g.six_hits, g.six_extra, blast, q_six, q_plain, g.auto, n)
                base = (k // S) * S
                for x, px in dist.items():
                    key = base + (x // B) * S + advance(line, p, x % B, g.deadly, cap)
                    out[key] = out.get(key, 0.0) + w * px
            else:
                dist = wounds_n(p6, pn, g.six_hits, g.six_extra, blast, q_six, q_plain, g.auto, n)
                for e, pe in dist.items():
                    key = advance(line, p, e, g.deadly, cap)
                    out[key] = out.get(key, 0.0) + w * pe
        for (blast, _, block_plain, block_six, cap), sub in batches.items():
            for key, w in self.wound_by_wound(
                g, n, defender, line, sub, S, p6, pn, blast, block_plain, block_six, cap
            ).items():
                out[key] = out.get(key, 0.0) + w
        return out

    def wound_by_wound(
        self,
        g: Group,
        n: int,
        defender: Fighter,
        line: WoundLine,
        sub: dict[int, float],
        S: int,
        p6: float,
        pn: float,
        blast: int,
        block_plain: float,
        block_six: float,
        cap: int,
    ) -> dict[int, float]:
        """Raw wounds applied one at a time to a batch of states, Regeneration model by model.

        With R raw wounds, the result is sum_k P(R = k) * (state after k single-wound steps), so
        one pass of single-wound steps serves every k. 000 Rending 6s (which ignore
        Regeneration) are stepped first, separately.
        """
        kinds_differ = g.six_no_regen
        if kinds_differ:
            raw = raw_n(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto, n)
            split = [((x // (B * B)) if S else 0, (x // B) % B, x % B, px) for x, px in raw.items()]
        elif S:
            raw = group_2d(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto, n)
            split = [(x // B, 0, x % B, px) for x, px in raw.items()]
        else:
            raw = wounds_n(p6, pn, g.six_hits, g.six_extra, blast, 1 - block_six, 1 - block_plain, g.auto, n)
            split = [(0, 0, x, px) for x, px in raw.items()]
        grouped: dict[tuple[int, int], dict[int, float]] = {}
        for h, six, plain, px in split:
            grouped.setdefault((h, six), {})[plain] = grouped.get((h, six), {}).get(plain, 0.0) + px
        out: dict[int, float] = {}
        after_six: list[dict[int, float]] = [dict(sub)]
        for (h, six), plains in sorted(grouped.items()):
            while len(after_six) <= six:
                after_six.append(self.step(defender, line, g, after_six[-1], S, cap, "six"))
            cur = after_six[six]
            top = max(plains)
            for k in range(top + 1):
                weight = plains.get(k, 0.0)
                if weight > 0.0:
                    shift = h * S
                    for key, w in cur.items():
                        out[key + shift] = out.get(key + shift, 0.0) + w * weight
                if k < top:
                    cur = self.step(defender, line, g, cur, S, cap, "plain")
        return out

    def step(
        self, defender: Fighter, line: WoundLine, g: Group, cur: dict[int, float], S: int, cap: int, kind: str
    ) -> dict[int, float]:
        """Every state takes one more raw wound (Regeneration rolled by the model it reaches)."""
        nxt: dict[int, float] = {}
        for key, w in cur.items():
            p = key % S if S else key
            if p >= cap:
                nxt[key] = nxt.get(key, 0.0) + w
                continue
            r = self.saves.regen_at(defender, line, p, g, kind)
            moved = key - p + advance(line, p, 1, g.deadly, cap)
            if r > 0.0:
                nxt[key] = nxt.get(key, 0.0) + w * r
            nxt[moved] = nxt.get(moved, 0.0) + w * (1 - r)
        return nxt


def advance(line: WoundLine, p: int, wounds: int, deadly: int, cap: int) -> int:
    """Position after *wounds* effective wounds from p.

    Plain wounds fill the current model and carry on to the next (Tough: most-wounded first).
    Deadly(X): each wound is multiplied by X on one model and the excess is lost. With a cap
    (Sniper/Takedown: one model, as a unit of 1) nothing passes the picked model.
    """
    if wounds <= 0:
        return p
    if deadly <= 1:
        return min(p + wounds, cap)
    return advance_deadly(line, p, wounds, deadly, cap)


@lru_cache(maxsize=65536)
def advance_deadly(line: WoundLine, p: int, wounds: int, deadly: int, cap: int) -> int:
    for _ in range(wounds):
        if p >= cap:
            break
        p = min(p + deadly, line.model_end(p), cap)  # 000/001/002 Deadly(X): x X, no carry-over
    return p
