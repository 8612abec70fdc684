"""Worked numbers for values the export passes from the document into GCS's fields, taken from the
Basic Set and from GCS's own files: the Lifting ST bonus picked for a Basic Lift (GCS's pounds at
1 kg = 2 lb), a parry's F and U flags, the attribute definitions (their costs and key order), so a
wrong factor, a lost flag or a reordered definition fails here and not only in GCS.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from gurps_character import export_gcs, import_gcs
from tests.support.gcs_roundtrip import NOW
from tests.support.paths import REPOSITORY
from tests.support.strategies import example

SHARED_GCS = REPOSITORY.parent / "shared" / "gcs"


def _exported(document: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    exported = export_gcs(document, now=NOW)
    return json.loads(exported.text), [f"{note.source}: {note.message}" for note in exported.notes]


def _adjustment(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The features of the "Sheet adjustments" trait (none when there is no such trait)."""
    for trait in data.get("traits", []):
        if trait["name"] == "Sheet adjustments":
            return list(trait["features"])
    return []


# ---------------------------------------------------------------- Lifting ST (B15, B17)


@pytest.mark.parametrize(
    ("basic_lift", "bonus", "pounds"),
    [
        (12, None, "24 lb"),  # ST 11: 121/5 = 24.2, GCS rounds to 24 lb = 12 kg
        (14.5, 1, "29 lb"),  # ST 12: 144/5 = 28.8 -> 29 lb = 14.5 kg
        (22.5, 4, "45 lb"),  # ST 15: 225/5 = 45 lb = 22.5 kg
        (40, 9, "80 lb"),  # ST 20: 400/5 = 80 lb = 40 kg
        (10, -1, "20 lb"),  # ST 10: 20 lb = 10 kg
    ],
)
def test_a_basic_lift_gets_the_lifting_st_bonus_of_gcs_pounds_at_two_to_the_kg(
    basic_lift: float, bonus: int | None, pounds: str
) -> None:
    """Rurik has ST 11; a Basic Lift of another ST's gets the Lifting ST bonus that makes GCS
    lift it: GCS's Basic Lift is ST²/5 in pounds (whole pounds from 10 lb), at 2 lb to the kg."""
    document = example("rurik")
    document["encumbrance"]["basicLift"] = basic_lift
    for level, times in zip(document["encumbrance"]["levels"], (1, 2, 3, 6, 10), strict=True):
        level["maxLoad"] = basic_lift * times
    data, notes = _exported(document)
    assert data["calc"].get("lifting_st_bonus") == bonus
    assert data["calc"]["basic_lift"] == pounds
    lifting = [feature for feature in _adjustment(data) if feature.get("limitation") == "lifting_only"]
    lift_notes = [note for note in notes if note.startswith("/encumbrance")]
    if bonus is None:
        assert lifting == [] and lift_notes == []
    else:
        assert lifting == [
            {"type": "attribute_bonus", "limitation": "lifting_only", "attribute": "st", "amount": bonus}
        ]
        assert lift_notes == [
            f"/encumbrance/basicLift: Basic Lift {basic_lift:g} kg at ST 11: GCS adds Lifting ST {bonus:+d} "
            "from 'Sheet adjustments'."
        ]
    assert import_gcs(data, now=NOW).document["encumbrance"]["basicLift"] == basic_lift


def test_a_basic_lift_no_lifting_st_gives_is_noted_as_gcs_shows_it() -> None:
    """7 kg is 14 lb, no ST's rounded ST²/5 (ST 8 lifts 13 lb, ST 9 16 lb): no bonus, a note."""
    document = example("rurik")
    document["encumbrance"]["basicLift"] = 7
    data, notes = _exported(document)
    assert "lifting_st_bonus" not in data["calc"] and data["calc"]["basic_lift"] == "24 lb"
    assert [note for note in notes if note.startswith("/encumbrance/basicLift")] == [
        "/encumbrance/basicLift: GCS shows Basic Lift 12 kg, the document 7 kg: no lifting ST gives it in "
        "GCS, which lifts 24 lb at ST 11, at 1 kg = 2 lb."
    ]


