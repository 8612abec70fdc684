"""recompute(), deviations() and resolve_schema_ref() over small schemas, the bundled schema and
the reference characters."""

from __future__ import annotations

import copy
import json
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character import SCHEMA, verify_character
from gurps_character._frozen import freeze
from gurps_character.formula import (
    Dice,
    FormulaError,
    FormulaSyntaxError,
    RecomputeResult,
    RuleDeviation,
    deviations,
    evaluate,
    recompute,
    resolve_schema_ref,
)
from gurps_character.formula import _recompute as recompute_module
from gurps_character.formula._recompute import check_rules
from gurps_character.formula._values import MISSING
from tests.support.paths import REPOSITORY

SHARED = REPOSITORY.parent / "shared"
REFERENCE = SHARED / "reference"


def thaw(value: Any) -> Any:
    """A plain, mutable JSON copy of the frozen schema."""
    return json.loads(json.dumps(value, default=dict))


def reference(name: str) -> Any:
    path = REFERENCE / name
    if not path.is_file():
        pytest.skip(f"{path} is absent (the shared reference characters are not checked out)")
    return json.loads(path.read_text(encoding="utf-8"))


# ---------------------------------------------------------------------------------- $ref

REF_SCHEMA: dict[str, Any] = {
    "$defs": {
        "base": {
            "type": "object",
            "description": "base",
            "x-gurps": {"role": "input", "unit": "kg", "label": "B"},
        },
        "alias": {"$ref": "#/$defs/base", "description": "alias"},
        "loop": {"$ref": "#/$defs/loop"},
        "a~b/c": {"type": "string"},
        "list": [{"type": "integer"}],
    }
}


def test_resolve_merges_siblings_over_the_target() -> None:
    node = {"$ref": "#/$defs/base", "description": "own", "x-gurps": {"role": "derived", "formula": "1"}}
    assert resolve_schema_ref(REF_SCHEMA, node) == {
        "type": "object",
        "description": "own",
        "x-gurps": {"role": "derived", "unit": "kg", "label": "B", "formula": "1"},
    }
    assert "x-gurps" not in REF_SCHEMA["$defs"]["base"]["x-gurps"]  # nothing was modified
    assert REF_SCHEMA["$defs"]["base"]["x-gurps"]["role"] == "input"


def test_resolve_follows_chains_and_pointer_escapes() -> None:
    assert resolve_schema_ref(REF_SCHEMA, {"$ref": "#/$defs/alias"})["description"] == "alias"
    assert resolve_schema_ref(REF_SCHEMA, {"$ref": "#/$defs/alias"})["x-gurps"]["unit"] == "kg"
    assert resolve_schema_ref(REF_SCHEMA, {"$ref": "#/$defs/a~0b~1c"}) == {"type": "string"}
    assert resolve_schema_ref(REF_SCHEMA, {"$ref": "#/$defs/list/0"}) == {"type": "integer"}
    assert resolve_schema_ref(REF_SCHEMA, {"$ref": "#"})["$defs"] is REF_SCHEMA["$defs"]


@pytest.mark.parametrize(
    "node",
    [
        {"type": "string"},
        {"$ref": "#/$defs/missing"},
        {"$ref": "other.json#/x"},
        {"$ref": 3},
        {"$ref": "#/$defs/list/7"},
        {"$ref": "#$defs"},
    ],
)
def test_resolve_leaves_unusable_refs(node: dict[str, Any]) -> None:
    assert resolve_schema_ref(REF_SCHEMA, node) is node


def test_resolve_survives_cycles_and_non_objects() -> None:
    assert isinstance(resolve_schema_ref(REF_SCHEMA, {"$ref": "#/$defs/loop"}), dict)  # it ends
    assert resolve_schema_ref(REF_SCHEMA, True) is True


def test_resolve_works_on_the_frozen_schema() -> None:
    node = SCHEMA["properties"]["damage"]["properties"]["thrust"]
    resolved = resolve_schema_ref(SCHEMA, node)
    assert resolved["required"] == ("notation", "dice", "adds")
    assert resolved["x-gurps"]["role"] == "overridable"
    assert "$ref" not in resolved


# ---------------------------------------------------------------------------------- a small schema

