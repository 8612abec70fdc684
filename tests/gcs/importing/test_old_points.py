"""Points of version 2 files whose saved attribute points leave out the traits' features.

GCS 4.x saved some files (the Basic Set animals of GCS's library among them) without applying
their traits' features: an ox bought ST 27 (+17) at SM +2 with No Fine Manipulators (-40 % on
ST and DX) was saved at 136 points for ST (170, less only the size discount) and -40 for DX,
where GCS applies the cost reductions as soon as it computes the sheet: 68 and -24 (GCS's own
later saves of the same ox have those). The import takes today's GCS's numbers and says why
the file's differ. Every file here is written by hand; each number is worked out beside it.
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
            saved("basic_move", -1, 4, -5),
            saved("hp", 0, 27, 0, current=27),
        ],
        "total_points": -47,
        "advantages": [
            {"type": "advantage", "id": "a1", "name": "Enhanced Move (Ground)", "calc": {"points": 20}},
            {
                "type": "advantage_container",
                "id": "c1",
                "name": "Meta-Trait: Quadruped",
                "calc": {"points": -40},
                "children": [
                    {"type": "advantage", "id": "a8", "name": "Horizontal", "calc": {"points": -10}},
                    copy.deepcopy(NO_FINE_MANIPULATORS),
                ],
            },
            {"type": "advantage", "id": "a11", "name": "Striker (Horns)", "calc": {"points": 8}},
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


def test_an_ox_saved_without_its_cost_reductions_has_todays_gcs_points() -> None:
    """ST: 17 x 10 = 170, less 40 % (No Fine Manipulators) and 20 % (SM +2 at 10 %) = 68.
    DX: -2 x 20 = -40, less 40 % = -24. IQ -140, HT +20, Will +45, Per +35, Move -5: the
    attributes cost 68 - 24 - 140 + 20 + 45 + 35 - 5 = -1. Traits: 20 - 10 - 30 + 8 = -12.
    Spent -13, unspent -47 - (-13) = -34 (the file's saved numbers give 136 - 40 ... = 51 and
    39 spent, -86 unspent: GCS 4.x's, not what GCS shows)."""
    document, _ = imported(ox())
    assert document["attributes"]["st"]["points"] == 68
    assert document["attributes"]["dx"]["points"] == -24
    assert document["points"]["breakdown"]["attributes"] == -1
    assert (document["points"]["spent"], document["points"]["unspent"]) == (-13, -34)


def test_the_notes_say_which_cost_reductions_the_saved_points_left_out() -> None:
    _, notes = imported(ox())
    cause = (
        " (GCS 4.x saved it without the traits' features: its points leave out the cost reductions "
        "of 'No Fine Manipulators', which GCS applies)."
    )
    assert notes == {
        "/attributes/0": [
            "ST 27 (136 points), as this version 2 file saved it, is not what the current GCS computes "
            "from it (27, 68 points): the import uses the current GCS's" + cause
        ],
        "/attributes/1": [
            "DX 8 (-40 points), as this version 2 file saved it, is not what the current GCS computes "
            "from it (8, -24 points): the import uses the current GCS's" + cause
        ],
    }


def test_an_elephant_saved_without_its_trunks_cost_reductions() -> None:
    """ST +35 at SM +3 with Trunk (-40 % on ST and DX): GCS 4.x saved 350 less 30 % = 245 and DX
    +2 at 40; GCS: 350 x (1 - 0.7) = 105 and 40 x 0.6 = 24 (GCS's own save of the same elephant)."""
    trunk = copy.deepcopy(NO_FINE_MANIPULATORS)
    trunk.update({"name": "Trunk", "base_points": -20, "calc": {"points": -20}})
    data = ox()
    data["profile"] = {"name": "Elephant", "SM": 3}
    data["attributes"] = [saved("st", 35, 45, 245), saved("dx", 2, 12, 40)]
    data["advantages"] = [trunk]
    data["total_points"] = 0
    document, notes = imported(data)
    assert (document["attributes"]["st"]["points"], document["attributes"]["dx"]["points"]) == (105, 24)
    assert document["points"]["spent"] == 105 + 24 - 20
    assert all(
        "cost reductions of 'Trunk'" in notes[source][0] for source in ("/attributes/0", "/attributes/1")
    )


def test_points_saved_otherwise_get_no_cause() -> None:
    """136 is GCS 4.x's ST without the reductions; 100 is nobody's: the note names no cause."""
    data = ox()
    data["attributes"][0]["calc"]["points"] = 100
    _, notes = imported(data)
    assert notes["/attributes/0"] == [
        "ST 27 (100 points), as this version 2 file saved it, is not what the current GCS computes "
        "from it (27, 68 points): the import uses the current GCS's."
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
    points are the levels x 2 less the size discount, rounded half up in whole numbers."""
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
    assert document["secondary"]["hp"]["points"] == today
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


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-500, 500), min_size=8, max_size=8))
def test_property_saved_attribute_points_never_change_the_points(points: list[int]) -> None:
    """Whatever points a version 2 file saved for its attributes, the document's are today's
    GCS's, and so are its points spent and unspent."""
    data = ox()
    for entry, number in zip(data["attributes"], points, strict=True):
        entry["calc"]["points"] = number
    document, _ = imported(data)
    assert (document["points"]["spent"], document["points"]["unspent"]) == (-13, -34)
