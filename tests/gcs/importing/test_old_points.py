"""Points of version 2 files whose saved attribute points leave out the traits' features.

GCS 4.x saved some files (the Basic Set animals of GCS's library among them) without applying
their traits' features: an ox bought ST 27 (+17) at SM +2 with No Fine Manipulators (-40 % on
ST and DX) was saved at 136 points for ST (170, less only the size discount) and -40 for DX,
where today's GCS applies the cost reductions: 68 and -24. The saved points are what GCS showed
the player and counted in the points spent it saved, so the import keeps them (values stay
today's GCS's) and says what today's GCS would charge and why. Every file here is written by
hand; each number is worked out beside it.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import import_gcs, validate_character, verify_character

NO_FINE_MANIPULATORS = {
    "type": "advantage",
    "id": "a9",
    "name": "No Fine Manipulators",
    "base_points": -30,
    "calc": {"points": -30},
    "features": [
        {"type": "cost_reduction", "attribute": "st", "percentage": 40},
        {"type": "cost_reduction", "attribute": "dx", "percentage": 40},
    ],
}


def saved(ident: str, adj: float, value: float, points: float, **more: Any) -> dict[str, Any]:
    return {"attr_id": ident, "adj": adj, "calc": {"value": value, "points": points, **more}}


def trait(ident: str, name: str, points: int, **more: Any) -> dict[str, Any]:
    return {"type": "advantage", "id": ident, "name": name, "calc": {"points": points}, **more}


def ox() -> dict[str, Any]:
    """A version 2 ox as GCS 4.x saved it: ST and DX without the cost reductions."""
    return {
        "type": "character",
        "version": 2,
        "id": "3182b5c0-0000-4000-8000-000000000002",
        "profile": {"name": "Ox", "SM": 2},
        "attributes": [
            saved("st", 17, 27, 136),  # 170 less 20 % (SM +2): GCS 4.x left out the 40 %
            saved("dx", -2, 8, -40),  # -40: GCS 4.x left out the 40 %
            saved("iq", -7, 3, -140),
            saved("ht", 2, 12, 20),
            saved("will", 9, 12, 45),
            saved("per", 7, 10, 35),
            saved("basic_speed", 0, 5, 0),
            saved("basic_move", -1, 4, -5),
            saved("fp", 0, 12, 0, current=12),
            saved("hp", 0, 27, 0, current=27),
        ],
        "total_points": -47,
        "advantages": [
            trait("a1", "Damage Resistance", 10, levels="2", points_per_level=5),
            trait("a2", "Enhanced Move (Ground)", 20, levels="1", points_per_level=20),
            {
                "type": "advantage_container",
                "id": "c1",
                "name": "Meta-Trait: Domestic Animal",
                "calc": {"points": -30},
                "children": [
                    trait("a3", "Cannot Speak", -15, base_points=-15),
                    trait("a4", "Hidebound", -5, base_points=-5),
                    trait("a5", "Social Stigma (Valuable Property)", -10, base_points=-10),
                    trait("a6", "Taboo Trait (Fixed IQ)", 0),
                ],
            },
            {
                "type": "advantage_container",
                "id": "c2",
                "name": "Meta-Trait: Quadruped",
                "calc": {"points": -35},
                "children": [
                    trait("a7", "Extra Legs", 5),
                    trait("a8", "Horizontal", -10, base_points=-10),
                    copy.deepcopy(NO_FINE_MANIPULATORS),
                ],
            },
            trait("a10", "Neutered", -1, base_points=-1),
            trait("a11", "Striker, Impaling (Horns)", 8, base_points=8),
            trait("a12", "Weak Bite", -2, base_points=-2),
        ],
    }


def imported(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, list[str]]]:
    result = import_gcs(data)
    document = result.document
    assert validate_character(document).valid
    assert verify_character(document).claim_consistent
    notes: dict[str, list[str]] = {}
    for note in result.notes:
        if "as this version 2 file saved it" in note.message:
            notes.setdefault(note.source, []).append(note.message)
    return document, notes


KEPT = "the import keeps the file's points, which GCS 4.x showed and counted in its points spent"
LEFT_OUT = (
    " (GCS 4.x saved it without the traits' features: its points leave out the cost reductions "
    "of 'No Fine Manipulators', which GCS applies)."
)


def test_an_ox_saved_without_its_cost_reductions_keeps_the_points_gcs_showed() -> None:
    """The attributes as saved: 136 - 40 - 140 + 20 + 45 + 35 + 0 - 5 + 0 + 0 = 51. The traits:
    DR 10, Enhanced Move 20, Domestic Animal -15 - 5 - 10 + 0 = -30, Quadruped 5 - 10 - 30 =
    -35, Neutered -1, Striker 8, Weak Bite -2: -30. Spent 51 - 30 = 21, unspent -47 - 21 = -68,
    as GCS shows the file (today's prices, 68 for ST and -24 for DX, would give -31 and -16)."""
    document, _ = imported(ox())
    assert document["attributes"]["st"] == {
        "value": 27,
        "points": 136,
        "costModifiers": [{"name": "No Fine Manipulators", "percent": -40}],
    }
    assert (document["attributes"]["dx"]["value"], document["attributes"]["dx"]["points"]) == (8, -40)
    assert document["points"]["breakdown"]["attributes"] == 51
    assert (document["points"]["spent"], document["points"]["unspent"]) == (21, -68)


def test_the_notes_name_todays_points_and_the_cost_reductions_left_out() -> None:
    _, notes = imported(ox())
    assert notes == {
        "/attributes/0": [
            "ST 27 (136 points), as this version 2 file saved it, is not what the current GCS computes "
            f"from it (27, 68 points): {KEPT}{LEFT_OUT}"
        ],
        "/attributes/1": [
            "DX 8 (-40 points), as this version 2 file saved it, is not what the current GCS computes "
            f"from it (8, -24 points): {KEPT}{LEFT_OUT}"
        ],
    }


def test_the_deviation_from_the_format_says_why_the_points_are_the_files() -> None:
    """The format's formula gives ST 170 x (1 - 0.4 - 0.2) = 68 (a deviation, justified by the
    saved record, not by the reductions it left out); DX -2 is sold, which the format's cost
    modifiers leave alone: -40 is its formula's, no deviation."""
    document, _ = imported(ox())
    deviations = [d for d in document["integrity"]["deviations"] if d["pointer"].startswith("/attributes")]
    assert deviations == [
        {
            "pointer": "/attributes/st/points",
            "expected": 68,
            "actual": 136,
            "justification": "this version 2 file saved 136 points for ST, which GCS 4.x showed and counted "
            "in its points spent (the current GCS would charge 68; its points leave out the cost reductions "
            "of 'No Fine Manipulators', which it applies); GCS charges ST +17 levels bought at 10 points "
            "each.",
        }
    ]


def test_an_elephant_saved_without_its_trunks_cost_reductions() -> None:
    """ST +35 at SM +3 with Trunk (-40 % on ST and DX): GCS 4.x saved 350 less 30 % = 245 and DX
    +2 at 40, kept; today's GCS would charge 350 x (1 - 0.7) = 105 and 40 x 0.6 = 24."""
    trunk = copy.deepcopy(NO_FINE_MANIPULATORS)
    trunk.update({"name": "Trunk", "base_points": -20, "calc": {"points": -20}})
    data = ox()
    data["profile"] = {"name": "Elephant", "SM": 3}
    data["attributes"] = [saved("st", 35, 45, 245), saved("dx", 2, 12, 40)]
    data["advantages"] = [trunk]
    data["total_points"] = 0
    document, notes = imported(data)
    assert (document["attributes"]["st"]["points"], document["attributes"]["dx"]["points"]) == (245, 40)
    assert document["points"]["spent"] == 245 + 40 - 20
    assert "(45, 105 points)" in notes["/attributes/0"][0] and "(12, 24 points)" in notes["/attributes/1"][0]
    assert all(
        "cost reductions of 'Trunk'" in notes[source][0] for source in ("/attributes/0", "/attributes/1")
    )


def test_points_saved_otherwise_are_kept_with_no_cause() -> None:
    """136 is GCS 4.x's ST without the reductions; 100 is nobody's: kept all the same (it is what
    the file counted), and the note names no cause."""
    data = ox()
    data["attributes"][0]["calc"]["points"] = 100
    document, notes = imported(data)
    assert document["attributes"]["st"]["points"] == 100
    assert document["points"]["spent"] == 21 - 36
    assert notes["/attributes/0"] == [
        "ST 27 (100 points), as this version 2 file saved it, is not what the current GCS computes "
        f"from it (27, 68 points): {KEPT}."
    ]


@pytest.mark.parametrize(
    ("hp_adj", "sm", "gcs4", "today"),
    [
        (3, 1, 5, 3),  # 6 x 0.9 = 5.4 -> 5 (half up); today 6 x 0.5 = 3
        (3, 2, 5, 3),  # 6 x 0.8 = 4.8 -> 5 (half up, not 4); today 6 x 0.4 = 2.4 -> 3
        (-3, 2, -5, -2),  # -6 x 0.8 = -4.8 -> -5 (not -4); today -6 x 0.4 = -2.4 -> -2
        (-3, 1, -5, -3),  # -6 x 0.9 = -5.4 -> -5; today -6 x 0.5 = -3
        (5, 0, 10, 6),  # no size discount: 10 as it is; today 10 x 0.6 = 6
    ],
)
def test_gcs_4_rounded_the_cost_it_saved_half_up(hp_adj: int, sm: int, gcs4: int, today: int) -> None:
    """HP (2 per level, 10 % off per SM) with a 40 % cost reduction GCS 4.x left out: its saved
    points are the levels x 2 less the size discount, rounded half up in whole numbers; they
    are kept, and the note names today's price and the reduction."""
    frail: dict[str, Any] = {"type": "advantage", "id": "aF", "name": "Frail", "calc": {"points": 0}}
    frail["features"] = [{"type": "cost_reduction", "attribute": "hp", "percentage": 40}]
    data: dict[str, Any] = {
        "type": "character",
        "version": 2,
        "id": "3182b5c0-0000-4000-8000-000000000003",
        "profile": {"name": "Beast", "SM": sm},
        "attributes": [saved("st", 0, 10, 0), saved("hp", hp_adj, 10 + hp_adj, gcs4, current=10 + hp_adj)],
        "total_points": 0,
        "advantages": [frail],
    }
    document, notes = imported(data)
    assert (document["secondary"]["hp"]["points"], document["points"]["spent"]) == (gcs4, gcs4)
    assert f"({10 + hp_adj}, {today} points): {KEPT}" in notes["/attributes/1"][0]
    assert "its points leave out the cost reductions of 'Frail'" in notes["/attributes/1"][0]


def test_a_value_saved_without_its_bonus_names_the_bonus() -> None:
    """ST +1 bought (10 points) with +2 from a trait: GCS shows 13; GCS 4.x saved 11."""
    strong: dict[str, Any] = {"type": "advantage", "id": "aS", "name": "Strong", "calc": {"points": 0}}
    strong["features"] = [{"type": "attribute_bonus", "attribute": "st", "amount": 2}]
    data = ox()
    data["profile"] = {"name": "Strongman"}  # SM 0: ST +1 is 10 points
    data["attributes"] = [saved("st", 1, 11, 10)]
    data["advantages"] = [strong]
    document, notes = imported(data)
    assert document["attributes"]["st"] == {"value": 13, "points": 10}
    assert notes["/attributes/0"] == [
        "ST 11 (10 points), as this version 2 file saved it, is not what the current GCS computes "
        "from it (13, 10 points): the import uses the current GCS's (GCS 4.x saved it without the "
        "traits' features: its value leaves out the +2 of 'Strong', which GCS applies)."
    ]


def test_a_value_and_points_saved_without_the_features_keep_only_the_points() -> None:
    """ST +1 with +2 from a trait and a 40 % reduction: GCS 4.x saved 11 and 10 points; the value
    is today's (13), the points the file's (10, where today's GCS charges 6)."""
    strong: dict[str, Any] = {"type": "advantage", "id": "aS", "name": "Strong", "calc": {"points": 0}}
    strong["features"] = [
        {"type": "attribute_bonus", "attribute": "st", "amount": 2},
        {"type": "cost_reduction", "attribute": "st", "percentage": 40},
    ]
    data = ox()
    data["profile"] = {"name": "Strongman"}
    data["attributes"] = [saved("st", 1, 11, 10)]
    data["advantages"] = [strong]
    document, notes = imported(data)
    assert (document["attributes"]["st"]["value"], document["attributes"]["st"]["points"]) == (13, 10)
    assert notes["/attributes/0"] == [
        "ST 11 (10 points), as this version 2 file saved it, is not what the current GCS computes "
        "from it (13, 6 points): the import uses the current GCS's value and keeps the file's points, "
        "which GCS 4.x showed and counted in its points spent (GCS 4.x saved it without the traits' "
        "features: its value leaves out the +2 of 'Strong'; its points leave out the cost reductions "
        "of 'Strong', which GCS applies)."
    ]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=10, max_size=10))
def test_property_the_points_spent_are_the_saved_records(points: list[int]) -> None:
    """Whatever points a version 2 file saved for its attributes, the document's are those, and
    its points spent are theirs plus the traits' (-30), as GCS counted them."""
    data = ox()
    for entry, number in zip(data["attributes"], points, strict=True):
        entry["calc"]["points"] = number
    document, _ = imported(data)
    stored = {key: document["attributes"][key]["points"] for key in ("st", "dx", "iq", "ht")}
    stored |= {key: document["secondary"][key]["points"] for key in ("will", "per", "basicSpeed")}
    stored |= {key: document["secondary"][key]["points"] for key in ("basicMove", "fp", "hp")}
    assert list(stored.values()) == points
    assert (document["points"]["spent"], document["points"]["unspent"]) == (
        sum(points) - 30,
        -17 - sum(points),
    )
