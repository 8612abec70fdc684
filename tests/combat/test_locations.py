"""One vocabulary of hit locations (the rule's names and the format's locationIds), the rule's
kinds of location, and the body tables an import from GCS keeps (gurps_character.locations)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from typing import Any

import pytest

import gurps_character
from gurps_character import (
    HIT_LOCATIONS,
    LOCATION_NAMES,
    CharacterError,
    body_of,
    location_role,
    resolve_hit,
    rule_location,
)
from gurps_character.combat import hit_location, location_penalty
from gurps_character.gcs import EXTENSION
from gurps_character.locations import BODY_EXTENSION, read_body
from tests.support.paths import REPOSITORY

ROOT = REPOSITORY
RURIK: dict[str, Any] = json.loads((ROOT / "examples" / "rurik.json").read_text(encoding="utf-8"))
SCHEMA_IDS = tuple(gurps_character.SCHEMA["$defs"]["drEntry"]["properties"]["locationId"]["enum"])


def test_every_location_id_of_the_format_but_head_is_an_accepted_spelling() -> None:
    """The format's locationIds name the sheet's DR rows; ``head`` is the skull and the face
    together, not a place one blow lands on (B398)."""
    assert set(SCHEMA_IDS) - set(LOCATION_NAMES) == {"head"}
    assert set(LOCATION_NAMES.values()) == set(HIT_LOCATIONS)


@pytest.mark.parametrize(
    ("spelling", "rule"),
    [
        ("arms", "arm"),
        ("eyes", "eye"),
        ("hands", "hand"),
        ("legs", "leg"),
        ("feet", "foot"),
        ("torso", "torso"),
    ],
)
def test_the_formats_plural_ids_are_the_rules_singular_names(spelling: str, rule: str) -> None:
    assert rule_location(spelling) == rule == LOCATION_NAMES[spelling]


@pytest.mark.parametrize("spelling", ["head", "Arms", "wing", "", None, 3, ["arm"]])
def test_anything_else_has_no_rule_name(spelling: Any) -> None:
    assert rule_location(spelling) is None


def test_the_vocabulary_is_read_only() -> None:
    with pytest.raises(TypeError):
        LOCATION_NAMES["wings"] = "arm"  # type: ignore[index]  # a read-only mapping


@pytest.mark.parametrize(("spelling", "rule"), [("arms", "arm"), ("eyes", "eye"), ("feet", "foot")])
def test_resolve_hit_takes_the_formats_ids_as_the_rules_names(spelling: str, rule: str) -> None:
    """10 imp to ``arms`` is 10 imp to ``arm``: the same Hit, named by the rule (x1, capped)."""
    assert resolve_hit(RURIK, 10, "imp", location=spelling) == resolve_hit(RURIK, 10, "imp", location=rule)
    assert resolve_hit(RURIK, 10, "imp", location=spelling).location == rule


def test_resolve_hit_reads_the_dr_row_of_the_formats_id() -> None:
    """Rurik's sheet lists DR 1 on ``arms``: a hit to ``arms`` and one to ``arm`` both meet it."""
    document = copy.deepcopy(RURIK)
    document["damageResistance"] = [{"location": "Arms", "locationId": "arms", "dr": 1}]
    assert resolve_hit(document, 5, "cut", location="arms").dr == 1


def test_the_humanoid_refusal_names_both_vocabularies() -> None:
    with pytest.raises(CharacterError) as caught:
        resolve_hit(RURIK, 5, "cr", location="head")
    assert caught.value.message == (
        "location must be one of 'skull', 'face', 'eye', 'neck', 'torso', 'vitals', 'groin', 'arm', "
        "'hand', 'leg', 'foot' (or the format's 'eyes', 'arms', 'hands', 'legs', 'feet'; or a side, "
        "'right_arm', 'left_arm', 'right_leg', 'left_leg'), not 'head'."
    )
    assert caught.value.details == {"name": "location", "value": "head"}


@pytest.mark.parametrize("roll", range(3, 19))
def test_every_rolled_location_is_a_place_a_hit_resolves(roll: int) -> None:
    """What ``hit_location`` rolls goes straight to ``resolve_hit`` and to the combat rules: a
    side (``right_leg``) is the rule's location of that kind (``leg``), and the hit keeps it."""
    rolled = hit_location(roll)
    rule = rule_location(rolled)
    assert rule is not None and rule == rolled.removeprefix("right_").removeprefix("left_")
    hit = resolve_hit(RURIK, 6, "cut", location=rolled)
    assert hit.location == rolled and rule_location(hit.location) == rule
    assert location_penalty(rolled) == location_penalty(rule)


