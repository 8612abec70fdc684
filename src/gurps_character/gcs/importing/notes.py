"""What an import could not carry over as it was: one note per thing, for a person to read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ImportNote", "NoteKind", "NoteLog", "listing", "shortened"]

NoteKind = Literal[
    "notCarried",
    "movedToExtensions",
    "approximated",
    "deviation",
    "defaulted",
]
"""Every value of :attr:`ImportNote.kind`:

* ``notCarried``: the document has no place for it and it is kept only in the GCS data under
  ``extensions`` (for example a disabled trait or equipment that is not carried);
* ``movedToExtensions``: what the format cannot hold (spells' details, techniques' defaults,
  trait modifiers and features, attributes beyond the ten, hit-location tables, GCS ids) is in
  the importer's ``extensions`` namespace;
* ``approximated``: a value was converted or rounded to fit the format (a fractional level,
  a unit), or picked among several (the skill behind a parry);
* ``deviation``: a stored value is GCS's and differs from the format's rule formula; the
  document lists it in ``integrity.deviations`` with the GCS cause;
* ``defaulted``: the file did not say and the importer filled a value in (a missing name,
  a missing FP attribute).
"""


@dataclass(frozen=True, slots=True)
class ImportNote:
    """One thing a GCS import did not carry over as it was.

    Attributes:
        source: A JSON Pointer into the GCS file (``""`` for the whole file).
        kind: A stable code: ``notCarried`` (kept only in ``extensions``),
            ``movedToExtensions``, ``approximated``, ``deviation`` or ``defaulted``
            (``gurps_character.gcs.NoteKind`` says what each means).
        message: English text for a person.
    """

    source: str
    kind: str
    message: str

    def to_dict(self) -> dict[str, str]:
        """The import note as JSON data.

        Returns:
            ``{"source", "kind", "message"}``.
        """
        return {"source": self.source, "kind": self.kind, "message": self.message}


class NoteLog:
    """The notes of one import, in the order they were made (the same text noted twice at the
    same place is kept once)."""

    def __init__(self) -> None:
        self._notes: dict[tuple[str, str, str], None] = {}

    def add(self, source: str, kind: NoteKind, message: str) -> None:
        """Records a note."""
        self._notes.setdefault((source, kind, message), None)

    def notes(self) -> tuple[ImportNote, ...]:
        """The notes so far."""
        return tuple(ImportNote(source, kind, message) for source, kind, message in self._notes)


def shortened(text: str, limit: int) -> str:
    """``text`` as it is when it has at most ``limit`` characters, else cut at the last word
    boundary within the limit and ended with "…" (never inside a word, unless the first word
    alone is longer than the limit)."""
    text = " ".join(text.split()) if len(text) <= 4 * limit else " ".join(text[: 4 * limit].split())
    if len(text) <= limit:
        return text
    cut = text[: max(limit - 1, 1)]
    space = cut.rfind(" ")
    if space > 0:
        cut = cut[:space]
    return cut.rstrip(" ,;:-") + "…"


def listing(names: list[str], limit: int) -> str:
    """Names joined by commas, at most ``limit`` characters: whole names only, and "…" with the
    count of those left out when they do not all fit."""
    joined = ", ".join(names)
    if len(joined) <= limit:
        return joined
    kept: list[str] = []
    used = 0
    for name in names:
        if used + len(name) + 2 > limit:
            break
        kept.append(name)
        used += len(name) + 2
    rest = len(names) - len(kept)
    return ", ".join(kept) + f", … ({rest} more)" if kept else f"{len(names)} items"