@pytest.mark.skipif(not SHARED_GCS.is_dir(), reason="../shared/gcs (GCS's own files) is absent")
def test_a_gcs_files_lifting_st_bonus_comes_back_in_a_new_file() -> None:
    """The Dwarven Artificer (DFA1): ST 11 with Lifting ST +3 in GCS, Basic Lift 39 lb (ST 14:
    196/5 = 39.2); imported as 19.5 kg and exported anew, GCS gets the same +3."""
    path = (
        SHARED_GCS
        / "Dungeon_Fantasy-Dungeon_Fantasy_Adventure_1-Rivals__Mechanic_-_Dwarven_Artificer.v5-2024-09.gcs"
    )
    original = json.loads(path.read_text(encoding="utf-8"))
    assert (original["calc"]["lifting_st_bonus"], original["calc"]["basic_lift"]) == (3, "39 lb")
    document = dict(import_gcs(path.read_bytes(), now=NOW).document)
    assert (document["attributes"]["st"]["value"], document["encumbrance"]["basicLift"]) == (11, 19.5)
    del document["extensions"]
    data, _ = _exported(document)
    assert (data["calc"]["lifting_st_bonus"], data["calc"]["basic_lift"]) == (3, "39 lb")


# ---------------------------------------------------------------- parry flags (B376, B405)


@pytest.mark.parametrize(
    ("parry", "written", "level", "shown"),
    [
        # Broadsword 14; 27 kg carried is Medium (2) at Basic Lift 24 lb: a fencing parry and
        # the weapon's level lose 2, so 3 + 14/2 - 2 = 8, and the sheet's 10 comes from a +2
        ({"notation": "0FU", "modifier": 0, "unbalanced": True}, "0FU", 12, "10FU"),
        ({"notation": "-1F", "modifier": -1, "unbalanced": False}, "-1F", 12, "9F"),
        ({"notation": "0U", "modifier": 0, "unbalanced": True}, "0U", 14, "10U"),
        ({"notation": "0", "modifier": 0, "unbalanced": False}, "0", 14, "10"),
    ],
)
def test_a_parrys_fencing_and_unbalanced_flags_are_both_written(
    parry: dict[str, Any], written: str, level: int, shown: str
) -> None:
    document = example("rurik")
    document["weapons"]["melee"][0]["parry"] = parry
    data, _ = _exported(document)
    sword = next(item for item in data["equipment"] if item["description"] == "Broadsword")["weapons"][0]
    assert (sword["parry"], sword["calc"]["level"], sword["calc"]["parry"]) == (written, level, shown)
    back = import_gcs(data, now=NOW).document
    melee = next(weapon for weapon in back["weapons"]["melee"] if weapon["name"] == "Broadsword")
    assert melee["parry"] == parry and back["defenses"]["parry"]["value"] == 10


# ---------------------------------------------------------------- attribute definitions (B14-B17)

BASIC_SET = {
    # id: (type, base, points per level, SM discount %): ST and HP cost 10% less per SM (B15, B16)
    "st": ("integer", "10", 10, 10),
    "dx": ("integer", "10", 20, None),
    "iq": ("integer", "10", 20, None),
    "ht": ("integer", "10", 10, None),
    "will": ("integer", "$iq", 5, None),
    "per": ("integer", "$iq", 5, None),
    "fright_check": ("integer", "$will", 2, None),  # the senses and Fright Check: 2 per level (B16)
    "vision": ("integer", "$per", 2, None),
    "hearing": ("integer", "$per", 2, None),
    "taste_smell": ("integer", "$per", 2, None),
    "touch": ("integer", "$per", 2, None),
    "basic_speed": ("decimal", "($dx + $ht) / 4", 20, None),  # 5 points per +0.25
    "basic_move": ("integer", "Math.floor($basic_speed)", 5, None),
    "fp": ("pool", "$ht", 3, None),
    "hp": ("pool", "$st", 2, 10),
}


