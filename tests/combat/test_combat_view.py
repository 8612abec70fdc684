"""The numbers of this moment in ``combat_stats`` (issue 23): the encumbrance the carried weight
gives, Move and Dodge at that level halved by the condition, and weapon rows with their dice,
skill, level, parry and block; the reference's JSON unchanged."""

from __future__ import annotations

import copy
import json
import math
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import (
    CharacterError,
    MeleeWeaponStats,
    RangedWeaponStats,
    WeaponDamage,
    combat_stats,
    get_condition,
    load_character,
    resolve_damage_notation,
    validate_character,
)
from gurps_character.gcs import EXTENSION
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


def carrying(document: dict[str, Any], kilograms: float) -> dict[str, Any]:
    """The document with its equipment replaced by one item of that weight, weapons weightless."""
    changed = copy.deepcopy(document)
    changed["equipment"] = [{"name": "Pack", "weight": kilograms}]
    for kind in ("melee", "ranged"):
        for weapon in changed.get("weapons", {}).get(kind, []):
            weapon.pop("weight", None)
    changed.pop("possessionsTotal", None)
    return changed


def at_hp(document: dict[str, Any], hp: int | None = None, fp: int | None = None) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    if hp is not None:
        changed["secondary"]["hp"]["current"] = hp
    if fp is not None:
        changed["secondary"]["fp"]["current"] = fp
    return changed


# ---------------------------------------------------------------- the reference's JSON


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_the_references_json_is_unchanged_and_rows_give_the_documents_entries(name: str) -> None:
    document = example(name)
    stats = combat_stats(document)
    assert stats.to_dict()["weapons"] == document["weapons"]
    assert [row.to_dict() for row in stats.weapons.melee] == document["weapons"]["melee"]
    assert [row.to_dict() for row in stats.weapons.ranged] == document["weapons"]["ranged"]
    assert "currentMove" not in stats.to_dict() and "carriedWeight" not in stats.to_dict()


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_every_json_form_of_the_view_dumps(name: str) -> None:
    stats = combat_stats(example(name))
    for form in (stats.to_dict(), stats.to_dict(extended=True), stats.weapons.to_dict(extended=True)):
        assert json.loads(json.dumps(form)) == form
    extended = stats.to_dict(extended=True)
    assert {key: extended.pop(key) for key in list(extended) if key not in stats.to_dict()} == {
        "carriedWeight": stats.carried_weight,
        "currentEncumbrance": stats.current_encumbrance.to_dict(),
        "overloaded": False,
        "currentMove": stats.current_move,
        "currentDodge": stats.current_dodge,
    }


# ---------------------------------------------------------------- encumbrance of this moment


def test_rurik_carries_27_kg_a_medium_load() -> None:
    """Rurik's sheet totals 27 kg of possessions; Basic Lift 12 makes Medium (up to 3 x BL = 36,
    B17): Move 3, Dodge 7 by his table."""
    rurik = example("rurik")
    stats = combat_stats(rurik)
    assert stats.carried_weight == rurik["possessionsTotal"]["weight"] == 27
    assert (stats.current_encumbrance.id, stats.current_encumbrance.level) == ("medium", 2)
    assert (stats.current_move, stats.current_dodge) == (3, 7)
    assert stats.basic_move == 6 and stats.dodge == 9  # the stored, unencumbered values stay


@pytest.mark.parametrize(
    ("kilograms", "level"),
    [
        (0, "none"),
        (12, "none"),
        (12.1, "light"),
        (24, "light"),
        (36, "medium"),
        (72, "heavy"),
        (120, "extraHeavy"),
    ],
)
def test_a_load_up_to_a_levels_maximum_is_that_level(kilograms: float, level: str) -> None:
    """B17: each level holds loads up to its maximum (Rurik: BL 12, so 12, 24, 36, 72 and 120 kg)."""
    stats = combat_stats(carrying(example("rurik"), kilograms))
    assert stats.current_encumbrance.id == level and not stats.overloaded
    row = stats.current_encumbrance
    assert (stats.current_move, stats.current_dodge) == (row.move, row.dodge)


