"""A weapon's damage text resolved for a character (B269-B271): dice, adds, type, armor divisor."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import CharacterError, WeaponDamage, resolve_damage_notation, resolve_hit
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
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
        ("1d-2(4) imp", 4),
        ("1d-2 (1.5) pi", 1.5),
        ("sw+2 (2.5) cut", 2.5),
        ("2d (0.25) cr", 0.25),
        ("2d (0.001) cr", 0.001),
        ("2d (1000) cr", 1000),
        ("2d (4.0000) cr", 4),
        ("2d (1) cr", 1),
        ("2d ( 2 ) pi", 2),
    ],
)
def test_the_armor_divisor_is_read_before_or_after_the_type(notation: str, divisor: float) -> None:
    assert resolve_damage_notation(RURIK, notation).armor_divisor == divisor


def test_any_divisor_gcs_writes_goes_on_to_resolve_hit() -> None:
    """GCS prints 1d-2(4) imp for a divisor raised by a weapon_dr_divisor_bonus: DR 9 / 4 = 2.25,
    rounded down to 2, so 6 - 2 = 4 penetrate; (1.5) against DR 5 leaves 3 (3.33 rounded down)."""
    spines = resolve_damage_notation(RURIK, "1d-2(4) imp")
    assert (spines.armor_divisor, type(spines.armor_divisor)) == (4, int)
    assert spines.to_dict()["armorDivisor"] == 4
    hit = resolve_hit(RURIK, 6, "imp", armor_divisor=spines.armor_divisor, dr=9)
    assert (hit.effective_dr, hit.penetrating) == (2, 4)
    jab = resolve_damage_notation(RURIK, "1d-2 (1.5) pi")
    assert resolve_hit(RURIK, 6, "pi", armor_divisor=jab.armor_divisor, dr=5).effective_dr == 3


@pytest.mark.parametrize(
    ("notation", "dice", "adds", "word"),
    [
        ("1d aff", 1, 0, "aff"),
        ("2d spec.", 2, 0, "spec."),
        ("2d spec", 2, 0, "spec"),
        ("3d-1 AFF", 3, -1, "aff"),
        ("sw+1 spec.", 1, 2, "spec."),
        ("1d (2) aff", 1, 0, "aff"),
        ("1d spec./point", 1, 0, "spec."),
    ],
)
def test_dice_of_affliction_and_special_damage_roll_with_no_type(
    notation: str, dice: int, adds: int, word: str
) -> None:
    """GCS's 1d aff and 2d spec. start with dice: they roll, but no hit resolves them (damage_type
    None, the word as written in type_text, as for ctrl); text without dice stays refused."""
    weapon = resolve_damage_notation(RURIK, notation)
    assert (weapon.dice, weapon.adds, weapon.damage_type, weapon.type_text) == (dice, adds, None, word)
    assert weapon.to_dict()["typeText"] == word
    assert weapon.to_dict()["damageType"] is None


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
    assert weapon.damage_type is not None
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
        (
            "2d+1 #",
            "notation: expected a damage type (cr, cut, imp, pi-, pi, pi+, pi++, burn, tbb, cor, tox, fat):"
            "\n  2d+1 #\n       ^",
        ),
        (
            "sw+2 (1001) cut",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:"
            "\n  sw+2 (1001) cut\n        ^",
        ),
        (
            "sw+2 (0) cut",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:"
            "\n  sw+2 (0) cut\n        ^",
        ),
        (
            "2d (0.0009) cr",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:"
            "\n  2d (0.0009) cr\n      ^",
        ),
        (
            "2d (-2) cr",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:\n  2d (-2) cr\n      ^",
        ),
        (
            "2d (1.5.2) cr",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:"
            "\n  2d (1.5.2) cr\n      ^",
        ),
        (
            "2d (two) cr",
            "notation: the armor divisor must be a number from 0.001 to 1000, or ∞:\n  2d (two) cr\n      ^",
        ),
        (
            "2d (1.1234567) cr",
            "notation: a number of more than 6 digits:\n  2d (1.1234567) cr\n        ^",
        ),
        ("sw+2 (2 cut", "notation: an unclosed '(':\n  sw+2 (2 cut\n       ^"),
        ("2d (2) pi (3)", "notation: a second armor divisor:\n  2d (2) pi (3)\n            ^"),
        ("2d pi extra", "notation: unexpected 'extra' after the damage type:\n  2d pi extra\n        ^"),
        ("2d pi ex ex", "notation: unexpected 'ex' after the damage type:\n  2d pi ex ex\n           ^"),
        ("2d pi 3", "notation: unexpected '3' after the damage type:\n  2d pi 3\n        ^"),
        (
            "thr-1 cr +1d",
            "notation: a step of dice such as '+1d' needs '/point' or '/2 points':"
            "\n  thr-1 cr +1d\n              ^",
        ),
        (
            "1d cr +x/point",
            "notation: expected dice such as '+1d' before '/point':\n  1d cr +x/point\n        ^",
        ),
        (
            "1d burn/0 points",
            "notation: the points per step must be at least 1:\n  1d burn/0 points\n          ^",
        ),
        (
            "1d burn/point/point",
            "notation: unexpected '/point' after the damage type:\n  1d burn/point/point\n               ^",
        ),
        (
            "1d burn/point +1d/point +1d/point",
            "notation: unexpected '/point +1d/point' after the damage type:"
            "\n  1d burn/point +1d/point +1d/point\n                   ^",
        ),
        ("2 +1 burn", "notation: expected dice such as '+1d' before '/point':\n  2 +1 burn\n    ^"),
        ("HT-3 aff", "notation: expected 'thr', 'sw' or dice such as '2d':\n  HT-3 aff\n  ^"),
        ("spec.", "notation: expected 'thr', 'sw' or dice such as '2d':\n  spec.\n  ^"),
        ("aff", "notation: expected 'thr', 'sw' or dice such as '2d':\n  aff\n  ^"),
        ("2d cut.", "notation: unexpected '.' after the damage type:\n  2d cut.\n        ^"),
        ("2d spec..", "notation: unexpected '.' after the damage type:\n  2d spec..\n          ^"),
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


# ---------------------------------------------------------------- GCS's damage texts (issue 19)


@pytest.mark.parametrize(
    ("notation", "base", "dice", "adds", "damage_type", "per_points", "step", "modifiers"),
    [
        # Rurik: thrust 1d-1, swing 1d+1.
        ("1d-1 burn/point", "fixed", 1, -1, "burn", 1, (0, 0), ()),
        ("1d+1 burn/point", "fixed", 1, 1, "burn", 1, (0, 0), ()),
        ("1d-1 burn/2 points", "fixed", 1, -1, "burn", 2, (0, 0), ()),
        ("1d cr ex/2 points", "fixed", 1, 0, "cr", 2, (0, 0), ("ex",)),
        ("1d burn ex/2 points", "fixed", 1, 0, "burn", 2, (0, 0), ("ex",)),
        ("1d burn per point", "fixed", 1, 0, "burn", 1, (0, 0), ()),
        ("1d burn per 3 points", "fixed", 1, 0, "burn", 3, (0, 0), ()),
        ("1d-1 imp/point", "fixed", 1, -1, "imp", 1, (0, 0), ()),
        # thr-1: 1d-1 - 1 = 1d-2, and 1d more per point
        ("thr-1 cr +1d/point", "thrust", 1, -2, "cr", 1, (1, 0), ()),
        ("thr-1 cr +1d+1/2 points", "thrust", 1, -2, "cr", 2, (1, 1), ()),
        # the step may come before the type, as GCS's "1d-3 +1d burn/point"
        ("1d-3 +1d burn/point", "fixed", 1, -3, "burn", 1, (1, 0), ()),
        ("2d pi ex", "fixed", 2, 0, "pi", 0, (0, 0), ("ex",)),
        ("3d cr ex inc", "fixed", 3, 0, "cr", 0, (0, 0), ("ex", "inc")),
        ("6d burn sur dkb nkb rad", "fixed", 6, 0, "burn", 0, (0, 0), ("sur", "dkb", "nkb", "rad")),
        # a plain amount is fixed damage without dice
        ("2 burn", "fixed", 0, 2, "burn", 0, (0, 0), ()),
        ("2 tox/point", "fixed", 0, 2, "tox", 1, (0, 0), ()),
        ("sw+2 cut/point", "swing", 1, 3, "cut", 1, (0, 0), ()),
    ],
)
def test_per_point_damage_and_modifiers(
    notation: str,
    base: str,
    dice: int,
    adds: int,
    damage_type: str,
    per_points: int,
    step: tuple[int, int],
    modifiers: tuple[str, ...],
) -> None:
    weapon = resolve_damage_notation(RURIK, notation)
    assert (weapon.base, weapon.dice, weapon.adds, weapon.damage_type) == (base, dice, adds, damage_type)
    assert (weapon.per_points, (weapon.step_dice, weapon.step_adds), weapon.modifiers) == (
        per_points,
        step,
        modifiers,
    )
    assert weapon.type_text == damage_type and weapon.multiplier == 1


def test_a_divisor_may_follow_the_modifiers() -> None:
    weapon = resolve_damage_notation(RURIK, "3d cr ex (2)")
    assert (weapon.armor_divisor, weapon.modifiers) == (2, ("ex",))


@pytest.mark.parametrize(
    ("notation", "dice", "adds", "word"),
    [
        ("thr ctrl", 1, -1, "ctrl"),  # GCS's control damage: thrust 1d-1
        ("3d+2 control", 3, 2, "control"),
        ("1d-1 dehydrate/point", 1, -1, "dehydrate"),
        ("1d freezing/point", 1, 0, "freezing"),
        ("2d+1 slash", 2, 1, "slash"),
        ("1d+1 damage", 1, 1, "damage"),
    ],
)
def test_a_damage_word_no_hit_resolves_has_no_type(notation: str, dice: int, adds: int, word: str) -> None:
    weapon = resolve_damage_notation(RURIK, notation)
    assert (weapon.dice, weapon.adds, weapon.damage_type, weapon.type_text) == (dice, adds, None, word)
    found = weapon.to_dict()
    assert found["damageType"] is None and found["typeText"] == word
    assert weapon.minimum == 1


def test_resolve_hit_takes_a_type_not_none() -> None:
    """A damage without a type is rolled, but no hit resolves it."""
    weapon = resolve_damage_notation(RURIK, "thr ctrl")
    with pytest.raises(CharacterError) as caught:
        resolve_hit(RURIK, 3, weapon.damage_type)  # type: ignore[arg-type]
    assert (caught.value.code, caught.value.details["name"]) == ("invalidArgument", "damage_type")


def test_per_point_damage_as_json() -> None:
    """1d-1 per point, +1d per 2 points on thrust 1d-1 - 1; the extra keys only when they say something."""
    assert resolve_damage_notation(RURIK, "thr-1 cr +1d/2 points").to_dict() == {
        "notation": "thr-1 cr +1d/2 points",
        "base": "thrust",
        "dice": 1,
        "adds": -2,
        "multiplier": 1,
        "roll": "1d-2",
        "damageType": "cr",
        "armorDivisor": 1,
        "tightBeam": False,
        "minimum": 0,
        "perPoints": 2,
        "stepDice": 1,
        "stepAdds": 0,
    }
    assert resolve_damage_notation(RURIK, "1d cr ex").to_dict()["modifiers"] == ["ex"]
    assert "perPoints" not in resolve_damage_notation(RURIK, "1d cr").to_dict()


_BASES = st.one_of(
    st.tuples(st.sampled_from(["thr", "sw"]), st.integers(-20, 20)).map(
        lambda pair: (pair[0], 0, pair[1], pair[0] + (f"{pair[1]:+d}" if pair[1] else ""))
    ),
    st.tuples(st.integers(0, 99), st.integers(-20, 20)).map(
        lambda pair: ("fixed", pair[0], pair[1], f"{pair[0]}d" + (f"{pair[1]:+d}" if pair[1] else ""))
    ),
)
_TYPE_WORDS = st.one_of(
    st.sampled_from(["cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "tbb", "cor", "tox", "fat"]),
    st.from_regex(r"[a-z]{3,9}\.?", fullmatch=True).filter(
        lambda word: word.rstrip(".") not in ("per", "cut", "imp", "burn", "tbb", "cor", "tox", "fat")
    ),
)


@settings(max_examples=300, deadline=None)
@given(
    base=_BASES,
    word=_TYPE_WORDS,
    modifiers=st.lists(st.sampled_from(["ex", "inc", "sur", "dkb", "nkb", "rad"]), unique=True, max_size=3),
    per_points=st.integers(1, 12),
    step=st.one_of(st.none(), st.tuples(st.integers(1, 9), st.integers(-3, 3))),
    per_words=st.booleans(),
)
def test_property_per_point_notations_read_back_their_parts(
    base: tuple[str, int, int, str],
    word: str,
    modifiers: list[str],
    per_points: int,
    step: tuple[int, int] | None,
    per_words: bool,
) -> None:
    """Any thrust, swing or dice notation with a per-point suffix (and modifiers, a step) gives
    back the parts it was written with."""
    kind, dice, adds, base_text = base
    if per_words:
        per = " per point" if per_points == 1 else f" per {per_points} points"
    else:
        per = "/point" if per_points == 1 else f"/{per_points} points"
    text = f"{base_text} {word}" + "".join(f" {name}" for name in modifiers)
    if step is not None:
        text += f" +{step[0]}d" + (f"{step[1]:+d}" if step[1] else "")
    text += per
    weapon = resolve_damage_notation(RURIK, text)
    base_name = {"thr": "thrust", "sw": "swing"}.get(kind, kind)
    character = {"thr": (1, -1), "sw": (1, 1)}.get(kind, (dice, 0))
    assert (weapon.base, weapon.dice, weapon.adds) == (base_name, character[0], character[1] + adds)
    assert weapon.type_text == word and weapon.per_points == per_points
    assert weapon.modifiers == tuple(modifiers)
    assert (weapon.step_dice, weapon.step_adds) == (step or (0, 0))
    expected_type = {"tbb": "burn"}.get(word, word)
    known = word in ("cr", "cut", "imp", "pi-", "pi", "pi+", "pi++", "burn", "tbb", "cor", "tox", "fat")
    assert weapon.damage_type == (expected_type if known else None)
