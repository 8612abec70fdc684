"""Characters to and from GCS (GURPS Character Sheet, ``.gcs`` files), in two wings and what
they share:

* :mod:`.importing` reads a GCS file into a gurps-character document (:func:`import_gcs`);
* :mod:`.exporting` writes GCS files: play written back into the file a character came from, or
  any character as a new file (:func:`export_gcs`);
* :mod:`.format` is what both wings use: GCS's JSON text, its fields, units, ids, damage
  progressions, features, weapon damage and the standard sheet.

Data flows one way: each wing uses :mod:`.format` and the library's core; neither wing imports
the other, and :mod:`.format` imports neither.
"""

from __future__ import annotations

from .exporting.export import GcsExport, export_gcs
from .exporting.notes import ExportNote, ExportNoteKind
from .importing.document import EXTENSION, KEPT_TEXT, GcsImport, import_gcs
from .importing.notes import ImportNote, NoteKind

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
