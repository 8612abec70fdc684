"""Deeply read-only views of JSON data, for constants nobody may corrupt."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["freeze", "thaw"]


def freeze(value: Any) -> Any:
    """Objects become read-only mappings and arrays tuples, all the way down."""
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """A fresh, mutable JSON copy (dicts and lists) of a frozen or plain value."""
    if isinstance(value, Mapping):
        return {key: thaw(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [thaw(item) for item in value]
    return value
