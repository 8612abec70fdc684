"""The shipped example characters: valid, in the format versions they advertise, and rules-checked.

``examples/rurik.json`` is a complete 1.1 character that uses none of the optional 1.2/1.3 features
and follows the rules everywhere (its bought-up HP and Per are paid overrides). ``examples/jotun.json``
is a 1.3 creature: Size Modifier 1 (the Size discount on ST and HP), a cost limitation, an NH bonus
from a Talent, and exactly one deviation, justified by the player.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker  # type: ignore[import-untyped, unused-ignore]

from gurps_character import SCHEMA
from gurps_character.formula import deviations, plain_value, recompute
from gurps_character.verify import verify_character
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
SCHEMA_PATH = REPOSITORY / "schema" / "gurps-character.schema.json"

# RFC 3339 date-time with a mandatory time zone; [0-9] rather than \d, which also matches other digits.
DATE_TIME = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:[0-9]{2})"
)

OPTIONAL_FEATURES = ("costModifiers", "bonuses", "justification")


def is_date_time(value: object) -> bool:
    if not isinstance(value, str):
        return True  # format only constrains strings
    if DATE_TIME.fullmatch(value) is None:
        return False
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return True


FORMATS = FormatChecker(formats=())
FORMATS.checks("date-time")(is_date_time)
VALIDATOR = Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8")), format_checker=FORMATS)


def load(name: str) -> dict[str, Any]:
    document = json.loads((EXAMPLES / name).read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def walk(value: Any, path: str = "") -> Iterator[tuple[str, str | None, Any]]:
    """Every (pointer, key, value) below ``value``, the value itself included."""
    yield path, path.rsplit("/", 1)[-1] if path else None, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, f"{path}/{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from walk(item, f"{path}/{index}")


@pytest.fixture(scope="module")
def rurik() -> dict[str, Any]:
    return load("rurik.json")


@pytest.fixture(scope="module")
def jotun() -> dict[str, Any]:
    return load("jotun.json")


# --- both examples ------------------------------------------------------------------------------


def test_the_date_time_format_is_really_checked() -> None:
    assert FORMATS.conforms("2025-03-14T09:30:00.000Z", "date-time")
    assert FORMATS.conforms("2025-03-14T09:30:00+02:00", "date-time")
    for bad in (
        "not a date",
        "2025-03-14",
        "2025-03-14T09:30:00",
        "2025-13-01T00:00:00Z",
        "2025-02-30T00:00:00Z",
    ):
        assert not FORMATS.conforms(bad, "date-time"), bad
    errors = list(
        VALIDATOR.iter_errors({**load("rurik.json"), "meta": {"locale": "en", "createdAt": "yesterday"}})
    )
    assert [error.validator for error in errors] == ["format"]


@pytest.mark.parametrize("name", ["rurik.json", "jotun.json"])
def test_example_is_valid_against_the_bundled_schema(name: str) -> None:
    document = load(name)
    errors = [f"{error.json_path}: {error.message}" for error in VALIDATOR.iter_errors(document)]
    assert errors == []
    assert (EXAMPLES / document["$schema"]).resolve() == SCHEMA_PATH.resolve()
    for key in ("createdAt", "updatedAt"):
        assert is_date_time(document["meta"][key])
    assert document["meta"]["createdAt"] <= document["meta"]["updatedAt"]


@pytest.mark.parametrize("name", ["rurik.json", "jotun.json"])
def test_example_text_is_english(name: str) -> None:
    document = load(name)
    assert document["meta"]["locale"] == "en"
    # A cheap guard against text pasted from the reference's pt-BR examples: plain ASCII only.
    for pointer, _, value in walk(document):
        if isinstance(value, str):
            assert value.isascii(), pointer


@pytest.mark.parametrize("name", ["rurik.json", "jotun.json"])
def test_example_spends_at_most_its_budget(name: str) -> None:
    points = load(name)["points"]
    assert points["spent"] <= points["budget"]
    assert points["unspent"] == points["budget"] - points["spent"]


# --- rurik.json: a complete 1.1 character ---------------------------------------------------------


def test_rurik_is_1_1_without_optional_features(rurik: dict[str, Any]) -> None:
    assert rurik["formatVersion"] == "1.1.0"
    used = sorted({pointer for pointer, key, _ in walk(rurik) if key in OPTIONAL_FEATURES})
    assert used == []
    assert rurik["profile"]["sizeModifier"] == 0


def test_rurik_fills_every_section(rurik: dict[str, Any]) -> None:
    sections = set(SCHEMA["properties"]) - {"extensions"}
    assert sections <= set(rurik)
    profile = SCHEMA["properties"]["profile"]["properties"]
    assert set(profile) == set(rurik["profile"])
    assert {"budget", "spent", "unspent", "breakdown"} <= set(rurik["points"])
    assert "currency" in rurik["ruleset"]
    assert {"createdAt", "updatedAt", "generator"} <= set(rurik["meta"])
    assert "current" in rurik["secondary"]["hp"]
    assert "current" in rurik["secondary"]["fp"]
    assert {trait["type"] for trait in rurik["traits"]} == {"advantage", "perk", "disadvantage", "quirk"}
    assert rurik["weapons"]["melee"]
    assert rurik["weapons"]["ranged"]
    for key in (
        "damageResistance",
        "reactionModifiers",
        "languages",
        "culturalFamiliarities",
        "equipment",
        "notes",
    ):
        assert rurik[key], key
    skills = {skill["name"] for skill in rurik["skills"]}
    assert rurik["defenses"]["parry"]["skill"] in skills
    assert rurik["defenses"]["block"]["skill"] in skills
    assert "shield" in rurik["defenses"]["block"]["skill"].lower()
    assert rurik["integrity"] == {
        "experimental": False,
        "rulesCompliant": True,
        "deviations": [],
        "issues": [],
    }


def test_rurik_follows_the_rules(rurik: dict[str, Any]) -> None:
    results = recompute(SCHEMA, rurik)
    assert deviations(SCHEMA, rurik, results) == []
    assert deviations(SCHEMA, rurik) == []
    paid = {
        result.pointer
        for result in results
        if result.override == "paid" and plain_value(result.stored) != plain_value(result.computed)
    }
    assert paid == {"/secondary/hp/value", "/secondary/per/value"}
    report = verify_character(rurik)
    assert report.rules_compliant
    assert report.claim_consistent


# --- jotun.json: a 1.3 creature ---------------------------------------------------------------------


def test_jotun_uses_the_1_3_features(jotun: dict[str, Any]) -> None:
    assert jotun["formatVersion"] == "1.3.0"
    assert jotun["profile"]["sizeModifier"] >= 1
    modifiers = [modifier for _, key, value in walk(jotun) if key == "costModifiers" for modifier in value]
    assert any(modifier["percent"] < 0 for modifier in modifiers)
    # The Size discount follows from profile.sizeModifier and is never listed as a modifier.
    assert all("size" not in modifier["name"].lower() for modifier in modifiers)
    bonuses = [bonus for skill in jotun["skills"] for bonus in skill.get("bonuses", [])]
    assert bonuses
    paid_traits = {trait["name"] for trait in jotun["traits"] if trait["points"] > 0}
    for bonus in bonuses:
        assert bonus["name"] in paid_traits, bonus


def test_jotun_declares_one_justified_deviation(jotun: dict[str, Any]) -> None:
    integrity = jotun["integrity"]
    assert integrity["experimental"] is False
    assert integrity["rulesCompliant"] is False
    assert integrity["issues"] == []
    [entry] = integrity["deviations"]
    assert set(entry) == {"pointer", "expected", "actual", "sheetField", "label", "justification"}
    assert entry["justification"].strip()


def test_jotun_deviates_only_where_it_says(jotun: dict[str, Any]) -> None:
    [entry] = jotun["integrity"]["deviations"]
    results = recompute(SCHEMA, jotun)
    found = deviations(SCHEMA, jotun, results)
    assert [(item.pointer, item.reason) for item in found] == [(entry["pointer"], "override")]
    [item] = found
    assert (item.expected, item.actual) == (entry["expected"], entry["actual"])
    [result] = [result for result in results if result.pointer == entry["pointer"]]
    assert result.override == "unpaid"
    assert plain_value(result.computed) == entry["expected"]
    assert plain_value(result.stored) == entry["actual"]
    assert result.sheet_field == entry["sheetField"]
    report = verify_character(jotun)
    assert not report.rules_compliant
    assert report.claim_consistent
    assert [(item.pointer, item.justification) for item in report.deviations] == [
        (entry["pointer"], entry["justification"])
    ]
    assert report.inconsistencies == ()
