"""The attributes' shortcuts of the export against what they stand for: the template with GCS's
own attributes' zeros written in against the whole template, Basic Speed's numbers against
:func:`plain`, the points of levels bought without a cost reduction against GCS's rounding, Move
and Dodge per encumbrance level against the rule level by level, the Basic Set's damage table
against its thrust and swing, the pounds carried against each item's."""

from __future__ import annotations

import math
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.exporting.sheet import LIMIT, dice_text, fxp_text, plain
from gurps_character.gcs.exporting.stats.attributes import _CORE, _attribute_cost, _quarters
from gurps_character.gcs.exporting.stats.damage_table import _BASIC_SET, _RUNS_UP_TO
from gurps_character.gcs.exporting.stats.derived import _carried_pounds, _moves_and_dodges, _weight_pounds
from gurps_character.gcs.format.progression import swing, thrust
from gurps_character.gcs.format.standard_sheet import (
    ATTRIBUTE_DEFINITIONS,
    attributes_text,
    standard_attributes_text,
)

_OWN = ("fright_check", "vision", "hearing", "taste_smell", "touch")
_POOLS = ("fp", "hp")

_numbers = st.one_of(
    st.integers(-2_000_000, 2_000_000),
    st.floats(-1e6, 1e6, allow_nan=False).map(lambda x: round(x, 4)),
)


def _all_and_standard(draw: Any, fp_damage: bool, hp_damage: bool) -> tuple[list[float], list[float]]:
    """Every entry's numbers in the order the text has them, and the same without GCS's own
    attributes' adj and points (drawn as 0, as an export has them)."""
    every: list[float] = []
    standard: list[float] = []
    for ident in ATTRIBUTE_DEFINITIONS:
        own = ident in _OWN
        adj = 0 if own else draw(_numbers)
        numbers = [adj]
        if (fp_damage if ident == "fp" else hp_damage) and ident in _POOLS:
            numbers.append(draw(_numbers.filter(bool)))
        numbers.append(draw(_numbers))
        if ident in _POOLS:
            numbers.append(draw(_numbers))
        numbers.append(0 if own else draw(_numbers))
        every += numbers
        standard += numbers[1:-1] if own else numbers
    return every, standard


@given(st.data(), st.booleans(), st.booleans())
def test_the_standard_template_is_the_whole_template_with_own_attributes_at_0(
    data: st.DataObject, fp_damage: bool, hp_damage: bool
) -> None:
    every, standard = _all_and_standard(data.draw, fp_damage, hp_damage)
    assert len(standard) == len(every) - 2 * len(_OWN)
    assert standard_attributes_text(standard, fp_damage, hp_damage) == attributes_text(
        every, fp_damage, hp_damage
    )


@given(st.integers(-8 * LIMIT - 8, 8 * LIMIT + 8))
def test_quarters_are_written_as_plain_writes_them(quarters: int) -> None:
    value = quarters / 4
    shown = _quarters(value)
    assert shown == plain(value)
    assert type(shown) is type(plain(value))


@given(st.integers(-(10**10), 10**10))
def test_halves_up_to_the_largest_load_are_written_as_plain_writes_them(halves: int) -> None:
    """An encumbrance level's load in whole pounds' halves: at most 10 times a Basic Lift of
    at most 10^9 lb, halved."""
    value = halves / 2
    assert (_quarters(value), type(_quarters(value))) == (plain(value), type(plain(value)))


def test_quarters_near_zero_and_whole_numbers() -> None:
    for quarters in range(-400, 401):
        value = quarters / 4
        assert (_quarters(value), type(_quarters(value))) == (plain(value), type(plain(value)))
    assert type(_quarters(-0.0)) is int
    assert _quarters(7) == 7 and type(_quarters(7)) is int


_COSTS = sorted({cost for _, cost in _CORE.values()})
_ADJ_BOUND = 2 * LIMIT + 10  # a value and a base each within LIMIT (or the base 10)


@given(st.integers(-_ADJ_BOUND, _ADJ_BOUND), st.sampled_from(_COSTS))
def test_whole_levels_without_reduction_cost_their_levels_times_the_cost(adj: int, cost: int) -> None:
    assert _attribute_cost(adj, cost, 0.0) == adj * cost


def test_whole_levels_without_reduction_at_the_edges() -> None:
    for cost in _COSTS:
        for adj in (*range(-50, 51), -_ADJ_BOUND, _ADJ_BOUND, -LIMIT, LIMIT, LIMIT - 1, 1 - LIMIT):
            assert _attribute_cost(adj, cost, 0.0) == adj * cost


def _moves_and_dodges_level_by_level(move_base: float, dodge_base: float) -> tuple[list[int], list[int]]:
    """GCS's rule read on its own: each level's Move and Dodge, then raised to their least."""
    moves = [math.floor(move_base * factor / 10) for factor in (10, 8, 6, 4, 2)]
    dodges = [math.trunc(dodge_base - level) for level in range(5)]
    least_move = 1 if move_base > 0 else 0
    return [max(move, least_move) for move in moves], [max(dodge, 1) for dodge in dodges]


_move_bases = st.integers(0, 2 * LIMIT)
_dodge_bases = st.one_of(
    st.integers(-2 * LIMIT, 2 * LIMIT),
    st.integers(-8 * LIMIT, 8 * LIMIT).map(lambda quarters: quarters / 4),
)


@given(_move_bases, _dodge_bases)
def test_moves_and_dodges_are_the_rule_level_by_level(move_base: int, dodge_base: float) -> None:
    assert _moves_and_dodges(move_base, dodge_base) == _moves_and_dodges_level_by_level(move_base, dodge_base)


def test_moves_and_dodges_near_their_least() -> None:
    for move_base in range(12):
        for quarters in range(-40, 60):
            dodge_base = quarters / 4
            assert _moves_and_dodges(move_base, dodge_base) == _moves_and_dodges_level_by_level(
                move_base, dodge_base
            )


def test_the_basic_sets_table_is_its_thrust_and_swing_at_each_st() -> None:
    assert len(_BASIC_SET) == _RUNS_UP_TO + 1
    for strength, entry in enumerate(_BASIC_SET):
        thrust_at, swing_at = thrust(strength, "basic_set"), swing(strength, "basic_set")
        assert thrust_at is not None and swing_at is not None
        assert entry == (thrust_at, swing_at, dice_text(*thrust_at), dice_text(*swing_at))


_weights = st.one_of(
    st.floats(-2e6, 2e6, allow_nan=False).map(lambda pounds: fxp_text(pounds) + " lb"),
    st.integers(-2_000_000, 2_000_000).map(lambda pounds: fxp_text(pounds) + " lb"),
    st.sampled_from(["", " lb", "lb", "12", "1,5 lb", "x lb", "1_000 lb", " 7 lb", "nan lb"]),
    st.none(),
    st.integers(),
)
_items = st.one_of(
    st.builds(lambda weight: {"calc": {"extended_weight": weight}}, _weights),
    st.just({}),
    st.just({"calc": {}}),
)


@given(st.lists(_items, max_size=6))
def test_the_carried_pounds_are_the_sum_of_each_items_pounds(equipment: list[dict[str, Any]]) -> None:
    carried, each = _carried_pounds(equipment), sum(_weight_pounds(node) for node in equipment)
    assert carried == each or (math.isnan(carried) and math.isnan(each))
