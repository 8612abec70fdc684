"""Attack and defense by the Basic Set: success rolls, contests, the combat tables, the effective
skill of one attack and the value of one active defense (standard library only).

Everything before the damage roll: what the attacker rolls against (:func:`attack_skill`), whether
the roll is a critical (:func:`success_roll`), how many shots of a rapid-fire attack hit
(:func:`rapid_fire_hits`), what the defender's Dodge, Parry or Block is after a retreat and two
earlier parries (:func:`defense`), and how many hits a dodge leaves (:func:`hits_after_dodge`).
Every input is a number or a string, no document is read, and every result lists its modifiers as
``(id, value, page)``, so an engine can show a player why a roll is what it is.

The order of use in an engine's turn::

    attack_skill -> can_attempt -> roll 3d -> success_roll -> rapid_fire_hits (rapid fire)
    -> defense -> roll 3d -> success_roll -> hits_after_dodge (rapid fire)
    -> for each hit: hit_location (random) and resolve_hit, whose shock feeds the victim's next
       attack_skill(shock=...) (never defense)

Decisions where the sources leave a choice (the project's design notes hold the sources):

* :func:`success_roll` evaluates any skill; the rule that nothing but a defense may be rolled
  below effective skill 3 (B344) is the separate :func:`can_attempt`.
* A roll result carries one signed margin, ``effective skill - roll``, also when a 3-4 or a 17-18
  overrode the comparison. 3 and 4 are always critical successes, even 10 or more over the skill.
* The 10-over critical failure applies to defense rolls too (a defense of 1 fails critically on
  11 or more).
* Range and size take the next row up between rows of the Size and Speed/Range Table (B550), and
  the table goes on both ways without limit; below a yard, sizes follow the Size Modifier Table
  (B19), whose rows are the same.
* The target's SM is added as is, to melee and ranged attacks alike (the difference of SMs in
  melee is a later optional rule).
* Rapid fire above 99 shots: +1 per doubling (100-199 +7, 200-399 +8, ...). Shotguns pass the
  shots times the projectiles as ``rof``.
* Defense scores are the sheet's: ``base`` holds Combat Reflexes, Enhanced Defenses and the
  weapon's parry modifier, never a shield's DB (its own input, added to all three defenses).
  Dodge's ``base`` is unencumbered.
* Deceptive Attack, Rapid Strike and Evaluate are melee options; Move and Attack's cap of 9 is
  melee only; the attacker's posture counts for melee attacks only.
* Regular Contests raise two scores of 6 or less (the lower to 10, B349); two high scores are
  not reduced (the copies of B349 read speak of low scores only; the reduction of two scores over
  14 is the 3rd edition's).
* Shock never touches an active defense (B419).
* Impossible choices raise ``invalidArgument``; situations with no defense at all return a
  :class:`Defense` whose ``value`` is None, with the reason.

Why one module of this length: it is the arithmetic of one attack and one defense, every
function a pure rule over numbers that shares one vocabulary (maneuvers, postures, the
modifier records and their checks); split, each part would import the rest.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Final, Literal, NoReturn, TypeAlias, get_args

from .errors import CharacterError, describe, guarded, json_detail
from .formula._values import SYSTEM_RANDOM, roll_dice
from .locations import LOCATION_NAMES, rule_location

__all__ = [
    "AttackDirection",
    "AttackManeuver",
    "AttackSkill",
    "CombatModifier",
    "ContestResult",
    "ContestWinner",
    "DefenderManeuver",
    "Defense",
    "DefenseKind",
    "NoDefenseReason",
    "ParryStyle",
    "Posture",
    "RollResult",
    "RolledLocation",
    "attack_skill",
    "block_score",
    "can_attempt",
    "defense",
    "dodge_score",
    "feint_penalty",
    "hit_location",
    "hits_after_dodge",
    "location_penalty",
    "parry_score",
    "quick_contest",
    "rapid_fire_bonus",
    "rapid_fire_hits",
    "regular_contest_round",
    "roll_3d",
    "size_modifier",
    "speed_range_penalty",
    "success_roll",
]

# ---------------------------------------------------------------- vocabulary

AttackManeuver: TypeAlias = Literal[
    "attack",
    "all_out_attack_determined",
    "all_out_attack_double",
    "all_out_attack_feint",
    "all_out_attack_strong",
    "move_and_attack",
]
"""The attacker's maneuver (B363-B366), one of Attack, the four All-Out Attack options, Move and Attack."""

DefenderManeuver: TypeAlias = Literal[
    "attack",
    "all_out_attack_determined",
    "all_out_attack_double",
    "all_out_attack_feint",
    "all_out_attack_strong",
    "all_out_attack_suppression",
    "move_and_attack",
    "all_out_defense_dodge",
    "all_out_defense_parry",
    "all_out_defense_block",
    "all_out_defense_double",
    "aim",
    "change_posture",
    "concentrate",
    "do_nothing",
    "evaluate",
    "feint",
    "move",
    "ready",
    "wait",
]
"""The defender's last maneuver (B324, B363-B366), which decides the defenses that remain and
whether All-Out Defense adds +2 to one of them."""

DefenseKind: TypeAlias = Literal["dodge", "parry", "block"]
"""An active defense (B374-B376)."""

ParryStyle: TypeAlias = Literal["weapon", "fencing", "unarmed", "boxing", "judo", "karate"]
"""How a parry is made (B376, B391), with a melee weapon, a fencing weapon (parry "F"), bare hands
(DX, Brawling, Sumo), or Boxing, Judo or Karate; the styles differ in their retreat bonus, their
repeat-parry penalty, encumbrance and parrying a weapon bare-handed."""

Posture: TypeAlias = Literal["standing", "crouching", "kneeling", "sitting", "crawling", "lying"]
"""A fighter's posture (B551)."""

AttackDirection: TypeAlias = Literal["front", "side", "behind"]
"""Where an attack comes from, seen by the defender (B390-B391)."""

RolledLocation: TypeAlias = Literal[
    "skull",
    "face",
    "right_leg",
    "right_arm",
    "torso",
    "groin",
    "left_arm",
    "left_leg",
    "hand",
    "foot",
    "neck",
]
"""A random hit location by the 3d table (B552). The damage module takes ``leg`` and ``arm`` for
either side; ``hand`` and ``foot`` carry no side (no source says which)."""

NoDefenseReason: TypeAlias = Literal["all_out_attack", "attack_from_behind", "move_and_attack_no_parry"]
"""Why a defender has no active defense (B365, B391)."""

ContestWinner: TypeAlias = Literal["a", "b"]
"""The winner of a contest, the first contestant (``"a"``) or the second (``"b"``)."""

CombatModifier: TypeAlias = tuple[str, int, str]
"""One modifier of an attack or a defense as ``(id, value, page)``, e.g. ``("hit_location", -7, "B398")``."""

