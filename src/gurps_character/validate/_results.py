"""What a validation gives: :class:`ValidationError` and :class:`ValidationResult`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .._frozen import freeze, thaw

__all__ = ["VALID", "ValidationError", "ValidationResult", "make_error", "result_of"]


@dataclass(frozen=True, slots=True)
class ValidationError:
    """One schema violation, as the reference reports it.

    Attributes:
        pointer: JSON Pointer to the offending value (``""`` for the document itself).
        keyword: The schema keyword that failed (``type``, ``required``, ``pattern`` ...).
        params: Ajv's facts about the failure (``{"missingProperty": "name"}``, ``{"limit": 4}``
            ...), read-only.
        message: The English message: ``"<pointer or (root)>: <what is wrong>"``.
        property_name: For an invalid property name (``extensions`` keys), the name itself.
    """

    pointer: str
    keyword: str
    params: Mapping[str, Any]
    message: str
    property_name: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", freeze(self.params))

    def to_dict(self) -> dict[str, Any]:
        """The error as JSON data.

        Returns:
            ``{"pointer", "keyword", "params", "message"}``, plus ``"propertyName"`` when the
            error is about a property name. The params are a fresh copy.
        """
        result: dict[str, Any] = {
            "pointer": self.pointer,
            "keyword": self.keyword,
            "params": thaw(self.params),
            "message": self.message,
        }
        if self.property_name is not None:
            result["propertyName"] = self.property_name
        return result


@dataclass(frozen=True, slots=True)
class ValidationResult:
    """The outcome of :func:`validate_character`.

    Attributes:
        valid: Whether the document matches the schema.
        errors: Every violation found (empty when valid).
    """

    valid: bool
    errors: tuple[ValidationError, ...]

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON data.

        Returns:
            ``{"valid", "errors": [...]}``, each error as :meth:`ValidationError.to_dict` gives it.
        """
        return {"valid": self.valid, "errors": [error.to_dict() for error in self.errors]}


VALID = ValidationResult(valid=True, errors=())


def result_of(errors: list[ValidationError]) -> ValidationResult:
    return ValidationResult(valid=not errors, errors=tuple(errors))


def make_error(pointer: str, keyword: str, params: Mapping[str, Any], text: str) -> ValidationError:
    return ValidationError(pointer, keyword, params, f"{pointer or '(root)'}: {text}")
