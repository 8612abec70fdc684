"""GCS's rules, applied by the importer to files saved without GCS's computed values (``calc``):
damage progressions, Basic Lift, Move and Dodge with pool thresholds, skill bonuses, parry."""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import SCHEMA, import_gcs, validate_character, verify_character
from gurps_character.gcs.format.progression import basic_lift_pounds, progression_of, swing, thrust
from gurps_character.gcs.format.units import dice
from gurps_character.gcs.importing.trait_costs import modifier_cost

NOW = datetime(2026, 12, 1, tzinfo=UTC)


# ---------------------------------------------------------------- damage progressions

# (progression, ST, thrust, swing) as GCS saved them in real character files
SAVED_BY_GCS = [
    ("basic_set", 0, (1, -6), (1, -5)),
    ("basic_set", 2, (1, -6), (1, -5)),
    ("basic_set", 7, (1, -3), (1, -2)),
    ("basic_set", 10, (1, -2), (1, 0)),
    ("basic_set", 18, (1, 2), (3, 0)),
    ("basic_set", 20, (2, -1), (3, 2)),
    ("basic_set", 25, (2, 2), (5, -1)),
    ("basic_set", 30, (3, 0), (5, 2)),
    ("basic_set", 45, (5, 0), (7, 1)),
    ("basic_set", 60, (7, -1), (9, 0)),
    ("no_school_grognard_damage", 5, (1, -4), (1, -3)),
    ("no_school_grognard_damage", 12, (1, -1), (1, 1)),
    ("no_school_grognard_damage", 13, (1, 0), (1, 1)),
    ("no_school_grognard_damage", 16, (1, 1), (2, -1)),
    ("knowing_your_own_strength", 3, (1, -9), (1, -7)),
]


@pytest.mark.parametrize(("progression", "strength", "thrust_dice", "swing_dice"), SAVED_BY_GCS)
def test_progressions_give_what_gcs_saved(
    progression: str, strength: int, thrust_dice: tuple[int, int], swing_dice: tuple[int, int]
) -> None:
    assert thrust(strength, progression) == thrust_dice
    assert swing(strength, progression) == swing_dice


def _table(key: str, strength: int) -> tuple[int, int] | None:
    found = None
    for threshold, notation in SCHEMA["x-gurps-tables"][key]["entries"]:
        if strength >= threshold:
            found = dice(notation)
    return found


@given(st.integers(min_value=1, max_value=40))
@settings(max_examples=40)
def test_basic_set_is_the_b16_table_up_to_st_40(strength: int) -> None:
    assert thrust(strength, "basic_set") == _table("thrust", strength)
    assert swing(strength, "basic_set") == _table("swing", strength)


@given(st.integers(min_value=0, max_value=300))
@settings(max_examples=60)
def test_the_two_plus_minus_2_progressions_shift_one_column(strength: int) -> None:
    thrust_count, thrust_adds = thrust(strength, "basic_set") or (0, 0)
    swing_count, swing_adds = swing(strength, "basic_set") or (0, 0)
    assert thrust(strength, "thrust_equals_swing_minus_2") == (swing_count, swing_adds - 2)
    assert swing(strength, "thrust_equals_swing_minus_2") == (swing_count, swing_adds)
    assert swing(strength, "swing_equals_thrust_plus_2") == (thrust_count, thrust_adds + 2)


@given(st.integers(min_value=0, max_value=1000))
@settings(max_examples=60)
def test_damage_never_falls_as_st_rises(strength: int) -> None:
    for progression in ("basic_set", "knowing_your_own_strength", "no_school_grognard_damage"):
        for rule in (thrust, swing):
            low, high = rule(strength, progression), rule(strength + 1, progression)
            assert low is not None and high is not None
            assert high[0] * 3.5 + high[1] >= low[0] * 3.5 + low[1]


def test_progressions_gcs_has_but_the_importer_does_not_compute() -> None:
    assert thrust(12, "tbone_1") is None and swing(12, "phoenix_flame_d3") is None


