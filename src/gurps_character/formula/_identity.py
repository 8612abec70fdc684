"""The one input whose derived data may be cached: the library's own frozen schema.

A read-only view is not a frozen value: a ``MappingProxyType`` shows whatever its dict holds now,
and the caller who made it may still hold that dict. So a plan or a table set is cached only for
:data:`gurps_character.SCHEMA` (and its tables), which the library built and nobody else can reach
into; every other schema is read afresh on each call.
"""

from __future__ import annotations

from typing import Any

from ..constants import SCHEMA

__all__ = ["bundled_schema", "bundled_tables", "is_bundled_schema", "is_bundled_tables"]

_BUNDLED_TABLES = SCHEMA.get("x-gurps-tables")


def is_bundled_schema(value: Any) -> bool:
    """Whether ``value`` is the library's own schema object (not an equal or similar one)."""
    return value is SCHEMA


def is_bundled_tables(value: Any) -> bool:
    """Whether ``value`` is the bundled schema's own ``x-gurps-tables`` object."""
    return value is _BUNDLED_TABLES


def bundled_schema() -> Any:
    """The library's own schema."""
    return SCHEMA


def bundled_tables() -> Any:
    """The bundled schema's rule tables."""
    return _BUNDLED_TABLES
