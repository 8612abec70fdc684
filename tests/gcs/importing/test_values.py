"""The numbers an import gives, worked out by hand from GCS's rules, for what only the shared GCS
files (or nothing) checked (issue 22 item 14): old-version settings, the spellings GCS writes,
rounding, limits and counts at 0, 1, 2 and many. Small files of our own, so a clone without
``../shared`` checks them too."""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from gurps_character import import_gcs, validate_character, verify_character
from gurps_character.gcs.format.features import collect_features
from gurps_character.gcs.importing.context import Context
from gurps_character.gcs.importing.integrity import integrity_section
from gurps_character.gcs.importing.notes import NoteLog
from tests.support import gcs_built, gcs_samples

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def imported(data: dict[str, Any]) -> dict[str, Any]:
    result = import_gcs(data, now=NOW)
    assert validate_character(result.document).valid
    assert verify_character(result.document).claim_consistent
    return result.document


# ---------------------------------------------------------------- version 1 settings


def _version1(**settings: bool) -> dict[str, Any]:
    data = gcs_samples.minimal(1)
    data.update({"IQ": 14, "will_adj": 1, "per_adj": -2})
    data["settings"] = dict(settings)
    return data


@pytest.mark.parametrize(
    ("settings", "will", "per"),
    [
        ({}, 15, 12),  # on IQ 14: 14 + 1, 14 - 2
        ({"base_will_on_10": True}, 11, 12),  # Will on 10: 10 + 1
        ({"base_per_on_10": True}, 15, 8),  # Per on 10: 10 - 2
        ({"base_will_on_10": True, "base_per_on_10": True}, 11, 8),
        ({"base_will_on_10": False, "base_per_on_10": False}, 15, 12),
    ],
)
def test_version_1_settings_base_will_and_per_on_10_or_iq(
    settings: dict[str, bool], will: int, per: int
) -> None:
    document = imported(_version1(**settings))
    assert document["secondary"]["will"]["value"] == will
    assert document["secondary"]["per"]["value"] == per
    assert document["secondary"]["will"]["points"] == 5  # +1 bought at 5 a level, whatever the base
    assert document["secondary"]["per"]["points"] == -10


# ---------------------------------------------------------------- attribute bonus limitations


def _with_st_bonus(limitation: object) -> dict[str, Any]:
    data = gcs_built.without_calc(gcs_samples.character(units=2))
    feature: dict[str, Any] = {"type": "attribute_bonus", "attribute": "st", "amount": 2}
    if limitation is not None:
        feature["limitation"] = limitation
    data["traits"].append(
        {"id": "t0000000000000099", "name": "Strong", "base_points": 0, "features": [feature]}
    )
    return data


@pytest.mark.parametrize("limitation", [None, "", "none"])
def test_an_attribute_bonus_without_limitation_in_every_spelling_is_plain(limitation: object) -> None:
    document = imported(_with_st_bonus(limitation))
    assert document["attributes"]["st"]["value"] == 13  # 10 + 1 bought + 2
    assert document["secondary"]["hp"]["value"] == 15  # on ST 13, +2 bought
    assert document["damage"]["thrust"]["notation"] == "1d"  # ST 13
    assert document["encumbrance"]["basicLift"] == 17  # 13 × 13 / 5 = 33.8 lb → 34 lb


def test_a_striking_only_bonus_raises_only_the_damage() -> None:
    document = imported(_with_st_bonus("striking_only"))
    assert document["attributes"]["st"]["value"] == 11
    assert document["damage"]["thrust"]["notation"] == "1d"  # striking ST 13
    assert document["damage"]["swing"]["notation"] == "2d-1"
    assert document["encumbrance"]["basicLift"] == 12  # 11 × 11 / 5 = 24.2 lb → 24 lb


def test_a_lifting_only_bonus_raises_only_the_basic_lift() -> None:
    document = imported(_with_st_bonus("lifting_only"))
    assert document["attributes"]["st"]["value"] == 11
    assert document["damage"]["thrust"]["notation"] == "1d-1"
    assert document["encumbrance"]["basicLift"] == 17  # lifting ST 13