@pytest.mark.parametrize(
    ("settings_block", "progression"),
    [
        ({}, "basic_set"),
        ({"damage_progression": "tbone_2"}, "tbone_2"),
        ({"use_know_your_own_strength": True}, "knowing_your_own_strength"),
        ({"use_reduced_swing": True}, "no_school_grognard_damage"),
        ({"use_thrust_equals_swing_minus_2": True}, "thrust_equals_swing_minus_2"),
    ],
)
def test_the_progression_of_old_and_new_settings(settings_block: dict[str, Any], progression: str) -> None:
    assert progression_of(settings_block) == progression


@pytest.mark.parametrize(
    ("strength", "progression", "pounds"),
    [
        (0, "basic_set", 0),
        (2, "basic_set", 0.8),
        (7, "basic_set", 9.8),
        (12, "basic_set", 29),
        (60, "basic_set", 720),
        (3, "knowing_your_own_strength", 4),
        (10, "knowing_your_own_strength", 20),
        (30, "knowing_your_own_strength", 2000),
    ],
)
def test_basic_lift_in_pounds(strength: int, progression: str, pounds: float) -> None:
    assert basic_lift_pounds(strength, progression) == pounds


# ---------------------------------------------------------------- a file without calc


def _attribute(ident: str, kind: str, base: str, cost: float, **extra: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "type": kind,
        "name": ident.upper(),
        "attribute_base": base,
        "cost_per_point": cost,
        **extra,
    }


def _uncomputed(**changes: Any) -> dict[str, Any]:
    """A version 5 character as an old GCS or a script would save it: no calc anywhere."""
    data: dict[str, Any] = {
        "version": 5,
        "total_points": 100,
        "profile": {"name": "Brann"},
        "settings": {
            "damage_progression": "basic_set",
            "attributes": [
                _attribute("st", "integer", "10", 10),
                _attribute("dx", "integer", "10", 20),
                _attribute("iq", "integer", "10", 20),
                _attribute("ht", "integer", "10", 10),
                _attribute("will", "integer", "$iq", 5),
                _attribute("per", "integer", "$iq", 5),
                _attribute("basic_speed", "decimal", "($dx+$ht)/4", 20),
                _attribute("basic_move", "integer", "floor($basic_speed)", 5),
                _attribute(
                    "fp",
                    "pool",
                    "$ht",
                    3,
                    thresholds=[
                        {
                            "state": "Collapse",
                            "expression": "0",
                            "ops": ["halve_move", "halve_dodge", "halve_st"],
                        },
                        {
                            "state": "Tired",
                            "expression": "round($fp/3)",
                            "ops": ["halve_move", "halve_dodge", "halve_st"],
                        },
                    ],
                ),
                _attribute("hp", "pool", "$st", 2),
            ],
        },
        "attributes": [
            {"attr_id": "st", "adj": 3},
            {"attr_id": "dx", "adj": 2},
            {"attr_id": "ht", "adj": 1},
        ],
        "traits": [
            {
                "id": "t1",
                "name": "Combat Reflexes",
                "base_points": 15,
                "features": [
                    {"type": "attribute_bonus", "attribute": "dodge", "amount": 1},
                    {"type": "attribute_bonus", "attribute": "parry", "amount": 1},
                ],
            },
            {
                "id": "t2",
                "name": "Weapon Talent",
                "base_points": 10,
                "features": [
                    {
                        "type": "skill_bonus",
                        "selection_type": "skills_with_name",
                        "name": {"compare": "is", "qualifier": "Broadsword"},
                        "amount": 2,
                    },
                ],
            },
        ],
        "skills": [
            {"id": "s1", "name": "Broadsword", "difficulty": "dx/a", "points": 4},
        ],
        "equipment": [
            {
                "id": "e1",
                "description": "Broadsword",
                "quantity": 1,
                "equipped": True,
                "value": 500,
                "weight": "3 lb",
                "weapons": [
                    {
                        "id": "w1",
                        "damage": {"type": "cut", "st": "sw", "base": "1"},
                        "usage": "Swung",
                        "parry": "0F",
                        "defaults": [{"type": "dx", "modifier": -5}, {"type": "skill", "name": "Broadsword"}],
                    }
                ],
            }
        ],
    }
    data.update(changes)
    return data


