"""Hostile input: nothing but CharacterError, nothing modified, nothing lost.

Character files come from players, uploads and bots. Whatever they hold -- and whatever a caller
passes -- every public function returns or raises ``CharacterError`` (``FormulaError`` from the
formula module; ``TypeError`` only for a ``now`` that is not an aware datetime), never changes
its input, and returns results that share nothing with the input, with each other or with the
library's own state. Documents survive ``parse -> serialize -> parse`` unchanged, extensions
included.

The inputs come from ``strategies.py``: valid documents built by walking the bundled schema, the
examples, and both mutated with wrong types, booleans, NaN and infinities, huge integers, Python
objects, cycles and deep nesting. ``scripts/fuzz.py`` runs the same generators for as long as
you like; these tests keep CI bounded.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import math
import re
from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta, timezone
from types import MappingProxyType
from typing import Any, get_args

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import gurps_character as gc
from gurps_character import (
    MAX_DOCUMENT_BYTES,
    SCHEMA,
    VOCABULARY,
    CharacterError,
    apply_damage,
    check_envelope,
    combat_stats,
    get_pool,
    get_updatable_fields,
    heal,
    parse_character,
    recover_fatigue,
    serialize_character,
    spend_fatigue,
    update_character,
    validate_character,
    verify_character,
)
from gurps_character import load as load_module
from gurps_character._frozen import thaw
from gurps_character.errors import describe, json_detail
from gurps_character.formula import (
    Dice,
    FormulaError,
    FormulaSyntaxError,
    deviations,
    evaluate,
    parse_dice,
    parse_formula,
    plain_value,
    recompute,
    resolve_schema_ref,
    round_up,
)
from gurps_character.formula._ast import Binary, Negate, Number
from gurps_character.formula._parser import MAX_FORMULA_LENGTH, MAX_NESTING
from tests.support.strategies import (
    HypothesisChooser,
    ReadOnlyMapping,
    chance,
    documents,
    example,
    formulas,
    hostile_documents,
    hostile_value,
    hostile_values,
    json_equal,
    mutate_document,
    mutate_text,
    nested,
    pick,
    random_now,
    shared_bomb,
    shared_containers,
    snapshot,
    valid_document,
    valid_documents,
)

HOSTILE = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)
"""Hostile examples are costly (invalid documents take jsonschema's slow path): few, but many kinds."""

PARSE_CODES = {
    "tooLarge",
    "invalidJson",
    "notAnObject",
    "legacyFormat",
    "wrongFormat",
    "unsupportedVersion",
    "newerVersion",
    "schema",
    "invalidArgument",
}
ALL_CODES = set(get_args(gc.ErrorCode))
NOW = datetime(2026, 10, 5, 10, 0, tzinfo=UTC)
DEEP = 25_000
"""Deep enough that any recursion would fail (the limit is 1,000 frames), shallow enough for CI;
scripts/fuzz.py goes to the byte limit (a million levels)."""
POOL_FUNCTIONS: tuple[Callable[..., dict[str, Any]], ...] = (
    apply_damage,
    heal,
    spend_fatigue,
    recover_fatigue,
)


def document_calls(now: datetime | None = NOW) -> list[tuple[str, Callable[[Any], Any]]]:
    """Every public function that takes a document, with ordinary other arguments."""
    calls: list[tuple[str, Callable[[Any], Any]]] = [
        ("parse_character", parse_character),
        ("verify_character", verify_character),
        ("combat_stats", combat_stats),
        ("check_envelope", check_envelope),
        ("get_pool hp", lambda doc: get_pool(doc, "hp")),
        ("get_pool fp", lambda doc: get_pool(doc, "fp")),
        ("update_character", lambda doc: update_character(doc, {"/secondary/hp/current": 1}, now=now)),
        ("serialize_character", serialize_character),
        ("serialize_character 0", lambda doc: serialize_character(doc, indent=0)),
        ("character_attack_skill", lambda doc: gc.character_attack_skill(doc, skill="Broadsword")),
        ("character_defense dodge", lambda doc: gc.character_defense(doc, "dodge", retreat=True)),
        ("character_defense parry", lambda doc: gc.character_defense(doc, "parry")),
    ]
    calls += [(function.__name__, _pool_call(function, now)) for function in POOL_FUNCTIONS]
    return calls


def _pool_call(function: Callable[..., Any], now: datetime | None) -> Callable[[Any], Any]:
    return lambda document: function(document, 3, now=now)


def only_character_errors(document: Any) -> dict[str, str]:
    """Calls every document function; returns each one's outcome ("ok" or the error code).
    Anything but CharacterError fails the test, and so does a changed input."""
    before = snapshot(document)
    outcomes = {}
    result = validate_character(document)  # never raises
    assert result.valid is not bool(result.errors)
    for name, call in document_calls():
        try:
            value = call(document)
        except CharacterError as error:
            assert error.code in ALL_CODES
            assert json_equal(json.loads(json.dumps(error.details)), error.details)  # JSON-ready
            assert str(error) == error.message
            outcomes[name] = error.code
        else:
            outcomes[name] = "ok"
            returned = value.character if isinstance(value, gc.Parsed) else value
            assert not shared_containers(returned, document), name
        assert snapshot(document) == before, f"{name} modified its input"
    return outcomes


def test_the_generators_know_every_pattern_of_the_schema() -> None:
    from tests.support import strategies

    patterns = set()
    stack: list[Any] = [SCHEMA]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            if isinstance(node.get("pattern"), str):
                patterns.add(node["pattern"])
            stack.extend(node.values())
        elif isinstance(node, tuple):
            stack.extend(node)
    assert patterns <= set(strategies._PATTERNS)


# ================================================================ one kind of failure


@HOSTILE
@given(hostile_documents())
def test_mutated_documents_give_results_or_character_errors(document: Any) -> None:
    only_character_errors(document)


@HOSTILE
@given(hostile_values())
def test_any_value_as_a_document_gives_a_character_error(value: Any) -> None:
    outcomes = only_character_errors(value)
    if not isinstance(value, Mapping | str | bytes | bytearray | memoryview):
        assert set(outcomes.values()) == {"notAnObject"}


@pytest.mark.parametrize(
    "value",
    [
        None,
        True,
        3,
        math.nan,
        "text",
        b"bytes",
        [],
        (1, 2),
        {1, 2},
        object(),
        ReadOnlyMapping({"format": "gurps-character", "formatVersion": "1.3.0"}),
        MappingProxyType({"format": "gurps-sheet"}),
        {"format": 10**400, "formatVersion": "1.3.0"},
        {"format": "gurps-character", "formatVersion": 10**5000},
        {"format": "gurps-character", "formatVersion": float("inf")},
        {1: "gurps-character"},
    ],
    # Stable ids (repr of an object() holds its address, which differs between xdist workers).
    ids=lambda value: re.sub(r" at 0x[0-9a-f]+", "", describe(value)),
)
def test_odd_values_as_documents(value: Any) -> None:
    only_character_errors(value)


@HOSTILE
@given(st.data())
def test_mutated_text_gives_a_document_or_a_parse_error(data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    document = valid_document(chooser) if chance(chooser, 50) else example(pick(chooser, ("rurik", "jotun")))
    text = mutate_text(chooser, json.dumps(document, indent=pick(chooser, (None, 2)), ensure_ascii=False))
    try:
        parsed = parse_character(text)
    except CharacterError as error:
        assert error.code in PARSE_CODES
        if error.code == "invalidJson":
            assert set(error.details) in ({"line", "column"}, {"truncated"})
    else:
        assert validate_character(parsed.character).valid


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "invalidJson"),
        ("\ufeff{}", "invalidJson"),
        ("NaN", "invalidJson"),
        ('{"format": Infinity}', "invalidJson"),
        ('{"format": 1e400}', "wrongFormat"),  # JSON.parse reads 1e400 as Infinity
        ("[" * 100_000 + "]" * 100_000, "notAnObject"),
        ('{"a":' * 100_000 + "1" + "}" * 100_000, "wrongFormat"),
        ("[" * 100_000, "invalidJson"),
        ('"\\ud800"', "notAnObject"),
        (b"\xff\xfe{}", "invalidJson"),
        (b'{"format": "gurps-character"\xed\xa0\x80}', "invalidJson"),
        ("9" * 5000, "notAnObject"),  # a number no double holds: Infinity to JSON.parse
        ("[1e308, 1]", "notAnObject"),
    ],
    ids=lambda item: describe(item)[:40],
)
def test_hostile_text(text: str | bytes, code: str) -> None:
    with pytest.raises(CharacterError) as caught:
        parse_character(text)
    assert caught.value.code == code