# ---------------------------------------------------------------- fractional trait points


@pytest.mark.parametrize(
    ("points", "stored", "other"),
    [(2.5, 2, 0.5), (2.7, 2, 0.7), (2.2, 2, 0.2), (-2.5, -3, 0.5), (-0.5, -1, 0.5), (3, 3, 0), (0.5, 0, 0.5)],
)
def test_fractional_trait_points_are_floored_and_the_fraction_kept(
    points: float, stored: int, other: float
) -> None:
    data = gcs_samples.character(units=2)
    before = imported(copy.deepcopy(data))["points"]["spent"]
    trait = data["traits"][0]
    trait["calc"]["points"] = points  # was 4
    document = imported(data)
    entry = next(entry for entry in document["traits"] if entry["name"] == trait["name"])
    assert entry["points"] == stored
    assert document["points"]["breakdown"]["other"] == pytest.approx(other)
    assert document["points"]["spent"] == pytest.approx(before - 4 + points)


# ---------------------------------------------------------------- skill bonuses at the limit


@pytest.mark.parametrize(
    ("amounts", "bonuses"),
    [
        ([20], [("Talent 0", 20)]),
        ([-20], [("Talent 0", -20)]),
        ([19], [("Talent 0", 19)]),
        ([21], [("GCS skill bonuses", 20), ("GCS skill bonuses", 1)]),
        ([-21], [("GCS skill bonuses", -20), ("GCS skill bonuses", -1)]),
        ([20, 20], [("Talent 0", 20), ("Talent 1", 20)]),
        ([15, 10], [("Talent 0", 15), ("Talent 1", 10)]),
        ([1] * 6, [(f"Talent {index}", 1) for index in range(6)]),
        ([1] * 8, []),  # more owners than a skill lists: none, and the level deviates
        ([0], []),
    ],
)
def test_skill_bonuses_up_to_20_are_named_after_their_owners(
    amounts: list[int], bonuses: list[tuple[str, int]]
) -> None:
    data = gcs_samples.character(units=2)
    for index, amount in enumerate(amounts):
        feature = {
            "type": "skill_bonus",
            "selection_type": "skills_with_name",
            "name": {"compare": "is", "qualifier": "Stealth"},
            "amount": amount,
        }
        data["traits"].append(
            {
                "id": f"t00000000000001{index:02d}",
                "name": f"Talent {index}",
                "features": [feature],
                "calc": {"points": 0},
            }
        )
    total = sum(amounts)
    data["skills"] = [
        {
            "id": "s0000000000000077",
            "name": "Stealth",
            "difficulty": "dx/a",
            "points": 1,
            "calc": {"level": 12 - 1 + total, "rsl": f"DX{-1 + total:+d}"},  # DX 12, 1 point: DX-1
        }
    ]
    document = imported(data)
    skill = document["skills"][0]
    assert skill["level"] == 11 + total
    assert [(bonus["name"], bonus["amount"]) for bonus in skill.get("bonuses", [])] == bonuses


# ---------------------------------------------------------------- quantities in containers


def _bag(quantity: object, *, top: object = 1) -> dict[str, Any]:
    data = gcs_samples.character(units=2)
    data["equipment"] = [
        {
            "id": "E0000000000000001",
            "description": "Bag",
            "quantity": top,
            "base_value": 10,
            "base_weight": "1 lb",
            "children": [
                {
                    "id": "e0000000000000002",
                    "description": "Rock",
                    "quantity": quantity,
                    "base_value": 5,
                    "base_weight": "2 lb",
                }
            ],
        }
    ]
    return data


