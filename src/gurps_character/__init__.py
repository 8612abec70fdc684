"""Load, validate, verify and update GURPS 4th Edition characters (gurps-character format v1.3)."""

from __future__ import annotations

from .constants import FORMAT, LATEST_VERSION, MAX_DOCUMENT_BYTES, SCHEMA, SUPPORTED_MINOR, VOCABULARY
from .errors import CharacterError

__all__ = [
    "FORMAT",
    "LATEST_VERSION",
    "MAX_DOCUMENT_BYTES",
    "SCHEMA",
    "SUPPORTED_MINOR",
    "VOCABULARY",
    "CharacterError",
]
