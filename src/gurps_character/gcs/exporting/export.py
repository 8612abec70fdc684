"""Exporting to GCS: play written back into the file a character came from, or any character as
a new GCS file (:func:`export_gcs`)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any, Final, NamedTuple

from ..._extension import GCS_IMPORT as EXTENSION
from ..._extension import GCS_KEPT_TEXT as KEPT_TEXT
from ..._json import JsonTextError, loads
from ...constants import MAX_DOCUMENT_BYTES
from ...errors import CharacterError, guarded
from ...load import check_envelope, check_max_bytes, require_valid
from ...update import format_timestamp
from ..format.json_text import GcsJsonError
from .new_character import build_character
from .notes import ExportNote
from .text import character_text
from .writeback import BASE_MISMATCH, write_back

__all__ = ["GcsExport", "export_gcs"]


class GcsExport(NamedTuple):
    """What :func:`export_gcs` returns."""

    text: str
    """The GCS file (version 5 for a new character; the original's version for a write-back), as
    GCS writes it, ending with a newline."""
    notes: tuple[ExportNote, ...]
    """What the file does not say as the document does, in the order it was met."""


@guarded
def export_gcs(
    document: Mapping[str, Any],
    *,
    base: str | bytes | None = None,
    now: datetime | None = None,
    max_bytes: int = MAX_DOCUMENT_BYTES,
) -> GcsExport:
    """A character as a GCS (GURPS Character Sheet) file.

    A document imported from GCS (:func:`~gurps_character.import_gcs` keeps the GCS file in its
    extensions) gets its play written back: the original file with the document's HP and FP
    damage, their current values and ``modified_date`` changed, every other byte as it was when
    ``base`` gives the original's text. Any other document becomes a new GCS character whose
    numbers, computed by GCS's rules, are the document's (with the GCS features that make them so
    where the document departs from the rules).

    Args:
        document: A valid gurps-character document (never modified).
        base: The original ``.gcs`` file's text or bytes, for a write-back that leaves every other
            byte as it is; without it, the kept GCS data is written as GCS writes files.
        now: A timezone-aware time for ``modified_date`` (default: the current time).
        max_bytes: The size limit for ``base``.

    Returns:
        ``GcsExport(text, notes)``.

    Raises:
        CharacterError: the document is not a valid gurps-character document (as
            :func:`~gurps_character.serialize_character` refuses it: ``schema`` ...);
            ``baseMismatch`` when ``base`` is another GCS character than the one the document
            was imported from, or the document was not imported from GCS; ``invalidJson`` or
            ``tooLarge`` when ``base`` is no GCS text or is too long; ``invalidArgument`` for a
            ``max_bytes`` that is not a whole number of at least 0, or ``now`` in UTC outside
            the years 1 to 9999.
        TypeError: ``now`` is naive.
    """
    if now is not None and (type(now) is not datetime or now.tzinfo is not UTC):
        format_timestamp(now)  # refuses a naive time or one outside the years 1 to 9999 in UTC
    limit = check_max_bytes(max_bytes)
    if not isinstance(document, Mapping):
        raise CharacterError("notAnObject", "A character document must be a JSON object.")
    check_envelope(document)
    require_valid(document)
    moment = now if now is not None else datetime.now(UTC)
    kept = _kept(document)
    if kept is not None:
        text, notes = write_back(document, kept, base, moment, limit)
        return GcsExport(text, notes)
    if base is not None:
        raise CharacterError(
            BASE_MISMATCH,
            "The document was not imported from GCS (it keeps no GCS file in its extensions), so it "
            "cannot be written into a GCS file; export it without base for a new GCS character.",
            {"expected": None, "found": None},
        )
    data, log = build_character(document, moment)
    try:
        text, replaced = character_text(data)
    except GcsJsonError as err:  # not expected: the export writes only JSON data
        raise CharacterError("invalidDocument", f"The GCS file could not be written: {err}.") from None
    if replaced:
        log.add(
            "",
            "approximated",
            "Some text holds lone UTF-16 surrogates, which are not characters: the file, UTF-8 as GCS "
            "writes it, has U+FFFD in their place.",
        )
    return GcsExport(text, log.notes())


def _kept(document: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The GCS data an import kept in the document, if any: its text (``gcsText``), or the data
    itself as earlier imports kept it (``gcs``).

    Raises:
        CharacterError: ``invalidDocument``: the kept text is not a JSON object.
    """
    extensions = document.get("extensions")
    if not isinstance(extensions, Mapping):
        return None
    summary = extensions.get(EXTENSION)
    if not isinstance(summary, Mapping):
        return None
    text = summary.get(KEPT_TEXT)
    if isinstance(text, str):
        kept = _read_kept(text) if len(text) > _REMEMBERED_CHARACTERS else _remembered_kept(text)
        if kept is None:
            raise CharacterError(
                "invalidDocument",
                f"The GCS file kept in extensions['{EXTENSION}'].{KEPT_TEXT} is not a JSON object.",
                {"pointer": f"/extensions/{EXTENSION}/{KEPT_TEXT}"},
            )
        return kept
    kept = summary.get("gcs")
    return kept if isinstance(kept, Mapping) else None


_REMEMBERED_CHARACTERS: Final = 1_000_000
"""Kept texts up to this length are read once for the last few exported (see
:func:`_remembered_kept`); longer ones every time, so that what is remembered stays small."""


def _read_kept(text: str) -> dict[str, Any] | None:
    """The kept file's data, or None when its text is not a JSON object."""
    try:
        kept = loads(text)
    except JsonTextError:
        return None
    return kept if type(kept) is dict else None


@functools.lru_cache(maxsize=4)
def _remembered_kept(text: str) -> dict[str, Any] | None:
    """:func:`_read_kept`, remembered for the last 4 texts: a bot writes play back into the same
    file fight after fight, and reading the kept text took a third of a write-back. Keyed by the
    text itself (a ``str`` never changes, so the data never goes stale, whatever the caller does
    to its documents); the data goes to :func:`write_back` alone, which only reads it."""
    return _read_kept(text)
