"""A number no double can hold in a text (``1e400``): ``JSON.parse`` reads it as ``Infinity``, and
the reference reports it where the envelope or the schema refuses it. An infinity is never held
in a returned document: where the schema would take one, the text is ``invalidJson``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gurps_character import CharacterError, parse_character
from gurps_character._json import NumberOutOfRangeError, loads, loads_with_infinities
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"
HUGE = ("1e400", "-1e400", "1E+999", "1" + "0" * 400, "-" + "9" * 400 + ".5")


def _rurik() -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / "rurik.json").read_text(encoding="utf-8"))
    return document


def _text_with(document: dict[str, Any], path: tuple[str, ...], literal: str) -> str:
    """The document's text with the value at ``path`` written as ``literal``."""
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@@NUMBER@@"
    return json.dumps(document, indent=2).replace('"@@NUMBER@@"', literal)


def _error(text: str) -> CharacterError:
    with pytest.raises(CharacterError) as info:
        parse_character(text)
    return info.value


@pytest.mark.parametrize("literal", HUGE)
@pytest.mark.parametrize(
    ("path", "wanted"),
    [
        (("points", "breakdown", "other"), "number"),
        (("secondary", "hp", "current"), "integer"),
        (("attributes", "st", "value"), "integer"),
    ],
)
def test_where_a_number_belongs_it_is_a_type_error_at_its_pointer(
    literal: str, path: tuple[str, ...], wanted: str
) -> None:
    error = _error(_text_with(_rurik(), path, literal))
    pointer = "/" + "/".join(path)
    assert error.code == "schema"
    assert error.details["errors"] == [
        {
            "pointer": pointer,
            "keyword": "type",
            "params": {"type": wanted},
            "message": f"{pointer}: must be {wanted}",
        }
    ]


def test_where_text_belongs_it_is_a_type_error_too() -> None:
    error = _error(_text_with(_rurik(), ("profile", "name"), "1e400"))
    assert error.code == "schema"
    assert [(e["pointer"], e["keyword"], e["params"]) for e in error.details["errors"]] == [
        ("/profile/name", "type", {"type": "string"})
    ]


def test_other_schema_errors_are_reported_with_it() -> None:
    document = _rurik()
    document["profile"]["name"] = 7
    error = _error(_text_with(document, ("points", "budget"), "1e400"))
    assert sorted(e["pointer"] for e in error.details["errors"]) == ["/points/budget", "/profile/name"]


@pytest.mark.parametrize("literal", HUGE)
def test_where_the_schema_would_take_it_the_text_is_not_json(literal: str) -> None:
    document = _rurik()
    document["extensions"] = {"com.example.tabletop": {"seed": 0}}
    text = _text_with(document, ("extensions", "com.example.tabletop", "seed"), literal)
    error = _error(text)
    assert error.code == "invalidJson"
    line = text[: text.index(literal)].count("\n") + 1
    column = text.index(literal) - text.rfind("\n", 0, text.index(literal))
    assert error.details == {"line": line, "column": column}
    assert "is out of range" in error.message


@pytest.mark.parametrize(
    ("field", "code", "details"),
    [
        ("format", "wrongFormat", {"format": None}),
        ("formatVersion", "unsupportedVersion", {"formatVersion": None, "supported": "1.3"}),
    ],
)
def test_in_the_envelope_it_is_an_envelope_error(field: str, code: str, details: dict[str, Any]) -> None:
    error = _error(_text_with(_rurik(), (field,), "1e400"))
    assert error.code == code
    assert error.details == details  # JSON writes Infinity as null
    assert "Infinity" in error.message


@pytest.mark.parametrize("text", ["1e400", "-1e400", "9" * 400])
def test_a_text_that_is_only_such_a_number_is_not_an_object(text: str) -> None:
    assert _error(text).code == "notAnObject"


def test_a_syntax_error_after_it_is_invalid_json() -> None:
    error = _error('{"format": "gurps-character", "a": 1e400, "b": ]')
    assert error.code == "invalidJson"
    assert error.details == {"line": 1, "column": 48}


def test_at_any_depth() -> None:
    document = _rurik()
    document["extensions"] = {"com.example.deep": 0}
    deep = "[" * 50_000 + "1e400" + "]" * 50_000
    text = _text_with(document, ("extensions", "com.example.deep"), deep)
    assert _error(text).code == "invalidJson"
    text = _text_with(_rurik(), ("notes",), deep)
    error = _error(text)
    assert error.code == "schema"
    assert [e["pointer"] for e in error.details["errors"]] == ["/notes/0"]


def test_loads_refuses_and_the_javascript_reading_keeps_infinities() -> None:
    text = '{"a": [1e400, -1e400, 1' + "0" * 400 + ", 1e308]}"
    with pytest.raises(NumberOutOfRangeError) as info:
        loads(text)
    assert info.value.column == text.index("1e400") + 1
    value = loads_with_infinities(text)
    assert value == {"a": [float("inf"), float("-inf"), float("inf"), 1e308]}
