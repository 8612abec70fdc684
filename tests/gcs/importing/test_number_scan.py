"""The scan that spares the import its walk for numbers beyond ±10^9.

:func:`~gurps_character.gcs.importing.reading.may_exceed_bounds` reads the kept (compact) text of
a file; when it says no, the import leaves out the walk that
:func:`~gurps_character.gcs.importing.reading.numbers_beyond_bounds` makes, so it must say yes for
every file that walk finds something in: numbers written as numbers or as text, with signs,
commas, points, white space of any kind, escapes, next to each other in lists.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gurps_character.gcs.format.json_text import compact_text
from gurps_character.gcs.importing.reading import may_exceed_bounds, numbers_beyond_bounds

_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000"
"""Every kind of white space a number's text may have around it (and ``\\s`` matches)."""

_NUMERALS = st.builds(
    lambda before, sign, whole, fraction: before + sign + whole + fraction,
    st.text(st.sampled_from(_SPACES), max_size=30),
    st.sampled_from(["", "+", "-"]),
    st.from_regex(r"[0-9][0-9,]{0,24}", fullmatch=True),
    st.one_of(st.just(""), st.from_regex(r"\.[0-9]{1,40}", fullmatch=True)),
)
"""Texts that are nothing but a number, some beyond ±10^9 or too long to be read as one."""

_SCALARS = st.one_of(
    _NUMERALS,
    st.text(max_size=12),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.sampled_from([10**9, 10**9 + 1, -(10**9) - 1, 999_999_999]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([1e9, 1.0000001e9, -1e16, 1.5e16, 1e300, 0.5, 1e-7]),
    st.booleans(),
    st.none(),
)
_DATA = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=6), st.dictionaries(st.text(max_size=4), inner, max_size=6)
    ),
    max_leaves=30,
)


def _found(data: Any) -> bool:
    return numbers_beyond_bounds({"data": data}, 1)[1] > 0


def _says_maybe(data: Any) -> bool:
    return may_exceed_bounds(compact_text({"data": data}))


@settings(max_examples=400, deadline=None)
@given(_DATA)
def test_whatever_the_walk_finds_the_scan_does_not_rule_out(data: Any) -> None:
    if _found(data):
        assert _says_maybe(data)


@pytest.mark.parametrize(
    "value",
    [
        1_000_000_001,
        -1_000_000_001,
        1_000_000_000.5,
        1e16,
        -2.5e17,
        [0.5, 1_234_567_890],
        [True, 1_234_567_890],
        "1,000,000,000,000",
        "-1234567890",
        "+1,234,567,890.5",
        "\u3000" + "1" * 10,
        " " * 39 + "5",
        "\u00a0" * 35 + "12345",
        "\t" * 38 + "+7",
        "1." + "0" * 38,
        ["x", "\u2003" * 40 + "1"],
    ],
)
def test_numbers_beyond_the_bounds_and_numerals_too_long_are_not_ruled_out(value: Any) -> None:
    assert _found(value)
    assert _says_maybe(value)


@pytest.mark.parametrize(
    "value",
    [
        {"id": "A0000000000000000", "points": 999_999_999, "weight": "2.5 lb"},
        {"a": [1, -2, "99,999"], "b": -12, "c": [0.3333333333333333, 1e-05]},
        {"notes": "Level 5- or better; 12 + 3 = 15", "calc": {"move": [5, 4, 3, 2, 1]}},
    ],
)
def test_a_usual_file_is_ruled_out_without_the_walk(value: Any) -> None:
    assert not _found(value)
    assert not _says_maybe(value)
