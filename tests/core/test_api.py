"""The engine API against our own examples: every error code, immutability, all-or-nothing."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import gurps_character as gc
from gurps_character import CharacterError
from tests.support.paths import REPOSITORY
from tests.support.strategies import documents

EXAMPLES = REPOSITORY / "examples"
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)


def load(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


@pytest.fixture
def rurik() -> dict[str, Any]:
    return load("rurik")


@pytest.fixture
def jotun() -> dict[str, Any]:
    return load("jotun")


def raises(code: str, call: Callable[[], object]) -> CharacterError:
    with pytest.raises(CharacterError) as caught:
        call()
    assert caught.value.code == code, caught.value
    return caught.value


# ---------------------------------------------------------------- constants and errors


def test_constants() -> None:
    assert gc.FORMAT == "gurps-character"
    assert gc.LATEST_VERSION == "1.3.0"
    assert gc.SUPPORTED_MINOR == 3
    assert gc.MAX_DOCUMENT_BYTES == 2_000_000
    assert gc.SCHEMA["$id"] == "urn:gurps-sheet:schema:gurps-character:1.3.0"
    assert "annotation" in gc.VOCABULARY["$defs"]


def test_schema_and_vocabulary_cannot_be_corrupted() -> None:
    with pytest.raises(TypeError):
        gc.SCHEMA["title"] = "x"  # type: ignore[index]
    with pytest.raises(TypeError):
        gc.SCHEMA["properties"]["format"]["const"] = "x"
    with pytest.raises((TypeError, AttributeError)):
        gc.SCHEMA["required"].append("x")
    with pytest.raises(TypeError):
        gc.VOCABULARY["$defs"]["annotation"]["type"] = "x"


def test_character_error_is_a_value_error_with_json_details() -> None:
    error = CharacterError(
        "invalidAmount", "The amount must be a non-negative integer, not -1.", {"amount": -1}
    )
    assert isinstance(error, ValueError)
    assert str(error) == "The amount must be a non-negative integer, not -1."
    assert error.to_dict() == {
        "code": "invalidAmount",
        "message": "The amount must be a non-negative integer, not -1.",
        "details": {"amount": -1},
    }
    json.dumps(error.details)


# ---------------------------------------------------------------- parse and envelope


def test_parse_text_bytes_and_mapping(rurik: dict[str, Any]) -> None:
    text = (EXAMPLES / "rurik.json").read_text(encoding="utf-8")
    for source in (text, text.encode("utf-8"), rurik):
        parsed = gc.parse_character(source)
        assert parsed.character == rurik
        assert parsed.report.rules_compliant
        assert parsed.report.claim_consistent
    assert gc.parse_character(rurik).character is not rurik


@pytest.mark.parametrize(
    ("source", "code", "details"),
    [
        ("x" * 11, "tooLarge", {"size": 11, "limit": 10}),
        ("é" * 6, "tooLarge", {"size": 12, "limit": 10}),
        (b"\x00" * 11, "tooLarge", {"size": 11, "limit": 10}),
        ("", "invalidJson", {"truncated": True}),
        ('{"format": ', "invalidJson", {"truncated": True}),
        ("{\n  'format': 1\n}", "invalidJson", {"line": 2, "column": 3}),
        ('{"a": NaN}', "invalidJson", {"line": 1, "column": 7}),
        (b'{"a": "\xff"}', "invalidJson", {"line": 1, "column": 8}),
        ("[]", "notAnObject", {}),
        ("null", "notAnObject", {}),
        ('{"format": "gurps-sheet"}', "legacyFormat", {"format": "gurps-sheet"}),
        ('{"format": "gcs"}', "wrongFormat", {"format": "gcs"}),
        ("{}", "wrongFormat", {"format": None}),
        ('{"format": "gurps-character"}', "unsupportedVersion", {"formatVersion": None, "supported": "1.3"}),
        (
            '{"format": "gurps-character", "formatVersion": "2.0.0"}',
            "unsupportedVersion",
            {"formatVersion": "2.0.0", "supported": "1.3"},
        ),
        (
            '{"format": "gurps-character", "formatVersion": "1.3.0\\n"}',
            "unsupportedVersion",
            {"formatVersion": "1.3.0\n", "supported": "1.3"},
        ),
        (
            '{"format": "gurps-character", "formatVersion": "1.\u0663.0"}',
            "unsupportedVersion",
            {"formatVersion": "1.\u0663.0", "supported": "1.3"},
        ),
        (
            '{"format": "gurps-character", "formatVersion": "1.4.0"}',
            "newerVersion",
            {"formatVersion": "1.4.0", "supported": "1.3"},
        ),
    ],
)
def test_parse_errors_carry_the_reference_details(
    source: str | bytes, code: str, details: dict[str, Any]
) -> None:
    error = raises(code, lambda: gc.parse_character(source, max_bytes=10 if code == "tooLarge" else 1000))
    assert error.details == details


def test_error_messages_are_pinned() -> None:
    newer = raises(
        "newerVersion", lambda: gc.parse_character('{"format": "gurps-character", "formatVersion": "1.4.0"}')
    )
    assert str(newer) == (
        "formatVersion 1.4.0 is newer than this library understands (up to 1.3); "
        "update the library to read it."
    )
    large = raises("tooLarge", lambda: gc.parse_character("{}", max_bytes=1))
    assert str(large) == "The document is 2 bytes, over the limit of 1."
    truncated = raises("invalidJson", lambda: gc.parse_character("{"))
    assert str(truncated).startswith("Invalid JSON (the text ends early)")


def test_schema_errors_list_every_problem(rurik: dict[str, Any]) -> None:
    del rurik["profile"]["name"]
    rurik["defenses"]["retreat"] = 1
    error = raises("schema", lambda: gc.parse_character(rurik))
    assert error.details["errors"] == [
        {
            "pointer": "/profile",
            "keyword": "required",
            "params": {"missingProperty": "name"},
            "message": "/profile: must have required property 'name'",
        },
        {
            "pointer": "/defenses",
            "keyword": "additionalProperties",
            "params": {"additionalProperty": "retreat"},
            "message": '/defenses: unknown property "retreat"',
        },
    ]
    assert str(error).startswith("The document does not match the gurps-character schema (2 errors): ")


def test_parse_order_is_size_json_envelope_schema() -> None:
    raises("tooLarge", lambda: gc.parse_character("not json at all", max_bytes=3))
    raises("invalidJson", lambda: gc.parse_character("[1,"))
    raises("wrongFormat", lambda: gc.parse_character('{"nope": 1}'))


def test_mappings_are_not_limited_by_size(rurik: dict[str, Any]) -> None:
    assert gc.parse_character(rurik, max_bytes=10).character == rurik


@pytest.mark.parametrize("limit", [-1, 1.5, True, "10", None])
def test_a_bad_size_limit_is_an_argument_error(limit: Any) -> None:
    raises("invalidArgument", lambda: gc.parse_character("{}", max_bytes=limit))


def test_check_envelope(rurik: dict[str, Any], jotun: dict[str, Any]) -> None:
    assert gc.check_envelope(rurik) == gc.Envelope(1, 1)
    assert gc.check_envelope(jotun).to_dict() == {"major": 1, "minor": 3}
    raises("notAnObject", lambda: gc.check_envelope([]))


# ---------------------------------------------------------------- validate and serialize


def test_validate(rurik: dict[str, Any]) -> None:
    assert gc.validate_character(rurik).to_dict() == {"valid": True, "errors": []}
    rurik["attributes"]["dx"]["points"] = "40"
    result = gc.validate_character(rurik)
    assert not result.valid
    assert [error.to_dict() for error in result.errors] == [
        {
            "pointer": "/attributes/dx/points",
            "keyword": "type",
            "params": {"type": "integer"},
            "message": "/attributes/dx/points: must be integer",
        }
    ]


def test_serialize_round_trips_and_ends_with_a_newline(jotun: dict[str, Any]) -> None:
    text = gc.serialize_character(jotun)
    assert text.endswith("}\n")
    assert json.loads(text) == jotun
    assert (
        gc.serialize_character(jotun, indent=0)
        == json.dumps(jotun, ensure_ascii=False, separators=(",", ":")) + "\n"
    )
    assert gc.parse_character(text).character == jotun


def test_serialize_writes_numbers_as_javascript(rurik: dict[str, Any]) -> None:
    rurik["secondary"]["basicSpeed"]["value"] = 6.0
    rurik["extensions"] = {"org.example.tool": {"ratio": 1e21, "small": 1e-7}}
    text = gc.serialize_character(rurik, indent=0)
    assert '"basicSpeed":{"value":6,' in text
    assert '{"ratio":1e+21,"small":1e-7}' in text


def test_serialize_refuses_invalid_documents(rurik: dict[str, Any]) -> None:
    raises("notAnObject", lambda: gc.serialize_character([]))  # type: ignore[arg-type]
    rurik["profile"] = {}
    raises("schema", lambda: gc.serialize_character(rurik))


def test_serialize_refuses_what_json_cannot_hold(rurik: dict[str, Any]) -> None:
    rurik["extensions"] = {"org.example.tool": {"tags": {"a", "b"}}}
    error = raises("invalidJson", lambda: gc.serialize_character(rurik))
    assert error.details["pointer"] == "/extensions/org.example.tool/tags"


# ---------------------------------------------------------------- verify


def test_examples_verify(rurik: dict[str, Any], jotun: dict[str, Any]) -> None:
    assert gc.verify_character(rurik).to_dict() == {
        "rulesCompliant": True,
        "experimental": False,
        "declaredCompliant": True,
        "claimConsistent": True,
        "deviations": [],
        "inconsistencies": [],
        "issues": [],
    }
    report = gc.verify_character(jotun)
    assert not report.rules_compliant
    assert report.claim_consistent
    assert report.declared_compliant is False
    [deviation] = report.deviations
    assert deviation.pointer == "/damage/swing"
    assert deviation.justification == jotun["integrity"]["deviations"][0]["justification"]


def test_a_tampered_total_is_an_inconsistency(rurik: dict[str, Any]) -> None:
    rurik["points"]["breakdown"]["skills"] -= 10
    report = gc.verify_character(rurik)
    # the stored total no longer adds up from the stored breakdown either
    assert [item.to_dict() for item in report.inconsistencies] == [
        {"pointer": "/points/spent", "expected": 126, "actual": 136},
        {"pointer": "/points/breakdown/skills", "expected": 29, "actual": 19},
    ]
    assert not report.rules_compliant
    assert not report.claim_consistent


def test_a_false_claim_is_caught(rurik: dict[str, Any]) -> None:
    rurik["defenses"]["dodge"]["value"] += 2
    for level in rurik["encumbrance"]["levels"]:
        level["dodge"] += 2
    report = gc.verify_character(rurik)
    assert report.declared_compliant is True
    assert not report.rules_compliant
    assert not report.claim_consistent
    assert report.deviations[0].pointer == "/defenses/dodge/value"


def test_over_budget_issue(rurik: dict[str, Any]) -> None:
    rurik["points"]["budget"] = 100
    rurik["points"]["unspent"] = -36
    report = gc.verify_character(rurik)
    assert [issue.to_dict() for issue in report.issues] == [
        {
            "code": "overBudget",
            "pointer": "/points/spent",
            "message": "Points spent (136) exceed the budget (100) by 36.",
        }
    ]
    assert not report.rules_compliant


@pytest.mark.parametrize(("over", "issues"), [(-1, 0), (0, 0), (1, 1)], ids=["under", "at", "over"])
def test_over_budget_starts_one_point_over(rurik: dict[str, Any], over: int, issues: int) -> None:
    # spending exactly the budget is within it: the boundary of the issue is spent > budget
    spent = rurik["points"]["spent"]
    rurik["points"]["budget"] = spent - over
    rurik["points"]["unspent"] = over * -1
    report = gc.verify_character(rurik)
    assert [issue.code for issue in report.issues] == ["overBudget"] * issues
    assert report.rules_compliant is (issues == 0)


def test_in_play_state_never_affects_compliance(rurik: dict[str, Any]) -> None:
    hurt = gc.apply_damage(rurik, 100, now=NOW)
    tired = gc.spend_fatigue(hurt, 100, now=NOW)
    assert gc.verify_character(tired) == gc.verify_character(rurik)


def test_experimental_flag(rurik: dict[str, Any]) -> None:
    rurik["integrity"]["experimental"] = True
    assert gc.verify_character(rurik).experimental
    del rurik["integrity"]
    report = gc.verify_character(rurik)
    assert report.declared_compliant is None
    assert report.claim_consistent


# ---------------------------------------------------------------- updatable fields and updates


def test_updatable_fields_come_from_the_schema() -> None:
    fields = gc.get_updatable_fields()
    assert [field.to_dict() | {"description": None} for field in fields] == [
        {
            "pointer": "/secondary/hp/current",
            "type": "integer",
            "title": "Hit Points (current)",
            "description": None,
            "labels": {"pt-BR": "PV atual"},
            "bounds": {"min": "-10 * value", "max": "value"},
            "reference": "B419",
        },
        {
            "pointer": "/secondary/fp/current",
            "type": "integer",
            "title": "Fatigue Points (current)",
            "description": None,
            "labels": {"pt-BR": "PF atual"},
            "bounds": {"min": "-1 * value", "max": "value"},
            "reference": "B426",
        },
    ]
    assert all(field.description for field in fields)


def test_updatable_fields_cannot_be_corrupted_by_callers() -> None:
    fields = gc.get_updatable_fields()
    with pytest.raises(TypeError):
        fields[0].labels["en"] = "x"  # type: ignore[index]
    fields[0].to_dict()["bounds"]["min"] = "0"
    assert gc.get_updatable_fields() == fields


def test_update_sets_values_and_the_timestamp(rurik: dict[str, Any]) -> None:
    original = copy.deepcopy(rurik)
    updated = gc.update_character(rurik, {"/secondary/hp/current": 5, "/secondary/fp/current": -3}, now=NOW)
    assert rurik == original
    assert updated["secondary"]["hp"]["current"] == 5
    assert updated["secondary"]["fp"]["current"] == -3
    assert updated["meta"]["updatedAt"] == "2026-10-05T10:00:00.000Z"
    assert updated["secondary"] is not rurik["secondary"]


@pytest.mark.parametrize(
    "changes",
    [
        [("/secondary/hp/current", 5)],
        [{"pointer": "/secondary/hp/current", "value": 5}],
        ({"pointer": "/secondary/hp/current", "value": 5},),
    ],
)
def test_update_accepts_pairs_and_pointer_mappings(rurik: dict[str, Any], changes: Any) -> None:
    assert gc.update_character(rurik, changes, now=NOW)["secondary"]["hp"]["current"] == 5


def test_update_timestamps_are_utc_with_milliseconds(rurik: dict[str, Any]) -> None:
    plus_two = timezone(timedelta(hours=2))
    moment = datetime(2030, 6, 15, 10, 15, 30, 500_999, tzinfo=plus_two)
    updated = gc.update_character(rurik, {"/secondary/hp/current": 1}, now=moment)
    assert updated["meta"]["updatedAt"] == "2030-06-15T08:15:30.500Z"
    fresh = gc.update_character(rurik, {"/secondary/hp/current": 1})
    stamp = datetime.fromisoformat(fresh["meta"]["updatedAt"].replace("Z", "+00:00"))
    assert abs(stamp - datetime.now(UTC)) < timedelta(minutes=5)


def test_no_change_keeps_the_timestamp(rurik: dict[str, Any]) -> None:
    assert gc.update_character(rurik, {}, now=NOW) == rurik
    assert gc.update_character(rurik, None, now=NOW) == rurik


def test_a_naive_now_is_a_type_error(rurik: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        gc.update_character(rurik, {"/secondary/hp/current": 1}, now=datetime(2026, 1, 1))
    with pytest.raises(TypeError):
        gc.apply_damage(rurik, 1, now=datetime(2026, 1, 1))


def test_update_error_codes(rurik: dict[str, Any]) -> None:
    not_updatable = raises(
        "notUpdatable", lambda: gc.update_character(rurik, {"/secondary/hp/value": 99}, now=NOW)
    )
    assert not_updatable.details == {
        "pointer": "/secondary/hp/value",
        "updatable": ["/secondary/hp/current", "/secondary/fp/current"],
    }
    invalid = raises(
        "invalidValue", lambda: gc.update_character(rurik, {"/secondary/hp/current": 2.5}, now=NOW)
    )
    assert invalid.details == {"pointer": "/secondary/hp/current", "value": 2.5, "type": "integer"}
    boolean = raises(
        "invalidValue", lambda: gc.update_character(rurik, {"/secondary/hp/current": True}, now=NOW)
    )
    assert boolean.details["value"] is True
    missing = raises(
        "invalidValue", lambda: gc.update_character(rurik, [{"pointer": "/secondary/fp/current"}], now=NOW)
    )
    assert missing.details == {"pointer": "/secondary/fp/current", "type": "integer"}
    out = raises("outOfBounds", lambda: gc.update_character(rurik, {"/secondary/hp/current": -131}, now=NOW))
    assert out.details == {"pointer": "/secondary/hp/current", "value": -131, "min": -130, "max": 13}
    fatigue = raises(
        "outOfBounds", lambda: gc.update_character(rurik, {"/secondary/fp/current": 13}, now=NOW)
    )
    assert fatigue.details == {"pointer": "/secondary/fp/current", "value": 13, "min": -12, "max": 12}


def test_updates_are_all_or_nothing(rurik: dict[str, Any]) -> None:
    original = copy.deepcopy(rurik)
    raises(
        "outOfBounds",
        lambda: gc.update_character(
            rurik, [("/secondary/hp/current", 1), ("/secondary/fp/current", 999)], now=NOW
        ),
    )
    assert rurik == original


def test_integral_floats_are_written_as_integers(rurik: dict[str, Any]) -> None:
    updated = gc.update_character(rurik, {"/secondary/hp/current": 3.0}, now=NOW)
    assert type(updated["secondary"]["hp"]["current"]) is int


# ---------------------------------------------------------------- pools


def test_get_pool(rurik: dict[str, Any]) -> None:
    assert gc.get_pool(rurik, "hp") == gc.Pool(11, 13)
    assert gc.get_pool(rurik, "fp").to_dict() == {"current": 9, "max": 12}
    del rurik["secondary"]["hp"]["current"]
    assert gc.get_pool(rurik, "hp") == gc.Pool(13, 13)
    raises("invalidArgument", lambda: gc.get_pool(rurik, "xp"))  # type: ignore[arg-type]


def test_pool_helpers_clamp_to_the_bounds(rurik: dict[str, Any]) -> None:
    assert gc.apply_damage(rurik, 7, now=NOW)["secondary"]["hp"]["current"] == 4
    assert gc.apply_damage(rurik, 1000, now=NOW)["secondary"]["hp"]["current"] == -130
    assert gc.heal(rurik, 1000, now=NOW)["secondary"]["hp"]["current"] == 13
    assert gc.spend_fatigue(rurik, 1000, now=NOW)["secondary"]["fp"]["current"] == -12
    assert gc.recover_fatigue(rurik, 1000, now=NOW)["secondary"]["fp"]["current"] == 12
    assert gc.apply_damage(rurik, 2.0, now=NOW)["secondary"]["hp"]["current"] == 9  # type: ignore[arg-type]


def test_absent_current_means_full(rurik: dict[str, Any]) -> None:
    del rurik["secondary"]["fp"]["current"]
    assert gc.spend_fatigue(rurik, 3, now=NOW)["secondary"]["fp"]["current"] == 9


@pytest.mark.parametrize("amount", [-1, 1.5, True, "3", None, float("nan")])
def test_invalid_amounts(rurik: dict[str, Any], amount: Any) -> None:
    helpers: list[Callable[..., dict[str, Any]]] = [
        gc.apply_damage,
        gc.heal,
        gc.spend_fatigue,
        gc.recover_fatigue,
    ]
    for helper in helpers:
        with pytest.raises(CharacterError) as caught:
            helper(rurik, amount, now=NOW)
        assert caught.value.code == "invalidAmount"
        assert set(caught.value.details) == {"amount"}


# ---------------------------------------------------------------- combat view


def test_combat_stats(rurik: dict[str, Any], jotun: dict[str, Any]) -> None:
    stats = gc.combat_stats(rurik)
    assert stats.name == rurik["profile"]["name"]
    assert stats.hp == gc.Pool(11, 13)
    assert stats.attributes.st == rurik["attributes"]["st"]["value"]
    assert stats.parry.skill == rurik["defenses"]["parry"]["skill"]
    assert stats.damage.thrust.notation == rurik["damage"]["thrust"]["notation"]
    assert [level.max_load for level in stats.encumbrance] == [
        level["maxLoad"] for level in rurik["encumbrance"]["levels"]
    ]
    assert stats.to_dict()["weapons"] == rurik["weapons"]
    troll = gc.combat_stats(jotun)
    assert troll.size_modifier == jotun["profile"]["sizeModifier"]
    assert troll.block.to_dict() == {"skill": None, "value": None}


def test_combat_stats_are_detached(rurik: dict[str, Any]) -> None:
    stats = gc.combat_stats(rurik)
    before = stats.to_dict()
    rurik["weapons"]["melee"][0]["name"] = "changed"
    rurik["secondary"]["hp"]["current"] = 1
    assert stats.to_dict() == before
    with pytest.raises(TypeError):
        stats.weapons.melee[0]["name"] = "x"  # type: ignore[index]
    with pytest.raises(AttributeError):
        stats.weapons.melee[0].name = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        stats.weapons.melee[0].entry["name"] = "x"  # type: ignore[index]
    stats.to_dict()["weapons"]["melee"].clear()
    stats.weapons.melee[0].to_dict()["damage"].clear()
    stats.to_dict(extended=True)["weapons"]["melee"][0]["damage"].clear()
    assert stats.to_dict() == before


def test_combat_stats_of_a_broken_document(rurik: dict[str, Any]) -> None:
    del rurik["defenses"]
    error = raises("schema", lambda: gc.combat_stats(rurik))
    assert error.details["errors"][0]["params"] == {"missingProperty": "defenses"}
    raises("notAnObject", lambda: gc.combat_stats(None))  # type: ignore[arg-type]


def _floated(value: Any) -> Any:
    """The same JSON with every integer written as a float (``5`` as ``5.0``): equal JSON."""
    if isinstance(value, dict):
        return {key: _floated(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_floated(item) for item in value]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= 2**53:
        return float(value)
    return value


def _exact(value: Any) -> str:
    """JSON text that tells 5 from 5.0 (json.dumps writes the float as 5.0)."""
    return json.dumps(value, sort_keys=True)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_whole_numbers_are_integers_in_every_result(document: dict[str, Any]) -> None:
    # "sizeModifier": 1.0 is valid, and the view gave 1.0 where the reference's JSON has 1
    floated = _floated(document)
    assert gc.validate_character(floated).valid
    now = datetime(2026, 10, 5, tzinfo=UTC)
    calls: list[Callable[[dict[str, Any]], Any]] = [
        gc.combat_stats,
        lambda doc: gc.get_pool(doc, "hp"),
        gc.get_condition,
        gc.verify_character,
        lambda doc: gc.change_pool(doc, "fp", -3, now=now),
    ]
    for call in calls:
        assert _exact(_outcome(call, floated)) == _exact(_outcome(call, document))


def _outcome(call: Callable[[dict[str, Any]], Any], document: dict[str, Any]) -> Any:
    """The result as JSON (without a returned document), or the error's code and details."""
    try:
        result = call(document).to_dict()
    except CharacterError as error:
        return error.to_dict()
    result.pop("document", None)
    return result


