"""Deeply read-only views of JSON data, for constants nobody may corrupt."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["freeze", "thaw"]

_SCALARS = frozenset({str, int, float, bool, type(None)})
"""Immutable JSON values, returned as they are (checked by exact type: the common case)."""


def freeze(value: Any) -> Any:
    """Objects become read-only mappings and arrays tuples, all the way down."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:
        return MappingProxyType(
            {key: item if type(item) in _SCALARS else freeze(item) for key, item in value.items()}
        )
    if kind is list or kind is tuple:
        return tuple([item if type(item) in _SCALARS else freeze(item) for item in value])
    if isinstance(value, Mapping):
        return MappingProxyType({key: freeze(item) for key, item in value.items()})
    if isinstance(value, list | tuple):
        return tuple(freeze(item) for item in value)
    return value


def thaw(value: Any) -> Any:
    """A fresh, mutable JSON copy (dicts and lists) of a frozen or plain value."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if isinstance(value, Mapping):
        return {key: item if type(item) in _SCALARS else thaw(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [item if type(item) in _SCALARS else thaw(item) for item in value]
    return value