SMALL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"x-gurps": {"role": "derived", "formula": "sum($.parts.cost)", "sheetField": "T"}},
        "parts": {"type": "array", "items": {"$ref": "#/$defs/part"}},
        "speed": {"$ref": "#/$defs/speed", "x-gurps": {"sheetField": "S"}},
        "note": {"x-gurps": {"role": "input", "formula": "1"}},
        "hp": {"x-gurps": {"role": "state", "formula": "1"}},
    },
    "$defs": {
        "part": {
            "properties": {
                "cost": {"x-gurps": {"role": "input"}},
                "double": {"x-gurps": {"role": "overridable", "override": "unpaid", "formula": "cost * 2"}},
            }
        },
        "speed": {
            "x-gurps": {"role": "overridable", "override": "paid", "formula": "lookup('dice', 3)"},
        },
    },
    "x-gurps-tables": {"dice": {"mode": "step", "valueType": "dice", "entries": [[1, "1d+1"]]}},
}

SMALL_DOC: dict[str, Any] = {
    "total": 10,
    "parts": [{"cost": 2, "double": 4}, {"cost": 3, "double": 7}, {"cost": 4}],
    "speed": {"notation": "1d", "dice": 1, "adds": 0},
    "note": 5,
    "hp": 3,
}


def test_small_schema_results() -> None:
    results = recompute(SMALL, SMALL_DOC)
    assert [r.to_dict() for r in results[:5]] == [
        {
            "pointer": "/total",
            "role": "derived",
            "formula": "sum($.parts.cost)",
            "sheetField": "T",
            "stored": 10,
            "computed": 9,
        },
        {
            "pointer": "/parts/0/double",
            "role": "overridable",
            "override": "unpaid",
            "formula": "cost * 2",
            "stored": 4,
            "computed": 4,
        },
        {
            "pointer": "/parts/1/double",
            "role": "overridable",
            "override": "unpaid",
            "formula": "cost * 2",
            "stored": 7,
            "computed": 6,
        },
        {  # absent: recomputed with a null stored value, as the reference does
            "pointer": "/parts/2/double",
            "role": "overridable",
            "override": "unpaid",
            "formula": "cost * 2",
            "stored": None,
            "computed": 8,
        },
        {
            "pointer": "/speed",
            "role": "overridable",
            "override": "paid",
            "formula": "lookup('dice', 3)",
            "sheetField": "S",
            "stored": {"notation": "1d", "dice": 1, "adds": 0},
            "computed": {"notation": "1d+1", "dice": 1, "adds": 1},
        },
    ]
    assert results[4].computed == Dice("1d+1", 1, 1)
    assert list(results[0].to_dict()) == ["pointer", "role", "formula", "sheetField", "stored", "computed"]
    # The reference recomputes every formula the schema carries, whatever its role; only
    # deviations() looks at the role.
    assert [r.to_dict() for r in results[5:]] == [
        {"pointer": "/note", "role": "input", "formula": "1", "stored": 5, "computed": 1},
        {"pointer": "/hp", "role": "state", "formula": "1", "stored": 3, "computed": 1},
    ]


def test_small_schema_deviations() -> None:
    found = deviations(SMALL, SMALL_DOC)
    assert found == [
        RuleDeviation("/total", "inconsistent", 9, 10),
        RuleDeviation("/parts/1/double", "override", 6, 7),
        RuleDeviation("/parts/2/double", "override", 8, None),
    ]  # the paid override of /speed is legitimate
    assert [d.to_dict() for d in found][1] == {
        "pointer": "/parts/1/double",
        "reason": "override",
        "expected": 6,
        "actual": 7,
    }
    assert deviations(SMALL, SMALL_DOC, recompute(SMALL, SMALL_DOC)) == found


def test_dice_compare_by_notation() -> None:
    schema = copy.deepcopy(SMALL)
    schema["$defs"]["speed"]["x-gurps"]["override"] = "unpaid"
    doc: dict[str, Any] = {"total": 0, "speed": {"notation": "1d+1", "dice": 9, "adds": 9}}
    assert deviations(schema, doc) == []
    doc = {"total": 0, "speed": {"notation": "2d", "dice": 2, "adds": 0}}
    assert deviations(schema, doc) == [RuleDeviation("/speed", "override", "1d+1", "2d")]


