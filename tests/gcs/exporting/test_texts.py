"""The export's shortcuts against what they stand for: the attributes' text written from
templates against the writer's text of the same entries, the pools' states against their
scripts, the loads of a Basic Lift in whole pounds against their rounding, the damage tables
against Go's division."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.exporting.sheet import plain
from gurps_character.gcs.exporting.stats.pools import _POOL_RULES, _halving
from gurps_character.gcs.format.json_text import gcs_text
from gurps_character.gcs.format.progression import basic_lift_pounds, damage_tables, swing, thrust
from gurps_character.gcs.format.standard_sheet import ATTRIBUTE_DEFINITIONS, POOL_THRESHOLDS, attributes_text

_POOLS = ("fp", "hp")

_numbers = st.one_of(
    st.integers(-2_000_000, 2_000_000),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 4)),
)


def _entries(draw: Any, fp_damage: bool, hp_damage: bool) -> tuple[list[dict[str, Any]], list[float]]:
    """The entries as dicts and their numbers in the order the text has them."""
    entries, numbers = [], []
    for ident in ATTRIBUTE_DEFINITIONS:
        adj, value, points = draw(_numbers), draw(_numbers), draw(_numbers)
        entry: dict[str, Any] = {"attr_id": ident, "adj": adj}
        calc: dict[str, Any] = {"value": value}
        numbers.append(adj)
        damaged = (fp_damage if ident == "fp" else hp_damage) if ident in _POOLS else False
        if damaged:
            damage = draw(_numbers.filter(bool))
            entry["damage"] = damage
            numbers.append(damage)
        numbers.append(value)
        if ident in _POOLS:
            current = draw(_numbers)
            calc["current"] = current
            numbers.append(current)
        calc["points"] = points
        numbers.append(points)
        entry["calc"] = calc
        entries.append(entry)
    return entries, numbers


@given(st.data(), st.booleans(), st.booleans())
def test_the_attributes_text_is_the_writers_text_of_the_entries(
    data: st.DataObject, fp_damage: bool, hp_damage: bool
) -> None:
    entries, numbers = _entries(data.draw, fp_damage, hp_damage)
    top = gcs_text({"attributes": entries})
    inner = top[top.index("[") : top.rindex("]") + 1]  # the list as it sits one level deep
    assert attributes_text(numbers, fp_damage, hp_damage) == inner


# ---------------------------------------------------------------- the pools' states


def _script_value(script: str, maximum: int) -> float:
    """A threshold script of GCS's standard set for a pool's maximum, read here on its own."""
    if script == "0":
        return 0
    if script.startswith("Math.round("):  # Math.round(-$hp * N): JavaScript rounds half up
        factor = int(script.split("*")[1].rstrip(")"))
        return math.floor(-maximum * factor + 0.5)
    if script.startswith("Math.ceil("):  # Math.ceil($hp / 3) - 1
        return math.ceil(maximum / 3) - 1
    if script.startswith("-$"):
        return -maximum
    return maximum - 1 if script.endswith("- 1") else maximum


def _state_by_scripts(ident: str, maximum: int, current: int) -> tuple[str, tuple[str, ...]] | None:
    for state, script, _, ops in POOL_THRESHOLDS[ident]:
        if current <= _script_value(script, maximum):
            return (state, ops) if ops else None
    return None


def test_the_pools_halving_states_are_those_their_scripts_give() -> None:
    for ident, _, thresholds in _POOL_RULES:
        for maximum in [*range(-25, 121), 299, 300, 301, 999_999, 1_000_000, -1_000_000]:
            span = 6 * abs(maximum) + 3
            currents = range(-span, span + 1) if abs(maximum) <= 300 else (-span, -1, 0, 1, span)
            for current in currents:
                assert _halving(thresholds, maximum, current) == _state_by_scripts(ident, maximum, current)


# ---------------------------------------------------------------- the loads


def test_whole_pounds_give_loads_exact_in_halves() -> None:
    """Every Basic Lift in whole pounds (ST 8 up to the cap at 10^9 lb, halved for low FP too),
    in kg and times each load factor, halved, is what plain(round(..., 6)) gives."""
    for strength in range(0, 70_800):
        pounds = basic_lift_pounds(strength, "basic_set")
        if type(pounds) is not int:
            continue
        for factor in (1, 2, 3, 6, 10):
            exact = pounds * factor / 2
            written = plain(round(pounds * factor / 2, 6))
            assert written == exact
            assert plain(exact) == written and type(plain(exact)) is type(written)
        kilograms = pounds / 2 if pounds % 2 else pounds // 2  # Basic Lift in kg, in _lift
        assert kilograms == plain(round(pounds / 2, 6))
        assert type(kilograms) is type(plain(round(pounds / 2, 6)))


# ---------------------------------------------------------------- the damage tables


def _go_div(a: int, b: int) -> int:
    quotient = abs(a) // b
    return quotient if a >= 0 else -quotient


def _go_mod(a: int, b: int) -> int:
    return a - _go_div(a, b) * b


def _go_basic_thrust(st: int) -> tuple[int, int]:
    if st < 19:
        return 1, -(6 - _go_div(st - 1, 2))
    value = st - 11
    if st > 50:
        value -= 1
        if st > 79:
            value -= 1 + _go_div(st - 80, 5)
    return _go_div(value, 8) + 1, _go_div(_go_mod(value, 8), 2) - 1


def _go_basic_swing(st: int) -> tuple[int, int]:
    if st < 10:
        return 1, -(5 - _go_div(st - 1, 2))
    if st < 28:
        value = st - 9
        return _go_div(value, 4) + 1, _go_mod(value, 4) - 1
    value = st
    if st > 40:
        value -= _go_div(st - 40, 5)
    if st > 59:
        value += 1
    value += 9
    return _go_div(value, 8) + 1, _go_div(_go_mod(value, 8), 2) - 1


def _go_grognard_thrust(st: int) -> tuple[int, int]:
    if st < 11:
        return 1, -_go_div(14 - st, 2)
    value = st - 11
    return _go_div(value, 8) + 1, _go_div(_go_mod(value, 8), 2) - 1


def _go_tables(st: int) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """Thrust and swing at ST by progression, with Go's division throughout (GCS's own code)."""
    thrust, swing = _go_basic_thrust(st), _go_basic_swing(st)
    return {
        "basic_set": (thrust, swing),
        "swing_equals_thrust_plus_2": (thrust, (thrust[0], thrust[1] + 2)),
        "thrust_equals_swing_minus_2": ((swing[0], swing[1] - 2), swing),
        "no_school_grognard_damage": (_go_grognard_thrust(st), _go_grognard_thrust(st + 3)),
        "knowing_your_own_strength": (
            (1, st - 12) if st < 12 else (_go_div(st - 7, 4), _go_mod(st + 1, 4) - 1),
            (1, st - 10) if st < 10 else (_go_div(st - 5, 4), _go_mod(st - 1, 4) - 1),
        ),
    }


def test_the_damage_tables_divide_as_go_does() -> None:
    """Every ST from -2,000 to 20,000 (the tables branch below 80) and a stride through the rest
    of what an export reaches (ST within ±10^6, a bonus within ±200)."""
    strengths = [*range(-2_000, 20_000), *range(-1_000_200, 1_000_201, 997), -1_000_200, 1_000_200]
    for strength in strengths:
        for progression, (thrust_dice, swing_dice) in _go_tables(strength).items():
            tables = damage_tables(progression)
            assert tables is not None
            assert (tables[0](strength), tables[1](strength)) == (thrust_dice, swing_dice)
            assert (thrust(strength, progression), swing(strength, progression)) == (thrust_dice, swing_dice)
    assert damage_tables("phoenix_flame_d3") is None
    assert thrust(10, "phoenix_flame_d3") is None and swing(10, "phoenix_flame_d3") is None
