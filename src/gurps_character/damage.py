"""Damage resolution by the Basic Set: from one hit to injury, shock, wounds and knockback.

:func:`resolve_hit` answers, for one hit on a character, what the rules make of it (B377-B381,
B398-B400, B419-B422); :func:`apply_hit` takes the injury off the pool through
:func:`~gurps_character.change_pool` and lists, in the order a GM resolves them, the rolls the hit
and the pool's thresholds now call for; :func:`resolve_damage_notation` turns a weapon's damage
text (``sw+1 cut``) into dice for the character, so an engine goes from a weapon to a hit without
parsing text.

The steps of :func:`resolve_hit`:

1. **Basic damage** is the rolled total, at least 1 (0 for crushing, B378).
2. **DR** is the DR the sheet lists for the location (armor and advantages) plus the location's
   natural DR: the skull's 2 (B399) for every damage type, or what the character's body table
   gives (below). **Effective DR** is DR divided by the armor divisor, rounded down (B110,
   B378): (2) halves it, (0.5) doubles it; ``math.inf`` ("ignores DR") makes it 0; below 1, DR
   0 counts as DR 1 (B110). The Basic Set lists (2), (3), (5), (10), (100) and (0.5), (0.2),
   (0.1); GCS writes any decimal a divisor bonus makes ((4), (1.5)), and every divisor from
   0.001 to 1000 follows the same rule, in exact arithmetic (0.3 is 3/10).
3. **Penetrating damage** = basic damage - effective DR, at least 0.
4. **Wounding multiplier** (B379): cr, burn, cor, tox, fat, pi x1; pi- x0.5; cut, pi+ x1.5;
   imp, pi++ x2. Hit locations replace it (B398-B399): skull and eye x4 for every type but tox;
   face cor x1.5; neck cr and cor x1.5, cut x2; limbs (arm, leg) and extremities (hand, foot)
   imp, pi+ and pi++ x1; vitals imp and the piercing types x3, tight-beam burning x2. Fatigue
   ignores hit location.
5. **Injury** = penetrating x multiplier, rounded down, and at least 1 when anything penetrates
   (B379). A limb's injury beyond HP/2 and an extremity's beyond HP/3 are lost: the injury
   suffered is at most floor(HP/2) + 1 (limb) or floor(HP/3) + 1 (extremity).
6. **Crippled** (B421): the uncapped injury is over HP/2 (limb), over HP/3 (extremity) or
   over HP/10 (eye; a crippled eye is blinded).
7. **Shock** (B419): -1 per HP of injury, or per full floor(HP/10) of injury with 20 HP or
   more, at most -4. Low Pain Threshold doubles it, and so does crushing to the groin of a male
   humanoid (``vulnerable_groin``, read from the sheet: the GCS profile's gender,
   else ``Gender: ...`` in ``profile.appearance``; a sheet that says nothing is not male); the maximum
   is then -8. High Pain Threshold: no shock.
8. **Major wound** (B420): an injury over HP/2, or any crippling injury. A major wound, or a hit
   to the skull, face, eye or vitals that does enough injury for a shock penalty, calls for a
   **knockdown** roll on HT: -10 for a major wound to the skull or eye, -5 for one to the face,
   vitals or a vulnerable groin, +3 High Pain Threshold, -4 Low Pain Threshold.
   Corrosion that is a major wound to the face blinds one eye, both when it is over the full HP.
9. **Knockback** (B378): crushing always, cutting only when it does not penetrate: one yard per
   full ST - 2 (at least 1) of basic damage. Whoever is knocked back rolls DX (or the better of
   Acrobatics and Judo) to **keep his feet**, at -1 per yard after the first, +4 with Perfect
   Balance.

**Other bodies** (B552-B554). A character imported from GCS keeps its body's hit-location table
(:func:`~gurps_character.body_of`): its locations are the ones a blow can land on (by
GCS's ids: ``wing``, ``tail``, ``fin``, ``brain``...), its locations' natural DR (GCS's
``dr_bonus``: the skull's 2, an octopod's brain 1, none for a body that lists none) is the
natural DR of step 2, and DR against one damage type (GCS's "4 vs crushing") is added for that
type. Each location is treated as the rule's kind of location its id names
(:func:`~gurps_character.locations.location_role`):

* ``brain`` is the skull (B552: x4, knockdown -10);
* ``arm``, ``leg`` and ``wing`` are limbs (B552, B554: a crippled wing cannot fly);
* ``hand``, ``foot``, ``fin``, ``extremity`` and ``tail`` are extremities (B554: a tail is an
  extremity unless it is a Striker or an Extra Arm, which a body table cannot tell);
* every other id (``abdomen``, ``spine``, ``chinks``...) is hit as the torso: no override, no
  cap, never crippled (optional rules beyond the Basic Set are not applied).

Characters without a body table are humanoids by the Basic Set, as above.

Why one module of this length: one hit's resolution is one pipeline (notation, DR, wounding,
location, shock, knockdown, crippling), and its steps share the :class:`Hit` record and its
checks; the notation's grammar already lives in :mod:`._notation`.
"""

from __future__ import annotations

import math
import random
import re
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from fractions import Fraction
from typing import Any, Final, Literal, NoReturn, TypeAlias, TypeGuard

