"""The export's shortcuts checked against what they replace: the date's text, a repeated TID,
the notes made without ExportNote's __init__."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import FrozenInstanceError
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs.exporting import new_character
from gurps_character.gcs.exporting.notes import ExportNote, NoteList
from gurps_character.gcs.format.tids import COUNTED, TidMaker


class _OwnIsoformat(datetime):
    """A datetime whose isoformat is not datetime's (the export does not ask it)."""

    def isoformat(self, sep: str = "T", timespec: str = "auto") -> str:
        return "not a date"


@given(
    st.datetimes(
        timezones=st.none() | st.builds(timezone, st.timedeltas(-timedelta(hours=23), timedelta(hours=23)))
    )
)
def test_date_and_time_is_each_field_padded(moment: datetime) -> None:
    expected = (
        f"{moment.year:04d}-{moment.month:02d}-{moment.day:02d}"
        f"T{moment.hour:02d}:{moment.minute:02d}:{moment.second:02d}"
    )
    assert new_character._date_and_time(moment) == expected
    own = _OwnIsoformat.combine(moment.date(), moment.timetz())
    assert new_character._date_and_time(own) == expected


UTC_DATES = st.builds(
    lambda moment, millis, swaps: _swapped(
        f"{moment.year:04d}-{moment:%m-%dT%H:%M:%S}" + (f".{millis:03d}" if millis is not None else "") + "Z",
        swaps,
    ),
    st.datetimes(),
    st.none() | st.integers(0, 999),
    st.lists(st.tuples(st.integers(0, 23), st.sampled_from("0123456789-:T.Z+z ١é")), max_size=2),
)
"""Dates of the shape the library writes (UTC, to the second or millisecond), some with a
character or two changed (into digits of another script, signs, letters)."""


def _swapped(text: str, swaps: list[tuple[int, str]]) -> str:
    characters = list(text)
    for place, character in swaps:
        characters[place % len(characters)] = character
    return "".join(characters)


@given(UTC_DATES)
def test_a_date_of_the_usual_shape_is_read_as_any_date_is(value: str) -> None:
    assert new_character._document_date(value) == new_character._parsed_date(value)


def test_after_the_tids_one_prefix_counts_a_new_prefix_takes_over() -> None:
    seed = "Tamsin Ashdown\x002024-01-01T00:00:00Z\x00gcs"
    prefixes = [
        base64.urlsafe_b64encode(hashlib.sha256(seed.encode() + b"\x00" + number).digest()[:9]).decode(
            "ascii"
        )
        for number in (b"0", b"1")
    ]
    maker = TidMaker(seed)
    first = maker.new("trait")
    assert first == "t" + prefixes[0] + "AAAA"
    maker._count = COUNTED - 1  # as if all but one TID under the first prefix were made
    assert maker.new("skill") == "s" + prefixes[0] + "____"
    assert maker.new("note") == "n" + prefixes[1] + "AAAA"
    assert maker.new("note") == "n" + prefixes[1] + "AAAB"
    assert prefixes[0] != prefixes[1]


@given(st.lists(st.tuples(st.text(max_size=8), st.sampled_from(["differs", "added"]), st.text(max_size=8))))
def test_the_notes_are_export_notes_as_made_by_the_class(raw: list[tuple[str, str, str]]) -> None:
    log = NoteList()
    for source, kind, message in raw:
        log.add(source, kind, message)  # type: ignore[arg-type]
    expected = tuple(ExportNote(*key) for key in dict.fromkeys(raw))
    made = log.notes()
    assert made == expected
    assert [type(note) for note in made] == [ExportNote] * len(expected)
    assert [hash(note) for note in made] == [hash(note) for note in expected]
    assert [note.to_dict() for note in made] == [note.to_dict() for note in expected]
    for note in made:
        with pytest.raises(FrozenInstanceError):
            note.message = "changed"  # type: ignore[misc]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["", "/a", "/b"]), st.sampled_from(["added", "differs"]), st.text(max_size=3)
        ),
        max_size=12,
    )
)
def test_notes_recorded_by_the_recorder_are_those_added(raw: list[tuple[str, str, str]]) -> None:
    added, recorded = NoteList(), NoteList()
    record = recorded.recorder()
    for index, (source, kind, message) in enumerate(raw):
        added.add(source, kind, message)  # type: ignore[arg-type]
        if index % 2:  # both ways into one list: the same notes, in the same order, each once
            recorded.add(source, kind, message)  # type: ignore[arg-type]
        else:
            record((source, kind, message), None)
    assert recorded.notes() == added.notes()