def _document(data: dict[str, Any]) -> dict[str, Any]:
    document = import_gcs(data, now=NOW).document
    assert validate_character(document).valid
    assert verify_character(document).claim_consistent
    return document


def test_without_calc_the_damage_follows_the_file_s_progression() -> None:
    data = _uncomputed()
    assert _document(data)["damage"]["swing"]["notation"] == "2d-1"  # ST 13, Basic Set
    data["settings"]["damage_progression"] = "no_school_grognard_damage"
    document = _document(data)
    assert (document["damage"]["thrust"]["notation"], document["damage"]["swing"]["notation"]) == (
        "1d",
        "1d+1",
    )
    deviation = next(d for d in document["integrity"]["deviations"] if d["pointer"] == "/damage/swing")
    assert "no_school_grognard_damage" in deviation["justification"]


def test_without_calc_striking_st_comes_from_its_attribute_or_bonuses() -> None:
    data = _uncomputed()
    data["traits"][0]["features"].append(
        {"type": "attribute_bonus", "attribute": "st", "limitation": "striking_only", "amount": 7}
    )
    assert _document(data)["damage"]["thrust"]["notation"] == "2d-1"  # ST 13 + 7 = 20
    data["settings"]["attributes"].append(_attribute("striking_st", "integer", "$st", 5))
    data["attributes"].append({"attr_id": "striking_st", "adj": 2})
    assert _document(data)["damage"]["thrust"]["notation"] == "2d"  # 15 + 7 = 22


def test_without_calc_an_unknown_progression_falls_back_with_a_note() -> None:
    data = _uncomputed()
    data["settings"]["damage_progression"] = "tbone_1"
    result = import_gcs(data, now=NOW)
    assert result.document["damage"]["thrust"]["notation"] == "1d"
    assert any(n.source == "/settings/damage_progression" and n.kind == "approximated" for n in result.notes)


def test_without_calc_move_and_dodge_follow_gcs_rules() -> None:
    document = _document(_uncomputed())
    levels = document["encumbrance"]["levels"]
    # Basic Speed (12 + 11) / 4 = 5.75: Move 5; Dodge 5.75 + 3 + 1 (Combat Reflexes) = 9.75 → 9
    assert [level["move"] for level in levels] == [5, 4, 3, 2, 1]
    assert [level["dodge"] for level in levels] == [9, 8, 7, 6, 5]
    assert document["defenses"]["dodge"]["value"] == 9


def test_without_calc_a_pool_threshold_halves_move_dodge_and_lift() -> None:
    data = _uncomputed()
    data["attributes"].append({"attr_id": "fp", "adj": 0, "damage": 8})  # FP 3 of 11: Tired
    document = _document(data)
    levels = document["encumbrance"]["levels"]
    assert [level["move"] for level in levels] == [3, 2, 1, 1, 1]  # ⌈5 / 2⌉ = 3, at least 1
    assert [level["dodge"] for level in levels] == [5, 4, 3, 2, 1]  # ⌈9.75 / 2⌉ = 5
    assert document["encumbrance"]["basicLift"] == 4.9  # lifting ST ⌈13 / 2⌉ = 7: 49 / 5 = 9.8 lb
    deviation = next(
        d for d in document["integrity"]["deviations"] if d["pointer"] == "/encumbrance/levels/0/move"
    )
    assert "Tired" in deviation["justification"]


def test_without_calc_move_and_dodge_attributes_replace_the_derived_ones() -> None:
    data = _uncomputed()
    data["settings"]["attributes"] += [
        _attribute("move", "integer", "8", 5),
        _attribute("dodge", "integer", "12", 15),
    ]
    levels = _document(data)["encumbrance"]["levels"]
    assert [level["move"] for level in levels] == [8, 6, 4, 3, 1]
    assert [level["dodge"] for level in levels] == [13, 12, 11, 10, 9]  # 12 + Combat Reflexes


