"""Exact shooting and melee odds for the OPR family: 000 (AoF 2.16), 001 (GF), 002 (AoF regiments).

The three rulebooks share one sequence - roll to hit (Quality), roll to block (Defense),
remove casualties - but give many rules of the same name different meanings. Each rulebook's
meaning lives in a :class:`Dialect`; the maths below reads the dialect's switches and never
asks which system it is serving.

How the numbers are computed (all exact, no sampling):

* The defender's state is one integer: wounds absorbed on its :class:`WoundLine` (models in the
  order the rules make wounds reach them). Wounds fill the most-wounded tough model first and
  heroes last, so a position says exactly which models are gone and how hurt the next one is.
* A weapon group's attack is a per-die mixture (miss / natural 6 / other hit) turned into
  "effective wounds" - wounds that survive blocks and Regeneration - and summed over the
  group's attacks by convolution (``Dist.repeat``). Each effective wound then moves the
  position: +1, or with Deadly(X) up to X but never past the current model.
* Groups are resolved one after another, each from every possible state the earlier groups
  left (``Dist.bind``), so Blast caps, a hero's own Defense once the unit is gone and
  strike-back attacks all follow the dice.

Interpretations chosen where the texts are unclear are commented at the code and listed in
docs/combat.md.

The engine is split by phase, one small module each:

* :mod:`.dialects` - what each rulebook means; :mod:`.situation` - how the fight happens;
* :mod:`.fight` - the fixed facts every phase reads (sides, wound lines, starting positions);
* :mod:`.groups` - attack groups; :mod:`.hits` - rolling to hit and the per-die kernels;
* :mod:`.saves` - Defense and Regeneration; :mod:`.wounds` - groups turned into positions;
* :mod:`.pick` - Sniper/Takedown picks; :mod:`.morale` - morale tests and melee-result bonuses;
* :mod:`.melee` - strike, strike-back and the result; :mod:`.preview` - the wiring and shooting;
* :mod:`.turn` - a whole turn: the shooting, then the charge from every state it leaves.
"""

from __future__ import annotations

from listbuilder.combat.opr.dialects import AOF, AOFR, DIALECTS, GF, Dialect, dialect_for
from listbuilder.combat.opr.groups import Group
from listbuilder.combat.opr.hits import SIX, B, group_2d, per_attack, per_attack_raw, wounds_only
from listbuilder.combat.opr.outcomes import Outcomes
from listbuilder.combat.opr.preview import Preview, engine, preview_fighters
from listbuilder.combat.opr.situation import Pick, SideState, Situation
from listbuilder.combat.opr.turn import preview_turn, turn_engine, turn_situations
from listbuilder.combat.opr.wounds import advance, advance_deadly

# The names the single-module engine had (tests and benchmarks import some of them).
_advance, _advance_deadly = advance, advance_deadly
_per_attack, _per_attack_raw, _group_2d, _wounds_only = per_attack, per_attack_raw, group_2d, wounds_only

__all__ = [
    "AOF",
    "AOFR",
    "B",
    "DIALECTS",
    "GF",
    "SIX",
    "Dialect",
    "Group",
    "Outcomes",
    "Pick",
    "Preview",
    "SideState",
    "Situation",
    "dialect_for",
    "engine",
    "preview_fighters",
    "preview_turn",
    "turn_engine",
    "turn_situations",
]
