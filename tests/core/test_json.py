"""JSON as JavaScript reads and writes it: numbers, strict text, any depth."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gurps_character import _json
from gurps_character._json import JsonTextError, NotJsonError, copy_json, dumps, js_number, loads
from gurps_character.formula._jsnum import js_number_text


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0, "0"),
        (-0.0, "0"),
        (1.0, "1"),
        (115, "115"),
        (-21, "-21"),
        (0.1, "0.1"),
        (6.5, "6.5"),
        (0.30000000000000004, "0.30000000000000004"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (123456789012345680000.0, "123456789012345680000"),
        (2.0**60, "1152921504606847000"),
        (2**60, "1152921504606847000"),
        (9007199254740993, "9007199254740992"),
        (1e-7, "1e-7"),
        (1.5e-6, "0.0000015"),
        (0.000001, "0.000001"),
        (1.25e-7, "1.25e-7"),
        (5e-324, "5e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (-1e21, "-1e+21"),
    ],
)
def test_numbers_print_as_javascript_prints_them(number: float, text: str) -> None:
    assert js_number(number) == text


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
        (10**400, "Infinity"),
        (-(10**400), "-Infinity"),
    ],
)
def test_one_formatter_writes_what_javascript_writes_beyond_doubles(number: float, text: str) -> None:
    # the writers, the messages and the formula language share one formatter (they disagreed on
    # infinity, and an integer beyond doubles raised OverflowError)
    assert js_number is js_number_text
    assert js_number(number) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_printed_numbers_read_back_as_the_same_double(number: float) -> None:
    assert float(js_number(number)) == number


def test_big_integer_literals_arrive_rounded_like_doubles() -> None:
    assert loads("9007199254740993") == 9007199254740992
    assert isinstance(loads("9007199254740993"), int)
    assert loads("12") == 12


def test_integer_literals_beyond_python_digit_limits_are_read() -> None:
    assert loads("1" + "0" * 300) == int(float("1e300"))


@pytest.mark.parametrize(
    "text", ["NaN", "Infinity", "-Infinity", "[1, NaN]", "1e400", "-1e999", "1" + "0" * 400]
)
def test_non_finite_numbers_are_not_json(text: str) -> None:
    with pytest.raises(JsonTextError) as caught:
        loads(text)
    assert caught.value.details() == {"line": 1, "column": caught.value.column}


@pytest.mark.parametrize("text", ["", "   \n\t", "{", "{\n", '{"a": [1, 2', '{"a"'])
def test_text_that_ends_early_is_truncated(text: str) -> None:
    with pytest.raises(JsonTextError) as caught:
        loads(text)
    assert caught.value.details() == {"truncated": True}


def test_errors_point_at_line_and_column() -> None:
    with pytest.raises(JsonTextError) as caught:
        loads("{\n  \"a\": 1,\n  'b': 2\n}")
    assert caught.value.details() == {"line": 3, "column": 3}


def test_a_byte_order_mark_is_not_json() -> None:
    with pytest.raises(JsonTextError):
        loads('\ufeff{"a": 1}')


def test_duplicate_keys_keep_the_last_value() -> None:
    assert loads('{"a": 1, "a": 2}') == {"a": 2}


@pytest.mark.parametrize("depth", [10, 5_000, 100_000])
def test_any_depth_parses(depth: int) -> None:
    value = loads("[" * depth + "]" * depth)
    for _ in range(depth - 1):
        value = value[0]
    assert value == []


def test_deep_objects_parse_and_print_back() -> None:
    depth = 50_000
    text = '{"a":' * depth + "1" + "}" * depth
    value = loads(text)
    assert dumps(value, 0) == text


def test_deep_text_that_ends_early_is_truncated() -> None:
    with pytest.raises(JsonTextError) as caught:
        loads("[" * 100_000)
    assert caught.value.truncated


def test_deep_text_with_a_bad_token_has_a_position() -> None:
    with pytest.raises(JsonTextError) as caught:
        loads("[" * 100_000 + "x")
    assert caught.value.details() == {"line": 1, "column": 100_001}


@pytest.mark.parametrize(
    ("value", "indent", "text"),
    [
        (
            {"a": [1, {"b": None}], "c": {}},
            2,
            '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "c": {}\n}',
        ),
        ({"a": [1, 2.5], "b": []}, 0, '{"a":[1,2.5],"b":[]}'),
        ({"a": True}, "\t", '{\n\t"a": true\n}'),
        ({"a": 1}, 20, '{\n          "a": 1\n}'),
        ({"a": 1}, -3, '{"a":1}'),
        ([1.0, -0.0, 1e21], 0, "[1,0,1e+21]"),
    ],
)
def test_dumps_is_javascript_stringify(value: Any, indent: int | str, text: str) -> None:
    assert dumps(value, indent) == text


@pytest.mark.parametrize(
    ("string", "literal"),
    [
        ('say "hi"\\', '"say \\"hi\\"\\\\"'),
        ("\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'),
        ("\x00\x1f\x7f", '"\\u0000\\u001f\x7f"'),
        ("ação ✓ 😀", '"ação ✓ 😀"'),
        ("\ud800", '"\\ud800"'),
        ("a\udc00b", '"a\\udc00b"'),
        ("\ud83d\ude00", '"😀"'),
        ("\u2028", '"\u2028"'),
    ],
)
def test_strings_are_escaped_as_javascript_does(string: str, literal: str) -> None:
    assert dumps(string, 0) == literal


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=20,
)


@given(_json_values)
def test_dumps_then_loads_gives_the_value_back(value: Any) -> None:
    assert loads(dumps(value, 2)) == value
    assert loads(dumps(value, 0)) == value
    assert json.loads(dumps(value, 0)) is not None or value is None


@given(_json_values)
def test_copy_is_equal_and_shares_nothing(value: Any) -> None:
    copied = copy_json(value)
    assert copied == value
    stack = [(value, copied)]
    while stack:
        original, duplicate = stack.pop()
        if isinstance(original, dict | list):
            assert original is not duplicate
            pairs = (
                zip(original.values(), duplicate.values(), strict=True)
                if isinstance(original, dict)
                else zip(original, duplicate, strict=True)
            )
            stack.extend(pairs)


def test_copy_turns_mappings_and_tuples_into_json() -> None:
    from types import MappingProxyType

    assert copy_json(MappingProxyType({"a": (1, 2)})) == {"a": [1, 2]}


@pytest.mark.parametrize(
    ("value", "pointer"),
    [
        ({"a": [1, math.nan]}, "/a/1"),
        ({"a": {"b": math.inf}}, "/a/b"),
        ({"a/b": {1: 2}}, "/a~1b"),
        ({"s": {1, 2}}, "/s"),
        ({"x": object()}, "/x"),
    ],
)
def test_copy_names_what_is_not_json(value: Any, pointer: str) -> None:
    with pytest.raises(NotJsonError) as caught:
        copy_json(value)
    assert caught.value.pointer == pointer


def test_copy_finds_cycles() -> None:
    cyclic: dict[str, Any] = {"a": []}
    cyclic["a"].append(cyclic)
    with pytest.raises(NotJsonError) as caught:
        copy_json(cyclic)
    assert caught.value.pointer == "/a/0"


def test_shared_but_acyclic_values_are_copied_twice() -> None:
    shared = [1]
    copied = copy_json({"a": shared, "b": shared})
    assert copied == {"a": [1], "b": [1]}
    assert copied["a"] is not copied["b"]


def test_copy_works_at_any_depth() -> None:
    value: list[Any] = []
    for _ in range(10_000):
        value = [value]
    copied = copy_json(value)
    assert dumps(copied, 0) == "[" * 10_001 + "]" * 10_001


# -------------------------------------------------------- the fast paths give what the careful ones give


@pytest.mark.parametrize(
    "text",
    [
        "9007199254740993",
        "-9007199254740993",
        "[1, 9007199254740993]",
        '{"a":12345678901234567}',
        '{"a": -12345678901234567, "b": 0.30000000000000004}',
        "[1234567890123456.5]",
        '["12345678901234567", 12345678901234567]',
        "[0.12345678901234567890123, 1e-400, 123456789012345]",
        "[1" + "0" * 300 + "]",
        '{"a":\t12345678901234567}',
        "[\r\n12345678901234567,\n-12345678901234567]",
        '{"id": "A0000000000000001", "n" :12345678901234567}',  # GCS's ids start no literal
        '{"id": "-0000000000000001", "x": "a,12345678901234567"}',  # digits in text: read carefully
    ],
)
def test_long_integer_literals_take_the_careful_decoder(text: str) -> None:
    value = loads(text)
    assert value == _json._DECODER.decode(text)
    assert json.dumps(value) == json.dumps(_json._DECODER.decode(text))


_NUMBER_LITERAL = r"-?(0|[1-9][0-9]{0,40})(\.[0-9]{1,30})?([eE][-+]?[0-9]{1,3})?"
_number_literals = st.from_regex(_NUMBER_LITERAL, fullmatch=True)


@given(
    st.lists(_number_literals, max_size=6),
    st.text(alphabet="0123456789.eE-+ ", max_size=30),
    st.sampled_from((", ", ",", ",\n\t\t", " ,\r\n")),
)
def test_the_fast_decoder_reads_numbers_as_the_careful_one(
    literals: list[str], noise: str, comma: str
) -> None:
    text = '{"noise": ' + json.dumps(noise) + ', "numbers":[' + comma.join(literals) + "]}"
    try:
        expected = _json._DECODER.decode(text)
    except ValueError:  # a number out of range
        with pytest.raises(JsonTextError):
            loads(text)
        return
    assert json.dumps(loads(text)) == json.dumps(expected)


_plain_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=4)
    ),
    max_leaves=25,
)


@given(_plain_values, st.sampled_from([0, 2, "\t", 10]))
def test_the_fast_writer_writes_what_the_careful_one_writes(value: Any, indent: int | str) -> None:
    unit = " " * indent if isinstance(indent, int) else indent
    assert dumps(value, indent) == "".join(_json._encode(copy_json(value), unit))


@given(_plain_values)
def test_the_fast_copy_is_the_careful_copy(value: Any) -> None:
    copied = copy_json(value)
    assert copied == _json._copy_checked(value)
    assert json.dumps(copied) == json.dumps(value)  # keys in their order, values as they were


def test_copied_mappings_keep_the_order_of_their_keys() -> None:
    from types import MappingProxyType

    assert list(copy_json(MappingProxyType({"a": 1, "b": 2}))) == ["a", "b"]
    assert dumps(MappingProxyType({"a": 1, "b": [2]}), 0) == '{"a":1,"b":[2]}'


@pytest.mark.parametrize(
    ("text", "reason", "line", "column"),
    [
        ('{"a": "NaN",\n "b": NaN}', "NaN is not JSON", 2, 7),
        ('{"a": "Infinity", "b": Infinity}', "Infinity is not JSON", 1, 24),
        ('["-Infinity", -Infinity]', "-Infinity is not JSON", 1, 15),
        ('{"a": "1e400",\n\n  "b": 1e400}', "number 1e400 is out of range", 3, 8),
        (
            '["1' + "0" * 400 + '", 1' + "0" * 400 + "]",
            "number 10000000000000000000...0000000000 (401 characters) is out of range",
            1,
            407,
        ),
    ],
)
def test_words_and_numbers_json_lacks_are_placed_where_they_are(
    text: str, reason: str, line: int, column: int
) -> None:
    # the same word inside a string came first and was reported instead (issue 16)
    with pytest.raises(JsonTextError) as caught:
        loads(text)
    assert (caught.value.reason, caught.value.details()) == (reason, {"line": line, "column": column})


def _repeated_by_expanding(value: Any) -> int:
    """What copying ``value`` copies again, by walking every place of the expanded tree: each
    container met a second time counts its length plus one (an independent oracle for the
    careful copy's limit; recursion is fine at these depths)."""
    seen: set[int] = set()

    def walk(node: Any) -> int:
        if not isinstance(node, list | tuple | dict):
            return 0
        again = len(node) + 1 if id(node) in seen else 0
        seen.add(id(node))
        return again + sum(walk(part) for part in (node.values() if isinstance(node, dict) else node))

    return walk(value)


@pytest.mark.parametrize(
    ("make", "repeated"),
    [
        (lambda: tuple([[0] * 99] * 101), 10_000),  # 100 copies again of 99 values and the list
        (lambda: tuple([[0] * 99] * 102), 10_100),
        (lambda: (lambda m: (m, m))([[0] * 1_426] * 4), 9_994),  # 3 x 1,427, then 5 + 4 x 1,427
        (lambda: (lambda m: (m, m))([[0] * 1_427] * 4), 10_001),
    ],
    ids=["flat at the limit", "flat past it", "nested below", "nested past"],
)
def test_shared_data_is_copied_up_to_the_limit_of_repeated_values(
    make: Any, repeated: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The careful copy (a tuple at the root takes it) copies shared parts again up to its limit
    of repeated values (a million; 10,000 here, the same rule at a hundredth of the cost), and
    refuses beyond: a shared container is weighed whole before it is copied again, nested
    sharing counted once per place, as copying it would count."""
    monkeypatch.setattr(_json, "_MAX_REPEATED", 10_000)
    value = make()
    assert _repeated_by_expanding(value) == repeated
    if repeated <= 10_000:
        assert copy_json(value) == json.loads(json.dumps(value))
    else:
        with pytest.raises(NotJsonError, match="its shared parts repeat more than 10000 values"):
            copy_json(value)
