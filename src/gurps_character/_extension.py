"""The GCS importer's extension namespace, and reading the records it keeps there.

Other modules read a few of those records (the body table, each weapon mode's level, Move and
Dodge before GCS's halving); each reader checks the record's shape itself and falls back to the
document's own values when it is absent or not what the importer writes. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

__all__ = ["GCS_IMPORT", "importer_record"]

GCS_IMPORT: Final = "io.github.gurps-sheet.gcs-import"
"""The namespace in ``extensions`` where the GCS importer keeps the file and its records."""


def importer_record(document: Mapping[str, Any], key: str) -> object | None:
    """``document["extensions"][GCS_IMPORT][key]``, or None wherever the path breaks."""
    extensions = document.get("extensions")
    ours = extensions.get(GCS_IMPORT) if isinstance(extensions, Mapping) else None
    return ours.get(key) if isinstance(ours, Mapping) else None