def test_combat_stats_of_whole_floats(rurik: dict[str, Any]) -> None:
    rurik["profile"]["sizeModifier"] = 1.0
    rurik["secondary"]["basicSpeed"]["value"] = 5.0
    stats = gc.combat_stats(rurik)
    assert type(stats.size_modifier) is int and stats.size_modifier == 1
    assert type(stats.basic_speed) is int and stats.basic_speed == 5
    assert f"{stats.size_modifier:+d}" == "+1"  # the CLI's stats table formats it so


@pytest.mark.parametrize(
    ("mutate", "pointer"),
    [
        (lambda d: d["profile"].update(name=["x"]), "/profile/name"),
        (lambda d: d["secondary"]["hp"].update(current="0"), "/secondary/hp/current"),
        (lambda d: d["weapons"]["melee"][0].update(reach=[1]), "/weapons/melee/0/reach"),
        (lambda d: d["skills"][0].update(level=12.5), "/skills/0/level"),
    ],
)
def test_combat_stats_refuses_invalid_documents_before_reading_them(
    rurik: dict[str, Any], mutate: Callable[[dict[str, Any]], Any], pointer: str
) -> None:
    # profile.name = ["x"] came back inside the "detached" view as the caller's own list
    mutate(rurik)
    error = raises("schema", lambda: gc.combat_stats(rurik))
    assert pointer in [item["pointer"] for item in error.details["errors"]]


