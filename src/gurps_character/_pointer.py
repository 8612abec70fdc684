"""JSON Pointers (RFC 6901): the one place that escapes and unescapes their tokens."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["escape_token", "pointer_of", "unescape_token"]


def escape_token(token: str) -> str:
    """A property name as a pointer token: ``~`` becomes ``~0`` and ``/`` becomes ``~1`` (in that
    order, so that ``/`` is never read back as ``~1``)."""
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    """The property name a pointer token stands for (``~1`` first, then ``~0``)."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer_of(path: Iterable[object]) -> str:
    """The pointer of a path of property names and array indexes (``""`` for the root)."""
    return "".join("/" + (escape_token(part) if isinstance(part, str) else str(part)) for part in path)