def test_more_than_extra_heavy_cannot_move() -> None:
    stats = combat_stats(carrying(example("rurik"), 120.5))
    assert stats.overloaded and stats.current_encumbrance.id == "extraHeavy"
    assert stats.current_move == 0 and stats.current_dodge == stats.encumbrance[-1].dodge


@pytest.mark.parametrize(
    ("hp", "fp", "move", "dodge"),
    [
        (13, 12, 3, 7),  # unhurt: Medium's Move 3, Dodge 7
        (5, 12, 3, 7),  # 5 of 13 HP is not yet reeling (reeling below 13/3: 4 and under)
        (4, 12, 2, 4),  # reeling: halved, rounding up (B419)
        (4, 3, 1, 2),  # reeling and tired (3 of 12 FP is below 12/3): halved twice (B426)
        (13, 0, 2, 4),  # collapsing from fatigue: tired or worse halves
        (-20, 12, 2, 4),  # dying still moves at half
    ],
)
def test_move_and_dodge_of_this_moment_are_halved_by_the_condition(
    hp: int, fp: int, move: int, dodge: int
) -> None:
    document = at_hp(example("rurik"), hp=hp, fp=fp)
    stats = combat_stats(document)
    assert (stats.current_move, stats.current_dodge) == (move, dodge)
    condition = get_condition(document)
    level = stats.current_encumbrance.level
    assert (condition.move[level], condition.dodge[level]) == (move, dodge)


@settings(max_examples=60, deadline=None)
@given(st.floats(0, 200, allow_nan=False), st.integers(-130, 13), st.integers(-12, 12))
def test_the_current_level_is_the_lightest_that_holds_the_load(kilograms: float, hp: int, fp: int) -> None:
    document = at_hp(carrying(example("rurik"), kilograms), hp=hp, fp=fp)
    stats = combat_stats(document)
    holding = [row for row in stats.encumbrance if kilograms <= row.max_load]
    assert stats.overloaded == (not holding)
    assert stats.current_encumbrance == (holding[0] if holding else stats.encumbrance[-1])
    assert 0 <= stats.current_move <= stats.current_encumbrance.move
    assert 0 < stats.current_dodge <= stats.current_encumbrance.dodge


# ---------------------------------------------------------------- weapon rows


def test_rows_are_frozen_dataclasses_with_the_stored_parts() -> None:
    rurik = example("rurik")
    weapons = combat_stats(rurik).weapons
    broadsword, knife = weapons.melee
    bow = weapons.ranged[0]
    assert isinstance(broadsword, MeleeWeaponStats) and isinstance(bow, RangedWeaponStats)
    assert (broadsword.name, broadsword.reach) == ("Broadsword", rurik["weapons"]["melee"][0].get("reach"))
    assert [line.notation for line in broadsword.damage] == ["sw+1 cut", "thr+1 cr"]
    assert [line.to_dict() for line in knife.damage] == rurik["weapons"]["melee"][1]["damage"]
    assert (knife.parry.notation, knife.parry.modifier, knife.parry.unbalanced) == ("-1", -1, False)
    assert [line.to_dict() for line in bow.damage] == [rurik["weapons"]["ranged"][0]["damage"]]
    with pytest.raises((AttributeError, TypeError)):  # Python 3.11 says TypeError for a property
        broadsword.level = 20  # type: ignore[misc]
    with pytest.raises(AttributeError):
        broadsword.name = "Club"  # type: ignore[misc]


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_each_damage_line_is_resolved_for_the_wielder(name: str) -> None:
    document = example(name)
    stats = combat_stats(document)
    rows: list[MeleeWeaponStats | RangedWeaponStats] = [*stats.weapons.melee, *stats.weapons.ranged]
    for row in rows:
        for line in row.damage:
            assert line.resolved == resolve_damage_notation(document, line.notation)
            assert line.unresolved_reason is None
            assert line.resolved is line.resolved  # worked out once
            assert line.to_dict(extended=True)["resolved"] == line.resolved.to_dict()


