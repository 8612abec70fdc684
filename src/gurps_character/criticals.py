"""The critical tables (B556-B557) as data: a 3d roll on the Critical Hit, Critical Head Blow,
Critical Miss or Unarmed Critical Miss Table gives a :class:`CriticalEffect`, the fields a fight
layer applies (damage multiplied or maximal, DR halved or ignored, a major wound, double shock,
a funny-bone crippling, something dropped or broken, a fall, a lost turn ...), never the book's
words.

Which table (B348, B556): a critical hit on the skull, face or eye rolls on the Critical Head
Blow Table (:func:`critical_table_for`), any other on the Critical Hit Table; the attacker's
critical miss, and a critically failed parry, on the Critical Miss Table, or its unarmed version
for a fighter attacking or parrying bare-handed. Every critical hit allows no active defense.

What the tables hold, row by row (``roll``: the 3d result):

* **Critical Hit** (B556): 3, 18 triple damage; 4, 17 DR at half (rounded down, after the armor
  divisor); 5, 16 double damage; 6, 15 maximum damage; 7, 13, 14 a major wound if anything
  penetrates; 8 double shock (at most -8) and a limb or extremity crippled for (16 - HT)
  seconds, at least 2 (a "funny-bone" blow); 9-11 normal damage; 12 normal damage, and the
  victim drops whatever he holds.
* **Critical Head Blow** (B556): 3 maximum damage, DR ignored; 4, 5 DR at half (rounded up) and a
  major wound if anything penetrates; 6, 7 an eye hit (as 4 where none is possible); 8 normal
  damage, and the victim must Do Nothing on his next turn (he may defend); 9-11 normal; 12, 13
  deafened (crushing) or scarred (any other type) if anything penetrates; 14 the victim drops
  his weapon; 15 maximum damage; 16 double damage; 17 DR at half (rounded up); 18 triple
  damage. (Rows 14-18 follow the 4e table as this project reads it; no public source read
  confirmed their wording.)
* **Critical Miss** (B556): 3, 4, 17, 18 the weapon breaks (a resistant weapon rolls again, and
  only a second "breaks" breaks it: else dropped); 5 the fighter hits his own arm or leg, full
  damage (an impaling or piercing melee attack, or any ranged one, rolls again), 6 the same at
  half damage; 7, 13 he loses his balance: nothing else until his next turn, and -2 to every
  active defense until then; 8, 12 the weapon turns in his hand: an extra Ready before it is used
  again; 9-11 he drops the weapon (a cheap one breaks); 14 a swung weapon flies 1d yards (any
  other is dropped); 15 a strained shoulder: the weapon arm is useless for 30 minutes (nothing
  dropped); 16 he falls down (with a ranged weapon: loses his balance, as 7).
* **Unarmed Critical Miss** (B557): 3, 18 he knocks himself out; 4, 17 a strained limb: 1 HP of
  injury and the limb useless for 30 minutes (a bite or butt: moderate pain instead); 5, 16 he
  hits something solid: his own thrust crushing damage to the limb used, 6 the same at half;
  7, 14 he stumbles (an attack carries him a yard past the foe, who is then behind him; a parry
  makes him fall); 8 he falls down; 9-11 he loses his balance (as the Critical Miss Table's 7);
  12 he trips: a DX roll (DX-4 for a kick) not to fall; 13 he drops his guard: -2 to every
  active defense for the next turn; 15 a torn muscle: 1d-3 injury to the limb used, -1 to
  attacks and defenses next turn.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, fields
from typing import Any, Final, Literal, TypeAlias

from .combat import _choice, _flag, _roll, roll_3d
from .errors import guarded
from .locations import LOCATION_NAMES

__all__ = [
    "CriticalEffect",
    "CriticalTable",
    "critical_effect",
    "critical_table_for",
]

CriticalTable: TypeAlias = Literal[
    "critical_hit", "critical_head_blow", "critical_miss", "unarmed_critical_miss"
]
"""A table of B556-B557."""

_DrEffect: TypeAlias = Literal["normal", "half_down", "half_up", "ignored"]
_HitsSelf: TypeAlias = Literal["none", "full", "half"]
_Drops: TypeAlias = Literal["nothing", "weapon", "everything"]

_TABLES: Final[tuple[str, ...]] = (
    "critical_hit",
    "critical_head_blow",
    "critical_miss",
    "unarmed_critical_miss",
)
_HEAD: Final = frozenset({"skull", "face", "eye", "brain"})


@dataclass(frozen=True, slots=True)
class CriticalEffect:
    """What one row of a critical table does, as fields a fight layer applies.

    Attributes:
        table: The :data:`CriticalTable` rolled on.
        roll: The 3d result (3-18).
        effect: The row's effect as an id (``triple_damage``, ``half_dr``, ``weapon_breaks`` ...).
        page: The Basic Set page.
        no_defense: The blow allows no active defense (every critical hit).
        damage_multiplier: The basic damage is multiplied by this (1, 2 or 3).
        maximum_damage: The dice count as their maximum.
        dr: ``normal``, ``half_down``, ``half_up`` (after the armor divisor) or ``ignored``.
        major_wound: Any injury that penetrates counts as a major wound.
        double_shock: Shock doubled, at most -8, if anything penetrates.
        cripples_limb: A hit to a limb or extremity cripples it for (16 - HT) seconds, at
            least 2 (a funny-bone blow), unless the injury cripples it anyway.
        eye_hit: A blow to the face or skull lands on an eye instead.
        drops: What the victim (on a hit) or the fighter (on a miss) drops: ``nothing``,
            ``weapon`` or ``everything`` held.
        ends_turn: The one who suffers it can do nothing else until his next turn (a lost
            balance: no further attack this turn).
        do_nothing_next: The victim must Do Nothing on his next turn (he may defend).
        defense_penalty: Added to every active defense until his next turn (0, -1 or -2).
        attack_penalty: Added to his attacks on his next turn (0 or -1).
        deafened_or_scarred: Crushing deafens, any other type scars, if anything penetrates.
        weapon_breaks: The weapon breaks (a resistant weapon rolls again: ``reroll``).
        weapon_unready: The weapon needs an extra Ready maneuver.
        hits_self: ``full`` or ``half``: the fighter hits his own arm or leg with the weapon
            (``none``).
        falls: He falls down (lying).
        unconscious: He knocks himself out.
        own_limb_crippled: His weapon arm (or the limb used) is useless for 30 minutes.
        self_injury: Injury he takes, as a damage notation (``1``, ``1d-3``, ``thr cr``,
            half of it for ``half_thrust``), or None.
        keep_feet_roll: A DX roll not to fall (DX-4 when kicking).
        stumbles: He stumbles: past the foe after an attack, a fall after a parry.
        reroll: When to roll again instead: ``resistant_weapon``, ``impaling_or_ranged``, or None.
    """

    table: CriticalTable
    roll: int
    effect: str
    page: str
    no_defense: bool = False
    damage_multiplier: int = 1
    maximum_damage: bool = False
    dr: _DrEffect = "normal"
    major_wound: bool = False
    double_shock: bool = False
    cripples_limb: bool = False
    eye_hit: bool = False
    drops: _Drops = "nothing"
    ends_turn: bool = False
    do_nothing_next: bool = False
    defense_penalty: int = 0
    attack_penalty: int = 0
    deafened_or_scarred: bool = False
    weapon_breaks: bool = False
    weapon_unready: bool = False
    hits_self: _HitsSelf = "none"
    falls: bool = False
    unconscious: bool = False
    own_limb_crippled: bool = False
    self_injury: str | None = None
    keep_feet_roll: bool = False
    stumbles: bool = False
    reroll: Literal["resistant_weapon", "impaling_or_ranged"] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The critical effect as JSON data.

        Returns:
            ``{"table", "roll", "effect", "page", ...}`` with only the fields that say something (camelCase).
        """
        out: dict[str, Any] = {}
        for field in fields(self):
            value = getattr(self, field.name)
            if field.name in ("table", "roll", "effect", "page") or value != field.default:
                first, *rest = field.name.split("_")
                out[first + "".join(part.capitalize() for part in rest)] = value
        return out


