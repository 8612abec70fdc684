"""Characters to and from GCS (GURPS Character Sheet, ``.gcs`` files).

Importing, one module per concern: :mod:`.reading` (size, JSON, file versions),
:mod:`.attributes`, :mod:`.traits`, :mod:`.skills`, :mod:`.derived` (lift, Move, Dodge, damage),
:mod:`.integrity` (deviations from the rules), :mod:`.notes`, and :mod:`.document`, which
assembles them. Exporting: :mod:`.export` (the entry point), :mod:`.writeback` (play written into
the original file, through :mod:`.json_spans`), :mod:`.new_character` (any character as a new
file, with :mod:`.standard_sheet` and :mod:`.tids`), :mod:`.gcs_json` (GCS's JSON text) and
:mod:`.export_notes`.
"""

from __future__ import annotations

from .document import EXTENSION, KEPT_TEXT, GcsImport, import_gcs
from .export import GcsExport, export_gcs
from .export_notes import ExportNote, ExportNoteKind
from .notes import ImportNote, NoteKind

__all__ = [
    "EXTENSION",
    "KEPT_TEXT",
    "ExportNote",
    "ExportNoteKind",
    "GcsExport",
    "GcsImport",
    "ImportNote",
    "NoteKind",
    "export_gcs",
    "import_gcs",
]
