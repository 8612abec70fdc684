"""import_gcs on hand-made GCS files: one per file version (1, 2, 4, 5 with 2024 keys, 5 with the
keys GCS renamed in 2025) and per feature.

Each fixture is a character as GCS saves it, ``calc`` blocks included. The expectations come from
the fixture itself (GCS's computed values) or from the GURPS rule written out in the test, never
from the importer's own output.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import tracemalloc
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character import (
    CharacterError,
    GcsImport,
    ImportNote,
    get_condition,
    import_gcs,
    resolve_hit,
    serialize_character,
    validate_character,
    verify_character,
)
from gurps_character.gcs import EXTENSION, KEPT_TEXT
from gurps_character.load import read_json
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "gcs"
NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
NOTE_KINDS = {"notCarried", "movedToExtensions", "approximated", "deviation", "defaulted"}


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def fixture(name: str) -> dict[str, Any]:
    data = json.loads(fixture_text(name))
    assert isinstance(data, dict)
    return data


def imported(name: str) -> GcsImport:
    return import_gcs(fixture_text(name), now=NOW)


def deviation(document: dict[str, Any], pointer: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [d for d in document["integrity"]["deviations"] if d["pointer"] == pointer]
    assert len(found) == 1, f"no single deviation at {pointer}: {document['integrity']['deviations']}"
    return found[0]


def calc_attribute(data: dict[str, Any], ident: str) -> dict[str, Any]:
    entry = next(a for a in data["attributes"] if a["attr_id"] == ident)
    calc: dict[str, Any] = entry["calc"]
    return calc


ALL_FIXTURES = sorted(path.name for path in FIXTURES.glob("*.gcs"))


# ---------------------------------------------------------------- every fixture


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_fixture_imports_valid_and_honest(name: str) -> None:
    result = imported(name)
    assert isinstance(result, GcsImport) and isinstance(result.notes, tuple)
    assert validate_character(result.document).valid, validate_character(result.document).errors[:3]
    report = verify_character(result.document)
    assert report.claim_consistent
    assert result.document["integrity"]["rulesCompliant"] is report.rules_compliant
    assert all(d["justification"] for d in result.document["integrity"]["deviations"])
    serialize_character(result.document)  # writable as JSON text
    for note in result.notes:
        assert isinstance(note, ImportNote) and note.kind in NOTE_KINDS
        assert note.source == "" or note.source.startswith("/")
        assert note.to_dict() == {"source": note.source, "kind": note.kind, "message": note.message}


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_text_bytes_and_mapping_give_the_same_fresh_result(name: str) -> None:
    text = fixture_text(name)
    mapping = json.loads(text)
    before = copy.deepcopy(mapping)
    from_mapping = import_gcs(mapping, now=NOW)
    assert mapping == before
    from_text = import_gcs(text, now=NOW)
    from_bytes = import_gcs(text.encode("utf-8"), now=NOW)
    assert from_text == from_bytes == from_mapping
    inside = {id(x) for x in _containers(mapping)}
    assert not inside & {id(x) for x in _containers(from_mapping.document)}


def _containers(value: Any) -> list[Any]:
    found: list[Any] = []
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            found.append(item)
            stack.extend(item)
    return found


@pytest.mark.parametrize(
    ("name", "variant"),
    [
        ("v1_ranger.gcs", "v1"),
        ("v2_scout.gcs", "v2"),
        ("v4_wizard.gcs", "v4"),
        ("v5_fighter.gcs", "v5"),
        ("v5_2025_hound.gcs", "v5-2025"),
    ],
)
def test_the_key_spelling_is_recognised(name: str, variant: str) -> None:
    assert imported(name).document["extensions"][EXTENSION]["keyVariant"] == variant


@pytest.mark.parametrize("name", ALL_FIXTURES)
def test_the_gcs_file_is_kept_in_one_extension_namespace(name: str) -> None:
    result = imported(name)
    assert list(result.document["extensions"]) == [EXTENSION]
    kept = result.document["extensions"][EXTENSION]
    assert json.loads(kept[KEPT_TEXT]) == fixture(name)
    assert kept["gcsVersion"] == fixture(name)["version"]
    assert kept["importedAt"] == "2026-12-01T12:00:00.000Z"


def test_notes_are_frozen_and_the_result_is_a_named_tuple() -> None:
    result = imported("v5_fighter.gcs")
    assert result._fields == ("document", "notes")
    note = result.notes[0]
    with pytest.raises(dataclasses.FrozenInstanceError):
        note.kind = "other"  # type: ignore[misc]


# ---------------------------------------------------------------- version 5 (2024 keys)


def test_v5_numbers_are_gcs_numbers() -> None:
    data = fixture("v5_fighter.gcs")
    document = imported("v5_fighter.gcs").document
    for ident in ("st", "dx", "iq", "ht"):
        assert document["attributes"][ident]["value"] == calc_attribute(data, ident)["value"]
        assert document["attributes"][ident]["points"] == calc_attribute(data, ident)["points"]
    for ident, key in (
        ("hp", "hp"),
        ("fp", "fp"),
        ("will", "will"),
        ("per", "per"),
        ("basic_speed", "basicSpeed"),
    ):
        assert document["secondary"][key]["value"] == calc_attribute(data, ident)["value"]
    assert document["secondary"]["hp"]["current"] == calc_attribute(data, "hp")["current"]
    assert "current" not in document["secondary"]["fp"]  # no fatigue taken: nothing to keep
    calc = data["calc"]
    assert [level["move"] for level in document["encumbrance"]["levels"]] == calc["move"]
    assert [level["dodge"] for level in document["encumbrance"]["levels"]] == calc["dodge"]
    assert document["defenses"]["dodge"]["value"] == calc["dodge"][0]
    assert (document["damage"]["thrust"]["notation"], document["damage"]["swing"]["notation"]) == (
        "1d",
        "2d-1",
    )
    # Basic Lift: ST 13 -> 13²/10 = 16.9 kg rounds to 17 (GCS: 13²/5 = 33.8 lb, saved as 34 lb)
    assert document["encumbrance"]["basicLift"] == 17
    assert document["points"]["budget"] == data["total_points"]


def test_v5_points_spent_are_gcs_total() -> None:
    data = fixture("v5_fighter.gcs")
    document = imported("v5_fighter.gcs").document
    attributes = sum(a["calc"]["points"] for a in data["attributes"])
    # group containers count their children; the disabled trait counts nothing
    traits = 15 + 10 + 0 + 1 + 2 - 10 - 1
    skills = sum(s["points"] for s in data["skills"])
    assert document["points"]["spent"] == attributes + traits + skills
    assert document["points"]["unspent"] == data["total_points"] - document["points"]["spent"]
    assert "Lucky Charm" not in {t["name"] for t in document["traits"]}


def test_v5_skills_split_gcs_relative_level_into_points_and_bonuses() -> None:
    document = imported("v5_fighter.gcs").document
    skills = {s["name"]: s for s in document["skills"]}
    # Broadsword DX/A, 8 points: A -1, 8 points +3 -> DX+2 = 14, no bonus
    assert skills["Broadsword"] == {
        "name": "Broadsword",
        "attribute": "dx",
        "difficulty": "A",
        "relativeLevel": 2,
        "level": 14,
        "points": 8,
        "notes": "Ref: B208",
    }
    assert skills["Shield (Shield)"]["level"] == 13


def test_v5_a_skill_without_points_is_a_skill_at_its_default_level() -> None:
    result = imported("v5_fighter.gcs")
    document = result.document
    index = next(i for i, s in enumerate(document["skills"]) if s["name"] == "Gambling")
    gambling = document["skills"][index]
    # GCS: IQ-5 by default = 5 with 0 points; the format's minimum of 1 point is stored
    assert (gambling["level"], gambling["relativeLevel"], gambling["points"]) == (5, 5 - 10, 1)
    assert "at least 1" in deviation(document, f"/skills/{index}/points")["justification"]
    assert any(n.source == "/skills" and "Gambling" in n.message for n in result.notes)


def test_v5_technique_is_a_skill_at_gcs_level_with_a_justified_cost() -> None:
    document = imported("v5_fighter.gcs").document
    index = next(i for i, s in enumerate(document["skills"]) if s["name"] == "Feint (Broadsword)")
    feint = document["skills"][index]
    assert (feint["level"], feint["difficulty"], feint["points"]) == (15, "H", 2)
    assert "technique" in deviation(document, f"/skills/{index}/points")["justification"]


def test_v5_deviations_name_the_gcs_cause() -> None:
    document = imported("v5_fighter.gcs").document
    assert "Racial Strength" in deviation(document, "/attributes/st/points")["justification"]
    assert "Combat Reflexes" in deviation(document, "/defenses/dodge/value")["justification"]
    parry = deviation(document, "/defenses/parry/value")
    assert (parry["expected"], parry["actual"]) == (10, 11)  # Broadsword 14 -> 14/2 + 3 = 10; GCS +1
    assert "Broadsword" in parry["justification"]
    block = deviation(document, "/defenses/block/value")
    assert (block["expected"], block["actual"]) == (9, 12)  # Shield 13 -> 9; GCS: DB +2, +1
    assert document["integrity"]["rulesCompliant"] is False


def test_v5_parry_and_block_come_from_the_ready_weapons() -> None:
    document = imported("v5_fighter.gcs").document
    assert document["defenses"]["parry"] == {"skill": "Broadsword", "value": 11}
    assert document["defenses"]["block"] == {"skill": "Shield (Shield)", "value": 12}


def test_v5_dr_per_location() -> None:
    document = imported("v5_fighter.gcs").document
    by_location = {entry["location"]: entry for entry in document["damageResistance"]}
    assert by_location["Torso"] == {
        "location": "Torso",
        "locationId": "torso",
        "dr": 3,
        "notes": "4 vs crushing",
    }
    # GCS's 4 counts the skull's natural DR 2, which the rules (and resolve_hit) add to the sheet's DR
    assert by_location["Skull"]["dr"] == 2
    assert resolve_hit(document, 10, "cr", location="skull").dr == 4
    assert any(
        note.kind == "approximated" and "without the body's natural DR (Skull 2)" in note.message
        for note in imported("v5_fighter.gcs").notes
    )
    # the body table kept in the extensions gives the torso's DR 4 against crushing only
    assert resolve_hit(document, 10, "cr", location="torso").dr == 4
    assert resolve_hit(document, 10, "cut", location="torso").dr == 3
    assert resolve_hit(document, 10, "cut", location="wing").dr == 1
    assert [e["location"] for e in document["damageResistance"]].count("Arm") == 1  # both arms alike
    assert "locationId" not in by_location["Wing"]


def test_v5_languages_familiarities_placeholders_and_profile() -> None:
    document = imported("v5_fighter.gcs").document
    assert document["languages"] == [
        {"name": "Anglish", "spoken": "native", "written": "native", "points": 0}
    ]
    assert document["culturalFamiliarities"] == [{"name": "Northlands", "points": 1}]
    assert "Contact (Harbour Master)" in {t["name"] for t in document["traits"]}
    profile = document["profile"]
    assert (profile["name"], profile["player"], profile["age"]) == ("Brannoc the Bold", "Tess", "25")
    assert (profile["height"], profile["weight"]) == ("180 cm", "90 kg")  # 72 in × 2.5; 180 lb / 2
    assert document["techLevel"] == {"level": 3, "points": 0}


def test_v5_equipment_in_kg_and_other_equipment_left_out() -> None:
    result = imported("v5_fighter.gcs")
    document = result.document
    items = {item["name"]: item for item in document["equipment"]}
    assert items["Backpack, Small"]["weight"] == 2.5  # 5 lb with its contents
    assert items["Backpack, Small"]["cost"] == 68
    assert "Riding Horse" not in items
    assert document["possessionsTotal"] == {"cost": 500 + 60 + 68 + 100, "weight": (3 + 15 + 5 + 10) / 2}
    assert any(n.kind == "notCarried" and n.source == "/other_equipment" for n in result.notes)


def test_v5_notes_say_what_the_document_leaves_out() -> None:
    notes = imported("v5_fighter.gcs").notes
    by_source = {(n.source, n.kind) for n in notes}
    assert ("/traits/3", "notCarried") in by_source  # the disabled trait
    assert ("/skills", "approximated") in by_source  # the 0-point skill, stored at 1 point
    assert ("/attributes", "movedToExtensions") in by_source  # vision
    assert ("/profile/portrait", "notCarried") in by_source
    assert ("/settings/body_type", "movedToExtensions") in by_source
    assert ("/attributes/0", "deviation") in by_source  # ST points


# ---------------------------------------------------------------- version 5 (2025 keys)


def test_v5_2025_keys_are_read() -> None:
    result = imported("v5_2025_hound.gcs")
    document = result.document
    assert document["extensions"][EXTENSION]["keyVariant"] == "v5-2025"
    assert document["notes"] == ["## Lair", "Gnawed bones everywhere."]  # markdown, container first
    assert document["skills"][0]["notes"] == "bites"  # local_notes
    teeth = next(t for t in document["traits"] if t["name"] == "Sharp Teeth")
    assert "Fierce (+50%)" in teeth["notes"]  # cost_adj


def test_v5_creature_without_fp_gets_its_base_with_a_note() -> None:
    result = imported("v5_2025_hound.gcs")
    assert result.document["secondary"]["fp"] == {"value": 12, "base": 12, "points": 0}  # HT 12
    assert any(n.kind == "defaulted" and "FP" in n.message for n in result.notes)


def test_v5_size_modifier_includes_trait_bonuses_and_cost_reductions_are_kept() -> None:
    document = imported("v5_2025_hound.gcs").document
    assert document["profile"]["sizeModifier"] == 1  # no SM in the profile, +1 from a trait
    st = document["attributes"]["st"]
    assert st["costModifiers"] == [{"name": "No Fine Manipulators", "percent": -40}]
    # 5 levels × 10 × (1 - 40% - 10% for SM 1) = 25, as GCS saved: no deviation
    assert st["points"] == 25
    assert not [d for d in document["integrity"]["deviations"] if d["pointer"] == "/attributes/st/points"]


def test_v5_halved_move_and_dodge_when_reeling_and_minimum_move() -> None:
    data = fixture("v5_2025_hound.gcs")
    document = imported("v5_2025_hound.gcs").document
    assert [level["move"] for level in document["encumbrance"]["levels"]] == data["calc"]["move"]
    # HP 4 of 15 is at or below ceil(15/3) - 1 = 4: Reeling halves Move and Dodge
    assert "Reeling" in deviation(document, "/encumbrance/levels/0/move")["justification"]
    assert "poolStates" not in document["extensions"][EXTENSION]  # it would go stale (issue 23)
    assert get_condition(document).hp.state == "reeling"  # the state of the moment, from the pools
    assert "Reeling" in deviation(document, "/defenses/dodge/value")["justification"]
    assert "at least 1" in deviation(document, "/encumbrance/levels/4/move")["justification"]


def test_v5_meta_trait_children_are_traits_of_their_own() -> None:
    document = imported("v5_2025_hound.gcs").document
    traits = {t["name"]: t for t in document["traits"]}
    assert "Meta-Trait: Quadruped" not in traits
    # the meta-trait's -40 is its two children's -30 and -10
    assert (traits["No Fine Manipulators"]["points"], traits["No Fine Manipulators"]["type"]) == (
        -30,
        "disadvantage",
    )
    assert traits["Horizontal"]["points"] == -10
    assert traits["Horizontal"]["notes"].startswith("Part of: Meta-Trait: Quadruped (meta-trait)")


def test_v5_wildcard_skill_is_a_very_hard_skill_at_a_third_of_its_points() -> None:
    document = imported("v5_2025_hound.gcs").document
    index = next(i for i, s in enumerate(document["skills"]) if s["name"] == "Hunter!")
    hunter = document["skills"][index]
    # Per/W, 6 points: a third (2 points) of a Very Hard skill buys Per-2 (B175); GCS's Per+0 = 10
    assert (hunter["difficulty"], hunter["relativeLevel"], hunter["level"], hunter["points"]) == (
        "VH",
        -2,
        10,
        6,
    )
    assert hunter["bonuses"] == [{"name": "GCS skill bonuses", "amount": 2}]
    assert "wildcard" in deviation(document, f"/skills/{index}/points")["justification"]
    assert "skills" not in document["extensions"][EXTENSION]


def test_skill_bonus_from_rsl() -> None:
    document = imported("v5_2025_hound.gcs").document
    tracking = next(s for s in document["skills"] if s["name"] == "Tracking")
    # Per/A with 3 points buys Per+0; GCS's rsl Per+2 holds +2 in bonuses
    assert (tracking["relativeLevel"], tracking["level"]) == (0, 12)
    assert tracking["bonuses"] == [{"name": "GCS skill bonuses", "amount": 2}]


# ---------------------------------------------------------------- version 4


def test_v4_striking_st_and_fatigue() -> None:
    data = fixture("v4_wizard.gcs")
    document = imported("v4_wizard.gcs").document
    assert document["damage"]["swing"]["notation"] == data["calc"]["swing"]
    assert "Striking ST +2" in deviation(document, "/damage/swing")["justification"]
    assert document["secondary"]["fp"]["current"] == calc_attribute(data, "fp")["current"]
    # FP 3 of 12 is Tired: GCS halves ST for lifting (ST 5: 5 lb = 2.5 kg)
    assert document["encumbrance"]["basicLift"] == 2.5
    assert "Tired" in deviation(document, "/encumbrance/basicLift")["justification"]


def test_v4_spells_are_skills_and_extra_pools_go_to_extensions() -> None:
    document = imported("v4_wizard.gcs").document
    skills = {s["name"]: s for s in document["skills"]}
    assert skills["Light"]["level"] == 13 and skills["Light"]["difficulty"] == "H"
    # IQ/H with 1 point is IQ-2; GCS's IQ+0 holds Magery 2's spell bonus, named after the trait
    assert (skills["Light"]["relativeLevel"], skills["Light"]["bonuses"]) == (
        -2,
        [{"name": "Magery", "amount": 2}],
    )
    assert "College: Light and Darkness" in skills["Light"]["notes"]
    assert skills["Ward"]["level"] == 12  # ritual magic: GCS's level
    extra = document["extensions"][EXTENSION]["attributes"]
    assert extra == [{"id": "mana", "name": "Mana", "value": 14, "points": 3, "current": 12}]
    # Mana's 3 points, less 1: the 0-point technique Disarming is stored with the format's 1 point
    assert document["points"]["breakdown"]["other"] == 3 - 1


def test_v4_tech_level_language_reaction_and_weapons() -> None:
    document = imported("v4_wizard.gcs").document
    assert document["techLevel"] == {"level": 4, "points": 5}
    assert document["languages"] == [
        {"name": "Latin", "spoken": "accented", "written": "broken", "points": 3}
    ]
    assert document["reactionModifiers"] == [
        {"source": "reputation", "description": "Reputation: from scholars", "modifier": 2}
    ]
    ranged = document["weapons"]["ranged"][0]
    assert ranged["range"] == {"notation": "10/15", "halfDamage": 10, "max": 15}
    assert ranged["bulk"] == -6 and ranged["recoil"] is None
    assert document["weapons"]["melee"][0]["parry"] == {"notation": "+2", "modifier": 2, "unbalanced": False}
    assert document["notes"] == ["Keeps a familiar owl. (M1)"]


# ---------------------------------------------------------------- versions 2 and 1: no calc


def test_v2_without_calc_uses_gcs_rules() -> None:
    result = imported("v2_scout.gcs")
    document = result.document
    values = {k: document["attributes"][k]["value"] for k in ("st", "dx", "iq", "ht")}
    assert values == {"st": 9, "dx": 12, "iq": 10, "ht": 11}  # 10 + adj
    assert document["secondary"]["hp"] == {"value": 10, "base": 9, "points": 2, "current": 7}
    assert document["secondary"]["per"]["value"] == 12
    traits = {t["name"]: t["points"] for t in document["traits"]}
    assert traits == {"Acute Vision": 4, "Fit": 4, "Curious": -5, "Hums while walking": -1}  # Fit: 5 × 80%
    assert document["meta"]["createdAt"] == "2021-03-03T19:05:00Z"
    dr = {e["location"]: e["dr"] for e in document["damageResistance"]}
    assert dr == {"Skull": 0, "Torso": 1}  # the skull's own DR 2 is the rules'; the jacket on the torso
    assert document["equipment"][0]["weight"] == (1 + 3 * 0.5) / 2
    assert any(n.kind == "approximated" and n.source == "/advantages" for n in result.notes)


def test_v1_top_level_values() -> None:
    document = imported("v1_ranger.gcs").document
    assert {k: document["attributes"][k]["value"] for k in ("st", "dx", "iq", "ht")} == {
        "st": 11,
        "dx": 13,
        "iq": 11,
        "ht": 12,
    }
    secondary = document["secondary"]
    assert secondary["will"]["value"] == 12 and secondary["per"]["value"] == 13
    assert secondary["basicSpeed"]["value"] == (13 + 12) / 4 + 0.25
    assert secondary["basicMove"]["value"] == math.floor((13 + 12) / 4 + 0.25)
    assert secondary["hp"]["current"] == 11 + 1 - 5 and secondary["fp"]["current"] == 12 - 2
    skills = {s["name"]: s for s in document["skills"]}
    assert skills["Bow"]["attribute"] == "dx" and skills["Bow"]["level"] == 15  # DX/A, 8 points: +2
    assert skills["Survival (Woodlands)"]["attribute"] == "per"
    assert {t["name"]: t["points"] for t in document["traits"]} == {
        "Outdoorsman": 20,
        "Sense of Duty (Companions)": -5,
    }


# ---------------------------------------------------------------- refusals


def test_xml_is_refused_with_how_to_convert() -> None:
    text = '<?xml version="1.0"?>\n<character id="x" version="4">\n</character>\n'
    with pytest.raises(CharacterError) as caught:
        import_gcs(text)
    assert caught.value.code == "unsupportedGcsVersion"
    assert caught.value.details == {"version": "4", "format": "xml"}
    assert caught.value.message == (
        "This is an XML GCS file (saved by GCS 4.x or older), which this importer does not read. "
        "Current GCS (5.x) cannot open XML files either, but the last Java releases of GCS 4 read them "
        "and save JSON: open the file there, save it, and import the saved file."
    )


@pytest.mark.parametrize("version", [0, 3, 6, -1])
def test_versions_gcs_never_wrote_are_refused(version: int) -> None:
    with pytest.raises(CharacterError) as caught:
        import_gcs({"version": version, "profile": {}})
    assert caught.value.code == "unsupportedGcsVersion"
    assert caught.value.details == {"version": version}
    assert caught.value.message == (
        f"GCS file version {version} is not one this importer knows: GCS has written characters as "
        "versions 1, 2, 4 and 5."
    )


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        ([], "the file is not a JSON object"),
        ({"profile": {}}, "it has no version"),
        ({"version": "5"}, "its version is not a whole number"),
        ({"version": 5.0}, "its version is not a whole number"),
        ({"version": 4, "type": "trait_list", "rows": []}, "its type is 'trait_list', not 'character'"),
        ({"version": 5, "rows": []}, "it is a GCS list (rows), not a character"),
        ({"version": 5, "type": None}, "its type is not text"),
    ],
)
def test_json_that_is_no_gcs_character_is_refused(data: Any, reason: str) -> None:
    with pytest.raises(CharacterError) as caught:
        import_gcs(json.dumps(data))
    assert caught.value.code == "notGcs"
    assert caught.value.details == {"reason": reason}
    assert caught.value.message == f"This JSON is not a GCS character file: {reason}."


def test_text_that_starts_like_xml_is_refused_as_a_gcs_version() -> None:
    with pytest.raises(CharacterError) as caught:
        import_gcs("<<<<<<< Updated upstream\n{}\n=======\n{}\n>>>>>>> Stashed changes\n")
    assert caught.value.code == "unsupportedGcsVersion"
    assert caught.value.details == {"version": None, "format": "conflict"}
    assert caught.value.message == (
        "This file starts with a version-control conflict marker, not GCS JSON: resolve the conflict "
        "(keep one version of the file), then import it."
    )


def test_text_errors_are_those_of_parse_character() -> None:
    with pytest.raises(CharacterError) as caught:
        import_gcs('{"version": 5,\n<<<<<<< Updated upstream\n}')
    assert caught.value.code == "invalidJson"
    with pytest.raises(CharacterError) as caught:
        import_gcs('{"version": 5}', max_bytes=5)
    assert caught.value.code == "tooLarge" and caught.value.details == {"size": 14, "limit": 5}
    with pytest.raises(CharacterError) as caught:
        import_gcs(b'{"version": 5, "profile": {"name": "\xff"}}')
    assert caught.value.code == "invalidJson"


def test_a_byte_order_mark_is_skipped_as_gcs_does() -> None:
    text = fixture_text("v5_fighter.gcs")
    assert import_gcs("\ufeff" + text, now=NOW) == import_gcs(text, now=NOW)
    assert import_gcs(b"\xef\xbb\xbf" + text.encode(), now=NOW) == import_gcs(text, now=NOW)


def test_a_minimal_file_imports() -> None:
    result = import_gcs({"version": 5}, now=NOW)
    document = result.document
    assert validate_character(document).valid and verify_character(document).claim_consistent
    assert document["profile"]["name"] == ""
    assert document["points"]["spent"] == 0 and document["points"]["budget"] is None
    assert any(n.kind == "defaulted" and n.source == "/profile/name" for n in result.notes)


# ---------------------------------------------------------------- hostile files


def _nested(kind: str, depth: int) -> str:
    return f'{{"type": "{kind}", "name": "g", "children": [' * depth + '{"name": "leaf"}' + "]}" * depth


@pytest.mark.parametrize("key", ["traits", "skills", "spells", "equipment", "notes"])
def test_deep_nesting_is_bounded(key: str) -> None:
    kind = {
        "traits": "trait",
        "skills": "skill",
        "spells": "spell",
        "equipment": "equipment",
        "notes": "note",
    }[key]
    text = f'{{"version": 4, "type": "character", "{key}": [{_nested(kind + "_container", 20_000)}]}}'
    result = import_gcs(text, max_bytes=len(text), now=NOW)
    assert validate_character(result.document).valid
    assert verify_character(result.document).claim_consistent


def test_a_mapping_reads_as_its_json_text_would() -> None:
    text = '{"version": 5, "total_points": 123456789012345678901234567890}'
    data = {"version": 5, "total_points": 123456789012345678901234567890}
    assert import_gcs(data, now=NOW) == import_gcs(text, now=NOW)
    with pytest.raises(CharacterError) as caught:
        import_gcs({"version": 5, "third_party": {"n": [10**400]}})
    assert caught.value.code == "invalidJson"
    assert caught.value.details == {
        "pointer": "/third_party/n/0",
        "reason": "an integer of 1329 bits (beyond doubles) is not a JSON number",
    }


def test_integers_beyond_doubles_in_text_are_read_as_javascript_reads_them() -> None:
    # JSON.parse rounds 2**53 + 1 to 2**53 (the nearest double, ties to even)
    text = '{"version": 5, "third_party": {"n": [9007199254740993, 5]}}'
    gcs = json.loads(import_gcs(text, now=NOW).document["extensions"][EXTENSION][KEPT_TEXT])
    assert gcs["third_party"]["n"] == [9007199254740992, 5]
    assert type(gcs["third_party"]["n"][0]) is int
    # one no double holds is refused as the JSON reader refuses it, before a later error of the
    # text (the first fault in the text is the one named)
    for text in (
        '{"version": 5, "third_party": {"n": [1' + "0" * 400 + "]}}",
        '{"version": 5, "third_party": {"n": [1' + "0" * 400 + "]}, }",
    ):
        with pytest.raises(CharacterError) as caught:
            import_gcs(text)
        with pytest.raises(CharacterError) as read:
            read_json(text)  # the library's JSON reading of every text
        assert caught.value.code == read.value.code == "invalidJson"
        assert caught.value.details == read.value.details
        assert "(line 1, column 38): number 1000" in str(caught.value)  # where the literal starts


def _deep_and_wide(depth: int, leaf: Any) -> dict[str, Any]:
    """{"a/b~": [[1], [[1], [... [leaf]]]]}: a list beside the next level at every level."""
    inner: Any = [leaf]
    for _ in range(depth):
        inner = [[1], inner]
    return {"version": 5, "third_party": {"a/b~": inner}}


def test_a_deep_and_wide_mapping_is_read_in_linear_memory() -> None:
    data = _deep_and_wide(3000, 1)
    tracemalloc.start()
    try:
        import_gcs(data, now=NOW)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4_000_000  # a pointer string per waiting container would take about 9 MB here
    with pytest.raises(CharacterError) as caught:
        import_gcs(_deep_and_wide(300, 10**400), now=NOW)
    assert caught.value.details["pointer"] == "/third_party/a~1b~0" + "/1" * 300 + "/0"


def test_huge_numbers_count_as_absent() -> None:
    data = fixture("v5_fighter.gcs")
    data["attributes"][0]["calc"]["value"] = 10**300
    data["attributes"][1]["adj"] = 1e300
    data["total_points"] = 10**30
    data["skills"][0]["points"] = 1e200
    result = import_gcs(data, now=NOW)
    assert validate_character(result.document).valid
    assert verify_character(result.document).claim_consistent
    assert result.document["points"]["budget"] is None


_ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["@x@", "1d+2", "3 lb", "dx/a", "h", "-", "x2", "+50%", "1,200"]),
    st.just([]),
    st.just({}),
    st.lists(st.integers(), max_size=3),
)


def _slots(value: Any) -> list[tuple[Any, Any]]:
    """Every (container, key) of a JSON value, in a stable order."""
    found: list[tuple[Any, Any]] = []
    stack = [value]
    while stack:
        item = stack.pop()
        pairs = (
            list(item.items())
            if isinstance(item, dict)
            else list(enumerate(item))
            if isinstance(item, list)
            else []
        )
        for key, child in pairs:
            found.append((item, key))
            stack.append(child)
    return found


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(ALL_FIXTURES),
    changes=st.lists(st.tuples(st.integers(min_value=0), _ODD_VALUES), min_size=1, max_size=12),
)
def test_wrong_types_anywhere_give_a_valid_honest_document(name: str, changes: list[tuple[int, Any]]) -> None:
    data = fixture(name)
    for position, value in changes:
        slots = _slots(data)
        holder, key = slots[position % len(slots)]
        holder[key] = value
    try:
        result = import_gcs(data, now=NOW)
    except CharacterError as err:
        assert err.code in {"notGcs", "unsupportedGcsVersion"}
        return
    assert validate_character(result.document).valid, validate_character(result.document).errors[:3]
    assert verify_character(result.document).claim_consistent