def _hit(roll: int) -> CriticalEffect:
    def row(effect: str, **kw: Any) -> CriticalEffect:
        return CriticalEffect("critical_hit", roll, effect, "B556", no_defense=True, **kw)

    if roll in (3, 18):
        return row("triple_damage", damage_multiplier=3)
    if roll in (4, 17):
        return row("half_dr", dr="half_down")
    if roll in (5, 16):
        return row("double_damage", damage_multiplier=2)
    if roll in (6, 15):
        return row("maximum_damage", maximum_damage=True)
    if roll in (7, 13, 14):
        return row("major_wound", major_wound=True)
    if roll == 8:
        return row("double_shock", double_shock=True, cripples_limb=True)
    if roll == 12:
        return row("drops_everything", drops="everything")
    return row("normal_damage")


def _head(roll: int) -> CriticalEffect:
    def row(effect: str, **kw: Any) -> CriticalEffect:
        return CriticalEffect("critical_head_blow", roll, effect, "B556", no_defense=True, **kw)

    if roll == 3:
        return row("maximum_damage_no_dr", maximum_damage=True, dr="ignored")
    if roll in (4, 5):
        return row("half_dr_major_wound", dr="half_up", major_wound=True)
    if roll in (6, 7):
        return row("eye_hit", eye_hit=True)
    if roll == 8:
        return row("off_balance", do_nothing_next=True)
    if roll in (12, 13):
        return row("deafened_or_scarred", deafened_or_scarred=True)
    if roll == 14:
        return row("drops_weapon", drops="weapon")
    if roll == 15:
        return row("maximum_damage", maximum_damage=True)
    if roll == 16:
        return row("double_damage", damage_multiplier=2)
    if roll == 17:
        return row("half_dr", dr="half_up")
    if roll == 18:
        return row("triple_damage", damage_multiplier=3)
    return row("normal_damage")


