"""The ``date-time`` format: ajv-formats' full mode with a required time zone."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gurps_character import _datetime
from gurps_character._datetime import JS_WHITESPACE, is_date_time


@pytest.mark.parametrize(
    "text",
    [
        "2026-10-04T12:00:00Z",
        "2026-10-04t12:00:00z",
        "2026-10-04T12:00:00.123Z",
        "2026-10-04T12:00:00.123456789Z",
        "2026-10-04T12:00:00.0Z",
        "2026-10-04T12:00:00+05:30",
        "2026-10-04T12:00:00+0530",
        "2026-10-04T12:00:00+05",
        "2026-10-04T12:00:00-03:30",
        "2026-10-04T12:00:00-00:00",
        "2026-10-04T12:00:00+23:59",
        "2026-10-04T00:00:00Z",
        "2026-10-04T23:59:59Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59Z",
        "2026-01-31T12:00:00Z",
        "2026-04-30T12:00:00Z",
        "2026-02-28T12:00:00Z",
    ],
)
def test_accepts(text: str) -> None:
    assert is_date_time(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "2026-10-04",
        "12:00:00Z",
        "2026-10-04T12:00:00",  # the zone is required
        "2026-10-04T12:00Z",  # seconds are required
        "2026-10-04T12:00:00.Z",  # a fraction needs digits
        "2026-10-04T12:00:00,5Z",
        "2026-10-04T24:00:00Z",
        "2026-10-04T12:60:00Z",
        "2026-10-04T12:00:00+24:00",
        "2026-10-04T12:00:00+05:60",
        "2026-10-04T12:00:00+5:30",
        "2026-10-04T12:00:00+05:3",
        "2026-10-04T12:00:00+053",
        "2026-10-04T12:00:00 Z",
        "2026-10-04T1:00:00Z",
        "26-10-04T12:00:00Z",
        "2026-1-04T12:00:00Z",
        "2026-10-4T12:00:00Z",
        "+2026-10-04T12:00:00Z",
        "2026/10/04T12:00:00Z",
        "2026-10-04X12:00:00Z",
        "2026-10-0412:00:00Z",
        "2026-10-04TT12:00:00Z",  # exactly one separator
        "2026-10-04T12:00:00Z ",
        "2026-10-04T12:00:00Z\n",
        " 2026-10-04T12:00:00Z",
        "2026-10-04T12:00:00z\t",
    ],
)
def test_rejects_malformed(text: str) -> None:
    assert not is_date_time(text)


@pytest.mark.parametrize(
    ("date", "valid"),
    [
        ("2026-02-29", False),
        ("2024-02-29", True),
        ("2000-02-29", True),  # divisible by 400
        ("1900-02-29", False),  # divisible by 100 only
        ("2100-02-29", False),
        ("0000-02-29", True),
        ("2024-02-30", False),
        ("2026-04-31", False),
        ("2026-06-31", False),
        ("2026-09-31", False),
        ("2026-11-31", False),
        ("2026-12-31", True),
        ("2026-13-01", False),
        ("2026-00-10", False),
        ("2026-01-00", False),
        ("2026-01-32", False),
    ],
)
def test_real_calendar(date: str, valid: bool) -> None:
    assert is_date_time(f"{date}T12:00:00Z") is valid


@pytest.mark.parametrize("separator", ["T", "t", *JS_WHITESPACE])
def test_every_javascript_separator(separator: str) -> None:
    assert is_date_time(f"2026-10-04{separator}12:00:00Z")


@pytest.mark.parametrize(
    "separator",
    [
        "\u0085",  # NEXT LINE: whitespace to Python, not to JavaScript
        "\u200b",  # ZERO WIDTH SPACE
        "\x1c",  # FILE SEPARATOR: str.split() splits on it, JavaScript's \s does not
        "\u180e",  # MONGOLIAN VOWEL SEPARATOR: no longer a space
        "_",
        "",
        "  ",
        "T ",
    ],
)
def test_other_separators(separator: str) -> None:
    assert not is_date_time(f"2026-10-04{separator}12:00:00Z")


@pytest.mark.parametrize(
    "text",
    [
        "\uff12\uff10\uff12\uff16-10-04T12:00:00Z",  # fullwidth digits
        "٢٠٢٦-10-04T12:00:00Z",  # Arabic-Indic digits
        "2026-10-04T\uff112:00:00Z",
        "2026-10-04T12:00:00.\uff11Z",
        "2026-10-04T12:00:00+\uff105:30",
    ],
)
def test_ascii_digits_only(text: str) -> None:
    assert not is_date_time(text)


@pytest.mark.parametrize(
    ("text", "valid"),
    [
        ("2026-12-31T23:59:60Z", True),
        ("2026-12-31T23:59:60.999Z", True),
        ("2026-12-31T23:59:60z", True),
        ("2026-12-31T23:59:61Z", False),
        ("2026-12-31T23:58:60Z", False),
        ("2026-12-31T22:59:60Z", False),
        ("2026-10-04T12:00:60Z", False),
        # shifted to UTC by the offset: 18:29 at -05:30 is 23:59 UTC
        ("2026-12-31T18:29:60-05:30", True),
        ("2026-12-31T18:29:60-0530", True),
        ("2026-12-31T23:59:60-05:30", False),
        # 00:59 at +01:00 is 23:59 UTC of the day before
        ("2027-01-01T00:59:60+01:00", True),
        ("2027-01-01T00:59:60+01", True),
        ("2027-01-01T00:00:60+00:01", True),
        ("2027-01-01T00:59:60+02:00", False),
        ("2026-12-31T23:59:60+00:00", True),
        ("2026-12-31T23:59:60-00:00", True),
        # ajv-formats bounds hour and minute only before its leap-second branch, which accepts
        # any second below 61 at 23:59 UTC: 24:59 at +01:00 is 23:59 UTC
        ("2026-12-31T24:59:60+01:00", True),
        ("2026-12-31T24:59:59+01:00", True),
        ("2026-12-31T24:58:59+01:00", False),
    ],
)
def test_leap_second_only_at_2359_utc(text: str, valid: bool) -> None:
    assert is_date_time(text) is valid


def test_seconds_are_read_as_a_double() -> None:
    # 59.99999999999999999 is 60 as a double: a leap second, so only valid at 23:59 UTC
    assert not is_date_time("2026-10-04T12:00:59.99999999999999999Z")
    assert is_date_time("2026-12-31T23:59:59.99999999999999999Z")
    assert is_date_time("2026-10-04T12:00:59.9999999999999Z")


def test_long_fractions() -> None:
    assert not is_date_time("2026-10-04T12:00:59." + "9" * 1000 + "Z")  # 60 as a double
    assert is_date_time("2026-12-31T23:59:59." + "9" * 1000 + "Z")
    assert is_date_time("2026-10-04T12:00:00." + "1" * 1000 + "Z")


def test_lone_surrogates_and_odd_text_are_just_invalid() -> None:
    assert not is_date_time("2026-10-04T12:00:00Z\ud800")
    assert not is_date_time("\udc00")
    assert not is_date_time("\x00")


@given(st.from_regex(_datetime._USUAL, fullmatch=True))
def test_the_usual_shape_is_valid_by_the_full_rules(text: str) -> None:
    """The shortcut for the usual date-time takes only texts the full rules accept."""
    date, time = _datetime._SEPARATOR.split(text)
    assert _datetime._is_date(date) and _datetime._is_time(time)


@pytest.mark.parametrize(
    "text",
    ["2026-10-04T12:00:58." + "9" * 40 + "Z", "2026-10-04T12:00:59.999Z", "2026-02-28T23:59:09.5Z"],
)
def test_the_usual_shape_near_its_edges(text: str) -> None:
    assert _datetime._USUAL.fullmatch(text) is not None
    assert is_date_time(text)


@pytest.mark.parametrize(
    "text",
    ["2026-10-04T12:00:59.9999Z", "2026-02-29T12:00:00Z", "2026-10-04T12:00:60Z", "2026-10-04t12:00:00Z"],
)
def test_texts_outside_the_usual_shape_take_the_full_rules(text: str) -> None:
    assert _datetime._USUAL.fullmatch(text) is None