def test_without_calc_skills_get_their_bonuses_and_weapons_their_parry() -> None:
    document = _document(_uncomputed())
    skill = document["skills"][0]
    assert skill["level"] == 12 + 1 + 2  # DX 12, A with 4 points: +1, Weapon Talent +2
    assert skill["bonuses"] == [{"name": "Weapon Talent", "amount": 2}]
    # 3 + ⌊15 / 2⌋ + 0 (the weapon's parry) + 1 (Combat Reflexes)
    assert document["defenses"]["parry"] == {"skill": "Broadsword", "value": 11}


def test_without_calc_a_weapon_that_cannot_parry_gives_no_parry() -> None:
    data = _uncomputed()
    data["equipment"][0]["weapons"][0]["parry"] = "No"
    assert _document(data)["defenses"]["parry"] == {"skill": None, "value": None}


def test_saved_values_win_over_the_rules() -> None:
    data = _uncomputed()
    data["calc"] = {"thrust": "1d+2", "swing": "3d", "move": [9, 7, 5, 3, 1], "dodge": [10, 9, 8, 7, 6]}
    data["equipment"][0]["weapons"][0]["calc"] = {"level": 20, "parry": "14F"}
    original = copy.deepcopy(data)
    document = _document(data)
    assert data == original
    assert document["damage"]["thrust"]["notation"] == "1d+2"
    assert [level["move"] for level in document["encumbrance"]["levels"]] == [9, 7, 5, 3, 1]
    assert document["defenses"]["parry"]["value"] == 14


# ---------------------------------------------------------------- equipment without calc


def _item(**fields: Any) -> dict[str, Any]:
    return {"id": "e1", "description": "Thing", "quantity": 1, "equipped": True, **fields}


def _mod(
    cost_type: str = "", cost: str = "", weight_type: str = "", weight: str = "", **extra: Any
) -> dict[str, Any]:
    found: dict[str, Any] = {"id": "f1", "name": "Mod", **extra}
    if cost:
        found.update({"cost_type": cost_type, "cost": cost} if cost_type else {"cost": cost})
    if weight:
        found.update({"weight_type": weight_type, "weight": weight} if weight_type else {"weight": weight})
    return found


@pytest.mark.parametrize(
    ("modifiers", "cost", "weight"),
    [
        ([], 40, 2.0),
        ([_mod("to_base_cost", "+3 CF")], 160, 2.0),
        ([_mod("to_base_cost", "x4")], 160, 2.0),  # a multiplier of the base cost is CF +3
        ([_mod("to_base_cost", "+3 CF"), _mod("to_base_cost", "-5 CF")], 8, 2.0),  # CF at least -0.8
        ([_mod("to_final_cost", "+20")], 60, 2.0),
        ([_mod("to_final_cost", "x0.25", "to_final_base_weight", "x0.25")], 10, 0.5),
        ([_mod("", "+15%", "", "+15%")], 46, 2.3),  # to the original cost and weight
        ([_mod("to_original_cost", "+10", "to_original_weight", "+1 lb")], 50, 2.5),
        ([_mod("to_final_cost", "x2", "to_final_weight", "x1/2")], 80, 1.0),
        ([_mod("to_final_cost", "x2", "to_final_weight", "x1/2", disabled=True)], 40, 2.0),
        ([_mod("to_final_cost", "-100")], 0, 2.0),  # never below 0
    ],
)
def test_without_calc_equipment_modifiers_follow_gcs_steps(
    modifiers: list[dict[str, Any]], cost: float, weight: float
) -> None:
    data = _uncomputed(equipment=[_item(value=40, weight="4 lb", modifiers=modifiers)])
    item = _document(data)["equipment"][0]
    assert item["cost"] == pytest.approx(cost)
    assert item["weight"] == pytest.approx(weight)


def test_without_calc_containers_hold_their_contents_less_reductions_times_quantity() -> None:
    contents = [_item(value=10, weight="6 lb"), _item(value=5, weight="2 lb", quantity=2)]
    box = _item(
        id="E1",
        value=30,
        weight="2 lb",
        quantity=2,
        children=contents,
        features=[{"type": "contained_weight_reduction", "reduction": "50%"}],
    )
    item = _document(_uncomputed(equipment=[box]))["equipment"][0]
    assert item["cost"] == (30 + 10 + 2 * 5) * 2
    assert item["weight"] == (1 + (3 + 2) * 0.5) * 2  # kg: contents 5 kg halved
    box["features"] = [{"type": "contained_weight_reduction", "reduction": "3 lb"}]
    assert _document(_uncomputed(equipment=[box]))["equipment"][0]["weight"] == (1 + 5 - 1.5) * 2