def test_nulls_and_non_finite_values() -> None:
    schema = {"properties": {"a": {"x-gurps": {"role": "derived", "formula": "$.big * 10"}}}}
    found = deviations(schema, {"a": None, "big": 1e308})
    assert [d.to_dict() for d in found] == [
        {"pointer": "/a", "reason": "inconsistent", "expected": None, "actual": None}
    ]
    assert recompute(schema, {"a": None, "big": 1e308})[0].computed is None
    schema = {"properties": {"a": {"x-gurps": {"role": "derived", "formula": "$.missing"}}}}
    assert deviations(schema, {"a": None}) == []


def test_absent_values_are_recomputed_with_a_null_stored_value() -> None:
    """As the reference's recompute does: every property the schema gives a formula is visited
    when its owner object is there, present or not (stored null); nothing below an absent value,
    and an array's items only where there are some."""
    found = recompute(SMALL, {"parts": [{"cost": 1}]})
    assert [(r.pointer, r.stored, r.computed) for r in found] == [
        ("/total", None, 1),
        ("/parts/0/double", None, 2),
        ("/speed", None, Dice("1d+1", 1, 1)),
        ("/note", None, 1),
        ("/hp", None, 1),
    ]
    # an absent derived value does not add up; an absent paid override is no deviation
    assert deviations(SMALL, {"parts": [{"cost": 1}]}) == [
        RuleDeviation("/total", "inconsistent", 1, None),
        RuleDeviation("/parts/0/double", "override", 2, None),
    ]
    # parts that are not an array have no items to visit
    assert [r.pointer for r in recompute(SMALL, {"parts": {"0": {"double": 1}}, "total": None})] == [
        "/total",
        "/speed",
        "/note",
        "/hp",
    ]


def test_a_missing_unspent_is_a_derived_value_that_does_not_add_up() -> None:
    """The one optional formula value of the format (/points/unspent): without it, a document
    whose budget is a number is inconsistent, as in the reference."""
    hero = json.loads((REPOSITORY / "examples" / "rurik.json").read_text("utf-8"))
    del hero["points"]["unspent"]
    found = [d for d in deviations(SCHEMA, hero) if d.pointer == "/points/unspent"]
    assert found == [
        RuleDeviation(
            "/points/unspent", "inconsistent", hero["points"]["budget"] - hero["points"]["spent"], None
        )
    ]
    assert not verify_character(hero).rules_compliant


@pytest.mark.parametrize("document", [None, 42, "text", [], [SMALL_DOC]])
def test_documents_that_are_no_objects_have_nothing_to_recompute(document: Any) -> None:
    assert recompute(SMALL, document) == []
    assert deviations(SCHEMA, document) == []


@pytest.mark.parametrize("document", [{}, {"parts": None}, {"parts": "x"}])
def test_an_object_has_its_formulas_recomputed_whatever_it_holds(document: Any) -> None:
    assert [r.pointer for r in recompute(SMALL, document)] == ["/total", "/speed", "/note", "/hp"]
    assert deviations(SCHEMA, document) == []  # the format's top level carries no formula


def test_broken_formula_is_reported_when_its_owner_is_walked() -> None:
    schema = {"properties": {"a": {"x-gurps": {"role": "derived", "formula": "1 +"}}}}
    assert recompute(schema, [1]) == []  # no object: nothing is walked
    with pytest.raises(FormulaSyntaxError):
        recompute(schema, {"b": 1})  # a is absent, but its owner is there
    with pytest.raises(FormulaSyntaxError):
        recompute(schema, {"a": 1})
    schema = {"properties": {"a": {"x-gurps": {"role": "derived", "formula": "nope(1)"}}}}
    with pytest.raises(FormulaError, match="Unknown function 'nope'"):
        deviations(schema, {"a": 1})


def test_schema_must_be_a_mapping() -> None:
    schema: Any
    for schema in (None, [], "schema"):
        with pytest.raises(FormulaError):
            recompute(schema, {})
    with pytest.raises(FormulaError):
        deviations(SMALL, SMALL_DOC, results=[1])  # type: ignore[list-item]