def _lose_balance(table: CriticalTable, roll: int, page: str) -> CriticalEffect:
    return CriticalEffect(table, roll, "lose_balance", page, ends_turn=True, defense_penalty=-2)


def _miss(roll: int, ranged: bool, swung: bool) -> CriticalEffect:
    def row(effect: str, **kw: Any) -> CriticalEffect:
        return CriticalEffect("critical_miss", roll, effect, "B556", **kw)

    if roll in (3, 4, 17, 18):
        return row("weapon_breaks", weapon_breaks=True, reroll="resistant_weapon")
    if roll in (5, 6):
        return row("hits_self", hits_self="full" if roll == 5 else "half", reroll="impaling_or_ranged")
    if roll in (7, 13) or (roll == 16 and ranged):
        return _lose_balance("critical_miss", roll, "B556")
    if roll in (8, 12):
        return row("weapon_turns", weapon_unready=True)
    if roll == 14 and swung:
        return row("weapon_flies", drops="weapon")
    if roll == 15:
        return row("strained_shoulder", own_limb_crippled=True)
    if roll == 16:
        return row("falls", falls=True)
    return row("drops_weapon", drops="weapon")


def _unarmed(roll: int) -> CriticalEffect:
    def row(effect: str, **kw: Any) -> CriticalEffect:
        return CriticalEffect("unarmed_critical_miss", roll, effect, "B557", **kw)

    if roll in (3, 18):
        return row("knocked_out", unconscious=True)
    if roll in (4, 17):
        return row("strained_limb", own_limb_crippled=True, self_injury="1")
    if roll in (5, 16):
        return row("hits_solid_object", self_injury="thr cr")
    if roll == 6:
        return row("hits_solid_object_half", self_injury="half_thrust")
    if roll in (7, 14):
        return row("stumbles", stumbles=True)
    if roll == 8:
        return row("falls", falls=True)
    if roll == 12:
        return row("trips", keep_feet_roll=True)
    if roll == 13:
        return row("drops_guard", defense_penalty=-2)
    if roll == 15:
        return row("torn_muscle", self_injury="1d-3", defense_penalty=-1, attack_penalty=-1)
    return _lose_balance("unarmed_critical_miss", roll, "B557")


@guarded
def critical_effect(
    table: CriticalTable,
    roll: int | None = None,
    *,
    rng: random.Random | None = None,
    ranged: bool = False,
    swung: bool = True,
) -> CriticalEffect:
    """The effect of a 3d roll on a critical table (B556-B557; the module documentation lists
    every row).

    Args:
        table: ``critical_hit``, ``critical_head_blow``, ``critical_miss`` or
            ``unarmed_critical_miss``.
        roll: The 3d result (3-18); None rolls it with ``rng`` (:func:`~gurps_character.roll_3d`).
        rng: A ``random.Random`` for the roll (None: the operating system's randomness).
        ranged: The critical miss was a ranged attack's (16: a lost balance, not a fall).
        swung: The critical miss was a swung melee attack's (14: the weapon flies; else it drops).

    Returns:
        A :class:`CriticalEffect`.

    Raises:
        CharacterError: ``invalidArgument`` for an unknown table, a roll that is not a whole
            number from 3 to 18, a ``ranged`` or ``swung`` that is not a bool.
    """
    which = _choice(table, "table", _TABLES)
    rolled = roll_3d(rng) if roll is None else _roll(roll, "roll")
    is_ranged = _flag(ranged, "ranged")
    is_swung = _flag(swung, "swung")
    if which == "critical_hit":
        return _hit(rolled)
    if which == "critical_head_blow":
        return _head(rolled)
    if which == "critical_miss":
        return _miss(rolled, is_ranged, is_swung)
    return _unarmed(rolled)


@guarded
def critical_table_for(location: str) -> CriticalTable:
    """The table a critical hit at ``location`` rolls on: the Critical Head Blow Table for the
    skull, face or eye (and a body's brain), else the Critical Hit Table (B556).

    Never raises.

    Args:
        location: A hit location, by any spelling a hit takes.

    Returns:
        ``critical_head_blow`` or ``critical_hit``.
    """
    where = LOCATION_NAMES.get(location, location) if isinstance(location, str) else None
    return "critical_head_blow" if where in _HEAD else "critical_hit"