from ._extension import kept_gcs_data
from ._notation import NotationError, parse_notation
from .conditions import FollowUp, PoolChange, Roll, _integer, _member, pool_changed
from .errors import CharacterError, describe, guarded, json_detail
from .formula._values import MAX_ROLLED_DICE, SYSTEM_RANDOM, roll_dice
from .locations import (
    DR_COVER,
    HIT_LOCATIONS,
    LOCATION_NAMES,
    Body,
    BodyLocation,
    HitLocation,
    LocationRole,
    body_of,
    location_role,
)
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
"""A damage type (B379), one of crushing, cutting, impaling, the four piercing sizes, burning, corrosion,
toxic and fatigue."""

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
_PIERCING: Final = frozenset({"imp", "pi-", "pi", "pi+", "pi++"})
_HEAD_AND_VITALS: Final[frozenset[LocationRole]] = frozenset({"skull", "face", "eye", "vitals"})
_LEAST_DIVISOR: Final = Fraction(1, 1000)
_GREATEST_DIVISOR: Final = Fraction(1000)
"""The bounds of an armor divisor: DR is divided, or multiplied, by at most 1000."""
_DIVISOR_EXPECTED: Final = "a number from 0.001 to 1000 (1 for none), or math.inf for 'ignores DR'"

_FORMAT_IDS: Final[dict[str, str]] = {
    "eye": "eyes",
    "arm": "arms",
    "hand": "hands",
    "leg": "legs",
    "foot": "feet",
}
"""A GCS location id → the format's ``locationId`` where they differ."""
_DR_KEYS: Final[dict[str, tuple[str, ...]]] = {
    "cr": ("cr", "crushing"),
    "cut": ("cut", "cutting"),
    "imp": ("imp", "impaling"),
    "pi-": ("pi-", "piercing", "small piercing"),
    "pi": ("pi", "piercing"),
    "pi+": ("pi+", "piercing", "large piercing"),
    "pi++": ("pi++", "piercing", "huge piercing"),
    "burn": ("burn", "burning"),
    "cor": ("cor", "corrosion", "corrosive"),
    "tox": ("tox", "toxic"),
    "fat": ("fat", "fatigue"),
}
"""The keys of a body location's DR by damage type (GCS's lower-cased ``dr_bonus``
specializations) that count against each type; DR limited to anything else ("fire",
"bullets") is not applied."""
_SKULL_DR: Final = 2
_HUMANOID_TEXT: Final = ", ".join(repr(name) for name in HIT_LOCATIONS)
_FORMAT_TEXT: Final = ", ".join(
    repr(name) for name in LOCATION_NAMES if name not in HIT_LOCATIONS and "_" not in name
)
_SIDES_TEXT: Final = ", ".join(repr(name) for name in LOCATION_NAMES if "_" in name)
_OTHER_SPELLINGS: Final = f"or the format's {_FORMAT_TEXT}; or a side, {_SIDES_TEXT}"
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
        location: Where the blow landed: a :data:`HitLocation` by the rule's name (``arm``,
            also when ``arms`` was asked for), or the id of a location of the character's body
            table (``wing``, ``tail``...).
        pool: ``"hp"``, or ``"fp"`` for fatigue damage.
        armor_divisor: The armor divisor (1 for none, ``math.inf`` for "ignores DR").
        tight_beam: Whether burning damage was a tight beam.
        pain_threshold: The :data:`PainThreshold` the hit was resolved with.
        dr: The DR at the location, its natural DR included.
        effective_dr: The DR after the armor divisor.
        penetrating: Basic damage minus effective DR, at least 0.
        wounding_multiplier: The wounding multiplier after the location's override (B379,
            B398-B399).
        uncapped_injury: Penetrating times multiplier, rounded down, at least 1 when anything
            penetrates.
        injury: What comes off the pool: the uncapped injury, limited for a limb or extremity.
        shock: 0, or the penalty (-1 to -8) to DX and IQ on the victim's next turn.
        major_wound: An injury over HP/2, or any crippling injury.
        crippled: The limb, extremity or eye is crippled.
        blinded_eyes: How many eyes the hit blinds (0, 1 or 2).
        knockback: Yards of knockback.
        rolls: The rolls the hit calls for, in order: ``knockdown`` (HT), then ``keepFeet``.
        natural_dr: The part of :attr:`dr` the body itself gives (the skull's 2; a body
            table's natural DR there).
    """

    basic_damage: int
    damage_type: DamageType
    location: HitLocation | str
    pool: PoolName
    armor_divisor: float
    tight_beam: bool
    pain_threshold: PainThreshold
    dr: int
    effective_dr: int
    penetrating: int
    wounding_multiplier: float
    uncapped_injury: int
    injury: int
    shock: int
    major_wound: bool
    crippled: bool
    blinded_eyes: int
    knockback: int
    rolls: tuple[Roll, ...]
    natural_dr: int = 0

    @property
    def multiplier(self) -> float:
        """Deprecated (to be removed in 0.3.0), use :attr:`wounding_multiplier`; a weapon's
        ``6dx2`` is :attr:`WeaponDamage.multiplier`."""
        warnings.warn(
            "Hit.multiplier is deprecated: use Hit.wounding_multiplier.", DeprecationWarning, stacklevel=2
        )
        return self.wounding_multiplier

    def to_dict(self) -> dict[str, Any]:
        """The hit as JSON data.

        Returns:
            The hit's fields with camelCase keys; ``armorDivisor`` is ``"ignoresDR"`` for
            ``math.inf``.
        """
        return {
            "basicDamage": self.basic_damage,
            "damageType": self.damage_type,
            "location": self.location,
            "pool": self.pool,
            "armorDivisor": _divisor_json(self.armor_divisor),
            "tightBeam": self.tight_beam,
            "painThreshold": self.pain_threshold,
            "dr": self.dr,
            "naturalDr": self.natural_dr,
            "effectiveDr": self.effective_dr,
            "penetrating": self.penetrating,
            "woundingMultiplier": self.wounding_multiplier,
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
        damage_type: The :data:`DamageType` (``tbb`` is ``burn`` with :attr:`tight_beam`), or
            None for a damage word no hit resolves (GCS's ``ctrl``, ``dehydrate``, ``aff``,
            ``spec.``): such damage is rolled but not passed to :func:`resolve_hit`, which takes
            a type.
        armor_divisor: 1 when none is written; the decimal written (``4``, ``1.5``, ``0.5``);
            ``math.inf`` for "ignores DR".
        tight_beam: Tight-beam burning (``tbb``).
        type_text: The damage word as written, in lower case (``cut``, ``tbb``, ``ctrl``,
            ``aff``, ``spec.``).
        per_points: 0, or the energy points each step of the damage costs (``1d burn/point``:
            1; ``1d cr ex/2 points``: 2), for spells and powers whose damage grows with the
            points spent.
        step_dice: The dice each step adds (``thr-1 cr +1d/point``: 1, with :attr:`step_adds`);
            0 when the whole roll is per step (``1d-1 burn/point``: roll 1d-1 per point).
        step_adds: The adds of each step (0 without a step).
        modifiers: The damage modifiers written after the type, in order (``ex`` explosive,
            ``inc`` incendiary, ``sur`` surge, ``dkb`` double knockback, ``nkb`` no knockback,
            ``rad`` radiation); kept for the engine, not applied.
    """

    notation: str
    base: Literal["thrust", "swing", "fixed"]
    dice: int
    adds: int
    multiplier: int
    damage_type: DamageType | None
    armor_divisor: float
    tight_beam: bool
    type_text: str = ""
    per_points: int = 0
    step_dice: int = 0
    step_adds: int = 0
    modifiers: tuple[str, ...] = ()

    @property
    def minimum(self) -> int:
        """The least basic damage a roll can do, 1 or 0 for crushing (B378)."""
        return 0 if self.damage_type == "cr" else 1

    @property
    def dice_notation(self) -> str:
        """The dice to roll in the usual notation, such as ``1d+2``, ``2d``, ``6dx2`` (``to_dict()``'s
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
            CharacterError: ``invalidArgument`` when ``rng`` is not a ``random.Random``, the
                roll has more than 10,000 dice, or the value is not one
                :func:`resolve_damage_notation` gives (rebuilt or changed with
                ``dataclasses.replace``: dice, adds or multiplier not whole numbers, a bool,
                fewer than 0 dice or a multiplier under 1, a damage type that is none).
        """
        if rng is not None and not isinstance(rng, random.Random):
            _refuse("rng", rng, "a random.Random (such as random.Random(42)) or None")
        _check_rollable(self)
        if self.dice > MAX_ROLLED_DICE:
            _refuse("dice", self.dice, f"a number of dice from 0 to {MAX_ROLLED_DICE:,} to be rolled")
        rolled = roll_dice(self.dice, rng if rng is not None else SYSTEM_RANDOM) + self.adds
        return max(self.minimum, rolled * self.multiplier)

    def to_dict(self) -> dict[str, Any]:
        """The weapon damage as JSON data.

        Returns:
            ``{"notation", "base", "dice", "adds", "multiplier", "roll", "damageType", "armorDivisor",
            "tightBeam", "minimum"}``; ``armorDivisor`` is ``"ignoresDR"`` for ``math.inf``. Only when they
            say something: ``"typeText"`` (when ``damageType`` is null), ``"perPoints"``, ``"stepDice"`` and
            ``"stepAdds"`` (per-point damage), ``"modifiers"`` (a list).
        """
        found: dict[str, Any] = {
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
        if self.damage_type is None:
            found["typeText"] = self.type_text
        if self.per_points:
            found.update(perPoints=self.per_points, stepDice=self.step_dice, stepAdds=self.step_adds)
        if self.modifiers:
            found["modifiers"] = list(self.modifiers)
        return found


# ---------------------------------------------------------------- arguments


def _refuse(name: str, value: object, expected: str) -> NoReturn:
    raise CharacterError(
        "invalidArgument",
        f"{name} must be {expected}, not {describe(value)}.",
        {"name": name, "value": json_detail(value)},
    )


def _check_rollable(damage: WeaponDamage) -> None:
    """What :meth:`WeaponDamage.roll` reads has the types and ranges
    :func:`resolve_damage_notation` gives: a value rebuilt from ``to_dict()`` or changed with
    ``dataclasses.replace`` would otherwise raise a TypeError or roll fractional, infinite or
    boolean dice (checked as :func:`apply_hit` checks its :class:`Hit`)."""
    for field, least in (("dice", 0), ("adds", None), ("multiplier", 1)):
        value: object = getattr(damage, field, None)
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not _is_double(value)
            or (least is not None and value < least)
        ):
            bounds = f" of at least {least}" if least is not None else ""
            huge = isinstance(value, int) and not isinstance(value, bool) and not _is_double(value)
            held = " that a double holds" if huge else ""
            _not_resolved(field, value, f"not a whole number{bounds}{held}")
    kind = damage.damage_type
    if kind is not None and (not isinstance(kind, str) or kind not in _TYPE_MULTIPLIER):
        _not_resolved("damage_type", kind, "not a damage type or None")


def _not_resolved(field: str, value: object, expected: str) -> NoReturn:
    raise CharacterError(
        "invalidArgument",
        f"damage is not what resolve_damage_notation gives: its {field} is {describe(value)}, {expected}.",
        {"name": "damage", "field": field, "value": json_detail(value)},
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


def _exact_divisor(value: object) -> tuple[float, Fraction | None] | None:
    """An armor divisor as a plain number and its exact value (None for ``math.inf``, "ignores
    DR"), or None when it is none: not a number, or beyond 0.001 to 1000. A float is the decimal
    it is written as (0.3 is 3/10, not the binary fraction nearest it)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if value == math.inf:
        return math.inf, None
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        exact = Fraction(float.__repr__(value))
    else:
        exact = Fraction(int(value))
    if not _LEAST_DIVISOR <= exact <= _GREATEST_DIVISOR:
        return None
    return _plain(value), exact


def _divisor(value: object) -> tuple[float, Fraction | None]:
    found = _exact_divisor(value)
    if found is None:
        _refuse("armor_divisor", value, _DIVISOR_EXPECTED)
    return found


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


def _body(document: Mapping[str, Any]) -> Body | None:
    """The character's body table, or None for a humanoid by the Basic Set."""
    return body_of(document)


def _location(value: object, body: Body | None, name: str = "location") -> tuple[str, BodyLocation | None]:
    """The location asked for, by the rule's name or the body's id, and its body row."""
    if not isinstance(value, str):
        _refuse_location(value, body, name)
    where = LOCATION_NAMES.get(value, value)
    if body is None:
        if where not in HIT_LOCATIONS:
            _refuse_location(value, body, name)
        return where, None
    place = body.location(where)
    if place is None:
        _refuse_location(value, body, name)
    return where, place


def _refuse_location(value: object, body: Body | None, name: str) -> NoReturn:
    if body is None:
        _refuse(name, value, f"one of {_HUMANOID_TEXT} ({_OTHER_SPELLINGS})")
    ids = body.ids
    shown = describe(value) if not isinstance(value, str) else repr(value)
    raise CharacterError(
        "invalidArgument",
        f"{name} must be a hit location of the character's body ({body.name or 'unnamed'}): "
        f"{', '.join(ids)}; not {shown}.",
        {"name": name, "value": json_detail(value), "locations": list(ids)},
    )


def _label(asked: object, where: str) -> str:
    """The location a :class:`Hit` names: the side a roll gave (``right_leg``, B552) when asked
    so, else the rule's name (``arm`` for ``arms``) or the body's id."""
    return asked if isinstance(asked, str) and asked in _SIDES and _SIDES[asked] == where else where


_SIDES: Final[Mapping[str, str]] = {
    side: name for side, name in LOCATION_NAMES.items() if side.startswith(("right_", "left_"))
}
"""The sided spellings :func:`~gurps_character.hit_location` rolls, and the location each is."""

_MALE: Final = frozenset({"male", "m", "man", "boy", "masculine"})
_NOT_MALE: Final = frozenset({"female", "f", "woman", "girl", "feminine", "none", "neuter", "sexless"})
_GENDER_TEXT: Final = re.compile(r"(?:^|;)\s*(?:gender|sex)\s*:\s*([^;]*)", re.IGNORECASE)


def _male_word(text: str) -> bool | None:
    word = text.strip().casefold()
    return True if word in _MALE else False if word in _NOT_MALE else None


def _sheet_is_male(document: Mapping[str, Any]) -> bool | None:
    """Whether the sheet says the character is male (B399's groin rule is for males), read
    from the GCS profile an import keeps (its ``gender``), else from ``profile.appearance``'s
    ``Gender: ...`` (or ``Sex: ...``) part, as the importer writes it.

    Never raises.

    Args:
        document: A character document (never modified).

    Returns:
        True (male, m, man ...), False (female, f, woman, none ...), or None when the sheet says
        nothing or something else: :func:`resolve_hit` then doubles no groin shock.
    """
    if not isinstance(document, Mapping):
        return None
    kept = kept_gcs_data(document)
    gcs = _member(kept, "profile", "gender") if kept is not None else None
    if isinstance(gcs, str) and gcs.strip():
        return _male_word(gcs)
    appearance = _member(document, "profile", "appearance")
    if isinstance(appearance, str):
        found = _GENDER_TEXT.search(appearance)
        if found is not None:
            return _male_word(found.group(1))
    return None


def _sheet_dr(
    document: Mapping[str, Any], location_ids: tuple[str, ...], names: tuple[str, ...]
) -> int | None:
    """The DR the sheet lists: the first entry with one of the ``locationId``s (in order), else
    the first whose ``location`` is one of the names (any case), else None."""
    entries = document.get("damageResistance")
    if entries is None:
        return None
    if not isinstance(entries, list | tuple):
        raise CharacterError(
            "invalidDocument", "/damageResistance must be a list.", {"pointer": "/damageResistance"}
        )
    found: int | None = None
    for location_id in location_ids:
        found = next((i for i, e in enumerate(entries) if _member(e, "locationId") == location_id), None)
        if found is not None:
            break
    if found is None:
        wanted = {name.casefold() for name in names if name}
        found = next((i for i, e in enumerate(entries) if _named(e, wanted)), None)
    if found is None:
        return None
    pointer = f"/damageResistance/{found}/dr"
    dr = _integer(_member(entries[found], "dr"), pointer)
    if dr < 0:
        raise CharacterError("invalidDocument", f"{pointer} must be at least 0.", {"pointer": pointer})
    return dr


def _named(entry: object, names: set[str]) -> bool:
    """Whether a DR entry's ``location`` text is one of the (casefolded) names."""
    text = _member(entry, "location")
    return isinstance(text, str) and text.strip().casefold() in names


def _listed_dr(document: Mapping[str, Any], location: str, place: BodyLocation | None) -> int:
    """The DR the sheet lists for ``location`` (armor and advantages): its own entry, the
    covering one (B398: a helm covers skull and face, torso armor the vitals and groin); for a
    body location the sheet has no entry for, the body table's DR less its natural DR; else 0."""
    if place is None:
        return _sheet_dr(document, DR_COVER[location], ()) or 0
    ids = DR_COVER.get(location, (_FORMAT_IDS.get(location, location),))
    found = _sheet_dr(document, ids, (place.name, place.table_name))
    if found is not None:
        return found
    return max(0, place.dr["all"] - place.natural_dr)


def _dr_against(place: BodyLocation, damage_type: str) -> int:
    """What a body location's DR adds against one damage type (GCS's "4 vs crushing")."""
    keys = _DR_KEYS[damage_type]
    return sum(amount for key, amount in place.dr.items() if key.casefold() in keys)


def _natural_dr(location: str, place: BodyLocation | None) -> int:
    """The body's own DR at the location: the body table's, else the skull's 2 (B399)."""
    if place is not None:
        return place.natural_dr
    return _SKULL_DR if location == "skull" else 0


# ---------------------------------------------------------------- the rules


def _effective_dr(dr: int, divisor: Fraction | None) -> int:
    """DR divided by the divisor, rounded down (B110, B378), for every divisor: the Basic Set
    lists (2), (3), (5), (10), (100) and (0.5), (0.2), (0.1), but GCS writes any (4), (1.5);
    below 1, DR 0 counts as DR 1 (B110's fractional divisors)."""
    if divisor is None:
        return 0
    divided = dr // divisor  # exact: a Fraction floors to an int
    return max(1, divided) if divisor < 1 else divided


def _multiplier(damage_type: str, role: LocationRole, tight_beam: bool) -> Fraction:
    if damage_type == "fat":
        return _TYPE_MULTIPLIER["fat"]  # fatigue ignores hit location
    if role in ("skull", "eye") and damage_type != "tox":
        return Fraction(4)
    if role == "vitals":
        return Fraction(3) if damage_type in _PIERCING else Fraction(2)  # else tight-beam burning
    if role == "face" and damage_type == "cor":
        return Fraction(3, 2)
    if role == "neck" and damage_type in ("cr", "cor"):
        return Fraction(3, 2)
    if role == "neck" and damage_type == "cut":
        return Fraction(2)
    if role in ("limb", "extremity") and damage_type in ("imp", "pi+", "pi++"):
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
    role: LocationRole, damage_type: str, crippled: bool, major_wound: bool, injury: int, hp: int
) -> int:
    """A crippled eye is blind; corrosion that is a major wound to the face blinds one eye, both
    when the injury is over the full HP (B399)."""
    if role == "eye" and crippled:
        return 1
    if role == "face" and damage_type == "cor" and major_wound:
        return 2 if injury > hp else 1
    return 0


def _cap(role: LocationRole, hp: int) -> int | None:
    """The most injury a limb or extremity can suffer: the least whole number over HP/2 or HP/3."""
    if role == "limb":
        return max(1, hp // 2 + 1)
    if role == "extremity":
        return max(1, hp // 3 + 1)
    return None


def _crippling(role: LocationRole, injury: int, hp: int) -> bool:
    if role == "limb":
        return 2 * injury > hp
    if role == "extremity":
        return 3 * injury > hp
    if role == "eye":
        return 10 * injury > hp
    return False


def _knockdown_modifier(
    role: LocationRole, damage_type: str, major_wound: bool, pain: PainThreshold, vulnerable_groin: bool
) -> int:
    modifier = 0
    if major_wound:
        if role in ("skull", "eye") and damage_type != "tox":
            modifier -= 10
        elif role in ("face", "vitals") or (role == "groin" and vulnerable_groin):
            modifier -= 5
    return modifier + {"high": 3, "low": -4, "normal": 0}[pain]


def _knockback(damage_type: str, basic_damage: int, penetrating: int, st: int) -> int:
    if damage_type == "cr" or (damage_type == "cut" and penetrating == 0):
        return basic_damage // max(1, st - 2)
    return 0


@dataclass(frozen=True, slots=True)
class _Blow:
    """What :func:`resolve_hit` was asked, checked: everything the rules start from."""

    basic: int
    kind: str
    where: str
    role: LocationRole
    divisor_value: float
    divisor: Fraction | None
    beam: bool
    pain: PainThreshold
    total_dr: int
    natural_dr: int
    label: str = ""


def _check_target(kind: str, where: str, role: LocationRole, beam: bool) -> None:
    if beam and kind != "burn":
        _refuse("tight_beam", beam, f"False for {kind} damage (a tight beam is burning)")
    if role in ("eye", "vitals") and not _can_target(kind, beam):
        raise CharacterError(
            "invalidArgument",
            f"{kind} damage cannot hit the {where}: only imp, pi-, pi, pi+, pi++ and tight-beam burn can.",
            {"name": "damage_type", "value": kind, "location": where},
        )


def _rules(document: Mapping[str, Any], blow: _Blow, vulnerable_groin: bool) -> Hit:
    """The hit by the rules, from its checked inputs and the DR in place."""
    hp = _integer(_member(document, "secondary", "hp", "value"), "/secondary/hp/value")
    st = _integer(_member(document, "attributes", "st", "value"), "/attributes/st/value")
    kind, where, role = blow.kind, blow.where, blow.role
    basic = blow.basic if kind == "cr" else max(1, blow.basic)
    effective_dr = _effective_dr(blow.total_dr, blow.divisor)
    penetrating = max(0, basic - effective_dr)
    multiplier = _multiplier(kind, role, blow.beam)
    uncapped = math.floor(penetrating * multiplier)
    if penetrating > 0:
        uncapped = max(1, uncapped)

    fatigue = kind == "fat"
    cap = None if fatigue else _cap(role, hp)
    injury = uncapped if cap is None else min(uncapped, cap)
    crippled = not fatigue and _crippling(role, uncapped, hp)
    major_wound = not fatigue and (2 * injury > hp or crippled)

    steps = 0 if fatigue else _shock_steps(injury, hp)
    doubled = role == "groin" and kind == "cr" and vulnerable_groin
    knockback = 0 if fatigue else _knockback(kind, basic, penetrating, st)

    rolls: list[Roll] = []
    if major_wound or (role in _HEAD_AND_VITALS and steps > 0):
        modifier = _knockdown_modifier(role, kind, major_wound, blow.pain, vulnerable_groin)
        rolls.append(Roll("knockdown", "ht", modifier, "immediately", "B420"))
    if knockback:
        balance = 4 if _has_trait("Perfect Balance", _traits(document)) is not None else 0
        rolls.append(Roll("keepFeet", "dx", -(knockback - 1) + balance, "immediately", "B378"))

    damage_type: Any = kind
    return Hit(
        basic_damage=basic,
        damage_type=damage_type,
        location=blow.label or where,
        pool="fp" if fatigue else "hp",
        armor_divisor=blow.divisor_value,
        tight_beam=blow.beam,
        pain_threshold=blow.pain,
        dr=blow.total_dr,
        effective_dr=effective_dr,
        penetrating=penetrating,
        wounding_multiplier=_plain(multiplier),
        uncapped_injury=uncapped,
        injury=injury,
        shock=_shock(steps, blow.pain, doubled),
        major_wound=major_wound,
        crippled=crippled,
        blinded_eyes=_blinded_eyes(role, kind, crippled, major_wound, injury, hp),
        knockback=knockback,
        rolls=tuple(rolls),
        natural_dr=blow.natural_dr,
    )


@guarded
def resolve_hit(
    document: Mapping[str, Any],
    basic_damage: int,
    damage_type: DamageType,
    *,
    location: HitLocation | str = "torso",
    armor_divisor: float = 1,
    dr: int | None = None,
    tight_beam: bool = False,
    pain_threshold: PainThreshold | None = None,
    vulnerable_groin: bool | None = None,
) -> Hit:
    """What the rules make of one hit on the character: DR, injury, shock, wounds, knockback.

    Pure: the document is read, never changed. The module documentation lists each step and the
    decisions taken where the Basic Set leaves a choice.

    Args:
        document: The character hit (never modified). Read: ``/secondary/hp/value`` and
            ``/attributes/st/value`` (integers), ``/damageResistance`` when ``dr`` is None,
            ``/traits`` when ``pain_threshold`` is None or the hit knocks the character back
            (Perfect Balance), and the body table an import from GCS keeps in the extensions
            (:func:`~gurps_character.body_of`).
        basic_damage: The rolled damage, a whole number of at least 0 (raised to 1 unless
            crushing, B378).
        damage_type: A :data:`DamageType`.
        location: A :data:`HitLocation` by the rule's name or the format's ``locationId``
            (``arm`` or ``arms``; every spelling in
            :data:`~gurps_character.LOCATION_NAMES`); for a character with a body
            table, one of its locations by GCS's id (``wing``, ``tail``...; ``arms`` still
            means ``arm``).
        armor_divisor: 1 (none), a number from 0.001 to 1000 (2, 3, 5, 10, 100, 0.5, 0.2, 0.1
            as the Basic Set lists them, or any other GCS writes: 4, 1.5), or ``math.inf`` for
            "ignores DR".
        dr: The DR listed for the location (armor and advantages), a whole number of at least 0;
            the location's natural DR (the skull's 2, or the body table's) is added to it. None
            reads it from ``damageResistance`` by ``locationId`` (``skull``/``face``, else
            ``head``; ``vitals``/``groin``, else ``torso``; ``eyes``; ``arms``, ``hands``,
            ``legs``, ``feet``), the first matching entry, else 0; for a body location the
            format has no ``locationId`` for, the entry whose ``location`` is its name, else the
            body table's DR; with a body table, its DR against the damage type is added.
        tight_beam: Burning damage from a tight beam (``tbb``): it can hit the eye and the
            vitals (x2 there). Only for ``burn``.
        pain_threshold: ``"high"``, ``"low"`` or ``"normal"``; None reads the document's traits
            by their English names ("High Pain Threshold", "Low Pain Threshold"): sheets in
            another language should pass it.
        vulnerable_groin: Whether a groin hit is one to a male humanoid: crushing shock doubles
            (at most -8) and a major wound there takes -5 on the knockdown roll (B399). None
            reads the sheet: the GCS profile's ``gender`` an import keeps, else ``Gender: ...``
            in ``profile.appearance``; only a male counts, and a sheet that says nothing is not.

    Returns:
        A :class:`Hit`.

    Raises:
        CharacterError: ``notAnObject``; ``invalidArgument`` (``details["name"]`` names the
            argument) for damage that is not a whole number of at least 0, an unknown type,
            location (for a character with a body table, a location the body lacks: the message
            and ``details["locations"]`` list the body's) or pain threshold, a divisor beyond
            0.001 to 1000 (other than ``math.inf``), a negative DR, ``tight_beam`` with a type
            other than ``burn``, or a type that cannot hit the eye or vitals (only ``imp``,
            ``pi-``, ``pi``, ``pi+``, ``pi++`` and tight-beam ``burn`` can); ``invalidDocument``
            (with the ``pointer``) when HP, ST, a DR entry used, the traits read or the body
            table are missing or malformed, or the traits list both pain thresholds.
    """
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    rolled = _whole(basic_damage, "basic_damage")
    kind: Any = _choice(damage_type, "damage_type", tuple(_TYPE_MULTIPLIER))
    body = _body(document)
    where, place = _location(location, body)
    role = location_role(where)
    divisor_value, divisor = _divisor(armor_divisor)
    listed = None if dr is None else _whole(dr, "dr")
    beam = _flag(tight_beam, "tight_beam")
    groin_counts = (
        _sheet_is_male(document) is True
        if vulnerable_groin is None
        else _flag(vulnerable_groin, "vulnerable_groin")
    )
    if pain_threshold is not None:
        _choice(pain_threshold, "pain_threshold", ("high", "low", "normal"))
    _check_target(kind, where, role, beam)

    pain: PainThreshold = _pain_threshold(document) if pain_threshold is None else pain_threshold
    natural = _natural_dr(where, place)
    if listed is None:
        against = _dr_against(place, kind) if place is not None else 0
        total_dr = max(0, _listed_dr(document, where, place) + natural + against)
    else:
        total_dr = listed + natural
    label = _label(location, where)
    blow = _Blow(rolled, kind, where, role, divisor_value, divisor, beam, pain, total_dr, natural, label)
    return _rules(document, blow, groin_counts)


# ---------------------------------------------------------------- apply_hit

_HIT_INTEGERS: Final = (
    "basic_damage",
    "dr",
    "natural_dr",
    "effective_dr",
    "penetrating",
    "uncapped_injury",
    "injury",
    "knockback",
)
_HIT_FLAGS: Final = ("tight_beam", "major_wound", "crippled")


def _forged(field: str, value: object, expected: str) -> NoReturn:
    shown = _rolls_text(value) if field == "rolls" and _all_rolls(value) else describe(value)
    raise CharacterError(
        "invalidArgument",
        f"hit is not what resolve_hit gives: its {field} is {shown}, {expected}.",
        {"name": "hit", "field": field, "value": json_detail(value)},
    )


def _all_rolls(value: object) -> TypeGuard[tuple[Roll, ...]]:
    return isinstance(value, tuple) and all(type(roll) is Roll for roll in value)


def _whole_field(hit: Hit, field: str, low: int = 0, high: int | None = None) -> None:
    value: object = getattr(hit, field, None)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not _is_double(value)
        or value < low
        or (high is not None and value > high)
    ):
        bounds = f"from {low} to {high}" if high is not None else f"of at least {low}"
        _forged(field, value, f"not a whole number {bounds}")


def _checked_fields(hit: Hit) -> None:
    """Every field of a hit has a type and range :func:`resolve_hit` can give."""
    for field in _HIT_INTEGERS:
        _whole_field(hit, field)
    _whole_field(hit, "shock", -_MAX_DOUBLED_SHOCK, 0)
    _whole_field(hit, "blinded_eyes", 0, 2)
    for field in _HIT_FLAGS:
        if not isinstance(getattr(hit, field, None), bool):
            _forged(field, getattr(hit, field, None), "not True or False")
    if not isinstance(hit.damage_type, str) or hit.damage_type not in _TYPE_MULTIPLIER:
        _forged("damage_type", hit.damage_type, "not a damage type")
    if not isinstance(hit.location, str):
        _forged("location", hit.location, "not a hit location")
    if hit.pool != ("fp" if hit.damage_type == "fat" else "hp"):
        _forged("pool", hit.pool, f"not the pool {hit.damage_type} damage goes to")
    if not isinstance(hit.pain_threshold, str) or hit.pain_threshold not in ("high", "low", "normal"):
        _forged("pain_threshold", hit.pain_threshold, "not 'high', 'low' or 'normal'")
    if _exact_divisor(hit.armor_divisor) is None:
        _forged("armor_divisor", hit.armor_divisor, "not an armor divisor")
    multiplier = hit.wounding_multiplier
    if isinstance(multiplier, bool) or not isinstance(multiplier, int | float | Fraction):
        _forged("wounding_multiplier", multiplier, "not a number")
    if not _all_rolls(hit.rolls):
        _forged("rolls", hit.rolls, "not a tuple of Roll")


_COMPARED: Final = (
    "basic_damage",
    "location",
    "pool",
    "dr",
    "natural_dr",
    "effective_dr",
    "penetrating",
    "wounding_multiplier",
    "uncapped_injury",
    "injury",
    "shock",
    "major_wound",
    "crippled",
    "blinded_eyes",
    "knockback",
    "rolls",
)


def _check_hit(document: Mapping[str, Any], hit: Hit) -> None:
    """A hit must be one :func:`resolve_hit` gives for this character: right types and ranges,
    and every result what the rules make of its own inputs (its damage, type, location,
    divisor, DR and pain threshold), groin or not."""
    _checked_fields(hit)
    body = _body(document)
    try:
        where, place = _location(hit.location, body)
    except CharacterError:
        names = ", ".join(body.ids) if body is not None else ", ".join(HIT_LOCATIONS)
        _forged("location", hit.location, f"not a location of this character ({names})")
    role = location_role(where)
    try:
        _check_target(hit.damage_type, where, role, hit.tight_beam)
    except CharacterError:
        _forged("damage_type", hit.damage_type, f"which cannot hit the {where}")
    natural = _natural_dr(where, place)
    if hit.natural_dr != natural:
        _forged("natural_dr", hit.natural_dr, f"where the {where}'s natural DR is {natural}")
    least = natural + min(0, _dr_against(place, hit.damage_type)) if place is not None else natural
    if hit.dr < max(0, least):
        _forged("dr", hit.dr, f"below the {where}'s natural DR {natural}")
    divisor_value, divisor = _divisor(hit.armor_divisor)
    blow = _Blow(
        hit.basic_damage, hit.damage_type, where, role, divisor_value, divisor, hit.tight_beam,
        hit.pain_threshold, hit.dr, natural, _label(hit.location, where),
    )  # fmt: skip
    candidates = [_rules(document, blow, groin) for groin in (True, False)]
    if any(all(getattr(hit, f) == getattr(rules, f) for f in _COMPARED) for rules in candidates):
        return
    rules = candidates[0]
    field = next(f for f in _COMPARED if getattr(hit, f) != getattr(rules, f))
    expected = getattr(rules, field)
    shown = _rolls_text(expected) if field == "rolls" else describe(expected)
    _forged(field, getattr(hit, field), f"where the rules give {shown} for this character")


def _rolls_text(rolls: tuple[Roll, ...]) -> str:
    """``knockdown HT-10, keepFeet DX+0``, or ``no roll``."""
    return ", ".join(f"{roll.kind} {roll.attribute.upper()}{roll.modifier:+d}" for roll in rolls) or "no roll"


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

    The hit is checked first: a :class:`Hit` rebuilt or changed by hand (``dataclasses.replace``)
    must still be one :func:`resolve_hit` gives for this character: every field of the right
    type and range, and every result (DR, penetration, multiplier, injury, shock, wounds,
    knockback, rolls) what the rules make of its own damage, type, location, divisor, DR and
    pain threshold.

    Args:
        document: The character the hit was resolved for; never modified.
        hit: A :class:`Hit` from :func:`resolve_hit` for this character.
        now: A timezone-aware time for ``meta.updatedAt`` (default: the current time).

    Returns:
        A :class:`~gurps_character.PoolChange`; its ``document`` is the new document.

    Raises:
        CharacterError: ``invalidArgument`` naming ``hit`` (``details["name"]``; for a field,
            ``details["field"]`` names it) when ``hit`` is not a :class:`Hit` or is not one
            :func:`resolve_hit` gives for this character; ``invalidDocument`` as
            :func:`resolve_hit` reads the document; otherwise as
            :func:`~gurps_character.change_pool` (``notAnObject``, ``invalidDocument``,
            ``outOfBounds``).
        TypeError: ``now`` is naive.
    """
    if not isinstance(hit, Hit):
        _refuse("hit", hit, "a Hit from resolve_hit")
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    _check_hit(document, hit)
    return _apply_resolved(document, hit, now)


def _apply_resolved(
    document: Mapping[str, Any], hit: Hit, now: datetime | None = None, *, owned: bool = False
) -> PoolChange:
    """:func:`apply_hit` for a hit :func:`resolve_hit` gave for this document just now (the fight
    layer's), which needs no second check; ``owned`` as for ``pool_changed``."""
    change = pool_changed(document, hit.pool, -hit.injury, now, spill_to_hp=True, owned=owned)
    follow_ups = _in_order(change.follow_ups, _hit_follow_ups(hit))
    # usually the hit adds nothing and the order stands: no new change to build
    return change if follow_ups == change.follow_ups else replace(change, follow_ups=follow_ups)


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

        notation   := base [multiplier] [divisor] [step] type [per] {suffix}
        base       := ("thr" | "sw") [adds]  |  count "d" [adds]  |  amount
        adds       := ("+" | "-") digits
        multiplier := ("x" | "×") digits                  e.g. 6dx2
        divisor    := "(" (decimal | "inf" | "∞" | "ignores DR") ")"   from 0.001 to 1000
        type       := cr | cut | imp | pi- | pi | pi+ | pi++ | burn | tbb | cor | tox | fat | word
        word       := letter {letter} ["."]              e.g. ctrl, aff, spec.
        per        := ("/" | "per ") [digits] ("point" | "points")     e.g. burn/point
        step       := "+" count "d" [adds]                e.g. thr-1 cr +1d/point
        suffix     := divisor | per | step | modifier
        modifier   := ex | inc | sur | dkb | nkb | rad

    ``thr`` and ``sw`` take the character's thrust and swing (``/damage``), so ``sw+1 cut`` for
    swing 1d+2 is 1d+3. An ``amount`` alone (``2 burn``) is fixed damage without dice. The adds
    are kept as written: the optional conversion of large adds into dice (B269) is not made.
    ``tbb`` is tight-beam burning. The divisor (one, before or after the type) is any decimal
    from 0.001 to 1000 (GCS writes (4) and (1.5) beside the Basic Set's (2) and (0.5)), as
    :func:`resolve_hit` takes it.

    Per-point damage (spells, powers): ``1d-1 burn/point`` rolls 1d-1 for each point
    (``per_points`` 1, no step); ``1d cr ex/2 points`` 1d per 2 points; ``thr-1 cr +1d/point``
    rolls thrust-1 and 1d more for each point (``step_dice`` 1). A step needs a ``per``; the
    ``per`` may follow the type, a modifier or the step without a space.

    A damage word that is not one of the types (GCS's ``ctrl``, ``dehydrate``, ``freezing``,
    and ``aff``, ``spec.`` after dice: ``1d aff``, ``2d spec.``) gives ``damage_type`` None (the
    word as written, its period too, in ``type_text``): the dice are rolled, but no hit
    resolves such damage (:func:`resolve_hit` takes a type). Text that starts with no dice
    (``HT-3 aff``, ``spec.``) is no notation and is refused.

    Args:
        document: The character wielding the weapon (never modified).
        notation: The damage text, e.g. ``"sw+2 (2) cut"``, ``"thr-1 cr"``, ``"2d+1 pi"``,
            ``"1d-1 burn/point"``.

    Returns:
        A :class:`WeaponDamage`.

    Raises:
        CharacterError: ``invalidArgument`` (``details``: ``name``, ``value``, ``position``) for
            text that is not a damage notation, with a caret under the offending place in the
            message (``HT-3 aff`` too: no dice); ``notAnObject``; ``invalidDocument`` when
            ``thr`` or ``sw`` is used and the document's ``/damage`` lacks integer dice and adds.
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
        damage_type=damage_type if damage_type in _TYPE_MULTIPLIER else None,
        armor_divisor=_plain(parsed.armor_divisor),
        tight_beam=tight_beam,
        type_text=parsed.damage_type,
        per_points=parsed.per_points,
        step_dice=parsed.step_dice,
        step_adds=parsed.step_adds,
        modifiers=parsed.modifiers,
    )