def test_recursive_schema_with_cyclic_or_deep_documents() -> None:
    schema = {
        "$defs": {
            "node": {
                "properties": {
                    "v": {"x-gurps": {"role": "derived", "formula": "1"}},
                    "next": {"$ref": "#/$defs/node"},
                }
            }
        },
        "$ref": "#/$defs/node",
    }
    doc: dict[str, Any] = {"v": 1, "next": {"v": 2, "next": {"v": 1}}}
    assert [(r.pointer, r.stored) for r in recompute(schema, doc)] == [
        ("/v", 1),
        ("/next/v", 2),
        ("/next/next/v", 1),
    ]
    cyclic: dict[str, Any] = {"v": 1}
    cyclic["next"] = cyclic
    with pytest.raises(FormulaError):
        recompute(schema, cyclic)
    deep: dict[str, Any] = {"v": 1}
    for _ in range(5000):
        deep = {"v": 1, "next": deep}
    with pytest.raises(FormulaError):
        recompute(schema, deep)


def test_plain_schemas_are_not_cached_by_identity() -> None:
    schema = copy.deepcopy(SMALL)
    assert recompute(schema, SMALL_DOC)[0].computed == 9
    schema["properties"]["total"]["x-gurps"]["formula"] = "sum($.parts.cost) + 1"
    assert recompute(schema, SMALL_DOC)[0].computed == 10


def test_read_only_views_of_schemas_someone_else_holds_are_not_cached() -> None:
    # a MappingProxyType shows its dict as it is now: the caller may change the dict behind it
    # (issue 16: recompute and evaluate gave the old answer)
    node = {"role": "derived", "formula": "sum($.parts.cost)"}
    entries = {"9": 1}
    tables = MappingProxyType({"t": MappingProxyType({"mode": "map", "entries": MappingProxyType(entries)})})
    schema = MappingProxyType(
        {
            "properties": MappingProxyType({"total": MappingProxyType({"x-gurps": MappingProxyType(node)})}),
            "x-gurps-tables": tables,
        }
    )
    assert recompute(schema, SMALL_DOC)[0].computed == 9
    node["formula"] = "sum($.parts.cost) + 1"
    assert recompute(schema, SMALL_DOC)[0].computed == 10
    node["formula"] = "lookup('t', 9)"
    assert recompute(schema, SMALL_DOC)[0].computed == 1
    entries["9"] = 2
    assert recompute(schema, SMALL_DOC)[0].computed == 2
    assert evaluate("lookup('t', 9)", {}, tables=tables) == 2
    entries["9"] = 3
    assert evaluate("lookup('t', 9)", {}, tables=tables) == 3


def test_only_the_bundled_schema_is_planned_once() -> None:
    assert recompute_module._plan_for(SCHEMA) is recompute_module._plan_for(SCHEMA)
    frozen_copy = freeze(thaw(SCHEMA))
    assert recompute_module._plan_for(frozen_copy) is not recompute_module._plan_for(frozen_copy)


# ---------------------------------------------------------------------------------- the bundled schema


def test_frozen_and_plain_schema_agree() -> None:
    rurik = reference("rurik.json")
    plain_schema = thaw(SCHEMA)
    assert recompute(SCHEMA, rurik) == recompute(plain_schema, rurik)
    assert [r.to_dict() for r in recompute(SCHEMA, rurik)] == [
        r.to_dict() for r in recompute(plain_schema, rurik)
    ]


def test_results_are_detached_from_the_document() -> None:
    rurik = reference("rurik.json")
    before = copy.deepcopy(rurik)
    results = recompute(SCHEMA, rurik)
    thrust = next(r for r in results if r.pointer == "/damage/thrust")
    assert thrust.stored == rurik["damage"]["thrust"] and thrust.stored is not rurik["damage"]["thrust"]
    deviations(SCHEMA, rurik)
    assert rurik == before


def test_rurik_bought_up_hp_and_per() -> None:
    rurik = reference("rurik.json")
    results = recompute(SCHEMA, rurik)
    assert all(isinstance(r, RecomputeResult) for r in results)
    differing = [
        (r.pointer, r.override, r.stored, r.computed)
        for r in results
        if r.to_dict()["stored"] != r.to_dict()["computed"]
    ]
    assert differing == [
        ("/secondary/hp/value", "paid", 15, 13),
        ("/secondary/per/value", "paid", 11, 10),
    ]
    assert deviations(SCHEMA, rurik) == []
    pointers = [r.pointer for r in results]
    assert pointers[:3] == ["/points/spent", "/points/unspent", "/points/breakdown/attributes"]
    assert "/encumbrance/levels/4/dodge" in pointers and "/skills/3/points" in pointers


