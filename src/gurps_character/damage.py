"""Damage resolution by the Basic Set: from one hit to injury, shock, wounds and knockback.

:func:`resolve_hit` answers, for one hit on a character, what the rules make of it (B377-B381,
B398-B400, B419-B422); :func:`apply_hit` takes the injury off the pool through
:func:`~gurps_character.change_pool` and lists, in the order a GM resolves them, the rolls the hit
and the pool's thresholds now call for; :func:`resolve_damage_notation` turns a weapon's damage
text (``sw+1 cut``) into dice for the character, so an engine goes from a weapon to a hit without
parsing text.

The steps of :func:`resolve_hit`:

1. **Basic damage** is the rolled total, at least 1 (0 for crushing, B378).
2. **DR** is the DR the sheet lists for the location (armor and advantages); the skull's natural
   DR 2 is added to it for every damage type. **Effective DR**: a divisor of 2 or more divides it,
   rounding down; ``math.inf`` ("ignores DR") makes it 0; the fractions 0.5, 0.2 and 0.1 multiply
   it by 2, 5 and 10, and DR 0 counts as DR 1 against them (B110, B378).
3. **Penetrating damage** = basic damage - effective DR, at least 0.
4. **Wounding multiplier** (B379): cr, burn, cor, tox, fat, pi x1; pi- x0.5; cut, pi+ x1.5;
   imp, pi++ x2. Hit locations replace it (B398-B399): skull and eye x4 for every type but tox;
   face cor x1.5; neck cr and cor x1.5, cut x2; arm, leg, hand and foot imp, pi+ and pi++ x1;
   vitals imp and the piercing types x3, tight-beam burning x2. Fatigue ignores hit location.
5. **Injury** = penetrating x multiplier, rounded down, and at least 1 when anything penetrates
   (B379). A limb's injury beyond HP/2 and an extremity's beyond HP/3 are lost: the injury
   suffered is at most floor(HP/2) + 1 (arm, leg) or floor(HP/3) + 1 (hand, foot).
6. **Crippled** (B421): the uncapped injury is over HP/2 (arm, leg), over HP/3 (hand, foot) or
   over HP/10 (eye; a crippled eye is blinded).
7. **Shock** (B419): -1 per HP of injury, or per full floor(HP/10) of injury with 20 HP or
   more, at most -4. Low Pain Threshold doubles it, and so does crushing to the groin of a male
   humanoid (``vulnerable_groin``); the maximum is then -8. High Pain Threshold: no shock.
8. **Major wound** (B420): an injury over HP/2, or any crippling injury. A major wound, or a hit
   to the skull, face, eye or vitals that does enough injury for a shock penalty, calls for a
   **knockdown** roll on HT: -10 for a major wound to the skull or eye, -5 for one to the face,
   vitals or a vulnerable groin, +3 High Pain Threshold, -4 Low Pain Threshold.
   Corrosion that is a major wound to the face blinds one eye, both when it is over the full HP.
9. **Knockback** (B378): crushing always, cutting only when it does not penetrate: one yard per
   full ST - 2 (at least 1) of basic damage. Whoever is knocked back rolls DX (or the better of
   Acrobatics and Judo) to **keep his feet**, at -1 per yard after the first, +4 with Perfect
   Balance.

Decisions where the sources leave a choice (the project's design notes hold the sources):

* Fatigue damage (``fat``) goes to FP; DR applies and the location never changes it; it causes
  no shock, no major wound, no crippling (so no limb cap), no knockdown roll and no knockback.
* Only ``imp``, the piercing types and tight-beam burning can hit the eye or the vitals;
  anything else there is refused.
* The location's knockdown modifiers apply only to major wounds: a head or vitals hit that
  merely causes shock calls for the roll at plain HT. Toxic damage to the skull gets neither
  x4 nor -10, but a head hit with shock still calls for the roll.
* Low Pain Threshold and the groin rule each double shock; together they quadruple it, and the
  maximum stays -8.
* Pain thresholds and Perfect Balance are read from the traits by their English names
  ("High Pain Threshold", "Low Pain Threshold", "Perfect Balance"; a name followed by a space
  and notes also counts). Sheets in another language should pass ``pain_threshold``.
* When the sheet lists several DR entries for the same location, the first one counts.
* Optional rules (1/2D, blunt trauma, Injury Tolerance, Damage Reduction, Hardened DR,
  explosions, shotguns, Body Hits, large-area injury) are not applied.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any, Final, Literal, NoReturn, TypeAlias

from ._notation import NotationError, parse_notation
from .conditions import FollowUp, PoolChange, Roll, _integer, _member, change_pool
from .errors import CharacterError, describe, guarded, json_detail
from .formula._values import MAX_ROLLED_DICE, SYSTEM_RANDOM, roll_dice
from .update import PoolName, _is_double

__all__ = [
    "DamageType",
    "Hit",
    "HitLocation",
    "PainThreshold",
    "WeaponDamage",
    "apply_hit",
    "resolve_damage_notation",
    "resolve_hit",
]

DamageType: TypeAlias = Literal["cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "cor", "tox", "fat"]
"""A damage type (B379): crushing, cutting, impaling, the four piercing sizes, burning, corrosion,
toxic and fatigue."""

HitLocation: TypeAlias = Literal[
    "skull", "face", "eye", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot"
]
"""A humanoid hit location (B398)."""

PainThreshold: TypeAlias = Literal["high", "low", "normal"]
"""High Pain Threshold (B59), Low Pain Threshold (B142), or neither."""

_TYPE_MULTIPLIER: Final[dict[str, Fraction]] = {
    "cr": Fraction(1),
    "cut": Fraction(3, 2),
    "imp": Fraction(2),
    "pi-": Fraction(1, 2),
    "pi": Fraction(1),
    "pi+": Fraction(3, 2),
    "pi++": Fraction(2),
    "burn": Fraction(1),
    "cor": Fraction(1),
    "tox": Fraction(1),
    "fat": Fraction(1),
}
_LOCATIONS: Final = ("skull", "face", "eye", "neck", "torso", "vitals", "groin", "arm", "hand", "leg", "foot")
_PIERCING: Final = frozenset({"imp", "pi-", "pi", "pi+", "pi++"})
_LIMBS: Final = frozenset({"arm", "leg"})
_EXTREMITIES: Final = frozenset({"hand", "foot"})
_HEAD_AND_VITALS: Final = frozenset({"skull", "face", "eye", "vitals"})
_DIVISORS: Final[dict[float, Fraction | None]] = {
    1: Fraction(1),
    2: Fraction(2),
    3: Fraction(3),
    5: Fraction(5),
    10: Fraction(10),
    100: Fraction(100),
    0.5: Fraction(1, 2),
    0.2: Fraction(1, 5),
    0.1: Fraction(1, 10),
    math.inf: None,
}
"""The armor divisors (B110, B378) and their exact values; None is "ignores DR"."""

# The DR table's locationId for each location, then the entry that covers it (B398: a helm
# protects the skull and face, torso armor the vitals and groin). The eye has no cover.
_DR_IDS: Final[dict[str, tuple[str, ...]]] = {
    "skull": ("skull", "head"),
    "face": ("face", "head"),
    "eye": ("eyes",),
    "neck": ("neck",),
    "torso": ("torso",),
    "vitals": ("vitals", "torso"),
    "groin": ("groin", "torso"),
    "arm": ("arms",),
    "hand": ("hands",),
    "leg": ("legs",),
    "foot": ("feet",),
}
_SKULL_DR: Final = 2
_MAX_SHOCK: Final = 4
_MAX_DOUBLED_SHOCK: Final = 8


# ---------------------------------------------------------------- results


def _plain(number: float | Fraction) -> float:
    """A whole number as an ``int`` (JSON ``2``, not ``2.0``), anything else as a ``float``."""
    if number != math.inf and number == int(number):
        return int(number)
    return float(number)


def _divisor_json(divisor: float) -> float | str:
    return "ignoresDR" if divisor == math.inf else divisor


@dataclass(frozen=True, slots=True)
class Hit:
    """What the rules make of one hit (see the module documentation for each step).

    Attributes:
        basic_damage: The basic damage, after the minimum of 1 (0 for crushing).
        damage_type: The :data:`DamageType`.
        location: The :data:`HitLocation`.
        pool: ``"hp"``, or ``"fp"`` for fatigue damage.
        armor_divisor: The armor divisor (1 for none, ``math.inf`` for "ignores DR").
        tight_beam: Whether burning damage was a tight beam.
        pain_threshold: The :data:`PainThreshold` the hit was resolved with.
        dr: The DR at the location, with the skull's natural DR 2.
        effective_dr: The DR after the armor divisor.
        penetrating: Basic damage minus effective DR, at least 0.
        multiplier: The wounding multiplier after the location's override.
        uncapped_injury: Penetrating times multiplier, rounded down, at least 1 when anything
            penetrates.
        injury: What comes off the pool: the uncapped injury, limited for a limb or extremity.
        shock: 0, or the penalty (-1 to -8) to DX and IQ on the victim's next turn.
        major_wound: An injury over HP/2, or any crippling injury.
        crippled: The arm, leg, hand, foot or eye is crippled.
        blinded_eyes: How many eyes the hit blinds (0, 1 or 2).
        knockback: Yards of knockback.
        rolls: The rolls the hit calls for, in order: ``knockdown`` (HT), then ``keepFeet``.
    """

    basic_damage: int
    damage_type: DamageType
    location: HitLocation
    pool: PoolName
    armor_divisor: float
    tight_beam: bool
    pain_threshold: PainThreshold
    dr: int
    effective_dr: int
    penetrating: int
    multiplier: float
    uncapped_injury: int
    injury: int
    shock: int
    major_wound: bool
    crippled: bool
    blinded_eyes: int
    knockback: int
    rolls: tuple[Roll, ...]

    def to_dict(self) -> dict[str, Any]:
        """The hit as JSON, camelCase keys; ``armorDivisor`` is ``"ignoresDR"`` for ``math.inf``."""
        return {
            "basicDamage": self.basic_damage,
            "damageType": self.damage_type,
            "location": self.location,
            "pool": self.pool,
            "armorDivisor": _divisor_json(self.armor_divisor),
            "tightBeam": self.tight_beam,
            "painThreshold": self.pain_threshold,
            "dr": self.dr,
            "effectiveDr": self.effective_dr,
            "penetrating": self.penetrating,
            "multiplier": self.multiplier,
            "uncappedInjury": self.uncapped_injury,
            "injury": self.injury,
            "shock": self.shock,
            "majorWound": self.major_wound,
            "crippled": self.crippled,
            "blindedEyes": self.blinded_eyes,
            "knockback": self.knockback,
            "rolls": [roll.to_dict() for roll in self.rolls],
        }


@dataclass(frozen=True, slots=True)
class WeaponDamage:
    """A weapon's damage resolved for one character: what to roll and how to resolve the hit.

    The basic damage is ``(dice d6 + adds) * multiplier``, at least :attr:`minimum`; pass it with
    :attr:`damage_type`, :attr:`armor_divisor` and :attr:`tight_beam` to :func:`resolve_hit`.

    Attributes:
        notation: The text as written.
        base: ``"thrust"``, ``"swing"`` or ``"fixed"`` (written as dice).
        dice: Six-sided dice to roll.
        adds: Added to the dice (the character's thrust or swing adds plus the weapon's).
        multiplier: The roll is multiplied by this (``2d x2``); 1 for most weapons.
        damage_type: The :data:`DamageType` (``tbb`` is ``burn`` with :attr:`tight_beam`).
        armor_divisor: 1 when none is written; ``math.inf`` for "ignores DR".
        tight_beam: Tight-beam burning (``tbb``).
    """

    notation: str
    base: Literal["thrust", "swing", "fixed"]
    dice: int
    adds: int
    multiplier: int
    damage_type: DamageType
    armor_divisor: float
    tight_beam: bool

    @property
    def minimum(self) -> int:
        """The least basic damage a roll can do: 1, or 0 for crushing (B378)."""
        return 0 if self.damage_type == "cr" else 1

    @property
    def dice_notation(self) -> str:
        """The dice to roll in the usual notation: ``1d+2``, ``2d``, ``6dx2`` (``to_dict()``'s
        ``"roll"``; this was the ``roll`` property before ``roll`` rolled them)."""
        adds = f"{self.adds:+d}" if self.adds else ""
        times = f"x{self.multiplier}" if self.multiplier != 1 else ""
        return f"{self.dice}d{adds}{times}"

    def roll(self, rng: random.Random | None = None) -> int:
        """Rolls the damage: ``(dice d6 + adds) * multiplier``, at least :attr:`minimum`.

        Negative adds cannot take the roll below 1, or below 0 for crushing (B269); the total is
        the basic damage to pass to :func:`resolve_hit`.

        Args:
            rng: The random number generator (``random.Random(seed)`` for repeatable rolls);
                None uses the operating system's randomness.

        Returns:
            The basic damage rolled.

        Raises:
            CharacterError: ``invalidArgument`` when ``rng`` is not a ``random.Random`` or the
                roll has more than 10,000 dice.
        """
        if rng is not None and not isinstance(rng, random.Random):
            _refuse("rng", rng, "a random.Random (such as random.Random(42)) or None")
        if not 0 <= self.dice <= MAX_ROLLED_DICE:
            _refuse("dice", self.dice, f"a number of dice from 0 to {MAX_ROLLED_DICE:,} to be rolled")
        rolled = roll_dice(self.dice, rng if rng is not None else SYSTEM_RANDOM) + self.adds
        return max(self.minimum, rolled * self.multiplier)

    def to_dict(self) -> dict[str, Any]:
        """``{"notation", "base", "dice", "adds", "multiplier", "roll", "damageType",
        "armorDivisor", "tightBeam", "minimum"}``; ``armorDivisor`` is ``"ignoresDR"`` for
        ``math.inf``."""
        return {
            "notation": self.notation,
            "base": self.base,
            "dice": self.dice,
            "adds": self.adds,
            "multiplier": self.multiplier,
            "roll": self.dice_notation,
            "damageType": self.damage_type,
            "armorDivisor": _divisor_json(self.armor_divisor),
            "tightBeam": self.tight_beam,
            "minimum": self.minimum,
        }


# ---------------------------------------------------------------- arguments


def _refuse(name: str, value: object, expected: str) -> NoReturn:
    raise CharacterError(
        "invalidArgument",
        f"{name} must be {expected}, not {describe(value)}.",
        {"name": name, "value": json_detail(value)},
    )


def _whole(value: object, name: str) -> int:
    """A whole number of at least 0 (an integral float counts) that a double holds, as in JSON."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        _refuse(name, value, "a whole number of at least 0")
    if isinstance(value, int) and not _is_double(value):
        _refuse(name, value, "a whole number of at least 0 that a double holds")
    if isinstance(value, float):
        if not value.is_integer():  # also NaN and the infinities
            _refuse(name, value, "a whole number of at least 0")
        value = int(value)
    if value < 0:
        _refuse(name, value, "a whole number of at least 0")
    return value