def test_rurik_swings_his_broadsword_for_1d_plus_2_and_rolls_it() -> None:
    """Rurik's swing is 1d+1; the broadsword's sw+1 cut is 1d+2 cut (B271)."""
    line = combat_stats(example("rurik")).weapons.melee[0].damage[0]
    assert line.resolved is not None
    assert (line.resolved.dice_notation, line.resolved.damage_type) == ("1d+2", "cut")
    assert 3 <= line.resolved.roll(random.Random(5)) <= 8


def test_a_line_that_is_no_dice_roll_says_why() -> None:
    document = example("rurik")
    document["weapons"]["melee"][0]["damage"] = [
        {"notation": "HT-3 aff", "type": "aff"},
        {"notation": "spec.", "type": "spec"},
    ]
    assert validate_character(document).valid
    lines = combat_stats(document).weapons.melee[0].damage
    for line in lines:
        assert line.resolved is None
        with pytest.raises(CharacterError) as caught:
            resolve_damage_notation(document, line.notation)
        assert line.unresolved_reason == caught.value.message
        extended = line.to_dict(extended=True)
        assert extended["resolved"] is None and extended["unresolvedReason"] == caught.value.message


def test_a_weapons_skill_level_and_parry_by_the_documented_rule() -> None:
    """Broadsword: the skill of that name, 14; parry 3 + 14/2 = 10 (B376), as the sheet's own
    Parry says. Large Knife: Knife 12; 3 + 6 - 1 (its parry modifier) = 8. Regular Bow: Bow 13."""
    weapons = combat_stats(example("rurik")).weapons
    broadsword, knife = weapons.melee
    assert (broadsword.skill, broadsword.level, broadsword.parry.value) == ("Broadsword", 14, 10)
    assert (knife.skill, knife.level, knife.parry.value) == ("Knife", 12, 8)
    assert (weapons.ranged[0].skill, weapons.ranged[0].level) == ("Bow", 13)
    assert broadsword.block.value is None and knife.block.value is None


def test_the_sheets_parry_bonus_reaches_every_weapon() -> None:
    """A sheet Parry of 11 from Broadsword 14 holds +1 beyond the rule (Combat Reflexes, B43)."""
    document = example("rurik")
    document["defenses"]["parry"]["value"] = 11
    broadsword, knife = combat_stats(document).weapons.melee
    assert (broadsword.parry.value, knife.parry.value) == (11, 9)
    # a sheet Parry that comes from the knife: its -1 is the knife's, not a bonus
    document["defenses"]["parry"] = {"skill": "Knife", "value": 8}
    broadsword, knife = combat_stats(document).weapons.melee
    assert (broadsword.parry.value, knife.parry.value) == (10, 8)
    # a sheet Parry that is the format's formula (3 + 12/2 = 9 from Knife 12) holds no weapon
    # modifier and no bonus: the knife parries at 9 - 1 (Odile's sheet, rules-compliant)
    document["defenses"]["parry"] = {"skill": "Knife", "value": 9}
    broadsword, knife = combat_stats(document).weapons.melee
    assert (broadsword.parry.value, knife.parry.value) == (10, 8)
    odile = combat_stats(load_character(EXAMPLES / "odile.yaml").character).weapons.melee[0]
    assert (odile.skill, odile.level, odile.parry.value) == ("Knife", 13, 8)


def test_no_parry_where_the_weapon_cannot_or_the_skill_is_unknown() -> None:
    document = example("rurik")
    document["weapons"]["melee"][0]["parry"] = {"notation": "No", "modifier": None}
    del document["weapons"]["melee"][1]["parry"]
    document["weapons"]["melee"].append({"name": "Morningstar", "parry": {"notation": "0U", "modifier": 0}})
    broadsword, knife, morningstar = combat_stats(document).weapons.melee
    assert broadsword.parry.value is None and broadsword.parry.notation == "No"
    assert knife.parry.value is None and knife.parry.notation is None and knife.level == 12
    assert (morningstar.skill, morningstar.level, morningstar.parry.value) == (None, None, None)