def test_the_attribute_definitions_are_the_basic_sets_in_gcs_key_order() -> None:
    data, _ = _exported(example("rurik"))
    definitions = {definition["id"]: definition for definition in data["settings"]["attributes"]}
    for ident, (kind, base, cost, per_sm) in BASIC_SET.items():
        definition = definitions[ident]
        found = (definition["type"], definition["base"], definition["cost_per_point"])
        assert (*found, definition.get("cost_adj_percent_per_sm")) == (kind, base, cost, per_sm)
    # GCS writes a definition's fields in its struct's order (attribute_def.go)
    order = [
        "id",
        "type",
        "name",
        "full_name",
        "base",
        "cost_per_point",
        "cost_adj_percent_per_sm",
        "thresholds",
    ]
    for definition in definitions.values():
        assert list(definition) == [key for key in order if key in definition]
        for threshold in definition.get("thresholds", []):
            assert list(threshold) == [
                key for key in ("state", "value", "explanation", "ops") if key in threshold
            ]
    assert list(definitions["hp"]) == order


@pytest.mark.skipif(not SHARED_GCS.is_dir(), reason="../shared/gcs (GCS's own files) is absent")
def test_the_attribute_definitions_read_as_gcs_standard_set() -> None:
    """A GCS 5 file with GCS's standard attributes (the Naga, DFRPG): the same ids, types,
    bases, costs and pool states (with the same values and halvings) in the same order."""
    theirs = json.loads((SHARED_GCS / "Dungeon_Fantasy_RPG-Monsters__Naga.gcs").read_text(encoding="utf-8"))
    data, _ = _exported(example("rurik"))

    def read(definitions: list[dict[str, Any]]) -> list[Any]:
        return [
            (
                d["id"],
                d["type"],
                d["base"],
                d["cost_per_point"],
                d.get("cost_adj_percent_per_sm"),
                [(t["state"], t["value"], t.get("ops")) for t in d.get("thresholds", [])],
            )
            for d in definitions
            if d["id"] != "er"  # the Naga's Energy Reserve, which the standard set lacks
        ]

    assert read(data["settings"]["attributes"]) == read(theirs["settings"]["attributes"])


# ---------------------------------------------------------------- hit locations (B398)

HUMANOID_B398 = [
    # table name, roll on 3d, to-hit penalty, natural DR (the skull's 2, B399)
    ("Eyes", "-", -9, 0),
    ("Skull", "3-4", -7, 2),
    ("Face", "5", -5, 0),
    ("Right Leg", "6-7", -2, 0),
    ("Right Arm", "8", -2, 0),
    ("Torso", "9-10", 0, 0),
    ("Groin", "11", -3, 0),
    ("Left Arm", "12", -2, 0),
    ("Left Leg", "13-14", -2, 0),
    ("Hand", "15", -4, 0),
    ("Foot", "16", -4, 0),
    ("Neck", "17-18", -5, 0),
    ("Vitals", "-", -3, 0),
]


def _locations(body: dict[str, Any]) -> list[tuple[str, str, int, int]]:
    return [
        (
            location["table_name"],
            location["calc"]["roll_range"],
            location.get("hit_penalty", 0),
            location.get("dr_bonus", 0),
        )
        for location in body["locations"]
    ]


def test_the_body_is_the_basic_sets_humanoid_table() -> None:
    data, _ = _exported(example("rurik"))
    body = data["settings"]["body_type"]
    assert (body["name"], body["roll"]) == ("Humanoid", "3d")
    assert _locations(body) == HUMANOID_B398


@pytest.mark.skipif(not SHARED_GCS.is_dir(), reason="../shared/gcs (GCS's own files) is absent")
def test_the_body_reads_as_gcs_humanoid_table() -> None:
    """The Naga's file (DFRPG) has GCS's own humanoid table: the same locations, ids, penalties,
    slots and natural DR."""
    theirs = json.loads((SHARED_GCS / "Dungeon_Fantasy_RPG-Monsters__Naga.gcs").read_text(encoding="utf-8"))
    data, _ = _exported(example("rurik"))

    def read(body: dict[str, Any]) -> list[Any]:
        keys = ("id", "choice_name", "table_name", "slots", "hit_penalty", "dr_bonus")
        return [tuple(location.get(key, 0) for key in keys) for location in body["locations"]]

    assert read(data["settings"]["body_type"]) == read(theirs["settings"]["body_type"])


