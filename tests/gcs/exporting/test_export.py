"""export_gcs on documents that did not come from GCS: a new GCS character whose numbers, by GCS's
rules, are the document's. The round trip through the importer (as written, and with every
``calc`` block removed so the importer computes by GCS's rules) gives the document's numbers
(``gcs_roundtrip.differences``), except where the export says GCS differs; deviations from the
rules are reproduced with GCS features and noted; bad input gets only ``CharacterError``.
"""

from __future__ import annotations

import copy
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings

from gurps_character import (
    CharacterError,
    ExportNote,
    GcsExport,
    export_gcs,
    import_gcs,
    parse_character,
    serialize_character,
    validate_character,
)
from gurps_character.gcs import ExportNoteKind
from gurps_character.gcs.exporting.new_character import ADJUSTMENTS
from gurps_character.gcs.format.progression import basic_lift_formula, basic_lift_pounds
from gurps_character.load import check_envelope
from tests.support.gcs_roundtrip import NOW, differences, imported_back, without_calc
from tests.support.paths import REPOSITORY
from tests.support.strategies import example, hostile_documents, snapshot, valid_documents

ROOT = REPOSITORY
REFERENCE = ROOT.parent / "shared" / "reference"
SHARED_GCS = ROOT.parent / "shared" / "gcs"
REFERENCE_FILES = sorted(path for path in REFERENCE.glob("*.json") if "schema" not in path.name)
GCS_FILES = sorted(SHARED_GCS.glob("*.gcs")) if SHARED_GCS.is_dir() else []
CONFORMANCE = sorted((ROOT.parent / "shared" / "conformance").glob("cases*.jsonl.gz"))


def conformance_documents() -> list[tuple[str, dict[str, Any]]]:
    """Every distinct valid document of the conformance corpus (given as data or as text), with
    the id of the first case holding it: documents written by other hands than our strategies'."""
    found: dict[str, tuple[str, dict[str, Any]]] = {}
    for path in CONFORMANCE:
        with gzip.open(path, "rt", encoding="utf-8") as lines:
            for line in lines:
                case = json.loads(line)
                for value in case.get("args", {}).values():
                    document = value if isinstance(value, dict) else None
                    if isinstance(value, str) and '"gurps-character"' in value:
                        try:
                            document = dict(parse_character(value).character)
                        except CharacterError:
                            continue
                    if document is None or document.get("format") != "gurps-character":
                        continue
                    try:
                        check_envelope(document)  # not a newer formatVersion, which export_gcs refuses
                        valid = validate_character(document).valid
                    except CharacterError:
                        continue
                    key = hashlib.sha256(json.dumps(document, sort_keys=True).encode()).hexdigest()
                    if valid:
                        found.setdefault(key, (case["id"], document))
    return list(found.values())


CONFORMANCE_DOCUMENTS = conformance_documents()


def odile() -> dict[str, Any]:
    from gurps_character.yaml import parse_yaml_character

    return dict(parse_yaml_character((ROOT / "examples" / "odile.yaml").read_text()).character)


def round_trip(document: dict[str, Any]) -> GcsExport:
    """Exports, imports back both ways and asserts the numbers come back (or were said not to)."""
    exported, with_calc, without = imported_back(document)
    assert differences(document, with_calc, exported.notes) == []
    assert differences(document, without, exported.notes) == []
    return exported


def kinds(exported: GcsExport, kind: str) -> list[tuple[str, str]]:
    return [(note.source, note.message) for note in exported.notes if note.kind == kind]


def adjustments(data: dict[str, Any]) -> dict[str, Any]:
    return next(trait for trait in data["traits"] if trait["name"] == ADJUSTMENTS)


# ---------------------------------------------------------------- the bundled and shared characters


def test_rurik_comes_back_with_every_number_and_nothing_said_to_differ() -> None:
    exported = round_trip(example("rurik"))
    assert kinds(exported, "differs") == []


def test_jotun_comes_back_but_his_house_rule_swing_is_one_gcs_cannot_show() -> None:
    document = example("jotun")
    exported = round_trip(document)
    lift = ["/encumbrance/basicLift", *(f"/encumbrance/levels/{level}/maxLoad" for level in range(5))]
    # GCS rounds Basic Lift in pounds (ST 22: 97 lb, 48.5 kg, where the format rounds to 48 kg)
    st = document["attributes"]["st"]["value"]
    rounded = basic_lift_pounds(st, "basic_set") / 2 != basic_lift_formula(st)
    expected = ["/damage/swing", *(lift if rounded else [])]
    assert [source for source, _ in kinds(exported, "differs")] == expected
    data = json.loads(exported.text)
    club = next(item for item in data["equipment"] if item["description"] == "Bridge-post club")
    # the club's damage carries the +2 of the swing GCS cannot show, so it still deals 4d+6
    assert club["weapons"][0]["damage"] == {"type": "cr", "st": "sw", "base": "6"}
    assert club["weapons"][0]["calc"]["damage"] == "4d+6 cr"