def _choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in choices:
        _refuse(name, value, "one of " + ", ".join(repr(choice) for choice in choices))
    return value


def _divisor(value: object) -> tuple[float, Fraction | None]:
    if not isinstance(value, bool) and isinstance(value, int | float) and value in _DIVISORS:
        return _plain(value), _DIVISORS[value]
    _refuse("armor_divisor", value, "one of 1, 2, 3, 5, 10, 100, 0.5, 0.2, 0.1 or math.inf")


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        _refuse(name, value, "True or False")
    return value


def _can_target(damage_type: str, tight_beam: bool) -> bool:
    """Only impaling, piercing and tight-beam burning reach the eye or the vitals (B399)."""
    return damage_type in _PIERCING or (damage_type == "burn" and tight_beam)


# ---------------------------------------------------------------- reading the document


def _traits(document: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(casefolded name, pointer)`` of every trait."""
    traits = document.get("traits")
    if traits is None:
        return []
    if not isinstance(traits, list | tuple):
        raise CharacterError("invalidDocument", "/traits must be a list.", {"pointer": "/traits"})
    names: list[tuple[str, str]] = []
    for index, trait in enumerate(traits):
        name = _member(trait, "name")
        if not isinstance(name, str):
            pointer = f"/traits/{index}/name"
            raise CharacterError(
                "invalidDocument", f"The document has no name at {pointer}.", {"pointer": pointer}
            )
        names.append((name.strip().casefold(), f"/traits/{index}"))
    return names


def _has_trait(name: str, traits: list[tuple[str, str]]) -> str | None:
    """The pointer of the first trait called ``name`` (alone or followed by notes), or None."""
    wanted = name.casefold()
    for found, pointer in traits:
        if found == wanted or found.startswith(wanted + " "):
            return pointer
    return None


def _pain_threshold(document: Mapping[str, Any]) -> PainThreshold:
    traits = _traits(document)
    high = _has_trait("High Pain Threshold", traits)
    low = _has_trait("Low Pain Threshold", traits)
    if high is not None and low is not None:
        raise CharacterError(
            "invalidDocument",
            "The traits list both High and Low Pain Threshold; pass pain_threshold to choose.",
            {"pointer": max(high, low, key=lambda pointer: int(pointer.rsplit("/", 1)[1]))},
        )
    return "high" if high is not None else "low" if low is not None else "normal"


def _listed_dr(document: Mapping[str, Any], location: str) -> int:
    """The DR the sheet lists for ``location``: its own entry, the covering one, or 0."""
    entries = document.get("damageResistance")
    if entries is None:
        return 0
    if not isinstance(entries, list | tuple):
        raise CharacterError(
            "invalidDocument", "/damageResistance must be a list.", {"pointer": "/damageResistance"}
        )
    for location_id in _DR_IDS[location]:
        for index, entry in enumerate(entries):
            if _member(entry, "locationId") == location_id:
                pointer = f"/damageResistance/{index}/dr"
                dr = _integer(_member(entry, "dr"), pointer)
                if dr < 0:
                    raise CharacterError(
                        "invalidDocument", f"{pointer} must be at least 0.", {"pointer": pointer}
                    )
                return dr
    return 0


# ---------------------------------------------------------------- the rules


def _effective_dr(dr: int, divisor: Fraction | None) -> int:
    if divisor is None:
        return 0
    if divisor >= 1:
        return dr // int(divisor)
    return max(1, dr * int(1 / divisor))  # DR 0 counts as DR 1 against a fractional divisor


def _multiplier(damage_type: str, location: str, tight_beam: bool) -> Fraction:
    if damage_type == "fat":
        return _TYPE_MULTIPLIER["fat"]  # fatigue ignores hit location
    if location in ("skull", "eye") and damage_type != "tox":
        return Fraction(4)
    if location == "vitals":
        return Fraction(3) if damage_type in _PIERCING else Fraction(2)  # else tight-beam burning
    if location == "face" and damage_type == "cor":
        return Fraction(3, 2)
    if location == "neck" and damage_type in ("cr", "cor"):
        return Fraction(3, 2)
    if location == "neck" and damage_type == "cut":
        return Fraction(2)
    if location in _LIMBS | _EXTREMITIES and damage_type in ("imp", "pi+", "pi++"):
        return Fraction(1)
    return _TYPE_MULTIPLIER[damage_type]


def _shock_steps(injury: int, hp: int) -> int:
    """-1 per HP of injury, or per full HP/10 with 20 HP or more, before any cap or doubling."""
    return injury // max(1, hp // 10)


def _shock(steps: int, pain: PainThreshold, doubled_by_location: bool) -> int:
    """The shock penalty (0 or negative): each doubling (Low Pain Threshold, a vulnerable groin
    hit by crushing) doubles it and raises the maximum from -4 to -8."""
    if pain == "high":
        return 0
    doublings = int(pain == "low") + int(doubled_by_location)
    shock: int = steps << doublings
    return -min(shock, _MAX_DOUBLED_SHOCK if doublings else _MAX_SHOCK)


def _blinded_eyes(
    location: str, damage_type: str, crippled: bool, major_wound: bool, injury: int, hp: int
) -> int:
    """A crippled eye is blind; corrosion that is a major wound to the face blinds one eye, both
    when the injury is over the full HP (B399)."""
    if location == "eye" and crippled:
        return 1
    if location == "face" and damage_type == "cor" and major_wound:
        return 2 if injury > hp else 1
    return 0


def _cap(location: str, hp: int) -> int | None:
    """The most injury a limb or extremity can suffer: the least whole number over HP/2 or HP/3."""
    if location in _LIMBS:
        return max(1, hp // 2 + 1)
    if location in _EXTREMITIES:
        return max(1, hp // 3 + 1)
    return None


def _crippling(location: str, injury: int, hp: int) -> bool:
    if location in _LIMBS:
        return 2 * injury > hp
    if location in _EXTREMITIES:
        return 3 * injury > hp
    if location == "eye":
        return 10 * injury > hp
    return False


def _knockdown_modifier(
    location: str, damage_type: str, major_wound: bool, pain: PainThreshold, vulnerable_groin: bool
) -> int:
    modifier = 0
    if major_wound:
        if location in ("skull", "eye") and damage_type != "tox":
            modifier -= 10
        elif location in ("face", "vitals") or (location == "groin" and vulnerable_groin):
            modifier -= 5
    return modifier + {"high": 3, "low": -4, "normal": 0}[pain]


def _knockback(damage_type: str, basic_damage: int, penetrating: int, st: int) -> int:
    if damage_type == "cr" or (damage_type == "cut" and penetrating == 0):
        return basic_damage // max(1, st - 2)
    return 0


@guarded
def resolve_hit(
    document: Mapping[str, Any],
    basic_damage: int,
    damage_type: DamageType,
    *,
    location: HitLocation = "torso",
    armor_divisor: float = 1,
    dr: int | None = None,
    tight_beam: bool = False,
    pain_threshold: PainThreshold | None = None,
    vulnerable_groin: bool = True,
) -> Hit:
    """What the rules make of one hit on the character: DR, injury, shock, wounds, knockback.

    Pure: the document is read, never changed. The module documentation lists each step and the
    decisions taken where the Basic Set leaves a choice.

    Args:
        document: The character hit (never modified). Read: ``/secondary/hp/value`` and
            ``/attributes/st/value`` (integers), ``/damageResistance`` when ``dr`` is None,
            ``/traits`` when ``pain_threshold`` is None or the hit knocks the character back
            (Perfect Balance).
        basic_damage: The rolled damage, a whole number of at least 0 (raised to 1 unless
            crushing, B378).
        damage_type: A :data:`DamageType`.
        location: A :data:`HitLocation`.
        armor_divisor: 1 (none), 2, 3, 5, 10, 100, 0.5, 0.2, 0.1, or ``math.inf`` for "ignores DR".
        dr: The DR listed for the location (armor and advantages), a whole number of at least 0;
            the skull's natural DR 2 is added to it. None reads it from ``damageResistance`` by
            ``locationId`` (``skull``/``face``, else ``head``; ``vitals``/``groin``, else ``torso``;
            ``eyes``; ``arms``, ``hands``, ``legs``, ``feet``), the first matching entry, else 0.
        tight_beam: Burning damage from a tight beam (``tbb``): it can hit the eye and the
            vitals (x2 there). Only for ``burn``.
        pain_threshold: ``"high"``, ``"low"`` or ``"normal"``; None reads the document's traits
            by their English names ("High Pain Threshold", "Low Pain Threshold"): sheets in
            another language should pass it.
        vulnerable_groin: Whether a groin hit is one to a male humanoid: crushing shock doubles
            (at most -8) and a major wound there takes -5 on the knockdown roll.

    Returns:
        A :class:`Hit`.

    Raises:
        CharacterError: ``notAnObject``; ``invalidArgument`` (``details["name"]`` names the
            argument) for damage that is not a whole number of at least 0, an unknown type,
            location or pain threshold, a divisor not in the list, a negative DR, ``tight_beam``
            with a type other than ``burn``, or a type that cannot hit the eye or vitals (only
            ``imp``, ``pi-``, ``pi``, ``pi+``, ``pi++`` and tight-beam ``burn`` can);
            ``invalidDocument`` (with the ``pointer``) when HP, ST, a DR entry used or the traits
            read are missing or malformed, or the traits list both pain thresholds.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    rolled = _whole(basic_damage, "basic_damage")
    kind: Any = _choice(damage_type, "damage_type", tuple(_TYPE_MULTIPLIER))
    where: Any = _choice(location, "location", _LOCATIONS)
    divisor_value, divisor = _divisor(armor_divisor)
    listed = None if dr is None else _whole(dr, "dr")
    beam = _flag(tight_beam, "tight_beam")
    groin_counts = _flag(vulnerable_groin, "vulnerable_groin")
    if pain_threshold is not None:
        _choice(pain_threshold, "pain_threshold", ("high", "low", "normal"))
    if beam and kind != "burn":
        _refuse("tight_beam", beam, f"False for {kind} damage (a tight beam is burning)")
    if where in ("eye", "vitals") and not _can_target(kind, beam):
        raise CharacterError(
            "invalidArgument",
            f"{kind} damage cannot hit the {where}: only imp, pi-, pi, pi+, pi++ and tight-beam burn can.",
            {"name": "damage_type", "value": kind, "location": where},
        )

    hp = _integer(_member(document, "secondary", "hp", "value"), "/secondary/hp/value")
    st = _integer(_member(document, "attributes", "st", "value"), "/attributes/st/value")
    pain: PainThreshold = _pain_threshold(document) if pain_threshold is None else pain_threshold

    basic = rolled if kind == "cr" else max(1, rolled)
    total_dr = (_listed_dr(document, where) if listed is None else listed) + (
        _SKULL_DR if where == "skull" else 0
    )
    effective_dr = _effective_dr(total_dr, divisor)
    penetrating = max(0, basic - effective_dr)
    multiplier = _multiplier(kind, where, beam)
    uncapped = math.floor(penetrating * multiplier)
    if penetrating > 0:
        uncapped = max(1, uncapped)

    fatigue = kind == "fat"
    cap = None if fatigue else _cap(where, hp)
    injury = uncapped if cap is None else min(uncapped, cap)
    crippled = not fatigue and _crippling(where, uncapped, hp)
    major_wound = not fatigue and (2 * injury > hp or crippled)

    steps = 0 if fatigue else _shock_steps(injury, hp)
    doubled = where == "groin" and kind == "cr" and groin_counts
    knockback = 0 if fatigue else _knockback(kind, basic, penetrating, st)

    rolls: list[Roll] = []
    if major_wound or (where in _HEAD_AND_VITALS and steps > 0):
        modifier = _knockdown_modifier(where, kind, major_wound, pain, groin_counts)
        rolls.append(Roll("knockdown", "ht", modifier, "immediately", "B420"))
    if knockback:
        balance = 4 if _has_trait("Perfect Balance", _traits(document)) is not None else 0
        rolls.append(Roll("keepFeet", "dx", -(knockback - 1) + balance, "immediately", "B378"))

    return Hit(
        basic_damage=basic,
        damage_type=kind,
        location=where,
        pool="fp" if fatigue else "hp",
        armor_divisor=divisor_value,
        tight_beam=beam,
        pain_threshold=pain,
        dr=total_dr,
        effective_dr=effective_dr,
        penetrating=penetrating,
        multiplier=_plain(multiplier),
        uncapped_injury=uncapped,
        injury=injury,
        shock=_shock(steps, pain, doubled),
        major_wound=major_wound,
        crippled=crippled,
        blinded_eyes=_blinded_eyes(where, kind, crippled, major_wound, injury, hp),
        knockback=knockback,
        rolls=tuple(rolls),
    )


# ---------------------------------------------------------------- apply_hit


def _hit_follow_ups(hit: Hit) -> list[FollowUp]:
    owed: list[FollowUp] = []
    if hit.blinded_eyes:
        owed.append(FollowUp("blinding", "B399", amount=hit.blinded_eyes))
    for roll in hit.rolls:
        if roll.kind == "knockdown":
            owed.append(
                FollowUp(
                    "knockdownCheck",
                    roll.reference,
                    attribute="ht",
                    modifier=roll.modifier,
                    when="immediately",
                )
            )
        elif roll.kind == "keepFeet":
            owed.append(
                FollowUp(
                    "keepFeetCheck",
                    roll.reference,
                    attribute="dx",
                    modifier=roll.modifier,
                    when="immediately",
                    amount=hit.knockback,
                )
            )
    return owed


def _in_order(pool_owed: tuple[FollowUp, ...], hit_owed: list[FollowUp]) -> tuple[FollowUp, ...]:
    """What is owed, as a GM resolves it: a fatal hit owes ``death`` alone; otherwise first what
    decides whether the character lives and stays awake now (death checks, unconsciousness, the
    HP cost of fatigue), then the hit's own effects (blinding, the knockdown roll, keeping one's
    feet: a character already knocked down has no feet to keep), and last the consciousness
    check, due at the start of the next turn."""
    if any(follow_up.kind == "death" for follow_up in pool_owed):
        return tuple(follow_up for follow_up in pool_owed if follow_up.kind == "death")
    later = [follow_up for follow_up in pool_owed if follow_up.kind == "consciousnessCheck"]
    now = [follow_up for follow_up in pool_owed if follow_up.kind != "consciousnessCheck"]
    return (*now, *hit_owed, *later)


@guarded
def apply_hit(document: Mapping[str, Any], hit: Hit, *, now: datetime | None = None) -> PoolChange:
    """Takes a resolved hit's injury off HP (fatigue off FP) and lists what the rules now owe.

    The change is made by :func:`~gurps_character.change_pool` (clamped to the pool's bounds, one
    write, ``meta.updatedAt`` set); fatigue past 0 FP also costs HP in the same write (B426,
    ``spill_to_hp``). The follow-ups are, in the order a GM resolves them: ``death`` alone if
    the hit kills; otherwise death checks, ``unconsciousness`` and ``fatigueInjury``, then the
    hit's ``blinding``, ``knockdownCheck`` and ``keepFeetCheck``, and last the
    ``consciousnessCheck`` due at the start of the next turn (see
    :class:`~gurps_character.FollowUp`).

    Args:
        document: The character the hit was resolved for; never modified.
        hit: A :class:`Hit` from :func:`resolve_hit`.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A :class:`~gurps_character.PoolChange`; its ``document`` is the new document.

    Raises:
        CharacterError: ``invalidArgument`` when ``hit`` is not a :class:`Hit`; otherwise as
            :func:`~gurps_character.change_pool` (``notAnObject``, ``invalidDocument``,
            ``outOfBounds``).
        TypeError: ``now`` is naive.
    """
    if not isinstance(hit, Hit):
        _refuse("hit", hit, "a Hit from resolve_hit")
    change = change_pool(document, hit.pool, -hit.injury, now=now, spill_to_hp=True)
    follow_ups = _in_order(change.follow_ups, _hit_follow_ups(hit))
    return replace(change, follow_ups=follow_ups)


# ---------------------------------------------------------------- weapon damage


def _base_dice(document: Mapping[str, Any], base: str) -> tuple[int, int]:
    key = "thrust" if base == "thrust" else "swing"
    dice = _integer(_member(document, "damage", key, "dice"), f"/damage/{key}/dice")
    adds = _integer(_member(document, "damage", key, "adds"), f"/damage/{key}/adds")
    return dice, adds


@guarded
def resolve_damage_notation(document: Mapping[str, Any], notation: str) -> WeaponDamage:
    """A weapon's damage text resolved for the character: dice, adds, type and armor divisor.

    The notation (B269, B271): a base, then optional parts, separated by optional spaces::

        notation   := base [multiplier] [divisor] type [divisor]
        base       := ("thr" | "sw") [adds]  |  count "d" [adds]
        adds       := ("+" | "-") digits
        multiplier := ("x" | "×") digits                  e.g. 6dx2
        divisor    := "(" (number | "inf" | "∞" | "ignores DR") ")"
        type       := cr | cut | imp | pi- | pi | pi+ | pi++ | burn | tbb | cor | tox | fat

    ``thr`` and ``sw`` take the character's thrust and swing (``/damage``), so ``sw+1 cut`` for
    swing 1d+2 is 1d+3. The adds are kept as written: the optional conversion of large adds into
    dice (B269) is not made. ``tbb`` is tight-beam burning. The divisor must be one
    :func:`resolve_hit` accepts.

    Args:
        document: The character wielding the weapon (never modified).
        notation: The damage text, e.g. ``"sw+2 (2) cut"``, ``"thr-1 cr"``, ``"2d+1 pi"``.

    Returns:
        A :class:`WeaponDamage`.

    Raises:
        CharacterError: ``invalidArgument`` (``details``: ``name``, ``value``, ``position``) for
            text that is not a damage notation, with a caret under the offending place in the
            message, or for affliction and special damage (``aff``, ``spec``), which no hit
            resolves; ``notAnObject``; ``invalidDocument`` when ``thr`` or ``sw`` is used and the
            document's ``/damage`` lacks integer dice and adds.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    if not isinstance(notation, str):
        _refuse("notation", notation, "a damage notation such as 'sw+1 cut'")
    try:
        parsed = parse_notation(notation)
    except NotationError as err:
        raise CharacterError(
            "invalidArgument",
            f"notation: {err.reason}:\n  {notation}\n  {' ' * err.position}^",
            {"name": "notation", "value": notation, "position": err.position, "reason": err.reason},
        ) from None
    if parsed.base == "fixed":
        dice, adds = parsed.dice, parsed.adds
    else:
        dice, adds = _base_dice(document, parsed.base)
        adds += parsed.adds
    tight_beam = parsed.damage_type == "tbb"
    damage_type: Any = "burn" if tight_beam else parsed.damage_type
    return WeaponDamage(
        notation=notation,
        base=parsed.base,
        dice=dice,
        adds=adds,
        multiplier=parsed.multiplier,
        damage_type=damage_type,
        armor_divisor=_plain(parsed.armor_divisor),
        tight_beam=tight_beam,
    )
