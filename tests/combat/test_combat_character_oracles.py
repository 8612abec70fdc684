"""Worked numbers from the Basic Set for what the document layer reads before the arithmetic
(issue 29 item 8): the parry style a skill gives, and whether the sheet's Parry already counts
Combat Reflexes. An audit planted "a Brawling parry treated as Boxing" and "Combat Reflexes
detection ignoring the weapon's parry modifier" and no test failed; each number here is worked
out by hand from the rules it names, so a bug of either kind changes one.

The character is Rurik (``examples/rurik.json``: Broadsword 14, Knife 12, a medium load,
encumbrance level 2) with the skill under test at 14, so every bare parry is 3 + 14/2 = 10
(B376).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gurps_character import character_attack_skill, character_defense, combat_stats
from tests.combat.test_combat_character import example, valid, with_skill, with_trait, with_weapon


def sheet_parry_with(skill: str) -> dict[str, Any]:
    """Rurik with ``skill`` at 14 and the sheet's Parry from it: 3 + 7 = 10."""
    document = with_skill(example("rurik"), skill, 14)
    document["defenses"]["parry"] = {"skill": skill, "value": 10}
    return valid(document)


# ---------------------------------------------------------------- the style of a skill's parry


@pytest.mark.parametrize(
    ("skill", "style", "retreating", "against_a_weapon", "second"),
    [
        # Brawling (B182) and Sumo Wrestling (B223) parry as any unarmed parry: +1 retreating,
        # -3 against a weapon (B376), no encumbrance, -4 for a second parry
        ("Brawling", "unarmed", 10 + 1, 10 - 3, 10 - 4),
        ("Sumo Wrestling", "unarmed", 10 + 1, 10 - 3, 10 - 4),
        # Boxing (B182): +3 retreating (B377), otherwise as Brawling
        ("Boxing", "boxing", 10 + 3, 10 - 3, 10 - 4),
        # Judo and Karate (B203, B203): +3 retreating, no -3 against a weapon, -1 per level of
        # encumbrance (B391): medium, -2
        ("Judo", "judo", 10 + 3 - 2, 10 - 2, 10 - 2 - 4),
        ("Karate", "karate", 10 + 3 - 2, 10 - 2, 10 - 2 - 4),
        # a fencing skill (B208): +3 retreating, -1 per level of encumbrance, -2 per parry after
        # the first (B376)
        ("Rapier", "fencing", 10 + 3 - 2, None, 10 - 2 - 2),
        ("Saber", "fencing", 10 + 3 - 2, None, 10 - 2 - 2),
        ("Main-Gauche", "fencing", 10 + 3 - 2, None, 10 - 2 - 2),
        ("Smallsword", "fencing", 10 + 3 - 2, None, 10 - 2 - 2),
        # any other weapon: +1 retreating, no encumbrance, -4
        ("Broadsword", "weapon", 10 + 1, None, 10 - 4),
    ],
)
def test_the_sheets_parry_takes_its_skills_style_and_its_numbers(
    skill: str, style: str, retreating: int, against_a_weapon: int | None, second: int
) -> None:
    document = sheet_parry_with(skill)
    result = character_defense(document, "parry", retreat=True)
    assert (result.options["parry_style"], result.base, result.value) == (style, 10, retreating)
    if against_a_weapon is not None:
        assert character_defense(document, "parry", unarmed_vs_weapon=True).value == against_a_weapon
    assert character_defense(document, "parry", parries_so_far=1).value == second