def test_without_calc_nothing_counts_for_a_quantity_of_zero_or_less() -> None:
    for quantity in (0, -3):
        item = _document(_uncomputed(equipment=[_item(value=40, weight="4 lb", quantity=quantity)]))[
            "equipment"
        ][0]
        assert (item["cost"], item["weight"]) == (0, 0)


def test_gcs_extended_value_saved_as_text_is_read() -> None:
    calc = {"extended_value": "1,250", "extended_weight": "3 lb"}
    item = _document(_uncomputed(equipment=[_item(value=40, weight="4 lb", calc=calc)]))["equipment"][0]
    assert (item["cost"], item["weight"]) == (1250, 1.5)


# ---------------------------------------------------------------- traits without calc


@pytest.mark.parametrize(
    ("cost_adj", "parsed"),
    [
        ("+50%", ("percentage", 50)),
        ("-6", ("points", -6)),
        ("x2", ("multiplier", 2)),
        ("x1/3", ("multiplier", 1 / 3)),
        ("x150%", ("percent_multiplier", 150)),
        ("x1/0", ("points", 0)),
        ("lots", ("points", 0)),
    ],
)
def test_trait_modifier_costs(cost_adj: str, parsed: tuple[str, float]) -> None:
    kind, value = modifier_cost({"cost_adj": cost_adj})
    assert kind == parsed[0]
    assert value == pytest.approx(parsed[1])


@pytest.mark.parametrize(("roll", "points"), [(0, -10), (1, -25), (6, -20), (9, -15), (12, -10), (15, -5)])
def test_without_calc_self_control_rolls_multiply_the_cost(roll: int, points: int) -> None:
    trait = {"id": "t9", "name": "Berserk", "base_points": -10, "cr": roll}
    data = _uncomputed(traits=[trait])
    assert _document(data)["traits"][0]["points"] == points


@pytest.mark.parametrize(("progression", "points"), [("basic_set", 12), ("knowing_your_own_strength", 20)])
def test_without_calc_hp_gets_the_size_discount_except_under_kyos(progression: str, points: int) -> None:
    data = _uncomputed()
    data["profile"]["SM"] = 4
    data["settings"]["damage_progression"] = progression
    data["attributes"].append({"attr_id": "hp", "adj": 10})
    assert _document(data)["secondary"]["hp"]["points"] == points  # 10 × 2, less 40 % for SM +4


def _version1_with_techniques() -> dict[str, Any]:
    """A version 1 character (GCS 4.x never saved levels then) with techniques of every kind."""
    skill_default = {"type": "Skill", "name": "Judo", "modifier": 0}
    return {
        "type": "character",
        "version": 1,
        "DX": 12,
        "profile": {"name": "Ana"},
        "advantages": [
            {
                "type": "advantage",
                "name": "Grappling Talent",
                "base_points": 5,
                "features": [
                    {
                        "type": "skill_bonus",
                        "selection_type": "skills_with_name",
                        "name": "Arm Lock",
                        "amount": 1,
                    }
                ],
            }
        ],
        "skills": [
            {"type": "skill", "name": "Judo", "difficulty": "DX/H", "points": 8},
            {
                "type": "technique",
                "name": "Arm Lock",
                "difficulty": "A",
                "default": skill_default,
                "limit": 4,
                "points": 2,
            },
            {
                "type": "technique",
                "name": "Leg Grapple",
                "difficulty": "H",
                "points": 3,
                "default": {**skill_default, "modifier": -2},
                "limit": 2,
            },
            {
                "type": "technique",
                "name": "Feint",
                "difficulty": "H",
                "default": {"type": "DX", "modifier": -2},
                "points": 2,
            },
            {
                "type": "technique",
                "name": "Kick",
                "difficulty": "H",
                "points": 2,
                "default": {"type": "Skill", "name": "Karate", "modifier": -2},
            },
        ],
    }


