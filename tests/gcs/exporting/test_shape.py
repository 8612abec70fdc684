"""Exported files are GCS version 5 files as ../shared/design/gcs/FORMAT.md describes them: one
test per rule of that description that applies to writing a file (section numbers are FORMAT.md's),
checked on the bundled characters, characters built from the schema, and (when ../shared is
present) every shared GCS character exported anew.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from gurps_character import CharacterError, export_gcs, import_gcs
from gurps_character.yaml import parse_yaml_character
from tests.support.gcs_roundtrip import NOW
from tests.support.paths import REPOSITORY
from tests.support.strategies import RandomChooser, example, valid_document

SHARED_GCS = REPOSITORY.parent / "shared" / "gcs"
TID = re.compile(r"[A-Za-z0-9]([A-Za-z0-9_-]{16})")
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)")
WEIGHT = re.compile(r"-?\d{1,3}(,\d{3})*(\.\d{1,4})? lb")
DICE = re.compile(r"\d+d([+-]\d+)?|-?\d+")
TOP_KEYS = (
    "version", "id", "total_points", "points_record", "profile", "settings", "attributes", "traits",
    "skills", "spells", "equipment", "other_equipment", "notes", "created_date", "modified_date",
    "third_party", "calc",
)  # fmt: skip
KINDS = {"traits": "tT", "skills": "sSqpPr", "equipment": "eE", "notes": "nN"}
FEATURE_KEYS = {
    "attribute_bonus": {"type", "limitation", "attribute", "amount", "per_level"},
    "cost_reduction": {"type", "attribute", "percentage"},
    "dr_bonus": {"type", "locations", "specialization", "amount", "per_level"},
    "skill_bonus": {"type", "selection_type", "name", "specialization", "tags", "amount", "per_level"},
    "reaction_bonus": {"type", "situation", "amount", "per_level"},
}
ATTRIBUTE_TYPES = {"integer", "integer_ref", "decimal", "decimal_ref", "pool", "pool_ref"}
RESERVED = {"skill", "parry", "block", "sm", "10"}


def _characters() -> Iterator[tuple[str, dict[str, Any]]]:
    yield "rurik", example("rurik")
    yield "jotun", example("jotun")
    yaml_text = (REPOSITORY / "examples" / "odile.yaml").read_text()
    yield "odile", dict(parse_yaml_character(yaml_text).character)
    for seed in range(12):
        yield f"generated-{seed}", valid_document(RandomChooser(random.Random(seed)))
    for path in sorted(SHARED_GCS.glob("*.gcs")) if SHARED_GCS.is_dir() else []:
        try:
            document = import_gcs(path.read_bytes(), now=NOW).document
        except CharacterError:
            continue
        document.pop("extensions")
        yield path.stem, document


EXPORTED = [(name, export_gcs(document, now=NOW).text) for name, document in _characters()]
"""(name, the exported text) of every character checked."""


def files() -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("name", "text"), EXPORTED, ids=[name for name, _ in EXPORTED])


def _nodes(items: list[Any]) -> Iterator[dict[str, Any]]:
    stack = list(reversed(items))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.get("children", [])))


def _weapons(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key in ("traits", "skills", "equipment"):
        for node in _nodes(data.get(key, [])):
            yield from node.get("weapons", [])


def _features(data: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for key in ("traits", "skills", "equipment"):
        for node in _nodes(data.get(key, [])):
            yield from node.get("features", [])


def _numbers(value: Any) -> Iterator[float]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, int | float) and not isinstance(item, bool):
            yield item


# ---------------------------------------------------------------- §0 the file


@files()
def test_0_utf8_json_indented_with_tabs_without_byte_order_mark(name: str, text: str) -> None:
    assert not text.startswith("\ufeff") and text.startswith("{\n\t") and text.endswith("}\n")
    text.encode("utf-8")  # strict: no lone surrogates
    assert (
        json.dumps(json.loads(text), indent="\t", ensure_ascii=False)
        .replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
        + "\n"
        == text
    )


@files()
def test_0_version_5_and_numbers_with_at_most_four_decimals(name: str, text: str) -> None:
    data = json.loads(text)
    assert data["version"] == 5
    for number in _numbers(data):
        assert round(number, 4) == number and abs(number) < 2**53


@files()
def test_0_dates_are_rfc_3339(name: str, text: str) -> None:
    data = json.loads(text)
    dates = [
        data["created_date"],
        data["modified_date"],
        *(record["when"] for record in data["points_record"]),
    ]
    assert all(RFC3339.fullmatch(date) for date in dates)


@files()
def test_0_ids_are_tids_of_the_nodes_kind_and_unique(name: str, text: str) -> None:
    data = json.loads(text)
    ids = [data["id"]]
    assert data["id"][0] == "A" and TID.fullmatch(data["id"])
    for key, letters in KINDS.items():
        for node in _nodes(data.get(key, [])):
            assert TID.fullmatch(node["id"]) and node["id"][0] in letters
            ids.append(node["id"])
            for modifier in node.get("modifiers", []):
                assert TID.fullmatch(modifier["id"]) and modifier["id"][0] in "mMfF"
                ids.append(modifier["id"])
    for weapon in _weapons(data):
        assert TID.fullmatch(weapon["id"]) and weapon["id"][0] in "wW"
        ids.append(weapon["id"])
    assert len(ids) == len(set(ids))


# ---------------------------------------------------------------- §1 top level


@files()
def test_1_top_level_keys_in_gcs_order_without_empty_lists(name: str, text: str) -> None:
    data = json.loads(text)
    assert list(data) == [key for key in TOP_KEYS if key in data]
    assert {"version", "id", "total_points", "profile", "created_date", "modified_date", "calc"} <= set(data)
    assert all(value != [] for value in data.values())


@files()
def test_1_the_points_record_adds_up_to_the_total(name: str, text: str) -> None:
    data = json.loads(text)
    assert sum(record["points"] for record in data["points_record"]) == data["total_points"]


@files()
def test_1_1_calc_has_dice_lift_in_pounds_and_five_levels(name: str, text: str) -> None:
    calc = json.loads(text)["calc"]
    assert DICE.fullmatch(calc["swing"]) and DICE.fullmatch(calc["thrust"])
    assert WEIGHT.fullmatch(calc["basic_lift"])
    assert len(calc["move"]) == len(calc["dodge"]) == 5 and min(calc["dodge"]) >= 1
    assert all(calc[key] != 0 for key in calc if key.endswith("_bonus"))


# ---------------------------------------------------------------- §2 profile


@files()
def test_2_profile_height_in_feet_and_inches_weight_in_pounds(name: str, text: str) -> None:
    profile = json.loads(text)["profile"]
    assert isinstance(profile["name"], str)
    if "height" in profile:
        assert re.fullmatch(r"\d+'(\d+(\.\d)?\")?", profile["height"])
    if "weight" in profile:
        assert WEIGHT.fullmatch(profile["weight"])
    assert isinstance(profile.get("SM", 1), int) and profile.get("SM") != 0


# ---------------------------------------------------------------- §3 attributes


@files()
def test_3_1_attribute_definitions(name: str, text: str) -> None:
    definitions = json.loads(text)["settings"]["attributes"]
    ids = [definition["id"] for definition in definitions]
    assert len(ids) == len(set(ids)) and not set(ids) & RESERVED
    assert {"st", "dx", "iq", "ht", "will", "per", "hp", "fp", "basic_speed", "basic_move"} <= set(ids)
    for definition in definitions:
        assert definition["type"] in ATTRIBUTE_TYPES and isinstance(definition["base"], str)
        for threshold in definition.get("thresholds", []):
            assert set(threshold) <= {"state", "value", "explanation", "ops"}
            assert set(threshold.get("ops", [])) <= {"halve_move", "halve_dodge", "halve_st"}


@files()
def test_3_2_attribute_values_with_damage_only_on_pools(name: str, text: str) -> None:
    data = json.loads(text)
    pools = {d["id"] for d in data["settings"]["attributes"] if d["type"] == "pool"}
    for entry in data["attributes"]:
        assert list(entry) == [key for key in ("attr_id", "adj", "damage", "calc") if key in entry]
        assert "damage" not in entry or (entry["attr_id"] in pools and entry["damage"] != 0)
        if entry["attr_id"] in pools:
            assert entry["calc"]["current"] == entry["calc"]["value"] - entry.get("damage", 0)


# ---------------------------------------------------------------- §4 traits and features


@files()
def test_4_traits_have_points_and_their_modifiers_gcs_costs(name: str, text: str) -> None:
    for trait in _nodes(json.loads(text).get("traits", [])):
        assert isinstance(trait["name"], str) and isinstance(trait["calc"]["points"], int | float)
        if trait.get("can_level"):
            assert trait["calc"]["current_level"] == trait["levels"]
        for modifier in trait.get("modifiers", []):
            assert re.fullmatch(r"[+-]\d+(\.\d+)?%?|x\d+(\.\d+)?%?", modifier.get("cost_adj", "+0"))


@files()
def test_4_2_features_are_of_known_types_with_their_fields(name: str, text: str) -> None:
    for feature in _features(json.loads(text)):
        assert set(feature) <= FEATURE_KEYS[feature["type"]]
        assert isinstance(feature.get("amount", feature.get("percentage")), int | float)


# ---------------------------------------------------------------- §5 skills


@files()
def test_5_skills_difficulty_level_and_relative_level(name: str, text: str) -> None:
    for skill in _nodes(json.loads(text).get("skills", [])):
        assert re.fullmatch(r"(st|dx|iq|ht|will|per)/(e|a|h|vh)", skill["difficulty"])
        calc = skill.get("calc")
        if calc is None:
            continue  # GCS leaves calc out at level 0 or below
        assert calc["level"] > 0 and re.fullmatch(r"(ST|DX|IQ|HT|Will|Per)[+-]\d+", calc["rsl"])


# ---------------------------------------------------------------- §7 equipment


@files()
def test_7_equipment_quantity_values_and_weights(name: str, text: str) -> None:
    for item in _nodes(json.loads(text).get("equipment", [])):
        quantity = item["quantity"]
        assert isinstance(item["description"], str) and isinstance(quantity, int | float) and quantity > 0
        assert item.get("equipped", True) is True
        assert isinstance(item.get("base_value", "0"), str) and WEIGHT.fullmatch(
            item.get("base_weight", "0 lb")
        )
        calc = item["calc"]
        assert isinstance(calc["value"], int | float) and isinstance(calc["extended_value"], int | float)
        assert WEIGHT.fullmatch(calc["weight"]) and WEIGHT.fullmatch(calc["extended_weight"])
        # a stack (Arrow ×20): one's value and weight times the quantity, in GCS's four decimals
        assert round(calc["value"] * quantity, 4) == round(calc["extended_value"], 4)
        assert round(_pounds(calc["weight"]) * quantity, 4) == round(_pounds(calc["extended_weight"]), 4)


def _pounds(weight: str) -> float:
    return float(weight.split()[0].replace(",", ""))


# ---------------------------------------------------------------- §8 weapons


@files()
def test_8_weapons_of_their_kind_with_damage_and_only_the_calc_that_differs(name: str, text: str) -> None:
    for weapon in _weapons(json.loads(text)):
        assert weapon["sv"] == 1 and isinstance(weapon["damage"]["type"], str)
        assert weapon["damage"].get("st", "thr") in ("thr", "sw")
        melee_only, ranged_only = (
            {"reach", "parry", "block"},
            {"accuracy", "range", "rate_of_fire", "shots", "bulk", "recoil"},
        )
        assert not set(weapon) & (ranged_only if weapon["id"][0] == "w" else melee_only)
        calc = weapon.get("calc", {})
        assert calc != {} and all(value not in ("", 0) for value in calc.values())
        for key in ("parry", "block", "reach", "range"):
            assert key not in calc or calc[key] != weapon.get(key)


# ---------------------------------------------------------------- §9 settings and body


@files()
def test_9_settings_progression_units_and_body(name: str, text: str) -> None:
    settings = json.loads(text)["settings"]
    assert settings["damage_progression"] in (
        "basic_set",
        "knowing_your_own_strength",
        "no_school_grognard_damage",
        "thrust_equals_swing_minus_2",
        "swing_equals_thrust_plus_2",
    )
    assert (settings["default_weight_units"], settings["default_length_units"]) == ("lb", "ft_in")
    body = settings["body_type"]
    assert (body["name"], body["roll"]) == ("Humanoid", "3d")
    assert sum(location.get("slots", 0) for location in body["locations"]) == 16  # 3 to 18 on 3d
    for location in body["locations"]:
        assert {"id", "choice_name", "table_name", "calc"} <= set(location)
        assert set(location["calc"]) == {"roll_range", "dr"} and "all" in location["calc"]["dr"]
