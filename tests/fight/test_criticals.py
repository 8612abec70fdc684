"""The critical tables of B556-B557, row by row: every 3d roll (3-18) of each of the four tables
gives the row the book prints, as the fields a fight layer applies; ``to_dict`` keeps only what
a row says; the head locations roll on the Critical Head Blow Table."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gurps_character import CharacterError, critical_effect, critical_table_for

# (effect id, the fields that differ from the defaults) for each roll, as B556 prints them.
HIT: dict[int, tuple[str, dict[str, Any]]] = {
    3: ("triple_damage", {"damageMultiplier": 3}),
    4: ("half_dr", {"dr": "half_down"}),
    5: ("double_damage", {"damageMultiplier": 2}),
    6: ("maximum_damage", {"maximumDamage": True}),
    7: ("major_wound", {"majorWound": True}),
    8: ("double_shock", {"doubleShock": True, "cripplesLimb": True}),
    9: ("normal_damage", {}),
    10: ("normal_damage", {}),
    11: ("normal_damage", {}),
    12: ("drops_everything", {"drops": "everything"}),
    13: ("major_wound", {"majorWound": True}),
    14: ("major_wound", {"majorWound": True}),
    15: ("maximum_damage", {"maximumDamage": True}),
    16: ("double_damage", {"damageMultiplier": 2}),
    17: ("half_dr", {"dr": "half_down"}),
    18: ("triple_damage", {"damageMultiplier": 3}),
}
HEAD: dict[int, tuple[str, dict[str, Any]]] = {
    3: ("maximum_damage_no_dr", {"maximumDamage": True, "dr": "ignored"}),
    4: ("half_dr_major_wound", {"dr": "half_up", "majorWound": True}),
    5: ("half_dr_major_wound", {"dr": "half_up", "majorWound": True}),
    6: ("eye_hit", {"eyeHit": True}),
    7: ("eye_hit", {"eyeHit": True}),
    8: ("off_balance", {"doNothingNext": True}),
    9: ("normal_damage", {}),
    10: ("normal_damage", {}),
    11: ("normal_damage", {}),
    12: ("deafened_or_scarred", {"deafenedOrScarred": True}),
    13: ("deafened_or_scarred", {"deafenedOrScarred": True}),
    14: ("drops_weapon", {"drops": "weapon"}),
    15: ("maximum_damage", {"maximumDamage": True}),
    16: ("double_damage", {"damageMultiplier": 2}),
    17: ("half_dr", {"dr": "half_up"}),
    18: ("triple_damage", {"damageMultiplier": 3}),
}
BALANCE: dict[str, Any] = {"endsTurn": True, "defensePenalty": -2}
BREAKS: dict[str, Any] = {"weaponBreaks": True, "reroll": "resistant_weapon"}
# A swung melee attack's critical miss (the default: ranged False, swung True).
MISS: dict[int, tuple[str, dict[str, Any]]] = {
    3: ("weapon_breaks", BREAKS),
    4: ("weapon_breaks", BREAKS),
    5: ("hits_self", {"hitsSelf": "full", "reroll": "impaling_or_ranged"}),
    6: ("hits_self", {"hitsSelf": "half", "reroll": "impaling_or_ranged"}),
    7: ("lose_balance", BALANCE),
    8: ("weapon_turns", {"weaponUnready": True}),
    9: ("drops_weapon", {"drops": "weapon"}),
    10: ("drops_weapon", {"drops": "weapon"}),
    11: ("drops_weapon", {"drops": "weapon"}),
    12: ("weapon_turns", {"weaponUnready": True}),
    13: ("lose_balance", BALANCE),
    14: ("weapon_flies", {"drops": "weapon"}),
    15: ("strained_shoulder", {"ownLimbCrippled": True}),
    16: ("falls", {"falls": True}),
    17: ("weapon_breaks", BREAKS),
    18: ("weapon_breaks", BREAKS),
}
UNARMED: dict[int, tuple[str, dict[str, Any]]] = {
    3: ("knocked_out", {"unconscious": True}),
    4: ("strained_limb", {"ownLimbCrippled": True, "selfInjury": "1"}),
    5: ("hits_solid_object", {"selfInjury": "thr cr"}),
    6: ("hits_solid_object_half", {"selfInjury": "half_thrust"}),
    7: ("stumbles", {"stumbles": True}),
    8: ("falls", {"falls": True}),
    9: ("lose_balance", BALANCE),
    10: ("lose_balance", BALANCE),
    11: ("lose_balance", BALANCE),
    12: ("trips", {"keepFeetRoll": True}),
    13: ("drops_guard", {"defensePenalty": -2}),
    14: ("stumbles", {"stumbles": True}),
    15: ("torn_muscle", {"selfInjury": "1d-3", "defensePenalty": -1, "attackPenalty": -1}),
    16: ("hits_solid_object", {"selfInjury": "thr cr"}),
    17: ("strained_limb", {"ownLimbCrippled": True, "selfInjury": "1"}),
    18: ("knocked_out", {"unconscious": True}),
}
TABLES: dict[str, tuple[str, bool, dict[int, tuple[str, dict[str, Any]]]]] = {
    "critical_hit": ("B556", True, HIT),
    "critical_head_blow": ("B556", True, HEAD),
    "critical_miss": ("B556", False, MISS),
    "unarmed_critical_miss": ("B557", False, UNARMED),
}
ROWS = [(table, roll) for table, (_, _, rows) in TABLES.items() for roll in rows]


@pytest.mark.parametrize(("table", "roll"), ROWS)
def test_every_row_of_every_table_is_the_books(table: str, roll: int) -> None:
    page, no_defense, rows = TABLES[table]
    effect, said = rows[roll]
    expected = {"table": table, "roll": roll, "effect": effect, "page": page, **said}
    if no_defense:
        expected["noDefense"] = True
    got = critical_effect(table, roll)  # type: ignore[arg-type]
    assert got.to_dict() == expected
    assert got.effect == effect


def test_every_table_covers_each_3d_result() -> None:
    for _, _, rows in TABLES.values():
        assert sorted(rows) == list(range(3, 19))


@pytest.mark.parametrize(
    ("roll", "ranged", "swung", "effect"),
    [
        (16, True, False, "lose_balance"),  # a ranged weapon loses its balance, not a fall
        (16, False, False, "falls"),  # a thrust still falls
        (14, False, False, "drops_weapon"),  # only a swung weapon flies
        (14, True, False, "drops_weapon"),
        (7, True, False, "lose_balance"),
        (3, True, False, "weapon_breaks"),
    ],
)
def test_critical_miss_rows_that_depend_on_the_attack(
    roll: int, ranged: bool, swung: bool, effect: str
) -> None:
    got = critical_effect("critical_miss", roll, ranged=ranged, swung=swung)
    assert got.effect == effect
    if effect == "lose_balance":
        assert (got.ends_turn, got.defense_penalty) == (True, -2)


def test_a_rolled_effect_is_the_row_of_its_roll() -> None:
    for seed in range(20):
        got = critical_effect("critical_hit", rng=random.Random(seed))
        assert 3 <= got.roll <= 18
        assert got.effect == HIT[got.roll][0]


@pytest.mark.parametrize(
    ("location", "table"),
    [
        ("skull", "critical_head_blow"),
        ("face", "critical_head_blow"),
        ("eye", "critical_head_blow"),
        ("torso", "critical_hit"),
        ("vitals", "critical_hit"),
        ("left arm", "critical_hit"),
        ("nowhere", "critical_hit"),
        (7, "critical_hit"),
    ],
)
def test_head_locations_roll_on_the_head_blow_table(location: Any, table: str) -> None:
    assert critical_table_for(location) == table


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (
            ("critical_fumble", 10),
            {},
            "table must be one of 'critical_hit', 'critical_head_blow', 'critical_miss', "
            "'unarmed_critical_miss', not 'critical_fumble'.",
        ),
        (("critical_hit", 2), {}, "roll must be a whole number from 3 to 18, not 2."),
        (("critical_hit", 19), {}, "roll must be a whole number from 3 to 18, not 19."),
        (("critical_hit", 10.5), {}, "roll must be a whole number from 3 to 18, not 10.5."),
        (("critical_miss", 10), {"ranged": "yes"}, "ranged must be True or False, not 'yes'."),
        (("critical_miss", 10), {"swung": 1}, "swung must be True or False, not 1."),
    ],
)
def test_bad_arguments_are_refused(args: tuple[Any, ...], kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(CharacterError) as caught:
        critical_effect(*args, **kwargs)
    assert caught.value.code == "invalidArgument"
    assert str(caught.value) == message