# The allowed strings, from the Literal types above, so the two cannot drift apart.
_ATTACK_MANEUVERS: Final[tuple[str, ...]] = get_args(AttackManeuver)
_MELEE_ONLY_MANEUVERS: Final = ("all_out_attack_double", "all_out_attack_feint", "all_out_attack_strong")
_DEFENDER_MANEUVERS: Final[tuple[str, ...]] = get_args(DefenderManeuver)
_DEFENSE_KINDS: Final[tuple[str, ...]] = get_args(DefenseKind)
_PARRY_STYLES: Final[tuple[str, ...]] = get_args(ParryStyle)
_POSTURES: Final[tuple[str, ...]] = get_args(Posture)
_DIRECTIONS: Final[tuple[str, ...]] = get_args(AttackDirection)

_ATTACK_POSTURE: Final[Mapping[str, int]] = {
    "standing": 0,
    "crouching": -2,
    "kneeling": -2,
    "sitting": -2,
    "crawling": -4,
    "lying": -4,
}
"""The attacker's posture, melee attacks only (B551)."""

_DEFENSE_POSTURE: Final[Mapping[str, int]] = {
    "standing": 0,
    "crouching": 0,
    "kneeling": -2,
    "sitting": -2,
    "crawling": -3,
    "lying": -3,
}
"""The defender's posture (B551)."""

_LOCATION_PENALTY: Final[Mapping[str, int]] = {
    "torso": 0,
    "vitals": -3,
    "groin": -3,
    "arm": -2,
    "leg": -2,
    "hand": -4,
    "foot": -4,
    "face": -5,
    "neck": -5,
    "skull": -7,
    "eye": -9,
}
"""Penalties to hit a location by a called shot (B398); a shield arm or hand is not modelled."""

_RANDOM_LOCATION: Final[Mapping[int, RolledLocation]] = {
    3: "skull",
    4: "skull",
    5: "face",
    6: "right_leg",
    7: "right_leg",
    8: "right_arm",
    9: "torso",
    10: "torso",
    11: "groin",
    12: "left_arm",
    13: "left_leg",
    14: "left_leg",
    15: "hand",
    16: "foot",
    17: "neck",
    18: "neck",
}
"""The 3d hit-location table (B552). Eyes and vitals are reached by called shots only."""

_TABLE_STEPS: Final = (2, 3, 5, 7, 10, 15)
"""One decade of the Size and Speed/Range Table (B550): row 0 is 2 yards, each row one step,
each six rows a factor of 10 (so 20, 30, 50 ... upwards, 1.5, 1, 0.7 ... downwards)."""

_LOG10_2: Final = math.log10(2)

_RAPID_FIRE_ROWS: Final = ((4, 0), (8, 1), (12, 2), (16, 3), (24, 4), (49, 5), (99, 6))
"""The rapid-fire bonus (B373): the most shots of each row and its bonus."""

_MOVE_AND_ATTACK_MAXIMUM: Final = 9
_DECEPTIVE_MINIMUM: Final = 10
_MINIMUM_SKILL: Final = 3
_RETREAT_PLUS_THREE: Final = frozenset({"fencing", "boxing", "judo", "karate"})
_ENCUMBERED_PARRIES: Final = frozenset({"fencing", "judo", "karate"})
_BARE_HANDED: Final = frozenset({"unarmed", "boxing"})


# ---------------------------------------------------------------- results


def _modifiers_json(modifiers: tuple[CombatModifier, ...]) -> list[dict[str, Any]]:
    return [{"id": name, "value": value, "page": page} for name, value, page in modifiers]


@dataclass(frozen=True, slots=True)
class RollResult:
    """The outcome of one success roll (B343-B348).

    Attributes:
        success: Whether the roll succeeded: 3-4 always, 17-18 never, else roll <= effective skill.
        critical: A critical success when ``success``, a critical failure otherwise.
        margin: Effective skill minus the roll: made it by (positive or 0) or missed by
            (negative), also when 3-4 or 17-18 decided the outcome.
        roll: The 3d total the outcome was read from (given or rolled).
    """

    success: bool
    critical: bool
    margin: int
    roll: int

    @property
    def critical_success(self) -> bool:
        """Whether the roll is a critical success (B347)."""
        return self.success and self.critical

    @property
    def critical_failure(self) -> bool:
        """Whether the roll is a critical failure (B348)."""
        return self.critical and not self.success

    def to_dict(self) -> dict[str, Any]:
        """The roll result as JSON data.

        Returns:
            ``{"success", "critical", "margin", "roll"}``.
        """
        return {
            "success": self.success,
            "critical": self.critical,
            "margin": self.margin,
            "roll": self.roll,
        }


@dataclass(frozen=True, slots=True)
class ContestResult:
    """The outcome of a Quick Contest (B348).

    Attributes:
        winner: ``"a"`` or ``"b"``, or None for a tie.
        margin_of_victory: The winner's margin minus the loser's (signed margins), never below
            0; 0 for a tie.
    """

    winner: ContestWinner | None
    margin_of_victory: int

    def to_dict(self) -> dict[str, Any]:
        """The contest result as JSON data.

        Returns:
            ``{"winner", "marginOfVictory"}``.
        """
        return {"winner": self.winner, "marginOfVictory": self.margin_of_victory}


@dataclass(frozen=True, slots=True)
class AttackSkill:
    """The effective skill of one attack and why (see :func:`attack_skill`).

    Attributes:
        effective: What the attacker rolls against: the base skill plus every modifier, at most
            9 for a melee Move and Attack.
        modifiers: The non-zero modifiers as ``(id, value, page)``, in the order of
            :func:`attack_skill`.
        capped: Whether Move and Attack's maximum of 9 lowered the skill (exactly 9 is not
            capped).
    """

    effective: int
    modifiers: tuple[CombatModifier, ...]
    capped: bool

    def to_dict(self) -> dict[str, Any]:
        """The attack skill as JSON data.

        Returns:
            ``{"effective", "modifiers": [{"id", "value", "page"}, ...], "capped"}``.
        """
        return {
            "effective": self.effective,
            "modifiers": _modifiers_json(self.modifiers),
            "capped": self.capped,
        }


@dataclass(frozen=True, slots=True)
class Defense:
    """The value of one active defense and why (see :func:`defense`).

    Attributes:
        value: What the defender rolls against (no floor: a negative value still succeeds on
            3-4), or None when no defense is possible.
        modifiers: The non-zero modifiers as ``(id, value, page)``, in the order of
            :func:`defense`; empty when ``value`` is None.
        reason: Why there is no defense (a :data:`NoDefenseReason`), else None.
    """

    value: int | None
    modifiers: tuple[CombatModifier, ...]
    reason: NoDefenseReason | None

    def to_dict(self) -> dict[str, Any]:
        """The defense as JSON data.

        Returns:
            ``{"value", "modifiers": [{"id", "value", "page"}, ...], "reason"}``.
        """
        return {"value": self.value, "modifiers": _modifiers_json(self.modifiers), "reason": self.reason}


# ---------------------------------------------------------------- arguments


def _refuse(
    name: str, value: object, expected: str, allowed: Any, because: Mapping[str, Any] | None = None
) -> NoReturn:
    """``invalidArgument``: ``"<name> must be <expected>, not <value>."``, with ``details`` naming
    the argument, its value, the values allowed (a list, or a JSON-Schema-like range) and, for a
    combination, the other arguments that forbid it."""
    details: dict[str, Any] = {"name": name, "value": json_detail(value), "allowed": allowed}
    if because is not None:
        details["because"] = dict(because)
    raise CharacterError("invalidArgument", f"{name} must be {expected}, not {describe(value)}.", details)


