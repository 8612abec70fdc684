"""General rules the GCS importer follows where small files broke them: any armor divisor GCS
writes, dice of affliction and special damage, attribute costs rounded as today's GCS rounds
them, negative item weights, and item names that end the way the importer's quantities do.

Every file here is written by hand for the rule it checks (a character at ST 10: thrust 1d-2,
swing 1d, Basic Lift 20 lb, Move 5, Dodge 8); each expectation is worked out in its comment.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from gurps_character import (
    CharacterError,
    import_gcs,
    resolve_damage_notation,
    resolve_hit,
    validate_character,
    verify_character,
)

CALC = {
    "thrust": "1d-2",
    "swing": "1d",
    "basic_lift": "20 lb",
    "move": [5, 4, 3, 2, 1],
    "dodge": [8, 7, 6, 5, 4],
}


def character(**more: Any) -> dict[str, Any]:
    """A version 5 GCS character at ST 10 with GCS's computed values, plus ``more``."""
    data: dict[str, Any] = {
        "version": 5,
        "id": "AruleTestAAAAAAAA",
        "total_points": 0,
        "profile": {"name": "Tester"},
        "attributes": [{"attr_id": "st", "adj": 0, "calc": {"value": 10, "points": 0}}],
        "traits": [],
        "calc": copy.deepcopy(CALC),
    }
    data.update(more)
    return data


def trait_with_weapons(*weapons: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"id": "tSpines", "name": "Spines", "calc": {"points": 0}, "weapons": list(weapons), **more}


def melee(ident: str, usage: str, damage: dict[str, Any], shown: str | None) -> dict[str, Any]:
    weapon: dict[str, Any] = {"id": ident, "damage": damage, "usage": usage, "reach": "C"}
    if shown is not None:
        weapon["calc"] = {"level": 10, "damage": shown}
    return weapon


def imported(data: dict[str, Any]) -> tuple[dict[str, Any], list[Any]]:
    result = import_gcs(data)
    document = result.document
    assert validate_character(document).valid
    assert verify_character(document).claim_consistent
    return document, list(result.notes)


def damage_lines(document: dict[str, Any]) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """name → (melee entry, its damage line)."""
    return {entry["name"]: (entry, entry["damage"][0]) for entry in document["weapons"]["melee"]}


# ---------------------------------------------------------------- 1. any armor divisor