def test_jotun_deviates_only_in_dodge() -> None:
    jotun = reference("jotun.json")
    found = deviations(SCHEMA, jotun)
    assert [d.to_dict() for d in found] == [
        {"pointer": "/defenses/dodge/value", "reason": "override", "expected": 9, "actual": 12}
    ]
    assert deviations(SCHEMA, jotun, recompute(SCHEMA, jotun)) == found


def test_edited_derived_value_is_inconsistent() -> None:
    rurik = reference("rurik.json")
    rurik["points"]["spent"] += 1
    rurik["damage"]["swing"] = {"notation": "2d+1", "dice": 2, "adds": 1}
    assert [(d.pointer, d.reason, d.expected, d.actual) for d in deviations(SCHEMA, rurik)] == [
        ("/points/spent", "inconsistent", 115, 116),
        ("/points/unspent", "inconsistent", 9, 10),
        ("/damage/swing", "override", "2d-1", "2d+1"),
    ]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=10,
)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_reference_character_with_random_values(data: st.DataObject) -> None:
    """Replacing any part of a valid character by any JSON value still gives results."""
    rurik = reference("rurik.json")
    target = rurik
    path = data.draw(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=4))
    for step in path:
        keys = list(target) if isinstance(target, dict) else list(range(len(target)))
        if not keys:
            break
        key = keys[step % len(keys)]
        if step % 3 == 0 or not isinstance(target[key], dict | list):
            target[key] = data.draw(_JSON)
            break
        target = target[key]
    results = recompute(SCHEMA, rurik)
    json.dumps([r.to_dict() for r in results], allow_nan=False)
    json.dumps([d.to_dict() for d in deviations(SCHEMA, rurik, results)], allow_nan=False)


EXAMPLES = REPOSITORY / "examples"


def _rule_check(document: Any) -> Any:
    """What verify_character() needs, the long way: every result, then the deviations."""
    try:
        results = recompute(SCHEMA, document)
        found = deviations(SCHEMA, document, results)
    except FormulaError as err:
        return ("error", str(err))
    spent = next((r.computed for r in results if r.pointer == "/points/spent"), MISSING)
    return found, spent


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_check_rules_is_recompute_then_deviations(data: st.DataObject) -> None:
    """The rule check verify_character() runs reports what recompute() and deviations() do."""
    name = data.draw(st.sampled_from(["rurik", "jotun"]))
    document = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    for _ in range(data.draw(st.integers(0, 3))):
        target = document
        path = data.draw(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=4))
        for step in path:
            keys = list(target) if isinstance(target, dict) else list(range(len(target)))
            if not keys:
                break
            key = keys[step % len(keys)]
            if step % 3 == 0 or not isinstance(target[key], dict | list):
                target[key] = data.draw(_JSON)
                break
            target = target[key]
    try:
        fast: Any = check_rules(SCHEMA, document, "/points/spent")
    except FormulaError as err:
        fast = ("error", str(err))
    assert repr(fast) == repr(_rule_check(document))


@pytest.mark.parametrize(
    ("noise", "reported"),
    [(1e-12, False), (-9.9e-10, False), (1e-9, True), (1e-6, True)],
)
def test_numbers_closer_than_1e_9_are_the_same_value(noise: float, reported: bool) -> None:
    # the reference compares numbers as |computed - stored| < 1e-9 (float noise), anything else ===
    document = json.loads((REPOSITORY / "examples" / "rurik.json").read_text("utf-8"))
    document["points"]["breakdown"]["skills"] += noise
    found = {d.pointer for d in deviations(SCHEMA, document)}
    assert ("/points/breakdown/skills" in found) is reported
    assert verify_character(document).rules_compliant is not reported


def test_a_boolean_is_never_close_to_a_number() -> None:
    schema = {"properties": {"a": {"x-gurps": {"role": "derived", "formula": "1"}}}}
    assert [d.to_dict() for d in deviations(schema, {"a": True})] == [
        {"pointer": "/a", "reason": "inconsistent", "expected": 1, "actual": True}
    ]