def test_without_calc_techniques_get_gcs_levels_from_their_default() -> None:
    result = import_gcs(_version1_with_techniques(), now=NOW)
    document = result.document
    assert validate_character(document).valid and verify_character(document).claim_consistent
    levels = {skill["name"]: skill["level"] for skill in document["skills"]}
    assert levels["Judo"] == 12 + 1  # DX/H, 8 points: DX+1
    assert levels["Arm Lock"] == 13 + 0 + 2 + 1  # Judo + 2 points (Average) + Talent, within Judo+4
    assert levels["Leg Grapple"] == 13  # Judo−2 + (3 − 1) points (Hard: 1st buys none), within Judo+2
    assert levels["Feint"] == 12 - 2 + 1  # DX−2, Hard: 2 points buy one level
    assert levels["Kick"] == 0  # no Karate: GCS has no level for it either
    kick = next(skill for skill in document["skills"] if skill["name"] == "Kick")
    assert "GCS gives it no level" in kick["notes"]


def test_without_calc_a_version_1_spell_college_is_text() -> None:
    college_bonus = {
        "type": "spell_bonus",
        "match": "college_name",
        "name": {"compare": "is", "qualifier": "Fire"},
        "amount": 1,
    }
    data = {
        "type": "character",
        "version": 1,
        "IQ": 13,
        "profile": {"name": "Ivo"},
        "advantages": [
            {"type": "advantage", "name": "Fire Affinity", "base_points": 5, "features": [college_bonus]}
        ],
        "spells": [
            {"type": "spell", "name": "Fireball", "college": "Air/Fire", "difficulty": "IQ/H", "points": 4},
            {
                "type": "spell",
                "name": "Light",
                "college": "Light and Darkness",
                "difficulty": "IQ/H",
                "points": 4,
            },
        ],
    }
    skills = {skill["name"]: skill for skill in _document(data)["skills"]}
    assert skills["Fireball"]["level"] == 13 + 0 + 1  # IQ/H with 4 points: IQ+0, +1 for the college
    assert skills["Fireball"]["bonuses"] == [{"name": "Fire Affinity", "amount": 1}]
    assert "College: Air, Fire" in skills["Fireball"]["notes"]
    assert skills["Light"]["level"] == 13 and "bonuses" not in skills["Light"]


def test_without_a_body_table_dr_is_for_gcs_default_humanoid_body() -> None:
    data = {
        "type": "character",
        "version": 1,
        "profile": {"name": "Ola", "body_type": "humanoid"},
        "advantages": [
            {
                "type": "advantage",
                "name": "Damage Resistance",
                "levels": "2",
                "points_per_level": 5,
                "features": [{"type": "dr_bonus", "location": "torso", "amount": 1, "per_level": True}],
            }
        ],
        "equipment": [
            {
                "type": "equipment",
                "description": "Leather Jacket",
                "equipped": True,
                "quantity": 1,
                "features": [
                    {"type": "dr_bonus", "location": "torso", "amount": 1},
                    {"type": "dr_bonus", "location": "arms", "amount": 1},  # GCS 4.x location names
                    {"type": "dr_bonus", "location": "full_body_except_eyes", "amount": 1},
                ],
            }
        ],
    }
    result = import_gcs(data, now=NOW)
    assert validate_character(result.document).valid and verify_character(result.document).claim_consistent
    dr = {entry["locationId"]: entry["dr"] for entry in result.document["damageResistance"]}
    assert dr == {
        "eyes": 0,
        "skull": 1,  # the full-body bonus; the skull's own DR 2 is left to the rules
        "face": 1,
        "legs": 1,
        "arms": 1 + 1,
        "torso": 2 * 1 + 1 + 1,  # DR 2 (per level) + the jacket
        "groin": 1,
        "hands": 1,
        "feet": 1,
        "neck": 1,
        "vitals": 1,
    }
    assert any(note.source == "/settings" and "default body" in note.message for note in result.notes)