def test_odile_written_in_yaml_comes_back() -> None:
    exported = round_trip(odile())
    assert kinds(exported, "differs") == []


@pytest.mark.skipif(not REFERENCE_FILES, reason="no reference characters in ../shared/reference")
@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda path: path.name)
def test_the_reference_characters_come_back(path: Path) -> None:
    round_trip(json.loads(path.read_text(encoding="utf-8")))


@pytest.mark.skipif(not GCS_FILES, reason="no GCS files in ../shared/gcs (a clone without shared data)")
@pytest.mark.parametrize("path", GCS_FILES, ids=lambda path: path.name)
def test_imported_gcs_characters_exported_anew_come_back(path: Path) -> None:
    """Real characters with every kind of deviation (racial bonuses, Combat Reflexes, techniques,
    other damage progressions), exported as if they had never been GCS files."""
    try:
        document = import_gcs(path.read_bytes(), now=NOW).document
    except CharacterError:
        pytest.skip("a file the importer refuses (XML)")
    document.pop("extensions")
    round_trip(document)


@pytest.mark.skipif(not CONFORMANCE_DOCUMENTS, reason="no conformance corpus in ../shared/conformance")
@pytest.mark.parametrize(
    "document", [document for _, document in CONFORMANCE_DOCUMENTS], ids=[i for i, _ in CONFORMANCE_DOCUMENTS]
)
def test_the_conformance_corpus_documents_come_back(document: dict[str, Any]) -> None:
    round_trip(document)


# ---------------------------------------------------------------- generated documents


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(valid_documents())
def test_a_generated_document_comes_back_where_the_export_does_not_say_otherwise(
    document: dict[str, Any],
) -> None:
    before = copy.deepcopy(document)
    round_trip(document)
    assert document == before


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(hostile_documents(deep=3_000))
def test_hostile_documents_get_a_gcs_file_or_a_character_error(document: Any) -> None:
    inputs = (document,)
    before = snapshot(inputs)
    try:
        exported = export_gcs(document, now=NOW)
    except CharacterError as error:
        assert isinstance(error.code, str) and str(error) == error.message
    else:
        assert isinstance(json.loads(exported.text), dict)
    assert snapshot(inputs) == before


# ---------------------------------------------------------------- what the file holds


def test_the_result_is_text_and_notes_and_the_same_document_gives_the_same_file() -> None:
    first = export_gcs(example("jotun"), now=NOW)
    assert first._fields == ("text", "notes")
    assert first == export_gcs(example("jotun"), now=NOW)
    assert first.text.endswith("}\n") and "\t" in first.text
    assert all(isinstance(note, ExportNote) for note in first.notes)
    assert {note.kind for note in first.notes} <= set(get_args(ExportNoteKind))
    assert first.notes[0].to_dict() == {
        "source": first.notes[0].source,
        "kind": first.notes[0].kind,
        "message": first.notes[0].message,
    }


def test_attributes_are_levels_bought_and_gcs_charges_the_documents_points() -> None:
    data = json.loads(export_gcs(example("jotun"), now=NOW).text)
    by_id = {entry["attr_id"]: entry for entry in data["attributes"]}
    # ST 22 bought with a -20 % limitation at SM +1: 12 levels, 84 points (B15, B19)
    assert by_id["st"] == {"attr_id": "st", "adj": 12, "calc": {"value": 22, "points": 84}}
    assert by_id["hp"] == {
        "attr_id": "hp",
        "adj": 6,
        "damage": 7,
        "calc": {"value": 28, "current": 21, "points": 11},
    }
    limitation = next(t for t in data["traits"] if t["name"] == "Accessibility: not in direct sunlight")
    assert limitation["features"] == [{"type": "cost_reduction", "attribute": "st", "percentage": 20}]
    assert data["profile"]["SM"] == 1


def test_a_dodge_above_the_rules_gets_a_gcs_dodge_bonus_and_a_note() -> None:
    document = example("rurik")
    document["defenses"]["dodge"]["value"] = 12
    for level in document["encumbrance"]["levels"]:
        level["dodge"] = 12 - level["level"]
    exported = round_trip(document)
    data = json.loads(exported.text)
    assert {"type": "attribute_bonus", "attribute": "dodge", "amount": 3} in adjustments(data)["features"]
    assert data["calc"]["dodge_bonus"] == 3 and data["calc"]["dodge"] == [12, 11, 10, 9, 8]
    assert (
        "/defenses/dodge/value",
        "Dodge 12 where Basic Speed gives 9: GCS adds +3 Dodge from 'Sheet adjustments'.",
    ) in kinds(exported, "deviation")