def test_gcss_saved_divisors_4_and_1_5_are_kept() -> None:
    """GCS saved 1d-2(4) imp and 1d-2(1.5) pi (a divisor bonus raised the weapons' (2)): the
    notation keeps both divisors and resolves to GCS's dice."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wStab", "Stab", {"type": "imp", "st": "thr", "armor_divisor": 4}, "1d-2(4) imp"),
                melee("wJab", "Jab", {"type": "pi", "st": "thr", "armor_divisor": 2}, "1d-2(1.5) pi"),
            )
        ]
    )
    document, notes = imported(data)
    lines = damage_lines(document)
    assert lines["Spines (Stab)"][1]["notation"] == "thr (4) imp"
    assert lines["Spines (Jab)"][1]["notation"] == "thr (1.5) pi"
    stab = resolve_damage_notation(document, lines["Spines (Stab)"][1]["notation"])
    jab = resolve_damage_notation(document, lines["Spines (Jab)"][1]["notation"])
    assert (stab.dice, stab.adds, stab.armor_divisor, stab.damage_type) == (1, -2, 4, "imp")
    assert (jab.dice, jab.adds, jab.armor_divisor, jab.damage_type) == (1, -2, 1.5, "pi")
    assert not any("armor divisor" in note.message for note in notes)
    # DR 9 against (4): 9 / 4 = 2.25, rounded down to 2
    assert resolve_hit(document, 6, "imp", armor_divisor=stab.armor_divisor, dr=9).effective_dr == 2


def test_a_divisor_bonus_makes_the_divisor_by_gcss_rules() -> None:
    """Without calc: the weapon's (2) plus a weapon_dr_divisor_bonus of +2 to Spines is (4), as
    GCS computes it (the bonus adds to the written divisor); -0.5 more makes (1.5)."""

    def bonus(amount: float) -> dict[str, Any]:
        return {
            "type": "weapon_dr_divisor_bonus",
            "selection_type": "weapons_with_name",
            "name": {"compare": "is", "qualifier": "Spines"},
            "amount": amount,
        }

    stab = melee("wStab", "Stab", {"type": "imp", "st": "thr", "armor_divisor": 2}, None)
    four = character(traits=[trait_with_weapons(stab), {"id": "tB", "name": "Sharp", "features": [bonus(2)]}])
    line = damage_lines(imported(four)[0])["Spines (Stab)"][1]
    assert line["notation"] == "thr (4) imp"
    both = [bonus(2), bonus(-2.5)]
    dull = {"id": "tB", "name": "Dull", "features": both}
    one_and_a_half = character(traits=[trait_with_weapons(stab), dull])
    line = damage_lines(imported(one_and_a_half)[0])["Spines (Stab)"][1]
    assert line["notation"] == "thr (1.5) imp"


def test_a_divisor_beyond_the_notations_bounds_is_left_out_with_a_note() -> None:
    """GCS's (2000) is beyond what the notation holds (0.001 to 1000): the dice stay, the divisor
    is named in the notes."""
    data = character(
        traits=[trait_with_weapons(melee("wStab", "Stab", {"type": "imp", "st": "thr"}, "1d-2(2000) imp"))]
    )
    document, _ = imported(data)
    entry, line = damage_lines(document)["Spines (Stab)"]
    assert line["notation"] == "thr imp"
    assert (
        "GCS's armor divisor (2000) is beyond what the notation holds (0.001 to 1000): left out"
        in (entry["notes"])
    )


# ---------------------------------------------------------------- 2. dice of affliction and special damage


def test_dice_of_affliction_and_special_damage_roll_with_no_type() -> None:
    """GCS's 1d aff and 2d spec. start with dice: the notation rolls them, damage type None, the
    word in type_text; the entry's type is the format's aff and spec."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wZap", "Zap", {"type": "aff", "base": "1d"}, "1d aff"),
                melee("wWeb", "Web", {"type": "spec.", "base": "2d"}, "2d spec."),
                melee("wCloud", "Cloud", {"type": "HT-3 aff"}, "HT-3 aff"),
            )
        ]
    )
    document, _ = imported(data)
    lines = damage_lines(document)
    zap_entry, zap = lines["Spines (Zap)"]
    web_entry, web = lines["Spines (Web)"]
    assert zap == {"notation": "1d aff", "base": "fixed", "dice": 1, "adds": 0, "type": "aff"}
    assert web == {"notation": "2d spec.", "base": "fixed", "dice": 2, "adds": 0, "type": "spec"}
    for line, dice, word in ((zap, 1, "aff"), (web, 2, "spec.")):
        weapon = resolve_damage_notation(document, line["notation"])
        assert (weapon.dice, weapon.adds, weapon.damage_type, weapon.type_text) == (dice, 0, None, word)
    assert "not rolled" not in zap_entry.get("notes", "") and "not rolled" not in web_entry.get("notes", "")
    cloud_entry, cloud = lines["Spines (Cloud)"]
    assert cloud == {"notation": "HT-3 aff"}
    assert "HT-3 aff (not dice: not rolled)" in cloud_entry["notes"]
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(document, "HT-3 aff")
    assert caught.value.message == "notation: expected 'thr', 'sw' or dice such as '2d':\n  HT-3 aff\n  ^"


def test_the_same_without_calc() -> None:
    """GCS's rules give the same: base 1d, type aff; base 2d, type spec."""
    data = character(
        traits=[
            trait_with_weapons(
                melee("wZap", "Zap", {"type": "aff", "base": "1d"}, None),
                melee("wWeb", "Web", {"type": "spec.", "base": "2d"}, None),
            )
        ]
    )
    lines = damage_lines(imported(data)[0])
    zap = {"notation": "1d aff", "base": "fixed", "dice": 1, "adds": 0, "type": "aff"}
    assert lines["Spines (Zap)"][1] == zap
    assert lines["Spines (Web)"][1]["notation"] == "2d spec."
    assert lines["Spines (Web)"][1]["dice"] == 2
