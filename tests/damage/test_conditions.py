"""Conditions (B419, B426) and pool changes with their follow-ups: every boundary, both ways."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gurps_character as gc
from gurps_character import CharacterError
from gurps_character.conditions import (
    Condition,
    ConditionEffects,
    FollowUp,
    PoolChange,
    PoolState,
    Threshold,
    change_pool,
    get_condition,
)
from gurps_character.update import apply_damage, heal, recover_fatigue, spend_fatigue
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
RURIK: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
JOTUN: dict[str, Any] = json.loads((EXAMPLES / "jotun.json").read_text(encoding="utf-8"))
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)
STAMP = "2026-10-05T10:00:00.000Z"

HP_ORDER = ("healthy", "wounded", "reeling", "collapse", "dying", "dead", "destroyed")
FP_ORDER = ("rested", "tiring", "tired", "collapse", "unconscious")


def character(
    hp: int = 15, hp_current: int | None = None, fp: int = 12, fp_current: int | None = None
) -> dict[str, Any]:
    """Rurik with the given pools (an absent current means full)."""
    document = copy.deepcopy(RURIK)
    for name, maximum, current in (("hp", hp, hp_current), ("fp", fp, fp_current)):
        pool = document["secondary"][name]
        pool["value"] = maximum
        pool.pop("current", None)
        if current is not None:
            pool["current"] = current
    return document


def severity(state: PoolState, order: tuple[str, ...]) -> tuple[int, int]:
    return order.index(state.state), state.n or 0


# ---------------------------------------------------------------- HP states, B419

HP_15 = [
    (15, "healthy", None),
    (14, "wounded", None),
    (5, "wounded", None),
    (4, "reeling", None),
    (1, "reeling", None),
    (0, "collapse", None),
    (-1, "collapse", None),
    (-14, "collapse", None),
    (-15, "dying", 1),
    (-16, "dying", 1),
    (-29, "dying", 1),
    (-30, "dying", 2),
    (-44, "dying", 2),
    (-45, "dying", 3),
    (-59, "dying", 3),
    (-60, "dying", 4),
    (-74, "dying", 4),
    (-75, "dead", None),
    (-149, "dead", None),
    (-150, "destroyed", None),
]


@pytest.mark.parametrize(("current", "state", "n"), HP_15)
def test_hp_states_for_15_hp(current: int, state: str, n: int | None) -> None:
    condition = get_condition(character(hp=15, hp_current=current))
    assert condition.hp == PoolState(state, n, current, 15)  # type: ignore[arg-type]
    halves = state not in ("healthy", "wounded")
    assert condition.effects.halve_move is halves
    assert condition.effects.halve_dodge is halves
    assert condition.effects.halve_st is False


@pytest.mark.parametrize(
    ("maximum", "wounded", "reeling"),
    [
        (13, 5, 4),  # 4 < 13/3 = 4.33 <= 5
        (14, 5, 4),  # 4 < 4.67 <= 5
        (16, 6, 5),  # 5 < 5.33 <= 6
        (3, 1, 0),  # 1/3 of 3 is 1: 1 is not below it, and 0 is already collapse
        (2, 1, 0),
        (4, 2, 1),
    ],
)
def test_reeling_is_below_a_third(maximum: int, wounded: int, reeling: int) -> None:
    assert get_condition(character(hp=maximum, hp_current=wounded)).hp.state == "wounded"
    expected = "reeling" if reeling > 0 else "collapse"
    assert get_condition(character(hp=maximum, hp_current=reeling)).hp.state == expected


def test_one_hp() -> None:
    assert get_condition(character(hp=1)).hp.state == "healthy"
    assert get_condition(character(hp=1, hp_current=0)).hp.state == "collapse"
    assert get_condition(character(hp=1, hp_current=-1)).hp == PoolState("dying", 1, -1, 1)
    assert get_condition(character(hp=1, hp_current=-4)).hp == PoolState("dying", 4, -4, 1)
    assert get_condition(character(hp=1, hp_current=-5)).hp.state == "dead"
    assert get_condition(character(hp=1, hp_current=-10)).hp.state == "destroyed"


def test_absent_current_is_full() -> None:
    condition = get_condition(character(hp=15, fp=12))
    assert condition.hp == PoolState("healthy", None, 15, 15)
    assert condition.fp == PoolState("rested", None, 12, 12)
    assert condition.rolls == ()


# ---------------------------------------------------------------- FP states, B426


@pytest.mark.parametrize(
    ("maximum", "current", "state"),
    [
        (12, 12, "rested"),
        (12, 11, "tiring"),
        (12, 4, "tiring"),
        (12, 3, "tired"),
        (12, 1, "tired"),
        (12, 0, "collapse"),
        (12, -1, "collapse"),
        (12, -11, "collapse"),
        (12, -12, "unconscious"),
        (13, 13, "rested"),
        (13, 12, "tiring"),
        (13, 5, "tiring"),
        (13, 4, "tired"),  # 4 < 13/3
        (13, 0, "collapse"),
        (13, -12, "collapse"),
        (13, -13, "unconscious"),
        (10, 4, "tiring"),  # 4 is not below 3.33
        (10, 3, "tired"),
        (10, -9, "collapse"),
        (10, -10, "unconscious"),
        (1, 1, "rested"),
        (1, 0, "collapse"),
        (1, -1, "unconscious"),
    ],
)
def test_fp_states(maximum: int, current: int, state: str) -> None:
    condition = get_condition(character(fp=maximum, fp_current=current))
    assert condition.fp == PoolState(state, None, current, maximum)  # type: ignore[arg-type]
    halves = state in ("tired", "collapse", "unconscious")
    assert condition.effects.to_dict() == {"halveMove": halves, "halveDodge": halves, "halveSt": halves}


def test_jotun_has_13_fp() -> None:
    assert get_condition(JOTUN).fp == PoolState("rested", None, 13, 13)
    assert get_condition(JOTUN).hp == PoolState("wounded", None, 21, 28)


# ---------------------------------------------------------------- effects and effective numbers


def test_effective_numbers_unhurt() -> None:
    condition = get_condition(character())
    assert condition.move == (6, 4, 3, 2, 1)
    assert condition.dodge == (9, 8, 7, 6, 5)
    assert condition.st == 11


def test_reeling_halves_move_and_dodge_rounding_up() -> None:
    condition = get_condition(character(hp=15, hp_current=4))
    assert condition.move == (3, 2, 2, 1, 1)
    assert condition.dodge == (5, 4, 4, 3, 3)
    assert condition.st == 11


def test_tired_halves_move_dodge_and_st() -> None:
    condition = get_condition(character(fp=12, fp_current=3))
    assert condition.move == (3, 2, 2, 1, 1)
    assert condition.dodge == (5, 4, 4, 3, 3)
    assert condition.st == 6


def test_both_pools_halve_twice() -> None:
    document = character(hp=15, hp_current=2, fp=12, fp_current=2)
    document["encumbrance"]["levels"][0]["move"] = 5
    condition = get_condition(document)
    assert condition.move == (2, 1, 1, 1, 1)  # 5 -> 3 -> 2
    assert condition.dodge == (3, 2, 2, 2, 2)  # 9 -> 5 -> 3
    assert condition.st == 6  # ST halves once: only FP halves it


def test_effects_hold_when_dead_or_unconscious() -> None:
    dead = get_condition(character(hp=15, hp_current=-80))
    assert dead.effects.halve_move and not dead.effects.halve_st
    out = get_condition(character(fp=12, fp_current=-12))
    assert out.effects.halve_st and out.st == 6


def test_zero_move_stays_zero() -> None:
    document = character(hp=15, hp_current=0)
    document["encumbrance"]["levels"][4]["move"] = 0
    assert get_condition(document).move[4] == 0


# ---------------------------------------------------------------- rolls


def test_collapse_rolls_ht_each_turn() -> None:
    (roll,) = get_condition(character(hp=15, hp_current=0)).rolls
    assert roll.to_dict() == {
        "kind": "consciousnessCheck",
        "attribute": "ht",
        "modifier": 0,
        "when": "eachTurn",
        "reference": "B419",
    }


@pytest.mark.parametrize(("current", "modifier"), [(-1, 0), (-15, -1), (-30, -2), (-59, -3), (-74, -4)])
def test_dying_rolls_at_minus_n(current: int, modifier: int) -> None:
    (roll,) = get_condition(character(hp=15, hp_current=current)).rolls
    assert (roll.kind, roll.modifier) == ("consciousnessCheck", modifier)


@pytest.mark.parametrize("current", [-75, -149, -150])
def test_the_dead_roll_nothing(current: int) -> None:
    assert get_condition(character(hp=15, hp_current=current, fp=12, fp_current=0)).rolls == ()


def test_fp_collapse_rolls_will() -> None:
    (roll,) = get_condition(character(fp=12, fp_current=0)).rolls
    assert roll.to_dict() == {
        "kind": "actWhileCollapsed",
        "attribute": "will",
        "modifier": 0,
        "when": "beforeEachManeuver",
        "reference": "B426",
    }


def test_both_rolls_hp_first() -> None:
    rolls = get_condition(character(hp=15, hp_current=-20, fp=12, fp_current=-3)).rolls
    assert [(roll.kind, roll.modifier) for roll in rolls] == [
        ("consciousnessCheck", -1),
        ("actWhileCollapsed", 0),
    ]


def test_unconscious_from_fatigue_rolls_nothing() -> None:
    assert get_condition(character(hp=15, hp_current=-20, fp=12, fp_current=-12)).rolls == ()


# ---------------------------------------------------------------- maxima of 0 or less


@pytest.mark.parametrize("pool", ["hp", "fp"])
def test_zero_maximum_is_full_not_destroyed(pool: str) -> None:
    document = character()
    document["secondary"][pool]["value"] = 0
    condition = get_condition(document)
    state = condition.hp if pool == "hp" else condition.fp
    assert state.state == ("healthy" if pool == "hp" else "rested")
    assert condition.rolls == ()


def test_degenerate_pools_below_their_maximum_are_collapse() -> None:
    document = character(hp=0, hp_current=-3, fp=-2, fp_current=-5)
    condition = get_condition(document)
    assert condition.hp == PoolState("collapse", None, -3, 0)
    assert condition.fp == PoolState("collapse", None, -5, -2)
    assert [roll.kind for roll in condition.rolls] == ["consciousnessCheck", "actWhileCollapsed"]
    assert get_condition(character(hp=-4)).hp.state == "healthy"


def test_zero_fp_spends_into_hp() -> None:
    change = change_pool(character(fp=0), "fp", -3, now=NOW, spill_to_hp=True)
    assert (change.taken, change.clamped, change.after.state) == (0, True, "rested")
    assert [f.to_dict() for f in change.follow_ups] == [
        {"kind": "fatigueInjury", "amount": 3, "applied": True, "reference": "B426"}
    ]
    assert change.document["secondary"]["hp"]["current"] == 12


def test_negative_maximum_is_out_of_bounds_like_the_helpers() -> None:
    document = character(hp=-3)
    with pytest.raises(CharacterError) as helper:
        apply_damage(document, 1, now=NOW)
    with pytest.raises(CharacterError) as ours:
        change_pool(document, "hp", -1, now=NOW)
    assert ours.value.code == helper.value.code == "outOfBounds"
    assert ours.value.details == helper.value.details


# ---------------------------------------------------------------- change_pool: damage


def test_multi_threshold_jump() -> None:
    change = change_pool(character(hp=15), "hp", -46, now=NOW)
    assert change.before == PoolState("healthy", None, 15, 15)
    assert change.after == PoolState("dying", 2, -31, 15)
    assert (change.requested, change.taken, change.clamped) == (-46, -46, False)
    assert change.crossed == (
        Threshold("wounded", None, 14),
        Threshold("reeling", None, 4),
        Threshold("collapse", None, 0),
        Threshold("dying", 1, -15),
        Threshold("dying", 2, -30),
    )
    assert [f.to_dict() for f in change.follow_ups] == [
        {
            "kind": "consciousnessCheck",
            "attribute": "ht",
            "modifier": -2,
            "when": "startOfNextTurn",
            "at": 0,
            "reference": "B419",
        },
        {
            "kind": "deathCheck",
            "attribute": "ht",
            "modifier": 0,
            "when": "immediately",
            "n": 1,
            "at": -15,
            "reference": "B419",
        },
        {
            "kind": "deathCheck",
            "attribute": "ht",
            "modifier": 0,
            "when": "immediately",
            "n": 2,
            "at": -30,
            "reference": "B419",
        },
    ]
    assert change.document["secondary"]["hp"]["current"] == -31
    assert change.document["meta"]["updatedAt"] == STAMP


def test_to_dict() -> None:
    change = change_pool(character(hp=15, hp_current=1), "hp", -1, now=NOW)
    assert change.to_dict() == {
        "pool": "hp",
        "requested": -1,
        "taken": -1,
        "clamped": False,
        "before": {"state": "reeling", "current": 1, "max": 15},
        "after": {"state": "collapse", "current": 0, "max": 15},
        "crossed": [{"state": "collapse", "at": 0}],
        "followUps": [
            {
                "kind": "consciousnessCheck",
                "attribute": "ht",
                "modifier": 0,
                "when": "startOfNextTurn",
                "at": 0,
                "reference": "B419",
            }
        ],
    }
    json.dumps(change.to_dict())
    assert "document" not in change.to_dict()


def test_condition_to_dict() -> None:
    condition = get_condition(character(hp=15, hp_current=-16, fp=12, fp_current=5))
    assert condition.to_dict() == {
        "hp": {"state": "dying", "n": 1, "current": -16, "max": 15},
        "fp": {"state": "tiring", "current": 5, "max": 12},
        "effects": {"halveMove": True, "halveDodge": True, "halveSt": False},
        "move": [3, 2, 2, 1, 1],
        "dodge": [5, 4, 4, 3, 3],
        "st": 11,
        "rolls": [
            {
                "kind": "consciousnessCheck",
                "attribute": "ht",
                "modifier": -1,
                "when": "eachTurn",
                "reference": "B419",
            }
        ],
    }
    assert json.loads(json.dumps(condition.to_dict())) == condition.to_dict()


def test_already_collapsed_owes_no_new_consciousness_check() -> None:
    change = change_pool(character(hp=15, hp_current=0), "hp", -3, now=NOW)
    assert change.crossed == ()
    assert change.follow_ups == ()


@pytest.mark.parametrize(("start", "end", "checks"), [(-14, -15, [1]), (-15, -16, []), (-16, -61, [2, 3, 4])])
def test_death_checks_at_each_multiple(start: int, end: int, checks: list[int]) -> None:
    change = change_pool(character(hp=15, hp_current=start), "hp", end - start, now=NOW)
    assert [f.n for f in change.follow_ups if f.kind == "deathCheck"] == checks
    assert all(f.kind == "deathCheck" for f in change.follow_ups)


def test_death_check_owed_again_after_healing_and_falling() -> None:
    first = change_pool(character(hp=15, hp_current=-10), "hp", -6, now=NOW)
    healed = change_pool(first.document, "hp", 3, now=NOW)
    again = change_pool(healed.document, "hp", -3, now=NOW)
    assert [f.kind for f in first.follow_ups] == ["deathCheck"]
    assert healed.follow_ups == ()
    assert [f.kind for f in again.follow_ups] == ["deathCheck"]


def test_reaching_minus_five_times_hp_owes_death_alone() -> None:
    change = change_pool(character(hp=15, hp_current=15), "hp", -90, now=NOW)
    assert change.after.state == "dead"
    assert [f.to_dict() for f in change.follow_ups] == [{"kind": "death", "at": -75, "reference": "B419"}]
    assert change_pool(character(hp=15, hp_current=-74), "hp", -1, now=NOW).follow_ups == (
        FollowUp("death", "B419", at=-75),
    )


def test_already_dead_owes_nothing() -> None:
    change = change_pool(character(hp=15, hp_current=-75), "hp", -100, now=NOW)
    assert change.after.state == "destroyed"
    assert change.crossed == (Threshold("destroyed", None, -150),)
    assert change.follow_ups == ()


def test_clamped_at_minus_ten_times_hp() -> None:
    change = change_pool(character(hp=15, hp_current=10), "hp", -1000, now=NOW)
    assert (change.taken, change.clamped) == (-160, True)
    assert change.after == PoolState("destroyed", None, -150, 15)
    assert [t.state for t in change.crossed][-2:] == ["dead", "destroyed"]
    assert [f.kind for f in change.follow_ups] == ["death"]
    assert change.document["secondary"]["hp"]["current"] == -150


def test_consciousness_check_not_owed_while_unconscious_from_fatigue() -> None:
    change = change_pool(character(hp=15, hp_current=3, fp=12, fp_current=-12), "hp", -20, now=NOW)
    assert [f.kind for f in change.follow_ups] == ["deathCheck"]


def test_hp_change_without_an_fp_pool() -> None:
    document = character(hp=15)
    del document["secondary"]["fp"]
    change = change_pool(document, "hp", -15, now=NOW)
    assert [f.kind for f in change.follow_ups] == ["consciousnessCheck"]


# ---------------------------------------------------------------- change_pool: healing


def test_healing_back_up_owes_nothing() -> None:
    change = change_pool(character(hp=15, hp_current=-31), "hp", 46, now=NOW)
    assert change.after == PoolState("healthy", None, 15, 15)
    assert [(t.state, t.n) for t in change.crossed] == [
        ("dying", 2),
        ("dying", 1),
        ("collapse", None),
        ("reeling", None),
        ("wounded", None),
    ]
    assert change.follow_ups == ()
    assert (change.taken, change.clamped) == (46, False)


def test_healing_clamped_at_max() -> None:
    change = change_pool(character(hp=15, hp_current=12), "hp", 10, now=NOW)
    assert (change.requested, change.taken, change.clamped) == (10, 3, True)
    assert change.document["secondary"]["hp"]["current"] == 15


def test_rest_owes_nothing() -> None:
    change = change_pool(character(fp=12, fp_current=-12), "fp", 30, now=NOW, spill_to_hp=True)
    assert change.after == PoolState("rested", None, 12, 12)
    assert [t.state for t in change.crossed] == ["unconscious", "collapse", "tired", "tiring"]
    assert change.follow_ups == ()
    assert change.spill is None


def test_zero_change() -> None:
    document = character(hp=15, hp_current=7)
    change = change_pool(document, "hp", 0, now=NOW)
    assert (change.taken, change.clamped, change.crossed, change.follow_ups) == (0, False, (), ())
    assert change.document == apply_damage(document, 0, now=NOW)


# ---------------------------------------------------------------- change_pool: fatigue


@pytest.mark.parametrize(
    ("start", "delta", "injury"),
    [(1, -1, 0), (0, -1, 1), (3, -5, 2), (12, -12, 0), (12, -13, 1), (-5, -2, 2), (-12, -4, 4), (-11, -3, 3)],
)
def test_fatigue_below_zero_costs_hp(start: int, delta: int, injury: int) -> None:
    change = change_pool(character(fp=12, fp_current=start), "fp", delta, now=NOW)
    owed = [f for f in change.follow_ups if f.kind == "fatigueInjury"]
    if injury:
        assert owed == [FollowUp("fatigueInjury", "B426", amount=injury, applied=False)]
    else:
        assert owed == []
    assert "current" not in change.document["secondary"]["hp"]  # not applied


def test_fatigue_clamped_at_minus_fp_and_unconscious() -> None:
    change = change_pool(character(fp=12, fp_current=2), "fp", -20, now=NOW)
    assert (change.taken, change.clamped) == (-14, True)
    assert change.after == PoolState("unconscious", None, -12, 12)
    assert [f.to_dict() for f in change.follow_ups] == [
        {"kind": "unconsciousness", "at": -12, "reference": "B426"},
        {"kind": "fatigueInjury", "amount": 18, "applied": False, "reference": "B426"},
    ]
    assert change.spill is None
    assert "current" not in change.document["secondary"]["hp"]


def test_fp_thirteen_thresholds() -> None:
    change = change_pool(JOTUN, "fp", -26, now=NOW)
    assert [(t.state, t.at) for t in change.crossed] == [
        ("tiring", 12),
        ("tired", 4),
        ("collapse", 0),
        ("unconscious", -13),
    ]


def test_spill_to_hp() -> None:
    document = character(hp=15, hp_current=3, fp=12, fp_current=2)
    change = change_pool(document, "fp", -20, now=NOW, spill_to_hp=True)
    assert change.document["secondary"]["fp"]["current"] == -12
    assert change.document["secondary"]["hp"]["current"] == -15
    assert [f.kind for f in change.follow_ups] == ["unconsciousness", "fatigueInjury", "deathCheck"]
    assert change.follow_ups[1].applied is True
    spill = change.spill
    assert spill is not None
    assert spill.document is change.document
    assert spill.to_dict() == {
        "pool": "hp",
        "requested": -18,
        "taken": -18,
        "clamped": False,
        "before": {"state": "reeling", "current": 3, "max": 15},
        "after": {"state": "dying", "n": 1, "current": -15, "max": 15},
        "crossed": [{"state": "collapse", "at": 0}, {"state": "dying", "n": 1, "at": -15}],
        "followUps": [
            {
                "kind": "deathCheck",
                "attribute": "ht",
                "modifier": 0,
                "when": "immediately",
                "n": 1,
                "at": -15,
                "reference": "B419",
            }
        ],
    }
    assert change.to_dict()["spill"] == spill.to_dict()
    # the same as spending the FP and then taking the injury, in one write
    expected = apply_damage(spend_fatigue(document, 20, now=NOW), 18, now=NOW)
    assert change.document == expected


def test_spill_while_conscious_owes_the_consciousness_check() -> None:
    change = change_pool(
        character(hp=15, hp_current=2, fp=12, fp_current=0), "fp", -3, now=NOW, spill_to_hp=True
    )
    assert [f.kind for f in change.follow_ups] == ["fatigueInjury", "consciousnessCheck"]
    assert change.document["secondary"]["hp"]["current"] == -1


def test_spill_clamped_at_minus_ten_times_hp() -> None:
    change = change_pool(
        character(hp=2, hp_current=-19, fp=12, fp_current=-12), "fp", -5, now=NOW, spill_to_hp=True
    )
    assert change.spill is not None
    assert (change.spill.requested, change.spill.taken, change.spill.clamped) == (-5, -1, True)
    assert change.document["secondary"]["hp"]["current"] == -20


def test_spill_is_all_or_nothing() -> None:
    document = character(fp=12, fp_current=1)
    del document["secondary"]["hp"]
    before = copy.deepcopy(document)
    with pytest.raises(CharacterError) as caught:
        change_pool(document, "fp", -3, now=NOW, spill_to_hp=True)
    assert caught.value.code == "invalidDocument"
    assert caught.value.details == {"pointer": "/secondary/hp/value"}
    assert document == before
    # the HP part that would fail is the only thing in the way: without it, the FP change works
    assert change_pool(document, "fp", -3, now=NOW).document["secondary"]["fp"]["current"] == -2


def test_spill_is_all_or_nothing_out_of_bounds() -> None:
    document = character(hp=-1, fp=12, fp_current=0)
    with pytest.raises(CharacterError) as caught:
        change_pool(document, "fp", -2, now=NOW, spill_to_hp=True)
    assert caught.value.code == "outOfBounds"
    assert caught.value.details["pointer"] == "/secondary/hp/current"


def test_spill_without_injury_leaves_hp_alone() -> None:
    document = character(fp=12, fp_current=10)
    del document["secondary"]["hp"]
    change = change_pool(document, "fp", -3, now=NOW, spill_to_hp=True)
    assert change.spill is None and change.follow_ups == ()


def test_spill_is_ignored_for_hp() -> None:
    change = change_pool(character(hp=15), "hp", -3, now=NOW, spill_to_hp=True)
    assert change.spill is None
    assert change.document == apply_damage(character(hp=15), 3, now=NOW)


# ---------------------------------------------------------------- parity, immutability, types


@pytest.mark.parametrize(
    ("pool", "delta", "helper"),
    [("hp", -7, apply_damage), ("hp", 4, heal), ("fp", -30, spend_fatigue), ("fp", 5, recover_fatigue)],
)
def test_same_document_as_the_helpers(pool: str, delta: int, helper: Any) -> None:
    document = character(hp=15, hp_current=6, fp=12, fp_current=4)
    assert change_pool(document, pool, delta, now=NOW).document == helper(document, abs(delta), now=NOW)  # type: ignore[arg-type]


def test_input_never_modified_and_nothing_shared() -> None:
    document = character(hp=15, hp_current=6, fp=12, fp_current=1)
    frozen = copy.deepcopy(document)
    change = change_pool(document, "fp", -5, now=NOW, spill_to_hp=True)
    get_condition(document)
    assert document == frozen
    change.document["secondary"]["hp"]["value"] = 99
    change.document["encumbrance"]["levels"].clear()
    assert document == frozen


def test_results_are_frozen() -> None:
    change = change_pool(character(), "hp", -1, now=NOW)
    condition = get_condition(character())
    for value in (change, change.after, condition, condition.effects, condition.hp):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, dataclasses.fields(value)[0].name, None)
        assert not hasattr(value, "__dict__")
    levels = character()["encumbrance"]["levels"]
    assert condition.move == tuple(level["move"] for level in levels)  # a tuple: read-only
    assert change.crossed == (Threshold("wounded", None, 14),)
    assert "document" not in repr(change)
    assert hash(change) == hash(change_pool(character(), "hp", -1, now=NOW))  # by value, document aside


def test_integral_floats_count_as_integers() -> None:
    document = character(hp=15, hp_current=15)
    document["secondary"]["hp"]["current"] = 4.0
    assert get_condition(document).hp == PoolState("reeling", None, 4, 15)
    change = change_pool(document, "hp", -2.0, now=NOW)  # type: ignore[arg-type]
    assert change.after.current == 2 and type(change.document["secondary"]["hp"]["current"]) is int


def test_other_time_zones_and_default_now() -> None:
    zone = timezone(timedelta(hours=-3))
    change = change_pool(character(), "hp", -1, now=datetime(2026, 10, 5, 7, 0, tzinfo=zone))
    assert change.document["meta"]["updatedAt"] == STAMP
    assert change_pool(character(), "hp", -1).document["meta"]["updatedAt"].endswith("Z")


# ---------------------------------------------------------------- errors


@pytest.mark.parametrize("document", [None, [], "text", 3, ()])
def test_not_an_object(document: Any) -> None:
    for call in (lambda: get_condition(document), lambda: change_pool(document, "hp", -1, now=NOW)):
        with pytest.raises(CharacterError) as caught:
            call()
        assert caught.value.code == "notAnObject"


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda d: d.pop("secondary"), "/secondary/hp/value"),
        (lambda d: d["secondary"].pop("fp"), "/secondary/fp/value"),
        (lambda d: d["secondary"]["hp"].update(value=True), "/secondary/hp/value"),
        (lambda d: d["secondary"]["hp"].update(value=14.5), "/secondary/hp/value"),
        (lambda d: d["secondary"]["fp"].update(current=math.nan), "/secondary/fp/current"),
        (lambda d: d["secondary"]["fp"].update(value=math.inf), "/secondary/fp/value"),
        (lambda d: d["attributes"].pop("st"), "/attributes/st/value"),
        (lambda d: d.pop("encumbrance"), "/encumbrance/levels"),
        (lambda d: d["encumbrance"].update(levels=[]), "/encumbrance/levels"),
        (lambda d: d["encumbrance"]["levels"].__setitem__(2, "x"), "/encumbrance/levels/2/move"),
        (lambda d: d["encumbrance"]["levels"][3].update(dodge=None), "/encumbrance/levels/3/dodge"),
    ],
)
def test_invalid_document(mutate: Any, pointer: str) -> None:
    document = character()
    mutate(document)
    with pytest.raises(CharacterError) as caught:
        get_condition(document)
    assert caught.value.code == "invalidDocument"
    assert caught.value.details == {"pointer": pointer}


def test_change_needs_only_the_pool() -> None:
    document = character(hp=15)
    del document["encumbrance"], document["attributes"]
    assert change_pool(document, "hp", -3, now=NOW).after.current == 12
    with pytest.raises(CharacterError) as caught:
        change_pool({"secondary": {}}, "fp", -1, now=NOW)
    assert caught.value.code == "invalidDocument"


def test_an_absent_current_means_full() -> None:
    document = character(hp=15)
    document["secondary"]["hp"].pop("current", None)
    assert get_condition(document).hp.current == 15


@pytest.mark.parametrize(
    "current", ["lots", "0", True, None, 4.5, [4], math.nan, 10**400], ids=lambda value: str(value)[:10]
)
def test_a_malformed_current_is_refused(current: Any) -> None:
    # it was read as full HP, and apply_damage then wrote a value computed from the maximum
    document = character(hp=15)
    document["secondary"]["hp"]["current"] = current
    for call in (
        lambda: get_condition(document),
        lambda: change_pool(document, "hp", -3, now=NOW),
        lambda: gc.apply_damage(document, 3, now=NOW),
        lambda: gc.get_pool(document, "hp"),
    ):
        with pytest.raises(CharacterError) as caught:
            call()
        assert (caught.value.code, caught.value.details) == (
            "invalidDocument",
            {"pointer": "/secondary/hp/current"},
        )


@pytest.mark.parametrize("pool", ["mp", "HP", "", None, 1])
def test_bad_pool_name(pool: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        change_pool(character(), pool, -1, now=NOW)
    assert caught.value.code == "invalidArgument"
    assert caught.value.details["name"] == "pool"


@pytest.mark.parametrize("delta", [True, False, 1.5, -0.5, "3", None, math.nan, math.inf, [1], object()])
def test_bad_delta(delta: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        change_pool(character(), "hp", delta, now=NOW)
    assert caught.value.code == "invalidAmount"
    assert "amount" in caught.value.details
    json.dumps(caught.value.details)


def test_naive_now_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        change_pool(character(), "hp", -1, now=datetime(2026, 10, 5, 10, 0))
    with pytest.raises(TypeError):
        change_pool(None, "hp", True, now=datetime(2026, 10, 5, 10, 0))  # type: ignore[arg-type]


def test_public_names() -> None:
    import gurps_character

    for name in ("Condition", "PoolChange", "change_pool", "get_condition"):
        assert name in gurps_character.__all__
        assert getattr(gurps_character, name) is globals()[name]


# ---------------------------------------------------------------- properties

maxima = st.integers(min_value=1, max_value=60)


@st.composite
def pools(draw: st.DrawFn, pool: str) -> tuple[int, int]:
    maximum = draw(maxima)
    low = -10 * maximum if pool == "hp" else -maximum
    return maximum, draw(st.integers(min_value=low, max_value=maximum))


@settings(max_examples=300, deadline=None)
@given(pool=st.sampled_from(["hp", "fp"]), data=st.data(), delta=st.integers(min_value=-1000, max_value=1000))
def test_change_properties(pool: str, data: st.DataObject, delta: int) -> None:
    maximum, current = data.draw(pools(pool))
    other = 12 if pool == "hp" else 15
    document = character(
        **{pool: maximum, f"{pool}_current": current, ("fp" if pool == "hp" else "hp"): other}
    )
    frozen = copy.deepcopy(document)
    change = change_pool(document, pool, delta, now=NOW)  # type: ignore[arg-type]
    assert document == frozen
    order = HP_ORDER if pool == "hp" else FP_ORDER
    low = -10 * maximum if pool == "hp" else -maximum

    assert change.taken == change.after.current - change.before.current
    assert change.clamped == (change.taken != delta)
    assert change.after.current == min(maximum, max(low, current + delta))
    assert change.document["secondary"][pool]["current"] == change.after.current
    condition = get_condition(change.document)
    assert (condition.hp if pool == "hp" else condition.fp) == change.after

    # crossings lead from the state before to the state after
    if change.crossed:
        last = change.crossed[-1]
        if delta < 0:
            assert (last.state, last.n) == (change.after.state, change.after.n)
        assert all((t.at < change.before.current) == (delta < 0) for t in change.crossed)
    else:
        assert (change.before.state, change.before.n) == (change.after.state, change.after.n)
    if delta >= 0:
        assert change.follow_ups == ()
        assert severity(change.after, order) <= severity(change.before, order)
    else:
        assert severity(change.after, order) >= severity(change.before, order)

    if pool == "fp":
        injury = max(0, min(current, 0) - (current + delta)) if delta < 0 else 0
        owed = [f.amount for f in change.follow_ups if f.kind == "fatigueInjury"]
        assert owed == ([injury] if injury else [])
    elif change.after.state not in ("dead", "destroyed"):
        multiples = [n for n in range(1, 5) if change.after.current <= -n * maximum < current]
        assert [f.n for f in change.follow_ups if f.kind == "deathCheck"] == multiples


@settings(max_examples=200, deadline=None)
@given(pool=st.sampled_from(["hp", "fp"]), maximum=st.integers(min_value=-3, max_value=40), data=st.data())
def test_states_are_monotone_in_current(pool: str, maximum: int, data: st.DataObject) -> None:
    current = data.draw(st.integers(min_value=-12 * max(maximum, 1), max_value=max(maximum, 1) + 2))
    order = HP_ORDER if pool == "hp" else FP_ORDER

    def state(value: int) -> PoolState:
        condition = get_condition(character(**{pool: maximum, f"{pool}_current": value}))
        return condition.hp if pool == "hp" else condition.fp

    here, above = state(current), state(current + 1)
    assert severity(here, order) >= severity(above, order)
    if maximum >= 1:
        # the rule, stated directly
        assert (here.state in order[2:]) == (3 * current < maximum)
        assert (here.state in order[3:]) == (current <= 0)
        assert (here.state == order[1]) == (maximum > current and 3 * current >= maximum)
        if pool == "hp":
            assert here.n == (min(4, -current // maximum) if -5 * maximum < current <= -maximum else None)
            assert (here.state in ("dead", "destroyed")) == (current <= -5 * maximum)
            assert (here.state == "destroyed") == (current <= -10 * maximum)
        else:
            assert (here.state == "unconscious") == (current <= -maximum)


@settings(max_examples=100, deadline=None)
@given(
    fp_current=st.integers(min_value=-12, max_value=12),
    hp_current=st.integers(min_value=-150, max_value=15),
    spent=st.integers(min_value=0, max_value=60),
)
def test_spill_equals_spend_then_damage(fp_current: int, hp_current: int, spent: int) -> None:
    document = character(hp=15, hp_current=hp_current, fp=12, fp_current=fp_current)
    change = change_pool(document, "fp", -spent, now=NOW, spill_to_hp=True)
    injury = max(0, min(fp_current, 0) + spent - fp_current) if spent else 0
    expected = spend_fatigue(document, spent, now=NOW)
    if injury:
        expected = apply_damage(expected, injury, now=NOW)
        assert change.spill is not None and change.spill.requested == -injury
    else:
        assert change.spill is None
    assert change.document == expected


def test_a_fresh_character_is_healthy_and_rested() -> None:
    document = character()
    levels = document["encumbrance"]["levels"]
    assert get_condition(document) == Condition(
        hp=PoolState("healthy", None, 15, 15),
        fp=PoolState("rested", None, 12, 12),
        effects=ConditionEffects(halve_move=False, halve_dodge=False, halve_st=False),
        move=tuple(level["move"] for level in levels),
        dodge=tuple(level["dodge"] for level in levels),
        st=document["attributes"]["st"]["value"],
        rolls=(),
    )
    change = change_pool(document, "hp", -1, now=NOW)
    assert (type(change), change.before.state, change.after.state, change.follow_ups) == (
        PoolChange,
        "healthy",
        "wounded",
        (),
    )
