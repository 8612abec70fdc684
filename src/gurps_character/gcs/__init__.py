"""Importing characters saved by GCS (GURPS Character Sheet, ``.gcs`` files).

One module per concern: :mod:`.reading` (size, JSON, file versions), :mod:`.attributes`,
:mod:`.traits`, :mod:`.skills`, :mod:`.derived` (lift, Move, Dodge, damage), :mod:`.integrity`
(deviations from the rules), :mod:`.notes`, and :mod:`.document`, which assembles them.
"""

from __future__ import annotations

from .document import EXTENSION, GcsImport, import_gcs
from .notes import ImportNote, NoteKind

__all__ = ["EXTENSION", "GcsImport", "ImportNote", "NoteKind", "import_gcs"]