@pytest.mark.parametrize(
    ("quantity", "cost", "weight"),
    [
        (-3, 10, 0.5),
        (-0.5, 10, 0.5),
        (0, 10, 0.5),
        (1, 15, 1.5),
        (2, 20, 2.5),
        (1.5, 17.5, 2),
        (40, 210, 40.5),
    ],
)
def test_a_containers_cost_and_weight_count_its_contents_times_their_quantity_never_below_0(
    quantity: float, cost: float, weight: float
) -> None:
    document = imported(_bag(quantity))
    bag, rock = document["equipment"]
    assert (bag["cost"], bag["weight"]) == (cost, weight)  # 1 lb is 0.5 kg
    assert rock["location"] == "Bag" and "cost" not in rock
    assert document["possessionsTotal"] == {"cost": cost, "weight": weight}


@pytest.mark.parametrize(("top", "cost", "weight"), [(-2, 0, 0), (0, 0, 0), (1, 15, 1.5), (2, 30, 3)])
def test_a_top_level_quantity_multiplies_its_contents_too_never_below_0(
    top: float, cost: float, weight: float
) -> None:
    document = imported(_bag(1, top=top))
    assert (document["equipment"][0]["cost"], document["equipment"][0]["weight"]) == (cost, weight)


# ---------------------------------------------------------------- alternative abilities


@pytest.mark.parametrize(
    ("costs", "shares"),
    [
        ([20, 7], [20, 2]),  # 7 / 5 = 1.4, rounded up
        ([20, 6, 5], [20, 2, 1]),
        ([20, 5, 1], [20, 1, 1]),  # 0.2 rounds up to 1
        ([10, 10], [10, 2]),  # the first of the dearest in full
        ([20, -7], [20, -1]),  # -1.4 rounded up is -1
        ([20, 0], [20, 0]),
        ([20], [20]),
        ([21, 16, 11], [21, 4, 3]),  # 3.2 → 4, 2.2 → 3
    ],
)
def test_alternative_abilities_cost_the_dearest_and_a_fifth_of_each_other_rounded_up(
    costs: list[int], shares: list[int]
) -> None:
    data = gcs_samples.character(units=2)
    children = [
        {"id": f"t00000000000002{index:02d}", "name": f"Power {index}", "calc": {"points": cost}}
        for index, cost in enumerate(costs)
    ]
    data["traits"] = [
        {
            "id": "T0000000000000200",
            "name": "Powers",
            "container_type": "alternative_abilities",
            "children": children,
        }
    ]
    document = imported(data)
    assert [entry["points"] for entry in document["traits"]] == shares
    assert document["points"]["breakdown"]["advantages"] + document["points"]["breakdown"][
        "disadvantages"
    ] == sum(shares)


# ---------------------------------------------------------------- the integrity repair


def _repaired(document: dict[str, Any], data: dict[str, Any], gcs_spent: float) -> dict[str, Any]:
    """The integrity section worked out again on a document whose totals were changed."""
    context = Context(data, 5, "traits", collect_features(data, "traits"), NoteLog())
    integrity_section(context, document, gcs_spent)
    return document


def test_totals_that_do_not_add_up_are_repaired_keeping_gcs_points_spent() -> None:
    data = gcs_samples.character(units=4)
    document = import_gcs(copy.deepcopy(data), now=NOW).document
    points = document["points"]
    assert (points["spent"], points["unspent"], points["breakdown"]["skills"]) == (116, 34, 18)
    broken = copy.deepcopy(document)
    broken["points"]["breakdown"]["skills"] = 25
    broken["points"]["spent"] = 119
    broken["points"]["unspent"] = 1
    repaired = _repaired(broken, data, 116)
    assert repaired["points"] == points  # the skills' sum, GCS's points spent, the budget's rest
    found = [
        (item["pointer"], item["expected"], item["actual"]) for item in repaired["integrity"]["deviations"]
    ]
    wanted = [
        (item["pointer"], item["expected"], item["actual"]) for item in document["integrity"]["deviations"]
    ]
    assert found == wanted and repaired["integrity"]["rulesCompliant"] is False
    assert verify_character(repaired).claim_consistent


