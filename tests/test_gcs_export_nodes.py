"""The export's shortcuts checked against what they replace: the date's text, a repeated TID,
the notes made without ExportNote's __init__."""

from __future__ import annotations

import base64
import hashlib
import random
from dataclasses import FrozenInstanceError
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gurps_character.gcs import new_character
from gurps_character.gcs.export_notes import ExportNote, NoteList
from gurps_character.gcs.tids import KINDS, TidMaker


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


def test_a_tid_given_already_is_skipped_for_the_next_drawn() -> None:
    seed = "Tamsin Ashdown\x002024-01-01T00:00:00Z\x00gcs"
    generator = random.Random(int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big"))
    bodies = [base64.urlsafe_b64encode(generator.randbytes(12)).decode("ascii") for _ in range(130)]
    maker = TidMaker(seed)
    assert maker.new("trait") == "t" + bodies[0]
    maker._given.add("s" + bodies[1])  # as if drawn before for a skill
    assert maker.new("skill") == "s" + bodies[2]  # the next characters drawn
    assert maker.new("trait") == "t" + bodies[3]
    for index in range(4, 63):
        assert maker.new("note") == KINDS["note"] + bodies[index]
    maker._given.add("e" + bodies[63])  # the last of the first draw given already: draw again
    assert maker.new("equipment") == "e" + bodies[64]
    assert maker.new("equipment") == "e" + bodies[65]


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
