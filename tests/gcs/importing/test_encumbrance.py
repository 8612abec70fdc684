"""Encumbrance as GCS shows it (issue 19 items 4 and 5): Basic Lift and the load limits in GCS's
pounds at 1 kg = 2 lb, the level, Move and Dodge; and old files (versions 1 and 2) as today's GCS
computes them from the same data, each departure noted."""

from __future__ import annotations

import copy
import json
import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from gurps_character import get_condition, import_gcs, validate_character, verify_character
from tests.support.gcs_grammar import gcs_files
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "gcs"
LOADS = (1, 2, 3, 6, 10)


def gcs_file(st: int, *, calc: dict[str, Any] | None = None, **settings: Any) -> dict[str, Any]:
    """A version 5 character with ST ``st`` (bought as levels), everything else at 10."""
    data: dict[str, Any] = {
        "version": 5,
        "id": "AliftTestAAAAAAAA",
        "total_points": 100,
        "profile": {"name": f"Lifter {st}"},
        "settings": {"damage_progression": "basic_set", "default_weight_units": "lb", **settings},
        "attributes": [{"attr_id": "st", "adj": st - 10}],
    }
    if calc is not None:
        data["calc"] = calc
    return data


def pounds(st: int) -> Fraction:
    """Basic Lift in lb by the Basic Set (B15: ST × ST / 5), as GCS rounds it: a whole pound from
    10 lb (half up), else tenths of a pound (down); none below ST 1. Exact arithmetic."""
    if st < 1:
        return Fraction(0)
    raw = Fraction(st * st, 5)
    if raw >= 10:
        return Fraction(math.floor(raw + Fraction(1, 2)))
    return Fraction(math.floor(raw * 10), 10)


def gcs_text(lb: Fraction) -> str:
    """A weight as GCS writes it: ``29 lb``, ``9.8 lb``, ``31,840 lb``."""
    return f"{float(lb):,.4f}".rstrip("0").rstrip(".") + " lb"


def encumbrance(document: dict[str, Any]) -> tuple[float, list[float]]:
    section = document["encumbrance"]
    return section["basicLift"], [level["maxLoad"] for level in section["levels"]]


def test_basic_lift_and_loads_are_gcss_pounds_in_kg_for_every_st_from_0_to_399() -> None:
    """Computed by GCS's rules (no calc) and read from GCS's saved text: both are the pounds of
    B15 as GCS rounds them, halved exactly (1 kg = 2 lb), every load BL × 1, 2, 3, 6, 10."""
    for st in range(400):
        lb = pounds(st)
        expected = (float(lb / 2), [float(lb * load / 2) for load in LOADS])
        computed = import_gcs(gcs_file(st)).document
        saved = import_gcs(gcs_file(st, calc={"basic_lift": gcs_text(lb)})).document
        assert encumbrance(computed) == expected, st
        assert encumbrance(saved) == expected, st


def test_st_12_lifts_29_lb_which_is_14_5_kg_a_listed_deviation() -> None:
    """B15: 12 × 12 / 5 = 28.8 lb, GCS says 29 lb = 14.5 kg; the format's 14.4 kg rounds to 14."""
    imported = import_gcs(gcs_file(12, calc={"basic_lift": "29 lb"}))
    document = imported.document
    assert encumbrance(document) == (14.5, [14.5, 29, 43.5, 87, 145])
    deviations = {item["pointer"]: item for item in document["integrity"]["deviations"]}
    assert deviations["/encumbrance/basicLift"] == {
        "pointer": "/encumbrance/basicLift",
        "expected": 14,
        "actual": 14.5,
        "justification": "GCS rounds Basic Lift in pounds, not kilograms: ST 12 × 12 / 5 = 28.8 lb → 29 lb, "
        "which is 14.5 kg at 1 kg = 2 lb.",
    }
    assert not any(pointer.endswith("/maxLoad") for pointer in deviations)  # BL × n to 0.1 kg is exact
    assert validate_character(document).valid and verify_character(document).claim_consistent


def test_a_load_limit_that_needs_hundredths_of_a_kg_is_gcss_and_justified() -> None:
    """Knowing Your Own Strength, ST 1: 2 × 10^0.1 = 2.5 lb, 1.25 kg, which the format's formula
    rounds to 1.3 kg: the document keeps GCS's 1.25 and says why."""
    document = import_gcs(gcs_file(1, damage_progression="knowing_your_own_strength")).document
    assert encumbrance(document) == (1.25, [1.25, 2.5, 3.75, 7.5, 12.5])
    deviations = {item["pointer"]: item for item in document["integrity"]["deviations"]}
    assert deviations["/encumbrance/levels/0/maxLoad"]["justification"] == (
        "GCS's load limit is its Basic Lift × 1: 2.5 lb × 1 = 2.5 lb, 1.25 kg at 1 kg = 2 lb "
        "(the format rounds to 0.1 kg)."
    )
    assert verify_character(document).claim_consistent