def _range_text(minimum: int | None, maximum: int | None) -> str:
    if minimum is not None and maximum is not None:
        return f"a whole number from {minimum} to {maximum}"
    if minimum is not None:
        return f"a whole number of at least {minimum}"
    if maximum is not None:
        return f"a whole number of at most {maximum}"
    return "a whole number"


_MAX_WHOLE: Final = 2**53 - 1
"""The largest whole number an integer argument may be (and the least, negated): the largest a
double holds exactly, as in JavaScript. Beyond it, the arithmetic would no longer be a game's,
and a result of thousands of digits could not even be printed."""


def _integer(value: object, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """A whole number within the bounds given and within :data:`_MAX_WHOLE`: an ``int`` (a
    subclass counts as the plain int it holds), never a ``bool`` or a float."""
    if (  # the usual case, checked fast
        type(value) is int
        and -_MAX_WHOLE <= value <= _MAX_WHOLE
        and (minimum is None or value >= minimum)
        and (maximum is None or value <= maximum)
    ):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        number = int.__int__(value)
        if -_MAX_WHOLE <= number <= _MAX_WHOLE:
            if (minimum is None or number >= minimum) and (maximum is None or number <= maximum):
                return number
        else:  # beyond any bound the caller gives: the message names the double's
            minimum = -_MAX_WHOLE if minimum is None else minimum
            maximum = _MAX_WHOLE if maximum is None else maximum
    allowed: dict[str, Any] = {"type": "integer"}
    if minimum is not None:
        allowed["minimum"] = minimum
    if maximum is not None:
        allowed["maximum"] = maximum
    _refuse(name, value, _range_text(minimum, maximum), allowed)


def _yards(value: object, name: str, *, positive: bool = False, optional: bool = False) -> Fraction:
    """A finite number of yards, at least 0 (above 0 with ``positive``), as the exact decimal it
    was written as: a float counts as its shortest text (``0.1`` is 1/10, the 0.1 row, where its
    binary value is a little more and would take the next row). ``optional`` only changes the
    message: None is the caller's to accept."""
    exact: Fraction | None = None
    if isinstance(value, float) and math.isfinite(value):
        exact = Fraction(float.__repr__(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        exact = Fraction(int.__int__(value))
    if exact is not None and (exact > 0 or (exact == 0 and not positive)):
        return exact
    if positive:
        _refuse(name, value, "a number greater than 0", {"type": "number", "exclusiveMinimum": 0})
    if optional:
        _refuse(name, value, "a number of at least 0 or None", {"type": ["number", "null"], "minimum": 0})
    _refuse(name, value, "a number of at least 0", {"type": "number", "minimum": 0})


def _flag(value: object, name: str) -> bool:
    if value is True or value is False:
        return value
    if not isinstance(value, bool):
        _refuse(name, value, "True or False", [True, False])
    return value


def _choice(value: object, name: str, choices: tuple[str, ...]) -> str:
    if type(value) is str and value in choices:
        return value
    if isinstance(value, str):
        text = str.__str__(value)
        if text in choices:
            return text
    _refuse(name, value, "one of " + ", ".join(repr(choice) for choice in choices), list(choices))


def _location(value: object) -> str:
    """A hit location in any spelling of :data:`~gurps_character.LOCATION_NAMES`
    (``arms`` as ``arm``), as the rule names it."""
    if isinstance(value, str):
        rule = rule_location(str.__str__(value))
        if rule is not None:
            return rule
    spellings = tuple(LOCATION_NAMES)
    _refuse("location", value, "one of " + ", ".join(repr(name) for name in spellings), list(spellings))


def _conflict(
    name: str, value: object, allowed: Any, allowed_text: str, situation: str, **because: Any
) -> NoReturn:
    """A value that is fine alone but forbidden by another argument."""
    _refuse(name, value, f"{allowed_text} {situation}", allowed, because)


# ---------------------------------------------------------------- rolls and contests


def _roll(value: object, name: str) -> int:
    return _integer(value, name, 3, 18)


def _success_roll(skill: int, roll: int) -> RollResult:
    success = roll <= 4 or (roll <= 16 and roll <= skill)
    if success:
        critical = roll <= 4 or (roll == 5 and skill >= 15) or (roll == 6 and skill >= 16)
    else:
        critical = roll == 18 or (roll == 17 and skill <= 15) or roll - skill >= 10
    return RollResult(success=success, critical=critical, margin=skill - roll, roll=roll)


def _rng(rng: object) -> random.Random:
    if rng is None:
        return SYSTEM_RANDOM
    if not isinstance(rng, random.Random):
        _refuse("rng", rng, "a random.Random (such as random.Random(42)) or None", ["random.Random", None])
    return rng


@guarded
def roll_3d(rng: random.Random | None = None) -> int:
    """Rolls three six-sided dice: the total, 3 to 18.

    Args:
        rng: The random number generator (``random.Random(seed)`` for repeatable rolls); None uses
            the operating system's randomness.

    Returns:
        The sum of the three dice.

    Raises:
        CharacterError: ``invalidArgument`` when ``rng`` is not a ``random.Random``.
    """
    return roll_dice(3, _rng(rng))


@guarded
def success_roll(
    effective_skill: int, roll: int | None = None, *, rng: random.Random | None = None
) -> RollResult:
    """The outcome of a 3d roll against an effective skill (B343-B348).

    A roll at or under the skill succeeds; 3 and 4 always succeed and 17 and 18 always fail
    (B344). Critical success (B347): 3 or 4, 5 at effective skill 15 or more, 6 at 16 or more.
    Critical failure (B348): 18; 17 at effective skill 15 or less; any roll 10 or more over the
    skill. A 3 or 4 is a critical success even when it is 10 over the skill (skill -6 or less,
    which only a defense reaches). Any skill is evaluated: whether the roll may be made at all
    is :func:`can_attempt`.

    Args:
        effective_skill: The skill with every modifier, a whole number (any sign).
        roll: The 3d total, 3 to 18; None rolls it with ``rng``.
        rng: The random number generator for a roll not given (``random.Random(seed)`` for
            repeatable rolls); None uses the operating system's randomness.

    Returns:
        A :class:`RollResult`; ``margin`` is ``effective_skill - roll``.

    Raises:
        CharacterError: ``invalidArgument`` (``details["name"]`` names the argument) for a
            non-integer (a ``bool`` is none), a roll outside 3-18, an ``rng`` that is not a
            ``random.Random``, or both a roll and an ``rng``.
    """
    skill = _integer(effective_skill, "effective_skill")
    if roll is None:
        return _success_roll(skill, roll_dice(3, _rng(rng)))
    given = _roll(roll, "roll")  # checked first: the refusal below names it
    if rng is not None:
        _refuse("rng", rng, "None when the roll is given", [None], {"roll": given})
    return _success_roll(skill, given)


@guarded
def can_attempt(effective_skill: int, *, defense: bool = False) -> bool:
    """Whether a success roll may be attempted at all (B344): not below effective skill 3,
    except an active defense, which may always be rolled.

    Args:
        effective_skill: The skill with every modifier, a whole number.
        defense: Whether the roll is an active defense.

    Returns:
        ``defense or effective_skill >= 3``.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer skill or a non-bool ``defense``.
    """
    skill = _integer(effective_skill, "effective_skill")
    return _flag(defense, "defense") or skill >= _MINIMUM_SKILL


def _quick_contest(a: RollResult, b: RollResult) -> ContestResult:
    if a.success != b.success:
        # A 17 under a high skill is a failure with a positive margin: the victory is still the
        # successful side's, by at least 0.
        if a.success:
            return ContestResult("a", max(0, a.margin - b.margin))
        return ContestResult("b", max(0, b.margin - a.margin))
    if a.margin == b.margin:
        return ContestResult(None, 0)
    return (
        ContestResult("a", a.margin - b.margin)
        if a.margin > b.margin
        else ContestResult("b", b.margin - a.margin)
    )


@guarded
def quick_contest(skill_a: int, roll_a: int, skill_b: int, roll_b: int) -> ContestResult:
    """A Quick Contest (B348): each side rolls once.

    One succeeds and the other fails: the one who succeeded wins. Both succeed: the larger margin
    of success wins; both fail: the smaller margin of failure wins; equal margins: a tie. The
    margin of victory is the winner's signed margin minus the loser's (never below 0). Criticals
    play no part in who wins. A Resistance Roll is a Quick Contest whose attacker must succeed to
    win and whose ties go to the subject: apply those two provisos to this result.

    Args:
        skill_a: The first side's effective skill.
        roll_a: The first side's 3d roll, 3 to 18.
        skill_b: The second side's effective skill.
        roll_b: The second side's 3d roll, 3 to 18.

    Returns:
        A :class:`ContestResult` whose ``winner`` is ``"a"``, ``"b"`` or None (a tie, margin 0).

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer or a roll outside 3-18.
    """
    a = _success_roll(_integer(skill_a, "skill_a"), _roll(roll_a, "roll_a"))
    b = _success_roll(_integer(skill_b, "skill_b"), _roll(roll_b, "roll_b"))
    return _quick_contest(a, b)


@guarded
def regular_contest_round(skill_a: int, roll_a: int, skill_b: int, roll_b: int) -> ContestWinner | None:
    """One round of a Regular Contest (B349): decided only when one side succeeds and the other
    fails; otherwise nobody wins this round and both roll again.

    Extreme scores (B349): when both scores are 6 or less, the lower becomes 10 and the other is
    raised by the same amount (5 vs. 3 is rolled as 12 vs. 10). Two high scores are not reduced:
    B349's extreme scores are the low ones (reducing two scores over 14 is a 3rd-edition rule).

    Args:
        skill_a: The first side's effective skill.
        roll_a: The first side's 3d roll, 3 to 18.
        skill_b: The second side's effective skill.
        roll_b: The second side's 3d roll, 3 to 18.

    Returns:
        ``"a"`` or ``"b"`` when that side won the contest this round, None to roll again.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer or a roll outside 3-18.
    """
    score_a, score_b = _integer(skill_a, "skill_a"), _integer(skill_b, "skill_b")
    first, second = _roll(roll_a, "roll_a"), _roll(roll_b, "roll_b")
    if score_a <= 6 and score_b <= 6:
        raise_by = 10 - min(score_a, score_b)
        score_a, score_b = score_a + raise_by, score_b + raise_by
    a, b = _success_roll(score_a, first), _success_roll(score_b, second)
    if a.success == b.success:
        return None
    return "a" if a.success else "b"


@guarded
def feint_penalty(attacker_skill: int, attacker_roll: int, defender_skill: int, defender_roll: int) -> int:
    """What a Feint takes off the foe's defenses against the feinter's next attack (B365).

    A Quick Contest of the feinter's melee skill against the foe's best of melee weapon skill,
    unarmed skill, Cloak, Shield or DX. The feinter fails: nothing. The feinter succeeds and the
    foe fails: the feinter's margin of success. Both succeed: the margin of victory when the
    feinter won, else nothing.

    Args:
        attacker_skill: The feinter's effective melee skill.
        attacker_roll: The feinter's 3d roll, 3 to 18.
        defender_skill: The foe's effective skill (or DX).
        defender_roll: The foe's 3d roll, 3 to 18.

    Returns:
        The penalty as a value of at least 0, to pass as ``feint`` to :func:`defense`.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer or a roll outside 3-18.
    """
    attacker = _success_roll(
        _integer(attacker_skill, "attacker_skill"), _roll(attacker_roll, "attacker_roll")
    )
    foe = _success_roll(_integer(defender_skill, "defender_skill"), _roll(defender_roll, "defender_roll"))
    if not attacker.success:
        return 0
    if not foe.success:
        return max(0, attacker.margin)  # a 3-4 under the skill succeeds by nothing
    contest = _quick_contest(attacker, foe)
    return contest.margin_of_victory if contest.winner == "a" else 0


# ---------------------------------------------------------------- tables


def _measurement(row: int) -> Fraction:
    """The yards of a row of the Size and Speed/Range Table (row 0: 2 yards)."""
    decade, step = divmod(row, len(_TABLE_STEPS))
    return _TABLE_STEPS[step] * Fraction(10) ** decade


def _row(length: Fraction) -> int:
    """The row of a length above 0: the first row whose measurement is at least the length
    ("use the higher", B550). Row 0 is 2 yards; negative rows are below it."""
    # 2 ** (bits - 1) < length < 2 ** (bits + 1): start a decade under that, walk up
    bits = length.numerator.bit_length() - length.denominator.bit_length()
    row = len(_TABLE_STEPS) * (math.floor((bits - 1) * _LOG10_2) - 1)
    while _measurement(row) >= length:
        row -= len(_TABLE_STEPS)
    while _measurement(row) < length:
        row += 1
    return row


def _speed_range(yards: Fraction) -> int:
    return 0 if yards == 0 else -max(0, _row(yards))


@guarded
def speed_range_penalty(yards: float) -> int:
    """The speed/range modifier of the Size and Speed/Range Table (B550).

    Range and the target's speed (yards per second) are added before the look-up. Between rows
    the higher row counts (8 yards is the 10-yard row, -4); the table starts at 3 yards (-1) and
    goes on without limit, one step per row and -6 per factor of 10 (1,000 yards -16, a mile
    -18). Nothing closer than 2 yards gives a bonus.

    Args:
        yards: Range plus speed in yards, an ``int`` or a finite ``float`` of at least 0 (a
            float counts as the decimal it prints as: 0.7 is exactly 0.7).

    Returns:
        The modifier, 0 or less.

    Raises:
        CharacterError: ``invalidArgument`` for a negative, non-finite or non-numeric value.
    """
    return _speed_range(_yards(yards, "yards"))


@guarded
def size_modifier(yards: float) -> int:
    """The Size Modifier of a thing by its longest dimension (B19, B550).

    The same rows as the speed/range column: 2 yards is SM 0, 3 yards +1, 5 yards +2, each row
    +1 and each factor of 10 +6, without limit both ways (1 yard -2, 0.05 yard -10). Between rows
    the higher row counts (a 4-yard giant is SM +2). Shape adjustments (a box or sphere +2, an
    elongated box +1) are the caller's.

    Args:
        yards: The longest dimension in yards, an ``int`` or a finite ``float`` above 0.

    Returns:
        The SM.

    Raises:
        CharacterError: ``invalidArgument`` for 0 or less, non-finite or non-numeric values.
    """
    return _row(_yards(yards, "yards", positive=True))


@guarded
def location_penalty(location: str) -> int:
    """The modifier to hit a location by a called shot (B398).

    Torso 0; vitals and groin -3; arm and leg -2; hand and foot -4; face and neck -5; skull -7;
    eye -9. Every spelling of :data:`~gurps_character.LOCATION_NAMES` is accepted
    (``arms`` as ``arm``).

    Args:
        location: The location.

    Returns:
        The modifier, 0 or less.

    Raises:
        CharacterError: ``invalidArgument`` for a location not in the humanoid table.
    """
    return _LOCATION_PENALTY[_location(location)]


@guarded
def hit_location(roll: int) -> RolledLocation:
    """Where a random hit lands, by the 3d table (B552).

    3-4 skull, 5 face, 6-7 right leg, 8 right arm, 9-10 torso, 11 groin, 12 left arm, 13-14 left
    leg, 15 hand, 16 foot, 17-18 neck. Eyes and vitals are reached by called shots only.

    Args:
        roll: The 3d total, 3 to 18.

    Returns:
        A :data:`RolledLocation`, a spelling of :data:`~gurps_character.LOCATION_NAMES`
        (``right_leg`` and ``left_leg`` are ``leg``, ``right_arm`` and ``left_arm`` are ``arm``), so
        it goes as it is to :func:`~gurps_character.resolve_hit` and :func:`location_penalty`.

    Raises:
        CharacterError: ``invalidArgument`` for a roll outside 3-18.
    """
    return _RANDOM_LOCATION[_roll(roll, "roll")]


def _rapid_fire_bonus(shots: int) -> int:
    for most, bonus in _RAPID_FIRE_ROWS:
        if shots <= most:
            return bonus
    # +1 per doubling from 100 on (100-199 +7, 200-399 +8, ...): no source gives the book's
    # wording past 99, the doubling continues the table's own steps
    return 6 + (shots // 100).bit_length()


@guarded
def rapid_fire_bonus(rof: int) -> int:
    """The skill bonus for the shots of one rapid-fire attack (B373).

    1-4 shots +0; 5-8 +1; 9-12 +2; 13-16 +3; 17-24 +4; 25-49 +5; 50-99 +6; then +1 per doubling
    (100-199 +7, 200-399 +8, ...). A shotgun counts shots times projectiles (RoF 3x9: 27).

    Args:
        rof: The shots fired, at least 1.

    Returns:
        The bonus, 0 or more.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer or a value below 1.
    """
    return _rapid_fire_bonus(_integer(rof, "rof", 1))


@guarded
def rapid_fire_hits(rof: int, recoil: int, margin: int) -> int:
    """How many shots of a rapid-fire attack hit (B373-B374).

    A successful attack hits with one shot, plus one per full multiple of Recoil in its margin of
    success, never more than the shots fired: ``min(rof, 1 + margin // recoil)``; a miss (negative
    margin) hits with none. (A 3 or 4 that succeeds under skill 4 has a negative margin: pass 0.)

    Args:
        rof: The shots fired, at least 1 (shots times projectiles for a shotgun).
        recoil: The weapon's Rcl, at least 1.
        margin: The attack's margin of success (:attr:`RollResult.margin`).

    Returns:
        The hits, 0 to ``rof``.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer, ``rof`` or ``recoil`` below 1.
    """
    shots = _integer(rof, "rof", 1)
    rcl = _integer(recoil, "recoil", 1)
    made_by = _integer(margin, "margin")
    return 0 if made_by < 0 else min(shots, 1 + made_by // rcl)


@guarded
def hits_after_dodge(hits: int, success: bool, margin: int, critical: bool = False) -> int:
    """How many hits of a rapid-fire attack still land after a Dodge (B375).

    A failed dodge avoids none; a successful one avoids one hit plus one per point of its margin
    of success; a critical success avoids them all. (A margin below 0 on a success, which only a
    critical 3-4 has, counts as 0.)

    Args:
        hits: The hits scored (:func:`rapid_fire_hits`), at least 0.
        success: Whether the dodge succeeded.
        margin: The dodge's margin (:attr:`RollResult.margin`).
        critical: Whether the dodge's roll was critical.

    Returns:
        The hits that land, 0 to ``hits``.

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer, negative ``hits`` or a non-bool
            flag.
    """
    scored = _integer(hits, "hits", 0)
    made_it = _flag(success, "success")
    made_by = _integer(margin, "margin")
    is_critical = _flag(critical, "critical")
    if not made_it:
        return scored
    if is_critical:
        return 0
    return max(0, scored - 1 - max(0, made_by))


# ---------------------------------------------------------------- defense scores


def _bonuses(combat_reflexes: object, enhanced: object) -> int:
    return (1 if _flag(combat_reflexes, "combat_reflexes") else 0) + _integer(enhanced, "enhanced", 0)


@guarded
def dodge_score(basic_speed: float, *, combat_reflexes: bool = False, enhanced: int = 0) -> int:
    """Dodge as the sheet shows it, unencumbered (B17): Basic Speed rounded down, + 3, + 1 with
    Combat Reflexes (B43), + 1 per level of Enhanced Dodge (B51).

    Args:
        basic_speed: Basic Speed, an ``int`` or a finite ``float`` of at least 0.
        combat_reflexes: Whether the character has Combat Reflexes.
        enhanced: Levels of Enhanced Dodge, at least 0.

    Returns:
        The Dodge score (pass it as ``base`` to :func:`defense` with the encumbrance level).

    Raises:
        CharacterError: ``invalidArgument`` for a negative, non-finite or non-numeric speed, a
            non-bool flag or a negative ``enhanced``.
    """
    speed = _yards(basic_speed, "basic_speed")
    return math.floor(speed) + 3 + _bonuses(combat_reflexes, enhanced)


@guarded
def parry_score(
    skill: int, *, parry_modifier: int = 0, combat_reflexes: bool = False, enhanced: int = 0
) -> int:
    """Parry as the sheet shows it (B376): 3 + half the skill rounded down, + the weapon's parry
    modifier (knife -1, quarterstaff +2), + 1 with Combat Reflexes (B43), + 1 per level of
    Enhanced Parry (B51). An unarmed parry uses DX or the best of Boxing, Brawling, Judo, Karate.

    Args:
        skill: The weapon's (or unarmed) skill level.
        parry_modifier: The weapon's parry modifier (the number of its Parry column: ``-1``,
            ``2``, ``0F``).
        combat_reflexes: Whether the character has Combat Reflexes.
        enhanced: Levels of Enhanced Parry, at least 0.

    Returns:
        The Parry score (pass it as ``base`` to :func:`defense`).

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer, a non-bool flag or a negative
            ``enhanced``.
    """
    level = _integer(skill, "skill")
    modifier = _integer(parry_modifier, "parry_modifier")
    return 3 + level // 2 + modifier + _bonuses(combat_reflexes, enhanced)


@guarded
def block_score(skill: int, *, combat_reflexes: bool = False, enhanced: int = 0) -> int:
    """Block as the sheet shows it (B375): 3 + half the Shield or Cloak skill rounded down, + 1
    with Combat Reflexes (B43), + 1 per level of Enhanced Block (B51). The shield's DB is not part
    of it: pass it as ``shield_db`` to :func:`defense`.

    Args:
        skill: The Shield or Cloak skill level.
        combat_reflexes: Whether the character has Combat Reflexes.
        enhanced: Levels of Enhanced Block, at least 0.

    Returns:
        The Block score (pass it as ``base`` to :func:`defense`).

    Raises:
        CharacterError: ``invalidArgument`` for a non-integer, a non-bool flag or a negative
            ``enhanced``.
    """
    level = _integer(skill, "skill")
    return 3 + level // 2 + _bonuses(combat_reflexes, enhanced)


# ---------------------------------------------------------------- attack_skill


class _Modifiers:
    """The modifiers of one attack or defense as they are found; zeros are left out."""

    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[CombatModifier] = []

    def add(self, name: str, value: int, page: str) -> None:
        if value:
            self.items.append((name, value, page))

    def total(self) -> int:
        return sum(value for _, value, _ in self.items)


@guarded
def attack_skill(
    base_skill: int,
    *,
    ranged: bool = False,
    maneuver: AttackManeuver = "attack",
    location: str = "torso",
    target_sm: int = 0,
    distance_yards: float | None = None,
    target_speed_yards: float = 0,
    aim_turns: int = 0,
    acc: int = 0,
    braced: bool = False,
    bulk: int = 0,
    rof: int = 1,
    deceptive: int = 0,
    rapid_strike: bool = False,
    master: bool = False,
    dual_weapon: bool = False,
    off_hand: bool = False,
    ambidextrous: bool = False,
    evaluate_turns: int = 0,
    posture: Posture = "standing",
    shock: int = 0,
    visibility: int = 0,
) -> AttackSkill:
    """The effective skill of one attack, with every modifier the Basic Set gives it.

    The modifiers, in this order (non-zero ones only, each with its page):

    * ``all_out_attack_determined``: +4 melee, +1 ranged (B365); or ``move_and_attack``: -4
      melee, the worse of -2 and the weapon's Bulk ranged (B365);
    * ``evaluate``: +1 per turn of Evaluate, at most +3 (B364; melee);
    * ``aim``: the weapon's Acc after one turn of Aim, +1 after two, +2 after three or more
      (B364); lost to a Move and Attack; ``braced``: +1 more with an Aim (B364);
    * ``rapid_fire``: :func:`rapid_fire_bonus` of the shots (B373);
    * ``hit_location``: :func:`location_penalty` (B398); ``size``: the target's SM (B19);
    * ``speed_range``: :func:`speed_range_penalty` of distance + target speed, ranged only,
      when either is given (B550);
    * ``deceptive``: -2 per level (B369); ``rapid_strike``: -6, -3 with Trained by a Master or
      Weapon Master (B370); ``dual_weapon``: -4 (B417); ``off_hand``: -4 unless Ambidextrous
      (B14);
    * ``posture``: crouching, kneeling, sitting -2, crawling, lying -4, melee only (B551);
    * ``shock`` (B419) and ``visibility`` (B394) as given.

    ``effective`` is the base skill plus their sum; a melee Move and Attack then makes it at most
    9 (``capped`` when that lowered it). A Deceptive Attack must leave 10 or more (B369). Whether
    the roll may be made: :func:`can_attempt`.

    Args:
        base_skill: The skill with the weapon (or the attribute it defaults to), a whole number.
        ranged: A ranged attack (melee by default).
        maneuver: An :data:`AttackManeuver`; Double, Feint and Strong All-Out Attacks are melee.
        location: The location aimed at (B398), any spelling of
            :data:`~gurps_character.LOCATION_NAMES`; ``torso`` for an ordinary attack.
        target_sm: The target's Size Modifier.
        distance_yards: The range in yards (ranged; None: not given).
        target_speed_yards: The target's speed in yards per second (ranged).
        aim_turns: Consecutive turns of Aim just before (ranged).
        acc: The weapon's Accuracy, at least 0; it counts only with an Aim (ranged).
        braced: Whether the weapon is braced (ranged; +1 with an Aim).
        bulk: The weapon's Bulk as printed (0 or less; ranged Move and Attack).
        rof: The shots fired, at least 1 (ranged; shots times projectiles for a shotgun).
        deceptive: The level of Deceptive Attack, at least 0 (melee).
        rapid_strike: One of the two attacks of a Rapid Strike (melee).
        master: Trained by a Master or Weapon Master (halves the Rapid Strike penalty).
        dual_weapon: One of the two attacks of a Dual-Weapon Attack (an Attack maneuver).
        off_hand: An attack with the off hand.
        ambidextrous: Whether the attacker is Ambidextrous (no off-hand penalty).
        evaluate_turns: Consecutive turns of Evaluate on this foe, at least 0 (melee).
        posture: The attacker's :data:`Posture`.
        shock: The shock penalty from last turn's injury, 0 or less.
        visibility: The darkness penalty, -10 to 0.

    Returns:
        An :class:`AttackSkill`.

    Raises:
        CharacterError: ``invalidArgument`` (``details``: ``name``, ``value``, ``allowed``, and
            ``because`` for a forbidden combination) for unknown strings; non-integers; negative
            ``aim_turns``, ``acc``, ``deceptive``, ``evaluate_turns``, distance or speed; ``rof``
            below 1; positive ``bulk``, ``shock`` or ``visibility``, or visibility below -10; a
            melee attack with a distance, speed, Aim, Acc, bracing, Bulk or ``rof`` other than 1;
            a ranged attack with Rapid Strike, Deceptive Attack, Evaluate or a Double, Feint or
            Strong All-Out Attack; Rapid Strike with Move and Attack; a Dual-Weapon Attack with a
            maneuver other than Attack or with Rapid Strike; a Deceptive Attack that leaves an
            effective skill under 10.
    """
    base = _integer(base_skill, "base_skill")
    is_ranged = _flag(ranged, "ranged")
    how = _choice(maneuver, "maneuver", _ATTACK_MANEUVERS)
    where = _location(location)
    sm = _integer(target_sm, "target_sm")
    distance = None if distance_yards is None else _yards(distance_yards, "distance_yards", optional=True)
    speed = _yards(target_speed_yards, "target_speed_yards")
    aimed = _integer(aim_turns, "aim_turns", 0)
    accuracy = _integer(acc, "acc", 0)
    is_braced = _flag(braced, "braced")
    weapon_bulk = _integer(bulk, "bulk", None, 0)
    shots = _integer(rof, "rof", 1)
    levels = _integer(deceptive, "deceptive", 0)
    is_rapid_strike = _flag(rapid_strike, "rapid_strike")
    is_master = _flag(master, "master")
    is_dual = _flag(dual_weapon, "dual_weapon")
    is_off_hand = _flag(off_hand, "off_hand")
    is_ambidextrous = _flag(ambidextrous, "ambidextrous")
    evaluated = _integer(evaluate_turns, "evaluate_turns", 0)
    stance = _choice(posture, "posture", _POSTURES)
    shock_penalty = _integer(shock, "shock", None, 0)
    darkness = _integer(visibility, "visibility", -10, 0)

    _check_attack_options(
        is_ranged,
        how,
        distance_yards=distance_yards,
        target_speed_yards=target_speed_yards if speed else 0,
        aim_turns=aimed,
        acc=accuracy,
        braced=is_braced,
        bulk=weapon_bulk,
        rof=shots,
        deceptive=levels,
        rapid_strike=is_rapid_strike,
        evaluate_turns=evaluated,
        dual_weapon=is_dual,
    )

    found = _Modifiers()
    if how == "all_out_attack_determined":
        found.add("all_out_attack_determined", 1 if is_ranged else 4, "B365")
    elif how == "move_and_attack":
        found.add("move_and_attack", min(-2, weapon_bulk) if is_ranged else -4, "B365")
    found.add("evaluate", min(evaluated, 3), "B364")
    if aimed and how != "move_and_attack":  # Move and Attack loses every aim bonus (B365)
        found.add("aim", accuracy + min(aimed - 1, 2), "B364")
        if is_braced:
            found.add("braced", 1, "B364")
    found.add("rapid_fire", _rapid_fire_bonus(shots), "B373")
    found.add("hit_location", _LOCATION_PENALTY[where], "B398")
    found.add("size", sm, "B19")
    if is_ranged and (distance is not None or speed):
        found.add("speed_range", _speed_range((distance or Fraction(0)) + speed), "B550")
    found.add("deceptive", -2 * levels, "B369")
    if is_rapid_strike:
        found.add("rapid_strike", -3 if is_master else -6, "B370")
    if is_dual:
        found.add("dual_weapon", -4, "B417")
    if is_off_hand and not is_ambidextrous:
        found.add("off_hand", -4, "B14")
    if not is_ranged:
        found.add("posture", _ATTACK_POSTURE[stance], "B551")
    found.add("shock", shock_penalty, "B419")
    found.add("visibility", darkness, "B394")

    uncapped = base + found.total()
    capped = not is_ranged and how == "move_and_attack" and uncapped > _MOVE_AND_ATTACK_MAXIMUM
    effective = _MOVE_AND_ATTACK_MAXIMUM if capped else uncapped
    if levels and effective < _DECEPTIVE_MINIMUM:
        _refuse_deceptive(levels, effective, uncapped, is_ranged, how)
    return AttackSkill(effective=effective, modifiers=tuple(found.items), capped=capped)


def _check_attack_options(
    ranged: bool,
    maneuver: str,
    *,
    distance_yards: object,
    target_speed_yards: object,
    aim_turns: int,
    acc: int,
    braced: bool,
    bulk: int,
    rof: int,
    deceptive: int,
    rapid_strike: bool,
    evaluate_turns: int,
    dual_weapon: bool,
) -> None:
    """Refuses the combinations the rules do not allow (B364-B370, B417), in the order of the
    design notes."""
    if not ranged:
        # weapon facts of a ranged attack: any value other than "none" on a melee attack
        melee = "on a melee attack"
        if distance_yards is not None:
            _conflict("distance_yards", distance_yards, [None], "None", melee, ranged=False)
        if target_speed_yards:
            _conflict("target_speed_yards", target_speed_yards, [0], "0", melee, ranged=False)
        for name, value in (("aim_turns", aim_turns), ("acc", acc), ("bulk", bulk)):
            if value:
                _conflict(name, value, [0], "0", melee, ranged=False)
        if braced:
            _conflict("braced", braced, [False], "False", melee, ranged=False)
        if rof != 1:
            _conflict("rof", rof, [1], "1", melee, ranged=False)
    else:
        # Basic Set melee options (their ranged versions are in GURPS Martial Arts)
        ranged_text = "on a ranged attack"
        if rapid_strike:
            _conflict("rapid_strike", rapid_strike, [False], "False", ranged_text, ranged=True)
        if deceptive:
            _conflict("deceptive", deceptive, [0], "0", ranged_text, ranged=True)
        if evaluate_turns:
            _conflict("evaluate_turns", evaluate_turns, [0], "0", ranged_text, ranged=True)
        if maneuver in _MELEE_ONLY_MANEUVERS:
            allowed = [name for name in _ATTACK_MANEUVERS if name not in _MELEE_ONLY_MANEUVERS]
            listed = ", ".join(repr(name) for name in allowed)
            _conflict("maneuver", maneuver, allowed, f"one of {listed}", ranged_text, ranged=True)
    # a Move and Attack is a single attack: no Rapid Strike, no Dual-Weapon Attack
    if rapid_strike and maneuver == "move_and_attack":
        _conflict("rapid_strike", rapid_strike, [False], "False", "with a Move and Attack", maneuver=maneuver)
    if dual_weapon and maneuver != "attack":
        _conflict(
            "dual_weapon", dual_weapon, [False], "False", f"with the maneuver {maneuver!r}", maneuver=maneuver
        )
    # both trade the one attack of an Attack maneuver for two
    if dual_weapon and rapid_strike:
        _conflict("dual_weapon", dual_weapon, [False], "False", "with a Rapid Strike", rapid_strike=True)


def _refuse_deceptive(levels: int, effective: int, uncapped: int, ranged: bool, maneuver: str) -> NoReturn:
    """A Deceptive Attack must leave a final effective skill of 10 or more (B369)."""
    without = uncapped + 2 * levels
    capped_anyway = not ranged and maneuver == "move_and_attack"  # at most 9 whatever the level
    most = 0 if capped_anyway else max(0, (without - _DECEPTIVE_MINIMUM) // 2)
    raise CharacterError(
        "invalidArgument",
        f"deceptive must be at most {most} here, not {levels}: a Deceptive Attack needs a final "
        f"effective skill of {_DECEPTIVE_MINIMUM} or more (B369), and level {levels} leaves {effective}.",
        {
            "name": "deceptive",
            "value": levels,
            "allowed": {"type": "integer", "minimum": 0, "maximum": most},
            "because": {"effective": effective},
        },
    )


# ---------------------------------------------------------------- defense


@guarded
def defense(
    kind: DefenseKind,
    base: int,
    *,
    maneuver_of_defender: DefenderManeuver = "attack",
    retreat: bool = False,
    parry_style: ParryStyle = "weapon",
    parries_so_far: int = 0,
    master: bool = False,
    attack_direction: AttackDirection = "front",
    posture: Posture = "standing",
    stunned: bool = False,
    deceptive: int = 0,
    feint: int = 0,
    dual_weapon_attack: bool = False,
    shield_db: int = 0,
    encumbrance_level: int = 0,
    unarmed_vs_weapon: bool = False,
    vs_ranged: bool = False,
) -> Defense:
    """The value of one active defense, with every modifier the Basic Set gives it.

    No defense at all (``value`` None, the ``reason``): the defender's last maneuver was an
    All-Out Attack (``all_out_attack``, checked first, B365); an attack from behind
    (``attack_from_behind``, B391); a parry after a Move and Attack (``move_and_attack_no_parry``:
    dodge or block only, B365).

    The modifiers, in this order (non-zero ones only, each with its page):

    * ``shield_db``: + the shield's or cloak's DB (B374);
    * ``all_out_defense``: +2 when the defender's All-Out Defense chose this defense (B366);
    * ``retreat``: Dodge +3, Block +1, Parry +1, or +3 with a fencing weapon, Boxing, Judo or
      Karate (B377);
    * ``multiple_parries``: -4 per earlier parry this turn with the same weapon or hand, -2 with
      a fencing weapon, halved with Trained by a Master or Weapon Master (B376);
    * ``encumbrance``: -level to Dodge (B17) and to fencing, Judo and Karate parries (B391);
    * ``unarmed_vs_weapon``: -3 to parry a weapon's swing bare-handed or with Boxing (B376);
    * ``attack_from_side``: -2 (B390); ``posture``: kneeling, sitting -2, crawling, lying -3
      (B551); ``stunned``: -4 (B420);
    * ``deceptive``: -1 per level of the attacker's Deceptive Attack (B369); ``feint``: -the
      feint's margin (B365); ``dual_weapon_attack``: -1 (B417).

    ``value`` is the base plus their sum, with no floor (3-4 still succeeds). Shock never
    applies. Checked in this order: each argument; the combinations of arguments; the cases
    with no defense; whether a retreat is possible; then the modifiers.

    Args:
        kind: ``"dodge"``, ``"parry"`` or ``"block"``.
        base: The score from the sheet (:func:`dodge_score`, :func:`parry_score`,
            :func:`block_score`): with Combat Reflexes, Enhanced Defenses and the weapon's parry
            modifier; Dodge unencumbered; no shield DB.
        maneuver_of_defender: The defender's last maneuver, a :data:`DefenderManeuver`.
        retreat: Whether the defender retreats (once per turn, against melee attacks).
        parry_style: A :data:`ParryStyle` (parries only).
        parries_so_far: Parries already made this turn with the same weapon or hand (parries
            only).
        master: Trained by a Master or Weapon Master (ignored but for repeat parries).
        attack_direction: ``"front"``, ``"side"`` or ``"behind"``.
        posture: The defender's :data:`Posture`.
        stunned: Whether the defender is stunned (no retreat then).
        deceptive: The level of the attacker's Deceptive Attack, at least 0.
        feint: What :func:`feint_penalty` gave against this attacker, at least 0.
        dual_weapon_attack: Both attacks of a Dual-Weapon Attack are at this defender.
        shield_db: The shield's or cloak's DB, at least 0 (0 against firearms, or from the
            side without the shield).
        encumbrance_level: 0 (none) to 4 (extra-heavy); ignored where it does not apply.
        unarmed_vs_weapon: A bare-handed parry of a weapon's swing (False against a thrust).
        vs_ranged: The attack is a ranged one (no retreat against it).

    Returns:
        A :class:`Defense`.

    Raises:
        CharacterError: ``invalidArgument`` (``details``: ``name``, ``value``, ``allowed``, and
            ``because`` for a forbidden combination) for unknown strings; non-integers; negative
            ``parries_so_far``, ``deceptive``, ``feint`` or ``shield_db``; an encumbrance level
            outside 0-4; a dodge or block with a parry style other than ``weapon``, earlier
            parries or ``unarmed_vs_weapon``; ``unarmed_vs_weapon`` with a ``weapon`` or
            ``fencing`` parry; a retreat after a Move and Attack, while kneeling, sitting or
            stunned, or against a ranged attack.
    """
    which = _choice(kind, "kind", _DEFENSE_KINDS)
    score = _integer(base, "base")
    last = _choice(maneuver_of_defender, "maneuver_of_defender", _DEFENDER_MANEUVERS)
    retreating = _flag(retreat, "retreat")
    style = _choice(parry_style, "parry_style", _PARRY_STYLES)
    parries = _integer(parries_so_far, "parries_so_far", 0)
    is_master = _flag(master, "master")
    direction = _choice(attack_direction, "attack_direction", _DIRECTIONS)
    stance = _choice(posture, "posture", _POSTURES)
    is_stunned = _flag(stunned, "stunned")
    levels = _integer(deceptive, "deceptive", 0)
    feinted = _integer(feint, "feint", 0)
    is_dual = _flag(dual_weapon_attack, "dual_weapon_attack")
    db = _integer(shield_db, "shield_db", 0)
    encumbrance = _integer(encumbrance_level, "encumbrance_level", 0, 4)
    bare_handed = _flag(unarmed_vs_weapon, "unarmed_vs_weapon")
    ranged = _flag(vs_ranged, "vs_ranged")

    if which != "parry":
        a_defense = f"for a {which}"
        if style != "weapon":
            _conflict("parry_style", style, ["weapon"], "'weapon'", a_defense, kind=which)
        if parries:
            _conflict("parries_so_far", parries, [0], "0", a_defense, kind=which)
        if bare_handed:
            _conflict("unarmed_vs_weapon", bare_handed, [False], "False", a_defense, kind=which)
    if bare_handed and style in ("weapon", "fencing"):
        _conflict(
            "unarmed_vs_weapon", bare_handed, [False], "False", f"for a {style} parry", parry_style=style
        )

    if last.startswith("all_out_attack"):
        return Defense(value=None, modifiers=(), reason="all_out_attack")
    if direction == "behind":
        return Defense(value=None, modifiers=(), reason="attack_from_behind")
    if which == "parry" and last == "move_and_attack":
        return Defense(value=None, modifiers=(), reason="move_and_attack_no_parry")

    if retreating:
        if last == "move_and_attack":
            _conflict("retreat", True, [False], "False", "after a Move and Attack", maneuver_of_defender=last)
        if stance in ("kneeling", "sitting"):
            _conflict("retreat", True, [False], "False", f"while {stance}", posture=stance)
        if is_stunned:
            _conflict("retreat", True, [False], "False", "while stunned", stunned=True)
        if ranged:
            _conflict("retreat", True, [False], "False", "against a ranged attack", vs_ranged=True)

    found = _Modifiers()
    found.add("shield_db", db, "B374")
    if last == f"all_out_defense_{which}":
        found.add("all_out_defense", 2, "B366")
    if retreating:
        plus_three = which == "dodge" or (which == "parry" and style in _RETREAT_PLUS_THREE)
        found.add("retreat", 3 if plus_three else 1, "B377")
    if which == "parry":
        each = 2 if style == "fencing" else 4
        found.add("multiple_parries", -(each // 2 if is_master else each) * parries, "B376")
    if which == "dodge":
        found.add("encumbrance", -encumbrance, "B17")
    elif which == "parry" and style in _ENCUMBERED_PARRIES:
        found.add("encumbrance", -encumbrance, "B391")
    if bare_handed and style in _BARE_HANDED:
        found.add("unarmed_vs_weapon", -3, "B376")
    if direction == "side":
        found.add("attack_from_side", -2, "B390")
    found.add("posture", _DEFENSE_POSTURE[stance], "B551")
    if is_stunned:
        found.add("stunned", -4, "B420")
    found.add("deceptive", -levels, "B369")
    found.add("feint", -feinted, "B365")
    if is_dual:
        found.add("dual_weapon_attack", -1, "B417")
    return Defense(value=score + found.total(), modifiers=tuple(found.items), reason=None)