@pytest.mark.parametrize(
    ("holder", "pointer"),
    [
        ({"value": "12"}, "/secondary/hp/value"),
        ({"value": 12.5}, "/secondary/hp/value"),
        ({"value": True, "current": 3}, "/secondary/hp/value"),
        ({"value": 12, "current": "0"}, "/secondary/hp/current"),
        ({"value": 12, "current": False}, "/secondary/hp/current"),
        ({}, "/secondary/hp/value"),
    ],
)
def test_pools_refuse_what_the_schema_does_not_allow(holder: dict[str, Any], pointer: str) -> None:
    # current: "0" was read as full HP, and apply_damage then wrote 12 - 7 = 5
    document = {"secondary": {"hp": holder}}
    for call in (lambda: gc.get_pool(document, "hp"), lambda: gc.apply_damage(document, 7)):
        assert raises("invalidDocument", call).details == {"pointer": pointer}


def test_an_update_whose_bounds_cannot_be_computed_is_refused() -> None:
    # the bound "value" of a pool whose value is text bounded nothing: any current was accepted
    document = {"secondary": {"hp": {"value": "12"}}}
    error = raises("invalidDocument", lambda: gc.update_character(document, {"/secondary/hp/current": 900}))
    assert error.details == {"pointer": "/secondary/hp"}
    assert str(error) == "The bounds of /secondary/hp/current cannot be computed from /secondary/hp."


# ---------------------------------------------------------------- results never alias


def test_results_never_change_after_the_caller_mutates(rurik: dict[str, Any]) -> None:
    parsed = gc.parse_character(rurik)
    parsed.character["profile"]["name"] = "someone else"
    assert rurik["profile"]["name"] != "someone else"
    first = gc.apply_damage(rurik, 1, now=NOW)
    second = gc.apply_damage(rurik, 1, now=NOW)
    first["secondary"]["hp"]["current"] = 0
    assert second["secondary"]["hp"]["current"] == 10


def test_threads_get_identical_results() -> None:
    text = (EXAMPLES / "jotun.json").read_text(encoding="utf-8")
    expected = gc.parse_character(text).report.to_dict()
    results: list[object] = []

    def work() -> None:
        for _ in range(20):
            parsed = gc.parse_character(text)
            results.append(parsed.report.to_dict())
            results.append(gc.verify_character(parsed.character).to_dict())

    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(results) == 8 * 40
    assert all(result == expected for result in results)
