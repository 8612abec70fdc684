"""The importer's small readers: GCS units to metric by the GURPS rule, dice, attribute bases."""

from __future__ import annotations

import pytest

from gurps_character.gcs.format.units import dice, height_text, kilograms, weight_text
from gurps_character.gcs.importing.expressions import evaluate_base

VALUES = {"st": 12.0, "dx": 11.0, "ht": 13.0, "basic_speed": 6.0, "hp": 12.0}


@pytest.mark.parametrize(
    ("value", "unit", "kg"),
    [
        ("3 lb", "lb", 1.5),
        ("1,234.5 lb", "lb", 617.25),
        ("8 oz", "lb", 0.25),  # 1/16 lb each
        ("2 kg", "lb", 2.0),
        ("500 g", "lb", 0.5),
        ("1 t", "lb", 1000.0),
        ("4 #", "lb", 2.0),
        (6, "lb", 3.0),  # a bare number is in the file's default unit
        ("6", "kg", 6.0),
    ],
)
def test_weights_by_the_gurps_metric_rule(value: object, unit: str, kg: float) -> None:
    assert kilograms(value, unit) == pytest.approx(kg)


@pytest.mark.parametrize("value", ["heavy", "3 stone", "", None, [], True, "1" * 80, "2e3 lb"])
def test_what_is_no_weight(value: object) -> None:
    assert kilograms(value) is None


def test_profile_units() -> None:
    assert weight_text("115 lb") == "57.5 kg"
    assert height_text("5'6\"") == "165 cm"  # 66 inches × 2.5 cm
    assert height_text("6' 1\"") == "182.5 cm"
    assert height_text("tall") is None


@pytest.mark.parametrize(
    ("notation", "parsed"),
    [("1d-2", (1, -2)), ("2d", (2, 0)), ("1d+0", (1, 0)), ("3d6+1", (3, 1)), (" 2d - 1 ", (2, -1))],
)
def test_six_sided_dice(notation: str, parsed: tuple[int, int]) -> None:
    assert dice(notation) == parsed


@pytest.mark.parametrize("notation", ["1d10", "2d3+1", "sw+1", "", "d6"])
def test_other_dice_are_not_read(notation: str) -> None:
    assert dice(notation) is None


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("10", 10.0),
        ("$st", 12.0),
        ("($dx + $ht) / 4", 6.0),
        ("($dx+$ht)/4", 6.0),
        ("floor($basic_speed)", 6.0),
        ("Math.floor($basic_speed)", 6.0),
        ("Math.ceil($hp / 3) - 1", 3.0),
        ("round($hp/5)", 2.0),
        ("-$hp", -12.0),
        ("Math.round(-$hp * 5)", -60.0),
        ("$hp.current", 12.0),
        ("max($st, $ht)", 13.0),
        ("Math.min($st, $dx, 20) + 1", 12.0),
        ("max(($dx + $ht) / 4, 6.5)", 6.5),
    ],
)
def test_attribute_bases_old_and_script(expression: str, value: float) -> None:
    assert evaluate_base(expression, VALUES.get) == value


@pytest.mark.parametrize(
    "expression",
    ["$unknown", "max()", "max($st,)", "min($st 3)", "$st +", "(1", "1 / 0", "x" * 300, "if($st > 10, 1, 2)"],
)
def test_what_the_evaluator_does_not_guess(expression: str) -> None:
    assert evaluate_base(expression, VALUES.get) is None