@pytest.mark.parametrize(
    ("location_id", "role"),
    [
        ("skull", "skull"),
        ("brain", "skull"),
        ("eye", "eye"),
        ("arm", "limb"),
        ("leg", "limb"),
        ("wing", "limb"),
        ("hand", "extremity"),
        ("foot", "extremity"),
        ("fin", "extremity"),
        ("tail", "extremity"),
        ("extremity", "extremity"),
        ("abdomen", "torso"),
        ("spine", "torso"),
        ("neck", "neck"),
        ("vitals", "vitals"),
        ("groin", "groin"),
        (None, "torso"),
    ],
)
def test_location_roles(location_id: Any, role: str) -> None:
    assert location_role(location_id) == role


def test_the_body_extension_is_the_importers_namespace() -> None:
    assert BODY_EXTENSION == EXTENSION


def test_a_document_without_a_body_table_has_none() -> None:
    assert body_of(RURIK) is None
    assert body_of({"extensions": {EXTENSION: {"gcsVersion": 5}}}) is None
    assert body_of({"extensions": "odd"}) is None


BODY: dict[str, Any] = {
    "name": "Avian",
    "roll": "3d",
    "locations": [
        {"id": "wing", "name": "Wing", "tableName": "Wing", "hitPenalty": -2, "rollRange": "7-8",
         "naturalDr": 0, "dr": {"all": 1}},
        {"id": "skull", "name": "Skull", "tableName": "Skull", "hitPenalty": -7, "rollRange": "3-4",
         "naturalDr": 2, "dr": {"all": 2}},
    ],
}  # fmt: skip


def test_a_body_record_reads_back_as_written() -> None:
    body = read_body(BODY)
    assert body.to_dict() == BODY
    assert body.ids == ("wing", "skull")
    wing = body.location("wing")
    assert wing is not None and (wing.role, wing.natural_dr, wing.hit_penalty) == ("limb", 0, -2)
    assert body.location("arm") is None


@pytest.mark.parametrize(
    ("change", "pointer", "message"),
    [
        (
            lambda b: b.update(locations=[]),
            "/locations",
            "/locations must be a list of 1 to 1000 hit locations.",
        ),
        (
            lambda b: b["locations"][1].update(id="Skull"),
            "/locations/1/id",
            "/locations/1/id must be a location id (a-z, 0-9 and _, at most 64).",
        ),
        (
            lambda b: b["locations"][0].update(naturalDr=-1),
            "/locations/0/naturalDr",
            "/locations/0/naturalDr must be a whole number from 0 to 1000000000.",
        ),
        (
            lambda b: b["locations"][0]["dr"].update(crushing="2"),
            "/locations/0/dr/crushing",
            "/locations/0/dr/crushing must be a whole number from -1000000000 to 1000000000.",
        ),
        (lambda b: b["locations"][0].update(name=3), "/locations/0/name", None),
        (lambda b: b["locations"].append("torso"), "/locations/2", "/locations/2 must be an object."),
    ],
)
def test_a_broken_body_record_is_refused_with_the_pointer(
    change: Any, pointer: str, message: str | None
) -> None:
    record = copy.deepcopy(BODY)
    change(record)
    with pytest.raises(CharacterError) as caught:
        read_body(record)
    assert caught.value.code == "invalidDocument"
    assert caught.value.details == {"pointer": pointer}
    if message is not None:
        assert caught.value.message == message


def test_resolve_hit_refuses_a_broken_body_record_with_its_pointer() -> None:
    document = copy.deepcopy(RURIK)
    record = copy.deepcopy(BODY)
    record["locations"][0]["hitPenalty"] = 2.5
    document["extensions"] = {EXTENSION: {"body": record}}
    with pytest.raises(CharacterError) as caught:
        resolve_hit(document, 5, "cr", location="wing")
    assert caught.value.code == "invalidDocument"
    assert caught.value.details == {"pointer": f"/extensions/{EXTENSION}/body/locations/0/hitPenalty"}


def test_locations_imports_with_the_standard_library_only() -> None:
    """No jsonschema, no referencing: a combat engine may use the vocabulary on its own."""
    code = (
        "import sys\n"
        "sys.modules['jsonschema'] = None\n"
        "sys.modules['referencing'] = None\n"
        "from gurps_character.locations import rule_location, body_of\n"
        "assert rule_location('arms') == 'arm' and body_of({}) is None\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


def test_damage_and_the_package_share_one_hit_location_type() -> None:
    assert gurps_character.damage.HitLocation is gurps_character.HitLocation
    assert gurps_character.locations.HitLocation is gurps_character.HitLocation