def test_a_repair_puts_what_gcs_spent_beyond_the_lists_in_other() -> None:
    data = gcs_samples.character(units=4)
    document = import_gcs(copy.deepcopy(data), now=NOW).document
    broken = copy.deepcopy(document)
    broken["points"]["breakdown"]["skills"] = 0
    repaired = _repaired(broken, data, 120.5)  # GCS counted 4.5 more than the lists hold
    assert repaired["points"]["spent"] == 120.5
    assert repaired["points"]["breakdown"]["skills"] == 18
    assert repaired["points"]["breakdown"]["other"] == 4.5
    assert repaired["points"]["unspent"] == 29.5
    assert verify_character(repaired).claim_consistent


def test_a_document_without_a_budget_is_repaired_without_unspent_points() -> None:
    data = gcs_samples.character(units=4)
    del data["total_points"]
    document = import_gcs(copy.deepcopy(data), now=NOW).document
    assert document["points"]["budget"] is None and "unspent" not in document["points"]
    broken = copy.deepcopy(document)
    broken["points"]["breakdown"]["attributes"] += 3
    repaired = _repaired(broken, data, 116)
    assert repaired["points"] == document["points"]
    assert verify_character(repaired).claim_consistent


# ---------------------------------------------------------------- counts at 0, 1, 2 and many


@pytest.mark.parametrize("count", [0, 1, 2, 7])
def test_every_item_weapon_and_note_is_counted_once(count: int) -> None:
    data = gcs_samples.character(units=2)
    sword = copy.deepcopy(data["equipment"][0])
    data["equipment"] = [copy.deepcopy(sword) for _ in range(count)]
    for index, item in enumerate(data["equipment"]):
        item["description"] = f"Sword {index}"
    data["notes"] = [{"id": f"n{index:016d}", "markdown": f"Note {index}"} for index in range(count)]
    document = imported(data)
    assert [item["name"] for item in document["equipment"]] == [f"Sword {index}" for index in range(count)]
    modes = len(sword["weapons"]) * count
    natural = sum(len(trait.get("weapons", [])) for trait in data["traits"])
    assert len(document["weapons"]["melee"]) + len(document["weapons"]["ranged"]) == modes + natural
    assert document["notes"] == [f"Note {index}" for index in range(count)]
    assert document["possessionsTotal"]["cost"] == count * sword["calc"]["extended_value"]


def test_an_import_can_be_written_as_json() -> None:
    document = imported(gcs_samples.character(units=2))
    assert json.loads(json.dumps(document)) == document


# ---------------------------------------------------------------- modifiers counted per level


@pytest.mark.parametrize(
    ("levels", "modifier", "points"),
    [
        # 10 points + 5 per level; a +10% modifier that takes the trait's level counts it once at
        # level 0 (GCS counts a level count of 0 as 1), twice at level 2
        (0, {"cost_adj": "+10%", "use_level_from_trait": True}, 11),  # 10 × 1.1
        (2, {"cost_adj": "+10%", "use_level_from_trait": True}, 24),  # (10 + 10) × 1.2
        (2, {"cost_adj": "+10%", "use_level_from_trait": True, "cost_ignores_level": True}, 22),
        (2, {"cost_adj": "+5%", "levels": 3}, 23),  # its own 3 levels: (10 + 10) × 1.15
        # +5 per level to the points per level, counted once at level 1: 10 + (5 + 5) × 1
        (1, {"cost_adj": "+5", "use_level_from_trait": True, "affects": "levels_only"}, 20),
        (0, {"cost_adj": "+5", "use_level_from_trait": True, "affects": "levels_only"}, 10),
    ],
)
def test_a_modifier_that_takes_the_traits_level_counts_it_at_least_once(
    levels: int, modifier: dict[str, Any], points: int
) -> None:
    data = gcs_samples.character(units=2)
    trait = {
        "id": "t0000000000000300",
        "name": "Leveled",
        "base_points": 10,
        "points_per_level": 5,
        "can_level": True,
        "levels": levels,
        "modifiers": [{"id": "m0000000000000301", "name": "Mod", **modifier}],
    }
    data["traits"] = [trait]
    document = imported(data)
    assert document["traits"][0]["points"] == points
