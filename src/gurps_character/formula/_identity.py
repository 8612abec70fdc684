"""Caching by identity, for inputs that are read-only all the way down (the frozen schema)."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Final

__all__ = ["ByIdentity", "deeply_frozen"]

_MAX_DEPTH: Final = 200


class ByIdentity:
    """A cache key equal only to a key for the very same object; it keeps the object alive, so
    the ``id`` cannot be reused while the key is cached."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __hash__(self) -> int:
        return id(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ByIdentity) and other.value is self.value


def deeply_frozen(value: Any, depth: int = 0) -> bool:
    """Whether ``value`` is built only of read-only mappings, tuples and JSON scalars (so that
    whatever is derived from it may be cached for as long as the object lives)."""
    if depth > _MAX_DEPTH:
        return False
    if isinstance(value, MappingProxyType):
        return all(_key_ok(k) and deeply_frozen(item, depth + 1) for k, item in value.items())
    if isinstance(value, tuple):
        return all(deeply_frozen(item, depth + 1) for item in value)
    return value is None or type(value) in (str, int, float, bool)


def _key_ok(key: Any) -> bool:
    return type(key) is str