def test_a_skill_above_its_points_gets_a_skill_bonus() -> None:
    document = example("rurik")
    tactics = next(skill for skill in document["skills"] if skill["name"] == "Tactics")
    tactics["level"] = 14  # IQ 11, Hard, 4 points: 11 by the rules
    exported = round_trip(document)
    bonus = {
        "type": "skill_bonus",
        "selection_type": "skills_with_name",
        "name": {"compare": "is", "qualifier": "Tactics"},
        "specialization": {"compare": "is"},
        "amount": 3,
    }
    assert bonus in adjustments(json.loads(exported.text))["features"]
    assert [source for source, _ in kinds(exported, "deviation")] == ["/skills/8/level"]


def test_a_racial_attribute_bonus_is_an_attribute_bonus_with_the_levels_paid_for() -> None:
    document = example("rurik")
    document["attributes"]["st"] = {"value": 14, "points": 10}  # ST 14 for the price of 11
    exported = round_trip(document)
    data = json.loads(exported.text)
    st = next(entry for entry in data["attributes"] if entry["attr_id"] == "st")
    assert st == {"attr_id": "st", "adj": 1, "calc": {"value": 14, "points": 10}}
    assert {"type": "attribute_bonus", "attribute": "st", "amount": 3} in adjustments(data)["features"]


def test_named_skill_bonuses_sit_on_the_traits_that_give_them() -> None:
    data = json.loads(export_gcs(example("jotun"), now=NOW).text)
    outdoorsman = next(trait for trait in data["traits"] if trait["name"] == "Outdoorsman")
    assert [feature["name"]["qualifier"] for feature in outdoorsman["features"]] == ["Survival", "Naturalist"]
    survival = next(skill for skill in data["skills"] if skill["name"] == "Survival")
    assert survival["specialization"] == "Hills" and survival["calc"] == {"level": 12, "rsl": "Per+1"}


def test_dr_is_given_by_the_armor_the_document_names() -> None:
    data = json.loads(export_gcs(example("rurik"), now=NOW).text)
    helm = next(item for item in data["equipment"] if item["description"] == "Pot helm")
    assert helm["features"] == [{"type": "dr_bonus", "locations": ["skull"], "amount": 4}]
    jerkin = next(item for item in data["equipment"] if item["description"] == "Heavy leather jerkin")
    assert jerkin["features"] == [
        {"type": "dr_bonus", "locations": ["torso", "vitals", "groin"], "amount": 2}
    ]
    skull = next(
        location for location in data["settings"]["body_type"]["locations"] if location["id"] == "skull"
    )
    assert skull["calc"] == {"roll_range": "3-4", "dr": {"all": 6}}  # its own DR 2 and the helm's 4


def test_block_comes_from_a_shield_bash_on_the_documents_shield() -> None:
    exported = export_gcs(example("rurik"), now=NOW)
    data = json.loads(exported.text)
    shield = next(item for item in data["equipment"] if item["description"] == "Medium shield")
    bash = shield["weapons"][0]
    assert (bash["usage"], bash.get("parry", None), bash["block"]) == (
        "Shield Bash",
        None,
        "0",
    )
    assert bash["defaults"] == [{"type": "skill", "name": "Shield"}]
    assert bash["calc"] == {"level": 13, "damage": "1d-1 cr", "block": "9"}
    assert [source for source, _ in kinds(exported, "added")][:1] == ["/defenses/block/value"]


def test_a_hurt_character_is_hurt_in_gcs_and_gcs_halves_what_the_rules_halve() -> None:
    document = example("rurik")
    document["secondary"]["hp"]["current"] = 3  # below a third of 13: reeling (B419)
    exported = round_trip(document)
    data = json.loads(exported.text)
    # Move 6 and Dodge 9 halved (rounded up), then reduced per encumbrance level, at least 1
    assert data["calc"]["move"] == [3, 2, 1, 1, 1] and data["calc"]["dodge"] == [5, 4, 3, 2, 1]
    assert "/defenses/dodge/value" in [source for source, _ in kinds(exported, "differs")]


