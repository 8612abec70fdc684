"""validate_character: Ajv's findings and the reference's messages, JSON semantics, and no exceptions."""

from __future__ import annotations

import copy
import functools
import inspect
import json
import math
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import FrozenInstanceError
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character import validate as validate_module
from gurps_character._once import once
from gurps_character._pointer import escape_token, pointer_of, unescape_token
from gurps_character._resources import SCHEMA_FILE, read_json_resource
from gurps_character.validate import (
    ValidationError,
    ValidationResult,
    _closures,
    _codegen,
    _engine,
    _keywords,
    validate_character,
)
from tests.support.paths import REPOSITORY

EXAMPLES = REPOSITORY / "examples"


def example(name: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return document


@pytest.fixture
def doc() -> dict[str, Any]:
    """A fresh copy of a valid 1.3 character."""
    return example("jotun")


def report(document: object) -> list[dict[str, Any]]:
    return [error.to_dict() for error in validate_character(document).errors]


def messages(document: object) -> list[str]:
    return [error.message for error in validate_character(document).errors]


# ---------------------------------------------------------------- valid documents


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_examples_are_valid(name: str) -> None:
    result = validate_character(example(name))
    assert result == ValidationResult(valid=True, errors=())
    assert result.to_dict() == {"valid": True, "errors": []}


def test_optional_parts_may_be_absent(doc: dict[str, Any]) -> None:
    for key in ("integrity", "extensions", "notes", "weapons", "equipment", "languages"):
        doc.pop(key, None)
    assert validate_character(doc).valid


# ---------------------------------------------------------------- each keyword, as the reference reports it


def test_type(doc: dict[str, Any]) -> None:
    doc["encumbrance"]["levels"] = {}
    assert report(doc) == [
        {
            "pointer": "/encumbrance/levels",
            "keyword": "type",
            "params": {"type": "array"},
            "message": "/encumbrance/levels: must be array",
        }
    ]


def test_type_with_several_types(doc: dict[str, Any]) -> None:
    doc["points"]["budget"] = 1.5
    assert report(doc) == [
        {
            "pointer": "/points/budget",
            "keyword": "type",
            "params": {"type": ["integer", "null"]},
            "message": "/points/budget: must be integer,null",
        }
    ]


def test_root_type() -> None:
    for value in (None, [], "x", 1, True, object()):
        assert report(value) == [
            {
                "pointer": "",
                "keyword": "type",
                "params": {"type": "object"},
                "message": "(root): must be object",
            }
        ]


def test_required_reports_every_missing_property(doc: dict[str, Any]) -> None:
    del doc["possessionsTotal"]["cost"]
    del doc["possessionsTotal"]["weight"]
    assert report(doc) == [
        {
            "pointer": "/possessionsTotal",
            "keyword": "required",
            "params": {"missingProperty": "cost"},
            "message": "/possessionsTotal: must have required property 'cost'",
        },
        {
            "pointer": "/possessionsTotal",
            "keyword": "required",
            "params": {"missingProperty": "weight"},
            "message": "/possessionsTotal: must have required property 'weight'",
        },
    ]


def test_required_at_the_root() -> None:
    assert messages({"format": "gurps-character"})[:2] == [
        "(root): must have required property 'formatVersion'",
        "(root): must have required property 'ruleset'",
    ]
    assert len(messages({})) == 13


def test_additional_properties_one_error_per_property(doc: dict[str, Any]) -> None:
    doc["skills"][0]["specialty"] = "x"
    doc["skills"][0]["default"] = "y"
    assert report(doc) == [
        {
            "pointer": "/skills/0",
            "keyword": "additionalProperties",
            "params": {"additionalProperty": "specialty"},
            "message": '/skills/0: unknown property "specialty"',
        },
        {
            "pointer": "/skills/0",
            "keyword": "additionalProperties",
            "params": {"additionalProperty": "default"},
            "message": '/skills/0: unknown property "default"',
        },
    ]


def test_const(doc: dict[str, Any]) -> None:
    doc["format"] = "GURPS-character"
    assert report(doc) == [
        {
            "pointer": "/format",
            "keyword": "const",
            "params": {"allowedValue": "gurps-character"},
            "message": "/format: must be equal to constant",
        }
    ]


def test_enum_without_a_type(doc: dict[str, Any]) -> None:
    doc["ruleset"]["units"] = None
    assert report(doc) == [
        {
            "pointer": "/ruleset/units",
            "keyword": "enum",
            "params": {"allowedValues": ["metric"]},
            "message": "/ruleset/units: must be equal to one of the allowed values",
        }
    ]


def test_pattern(doc: dict[str, Any]) -> None:
    doc["damage"]["thrust"]["notation"] = "1d+1.5"
    assert report(doc) == [
        {
            "pointer": "/damage/thrust/notation",
            "keyword": "pattern",
            "params": {"pattern": "^\\d+d([+-]\\d+)?$"},
            "message": '/damage/thrust/notation: must match pattern "^\\d+d([+-]\\d+)?$"',
        }
    ]


def test_pattern_dollar_is_the_end_of_the_text(doc: dict[str, Any]) -> None:
    doc["formatVersion"] = "1.3.0\n"
    doc["meta"]["locale"] = "en\n"
    assert messages(doc) == [
        '/formatVersion: must match pattern "^1\\.\\d+\\.\\d+$"',
        '/meta/locale: must match pattern "^[a-z]{2,3}(-[A-Z]{2})?$"',
    ]


def test_pattern_digits_are_ascii(doc: dict[str, Any]) -> None:
    doc["formatVersion"] = "1.\u0663.0"
    assert messages(doc) == ['/formatVersion: must match pattern "^1\\.\\d+\\.\\d+$"']


def test_invalid_extension_key(doc: dict[str, Any]) -> None:
    doc["extensions"] = {"com.example.vtt": {}, "": {}, "VTT": 1}
    assert report(doc) == [
        {
            "pointer": "/extensions",
            "keyword": "pattern",
            "params": {"pattern": "^[a-z0-9-]+(\\.[a-z0-9-]+)+$"},
            "message": '/extensions: invalid key ""',
            "propertyName": "",
        },
        {
            "pointer": "/extensions",
            "keyword": "pattern",
            "params": {"pattern": "^[a-z0-9-]+(\\.[a-z0-9-]+)+$"},
            "message": '/extensions: invalid key "VTT"',
            "propertyName": "VTT",
        },
    ]
    assert validate_character(doc).errors[0].property_name == ""


def test_format_date_time(doc: dict[str, Any]) -> None:
    doc["meta"]["updatedAt"] = "2026-02-30T12:00:00Z"
    doc["meta"]["createdAt"] = "2026-10-04T12:00:00"
    assert report(doc) == [
        {
            "pointer": "/meta/createdAt",
            "keyword": "format",
            "params": {"format": "date-time"},
            "message": '/meta/createdAt: must match format "date-time"',
        },
        {
            "pointer": "/meta/updatedAt",
            "keyword": "format",
            "params": {"format": "date-time"},
            "message": '/meta/updatedAt: must match format "date-time"',
        },
    ]


@pytest.mark.parametrize(
    "value",
    ["2026-10-04t12:00:00z", "2026-10-04 12:00:00+05:30", "2026-12-31T23:59:60Z", "2024-02-29T00:00:00-0330"],
)
def test_format_date_time_accepts_what_ajv_formats_accepts(doc: dict[str, Any], value: str) -> None:
    doc["meta"]["updatedAt"] = value
    assert validate_character(doc).valid


def test_max_items_and_min_items(doc: dict[str, Any]) -> None:
    doc["weapons"]["melee"][0]["damage"] = [{"notation": "sw cut"}] * 3
    doc["encumbrance"]["levels"].pop()
    assert report(doc) == [
        {
            "pointer": "/encumbrance/levels",
            "keyword": "minItems",
            "params": {"limit": 5},
            "message": "/encumbrance/levels: must NOT have fewer than 5 items",
        },
        {
            "pointer": "/weapons/melee/0/damage",
            "keyword": "maxItems",
            "params": {"limit": 2},
            "message": "/weapons/melee/0/damage: must NOT have more than 2 items",
        },
    ]


def test_min_length(doc: dict[str, Any]) -> None:
    doc["traits"][0]["name"] = ""
    assert report(doc) == [
        {
            "pointer": "/traits/0/name",
            "keyword": "minLength",
            "params": {"limit": 1},
            "message": "/traits/0/name: must NOT have fewer than 1 characters",
        }
    ]


def test_minimum_and_maximum(doc: dict[str, Any]) -> None:
    doc["skills"][0]["points"] = 0
    doc["encumbrance"]["levels"][0]["level"] = 5
    assert report(doc) == [
        {
            "pointer": "/encumbrance/levels/0/level",
            "keyword": "maximum",
            "params": {"comparison": "<=", "limit": 4},
            "message": "/encumbrance/levels/0/level: must be <= 4",
        },
        {
            "pointer": "/skills/0/points",
            "keyword": "minimum",
            "params": {"comparison": ">=", "limit": 1},
            "message": "/skills/0/points: must be >= 1",
        },
    ]


def test_multiple_of(doc: dict[str, Any]) -> None:
    doc["secondary"]["basicSpeed"]["base"] = 6.3
    assert report(doc) == [
        {
            "pointer": "/secondary/basicSpeed/base",
            "keyword": "multipleOf",
            "params": {"multipleOf": 0.25},
            "message": "/secondary/basicSpeed/base: must be multiple of 0.25",
        }
    ]


@pytest.mark.parametrize(
    ("value", "valid"),
    [
        (6.75, True),
        (-0.25, True),
        (0, True),
        (-0.0, True),
        (2.4e20, True),
        # Ajv compares the quotient with parseInt(String(quotient)): from 1e21 on the quotient is
        # written with an exponent, so it never passes; nor does an infinite one.
        (2.5e20, False),
        (1e300, False),
        (1e308, False),
        (6.3, False),
        (1e-7, False),
    ],
)
def test_multiple_of_divides_as_javascript(doc: dict[str, Any], value: float, valid: bool) -> None:
    doc["secondary"]["basicSpeed"]["value"] = value
    assert validate_character(doc).valid is valid


def test_not(doc: dict[str, Any]) -> None:
    doc["attributes"]["st"]["costModifiers"][0]["percent"] = 0
    assert report(doc) == [
        {
            "pointer": "/attributes/st/costModifiers/0/percent",
            "keyword": "not",
            "params": {},
            "message": "/attributes/st/costModifiers/0/percent: must NOT be valid",
        }
    ]


def test_wrong_type_skips_the_keywords_of_other_types(doc: dict[str, Any]) -> None:
    doc["attributes"]["st"]["costModifiers"][0]["percent"] = "0"  # no minimum, no "not"
    doc["skills"] = None  # no items
    assert messages(doc) == [
        "/attributes/st/costModifiers/0/percent: must be integer",
        "/skills: must be array",
    ]


def test_many_errors_at_once(doc: dict[str, Any]) -> None:
    doc["profile"] = {"name": 7, "nickname": "x"}
    doc["traits"][1] = {"name": "", "type": "feature", "points": 1.5}
    assert messages(doc) == [
        '/profile: unknown property "nickname"',
        "/profile/name: must be string",
        "/traits/1/name: must NOT have fewer than 1 characters",
        "/traits/1/type: must be equal to one of the allowed values",
        "/traits/1/points: must be integer",
    ]


# ---------------------------------------------------------------- JSON semantics, not Python's


@pytest.mark.parametrize("value", [True, False])
def test_booleans_are_not_numbers(doc: dict[str, Any], value: bool) -> None:
    doc["profile"]["sizeModifier"] = value
    doc["points"]["spent"] = value
    doc["ruleset"]["edition"] = value  # const 4
    assert messages(doc) == [
        "/ruleset/edition: must be equal to constant",
        "/profile/sizeModifier: must be integer",
        "/points/spent: must be number",
    ]


def test_integral_floats_are_integers(doc: dict[str, Any]) -> None:
    doc["profile"]["sizeModifier"] = 3.0
    doc["ruleset"]["edition"] = 4.0
    doc["attributes"]["st"]["value"] = 1e308
    assert validate_character(doc).valid


def test_integers_of_any_size_a_double_holds(doc: dict[str, Any]) -> None:
    doc["profile"]["sizeModifier"] = 10**300
    doc["points"]["budget"] = -(2**1000)
    assert validate_character(doc).valid


@pytest.mark.parametrize("value", [10**400, -(10**400), math.nan, math.inf, -math.inf])
def test_non_finite_numbers_are_not_numbers(doc: dict[str, Any], value: float) -> None:
    # JavaScript reads a 400-digit literal as Infinity, which Ajv rejects as it rejects NaN.
    doc["profile"]["sizeModifier"] = value
    doc["points"]["spent"] = value
    doc["encumbrance"]["basicLift"] = value  # minimum 0: not reached for a non-number
    doc["attributes"]["st"]["costModifiers"][0]["percent"] = value  # "not const 0" holds
    assert messages(doc) == [
        "/profile/sizeModifier: must be integer",
        "/points/spent: must be number",
        "/attributes/st/costModifiers/0/percent: must be integer",
        "/encumbrance/basicLift: must be number",
    ]


def test_tuples_are_arrays_and_mappings_are_objects(doc: dict[str, Any]) -> None:
    doc["traits"] = tuple(doc["traits"])
    doc["encumbrance"]["levels"] = tuple(MappingProxyType(level) for level in doc["encumbrance"]["levels"])
    doc["ruleset"] = MappingProxyType(doc["ruleset"])
    assert validate_character(MappingProxyType(doc)).valid
    doc["encumbrance"]["levels"] = doc["encumbrance"]["levels"][:4]
    assert messages(doc) == ["/encumbrance/levels: must NOT have fewer than 5 items"]


def test_mappings_with_non_text_keys_are_not_objects(doc: dict[str, Any]) -> None:
    doc["extensions"] = {"com.example.vtt": {}, 1: {}}
    assert messages(doc) == ["/extensions: must be object"]
    assert messages({1: "x"}) == ["(root): must be object"]


@pytest.mark.parametrize("value", [b"text", bytearray(b"x"), {"a", "b"}, frozenset(), 1j, object(), range(3)])
def test_other_python_values_are_not_json(doc: dict[str, Any], value: object) -> None:
    doc["profile"]["name"] = value
    doc["notes"] = [value]
    doc["format"] = value
    assert messages(doc) == [
        "/format: must be equal to constant",
        "/profile/name: must be string",
        "/notes/0: must be string",
    ]


@pytest.mark.parametrize("face", ["\U0001f600", "\ud83d\ude00"], ids=["code point", "surrogate pair"])
def test_strings_count_code_points(face: str) -> None:
    # with a limit of 3, two faces are 2 code points but 4 UTF-16 units: only code points pass
    # (the bundled schema's minLength: 1 cannot tell the two apart)
    schema = {"$defs": {}, "type": "string", "minLength": 3, "maxLength": 3}
    lengths = _engine.engine().validator.__class__(schema)
    assert [error.message for error in lengths.iter_errors(face * 3)] == []
    assert [error.message for error in lengths.iter_errors(face * 2)] == [
        "must NOT have fewer than 3 characters"
    ]
    assert [error.message for error in lengths.iter_errors(face * 4)] == [
        "must NOT have more than 3 characters"
    ]
    check = _codegen.compile_fast_check(schema)
    assert check is not None
    assert (check(face * 2), check(face * 3), check(face * 4)) == (False, True, False)


def test_unknown_property_escaping_in_messages(doc: dict[str, Any]) -> None:
    doc["profile"]['a/b~"c'] = 1
    assert report(doc) == [
        {
            "pointer": "/profile",
            "keyword": "additionalProperties",
            "params": {"additionalProperty": 'a/b~"c'},
            "message": '/profile: unknown property "a/b~"c"',
        }
    ]


def test_pointer_escaping() -> None:
    assert pointer_of(["a/b", "c~d", 0, "~1"]) == "/a~1b/c~0d/0/~01"
    assert pointer_of([]) == ""
    assert [unescape_token(escape_token(token)) for token in ("a/b", "c~d", "~1", "~01/")] == [
        "a/b",
        "c~d",
        "~1",
        "~01/",
    ]


# ---------------------------------------------------------------- never raises


def deep_list(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def deep_dict(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"a": value}
    return value


def test_deep_nesting_in_free_form_places(doc: dict[str, Any]) -> None:
    doc["extensions"] = {"com.example.deep": deep_dict(100_000), "org.example.list": deep_list(100_000)}
    assert validate_character(doc).valid
    doc["notes"] = [deep_list(100_000)]
    doc["profile"]["name"] = deep_dict(100_000)
    doc["surplus"] = deep_list(100_000)
    assert messages(doc) == [
        '(root): unknown property "surplus"',
        "/profile/name: must be string",
        "/notes/0: must be string",
    ]


def test_cycles(doc: dict[str, Any]) -> None:
    doc["extensions"] = {"com.example.self": doc}
    assert validate_character(doc).valid
    doc["notes"] = [doc]
    doc["traits"].append(doc)
    found = messages(doc)
    last = len(doc["traits"]) - 1
    assert "/notes/0: must be string" in found
    assert f"/traits/{last}: must have required property 'name'" in found


def test_huge_integers_never_reach_str(doc: dict[str, Any]) -> None:
    big = 10**100_000  # str() of this raises ValueError (the int max-str-digits limit)
    doc["profile"]["sizeModifier"] = big
    doc["skills"][0]["points"] = -big
    doc["notes"] = [big]
    assert messages(doc) == [
        "/profile/sizeModifier: must be integer",
        "/skills/0/points: must be integer",
        "/notes/0: must be string",
    ]


class Hostile(Mapping[str, Any]):
    """A mapping that fails when read."""

    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("no")

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no")

    def __len__(self) -> int:
        return 1


def test_a_mapping_that_fails_when_read_is_not_an_object() -> None:
    assert messages(Hostile()) == ["(root): must be object"]


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8),
    lambda children: (
        st.lists(children, max_size=4)
        | st.tuples(children)
        | st.dictionaries(
            st.text(max_size=6) | st.sampled_from(["name", "value", "points", "notation"]), children
        )
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_value_at_the_root(value: object) -> None:
    result = validate_character(value)
    assert result.valid is False and result.errors  # nothing drawn here is a character
    if not isinstance(value, dict):
        assert result.to_dict() == {
            "valid": False,
            "errors": [
                {
                    "pointer": "",
                    "keyword": "type",
                    "params": {"type": "object"},
                    "message": "(root): must be object",
                }
            ],
        }
    assert json.loads(json.dumps(result.to_dict())) == result.to_dict()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_value_anywhere(data: st.DataObject) -> None:
    document = example("rurik")
    paths = list(_containers(document))
    container, key = data.draw(st.sampled_from(paths))
    container[key] = data.draw(json_values)
    before = copy.deepcopy(document)
    result = validate_character(document)
    assert document == before
    assert result.valid is (not result.errors)
    for error in result.errors:
        assert error.message.startswith(f"{error.pointer or '(root)'}: ")


def _containers(value: Any) -> Iterator[tuple[Any, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield value, key
            yield from _containers(item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield value, index
            yield from _containers(item)


def test_the_input_is_not_modified(doc: dict[str, Any]) -> None:
    doc["traits"][0]["name"] = ""
    doc["extensions"] = {"": {"x": [1]}}
    before = copy.deepcopy(doc)
    validate_character(doc)
    assert doc == before


# ---------------------------------------------------------------- the result types


def test_error_is_frozen_and_its_params_read_only(doc: dict[str, Any]) -> None:
    doc["traits"][0]["type"] = "feature"
    error = validate_character(doc).errors[0]
    with pytest.raises(FrozenInstanceError):
        error.pointer = "/x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        error.params["allowedValues"] = []  # type: ignore[index]
    assert error.params["allowedValues"] == ("advantage", "perk", "disadvantage", "quirk")


def test_to_dict_gives_fresh_copies(doc: dict[str, Any]) -> None:
    doc["traits"][0]["type"] = "feature"
    error = validate_character(doc).errors[0]
    first = error.to_dict()
    first["params"]["allowedValues"].append("oops")
    assert error.to_dict()["params"] == {"allowedValues": ["advantage", "perk", "disadvantage", "quirk"]}
    # and nothing leaks into the next validation either
    assert validate_character(doc).errors[0].to_dict() == error.to_dict()


def test_errors_built_by_hand() -> None:
    params = {"missingProperty": "name"}
    error = ValidationError("/profile", "required", params, "/profile: must have required property 'name'")
    params["missingProperty"] = "changed"
    assert error.to_dict() == {
        "pointer": "/profile",
        "keyword": "required",
        "params": {"missingProperty": "name"},
        "message": "/profile: must have required property 'name'",
    }
    assert "propertyName" not in error.to_dict()
    named = ValidationError("/extensions", "pattern", {"pattern": "x"}, '/extensions: invalid key "a"', "a")
    assert named.to_dict()["propertyName"] == "a"


def test_result_to_dict() -> None:
    error = ValidationError("", "type", {"type": "object"}, "(root): must be object")
    assert ValidationResult(False, (error,)).to_dict() == {
        "valid": False,
        "errors": [
            {
                "pointer": "",
                "keyword": "type",
                "params": {"type": "object"},
                "message": "(root): must be object",
            }
        ],
    }


def test_slots() -> None:
    assert not hasattr(ValidationError("", "type", {}, ""), "__dict__")
    assert not hasattr(ValidationResult(True, ()), "__dict__")


def test_public_names() -> None:
    assert validate_module.__all__ == ["ValidationError", "ValidationResult", "validate_character"]


# ---------------------------------------------------------------- one validator, built once


def test_the_validator_is_built_once(doc: dict[str, Any]) -> None:
    engine = _engine.engine()
    for _ in range(3):
        validate_character(doc)
        validate_character({})
    assert _engine.engine() is engine


def test_once_builds_once_for_threads_that_arrive_together() -> None:
    builds: list[int] = []
    started = threading.Event()

    def build() -> list[int]:
        started.set()
        time.sleep(0.05)  # a slow build: every other thread arrives while it runs
        builds.append(1)
        return builds

    shared = once(build)
    barrier = threading.Barrier(16)
    seen: list[object] = []

    def work() -> None:
        barrier.wait()
        seen.append(shared())

    threads = [threading.Thread(target=work) for _ in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert builds == [1]
    assert len(seen) == 16 and all(value is builds for value in seen)


def test_every_keyword_of_the_bundled_schema_is_supported() -> None:
    schema = read_json_resource(SCHEMA_FILE)
    used: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                used.add(key)
                if key in ("properties", "$defs", "patternProperties"):
                    for subschema in value.values():
                        walk(subschema)
                elif key in ("items", "not", "additionalProperties", "propertyNames", "prefixItems", "allOf"):
                    for subschema in value if isinstance(value, list) else [value]:
                        walk(subschema)

    walk(schema)
    assert used <= _keywords.SUPPORTED_KEYWORDS, used - _keywords.SUPPORTED_KEYWORDS


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_the_package_does_not_import_jsonschema() -> None:
    result = run_python(
        "import sys\n"
        "import gurps_character, gurps_character.validate\n"
        "assert 'jsonschema' not in sys.modules and 'referencing' not in sys.modules, 'imported'\n"
    )
    assert result.returncode == 0, result.stderr


def test_the_date_time_check_needs_no_optional_package() -> None:
    # jsonschema's own date-time checker silently disappears without rfc3339-validator; ours doesn't.
    result = run_python(
        "import sys\n"
        "for name in ('rfc3339_validator', 'isoduration', 'fqdn', 'idna', 'jsonpointer', 'rfc3987',\n"
        "             'rfc3986_validator', 'uri_template', 'webcolors'):\n"
        "    sys.modules[name] = None\n"
        "import json\n"
        "from gurps_character.validate import validate_character\n"
        f"doc = json.loads(open({str(EXAMPLES / 'jotun.json')!r}, encoding='utf-8').read())\n"
        "assert validate_character(doc).valid\n"
        "doc['meta']['updatedAt'] = '2026-02-30T12:00:00Z'\n"
        "print([e.message for e in validate_character(doc).errors])\n"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['/meta/updatedAt: must match format \"date-time\"']"


def test_threads_share_the_validator_safely() -> None:
    documents: list[Callable[[], Any]] = [
        lambda: example("rurik"),
        lambda: {**example("jotun"), "format": "x"},
        lambda: {"format": "gurps-character"},
    ]
    expected = [report(make()) for make in documents]
    failures: list[str] = []

    def work(index: int) -> None:
        for _ in range(20):
            if report(documents[index % 3]()) != expected[index % 3]:
                failures.append(f"thread {index}")

    threads = [threading.Thread(target=work, args=(index,)) for index in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


_COLD_START = """
import json, sys, threading
sys.setswitchinterval(1e-5)  # threads take turns often: a race shows in most runs
from gurps_character import validate_character
document = json.loads(sys.argv[1])
barrier = threading.Barrier(32)
reports = []

def work():
    barrier.wait()
    reports.append(json.dumps(validate_character(document).to_dict(), sort_keys=True))

threads = [threading.Thread(target=work) for _ in range(32)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps(sorted(set(reports))))
"""


def test_threads_from_a_cold_start_get_the_same_report() -> None:
    # 32 threads meet the validator before it exists; each fresh interpreter is a cold start.
    document = {"format": "gurps-character", "profile": {"name": 3}}
    expected = json.dumps(validate_character(document).to_dict(), sort_keys=True)
    commands = [
        subprocess.Popen(
            [sys.executable, "-c", _COLD_START, json.dumps(document)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    for command in commands:
        out, err = command.communicate(timeout=120)
        assert command.returncode == 0, err
        assert json.loads(out) == [expected]


# ---------------------------------------------------------------- the fast path agrees with jsonschema


def slow_errors(document: object) -> list[Any]:
    return list(_engine.engine().iter_errors(document))


def fast_check() -> Callable[[object], bool]:
    check = _engine.engine().fast
    assert check is not None, "the bundled schema must compile to a fast check"
    return check


@pytest.mark.parametrize("name", ["rurik", "jotun"])
def test_valid_documents_take_the_fast_path(name: str) -> None:
    assert fast_check()(example(name))


plain_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.sampled_from(["", "x", "1.3.0", "1.3.0\n", "metric", "advantage", "2026-10-04T12:00:00Z", "3d+1"]),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=4), children, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_fast_path_agrees_with_jsonschema(data: st.DataObject) -> None:
    document = example(data.draw(st.sampled_from(["rurik", "jotun"])))
    for _ in range(data.draw(st.integers(1, 3))):
        container, key = data.draw(st.sampled_from(list(_containers(document))))
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            container[key] = data.draw(plain_json)
        elif action == "delete":
            del container[key]
        elif isinstance(container[key], dict):
            container[key][data.draw(st.text(max_size=5))] = data.draw(plain_json)
        elif isinstance(container[key], list):
            container[key].append(data.draw(plain_json))
    # on plain JSON data the fast check is exact: True exactly when jsonschema finds nothing
    assert fast_check()(document) is (not slow_errors(document))


@pytest.mark.parametrize(
    "value",
    [MappingProxyType({}), (1,), "x", 1, True, None, math.nan, 10**400, Hostile()],
)
def test_fast_path_is_never_wrong_about_unusual_values(doc: dict[str, Any], value: object) -> None:
    for container, key in list(_containers(doc)):
        original = container[key]
        container[key] = value
        if fast_check()(doc):
            assert not slow_errors(doc), (key, value)
        container[key] = original


# ------------------------------------------------------ the generated fast check agrees with the closures


@functools.cache
def closure_check() -> Callable[[object], bool]:
    """The fast check as closures only: what the generated code must answer too."""
    schema = read_json_resource(SCHEMA_FILE)
    return _closures.ClosureCompiler(schema).node(schema)


def _mutated(data: st.DataObject, values: st.SearchStrategy[Any]) -> dict[str, Any]:
    document = example(data.draw(st.sampled_from(["rurik", "jotun"])))
    for _ in range(data.draw(st.integers(1, 3))):
        container, key = data.draw(st.sampled_from(list(_containers(document))))
        action = data.draw(st.sampled_from(["replace", "delete", "add"]))
        if action == "replace":
            container[key] = data.draw(values)
        elif action == "delete":
            del container[key]
        elif isinstance(container[key], dict):
            container[key][data.draw(st.sampled_from(["name", "notes", "value", "x"]))] = data.draw(values)
        elif isinstance(container[key], list):
            container[key].append(data.draw(values))
    return document


unusual = plain_json | st.sampled_from([MappingProxyType({}), (1,), (), 10**400, -(10**400), 2.5, -0.0])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_generated_fast_check_agrees_with_the_closures(data: st.DataObject) -> None:
    document = _mutated(data, unusual)
    assert fast_check()(document) is closure_check()(document)


def test_the_generated_check_writes_the_common_shapes_inline() -> None:
    # closures remain only for the few nodes the generator does not write (the free-form
    # extensions' names; const, not and nullable numbers of other shapes): everything else costs
    # no call
    generator = _codegen.CodeGenerator(read_json_resource(SCHEMA_FILE))
    generator.compile()
    helpers = {"code_points", "multiple_of", "is_date_time"}
    closures = [
        value
        for value in generator.namespace.values()
        if inspect.isfunction(value)
        and value.__code__.co_filename == _closures.__file__
        and value.__name__ not in helpers
    ]
    assert 0 < len(closures) <= 12
    generated = [name for name in generator.namespace if name.startswith(("_def", "_check"))]
    assert len(generated) == len(generator.sources) > 10


_EDGE_NUMBERS = [0, 0.0, -0.0, 1, -1, 2.5, 20, 21, -99, -100, 1000, 1001, 4, 5, -8, 10**400, None, True, "1"]


@pytest.mark.parametrize("value", _EDGE_NUMBERS, ids=repr)
@pytest.mark.parametrize(
    "place",
    [
        ("skills", 0, "bonuses", 0, "amount"),  # an integer that is not 0 (not: const)
        ("attributes", "st", "costModifiers", 0, "percent"),
        ("weapons", "ranged", 0, "bulk"),  # integers or null, with limits
        ("weapons", "ranged", 0, "recoil"),
        ("weapons", "ranged", 0, "legalityClass"),
        ("ruleset", "edition"),  # a number const
        ("format",),  # a text const
    ],
    ids=lambda place: "/".join(map(str, place)),
)
def test_the_inline_const_not_and_nullable_checks_agree(value: object, place: tuple[Any, ...]) -> None:
    document = example("rurik")
    document["skills"][0]["bonuses"] = [{"name": "Talent", "amount": 2}]
    document["attributes"]["st"]["costModifiers"] = [{"name": "No Fine Manipulators", "percent": -40}]
    assert fast_check()(document) and not slow_errors(document)
    target: Any = document
    for key in place[:-1]:
        target = target[key]
    target[place[-1]] = value
    assert fast_check()(document) is (not slow_errors(document)) is closure_check()(document)