def test_a_shield_row_blocks_with_the_sheets_block() -> None:
    document = example("rurik")
    document["weapons"]["melee"].append(
        {
            "name": "Shield Bash",
            "damage": [{"notation": "thr cr"}],
            "parry": {"notation": "No", "modifier": None},
        }
    )
    bash = combat_stats(document).weapons.melee[-1]
    assert (bash.skill, bash.level, bash.block.value) == (
        "Shield",
        13,
        document["defenses"]["block"]["value"],
    )
    assert bash.to_dict(extended=True)["block"] == {"value": 9}


def with_records(document: dict[str, Any], melee: list[Any], ranged: list[Any]) -> dict[str, Any]:
    changed = copy.deepcopy(document)
    changed.setdefault("extensions", {})[EXTENSION] = {"weapons": {"melee": melee, "ranged": ranged}}
    assert validate_character(changed).valid
    return changed


def test_an_imported_characters_records_give_level_parry_and_block() -> None:
    """The GCS importer's records (one per weapon entry, in order) are GCS's own numbers."""
    document = with_records(
        example("rurik"),
        [
            {"source": "/equipment/0/weapons/0", "level": 15, "parry": 11, "block": None},
            {"source": "/equipment/1/weapons/0", "level": 13.0, "parry": None, "block": 7, "parryText": "No"},
        ],
        [{"source": "/equipment/2/weapons/0", "level": None}],
    )
    weapons = combat_stats(document).weapons
    broadsword, knife = weapons.melee
    assert (broadsword.level, broadsword.parry.value, broadsword.block.value) == (15, 11, None)
    assert (knife.level, knife.parry.value, knife.block.value) == (13, None, 7)
    assert isinstance(knife.level, int)
    assert weapons.ranged[0].level is None
    assert broadsword.skill == "Broadsword"  # the records name no skill: the rule's, where found


@pytest.mark.parametrize(
    ("melee", "ranged"),
    [
        ([{"level": 15}], [{"level": 12}]),  # one melee record short
        ([{"level": 15}, {"level": 12}, {"level": 1}], [{"level": 12}]),  # one too many
        ([{"level": "15"}, {"level": 12}], [{"level": 12}]),  # text
        ([{"level": True}, {"level": 12}], [{"level": 12}]),  # a boolean
        ([{"level": 15}, {"parry": 1.5}], [{"level": 12}]),  # a fraction
        ([{"level": 15}, "x"], [{"level": 12}]),  # not a record
        ([{"level": 15}, {"level": 12}], None),  # no ranged list
    ],
)
def test_records_that_do_not_match_fall_back_to_the_rule(melee: Any, ranged: Any) -> None:
    document = example("rurik")
    changed = copy.deepcopy(document)
    changed["extensions"] = {
        EXTENSION: {"weapons": {"melee": melee, **({"ranged": ranged} if ranged else {})}}
    }
    weapons = combat_stats(changed).weapons
    assert [row.level for row in weapons.melee] == [14, 12]
    assert [row.parry.value for row in weapons.melee] == [10, 8]
    assert weapons.ranged[0].level == 13


def test_the_rows_are_detached_from_the_document() -> None:
    document = example("rurik")
    stats = combat_stats(document)
    document["weapons"]["melee"][0]["damage"][0]["notation"] = "sw+9 cut"
    document["skills"][0]["level"] = 20
    document["damage"]["swing"] = {"notation": "9d", "dice": 9, "adds": 0}
    broadsword = stats.weapons.melee[0]
    assert broadsword.damage[0].notation == "sw+1 cut" and broadsword.level == 14
    resolved = broadsword.damage[0].resolved
    assert isinstance(resolved, WeaponDamage) and resolved.dice_notation == "1d+2"


def test_a_view_without_weapons() -> None:
    document = example("rurik")
    del document["weapons"]
    stats = combat_stats(document)
    assert stats.weapons.melee == () and stats.weapons.ranged == ()
    assert stats.to_dict()["weapons"] == {"melee": [], "ranged": []}
    assert stats.carried_weight == sum(item.get("weight", 0) for item in document["equipment"])
    assert not math.isnan(stats.carried_weight)