@pytest.mark.parametrize("max_bytes", [-1, True, 1.5, None, "9", 2.0**70, [1], float("nan")], ids=describe)
def test_a_bad_byte_limit_is_an_invalid_argument(max_bytes: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        parse_character("{}", max_bytes=max_bytes)
    assert caught.value.code == "invalidArgument"


@pytest.mark.parametrize("indent", [None, True, 2.5, b"  ", [2], nested(100_000)], ids=describe)
def test_a_bad_indent_is_an_invalid_argument(indent: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        serialize_character(example("rurik"), indent=indent)
    assert caught.value.code == "invalidArgument"


@HOSTILE
@given(documents(), st.data())
def test_hostile_changes_are_refused_whole(document: dict[str, Any], data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    pointers = ("/secondary/hp/current", "/secondary/fp/current")
    changes: Any = [
        (
            pick(chooser, pointers) if chance(chooser, 80) else hostile_value(chooser),
            chooser.integer(-30, 30) if chance(chooser, 60) else hostile_value(chooser),
        )
        for _ in range(chooser.integer(0, 3))
    ]
    if chance(chooser, 10):
        changes = hostile_value(chooser)
    before = snapshot(document)
    try:
        updated = update_character(document, changes, now=random_now(chooser))
    except CharacterError as error:
        assert error.code in {
            "notUpdatable",
            "invalidValue",
            "outOfBounds",
            "invalidArgument",
            "invalidDocument",
        }
    else:
        assert validate_character(updated).valid
        assert not shared_containers(updated, document)
        if isinstance(changes, list):  # all or nothing: every change is there
            for pointer, value in dict(changes).items():
                _, group, pool, key = pointer.split("/")
                assert updated[group][pool][key] == value
    assert snapshot(document) == before


@HOSTILE
@given(documents(), st.data())
def test_hostile_amounts_are_invalid_amounts(document: dict[str, Any], data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    amount = chooser.integer(0, 50) if chance(chooser, 30) else hostile_value(chooser)
    function = pick(chooser, POOL_FUNCTIONS)
    before = snapshot(document)
    try:
        updated = function(document, amount, now=NOW)
    except CharacterError as error:
        assert error.code in {"invalidAmount", "outOfBounds", "invalidDocument"}
        json.dumps(error.details)  # JSON-ready, whatever the amount was
    else:
        assert validate_character(updated).valid
    assert snapshot(document) == before


@pytest.mark.parametrize("amount", [10**400, 2**1024, -(10**400), 10**5000, math.inf, math.nan], ids=describe)
def test_amounts_no_double_can_hold_are_invalid(amount: Any) -> None:
    document = example("rurik")
    document["secondary"]["hp"]["value"] = 13.0  # 3.0 is an integer in JSON
    del document["secondary"]["hp"]["current"]
    assert validate_character(document).valid
    with pytest.raises(CharacterError) as caught:
        apply_damage(document, amount)
    assert caught.value.code == "invalidAmount"
    json.dumps(caught.value.details)


def test_huge_amounts_within_doubles_stop_at_the_bounds() -> None:
    document = example("rurik")
    document["secondary"]["hp"]["value"] = 13.0
    amounts: tuple[Any, ...] = (2**1023, 1e308, 10**300)
    for amount in amounts:
        assert apply_damage(document, amount)["secondary"]["hp"]["current"] == -130
        assert heal(document, amount)["secondary"]["hp"]["current"] == 13


@pytest.mark.parametrize(
    "value", [10**400, 10**5000, -(2**1024), math.inf, math.nan, True, "3", None, [1], {"v": 3}], ids=describe
)
def test_values_no_double_can_hold_are_invalid_values(value: Any) -> None:
    with pytest.raises(CharacterError) as caught:
        update_character(example("rurik"), {"/secondary/hp/current": value}, now=NOW)
    assert caught.value.code == "invalidValue"
    json.dumps(caught.value.details)


def test_messages_and_details_survive_values_repr_cannot_show() -> None:
    deep = nested(DEEP)
    for call in (
        lambda: update_character(example("rurik"), [(deep, 1)], now=NOW),
        lambda: update_character(example("rurik"), [("/secondary/hp/current", deep)], now=NOW),
        lambda: apply_damage(example("rurik"), deep),
        lambda: get_pool(example("rurik"), 10**5000),  # type: ignore[arg-type]
        lambda: parse_character("{}", max_bytes=deep),
        lambda: serialize_character(example("rurik"), indent=deep),
        lambda: check_envelope({"format": deep}),
    ):
        with pytest.raises(CharacterError) as caught:
            call()
        assert len(caught.value.message) < 1000
        json.dumps(caught.value.details)


@pytest.mark.parametrize("now", [datetime(2020, 1, 1), "2020-01-01T00:00:00Z", 0])
def test_a_now_that_is_not_an_aware_datetime_is_a_type_error(now: Any) -> None:
    calls: tuple[Callable[[], Any], ...] = (
        lambda: update_character(example("rurik"), {"/secondary/hp/current": 1}, now=now),
        lambda: apply_damage(example("rurik"), 1, now=now),
    )
    for call in calls:
        with pytest.raises(TypeError):
            call()


@pytest.mark.parametrize(
    ("now", "stamp"),
    [
        (datetime(5, 1, 1, tzinfo=UTC), "0005-01-01T00:00:00.000Z"),
        (datetime(999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC), "0999-12-31T23:59:59.999Z"),
        (datetime(1, 1, 1, 5, tzinfo=timezone(timedelta(hours=5))), "0001-01-01T00:00:00.000Z"),
        (datetime.max.replace(tzinfo=UTC), "9999-12-31T23:59:59.999Z"),
    ],
)
def test_updated_at_always_has_four_digit_years(now: datetime, stamp: str) -> None:
    updated = update_character(example("rurik"), {"/secondary/hp/current": 1}, now=now)
    assert updated["meta"]["updatedAt"] == stamp
    assert validate_character(updated).valid


@pytest.mark.parametrize(
    "now",
    [
        datetime.min.replace(tzinfo=timezone(timedelta(hours=5))),
        datetime.max.replace(tzinfo=timezone(timedelta(hours=-5))),
    ],
)
def test_a_now_outside_the_years_1_to_9999_is_an_invalid_argument(now: datetime) -> None:
    with pytest.raises(CharacterError) as caught:
        apply_damage(example("rurik"), 1, now=now)
    assert caught.value.code == "invalidArgument"


@HOSTILE
@given(st.data())
def test_any_aware_now_gives_a_valid_document_or_an_invalid_argument(data: st.DataObject) -> None:
    now = random_now(HypothesisChooser(data.draw))
    try:
        updated = heal(example("jotun"), 1, now=now)
    except CharacterError as error:
        assert error.code == "invalidArgument"
    else:
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", updated["meta"]["updatedAt"])
        assert validate_character(updated).valid


# ---------------------------------------------------------------- the formula module


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(formulas(), st.data())
def test_random_formulas_on_hostile_roots_give_values_or_formula_errors(
    formula: str, data: st.DataObject
) -> None:
    chooser = HypothesisChooser(data.draw)
    root = example("rurik") if chance(chooser, 50) else hostile_value(chooser)
    tables = SCHEMA["x-gurps-tables"] if chance(chooser, 70) else hostile_value(chooser)
    local = root if chance(chooser, 50) else hostile_value(chooser)
    before = snapshot((root, local))
    try:
        value = evaluate(formula, root, local=local, tables=tables)
    except FormulaError:
        pass
    else:
        assert is_formula_value(value)
        assert not shared_containers(value, (root, local))
    assert snapshot((root, local)) == before


class _LyingText(str):
    def __str__(self) -> str:
        return "lie"


@pytest.mark.parametrize(
    ("root", "expected"),
    [
        ({1, 2}, None),
        (object(), None),
        ([{3}, (1, 2)], [None, [1, 2]]),
        (_LyingText("st"), "st"),
        ({"a": _LyingText("b")}, {"a": "b"}),
    ],
    ids=["set", "object", "nested", "str-subclass", "nested-str-subclass"],
)
def test_a_path_to_what_json_cannot_hold_gives_json_data(root: Any, expected: Any) -> None:
    # '$' over a set returned the set itself, and over a str subclass the subclass
    value = evaluate("$", root)
    assert value == expected
    assert is_formula_value(value)


def is_formula_value(value: Any) -> bool:
    """A number (finite, or None for what JSON cannot hold), text, bool, None, Dice, or plain
    lists and dicts of them."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, float) and not math.isfinite(item):
            return False
        if type(item) is list:
            stack.extend(item)
        elif type(item) is dict:
            if not all(type(key) is str for key in item):
                return False
            stack.extend(item.values())
        elif not (item is None or type(item) in (bool, int, float, str, Dice)):
            return False
    return True


@settings(max_examples=200, deadline=None)
@given(st.one_of(formulas(), hostile_values(deep=500), st.text(max_size=50)))
def test_parse_formula_gives_a_tree_or_a_formula_error(source: Any) -> None:
    try:
        parse_formula(source)
    except FormulaSyntaxError as error:
        assert isinstance(source, str)
        assert 0 <= error.position <= len(source)
        assert str(error).splitlines()[-1] == " " * (str(error).splitlines()[-1].index("^")) + "^"
    except FormulaError:
        assert not isinstance(source, str)


@HOSTILE
@given(st.data())
def test_recompute_and_deviations_on_hostile_documents_and_schemas(data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    document = hostile_value(chooser) if chance(chooser, 30) else data.draw(hostile_documents())
    schema: Any = SCHEMA
    if chance(chooser, 30):
        schema = mutate_document(chooser, thaw(SCHEMA))
    elif chance(chooser, 10):
        schema = hostile_value(chooser)
    before = snapshot((document, schema))
    try:
        results = recompute(schema, document)
        found = deviations(schema, document, results)
    except FormulaError:
        pass
    else:
        assert not shared_containers([item.stored for item in results], document)
        pointers = {item.pointer for item in results}
        assert all(item.pointer in pointers for item in found)  # a deviation is a recomputed value
        assert all(item.pointer == "" or item.pointer.startswith("/") for item in results)
    assert snapshot((document, schema)) == before


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_values(deep=500))
def test_small_formula_helpers_on_anything(value: Any) -> None:
    before = snapshot(value)
    dice = parse_dice(value)
    # dice only from text, or a list JavaScript's String() writes as text (['3d+2'] is '3d+2'),
    # with the notation written anew from its numbers (' 02d+0 ' is 2d), which reads as the same
    assert dice is None or (isinstance(value, str | list) and parse_dice(dice.notation) == dice)
    with contextlib.suppress(FormulaError):
        round_up(value)
    plain_value(value)
    resolve_schema_ref(SCHEMA, value)
    resolve_schema_ref(value, {"$ref": "#/$defs/dice"})
    resolve_schema_ref(value, value)
    assert snapshot(value) == before


def test_schema_references_that_chain_or_loop_are_cut_short() -> None:
    looping = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#"}
    # a -> b -> a ... stops after 32 steps: the nodes merged on the way hold nothing but their
    # references, which merging drops; a reference to the root ("#") merges the root into itself
    assert resolve_schema_ref(looping, {"$ref": "#/$defs/a"}) == {}
    assert resolve_schema_ref(looping, looping) == {"$defs": looping["$defs"]}


# ================================================================ limits


def test_the_byte_limit_counts_utf8_bytes_of_text_and_bytes() -> None:
    text = serialize_character(example("rurik"))
    limit = len(text.encode()) + 10
    padded = text + " " * 10  # whitespace after the document counts
    assert len(padded.encode()) == limit
    for source in (padded, padded.encode(), bytearray(padded.encode()), memoryview(padded.encode())):
        assert parse_character(source, max_bytes=limit).report is not None
        with pytest.raises(CharacterError) as caught:
            parse_character(source, max_bytes=limit - 1)
        assert caught.value.code == "tooLarge"
        assert caught.value.details == {"size": limit, "limit": limit - 1}
    accented = text.replace('"Tamsin Ashdown"', '"Tamsin Ashdowné"')  # one character, two bytes
    assert (
        parse_character(accented, max_bytes=len(text.encode()) + 2).character["profile"]["name"].endswith("é")
    )
    with pytest.raises(CharacterError) as caught:
        parse_character(accented, max_bytes=len(text.encode()) + 1)
    assert caught.value.details["size"] == len(text.encode()) + 2


def test_the_default_byte_limit() -> None:
    with pytest.raises(CharacterError) as caught:
        parse_character(" " * MAX_DOCUMENT_BYTES + "é")
    assert caught.value.details == {"size": MAX_DOCUMENT_BYTES + 2, "limit": MAX_DOCUMENT_BYTES}
    with pytest.raises(CharacterError) as caught:
        parse_character("\ud800" * (MAX_DOCUMENT_BYTES // 3 + 1))  # a lone surrogate is 3 bytes
    assert caught.value.code == "tooLarge"


def test_a_document_at_the_byte_limit_parses_and_verifies() -> None:
    """9,000 skills in just under 2,000,000 bytes (the timings are scripts/fuzz.py --measure's)."""
    document = example("rurik")
    skill, own = document["skills"][0], document["skills"]
    extra = 9_000 - len(own)
    document["points"]["breakdown"]["skills"] += skill["points"] * extra
    document["points"]["spent"] = sum(document["points"]["breakdown"].values())
    document["points"]["budget"] = None
    document["points"].pop("unspent")
    document["skills"] = own + [skill] * extra
    spare = (MAX_DOCUMENT_BYTES - len(json.dumps(document, indent=2).encode())) // extra
    document["skills"] = own + [dict(skill, name=f"{skill['name']} {i:0{spare - 1}d}") for i in range(extra)]
    text = json.dumps(document, indent=2)
    assert MAX_DOCUMENT_BYTES - 9_000 < len(text.encode()) <= MAX_DOCUMENT_BYTES
    parsed = parse_character(text)
    assert parsed.report.rules_compliant
    assert len(combat_stats(parsed.character).skills) == 9_000


@pytest.fixture(scope="module")
def deep_document() -> Any:
    """A valid character with an extension nested 25,000 levels deep (schema-valid: extensions
    are free-form), as parse_character reads it from text."""
    text = json.dumps({**example("rurik"), "extensions": {"com.example.deep": "HERE"}})
    text = text.replace('"HERE"', "[" * DEEP + '{"a": [1, "x", null]}' + "]" * DEEP)
    return parse_character(text).character


def _depth(value: Any) -> int:
    depth = 0
    while isinstance(value, list) and value:
        value, depth = value[0], depth + 1
    return depth


def test_deep_data_in_extensions_is_carried_by_every_function(deep_document: dict[str, Any]) -> None:
    document = deep_document
    before = snapshot(document)
    assert validate_character(document).valid
    assert verify_character(document).rules_compliant == verify_character(example("rurik")).rules_compliant
    assert combat_stats(document) == combat_stats(example("rurik"))
    assert check_envelope(document) == check_envelope(example("rurik"))
    assert get_pool(document, "hp") == get_pool(example("rurik"), "hp")
    updated = update_character(document, {"/secondary/hp/current": 2}, now=NOW)
    damaged = apply_damage(document, 2, now=NOW)
    again = parse_character(document).character
    for result in (updated, damaged, again):
        assert _depth(result["extensions"]["com.example.deep"]) == DEEP
        assert json_equal(result["extensions"], document["extensions"])
        assert not shared_containers(result, document)
    text = serialize_character(document, indent=0)
    assert json_equal(parse_character(text).character, document)
    assert snapshot(document) == before


def test_indenting_deep_data_past_the_longest_string_is_too_large(deep_document: dict[str, Any]) -> None:
    with pytest.raises(CharacterError) as caught:
        serialize_character(deep_document)  # 25,000 levels x 2 spaces x 50,000 lines
    assert caught.value.code == "tooLarge"
    assert caught.value.details["limit"] == load_module.MAX_TEXT_LENGTH == 2**29 - 24
    assert caught.value.details["size"] > 2 * DEEP * DEEP


@pytest.mark.parametrize("indent", [1, 2, "\t", 10])
def test_the_text_limit_is_exact(monkeypatch: pytest.MonkeyPatch, indent: int | str) -> None:
    document = example("jotun")
    document["extensions"] = {"com.example.deep": nested(300, "é\u2028", "mixed")}
    text = serialize_character(document, indent=indent)
    monkeypatch.setattr(load_module, "MAX_TEXT_LENGTH", len(text))
    assert serialize_character(document, indent=indent) == text
    monkeypatch.setattr(load_module, "MAX_TEXT_LENGTH", len(text) - 1)
    with pytest.raises(CharacterError) as caught:
        serialize_character(document, indent=indent)
    assert caught.value.details == {"size": len(text), "limit": len(text) - 1}
    monkeypatch.setattr(load_module, "MAX_TEXT_LENGTH", len(text) // 2)  # refused before writing
    with pytest.raises(CharacterError) as caught:
        serialize_character(document, indent=indent)
    assert caught.value.details["size"] == len(text)


@pytest.mark.parametrize("shape", ["list", "dict", "tuple", "mapping"])
def test_deep_python_values_are_copied_or_refused_without_recursion(shape: str) -> None:
    value = nested(DEEP, 1, shape)
    document = {**example("rurik"), "extensions": {"com.example.deep": value}}
    assert validate_character(document).valid
    copied = update_character(document, {"/secondary/fp/current": 0}, now=NOW)
    assert json_equal(copied["extensions"], document["extensions"])
    text = serialize_character(document, indent=0)
    assert json_equal(parse_character(text).character, document)
    document["extensions"]["com.example.deep"] = [value, {1, 2}]  # not JSON, next to deep data
    with pytest.raises(CharacterError) as caught:
        update_character(document, {"/secondary/fp/current": 0}, now=NOW)
    assert caught.value.code == "invalidJson"
    assert caught.value.details["pointer"] == "/extensions/com.example.deep/1"


def test_cycles_are_invalid_json_wherever_they_are() -> None:
    document = example("rurik")
    loop: list[Any] = [1]
    loop.append({"back": loop})
    document["extensions"] = {"com.example.loop": loop}
    for call in (
        lambda: parse_character(document),
        lambda: update_character(document, {"/secondary/hp/current": 1}, now=NOW),
        lambda: serialize_character(document),
        lambda: heal(document, 1, now=NOW),
    ):
        with pytest.raises(CharacterError) as caught:
            call()
        assert caught.value.code == "invalidJson"
        assert caught.value.details["pointer"] == "/extensions/com.example.loop/1/back"
    document["skills"].append(document["skills"])  # where the schema looks: a schema error
    assert not validate_character(document).valid
    only_character_errors(document)


def test_shared_lists_standing_for_too_much_data_are_refused_at_the_door() -> None:
    """A Python caller's data may share parts (YAML aliases do): a list holding the same list
    twice, 60 levels down, stands for 2**60 values. Functions that copy the document refuse it;
    validation does not look inside extensions."""
    document = example("rurik")
    document["extensions"] = {"com.example.bomb": shared_bomb(60)}
    assert validate_character(document).valid
    assert check_envelope(document).minor == 1
    calls: tuple[Callable[[], Any], ...] = (  # each takes a second: the fuzzer tries the others
        lambda: parse_character(document),
        lambda: update_character(document, {"/secondary/hp/current": 1}, now=NOW),
    )
    for call in calls:
        with pytest.raises(CharacterError) as caught:
            call()
        assert caught.value.code == "invalidJson"
        assert "repeat" in caught.value.details["reason"]
    document["extensions"] = {"com.example.shared": [shared_bomb(3)] * 3}  # a little sharing is fine
    assert json_equal(parse_character(document).character, document)


def test_formulas_walk_deep_arrays_in_linear_time() -> None:
    # a step walks one level of arrays, as the reference does: deeper ones are never entered
    root = nested(DEEP, {"y": 2}, "list")
    assert evaluate("sum(x.y)", {"x": root}) == 0
    assert evaluate("sum($.x.y)", {"x": [[{"y": 2}], {"y": 2}]}) == 2
    loop: list[Any] = []
    loop.append(loop)
    assert evaluate("x.y", {"x": [loop]}) == []
    with pytest.raises(FormulaError):  # a value that contains itself cannot be returned
        evaluate("x[y!=1]", {"x": [loop]})


def test_formula_length_and_nesting_limits() -> None:
    assert parse_formula("1" + "+1" * ((MAX_FORMULA_LENGTH - 1) // 2)) is not None
    with pytest.raises(FormulaSyntaxError, match="too long"):
        parse_formula("1" * (MAX_FORMULA_LENGTH + 1))
    assert evaluate("(" * MAX_NESTING + "1" + ")" * MAX_NESTING, {}) == 1
    for source in (
        "(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1),
        "-" * (MAX_NESTING + 2) + "1",
        "floor(" * (MAX_NESTING + 1) + "1" + ")" * (MAX_NESTING + 1),
        "(" * 100_000 + "1" + ")" * 100_000,
    ):
        with pytest.raises(FormulaSyntaxError):
            parse_formula(source)
        with pytest.raises(FormulaError):
            evaluate(source, {})
    assert evaluate("if(1, " * 60 + "2" + ", 0)" * 60, {}) == 2
    one = Number(1.0, "1", 0)
    wide = Binary(one, (("+", one),) * 100_000, 0)  # made by hand, not parsed: no length limit
    with pytest.raises(FormulaError, match="larger"):
        evaluate(wide, {})
    deep: Any = one
    for _ in range(100_000):
        deep = Negate(deep, 0)
    with pytest.raises(FormulaError):
        evaluate(deep, {})


# ================================================================ nothing modified, nothing lost


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(valid_documents(deep=300))
def test_parse_serialize_parse_keeps_every_valid_document(document: dict[str, Any]) -> None:
    before = snapshot(document)
    parsed = parse_character(document).character
    assert json_equal(parsed, document)
    assert not shared_containers(parsed, document)
    text = serialize_character(parsed, indent=0)
    again = parse_character(text, max_bytes=len(text.encode("utf-8", "surrogatepass"))).character
    assert json_equal(again, document)
    assert json_equal(again.get("extensions"), document.get("extensions"))
    assert serialize_character(again, indent=0) == text  # a fixed point
    assert snapshot(document) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(valid_documents())
def test_text_round_trips_byte_for_byte(document: dict[str, Any]) -> None:
    text = serialize_character(document)
    for source in (text, text.encode("utf-8", "surrogatepass") if text.isascii() else text):
        assert serialize_character(parse_character(source).character) == text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents(), st.data())
def test_updates_are_all_or_nothing(document: dict[str, Any], data: st.DataObject) -> None:
    chooser = HypothesisChooser(data.draw)
    changes = [
        (pick(chooser, ("/secondary/hp/current", "/secondary/fp/current")), chooser.integer(-300, 60))
        for _ in range(chooser.integer(1, 4))
    ]
    before = snapshot(document)
    try:
        updated = update_character(document, changes, now=NOW)
    except CharacterError as error:
        assert error.code == "outOfBounds"
        # the same changes one by one: one of them fails too (nothing was half applied)
        with pytest.raises(CharacterError):
            partial = document
            for change in changes:
                partial = update_character(partial, [change], now=NOW)
    else:
        final = dict(changes)  # the last value for each pointer
        for pointer, value in final.items():
            _, group, pool, key = pointer.split("/")
            assert updated[group][pool][key] == value
        assert updated["meta"]["updatedAt"] == "2026-10-05T10:00:00.000Z"
        rest = {key: value for key, value in updated.items() if key not in ("secondary", "meta")}
        assert json_equal(
            rest, {key: value for key, value in document.items() if key not in ("secondary", "meta")}
        )
    assert snapshot(document) == before


# ---------------------------------------------------------------- no aliasing


def test_returned_documents_share_nothing_with_the_input_or_each_other() -> None:
    document = example("jotun")
    document["extensions"] = {"com.example.app": {"notes": ["a", {"b": [1]}]}}
    results = [
        parse_character(document).character,
        update_character(document, {"/secondary/hp/current": 3}, now=NOW),
        apply_damage(document, 1, now=NOW),
        heal(document, 1, now=NOW),
        spend_fatigue(document, 1, now=NOW),
        recover_fatigue(document, 1, now=NOW),
        update_character(document, {}, now=NOW),
    ]
    for index, result in enumerate(results):
        assert not shared_containers(result, document)
        for other in results[index + 1 :]:
            assert not shared_containers(result, other)
    before = json.dumps(document)
    for result in results:  # mutating a result changes nothing else
        result["extensions"]["com.example.app"]["notes"][1]["b"].append(2)
        result["skills"].clear()
    assert json.dumps(document) == before
    assert parse_character(document).character == json.loads(before)


def test_reports_and_stats_are_read_only_snapshots() -> None:
    document = example("rurik")
    report = verify_character(document)
    stats = combat_stats(document)
    report_json, stats_json = report.to_dict(), stats.to_dict()
    report.to_dict()["deviations"].append("x")
    stats.to_dict()["weapons"]["melee"].clear()
    stats.to_dict()["skills"][0]["name"] = "changed"
    assert report.to_dict() == report_json and stats.to_dict() == stats_json
    with pytest.raises((AttributeError, TypeError)):
        stats.weapons.melee[0]["name"] = "changed"  # type: ignore[index]
    with pytest.raises((AttributeError, TypeError)):
        stats.skills.append(None)  # type: ignore[attr-defined]
    document["skills"][0]["name"] = "changed later"  # the document is not watched
    document["weapons"]["melee"][0]["name"] = "changed later"
    assert stats.to_dict() == stats_json
    assert verify_character(example("rurik")).to_dict() == report_json


def test_updatable_fields_cannot_be_changed_from_outside() -> None:
    fields = get_updatable_fields()
    plain = [field.to_dict() for field in fields]
    fields[0].to_dict()["bounds"]["min"] = "0"
    with pytest.raises(TypeError):
        fields[0].bounds["min"] = "0"  # type: ignore[index]
    with pytest.raises(TypeError):
        fields[0].labels["en"] = "x"  # type: ignore[index]
    assert [field.to_dict() for field in get_updatable_fields()] == plain
    with pytest.raises(CharacterError) as caught:
        update_character(example("rurik"), {"/secondary/hp/value": 1}, now=NOW)
    caught.value.details["updatable"].append("/secondary/hp/value")
    with pytest.raises(CharacterError) as again:
        update_character(example("rurik"), {"/secondary/hp/value": 1}, now=NOW)
    assert again.value.details["updatable"] == ["/secondary/hp/current", "/secondary/fp/current"]


def test_the_schema_cannot_be_corrupted() -> None:
    results = [item.to_dict() for item in recompute(SCHEMA, example("rurik"))]
    for constant in (SCHEMA, VOCABULARY):
        with pytest.raises(TypeError):
            constant["type"] = "array"  # type: ignore[index]
        copy = thaw(constant)
        copy["$defs"].clear()
        copy["$id"] = "changed"
        assert constant["$defs"] and constant["$id"] != "changed"
    node = resolve_schema_ref(SCHEMA, SCHEMA["properties"]["attributes"]["properties"]["st"])
    assert type(node) is dict and node["type"] == "object"
    node["x-gurps"] = {"role": "derived", "formula": "1"}
    node.clear()
    dice = resolve_schema_ref(SCHEMA, {"$ref": "#/$defs/dice"})
    dice.clear()
    assert resolve_schema_ref(SCHEMA, {"$ref": "#/$defs/dice"})["required"] == ("notation", "dice", "adds")
    assert [item.to_dict() for item in recompute(SCHEMA, example("rurik"))] == results
    assert validate_character(example("rurik")).valid


def test_validation_errors_and_formula_values_are_copies() -> None:
    document = example("rurik")
    document["skills"][0]["points"] = "eight"
    errors = validate_character(document).errors
    original = [error.to_dict() for error in errors]
    errors[0].to_dict()["params"]["type"] = "changed"
    with pytest.raises(TypeError):
        errors[0].params["type"] = "changed"  # type: ignore[index]
    assert [error.to_dict() for error in errors] == original
    assert [error.to_dict() for error in validate_character(document).errors] == original
    with pytest.raises(CharacterError) as caught:
        parse_character(document)
    caught.value.details["errors"].clear()
    with pytest.raises(CharacterError) as again:
        parse_character(document)
    assert again.value.details["errors"]

    document = example("rurik")
    skills = evaluate("$.skills", document)
    assert skills == document["skills"] and type(skills) is list and type(skills[0]) is dict
    skills[0]["name"] = "changed"
    skills.clear()
    assert document == example("rurik")
    stored = [item.stored for item in recompute(SCHEMA, document) if isinstance(item.stored, dict)]
    assert stored
    stored[0]["notation"] = "changed"
    assert document == example("rurik")


# ---------------------------------------------------------------- issue 16: foreign exceptions

LONG_DIGITS = "9" * 5000
"""Over Python's limit on the digits int() reads from text (4,300): int() raises ValueError."""


@pytest.mark.parametrize(
    ("version", "code"),
    [
        ("1." + LONG_DIGITS + ".0", "newerVersion"),
        ("1.3." + LONG_DIGITS, None),
        (LONG_DIGITS + ".1.0", "unsupportedVersion"),
        ("1." + "0" * 5000 + "3.0", None),  # leading zeros: the minor is 3
    ],
    ids=["minor", "patch", "major", "zeros"],
)
def test_long_digit_strings_in_versions_are_character_errors(version: str, code: str | None) -> None:
    document = example("rurik")
    document["formatVersion"] = version
    for source in (document, json.dumps(document)):
        if code is None:
            assert parse_character(source).report.rules_compliant
            continue
        with pytest.raises(CharacterError) as caught:
            parse_character(source)
        assert caught.value.code == code
        assert caught.value.details == {"formatVersion": version, "supported": "1.3"}
        assert len(caught.value.message) < 300  # the version is shown shortened


def test_long_digit_strings_elsewhere_are_character_errors() -> None:
    document = example("rurik")
    with pytest.raises(CharacterError) as caught:
        apply_damage(document, LONG_DIGITS)  # type: ignore[arg-type]
    assert caught.value.code == "invalidAmount"
    with pytest.raises(CharacterError) as caught:
        update_character(document, {"/secondary/hp/current": LONG_DIGITS}, now=NOW)
    assert caught.value.code == "invalidValue"
    with pytest.raises(CharacterError) as caught:
        update_character(document, {"/skills/" + LONG_DIGITS + "/level": 1}, now=NOW)
    assert caught.value.code == "notUpdatable"
    schema = {"$defs": {"a": [{"type": "string"}]}}
    assert resolve_schema_ref(schema, {"$ref": "#/$defs/a/" + LONG_DIGITS}) == {
        "$ref": "#/$defs/a/" + LONG_DIGITS
    }
    change = gc.change_pool(document, "hp", -(10**5000), now=NOW)  # stops at the bound
    assert (change.after.current, change.clamped) == (-10 * change.before.max, True)


@pytest.mark.parametrize(
    "budget",
    [-(10**400), 10**400, -(2**1023) * 2, math.inf, -math.inf, math.nan],
    ids=["-10**400", "10**400", "-2**1024", "inf", "-inf", "nan"],
)
def test_points_no_double_holds_are_not_numbers_to_the_budget_check(budget: Any) -> None:
    # was OverflowError: the overBudget message formatted -10**400 as a double
    document = example("rurik")
    document["points"] = {"budget": budget, "spent": 5}
    report = verify_character(document)
    assert report.issues == ()
    assert not report.rules_compliant  # the breakdown and the totals no longer add up


def test_the_budget_check_formats_any_difference() -> None:
    document = example("rurik")
    document["points"] = {"budget": -(2**1023), "spent": 2**1023}
    (issue,) = verify_character(document).issues
    assert issue.message == (
        "Points spent (8.98846567431158e+307) exceed the budget (-8.98846567431158e+307) by Infinity."
    )


def test_every_public_function_turns_a_foreign_exception_into_a_character_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the net below every root fix: an exception nobody foresaw is still a CharacterError
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("surprise")

    monkeypatch.setattr(gc.verify, "check_rules", broken)
    with pytest.raises(CharacterError) as caught:
        verify_character(example("rurik"))
    assert caught.value.code == "invalidDocument"
    assert caught.value.details == {"reason": "ZeroDivisionError"}
    assert str(caught.value) == "The input could not be processed (ZeroDivisionError)."
    assert isinstance(caught.value.__cause__, ZeroDivisionError)


def test_the_public_functions_are_guarded() -> None:
    # every public function of the engine API; validate_character never raises at all
    functions = {name for name in gc.__all__ if inspect.isfunction(getattr(gc, name))}
    guarded = {name for name in functions if getattr(getattr(gc, name), "__wrapped__", None) is not None}
    assert functions - guarded == {"validate_character"}
    assert {"parse_character", "verify_character", "combat_stats", "update_character"} <= guarded


# ---------------------------------------------------------------- numbers no double holds, in mappings

BEYOND_DOUBLES = [10**400, -(10**400), math.inf, -math.inf, math.nan]
BEYOND_IDS = ["10**400", "-10**400", "inf", "-inf", "nan"]


@pytest.mark.parametrize("number", BEYOND_DOUBLES, ids=BEYOND_IDS)
def test_a_mapping_with_a_number_no_double_holds_is_refused_as_text_is(number: Any) -> None:
    # as 1e400 in a text: a schema error where a number belongs, invalidJson where any value goes
    typed = example("rurik")
    typed["points"]["breakdown"]["other"] = number
    with pytest.raises(CharacterError) as caught:
        parse_character(typed)
    assert caught.value.code == "schema"
    assert caught.value.details["errors"] == [
        {
            "pointer": "/points/breakdown/other",
            "keyword": "type",
            "params": {"type": "number"},
            "message": "/points/breakdown/other: must be number",
        }
    ]
    free = example("rurik")
    free["extensions"] = {"com.example.x": [1, {"n": number}]}
    for call in (parse_character, serialize_character, lambda doc: apply_damage(doc, 1, now=NOW)):
        with pytest.raises(CharacterError) as caught:
            call(free)
        assert caught.value.code == "invalidJson"
        assert caught.value.details["pointer"] == "/extensions/com.example.x/1/n"


def test_serialize_never_writes_infinity_or_nan() -> None:
    # a valid document (extensions take anything) holding 10**400 was written as Infinity, or
    # raised OverflowError
    document = example("rurik")
    document["extensions"] = {"com.example.x": 10**400}
    assert validate_character(document).valid
    for indent in (0, 2):
        with pytest.raises(CharacterError) as caught:
            serialize_character(document, indent=indent)
        assert caught.value.details == {
            "pointer": "/extensions/com.example.x",
            "reason": "an integer of 1329 bits (beyond doubles) is not a JSON number",
        }


def test_details_write_numbers_no_double_holds_as_null_at_any_depth() -> None:
    # {"a": 10**5000} went into details as it was, and json.dumps could not write it
    detail = json_detail({"a": 10**5000, "b": [math.inf, -math.inf, math.nan, 1.5], "c": 2**1023})
    assert detail == {"a": None, "b": [None, None, None, 1.5], "c": 2**1023}
    assert json.dumps(detail, allow_nan=False)
    assert [json_detail(value) for value in (10**400, math.nan, math.inf)] == [None, None, None]
    with pytest.raises(CharacterError) as caught:
        check_envelope({"format": "gurps-character", "formatVersion": {"v": 10**5000}})
    assert caught.value.details == {"formatVersion": {"v": None}, "supported": "1.3"}
