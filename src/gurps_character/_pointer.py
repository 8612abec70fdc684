"""JSON Pointers (RFC 6901): the one place that escapes and unescapes their tokens."""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

__all__ = ["escape_token", "parent_of", "pointer_of", "tokens_of", "unescape_token"]


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


def tokens_of(pointer: str) -> tuple[str, ...]:
    """The property names and array indexes (as text) a pointer walks, unescaped; ``()`` for
    the root ``""``. The inverse of :func:`pointer_of`. Kept for the pointers used most (the
    pools' ``current``, written at every blow of a fight); a str subclass is split anew."""
    return _kept_tokens(pointer) if type(pointer) is str else _tokens(pointer)


def _tokens(pointer: str) -> tuple[str, ...]:
    return tuple(unescape_token(token) for token in pointer.split("/")[1:])


def parent_of(document: dict[str, Any], pointer: str) -> tuple[dict[str, Any] | None, str]:
    """The object a pointer's last token names a property of, and that property's name: ``(None,
    "")`` when the pointer is the root, or a step on the way is missing or the parent is no object."""
    tokens = tokens_of(pointer)
    node: Any = document
    for token in tokens[:-1]:
        # No list is 16 digits long, so int() is never handed a digit string of any length.
        if (
            isinstance(node, list)
            and token.isascii()
            and token.isdigit()
            and len(token) <= 15
            and int(token) < len(node)
        ):
            node = node[int(token)]
        elif isinstance(node, dict) and token in node:
            node = node[token]
        else:
            return None, ""
    return (node, tokens[-1]) if isinstance(node, dict) and tokens else (None, "")


_kept_tokens = functools.lru_cache(maxsize=1024)(_tokens)
