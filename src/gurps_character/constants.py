"""Format constants and the bundled, read-only schema and vocabulary."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from ._frozen import freeze
from ._resources import SCHEMA_FILE, VOCABULARY_FILE, read_json_resource

__all__ = [
    "FORMAT",
    "LATEST_VERSION",
    "LEGACY_FORMAT",
    "MAX_DOCUMENT_BYTES",
    "SCHEMA",
    "SUPPORTED_MAJOR",
    "SUPPORTED_MINOR",
    "VOCABULARY",
]

FORMAT: Final = "gurps-character"
"""The value of ``format`` in every document."""

LEGACY_FORMAT: Final = "gurps-sheet"
"""The sheet editor's old, pre-schema export format."""

LATEST_VERSION: Final = "1.3.0"
"""The newest format version this library reads and writes."""

SUPPORTED_MAJOR: Final = 1
SUPPORTED_MINOR: Final = 3
"""Documents up to ``1.<SUPPORTED_MINOR>.x`` are read; newer minors need a newer library."""

MAX_DOCUMENT_BYTES: Final = 2_000_000
"""Default limit for a document's size, in UTF-8 bytes."""

SCHEMA: Final[Mapping[str, Any]] = freeze(read_json_resource(SCHEMA_FILE))
"""The bundled JSON Schema (draft 2020-12), as a deeply read-only mapping (arrays are tuples)."""

VOCABULARY: Final[Mapping[str, Any]] = freeze(read_json_resource(VOCABULARY_FILE))
"""The meta-schema of the ``x-gurps`` annotation keywords, deeply read-only."""
