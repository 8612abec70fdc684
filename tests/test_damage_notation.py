"""A weapon's damage text resolved for a character (B269-B271): dice, adds, type, armor divisor."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, WeaponDamage, resolve_damage_notation, resolve_hit

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
RURIK: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
# Rurik: ST 11, thrust 1d-1, swing 1d+1.


@pytest.mark.parametrize(
    ("notation", "base", "dice", "adds", "damage_type"),
    [
        ("sw+1 cut", "swing", 1, 2, "cut"),
        ("thr-1 cr", "thrust", 1, -2, "cr"),
        ("thr imp", "thrust", 1, -1, "imp"),
        ("sw cut", "swing", 1, 1, "cut"),
        ("thr+2 imp", "thrust", 1, 1, "imp"),
        ("2d+1 pi", "fixed", 2, 1, "pi"),
        ("1d-2 burn", "fixed", 1, -2, "burn"),
        ("3d pi+", "fixed", 3, 0, "pi+"),
        ("4d pi++", "fixed", 4, 0, "pi++"),
        ("1d pi-", "fixed", 1, 0, "pi-"),
        ("2d-1 tox", "fixed", 2, -1, "tox"),
        ("1d cor", "fixed", 1, 0, "cor"),
        ("1d+1 fat", "fixed", 1, 1, "fat"),
        ("  SW+1   CUT  ", "swing", 1, 2, "cut"),
    ],
    ids=[
        "sw+1: 1d+1 +1 = 1d+2",
        "thr-1: 1d-1 -1 = 1d-2",
        "thr: 1d-1",
        "sw: 1d+1",
        "thr+2: 1d+1",
        "2d+1",
        "1d-2",
        "3d",
        "4d",
        "1d",
        "2d-1",
        "1d cor",
        "1d+1 fat",
        "spaces and capitals",
    ],
)
def test_notation_resolves_to_dice_for_the_character(
    notation: str, base: str, dice: int, adds: int, damage_type: str
) -> None:
    weapon = resolve_damage_notation(RURIK, notation)
    assert (weapon.base, weapon.dice, weapon.adds, weapon.damage_type) == (base, dice, adds, damage_type)
    assert (weapon.multiplier, weapon.armor_divisor, weapon.tight_beam) == (1, 1, False)
    assert weapon.notation == notation


@pytest.mark.parametrize(
    ("notation", "divisor"),
    [
        ("sw+2 (2) cut", 2),
        ("2d (3) pi", 3),
        ("3d(5) imp", 5),
        ("6d (10) pi", 10),
        ("1d (100) burn", 100),
        ("2d (0.5) cr", 0.5),
        ("2d (0.2) cr", 0.2),
        ("2d (0.1) cr", 0.1),
        ("2d (∞) burn", math.inf),
        ("2d (inf) burn", math.inf),
        ("2d (Ignores DR) cor", math.inf),
        ("2d pi (3)", 3),
        ("2d ( 2 ) pi", 2),
    ],
)
def test_the_armor_divisor_is_read_before_or_after_the_type(notation: str, divisor: float) -> None:
    assert resolve_damage_notation(RURIK, notation).armor_divisor == divisor


def test_sw_plus_2_armor_divisor_2_cut_for_rurik() -> None:
    weapon = resolve_damage_notation(RURIK, "sw+2 (2) cut")
    assert weapon.to_dict() == {
        "notation": "sw+2 (2) cut",
        "base": "swing",
        "dice": 1,
        "adds": 3,
        "multiplier": 1,
        "roll": "1d+3",
        "damageType": "cut",
        "armorDivisor": 2,
        "tightBeam": False,
        "minimum": 1,
    }


@pytest.mark.parametrize(
    ("notation", "dice", "adds", "multiplier", "roll"),
    [
        ("2d x2 cr", 2, 0, 2, "2dx2"),
        ("6dx2 burn", 6, 0, 2, "6dx2"),
        ("4d×5 cr", 4, 0, 5, "4dx5"),
        ("1d+1x3 cr", 1, 1, 3, "1d+1x3"),
    ],
)
def test_multiplied_dice(notation: str, dice: int, adds: int, multiplier: int, roll: str) -> None:
    weapon = resolve_damage_notation(RURIK, notation)
    assert (weapon.dice, weapon.adds, weapon.multiplier, weapon.dice_notation) == (
        dice,
        adds,
        multiplier,
        roll,
    )


def test_tbb_is_tight_beam_burning() -> None:
    weapon = resolve_damage_notation(RURIK, "3d (2) tbb")
    assert (weapon.damage_type, weapon.tight_beam, weapon.armor_divisor) == ("burn", True, 2)
    assert weapon.to_dict()["damageType"] == "burn" and weapon.to_dict()["tightBeam"] is True


def test_the_minimum_basic_damage_is_1_or_0_for_crushing() -> None:
    assert (
        resolve_damage_notation(RURIK, "thr-3 cr").minimum,
        resolve_damage_notation(RURIK, "1d-3 cut").minimum,
    ) == (0, 1)


def test_ignores_dr_is_written_as_json() -> None:
    assert resolve_damage_notation(RURIK, "1d (∞) burn").to_dict()["armorDivisor"] == "ignoresDR"


def test_a_weapon_goes_to_resolve_hit_without_parsing_text() -> None:
    """Rurik's sw+2 (2) cut, rolled 5, to the neck of a man with DR 4 and HP 10:
    DR 4 / 2 = 2, 5 - 2 = 3, x2 = 6."""
    weapon = resolve_damage_notation(RURIK, "sw+2 (2) cut")
    target = copy.deepcopy(RURIK)
    target["secondary"]["hp"]["value"] = 10
    result = resolve_hit(
        target, 5, weapon.damage_type, location="neck", armor_divisor=weapon.armor_divisor, dr=4
    )
    assert (result.effective_dr, result.penetrating, result.injury) == (2, 3, 6)


def test_thrust_and_swing_come_from_the_document() -> None:
    strong = copy.deepcopy(RURIK)
    strong["damage"]["swing"] = {"notation": "3d-1", "dice": 3, "adds": -1}
    assert resolve_damage_notation(strong, "sw+1 cut").dice_notation == "3d"


def test_every_example_weapon_resolves() -> None:
    for name in ("rurik.json", "jotun.json"):
        document = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
        weapons = document.get("weapons", {})
        lines = [d for w in weapons.get("melee", []) for d in w.get("damage", [])]
        lines += [w["damage"] for w in weapons.get("ranged", []) if "damage" in w]
        for line in lines:
            weapon = resolve_damage_notation(document, line["notation"])
            assert isinstance(weapon, WeaponDamage)
            if "type" in line:
                assert weapon.damage_type == line["type"]
            if "adds" in line and line.get("base") in ("thrust", "swing"):
                assert weapon.adds == document["damage"][line["base"]]["adds"] + line["adds"]


@pytest.mark.parametrize(
    ("notation", "message"),
    [
        ("", "notation: expected 'thr', 'sw' or dice such as '2d':\n  \n  ^"),
        ("swing cut", "notation: expected a space before the damage type:\n  swing cut\n    ^"),
        ("sw+1cut", "notation: expected a space before the damage type:\n  sw+1cut\n      ^"),
        ("sw+ cut", "notation: expected digits after the sign:\n  sw+ cut\n     ^"),
        (
            "sw+1",
            "notation: expected a damage type (cr, cut, imp, pi-, pi, pi+, pi++, burn, tbb, cor, tox, fat):"
            "\n  sw+1\n      ^",
        ),
        ("2d+1 slash", "notation: unknown damage type 'slash':\n  2d+1 slash\n       ^"),
        (
            "sw+2 (4) cut",
            "notation: the armor divisor must be 2, 3, 5, 10, 100, 0.5, 0.2, 0.1 or ∞:"
            "\n  sw+2 (4) cut\n        ^",
        ),
        ("sw+2 (2 cut", "notation: an unclosed '(':\n  sw+2 (2 cut\n       ^"),
        ("2d (2) pi (3)", "notation: a second armor divisor:\n  2d (2) pi (3)\n            ^"),
        ("2d pi ex", "notation: unexpected 'ex' after the damage type:\n  2d pi ex\n        ^"),
        ("HT-3 aff", "notation: expected 'thr', 'sw' or dice such as '2d':\n  HT-3 aff\n  ^"),
        ("2d aff", "notation: affliction damage (aff) is not resolved as a hit:\n  2d aff\n     ^"),
        ("1d spec", "notation: special damage (spec) is not resolved as a hit:\n  1d spec\n     ^"),
        ("2dx0 cr", "notation: the multiplier must be at least 1:\n  2dx0 cr\n     ^"),
        ("1234567d cr", "notation: a number of more than 6 digits:\n  1234567d cr\n  ^"),
    ],
)
def test_bad_notation_points_at_the_position(notation: str, message: str) -> None:
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(RURIK, notation)
    assert caught.value.code == "invalidArgument"
    assert caught.value.message == message
    caret = message.rsplit("\n", 1)[1]
    assert caught.value.details["position"] == len(caret) - 3
    assert caught.value.details["name"] == "notation" and caught.value.details["value"] == notation


@pytest.mark.parametrize("notation", [None, 3, b"sw cut", ["sw", "cut"]])
def test_notation_must_be_text(notation: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(RURIK, notation)
    assert (caught.value.code, caught.value.details["name"]) == ("invalidArgument", "notation")


def test_thrust_or_swing_missing_from_the_document() -> None:
    document = copy.deepcopy(RURIK)
    del document["damage"]["swing"]
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation(document, "sw+1 cut")
    assert (caught.value.code, caught.value.details) == ("invalidDocument", {"pointer": "/damage/swing/dice"})
    assert resolve_damage_notation(document, "2d cut").dice == 2  # fixed dice need no /damage


def test_not_a_document() -> None:
    with pytest.raises(CharacterError) as caught:
        resolve_damage_notation("sw cut", "sw cut")  # type: ignore[arg-type]
    assert caught.value.code == "notAnObject"


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="0123456789dswthrx×+-() .abcimpuoefl∞", max_size=20))
def test_property_any_text_resolves_or_is_refused_with_a_position(text: str) -> None:
    try:
        weapon = resolve_damage_notation(RURIK, text)
    except CharacterError as err:
        assert err.code == "invalidArgument"
        assert 0 <= err.details["position"] <= len(text)
    else:
        assert weapon.dice >= 0 and weapon.multiplier >= 1 and weapon.notation == text
