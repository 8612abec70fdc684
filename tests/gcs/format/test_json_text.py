"""GCS's JSON text (gcs/gcs_json.py), the one writer of every GCS file the export makes: the text
of Python's indenting encoder with a tab, GCS's five extra escapes, keys in the data's order,
numbers as Python writes them, lone surrogates as U+FFFD, any depth, and what JSON cannot hold
refused."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gurps_character.gcs.format import json_text as gcs_json
from gurps_character.gcs.format.json_text import (
    GcsJsonError,
    GcsTextTooLong,
    RawJson,
    gcs_text,
    gcs_text_checked,
)

TEXTS = st.text(
    alphabet=st.characters(codec="utf-8") | st.sampled_from('&<>\u2028\u2029"\\\t\n\x00'), max_size=8
)
"""Any text that is Unicode, with what GCS escapes (and what JSON escapes) likelier."""
SCALARS = (
    TEXTS
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.booleans()
    | st.none()
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXTS, inner, max_size=4),
    max_leaves=20,
)


def go_text(data: Any) -> str:
    """What GCS (Go's encoder, tab-indented) writes: Python's encoder with a tab and Go's escapes."""
    text = json.dumps(data, indent="\t", ensure_ascii=False) + "\n"
    for character, escaped in (("&", "\\u0026"), ("<", "\\u003c"), (">", "\\u003e")):
        text = text.replace(character, escaped)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VALUES)
def test_any_json_value_is_written_as_gcs_writes_it(data: Any) -> None:
    assert gcs_text_checked(data) == (go_text(data), False)


def test_the_five_characters_gcs_escapes_are_escaped() -> None:
    assert gcs_text({"a&b": '<x> & \u2028\u2029 "q" \\ \t é'}) == (
        '{\n\t"a\\u0026b": "\\u003cx\\u003e \\u0026 \\u2028\\u2029 \\"q\\" \\\\ \\t é"\n}\n'
    )


def test_numbers_take_pythons_shortest_forms() -> None:
    numbers = [0, -0.0, 1.0, 0.1, 1e16, 1.5e-7, 123456789012345678901234567890, True, None]
    assert gcs_text(numbers) == (
        "[\n\t0,\n\t-0.0,\n\t1.0,\n\t0.1,\n\t1e+16,\n\t1.5e-07,\n\t123456789012345678901234567890,\n\ttrue,\n\tnull\n]\n"
    )


def test_keys_keep_the_datas_order_and_empty_containers_stay_on_their_line() -> None:
    data = {"z": 1, "a": {"y": [], "b": {}}, "m": [{"k": "v"}]}
    assert gcs_text(data) == (
        '{\n\t"z": 1,\n\t"a": {\n\t\t"y": [],\n\t\t"b": {}\n\t},'
        '\n\t"m": [\n\t\t{\n\t\t\t"k": "v"\n\t\t}\n\t]\n}\n'
    )


def test_lone_surrogates_are_written_as_the_replacement_character() -> None:
    assert gcs_text_checked({"name": "a\ud800b"}) == ('{\n\t"name": "a\ufffdb"\n}\n', True)
    assert gcs_text_checked({"name": "a\U0001f600b"}) == ('{\n\t"name": "a\U0001f600b"\n}\n', False)


def test_data_deeper_than_recursion_is_written_the_same() -> None:
    deep: Any = {"end": [1, "x"]}
    for index in range(450):  # past the recursive writer's 200 levels, within json's
        deep = [deep] if index % 2 else {"k": deep, "n": index}
    assert gcs_text_checked(deep) == (go_text(deep), False)


def test_data_that_would_be_too_long_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    deep: Any = "end"
    for _ in range(300):
        deep = [deep]
    length = len(go_text(deep)) - 1  # without the final newline
    monkeypatch.setattr(gcs_json, "MAX_TEXT_LENGTH", length)
    assert gcs_text(deep) == go_text(deep)
    monkeypatch.setattr(gcs_json, "MAX_TEXT_LENGTH", length - 1)
    with pytest.raises(GcsTextTooLong, match=r"^the text would be over"):
        gcs_text(deep)


def test_raw_json_is_written_as_it_is() -> None:
    data = {"settings": {"attributes": RawJson("[\n\t\t\t1\n\t\t]")}}
    assert gcs_text(data) == '{\n\t"settings": {\n\t\t"attributes": [\n\t\t\t1\n\t\t]\n\t}\n}\n'


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"points": math.nan}, "nan is not a JSON number"),
        ([math.inf], "inf is not a JSON number"),
        ({"calc": {1: 2}}, "the key 1 is not text"),
        ({"calc": {1, 2}}, "a set is not JSON data"),
    ],
)
def test_what_json_cannot_hold_is_refused(data: Any, message: str) -> None:
    with pytest.raises(GcsJsonError) as caught:
        gcs_text(data)
    assert str(caught.value) == message


@given(VALUES)
def test_compact_text_of_acyclic_data_is_the_same_text(value: Any) -> None:
    """The import's data has no cycle (read from text, or copied): the encoder's check left out,
    the text is the same."""
    assert gcs_json.compact_text(value, acyclic=True) == gcs_json.compact_text(value)


def test_compact_text_of_acyclic_data_deeper_than_recursion_is_the_same_text() -> None:
    deep: Any = {"end": [1.5, "x"]}
    for index in range(3_000):
        deep = [deep] if index % 2 else {"k": deep, "n": index}
    assert gcs_json.compact_text(deep, acyclic=True) == gcs_json.compact_text(deep)
    assert gcs_json.compact_text(deep, acyclic=True).startswith('[{"k":[{"k":')