def test_an_item_named_as_the_importer_names_a_stack_is_that_stack_in_gcs() -> None:
    document = example("rurik")
    document["equipment"].append({"name": "Arrow ×20", "cost": 40, "weight": 1})
    document["equipment"].append({"name": "Rope ×1", "cost": 1, "weight": 1})
    document["possessionsTotal"]["cost"] += 41
    document["possessionsTotal"]["weight"] += 2
    exported = export_gcs(document, now=NOW)
    data = json.loads(exported.text)
    arrows = next(item for item in data["equipment"] if item["description"] == "Arrow")
    assert (arrows["quantity"], arrows["base_value"], arrows["base_weight"]) == (20, "2", "0.1 lb")
    assert arrows["calc"] == {"value": 2, "extended_value": 40, "weight": "0.1 lb", "extended_weight": "2 lb"}
    for source in (data, without_calc(data)):
        names = [item["name"] for item in import_gcs(source, now=NOW).document["equipment"]]
        assert "Arrow ×20" in names and "Rope ×1 ×1" in names  # one rope: GCS's name has no ×1
    assert [source for source, _ in kinds(exported, "differs")] == [
        f"/equipment/{len(document['equipment']) - 1}/name"
    ]


def test_a_minimum_st_gcs_would_cap_the_damage_with_is_left_out() -> None:
    """GCS figures thrust and swing at no more than 3 times a weapon's minimum ST: a bow of
    minimum ST 3 would deal ST 9's thrust for Tamsin's ST 11, where the document deals her own."""
    document = example("rurik")
    bow = document["weapons"]["ranged"][0]
    bow["minST"] = "3"
    exported = round_trip(document)
    data = json.loads(exported.text)
    weapon = next(item for item in data["equipment"] if item["description"] == "Regular Bow")["weapons"][0]
    assert "strength" not in weapon and weapon["calc"]["damage"] == "1d+1 imp"  # ST 11: thr 1d-1, +2
    assert ("/weapons/ranged/0/minST", "notCarried") in [(n.source, n.kind) for n in exported.notes]


@pytest.mark.parametrize("tired", [False, True], ids=["rested", "tired"])
def test_a_fencing_parry_loses_the_encumbrance_level_in_gcs_with_or_without_calc(tired: bool) -> None:
    """Tamsin carries 27 kg (54 lb in GCS): Medium with her Basic Lift of 24.2 lb, Extra-Heavy
    with her ST halved (6: 7.2 lb) while tired (B426); a fencing weapon's level and parry lose
    that level, the load read from the items' base_weight when the file has no calc."""
    document = example("rurik")
    document["weapons"]["melee"][0]["parry"] = {"notation": "0F", "modifier": 0, "unbalanced": False}
    if tired:
        document["secondary"]["fp"]["current"] = 3
    exported = round_trip(document)
    data = json.loads(exported.text)
    sword = next(item for item in data["equipment"] if item["description"] == "Broadsword")["weapons"][0]
    level = 4 if tired else 2
    assert sword["calc"]["level"] == 14 - level
    assert sword["calc"]["parry"] == f"{3 + 7 - level + data['calc'].get('parry_bonus', 0)}F"
    for imported in imported_back(document)[1:]:
        assert imported["defenses"]["parry"]["value"] == 10


def test_the_documents_other_points_are_priced_so_gcs_spends_the_same() -> None:
    document = example("rurik")
    document["points"]["breakdown"]["other"] = 7
    document["points"]["spent"] += 7
    document["points"]["unspent"] -= 7
    data = json.loads(round_trip(document).text)
    assert adjustments(data)["base_points"] == 7 and adjustments(data)["calc"] == {"points": 7}


# ---------------------------------------------------------------- refusals


def test_an_invalid_document_is_refused_as_serialize_character_refuses_it() -> None:
    document = example("rurik")
    document["attributes"]["st"]["value"] = "strong"
    with pytest.raises(CharacterError) as refused:
        export_gcs(document, now=NOW)
    with pytest.raises(CharacterError) as serialized:
        serialize_character(document)
    assert refused.value.code == "schema"
    assert (refused.value.message, refused.value.details) == (
        serialized.value.message,
        serialized.value.details,
    )


def test_a_base_for_a_document_that_never_was_a_gcs_file_is_refused() -> None:
    with pytest.raises(CharacterError) as refused:
        export_gcs(example("rurik"), base="{}", now=NOW)
    assert refused.value.code == "baseMismatch"
    assert refused.value.message == (
        "The document was not imported from GCS (it keeps no GCS file in its extensions), so it cannot "
        "be written into a GCS file; export it without base for a new GCS character."
    )


def test_a_naive_now_and_a_non_document_are_refused() -> None:
    with pytest.raises(TypeError, match="timezone-aware"):
        export_gcs(example("rurik"), now=NOW.replace(tzinfo=None))
    with pytest.raises(CharacterError) as refused:
        export_gcs("rurik", now=NOW)  # type: ignore[arg-type]
    assert (refused.value.code, refused.value.message) == (
        "notAnObject",
        "A character document must be a JSON object.",
    )
