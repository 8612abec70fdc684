"""What an export to GCS could not say as the document says it: one note per thing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

__all__ = ["ExportNote", "ExportNoteKind", "NoteList"]

ExportNoteKind = Literal[
    "notCarried",
    "approximated",
    "deviation",
    "defaulted",
    "added",
    "differs",
    "playWritten",
    "sourceChanged",
]
"""Every value of :attr:`ExportNote.kind`:

* ``notCarried``: GCS has no place for it, and the file leaves it out (another tool's
  extensions, a hit location the body does not have);
* ``approximated``: converted or rounded to fit GCS (metric height and weight in feet and
  pounds, a cost limitation GCS cannot price);
* ``deviation``: a stored value departs from the rules, and the file has the GCS feature or
  adjustment that makes GCS show the same number (a Dodge bonus, an attribute bonus);
* ``defaulted``: the document did not say and the export filled a value in (a weapon's skill);
* ``added``: the file has something the document has not, to carry a number GCS computes from
  it (a trait holding bonuses, a shield's bash that carries its Block);
* ``differs``: GCS's rules give another number than the document stores, and no feature can make
  them agree (GCS keeps Move at least 1; it halves Move and Dodge while a pool is low);
* ``playWritten``: what a write-back wrote into the GCS file (or why it wrote nothing);
* ``sourceChanged``: the GCS file given is no longer the one the document was imported from
  (changed in GCS since), apart from the values a write-back writes.
"""


@dataclass(frozen=True, slots=True)
class ExportNote:
    """One thing an export did not carry over as the document has it.

    Attributes:
        source: A JSON Pointer into the document (``""`` for the whole document).
        kind: A stable code: ``notCarried`` (GCS has no place for it), ``approximated``,
            ``deviation``, ``defaulted``, ``added``, ``differs``, ``playWritten`` or
            ``sourceChanged`` (``gurps_character.gcs.ExportNoteKind`` says what each means).
        message: English text for a person.
    """

    source: str
    kind: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The export note as JSON data.

        Returns:
            ``{"source", "kind", "message"}``.
        """
        return {"source": self.source, "kind": self.kind, "message": self.message}


class NoteList:
    """The notes of one export, in the order they were made (a repeated note is kept once)."""

    def __init__(self) -> None:
        self._notes: dict[tuple[str, str, str], None] = {}

    def add(self, source: str, kind: ExportNoteKind, message: str) -> None:
        """Records a note."""
        self._notes.setdefault((source, kind, message), None)

    def recorder(self) -> Callable[[tuple[str, str, str], None], None]:
        """What :meth:`add` does, called with the note's ``(source, kind, message)`` and None: for
        a caller that records many notes (one call each, where :meth:`add` makes two)."""
        return self._notes.setdefault

    def notes(self) -> tuple[ExportNote, ...]:
        """The notes so far."""
        made = []
        for source, kind, message in self._notes:
            # ExportNote(source, kind, message), its slots set directly: the frozen dataclass's
            # __init__ sets each through object.__setattr__, which takes as long again
            note: ExportNote = _new_note(ExportNote)
            _set_source(note, source)
            _set_kind(note, kind)
            _set_message(note, message)
            made.append(note)
        return tuple(made)


_new_note: Final = object.__new__
_set_source: Final = vars(ExportNote)["source"].__set__  # the slot's descriptor
_set_kind: Final = vars(ExportNote)["kind"].__set__
_set_message: Final = vars(ExportNote)["message"].__set__