@pytest.mark.parametrize(
    ("skill", "style", "retreating"),
    [("Brawling", "unarmed", 11), ("Boxing", "boxing", 13), ("Karate", "karate", 11), ("Knife", "weapon", 9)],
)
def test_a_weapon_parries_in_the_style_of_the_skill_its_notes_name(
    skill: str, style: str, retreating: int
) -> None:
    """A punch noted with its skill (as Jotun's is "Brawling"), the skill at 14: parry 10 (B376);
    retreating +1 for Brawling, +3 for Boxing and Karate (less 2 for Karate's medium load), and
    a knife's parry modifier of -1 (B272) on the Knife row: 3 + 6 - 1 = 8, retreating 9."""
    document = with_skill(example("rurik"), skill, 14) if skill != "Knife" else example("rurik")
    modifier = -1 if skill == "Knife" else 0
    document = with_weapon(
        document,
        "melee",
        {
            "name": "Strike",
            "damage": [{"notation": "thr-1 cr"}],
            "reach": "C",
            "parry": {"notation": f"{modifier}", "modifier": modifier},
            "notes": skill,
        },
    )
    level = 14 if skill != "Knife" else 12
    row = combat_stats(document).weapons.melee[-1]
    assert (row.skill, row.level, row.parry.value) == (skill, level, level // 2 + 3 + modifier)
    result = character_defense(document, "parry", weapon="Strike", retreat=True)
    assert (result.options["parry_style"], result.value) == (style, retreating)


# ---------------------------------------------------------------- Combat Reflexes and the sheet


def staff_fighter(sheet_parry: int) -> dict[str, Any]:
    """Rurik with Staff 12, a Quarterstaff (parry +2, B273) and Combat Reflexes, the sheet's
    Parry from Staff: 3 + 6 + 2 = 11 without Combat Reflexes, 12 with it (B43)."""
    document = with_weapon(
        with_skill(example("rurik"), "Staff", 12),
        "melee",
        {
            "name": "Quarterstaff",
            "damage": [{"notation": "sw+2 cr"}, {"notation": "thr+2 cr"}],
            "reach": "1,2",
            "parry": {"notation": "+2", "modifier": 2},
            "notes": "Staff",
        },
    )
    document["defenses"]["parry"] = {"skill": "Staff", "value": sheet_parry}
    return with_trait(valid(document))


def test_a_sheet_parry_that_is_the_weapons_formula_lacks_combat_reflexes() -> None:
    """Parry 11 is 3 + 12/2 + 2, the quarterstaff's own: Combat Reflexes is not in it, +1
    (reading 11 against 3 + 6 = 9 alone would take the +2 for the bonus and add nothing)."""
    result = character_defense(staff_fighter(11), "parry")
    assert result.adjustments == (("combat_reflexes", 1, "B43"),)
    assert (result.sheet_value, result.base, result.value) == (11, 12, 12)
    weapon = character_defense(staff_fighter(11), "parry", weapon="Quarterstaff")
    assert (weapon.sheet_value, weapon.base) == (11, 12)


def test_a_sheet_parry_above_the_weapons_formula_counts_combat_reflexes() -> None:
    """Parry 12 is 3 + 6 + 2 + 1: Combat Reflexes is in it; the quarterstaff parries at 12 too,
    and the knife (Knife 12, -1) at 3 + 6 - 1 + 1 = 9."""
    document = staff_fighter(12)
    result = character_defense(document, "parry")
    assert (result.adjustments, result.value) == ((), 12)
    rows = {row.name: row.parry.value for row in combat_stats(document).weapons.melee}
    assert rows == {"Broadsword": 3 + 7 + 1, "Large Knife": 9, "Quarterstaff": 12}
    assert character_defense(document, "parry", weapon="Quarterstaff").adjustments == ()


def test_a_knife_sheet_parry_counts_the_knifes_minus_one() -> None:
    """Knife 12 and the Large Knife's -1 (B272): a sheet Parry of 8 is the knife's formula, so
    Combat Reflexes adds +1; 9 holds it already (reading 9 against 3 + 6 = 9 would add it
    twice)."""
    for sheet, added in ((8, 1), (9, 0)):
        document = copy.deepcopy(example("rurik"))
        document["defenses"]["parry"] = {"skill": "Knife", "value": sheet}
        result = character_defense(with_trait(valid(document)), "parry")
        assert result.value == sheet + added, sheet


def test_combat_reflexes_from_a_trait_of_a_longer_name() -> None:
    """ "Combat Reflexes (Template)" is the trait too: the bare sheet (Dodge 6 + 3, Parry 10)
    takes +1 (B43)."""
    document = with_trait(example("rurik"), "Combat Reflexes (Template)")
    assert character_defense(document, "dodge", encumbrance_level=0).value == 10
    assert character_defense(document, "parry").value == 11
    assert character_defense(with_trait(example("rurik"), "Combat Reflexesque"), "parry").value == 10


@pytest.mark.parametrize(("dodge", "added"), [(8, 1), (9, 0)])
def test_a_fractional_basic_speed_drops_its_fraction_before_combat_reflexes_is_read(
    dodge: int, added: int
) -> None:
    """Basic Speed 5.75: Dodge 5 + 3 = 8 (B17 drops the fraction); a sheet Dodge of 8 lacks
    Combat Reflexes (+1), 9 holds it (rounding 5.75 to 6 would read 9 as lacking it)."""
    document = copy.deepcopy(example("rurik"))
    document["secondary"]["basicSpeed"] = {"value": 5.75, "base": 5.75, "points": 0}
    document["defenses"]["dodge"]["value"] = dodge
    for row in document["encumbrance"]["levels"]:
        row["dodge"] = dodge - row["level"]
    result = character_defense(with_trait(valid(document)), "dodge")
    assert (result.base, result.value) == (dodge + added, dodge + added - 2)  # medium load: -2


def test_a_sheet_parry_under_the_formula_lowers_every_weapon() -> None:
    """Parry 9 from Broadsword 14 is one under 3 + 7 (some penalty the sheet counts): the
    broadsword parries at 9 and the Large Knife at 3 + 6 - 1 - 1 = 7."""
    document = copy.deepcopy(example("rurik"))
    document["defenses"]["parry"]["value"] = 9
    rows = {row.name: row.parry.value for row in combat_stats(valid(document)).weapons.melee}
    assert rows == {"Broadsword": 9, "Large Knife": 7}


@pytest.mark.parametrize(("minimum", "penalty"), [("999999", 11 - 999999), ("1000000", 0), ("12", -1)])
def test_a_minimum_st_of_six_digits_is_read_and_of_seven_is_not(minimum: str, penalty: int) -> None:
    """-1 per point of ST under the bow's minimum (B270), Rurik's ST 11: a minimum of 12 is -1;
    the document's texts are read to six digits, a seventh makes it no number."""
    document = copy.deepcopy(example("rurik"))
    document["weapons"]["ranged"][0]["minST"] = minimum
    result = character_attack_skill(valid(document), weapon="Regular Bow")
    assert result.adjustments == ((("minimum_st", penalty, "B270"),) if penalty else ())