def test_a_skill_named_in_the_weapons_notes() -> None:
    """Jotun's club is noted "Two-Handed Axe/Mace" (11): parry 3 + 5 = 8, unbalanced; his punch
    "Brawling" (11); his boulder "Throwing" (10)."""
    weapons = combat_stats(example("jotun")).weapons
    club, punch = weapons.melee
    assert (club.skill, club.level, club.parry.value, club.parry.unbalanced) == (
        "Two-Handed Axe/Mace",
        11,
        8,
        True,
    )
    assert (punch.skill, punch.level, punch.parry.value) == ("Brawling", 11, 8)
    assert (weapons.ranged[0].skill, weapons.ranged[0].level) == ("Throwing", 10)


# ---------------------------------------------------------------- the stats command


def stats_lines(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    from gurps_character.cli import main

    assert main(["stats", *args]) == 0
    return capsys.readouterr().out.splitlines()


def test_the_stats_table_shows_skill_level_parry_and_block(capsys: pytest.CaptureFixture[str]) -> None:
    lines = stats_lines(capsys, str(EXAMPLES / "rurik.json"))
    start = next(index for index, line in enumerate(lines) if line.startswith("Melee weapon"))
    header, broadsword = lines[start], lines[start + 1]
    assert header.split() == ["Melee", "weapon", "Skill", "Damage", "Reach", "Parry", "Block", "Notes"]
    assert broadsword.split()[:2] == ["Broadsword", "Broadsword-14"]
    assert broadsword[header.index("Parry") :].split()[:2] == ["10", "-"]
    knife = next(line for line in lines if line.startswith("Large Knife"))
    assert knife[header.index("Parry") :].split()[:2] == ["8", "-"]
    bow = next(line for line in lines if line.startswith("Regular Bow"))
    assert bow.split()[2] == "Bow-13"
    assert "Carrying 27 kg: Medium (2), Move 3, Dodge 7 now" in lines
    jotun = stats_lines(capsys, str(EXAMPLES / "jotun.json"))
    club = next(line for line in jotun if line.startswith("Bridge-post club"))
    assert "Two-Handed Axe/Mace-11" in club and " 8U " in club


def test_the_stats_table_says_when_the_condition_halves_or_the_load_is_too_heavy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    reeling = tmp_path / "reeling.json"
    reeling.write_text(json.dumps(at_hp(example("rurik"), hp=4)), encoding="utf-8")
    lines = stats_lines(capsys, str(reeling))
    assert "Carrying 27 kg: Medium (2), Move 2, Dodge 4 now (halved by the condition)" in lines
    heavy = tmp_path / "heavy.json"
    heavy.write_text(json.dumps(carrying(example("rurik"), 130)), encoding="utf-8")
    lines = stats_lines(capsys, str(heavy))
    assert "Carrying 130 kg: over Extra-Heavy (120 kg): cannot move, Dodge 5 now" in lines


def test_the_skill_of_a_weapon_is_the_longest_in_words_then_in_letters_then_the_first() -> None:
    """Notes naming "Axe/Mace" (two words) and "Shortsword" (one, but longer): Axe/Mace. Two
    skills of the same words: the first, by name as in the notes; of the same length in words
    and letters, the first of the document."""
    document = example("rurik")
    skills = (("Shortsword", 11), ("Axe/Mace", 12), ("Axe Mace", 13), ("Flail", 9), ("Lance", 8))
    document["skills"] = [dict(document["skills"][3], name=name, level=level) for name, level in skills]
    document["weapons"]["melee"] = [
        {"name": "Hatchet", "notes": "Shortsword or Axe/Mace"},
        {"name": "Axe-Mace"},
        {"name": "Morning Star", "notes": "Lance, Flail"},
    ]
    hatchet, exact, star = combat_stats(document).weapons.melee
    assert (hatchet.skill, hatchet.level) == ("Axe/Mace", 12)
    assert (exact.skill, exact.level) == ("Axe/Mace", 12)
    assert (star.skill, star.level) == ("Flail", 9)