# ---------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("meta", "created", "modified"),
    [
        (
            {"createdAt": "2025-03-14T09:30:00.000Z", "updatedAt": "2025-03-21T18:05:00.000Z"},
            "2025-03-14T09:30:00Z",
            "2025-03-21T18:05:00Z",
        ),
        ({"createdAt": "2025-03-14T09:30:00.000Z"}, "2025-03-14T09:30:00Z", "2025-03-14T09:30:00Z"),
        ({}, "2026-10-05T10:00:00Z", "2026-10-05T10:00:00Z"),
    ],
    ids=["both", "created only", "neither"],
)
def test_a_new_files_dates_are_the_documents_else_its_creation_else_now(
    meta: dict[str, str], created: str, modified: str
) -> None:
    """GCS's modified_date is never before created_date: a document that says when it was made and
    not when it was changed was last changed then; one that says neither is made now."""
    document = example("rurik")
    document["meta"] = {
        key: value for key, value in document["meta"].items() if key not in ("createdAt", "updatedAt")
    }
    document["meta"].update(meta)
    data, _ = _exported(document)
    assert (data["created_date"], data["modified_date"]) == (created, modified)
    assert data["points_record"][0]["when"] == "2026-10-05T10:00:00Z"


# ---------------------------------------------------------------- muscle-powered ranges (B269-B275)


@pytest.mark.parametrize(
    ("name", "notation", "shown"),
    [
        ("Regular Bow", "x15/x20", "165/220"),  # B275, Rurik's ST 11
        ("Javelin", "x1.5/x2.5", "16/27"),  # B273: 16.5 and 27.5 yards, cut to whole yards
        ("Large Knife", "x0.8/x1.5", "8/16"),  # B272, thrown: 8.8 and 16.5
    ],
)
def test_a_muscle_powered_range_is_gcs_whole_yards_at_the_wielders_st(
    name: str, notation: str, shown: str
) -> None:
    """GCS multiplies a muscle-powered range by ST and drops the fraction (weapon_range.go
    truncates), so ST 11 throws a javelin 16/27, not 17/28."""
    document = example("rurik")
    bow = document["weapons"]["ranged"][0]
    halves, most = (int(float(part[1:]) * 11) for part in notation.split("/"))
    document["weapons"]["ranged"] = [
        dict(bow, name=name, range={"notation": notation, "halfDamage": halves, "max": most}, minST="6")
    ]
    data, _ = _exported(document)
    ranged = [
        weapon for item in data["equipment"] for weapon in item.get("weapons", []) if weapon["id"][0] == "W"
    ]
    assert [(weapon["range"], weapon["calc"]["range"]) for weapon in ranged] == [(notation, shown)]


# ---------------------------------------------------------------- languages (B24)


def test_a_languages_comprehension_costs_are_the_basic_sets_per_level() -> None:
    """B24: per spoken and per written, None 0, Broken 1, Accented 2, Native 3 points; GCS
    prices them as the Spoken and Written modifiers' points, so the trait's base is 0 when the
    document's points are just those."""
    document = example("rurik")
    document["languages"] = [
        {"name": "Trade Tongue", "spoken": "accented", "written": "broken", "points": 3},
        {"name": "Elvish", "spoken": "native", "written": "none", "points": 3},
        {"name": "Old Script", "spoken": "none", "written": "accented", "points": 2},
    ]
    data, _ = _exported(document)
    languages = [trait for trait in data["traits"] if trait["name"].startswith("Language: ")]
    assert [
        (
            trait["name"],
            trait.get("base_points", 0),
            [(modifier["local_notes"], modifier.get("cost_adj")) for modifier in trait["modifiers"]],
            trait["calc"]["points"],
        )
        for trait in languages
    ] == [
        ("Language: Trade Tongue", 0, [("Accented", "+2"), ("Broken", "+1")], 3),
        ("Language: Elvish", 0, [("Native", "+3"), ("None", None)], 3),
        ("Language: Old Script", 0, [("None", None), ("Accented", "+2")], 2),
    ]
