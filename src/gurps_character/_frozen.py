"""Deeply read-only views of JSON data, for constants and results nobody may corrupt.

Results carry numbers as JSON means them: a whole number is an ``int`` (``5``, not ``5.0``, as
the reference's ``JSON.stringify`` writes it), whatever type the document stored it as.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["freeze", "json_number", "thaw"]

_SCALARS = frozenset({str, int, bool, type(None)})
"""Immutable JSON values, returned as they are (checked by exact type: the common case)."""

_SAFE_INTEGER = 2**53


def json_number(value: Any) -> Any:
    """A whole float within ±2**53 as an ``int`` (``5.0`` → ``5``); any other value as it is."""
    if type(value) is float and value.is_integer() and -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
        return int(value)
    return value


def freeze(value: Any) -> Any:
    """Objects become read-only mappings and arrays tuples, all the way down; whole floats
    become ints."""
    # Containers first: the comprehensions below keep the scalars themselves, so the calls
    # they make are for containers and floats.
    kind = type(value)
    if kind is dict:
        return MappingProxyType(
            {key: item if type(item) in _SCALARS else freeze(item) for key, item in value.items()}
        )
    if kind is list or kind is tuple:
        return tuple([item if type(item) in _SCALARS else freeze(item) for item in value])
    if kind in _SCALARS:
        return value
    if kind is float:
        if value.is_integer() and -_SAFE_INTEGER <= value <= _SAFE_INTEGER:
            return int(value)
        return value
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