@pytest.mark.parametrize(
    ("st", "lb"),
    [
        (0, 0),
        (1, 2.5),
        (2, 3.2),
        (3, 4),
        (5, 6.3),
        (7, 10),
        (8, 13),
        (10, 20),
        (12, 32),
        (15, 63),
        (20, 200),
        (30, 2000),
    ],
)
def test_knowing_your_own_strength_lifts_its_published_table(st: int, lb: float) -> None:
    """Pyramid 3/83's table (2 × 10^(ST/10) lb, rounded as the table is; none below ST 1)."""
    document = import_gcs(gcs_file(st, damage_progression="knowing_your_own_strength")).document
    assert document["encumbrance"]["basicLift"] == lb / 2


def test_the_encumbrance_level_of_a_load_on_the_limit_is_gcss() -> None:
    """ST 12 carrying exactly 29 lb: GCS's None (29 ≤ 29), where 14 kg limits made it Light."""
    data = gcs_file(12, calc={"basic_lift": "29 lb", "move": [5, 4, 3, 2, 1], "dodge": [8, 7, 6, 5, 4]})
    data["equipment"] = [
        {"id": "ebagAAAAAAAAAAAAA", "description": "Bag of Stones", "quantity": 1, "base_weight": "29 lb",
         "calc": {"value": 0, "extended_value": 0, "weight": "29 lb", "extended_weight": "29 lb"}}
    ]  # fmt: skip
    document = import_gcs(data).document
    carried = document["possessionsTotal"]["weight"]
    level = next(
        i for i, entry in enumerate(document["encumbrance"]["levels"]) if carried <= entry["maxLoad"]
    )
    assert (carried, level) == (14.5, 0)


def test_halved_st_halves_the_lift_as_gcs_does() -> None:
    """FP 3 of 12 is GCS's Tired: ST 12 lifts as 6, 36 / 5 = 7.2 lb."""
    data = gcs_file(12)
    data["attributes"] += [{"attr_id": "ht", "adj": 2}, {"attr_id": "fp", "adj": 0, "damage": 9}]
    document = import_gcs(data).document
    assert document["encumbrance"]["basicLift"] == 3.6


# ---------------------------------------------------------------- old versions as today's GCS shows them


def test_a_version_1_file_at_low_fp_is_halved_as_todays_gcs_shows_it() -> None:
    """GCS 4.x saved no state; today's GCS gives a version 1 file its standard FP states: FP 3 of
    12 is Tired, halving Move (6 → 3), Dodge (9 → 5, rounded up) and ST for lifting (7.2 lb)."""
    imported = import_gcs((FIXTURES / "v1_tired.gcs").read_bytes())
    document = imported.document
    levels = document["encumbrance"]["levels"]
    assert [(level["move"], level["dodge"]) for level in levels] == [(3, 5), (2, 4), (1, 3), (1, 2), (1, 1)]
    assert (document["encumbrance"]["basicLift"], document["defenses"]["dodge"]["value"]) == (3.6, 5)
    assert [note.message for note in imported.notes if note.source == "/FP_adj"] == [
        "The file defines no attributes (version 1): GCS's standard states apply, and FP 'Tired' "
        "(FP 3 of 12) halves Move, Dodge, ST."
    ]
    condition = get_condition(document)  # the states of the moment (no stored copy to go stale)
    assert (condition.fp.state, condition.hp.state) == ("tired", "healthy")
    assert verify_character(document).claim_consistent


STALE_NOTES = {
    "/calc/basic_lift": "The Basic Lift this version 2 file saved (28 lb) is not what the current GCS "
    "computes from it (29 lb): the import uses the current GCS's.",
    "/calc/move": "The Move per encumbrance level this version 2 file saved ([5, 4, 3, 2, 1]) is not what "
    "the current GCS computes from it ([3, 2, 1, 1, 1]): the import uses the current GCS's.",
    "/calc/dodge": "The Dodge per encumbrance level this version 2 file saved ([8, 7, 6, 5, 4]) is not what "
    "the current GCS computes from it ([5, 4, 3, 2, 1]): the import uses the current GCS's.",
    "/calc/swing": "The swing this version 2 file saved (1d+1) is not what the current GCS computes from "
    "it (1d+2): the import uses the current GCS's.",
    "/settings/hit_locations": "The DR this version 2 file saved is not what the current GCS computes from "
    "it: Skull DR 2 → DR 4; Torso DR 2 → DR 1; Arm DR 0 → DR 1. The import uses the current GCS's.",
}


