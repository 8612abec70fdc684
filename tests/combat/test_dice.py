"""Dice that roll: ``Dice.roll`` and ``WeaponDamage.roll`` (B269 minimums, multipliers, an
injectable ``random.Random`` for repeatable rolls)."""

from __future__ import annotations

import dataclasses
import json
import random
import statistics
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gurps_character import CharacterError, WeaponDamage, resolve_damage_notation
from gurps_character.formula import Dice, FormulaError, parse_dice
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
RURIK: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
# Rurik: ST 11, thrust 1d-1, swing 1d+1.


class Loaded(random.Random):
    """A die that always shows ``face``: the arithmetic around the dice, with nothing random."""

    def __init__(self, face: int) -> None:
        super().__init__(0)
        self.face = face
        self.thrown = 0

    def randint(self, a: int, b: int) -> int:
        assert (a, b) == (1, 6), "six-sided dice"
        self.thrown += 1
        return self.face


def weapon(notation: str) -> WeaponDamage:
    return resolve_damage_notation(RURIK, notation)


# ---------------------------------------------------------------- Dice.roll


@pytest.mark.parametrize(
    ("notation", "face", "total"),
    [
        ("3d", 1, 3),
        ("3d", 6, 18),
        ("2d+1", 4, 9),
        ("1d-2", 5, 3),
        ("1d-3", 1, 0),  # 1 - 3 = -2: dice never roll below 0
        ("1d-6", 6, 0),
        ("0d+2", 3, 2),
    ],
)
def test_dice_roll_adds_the_faces_and_the_adds_at_least_0(notation: str, face: int, total: int) -> None:
    dice = parse_dice(notation)
    assert dice is not None
    rng = Loaded(face)
    assert dice.roll(rng) == total
    assert rng.thrown == dice.dice  # one throw per die


@given(st.integers(0, 40), st.integers(-30, 30), st.integers(0, 2**32))
def test_dice_roll_stays_within_what_the_dice_show(dice: int, adds: int, seed: int) -> None:
    rolled = Dice(f"{dice}d{adds:+d}", dice, adds).roll(random.Random(seed))
    assert max(0, dice + adds) <= rolled <= max(0, 6 * dice + adds)


@given(st.integers(0, 2**64))
def test_the_same_seed_rolls_the_same(seed: int) -> None:
    dice = Dice("5d+1", 5, 1)
    assert dice.roll(random.Random(seed)) == dice.roll(random.Random(seed))
    assert weapon("sw+1 cut").roll(random.Random(seed)) == weapon("sw+1 cut").roll(random.Random(seed))


def test_3d_averages_10_5_and_shows_every_total() -> None:
    """3d's mean is 10.5 and every total from 3 to 18 comes up (10,000 rolls of a seeded generator)."""
    rng = random.Random(2024)
    rolls = [Dice("3d", 3, 0).roll(rng) for _ in range(10_000)]
    assert abs(statistics.fmean(rolls) - 10.5) < 0.1
    assert set(rolls) == set(range(3, 19))


def test_dice_roll_without_rng_uses_the_systems_randomness() -> None:
    rolls = {Dice("1d", 1, 0).roll() for _ in range(300)}
    assert rolls == {1, 2, 3, 4, 5, 6}


def test_dice_roll_refuses_a_seed_for_an_rng_and_too_many_dice() -> None:
    with pytest.raises(FormulaError) as caught:
        Dice("1d", 1, 0).roll(42)  # type: ignore[arg-type]
    assert str(caught.value) == "rng must be a random.Random (such as random.Random(42)) or None, not 42"
    with pytest.raises(FormulaError) as caught:
        Dice("10001d", 10_001, 0).roll(random.Random(1))
    assert str(caught.value) == "cannot roll 10001 dice: a whole number from 0 to 10000 is needed"
    with pytest.raises(FormulaError):
        Dice("-1d", -1, 0).roll(random.Random(1))
    with pytest.raises(FormulaError):
        Dice("1d", 1, 0.5).roll(random.Random(1))


# ---------------------------------------------------------------- WeaponDamage.roll


@pytest.mark.parametrize(
    ("notation", "face", "total"),
    [
        ("sw+1 cut", 3, 5),  # Rurik's swing 1d+1, +1: 1d+2
        ("thr-1 cr", 1, 0),  # 1d-2 crushing: 1 - 2 = -1, at least 0 (B269)
        ("thr-1 cut", 1, 1),  # 1d-2 cutting: at least 1 (B269)
        ("1d-5 pi", 6, 1),
        ("1d-5 cr", 6, 1),
        ("1d-6 cr", 6, 0),
        ("6dx2 cr", 6, 72),  # (6 x 6) x 2
        ("6dx2 cr", 1, 12),
        ("2d+1x3 cut", 2, 15),  # (2 + 2 + 1) x 3
        ("1d-3x2 imp", 1, 1),  # (1 - 3) x 2 = -4, at least 1
        ("3d (2) pi", 4, 12),
    ],
)
def test_weapon_roll_multiplies_and_keeps_the_b269_minimum(notation: str, face: int, total: int) -> None:
    damage = weapon(notation)
    rng = Loaded(face)
    assert damage.roll(rng) == total
    assert rng.thrown == damage.dice


