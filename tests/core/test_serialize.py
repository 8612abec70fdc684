"""serialize_character writes objects in the order a JavaScript object keeps its properties:
array-index names first, in numeric order, then the others as inserted (``JSON.stringify``
after ``JSON.parse``). Only ``extensions`` can hold such names."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gurps_character import parse_character, serialize_character
from gurps_character._json import js_property_order
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"


def _with_extensions(extensions: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    document["extensions"] = extensions
    return document


def _written_extensions(document: dict[str, Any]) -> str:
    text = serialize_character(document, indent=0)
    return text[text.index('"extensions":') : -2]


def test_array_index_names_come_first_in_numeric_order() -> None:
    order = {"10": 1, "2": 2, "b": 3, "a": 4, "-1": 5, "01": 6, "4294967295": 7, "4294967294": 8, "0": 9}
    written = _written_extensions(_with_extensions({"org.example.order": order}))
    assert written == (
        '"extensions":{"org.example.order":{"0":9,"2":2,"10":1,"4294967294":8,'
        '"b":3,"a":4,"-1":5,"01":6,"4294967295":7}}'
    )


def test_at_every_depth_and_inside_arrays() -> None:
    extensions = {
        "org.example.deep": {"list": [{"b": 1, "3": 2, "1": 3}], "x": {"y": {"7": 1, "z": 2, "5": 3}}}
    }
    written = _written_extensions(_with_extensions(extensions))
    assert written == (
        '"extensions":{"org.example.deep":{"list":[{"1":3,"3":2,"b":1}],"x":{"y":{"5":3,"7":1,"z":2}}}}'
    )


def test_the_document_is_not_changed_and_reads_back_equal() -> None:
    document = _with_extensions({"org.example.order": {"10": 1, "2": 2}})
    before = json.dumps(document)
    text = serialize_character(document)
    assert json.dumps(document) == before
    assert parse_character(text).character == document


def test_documents_without_such_names_are_written_as_they_are() -> None:
    document = _with_extensions({"org.example.plain": {"b": 1, "a": [2, {"d": 3, "c": 4}]}})
    assert _written_extensions(document) == '"extensions":{"org.example.plain":{"b":1,"a":[2,{"d":3,"c":4}]}}'


@pytest.mark.parametrize(
    ("name", "is_index"),
    [
        ("0", True),
        ("7", True),
        ("4294967294", True),
        ("4294967295", False),
        ("99999999999", False),
        ("01", False),
        ("-1", False),
        ("1.5", False),
        ("1e3", False),
        (" 1", False),
        ("\u0661", False),  # ARABIC-INDIC DIGIT ONE
        ("", False),
    ],
)
def test_which_names_are_array_indices(name: str, is_index: bool) -> None:
    ordered = js_property_order({"z": 0, name: 1})
    assert list(ordered) == ([name, "z"] if is_index else ["z", name])


def test_nothing_to_move_gives_the_value_itself() -> None:
    value = {"a": [{"b": 1}], "c": {"d": 2}}
    assert js_property_order(value) is value
    shared = {"1": 1}
    moved = js_property_order({"a": shared, "b": [shared]})
    assert moved == {"a": {"1": 1}, "b": [{"1": 1}]}
    assert moved["a"] is not shared