def test_a_version_2_files_stale_values_are_todays_gcss_with_a_note_each() -> None:
    """GCS 4.x saved this file before Reeling halved Move and Dodge (HP 2 of 12), with its own
    rounding of Basic Lift and swing, and DR without the armor's: today's GCS computes others."""
    imported = import_gcs((FIXTURES / "v2_stale.gcs").read_bytes())
    document = imported.document
    notes = {note.source: note.message for note in imported.notes if "current GCS" in note.message}
    assert notes == STALE_NOTES
    levels = document["encumbrance"]["levels"]
    assert [(level["move"], level["dodge"]) for level in levels] == [(3, 5), (2, 4), (1, 3), (1, 2), (1, 1)]
    assert (document["encumbrance"]["basicLift"], document["damage"]["swing"]["notation"]) == (14.5, "1d+2")
    dr = {entry["location"]: entry["dr"] for entry in document["damageResistance"]}
    assert dr == {"Skull": 2, "Torso": 1, "Arm": 1}  # the skull's 4 less its natural 2
    assert validate_character(document).valid and verify_character(document).claim_consistent


def test_a_version_2_attribute_saved_otherwise_has_todays_value_and_its_points() -> None:
    data = json.loads((FIXTURES / "v2_stale.gcs").read_text(encoding="utf-8"))
    data["attributes"][0]["calc"] = {"value": 11, "points": 10}  # ST adj 2 is 12 and 20 points
    imported = import_gcs(data)
    # The value is today's; the points are the ones the file counted in its points spent.
    assert imported.document["attributes"]["st"] == {"value": 12, "points": 10}
    assert [note.message for note in imported.notes if note.source == "/attributes/0"] == [
        "ST 11 (10 points), as this version 2 file saved it, is not what the current GCS computes from it "
        "(12, 20 points): the import uses the current GCS's value and keeps the file's points, which "
        "GCS 4.x showed and counted in its points spent.",
        "/attributes/st/points is GCS's 10 where the format's formula gives 20: listed in "
        "integrity.deviations.",
    ]


def test_a_version_4_or_5_files_saved_values_are_trusted() -> None:
    """The same data saved by a Go GCS (version 4) is GCS's own computation: kept, no note."""
    data = json.loads((FIXTURES / "v2_stale.gcs").read_text(encoding="utf-8"))
    newer = copy.deepcopy(data)
    newer["version"] = 4
    newer["traits"] = newer.pop("advantages")
    newer["settings"]["body_type"] = newer["settings"].pop("hit_locations")
    imported = import_gcs(newer)
    assert not [note for note in imported.notes if "current GCS" in note.message]
    document = imported.document
    assert document["encumbrance"]["basicLift"] == 14 and document["damage"]["swing"]["notation"] == "1d+1"
    assert [level["move"] for level in document["encumbrance"]["levels"]] == [5, 4, 3, 2, 1]


def test_a_file_that_defines_no_attributes_keeps_a_fractional_basic_speed() -> None:
    """GCS's standard set types Basic Speed as a decimal: DX 11, HT 10 give 5.25 (it was 5)."""
    data = gcs_file(10)
    data["attributes"] += [{"attr_id": "dx", "adj": 1}, {"attr_id": "basic_speed", "adj": 0}]
    document = import_gcs(data).document
    assert document["secondary"]["basicSpeed"]["value"] == 5.25


GRAMMAR = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example],
)


@GRAMMAR
@given(data=gcs_files())
def test_property_a_saved_basic_lift_is_kept_exactly_and_its_loads_are_its_multiples(
    data: dict[str, Any],
) -> None:
    """Any plausible file a Go GCS saved (version 4, 5) with its Basic Lift: the document's is that
    weight at 1 kg = 2 lb, and each level's load limit that × 1, 2, 3, 6, 10."""
    calc = data.get("calc")
    if data["version"] < 4 or not isinstance(calc, dict):
        return
    lb = Fraction(calc["basic_lift"].removesuffix(" lb").replace(",", ""))
    lift, loads = encumbrance(import_gcs(data).document)
    assert lift == float(lb / 2) and loads == [float(lb * load / 2) for load in LOADS]
