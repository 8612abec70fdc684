"""The GCS importer's extension namespace, and reading the records it keeps there.

Other modules read a few of those records (the body table, each weapon mode's level, Move and
Dodge before GCS's halving); each reader checks the record's shape itself and falls back to the
document's own values when it is absent or not what the importer writes. Standard library only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from typing import Any, Final

__all__ = ["GCS_IMPORT", "GCS_KEPT_TEXT", "importer_record", "kept_gcs_data"]

GCS_IMPORT: Final = "io.github.gurps-sheet.gcs-import"
"""The namespace in ``extensions`` where the GCS importer keeps the file and its records."""

GCS_KEPT_TEXT: Final = "gcsText"
"""The key, in the importer's namespace, of the whole GCS file: its JSON data as one text without
white space. Kept as text, not as nested data, so that the document's own indentation does not
grow with the file's depth: what the document carries of the file stays within a small multiple
of the file's size (twice its data at most: a quote or a backslash is written escaped). The
importer writes it and the export reads it back."""


def importer_record(document: Mapping[str, Any], key: str) -> object | None:
    """``document["extensions"][GCS_IMPORT][key]``, or None wherever the path breaks."""
    extensions = document.get("extensions")
    ours = extensions.get(GCS_IMPORT) if isinstance(extensions, Mapping) else None
    return ours.get(key) if isinstance(ours, Mapping) else None


def kept_gcs_data(document: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The GCS file an import kept (its JSON text read back; the nested data ``gcs`` of documents
    imported before the text), or None when the document keeps none or it is not an object."""
    text = importer_record(document, GCS_KEPT_TEXT)
    if isinstance(text, str):
        return _read_kept(text) if len(text) > _REMEMBERED_CHARACTERS else _remembered_kept(text)
    legacy = importer_record(document, "gcs")
    return legacy if isinstance(legacy, Mapping) else None


_REMEMBERED_CHARACTERS: Final = 1_000_000
"""Kept texts up to this length are read once for the last few asked about (see
:func:`_remembered_kept`); longer ones every time, so that what is remembered stays small."""


def _read_kept(text: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


@functools.lru_cache(maxsize=4)
def _remembered_kept(text: str) -> dict[str, Any] | None:
    """:func:`_read_kept`, remembered for the last 4 texts: an active defense asks twice, and a
    fight asks for every defense and hit, of the same few characters. Keyed by the text itself
    (a ``str`` never changes, so the data never goes stale, whatever the caller does to its
    documents); every reader only reads the data, and none hands it out."""
    return _read_kept(text)
