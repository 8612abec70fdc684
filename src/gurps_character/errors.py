"""The one exception type of the engine API, with stable codes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

__all__ = ["CharacterError", "ErrorCode"]

ErrorCode = Literal[
    "tooLarge",
    "invalidJson",
    "notAnObject",
    "legacyFormat",
    "wrongFormat",
    "unsupportedVersion",
    "newerVersion",
    "schema",
    "notUpdatable",
    "invalidValue",
    "outOfBounds",
    "invalidAmount",
    "invalidArgument",
    "invalidDocument",
]
"""Every value of :attr:`CharacterError.code`."""


class CharacterError(ValueError):
    """A character could not be loaded, checked or changed.

    Attributes:
        code: A stable, machine-readable code (see the README's error table).
        details: JSON-ready facts about the failure, for building your own (localized) message.
        message: The English message, also given by ``str(error)``.
    """

    code: str
    details: dict[str, Any]
    message: str

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = dict(details) if details is not None else {}

    def to_dict(self) -> dict[str, Any]:
        """The error as JSON: ``{"code", "message", "details"}``."""
        return {"code": self.code, "message": self.message, "details": self.details}

    def __repr__(self) -> str:
        return f"CharacterError(code={self.code!r}, message={self.message!r})"
