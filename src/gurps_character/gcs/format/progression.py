"""GCS's damage progressions (thrust and swing for a striking ST) and its Basic Lift rules, for
files saved without GCS's computed values. Integer division truncates toward zero, as GCS's does
(ST 0 thrusts 1d-6, not 1d-7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .fields import MAX_MAGNITUDE, Node, boolean, text
from .units import js_round

__all__ = [
    "COMPUTED_PROGRESSIONS",
    "Table",
    "basic_lift_formula",
    "basic_lift_pounds",
    "damage_tables",
    "progression_of",
    "swing",
    "thrust",
]

Dice = tuple[int, int]
"""Six-sided dice and adds."""

COMPUTED_PROGRESSIONS = (
    "basic_set",
    "knowing_your_own_strength",
    "no_school_grognard_damage",
    "thrust_equals_swing_minus_2",
    "swing_equals_thrust_plus_2",
)
"""The progressions this module computes (GCS's others: the T-Bone and Phoenix Flame variants)."""


def progression_of(settings: Node) -> str:
    """The file's damage progression: ``damage_progression``, or the flags GCS 4.x wrote before
    it (``use_know_your_own_strength``, ``use_reduced_swing``, ``use_thrust_equals_swing_minus_2``);
    ``basic_set`` when none is set."""
    named = text(settings, "damage_progression").strip()
    if named:
        return named
    if boolean(settings, "use_know_your_own_strength"):
        return "knowing_your_own_strength"
    if boolean(settings, "use_thrust_equals_swing_minus_2"):
        return "thrust_equals_swing_minus_2"
    if boolean(settings, "use_reduced_swing"):
        return "no_school_grognard_damage"
    return "basic_set"


def _div(a: int, b: int) -> int:
    """Integer division truncated toward zero (Go's ``/``)."""
    quotient = abs(a) // b
    return quotient if a >= 0 else -quotient


# Past their first branch the tables divide numbers that are not below 0, where Go's division and
# remainder are Python's // and %.


def _basic_thrust(st: int) -> Dice:
    if st < 19:
        return 1, -(6 - _div(st - 1, 2))
    value = st - 11
    if st > 50:
        value -= 1
        if st > 79:
            value -= 1 + (st - 80) // 5
    return value // 8 + 1, value % 8 // 2 - 1


def _basic_swing(st: int) -> Dice:
    if st < 10:
        return 1, -(5 - _div(st - 1, 2))
    if st < 28:
        value = st - 9
        return value // 4 + 1, value % 4 - 1
    value = st
    if st > 40:
        value -= (st - 40) // 5
    if st > 59:
        value += 1
    value += 9
    return value // 8 + 1, value % 8 // 2 - 1


def _grognard_thrust(st: int) -> Dice:
    if st < 11:
        return 1, -((14 - st) // 2)
    value = st - 11
    return value // 8 + 1, value % 8 // 2 - 1


def _grognard_swing(st: int) -> Dice:
    return _grognard_thrust(st + 3)


def _kyos_thrust(st: int) -> Dice:
    return (1, st - 12) if st < 12 else ((st - 7) // 4, (st + 1) % 4 - 1)


def _kyos_swing(st: int) -> Dice:
    return (1, st - 10) if st < 10 else ((st - 5) // 4, (st - 1) % 4 - 1)


def _swing_less_2(st: int) -> Dice:
    count, adds = _basic_swing(st)
    return count, adds - 2


def _thrust_and_2(st: int) -> Dice:
    count, adds = _basic_thrust(st)
    return count, adds + 2


Table = Callable[[int], Dice]
"""Thrust or swing as a function of striking ST."""

_TABLES: Final[dict[str, tuple[Table, Table]]] = {
    "basic_set": (_basic_thrust, _basic_swing),
    "swing_equals_thrust_plus_2": (_basic_thrust, _thrust_and_2),
    "knowing_your_own_strength": (_kyos_thrust, _kyos_swing),
    "no_school_grognard_damage": (_grognard_thrust, _grognard_swing),
    "thrust_equals_swing_minus_2": (_swing_less_2, _basic_swing),
}


def damage_tables(progression: str) -> tuple[Table, Table] | None:
    """GCS's thrust and swing as functions of striking ST under a progression, or None for a
    progression not computed here."""
    return _TABLES.get(progression)


def thrust(st: int, progression: str) -> Dice | None:
    """GCS's thrust at a striking ST, or None for a progression not computed here."""
    found = _TABLES.get(progression)
    return None if found is None else found[0](st)


def swing(st: int, progression: str) -> Dice | None:
    """GCS's swing at a striking ST, or None for a progression not computed here."""
    found = _TABLES.get(progression)
    return None if found is None else found[1](st)


def basic_lift_pounds(st: int, progression: str) -> float:
    """GCS's Basic Lift in lb for a lifting ST: ST²/5 (whole from 10 lb, else in tenths of a
    pound), or 2 × 10^(ST/10) under Knowing Your Own Strength (rescaled by tens above ST 19);
    0 below ST 1; at most 10^9 lb."""
    if st < 1:
        return 0
    if progression == "knowing_your_own_strength":
        tens = 0
        if st > 19:
            tens = st // 10 - 1
            st -= tens * 10
        value = 2 * 10 ** (st / 10)
        value = js_round(value) if value >= 10 else js_round(value, 1)
        return min(value * 10.0 ** min(tens, 20), MAX_MAGNITUDE)
    if st * st >= 50:  # 10 lb or more: rounded to a whole pound, half up
        return min((2 * st * st + 5) // 10, MAX_MAGNITUDE)
    return 2 * st * st / 10  # exact tenths of a pound below 10 lb


def basic_lift_formula(st: int) -> float:
    """The format's Basic Lift in kg for ST (ST²/10, rounded; to 0.1 under 10 kg)."""
    raw = st * st / 10
    return js_round(raw) if raw >= 10 else js_round(raw, 1)