@given(st.integers(0, 2**32))
def test_a_rolled_weapon_stays_within_its_dice(seed: int) -> None:
    damage = weapon("2d-1x2 cut")
    rolled = damage.roll(random.Random(seed))
    assert rolled % 2 == 0 and 2 * (2 - 1) <= rolled <= 2 * (12 - 1)


def test_dice_notation_is_the_text_and_to_dict_keeps_roll() -> None:
    damage = weapon("sw+1 cut")
    assert damage.dice_notation == "1d+2"
    assert damage.to_dict()["roll"] == "1d+2"
    assert weapon("6dx2 cr").dice_notation == "6dx2"
    assert weapon("thr-1 cr").dice_notation == "1d-2"


def test_weapon_roll_refuses_a_seed_for_an_rng_and_too_many_dice() -> None:
    with pytest.raises(CharacterError) as caught:
        weapon("sw cut").roll(7)  # type: ignore[arg-type]
    assert caught.value.code == "invalidArgument"
    assert caught.value.message == "rng must be a random.Random (such as random.Random(42)) or None, not 7."
    assert caught.value.details == {"name": "rng", "value": 7}
    with pytest.raises(CharacterError) as caught:
        weapon("20000d cr").roll(random.Random(1))
    assert caught.value.message == "dice must be a number of dice from 0 to 10,000 to be rolled, not 20000."


# ---------------------------------------------------------------- a WeaponDamage the library did not make


def rebuilt(data: dict[str, Any]) -> WeaponDamage:
    """A WeaponDamage made again from ``to_dict()``'s keys, as an engine that stored it might."""
    divisor = data["armorDivisor"]
    return WeaponDamage(
        data["notation"],
        data["base"],
        data["dice"],
        data["adds"],
        data["multiplier"],
        data["damageType"],
        float("inf") if divisor == "ignoresDR" else divisor,
        data["tightBeam"],
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"dice": 1.5}, "its dice is 1.5, not a whole number of at least 0."),
        ({"dice": True}, "its dice is True, not a whole number of at least 0."),
        ({"dice": -1}, "its dice is -1, not a whole number of at least 0."),
        (
            {"dice": 10**400},
            f"its dice is 1{'0' * 37}...{'0' * 39}, not a whole number of at least 0 that a double holds.",
        ),
        ({"adds": float("inf")}, "its adds is inf, not a whole number."),
        ({"adds": 0.5}, "its adds is 0.5, not a whole number."),
        ({"adds": None}, "its adds is None, not a whole number."),
        ({"multiplier": True}, "its multiplier is True, not a whole number of at least 1."),
        ({"multiplier": 0}, "its multiplier is 0, not a whole number of at least 1."),
        ({"multiplier": 2.0}, "its multiplier is 2.0, not a whole number of at least 1."),
        ({"damage_type": "zap"}, "its damage_type is 'zap', not a damage type or None."),
    ],
)
def test_a_changed_weapon_damage_is_refused_before_it_rolls(changes: dict[str, Any], message: str) -> None:
    """As apply_hit checks its Hit: a value changed with dataclasses.replace raised a TypeError
    (the last-resort guard) or rolled fractional, infinite or boolean dice."""
    changed = dataclasses.replace(weapon("sw+1 cut"), **changes)
    with pytest.raises(CharacterError) as caught:
        changed.roll(random.Random(1))
    assert caught.value.code == "invalidArgument" and caught.value.__cause__ is None
    assert caught.value.message == f"damage is not what resolve_damage_notation gives: {message}"
    assert caught.value.details["name"] == "damage" and caught.value.details["field"] == next(iter(changes))


def test_a_weapon_damage_rebuilt_from_its_dict_rolls_as_the_original() -> None:
    """Rebuilt from to_dict() through JSON, it rolls as the original; from a text that writes
    its dice as 1.0 (as a JavaScript engine may), it is refused."""
    for notation in ("sw+1 cut", "6dx2 cr", "1d-3x2 imp", "3d (2) pi", "2d burn"):
        original = weapon(notation)
        again = rebuilt(json.loads(json.dumps(original.to_dict())))
        assert again.roll(Loaded(4)) == original.roll(Loaded(4))
    text = json.dumps(weapon("sw+1 cut").to_dict()).replace('"dice": 1,', '"dice": 1.0,')
    with pytest.raises(CharacterError) as caught:
        rebuilt(json.loads(text)).roll(random.Random(1))
    assert caught.value.details == {"name": "damage", "field": "dice", "value": 1.0}


@given(
    st.sampled_from(["dice", "adds", "multiplier", "damage_type"]),
    st.one_of(
        st.integers(-(2**60), 2**60),
        st.floats(),
        st.booleans(),
        st.none(),
        st.text(max_size=4),
        st.sampled_from(["cr", "cut", "fat", 10**400]),
    ),
)
def test_any_changed_weapon_damage_rolls_a_whole_number_or_is_refused(field: str, value: Any) -> None:
    changed = dataclasses.replace(weapon("2d+1 cut"), **{field: value})
    try:
        rolled = changed.roll(random.Random(3))
    except CharacterError as error:
        assert error.code == "invalidArgument" and error.__cause__ is None
        json.dumps(error.to_dict())
        return
    assert type(rolled) is int and rolled >= changed.minimum
