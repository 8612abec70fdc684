"""The generated fast check's shortcuts give jsonschema's answers.

The generator reads a required property without asking whether it is there (a missing one raises
KeyError, answered False), takes a closed object holding as many keys as it found (required ones
read, optional ones counted) as holding nothing else, checks an int against its limits in one
comparison and writes small ``$defs`` entries in place. Here each shortcut meets the documents that
could fool it: objects with a required key swapped for another (the same number of keys), schemas
whose required names are not all properties or have no constraints, limits of every kind,
recursive ``$defs``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character._resources import SCHEMA_FILE, read_json_resource
from gurps_character.validate import _closures, _codegen, _engine
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _objects(item)
    elif isinstance(value, list):
        for item in value:
            yield from _objects(item)


class Checks:
    """The generated check, the closures and jsonschema, for one schema."""

    def __init__(self, schema: dict[str, Any]) -> None:
        fast = _codegen.compile_fast_check(schema)
        assert fast is not None, "the schema must compile to a fast check"
        self.fast: Callable[[object], bool] = fast
        self.closures = _closures.ClosureCompiler(schema).node(schema)
        self.slow = _engine.engine().validator.__class__(schema)

    def agree(self, value: object) -> bool:
        """Asserts that the three agree on ``value`` (plain JSON: the fast check is exact) and
        returns the answer."""
        valid = not list(self.slow.iter_errors(value))
        assert self.fast(value) is valid, value
        assert self.closures(value) is valid, value
        return valid


# ---------------------------------------------------------------- the bundled schema, keys swapped


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_a_required_key_swapped_or_removed_is_seen(name: str) -> None:
    checks = Checks(read_json_resource(SCHEMA_FILE))
    document = example(name)
    assert checks.agree(document)
    swapped_invalid = 0
    for target in list(_objects(document)):
        for key in list(target):
            value = target.pop(key)
            checks.agree(document)  # one key fewer
            target["zz-not-a-property"] = value
            if not checks.agree(document):  # as many keys, one of them unknown
                swapped_invalid += 1
            del target["zz-not-a-property"]
            target[key] = value
    # most keys are required or closed-object properties: swapping them must be caught
    assert swapped_invalid > 200
    assert checks.agree(document)


# ---------------------------------------------------------------- small schemas, every shortcut

NAMES = ["a", "b", "c", "d", "x"]

SCHEMAS: dict[str, dict[str, Any]] = {
    "required and optional": {
        "type": "object",
        "properties": {
            "a": {"type": "string", "minLength": 1},
            "b": {"type": "integer"},
            "c": {"type": "boolean"},
        },
        "required": ["a", "b"],
        "additionalProperties": False,
    },
    "all required": {
        "type": "object",
        "properties": {"a": {"type": "integer", "minimum": 0}, "b": {"enum": ["x", "y"]}},
        "required": ["a", "b", "a"],
        "additionalProperties": False,
    },
    "a required name without constraints": {
        "type": "object",
        "properties": {
            "a": {},
            "b": True,
            "c": {"description": "anything"},
            "d": {"type": "null"},
            "x": {"description": "optional, anything"},
        },
        "required": ["a", "b", "c"],
        "additionalProperties": False,
    },
    "a required name that is not a property": {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
        "required": ["a", "x"],
        "additionalProperties": False,
    },
    "limits": {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "minimum": -3, "maximum": 4},
            "b": {"type": "integer", "exclusiveMinimum": -1, "exclusiveMaximum": 2, "minimum": -5},
            "c": {"type": "number", "maximum": 2.5},
            "d": {"type": ["integer", "null"], "maximum": 0},
            "x": {"type": "integer", "not": {"const": 0}, "multipleOf": 2},
        },
        "additionalProperties": False,
    },
    "limits no double holds exactly": {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "minimum": 2**60 + 1},
            "b": {"type": "number", "maximum": -(2**70)},
        },
        "additionalProperties": False,
    },
    "nullable without keywords": {
        "type": "object",
        "properties": {
            "a": {"type": ["integer", "null"]},
            "b": {"type": ["null", "number"]},
            "c": {"type": ["string", "null"]},
        },
        "additionalProperties": False,
    },
    "small and recursive definitions": {
        "$defs": {
            "leaf": {"type": "string", "minLength": 1},
            "pair": {
                "type": "object",
                "properties": {"a": {"$ref": "#/$defs/leaf"}, "b": {"$ref": "#/$defs/leaf"}},
                "required": ["a"],
                "additionalProperties": False,
            },
            "tree": {
                "type": "object",
                "properties": {
                    "a": {"$ref": "#/$defs/pair"},
                    "b": {"type": "array", "items": {"$ref": "#/$defs/tree"}, "maxItems": 3},
                },
                "required": ["a"],
                "additionalProperties": False,
            },
        },
        "$ref": "#/$defs/tree",
    },
    "consts and text": {
        "type": "object",
        "properties": {
            "a": {"const": 'it\'s "quoted"\\'},
            "b": {"const": -2},
            "c": {"enum": ["", "é", "\ud83d", "x"]},
            "d": {"type": "string", "minLength": 2, "maxLength": 3},
        },
        "additionalProperties": False,
    },
}

_numbers = st.sampled_from(
    [0, -0.0, 1, -1, 2, 2.0, 2.5, -3, 4, 5, -4, 2**53 + 1, 2**60 + 1, -(2**70), 10**400]
)
_texts = st.sampled_from(
    ["", "x", "y", "xy", "é", "\ud83d", "\ud83d\ude00", "\U0001f600\U0001f600", 'it\'s "quoted"\\']
)
values = st.recursive(
    st.none() | st.booleans() | _numbers | st.floats() | _texts,
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.sampled_from(NAMES), children, max_size=4)
    ),
    max_leaves=10,
)
objects = st.dictionaries(st.sampled_from(NAMES), values, max_size=5)


@pytest.fixture(scope="module")
def checks() -> dict[str, Checks]:
    return {name: Checks(schema) for name, schema in SCHEMAS.items()}


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(sorted(SCHEMAS)), value=objects | values)
def test_the_shortcuts_agree_with_jsonschema(checks: dict[str, Checks], name: str, value: object) -> None:
    checks[name].agree(value)


@pytest.mark.parametrize(
    ("name", "value", "valid"),
    [
        ("required and optional", {"a": "x", "b": 1}, True),
        ("required and optional", {"a": "x", "c": True}, False),  # as many keys, b missing
        ("required and optional", {"a": "x", "b": 1, "c": True}, True),
        ("required and optional", {"a": "x", "b": 1, "x": True}, False),
        ("all required", {"a": 0, "b": "y"}, True),
        ("all required", {"a": 0, "x": "y"}, False),
        ("all required", {"a": 0}, False),
        ("a required name without constraints", {"a": [], "b": {}, "c": None}, True),
        ("a required name without constraints", {"a": [], "b": {}, "d": None}, False),
        ("a required name without constraints", {"a": [], "b": {}, "c": 1, "x": 1}, True),
        ("a required name without constraints", {"a": 1, "b": 1, "d": None, "x": 1}, False),
        ("a required name that is not a property", {"a": 1, "x": 1}, False),
        ("a required name that is not a property", {"a": 1, "b": "x"}, False),
        ("limits", {"a": -3, "b": 1, "c": 2.5, "d": None, "x": 2}, True),
        ("limits", {"a": 4.0, "b": 1.0, "c": -(10**300), "d": -7, "x": -2.0}, True),
        ("limits", {"a": 5}, False),
        ("limits", {"b": -1}, False),
        ("limits", {"b": 0}, True),
        ("limits", {"b": 2}, False),
        ("limits", {"c": 2.6}, False),
        ("limits", {"c": 10**400}, False),
        ("limits", {"d": 1}, False),
        ("limits", {"x": 0}, False),
        ("limits", {"x": 3}, False),
        ("limits no double holds exactly", {"a": 2**61, "b": -(2**70)}, True),
        ("limits no double holds exactly", {"a": 2**59}, False),
        ("limits no double holds exactly", {"b": -(2**69)}, False),
        ("nullable without keywords", {"a": None, "b": None, "c": None}, True),
        ("nullable without keywords", {"a": 1, "b": 1.5, "c": ""}, True),
        ("nullable without keywords", {"a": 1.5}, False),
        ("nullable without keywords", {"b": 10**400}, False),
        (
            "small and recursive definitions",
            {"a": {"a": "x"}, "b": [{"a": {"a": "y", "b": "z"}, "b": []}]},
            True,
        ),
        ("small and recursive definitions", {"a": {"a": "x"}, "b": [{"a": {"b": "z"}}]}, False),
        ("small and recursive definitions", {"a": {"a": "x"}, "b": [{"a": {"a": ""}}]}, False),
        ("consts and text", {"a": 'it\'s "quoted"\\', "b": -2.0, "c": "\ud83d", "d": "\U0001f600" * 3}, True),
        ("consts and text", {"c": "é", "d": "\ud83d\ude00\ud83d\ude00"}, True),  # two code points
        ("consts and text", {"d": "\U0001f600" * 4}, False),
        ("consts and text", {"b": 2}, False),
        ("consts and text", {"c": "y"}, False),
    ],
)
def test_each_shortcut_on_its_edge(checks: dict[str, Checks], name: str, value: object, valid: bool) -> None:
    assert checks[name].agree(value) is valid
