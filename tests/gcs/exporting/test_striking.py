"""The Striking ST bonus an export finds for a document's thrust and swing, read from runs made
at import (and searched above them), against the rule itself: the first of GCS's progressions
(the Basic Set's first) with an ST within 200 of the character's, not below 0, that gives both,
and the bonus nearest 0, the lower of two as near."""

from __future__ import annotations

from gurps_character.gcs.exporting.stats.damage_table import _PROGRESSIONS, _RUNS, _RUNS_UP_TO, _striking
from gurps_character.gcs.format.progression import damage_tables

Dice = tuple[int, int]

_MOST_BONUS = 200
_TOP = 10_200  # the highest ST a search reaches: ST 10,000 (the most searched) and 200


def _pairs(progression: str, top: int) -> list[tuple[Dice, Dice]]:
    tables = damage_tables(progression)
    assert tables is not None
    return [(tables[0](strength), tables[1](strength)) for strength in range(top + 1)]


_PAIRS = {progression: _pairs(progression, _RUNS_UP_TO + 20) for progression in _PROGRESSIONS}


def _by_rule(st: int, wanted: tuple[Dice, Dice], pairs: dict[str, list[tuple[Dice, Dice]]]) -> object:
    low, high = max(st - _MOST_BONUS, 0), st + _MOST_BONUS
    for progression in _PROGRESSIONS:
        table = pairs[progression]
        found = [strength - st for strength in range(low, high + 1) if table[strength] == wanted]
        if found:
            return progression, min(found, key=lambda bonus: (abs(bonus), bonus))
    return None


def test_every_st_of_a_run_gives_its_thrust_and_swing() -> None:
    """The runs are whole: no ST between a pair's lowest and highest gives another pair."""
    assert tuple(progression for progression, _ in _RUNS) == _PROGRESSIONS
    for progression, runs in _RUNS:
        pairs = _PAIRS[progression]
        assert sum(last - first + 1 for first, last in runs.values()) == _RUNS_UP_TO + 1
        for pair, (first, last) in runs.items():
            assert all(pairs[strength] == pair for strength in range(first, last + 1))


def test_the_bonus_found_is_the_rules_for_every_st_the_runs_cover() -> None:
    """Every ST from -210 to 210 (the runs cover up to 200, the search the rest), with the thrust
    and swing of each progression at STs around it, and pairs no progression gives."""
    offsets = (-201, -200, -199, -57, -3, -1, 0, 1, 2, 9, 199, 200, 201)
    absent = (((1, -6), (9, 9)), ((0, 0), (0, 0)), ((300, 2), (1, 1)))
    for st in range(-210, 211):
        wanted = {pairs[st + offset] for pairs in _PAIRS.values() for offset in offsets if st + offset >= 0}
        for pair in (*sorted(wanted), *absent):
            assert _striking(st, *pair) == _by_rule(st, pair, _PAIRS), (st, pair)


def test_the_bonus_found_above_the_runs_is_the_rules() -> None:
    """A stride of STs up to 10,000 (the search), with each progression's pairs around them."""
    pairs = {progression: _pairs(progression, _TOP) for progression in _PROGRESSIONS}
    for st in (*range(190, 420, 3), *range(420, 10_001, 487), 10_000):
        wanted = {table[st + offset] for table in pairs.values() for offset in (-200, -11, 0, 5, 200)}
        for pair in sorted(wanted):
            assert _striking(st, *pair) == _by_rule(st, pair, pairs), (st, pair)
    assert _striking(10_001, (1, 0), (1, 0)) is None
    assert _striking(-10_001, (1, 0), (1, 0)) is None
